"""The numpy layer (toggle.solve, null_space, rank, row_reduce,
solution_space) against an independent Gauss-Jordan elimination written
here with Python ints, on random matrices over 2, 3 and a large prime,
dense and bit-packed (p = 2). Seeds are printed on failure."""

import os
import random

import pytest

np = pytest.importorskip("numpy")
import toggle  # noqa: E402

BIG = (1 << 61) - 1  # a Mersenne prime


def rref(a, p):
    """Reduced row echelon form mod p (Python ints), and the pivot columns."""
    m = [[int(v) % p for v in row] for row in a]
    rows, cols = len(m), len(m[0]) if m else 0
    piv, r = [], 0
    for c in range(cols):
        pr = next((i for i in range(r, rows) if m[i][c]), None)
        if pr is None:
            continue
        m[r], m[pr] = m[pr], m[r]
        inv = pow(m[r][c], p - 2, p)
        m[r] = [v * inv % p for v in m[r]]
        for i in range(rows):
            if i != r and m[i][c]:
                f = m[i][c]
                m[i] = [(vi - f * vr) % p for vi, vr in zip(m[i], m[r])]
        piv.append(c)
        r += 1
    return m, piv


def reference(a, b, p):
    """(solvable, particular with free variables 0, kernel basis, rank)."""
    n = len(a[0])
    aug = [list(map(int, row)) + [int(bi)] for row, bi in zip(a, b)]
    R, piv = rref(aug, p)
    solvable = n not in piv
    A_R, apiv = rref(a, p)
    free = [c for c in range(n) if c not in apiv]
    kern = []
    for f in free:
        v = [0] * n
        v[f] = 1
        for i, c in enumerate(apiv):
            v[c] = (-A_R[i][f]) % p
        kern.append(v)
    x = None
    if solvable:
        x = [0] * n
        for i, c in enumerate(piv):
            x[c] = R[i][n]
    return solvable, x, kern, len(apiv), A_R


def random_case(rng, p):
    m, n = rng.randint(1, 12), rng.randint(1, 12)
    r = rng.randint(0, min(m, n))  # low rank on purpose, often
    left = [[rng.randrange(p) for _ in range(r)] for _ in range(m)]
    right = [[rng.randrange(p) for _ in range(n)] for _ in range(r)]
    a = [[sum(left[i][t] * right[t][j] for t in range(r)) % p for j in range(n)]
         for i in range(m)]
    if rng.random() < 0.3:
        a[rng.randrange(m)][rng.randrange(n)] = rng.randrange(p)
    b = [rng.randrange(p) for _ in range(m)]
    return a, b


def as_input(a, p, form):
    if form == "dense" and p < (1 << 62):
        return np.array(a, dtype=np.int64)
    if form == "dense":
        return np.array(a, dtype=np.uint64)
    if form == "list":
        return a
    bits = np.array(a, dtype=np.uint8)
    if form == "bits":
        return np.packbits(bits, axis=1)
    words = np.zeros((len(a), (len(a[0]) + 63) // 64), dtype=np.uint64)
    for i, row in enumerate(a):
        for j, v in enumerate(row):
            if v:
                words[i, j // 64] |= np.uint64(1) << np.uint64(j % 64)
    return words


@pytest.mark.parametrize("p,form", [(2, "dense"), (2, "bits"), (2, "words"), (2, "list"),
                                    (3, "dense"), (3, "list"), (BIG, "dense")])
def test_against_independent_elimination(p, form):
    seed = int(os.environ.get("TOGGLE_TEST_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    for trial in range(60):
        a, b = random_case(rng, p)
        n = len(a[0])
        kw = {"packed": form, "cols": n} if form in ("bits", "words") else {}
        A = as_input(a, p, form)
        what = "seed %d trial %d p %d %s" % (seed, trial, p, form)
        solvable, x, kern, rank, R = reference(a, b, p)
        space = toggle.solution_space(A, b, p, **kw)
        assert space.solvable == solvable, what
        assert space.kernel.tolist() == kern, what
        assert toggle.null_space(A, p, **kw).tolist() == kern, what
        assert toggle.rank(A, p, **kw) == rank, what
        assert toggle.row_reduce(A, p, **kw).tolist() == R, what
        if solvable:
            assert space.particular.tolist() == x, what
            assert space.count == p ** len(kern), what
            assert toggle.solve(A, b, p, **kw).tolist() == x, what
        else:
            y = [int(v) for v in space.certificate]
            assert all(sum(y[i] * a[i][j] for i in range(len(a))) % p == 0
                       for j in range(n)), what
            assert sum(yi * bi for yi, bi in zip(y, b)) % p != 0, what
            with pytest.raises(toggle.NoSolutionError):
                toggle.solve(A, b, p, **kw)


def test_dtypes_and_negative_values():
    a = np.array([[1, -1], [2, 0]])
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32):
        arr = np.mod(a, 3).astype(dtype) if np.dtype(dtype).kind == "u" else a.astype(dtype)
        assert toggle.row_reduce(arr, 3).tolist() == [[1, 0], [0, 1]]
    assert toggle.rank(np.array([[True, True], [True, True]]), 2) == 1


def test_composite_modulus_solve_and_prime_only_rank():
    a = [[2, 0], [0, 3]]
    space = toggle.solution_space(a, [2, 3], 6)
    assert space.solvable
    assert space.count == 6
    with pytest.raises(ValueError, match="p = 6 is not prime"):
        toggle.rank(a, 6)


def test_bad_arguments():
    with pytest.raises(TypeError):
        toggle.rank(np.array([[0.5]]), 2)
    with pytest.raises(ValueError, match="p = 1"):
        toggle.rank([[1]], 1)
    with pytest.raises(ValueError, match="packed"):
        toggle.rank(np.zeros((1, 1), dtype=np.uint8), 3, packed="bits", cols=2)
    with pytest.raises(TypeError, match="cols="):
        toggle.rank(np.zeros((1, 1), dtype=np.uint8), 2, packed="bits")
    with pytest.raises(ValueError, match="b must have 2 entries"):
        toggle.solve([[1, 0], [0, 1]], [1], 2)


def test_board():
    board = toggle.Board(5)
    board.press(2, 2).press(0, 0)
    assert board.lights.tolist()[0][:2] == [1, 1]
    assert not board.solved
    presses = board.solve()
    for r, c in np.argwhere(presses):
        board.press(int(r), int(c))
    assert board.solved
    assert board.hint() is None
    board.press(4, 4)
    r, c = board.hint()
    assert 0 <= r < 5 and 0 <= c < 5
    rgb = board.to_rgb(cell_size=3, grid_lines=0, border=0)
    assert rgb.shape == (15, 15, 3) and rgb.dtype == np.uint8
    unsolvable = toggle.Board(4, lights=np.eye(4, dtype=int))  # 4x4 has nullity 4
    try:
        unsolvable.solve()
    except toggle.NoSolutionError:
        pass
