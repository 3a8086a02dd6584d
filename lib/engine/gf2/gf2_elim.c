/* Packed GF(2) Gauss-Jordan elimination with the Method of Four Russians:
 * pivots are found a block of up to nt * k at a time (skipping columns
 * without a pivot, within a window of GF2_SPANW words),
 * then every other row is cleared on those columns by nt Gray-code tables
 * of k-row combinations, column strip by column strip (docs/gf2.md). */
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
 * stays within a quarter of the matrix (or a small constant). */
static void choose_plan(size_t rows, size_t W, plan *p)
{
    unsigned lg = 0;
    while (lg < 20 && ((size_t)1 << (lg + 1)) <= rows)
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

static inline void xor_row(uint64_t *restrict dst, const uint64_t *restrict src, size_t n)
{
    for (size_t w = 0; w < n; w++)
        dst[w] ^= src[w];
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
    size_t w0, W;                          /* words [w0, W) are live */
    const uint64_t *piv;                   /* first pivot row (row skip_lo) */
    unsigned k, nt, kbar;                  /* kbar pivots, in nt tables of k (last smaller) */
    size_t strip;
    uint64_t *tab;                         /* nt << k rows of strip words */
    const uint8_t *idx;                    /* rows * GF2_MAXT table indices */
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
            const uint64_t *restrict src = a->piv + (lo + b) * a->stride + ws;
            const uint64_t *restrict pt = T + prev * a->strip;
            uint64_t *restrict dt = T + g * a->strip;
            for (size_t w = 0; w < n; w++)
                dt[w] = pt[w] ^ src[w];
            prev = g;
        }
    }
}

