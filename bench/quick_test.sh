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
# (the CPUs the bench itself may use: its header line, "# cpus 0-1 (...")
cpus=$("$bench" --filter no-such-workload | awk '/^# cpus / {print $3}')
cpu=$(echo "$cpus" | awk '{split($1, r, "[-,]"); print r[1]}')
"$bench" --cpus "${cpu:-0}" --filter gf2/dense/1024/toggle --reps 1 > "$tmp/pin.txt" || rc=1
grep -q "^# cpus ${cpu:-0} (--cpus), vector probe .* cpu${cpu:-0} 1.00$" "$tmp/pin.txt" || rc=1
grep -q "^gf2/dense/1024 " "$tmp/pin.txt" || rc=1
for bad in 1x -1 3-2 "" 99999 1, " 1" 1,,2; do
    "$bench" --cpus "$bad" --filter gf2/dense/1024 > /dev/null 2>&1
    [ $? -eq 2 ] || { echo "--cpus '$bad' did not exit 2"; rc=1; }
done
# a thread-scaling group's baseline row runs on the fastest allowed CPU
# (bench_scaling): said on stderr when the process may use two or more
ncpu=$(echo "$cpus" | tr ',' '\n' | awk -F- '{n += ($2 == "" ? 1 : $2 - $1 + 1)} END {print n + 0}')
"$bench" --filter gf2/threads/compute --reps 1 > "$tmp/scale.txt" 2> "$tmp/scale.err" || rc=1
if [ "${ncpu:-1}" -ge 2 ]; then
    grep -q "gf2/threads/compute/spin-t1: the baseline of a thread-scaling group, on cpu" \
        "$tmp/scale.err" || { echo "spin-t1 was not pinned"; rc=1; }
fi
grep -q "spin-t2: the baseline" "$tmp/scale.err" && { echo "spin-t2 was pinned"; rc=1; }
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 "$plot" "$tmp/quick.json" --check || rc=1
    /usr/bin/python3 "$plot" "$tmp/turns.json" --check || rc=1
fi
exit $rc
