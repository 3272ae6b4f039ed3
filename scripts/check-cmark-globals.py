#!/usr/bin/env python3
"""Checks, in the installed libcmark-gfm's machine code, the facts that let Tagflow parse
Markdown documents in parallel (Sources/CCmarkTables, MarkdownRenderer.swift's CoreExtensions).

cmark-gfm keeps two process-wide tables of inline parsing (SPECIAL_CHARS and SKIP_CHARS in
inlines.c); every parse marks its extensions' characters in them and unmarks them again, by
calling cmark_manage_extensions_special_characters. Tagflow defines that function itself: once
its extensions' characters are marked, they stay marked, and a Tagflow parse writes nothing. The
facts that rest on, for MarkdownRenderer.checkedVersion:

  1. The tables are written only by two small helpers, which are not exported and are called
     only from cmark_manage_extensions_special_characters; every other function that refers to
     them only reads them (no store through the table's address).
  2. The library calls cmark_manage_extensions_special_characters only through its procedure
     linkage table (no call or jump goes to the function's own address), so the definition linked
     into the program, first in the lookup order, receives every call. cmark_tables_fill checks
     at run time that the calls do arrive there.
  3. The tables are read only while inline parsing runs, where each parse used to mark them for
     itself, so a mark that now stays changes no output: cmark_parse_inlines and that function
     are called only from cmark_parser_finish; nothing reachable from cmark_parser_feed refers
     to the tables; and the only exported functions that reach them other than through
     cmark_parser_finish are cmark_parse_inlines, that function, and cmark_inline_parser_*
     functions (which take an inline parser, an object that exists only while
     cmark_parse_inlines runs), none of which the extensions library calls.

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

    # Position-independent code takes a table's address into a register (`lea table(%rip),%reg`)
    # and then reads or writes through that register, until the register gets another value.
    position = {address: index for index, (address, _, _) in enumerate(instructions)}

    def table_registers(functions):
        for index, (address, mnemonic, operands) in enumerate(instructions):
            m = re.search(r"# ([0-9a-f]+) <", operands)
            if function(address) in functions and m and int(m.group(1), 16) in tables:
                if mnemonic != "lea":
                    fail(f"{hex(address)} ({mnemonic} {operands}) uses a table other than by taking its address")
                register = re.search(r",%(\w+)\s", operands + " ").group(1)
                end = index + 1
                while end < len(instructions) and function(instructions[end][0]) == function(address):
                    _, later, later_operands = instructions[end]
                    if destination(later_operands) in aliases(register) and not later.startswith(("cmp", "test", "push")):
                        break
                    end += 1
                yield address, register, end

    def instructions_between(address, end):
        return instructions[position[address] + 1 : end]

    def aliases(register):
        families = [("rax", "eax", "ax", "al"), ("rbx", "ebx", "bx", "bl"), ("rcx", "ecx", "cx", "cl"),
                    ("rdx", "edx", "dx", "dl"), ("rsi", "esi", "si", "sil"), ("rdi", "edi", "di", "dil"),
                    ("rbp", "ebp", "bp", "bpl")]
        families += [(f"r{n}", f"r{n}d", f"r{n}w", f"r{n}b") for n in range(8, 16)]
        return next((family for family in families if register in family), (register,))

    def split_operands(operands):
        # AT&T operands, split at the commas outside parentheses; the destination is the last.
        parts, depth, current = [], 0, ""
        for character in operands.split("#")[0].strip():
            depth += {"(": 1, ")": -1}.get(character, 0)
            if character == "," and depth == 0:
                parts.append(current.strip())
                current = ""
            else:
                current += character
        return parts + [current.strip()] if current.strip() else parts

    def destination(operands):
        parts = split_operands(operands)
        return parts[-1][1:] if parts and parts[-1].startswith("%") else None

    def writes_through(mnemonic, operands, register):
        # A memory destination addressed with the register, and an instruction that writes it.
        parts = split_operands(operands)
        if mnemonic.startswith(("cmp", "test")) or not parts or "(" not in parts[-1]:
            return False
        return any(re.search(rf"%{alias}\b", parts[-1]) for alias in aliases(register))

    # Fact 1.
    for helper in helpers & users:
        outside = [hex(a) for a in callers.get(helper, []) if function(a) != manage]
        if outside:
            fail(f"table writer {hex(helper)} is also called from {outside}")
        if helper in exported.values():
            fail(f"table writer {hex(helper)} is exported")
    for address, register, end in table_registers(users - helpers):
        for at, mnemonic, operands in instructions_between(address, end):
            if writes_through(mnemonic, operands, register):
                fail(f"{hex(at)} ({mnemonic} {operands}) writes a table outside its two helpers")
    # Fact 2.
    direct = [hex(a) for a, mnemonic, operands in instructions if mnemonic in ("call", "jmp") and raw_target(operands) == manage]
    if direct:
        fail(f"{MANAGE} is called directly, not through the PLT, at {direct}")
    through_plt = [a for a, mnemonic, operands in instructions if mnemonic in ("call", "jmp") and plt.get(raw_target(operands)) == MANAGE]
    if not through_plt:
        fail(f"no call of {MANAGE} through the PLT (has the library changed?)")
    # Fact 3.
    for address in callers.get(manage, []):
        if not within(address, "cmark_parser_finish"):
            fail(f"{MANAGE} is called at {hex(address)}, outside cmark_parser_finish")
    for address in callers.get(exported["cmark_parse_inlines"], []):
        if not within(address, "cmark_parser_finish"):
            fail(f"cmark_parse_inlines is called at {hex(address)}, outside cmark_parser_finish")
    reached = reachable(exported["cmark_parser_feed"]) & users
    if reached:
        fail(f"cmark_parser_feed reaches code using the tables: {sorted(map(hex, reached))}")
    # Whole-document entry points (cmark_parse_document, cmark_markdown_to_html) reach the tables
    # only through cmark_parser_finish; the extensions library must not call them.
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
        f"{len(users)} functions, written only by two helpers of {MANAGE}, which the library calls "
        f"{len(through_plt)} times, each through the PLT, and read only while inline parsing runs"
    )


if __name__ == "__main__":
    main()
