/* Every tuning threshold of the bit-packed GF(2) kernels and the gf2
 * engine, one line each: what it trades and the workload that shows it.
 *
 * To re-measure one: build the library twice, differing only in the value
 * (two build directories), then from either one
 *     bench/toggle-abx OLD/lib/libtoggle.so.1 NEW/lib/libtoggle.so.1 WORKLOAD THREADS REPS
 * with WORKLOAD dense:N (a random N x N system) or board:N (the N x N
 * Lights Out board); it runs both libraries interleaved in one process and
 * prints the ratio. Measure at 1 and 2 threads, and at sizes on both sides
 * of the threshold; keep a value unless the other wins on both. Values
 * that depend on the CPU's caches are marked (cache). Every value here is
 * a speed choice only: the answers do not depend on any of them. */
#ifndef TOGGLE_GF2_TUNE_H
#define TOGGLE_GF2_TUNE_H

#include <stddef.h>
#include <stdint.h>

/* ---- the plain Four-Russians form (gf2_plain.c, gf2_pivot.c) ---- */

/* Bits per Gray-code table at most: wider tables amortise a row pass over
 * more pivots but cost 2^k rows each to build (dense:1024..4096). */
#define GF2_MAXK 8
/* Words of columns a block's pivot search looks at: wider keeps a block
 * gathering pivots past columns without one, narrower keeps the gather
 * tables small (dense rank-deficient, board:N). */
#define GF2_SPANW 4
/* Bytes of one search window (derived from GF2_SPANW; not a knob). */
#define GF2_LUTB (GF2_SPANW * 8)
/* Columns of the transposed pivot rows filled at a time past the first K:
 * more reads ahead fewer times, fewer wastes less on a short block (board:N). */
#define GF2_TR_STEP 32
/* Threads one elimination uses at most (a bound on its table sets). */
#define GF2_MAX_THREADS 64
/* Matrix words below which an elimination stays on the caller's thread:
 * a pool's start and hand-offs against the shared passes (dense:128..512, 2 threads). */
#define GF2_THREADS_MIN_WORDS ((uint64_t)1 << 15)
/* Live words x active rows from which a block's pass runs on the pool:
 * the hand-off against the pass (dense:256..1024, 2 threads). */
#define GF2_PAR_MIN_WORDS ((uint64_t)1 << 12)
/* A block's pass splits by columns only with at least this many live words
 * per thread and fewer than GF2_COLS_MAX_ROWS active rows per thread: a
 * column split visits every row on every thread and adds a join
 * (dense:1024..4096, 2 threads). */
#define GF2_COLS_MIN_WORDS 8
#define GF2_COLS_MAX_ROWS 256
/* Runs of live words closer than this are merged: a run costs a visit of
 * every active row, a merged gap costs xors of zero words (board:N). */
#define GF2_RUN_GAP 2
/* Two sweeps (forward, then backward) when the rows' spans average at most
 * 1 / GF2_BAND_RATIO of the width: fewer words touched on a band against a
 * second visit of the rows above on a dense matrix (board:N, dense:N). */
#define GF2_BAND_RATIO 4

/* ---- the two-ended form (gf2_twist.c) ---- */

/* Rows from which a full-rank banded square system is eliminated from both
 * ends on two threads: the second thread's start against the halved sweep
 * (board:32..64, 2 threads). */
#define GF2_TWIST_MIN_ROWS 2048
/* Widest middle system in words: a wider middle fits more splits but is
 * solved densely on one thread (board:N, 2 threads). */
#define GF2_TWIST_MID_WORDS 16

/* ---- the recursive product form (gf2_prod.c) and AUTO (gf2_rref.c) ---- */

/* Panel width in words without GFNI: wider panels make larger, more
 * efficient products but costlier panel eliminations (dense:8192..16384). */
#define PROD_PANEL 64
/* A panel's own elimination recurses on half panels down to this width,
 * then Four Russians (dense:8192). */
#define PROD_MIN_PANEL 16
/* Matrix words from which AUTO takes the recursive form without GFNI: below,
 * the plain form's passes stay in cache and win (cache) (dense:4096..8192). */
#define PROD_MIN_WORDS ((uint64_t)1 << 20)
/* AUTO's panel width below 4 * PROD_PANEL words of columns, and (twice it)
 * the narrowest matrix the recursive form takes without GFNI (dense:8192). */
#define PROD_NARROW 32
/* With GFNI products, AUTO takes the recursive form from this many matrix
 * words and this many rows and columns (dense:512..1536). */
