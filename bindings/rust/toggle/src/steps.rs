//! Row operations one at a time (steps.h, 1.1): a trace of plain
//! Gauss-Jordan elimination, hand operations with undo and redo, and the
//! script language of `toggle rowops` (docs/steps.md).

use std::fmt;
use std::os::raw::{c_char, c_int};
use std::ptr::{self, NonNull};

use crate::error::check;
use crate::{new_handle, read_string, sys, Error, Result, System};

/// One row operation of a [`Steps`] trace (rows 0-based, values mod k).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepOp {
    /// Row `b` += `c` * row `a` (`add a*c b`; `add a b` when c = 1).
    Add {
        /// the row added
        a: usize,
        /// the row that changes
        b: usize,
        /// the multiplier, 1 <= c < k
        c: u64,
    },
    /// Row `a` *= `c`, c a unit mod k (`scale a c`).
    Scale {
        /// the row
        a: usize,
        /// the unit
        c: u64,
    },
    /// Exchange rows `a` and `b` (`swap a b`).
    Swap {
        /// one row
        a: usize,
        /// the other row
        b: usize,
    },
    /// Take row `a` out and put it back just before the row that was `b`
    /// (b = rows: at the end) (`move a b`).
    Move {
        /// the row moved
        a: usize,
        /// the row it goes before
        b: usize,
    },
}

impl fmt::Display for StepOp {
    /// The operation in the script language ([`Steps::apply`] reads it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StepOp::Add { a, b, c: 1 } => write!(f, "add {} {}", a, b),
            StepOp::Add { a, b, c } => write!(f, "add {}*{} {}", a, c, b),
            StepOp::Scale { a, c } => write!(f, "scale {} {}", a, c),
            StepOp::Swap { a, b } => write!(f, "swap {} {}", a, b),
            StepOp::Move { a, b } => write!(f, "move {} {}", a, b),
        }
    }
}

/// Where the elimination stands ([`Steps::status`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepStatus {
    /// Pivots found so far in A's columns; when reduced, the rank of A.
    pub rank: usize,
    /// True if the matrix is in reduced row echelon form.
    pub reduced: bool,
    /// True if some row reads 0 ... 0 | c with c != 0: no solution.
    pub unsolvable: bool,
}

/// A copy of a system's augmented matrix [A | b] (m rows, n + 1 columns,
/// column n is b) under row operations. Every operation is invertible, so
/// every state is row-equivalent to the input. [`Steps::auto`] performs
/// plain Gauss-Jordan elimination from whatever state the matrix is in
/// (swap the first unit up, scale the pivot to 1, clear the column top to
/// bottom with add), so hand and automatic operations mix; the result is the
/// reduced row echelon form. For composite k a column without a unit pivot
/// stops it (`Unsupported`). Failed operations change nothing.
///
/// ```
/// # fn main() -> toggle::Result<()> {
/// let system = toggle::System::parse("12|1\n11|0\n", 3)?;
/// let mut steps = toggle::Steps::new(&system)?;
/// steps.auto(None)?;
/// assert!(steps.status()?.reduced);
/// let (x, nullity) = steps.solution()?;
/// assert!(system.check(&x)? && nullity == 0);
/// let mut replay = toggle::Steps::new(&system)?;
/// replay.apply(&steps.script(0)?)?;      // the trace as a script
/// assert_eq!(replay.matrix()?, steps.matrix()?);
/// # Ok(())
/// # }
/// ```
pub struct Steps {
    ptr: NonNull<sys::toggle_steps>,
}

// Nothing ties the handle to a thread; mutation needs &mut.
unsafe impl Send for Steps {}

impl Steps {
    /// Copy the augmented matrix of `system` (any kind, any k >= 2). The
    /// matrix and the trace count against the system's memory budget, read
    /// now (`OutOfMemory` past it).
    pub fn new(system: &System) -> Result<Steps> {
        new_handle(|out| unsafe { sys::toggle_steps_new(out, system.ptr.as_ptr()) })
            .map(|ptr| Steps { ptr })
    }

    /// Rows m.
    pub fn rows(&self) -> usize {
        unsafe { sys::toggle_steps_rows(self.ptr.as_ptr()) }
    }

