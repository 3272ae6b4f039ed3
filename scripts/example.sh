#!/usr/bin/env bash
# Builds site-example into _site (installing the C library first if it is missing) and, on a
# terminal, serves it at http://127.0.0.1:8000/ so you can look at it. Ctrl-C stops.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product tagflow
.build/release/tagflow build site-example --output _site
if [ -t 1 ] && [ -z "${CI:-}" ]; then
    echo "Serving _site at http://127.0.0.1:8000/ (Ctrl-C to stop)"
    command -v xdg-open >/dev/null && (sleep 1 && xdg-open http://127.0.0.1:8000/ >/dev/null 2>&1 &) || true
    exec python3 -m http.server --bind 127.0.0.1 --directory _site 8000
fi
