"""Row operations step by step (steps.h): a trace of plain Gauss-Jordan,
hand operations with undo, and chaos boards. See docs/steps.md."""

from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Tuple, Union

from . import _arrays as A
from . import _check as C
from . import _ffi
from ._core import Graph, System
from ._errors import call
from ._handle import _Handle, _new, _read_string

P, c_size_t, c_u64, c_int, c_void_p, c_double, c_char_p = (
    ctypes.POINTER, ctypes.c_size_t, ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p,
    ctypes.c_double, ctypes.c_char_p)
_ffi.declare({
    "toggle_steps_new": (c_int, [P(c_void_p), c_void_p]),
    "toggle_steps_free": (None, [c_void_p]),
    "toggle_steps_rows": (c_size_t, [c_void_p]),
    "toggle_steps_cols": (c_size_t, [c_void_p]),
    "toggle_steps_modulus": (c_u64, [c_void_p]),
    "toggle_steps_entry": (c_int, [c_void_p, c_size_t, c_size_t, P(c_u64)]),
    "toggle_steps_add": (c_int, [c_void_p, c_size_t, c_size_t, c_u64]),
    "toggle_steps_scale": (c_int, [c_void_p, c_size_t, c_u64]),
    "toggle_steps_swap": (c_int, [c_void_p, c_size_t, c_size_t]),
    "toggle_steps_move": (c_int, [c_void_p, c_size_t, c_size_t]),
    "toggle_steps_apply": (c_int, [c_void_p, c_char_p, c_size_t, P(c_size_t)]),
    "toggle_steps_auto": (c_int, [c_void_p, c_size_t, P(c_size_t)]),
    "toggle_steps_undo": (c_int, [c_void_p, c_size_t]),
    "toggle_steps_redo": (c_int, [c_void_p, c_size_t]),
    "toggle_steps_count": (c_size_t, [c_void_p]),
    "toggle_steps_redo_count": (c_size_t, [c_void_p]),
    "toggle_steps_op": (c_int, [c_void_p, c_size_t, P(c_int), P(c_size_t), P(c_size_t),
                                P(c_u64)]),
    "toggle_steps_write": (c_int, [c_void_p, c_size_t, c_char_p, c_size_t, P(c_size_t)]),
    "toggle_steps_status": (c_int, [c_void_p, P(c_size_t), P(c_int), P(c_int)]),
    "toggle_steps_pivots": (c_int, [c_void_p, P(c_size_t), c_size_t, P(c_size_t)]),
    "toggle_steps_solution": (c_int, [c_void_p, P(c_u64), c_size_t, P(c_size_t)]),
    "toggle_steps_system": (c_int, [c_void_p, P(c_void_p)]),
    "toggle_graph_new_chaos": (c_int, [P(c_void_p), c_size_t, c_size_t, c_double, c_size_t,
                                       c_u64]),
})

STEP_ADD, STEP_SCALE, STEP_SWAP, STEP_MOVE = 1, 2, 3, 4
_SIZE_MAX = ctypes.c_size_t(-1).value
CHAOS_ANY_DISTANCE = _SIZE_MAX
_NAMES = {STEP_ADD: "add", STEP_SCALE: "scale", STEP_SWAP: "swap", STEP_MOVE: "move"}


