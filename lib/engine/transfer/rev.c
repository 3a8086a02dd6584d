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
    size_t C = f->C, R = f->R, L = ln->L, dn = L - solvable, fc = first_constraint(f);
    size_t mr = f->nuk * C, HH = f->Hf + f->Hb;
    uint64_t p = f->p, *KU = U + solvable * m;
    modp mp;
    modp_init(&mp, p);
    *full = false;
    size_t *xo = toggle__calloc(fc + 1, sizeof *xo), *lrow = toggle__malloc_array(dn, sizeof *lrow);
    size_t *rst = toggle__calloc(R + 2, sizeof *rst), *byrow = toggle__malloc_array(dn, sizeof *byrow);
    size_t *rcol = toggle__malloc_array(dn, sizeof *rcol), *ridx = toggle__malloc_array(dn, sizeof *ridx);
    fcell *pv = toggle__malloc_array(dn, sizeof *pv);
    uint64_t *T = toggle__calloc(L * dn, sizeof *T);
    int rc = TOGGLE_OK;
    if (!xo || !lrow || !rst || !byrow || !rcol || !ridx || !pv || !T) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    /* promotions of chasing row r: unknowns mr + xo[r] .. mr + xo[r + 1] */
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        if ((rc = toggle__tr_frame_class(f, r, &pt))) {
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        xo[r + 1] = xo[r] + pt->npro;
    }
    /* each basis vector's lead and the frame row it sits in */
    for (size_t l = 0; l < dn; l++) {
        size_t i = 0;
        while (i < m && !KU[l * m + i])
            i++;
        if (i == m) {
            rc = toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
            goto out;
        }
        if (i < mr) {
            lrow[l] = i / C;
        } else {
            size_t r = 0;
            while (xo[r + 1] <= i - mr)
                r++;
            lrow[l] = r + f->Hf;
        }
        rst[lrow[l] + 1]++;
    }
    for (size_t t = 0; t < R; t++)
        rst[t + 1] += rst[t];
    for (size_t l = 0; l < dn; l++)
        byrow[rst[lrow[l]]++] = l;
    for (size_t t = R; t > 0; t--)
        rst[t] = rst[t - 1];
    rst[0] = 0;
    /* row by row: the leads' row t, their reverse echelon positions */
    size_t np = 0, rows_scratch = 0;
    uint64_t *W = NULL;
    for (size_t t = 0; t < R; t++) {
        size_t rho = rst[t + 1] - rst[t];
        if (!rho)
            continue;
        if (rho > rows_scratch) {
            toggle__free(W);
            rows_scratch = rho;
            if (!(W = toggle__malloc_array(rho * C, sizeof *W))) {
                rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
                goto out;
            }
        }
        rowpat *pt = NULL;
        if (t >= f->Hf && (rc = toggle__tr_frame_class(f, t - f->Hf, &pt))) {
            toggle__free(W);
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        for (size_t a = 0; a < rho; a++) {
            const uint64_t *u = KU + byrow[rst[t] + a] * m;
            uint64_t *w = W + a * C;
            if (!pt) { /* an unknown row: its cells are unknowns */
                memcpy(w, u + t * C, C * sizeof *w);
                continue;
            }
            /* the program of row t - Hf with every other row 0 */
            const uint64_t *x = u + mr + xo[t - f->Hf];
            memset(w, 0, C * sizeof *w);
            for (size_t st = 0, kk = 0; st < C; st++) {
                if (pt->peq[st] == SIZE_MAX) {
                    w[pt->pvar[st]] = x[kk++];
                    continue;
                }
                uint64_t acc = 0;
                for (size_t q = pt->pstart[st]; q < pt->pstart[st + 1]; q++)
                    if (pt->pterm[q].slot == HH && w[pt->pterm[q].col])
                        acc = toggle__addmod(acc, toggle__mulmod(pt->pterm[q].w,
                                                                 w[pt->pterm[q].col], p), p);
                w[pt->pvar[st]] = toggle__mulmod(toggle__submod(0, acc, p), pt->pinv[st], p);
            }
        }
        /* reverse echelon of the rho rows (board order: ascending column) */
        for (size_t k = 0; k < rho; k++) {
            size_t best = SIZE_MAX, bi = 0;
            for (size_t a = k; a < rho; a++) {
                size_t j = C;
                while (j > 0 && !W[a * C + j - 1])
                    j--;
                if (j && (best == SIZE_MAX || j - 1 > best))
                    best = j - 1, bi = a;
            }
            if (best == SIZE_MAX) {
                *full = true; /* cannot happen: the row's unknowns are its cells */
                toggle__free(W);
                goto out;
            }
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
                    toggle__tr_vec_submul(W + a * C, W + k * C, toggle__mulmod(e, inv, p), C, &mp);
            }
            pv[np].cell = frame_cell(f, t, best);
            pv[np].r = t;
            pv[np++].j = best;
        }
    }
    toggle__free(W);
    /* capture the free cells (in board order) in one chase, reduce there */
    qsort(pv, np, sizeof *pv, fcell_cmp);
    memset(rst, 0, (R + 2) * sizeof *rst);
    for (size_t k = 0; k < np; k++)
        rst[pv[k].r + 1]++;
    for (size_t t = 0; t < R; t++)
        rst[t + 1] += rst[t];
    for (size_t k = 0; k < np; k++)
        rcol[k] = SIZE_MAX;
    if (np != dn) {
        rc = toggle__error(TOGGLE_EINTERNAL, "transfer: %zu free columns for nullity %zu", np, dn);
        goto out;
    }
    for (size_t k = 0; k < np; k++)
        pcell[k] = pv[k].cell;
    /* row t's cells at rst[t] .. rst[t + 1], each at its place k in board
     * order (a row has a few) */
    for (size_t k = 0; k < np; k++) {
        size_t t = pv[k].r, at = rst[t];
        while (at < rst[t + 1] && rcol[at] != SIZE_MAX)
            at++;
        rcol[at] = pv[k].j;
        ridx[at] = k;
    }
    tail_ctx tc = {0, 0, T, rst, rcol, ridx, dn};
    if ((rc = toggle__tr_chase(ln, solvable, s, resid, toggle__tr_capture_row, &tc)))
        goto out;
    rc = toggle__tr_restricted_echelon(p, solvable, dn, T, dn, U, m, full);
out:
    toggle__free(xo);
    toggle__free(lrow);
    toggle__free(rst);
    toggle__free(byrow);
    toggle__free(rcol);
    toggle__free(ridx);
    toggle__free(pv);
    toggle__free(T);
    return rc;
}
