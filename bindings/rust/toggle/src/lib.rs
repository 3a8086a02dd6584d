//! Safe Rust API for libtoggle: Lights Out style puzzles as linear systems
//! A x = b over Z/kZ.
//!
//! ```no_run
//! use toggle::{Graph, System, GridFlags};
//!
//! fn main() -> Result<(), toggle::Error> {
//!     let graph = Graph::grid(5, 5, GridFlags::CLASSIC)?;
//!     let system = System::new(&graph, 2, None, None)?; // all off -> all on
//!     let solution = system.solve()?;
//!     println!("nullity {}, {} solutions", solution.nullity(), solution.count()?);
//!     let presses = solution.particular()?;
//!     assert!(system.check(&presses)?);
//!     Ok(())
//! }
//! ```
//!
//! The rest of the C API, by header: [`Solution::solutions`],
//! [`Solution::sample`], [`Search`] (fewest presses with costs, forbidden
//! cells and threads) and [`Generator`] (space.h); [`Steps`] (row operations
//! and plain Gauss-Jordan one step at a time) and [`Graph::chaos`] (steps.h);
//! [`System::from_packed`] and [`Solution::kernel_packed`] (bit-packed
//! GF(2)); [`System::set_progress`] (progress and cancel,
//! [`ErrorKind::Cancelled`]); [`render`] and [`RenderOptions`] (render.h);
//! [`board_symmetry`] and [`Solution::count_orbits`] (symmetry.h). The raw
//! declarations are re-exported as [`sys`].
//!
//! Every type owns one C handle and frees it in `Drop`. Graphs and solutions
//! are immutable, `Send` and `Sync`; a `System` is `Send` (its options need
//! `&mut`). Failures are [`Error`] values carrying the status code, its name
//! and the library's message. No function here needs `unsafe` from you.

#![warn(missing_docs)]

use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_int};
use std::ptr::{self, NonNull};

pub use toggle_sys as sys;

mod error;
mod progress;
mod render;
mod space;
mod steps;
mod symmetry;
pub use error::{Error, ErrorKind, Result};
pub use render::{render, render_file, render_size, Colormap, ImageFormat, RenderOptions};
pub use space::{Fewest, Generator, Metric, Puzzle, Rng, Search, Solutions, COST_FORBIDDEN};
pub use steps::{StepOp, StepStatus, Steps};
pub use symmetry::{board_symmetry, Symmetry};
use error::check;

/// Major version of the C library this crate is written for.
pub const EXPECTED_MAJOR: u32 = sys::TOGGLE_VERSION_MAJOR;

/// Version string of the loaded C library, e.g. "1.1.0".
pub fn version() -> &'static str {
    unsafe { static_str(sys::toggle_version_string()) }.unwrap_or("")
}

/// Version of the loaded C library as major * 10000 + minor * 100 + patch.
pub fn version_number() -> u32 {
    unsafe { sys::toggle_version_number() }
}

/// Ok if the loaded library's major version is [`EXPECTED_MAJOR`].
pub fn check_version() -> Result<()> {
    let v = version_number();
    if v / 10000 != EXPECTED_MAJOR {
        return Err(Error::new(
            sys::TOGGLE_EUNSUPPORTED,
            format!("libtoggle {} loaded, this crate needs major version {}", version(), EXPECTED_MAJOR),
        ));
    }
    Ok(())
}

/// Install the opt-in FLINT guard (toggle/guard.h): from then on, a FLINT
/// allocation failure inside libtoggle makes the call fail with
/// `ErrorKind::OutOfMemory` instead of aborting the process. Process-global
/// and idempotent; call it early, before other threads use libtoggle, and
/// not if the program sets FLINT's memory functions or abort handler itself.
pub fn flint_guard_install() -> Result<()> {
    check(unsafe { sys::toggle_flint_guard_install() }).map(|_| ())
}

/// Forget this thread's last error message (`toggle_last_error`). The
/// crate reads the message into each [`Error`] right away, so this matters
/// only to code that also calls [`sys`] directly.
pub fn clear_error() {
    unsafe { sys::toggle_clear_error() }
}

/// True once [`flint_guard_install`] has run in this process.
pub fn flint_guard_installed() -> bool {
    unsafe { sys::toggle_flint_guard_installed() == 1 }
}

unsafe fn static_str(p: *const c_char) -> Option<&'static str> {
    if p.is_null() {
        None
    } else {
        CStr::from_ptr(p).to_str().ok()
    }
}

