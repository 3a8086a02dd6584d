"""Rendering (render.h), symmetry (symmetry.h) and the FLINT guard (guard.h)."""

from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Tuple, Union

from . import _arrays as A
from . import _check as C
from . import _ffi
from ._errors import call, check
from ._handle import _Handle, _new, _text

P, c_size_t, c_u64, c_u32, c_u8, c_int, c_char_p, c_void_p = (
    ctypes.POINTER, ctypes.c_size_t, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint8,
    ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)
_ffi.declare({
    "toggle_colormap_count": (c_size_t, []),
    "toggle_colormap_name": (c_char_p, [c_int]),
    "toggle_colormap_is_qualitative": (c_int, [c_int]),
    "toggle_colormap_from_name": (c_int, [c_char_p, P(c_int), P(c_int)]),
    "toggle_colormap_color": (c_int, [c_int, c_int, c_u64, c_u64, P(c_u8)]),
    "toggle_render_opts_new": (c_int, [P(c_void_p)]),
    "toggle_render_opts_free": (None, [c_void_p]),
    "toggle_render_opts_set": (c_int, [c_void_p, c_int, c_u64]),
    "toggle_render_opts_get": (c_int, [c_void_p, c_int, P(c_u64)]),
    "toggle_render_size": (c_int, [c_void_p, c_size_t, c_size_t, P(c_size_t), P(c_size_t)]),
    "toggle_render": (c_int, [c_void_p, c_int, P(c_u64), c_size_t, c_size_t, c_u64, P(c_u8),
                              c_size_t, P(c_size_t)]),
    "toggle_render_file": (c_int, [c_void_p, c_int, P(c_u64), c_size_t, c_size_t, c_u64,
                                   c_char_p]),
    "toggle_board_symmetry": (c_int, [P(c_u64), c_size_t, c_size_t, P(c_u32)]),
    "toggle_symmetry_name": (c_char_p, [c_u32]),
    "toggle_symmetry_of_shape": (c_u32, [c_size_t, c_size_t]),
    "toggle_solution_count_orbits": (c_int, [c_void_p, c_size_t, c_size_t, c_u32, P(c_u64)]),
    "toggle_flint_guard_install": (c_int, []),
    "toggle_flint_guard_installed": (c_int, []),
})

IMAGE_PPM = 1
IMAGE_PNG = 2
_FORMATS = {"ppm": IMAGE_PPM, "png": IMAGE_PNG}
RENDER_CELL_SIZE = 1
RENDER_GRID_LINES = 2
RENDER_BORDER = 3
RENDER_COLORMAP = 4
RENDER_REVERSED = 5
RENDER_LINE_COLOR = 6
SYM_ALL = 0xFF
_KEYS = {"cell_size": RENDER_CELL_SIZE, "grid_lines": RENDER_GRID_LINES,
         "border": RENDER_BORDER, "colormap": RENDER_COLORMAP, "reversed": RENDER_REVERSED,
         "line_color": RENDER_LINE_COLOR}


Format = Union[str, int]


def colormaps() -> List[str]:
    """Names of the built-in colour maps, by id."""
    return [str(_ffi.fn("toggle_colormap_name")(i).decode())
            for i in range(int(_ffi.fn("toggle_colormap_count")()))]


def colormap_from_name(name: Union[str, bytes]) -> Tuple[int, bool]:
    """(id, reversed) of a colour map name such as "viridis" or "magma_r"."""
    cid, rev = c_int(), c_int()
    call("toggle_colormap_from_name", C.text(name, "name"), ctypes.byref(cid),
         ctypes.byref(rev))
    return cid.value, bool(rev.value)


def _colormap_id(colormap: Union[str, int]) -> int:
    if isinstance(colormap, str):
        return colormap_from_name(colormap)[0]
    return C.integer(colormap, "colormap")


def colormap_is_qualitative(colormap: Union[str, int]) -> bool:
    """True for a qualitative colour map (distinct colours, not a ramp);
    `colormap` is a name or an id."""
    return bool(check(_ffi.fn("toggle_colormap_is_qualitative")(_colormap_id(colormap))))


def colormap_color(colormap: Union[str, int], value: int, modulus: int,
                   reversed: bool = False) -> Tuple[int, int, int]:
    """(r, g, b) of value v of k under a colour map (name or id)."""
    if isinstance(colormap, str):
        colormap, reversed = colormap_from_name(colormap)
    rgb = (c_u8 * 3)()
    call("toggle_colormap_color", C.integer(colormap, "colormap"), int(bool(reversed)),
         C.u64(value, "value"), C.modulus(modulus), rgb)
    return rgb[0], rgb[1], rgb[2]


