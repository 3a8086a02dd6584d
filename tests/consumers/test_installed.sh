#!/bin/sh
# Install this build into a temporary DESTDIR, then build and run an external
# C program with nothing but pkg-config's flags for libtoggle.
# usage: test_installed.sh BUILD_DIR CONSUMER_C CC
set -eu
build=$1 src=$2 cc=${3:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toggle-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/../common/install_destdir.sh"
install_destdir "$build" "$tmp"
cflags=$(pkg-config --cflags libtoggle)
libs=$(pkg-config --libs libtoggle)
echo "pkg-config --cflags --libs: $cflags $libs"
case "$cflags $libs" in
    *"$tmp/root"*) ;;
    *) echo "pkg-config flags do not point into the install"; exit 1 ;;
esac
libdir=$(pkg-config --libs-only-L libtoggle | sed 's/^ *-L//; s/ *$//')

# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp/consumer" "$src" $cflags $libs
LD_LIBRARY_PATH="$libdir" "$tmp/consumer"
# It ran against the installed copy, not the build tree.
LD_LIBRARY_PATH="$libdir" ldd "$tmp/consumer" | grep -F "$libdir/libtoggle.so.1"

# --static: Libs.private adds FLINT, GMP and libm. The result still links the
# shared libtoggle (only it is installed), so this checks that the private
# libraries resolve. A fully static binary needs libflint.a, which Debian does
# not ship (docs/c.md).
slibs=$(pkg-config --static --libs libtoggle)
echo "pkg-config --static --libs: $slibs"
# shellcheck disable=SC2086
"$cc" -std=c11 -o "$tmp/consumer-static-flags" "$src" $cflags $slibs
LD_LIBRARY_PATH="$libdir" "$tmp/consumer-static-flags" >/dev/null
flinta=$("$cc" -print-file-name=libflint.a)
if [ -f "$flinta" ]; then
    echo "libflint.a found at $flinta (a static libtoggle.a is not installed by default)"
else
    echo "note: no libflint.a on this system; fully static linking is not possible"
fi
echo "ok"
