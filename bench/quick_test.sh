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
# --interleave on two small groups: every row ran, and each group's
# baseline row reads 1x (its time over itself in every round).
"$bench" --interleave --filter gf2/dense/1024 --filter grid/topo/f2/200/ --reps 3 \
    --json "$tmp/turns.json" > "$tmp/turns.txt" || rc=1
grep -q "^# interleaved" "$tmp/turns.txt" || rc=1
grep -q "^grid/topo/f2/200 .* 1x .* 1x$" "$tmp/turns.txt" || rc=1
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 "$plot" "$tmp/quick.json" --check || rc=1
    /usr/bin/python3 "$plot" "$tmp/turns.json" --check || rc=1
fi
exit $rc
