/* fflas-ffpack as a benchmark reference (bench/fflas_ref.cpp, LGPL, C++):
 * built into toggle-bench only when meson finds it (HAVE_FFLAS), never
 * linked by the library. */
#ifndef TOGGLE_BENCH_FFLAS_REF_H
#define TOGGLE_BENCH_FFLAS_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One thread for fflas-ffpack's BLAS (OpenBLAS: openblas_set_num_threads,
 * when that BLAS is the one linked). */
void bench_fflas_single_thread(void);

/* The rank of the n x (n + 1) matrix [A | b] over F_p (a row-major n x n,
 * entries in [0, p); p < 2^26) through Givaro::Modular<double>: FFPACK::PLUQ
 * (what FFPACK::Rank does) when rref == 0, FFPACK::ReducedRowEchelonForm
 * otherwise. Sequential. -1 when fflas-ffpack throws or memory runs out. */
long bench_fflas_echelon(const uint64_t *a, const uint64_t *b, size_t n, uint64_t p, int rref);

#ifdef __cplusplus
}
#endif

#endif
