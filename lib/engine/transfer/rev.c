/* The canonical form of a frame chased from the last board row (rev): free
 * cells row by row from the small system's kernel. Internal. */
#include <stdlib.h>
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* Frame (row, column) pairs ordered by their board cell. */
typedef struct {
    size_t cell, r, j;
} fcell;

static int fcell_cmp(const void *a, const void *b)
{
    size_t x = ((const fcell *)a)->cell, y = ((const fcell *)b)->cell;
    return (x > y) - (x < y);
}

/* The phases' state: the frame, the small system's kernel KU (L - solvable
 * rows of m), and the buffers every phase shares (freed in one place). */
typedef struct {
    lanes *ln;
    tframe *f;
    size_t C, R, L, dn, fc, mr, HH, m, np;
    uint64_t p;
    const uint64_t *KU;
    modp mp;
    size_t *xo;    /* fc + 1: chasing row r's promotions start at mr + xo[r] */
    size_t *lrow;  /* dn: the frame row of each basis vector's lead */
    size_t *rst;   /* R + 2: row starts (of byrow, then of the free cells) */
    size_t *byrow; /* dn: the basis vectors by their lead's row */
    size_t *rcol, *ridx; /* dn: the free cells' columns and places, by row */
    fcell *pv;     /* dn: the free cells found */
    uint64_t *T;   /* L x dn: the captured free cells */
    uint64_t *W;   /* rows_scratch x C: one row's values */
    size_t rows_scratch;
} rev_ws;

static void rev_ws_clear(rev_ws *w)
{
    toggle__free(w->xo);
    toggle__free(w->lrow);
    toggle__free(w->rst);
    toggle__free(w->byrow);
    toggle__free(w->rcol);
    toggle__free(w->ridx);
    toggle__free(w->pv);
    toggle__free(w->T);
    toggle__free(w->W);
    w->xo = w->lrow = w->rst = w->byrow = w->rcol = w->ridx = NULL;
    w->pv = NULL;
    w->T = w->W = NULL;
}

static int rev_ws_alloc(rev_ws *w)
{
    size_t dn = w->dn;
    w->xo = toggle__calloc(w->fc + 1, sizeof *w->xo);
    w->lrow = toggle__malloc_array(dn, sizeof *w->lrow);
    w->rst = toggle__calloc(w->R + 2, sizeof *w->rst);
    w->byrow = toggle__malloc_array(dn, sizeof *w->byrow);
    w->rcol = toggle__malloc_array(dn, sizeof *w->rcol);
    w->ridx = toggle__malloc_array(dn, sizeof *w->ridx);
    w->pv = toggle__malloc_array(dn, sizeof *w->pv);
    w->T = toggle__calloc(w->L * dn, sizeof *w->T);
    if (!w->xo || !w->lrow || !w->rst || !w->byrow || !w->rcol || !w->ridx || !w->pv || !w->T)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    return TOGGLE_OK;
}

/* Promotions of chasing row r: unknowns mr + xo[r] .. mr + xo[r + 1]. */
static int rev_promotions(rev_ws *w)
{
    for (size_t r = 0; r < w->fc; r++) {
        rowpat *pt;
        int rc = toggle__tr_frame_class(w->f, r, &pt);
        if (rc)
            return toggle__error(rc, "out of memory for the transfer engine's row patterns");
        w->xo[r + 1] = w->xo[r] + pt->npro;
    }
    return TOGGLE_OK;
}

/* Each basis vector's lead and the frame row it sits in; byrow lists the
 * vectors by that row, row t's at rst[t] .. rst[t + 1]. */
static int rev_leads(rev_ws *w)
{
    size_t m = w->m, mr = w->mr, dn = w->dn, R = w->R;
    size_t *rst = w->rst, *lrow = w->lrow;
    for (size_t l = 0; l < dn; l++) {
        size_t i = 0;
        while (i < m && !w->KU[l * m + i])
            i++;
        if (i == m)
            return toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
        if (i < mr) {
            lrow[l] = i / w->C;
        } else {
            size_t r = 0;
            while (w->xo[r + 1] <= i - mr)
                r++;
            lrow[l] = r + w->f->Hf;
        }
        rst[lrow[l] + 1]++;
    }
    for (size_t t = 0; t < R; t++)
        rst[t + 1] += rst[t];
    for (size_t l = 0; l < dn; l++)
        w->byrow[rst[lrow[l]]++] = l;
    for (size_t t = R; t > 0; t--)
        rst[t] = rst[t - 1];
    rst[0] = 0;
    return TOGGLE_OK;
}

