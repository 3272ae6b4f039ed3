#!/usr/bin/env python3
"""Keeps the code in the getting-started articles compiling: every ```swift block in them must
appear, line for line, in Examples/ChipsConsumer (which scripts/chips-consumer.sh builds and runs).
A block that starts with `// Package.swift` shows a manifest fragment and is skipped.

    python3 Tests/Docs/article_code_check.py
"""
import pathlib
import re
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTICLES = [
    "Sources/TagflowChips/Documentation.docc/Articles/AddingChipBlocks.md",
    "Sources/TagflowLayout/Documentation.docc/LayingOutChips.md",
    "Sources/TagflowMetrics/Documentation.docc/Articles/MeasuringLabels.md",
]
EXAMPLE = ROOT / "Examples/ChipsConsumer/Sources"


def normalized(text):
    """Lines without their common indentation and trailing spaces."""
    return [line.rstrip() for line in textwrap.dedent(text).strip("\n").split("\n")]


def contains(haystack, needle):
    """Whether the needle lines occur, in a row, in the haystack lines once both are dedented."""
    stripped = [line.strip() for line in haystack]
    want = [line.strip() for line in needle]
    for start in range(len(stripped) - len(want) + 1):
        if stripped[start:start + len(want)] == want:
            window = normalized("\n".join(haystack[start:start + len(want)]))
            if window == needle:
                return True
    return False


sources = [normalized(path.read_text()) for path in sorted(EXAMPLE.rglob("*.swift"))]
failures, checked = [], 0
for article in ARTICLES:
    text = (ROOT / article).read_text()
    for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
        block = normalized(match.group(1))
        if block[0].startswith("// Package.swift"):
            continue
        checked += 1
        if not any(contains(source, block) for source in sources):
            line = text[:match.start()].count("\n") + 1
            failures.append(f"{article}:{line}: this swift block is not in Examples/ChipsConsumer:\n  "
                            + "\n  ".join(block))
for failure in failures:
    print(f"error: {failure}", file=sys.stderr)
print(f"article code: {checked - len(failures)} of {checked} blocks found in Examples/ChipsConsumer")
sys.exit(1 if failures or checked == 0 else 0)
