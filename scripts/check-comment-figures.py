#!/usr/bin/env python3
"""Fails when a comment in Sources/ quotes a measured figure.

Comments say why the code is the way it is; measured figures (a share of a build, a time, a
speed-up) go in docs/performance.md, with the command that measured them, where they can be
measured again. A figure in a comment goes stale with no check to notice (issue #31).

Scans the comments of Sources/**/*.swift, *.c, *.h and *.cpp (not the generated language data
in Sources/TagflowHighlight/Languages/) for a percentage (`3%`, `2 %`), a number with a time unit
(`12 ms`, `40 µs`, `0.3 s`), an instruction count (`7 700 instructions`), or a speed-up (`2×`,
`3 x faster`); narrow on purpose, so that specifications (1/64 px, 64 MiB, `51 × 15 px`) pass.
Exits 1 and lists file:line for each, 0 when there are none. A comment line containing
`figure-ok` is skipped (for a line that cannot be worded otherwise; none needs it today).

Usage: python3 scripts/check-comment-figures.py [ROOT]   (default: the repository)
"""

import re
import sys
from pathlib import Path

EXTENSIONS = {".swift", ".c", ".h", ".cpp"}
SKIPPED = ("Sources/TagflowHighlight/Languages/",)
MARKER = "figure-ok"

NUMBER = r"(?<![\w.])\d+(?:[.,]\d+)?"
FIGURE = re.compile(
    "|".join(
        [
            r"\d\s?%",  # a percentage: 3%, 3.6%, 2 %
            NUMBER + r"\s?(?:ms|µs|μs|us|ns)\b",  # 12 ms, 40 µs, 5ns
            NUMBER + r"\s(?:s|sec|secs|seconds?)\b",  # 0.3 s, 2 seconds
            r"\d\.\d+s\b",  # 0.3s (not 1990s, 64-bit words)
            r"\d\s(?:million\s|billion\s)?instructions\b",  # 7 700 instructions, 40.9 million instructions
            r"\d×",  # 2×, 0.92× (not a size: 51 × 15 px)
            r"\d\s?[x×]\s+(?:faster|slower|quicker|fewer|less|more|as)\b",  # 2 x faster, 3 × as many
        ]
    )
)

# `"…"` string literals on a line, blanked before looking for `//` so that a URL or a `//` in a
# string does not start a comment.
TRIPLE_QUOTE = '"' * 3
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def comments(text):
    """Yields (line number, comment text) for each line's comment: `//` to the end of the line,
    and every line of a `/* … */` block. Lines inside a Swift multi-line string literal (three double
    quotes, such as the embedded theme's CSS) are text, not comments."""
    in_block = False
    in_string = False
    for number, line in enumerate(text.splitlines(), start=1):
        is_comment = line.lstrip().startswith(("//", "/*", "*"))
        if not in_block and not is_comment and line.count(TRIPLE_QUOTE) % 2 == 1:
            in_string = not in_string
            continue
        if in_string:
            continue
        if in_block:
            end = line.find("*/")
            if end < 0:
                yield number, line
                continue
            yield number, line[:end]
            in_block = False
            line = " " * (end + 2) + line[end + 2 :]
        code = STRING.sub(lambda m: " " * len(m.group(0)), line)
        line_comment = code.find("//")
        block = code.find("/*")
        if block >= 0 and (line_comment < 0 or block < line_comment):
            end = code.find("*/", block + 2)
            if end < 0:
                in_block = True
                yield number, line[block:]
            else:
                yield number, line[block:end]
                rest = code[end + 2 :].find("//")
                if rest >= 0:
                    yield number, line[end + 2 + rest :]
        elif line_comment >= 0:
            yield number, line[line_comment:]


def figures(root):
    sources = root / "Sources"
    for path in sorted(sources.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.suffix not in EXTENSIONS or not path.is_file() or relative.startswith(SKIPPED):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, comment in comments(text):
            if MARKER not in comment and FIGURE.search(comment):
                yield relative, number, comment.strip()


def main():
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    found = list(figures(root))
    for relative, number, comment in found:
        print(f"{relative}:{number}: {comment}")
    if found:
        print(
            f"error: {len(found)} comment line(s) quote a measured figure; "
            "comments say why; measured figures go in docs/performance.md",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
