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
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import metrics_accuracy  # noqa: E402  (the page, the preflight and both measurers)
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tagflow", nargs="?", default=os.environ.get("TAGFLOW", str(ROOT / ".build/debug/tagflow")))
    ap.add_argument("--json-out", help="write every measurement here")
    ap.add_argument("--show", type=int, default=8, help="mismatches to print per category")
    args = ap.parse_args(argv)

    status = metrics_accuracy.preflight(args.tagflow, FONTS.values())
    if status is not None:
        return status

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
        page, families = metrics_accuracy.open_font_page(files)
        try:
            browser = metrics_accuracy.measure_on_page(page, families, labels, size, 0)
            version = page.version.get("product")
        finally:
            page.close()
        ours = metrics_accuracy.run_tagflow_measure(args.tagflow, labels, files, size)
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
