"""Exceptions raised for libtoggle's negative status codes."""

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

    def __init__(self, status, name, message):
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
    """TOGGLE_ENOSOLUTION: the system has no solution."""


class IOToggleError(ToggleError, OSError):
    """TOGGLE_EIO: a file could not be read or written."""


class LimitError(ToggleError):
    """TOGGLE_ELIMIT: a step, time or size limit stopped the work."""


class InternalError(ToggleError):
    """TOGGLE_EINTERNAL: an internal invariant failed (please report it)."""


class CancelledError(ToggleError):
    """TOGGLE_ECANCELED: the progress callback cancelled the call (1.1)."""


_CLASSES = {
    EINVAL: InvalidArgumentError, ENOMEM: OutOfMemoryError,
    EUNSUPPORTED: UnsupportedError, EPARSE: ParseError, ERANGE: RangeError,
    EBUFSIZE: BufferSizeError, EOVERFLOW: OverflowToggleError,
    ENOSOLUTION: NoSolutionError, EIO: IOToggleError, ELIMIT: LimitError,
    EINTERNAL: InternalError, ECANCELED: CancelledError,
}


def status_name(status):
    """Symbolic name of a status code, e.g. ``status_name(-1) == "TOGGLE_EINVAL"``."""
    return _ffi.fn("toggle_status_name")(int(status)).decode()


def last_error():
    """The calling thread's last libtoggle error message ("" if none)."""
    return _ffi.fn("toggle_last_error")().decode("utf-8", "replace")


def error_for(status):
    """The exception for a negative status, with the library's message."""
    cls = _CLASSES.get(status, ToggleError)
    return cls(status, status_name(status), last_error())


def check(status):
    """Raise the matching exception if status < 0; return status otherwise."""
    if status < 0:
        raise error_for(status)
    return status


def call(name, *args):
    """Call C function `name` and raise on a negative status."""
    return check(_ffi.fn(name)(*args))
