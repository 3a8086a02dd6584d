#!/bin/bash
# The CLI under a failing malloc (docs/reliability.md, "Failing malloc").
# usage: test_cli_failmalloc.sh /path/to/toggle /path/to/libfailmalloc.so
#
# Each command runs with tests/reliability/failmalloc.c preloaded and its
# n-th allocation failing (every allocation of the process: the CLI's, the
# library's, FLINT's, GMP's, libpng's, zlib's, libc's), n = 1, 2, ... until
# a run completes without reaching n; with the guard (the CLI installs it)
# and without it (FAILMALLOC_NOGUARD=1 makes toggle_flint_guard_install a
# no-op). Every run must end in one of:
#   - exit 0 with the output of the unfailed run (files included);
#   - exit status 1..125 with a one-line message "toggle...: ..." on stderr
#     naming the memory (or, for an allocation libc makes for stdio, a
#     failed write);
#   - without the guard only: FLINT's or GMP's documented abort (SIGABRT
#     after "Exception (FLINT memory_manager). Unable to allocate memory" or
#     "GNU MP: Cannot allocate memory").
#   - in a build with AddressSanitizer only: the sanitizer's CHECK failure
#     when its start-up of a new thread (the sweep's) cannot allocate the
#     stack bounds glibc returns (pthread_getattr_np): the sanitizer's
#     allocation, not the program's.
# No signal otherwise. And no leak: every run that exits (not FLINT's abort)
# writes the allocation indices of the blocks still live at exit
# (FAILMALLOC_LIVE); the unfailed run's are what libc keeps on purpose
# (glibc never frees stdout's buffer; the CLI frees everything else, FLINT's
# caches included). A run failing allocation n may keep, of the blocks
# allocated before n (the same allocations as the unfailed run's: one
# thread, --threads 1), only those the unfailed run keeps, and no more blocks
# allocated after n than the unfailed run keeps from n on. Commands with more than FAILMALLOC_MAX (default 40)
# allocations are swept on the first and last 25 and a random sample (seed
# printed; FAILMALLOC_SEED reproduces it).
set -u
T=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SHIM=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
max=${FAILMALLOC_MAX:-40}
seed=${FAILMALLOC_SEED:-$(( $(date +%s) % 100000 ))}
echo "# FAILMALLOC_SEED=$seed (sample above $max allocations)"
RANDOM=$seed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# In a build with gcc's AddressSanitizer the shim is preloaded ahead of
# libasan (it forwards to it: failmalloc.c), which ASan accepts when told.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
fail=0
total_sites=0
total_runs=0

# run_cmd DIR NTH NOGUARD CMD...: runs CMD in DIR (fresh), output in DIR/.out,
# DIR/.err; returns its exit status. NTH=0: no failure (counts allocations).
run_cmd() {
    local dir="$1" nth="$2" noguard="$3"
    shift 3
    rm -rf "$dir" "$dir.live"
    mkdir -p "$dir"
    # (the outer redirection keeps bash's "Aborted" notices out of the log)
    { (cd "$dir" && LD_PRELOAD="$SHIM" FAILMALLOC_NTH="$nth" FAILMALLOC_HIT="$dir.hit" \
        FAILMALLOC_COUNT="$dir.count" FAILMALLOC_LIVE="$dir.live" FAILMALLOC_NOGUARD="$noguard" exec "$@" \
        > "$dir.out" 2> "$dir.err"); } 2> /dev/null
}

# digest of a run: stdout and every file it wrote
digest() {
    local dir="$1"
    # (the JSON "timing" key differs from run to run)
    { sed -E 's/,"timing":\{[^}]*\}//g' "$dir.out"; (cd "$dir" && find . -type f | sort | xargs -r md5sum); } | md5sum
}

# leaked N: empty when the run that failed allocation N (0: none) keeps no
# more than the unfailed run ($tmp/ref.live), else what it kept
leaked() {
    local n="$1" d="$tmp/run"
    [ -e "$d.live" ] || return 0
    awk -v n="$n" 'FILENAME == ARGV[1] { ref[$1] = 1; if (n == 0 || $1 + 0 >= n) after++; next }
        n == 0 || $1 + 0 < n { if (!($1 in ref)) extra = extra " " $1; next }
        { mine++ }
        END { if (extra != "") print "blocks" extra " (allocated before the failure) live at exit";
              else if (mine > after) print mine " blocks allocated after the failure live at exit, the unfailed run keeps " after + 0 }' \
        "$tmp/ref.live" "$d.live"
}

