#!/bin/bash
# No command loses or clobbers a user's file (tools/path.h): render --out and
# rowops save write a unique temporary beside the target and rename it;
# existing files are kept without --force; symbolic links' targets, devices
# and FIFOs are never written; --checkpoint refuses a file that is not a
# regular one instead of taking it for "no checkpoint yet"; a full disk
# leaves the previous file intact (on a small tmpfs, when run as root).
# usage: test_files.sh TOGGLE
T=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/harness.sh"
cd "$tmp" || exit 1

same() { cmp -s "$1" "$2"; }
no_temporaries() {
    local left
    # (kill -9 below may leave a checkpoint's temporary: never the file itself)
    left=$(find "$1" -name '*.??????' ! -name 'long.ck.*' -newer "$tmp/.start" | head -n 1)
    [ -z "$left" ] && ok || bad "temporary left behind: $left"
}
touch "$tmp/.start"

# an existing file is kept without --force, replaced with it
printf 'keep me' > mine.png
"$T" render --grid 5x5 --out mine.png 2> err && bad "render replaced an existing file" || ok
[ "$(cat mine.png)" = "keep me" ] && ok || bad "the existing file changed"
grep -q "exists: not replaced (give --force" err && ok || bad "no reason given: $(cat err)"
"$T" render --grid 5x5 --out mine.png --force && ok || bad "--force refused"
head -c 4 mine.png | grep -q PNG && ok || bad "--force did not write the picture"

# a symbolic link: its target is never written
printf 'target' > target.txt
ln -s target.txt link.png
"$T" render --grid 5x5 --out link.png 2> err && bad "render wrote through a symlink" || ok
[ "$(cat target.txt)" = "target" ] && ok || bad "the symlink's target changed"
"$T" render --grid 5x5 --out link.png --force && ok || bad "--force on a symlink refused"
[ "$(cat target.txt)" = "target" ] && ok || bad "--force wrote into the symlink's target"
[ -L link.png ] && bad "the link was not replaced by the file" || ok

# devices, FIFOs and directories are never replaced, with or without --force
mkfifo fifo
mkdir dir
for t in /dev/null fifo dir; do
    "$T" render --grid 3x3 --out "$t" --force 2> err && bad "render --out $t accepted" || ok
    grep -q "not a regular file" err && ok || bad "render --out $t: $(cat err)"
done
[ -p fifo ] && [ -d dir ] && [ -c /dev/null ] && ok || bad "a special file was replaced"

# --checkpoint: a device, FIFO or directory is refused before the search
# (never read as "no checkpoint yet", never replaced)
for t in /dev/zero fifo dir; do
    timeout 20 "$T" solve --grid 9x9 --fewest --checkpoint "$t" > /dev/null 2> err &&
        bad "--checkpoint $t accepted" || ok
    grep -q "not a regular file" err && ok || bad "--checkpoint $t: $(cat err)"
done
[ -c /dev/zero ] && ok || bad "/dev/zero is no longer a device"
# an unreadable checkpoint is an error, not a new search
if [ "$(id -u)" != 0 ]; then
    printf 'x' > locked && chmod 000 locked
    "$T" solve --grid 9x9 --fewest --checkpoint locked > /dev/null 2> err && bad "unreadable checkpoint taken" || ok
    grep -q "cannot read" err && ok || bad "unreadable checkpoint: $(cat err)"
    chmod 600 locked
fi
# a checkpoint is written whole and rewritten by the same command (its contract)
"$T" solve --grid 9x9 --fewest --checkpoint ck > out1 && ok || bad "checkpointed search failed"
"$T" solve --grid 9x9 --fewest --checkpoint ck > out2 && ok || bad "resumed search failed"
same out1 out2 && ok || bad "the resumed search printed another answer"

