/* Packed GF(2) Gauss-Jordan elimination with the Method of Four Russians:
 * pivots are found a block of up to nt * k at a time (skipping columns
 * without a pivot, within a window of GF2_SPANW words),
 * then every other row is cleared on those columns by nt Gray-code tables
 * of k-row combinations, column strip by column strip (docs/gf2.md). */
#include <stdatomic.h>
#include <string.h>

#include "gf2.h"
#include "gf2_kern.h"
#include "core.h"

#define GF2_MAXK 8   /* bits per table */
/* A block looks for pivots in a window of at most GF2_SPANW words of
 * columns, so it keeps gathering pivots past columns without one (a matrix
 * whose dependent columns sit between its pivot columns still gets up to
 * nt * k pivots per row pass). */
#define GF2_SPANW 4
#define GF2_TR_STEP 32 /* find_pivots: columns of the transposed pivot rows read at a time */
#define GF2_LUTB (GF2_SPANW * 8) /* bytes of a window */
#define GF2_MAX_THREADS 64   /* threads one elimination uses at most */
/* The blocked elimination (rref_blocked): panels of GF2_PANEL_WORDS words
 * (64 tables of 8 bits, 1 MiB per strip of 8 words), used from
 * GF2_BLOCK_MIN_ROWS rows and 2 panels of columns (the tuned cutoff,
 * docs/gf2.md); tests force any width up to GF2_MAX_PANEL. */
#define GF2_PANEL_WORDS 8
#define GF2_MAX_PANEL 16
/* Measured (docs/gf2.md): the blocked form does not beat the plain one yet
 * on this machine at N <= 16384, so AUTO keeps the plain form. */
#define GF2_BLOCK_MIN_ROWS SIZE_MAX


typedef struct plan {
    unsigned k, nt;  /* bits per table, tables per pass */
    size_t strip;    /* words per column strip */
} plan;

static size_t words_for(size_t cols) { return cols / 64 + (cols % 64 != 0); }

/* Table sizes: big enough to amortise a row pass over many columns, small
 * enough that one strip of all tables stays in L2 and the whole workspace
 * stays within a quarter of the matrix (or a small constant). The bits per
 * table follow `active`, the rows a block's pass updates (rows, or on a
 * banded matrix about its band: a table of 2^k entries pays off over that
 * many rows, not over all of them). */
static void choose_plan(size_t rows, size_t W, size_t active, plan *p)
{
    unsigned lg = 0;
    while (lg < 20 && ((size_t)1 << (lg + 1)) <= active)
        lg++;
    unsigned k = lg >= 12 ? 8 : lg >= 10 ? 7 : lg >= 8 ? 6 : lg >= 6 ? 5 : lg >= 4 ? 4 : 2;
    unsigned nt = GF2_MAXT;
    uint64_t budget = (uint64_t)rows * W / 4;
    if (budget < 4096)
        budget = 4096;
    size_t strip = 0;
    for (;;) {
        uint64_t trows = (uint64_t)nt << k;
        uint64_t s = budget / trows;
        uint64_t cache = ((uint64_t)512 << 10) / 8 / trows; /* L2-friendly strip */
        if (cache < 8)
            cache = 8;
        if (s > cache)
            s = cache;
        if (s >= W || s >= 8) {
            strip = s >= W ? W : (size_t)(s & ~(uint64_t)7);
            break;
        }
        if (nt > 1)
            nt /= 2;
        else if (k > 1)
            k--;
        else {
            strip = s ? (size_t)s : 1;
            break;
        }
    }
    p->k = k;
    p->nt = nt;
    p->strip = strip ? strip : 1;
}

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
static uint64_t pext_soft(uint64_t x, uint64_t m)
{
    uint64_t out = 0;
    for (unsigned o = 0; m; o++, m &= m - 1)
        out |= ((x >> __builtin_ctzll(m)) & 1) << o;
    return out;
}

/* x's low bits placed at m's positions (a software pdep) */
static uint64_t pdep_soft(uint64_t x, uint64_t m)
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
static size_t nonzero_groups(const uint64_t *src, size_t n, size_t *grp)
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

/* ---- the wide XOR kernels, compiled once per instruction set ------------ */

typedef struct pass_args {
    uint64_t *M;
    size_t stride, rows, skip_lo, skip_hi; /* rows [skip_lo, skip_hi) are the pivots */
    size_t r_lo, r_hi;                     /* rows [r_lo, r_hi) are updated */
    size_t w0, W;                          /* words [w0, W) are live */
    const uint64_t *piv;                   /* first pivot row (row skip_lo) */
    unsigned k, nt, kbar;                  /* kbar pivots, in nt tables of k (last smaller) */
    size_t strip;
    uint64_t *tab;                         /* nt << k rows of strip words */
    const uint8_t *idx;                    /* rows * GF2_MAXT table indices */
    /* nruns > 0: one visit of each row for all the word runs
     * [runs[2q], runs[2q + 1]) instead (their words, gathered, fit a strip) */
    const size_t *runs;
    size_t nruns;
} pass_args;

GF2_INLINE void build_tables(const pass_args *a, size_t ws, size_t n)
{
    for (unsigned t = 0; t < a->nt; t++) {
        unsigned lo = t * a->k, kt = a->kbar - lo < a->k ? a->kbar - lo : a->k;
        uint64_t *T = a->tab + ((size_t)t << a->k) * a->strip;
        memset(T, 0, n * sizeof *T);
        /* Gray code: entry g(i) = entry g(i-1) ^ pivot row (lo + ctz(i)) */
        size_t prev = 0;
        for (size_t i = 1; i < ((size_t)1 << kt); i++) {
            size_t g = i ^ (i >> 1);
            unsigned b = (unsigned)__builtin_ctzll((unsigned long long)i);
            const uint64_t *restrict src = a->piv + (lo + b) * a->stride;
            const uint64_t *restrict pt = T + prev * a->strip;
            uint64_t *restrict dt = T + g * a->strip;
            if (a->nruns) /* the runs' words side by side */
                for (size_t q = 0, o = 0; q < a->nruns; q++)
                    for (size_t w = a->runs[2 * q]; w < a->runs[2 * q + 1]; w++, o++)
                        dt[o] = pt[o] ^ src[w];
            else
                for (size_t w = 0; w < n; w++)
                    dt[w] = pt[w] ^ src[ws + w];
            prev = g;
        }
    }
}

/* Rows r_lo .. r_hi get their tables' entries on words [ws, ws + n), or
 * (a->nruns > 0) on the runs' words in turn, each row visited once. */
GF2_INLINE void process_rows(const pass_args *a, size_t ws, size_t n, unsigned NT)
{
    const uint64_t *t[GF2_MAXT];
    for (unsigned i = NT; i < GF2_MAXT; i++)
        t[i] = a->tab; /* never read for this NT */
    for (size_t r = a->r_lo; r < a->r_hi; r++) {
        if (r >= a->skip_lo && r < a->skip_hi) {
            r = a->skip_hi - 1;
            continue;
        }
        const uint8_t *x = a->idx + r * GF2_MAXT;
        uint64_t any = 0;
        memcpy(&any, x, sizeof any);
        if (!any)
            continue;
        for (unsigned i = 0; i < NT; i++)
            t[i] = a->tab + (((size_t)i << a->k) + x[i]) * a->strip;
        uint64_t *row = a->M + r * a->stride;
        if (!a->nruns) {
            xor_fused(row + ws, t, NT, n);
            continue;
        }
        for (size_t q = 0; q < a->nruns; q++) {
            size_t w = a->runs[2 * q], len = a->runs[2 * q + 1] - w;
            xor_fused(row + w, t, NT, len);
            for (unsigned i = 0; i < NT; i++)
                t[i] += len;
        }
    }
}

GF2_INLINE void pass_strip(const pass_args *a, size_t ws, size_t n)
{
    build_tables(a, ws, n);
    switch (a->nt) {
    case 8: process_rows(a, ws, n, 8); break;
    case 7: process_rows(a, ws, n, 7); break;
    case 6: process_rows(a, ws, n, 6); break;
    case 5: process_rows(a, ws, n, 5); break;
    case 4: process_rows(a, ws, n, 4); break;
    case 3: process_rows(a, ws, n, 3); break;
    case 2: process_rows(a, ws, n, 2); break;
    default: process_rows(a, ws, n, 1); break;
    }
}

GF2_INLINE void pass_body(const pass_args *a)
{
    if (a->nruns) { /* gathered: the runs' words fit one strip */
        size_t n = 0;
        for (size_t q = 0; q < a->nruns; q++)
            n += a->runs[2 * q + 1] - a->runs[2 * q];
        pass_strip(a, 0, n);
        return;
    }
    for (size_t ws = a->w0; ws < a->W; ws += a->strip)
        pass_strip(a, ws, a->W - ws < a->strip ? a->W - ws : a->strip);
}

typedef void (*pass_fn)(const pass_args *);
TOGGLE__CLONES(pass, pass_args)

/* ---- pivot search ------------------------------------------------------- */

/* Find up to K pivots among rows r.. of M in columns c, c+1, ... of the
 * window (words c / 64 .. c / 64 + GF2_SPANW - 1, and below cols), skipping
 * columns without one; their columns go to pc[0 ..]. The pivot rows end at
 * rows r .. r + kbar - 1, reduced among themselves on the pivot columns.
 * Rows below are not modified except by swaps (mirrored in perm when it is
 * not NULL, and in lead and ext). ext (may be NULL): per row, 1 + its last
 * nonzero word left of the last word (a bound, 0: none); the xors then
 * skip the words between, and the pivot rows' bounds are kept. *next receives the first
 * column not examined (all examined non-pivot columns are zero below row
 * r + kbar after the row pass). grp: scratch of (W + 7) / 8 entries. K is
 * at most 64 (a mask of the pivot rows).
 * Returns kbar. */
static unsigned find_pivots(uint64_t *M, size_t stride, size_t rows, size_t r, size_t c,
                            unsigned K, size_t W, size_t cols, size_t *pc, size_t *next,
                            size_t *perm, size_t *lead, size_t *ext, size_t *grp)
{
    size_t w0 = c >> 6;
    size_t end = (w0 + GF2_SPANW) * 64 < cols ? (w0 + GF2_SPANW) * 64 : cols;
    /* U (once a column had no pivot): the OR of rows r.. on the window, a
     * superset of the columns where a pivot can still occur, since rows
     * r.. only change by xors among themselves; lets low-rank tails and
     * zero columns be skipped without scanning every row for each one */
    uint64_t U[GF2_SPANW] = {0};
    int have_u = 0;
    /* the pivot rows transposed: Tr[j - 64 w0] has bit l when pivot row
     * r + l has a 1 in column j, kept for the columns not yet examined
     * (the new pivot row's bits are added, and the rows it is xored into
     * changed, at each pivot); reading each pivot row's bit j for every
     * column cost a load per pivot row and column (a fifth of the 100 x 100
     * board's one-thread solve). pcm: the pivot columns found, per word. */
    uint64_t Tr[GF2_SPANW * 64], pcm[GF2_SPANW] = {0};
    unsigned pcn[GF2_SPANW] = {0}; /* pcm's counts (no popcnt in the base x86-64 set) */
    /* Tr is kept up to hz, K columns on at first (a full-rank stretch needs
     * no more); past it, GF2_TR_STEP columns more are read from the pivot
     * rows at a time */
    size_t hz = c + K < end ? c + K : end;
    memset(Tr + (c - w0 * 64), 0, (hz > c ? hz - c : 0) * sizeof *Tr);
    unsigned found = 0;
    size_t j = c;
    for (; j < end && found < K && r + found < rows; j++) {
        if (have_u && !((U[(j >> 6) - w0] >> (j & 63)) & 1))
            continue;
        if (j >= hz) {
            size_t h0 = j, h1 = j + GF2_TR_STEP < end ? j + GF2_TR_STEP : end;
            memset(Tr + (h0 - w0 * 64), 0, (h1 - h0) * sizeof *Tr);
            for (unsigned l = 0; l < found; l++)
                for (size_t col = h0; col < h1; col = (col | 63) + 1) {
                    uint64_t x = window(M + (r + l) * stride, col, 64 - (unsigned)(col & 63));
                    if (col + 64 - (col & 63) > h1)
                        x &= ((uint64_t)1 << (h1 - col)) - 1;
                    for (; x; x &= x - 1)
                        Tr[col + (size_t)__builtin_ctzll(x) - w0 * 64] |= (uint64_t)1 << l;
                }
            hz = h1;
        }
        /* colm: the pivot columns whose pivot row has a 1 in column j; a
         * row's bit j once reduced by the block is its own bit xor the
         * parity of (row AND colm) */
        uint64_t colm[GF2_SPANW] = {0}, hasj = Tr[j - w0 * 64]; /* bit l: pivot row l has j */
        for (unsigned q = 0, lo = 0; hasj && q < GF2_SPANW; lo += pcn[q++])
            if (pcn[q]) /* then lo < 64: pivot rows lo .. lo + pcn[q] - 1 have word q's */
                colm[q] = place_bits(hasj >> lo, pcm[q]);
        uint64_t any = hasj;
        size_t nq = found ? (pc[found - 1] >> 6) - w0 + 1 : 0;
        size_t hit = rows;
        for (size_t i = r + found; i < rows; i++) {
            const uint64_t *row = M + i * stride;
            unsigned b = bit(row, j);
            if (any) {
                uint64_t acc = 0;
                for (size_t q = 0; q < nq; q++)
                    acc ^= row[w0 + q] & colm[q];
                b ^= (unsigned)__builtin_parityll((unsigned long long)acc);
            }
            if (b) {
                hit = i;
                break;
            }
        }
        if (hit == rows) { /* no pivot in column j: look further */
            if (!have_u) {
                size_t nw = W - w0 < GF2_SPANW ? W - w0 : GF2_SPANW;
                for (size_t i = r; i < rows; i++)
                    for (size_t q = 0; q < nw; q++)
                        U[q] |= M[i * stride + w0 + q];
                have_u = 1;
            }
            continue;
        }
        uint64_t *p = M + hit * stride;
        /* pivot rows are mutually reduced: xoring one leaves p's bits on
         * the other pivot columns alone, so the tests below do not interact */
        uint64_t sel = 0;
        for (unsigned q = 0, lo = 0; q < nq; lo += pcn[q++])
            if (pcn[q])
                sel |= take_bits(p[w0 + q], pcm[q]) << lo;
        /* with ext: a row is nonzero only on words [w0, ext) and the last */
        while (sel) {
            unsigned l = (unsigned)__builtin_ctzll((unsigned long long)sel);
            sel &= sel - 1;
            const uint64_t *src = M + (r + l) * stride;
            size_t e = ext ? ext[r + l] : W;
            if (e > w0)
                xor_row(p + w0, src + w0, e - w0);
            if (ext) {
                p[W - 1] ^= src[W - 1];
                ext[hit] = ext[hit] > e ? ext[hit] : e;
            }
        }
        uint64_t *dst = M + (r + found) * stride;
        if (hit != r + found) {
            size_t e = !ext ? W : ext[hit] > ext[r + found] ? ext[hit] : ext[r + found];
            if (e > w0)
                swap_rows(dst + w0, p + w0, e - w0);
            if (ext) {
                swap_rows(dst + W - 1, p + W - 1, 1);
                size_t t = ext[hit];
                ext[hit] = ext[r + found];
                ext[r + found] = t;
            }
            if (perm) {
                size_t t = perm[hit];
                perm[hit] = perm[r + found];
                perm[r + found] = t;
            }
            size_t t = lead[hit];
            lead[hit] = lead[r + found];
            lead[r + found] = t;
        }
        size_t ng = SIZE_MAX; /* dst's nonzero groups, once one row needs them */
        size_t de = ext ? ext[r + found] : W, dn = de > w0 ? de - w0 : 0;
        for (uint64_t m = hasj; m; m &= m - 1) { /* the pivot rows are unchanged since */
            unsigned l = (unsigned)__builtin_ctzll((unsigned long long)m);
            uint64_t *q = M + (r + l) * stride;
            if (ng == SIZE_MAX)
                ng = nonzero_groups(dst + w0, dn, grp);
            xor_groups(q + w0, dst + w0, dn, grp, ng);
            if (ext) {
                q[W - 1] ^= dst[W - 1];
                ext[r + l] = ext[r + l] > de ? ext[r + l] : de;
            }
        }
        /* Tr past j: the new pivot row's bits, and the rows of hasj got them */
        uint64_t upd = hasj | (uint64_t)1 << found;
        for (size_t col = j + 1; col < hz; col = (col | 63) + 1) {
            uint64_t x = dst[col >> 6] & (~(uint64_t)0 << (col & 63));
            if ((col | 63) >= hz) /* hz is inside this word */
                x &= ~(~(uint64_t)0 << (hz & 63));
            for (; x; x &= x - 1)
                Tr[(col & ~(size_t)63) + (size_t)__builtin_ctzll(x) - w0 * 64] ^= upd;
        }
        pcm[(j >> 6) - w0] |= (uint64_t)1 << (j & 63);
        pcn[(j >> 6) - w0]++;
        pc[found++] = j;
    }
    *next = j;
    return found;
}