GF2_INLINE void process_rows(const pass_args *a, size_t ws, size_t n, unsigned NT)
{
    const uint64_t *t[GF2_MAXT];
    for (unsigned i = NT; i < GF2_MAXT; i++)
        t[i] = a->tab; /* never read for this NT */
    for (size_t r = 0; r < a->rows; r++) {
        if (r == a->skip_lo) {
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
        xor_fused(a->M + r * a->stride + ws, t, NT, n);
    }
}

GF2_INLINE void pass_body(const pass_args *a)
{
    for (size_t ws = a->w0; ws < a->W; ws += a->strip) {
        size_t n = a->W - ws < a->strip ? a->W - ws : a->strip;
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
}

typedef void (*pass_fn)(const pass_args *);
GF2_CLONES(pass, pass_args)

/* ---- pivot search ------------------------------------------------------- */

/* Find up to K pivots among rows r.. of M in columns c, c+1, ... of the
 * window (words c / 64 .. c / 64 + GF2_SPANW - 1, and below cols), skipping
 * columns without one; their columns go to pc[0 ..]. The pivot rows end at
 * rows r .. r + kbar - 1, reduced among themselves on the pivot columns.
 * Rows below are not modified except by swaps (mirrored in perm when it is
 * not NULL, and in lead). *next receives the first
 * column not examined (all examined non-pivot columns are zero below row
 * r + kbar after the row pass). Returns kbar. */
static unsigned find_pivots(uint64_t *M, size_t stride, size_t rows, size_t r, size_t c,
                            unsigned K, size_t W, size_t cols, size_t *pc, size_t *next,
                            size_t *perm, size_t *lead)
{
    size_t w0 = c >> 6, n = W - w0;
    size_t end = (w0 + GF2_SPANW) * 64 < cols ? (w0 + GF2_SPANW) * 64 : cols;
    /* U (once a column had no pivot): the OR of rows r.. on the window, a
     * superset of the columns where a pivot can still occur, since rows
     * r.. only change by xors among themselves; lets low-rank tails and
     * zero columns be skipped without scanning every row for each one */
    uint64_t U[GF2_SPANW] = {0};
    int have_u = 0;
    unsigned found = 0;
    size_t j = c;
    for (; j < end && found < K && r + found < rows; j++) {
        if (have_u && !((U[(j >> 6) - w0] >> (j & 63)) & 1))
            continue;
        /* colm: the pivot columns whose pivot row has a 1 in column j; a
         * row's bit j once reduced by the block is its own bit xor the
         * parity of (row AND colm) */
        uint64_t colm[GF2_SPANW] = {0}, any = 0;
        for (unsigned l = 0; l < found; l++) { /* branch-free: the bits are random */
            uint64_t b = bit(M + (r + l) * stride, j);
            colm[(pc[l] >> 6) - w0] |= b << (pc[l] & 63);
            any |= b;
        }
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
        for (unsigned l = 0; l < found; l++)
            sel |= (uint64_t)bit(p, pc[l]) << l;
        while (sel) {
            unsigned l = (unsigned)__builtin_ctzll((unsigned long long)sel);
            sel &= sel - 1;
            xor_row(p + w0, M + (r + l) * stride + w0, n);
        }
        uint64_t *dst = M + (r + found) * stride;
        if (hit != r + found) {
            swap_rows(dst + w0, p + w0, n);
            if (perm) {
                size_t t = perm[hit];
                perm[hit] = perm[r + found];
                perm[r + found] = t;
            }
            size_t t = lead[hit];
            lead[hit] = lead[r + found];
            lead[r + found] = t;
        }
        for (unsigned l = 0; l < found; l++) {
            uint64_t *q = M + (r + l) * stride;
            if (bit(q, j))
                xor_row(q + w0, dst + w0, n);
        }
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
    pass_args a;      /* the block's pass; tab and column range per thread */
    uint64_t **tabs;  /* one table set per thread */
    pass_fn pass;
    /* index phase */
    int gaps;
    unsigned nb, kk, nt;
    const unsigned *pos;
    uint64_t (*lut)[256];
    const size_t *pc;
    size_t *lead;     /* per row: a lower bound on its first nonzero word */
} plain_job;

static void index_rows(void *ctx, unsigned t, unsigned nt)
{
    plain_job *j = ctx;
    const pass_args *a = &j->a;
    size_t lo, hi;
    split(a->rows, t, nt, 64, &lo, &hi);
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
        uint8_t *d = (uint8_t *)a->idx + i * GF2_MAXT;
        for (unsigned q = 0; q < GF2_MAXT; q++) {
            d[q] = q < j->nt ? (uint8_t)(x & (((uint64_t)1 << j->kk) - 1)) : 0;
            x >>= j->kk;
        }
    }
}

static void pass_cols(void *ctx, unsigned t, unsigned nt)
{
    plain_job *j = ctx;
    pass_args a = j->a;
    size_t lo, hi;
    split(j->a.W - j->a.w0, t, nt, 2, &lo, &hi);
    if (lo >= hi)
        return;
    a.w0 = j->a.w0 + lo;
    a.W = j->a.w0 + hi;
    a.tab = j->tabs[t];
    j->pass(&a);
}

static uint64_t plain_bytes(size_t rows, size_t W, unsigned threads)
{
    plan p;
    choose_plan(rows, W, &p);
    uint64_t tw = (uint64_t)p.nt << p.k;
    unsigned T = useful_threads(rows, W, threads);
    return T * (tw * p.strip * 8 + 64) + (uint64_t)rows * (GF2_MAXT + sizeof(size_t)) +
           GF2_LUTB * 256 * 8 + 64;
}

/* RREF of M in place by Four-Russians blocks (docs/gf2.md); perm (may be
 * NULL) mirrors the row swaps. */
static int rref_plain(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                      size_t *rank, size_t *perm, toggle__pool *pool,
                      const toggle__progress_state *pr)
{
    size_t W = words_for(cols);
    *rank = 0;
    if (rows == 0 || cols == 0)
        return TOGGLE_OK;
    plan p;
    choose_plan(rows, W, &p);
    unsigned T = useful_threads(rows, W, toggle__pool_threads(pool));
    size_t trows = (size_t)p.nt << p.k, tabw, idxb;
    if (!toggle__mul_ok(trows, p.strip, &tabw) || !toggle__mul_ok(rows, GF2_MAXT, &idxb))
        return toggle__error(TOGGLE_EOVERFLOW, "GF(2) workspace overflows size_t");
    uint64_t *tabs[GF2_MAX_THREADS] = {0};
    uint8_t *idx = toggle__calloc(idxb, 1);
    size_t *lead = toggle__malloc_array(rows, sizeof *lead);
    uint64_t (*lut)[256] = NULL; /* allocated at the first block with gaps */
    int rc = idx && lead ? TOGGLE_OK : TOGGLE_ENOMEM;
    /* lead[i]: a lower bound on row i's first nonzero word (W: none); rows
     * that are zero on a block's pivot columns are then skipped unread */
    for (size_t i = 0; i < rows && !rc; i++) {
        const uint64_t *row = M + i * stride;
        size_t w = 0;
        while (w < W && !row[w])
            w++;
        lead[i] = w;
    }
    for (unsigned t = 0; t < T && !rc; t++)
        if (!(tabs[t] = toggle__malloc_array(tabw, sizeof(uint64_t))))
            rc = TOGGLE_ENOMEM;
    pass_fn pass = GF2_PICK(pass);
    size_t r = 0, c = 0;
    unsigned Kmax = p.k * p.nt;
    int cancel = TOGGLE_OK; /* the progress callback's verdict, once per pivot block */
    while (!rc && r < rows && c < cols) {
        if (pr && (cancel = toggle__progress(pr, c, cols)))
            break;
        size_t next, *pc = pivots + r;
        unsigned kbar = find_pivots(M, stride, rows, r, c, Kmax, W, cols, pc, &next, perm, lead);
        if (kbar > 0) {
            /* rows r.. are zero left of column c: the pivot rows, combined
             * among themselves, start at word c / 64 or later */
            for (unsigned l = 0; l < kbar; l++)
                lead[r + l] = c >> 6;
            /* tables of k bits each; the last may be narrower */
            unsigned nt = (kbar + p.k - 1) / p.k, nb = 0, pos[GF2_LUTB];
            int gaps = pc[kbar - 1] - pc[0] != kbar - 1;
            size_t w0 = c >> 6;
            if (gaps) {
                if (!lut && !(lut = toggle__malloc_array(GF2_LUTB, sizeof *lut))) {
                    rc = TOGGLE_ENOMEM;
                    break;
                }
                nb = build_gather(pc, kbar, w0, lut, pos);
            }
            plain_job j = {
                .a = {.M = M, .stride = stride, .rows = rows, .skip_lo = r, .skip_hi = r + kbar,
                      .w0 = w0, .W = W, .piv = M + r * stride, .k = p.k, .nt = nt,
                      .kbar = kbar, .strip = p.strip, .tab = tabs[0], .idx = idx},
                .tabs = tabs, .pass = pass, .gaps = gaps, .nb = nb, .kk = p.k, .nt = nt,
                .pos = pos, .lut = lut, .pc = pc, .lead = lead,
            };
            /* small blocks stay on the caller: a hand-off costs microseconds */
            int par = T > 1 && (uint64_t)rows * (W - w0) >= ((uint64_t)1 << 14);
            toggle__pool_run(par ? pool : NULL, index_rows, &j);
            toggle__pool_run(par ? pool : NULL, pass_cols, &j);
        }
        r += kbar;
        c = next;
    }
    *rank = r;
    for (unsigned t = 0; t < T; t++)
        toggle__free(tabs[t]);
    toggle__free(idx);
    toggle__free(lead);
    toggle__free(lut);
    if (rc)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) elimination tables");
    return cancel;
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
GF2_CLONES(upd, upd_args)

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
        if (!(w.tabs[t] = toggle__malloc_array(tabw, sizeof(uint64_t))))
            rc = TOGGLE_ENOMEM;
    if (rc) {
        blocked_free(&w, T);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) blocked elimination");
    }
    upd_fn fn = GF2_PICK(upd);
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

/* ---- entry points ------------------------------------------------------- */

/* Panel words for this shape and configuration; 0 = plain. */
static size_t panel_words(size_t rows, size_t W, const toggle__gf2_cfg *cfg)
{
    if (!cfg || cfg->mode == TOGGLE__GF2_AUTO)
        return rows >= GF2_BLOCK_MIN_ROWS && W >= 2 * GF2_PANEL_WORDS ? GF2_PANEL_WORDS : 0;
    if (cfg->mode == TOGGLE__GF2_PLAIN)
        return 0;
    return cfg->panel < 1 ? 1 : cfg->panel > GF2_MAX_PANEL ? GF2_MAX_PANEL : cfg->panel;
}

uint64_t toggle__gf2_workspace_bytes(size_t rows, size_t cols, const toggle__gf2_cfg *cfg)
{
    size_t W = words_for(cols), pw = panel_words(rows, W, cfg);
    unsigned threads = cfg ? cfg->threads : 1;
    uint64_t pool = threads > 1 ? (uint64_t)threads * 256 + 1024 : 0;
    return pool + (pw ? blocked_bytes(rows, W, pw, threads) : plain_bytes(rows, W, threads));
}

int toggle__gf2_rref_cfg(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                         size_t *rank, const toggle__gf2_cfg *cfg)
{
    size_t W = words_for(cols), pw = panel_words(rows, W, cfg);
    *rank = 0;
    if (rows == 0 || cols == 0)
        return TOGGLE_OK;
    unsigned want = useful_threads(rows, W, cfg ? cfg->threads : 1);
    toggle__pool *pool = toggle__pool_new(want); /* NULL: the caller alone */
    int rc = pw ? rref_blocked(M, rows, cols, stride, pivots, rank, pw, cfg ? cfg->fault : 0, pool)
                : rref_plain(M, rows, cols, stride, pivots, rank, NULL, pool,
                             cfg ? cfg->progress : NULL);
    toggle__pool_free(pool);
    return rc;
}

int toggle__gf2_rref(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank)
{
    return toggle__gf2_rref_cfg(M, rows, cols, stride, pivots, rank, NULL);
}
