"""Every public entry point checks its arguments before ctypes sees them:
TypeError for a wrong type, ValueError or OverflowError naming the
parameter and the value as the caller wrote it (never ctypes'
ArgumentError, never a wrapped 2**64 - 1)."""

import ctypes

import pytest

import toggle

BIG = 1 << 64


@pytest.fixture(scope="module")
def objs():
    g = toggle.Graph.grid(4)
    s = toggle.System(g, 2)
    sol = s.solve()
    steps = toggle.Steps.of(s)
    opts = toggle.RenderOptions()
    yield {"g": g, "s": s, "sol": sol, "steps": steps, "opts": opts}
    for o in (opts, steps, sol, s, g):
        o.close()


# (name, call with the bad value v, the parameter's name in the message)
CALLS = [
    ("Graph.grid rows", lambda o, v: toggle.Graph.grid(v, 3), "rows"),
    ("Graph.grid cols", lambda o, v: toggle.Graph.grid(3, v), "cols"),
    ("Graph.grid flags", lambda o, v: toggle.Graph.grid(3, 3, flags=v), "flags"),
    ("Graph.stencil rows", lambda o, v: toggle.Graph.stencil(v, 3, [(0, 0)]), "rows"),
    ("Graph.edges n", lambda o, v: toggle.Graph.edges(v, [(0, 1)]), "n"),
    ("Graph.entry", lambda o, v: o["g"].entry(v, 0), "i"),
    ("System modulus", lambda o, v: toggle.System(o["g"], v), "modulus"),
    ("System.parse modulus", lambda o, v: toggle.System.parse("1|1", v), "modulus"),
    ("System.from_matrix modulus", lambda o, v: toggle.System.from_matrix([[1]], [1], v),
     "modulus"),
    ("System.from_packed cols", lambda o, v: toggle.System.from_packed([[1]], [1], v), "cols"),
    ("System.entry", lambda o, v: o["s"].entry(0, v), "j"),
    ("System.rhs", lambda o, v: o["s"].rhs(v), "i"),
    ("System.set_option value", lambda o, v: o["s"].set_option(toggle.SYSTEM_OPT_THREADS, v),
     "value"),
    ("System.threads", lambda o, v: setattr(o["s"], "threads", v), "value"),
    ("Solution.kernel_vector", lambda o, v: o["sol"].kernel_vector(v), "index"),
    ("Solution.kernel_packed", lambda o, v: o["sol"].kernel_packed(v), "index"),
    ("Solution.particular_range", lambda o, v: o["sol"].particular_range(0, v), "length"),
    ("Solution.particular_packed", lambda o, v: o["sol"].particular_packed(v), "offset"),
    ("Solution.radix", lambda o, v: o["sol"].radix(v), "index"),
    ("Solution.count_orbits", lambda o, v: o["sol"].count_orbits(v, 4), "rows"),
    ("Solution.fewest_presses search_limit",
     lambda o, v: o["sol"].fewest_presses(search_limit=v), "search_limit"),
    ("Search threads", lambda o, v: toggle.Search(o["sol"], threads=v), "threads"),
    ("Rng seed", lambda o, v: toggle.Rng(v), "seed"),
    ("Generator seed", lambda o, v: toggle.Generator(o["s"], seed=v), "seed"),
    ("Generator presses", lambda o, v: toggle.Generator(o["s"], presses=v), "presses"),
    ("Steps.add", lambda o, v: o["steps"].add(v, 1), "a"),
    ("Steps.undo", lambda o, v: o["steps"].undo(v), "count"),
    ("Steps.auto", lambda o, v: o["steps"].auto(v), "max_ops"),
    ("chaos_graph rows", lambda o, v: toggle.chaos_graph(v, 3), "rows"),
    ("chaos_graph seed", lambda o, v: toggle.chaos_graph(3, 3, seed=v), "seed"),
    ("grid_nullity rows", lambda o, v: toggle.grid_nullity(v, 3), "rows"),
    ("grid_nullity modulus", lambda o, v: toggle.grid_nullity(3, 3, v), "modulus"),
    ("format_board rows", lambda o, v: toggle.format_board([0], v, 1), "rows"),
    ("parse_board modulus", lambda o, v: toggle.parse_board("01", v), "modulus"),
    ("render rows", lambda o, v: toggle.render([0], v, 1, 2), "rows"),
    ("render modulus", lambda o, v: toggle.render([0], 1, 1, v), "modulus"),
    ("RenderOptions cell_size", lambda o, v: o["opts"].__setitem__("cell_size", v),
     "cell_size"),
    ("RenderOptions.size", lambda o, v: o["opts"].size(v, 3), "rows"),
    ("colormap_color value", lambda o, v: toggle.colormap_color("viridis", v, 3), "value"),
    ("board_symmetry rows", lambda o, v: toggle.board_symmetry([0], v, 1), "rows"),
    ("symmetry_of_shape", lambda o, v: toggle.symmetry_of_shape(v, 3), "rows"),
    ("Board rows", lambda o, v: toggle.Board(v), "rows"),
    ("Board modulus", lambda o, v: toggle.Board(3, modulus=v), "modulus"),
    ("rank p", lambda o, v: toggle.rank([[1]], v), "p"),
]


@pytest.mark.parametrize("name,fn,param", CALLS, ids=[c[0] for c in CALLS])
def test_wrong_type_negative_and_too_large(objs, name, fn, param):
    for bad in ("3", 2.0, None if param not in ("cols",) else "x", [1]):
        if bad is None:
            continue
        with pytest.raises(TypeError) as err:
            fn(objs, bad)
        assert not isinstance(err.value, ctypes.ArgumentError), name
    with pytest.raises(ValueError) as err:
        fn(objs, -1)
    assert "%s = -1" % param in str(err.value), (name, str(err.value))
    with pytest.raises((OverflowError, ValueError)) as err:
        fn(objs, BIG)
    assert str(BIG) in str(err.value), (name, str(err.value))


def test_unknown_keywords_are_type_errors(objs):
    with pytest.raises(TypeError):
        toggle.Graph.grid(3, 3, colour=1)
    with pytest.raises(TypeError, match="unknown render option 'colour'"):
        toggle.render([0], 1, 1, 2, colour=1)
    with pytest.raises(TypeError):
        objs["sol"].fewest_presses(budget=3)