/* Byte lookup tables gathering a row's bits on the block's pivot columns
 * (a software pext): for each byte of the window holding pivot columns,
 * lut[b][v] places the pivot bits of byte value v at their pivot indices.
 * Returns the number of such bytes; pos[] gets their byte offsets. */
static unsigned build_gather(const size_t *pc, unsigned kbar, size_t w0, uint64_t (*lut)[256],
                             unsigned *pos)
{
    uint8_t pm[GF2_LUTB] = {0};
    for (unsigned l = 0; l < kbar; l++) {
        size_t o = pc[l] - w0 * 64;
        pm[o >> 3] |= (uint8_t)(1u << (o & 7));
    }
    unsigned nb = 0, base = 0;
    for (unsigned b = 0; b < GF2_LUTB; b++) {
        if (!pm[b])
            continue;
        uint64_t *t = lut[nb];
        t[0] = 0;
        for (unsigned v = 1; v < 256; v++) {
            unsigned low = v & (0u - v);
            uint64_t add = (pm[b] & low)
                ? (uint64_t)1 << (base + (unsigned)__builtin_popcount(pm[b] & (low - 1)))
                : 0;
            t[v] = t[v & (v - 1)] | add;
        }
        base += (unsigned)__builtin_popcount(pm[b]);
        pos[nb++] = b;
    }
    return nb;
}

/* ---- threads ------------------------------------------------------------ */

/* Threads worth using on a rows x W matrix: one below about 256 KiB (the
 * hand-off costs more than it saves), else at most one per 8-word column
 * chunk. The pool is created per call, never shared (no global state). */
static unsigned useful_threads(size_t rows, size_t W, unsigned threads)
{
    if (threads <= 1 || (uint64_t)rows * W < ((uint64_t)1 << 15))
        return 1;
    size_t chunks = (W + 7) / 8;
    unsigned t = threads > GF2_MAX_THREADS ? GF2_MAX_THREADS : threads;
    return chunks < t ? (unsigned)chunks : t;
}

/* A block's pass runs on the pool from GF2_PAR_MIN_WORDS live words over
 * its active rows (below, the hand-off costs more than it saves; measured,
 * docs/gf2.md), split by rows; by columns only when the active rows are
 * fewer than GF2_COLS_MAX_ROWS per thread (too few to share) and there are
 * GF2_COLS_MIN_WORDS live words per thread: a column split makes every
 * thread visit every row and costs a join between the index and the pass,
 * and on 2 threads it ran 2 to 3x slower than the row split from 2048
 * rows up, 1.14x at 1024 (docs/gf2.md, "ninth round"). Runs of live
 * words closer than GF2_RUN_GAP words are merged (a run costs a visit of
 * every active row). */
#define GF2_PAR_MIN_WORDS ((uint64_t)1 << 12)
#define GF2_COLS_MIN_WORDS 8
#define GF2_COLS_MAX_ROWS 256
#define GF2_RUN_GAP 2
/* The plain form sweeps twice when its rows' nonzero spans average at most
 * 1 / GF2_BAND_RATIO of the width (rref_plain). */
#define GF2_BAND_RATIO 4

/* [lo, hi) of n items for thread t of nt, in multiples of `align`. */
static void split(size_t n, unsigned t, unsigned nt, size_t align, size_t *lo, size_t *hi)
{
    size_t chunk = (n + nt - 1) / nt;
    chunk = (chunk + align - 1) / align * align;
    size_t a = (size_t)t * chunk;
    *lo = a < n ? a : n;
    *hi = a + chunk < n ? a + chunk : n;
}

/* ---- the plain Four-Russians Gauss-Jordan ------------------------------- */

typedef struct plain_job {
    pass_args a;      /* the block's pass; tab, rows and words per thread */
    uint64_t **tabs;  /* one table set per thread */
    pass_fn pass;
    /* index phase */
    int gaps;
    unsigned nb, kk, nt;
    const unsigned *pos;
    uint64_t (*lut)[256];
    const size_t *pc;
    size_t *lead;     /* per row: a lower bound on its first nonzero word */
    /* the forward sweep (fwd): a row that gets pivot rows may then be
     * nonzero up to their bound ext_piv (rref_plain) */
    size_t *ext, ext_piv;
    int fwd;
    uint64_t *acc;    /* W words of scratch (plain_work) */
    /* the work (docs/gf2.md, "Threads"): rows [ra, rb) may hold the block's
     * pivot columns; the pivot rows are nonzero only on the word runs
     * [runs[2q], runs[2q + 1]), nlive words in all */
    size_t ra, rb, nruns, nlive;
    size_t *runs;
    unsigned T;       /* table sets: threads t >= T of a larger pool stay idle */
} plain_job;

/* The table indices of rows [lo, hi). */
static void index_range(plain_job *j, size_t lo, size_t hi)
{
    const pass_args *a = &j->a;
    size_t wl = j->pc[a->kbar - 1] >> 6; /* the last word holding a pivot column */
    for (size_t i = lo; i < hi; i++) {
        const uint64_t *row = a->M + i * a->stride;
        uint64_t x = 0;
        if ((i >= a->skip_lo && i < a->skip_hi) || j->lead[i] > wl)
            x = 0; /* a pivot row, or zero on every pivot column: not read */
        else if (!j->gaps)
            x = window(row, j->pc[0], a->kbar);
        else
            for (unsigned b = 0; b < j->nb; b++)
                x |= j->lut[b][(uint8_t)(row[a->w0 + j->pos[b] / 8] >> (j->pos[b] % 8 * 8))];
        /* row i gets pivot rows, which are zero left of word w0. (Not needed
         * for the skip: x != 0 means a pivot column at word >= lead[i], so
         * the next block starts at that word or later; kept as the plain
         * lower bound.) */
        if (x && j->lead[i] > a->w0)
            j->lead[i] = a->w0;
        if (x && j->fwd && j->ext[i] < j->ext_piv)
            j->ext[i] = j->ext_piv;
        uint8_t *d = (uint8_t *)a->idx + i * GF2_MAXT;
        for (unsigned q = 0; q < GF2_MAXT; q++) {
            d[q] = q < j->nt ? (uint8_t)(x & (((uint64_t)1 << j->kk) - 1)) : 0;
            x >>= j->kk;
        }
    }
}

/* Rows [lo, hi) of the live words [off, off + n) (counted along the runs). */
static void pass_live(const plain_job *j, pass_args a, size_t off, size_t n)
{
    if (j->nruns > 1 && off == 0 && n == j->nlive && n <= a.strip) {
        a.runs = j->runs; /* all of them: one visit per row */
        a.nruns = j->nruns;
        j->pass(&a);
        return;
    }
    for (size_t q = 0, at = 0; q < j->nruns && n; q++) {
        size_t len = j->runs[2 * q + 1] - j->runs[2 * q];
        if (off >= at + len) {
            at += len;
            continue;
        }
        size_t s = off - at, e = s + n < len ? s + n : len;
        a.w0 = j->runs[2 * q] + s;
        a.W = j->runs[2 * q] + e;
        j->pass(&a);
        n -= e - s;
        off += e - s;
        at += len;
    }
}

/* The block's work (j->a, pc and lead set): the runs of words where a pivot
 * row is nonzero (xoring zero words changes nothing; on a banded matrix
 * they are a few words by the diagonal and the right-hand side) and the
 * rows before `rows` that may hold a pivot column (lead at most the last
 * pivot word: below a band, none). */
static void plain_work(plain_job *j, size_t rows, size_t hi, const size_t *fw, size_t nfw)
{
    const pass_args *a = &j->a;
    size_t *runs = j->runs, nr = 0, live = 0, w0 = a->w0;
    /* acc: the OR of the pivot rows on words [w0, hi), the words fw[] and
     * the last one (zero elsewhere) */
    uint64_t *acc = j->acc;
    size_t n = hi > w0 ? hi - w0 : 0, q0 = 0; /* fw ascends: past [w0, hi) from q0 */
    while (q0 < nfw && fw[q0] < w0 + n)
        q0++;
    memset(acc + w0, 0, (a->W - w0) * sizeof *acc);
    for (unsigned l = 0; l < a->kbar; l++) {
        const uint64_t *row = a->piv + l * a->stride;
        for (size_t w = 0; w < n; w++)
            acc[w0 + w] |= row[w0 + w];
        for (size_t q = q0; q < nfw; q++)
            acc[fw[q]] |= row[fw[q]];
        acc[a->W - 1] |= row[a->W - 1];
    }
    for (size_t w = w0; w < a->W; w++) {
        if (!acc[w])
            continue;
        if (nr && w - runs[2 * nr - 1] < GF2_RUN_GAP) {
            live += w + 1 - runs[2 * nr - 1];
            runs[2 * nr - 1] = w + 1;
        } else {
            runs[2 * nr] = w;
            runs[2 * nr + 1] = w + 1;
            nr++;
            live++;
        }
    }
    j->nruns = nr;
    j->nlive = live;
    size_t wl = j->pc[a->kbar - 1] >> 6, ra = 0, rb = rows;
    while (ra < rows && j->lead[ra] > wl)
        ra++;
    while (rb > ra && j->lead[rb - 1] > wl)
        rb--;
    j->ra = ra;
    j->rb = rb;
}

/* A pool may have more threads than the job has table sets (an inner
 * elimination of the recursive form): the job runs on its first j->T
 * threads only; false for the others. */
static bool job_takes(const plain_job *j, unsigned t, unsigned *nt)
{
    if (*nt > j->T)
        *nt = j->T;
    return t < *nt;
}

/* Blocks with few active rows (under GF2_COLS_MAX_ROWS a thread) and
 * enough live words: the indices by row ranges, then (pass_cols, after a
 * join) the pass by ranges of the live words, each thread on every active
 * row. */
static void index_rows(void *ctx, unsigned t, unsigned nt)
{
    plain_job *j = ctx;
    if (!job_takes(j, t, &nt))
        return;
    size_t lo, hi;
    split(j->rb - j->ra, t, nt, 64, &lo, &hi);
    index_range(j, j->ra + lo, j->ra + hi);
}

static void pass_cols(void *ctx, unsigned t, unsigned nt)
{
    plain_job *j = ctx;
    if (!job_takes(j, t, &nt))
        return;
    pass_args a = j->a;
    size_t lo, hi;
    split(j->nlive, t, nt, 2, &lo, &hi);
    if (lo >= hi)
        return;
    a.r_lo = j->ra;
    a.r_hi = j->rb;
    a.tab = j->tabs[t];
    pass_live(j, a, lo, hi - lo);
}

/* Every other block (most of them: GF2_COLS_MAX_ROWS active rows a thread
 * or more, or few live words): each thread indexes and updates its own
 * range of the active rows on every live word, with its own tables; one
 * hand-off per block, no join between the phases (a row's indices are
 * read only by its own thread). */
static void pass_rows(void *ctx, unsigned t, unsigned nt)
{
    plain_job *j = ctx;
    if (!job_takes(j, t, &nt))
        return;
    pass_args a = j->a;
    size_t lo, hi;
    split(j->rb - j->ra, t, nt, 8, &lo, &hi);
    if (lo >= hi)
        return;
    index_range(j, j->ra + lo, j->ra + hi);
    a.r_lo = j->ra + lo;
    a.r_hi = j->ra + hi;
    a.tab = j->tabs[t];
    pass_live(j, a, 0, j->nlive);
}

/* Words of one thread's tables under plan p. */
static uint64_t plan_words(const plan *p) { return ((uint64_t)p->nt << p->k) * p->strip; }

static uint64_t plain_bytes(size_t rows, size_t W, unsigned threads)
{
    plan p, q;
    choose_plan(rows, W, rows, &p);
    uint64_t tw = plan_words(&p);
    /* a banded matrix's plan (fewer bits a table, maybe wider strips) */
    for (size_t active = 64; active < rows; active *= 2) {
        choose_plan(rows, W, active, &q);
        tw = plan_words(&q) > tw ? plan_words(&q) : tw;
    }
    unsigned T = useful_threads(rows, W, threads);
    return T * (tw * 8 + 64) + (uint64_t)rows * (GF2_MAXT + 2 * sizeof(size_t) + 1) +
           (uint64_t)(W + 1) * 3 * sizeof(size_t) + (uint64_t)W * (8 + sizeof(size_t)) +
           GF2_LUTB * 256 * 8 + 64;
}

/* Row's first nonzero word (W: none) and 1 + its last nonzero word left of
 * the last word (0: none), in one pass of 8-word ORs (on a banded matrix
 * every word of the row is read: the caller's copy costs as much). */
static void row_extent(const uint64_t *row, size_t W, size_t *lead, size_t *ext)
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

/* row_extent's lead from a given one (toggle__gf2_rref_rows): from the last
 * word on, the last word says which */
static inline size_t given_lead(const uint64_t *row, size_t W, size_t lead)
{
    return lead < W - 1 ? lead : row[W - 1] ? W - 1 : W;
}

/* Whether the rows' nonzero spans (first to last word, the last word left
 * out) average at most 1 / GF2_BAND_RATIO of the width, on up to 64 evenly
 * spaced rows; *words (may be NULL) gets that average, rounded up. */
static bool banded_rows(const uint64_t *M, size_t rows, size_t W, size_t stride, size_t *words)
{
    if (words)
        *words = W;
    if (W < 2)
        return false;
    size_t step = (rows + 63) / 64, n = 0;
    uint64_t span = 0;
    for (size_t i = 0; i < rows; i += step, n++) {
        size_t lead, ext;
        row_extent(M + i * stride, W, &lead, &ext);
        span += ext > lead ? ext - lead : 0;
    }
    if (words)
        *words = (size_t)((span + n - 1) / n);
    return span * GF2_BAND_RATIO <= (uint64_t)n * (W - 1);
}

