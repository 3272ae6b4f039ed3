#!/usr/bin/env bash
# Builds the DocC documentation of the library products TagflowLayout, TagflowMetrics and
# TagflowChips, and fails on any warning (a broken symbol or article link, a bad Topics entry).
#
#   scripts/docs.sh                  checks, and writes .build/docs/Tagflow.doccarchive
#   DOCS_BASE_PATH=tagflow scripts/docs.sh   the same, for hosting at https://HOST/tagflow/
#   DOCS_ANALYZE=1 scripts/docs.sh   also print DocC's notes (informational; they do not fail)
#   python3 -m http.server -d .build/docs/Tagflow.doccarchive   then open /documentation/
#
# It uses the toolchain's `docc` and `swift-symbolgraph-extract` directly, with no plugin and no
# extra package: build the three targets, extract their public symbol graphs, convert each
# catalog (a later module links to an earlier one's symbols as ``/TagflowLayout/FlowLayout``),
# then merge the three archives into one site.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(TagflowLayout TagflowMetrics TagflowChips)   # dependencies first
out=.build/docs
rm -rf "$out" && mkdir -p "$out"

swift build --target TagflowChips   # builds its dependencies, TagflowLayout and TagflowMetrics
bin=$(swift build --show-bin-path)
search="$bin/Modules"; [ -d "$search" ] || search="$bin"
triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

# The C modules a documented module imports, even privately (TagflowHTML imports CTextScan):
# symbolgraph-extract loads them through the module maps SwiftPM wrote for them.
c_modules=()
for map in "$bin"/*.build/module.modulemap; do
    [ -f "$map" ] && c_modules+=(-Xcc "-fmodule-map-file=$map")
done

log="$out/docc.log"
options=()
[ -n "${DOCS_BASE_PATH:-}" ] && options=(--hosting-base-path "$DOCS_BASE_PATH")
[ -n "${DOCS_ANALYZE:-}" ] && options+=(--analyze)
dependencies=()
for module in "${modules[@]}"; do
    mkdir -p "$out/symbol-graphs/$module"
    swift symbolgraph-extract -module-name "$module" -I "$search" -target "$triple" "${c_modules[@]}" \
        -minimum-access-level public -skip-synthesized-members -output-dir "$out/symbol-graphs/$module"
    docc convert "Sources/$module/Documentation.docc" \
        --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
        --enable-experimental-external-link-support "${dependencies[@]}" "${options[@]}" \
        --warnings-as-errors --output-dir "$out/$module.doccarchive" 2>&1 | tee -a "$log"
    dependencies+=(--dependency "$out/$module.doccarchive")
done
if grep -qE "^(warning|error):" "$log"; then
    echo "error: the documentation has warnings (above)" >&2
    exit 1
fi
docc merge $(printf "$out/%s.doccarchive " "${modules[@]}") \
    --synthesized-landing-page-name Tagflow --synthesized-landing-page-kind Libraries \
    --output-path "$out/Tagflow.doccarchive" >/dev/null
echo "Documentation: $out/Tagflow.doccarchive (${modules[*]}), no warnings."
