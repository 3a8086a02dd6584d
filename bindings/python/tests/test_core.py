"""Graphs, systems, solutions: known answers checked independently."""

import pytest

import toggle
from helpers import tolist, mat_vec, vec_mat, grid_matrix

A159257 = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]


def test_version():
    assert toggle.version_number() // 10000 == toggle._ffi.EXPECTED_MAJOR
    assert toggle.version().startswith("%d." % toggle._ffi.EXPECTED_MAJOR)


@pytest.mark.parametrize("k,expected", [(2, "101010101"), (3, "020222020"), (5, "414121414")])
def test_three_by_three(arrays, k, expected):
    with toggle.Graph.grid(3) as g, toggle.System(g, modulus=k) as s, s.solve() as sol:
        assert sol.solvable and bool(sol)
        assert sol.nullity == 0 and sol.count == 1
        x = sol.particular()
        assert "".join(str(v) for v in tolist(x)) == expected
        assert s.check(x)
        assert mat_vec(grid_matrix(3, 3), tolist(x), k) == [1] * 9
        if arrays == "numpy":
            assert x.dtype.name == "uint64" and x.shape == (9,)
        else:
            assert isinstance(x, list)


def test_nullity_a159257(arrays):
    for n, d in enumerate(A159257, start=1):
        assert toggle.grid_nullity(n, n, 2) == d
        if n <= 12:
            with toggle.System(toggle.Graph.grid(n), 2) as s, s.solve() as sol:
                assert sol.nullity == d
                assert sol.count == 2 ** d
                kernel = tolist(sol.kernel())
                assert len(kernel) == d
                a = grid_matrix(n, n)
                for v in kernel:
                    assert any(v) and mat_vec(a, v, 2) == [0] * (n * n)
                assert mat_vec(a, tolist(sol.particular()), 2) == [1] * (n * n)


def test_unsolvable_with_certificate(arrays):
    # 2 x 2 over F_3 has no all-ones pattern solution.
    with toggle.Graph.grid(2) as g, g.system(3) as s, s.solve() as sol:
        assert not sol.solvable
        assert sol.count == 0
        y = sol.certificate()
        a = grid_matrix(2, 2)
        assert vec_mat(tolist(y), a, 3) == [0] * 4
        assert sum(int(v) for v in tolist(y)) % 3 == 1
        assert s.check_certificate(y)
        with pytest.raises(toggle.NoSolutionError) as info:
            sol.particular()
        assert info.value.name == "TOGGLE_ENOSOLUTION"
        assert info.value.status == toggle.ENOSOLUTION


def test_solvable_has_no_certificate():
    with toggle.System(toggle.Graph.grid(3), 2) as s, s.solve() as sol:
        assert sol.certificate() is None


def test_start_and_target(arrays):
    # Lights Out: the lit cells of a puzzle, turned off.
    start = [1, 0, 0, 0, 0, 0, 0, 0, 0]
    with toggle.Graph.grid(3) as g:
        with toggle.System(g, 2, start=start, target=[0] * 9) as s, s.solve() as sol:
            x = tolist(sol.particular())
            assert [(s0 + v) % 2 for s0, v in zip(start, mat_vec(grid_matrix(3, 3), x, 2))] \
                == [0] * 9
            assert tolist(s.rhs()) == [1] + [0] * 8


def test_from_matrix_and_text_roundtrip(arrays):
    a = [[1, 1, 0], [0, 1, 1]]
    with toggle.System.from_matrix(a, [1, 0], 2) as s:
        assert (s.rows, s.cols, s.modulus) == (2, 3, 2)
        assert s.graph is None
        text = s.write()
        assert text == "110|1\n011|0\n"
        with toggle.System.parse(text, 2) as t, t.solve() as sol:
            assert sol.nullity == 1 and sol.count == 2
            assert mat_vec(a, tolist(sol.particular()), 2) == [1, 0]
            assert [[t.entry(i, j) for j in range(3)] for i in range(2)] == a


def test_numpy_matrix_input():
    np = pytest.importorskip("numpy")
    a = np.array([[1, 2], [0, 1]], dtype=np.int64)
    with toggle.System.from_matrix(a, np.array([1, 1]), 3) as s, s.solve() as sol:
        x = sol.particular()
        assert isinstance(x, np.ndarray)
        assert ((a.astype(np.uint64) @ x) % 3 == 1).all()


