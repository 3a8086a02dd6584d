//! Solution spaces (space.h): iteration, sampling, fewest presses, and the
//! puzzle generator.

use std::os::raw::c_int;
use std::ptr::NonNull;

use crate::error::check;
use crate::progress::{self, Shared};
use crate::{new_handle, sys, Result, Solution, System};

/// Cost of a cell that may not be pressed ([`Search::set_costs`]).
pub const COST_FORBIDDEN: u64 = sys::TOGGLE_COST_FORBIDDEN;

/// Iterator over every solution, in Gray-code order; the first is the
/// particular solution. Owns a copy of what it needs: the solution may be
/// dropped while iterating.
pub struct Solutions {
    ptr: NonNull<sys::toggle_iter>,
    n: usize,
    _progress: Shared,
}

unsafe impl Send for Solutions {}

impl Solutions {
    /// Start again from the first solution.
    pub fn reset(&mut self) {
        unsafe { sys::toggle_iter_reset(self.ptr.as_ptr()) }
    }

    /// Solutions produced since creation or the last reset.
    pub fn produced(&self) -> u64 {
        unsafe { sys::toggle_iter_produced(self.ptr.as_ptr()) }
    }
}

impl Iterator for Solutions {
    type Item = Vec<u64>;

    /// The next solution; `None` once all have been produced. (The buffer is
    /// sized by the iterator itself, so no other failure can occur.)
    fn next(&mut self) -> Option<Vec<u64>> {
        let mut x = vec![0u64; self.n];
        let st = unsafe { sys::toggle_iter_next(self.ptr.as_ptr(), x.as_mut_ptr(), x.len()) };
        if st == sys::TOGGLE_OK {
            Some(x)
        } else {
            None
        }
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        unsafe { sys::toggle_iter_free(self.ptr.as_ptr()) }
    }
}

/// Seeded pseudo-random generator (xoshiro256**): the same seed gives the
/// same sequence on every platform. `Send` but not `Sync`: one per thread.
pub struct Rng {
    ptr: NonNull<sys::toggle_rng>,
}

unsafe impl Send for Rng {}

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Result<Rng> {
        new_handle(|out| unsafe { sys::toggle_rng_new(out, seed) }).map(|ptr| Rng { ptr })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        unsafe { sys::toggle_rng_next(self.ptr.as_ptr()) }
    }

    /// A uniform value in [0, bound).
    pub fn below(&mut self, bound: u64) -> u64 {
        unsafe { sys::toggle_rng_below(self.ptr.as_ptr(), bound) }
    }
}

impl Drop for Rng {
    fn drop(&mut self) {
        unsafe { sys::toggle_rng_free(self.ptr.as_ptr()) }
    }
}

/// What "fewest presses" counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Number of cells pressed.
    Cells,
    /// Total number of presses (x_i read as 0..k-1).
    Presses,
}

impl Metric {
    fn code(self) -> u64 {
        match self {
            Metric::Cells => sys::TOGGLE_METRIC_CELLS,
            Metric::Presses => sys::TOGGLE_METRIC_PRESSES,
        }
    }
}

/// The result of [`Solution::fewest_presses`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fewest {
    /// The best solution found.
    pub x: Vec<u64>,
    /// Its weight under the metric.
    pub weight: u64,
    /// True if no solution weighs less.
    pub proven: bool,
    /// Solutions examined.
    pub visited: u64,
}

impl Solution {
    /// Iterate over every solution; `ErrorKind::NoSolution` if unsolvable.
    pub fn solutions(&self) -> Result<Solutions> {
        let n = self.cols();
        new_handle(|out| unsafe { sys::toggle_iter_new(out, self.ptr.as_ptr()) })
            .map(|ptr| Solutions { ptr, n, _progress: self.progress.clone() })
    }

    /// Radix r_i of kernel coefficient `index` (k for prime k).
    pub fn radix(&self, index: usize) -> Result<u64> {
        let mut r = 0u64;
        check(unsafe { sys::toggle_solution_radix(self.ptr.as_ptr(), index, &mut r) })?;
        Ok(r)
    }

