/* libtoggle: grid-specific tools (nullities without elimination; the packed
 * readout of big answers is declared in solution.h). */
#ifndef TOGGLE_GRID_H
#define TOGGLE_GRID_H

#include "common.h"
#include "solution.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file grid.h
 *  @brief Grid boards: nullity by polynomials, packed readout of big answers.
 *
 *  Grid systems (toggle_graph_new_grid() without TOGGLE_GRID_TORUS or
 *  TOGGLE_GRID_MOORE) over a prime modulus are solved by light chasing
 *  (TOGGLE_ENGINE_CHASE), which AUTO picks; its answers are the canonical
 *  ones of solution.h, the same as full elimination's. See docs/grid.md.
 *  The packed readout of a big answer, toggle_solution_particular_packed(),
 *  is declared in solution.h (included here). */

/** Nullity of the game on a rows x cols grid over F_p, without building the
 *  board: deg gcd(P_rows(x), P_cols(x + 1)) for the classic board and
 *  deg gcd(P_rows(x), P_cols(x)) without self (TOGGLE_GRID_NO_SELF), where
 *  P_0 = 1, P_1 = x, P_{j+1} = x P_j - P_{j-1}, each P_n built from its
 *  closed form. Cost O(M(n) log n) for n = max(rows, cols). The torus
 *  (TOGGLE_GRID_TORUS) and the cylinder (TOGGLE_GRID_CYLINDER), with or
 *  without self, are also answered by polynomials, over F_p[y] / (y^cols - 1)
 *  (docs/transfer.md), in O(M(cols) log rows). Moore boards with self
 *  (every wrap; 1.1.0) by rank A = rank T_rows rank T_cols, A being the
 *  Kronecker product of two tridiagonal (or circulant) factors, in
 *  O(rows + cols). Other boards (Moore without self, hex, tri) have no
 *  such formula here: their nullity comes from the AUTO engine
 *  (default memory budget), the transfer chase where it applies
 *  (docs/transfer.md), else full elimination.
 *  @param rows, cols  board shape, >= 1 (at most 2^28 each for the polynomial route)
 *  @param modulus     a prime p, 2 <= p <= TOGGLE_MAX_MODULUS; or a
 *                     composite k (1.1.0): then the nullity has
 *                     toggle_solution_nullity()'s meaning, the number of
 *                     Howell rows of the kernel, computed by the AUTO
 *                     engine's solve (the chase or transfer engine's
 *                     composite path where it applies, else Howell)
 *  @param flags       grid flags as for toggle_graph_new_grid()
 *  @param nullity     receives the nullity (dimension of the kernel of A)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL nullity, zero size, modulus < 2,
 *          unknown flag), TOGGLE_ERANGE (modulus too large),
 *          TOGGLE_EOVERFLOW,
 *          TOGGLE_ENOMEM (the one estimate of the polynomials or of the
 *          elimination over TOGGLE_DEFAULT_MEMORY_BUDGET, checked before
 *          any work, or out of memory). */
TOGGLE_API int toggle_grid_nullity(size_t rows, size_t cols, uint64_t modulus, uint32_t flags,
                                   size_t *nullity);

#ifdef __cplusplus
}
#endif
#endif
