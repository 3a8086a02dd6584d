"""Graphs, systems and solutions: Python classes over libtoggle's handles."""

import ctypes
import signal
import threading

from . import _ffi
from . import _arrays as A
from . import _check as C
from ._errors import call, check, ECANCELED

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


def _text(s):
    return s.encode("utf-8") if isinstance(s, str) else bytes(s)


def _read_string(writer):
    """Run a (buf, len, needed) writer twice: once to size, once to fill."""
    needed = ctypes.c_size_t(0)
    status = writer(None, 0, ctypes.byref(needed))
    if status not in (0, -6):
        check(status)
    buf = ctypes.create_string_buffer(max(needed.value, 1))
    check(writer(buf, len(buf), ctypes.byref(needed)))
    return buf.value.decode("utf-8")


def engine_name(engine):
    """Name of a TOGGLE_ENGINE_* value ("auto", "flint", ...), or None."""
    name = _ffi.fn("toggle_engine_name")(int(engine))
    return name.decode() if name is not None else None


def engine_from_name(name):
    """The TOGGLE_ENGINE_* value of an engine name; raises InvalidArgumentError."""
    out = ctypes.c_int(0)
    call("toggle_engine_from_name", _text(name), ctypes.byref(out))
    return out.value


def _engine_value(engine):
    return engine_from_name(engine) if isinstance(engine, (str, bytes)) else int(engine)


