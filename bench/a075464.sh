#!/bin/sh
# A075464 (fewest presses from all off to all on on the n x n classic board,
# over F_2) as this machine computes it: one `toggle solve --grid NxN
# --fewest --threads T` per n, each proven (the search is exhaustive up to
# nullity 44), with its wall and CPU time. Prints a Markdown table.
#
#     bench/a075464.sh [TOGGLE] [FIRST] [LAST] [THREADS]
#
# defaults: build/tools/toggle, 1, 78, 2. Runs under nice -n 10.
# docs/solution-spaces.md has the table it printed.
set -eu
toggle=${1:-build/tools/toggle}
first=${2:-1}
last=${3:-78}
threads=${4:-2}
echo "| n | d | fewest | proven | wall (s) | CPU (s) | load |"
echo "|---|---|--------|--------|----------|---------|------|"
n=$first
while [ "$n" -le "$last" ]; do
    out=$(mktemp)
    load=$(cut -d' ' -f1 /proc/loadavg)
    t=$( { /usr/bin/time -f "%e %U" nice -n 10 "$toggle" solve --grid "${n}x${n}" --fewest \
             --threads "$threads" >"$out"; } 2>&1 | tail -n 1)
    d=$(sed -n 's/^nullity: //p' "$out")
    line=$(grep '^fewest cells:' "$out" || true)
    w=$(echo "$line" | sed 's/^fewest cells: \([0-9]*\).*/\1/')
    case "$line" in *"proven optimal"*) p=yes ;; *) p=no ;; esac
    echo "| $n | $d | $w | $p | ${t% *} | ${t#* } | $load |"
    rm -f "$out"
    n=$((n + 1))
done
