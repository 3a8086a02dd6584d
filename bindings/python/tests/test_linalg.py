"""The numpy layer (toggle.solve, null_space, rank, row_reduce,
solution_space) against an independent Gauss-Jordan elimination written
here in numpy (vectorised row operations; int64 for p < 2^31, Python ints
in object arrays above), on random matrices over 2, 3, 2^31 - 1 and
2^61 - 1, dense (several dtypes, lists, negative values) and bit-packed
for p = 2 (numpy.packbits bytes and uint64 words, with padding, longer
strides and non-contiguous views). Each test prints its seed (shown on
failure; TOGGLE_TEST_SEED replays it) and names it in every assertion."""

import os
import random

import pytest

np = pytest.importorskip("numpy")
import toggle  # noqa: E402

BIG = (1 << 61) - 1  # a Mersenne prime: entries times entries overflow int64
MID = (1 << 31) - 1  # a Mersenne prime: products fit int64


def seed_of(name):
    seed = int(os.environ.get("TOGGLE_TEST_SEED", random.randrange(1 << 30)))
    print("%s: seed %d (replay with TOGGLE_TEST_SEED=%d)" % (name, seed, seed))
    return seed


def np_rref(M, p):
    """Reduced row echelon form of M over GF(p) by numpy row operations, and
    the pivot columns. Nothing of toggle is used."""
    dtype = np.int64 if p < (1 << 31) else object
    R = np.array(M, dtype=dtype) % p
    m, n = R.shape
    piv, r = [], 0
    for c in range(n):
        if r == m:
            break
        nz = np.flatnonzero(R[r:, c] != 0)
        if nz.size == 0:
            continue
        i = r + int(nz[0])
        R[[r, i]] = R[[i, r]]
        R[r] = R[r] * pow(int(R[r, c]), p - 2, p) % p
        f = R[:, c].copy()
        f[r] = 0
        R = (R - np.outer(f, R[r])) % p
        piv.append(c)
        r += 1
    return R, piv


def reference(a, b, p):
    """(solvable, particular with free variables 0, kernel basis, rank, RREF)
    from np_rref: the canonical answers the library promises."""
    a = np.array(a, dtype=object)
    m, n = a.shape
    RA, apiv = np_rref(a, p)
    free = [c for c in range(n) if c not in apiv]
    kern = np.zeros((len(free), n), dtype=object)
    for t, f in enumerate(free):
        kern[t, f] = 1
        for i, c in enumerate(apiv):
            kern[t, c] = (-RA[i, f]) % p
    aug = np.concatenate([a, np.array(b, dtype=object).reshape(m, 1)], axis=1)
    R, piv = np_rref(aug, p)
    solvable = n not in piv
    x = None
    if solvable:
        x = np.zeros(n, dtype=object)
        for i, c in enumerate(piv):
            x[c] = R[i, n]
    as_int = lambda v: [[int(e) for e in row] for row in v]  # noqa: E731
    return (solvable, None if x is None else [int(e) for e in x], as_int(kern), len(apiv),
            as_int(RA))


def random_case(rng, p, max_rows, max_cols):
    """A random m x n matrix of random (often low) rank, and a random b."""
    m, n = rng.randint(1, max_rows), rng.randint(1, max_cols)
    r = rng.randint(0, min(m, n))
    left = np.array([[rng.randrange(p) for _ in range(r)] for _ in range(m)], dtype=object)
    right = np.array([[rng.randrange(p) for _ in range(n)] for _ in range(r)], dtype=object)
    a = (left.dot(right) % p if r else np.zeros((m, n), dtype=object)).reshape(m, n)
    if rng.random() < 0.3:
        a[rng.randrange(m), rng.randrange(n)] = rng.randrange(p)
    b = [rng.randrange(p) for _ in range(m)]
    return [[int(v) for v in row] for row in a], b