    /// Unknowns n; the matrix has n + 1 columns.
    pub fn cols(&self) -> usize {
        unsafe { sys::toggle_steps_cols(self.ptr.as_ptr()) }
    }

    /// The modulus k.
    pub fn modulus(&self) -> u64 {
        unsafe { sys::toggle_steps_modulus(self.ptr.as_ptr()) }
    }

    /// Current entry (i, j) of [A | b]; j = n reads the right-hand side.
    pub fn entry(&self, i: usize, j: usize) -> Result<u64> {
        let mut v = 0u64;
        check(unsafe { sys::toggle_steps_entry(self.ptr.as_ptr(), i, j, &mut v) })?;
        Ok(v)
    }

    /// The current [A | b], one `Vec` of n + 1 values per row (b last).
    pub fn matrix(&self) -> Result<Vec<Vec<u64>>> {
        (0..self.rows()).map(|i| (0..=self.cols()).map(|j| self.entry(i, j)).collect()).collect()
    }

    /// Row b += c * row a (a != b, 0 < c < k).
    pub fn add(&mut self, a: usize, b: usize, c: u64) -> Result<()> {
        check(unsafe { sys::toggle_steps_add(self.ptr.as_ptr(), a, b, c) }).map(|_| ())
    }

    /// Row a *= c (c a unit mod k).
    pub fn scale(&mut self, a: usize, c: u64) -> Result<()> {
        check(unsafe { sys::toggle_steps_scale(self.ptr.as_ptr(), a, c) }).map(|_| ())
    }

    /// Exchange rows a and b (a != b).
    pub fn swap(&mut self, a: usize, b: usize) -> Result<()> {
        check(unsafe { sys::toggle_steps_swap(self.ptr.as_ptr(), a, b) }).map(|_| ())
    }

    /// Move row a just before the row that was b (b = rows: to the end;
    /// b != a, a + 1).
    pub fn move_row(&mut self, a: usize, b: usize) -> Result<()> {
        check(unsafe { sys::toggle_steps_move(self.ptr.as_ptr(), a, b) }).map(|_| ())
    }

    /// Perform one [`StepOp`].
    pub fn perform(&mut self, op: StepOp) -> Result<()> {
        match op {
            StepOp::Add { a, b, c } => self.add(a, b, c),
            StepOp::Scale { a, c } => self.scale(a, c),
            StepOp::Swap { a, b } => self.swap(a, b),
            StepOp::Move { a, b } => self.move_row(a, b),
        }
    }

    /// Apply a script: one command per line (`add A B [B ...]`,
    /// `add A*C B ...` with C possibly negative, `scale A C`, `swap A B`,
    /// `move A B`), `#` comments, blank lines ignored. The whole script is
    /// checked first; on failure (`Parse`, `InvalidArgument`, `Range`, with
    /// the line in the message) nothing changes. Returns the number of
    /// operations applied.
    pub fn apply(&mut self, script: &str) -> Result<usize> {
        let mut applied = 0usize;
        check(unsafe {
            sys::toggle_steps_apply(self.ptr.as_ptr(), script.as_ptr() as *const c_char,
                                    script.len(), &mut applied)
        })?;
        Ok(applied)
    }

    /// Up to `max` operations of Gauss-Jordan elimination (`None`: all);
    /// returns how many were made (fewer than `max`: the matrix is reduced,
    /// or for composite k the next column has no unit pivot).
    /// `Unsupported` when no step could be made for that reason.
    pub fn auto(&mut self, max: Option<usize>) -> Result<usize> {
        let mut done = 0usize;
        check(unsafe {
            sys::toggle_steps_auto(self.ptr.as_ptr(), max.unwrap_or(usize::MAX), &mut done)
        })?;
        Ok(done)
    }

    /// Undo the last `count` operations (newest first); `Range` if fewer
    /// were made.
    pub fn undo(&mut self, count: usize) -> Result<()> {
        check(unsafe { sys::toggle_steps_undo(self.ptr.as_ptr(), count) }).map(|_| ())
    }

    /// Redo `count` undone operations; any new operation forgets them.
    pub fn redo(&mut self, count: usize) -> Result<()> {
        check(unsafe { sys::toggle_steps_redo(self.ptr.as_ptr(), count) }).map(|_| ())
    }