sweep() { # name, command...
    local name="$1"
    shift
    local ref="$tmp/ref"
    rm -f "$ref.hit" "$ref.count"
    if ! run_cmd "$ref" 999999999 0 "$@"; then
        echo "FAIL $name: the unfailed run failed: $(cat "$ref.err")"
        fail=1
        return
    fi
    local calls
    calls=$(cat "$ref.count" 2>/dev/null || echo 0)
    touch "$ref.live"
    if [ "$calls" -eq 0 ]; then
        echo "FAIL $name: no allocation counted (the shim is not in effect)"
        fail=1
        return
    fi
    local want
    want=$(digest "$ref")
    local idx
    if [ "$calls" -le "$max" ]; then
        idx=$(seq 1 $((calls + 1)))
    else
        idx=$( { seq 1 25; seq $((calls - 24)) $((calls + 1));
                 for _ in $(seq 1 $((max - 50))); do
                     echo $(( 26 + (RANDOM * 32768 + RANDOM) % (calls - 50) ))
                 done; } | sort -n | uniq)
    fi
    total_sites=$((total_sites + calls))
    for noguard in 0 1; do
        local runs=0 nomem=0 done_ok=0 aborts=0 known=0 sanrt=0 bad=0 first=""
        for n in $idx; do
            local d="$tmp/run"
            rm -f "$d.hit"
            run_cmd "$d" "$n" "$noguard" "$@"
            local st=$?
            runs=$((runs + 1))
            local err leak
            err=$(cat "$d.err")
            leak=$(leaked "$([ -e "$d.hit" ] && echo "$n" || echo 0)")
            if [ -n "$leak" ]; then
                bad=$((bad + 1)); [ -z "$first" ] && first="n=$n: exit $st, leak: $leak"
                continue
            fi
            if [ ! -e "$d.hit" ]; then
                # completed without reaching n
                if [ $st -ne 0 ] || [ "$(digest "$d")" != "$want" ]; then
                    bad=$((bad + 1)); [ -z "$first" ] && first="n=$n (no failure): exit $st: $err"
                else done_ok=$((done_ok + 1)); fi
            elif [ $st -eq 0 ]; then
                if [ "$(digest "$d")" != "$want" ]; then
                    bad=$((bad + 1)); [ -z "$first" ] && first="n=$n: exit 0 with another output"
                else done_ok=$((done_ok + 1)); fi
            elif [ $st -lt 126 ]; then
                local lines
                lines=$(wc -l < "$d.err")
                if [ "$lines" -ge 1 ] && [ "$lines" -le 2 ] && grep -q '^toggle' "$d.err" &&
                   grep -qi 'memory' "$d.err"; then
                    nomem=$((nomem + 1))
                elif [ -n "${KNOWN:-}" ] && [ "$lines" -eq 1 ] && grep -qE "$KNOWN" "$d.err"; then
                    known=$((known + 1))
                else
                    bad=$((bad + 1)); [ -z "$first" ] && first="n=$n: exit $st, stderr: $err"
                fi
            elif [ "$noguard" = 1 ] && [ $st -eq 134 ] &&
                 grep -qE 'Exception \(FLINT memory_manager\)\. Unable to allocate memory|GNU MP: Cannot allocate memory' \
                     "$d.out" "$d.err"; then
                aborts=$((aborts + 1))
            elif [ $st -eq 134 ] &&
                 grep -q 'AddressSanitizer: CHECK failed: .*pthread_getattr_np' "$d.err"; then
                # (ASan build) the sanitizer's own start-up of a new thread
                # asks glibc for the stack bounds, whose allocation failed
                sanrt=$((sanrt + 1))
            else
                bad=$((bad + 1)); [ -z "$first" ] && first="n=$n: exit $st (signal), stderr: $err"
            fi
        done
        total_runs=$((total_runs + runs))
        printf '%-44s %s %4d allocations, %4d runs: %4d error exits, %4d completed, %3d FLINT/GMP aborts%s%s\n' \
            "$name" "$([ $noguard = 1 ] && echo 'no guard' || echo 'guard   ')" "$calls" "$runs" \
            "$nomem" "$done_ok" "$aborts" \
            "$([ $known -gt 0 ] && echo ", $known exits with the known wrong cause")$([ $sanrt -gt 0 ] &&
                echo ", $sanrt sanitizer start-up aborts")" \
            "$([ $bad -gt 0 ] && echo "  FAIL $bad: $first")"
        [ $bad -gt 0 ] && fail=1
    done
}

sweep "solve --grid 5x5 --mod 3" "$T" solve --grid 5x5 --mod 3 --threads 1
sweep "solve --grid 4x4 --all --engine flint" "$T" solve --grid 4x4 --all --engine flint --threads 1
sweep "solve --grid 6x6 --json" "$T" solve --grid 6x6 --json --threads 1
sweep "solve --grid 4x4 --mod 6 --all-solutions" "$T" solve --grid 4x4 --mod 6 --all-solutions --threads 1
sweep "solve --grid 5x5 --fewest" "$T" solve --grid 5x5 --fewest --threads 1
sweep "render --grid 5x5 --mod 3 --out x.png" "$T" render --grid 5x5 --mod 3 --out x.png
sweep "render --grid 4x4 --out x.ppm --lines 1" "$T" render --grid 4x4 --out x.ppm --lines 1 --border 1
# The sweep's manifest and gallery writers report an allocation failure as
# a write failure (a clear exit, the wrong cause): left to the rework of the
# sweep's file handling, accepted here by name only.
KNOWN="^toggle: sweep: cannot write the manifest or gallery in " \
sweep "sweep --sizes 2..3 --primes 2..3" "$T" sweep --sizes 2..3 --primes 2..3 --colormaps viridis \
    --threads 1 --out out
echo "$total_sites allocation sites, $total_runs runs: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
