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

/* Chase: the unknown rows are in ln->saved; computes every other row (each
 * handed to sink, as are the unknown rows), and the residuals b - A x of the
 * constraint rows' equations into resid (ncons * C cells of nw words). */
int toggle__tr_chase(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid, row_sink sink,
                 void *ctx)
{
    tframe *f = (tframe *)ln->f;
    size_t C = f->C, nw = ln->nw, fc = first_constraint(f);
    int rc;
    /* sliced: L word operations per 64 cells and term; cell-major: one per
     * 64 lanes and cell, plus a cell's overhead: sliced wins for few lanes */
    if (f->p == 3 && ln->lf.lw == 4 && ln->L <= SLICED3_MAX_LANES && (toggle__tr_sliced_ok(f) || toggle__tr_rec_ok(f)))
        return toggle__tr_chase_sliced3(ln, with_b, s, resid, sink, ctx);
    if ((f->p == 2 && ln->L <= SLICED_MAX_LANES && toggle__tr_sliced_ok(f))
        || (f->p == 2 && ln->L <= REC_SLICED_MAX_LANES && toggle__tr_rec_ok(f)))
        return toggle__tr_chase_sliced(ln, with_b, s, resid, sink, ctx);
    if (sink)
        for (size_t r = 0; r < f->R; r++)
            if (unknown_slot(f, r) != SIZE_MAX)
                sink(ctx, ln, r, row_ptr(ln, r), NULL, 0);
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    /* promoted unknowns read and left-over equations written so far (the
     * latter after the constraint rows' cells in resid) */
    size_t xk = 0, xc = (f->R - fc) * C;
    /* the row kernels: F_2, and p = 3 in 4-bit fields */
    row_fn kern = f->p == 2 ? toggle__tr_row_f2_pick() : (f->p == 3 && ln->lf.lw == 4) ? toggle__tr_row_p3_pick() : NULL;
    row_fn rkern = f->p == 2 && toggle__tr_rec_ok(f) ? toggle__tr_rec_f2_pick()
                 : f->p == 3 && ln->lf.lw == 4 && toggle__tr_rec_ok(f) ? toggle__tr_rec_p3_pick() : NULL;
    uint64_t *bval = kern && with_b ? toggle__malloc_array(C + (C + 63) / 64 + 1, sizeof *bval)
                                    : NULL;
    btile bt = {kern && with_b && f->p == 2 && f->tr
                    ? toggle__malloc_array(BTILE_WORDS(C), sizeof *bt.w) : NULL, 0, false};
    if (kern && with_b && (!bval || (f->p == 2 && f->tr && !bt.w))) {
        toggle__free(bval);
        toggle__free(bt.w);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
    }
    /* the tri step (tri.c): per class its units (tri_cache) */
    toggle__tri_fn tkern = f->p == 2 && !f->notri && !rkern ? toggle__transfer_tri_pick() : NULL;
    tri_cache tc = {0};
    if (tkern && !toggle__tr_tri_cache_init(&tc, f->ncls))
        tkern = NULL; /* (the row programs serve) */
    /* every chasing row a tri step: row r + 1 overwrites row r - 1 in place
     * (a ring of two rows; the step reads x_{r-1}(e) only for its cell e,
     * and the constraint rows read rows fc - 1 .. fc + 1, two apart) */
    bool inplace = tkern && f->Hf == 1 && f->Hb == 1;
    for (size_t r = 0; inplace && r < fc; r++) {
        rowpat *pt;
        if (toggle__tr_frame_class(f, r, &pt)) {
            inplace = false; /* (the loop below reports it) */
            break;
        }
        inplace = toggle__tr_tri_cache_get(&tc, f, pt, class_of(f, r)) > 0;
        if (r == f->HH && fc > 2 * f->HH + 2)
            r = fc - f->HH - 2; /* the interior classes are met already */
    }
    size_t nring0 = ln->nring;
    if (inplace)
        ln->nring = 2;
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        if ((rc = toggle__tr_frame_class(f, r, &pt))) {
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        if (!pt->peels || !pt->pstart) {
            rc = toggle__error(TOGGLE_EINTERNAL, "transfer: frame row %zu does not peel", r);
            goto out;
        }
        for (size_t sl = 0; sl <= f->Hf + f->Hb; sl++) {
            int64_t q = (int64_t)r - (int64_t)f->Hb + (int64_t)sl;
            if (f->wrap)
                q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
            base[sl] = (q < 0 || q >= (int64_t)f->R) ? NULL : row_ptr(ln, (size_t)q);
        }
        size_t tgt = r + f->Hf;
        uint64_t *dst = base[f->Hf + f->Hb];
        bool fast = kern && (f->p == 2 || toggle__tr_row_p3_once(pt, C));
        if (fast) {
            if (with_b && f->p == 2) { /* the row's bits at once */
                uint64_t *bw = bval + C;
                toggle__tr_sliced_load_b(f, s, r, bw, &bt);
                for (size_t e = 0; e < C; e++)
                    bval[e] = (bw[e >> 6] >> (e & 63)) & 1;
            } else if (with_b) {
                for (size_t e = 0; e < C; e++)
                    bval[e] = toggle__vecs_get(&s->b, 0, frame_cell(f, r, e));
            }
            rowargs ra = {C, nw, pt->pstart, pt->pvar, pt->peq, pt->pterm, base, dst,
                          with_b ? bval : NULL, f->p == 2 ? ln->blane >> 6 : ln->blane / ln->lf.per,
                          (unsigned)(f->p == 2 ? ln->blane & 63 : (ln->blane % ln->lf.per) * ln->lf.lw),
                          pt->pinv, ln->xsaved, &xk, base[1], base[0], pt->rec, pt->rself};
            size_t ci = class_of(f, r);
            int ts = tkern ? toggle__tr_tri_cache_get(&tc, f, pt, ci) : -1;
            if (rkern && pt->rec > 0) {
                rkern(&ra);
            } else if (ts > 0) {
                toggle__tri_args ta = {tc.un[ci], tc.n[ci], nw, base[1], ts == 2 ? base[0] : NULL,
                                       dst, ra.bval, ra.bword, ra.bshift};
                tkern(&ta);
            } else {
                kern(&ra);
            }
        }
        for (size_t t = 0; !fast && t < C; t++) {
            const struct pterm *tm = pt->pterm + pt->pstart[t], *te = pt->pterm + pt->pstart[t + 1];
            uint64_t *acc = dst + pt->pvar[t] * nw;
            if (pt->peq[t] == SIZE_MAX) { /* a promotion: the unknown's lanes */
                memcpy(acc, ln->xsaved + xk++ * nw, nw * sizeof *acc);
                continue;
            }
            uint64_t bv = with_b ? toggle__vecs_get(&s->b, 0, frame_cell(f, r, pt->peq[t])) : 0;
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
        /* the left-over equations of row r: every row they read is known */
        for (size_t i = 0; i < pt->npro; i++, xc++) {
            eq_residual(ln, pt, r, pt->lefto[i], with_b, s, false);
            memcpy(resid + xc * nw, ln->acc, nw * sizeof *ln->acc);
        }
        if (sink)
            sink(ctx, ln, tgt, dst, NULL, 0);
    }
    for (size_t r = fc; r < f->R; r++) {
        rowpat *pt;
        if ((rc = toggle__tr_frame_class(f, r, &pt))) {
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        for (size_t e = 0; e < C; e++) {
            eq_residual(ln, pt, r, e, with_b, s, false);
            memcpy(resid + ((r - fc) * C + e) * nw, ln->acc, nw * sizeof *ln->acc);
        }
    }
    rc = TOGGLE_OK;
out:
    ln->nring = nring0;
    toggle__free(bval);
    toggle__free(bt.w);
    toggle__tr_tri_cache_free(&tc);
    return rc;
}
