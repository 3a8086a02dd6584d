/* lib/engine/blas: exact reduced row echelon form over F_p (p < 2^26) in
 * double precision, with the trailing updates as BLAS matrix products and
 * delayed modular reduction (docs/blas.md). Never installed. */
#ifndef TOGGLE_BLAS_H
#define TOGGLE_BLAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest modulus (exclusive) the engine handles: every product of two
 * centred residues, plus a residue, stays below 2^52 (docs/blas.md). */
#define TOGGLE__BLAS_MAX_P ((uint64_t)1 << 26)

/* Rows in each chunk of a trailing update (the L gather buffer). */
#define TOGGLE__BLAS_CHUNK 512

/* Bytes of workspace toggle__blas_rref allocates on top of M for an
 * rows x cols matrix (the L gathers of phase 1, the triangular systems of
 * phase 2), not counting the BLAS's own packing buffers. */
uint64_t toggle__blas_workspace_bytes(size_t rows, size_t cols);

/* Reduce the rows x cols matrix M (row-major, leading dimension ld, entries
 * centred residues mod p, |v| <= p/2) to its reduced row echelon form in
 * place: on return the first *rank rows hold the RREF with entries in
 * [0, p) (as doubles), pivot[0 .. *rank) the ascending pivot columns.
 * Rows from *rank on are left as scratch. TOGGLE_OK or TOGGLE_ENOMEM
 * (workspace; M is then scratch). p prime, 2 <= p < TOGGLE__BLAS_MAX_P;
 * threads: BLIS threads for each product (0 counts as 1). */
int toggle__blas_rref(double *M, size_t rows, size_t cols, size_t ld, uint64_t p,
                      size_t threads, size_t *pivot, size_t *rank);

#endif
