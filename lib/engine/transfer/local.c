/* The canonical kernel over odd p from two-row local vectors (loc_window per
 * pair of board rows). Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* A kernel vector supported on two consecutive board rows b - 1, b (a
 * "local" one) solves the local system: the window's 2C presses against
 * the equations of every cell they touch (rows b - 2 .. b + 1 for a
 * stencil of row reach 1). Its unknowns are ordered column by column, the
 * cells (b - 1, c), (b, c) of columns 1 .. C - 2 first (the band: cell
 * (b - 1 + o, c) at 2 (c - 1) + o), then the border: columns 0 and C - 1
 * (the wrap's columns: on a cylinder column 0's equations reach column
 * C - 1 and back). An equation of column c then holds band unknowns of
 * columns c - 1 .. c + 1 only, LOC_BW entries from lo, and LOC_NB border
 * entries; the elimination keeps that shape (below). */
#define LOC_BW 8
#define LOC_NB 4
#define LOC_KMAX 64 /* most null vectors of one window (else: not local) */

typedef struct {
    size_t lo; /* the band position of band[0] */
    uint64_t band[LOC_BW], bd[LOC_NB];
} loc_eq;

typedef struct {
    const toggle_graph *g;
    uint64_t p;
    size_t R, C, nb; /* nb = 2 (C - 2) band unknowns */
    loc_eq *eq;      /* 4C: equation 4 c + d is cell (b - 2 + d, c) */
    size_t *act, *pool, *pivrow; /* 4C, 4C, nb */
    uint64_t *x;                 /* nb + LOC_NB */
    toggle__colbuf cb;
    toggle__vecs W; /* the window's null vectors: LOC_KMAX of 2C */
    size_t *wpiv;   /* their free cells */
} loc_ws;

static size_t loc_unknown(const loc_ws *w, size_t o, size_t c)
{
    if (c == 0)
        return w->nb + o;
    if (c == w->C - 1)
        return w->nb + 2 + o;
    return 2 * (c - 1) + o;
}

/* eq's band moved to start at j (its entries below j are 0). */
static void loc_shift(loc_eq *e, size_t j)
{
    size_t sh = j - e->lo;
    for (size_t t = 0; t < LOC_BW; t++)
        e->band[t] = t + sh < LOC_BW ? e->band[t + sh] : 0;
    e->lo = j;
}

/* dst -= f src (both bands starting at the same position). */
static void loc_sub(loc_eq *dst, const loc_eq *src, uint64_t f, uint64_t p)
{
    for (size_t t = 0; t < LOC_BW; t++)
        dst->band[t] = toggle__submod(dst->band[t], toggle__mulmod(f, src->band[t], p), p);
    for (size_t t = 0; t < LOC_NB; t++)
        dst->bd[t] = toggle__submod(dst->bd[t], toggle__mulmod(f, src->bd[t], p), p);
}

static bool loc_band_zero(const loc_eq *e)
{
    for (size_t t = 0; t < LOC_BW; t++)
        if (e->band[t])
            return false;
    return true;
}

/* The border's equations in RREF: ne rows E over the LOC_NB border
 * unknowns, row r's pivot at column pc[r]. */
typedef struct {
    uint64_t E[LOC_NB][LOC_NB];
    size_t pc[LOC_NB], ne;
} loc_border;

/* Window b's local system into w->eq (equation 4 c + d: cell (b - 2 + d,
 * c)); false when the stencil reaches past rows b - 2 .. b + 1 or past
 * columns c - 1 .. c + 1 of an equation's column. */
