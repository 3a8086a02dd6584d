/* The GF(2) elimination forms' shared internals (lib/linalg/gf2, never
 * installed): the row helpers every form inlines, the plain form's
 * workspace (the two-ended form runs two of them), and the forms' entry
 * points for the dispatch (gf2_rref.c). Each form is one file:
 *   gf2_pivot.c  the pivot search of a Four-Russians block
 *   gf2_plain.c  the plain Four-Russians Gauss-Jordan (one or two sweeps)
 *   gf2_twist.c  the plain form on two threads from both ends of a band
 *   gf2_prod.c   the recursive form: wide panels updated by products
 *   gf2_rref.c   AUTO's choice and the public entry points (gf2.h) */
#ifndef TOGGLE_GF2_ELIM_H
#define TOGGLE_GF2_ELIM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "gf2.h"
#include "gf2_kern.h"
#include "gf2_tune.h"
#include "core.h"

static inline size_t words_for(size_t cols) { return cols / 64 + (cols % 64 != 0); }


/* Up to 64 bits of row starting at column c, low bit = column c; the caller
 * guarantees c + n <= cols, so no word past the row's end is read. */
static inline uint64_t window(const uint64_t *row, size_t c, unsigned n)
{
    size_t w = c >> 6;
    unsigned o = (unsigned)(c & 63);
    uint64_t x = row[w] >> o;
    if (o && o + n > 64)
        x |= row[w + 1] << (64 - o);
    return n >= 64 ? x : x & (((uint64_t)1 << n) - 1);
}

static inline unsigned bit(const uint64_t *row, size_t j)
{
    return (unsigned)(row[j >> 6] >> (j & 63)) & 1u;
}

/* x's bits at m's positions, packed low (a software pext) */
static inline uint64_t pext_soft(uint64_t x, uint64_t m)
{
    uint64_t out = 0;
    for (unsigned o = 0; m; o++, m &= m - 1)
        out |= ((x >> __builtin_ctzll(m)) & 1) << o;
    return out;
}

/* x's low bits placed at m's positions (a software pdep) */
static inline uint64_t pdep_soft(uint64_t x, uint64_t m)
{
    uint64_t out = 0;
    for (; m; m &= m - 1, x >>= 1)
        out |= (x & 1) << __builtin_ctzll(m);
    return out;
}

/* pext and pdep with one shift when m is one run of ones (a block's pivot
 * columns on a full-rank stretch) */
static inline uint64_t take_bits(uint64_t x, uint64_t m)
{
    unsigned s = m ? (unsigned)__builtin_ctzll(m) : 0;
    uint64_t run = m >> s;
    return !(run & (run + 1)) ? (x >> s) & run : pext_soft(x, m);
}

static inline uint64_t place_bits(uint64_t x, uint64_t m)
{
    unsigned s = m ? (unsigned)__builtin_ctzll(m) : 0;
    uint64_t run = m >> s;
    return !(run & (run + 1)) ? (x << s) & m : pdep_soft(x, m);
}

/* dst ^= src, skipping the source's zero runs of 8 words (the pivot search
 * combines rows over the whole width; a banded row is zero on most of it) */
static inline void xor_row(uint64_t *restrict dst, const uint64_t *restrict src, size_t n)
{
    size_t w = 0;
    for (; w + 8 <= n; w += 8) {
        uint64_t any = 0;
        for (unsigned q = 0; q < 8; q++)
            any |= src[w + q];
        if (any)
            for (unsigned q = 0; q < 8; q++)
                dst[w + q] ^= src[w + q];
    }
    for (; w < n; w++)
        dst[w] ^= src[w];
}

/* The 8-word groups of src[0 .. n) holding a nonzero word (their first
 * offsets, to grp; returns their count): a new pivot row is xored into up
 * to all the block's earlier pivot rows, so its zero runs are found once. */
static inline size_t nonzero_groups(const uint64_t *src, size_t n, size_t *grp)
{
    size_t ng = 0;
    for (size_t w = 0; w < n; w += 8) {
        size_t e = w + 8 < n ? w + 8 : n;
        uint64_t any = 0;
        for (size_t q = w; q < e; q++)
            any |= src[q];
        if (any)
            grp[ng++] = w;
    }
    return ng;
}

