"""Solution spaces (space.h): iteration, sampling, fewest presses, and the
puzzle generator."""

from __future__ import annotations

import ctypes
from typing import Any, Iterator, NamedTuple, Optional, Sequence, Tuple, Union

from . import _arrays as A
from . import _check as C
from . import _ffi
from ._errors import EBUFSIZE, ITEROVER, call, check
from ._handle import _Handle, _new, _ProgressWatch

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
    "toggle_search_set_costs": (c_int, [c_void_p, P(c_u64), c_size_t]),
    "toggle_search_run": (c_int, [c_void_p]),
    "toggle_search_result": (c_int, [c_void_p, P(c_u64), c_size_t, P(c_u64), P(c_int),
                                     P(c_u64)]),
    "toggle_search_bound": (c_int, [c_void_p, P(c_u64)]),
    "toggle_search_save": (c_int, [c_void_p, c_void_p, c_size_t, P(c_size_t)]),
    "toggle_search_resume": (c_int, [c_void_p, c_void_p, c_size_t]),
    "toggle_search_progress": (c_int, [c_void_p, P(c_u64), P(c_u64)]),
    "toggle_search_free": (None, [c_void_p]),
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
SEARCH_OPT_THREADS = 10
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
#: TOGGLE_COST_FORBIDDEN: the cost of a cell that may not be pressed (1.1)
COST_FORBIDDEN = _NONE
_METRICS = {"cells": METRIC_CELLS, "presses": METRIC_PRESSES}

Metric = Union[str, int]


class FewestPresses(NamedTuple):
    """Result of Solution.fewest_presses(): the best solution x, its weight
    under the metric, whether it is proven optimal, and how many solutions
    were visited."""
    x: Any
    weight: int
    proven: bool
    visited: int


def _metric(m: Metric) -> int:
    if isinstance(m, str):
        if m not in _METRICS:
            raise ValueError("metric must be 'cells' or 'presses', not %r" % (m,))
        return _METRICS[m]
    return C.integer(m, "metric")


class Rng(_Handle):
    """A seeded pseudo-random generator (xoshiro256**): the same seed gives
    the same sequence everywhere. Not thread-safe; use one per thread."""

    _free_name = "toggle_rng_free"

    def __init__(self, seed: int = 0) -> None:
        self._h = None
        self._owner = None
        self._h = _new("toggle_rng_new", C.u64(seed, "seed"))

    def next(self) -> int:
        """The next 64 random bits."""
        return int(_ffi.fn("toggle_rng_next")(self._handle))

    def below(self, bound: int) -> int:
        """A uniform value in [0, bound)."""
        return int(_ffi.fn("toggle_rng_below")(self._handle, C.u64(bound, "bound")))


class SolutionIterator(_Handle):
    """Every solution of a solvable system, in Gray-code order (the first is
    the particular solution). Made by ``iter(solution)`` or
    ``solution.solutions()``; independent of the solution afterwards."""

    _free_name = "toggle_iter_free"
    _n = 0

    def __iter__(self) -> "SolutionIterator":
        return self

    def __next__(self) -> Any:
        buf = A.empty(self._n)
        st = _ffi.fn("toggle_iter_next")(self._handle, A.ptr(buf), self._n)
        if st == ITEROVER:
            raise StopIteration
        check(st)
        return A.result(buf)

    def reset(self) -> None:
        """Start again from the first solution."""
        _ffi.fn("toggle_iter_reset")(self._handle)

    @property
    def produced(self) -> int:
        """Solutions produced since creation or the last reset."""
        return int(_ffi.fn("toggle_iter_produced")(self._handle))


def _costs(costs: Sequence[Optional[int]], n: int) -> Any:
    """n costs as a uint64 ctypes array; None (or COST_FORBIDDEN) forbids a cell."""
    vals = [COST_FORBIDDEN if c is None else C.u64(c, "costs[%d]" % i)
            for i, c in enumerate(costs)]
    if len(vals) != n:
        raise ValueError("costs has %d entries, the system has %d unknowns" % (len(vals), n))
    return (ctypes.c_uint64 * n)(*vals)


