/* toggle__fp_rref (rref.h): the elimination in doubles (blas.h) on a copy
 * in doubles (centred residues), or the Gauss-Jordan of dense.h in place. */
#ifdef TOGGLE_HAVE_BLAS
#include "linalg/fp/blas.h" /* first: its pragma */
#endif
#include <string.h>

#include "core.h"
#include "linalg/fp/dense.h"
#include "linalg/fp/rref.h"

uint64_t toggle__fp_rref_bytes(size_t rows, size_t cols, size_t threads)
{
#ifdef TOGGLE_HAVE_BLAS
    unsigned __int128 b = (unsigned __int128)rows * cols * sizeof(double)
                        + toggle__blas_workspace_bytes(rows, cols, threads)
                        + toggle__blas_pool_bytes(cols, threads);
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
#else
    (void)rows, (void)cols, (void)threads;
    return 0;
#endif
}

int toggle__fp_rref(uint64_t *A, size_t rows, size_t cols, size_t stride, uint64_t p,
                    size_t threads, size_t *pivot, size_t *rank)
{
#ifdef TOGGLE_HAVE_BLAS
    if (p < TOGGLE__BLAS_MAX_P && rows && cols) {
        double *M = toggle__malloc_array(rows * cols, sizeof *M);
        if (!M)
            return toggle__error(TOGGLE_ENOMEM, "out of memory for a %zu x %zu matrix", rows,
                                 cols);
        uint64_t h = p / 2;
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < cols; j++) {
                uint64_t v = A[i * stride + j];
                M[i * cols + j] = v > h ? -(double)(p - v) : (double)v;
            }
        int rc = toggle__blas_rref(M, rows, cols, cols, p, threads, pivot, rank);
        if (rc) {
            toggle__free(M);
            return rc;
        }
        for (size_t i = 0; i < rows; i++) {
            uint64_t *a = A + i * stride;
            if (i >= *rank) {
                memset(a, 0, cols * sizeof *a);
                continue;
            }
            for (size_t j = 0, k = 0; j < cols; j++) {
                bool pc = k < *rank && pivot[k] == j;
                /* (left of the row's pivot the RREF is 0; blas leaves scratch) */
                a[j] = pc ? (k == i) : j < pivot[i] ? 0 : (uint64_t)M[i * cols + j];
                k += pc;
            }
        }
        toggle__free(M);
        return TOGGLE_OK;
    }
#endif
    (void)threads;
    *rank = toggle__dense_rref(A, rows, cols, cols, stride, p, pivot);
    for (size_t i = *rank; i < rows; i++)
        memset(A + i * stride, 0, cols * sizeof *A);
    return TOGGLE_OK;
}
