"""Graphs, systems and solutions: Python classes over libtoggle's handles."""

from __future__ import annotations

import ctypes
from typing import Any, Optional, Sequence, Tuple, Union

from . import _arrays as A
from . import _check as C
from . import _ffi
from ._errors import call, check
from ._handle import ProgressCallback, _Handle, _new, _ProgressWatch, _read_string
from ._render import _SolutionOrbits
from ._space import _SolutionSpace

P, c_size_t, c_u64, c_int, c_void_p = (ctypes.POINTER, ctypes.c_size_t, ctypes.c_uint64,
                                       ctypes.c_int, ctypes.c_void_p)
_ffi.declare({
    "toggle_system_new_packed": (c_int, [P(c_void_p), c_size_t, c_size_t, P(c_u64), c_size_t,
                                         P(c_u64)]),
    "toggle_solution_kernel_packed": (c_int, [c_void_p, c_size_t, c_size_t, c_size_t,
                                              P(c_u64), c_size_t]),
})

# graph.h flags and kinds
GRID_CLASSIC = 0
GRID_NO_SELF = 1
GRID_TORUS = 2
GRID_MOORE = 4
GRID_CYLINDER = 8
GRID_HEX = 16
GRID_TRI = 32
GRAPH_NO_SELF = 1
KIND_GRID = 1
KIND_STENCIL = 2
KIND_MATRIX = 3
_KIND_NAMES = {KIND_GRID: "grid", KIND_STENCIL: "stencil", KIND_MATRIX: "matrix"}
_LATTICES = {"square": 0, "hex": GRID_HEX, "tri": GRID_TRI}

# system.h engines and options
ENGINE_AUTO = 0
ENGINE_FLINT = 1
ENGINE_GF2 = 2
ENGINE_CHASE = 3
ENGINE_HOWELL = 4
ENGINE_DENSE = 7
ENGINE_TRANSFER = 6
ENGINE_BLAS = 5  # builds with the blas engine (docs/blas.md)
# option keys of a system (TOGGLE_SYSTEM_OPT_*); those of a search and a
# generator are in _space
SYSTEM_OPT_ENGINE = 1
SYSTEM_OPT_MEMORY_BUDGET = 2
SYSTEM_OPT_SEARCH_LIMIT = 3
SYSTEM_OPT_THREADS = 10
# the 1.0 names (TOGGLE_OPT_*), deprecated aliases with the same values
OPT_ENGINE = SYSTEM_OPT_ENGINE
OPT_MEMORY_BUDGET = SYSTEM_OPT_MEMORY_BUDGET
OPT_SEARCH_LIMIT = SYSTEM_OPT_SEARCH_LIMIT
OPT_THREADS = SYSTEM_OPT_THREADS
DEFAULT_MEMORY_BUDGET = 4 << 30
MAX_MODULUS = (1 << 63) - 1

Engine = Union[str, bytes, int]


def engine_name(engine: int) -> Optional[str]:
    """Name of a TOGGLE_ENGINE_* value ("auto", "flint", ...), or None."""
    name = _ffi.fn("toggle_engine_name")(C.integer(engine, "engine"))
    return str(name.decode()) if name is not None else None


def engine_from_name(name: Union[str, bytes]) -> int:
    """The TOGGLE_ENGINE_* value of an engine name; raises InvalidArgumentError."""
    out = ctypes.c_int(0)
    call("toggle_engine_from_name", C.text(name, "engine"), ctypes.byref(out))
    return out.value


def _engine_value(engine: Engine) -> int:
    if isinstance(engine, (str, bytes)):
        return engine_from_name(engine)
    return C.integer(engine, "engine")


def _grid_flags(flags: int, lattice: str = "square", **named: bool) -> int:
    """GRID_* flags from the raw value, the keywords and the lattice name."""
    bits = {"no_self": GRID_NO_SELF, "torus": GRID_TORUS, "moore": GRID_MOORE,
            "cylinder": GRID_CYLINDER}
    f = C.count(flags, "flags", 0xFFFFFFFF)
    for key, on in named.items():
        if on:
            f |= bits[key]
    if lattice not in _LATTICES:
        raise ValueError("lattice must be 'square', 'hex' or 'tri', not %r" % (lattice,))
    return f | _LATTICES[lattice]


