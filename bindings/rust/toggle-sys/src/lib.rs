//! Raw declarations of libtoggle's C API (include/toggle.h), written by hand.
//!
//! Everything here is `unsafe` and mirrors the headers one to one: outputs
//! first, `size_t` as `usize`, handles as opaque pointers. Use the `toggle`
//! crate for a safe API.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

/// Opaque toggle graph (graph.h).
#[repr(C)]
pub struct toggle_graph {
    _private: [u8; 0],
}
/// Opaque augmented system (system.h).
#[repr(C)]
pub struct toggle_system {
    _private: [u8; 0],
}
/// Opaque solution (solution.h).
#[repr(C)]
pub struct toggle_solution {
    _private: [u8; 0],
}

/// Opaque iterator over solutions (space.h).
#[repr(C)]
pub struct toggle_iter {
    _private: [u8; 0],
}
/// Opaque seeded random generator (declared in solution.h, made in space.h).
#[repr(C)]
pub struct toggle_rng {
    _private: [u8; 0],
}
/// Opaque fewest-press search (space.h).
#[repr(C)]
pub struct toggle_search {
    _private: [u8; 0],
}
/// Opaque puzzle generator (space.h).
#[repr(C)]
pub struct toggle_generator {
    _private: [u8; 0],
}
/// Opaque rendering options (render.h).
#[repr(C)]
pub struct toggle_render_opts {
    _private: [u8; 0],
}
/// Opaque augmented matrix under row operations (steps.h, 1.1).
#[repr(C)]
pub struct toggle_steps {
    _private: [u8; 0],
}

/// Progress callback of `toggle_system_set_progress` (system.h, 1.1): gets
/// the payload and the fraction done (0 to 1); non-zero cancels the call
/// (TOGGLE_ECANCELED).
pub type toggle_progress_fn = Option<unsafe extern "C" fn(payload: *mut c_void, fraction: f64) -> c_int>;

// common.h: status codes (pinned forever)
pub const TOGGLE_VERSION_MAJOR: u32 = 1;
pub const TOGGLE_OK: c_int = 0;
pub const TOGGLE_EINVAL: c_int = -1;
pub const TOGGLE_ENOMEM: c_int = -2;
pub const TOGGLE_EUNSUPPORTED: c_int = -3;
pub const TOGGLE_EPARSE: c_int = -4;
pub const TOGGLE_ERANGE: c_int = -5;
pub const TOGGLE_EBUFSIZE: c_int = -6;
pub const TOGGLE_EOVERFLOW: c_int = -7;
pub const TOGGLE_ENOSOLUTION: c_int = -8;
pub const TOGGLE_EIO: c_int = -9;
pub const TOGGLE_ITEROVER: c_int = -10;
pub const TOGGLE_ELIMIT: c_int = -11;
pub const TOGGLE_EINTERNAL: c_int = -12;
/// The progress callback asked to stop (1.1).
pub const TOGGLE_ECANCELED: c_int = -13;

// graph.h
pub const TOGGLE_GRID_CLASSIC: u32 = 0;
pub const TOGGLE_GRID_NO_SELF: u32 = 1;
pub const TOGGLE_GRID_TORUS: u32 = 2;
pub const TOGGLE_GRID_MOORE: u32 = 4;
pub const TOGGLE_GRID_CYLINDER: u32 = 8;
pub const TOGGLE_GRID_HEX: u32 = 16;
pub const TOGGLE_GRID_TRI: u32 = 32;
pub const TOGGLE_GRAPH_NO_SELF: u32 = 1;
pub const TOGGLE_KIND_GRID: c_int = 1;
pub const TOGGLE_KIND_STENCIL: c_int = 2;
pub const TOGGLE_KIND_MATRIX: c_int = 3;

