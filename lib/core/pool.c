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
int toggle__pool_take(toggle__pool *p, unsigned slot, size_t bytes, void **block)
{
    (void)p;
    (void)slot;
    (void)bytes;
    *block = NULL;
    return 0;
}
void toggle__pool_give(toggle__pool *p, unsigned slot)
{
    (void)p;
    (void)slot;
}
#else
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "core.h"

/* A hand-off is a generation count: the caller publishes fn and ctx, then
 * bumps gen; each share t >= 1 of the job is then claimed once, by its
 * worker or by the caller (claim[t] goes from the job before to this one),
 * and whoever ran it counts pending down when it is done. Both sides
 * first poll, for up to POOL_SPIN_NS of wall time, and only then sleep on
 * the condition variables: a futex wake-up costs two orders of magnitude
 * more than a polled hand-off (docs/gf2.md, "Threads"), and an elimination
 * hands off jobs far more often than a wake-up takes, its serial step (a
 * pivot search) usually being shorter than the poll. After POOL_YIELD_NS a poller yields
 * the core at each poll, so a thread it waits for that shares its core (a
 * machine busy elsewhere) gets it; once asleep, a woken thread goes to a
 * free core. When its own share is done the caller claims and runs every
 * share whose worker has not started it (asleep, or not on a core), so a
 * job never waits for a wake-up: the
 * shares must not depend on the thread that runs them beyond t. */
#define POOL_SPIN_NS 200000
#define POOL_YIELD_NS 20000

static inline void cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#elif defined(__GNUC__) && defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}


struct toggle__pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned threads;       /* workers + the caller */
    unsigned started;       /* workers running */
    atomic_ulong gen;       /* job generation (release: fn and ctx are set) */
    atomic_uint pending;    /* shares t >= 1 of the current job not yet done */
    atomic_ulong *claim;    /* claim[t]: the last job (gen) whose share t was taken */
    atomic_int quit;
    toggle__pool_fn fn;
    void *ctx;
    struct pool_scratch {
        void *block;
        size_t bytes;
        int taken;
    } *scratch; /* threads slots */
    pthread_t tid[];
};

typedef struct {
    toggle__pool *p;
    unsigned t;
} worker_arg;

/* Poll until ready(p, arg), for up to POOL_SPIN_NS; true if it became so. */
static int poll_for(toggle__pool *p, unsigned long arg, int (*ready)(toggle__pool *, unsigned long))
{
    long long t0 = 0, dt = 0;
    for (unsigned i = 0;; i++) {
        if (ready(p, arg))
            return 1;
        if (i % 64 == 0) {
            long long t = (long long)toggle__clock_ns();
            if (!t0)
                t0 = t;
            dt = t - t0;
            if (dt > POOL_SPIN_NS)
                return 0;
        }
        if (dt > POOL_YIELD_NS)
            sched_yield();
        else
            cpu_relax();
    }
}

/* a new job (gen no longer seen) or the end */
static int job_ready(toggle__pool *p, unsigned long seen)
{
    return atomic_load_explicit(&p->gen, memory_order_acquire) != seen ||
           atomic_load_explicit(&p->quit, memory_order_acquire);
}

/* every share of the current job done */
static int job_done(toggle__pool *p, unsigned long unused)
{
    (void)unused;
    return !atomic_load_explicit(&p->pending, memory_order_acquire);
}

/* Take share t of job g unless someone has: claim[t] is g - 1 until then. */
static int claim_share(toggle__pool *p, unsigned t, unsigned long g)
{
    unsigned long before = g - 1;
    return atomic_compare_exchange_strong_explicit(&p->claim[t], &before, g,
                                                   memory_order_acq_rel, memory_order_relaxed);
}

