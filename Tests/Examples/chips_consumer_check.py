#!/usr/bin/env python3
"""Checks what Examples/ChipsConsumer wrote (scripts/chips-consumer.sh runs it).

    python3 Tests/Examples/chips_consumer_check.py OUTPUT_DIR SCRATCH_PATH [FONT_NAME]

FONT_NAME: the example ran with a font file (now OUTPUT_DIR/FONT_NAME) and measured with it.

- the page holds both chip blocks, every tag as a link, in order;
- the post block and the stylesheet equal what `tagflow chips` prints for the same tags and
  settings (when the built CLI is there: $TAGFLOW or .build/debug/tagflow);
- at every breakpoint the chips of each block keep reading order, do not overlap and stay inside
  the width; the cloud shows at most two rows and ends with its "+N more" chip;
- the positions laid out by hand with TagflowMetrics + TagflowLayout equal the renderer's;
- with a font: the stylesheet ships it with @font-face, and the post block equals what
  `tagflow chips` measures with the same font file;
- the build compiled none of Tagflow's other targets or dependencies (no Hummingbird).
"""
import json
import os
import pathlib
import re
import subprocess
import sys

BREAKPOINTS = [320, 480, 640]
POST = [("Swift", "/tags/swift/"), ("CSS", "/tags/css/"), ("Flexbox", "/tags/flexbox/"),
        ("Static sites", "/tags/static-sites/")]
CONFIG = "breakpoints: [320, 480, 640]\ncolors:\n  background: \"#f3f0ff\"\n"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def chips(block):
    """(classes, width, {breakpoint index: (x, y) or None}, inner HTML) for each <li>."""
    out = []
    for attrs, inner in re.findall(r"<li([^>]*)>(.*?)</li>", block):
        style = dict(part.split(":", 1) for part in re.search(r'style="([^"]*)"', attrs).group(1).split(";"))
        width = float(style.pop("width").removesuffix("px"))
        where = {}
        for index in range(len(BREAKPOINTS)):
            hidden = style.get(f"--d{index}") == "none"
            where[index] = None if hidden else (float(style.get(f"--x{index}", 0)), float(style.get(f"--y{index}", 0)))
        classes = re.search(r'class="([^"]*)"', attrs)
        out.append((classes.group(1) if classes else "", width, where, inner))
    return out


def check_geometry(name, block, css, max_rows=None):
    heights = {"": float(re.search(r"\.tf-chips>li\{[^}]*?height:([\d.]+)px", css).group(1))}
    heights.update(re.findall(r"\.tf-chips>li\.(tf-w\d)\{height:([\d.]+)px", css))
    block_heights = [float(h) for h in re.findall(r"--h\d+:([\d.]+)", block)]
    check(len(block_heights) == len(BREAKPOINTS), f"{name}: one height per breakpoint, got {block_heights}")
    for index, breakpoint in enumerate(BREAKPOINTS):
        where = f"{name} at {breakpoint}px"
        boxes = []  # (x, y, width, height) of the chips shown at this breakpoint, in document order
        for classes, width, positions, _ in chips(block):
            if positions[index] is not None:
                x, y = positions[index]
                weight = next((c for c in classes.split() if c.startswith("tf-w")), "")
                boxes.append((x, y, width, float(heights[weight])))
        for x, y, width, height in boxes:
            check(x >= 0 and x + width <= breakpoint, f"{where}: a chip at x={x} sticks out")
            check(y + height <= block_heights[index], f"{where}: a chip at y={y} is below the block")
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                apart = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
                check(apart, f"{where}: chips at {a[:2]} and {b[:2]} overlap")
        # Reading order: left to right along a row; a new row starts at the left, below the last.
        rows = 1
        for a, b in zip(boxes, boxes[1:]):
            if b[0] <= a[0]:
                rows += 1
                check(b[1] >= a[1], f"{where}: a row starts above the one before it")
        if max_rows is not None:
            check(rows <= max_rows, f"{where}: {rows} rows, more than {max_rows}")


