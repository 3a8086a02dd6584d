/* The chase: every row from the unknown rows, cell-major, with the kernel
 * that serves the frame (row kernels, tri step, or the row programs), and
 * the residuals of the constraint rows. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* The residual sum_t w x - b (lane 0 carries b when with_b) of equation e of
 * frame row r into acc, negated: acc = b - sum (entries except skip_lead). */
static void eq_residual(lanes *ln, const rowpat *pt, size_t r, size_t e, bool with_b,
                        const toggle_system *s, bool skip_lead)
{
    const tframe *f = ln->f;
    size_t nw = ln->nw;
    memset(ln->acc, 0, nw * sizeof *ln->acc);
    if (with_b) {
        uint64_t bv = toggle__vecs_get(&s->b, 0, frame_cell(f, r, e));
        lane_set(ln, ln->acc, ln->blane, bv);
    }
    for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++) {
        const tentry *en = &pt->ent[t];
        if (skip_lead && en->dq == (int64_t)f->Hf)
            continue;
        int64_t q = (int64_t)r + en->dq;
        if (f->wrap)
            q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
        lane_axpy(ln, ln->acc, row_ptr(ln, (size_t)q) + en->col * nw, en->w);
    }
}

/* The cell-major chase's state: the row kernels that serve the frame
 * (F_2, and p = 3 in 4-bit fields; NULL: the row programs), b's row
 * (bval, bt), the tri step's units, the promoted unknowns read (xk) and
 * the left-over equations written so far (xc, after the constraint rows'
 * cells in resid). */
typedef struct {
    lanes *ln;
    tframe *f;
    bool with_b;
    const toggle_system *s;
    uint64_t *resid;
    row_fn kern, rkern;
    toggle__tri_fn tkern;
    tri_cache tc;
    uint64_t *bval;
    btile bt;
    size_t xk, xc;
} chase_st;

/* Pick the kernels and allocate b's row buffers. */
static int chase_open(chase_st *c)
{
    tframe *f = c->f;
    lanes *ln = c->ln;
    size_t C = f->C;
    c->kern = f->p == 2 ? toggle__tr_row_f2_pick()
            : (f->p == 3 && ln->lf.lw == 4) ? toggle__tr_row_p3_pick() : NULL;
    c->rkern = f->p == 2 && toggle__tr_rec_ok(f) ? toggle__tr_rec_f2_pick()
             : f->p == 3 && ln->lf.lw == 4 && toggle__tr_rec_ok(f) ? toggle__tr_rec_p3_pick()
                                                                  : NULL;
    bool b2 = c->kern && c->with_b;
    c->bval = b2 ? toggle__malloc_array(C + (C + 63) / 64 + 1, sizeof *c->bval) : NULL;
    c->bt.w = b2 && f->p == 2 && f->tr ? toggle__malloc_array(BTILE_WORDS(C), sizeof *c->bt.w)
                                       : NULL;
    if (b2 && (!c->bval || (f->p == 2 && f->tr && !c->bt.w)))
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
    /* the tri step (tri.c): per class its units (tri_cache) */
    c->tkern = f->p == 2 && !f->notri && !c->rkern ? toggle__transfer_tri_pick() : NULL;
    if (c->tkern && !toggle__tr_tri_cache_init(&c->tc, f->ncls))
        c->tkern = NULL; /* (the row programs serve) */
    return TOGGLE_OK;
}

static void chase_close(chase_st *c)
{
    toggle__free(c->bval);
    toggle__free(c->bt.w);
    toggle__tr_tri_cache_free(&c->tc);
}

/* Every chasing row a tri step: row r + 1 overwrites row r - 1 in place
 * (a ring of two rows; the step reads x_{r-1}(e) only for its cell e, and
 * the constraint rows read rows fc - 1 .. fc + 1, two apart). */
static bool chase_inplace(chase_st *c, size_t fc)
{
    tframe *f = c->f;
    bool inplace = c->tkern && f->Hf == 1 && f->Hb == 1;
    for (size_t r = 0; inplace && r < fc; r++) {
        rowpat *pt;
        if (toggle__tr_frame_class(f, r, &pt))
            return false; /* (the chase reports it) */
        inplace = toggle__tr_tri_cache_get(&c->tc, f, pt, class_of(f, r)) > 0;
        if (r == f->HH && fc > 2 * f->HH + 2)
            r = fc - f->HH - 2; /* the interior classes are met already */
    }
    return inplace;
}

