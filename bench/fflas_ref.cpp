/* fflas-ffpack's PLUQ and reduced row echelon form on the gfp/auto
 * workloads' [A | b] (bench/wl_core.c): a reference, see fflas_ref.h. */
#include "fflas_ref.h"

#include <fflas-ffpack/ffpack/ffpack.h>
#include <givaro/modular.h>

#include <new>

extern "C" void openblas_set_num_threads(int) __attribute__((weak));

void bench_fflas_single_thread(void)
{
    if (openblas_set_num_threads)
        openblas_set_num_threads(1);
}

long bench_fflas_echelon(const uint64_t *a, const uint64_t *b, size_t n, uint64_t p, int rref)
{
    typedef Givaro::Modular<double> Field;
    size_t cols = n + 1;
    double *m = nullptr;
    size_t *rp = nullptr, *cp = nullptr;
    long rank = -1;
    try {
        Field f((double)p);
        m = FFLAS::fflas_new<double>(n * cols);
        rp = FFLAS::fflas_new<size_t>(n);
        cp = FFLAS::fflas_new<size_t>(cols);
        if (!m || !rp || !cp)
            throw std::bad_alloc();
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++)
                m[i * cols + j] = (double)a[i * n + j];
            m[i * cols + n] = (double)b[i];
        }
        if (rref)
            rank = (long)FFPACK::ReducedRowEchelonForm(f, n, cols, m, cols, rp, cp);
        else
            rank = (long)FFPACK::PLUQ(f, FFLAS::FflasNonUnit, n, cols, m, cols, rp, cp);
    } catch (...) {
        rank = -1;
    }
    FFLAS::fflas_delete(m);
    FFLAS::fflas_delete(rp);
    FFLAS::fflas_delete(cp);
    return rank;
}
