"""Argument checks made before ctypes sees a value: TypeError for a wrong
type, ValueError or OverflowError naming the value as the caller wrote it
(``rows = -1``, not the 2**64 - 1 that ctypes would wrap it to)."""

from __future__ import annotations

import numbers
from typing import Any, NoReturn, Optional

from ._errors import InvalidArgumentError, OverflowToggleError


def invalid(message: str) -> NoReturn:
    """A ValueError that is also the library's InvalidArgumentError."""
    raise InvalidArgumentError(-1, "TOGGLE_EINVAL", message)


def _overflow(message: str) -> NoReturn:
    """An OverflowError that is also the library's OverflowToggleError."""
    raise OverflowToggleError(-7, "TOGGLE_EOVERFLOW", message)

U64_MAX = (1 << 64) - 1
MAX_MODULUS = (1 << 63) - 1


def integer(value: Any, name: str) -> int:
    """value as an int; TypeError unless it is an integer (bool, int,
    numpy integer; a float or a string is refused)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if hasattr(value, "__index__") and not isinstance(value, float):
        try:
            return int(value.__index__())
        except TypeError:
            pass
    raise TypeError("%s must be an integer, got %s %r" % (name, type(value).__name__, value))


def count(value: Any, name: str, limit: int = U64_MAX) -> int:
    """A size or index: an integer in 0 .. limit."""
    v = integer(value, name)
    if v < 0:
        invalid("%s = %d is negative" % (name, v))
    if v > limit:
        _overflow("%s = %d is too large (at most %d)" % (name, v, limit))
    return v


def u64(value: Any, name: str) -> int:
    """An unsigned 64-bit value."""
    return count(value, name, U64_MAX)


def modulus(value: Any, name: str = "modulus") -> int:
    """A modulus: an integer in 2 .. 2**63 - 1."""
    v = integer(value, name)
    if v < 2:
        invalid("%s = %d is less than 2" % (name, v))
    if v > MAX_MODULUS:
        _overflow("%s = %d is too large (at most 2**63 - 1 = %d)"
                            % (name, v, MAX_MODULUS))
    return v


def optional_count(value: Any, name: str) -> Optional[int]:
    return None if value is None else count(value, name)


def text(value: Any, name: str) -> bytes:
    """str or bytes, as UTF-8 bytes."""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError("%s must be str or bytes, got %s" % (name, type(value).__name__))
