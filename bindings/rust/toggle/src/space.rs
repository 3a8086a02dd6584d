//! Solution spaces (space.h): iteration, sampling, fewest presses, and the
//! puzzle generator.

use std::os::raw::c_int;
use std::ptr::NonNull;

use crate::error::check;
use crate::{new_handle, sys, Result, Solution, System};

/// Iterator over every solution, in Gray-code order; the first is the
/// particular solution. Owns a copy of what it needs: the solution may be
/// dropped while iterating.
pub struct Solutions {
    ptr: NonNull<sys::toggle_iter>,
    n: usize,
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

/// The result of [`Solution::fewest_search`]: a [`Fewest`] with the lower
/// bound reached and the search's checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FewestSearch {
    /// The best solution found, its weight, proven, solutions examined.
    pub fewest: Fewest,
    /// No solution weighs less.
    pub bound: u64,
    /// The best weight the search reports (`toggle_search_progress`).
    pub best: u64,
    /// The state to pass as `resume` to continue; None when the search
    /// walked the solutions (k != 2).
    pub checkpoint: Option<Vec<u8>>,
}

/// Run the search `s` over n cells and read its result.
fn run_search(s: *mut sys::toggle_search, n: usize) -> Result<Fewest> {
    check(unsafe { sys::toggle_search_run(s) })?;
    let mut x = vec![0u64; n];
    let (mut weight, mut proven, mut visited) = (0u64, 0 as c_int, 0u64);
    check(unsafe {
        sys::toggle_search_result(s, x.as_mut_ptr(), x.len(), &mut weight, &mut proven,
                                  &mut visited)
    })?;
    Ok(Fewest { x, weight, proven: proven != 0, visited })
}

impl Solution {
    /// Iterate over every solution; `ErrorKind::NoSolution` if unsolvable.
    pub fn solutions(&self) -> Result<Solutions> {
        let n = self.cols();
        new_handle(|out| unsafe { sys::toggle_iter_new(out, self.ptr.as_ptr()) })
            .map(|ptr| Solutions { ptr, n })
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
    /// best one visited.
    pub fn fewest_presses(&self, metric: Metric, limit: Option<u64>) -> Result<Fewest> {
        let search = new_handle(|out| unsafe { sys::toggle_search_new(out, self.ptr.as_ptr()) })?;
        let s = search.as_ptr();
        let result = (|| {
            check(unsafe { sys::toggle_search_set_option(s, sys::TOGGLE_SEARCH_OPT_METRIC, metric.code()) })?;
            if let Some(l) = limit {
                check(unsafe { sys::toggle_search_set_option(s, sys::TOGGLE_SEARCH_OPT_SEARCH_LIMIT, l) })?;
            }
            run_search(s, self.cols())
        })();
        unsafe { sys::toggle_search_free(s) };
        result
    }

    /// Fewest presses with a checkpoint: as [`Solution::fewest_presses`]
    /// (with `threads`: None = the system's), and the result carries the
    /// lower bound and the search's state. `resume`: a checkpoint of an
    /// earlier run of the same search, continued to the answer an
    /// uninterrupted run gives (the limit counts this call's solutions);
    /// one of another search is `ErrorKind::InvalidArgument`.
    pub fn fewest_search(&self, metric: Metric, limit: Option<u64>, threads: Option<u64>,
                         resume: Option<&[u8]>) -> Result<FewestSearch> {
        let search = new_handle(|out| unsafe { sys::toggle_search_new(out, self.ptr.as_ptr()) })?;
        let s = search.as_ptr();
        let result = (|| {
            check(unsafe { sys::toggle_search_set_option(s, sys::TOGGLE_SEARCH_OPT_METRIC, metric.code()) })?;
            if let Some(l) = limit {
                check(unsafe { sys::toggle_search_set_option(s, sys::TOGGLE_SEARCH_OPT_SEARCH_LIMIT, l) })?;
            }
            if let Some(t) = threads {
                check(unsafe { sys::toggle_search_set_option(s, sys::TOGGLE_OPT_THREADS, t) })?;
            }
            if let Some(b) = resume {
                check(unsafe { sys::toggle_search_resume(s, b.as_ptr().cast(), b.len()) })?;
            }
            let fewest = run_search(s, self.cols())?;
            let (mut best, mut bound) = (0u64, 0u64);
            check(unsafe { sys::toggle_search_progress(s, &mut best, &mut bound) })?;
            let mut need = 0usize;
            let rc = unsafe { sys::toggle_search_save(s, std::ptr::null_mut(), 0, &mut need) };
            let checkpoint = if rc == sys::TOGGLE_EUNSUPPORTED {
                None
            } else {
                let mut buf = vec![0u8; need];
                check(unsafe {
                    sys::toggle_search_save(s, buf.as_mut_ptr().cast(), buf.len(), &mut need)
                })?;
                buf.truncate(need);
                Some(buf)
            };
            Ok(FewestSearch { fewest, bound, best, checkpoint })
        })();
        unsafe { sys::toggle_search_free(s) };
        result
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
}

unsafe impl Send for Generator {}

impl Generator {
    /// A generator for the board of `system` (solves it once, with the
    /// system's engine option, to learn the kernel).
    pub fn new(system: &System) -> Result<Generator> {
        let m = system.rows();
        new_handle(|out| unsafe { sys::toggle_generator_new(out, system.ptr.as_ptr()) })
            .map(|ptr| Generator { ptr, m })
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
        check(unsafe {
            sys::toggle_generator_next(self.ptr.as_ptr(), start.as_mut_ptr(), start.len(), &mut presses)
        })?;
        Ok(Puzzle { start, presses: if presses == u64::MAX { None } else { Some(presses) } })
    }
}

impl Drop for Generator {
    fn drop(&mut self) {
        unsafe { sys::toggle_generator_free(self.ptr.as_ptr()) }
    }

}
