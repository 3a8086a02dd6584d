#!/bin/sh
# The Rust crates through the pkg-config route, as a user with libtoggle
# installed in a non-system prefix builds them: install this build into a
# temporary DESTDIR, point pkg-config at it (PKG_CONFIG_SYSROOT_DIR maps the
# .pc file's prefix into the DESTDIR), leave TOGGLE_LIB_DIR and
# LD_LIBRARY_PATH unset, and run cargo test. The test binaries must load the
# installed libtoggle.so.1 through the rpath the build scripts emit.
# usage: run_cargo_pkgconfig.sh MANIFEST BUILD_DIR TARGET_DIR; exit 77 (skipped)
# without cargo or pkg-config.
set -eu
manifest=$1 build=$2 target=$3
cargo=$(command -v cargo || true)
for c in "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" /root/.cargo/bin/cargo; do
    [ -n "$cargo" ] && break
    [ -x "$c" ] && cargo=$c
done
if [ -z "$cargo" ]; then
    echo "SKIP: cargo not found (Debian: apt-get install cargo)"
    exit 77
fi
if ! command -v pkg-config >/dev/null; then
    echo "SKIP: pkg-config not found"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toggle-rust-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Not --no-rebuild: the test runs alone (is_parallel: false).
meson install -C "$build" --quiet --destdir "$tmp/root" >"$tmp/install.log" 2>&1 \
    || { cat "$tmp/install.log"; exit 1; }
pc=$(find "$tmp/root" -name libtoggle.pc | head -n 1)
[ -n "$pc" ] || { echo "libtoggle.pc was not installed"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_LIBDIR=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR="$tmp/root"
export PKG_CONFIG_PATH PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
libdir=$(pkg-config --libs-only-L libtoggle | sed 's/^ *-L//; s/ *$//')
echo "pkg-config: $(pkg-config --libs libtoggle)"
case "$libdir" in
    "$tmp/root"/*) ;;
    *) echo "pkg-config's -L does not point into the install: '$libdir'"; exit 1 ;;
esac
unset TOGGLE_LIB_DIR LD_LIBRARY_PATH TOGGLE_NO_RPATH
export CARGO_TARGET_DIR="$target"
"$cargo" --version
# the -sys crate's own tests (its build script's rpath) and the safe crate's
# (the rpath passed on through DEP_TOGGLE_LIB_DIR)
"$cargo" test --offline --locked --manifest-path "$manifest" -p toggle-sys
"$cargo" test --offline --locked --manifest-path "$manifest" -p toggle --test api --test steps

# They ran against the installed copy: each test binary's RUNPATH is the
# installed directory and the loader resolves libtoggle.so.1 there.
checked=0
for bin in "$target"/debug/deps/toggle_sys-* "$target"/debug/deps/api-* "$target"/debug/deps/steps-*; do
    [ -x "$bin" ] && [ -f "$bin" ] || continue
    case "$bin" in *.d) continue ;; esac
    readelf -d "$bin" | grep -E "RUNPATH|RPATH" | grep -qF "$libdir" \
        || { echo "$bin: no rpath $libdir"; readelf -d "$bin" | grep -E "RUNPATH|RPATH"; exit 1; }
    ldd "$bin" | grep -F "libtoggle.so.1 => $libdir/libtoggle.so.1" >/dev/null \
        || { echo "$bin does not load the installed library:"; ldd "$bin"; exit 1; }
    checked=$((checked + 1))
done
[ "$checked" -ge 3 ] || { echo "only $checked test binaries checked"; exit 1; }
echo "ok: $checked test binaries load $libdir/libtoggle.so.1 by their rpath"
