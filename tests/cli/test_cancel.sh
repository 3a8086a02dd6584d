#!/bin/bash
# Ctrl-C cancels a long solve: SIGINT, sent once the first progress line is
# on stderr, reaches the library through the progress callback; the tool
# frees everything and exits with status 130 and one line saying so
# (docs/toggle.1 EXIT STATUS). With VALGRIND set (a valgrind binary), the
# same runs under valgrind --leak-check=full: no leak, no invalid access.
# usage: test_cancel.sh /path/to/toggle [valgrind]
set -u
T="$1"
VG="${2:-}"
. "$(dirname "$0")/harness.sh"

# name, then the command after the binary; the run is interrupted after the
# first "toggle: progress" line (--progress writes one per percent off a terminal)
interrupt() {
    local name="$1"; shift
    local pre=()
    [ -n "$VG" ] && pre=("$VG" --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
                          --error-exitcode=9 -q)
    # empty the files first: the loop below must not see the last case's
    # progress line and signal this one before it has installed its handler
    # (a background job of a script starts with SIGINT ignored: that signal
    # would be lost and the command run to its end)
    : >"$tmp/out"
    : >"$tmp/err"
    "${pre[@]}" "$T" "$@" >"$tmp/out" 2>"$tmp/err" &
    local pid=$! waited=0
    until grep -q "toggle: progress" "$tmp/err" 2>/dev/null; do
        if ! kill -0 $pid 2>/dev/null || [ $waited -ge 3000 ]; then break; fi
        sleep 0.1; waited=$((waited + 1))
    done
    kill -INT $pid 2>/dev/null
    wait $pid
    local rc=$?
    local msg; msg=$(grep -v "toggle: progress" "$tmp/err")
    if [ $rc -eq 130 ] && grep -q "interrupted (SIGINT)" <<<"$msg" && [ "$(wc -l <<<"$msg")" -eq 1 ] &&
       [ ! -s "$tmp/out" ]; then
        ok
    else
        bad "$name: exit $rc, stderr: $(head -c 2000 "$tmp/err"), stdout $(wc -c <"$tmp/out") bytes"
    fi
}

# a 25600-unknown torus on the bit-packed engine: seconds of elimination
# natively, minutes under valgrind; the cancel comes within one pivot block
interrupt gf2-torus solve --grid 160x160 --torus --engine gf2 --progress --threads 1
if [ -z "$VG" ]; then
    # the threaded elimination (its pool is joined and freed) and JSON output
    interrupt gf2-threads solve --grid 160x160 --torus --engine gf2 --progress --threads 2 --json
    # a fewest-press search made from the solution keeps the callback: over
    # F_3 the walk reports every 65536 solutions (of 3^19 here). (The F_2
    # search reports only at its start: Ctrl-C stops it at its end, or a
    # second Ctrl-C at once.)
    "$T" generate --grid 38x38 --mod 3 >"$tmp/b38.txt"
    interrupt fewest solve --grid 38x38 --mod 3 --start "$tmp/b38.txt" --target zero --fewest \
        --progress --threads 1
    # render --grid solves first: the same cancel (checked when the chase
    # reports or ends)
    interrupt render render --grid 3000x3000 --mod 5 --progress --out "$tmp/x.png"
    [ -e "$tmp/x.png" ] && bad "render: an interrupted render wrote its file"
fi
finish "cli-cancel${VG:+ (valgrind)}"
