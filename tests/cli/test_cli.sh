#!/bin/bash
# CLI tests: run the built toggle tool and check its output and exit codes.
# usage: test_cli.sh /path/to/toggle
set -u
T="$1"
. "$(dirname "$0")/harness.sh"
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
expect_rc() { # name, exit status, expected substring of stdout+stderr, command...
    local name="$1" want_rc="$2" want="$3"; shift 3
    local out; out=$("$@" 2>&1); local rc=$?
    if [ $rc -eq "$want_rc" ] && grep -qF -- "$want" <<<"$out"; then ok; else bad "$name (rc $rc, want $want_rc): $out"; fi
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
# "no solution" is exit status 4 for every command, with the answer printed
expect_rc unsolvable 4 "solvable: no" "$T" solve --grid 2x2 --mod 3
expect_out json '"modulus":2,"engine":"chase","solvable":true' "$T" solve --grid 3x3 --json
expect_rc json-cert 4 '"certificate":[' "$T" solve --grid 2x2 --mod 3 --json
expect_rc render-unsolvable 4 "no all-off to all-on solution" "$T" render --grid 2x2 --mod 3 --out "$tmp/x.png"
expect_rc generate-none 4 "" "$T" generate --grid 4x4 --unique
# the exit-status table (docs/toggle.1 EXIT STATUS): usage 2 for every command
expect_rc unknown-cmd-2 2 "unknown command" "$T" frobnicate
for c in solve render sweep sweep-merge generate nullity rowops demo; do
    expect_rc "unknown-option-$c" 2 "toggle: " "$T" $c --bogus-option
done
expect_rc bad-value-2 2 "expected RxC" "$T" solve --grid 3
expect_rc bad-input-1 1 "cannot read" "$T" solve --system "$tmp/nope.txt"
expect_rc refused-value-1 1 "modulus" "$T" solve --grid 3x3 --mod 1
expect_rc budget-3 3 "budget" "$T" solve --grid 30x30 --torus --mod 3 --budget 1000
# --json follows --fewest, --all-solutions and the kernel options (docs/json.md)
expect_out json-fewest '"fewest":{"solution":[' "$T" solve --grid 5x5 --fewest --json
expect_out json-no-kernel '"kernel":null' "$T" solve --grid 4x4 --all --no-kernel --json
expect_out engine-list "transfer" "$T" solve --engine list
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
# The budget is checked before any work: a board far over it is refused at
# once (well under a second, measured below), naming the budget, the need
# and how to raise it; the same for nullity, render and generate.
expect_quick_refusal() { # name, command...
    local name="$1"; shift
    local t0 t1 err rc
    t0=$(date +%s%N)
    "$@" >/dev/null 2>"$tmp/err"; rc=$?
    t1=$(date +%s%N)
    err=$(cat "$tmp/err")
    local ms=$(( (t1 - t0) / 1000000 ))
    if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q "memory budget of [0-9]" <<<"$err" &&
       grep -qE "needs (at least|about) [0-9]+ bytes" <<<"$err" && grep -qF -- "--budget" <<<"$err" &&
       [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ $ms -lt 1000 ]; then ok
    else bad "$name (rc $rc, ${ms} ms): $err"; fi
}
expect_quick_refusal budget-solve-huge "$T" solve --grid 100000x100000
expect_quick_refusal budget-solve-huge-torus "$T" solve --grid 100000x100000 --torus --mod 3
expect_quick_refusal budget-nullity-huge "$T" nullity --grid 100000x100000 --torus
expect_quick_refusal budget-render-huge "$T" render --grid 100000x100000 --out "$tmp/huge.png"
expect_quick_refusal budget-generate-huge "$T" generate --grid 100000x100000
# over the library's estimate (the kernel at its bound) rather than the
# CLI's own arrays: refused by toggle_solve before it eliminates
expect_quick_refusal budget-library "$T" solve --grid 400x400 --mod 3 --engine "${TOGGLE_TEST_PRIME_ENGINE:-flint}" --budget 100000000
# (Moore without self: with self the nullity is the factors' ranks, O(R + C))
expect_quick_refusal budget-nullity-library "$T" nullity --grid 300x300 --moore --no-self --mod 3 --budget 10000000
# raising it with --budget works
expect_out budget-raised "nullity: 4" "$T" solve --grid 4x4 --budget 0
expect_fail budget-bad "expected a number of bytes" "$T" solve --grid 4x4 --budget lots
if [ ! -e "$tmp/huge.png" ]; then ok; else bad "render refused but left $tmp/huge.png"; fi
# Under an address-space limit FLINT's allocation fails for real: the CLI
# installs the FLINT guard, so it reports out of memory instead of aborting
# (skipped under ASan, whose shadow memory needs the address space).
if [ -z "${ASAN_OPTIONS:-}" ] && ! ldd "$T" 2>/dev/null | grep -q asan &&
   "$T" solve --grid 1x1 --engine flint >/dev/null 2>&1; then # (builds with FLINT)
    out=$( (ulimit -v 400000; "$T" solve --grid 100x100 --mod 3 --engine flint) 2>&1 )
    st=$?
    if [ $st -eq 3 ] && printf '%s' "$out" | grep -qi "out of memory"; then ok
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
# options that would be ignored are refused; a zero-sized board says why
expect_rc limit-alone 2 "limits --fewest or --all-solutions" "$T" solve --grid 5x5 --limit 3
expect_rc checkpoint-alone 2 "saves a --fewest search" "$T" solve --grid 5x5 --checkpoint "$tmp/ck-alone"
expect_rc grid-zero 2 "R and C at least 1" "$T" solve --grid 0x5
printf '# nothing\n\n' >"$tmp/empty-system.txt"
expect_fail system-empty "holds no equation" "$T" solve --system "$tmp/empty-system.txt"
printf '\xef\xbb\xbf11|1\n01|1\n' >"$tmp/bom-system.txt"
expect_out system-bom "solvable: yes" "$T" solve --system "$tmp/bom-system.txt"
expect_rc render-jpg-name 2 "render writes PNG or PPM" "$T" render --grid 3x3 --out "$tmp/x.jpg"
expect_out render-jpg-format "" "$T" render --grid 3x3 --out "$tmp/y.jpg" --format png
expect_out solve-help-budget "default 4 GiB" "$T" solve --help

finish cli
