"""Progress and cancel: a callback that cancels, Ctrl-C (SIGINT) during a
long solve raising KeyboardInterrupt promptly, argument checks and the
render format."""

import os
import signal
import threading

import pytest

import toggle


def test_callback_reports_and_cancels():
    with toggle.System(toggle.Graph.grid(6, 6), 2) as game:
        seen = []
        game.progress = seen.append
        with game.solve() as sol:
            assert sol.nullity == 0
        assert seen and all(0.0 <= f <= 1.0 for f in seen)
        game.progress = lambda f: True
        with pytest.raises(toggle.CancelledError) as err:
            game.solve()
        assert err.value.status == toggle.ECANCELED == -13
        assert err.value.name == "TOGGLE_ECANCELED"
        game.progress = None
        with game.solve() as sol:
            assert sol.solvable
        with pytest.raises(TypeError):
            game.progress = 5


def test_callback_exception_propagates():
    def boom(fraction):
        raise RuntimeError("from the callback")
    with toggle.System(toggle.Graph.grid(4, 4), 3) as game:
        game.progress = boom
        with pytest.raises(RuntimeError, match="from the callback"):
            game.solve()


main_thread_only = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                      reason="signals reach the main thread only")


def solve_with_sigint(game):
    """Solve with a real SIGINT sent from the first progress report (no
    timing involved): KeyboardInterrupt must come out. Returns the
    fraction of that report."""
    sent = []

    def interrupt_once(fraction):
        if not sent:
            sent.append(fraction)
            os.kill(os.getpid(), signal.SIGINT)
        return False
    game.progress = interrupt_once
    # a test runner may start us with SIGINT ignored: restore Python's default
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            game.solve()
    finally:
        signal.signal(signal.SIGINT, old)
    game.progress = None
    assert len(sent) == 1
    return sent[0]


@main_thread_only
def test_keyboard_interrupt_cancels_a_long_solve():
    # Howell on a 30 x 30 grid mod 6 takes seconds: the signal arrives while
    # the C solve runs, and the next report cancels it.
    game = toggle.System(toggle.Graph.grid(30, 30), 6)
    assert solve_with_sigint(game) == 0.0
    # the system is intact and solves again
    small = toggle.System(toggle.Graph.grid(3, 3), 6)
    with small.solve() as sol:
        assert sol.solvable
    game.close()


def test_arguments_named_as_written():
    g = toggle.Graph.grid(3, 3)
    with pytest.raises(OverflowError, match="modulus = 18446744073709551616"):
        toggle.System(g, 2 ** 64)
    with pytest.raises(ValueError, match="modulus = 1 is less than 2"):
        toggle.System(g, 1)
    with pytest.raises(ValueError, match="rows = -1 is negative"):
        toggle.Graph.grid(-1, 3)
    with pytest.raises(TypeError, match="rows must be an integer"):
        toggle.Graph.grid("3", 3)
    with pytest.raises(TypeError, match="rows must be an integer"):
        toggle.Graph.grid(3.0, 3)
    with pytest.raises(TypeError):
        toggle.System("not a graph", 2)
    with pytest.raises(TypeError):
        toggle.Graph.grid(3, 3, colour=1)
    s = toggle.System(g, 2)
    with pytest.raises(ValueError, match="value = -2 is negative"):
        s.set_option(toggle.SYSTEM_OPT_SEARCH_LIMIT, -2)
    sol = s.solve()
    with pytest.raises(TypeError, match="must be an integer"):
        sol.kernel_vector("0")
    with pytest.raises(ValueError, match="offset = -1 is negative"):
        sol.particular_range(-1, 2)


def test_render_format_from_file_name(tmp_path):
    cells = [0, 1, 1, 0]
    png, ppm = tmp_path / "x.png", tmp_path / "x.ppm"
    try:
        toggle.render(cells, 2, 2, 2, path=png)
    except toggle.UnsupportedError:
        pytest.skip("built without libpng")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    toggle.render(cells, 2, 2, 2, path=ppm)
    assert ppm.read_bytes()[:2] == b"P6"
    with pytest.raises(ValueError, match="does not match the file name"):
        toggle.render(cells, 2, 2, 2, format="ppm", path=png)
    assert toggle.render(cells, 2, 2, 2)[:2] == b"P6"
    with pytest.raises(ValueError, match="format"):
        toggle.render(cells, 2, 2, 2, format="gif")


@main_thread_only
@pytest.mark.parametrize("engine,size,k", [("chase", 60, 2), ("gf2", 60, 2), ("flint", 20, 3)])
def test_keyboard_interrupt_is_never_lost(engine, size, k):
    # a SIGINT during the call raises KeyboardInterrupt even when the call
    # made no report after it (it then finished, and its solution is freed)
    game = toggle.System(toggle.Graph.grid(size), k)
    game.engine = engine
    solve_with_sigint(game)
    with game.solve() as sol:
        assert sol.cols == size * size
    game.close()