def test_big_count_is_exact():
    # 1 x 70 zero matrix over F_2: 2^70 solutions, more than a uint64 holds.
    with toggle.System.from_matrix([[0] * 70], [0], 2) as s, s.solve() as sol:
        assert sol.nullity == 70
        assert sol.count == 2 ** 70


def test_composite_modulus_count():
    with toggle.System.from_matrix([[2]], [0], 4) as s:
        try:
            sol = s.solve()
        except toggle.UnsupportedError as exc:
            pytest.skip("composite moduli not in this build: %s" % exc.message)
        with sol:
            assert sol.solvable
            assert sol.count == 2  # x in {0, 2}


def test_graph_constructors_agree(arrays):
    edges = [(0, 1), (0, 2), (1, 3), (2, 3)]  # the 2 x 2 grid
    adj = [[0] * 4 for _ in range(4)]
    for u, v in edges:
        adj[u][v] = adj[v][u] = 1
    text = "nodes 4\n# a square\n0 1\n0 2\n1 3\n\n2 3\n"
    graphs = [toggle.Graph.edges(4, edges), toggle.Graph.adjacency(adj),
              toggle.Graph.parse_edges(text), toggle.Graph.grid(2, 2)]
    mats = [tolist(g.to_matrix()) for g in graphs]
    assert all(m == mats[0] for m in mats)
    assert graphs[0].kind == "matrix" and graphs[3].kind == "grid"
    assert graphs[3].shape == (2, 2) and graphs[0].shape is None
    assert len(graphs[0]) == 4
    for g in graphs:
        g.close()


def test_grid_flags_and_stencil():
    with toggle.Graph.grid(3, 4, torus=True, no_self=True) as g:
        assert g.flags == toggle.GRID_TORUS | toggle.GRID_NO_SELF
        assert g.entry(0, 0) == 0 and g.entry(0, 3) == 1  # wraps
    with toggle.Graph.stencil(3, 3, [(0, 0), (1, 1), (-1, -1)], [1, 2, 3]) as g:
        assert g.kind == "stencil"
        assert g.entry(4, 0) == 2 and g.entry(0, 4) == 3
    with toggle.Graph.matrix([[1, 1], [0, 1]]) as g:
        assert g.entry(0, 1) == 1 and g.entry(1, 0) == 0


def test_options():
    with toggle.System(toggle.Graph.grid(4), 2) as s:
        assert s.engine == "auto"
        # the general prime engine of this build: flint, or dense without FLINT
        try:
            prime, code = "flint", toggle.engine_from_name("flint")
            assert code == toggle.ENGINE_FLINT
        except toggle.InvalidArgumentError:
            prime, code = "dense", toggle.ENGINE_DENSE
        s.engine = prime
        assert s.get_option(toggle.OPT_ENGINE) == code
        with s.solve() as sol:
            assert sol.engine == prime
        s.engine = "dense"
        assert s.get_option(toggle.OPT_ENGINE) == toggle.ENGINE_DENSE
        with s.solve() as sol:
            assert sol.engine == "dense" and sol.nullity == 4
        s.engine = toggle.ENGINE_GF2
        with s.solve() as sol:
            assert sol.engine == "gf2" and sol.nullity == 4
        assert s.memory_budget == toggle.DEFAULT_MEMORY_BUDGET
        s.memory_budget = 16
        with pytest.raises(toggle.OutOfMemoryError) as info:
            s.solve()
        assert info.value.name == "TOGGLE_ENOMEM" and info.value.message
        s.search_limit = 1000
        assert s.search_limit == 1000
        s.search_limit = 0  # unlimited, read back as 2^64 - 1
        assert s.search_limit == (1 << 64) - 1
        with pytest.raises(toggle.InvalidArgumentError):
            s.engine = "no-such-engine"


def test_threads_option():
    s = toggle.System(toggle.Graph.grid(3, 3), 2)
    assert s.threads == 1 and toggle.SYSTEM_OPT_THREADS == toggle.OPT_THREADS == 10
    s.threads = 0
    assert s.threads == 0
    s.threads = 2
    assert s.solve().nullity == 0
    with pytest.raises(toggle.InvalidArgumentError):
        s.threads = 5000


