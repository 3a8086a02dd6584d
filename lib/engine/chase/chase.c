/* Light chasing (chase.h): one chase of a frame from its last row upward,
 * cell by cell or 64 cells a word for F_2, on one thread or in column strips
 * on the frame's pool. The grid engine (chase_engine.c) and its composite
 * path (composite.c) run it (docs/grid.md). */
#include <string.h>

#include "chase.h"

typedef toggle__chase_frame frame;

/* The board row of frame row r. */
static size_t board_row(const frame *f, size_t r)
{
    return f->flip ? f->R - 1 - r : r;
}

static size_t cell_index(const frame *f, size_t r, size_t j)
{
    size_t br = board_row(f, r);
    return f->tr ? j * f->R + br : br * f->C + j;
}

/* ---- segments -------------------------------------------------------------- */
/* A chase runs over the units of a frame row: cells (lanes of T with one
 * zero pad unit on each side) or, for F_2, words of 64 cells (no pads). A
 * segment holds units [lo, hi) of the current, next and new rows and the
 * right-hand side in its own buffers, and stores units [slo, shi); one
 * thread runs the whole row as one segment, several threads run column
 * strips with halos (see the driver below). */
typedef struct {
    size_t lo, hi, slo, shi;
    void *cur, *nxt, *prv, *bl;
    uint64_t *tb, *ts, *tc; /* transposed frames: 64-row tiles of b and of the stored
                             * rows (F_2: and their columns; 64 n words each) */
} seg;

/* Frame rows r0, r0 - 1, ..., r0 - nrows + 1: store each (when f->out), then
 * make the row above it; on return g->cur and g->nxt hold the state. */
typedef void (*seg_fn)(const frame *f, seg *g, size_t r0, size_t nrows);

/* *p |= v; atomically where another strip may write the same word. */
static void or_word(uint64_t *p, uint64_t v, bool atomic)
{
    if (atomic)
        __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
    else
        *p |= v;
}

/* ---- F_2: 64 cells per word ---------------------------------------------- */

/* Words [wlo, whi) of the right-hand side of frame row r; not transposed. */
static void gf2_load_b(const frame *f, size_t r, uint64_t *bw, size_t wlo, size_t whi)
{
    size_t n = whi - wlo, C = f->C, W = (C + 63) / 64;
    memset(bw, 0, n * sizeof *bw);
    if (!f->b)
        return;
    /* bits [r C + 64 wlo, ...) of the packed right-hand side */
    const uint64_t *src = toggle__vecs_row(f->b, 0);
    size_t off = board_row(f, r) * C + 64 * wlo;
    for (size_t i = 0; i < n; i++)
        bw[i] = toggle__bits_window(src, f->b->stride, off + 64 * i);
    if (whi == W && (C & 63))
        bw[n - 1] &= ((uint64_t)1 << (C & 63)) - 1;
}

/* OR nbits bits of src into dst starting at bit offset off (dst bits there
 * are 0); shared: the first and last words may be another strip's too. */
static void put_bits(uint64_t *dst, size_t off, const uint64_t *src, size_t nbits, bool shared)
{
    size_t W = (nbits + 63) / 64, q = off >> 6;
    unsigned sh = off & 63;
    if (sh == 0) {
        for (size_t i = 0; i < W; i++)
            or_word(&dst[q + i], src[i], shared && (i == 0 || i + 1 == W));
        return;
    }
    size_t endword = (off + nbits - 1) >> 6;
    for (size_t i = 0; i < W; i++) {
        or_word(&dst[q + i], src[i] << sh, shared && (i == 0 || q + i == endword));
        if (q + i + 1 <= endword)
            or_word(&dst[q + i + 1], src[i] >> (64 - sh), shared && q + i + 1 == endword);
    }
}

/* Store words [slo, shi) of frame row r (x: word slo); not transposed. */
static void gf2_store(const frame *f, size_t r, const uint64_t *x, size_t slo, size_t shi)
{
    uint64_t *dst = toggle__vecs_row(f->out, f->outvec);
    size_t c0 = 64 * slo, c1 = 64 * shi < f->C ? 64 * shi : f->C;
    put_bits(dst, board_row(f, r) * f->C + c0, x, c1 - c0, f->shared);
}