/// Run a C function that writes a NUL-terminated string into (buf, len, needed).
fn read_string<F: Fn(*mut c_char, usize, *mut usize) -> c_int>(f: F) -> Result<String> {
    let mut needed = 0usize;
    let st = f(ptr::null_mut(), 0, &mut needed);
    if st != sys::TOGGLE_OK && st != sys::TOGGLE_EBUFSIZE {
        check(st)?;
    }
    let mut buf = vec![0u8; needed.max(1)];
    check(f(buf.as_mut_ptr() as *mut c_char, buf.len(), &mut needed))?;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    buf.truncate(end);
    String::from_utf8(buf).map_err(|_| Error::new(sys::TOGGLE_EINTERNAL, "output is not UTF-8".into()))
}

/// Flags of [`Graph::grid`] (combine with `|`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GridFlags(pub u32);

impl GridFlags {
    /// Self plus up, down, left, right.
    pub const CLASSIC: GridFlags = GridFlags(sys::TOGGLE_GRID_CLASSIC);
    /// Pressing a cell leaves the cell itself alone.
    pub const NO_SELF: GridFlags = GridFlags(sys::TOGGLE_GRID_NO_SELF);
    /// Wrap around the edges.
    pub const TORUS: GridFlags = GridFlags(sys::TOGGLE_GRID_TORUS);
    /// 8 neighbours (adds the diagonals).
    pub const MOORE: GridFlags = GridFlags(sys::TOGGLE_GRID_MOORE);
    /// Wrap left-right only.
    pub const CYLINDER: GridFlags = GridFlags(sys::TOGGLE_GRID_CYLINDER);
    /// Hexagonal lattice, odd rows shifted right by half a cell.
    pub const HEX: GridFlags = GridFlags(sys::TOGGLE_GRID_HEX);
    /// Triangular lattice, cell (r, c) points up when r + c is even.
    pub const TRI: GridFlags = GridFlags(sys::TOGGLE_GRID_TRI);
}

impl std::ops::BitOr for GridFlags {
    type Output = GridFlags;
    fn bitor(self, rhs: GridFlags) -> GridFlags {
        GridFlags(self.0 | rhs.0)
    }
}

/// What a graph was built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphKind {
    /// [`Graph::grid`]
    Grid,
    /// [`Graph::stencil`]
    Stencil,
    /// A graph or toggle matrix stored sparsely.
    Matrix,
}

/// A toggle graph: N cells and the toggle matrix A (`A[i][j]` is what pressing
/// cell j adds to cell i). Grid cells are numbered row-major.
pub struct Graph {
    ptr: NonNull<sys::toggle_graph>,
}

// The C graph is immutable once built and documented as shareable.
unsafe impl Send for Graph {}
unsafe impl Sync for Graph {}

fn new_handle<T, F: FnOnce(*mut *mut T) -> c_int>(f: F) -> Result<NonNull<T>> {
    let mut out: *mut T = ptr::null_mut();
    check(f(&mut out))?;
    NonNull::new(out).ok_or_else(|| Error::new(sys::TOGGLE_EINTERNAL, "NULL handle".into()))
}

fn no_self(flag: bool) -> u32 {
    if flag {
        sys::TOGGLE_GRAPH_NO_SELF
    } else {
        0
    }
}

impl Graph {
    fn from_ptr(ptr: NonNull<sys::toggle_graph>) -> Graph {
        Graph { ptr }
    }

    /// A random "chaos" toggle matrix on a rows x cols board (kind
    /// [`GraphKind::Matrix`]): pressing cell j adds 1 to itself and, with
    /// probability `density`, 1 to each other cell within Chebyshev distance
    /// `radius` (`None`: any distance). The same seed gives the same board on
    /// every platform. `InvalidArgument` for zero rows or cols or a density
    /// outside [0, 1].
    pub fn chaos(rows: usize, cols: usize, density: f64, radius: Option<usize>, seed: u64)
                 -> Result<Graph> {
        let radius = radius.unwrap_or(sys::TOGGLE_CHAOS_ANY_DISTANCE);
        new_handle(|out| unsafe { sys::toggle_graph_new_chaos(out, rows, cols, density, radius, seed) })
            .map(Graph::from_ptr)
    }

