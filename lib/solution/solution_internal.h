/* lib/solution: the layout of toggle_solution, which engines fill and the
 * accessors and solution-space modules read. Never installed. */
#ifndef TOGGLE_SOLUTION_INTERNAL_H
#define TOGGLE_SOLUTION_INTERNAL_H

#include "system/system_internal.h"

struct toggle_solution {
    size_t m, n;
    uint64_t k;
    int engine;
    bool solvable;
    size_t nullity;
    toggle__vecs x;      /* 1 vector of n (when solvable) */
    toggle__vecs kernel; /* nullity vectors of n */
    toggle__vecs cert;   /* 1 vector of m (when unsolvable and a certificate exists) */
    /* radix[i]: the order of kernel generator i (the coefficient ranges over
     * 0 .. radix[i] - 1). NULL means every radix is k (prime moduli); the
     * Howell engine sets it for composite k. */
    uint64_t *radix;
    uint64_t search_limit; /* the system's search limit: default of searches */
    uint64_t budget;       /* the system's memory budget: bounds what reads it */
    unsigned threads;      /* the system's TOGGLE_SYSTEM_OPT_THREADS: default of searches */
    size_t rows, cols;     /* board shape of a grid or stencil system, else 0 */
    toggle__progress_state progress; /* the system's progress callback */
};

/* Allocate an empty solution shell for s (no vectors yet). */
int toggle__solution_new(toggle_solution **out, const toggle_system *s, int engine);
/* Radix of kernel generator i (k unless the engine set radices). */
static inline uint64_t toggle__solution_radix(const toggle_solution *sol, size_t i)
{
    return sol->radix ? sol->radix[i] : sol->k;
}

#endif
