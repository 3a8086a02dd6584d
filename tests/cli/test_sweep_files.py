#!/usr/bin/python3
"""toggle sweep keeps the user's work:
- a non-empty --out that toggle sweep did not make is refused (its files
  untouched) unless --force;
- every file is written whole under a temporary name and renamed: no *.tmp
  and no empty file is ever left in --out;
- SIGINT (sent by this test while the sweep runs) stops at the boards under
  way: exit status 130, and the manifest lists exactly the boards done, each
  with all its pictures in place;
- --resume keeps those boards (their pictures are not drawn again) and does
  the rest: the result equals a sweep run in one go.
usage: test_sweep_files.py TOGGLE_BINARY"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

MAPS = "viridis,greys"


def rows(d):
    with open(os.path.join(d, "manifest.jsonl")) as f:
        return [line for line in f.read().splitlines() if line]


def board(line):
    # {"version":1,"rows":N,"cols":N,"modulus":P,...} (docs/json.md)
    row = json.loads(line)
    return row["rows"], row["modulus"]


def pictures(d, line):
    images = line.split('"images":{')[1].rstrip("}")
    out = []
    for part in images.split(","):
        if ":" in part:
            out.append(part.split(":")[1].strip('"'))
    return out


def leftovers(d):
    bad = []
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            if f.endswith(".tmp") or (os.path.getsize(p) == 0 and f != ".toggle-sweep"):
                bad.append(os.path.relpath(p, d))
    return bad


def main():
    toggle = sys.argv[1]
    work = tempfile.mkdtemp(prefix="toggle-sweep-files-")
    fails = []

    def check(cond, what):
        if not cond:
            fails.append(what)

    # 1. a folder the sweep did not make
    theirs = os.path.join(work, "theirs")
    os.makedirs(theirs)
    with open(os.path.join(theirs, "index.html"), "w") as f:
        f.write("my page\n")
    r = subprocess.run([toggle, "sweep", "--sizes", "1..4", "--primes", "2..3", "--out", theirs],
                       capture_output=True, text=True)
    check(r.returncode == 1 and "--force" in r.stderr and len(r.stderr.splitlines()) == 1,
          "non-empty --out not refused: %d %r" % (r.returncode, r.stderr))
    with open(os.path.join(theirs, "index.html")) as f:
        check(f.read() == "my page\n", "the refused sweep changed the user's index.html")
    check(sorted(os.listdir(theirs)) == ["index.html"], "the refused sweep wrote into --out")
    r = subprocess.run([toggle, "sweep", "--sizes", "1..4", "--primes", "2..3", "--out", theirs,
                        "--force"], capture_output=True, text=True)
    check(r.returncode == 0 and len(rows(theirs)) == 8, "--force did not sweep: %r" % r.stderr)
    # a folder it made is fine to sweep again, and an empty one
    r = subprocess.run([toggle, "sweep", "--sizes", "1..4", "--primes", "2..3", "--out", theirs])
    check(r.returncode == 0, "sweeping again into its own folder refused")
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    r = subprocess.run([toggle, "sweep", "--sizes", "1..2", "--primes", "2", "--out", empty])
    check(r.returncode == 0, "an empty --out refused")

    # 2. SIGINT while it runs, then --resume
    args = ["--sizes", "1..70", "--primes", "2..13", "--colormaps", MAPS, "--threads", "1"]
    full = os.path.join(work, "full")
    subprocess.run([toggle, "sweep", *args[:-2], "--threads", "2", "--out", full], check=True)
    total = len(rows(full))
    part = os.path.join(work, "part")
    interrupted = False
    # The delays shrink until SIGINT lands while boards are still to do: a
    # signal that arrives after the last board (exit 130 with every row
    # written, or exit 0) says nothing about the partial state, so the next,
    # shorter delay is tried.
    for delay in (1.0, 0.5, 0.25, 0.1, 0.05, 0.02):
        subprocess.run(["rm", "-rf", part])
        p = subprocess.Popen([toggle, "sweep", *args, "--out", part], stderr=subprocess.PIPE,
                             text=True)
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        err = p.communicate()[1]
        if p.returncode == 130 and len(rows(part)) < total:
            interrupted = True
            break
        check(p.returncode in (0, 130), "sweep exited %d after SIGINT: %r" % (p.returncode, err))
    check(interrupted, "no run was interrupted (each finished before SIGINT)")
    if interrupted:
        check("interrupted" in err and "--resume" in err, "SIGINT message: %r" % err)
        done = rows(part)
        check(0 < len(done) < total, "after SIGINT %d of %d rows" % (len(done), total))
        for line in done:
            pics = pictures(part, line)
            if '"solvable":true' in line:
                check(len(pics) == 2, "row %s lacks pictures" % (board(line),))
            for rel in pics:
                path = os.path.join(part, rel)
                check(os.path.isfile(path) and os.path.getsize(path) > 0,
                      "row %s lists a missing picture %s" % (board(line), rel))
        check(leftovers(part) == [], "left after SIGINT: %s" % leftovers(part)[:5])
        with open(os.path.join(part, "manifest.csv")) as f:
            check(len(f.read().splitlines()) == len(done) + 1, "csv and jsonl disagree")
        kept = {}
        for line in done:
            for rel in pictures(part, line):
                kept[rel] = os.stat(os.path.join(part, rel)).st_mtime_ns
        time.sleep(0.05)
        r = subprocess.run([toggle, "sweep", *args, "--out", part, "--resume"],
                           capture_output=True, text=True)
        check(r.returncode == 0, "--resume failed: %r" % r.stderr)
        with open(os.path.join(full, "manifest.jsonl")) as a, \
                open(os.path.join(part, "manifest.jsonl")) as b:
            check(a.read() == b.read(), "resumed manifest differs from a sweep in one go")
        redrawn = [rel for rel, t in kept.items()
                   if os.stat(os.path.join(part, rel)).st_mtime_ns != t]
        check(redrawn == [], "--resume redrew %d kept pictures, e.g. %s" % (len(redrawn),
                                                                           redrawn[:3]))
        # a picture deleted by hand is drawn again
        victim = sorted(kept)[0]
        os.remove(os.path.join(part, victim))
        r = subprocess.run([toggle, "sweep", *args, "--out", part, "--resume"],
                           capture_output=True, text=True)
        check(r.returncode == 0 and os.path.isfile(os.path.join(part, victim)),
              "--resume did not redraw the deleted %s" % victim)
        check(leftovers(part) == [], "left after --resume: %s" % leftovers(part)[:5])

    subprocess.run(["rm", "-rf", work])
    for f in fails:
        print("FAIL:", f)
    print("sweep-files: %d failed" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
