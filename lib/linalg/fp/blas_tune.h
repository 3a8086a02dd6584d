/* Tuning thresholds of the elimination in doubles (blas_elim.c, the only
 * file that includes this), one a line: what it trades. None changes an
 * answer, only speed and workspace. Re-measure after a change with a
 * release build: `build/bench/toggle-bench --filter gfp/auto/2000/ --filter
 * gfp/auto/4000/` (one thread; the pool's thresholds: `--filter
 * gfp/threads/4000`) against the same runs before it (docs/blas.md). */
#ifndef TOGGLE_LINALG_FP_BLAS_TUNE_H
#define TOGGLE_LINALG_FP_BLAS_TUNE_H

#define TOGGLE__BLAS_CHUNK 512 /* rows a trailing update's chunk: gather buffer vs products */
#define BASE 16                /* columns eliminated without the BLAS: loops vs dgemm overhead */
#define TBASE 32               /* triangular solves by substitution below this: loops vs products */
#define GATHER 256             /* pivots a gathered group of a scattered L: buffer vs products */
#define PACK_COLS 256          /* packed columns of B a panel: workspace vs dgemm calls */
#define PACK_ROWS 512          /* rows of A a packed panel: workspace vs dgemm calls */
#define MAX_SLOTS 8            /* most slots a double carries: fewer multiply-adds vs split work */
/* multiply-adds below which a product stays on its thread: pool round trip vs split */
#define SPLIT_WORK ((double)(1u << 21))
#define SPLIT_MIN_COLS 64      /* narrowest product split over threads: slice width vs threads */
#define SLICES_PER_THREAD 4    /* column slices a thread of a split product: balance vs overhead */

#endif
