#!/usr/bin/env python3
"""CLI tests of toggle rowops, solve --steps, solve --orbits, generate --chaos
and render --toggles, each answer checked by this script's own arithmetic.
usage: test_steps_cli.py /path/to/toggle   (TOGGLE_TEST_SEED fixes the seed)"""
import itertools
import os
import random
import subprocess
import sys
import tempfile

# The independent RREF of the Python binding's tests (no library code).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "bindings", "python", "tests"))
from helpers import rref_mod as rref  # noqa: E402

T = sys.argv[1]
SEED = int(os.environ.get("TOGGLE_TEST_SEED", random.randrange(1 << 32)))
print(f"# TOGGLE_TEST_SEED={SEED}", file=sys.stderr)
rng = random.Random(SEED)
tmp = tempfile.mkdtemp()
failures = []
checks = [0]


def check(cond, what):
    checks[0] += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(args, stdin=""):
    p = subprocess.run([T] + args, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def write_system(path, rows, k):
    with open(path, "w") as f:
        for r in rows:
            sep = " " if k > 10 else ""
            f.write(sep.join(map(str, r[:-1])) + "|" + str(r[-1]) + "\n")


def read_system(path, k):
    rows = []
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        a, b = line.split("|")
        vals = a.split() if k > 10 else [c for c in a if c != " "]
        rows.append([int(v) for v in vals] + [int(b)])
    return rows


# ---- the script language, by this script's own arithmetic -------------------

def apply(M, k, op, a, b=0, c=1):
    if op == "add":
        M[b] = [(x + c * y) % k for x, y in zip(M[b], M[a])]
    elif op == "scale":
        M[a] = [(c * x) % k for x in M[a]]
    elif op == "swap":
        M[a], M[b] = M[b], M[a]
    elif op == "move":
        row = M[a]
        rest = M[:a] + M[a + 1:]
        f = b - 1 if b > a else b
        M[:] = rest[:f] + [row] + rest[f:]


def apply_line(M, k, line):
    w = line.split("#")[0].split()
    if not w:
        return
    if w[0] == "add":
        a, _, c = w[1].partition("*")
        for b in w[2:]:
            apply(M, k, "add", int(a), int(b), int(c) % k if c else 1)
    elif w[0] == "scale":
        apply(M, k, "scale", int(w[1]), c=int(w[2]) % k)
    else:
        apply(M, k, w[0], int(w[1]), int(w[2]))


def solution_of(R, n):
    x = [0] * n
    for row in R:
        j = next((j for j in range(n + 1) if row[j]), None)
        if j is None:
            continue
        if j == n:
            return None
        x[j] = row[n]
    return x


def solves(M, k, x):
    n = len(M[0]) - 1
    return all(sum(r[j] * x[j] for j in range(n)) % k == r[n] for r in M)


def random_system(m, n, k, zero=0.3):
    return [[0 if rng.random() < zero else rng.randrange(k) for _ in range(n + 1)]
            for _ in range(m)]


# ---- solve --steps replayed through rowops, and by this script ---------------

for it in range(24):
    k = [2, 3, 5, 7, 4, 6, 11, 13][it % 8]
    m, n = rng.randrange(1, 9), rng.randrange(1, 9)
    M = random_system(m, n, k)
    f = os.path.join(tmp, f"sys{it}.txt")
    write_system(f, M, k)
    rc, steps, err = run(["solve", "--system", f, "--mod", str(k), "--steps"])
    prime = all(k % d for d in range(2, k))
    if rc:
        check(not prime and "no unit" in err and err.count("\n") == 1,
              f"--steps k={k} failed: {err}")
        continue
    own = [r[:] for r in M]
    for line in steps.splitlines():
        apply_line(own, k, line)
    out = os.path.join(tmp, f"red{it}.txt")
    rc, _, err = run(["rowops", f, "--mod", str(k), "--quiet"], steps + f"save {out}\n")
    check(rc == 0, f"rowops replay k={k}: {err}")
    got = read_system(out, k)
    check(got == own, f"replay k={k}: rowops and own arithmetic differ")
    if prime:
        check(own == rref(M, k), f"k={k}: --steps does not reach the RREF")
    x = solution_of(own, n)
    if x is not None:
        check(solves(M, k, x), f"k={k}: the reduced solution does not solve the system")

# ---- a board's steps replayed: solve --grid/--graph --steps | rowops --grid ---

def grid_system(R, C, k, opts, start=None, target=None):
    """[A | b] of toggle solve --grid RxC by this script's own arithmetic:
    pressing cell j adds 1 to itself (unless --no-self) and to its 4 (8 with
    --moore) neighbours, wrapping rows with --torus and columns with --torus
    or --cylinder; b = target - start (default target all 1, start all 0)."""
    n = R * C
    offs = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if "--moore" in opts:
        offs += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    if "--no-self" not in opts:
        offs.append((0, 0))
    wrap_r = "--torus" in opts
    wrap_c = wrap_r or "--cylinder" in opts
    A = [[0] * n for _ in range(n)]
    for r in range(R):
        for c in range(C):
            for dr, dc in offs:
                rr, cc = r + dr, c + dc
                if wrap_r:
                    rr %= R
                if wrap_c:
                    cc %= C
                if 0 <= rr < R and 0 <= cc < C:
                    A[rr * C + cc][r * C + c] += 1
    s = start or [0] * n
    t = target or [1] * n
    return [[v % k for v in A[i]] + [(t[i] - s[i]) % k] for i in range(n)]


def replay_board(name, board_args, k, own=None, rowops_args=None):
    """solve BOARD --steps, then rowops BOARD < steps: the replay reaches the
    RREF of the board's [A | b] (checked by this script), and so does this
    script's replay of the same steps. own: the board's [A | b] by this
    script's arithmetic, else the matrix rowops starts from is used.
    rowops_args: rowops' spelling of the board when not solve's."""
    rowops_args = board_args if rowops_args is None else rowops_args
    rc, steps, err = run(["solve"] + board_args + ["--mod", str(k), "--steps"])
    check(rc == 0, f"{name}: solve --steps failed: {err}")
    if rc:
        return
    replay_line = next((l for l in steps.splitlines() if "replay with:" in l), "")
    hint = replay_line.split("toggle rowops ", 1)[-1].replace(" < this", "").split()
    check(hint == rowops_args + ["--mod", str(k)],
          f"{name}: the replay line names {hint}, not the board {board_args}")
    init = os.path.join(tmp, f"{name}-init.txt")
    red = os.path.join(tmp, f"{name}-red.txt")
    rc, out, err = run(["rowops"] + rowops_args + ["--mod", str(k), "--quiet"],
                       f"save {init}\n" + steps + f"save {red}\nsolution\n")
    if not os.path.exists(red):
        check(False, f"{name}: rowops replay failed: {err}")
        return
    M = read_system(init, k)
    if own is not None:
        check(M == own, f"{name}: rowops --grid starts from another matrix than the board's")
        M = own
    mine = [r[:] for r in M]
    for line in steps.splitlines():
        apply_line(mine, k, line)
    got = read_system(red, k)
    check(got == mine, f"{name}: rowops and this script's replay differ")
    check(got == rref(M, k), f"{name}: the replay does not reach the RREF")
    x = solution_of(got, len(M[0]) - 1)
    if x is not None:
        check(rc == 0, f"{name}: rowops replay failed: {err}")
        check(solves(M, k, x), f"{name}: the reduced solution does not solve the board")
        check("check: A x = b holds" in out, f"{name}: rowops solution: {out}")
    else:  # only the solution command fails, with one line: status 4, no solution
        check(rc == 4 and "no solution" in err and err.count("\n") == 1,
              f"{name}: unsolvable board, rowops says: {err}")


board_cases = [
    ("3x3", [], 2), ("4x4", [], 2), ("3x4", [], 3), ("4x3", ["--torus"], 5),
    ("3x5", ["--cylinder"], 7), ("3x3", ["--moore"], 3), ("4x4", ["--no-self"], 2),
    ("2x3", ["--torus", "--moore"], 7), ("3x3", [], 5),
]
for R_C, opts, k in board_cases:
    R, C = map(int, R_C.split("x"))
    replay_board(f"grid-{R_C}{''.join(opts)}-k{k}", ["--grid", R_C] + opts, k,
                 own=grid_system(R, C, k, opts))
# a start and a target from files
R, C, k = 3, 4, 3
st = [rng.randrange(k) for _ in range(R * C)]
tg = [rng.randrange(k) for _ in range(R * C)]
fs, ft = os.path.join(tmp, "start.txt"), os.path.join(tmp, "target.txt")
for path, v in ((fs, st), (ft, tg)):
    with open(path, "w") as fh:
        fh.write("".join("".join(map(str, v[r * C:(r + 1) * C])) + "\n" for r in range(R)))
replay_board("grid-start-target", ["--grid", "3x4", "--start", fs, "--target", ft], k,
             own=grid_system(R, C, k, [], st, tg))
# lattices (their rules are docs/lattices.md's): the replay against the
# matrix rowops builds, which must be toggle solve's (same solution)
for lat in ("hex", "tri"):
    replay_board(f"grid-{lat}", ["--grid", "4x4", "--lattice", lat], 2)
    rc, out, _ = run(["solve", "--grid", "4x4", "--lattice", lat, "--json"])
    d = __import__("json").loads(out)
    M = read_system(os.path.join(tmp, f"grid-{lat}-init.txt"), 2)
    check(rc == 0 and (d["solution"] is None or solves(M, 2, d["solution"])),
          f"grid-{lat}: toggle solve's solution does not solve rowops' matrix")
# a graph, and a system file through --system
gfile = os.path.join(tmp, "cycle5.txt")
with open(gfile, "w") as fh:
    fh.write("nodes 5\n0 1\n1 2\n2 3\n3 4\n4 0\n")
replay_board("graph-cycle5", ["--graph", gfile], 3)
sfile = os.path.join(tmp, "sys-board.txt")
write_system(sfile, grid_system(3, 3, 3, ["--torus"]), 3)
replay_board("system-file", ["--system", sfile], 3, own=grid_system(3, 3, 3, ["--torus"]),
             rowops_args=[sfile])
# the board options are checked as solve checks them
for args, want in ((["--grid", "3x3", "--system", sfile], "exactly one of"),
                   (["--torus", sfile], "need --grid"), (["--grid", "3"], "expected RxC"),
                   (["--grid", "3x3", "--lattice", "oct"], "expected square, hex or tri"),
                   (["--system", sfile, "--start", fs], "--start and --target need")):
    rc, _, err = run(["rowops"] + args, "quit\n")  # usage errors: status 2
    check(rc == 2 and want in err and err.count("\n") == 1, f"rowops {args}: {err}")

# ---- a scripted session: every command, every bad command, state by state ----

k = 5
M = random_system(4, 5, k, 0.2)
f = os.path.join(tmp, "session.txt")
write_system(f, M, k)
commands = [
    ("add 0 1", True), ("add 0*3 2 3", True), ("add 1*-1 0", True), ("scale 2 2", True),
    ("swap 0 3", True), ("move 3 0", True), ("move 0 4", True), ("undo", True),
    ("undo 2", True), ("redo", True), ("redo", True), ("auto", True), ("auto 2", True),
    ("undo", True), ("solve", True), ("show", True), ("status", True), ("solution", True),
    ("help", True), ("# a comment", True), ("", True),
    ("add 0 0", False), ("add 0*5 1", False), ("scale 1 0", False), ("swap 1 1", False),
    ("move 1 2", False), ("add 9 1", False), ("frob 1", False), ("undo 99", False),
    ("redo 5", False), ("auto x", False), ("save", False), ("scale 1", False),
]
rng.shuffle(commands)
script, expect, history, redo = [], [], [], []
state = [r[:] for r in M]


def auto_ops(S, count):
    """Plain Gauss-Jordan resumed from S: the next count operations."""
    ops, S = [], [r[:] for r in S]
    while len(ops) < count:
        r, nxt = 0, None
        for j in range(len(S[0])):
            if r == len(S):
                break
            p = next((i for i in range(r, len(S)) if S[i][j]), None)
            if p is None:
                continue
            if p != r:
                nxt = f"swap {p} {r}"
            elif S[r][j] != 1:
                nxt = f"scale {r} {pow(S[r][j], -1, k)}"
            else:
                i = next((i for i in range(len(S)) if i != r and S[i][j]), None)
                if i is not None:
                    nxt = f"add {r}*{k - S[i][j]} {i}" if k - S[i][j] != 1 else f"add {r} {i}"
            if nxt:
                break
            r += 1
        if not nxt:
            break
        ops.append(nxt)
        apply_line(S, k, nxt)
    return ops


bad_count = 0
for i, (cmd, good) in enumerate(commands):
    word = cmd.split()[0] if cmd.split() else ""
    if not good:
        bad_count += 1
    elif word in ("add", "scale", "swap", "move"):
        history.append([r[:] for r in state])
        redo.clear()
        apply_line(state, k, cmd)
    elif word in ("auto", "solve"):
        n_ops = 10 ** 9 if word == "solve" else int(cmd.split()[1]) if len(cmd.split()) > 1 else 1
        ops = auto_ops(state, n_ops)
        if ops:
            history.append([r[:] for r in state])
            redo.clear()
            for op in ops:
                apply_line(state, k, op)
    elif word in ("undo", "redo"):
        cnt = int(cmd.split()[1]) if len(cmd.split()) > 1 else 1
        src, dst = (history, redo) if word == "undo" else (redo, history)
        if cnt > len(src):
            bad_count += 1
        else:
            for _ in range(cnt):
                dst.append([r[:] for r in state])
                state = src.pop()
    elif word == "solution" and (auto_ops(state, 1) or solution_of(state, 5) is None):
        bad_count += 1  # not reduced yet, or no solution: one line, nothing changes
    path = os.path.join(tmp, f"state{i}.txt")
    script += [cmd, f"save {path}"]
    expect.append((path, [r[:] for r in state], cmd))
rc, out, err = run(["rowops", f, "--mod", str(k), "--quiet"], "\n".join(script) + "\nquit\n")
check(rc == (1 if bad_count else 0), f"session exit status {rc}")
check(err.count("\n") == bad_count,
      f"session: {bad_count} bad commands, stderr has {err.count(chr(10))} lines:\n{err}")
for path, want, cmd in expect:
    check(read_system(path, k) == want, f"session: state after '{cmd}' differs")
    check(rref(read_system(path, k), k) == rref(M, k), f"session: '{cmd}' left the row space")

# ---- the exit status of a piped session with bad lines of different statuses ----
# 0 x = 1 has no solution: `solution` fails with 4, an unknown command with 1;
# together 1 (the statuses OR-ed gave 5), alone each its own.
f = os.path.join(tmp, "nosol.txt")
write_system(f, [[1, 0, 0], [0, 0, 1]], 3)  # reduced: row 1 reads 0 = 1
for script, want in (("solution\nfrob\n", 1), ("frob\nsolution\n", 1), ("solution\n", 4),
                     ("solution\nsolution\n", 4), ("frob\n", 1), ("show\n", 0)):
    rc, out, err = run(["rowops", f, "--mod", "3", "--quiet"], script)
    check(rc == want, f"rowops {script!r} on a system without solution: exit {rc}, want {want}")

# ---- generate --chaos ---------------------------------------------------------

seed = rng.randrange(1 << 30)
rc, out1, err = run(["generate", "--chaos", "6x9", "--seed", str(seed)])
rc2, out2, _ = run(["generate", "--chaos", "6x9", "--seed", str(seed)])
rc3, out3, _ = run(["generate", "--chaos", "6x9", "--seed", str(seed + 1)])
check(rc == 0 and rc2 == 0 and out1 == out2 and out1 != out3, f"chaos reproducible: {err}")
check(out1.startswith("# toggle generate --chaos 6x9"), "chaos header")
def parse_puzzle(text):
    return [[int(c) for c in line.split("|")[0]] + [int(line.split("|")[1])]
            for line in text.splitlines() if not line.startswith("#")]


C = parse_puzzle(out1)
check(len(C) == 54 and all(len(r) == 55 for r in C), "chaos: 54 x 54 system")
check(all(C[i][i] == 1 for i in range(54)), "chaos: each cell toggles itself")
ones = sum(C[i][j] for i in range(54) for j in range(54) if i != j)
check(abs(ones - 0.5 * 54 * 53) < 6 * (54 * 53 * 0.25) ** 0.5, f"chaos density: {ones}")
R = rref(C, 2)
x = solution_of(R, 54)
check(x is not None and solves(C, 2, x), "chaos: the start is solvable")
chaos = os.path.join(tmp, "chaos.txt")
open(chaos, "w").write(out1)
# radius: only cells within Chebyshev distance R
rc, out, _ = run(["generate", "--chaos", "5x6", "--radius", "1", "--density", "1", "--seed", "4"])
Cr = [line.split("|")[0] for line in out.splitlines() if not line.startswith("#")]
check(all((Cr[i][j] == "1") == (abs(i // 6 - j // 6) <= 1 and abs(i % 6 - j % 6) <= 1)
          for i in range(30) for j in range(30)), "chaos --radius 1 --density 1")
# --unique and --presses, by brute force on a 3 x 3 board
found_unique = False
for s in range(40):
    rc, out, err = run(["generate", "--chaos", "3x3", "--seed", str(s), "--unique"])
    if rc:
        check("nullity" in err or "solution" in err.lower(), f"--unique refusal: {err}")
        continue
    Cu = parse_puzzle(out)
    sols = [xs for xs in itertools.product((0, 1), repeat=9) if solves(Cu, 2, xs)]
    check(len(sols) == 1, f"--unique seed {s}: {len(sols)} solutions")
    found_unique = True
    want = rng.randrange(1, 4)
    rc, out, err = run(["generate", "--chaos", "3x3", "--seed", str(s), "--presses", str(want)])
    if rc == 0:
        Cp = parse_puzzle(out)
        best = min(sum(xs) for xs in itertools.product((0, 1), repeat=9) if solves(Cp, 2, xs))
        check(best == want and f"fewest cells pressed: {want}" in out, f"--presses {want}: {best}")
    break
check(found_unique, "no unique 3x3 chaos board in 40 seeds")
# a bad option value is a usage error: exit status 2 (docs/toggle.1 EXIT STATUS)
check(run(["generate", "--chaos", "6x9", "--density", "1.5"])[0] == 2, "--density 1.5 refused")
check(run(["generate", "--chaos", "0x9"])[0] == 2, "--chaos 0x9 refused")

# ---- the 54 x 54 chaos system through rowops: auto, and add/move by hand ------

out_auto = os.path.join(tmp, "auto.txt")
rc, _, err = run(["rowops", chaos, "--quiet"], f"solve\nsolution\nsave {out_auto}\n")
check(rc == 0 and read_system(out_auto, 2) == R, f"rowops solve on 54 x 54: {err}")
hand, S, r = [], [row[:] for row in C], 0
for j in range(55):
    p = next((i for i in range(r, 54) if S[i][j]), None)
    if p is None:
        continue
    if p != r:
        hand.append(f"move {p} {r}")
        apply_line(S, 2, hand[-1])
    targets = [str(i) for i in range(54) if i != r and S[i][j]]
    if targets:
        hand.append(f"add {r} " + " ".join(targets))
        apply_line(S, 2, hand[-1])
    r += 1
    if r == 54:
        break
out_hand = os.path.join(tmp, "hand.txt")
rc, out, err = run(["rowops", chaos, "--quiet"], "\n".join(hand) + f"\nstatus\nsolution\nsave {out_hand}\n")
check(rc == 0 and read_system(out_hand, 2) == R, f"rowops by hand on 54 x 54: {err}")
check("reduced: yes" in out and "check: A x = b holds" in out, "hand session: status and solution")

# ---- solve --orbits against Burnside by brute force ----------------------------

for n in (2, 3, 4):
    rc, out, err = run(["solve", "--grid", f"{n}x{n}", "--orbits"])
    N = n * n

    def presses(xs):
        return all((xs[i] + sum(xs[rr * n + cc] for rr, cc in
                   ((i // n - 1, i % n), (i // n + 1, i % n), (i // n, i % n - 1), (i // n, i % n + 1))
                   if 0 <= rr < n and 0 <= cc < n)) % 2 == 1 for i in range(N))

    sols = {xs for xs in itertools.product((0, 1), repeat=N) if presses(xs)}
    maps = [lambda r, c: (r, c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c),
            lambda r, c: (n - 1 - c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
            lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r)]
    orbits = {min(tuple(xs[g(i // n, i % n)[0] * n + g(i // n, i % n)[1]] for i in range(N))
                  for g in maps) for xs in sols}
    check(rc == 0 and f"orbits (full D4): {len(orbits)}" in out, f"--orbits {n}x{n}: {out}{err}")

# ---- render --toggles: tile j shows column j of A ------------------------------

p = subprocess.run([T, "render", "--system", chaos, "--toggles", "--cell", "1", "--format", "ppm",
                    "--out", "-"], capture_output=True)
check(p.returncode == 0, f"render --toggles: {p.stderr}")
data = p.stdout
parts = data.split(b"\n", 3)
W, H = map(int, parts[1].split())
check((W, H) == (9 * 10 - 1, 6 * 7 - 1), f"render --toggles size {W}x{H}")
pix = parts[3]
px = lambda y, x: pix[3 * (y * W + x):3 * (y * W + x) + 3]
off = px(6, 0)  # a gap between tiles: value 0
check(all((px((j // 9) * 7 + i // 9, (j % 9) * 10 + i % 9) != off) == (C[i][j] == 1)
          for j in range(54) for i in range(54)), "render --toggles: tiles match A")
check(run(["render", "--system", chaos, "--out", "x.png"])[0] == 2, "--system needs --toggles")

if failures:
    print(f"{len(failures)} failures (seed {SEED})", file=sys.stderr)
    sys.exit(1)
print(f"all {checks[0]} steps CLI checks passed")
