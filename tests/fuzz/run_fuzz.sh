#!/bin/sh
# Fuzz every target for RUNS executions (default 10^7) or MAXTIME seconds,
# one at a time, niced, then merge the new finds into the committed corpus
# (-merge=1 keeps only inputs that add coverage). Usage:
#   CC=clang meson setup build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
#     -Dbuildtype=debugoptimized -Dbench=disabled \
#     -Dc_args='-fsanitize=fuzzer-no-link -fno-sanitize-recover=all' \
#     -Dc_link_args=-fno-sanitize-recover=all
#   ninja -C build-fuzz
#   tests/fuzz/run_fuzz.sh build-fuzz [target...]
# Work corpora and logs go to ${FUZZ_WORK:-/tmp/toggle-fuzz}; crashes to
# $FUZZ_WORK/artifacts/<target>/.
set -u
build=$(cd "${1:?usage: run_fuzz.sh BUILD_DIR [target...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
work=${FUZZ_WORK:-/tmp/toggle-fuzz}
runs=${RUNS:-10000000}
maxtime=${MAXTIME:-1500}
targets=${*:-system_parse board_parse edges_parse api space}
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
for t in $targets; do
    mkdir -p "$work/$t" "$work/artifacts/$t"
    cp "$here/corpus/$t/"* "$work/$t/" 2>/dev/null
    # -jobs=1 runs one fuzzing process that logs to fuzz-0.log in the cwd
    (cd "$work" && rm -f fuzz-0.log && nice -n 10 "$build/tests/fuzz/fuzz_$t" -jobs=1 -workers=1 -runs="$runs" \
        -max_total_time="$maxtime" -max_len=512 -rss_limit_mb=4096 -malloc_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/$t/" "$work/$t" \
        > "$work/$t.driver.log" 2>&1; echo "exit $?" >> "$work/$t.driver.log"; \
        mv fuzz-0.log "$t.log")
    echo "$t: $(tail -1 "$work/$t.driver.log")"
    grep -E '^stat::|DONE|Done [0-9]+ runs' "$work/$t.log" | tail -8
    mkdir -p "$work/merged/$t"
    "$build/tests/fuzz/fuzz_$t" -merge=1 -max_len=512 "$work/merged/$t" "$here/corpus/$t" \
        "$work/$t" > "$work/$t.merge.log" 2>&1
    echo "$t: merged corpus $(ls "$work/merged/$t" | wc -l) files"
done