    /// A rows x cols grid.
    pub fn grid(rows: usize, cols: usize, flags: GridFlags) -> Result<Graph> {
        new_handle(|out| unsafe { sys::toggle_graph_new_grid(out, rows, cols, flags.0) })
            .map(Graph::from_ptr)
    }

    /// A grid whose press adds `weight` to the cell at offset (drow, dcol)
    /// for each `(drow, dcol, weight)` of `stencil`; `torus` wraps offsets.
    pub fn stencil(rows: usize, cols: usize, stencil: &[(i64, i64, u64)], torus: bool)
                   -> Result<Graph> {
        let dr: Vec<i64> = stencil.iter().map(|s| s.0).collect();
        let dc: Vec<i64> = stencil.iter().map(|s| s.1).collect();
        let w: Vec<u64> = stencil.iter().map(|s| s.2).collect();
        let flags = if torus { sys::TOGGLE_GRID_TORUS } else { 0 };
        new_handle(|out| unsafe {
            sys::toggle_graph_new_stencil(out, rows, cols, dr.as_ptr(), dc.as_ptr(), w.as_ptr(),
                                          stencil.len(), flags)
        })
        .map(Graph::from_ptr)
    }

    /// An undirected graph from a dense n x n 0/1 symmetric adjacency matrix
    /// (row-major, `adjacency.len() == n * n`).
    pub fn adjacency(n: usize, adjacency: &[u8], no_self_flag: bool) -> Result<Graph> {
        if n.checked_mul(n) != Some(adjacency.len()) {
            return Err(Error::invalid(format!("adjacency has {} entries, expected {} x {}",
                                              adjacency.len(), n, n)));
        }
        new_handle(|out| unsafe {
            sys::toggle_graph_new_adjacency(out, n, adjacency.as_ptr(), no_self(no_self_flag))
        })
        .map(Graph::from_ptr)
    }

    /// An undirected graph on n nodes from an edge list.
    pub fn edges(n: usize, edges: &[(usize, usize)], no_self_flag: bool) -> Result<Graph> {
        let flat: Vec<usize> = edges.iter().flat_map(|e| [e.0, e.1]).collect();
        new_handle(|out| unsafe {
            sys::toggle_graph_new_edges(out, n, flat.as_ptr(), edges.len(), no_self(no_self_flag))
        })
        .map(Graph::from_ptr)
    }

    /// Parse an edge list: "u v" per line, '#' comments, optional "nodes N".
    pub fn parse_edges(text: &str, no_self_flag: bool) -> Result<Graph> {
        new_handle(|out| unsafe {
            sys::toggle_graph_parse_edges(out, text.as_ptr() as *const c_char, text.len(),
                                          no_self(no_self_flag))
        })
        .map(Graph::from_ptr)
    }

    /// An arbitrary toggle matrix, n x n row-major: `a[i * n + j]` is what
    /// pressing j adds to cell i.
    pub fn matrix(n: usize, a: &[u64]) -> Result<Graph> {
        if n.checked_mul(n) != Some(a.len()) {
            return Err(Error::invalid(format!("matrix has {} entries, expected {} x {}",
                                              a.len(), n, n)));
        }
        new_handle(|out| unsafe { sys::toggle_graph_new_matrix(out, n, a.as_ptr()) })
            .map(Graph::from_ptr)
    }

    /// Number of cells N.
    pub fn cells(&self) -> usize {
        unsafe { sys::toggle_graph_cells(self.ptr.as_ptr()) }
    }

    /// What the graph was built from.
    pub fn kind(&self) -> GraphKind {
        match unsafe { sys::toggle_graph_kind(self.ptr.as_ptr()) } {
            sys::TOGGLE_KIND_GRID => GraphKind::Grid,
            sys::TOGGLE_KIND_STENCIL => GraphKind::Stencil,
            _ => GraphKind::Matrix,
        }
    }

    /// The flags the graph was built with.
    pub fn flags(&self) -> u32 {
        unsafe { sys::toggle_graph_flags(self.ptr.as_ptr()) }
    }

    /// (rows, cols) of a grid or stencil graph.
    pub fn grid_shape(&self) -> Option<(usize, usize)> {
        let (mut r, mut c) = (0usize, 0usize);
        let st = unsafe { sys::toggle_graph_grid_shape(self.ptr.as_ptr(), &mut r, &mut c) };
        if st == sys::TOGGLE_OK {
            Some((r, c))
        } else {
            None
        }
    }

