#!/usr/bin/env python3
"""Real-browser check of the chip blocks of site-example (Python stdlib + headless Chromium).

Builds site-example with `tagflow build`, serves it on a loopback port, opens pages at viewport
widths 320, 375, 768 and 1280 px with pinned fonts (Liberation Sans, Noto Sans CJK, Noto Color
Emoji), and checks every visible chip block:
  - no two chips overlap; no chip leaves its block (unless alone on its row and wider);
  - the block's height holds all its chips; chips are in reading order;
  - each chip's rendered position equals the numbers the build computed for the breakpoint
    that container queries chose (to 1/64 px), and its text fits its box;
and that the collapsed home-page cloud opens and closes by clicking its <summary>, with no script
on any page. It does it twice: as site-example is, and built as a Hebrew site (`language: he`),
whose pages are right to left and whose chips (in DejaVu Sans) also show Hebrew, Arabic and
mixed-direction tags: there each chip must sit at the computed position measured from the
block's right edge, and chips read from right to left.

Usage: Tests/Browser/chips_browser.py [--tagflow PATH] [--chromium PATH]
Without Chromium it prints SKIPPED and exits 0 (exit 1 when $CI is set).
"""
import argparse
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import chromium_cdp as cdp  # noqa: E402

# The driver sends all traffic to a dead proxy, loopback included; this suite serves the built
# site on loopback, so let loopback through (anything else still fails fast).
cdp.BASE_FLAGS = [f for f in cdp.BASE_FLAGS if not f.startswith("--proxy-bypass-list")]
cdp.BASE_FLAGS.append("--proxy-bypass-list=127.0.0.1")

WIDTHS = [320, 375, 768, 1280]
BREAKPOINTS = [320, 480, 640, 800]
PAGES = ["/", "/page/2/", "/tags/", "/tags/swift/", "/tags/async-await/", "/posts/flow-layout-part-1/",
         "/posts/tag-clouds/", "/posts/three-years/", "/series/flow-layout/", "/categories/",
         "/categories/engineering/"]
FONTS = ["fontconfig:Liberation Sans:style=Regular", "fontconfig:Noto Sans CJK JP:style=Regular",
         "fontconfig:Noto Color Emoji"]

CHECK_JS = r"""
(() => {
  const BPS = %s;
  const problems = [];
  let blocks = 0, chips = 0, positioned = 0;
  for (const ul of document.querySelectorAll('ul.tf-chips')) {
    if (ul.offsetParent === null) continue;  // inside a closed <details> or a hidden view
    blocks++;
    const box = ul.getBoundingClientRect();
    const width = ul.parentElement.getBoundingClientRect().width;
    const rtl = getComputedStyle(ul).direction === 'rtl';
    let active = -1;
    BPS.forEach((bp, i) => { if (width >= bp) active = i; });
    const lis = [...ul.children].filter(li => getComputedStyle(li).display !== 'none');
    const rects = lis.map(li => { const r = li.getBoundingClientRect();
      return {x: r.left - box.left, y: r.top - box.top, w: r.width, h: r.height, li}; });
    const where = (r) => `${location.pathname} @${innerWidth}px block ${blocks} chip "${r.li.textContent}"`;
    for (let i = 0; i < rects.length; i++) {
      const a = rects[i]; chips++;
      for (let j = i + 1; j < rects.length; j++) {
        const b = rects[j];
        const ox = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
        const oy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
        if (ox > 0.001 && oy > 0.001) problems.push(`${where(a)} overlaps "${b.li.textContent}"`);
      }
      const alone = rects.filter(r => Math.abs(r.y - a.y) < 0.001).length === 1;
      if ((a.x < -0.001 || a.x + a.w > box.width + 0.001) && !(alone && a.w > box.width))
        problems.push(`${where(a)} leaves its block (x ${a.x}, w ${a.w}, block ${box.width})`);
      if (a.y + a.h > box.height + 0.001) problems.push(`${where(a)} is below the block's height ${box.height}`);
      const link = a.li.firstElementChild;
      const cs = getComputedStyle(link);
      const range = document.createRange(); range.selectNodeContents(link);
      const textWidth = range.getBoundingClientRect().width;
      const inner = a.w - 2 * (parseFloat(cs.paddingLeft) + parseFloat(cs.borderLeftWidth));
      if (textWidth > inner + 0.001) problems.push(`${where(a)} text ${textWidth} wider than its box ${inner}`);
      if (active >= 0) {
        positioned++;
        const st = a.li.style;
        const fromStart = parseFloat(st.getPropertyValue('--x' + active) || '0');
        const ex = rtl ? box.width - fromStart - a.w : fromStart;
        const ey = parseFloat(st.getPropertyValue('--y' + active) || '0');
        if (Math.abs(ex - a.x) > 1e-6 || Math.abs(ey - a.y) > 1e-6)
          problems.push(`${where(a)} at (${a.x}, ${a.y}), computed (${ex}, ${ey}) for breakpoint ${BPS[active]}`);
        const eh = parseFloat(ul.style.getPropertyValue('--h' + active));
        if (Math.abs(eh - box.height) > 1e-6) problems.push(`${location.pathname} block height ${box.height}, computed ${eh}`);
      }
    }
    for (let i = 1; i < rects.length; i++) {
      const p = rects[i - 1], c = rects[i];
      // Same row when the boxes share height (rows of mixed chip heights are centred).
      const sameRow = c.y < p.y + p.h && p.y < c.y + c.h;
      if ((!sameRow && c.y < p.y) || (sameRow && (rtl ? c.x > p.x : c.x < p.x)))
        if (!c.li.classList.contains('tf-more')) problems.push(`${where(c)} is out of reading order`);
    }
  }
  return {blocks, chips, positioned, problems, scripts: document.querySelectorAll('script').length,
          rtl: document.documentElement.dir === 'rtl'};
})()
""" % json.dumps(BREAKPOINTS)


