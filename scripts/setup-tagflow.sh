#!/usr/bin/env bash
# The "Set up Tagflow" action (action.yml): installs a release archive after checking its SHA-256,
# or builds Tagflow from the action's own source when there is no release to take.
#
# Reads REQUESTED_VERSION (the `version` input), ACTION_REF and ACTION_REPOSITORY (where the
# action was taken from), and the runner's GITHUB_ACTION_PATH, RUNNER_TEMP, RUNNER_TOOL_CACHE,
# GITHUB_PATH and GITHUB_OUTPUT. TAGFLOW_RELEASES_URL replaces
# https://github.com/REPO/releases/download, for a mirror (and for the tests).
set -euo pipefail

source_dir="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
temp="${RUNNER_TEMP:-$(mktemp -d)}"
tools="${RUNNER_TOOL_CACHE:-$temp}"

version="${REQUESTED_VERSION:-}"
if [ -z "$version" ]; then
    case "${ACTION_REF:-}" in
        v[0-9]*) version="${ACTION_REF#v}" ;;
    esac
fi

finish() { # DIR FROM
    echo "$1" >>"${GITHUB_PATH:-/dev/null}"
    {
        echo "tagflow=$1/tagflow"
        echo "from=$2"
    } >>"${GITHUB_OUTPUT:-/dev/null}"
    "$1/tagflow" --version
    exit 0
}

if [ -n "$version" ] && [ "$version" != source ]; then
    if [ "$(uname -s)" = Linux ]; then
        name="tagflow-$version-linux-$(uname -m)"
        releases="${TAGFLOW_RELEASES_URL:-https://github.com/${ACTION_REPOSITORY:-}/releases/download}"
        url="$releases/v$version/$name.tar.gz"
        if curl -fsSL --retry 3 -o "$temp/$name.tar.gz" "$url"; then
            curl -fsSL --retry 3 -o "$temp/$name.tar.gz.sha256" "$url.sha256"
            # A download that does not match its checksum stops the job: never run it, never
            # quietly build something else instead.
            (cd "$temp" && sha256sum --check --strict "$name.tar.gz.sha256")
            dest="$tools/tagflow/$version/$(uname -m)"
            rm -rf "$dest"
            mkdir -p "$dest"
            tar -xzf "$temp/$name.tar.gz" -C "$dest" --strip-components=1
            finish "$dest/bin" release
        fi
        echo "::notice::No release archive $name at $url; building Tagflow $version from source."
    else
        echo "::notice::Release archives are for Linux; building Tagflow from source on $(uname -s)."
    fi
fi

if ! command -v swift >/dev/null; then
    echo "::error::Building Tagflow from source needs Swift 6.1 or later on the runner (the swift:6.1-noble container, or swift-actions/setup-swift), or a release version to install."
    exit 1
fi
make -C "$source_dir" build
finish "$source_dir/.build/release" source
