#!/usr/bin/env python3
"""Script accuracy harness: `tagflow measure` against headless Chromium, script by script.

Usage:
    python3 Tests/Browser/script_accuracy.py [TAGFLOW] [--json-out FILE] [--show N]

TAGFLOW is the `tagflow` executable (default: $TAGFLOW, then .build/debug/tagflow).

The labels are real words and tags (Tests/Browser/script_corpus.py): Arabic, Persian, Urdu,
Hebrew, mixed-direction, CJK punctuation and emoji sequences (those Noto Color Emoji knows, and
some it does not). Each is measured in Chromium,
in its own direction as a chip draws it (`unicode-bidi: plaintext`), and with `tagflow
measure`, with the same font files loaded through @font-face and an isolated fontconfig
(hinting pinned to slight), for each font stack in STACKS: the Debian fonts Chromium reaches
for these scripts (fonts-dejavu-core, fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji).

It prints, per stack and category, how many labels have the width and height Chromium gives
them to the 1/64 px, and exits 1 when a category in REQUIRED has fewer than 99.9 % exact in any
stack. Categories outside REQUIRED are measured and reported, not held to the target.
Without Chromium or the fonts it prints "SKIPPED: ..." and exits 0 (1 when $CI is set).
Python 3 standard library only.
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import metrics_accuracy  # noqa: E402  (the page, its CSS and the measuring script)
import script_corpus  # noqa: E402

NOTO = "/usr/share/fonts/truetype/noto/"
FONTS = {
    "dejavu": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "noto-sans": NOTO + "NotoSans-Regular.ttf",
    "noto-arabic": NOTO + "NotoSansArabic-Regular.ttf",
    "noto-naskh": NOTO + "NotoNaskhArabic-Regular.ttf",
    "noto-hebrew": NOTO + "NotoSansHebrew-Regular.ttf",
    "cjk": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "emoji": NOTO + "NotoColorEmoji.ttf",
}

# name, font stack (first is the primary), size px
STACKS = [
    ("DejaVu Sans 16px", ["dejavu", "noto-arabic", "noto-hebrew", "cjk", "emoji"], 16),
    ("Noto Sans 15px", ["noto-sans", "noto-arabic", "noto-hebrew", "cjk", "emoji"], 15),
    ("Noto Naskh Arabic 17px", ["noto-naskh", "noto-sans", "noto-hebrew", "cjk", "emoji"], 17),
]

# The categories held to the target: all of them.
REQUIRED = {"arabic", "persian", "urdu", "hebrew", "mixed-bidi", "cjk-punctuation", "emoji-sequences",
            "emoji-non-rgi"}
TARGET = 0.999


def chromium_measure(labels, files, size):
    """Chromium's (width, height) in px for each label, with `files` as the font-family list."""
    import chromium_cdp as cdp
    families = ["tf-font-%d" % i for i in range(len(files))]
    browser = cdp.Browser(files, fc_match_xml=cdp.hinting_xml("slight"), hinting="slight")
    try:
        css = "".join(cdp.font_face_css(family, path) for family, path in zip(families, files))
        browser.load_html(
            "<!DOCTYPE html><html><head><meta charset='utf-8'><style>" + css + metrics_accuracy.PAGE_CSS +
            "</style><script>" + cdp.JS_LOAD_FONTS + metrics_accuracy.PAGE_JS +
            "</script></head><body><div id='host'></div></body></html>")
        sample = "".join(sorted(set("".join(labels))))
        load = browser.evaluate("__loadFonts(%s, %s, %s)" % (
            json.dumps(families), json.dumps(size), json.dumps(sample)))
        bad = {k: v for k, v in load["status"].items() if v != "loaded"}
        if bad:
            raise SystemExit("font(s) failed to load in Chromium: %s" % bad)
        cfg = {"families": families, "size": size, "ls": 0, "strings": labels}
        return browser.evaluate("__measure(%s)" % json.dumps(cfg)), browser.version.get("product")
    finally:
        browser.close()


def tagflow_measure(tagflow, labels, files, size):
    cmd = [tagflow, "measure", "--font", files[0]]
    for path in files[1:]:
        cmd += ["--fallback", path]
    cmd.append("--size=%s" % size)
    proc = subprocess.run(cmd, input=json.dumps(labels, ensure_ascii=False), capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit("tagflow measure failed (%s):\n%s" % (" ".join(cmd), proc.stderr))
    out = json.loads(proc.stdout)
    assert len(out) == len(labels), "tagflow measure returned %d results" % len(out)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tagflow", nargs="?", default=os.environ.get("TAGFLOW", str(ROOT / ".build/debug/tagflow")))
    ap.add_argument("--json-out", help="write every measurement here")
    ap.add_argument("--show", type=int, default=8, help="mismatches to print per category")
    args = ap.parse_args(argv)

    chromium = os.environ.get("CHROMIUM") or next(
        (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if not chromium:
        print("SKIPPED: chromium not found")
        return 1 if os.environ.get("CI") else 0
    missing = [p for p in FONTS.values() if not os.path.exists(p)]
    if missing:
        print("SKIPPED: fonts not installed: %s" % ", ".join(missing))
        return 1 if os.environ.get("CI") else 0
    if not os.path.exists(args.tagflow):
        print("tagflow executable not found: %s (build it, or pass its path)" % args.tagflow)
        return 1

    groups = script_corpus.GROUPS
    labels = [label for group in groups.values() for label in group]
    category = {}
    for name, group in groups.items():
        for label in group:
            category.setdefault(label, name)
    t0 = time.time()
    ok = True
    dump = {}
    for name, stack, size in STACKS:
        files = [FONTS[key] for key in stack]
        browser, version = chromium_measure(labels, files, size)
        ours = tagflow_measure(args.tagflow, labels, files, size)
        print("\n%s (%s; %s)" % (name, ", ".join(stack), version))
        results = {}
        for label, (width, height), mine in zip(labels, browser, ours):
            diff = round((mine["width"] - width) * 64)
            exact = diff == 0 and mine["height"] == height
            results.setdefault(category[label], []).append((label, exact, width * 64, mine["width"] * 64))
        for group, rows in results.items():
            exact = sum(1 for row in rows if row[1])
            share = exact / len(rows)
            required = group in REQUIRED
            passed = share >= TARGET or not required
            ok = ok and passed
            verdict = ("PASS" if passed else "FAIL") if required else "reported"
            print("  %-16s %4d/%-4d exact (%6.2f%%)  %s" % (group, exact, len(rows), 100 * share, verdict))
            for label, _, theirs, mine in [row for row in rows if not row[1]][:args.show]:
                print("      %r: chromium %.0f/64, tagflow %.0f/64" % (label, theirs, mine))
        dump[name] = [{"text": label, "chromium": b, "tagflow": m} for label, b, m in zip(labels, browser, ours)]
    if args.json_out:
        pathlib.Path(args.json_out).write_text(json.dumps(dump, ensure_ascii=False), encoding="utf-8")
    print("\n%s; target %.1f%% exact for %s; total %.1fs" % (
        "PASS" if ok else "FAIL", 100 * TARGET, ", ".join(sorted(REQUIRED)), time.time() - t0))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