#define PROD_GFNI_MIN_WORDS ((uint64_t)1 << 15)
#define PROD_GFNI_MIN_SIDE 512
/* With GFNI, a matrix with at most one nonzero word in GF2_SPARSE_WORDS
 * (sampled) stays plain: the plain passes skip its zero words, products
 * do not (board:N against dense:N). */
#define GF2_SPARSE_WORDS 8
/* Rows past a panel's width its pivot search looks at first: 64 extra
 * random rows miss full rank with probability below 2^-64; more rows cost
 * a longer search (dense:N). */
#define PROD_PREFIX_EXTRA 64
/* With GFNI, a panel's pivot search recurses on half panels only on at
 * least this many rows per panel column (else Four Russians: shorter for a
 * prefix) (dense rectangular 1088..8192 x 1024). */
#define PROD_SEARCH_TALL 8
/* ... and only on panels of at least this many words: on narrower ones
 * the plain search wins and allocates less (dense:2048, rank-deficient). */
#define PROD_SEARCH_PLAIN_MIN 4
/* Rows x words from which a gather, clear or deposit over rows runs on the
 * pool: the hand-off against the loop (dense:2048..4096, 2 threads). */
#define PROD_PAR_ROW_WORDS ((size_t)1 << 14)

/* ---- the product (gf2_mul.c) and its GFNI base case (gf2_gfni.c) ---- */

/* Words per column strip at most: in the base cases of a Strassen step,
 * and in a product that is Four Russians alone; wider strips amortise the
 * tables, narrower keep tables and C's strip in L2 (cache) (dense:8192). */
#define MUL_SW 32
#define MUL_SW_FLAT 16
/* Words of C's strip over all rows (about 1 MiB): bounds the strip (cache). */
#define MUL_STRIP_WORDS ((size_t)1 << 17)
/* Threads one product uses at most (a bound on its workspaces). */
#define MUL_MAX_THREADS 64
/* Strassen-Winograd once every dimension is at least twice this many bits:
 * fewer products against their additions' memory traffic (dense:8192..16384). */
#define MUL_CUTOFF 2048
/* Output tiles of at most this many bits a side (and at least the inner
 * dimension), each one square Strassen product (dense:8192, 2 threads). */
#define MUL_TILE 4096
/* Rows of a tile dealt to a thread, at least (dense:4096, 2 threads). */
#define MUL_MIN_TILE_ROWS 256
/* A product without a Strassen step on threads: tiles per thread (so a
 * thread kept away by the look-ahead still finds work), GFNI row tiles a
 * multiple of MUL_PREP_ROWS, Four-Russians strips of MUL_FLAT_TC_M4RM
 * bits, and MUL_FLAT_TC_NARROW columns for a product that would be one
 * tile (dense:2048..8192, 2 threads). */
#define MUL_FLAT_TILES 4
#define MUL_PREP_ROWS 64
#define MUL_FLAT_TC_M4RM (64 * MUL_SW_FLAT)
#define MUL_FLAT_TC_NARROW 512
/* GFNI: inner bytes per pass over C, words of C per column strip (B's copy:
 * 256 x 32 x 64 bytes, 512 KiB), rows per block of A's copy (cache); a
 * kernel call sums GFNI_R groups of 8 rows by GFNI_J words in 16 of the 32
 * vector registers (register blocking: change together) (dense:2048..8192). */
#define GFNI_KC 256
#define GFNI_NW 32
#define GFNI_RC 256
#define GFNI_R 4
#define GFNI_J 4

/* ---- the engine's build of [A | b] (lib/engine/gf2/gf2_engine.c) ---- */

/* From this many words a row, a dense [A | b]'s stride is a multiple of a
 * cache line so no two rows (and no two threads) share a line: at most
 * 7/64 more memory (dense:4096..8192, 2 threads). */
#define GF2_LINE_MIN_WORDS 64
/* A graph's [A | b] is built on up to GF2_BUILD_MAX_SHARES threads from
 * GF2_BUILD_PAR_WORDS words of matrix: the pool's start against the
 * zeroing walk (board:100, 2 threads). */
#define GF2_BUILD_PAR_WORDS ((size_t)1 << 19)
#define GF2_BUILD_MAX_SHARES 2
/* A graph row's bits are prefetched this many rows ahead during the build
 * (a band's rows are first touched in order) (board:100). */
#define GF2_BUILD_PREFETCH_ROWS 16

#endif
