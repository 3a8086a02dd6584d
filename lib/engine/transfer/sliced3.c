/* The sliced chase over F_3: as the sliced F_2 chase (sliced.c), a lane's
 * row two doubled bit planes (lo, hi) of DW words each (S3_ADD's residues);
 * a term adds its mask's cells of weight 1 and subtracts those of weight 2.
 * The sinks get the unknown rows cell-major and the chased rows as lane rows
 * (both planes); the constraint rows' residuals go to resid cell-major in
 * 4-bit fields. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"
#include "engine/transfer/s3.h"

/* Frame row r of b as the planes lo, hi (CW words each). */
static void sliced3_load_b(const tframe *f, const toggle_system *s, size_t r, uint64_t *lo,
                           uint64_t *hi)
{
    size_t C = f->C, CW = (C + 63) / 64, e = 0;
    memset(lo, 0, CW * sizeof *lo);
    memset(hi, 0, CW * sizeof *hi);
    if (!f->tr && s->b.width == 8) {
        /* 8 residues (bytes 0 .. 2: bit 0 is [v = 1], bit 1 [v = 2]) at a time */
        const unsigned char *src = (const unsigned char *)toggle__vecs_row(&s->b, 0)
                                 + frame_cell(f, r, 0);
        for (; e + 8 <= C; e += 8) {
            uint64_t w;
            memcpy(&w, src + e, 8);
            lo[e >> 6] |= byte_bits(w) << (e & 63);
            hi[e >> 6] |= byte_bits(w >> 1) << (e & 63);
        }
    }
    for (; e < C; e++) {
        uint64_t v = toggle__vecs_get(&s->b, 0, frame_cell(f, r, e));
        lo[e >> 6] |= (uint64_t)(v == 1) << (e & 63);
        hi[e >> 6] |= (uint64_t)(v == 2) << (e & 63);
    }
}

/* (ol, oh) = b - the sum over pt's terms (without the lead on chasing rows)
 * of the slot's row of lane l rotated, weighted by the masks; b (bl, bh) or
 * NULL for 0. */
static void sliced3_row(const tframe *f, const rowpat *pt, uint64_t *const *base, size_t l,
                        size_t DW, bool skip_lead, const uint64_t *bl, const uint64_t *bh,
                        uint64_t *ol, uint64_t *oh)
{
    size_t C = f->C, CW = (C + 63) / 64;
    for (size_t q = 0; q < CW; q++) {
        ol[q] = bl ? bl[q] : 0;
        oh[q] = bh ? bh[q] : 0;
    }
    for (size_t i = 0; i < pt->nst; i++) {
        const struct sterm *t = &pt->sterm[i];
        if (skip_lead && t->lead)
            continue;
        const uint64_t *sl = base[t->slot] + 2 * l * DW, *sh = sl + DW;
        const uint64_t *m1 = pt->smask + i * CW, *m2 = pt->smask2 + i * CW;
        for (size_t q = 0; q < CW; q++) {
            uint64_t xl = bits_at(sl, q * 64 + t->rot), xh = bits_at(sh, q * 64 + t->rot);
            uint64_t yl = (m1[q] & xl) | (m2[q] & xh), yh = (m1[q] & xh) | (m2[q] & xl);
            S3_ADD(ol[q], oh[q], yh, yl); /* minus y */
        }
    }
}

/* One lane of a hex-recurrence row over F_3 (rec_sliced_row's planes):
 * v = b - x_r(c - delta) - (d - 1) x_r(c), w(c) = v(c) - w(c + delta),
 * out = w - x_r - x_{r-1}. With s(c) = (-1)^c w(c) the chain is the plain
 * prefix (delta = -1) or suffix sum of (-1)^c v(c): the odd cells' planes
 * swapped, six shift-and-add rounds a word, the previous word's last sum
 * added to every cell, the odd cells swapped back. */
static void rec_sliced3_row(const tframe *f, const rowpat *pt, uint64_t *const *base, size_t l,
                            size_t DW, const uint64_t *bl, const uint64_t *bh, uint64_t *ol,
                            uint64_t *oh)
{
    const uint64_t odd = 0xAAAAAAAAAAAAAAAAull;
    size_t C = f->C, CW = (C + 63) / 64;
    const uint64_t *xl = base[1] + 2 * l * DW, *xh = xl + DW;
    const uint64_t *ml = base[0] ? base[0] + 2 * l * DW : NULL, *mh = ml ? ml + DW : NULL;
    uint64_t last = (C & 63) ? ((uint64_t)1 << (C & 63)) - 1 : ~(uint64_t)0;
    bool asc = pt->rec == 1;
    uint64_t d = pt->rself % 3;
    size_t rot = asc ? 1 : C - 1, wq = asc ? (C - 1) >> 6 : 0;
    /* the doubled row wraps round: no x_r(C) (ascending), no x_r(-1) */
    uint64_t wbit = asc ? (uint64_t)1 << ((C - 1) & 63) : 1;
    for (size_t q = 0; q < CW; q++) {
        uint64_t nl = bits_at(xl, q * 64 + rot), nh = bits_at(xh, q * 64 + rot);
        uint64_t ul = bl ? bl[q] : 0, uh = bh ? bh[q] : 0, keep = q + 1 < CW ? ~(uint64_t)0 : last;
        if (q == wq)
            nl &= ~wbit, nh &= ~wbit;
        S3_ADD(ul, uh, nh & keep, nl & keep);
        if (d == 0)
            S3_ADD(ul, uh, xl[q] & keep, xh[q] & keep);
        else if (d == 2)
            S3_ADD(ul, uh, xh[q] & keep, xl[q] & keep);
        uint64_t t = (ul ^ uh) & odd;
        ol[q] = ul ^ t;
        oh[q] = uh ^ t;
    }
    uint64_t cl = 0, ch = 0;
    for (size_t k = 0; k < CW; k++) {
        size_t q = asc ? k : CW - 1 - k;
        uint64_t a = ol[q], b = oh[q];
        for (unsigned sh = 1; sh < 64; sh *= 2) {
            uint64_t sa = asc ? a << sh : a >> sh, sb = asc ? b << sh : b >> sh;
            S3_ADD(a, b, sa, sb);
        }
        S3_ADD(a, b, cl, ch);
        cl = (uint64_t)0 - (asc ? a >> 63 : a & 1);
        ch = (uint64_t)0 - (asc ? b >> 63 : b & 1);
        uint64_t t = (a ^ b) & odd;
        a ^= t, b ^= t;
        S3_ADD(a, b, xh[q], xl[q]);
        if (ml)
            S3_ADD(a, b, mh[q], ml[q]);
        uint64_t keep = q + 1 < CW ? ~(uint64_t)0 : last;
        ol[q] = a & keep;
        oh[q] = b & keep;
    }
}