/* Transposed frames: frame row r is board column r', frame cell (r, j) is
 * board bit j R + r'. A block of nb <= 64 consecutive frame rows covers
 * board bits [j R + base, j R + base + nb) of every board row j: read and
 * written as one run per j through a 64 x 64 bit transpose, instead of one
 * scattered bit per cell. Tile row t holds frame row r' = base + t. */
static void gf2_tile_load_b(const frame *f, const seg *g, size_t base, size_t nb)
{
    size_t n = g->hi - g->lo, j0 = 64 * g->lo, j1 = 64 * g->hi < f->C ? 64 * g->hi : f->C;
    uint64_t mask = nb == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nb) - 1;
    const uint64_t *src = toggle__vecs_row(f->b, 0);
    size_t words = f->b->stride;
    for (size_t j = j0; j < j1; j++)
        g->tc[j - j0] = toggle__bits_window(src, words, j * f->R + base) & mask;
    toggle__bits_transpose(g->tb, n, g->tc, 1, j1 - j0, 64);
}

static void gf2_tile_store(const frame *f, const seg *g, size_t base, size_t nb)
{
    size_t own = g->shi - g->slo, j0 = 64 * g->slo, j1 = 64 * g->shi < f->C ? 64 * g->shi : f->C;
    uint64_t *dst = toggle__vecs_row(f->out, f->outvec);
    toggle__bits_transpose(g->tc, 1, g->ts, own, 64, j1 - j0);
    for (size_t j = j0; j < j1; j++)
        if (g->tc[j - j0])
            put_bits(dst, j * f->R + base, &g->tc[j - j0], nb, f->shared);
}

static void gf2_seg(const frame *f, seg *g, size_t r0, size_t nrows)
{
    size_t C = f->C, W = (C + 63) / 64, n = g->hi - g->lo, own = g->shi - g->slo;
    uint64_t *cur = g->cur, *nxt = g->nxt, *prv = g->prv, *bw = g->bl;
    uint64_t last = (g->hi == W && (C & 63)) ? ((uint64_t)1 << (C & 63)) - 1 : ~(uint64_t)0;
    uint64_t dm = f->d ? ~(uint64_t)0 : 0;
    for (size_t k0 = 0; k0 < nrows; k0 += 64) {
        size_t nb = nrows - k0 < 64 ? nrows - k0 : 64;
        /* the block's frame rows r0 - k0 ... r0 - k0 - nb + 1, board rows from base */
        size_t ra = board_row(f, r0 - k0), rb = board_row(f, r0 - k0 - nb + 1);
        size_t base = ra < rb ? ra : rb;
        if (f->tr && f->b)
            gf2_tile_load_b(f, g, base, nb);
        if (f->tr && f->out)
            memset(g->ts, 0, 64 * own * sizeof *g->ts);
        for (size_t k = k0; k < k0 + nb; k++) {
            size_t r = r0 - k, t = board_row(f, r) - base;
            if (f->out && !f->tr)
                gf2_store(f, r, cur + (g->slo - g->lo), g->slo, g->shi);
            else if (f->out)
                memcpy(g->ts + t * own, cur + (g->slo - g->lo), own * sizeof *cur);
            if (!f->tr)
                gf2_load_b(f, r, bw, g->lo, g->hi);
            else if (f->b)
                memcpy(bw, g->tb + t * n, n * sizeof *bw);
            else
                memset(bw, 0, n * sizeof *bw);
            /* x_{r-1} = b_r + T x_r + x_{r+1}: T adds left, right and (d) self. */
            for (size_t i = 0; i < n; i++) {
                uint64_t left = (cur[i] << 1) | (i ? cur[i - 1] >> 63 : 0);
                uint64_t right = (cur[i] >> 1) | (i + 1 < n ? cur[i + 1] << 63 : 0);
                prv[i] = bw[i] ^ left ^ right ^ (cur[i] & dm) ^ nxt[i];
            }
            prv[n - 1] &= last;
            uint64_t *tmp = nxt;
            nxt = cur;
            cur = prv;
            prv = tmp;
        }
        if (f->tr && f->out)
            gf2_tile_store(f, g, base, nb);
    }
    g->cur = cur;
    g->nxt = nxt;
    g->prv = prv;
}

