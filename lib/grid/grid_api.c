/* Public grid helpers: polynomial nullities and packed readout of F_2 answers. */
#include <string.h>

#include "grid_internal.h"

static int nullity_by_elimination(size_t rows, size_t cols, uint64_t p, uint32_t flags,
                                  size_t *nullity)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    int rc = toggle_graph_new_grid(&g, rows, cols, flags);
    if (!rc)
        rc = toggle_system_new(&s, g, p, NULL, NULL);
    if (!rc)
        rc = toggle_solve(&sol, s);
    if (!rc)
        *nullity = toggle_solution_nullity(sol);
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return rc;
}

int toggle_grid_nullity(size_t rows, size_t cols, uint64_t p, uint32_t flags, size_t *nullity)
{
    size_t n;
    if (!nullity)
        return toggle__error(TOGGLE_EINVAL, "nullity must not be NULL");
    if (rows == 0 || cols == 0)
        return toggle__error(TOGGLE_EINVAL, "grid shape %zu x %zu has no cells", rows, cols);
    if (!toggle__mul_ok(rows, cols, &n))
        return toggle__error(TOGGLE_EOVERFLOW, "grid shape %zu x %zu overflows size_t", rows, cols);
    if (p < 2)
        return toggle__error(TOGGLE_EINVAL, "modulus %llu is less than 2", (unsigned long long)p);
    if (p > TOGGLE_MAX_MODULUS)
        return toggle__error(TOGGLE_ERANGE, "modulus %llu exceeds 2^63 - 1", (unsigned long long)p);
    if (flags & ~(uint32_t)(TOGGLE_GRID_NO_SELF | TOGGLE_GRID_TORUS | TOGGLE_GRID_MOORE))
        return toggle__error(TOGGLE_EINVAL, "unknown grid flags 0x%x", (unsigned)flags);
    if (!toggle__is_prime(p))
        return toggle__error(TOGGLE_EUNSUPPORTED, "nullity needs a prime modulus, %llu is "
                             "composite", (unsigned long long)p);
    if (flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_MOORE))
        return nullity_by_elimination(rows, cols, p, flags, nullity);
    /* Nullity is invariant under transposition: keep the smaller side as the
     * row length so that the characteristic polynomial is the short one. */
    size_t r = rows >= cols ? rows : cols, c = rows >= cols ? cols : rows;
    return toggle__grid_poly_nullity(p, r, c, (flags & TOGGLE_GRID_NO_SELF) ? 0 : 1, nullity);
}

int toggle_solution_particular_packed(const toggle_solution *sol, size_t offset, size_t len,
                                      uint64_t *words, size_t nwords)
{
    size_t end, need = len / 64 + (len % 64 != 0);
    if (!sol || (!words && nwords))
        return toggle__error(TOGGLE_EINVAL, "solution and words must not be NULL");
    if (sol->k != 2)
        return toggle__error(TOGGLE_EUNSUPPORTED, "packed readout needs modulus 2, not %llu",
                             (unsigned long long)sol->k);
    if (!sol->solvable)
        return toggle__error(TOGGLE_ENOSOLUTION, "the system has no solution");
    if (!toggle__add_ok(offset, len, &end) || end > sol->n)
        return toggle__error(TOGGLE_ERANGE, "range [%zu, +%zu) is outside a solution of %zu",
                             offset, len, sol->n);
    if (nwords < need)
        return toggle__error(TOGGLE_EBUFSIZE, "%zu entries need %zu words, buffer has %zu",
                             len, need, nwords);
    const uint64_t *src = toggle__vecs_row(&sol->x, 0);
    size_t q = offset >> 6;
    unsigned sh = offset & 63;
    for (size_t i = 0; i < need; i++) {
        uint64_t wv = src[q + i] >> sh;
        if (sh && (q + i + 1) * 64 < sol->n)
            wv |= src[q + i + 1] << (64 - sh);
        words[i] = wv;
    }
    if (len % 64)
        words[need - 1] &= ((uint64_t)1 << (len % 64)) - 1;
    return TOGGLE_OK;
}