    /// A uniformly random solution drawn with `rng`.
    pub fn sample(&self, rng: &mut Rng) -> Result<Vec<u64>> {
        let mut x = vec![0u64; self.cols()];
        check(unsafe {
            sys::toggle_solution_sample(self.ptr.as_ptr(), rng.ptr.as_ptr(), x.as_mut_ptr(), x.len())
        })?;
        Ok(x)
    }

    /// The solution of least weight under `metric`. Exact (`proven`) while
    /// the number of solutions is within `limit` (None: the system's
    /// search limit, 2^32 unless set; Some(0): unlimited); otherwise the
    /// best one visited. For costs, forbidden cells, threads and the lower
    /// bound, use a [`Search`].
    pub fn fewest_presses(&self, metric: Metric, limit: Option<u64>) -> Result<Fewest> {
        let mut search = Search::new(self)?;
        search.set_metric(metric)?;
        if let Some(l) = limit {
            search.set_limit(l)?;
        }
        search.run()
    }
}

/// A fewest-press search over the solutions of a solvable system, with
/// every option of the C API: metric, limit, threads, per-cell costs and
/// forbidden cells; [`Search::bound`] reads the lower bound it reached.
/// Owns a copy of what it needs: the solution may be dropped.
pub struct Search {
    ptr: NonNull<sys::toggle_search>,
    n: usize,
    progress: Shared,
}

unsafe impl Send for Search {}

impl Search {
    /// A search over the solutions of `solution`; `NoSolution` if it is
    /// unsolvable. It reports to the system's progress callback, if any.
    pub fn new(solution: &Solution) -> Result<Search> {
        let n = solution.cols();
        new_handle(|out| unsafe { sys::toggle_search_new(out, solution.ptr.as_ptr()) })
            .map(|ptr| Search { ptr, n, progress: solution.progress.clone() })
    }

    fn set_option(&mut self, key: i32, value: u64) -> Result<()> {
        check(unsafe { sys::toggle_search_set_option(self.ptr.as_ptr(), key, value) }).map(|_| ())
    }

    /// What the weight counts (default [`Metric::Cells`]).
    pub fn set_metric(&mut self, metric: Metric) -> Result<()> {
        self.set_option(sys::TOGGLE_SEARCH_OPT_METRIC, metric.code())
    }

    /// Solutions the search may visit (0 = unlimited; default the system's
    /// search limit, 2^32 unless set).
    pub fn set_limit(&mut self, limit: u64) -> Result<()> {
        self.set_option(sys::TOGGLE_SEARCH_OPT_SEARCH_LIMIT, limit)
    }

    /// Threads for the search (default the system's; 0 = one per online
    /// processor; at most 1024). Answers never depend on it.
    pub fn set_threads(&mut self, threads: u64) -> Result<()> {
        self.set_option(sys::TOGGLE_SEARCH_OPT_THREADS, threads)
    }

    /// Per-cell costs (n values, copied), or `None` for every cost 1. The
    /// weight becomes the sum of `cost[j]` over pressed cells
    /// ([`Metric::Cells`]) or of `cost[j] * x[j]` ([`Metric::Presses`]); a
    /// cell of cost [`COST_FORBIDDEN`] may not be pressed. `BufferSize` when
    /// `cost.len()` is not n.
    pub fn set_costs(&mut self, cost: Option<&[u64]>) -> Result<()> {
        let (p, len) = match cost {
            Some(c) => (c.as_ptr(), c.len()),
            None => (std::ptr::null(), 0),
        };
        check(unsafe { sys::toggle_search_set_costs(self.ptr.as_ptr(), p, len) }).map(|_| ())
    }

