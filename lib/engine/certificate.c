/* The certificate policy (engine.h): every engine's proof of
 * unsolvability comes from here, so that all engines give the same one. */
#include <string.h>

#include "engine.h"
#include "linalg/howell/howell.h"
#include "linalg/zk/zk.h"

/* Composite k (A symmetric): the Howell engine's certificate is the row led
 * by the b column of the Howell form of {(y.b | y) : y A = 0}, and y runs
 * over ker A, spanned by the canonical kernel rows K_i (a Howell form). A
 * Howell form's module is determined by the prefix up to its last lead
 * (an element vanishing there is a combination of rows led further right:
 * none), so the Howell form of the rows (b.K_i | K_i[< h] | e_i), h = the
 * last lead + 1, gives that row: its last d entries are the coefficients of
 * y = sum c_i K_i (zk.h, toggle__zk_prefix_form, for why the prefix
 * decides). Cost: O(d^2 h) for the form, O(d n) for b.K and y. */
static int certify_howell(const toggle_system *s, toggle_solution *sol)
{
    uint64_t k = s->k;
    size_t d = sol->kernel.count, h = 0, r = 0, cols, cap, words;
    for (size_t i = 0; i < d; i++) {
        size_t t = 0;
        while (t < s->n && !toggle__vecs_get(&sol->kernel, i, t))
            t++;
        if (t + 1 > h)
            h = t + 1;
    }
    cols = 1 + h + d;
    cap = toggle__zk_howell_cap(k, d, cols);
    if (!toggle__mul_ok(cap, cols, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "certificate too large");
    uint64_t *M = toggle__calloc(words ? words : 1, sizeof *M);
    size_t *lead = toggle__calloc(cap ? cap : 1, sizeof *lead);
    int rc = M && lead ? TOGGLE_OK : toggle__error(TOGGLE_ENOMEM, "out of memory for the "
                                                   "certificate");
    for (size_t i = 0; !rc && i < d; i++) {
        uint64_t beta = 0, *row = M + i * cols;
        for (size_t t = 0; t < s->n; t++) {
            uint64_t v = toggle__vecs_get(&sol->kernel, i, t);
            if (v)
                beta = toggle__addmod(beta, toggle__mulmod(v, toggle__rhs(s, t), k), k);
            if (t < h)
                row[1 + t] = v;
        }
        row[0] = beta;
        row[1 + h + i] = 1;
    }
    if (!rc)
        rc = toggle__howell(M, d, cap, cols, k, &r, lead, NULL);
    if (!rc && (r == 0 || lead[0] != 0))
        rc = toggle__error(TOGGLE_EINTERNAL, "unsolvable system without a certificate");
    if (!rc)
        rc = toggle__vecs_init(&sol->cert, s->m, 1, k);
    for (size_t i = 0; !rc && i < d; i++) {
        uint64_t c = M[1 + h + i];
        for (size_t t = 0; c && t < s->n; t++) {
            uint64_t v = toggle__vecs_get(&sol->kernel, i, t);
            if (v)
                toggle__vecs_set(&sol->cert, 0, t,
                                 toggle__addmod(toggle__vecs_get(&sol->cert, 0, t),
                                                toggle__mulmod(c, v, k), k));
        }
    }
    toggle__free(M);
    toggle__free(lead);
    return rc;
}

/* b.K for kernel vector i, skipping its zero words (a sparse kernel, such
 * as a Moore board's, costs its nonzero words, not n entries). */
static uint64_t kernel_dot_b(const toggle_system *s, const toggle__vecs *kv, size_t i)
{
    const uint64_t *row = toggle__vecs_row(kv, i);
    size_t per = 64 / kv->width;
    uint64_t beta = 0, k = s->k;
    for (size_t w = 0; w < kv->stride; w++) {
        if (!row[w])
            continue;
        size_t t1 = (w + 1) * per < kv->len ? (w + 1) * per : kv->len;
        for (size_t t = w * per; t < t1; t++) {
            uint64_t v = toggle__vecs_get(kv, i, t);
            if (v)
                beta = toggle__addmod(beta, toggle__mulmod(v, toggle__rhs(s, t), k), k);
        }
    }
    return beta;
}

/* y = K / (b.K) for the first kernel vector K with b.K != 0 (A symmetric,
 * k prime): the canonical solution of A^T y = 0, b.y = 1, since its free
 * coordinates are those of A's canonical kernel basis (docs/design.md). */
int toggle__certify_from_kernel(const toggle_system *s, toggle_solution *sol)
{
    uint64_t k = s->k;
    if (!toggle__is_prime(k))
        return certify_howell(s, sol);
    if (sol->kernel.packed) {
        /* F_2: b packed once, then each b.K is a word-wise parity */
        const toggle__vecs *K = &sol->kernel;
        uint64_t *bp = toggle__calloc(K->stride ? K->stride : 1, sizeof *bp);
        if (!bp)
            return toggle__error(TOGGLE_ENOMEM, "out of memory for the certificate");
        for (size_t t = 0; t < s->n; t++)
            bp[t >> 6] |= (toggle__rhs(s, t) & 1) << (t & 63);
        size_t i = 0;
        for (; i < K->count; i++) {
            const uint64_t *row = toggle__vecs_row(K, i);
            unsigned par = 0;
            for (size_t q = 0; q < K->stride; q++)
                par ^= (unsigned)__builtin_popcountll(row[q] & bp[q]) & 1;
            if (par)
                break;
        }
        toggle__free(bp);
        if (i == K->count)
            return toggle__error(TOGGLE_EINTERNAL,
                                 "unsolvable symmetric system without a certificate");
        int rc = toggle__vecs_init(&sol->cert, s->m, 1, k);
        if (!rc)
            memcpy(toggle__vecs_row(&sol->cert, 0), toggle__vecs_row(K, i),
                   sol->cert.stride * sizeof(uint64_t));
        return rc;
    }
    for (size_t i = 0; i < sol->kernel.count; i++) {
        uint64_t beta = kernel_dot_b(s, &sol->kernel, i);
        if (!beta)
            continue;
        int rc = toggle__vecs_init(&sol->cert, s->m, 1, k);
        if (rc)
            return rc;
        uint64_t inv = toggle__invmod(beta, k);
        for (size_t t = 0; t < s->n; t++) {
            uint64_t v = toggle__vecs_get(&sol->kernel, i, t);
            if (v)
                toggle__vecs_set(&sol->cert, 0, t, toggle__mulmod(v, inv, k));
        }
        return TOGGLE_OK;
    }
    return toggle__error(TOGGLE_EINTERNAL, "unsolvable symmetric system without a certificate");
}

/* The canonical solution of the certificate system, by the same engine. */
static int by_transpose(const toggle__engine_entry *e, const toggle_system *s,
                        toggle_solution *sol)
{
    toggle_system *t = NULL;
    toggle_solution *ts = NULL;
    int rc = toggle__system_new_certificate(&t, s, e->id);
    if (!rc)
        rc = toggle__solution_new(&ts, t, e->id);
    if (!rc)
        rc = e->engine->solve(t, ts);
    if (!rc && !ts->solvable)
        rc = toggle__error(TOGGLE_EINTERNAL, "certificate system unexpectedly unsolvable");
    if (!rc) {
        sol->cert = ts->x; /* take ownership */
        memset(&ts->x, 0, sizeof ts->x);
    }
    toggle_solution_free(ts);
    toggle_system_free(t);
    return rc;
}

toggle__cert_route toggle__certify_route(const toggle__engine_entry *e, const toggle_system *s)
{
    if (e->engine->certify)
        return TOGGLE__CERT_ENGINE;
    return toggle__system_is_symmetric(s) ? TOGGLE__CERT_KERNEL : TOGGLE__CERT_TRANSPOSE;
}

int toggle__certify(const toggle__engine_entry *e, toggle__cert_route route,
                    const toggle_system *s, toggle_solution *sol)
{
    if (sol->solvable)
        return TOGGLE_OK;
    switch (route) {
    case TOGGLE__CERT_ENGINE: return e->engine->certify(s, sol);
    case TOGGLE__CERT_KERNEL: return toggle__certify_from_kernel(s, sol);
    default: return by_transpose(e, s, sol);
    }
}

int toggle__certify_estimate(const toggle__engine_entry *e, toggle__cert_route route,
                             const toggle_system *s, size_t nullity, uint64_t *bytes)
{
    *bytes = 0;
    if (route == TOGGLE__CERT_ENGINE)
        return TOGGLE_OK; /* inside the engine's own estimate */
    size_t rows, sys;
    if (!toggle__add_ok(s->n, 1, &rows) || !toggle__vecs_bytes(s->m, rows, s->k, &sys))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu system is too large for a certificate",
                             s->m, s->n);
    if (route == TOGGLE__CERT_KERNEL) {
        size_t one;
        if (!toggle__vecs_bytes(s->m, 1, s->k, &one))
            return toggle__error(TOGGLE_EOVERFLOW, "certificate overflows size_t");
        *bytes = s->k == 2 ? 2 * (uint64_t)one : one; /* F_2: and b packed */
        return TOGGLE_OK;
    }
    /* The certificate system (dense rows) and the engine's estimate for a
     * system of its shape. */
    toggle_system shape;
    toggle__system_init_shape(&shape, rows, s->m, s);
    /* [A^T ; b^T] has rank rank A + 1 >= n - nullity + 1, so its nullity
     * is at most m - 1 - (n - nullity) */
    size_t r = s->n - (nullity < s->n ? nullity : s->n) + 1;
    shape.nullity_hint = 1 + (s->m > r ? s->m - r : 0);
    uint64_t inner = 0;
    int rc = e->engine->estimate(&shape, &inner);
    if (rc)
        return rc;
    unsigned __int128 total = (unsigned __int128)sys + inner;
    *bytes = total > UINT64_MAX ? UINT64_MAX : (uint64_t)total;
    return TOGGLE_OK;
}
