/* The sliced chase over F_2 (lead block B = I): cells packed 64 to a word,
 * one lane at a time, rows stored doubled so that a rotation is a window;
 * the hex recurrence as a prefix XOR along the row. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* Frame row r of b (C bits) into out (CW words). */
void toggle__tr_sliced_load_b(const tframe *f, const toggle_system *s, size_t r, uint64_t *out,
                          btile *bt)
{
    size_t C = f->C, CW = (C + 63) / 64;
    memset(out, 0, CW * sizeof *out);
    if (!f->tr) {
        const uint64_t *src = toggle__vecs_row(&s->b, 0);
        size_t off = frame_cell(f, r, 0), last = (s->b.len + 63) / 64;
        for (size_t i = 0; i < CW; i++) {
            size_t q = (off >> 6) + i;
            unsigned sh = off & 63;
            uint64_t lo = q < last ? src[q] >> sh : 0;
            uint64_t hi = (sh && q + 1 < last) ? src[q + 1] << (64 - sh) : 0;
            out[i] = lo | hi;
        }
        if (C & 63)
            out[CW - 1] &= ((uint64_t)1 << (C & 63)) - 1;
    } else if (bt && bt->w && !f->rev) {
        size_t r0 = r & ~(size_t)63, last = (s->b.len + 63) / 64;
        const uint64_t *src = toggle__vecs_row(&s->b, 0);
        if (!bt->have || bt->r0 != r0) {
            for (size_t j = 0; j < C; j++) /* (bits past the board row are not read) */
                bt->w[j] = toggle__bits_window(src, last, frame_cell(f, r0, j));
            toggle__bits_transpose(bt->w + C, CW, bt->w, 1, C, 64);
            bt->r0 = r0;
            bt->have = true;
        }
        memcpy(out, bt->w + C + (r - r0) * CW, CW * sizeof *out);
    } else {
        for (size_t j = 0; j < C; j++)
            out[j >> 6] |= toggle__vecs_get(&s->b, 0, frame_cell(f, r, j)) << (j & 63);
    }
}

/* out (CW words, C bits) = sum over pt's terms (without the lead on chasing
 * rows) of mask AND the slot's row of lane l rotated; rows are stored
 * doubled (2C bits) so that a rotation is a window. */
static void sliced_row(const tframe *f, const rowpat *pt, uint64_t *const *base, size_t l,
                       size_t DW, bool skip_lead, uint64_t *out)
{
    size_t C = f->C, CW = (C + 63) / 64;
    memset(out, 0, CW * sizeof *out);
    for (size_t i = 0; i < pt->nst; i++) {
        const struct sterm *t = &pt->sterm[i];
        if (skip_lead && t->lead)
            continue;
        const uint64_t *src = base[t->slot] + l * DW, *mk = pt->smask + i * CW;
        for (size_t q = 0; q < CW; q++)
            out[q] ^= mk[q] & bits_at(src, q * 64 + t->rot);
    }
}

/* Store C bits as the doubled row dst (DW words). */
void toggle__tr_sliced_store(uint64_t *dst, const uint64_t *bits, size_t C, size_t DW)
{
    size_t CW = (C + 63) / 64;
    memset(dst, 0, DW * sizeof *dst);
    memcpy(dst, bits, CW * sizeof *dst);
    size_t q = C >> 6;
    unsigned sh = C & 63;
    for (size_t i = 0; i < CW; i++) {
        dst[q + i] |= bits[i] << sh;
        if (sh)
            dst[q + i + 1] |= bits[i] >> (64 - sh);
    }
}


/* F_2, one lane of a hex-recurrence row: out = x_{r+1} (C bits) from the
 * doubled rows of r (base[1]) and r - 1 (base[0], NULL for r = 0) and b
 * (bl, C bits, or NULL): v = b + x_r(c - delta) [+ x_r(c) when d is even],
 * w = B^-1 v by a prefix (delta = -1) or suffix XOR, out = w + x_r + x_{r-1}. */
