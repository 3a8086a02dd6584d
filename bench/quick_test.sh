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
# --cpus: the workloads run on the first CPU this process may use, the
# header line says so, and a malformed or absent CPU is a usage error (2).
cpu=$(awk '/^Cpus_allowed_list/ {split($2, r, "[-,]"); print r[1]}' /proc/self/status)
"$bench" --cpus "${cpu:-0}" --filter gf2/dense/1024/toggle --reps 1 > "$tmp/pin.txt" || rc=1
grep -q "^# cpus ${cpu:-0} (--cpus), vector probe .* cpu${cpu:-0} 1.00$" "$tmp/pin.txt" || rc=1
grep -q "^gf2/dense/1024 " "$tmp/pin.txt" || rc=1
for bad in 1x -1 3-2 "" 99999; do
    "$bench" --cpus "$bad" --filter gf2/dense/1024 > /dev/null 2>&1
    [ $? -eq 2 ] || { echo "--cpus '$bad' did not exit 2"; rc=1; }
done
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 "$plot" "$tmp/quick.json" --check || rc=1
    /usr/bin/python3 "$plot" "$tmp/turns.json" --check || rc=1
fi
exit $rc
