/* The small system E u = -e0: built by one chase with a lane per unknown
 * (one per residue class of the columns when the frame is shift invariant:
 * the circulant form), then solved by the engine AUTO picks. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* Sum of the weights of equation e's entries at (dq, col), mod p. */
static uint64_t eq_weight(const tframe *f, const rowpat *pt, size_t e, int64_t dq, size_t col)
{
    uint64_t w = 0;
    for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++)
        if (pt->ent[t].dq == dq && pt->ent[t].col == col)
            w = (w + pt->ent[t].w) % f->p;
    return w;
}

/* Is every row's pattern invariant under the cyclic shift of the frame
 * columns by P (equation e + P has equation e's entries, columns + P mod C)?
 * Then so is the chase of b = 0: the unknown at column j + P t acts as the
 * unknown at column j shifted by P t, and one lane per residue class mod P
 * gives all of E. Checked on the patterns themselves (every class). */
bool toggle__tr_shift_invariant(tframe *f, size_t P)
{
    size_t C = f->C;
    if (f->all || f->nx || P >= C || C % P)
        return false;
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt;
        if (toggle__tr_frame_class(f, r, &pt))
            return false;
        (void)pt;
    }
    for (size_t c = 0; c < f->ncls; c++) {
        const rowpat *pt = &f->cls[c];
        if (!pt->built)
            continue;
        for (size_t e = 0; e < C; e++) {
            size_t e2 = (e + P) % C;
            if (pt->start[e + 1] - pt->start[e] != pt->start[e2 + 1] - pt->start[e2])
                return false;
            for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++) {
                const tentry *en = &pt->ent[t];
                if (eq_weight(f, pt, e, en->dq, en->col) !=
                    eq_weight(f, pt, e2, en->dq, (en->col + P) % C))
                    return false;
            }
            for (size_t t = pt->start[e2]; t < pt->start[e2 + 1]; t++) {
                const tentry *en = &pt->ent[t];
                if (eq_weight(f, pt, e2, en->dq, en->col) !=
                    eq_weight(f, pt, e, en->dq, (en->col + C - P) % C))
                    return false;
            }
        }
    }
    return true;
}

/* The small system of a shift-invariant frame from one chase with
 * nuk * P + 1 lanes: lane blane the constant (b), lane off + k P + j0 the
 * unknown at row k, column j0 < P. E[(er, ec)][(k, j0 + P t)] is lane
 * (k, j0) at residual cell (er, ec - P t mod C). */
static int small_system_shift(const toggle_system *s, tframe *f, size_t P, toggle_system **ss)
{
    size_t C = f->C, m = f->nuk * C, nred = f->nuk * P;
    size_t off = f->p == 2 ? 0 : 1;
    lanes ln;
    int rc = toggle__tr_lanes_init(&ln, f, nred + 1);
    uint64_t *resid = NULL, *V = NULL, *rows = NULL, *bb = NULL, *E = NULL;
    if (rc)
        return rc;
    ln.blane = f->p == 2 ? nred : 0;
    for (size_t k = 0; k < f->nuk; k++)
        for (size_t j0 = 0; j0 < P; j0++)
            lane_set(&ln, ln.saved + (k * C + j0) * ln.nw, k * P + j0 + off, 1);
    resid = toggle__calloc(m ? m * ln.nw : 1, sizeof *resid);
    /* V: lane (k, j0) over the residual cells of constraint row er, twice
     * over (2C values) so that a rotation is a window */
    V = toggle__malloc_array(2 * C, sizeof *V);
    if (!resid || !V) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        goto out;
    }
    if ((rc = toggle__tr_chase(&ln, true, s, resid, NULL, NULL)))
        goto out;
    if (f->p == 2) {
        size_t mw = (m + 63) / 64;
        /* Et: row i = column i of E, transposed at the end */
        uint64_t *Et = toggle__calloc(m ? m * mw : 1, sizeof *Et);
        rows = toggle__calloc(m ? m * mw : 1, sizeof *rows);
        bb = toggle__calloc(mw ? mw : 1, sizeof *bb);
        if (!Et || !rows || !bb) {
            toggle__free(Et);
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
            goto out;
        }
        /* V as bits, doubled (2C bits, DW words), and one window of C bits */
        size_t CW = (C + 63) / 64, DW = (2 * C + 63) / 64 + 1;
        uint64_t *vb = toggle__calloc(DW + CW, sizeof *vb), *win = vb + DW;
        if (!vb) {
            toggle__free(Et);
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
            goto out;
        }
        for (size_t k = 0; k < f->nuk; k++)
            for (size_t j0 = 0; j0 < P; j0++)
                for (size_t er = 0; er < f->nuk; er++) {
                    memset(vb, 0, DW * sizeof *vb);
                    for (size_t ec = 0; ec < C; ec++) {
                        uint64_t v = lane_get(&ln, resid + (er * C + ec) * ln.nw,
                                              k * P + j0 + off);
                        vb[ec >> 6] |= v << (ec & 63);
                        vb[(ec + C) >> 6] |= v << ((ec + C) & 63);
                    }
                    for (size_t t = 0; t < C / P; t++) {
                        /* bit ec of the window: V[ec - P t mod C] */
                        for (size_t q = 0; q < CW; q++)
                            win[q] = bits_at(vb, C - P * t + 64 * q);
                        or_bits(Et + (k * C + j0 + P * t) * mw, er * C, win, C);
                    }
                }
        toggle__free(vb);
        toggle__bits_transpose(rows, mw, Et, mw, m, m);
        toggle__free(Et);
        for (size_t e = 0; e < m; e++)
            bb[e >> 6] |= lane_get(&ln, resid + e * ln.nw, ln.blane) << (e & 63);
        rc = toggle__system_adopt_packed(ss, m, m, rows, bb, true);
        rows = NULL;
        goto out;
    }
    E = toggle__malloc_array(m ? m * m : 1, sizeof *E);
    bb = toggle__malloc_array(m ? m : 1, sizeof *bb);
    if (!E || !bb) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        goto out;
    }
    for (size_t k = 0; k < f->nuk; k++)
        for (size_t j0 = 0; j0 < P; j0++)
            for (size_t er = 0; er < f->nuk; er++) {
                for (size_t ec = 0; ec < C; ec++)
                    V[ec] = V[ec + C] = lane_get(&ln, resid + (er * C + ec) * ln.nw,
                                                 k * P + j0 + off);
                for (size_t t = 0; t < C / P; t++)
                    for (size_t ec = 0; ec < C; ec++)
                        E[(er * C + ec) * m + k * C + j0 + P * t] = V[C - P * t + ec];
            }
    for (size_t e = 0; e < m; e++)
        bb[e] = toggle__submod(0, lane_get(&ln, resid + e * ln.nw, ln.blane), f->p);
    rc = toggle_system_new_matrix(ss, m, m, E, bb, f->p);
