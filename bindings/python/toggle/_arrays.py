"""Moving vectors across the boundary: numpy arrays when numpy is importable
(and ``TOGGLE_NO_NUMPY`` is unset), plain lists otherwise."""

from __future__ import annotations

import ctypes
import os
from typing import Any, List, Optional, Sequence, Tuple

np: Any
try:
    if os.environ.get("TOGGLE_NO_NUMPY"):
        raise ImportError("disabled by TOGGLE_NO_NUMPY")
    import numpy
    np = numpy
except ImportError:
    np = None

#: True when results come back as numpy arrays.
HAVE_NUMPY = np is not None

#: A vector handed back to Python: a numpy uint64 array, or a list of ints.
Vector = Any
#: A ctypes array (with the numpy buffer it shares kept alive on it).
CArray = Any


def _flat(values: Any, signed: bool = False) -> Any:
    """A flat list of Python ints (or a numpy array) from any nesting."""
    if np is not None:
        arr = np.asarray(values)
        if arr.dtype.kind == "f":
            if not np.all(np.equal(np.mod(arr, 1), 0)):
                raise TypeError("values must be integers")
        elif arr.dtype.kind not in "iub" and arr.size:
            raise TypeError("values must be integers, got dtype %s" % arr.dtype)
        if not signed and arr.size and arr.dtype.kind in "if" and arr.min() < 0:
            raise ValueError("values must be non-negative")
        return arr.reshape(-1)
    out: List[int] = []

    def walk(v: Any) -> None:
        if isinstance(v, (list, tuple)):
            for item in v:
                walk(item)
        else:
            iv = int(v)
            if iv != v:
                raise TypeError("values must be integers")
            if iv < 0 and not signed:
                raise ValueError("values must be non-negative")
            out.append(iv)
    walk(values)
    return out


def shape_of(values: Any) -> Tuple[int, int]:
    """(rows, cols) of a 2-D array or list of lists."""
    if np is not None:
        arr = np.asarray(values)
        if arr.ndim != 2:
            raise ValueError("expected a 2-D array, got %d dimension(s)" % arr.ndim)
        return int(arr.shape[0]), int(arr.shape[1])
    rows = len(values)
    cols = len(values[0]) if rows else 0
    for row in values:
        if len(row) != cols:
            raise ValueError("ragged matrix: rows of different lengths")
    return rows, cols


def to_c(values: Any, ctype: Any = ctypes.c_uint64,
         length: Optional[int] = None) -> Tuple[CArray, int]:
    """A ctypes array of `ctype` holding `values` (flattened), and its length.

    When numpy is present and the data already has the right dtype and
    layout, the buffer is shared rather than copied; the returned object
    keeps it alive."""
    signed = ctype in (ctypes.c_int64, ctypes.c_int)
    flat = _flat(values, signed)
    n = len(flat)
    if length is not None and n != length:
        raise ValueError("expected %d values, got %d" % (length, n))
    arr_t = ctype * n
    if np is not None:
        dtype = np.dtype(ctype)
        # Casting would wrap values that do not fit: reject them first.
        if n and flat.dtype.kind in "iu" and dtype.kind == "u" and \
                int(flat.max()) > np.iinfo(dtype).max:
            raise OverflowError("value too large for %s" % dtype)
        buf = np.ascontiguousarray(flat, dtype=dtype)
        out = arr_t.from_buffer(buf) if n else arr_t()
        out._keep = buf
        return out, n
    try:
        return arr_t(*flat), n
    except (OverflowError, TypeError) as exc:
        raise OverflowError("value does not fit %s: %s" % (ctype.__name__, exc))


def empty(n: int) -> Any:
    """A zeroed uint64 buffer of n entries (numpy array or ctypes array)."""
    if np is not None:
        return np.zeros(n, dtype=np.uint64)
    return (ctypes.c_uint64 * n)()


def ptr(buf: Any) -> Any:
    """A POINTER(c_uint64) to a buffer made by empty() or to_c()."""
    if np is not None and isinstance(buf, np.ndarray):
        return buf.ctypes.data_as(ctypes.POINTER(ctypes.c_uint64))
    return ctypes.cast(buf, ctypes.POINTER(ctypes.c_uint64))


def result(buf: Any) -> Vector:
    """The Python-side value of a buffer made by empty()."""
    if np is not None and isinstance(buf, np.ndarray):
        return buf
    return list(buf)


def stack(vectors: Sequence[Vector], n: int) -> Any:
    """A list of vectors as a (len, n) array, or a list of lists."""
    if np is not None:
        if not vectors:
            return np.zeros((0, n), dtype=np.uint64)
        return np.stack(vectors)
    return [list(v) for v in vectors]
