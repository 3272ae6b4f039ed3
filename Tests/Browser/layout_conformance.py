#!/usr/bin/env python3
"""Browser conformance suite for TagflowLayout: the engine must place every box where Chromium does.

Usage:
    python3 Tests/Browser/layout_conformance.py [--tagflow PATH] [--chromium PATH] [--seed N] [-v]

Generates a few hundred layout cases from a fixed seed (exact fits at 0 and +-1/64 px spare,
fractional widths and gaps, every justify and align value, right-to-left, oversized items, zero and
one item, no container width), renders them in headless Chromium as `display:flex; flex-wrap:wrap`
containers of fixed-size boxes (`flex: none`), runs `tagflow layout` on the same cases, and
compares the container sizes and every box's x, y, width and height exactly, in 1/64 px.

The tagflow binary is --tagflow, else $TAGFLOW, else .build/debug/tagflow. Exit status: 0 when
every value is equal, 1 on any mismatch or error. Without Chromium it prints
"SKIPPED: chromium not found" and exits 0, or 1 when $CI is set.

Python 3 standard library only; the browser is driven by chromium_cdp.py in this folder.
"""

import argparse
import json
import os
import pathlib
import random
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_cdp as cdp  # noqa: E402

UNIT = 64  # LayoutUnits per CSS px
JUSTIFY = ["start", "center", "end", "space-between", "space-around", "space-evenly"]
ALIGN = ["start", "center", "end", "baseline", "stretch"]
DIRECTION = ["ltr", "rtl"]
CSS_JUSTIFY = {"start": "flex-start", "end": "flex-end"}
CSS_ALIGN = {"start": "flex-start", "end": "flex-end"}

PAGE_CSS = """
html, body { margin: 0; padding: 0; }
body { width: 100000px; }
.case { display: block; margin: 0 0 24px 2000px; padding: 0; }
.flex { display: flex; flex-wrap: wrap; box-sizing: content-box; padding: 0; border: 0; margin: 0;
        align-content: normal; font-size: 0; line-height: 0; }
.box { flex: none; box-sizing: border-box; margin: 0; padding: 0; border: 0; }
.base { display: inline-block; width: 0; margin: 0; padding: 0; border: 0; vertical-align: baseline; }
"""

# Builds every case, then reads every box (one layout pass), in 1/64 px.
PAGE_JS = r"""
function __layoutCases(cases) {
  const host = document.getElementById("host");
  host.textContent = "";
  const built = [];
  for (const c of cases) {
    const wrap = document.createElement("div");
    wrap.className = "case";
    const flex = document.createElement("div");
    flex.className = "flex";
    // Styles go in as style-attribute text, parsed as a stylesheet is. (The CSSOM setters,
    // el.style.width = "...", parse lengths through doubles, and a value a hair below a unit
    // boundary can land one unit lower than in a stylesheet.)
    flex.style.cssText = `width:${c.width === null ? "max-content" : c.width};` +
      `column-gap:${c.column_gap};row-gap:${c.row_gap};justify-content:${c.justify};` +
      `align-items:${c.align};direction:${c.direction};`;
    const boxes = [];
    for (const it of c.items) {
      const d = document.createElement("div");
      d.className = "box";
      d.style.cssText = `width:${it.width};` +
        (c.align === "stretch" ? `min-height:${it.height};` : `height:${it.height};`);
      if (it.baseline !== null) {
        const b = document.createElement("span");
        b.className = "base";
        b.style.cssText = `height:${it.baseline};`;
        d.appendChild(b);
      }
      flex.appendChild(d);
      boxes.push(d);
    }
    wrap.appendChild(flex);
    host.appendChild(wrap);
    built.push([flex, boxes]);
  }
  return built.map(([flex, boxes]) => {
    const fr = flex.getBoundingClientRect();
    return {
      width: fr.width * 64, height: fr.height * 64,
      items: boxes.map(d => {
        const r = d.getBoundingClientRect();
        return [(r.left - fr.left) * 64, (r.top - fr.top) * 64, r.width * 64, r.height * 64];
      })};
  });
}
"""


