/* The separable route of the transfer engine (kron.c): Moore boards with
 * self, A = T_R (x) T_C. Internal. */
#ifndef TOGGLE_TRANSFER_KRON_H
#define TOGGLE_TRANSFER_KRON_H

#include "engine/engine.h"

/* Does the separable route serve s (a Moore grid with self, any wrap, over
 * a prime)? Silent. */
bool toggle__transfer_kron_applies(const toggle_system *s);

/* Peak bytes of toggle__transfer_kron_solve for s (an upper bound). */
int toggle__transfer_kron_estimate(const toggle_system *s, uint64_t *bytes);

/* Fill sol (a shell) for s with the canonical answers of full elimination
 * (the certificate is the policy's), s one the route applies to. */
int toggle__transfer_kron_solve(const toggle_system *s, toggle_solution *sol);

/* The nullity of the rows x cols Moore board with self over the prime p
 * (flags: TOGGLE_GRID_TORUS or TOGGLE_GRID_CYLINDER or 0), O(rows + cols). */
int toggle__transfer_kron_nullity(uint64_t p, size_t rows, size_t cols, uint32_t flags,
                                  size_t *nullity);

#endif
