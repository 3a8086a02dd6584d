//! Solution spaces (space.h): iteration, sampling, fewest presses.

use std::os::raw::c_int;
use std::ptr::NonNull;

use crate::error::check;
use crate::{new_handle, sys, Result, Solution};

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
    /// the number of solutions is within `limit` (None: the library default
    /// 2^32; Some(0): unlimited); otherwise the best one visited.
    pub fn fewest_presses(&self, metric: Metric, limit: Option<u64>) -> Result<Fewest> {
        let search = new_handle(|out| unsafe { sys::toggle_search_new(out, self.ptr.as_ptr()) })?;
        let s = search.as_ptr();
        let result = (|| {
            let m = match metric {
                Metric::Cells => sys::TOGGLE_METRIC_CELLS,
                Metric::Presses => sys::TOGGLE_METRIC_PRESSES,
            };
            check(unsafe { sys::toggle_search_set_option(s, sys::TOGGLE_OPT_METRIC, m) })?;
            if let Some(l) = limit {
                check(unsafe { sys::toggle_search_set_option(s, sys::TOGGLE_OPT_SEARCH_LIMIT, l) })?;
            }
            check(unsafe { sys::toggle_search_run(s) })?;
            let mut x = vec![0u64; self.cols()];
            let (mut weight, mut proven, mut visited) = (0u64, 0 as c_int, 0u64);
            check(unsafe {
                sys::toggle_search_result(s, x.as_mut_ptr(), x.len(), &mut weight, &mut proven,
                                          &mut visited)
            })?;
            Ok(Fewest { x, weight, proven: proven != 0, visited })
        })();
        unsafe { sys::toggle_search_free(s) };
        result
    }
}
