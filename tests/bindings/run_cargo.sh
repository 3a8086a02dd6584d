#!/bin/sh
# Run `cargo test --offline` on the Rust bindings against this build's library.
# usage: run_cargo.sh MANIFEST LIB_DIR TARGET_DIR
#        run_cargo.sh --pkgconfig MANIFEST BUILD_DIR TARGET_DIR
# exit 77 (skipped) without cargo (or, for --pkgconfig, without pkg-config).
#
# --pkgconfig: the pkg-config route, as a user with libtoggle installed in a
# non-system prefix builds the crates: install BUILD_DIR into a temporary
# DESTDIR, point pkg-config at it, leave TOGGLE_LIB_DIR and LD_LIBRARY_PATH
# unset, and run the tests of both crates; the test binaries must load the
# installed libtoggle.so.1 through the rpath the build scripts emit.
set -eu
pkgconfig=0
if [ "$1" = --pkgconfig ]; then
    pkgconfig=1
    shift
fi
manifest=$1 libdir=$2 target=$3
cargo=$(command -v cargo || true)
for c in "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" /root/.cargo/bin/cargo; do
    [ -n "$cargo" ] && break
    [ -x "$c" ] && cargo=$c
done
if [ -z "$cargo" ]; then
    echo "SKIP: cargo not found (Debian: apt-get install cargo)"
    exit 77
fi
"$cargo" --version
export CARGO_TARGET_DIR="$target"
# No LD_LIBRARY_PATH: the test binaries must find the library by their rpath.
unset LD_LIBRARY_PATH TOGGLE_NO_RPATH

if [ $pkgconfig = 0 ]; then
    export TOGGLE_LIB_DIR="$libdir"
    "$cargo" test --offline --locked --manifest-path "$manifest"
    # The API docs build without a warning: every public item of the safe crate
    # is documented (#![warn(missing_docs)]) and every intra-doc link resolves.
    RUSTDOCFLAGS="-D warnings" "$cargo" doc --offline --locked --no-deps --manifest-path "$manifest"
    # The docs example, run as docs/rust.md tells a user to.
    "$cargo" run --offline --locked --manifest-path "$manifest" --example rust_example
    exit 0
fi

if ! command -v pkg-config >/dev/null; then
    echo "SKIP: pkg-config not found"
    exit 77
fi
build=$libdir
unset TOGGLE_LIB_DIR
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toggle-rust-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../common/install_destdir.sh"
install_destdir "$build" "$tmp"
libdir=$(pkg-config --libs-only-L libtoggle | sed 's/^ *-L//; s/ *$//')
echo "pkg-config: $(pkg-config --libs libtoggle)"
case "$libdir" in
    "$tmp/root"/*) ;;
    *) echo "pkg-config's -L does not point into the install: '$libdir'"; exit 1 ;;
esac
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