/* What every block of one plain elimination shares. */
typedef struct plain_ctx {
    uint64_t *M;
    size_t stride, rows, W;
    plan p;
    unsigned T;
    pass_fn pass;
    uint64_t *tabs[GF2_MAX_THREADS];
    uint8_t *idx;
    size_t *lead, *ext, *runs;
    size_t *fw;       /* the words holding free columns (backward sweep) */
    size_t *last;     /* rref_plain: the rows a forward block may pass end
                       * before last[its last pivot word] */
    uint64_t *acc;
    uint64_t (*lut)[256]; /* allocated at the first block with gaps */
    uint8_t *blk;         /* blk[e]: pivots of the forward block ending at row e */
    unsigned pos[GF2_LUTB];
} plain_ctx;

/* The pass of the kbar pivot rows from row r (columns pc, reduced among
 * themselves on them; zero left of word w0) over every row before `end`
 * that may hold one of their columns: tables, gather, live words and rows
 * (the caller then narrows [ra, rb)). */
static int plain_block(plain_ctx *x, plain_job *j, size_t r, unsigned kbar, const size_t *pc,
                       size_t w0, size_t hi, size_t nfw, size_t end)
{
    unsigned nt = (kbar + x->p.k - 1) / x->p.k, nb = 0;
    int gaps = pc[kbar - 1] - pc[0] != kbar - 1;
    if (gaps) {
        if (!x->lut && !(x->lut = toggle__malloc_array(GF2_LUTB, sizeof *x->lut)))
            return TOGGLE_ENOMEM;
        nb = build_gather(pc, kbar, w0, x->lut, x->pos);
    }
    *j = (plain_job){
        .a = {.M = x->M, .stride = x->stride, .rows = x->rows, .skip_lo = r, .skip_hi = r + kbar,
              .r_lo = 0, .r_hi = x->rows, .w0 = w0, .W = x->W, .piv = x->M + r * x->stride,
              .k = x->p.k, .nt = nt, .kbar = kbar, .strip = x->p.strip, .tab = x->tabs[0],
              .idx = x->idx},
        .tabs = x->tabs, .pass = x->pass, .gaps = gaps, .nb = nb, .kk = x->p.k, .nt = nt,
        .pos = x->pos, .lut = x->lut, .pc = pc, .lead = x->lead, .ext = x->ext,
        .runs = x->runs, .acc = x->acc, .T = x->T,
    };
    plain_work(j, end < x->rows ? end : x->rows, hi, x->fw, nfw);
    return TOGGLE_OK;
}

/* Rows [ra, rb) of the block's pass; on the pool when it is big enough
 * (a hand-off costs microseconds). */
static void plain_pass(plain_job *j, toggle__pool *pool)
{
    if (j->ra >= j->rb)
        return;
    unsigned T = j->T;
    int par = T > 1 && (uint64_t)(j->rb - j->ra) * j->nlive >= GF2_PAR_MIN_WORDS;
    if (par && j->nlive >= (size_t)GF2_COLS_MIN_WORDS * T &&
        j->rb - j->ra < (size_t)GF2_COLS_MAX_ROWS * T) {
        toggle__pool_run(pool, index_rows, j);
        toggle__pool_run(pool, pass_cols, j);
    } else {
        toggle__pool_run(par ? pool : NULL, pass_rows, j);
    }
}

/* The first row of [0, n) whose ext (made a running maximum) exceeds w,
 * n when none does. */
static size_t first_past(const size_t *ext, size_t n, size_t w)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ext[mid] > w)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* One plain elimination's workspace for a rows x W matrix (two: banded,
 * span its rows' average span in words; T table sets; lut: the gather
 * tables now, where a block would take them at its first gaps). Allocates
 * only: plain_setup reads the matrix. Returns TOGGLE_OK, TOGGLE_EOVERFLOW
 * (nothing allocated) or TOGGLE_ENOMEM (plain_free frees what was). */
static int plain_alloc(plain_ctx *x, uint64_t *M, size_t rows, size_t W, size_t stride, int two,
                       size_t span, unsigned T, bool lut)
{
    *x = (plain_ctx){.M = M, .stride = stride, .rows = rows, .W = W, .T = T,
                     .pass = TOGGLE__PICK(pass)};
    /* a banded block's pass updates about a band of rows (as many as a row
     * spans columns, below it in the forward sweep, above it in the
     * backward one): the plan's tables follow that */
    choose_plan(rows, W, two ? (span + 1) * 64 : rows, &x->p);
    size_t trows = (size_t)x->p.nt << x->p.k, tabw, idxb;
    if (!toggle__mul_ok(trows, x->p.strip, &tabw) || !toggle__mul_ok(rows, GF2_MAXT, &idxb))
        return TOGGLE_EOVERFLOW;
    x->idx = toggle__calloc(idxb, 1);
    x->lead = toggle__malloc_array(rows, sizeof *x->lead);
    x->ext = toggle__malloc_array(rows, sizeof *x->ext);
    x->runs = toggle__malloc_array(W + 1, 2 * sizeof *x->runs);
    x->acc = toggle__malloc_array(W, sizeof *x->acc);
    x->fw = toggle__malloc_array(W, sizeof *x->fw);
    x->last = toggle__calloc(W + 1, sizeof *x->last);
    x->blk = toggle__malloc(rows);
    if (lut)
        x->lut = toggle__malloc_array(GF2_LUTB, sizeof *x->lut);
    int rc = x->idx && x->lead && x->ext && x->runs && x->acc && x->fw && x->last && x->blk &&
             (x->lut || !lut) ? TOGGLE_OK : TOGGLE_ENOMEM;
    for (unsigned t = 0; t < T && !rc; t++)
        if (!(x->tabs[t] = toggle__malloc_lines(tabw, sizeof(uint64_t))))
            rc = TOGGLE_ENOMEM;
    return rc;
}

static void plain_free(plain_ctx *x)
{
    for (unsigned t = 0; t < x->T; t++)
        toggle__free(x->tabs[t]);
    toggle__free(x->idx);
    toggle__free(x->lead);
    toggle__free(x->ext);
    toggle__free(x->runs);
    toggle__free(x->acc);
    toggle__free(x->fw);
    toggle__free(x->last);
    toggle__free(x->lut);
    toggle__free(x->blk);
}

/* The rows' bounds, read from the matrix (have: lead and, for two sweeps,
 * ext already hold them), and last[]. */
static void plain_setup(plain_ctx *x, int two, bool have)
{
    /* lead[i]: a lower bound on row i's first nonzero word (W: none); rows
     * that are zero on a block's pivot columns are then skipped unread */
    for (size_t i = 0; i < x->rows && !have; i++) {
        const uint64_t *row = x->M + i * x->stride;
        if (two) {
            row_extent(row, x->W, &x->lead[i], &x->ext[i]);
            continue;
        }
        size_t w = 0;
        while (w < x->W && !row[w])
            w++;
        x->lead[i] = w;
    }
    /* last[w]: 1 + the last row whose first word, as read, is at most w (a
     * running maximum). A forward block whose pivot columns end at word w
     * passes no row from last[w] on: the blocks' last words ascend, so every
     * pass and swap so far stayed before it (a swapped-in pivot row held the
     * column's bit, so it came before last[w]) and the rows from it on are
     * as read */
    for (size_t i = 0; i < x->rows; i++)
        if (x->lead[i] < x->W)
            x->last[x->lead[i]] = i + 1;
    for (size_t w = 1; w <= x->W; w++)
        if (x->last[w] < x->last[w - 1])
            x->last[w] = x->last[w - 1];
}

/* The forward sweep over columns [r0, cmax) from row r0 (rows r0.. zero
 * on the columns before; rref_plain: one top-down sweep unless two):
 * *rank gets the pivot rows, r0 and those found. strict (rref_twisted): stop
 * at the first column without a pivot (then *rank < cmax); stop (may be
 * NULL) is polled once per block, and set when strict stops. The progress
 * callback is told c of units. Returns TOGGLE_OK or TOGGLE_ENOMEM (*cancel:
 * the callback's verdict). */
static int plain_forward(plain_ctx *x, int two, size_t r0, size_t cmax, size_t *pivots,
                         size_t *perm, toggle__pool *pool, const toggle__progress_state *pr,
                         uint64_t units, bool strict, atomic_int *stop, size_t *rank,
                         int *cancel)
{
    unsigned Kmax = x->p.k * x->p.nt;
    size_t r = r0, c = r0, W = x->W;
    int rc = TOGGLE_OK;
    while (r < x->rows && c < cmax) {
        if (pr && (*cancel = toggle__progress(pr, c, units)))
            break;
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            break;
        size_t next, *pc = pivots + r;
        unsigned kbar = find_pivots(x->M, x->stride, x->rows, r, c, Kmax, W, cmax, pc, &next,
                                    perm, x->lead, two ? x->ext : NULL,
                                    x->runs /* free until plain_work */);
        if (strict && (kbar == 0 || pc[0] != c || pc[kbar - 1] - c != kbar - 1)) {
            if (stop)
                atomic_store_explicit(stop, 1, memory_order_relaxed);
            break; /* a column without a pivot */
        }
        if (kbar > 0) {
            /* rows r.. are zero left of column c: the pivot rows, combined
             * among themselves, start at word c / 64 or later and end by
             * the last of their bounds */
            size_t e = W; /* ext is kept for two sweeps only */
            for (unsigned l = 0; l < kbar; l++)
                x->lead[r + l] = c >> 6;
            if (two) {
                e = 0;
                for (unsigned l = 0; l < kbar; l++)
                    e = x->ext[r + l] > e ? x->ext[r + l] : e;
                for (unsigned l = 0; l < kbar; l++)
                    x->ext[r + l] = e;
            }
            x->blk[r + kbar - 1] = (uint8_t)kbar;
            plain_job j;
            size_t end = x->last[pc[kbar - 1] >> 6];
            if ((rc = plain_block(x, &j, r, kbar, pc, c >> 6, e, 0, end)))
                break;
            j.fwd = two;
            j.ext_piv = e;
            if (two && j.ra < r + kbar)
                j.ra = r + kbar;
            plain_pass(&j, pool);
        }
        r += kbar;
        c = next;
    }
    *rank = r;
    return rc;
}

/* Back substitution on a forward sweep's echelon form with a pivot on
 * every column of [0, n): row i (the pivot of column i) is zero left of
 * word i / 64 and holds words [i / 64, ext[i]) and the last (W - 1), whose
 * bit `rhs` is its right-hand side. xb holds x_j for the columns past n
 * that the rows reach; x_i, i < n, are set in it. */
static void echelon_solve(const uint64_t *M, size_t stride, size_t W, const size_t *ext,
                          size_t n, uint64_t rhs, uint64_t *xb)
{
    size_t Wx = W - 1;
    for (size_t i = n; i-- > 0;) {
        const uint64_t *row = M + i * stride;
        uint64_t acc = row[Wx] & xb[Wx];
        for (size_t w = i >> 6; w < ext[i]; w++)
            acc ^= row[w] & xb[w];
        if (((row[Wx] & rhs) != 0) != __builtin_parityll((unsigned long long)acc))
            xb[i >> 6] |= (uint64_t)1 << (i & 63);
    }
}

/* Row i of the reduced form [I | x] of a full-rank square system: its pivot
 * bit and x_i (xi) in the last word, once words [lead, ext) are cleared
 * (the row is zero elsewhere but on the last word). */
