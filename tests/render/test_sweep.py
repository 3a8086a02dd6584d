#!/usr/bin/python3
"""Golden test of `toggle sweep`: the manifest of a small sweep is pinned byte
for byte (tests/render/golden/), the output does not depend on the thread
count, and three shards merged give the same manifest (up to the image paths,
which point into the shards' folders).
usage: test_sweep.py TOGGLE_BINARY GOLDEN_DIR"""
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARGS = ["--sizes", "1..10", "--primes", "2..11", "--colormaps", "viridis,greys_r,tab10"]


def main():
    toggle, golden = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="toggle-sweep-")
    fails = []
    try:
        def sweep(name, *extra):
            out = os.path.join(work, name)
            subprocess.run([toggle, "sweep", *ARGS, "--out", out, *extra], check=True)
            return out

        one = sweep("t1", "--threads", "1")
        two = sweep("t2", "--threads", "2")
        for f in ("manifest.csv", "manifest.jsonl"):
            if not filecmp.cmp(os.path.join(one, f), os.path.join(golden, "sweep-" + f),
                               shallow=False):
                fails.append("%s differs from the golden copy" % f)
        cmp = filecmp.dircmp(one, two)

        def same_tree(c):
            bad = c.left_only + c.right_only + c.diff_files + c.funny_files
            for sub in c.subdirs.values():
                bad += same_tree(sub)
            return bad
        # dircmp compares by stat signature; compare the bytes of every file
        for root, _, files in os.walk(one):
            for f in files:
                a = os.path.join(root, f)
                b = os.path.join(two, os.path.relpath(a, one))
                if not os.path.exists(b) or not filecmp.cmp(a, b, shallow=False):
                    fails.append("--threads 1 and 2 differ at %s" % os.path.relpath(a, one))
        fails += ["tree differs: %s" % x for x in same_tree(cmp)]
        parts = [sweep("s%d" % i, "--shard", "%d/3" % i) for i in range(3)]
        merged = os.path.join(work, "merged")
        subprocess.run([toggle, "sweep-merge", "--out", merged, *parts], check=True)
        for f in ("manifest.csv", "manifest.jsonl"):
            with open(os.path.join(merged, f)) as m, open(os.path.join(one, f)) as o:
                got = re.sub(r"\.\./s[0-2]/", "", m.read())
                if got != o.read():
                    fails.append("merged %s differs from the single run" % f)
        with open(os.path.join(merged, "index.html")) as h:
            html = h.read()
        for p in re.findall(r'src="([^"]+)"', html):
            if not os.path.exists(os.path.join(merged, p)):
                fails.append("merged gallery links a missing picture %s" % p)
                break
        # --no-render: the same manifest without the image columns, no pictures,
        # and a gallery that links none
        nr = sweep("nr", "--no-render")

        def without_images(path):
            with open(path) as fh:
                rows = [line.rstrip("\n").split(",") for line in fh]
            keep = [i for i, h in enumerate(rows[0]) if not h.startswith("image_")]
            return [[r[i] for i in keep] for r in rows]

        if (without_images(os.path.join(nr, "manifest.csv"))
                != without_images(os.path.join(one, "manifest.csv"))
                or os.path.exists(os.path.join(nr, "img"))):
            fails.append("--no-render changed the manifest or drew pictures")
        with open(os.path.join(nr, "manifest.csv")) as fh:
            if "image_" in fh.readline():
                fails.append("--no-render lists image columns")
        with open(os.path.join(nr, "index.html")) as fh:
            if "<img " in fh.read():
                fails.append("--no-render gallery links pictures")
        if os.environ.get("TOGGLE_UPDATE_GOLDEN"):
            for f in ("manifest.csv", "manifest.jsonl"):
                shutil.copy(os.path.join(one, f), os.path.join(golden, "sweep-" + f))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in fails:
        print("FAIL:", f)
    print("sweep golden test:", "FAILED" if fails else "passed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