    /// What pressing cell j adds to cell i (not reduced).
    pub fn entry(&self, i: usize, j: usize) -> Result<u64> {
        let mut v = 0u64;
        check(unsafe { sys::toggle_graph_entry(self.ptr.as_ptr(), i, j, &mut v) })?;
        Ok(v)
    }
}

impl Drop for Graph {
    fn drop(&mut self) {
        unsafe { sys::toggle_graph_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for Graph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Graph({:?}, {} cells)", self.kind(), self.cells())
    }
}

/// Elimination engines (the TOGGLE_SYSTEM_OPT_ENGINE option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Let the library choose (the default).
    Auto,
    /// Dense elimination with FLINT, prime k.
    Flint,
    /// Bit-packed elimination, k = 2.
    Gf2,
    /// Light chasing on grids.
    Chase,
    /// Composite k.
    Howell,
    /// Dense elimination through a BLAS, prime k < 2^26 (builds with -Dblas).
    Blas,
    /// Chasing on every lattice, wrap and stencil, prime k.
    Transfer,
    /// Plain-C dense Gauss-Jordan, prime k (serves primes in builds without FLINT).
    Dense,
}

impl Engine {
    fn code(self) -> c_int {
        match self {
            Engine::Auto => sys::TOGGLE_ENGINE_AUTO,
            Engine::Flint => sys::TOGGLE_ENGINE_FLINT,
            Engine::Gf2 => sys::TOGGLE_ENGINE_GF2,
            Engine::Chase => sys::TOGGLE_ENGINE_CHASE,
            Engine::Howell => sys::TOGGLE_ENGINE_HOWELL,
            Engine::Blas => sys::TOGGLE_ENGINE_BLAS,
            Engine::Transfer => sys::TOGGLE_ENGINE_TRANSFER,
            Engine::Dense => sys::TOGGLE_ENGINE_DENSE,
        }
    }

    fn from_code(code: c_int) -> Option<Engine> {
        match code {
            sys::TOGGLE_ENGINE_AUTO => Some(Engine::Auto),
            sys::TOGGLE_ENGINE_FLINT => Some(Engine::Flint),
            sys::TOGGLE_ENGINE_GF2 => Some(Engine::Gf2),
            sys::TOGGLE_ENGINE_CHASE => Some(Engine::Chase),
            sys::TOGGLE_ENGINE_HOWELL => Some(Engine::Howell),
            sys::TOGGLE_ENGINE_BLAS => Some(Engine::Blas),
            sys::TOGGLE_ENGINE_TRANSFER => Some(Engine::Transfer),
            sys::TOGGLE_ENGINE_DENSE => Some(Engine::Dense),
            _ => None,
        }
    }

    /// The library's name for the engine ("auto", "flint", "gf2", ...).
    pub fn name(self) -> &'static str {
        unsafe { static_str(sys::toggle_engine_name(self.code())) }.unwrap_or("unknown")
    }

    /// Look an engine up by name.
    pub fn from_name(name: &str) -> Result<Engine> {
        let c = CString::new(name).map_err(|_| Error::invalid("engine name contains NUL".into()))?;
        let mut code: c_int = 0;
        check(unsafe { sys::toggle_engine_from_name(c.as_ptr(), &mut code) })?;
        Engine::from_code(code).ok_or_else(|| Error::invalid(format!("unknown engine {}", code)))
    }
}

/// An augmented system A x = b over Z/kZ.
pub struct System {
    ptr: NonNull<sys::toggle_system>,
    progress: progress::Shared,
}

// Nothing ties a system to a thread; mutation needs &mut.
unsafe impl Send for System {}

fn values_ptr(v: Option<&[u64]>, n: usize, what: &str) -> Result<*const u64> {
    match v {
        None => Ok(ptr::null()),
        Some(s) if s.len() == n => Ok(s.as_ptr()),
        Some(s) => Err(Error::invalid(format!("{} has {} values, expected {}", what, s.len(), n))),
    }
}

impl System {
    fn from_ptr(ptr: NonNull<sys::toggle_system>) -> System {
        System { ptr, progress: None }
    }

    /// The game on a graph: A x = target - start (mod k). `start` defaults
    /// to all 0, `target` to all 1. The system keeps its own reference to
    /// the graph, so the graph may be dropped first.
    pub fn new(graph: &Graph, modulus: u64, start: Option<&[u64]>, target: Option<&[u64]>)
               -> Result<System> {
        let n = graph.cells();
        let s = values_ptr(start, n, "start")?;
        let t = values_ptr(target, n, "target")?;
        new_handle(|out| unsafe { sys::toggle_system_new(out, graph.ptr.as_ptr(), modulus, s, t) })
            .map(System::from_ptr)
    }

