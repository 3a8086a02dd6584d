#!/bin/sh
# Fuzz every target for RUNS executions (default 10^7, exactly: -runs), one
# process at a time, niced, then merge the new finds into a minimised corpus
# (-merge=1 keeps only inputs that add coverage). Usage:
#   CC=clang meson setup build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
#     -Dbuildtype=debugoptimized -Dbench=disabled \
#     -Dc_args='-fsanitize=fuzzer-no-link -fno-sanitize-recover=all' \
#     -Dc_link_args=-fno-sanitize-recover=all
#   ninja -C build-fuzz
#   tests/fuzz/run_fuzz.sh build-fuzz [target...]
# Environment: RUNS (10000000), MAXTIME (0: no time limit), MAXLEN (256),
# NICE (15). Work corpora and logs go to ${FUZZ_WORK:-/tmp/toggle-fuzz};
# crashes to $FUZZ_WORK/artifacts/<target>/. The last lines of
# $FUZZ_WORK/<target>.log are libFuzzer's final stats (stat::number_of_executed_units).
set -u
build=$(cd "${1:?usage: run_fuzz.sh BUILD_DIR [target...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
work=${FUZZ_WORK:-/tmp/toggle-fuzz}
runs=${RUNS:-10000000}
maxtime=${MAXTIME:-0}
maxlen=${MAXLEN:-256}
niceness=${NICE:-15}
targets=${*:-system_parse board_parse edges_parse api space}
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
for t in $targets; do
    mkdir -p "$work/$t" "$work/artifacts/$t"
    cp "$here/corpus/$t/"* "$work/$t/" 2>/dev/null
    start=$(date +%s)
    nice -n "$niceness" "$build/tests/fuzz/fuzz_$t" -runs="$runs" \
        -max_total_time="$maxtime" -max_len="$maxlen" -rss_limit_mb=4096 -malloc_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/$t/" "$work/$t" \
        > "$work/$t.log" 2>&1
    echo "exit $? after $(( $(date +%s) - start )) s" >> "$work/$t.log"
    echo "$t: $(tail -1 "$work/$t.log")"
    grep -E '^stat::|DONE|Done [0-9]+ runs' "$work/$t.log" | tail -8
    mkdir -p "$work/merged/$t"
    nice -n "$niceness" "$build/tests/fuzz/fuzz_$t" -merge=1 -max_len="$maxlen" "$work/merged/$t" \
        "$here/corpus/$t" "$work/$t" > "$work/$t.merge.log" 2>&1
    echo "$t: merged corpus $(ls "$work/merged/$t" | wc -l) files"
done