static inline bool loc_build(loc_ws *w, size_t b)
{
    size_t R = w->R, C = w->C, nb = w->nb;
    uint64_t p = w->p;
    for (size_t c = 0; c < C; c++)
        for (size_t d = 0; d < 4; d++) {
            loc_eq *e = &w->eq[4 * c + d];
            memset(e, 0, sizeof *e);
            e->lo = c >= 2 ? 2 * (c - 2) : 0;
        }
    for (size_t o = 0; o < 2; o++)
        for (size_t c = 0; c < C; c++) {
            size_t j = (b - 1 + o) * C + c, u = loc_unknown(w, o, c);
            size_t cnt = toggle__graph_column(w->g, j, w->cb.idx, w->cb.val);
            for (size_t q = 0; q < cnt; q++) {
                uint64_t v = w->cb.val[q] % p;
                size_t ri = w->cb.idx[q] / C, ci = w->cb.idx[q] % C, d = (ri + R + 2 - b) % R;
                if (!v)
                    continue;
                if (d >= 4)
                    return false;
                loc_eq *e = &w->eq[4 * ci + d];
                uint64_t *slot = u >= nb ? &e->bd[u - nb]
                                 : u >= e->lo && u - e->lo < LOC_BW ? &e->band[u - e->lo] : NULL;
                if (!slot)
                    return false;
                *slot = toggle__addmod(*slot, v, p);
            }
        }
    return true;
}

/* The active equation piv made 1 at its band start and cleared from the
 * other nact active ones. */
static inline void loc_pivot(loc_ws *w, size_t nact, size_t piv)
{
    uint64_t p = w->p;
    loc_eq *pe = &w->eq[w->act[piv]];
    uint64_t inv = toggle__invmod(pe->band[0], p);
    for (size_t t = 0; t < LOC_BW; t++)
        pe->band[t] = toggle__mulmod(pe->band[t], inv, p);
    for (size_t t = 0; t < LOC_NB; t++)
        pe->bd[t] = toggle__mulmod(pe->bd[t], inv, p);
    for (size_t a = 0; a < nact; a++)
        if (a != piv && w->eq[w->act[a]].band[0])
            loc_sub(&w->eq[w->act[a]], pe, w->eq[w->act[a]].band[0], p);
}

/* The band's elimination (pivrow: each band position's pivot equation or
 * SIZE_MAX); the equations left with band 0 go to the pool, their count
 * returned. */
static inline size_t loc_band(loc_ws *w)
{
    size_t nb = w->nb, neq = 4 * w->C, nact = 0, npool = 0, next = 0;
    for (size_t j = 0; j < nb; j++) {
        while (next < neq && w->eq[next].lo <= j)
            w->act[nact++] = next++;
        size_t piv = SIZE_MAX;
        for (size_t a = 0; a < nact; a++) {
            loc_eq *e = &w->eq[w->act[a]];
            loc_shift(e, j);
            if (e->band[0] && piv == SIZE_MAX)
                piv = a;
        }
        w->pivrow[j] = SIZE_MAX;
        if (piv != SIZE_MAX) {
            loc_pivot(w, nact, piv);
            w->pivrow[j] = w->act[piv];
        }
        size_t keep = 0; /* the pivot leaves; band-0 equations to the pool */
        for (size_t a = 0; a < nact; a++) {
            if (a == piv)
                continue;
            if (loc_band_zero(&w->eq[w->act[a]]))
                w->pool[npool++] = w->act[a];
            else
                w->act[keep++] = w->act[a];
        }
        nact = keep;
    }
    for (size_t a = 0; a < nact; a++) /* (nothing of the band is left) */
        w->pool[npool++] = w->act[a];
    while (next < neq)
        w->pool[npool++] = next++;
    return npool;
}

/* The border: the RREF of the npool pool equations' border entries. */
static inline void loc_border_rref(const loc_ws *w, size_t npool, loc_border *bo)
{
    uint64_t p = w->p;
    bo->ne = 0;
    for (size_t a = 0; a < npool; a++) {
        uint64_t v[LOC_NB];
        memcpy(v, w->eq[w->pool[a]].bd, sizeof v);
        for (size_t r = 0; r < bo->ne; r++) {
            uint64_t f = v[bo->pc[r]];
            for (size_t t = 0; f && t < LOC_NB; t++)
                v[t] = toggle__submod(v[t], toggle__mulmod(f, bo->E[r][t], p), p);
        }
        size_t q = 0;
        while (q < LOC_NB && !v[q])
            q++;
        if (q == LOC_NB)
            continue;
        uint64_t inv = toggle__invmod(v[q], p);
        for (size_t t = 0; t < LOC_NB; t++)
            v[t] = toggle__mulmod(v[t], inv, p);
        for (size_t r = 0; r < bo->ne; r++) {
            uint64_t f = bo->E[r][q];
            for (size_t t = 0; f && t < LOC_NB; t++)
                bo->E[r][t] = toggle__submod(bo->E[r][t], toggle__mulmod(f, v[t], p), p);
        }
        memcpy(bo->E[bo->ne], v, sizeof v);
        bo->pc[bo->ne++] = q;
    }
}