class Search(_Handle):
    """A fewest-press search over the solutions of a solvable system
    (toggle_search_*). ``Search(solution, metric="cells", search_limit=None,
    costs=None, threads=None)``; ``run()`` returns FewestPresses, and
    ``bound`` is the lower bound the last run reached (equal to the weight
    when proven). ``costs`` gives each cell a cost (None or COST_FORBIDDEN:
    the cell may not be pressed). Ctrl-C during run() raises
    KeyboardInterrupt once the C search stopped."""

    _free_name = "toggle_search_free"

    def __init__(self, solution: "_SolutionSpace", metric: Metric = "cells",
                 search_limit: Optional[int] = None,
                 costs: Optional[Sequence[Optional[int]]] = None,
                 threads: Optional[int] = None) -> None:
        self._h = None
        self._owner = None
        if not isinstance(solution, _SolutionSpace):
            raise TypeError("solution must be a toggle.Solution, got %s"
                            % type(solution).__name__)
        self._n = solution.cols
        self._watcher = solution._watcher
        m = _metric(metric)
        limit = C.optional_count(search_limit, "search_limit")
        nthreads = C.optional_count(threads, "threads")
        cost_buf = None if costs is None else _costs(costs, self._n)
        self._h = _new("toggle_search_new", solution._handle)
        call("toggle_search_set_option", self._h, SEARCH_OPT_METRIC, m)
        if limit is not None:
            call("toggle_search_set_option", self._h, SEARCH_OPT_SEARCH_LIMIT, limit)
        if nthreads is not None:
            call("toggle_search_set_option", self._h, SEARCH_OPT_THREADS, nthreads)
        if cost_buf is not None:
            call("toggle_search_set_costs", self._h, cost_buf, self._n)

    def run(self) -> FewestPresses:
        """Run the search (again from the start) and return its result.
        Raises NoSolutionError when no solution presses only allowed cells,
        LimitError when none was found within the limit."""
        if self._watcher is not None:  # Ctrl-C during the search: KeyboardInterrupt
            self._watcher.run(_ffi.fn("toggle_search_run"), self._handle)
        else:
            call("toggle_search_run", self._handle)
        return self.result()

    def result(self) -> FewestPresses:
        """The result of the last run."""
        buf = A.empty(self._n)
        weight, proven, visited = c_u64(), c_int(), c_u64()
        call("toggle_search_result", self._handle, A.ptr(buf), self._n, ctypes.byref(weight),
             ctypes.byref(proven), ctypes.byref(visited))
        return FewestPresses(A.result(buf), weight.value, bool(proven.value), visited.value)

    @property
    def bound(self) -> int:
        """Lower bound of the last run: no allowed solution weighs less
        (2^64 - 1 when no allowed solution exists)."""
        v = c_u64()
        call("toggle_search_bound", self._handle, ctypes.byref(v))
        return v.value

    def save(self) -> bytes:
        """The search's state (toggle_search_save) as portable bytes: the
        finished chunks and the best found. ``resume()`` on a search of the
        same solution space continues it (the F_2 split search)."""
        need = c_size_t()
        rc = _ffi.fn("toggle_search_save")(self._handle, None, 0, ctypes.byref(need))
        if rc != EBUFSIZE:
            check(rc)
        buf = ctypes.create_string_buffer(need.value)
        call("toggle_search_save", self._handle, buf, need.value, ctypes.byref(need))
        return buf.raw[:need.value]

    def resume(self, checkpoint: bytes) -> None:
        """Continue from ``checkpoint`` (bytes from ``save()``): the next
        run() skips the chunks it finished. A checkpoint of another search
        raises InvalidArgumentError."""
        if not isinstance(checkpoint, (bytes, bytearray)):
            raise TypeError("checkpoint must be bytes, got %s" % type(checkpoint).__name__)
        data = bytes(checkpoint)
        call("toggle_search_resume", self._handle, data, len(data))

    def progress(self) -> Tuple[Optional[int], Optional[int]]:
        """(best weight found so far, lower bound reached so far), each None
        while unknown; may be read from the progress callback."""
        best, bound = c_u64(), c_u64()
        call("toggle_search_progress", self._handle, ctypes.byref(best), ctypes.byref(bound))
        none = (1 << 64) - 1
        return (None if best.value == none else best.value,
                None if bound.value == none else bound.value)