class Graph(_Handle):
    """A toggle graph: N cells and the toggle matrix A (A[i][j] is what
    pressing cell j adds to cell i). Immutable; grid cells are numbered
    row-major. Build one with a classmethod, e.g. ``Graph.grid(5, 5)``."""

    _free_name = "toggle_graph_free"

    @classmethod
    def grid(cls, rows: int, cols: Optional[int] = None, flags: int = 0, no_self: bool = False,
             torus: bool = False, moore: bool = False, cylinder: bool = False,
             lattice: str = "square") -> "Graph":
        """A rows x cols grid (cols defaults to rows).

        Pressing a cell toggles it and its 4 neighbours; ``no_self`` leaves
        the cell itself alone, ``torus`` wraps around the edges, ``cylinder``
        wraps left-right only, ``moore`` adds the diagonals; ``lattice`` is
        "square", "hex" (odd-r rows) or "tri" (docs/lattices.md). ``flags``
        takes the GRID_* constants directly."""
        rows = C.count(rows, "rows")
        cols = rows if cols is None else C.count(cols, "cols")
        f = _grid_flags(flags, lattice, no_self=no_self, torus=torus, moore=moore,
                        cylinder=cylinder)
        return cls._wrap(_new("toggle_graph_new_grid", rows, cols, f))

    @classmethod
    def stencil(cls, rows: int, cols: int, offsets: Sequence[Sequence[int]],
                weights: Optional[Sequence[int]] = None, torus: bool = False) -> "Graph":
        """A grid whose press adds ``weights[s]`` (default 1) to the cell at
        offset ``offsets[s] = (drow, dcol)`` from the pressed cell."""
        rows, cols = C.count(rows, "rows"), C.count(cols, "cols")
        pairs = [tuple(o) for o in offsets]
        for o in pairs:
            if len(o) != 2:
                raise ValueError("each offset must be a pair (drow, dcol), got %r" % (o,))
        count = len(pairs)
        if weights is None:
            weights = [1] * count
        dr, _ = A.to_c([o[0] for o in pairs], ctypes.c_int64)
        dc, _ = A.to_c([o[1] for o in pairs], ctypes.c_int64)
        w, _ = A.to_c(weights, ctypes.c_uint64, count)
        return cls._wrap(_new("toggle_graph_new_stencil", rows, cols, dr, dc, w, count,
                              GRID_TORUS if torus else 0))

    @classmethod
    def adjacency(cls, matrix: Any, no_self: bool = False) -> "Graph":
        """An undirected graph from an n x n 0/1 symmetric adjacency matrix."""
        n, m = A.shape_of(matrix)
        if n != m:
            raise ValueError("adjacency matrix must be square, got %d x %d" % (n, m))
        buf, _ = A.to_c(matrix, ctypes.c_uint8)
        return cls._wrap(_new("toggle_graph_new_adjacency", n, buf,
                              GRAPH_NO_SELF if no_self else 0))

    @classmethod
    def edges(cls, n: int, edges: Sequence[Sequence[int]], no_self: bool = False) -> "Graph":
        """An undirected graph on n nodes from pairs (u, v)."""
        n = C.count(n, "n")
        pairs = [tuple(e) for e in edges]
        for e in pairs:
            if len(e) != 2:
                raise ValueError("each edge must be a pair (u, v)")
        buf, _ = A.to_c(pairs, ctypes.c_size_t)
        return cls._wrap(_new("toggle_graph_new_edges", n, buf, len(pairs),
                              GRAPH_NO_SELF if no_self else 0))

    @classmethod
    def parse_edges(cls, text: Union[str, bytes], no_self: bool = False) -> "Graph":
        """Parse "u v" lines ('#' comments, optional first line "nodes N")."""
        data = C.text(text, "text")
        return cls._wrap(_new("toggle_graph_parse_edges", data, len(data),
                              GRAPH_NO_SELF if no_self else 0))

    @classmethod
    def matrix(cls, a: Any) -> "Graph":
        """An arbitrary (directed) n x n toggle matrix; a[i][j] is what
        pressing j adds to cell i."""
        n, m = A.shape_of(a)
        if n != m:
            raise ValueError("toggle matrix must be square, got %d x %d" % (n, m))
        buf, _ = A.to_c(a)
        return cls._wrap(_new("toggle_graph_new_matrix", n, buf))

    @property
    def cells(self) -> int:
        """Number of cells N."""
        return int(_ffi.fn("toggle_graph_cells")(self._handle))

    def __len__(self) -> int:
        return self.cells

    @property
    def kind(self) -> Optional[str]:
        """"grid", "stencil" or "matrix"."""
        return _KIND_NAMES.get(int(_ffi.fn("toggle_graph_kind")(self._handle)))

    @property
    def flags(self) -> int:
        """The flags the graph was built with."""
        return int(_ffi.fn("toggle_graph_flags")(self._handle))

    @property
    def shape(self) -> Optional[Tuple[int, int]]:
        """(rows, cols) of a grid or stencil graph, None otherwise."""
        r, c = ctypes.c_size_t(), ctypes.c_size_t()
        st = _ffi.fn("toggle_graph_grid_shape")(self._handle, ctypes.byref(r), ctypes.byref(c))
        return (r.value, c.value) if st == 0 else None

    def entry(self, i: int, j: int) -> int:
        """What pressing cell j adds to cell i (not reduced)."""
        v = ctypes.c_uint64()
        call("toggle_graph_entry", self._handle, C.count(i, "i"), C.count(j, "j"),
             ctypes.byref(v))
        return v.value

    def to_matrix(self) -> Any:
        """The dense N x N matrix A (only sensible for small graphs)."""
        n = self.cells
        rows = [[self.entry(i, j) for j in range(n)] for i in range(n)]
        if A.np is not None:
            return A.np.array(rows, dtype=A.np.uint64).reshape(n, n)
        return rows

    def system(self, modulus: int = 2, start: Any = None, target: Any = None) -> "System":
        """The game on this graph: shorthand for System(self, ...)."""
        return System(self, modulus, start, target)

    def __repr__(self) -> str:
        if self.closed:
            return "<toggle.Graph closed>"
        shape = self.shape
        return "<toggle.Graph %s, %d cells%s>" % (
            self.kind, self.cells, ", %dx%d" % shape if shape else "")


