#!/usr/bin/env python3
"""Checks, in the installed libcmark-gfm's machine code, the facts that let Tagflow feed
(block-parse) Markdown outside its cmark-gfm lock (MarkdownRenderer.swift, `cmarkParseLock`).

cmark-gfm keeps two process-wide tables of inline parsing (SPECIAL_CHARS and SKIP_CHARS in
inlines.c); every parse adds its extensions' characters to them and removes them again. The
facts, for the version Tagflow feeds unlocked (MarkdownRenderer.checkedVersion):

  1. The tables are written by two small helpers, called only from
     cmark_manage_extensions_special_characters, which is called only from cmark_parser_finish.
  2. cmark_parse_inlines is called only from cmark_parser_finish.
  3. No code that reads or writes the tables is reachable by direct calls from cmark_parser_feed.
  4. The only exported functions that reach the tables are cmark_parse_inlines,
     cmark_manage_extensions_special_characters and cmark_inline_parser_* functions (which take
     an inline parser, an object that exists only while cmark_parse_inlines runs), so no
     extension callback run while feeding can reach them either.

With another version, Tagflow parses wholly under the lock, and this script says so and passes.
Needs objdump and nm (binutils). Exits 1, naming the fact, when one does not hold.
"""

import bisect
import ctypes
import glob
import os
import re
import subprocess
import sys

CHECKED_VERSION = "0.29.0.gfm.6"  # MarkdownRenderer.checkedVersion


def fail(message):
    print(f"check-cmark-globals: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def library_path():
    libdir = subprocess.run(
        ["pkg-config", "--variable=libdir", "libcmark-gfm"], capture_output=True, text=True
    ).stdout.strip()
    candidates = [os.path.realpath(p) for p in glob.glob(os.path.join(libdir or "/usr/lib", "libcmark-gfm.so*"))]
    candidates = sorted({p for p in candidates if os.path.isfile(p)})
    if not candidates:
        fail(f"no libcmark-gfm.so under {libdir!r}")
    return candidates[0]


def main():
    path = library_path()
    version_string = ctypes.CDLL(path).cmark_version_string
    version_string.restype = ctypes.c_char_p
    version = version_string().decode()
    if version != CHECKED_VERSION:
        print(f"check-cmark-globals: {path} is {version}, not {CHECKED_VERSION}: Tagflow parses it wholly under the lock")
        return

    exported = {}
    for line in subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "Tt":
            exported[parts[2]] = int(parts[0], 16)

    instructions = []  # (address, mnemonic, operands)
    plt = {}  # PLT stub address -> exported name
    for line in subprocess.run(["objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True, check=True).stdout.splitlines():
        header = re.match(r"([0-9a-f]+) <(.+)@plt>:", line)
        if header:
            plt[int(header.group(1), 16)] = header.group(2)
            continue
        match = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if match:
            instructions.append((int(match.group(1), 16), match.group(2), match.group(3)))

    def target(operands):
        match = re.match(r"([0-9a-f]+) <", operands)
        if not match:
            return None
        address = int(match.group(1), 16)
        return exported.get(plt[address]) if address in plt else address

    # Functions: exported symbols and every direct call target start one.
    starts = set(exported.values())
    for _, mnemonic, operands in instructions:
        if mnemonic == "call" and (t := target(operands)) is not None:
            starts.add(t)
    starts = sorted(starts)

    def function(address):
        index = bisect.bisect_right(starts, address) - 1
        return starts[index] if index >= 0 else None

    calls = {}  # function -> functions it calls or jumps to directly
    callers = {}  # function -> addresses of the calls to it
    for address, mnemonic, operands in instructions:
        if mnemonic in ("call", "jmp") and (t := target(operands)) is not None:
            source, callee = function(address), function(t)
            if source is None or callee is None or source == callee:
                continue
            calls.setdefault(source, set()).add(callee)
            callers.setdefault(callee, []).append(address)

    def reachable(start, barriers=frozenset()):
        seen, todo = set(), [start]
        while todo:
            f = todo.pop()
            if f not in seen:
                seen.add(f)
                if f not in barriers or f == start:
                    todo.extend(calls.get(f, ()))
        return seen

    def within(address, name):
        return function(address) == exported[name]

    for name in ("cmark_manage_extensions_special_characters", "cmark_parser_finish", "cmark_parser_feed", "cmark_parse_inlines"):
        if name not in exported:
            fail(f"{name} is not exported")
    manage = exported["cmark_manage_extensions_special_characters"]

    # The tables: what the helpers manage calls refer to by address.
    helpers = calls.get(manage, set())
    tables = set()
    for address, _, operands in instructions:
        if function(address) in helpers | {manage} and (m := re.search(r"# ([0-9a-f]+) <", operands)):
            tables.add(int(m.group(1), 16))
    if len(tables) != 2:
        fail(f"expected the two tables in the helpers of cmark_manage_extensions_special_characters, found {sorted(map(hex, tables))}")

    users = {function(a) for a, _, operands in instructions if (m := re.search(r"# ([0-9a-f]+) <", operands)) and int(m.group(1), 16) in tables}

    # Fact 1.
    for helper in helpers & users:
        outside = [hex(a) for a in callers.get(helper, []) if function(a) != manage]
        if outside:
            fail(f"table writer {hex(helper)} is also called from {outside}")
    for address in callers.get(manage, []):
        if not within(address, "cmark_parser_finish"):
            fail(f"cmark_manage_extensions_special_characters is called at {hex(address)}, outside cmark_parser_finish")
    # Fact 2.
    for address in callers.get(exported["cmark_parse_inlines"], []):
        if not within(address, "cmark_parser_finish"):
            fail(f"cmark_parse_inlines is called at {hex(address)}, outside cmark_parser_finish")
    # Fact 3.
    reached = reachable(exported["cmark_parser_feed"]) & users
    if reached:
        fail(f"cmark_parser_feed reaches code using the tables: {sorted(map(hex, reached))}")
    # Fact 4. Whole-document entry points (cmark_parse_document, cmark_markdown_to_html) reach
    # the tables only through cmark_parser_finish; the extensions library must not call them.
    locked = {exported[n] for n in ("cmark_parse_inlines", "cmark_manage_extensions_special_characters", "cmark_parser_finish")}
    through_finish = set()
    for name, address in sorted(exported.items()):
        if address in locked or not reachable(address) & users:
            continue
        if name.startswith("cmark_inline_parser_"):
            continue
        if reachable(address, barriers=locked) & users:
            fail(f"exported {name} reaches code using the tables other than through cmark_parser_finish")
        through_finish.add(name)
    extensions = re.sub(r"libcmark-gfm\.so", "libcmark-gfm-extensions.so", path)
    if not os.path.isfile(extensions):
        fail(f"no extensions library beside {path}")
    imported = set()
    for line in subprocess.run(["nm", "-D", "--undefined-only", extensions], capture_output=True, text=True, check=True).stdout.splitlines():
        imported.add(line.split()[-1].split("@")[0])
    forbidden = imported & (through_finish | {"cmark_parse_inlines", "cmark_manage_extensions_special_characters", "cmark_parser_finish"})
    if forbidden:
        fail(f"the extensions library calls {sorted(forbidden)}")

    print(
        f"check-cmark-globals: {os.path.basename(path)} {version}: tables {sorted(map(hex, tables))} used by "
        f"{len(users)} functions, written only under cmark_parser_finish, none reachable from cmark_parser_feed"
    )


if __name__ == "__main__":
    main()
