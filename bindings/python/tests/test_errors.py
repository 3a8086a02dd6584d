"""Errors, ownership and threads across the ctypes boundary."""

import gc
import os
import subprocess
import sys
import threading

import pytest

import toggle

PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_error_carries_status_and_message():
    with pytest.raises(toggle.ParseError) as info:
        toggle.System.parse("110|1\n11|0\n", 2)
    err = info.value
    assert err.status == toggle.EPARSE == -4
    assert err.name == "TOGGLE_EPARSE"
    assert "line 2" in err.message
    assert "TOGGLE_EPARSE" in str(err) and isinstance(err, ValueError)
    assert toggle.last_error() == err.message


def test_status_names():
    assert toggle.status_name(0) == "TOGGLE_OK"
    assert toggle.status_name(-1) == "TOGGLE_EINVAL"
    assert toggle.status_name(-10) == "TOGGLE_ITEROVER"
    assert toggle.status_name(12345) == "TOGGLE_UNKNOWN"


@pytest.mark.parametrize("call,exc", [
    (lambda: toggle.Graph.grid(0, 3), toggle.InvalidArgumentError),
    (lambda: toggle.Graph.grid(3, 3, flags=64), toggle.InvalidArgumentError),
    (lambda: toggle.System(toggle.Graph.grid(2), 1), toggle.InvalidArgumentError),
    (lambda: toggle.System(toggle.Graph.grid(2), 2, start=[0, 0, 0, 2]), toggle.RangeError),
    (lambda: toggle.System.from_matrix([[3]], [0], 3), toggle.RangeError),
    (lambda: toggle.Graph.edges(3, [(0, 5)]), toggle.RangeError),
    (lambda: toggle.Graph.edges(3, [(1, 1)]), toggle.InvalidArgumentError),
    (lambda: toggle.Graph.adjacency([[0, 1], [0, 0]]), toggle.InvalidArgumentError),
    (lambda: toggle.grid_nullity(4, 4, 1), toggle.InvalidArgumentError),
])
def test_misuse_raises(call, exc):
    with pytest.raises(exc) as info:
        call()
    assert info.value.name == toggle.status_name(info.value.status)
    assert info.value.message


def test_python_side_validation():
    with pytest.raises(ValueError):
        toggle.System(toggle.Graph.grid(2), 2, start=[0, 0])  # wrong length
    with pytest.raises(ValueError):
        toggle.System.from_matrix([[1, -1]], [0], 3)
    with pytest.raises(ValueError):
        toggle.Graph.matrix([[1, 0, 0], [0, 1, 0]])


def test_close_is_deterministic_and_idempotent():
    g = toggle.Graph.grid(3)
    s = toggle.System(g, 2)
    g.close()
    g.close()
    assert g.closed
    with pytest.raises(ValueError):
        g.cells
    # The system holds its own reference to the graph.
    with s.solve() as sol:
        assert sol.solvable
    view = s.graph
    assert view.cells == 9 and view.shape == (3, 3)
    view.close()  # borrowed: does not free
    assert s.graph.cells == 9
    view = s.graph
    s.close()
    with pytest.raises(ValueError):
        view.cells  # the owner is closed


def test_solution_outlives_system():
    with toggle.System(toggle.Graph.grid(4), 2) as s:
        sol = s.solve()
    assert sol.nullity == 4
    sol.close()


def test_garbage_collector_frees():
    for _ in range(200):
        s = toggle.System(toggle.Graph.grid(6), 2)
        s.solve()
    del s
    gc.collect()


def test_constructor_needs_classmethods():
    with pytest.raises(TypeError):
        toggle.Graph()
    with pytest.raises(TypeError):
        toggle.Solution()


def test_threads_share_a_graph_and_keep_errors_apart():
    g = toggle.Graph.grid(9)
    failures = []

    def work(i):
        try:
            for _ in range(20):
                with toggle.System(g, 2) as s, s.solve() as sol:
                    assert sol.nullity == 8
                with pytest.raises(toggle.ParseError) as info:
                    toggle.System.parse("1|1\n11|1\n" if i % 2 else "x|1\n", 2)
                assert ("line 2" in info.value.message) == bool(i % 2)
        except Exception as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    g.close()
    assert not failures


def _run(code, **env):
    full = dict(os.environ)
    # the child imports the package from the checkout (cwd): point it at the
    # library this process loaded, unless the test is about the lookup itself
    # (an installed package finds its library from its own record, the
    # checkout's copy only from the environment or ./build)
    if "TOGGLE_LIBRARY" not in env and "TOGGLE_BUILD_DIR" not in env:
        full.setdefault("TOGGLE_LIBRARY", toggle.library_path)
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], env=full, cwd=PKG,
                          capture_output=True, text=True)


def test_library_lookup_env_var_wins():
    path = toggle.library_path
    out = _run("import toggle; print(toggle.library_path)", TOGGLE_LIBRARY=path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == path
    bad = _run("import toggle", TOGGLE_LIBRARY="/nonexistent/libtoggle.so.1")
    assert bad.returncode != 0 and "TOGGLE_LIBRARY" in bad.stderr


def test_library_lookup_build_tree():
    build = os.path.dirname(os.path.dirname(os.path.abspath(toggle.library_path)))
    out = _run("import toggle; print(toggle.library_path)", TOGGLE_LIBRARY="",
               TOGGLE_BUILD_DIR=build)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == os.path.join(build, "lib", "libtoggle.so.1")


def test_version_mismatch_is_refused():
    code = ("import toggle._ffi as f, sys; f.EXPECTED_MAJOR = 2\n"
            "try:\n    f._check_version()\nexcept ImportError as e:\n"
            "    print(e); sys.exit(3)\n")
    out = _run(code)
    assert out.returncode == 3 and "needs major version 2" in out.stdout


def test_lists_without_numpy():
    out = _run("import toggle; s = toggle.System(toggle.Graph.grid(3), 2); "
               "x = s.solve().particular(); print(type(x).__name__, x, toggle.HAVE_NUMPY)",
               TOGGLE_NO_NUMPY="1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "list [1, 0, 1, 0, 1, 0, 1, 0, 1] False"