    /// A system from an m x n row-major matrix and m right-hand sides.
    pub fn from_matrix(m: usize, n: usize, a: &[u64], b: &[u64], modulus: u64) -> Result<System> {
        if m.checked_mul(n) != Some(a.len()) || b.len() != m {
            return Err(Error::invalid(format!(
                "matrix has {} entries and b {}, expected {} x {} and {}", a.len(), b.len(), m, n, m)));
        }
        new_handle(|out| unsafe {
            sys::toggle_system_new_matrix(out, m, n, a.as_ptr(), b.as_ptr(), modulus)
        })
        .map(System::from_ptr)
    }

    /// A modulus-2 system from packed bit rows, 64 entries to a word: entry
    /// `A[i][j]` is bit `j % 64` (bit 0 the least significant) of word
    /// `a[i * a_stride + j / 64]`, and `b[i]` is bit `i % 64` of
    /// `b[i / 64]`. Padding bits are ignored. The system holds A at one bit
    /// per entry (a 32768 x 32768 system takes 128 MiB).
    ///
    /// `a` must hold `m * a_stride` words (`a_stride >= (n + 63) / 64`) and
    /// `b` at least `(m + 63) / 64`; otherwise `InvalidArgument`.
    pub fn from_packed(m: usize, n: usize, a: &[u64], a_stride: usize, b: &[u64])
                       -> Result<System> {
        let row_words = (n / 64) + usize::from(n % 64 != 0);
        let b_words = (m / 64) + usize::from(m % 64 != 0);
        if a_stride < row_words {
            return Err(Error::invalid(format!("a_stride {} is below the {} words of a row of {}",
                                              a_stride, row_words, n)));
        }
        if m.checked_mul(a_stride).map_or(true, |w| a.len() < w) || b.len() < b_words {
            return Err(Error::invalid(format!(
                "a has {} words and b {}, expected {} x {} and {}", a.len(), b.len(), m, a_stride,
                b_words)));
        }
        new_handle(|out| unsafe {
            sys::toggle_system_new_packed(out, m, n, a.as_ptr(), a_stride, b.as_ptr())
        })
        .map(System::from_ptr)
    }

    /// Parse the augmented text form ("110|1" per line).
    pub fn parse(text: &str, modulus: u64) -> Result<System> {
        new_handle(|out| unsafe {
            sys::toggle_system_parse(out, text.as_ptr() as *const c_char, text.len(), modulus)
        })
        .map(System::from_ptr)
    }

    /// The augmented text form.
    pub fn write(&self) -> Result<String> {
        let p = self.ptr.as_ptr();
        read_string(|buf, len, needed| unsafe { sys::toggle_system_write(p, buf, len, needed) })
    }

    /// Number of equations m.
    pub fn rows(&self) -> usize {
        unsafe { sys::toggle_system_rows(self.ptr.as_ptr()) }
    }

    /// Number of unknowns n.
    pub fn cols(&self) -> usize {
        unsafe { sys::toggle_system_cols(self.ptr.as_ptr()) }
    }

    /// The modulus k.
    pub fn modulus(&self) -> u64 {
        unsafe { sys::toggle_system_modulus(self.ptr.as_ptr()) }
    }

    /// True if the system was built on a graph.
    pub fn has_graph(&self) -> bool {
        !unsafe { sys::toggle_system_graph(self.ptr.as_ptr()) }.is_null()
    }

    /// `A[i][j]` reduced modulo k.
    pub fn entry(&self, i: usize, j: usize) -> Result<u64> {
        let mut v = 0u64;
        check(unsafe { sys::toggle_system_entry(self.ptr.as_ptr(), i, j, &mut v) })?;
        Ok(v)
    }

    /// `b[i]`.
    pub fn rhs(&self, i: usize) -> Result<u64> {
        let mut v = 0u64;
        check(unsafe { sys::toggle_system_rhs(self.ptr.as_ptr(), i, &mut v) })?;
        Ok(v)
    }

    /// Set a raw `TOGGLE_SYSTEM_OPT_*` option (a key of a search or a
    /// generator is an `InvalidArgument` error whose message names it).
    pub fn set_option(&mut self, key: i32, value: u64) -> Result<()> {
        check(unsafe { sys::toggle_system_set_option(self.ptr.as_ptr(), key, value) }).map(|_| ())
    }

