/* A small thread pool: run tasks 0 .. tasks-1 on a few threads, stop handing
 * them out at the first failure. Knows nothing of libtoggle. */
#ifndef TOGGLE_TOOLS_POOL_H
#define TOGGLE_TOOLS_POOL_H

#include <stddef.h>

typedef struct {
    size_t threads; /* at most this many workers, numbered 0 .. threads-1 (>= 1) */
    size_t tasks;
    /* Do one task on worker `worker` (one task at a time per worker, so
     * per-worker state indexed by it needs no lock); nonzero = failed. */
    int (*job)(void *ctx, size_t worker, size_t task);
    void *ctx;
    /* If not NULL: called on the calling thread about every 200 ms while the
     * tasks run, with how many are done. */
    void (*tick)(void *tick_ctx, size_t done, size_t total);
    void *tick_ctx;
} pool_spec;

/* Run the tasks; returns when all workers have stopped. 0 when every task
 * succeeded; otherwise -1 and *failed_worker is the worker whose job failed
 * first (tasks after a failure may not run). Where no thread can be started
 * the calling thread does all the tasks, as worker 0. */
int pool_run(const pool_spec *spec, size_t *failed_worker);

#endif
