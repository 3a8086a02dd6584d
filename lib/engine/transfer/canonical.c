/* The canonical kernel basis by a reverse echelon of the whole basis (any
 * p), and the vector operations the canonical forms share. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* d[i] = (d[i] + nf s[i]) mod k for i < n, 8-bit entries below k < 256:
 * t = d + nf s < k^2, and with mk = 2^24 / k + 1, (t mk) >> 24 is t / k
 * exactly (the error t (mk - 2^24 / k) / 2^24 < k^2 / 2^24 < 1 / 256 is
 * less than the 1 / k that t / k's fraction stays below 1 by) and t mk <
 * 2^32: no division, so the loop vectorises (TOGGLE__HOT: AVX2 where the
 * CPU has it). */
static TOGGLE__HOT void sub8(uint8_t *restrict d, const uint8_t *restrict s, size_t n, uint32_t nf,
                             uint32_t k)
{
    uint32_t mk = ((uint32_t)1 << 24) / k + 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = d[i] + nf * s[i];
        d[i] = (uint8_t)(t - ((t * mk) >> 24) * k);
    }
}

/* Entries off + i of vector dst -= f * entry i of src, for i in [from,
 * upto] (unpacked vecs: odd p; src may be a shorter vector, as a local
 * one of toggle__tr_canonicalise_local). */
void toggle__tr_axpy_span(toggle__vecs *v, size_t dst, size_t off, const toggle__vecs *sv, size_t src,
                      uint64_t fct, uint64_t k, size_t from, size_t upto)
{
    if (v->width == 8 && sv->width == 8) { /* k < 256 */
        sub8((uint8_t *)toggle__vecs_row(v, dst) + off + from,
             (const uint8_t *)toggle__vecs_row(sv, src) + from, upto + 1 - from,
             (uint32_t)((k - fct % k) % k), (uint32_t)k);
        return;
    }
    for (size_t i = from; i <= upto; i++) {
        uint64_t si = toggle__vecs_get(sv, src, i);
        if (si)
            toggle__vecs_set(v, dst, off + i,
                             toggle__submod(toggle__vecs_get(v, dst, off + i),
                                            toggle__mulmod(fct, si, k), k));
    }
}

/* Entries from .. upto of vector i times f (mod k). */
void toggle__tr_scale_span(toggle__vecs *v, size_t i, size_t from, size_t upto, uint64_t f, uint64_t k)
{
    for (size_t t = from; t <= upto; t++)
        toggle__vecs_set(v, i, t, toggle__mulmod(toggle__vecs_get(v, i, t), f, k));
}

/* dst -= f * src (vectors of the same vecs, or x against the kernel). */
static void axpy(toggle__vecs *v, size_t dst, const toggle__vecs *sv, size_t src, uint64_t fct,
                 uint64_t k, size_t upto)
{
    uint64_t *d = toggle__vecs_row(v, dst);
    const uint64_t *sr = toggle__vecs_row(sv, src);
    if (v->packed) {
        for (size_t i = 0; i <= upto / 64; i++)
            d[i] ^= sr[i];
        return;
    }
    toggle__tr_axpy_span(v, dst, 0, sv, src, fct, k, 0, upto);
}

/* Bring the kernel basis to the canonical one (unit on its free column, 0
 * on the others, in ascending free column) and x to free variables 0. */

/* The reverse echelon of K's first dn vectors, fully reduced (each unit on
 * its free cell, its last nonzero, and 0 on the others'), in ascending free
 * cell, those cells in piv: O(dn^2 n) scalar steps for vectors of n. */
int toggle__tr_canonical_basis(toggle__vecs *K, size_t dn, uint64_t k, size_t *piv)
{
    bool *used = toggle__calloc(dn ? dn : 1, sizeof *used);
    if (!used)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    for (size_t step = 0; step < dn; step++) {
        size_t best = SIZE_MAX, bi = 0;
        for (size_t i = 0; i < dn; i++) {
            if (used[i])
                continue;
            size_t l = toggle__vecs_last_nonzero(K, i);
            if (l == SIZE_MAX) {
                toggle__free(used);
                return toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
            }
            if (best == SIZE_MAX || l > best) {
                best = l;
                bi = i;
            }
        }
        used[bi] = true;
        piv[bi] = best;
        uint64_t lead = toggle__vecs_get(K, bi, best);
        if (lead != 1)
            toggle__tr_scale_span(K, bi, 0, best, toggle__invmod(lead, k), k);
        for (size_t i = 0; i < dn; i++) {
            uint64_t e = i == bi ? 0 : toggle__vecs_get(K, i, best);
            if (e)
                axpy(K, i, K, bi, e, k, best);
        }
    }
    /* order by free column: sort the rows by piv (selection, dn swaps) */
    for (size_t a = 0; a < dn; a++) {
        size_t m = a;
        for (size_t b = a + 1; b < dn; b++)
            if (piv[b] < piv[m])
                m = b;
        if (m != a) {
            toggle__vecs_swap(K, a, m);
            size_t tp = piv[a];
            piv[a] = piv[m];
            piv[m] = tp;
        }
    }
    toggle__free(used);
    return TOGGLE_OK;
}

/* The particular solution to 0 on the free cells piv of the canonical
 * basis: x -= x(piv[i]) K_i (K_i is 0 on the other free cells, so the
 * order does not matter), K_i read from lo[i] (NULL: 0) to piv[i]. */
void toggle__tr_clear_free(toggle_solution *sol, const size_t *piv, const size_t *lo)
{
    for (size_t i = 0; sol->solvable && i < sol->nullity; i++) {
        uint64_t e = toggle__vecs_get(&sol->x, 0, piv[i]);
        if (e && lo)
            toggle__tr_axpy_span(&sol->x, 0, 0, &sol->kernel, i, e, sol->k, lo[i], piv[i]);
        else if (e)
            axpy(&sol->x, 0, &sol->kernel, i, e, sol->k, piv[i]);
    }
}

int toggle__tr_canonicalise(toggle_solution *sol)
{
    size_t dn = sol->nullity;
    if (!dn)
        return TOGGLE_OK;
    size_t *piv = toggle__malloc_array(dn, sizeof *piv);
    if (!piv)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    int rc = toggle__tr_canonical_basis(&sol->kernel, dn, sol->k, piv);
    if (!rc)
        toggle__tr_clear_free(sol, piv, NULL);
    toggle__free(piv);
    return rc;
}