def px(units):
    """A length in raw 1/64 px as an exact px float."""
    return units / UNIT


def css_px(value):
    """A px number as CSS text, never in exponent notation."""
    text = repr(float(value))
    if "e" in text or "E" in text:
        text = f"{value:.12f}".rstrip("0").rstrip(".")
    return text + "px"


def trunc_units(value):
    """A CSS px value truncated to 1/64 px, as the browser and the engine do (through a float32)."""
    f = struct.unpack("f", struct.pack("f", value))[0]
    return int(f * UNIT)


class CaseMaker:
    """Deterministic case generator."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.cases = []

    def length(self, lo_px, hi_px, style=None):
        """A px length: a whole, a 1/64 multiple, or an arbitrary decimal."""
        r = self.rng
        style = style or r.choice(["whole", "unit", "unit", "decimal"])
        if style == "whole":
            return float(r.randint(lo_px, hi_px))
        if style == "unit":
            return px(r.randint(lo_px * UNIT, hi_px * UNIT))
        return round(r.uniform(lo_px, hi_px), r.choice([1, 2, 3]))

    def items(self, n, max_w=160, baselines=0.0):
        out = []
        for _ in range(n):
            h = self.length(0, 40) if self.rng.random() < 0.9 else 0.0
            w = self.length(0, max_w) if self.rng.random() < 0.95 else 0.0
            b = None
            if self.rng.random() < baselines:
                b = round(self.rng.uniform(0, h), self.rng.choice([0, 1, 2])) if h > 0 else 0.0
                if b > h:
                    b = h
            out.append({"width": w, "height": h, "baseline": b})
        return out

    def add(self, tag, width, items, justify="start", align="start", direction="ltr",
            column_gap=0.0, row_gap=0.0):
        case = {"id": f"{len(self.cases)}-{tag}", "container_width": width,
                "column_gap": column_gap, "row_gap": row_gap, "justify": justify,
                "align": align, "direction": direction,
                "items": [{k: v for k, v in it.items() if v is not None} for it in items]}
        self.cases.append(case)

    def random_options(self):
        r = self.rng
        return dict(justify=r.choice(JUSTIFY), align=r.choice(ALIGN), direction=r.choice(DIRECTION),
                    column_gap=self.length(0, 16), row_gap=self.length(0, 16))

    def generate(self):
        r = self.rng
        # Zero and one item, with every option.
        for justify in JUSTIFY:
            for align in ALIGN:
                for direction in DIRECTION:
                    self.add("empty", 300.0, [], justify, align, direction, 8.0, 8.0)
                    one = self.items(1, baselines=0.5)
                    self.add("one", self.length(50, 400), one, justify, align, direction, 8.0, 4.0)
        # Every justify x align x direction on random rows.
        for justify in JUSTIFY:
            for align in ALIGN:
                for direction in DIRECTION:
                    for _ in range(3):
                        opts = self.random_options()
                        opts.update(justify=justify, align=align, direction=direction)
                        n = r.randint(2, 30)
                        self.add("matrix", self.length(60, 600), self.items(n, baselines=0.7), **opts)
        # Exact fits: the first k items and their gaps, plus -1, 0 or +1 unit of spare room.
        for i in range(96):
            opts = self.random_options()
            items = self.items(r.randint(2, 14), baselines=0.3)
            gap_units = trunc_units(opts["column_gap"])
            k = r.randint(1, len(items))
            total = sum(trunc_units(it["width"]) for it in items[:k]) + gap_units * (k - 1)
            spare = (-1, 0, 1)[i % 3]
            self.add(f"fit{spare:+d}", px(max(0, total + spare)), items, **opts)
        # Fractional everything: arbitrary decimals for widths, heights, gaps, container.
        for _ in range(40):
            opts = self.random_options()
            opts.update(column_gap=self.length(0, 12, "decimal"), row_gap=self.length(0, 12, "decimal"))
            items = [{"width": self.length(0, 120, "decimal"), "height": self.length(0, 30, "decimal"),
                      "baseline": None} for _ in range(r.randint(1, 25))]
            self.add("fraction", self.length(40, 500, "decimal"), items, **opts)
        # Oversized items among normal ones.
        for _ in range(40):
            opts = self.random_options()
            width = self.length(30, 200)
            items = self.items(r.randint(1, 10), max_w=int(width), baselines=0.4)
            for _ in range(r.randint(1, 3)):
                items.insert(r.randint(0, len(items)),
                             {"width": width + self.length(0, 120), "height": self.length(1, 40),
                              "baseline": None})
            self.add("oversized", width, items, **opts)
        # Many small items: long distributions of the remainder.
        for _ in range(16):
            opts = self.random_options()
            items = [{"width": self.length(1, 12, "unit"), "height": 10.0, "baseline": None}
                     for _ in range(r.randint(30, 80))]
            self.add("many", self.length(100, 500), items, **opts)
        # Lengths a hair below a unit boundary: Blink rounds CSS px to a 32-bit float before
        # truncating, so 1.0156249999px is 65 units, not 64 as with doubles.
        hairs = [1.0156249999, 2.99999999, 0.0156249, 10.99999999, 7.0468749999, 33.33333333]
        for i in range(6):
            opts = self.random_options()
            opts.update(column_gap=hairs[i], row_gap=hairs[-1 - i])
            items = [{"width": r.choice(hairs) * r.randint(1, 9), "height": r.choice(hairs), "baseline": None}
                     for _ in range(r.randint(4, 20))]
            self.add("float32", r.choice(hairs) * r.randint(5, 30), items, **opts)
        # No container width: one row at the ideal (max-content) width.
        for _ in range(12):
            opts = self.random_options()
            self.add("ideal", None, self.items(r.randint(0, 12), baselines=0.4), **opts)
        return self.cases


def run_tagflow(binary, cases):
    """Runs `tagflow layout` on all cases at once; returns its outputs in raw 1/64 px."""
    doc = {"cases": [{k: v for k, v in c.items() if k != "id" and v is not None} for c in cases]}
    proc = subprocess.run([binary, "layout"], input=json.dumps(doc).encode(), capture_output=True)
    if proc.returncode != 0:
        raise SystemExit(f"error: {binary} layout failed ({proc.returncode}):\n"
                         f"{proc.stderr.decode(errors='replace')}")
    out = json.loads(proc.stdout)["cases"]
    res = []
    for o in out:
        res.append({"width": o["width"] * UNIT, "height": o["height"] * UNIT,
                    "items": [[b["x"] * UNIT, b["y"] * UNIT, b["width"] * UNIT, b["height"] * UNIT]
                              for b in o["items"]]})
    return res


def browser_cases(cases):
    out = []
    for c in cases:
        out.append({
            "width": None if c["container_width"] is None else css_px(c["container_width"]),
            "column_gap": css_px(c["column_gap"]), "row_gap": css_px(c["row_gap"]),
            "justify": CSS_JUSTIFY.get(c["justify"], c["justify"]),
            "align": CSS_ALIGN.get(c["align"], c["align"]),
            "direction": c["direction"],
            "items": [{"width": css_px(it["width"]), "height": css_px(it["height"]),
                       "baseline": css_px(it["baseline"]) if "baseline" in it else None}
                      for it in c["items"]]})
    return out


def run_chromium(args, cases):
    browser = cdp.Browser((), chromium=args.chromium, verbose=args.keep_temp)
    try:
        browser.load_html("<!DOCTYPE html><html><head><meta charset='utf-8'><style>" + PAGE_CSS +
                          "</style><script>" + PAGE_JS +
                          "</script></head><body><div id='host'></div></body></html>")
        res = browser.evaluate("__layoutCases(%s)" % json.dumps(browser_cases(cases)))
        version = browser.version.get("product", "chromium")
    finally:
        browser.close()
    return res, version


def describe(case):
    return (f"case {case['id']}: width={case['container_width']} gaps={case['column_gap']}/{case['row_gap']} "
            f"justify={case['justify']} align={case['align']} direction={case['direction']} "
            f"items={len(case['items'])}")


def compare(cases, engine, browser, verbose):
    mismatches = []
    not_exact = 0
    items = 0
    for case, e, b in zip(cases, engine, browser):
        values = [b["width"], b["height"]] + [v for box in b["items"] for v in box]
        not_exact += sum(1 for v in values if v != int(v))
        items += len(case["items"])
        problems = []
        if case["container_width"] is not None and e["width"] != b["width"]:
            problems.append(f"container width: engine {e['width']} browser {b['width']}")
        if e["height"] != b["height"]:
            problems.append(f"container height: engine {e['height']} browser {b['height']}")
        if len(e["items"]) != len(b["items"]):
            problems.append(f"item count: engine {len(e['items'])} browser {len(b['items'])}")
        for i, (eb, bb) in enumerate(zip(e["items"], b["items"])):
            if eb != bb:
                problems.append(f"item {i} {case['items'][i]}: engine (x,y,w,h)={eb} browser {bb}")
        if problems:
            mismatches.append((case, problems))
    return items, mismatches, not_exact


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tagflow", default=os.environ.get("TAGFLOW", ".build/debug/tagflow"),
                    help="the tagflow binary (default: $TAGFLOW or .build/debug/tagflow)")
    ap.add_argument("--chromium", help="Chromium executable (default: $CHROMIUM or chromium on PATH)")
    ap.add_argument("--seed", type=int, default=20261121, help="case generator seed")
    ap.add_argument("--keep-temp", action="store_true", help="keep Chromium's temp dir")
    ap.add_argument("--dump", help="write the generated cases as tagflow layout input to this file")
    ap.add_argument("-v", "--verbose", action="store_true", help="show every mismatch")
    args = ap.parse_args(argv)

    chromium = args.chromium or os.environ.get("CHROMIUM") or next(
        (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if not chromium:
        print("SKIPPED: chromium not found (install Debian's 'chromium' or pass --chromium)")
        return 1 if os.environ.get("CI") else 0
    args.chromium = chromium
    if not pathlib.Path(args.tagflow).is_file():
        print(f"error: tagflow binary not found at {args.tagflow} (build it, or pass --tagflow or $TAGFLOW)",
              file=sys.stderr)
        return 1

    t0 = time.time()
    cases = CaseMaker(args.seed).generate()
    if args.dump:
        pathlib.Path(args.dump).write_text(json.dumps(
            {"cases": [{k: v for k, v in c.items() if k != "id" and v is not None} for c in cases]}, indent=1))
    engine = run_tagflow(args.tagflow, cases)
    browser, version = run_chromium(args, cases)
    items, mismatches, not_exact = compare(cases, engine, browser, args.verbose)
    elapsed = time.time() - t0

    shown = mismatches if args.verbose else mismatches[:20]
    for case, problems in shown:
        print(describe(case))
        for p in problems[: (None if args.verbose else 5)]:
            print("   ", p)
    if len(shown) < len(mismatches):
        print(f"... and {len(mismatches) - len(shown)} more mismatching cases (-v shows all)")
    if not_exact:
        print(f"warning: {not_exact} browser values were not multiples of 1/64 px")
    print(f"layout conformance: {len(cases)} cases, {items} items, {len(mismatches)} mismatching cases "
          f"({version}, {elapsed:.1f}s)")
    return 1 if mismatches or not_exact else 0


if __name__ == "__main__":
    sys.exit(main())