    /// Operations applied so far (the length of the trace).
    pub fn count(&self) -> usize {
        unsafe { sys::toggle_steps_count(self.ptr.as_ptr()) }
    }

    /// Undone operations that [`Steps::redo`] can bring back.
    pub fn redo_count(&self) -> usize {
        unsafe { sys::toggle_steps_redo_count(self.ptr.as_ptr()) }
    }

    /// Operation `index` of the trace (0 = the first applied).
    pub fn op(&self, index: usize) -> Result<StepOp> {
        let (mut op, mut a, mut b, mut c) = (0 as c_int, 0usize, 0usize, 0u64);
        check(unsafe { sys::toggle_steps_op(self.ptr.as_ptr(), index, &mut op, &mut a, &mut b, &mut c) })?;
        match op {
            sys::TOGGLE_STEP_ADD => Ok(StepOp::Add { a, b, c }),
            sys::TOGGLE_STEP_SCALE => Ok(StepOp::Scale { a, c }),
            sys::TOGGLE_STEP_SWAP => Ok(StepOp::Swap { a, b }),
            sys::TOGGLE_STEP_MOVE => Ok(StepOp::Move { a, b }),
            other => Err(Error::new(sys::TOGGLE_EINTERNAL, format!("unknown row operation {}", other))),
        }
    }

    /// The whole trace.
    pub fn ops(&self) -> Result<Vec<StepOp>> {
        (0..self.count()).map(|i| self.op(i)).collect()
    }

    /// Operations `first..count()` of the trace as a script, one per line,
    /// in the language [`Steps::apply`] reads.
    pub fn script(&self, first: usize) -> Result<String> {
        let p = self.ptr.as_ptr();
        read_string(|buf, len, needed| unsafe { sys::toggle_steps_write(p, first, buf, len, needed) })
    }

    /// Rank so far, whether reduced, whether shown unsolvable.
    pub fn status(&self) -> Result<StepStatus> {
        let (mut rank, mut reduced, mut unsolvable) = (0usize, 0 as c_int, 0 as c_int);
        check(unsafe {
            sys::toggle_steps_status(self.ptr.as_ptr(), &mut rank, &mut reduced, &mut unsolvable)
        })?;
        Ok(StepStatus { rank, reduced: reduced != 0, unsolvable: unsolvable != 0 })
    }

    /// The pivot columns found so far, ascending (column n when b holds a
    /// pivot).
    pub fn pivots(&self) -> Result<Vec<usize>> {
        let mut count = 0usize;
        let st = unsafe { sys::toggle_steps_pivots(self.ptr.as_ptr(), ptr::null_mut(), 0, &mut count) };
        if st != sys::TOGGLE_OK && st != sys::TOGGLE_EBUFSIZE {
            check(st)?;
        }
        let mut cols = vec![0usize; count];
        check(unsafe {
            sys::toggle_steps_pivots(self.ptr.as_ptr(), cols.as_mut_ptr(), cols.len(), &mut count)
        })?;
        cols.truncate(count);
        Ok(cols)
    }

    /// The particular solution of a reduced matrix (free unknowns 0, each
    /// pivot unknown its row's right-hand side) and the nullity n - rank.
    /// `InvalidArgument` before the matrix is reduced, `NoSolution` when
    /// the system has none.
    pub fn solution(&self) -> Result<(Vec<u64>, usize)> {
        let mut x = vec![0u64; self.cols()];
        let mut nullity = 0usize;
        check(unsafe {
            sys::toggle_steps_solution(self.ptr.as_ptr(), x.as_mut_ptr(), x.len(), &mut nullity)
        })?;
        Ok((x, nullity))
    }

    /// The current matrix as a new (dense) system, with the memory budget
    /// of the original.
    pub fn system(&self) -> Result<System> {
        new_handle(|out| unsafe { sys::toggle_steps_system(self.ptr.as_ptr(), out) })
            .map(System::from_ptr)
    }
}

impl Drop for Steps {
    fn drop(&mut self) {
        unsafe { sys::toggle_steps_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for Steps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Steps({} x {} over Z/{}, {} operations)", self.rows(), self.cols() + 1,
               self.modulus(), self.count())
    }
}
