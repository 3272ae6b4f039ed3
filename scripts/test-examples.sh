#!/usr/bin/env bash
# The ways people use Tagflow outside this repository, run for real (scripts/test.sh calls this):
#   1. Examples/BlogPackage, a blog kept in a Swift package: the `tagflow` command plugin checks
#      and builds it (SwiftPM builds the tool itself, in its own scratch path, .build-examples/),
#      and the pages hold the posts' titles;
#   2. an installed binary: tagflow copied alone to a temporary folder and run from an unrelated
#      working directory on a copy of site-example (TAGFLOW names the binary; default: the
#      release build if there is one, else the debug build).
# Usage: scripts/test-examples.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
blog=Examples/BlogPackage
trap 'rm -rf "$work" "$root/$blog/_site"' EXIT

fail() {
    echo "error: $*" >&2
    exit 1
}

# Fails unless FILE contains TEXT.
expect_in() {
    grep -qF -- "$2" "$1" || fail "$1 does not contain '$2'"
}

echo "-- $blog: swift package tagflow check, then build"
start=$(date +%s)
swift package --package-path "$blog" --scratch-path .build-examples/blog \
    --allow-writing-to-package-directory tagflow check --strict
swift package --package-path "$blog" --scratch-path .build-examples/blog \
    --allow-writing-to-package-directory tagflow build
echo "   (the plugin step took $(($(date +%s) - start)) s)"
expect_in "$blog/_site/posts/hello-from-a-package/index.html" "Hello from a Swift package"
expect_in "$blog/_site/posts/plugins-all-the-way-down/index.html" "Plugins all the way down"
expect_in "$blog/_site/index.html" "Package Notes"
# A failing tagflow fails the plugin with a clear message (and a non-zero status).
if swift package --package-path "$blog" --scratch-path .build-examples/blog \
    --allow-writing-to-package-directory tagflow build --no-such-flag 2> "$work/usage.txt"; then
    fail "the plugin passed on bad usage"
fi
expect_in "$work/usage.txt" "tagflow build failed: bad usage"

echo "-- a copied binary, run from an unrelated folder"
binary=${TAGFLOW:-}
if [ -z "$binary" ]; then
    if [ -x .build/release/tagflow ]; then binary=.build/release/tagflow; else binary=.build/debug/tagflow; fi
    [ -x "$binary" ] || swift build --product tagflow
fi
mkdir -p "$work/bin" "$work/elsewhere"
cp "$binary" "$work/bin/tagflow"
cp -R site-example "$work/site"
(
    cd "$work/elsewhere"
    "$work/bin/tagflow" --version
    "$work/bin/tagflow" check ../site --strict --quiet
    "$work/bin/tagflow" build ../site --output ../out --quiet
)
expect_in "$work/out/index.html" "Mira Lindqvist"
expect_in "$work/out/posts/flow-layout-part-1/index.html" "Flow layout, part 1: wrapping chips in rows"
expect_in "$work/out/assets/tagflow.css" "{"
expect_in "$work/out/assets/chips.css" "@container"
[ -e "$work/out/tags/swift/index.html" ] || fail "the copied binary wrote no tag page"
echo "Examples passed."
