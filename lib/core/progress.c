/* Progress callbacks: the rate limit and the cancel status. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "core.h"

uint64_t toggle__clock_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 1;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + 1; /* never 0 */
}

int toggle__progress_slow(const toggle__progress_state *p, uint64_t done, uint64_t total)
{
    /* The state is atomic so that concurrent solves of one system stay
     * race-free; they then share one rate limit. */
    toggle__progress_state *q = (toggle__progress_state *)p;
    uint64_t t = toggle__clock_ns(), last = atomic_load_explicit(&q->last_ns, memory_order_relaxed);
    if (last && t - last < TOGGLE__PROGRESS_INTERVAL_NS)
        return TOGGLE_OK;
    atomic_store_explicit(&q->last_ns, t, memory_order_relaxed);
    double f = total ? (double)(done > total ? total : done) / (double)total : 0.0;
    if (p->fn(p->payload, f) != 0)
        return toggle__error(TOGGLE_ECANCELED, "cancelled by the progress callback at %.0f%%",
                             f * 100.0);
    return TOGGLE_OK;
}

void toggle__progress_begin(const toggle__progress_state *p)
{
    toggle__progress_state *q = (toggle__progress_state *)p;
    if (p->fn)
        atomic_store_explicit(&q->last_ns, 0, memory_order_relaxed);
}

void toggle__progress_copy(toggle__progress_state *to, const toggle__progress_state *from)
{
    to->fn = from->fn;
    to->payload = from->payload;
    atomic_store_explicit(&to->last_ns, 0, memory_order_relaxed);
}
