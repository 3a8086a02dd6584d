/* The RREF of a dense matrix of residues over F_p, for the engines that
 * reduce a matrix of their own (the transfer engine's canonical form): the
 * elimination in doubles (blas_elim.c) when the build has BLIS and p fits
 * it, else the plain-C Gauss-Jordan (dense_elim.c). Never installed. */
#ifndef TOGGLE_LINALG_FP_RREF_H
#define TOGGLE_LINALG_FP_RREF_H

#include <stddef.h>
#include <stdint.h>

/* Reduce the rows x cols matrix A (row i at A + i * stride, entries < p,
 * p an odd prime) to its reduced row echelon form in place: rows 0 ..
 * *rank - 1 the RREF's rows (1 at their pivot, 0 at the other pivot
 * columns), the rows after them 0; pivot[0 .. *rank) the ascending pivot
 * columns. threads: as toggle__blas_rref (0 counts as 1). TOGGLE_OK, or
 * TOGGLE_ENOMEM with A unchanged. */
int toggle__fp_rref(uint64_t *A, size_t rows, size_t cols, size_t stride, uint64_t p,
                    size_t threads, size_t *pivot, size_t *rank);

/* Bytes toggle__fp_rref allocates besides A and pivot (the blas engine's
 * copy in doubles, its workspace and BLIS's pools). */
uint64_t toggle__fp_rref_bytes(size_t rows, size_t cols, size_t threads);

#endif