    /// Read a raw `TOGGLE_SYSTEM_OPT_*` option.
    pub fn option(&self, key: i32) -> Result<u64> {
        let mut v = 0u64;
        check(unsafe { sys::toggle_system_get_option(self.ptr.as_ptr(), key, &mut v) })?;
        Ok(v)
    }

    /// Force an engine (Engine::Auto lets the library choose).
    pub fn set_engine(&mut self, engine: Engine) -> Result<()> {
        self.set_option(sys::TOGGLE_SYSTEM_OPT_ENGINE, engine.code() as u64)
    }

    /// Bytes the solver may allocate (0 = unlimited).
    pub fn set_memory_budget(&mut self, bytes: u64) -> Result<()> {
        self.set_option(sys::TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, bytes)
    }

    /// Solutions a fewest-press search may visit, the default of the
    /// searches on this system's solutions and of its generators (2^32
    /// unless set; 0 = unlimited).
    pub fn set_search_limit(&mut self, limit: u64) -> Result<()> {
        self.set_option(sys::TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, limit)
    }

    /// The search limit ([`System::set_search_limit`]); `u64::MAX` when it
    /// was set to 0 (unlimited).
    pub fn search_limit(&self) -> Result<u64> {
        self.option(sys::TOGGLE_SYSTEM_OPT_SEARCH_LIMIT)
    }

    /// Threads an engine may use for this system (1 unless set; 0 = one
    /// per online processor). Answers never depend on it.
    pub fn set_threads(&mut self, threads: u64) -> Result<()> {
        self.set_option(sys::TOGGLE_SYSTEM_OPT_THREADS, threads)
    }

    /// The thread option ([`System::set_threads`]).
    pub fn threads(&self) -> Result<u64> {
        self.option(sys::TOGGLE_SYSTEM_OPT_THREADS)
    }

    /// Report the progress of long work: [`System::solve`], and searches
    /// and generators made from this system or its solutions, call
    /// `callback` with the fraction of the current stage done (0 to 1; a
    /// solve has stages, so the fraction may start again from 0), on the
    /// calling thread, at most about 20 times a second. It returns whether
    /// to continue: `false` cancels the call, which fails with
    /// [`ErrorKind::Cancelled`] and leaves the system as it was (solve it
    /// again at will).
    ///
    /// A panic in `callback` does not unwind through the C library: it is
    /// caught, the call is cancelled, and the panic resumes in the caller once
    /// the library has returned. Solutions, searches and generators made
    /// while a callback is set keep it (and report to it) even after the
    /// system gets another one.
    ///
    /// ```no_run
    /// # fn main() -> toggle::Result<()> {
    /// use std::time::{Duration, Instant};
    /// let graph = toggle::Graph::grid(300, 300, toggle::GridFlags::TORUS)?;
    /// let mut game = toggle::System::new(&graph, 2, None, None)?;
    /// let deadline = Instant::now() + Duration::from_secs(10);
    /// game.set_progress(move |fraction| {
    ///     eprint!("\r{:3.0}%", fraction * 100.0);
    ///     Instant::now() < deadline // false: give up
    /// })?;
    /// match game.solve() {
    ///     Err(e) if e.kind() == toggle::ErrorKind::Cancelled => eprintln!("took too long"),
    ///     other => println!("nullity {}", other?.nullity()),
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn set_progress<F>(&mut self, callback: F) -> Result<()>
    where
        F: FnMut(f64) -> bool + Send + 'static,
    {
        let p = progress::Progress::new(callback);
        check(unsafe {
            sys::toggle_system_set_progress(self.ptr.as_ptr(), Some(progress::trampoline),
                                            progress::Progress::payload(&p))
        })?;
        self.progress = Some(p);
        Ok(())
    }

    /// Remove the progress callback ([`System::set_progress`]).
    pub fn clear_progress(&mut self) -> Result<()> {
        check(unsafe { sys::toggle_system_set_progress(self.ptr.as_ptr(), None, ptr::null_mut()) })?;
        self.progress = None;
        Ok(())
    }

    /// True if the presses x solve the system (no elimination involved).
    pub fn check(&self, x: &[u64]) -> Result<bool> {
        let mut ok: c_int = 0;
        check(unsafe { sys::toggle_system_check(self.ptr.as_ptr(), x.as_ptr(), x.len(), &mut ok) })?;
        Ok(ok != 0)
    }

