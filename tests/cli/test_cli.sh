#!/bin/bash
# CLI tests: run the built toggle tool and check its output and exit codes.
# usage: test_cli.sh /path/to/toggle
set -u
T="$1"
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_out() { # name, expected substring, command...
    local name="$1" want="$2"; shift 2
    local out; out=$("$@" 2>&1); local rc=$?
    if [ $rc -eq 0 ] && grep -qF -- "$want" <<<"$out"; then ok; else bad "$name (rc $rc): $out"; fi
}
expect_fail() { # name, expected stderr substring, command...
    local name="$1" want="$2"; shift 2
    local out err rc
    out=$("$@" 2>"$tmp/err"); rc=$?
    err=$(cat "$tmp/err")
    local lines; lines=$(wc -l <"$tmp/err")
    if [ $rc -ne 0 ] && grep -qF -- "$want" <<<"$err" && [ "$lines" -eq 1 ]; then ok; else bad "$name (rc $rc, $lines lines): $err"; fi
}

expect_out demo-runs "The classic 5 x 5" "$T" demo
expect_out bare-runs-demo "libtoggle" "$T"
expect_out help "solve" "$T" --help
expect_out solve-help "--json" "$T" solve --help
expect_out version "libtoggle 1." "$T" --version
expect_out known-3x3-f3 "$(printf '020\n222\n020')" "$T" solve --grid 3x3 --mod 3
expect_out known-3x3-f5 "$(printf '414\n121\n414')" "$T" solve --grid 3x3 --mod 5
expect_out nullity-4x4 "nullity: 4" "$T" solve --grid 4x4
expect_out count-4x4 "solutions: 16" "$T" solve --grid 4x4 --all
expect_out kernel-4x4 "kernel 3:" "$T" solve --grid 4x4 --all
expect_out unsolvable "solvable: no" "$T" solve --grid 2x2 --mod 3
expect_out json '"solvable":true,"modulus":2' "$T" solve --grid 3x3 --json
expect_out json-cert '"certificate":[' "$T" solve --grid 2x2 --mod 3 --json
PE="${TOGGLE_TEST_PRIME_ENGINE:-flint}"
expect_out engine-$PE "\"engine\":\"$PE\"" "$T" solve --grid 5x5 --engine "$PE" --json
expect_out engine-dense '"engine":"dense"' "$T" solve --grid 5x5 --engine dense --json
printf '110000100000|1\n011000011000|1\n' >"$tmp/sys.txt"
expect_out system-file "solutions: 1024" "$T" solve --system "$tmp/sys.txt"
expect_out system-stdin "solutions: 1024" sh -c "\"$T\" solve --system - < \"$tmp/sys.txt\""
printf 'nodes 4\n0 1\n1 2\n2 3\n3 0\n' >"$tmp/cycle.txt"
expect_out graph "solvable: yes" "$T" solve --graph "$tmp/cycle.txt"
printf '101\n000\n000\n' >"$tmp/start.txt"
expect_out lights-out "solvable: yes" "$T" solve --grid 3x3 --start "$tmp/start.txt" --target zero
# JSON parses and the solution really solves the board (checked with python if present)
if [ -x /usr/bin/python3 ]; then
    "$T" solve --grid 6x7 --mod 5 --json >"$tmp/out.json"
    if /usr/bin/python3 - "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
R, C, k = 6, 7, 5
x = d["solution"]
for r in range(R):
    for c in range(C):
        s = 0
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < R and 0 <= cc < C:
                s += x[rr * C + cc]
        assert s % k == 1, (r, c)
assert d["count"] == str(k ** d["nullity"])
PY
    then ok; else bad "json solution does not solve the board"; fi
fi
expect_fail bad-shape "expected RxC" "$T" solve --grid 3
expect_fail bad-mod "modulus" "$T" solve --grid 3x3 --mod 1
expect_fail missing-file "cannot read" "$T" solve --system "$tmp/nope.txt"
printf '101|1\n10|1\n' >"$tmp/ragged.txt"
expect_fail ragged "line 2 has 2 entries, expected 3" "$T" solve --system "$tmp/ragged.txt"
expect_fail unknown-arg "unknown argument" "$T" solve --grid 3x3 --bogus
expect_fail unknown-cmd "unknown command" "$T" frobnicate
expect_fail bad-engine "unknown engine" "$T" solve --grid 3x3 --engine warp
expect_fail two-sources "exactly one" "$T" solve --grid 3x3 --system x
printf '11\n11\n' >"$tmp/small.txt"
expect_fail board-shape "the board is 2x2" "$T" solve --grid 3x3 --start "$tmp/small.txt"
expect_fail budget "budget" "$T" solve --grid 30x30 --torus --mod 3 --budget 1000
# Under an address-space limit FLINT's allocation fails for real: the CLI
# installs the FLINT guard, so it reports out of memory instead of aborting
# (skipped under ASan, whose shadow memory needs the address space).
if [ -z "${ASAN_OPTIONS:-}" ] && ! ldd "$T" 2>/dev/null | grep -q asan &&
   "$T" solve --grid 1x1 --engine flint >/dev/null 2>&1; then # (builds with FLINT)
    out=$( (ulimit -v 400000; "$T" solve --grid 100x100 --mod 3 --engine flint) 2>&1 )
    st=$?
    if [ $st -ne 0 ] && [ $st -lt 128 ] && printf '%s' "$out" | grep -qi "out of memory"; then ok
    else bad "flint under ulimit -v: exit $st: $out"; fi
fi
printf '1 1 1\n1 x 1\n1 1 1\n' >"$tmp/cost-center.txt"
expect_out cost-forbidden "no solution with these cells" "$T" solve --grid 3x3 --fewest --cost "$tmp/cost-center.txt"
printf '1 1 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1\n' >"$tmp/cost-ones.txt"
expect_out cost-unit "fewest cells: 4 (proven optimal" "$T" solve --grid 4x4 --fewest --cost "$tmp/cost-ones.txt" --threads 2
printf '1 1\n1 1\n' >"$tmp/cost-small.txt"
expect_fail cost-shape "one cost per cell" "$T" solve --grid 4x4 --fewest --cost "$tmp/cost-small.txt"
# --checkpoint: stopped by --limit, the same command continues to the proven answer
expect_out checkpoint-stop "checkpoint: $tmp/ck39" "$T" solve --grid 39x39 --fewest --limit 67108864 --checkpoint "$tmp/ck39"
expect_out checkpoint-resume "fewest cells: 561 (proven optimal" "$T" solve --grid 39x39 --fewest --threads 2 --checkpoint "$tmp/ck39"
printf 'junk' >"$tmp/ck-bad"
expect_fail checkpoint-bad "not a fewest-press checkpoint" "$T" solve --grid 39x39 --fewest --checkpoint "$tmp/ck-bad"

echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
