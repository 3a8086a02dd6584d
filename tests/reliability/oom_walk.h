/* The out-of-memory walk shared by the reliability suites: run an operation
 * with the library's K-th allocation failing (once, then sticky from K on),
 * for K = 1, 2, ... until it completes without reaching K. */
#ifndef TOGGLE_OOM_WALK_H
#define TOGGLE_OOM_WALK_H

#include <stdbool.h>
#include <stdint.h>

typedef struct oom_op {
    const char *name;
    /* Run the operation once; return its status. Must leave the caller data
     * in ctx as it was when it fails. */
    int (*run)(void *ctx);
    /* After a failure: 1 if the caller's data is unchanged. */
    int (*unchanged)(void *ctx);
    /* After success: check the result (NULL message = fine) and free it. */
    const char *(*accept)(void *ctx);
    /* Statuses a failure may return besides TOGGLE_ENOMEM (0 for none). */
    int also;
} oom_op;

typedef struct oom_result {
    uint64_t sites;    /* allocations the successful run made (K walked) */
    uint64_t failures; /* injected failures, both modes */
} oom_result;

/* Walk both modes; fails the current Check test on any violation. */
oom_result oom_walk(const oom_op *op, void *ctx);

#endif
