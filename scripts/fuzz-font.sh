#!/usr/bin/env bash
# Fuzzes the TagflowMetrics font reader with libFuzzer (and AddressSanitizer).
# Usage: scripts/fuzz-font.sh [SECONDS] [extra libFuzzer flags...]   (default: 60 seconds)
# Seeds: the Debian fonts the tests use, when installed, and the built-in table.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
out=.build/fuzz
mkdir -p "$out/corpus"
# TagflowMetrics imports TagflowConcurrency for the one lock type, and TagflowConcurrency imports
# the C target CTagflowThreads: each built first as a module of its own, as SwiftPM would.
mkdir -p "$out/CTagflowThreads"
cat > "$out/CTagflowThreads/module.modulemap" <<EOF
module CTagflowThreads {
    header "$PWD/Sources/CTagflowThreads/include/tagflow_threads.h"
    export *
}
EOF
clang -O -fsanitize=address -ISources/CTagflowThreads/include -c Sources/CTagflowThreads/threads.c \
    -o "$out/CTagflowThreads.o"
swiftc -O -sanitize=address -parse-as-library -package-name tagflow -module-name TagflowConcurrency -wmo -c \
    -I "$out/CTagflowThreads" Sources/TagflowConcurrency/*.swift -emit-module \
    -emit-module-path "$out/TagflowConcurrency.swiftmodule" -o "$out/TagflowConcurrency.o"
swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name tagflow -module-name TagflowMetrics -I "$out" \
    -I "$out/CTagflowThreads" Sources/TagflowMetrics/*/*.swift Fuzz/FontReaderFuzzer.swift \
    "$out/TagflowConcurrency.o" "$out/CTagflowThreads.o" -o "$out/font-reader-fuzzer"
for font in /usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf \
    /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/opentype/inter/Inter-Regular.otf; do
    # Seeds start with the face-index byte.
    [ -f "$font" ] && { printf '\0'; cat "$font"; } > "$out/corpus/$(basename "$font")"
done
exec "$out/font-reader-fuzzer" "$out/corpus" -max_total_time="$seconds" -max_len=2000000 -rss_limit_mb=4096 \
    -timeout=10 "$@"
