#!/usr/bin/env bash
# The allocation counts of the package-benchmark suites (Benchmarks/TagflowBenchmarks), against the
# counts recorded in Benchmarks/Thresholds:
#
#   scripts/bench-thresholds.sh check    fails when a benchmark allocates more than its record
#                                        allows (the tolerance is in TagflowBenchmarks.swift)
#   scripts/bench-thresholds.sh update   records the counts again, after a change meant to
#                                        allocate more or less; commit Benchmarks/Thresholds
#
# Allocation counts, not times: they are the same on a busy machine as on a quiet one, so a
# regression fails CI instead of waiting for someone to time it by hand. The benchmarks build in
# release mode into .build-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
action="${1:-check}"
run() {
    ENABLE_TAGFLOW_BENCHMARKS=1 swift package --scratch-path .build-bench "$@" \
        benchmark thresholds "$action" --target TagflowBenchmarks --metric mallocCountTotal --no-progress \
        --path Benchmarks/Thresholds
}
case "$action" in
    update)
        rm -f Benchmarks/Thresholds/*.json
        run --allow-writing-to-package-directory
        # package-benchmark writes each file with `_` for the spaces of the benchmark's name but
        # looks for it by the name itself: the names hold no `_`, so the spaces are put back.
        for file in Benchmarks/Thresholds/*_*.json; do
            [ -e "$file" ] || continue
            name="${file##*/}"
            mv "$file" "Benchmarks/Thresholds/${name//_/ }"
        done
        ;;
    check)
        log=$(mktemp)
        status=0
        run 2>&1 | tee "$log" || status=$?
        # `swift package` turns the tool's exit codes into 1, so its verdict is read from its words.
        if grep -q "is WORSE than the defined thresholds" "$log" || { [ "$status" -ne 0 ] && ! grep -q "is BETTER than" "$log"; }; then
            rm -f "$log"
            echo "error: a benchmark allocates more than Benchmarks/Thresholds allows (above), or the check" \
                "failed; if more is meant, run scripts/bench-thresholds.sh update and say why in the commit" >&2
            exit 1
        fi
        if grep -q "is BETTER than" "$log"; then
            echo "allocation counts fell past the tolerance: run scripts/bench-thresholds.sh update and" \
                "commit Benchmarks/Thresholds, so that the lower counts are kept"
        fi
        rm -f "$log"
        ;;
    *)
        echo "usage: scripts/bench-thresholds.sh check|update" >&2
        exit 64
        ;;
esac
