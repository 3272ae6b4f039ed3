#!/usr/bin/env python3
"""Checks, in the installed libcmark-gfm's machine code, the facts that let Tagflow parse
Markdown documents in parallel (Sources/CCmarkTables, MarkdownRenderer.swift's CoreExtensions).

cmark-gfm keeps two process-wide tables of inline parsing (SPECIAL_CHARS and SKIP_CHARS in
inlines.c); every parse marks its extensions' characters in them and unmarks them again, by
calling cmark_manage_extensions_special_characters. Tagflow defines that function itself: once
its extensions' characters are marked, a call for a parser with only those extensions does
nothing, so no parse writes the tables. The facts that rest on, for
MarkdownRenderer.checkedVersion:

  1. The tables are written by two small helpers, and only
     cmark_manage_extensions_special_characters calls them. (The other functions that refer to
     the tables only read them: inlines.c, by its source.)
  2. The library calls cmark_manage_extensions_special_characters only through its procedure
     linkage table (no call or jump goes to the function's own address), so the definition linked
     into the program, which comes first in the lookup order, receives every call.
     cmark_tables_fill checks at run time that the calls do arrive there.

With another version, Tagflow parses each document under a lock, and this script says so and
passes. Needs objdump and nm (binutils). Exits 1, naming the fact, when one does not hold.
"""

import bisect
import ctypes
import glob
import os
import re
import subprocess
import sys

CHECKED_VERSION = "0.29.0.gfm.6"  # MarkdownRenderer.checkedVersion
MANAGE = "cmark_manage_extensions_special_characters"


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
        print(f"check-cmark-globals: {path} is {version}, not {CHECKED_VERSION}: Tagflow parses each document under its lock")
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

    def raw_target(operands):
        match = re.match(r"([0-9a-f]+) <", operands)
        return int(match.group(1), 16) if match else None

    def target(operands):
        address = raw_target(operands)
        if address is None:
            return None
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

    if MANAGE not in exported:
        fail(f"{MANAGE} is not exported")
    manage = exported[MANAGE]

    # The tables: what the helpers manage calls refer to by address.
    helpers = calls.get(manage, set())
    tables = set()
    for address, _, operands in instructions:
        if function(address) in helpers | {manage} and (m := re.search(r"# ([0-9a-f]+) <", operands)):
            tables.add(int(m.group(1), 16))
    if len(tables) != 2:
        fail(f"expected the two tables in the helpers of {MANAGE}, found {sorted(map(hex, tables))}")

    users = {function(a) for a, _, operands in instructions if (m := re.search(r"# ([0-9a-f]+) <", operands)) and int(m.group(1), 16) in tables}

    # Fact 1.
    for helper in helpers & users:
        outside = [hex(a) for a in callers.get(helper, []) if function(a) != manage]
        if outside:
            fail(f"table writer {hex(helper)} is also called from {outside}")
    # Fact 2.
    direct = [hex(a) for a, mnemonic, operands in instructions if mnemonic in ("call", "jmp") and raw_target(operands) == manage]
    if direct:
        fail(f"{MANAGE} is called directly, not through the PLT, at {direct}")
    through_plt = [a for a, mnemonic, operands in instructions if mnemonic in ("call", "jmp") and plt.get(raw_target(operands)) == MANAGE]
    if not through_plt:
        fail(f"no call of {MANAGE} through the PLT (has the library changed?)")

    print(
        f"check-cmark-globals: {os.path.basename(path)} {version}: tables {sorted(map(hex, tables))} used by "
        f"{len(users)} functions, written only through {MANAGE}, which the library calls {len(through_plt)} times, "
        "each through the PLT"
    )


if __name__ == "__main__":
    main()