/* Frame row r's b into bval (one value per equation). */
static void chase_load_b(chase_st *c, size_t r)
{
    tframe *f = c->f;
    size_t C = f->C;
    if (f->p == 2) { /* the row's bits at once */
        uint64_t *bw = c->bval + C;
        toggle__tr_sliced_load_b(f, c->s, r, bw, &c->bt);
        for (size_t e = 0; e < C; e++)
            c->bval[e] = (bw[e >> 6] >> (e & 63)) & 1;
    } else {
        for (size_t e = 0; e < C; e++)
            c->bval[e] = toggle__vecs_get(&c->s->b, 0, frame_cell(f, r, e));
    }
}

/* Chasing row r by a kernel: the hex recurrence, the tri step or the row
 * program's kernel. */
static void chase_row_kernel(chase_st *c, size_t r, rowpat *pt, uint64_t *const *base,
                             uint64_t *dst)
{
    tframe *f = c->f;
    lanes *ln = c->ln;
    size_t C = f->C, nw = ln->nw;
    if (c->with_b)
        chase_load_b(c, r);
    rowargs ra = {C, nw, pt->pstart, pt->pvar, pt->peq, pt->pterm, base, dst,
                  c->with_b ? c->bval : NULL, f->p == 2 ? ln->blane >> 6 : ln->blane / ln->lf.per,
                  (unsigned)(f->p == 2 ? ln->blane & 63 : (ln->blane % ln->lf.per) * ln->lf.lw),
                  pt->pinv, ln->xsaved, &c->xk, base[1], base[0], pt->rec, pt->rself};
    size_t ci = class_of(f, r);
    int ts = c->tkern ? toggle__tr_tri_cache_get(&c->tc, f, pt, ci) : -1;
    if (c->rkern && pt->rec > 0) {
        c->rkern(&ra);
    } else if (ts > 0) {
        toggle__tri_args ta = {c->tc.un[ci], c->tc.n[ci], nw, base[1], ts == 2 ? base[0] : NULL,
                               dst, ra.bval, ra.bword, ra.bshift};
        c->tkern(&ta);
    } else {
        c->kern(&ra);
    }
}

/* Chasing row r by its program, step by step (the moduli without a
 * kernel). */
static void chase_row_program(chase_st *c, size_t r, const rowpat *pt, uint64_t *const *base,
                              uint64_t *dst)
{
    tframe *f = c->f;
    lanes *ln = c->ln;
    size_t C = f->C, nw = ln->nw;
    for (size_t t = 0; t < C; t++) {
        const struct pterm *tm = pt->pterm + pt->pstart[t], *te = pt->pterm + pt->pstart[t + 1];
        uint64_t *acc = dst + pt->pvar[t] * nw;
        if (pt->peq[t] == SIZE_MAX) { /* a promotion: the unknown's lanes */
            memcpy(acc, ln->xsaved + c->xk++ * nw, nw * sizeof *acc);
            continue;
        }
        uint64_t bv = c->with_b ? toggle__vecs_get(&c->s->b, 0, frame_cell(f, r, pt->peq[t])) : 0;
        if (f->p == 2) {
            /* x_var = b + the sum of the other terms (each weight 1) */
            if (tm == te) {
                memset(acc, 0, nw * sizeof *acc);
            } else {
                memcpy(acc, base[tm->slot] + tm->col * nw, nw * sizeof *acc);
                for (tm++; tm < te; tm++) {
                    const uint64_t *x = base[tm->slot] + tm->col * nw;
                    for (size_t i = 0; i < nw; i++)
                        acc[i] ^= x[i];
                }
            }
            acc[ln->blane >> 6] ^= (bv & 1) << (ln->blane & 63);
        } else {
            /* x_var = inv (b - the sum of the other terms) */
            memset(acc, 0, nw * sizeof *acc);
            lane_set(ln, acc, ln->blane, bv);
            for (; tm < te; tm++)
                lane_axpy(ln, acc, base[tm->slot] + tm->col * nw, tm->w);
            if (pt->pinv[t] != 1)
                lane_scale(ln, acc, pt->pinv[t]);
        }
    }
}

/* The chasing rows 0 .. fc - 1, each handed to sink with the left-over
 * equations of its promotions written to resid. */