static void identity_row(uint64_t *row, size_t i, size_t W, size_t lead, size_t ext,
                         uint64_t rhs, bool xi)
{
    if (ext > lead)
        memset(row + lead, 0, (ext - lead) * sizeof *row);
    row[W - 1] = xi ? rhs : 0;
    row[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* The forward blocks of an echelon prefix of r0 rows (pivot i on column i)
 * as blk0 marks them (blk0[e]: the pivots of the block ending at row e),
 * cut to at most this plan's pivots a block: the rows of one block are
 * reduced among themselves on its pivot columns, so any run of them is. */
static void plain_blocks(plain_ctx *x, const uint8_t *blk0, size_t r0)
{
    size_t Kmax = (size_t)x->p.k * x->p.nt;
    for (size_t s = 0, e = 0; e < r0; e++) {
        if (!blk0[e])
            continue;
        for (size_t a = s; a <= e; a += Kmax) {
            size_t n = e + 1 - a < Kmax ? e + 1 - a : Kmax;
            x->blk[a + n - 1] = (uint8_t)n;
        }
        s = e + 1;
    }
}

/* RREF of M in place by Four-Russians blocks (docs/gf2.md); perm (may be
 * NULL) mirrors the row swaps. Two sweeps (docs/gf2.md, fourteenth round):
 * the forward one finds every block's pivots and clears their columns
 * below the pivot rows only (an echelon form); the backward one, last block
 * first, clears each block's columns above its pivot rows, whose rows by
 * then are zero on every later pivot column, so it adds only their own
 * columns, the free ones and the right-hand side. The RREF is unique, so
 * this is the RREF a single top-down sweep gives, pivots and swaps
 * included; but on a banded matrix (a Lights Out board) the rows above a
 * block that hold its columns are the band's, not every row above, and
 * they get no fill right of the band. ext[i] bounds row i's last nonzero
 * word left of the last word (1 + its index, 0: none), kept through the
 * forward sweep, so the backward one visits only the rows that reach the
 * block. r0 > 0 (rref_twisted, banded rows): rows [0, r0) are a forward
 * sweep's echelon rows for columns 0 .. r0 - 1, in the blocks blk0 marks,
 * and rows r0.. are zero on those columns; the forward sweep goes on from
 * there. */
static int rref_plain_from(uint64_t *M, size_t rows, size_t cols, size_t stride,
                           size_t *pivots, size_t *rank, size_t *perm, toggle__pool *pool,
                           const toggle__progress_state *pr, size_t r0, const uint8_t *blk0,
                           const size_t *hlead, const size_t *hext)
{
    size_t W = words_for(cols);
    *rank = 0;
    if (rows == 0 || cols == 0)
        return TOGGLE_OK;
    /* two sweeps when the rows span at most 1 / GF2_BAND_RATIO of the
     * width on average (banded, a board); else one top-down sweep, each
     * block clearing its columns above and below at once: on a dense
     * matrix the backward sweep's extra visit of every row above costs more
     * than the words it saves (6 to 18 % slower from 256 to 4096 columns,
     * measured), and the rows are not read whole */
    size_t span = W;
    int two = banded_rows(M, rows, W, stride, &span);
    plain_ctx x;
    int rc = plain_alloc(&x, M, rows, W, stride, two, span,
                         useful_threads(rows, W, toggle__pool_threads(pool)), false);
    if (rc == TOGGLE_EOVERFLOW)
        return toggle__error(TOGGLE_EOVERFLOW, "GF(2) workspace overflows size_t");
    int cancel = TOGGLE_OK; /* the progress callback's verdict, once per pivot block */
    uint64_t units = (two ? 2 : 1) * (uint64_t)cols; /* progress: the sweeps' columns */
    size_t r = 0, Wx = W - 1;
    if (!rc) {
        bool have = hlead && hext; /* the rows' bounds as given (toggle__gf2_rref_rows) */
        for (size_t i = 0; have && i < rows; i++) {
            x.lead[i] = given_lead(M + i * stride, W, hlead[i]);
            x.ext[i] = hext[i];
        }
        plain_setup(&x, two, have);
        r0 = two ? r0 : 0; /* one sweep clears above too: not from an echelon prefix */
        for (size_t i = 0; i < r0; i++)
            pivots[i] = i;
        plain_blocks(&x, blk0, r0);
        rc = plain_forward(&x, two, r0, cols, pivots, perm, pool, pr, units, false, NULL, &r,
                           &cancel);
    }
    *rank = r;
    /* No free column (a full-rank board): the reduced form is [I | x] on
     * the rank rows, so x is read off the echelon form by back substitution
     * (row i is zero left of column i and holds words [i / 64, ext[i]) and
     * the last), then each row is rewritten as its pivot bit and x_i; the
     * backward sweep's blocks would build their tables for the same rows
     * (docs/gf2.md, fifteenth round). Rows past the rank are zero. */
    int back = two; /* the backward sweep to come */
    if (two && !rc && !cancel && r > 0 && r + 1 == cols && pivots[r - 1] == r - 1) {
        uint64_t *xb = x.acc, rhs = (uint64_t)1 << (r & 63); /* x_j: bit j of xb */
        memset(xb, 0, W * sizeof *xb);
        echelon_solve(M, stride, W, x.ext, r, rhs, xb);
        for (size_t i = 0; i < r; i++)
            identity_row(M + i * stride, i, W, i >> 6, x.ext[i], rhs, (xb[i >> 6] >> (i & 63)) & 1);
        back = 0;
    }
    /* the backward sweep: ext as a running maximum, so the rows that reach
     * word w start at first_past(ext, ., w) */
    for (size_t i = 1; back && i < r && !rc; i++)
        if (x.ext[i] < x.ext[i - 1])
            x.ext[i] = x.ext[i - 1];
    /* a block's pivot rows then hold words [w0, ext) (their bound from the
     * forward sweep), free columns (from later blocks) and the last word */
    size_t nfw = 0;
    if (back && !rc) {
        memset(x.acc, 0, W * sizeof *x.acc);
        for (size_t i = 0; i < r; i++)
            x.acc[pivots[i] >> 6] |= (uint64_t)1 << (pivots[i] & 63);
        for (size_t w = 0; w + 1 < W; w++)
            if (~x.acc[w])
                x.fw[nfw++] = w;
    }
    for (size_t end = back ? r : 0; !rc && !cancel && end > 0;) {
        unsigned kbar = x.blk[end - 1];
        size_t s = end - kbar, *pc = pivots + s, w0 = pc[0] >> 6;
        end = s;
        if (s == 0)
            break;
        if (pr && (cancel = toggle__progress(pr, units - pc[0], units)))
            break;
        plain_job j;
        if ((rc = plain_block(&x, &j, s, kbar, pc, w0, x.ext[s + kbar - 1], nfw, s)))
            break;
        /* a row above holds one of these columns only if it did after the
         * forward sweep (later blocks add only free columns): ext reaches w0 */
        size_t lo = pc[kbar - 1] >> 6 < Wx ? first_past(x.ext, s, w0) : 0;
        if (j.ra < lo)
            j.ra = lo;
        plain_pass(&j, pool);
    }
    plain_free(&x);
    if (rc)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) elimination tables");
    return cancel;
}

static int rref_plain(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                      size_t *rank, size_t *perm, toggle__pool *pool,
                      const toggle__progress_state *pr)
{
    return rref_plain_from(M, rows, cols, stride, pivots, rank, perm, pool, pr, 0, NULL, NULL,
                           NULL);
}

/* ---- the plain form on two threads: a banded square system from both ends */

/* A full-rank banded square system [A | b] on two threads (docs/gf2.md,
 * "sixteenth round"): the rows split into a top T (every row with a column
 * left of word a), a bottom B (every row with a column from word bw on)
 * and the rows between, none in both. The caller eliminates T's columns
 * [0, 64 a) top-down in place while a second thread eliminates B's columns
 * [64 bw, N) bottom-up, as a top-down sweep of R, B with its rows and
 * columns reversed, written over B's rows (a copy faulted in 3 MB of fresh
 * pages a solve on the 100 x 100 board, a third of the sweep's time); the
 * rows left (T's and R's past their pivots, and those between) form a
 * small square system on the middle columns, solved on its own; then each
 * side substitutes back on its echelon form and rewrites its rows as
 * [I | x]. Each sweep passes only its own rows, so they never meet. A
 * column without a pivot (A singular) stops both; R's rows are turned
 * back, and the matrix, changed by row operations only, goes to
 * rref_plain: the RREF of a row-equivalent matrix is the same. Below
 * GF2_TWIST_MIN_ROWS rows the second thread's start costs more than it
 * saves; the middle is at most GF2_TWIST_MID_WORDS words wide. */
#define GF2_TWIST_MIN_ROWS 2048
#define GF2_TWIST_MID_WORDS 16

/* The bit-reversed word. */
static inline uint64_t rev64(uint64_t v)
{
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(v);
}

/* dst (dw words) gets src's columns [lo, hi) ORed in, column j at column
 * D - j (D >= hi - 1, every D - j inside dst). */
static void put_reversed(uint64_t *dst, size_t dw, const uint64_t *src, size_t lo, size_t hi,
                         size_t D)
{
    for (size_t w = lo >> 6; lo < hi && w <= (hi - 1) >> 6; w++) {
        uint64_t v = src[w];
        if (w == lo >> 6)
            v &= ~(uint64_t)0 << (lo & 63);
        if (w == (hi - 1) >> 6 && (hi & 63))
            v &= ~(~(uint64_t)0 << (hi & 63));
        if (!v)
            continue;
        /* column 64 w + u sits at bit 63 - u of rv, bound for D - 64 w - u:
         * rv's bit 0 goes to column s (s >= -63: 64 w <= hi - 1 <= D) */
        uint64_t rv = rev64(v);
        ptrdiff_t s = (ptrdiff_t)D - (ptrdiff_t)(64 * w) - 63;
        if (s < 0) {
            dst[0] |= rv >> -s;
            continue;
        }
        size_t q = (size_t)s >> 6;
        unsigned sh = (unsigned)s & 63;
        dst[q] |= rv << sh;
        if (sh && q + 1 < dw)
            dst[q + 1] |= rv >> (64 - sh);
    }
}

typedef struct twist_job {
    uint64_t *M, *R, *xb, *xr, *tmp; /* R: M's row bb on; tmp: 2 W zero words */
    size_t stride, N, W, Rw, a, bw, t, bb;
    uint64_t rhs;
    size_t *lead, *ext, *fa, *la; /* per row of M, as read (fa, la: A's words) */
    double ns[2];                 /* each share's time for its half of the extents */
    plain_ctx top, bot;
    size_t *tpiv, *bpiv, rtop, rbot;
    atomic_int stop;
    int rc_top, rc_bot, cancel;
    const toggle__progress_state *pr;
    uint64_t units;
} twist_job;

/* The rows' bounds, half on each share, timed: the split weighs each
 * side's work by its share's speed here (twist_split). */
static void twist_extents(void *ctx, unsigned t, unsigned nt)
{
    twist_job *j = ctx;
    size_t lo, hi, Wx = j->W - 1;
    nt = nt > 2 ? 2 : nt;
    if (t >= nt)
        return;
    split(j->N, t, nt, 64, &lo, &hi);
    uint64_t t0 = toggle__clock_ns();
    for (size_t i = lo; i < hi; i++) {
        const uint64_t *row = j->M + i * j->stride;
        row_extent(row, j->W, &j->lead[i], &j->ext[i]);
        bool tail = (row[Wx] & ~j->rhs) != 0; /* A's columns in the last word */
        j->fa[i] = j->lead[i] < Wx ? j->lead[i] : tail ? Wx : SIZE_MAX;
        j->la[i] = tail ? Wx : j->ext[i] ? j->ext[i] - 1 : SIZE_MAX;
    }
    j->ns[t] = (double)(toggle__clock_ns() - t0) / (double)(hi > lo ? hi - lo : 1);
}

/* M's row i moved to tmp (its words fa .. la and the last; zero after). */
static void twist_take(const twist_job *j, uint64_t *tmp, uint64_t *row, size_t i)
{
    size_t Wx = j->W - 1, n = j->la[i] + 1 - j->fa[i];
    if (j->la[i] < Wx) {
        tmp[Wx] = row[Wx];
        row[Wx] = 0;
    }
    memcpy(tmp + j->fa[i], row + j->fa[i], n * sizeof *row);
    memset(row + j->fa[i], 0, n * sizeof *row);
}

/* R's row q (zero) from M's row i in tmp, which is left zero. */
static void twist_put(twist_job *j, uint64_t *tmp, size_t i, size_t q)
{
    size_t N = j->N, Rx = j->Rw - 1, rc = N - 64 * j->a, Wx = j->W - 1;
    size_t lo = 64 * j->fa[i], hi = 64 * j->la[i] + 64;
    uint64_t *dst = j->R + q * j->stride;
    hi = hi < N ? hi : N;
    put_reversed(dst, j->Rw, tmp, lo, hi, N - 1);
    if (tmp[Wx] & j->rhs)
        dst[Rx] |= (uint64_t)1 << (rc & 63);
    memset(tmp + j->fa[i], 0, (j->la[i] + 1 - j->fa[i]) * sizeof *tmp);
    tmp[Wx] = 0;
    /* bounds as row_extent gives them (a lower one and an upper one) */
    size_t f = (N - hi) >> 6, l = (N - 1 - lo) >> 6;
    j->bot.lead[q] = f;
    j->bot.ext[q] = l < Rx ? l + 1 : Rx;
}

/* Share 0: T's sweep; share 1: B into R (row q from M's row N - 1 - q,
 * M's column j < N at column N - 1 - j, the right-hand side at column
 * N - 64 a), then R's sweep. */
static void twist_sweeps(void *ctx, unsigned t, unsigned nt)
{
    twist_job *j = ctx;
    (void)nt;
    if (t == 0) {
        memcpy(j->top.lead, j->lead, j->t * sizeof *j->lead);
        memcpy(j->top.ext, j->ext, j->t * sizeof *j->ext);
        plain_setup(&j->top, 1, true);
        j->rc_top = plain_forward(&j->top, 1, 0, 64 * j->a, j->tpiv, NULL, NULL, j->pr, j->units,
                                  true, &j->stop, &j->rtop, &j->cancel);
        if (j->cancel || j->rc_top)
            atomic_store_explicit(&j->stop, 1, memory_order_relaxed);
        return;
    }
    if (t != 1)
        return;
    size_t N = j->N, nb = N - j->bb;
    uint64_t *ta = j->tmp, *tb = j->tmp + j->W;
    for (size_t q = 0; q < (nb + 1) / 2; q++) { /* rows bb + q and N - 1 - q trade */
        size_t p1 = j->bb + q, p2 = N - 1 - q;
        twist_take(j, ta, j->M + p1 * j->stride, p1);
        if (p2 == p1) {
            twist_put(j, ta, p1, q);
            continue;
        }
        twist_take(j, tb, j->M + p2 * j->stride, p2);
        twist_put(j, tb, p2, q);
        twist_put(j, ta, p1, nb - 1 - q);
    }
    plain_setup(&j->bot, 1, true);
    int cancel = TOGGLE_OK;
    j->rc_bot = plain_forward(&j->bot, 1, 0, N - 64 * j->bw, j->bpiv, NULL, NULL, NULL, 0, true,
                              &j->stop, &j->rbot, &cancel);
    if (j->rc_bot)
        atomic_store_explicit(&j->stop, 1, memory_order_relaxed);
}

/* R's row q, moved to tmp (its words from bot.lead to bot.ext and the
 * last: zero elsewhere), back in M's columns at M's row p; tmp left zero. */
static void twist_unput(twist_job *j, uint64_t *tmp, size_t q, size_t p)
{
    size_t N = j->N, rc = N - 64 * j->a, Rx = j->Rw - 1;
    size_t lo = j->bot.lead[q] < Rx ? j->bot.lead[q] : Rx, ext = j->bot.ext[q];
    uint64_t *row = j->M + p * j->stride;
    if (ext > lo) {
        put_reversed(row, j->W, tmp, 64 * lo, 64 * ext < rc ? 64 * ext : rc, N - 1);
        memset(tmp + lo, 0, (ext - lo) * sizeof *tmp);
    }
    if (64 * Rx < rc)
        put_reversed(row, j->W, tmp, 64 * Rx, rc, N - 1);
    if (tmp[Rx] & ((uint64_t)1 << (rc & 63)))
        row[j->W - 1] |= j->rhs;
    tmp[Rx] = 0;
}

/* R's row q at M's row bb + q into tmp, the row left zero. */
static void twist_untake(twist_job *j, uint64_t *tmp, size_t q)
{
    size_t Rx = j->Rw - 1, lo = j->bot.lead[q] < Rx ? j->bot.lead[q] : Rx, ext = j->bot.ext[q];
    uint64_t *row = j->R + q * j->stride;
    if (ext > lo) {
        memcpy(tmp + lo, row + lo, (ext - lo) * sizeof *tmp);
        memset(row + lo, 0, (ext - lo) * sizeof *row);
    }
    tmp[Rx] = row[Rx];
    row[Rx] = 0;
}

/* R's rows back in M's columns, each at the row it came from (the rows
 * stay in band order for rref_plain; a row of R is row-equivalent to B's
 * rows, not to its source alone, and the RREF does not depend on that). */
static void twist_unreverse(twist_job *j)
{
    size_t N = j->N, nb = N - j->bb;
    uint64_t *ta = j->tmp, *tb = j->tmp + j->W;
    for (size_t q = 0; q < (nb + 1) / 2; q++) {
        size_t q2 = nb - 1 - q; /* at M's rows bb + q and N - 1 - q: they trade */
        twist_untake(j, ta, q);
        if (q2 != q) {
            twist_untake(j, tb, q2);
            twist_unput(j, tb, q2, j->bb + q);
        }
        twist_unput(j, ta, q, N - 1 - q);
    }
}

/* Share 0: T's x by substitution, then T's rows; share 1: R's (in its
 * coordinates), then the rows from t on. xb holds the middle's x. */
static void twist_back(void *ctx, unsigned t, unsigned nt)
{
    twist_job *j = ctx;
    (void)nt;
    size_t N = j->N, mid = 64 * j->bw;
    if (t == 0) {
        echelon_solve(j->M, j->stride, j->W, j->top.ext, 64 * j->a, j->rhs, j->xb);
        for (size_t i = 0; i < j->t; i++)
            identity_row(j->M + i * j->stride, i, j->W, j->top.lead[i], j->top.ext[i], j->rhs,
                         (j->xb[i >> 6] >> (i & 63)) & 1);
        return;
    }
    if (t != 1)
        return;
    uint64_t rrhs = (uint64_t)1 << ((N - 64 * j->a) & 63);
    echelon_solve(j->R, j->stride, j->Rw, j->bot.ext, N - mid, rrhs, j->xr);
    for (size_t i = j->t; i < N; i++) {
        size_t q = N - 1 - i, lead = j->lead[i], ext = j->ext[i];
        bool xi = i < mid ? (j->xb[i >> 6] >> (i & 63)) & 1 : (j->xr[q >> 6] >> (q & 63)) & 1;
        uint64_t *row = j->M + i * j->stride;
        if (i >= j->bb) { /* R's row i - bb */
            lead = j->bot.lead[i - j->bb];
            ext = j->bot.ext[i - j->bb];
            row[j->Rw - 1] = 0;
        }
        identity_row(row, i, j->W, lead, ext, j->rhs, xi);
    }
}

/* The split: words a < bw of the middle, T = rows [0, t), B = rows
 * [bb, N); false when none fits (GF2_TWIST_MID_WORDS, enough rows for
 * each side's pivots). Balances the sides' work. */
static bool twist_split(twist_job *j, size_t *tend, size_t *bst)
{
    size_t N = j->N, WA = (N + 63) / 64;
    /* tend[w]: 1 + the last row with a column left of word w; bst[w]: the
     * first row with a column at word w or later */
    memset(tend, 0, (WA + 1) * sizeof *tend);
    for (size_t w = 0; w <= WA; w++)
        bst[w] = N;
    for (size_t i = 0; i < N; i++) {
        if (j->fa[i] == SIZE_MAX)
            return false; /* a zero row of A: singular */
        if (tend[j->fa[i] + 1] < i + 1)
            tend[j->fa[i] + 1] = i + 1;
        if (bst[j->la[i]] > i)
            bst[j->la[i]] = i;
    }
    for (size_t w = 1; w <= WA; w++)
        tend[w] = tend[w] > tend[w - 1] ? tend[w] : tend[w - 1];
    for (size_t w = WA; w-- > 0;)
        bst[w] = bst[w] < bst[w + 1] ? bst[w] : bst[w + 1];
    /* the second share's time a row over the first's (the two CPUs may
     * differ: 1.5x apart at times on the test machine), within [1/3, 3] */
    double rel = j->ns[0] > 0 && j->ns[1] > 0 ? j->ns[1] / j->ns[0] : 1;
    rel = rel < 1.0 / 3 ? 1.0 / 3 : rel > 3 ? 3 : rel;
    double best = -1;
    for (size_t a = 1; a < WA; a++) {
        if (tend[a] < 64 * a)
            continue; /* fewer rows than T's columns */
        for (size_t b = a + 1; b <= a + GF2_TWIST_MID_WORDS && 64 * b < N; b++) {
            if (bst[b] < tend[a] || bst[b] > 64 * b)
                continue;
            /* R's rows cost their reversal besides their sweep: about an
             * eighth of a column's sweep each (measured on the 100 x 100
             * board: 0.15 ms for the reversal, 1.24 ms for a sweep) */
            double bot = (double)(N - 64 * b + (N - bst[b]) / 8) * rel;
            double cost = (double)(64 * a) > bot ? (double)(64 * a) : bot;
            if (best < 0 || cost < best) {
                best = cost;
                j->a = a;
                j->bw = b;
                j->t = tend[a];
                j->bb = bst[b];
                j->Rw = words_for(N - 64 * a + 1);
            }
            break; /* a wider middle for this a costs more */
        }
    }
    return best >= 0;
}

/* The middle system: T's rows past its pivots, the rows between, R's past
 * its pivots, on columns [64 a, 64 bw); its x into xb and (reversed) xr.
 * Returns TOGGLE_OK (*full: it has full rank) or TOGGLE_ENOMEM. */
static int twist_middle(twist_job *j, unsigned fault, bool *full)
{
    size_t N = j->N, qn = 64 * (j->bw - j->a), Qw = words_for(qn + 1), k = 0, r = 0;
    size_t lo = N - 64 * j->bw, hi = N - 64 * j->a, Wx = j->W - 1;
    uint64_t qrhs = (uint64_t)1 << (qn & 63);
    *full = false;
    uint64_t *Q = toggle__calloc(qn * Qw, sizeof *Q);
    size_t *qp = toggle__malloc_array(qn, sizeof *qp);
    int rc = Q && qp ? TOGGLE_OK : TOGGLE_ENOMEM;
    for (size_t i = 64 * j->a; !rc && i < j->bb; i++, k++) {
        const uint64_t *src = j->M + i * j->stride;
        memcpy(Q + k * Qw, src + j->a, (j->bw - j->a) * sizeof *Q);
        if (src[Wx] & j->rhs)
            Q[k * Qw + Qw - 1] |= qrhs;
    }
    for (size_t q = lo; !rc && q < N - j->bb; q++, k++) {
        const uint64_t *src = j->R + q * j->stride;
        put_reversed(Q + k * Qw, Qw, src, lo, hi, hi - 1);
        if (src[j->Rw - 1] & ((uint64_t)1 << (hi & 63)))
            Q[k * Qw + Qw - 1] |= qrhs;
    }
    if (!rc)
        rc = rref_plain(Q, qn, qn + 1, Qw, qp, &r, NULL, NULL, NULL);
    if (!rc && r == qn && qp[qn - 1] == qn - 1) {
        *full = true;
        for (size_t c = 0; c < qn; c++) {
            bool x = (Q[c * Qw + Qw - 1] & qrhs) != 0;
            if (fault == 6 && c == 0) /* tests only: a wrong middle */
                x = !x;
            size_t m = 64 * j->a + c, q = N - 1 - m;
            j->xb[m >> 6] |= (uint64_t)x << (m & 63);
            j->xr[q >> 6] |= (uint64_t)x << (q & 63);
        }
    }
    toggle__free(Q);
    toggle__free(qp);
    return rc;
}

/* What rref_twisted allocates at most for a rows x W matrix: the rows'
 * bounds, two plain workspaces, the middle system and its elimination's. */
static uint64_t twist_bytes(size_t rows, size_t W)
{
    size_t qn = 64 * GF2_TWIST_MID_WORDS, qw = GF2_TWIST_MID_WORDS + 1;
    return 2 * plain_bytes(rows, W, 1) + (uint64_t)rows * 5 * sizeof(size_t) +
           (uint64_t)(W + 1) * 6 * sizeof(size_t) + (uint64_t)qn * (qw * 8 + sizeof(size_t)) +
           plain_bytes(qn, qw, 1) + 256;
}

/* M's rows are banded (banded_rows: span words on average).
 * *done: M holds the RREF (a square banded system on a pool of two or
 * more: from both ends when A has full rank, else by rref_plain from the
 * top's echelon rows); else M is as it was (rref_plain next). Returns
 * TOGGLE_OK, TOGGLE_ENOMEM or the progress callback's verdict. */
static int rref_twisted(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                        size_t *rank, toggle__pool *pool, const toggle__progress_state *pr,
                        unsigned fault, size_t span, bool *done)
{
    size_t N = rows, W = words_for(cols);
    *done = false;
    if (toggle__pool_threads(pool) < 2 || cols != N + 1 || N < GF2_TWIST_MIN_ROWS)
        return TOGGLE_OK;
    twist_job j = {.M = M, .stride = stride, .N = N, .W = W, .rhs = (uint64_t)1 << (N & 63),
                   .tpiv = pivots, .pr = pr, .units = cols};
    size_t WA = (N + 63) / 64;
    j.lead = toggle__malloc_array(N, sizeof *j.lead);
    j.ext = toggle__malloc_array(N, sizeof *j.ext);
    j.fa = toggle__malloc_array(N, sizeof *j.fa);
    j.la = toggle__malloc_array(N, sizeof *j.la);
    size_t *tend = toggle__malloc_array(WA + 1, sizeof *tend);
    size_t *bst = toggle__malloc_array(WA + 1, sizeof *bst);
    int rc = j.lead && j.ext && j.fa && j.la && tend && bst ? TOGGLE_OK : TOGGLE_ENOMEM;
    bool go = false;
    if (!rc) {
        toggle__pool_run(pool, twist_extents, &j);
        go = twist_split(&j, tend, bst);
    }
    size_t nb = N - j.bb;
    if (!rc && go) {
        atomic_init(&j.stop, 0);
        j.R = M + j.bb * stride;
        j.xb = toggle__calloc(W, sizeof *j.xb);
        j.xr = toggle__calloc(j.Rw, sizeof *j.xr);
        j.tmp = toggle__calloc(W, 2 * sizeof *j.tmp);
        j.bpiv = toggle__malloc_array(nb, sizeof *j.bpiv);
        rc = j.xb && j.xr && j.tmp && j.bpiv ? TOGGLE_OK : TOGGLE_ENOMEM;
        int r1 = rc ? rc : plain_alloc(&j.top, M, j.t, W, stride, 1, span, 1, true);
        int r2 = rc ? rc : plain_alloc(&j.bot, j.R, nb, j.Rw, stride, 1, span, 1, true);
        rc = r1 ? r1 : r2;
    }
    bool full = false, swept = false;
    if (!rc && go) {
        toggle__pool_run(pool, twist_sweeps, &j);
        swept = true;
        rc = j.rc_top ? j.rc_top : j.rc_bot;
        if (!rc && !j.cancel && j.rtop == 64 * j.a && j.rbot == N - 64 * j.bw)
            rc = twist_middle(&j, fault, &full);
    }
    /* singular (or stopped): the top's echelon rows [0, rtop) are kept and
     * rref_plain goes on from them, with R's rows turned back */
    uint8_t *blk = NULL;
    size_t r0 = 0;
    if (!rc && !j.cancel && full) {
        toggle__pool_run(pool, twist_back, &j);
        for (size_t i = 0; i < N; i++)
            pivots[i] = i;
        *rank = N;
        *done = true;
    } else if (swept && !j.cancel) {
        twist_unreverse(&j); /* (after an error M is the caller's to drop) */
        blk = j.top.blk;
        j.top.blk = NULL;
        r0 = j.rtop;
    }
    if (go) {
        plain_free(&j.top);
        plain_free(&j.bot);
    }
    toggle__free(j.xb);
    toggle__free(j.xr);
    toggle__free(j.tmp);
    toggle__free(j.bpiv);
    toggle__free(j.lead);
    toggle__free(j.ext);
    toggle__free(j.fa);
    toggle__free(j.la);
    toggle__free(tend);
    toggle__free(bst);
    if (rc == TOGGLE_EOVERFLOW)
        rc = toggle__error(rc, "GF(2) workspace overflows size_t");
    else if (rc)
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) elimination tables");
    else if (j.cancel)
        rc = j.cancel;
    else if (blk) {
        rc = rref_plain_from(M, rows, cols, stride, pivots, rank, NULL, NULL, pr, r0, blk, NULL,
                             NULL);
        *done = true;
    }
    toggle__free(blk);
    return rc;
}

