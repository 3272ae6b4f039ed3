#!/usr/bin/env bash
# Builds site-example and takes the README's screenshots with headless Chromium.
# Usage: scripts/screenshots.sh   (writes docs/screenshot-*.png)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product tagflow
out=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$out"' EXIT
.build/debug/tagflow build site-example --output "$out/site" --quiet
port=8765
python3 -m http.server --bind 127.0.0.1 --directory "$out/site" $port >/dev/null 2>&1 &
server=$!
sleep 1
shoot() {  # name path width height
    chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$3,$4" --screenshot="docs/screenshot-$1.png" "http://127.0.0.1:$port$2" >/dev/null 2>&1
}
shoot home / 1280 900
shoot post /posts/flow-layout-part-1/ 1280 900
shoot tags /tags/ 1280 900
shoot home-narrow / 390 844
shoot post-narrow /posts/flow-layout-part-1/ 390 844
shoot tags-narrow /tags/ 390 844
echo "Wrote docs/screenshot-*.png"