static int chase_rows(chase_st *c, size_t fc, row_sink sink, void *ctx)
{
    tframe *f = c->f;
    lanes *ln = c->ln;
    size_t C = f->C, nw = ln->nw;
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        int rc = toggle__tr_frame_class(f, r, &pt);
        if (rc)
            return toggle__error(rc, "out of memory for the transfer engine's row patterns");
        if (!pt->peels || !pt->pstart)
            return toggle__error(TOGGLE_EINTERNAL, "transfer: frame row %zu does not peel", r);
        for (size_t sl = 0; sl <= f->Hf + f->Hb; sl++) {
            int64_t q = (int64_t)r - (int64_t)f->Hb + (int64_t)sl;
            if (f->wrap)
                q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
            base[sl] = (q < 0 || q >= (int64_t)f->R) ? NULL : row_ptr(ln, (size_t)q);
        }
        uint64_t *dst = base[f->Hf + f->Hb];
        if (c->kern && (f->p == 2 || toggle__tr_row_p3_once(pt, C)))
            chase_row_kernel(c, r, pt, base, dst);
        else
            chase_row_program(c, r, pt, base, dst);
        /* the left-over equations of row r: every row they read is known */
        for (size_t i = 0; i < pt->npro; i++, c->xc++) {
            eq_residual(ln, pt, r, pt->lefto[i], c->with_b, c->s, false);
            memcpy(c->resid + c->xc * nw, ln->acc, nw * sizeof *ln->acc);
        }
        if (sink)
            sink(ctx, ln, r + f->Hf, dst, NULL, 0);
    }
    return TOGGLE_OK;
}

/* The constraint rows' residuals b - A x into resid. */
static int chase_residuals(chase_st *c, size_t fc)
{
    tframe *f = c->f;
    lanes *ln = c->ln;
    size_t C = f->C, nw = ln->nw;
    for (size_t r = fc; r < f->R; r++) {
        rowpat *pt;
        int rc = toggle__tr_frame_class(f, r, &pt);
        if (rc)
            return toggle__error(rc, "out of memory for the transfer engine's row patterns");
        for (size_t e = 0; e < C; e++) {
            eq_residual(ln, pt, r, e, c->with_b, c->s, false);
            memcpy(c->resid + ((r - fc) * C + e) * nw, ln->acc, nw * sizeof *ln->acc);
        }
    }
    return TOGGLE_OK;
}

/* Chase: the unknown rows are in ln->saved; computes every other row (each
 * handed to sink, as are the unknown rows), and the residuals b - A x of the
 * constraint rows' equations into resid (ncons * C cells of nw words). */
int toggle__tr_chase(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid,
                     row_sink sink, void *ctx)
{
    tframe *f = (tframe *)ln->f;
    size_t fc = first_constraint(f);
    /* sliced: L word operations per 64 cells and term; cell-major: one per
     * 64 lanes and cell, plus a cell's overhead: sliced wins for few lanes */
    if (f->p == 3 && ln->lf.lw == 4 && ln->L <= SLICED3_MAX_LANES
        && (toggle__tr_sliced_ok(f) || toggle__tr_rec_ok(f)))
        return toggle__tr_chase_sliced3(ln, with_b, s, resid, sink, ctx);
    if ((f->p == 2 && ln->L <= SLICED_MAX_LANES && toggle__tr_sliced_ok(f))
        || (f->p == 2 && ln->L <= REC_SLICED_MAX_LANES && toggle__tr_rec_ok(f)))
        return toggle__tr_chase_sliced(ln, with_b, s, resid, sink, ctx);
    if (sink)
        for (size_t r = 0; r < f->R; r++)
            if (unknown_slot(f, r) != SIZE_MAX)
                sink(ctx, ln, r, row_ptr(ln, r), NULL, 0);
    chase_st c = {ln, f, with_b, s, resid, NULL, NULL, NULL, {0}, NULL, {NULL, 0, false}, 0,
                  (f->R - fc) * f->C};
    int rc = chase_open(&c);
    size_t nring0 = ln->nring;
    if (!rc && chase_inplace(&c, fc))
        ln->nring = 2;
    if (!rc)
        rc = chase_rows(&c, fc, sink, ctx);
    if (!rc)
        rc = chase_residuals(&c, fc);
    ln->nring = nring0;
    chase_close(&c);
    return rc;
}
