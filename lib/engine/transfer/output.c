/* The answers' sink: chased rows written into x and the kernel vectors
 * (packed F_2 rows, a transposed frame's blocks of 64 board columns, narrow
 * odd-p storage). Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* Lane l's vector in the answers (x first when with_b). */
static uint64_t *out_vec(const out_ctx *ctx, size_t l)
{
    return ctx->with_b && l == 0 ? toggle__vecs_row(&ctx->sol->x, 0)
                                 : toggle__vecs_row(&ctx->sol->kernel, l - ctx->with_b);
}

/* OR the nb (1 .. 64) bits of w into v at bit off (w has no bits past nb). */
static inline void or_word(uint64_t *v, size_t off, uint64_t w, size_t nb)
{
    size_t q = off >> 6;
    unsigned sh = off & 63;
    v[q] |= w << sh;
    if (sh && nb > 64 - sh)
        v[q + 1] |= w >> (64 - sh);
}

/* The held block of board columns into the answers: board row j's bits on
 * those columns, for each lane, as one word ORed in at j * cols + 64 bcur
 * (the answers start at 0, and every column is received once, so blocks
 * flushed in parts compose). Cell-major: for each cell j and 64 lanes the
 * 64 x 64 block (column q, lane) transposed; lane rows: per lane its 64 x C
 * bits transposed into C words. */
void toggle__tr_tcol_flush(out_ctx *ctx, const lanes *ln)
{
    const tframe *f = ln->f;
    if (ctx->bcur == SIZE_MAX || !ctx->bhave)
        return;
    size_t C = f->C, CW = (C + 63) / 64, cols = f->g->cols, c0 = ctx->bcur * 64;
    size_t nb = cols - c0 < 64 ? cols - c0 : 64, L = ln->L, nw = ln->nw, rs = C * nw;
    if (ctx->cube) {
        for (size_t j = 0; j < C; j++)
            for (size_t q = 0; q * 64 < L; q++) {
                toggle__bits_transpose(ctx->col, 1, ctx->blk + j * nw + q, rs, 64, 64);
                for (size_t lb = 0; lb < 64 && q * 64 + lb < L; lb++)
                    if (ctx->col[lb])
                        or_word(out_vec(ctx, q * 64 + lb), j * cols + c0, ctx->col[lb], nb);
            }
        for (uint64_t h = ctx->bhave; h; h &= h - 1)
            memset(ctx->blk + (size_t)__builtin_ctzll(h) * rs, 0, rs * sizeof *ctx->blk);
    } else {
        for (size_t l = 0; l < L; l++) {
            uint64_t *v = out_vec(ctx, l), *b = ctx->blk + l * 64 * CW;
            toggle__bits_transpose(ctx->col, 1, b, CW, 64, C);
            for (size_t j = 0; j < C; j++)
                if (ctx->col[j])
                    or_word(v, j * cols + c0, ctx->col[j], nb);
            for (uint64_t h = ctx->bhave; h; h &= h - 1)
                memset(b + (size_t)__builtin_ctzll(h) * CW, 0, CW * sizeof *b);
        }
    }
    ctx->bhave = 0;
}

/* Frame row r of a transposed F_2 frame into the held block (the block
 * before it flushed first): cell-major rows copied whole, lane rows per
 * lane. A chase hands over rows of one kind. */
static void tcol_put(out_ctx *ctx, const lanes *ln, size_t r, const uint64_t *row,
                     const uint64_t *lrow, size_t lstride)
{
    const tframe *f = ln->f;
    size_t C = f->C, CW = (C + 63) / 64, c = f->rev ? f->R - 1 - r : r;
    if (ctx->bcur != c / 64 || ctx->cube != !lrow) {
        toggle__tr_tcol_flush(ctx, ln);
        ctx->bcur = c / 64;
        ctx->cube = !lrow;
    }
    if (lrow) {
        uint64_t *d = ctx->blk + (c % 64) * CW;
        for (size_t l = 0; l < ln->L; l++) {
            memcpy(d + l * 64 * CW, lrow + l * lstride, CW * sizeof *d);
            if (C & 63)
                d[l * 64 * CW + CW - 1] &= ((uint64_t)1 << (C & 63)) - 1;
        }
    } else {
        memcpy(ctx->blk + (c % 64) * C * ln->nw, row, C * ln->nw * sizeof *row);
    }
    ctx->bhave |= (uint64_t)1 << (c % 64);
}

