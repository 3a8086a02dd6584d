/* The reverse echelon of the kernel's restriction to a few cells, applied to
 * the unknowns, and the sink that captures those cells. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

void toggle__tr_capture_row(void *ctx_, const lanes *ln, size_t r, const uint64_t *row,
                        const uint64_t *lrow, size_t lstride)
{
    tail_ctx *t = ctx_;
    size_t C = ln->f->C;
    if (t->rstart) {
        for (size_t k = t->rstart[r]; k < t->rstart[r + 1]; k++) {
            size_t j = t->rcol[k];
            for (size_t l = 0; l < ln->L; l++)
                t->T[l * t->hc + t->ridx[k]] = lrow ? lrow_get(ln, lrow, lstride, l, j)
                                                    : lane_get(ln, row + j * ln->nw, l);
        }
        return;
    }
    if (r < t->first || r - t->first >= t->H)
        return;
    if (lrow) {
        for (size_t l = 0; l < ln->L; l++)
            for (size_t j = 0; j < C; j++)
                t->T[l * t->H * C + (r - t->first) * C + j] = lrow_get(ln, lrow, lstride, l, j);
        return;
    }
    for (size_t j = 0; j < C; j++)
        for (size_t l = 0; l < ln->L; l++)
            t->T[l * t->H * C + (r - t->first) * C + j] = lane_get(ln, row + j * ln->nw, l);
}

/* v -= e w over n entries (each < p; e != 0). */
void toggle__tr_vec_submul(uint64_t *v, const uint64_t *w, uint64_t e, size_t n, const modp *mp)
{
    uint64_t p = mp->p;
    if (p == 2) {
        for (size_t q = 0; q < n; q++)
            v[q] ^= w[q];
    } else if (mp->mu) {
        uint64_t c = p - e;
        for (size_t q = 0; q < n; q++)
            v[q] = modp_reduce(mp, v[q] + c * w[q]);
    } else {
        for (size_t q = 0; q < n; q++)
            if (w[q])
                v[q] = toggle__submod(v[q], toggle__mulmod(e, w[q], p), p);
    }
}

/* v *= e over n entries. */
static void vec_scale(uint64_t *v, uint64_t e, size_t n, const modp *mp)
{
    for (size_t q = 0; q < n; q++)
        v[q] = mp->mu ? modp_reduce(mp, v[q] * e) : toggle__mulmod(v[q], e, mp->p);
}

/* The reverse echelon of the restrictions T (L vectors of hc values, in
 * board order; the particular solution first when solvable) applied to U
 * (L vectors of m values): repeatedly the remaining kernel vector with the
 * largest last nonzero, scaled to 1 there and cleared from every other
 * vector (the particular solution too); then U's kernel vectors ordered by
 * that position. *full when a restriction becomes 0 (not injective). */
int toggle__tr_restricted_echelon(uint64_t p, bool solvable, size_t dn, uint64_t *T, size_t hc,
                              uint64_t *U, size_t m, bool *full)
{
    size_t *piv = toggle__malloc_array(dn ? dn : 1, sizeof *piv);
    bool *used = toggle__calloc(dn ? dn : 1, sizeof *used);
    uint64_t *sw = toggle__malloc_array(m ? m : 1, sizeof *sw);
    int rc = TOGGLE_OK;
    modp mp;
    modp_init(&mp, p);
    *full = false;
    if (!piv || !used || !sw) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    uint64_t *K = T + solvable * hc, *KU = U + solvable * m;
    for (size_t step = 0; step < dn; step++) {
        size_t best = SIZE_MAX, bi = 0;
        for (size_t i = 0; i < dn; i++) {
            if (used[i])
                continue;
            size_t l = hc;
            while (l > 0 && !K[i * hc + l - 1])
                l--;
            if (l == 0) {
                *full = true; /* the restriction does not decide */
                goto out;
            }
            if (best == SIZE_MAX || l - 1 > best) {
                best = l - 1;
                bi = i;
            }
        }
        used[bi] = true;
        piv[bi] = best;
        uint64_t lead = K[bi * hc + best];
        if (lead != 1) {
            uint64_t inv = toggle__invmod(lead, p);
            vec_scale(K + bi * hc, inv, hc, &mp);
            vec_scale(KU + bi * m, inv, m, &mp);
        }
        for (size_t i = 0; i < dn + solvable; i++) {
            /* i < dn: the other kernel vectors; i == dn: the particular */
            uint64_t *vt = i < dn ? K + i * hc : T, *vu = i < dn ? KU + i * m : U;
            if (i == bi && i < dn)
                continue;
            uint64_t e = vt[best];
            if (!e)
                continue;
            toggle__tr_vec_submul(vt, K + bi * hc, e, hc, &mp);
            toggle__tr_vec_submul(vu, KU + bi * m, e, m, &mp);
        }
    }
    /* order by free column */
    for (size_t a = 0; a < dn; a++) {
        size_t mi = a;
        for (size_t b = a + 1; b < dn; b++)
            if (piv[b] < piv[mi])
                mi = b;
        if (mi != a) {
            memcpy(sw, KU + a * m, m * sizeof *sw);
            memcpy(KU + a * m, KU + mi * m, m * sizeof *sw);
            memcpy(KU + mi * m, sw, m * sizeof *sw);
            size_t tp = piv[a];
            piv[a] = piv[mi];
            piv[mi] = tp;
        }
    }
out:
    toggle__free(piv);
    toggle__free(used);
    toggle__free(sw);
    return rc;
}