/* ---- the blocked Gauss-Jordan: panels with one delayed update ----------- */

/* Rows updated by the pivot rows of one panel: every other row x becomes
 * x + sum_l x[p_l] * P_l, where P_l are the reduced pivot rows (identity on
 * the pivot columns p_l). One 8-bit table per byte of the panel that holds
 * pivot columns, indexed by the row's own byte there (its non-pivot bits
 * select nothing), so one pass over each row applies the whole panel. */
typedef struct upd_args {
    uint64_t *M;
    size_t stride, rows, skip_lo, skip_hi; /* rows [skip_lo, skip_hi) are the P_l */
    size_t pw0, pbw;                       /* panel words [pw0, pw0 + pbw) */
    unsigned nb;                           /* bytes of the panel with pivot columns */
    const unsigned *bpos;                  /* their byte offsets in the panel */
    const uint8_t *bmask;                  /* their pivot-column masks */
    const unsigned *bbase;                 /* index of their first pivot row */
    size_t w_lo, w_hi, r_lo, r_hi;         /* this call's words and rows */
    size_t strip;
    uint64_t *tab;                         /* nb * 256 entries of strip words */
} upd_args;

GF2_INLINE void upd_tables(const upd_args *a, size_t ws, size_t n)
{
    const uint64_t *piv = a->M + a->skip_lo * a->stride;
    for (unsigned q = 0; q < a->nb; q++) {
        uint64_t *T = a->tab + ((size_t)q << 8) * a->strip;
        memset(T, 0, n * sizeof *T);
        unsigned m = a->bmask[q];
        size_t prev = 0;
        for (size_t i = 1; i < 256; i++) {
            size_t g = i ^ (i >> 1);
            unsigned b = (unsigned)__builtin_ctzll((unsigned long long)i);
            const uint64_t *restrict pt = T + prev * a->strip;
            uint64_t *restrict dt = T + g * a->strip;
            if ((m >> b) & 1) {
                const uint64_t *restrict src =
                    piv + (a->bbase[q] + (unsigned)__builtin_popcount(m & ((1u << b) - 1))) * a->stride + ws;
                for (size_t w = 0; w < n; w++)
                    dt[w] = pt[w] ^ src[w];
            } else {
                memcpy(dt, pt, n * sizeof *dt);
            }
            prev = g;
        }
    }
}

GF2_INLINE void upd_rows(const upd_args *a, size_t ws, size_t n)
{
    const uint64_t *t[GF2_MAXT];
    for (size_t r = a->r_lo; r < a->r_hi; r++) {
        if (r >= a->skip_lo && r < a->skip_hi) {
            r = a->skip_hi - 1;
            continue;
        }
        uint64_t *row = a->M + r * a->stride;
        uint8_t x[GF2_MAX_PANEL * 8];
        uint64_t any = 0;
        for (unsigned q = 0; q < a->nb; q++) {
            unsigned b = a->bpos[q];
            x[q] = (uint8_t)(row[a->pw0 + b / 8] >> (b % 8 * 8));
            any |= x[q];
        }
        if (!any)
            continue;
        uint64_t *dst = row + ws;
        unsigned q = 0;
        for (; q + 8 <= a->nb; q += 8) {
            for (unsigned i = 0; i < 8; i++)
                t[i] = a->tab + (((size_t)(q + i) << 8) + x[q + i]) * a->strip;
            xor_fused(dst, t, 8, n);
        }
        for (; q < a->nb; q++) {
            t[0] = a->tab + (((size_t)q << 8) + x[q]) * a->strip;
            xor_fused(dst, t, 1, n);
        }
    }
}

GF2_INLINE void upd_body(const upd_args *a)
{
    for (size_t ws = a->w_lo; ws < a->w_hi; ws += a->strip) {
        size_t n = a->w_hi - ws < a->strip ? a->w_hi - ws : a->strip;
        upd_tables(a, ws, n);
        upd_rows(a, ws, n);
    }
}

typedef void (*upd_fn)(const upd_args *);
TOGGLE__CLONES(upd, upd_args)

typedef struct upd_job {
    upd_args a;
    uint64_t **tabs;
    upd_fn fn;
} upd_job;

/* Phase 1: the words right of the panel, split by columns (the rows' panel
 * bytes, their table indices, are not written yet). */
static void upd_right(void *ctx, unsigned t, unsigned nt)
{
    upd_job *j = ctx;
    upd_args a = j->a;
    size_t w0 = a.pw0 + a.pbw, lo, hi;
    split(a.w_hi - w0, t, nt, a.strip, &lo, &hi);
    if (lo >= hi)
        return;
    a.w_lo = w0 + lo;
    a.w_hi = w0 + hi;
    a.r_lo = 0;
    a.r_hi = a.rows;
    a.tab = j->tabs[t];
    j->fn(&a);
}

/* Phase 2: the panel itself, split by rows (each row reads its indices
 * before it writes them: the panel is one strip). */
static void upd_panel(void *ctx, unsigned t, unsigned nt)
{
    upd_job *j = ctx;
    upd_args a = j->a;
    split(a.rows, t, nt, 64, &a.r_lo, &a.r_hi);
    if (a.r_lo >= a.r_hi)
        return;
    a.w_lo = a.pw0;
    a.w_hi = a.pw0 + a.pbw;
    a.tab = j->tabs[t];
    j->fn(&a);
}

