#!/usr/bin/python3
"""Every command's --json output (and the sweep's manifest) against
docs/json.md: the document's key table gives each key's type, its command
table each object's keys; the output must have exactly those keys (the
optional ones only when asked) with those types, and every key the document
lists must come out of some run here. So the document and the output cannot
drift. Also checks that a name means the same thing across commands (the
sweep's row for a board equals solve's and nullity's answer for it) and
that the answers are right (the solution solves the board, the fewest one
too, with the weight it claims).
usage: test_json.py TOGGLE_BINARY DOCS_JSON_MD"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

T, DOC = sys.argv[1], sys.argv[2]
fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)


# ---- the document ---------------------------------------------------------

def tables(text):
    """Every markdown table under a '## ' heading: {heading: [rows of cells]}."""
    out, head = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            head = line[3:].strip()
        elif line.startswith("|") and head:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r"-+", c) for c in cells):
                out.setdefault(head, []).append(cells)
    return out


doc = tables(open(DOC).read())
TYPES = {}
for key, typ, _meaning in doc["Keys"][1:]:
    TYPES[key.strip("`")] = typ
OBJECTS = {}
for obj, keys, optional in doc["Commands"][1:]:
    split = lambda s: [k.strip() for k in s.split(",") if k.strip()]
    OBJECTS[obj.strip("`")] = (split(keys), split(optional))
check(set(OBJECTS) >= {"solve --json", "nullity --json", "generate --json", "render --json",
                       "sweep --json", "manifest.jsonl", "manifest.csv"},
      "docs/json.md lacks a command: %s" % sorted(OBJECTS))
for obj, (keys, opt) in OBJECTS.items():
    for k in keys + opt:
        if obj != "manifest.csv" or k in TYPES:
            check(k in TYPES or k == "image_MAP", "%s: key %s has no row in the key table" % (obj, k))


def type_ok(value, typ):
    alts = [t.strip() for t in typ.split(" or ")]
    for t in alts:
        if t == "null" and value is None:
            return True
        if t == "integer" and type(value) is int:
            return True
        if t == "number" and type(value) in (int, float):
            return True
        if t == "string" and type(value) is str:
            return True
        if t == "boolean" and type(value) is bool:
            return True
        if t == "object" and type(value) is dict:
            return True
        if t == "{string}" and type(value) is dict and all(type(v) is str for v in value.values()):
            return True
        if t == "[integer]" and type(value) is list and all(type(v) is int for v in value):
            return True
        if t == "[[integer]]" and type(value) is list and all(
                type(r) is list and all(type(v) is int for v in r) for r in value):
            return True
        if t == "[object]" and type(value) is list and all(type(v) is dict for v in value):
            return True
    return False


def flatten(obj, prefix=""):
    """{path: value}: objects by key (except {string} maps), lists of objects as []."""
    out = {}
    for k, v in obj.items():
        path = prefix + k
        out[path] = v
        if type(v) is dict and TYPES.get(path, "").startswith("object"):
            out.update(flatten(v, path + "."))
        elif type(v) is list and v and all(type(e) is dict for e in v):
            for e in v:
                out.update(flatten(e, path + "[]."))
    return out


seen = {}


def against_doc(obj_name, data, what):
    keys, opt = OBJECTS[obj_name]
    flat = flatten(data)
    for k in keys:
        parent = k.split("[].")[0] if "[]." in k else None
        if parent and flat.get(parent) == []:
            continue  # the keys of the elements of an empty list
        check(k in flat, "%s: %s: documented key %s missing" % (what, obj_name, k))
    for k, v in flat.items():
        if k not in keys and k not in opt:
            check(False, "%s: %s: key %s is not in docs/json.md" % (what, obj_name, k))
            continue
        check(type_ok(v, TYPES[k]), "%s: %s = %r is not %s" % (what, k, v, TYPES[k]))
        seen.setdefault(obj_name, set()).add(k)
    check(data.get("version", 1) == 1, "%s: version %r" % (what, data.get("version")))


def run(args, want_rc=0):
    p = subprocess.run([T] + args, capture_output=True, text=True)
    check(p.returncode == want_rc, "toggle %s: exit %d (want %d): %s"
          % (" ".join(args), p.returncode, want_rc, p.stderr.strip()))
    return p.stdout


def run_json(obj_name, args, want_rc=0):
    out = run(args, want_rc)
    try:
        data = json.loads(out)
    except ValueError as e:
        check(False, "toggle %s: not one JSON object (%s): %.200s" % (" ".join(args), e, out))
        return {}
    against_doc(obj_name, data, "toggle " + " ".join(args))
    cmd = args[0]
    check(data.get("command") == cmd, "%s: command %r" % (cmd, data.get("command")))
    return data


# ---- an independent check of the answers ----------------------------------

def press(x, R, C, k):
    """The board after presses x on the classic R x C board from all 0."""
    b = [0] * (R * C)
    for r in range(R):
        for c in range(C):
            v = x[r * C + c]
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < R and 0 <= cc < C:
                    b[rr * C + cc] = (b[rr * C + cc] + v) % k
    return b


# ---- the runs ------------------------------------------------------------

work = tempfile.mkdtemp(prefix="toggle-json-")
S = "solve --json"
d = run_json(S, ["solve", "--grid", "6x7", "--mod", "5", "--json"])
if d:
    check(d["rows"] * d["cols"] == d["unknowns"] == d["equations"] == 42, "6x7: sizes %r" % d)
    check(press(d["solution"], 6, 7, 5) == [1] * 42, "6x7 mod 5: the solution does not solve")
    check(d["count"] == str(5 ** d["nullity"]) and d["certificate"] is None, "6x7: count")
    check(d["kernel"] is None, "the kernel is written without --all")
d = run_json(S, ["solve", "--grid", "2x2", "--mod", "3", "--json"], want_rc=4)
if d:
    check(d["solvable"] is False and d["solution"] is None and d["count"] == "0", "2x2 mod 3")
    y = d["certificate"]
    check(len(y) == d["equations"] and sum(y) % 3 != 0, "2x2 mod 3: certificate %r" % y)
d = run_json(S, ["solve", "--grid", "4x4", "--json", "--all", "--kernel-limit", "2", "--fewest",
                 "--all-solutions", "--limit", "3"])
if d:
    check(len(d["kernel"]) == 2 and d["nullity"] == 4, "--kernel-limit 2: %r" % d["kernel"])
    check(len(d["solutions"]) == 3, "--all-solutions --limit 3: %d" % len(d["solutions"]))
    for x in d["solutions"] + [d["fewest"]["solution"]]:
        check(press(x, 4, 4, 2) == [1] * 16, "4x4: a listed solution does not solve")
d = run_json(S, ["solve", "--grid", "19x19", "--fewest", "--json"])
if d:
    f = d["fewest"]
    check(f["proven"] is True and f["weight"] == 141 == sum(1 for v in f["solution"] if v),
          "19x19 --fewest: %r" % {k: f[k] for k in f if k != "solution"})
    check(press(f["solution"], 19, 19, 2) == [1] * 361, "19x19: the fewest solution does not solve")
    check(sum(1 for v in d["solution"] if v) == 169, "19x19: solution is the canonical one")
d = run_json(S, ["solve", "--grid", "4x4", "--all", "--json"])
if d:
    check(len(d["kernel"]) == 4, "--all writes the whole kernel")
d = run_json(S, ["solve", "--grid", "4x4", "--all", "--no-kernel", "--json"])
check(d.get("kernel", 0) is None, "--no-kernel writes a kernel")
d = run_json(S, ["solve", "--grid", "2x2", "--mod", "3", "--fewest", "--all-solutions", "--json"],
             want_rc=4)
check(d.get("fewest", 0) is None and d.get("solutions") == [], "unsolvable --fewest: %r" % d)
cost = os.path.join(work, "cost.txt")
with open(cost, "w") as fh:
    fh.write("x x x\nx x x\nx x x\n")
d = run_json(S, ["solve", "--grid", "3x3", "--fewest", "--cost", cost, "--json"])
check(d.get("fewest", {}).get("solution", 0) is None and d["fewest"]["weight"] is None,
      "--cost forbidding every cell: %r" % d.get("fewest"))
system = os.path.join(work, "sys.txt")
with open(system, "w") as fh:
    fh.write("110000100000|1\n011000011000|1\n")
d = run_json(S, ["solve", "--system", system, "--json"])
check(d.get("rows", 0) is None and d.get("unknowns") == 12 and d.get("equations") == 2,
      "--system: %r" % d)
edges = os.path.join(work, "cycle.txt")
with open(edges, "w") as fh:
    fh.write("nodes 4\n0 1\n1 2\n2 3\n3 0\n")
run_json(S, ["solve", "--graph", edges, "--json"])

N = "nullity --json"
d = run_json(N, ["nullity", "--grid", "5x5", "--json"])
check(d.get("nullity") == 2 and d.get("rows") == 5, "nullity 5x5: %r" % d)

G = "generate --json"
d = run_json(G, ["generate", "--grid", "4x4", "--mod", "3", "--count", "3", "--seed", "5", "--json"])
if d:
    check(len(d["boards"]) == 3 and d["seed"] == 5, "generate --count 3: %r" % d)
    for b in d["boards"]:
        check(len(b["start"]) == 16 and all(0 <= v < 3 for v in b["start"]), "generate: board")
d = run_json(G, ["generate", "--grid", "4x4", "--unique", "--json"], want_rc=4)
check(d.get("boards") == [], "generate with no such board: %r" % d)
d = run_json(G, ["generate", "--grid", "5x5", "--presses", "4", "--json"])
for b in d.get("boards", []):
    w = b.get("fewest", {}).get("weight")
    check(w == 4, "generate --presses 4: fewest %r" % b.get("fewest"))
    # solve says the same of the board (start = the board, target all 0)
    start = os.path.join(work, "gen.txt")
    with open(start, "w") as fh:
        fh.write("".join("".join(str(v) for v in b["start"][r * 5:r * 5 + 5]) + "\n"
                         for r in range(5)))
    s = run_json(S, ["solve", "--grid", "5x5", "--start", start, "--target", "zero", "--fewest",
                     "--json"])
    check(s.get("fewest", {}).get("weight") == 4 and s["fewest"]["metric"] == "cells",
          "generate --presses 4: solve finds %r" % s.get("fewest"))

R = "render --json"
png = os.path.join(work, "x.png")
d = run_json(R, ["render", "--grid", "9x9", "--mod", "3", "--out", png, "--json"])
if d:
    check(d["bytes"] == os.path.getsize(png) and d["source"] == "grid" and d["format"] == "png",
          "render: %r" % d)
board = os.path.join(work, "board.txt")
with open(board, "w") as fh:
    fh.write("012\n210\n")
d = run_json(R, ["render", "--board", board, "--mod", "3", "--out", png[:-3] + "ppm", "--json"])
check(d.get("format") == "ppm" and d.get("rows") == 2 and d.get("cols") == 3, "render --board: %r" % d)

W = "sweep --json"
out = os.path.join(work, "sweep")
d = run_json(W, ["sweep", "--sizes", "1..6", "--primes", "2..5", "--colormaps", "viridis,magma",
                 "--out", out, "--json"])
if d:
    check(d["board_count"] == 18 and d["out"] == out, "sweep: %r" % d)
    check(d["picture_count"] == 2 * d["solvable_count"], "sweep: pictures %r" % d)
rows = []
with open(os.path.join(out, "manifest.jsonl")) as fh:
    for i, line in enumerate(fh):
        r = json.loads(line)
        against_doc("manifest.jsonl", r, "manifest.jsonl line %d" % (i + 1))
        rows.append(r)
with open(os.path.join(out, "manifest.csv")) as fh:
    table = list(csv.reader(fh))
keys, opt = OBJECTS["manifest.csv"]
head = table[0]
check(head[:len(keys)] == keys, "manifest.csv header %r, docs/json.md says %r" % (head, keys))
check(all(re.fullmatch(r"image_[a-z0-9_]+", h) for h in head[len(keys):]) and "image_MAP" in opt,
      "manifest.csv: extra columns %r" % head[len(keys):])
seen["manifest.csv"] = set(keys) | ({"image_MAP"} if len(head) > len(keys) else set())
for line, r in zip(table[1:], rows):
    for k, v in zip(keys, line):
        want = r[k]
        want = ("true" if want else "false") if type(want) is bool else str(want)
        check(v == want, "manifest.csv %s = %r, manifest.jsonl says %r" % (k, v, want))
# the same names mean the same thing: a sweep row, solve and nullity agree
for r in rows:
    if r["rows"] in (4, 5) and r["modulus"] in (2, 3):
        n, p = r["rows"], r["modulus"]
        s = json.loads(run(["solve", "--grid", "%dx%d" % (n, n), "--mod", str(p), "--json"],
                           want_rc=0 if r["solvable"] else 4))
        for k in ("rows", "cols", "modulus", "nullity", "solvable", "count"):
            check(s[k] == r[k], "%dx%d mod %d: solve says %s = %r, the manifest %r"
                  % (n, n, p, k, s[k], r[k]))
        u = json.loads(run(["nullity", "--grid", "%dx%d" % (n, n), "--mod", str(p), "--json"]))
        check(u["nullity"] == r["nullity"], "%dx%d mod %d: nullity" % (n, n, p))

# every key the document lists came out of some run
for obj, (keys, opt) in OBJECTS.items():
    missing = set(keys + opt) - seen.get(obj, set())
    check(not missing, "%s: documented but never seen in the runs: %s" % (obj, sorted(missing)))

shutil.rmtree(work, ignore_errors=True)
for f in fails:
    print("FAIL:", f)
print("json vocabulary: %d objects checked, %s" % (sum(len(v) for v in seen.values()),
                                                   "FAILED" if fails else "passed"))
sys.exit(1 if fails else 0)