/* dst ^= src on the groups nonzero_groups found in src */
static inline void xor_groups(uint64_t *restrict dst, const uint64_t *restrict src, size_t n,
                              const size_t *grp, size_t ng)
{
    for (size_t g = 0; g < ng; g++) {
        size_t w = grp[g], e = w + 8 < n ? w + 8 : n;
        for (; w < e; w++)
            dst[w] ^= src[w];
    }
}

static inline void swap_rows(uint64_t *a, uint64_t *b, size_t n)
{
    for (size_t w = 0; w < n; w++) {
        uint64_t t = a[w];
        a[w] = b[w];
        b[w] = t;
    }
}
/* Threads worth using on a rows x W matrix: one below about 256 KiB (the
 * hand-off costs more than it saves), else at most one per 8-word column
 * chunk. The pool is created per call, never shared (no global state). */
static inline unsigned useful_threads(size_t rows, size_t W, unsigned threads)
{
    if (threads <= 1 || (uint64_t)rows * W < GF2_THREADS_MIN_WORDS)
        return 1;
    size_t chunks = (W + 7) / 8;
    unsigned t = threads > GF2_MAX_THREADS ? GF2_MAX_THREADS : threads;
    return chunks < t ? (unsigned)chunks : t;
}
static inline void split(size_t n, unsigned t, unsigned nt, size_t align, size_t *lo, size_t *hi)
{
    size_t chunk = (n + nt - 1) / nt;
    chunk = (chunk + align - 1) / align * align;
    size_t a = (size_t)t * chunk;
    *lo = a < n ? a : n;
    *hi = a + chunk < n ? a + chunk : n;
}

/* Row's first nonzero word (W: none) and 1 + its last nonzero word left of
 * the last word (0: none), in one pass of 8-word ORs (on a banded matrix
 * every word of the row is read: the caller's copy costs as much). */
static inline void row_extent(const uint64_t *row, size_t W, size_t *lead, size_t *ext)
{
    size_t Wx = W - 1, first = Wx, last = 0, w = 0;
    for (; w + 8 <= Wx; w += 8) {
        uint64_t o = 0;
        for (unsigned q = 0; q < 8; q++)
            o |= row[w + q];
        if (o) {
            first = first < Wx ? first : w;
            last = w + 8;
        }
    }
    for (; w < Wx; w++)
        if (row[w]) {
            first = first < Wx ? first : w;
            last = w + 1;
        }
    while (first < last && !row[first])
        first++;
    while (last > first && !row[last - 1])
        last--;
    *lead = first < last ? first : row[Wx] ? Wx : W;
    *ext = last;
}

/* Row i of the reduced form [I | x] of a full-rank square system: its pivot
 * bit and x_i (xi) in the last word, once words [lead, ext) are cleared
 * (the row is zero elsewhere but on the last word). */
