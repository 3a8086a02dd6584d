/* Dense Gauss-Jordan over F_p (dense.h): one word per entry, row swaps,
 * the pivot row scaled to 1, then eliminated from every other row. */
#include <string.h>

#include "dense.h"

static void swap_rows(uint64_t *a, uint64_t *b, size_t cols)
{
    for (size_t j = 0; j < cols; j++) {
        uint64_t t = a[j];
        a[j] = b[j];
        b[j] = t;
    }
}

size_t toggle__dense_rref(uint64_t *M, size_t rows, size_t cols, size_t pcols, size_t stride,
                          uint64_t p, size_t *pivot)
{
    size_t rank = 0;
    for (size_t c = 0; c < pcols && rank < rows; c++) {
        size_t r = rank;
        while (r < rows && M[r * stride + c] == 0)
            r++;
        if (r == rows)
            continue;
        uint64_t *pr = M + rank * stride;
        if (r != rank)
            swap_rows(pr, M + r * stride, cols);
        uint64_t inv = toggle__invmod(pr[c], p);
        for (size_t j = c; j < cols; j++)
            pr[j] = toggle__mulmod(pr[j], inv, p);
        for (size_t i = 0; i < rows; i++) {
            uint64_t *ri = M + i * stride, f = ri[c];
            if (i == rank || f == 0)
                continue;
            uint64_t g = p - f; /* ri -= f * pr */
            if (p == 2) {
                for (size_t j = c; j < cols; j++)
                    ri[j] ^= pr[j];
            } else {
                for (size_t j = c; j < cols; j++)
                    if (pr[j])
                        ri[j] = toggle__addmod(ri[j], toggle__mulmod(g, pr[j], p), p);
            }
        }
        pivot[rank++] = c;
    }
    return rank;
}
