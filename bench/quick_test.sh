#!/bin/sh
# meson test (suite bench): the --quick smoke run, its JSON checked by plot.py.
# usage: quick_test.sh /path/to/toggle-bench /path/to/plot.py
set -u
bench="$1"
plot="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" --quick --json "$tmp/quick.json"
rc=$?
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 "$plot" "$tmp/quick.json" --check || rc=1
fi
exit $rc
