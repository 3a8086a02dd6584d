"""Exceptions raised for libtoggle's negative status codes."""

from __future__ import annotations

from typing import Any, Dict, Type

from . import _ffi

OK = 0
EINVAL = -1
ENOMEM = -2
EUNSUPPORTED = -3
EPARSE = -4
ERANGE = -5
EBUFSIZE = -6
EOVERFLOW = -7
ENOSOLUTION = -8
EIO = -9
ITEROVER = -10
ELIMIT = -11
EINTERNAL = -12
ECANCELED = -13


class ToggleError(Exception):
    """A libtoggle call failed.

    Attributes:
        status: the negative status code (for example ``-1``).
        name: its symbolic name (``"TOGGLE_EINVAL"``).
        message: the library's own message from ``toggle_last_error()``.
    """

    def __init__(self, status: int, name: str, message: str) -> None:
        super().__init__("%s: %s" % (name, message) if message else name)
        self.status = status
        self.name = name
        self.message = message


class InvalidArgumentError(ToggleError, ValueError):
    """TOGGLE_EINVAL: an argument is invalid."""


class OutOfMemoryError(ToggleError, MemoryError):
    """TOGGLE_ENOMEM: out of memory, or over the system's memory budget."""


class UnsupportedError(ToggleError, NotImplementedError):
    """TOGGLE_EUNSUPPORTED: a valid request the library cannot do."""


class ParseError(ToggleError, ValueError):
    """TOGGLE_EPARSE: malformed text; the message gives line and column."""


class RangeError(ToggleError, ValueError):
    """TOGGLE_ERANGE: a value or index is out of range."""


class BufferSizeError(ToggleError):
    """TOGGLE_EBUFSIZE: a buffer was too small (the binding sizes buffers
    itself, so this means a library bug)."""


class OverflowToggleError(ToggleError, OverflowError):
    """TOGGLE_EOVERFLOW: a result does not fit the requested integer type."""


class NoSolutionError(ToggleError):
    """TOGGLE_ENOSOLUTION: the system has no solution. ``certificate`` is a
    y with y A = 0 and y.b != 0 when the raiser computed one (toggle.solve),
    else None."""

    certificate: Any = None


class IOToggleError(ToggleError, OSError):
    """TOGGLE_EIO: a file could not be read or written."""


class LimitError(ToggleError):
    """TOGGLE_ELIMIT: a step, time or size limit stopped the work."""


class InternalError(ToggleError):
    """TOGGLE_EINTERNAL: an internal invariant failed (please report it)."""


class CancelledError(ToggleError):
    """TOGGLE_ECANCELED: the progress callback cancelled the call (1.1)."""


_CLASSES: Dict[int, Type[ToggleError]] = {
    EINVAL: InvalidArgumentError, ENOMEM: OutOfMemoryError,
    EUNSUPPORTED: UnsupportedError, EPARSE: ParseError, ERANGE: RangeError,
    EBUFSIZE: BufferSizeError, EOVERFLOW: OverflowToggleError,
    ENOSOLUTION: NoSolutionError, EIO: IOToggleError, ELIMIT: LimitError,
    EINTERNAL: InternalError, ECANCELED: CancelledError,
}


def status_name(status: int) -> str:
    """Symbolic name of a status code, e.g. ``status_name(-1) == "TOGGLE_EINVAL"``."""
    return str(_ffi.fn("toggle_status_name")(int(status)).decode())


def last_error() -> str:
    """The calling thread's last libtoggle error message ("" if none)."""
    return str(_ffi.fn("toggle_last_error")().decode("utf-8", "replace"))


def clear_error() -> None:
    """Clear the calling thread's last error message (last_error() is then "")."""
    _ffi.fn("toggle_clear_error")()


def error_for(status: int) -> ToggleError:
    """The exception for a negative status, with the library's message."""
    cls = _CLASSES.get(status, ToggleError)
    return cls(status, status_name(status), last_error())


def check(status: int) -> int:
    """Raise the matching exception if status < 0; return status otherwise."""
    if status < 0:
        raise error_for(status)
    return int(status)


def call(name: str, *args: Any) -> int:
    """Call C function `name` and raise on a negative status."""
    return check(_ffi.fn(name)(*args))
