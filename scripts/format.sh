#!/usr/bin/env bash
# Formats the Swift sources in place, then lints them strictly (as CI does).
# Usage: scripts/format.sh [--lint-only]
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Plugins)
[ -d Benchmarks ] && paths+=(Benchmarks)
[ -d Examples ] && paths+=(Examples)
[ -d Fuzz ] && paths+=(Fuzz)
if [ "${1:-}" != "--lint-only" ]; then
    swift format format --parallel --recursive --in-place "${paths[@]}"
fi
swift format lint --strict --parallel --recursive "${paths[@]}"