// system.h
pub const TOGGLE_ENGINE_AUTO: c_int = 0;
pub const TOGGLE_ENGINE_FLINT: c_int = 1;
pub const TOGGLE_ENGINE_GF2: c_int = 2;
pub const TOGGLE_ENGINE_CHASE: c_int = 3;
pub const TOGGLE_ENGINE_HOWELL: c_int = 4;
pub const TOGGLE_ENGINE_DENSE: c_int = 7;
pub const TOGGLE_ENGINE_TRANSFER: c_int = 6;
pub const TOGGLE_ENGINE_BLAS: c_int = 5;
// system.h: option keys of a system
pub const TOGGLE_SYSTEM_OPT_ENGINE: c_int = 1;
pub const TOGGLE_SYSTEM_OPT_MEMORY_BUDGET: c_int = 2;
/// 0 = unlimited (read back as `u64::MAX`).
pub const TOGGLE_SYSTEM_OPT_SEARCH_LIMIT: c_int = 3;
pub const TOGGLE_SYSTEM_OPT_THREADS: c_int = 10;
// system.h: the 1.0 option keys, deprecated aliases of the per-handle keys
// (same values; no `#[deprecated]`, as in C)
pub const TOGGLE_OPT_ENGINE: c_int = TOGGLE_SYSTEM_OPT_ENGINE;
pub const TOGGLE_OPT_MEMORY_BUDGET: c_int = TOGGLE_SYSTEM_OPT_MEMORY_BUDGET;
pub const TOGGLE_OPT_SEARCH_LIMIT: c_int = TOGGLE_SYSTEM_OPT_SEARCH_LIMIT;
pub const TOGGLE_OPT_THREADS: c_int = TOGGLE_SYSTEM_OPT_THREADS;
pub const TOGGLE_OPT_METRIC: c_int = TOGGLE_SEARCH_OPT_METRIC;
pub const TOGGLE_OPT_SEED: c_int = TOGGLE_GENERATOR_OPT_SEED;
pub const TOGGLE_OPT_UNIQUE: c_int = TOGGLE_GENERATOR_OPT_UNIQUE;
pub const TOGGLE_OPT_PRESSES: c_int = TOGGLE_GENERATOR_OPT_PRESSES;
pub const TOGGLE_OPT_LIT: c_int = TOGGLE_GENERATOR_OPT_LIT;
pub const TOGGLE_OPT_ATTEMPTS: c_int = TOGGLE_GENERATOR_OPT_ATTEMPTS;
// space.h
pub const TOGGLE_METRIC_CELLS: u64 = 0;
pub const TOGGLE_METRIC_PRESSES: u64 = 1;
/// Cost of a cell that may not be pressed (`toggle_search_set_costs`, 1.1).
pub const TOGGLE_COST_FORBIDDEN: u64 = u64::MAX;
// space.h: option keys of a search
/// 0 = unlimited.
pub const TOGGLE_SEARCH_OPT_SEARCH_LIMIT: c_int = 3;
pub const TOGGLE_SEARCH_OPT_METRIC: c_int = 4;
pub const TOGGLE_SEARCH_OPT_THREADS: c_int = 10;
// space.h: option keys of a generator
/// 0 = unlimited.
pub const TOGGLE_GENERATOR_OPT_SEARCH_LIMIT: c_int = 3;
pub const TOGGLE_GENERATOR_OPT_METRIC: c_int = 4;
pub const TOGGLE_GENERATOR_OPT_SEED: c_int = 5;
pub const TOGGLE_GENERATOR_OPT_UNIQUE: c_int = 6;
pub const TOGGLE_GENERATOR_OPT_PRESSES: c_int = 7;
pub const TOGGLE_GENERATOR_OPT_LIT: c_int = 8;
pub const TOGGLE_GENERATOR_OPT_ATTEMPTS: c_int = 9;
pub const TOGGLE_DEFAULT_MEMORY_BUDGET: u64 = 4 << 30;
pub const TOGGLE_MAX_MODULUS: u64 = i64::MAX as u64;

