/* Internal interface of the packed GF(2) engine (lib/gf2), shared with its tests. */
#ifndef TOGGLE_GF2_H
#define TOGGLE_GF2_H

#include <stddef.h>
#include <stdint.h>

struct toggle__progress_state;

/* Reduce the rows x cols bit matrix M to reduced row echelon form in place,
 * by Gauss-Jordan elimination with the Method of Four Russians. Row i is the
 * `stride` words at M + i * stride; column j is bit j % 64 of word j / 64.
 * Only the first (cols + 63) / 64 words of each of the first `rows` rows are
 * read or written; padding bits (columns >= cols in the last word) must be
 * zero on entry and are zero on return. pivots (rows entries, may be NULL
 * when rows == 0) receives the pivot column of each of the first *rank rows,
 * ascending. Workspace comes from toggle__malloc and is bounded by
 * toggle__gf2_workspace_bytes(rows, cols) bytes.
 * Returns TOGGLE_OK or TOGGLE_ENOMEM (then M holds a partially reduced
 * matrix with the same row space). */
int toggle__gf2_rref(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank);

/* The same, reporting the columns done to pr (may be NULL) once per pivot
 * block; TOGGLE_ECANCELED when pr's callback cancels (M is then partly
 * reduced). */
int toggle__gf2_rref_progress(uint64_t *M, size_t rows, size_t cols, size_t stride,
                              size_t *pivots, size_t *rank, const struct toggle__progress_state *pr);

/* Upper bound on the workspace toggle__gf2_rref allocates for this shape. */
uint64_t toggle__gf2_workspace_bytes(size_t rows, size_t cols);

#endif