static void *worker(void *arg)
{
    toggle__pool *p = ((worker_arg *)arg)->p;
    unsigned t = ((worker_arg *)arg)->t;
    toggle__free(arg);
    unsigned long seen = 0;
    for (;;) {
        if (!poll_for(p, seen, job_ready)) {
            pthread_mutex_lock(&p->mu);
            while (!atomic_load(&p->quit) && atomic_load(&p->gen) == seen)
                pthread_cond_wait(&p->go, &p->mu);
            pthread_mutex_unlock(&p->mu);
        }
        if (atomic_load_explicit(&p->quit, memory_order_acquire))
            break;
        seen = atomic_load_explicit(&p->gen, memory_order_acquire);
        /* too late (the caller took the share, or that job is over and
         * another began since gen was read): wait for the next one */
        if (!claim_share(p, t, seen))
            continue;
        p->fn(p->ctx, t, p->threads);
        if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
            /* the last one: wake the caller if it sleeps */
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
    return NULL;
}

toggle__pool *toggle__pool_new(unsigned threads)
{
    if (threads < 2)
        return NULL;
    toggle__pool *p = toggle__calloc(1, sizeof *p + (threads - 1) * sizeof(pthread_t));
    if (!p)
        return NULL;
    atomic_init(&p->gen, 0);
    atomic_init(&p->pending, 0);
    atomic_init(&p->quit, 0);
    if (!(p->scratch = toggle__calloc(threads, sizeof *p->scratch)) ||
        !(p->claim = toggle__calloc(threads, sizeof *p->claim))) {
        toggle__free(p->scratch);
        toggle__free(p);
        return NULL;
    }
    for (unsigned t = 0; t < threads; t++)
        atomic_init(&p->claim[t], 0);
    if (pthread_mutex_init(&p->mu, NULL)) {
        toggle__free(p->claim);
        toggle__free(p->scratch);
        toggle__free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->go, NULL)) {
        pthread_mutex_destroy(&p->mu);
        toggle__free(p->claim);
        toggle__free(p->scratch);
        toggle__free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->done, NULL)) {
        pthread_cond_destroy(&p->go);
        pthread_mutex_destroy(&p->mu);
        toggle__free(p->claim);
        toggle__free(p->scratch);
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
    if (p->started == 0) {
        toggle__pool_free(p);
        return NULL;
    }
    p->threads = p->started + 1; /* read by workers only in a job, after gen */
    return p;
}

unsigned toggle__pool_threads(const toggle__pool *p) { return p ? p->threads : 1; }

void toggle__pool_run(toggle__pool *p, toggle__pool_fn fn, void *ctx)
{
    if (!p) {
        fn(ctx, 0, 1);
        return;
    }
    p->fn = fn;
    p->ctx = ctx;
    atomic_store_explicit(&p->pending, p->started, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    unsigned long g = atomic_fetch_add_explicit(&p->gen, 1, memory_order_release) + 1;
    pthread_cond_broadcast(&p->go); /* no system call when no worker sleeps */
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0, p->threads);
    for (unsigned t = 1; t < p->threads; t++)
        if (claim_share(p, t, g)) {
            fn(ctx, t, p->threads);
            atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel);
        }
    if (poll_for(p, 0, job_done))
        return;
    pthread_mutex_lock(&p->mu);
    while (atomic_load_explicit(&p->pending, memory_order_acquire))
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void toggle__pool_free(toggle__pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    atomic_store_explicit(&p->quit, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (unsigned t = 0; t < p->started; t++)
        pthread_join(p->tid[t], NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->go);
    pthread_mutex_destroy(&p->mu);
    for (unsigned t = 0; t < p->started + 1; t++)
        toggle__free(p->scratch[t].block);
    toggle__free(p->claim);
    toggle__free(p->scratch);
    toggle__free(p);
}

int toggle__pool_take(toggle__pool *p, unsigned slot, size_t bytes, void **block)
{
    *block = NULL;
    if (!p || slot >= p->threads || p->scratch[slot].taken)
        return 0;
    struct pool_scratch *s = &p->scratch[slot];
    if (s->bytes < bytes || !s->block) {
        toggle__free(s->block);
        s->bytes = 0;
        if (!(s->block = toggle__malloc_lines(bytes ? bytes : 1, 1)))
            return -1;
        s->bytes = bytes;
    }
    s->taken = 1;
    *block = s->block;
    return 0;
}

void toggle__pool_give(toggle__pool *p, unsigned slot)
{
    if (p && slot < p->threads)
        p->scratch[slot].taken = 0;
}
#endif /* __wasi__ */
