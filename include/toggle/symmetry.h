/* libtoggle: the symmetries of a board state, and solutions counted up to symmetry. */
#ifndef TOGGLE_SYMMETRY_H
#define TOGGLE_SYMMETRY_H

#include "common.h"
#include "solution.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file symmetry.h
 *  @brief Symmetries of rows x cols boards (the dihedral group D4 of the
 *  square; its four-element subgroup {identity, 180-degree rotation, both
 *  mirrors} for a non-square rectangle).
 *
 *  Each symmetry is one bit. Cell (r, c) of an R x C board moves to:
 *  - TOGGLE_SYM_ROT90: (c, R - 1 - r), a quarter turn clockwise (square only);
 *  - TOGGLE_SYM_ROT180: (R - 1 - r, C - 1 - c);
 *  - TOGGLE_SYM_ROT270: (C - 1 - c, r) (square only);
 *  - TOGGLE_SYM_MIRROR_H: (R - 1 - r, c), mirror in the horizontal centre line
 *    (top and bottom halves are mirror images);
 *  - TOGGLE_SYM_MIRROR_V: (r, C - 1 - c), mirror in the vertical centre line;
 *  - TOGGLE_SYM_DIAG: (c, r), mirror in the main diagonal (square only);
 *  - TOGGLE_SYM_ANTIDIAG: (C - 1 - c, R - 1 - r), the other diagonal (square only).
 *  A board has symmetry g when moving every cell by g leaves it unchanged. The
 *  symmetries of a board always form a group; its name (toggle_symmetry_name())
 *  is one of the ten subgroups of D4:
 *
 *  | mask | name |
 *  |------|------|
 *  | 0x01 | "none" |
 *  | 0x05 | "180-degree rotation" |
 *  | 0x11 | "horizontal mirror" |
 *  | 0x21 | "vertical mirror" |
 *  | 0x41 | "diagonal" |
 *  | 0x81 | "anti-diagonal" |
 *  | 0x35 | "both mirrors" |
 *  | 0xC5 | "both diagonals" |
 *  | 0x0F | "90-degree rotation" |
 *  | 0xFF | "full D4" |
 *
 *  Solutions counted up to a group of these symmetries,
 *  toggle_solution_count_orbits(), are declared in solution.h (included
 *  here). */

/** Symmetry bits. */
enum {
    TOGGLE_SYM_IDENTITY = 0x01,
    TOGGLE_SYM_ROT90 = 0x02,
    TOGGLE_SYM_ROT180 = 0x04,
    TOGGLE_SYM_ROT270 = 0x08,
    TOGGLE_SYM_MIRROR_H = 0x10,
    TOGGLE_SYM_MIRROR_V = 0x20,
    TOGGLE_SYM_DIAG = 0x40,
    TOGGLE_SYM_ANTIDIAG = 0x80,
    TOGGLE_SYM_ALL = 0xFF      /**< all of D4 */
};

/** The symmetries a board state has.
 *  @param cells  rows * cols values, row-major (borrowed)
 *  @param rows   rows of the board
 *  @param cols   columns of the board
 *  @param mask   receives the OR of the TOGGLE_SYM_* bits of every symmetry
 *                the board has (always includes TOGGLE_SYM_IDENTITY; the
 *                square-only bits never appear when rows != cols)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL cells or mask, zero rows or cols),
 *          TOGGLE_EOVERFLOW (rows * cols overflows). */
TOGGLE_API int toggle_board_symmetry(const uint64_t *cells, size_t rows, size_t cols,
                                     uint32_t *mask);

/** The name of a symmetry group (the table above), or NULL if mask is not
 *  one of the ten subgroups of D4. Static storage. */
TOGGLE_API const char *toggle_symmetry_name(uint32_t mask);

/** All the symmetries of the board shape: TOGGLE_SYM_ALL for a square,
 *  0x35 (identity, 180-degree rotation, both mirrors) otherwise; 0 for an
 *  empty shape. */
TOGGLE_API uint32_t toggle_symmetry_of_shape(size_t rows, size_t cols);

#ifdef __cplusplus
}
#endif
#endif