def main():
    out, scratch = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    font = sys.argv[3] if len(sys.argv) > 3 else None
    page = (out / "index.html").read_text()
    css = (out / "chips.css").read_text()
    blocks = re.findall(r'<div class="tf-flow">.*?</ul></div>', page)
    check(len(blocks) == 2, f"expected 2 chip blocks, found {len(blocks)}")
    check('<link rel="stylesheet" href="chips.css">' in page, "the page does not link chips.css")
    if len(blocks) != 2:
        return
    post, cloud = blocks
    hrefs = re.findall(r'<a href="([^"]*)">([^<]*)', post)
    check(hrefs == [(url, label) for label, url in POST], f"post block links: {hrefs}")
    cloud_items = chips(cloud)
    regular = [item for item in cloud_items if "tf-more" not in item[0]]
    check(len(regular) == 10, f"cloud: expected 10 chips, got {len(regular)}")
    check(any("tf-w3" in c for c, *_ in regular), "cloud: no chip has the top weight")
    check(any("tf-more" in c for c, *_ in cloud_items), "cloud: two rows should hide chips behind '+N more'")
    check('<span class="tf-n">12</span>' in cloud, "cloud: counts are missing")
    check_geometry("post block", post, css)
    check_geometry("cloud", cloud, css, max_rows=2)

    if font:
        check((out / font).is_file(), f"the font {font} was not copied beside the page")
        check(f'@font-face{{font-family:"Site Chips";src:url("{font}")}}' in css, "chips.css has no @font-face")
        check('font:14px/20px "Site Chips"' in css, "chips.css does not draw with the shipped font")

    # Positions at 320 px laid out by hand (with the built-in metrics) equal the renderer's.
    manual = json.loads((out / "positions-320.json").read_text())
    rendered = [[where[0][0], where[0][1], width] for _, width, where, _ in chips(post)]
    check(manual == rendered or font is not None, f"hand layout {manual} != renderer {rendered}")
    check(manual != rendered or font is None, f"measured with {font}, yet the built-in metrics' positions")

    # Same output as the CLI that other generators call.
    tagflow = pathlib.Path(os.environ.get("TAGFLOW", ".build/debug/tagflow"))
    if tagflow.exists():
        config = out / "chips.yml"
        config.write_text(CONFIG + (f"font: {font}\n" if font else ""))
        labels = json.dumps([{"label": label, "url": url} for label, url in POST])
        html = subprocess.run([str(tagflow), "chips", "--format", "html", "--label", "Tags of this post",
                               "--config", str(config)], input=labels, capture_output=True, text=True, check=True)
        check(html.stdout.strip() == post, "the post block differs from `tagflow chips --format html`")
        sheet = subprocess.run([str(tagflow), "chips", "--format", "css", "--config", str(config)],
                               input="[]", capture_output=True, text=True, check=True)
        # The CLI adds two rules of its own (the collapsed cloud's "Show all") after the renderer's.
        if not font:  # with a font, the CLI names and links it its own way
            check(sheet.stdout.startswith(css), "chips.css differs from `tagflow chips --format css`")
    else:
        print(f"note: {tagflow} not built; skipped the comparison with `tagflow chips`")

    # Only the three library products (and TagflowHTML, the escaper they share, with CTextScan, its
    # vector scan, and TagflowConcurrency, the lock and parallel work, with CTagflowThreads, its
    # threads) were compiled.
    built = {path.parent.name.removesuffix(".build") for path in scratch.glob("*/debug/*.build/*.o")}
    check(built == {"ChipsConsumer", "CTagflowThreads", "CTextScan", "TagflowChips", "TagflowConcurrency",
                    "TagflowHTML", "TagflowLayout", "TagflowMetrics"},
          f"the example compiled more than the library products: {sorted(built)}")


main()
sys.stdout.flush()
for failure in failures:
    print(f"error: {failure}", file=sys.stderr)
print("chips consumer: ok" if not failures else f"chips consumer: {len(failures)} problems", flush=True)
sys.exit(1 if failures else 0)