static inline void identity_row(uint64_t *row, size_t i, size_t W, size_t lead, size_t ext,
                                uint64_t rhs, bool xi)
{
    if (ext > lead)
        memset(row + lead, 0, (ext - lead) * sizeof *row);
    row[W - 1] = xi ? rhs : 0;
    row[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* Narrowest panel the recursive form's panel eliminations recurse to:
 * PROD_MIN_PANEL, or one word for narrow panels (AUTO's on GFNI, and
 * tests: the whole recursion on small matrices). */
static inline size_t toggle__gf2_prod_min(size_t pbw)
{
    return pbw < 2 * PROD_MIN_PANEL ? 1 : PROD_MIN_PANEL;
}

/* ---- what every elimination form takes ---- */

/* An elimination's outputs and surroundings: the matrix travels as a
 * toggle__gf2_view (rows, cols, stride), the rest here. */
typedef struct toggle__gf2_run {
    size_t *pivots; /* out: the pivot column of each of the first *rank rows */
    size_t *rank;   /* out */
    size_t *perm;   /* NULL, or mirrors the row swaps */
    toggle__pool *pool;                     /* NULL: the caller alone */
    const toggle__progress_state *progress; /* NULL: none */
    unsigned fault;                         /* toggle__gf2_fault (tests only) */
} toggle__gf2_run;

/* ---- the pivot search (gf2_pivot.c) ---- */

/* The matrix and row bookkeeping a block's pivot search works on: rows
 * [0, rows) of `stride` words, W words a row, columns below cols only.
 * perm (may be NULL) and lead mirror the swaps; ext (may be NULL): per row,
 * 1 + its last nonzero word left of the last word (kept, and the xors skip
 * the words between); grp: scratch of (W + 7) / 8 entries. */
typedef struct toggle__gf2_search {
    uint64_t *M;
    size_t stride, rows, W, cols;
    size_t *perm, *lead, *ext, *grp;
} toggle__gf2_search;

/* Find up to K (at most 64) pivots among rows r.. in columns c, c + 1, ...
 * of the window (words c / 64 .. c / 64 + GF2_SPANW - 1, below s->cols),
 * skipping columns without one; their columns go to pc[0 ..]. The pivot
 * rows end at rows r .. r + kbar - 1, reduced among themselves on the
 * pivot columns; rows below change only by swaps. *next receives the first
 * column not examined (all examined non-pivot columns are zero below row
 * r + kbar after the row pass). Returns kbar. */
unsigned toggle__gf2_find_pivots(const toggle__gf2_search *s, size_t r, size_t c, unsigned K,
                                 size_t *pc, size_t *next);

/* Byte lookup tables gathering a row's bits on the block's pivot columns
 * (a software pext): for each byte of the window holding pivot columns,
 * lut[b][v] places the pivot bits of byte value v at their pivot indices.
 * Returns the number of such bytes; pos[] gets their byte offsets. */
unsigned toggle__gf2_build_gather(const size_t *pc, unsigned kbar, size_t w0,
                                  uint64_t (*lut)[256], unsigned *pos);

/* ---- the plain form (gf2_plain.c) ---- */

typedef struct toggle__gf2_plan {
    unsigned k, nt;  /* bits per table, tables per pass */
    size_t strip;    /* words per column strip */
} toggle__gf2_plan;

struct pass_args;
typedef void (*toggle__gf2_pass_fn)(const struct pass_args *);

/* What every block of one plain elimination shares. */
typedef struct toggle__gf2_plain {
    uint64_t *M;
    size_t stride, rows, W;
    toggle__gf2_plan p;
    unsigned T;
    toggle__gf2_pass_fn pass;
    uint64_t *tabs[GF2_MAX_THREADS];
    uint8_t *idx;
    size_t *lead, *ext, *runs;
    size_t *fw;       /* the words holding free columns (backward sweep) */
    size_t *last;     /* the rows a forward block may pass end before
                       * last[its last pivot word] */
    uint64_t *acc;
    uint64_t (*lut)[256]; /* allocated at the first block with gaps */
    uint8_t *blk;         /* blk[e]: pivots of the forward block ending at row e */
    unsigned pos[GF2_LUTB];
} toggle__gf2_plain;

/* One plain elimination's workspace for a rows x W matrix (two: banded,
 * span its rows' average span in words; T table sets; lut: the gather
 * tables now, where a block would take them at its first gaps). Allocates
 * only: toggle__gf2_plain_setup reads the matrix. Returns TOGGLE_OK,
 * TOGGLE_EOVERFLOW (nothing allocated) or TOGGLE_ENOMEM
 * (toggle__gf2_plain_free frees what was). */
int toggle__gf2_plain_alloc(toggle__gf2_plain *x, toggle__gf2_view m, size_t W, int two,
                            size_t span, unsigned T, bool lut);
void toggle__gf2_plain_free(toggle__gf2_plain *x);
/* The rows' bounds, read from the matrix (have: lead and, for two sweeps,
 * ext already hold them), and last[]. */
void toggle__gf2_plain_setup(toggle__gf2_plain *x, int two, bool have);

/* How a forward sweep runs: over columns [r0, cmax) from row r0 (rows r0..
 * zero on the columns before); two: the sweep of a two-sweep elimination
 * (ext kept); strict: stop at the first column without a pivot; stop (may
 * be NULL): polled once per block, set when strict stops; the progress
 * callback (run->progress) is told the column of `units`. */
typedef struct toggle__gf2_sweep {
    int two;
    size_t r0, cmax;
    uint64_t units;
    bool strict;
    atomic_int *stop;
} toggle__gf2_sweep;

/* The forward sweep: *run->rank gets the pivot rows (r0 and those found)
 * and run->pivots their columns. Returns TOGGLE_OK or TOGGLE_ENOMEM
 * (*cancel: the progress callback's verdict). */
int toggle__gf2_plain_forward(toggle__gf2_plain *x, const toggle__gf2_sweep *sw,
                              const toggle__gf2_run *run, int *cancel);

/* Back substitution on a forward sweep's echelon form with a pivot on
 * every column of [0, n): row i (the pivot of column i) is zero left of
 * word i / 64 and holds words [i / 64, ext[i]) and the last (W - 1), whose
 * bit `rhs` is its right-hand side. xb holds x_j for the columns past n
 * that the rows reach; x_i, i < n, are set in it. */
void toggle__gf2_echelon_solve(const uint64_t *M, size_t stride, size_t W, const size_t *ext,
                               size_t n, uint64_t rhs, uint64_t *xb);

/* Whether the rows' nonzero spans (first to last word, the last word left
 * out) average at most 1 / GF2_BAND_RATIO of the width, on up to 64 evenly
 * spaced rows; *words (may be NULL) gets that average, rounded up. */
bool toggle__gf2_banded_rows(toggle__gf2_view m, size_t *words);

/* Where a plain elimination starts (NULL: from the matrix as it is).
 * r0 > 0 (two sweeps only): rows [0, r0) are a forward sweep's echelon
 * rows for columns 0 .. r0 - 1, in the blocks blk0 marks (blk0[e]: the
 * pivots of the block ending at row e), and rows r0.. are zero on those
 * columns. lead, ext (both or neither): the rows' bounds as given
 * (toggle__gf2_rref_rows). */
typedef struct toggle__gf2_from {
    size_t r0;
    const uint8_t *blk0;
    const size_t *lead, *ext;
} toggle__gf2_from;

/* RREF of m in place by Four-Russians blocks (run->fault unused). Returns
 * TOGGLE_OK, TOGGLE_ENOMEM, TOGGLE_EOVERFLOW or the progress callback's
 * verdict. */
int toggle__gf2_rref_plain(toggle__gf2_view m, const toggle__gf2_run *run,
                           const toggle__gf2_from *from);
/* Upper bound on its workspace for a rows x W matrix. */
uint64_t toggle__gf2_plain_bytes(size_t rows, size_t W, unsigned threads);

/* ---- the two-ended form (gf2_twist.c) ---- */

/* m's rows are banded (span words on average). *done: m holds the RREF (a
 * square banded system on a pool of two or more); else m is as it was and
 * the plain form is next. Returns TOGGLE_OK, TOGGLE_ENOMEM or the progress
 * callback's verdict. */
int toggle__gf2_rref_twisted(toggle__gf2_view m, const toggle__gf2_run *run, size_t span,
                             bool *done);
/* Upper bound on its workspace for a rows x W matrix. */
uint64_t toggle__gf2_twist_bytes(size_t rows, size_t W);

/* ---- the recursive form (gf2_prod.c) ---- */

/* Its shape: panels of pbw words, recursing down to minp; back: with the
 * back substitution (else an echelon form only); psearch: a pivot search
 * may take Four Russians (PROD_SEARCH_TALL, where products run on GFNI). */
typedef struct toggle__gf2_prod_cfg {
    size_t pbw, minp;
    int back, psearch;
} toggle__gf2_prod_cfg;

int toggle__gf2_rref_prod(toggle__gf2_view m, const toggle__gf2_run *run,
                          const toggle__gf2_prod_cfg *pc);
/* Upper bound on its workspace (threads T; back: with the back substitution). */
uint64_t toggle__gf2_prod_bytes(size_t rows, size_t cols, size_t pbw, size_t minp,
                                unsigned threads, int back);

#endif
