/* Composite moduli for the engines that reduce a board to a small square
 * system over Z/kZ (the chase engine's and the transfer engine's composite
 * paths; lib/linalg/zk/zk.c): the prime powers of k, the small system solved
 * per prime power and joined by the CRT into its Howell answers, and the
 * Howell form of answers known on a prefix of the cells. Never installed. */
#ifndef TOGGLE_LINALG_ZK_H
#define TOGGLE_LINALG_ZK_H

#include "core.h"

#define TOGGLE__ZK_MAX_PP 16 /* distinct primes of a k < 2^64: at most 15 */

typedef struct {
    uint64_t p, q; /* q = p^e */
    unsigned e;
} toggle__zk_ppow;

/* k as prime powers, by trial division below 2^16; false when the cofactor
 * left is neither a prime nor a prime's square (the probes decline). */
bool toggle__zk_factor(uint64_t k, toggle__zk_ppow *f, size_t *nf);

/* A small square system L w = -z over Z/kZ (n unknowns), seen through the
 * engine that made it:
 * - resid: r = L w + z mod k (w: n values < k);
 * - field: over F_p, a delta with L delta = -r (r: n values < p), whether
 *   one exists, and a basis of ker L mod p (dn vectors of n values,
 *   allocated with toggle__malloc, NULL when dn = 0);
 * - columns: row j of M (stride words) := column j of L mod q, j < n. */
typedef struct {
    void *ctx;
    size_t n;
    void (*resid)(void *ctx, const uint64_t *w, uint64_t *r);
    int (*field)(void *ctx, uint64_t p, const uint64_t *r, uint64_t *delta, int *solvable,
                 size_t *dn, uint64_t **kern);
    int (*columns)(void *ctx, uint64_t q, uint64_t *M, size_t stride);
} toggle__zk_small;

/* The Howell answers of the small system (z: L 0 + z, n values mod k): per
 * prime power q = p^e over F_p (e = 1), by p-adic lifting (e > 1, L
 * invertible mod p; for p = 2 and e > 2 through L^{-1} mod 2) or by a dense
 * Howell form mod q (L singular mod p), joined by the CRT idempotents and
 * one Howell form of n + 1 columns: solvable, the nullity (Howell rows of
 * ker L), K (those rows), x (the normal form of a solution, when solvable)
 * and radix (room for n entries). */
int toggle__zk_small_solve(const toggle__zk_small *sm, uint64_t k, const uint64_t *z,
                           bool *solvable, size_t *nullity, toggle__vecs *K, toggle__vecs *x,
                           uint64_t *radix);

/* Rows a module of (1 + h + n)-vectors spanned by `rows` rows needs as
 * toggle__howell's workspace: its Howell form has at most rows * Omega(k)
 * rows (the module's length), each appending at most one. */
size_t toggle__zk_howell_cap(uint64_t k, size_t rows, size_t cols);

/* The Howell form of the rows of M (rows x (1 + h + n), cap rows of room,
 * cap from toggle__zk_howell_cap): rows (c | P | U) where P is a vector's
 * restriction to a prefix of h cells and U its coordinates (the engine's
 * unknowns). When the restriction to the prefix is injective on the module
 * (no Howell row is led in U: *injective), its Howell form lifts to the
 * Howell form of the vectors themselves; then x (when a row is led by
 * column 0 with entry 1: *solvable) and the kernel K (the rows led in P)
 * receive their U parts, radix[i] = k / the lead of kernel row i (room for
 * h entries). */
int toggle__zk_prefix_form(uint64_t *M, size_t rows, size_t cap, size_t h, size_t n, uint64_t k,
                           bool *injective, bool *solvable, size_t *nullity, toggle__vecs *K,
                           toggle__vecs *x, uint64_t *radix);

#endif
