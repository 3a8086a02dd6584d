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
j // 64); give the column count with ``cols=``. Outputs are uint64 arrays.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

from . import _arrays
from . import _check as C
from ._core import Solution, System
from ._errors import NoSolutionError

__all__ = ["solve", "null_space", "rank", "row_reduce", "solution_space", "SolutionSpace"]


def _np() -> Any:
    if _arrays.np is None:
        raise ImportError("toggle's linear-algebra layer needs numpy")
    return _arrays.np


def _matrix(A: Any, p: int, packed: Optional[str], cols: Optional[int]) -> Any:
    """A as a C-contiguous (m, n) uint64 array of values < p (one pass)."""
    np = _np()
    if packed is not None:
        if p != 2:
            raise ValueError("packed = %r needs p = 2, got p = %d" % (packed, p))
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
            bits = np.unpackbits(arr, axis=1, count=n)
        elif packed == "words":
            if arr.dtype != np.uint64:
                raise TypeError("packed='words' wants uint64 rows, got %s" % arr.dtype)
            if arr.shape[1] * 64 < n:
                raise ValueError("cols = %d does not fit %d words a row" % (n, arr.shape[1]))
            le = np.ascontiguousarray(arr, dtype="<u8").view(np.uint8)
            bits = np.unpackbits(le, axis=1, count=n, bitorder="little")
        else:
            raise ValueError("packed = %r is not None, 'bits' or 'words'" % (packed,))
        # TODO(gf2 packed constructor): hand the words to the library as they are.
        return np.ascontiguousarray(bits, dtype=np.uint64)
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
    return _matrix(v.reshape(1, m), p, None, None).reshape(m)


def _solve(A: Any, b: Any, p: Any, packed: Optional[str], cols: Optional[int],
           engine: Optional[str]) -> "tuple[Solution, int, int]":
    p = C.modulus(p, "p")
    a = _matrix(A, p, packed, cols)
    m, n = a.shape
    with System.from_matrix(a, _vector(b, m, p), p) as system:
        if engine is not None:
            system.engine = engine
        return system.solve(), m, n


class SolutionSpace(NamedTuple):
    """Every solution of A x = b: particular + any combination of kernel
    rows (coefficient i below radix[i]; p for a prime); count of them."""
    solvable: bool
    particular: Any   #: uint64 (n,), free variables 0; None if unsolvable
    kernel: Any       #: uint64 (nullity, n), the reduced basis
    count: int        #: number of solutions (0 if unsolvable), exact
    certificate: Any  #: y with y A = 0 and y.b != 0 when unsolvable, else None


def solution_space(A: Any, b: Any, p: int, *, packed: Optional[str] = None,
                   cols: Optional[int] = None, engine: Optional[str] = None) -> SolutionSpace:
    """The whole solution set of A x = b (mod p): see SolutionSpace."""
    sol, m, n = _solve(A, b, p, packed, cols, engine)
    with sol:
        np = _np()
        kern = np.asarray(sol.kernel(), dtype=np.uint64).reshape(-1, n)
        if sol.solvable:
            return SolutionSpace(True, np.asarray(sol.particular()), kern, sol.count, None)
        return SolutionSpace(False, None, kern, 0, np.asarray(sol.certificate()))


def solve(A: Any, b: Any, p: int, *, packed: Optional[str] = None,
          cols: Optional[int] = None, engine: Optional[str] = None) -> Any:
    """One x with A x = b (mod p): the canonical one, free variables 0.
    Raises NoSolutionError (its ``certificate`` attribute: y with y A = 0,
    y.b != 0) when there is none."""
    space = solution_space(A, b, p, packed=packed, cols=cols, engine=engine)
    if not space.solvable:
        err = NoSolutionError(-8, "TOGGLE_ENOSOLUTION", "A x = b has no solution mod %d" % p)
        err.certificate = space.certificate  # type: ignore[attr-defined]
        raise err
    return space.particular


def null_space(A: Any, p: int, *, packed: Optional[str] = None,
               cols: Optional[int] = None, engine: Optional[str] = None) -> Any:
    """A basis of {x : A x = 0 (mod p)} as the rows of a (nullity, n)
    uint64 array: the reduced basis (row f is 1 at free column f, 0 at the
    other free columns)."""
    return solution_space(A, None, p, packed=packed, cols=cols, engine=engine).kernel


def _prime(p: Any) -> int:
    p = C.modulus(p, "p")
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
    kern = null_space(A, p, packed=packed, cols=cols, engine=engine)
    return int(kern.shape[1] - kern.shape[0])


def row_reduce(A: Any, p: int, *, packed: Optional[str] = None, cols: Optional[int] = None,
               engine: Optional[str] = None) -> Any:
    """The reduced row echelon form of A over GF(p) (p prime), same shape
    as A, uint64. Read off the reduced kernel basis: row i has 1 at pivot
    column c_i and -K_f[c_i] at each free column f."""
    np = _np()
    p = _prime(p)
    a = _matrix(A, p, packed, cols)
    m, n = a.shape
    kern = null_space(a, p, engine=engine)
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