class Steps(_Handle):
    """A copy of a system's augmented matrix [A | b] under row operations.
    ``Steps.of(system)``; then add/scale/swap/move, apply(script), auto(n),
    undo/redo, and read matrix(), ops(), script(), status(), solution()."""

    _free_name = "toggle_steps_free"

    @classmethod
    def of(cls, system: System) -> "Steps":
        """A copy of the system's [A | b] to work on."""
        if not isinstance(system, System):
            raise TypeError("system must be a toggle.System, got %s" % type(system).__name__)
        return cls._wrap(_new("toggle_steps_new", system._handle))

    @property
    def rows(self) -> int:
        """Equations m."""
        return int(_ffi.fn("toggle_steps_rows")(self._handle))

    @property
    def cols(self) -> int:
        """Unknowns n; the matrix has n + 1 columns."""
        return int(_ffi.fn("toggle_steps_cols")(self._handle))

    @property
    def modulus(self) -> int:
        """The modulus k."""
        return int(_ffi.fn("toggle_steps_modulus")(self._handle))

    def matrix(self) -> List[List[int]]:
        """The current [A | b] as a list of rows (b last)."""
        v = ctypes.c_uint64()
        out = []
        for i in range(self.rows):
            row = []
            for j in range(self.cols + 1):
                call("toggle_steps_entry", self._handle, i, j, ctypes.byref(v))
                row.append(v.value)
            out.append(row)
        return out

    def add(self, a: int, b: int, c: int = 1) -> None:
        """Row a += c * row b."""
        call("toggle_steps_add", self._handle, C.count(a, "a"), C.count(b, "b"),
             C.u64(c, "c"))

    def scale(self, a: int, c: int) -> None:
        """Row a *= c (c a unit mod k)."""
        call("toggle_steps_scale", self._handle, C.count(a, "a"), C.u64(c, "c"))

    def swap(self, a: int, b: int) -> None:
        """Swap rows a and b."""
        call("toggle_steps_swap", self._handle, C.count(a, "a"), C.count(b, "b"))

    def move(self, a: int, b: int) -> None:
        """Move row a to position b."""
        call("toggle_steps_move", self._handle, C.count(a, "a"), C.count(b, "b"))

    def apply(self, script: Union[str, bytes]) -> int:
        """Apply a script (all checked first); returns the operations applied."""
        data = C.text(script, "script")
        n = ctypes.c_size_t()
        call("toggle_steps_apply", self._handle, data, len(data), ctypes.byref(n))
        return n.value

    def auto(self, max_ops: Optional[int] = None) -> int:
        """Up to max_ops Gauss-Jordan operations (None: all); returns how many."""
        n = ctypes.c_size_t()
        call("toggle_steps_auto", self._handle, _SIZE_MAX if max_ops is None
             else C.count(max_ops, "max_ops"), ctypes.byref(n))
        return n.value

    def undo(self, count: int = 1) -> None:
        """Undo the last `count` operations."""
        call("toggle_steps_undo", self._handle, C.count(count, "count"))

    def redo(self, count: int = 1) -> None:
        """Redo `count` undone operations."""
        call("toggle_steps_redo", self._handle, C.count(count, "count"))

    @property
    def count(self) -> int:
        """Operations in the trace."""
        return int(_ffi.fn("toggle_steps_count")(self._handle))

    @property
    def redo_count(self) -> int:
        """Undone operations that redo() can replay."""
        return int(_ffi.fn("toggle_steps_redo_count")(self._handle))

    def ops(self) -> List[Tuple[str, int, int, int]]:
        """The trace as tuples (name, a, b, c)."""
        op, a, b, c = ctypes.c_int(), ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_uint64()
        out = []
        for i in range(self.count):
            call("toggle_steps_op", self._handle, i, ctypes.byref(op), ctypes.byref(a),
                 ctypes.byref(b), ctypes.byref(c))
            out.append((_NAMES[op.value], a.value, b.value, c.value))
        return out

    def script(self, first: int = 0) -> str:
        """The trace from operation first on, in the text language."""
        h = self._handle
        first = C.count(first, "first")
        return _read_string(lambda buf, n, need: int(
            _ffi.fn("toggle_steps_write")(h, first, buf, n, need)))

    def status(self) -> Tuple[int, bool, bool]:
        """(rank so far, reduced, shown unsolvable)."""
        r, red, uns = ctypes.c_size_t(), ctypes.c_int(), ctypes.c_int()
        call("toggle_steps_status", self._handle, ctypes.byref(r), ctypes.byref(red),
             ctypes.byref(uns))
        return r.value, bool(red.value), bool(uns.value)

    def pivots(self) -> List[int]:
        """The pivot column of each reduced row so far."""
        n = ctypes.c_size_t()
        cap = self.rows + 1
        buf = (ctypes.c_size_t * cap)()
        call("toggle_steps_pivots", self._handle, buf, cap, ctypes.byref(n))
        return list(buf[:n.value])

    def solution(self) -> Tuple[Any, int]:
        """(x, nullity) of a reduced matrix; raises NoSolutionError if none."""
        n = self.cols
        buf = A.empty(n)
        d = ctypes.c_size_t()
        call("toggle_steps_solution", self._handle, A.ptr(buf), n, ctypes.byref(d))
        return A.result(buf), d.value

    def system(self) -> System:
        """The current matrix as a new System."""
        out = ctypes.c_void_p()
        call("toggle_steps_system", self._handle, ctypes.byref(out))
        return System._wrap(out.value)


def chaos_graph(rows: int, cols: int, density: float = 0.5, radius: Optional[int] = None,
                seed: int = 0) -> Graph:
    """A random chaos toggle matrix (see toggle_graph_new_chaos): each
    press reaches other cells with probability `density` (0 to 1), within
    `radius` (None: any distance), drawn from `seed`."""
    rows, cols = C.count(rows, "rows"), C.count(cols, "cols")
    if isinstance(density, bool) or not isinstance(density, (int, float)):
        raise TypeError("density must be a number, got %s" % type(density).__name__)
    if not 0.0 <= float(density) <= 1.0:
        C.invalid("density = %r is not between 0 and 1" % (density,))
    r = CHAOS_ANY_DISTANCE if radius is None else C.count(radius, "radius", _SIZE_MAX)
    return Graph._wrap(_new("toggle_graph_new_chaos", rows, cols, float(density), r,
                            C.u64(seed, "seed")))