/* Workspace of the blocked elimination with panels of pbw words. */
static uint64_t blocked_bytes(size_t rows, size_t W, size_t pbw, unsigned threads)
{
    unsigned T = useful_threads(rows, W, threads);
    uint64_t tabs = (uint64_t)T * (pbw * 8) * 256 * pbw * 8;
    uint64_t copy = (uint64_t)rows * pbw * 8 + (uint64_t)rows * 3 * sizeof(size_t);
    uint64_t a = plain_bytes(rows, pbw, 1), b = plain_bytes(pbw * 64, W, threads);
    return tabs + copy + (a > b ? a : b) + pbw * 64 * sizeof(size_t) + 4096;
}

typedef struct blocked_ws {
    uint64_t *P;                 /* the lower rows' panel, searched for pivots */
    size_t *perm, *who, *where;  /* rows of P by origin; M's rows by origin */
    size_t *ppc;                 /* pivot columns of the panel */
    uint64_t *tabs[GF2_MAX_THREADS];
} blocked_ws;

static void blocked_free(blocked_ws *w, unsigned T)
{
    TOGGLE__FREE_ALL(w->P, w->perm, w->who, w->where, w->ppc);
    for (unsigned t = 0; t < T; t++)
        toggle__free(w->tabs[t]);
}

/* Gauss-Jordan by panels of pbw words: for each panel, (1) the pivot
 * columns and a set of independent rows are found on a copy of the lower
 * rows' panel (plain RREF, swaps tracked); (2) those rows move to the top
 * of the lower part and are reduced among themselves over the whole width
 * (plain RREF of r1 rows: identity on the pivot columns); (3) every other
 * row gets x += x[pivots] * P in one pass (upd_*). Same RREF as plain. */
static int rref_blocked(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                        size_t *rank, size_t pbw, unsigned fault, toggle__pool *pool)
{
    size_t W = words_for(cols);
    unsigned T = useful_threads(rows, W, toggle__pool_threads(pool));
    blocked_ws w = {0};
    size_t tabw = (pbw * 8) * 256 * pbw;
    int rc = TOGGLE_OK;
    if (!(w.P = toggle__malloc_array(rows, pbw * sizeof(uint64_t))) ||
        !(w.perm = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w.who = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w.where = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w.ppc = toggle__malloc_array(pbw * 64, sizeof(size_t))))
        rc = TOGGLE_ENOMEM;
    for (unsigned t = 0; t < T && !rc; t++)
        if (!(w.tabs[t] = toggle__malloc_lines(tabw, sizeof(uint64_t))))
            rc = TOGGLE_ENOMEM;
    if (rc) {
        blocked_free(&w, T);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) blocked elimination");
    }
    upd_fn fn = TOGGLE__PICK(upd);
    size_t r0 = 0;
    for (size_t pw0 = 0; pw0 < W && r0 < rows && !rc; pw0 += pbw) {
        size_t nw = W - pw0 < pbw ? W - pw0 : pbw, pcols = cols - pw0 * 64;
        if (pcols > nw * 64)
            pcols = nw * 64;
        if (fault == 2 && pcols > 1) /* tests only: a wrong panel boundary */
            pcols--;
        size_t low = rows - r0, r1 = 0;
        for (size_t i = 0; i < low; i++) {
            memcpy(w.P + i * pbw, M + (r0 + i) * stride + pw0, nw * sizeof(uint64_t));
            w.perm[i] = w.who[i] = w.where[i] = i;
        }
        if ((rc = rref_plain(w.P, low, pcols, pbw, w.ppc, &r1, w.perm, NULL, NULL)))
            break;
        if (r1 == 0)
            continue;
        /* (1 -> 2) the rows P came from, to rows r0 .. r0 + r1 - 1 of M */
        for (size_t l = 0; l < r1; l++) {
            size_t o = w.perm[l], at = w.where[o];
            if (at != l) {
                swap_rows(M + (r0 + l) * stride + pw0, M + (r0 + at) * stride + pw0, W - pw0);
                size_t o2 = w.who[l];
                w.who[l] = o;
                w.where[o] = l;
                w.who[at] = o2;
                w.where[o2] = at;
            }
        }
        /* (2) reduce them among themselves: their RREF has r1 pivots, on the
         * panel's pivot columns (they are independent there) */
        size_t rr = 0, *pv = pivots + r0;
        if ((rc = rref_plain(M + r0 * stride + pw0, r1, cols - pw0 * 64, stride, pv, &rr, NULL,
                             pool, NULL)))
            break;
        if (rr != r1 || pv[r1 - 1] != w.ppc[r1 - 1]) {
            rc = toggle__error(TOGGLE_EINTERNAL, "GF(2) panel rank %zu, reduced rank %zu", r1, rr);
            break;
        }
        for (size_t l = 0; l < r1; l++)
            pv[l] += pw0 * 64;
        /* (3) one pass over every other row */
        unsigned bpos[GF2_MAX_PANEL * 8], bbase[GF2_MAX_PANEL * 8], nb = 0;
        uint8_t bmask[GF2_MAX_PANEL * 8] = {0}, pm[GF2_MAX_PANEL * 8] = {0};
        for (size_t l = 0; l < r1 - (fault == 1); l++)
            pm[w.ppc[l] / 8] |= (uint8_t)(1u << (w.ppc[l] % 8));
        for (unsigned b = 0, base = 0; b < nw * 8; b++) {
            if (!pm[b])
                continue;
            bpos[nb] = b;
            bmask[nb] = pm[b];
            bbase[nb++] = base;
            base += (unsigned)__builtin_popcount(pm[b]);
        }
        upd_job j = {
            .a = {.M = M, .stride = stride, .rows = rows, .skip_lo = r0, .skip_hi = r0 + r1,
                  .pw0 = pw0, .pbw = nw, .nb = nb, .bpos = bpos, .bmask = bmask, .bbase = bbase,
                  .w_lo = pw0, .w_hi = W, .r_lo = 0, .r_hi = rows, .strip = pbw,
                  .tab = w.tabs[0]},
            .tabs = w.tabs, .fn = fn,
        };
        toggle__pool_run(T > 1 ? pool : NULL, upd_right, &j);
        toggle__pool_run(T > 1 ? pool : NULL, upd_panel, &j);
        r0 += r1;
    }
    *rank = r0;
    blocked_free(&w, T);
    return rc;
}

/* ---- the recursive elimination: wide panels, updates by products -------- */

/* Panels of PROD_PANEL words (tuned, docs/gf2.md), used by AUTO from
 * PROD_MIN_WORDS words of matrix (8 MiB: below, the plain form is
 * faster on this machine; above, its passes over the whole matrix fall out
 * of cache) and 2 panels of PROD_NARROW words; a panel's own elimination recurses
 * with half its width down to PROD_MIN_PANEL words, then Four Russians. */
#define PROD_PANEL 64
#define PROD_MIN_PANEL 16
#define PROD_MIN_WORDS ((uint64_t)1 << 20)
/* AUTO's panel below 4 tuned panels of columns (measured, docs/gf2.md:
 * 8192 columns 0.41 s with 32 words against 0.60 s with 64) */
#define PROD_NARROW 32
/* AUTO where the products run on GFNI (gf2_gfni.c, measured in
 * docs/gf2.md, "eleventh round"): the recursive form from 256 KiB of
 * matrix with at least 512 rows and columns (plain: 1024 x 1024 0.8 ms
 * against 0.9 ms, 1500 x 1500 1.7 against 1.4 ms), panels by gfni_panel. */
#define PROD_GFNI_MIN_WORDS ((uint64_t)1 << 15)
#define PROD_GFNI_MIN_SIDE 512
#define GF2_SPARSE_WORDS 8
/* Rows past a panel's width its pivot search first looks at (step 1 of
 * rref_prod): 64 more random rows than columns miss full rank with
 * probability below 2^-64. */
#define PROD_PREFIX_EXTRA 64
/* Where the products run on GFNI, a pivot search recurses into half panels
 * only on at least this many rows per column of the panel (a rank-deficient
 * panel's search over all lower rows); on fewer, such as the prefix, Four
 * Russians is faster (measured, docs/gf2.md, twelfth round: 1088 x 1024
 * 0.6 ms against 1.8 ms, 4096 x 1024 1.6 against 1.9 ms, 8192 x 1024 2.6
 * against 2.1 ms). */
#define PROD_SEARCH_TALL 8
/* ... on panels of at least this many words. On 2-word panels (N up to
 * 2048) the plain search saves less (dense 2048 1.9 against 2.3 ms a
 * solve), and with it the rank N/8 2048 benchmark's solves fault in 200
 * pages more each, not in the search: its buffers change the heap so that
 * glibc trims it after every solve (14,708 page faults in 65 solves
 * against 1,797; 3.4 against 0.77 ms a solve on this VM; docs/gf2.md,
 * twelfth round). */
#define PROD_SEARCH_PLAIN_MIN 4

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
__attribute__((target("bmi2"))) static uint64_t pext_bmi2(uint64_t x, uint64_t m)
{
    return _pext_u64(x, m);
}
#define GF2_HAVE_BMI2() __builtin_cpu_supports("bmi2")
#else
static uint64_t pext_bmi2(uint64_t x, uint64_t m) { (void)x; (void)m; return 0; }
#define GF2_HAVE_BMI2() 0
#endif

typedef struct gather_job {
    const uint64_t *M;
    size_t stride, lo1, hi1, lo2, hi2; /* rows [lo1, hi1) and [lo2, hi2) */
    size_t pw0, nw;                    /* the panel's words */
    const uint64_t *mask;              /* its pivot columns, per word */
    uint64_t *Y;                       /* row i's bits on them at Y + i * yw */
    size_t yw;
    int bmi2;
} gather_job;

/* Y[i] = row i's bits on the panel's pivot columns, in order: the
 * coefficients of the panel's pivot rows in row i's update (TOGGLE__HOT:
 * the POPCNT instruction where the CPU has it, not libgcc's table). */
TOGGLE__HOT static void gather_rows(void *ctx, unsigned t, unsigned nt)
{
    gather_job *j = ctx;
    for (int part = 0; part < 2; part++) {
        size_t a = part ? j->lo2 : j->lo1, b = part ? j->hi2 : j->hi1, lo, hi;
        split(b - a, t, nt, 64, &lo, &hi);
        for (size_t i = a + lo; i < a + hi; i++) {
            const uint64_t *row = j->M + i * j->stride + j->pw0;
            uint64_t *y = j->Y + i * j->yw;
            memset(y, 0, j->yw * sizeof *y);
            size_t o = 0;
            for (size_t w = 0; w < j->nw; w++) {
                uint64_t m = j->mask[w];
                if (!m)
                    continue;
                uint64_t x = m == ~(uint64_t)0 ? row[w]
                           : j->bmi2           ? pext_bmi2(row[w], m)
                                               : pext_soft(row[w], m);
                unsigned cnt = (unsigned)__builtin_popcountll(m), sh = (unsigned)(o & 63);
                y[o >> 6] |= x << sh;
                if (sh && sh + cnt > 64)
                    y[(o >> 6) + 1] |= x >> (64 - sh);
                o += cnt;
            }
        }
    }
}

/* Rows [lo, hi)'s bits on a panel's r1 pivot columns (mask; words pw0 ..
 * pw0 + nw), as a product's operand: the panel's words as they stand when
 * its pivot columns are all its columns, else gathered into Y (row i at
 * Y + i * yw). */
static toggle__gf2_view panel_coeffs(uint64_t *M, size_t stride, size_t lo, size_t hi,
                                     size_t pw0, size_t nw, const uint64_t *mask, size_t r1,
                                     uint64_t *Y, size_t yw, int bmi2, toggle__pool *pool)
{
    size_t w = 0;
    while (w < nw && mask[w] == ~(uint64_t)0)
        w++;
    if (w == nw)
        return (toggle__gf2_view){M + lo * stride + pw0, hi - lo, r1, stride};
    gather_job g = {.M = M, .stride = stride, .lo1 = lo, .hi1 = hi, .lo2 = 0, .hi2 = 0,
                    .pw0 = pw0, .nw = nw, .mask = mask, .Y = Y, .yw = yw, .bmi2 = bmi2};
    toggle__pool_run((hi - lo) * yw >= ((size_t)1 << 14) ? pool : NULL, gather_rows, &g);
    return (toggle__gf2_view){Y + lo * yw, hi - lo, r1, yw};
}

typedef struct clear_job {
    uint64_t *M;
    size_t stride, lo, hi, pw0, nw;
} clear_job;

/* Rows [lo, hi) zeroed on words pw0 .. pw0 + nw, in blocks per thread. */
static void clear_rows(void *ctx, unsigned t, unsigned nt)
{
    const clear_job *j = ctx;
    size_t lo, hi;
    split(j->hi - j->lo, t, nt, 64, &lo, &hi);
    for (size_t i = j->lo + lo; i < j->lo + hi; i++)
        memset(j->M + i * j->stride + j->pw0, 0, j->nw * sizeof *j->M);
}

/* Whether rows x nw words at p (stride words apart) are all zero. */
static bool rows_zero(const uint64_t *p, size_t rows, size_t stride, size_t nw)
{
    for (size_t i = 0; i < rows; i++) {
        uint64_t any = 0;
        for (size_t w = 0; w < nw; w++)
            any |= p[i * stride + w];
        if (any)
            return false;
    }
    return true;
}

static size_t prod_panel(size_t W, size_t pbw) { return pbw < W ? pbw : W; }

/* Narrowest panel a panel's elimination recurses to: PROD_MIN_PANEL, or
 * one word for narrow panels (AUTO's on GFNI, and tests: the whole
 * recursion on small matrices). */
static size_t prod_min(size_t pbw) { return pbw < 2 * PROD_MIN_PANEL ? 1 : PROD_MIN_PANEL; }

/* Words of the back substitution's compact non-pivot part: at most r rows
 * of cols - r bits for the worst rank r <= min(rows, cols). */
static uint64_t back_words(size_t rows, size_t cols)
{
    size_t r = rows < cols / 2 ? rows : cols / 2;
    return (uint64_t)r * words_for(cols - r) + (rows < cols ? rows : cols) + 1;
}

static uint64_t prod_bytes(size_t rows, size_t cols, size_t pbw, size_t minp, unsigned threads,
                           int back);

/* Workspace of a panel's pivot search on rows x nw words: the recursive
 * form or Four Russians, whichever panel_search takes (both bounded). */
static uint64_t search_bytes(size_t rows, size_t nw, size_t minp, unsigned threads)
{
    uint64_t plain = plain_bytes(rows, nw, threads);
    if (nw < 2 * minp)
        return plain;
    uint64_t rec = prod_bytes(rows, nw * 64, nw / 2, minp, threads, 0);
    return rec > plain ? rec : plain;
}

/* Workspace of rref_prod with panels of pbw words (threads T); back: with
 * the back substitution. */