// render.h: image formats
pub const TOGGLE_IMAGE_PPM: c_int = 1;
pub const TOGGLE_IMAGE_PNG: c_int = 2;
// render.h: option keys of toggle_render_opts_set()
pub const TOGGLE_RENDER_CELL_SIZE: c_int = 1;
pub const TOGGLE_RENDER_GRID_LINES: c_int = 2;
pub const TOGGLE_RENDER_BORDER: c_int = 3;
pub const TOGGLE_RENDER_COLORMAP: c_int = 4;
pub const TOGGLE_RENDER_REVERSED: c_int = 5;
pub const TOGGLE_RENDER_LINE_COLOR: c_int = 6;
// render.h: colour map ids (pinned; toggle_colormap_count() lists all)
pub const TOGGLE_CMAP_VIRIDIS: c_int = 0;
pub const TOGGLE_CMAP_MAGMA: c_int = 1;
pub const TOGGLE_CMAP_INFERNO: c_int = 2;
pub const TOGGLE_CMAP_PLASMA: c_int = 3;
pub const TOGGLE_CMAP_CIVIDIS: c_int = 4;
pub const TOGGLE_CMAP_TWILIGHT: c_int = 5;
pub const TOGGLE_CMAP_TURBO: c_int = 6;
pub const TOGGLE_CMAP_GREYS: c_int = 7;
pub const TOGGLE_CMAP_TAB10: c_int = 8;
pub const TOGGLE_CMAP_TAB20: c_int = 9;
pub const TOGGLE_CMAP_SET1: c_int = 10;
pub const TOGGLE_CMAP_SET2: c_int = 11;
pub const TOGGLE_CMAP_SET3: c_int = 12;
pub const TOGGLE_CMAP_DARK2: c_int = 13;
pub const TOGGLE_CMAP_PAIRED: c_int = 14;
pub const TOGGLE_CMAP_PASTEL1: c_int = 15;
pub const TOGGLE_CMAP_ACCENT: c_int = 16;

// steps.h: row operations (values of toggle_steps_op's op, 1.1)
pub const TOGGLE_STEP_ADD: c_int = 1;
pub const TOGGLE_STEP_SCALE: c_int = 2;
pub const TOGGLE_STEP_SWAP: c_int = 3;
pub const TOGGLE_STEP_MOVE: c_int = 4;
/// Chaos radius meaning "no limit" (`toggle_graph_new_chaos`, 1.1).
pub const TOGGLE_CHAOS_ANY_DISTANCE: usize = usize::MAX;

// symmetry.h: symmetry bits (used as uint32_t masks)
pub const TOGGLE_SYM_IDENTITY: u32 = 0x01;
pub const TOGGLE_SYM_ROT90: u32 = 0x02;
pub const TOGGLE_SYM_ROT180: u32 = 0x04;
pub const TOGGLE_SYM_ROT270: u32 = 0x08;
pub const TOGGLE_SYM_MIRROR_H: u32 = 0x10;
pub const TOGGLE_SYM_MIRROR_V: u32 = 0x20;
pub const TOGGLE_SYM_DIAG: u32 = 0x40;
pub const TOGGLE_SYM_ANTIDIAG: u32 = 0x80;
pub const TOGGLE_SYM_ALL: u32 = 0xFF;

