/* Packed GF(2) Gauss-Jordan elimination with the Method of Four Russians:
 * pivots are found a block of up to nt * k at a time (skipping columns
 * without a pivot, within a window of GF2_SPANW words),
 * then every other row is cleared on those columns by nt Gray-code tables
 * of k-row combinations, column strip by column strip (docs/gf2.md). */
#include <string.h>

#include "gf2.h"
#include "core.h"

#define GF2_MAXK 8   /* bits per table */
#define GF2_MAXT 8   /* tables per pass */
/* A block looks for pivots in a window of at most GF2_SPANW words of
 * columns, so it keeps gathering pivots past columns without one (a matrix
 * whose dependent columns sit between its pivot columns still gets up to
 * nt * k pivots per row pass). */
#define GF2_SPANW 4
#define GF2_LUTB (GF2_SPANW * 8) /* bytes of a window */

#if defined(__GNUC__)
#define GF2_INLINE static inline __attribute__((always_inline))
#else
#define GF2_INLINE static inline
#endif

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

uint64_t toggle__gf2_workspace_bytes(size_t rows, size_t cols)
{
    size_t W = words_for(cols);
    plan p;
    choose_plan(rows, W, &p);
    uint64_t tw = (uint64_t)p.nt << p.k;
    return tw * p.strip * 8 + (uint64_t)rows * GF2_MAXT + GF2_LUTB * 256 * 8 + 64;
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

/* dst ^= t[0] ^ ... ^ t[NT-1] over n words; NT is a constant after inlining,
 * so the compiler emits one fused vector loop per table count. */
GF2_INLINE void xor_fused(uint64_t *restrict dst, const uint64_t *const *t, unsigned NT,
                          size_t n)
{
    const uint64_t *restrict t0 = t[0], *restrict t1 = t[1], *restrict t2 = t[2],
                   *restrict t3 = t[3], *restrict t4 = t[4], *restrict t5 = t[5],
                   *restrict t6 = t[6], *restrict t7 = t[7];
    switch (NT) {
    case 8: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w] ^ t4[w] ^ t5[w] ^ t6[w] ^ t7[w]; break;
    case 7: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w] ^ t4[w] ^ t5[w] ^ t6[w]; break;
    case 6: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w] ^ t4[w] ^ t5[w]; break;
    case 5: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w] ^ t4[w]; break;
    case 4: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w]; break;
    case 3: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w]; break;
    case 2: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w]; break;
    default: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w]; break;
    }
}

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

static void pass_generic(const pass_args *a) { pass_body(a); }

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define GF2_X86 1
__attribute__((target("avx2"))) static void pass_avx2(const pass_args *a) { pass_body(a); }
__attribute__((target("avx512f"))) static void pass_avx512(const pass_args *a) { pass_body(a); }
#endif

typedef void (*pass_fn)(const pass_args *);

/* Chosen per call (no global state): the widest vector unit the CPU has. */
static pass_fn pick_pass(void)
{
#ifdef GF2_X86
    if (__builtin_cpu_supports("avx512f"))
        return pass_avx512;
    if (__builtin_cpu_supports("avx2"))
        return pass_avx2;
#endif
    return pass_generic;
}

/* ---- pivot search ------------------------------------------------------- */

/* Find up to K pivots among rows r.. of M in columns c, c+1, ... of the
 * window (words c / 64 .. c / 64 + GF2_SPANW - 1, and below cols), skipping
 * columns without one; their columns go to pc[0 ..]. The pivot rows end at
 * rows r .. r + kbar - 1, reduced among themselves on the pivot columns.
 * Rows below are not modified except by swaps. *next receives the first
 * column not examined (all examined non-pivot columns are zero below row
 * r + kbar after the row pass). Returns kbar. */
static unsigned find_pivots(uint64_t *M, size_t stride, size_t rows, size_t r, size_t c,
                            unsigned K, size_t W, size_t cols, size_t *pc, size_t *next)
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
        if (hit != r + found)
            swap_rows(dst + w0, p + w0, n);
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

int toggle__gf2_rref(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank)
{
    return toggle__gf2_rref_progress(M, rows, cols, stride, pivots, rank, NULL);
}

int toggle__gf2_rref_progress(uint64_t *M, size_t rows, size_t cols, size_t stride,
                              size_t *pivots, size_t *rank, const struct toggle__progress_state *pr)
{
    int rc = TOGGLE_OK;
    size_t W = words_for(cols);
    *rank = 0;
    if (rows == 0 || cols == 0)
        return TOGGLE_OK;
    plan p;
    choose_plan(rows, W, &p);
    size_t trows = (size_t)p.nt << p.k, tabw, idxb;
    if (!toggle__mul_ok(trows, p.strip, &tabw) || !toggle__mul_ok(rows, GF2_MAXT, &idxb))
        return toggle__error(TOGGLE_EOVERFLOW, "GF(2) workspace overflows size_t");
    uint64_t *tab = toggle__malloc_array(tabw, sizeof *tab);
    uint8_t *idx = toggle__calloc(idxb, 1);
    uint64_t (*lut)[256] = NULL; /* allocated at the first block with gaps */
    if (!tab || !idx) {
        toggle__free(tab);
        toggle__free(idx);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) elimination tables");
    }
    pass_fn pass = pick_pass();
    size_t r = 0, c = 0;
    unsigned Kmax = p.k * p.nt;
    while (r < rows && c < cols) {
        if (pr && (rc = toggle__progress(pr, c, cols)))
            break;
        size_t next, *pc = pivots + r;
        unsigned kbar = find_pivots(M, stride, rows, r, c, Kmax, W, cols, pc, &next);
        if (kbar > 0) {
            /* tables of k bits each; the last may be narrower */
            unsigned nt = (kbar + p.k - 1) / p.k, nb = 0, pos[GF2_LUTB];
            int gaps = pc[kbar - 1] - pc[0] != kbar - 1;
            size_t w0 = c >> 6;
            if (gaps) {
                if (!lut && !(lut = toggle__malloc_array(GF2_LUTB, sizeof *lut))) {
                    toggle__free(tab);
                    toggle__free(idx);
                    return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) elimination");
                }
                nb = build_gather(pc, kbar, w0, lut, pos);
            }
            for (size_t i = 0; i < rows; i++) {
                const uint64_t *row = M + i * stride;
                uint64_t x = 0;
                if (i >= r && i < r + kbar)
                    x = 0;
                else if (!gaps)
                    x = window(row, pc[0], kbar);
                else
                    for (unsigned b = 0; b < nb; b++)
                        x |= lut[b][(uint8_t)(row[w0 + pos[b] / 8] >> (pos[b] % 8 * 8))];
                uint8_t *d = idx + i * GF2_MAXT;
                for (unsigned t = 0; t < GF2_MAXT; t++) {
                    d[t] = t < nt ? (uint8_t)(x & (((uint64_t)1 << p.k) - 1)) : 0;
                    x >>= p.k;
                }
            }
            pass_args a = {
                .M = M, .stride = stride, .rows = rows, .skip_lo = r, .skip_hi = r + kbar,
                .w0 = w0, .W = W, .piv = M + r * stride, .k = p.k, .nt = nt,
                .kbar = kbar, .strip = p.strip, .tab = tab, .idx = idx,
            };
            pass(&a);
        }
        r += kbar;
        c = next;
    }
    if (!rc)
        *rank = r;
    toggle__free(tab);
    toggle__free(idx);
    toggle__free(lut);
    return rc;
}