/* ---- odd p and composite k: narrow lanes with lazy reduction --------------- */
/* Unit i of a row of us-byte lanes. */
static inline uint64_t unit_get(const void *row, size_t us, size_t i)
{
    switch (us) {
    case 2: return ((const uint16_t *)row)[i];
    case 4: return ((const uint32_t *)row)[i];
    default: return ((const uint64_t *)row)[i];
    }
}

static inline void unit_set(void *row, size_t us, size_t i, uint64_t v)
{
    switch (us) {
    case 2: ((uint16_t *)row)[i] = (uint16_t)v; break;
    case 4: ((uint32_t *)row)[i] = (uint32_t)v; break;
    default: ((uint64_t *)row)[i] = v; break;
    }
}

/* Store frame row r (x: its units [slo, shi)); transposed frames into tile
 * row t, written out by lane_tile_store. */
static void lane_store(const frame *f, const seg *g, size_t us, size_t r, size_t t, const void *x)
{
    size_t own = g->shi - g->slo;
    if (f->tr) {
        memcpy((unsigned char *)g->ts + t * own * us, x, own * us);
        return;
    }
    toggle__vecs *o = f->out;
    size_t at = board_row(f, r) * f->C + g->slo;
    unsigned char *row = (unsigned char *)toggle__vecs_row(o, f->outvec);
    if (o->width == 8 * us) {
        memcpy(row + at * us, x, own * us);
    } else if (o->width == 8 && us == 2) {
        for (size_t i = 0; i < own; i++)
            row[at + i] = (unsigned char)((const uint16_t *)x)[i];
    } else {
        for (size_t i = 0; i < own; i++)
            toggle__vecs_set(o, f->outvec, at + i, unit_get(x, us, i));
    }
}

/* The right-hand side of frame row r into bl (units [lo, hi)); transposed
 * frames from tile row t (lane_tile_load_b). */
static void lane_load_b(const frame *f, const seg *g, size_t us, size_t r, size_t t, void *bl)
{
    size_t n = g->hi - g->lo;
    if (!f->b) {
        memset(bl, 0, n * us);
        return;
    }
    if (f->tr) {
        memcpy(bl, (const unsigned char *)g->tb + t * n * us, n * us);
        return;
    }
    size_t at = board_row(f, r) * f->C + g->lo;
    const unsigned char *row = (const unsigned char *)toggle__vecs_row(f->b, 0);
    if (f->b->width == 8 * us) {
        memcpy(bl, row + at * us, n * us);
    } else if (f->b->width == 8 && us == 2) {
        for (size_t i = 0; i < n; i++)
            ((uint16_t *)bl)[i] = row[at + i];
    } else {
        for (size_t i = 0; i < n; i++)
            unit_set(bl, us, i, toggle__vecs_get(f->b, 0, at + i));
    }
}

/* Transposed frames, a block of nb <= 64 frame rows from board column base:
 * cell j of tile row t is board cell j R + base + t, so each board row j is
 * read or written as one run of nb entries instead of nb scattered ones. */
static void lane_tile_load_b(const frame *f, const seg *g, size_t us, size_t base, size_t nb)
{
    size_t n = g->hi - g->lo;
    const toggle__vecs *b = f->b;
    const unsigned char *row = (const unsigned char *)toggle__vecs_row(b, 0);
    /* 32 board rows at a time: their runs stay in L1 while t goes by */
    for (size_t j0 = g->lo; j0 < g->hi; j0 += 32) {
        size_t jn = g->hi - j0 < 32 ? g->hi - j0 : 32;
        for (size_t t = 0; t < nb; t++) {
            unsigned char *dst = (unsigned char *)g->tb + t * n * us;
            if (b->width == 8 && us == 2)
                for (size_t jj = 0; jj < jn; jj++)
                    ((uint16_t *)dst)[j0 - g->lo + jj] = row[(j0 + jj) * f->R + base + t];
            else
                for (size_t jj = 0; jj < jn; jj++)
                    unit_set(dst, us, j0 - g->lo + jj,
                             toggle__vecs_get(b, 0, (j0 + jj) * f->R + base + t));
        }
    }
}