extern "C" {
    // common.h
    pub fn toggle_version_number() -> u32;
    pub fn toggle_version_string() -> *const c_char;
    pub fn toggle_status_name(status: c_int) -> *const c_char;
    pub fn toggle_last_error() -> *const c_char;
    pub fn toggle_clear_error();

    // graph.h
    pub fn toggle_graph_new_grid(out: *mut *mut toggle_graph, rows: usize, cols: usize,
                                 flags: u32) -> c_int;
    pub fn toggle_graph_new_stencil(out: *mut *mut toggle_graph, rows: usize, cols: usize,
                                    drow: *const i64, dcol: *const i64, weight: *const u64,
                                    count: usize, flags: u32) -> c_int;
    pub fn toggle_graph_new_adjacency(out: *mut *mut toggle_graph, n: usize,
                                      adjacency: *const u8, flags: u32) -> c_int;
    pub fn toggle_graph_new_edges(out: *mut *mut toggle_graph, n: usize, edges: *const usize,
                                  edge_count: usize, flags: u32) -> c_int;
    pub fn toggle_graph_parse_edges(out: *mut *mut toggle_graph, text: *const c_char,
                                    len: usize, flags: u32) -> c_int;
    pub fn toggle_graph_new_matrix(out: *mut *mut toggle_graph, n: usize, a: *const u64)
                                   -> c_int;
    pub fn toggle_graph_free(graph: *mut toggle_graph);
    pub fn toggle_graph_cells(graph: *const toggle_graph) -> usize;
    pub fn toggle_graph_kind(graph: *const toggle_graph) -> c_int;
    pub fn toggle_graph_flags(graph: *const toggle_graph) -> u32;
    pub fn toggle_graph_grid_shape(graph: *const toggle_graph, rows: *mut usize,
                                   cols: *mut usize) -> c_int;
    pub fn toggle_graph_entry(graph: *const toggle_graph, i: usize, j: usize, value: *mut u64)
                              -> c_int;

    // system.h
    pub fn toggle_system_new(out: *mut *mut toggle_system, graph: *const toggle_graph,
                             modulus: u64, start: *const u64, target: *const u64) -> c_int;
    pub fn toggle_system_new_matrix(out: *mut *mut toggle_system, m: usize, n: usize,
                                    a: *const u64, b: *const u64, modulus: u64) -> c_int;
    pub fn toggle_system_new_packed(out: *mut *mut toggle_system, m: usize, n: usize,
                                    a: *const u64, a_stride: usize, b: *const u64) -> c_int;
    pub fn toggle_system_parse(out: *mut *mut toggle_system, text: *const c_char, len: usize,
                               modulus: u64) -> c_int;
    pub fn toggle_system_write(system: *const toggle_system, buf: *mut c_char, len: usize,
                               needed: *mut usize) -> c_int;
    pub fn toggle_system_free(system: *mut toggle_system);
    pub fn toggle_system_rows(system: *const toggle_system) -> usize;
    pub fn toggle_system_cols(system: *const toggle_system) -> usize;
    pub fn toggle_system_modulus(system: *const toggle_system) -> u64;
    pub fn toggle_system_graph(system: *const toggle_system) -> *const toggle_graph;
    pub fn toggle_system_entry(system: *const toggle_system, i: usize, j: usize,
                               value: *mut u64) -> c_int;
    pub fn toggle_system_rhs(system: *const toggle_system, i: usize, value: *mut u64) -> c_int;
    pub fn toggle_system_set_option(system: *mut toggle_system, key: c_int, value: u64)
                                    -> c_int;
    pub fn toggle_system_get_option(system: *const toggle_system, key: c_int,
                                    value: *mut u64) -> c_int;
    pub fn toggle_system_set_progress(system: *mut toggle_system, callback: toggle_progress_fn,
                                      payload: *mut c_void) -> c_int;
    pub fn toggle_system_check(system: *const toggle_system, x: *const u64, len: usize,
                               solves: *mut c_int) -> c_int;
    pub fn toggle_system_check_certificate(system: *const toggle_system, y: *const u64,
                                           len: usize, valid: *mut c_int) -> c_int;
    pub fn toggle_engine_name(engine: c_int) -> *const c_char;
    pub fn toggle_engine_from_name(name: *const c_char, engine: *mut c_int) -> c_int;
    pub fn toggle_board_parse(text: *const c_char, len: usize, modulus: u64, cells: *mut u64,
                              cap: usize, rows: *mut usize, cols: *mut usize) -> c_int;
    pub fn toggle_board_format(cells: *const u64, rows: usize, cols: usize, modulus: u64,
                               buf: *mut c_char, len: usize, needed: *mut usize) -> c_int;

    // solution.h
    pub fn toggle_solve(out: *mut *mut toggle_solution, system: *const toggle_system) -> c_int;
    pub fn toggle_solution_free(solution: *mut toggle_solution);
    pub fn toggle_solution_is_solvable(solution: *const toggle_solution) -> c_int;
    pub fn toggle_solution_cols(solution: *const toggle_solution) -> usize;
    pub fn toggle_solution_rows(solution: *const toggle_solution) -> usize;
    pub fn toggle_solution_modulus(solution: *const toggle_solution) -> u64;
    pub fn toggle_solution_engine(solution: *const toggle_solution) -> c_int;
    pub fn toggle_solution_nullity(solution: *const toggle_solution) -> usize;
    pub fn toggle_solution_count_u64(solution: *const toggle_solution, count: *mut u64)
                                     -> c_int;
    pub fn toggle_solution_count_string(solution: *const toggle_solution, buf: *mut c_char,
                                        len: usize, needed: *mut usize) -> c_int;
    pub fn toggle_solution_particular(solution: *const toggle_solution, x: *mut u64,
                                      len: usize) -> c_int;
    pub fn toggle_solution_particular_range(solution: *const toggle_solution, offset: usize,
                                            x: *mut u64, len: usize) -> c_int;
    pub fn toggle_solution_kernel_vector(solution: *const toggle_solution, index: usize,
                                         v: *mut u64, len: usize) -> c_int;
    pub fn toggle_solution_certificate(solution: *const toggle_solution, y: *mut u64,
                                       len: usize) -> c_int;
    pub fn toggle_solution_radix(solution: *const toggle_solution, index: usize, radix: *mut u64)
                                 -> c_int;
    pub fn toggle_solution_sample(solution: *const toggle_solution, rng: *mut toggle_rng,
                                  x: *mut u64, len: usize) -> c_int;
    pub fn toggle_solution_particular_packed(solution: *const toggle_solution, offset: usize,
                                             len: usize, words: *mut u64, nwords: usize)
                                             -> c_int;
    pub fn toggle_solution_kernel_packed(solution: *const toggle_solution, index: usize,
                                         offset: usize, len: usize, words: *mut u64,
                                         nwords: usize) -> c_int;
    pub fn toggle_solution_count_orbits(solution: *const toggle_solution, rows: usize,
                                        cols: usize, group: u32, orbits: *mut u64) -> c_int;

    // grid.h
    pub fn toggle_grid_nullity(rows: usize, cols: usize, modulus: u64, flags: u32,
                               nullity: *mut usize) -> c_int;

    // space.h
    pub fn toggle_iter_new(out: *mut *mut toggle_iter, solution: *const toggle_solution) -> c_int;
    pub fn toggle_iter_next(iter: *mut toggle_iter, x: *mut u64, len: usize) -> c_int;
    pub fn toggle_iter_reset(iter: *mut toggle_iter);
    pub fn toggle_iter_produced(iter: *const toggle_iter) -> u64;
    pub fn toggle_iter_free(iter: *mut toggle_iter);
    pub fn toggle_rng_new(out: *mut *mut toggle_rng, seed: u64) -> c_int;
    pub fn toggle_rng_next(rng: *mut toggle_rng) -> u64;
    pub fn toggle_rng_below(rng: *mut toggle_rng, bound: u64) -> u64;
    pub fn toggle_rng_free(rng: *mut toggle_rng);
    pub fn toggle_search_new(out: *mut *mut toggle_search, solution: *const toggle_solution)
                             -> c_int;
    pub fn toggle_search_set_option(search: *mut toggle_search, key: c_int, value: u64) -> c_int;
    pub fn toggle_search_set_costs(search: *mut toggle_search, cost: *const u64, len: usize)
                                   -> c_int;
    pub fn toggle_search_run(search: *mut toggle_search) -> c_int;
    pub fn toggle_search_bound(search: *const toggle_search, lower: *mut u64) -> c_int;
    pub fn toggle_search_result(search: *const toggle_search, x: *mut u64, len: usize,
                                weight: *mut u64, proven: *mut c_int, visited: *mut u64)
                                -> c_int;
    pub fn toggle_search_free(search: *mut toggle_search);
    pub fn toggle_search_save(search: *const toggle_search, buf: *mut c_void, len: usize,
                              needed: *mut usize) -> c_int;
    pub fn toggle_search_resume(search: *mut toggle_search, buf: *const c_void, len: usize)
                                -> c_int;
    pub fn toggle_search_progress(search: *const toggle_search, best: *mut u64, bound: *mut u64)
                                  -> c_int;
    pub fn toggle_generator_new(out: *mut *mut toggle_generator, system: *const toggle_system)
                                -> c_int;
    pub fn toggle_generator_set_option(gen: *mut toggle_generator, key: c_int, value: u64)
                                       -> c_int;
    pub fn toggle_generator_nullity(gen: *const toggle_generator) -> usize;
    pub fn toggle_generator_next(gen: *mut toggle_generator, start: *mut u64, len: usize,
                                 presses: *mut u64) -> c_int;
    pub fn toggle_generator_free(gen: *mut toggle_generator);

    // render.h
    pub fn toggle_colormap_count() -> usize;
    pub fn toggle_colormap_name(id: c_int) -> *const c_char;
    pub fn toggle_colormap_is_qualitative(id: c_int) -> c_int;
    pub fn toggle_colormap_from_name(name: *const c_char, id: *mut c_int, reversed: *mut c_int)
                                     -> c_int;
    pub fn toggle_colormap_color(id: c_int, reversed: c_int, v: u64, k: u64, rgb: *mut u8)
                                 -> c_int;
    pub fn toggle_render_opts_new(out: *mut *mut toggle_render_opts) -> c_int;
    pub fn toggle_render_opts_free(opts: *mut toggle_render_opts);
    pub fn toggle_render_opts_set(opts: *mut toggle_render_opts, key: c_int, value: u64) -> c_int;
    pub fn toggle_render_opts_get(opts: *const toggle_render_opts, key: c_int, value: *mut u64)
                                  -> c_int;
    pub fn toggle_render_size(opts: *const toggle_render_opts, rows: usize, cols: usize,
                              width: *mut usize, height: *mut usize) -> c_int;
    pub fn toggle_render(opts: *const toggle_render_opts, format: c_int, cells: *const u64,
                         rows: usize, cols: usize, modulus: u64, buf: *mut u8, len: usize,
                         needed: *mut usize) -> c_int;
    pub fn toggle_render_file(opts: *const toggle_render_opts, format: c_int, cells: *const u64,
                              rows: usize, cols: usize, modulus: u64, path: *const c_char)
                              -> c_int;

    // symmetry.h
    pub fn toggle_board_symmetry(cells: *const u64, rows: usize, cols: usize, mask: *mut u32)
                                 -> c_int;
    pub fn toggle_symmetry_name(mask: u32) -> *const c_char;
    pub fn toggle_symmetry_of_shape(rows: usize, cols: usize) -> u32;

    // steps.h (1.1)
    pub fn toggle_steps_new(out: *mut *mut toggle_steps, system: *const toggle_system) -> c_int;
    pub fn toggle_steps_free(steps: *mut toggle_steps);
    pub fn toggle_steps_rows(steps: *const toggle_steps) -> usize;
    pub fn toggle_steps_cols(steps: *const toggle_steps) -> usize;
    pub fn toggle_steps_modulus(steps: *const toggle_steps) -> u64;
    pub fn toggle_steps_entry(steps: *const toggle_steps, i: usize, j: usize, value: *mut u64)
                              -> c_int;
    pub fn toggle_steps_add(steps: *mut toggle_steps, a: usize, b: usize, c: u64) -> c_int;
    pub fn toggle_steps_scale(steps: *mut toggle_steps, a: usize, c: u64) -> c_int;
    pub fn toggle_steps_swap(steps: *mut toggle_steps, a: usize, b: usize) -> c_int;
    pub fn toggle_steps_move(steps: *mut toggle_steps, a: usize, b: usize) -> c_int;
    pub fn toggle_steps_apply(steps: *mut toggle_steps, text: *const c_char, len: usize,
                              applied: *mut usize) -> c_int;
    pub fn toggle_steps_auto(steps: *mut toggle_steps, max: usize, done: *mut usize) -> c_int;
    pub fn toggle_steps_undo(steps: *mut toggle_steps, count: usize) -> c_int;
    pub fn toggle_steps_redo(steps: *mut toggle_steps, count: usize) -> c_int;
    pub fn toggle_steps_count(steps: *const toggle_steps) -> usize;
    pub fn toggle_steps_redo_count(steps: *const toggle_steps) -> usize;
    pub fn toggle_steps_op(steps: *const toggle_steps, index: usize, op: *mut c_int,
                           a: *mut usize, b: *mut usize, c: *mut u64) -> c_int;
    pub fn toggle_steps_write(steps: *const toggle_steps, first: usize, buf: *mut c_char,
                              len: usize, needed: *mut usize) -> c_int;
    pub fn toggle_steps_status(steps: *const toggle_steps, rank: *mut usize, reduced: *mut c_int,
                               unsolvable: *mut c_int) -> c_int;
    pub fn toggle_steps_pivots(steps: *const toggle_steps, cols: *mut usize, cap: usize,
                               count: *mut usize) -> c_int;
    pub fn toggle_steps_solution(steps: *const toggle_steps, x: *mut u64, len: usize,
                                 nullity: *mut usize) -> c_int;
    pub fn toggle_steps_system(steps: *const toggle_steps, out: *mut *mut toggle_system) -> c_int;
    pub fn toggle_graph_new_chaos(out: *mut *mut toggle_graph, rows: usize, cols: usize,
                                  density: f64, radius: usize, seed: u64) -> c_int;

    // guard.h
    pub fn toggle_flint_guard_install() -> c_int;
    pub fn toggle_flint_guard_installed() -> c_int;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_reports_major_version() {
        let v = unsafe { toggle_version_number() };
        assert_eq!(v / 10000, TOGGLE_VERSION_MAJOR);
    }

    #[test]
    fn option_keys_keep_their_values() {
        let system = [TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET,
                      TOGGLE_SYSTEM_OPT_SEARCH_LIMIT];
        assert_eq!(system, [1, 2, 3]);
        assert_eq!([TOGGLE_SEARCH_OPT_SEARCH_LIMIT, TOGGLE_SEARCH_OPT_METRIC, TOGGLE_SEARCH_OPT_THREADS], [3, 4, 10]);
        let generator = [TOGGLE_GENERATOR_OPT_SEARCH_LIMIT, TOGGLE_GENERATOR_OPT_METRIC,
                         TOGGLE_GENERATOR_OPT_SEED, TOGGLE_GENERATOR_OPT_UNIQUE,
                         TOGGLE_GENERATOR_OPT_PRESSES, TOGGLE_GENERATOR_OPT_LIT,
                         TOGGLE_GENERATOR_OPT_ATTEMPTS];
        assert_eq!(generator, [3, 4, 5, 6, 7, 8, 9]);
        let old = [TOGGLE_OPT_ENGINE, TOGGLE_OPT_MEMORY_BUDGET, TOGGLE_OPT_SEARCH_LIMIT,
                   TOGGLE_OPT_METRIC, TOGGLE_OPT_SEED, TOGGLE_OPT_UNIQUE, TOGGLE_OPT_PRESSES,
                   TOGGLE_OPT_LIT, TOGGLE_OPT_ATTEMPTS];
        assert_eq!(old, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn grid_round_trip() {
        unsafe {
            let mut g: *mut toggle_graph = std::ptr::null_mut();
            assert_eq!(toggle_graph_new_grid(&mut g, 3, 3, TOGGLE_GRID_CLASSIC), TOGGLE_OK);
            assert_eq!(toggle_graph_cells(g), 9);
            toggle_graph_free(g);
        }
    }

    #[test]
    fn render_symmetry_and_guard_link() {
        unsafe {
            assert!(toggle_colormap_count() > TOGGLE_CMAP_ACCENT as usize);
            let (mut w, mut h) = (0usize, 0usize);
            assert_eq!(toggle_render_size(std::ptr::null(), 2, 3, &mut w, &mut h), TOGGLE_OK);
            assert_eq!((w, h), (24, 16));
            assert_eq!(toggle_symmetry_of_shape(3, 3), TOGGLE_SYM_ALL);
            assert!(toggle_flint_guard_installed() == 0 || toggle_flint_guard_installed() == 1);
        }
    }
}