/* Lane l's planes (CW words each) into the cell-major row of 4-bit fields
 * (C cells of nw words; the lane's fields are 0 before). */
static void sliced3_to_cells(const lanes *ln, size_t l, const uint64_t *lo, const uint64_t *hi,
                             uint64_t *row)
{
    size_t C = ln->f->C, nw = ln->nw, wi = l / 16;
    unsigned sh = (unsigned)(l % 16) * 4;
    for (size_t j = 0; j < C; j++)
        row[j * nw + wi] |= (((lo[j >> 6] >> (j & 63)) & 1) | (((hi[j >> 6] >> (j & 63)) & 1) << 1))
                            << sh;
}

/* The chase of toggle__tr_chase() for p = 3 and a sliced frame. */
int toggle__tr_chase_sliced3(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid,
                         row_sink sink, void *ctx)
{
    const tframe *f = ln->f;
    size_t C = f->C, CW = (C + 63) / 64, DW = (2 * C + 63) / 64 + 1, L = ln->L, nw = ln->nw;
    size_t fc = first_constraint(f), nring = f->Hf + f->Hb + 1, rowsz = 2 * L * DW;
    uint64_t *saved = toggle__calloc(f->nuk * rowsz, sizeof *saved);
    uint64_t *ring = toggle__malloc_array(nring * rowsz, sizeof *ring);
    uint64_t *tmp = toggle__malloc_array(2 * L * CW + 2 * CW, sizeof *tmp);
    int rc = TOGGLE_OK;
    if (!saved || !ring || !tmp) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
        goto out;
    }
    uint64_t *bwl = tmp + 2 * L * CW, *bwh = bwl + CW;
    bool rec = toggle__tr_rec_ok((tframe *)f);
    /* the unknown rows, lane-major planes, doubled */
    for (size_t u = 0; u < f->nuk; u++) {
        const uint64_t *src = ln->saved + u * C * nw;
        for (size_t l = 0; l < L; l++) {
            uint64_t *o = tmp + 2 * l * CW;
            memset(o, 0, 2 * CW * sizeof *o);
            for (size_t e = 0; e < C; e++) {
                uint64_t v = lane_get(ln, src + e * nw, l);
                o[e >> 6] |= (uint64_t)(v == 1) << (e & 63);
                o[CW + (e >> 6)] |= (uint64_t)(v == 2) << (e & 63);
            }
            toggle__tr_sliced_store(saved + u * rowsz + 2 * l * DW, o, C, DW);
            toggle__tr_sliced_store(saved + u * rowsz + (2 * l + 1) * DW, o + CW, C, DW);
        }
    }
    for (size_t r = 0; sink && r < f->R; r++)
        if (unknown_slot(f, r) != SIZE_MAX)
            sink(ctx, ln, r, row_ptr(ln, r), NULL, 0);
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt = &f->cls[class_of(f, r)];
        own_bases(f, r, saved, ring, rowsz, base);
        bool chasing = r < fc;
        if (with_b)
            sliced3_load_b(f, s, r, bwl, bwh);
        uint64_t *dst = chasing ? NULL : resid + (r - fc) * C * nw;
        if (dst)
            memset(dst, 0, C * nw * sizeof *dst);
        for (size_t l = 0; l < L; l++) {
            uint64_t *ol = tmp + 2 * l * CW, *oh = ol + CW;
            bool hb = with_b && l == ln->blane;
            if (rec && chasing && pt->rec > 0)
                rec_sliced3_row(f, pt, base, l, DW, hb ? bwl : NULL, hb ? bwh : NULL, ol, oh);
            else
                sliced3_row(f, pt, base, l, DW, chasing, hb ? bwl : NULL, hb ? bwh : NULL, ol,
                            oh);
            if (chasing) {
                toggle__tr_sliced_store(base[f->Hf + f->Hb] + 2 * l * DW, ol, C, DW);
                toggle__tr_sliced_store(base[f->Hf + f->Hb] + (2 * l + 1) * DW, oh, C, DW);
            }
            if (!chasing)
                sliced3_to_cells(ln, l, ol, oh, dst);
        }
        if (chasing && sink)
            sink(ctx, ln, r + f->Hf, NULL, base[f->Hf + f->Hb], 2 * DW);
    }
out:
    toggle__free(saved);
    toggle__free(ring);
    toggle__free(tmp);
    return rc;
}
