#!/bin/sh
# meson test (suite docs): build the tutorial's Rust programs against this
# build's libtoggle (cargo, offline: the bindings use no registry crates) and
# check that each prints its .out file, like the C and Python versions.
# usage: check_rust.sh LIBDIR TARGET_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
libdir="$1"
target="$2"
TOGGLE_LIB_DIR="$libdir" cargo build --offline --quiet --examples \
    --manifest-path "$here/examples/rust/Cargo.toml" --target-dir "$target" || exit 1
fail=0
for ex in classic pattern chaos graph; do
    LD_LIBRARY_PATH="$libdir" "$here/check_example.sh" "$here/examples/$ex.out" \
        "$target/debug/examples/$ex" || fail=1
done
exit $fail