static void lane_tile_store(const frame *f, const seg *g, size_t us, size_t base, size_t nb)
{
    size_t own = g->shi - g->slo;
    toggle__vecs *o = f->out;
    unsigned char *row = (unsigned char *)toggle__vecs_row(o, f->outvec);
    for (size_t j0 = g->slo; j0 < g->shi; j0 += 32) {
        size_t jn = g->shi - j0 < 32 ? g->shi - j0 : 32;
        for (size_t t = 0; t < nb; t++) {
            const unsigned char *src = (const unsigned char *)g->ts + t * own * us;
            if (o->width == 8 && us == 2)
                for (size_t jj = 0; jj < jn; jj++)
                    row[(j0 + jj) * f->R + base + t] =
                        (unsigned char)((const uint16_t *)src)[j0 - g->slo + jj];
            else
                for (size_t jj = 0; jj < jn; jj++)
                    toggle__vecs_set(o, f->outvec, (j0 + jj) * f->R + base + t,
                                     unit_get(src, us, j0 - g->slo + jj));
        }
    }
}

/* Each new cell is b + 4p - (four terms < p), below 5p, brought under p by
 * three branch-free min(v, v - m) steps; the lane type is the narrowest with
 * 5p <= 2^bits, so 16-bit lanes serve p <= 13107 and gcc vectorises the loop
 * for the baseline ISA (SSE2 on x86-64; see docs/grid.md). For k = 2^e the
 * lanes wrap and keep e bits. Rows go in blocks of 64 (transposed frames'
 * tiles). */
#define DEFINE_LANE_SEG(NAME, T, POW2)                                               \
    static void NAME(const frame *f, seg *g, size_t r0, size_t nrows)                \
    {                                                                                \
        size_t lo = g->lo, n = g->hi - g->lo;                                        \
        T *cur = g->cur, *nxt = g->nxt, *prv = g->prv, *bl = g->bl;                  \
        const T p1 = (T)f->p, p2 = (T)(2 * f->p), p4 = (T)(4 * f->p);                 \
        const T dm = f->d ? (T)~(T)0 : 0;                                            \
        const T mask = (T)(f->p - 1);                                                \
        for (size_t k0 = 0; k0 < nrows; k0 += 64) {                                  \
            size_t nb = nrows - k0 < 64 ? nrows - k0 : 64;                           \
            size_t ra = board_row(f, r0 - k0), rb = board_row(f, r0 - k0 - nb + 1); \
            size_t base = ra < rb ? ra : rb;                                         \
            if (f->tr && f->b)                                                       \
                lane_tile_load_b(f, g, sizeof(T), base, nb);                         \
            for (size_t k = k0; k < k0 + nb; k++) {                                  \
                size_t r = r0 - k, t = board_row(f, r) - base;                       \
                if (f->out)                                                          \
                    lane_store(f, g, sizeof(T), r, t, cur + 1 + (g->slo - lo));      \
                lane_load_b(f, g, sizeof(T), r, t, bl);                              \
                for (size_t j = 0; j < n; j++) {                                     \
                    T s = (T)(cur[j] + cur[j + 2] + (T)(cur[j + 1] & dm) + nxt[j + 1]); \
                    T v;                                                             \
                    if (POW2) {                                                      \
                        v = (T)((T)(bl[j] - s) & mask);                              \
                    } else {                                                         \
                        T u;                                                         \
                        v = (T)(bl[j] + p4 - s);                                     \
                        u = (T)(v - p4); v = u < v ? u : v;                          \
                        u = (T)(v - p2); v = u < v ? u : v;                          \
                        u = (T)(v - p1); v = u < v ? u : v;                          \
                    }                                                                \
                    prv[j + 1] = v;                                                  \
                }                                                                    \
                T *tmp = nxt;                                                        \
                nxt = cur;                                                           \
                cur = prv;                                                           \
                prv = tmp;                                                           \
            }                                                                        \
            if (f->tr && f->out)                                                     \
                lane_tile_store(f, g, sizeof(T), base, nb);                          \
        }                                                                            \
        g->cur = cur;                                                                \
        g->nxt = nxt;                                                                \
        g->prv = prv;                                                                \
    }