def serve(folder):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def open_page(browser, url, width):
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    browser._events = [e for e in browser._events if e["method"] != "Page.loadEventFired"]
    browser.call("Page.navigate", {"url": url})
    browser.wait_event("Page.loadEventFired")
    browser.evaluate("document.fonts.ready.then(() => true)")


def click(browser, selector):
    point = browser.evaluate(
        "(() => { const e = document.querySelector(%s); e.scrollIntoView({block: 'center'});"
        " const r = e.getBoundingClientRect();"
        " return [r.left + 5, r.top + r.height / 2]; })()" % json.dumps(selector))
    for kind in ("mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent",
                     {"type": kind, "x": point[0], "y": point[1], "button": "left", "clickCount": 1})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tagflow", default=os.environ.get("TAGFLOW", os.path.join(ROOT, ".build/debug/tagflow")))
    ap.add_argument("--chromium")
    args = ap.parse_args()
    try:
        cdp.find_chromium(args.chromium)
    except SystemExit:
        print("SKIPPED: chromium not found")
        return 1 if os.environ.get("CI") else 0
    work = tempfile.mkdtemp(prefix="tagflow-chips-")
    try:
        site = os.path.join(work, "site")
        subprocess.run([args.tagflow, "build", os.path.join(ROOT, "site-example"), "-o", site, "-q"], check=True)
        # The same site as a Hebrew one: its pages are right to left.
        hebrew_source = os.path.join(work, "site-example-he")
        shutil.copytree(os.path.join(ROOT, "site-example"), hebrew_source,
                        ignore=shutil.ignore_patterns("_site", ".tagflow-cache"))
        add_right_to_left_tags(hebrew_source)
        subprocess.run([args.tagflow, "build", hebrew_source, "-o", os.path.join(site, "he"), "-q",
                        "--base-url", "/he/"], check=True)
        server = serve(site)
        base = "http://127.0.0.1:%d" % server.server_address[1]
        fonts = [cdp.resolve_font(f, ROOT) for f in FONTS]
        problems, totals = [], {"pages": 0, "blocks": 0, "chips": 0, "positioned": 0, "rtl": 0}
        with cdp.Browser(fonts, chromium=args.chromium, fc_match_xml=cdp.hinting_xml("slight"), hinting="slight") as browser:
            for prefix in ("", "/he"):
                check_site(browser, base + prefix, problems, totals, rtl=bool(prefix))
        server.shutdown()
        print("chips in Chromium: %(pages)d page views (%(rtl)d right to left), %(blocks)d blocks, %(chips)d chips, "
              "%(positioned)d positions compared with the build" % totals)
        for problem in problems[:50]:
            print("  FAIL " + problem)
        if problems:
            print("%d problems" % len(problems))
            return 1
        print("all checks passed")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


