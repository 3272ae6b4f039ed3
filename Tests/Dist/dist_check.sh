#!/usr/bin/env bash
# The release archive (scripts/dist.sh) and the .deb (scripts/deb.sh) run where nothing is
# installed: unpacked (or installed with apt) into a minimal Debian root made with debootstrap (no
# Swift, no cmark-gfm, no Source-highlight, no fonts), `tagflow new site`, `build` and `check`
# work, and build the same bytes as the development build. The "Set up Tagflow" action's script
# installs the archive after checking its SHA-256, and refuses one that does not match.
#
#   Tests/Dist/dist_check.sh            needs root (for chroot), debootstrap and a Debian mirror
#   TAGFLOW=path/to/dev/tagflow         the development build to compare with (default .build/debug)
#   DEBIAN_MIRROR=http://…/debian       where debootstrap downloads from (default: deb.debian.org)
set -euo pipefail
cd "$(dirname "$0")/../.."

dev_tagflow="${TAGFLOW:-$PWD/.build/debug/tagflow}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
suite="${DEBIAN_SUITE:-bookworm}"
scratch="$PWD/.build-dist"

if [ "$(id -u)" -ne 0 ]; then
    echo "error: the release check runs the archive in a chroot, which needs root" >&2
    exit 1
fi
if ! command -v debootstrap >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

deb=$(scripts/deb.sh | tail -1)
version=$(scripts/version.sh)
archive="dist/tagflow-$version-linux-$(uname -m).tar.gz"
(cd dist && sha256sum --check --quiet "$(basename "$archive").sha256")

# A fresh minimal root each run, so nothing from an earlier run can help the archive.
root="$scratch/debian-root"
umount "$root/proc" 2>/dev/null || true
rm -rf "$root"
echo "Making a minimal Debian $suite root (debootstrap --variant=minbase)"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$scratch/debootstrap.log" 2>&1 ||
    { tail -20 "$scratch/debootstrap.log" >&2; exit 1; }

# A system has /proc: the loader finds $ORIGIN (where the binary's libcmark-gfm is) through it.
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# What the archive must bring itself.
bare_problem() { echo "error: the root has $1; it must be a bare system" >&2; exit 1; }
in_root sh -c 'command -v swift' >/dev/null && bare_problem swift
compgen -G "$root/usr/lib/*/libcmark-gfm*" >/dev/null && bare_problem cmark-gfm
compgen -G "$root/usr/lib/*/libsource-highlight*" >/dev/null && bare_problem Source-highlight
[ -e "$root/usr/share/source-highlight" ] && bare_problem "Source-highlight's definitions"
[ -e "$root/usr/share/fonts" ] && bare_problem fonts

mkdir -p "$root/opt" "$root/work"
tar -xzf "$archive" -C "$root/opt"
mv "$root/opt/$(basename "$archive" .tar.gz)" "$root/opt/tagflow"
# Through a link, as a user puts it on PATH: it must still find its share/ folder.
ln -s /opt/tagflow/bin/tagflow "$root/usr/local/bin/tagflow"
cp -R site-example "$root/work/site-example"

in_root sh -ec '
    cd /work
    tagflow --version
    tagflow new site blog
    tagflow build blog -o blog-out --quiet
    tagflow check blog
    tagflow build site-example -o example-out --quiet
    tagflow check site-example
'

# The .deb, installed as a user would, puts the same binary at /usr/bin/tagflow.
cp "$deb" "$root/tmp/"
in_root apt-get install -y -qq "/tmp/$(basename "$deb")" >/dev/null
in_root sh -ec 'cd /work && /usr/bin/tagflow build site-example -o example-out-deb --quiet'

# The same bytes as the development build, for the same sources.
compare="$scratch/compare"
rm -rf "$compare"
mkdir -p "$compare"
cp -R "$root/work/blog" "$compare/blog"
"$dev_tagflow" build "$compare/blog" -o "$compare/blog-out" --quiet --no-cache
"$dev_tagflow" build site-example -o "$compare/example-out" --quiet --no-cache
status=0
for output in blog-out example-out example-out-deb; do
    # The marker file records the build cache's digest when there is one; the pages must match.
    if ! diff -r -q -x .tagflow-output "$root/work/$output" "$compare/${output%-deb}"; then
        echo "error: the release binary's $output differs from the development build's (above)" >&2
        status=1
    fi
done
# Highlighting needs the definitions beside the binary: the example site's code must be coloured.
grep -rq 'class="tok-keyword"' "$root/work/example-out" || {
    echo "error: no highlighted code in the release binary's build of site-example" >&2
    status=1
}

# The action's installer: a release archive whose checksum matches is installed and runs; one
# that does not match stops it before anything is unpacked.
releases="$scratch/releases"
rm -rf "$releases" "$scratch/runner"
mkdir -p "$releases/v$version" "$scratch/runner/temp" "$scratch/runner/tools"
cp "$archive" "$archive.sha256" "$releases/v$version/"
setup() {
    env REQUESTED_VERSION="$version" TAGFLOW_RELEASES_URL="file://$releases" RUNNER_TEMP="$scratch/runner/temp" \
        RUNNER_TOOL_CACHE="$scratch/runner/tools" GITHUB_PATH="$scratch/runner/path" \
        GITHUB_OUTPUT="$scratch/runner/output" scripts/setup-tagflow.sh
}
setup >/dev/null
installed=$(sed -n 's/^tagflow=//p' "$scratch/runner/output")
grep -qx "from=release" "$scratch/runner/output" || { echo "error: the action did not install the release" >&2; status=1; }
"$installed" --version >/dev/null || { echo "error: the action's tagflow does not run" >&2; status=1; }
[ "$(cat "$scratch/runner/path")" = "$(dirname "$installed")" ] || { echo "error: the action did not add tagflow to PATH" >&2; status=1; }
echo "0000000000000000000000000000000000000000000000000000000000000000  $(basename "$archive")" \
    >"$releases/v$version/$(basename "$archive").sha256"
rm -rf "$scratch/runner/tools"
if setup >/dev/null 2>&1 || [ -e "$scratch/runner/tools/tagflow" ]; then
    echo "error: the action installed an archive whose SHA-256 does not match" >&2
    status=1
fi

[ $status -eq 0 ] && echo "The release archive and the .deb run on a bare $suite and build what the development build does."
exit $status