/* w->x from its free unknown (set): the border's pivots, then the band's
 * pivots by back substitution from the last. */
static inline void loc_back_substitute(loc_ws *w, const loc_border *bo)
{
    size_t nb = w->nb;
    uint64_t p = w->p;
    for (size_t r = 0; r < bo->ne; r++) {
        uint64_t s = 0;
        for (size_t t = 0; t < LOC_NB; t++)
            if (t != bo->pc[r])
                s = toggle__addmod(s, toggle__mulmod(bo->E[r][t], w->x[nb + t], p), p);
        w->x[nb + bo->pc[r]] = s ? p - s : 0;
    }
    for (size_t j = nb; j-- > 0;) {
        if (w->pivrow[j] == SIZE_MAX)
            continue;
        const loc_eq *e = &w->eq[w->pivrow[j]];
        uint64_t s = 0;
        for (size_t t = 1; t < LOC_BW && j + t < nb; t++)
            s = toggle__addmod(s, toggle__mulmod(e->band[t], w->x[j + t], p), p);
        for (size_t t = 0; t < LOC_NB; t++)
            s = toggle__addmod(s, toggle__mulmod(e->bd[t], w->x[nb + t], p), p);
        w->x[j] = s ? p - s : 0;
    }
}

/* One null vector per free unknown into w->W, *nf of them; false when
 * there are more than LOC_KMAX. */
static inline bool loc_null_vectors(loc_ws *w, const loc_border *bo, size_t *nf)
{
    size_t nb = w->nb, C = w->C;
    bool bpiv[LOC_NB] = {false};
    for (size_t r = 0; r < bo->ne; r++)
        bpiv[bo->pc[r]] = true;
    *nf = 0;
    for (size_t u = 0; u < nb + LOC_NB; u++) {
        if (u < nb ? w->pivrow[u] != SIZE_MAX : bpiv[u - nb])
            continue;
        if (*nf == LOC_KMAX)
            return false;
        memset(w->x, 0, (nb + LOC_NB) * sizeof *w->x);
        w->x[u] = 1;
        loc_back_substitute(w, bo);
        for (size_t o = 0; o < 2; o++)
            for (size_t c = 0; c < C; c++)
                toggle__vecs_set(&w->W, *nf, o * C + c, w->x[loc_unknown(w, o, c)]);
        (*nf)++;
    }
    return true;
}

/* The null space of window b's local system, as w->W's first *k vectors
 * of 2C (window cell o C + c is board cell (b - 1 + o) C + c, so the
 * window's order is the board's), in canonical form (toggle__tr_canonical_basis);
 * *ok false when the system is not of the banded shape (a stencil reaching
 * further) or the null space is larger than LOC_KMAX. The elimination is
 * by columns of the band: at band position j the active equations (those
 * whose first column is at most j's, not yet a pivot, band not 0) are
 * shifted to start at j, the first with a nonzero there is the pivot (made
 * 1) and cleared from the others. An active equation of column c starts
 * at 2 (c - 2) and ends by 2 c + 1, so every active equation's band lies
 * in [j, j + 5]: the LOC_BW entries hold it, the active ones are O(1),
 * O(C) steps a window. Equations whose band is 0 (pool) constrain the
 * border: reduced to their RREF (4 columns). Each free unknown (a band
 * position without pivot, a border one without) gives a null vector by
 * back substitution, O(C) each. */
