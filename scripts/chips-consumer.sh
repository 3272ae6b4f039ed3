#!/usr/bin/env bash
# Builds and runs Examples/ChipsConsumer, a package that uses Tagflow the way another site
# generator would (the products TagflowLayout, TagflowMetrics and TagflowChips, by path), in its
# own scratch folder (.build-consumer), then checks the page it wrote
# (Tests/Examples/chips_consumer_check.py; it compares with .build/debug/tagflow when built).
# A second run measures with DejaVu Sans, when installed (fonts-dejavu-core), and ships it.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$PWD/.build-consumer"
output=$(mktemp -d)
trap 'rm -rf "$output"' EXIT
swift build --package-path Examples/ChipsConsumer --scratch-path "$scratch"
"$scratch/debug/ChipsConsumer" "$output/default"
python3 Tests/Examples/chips_consumer_check.py "$output/default" "$scratch"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
if [ -f "$font" ]; then
    "$scratch/debug/ChipsConsumer" "$output/font" "$font"
    python3 Tests/Examples/chips_consumer_check.py "$output/font" "$scratch" DejaVuSans.ttf
else
    echo "note: $font is missing (fonts-dejavu-core); skipped the run with a font file"
fi
