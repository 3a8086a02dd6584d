"""Rendering (render.h), symmetry (symmetry.h) and the FLINT guard (guard.h)."""

import ctypes

from . import _ffi
from . import _arrays as A
from ._core import _Handle, _new, _text
from ._errors import call, check

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


def colormaps():
    """Names of the built-in colour maps, by id."""
    return [_ffi.fn("toggle_colormap_name")(i).decode()
            for i in range(_ffi.fn("toggle_colormap_count")())]


def colormap_from_name(name):
    """(id, reversed) of a colour map name such as "viridis" or "magma_r"."""
    cid, rev = c_int(), c_int()
    call("toggle_colormap_from_name", _text(name), ctypes.byref(cid), ctypes.byref(rev))
    return cid.value, bool(rev.value)


def colormap_color(colormap, value, modulus, reversed=False):
    """(r, g, b) of value v of k under a colour map (name or id)."""
    if isinstance(colormap, str):
        colormap, reversed = colormap_from_name(colormap)
    rgb = (c_u8 * 3)()
    call("toggle_colormap_color", int(colormap), int(bool(reversed)), value, modulus, rgb)
    return tuple(rgb)


class RenderOptions(_Handle):
    """Options of the board renderer. Keywords: cell_size, grid_lines, border,
    colormap (name like "viridis_r" or id), reversed, line_color (0xRRGGBB)."""

    _free_name = "toggle_render_opts_free"

    def __init__(self, **options):
        self._h = None
        self._owner = None
        self._h = _new("toggle_render_opts_new")
        for key, value in options.items():
            self[key] = value

    def __setitem__(self, key, value):
        if key == "colormap" and isinstance(value, str):
            value, rev = colormap_from_name(value)
            call("toggle_render_opts_set", self._handle, RENDER_REVERSED, int(rev))
        call("toggle_render_opts_set", self._handle, _KEYS.get(key, key), int(value))

    def __getitem__(self, key):
        v = c_u64()
        call("toggle_render_opts_get", self._handle, _KEYS.get(key, key), ctypes.byref(v))
        return v.value

    def size(self, rows, cols):
        """(width, height) in pixels of a rows x cols board."""
        w, h = c_size_t(), c_size_t()
        call("toggle_render_size", self._handle, rows, cols, ctypes.byref(w), ctypes.byref(h))
        return w.value, h.value


def _format_for(format, path):
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


def render(cells, rows, cols, modulus, format=None, options=None, path=None, **kw):
    """Draw a rows x cols board (one colour per value): returns the image as
    bytes, or writes it to `path`. `format` is "ppm" or "png" (when built
    with libpng); by default the file name's extension picks it (.png or
    .ppm; anything else, and no path, means PPM), and a format that
    contradicts the name raises ValueError. `options` is a RenderOptions,
    or pass its keywords directly."""
    from . import _check as C
    rows, cols = C.count(rows, "rows"), C.count(cols, "cols")
    modulus = C.modulus(modulus)
    format = _format_for(format, path)
    opts = options if options is not None else RenderOptions(**kw)
    try:
        buf, _ = A.to_c(cells, length=rows * cols)
        fmt = _FORMATS.get(format, format)
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


def board_symmetry(cells, rows, cols):
    """(mask, name): the symmetries (TOGGLE_SYM_* bits) a board has, and the
    name of that group."""
    buf, _ = A.to_c(cells, length=rows * cols)
    mask = c_u32()
    call("toggle_board_symmetry", buf, rows, cols, ctypes.byref(mask))
    return mask.value, symmetry_name(mask.value)


def symmetry_name(mask):
    """Name of a symmetry group mask, or None."""
    name = _ffi.fn("toggle_symmetry_name")(mask)
    return name.decode() if name is not None else None


def symmetry_of_shape(rows, cols):
    """Every symmetry of the board shape (SYM_ALL for a square)."""
    return _ffi.fn("toggle_symmetry_of_shape")(rows, cols)


def _count_orbits(self, rows, cols, group=None):
    """Solutions counted up to a symmetry group (default: all of the shape's)."""
    if group is None:
        group = symmetry_of_shape(rows, cols)
    out = c_u64()
    call("toggle_solution_count_orbits", self._handle, rows, cols, group, ctypes.byref(out))
    return out.value


def flint_guard_install():
    """Install the opt-in FLINT guard (see guard.h)."""
    return check(_ffi.fn("toggle_flint_guard_install")())


def flint_guard_installed():
    """True if the FLINT guard is installed."""
    return bool(check(_ffi.fn("toggle_flint_guard_installed")()))


def _attach():
    from ._core import Solution
    Solution.count_orbits = _count_orbits


_attach()
