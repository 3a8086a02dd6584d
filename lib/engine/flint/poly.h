/* Internal interface between the grid engine (chase.c, no FLINT) and its
 * polynomial half (lib/engine/flint/poly.c with FLINT's nmod_poly, or
 * lib/engine/noflint/poly.c without FLINT). Never installed. */
#ifndef TOGGLE_FLINT_POLY_H
#define TOGGLE_FLINT_POLY_H

#include "core.h"

/* Largest dimension whose polynomials either implementation builds (8
 * bytes per coefficient, a few polynomials alive at once). */
#define TOGGLE__GRID_POLY_MAX ((size_t)1 << 28)

static inline int toggle__grid_poly_dims(size_t rows, size_t cols)
{
    if (rows > TOGGLE__GRID_POLY_MAX || cols > TOGGLE__GRID_POLY_MAX)
        return toggle__error(TOGGLE_ENOMEM, "grid %zu x %zu: polynomials of degree over %zu "
                             "are not supported", rows, cols, TOGGLE__GRID_POLY_MAX);
    return TOGGLE_OK;
}

/* Bytes toggle__grid_small_solve allocates for a rows x c board (besides
 * the kernel it returns), for the chase engine's estimate. */
size_t toggle__grid_small_bytes(size_t rows, size_t c);

/* What each implementation defines; callers use the two entry points
 * below, which check the dimensions first (and clear *kernel). */
int toggle__grid_small_solve_in(uint64_t p, size_t rows, size_t c, unsigned d,
                                const uint64_t *rhs, uint64_t *w, int *solvable,
                                size_t *nullity, uint64_t **kernel);
int toggle__grid_poly_nullity_in(uint64_t p, size_t rows, size_t cols, unsigned d,
                                 size_t *nullity);

/* The small system of a rows x c board chased from its last row:
 * P_rows(T) w = rhs over F_p, where T is the c x c tridiagonal row operator
 * (1 off the diagonal, d on it: d = 1 classic, 0 without self).
 * Vectors are c values < p.
 * Outputs: *solvable; *nullity = deg gcd(P_rows, charpoly T); when solvable,
 * w = the solution whose last *nullity entries are 0 (the canonical one);
 * *kernel (toggle__malloc'd, *nullity vectors of c values, caller frees;
 * NULL when the nullity is 0): vector i has entry c - nullity + i equal to
 * 1 and the other last-nullity entries 0. rhs may equal w. */
static inline int toggle__grid_small_solve(uint64_t p, size_t rows, size_t c, unsigned d,
                                           const uint64_t *rhs, uint64_t *w, int *solvable,
                                           size_t *nullity, uint64_t **kernel)
{
    int rc = toggle__grid_poly_dims(rows, c);
    if (rc)
        return rc;
    *kernel = NULL;
    return toggle__grid_small_solve_in(p, rows, c, d, rhs, w, solvable, nullity, kernel);
}

/* Nullity of the non-torus rows x cols board (d as above) by polynomials. */
static inline int toggle__grid_poly_nullity(uint64_t p, size_t rows, size_t cols, unsigned d,
                                            size_t *nullity)
{
    int rc = toggle__grid_poly_dims(rows, cols);
    return rc ? rc : toggle__grid_poly_nullity_in(p, rows, cols, d, nullity);
}

/* Nullity of the rows x cols square-lattice torus (d as above: self or
 * not) by polynomials (docs/transfer.md, "Torus nullity"): A is a polynomial
 * in two commuting cyclic shifts, the chase reduces it to a 2 x 2 matrix M
 * over S = F_p[y] / (y^C - 1), and the nullity is
 * deg G1 + deg gcd(G2 / G1, y^C - 1) with G1 = gcd(entries of M, y^C - 1),
 * G2 = gcd(det M, (y^C - 1)^2). O(M(C) log R). Without FLINT: returns
 * TOGGLE_EUNSUPPORTED and records no message (the caller eliminates). */
int toggle__grid_torus_nullity(uint64_t p, size_t rows, size_t cols, unsigned d, size_t *nullity);

/* Nullity of the rows x cols square-lattice cylinder (columns wrap, rows
 * do not; d as above) by polynomials: deg gcd(P_rows(X) mod h, h) with
 * h = y^cols - 1 and X = -(d + y + y^-1) (docs/transfer.md). O(M(C) log R).
 * Without FLINT: TOGGLE_EUNSUPPORTED, no message. */
int toggle__grid_cylinder_nullity(uint64_t p, size_t rows, size_t cols, unsigned d,
                                  size_t *nullity);

#endif
