//! Rendering a board state to PPM or PNG through colour maps (render.h).

use std::ffi::CString;
use std::fmt;
use std::os::raw::c_int;
use std::path::Path;
use std::ptr::{self, NonNull};

use crate::error::check;
use crate::{check_board, new_handle, static_str, sys, Error, Result};

/// A colour map id (`TOGGLE_CMAP_*`). Ids are pinned; the library may know
/// more maps than the constants below: [`Colormap::all`] lists every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colormap(pub i32);

impl Colormap {
    /// viridis (the default)
    pub const VIRIDIS: Colormap = Colormap(sys::TOGGLE_CMAP_VIRIDIS);
    /// magma
    pub const MAGMA: Colormap = Colormap(sys::TOGGLE_CMAP_MAGMA);
    /// inferno
    pub const INFERNO: Colormap = Colormap(sys::TOGGLE_CMAP_INFERNO);
    /// plasma
    pub const PLASMA: Colormap = Colormap(sys::TOGGLE_CMAP_PLASMA);
    /// cividis
    pub const CIVIDIS: Colormap = Colormap(sys::TOGGLE_CMAP_CIVIDIS);
    /// twilight
    pub const TWILIGHT: Colormap = Colormap(sys::TOGGLE_CMAP_TWILIGHT);
    /// turbo
    pub const TURBO: Colormap = Colormap(sys::TOGGLE_CMAP_TURBO);
    /// matplotlib "Greys": white to black
    pub const GREYS: Colormap = Colormap(sys::TOGGLE_CMAP_GREYS);
    /// qualitative, 10 colours
    pub const TAB10: Colormap = Colormap(sys::TOGGLE_CMAP_TAB10);
    /// qualitative, 20 colours
    pub const TAB20: Colormap = Colormap(sys::TOGGLE_CMAP_TAB20);
    /// qualitative, 9 colours
    pub const SET1: Colormap = Colormap(sys::TOGGLE_CMAP_SET1);
    /// qualitative, 8 colours
    pub const SET2: Colormap = Colormap(sys::TOGGLE_CMAP_SET2);
    /// qualitative, 12 colours
    pub const SET3: Colormap = Colormap(sys::TOGGLE_CMAP_SET3);
    /// qualitative, 8 colours
    pub const DARK2: Colormap = Colormap(sys::TOGGLE_CMAP_DARK2);
    /// qualitative, 12 colours
    pub const PAIRED: Colormap = Colormap(sys::TOGGLE_CMAP_PAIRED);
    /// qualitative, 9 colours
    pub const PASTEL1: Colormap = Colormap(sys::TOGGLE_CMAP_PASTEL1);
    /// qualitative, 8 colours
    pub const ACCENT: Colormap = Colormap(sys::TOGGLE_CMAP_ACCENT);

    /// Every colour map the loaded library knows (ids 0 .. count - 1).
    pub fn all() -> Vec<Colormap> {
        let n = unsafe { sys::toggle_colormap_count() };
        (0..n).map(|i| Colormap(i as i32)).collect()
    }

    /// The map's name ("viridis"), or `None` for an unknown id.
    pub fn name(self) -> Option<&'static str> {
        unsafe { static_str(sys::toggle_colormap_name(self.0)) }
    }

    /// True for a qualitative map (a list of colours), false for a
    /// continuous one; `ErrorKind::InvalidArgument` for an unknown id.
    pub fn is_qualitative(self) -> Result<bool> {
        check(unsafe { sys::toggle_colormap_is_qualitative(self.0) }).map(|v| v == 1)
    }

    /// Look a map up by name; a "_r" suffix ("viridis_r") asks for the
    /// reversed map. Returns (map, reversed).
    pub fn from_name(name: &str) -> Result<(Colormap, bool)> {
        let c = CString::new(name).map_err(|_| Error::invalid("colour map name contains NUL".into()))?;
        let (mut id, mut rev): (c_int, c_int) = (0, 0);
        check(unsafe { sys::toggle_colormap_from_name(c.as_ptr(), &mut id, &mut rev) })?;
        Ok((Colormap(id), rev != 0))
    }

    /// The colour `[r, g, b]` of value `v` of `k` (k >= 2, v < k) under this
    /// map, read backwards when `reversed`: the exact colour [`render`]
    /// draws for that cell.
    pub fn color(self, reversed: bool, v: u64, k: u64) -> Result<[u8; 3]> {
        let mut rgb = [0u8; 3];
        check(unsafe { sys::toggle_colormap_color(self.0, reversed as c_int, v, k, rgb.as_mut_ptr()) })?;
        Ok(rgb)
    }
}

/// Image formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// Binary PPM ("P6", 8 bits), always available.
    Ppm,
    /// PNG; `ErrorKind::Unsupported` in a library built without libpng.
    Png,
}

impl ImageFormat {
    fn code(self) -> c_int {
        match self {
            ImageFormat::Ppm => sys::TOGGLE_IMAGE_PPM,
            ImageFormat::Png => sys::TOGGLE_IMAGE_PNG,
        }
    }
}

/// Rendering options (cell size, grid lines, border, colour map, line
/// colour), holding the library's defaults when new. Owns its C handle.
pub struct RenderOptions {
    ptr: NonNull<sys::toggle_render_opts>,
}

// Plain settings: nothing ties them to a thread; mutation needs &mut.
unsafe impl Send for RenderOptions {}
unsafe impl Sync for RenderOptions {}

impl RenderOptions {
    /// Options holding the defaults (8-pixel cells, no lines, no border,
    /// viridis, black lines).
    pub fn new() -> Result<RenderOptions> {
        new_handle(|out| unsafe { sys::toggle_render_opts_new(out) }).map(|ptr| RenderOptions { ptr })
    }