static int loc_window(loc_ws *w, size_t b, size_t *k, bool *ok)
{
    *ok = false;
    if (!loc_build(w, b))
        return TOGGLE_OK;
    size_t npool = loc_band(w), nf = 0;
    loc_border bo;
    loc_border_rref(w, npool, &bo);
    if (!loc_null_vectors(w, &bo, &nf))
        return TOGGLE_OK;
    int rc = toggle__tr_canonical_basis(&w->W, nf, w->p, w->wpiv);
    if (rc)
        return rc;
    *k = nf;
    *ok = true;
    return TOGGLE_OK;
}

/* Bytes of toggle__tr_canonicalise_local on a rows x cols board with d kernel
 * vectors over k, for the estimate. */
uint64_t toggle__tr_canonicalise_local_bytes(size_t rows, size_t cols, size_t d, uint64_t k)
{
    size_t lv = 0, wv = 0, n = rows * cols;
    if (!toggle__vecs_bytes(2 * cols, d, k, &lv) || !toggle__vecs_bytes(2 * cols, LOC_KMAX, k, &wv))
        return UINT64_MAX;
    unsigned __int128 b = (unsigned __int128)lv + wv + (unsigned __int128)cols * 4 * sizeof(loc_eq)
                        + (unsigned __int128)cols * 8 * 8 + 2 * (unsigned __int128)cols * 16
                        + 64 + LOC_KMAX * 8 + (unsigned __int128)d * 5 * 8 + d + (n / 64 + 1) * 8;
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* toggle__tr_canonicalise_local's state: the window workspace, the local
 * vectors Lv, the free cells fr, the placement buffers (freed in one
 * place). nl local vectors, ns kept kernel rows. */
typedef struct {
    loc_ws w;
    toggle__vecs Lv;
    loc_free fr;
    size_t *pos, *at;
    bool *fin;
    size_t dn, R, C, N, nl, ns;
    uint64_t p;
} loc_canon;

static void loc_canon_clear(loc_canon *lk)
{
    toggle__colbuf_clear(&lk->w.cb);
    toggle__free(lk->w.eq);
    toggle__free(lk->w.act);
    toggle__free(lk->w.pool);
    toggle__free(lk->w.pivrow);
    toggle__free(lk->w.x);
    toggle__free(lk->w.wpiv);
    toggle__vecs_clear(&lk->w.W);
    toggle__vecs_clear(&lk->Lv);
    toggle__free(lk->fr.cell);
    toggle__free(lk->fr.lo);
    toggle__free(lk->fr.src);
    toggle__free(lk->fr.bits);
    toggle__free(lk->pos);
    toggle__free(lk->at);
    toggle__free(lk->fin);
    lk->w.eq = NULL;
    lk->w.act = lk->w.pool = lk->w.pivrow = lk->w.wpiv = NULL;
    lk->w.x = NULL;
    lk->fr.cell = lk->fr.lo = lk->fr.src = lk->pos = lk->at = NULL;
    lk->fr.bits = NULL;
    lk->fin = NULL;
}

/* The window workspace, the free cells and Lv (the colbuf is set up
 * first, by the caller). */
static int loc_canon_alloc(loc_canon *lk)
{
    loc_ws *w = &lk->w;
    size_t C = lk->C, dn = lk->dn;
    w->eq = toggle__malloc_array(4 * C, sizeof *w->eq);
    w->act = toggle__malloc_array(4 * C, sizeof *w->act);
    w->pool = toggle__malloc_array(4 * C, sizeof *w->pool);
    w->pivrow = toggle__malloc_array(w->nb, sizeof *w->pivrow);
    w->x = toggle__malloc_array(w->nb + LOC_NB, sizeof *w->x);
    w->wpiv = toggle__malloc_array(LOC_KMAX, sizeof *w->wpiv);
    lk->fr.cell = toggle__malloc_array(dn, sizeof *lk->fr.cell);
    lk->fr.lo = toggle__malloc_array(dn, sizeof *lk->fr.lo);
    lk->fr.src = toggle__malloc_array(dn, sizeof *lk->fr.src);
    lk->fr.bits = toggle__calloc(lk->N / 64 + 1, sizeof *lk->fr.bits);
    if (!w->eq || !w->act || !w->pool || !w->pivrow || !w->x || !w->wpiv || !lk->fr.cell
        || !lk->fr.lo || !lk->fr.src || !lk->fr.bits)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    int rc = toggle__vecs_init(&w->W, 2 * C, LOC_KMAX, lk->p);
    if (!rc)
        rc = toggle__vecs_init(&lk->Lv, 2 * C, dn, lk->p);
    return rc;
}

/* (1) the local vectors, in ascending free cell, into Lv and fr; *ok
 * false where the graph is not local (a window of another shape, or more
 * local vectors than the kernel holds). */
static int loc_canon_windows(loc_canon *lk, bool *ok)
{
    size_t C = lk->C;
    *ok = false;
    for (size_t b = 1; b < lk->R; b++) {
        size_t k = 0;
        bool wok;
        int rc = loc_window(&lk->w, b, &k, &wok);
        if (rc || !wok)
            return rc;
        for (size_t v = 0; v < k; v++) {
            if (b > 1 && lk->w.wpiv[v] < C)
                continue;
            if (lk->nl == lk->dn)
                return TOGGLE_OK;
            memcpy(toggle__vecs_row(&lk->Lv, lk->nl), toggle__vecs_row(&lk->w.W, v),
                   lk->Lv.stride * 8);
            toggle__tr_loc_insert(&lk->fr, (b - 1) * C + lk->w.wpiv[v], (b - 1) * C,
                                  lk->nl | LOC_LOCAL);
            lk->nl++;
        }
    }
    *ok = true;
    return TOGGLE_OK;
}

/* (2) the rest: by one chase (toggle__tr_span_chase), else from the kernel
 * rows: row i reduced, kept in row ns. */
static int loc_canon_rest(loc_canon *lk, const toggle_system *s, toggle_solution *sol,
                          const loc_chase *lc, bool *spanned)
{
    toggle__vecs *K = &sol->kernel;
    size_t dn = lk->dn;
    int rc;
    if (lc && (rc = toggle__tr_span_chase(s, sol, lc, &lk->Lv, &lk->fr, spanned)))
        return rc;
    lk->ns = *spanned ? dn - lk->nl : 0;
    for (size_t i = 0; !*spanned && lk->fr.n < dn && i < dn; i++) {
        size_t lo = 0, t = toggle__tr_loc_reduce(K, i, &lk->Lv, &lk->fr, lk->N - 1, &lo, true, lk->p);
        if (t == SIZE_MAX)
            continue; /* in the span of those found */
        toggle__tr_scale_span(K, i, 0, t, toggle__invmod(toggle__vecs_get(K, i, t), lk->p), lk->p);
        if (i != lk->ns)
            toggle__vecs_swap(K, i, lk->ns);
        toggle__tr_loc_insert(&lk->fr, t, 0, lk->ns++);
    }
    if (lk->fr.n < dn)
        return toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
    return TOGGLE_OK;
}

/* (3) the kept rows to their places (descending: a swap never moves a
 * placed row), the local vectors written out, then the full reduction. */
static int loc_canon_place(loc_canon *lk, toggle_solution *sol, bool spanned)
{
    toggle__vecs *K = &sol->kernel;
    size_t dn = lk->dn, ns = lk->ns, C = lk->C;
    loc_free *fr = &lk->fr;
    lk->pos = toggle__malloc_array(ns ? ns : 1, sizeof *lk->pos);
    lk->at = toggle__malloc_array(dn, sizeof *lk->at);
    lk->fin = toggle__malloc_array(dn, sizeof *lk->fin);
    if (!lk->pos || !lk->at || !lk->fin)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    size_t *pos = lk->pos, *at = lk->at;
    for (size_t r = 0; r < dn; r++)
        at[r] = r < ns ? r : SIZE_MAX;
    for (size_t v = 0; v < ns; v++)
        pos[v] = v;
    for (size_t q = dn; q-- > 0;) {
        size_t v = fr->src[q];
        if (v & LOC_LOCAL || pos[v] == q)
            continue;
        size_t r = pos[v], u = at[q];
        toggle__vecs_swap(K, r, q);
        at[r] = u;
        if (u != SIZE_MAX)
            pos[u] = r;
        at[q] = v;
        pos[v] = q;
    }
    for (size_t q = 0; q < dn; q++) {
        size_t v = fr->src[q];
        lk->fin[q] = spanned && !(v & LOC_LOCAL); /* toggle__tr_span_chase's: reduced already */
        if (v & LOC_LOCAL) {
            memset(toggle__vecs_row(K, q), 0, K->stride * 8);
            for (size_t t = 0; t < 2 * C; t++)
                toggle__vecs_set(K, q, fr->lo[q] + t, toggle__vecs_get(&lk->Lv, v & ~LOC_LOCAL, t));
        }
        fr->src[q] = q;
    }
    for (size_t q = 0; q < dn; q++)
        if (!lk->fin[q] && fr->cell[q] > fr->lo[q])
            toggle__tr_loc_reduce(K, q, &lk->Lv, fr, fr->cell[q] - 1, &fr->lo[q], false, lk->p);
    toggle__tr_clear_free(sol, fr->cell, fr->lo);
    return TOGGLE_OK;
}

/* The canonical kernel over odd p from local vectors, where the graph is
 * a board of at least 4 x 4 whose stencil reaches one row and column:
 * (1) every window of board rows b - 1, b (b = 1 .. R - 1) gives its null
 * vectors (loc_window), of which those whose free cell is in row b (row 0
 * too for b = 1; the others lie on row b - 1 alone and came from window
 * b - 1) are kept: distinct free cells, so independent, and kernel
 * vectors of the board (the window's equations are all the cells its
 * presses touch); (2) the rest, given lc, by one chase of their
 * combinations, already reduced (toggle__tr_span_chase: O(ns N) for ns of them, not
 * O(ns^2 N)), else the kernel rows, in order, are reduced by them and
 * by the vectors this step already kept (toggle__tr_loc_reduce from the last cell),
 * each that keeps a nonzero off the free cells adds its last nonzero as a
 * free cell, until there are dn; (3) all are placed in ascending free cell
 * and each is reduced by the ones before it (which are 0 on every other
 * free cell, so one descending pass clears all of them), and x is cleared
 * on the free cells. dn vectors of the kernel, unit on their distinct
 * free cells and 0 on the others': the canonical basis, which is unique,
 * so canonicalise's answer. Cost: O(R C) for (1); for (2) and (3) O(N) per
 * vector kept in (2) and O(C) per local one (the kernel rows' writes,
 * O(dn N), are the answer's), unless a local vector meets a kept one's free
 * cell (then O(N)). *done false (nothing changed) where it does not apply:
 * then canonicalise; *spanned: toggle__tr_span_chase gave (2). */
int toggle__tr_canonicalise_local(const toggle_system *s, toggle_solution *sol, const loc_chase *lc,
                              bool *done, bool *spanned)
{
    const toggle_graph *g = s->graph;
    size_t R = g ? g->rows : 0, C = g ? g->cols : 0;
    *done = *spanned = false;
    if (!sol->nullity || sol->kernel.packed || !is_board(s) || R < 4 || C < 4)
        return TOGGLE_OK;
    loc_canon lk;
    memset(&lk, 0, sizeof lk);
    lk.w.g = g;
    lk.w.p = lk.p = sol->k;
    lk.w.R = lk.R = R;
    lk.w.C = lk.C = C;
    lk.w.nb = 2 * (C - 2);
    lk.dn = sol->nullity;
    lk.N = R * C;
    int rc = toggle__colbuf_init(&lk.w.cb, g);
    if (rc)
        return rc;
    bool ok = false;
    rc = loc_canon_alloc(&lk);
    if (!rc)
        rc = loc_canon_windows(&lk, &ok);
    if (!rc && ok)
        rc = loc_canon_rest(&lk, s, sol, lc, spanned);
    if (!rc && ok)
        rc = loc_canon_place(&lk, sol, *spanned);
    if (!rc && ok)
        *done = true;
    loc_canon_clear(&lk);
    return rc;
}
