#!/bin/sh
# Configure, build and test the consumer project in tests/consumers/subproject
# with this source tree as its subprojects/libtoggle (a symlink), forcing the
# fallback even if a libtoggle is installed.
# usage: test_subproject.sh SOURCE_ROOT CONSUMER_DIR CONSUMER_C
set -eu
root=$1 consumer=$2 program=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toggle-subproject.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp -R "$consumer" "$tmp/proj"
cp "$program" "$tmp/proj/consumer.c"
mkdir -p "$tmp/proj/subprojects"
ln -s "$root" "$tmp/proj/subprojects/libtoggle"
# buildtype=plain (-O0 in the library's eyes): this checks the wiring, not speed.
meson setup "$tmp/build" "$tmp/proj" --force-fallback-for=libtoggle -Dbuildtype=plain \
    >"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log"; exit 1; }
grep -E "Dependency libtoggle|Subproject libtoggle" "$tmp/setup.log" || true
ninja -C "$tmp/build" -j2 >"$tmp/build.log" 2>&1 || { tail -n 50 "$tmp/build.log"; exit 1; }
meson test -C "$tmp/build" --no-rebuild --print-errorlogs
"$tmp/build/consumer"
