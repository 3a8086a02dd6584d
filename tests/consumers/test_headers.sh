#!/bin/sh
# The public headers as a consumer sees them (TOGGLE_BUILDING unset, so
# TOGGLE_API expands to nothing): the umbrella header and each header alone,
# as C99 and C11 with -pedantic -Wall -Wextra -Werror, and as C++98 and C++17.
# usage: test_headers.sh INCLUDE_DIR CC CXX
set -eu
inc=$1 cc=$2 cxx=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toggle-headers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
warn="-pedantic -Wall -Wextra -Werror"
fail=0
headers="toggle.h"
for h in "$inc"/toggle/*.h; do
    headers="$headers toggle/$(basename "$h")"
done
for h in $headers; do
    # Included twice: the include guard must hold.
    printf '#include <%s>\n#include <%s>\nint main(void) { return 0; }\n' "$h" "$h" >"$tmp/t.c"
    for std in c99 c11; do
        # shellcheck disable=SC2086
        if ! "$cc" -std=$std $warn -Wstrict-prototypes -Wmissing-prototypes -I"$inc" -c "$tmp/t.c" -o "$tmp/t.o"; then
            echo "FAIL: $h as $std"; fail=1
        fi
    done
    if [ -n "$cxx" ]; then
        cp "$tmp/t.c" "$tmp/t.cpp"
        for std in c++98 c++17; do
            # shellcheck disable=SC2086
            if ! "$cxx" -std=$std $warn -I"$inc" -c "$tmp/t.cpp" -o "$tmp/t.o"; then
                echo "FAIL: $h as $std"; fail=1
            fi
        done
    fi
done
# The umbrella header links as C++ too: extern "C" must wrap every declaration.
if [ -n "$cxx" ]; then
    printf '#include <toggle.h>\nint main() { return toggle_version_number() == 0; }\n' >"$tmp/u.cpp"
    "$cxx" -std=c++17 $warn -I"$inc" -c "$tmp/u.cpp" -o "$tmp/u.o"
    if nm "$tmp/u.o" | grep -q "_Z.*toggle_"; then
        echo "FAIL: C++ mangled a libtoggle name (missing extern \"C\")"; fail=1
    fi
else
    echo "note: no C++ compiler given; C++ checks skipped"
fi
[ $fail -eq 0 ] && echo "ok: $(echo $headers | wc -w) headers"
exit $fail