static uint64_t prod_bytes(size_t rows, size_t cols, size_t pbw, size_t minp, unsigned threads,
                           int back)
{
    size_t W = words_for(cols), nw = prod_panel(W, pbw), pr = nw * 64; /* pivots per panel */
    size_t panels = (W + nw - 1) / nw;
    bool look = threads > 1 && panels > 1;
    uint64_t fw = (uint64_t)pr * nw;
    if (look && (uint64_t)rows * nw > fw)
        fw = (uint64_t)rows * nw;
    if (fw < W)
        fw = W;
    uint64_t own = (uint64_t)rows * nw * 8 + (uint64_t)rows * 3 * sizeof(size_t) +
                   (uint64_t)pr * sizeof(size_t) + (uint64_t)pr * (2 * nw) * 8 + fw * 8 +
                   (uint64_t)W * 8 + (uint64_t)panels * 2 * sizeof(size_t) + 256;
    uint64_t inner = search_bytes(rows, nw, minp, threads);
    uint64_t z = plain_bytes(pr, 2 * nw, threads);
    uint64_t m1 = toggle__gf2_mul_bytes(pr, pr, cols, threads, 0);
    uint64_t m2 = toggle__gf2_mul_bytes(rows, pr, cols, threads, 0);
    uint64_t big = inner > z ? inner : z;
    big = big > m1 ? big : m1;
    big = big > m2 ? big : m2;
    if (look) { /* the look-ahead: steps 1 and 3 on one thread beside a product */
        uint64_t one = search_bytes(rows, nw, minp, 1), z1 = plain_bytes(pr, 2 * nw, 1);
        one = one > z1 ? one : z1;
        big = big > one + m2 ? big : one + m2;
    }
    /* with threads the pool keeps the products' workspace (the largest
     * product's) to the end (toggle__pool_take), beside all the rest */
    uint64_t kept = threads > 1 ? (m1 > m2 ? m1 : m2) : 0;
    return own + big + kept + (back ? back_words(rows, cols) * 8 : 0);
}

typedef struct prod_ws {
    int psearch; /* a prefix's pivot search may take Four Russians (GFNI products) */
    uint64_t *P, *Z, *F, *mask, *X;
    uint64_t *Y; /* threads: step 5's coefficients, in F (not freed apart) */
    size_t *perm, *who, *where, *ppc, *prow;
} prod_ws;

/* One toggle__free per block (not TOGGLE__FREE_ALL, whose frees the
 * allocator's byte count does not see: lib/core/alloc.c), so that the
 * workspace test measures this form's real peak. */
static void prod_free(prod_ws *w)
{
    void *blocks[] = {w->P, w->Z, w->F, w->mask, w->X, w->perm, w->who, w->where, w->ppc, w->prow};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        toggle__free(blocks[i]);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("bmi2"))) static uint64_t pdep_bmi2(uint64_t x, uint64_t m)
{
    return _pdep_u64(x, m);
}
#else
static uint64_t pdep_bmi2(uint64_t x, uint64_t m) { return pdep_soft(x, m); }
#endif

typedef struct deposit_job {
    uint64_t *M;
    size_t stride, W;
    const uint64_t *npm, *X;
    size_t xw;
    const size_t *pivots;
    size_t rank;
    int bmi2;
} deposit_job;

/* prod_back's last step: row i (< rank) becomes its pivot bit plus X's row
 * i (compact, NULL: none) deposited on the non-pivot columns npm (W
 * words); rows dealt to threads in blocks. TOGGLE__HOT: the POPCNT
 * instruction where the CPU has it. */
TOGGLE__HOT static void deposit_rows(void *ctx, unsigned t, unsigned nt)
{
    const deposit_job *j = ctx;
    uint64_t *M = j->M;
    size_t stride = j->stride, W = j->W, xw = j->xw, lo, hi;
    const uint64_t *npm = j->npm, *X = j->X;
    int bmi2 = j->bmi2;
    split(j->rank, t, nt, 64, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        uint64_t *row = M + i * stride;
        const uint64_t *x = X ? X + i * xw : NULL;
        size_t o = 0;
        if (!x) {
            memset(row, 0, W * sizeof *row);
            row[j->pivots[i] / 64] |= (uint64_t)1 << (j->pivots[i] % 64);
            continue;
        }
        for (size_t q = 0; q < W; q++) {
            uint64_t m = npm[q], v = 0;
            if (m) {
                unsigned cnt = (unsigned)__builtin_popcountll(m), sh = (unsigned)(o & 63);
                uint64_t bits = x[o >> 6] >> sh;
                if (sh && sh + cnt > 64)
                    bits |= x[(o >> 6) + 1] << (64 - sh);
                v = m == ~(uint64_t)0 ? bits : bmi2 ? pdep_bmi2(bits, m) : pdep_soft(bits, m);
                o += cnt;
            }
            row[q] = v;
        }
        row[j->pivots[i] / 64] |= (uint64_t)1 << (j->pivots[i] % 64);
    }
}

/* The reduced form from the echelon form rref_prod's forward phase leaves:
 * rows 0 .. rank - 1 are reduced on their own panel's pivot columns and
 * zero left of them; panel q holds rows prow[2q] .. + prow[2q + 1]. With
 * X = the rows' non-pivot columns (compact), X_p += U_pq X_q for the
 * panels q from the last down and every earlier row p (U_pq: the rows' bits
 * on panel q's pivot columns, a product per panel), then each row is
 * rewritten as its pivot bit plus X deposited on the non-pivot columns. */
static int prod_back(uint64_t *M, size_t cols, size_t stride, const size_t *pivots, size_t rank,
                     prod_ws *w, size_t np, size_t nw0, unsigned fault, toggle__pool *pool,
                     int bmi2)
{
    size_t W = words_for(cols), f = cols - rank, xw = words_for(f);
    if (rank == 0)
        return TOGGLE_OK;
    uint64_t *npm = w->F; /* W words: the non-pivot columns (F is free now) */
    for (size_t q = 0; q < W; q++)
        npm[q] = q + 1 < W || cols % 64 == 0 ? ~(uint64_t)0 : ((uint64_t)1 << (cols % 64)) - 1;
    for (size_t l = 0; l < rank; l++)
        npm[pivots[l] / 64] &= ~((uint64_t)1 << (pivots[l] % 64));
    if (f > 0) {
        if (!(w->X = toggle__malloc_array(rank, xw * sizeof(uint64_t))))
            return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) back substitution");
        gather_job gx = {.M = M, .stride = stride, .lo1 = 0, .hi1 = rank, .lo2 = 0, .hi2 = 0,
                         .pw0 = 0, .nw = W, .mask = npm, .Y = w->X, .yw = xw, .bmi2 = bmi2};
        toggle__pool_run(rank * W >= ((size_t)1 << 14) ? pool : NULL, gather_rows, &gx);
        for (size_t q = np; q-- > 1;) {
            size_t r0 = w->prow[2 * q], r1 = w->prow[2 * q + 1], pw0 = q * nw0;
            size_t nw = W - pw0 < nw0 ? W - pw0 : nw0, gw = words_for(r1);
            if (r1 == 0 || r0 == 0)
                continue;
            memset(w->mask, 0, nw * sizeof *w->mask);
            for (size_t l = 0; l < r1 - (fault == 4); l++)
                w->mask[(pivots[r0 + l] / 64) - pw0] |= (uint64_t)1 << (pivots[r0 + l] % 64);
            toggle__gf2_view C = {w->X, r0, f, xw},
                             A = panel_coeffs(M, stride, 0, r0, pw0, nw, w->mask, r1, w->P, gw,
                                              bmi2, pool),
                             B = {w->X + r0 * xw, r1, f, xw};
            int rc = toggle__gf2_mul(C, A, B, 0, 0, pool);
            if (rc)
                return rc;
        }
    }
    deposit_job dj = {.M = M, .stride = stride, .W = W, .npm = npm, .X = f ? w->X : NULL,
                      .xw = xw, .pivots = pivots, .rank = rank, .bmi2 = bmi2};
    toggle__pool_run(rank * W >= ((size_t)1 << 14) ? pool : NULL, deposit_rows, &dj);
    return TOGGLE_OK;
}

static int rref_prod(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank, size_t *perm, size_t pbw, size_t minp, unsigned fault,
                     toggle__pool *pool, const toggle__progress_state *pr, int back,
                     int psearch);

/* Step 1 of rref_prod: the pivot columns (w->ppc) and r1 independent rows
 * (w->perm[0 .. r1), offsets from r0) of the lower rows' panel (words pw0
 * .. pw0 + nw, pcols columns), on a copy in w->P (panel stride nw0
 * words); w->who and w->where start as the identity. First of the panel's
 * first pcols + PROD_PREFIX_EXTRA lower rows only: enough when they have a
 * pivot on every column of the panel (no row can add one; a random dense
 * panel almost surely does) or when the rows after them are zero on it (a
 * rank-deficient matrix's panels past its rank); else of the prefix's r1
 * independent rows and all the rows after the prefix (the prefix's other
 * rows depend on those r1 on the panel). Reads M's panel only. */
static int panel_search(const uint64_t *M, size_t rows, size_t stride, size_t r0, size_t pw0,
                        size_t nw, size_t nw0, size_t pcols, prod_ws *w, size_t minp,
                        unsigned fault, toggle__pool *pool, size_t *r1)
{
    size_t low = rows - r0;
    int rc = TOGGLE_OK;
    *r1 = 0;
    for (size_t i = 0; i < low; i++)
        w->who[i] = w->where[i] = i;
    size_t take = pcols + PROD_PREFIX_EXTRA < low ? pcols + PROD_PREFIX_EXTRA : low;
    for (size_t i = 0; i < take; i++) {
        memcpy(w->P + i * nw0, M + (r0 + i) * stride + pw0, nw * sizeof(uint64_t));
        w->perm[i] = i;
    }
    for (size_t n1 = take, pass = 0;; pass++) {
        if (nw >= 2 * minp &&
            (!w->psearch || nw0 < PROD_SEARCH_PLAIN_MIN || n1 >= PROD_SEARCH_TALL * pcols))
            rc = rref_prod(w->P, n1, pcols, nw0, w->ppc, r1, w->perm, nw / 2, minp,
                           fault == 5 ? fault : 0, pool, NULL, 0, w->psearch);
        else
            rc = rref_plain(w->P, n1, pcols, nw0, w->ppc, r1, w->perm, pool, NULL);
        /* fault 5 (tests only): a prefix without full rank taken as the panel's */
        if (rc || pass || take == low || *r1 == pcols || fault == 5 ||
            rows_zero(M + (r0 + take) * stride + pw0, low - take, stride, nw))
            break;
        /* the prefix's independent rows (originals: perm[l] < take), then
         * rows take .. low - 1 */
        for (size_t l = 0; l < *r1; l++)
            memcpy(w->P + l * nw0, M + (r0 + w->perm[l]) * stride + pw0, nw * sizeof(uint64_t));
        for (size_t i = take; i < low; i++) {
            memcpy(w->P + (*r1 + i - take) * nw0, M + (r0 + i) * stride + pw0,
                   nw * sizeof(uint64_t));
            w->perm[*r1 + i - take] = i;
        }
        n1 = *r1 + (low - take);
    }
    return rc;
}

/* Step 3 of rref_prod: [S's panel | I] -> [E | G] in w->Z (row stride
 * 2 nw0 words), E the RREF of S's panel, its pivots (offsets in the
 * panel) in pv. S's rows are r0 + w->perm[l] (before step 2 moves them;
 * moved: NULL, rows r0 + l); reads only the panel's columns of M. */
static int panel_inverse(const uint64_t *M, size_t stride, size_t r0, size_t pw0, size_t nw,
                         size_t nw0, size_t r1, const size_t *perm, prod_ws *w, size_t *pv,
                         toggle__pool *pool)
{
    size_t gw = words_for(r1), rr = 0, zw = 2 * nw0;
    for (size_t l = 0; l < r1; l++) {
        uint64_t *z = w->Z + l * zw;
        memcpy(z, M + (r0 + (perm ? perm[l] : l)) * stride + pw0, nw * sizeof *z);
        memset(z + nw, 0, gw * sizeof *z);
        z[nw + l / 64] |= (uint64_t)1 << (l % 64);
    }
    int rc = rref_plain(w->Z, r1, nw * 64 + r1, zw, pv, &rr, NULL, pool, NULL);
    if (!rc && (rr != r1 || pv[r1 - 1] != w->ppc[r1 - 1]))
        rc = toggle__error(TOGGLE_EINTERNAL, "GF(2) panel rank %zu, reduced rank %zu", r1, rr);
    return rc;
}

/* Step 5's look-ahead (threads): the caller (t = 0) does the next panel's
 * steps 1 and 3 on one thread, then takes the rest of the update's tiles;
 * the other threads take tiles from the start. */
typedef struct ahead_job {
    const uint64_t *M;
    size_t rows, stride, r0, pw0, nw, nw0, pcols, minp;
    prod_ws *w;
    size_t *pv; /* step 3's pivots */
    unsigned fault;
    toggle__gf2_mul_job *mul; /* NULL: no columns past the next panel */
    int rc;
    size_t r1;
} ahead_job;

static void ahead_run(void *ctx, unsigned t, unsigned nt)
{
    ahead_job *a = ctx;
    (void)nt;
    if (t == 0) {
        a->rc = panel_search(a->M, a->rows, a->stride, a->r0, a->pw0, a->nw, a->nw0, a->pcols,
                             a->w, a->minp, a->fault, NULL, &a->r1);
        if (!a->rc && a->r1)
            a->rc = panel_inverse(a->M, a->stride, a->r0, a->pw0, a->nw, a->nw0, a->r1,
                                  a->w->perm, a->w, a->pv, NULL);
    }
    toggle__gf2_mul_tiles(a->mul, t);
}

/* Gauss-Jordan by panels of pbw words whose updates are products
 * (docs/gf2.md, "Recursive elimination"). Forward, for each panel: (1) the
 * pivot columns and r1 independent rows S are found on a copy of the lower
 * rows' panel (this routine again with half panels, forward only, or Four
 * Russians); (2) S moves to rows r0 .. r0 + r1 - 1; (3) G = the inverse of
 * S on the pivot columns, from the RREF of [S's panel | I]; (4) S's right
 * part becomes G * S's right part (a product), so S is reduced on its panel;
 * (5) every lower row x gets x += x[pivots] * S right of the panel (a
 * product) and zero on it. Then (back) the reduced form by prod_back.
 * perm (may be NULL) mirrors the row swaps. Same RREF as plain. */
