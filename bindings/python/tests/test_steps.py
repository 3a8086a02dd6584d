"""Row operations step by step through the binding, checked by this file's
own arithmetic (seeded; the seed is in the test name's parameters)."""

import random

import pytest

import toggle
from helpers import tolist, rref_mod as own_rref


def system_of(M, k):
    return toggle.System.from_matrix([r[:-1] for r in M], [r[-1] for r in M], k)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("k", [2, 3, 5, 7])
def test_auto_reaches_own_rref_and_replays(seed, k):
    rng = random.Random(seed * 100 + k)
    m, n = rng.randrange(1, 7), rng.randrange(1, 7)
    x0 = [rng.randrange(k) for _ in range(n)]
    A = [[rng.randrange(k) for _ in range(n)] for _ in range(m)]
    M = [row + [sum(a * x for a, x in zip(row, x0)) % k] for row in A]
    with system_of(M, k) as s, toggle.Steps.of(s) as st, toggle.Steps.of(s) as again:
        st.auto()
        assert st.matrix() == own_rref(M, k)
        rank, reduced, unsolvable = st.status()
        assert reduced and not unsolvable
        x, nullity = st.solution()
        assert all(sum(a * v for a, v in zip(row, tolist(x))) % k == b
                   for row, b in zip(A, (r[-1] for r in M)))
        assert nullity == n - rank
        assert again.apply(st.script()) == st.count
        assert again.matrix() == st.matrix()
        # replay the trace by own arithmetic
        R = [r[:] for r in M]
        for name, a, b, c in st.ops():
            if name == "add":
                R[b] = [(u + c * v) % k for u, v in zip(R[b], R[a])]
            elif name == "scale":
                R[a] = [c * u % k for u in R[a]]
            else:
                assert name == "swap"
                R[a], R[b] = R[b], R[a]
        assert R == st.matrix()


def test_hand_operations_undo_and_errors():
    M = [[1, 2, 3, 1], [0, 1, 4, 2], [2, 0, 1, 0]]
    with system_of(M, 5) as s, toggle.Steps.of(s) as st:
        st.add(0, 2, 3)
        st.move(2, 0)
        assert st.matrix()[0] == [(2 + 3) % 5, 6 % 5, 10 % 5, 3 % 5]
        st.undo(2)
        assert st.matrix() == M and st.redo_count == 2
        st.redo(1)
        assert st.count == 1
        for bad, err in (("frob 1", toggle.ParseError), ("add 0 0", toggle.InvalidArgumentError),
                         ("swap 0 9", toggle.RangeError), ("scale 0 0", toggle.InvalidArgumentError)):
            with pytest.raises(err):
                st.apply(bad)
        assert st.count == 1
        with pytest.raises(toggle.InvalidArgumentError):
            st.solution()  # not reduced yet
        st.auto()
        assert st.status()[1] and st.pivots()
        assert st.system().rows == 3


def test_chaos_graph_reproducible():
    g1 = toggle.chaos_graph(4, 5, 0.5, seed=9)
    g2 = toggle.chaos_graph(4, 5, 0.5, seed=9)
    g3 = toggle.chaos_graph(4, 5, 1.0, radius=1, seed=9)
    with g1, g2, g3:
        a1 = [[g1.entry(i, j) for j in range(20)] for i in range(20)]
        assert a1 == [[g2.entry(i, j) for j in range(20)] for i in range(20)]
        assert all(a1[i][i] == 1 for i in range(20))
        assert all(g3.entry(i, j) == (abs(i // 5 - j // 5) <= 1 and abs(i % 5 - j % 5) <= 1)
                   for i in range(20) for j in range(20))
    with pytest.raises(toggle.InvalidArgumentError):
        toggle.chaos_graph(2, 2, 1.5)
