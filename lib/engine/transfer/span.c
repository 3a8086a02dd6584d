/* The spanning part of canonicalise_local's basis by one chase of
 * combinations of the kernel rows. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* Bytes of toggle__tr_span_chase on a board of cols columns with d kernel vectors, m
 * unknowns and L lanes over k, for the estimate. */
uint64_t toggle__tr_span_chase_bytes(size_t rows, size_t cols, size_t d, size_t m, size_t L,
                                 uint64_t k)
{
    size_t h = rows - 1 < SPAN_HMAX ? rows - 1 : SPAN_HMAX, ab = 0;
    if (!toggle__vecs_bytes(h * cols + m, d + 1, k, &ab))
        return UINT64_MAX;
    unsigned __int128 b = (unsigned __int128)ab + (unsigned __int128)m * 8
                        + (unsigned __int128)L * 8 + (unsigned __int128)d * 8;
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* The unknowns' board cells in U's order, *n of them (m at most): the
 * unknown rows' cells slot by slot, then the promoted cells in the
 * chase's order (row r's promotion t is cell pvar[t] of frame row r +
 * Hf). */
static int unknown_cells(tframe *f, size_t *cell, size_t m, size_t *n)
{
    size_t C = f->C, fc = first_constraint(f), xk = f->nuk * C;
    *n = 0;
    if (xk > m)
        return TOGGLE_OK;
    for (size_t r = 0; r < f->R; r++) {
        size_t u = unknown_slot(f, r);
        for (size_t j = 0; u != SIZE_MAX && j < C; j++)
            cell[u * C + j] = frame_cell(f, r, j);
    }
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        int rc = toggle__tr_frame_class(f, r, &pt);
        if (rc)
            return toggle__error(rc, "out of memory for the transfer engine's row patterns");
        if (!pt->peq)
            return TOGGLE_OK;
        for (size_t t = 0; t < C; t++) {
            if (pt->peq[t] != SIZE_MAX)
                continue;
            if (xk == m)
                return TOGGLE_OK;
            cell[xk++] = frame_cell(f, (r + f->Hf) % f->R, pt->pvar[t]);
        }
    }
    *n = xk;
    return TOGGLE_OK;
}

/* The spanning chase's state (toggle__tr_span_chase): the kernel K (dn
 * vectors on N cells), the local free cells fr, the RREF A (rank rows of
 * hc suffix cells then the m unknowns, pivots pc), the unknowns' cells
 * ucell, the chase's destinations dst (one per lane). */
typedef struct {
    toggle__vecs *K, A;
    const toggle__vecs *Lv;
    loc_free *fr;
    size_t *ucell, *pc;
    uint64_t **dst;
    size_t dn, ns, m, N, C, hc, rank, nred;
    uint64_t p;
} span_st;

/* Is each kernel vector's value on the unknown cells U's row (i + sb)? */
static bool span_unknowns_match(const span_st *st, const loc_chase *lc)
{
    size_t m = st->m, sb = lc->solvable;
    for (size_t i = 0; i < st->dn; i++)
        for (size_t t = 0; t < m; t++)
            if (st->ucell[t] >= st->N
                || toggle__vecs_get(st->K, i, st->ucell[t]) != lc->U[(i + sb) * m + t])
                return false;
    return true;
}

/* Kernel row i (reduced at the local free cells on first use) as RREF row
 * st->rank: its last hc cells reversed, then its unknowns, reduced by the
 * rows above; kept (pivot on its first nonzero suffix cell, cleared in
 * the rows above) unless 0 on the suffix. */