def pack_words(a, stride=None):
    """Independent packer: column j is bit j % 64 of word j // 64 (shifts)."""
    bits = np.array(a, dtype=np.uint64)
    m, n = bits.shape
    nwords = (n + 63) // 64 if stride is None else stride
    words = np.zeros((m, nwords), dtype=np.uint64)
    for j in range(n):
        words[:, j // 64] |= bits[:, j] << np.uint64(j % 64)
    return words


def as_input(a, p, form, rng):
    """a in the given input form: (array, keywords for the call)."""
    n = len(a[0])
    if form == "list":
        return a, {}
    if form == "negative":  # the same values, some written as v - p
        arr = np.array(a, dtype=object)
        mask = np.array([[rng.random() < 0.5 for _ in row] for row in a])
        arr[mask] -= p
        return (arr.astype(np.int64) if p < (1 << 62) else arr), {}
    if form == "dense":
        dtype = rng.choice([np.uint8, np.int16, np.int32, np.int64, np.uint64]) if p < 128 \
            else (np.int64 if p < (1 << 62) else np.uint64)
        return np.array(a, dtype=dtype), {}
    if form == "bits":
        packed = np.packbits(np.array(a, dtype=np.uint8), axis=1)
        if rng.random() < 0.5:  # extra bytes and set padding bits: ignored
            extra = np.full((len(a), 2), 0xFF, dtype=np.uint8)
            packed = np.concatenate([packed, extra], axis=1)
            if n % 8:
                packed[:, n // 8] |= np.uint8(1)
        return packed, {"packed": "bits", "cols": n}
    if form == "words":
        words = pack_words(a, (n + 63) // 64 + rng.randrange(2))
        choice = rng.randrange(3)
        if choice == 1 and (n % 64 or words.shape[1] > (n + 63) // 64):
            words[:, -1] |= np.uint64(1) << np.uint64(63)  # a padding bit: ignored
        elif choice == 2:  # a non-contiguous view
            wide = np.zeros((len(a), words.shape[1] * 2), dtype=np.uint64)
            wide[:, ::2] = words
            words = wide[:, ::2]
        return words, {"packed": "words", "cols": n}
    raise AssertionError(form)


CASES = [(2, "dense", 40, 150), (2, "list", 20, 70), (2, "bits", 40, 150),
         (2, "words", 40, 200), (2, "negative", 12, 12),
         (3, "dense", 20, 30), (3, "list", 12, 12), (3, "negative", 15, 15),
         (MID, "dense", 12, 14), (MID, "negative", 10, 10),
         (BIG, "dense", 10, 12), (BIG, "negative", 8, 8), (BIG, "list", 8, 8)]


@pytest.mark.parametrize("p,form,max_rows,max_cols", CASES)
def test_against_independent_numpy_elimination(p, form, max_rows, max_cols):
    seed = seed_of("p=%d %s" % (p, form))
    rng = random.Random(seed)
    for trial in range(40):
        a, b = random_case(rng, p, max_rows, max_cols)
        n = len(a[0])
        A, kw = as_input(a, p, form, rng)
        what = "seed %d trial %d p %d %s (%d x %d)" % (seed, trial, p, form, len(a), n)
        solvable, x, kern, rank, R = reference(a, b, p)
        space = toggle.solution_space(A, b, p, **kw)
        assert space.solvable == solvable, what
        assert space.kernel.dtype == np.uint64 and space.kernel.shape == (len(kern), n), what
        assert space.kernel.tolist() == kern, what
        assert toggle.null_space(A, p, **kw).tolist() == kern, what
        assert toggle.rank(A, p, **kw) == rank, what
        assert toggle.row_reduce(A, p, **kw).tolist() == R, what
        if solvable:
            assert space.particular.tolist() == x, what
            assert space.count == p ** len(kern), what
            assert toggle.solve(A, b, p, **kw).tolist() == x, what
        else:
            assert space.count == 0 and space.particular is None, what
            y = np.array([int(v) for v in space.certificate], dtype=object)
            assert not (y.dot(np.array(a, dtype=object)) % p).any(), what
            assert int(y.dot(np.array(b, dtype=object))) % p != 0, what
            with pytest.raises(toggle.NoSolutionError) as err:
                toggle.solve(A, b, p, **kw)
            assert err.value.certificate.tolist() == space.certificate.tolist(), what


def test_packed_and_dense_agree_on_large_gf2():
    seed = seed_of("large gf2")
    rng = np.random.default_rng(seed)
    a = (rng.random((300, 700)) < 0.5).astype(np.uint8)
    a[:, 650:] = a[:, :50]  # a known part of the kernel
    want = np_rref(a, 2)[1]
    for A, kw in ((a, {}), (np.packbits(a, axis=1), {"packed": "bits", "cols": 700}),
                  (pack_words(a), {"packed": "words", "cols": 700})):
        assert toggle.rank(A, 2, **kw) == len(want), seed
        kern = toggle.null_space(A, 2, **kw)
        assert kern.shape == (700 - len(want), 700), seed
        assert not (a.astype(np.int64).dot(kern.T.astype(np.int64)) % 2).any(), seed


def test_uint64_words_are_not_copied():
    from toggle import _linalg
    words = pack_words([[1, 0, 1], [0, 1, 1]])
    assert _linalg._packed(words, "words", 3)[0] is words


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


@pytest.mark.parametrize("kw", [{"lattice": "hex"}, {"lattice": "tri"}, {"cylinder": True},
                                {"torus": True}, {"moore": True}])
def test_board_on_every_lattice(kw):
    board = toggle.Board(5, 6, **kw)
    with toggle.Graph.grid(5, 6, **kw) as g:
        for r, c in ((0, 0), (2, 3), (4, 5)):
            before = board.lights.reshape(-1).astype(np.int64).copy()
            board.press(r, c)
            column = np.array([g.entry(i, r * 6 + c) for i in range(30)], dtype=np.int64)
            after = board.lights.reshape(-1).astype(np.int64)
            assert ((after - before) % 2).tolist() == (column % 2).tolist(), (kw, r, c)
    try:
        presses = board.solve()
    except toggle.NoSolutionError:
        return
    for r, c in np.argwhere(presses):
        board.press(int(r), int(c), int(presses[r, c]))
    assert board.solved
