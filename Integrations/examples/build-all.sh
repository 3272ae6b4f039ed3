#!/usr/bin/env bash
# Builds each example site with its own generator into OUTDIR/<host>/:
#   Integrations/examples/build-all.sh OUTDIR
# hugo, jekyll, mkdocs (Material + its tags plugin) and pelican (notmyidea). A generator that is
# not installed is skipped with a line on stderr (scripts/install-hosts.sh installs them all);
# with CI=true a skipped generator makes the script fail once the others are built. Nothing is
# written into the example folders and nothing is fetched. Each build's time goes to stderr.
set -euo pipefail
if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$1"
outdir="$(cd "$1" && pwd)"
export NO_MKDOCS_2_WARNING=1   # Material's end-of-life notice, printed on every build

build_hugo() {
    hugo --source "$here/hugo" --destination "$1" --noBuildLock --quiet
}
build_jekyll() {
    # disable_disk_cache in _config.yml keeps .jekyll-cache out of the source folder.
    jekyll build --source "$here/jekyll" --destination "$1" --quiet
}
build_mkdocs() {
    mkdocs build --quiet --config-file "$here/mkdocs/mkdocs.yml" --site-dir "$1"
}
build_pelican() {
    pelican "$here/pelican/content" --settings "$here/pelican/pelicanconf.py" --output "$1" --quiet
}

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
missing=()
for host in hugo jekyll mkdocs pelican; do
    if ! command -v "$host" >/dev/null; then
        echo "skipping $host: not installed (scripts/install-hosts.sh installs it)" >&2
        missing+=("$host")
        continue
    fi
    out="$outdir/$host"
    rm -rf "$out"
    start=${EPOCHREALTIME/,/.}   # a locale may write a decimal comma
    if ! "build_$host" "$out" >"$log" 2>&1; then
        cat "$log" >&2
        echo "error: the $host example did not build" >&2
        exit 1
    fi
    end=${EPOCHREALTIME/,/.}
    pages=$(find "$out" -name '*.html' | wc -l)
    LC_ALL=C awk -v h="$host" -v s="$start" -v e="$end" -v n="$pages" -v o="$out" \
        'BEGIN { printf "%-8s %5.2f s  %3d HTML files  %s\n", h, e - s, n, o }' >&2
done
if [ ${#missing[@]} -gt 0 ] && [ "${CI:-}" = "true" ]; then
    echo "error: CI=true and not installed: ${missing[*]}" >&2
    exit 1
fi
