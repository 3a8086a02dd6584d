"""Solution spaces, the generator, rendering and symmetry through the binding."""

import pytest

import toggle
from helpers import tolist, mat_vec, grid_matrix


def _four_by_four():
    s = toggle.System(toggle.Graph.grid(4), 2)
    return s, s.solve()


def test_iteration_visits_every_solution_once(arrays):
    s, sol = _four_by_four()
    with s, sol:
        seen = [tuple(tolist(x)) for x in sol]
        assert len(seen) == sol.count == 16 and len(set(seen)) == 16
        assert list(seen[0]) == tolist(sol.particular())
        a = grid_matrix(4, 4)
        assert all(mat_vec(a, x, 2) == [1] * 16 for x in seen)
        # Brute force over all 2^16 press vectors gives the same set.
        cols = [sum(a[i][j] << i for i in range(16)) for j in range(16)]
        brute = set()
        for bits in range(1 << 16):
            acc = 0
            for j in range(16):
                if bits >> j & 1:
                    acc ^= cols[j]
            if acc == 0xFFFF:
                brute.add(tuple(bits >> j & 1 for j in range(16)))
        assert brute == set(seen)
        with sol.solutions() as it:
            assert len(list(it)) == 16 and it.produced == 16
            it.reset()
            assert next(it) is not None and it.produced == 1
        assert sol.radix(0) == 2


def test_iteration_of_unsolvable_raises():
    with toggle.System(toggle.Graph.grid(2), 3) as s, s.solve() as sol:
        with pytest.raises(toggle.NoSolutionError):
            iter(sol)


def test_sample_is_reproducible_and_valid(arrays):
    s, sol = _four_by_four()
    with s, sol:
        a = sol.sample(seed=7)
        assert tolist(a) == tolist(sol.sample(seed=7))
        assert s.check(a)
        with toggle.Rng(1) as rng:
            xs = [tuple(tolist(sol.sample(rng))) for _ in range(50)]
            assert len(set(xs)) > 1 and all(s.check(list(x)) for x in xs)
            assert rng.below(10) < 10


def test_fewest_presses_matches_brute_force(arrays):
    s, sol = _four_by_four()
    with s, sol:
        best = sol.fewest_presses()
        assert best.proven and best.visited == 16
        assert best.weight == min(sum(1 for v in tolist(x) if v) for x in sol)
        assert s.check(best.x) and sum(1 for v in tolist(best.x) if v) == best.weight
        assert sol.fewest_presses("presses").weight == best.weight  # k = 2
        partial = sol.fewest_presses(limit=2)
        assert not partial.proven and s.check(partial.x)
        assert not sol.fewest_presses(search_limit=2).proven
        with pytest.raises(TypeError):
            sol.fewest_presses(limit=2, search_limit=2)


def test_search_limit_zero_is_unlimited(arrays):
    # 16x16 over F_2: 256 solutions; a limit of 1 on the system is the
    # default of its searches and generators, and 0 lifts it
    with toggle.System(toggle.Graph.grid(16), 2) as s:
        s.search_limit = 1
        with s.solve() as sol:
            assert not sol.fewest_presses().proven
            for best in (sol.fewest_presses(search_limit=0), sol.fewest_presses(limit=0)):
                assert best.proven and best.visited == 256 and best.weight == 104  # OEIS A075464
                assert s.check(best.x)
        with toggle.Generator(s, presses=3, attempts=20) as gen:
            with pytest.raises(toggle.LimitError):
                gen.next()  # the fewest-press check is never proven
        with toggle.Generator(s, presses=3, attempts=20, search_limit=0) as gen:
            assert gen.next()[1] == 3
        s.search_limit = 0
        with s.solve() as sol:
            assert sol.fewest_presses().proven


def test_generator(arrays):
    with toggle.System(toggle.Graph.grid(5), 2) as s:
        with toggle.Generator(s, seed=3) as gen:
            assert gen.nullity == 2
            start, _ = gen.next()
            with toggle.Generator(s, seed=3) as again:
                assert tolist(again.next()[0]) == tolist(start)
            # Each start is solvable with target 0.
            with toggle.System(toggle.Graph.grid(5), 2, start=start, target=[0] * 25) as p:
                assert p.solve().solvable
        with toggle.Generator(s, seed=1, presses=3) as gen:
            start, presses = next(gen)
            assert presses == 3
        with pytest.raises(toggle.ToggleError):
            toggle.Generator(s, unique=True).next()


def test_render_and_symmetry():
    with toggle.System(toggle.Graph.grid(5), 3) as s, s.solve() as sol:
        x = sol.particular()
        mask, name = toggle.board_symmetry(x, 5, 5)
        assert mask & 0x01 and name
        assert sol.count_orbits(5, 5) >= 1
        img = toggle.render(x, 5, 5, 3, cell_size=2, colormap="magma")
        assert img.startswith(b"P6\n10 10\n255\n") and len(img) == len(b"P6\n10 10\n255\n") + 300
    assert "viridis" in toggle.colormaps()
    assert toggle.colormap_from_name("viridis_r")[1] is True
    assert len(toggle.colormap_color("viridis", 1, 3)) == 3
    with toggle.RenderOptions(border=1) as opts:
        assert opts["border"] == 1 and opts.size(2, 3) == (26, 18)
    assert toggle.symmetry_of_shape(3, 3) == toggle.SYM_ALL


def test_search_checkpoint_resumes_to_the_same_answer():
    # 39 x 39 all-on (d = 32, A075464(39) = 561): stopped by the limit,
    # saved, then continued from its checkpoint with other thread counts
    s = toggle.System(toggle.Graph.grid(39), 2, target=[1] * (39 * 39))
    with s, s.solve() as sol:
        with toggle.Search(sol, threads=2, search_limit=0) as full_search:
            full = full_search.run()
            assert full.proven and full.weight == 561 and full_search.bound == 561
            assert full_search.progress() == (561, 561)
        with toggle.Search(sol, threads=3, search_limit=1 << 26) as part_search:
            part = part_search.run()
            assert part_search.bound <= 561 <= part.weight and part.visited < full.visited
            ck = part_search.save()
        assert isinstance(ck, bytes) and ck
        with toggle.Search(sol, threads=1, search_limit=0) as done_search:
            done_search.resume(ck)
            done = done_search.run()
            assert done.proven and done.weight == 561 and list(done.x) == list(full.x)
            with pytest.raises(toggle.ToggleError):
                done_search.resume(b"not a checkpoint")
            with pytest.raises(TypeError):
                done_search.resume("text")  # type: ignore[arg-type]
    s4 = toggle.System(toggle.Graph.grid(4), 2, target=[1] * 16)
    with s4, s4.solve() as sol4, toggle.Search(sol4) as se4:
        with pytest.raises(toggle.ToggleError):  # when taken or at the run
            se4.resume(ck)
            se4.run()