out:
    toggle__tr_lanes_clear(&ln);
    toggle__free(resid);
    toggle__free(V);
    toggle__free(rows);
    toggle__free(bb);
    toggle__free(E);
    return rc;
}

/* Solve the small system with the engine AUTO picks, without the run's
 * certificate route (the transfer engine never reads the small system's
 * certificate, and deciding its route walks the m x m matrix); the budget
 * is the transfer engine's estimate. */
int toggle__tr_solve_small(const toggle_system *ss, toggle_solution **small)
{
    int why = TOGGLE_EUNSUPPORTED;
    const toggle__engine_entry *e = toggle__engine_choose(ss, &why);
    if (!e)
        return why; /* choose set the message */
    toggle_solution *sol = NULL;
    int rc = toggle__solution_new(&sol, ss, e->id);
    if (!rc)
        rc = e->engine->solve(ss, sol);
    if (rc) {
        toggle_solution_free(sol);
        return rc;
    }
    *small = sol;
    return TOGGLE_OK;
}

/* The small system ss handed on: kept in *keep when asked for (ss then
 * NULL), else solved into *small. */
static int small_hand(toggle_system **ss, toggle_solution **small, toggle_system **keep)
{
    if (!keep)
        return toggle__tr_solve_small(*ss, small);
    *keep = *ss;
    *ss = NULL;
    return TOGGLE_OK;
}

/* F_2: E and b as packed rows from the residual cells (a cell's first m
 * bits are its row of E, bit m its b) into *ss. */
static int small_f2_system(const tframe *f, const lanes *ln, const uint64_t *resid, size_t m,
                           toggle_system **ss)
{
    size_t mw = (m + 63) / 64;
    uint64_t *rows = toggle__calloc(m ? m * mw : 1, sizeof *rows);
    uint64_t *bb = toggle__calloc(mw ? mw : 1, sizeof *bb);
    if (!rows || !bb) {
        toggle__free(rows);
        toggle__free(bb);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
    }
    for (size_t e = 0; e < m; e++) {
        const uint64_t *cell = resid + e * ln->nw;
        if (f->rev) { /* unknown i is column m - 1 - i (toggle__tr_rev_canonical) */
            for (size_t i = 0; i < m; i++)
                rows[e * mw + ((m - 1 - i) >> 6)] |= ((cell[i >> 6] >> (i & 63)) & 1)
                                                     << ((m - 1 - i) & 63);
        } else {
            memcpy(rows + e * mw, cell, mw * sizeof *rows);
            if (m & 63)
                rows[e * mw + mw - 1] &= ((uint64_t)1 << (m & 63)) - 1;
        }
        bb[e >> 6] |= ((cell[m >> 6] >> (m & 63)) & 1) << (e & 63);
    }
    int rc = toggle__system_adopt_packed(ss, m, m, rows, bb, true);
    toggle__free(bb);
    return rc;
}