#define OUT_INLINE static inline __attribute__((always_inline))

/* F_3 lane rows into byte storage: the two planes of each lane into
 * bytes, 8 cells at a time along a board row, a cell at a time down a
 * board column. */
OUT_INLINE void write_p3_planes(out_ctx *ctx, const lanes *ln, size_t r, const uint64_t *lrow,
                                size_t lstride)
{
    const tframe *f = ln->f;
    size_t C = f->C, base = frame_cell(f, r, 0), step = f->tr ? f->g->cols : 1;
    for (size_t l = 0; l < ln->L; l++) {
        if (ctx->dst && !ctx->dst[l])
            continue; /* (a lane toggle__tr_span_chase does not keep) */
        unsigned char *d = (unsigned char *)(ctx->dst ? ctx->dst[l] : out_vec(ctx, l)) + base;
        const uint64_t *lo = lrow + l * lstride, *hi = lo + lstride / 2;
        size_t j = 0;
        for (; !f->tr && j + 8 <= C; j += 8) {
            uint64_t v = bits_bytes((lo[j >> 6] >> (j & 63)) & 0xff)
                       | bits_bytes((hi[j >> 6] >> (j & 63)) & 0xff) << 1;
            memcpy(d + j, &v, 8);
        }
        for (; j < C; j++)
            d[j * step] = (unsigned char)(((lo[j >> 6] >> (j & 63)) & 1)
                                          | ((hi[j >> 6] >> (j & 63)) & 1) << 1);
    }
}

/* F_2 lane rows: each lane's C bits ORed into its packed vector. */
OUT_INLINE void write_lane_bits(out_ctx *ctx, const lanes *ln, size_t r, const uint64_t *lrow,
                                size_t lstride)
{
    const tframe *f = ln->f;
    for (size_t l = 0; l < ln->L; l++) {
        uint64_t *v = out_vec(ctx, l);
        const uint64_t *bits = lrow + l * lstride;
        if (!f->tr) {
            or_bits(v, frame_cell(f, r, 0), bits, f->C);
            continue;
        }
        for (size_t j = 0; j < f->C; j++)
            if ((bits[j >> 6] >> (j & 63)) & 1)
                or_word(v, frame_cell(f, r, j), 1, 1);
    }
}

/* F_2 cell-major row along a board row: the C x L bit matrix of the row,
 * transposed into tbuf (a few lanes bit by bit), lane l's C bits ORed
 * into its vector. */
OUT_INLINE void write_f2_transposed(out_ctx *ctx, const lanes *ln, size_t r, const uint64_t *row)
{
    const tframe *f = ln->f;
    size_t CW = (f->C + 63) / 64;
    if (ln->L <= 4) {
        memset(ctx->tbuf, 0, ln->L * CW * sizeof *ctx->tbuf);
        for (size_t l = 0; l < ln->L; l++)
            for (size_t j = 0; j < f->C; j++)
                ctx->tbuf[l * CW + (j >> 6)] |= ((row[j * ln->nw] >> l) & 1) << (j & 63);
    } else {
        toggle__bits_transpose(ctx->tbuf, CW, row, ln->nw, f->C, ln->L);
    }
    for (size_t l = 0; l < ln->L; l++)
        or_bits(out_vec(ctx, l), frame_cell(f, r, 0), ctx->tbuf + l * CW, f->C);
}

/* Cells j0 .. j1 - 1 of one lane (the field at shift sh of src's words)
 * into the vector v's narrow storage of the given width, at base + j step. */
