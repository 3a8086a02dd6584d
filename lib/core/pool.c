/* A fork-join pool of worker threads, owned by one caller (a solve): no
 * global state, never shared between systems (docs/gf2.md, threads). */
#ifdef __wasi__
/* WebAssembly (tools/web) has no threads: every pool is the caller alone. */
#include "core.h"

toggle__pool *toggle__pool_new(unsigned threads)
{
    (void)threads;
    return NULL;
}
unsigned toggle__pool_threads(const toggle__pool *p)
{
    (void)p;
    return 1;
}
void toggle__pool_run(toggle__pool *p, toggle__pool_fn fn, void *ctx)
{
    (void)p;
    fn(ctx, 0, 1);
}
void toggle__pool_free(toggle__pool *p)
{
    (void)p;
}
#else
#include <pthread.h>

#include "core.h"

struct toggle__pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned threads;       /* workers + the caller */
    unsigned started;       /* workers running */
    unsigned long gen;      /* job generation */
    unsigned pending;       /* workers still on the current job */
    int quit;
    toggle__pool_fn fn;
    void *ctx;
    pthread_t tid[];
};

typedef struct {
    toggle__pool *p;
    unsigned t;
} worker_arg;

static void *worker(void *arg)
{
    toggle__pool *p = ((worker_arg *)arg)->p;
    unsigned t = ((worker_arg *)arg)->t;
    toggle__free(arg);
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->gen == seen)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit)
            break;
        seen = p->gen;
        toggle__pool_fn fn = p->fn;
        void *ctx = p->ctx;
        unsigned nt = p->threads;
        pthread_mutex_unlock(&p->mu);
        fn(ctx, t, nt);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

toggle__pool *toggle__pool_new(unsigned threads)
{
    if (threads < 2)
        return NULL;
    toggle__pool *p = toggle__calloc(1, sizeof *p + (threads - 1) * sizeof(pthread_t));
    if (!p)
        return NULL;
    if (pthread_mutex_init(&p->mu, NULL)) {
        toggle__free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->go, NULL)) {
        pthread_mutex_destroy(&p->mu);
        toggle__free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->done, NULL)) {
        pthread_cond_destroy(&p->go);
        pthread_mutex_destroy(&p->mu);
        toggle__free(p);
        return NULL;
    }
    /* as many workers as the system gives us: fewer threads is not an error */
    for (unsigned t = 1; t < threads; t++) {
        worker_arg *a = toggle__malloc(sizeof *a);
        if (!a)
            break;
        a->p = p;
        a->t = t;
        if (pthread_create(&p->tid[t - 1], NULL, worker, a)) {
            toggle__free(a);
            break;
        }
        p->started++;
    }
    p->threads = p->started + 1;
    if (p->started == 0) {
        toggle__pool_free(p);
        return NULL;
    }
    return p;
}

unsigned toggle__pool_threads(const toggle__pool *p) { return p ? p->threads : 1; }

void toggle__pool_run(toggle__pool *p, toggle__pool_fn fn, void *ctx)
{
    if (!p) {
        fn(ctx, 0, 1);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->pending = p->started;
    p->gen++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0, p->threads);
    pthread_mutex_lock(&p->mu);
    while (p->pending)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void toggle__pool_free(toggle__pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (unsigned t = 0; t < p->started; t++)
        pthread_join(p->tid[t], NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->go);
    pthread_mutex_destroy(&p->mu);
    toggle__free(p);
}
#endif /* __wasi__ */