    /// Run the search (again from the start if it ran before) and return its
    /// result. `NoSolution` when no solution presses only allowed cells,
    /// `Limit` when none was found within the limit, `Cancelled` when the
    /// progress callback stopped it.
    pub fn run(&mut self) -> Result<Fewest> {
        check(progress::resume(&self.progress, unsafe { sys::toggle_search_run(self.ptr.as_ptr()) }))?;
        self.result()
    }

    /// The result of the last [`Search::run`].
    pub fn result(&self) -> Result<Fewest> {
        let mut x = vec![0u64; self.n];
        let (mut weight, mut proven, mut visited) = (0u64, 0 as c_int, 0u64);
        check(unsafe {
            sys::toggle_search_result(self.ptr.as_ptr(), x.as_mut_ptr(), x.len(), &mut weight,
                                      &mut proven, &mut visited)
        })?;
        Ok(Fewest { x, weight, proven: proven != 0, visited })
    }

    /// The lower bound the last run reached: no allowed solution weighs
    /// less. Equal to the weight when the result is proven; `u64::MAX` when
    /// no allowed solution exists. `InvalidArgument` before a run.
    pub fn bound(&self) -> Result<u64> {
        let mut lower = 0u64;
        check(unsafe { sys::toggle_search_bound(self.ptr.as_ptr(), &mut lower) })?;
        Ok(lower)
    }

    /// The search's state as portable bytes (`toggle_search_save`): the
    /// finished chunks and the best found; [`Search::resume`] on a search
    /// of the same solution space continues it (the F_2 split search).
    pub fn save(&self) -> Result<Vec<u8>> {
        let mut need = 0usize;
        let st = unsafe {
            sys::toggle_search_save(self.ptr.as_ptr(), std::ptr::null_mut(), 0, &mut need)
        };
        if st != sys::TOGGLE_EBUFSIZE {
            check(st)?;
        }
        let mut buf = vec![0u8; need];
        check(unsafe {
            sys::toggle_search_save(self.ptr.as_ptr(), buf.as_mut_ptr().cast(), buf.len(),
                                    &mut need)
        })?;
        buf.truncate(need);
        Ok(buf)
    }

    /// Continue from `checkpoint` (bytes from [`Search::save`]): the next
    /// [`Search::run`] skips the chunks it finished. `InvalidArgument` for a
    /// checkpoint of another search.
    pub fn resume(&mut self, checkpoint: &[u8]) -> Result<()> {
        check(unsafe {
            sys::toggle_search_resume(self.ptr.as_ptr(), checkpoint.as_ptr().cast(),
                                      checkpoint.len())
        })
        .map(|_| ())
    }

    /// (best weight found so far, lower bound reached so far), each `None`
    /// while unknown; may be read from the progress closure's context.
    pub fn progress(&self) -> Result<(Option<u64>, Option<u64>)> {
        let (mut best, mut bound) = (0u64, 0u64);
        check(unsafe { sys::toggle_search_progress(self.ptr.as_ptr(), &mut best, &mut bound) })?;
        let known = |v: u64| if v == u64::MAX { None } else { Some(v) };
        Ok((known(best), known(bound)))
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        unsafe { sys::toggle_search_free(self.ptr.as_ptr()) }
    }
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Search({} unknowns)", self.n)
    }
}

/// One start state made by [`Generator::generate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The start state (one value < k per cell); solvable with target 0,
    /// that is A x = -start has a solution.
    pub start: Vec<u64>,
    /// The weight of a fewest-press solution under the generator's metric,
    /// when it was computed (presses constrained, or the board unique).
    pub presses: Option<u64>,
}

/// Generator of random solvable start states for a board (a system's A and
/// k; its right-hand side is ignored). Without constraints the starts are
/// uniform over all reachable states; a (system, options, seed) triple
/// always gives the same sequence. Owns a copy of what it needs: the system
/// may be dropped.
pub struct Generator {
    ptr: NonNull<sys::toggle_generator>,
    m: usize,
    progress: Shared,
}

unsafe impl Send for Generator {}

