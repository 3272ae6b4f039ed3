#!/usr/bin/env python3
"""Check that each target's dependencies in Package.swift are exactly the modules it imports (issue #31).

For every Swift target (regular, executable, test) in `swift package dump-package`, the modules its
`.swift` files import are compared with the dependencies it declares:

- imported but not declared: an error. The target builds only because some other dependency
  brings the module in transitively, and it breaks as soon as that dependency changes.
- declared but never imported: an error. An unused dependency costs build time (and link time),
  unless it is needed without an import: those few are in ALLOWED_UNUSED, each with its reason.

Toolchain modules (Foundation, Glibc, Testing, ...) are never dependencies and are ignored.
An import inside `#if canImport(X)` still counts; it is reported as conditional if undeclared.
C and system-library targets have no Swift imports and their own dependencies are not checked
(their `#include`s are out of scope); only Swift targets that import them must declare them.
Plugin targets are skipped. The manifest is evaluated with the current environment, so
ENABLE_TAGFLOW_BENCHMARKS=1 or TAGFLOW_FUZZ=1 adds the targets those variables switch on.

Usage: scripts/check-package-deps.py   (from anywhere; runs in the package root, builds nothing)
Exit status: 0 when every target matches, 1 when anything is reported, 2 if the dump fails.
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Modules of the toolchain and the OS: imported freely, never declared in Package.swift.
SYSTEM_MODULES = {
    "Swift", "_Concurrency", "_StringProcessing", "_Differentiation", "Distributed", "Cxx", "CxxStdlib",
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationXML",
    "FoundationNetworking", "CoreFoundation", "Dispatch", "Glibc", "Musl", "Darwin", "WinSDK", "ucrt",
    "Android", "WASILibc", "Testing", "XCTest", "Synchronization", "RegexBuilder", "Observation", "os",
    "ObjectiveC", "PackageDescription", "PackagePlugin", "SwiftShims",
}

# External products whose modules differ from the product's name (the default is one module named
# like the product, true of every product this package uses). Key: (package identity, product).
PRODUCT_MODULES = {
    ("swift-nio", "_NIOFileSystem"): {"_NIOFileSystem", "NIOFileSystem"},
}

# Dependencies needed without a Swift import: (target, dependency) -> reason.
ALLOWED_UNUSED = {
    ("tagflow", "CCmarkTables"):
        "C target linked for its symbols only: it defines a libcmark-gfm function (interposition) "
        "so documents parse in parallel; only the executable may link it (Package.swift).",
    ("TagflowMarkdownTests", "CCmarkTables"):
        "the test bundle is a program and parses in parallel as `tagflow` does (Package.swift).",
}

SOURCE_ROOTS = {"test": ["Tests"], "default": ["Sources", "Source", "src", "srcs"]}

IMPORT_RE = re.compile(
    r"^\s*(?:@[A-Za-z_]\w*(?:\([^)]*\))?\s+)*"            # @testable, @_exported, @_spi(X), @preconcurrency
    r"(?:(?:public|package|internal|fileprivate|private|open)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func|actor)\s+)?"
    r"([A-Za-z_]\w*)"
)
CAN_IMPORT_RE = re.compile(r"canImport\(\s*([A-Za-z_]\w*)")


def dump_package():
    try:
        out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"check-package-deps: `swift package dump-package` failed: {getattr(error, 'stderr', error)}",
              file=sys.stderr)
        sys.exit(2)
    return json.loads(out)


def target_folder(target):
    if target.get("path"):
        return os.path.join(ROOT, target["path"])
    for root in SOURCE_ROOTS.get(target["type"], SOURCE_ROOTS["default"]):
        folder = os.path.join(ROOT, root, target["name"])
        if os.path.isdir(folder):
            return folder
    return None


def swift_files(folder, excludes):
    excluded = [os.path.normpath(os.path.join(folder, e)) for e in excludes]
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if os.path.join(dirpath, d) not in excluded]
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if name.endswith(".swift") and path not in excluded:
                yield path


def module_name(target, folder):
    """A target's module: its name, or the `module X` of its own module map (system libraries)."""
    for mapfile in ("module.modulemap", "include/module.modulemap"):
        path = os.path.join(folder or "", mapfile)
        if folder and os.path.isfile(path):
            match = re.search(r"^\s*(?:explicit\s+)?module\s+(\w+)", open(path).read(), re.M)
            if match:
                return match.group(1)
    return target["name"]


