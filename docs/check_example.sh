#!/bin/sh
# meson test (suite docs): run a tutorial program (C, Python or Rust) and
# compare its output with the .out file that tutorial.md shows.
# usage: check_example.sh EXPECTED PROGRAM [ARGS...]
set -u
want="$1"
shift
out=$("$@") || { echo "$* exited with status $?"; exit 1; }
if [ "$out" != "$(cat "$want")" ]; then
    echo "output of $* differs from $want:"
    printf '%s\n' "$out" | diff "$want" -
    exit 1
fi
