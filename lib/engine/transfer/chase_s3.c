/* The small system's chase over F_3 in bit-sliced lanes: a residue v is two
 * bits (lo, hi) = ([v == 1], [v == 2]) (s3.h: S3_ADD); a cell's L lanes are
 * nh words of lo bits, then nh words of hi bits (s3_words). Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"
#include "engine/transfer/s3.h"

/* Words per plane of a cell of L sliced lanes (whole vectors past one). */
static size_t s3_words(size_t L)
{
    size_t nh = (L + 63) / 64;
    return nh > 8 ? (nh + 7) & ~(size_t)7 : nh ? nh : 1;
}

/* Fields 0, 4, 8, .. 60 of x (the other bits 0) gathered into bits 0 .. 15,
 * and back. */
static inline uint64_t s3_gather(uint64_t x)
{
    x = (x | x >> 3) & 0x0303030303030303ULL;
    x = (x | x >> 6) & 0x000f000f000f000fULL;
    x = (x | x >> 12) & 0x000000ff000000ffULL;
    return (x | x >> 24) & 0xffffULL;
}

static inline uint64_t s3_spread(uint64_t x)
{
    x = (x | x << 24) & 0x000000ff000000ffULL;
    x = (x | x << 12) & 0x000f000f000f000fULL;
    x = (x | x << 6) & 0x0303030303030303ULL;
    return (x | x << 3) & 0x1111111111111111ULL;
}

/* One cell: nw words of 4-bit fields (residues 0 .. 2) into nh sliced words
 * per plane, and back. */
static void s3_from4(uint64_t *dst, size_t nh, const uint64_t *src, size_t nw)
{
    memset(dst, 0, 2 * nh * sizeof *dst);
    for (size_t j = 0; j < nw && j / 4 < nh; j++) {
        uint64_t w = src[j];
        if (!w)
            continue;
        unsigned sh = (unsigned)(j % 4) * 16;
        dst[j / 4] |= s3_gather(w & 0x1111111111111111ULL) << sh;
        dst[nh + j / 4] |= s3_gather((w >> 1) & 0x1111111111111111ULL) << sh;
    }
}

static void s3_to4(uint64_t *dst, size_t nw, const uint64_t *src, size_t nh)
{
    for (size_t j = 0; j < nw; j++) {
        unsigned sh = (unsigned)(j % 4) * 16;
        uint64_t lo = j / 4 < nh ? (src[j / 4] >> sh) & 0xffff : 0;
        uint64_t hi = j / 4 < nh ? (src[nh + j / 4] >> sh) & 0xffff : 0;
        dst[j] = s3_spread(lo) | s3_spread(hi) << 1;
    }
}

/* toggle__tr_chase() for the small system over F_3 (toggle__tr_s3_ok): the unknown rows
 * (ln->saved, 4-bit fields) are sliced, the chasing rows run row_s3, and
 * the constraint rows' residuals b - A x are summed sliced and written to
 * resid in 4-bit fields, as toggle__tr_chase() leaves them. Its buffers (the sliced
 * rows, half the 4-bit lanes') are freed before the small system is made,
 * so the estimate's build phase covers them. */
int toggle__tr_chase_s3(lanes *ln, const toggle_system *s, uint64_t *resid)
{
    tframe *f = (tframe *)ln->f;
    size_t C = f->C, nw = ln->nw, nh = s3_words(ln->L), cw = 2 * nh;
    size_t fc = first_constraint(f), rowsz = C * cw;
    void *mem = toggle__calloc((f->nuk + f->Hf + f->Hb + 1) * rowsz + 8, sizeof(uint64_t));
    uint64_t *bval = toggle__malloc_array(C, sizeof *bval);
    uint64_t *acc = toggle__malloc_array(cw, sizeof *acc);
    int rc = TOGGLE_OK;
    tri_cache tc = {0};
    if (!mem || !bval || !acc) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
        goto out;
    }
    uintptr_t al = (uintptr_t)mem;
    uint64_t *saved = (uint64_t *)mem + ((64 - al % 64) % 64) / 8, *ring = saved + f->nuk * rowsz;
    for (size_t c = 0; c < f->nuk * C; c++)
        s3_from4(saved + c * cw, nh, ln->saved + c * nw, nw);
    row_fn kern = toggle__tr_row_s3_pick(), rkern = toggle__tr_rec_ok(f) ? toggle__tr_rec_s3_pick() : NULL;
    /* the tri step over the sliced lanes (tri.c) */
    toggle__tri_fn tkern = !f->notri && !rkern ? toggle__transfer_tri3_pick() : NULL;
    if (tkern && !toggle__tr_tri_cache_init(&tc, f->ncls))
        tkern = NULL;
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    size_t xk = 0;
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt;
        if ((rc = toggle__tr_frame_class(f, r, &pt))) {
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        own_bases(f, r, saved, ring, rowsz, base);
        for (size_t e = 0; e < C; e++)
            bval[e] = toggle__vecs_get(&s->b, 0, frame_cell(f, r, e));
        if (r < fc) {
            rowargs ra = {C, cw, pt->pstart, pt->pvar, pt->peq, pt->pterm, base,
                          base[f->Hf + f->Hb], bval, ln->blane / 64, (unsigned)(ln->blane % 64),
                          pt->pinv, ln->xsaved, &xk, base[1], base[0], pt->rec, pt->rself};
            size_t ci = class_of(f, r);
            int ts = tkern ? toggle__tr_tri_cache_get(&tc, f, pt, ci) : -1;
            if (ts > 0) {
                toggle__tri_args ta = {tc.un[ci], tc.n[ci], cw, base[1], ts == 2 ? base[0] : NULL,
                                       base[f->Hf + f->Hb], bval, ra.bword, ra.bshift};
                tkern(&ta);
            } else {
                (rkern && pt->rec > 0 ? rkern : kern)(&ra);
            }
            continue;
        }
        /* a constraint row: acc = b - sum w x over each equation's entries */
        for (size_t e = 0; e < C; e++) {
            memset(acc, 0, cw * sizeof *acc);
            acc[ln->blane / 64] = (uint64_t)(bval[e] == 1) << (ln->blane % 64);
            acc[nh + ln->blane / 64] = (uint64_t)(bval[e] == 2) << (ln->blane % 64);
            for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++) {
                const tentry *en = &pt->ent[t]; /* (a wrap's dq may span it: eq_residual) */
                const uint64_t *x = own_row(f, (int64_t)r + en->dq, saved, ring, rowsz) + en->col * cw;
                if (en->w % 3 == 1)
                    for (size_t i = 0; i < nh; i++)
                        S3_ADD(acc[i], acc[nh + i], x[nh + i], x[i]);
                else if (en->w % 3 == 2)
                    for (size_t i = 0; i < nh; i++)
                        S3_ADD(acc[i], acc[nh + i], x[i], x[nh + i]);
            }
            s3_to4(resid + ((r - fc) * C + e) * nw, nw, acc, nh);
        }
    }
out:
    toggle__free(mem);
    toggle__free(bval);
    toggle__free(acc);
    toggle__tr_tri_cache_free(&tc);
    return rc;
}
