"""Cancel long work from Python and check that it returns cleanly: Ctrl-C
(a real SIGINT, sent from the first progress report so that no timing is
involved) raises KeyboardInterrupt once the C call has stopped; a callback
returning True raises CancelledError (TOGGLE_ECANCELED); an exception in
the callback propagates. Covers the Howell, gf2, FLINT, chase engines and
the fewest-press search. Run by run_valgrind.py under valgrind (no leak,
no invalid access); exits 0 when every case behaved."""

import gc
import os
import signal
import sys

import toggle


def interrupt_on_first_report():
    sent = []

    def report(fraction):
        if not sent:
            sent.append(fraction)
            os.kill(os.getpid(), signal.SIGINT)
        return False
    return report, sent


def expect(exc, what, fn):
    try:
        fn()
    except exc as e:
        print("ok: %s raised %s" % (what, type(e).__name__), flush=True)
        return e
    raise AssertionError("%s did not raise %s" % (what, exc.__name__))


def main():
    signal.signal(signal.SIGINT, signal.default_int_handler)
    cases = [("howell 30x30 mod 6", 30, 6, "howell"), ("gf2 120x120 mod 2", 120, 2, "gf2"),
             ("flint 40x40 mod 3", 40, 3, "flint"), ("chase 200x200 mod 2", 200, 2, "chase")]
    for what, size, k, engine in cases:
        with toggle.Graph.grid(size) as g, toggle.System(g, k) as game:
            game.engine = engine
            report, sent = interrupt_on_first_report()
            game.progress = report
            expect(KeyboardInterrupt, "Ctrl-C in " + what, game.solve)
            assert sent, what
            game.progress = lambda fraction: True
            err = expect(toggle.CancelledError, "cancel from the callback in " + what,
                         game.solve)
            assert err.status == toggle.ECANCELED == -13 and err.name == "TOGGLE_ECANCELED"

            def boom(fraction):
                raise RuntimeError("from the callback")
            game.progress = boom
            expect(RuntimeError, "an exception in the callback of " + what, game.solve)
    # the fewest-press search of a solution keeps the callback of its solve
    mode = []

    def control(fraction):
        if mode == ["interrupt"]:
            mode[:] = ["sent"]
            os.kill(os.getpid(), signal.SIGINT)
        return mode == ["cancel"]
    with toggle.Graph.grid(16) as g, toggle.System(g, 2) as game:
        game.search_limit = 0
        game.progress = control
        with game.solve() as sol:
            mode[:] = ["interrupt"]
            expect(KeyboardInterrupt, "Ctrl-C in a fewest-press search", sol.fewest_presses)
            assert mode == ["sent"]
            mode[:] = ["cancel"]
            expect(toggle.CancelledError, "cancel of a fewest-press search",
                   sol.fewest_presses)
            mode[:] = []
            assert sol.fewest_presses().proven
    # everything still works afterwards
    with toggle.Graph.grid(5) as g, toggle.System(g, 2) as game, game.solve() as sol:
        assert sol.solvable and sol.nullity == 2
    gc.collect()
    print("all cancels returned cleanly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