OUT_INLINE void write_lane_narrow(uint64_t *v, size_t base, unsigned width, const uint64_t *src,
                                  size_t nw, unsigned sh, uint64_t fm, size_t j0, size_t j1,
                                  size_t step)
{
    switch (width) {
    case 8: {
        uint8_t *d = (uint8_t *)v + base;
        for (size_t j = j0; j < j1; j++)
            d[j * step] = (uint8_t)((src[j * nw] >> sh) & fm);
        break;
    }
    case 16: {
        uint16_t *d = (uint16_t *)v + base;
        for (size_t j = j0; j < j1; j++)
            d[j * step] = (uint16_t)((src[j * nw] >> sh) & fm);
        break;
    }
    case 32: {
        uint32_t *d = (uint32_t *)v + base;
        for (size_t j = j0; j < j1; j++)
            d[j * step] = (uint32_t)((src[j * nw] >> sh) & fm);
        break;
    }
    default:
        for (size_t j = j0; j < j1; j++)
            v[base + j * step] = (src[j * nw] >> sh) & fm;
    }
}

/* Odd p with destinations: lane l's field of every cell, straight into
 * its vector's narrow storage at base + j step (board rows: r C + j; a
 * transposed frame: j cols + its column), 64 cells at a time for every
 * lane so that the cells stay in the first cache. */
OUT_INLINE void write_odd_dst(out_ctx *ctx, const lanes *ln, size_t r, const uint64_t *row)
{
    const tframe *f = ln->f;
    size_t per = ln->lf.per, base = frame_cell(f, r, 0), nw = ln->nw, C = f->C;
    size_t step = f->tr ? f->g->cols : 1;
    uint64_t fm = ln->lf.fmask;
    unsigned width = ctx->sol->kernel.width;
    for (size_t j0 = 0; j0 < C; j0 += 64) {
        size_t j1 = C - j0 < 64 ? C : j0 + 64;
        for (size_t l = 0; l < ln->L; l++) {
            if (!ctx->dst[l])
                continue;
            const uint64_t *src = row + l / per;
            unsigned sh = (unsigned)((l % per) * ln->lf.lw);
            write_lane_narrow(ctx->dst[l], base, width, src, nw, sh, fm, j0, j1, step);
        }
    }
}

/* Any other row: lane by lane, cell by cell. */
OUT_INLINE void write_cells(out_ctx *ctx, const lanes *ln, size_t r, const uint64_t *row)
{
    const tframe *f = ln->f;
    for (size_t j = 0; j < f->C; j++) {
        const uint64_t *cell = row + j * ln->nw;
        size_t idx = frame_cell(f, r, j);
        for (size_t l = 0; l < ln->L; l++) {
            uint64_t v = lane_get(ln, cell, l);
            if (!v)
                continue;
            if (ctx->with_b && l == 0)
                toggle__vecs_set(&ctx->sol->x, 0, idx, v);
            else
                toggle__vecs_set(&ctx->sol->kernel, l - ctx->with_b, idx, v);
        }
    }
}

/* Chased frame row r into the answers: cell-major (row, nw words a cell)
 * or lane rows (lrow, lstride words a lane), by the storage's form. */
void toggle__tr_write_row(void *ctx_, const lanes *ln, size_t r, const uint64_t *row,
                      const uint64_t *lrow, size_t lstride)
{
    out_ctx *ctx = ctx_;
    const tframe *f = ln->f;
    if (ctx->blk)
        tcol_put(ctx, ln, r, row, lrow, lstride);
    else if (lrow && f->p == 3 && ctx->sol->kernel.width == 8)
        write_p3_planes(ctx, ln, r, lrow, lstride);
    else if (lrow)
        write_lane_bits(ctx, ln, r, lrow, lstride);
    else if (f->p == 2 && !f->tr && ctx->tbuf)
        write_f2_transposed(ctx, ln, r, row);
    else if (f->p != 2 && ctx->dst)
        write_odd_dst(ctx, ln, r, row);
    else
        write_cells(ctx, ln, r, row);
}