def test_option_keys_per_handle():
    # the per-handle names keep the values of the 1.0 names, which stay
    assert (toggle.SYSTEM_OPT_ENGINE, toggle.SYSTEM_OPT_MEMORY_BUDGET,
            toggle.SYSTEM_OPT_SEARCH_LIMIT) == (1, 2, 3)
    assert (toggle.OPT_ENGINE, toggle.OPT_MEMORY_BUDGET, toggle.OPT_SEARCH_LIMIT) == (1, 2, 3)
    assert (toggle.SEARCH_OPT_SEARCH_LIMIT, toggle.SEARCH_OPT_METRIC) == (3, 4)
    assert (toggle.GENERATOR_OPT_SEARCH_LIMIT, toggle.GENERATOR_OPT_METRIC,
            toggle.GENERATOR_OPT_SEED, toggle.GENERATOR_OPT_UNIQUE,
            toggle.GENERATOR_OPT_PRESSES, toggle.GENERATOR_OPT_LIT,
            toggle.GENERATOR_OPT_ATTEMPTS) == (3, 4, 5, 6, 7, 8, 9)
    with toggle.System(toggle.Graph.grid(3), 2) as s:
        s.set_option(toggle.SYSTEM_OPT_ENGINE, toggle.ENGINE_GF2)
        assert s.get_option(toggle.OPT_ENGINE) == toggle.ENGINE_GF2
        with pytest.raises(toggle.InvalidArgumentError) as info:
            s.set_option(toggle.SEARCH_OPT_METRIC, 0)
        assert info.value.message == ("TOGGLE_SEARCH_OPT_METRIC (4) is an option of a search "
                                      "(and of a generator), not of a system")
        with pytest.raises(toggle.InvalidArgumentError) as info:
            s.get_option(toggle.GENERATOR_OPT_SEED)
        assert "TOGGLE_GENERATOR_OPT_SEED (5) is an option of a generator" in info.value.message
        with toggle.Generator(s) as gen:
            with pytest.raises(toggle.InvalidArgumentError) as info:
                gen.set_option(toggle.SYSTEM_OPT_ENGINE, 0)
            assert "is an option of a system, not of a generator" in info.value.message
def test_blas_engine_when_built():
    """The blas engine (builds with -Dblas) gives FLINT's canonical answers."""
    try:
        code = toggle.engine_from_name("blas")
    except toggle.InvalidArgumentError:
        pytest.skip("this build has no blas engine")
    assert code == toggle.ENGINE_BLAS
    answers = []
    for engine in ("flint", "blas"):
        with toggle.System(toggle.Graph.grid(5, 5, toggle.GRID_TORUS), 3) as s:
            s.engine = engine
            with s.solve() as sol:
                assert sol.engine == engine
                answers.append((sol.nullity, [tolist(v) for v in sol.kernel()]))
    assert answers[0] == answers[1]


def test_boards(arrays):
    cells, rows, cols = toggle.parse_board("101\n.1.\n", 2)
    assert (tolist(cells), rows, cols) == ([1, 0, 1, 0, 1, 0], 2, 3)
    assert toggle.format_board(cells, rows, cols, 2) == "101\n010\n"
    with pytest.raises(toggle.ParseError):
        toggle.parse_board("10\n1\n", 2)


def test_particular_range_and_packed(arrays):
    with toggle.System(toggle.Graph.grid(3), 2) as s, s.solve() as sol:
        full = tolist(sol.particular())
        assert tolist(sol.particular_range(3, 3)) == full[3:6]
        words = tolist(sol.particular_packed(0, 9))
        assert words == [sum(b << i for i, b in enumerate(full))]


def _hex_matrix(rows, cols):
    """odd-r hexagonal lattice plus self, by this file's own neighbour code."""
    n = rows * cols
    a = [[0] * n for _ in range(n)]
    for r in range(rows):
        for c in range(cols):
            nb = [(r, c), (r, c - 1), (r, c + 1)]
            d = [-1, 0] if r % 2 == 0 else [0, 1]
            nb += [(r + dr, c + e) for dr in (-1, 1) for e in d]
            for rr, cc in nb:
                if 0 <= rr < rows and 0 <= cc < cols:
                    a[rr * cols + cc][r * cols + c] += 1
    return a


def test_hex_lattice_transfer_engine():
    with toggle.Graph.grid(6, 7, lattice="hex") as g, toggle.System(g, modulus=3) as s:
        with s.solve() as sol:
            assert sol.engine == "transfer"
            if sol.solvable:
                x = tolist(sol.particular())
                assert mat_vec(_hex_matrix(6, 7), x, 3) == [1] * 42
    assert toggle.Graph.grid(3, 4, cylinder=True, lattice="tri").flags == (
        toggle.GRID_CYLINDER | toggle.GRID_TRI)
    with pytest.raises(ValueError):
        toggle.Graph.grid(3, lattice="pentagon")
