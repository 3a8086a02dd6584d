/* Reading the canonical answers out of a reduced row echelon form of
 * [A | b]: shared by the elimination engines (flint, gf2). */
#include "engine.h"

int toggle__readout_rref(const toggle_system *s, toggle_solution *sol, const toggle__vecs *R,
                         size_t rank, const size_t *pivot, uint64_t held)
{
    size_t n = s->n;
    uint64_t k = s->k;
    bool inconsistent = rank > 0 && pivot[rank - 1] == n;
    size_t rank_a = inconsistent ? rank - 1 : rank;
    sol->solvable = !inconsistent;
    sol->nullity = n - rank_a;
    size_t kb;
    if (!toggle__vecs_bytes(n, sol->nullity, k, &kb))
        return toggle__error(TOGGLE_EOVERFLOW, "kernel basis overflows size_t");
    int rc = toggle__budget_check(s, held + kb, "the kernel basis");
    if (!rc)
        rc = toggle__vecs_init(&sol->kernel, n, sol->nullity, k);
    if (rc)
        return rc;
    /* Free column f gives e_f - sum R[i][f] e_pivot[i]; only the pivot rows
     * i whose pivot lies left of f can have an entry in column f. */
    for (size_t f = 0, v = 0, i = 0; f < n; f++) {
        if (i < rank_a && pivot[i] == f) {
            i++;
            continue;
        }
        toggle__vecs_set(&sol->kernel, v, f, 1);
        for (size_t r = 0; r < i; r++) {
            uint64_t e = toggle__vecs_get(R, r, f);
            if (e)
                toggle__vecs_set(&sol->kernel, v, pivot[r], k - e);
        }
        v++;
    }
    if (!sol->solvable)
        return TOGGLE_OK;
    if ((rc = toggle__vecs_init(&sol->x, n, 1, k)))
        return rc;
    for (size_t r = 0; r < rank_a; r++)
        toggle__vecs_set(&sol->x, 0, pivot[r], toggle__vecs_get(R, r, n));
    return TOGGLE_OK;
}
