"""Solution spaces (space.h): iteration, sampling, fewest presses, and the
puzzle generator."""

import collections
import ctypes

from . import _ffi
from . import _arrays as A
from ._core import _Handle, _new, Solution, SYSTEM_OPT_THREADS
from ._errors import call, check, ITEROVER, EUNSUPPORTED

P, c_size_t, c_u64, c_int, c_void_p = (ctypes.POINTER, ctypes.c_size_t, ctypes.c_uint64,
                                       ctypes.c_int, ctypes.c_void_p)
_ffi.declare({
    "toggle_solution_radix": (c_int, [c_void_p, c_size_t, P(c_u64)]),
    "toggle_iter_new": (c_int, [P(c_void_p), c_void_p]),
    "toggle_iter_next": (c_int, [c_void_p, P(c_u64), c_size_t]),
    "toggle_iter_reset": (None, [c_void_p]),
    "toggle_iter_produced": (c_u64, [c_void_p]),
    "toggle_iter_free": (None, [c_void_p]),
    "toggle_rng_new": (c_int, [P(c_void_p), c_u64]),
    "toggle_rng_next": (c_u64, [c_void_p]),
    "toggle_rng_below": (c_u64, [c_void_p, c_u64]),
    "toggle_rng_free": (None, [c_void_p]),
    "toggle_solution_sample": (c_int, [c_void_p, c_void_p, P(c_u64), c_size_t]),
    "toggle_search_new": (c_int, [P(c_void_p), c_void_p]),
    "toggle_search_set_option": (c_int, [c_void_p, c_int, c_u64]),
    "toggle_search_run": (c_int, [c_void_p]),
    "toggle_search_result": (c_int, [c_void_p, P(c_u64), c_size_t, P(c_u64), P(c_int),
                                     P(c_u64)]),
    "toggle_search_free": (None, [c_void_p]),
    "toggle_search_save": (c_int, [c_void_p, c_void_p, c_size_t, P(c_size_t)]),
    "toggle_search_resume": (c_int, [c_void_p, c_void_p, c_size_t]),
    "toggle_search_progress": (c_int, [c_void_p, P(c_u64), P(c_u64)]),
    "toggle_generator_new": (c_int, [P(c_void_p), c_void_p]),
    "toggle_generator_set_option": (c_int, [c_void_p, c_int, c_u64]),
    "toggle_generator_nullity": (c_size_t, [c_void_p]),
    "toggle_generator_next": (c_int, [c_void_p, P(c_u64), c_size_t, P(c_u64)]),
    "toggle_generator_free": (None, [c_void_p]),
})

METRIC_CELLS = 0
METRIC_PRESSES = 1
# option keys of a search (TOGGLE_SEARCH_OPT_*) and of a generator
# (TOGGLE_GENERATOR_OPT_*)
SEARCH_OPT_SEARCH_LIMIT = 3
SEARCH_OPT_METRIC = 4
GENERATOR_OPT_SEARCH_LIMIT = 3
GENERATOR_OPT_METRIC = 4
GENERATOR_OPT_SEED = 5
GENERATOR_OPT_UNIQUE = 6
GENERATOR_OPT_PRESSES = 7
GENERATOR_OPT_LIT = 8
GENERATOR_OPT_ATTEMPTS = 9
# the 1.0 names (TOGGLE_OPT_*), deprecated aliases with the same values
OPT_METRIC = SEARCH_OPT_METRIC
OPT_SEED = GENERATOR_OPT_SEED
OPT_UNIQUE = GENERATOR_OPT_UNIQUE
OPT_PRESSES = GENERATOR_OPT_PRESSES
OPT_LIT = GENERATOR_OPT_LIT
OPT_ATTEMPTS = GENERATOR_OPT_ATTEMPTS
_NONE = (1 << 64) - 1
_METRICS = {"cells": METRIC_CELLS, "presses": METRIC_PRESSES}

#: Result of Solution.fewest_presses(): the best solution x, its weight under
#: the metric, whether it is proven optimal, and how many solutions were visited.
FewestPresses = collections.namedtuple("FewestPresses", "x weight proven visited")


def _metric(m):
    return _METRICS[m] if isinstance(m, str) else int(m)