impl Generator {
    /// A generator for the board of `system` (solves it once, with the
    /// system's engine option, to learn the kernel).
    pub fn new(system: &System) -> Result<Generator> {
        let m = system.rows();
        let shared = &system.progress;
        new_handle(|out| progress::resume(shared, unsafe { sys::toggle_generator_new(out, system.ptr.as_ptr()) }))
            .map(|ptr| Generator { ptr, m, progress: shared.clone() })
    }

    /// Set a raw `TOGGLE_GENERATOR_OPT_*` option (SEED, UNIQUE, PRESSES,
    /// METRIC, LIT, ATTEMPTS, SEARCH_LIMIT); a key of a system is an
    /// `InvalidArgument` error whose message names it.
    pub fn set_option(&mut self, key: i32, value: u64) -> Result<()> {
        check(unsafe { sys::toggle_generator_set_option(self.ptr.as_ptr(), key, value) }).map(|_| ())
    }

    /// Seed of the generator's own rng (default 0); restarts the sequence.
    pub fn set_seed(&mut self, seed: u64) -> Result<()> {
        self.set_option(sys::TOGGLE_GENERATOR_OPT_SEED, seed)
    }

    /// Ask for starts with exactly one solution ([`Generator::generate`]
    /// then fails with `NoSolution` when the board's nullity is > 0).
    pub fn set_unique(&mut self, unique: bool) -> Result<()> {
        self.set_option(sys::TOGGLE_GENERATOR_OPT_UNIQUE, unique as u64)
    }

    /// Ask for starts whose fewest-press solution weighs exactly `presses`
    /// under the metric (`None`: no constraint, the default).
    pub fn set_presses(&mut self, presses: Option<u64>) -> Result<()> {
        self.set_option(sys::TOGGLE_GENERATOR_OPT_PRESSES, presses.unwrap_or(u64::MAX))
    }

    /// The metric of [`Generator::set_presses`] (default `Metric::Cells`).
    pub fn set_metric(&mut self, metric: Metric) -> Result<()> {
        self.set_option(sys::TOGGLE_GENERATOR_OPT_METRIC, metric.code())
    }

    /// Ask for starts with exactly `lit` nonzero cells (`None`: no
    /// constraint, the default).
    pub fn set_lit(&mut self, lit: Option<u64>) -> Result<()> {
        self.set_option(sys::TOGGLE_GENERATOR_OPT_LIT, lit.unwrap_or(u64::MAX))
    }

    /// Tries before giving up with `ErrorKind::Limit` (default 100000).
    pub fn set_attempts(&mut self, attempts: u64) -> Result<()> {
        self.set_option(sys::TOGGLE_GENERATOR_OPT_ATTEMPTS, attempts)
    }

    /// Search limit of the fewest-press check (see
    /// [`Solution::fewest_presses`]; default the system's, 0 = unlimited).
    pub fn set_search_limit(&mut self, limit: u64) -> Result<()> {
        self.set_option(sys::TOGGLE_GENERATOR_OPT_SEARCH_LIMIT, limit)
    }

    /// Nullity of the board: each generated start has k^nullity solutions
    /// (for prime k); 0 means every start is unique.
    pub fn nullity(&self) -> usize {
        unsafe { sys::toggle_generator_nullity(self.ptr.as_ptr()) }
    }

    /// The next start state. `NoSolution` when the constraints are
    /// impossible on this board, `Limit` when no start met them within the
    /// attempts.
    pub fn generate(&mut self) -> Result<Puzzle> {
        let mut start = vec![0u64; self.m];
        let mut presses = u64::MAX;
        check(progress::resume(&self.progress, unsafe {
            sys::toggle_generator_next(self.ptr.as_ptr(), start.as_mut_ptr(), start.len(), &mut presses)
        }))?;
        Ok(Puzzle { start, presses: if presses == u64::MAX { None } else { Some(presses) } })
    }
}

impl Drop for Generator {
    fn drop(&mut self) {
        unsafe { sys::toggle_generator_free(self.ptr.as_ptr()) }
    }
}
