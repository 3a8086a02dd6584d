/* Internals of lib/space: a flat copy of a solution set, the rng and the
 * fewest-press search shared by the search handle and the generator. */
#ifndef TOGGLE_SPACE_INTERNAL_H
#define TOGGLE_SPACE_INTERNAL_H

#include "solution/solution_internal.h"

/* A solution set copied out of a solution: x0 and generators as toggle__vecs
 * (packed for k = 2), radices, and each generator's support. */
typedef struct toggle__space {
    size_t n, d;
    uint64_t k;
    toggle__vecs x0, gen;
    uint64_t *radix;
    size_t *supp_start; /* d + 1 offsets into supp_idx / supp_val */
    size_t *supp_idx;
    uint64_t *supp_val;
    toggle__progress_state progress; /* the solution's (and so the system's) callback */
} toggle__space;

int toggle__space_init(toggle__space *sp, const toggle_solution *sol);
/* The same for any solution, solvable or not, with x0 = 0 (the kernel). */
int toggle__space_init_kernel(toggle__space *sp, const toggle_solution *sol);
void toggle__space_clear(toggle__space *sp);
/* Write x0 + sum c_i g_i (c_i < radix_i) into x (n values). */
void toggle__space_combine(const toggle__space *sp, const uint64_t *c, uint64_t *x);

/* xoshiro256** state and helpers shared with the generator. */
struct toggle_rng {
    uint64_t s[4];
};
void toggle__rng_seed(toggle_rng *r, uint64_t seed);
uint64_t toggle__rng_next(toggle_rng *r);
uint64_t toggle__rng_below(toggle_rng *r, uint64_t bound);

/* Fewest-press search on a space (used by the search handle and the
 * generator). limit: solutions it may visit (>= 1). */
typedef struct toggle__fewest {
    uint64_t weight, visited;
    int proven;
    uint64_t *x; /* n values, allocated by the caller */
} toggle__fewest;
int toggle__fewest_run(const toggle__space *sp, int metric, uint64_t limit, toggle__fewest *res);

#endif