# periodic saves: kill -9 loses at most about one interval; SIGTERM stops
# and saves as Ctrl-C does (exit 143) and prints the best so far
"$T" solve --grid 61x61 --fewest --checkpoint long.ck --checkpoint-every 1 > /dev/null 2>&1 &
pid=$!
# the first save comes one interval after the search starts (the solve
# before it is slower under a sanitizer): wait for it, then two more
for _ in $(seq 600); do [ -s long.ck ] && break; sleep 0.1; done
sleep 2.5
kill -9 $pid
wait $pid 2> /dev/null
killed=$(date +%s)
if [ -s long.ck ]; then
    ok
    age=$((killed - $(stat -c %Y long.ck)))
    # one interval (1 s) plus the chunks under way when it ended
    [ "$age" -le 5 ] && ok || bad "the last periodic save was $age s before the kill"
else
    bad "no periodic save within 60 s"
fi
"$T" solve --grid 61x61 --fewest --checkpoint long.ck > term.out 2> term.err &
pid=$!
sleep 2
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] && ok || bad "SIGTERM: exit $st, want 143 ($(cat term.err))"
grep -q "interrupted (SIGTERM)" term.err && ok || bad "SIGTERM not said: $(cat term.err)"
grep -q "fewest cells: .*interrupted: best found so far" term.out && ok || bad "SIGTERM: no best so far printed"
"$T" solve --grid 61x61 --fewest --checkpoint long.ck --checkpoint-every x > /dev/null 2>&1 &&
    bad "--checkpoint-every x accepted" || ok

# rowops save replaces an existing file (its contract) and says so
printf '1 1 | 1\n' > sys.txt
printf 'keep' > saved.txt
printf 'save saved.txt\n' | "$T" rowops sys.txt --quiet > /dev/null 2> err && ok || bad "rowops save failed"
grep -q "replaced the existing 'saved.txt'" err && ok || bad "rowops did not say it replaced: $(cat err)"
grep -q '|' saved.txt && ok || bad "rowops save wrote nothing"
printf 'save fifo\n' | timeout 20 "$T" rowops sys.txt --quiet > /dev/null 2> err && bad "rowops saved into a FIFO" || ok

# an input that never ends is refused at the cap, a FIFO that blocks is not read as a checkpoint
no_temporaries "$tmp"

# --json stays valid JSON for a file name that is not UTF-8
name=$(printf 'a\xff\xfeb\xc3\xa9.png')
"$T" render --grid 3x3 --out "$name" --json > name.json && ok || bad "render to a non-UTF-8 name failed"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); assert d["file"] == "a\ufffd\ufffdb\u00e9.png", d["file"]' name.json &&
    ok || bad "--json with a non-UTF-8 file name: $(cat name.json)"

# a value out of range is named by the flag the user typed
"$T" render --grid 3x3 --out big.png --cell 100000 2> err && bad "--cell 100000 accepted" || ok
grep -q -- "--cell 100000 is out of range" err && ok || bad "--cell: $(cat err)"

# 2^64 - 1 is no count of presses (the library's "no constraint")
"$T" generate --grid 5x5 --presses 18446744073709551615 > /dev/null 2> err && bad "--presses 2^64-1 accepted" || ok
grep -q -- "--presses" err && ok || bad "--presses 2^64-1: $(cat err)"

# a full disk leaves the previous file intact (root only: a 256 KiB tmpfs)
if [ "$(id -u)" = 0 ] && mkdir -p small && mount -t tmpfs -o size=256k tmpfs small 2> /dev/null; then
    "$T" render --grid 4x4 --out small/pic.ppm && cp small/pic.ppm before.ppm
    "$T" render --grid 200x200 --cell 8 --out small/pic.ppm --force 2> err && bad "a full disk went unnoticed" || ok
    same small/pic.ppm before.ppm && ok || bad "the full disk damaged the previous picture"
    grep -q "cannot write" err && ok || bad "full disk: $(cat err)"
    [ "$(ls small | wc -l)" = 1 ] && ok || bad "temporaries left on the full disk: $(ls small)"
    umount small
else
    echo "full-disk case skipped (needs root and tmpfs)"
fi
finish "files"
