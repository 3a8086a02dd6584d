/* The dense engine: [A | b] one word per entry, reduced by plain-C
 * Gauss-Jordan over F_p (dense_elim.c) and read out by the engine layer's
 * shared readout, with the same canonical rules as the FLINT engine. It
 * serves primes in builds without FLINT (meson -Dflint=disabled, the
 * WebAssembly build); with FLINT it is only used when forced. */
#include "linalg/fp/dense.h"
#include "engine/engine.h"

static bool dense_probe(const toggle_system *s, char *why, size_t len)
{
    return toggle__probe_prime(s, "dense", why, len);
}

static int dense_estimate(const toggle_system *s, uint64_t *bytes)
{
    /* the matrix, the pivots, and a little fixed overhead */
    unsigned __int128 e = (unsigned __int128)s->m * (s->n + 1) * sizeof(uint64_t)
                        + (unsigned __int128)(s->m + 1) * sizeof(size_t) + 4096;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    if (e > SIZE_MAX / 2)
        return toggle__error(TOGGLE_ENOMEM, "%zu x %zu system is too large for the dense engine",
                             s->m, s->n);
    return toggle__readout_estimate(s, *bytes, bytes); /* all of it held at the readout */
}

static int dense_solve(const toggle_system *s, toggle_solution *sol)
{
    size_t m = s->m, n = s->n, stride = n + 1;
    if (m == 0) {
        size_t none = 0;
        return toggle__readout_rref(s, sol, NULL, 0, &none, 0);
    }
    size_t *pivot = toggle__calloc(m, sizeof *pivot);
    uint64_t *M = toggle__calloc(m, stride * sizeof *M);
    int rc = TOGGLE_OK;
    if (!pivot || !M) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for a %zu x %zu matrix", m, stride);
        goto out;
    }
    if ((rc = toggle__system_put_words(s, M, stride, 0, 0, false)))
        goto out;
    for (size_t i = 0; i < m; i++)
        M[i * stride + n] = toggle__rhs(s, i);
    size_t rank = toggle__dense_rref(M, m, stride, stride, stride, s->k, pivot);
    toggle__vecs R = {.len = stride, .count = m, .stride = stride, .width = 64, .data = M};
    uint64_t held = (uint64_t)m * stride * sizeof *M + (uint64_t)m * sizeof *pivot;
    rc = toggle__readout_rref(s, sol, &R, rank, pivot, held);
out:
    toggle__free(pivot);
    toggle__free(M);
    return rc;
}

const toggle__engine toggle__engine_dense = {dense_probe, dense_estimate, dense_solve, NULL};
