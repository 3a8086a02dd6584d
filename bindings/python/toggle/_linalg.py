"""One-call linear algebra over GF(p) (and Z/kZ) on numpy arrays, in the
style of galois and python-flint: ``solve``, ``null_space``, ``rank``,
``row_reduce`` and ``solution_space``. Each builds one system
``A x = b (mod p)`` and solves it with libtoggle (the bit-packed GF(2)
engine for p = 2, FLINT for other primes, the Howell form for composite
moduli), so the answers are the library's canonical ones: the particular
solution has its free variables 0 and the kernel basis is the reduced one
(vector f is 1 at its free column f and 0 at the other free columns).

Inputs: integer arrays of any dtype (negative values are reduced mod p),
nested lists, or, for p = 2, bit-packed rows: ``packed="bits"`` for the
``numpy.packbits(A, axis=1)`` layout (uint8, first column in the high bit)
or ``packed="words"`` for uint64 words (column j is bit j % 64 of word
j // 64); give the column count with ``cols=``. Over GF(2) the system is
always built from packed rows (toggle_system_new_packed, one bit an entry):
C-contiguous uint64 words are handed over without a copy, packbits bytes
are converted in one pass, dense input is packed in one pass; the kernel
and the solution are read back packed. Outputs are uint64 arrays.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

from . import _arrays
from . import _check as C
from ._core import Solution, System
from ._errors import NoSolutionError

__all__ = ["solve", "null_space", "rank", "row_reduce", "solution_space", "SolutionSpace"]


def _np() -> Any:
    if _arrays.np is None:
        raise ImportError("toggle's linear-algebra layer needs numpy")
    return _arrays.np


#: byte -> the same byte with its bits in reverse order (packbits' big-endian
#: bit order to the library's little-endian one)
_REVERSED: Any = None


def _reversed_bits() -> Any:
    global _REVERSED
    if _REVERSED is None:
        np = _np()
        v = np.arange(256, dtype=np.uint8)
        _REVERSED = np.packbits(np.unpackbits(v[:, None], axis=1), axis=1,
                                bitorder="little").reshape(256)
    return _REVERSED


def _bytes_to_words(rows: Any) -> Any:
    """(m, nbytes) uint8 rows, little-endian bit order, as (m, W) uint64
    words (bytes padded with zeros to a multiple of 8)."""
    np = _np()
    m, nbytes = rows.shape
    width = (nbytes + 7) // 8 * 8
    if width != nbytes:
        padded = np.zeros((m, width), dtype=np.uint8)
        padded[:, :nbytes] = rows
        rows = padded
    return np.ascontiguousarray(rows).view("<u8").reshape(m, width // 8)


def _packed(A: Any, packed: str, cols: Optional[int]) -> "Tuple[Any, int]":
    """Packed GF(2) input as (words, n): (m, W) uint64 rows in the library's
    layout (column j is bit j % 64 of word j // 64). uint64 words that are
    C-contiguous are used as they are (no copy); packbits bytes are
    converted in one pass (a byte table reverses their bit order)."""
    np = _np()
    if cols is None:
        raise TypeError("packed input needs cols= (the number of columns)")
    n = C.count(cols, "cols")
    arr = np.asarray(A)
    if arr.ndim != 2:
        raise ValueError("packed A must be 2-D, got %d dimension(s)" % arr.ndim)
    if packed == "bits":
        if arr.dtype != np.uint8:
            raise TypeError("packed='bits' wants uint8 rows (numpy.packbits), got %s"
                            % arr.dtype)
        if arr.shape[1] * 8 < n:
            raise ValueError("cols = %d does not fit %d bytes a row" % (n, arr.shape[1]))
        return _bytes_to_words(_reversed_bits()[arr[:, :(n + 7) // 8]]), n
    if packed == "words":
        if arr.dtype != np.uint64:
            raise TypeError("packed='words' wants uint64 rows, got %s" % arr.dtype)
        if arr.shape[1] * 64 < n:
            raise ValueError("cols = %d does not fit %d words a row" % (n, arr.shape[1]))
        return np.ascontiguousarray(arr, dtype="=u8"), n
    raise ValueError("packed = %r is not None, 'bits' or 'words'" % (packed,))


def _dense(A: Any, p: int) -> Any:
    """A as a C-contiguous (m, n) uint64 array of values < p (one pass)."""
    np = _np()
    arr = np.asarray(A)
    if arr.dtype == object:
        try:
            arr = np.array([[int(v) % p for v in row] for row in arr.tolist()],
                           dtype=np.uint64).reshape(arr.shape)
        except TypeError:
            raise TypeError("A must hold integers")
    elif arr.dtype.kind == "b":
        arr = arr.astype(np.uint64)
    elif arr.dtype.kind not in "iu":
        raise TypeError("A must be an integer array, got dtype %s" % arr.dtype)
    if arr.ndim != 2:
        raise ValueError("A must be 2-D, got %d dimension(s)" % arr.ndim)
    if arr.dtype.kind == "i":
        arr = np.mod(arr, p) if p <= np.iinfo(arr.dtype).max else \
            np.where(arr < 0, arr.astype(object) % p, arr).astype(np.uint64)
    elif arr.dtype != np.uint64 or (arr.size and int(arr.max()) >= p):
        arr = np.mod(arr.astype(np.uint64), np.uint64(p))
    return np.ascontiguousarray(arr, dtype=np.uint64)


def _words_of_dense(a: Any) -> Any:
    """A dense (m, n) 0/1 array as packed (m, W) uint64 words."""
    np = _np()
    m, n = a.shape
    if n == 0:
        return np.zeros((m, 0), dtype=np.uint64)
    return _bytes_to_words(np.packbits(a.astype(bool), axis=1, bitorder="little"))


def _unpack(words: Any, n: int) -> Any:
    """Packed uint64 words (last axis) back to n uint64 values 0/1."""
    np = _np()
    w = np.ascontiguousarray(words, dtype="<u8")
    lead = w.shape[:-1]
    bits = np.unpackbits(w.view(np.uint8).reshape(lead + (-1,)), axis=-1, count=n,
                         bitorder="little")
    return bits.astype(np.uint64)


def _vector(b: Any, m: int, p: int) -> Any:
    np = _np()
    if b is None:
        return np.zeros(m, dtype=np.uint64)
    v = np.asarray(b)
    if v.ndim == 2 and 1 in v.shape:
        v = v.reshape(-1)
    if v.ndim != 1 or v.shape[0] != m:
        raise ValueError("b must have %d entries (one per row of A), got shape %s"
                         % (m, v.shape))
    return _dense(v.reshape(1, m), p).reshape(m)


def _system(A: Any, b: Any, p: Any, packed: Optional[str],
            cols: Optional[int]) -> "Tuple[System, int, int]":
    """The system A x = b (mod p), and (m, n). Over GF(2) it is built from
    packed rows (toggle_system_new_packed): 64 entries a word."""
    p = C.modulus(p, "p")
    if packed is not None and p != 2:
        raise ValueError("packed = %r needs p = 2, got p = %d" % (packed, p))
    if p == 2:
        if packed is not None:
            words, n = _packed(A, packed, cols)
        else:
            dense = _dense(A, 2)
            words, n = _words_of_dense(dense), dense.shape[1]
        m = words.shape[0]
        return System.from_packed(words, _vector(b, m, 2), n), m, n
    a = _dense(A, p)
    m, n = a.shape
    return System.from_matrix(a, _vector(b, m, p), p), m, n


def _solve(A: Any, b: Any, p: Any, packed: Optional[str], cols: Optional[int],
           engine: Optional[str]) -> "Tuple[Solution, int, int]":
    system, m, n = _system(A, b, p, packed, cols)
    with system:
        if engine is not None:
            system.engine = engine
        return system.solve(), m, n


def _kernel(sol: Solution, n: int) -> Any:
    """The kernel basis as a (nullity, n) uint64 array (packed readout for p = 2)."""
    np = _np()
    d = sol.nullity
    if sol.modulus == 2 and d and n:
        words = np.stack([sol.kernel_packed(i) for i in range(d)])
        return _unpack(words, n)
    return np.asarray(sol.kernel(), dtype=np.uint64).reshape(d, n)


class SolutionSpace(NamedTuple):
    """Every solution of A x = b: particular + any combination of kernel
    rows (coefficient i below radix[i]; p for a prime); count of them."""
    solvable: bool
    particular: Any   #: uint64 (n,), free variables 0; None if unsolvable
    kernel: Any       #: uint64 (nullity, n), the reduced basis
    count: int  # type: ignore[assignment]  # number of solutions (0 if unsolvable), exact
    certificate: Any  #: y with y A = 0 and y.b != 0 when unsolvable, else None


def solution_space(A: Any, b: Any, p: int, *, packed: Optional[str] = None,
                   cols: Optional[int] = None, engine: Optional[str] = None) -> SolutionSpace:
    """The whole solution set of A x = b (mod p): see SolutionSpace."""
    sol, m, n = _solve(A, b, p, packed, cols, engine)
    with sol:
        np = _np()
        kern = _kernel(sol, n)
        if not sol.solvable:
            return SolutionSpace(False, None, kern, 0, np.asarray(sol.certificate()))
        if sol.modulus == 2 and n:
            x = _unpack(sol.particular_packed(), n)
        else:
            x = np.asarray(sol.particular(), dtype=np.uint64).reshape(n)
        return SolutionSpace(True, x, kern, sol.count, None)


def solve(A: Any, b: Any, p: int, *, packed: Optional[str] = None,
          cols: Optional[int] = None, engine: Optional[str] = None) -> Any:
    """One x with A x = b (mod p): the canonical one, free variables 0.
    Raises NoSolutionError (its ``certificate`` attribute: y with y A = 0,
    y.b != 0) when there is none."""
    space = solution_space(A, b, p, packed=packed, cols=cols, engine=engine)
    if not space.solvable:
        err = NoSolutionError(-8, "TOGGLE_ENOSOLUTION", "A x = b has no solution mod %d" % p)
        err.certificate = space.certificate
        raise err
    return space.particular


def null_space(A: Any, p: int, *, packed: Optional[str] = None,
               cols: Optional[int] = None, engine: Optional[str] = None) -> Any:
    """A basis of {x : A x = 0 (mod p)} as the rows of a (nullity, n)
    uint64 array: the reduced basis (row f is 1 at free column f, 0 at the
    other free columns)."""
    return solution_space(A, None, p, packed=packed, cols=cols, engine=engine).kernel


def _prime(value: Any) -> int:
    p = C.modulus(value, "p")
    if not _is_prime(p):
        raise ValueError("p = %d is not prime: rank and row_reduce are over GF(p)" % p)
    return p


def _is_prime(p: int) -> bool:
    if p < 4:
        return p >= 2
    if p % 2 == 0:
        return False
    d, s = p - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):  # exact below 3.3e24
        if a % p == 0:
            continue
        x = pow(a, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(s - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


def rank(A: Any, p: int, *, packed: Optional[str] = None, cols: Optional[int] = None,
         engine: Optional[str] = None) -> int:
    """The rank of A over GF(p) (p prime)."""
    p = _prime(p)
    sol, m, n = _solve(A, None, p, packed, cols, engine)
    with sol:
        return n - sol.nullity


def row_reduce(A: Any, p: int, *, packed: Optional[str] = None, cols: Optional[int] = None,
               engine: Optional[str] = None) -> Any:
    """The reduced row echelon form of A over GF(p) (p prime), same shape
    as A, uint64. Read off the reduced kernel basis: row i has 1 at pivot
    column c_i and -K_f[c_i] at each free column f."""
    np = _np()
    p = _prime(p)
    sol, m, n = _solve(A, None, p, packed, cols, engine)
    with sol:
        kern = _kernel(sol, n)
    free = [int(np.flatnonzero(row).max()) for row in kern]
    is_free = np.zeros(n, dtype=bool)
    is_free[free] = True
    pivots = np.flatnonzero(~is_free)
    R = np.zeros((m, n), dtype=np.uint64)
    for i, c in enumerate(pivots):
        R[i, c] = 1
    if len(free) and len(pivots):
        neg = (np.uint64(p) - kern[:, pivots] % np.uint64(p)) % np.uint64(p)  # (d, r)
        R[np.arange(len(pivots))[:, None], np.array(free)[None, :]] = neg.T
    return R
