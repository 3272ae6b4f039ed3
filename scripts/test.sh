#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it:
#   1. build everything (the project's own code must compile without warnings),
#   2. swift test,
#   3. the whole suite again under AddressSanitizer, with leak checking for the TagflowMarkdown
#      tests (cmark-gfm is C; Foundation and NIO keep process-lifetime allocations LSan reports),
#   4. the machine-code check of cmark-gfm's global tables (scripts/check-cmark-globals.py), the
#      parallel build tests under ThreadSanitizer, the benchmarks' allocation counts against
#      Benchmarks/Thresholds (scripts/bench-thresholds.sh, a release build), and each fuzz target
#      for FUZZ_SECONDS (30),
#   5. the format lint, the check that no comment in Sources quotes a measured figure
#      (scripts/check-comment-figures.py; figures go in docs/performance.md), the check that
#      each target's dependencies in Package.swift are the modules it imports
#      (scripts/check-package-deps.py), and the embedded-theme check,
#   6. the library docs (DocC, warnings are errors), Examples/ChipsConsumer built and run on the
#      library products alone, Examples/MarkdownConsumer (TagflowMarkdown beside the program's own
#      cmark-gfm, with no function of libcmark-gfm defined in it), Examples/BlogPackage built through the SwiftPM plugin and a copied
#      binary run elsewhere (scripts/test-examples.sh), the GitHub Pages workflow checked
#      against the CLI, the workflows and action.yml against GitHub's schemas, and the release
#      archive and .deb (make dist, make deb) run on a bare Debian made with debootstrap
#      (Tests/Dist/dist_check.sh; it needs root, and is skipped, and said so, without it),
#   7. the adapters for other generators against the real Jekyll, MkDocs and Pelican (installed by
#      scripts/install-hosts.sh; skipped, and said so, where missing), and `tagflow import` on
#      sites made and built by the real Hugo and Jekyll (Tests/Import/import_check.py),
#   8. the browser suites against headless Chromium (skipped, and said so, when it is missing),
#      the integrations suite among them: sites built by the real hosts, then `tagflow enhance`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

# Each step's heading carries the time it starts, so that a slow step shows in CI's log.
step() { printf '\n== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

step "build"
log=$(mktemp)
swift build --build-tests 2>&1 | tee "$log"
if grep -E "^(/[^:]*/)?(Sources|Tests|Benchmarks)/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | grep -v "/.build" ; then
    echo "error: the build has warnings in the project's own code (above)" >&2
    exit 1
fi

step "swift test"
swift test --skip-build

step "the whole suite under AddressSanitizer"
# All but the test that waits for the kernel to read files ahead (run in the step above): this
# step comes right after a build of several GB, whose writeback can hold the hinted reads past
# the test's wait, and the test checks the kernel, not memory safety.
ASAN_OPTIONS=detect_leaks=0 swift test --sanitize=address --scratch-path .build-asan \
    --skip filesOutOfMemoryAreReadAheadAndFilesInMemoryAreNot
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
    swift test --skip-build --sanitize=address --scratch-path .build-asan --filter TagflowMarkdownTests

step "cmark-gfm's global tables are written only through the function CCmarkTables replaces (documents parse in parallel)"
python3 scripts/check-cmark-globals.py

step "parallel build under ThreadSanitizer"
# Parallel parsing, the parallel map (tasks and file threads), the lock, the parallel
# loader and renderer, whole builds, the preview's incremental rebuilds and its file watcher.
# TSan cannot see inside cmark-gfm and libyaml (not instrumented), so races inside the C
# libraries are out of its reach; ConcurrentParseTests checks the cmark-gfm one by its effect
# (lost autolinks).
swift test --sanitize=thread --scratch-path .build-tsan \
    --filter "ConcurrentParseTests|SiteBuilderTests|DeterminismTests|IncrementalBuilderTests|SiteWatcherTests|ParallelMapTests|LockedTests|BodyStoreTests"

step "allocation counts of the benchmarks against Benchmarks/Thresholds"
scripts/bench-thresholds.sh check

step "fuzzing (${FUZZ_SECONDS:-30} s per target, seed ${FUZZ_SEED:-1})"
# A fixed seed: the same commit explores the same inputs on every run (scripts/fuzz.sh).
FUZZ_SEED="${FUZZ_SEED:-1}" scripts/fuzz.sh "" "${FUZZ_SECONDS:-30}"

step "format lint"
scripts/format.sh --lint-only
python3 scripts/check-comment-figures.py
python3 scripts/check-package-deps.py
python3 scripts/embed-files.py --check

step "library docs (DocC; a warning fails)"
scripts/docs.sh
python3 Tests/Docs/article_code_check.py

step "Examples/ChipsConsumer (the library products, by path)"
scripts/chips-consumer.sh

step "Examples/MarkdownConsumer (TagflowMarkdown beside the program's own cmark-gfm)"
scripts/markdown-consumer.sh

step "Examples/BlogPackage through the SwiftPM plugin, and a copied binary"
TAGFLOW="$PWD/.build/debug/tagflow" scripts/test-examples.sh

step "publish workflow"
python3 Tests/Docs/publish_workflow_check.py

step "workflows and the action against GitHub's schemas"
if command -v check-jsonschema >/dev/null; then
    check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml site-example/.github/workflows/*.yml
    check-jsonschema --builtin-schema vendor.github-actions action.yml
elif [ -n "${CI:-}" ]; then
    echo "error: check-jsonschema is missing (.ci/run installs it from PyPI)" >&2
    exit 1
else
    echo "skipped: check-jsonschema is not installed (pip install check-jsonschema)"
fi

step "the release archive and .deb on a bare Debian"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    TAGFLOW="$PWD/.build/debug/tagflow" Tests/Dist/dist_check.sh
elif [ -n "${CI:-}" ]; then
    echo "error: the release check needs root and apt-get (chroot, debootstrap)" >&2
    exit 1
else
    echo "skipped: the release check needs root and apt-get (chroot, debootstrap)"
fi

export TAGFLOW="$PWD/.build/debug/tagflow"
step "the adapters for other generators (Jekyll; Python-Markdown, MkDocs, Pelican), with the real hosts"
# Each skips, and says so, where its host is missing; with CI set a missing host fails.
ruby Integrations/jekyll/test/test_tagflow.rb
python3 scripts/run-unittests.py Integrations/python/tests

step "tagflow import, on sites made and built by the real Hugo and Jekyll"
python3 Tests/Import/import_check.py

step "browser suites"
for suite in Tests/Browser/*_conformance.py Tests/Browser/*_accuracy.py Tests/Browser/*_browser.py; do
    [ -e "$suite" ] || continue
    echo "-- $suite"
    python3 "$suite"
done
echo
echo "All tests passed ($(date -u +%H:%M:%S))."
