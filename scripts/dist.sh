#!/usr/bin/env bash
# Makes the release archive of the tagflow command for this machine (`make dist` runs it):
#   dist/tagflow-VERSION-linux-ARCH.tar.gz and dist/tagflow-VERSION-linux-ARCH.tar.gz.sha256
#
# The archive holds one folder:
#   bin/tagflow                         with the Swift runtime, GNU Source-highlight, Boost.Regex,
#                                       ICU and libstdc++ linked in statically
#   lib/tagflow/                        libcmark-gfm and its extensions, which bin/tagflow loads
#                                       from there ($ORIGIN/../lib/tagflow)
#   share/tagflow/source-highlight/     the language definitions Source-highlight reads at run
#                                       time (tagflow finds them beside itself)
#   LICENSES/                           the licence of each part linked in
#   README.txt
# so it runs on a Linux with glibc 2.36 or newer and nothing else installed.
#
# cmark-gfm stays a shared library: CCmarkTables, linked into the tagflow executable only (no
# library product carries it), replaces one of its functions for the calls the library makes
# through its procedure linkage table, which a static copy would not make (and the two
# definitions would clash at link time). So the archive carries Debian's build of the library,
# the one scripts/check-cmark-globals.py checks.
#
# Needs, besides Swift: the -dev packages of scripts/install-deps.sh (Debian ships the static
# archives in them) and libicu-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(scripts/version.sh)
arch=$(uname -m)
name="tagflow-$version-linux-$arch"
scratch=.build-dist
staging="$scratch/$name"
multiarch=$(gcc -print-multiarch)
system_libs="/usr/lib/$multiarch"

scripts/install-deps.sh
for archive in libsource-highlight.a libboost_regex.a libicuuc.a; do
    if [ ! -f "$system_libs/$archive" ]; then
        echo "error: $system_libs/$archive is missing; install libicu-dev and the packages of scripts/install-deps.sh" >&2
        exit 1
    fi
done

# The system library targets find their libraries through pkg-config. For this build
# Source-highlight's .pc file points into a folder answering its name with a group of its static
# archive and what that needs in turn, and libstdc++'s with its static archive.
static="$PWD/$scratch/static-libs"
rm -rf "$static" "$scratch/pkgconfig"
mkdir -p "$static" "$scratch/pkgconfig"
ln -s "$(gcc -print-file-name=libstdc++.a)" "$static/libstdc++.a"
group="GROUP ( $system_libs/libsource-highlight.a $system_libs/libboost_regex.a $system_libs/libicui18n.a $system_libs/libicuuc.a $system_libs/libicudata.a )"
echo "$group" >"$static/libsource-highlight.a"
echo "$group" >"$static/libboost_regex.a"
cat >"$scratch/pkgconfig/source-highlight.pc" <<EOF
Name: libsource-highlight
Description: GNU Source-highlight, linked statically
Version: $(pkg-config --modversion source-highlight)
Libs: -L$static -lsource-highlight -lboost_regex
Cflags: $(pkg-config --cflags source-highlight)
EOF

# cmark-gfm's own .pc file names the system's library folder with -L. SwiftPM puts the targets'
# flags in an order of its choosing, and that -L before the folder above would find
# Source-highlight's shared library first; the folder is on the linker's default path anyway.
cat >"$scratch/pkgconfig/libcmark-gfm.pc" <<EOF
Name: libcmark-gfm
Description: cmark-gfm, from the linker's default path
Version: $(pkg-config --modversion libcmark-gfm)
Libs: -lcmark-gfm -lcmark-gfm-extensions
Cflags: $(pkg-config --cflags libcmark-gfm)
EOF

PKG_CONFIG_PATH="$PWD/$scratch/pkgconfig" swift build -c release --product tagflow --scratch-path "$scratch/build" \
    --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -static-libgcc -Xlinker -rpath -Xlinker '$ORIGIN/../lib/tagflow'
binary="$scratch/build/release/tagflow"

# Only the C library and cmark-gfm may be left to load.
needed=$(ldd "$binary" | awk '{print $1}')
unexpected=$(echo "$needed" | grep -v -E '^(linux-vdso\.so|/lib/ld-linux|/lib64/ld-linux|ld-linux|libc\.so|libm\.so|libcmark-gfm)' || true)
if [ -n "$unexpected" ]; then
    echo "error: $binary still needs: $unexpected" >&2
    exit 1
fi

rm -rf "$staging" dist/"$name".tar.gz dist/"$name".tar.gz.sha256
mkdir -p "$staging/bin" "$staging/lib/tagflow" "$staging/share/tagflow" "$staging/LICENSES" dist
install -m 755 -s "$binary" "$staging/bin/tagflow"
for library in $(echo "$needed" | grep '^libcmark-gfm'); do
    install -m 644 "$system_libs/$library" "$staging/lib/tagflow/$library"
done
datadir=$(pkg-config --variable=prefix source-highlight)/share/source-highlight
cp -R "$datadir" "$staging/share/tagflow/source-highlight"

cp LICENSE "$staging/LICENSES/tagflow.txt" 2>/dev/null || true
for package in libcmark-gfm0.29.0.gfm.6 libcmark-gfm-extensions0.29.0.gfm.6 libsource-highlight4v5 libboost-regex1.74.0 libicu72 libstdc++6; do
    cp "/usr/share/doc/$package/copyright" "$staging/LICENSES/$package.txt"
done
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
cp "$toolchain/share/swift/LICENSE.txt" "$staging/LICENSES/swift.txt" 2>/dev/null ||
    find "$toolchain" -maxdepth 4 -name 'LICENSE.txt' -print -quit | xargs -I{} cp {} "$staging/LICENSES/swift.txt"
for checkout in "$scratch"/build/checkouts/*; do
    licence=$(find "$checkout" -maxdepth 1 -iname 'LICENSE*' -print -quit)
    [ -n "$licence" ] && cp "$licence" "$staging/LICENSES/$(basename "$checkout").txt"
done

cat >"$staging/README.txt" <<EOF
Tagflow $version for Linux ($arch)

  bin/tagflow     the command; put bin/ on your PATH, or link bin/tagflow into it
                  (it finds lib/tagflow/ and share/tagflow/ beside itself, through links too)
  lib/tagflow/    libcmark-gfm, the Markdown parser it uses
  share/tagflow/  the language definitions for code highlighting
  LICENSES/       the licences of Tagflow and of what it links in

Start with: tagflow new site my-blog && tagflow serve my-blog
Documentation: README.md and docs/ in the Tagflow source repository
EOF

tar -C "$scratch" --owner=0 --group=0 --numeric-owner --sort=name -czf "dist/$name.tar.gz" "$name"
(cd dist && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "dist/$name.tar.gz"
