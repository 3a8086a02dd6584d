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
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "core.h"

/* A hand-off is a generation count: the caller publishes fn and ctx, then
 * bumps gen; the workers count pending down when done. Both sides first
 * poll the count, for up to POOL_SPIN_NS of wall time, and only then sleep
 * on the condition variables: a futex wake-up costs about 90 us here
 * against 0.6 us for a polled hand-off (docs/gf2.md, "Threads"), and an
 * elimination hands off a job every 0.05 to 1 ms, its serial step (a pivot
 * search) usually being shorter than the poll. After POOL_YIELD_NS a
 * poller yields the core at each poll, so a thread it waits for that shares
 * its core (a machine busy elsewhere) gets it; once asleep, a woken thread
 * goes to a free core. The caller does not poll at all when a worker has
 * not started the job by the time the caller's share is done. */
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

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct toggle__pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned threads;       /* workers + the caller */
    unsigned started;       /* workers running */
    atomic_ulong gen;       /* job generation (release: fn and ctx are set) */
    atomic_uint pending;    /* workers still on the current job */
    atomic_uint running;    /* workers that have started the current job */
    atomic_int quit;
    toggle__pool_fn fn;
    void *ctx;
    pthread_t tid[];
};

typedef struct {
    toggle__pool *p;
    unsigned t;
} worker_arg;

/* Poll until ready(p, arg) is positive, for up to POOL_SPIN_NS and while
 * it is not negative (no point); true if it became positive. */
static int poll_for(toggle__pool *p, unsigned long arg, int (*ready)(toggle__pool *, unsigned long))
{
    long long t0 = 0, dt = 0;
    for (unsigned i = 0;; i++) {
        int r = ready(p, arg);
        if (r)
            return r > 0;
        if (i % 64 == 0) {
            long long t = now_ns();
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

/* every worker done with the current job; negative when a worker has not
 * even started it though the caller has done its share: that worker is not
 * on a core (the machine is busy elsewhere, or it still sleeps), so polling
 * would only keep the core from it */
static int job_done(toggle__pool *p, unsigned long unused)
{
    (void)unused;
    if (!atomic_load_explicit(&p->pending, memory_order_acquire))
        return 1;
    return atomic_load_explicit(&p->running, memory_order_relaxed) < p->started ? -1 : 0;
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
        atomic_fetch_add_explicit(&p->running, 1, memory_order_relaxed);
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
    atomic_init(&p->running, 0);
    atomic_init(&p->quit, 0);
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
    atomic_store_explicit(&p->running, 0, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->go); /* no system call when no worker sleeps */
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0, p->threads);
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
    toggle__free(p);
}
#endif /* __wasi__ */