/* Odd p: row e of E from residual cell e's lanes 1 .. m (lane 1 + i is
 * column i; rev: column m - 1 - i), a word's fields at a time. */
static inline void small_odd_row(const tframe *f, const lanes *ln, const uint64_t *cell,
                                 size_t m, toggle_system *ss, size_t e)
{
    if (ln->lf.lw == 4 && ss->a.width == 8 && !f->rev) {
        uint8_t *Er = (uint8_t *)toggle__vecs_row(&ss->a, e); /* Er[l - 1]: lane l */
        for (size_t j = 0, l = 0; l <= m; j++) {
            uint64_t w = cell[j];
            if (!w) {
                l += 16;
                continue;
            }
            for (size_t q = 0; q < 16 && l <= m; q++, l++, w >>= 4)
                if (l)
                    Er[l - 1] = (uint8_t)(w & 15);
        }
        return;
    }
    for (size_t j = 0, l = 0; l <= m; j++) {
        uint64_t w = cell[j];
        for (size_t q = 0; q < ln->lf.per && l <= m; q++, l++, w = ln->lf.lw < 64 ? w >> ln->lf.lw : 0)
            if (l)
                toggle__vecs_set(&ss->a, e, f->rev ? m - l : l - 1, w & ln->lf.fmask);
    }
}

/* Odd p: resid = b - A x(u) = c0 - E' u with lane 0 = c0 and lane 1 + i =
 * -(column i of A's action): A x = b iff sum_i u_i lane_{1+i} = -c0. The
 * system's rows are written from the lanes (every value below p). */
static int small_odd_system(const tframe *f, const lanes *ln, const uint64_t *resid, size_t m,
                            toggle_system **ss)
{
    int rc = toggle__system_new_zero(ss, m, m, f->p);
    if (rc)
        return rc;
    for (size_t e = 0; e < m; e++) {
        const uint64_t *cell = resid + e * ln->nw;
        toggle__vecs_set(&(*ss)->b, 0, e, toggle__submod(0, lane_get(ln, cell, 0), f->p));
        small_odd_row(f, ln, cell, m, *ss, e);
    }
    return TOGGLE_OK;
}

/* E (m x m) and -e0 from one chase with lane 0 the constant, lane 1 + i
 * unknown i; then solve it by the engines on a dense system. */
int toggle__tr_small_system(const toggle_system *s, tframe *f, toggle_solution **small,
                        toggle_system **keep)
{
    size_t m = f->m, L = m + 1, mr = f->nuk * f->C;
    lanes ln;
    memset(&ln, 0, sizeof ln);
    uint64_t *resid = NULL;
    toggle_system *ss = NULL;
    int rc;
    for (size_t P = 1; P <= 2 && !f->rev; P++) /* (rev: E's columns reversed below) */
        if (toggle__tr_shift_invariant(f, P)) {
            if (!(rc = small_system_shift(s, f, P, &ss)))
                rc = small_hand(&ss, small, keep);
            goto out;
        }
    if ((rc = toggle__tr_lanes_init(&ln, f, L)))
        goto out;
    /* F_2: unknown i in lane i and b in lane m, so that a residual cell's
     * first m bits are its row of E; odd p: b in lane 0, unknown i in 1 + i */
    size_t off = f->p == 2 ? 0 : 1;
    ln.blane = f->p == 2 ? m : 0;
    for (size_t i = 0; i < m; i++)
        lane_set(&ln, i < mr ? ln.saved + i * ln.nw : ln.xsaved + (i - mr) * ln.nw, i + off, 1);
    resid = toggle__calloc(m * ln.nw, sizeof *resid);
    if (!resid) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        goto out;
    }
    if (f->p == 2)
        rc = toggle__tr_chase(&ln, true, s, resid, NULL, NULL);
    else
        rc = toggle__tr_s3_ok(f, &ln) ? toggle__tr_chase_s3(&ln, s, resid)
                                      : toggle__tr_chase(&ln, true, s, resid, NULL, NULL);
    if (rc)
        goto out;
    rc = f->p == 2 ? small_f2_system(f, &ln, resid, m, &ss)
                   : small_odd_system(f, &ln, resid, m, &ss);
    if (rc)
        goto out;
    toggle__free(resid);
    resid = NULL;
    rc = small_hand(&ss, small, keep);
out:
    toggle__tr_lanes_clear(&ln);
    toggle__free(resid);
    toggle_system_free(ss);
    return rc;
}


int toggle__transfer_small_system(const toggle_system *s, toggle__tframe *f, toggle_system **ss)
{
    return toggle__tr_small_system(s, f, NULL, ss);
}

int toggle__transfer_solve_small(const toggle_system *ss, toggle_solution **small)
{
    return toggle__tr_solve_small(ss, small);
}
