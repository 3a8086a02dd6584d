/* lib/linalg/fp: exact reduced row echelon form over F_p (p < 2^26) in
 * double precision, with the trailing updates as BLAS matrix products and
 * delayed modular reduction (docs/blas.md). Never installed. */
#ifndef TOGGLE_LINALG_FP_BLAS_H
#define TOGGLE_LINALG_FP_BLAS_H

/* Include this first: the loops around the products select between
 * values with comparisons (x > h ? x - p : x), and GCC vectorises such a
 * select only when floating-point operations may not trap (its default,
 * -ftrapping-math, keeps every loop of the engine scalar; clang's default
 * already allows it). Values are unchanged: no reassociation, no
 * contraction (C11 mode: -ffp-contract=off), only the exceptions' flags,
 * which the engine never reads. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest modulus (exclusive) the engine handles: every product of two
 * centred residues, plus a residue, stays below 2^52 (docs/blas.md). */
#define TOGGLE__BLAS_MAX_P ((uint64_t)1 << 26)

/* The loops around the products (reduction, packing, splitting, the base
 * case, filling the matrix) run at memory speed only with vectors wider
 * than the baseline ISA's: they are marked TOGGLE__HOT (lib/core/core.h). */

/* Bytes of workspace toggle__blas_rref allocates on top of M for an
 * rows x cols matrix on `threads` threads (the L gathers of phase 1, the
 * reorder of phase 2, each thread's packing buffer), not counting the
 * BLAS's own packing buffers. */
uint64_t toggle__blas_workspace_bytes(size_t rows, size_t cols, size_t threads);

/* Reduce the rows x cols matrix M (row-major, leading dimension ld, entries
 * centred residues mod p, |v| <= p/2) to its reduced row echelon form in
 * place: on return the first *rank rows hold the RREF's entries in
 * [0, p) (as doubles) at every non-pivot column, and 1 at their own pivot;
 * the other pivot columns of those rows (zeros of the RREF) and the rows
 * from *rank on are left as scratch; pivot[0 .. *rank) the ascending
 * pivot columns. TOGGLE_OK or TOGGLE_ENOMEM
 * (workspace; M is then scratch). p prime, 2 <= p < TOGGLE__BLAS_MAX_P;
 * threads: 0 counts as 1; more: a pool of that many threads for this
 * call, over which the large updates are split by columns (one BLIS thread
 * each), or BLIS's threads when no pool can be started. */
int toggle__blas_rref(double *M, size_t rows, size_t cols, size_t ld, uint64_t p,
                      size_t threads, size_t *pivot, size_t *rank);

/* C := C - A B (mod p) with the engine's products (packed for small p):
 * A rows x K, B K x cols, C rows x cols, row-major, entries centred
 * residues; C's entries come back centred. For the tests' worst cases of
 * the exactness bounds. TOGGLE_OK or TOGGLE_ENOMEM (C untouched). */
int toggle__blas_mul_sub(uint64_t p, size_t threads, size_t rows, size_t cols, size_t K,
                         const double *A, size_t lda, const double *B, size_t ldb, double *C,
                         size_t ldc);

/* Bytes the engine counts for BLIS's own packing buffers and pools in a
 * solve with n unknowns on `threads` threads. BLIS takes them with malloc
 * itself, so the library's allocator hooks never see them (the peak test
 * allows for them; the budget test measures them in RSS). */
uint64_t toggle__blas_pool_bytes(size_t n, size_t threads);

#endif
