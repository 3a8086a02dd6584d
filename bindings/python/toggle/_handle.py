"""What every class over a C handle shares: ownership (close, ``with``,
the garbage collector), the constructor call, string readouts, and the
watcher that runs one long C call with the progress callback and Ctrl-C."""

from __future__ import annotations

import ctypes
import signal
import threading
from types import FrameType, TracebackType
from typing import Any, Callable, Optional, Type, TypeVar

from . import _ffi
from ._errors import ECANCELED, call, check

H = TypeVar("H", bound="_Handle")

#: A progress callback: receives the fraction done (0 to 1); a true result cancels.
ProgressCallback = Callable[[float], Any]


def _text(s: Any) -> bytes:
    return s.encode("utf-8") if isinstance(s, str) else bytes(s)


def _read_string(writer: Callable[[Any, int, Any], int]) -> str:
    """Run a (buf, len, needed) writer twice: once to size, once to fill."""
    needed = ctypes.c_size_t(0)
    status = writer(None, 0, ctypes.byref(needed))
    if status not in (0, -6):
        check(status)
    buf = ctypes.create_string_buffer(max(needed.value, 1))
    check(writer(buf, len(buf), ctypes.byref(needed)))
    return buf.value.decode("utf-8")


def _new(name: str, *args: Any) -> int:
    """Call constructor `name` (its first argument the out-pointer); the handle."""
    out = ctypes.c_void_p()
    call(name, ctypes.byref(out), *args)
    return int(out.value or 0)


class _Handle(object):
    """Owns one C handle; close() frees it now, the garbage collector later."""

    _free_name: Optional[str] = None
    _h: Optional[int] = None
    _owner: Optional["_Handle"] = None

    def __init__(self) -> None:
        raise TypeError("use the classmethods to build a %s" % type(self).__name__)

    @classmethod
    def _wrap(cls: Type[H], handle: Optional[int], owner: Optional["_Handle"] = None) -> H:
        self = object.__new__(cls)
        self._h = handle
        # owner: the object a borrowed handle belongs to (kept alive, never freed)
        self._owner = owner
        return self

    @property
    def _handle(self) -> int:
        if self._h is None or (self._owner is not None and self._owner.closed):
            raise ValueError("%s is closed" % type(self).__name__)
        return self._h

    @property
    def closed(self) -> bool:
        """True once close() has run."""
        return self._h is None

    def close(self) -> None:
        """Free the C object now. Safe to call twice; later use raises ValueError."""
        h, self._h = getattr(self, "_h", None), None
        if h is not None and self._owner is None and self._free_name is not None:
            _ffi.fn(self._free_name)(h)

    def __enter__(self: H) -> H:
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]],
                 exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.close()

    def __del__(self) -> None:
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

    def __init__(self, user: Optional[ProgressCallback]) -> None:
        self.user = user
        self.pending: Optional[BaseException] = None
        self.interrupted = False
        self.c_callback = _ffi.PROGRESS_FN(self._report)
        self._old: Any = None

    def _report(self, payload: Any, fraction: float) -> int:
        if self.interrupted or self.pending is not None:
            return 1
        try:
            if self.user is not None and self.user(float(fraction)):
                return 1
            return 0
        except BaseException as exc:
            self.pending = exc
            return 1

    def _on_sigint(self, signum: int, frame: Optional[FrameType]) -> None:
        self.interrupted = True

    def __enter__(self) -> "_ProgressWatch":
        self.interrupted = False
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._old = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]],
                 exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
            self._old = None

    def finish(self, status: int) -> None:
        """Raise what cancelled the call, else check status. A Ctrl-C that
        came after the call's last report is raised too (the call has then
        finished; the caller frees what it made)."""
        if self.interrupted:
            self.interrupted = False
            raise KeyboardInterrupt
        if status == ECANCELED and self.pending is not None:
            exc, self.pending = self.pending, None
            raise exc
        check(status)

    def run(self, fn: Callable[..., Any], *args: Any) -> int:
        """fn(*args) (a C call) with Ctrl-C watched; then finish()."""
        with self:
            status = int(fn(*args))
        self.finish(status)
        return status