static void span_add_row(span_st *st, size_t i)
{
    toggle__vecs *K = st->K, *A = &st->A;
    size_t hc = st->hc, m = st->m, N = st->N, rank = st->rank, w = hc + m, t;
    uint64_t p = st->p;
    if (i == st->nred) {
        size_t lo = 0;
        toggle__tr_loc_reduce(K, i, st->Lv, st->fr, N - 1, &lo, false, p);
        st->nred++;
    }
    for (t = 0; t < hc; t++)
        toggle__vecs_set(A, rank, t, toggle__vecs_get(K, i, N - 1 - t));
    for (t = 0; t < m; t++)
        toggle__vecs_set(A, rank, hc + t, toggle__vecs_get(K, i, st->ucell[t]));
    for (size_t r = 0; r < rank; r++) {
        uint64_t e = toggle__vecs_get(A, rank, st->pc[r]);
        if (e)
            toggle__tr_axpy_span(A, rank, 0, A, r, e, p, st->pc[r], w - 1);
    }
    for (t = 0; t < hc && !toggle__vecs_get(A, rank, t); t++)
        ;
    if (t == hc)
        return; /* 0 on the suffix */
    toggle__tr_scale_span(A, rank, t, w - 1, toggle__invmod(toggle__vecs_get(A, rank, t), p), p);
    for (size_t r = 0; r < rank; r++) {
        uint64_t e = toggle__vecs_get(A, r, t);
        if (e)
            toggle__tr_axpy_span(A, r, 0, A, rank, e, p, t, w - 1);
    }
    st->pc[st->rank++] = t;
}

/* (a), (b): the RREF over suffixes of h = 1, 2, 4, .. hmax board rows
 * until its rank is ns. */
static void span_rref(span_st *st, size_t hmax)
{
    for (size_t h = 1;; h = 2 * h < hmax ? 2 * h : hmax) {
        st->hc = h * st->C;
        st->rank = 0;
        for (size_t i = 0; i < st->dn && st->rank < st->ns; i++)
            span_add_row(st, i);
        if (st->rank == st->ns || h == hmax)
            break;
    }
}

/* Are the chased rows right: every residual 0, each vector equal to its
 * RREF row on the suffix and 0 on the local free cells? */
static bool span_verify(const span_st *st, const loc_chase *lc, size_t nw)
{
    bool good = true;
    for (size_t i = 0; i < st->m * nw; i++)
        good = good && !lc->resid[i];
    for (size_t v = 0; good && v < st->ns; v++) {
        for (size_t t = 0; good && t < st->hc; t++)
            good = toggle__vecs_get(st->K, v, st->N - 1 - t) == toggle__vecs_get(&st->A, v, t);
        for (size_t q = 0; good && q < st->fr->n; q++)
            good = !toggle__vecs_get(st->K, v, st->fr->cell[q]);
    }
    return good;
}

/* (c) lane v := the unknowns of RREF row v (the other lanes 0), chased
 * into kernel rows 0 .. ns - 1; checked, and when a check fails the
 * kernel rows chased again from U (as they were), *good false. */
static int span_write(span_st *st, const toggle_system *s, toggle_solution *sol,
                      const loc_chase *lc, bool *good)
{
    lanes *ln = lc->ln;
    size_t m = st->m, L = ln->L, sb = lc->solvable;
    toggle__tr_clear_unknowns(ln, m);
    for (size_t v = 0; v < st->ns; v++)
        for (size_t t = 0; t < m; t++) {
            uint64_t e = toggle__vecs_get(&st->A, v, st->hc + t);
            if (e)
                lane_set(ln, toggle__tr_unknown_lanes(ln, t), v, e);
        }
    for (size_t l = 0; l < L; l++)
        st->dst[l] = l < st->ns ? toggle__vecs_row(st->K, l) : NULL;
    out_ctx ctx = {sol, false, NULL, st->dst, NULL, NULL, SIZE_MAX, 0, false};
    int rc = toggle__tr_chase(ln, false, s, lc->resid, toggle__tr_write_row, &ctx);
    if (rc)
        return rc;
    if ((*good = span_verify(st, lc, ln->nw)))
        return TOGGLE_OK;
    /* (not seen) the kernel rows as they were */
    toggle__tr_load_lanes(ln, lc->U, m);
    for (size_t l = 0; l < L; l++)
        st->dst[l] = l < sb ? NULL : toggle__vecs_row(st->K, l - sb);
    return toggle__tr_chase(ln, false, s, lc->resid, toggle__tr_write_row, &ctx);
}

