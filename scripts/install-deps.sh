#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Tagflow needs, only those that are missing.
#   scripts/install-deps.sh            the C and C++ libraries (libcmark-gfm-dev,
#                                      libcmark-gfm-extensions-dev, libsource-highlight-dev), and
#                                      binutils for scripts/check-cmark-globals.py
#   scripts/install-deps.sh --browser  also headless Chromium and the fonts the browser tests pin
set -euo pipefail
packages=(libcmark-gfm-dev libcmark-gfm-extensions-dev libsource-highlight-dev pkg-config binutils)
if [ "${1:-}" = "--browser" ]; then
    packages+=(chromium fonts-dejavu-core fonts-liberation2 fonts-inter fonts-noto-cjk fonts-noto-color-emoji fonts-noto-core)
fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
    echo "error: missing ${missing[*]} and no apt-get; install libcmark-gfm (with its extensions) and GNU Source-highlight another way" >&2
    exit 1
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