DEFINE_LANE_SEG(seg_u16, uint16_t, 0)
DEFINE_LANE_SEG(seg_u32, uint32_t, 0)
DEFINE_LANE_SEG(seg_u64, uint64_t, 0)
DEFINE_LANE_SEG(seg_pow2_u16, uint16_t, 1)
DEFINE_LANE_SEG(seg_pow2_u32, uint32_t, 1)
DEFINE_LANE_SEG(seg_pow2_u64, uint64_t, 1)

/* Any p up to 2^63 - 1: plain modular steps. */
static void seg_big(const frame *f, seg *g, size_t r0, size_t nrows)
{
    size_t lo = g->lo, n = g->hi - g->lo;
    uint64_t p = f->p, *cur = g->cur, *nxt = g->nxt, *prv = g->prv;
    for (size_t k = 0; k < nrows; k++) {
        size_t r = r0 - k;
        if (f->out)
            for (size_t j = g->slo; j < g->shi; j++)
                toggle__vecs_set(f->out, f->outvec, cell_index(f, r, j), cur[1 + j - lo]);
        for (size_t j = 0; j < n; j++) {
            uint64_t s = toggle__addmod(cur[j], cur[j + 2], p);
            if (f->d)
                s = toggle__addmod(s, cur[j + 1], p);
            s = toggle__addmod(s, nxt[j + 1], p);
            uint64_t bj = f->b ? toggle__vecs_get(f->b, 0, cell_index(f, r, lo + j)) : 0;
            prv[j + 1] = toggle__submod(bj, s, p);
        }
        uint64_t *t = nxt;
        nxt = cur;
        cur = prv;
        prv = t;
    }
    g->cur = cur;
    g->nxt = nxt;
    g->prv = prv;
}

/* ---- the driver -------------------------------------------------------------- */

typedef struct {
    seg_fn fn;
    size_t us;     /* bytes per unit */
    size_t pad;    /* pad units on each side */
    size_t units;  /* units per row */
    size_t halo;   /* halo units of a strip: enough for `block` rows */
} kern;

/* Rows per block between two joins of the strips. */
#define CHASE_BLOCK 64

static kern kernel_for(uint64_t p, size_t C)
{
    kern k = {seg_big, 8, 1, C, CHASE_BLOCK};
    if (p == 2)
        return (kern){gf2_seg, 8, 0, (C + 63) / 64, (CHASE_BLOCK + 63) / 64};
    if (!(p & (p - 1))) {
        k.us = p <= (uint64_t)1 << 16 ? 2 : p <= (uint64_t)1 << 32 ? 4 : 8;
        k.fn = k.us == 2 ? seg_pow2_u16 : k.us == 4 ? seg_pow2_u32 : seg_pow2_u64;
    } else if (p <= UINT16_MAX / 5) {
        k.us = 2;
        k.fn = seg_u16;
    } else if (p <= UINT32_MAX / 5) {
        k.us = 4;
        k.fn = seg_u32;
    } else if (p <= UINT64_MAX / 5) {
        k.fn = seg_u64;
    }
    return k;
}

