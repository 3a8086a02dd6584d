/* Plain-C dense Gauss-Jordan over F_p (no FLINT): the dense engine's
 * elimination, also used by the FLINT-free polynomial services of the chase
 * engine (lib/engine/noflint). Never installed. */
#ifndef TOGGLE_LINALG_FP_DENSE_H
#define TOGGLE_LINALG_FP_DENSE_H

#include "core.h"

/* Reduce the rows x cols matrix M (row-major, row i at M + i * stride,
 * entries < p, p prime) to reduced row echelon form in place, pivoting on
 * the first columns only (columns 0 .. pcols - 1; the others, e.g. the
 * right-hand side, are carried along). Writes the pivot columns (ascending)
 * to pivot[0 .. rank) and returns the rank. Rows stay in row-major order:
 * row i of the result is the i-th pivot row. */
size_t toggle__dense_rref(uint64_t *M, size_t rows, size_t cols, size_t pcols, size_t stride,
                          uint64_t p, size_t *pivot);

#endif