def imports(path):
    """{module: conditional?} for the imports of one Swift file (comments and multi-line strings skipped)."""
    found, conditions, in_string, in_comment = {}, [], False, False
    for line in open(path, encoding="utf-8"):
        if in_comment or (not in_string and line.lstrip().startswith("/*")):
            in_comment = "*/" not in line
            continue
        code = line if in_string else line.split("//", 1)[0]  # `"""` in a doc comment opens nothing
        if code.count('"""') % 2:
            in_string = not in_string
            continue
        if in_string:
            continue
        line = line.split("//", 1)[0]
        stripped = line.strip()
        if stripped.startswith("#if"):
            conditions.append(bool(CAN_IMPORT_RE.search(stripped)))
        elif stripped.startswith(("#elseif", "#else")) and conditions:
            conditions[-1] = conditions[-1] or bool(CAN_IMPORT_RE.search(stripped))
        elif stripped.startswith("#endif") and conditions:
            conditions.pop()
        elif match := IMPORT_RE.match(line):
            module = match.group(1)
            found[module] = found.get(module, True) and any(conditions)
    return found


def declared(target, local_modules):
    """{module: dependency as written in Package.swift} for a target's dependencies."""
    result = {}
    for dep in target["dependencies"]:
        kind, value = next(iter(dep.items()))
        name = value[0]
        if kind == "product":
            modules = PRODUCT_MODULES.get((value[1], name), {name})
            label = f'.product(name: "{name}", package: "{value[1]}")'
        else:  # byName or target: a target of this package (by its module), or a product named alike
            modules = {local_modules.get(name, name)}
            label = f'"{name}"'
        for module in modules:
            result[module] = label
    return result


def main():
    package = dump_package()
    targets = [t for t in package["targets"] if t["type"] != "plugin"]
    folders = {t["name"]: target_folder(t) for t in targets}
    local_modules = {t["name"]: module_name(t, folders[t["name"]]) for t in targets}
    problems, checked = [], 0
    for target in targets:
        name, folder = target["name"], folders[target["name"]]
        if target["type"] == "system" or folder is None:
            continue
        files = list(swift_files(folder, target.get("exclude", [])))
        if not files:  # a C/C++ target
            continue
        checked += 1
        used = {}
        for path in files:
            for module, conditional in imports(path).items():
                used[module] = used.get(module, True) and conditional
        deps = declared(target, local_modules)
        for module in sorted(set(used) - set(deps) - SYSTEM_MODULES - {local_modules[name]}):
            note = " (only under #if canImport)" if used[module] else ""
            problems.append(f"{name}: imports {module}{note} but does not declare it -> add it to the dependencies")
        for module in sorted(set(deps) - set(used)):
            dep_name = deps[module].split('"')[1]
            if (name, dep_name) not in ALLOWED_UNUSED:
                problems.append(f"{name}: declares {deps[module]} but never imports {module} -> remove it")
    for problem in problems:
        print(problem)
    extra = " (ENABLE_TAGFLOW_BENCHMARKS set)" if "ENABLE_TAGFLOW_BENCHMARKS" in os.environ else ""
    if problems:
        print(f"check-package-deps: {len(problems)} mismatch(es) in {checked} Swift targets{extra}.")
        return 1
    print(f"check-package-deps: {checked} Swift targets, each declares exactly what it imports{extra}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