class _Handle(object):
    """Owns one C handle; close() frees it now, the garbage collector later."""

    _free_name = None

    def __init__(self):
        raise TypeError("use the classmethods to build a %s" % type(self).__name__)

    @classmethod
    def _wrap(cls, handle, owner=None):
        self = object.__new__(cls)
        self._h = handle
        # owner: the object a borrowed handle belongs to (kept alive, never freed)
        self._owner = owner
        return self

    @property
    def _handle(self):
        if self._h is None or (self._owner is not None and self._owner.closed):
            raise ValueError("%s is closed" % type(self).__name__)
        return self._h

    @property
    def closed(self):
        """True once close() has run."""
        return self._h is None

    def close(self):
        """Free the C object now. Safe to call twice; later use raises ValueError."""
        h, self._h = getattr(self, "_h", None), None
        if h is not None and self._owner is None:
            _ffi.fn(self._free_name)(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class _ProgressWatch(object):
    """The C progress callback of one call: runs the user's callback and
    turns Ctrl-C or an exception into a cancel, re-raised once the C call
    has returned TOGGLE_ECANCELED (its work freed, outputs untouched).

    Ctrl-C: while a call runs on the main thread with Python's default
    SIGINT handler, a handler of ours only records the signal (a
    KeyboardInterrupt raised inside a ctypes callback could not be caught
    there); the next report cancels, and KeyboardInterrupt is raised after."""

    def __init__(self, user):
        self.user = user
        self.pending = None
        self.interrupted = False
        self.c_callback = _ffi.PROGRESS_FN(self._report)
        self._old = None

    def _report(self, payload, fraction):
        if self.interrupted or self.pending is not None:
            return 1
        try:
            if self.user is not None and self.user(float(fraction)):
                return 1
            return 0
        except BaseException as exc:
            self.pending = exc
            return 1

    def _on_sigint(self, signum, frame):
        self.interrupted = True

    def __enter__(self):
        self.interrupted = False
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._old = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
            self._old = None
        return False

    def finish(self, status):
        """Raise what cancelled the call, else check status."""
        if status == ECANCELED and self.interrupted:
            self.interrupted = False
            raise KeyboardInterrupt
        if status == ECANCELED and self.pending is not None:
            exc, self.pending = self.pending, None
            raise exc
        check(status)

    def run(self, fn, *args):
        """fn(*args) (a C call) with Ctrl-C watched; then finish()."""
        with self:
            status = fn(*args)
        self.finish(status)
        return status


def _new(name, *args):
    out = ctypes.c_void_p()
    call(name, ctypes.byref(out), *args)
    return out.value


class Graph(_Handle):
    """A toggle graph: N cells and the toggle matrix A (A[i][j] is what
    pressing cell j adds to cell i). Immutable; grid cells are numbered
    row-major. Build one with a classmethod, e.g. ``Graph.grid(5, 5)``."""

    _free_name = "toggle_graph_free"

    @staticmethod
    def _flags(flags, **named):
        bits = {"no_self": GRID_NO_SELF, "torus": GRID_TORUS, "moore": GRID_MOORE,
                "cylinder": GRID_CYLINDER}
        for key, on in named.items():
            if on:
                flags |= bits[key]
        return flags

    @classmethod
    def grid(cls, rows, cols=None, flags=0, no_self=False, torus=False, moore=False,
             cylinder=False, lattice="square"):
        """A rows x cols grid (cols defaults to rows).

        Pressing a cell toggles it and its 4 neighbours; ``no_self`` leaves
        the cell itself alone, ``torus`` wraps around the edges, ``cylinder``
        wraps left-right only, ``moore`` adds the diagonals; ``lattice`` is
        "square", "hex" (odd-r rows) or "tri" (docs/lattices.md). ``flags``
        takes the GRID_* constants directly."""
        rows = C.count(rows, "rows")
        cols = rows if cols is None else C.count(cols, "cols")
        f = cls._flags(C.count(flags, "flags", 0xFFFFFFFF), no_self=no_self, torus=torus,
                       moore=moore, cylinder=cylinder)
        lat = {"square": 0, "hex": GRID_HEX, "tri": GRID_TRI}
        if lattice not in lat:
            raise ValueError("lattice must be 'square', 'hex' or 'tri', not %r" % (lattice,))
        f |= lat[lattice]
        return cls._wrap(_new("toggle_graph_new_grid", rows, cols, f))

    @classmethod
    def stencil(cls, rows, cols, offsets, weights=None, torus=False):
        """A grid whose press adds ``weights[s]`` (default 1) to the cell at
        offset ``offsets[s] = (drow, dcol)`` from the pressed cell."""
        rows, cols = C.count(rows, "rows"), C.count(cols, "cols")
        offsets = [tuple(o) for o in offsets]
        count = len(offsets)
        if weights is None:
            weights = [1] * count
        dr, _ = A.to_c([o[0] for o in offsets], ctypes.c_int64)
        dc, _ = A.to_c([o[1] for o in offsets], ctypes.c_int64)
        w, _ = A.to_c(weights, ctypes.c_uint64, count)
        return cls._wrap(_new("toggle_graph_new_stencil", rows, cols, dr, dc, w, count,
                              GRID_TORUS if torus else 0))

    @classmethod
    def adjacency(cls, matrix, no_self=False):
        """An undirected graph from an n x n 0/1 symmetric adjacency matrix."""
        n, m = A.shape_of(matrix)
        if n != m:
            raise ValueError("adjacency matrix must be square, got %d x %d" % (n, m))
        buf, _ = A.to_c(matrix, ctypes.c_uint8)
        return cls._wrap(_new("toggle_graph_new_adjacency", n, buf,
                              GRAPH_NO_SELF if no_self else 0))

    @classmethod
    def edges(cls, n, edges, no_self=False):
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
    def parse_edges(cls, text, no_self=False):
        """Parse "u v" lines ('#' comments, optional first line "nodes N")."""
        data = _text(text)
        return cls._wrap(_new("toggle_graph_parse_edges", data, len(data),
                              GRAPH_NO_SELF if no_self else 0))

    @classmethod
    def matrix(cls, a):
        """An arbitrary (directed) n x n toggle matrix; a[i][j] is what
        pressing j adds to cell i."""
        n, m = A.shape_of(a)
        if n != m:
            raise ValueError("toggle matrix must be square, got %d x %d" % (n, m))
        buf, _ = A.to_c(a)
        return cls._wrap(_new("toggle_graph_new_matrix", n, buf))

    @property
    def cells(self):
        """Number of cells N."""
        return _ffi.fn("toggle_graph_cells")(self._handle)

    def __len__(self):
        return self.cells

    @property
    def kind(self):
        """"grid", "stencil" or "matrix"."""
        return _KIND_NAMES.get(_ffi.fn("toggle_graph_kind")(self._handle))

    @property
    def flags(self):
        """The flags the graph was built with."""
        return _ffi.fn("toggle_graph_flags")(self._handle)

    @property
    def shape(self):
        """(rows, cols) of a grid or stencil graph, None otherwise."""
        r, c = ctypes.c_size_t(), ctypes.c_size_t()
        st = _ffi.fn("toggle_graph_grid_shape")(self._handle, ctypes.byref(r), ctypes.byref(c))
        return (r.value, c.value) if st == 0 else None

    def entry(self, i, j):
        """What pressing cell j adds to cell i (not reduced)."""
        v = ctypes.c_uint64()
        call("toggle_graph_entry", self._handle, i, j, ctypes.byref(v))
        return v.value

    def to_matrix(self):
        """The dense N x N matrix A (only sensible for small graphs)."""
        n = self.cells
        rows = [[self.entry(i, j) for j in range(n)] for i in range(n)]
        if A.np is not None:
            return A.np.array(rows, dtype=A.np.uint64).reshape(n, n)
        return rows

    def system(self, modulus=2, start=None, target=None):
        """The game on this graph: shorthand for System(self, ...)."""
        return System(self, modulus, start, target)

    def __repr__(self):
        if self.closed:
            return "<toggle.Graph closed>"
        return "<toggle.Graph %s, %d cells%s>" % (
            self.kind, self.cells, ", %dx%d" % self.shape if self.shape else "")


class System(_Handle):
    """An augmented system A x = b over Z/kZ.

    ``System(graph, modulus=2, start=None, target=None)`` is the game on a
    graph: b = target - start, start defaults to all 0 and target to all 1.
    ``System.from_matrix(a, b, modulus)`` and ``System.parse(text, modulus)``
    build arbitrary (m x n) systems."""

    _free_name = "toggle_system_free"
    _progress = None

    def __init__(self, graph, modulus=2, start=None, target=None):
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
    def from_matrix(cls, a, b, modulus=2):
        """A system from an m x n matrix (nested lists or 2-D array) and m values b."""
        modulus = C.modulus(modulus)
        m, n = A.shape_of(a)
        abuf, _ = A.to_c(a)
        bbuf, _ = A.to_c(b, length=m)
        return cls._wrap(_new("toggle_system_new_matrix", m, n, abuf, bbuf, modulus))

    @classmethod
    def parse(cls, text, modulus=2):
        """Parse the augmented text form ("110|1" lines; white space between
        entries when modulus > 10). Raises ParseError with line and column."""
        data = C.text(text, "text")
        modulus = C.modulus(modulus)
        return cls._wrap(_new("toggle_system_parse", data, len(data), modulus))

    def write(self):
        """The augmented text form, as a str."""
        h = self._handle
        return _read_string(lambda buf, n, need: _ffi.fn("toggle_system_write")(h, buf, n, need))


    @property
    def rows(self):
        """Number of equations m."""
        return _ffi.fn("toggle_system_rows")(self._handle)

    @property
    def cols(self):
        """Number of unknowns n."""
        return _ffi.fn("toggle_system_cols")(self._handle)

    @property
    def modulus(self):
        """The modulus k."""
        return _ffi.fn("toggle_system_modulus")(self._handle)

    @property
    def graph(self):
        """The graph the system was built on (a borrowed view), or None."""
        g = _ffi.fn("toggle_system_graph")(self._handle)
        return Graph._wrap(g, owner=self) if g else None

    def entry(self, i, j):
        """A[i][j] reduced modulo k."""
        v = ctypes.c_uint64()
        call("toggle_system_entry", self._handle, i, j, ctypes.byref(v))
        return v.value

    def rhs(self, i=None):
        """b[i], or the whole right-hand side when i is None."""
        if i is None:
            buf = A.empty(self.rows)
            for r in range(self.rows):
                buf[r] = self.rhs(r)
            return A.result(buf)
        v = ctypes.c_uint64()
        call("toggle_system_rhs", self._handle, i, ctypes.byref(v))
        return v.value

    def set_option(self, key, value):
        """Set a SYSTEM_OPT_* option (see also the engine, memory_budget and
        search_limit properties). A key of a search or a generator raises
        InvalidArgumentError naming it."""
        key = C.integer(key, "key")
        value = C.u64(value, "value")
        call("toggle_system_set_option", self._handle, key, value)

    def get_option(self, key):
        """Read a SYSTEM_OPT_* option."""
        v = ctypes.c_uint64()
        call("toggle_system_get_option", self._handle, C.integer(key, "key"), ctypes.byref(v))
        return v.value

    @property
    def engine(self):
        """The forced engine's name ("auto" by default); assign a name or ENGINE_*."""
        return engine_name(self.get_option(SYSTEM_OPT_ENGINE))

    @engine.setter
    def engine(self, value):
        self.set_option(SYSTEM_OPT_ENGINE, _engine_value(value))

    @property
    def memory_budget(self):
        """Bytes the solver may allocate (0 = unlimited)."""
        return self.get_option(SYSTEM_OPT_MEMORY_BUDGET)

    @memory_budget.setter
    def memory_budget(self, value):
        self.set_option(SYSTEM_OPT_MEMORY_BUDGET, value)

    @property
    def search_limit(self):
        """Solutions a fewest-press search on this system's solutions (or a
        generator) may visit by default: 2^32 unless set; 0 = unlimited,
        read back as 2^64 - 1."""
        return self.get_option(SYSTEM_OPT_SEARCH_LIMIT)

    @search_limit.setter
    def search_limit(self, value):
        self.set_option(SYSTEM_OPT_SEARCH_LIMIT, value)

    @property
    def threads(self):
        """Threads an engine may use for this system: 1 unless set; 0 = one
        per online processor. Answers never depend on it."""
        return self.get_option(SYSTEM_OPT_THREADS)

    @threads.setter
    def threads(self, value):
        self.set_option(SYSTEM_OPT_THREADS, value)

    def check(self, x):
        """True if the presses x solve the system (A x = b mod k); no elimination."""
        buf, n = A.to_c(x)
        ok = ctypes.c_int(0)
        call("toggle_system_check", self._handle, buf, n, ctypes.byref(ok))
        return bool(ok.value)

    def check_certificate(self, y):
        """True if y proves the system unsolvable (y A = 0, y . b != 0)."""
        buf, n = A.to_c(y)
        ok = ctypes.c_int(0)
        call("toggle_system_check_certificate", self._handle, buf, n, ctypes.byref(ok))
        return bool(ok.value)

    @property
    def progress(self):
        """The progress callback, ``callback(fraction) -> bool | None`` (a true
        return cancels the solve with CancelledError), or None. Without one,
        a solve still watches for Ctrl-C: KeyboardInterrupt cancels it
        cleanly (the C work stops at its next report and frees everything)."""
        return self._progress

    @progress.setter
    def progress(self, callback):
        if callback is not None and not callable(callback):
            raise TypeError("progress must be callable or None, got %s"
                            % type(callback).__name__)
        self._progress = callback

    def _watch(self):
        """Install the C callback for one call; returns the watcher."""
        watcher = _ProgressWatch(self._progress)
        call("toggle_system_set_progress", self._handle, watcher.c_callback, None)
        return watcher

    def solve(self):
        """Solve the system. An unsolvable system gives a Solution whose
        ``solvable`` is False (with a certificate), not an exception.
        ``progress`` (if set) is called during the solve; Ctrl-C
        (KeyboardInterrupt) cancels it."""
        h = self._handle
        watcher = self._watch()
        try:
            out = ctypes.c_void_p()
            watcher.run(_ffi.fn("toggle_solve"), ctypes.byref(out), h)
            sol = Solution._wrap(out.value)
            # the solution keeps the callback for its fewest-press searches
            sol._watcher = watcher
            return sol
        finally:
            _ffi.fn("toggle_system_set_progress")(h, _ffi.PROGRESS_FN(), None)

    def __repr__(self):
        if self.closed:
            return "<toggle.System closed>"
        return "<toggle.System %d x %d over Z/%d>" % (self.rows, self.cols, self.modulus)


class Solution(_Handle):
    """The answer of System.solve(): solvability, the canonical particular
    solution (RREF, free variables 0), a kernel basis, the count, or a
    certificate of unsolvability. Independent of the system it came from."""

    _free_name = "toggle_solution_free"

    @property
    def solvable(self):
        """True if the system has a solution."""
        return bool(check(_ffi.fn("toggle_solution_is_solvable")(self._handle)))

    def __bool__(self):
        return self.solvable

    @property
    def rows(self):
        """Number of equations m (length of the certificate)."""
        return _ffi.fn("toggle_solution_rows")(self._handle)

    @property
    def cols(self):
        """Number of unknowns n (length of solutions and kernel vectors)."""
        return _ffi.fn("toggle_solution_cols")(self._handle)

    @property
    def modulus(self):
        """The modulus k."""
        return _ffi.fn("toggle_solution_modulus")(self._handle)

    @property
    def engine(self):
        """Name of the engine that produced the solution."""
        return engine_name(_ffi.fn("toggle_solution_engine")(self._handle))

    @property
    def nullity(self):
        """Dimension of the kernel (number of kernel basis vectors)."""
        return _ffi.fn("toggle_solution_nullity")(self._handle)

    @property
    def count(self):
        """Exact number of solutions, a Python int of any size (0 if unsolvable)."""
        h = self._handle
        s = _read_string(lambda buf, n, need:
                         _ffi.fn("toggle_solution_count_string")(h, buf, n, need))
        return int(s)

    def particular(self):
        """The canonical particular solution (n press counts).
        Raises NoSolutionError if the system is unsolvable."""
        n = self.cols
        buf = A.empty(n)
        call("toggle_solution_particular", self._handle, A.ptr(buf), n)
        return A.result(buf)

    def particular_range(self, offset, length):
        """Entries [offset, offset + length) of the particular solution."""
        buf = A.empty(length)
        call("toggle_solution_particular_range", self._handle, offset, A.ptr(buf), length)
        return A.result(buf)

    def particular_packed(self, offset, length):
        """Entries [offset, offset + length) of a modulus-2 particular solution
        as packed 64-bit words (entry offset + i is bit i % 64 of word i // 64)."""
        nwords = (length + 63) // 64
        buf = A.empty(nwords)
        call("toggle_solution_particular_packed", self._handle, offset, length,
             A.ptr(buf), nwords)
        return A.result(buf)

    def kernel_vector(self, index):
        """Kernel basis vector `index` (0 <= index < nullity)."""
        n = self.cols
        buf = A.empty(n)
        call("toggle_solution_kernel_vector", self._handle, index, A.ptr(buf), n)
        return A.result(buf)

    def kernel(self):
        """The kernel basis: a (nullity, n) array, or a list of lists."""
        return A.stack([self.kernel_vector(i) for i in range(self.nullity)], self.cols)

    def certificate(self):
        """A vector y with y A = 0 and y . b = 1 proving unsolvability, or
        None when the system is solvable. Raises UnsupportedError where no
        certificate exists (composite modulus)."""
        if self.solvable:
            return None
        m = self.rows
        buf = A.empty(m)
        call("toggle_solution_certificate", self._handle, A.ptr(buf), m)
        return A.result(buf)

    def __repr__(self):
        if self.closed:
            return "<toggle.Solution closed>"
        return "<toggle.Solution %s, nullity %d, engine %s>" % (
            "solvable" if self.solvable else "unsolvable", self.nullity, self.engine)


def grid_nullity(rows, cols=None, modulus=2, flags=0, no_self=False, torus=False,
                 moore=False):
    """Nullity of the rows x cols grid game over F_p without building the
    board (polynomial gcd for classic and no_self boards)."""
    cols = rows if cols is None else cols
    f = Graph._flags(flags, no_self=no_self, torus=torus, moore=moore)
    out = ctypes.c_size_t()
    call("toggle_grid_nullity", rows, cols, modulus, f, ctypes.byref(out))
    return out.value


def parse_board(text, modulus=2):
    """Parse a board (one line per row, digits or white-space separated values).
    Returns (cells, rows, cols) with cells flat and row-major."""
    data = _text(text)
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


def format_board(cells, rows, cols, modulus=2):
    """Format rows x cols values as text that parse_board() reads."""
    buf, _ = A.to_c(cells, length=rows * cols)
    return _read_string(lambda out, n, need: _ffi.fn("toggle_board_format")(
        buf, rows, cols, modulus, out, n, need))

