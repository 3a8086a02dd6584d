/* The BLAS engine: [A | b] over F_p (p < 2^26) as doubles, reduced by
 * toggle__blas_rref (trailing updates through BLIS's dgemm) and read
 * out by the engine layer's shared readout: the canonical answers of the
 * FLINT engine. docs/blas.md. */
#include "linalg/fp/blas.h" /* first: its pragma (blas.h) */

#include <limits.h>
#include <string.h>

#include "toggle/guard.h"
#include "engine/engine.h"

/* AUTO takes systems whose smaller side is at least this (the measured
 * crossover with the FLINT engine, docs/blas.md); forced, any size. */
#define AUTO_MIN_SIDE 96

static bool blas_probe(const toggle_system *s, char *why, size_t len)
{
    if (!toggle__probe_prime(s, "blas", why, len))
        return false;
    /* The guard promises no abort under memory pressure; BLIS aborts when
     * its own allocations fail (at its first call in a process, and when a
     * pool grows), which nothing can intercept: with the guard installed
     * FLINT serves these systems (docs/blas.md, docs/reliability.md). */
    if (toggle_flint_guard_installed())
        return toggle__probe_no(why, len, "the blas engine is not used while the FLINT guard is "
                                "installed (BLIS aborts when its own allocations fail)");
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

static unsigned __int128 blas_buffers(const toggle_system *s)
{
    return toggle__blas_pool_bytes(s->n, toggle__system_threads(s));
}

static int blas_estimate(const toggle_system *s, uint64_t *bytes)
{
    size_t m = s->m, n = s->n;
    if (n == SIZE_MAX)
        return toggle__error(TOGGLE_ENOMEM, "%zu x %zu system is too large for the blas engine",
                             m, n);
    unsigned __int128 e = (unsigned __int128)m * (n + 1) * sizeof(double)
                        + toggle__blas_workspace_bytes(m, n + 1, toggle__system_threads(s))
                        + (unsigned __int128)m * sizeof(size_t) + blas_buffers(s)
                        + ((unsigned __int128)1 << 20);
    /* (a need past memory is refused by the budget check, which names it) */
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return toggle__readout_estimate(s, *bytes, bytes); /* held at the readout */
}

typedef struct {
    double *M;
    size_t ld;
    double p, h;
} put_ctx;

static inline double centre(const put_ctx *c, uint64_t v)
{
    double d = (double)v;
    return d > c->h ? d - c->p : d;
}

static void put(void *ctx, size_t i, size_t j, uint64_t v)
{
    put_ctx *c = ctx;
    c->M[i * c->ld + j] = centre(c, v);
}

/* The dense rows of A into M, one loop per entry width (restrict and p,
 * h in locals: the stores to M change neither the row nor them, so the
 * loop vectorises; a uint8_t row would otherwise alias everything). */
#define FILL_ROW(T)                                                                        \
    static inline void fill_row_##T(double *restrict out, const T *restrict r, size_t n,  \
                                    double p, double h)                                    \
    {                                                                                      \
        for (size_t j = 0; j < n; j++) {                                                   \
            double d = (double)r[j];                                                       \
            double t = d - p; /* unconditional: no trap to keep, so a select */       \
            out[j] = d > h ? t : d;                                                        \
        }                                                                                  \
    }
FILL_ROW(uint8_t)
FILL_ROW(uint16_t)
FILL_ROW(uint32_t)
FILL_ROW(uint64_t)
#undef FILL_ROW
#define FILL_ROWS(T)                                                                       \
    for (size_t i = 0; i < m; i++)                                                         \
        fill_row_##T(c->M + i * c->ld, (const T *)(const void *)toggle__vecs_row(a, i), n,  \
                     c->p, c->h);
TOGGLE__HOT static void fill_dense(const put_ctx *c, const toggle__vecs *a, size_t m,
                                        size_t n)
{
    switch (a->width) {
    case 8: FILL_ROWS(uint8_t) break;
    case 16: FILL_ROWS(uint16_t) break;
    case 32: FILL_ROWS(uint32_t) break;
    case 64: FILL_ROWS(uint64_t) break;
    default:
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                c->M[i * c->ld + j] = centre(c, toggle__vecs_get(a, i, j));
    }
}
#undef FILL_ROWS

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
    int rc = TOGGLE_OK;
    if (!s->graph) /* dense rows: read them in place (the walk calls put per entry) */
        fill_dense(&ctx, &s->a, m, n);
    else
        rc = toggle__system_each_entry(s, put, &ctx);
    for (size_t i = 0; i < m && !rc; i++)
        put(&ctx, i, n, toggle__rhs(s, i));
    if (!rc && m)
        rc = toggle__blas_rref(M, m, n + 1, n + 1, s->k, toggle__system_threads(s), pivot,
                               &rank);
    if (!rc) {
        /* the entries the readout reads as words, in place (one 8-byte
         * entry each): the non-pivot columns j of the rows whose pivot is
         * left of j (the RREF's zeros and pivots are never read) */
        uint64_t *W = (uint64_t *)(void *)M;
        for (size_t j = 0, k = 0; j <= n; j++) {
            if (k < rank && pivot[k] == j) {
                k++;
                continue;
            }
            for (size_t i = 0; i < k; i++) {
                uint64_t w = (uint64_t)M[i * (n + 1) + j];
                memcpy(&W[i * (n + 1) + j], &w, sizeof w);
            }
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