    /// Set a raw `TOGGLE_RENDER_*` option.
    pub fn set(&mut self, key: i32, value: u64) -> Result<()> {
        check(unsafe { sys::toggle_render_opts_set(self.ptr.as_ptr(), key, value) }).map(|_| ())
    }

    /// Read a raw `TOGGLE_RENDER_*` option.
    pub fn get(&self, key: i32) -> Result<u64> {
        let mut v = 0u64;
        check(unsafe { sys::toggle_render_opts_get(self.ptr.as_ptr(), key, &mut v) })?;
        Ok(v)
    }

    /// Pixels per cell side, 1..4096 (default 8).
    pub fn set_cell_size(&mut self, pixels: u64) -> Result<()> {
        self.set(sys::TOGGLE_RENDER_CELL_SIZE, pixels)
    }

    /// Width of the lines between cells, 0..256 (default 0).
    pub fn set_grid_lines(&mut self, pixels: u64) -> Result<()> {
        self.set(sys::TOGGLE_RENDER_GRID_LINES, pixels)
    }

    /// Width of the border around the board, 0..4096 (default 0).
    pub fn set_border(&mut self, pixels: u64) -> Result<()> {
        self.set(sys::TOGGLE_RENDER_BORDER, pixels)
    }

    /// The colour map (default viridis).
    pub fn set_colormap(&mut self, map: Colormap) -> Result<()> {
        if map.0 < 0 {
            return Err(Error::new(sys::TOGGLE_ERANGE, format!("colour map id {} is negative", map.0)));
        }
        self.set(sys::TOGGLE_RENDER_COLORMAP, map.0 as u64)
    }

    /// Read the colour map backwards (default false).
    pub fn set_reversed(&mut self, reversed: bool) -> Result<()> {
        self.set(sys::TOGGLE_RENDER_REVERSED, reversed as u64)
    }

    /// Colour of the lines and border as 0xRRGGBB (default 0x000000).
    pub fn set_line_color(&mut self, rgb: u32) -> Result<()> {
        self.set(sys::TOGGLE_RENDER_LINE_COLOR, u64::from(rgb))
    }

    fn as_ptr(&self) -> *const sys::toggle_render_opts {
        self.ptr.as_ptr()
    }
}

impl Drop for RenderOptions {
    fn drop(&mut self) {
        unsafe { sys::toggle_render_opts_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for RenderOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = |k| self.get(k).unwrap_or(0);
        write!(f, "RenderOptions(cell {}, lines {}, border {}, colormap {}, reversed {})",
               g(sys::TOGGLE_RENDER_CELL_SIZE), g(sys::TOGGLE_RENDER_GRID_LINES),
               g(sys::TOGGLE_RENDER_BORDER), g(sys::TOGGLE_RENDER_COLORMAP),
               g(sys::TOGGLE_RENDER_REVERSED))
    }
}

fn opts_ptr(opts: Option<&RenderOptions>) -> *const sys::toggle_render_opts {
    opts.map_or(ptr::null(), RenderOptions::as_ptr)
}

/// (width, height) in pixels of the picture of a rows x cols board
/// (`opts` `None`: the defaults).
pub fn render_size(opts: Option<&RenderOptions>, rows: usize, cols: usize) -> Result<(usize, usize)> {
    let (mut w, mut h) = (0usize, 0usize);
    check(unsafe { sys::toggle_render_size(opts_ptr(opts), rows, cols, &mut w, &mut h) })?;
    Ok((w, h))
}

/// The image file bytes of a rows x cols board (`cells` row-major, values
/// < `modulus`), deterministic for the same input.
pub fn render(opts: Option<&RenderOptions>, format: ImageFormat, cells: &[u64], rows: usize,
              cols: usize, modulus: u64) -> Result<Vec<u8>> {
    check_board(cells, rows, cols)?;
    let o = opts_ptr(opts);
    let mut needed = 0usize;
    let st = unsafe {
        sys::toggle_render(o, format.code(), cells.as_ptr(), rows, cols, modulus, ptr::null_mut(), 0,
                           &mut needed)
    };
    if st != sys::TOGGLE_EBUFSIZE {
        check(st)?;
    }
    let mut buf = vec![0u8; needed];
    check(unsafe {
        sys::toggle_render(o, format.code(), cells.as_ptr(), rows, cols, modulus, buf.as_mut_ptr(),
                           buf.len(), &mut needed)
    })?;
    buf.truncate(needed);
    Ok(buf)
}

#[cfg(unix)]
fn path_cstring(path: &Path) -> Result<CString> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(path.as_os_str().as_bytes()).map_err(|_| Error::invalid("path contains NUL".into()))
}

#[cfg(not(unix))]
fn path_cstring(path: &Path) -> Result<CString> {
    let s = path.to_str().ok_or_else(|| Error::invalid("path is not valid Unicode".into()))?;
    CString::new(s).map_err(|_| Error::invalid("path contains NUL".into()))
}

/// Render a board into a file (created or truncated); as [`render`], plus
/// `ErrorKind::Io` when the file cannot be written.
pub fn render_file<P: AsRef<Path>>(opts: Option<&RenderOptions>, format: ImageFormat, cells: &[u64],
                                   rows: usize, cols: usize, modulus: u64, path: P) -> Result<()> {
    check_board(cells, rows, cols)?;
    let p = path_cstring(path.as_ref())?;
    check(unsafe {
        sys::toggle_render_file(opts_ptr(opts), format.code(), cells.as_ptr(), rows, cols, modulus,
                                p.as_ptr())
    })
    .map(|_| ())
}
