/* toggle_grid_nullity: grid nullities by polynomials (classic and no-self
 * grids, and their tori), else by the engines. */
#include "engine/engine.h"
#include "engine/flint/poly.h"

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
    int rc = toggle__check_modulus(p);
    if (rc)
        return rc;
    if (flags & ~(uint32_t)(TOGGLE_GRID_NO_SELF | TOGGLE_GRID_TORUS | TOGGLE_GRID_MOORE |
                            TOGGLE_GRID_CYLINDER | TOGGLE_GRID_HEX | TOGGLE_GRID_TRI))
        return toggle__error(TOGGLE_EINVAL, "unknown grid flags 0x%x", (unsigned)flags);
    if (!toggle__is_prime(p))
        return toggle__error(TOGGLE_EUNSUPPORTED, "nullity needs a prime modulus, %llu is "
                             "composite", (unsigned long long)p);
    unsigned d = (flags & TOGGLE_GRID_NO_SELF) ? 0 : 1;
    if ((flags & ~(uint32_t)TOGGLE_GRID_NO_SELF) == TOGGLE_GRID_TORUS) {
        rc = toggle__grid_torus_nullity(p, rows, cols, d, nullity);
        if (rc != TOGGLE_EUNSUPPORTED) /* without FLINT: eliminate */
            return rc;
    }
    if (flags & ~(uint32_t)TOGGLE_GRID_NO_SELF)
        return nullity_by_elimination(rows, cols, p, flags, nullity);
    /* Nullity is invariant under transposition: keep the smaller side as the
     * row length so that the characteristic polynomial is the short one. */
    size_t r = rows >= cols ? rows : cols, c = rows >= cols ? cols : rows;
    return toggle__grid_poly_nullity(p, r, c, d, nullity);
}
