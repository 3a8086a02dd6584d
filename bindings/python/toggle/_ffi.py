"""Loading libtoggle and declaring its C functions for ctypes.

The library is looked up in this order:

1. the ``TOGGLE_LIBRARY`` environment variable (a path to ``libtoggle.so.1``);
2. a build tree: ``$TOGGLE_BUILD_DIR/lib/libtoggle.so.1``, then
   ``<checkout>/build/lib/libtoggle.so.1`` when this package sits inside a
   libtoggle source checkout (``bindings/python/toggle``);
3. the libdir recorded by ``meson install`` (``toggle/_config.py``), then
   ``lib/`` (and ``lib/<multiarch>``) of sys.prefix, sys.base_prefix and
   /usr/local;
4. the system: ``ctypes.util.find_library("toggle")``, then ``libtoggle.so.1``.

Step 3 also holds the build tree that ``pip install`` from a checkout
recorded (``toggle/_config.py``, BUILD_LIB), tried before the prefixes.

Every prototype below is written by hand from include/toggle/*.h. Functions
of headers newer than the loaded library are bound lazily: calling one that
the library lacks raises :class:`toggle.UnsupportedError`.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

#: A ctypes type as used in a prototype (None: a void result).
CType = Any
Prototype = Tuple[Optional[CType], List[CType]]

#: Major version of the C library this package is written for.
EXPECTED_MAJOR = 1

c_size_t = ctypes.c_size_t
c_u64 = ctypes.c_uint64
c_i64 = ctypes.c_int64
c_u32 = ctypes.c_uint32
c_u8 = ctypes.c_uint8
c_int = ctypes.c_int
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
P = ctypes.POINTER
#: toggle_progress_fn: int (*)(void *payload, double fraction)
PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_double)


def _recorded() -> List[str]:
    """What an install recorded in toggle/_config.py: the build tree's
    library directory (pip install from a checkout) and the libdir (meson
    install). Empty when running from the source tree."""
    import importlib
    try:  # written by meson install or by setup.py; absent in the source tree
        _config = importlib.import_module("._config", __name__.rpartition(".")[0])
    except ImportError:
        return []
    return [d for d in (getattr(_config, "BUILD_LIB", ""), getattr(_config, "LIBDIR", ""))
            if d and not d.startswith("@")]


def _installed_dirs() -> List[str]:
    """Where an installed library sits: what the install recorded
    (toggle/_config.py), then the usual prefixes of this interpreter."""
    dirs = _recorded()
    import sys
    import sysconfig
    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    for prefix in (sys.prefix, sys.base_prefix, "/usr/local"):
        dirs.append(os.path.join(prefix, "lib"))
        if multiarch:
            dirs.append(os.path.join(prefix, "lib", multiarch))
    return dirs


def _candidates() -> Tuple[List[str], bool]:
    env = os.environ.get("TOGGLE_LIBRARY")
    if env:
        # An explicit choice is final: a wrong path is an error, not a fallback.
        return [env], True
    found = []
    build = os.environ.get("TOGGLE_BUILD_DIR")
    if build:
        found.append(os.path.join(build, "lib", "libtoggle.so.1"))
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", ".."))
    if os.path.isfile(os.path.join(root, "include", "toggle.h")):
        found.append(os.path.join(root, "build", "lib", "libtoggle.so.1"))
    for d in _installed_dirs():
        found.append(os.path.join(d, "libtoggle.so.1"))
    sysname = ctypes.util.find_library("toggle")
    if sysname:
        found.append(sysname)
    found.append("libtoggle.so.1")
    return found, False


def _load() -> Tuple[ctypes.CDLL, str]:
    names, explicit = _candidates()
    errors: List[str] = []
    for name in names:
        if os.sep in name and not os.path.exists(name) and not explicit:
            continue
        try:
            return ctypes.CDLL(name), name
        except OSError as exc:
            errors.append("%s: %s" % (name, exc))
            if explicit:
                break
    raise ImportError(
        "libtoggle not found (tried %s). Install libtoggle, or set "
        "TOGGLE_LIBRARY to the path of libtoggle.so.1" % "; ".join(errors or names))


lib, library_path = _load()

# name: (restype, [argtypes]). Handles are opaque: c_void_p.
_PROTOTYPES: Dict[str, Prototype] = {
    # common.h
    "toggle_version_number": (c_u32, []),
    "toggle_version_string": (c_char_p, []),
    "toggle_status_name": (c_char_p, [c_int]),
    "toggle_last_error": (c_char_p, []),
    "toggle_clear_error": (None, []),
    # graph.h
    "toggle_graph_new_grid": (c_int, [P(c_void_p), c_size_t, c_size_t, c_u32]),
    "toggle_graph_new_stencil": (c_int, [P(c_void_p), c_size_t, c_size_t, P(c_i64),
                                         P(c_i64), P(c_u64), c_size_t, c_u32]),
    "toggle_graph_new_adjacency": (c_int, [P(c_void_p), c_size_t, P(c_u8), c_u32]),
    "toggle_graph_new_edges": (c_int, [P(c_void_p), c_size_t, P(c_size_t), c_size_t, c_u32]),
    "toggle_graph_parse_edges": (c_int, [P(c_void_p), c_char_p, c_size_t, c_u32]),
    "toggle_graph_new_matrix": (c_int, [P(c_void_p), c_size_t, P(c_u64)]),
    "toggle_graph_free": (None, [c_void_p]),
    "toggle_graph_cells": (c_size_t, [c_void_p]),
    "toggle_graph_kind": (c_int, [c_void_p]),
    "toggle_graph_flags": (c_u32, [c_void_p]),
    "toggle_graph_grid_shape": (c_int, [c_void_p, P(c_size_t), P(c_size_t)]),
    "toggle_graph_entry": (c_int, [c_void_p, c_size_t, c_size_t, P(c_u64)]),
    # system.h
    "toggle_system_new": (c_int, [P(c_void_p), c_void_p, c_u64, P(c_u64), P(c_u64)]),
    "toggle_system_new_matrix": (c_int, [P(c_void_p), c_size_t, c_size_t, P(c_u64),
                                         P(c_u64), c_u64]),
    "toggle_system_parse": (c_int, [P(c_void_p), c_char_p, c_size_t, c_u64]),
    "toggle_system_write": (c_int, [c_void_p, c_char_p, c_size_t, P(c_size_t)]),
    "toggle_system_free": (None, [c_void_p]),
    "toggle_system_rows": (c_size_t, [c_void_p]),
    "toggle_system_cols": (c_size_t, [c_void_p]),
    "toggle_system_modulus": (c_u64, [c_void_p]),
    "toggle_system_graph": (c_void_p, [c_void_p]),
    "toggle_system_entry": (c_int, [c_void_p, c_size_t, c_size_t, P(c_u64)]),
    "toggle_system_rhs": (c_int, [c_void_p, c_size_t, P(c_u64)]),
    "toggle_system_set_option": (c_int, [c_void_p, c_int, c_u64]),
    "toggle_system_set_progress": (c_int, [c_void_p, PROGRESS_FN, c_void_p]),
    "toggle_system_get_option": (c_int, [c_void_p, c_int, P(c_u64)]),
    "toggle_system_check": (c_int, [c_void_p, P(c_u64), c_size_t, P(c_int)]),
    "toggle_system_check_certificate": (c_int, [c_void_p, P(c_u64), c_size_t, P(c_int)]),
    "toggle_engine_name": (c_char_p, [c_int]),
    "toggle_engine_from_name": (c_int, [c_char_p, P(c_int)]),
    "toggle_board_parse": (c_int, [c_char_p, c_size_t, c_u64, P(c_u64), c_size_t,
                                   P(c_size_t), P(c_size_t)]),
    "toggle_board_format": (c_int, [P(c_u64), c_size_t, c_size_t, c_u64, c_char_p,
                                    c_size_t, P(c_size_t)]),
    # solution.h
    "toggle_solve": (c_int, [P(c_void_p), c_void_p]),
    "toggle_solution_free": (None, [c_void_p]),
    "toggle_solution_is_solvable": (c_int, [c_void_p]),
    "toggle_solution_cols": (c_size_t, [c_void_p]),
    "toggle_solution_rows": (c_size_t, [c_void_p]),
    "toggle_solution_modulus": (c_u64, [c_void_p]),
    "toggle_solution_engine": (c_int, [c_void_p]),
    "toggle_solution_nullity": (c_size_t, [c_void_p]),
    "toggle_solution_count_u64": (c_int, [c_void_p, P(c_u64)]),
    "toggle_solution_count_string": (c_int, [c_void_p, c_char_p, c_size_t, P(c_size_t)]),
    "toggle_solution_particular": (c_int, [c_void_p, P(c_u64), c_size_t]),
    "toggle_solution_particular_range": (c_int, [c_void_p, c_size_t, P(c_u64), c_size_t]),
    "toggle_solution_kernel_vector": (c_int, [c_void_p, c_size_t, P(c_u64), c_size_t]),
    "toggle_solution_certificate": (c_int, [c_void_p, P(c_u64), c_size_t]),
    "toggle_solution_particular_packed": (c_int, [c_void_p, c_size_t, c_size_t, P(c_u64),
                                                  c_size_t]),
    # grid.h
    "toggle_grid_nullity": (c_int, [c_size_t, c_size_t, c_u64, c_u32, P(c_size_t)]),
}


def declare(prototypes: Dict[str, Prototype]) -> None:
    """Add prototypes (name -> (restype, argtypes)) for lazy binding."""
    _PROTOTYPES.update(prototypes)


_bound: Dict[str, Callable[..., Any]] = {}
_bind_lock = threading.Lock()


class _Missing(object):
    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: Any) -> Any:
        from ._errors import UnsupportedError
        raise UnsupportedError(-3, "TOGGLE_EUNSUPPORTED",
                               "%s is not in the loaded libtoggle (%s)"
                               % (self.name, library_path))


_INT_RANGES: Dict[Any, Tuple[int, int]] = {
    ctypes.c_size_t: (0, (1 << (8 * ctypes.sizeof(ctypes.c_size_t))) - 1),
    ctypes.c_uint64: (0, (1 << 64) - 1),
    ctypes.c_uint32: (0, (1 << 32) - 1),
    ctypes.c_uint8: (0, 255),
    ctypes.c_int: (-(1 << 31), (1 << 31) - 1),
    ctypes.c_int64: (-(1 << 63), (1 << 63) - 1),
}


class _Checked(object):
    """A C function whose integer arguments are checked before ctypes
    converts them (ctypes would wrap -1 to 2**64 - 1, or raise its own
    ArgumentError): TypeError for a non-integer, OverflowError naming the
    value as given. The public classes check their arguments by name
    first; this is the net under them."""

    __slots__ = ("f", "name", "ranges")

    def __init__(self, f: Callable[..., Any], name: str, argtypes: Sequence[CType]) -> None:
        self.f = f
        self.name = name
        self.ranges: List[Tuple[int, Tuple[int, int]]] = [(i, _INT_RANGES[t]) for i, t in enumerate(argtypes) if t in _INT_RANGES]

    def __call__(self, *args: Any) -> Any:
        for i, (lo, hi) in self.ranges:
            if i >= len(args):
                break
            v = args[i]
            if isinstance(v, int) and lo <= v <= hi:
                continue
            from ._check import integer
            iv = integer(v, "argument %d of %s" % (i + 1, self.name))
            if not lo <= iv <= hi:
                raise OverflowError("argument %d of %s: %d is outside %d .. %d"
                                    % (i + 1, self.name, iv, lo, hi))
        return self.f(*args)


def fn(name: str) -> Callable[..., Any]:
    """The bound C function `name`, or a stub raising UnsupportedError."""
    f = _bound.get(name)
    if f is not None:
        return f
    with _bind_lock:
        restype, argtypes = _PROTOTYPES[name]
        try:
            raw = getattr(lib, name)
            raw.restype = restype
            raw.argtypes = argtypes
            f = _Checked(raw, name, argtypes)
        except AttributeError:
            f = _Missing(name)
        _bound[name] = f
    return f


def declared() -> List[str]:
    """Every C function this package has a prototype for (after the
    package's modules are imported: each declares its own)."""
    return sorted(_PROTOTYPES)


def has(name: str) -> bool:
    """True if the loaded library exports `name`."""
    return not isinstance(fn(name), _Missing)


def _check_version() -> int:
    number = int(fn("toggle_version_number")())
    if number // 10000 != EXPECTED_MAJOR:
        raise ImportError(
            "libtoggle at %s is version %d.%d.%d; this package needs major version %d"
            % (library_path, number // 10000, number // 100 % 100, number % 100,
               EXPECTED_MAJOR))
    return number


version_number = _check_version()
