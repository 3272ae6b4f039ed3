#!/usr/bin/env bash
# Makes dist/tagflow_VERSION_ARCH.deb (`make deb` runs it) from the release build of
# scripts/dist.sh, which it runs first: `sudo apt install ./dist/tagflow_*.deb` installs
#   /usr/bin/tagflow                          the same binary as the archive's
#   /usr/lib/tagflow/                         the libcmark-gfm it loads ($ORIGIN/../lib/tagflow)
#   /usr/share/tagflow/source-highlight/      the definitions it finds beside itself (../share)
#   /usr/share/doc/tagflow/                   the licences
# It depends only on the C library: everything else is linked in or carried.
set -euo pipefail
cd "$(dirname "$0")/.."

archive=$(scripts/dist.sh | tail -1)
staging=".build-dist/$(basename "$archive" .tar.gz)"
version=$(scripts/version.sh)
arch=$(dpkg --print-architecture)
glibc=$(ldd --version | sed -n '1s/.* \([0-9][0-9.]*\)$/\1/p')
root=".build-dist/deb/tagflow_${version}_$arch"

rm -rf "$root"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib" "$root/usr/share/tagflow" "$root/usr/share/doc/tagflow"
install -m 755 "$staging/bin/tagflow" "$root/usr/bin/tagflow"
cp -R "$staging/lib/tagflow" "$root/usr/lib/tagflow"
cp -R "$staging/share/tagflow/source-highlight" "$root/usr/share/tagflow/"
cp -R "$staging/LICENSES" "$root/usr/share/doc/tagflow/licenses"
cat >"$root/usr/share/doc/tagflow/copyright" <<EOF
Tagflow, the libraries linked into /usr/bin/tagflow (the Swift runtime and packages, GNU
Source-highlight, Boost.Regex, ICU, libstdc++) and cmark-gfm in /usr/lib/tagflow: each licence is
in /usr/share/doc/tagflow/licenses/.
EOF
cat >"$root/DEBIAN/control" <<EOF
Package: tagflow
Version: $version
Architecture: $arch
Maintainer: Tagflow contributors <tagflow@users.noreply.github.com>
Depends: libc6 (>= $glibc)
Section: web
Priority: optional
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Description: static site generator for blogs with tags
 Tagflow builds a blog from Markdown posts with YAML or TOML front matter:
 post pages, tag pages with feeds, an archive, a feed and a sitemap. Every
 list of tags is laid out at build time, with no JavaScript.
EOF
dpkg-deb --root-owner-group --build "$root" "dist/tagflow_${version}_$arch.deb" >/dev/null
echo "dist/tagflow_${version}_$arch.deb"