class Rng(_Handle):
    """A seeded pseudo-random generator (xoshiro256**): the same seed gives
    the same sequence everywhere. Not thread-safe; use one per thread."""

    _free_name = "toggle_rng_free"

    def __init__(self, seed=0):
        self._h = None
        self._owner = None
        self._h = _new("toggle_rng_new", seed)

    def next(self):
        """The next 64 random bits."""
        return _ffi.fn("toggle_rng_next")(self._handle)

    def below(self, bound):
        """A uniform value in [0, bound)."""
        return _ffi.fn("toggle_rng_below")(self._handle, bound)


class SolutionIterator(_Handle):
    """Every solution of a solvable system, in Gray-code order (the first is
    the particular solution). Made by ``iter(solution)`` or
    ``solution.solutions()``; independent of the solution afterwards."""

    _free_name = "toggle_iter_free"

    def __iter__(self):
        return self

    def __next__(self):
        buf = A.empty(self._n)
        st = _ffi.fn("toggle_iter_next")(self._handle, A.ptr(buf), self._n)
        if st == ITEROVER:
            raise StopIteration
        check(st)
        return A.result(buf)

    def reset(self):
        """Start again from the first solution."""
        _ffi.fn("toggle_iter_reset")(self._handle)

    @property
    def produced(self):
        """Solutions produced since creation or the last reset."""
        return _ffi.fn("toggle_iter_produced")(self._handle)


def _solutions(self):
    """An iterator over every solution (raises NoSolutionError if unsolvable)."""
    it = SolutionIterator._wrap(_new("toggle_iter_new", self._handle))
    it._n = self.cols
    return it


def _radix(self, index):
    """Radix r_i of kernel coefficient i (k for prime k)."""
    v = c_u64()
    call("toggle_solution_radix", self._handle, index, ctypes.byref(v))
    return v.value


def _sample(self, rng=None, seed=None):
    """A uniformly random solution, drawn with `rng` (an Rng) or a fresh Rng(seed)."""
    own = rng is None
    if own:
        rng = Rng(0 if seed is None else seed)
    try:
        n = self.cols
        buf = A.empty(n)
        call("toggle_solution_sample", self._handle, rng._handle, A.ptr(buf), n)
        return A.result(buf)
    finally:
        if own:
            rng.close()


def _run_search(self, h):
    """Run the search h (Ctrl-C: KeyboardInterrupt) and read its FewestPresses."""
    watcher = getattr(self, "_watcher", None)
    if watcher is not None:  # Ctrl-C during the search: KeyboardInterrupt
        watcher.run(_ffi.fn("toggle_search_run"), h)
    else:
        call("toggle_search_run", h)
    n = self.cols
    buf = A.empty(n)
    weight, proven, visited = c_u64(), c_int(), c_u64()
    call("toggle_search_result", h, A.ptr(buf), n, ctypes.byref(weight),
         ctypes.byref(proven), ctypes.byref(visited))
    return FewestPresses(A.result(buf), weight.value, bool(proven.value), visited.value)


def _fewest_presses(self, metric="cells", limit=None, search_limit=None):
    """The solution with the fewest cells pressed (metric "cells") or the
    smallest total of presses ("presses"). Exact (proven) while the number
    of solutions is within `search_limit` (default the system's
    search_limit, 2^32 unless set; 0 = unlimited); otherwise the best one
    visited. `limit` is the 1.0 name of `search_limit` (give one of them).
    Returns FewestPresses(x, weight, proven, visited)."""
    if limit is not None and search_limit is not None:
        raise TypeError("give search_limit or its old name limit, not both")
    if search_limit is None:
        search_limit = limit
    h = _new("toggle_search_new", self._handle)
    try:
        call("toggle_search_set_option", h, SEARCH_OPT_METRIC, _metric(metric))
        if search_limit is not None:
            call("toggle_search_set_option", h, SEARCH_OPT_SEARCH_LIMIT, search_limit)
        return _run_search(self, h)
    finally:
        _ffi.fn("toggle_search_free")(h)


FewestSearch = collections.namedtuple("FewestSearch",
                                      "x weight proven visited bound best checkpoint")