# Tags of the right-to-left pass: Hebrew, Arabic (joined letters, lam-alef, diacritics) and
# labels mixing directions, measured and drawn with DejaVu Sans shipped by the site.
RIGHT_TO_LEFT_TAGS = ["עברית", "תכנות", "שלום עולם", "C++ עם Swift", "[טיוטה]", "iOS 17 חדש", "برمجة",
                      "الذكاء الاصطناعي", "لغة عربية", "مَرْحَبًا", "Swift بالعربية", "(مقدمة)", "٢٠٢٤",
                      "سلام"]
RIGHT_TO_LEFT_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
RIGHT_TO_LEFT_PAGES = ["/posts/rtl-tags/", "/posts/rtl-more/"]


def add_right_to_left_tags(source):
    """Makes the copy of site-example at `source` a Hebrew site whose chips show Hebrew and
    Arabic tags: `language: he`, DejaVu Sans as the chip font, and two posts tagged in both."""
    config_path = os.path.join(source, "site.yml")
    with open(config_path, encoding="utf-8") as config:
        lines = [line for line in config.read().splitlines() if not line.startswith("language:")]
    with open(config_path, "w", encoding="utf-8") as config:
        config.write("\n".join(lines + ["language: he", ""]))
    if not os.path.exists(RIGHT_TO_LEFT_FONT):
        raise SystemExit("%s is missing (fonts-dejavu-core)" % RIGHT_TO_LEFT_FONT)
    shutil.copy(RIGHT_TO_LEFT_FONT, os.path.join(source, "static", "DejaVuSans.ttf"))
    with open(config_path, encoding="utf-8") as config:
        text = config.read()
    assert "\nchips:" not in text, "site-example gained a chips section: set its font here instead"
    with open(config_path, "a", encoding="utf-8") as config:
        config.write("chips:\n  font: static/DejaVuSans.ttf\n")
    half = len(RIGHT_TO_LEFT_TAGS) // 2
    for name, tags in (("2025-03-01-rtl-tags", RIGHT_TO_LEFT_TAGS[:half] + ["Swift"]),
                       ("2025-03-02-rtl-more", RIGHT_TO_LEFT_TAGS[half:] + RIGHT_TO_LEFT_TAGS[:3])):
        with open(os.path.join(source, "posts", name + ".md"), "w", encoding="utf-8") as post:
            post.write("---\ntitle: תגיות מימין לשמאל\ntags:\n%s---\n\nשלום.\n" % (
                "".join("  - %s\n" % json.dumps(tag, ensure_ascii=False) for tag in tags)))


def check_site(browser, base, problems, totals, rtl):
    """Checks every page at every width of the site served at `base`."""
    pages = PAGES + (RIGHT_TO_LEFT_PAGES if rtl else [])
    for width in WIDTHS:
        for page in pages:
            open_page(browser, base + page, width)
            result = browser.evaluate(CHECK_JS)
            totals["pages"] += 1
            totals["rtl"] += 1 if result["rtl"] else 0
            if result["rtl"] != rtl:
                problems.append(f"{base}{page} @{width}px: dir is {'rtl' if result['rtl'] else 'ltr'}")
            for key in ("blocks", "chips", "positioned"):
                totals[key] += result[key]
            problems += result["problems"]
            if result["scripts"]:
                problems.append(f"{page} has {result['scripts']} <script> elements")
            if page in ["/posts/flow-layout-part-1/", "/tags/"] + pages[len(PAGES):] and result["blocks"] == 0:
                problems.append(f"{base}{page} @{width}px shows no chip block")
        # The collapsed cloud opens and closes with a click on <summary>, no script.
        open_page(browser, base + "/", width)
        if not browser.evaluate("!!document.querySelector('.tf-collapsible')"):
            problems.append(f"home @{width}px: no collapsed cloud")
            continue
        state = "(() => [getComputedStyle(document.querySelector('.tf-collapsed')).display," \
                " document.querySelector('.tf-collapsible details').open])()"
        if browser.evaluate(state) != ["block", False]:
            problems.append(f"home @{width}px: the cloud does not start collapsed: {browser.evaluate(state)}")
        click(browser, ".tf-collapsible summary")
        if browser.evaluate(state) != ["none", True]:
            problems.append(f"home @{width}px: clicking 'Show all' did not open the cloud")
        opened = browser.evaluate(CHECK_JS)
        problems += opened["problems"]
        click(browser, ".tf-collapsible summary")
        if browser.evaluate(state) != ["block", False]:
            problems.append(f"home @{width}px: clicking again did not close the cloud")


if __name__ == "__main__":
    sys.exit(main())
