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
/* The bytes toggle__space_init_kernel allocates for sol (x0, the generators,
 * radices and supports; counts the generators' nonzeros), checked against
 * the solution's budget before anything is allocated. */
int toggle__space_estimate(const toggle_solution *sol, uint64_t *bytes);
/* Write x0 + sum c_i g_i (c_i < radix_i) into x (n values). */
void toggle__space_combine(const toggle__space *sp, const uint64_t *c, uint64_t *x);

/* xoshiro256** state and helpers shared with the generator. */
struct toggle_rng {
    uint64_t s[4];
};
void toggle__rng_seed(toggle_rng *r, uint64_t seed);
/* One splitmix64 step (advances *s). */
uint64_t toggle__splitmix(uint64_t *s);
uint64_t toggle__rng_next(toggle_rng *r);
uint64_t toggle__rng_below(toggle_rng *r, uint64_t bound);

/* Fewest-press search on a space (used by the search handle and the
 * generator). Method and proof of exactness: docs/solution-spaces.md. */
typedef struct toggle__fewest {
    uint64_t weight, visited;
    int proven; /* 1: no allowed solution weighs less than weight (or none exists) */
    int found;  /* 1: x is an allowed solution; 0: none was found */
    uint64_t bound; /* every allowed solution weighs at least this */
    uint64_t *x; /* n values, allocated by the caller */
} toggle__fewest;

/* TOGGLE__COST_FORBIDDEN in cost[j]: cell j may not be pressed. */
#define TOGGLE__COST_FORBIDDEN UINT64_MAX

/* The resumable state of the F_2 split search (fewest_gf2.c): which of its
 * chunks are finished and the best record so far. sig names the search's
 * structure (cells, basis, split, symmetries, costs): 0 = empty. */
typedef struct toggle__fewest_ckpt {
    uint64_t sig;
    uint64_t nchunks;  /* chunks to do (one per symmetry orbit) */
    uint8_t *done;     /* nchunks flags, allocated by the search */
    uint64_t chunk_sol; /* solutions per chunk */
    int have;          /* 1: the record below holds a solution */
    uint64_t bw, bt, bu, blo, bhi; /* weight (kept cells), chunk, walk step, low and high coefficients */
} toggle__fewest_ckpt;

void toggle__fewest_ckpt_clear(toggle__fewest_ckpt *ck);

/* What a running search has reached, readable from its progress callback
 * (any thread): UINT64_MAX until known. */
typedef struct toggle__fewest_live {
    _Atomic uint64_t best, bound;
} toggle__fewest_live;

typedef struct toggle__fewest_opts {
    int metric;
    uint64_t limit;       /* solutions it may visit (>= 1) */
    unsigned threads;     /* workers (>= 1) */
    const uint64_t *cost; /* n per-cell costs, or NULL (every cost 1) */
    size_t rows, cols;    /* board shape whose symmetries may be used, or 0 */
    int plain;            /* 1: the Gray walk only (tests) */
    int nosym;            /* 1: no symmetry reduction (tests) */
    size_t lsplit;        /* low coefficients per transform, 0 = automatic (tests) */
    toggle__fewest_ckpt *ck;  /* F_2 split: state to resume from and to leave (or NULL) */
    toggle__fewest_live *live; /* best and bound while running (or NULL) */
} toggle__fewest_opts;

int toggle__fewest_run_opts(const toggle__space *sp, const toggle__fewest_opts *o,
                            toggle__fewest *res);
/* The same with unit costs, one thread, no symmetry. */
int toggle__fewest_run(const toggle__space *sp, int metric, uint64_t limit, toggle__fewest *res);

/* k = 2 (fewest_gf2.c): TOGGLE_OK with res filled, TOGGLE_EUNSUPPORTED when
 * the split search does not apply (then the caller walks), or an error. */
int toggle__fewest_gf2(const toggle__space *sp, const toggle__fewest_opts *o,
                       toggle__fewest *res);

#endif