def _packed_words(a: Any, n: int) -> Tuple[Any, int, int]:
    """(buffer, rows, stride) of packed uint64 rows (a 2-D array of words):
    shared, not copied, when a is a C-contiguous uint64 numpy array."""
    np = A.np
    if np is not None:
        arr = np.asarray(a)
        if arr.ndim != 2:
            raise ValueError("packed rows must be 2-D (rows x words), got %d dimension(s)"
                             % arr.ndim)
        if arr.dtype != np.uint64:
            if arr.dtype.kind not in "iu" or (arr.size and int(arr.min()) < 0):
                raise TypeError("packed rows must be uint64 words, got dtype %s" % arr.dtype)
        m, stride = int(arr.shape[0]), int(arr.shape[1])
    else:
        m, stride = A.shape_of(a)
    if m and stride * 64 < n:
        raise ValueError("cols = %d does not fit %d words a row" % (n, stride))
    buf, _ = A.to_c(a, ctypes.c_uint64)
    return buf, m, max(stride, (n + 63) // 64)


class System(_Handle):
    """An augmented system A x = b over Z/kZ.

    ``System(graph, modulus=2, start=None, target=None)`` is the game on a
    graph: b = target - start, start defaults to all 0 and target to all 1.
    ``System.from_matrix(a, b, modulus)``, ``System.from_packed(words, b,
    cols)`` (GF(2), 64 entries a word) and ``System.parse(text, modulus)``
    build arbitrary (m x n) systems."""

    _free_name = "toggle_system_free"
    _progress: Optional[ProgressCallback] = None

    def __init__(self, graph: Graph, modulus: int = 2, start: Any = None,
                 target: Any = None) -> None:
        self._h = None
        self._owner = None
        self._progress = None
        if not isinstance(graph, Graph):
            raise TypeError("graph must be a toggle.Graph, got %s" % type(graph).__name__)
        modulus = C.modulus(modulus)
        n = graph.cells
        s = A.to_c(start, length=n)[0] if start is not None else None
        t = A.to_c(target, length=n)[0] if target is not None else None
        self._h = _new("toggle_system_new", graph._handle, modulus, s, t)

    @classmethod
    def from_matrix(cls, a: Any, b: Any, modulus: int = 2) -> "System":
        """A system from an m x n matrix (nested lists or 2-D array) and m values b."""
        modulus = C.modulus(modulus)
        m, n = A.shape_of(a)
        abuf, _ = A.to_c(a)
        bbuf, _ = A.to_c(b, length=m)
        return cls._wrap(_new("toggle_system_new_matrix", m, n, abuf, bbuf, modulus))

    @classmethod
    def from_packed(cls, words: Any, b: Any, cols: int) -> "System":
        """A modulus-2 system from packed rows (toggle_system_new_packed, 1.1):
        ``words`` is an m x stride array of uint64 words, entry A[i][j] being
        bit j % 64 (bit 0 the least significant) of words[i][j // 64], with
        stride >= ceil(cols / 64) (padding bits are ignored); ``b`` is m
        values 0 or 1. A C-contiguous uint64 array is read in place (the
        library copies it at one bit per entry)."""
        n = C.count(cols, "cols")
        buf, m, stride = _packed_words(words, n)
        bits = A._flat(b)
        if len(bits) != m:
            raise ValueError("b must have %d entries (one per row), got %d" % (m, len(bits)))
        bwords = (ctypes.c_uint64 * max((m + 63) // 64, 1))()
        for i, v in enumerate(bits):
            v = int(v)
            if v not in (0, 1):
                raise ValueError("b[%d] = %d is not 0 or 1 (a packed system is mod 2)" % (i, v))
            if v:
                bwords[i // 64] |= 1 << (i % 64)
        return cls._wrap(_new("toggle_system_new_packed", m, n, buf, stride, bwords))

    @classmethod
    def parse(cls, text: Union[str, bytes], modulus: int = 2) -> "System":
        """Parse the augmented text form ("110|1" lines; white space between
        entries when modulus > 10). Raises ParseError with line and column."""
        data = C.text(text, "text")
        modulus = C.modulus(modulus)
        return cls._wrap(_new("toggle_system_parse", data, len(data), modulus))

    def write(self) -> str:
        """The augmented text form, as a str."""
        h = self._handle
        return _read_string(lambda buf, n, need: int(
            _ffi.fn("toggle_system_write")(h, buf, n, need)))

    @property
    def rows(self) -> int:
        """Number of equations m."""
        return int(_ffi.fn("toggle_system_rows")(self._handle))

    @property
    def cols(self) -> int:
        """Number of unknowns n."""
        return int(_ffi.fn("toggle_system_cols")(self._handle))

    @property
    def modulus(self) -> int:
        """The modulus k."""
        return int(_ffi.fn("toggle_system_modulus")(self._handle))

    @property
    def graph(self) -> Optional[Graph]:
        """The graph the system was built on (a borrowed view), or None."""
        g = _ffi.fn("toggle_system_graph")(self._handle)
        return Graph._wrap(int(g), owner=self) if g else None

    def entry(self, i: int, j: int) -> int:
        """A[i][j] reduced modulo k."""
        v = ctypes.c_uint64()
        call("toggle_system_entry", self._handle, C.count(i, "i"), C.count(j, "j"),
             ctypes.byref(v))
        return v.value

    def rhs(self, i: Optional[int] = None) -> Any:
        """b[i], or the whole right-hand side when i is None."""
        if i is None:
            buf = A.empty(self.rows)
            for r in range(self.rows):
                buf[r] = self.rhs(r)
            return A.result(buf)
        v = ctypes.c_uint64()
        call("toggle_system_rhs", self._handle, C.count(i, "i"), ctypes.byref(v))
        return v.value

    def set_option(self, key: int, value: int) -> None:
        """Set a SYSTEM_OPT_* option (see also the engine, memory_budget,
        search_limit and threads properties). A key of a search or a
        generator raises InvalidArgumentError naming it."""
        call("toggle_system_set_option", self._handle, C.integer(key, "key"),
             C.u64(value, "value"))

    def get_option(self, key: int) -> int:
        """Read a SYSTEM_OPT_* option."""
        v = ctypes.c_uint64()
        call("toggle_system_get_option", self._handle, C.integer(key, "key"), ctypes.byref(v))
        return v.value

    @property
    def engine(self) -> Optional[str]:
        """The forced engine's name ("auto" by default); assign a name or ENGINE_*."""
        return engine_name(self.get_option(SYSTEM_OPT_ENGINE))

    @engine.setter
    def engine(self, value: Engine) -> None:
        self.set_option(SYSTEM_OPT_ENGINE, _engine_value(value))

    @property
    def memory_budget(self) -> int:
        """Bytes the solver may allocate (0 = unlimited)."""
        return self.get_option(SYSTEM_OPT_MEMORY_BUDGET)

    @memory_budget.setter
    def memory_budget(self, value: int) -> None:
        self.set_option(SYSTEM_OPT_MEMORY_BUDGET, value)

    @property
    def search_limit(self) -> int:
        """Solutions a fewest-press search on this system's solutions (or a
        generator) may visit by default: 2^32 unless set; 0 = unlimited,
        read back as 2^64 - 1."""
        return self.get_option(SYSTEM_OPT_SEARCH_LIMIT)

    @search_limit.setter
    def search_limit(self, value: int) -> None:
        self.set_option(SYSTEM_OPT_SEARCH_LIMIT, value)

    @property
    def threads(self) -> int:
        """Threads an engine may use for this system: 1 unless set; 0 = one
        per online processor. Answers never depend on it."""
        return self.get_option(SYSTEM_OPT_THREADS)

    @threads.setter
    def threads(self, value: int) -> None:
        self.set_option(SYSTEM_OPT_THREADS, value)

    def check(self, x: Any) -> bool:
        """True if the presses x solve the system (A x = b mod k); no elimination."""
        buf, n = A.to_c(x)
        ok = ctypes.c_int(0)
        call("toggle_system_check", self._handle, buf, n, ctypes.byref(ok))
        return bool(ok.value)

    def check_certificate(self, y: Any) -> bool:
        """True if y proves the system unsolvable (y A = 0, y . b != 0)."""
        buf, n = A.to_c(y)
        ok = ctypes.c_int(0)
        call("toggle_system_check_certificate", self._handle, buf, n, ctypes.byref(ok))
        return bool(ok.value)

    @property
    def progress(self) -> Optional[ProgressCallback]:
        """The progress callback, ``callback(fraction) -> bool | None`` (a true
        return cancels the solve with CancelledError), or None. Without one,
        a solve still watches for Ctrl-C: KeyboardInterrupt cancels it
        cleanly (the C work stops at its next report and frees everything)."""
        return self._progress

    @progress.setter
    def progress(self, callback: Optional[ProgressCallback]) -> None:
        if callback is not None and not callable(callback):
            raise TypeError("progress must be callable or None, got %s"
                            % type(callback).__name__)
        self._progress = callback

    def _watch(self) -> _ProgressWatch:
        """Install the C callback for one call; returns the watcher."""
        watcher = _ProgressWatch(self._progress)
        call("toggle_system_set_progress", self._handle, watcher.c_callback, None)
        return watcher

    def solve(self) -> "Solution":
        """Solve the system. An unsolvable system gives a Solution whose
        ``solvable`` is False (with a certificate), not an exception.
        ``progress`` (if set) is called during the solve; Ctrl-C
        (KeyboardInterrupt) cancels it."""
        h = self._handle
        watcher = self._watch()
        try:
            out = ctypes.c_void_p()
            try:
                watcher.run(_ffi.fn("toggle_solve"), ctypes.byref(out), h)
            except BaseException:
                if out.value:  # Ctrl-C after the last report: the solve finished
                    _ffi.fn("toggle_solution_free")(out.value)
                raise
            sol = Solution._wrap(out.value)
            # the solution keeps the callback for its fewest-press searches
            sol._watcher = watcher
            return sol
        finally:
            _ffi.fn("toggle_system_set_progress")(h, _ffi.PROGRESS_FN(0), None)  # NULL

    def __repr__(self) -> str:
        if self.closed:
            return "<toggle.System closed>"
        return "<toggle.System %d x %d over Z/%d>" % (self.rows, self.cols, self.modulus)


class Solution(_SolutionSpace, _SolutionOrbits):
    """The answer of System.solve(): solvability, the canonical particular
    solution (RREF, free variables 0), a kernel basis, the count, or a
    certificate of unsolvability. Independent of the system it came from.
    Also: iteration over every solution, sample(), fewest_presses() and
    count_orbits()."""

    _free_name = "toggle_solution_free"

    @property
    def solvable(self) -> bool:
        """True if the system has a solution."""
        return bool(check(_ffi.fn("toggle_solution_is_solvable")(self._handle)))

    def __bool__(self) -> bool:
        return self.solvable

    @property
    def rows(self) -> int:
        """Number of equations m (length of the certificate)."""
        return int(_ffi.fn("toggle_solution_rows")(self._handle))

    @property
    def cols(self) -> int:
        """Number of unknowns n (length of solutions and kernel vectors)."""
        return int(_ffi.fn("toggle_solution_cols")(self._handle))

    @property
    def modulus(self) -> int:
        """The modulus k."""
        return int(_ffi.fn("toggle_solution_modulus")(self._handle))

    @property
    def engine(self) -> Optional[str]:
        """Name of the engine that produced the solution."""
        return engine_name(int(_ffi.fn("toggle_solution_engine")(self._handle)))

    @property
    def nullity(self) -> int:
        """Dimension of the kernel (number of kernel basis vectors)."""
        return int(_ffi.fn("toggle_solution_nullity")(self._handle))

    @property
    def count(self) -> int:
        """Exact number of solutions, a Python int of any size (0 if unsolvable)."""
        h = self._handle
        s = _read_string(lambda buf, n, need: int(
            _ffi.fn("toggle_solution_count_string")(h, buf, n, need)))
        return int(s)

    def count_u64(self) -> int:
        """The number of solutions when it fits 64 bits; raises
        OverflowToggleError otherwise (``count`` is always exact)."""
        v = ctypes.c_uint64()
        call("toggle_solution_count_u64", self._handle, ctypes.byref(v))
        return v.value

    def particular(self) -> Any:
        """The canonical particular solution (n press counts).
        Raises NoSolutionError if the system is unsolvable."""
        n = self.cols
        buf = A.empty(n)
        call("toggle_solution_particular", self._handle, A.ptr(buf), n)
        return A.result(buf)

    def particular_range(self, offset: int, length: int) -> Any:
        """Entries [offset, offset + length) of the particular solution."""
        offset, length = C.count(offset, "offset"), C.count(length, "length")
        buf = A.empty(length)
        call("toggle_solution_particular_range", self._handle, offset, A.ptr(buf), length)
        return A.result(buf)

    def particular_packed(self, offset: int = 0, length: Optional[int] = None) -> Any:
        """Entries [offset, offset + length) of a modulus-2 particular solution
        as packed 64-bit words (entry offset + i is bit i % 64 of word i // 64);
        length defaults to the rest of the vector."""
        offset = C.count(offset, "offset")
        length = self.cols - offset if length is None else C.count(length, "length")
        nwords = (length + 63) // 64
        buf = A.empty(nwords)
        call("toggle_solution_particular_packed", self._handle, offset, length,
             A.ptr(buf), nwords)
        return A.result(buf)

    def kernel_vector(self, index: int) -> Any:
        """Kernel basis vector `index` (0 <= index < nullity)."""
        index = C.count(index, "index")
        n = self.cols
        buf = A.empty(n)
        call("toggle_solution_kernel_vector", self._handle, index, A.ptr(buf), n)
        return A.result(buf)

    def kernel_packed(self, index: int, offset: int = 0, length: Optional[int] = None) -> Any:
        """Entries [offset, offset + length) of kernel basis vector `index`
        of a modulus-2 solution as packed 64-bit words, in the layout of
        particular_packed (1.1); length defaults to the rest of the vector."""
        index = C.count(index, "index")
        offset = C.count(offset, "offset")
        length = self.cols - offset if length is None else C.count(length, "length")
        nwords = (length + 63) // 64
        buf = A.empty(nwords)
        call("toggle_solution_kernel_packed", self._handle, index, offset, length,
             A.ptr(buf), nwords)
        return A.result(buf)

    def kernel(self) -> Any:
        """The kernel basis: a (nullity, n) array, or a list of lists."""
        return A.stack([self.kernel_vector(i) for i in range(self.nullity)], self.cols)

    def certificate(self) -> Any:
        """A vector y with y A = 0 and y . b = 1 proving unsolvability, or
        None when the system is solvable. Raises UnsupportedError where no
        certificate exists (composite modulus)."""
        if self.solvable:
            return None
        m = self.rows
        buf = A.empty(m)
        call("toggle_solution_certificate", self._handle, A.ptr(buf), m)
        return A.result(buf)

    def __repr__(self) -> str:
        if self.closed:
            return "<toggle.Solution closed>"
        return "<toggle.Solution %s, nullity %d, engine %s>" % (
            "solvable" if self.solvable else "unsolvable", self.nullity, self.engine)


def grid_nullity(rows: int, cols: Optional[int] = None, modulus: int = 2, flags: int = 0,
                 no_self: bool = False, torus: bool = False, moore: bool = False,
                 cylinder: bool = False, lattice: str = "square") -> int:
    """Nullity of the rows x cols grid game over Z/kZ without building the
    board for prime k (polynomials for classic and no_self boards, tori and
    cylinders); for composite k the number of Howell rows of the kernel
    (Solution.nullity's meaning there), from a solve. The keywords are those
    of Graph.grid."""
    rows = C.count(rows, "rows")
    cols = rows if cols is None else C.count(cols, "cols")
    f = _grid_flags(flags, lattice, no_self=no_self, torus=torus, moore=moore,
                    cylinder=cylinder)
    out = ctypes.c_size_t()
    call("toggle_grid_nullity", rows, cols, C.modulus(modulus), f, ctypes.byref(out))
    return out.value


def parse_board(text: Union[str, bytes], modulus: int = 2) -> Tuple[Any, int, int]:
    """Parse a board (one line per row, digits or white-space separated values).
    Returns (cells, rows, cols) with cells flat and row-major."""
    data = C.text(text, "text")
    modulus = C.modulus(modulus)
    rows, cols = ctypes.c_size_t(), ctypes.c_size_t()
    st = _ffi.fn("toggle_board_parse")(data, len(data), modulus, None, 0,
                                       ctypes.byref(rows), ctypes.byref(cols))
    if st not in (0, -6):
        check(st)
    n = rows.value * cols.value
    buf = A.empty(n)
    call("toggle_board_parse", data, len(data), modulus, A.ptr(buf), n,
         ctypes.byref(rows), ctypes.byref(cols))
    return A.result(buf), rows.value, cols.value


def format_board(cells: Any, rows: int, cols: int, modulus: int = 2) -> str:
    """Format rows x cols values as text that parse_board() reads."""
    rows, cols = C.count(rows, "rows"), C.count(cols, "cols")
    modulus = C.modulus(modulus)
    buf, _ = A.to_c(cells, length=rows * cols)
    return _read_string(lambda out, n, need: int(_ffi.fn("toggle_board_format")(
        buf, rows, cols, modulus, out, n, need)))