class _SolutionSpace(_Handle):
    """The solution-space methods of toggle.Solution (this module's half)."""

    _watcher: Optional[_ProgressWatch] = None

    @property
    def cols(self) -> int:
        raise NotImplementedError

    def solutions(self) -> SolutionIterator:
        """An iterator over every solution (raises NoSolutionError if unsolvable)."""
        it = SolutionIterator._wrap(_new("toggle_iter_new", self._handle))
        it._n = self.cols
        return it

    def __iter__(self) -> SolutionIterator:
        return self.solutions()

    def radix(self, index: int) -> int:
        """Radix r_i of kernel coefficient i (k for prime k)."""
        v = c_u64()
        call("toggle_solution_radix", self._handle, C.count(index, "index"), ctypes.byref(v))
        return v.value

    def sample(self, rng: Optional[Rng] = None, seed: Optional[int] = None) -> Any:
        """A uniformly random solution, drawn with `rng` (an Rng) or a fresh Rng(seed)."""
        if rng is not None and not isinstance(rng, Rng):
            raise TypeError("rng must be a toggle.Rng, got %s" % type(rng).__name__)
        own = Rng(0 if seed is None else seed) if rng is None else None
        use = own if own is not None else rng
        assert use is not None
        try:
            n = self.cols
            buf = A.empty(n)
            call("toggle_solution_sample", self._handle, use._handle, A.ptr(buf), n)
            return A.result(buf)
        finally:
            if own is not None:
                own.close()

    def fewest_presses(self, metric: Metric = "cells", limit: Optional[int] = None,
                       search_limit: Optional[int] = None,
                       costs: Optional[Sequence[Optional[int]]] = None,
                       threads: Optional[int] = None) -> FewestPresses:
        """The solution with the fewest cells pressed (metric "cells") or the
        smallest total of presses ("presses"). Exact (proven) while the number
        of solutions is within `search_limit` (default the system's
        search_limit, 2^32 unless set; 0 = unlimited); otherwise the best one
        visited. `limit` is the 1.0 name of `search_limit` (give one of them).
        `costs` (1.1): one cost per cell, None or COST_FORBIDDEN for a cell
        that may not be pressed; `threads` (1.1): threads of the search (0 =
        one per processor). Returns FewestPresses(x, weight, proven,
        visited); the Search class also gives the lower bound."""
        if limit is not None and search_limit is not None:
            raise TypeError("give search_limit or its old name limit, not both")
        if search_limit is None:
            search_limit = limit
        with Search(self, metric, search_limit, costs, threads) as search:
            return search.run()


class Generator(_Handle):
    """Random solvable start states for the board of a system (its A and k).

    ``Generator(system, seed=0, unique=False, presses=None, lit=None,
    metric="cells", attempts=None, search_limit=None)``, one keyword per
    GENERATOR_OPT_* key (search_limit 0 = unlimited; None keeps the
    default); each ``next()`` returns ``(start, presses)`` where presses is
    the fewest-press weight when it was computed, else None. Iterating
    yields starts forever."""

    _free_name = "toggle_generator_free"

    def __init__(self, system: Any, seed: int = 0, unique: bool = False,
                 presses: Optional[int] = None, lit: Optional[int] = None,
                 metric: Metric = "cells", attempts: Optional[int] = None,
                 search_limit: Optional[int] = None) -> None:
        self._h = None
        self._owner = None
        if not isinstance(system, _Handle) or system._free_name != "toggle_system_free":
            raise TypeError("system must be a toggle.System, got %s" % type(system).__name__)
        self._n = int(getattr(system, "cols"))
        opts = [(GENERATOR_OPT_METRIC, _metric(metric)),
                (GENERATOR_OPT_UNIQUE, 1 if unique else 0),
                (GENERATOR_OPT_PRESSES, C.optional_count(presses, "presses")),
                (GENERATOR_OPT_LIT, C.optional_count(lit, "lit")),
                (GENERATOR_OPT_ATTEMPTS, C.optional_count(attempts, "attempts")),
                (GENERATOR_OPT_SEARCH_LIMIT, C.optional_count(search_limit, "search_limit")),
                (GENERATOR_OPT_SEED, C.u64(seed, "seed"))]
        self._h = _new("toggle_generator_new", system._handle)
        for key, value in opts:
            if value is not None:
                self.set_option(key, value)

    def set_option(self, key: int, value: int) -> None:
        """Set a raw GENERATOR_OPT_* option. A key of a system raises
        InvalidArgumentError naming it."""
        call("toggle_generator_set_option", self._handle, C.integer(key, "key"),
             C.u64(value, "value"))

    @property
    def nullity(self) -> int:
        """Kernel generators of the board (0: every start has one solution)."""
        return int(_ffi.fn("toggle_generator_nullity")(self._handle))

    def next(self) -> Tuple[Any, Optional[int]]:
        """(start, presses): the next start state and its fewest-press
        weight (None when not computed). Raises LimitError when no board
        met the constraints within the attempts."""
        buf = A.empty(self._n)
        w = c_u64()
        call("toggle_generator_next", self._handle, A.ptr(buf), self._n, ctypes.byref(w))
        return A.result(buf), (None if w.value == _NONE else w.value)

    def __iter__(self) -> Iterator[Tuple[Any, Optional[int]]]:
        return self

    def __next__(self) -> Tuple[Any, Optional[int]]:
        return self.next()