    /// True if y proves the system unsolvable (y A = 0, y . b != 0).
    pub fn check_certificate(&self, y: &[u64]) -> Result<bool> {
        let mut ok: c_int = 0;
        check(unsafe {
            sys::toggle_system_check_certificate(self.ptr.as_ptr(), y.as_ptr(), y.len(), &mut ok)
        })?;
        Ok(ok != 0)
    }

    /// Solve. An unsolvable system is an `Ok` solution whose
    /// [`Solution::is_solvable`] is false; [`ErrorKind::Cancelled`] when the
    /// progress callback stopped it.
    pub fn solve(&self) -> Result<Solution> {
        let shared = &self.progress;
        new_handle(|out| progress::resume(shared, unsafe { sys::toggle_solve(out, self.ptr.as_ptr()) }))
            .map(|ptr| Solution { ptr, progress: shared.clone() })
    }
}

impl Drop for System {
    fn drop(&mut self) {
        unsafe { sys::toggle_system_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "System({} x {} over Z/{})", self.rows(), self.cols(), self.modulus())
    }
}

/// The answer of [`System::solve`]: solvability, the canonical particular
/// solution, a kernel basis, the count, or a certificate. Independent of the
/// system it came from.
pub struct Solution {
    ptr: NonNull<sys::toggle_solution>,
    progress: progress::Shared,
}

// Immutable once built.
unsafe impl Send for Solution {}
unsafe impl Sync for Solution {}

impl Solution {
    /// True if the system has a solution.
    pub fn is_solvable(&self) -> bool {
        unsafe { sys::toggle_solution_is_solvable(self.ptr.as_ptr()) == 1 }
    }

    /// Number of equations m (length of the certificate).
    pub fn rows(&self) -> usize {
        unsafe { sys::toggle_solution_rows(self.ptr.as_ptr()) }
    }

    /// Number of unknowns n (length of solutions and kernel vectors).
    pub fn cols(&self) -> usize {
        unsafe { sys::toggle_solution_cols(self.ptr.as_ptr()) }
    }

    /// The modulus k.
    pub fn modulus(&self) -> u64 {
        unsafe { sys::toggle_solution_modulus(self.ptr.as_ptr()) }
    }

    /// The engine that produced the solution.
    pub fn engine(&self) -> Option<Engine> {
        Engine::from_code(unsafe { sys::toggle_solution_engine(self.ptr.as_ptr()) })
    }

    /// Dimension of the kernel (number of kernel basis vectors).
    pub fn nullity(&self) -> usize {
        unsafe { sys::toggle_solution_nullity(self.ptr.as_ptr()) }
    }

    /// Number of solutions as a u64; `ErrorKind::Overflow` if it does not fit.
    pub fn count_u64(&self) -> Result<u64> {
        let mut c = 0u64;
        check(unsafe { sys::toggle_solution_count_u64(self.ptr.as_ptr(), &mut c) })?;
        Ok(c)
    }

    /// Exact number of solutions in decimal, of any size.
    pub fn count(&self) -> Result<String> {
        let p = self.ptr.as_ptr();
        read_string(|buf, len, needed| unsafe {
            sys::toggle_solution_count_string(p, buf, len, needed)
        })
    }

    /// The canonical particular solution (RREF, free variables 0);
    /// `ErrorKind::NoSolution` when unsolvable.
    pub fn particular(&self) -> Result<Vec<u64>> {
        let mut x = vec![0u64; self.cols()];
        check(unsafe { sys::toggle_solution_particular(self.ptr.as_ptr(), x.as_mut_ptr(), x.len()) })?;
        Ok(x)
    }

    /// Entries [offset, offset + len) of the particular solution.
    pub fn particular_range(&self, offset: usize, len: usize) -> Result<Vec<u64>> {
        let mut x = vec![0u64; len];
        check(unsafe {
            sys::toggle_solution_particular_range(self.ptr.as_ptr(), offset, x.as_mut_ptr(), len)
        })?;
        Ok(x)
    }

    /// Entries [offset, offset + len) of a modulus-2 particular solution,
    /// packed: entry offset + i is bit i % 64 of word i / 64.
    pub fn particular_packed(&self, offset: usize, len: usize) -> Result<Vec<u64>> {
        let mut w = vec![0u64; (len + 63) / 64];
        check(unsafe {
            sys::toggle_solution_particular_packed(self.ptr.as_ptr(), offset, len, w.as_mut_ptr(),
                                                   w.len())
        })?;
        Ok(w)
    }