FewestSearch.__doc__ = """A fewest-press search that may be continued: x, weight, proven and
visited as in FewestPresses; bound: no solution weighs less; best: the
best weight the search reports (toggle_search_progress); checkpoint: bytes
for Solution.fewest_search(resume=...), or None when the search walked
(k != 2)."""


def _fewest_search(self, metric="cells", search_limit=None, threads=None, resume=None):
    """Fewest presses with a checkpoint: like fewest_presses, but the result
    carries the lower bound reached and the search's state. Pass a
    FewestSearch.checkpoint as `resume` to continue a search that stopped at
    `search_limit` (the limit counts the solutions this call examines); the
    final answer is the one an uninterrupted search gives. A checkpoint of
    another search is a ToggleError (EINVAL)."""
    h = _new("toggle_search_new", self._handle)
    try:
        call("toggle_search_set_option", h, SEARCH_OPT_METRIC, _metric(metric))
        if search_limit is not None:
            call("toggle_search_set_option", h, SEARCH_OPT_SEARCH_LIMIT, search_limit)
        if threads is not None:
            call("toggle_search_set_option", h, SYSTEM_OPT_THREADS, threads)
        if resume is not None:
            data = bytes(resume)
            call("toggle_search_resume", h, ctypes.c_char_p(data), len(data))
        res = _run_search(self, h)
        best, bound = c_u64(), c_u64()
        call("toggle_search_progress", h, ctypes.byref(best), ctypes.byref(bound))
        need = c_size_t()
        rc = _ffi.fn("toggle_search_save")(h, None, 0, ctypes.byref(need))
        ckpt = None
        if rc != EUNSUPPORTED:
            raw = ctypes.create_string_buffer(need.value)
            call("toggle_search_save", h, raw, need.value, ctypes.byref(need))
            ckpt = raw.raw[:need.value]
        return FewestSearch(*res, bound.value, best.value, ckpt)
    finally:
        _ffi.fn("toggle_search_free")(h)


Solution.solutions = _solutions
Solution.__iter__ = _solutions
Solution.radix = _radix
Solution.sample = _sample
Solution.fewest_presses = _fewest_presses
Solution.fewest_search = _fewest_search


class Generator(_Handle):
    """Random solvable start states for the board of a system (its A and k).

    ``Generator(system, seed=0, unique=False, presses=None, lit=None,
    metric="cells", attempts=None, search_limit=None)``, one keyword per
    GENERATOR_OPT_* key (search_limit 0 = unlimited; None keeps the
    default); each ``next()`` returns ``(start, presses)`` where presses is
    the fewest-press weight when it was computed, else None. Iterating
    yields starts forever."""

    _free_name = "toggle_generator_free"

    def __init__(self, system, seed=0, unique=False, presses=None, lit=None, metric="cells",
                 attempts=None, search_limit=None):
        self._h = None
        self._owner = None
        self._n = system.cols
        self._h = _new("toggle_generator_new", system._handle)
        opts = [(GENERATOR_OPT_METRIC, _metric(metric)),
                (GENERATOR_OPT_UNIQUE, 1 if unique else 0), (GENERATOR_OPT_PRESSES, presses),
                (GENERATOR_OPT_LIT, lit), (GENERATOR_OPT_ATTEMPTS, attempts),
                (GENERATOR_OPT_SEARCH_LIMIT, search_limit), (GENERATOR_OPT_SEED, seed)]
        for key, value in opts:
            if value is not None:
                self.set_option(key, value)

    def set_option(self, key, value):
        """Set a raw GENERATOR_OPT_* option. A key of a system raises
        InvalidArgumentError naming it."""
        call("toggle_generator_set_option", self._handle, int(key), int(value))

    @property
    def nullity(self):
        """Kernel generators of the board (0: every start has one solution)."""
        return _ffi.fn("toggle_generator_nullity")(self._handle)

    def next(self):
        """(start, presses): the next start state and its fewest-press
        weight (None when not computed). Raises LimitError when no board
        met the constraints within the attempts."""
        buf = A.empty(self._n)
        w = c_u64()
        call("toggle_generator_next", self._handle, A.ptr(buf), self._n, ctypes.byref(w))
        return A.result(buf), (None if w.value == _NONE else w.value)

    def __iter__(self):
        return self

    __next__ = next


