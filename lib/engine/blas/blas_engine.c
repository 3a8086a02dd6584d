/* The BLAS engine: [A | b] over F_p (p < 2^26) as doubles, reduced by
 * toggle__blas_rref (trailing updates through OpenBLAS's dgemm) and read
 * out by the engine layer's shared readout: the canonical answers of the
 * FLINT engine. docs/blas.md. */
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include <cblas.h>

#include "blas.h"
#include "engine/engine.h"

/* AUTO takes systems whose smaller side is at least this (the measured
 * crossover with the FLINT engine, docs/blas.md); forced, any size. */
#define AUTO_MIN_SIDE 96

static bool blas_probe(const toggle_system *s, char *why, size_t len)
{
    if (!toggle__is_prime(s->k))
        return toggle__probe_no(why, len, "the blas engine needs a prime modulus, %llu is "
                                "composite", (unsigned long long)s->k);
    if (s->k >= TOGGLE__BLAS_MAX_P)
        return toggle__probe_no(why, len, "the blas engine needs a prime below 2^26, got %llu",
                                (unsigned long long)s->k);
    if (s->n >= INT_MAX || s->m >= INT_MAX)
        return toggle__probe_no(why, len, "%zu x %zu system is too large for the blas engine",
                                s->m, s->n);
    if (s->engine == TOGGLE_ENGINE_AUTO && (s->m < AUTO_MIN_SIDE || s->n < AUTO_MIN_SIDE))
        return toggle__probe_no(why, len, "AUTO leaves systems smaller than %d to FLINT",
                                AUTO_MIN_SIDE);
    return true;
}

/* Bytes of OpenBLAS's packing buffers that a product can touch: its
 * per-thread buffer (32 MiB on x86-64) is mapped at start-up, only the
 * pages the packed panels use count; measured in tests/reliability. */
static unsigned __int128 blas_buffers(const toggle_system *s)
{
    unsigned __int128 cols = (unsigned __int128)s->n + 1;
    unsigned __int128 per = (cols < 4096 ? cols : 4096) * 512 * sizeof(double) + (1u << 20);
    return per * toggle__system_threads(s);
}

static int blas_estimate(const toggle_system *s, uint64_t *bytes)
{
    size_t m = s->m, n = s->n;
    if (n == SIZE_MAX)
        return toggle__error(TOGGLE_ENOMEM, "%zu x %zu system is too large for the blas engine",
                             m, n);
    unsigned __int128 e = (unsigned __int128)m * (n + 1) * sizeof(double)
                        + toggle__blas_workspace_bytes(m, n + 1)
                        + (unsigned __int128)m * sizeof(size_t) + blas_buffers(s)
                        + ((unsigned __int128)1 << 20);
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    if (e > SIZE_MAX / 2)
        return toggle__error(TOGGLE_ENOMEM, "%zu x %zu system is too large for the blas engine",
                             m, n);
    return toggle__readout_estimate(s, *bytes, bytes); /* held at the readout */
}

typedef struct {
    double *M;
    size_t ld;
    double p, h;
} put_ctx;

static void put(void *ctx, size_t i, size_t j, uint64_t v)
{
    put_ctx *c = ctx;
    double d = (double)v;
    c->M[i * c->ld + j] = d > c->h ? d - c->p : d;
}

/* OpenBLAS's thread count is process-global (openblas_set_num_threads, no
 * per-call or per-thread setting in 0.3.21): the engine sets the system's
 * TOGGLE_OPT_THREADS for its elimination and restores the caller's value
 * before returning. The lock keeps two solves in one process from
 * interleaving their set and restore (which could leave the wrong count
 * behind); it serialises only the elimination phase of concurrent blas
 * solves. docs/blas.md: what a caller's own concurrent BLAS calls see. */
static pthread_mutex_t blas_threads_lock = PTHREAD_MUTEX_INITIALIZER;

static int eliminate(const toggle_system *s, double *M, size_t *pivot, size_t *rank)
{
    int want = (int)toggle__system_threads(s);
    pthread_mutex_lock(&blas_threads_lock);
    int saved = openblas_get_num_threads();
    if (saved != want)
        openblas_set_num_threads(want);
    int rc = toggle__blas_rref(M, s->m, s->n + 1, s->n + 1, s->k, pivot, rank);
    if (saved != want)
        openblas_set_num_threads(saved);
    pthread_mutex_unlock(&blas_threads_lock);
    return rc;
}

static int blas_solve(const toggle_system *s, toggle_solution *sol)
{
    size_t m = s->m, n = s->n, rank = 0;
    size_t *pivot = toggle__calloc(m ? m : 1, sizeof *pivot);
    double *M = toggle__calloc(m ? m * (n + 1) : 1, sizeof *M);
    if (!pivot || !M) {
        toggle__free(pivot);
        toggle__free(M);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for a %zu x %zu matrix", m, n + 1);
    }
    put_ctx ctx = {M, n + 1, (double)s->k, (double)(s->k / 2)};
    int rc = toggle__system_each_entry(s, put, &ctx);
    for (size_t i = 0; i < m && !rc; i++)
        put(&ctx, i, n, toggle__rhs(s, i));
    if (!rc && m)
        rc = eliminate(s, M, pivot, &rank);
    if (!rc) {
        /* the RREF rows as words, in place (one 8-byte entry each) */
        uint64_t *W = (uint64_t *)(void *)M;
        for (size_t i = 0; i < rank * (n + 1); i++) {
            uint64_t w = (uint64_t)M[i];
            memcpy(&W[i], &w, sizeof w);
        }
        toggle__vecs R = {.len = n + 1, .count = rank, .stride = n + 1, .width = 64, .data = W};
        uint64_t held = (uint64_t)m * (n + 1) * sizeof *M + (uint64_t)m * sizeof *pivot;
        rc = toggle__readout_rref(s, sol, &R, rank, pivot, held);
    }
    toggle__free(M);
    toggle__free(pivot);
    return rc;
}

const toggle__engine toggle__engine_blas = {blas_probe, blas_estimate, blas_solve, NULL};