/* Row t of basis vector u into v (C values): an unknown row (pt NULL) is
 * its unknowns, a chasing row the program of row t - Hf with every other
 * row 0. */
static inline void rev_row_values(const rev_ws *w, size_t t, const rowpat *pt,
                                  const uint64_t *u, uint64_t *v)
{
    size_t C = w->C, HH = w->HH;
    uint64_t p = w->p;
    if (!pt) {
        memcpy(v, u + t * C, C * sizeof *v);
        return;
    }
    const uint64_t *x = u + w->mr + w->xo[t - w->f->Hf];
    memset(v, 0, C * sizeof *v);
    for (size_t st = 0, kk = 0; st < C; st++) {
        if (pt->peq[st] == SIZE_MAX) {
            v[pt->pvar[st]] = x[kk++];
            continue;
        }
        uint64_t acc = 0;
        for (size_t q = pt->pstart[st]; q < pt->pstart[st + 1]; q++)
            if (pt->pterm[q].slot == HH && v[pt->pterm[q].col])
                acc = toggle__addmod(acc, toggle__mulmod(pt->pterm[q].w, v[pt->pterm[q].col], p), p);
        v[pt->pvar[st]] = toggle__mulmod(toggle__submod(0, acc, p), pt->pinv[st], p);
    }
}

/* Free cell (t, j) appended to pv. */
static inline void pv_push(rev_ws *w, size_t t, size_t j)
{
    w->pv[w->np].cell = frame_cell(w->f, t, j);
    w->pv[w->np].r = t;
    w->pv[w->np++].j = j;
}

/* The reverse echelon of W's rho rows of row t (board order: ascending
 * column): each pivot is a free cell, appended to pv. false when a row is
 * 0 (cannot happen: the row's unknowns are its cells). */
static inline bool rev_row_echelon(rev_ws *w, size_t t, size_t rho)
{
    size_t C = w->C;
    uint64_t p = w->p, *W = w->W;
    for (size_t k = 0; k < rho; k++) {
        size_t best = SIZE_MAX, bi = 0;
        for (size_t a = k; a < rho; a++) {
            size_t j = C;
            while (j > 0 && !W[a * C + j - 1])
                j--;
            if (j && (best == SIZE_MAX || j - 1 > best))
                best = j - 1, bi = a;
        }
        if (best == SIZE_MAX)
            return false;
        if (bi != k)
            for (size_t j = 0; j < C; j++) {
                uint64_t tmp = W[k * C + j];
                W[k * C + j] = W[bi * C + j];
                W[bi * C + j] = tmp;
            }
        uint64_t inv = toggle__invmod(W[k * C + best], p);
        for (size_t a = k + 1; a < rho; a++) {
            uint64_t e = W[a * C + best];
            if (e)
                toggle__tr_vec_submul(W + a * C, W + k * C, toggle__mulmod(e, inv, p), C, &w->mp);
        }
        pv_push(w, t, best);
    }
    return true;
}

/* Row by row: the leads' row t, their reverse echelon positions (the free
 * cells, into pv). *full when a row's echelon fails. */
static int rev_free_cells(rev_ws *w, bool *full)
{
    for (size_t t = 0; t < w->R; t++) {
        size_t rho = w->rst[t + 1] - w->rst[t];
        if (!rho)
            continue;
        if (rho > w->rows_scratch) {
            toggle__free(w->W);
            w->rows_scratch = rho;
            if (!(w->W = toggle__malloc_array(rho * w->C, sizeof *w->W)))
                return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        }
        rowpat *pt = NULL;
        int rc;
        if (t >= w->f->Hf && (rc = toggle__tr_frame_class(w->f, t - w->f->Hf, &pt)))
            return toggle__error(rc, "out of memory for the transfer engine's row patterns");
        for (size_t a = 0; a < rho; a++)
            rev_row_values(w, t, pt, w->KU + w->byrow[w->rst[t] + a] * w->m, w->W + a * w->C);
        if (!rev_row_echelon(w, t, rho)) {
            *full = true;
            break;
        }
    }
    toggle__free(w->W);
    w->W = NULL;
    return TOGGLE_OK;
}

