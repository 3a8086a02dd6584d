/* The ring route of the transfer engine (ring.c): the square torus, whose
 * rows are elements of F_p[y]/(y^C - 1). Internal. */
#ifndef TOGGLE_TRANSFER_RING_H
#define TOGGLE_TRANSFER_RING_H

#include "engine/engine.h"

/* Does the ring route serve s (a square-lattice torus, with or without
 * self, of at least 3 rows, over a prime)? Silent. */
bool toggle__transfer_ring_applies(const toggle_system *s);

/* The transfer engine's probe for a board the ring route serves (no frame
 * to build). Silent. */
bool toggle__transfer_ring_probe(const toggle_system *s, char *why, size_t len);

/* Fill sol (a shell) for s as the transfer engine does (canonical answers;
 * the certificate is the policy's), by the ring route. s must be one that
 * toggle__transfer_ring_applies accepts. */
int toggle__transfer_ring_solve(const toggle_system *s, toggle_solution *sol);

/* Sizes the transfer estimates share for a board s with a small system of
 * m unknowns and nullity d: x, the kernel, the small system (dense) and
 * its right-hand side, its answers, and the estimate of the engine AUTO
 * picks for an m x m shape of nullity at most d. */
typedef struct {
    size_t vec, kern, sys, sysb, smallsol;
    uint64_t inner;
} toggle__transfer_size;
int toggle__transfer_sizes(const toggle_system *s, size_t m, size_t d, toggle__transfer_size *z);

/* Peak bytes of toggle__transfer_ring_solve for s (an upper bound). */
int toggle__transfer_ring_estimate(const toggle_system *s, uint64_t *bytes);

/* The nullity of the rows x cols square torus (self weight d) over the
 * prime p: over F_2 on packed polynomials (ring.c, no FLINT needed), else
 * toggle__grid_torus_nullity (FLINT; TOGGLE_EUNSUPPORTED without it). */
int toggle__transfer_ring_nullity(uint64_t p, size_t rows, size_t cols, unsigned d,
                                  size_t *nullity);
/* The bytes toggle__transfer_ring_nullity allocates over F_2. */
uint64_t toggle__transfer_ring_nullity_bytes(size_t rows, size_t cols);

/* sol's solvable and nullity dn, and its zero kernel (dn vectors) and x
 * (when solvable), after the budget check of the kernel basis. */
int toggle__transfer_answers_init(const toggle_system *s, toggle_solution *sol, bool solvable,
                                  size_t dn);

/* The transfer engine's solve without the ring route (the lanes path; for
 * the tests that compare the two routes). */
int toggle__transfer_lanes_solve(const toggle_system *s, toggle_solution *sol);
/* The same without the hex recurrence (every row by its program; for the
 * tests that compare the two). */
int toggle__transfer_lanes_solve_plain(const toggle_system *s, toggle_solution *sol);
/* The lanes path with (local true) or without the odd-p canonical form
 * from local vectors (canonicalise_local; without it canonicalise serves),
 * *ran telling whether that form gave the answer and *spanned whether its
 * spanning vectors came from one chase (span_chase), for the tests that
 * compare them (either may be NULL). */
int toggle__transfer_lanes_solve_canon(const toggle_system *s, toggle_solution *sol, bool local,
                                       bool *ran, bool *spanned);

#endif
