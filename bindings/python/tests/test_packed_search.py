"""The 1.1 additions reached from Python: packed systems and kernels,
search costs, forbidden cells and the bound, the threads option of a
search, count_u64, colormap_is_qualitative, clear_error, lattices in
grid_nullity. Checked against brute force and independent code here."""

import itertools
import os
import random

import pytest

import toggle
from helpers import grid_matrix, mat_vec, tolist

np = pytest.importorskip("numpy")


def pack_rows(a, stride):
    """Independent packer: (m, stride) uint64 words, column j = bit j % 64 of word j // 64."""
    w = np.zeros((len(a), stride), dtype=np.uint64)
    for i, row in enumerate(a):
        for j, v in enumerate(row):
            if v:
                w[i, j // 64] |= np.uint64(1) << np.uint64(j % 64)
    return w


def test_from_packed_equals_from_matrix():
    seed = int(os.environ.get("TOGGLE_TEST_SEED", random.randrange(1 << 30)))
    print("seed", seed)
    rng = random.Random(seed)
    for trial in range(20):
        m, n = rng.randint(1, 90), rng.randint(1, 150)
        a = [[rng.randrange(2) for _ in range(n)] for _ in range(m)]
        b = [rng.randrange(2) for _ in range(m)]
        stride = (n + 63) // 64 + rng.randrange(2)  # a stride longer than the row
        words = pack_rows(a, stride)
        if stride > (n + 63) // 64 or n % 64:  # bit 63 of the last word is padding:
            words[:, -1] |= np.uint64(1) << np.uint64(63)  # ignored, whatever it holds
        what = "seed %d trial %d" % (seed, trial)
        with toggle.System.from_packed(words, b, n) as s, \
                toggle.System.from_matrix(a, b, 2) as t:
            assert (s.rows, s.cols, s.modulus) == (m, n, 2), what
            assert s.write() == t.write(), what
            with s.solve() as x, t.solve() as y:
                assert x.solvable == y.solvable and x.nullity == y.nullity, what
                for i in range(x.nullity):
                    kp = x.kernel_packed(i)
                    assert kp.tolist() == pack_rows([tolist(x.kernel_vector(i))],
                                                    (n + 63) // 64)[0].tolist(), what
                    assert tolist(x.kernel_vector(i)) == tolist(y.kernel_vector(i)), what
                    if n > 3:
                        part = x.kernel_packed(i, 2, n - 3)
                        v = tolist(x.kernel_vector(i))[2:n - 1]
                        assert part.tolist() == pack_rows([v], (n - 3 + 63) // 64)[0].tolist()


def test_from_packed_checks_its_arguments():
    w = np.zeros((2, 1), dtype=np.uint64)
    with pytest.raises(ValueError, match="b must have 2 entries"):
        toggle.System.from_packed(w, [1], 3)
    with pytest.raises(ValueError, match="not 0 or 1"):
        toggle.System.from_packed(w, [0, 2], 3)
    with pytest.raises(ValueError, match="does not fit 1 words"):
        toggle.System.from_packed(w, [0, 1], 65)
    with pytest.raises(TypeError, match="uint64"):
        toggle.System.from_packed(np.zeros((2, 1), dtype=float), [0, 1], 3)
    with pytest.raises(ValueError, match="cols = -1"):
        toggle.System.from_packed(w, [0, 1], -1)
    with toggle.System(toggle.Graph.grid(3), 3) as s, s.solve() as sol:
        with pytest.raises(toggle.UnsupportedError):
            sol.kernel_packed(0)
    with toggle.System(toggle.Graph.grid(4), 2) as s, s.solve() as sol:
        with pytest.raises(toggle.RangeError):
            sol.kernel_packed(4)


def weight(x, cost, metric):
    return sum(c * (v if metric == "presses" else 1) for v, c in zip(x, cost) if v)


@pytest.mark.parametrize("k", [2, 3])
def test_costs_forbidden_cells_and_bound_by_brute_force(k, arrays):
    seed = int(os.environ.get("TOGGLE_TEST_SEED", random.randrange(1 << 30)))
    print("seed", seed)
    rng = random.Random(seed)
    size = 4 if k == 2 else 3  # 4x4 mod 2: nullity 4; 3x3 mod 3: check below
    a = grid_matrix(size, size)
    n = size * size
    with toggle.System(toggle.Graph.grid(size), k) as s, s.solve() as sol:
        every = [tolist(x) for x in sol]
        for trial in range(6):
            cost = [rng.randint(0, 5) for _ in range(n)]
            forbid = set(rng.sample(range(n), rng.randint(0, 3)))
            costs = [None if j in forbid else cost[j] for j in range(n)]
            if trial % 2:
                costs = [toggle.COST_FORBIDDEN if c is None else c for c in costs]
            allowed = [x for x in every if not any(x[j] for j in forbid)]
            for metric in ("cells", "presses"):
                what = "seed %d trial %d %s" % (seed, trial, metric)
                with toggle.Search(sol, metric=metric, costs=costs) as search:
                    if not allowed:
                        with pytest.raises(toggle.NoSolutionError):
                            search.run()
                        continue
                    best = search.run()
                    want = min(weight(x, cost, metric) for x in allowed)
                    assert best.proven and best.weight == want, what
                    assert search.bound == want, what
                    x = tolist(best.x)
                    assert mat_vec(a, x, k) == [1 % k] * n, what
                    assert not any(x[j] for j in forbid), what
                    assert weight(x, cost, metric) == want, what
                    again = search.result()
                    assert tolist(again.x) == x and again.weight == want, what
                same = sol.fewest_presses(metric, costs=costs, threads=2)
                assert same.weight == want and same.proven, what


def test_search_threads_give_the_same_answer():
    with toggle.System(toggle.Graph.grid(9), 2) as s, s.solve() as sol:
        one = sol.fewest_presses(threads=1)
        for t in (0, 2, 3):
            with toggle.Search(sol, threads=t) as search:
                other = search.run()
            assert tolist(other.x) == tolist(one.x) and other.weight == one.weight
        with pytest.raises(toggle.InvalidArgumentError):
            toggle.Search(sol, threads=5000)
        with pytest.raises(ValueError, match="threads = -1"):
            toggle.Search(sol, threads=-1)
        with pytest.raises(ValueError, match="costs has 2 entries"):
            toggle.Search(sol, costs=[1, 1])
        with pytest.raises(ValueError, match="costs\\[0\\] = -1"):
            toggle.Search(sol, costs=[-1] * 81)
        with pytest.raises(ValueError, match="metric"):
            toggle.Search(sol, metric="steps")
        with pytest.raises(TypeError):
            toggle.Search("not a solution")


def test_bound_of_a_partial_search():
    with toggle.System(toggle.Graph.grid(16), 2) as s, s.solve() as sol:
        with toggle.Search(sol, search_limit=3) as search:
            best = search.run()
            assert not best.proven or search.bound == best.weight
            assert search.bound <= best.weight


def test_count_u64_qualitative_clear_error_and_lattice_nullity():
    with toggle.System(toggle.Graph.grid(4), 2) as s, s.solve() as sol:
        assert sol.count_u64() == sol.count == 16
    with toggle.System(toggle.Graph.grid(80), 2) as s:
        s.search_limit = 1
        with s.solve() as sol:
            if sol.nullity >= 64:
                with pytest.raises(toggle.OverflowToggleError):
                    sol.count_u64()
    names = toggle.colormaps()
    flags = [toggle.colormap_is_qualitative(name) for name in names]
    assert flags == [toggle.colormap_is_qualitative(i) for i in range(len(names))]
    assert not toggle.colormap_is_qualitative("viridis")
    with pytest.raises(toggle.InvalidArgumentError):
        toggle.colormap_is_qualitative("no-such-map")
    assert toggle.last_error()
    toggle.clear_error()
    assert toggle.last_error() == ""
    for lattice in ("hex", "tri"):
        for rows, cols in itertools.product(range(1, 6), repeat=2):
            with toggle.Graph.grid(rows, cols, lattice=lattice) as g, \
                    toggle.System(g, 2) as s, s.solve() as sol:
                assert toggle.grid_nullity(rows, cols, 2, lattice=lattice) == sol.nullity
    assert toggle.grid_nullity(5, 5, cylinder=True) == toggle.grid_nullity(
        5, 5, flags=toggle.GRID_CYLINDER)