/* The free cells (in board order) into pcell, captured in one chase, and
 * the canonical answers by the echelon there. */
static int rev_capture(rev_ws *w, bool solvable, const toggle_system *s, uint64_t *U,
                       uint64_t *resid, size_t *pcell, bool *full)
{
    size_t np = w->np, dn = w->dn, R = w->R, *rst = w->rst;
    qsort(w->pv, np, sizeof *w->pv, fcell_cmp);
    memset(rst, 0, (R + 2) * sizeof *rst);
    for (size_t k = 0; k < np; k++)
        rst[w->pv[k].r + 1]++;
    for (size_t t = 0; t < R; t++)
        rst[t + 1] += rst[t];
    for (size_t k = 0; k < np; k++)
        w->rcol[k] = SIZE_MAX;
    if (np != dn)
        return toggle__error(TOGGLE_EINTERNAL, "transfer: %zu free columns for nullity %zu", np, dn);
    for (size_t k = 0; k < np; k++)
        pcell[k] = w->pv[k].cell;
    /* row t's cells at rst[t] .. rst[t + 1], each at its place k in board
     * order (a row has a few) */
    for (size_t k = 0; k < np; k++) {
        size_t t = w->pv[k].r, at = rst[t];
        while (at < rst[t + 1] && w->rcol[at] != SIZE_MAX)
            at++;
        w->rcol[at] = w->pv[k].j;
        w->ridx[at] = k;
    }
    tail_ctx tc = {0, 0, w->T, rst, w->rcol, w->ridx, dn};
    int rc = toggle__tr_chase(w->ln, solvable, s, resid, toggle__tr_capture_row, &tc);
    if (rc)
        return rc;
    return toggle__tr_restricted_echelon(w->p, solvable, dn, w->T, dn, U, w->m, full);
}

/* The canonical form of a frame chased from the last board row (rev, no
 * row wrap). The small system's kernel basis (columns reversed, so its
 * canonical basis is in echelon by first nonzero unknown) has a distinct
 * lead per vector, and the unknowns are ordered by the frame row they sit
 * in (the first Hf rows, then each chasing row's promotions in the row
 * they solve). A kernel vector with zero unknowns in frame rows < t is 0
 * on those rows (they are chased from those unknowns alone), and its row t
 * follows from row t's own unknowns alone; so the vectors vanishing on
 * rows < t are spanned by the basis vectors whose lead lies in rows >= t,
 * and their restriction to row t by those whose lead lies in row t. The
 * free columns of row t (the last nonzero positions, in board order, of
 * kernel vectors vanishing on the board rows after it) are hence the
 * reverse echelon positions of those vectors' row t: a few rows of C
 * values each. The restriction to the free columns is injective (it is
 * the identity on the canonical basis), so toggle__tr_restricted_echelon on those
 * cells, captured in one chase, gives the canonical basis and particular
 * solution; the answers' chase checks the result (see transfer_solve). */
int toggle__tr_rev_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U, size_t m,
                         uint64_t *resid, size_t *pcell, bool *full)
{
    tframe *f = (tframe *)ln->f;
    rev_ws w;
    memset(&w, 0, sizeof w);
    w.ln = ln;
    w.f = f;
    w.C = f->C;
    w.R = f->R;
    w.L = ln->L;
    w.dn = ln->L - solvable;
    w.fc = first_constraint(f);
    w.mr = f->nuk * f->C;
    w.HH = f->Hf + f->Hb;
    w.m = m;
    w.p = f->p;
    w.KU = U + solvable * m;
    modp_init(&w.mp, f->p);
    *full = false;
    int rc = rev_ws_alloc(&w);
    if (!rc)
        rc = rev_promotions(&w);
    if (!rc)
        rc = rev_leads(&w);
    if (!rc)
        rc = rev_free_cells(&w, full);
    if (!rc && !*full)
        rc = rev_capture(&w, solvable, s, U, resid, pcell, full);
    rev_ws_clear(&w);
    return rc;
}
