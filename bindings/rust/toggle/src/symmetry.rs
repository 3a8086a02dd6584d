//! Symmetries of a board state and solutions counted up to symmetry
//! (symmetry.h).

use std::fmt;

use crate::error::check;
use crate::{check_board, static_str, sys, Result, Solution};

/// A set of symmetries of a rows x cols board: an OR of `TOGGLE_SYM_*` bits
/// (combine with `|`). Cell (r, c) of an R x C board moves to:
/// `ROT90` (c, R-1-r), `ROT180` (R-1-r, C-1-c), `ROT270` (C-1-c, r),
/// `MIRROR_H` (R-1-r, c), `MIRROR_V` (r, C-1-c), `DIAG` (c, r),
/// `ANTIDIAG` (C-1-c, R-1-r); the quarter turns and diagonals exist only on
/// square boards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Symmetry(pub u32);

impl Symmetry {
    /// The identity (every board has it).
    pub const IDENTITY: Symmetry = Symmetry(sys::TOGGLE_SYM_IDENTITY);
    /// Quarter turn clockwise (square only).
    pub const ROT90: Symmetry = Symmetry(sys::TOGGLE_SYM_ROT90);
    /// Half turn.
    pub const ROT180: Symmetry = Symmetry(sys::TOGGLE_SYM_ROT180);
    /// Three quarter turns clockwise (square only).
    pub const ROT270: Symmetry = Symmetry(sys::TOGGLE_SYM_ROT270);
    /// Mirror in the horizontal centre line (top and bottom swap).
    pub const MIRROR_H: Symmetry = Symmetry(sys::TOGGLE_SYM_MIRROR_H);
    /// Mirror in the vertical centre line (left and right swap).
    pub const MIRROR_V: Symmetry = Symmetry(sys::TOGGLE_SYM_MIRROR_V);
    /// Mirror in the main diagonal (square only).
    pub const DIAG: Symmetry = Symmetry(sys::TOGGLE_SYM_DIAG);
    /// Mirror in the other diagonal (square only).
    pub const ANTIDIAG: Symmetry = Symmetry(sys::TOGGLE_SYM_ANTIDIAG);
    /// All of D4.
    pub const ALL: Symmetry = Symmetry(sys::TOGGLE_SYM_ALL);

    /// The bits as a mask.
    pub fn bits(self) -> u32 {
        self.0
    }

    /// True if every symmetry of `other` is in `self`.
    pub fn contains(self, other: Symmetry) -> bool {
        self.0 & other.0 == other.0
    }

    /// The group's name ("both mirrors", "full D4", ...), or `None` when
    /// the set is not one of the ten subgroups of D4.
    pub fn name(self) -> Option<&'static str> {
        unsafe { static_str(sys::toggle_symmetry_name(self.0)) }
    }

    /// Every symmetry of the shape: [`Symmetry::ALL`] for a square, identity,
    /// half turn and both mirrors otherwise; empty (0) for an empty shape.
    pub fn of_shape(rows: usize, cols: usize) -> Symmetry {
        Symmetry(unsafe { sys::toggle_symmetry_of_shape(rows, cols) })
    }
}

impl std::ops::BitOr for Symmetry {
    type Output = Symmetry;
    fn bitor(self, rhs: Symmetry) -> Symmetry {
        Symmetry(self.0 | rhs.0)
    }
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "Symmetry({:#04x}, {:?})", self.0, n),
            None => write!(f, "Symmetry({:#04x})", self.0),
        }
    }
}

/// The symmetries a rows x cols board state (`cells` row-major) has; always
/// a group (see [`Symmetry::name`]).
pub fn board_symmetry(cells: &[u64], rows: usize, cols: usize) -> Result<Symmetry> {
    check_board(cells, rows, cols)?;
    let mut mask = 0u32;
    check(unsafe { sys::toggle_board_symmetry(cells.as_ptr(), rows, cols, &mut mask) })?;
    Ok(Symmetry(mask))
}

impl Solution {
    /// The number of solutions of a solved rows x cols board counted up to
    /// the symmetries in `group` (orbits, by Burnside's lemma); 0 when the
    /// system is unsolvable. `group` must be a subgroup of
    /// [`Symmetry::of_shape`] that maps the solution set onto itself
    /// (`InvalidArgument` otherwise); prime modulus only (`Unsupported`).
    /// For the all-off to all-on game on an n x n board over F_2 and
    /// [`Symmetry::ALL`] this is OEIS A075463.
    pub fn count_orbits(&self, rows: usize, cols: usize, group: Symmetry) -> Result<u64> {
        let mut n = 0u64;
        check(unsafe { sys::toggle_solution_count_orbits(self.ptr.as_ptr(), rows, cols, group.0, &mut n) })?;
        Ok(n)
    }
}
