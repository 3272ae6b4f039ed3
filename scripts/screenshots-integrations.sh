#!/usr/bin/env bash
# Builds the example sites of Integrations/examples/ with their real generators, runs
# `tagflow enhance` with each host's preset and takes docs/integrations.md's screenshots with
# headless Chromium (Tests/Browser/chromium_cdp.py, pinned fonts, 1280 px wide).
# Usage: scripts/screenshots-integrations.sh   (writes docs/integration-*.png)
#   TAGFLOW=/path/to/tagflow skips `swift build`; CHROMIUM=/path/to/chromium picks the browser.
# Needs hugo, jekyll, mkdocs and pelican (scripts/install-hosts.sh) and the fonts Liberation
# Sans/Serif/Mono, Noto Sans CJK JP and Noto Color Emoji (fc-match finds them).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TAGFLOW:-}" ]; then
    swift build --product tagflow
    TAGFLOW=.build/debug/tagflow
fi
for host in hugo jekyll mkdocs pelican; do
    command -v "$host" >/dev/null || { echo "error: $host is not installed (scripts/install-hosts.sh)" >&2; exit 1; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
Integrations/examples/build-all.sh "$out"
for pair in hugo:hugo jekyll:jekyll mkdocs:mkdocs-material pelican:pelican; do
    "$TAGFLOW" enhance "$out/${pair%%:*}" --preset "${pair#*:}" --strict
done
python3 - "$out" <<'EOF'
import base64, glob, os, sys
sys.path.insert(0, "Tests/Browser")
import chips_browser as cb  # noqa: E402  (importing it lets loopback through the driver's dead proxy)
import chromium_cdp as cdp  # noqa: E402

site = sys.argv[1]
jekyll_post = os.path.relpath(glob.glob(f"{site}/jekyll/*/*/*/coffee-stops-in-kyoto.html")[0], f"{site}/jekyll")
# name, host folder, page, selectors whose lowest bottom (plus 24 px) ends the picture.
SHOTS = [
    ("hugo", "hugo", "posts/coffee-stops-in-kyoto/", [".tf-flow", "body > footer"]),
    ("hugo-cloud", "hugo", "tags/", [".tf-flow", "body > footer"]),
    ("jekyll", "jekyll", jekyll_post, [".tf-flow"]),
    ("jekyll-cloud", "jekyll", "tags/", [".tf-flow"]),
    ("mkdocs", "mkdocs", "posts/coffee-stops-in-kyoto/", [".md-content article", ".md-nav--primary"]),
    ("pelican", "pelican", "coffee-stops-in-kyoto.html", ["#content"]),
    ("pelican-cloud", "pelican", "tags.html", ["#content"]),
]
WIDTH, HEIGHT = 1280, 800
# Only these fonts exist for Chromium (no system fonts), so the pictures are the same on every
# machine; the themes' generic and common families are mapped onto them.
FONTS = ["Liberation Sans:style=Regular", "Liberation Sans:style=Bold", "Liberation Sans:style=Italic",
         "Liberation Sans:style=Bold Italic", "Liberation Serif:style=Regular", "Liberation Serif:style=Bold",
         "Liberation Serif:style=Italic", "Liberation Mono:style=Regular", "Liberation Mono:style=Bold",
         "Noto Sans CJK JP:style=Regular", "Noto Color Emoji"]
ALIASES = {"Liberation Sans": ["sans-serif", "Arial", "Helvetica", "system-ui", "Roboto"],
           "Liberation Serif": ["serif", "Times New Roman", "Times"],
           "Liberation Mono": ["monospace", "Courier New", "Courier", "Roboto Mono"]}
xml = cdp.hinting_xml("slight") + "".join(
    f'  <alias binding="same"><family>{alias}</family><prefer><family>{font}</family>'
    '<family>Noto Sans CJK JP</family><family>Noto Color Emoji</family></prefer></alias>\n'
    for font, aliases in ALIASES.items() for alias in aliases)
fonts = [cdp.resolve_font("fontconfig:" + f, ".") for f in FONTS]
failed = False
with cdp.Browser(fonts, fc_match_xml=xml, hinting="slight") as browser:
    for name, host, page, until in SHOTS:
        server = cb.serve(os.path.join(site, host))
        url = "http://127.0.0.1:%d/%s" % (server.server_address[1], page)
        cb.open_page(browser, url, WIDTH)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        check = browser.evaluate(cb.CHECK_JS)
        bottom = browser.evaluate("Math.max(...%r.map(s => [...document.querySelectorAll(s)])"
                                  ".flat().map(e => e.getBoundingClientRect().bottom + scrollY))" % until)
        height = min(HEIGHT, round(bottom) + 24)
        if not check["blocks"] or check["problems"]:
            print(f"{name}: {check['blocks']} chip blocks; " + "; ".join(check["problems"]), file=sys.stderr)
            failed = True
        shot = browser.call("Page.captureScreenshot", {"format": "png", "clip": {
            "x": 0, "y": 0, "width": WIDTH, "height": height, "scale": 1}})
        with open(f"docs/integration-{name}.png", "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        print(f"docs/integration-{name}.png  {WIDTH}x{height}  {page}  "
              f"{check['blocks']} blocks, {check['chips']} chips")
        server.shutdown()
        server.server_close()
sys.exit(1 if failed else 0)
EOF
