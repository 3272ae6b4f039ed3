#!/usr/bin/env bash
# Builds site-example into _site (installing the C library first if it is missing) and, on a
# terminal, previews it with `tagflow serve` at http://127.0.0.1:8000/ (rebuilt and reloaded as
# you edit site-example), opening the browser. Ctrl-C stops.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product tagflow
.build/release/tagflow build site-example --output _site
if [ -t 1 ] && [ -z "${CI:-}" ]; then
    exec .build/release/tagflow serve site-example --open
fi