static int rref_prod(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank, size_t *perm, size_t pbw, size_t minp, unsigned fault,
                     toggle__pool *pool, const toggle__progress_state *pr, int back,
                     int psearch)
{
    size_t W = words_for(cols), nw0 = prod_panel(W, pbw), np = nw0 * 64;
    size_t panels = (W + nw0 - 1) / nw0;
    *rank = 0;
    prod_ws w = {0};
    size_t zw = 2 * nw0;
    /* F: step 4's product (a chunk of a panel's width; with threads, of
     * as many words as F holds per pivot row), then (threads)
     * step 5's coefficients Y, which
     * the look-ahead keeps apart from P, the next panel's copy */
    bool look = toggle__pool_threads(pool) > 1 && panels > 1;
    size_t fw = np * (nw0 < W ? nw0 : W);
    if (look && rows * nw0 > fw)
        fw = rows * nw0;
    if (fw < W) /* prod_back's mask of the non-pivot columns */
        fw = W;
    int rc = TOGGLE_OK;
    if (!(w.P = toggle__malloc_array(rows, nw0 * sizeof(uint64_t))) ||
        !(w.perm = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w.who = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w.where = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w.ppc = toggle__malloc_array(np, sizeof(size_t))) ||
        !(w.Z = toggle__malloc_array(np, zw * sizeof(uint64_t))) ||
        !(w.F = toggle__malloc_array(fw, sizeof(uint64_t))) ||
        !(w.mask = toggle__malloc_array(nw0, sizeof(uint64_t))) ||
        !(w.prow = toggle__calloc(2 * panels, sizeof(size_t)))) {
        prod_free(&w);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) recursive elimination");
    }
    w.Y = look ? w.F : NULL;
    w.psearch = psearch;
    int bmi2 = GF2_HAVE_BMI2();
    size_t r0 = 0, ahead_r1 = 0;
    bool ahead = false; /* step 1 of this panel done (r1 = ahead_r1) */
    for (size_t q = 0, pw0 = 0; pw0 < W && r0 < rows && !rc; q++, pw0 += nw0) {
        if (pr && (rc = toggle__progress(pr, pw0 * 64, cols)))
            break;
        size_t nw = W - pw0 < nw0 ? W - pw0 : nw0, pcols = cols - pw0 * 64;
        if (pcols > nw * 64)
            pcols = nw * 64;
        w.prow[2 * q] = r0;
        /* (1) pivots of the lower rows' panel (done ahead, during the
         * previous panel's update, when there are threads) */
        size_t r1 = 0;
        bool inverted = ahead;
        if (ahead) {
            r1 = ahead_r1;
            ahead = false;
        } else {
            rc = panel_search(M, rows, stride, r0, pw0, nw, nw0, pcols, &w, minp, fault, pool,
                              &r1);
        }
        if (rc || r1 == 0)
            continue;
        /* (2) the rows S came from, to rows r0 .. r0 + r1 - 1 */
        for (size_t l = 0; l < r1; l++) {
            size_t o = w.perm[l], at = w.where[o];
            if (at != l) {
                swap_rows(M + (r0 + l) * stride + pw0, M + (r0 + at) * stride + pw0, W - pw0);
                if (perm) {
                    size_t t = perm[r0 + l];
                    perm[r0 + l] = perm[r0 + at];
                    perm[r0 + at] = t;
                }
                size_t o2 = w.who[l];
                w.who[l] = o;
                w.where[o] = l;
                w.who[at] = o2;
                w.where[o2] = at;
            }
        }
        /* (3) [S's panel | I] -> [E | G], E the RREF of S's panel (done
         * ahead with step 1) */
        size_t gw = words_for(r1);
        uint64_t *S = M + r0 * stride;
        size_t *pv = pivots + r0;
        if (!inverted && (rc = panel_inverse(M, stride, r0, pw0, nw, nw0, r1, NULL, &w, pv, pool)))
            break;
        /* (4) S's right part: G times it */
        size_t rw = W - pw0 - nw, rcols = rw ? cols - (pw0 + nw) * 64 : 0;
        /* in column chunks (a chunk's product reads only its own columns
         * of S) of a panel's width on one thread, as wide as F holds on
         * more: one product over many chunks' columns gives every thread
         * whole Strassen tiles, where a panel-wide chunk is one tile that
         * the threads share as Four-Russians strips (docs/gf2.md, ninth
         * round) */
        size_t cwmax = toggle__pool_threads(pool) > 1 && fw / r1 > nw0 ? fw / r1 : nw0;
        for (size_t c0 = 0; c0 < rw && !rc; c0 += cwmax) {
            size_t cw = rw - c0 < cwmax ? rw - c0 : cwmax;
            size_t ccols = c0 + cw < rw ? cw * 64 : rcols - c0 * 64;
            toggle__gf2_view F = {w.F, r1, ccols, cw}, G = {w.Z + nw, r1, r1, zw},
                             B = {S + pw0 + nw + c0, r1, ccols, stride};
            memset(w.F, 0, r1 * cw * sizeof *w.F);
            if ((rc = toggle__gf2_mul(F, G, B, 0, 0, pool)))
                break;
            for (size_t l = 0; l < r1; l++)
                memcpy(S + l * stride + pw0 + nw + c0, w.F + l * cw, cw * sizeof *S);
        }
        if (rc)
            break;
        for (size_t l = 0; l < r1; l++) {
            memcpy(S + l * stride + pw0, w.Z + l * zw, nw * sizeof *S);
            pv[l] += pw0 * 64;
        }
        w.prow[2 * q + 1] = r1;
        /* (5) the lower rows: x += x[pivots] * S right of the panel; zero on it */
        size_t lo = r0 + r1;
        if (rw && lo < rows) {
            memset(w.mask, 0, nw * sizeof *w.mask);
            for (size_t l = 0; l < r1 - (fault == 3); l++)
                w.mask[w.ppc[l] / 64] |= (uint64_t)1 << (w.ppc[l] % 64);
            toggle__gf2_view Y = panel_coeffs(M, stride, lo, rows, pw0, nw, w.mask, r1,
                                              w.Y ? w.Y : w.P, gw, bmi2, pool);
            /* with threads, and at least a panel's width of columns past
             * the next panel: the next panel's columns first, then the rest
             * on all threads but the caller, which meanwhile does the next
             * panel's step 1 on one thread (a look-ahead; it reads only
             * those columns) and then joins them. (With less to overlap,
             * the step's own products are better on all threads.) */
            size_t nw1 = rw < nw0 ? rw : nw0;
            bool la = w.Y && rw - nw1 >= nw1;
            if (!la)
                nw1 = rw;
            size_t c1 = nw1 < rw ? nw1 * 64 : rcols;
            toggle__gf2_view B1 = {S + pw0 + nw, r1, c1, stride},
                             C1 = {M + lo * stride + pw0 + nw, rows - lo, c1, stride};
            if ((rc = toggle__gf2_mul(C1, Y, B1, 0, 0, pool)))
                break;
            if (la) {
                toggle__gf2_view B2 = {S + pw0 + nw + nw1, r1, rcols - c1, stride},
                                 C2 = {M + lo * stride + pw0 + nw + nw1, rows - lo, rcols - c1,
                                       stride};
                ahead_job aj = {.M = M, .rows = rows, .stride = stride, .r0 = lo,
                                .pw0 = pw0 + nw, .nw = nw1, .nw0 = nw0,
                                .pcols = c1, .w = &w, .pv = pivots + lo, .minp = minp,
                                .fault = fault};
                if ((rc = toggle__gf2_mul_begin(&aj.mul, C2, Y, B2, 0, 0, pool)))
                    break;
                toggle__pool_run(pool, ahead_run, &aj);
                toggle__gf2_mul_end(aj.mul);
                if ((rc = aj.rc))
                    break;
                ahead = true;
                ahead_r1 = aj.r1;
            }
        }
        /* zero on the panel, once their update is in (an ENOMEM before
         * leaves the row space as it was) */
        clear_job cj = {.M = M, .stride = stride, .lo = lo, .hi = rows, .pw0 = pw0, .nw = nw};
        toggle__pool_run(lo < rows && (rows - lo) * nw >= ((size_t)1 << 14) ? pool : NULL,
                         clear_rows, &cj);
        r0 += r1;
    }
    *rank = r0;
    if (!rc && back)
        rc = prod_back(M, cols, stride, pivots, r0, &w, panels, nw0, fault, pool, bmi2);
    prod_free(&w);
    return rc;
}

/* ---- entry points ------------------------------------------------------- */

/* AUTO's panel where the products run on GFNI (measured, docs/gf2.md,
 * "eleventh round"): a sixteenth of the words below 512 words, an eighth
 * from there (4096 columns: 4 words, 8192: 8, 16384: 16, 32768: 64), a
 * power of two from 2 to PROD_PANEL, twice as wide for a matrix twice as
 * tall as wide and four times for eight times (its updates cover many
 * rows, its pivot searches only a prefix), halved while wider than the
 * rank can be. Panels below 2 * PROD_MIN_PANEL recurse down to one word
 * (prod_min). */
static size_t gfni_panel(size_t rows, size_t W)
{
    size_t pw = 2, want = W >= 512 ? W / 8 : W / 16;
    while (pw * 2 <= want && pw * 2 <= PROD_PANEL)
        pw *= 2;
    if (rows / 8 >= W * 64)
        pw *= 4;
    else if (rows / 2 >= W * 64)
        pw *= 2;
    if (pw > PROD_PANEL)
        pw = PROD_PANEL;
    size_t most = (rows < W * 64 ? rows : W * 64) / 64;
    while (pw > 1 && pw > most)
        pw /= 2;
    return pw;
}

/* Whether at most one word in GF2_SPARSE_WORDS of M's rows (up to 512 of
 * them, evenly spaced) is nonzero: a banded or sparse matrix, such as a
 * Lights Out board's, whose fill the plain form's passes skip and the
 * products do not (docs/gf2.md, "eleventh round"). Stops as soon as the
 * count passes the share of all sampled words (a dense matrix: its first
 * row). 512 rows of a 100 x 100 board are 80,000 words; 4096 of them cost
 * 8 % of its solve. */
static bool sparse_words(const uint64_t *M, size_t rows, size_t W, size_t stride)
{
    size_t step = (rows + 511) / 512, n = (rows + step - 1) / step, live = 0;
    uint64_t most = (uint64_t)n * W; /* the words sampled */
    for (size_t i = 0; i < rows; i += step) {
        for (size_t w = 0; w < W; w++)
            live += M[i * stride + w] != 0;
        if ((uint64_t)live * GF2_SPARSE_WORDS > most)
            return false;
    }
    return true;
}

/* The form used for this shape and configuration (PLAIN, BLOCKED or
 * RECURSIVE) and its panel width in words. AUTO on GFNI also reads the
 * matrix (sparse_words: then PLAIN); M NULL (the estimate): the form for a
 * dense one, and *by_content says the matrix could make it PLAIN. */
static int choose_mode(const uint64_t *M, size_t stride, size_t rows, size_t W,
                       const toggle__gf2_cfg *cfg, size_t *pw, bool *by_content)
{
    int mode = cfg ? cfg->mode : TOGGLE__GF2_AUTO;
    size_t panel = cfg ? cfg->panel : 0;
    *pw = 0;
    *by_content = false;
    if (mode == TOGGLE__GF2_AUTO && toggle__gf2_gfni_ok()) {
        if ((uint64_t)rows * W < PROD_GFNI_MIN_WORDS || rows < PROD_GFNI_MIN_SIDE ||
            W * 64 < PROD_GFNI_MIN_SIDE || (M && sparse_words(M, rows, W, stride)))
            return TOGGLE__GF2_PLAIN;
        *by_content = !M;
        *pw = gfni_panel(rows, W);
        return TOGGLE__GF2_RECURSIVE;
    }
    if (mode == TOGGLE__GF2_AUTO) {
        if ((uint64_t)rows * W >= PROD_MIN_WORDS && W >= 2 * PROD_NARROW) {
            *pw = W < 4 * PROD_PANEL ? PROD_NARROW : PROD_PANEL;
            return TOGGLE__GF2_RECURSIVE;
        }
        if (rows >= GF2_BLOCK_MIN_ROWS && W >= 2 * GF2_PANEL_WORDS) {
            *pw = GF2_PANEL_WORDS;
            return TOGGLE__GF2_BLOCKED;
        }
        return TOGGLE__GF2_PLAIN;
    }
    if (mode == TOGGLE__GF2_RECURSIVE || mode == TOGGLE__GF2_RECURSIVE_DEEP) {
        *pw = panel < 1 ? PROD_PANEL : panel;
        return TOGGLE__GF2_RECURSIVE; /* DEEP: psearch 0 (toggle__gf2_rref_cfg) */
    }
    if (mode == TOGGLE__GF2_BLOCKED) {
        *pw = panel < 1 ? 1 : panel > GF2_MAX_PANEL ? GF2_MAX_PANEL : panel;
        return mode;
    }
    return TOGGLE__GF2_PLAIN;
}

uint64_t toggle__gf2_workspace_bytes(size_t rows, size_t cols, const toggle__gf2_cfg *cfg)
{
    size_t W = words_for(cols), pw;
    bool by_content;
    int mode = choose_mode(NULL, 0, rows, W, cfg, &pw, &by_content);
    unsigned threads = cfg ? cfg->threads : 1;
    uint64_t pool = threads > 1 ? (uint64_t)threads * 256 + 1024 : 0;
    uint64_t plain = plain_bytes(rows, W, threads);
    if (threads > 1 && cols == rows + 1 && rows >= GF2_TWIST_MIN_ROWS) { /* rref_twisted */
        plain += rows; /* its block marks, kept for rref_plain_from */
        plain = twist_bytes(rows, W) > plain ? twist_bytes(rows, W) : plain;
    }
    uint64_t rec = mode == TOGGLE__GF2_RECURSIVE ? prod_bytes(rows, cols, pw, prod_min(pw), threads, 1)
                                                 : 0;
    if (by_content && plain > rec) /* a sparse matrix takes the plain form */
        rec = plain;
    return pool + (mode == TOGGLE__GF2_RECURSIVE ? rec
                   : mode == TOGGLE__GF2_BLOCKED ? blocked_bytes(rows, W, pw, threads)
                                                 : plain);
}

int toggle__gf2_rref_cfg(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                         size_t *rank, const toggle__gf2_cfg *cfg)
{
    return toggle__gf2_rref_rows(M, rows, cols, stride, pivots, rank, cfg, NULL, NULL);
}

int toggle__gf2_rref_rows(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                          size_t *rank, const toggle__gf2_cfg *cfg, const size_t *lead,
                          const size_t *ext)
{
    size_t W = words_for(cols), pw;
    unsigned fault = cfg ? cfg->fault : 0;
    const toggle__progress_state *pr = cfg ? cfg->progress : NULL;
    *rank = 0;
    if (rows == 0 || cols == 0)
        return TOGGLE_OK;
    bool by_content;
    int mode = choose_mode(M, stride, rows, W, cfg, &pw, &by_content);
    unsigned want = useful_threads(rows, W, cfg ? cfg->threads : 1);
    /* the plain form's two sweeps (banded rows) pass too few words a block
     * to share: on a 100 x 100 board one block of 156 reaches the pool's
     * cutoff (the last, 9984 rows of one live word), so a pool only costs
     * its start and that block's rows moving between cores (docs/gf2.md,
     * fourteenth round) */
    size_t span = W;
    bool band = want > 1 && mode == TOGGLE__GF2_PLAIN && banded_rows(M, rows, W, stride, &span);
    /* but a full-rank square one (a board) is eliminated from both ends at
     * once (rref_twisted), on two threads */
    bool twist = band && cols == rows + 1 && rows >= GF2_TWIST_MIN_ROWS;
    if (band)
        want = twist ? 2 : 1;
    toggle__pool *pool = toggle__pool_new(want); /* NULL: the caller alone */
    /* the search's form (PROD_SEARCH_TALL): tuned where products run on
     * GFNI, recursive on every panel when a test asks */
    int psearch = toggle__gf2_gfni_ok() && !(cfg && cfg->mode == TOGGLE__GF2_RECURSIVE_DEEP);
    int rc = mode == TOGGLE__GF2_RECURSIVE
                 ? rref_prod(M, rows, cols, stride, pivots, rank, NULL, pw, prod_min(pw), fault,
                             pool, pr, 1, psearch)
             : mode == TOGGLE__GF2_BLOCKED
                 ? rref_blocked(M, rows, cols, stride, pivots, rank, pw, fault, pool)
                 : TOGGLE_OK;
    bool done = mode != TOGGLE__GF2_PLAIN;
    if (!rc && twist)
        rc = rref_twisted(M, rows, cols, stride, pivots, rank, pool, pr, fault, span, &done);
    if (!rc && !done) /* M as given (rref_twisted ends singular boards itself) */
        rc = rref_plain_from(M, rows, cols, stride, pivots, rank, NULL, band ? NULL : pool, pr,
                             0, NULL, lead, ext);
    toggle__pool_free(pool);
    return rc;
}

int toggle__gf2_rref(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank)
{
    return toggle__gf2_rref_cfg(M, rows, cols, stride, pivots, rank, NULL);
}
