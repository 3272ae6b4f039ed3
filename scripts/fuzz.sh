#!/usr/bin/env bash
# Runs the libFuzzer targets under Fuzz/ for a bounded time each, with AddressSanitizer.
#   scripts/fuzz.sh                    every target, 60 s each
#   scripts/fuzz.sh FuzzMarkdown 120   one target, 120 s
# A target is Fuzz/<Name>/main.swift (an `@_cdecl("LLVMFuzzerTestOneInput")` function) plus its
# line below. Seeds are in Fuzz/Corpus/<Name>/ (checked in); what the fuzzer adds goes to
# .build-fuzz/corpus/<Name>/ (not checked in). A crash writes .build-fuzz/crash-<Name>-*: minimise
# it (`-minimize_crash=1`), keep it under Tests/TagflowMarkdownTests/Fixtures/fuzz-regressions/<Name>/
# where FuzzRegressionTests replays it, and fix the bug.
# cmark-gfm and libyaml's C code come from the system (cmark-gfm) or are built without coverage
# instrumentation, so the fuzzer is guided by the Swift code and ASan sees only Swift/CYaml frames.
# The font reader (TagflowMetrics) is fuzzed by scripts/fuzz-font.sh, run here as FuzzFontReader.
# FUZZ_SEED=N fixes libFuzzer's seed (and Swift's hashing), so a run explores the same inputs each
# time: CI uses it, so that a commit passes or fails the same way on every run. Without it each
# run explores afresh, which is what a long local run is for.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(
    FuzzFrontMatter
    FuzzMarkdown
    FuzzTemplate
    FuzzEnhance
)

only="${1:-}"
seconds="${2:-60}"
scratch=.build-fuzz
export TAGFLOW_FUZZ=1
seed_flags=()
if [ -n "${FUZZ_SEED:-}" ]; then
    seed_flags=(-seed="$FUZZ_SEED")
    export SWIFT_DETERMINISTIC_HASHING=1
fi

for target in "${TARGETS[@]}"; do
    [ -z "$only" ] || [ "$only" = "$target" ] || continue
    echo "== $target (${seconds}s)"
    swift build -c release --scratch-path "$scratch" --product "$target" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >/dev/null
    corpus="$scratch/corpus/$target"
    mkdir -p "$corpus"
    start=$(date +%s)
    status=0
    cpu=() && command -v /usr/bin/time >/dev/null && cpu=(/usr/bin/time -f "-- $target: %U s user + %S s system CPU")
    "${cpu[@]}" "$scratch/release/$target" "$corpus" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 ${seed_flags[@]+"${seed_flags[@]}"} -artifact_prefix="$scratch/crash-$target-" 2>&1 | tail -n 12 || status=$?
    echo "-- $target: $(( $(date +%s) - start )) s wall, exit $status"
    [ "$status" -eq 0 ] || exit "$status"
done
if [ -z "$only" ] || [ "$only" = "FuzzFontReader" ]; then
    echo "== FuzzFontReader (${seconds}s)"
    scripts/fuzz-font.sh "$seconds" -print_final_stats=1 ${seed_flags[@]+"${seed_flags[@]}"} 2>&1 | tail -n 12
fi