/* The spanning part of toggle__tr_canonicalise_local's basis by one chase, where fr
 * holds the nl local vectors (Lv) and ns = dn - nl vectors are left. A
 * kernel vector is the chase of its values on the unknown cells (checked:
 * every kernel row's there are U's row), and the chase is linear, so a
 * combination of kernel rows is the chase of the same combination of
 * their unknowns. (a) Kernel rows, in order, are reduced at the local
 * free cells (toggle__tr_loc_reduce: O(N) each), giving S, 0 on every local free
 * cell. (b) Their last h board rows, reversed, beside their unknowns'
 * values, go into an incremental RREF by the suffix's columns (h = 1, 2,
 * 4, 8: SPAN_HMAX, fewer than R), until its rank is ns; a row without a
 * pivot there is dropped. The RREF's rows are T S on the suffix and on the
 * unknowns: unit on its pivot (the vector's last nonzero, a free cell), 0
 * on the other pivots and on the local free cells. O(ns^2 (h C + m)),
 * sub8 where the entries are bytes. (c) One chase of those unknowns
 * writes T S into kernel rows 0 .. ns - 1: O(ns N), against the O(ns^2
 * N) of reducing the rows by each other. Verified: every residual 0, each
 * vector equal to its RREF row on the suffix and 0 on the local free
 * cells. Then the ns free cells join fr (lo 0, src the row), *ok true.
 * *ok false: no rank ns within SPAN_HMAX rows, or the unknowns not cells,
 * or a check failed (the kernel rows then chased again from U: as they
 * were); the kernel rows stay kernel vectors that span the kernel with the
 * local ones; also false, untried, where ns^2 < L (few spanning
 * vectors: their reduction costs less than a chase). */
int toggle__tr_span_chase(const toggle_system *s, toggle_solution *sol, const loc_chase *lc,
                      const toggle__vecs *Lv, loc_free *fr, bool *ok)
{
    lanes *ln = lc->ln;
    tframe *f = (tframe *)ln->f;
    size_t R = s->graph->rows, C = s->graph->cols, m = lc->m, L = ln->L, nu = 0;
    span_st st = {.K = &sol->kernel, .Lv = Lv, .fr = fr, .dn = sol->nullity,
                  .ns = sol->nullity - fr->n, .m = m, .N = R * C, .C = C, .p = sol->k};
    size_t hmax = R - 1 < SPAN_HMAX ? R - 1 : SPAN_HMAX, ns = st.ns;
    *ok = false;
    /* the chase costs about L lane steps a cell whatever ns, the
     * reduction it replaces about ns^2 / 32 (sub8) plus 2 ns reads: for a
     * few spanning vectors (the tri cylinder's one) that is cheaper; from
     * ns^2 = L on (the tri torus: ns about L / 2) the chase, at most about
     * the answers' chase again */
    if (!ns || ns * ns < SPAN_MIN_SQ_OVER_L * L || f->all || !m || !hmax)
        return TOGGLE_OK;
    st.ucell = toggle__malloc_array(m, sizeof *st.ucell);
    st.pc = toggle__malloc_array(ns, sizeof *st.pc);
    st.dst = toggle__malloc_array(L, sizeof *st.dst);
    int rc = TOGGLE_OK;
    bool good = false;
    if (!st.ucell || !st.pc || !st.dst) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    if ((rc = toggle__vecs_init(&st.A, hmax * C + m, ns + 1, st.p))
        || (rc = unknown_cells(f, st.ucell, m, &nu)) || nu != m || !span_unknowns_match(&st, lc))
        goto out;
    span_rref(&st, hmax);
    if (st.rank < ns || (rc = span_write(&st, s, sol, lc, &good)) || !good)
        goto out;
    for (size_t v = 0; v < ns; v++)
        toggle__tr_loc_insert(fr, st.N - 1 - st.pc[v], 0, v);
    *ok = true;
out:
    toggle__vecs_clear(&st.A);
    toggle__free(st.ucell);
    toggle__free(st.pc);
    toggle__free(st.dst);
    return rc;
}
