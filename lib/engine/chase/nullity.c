/* toggle_grid_nullity: grid nullities by polynomials (classic and no-self
 * grids, their tori and cylinders, over primes), else by the engines
 * (composite k: the number of Howell rows of ker A, toggle_solution_nullity's
 * meaning, from the chase's or the transfer engine's composite path where
 * AUTO takes them, else the Howell engine). */
#include <string.h>

#include "engine/engine.h"
#include "engine/flint/poly.h"
#include "engine/transfer/kron.h"
#include "engine/transfer/ring.h"

/* counted peaks: 97 to 124 bytes per degree with the shift, 20 without */
#define POLY_BYTES_PER_DEGREE_SHIFTED 144
#define POLY_BYTES_PER_DEGREE 28
#define POLY_FIXED_BYTES 4096
#define CYLINDER_BYTES_PER_COLUMN 288

/* The polynomials' bytes: P_rows and the shifted P_cols with their
 * Taylor-shift powers, the gcd and FLINT's half-gcd scratch, all linear in
 * the degrees (calibrated against the counted peak, tests/reliability/
 * test_peak.c). */
static uint64_t poly_bytes(size_t r, size_t c, bool shifted)
{
    uint64_t per = shifted ? POLY_BYTES_PER_DEGREE_SHIFTED : POLY_BYTES_PER_DEGREE;
    return ((uint64_t)r + c) * per + POLY_FIXED_BYTES;
}

/* The elimination path: the board's system (its right-hand side) and the
 * solve's own estimate by the engine AUTO picks, on a shape of that system
 * (nothing the board's size is allocated before the check). */
static int elimination_bytes(const toggle_graph *g, uint64_t p, uint64_t *bytes)
{
    toggle_system shape;
    memset(&shape, 0, sizeof shape);
    shape.m = shape.n = g->n;
    shape.k = p;
    shape.graph = (toggle_graph *)g;
    shape.engine = TOGGLE_ENGINE_AUTO;
    shape.budget = TOGGLE_DEFAULT_MEMORY_BUDGET;
    shape.threads = 1;
    size_t b;
    if (!toggle__vecs_bytes(g->n, 1, p, &b))
        return toggle__error(TOGGLE_EOVERFLOW, "board of %zu cells overflows size_t", g->n);
    int why = TOGGLE_EUNSUPPORTED;
    const toggle__engine_entry *e = toggle__engine_choose(&shape, &why);
    if (!e)
        return why;
    uint64_t solve = 0;
    int rc = toggle__engine_estimate(e, &shape, &solve);
    unsigned __int128 t = (unsigned __int128)solve + b + 1024;
    *bytes = t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
    return rc;
}

/* Moore with self, any one wrap: separable (kron.c); invalid flag sets go
 * to the graph constructor's checks */
static bool moore_self(uint32_t flags)
{
    uint32_t both = TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER;
    return (flags & TOGGLE_GRID_MOORE) && (flags & both) != both &&
           !(flags & (TOGGLE_GRID_NO_SELF | TOGGLE_GRID_HEX | TOGGLE_GRID_TRI));
}

int toggle__grid_nullity_estimate(size_t rows, size_t cols, uint64_t p, uint32_t flags,
                                  uint64_t *bytes)
{
    if (!(flags & ~(uint32_t)TOGGLE_GRID_NO_SELF) && toggle__is_prime(p)) {
        /* (the classic board's P_cols(x + 1) is Taylor-shifted) */
        *bytes = poly_bytes(rows, cols, !(flags & TOGGLE_GRID_NO_SELF));
        return TOGGLE_OK;
    }
    if ((flags & ~(uint32_t)TOGGLE_GRID_NO_SELF) == TOGGLE_GRID_TORUS && p == 2) {
        /* over F_2 on packed polynomials (ring.c) */
        *bytes = toggle__transfer_ring_nullity_bytes(rows, cols) + 1024;
        return TOGGLE_OK;
    }
    if (moore_self(flags) && toggle__is_prime(p)) {
        /* A = T_R (x) T_C: each factor's chase coefficients (1 vector, 2
         * across a wrap) and 2 kernel vectors of words (kron.c) */
        uint64_t wr = (flags & TOGGLE_GRID_TORUS) ? 4 : 3;
        uint64_t wc = (flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER)) ? 4 : 3;
        *bytes = 8 * (wr * (uint64_t)rows + wc * (uint64_t)cols) + 256;
        return TOGGLE_OK;
    }
#ifdef TOGGLE_HAVE_FLINT
    if ((flags & ~(uint32_t)TOGGLE_GRID_NO_SELF) == TOGGLE_GRID_TORUS && toggle__is_prime(p)) {
        /* the torus by polynomials: a 2 x 2 matrix over F_p[y] / (y^C - 1)
         * and gcds with (y^C - 1)^2, linear in the sides */
        *bytes = poly_bytes(rows, 4 * (uint64_t)cols, true);
        return TOGGLE_OK;
    }
    if ((flags & ~(uint32_t)TOGGLE_GRID_NO_SELF) == TOGGLE_GRID_CYLINDER && toggle__is_prime(p)) {
        /* the cylinder by polynomials: one Chebyshev pair over
         * F_p[y] / (y^C - 1), powered in O(log R) steps, and one gcd with
         * y^C - 1: a few ring elements of degree < 2C, linear in C alone
         * (counted peaks 264 to 272 bytes per column, 112 for F_2 without
         * self; nothing grows with R) */
        *bytes = (uint64_t)cols * CYLINDER_BYTES_PER_COLUMN + 2 * POLY_FIXED_BYTES;
        return TOGGLE_OK;
    }
#endif
    toggle_graph *g = NULL;
    int rc = toggle_graph_new_grid(&g, rows, cols, flags);
    if (!rc)
        rc = elimination_bytes(g, p, bytes);
    toggle_graph_free(g);
    return rc;
}

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
    /* one estimate, checked against the default budget before any work */
    uint64_t est = 0;
    if ((rc = toggle__grid_nullity_estimate(rows, cols, p, flags, &est)))
        return rc;
    if ((rc = toggle__budget_check_bytes(TOGGLE_DEFAULT_MEMORY_BUDGET, est,
                                         "the nullity of the board")))
        return rc;
    unsigned d = (flags & TOGGLE_GRID_NO_SELF) ? 0 : 1;
    if (!toggle__is_prime(p)) /* composite k: the engines' Howell rows */
        return nullity_by_elimination(rows, cols, p, flags, nullity);
    uint32_t wrap = flags & ~(uint32_t)TOGGLE_GRID_NO_SELF;
    if (wrap == TOGGLE_GRID_TORUS || wrap == TOGGLE_GRID_CYLINDER) {
        rc = wrap == TOGGLE_GRID_TORUS ? toggle__transfer_ring_nullity(p, rows, cols, d, nullity)
                                       : toggle__grid_cylinder_nullity(p, rows, cols, d, nullity);
        if (rc != TOGGLE_EUNSUPPORTED) /* without FLINT: eliminate */
            return rc;
    }
    if (moore_self(flags)) /* rank T_R rank T_C */
        return toggle__transfer_kron_nullity(p, rows, cols, flags, nullity);
    if (flags & ~(uint32_t)TOGGLE_GRID_NO_SELF)
        return nullity_by_elimination(rows, cols, p, flags, nullity);
    /* Nullity is invariant under transposition: keep the smaller side as the
     * row length so that the characteristic polynomial is the short one. */
    size_t r = rows >= cols ? rows : cols, c = rows >= cols ? cols : rows;
    return toggle__grid_poly_nullity(p, r, c, d, nullity);
}