    /// Entries [offset, offset + len) of kernel basis vector `index` of a
    /// modulus-2 solution, packed as [`Solution::particular_packed`]:
    /// entry offset + i is bit i % 64 of word i / 64 (bits past len are 0);
    /// `Unsupported` for another modulus.
    pub fn kernel_packed(&self, index: usize, offset: usize, len: usize) -> Result<Vec<u64>> {
        let mut w = vec![0u64; (len + 63) / 64];
        check(unsafe {
            sys::toggle_solution_kernel_packed(self.ptr.as_ptr(), index, offset, len,
                                               w.as_mut_ptr(), w.len())
        })?;
        Ok(w)
    }

    /// Kernel basis vector `index` (< nullity).
    pub fn kernel_vector(&self, index: usize) -> Result<Vec<u64>> {
        let mut v = vec![0u64; self.cols()];
        check(unsafe {
            sys::toggle_solution_kernel_vector(self.ptr.as_ptr(), index, v.as_mut_ptr(), v.len())
        })?;
        Ok(v)
    }

    /// The whole kernel basis.
    pub fn kernel(&self) -> Result<Vec<Vec<u64>>> {
        (0..self.nullity()).map(|i| self.kernel_vector(i)).collect()
    }

    /// A proof of unsolvability (y A = 0, y . b = 1), or `None` when the
    /// system is solvable. `ErrorKind::Unsupported` where none exists
    /// (composite modulus).
    pub fn certificate(&self) -> Result<Option<Vec<u64>>> {
        if self.is_solvable() {
            return Ok(None);
        }
        let mut y = vec![0u64; self.rows()];
        check(unsafe { sys::toggle_solution_certificate(self.ptr.as_ptr(), y.as_mut_ptr(), y.len()) })?;
        Ok(Some(y))
    }
}

impl Drop for Solution {
    fn drop(&mut self) {
        unsafe { sys::toggle_solution_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Solution(solvable: {}, nullity: {})", self.is_solvable(), self.nullity())
    }
}

/// Nullity of the rows x cols grid game over Z/kZ: for a prime k without
/// building the board where a formula exists (classic and no-self boards,
/// tori, cylinders); for a composite k the number of Howell rows of the
/// kernel (`Solution::nullity`'s meaning there), from a solve.
pub fn grid_nullity(rows: usize, cols: usize, modulus: u64, flags: GridFlags) -> Result<usize> {
    let mut d = 0usize;
    check(unsafe { sys::toggle_grid_nullity(rows, cols, modulus, flags.0, &mut d) })?;
    Ok(d)
}

/// Parse a board (one line per row). Returns (cells row-major, rows, cols).
pub fn parse_board(text: &str, modulus: u64) -> Result<(Vec<u64>, usize, usize)> {
    let (mut rows, mut cols) = (0usize, 0usize);
    let p = text.as_ptr() as *const c_char;
    let st = unsafe {
        sys::toggle_board_parse(p, text.len(), modulus, ptr::null_mut(), 0, &mut rows, &mut cols)
    };
    if st != sys::TOGGLE_OK && st != sys::TOGGLE_EBUFSIZE {
        check(st)?;
    }
    let mut cells = vec![0u64; rows * cols];
    check(unsafe {
        sys::toggle_board_parse(p, text.len(), modulus, cells.as_mut_ptr(), cells.len(), &mut rows,
                                &mut cols)
    })?;
    Ok((cells, rows, cols))
}

/// `InvalidArgument` unless `cells` holds exactly rows * cols values (the C
/// functions read that many).
fn check_board(cells: &[u64], rows: usize, cols: usize) -> Result<()> {
    if rows.checked_mul(cols) != Some(cells.len()) {
        return Err(Error::invalid(format!("{} cells, expected {} x {}", cells.len(), rows, cols)));
    }
    Ok(())
}

/// Format rows x cols values as text that [`parse_board`] reads.
pub fn format_board(cells: &[u64], rows: usize, cols: usize, modulus: u64) -> Result<String> {
    check_board(cells, rows, cols)?;
    read_string(|buf, len, needed| unsafe {
        sys::toggle_board_format(cells.as_ptr(), rows, cols, modulus, buf, len, needed)
    })
}
