#!/bin/sh
# Run `cargo test --offline` on the Rust bindings against this build's library.
# usage: run_cargo.sh MANIFEST LIB_DIR TARGET_DIR; exit 77 (skipped) without cargo.
set -eu
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
export TOGGLE_LIB_DIR="$libdir" CARGO_TARGET_DIR="$target"
# No LD_LIBRARY_PATH: the test binaries must find the library by their rpath.
unset LD_LIBRARY_PATH
"$cargo" test --offline --locked --manifest-path "$manifest"
# The API docs build without a warning: every public item of the safe crate
# is documented (#![warn(missing_docs)]) and every intra-doc link resolves.
RUSTDOCFLAGS="-D warnings" "$cargo" doc --offline --locked --no-deps --manifest-path "$manifest"
# The docs example, run as docs/rust.md tells a user to.
"$cargo" run --offline --locked --manifest-path "$manifest" --example rust_example