class RenderOptions(_Handle):
    """Options of the board renderer. Keywords: cell_size, grid_lines, border,
    colormap (name like "viridis_r" or id), reversed, line_color (0xRRGGBB)."""

    _free_name = "toggle_render_opts_free"

    def __init__(self, **options: Any) -> None:
        self._h = None
        self._owner = None
        self._h = _new("toggle_render_opts_new")
        for key, value in options.items():
            self[key] = value

    @staticmethod
    def _key(key: Union[str, int]) -> int:
        if isinstance(key, str):
            if key not in _KEYS:
                raise TypeError("unknown render option %r (known: %s)"
                                % (key, ", ".join(sorted(_KEYS))))
            return _KEYS[key]
        return C.integer(key, "key")

    def __setitem__(self, key: Union[str, int], value: Any) -> None:
        if key == "colormap" and isinstance(value, str):
            value, rev = colormap_from_name(value)
            call("toggle_render_opts_set", self._handle, RENDER_REVERSED, int(rev))
        call("toggle_render_opts_set", self._handle, self._key(key),
             C.u64(value, str(key)))

    def __getitem__(self, key: Union[str, int]) -> int:
        v = c_u64()
        call("toggle_render_opts_get", self._handle, self._key(key), ctypes.byref(v))
        return v.value

    def size(self, rows: int, cols: int) -> Tuple[int, int]:
        """(width, height) in pixels of a rows x cols board."""
        w, h = c_size_t(), c_size_t()
        call("toggle_render_size", self._handle, C.count(rows, "rows"), C.count(cols, "cols"),
             ctypes.byref(w), ctypes.byref(h))
        return w.value, h.value


def _format_for(format: Optional[Format], path: Any) -> str:
    """The format to write: given, or from the file name (.png / .ppm);
    a name that says the other format is refused."""
    by_name = None
    if path is not None:
        lower = str(path).lower()
        by_name = "png" if lower.endswith(".png") else "ppm" if lower.endswith(".ppm") else None
    if format is None:
        return by_name or "ppm"
    if format not in _FORMATS and format not in _FORMATS.values():
        raise ValueError("format = %r is not 'ppm' or 'png'" % (format,))
    name = format if isinstance(format, str) else \
        next(k for k, v in _FORMATS.items() if v == format)
    if by_name is not None and by_name != name:
        raise ValueError("format = %r does not match the file name %r" % (format, str(path)))
    return name


def render(cells: Any, rows: int, cols: int, modulus: int, format: Optional[Format] = None,
           options: Optional[RenderOptions] = None, path: Any = None,
           **kw: Any) -> Optional[bytes]:
    """Draw a rows x cols board (one colour per value): returns the image as
    bytes, or writes it to `path`. `format` is "ppm" or "png" (when built
    with libpng); by default the file name's extension picks it (.png or
    .ppm; anything else, and no path, means PPM), and a format that
    contradicts the name raises ValueError. `options` is a RenderOptions,
    or pass its keywords directly."""
    rows, cols = C.count(rows, "rows"), C.count(cols, "cols")
    modulus = C.modulus(modulus)
    name = _format_for(format, path)
    if options is not None and not isinstance(options, RenderOptions):
        raise TypeError("options must be a toggle.RenderOptions, got %s"
                        % type(options).__name__)
    opts = options if options is not None else RenderOptions(**kw)
    try:
        buf, _ = A.to_c(cells, length=rows * cols)
        fmt = _FORMATS[name]
        if path is not None:
            call("toggle_render_file", opts._handle, fmt, buf, rows, cols, modulus,
                 str(path).encode())
            return None
        needed = c_size_t()
        st = _ffi.fn("toggle_render")(opts._handle, fmt, buf, rows, cols, modulus, None, 0,
                                      ctypes.byref(needed))
        if st not in (0, -6):
            check(st)
        out = (c_u8 * needed.value)()
        call("toggle_render", opts._handle, fmt, buf, rows, cols, modulus, out, needed.value,
             ctypes.byref(needed))
        return bytes(out[:needed.value])
    finally:
        if options is None:
            opts.close()


def board_symmetry(cells: Any, rows: int, cols: int) -> Tuple[int, Optional[str]]:
    """(mask, name): the symmetries (TOGGLE_SYM_* bits) a board has, and the
    name of that group."""
    rows, cols = C.count(rows, "rows"), C.count(cols, "cols")
    buf, _ = A.to_c(cells, length=rows * cols)
    mask = c_u32()
    call("toggle_board_symmetry", buf, rows, cols, ctypes.byref(mask))
    return mask.value, symmetry_name(mask.value)


def symmetry_name(mask: int) -> Optional[str]:
    """Name of a symmetry group mask, or None."""
    name = _ffi.fn("toggle_symmetry_name")(C.count(mask, "mask", 0xFFFFFFFF))
    return str(name.decode()) if name is not None else None


def symmetry_of_shape(rows: int, cols: int) -> int:
    """Every symmetry of the board shape (SYM_ALL for a square)."""
    return int(_ffi.fn("toggle_symmetry_of_shape")(C.count(rows, "rows"),
                                                   C.count(cols, "cols")))


class _SolutionOrbits(_Handle):
    """The symmetry method of toggle.Solution (this module's half)."""

    def count_orbits(self, rows: int, cols: int, group: Optional[int] = None) -> int:
        """Solutions counted up to a symmetry group (default: all of the shape's)."""
        rows, cols = C.count(rows, "rows"), C.count(cols, "cols")
        if group is None:
            group = symmetry_of_shape(rows, cols)
        out = c_u64()
        call("toggle_solution_count_orbits", self._handle, rows, cols,
             C.count(group, "group", 0xFFFFFFFF), ctypes.byref(out))
        return out.value


def flint_guard_install() -> int:
    """Install the opt-in FLINT guard (see guard.h)."""
    return check(_ffi.fn("toggle_flint_guard_install")())


def flint_guard_installed() -> bool:
    """True if the FLINT guard is installed."""
    return bool(check(_ffi.fn("toggle_flint_guard_installed")()))