static void rec_sliced_row(const tframe *f, const rowpat *pt, uint64_t *const *base, size_t l,
                           size_t DW, const uint64_t *bl, uint64_t *out)
{
    size_t C = f->C, CW = (C + 63) / 64;
    const uint64_t *xr = base[1] + l * DW, *xm = base[0] ? base[0] + l * DW : NULL;
    uint64_t last = (C & 63) ? ((uint64_t)1 << (C & 63)) - 1 : ~(uint64_t)0;
    bool asc = pt->rec == 1, self0 = !(pt->rself & 1);
    for (size_t q = 0; q < CW; q++)
        out[q] = bits_at(xr, q * 64 + (asc ? 1 : C - 1));
    /* the doubled row wraps round: no x_r(C) (ascending), no x_r(-1) */
    if (asc)
        out[(C - 1) >> 6] &= ~((uint64_t)1 << ((C - 1) & 63));
    else
        out[0] &= ~(uint64_t)1;
    for (size_t q = 0; q < CW; q++)
        out[q] ^= (self0 ? xr[q] : 0) ^ (bl ? bl[q] : 0);
    out[CW - 1] &= last;
    uint64_t carry = 0;
    if (asc) {
        for (size_t q = 0; q < CW; q++) {
            uint64_t x = out[q];
            x ^= x << 1, x ^= x << 2, x ^= x << 4, x ^= x << 8, x ^= x << 16, x ^= x << 32;
            x ^= carry;
            carry = (uint64_t)0 - (x >> 63);
            out[q] = x;
        }
    } else {
        for (size_t q = CW; q-- > 0;) {
            uint64_t x = out[q];
            x ^= x >> 1, x ^= x >> 2, x ^= x >> 4, x ^= x >> 8, x ^= x >> 16, x ^= x >> 32;
            x ^= carry;
            carry = (uint64_t)0 - (x & 1);
            out[q] = x;
        }
    }
    for (size_t q = 0; q < CW; q++)
        out[q] ^= xr[q] ^ (xm ? xm[q] : 0);
    out[CW - 1] &= last;
}

/* The chase of toggle__tr_chase() for the sliced case: the same inputs (ln->saved,
 * cell-major) and outputs (resid cell-major; sinks get lane-major rows). */
int toggle__tr_chase_sliced(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid,
                        row_sink sink, void *ctx)
{
    const tframe *f = ln->f;
    size_t C = f->C, CW = (C + 63) / 64, DW = (2 * C + 63) / 64 + 1, L = ln->L;
    size_t fc = first_constraint(f), nring = f->Hf + f->Hb + 1, rowsz = L * DW;
    uint64_t *saved = toggle__malloc_array(f->nuk * rowsz, sizeof *saved);
    uint64_t *ring = toggle__malloc_array(nring * rowsz, sizeof *ring);
    uint64_t *tmp = toggle__malloc_array(L * CW + CW, sizeof *tmp);
    btile bt = {with_b && f->tr ? toggle__malloc_array(BTILE_WORDS(C), sizeof *bt.w) : NULL, 0,
                false};
    int rc = TOGGLE_OK;
    if (!saved || !ring || !tmp || (with_b && f->tr && !bt.w)) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
        goto out;
    }
    uint64_t *bw = tmp + L * CW;
    /* the unknown rows, lane-major and doubled */
    for (size_t u = 0; u < f->nuk; u++) {
        toggle__bits_transpose(tmp, CW, ln->saved + u * C * ln->nw, ln->nw, C, L);
        for (size_t l = 0; l < L; l++)
            toggle__tr_sliced_store(saved + u * rowsz + l * DW, tmp + l * CW, C, DW);
    }
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    for (size_t r = 0; r < f->R; r++) {
        size_t u = unknown_slot(f, r);
        if (sink && u != SIZE_MAX)
            sink(ctx, ln, r, NULL, saved + u * rowsz, DW);
    }
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt = &f->cls[class_of(f, r)];
        own_bases(f, r, saved, ring, rowsz, base);
        bool chasing = r < fc;
        if (with_b)
            toggle__tr_sliced_load_b(f, s, r, bw, &bt);
        for (size_t l = 0; l < L; l++) {
            uint64_t *o = tmp + l * CW;
            const uint64_t *bl = with_b && l == ln->blane ? bw : NULL;
            if (chasing && pt->rec > 0) {
                rec_sliced_row(f, pt, base, l, DW, bl, o);
            } else {
                sliced_row(f, pt, base, l, DW, chasing, o);
                for (size_t q = 0; bl && q < CW; q++)
                    o[q] ^= bl[q];
            }
            if (chasing)
                toggle__tr_sliced_store(base[f->Hf + f->Hb] + l * DW, o, C, DW);
        }
        if (chasing) {
            if (sink)
                sink(ctx, ln, r + f->Hf, NULL, base[f->Hf + f->Hb], DW);
        } else {
            /* residual b + A x of the constraint row, cell-major */
            toggle__bits_transpose(resid + (r - fc) * C * ln->nw, ln->nw, tmp, CW, L, C);
        }
    }
out:
    toggle__free(saved);
    toggle__free(ring);
    toggle__free(tmp);
    toggle__free(bt.w);
    return rc;
}
