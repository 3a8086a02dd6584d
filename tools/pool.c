/* A small thread pool (pool.h). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "pool.h"

typedef struct {
    const pool_spec *spec;
    atomic_size_t next, done;
    atomic_int failed;
    size_t failed_worker; /* written once, by the worker that set failed */
} pool;

typedef struct {
    pool *pool;
    size_t worker;
    pthread_t tid;
} pool_thread;

static void work(pool *p, size_t worker)
{
    const pool_spec *s = p->spec;
    for (;;) {
        size_t t = atomic_fetch_add(&p->next, 1);
        if (t >= s->tasks || atomic_load(&p->failed))
            break;
        if (s->job(s->ctx, worker, t)) {
            int expected = 0;
            if (atomic_compare_exchange_strong(&p->failed, &expected, 1))
                p->failed_worker = worker;
            break;
        }
        atomic_fetch_add(&p->done, 1);
    }
}

static void *thread_main(void *arg)
{
    pool_thread *t = arg;
    work(t->pool, t->worker);
    return NULL;
}

int pool_run(const pool_spec *spec, size_t *failed_worker)
{
    pool p = {.spec = spec, .failed_worker = 0};
    atomic_init(&p.next, 0);
    atomic_init(&p.done, 0);
    atomic_init(&p.failed, 0);
    size_t n = spec->threads ? spec->threads : 1, started = 0;
    pool_thread *threads = malloc(n * sizeof *threads);
    for (; threads && started < n; started++) {
        threads[started].pool = &p;
        threads[started].worker = started;
        if (pthread_create(&threads[started].tid, NULL, thread_main, &threads[started]))
            break;
    }
    if (started == 0)
        work(&p, 0);
    while (spec->tick && atomic_load(&p.done) < spec->tasks && !atomic_load(&p.failed)) {
        spec->tick(spec->tick_ctx, atomic_load(&p.done), spec->tasks);
        struct timespec ts = {0, 200000000};
        nanosleep(&ts, NULL);
    }
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i].tid, NULL);
    free(threads);
    if (!atomic_load(&p.failed))
        return 0;
    *failed_worker = p.failed_worker;
    return -1;
}