/* Row w (C values) into units (gf2: packed bits; lanes: T values). */
static void units_from(const kern *k, void *dst, const uint64_t *w, size_t C)
{
    if (k->fn == gf2_seg) {
        uint64_t *d = dst;
        memset(d, 0, k->units * sizeof *d);
        for (size_t j = 0; j < C; j++)
            d[j >> 6] |= (w[j] & 1) << (j & 63);
        return;
    }
    for (size_t j = 0; j < C; j++) {
        if (k->us == 2)
            ((uint16_t *)dst)[j] = (uint16_t)w[j];
        else if (k->us == 4)
            ((uint32_t *)dst)[j] = (uint32_t)w[j];
        else
            ((uint64_t *)dst)[j] = w[j];
    }
}

static void units_to(const kern *k, const void *src, uint64_t *v, size_t C)
{
    for (size_t j = 0; j < C; j++) {
        if (k->fn == gf2_seg)
            v[j] = (((const uint64_t *)src)[j >> 6] >> (j & 63)) & 1;
        else if (k->us == 2)
            v[j] = ((const uint16_t *)src)[j];
        else if (k->us == 4)
            v[j] = ((const uint32_t *)src)[j];
        else
            v[j] = ((const uint64_t *)src)[j];
    }
}

/* Bytes of one segment's four rows of n units, and for F_2 its three tiles
 * of 64 rows (transposed frames). */
static size_t seg_bytes(const kern *k, size_t n)
{
    size_t row = (n + 2 * k->pad) * k->us, row8 = (row + 7) & ~(size_t)7;
    size_t tiles = k->fn == gf2_seg ? 3 * 64 * n * sizeof(uint64_t)
                 : k->fn == seg_big ? 0 : 8 + 2 * 64 * row8;
    return 4 * row + tiles;
}

static void seg_place(const kern *k, seg *g, unsigned char *buf)
{
    size_t n = g->hi - g->lo, row = (n + 2 * k->pad) * k->us;
    g->cur = buf;
    g->nxt = buf + row;
    g->prv = buf + 2 * row;
    g->bl = buf + 3 * row;
    g->tb = g->ts = g->tc = NULL;
    if (k->fn == gf2_seg) {
        g->tb = (uint64_t *)(void *)(buf + 4 * row);
        g->ts = g->tb + 64 * n;
        g->tc = g->ts + 64 * n;
    } else if (k->fn != seg_big) { /* 8-byte aligned tiles after the rows */
        size_t at = (size_t)(-(uintptr_t)(buf + 4 * row) & 7), row8 = (row + 7) & ~(size_t)7;
        g->tb = (uint64_t *)(void *)(buf + 4 * row + at);
        g->ts = g->tb + 64 * row8 / sizeof(uint64_t);
    }
}

/* ---- threads: column strips with halos -------------------------------------- */
/* The state of a chase is two consecutive rows. Strip t owns units [a, b)
 * and keeps [a - h, b + h) (cut at the board's sides); a unit it keeps but
 * does not own is wrong after the first row only at its outer edge, and
 * the wrong part grows by one cell per row, so after CHASE_BLOCK rows the
 * owned units are still exact (h covers CHASE_BLOCK cells). Each strip then
 * writes its owned units of the state to the shared copy and the strips
 * join; the next block starts from there. Every cell is computed by the
 * same arithmetic as in one thread, so the answers are identical. */
typedef struct {
    frame f;              /* the caller's frame with shared = true */
    const kern *k;
    seg *segs;            /* one per thread */
    unsigned char *st[2][2]; /* shared state: [which][cur, nxt], units each */
    int in;
    size_t r0, nrows;
} tjob;

static void strip_block(void *ctx, unsigned t, unsigned nt)
{
    (void)nt;
    tjob *j = ctx;
    const kern *k = j->k;
    seg *g = &j->segs[t];
    size_t us = k->us, n = g->hi - g->lo, own = g->shi - g->slo;
    memcpy((unsigned char *)g->cur + k->pad * us, j->st[j->in][0] + g->lo * us, n * us);
    memcpy((unsigned char *)g->nxt + k->pad * us, j->st[j->in][1] + g->lo * us, n * us);
    k->fn(&j->f, g, j->r0, j->nrows);
    size_t from = (k->pad + g->slo - g->lo) * us;
    memcpy(j->st[!j->in][0] + g->slo * us, (unsigned char *)g->cur + from, own * us);
    memcpy(j->st[!j->in][1] + g->slo * us, (unsigned char *)g->nxt + from, own * us);
}

