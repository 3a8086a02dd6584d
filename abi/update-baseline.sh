#!/bin/sh
# Regenerate abi/libtoggle.abi (and abi/constants.txt), the committed ABI
# baseline that tests/abi checks every build against. Run it from anywhere,
# once, when a release's API is final:
#
#     abi/update-baseline.sh            # configures ./build-abi-baseline if needed
#     abi/update-baseline.sh BUILD_DIR  # or use an existing build directory
#
# then review `git diff abi/` and commit it. Needs abigail-tools (abidw).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-abi-baseline}
command -v abidw >/dev/null || { echo "abidw not found: apt-get install abigail-tools" >&2; exit 1; }
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" -Dtests=false -Dbench=disabled
ninja -C "$build" >/dev/null || ninja -C "$build"
lib=$(ls "$build"/lib/libtoggle.so.1.*.* | head -n 1)
"$root/tests/abi/abidw.sh" "$lib" "$root/include" >"$root/abi/libtoggle.abi"
python3 "$root/tests/abi/check_constants.py" --write "$root/abi/constants.txt" \
    "$root/include" "${CC:-cc}"
echo "wrote $root/abi/libtoggle.abi ($(grep -c '<elf-symbol' "$root/abi/libtoggle.abi") symbols)"
echo "wrote $root/abi/constants.txt ($(wc -l <"$root/abi/constants.txt") constants)"