/* The strips' units for nt threads, or 0 when the row is too narrow (each
 * strip should own at least four halos) or the board too small to gain. */
static bool strips_pay(const frame *f, const kern *k, unsigned nt)
{
    return nt > 1 && k->units >= (size_t)nt * 4 * k->halo && f->R > CHASE_BLOCK &&
           f->R * f->C >= ((size_t)1 << 15);
}

size_t toggle__chase_thread_bytes(uint64_t p, size_t C, unsigned nt)
{
    kern k = kernel_for(p, C);
    size_t strip = k.units / (nt ? nt : 1) + 2 * k.halo + 1;
    return 4 * k.units * k.us + (size_t)nt * (seg_bytes(&k, strip) + sizeof(seg));
}

static bool chase_strips(const frame *f, const kern *k, const uint64_t *w, uint64_t *virt,
                         unsigned nt)
{
    size_t U = k->units, us = k->us, total = 4 * U * us;
    for (unsigned t = 0; t < nt; t++) {
        size_t a = U * t / nt, b = U * (t + 1) / nt;
        size_t lo = a > k->halo ? a - k->halo : 0, hi = b + k->halo < U ? b + k->halo : U;
        total += seg_bytes(k, hi - lo);
    }
    seg *segs = toggle__calloc(nt, sizeof *segs);
    unsigned char *mem = toggle__calloc(total, 1);
    if (!segs || !mem) { /* one thread does it all */
        toggle__free(segs);
        toggle__free(mem);
        return false;
    }
    tjob j = {*f, k, segs, {{mem, mem + U * us}, {mem + 2 * U * us, mem + 3 * U * us}}, 0, 0, 0};
    j.f.shared = true;
    unsigned char *at = mem + 4 * U * us;
    for (unsigned t = 0; t < nt; t++) {
        seg *g = &segs[t];
        g->slo = U * t / nt;
        g->shi = U * (t + 1) / nt;
        g->lo = g->slo > k->halo ? g->slo - k->halo : 0;
        g->hi = g->shi + k->halo < U ? g->shi + k->halo : U;
        seg_place(k, g, at);
        at += seg_bytes(k, g->hi - g->lo);
    }
    units_from(k, j.st[0][0], w, f->C);
    for (size_t r0 = f->R - 1;; r0 -= j.nrows) {
        j.r0 = r0;
        j.nrows = r0 + 1 < CHASE_BLOCK ? r0 + 1 : CHASE_BLOCK;
        toggle__pool_run(f->pool, strip_block, &j);
        j.in = !j.in;
        if (j.nrows == r0 + 1)
            break;
    }
    units_to(k, j.st[j.in][0], virt, f->C);
    toggle__free(segs);
    toggle__free(mem);
    return true;
}

/* One chase from the last frame row w (C values) upward; virt receives the
 * virtual row above the board (C values): zero iff w leads to a solution.
 * With f->pool, column strips run on its threads. */
static void chase_run(const frame *f, const uint64_t *w, uint64_t *virt, void *work)
{
    kern k = kernel_for(f->p, f->C);
    unsigned nt = toggle__pool_threads(f->pool);
    if (strips_pay(f, &k, nt) && chase_strips(f, &k, w, virt, nt))
        return;
    seg g = {0, k.units, 0, k.units, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    memset(work, 0, seg_bytes(&k, k.units));
    seg_place(&k, &g, work);
    units_from(&k, (unsigned char *)g.cur + k.pad * k.us, w, f->C);
    k.fn(f, &g, f->R - 1, f->R);
    units_to(&k, (unsigned char *)g.cur + k.pad * k.us, virt, f->C);
}

typedef toggle__chase_fn chase_fn;

chase_fn toggle__chase_pick(uint64_t p, size_t C, size_t *bytes)
{
    kern k = kernel_for(p, C);
    *bytes = seg_bytes(&k, k.units);
    return chase_run;
}
