/* The Howell engine: A x = b over Z/kZ for any k (composite included) through
 * the Howell form, computed here with extended-gcd row operations (no FLINT,
 * so no abort on zero divisors). Theory and layout: docs/solution-spaces.md. */
#include <string.h>

#include "engine/engine.h"
#include "howell.h"

int toggle__howell(uint64_t *M, size_t rows, size_t cap, size_t cols, uint64_t k,
                   size_t *nrows_out, size_t *lead, const toggle__progress_state *pr)
{
    size_t nrows = rows, r = 0;
    for (size_t c = 0; c < cols && r < nrows; c++) {
        int rc = pr ? toggle__progress(pr, c, cols) : TOGGLE_OK;
        if (rc)
            return rc;
        uint64_t *P = M + r * cols;
        for (size_t i = r + 1; i < nrows; i++) {
            uint64_t *Q = M + i * cols;
            uint64_t b = Q[c];
            if (!b)
                continue;
            uint64_t a = P[c];
            if (!a) {
                for (size_t j = c; j < cols; j++) {
                    uint64_t t = P[j];
                    P[j] = Q[j];
                    Q[j] = t;
                }
                continue;
            }
            if (b % a == 0) { /* Q -= (b / a) P */
                uint64_t q = b / a;
                for (size_t j = c; j < cols; j++)
                    if (P[j])
                        Q[j] = toggle__submod(Q[j], toggle__mulmod(q, P[j], k), k);
                continue;
            }
            int64_t s, t;
            uint64_t g = toggle__xgcd(a, b, &s, &t);
            uint64_t us = toggle__smod(s, k), ut = toggle__smod(t, k);
            uint64_t u = a / g, v = k - (b / g) % k; /* -b/g */
            if (v == k)
                v = 0;
            for (size_t j = c; j < cols; j++) {
                uint64_t p = P[j], qv = Q[j];
                P[j] = toggle__addmod(toggle__mulmod(us, p, k), toggle__mulmod(ut, qv, k), k);
                Q[j] = toggle__addmod(toggle__mulmod(v, p, k), toggle__mulmod(u, qv, k), k);
            }
        }
        if (!P[c])
            continue;
        uint64_t g;
        uint64_t w = toggle__unit_normaliser(P[c], k, &g);
        if (!w)
            return toggle__error(TOGGLE_EINTERNAL, "no unit normalises %llu mod %llu",
                                 (unsigned long long)P[c], (unsigned long long)k);
        if (w != 1)
            for (size_t j = c; j < cols; j++)
                P[j] = toggle__mulmod(w, P[j], k);
        lead[r] = c;
        if (g != 1) {
            /* (k / g) P vanishes at c; it must lie in the span of the rows
             * below, so append it to them. */
            uint64_t ann = k / g;
            if (nrows >= cap)
                return toggle__error(TOGGLE_EINTERNAL, "Howell workspace exhausted");
            uint64_t *N = M + nrows * cols;
            memset(N, 0, cols * sizeof *N);
            bool any = false;
            for (size_t j = c + 1; j < cols; j++)
                if ((N[j] = toggle__mulmod(ann, P[j], k)))
                    any = true;
            if (any)
                nrows++;
        }
        r++;
    }
    /* Reduce the entries above each leading entry into [0, lead). */
    for (size_t i = 0; i < r; i++) {
        size_t c = lead[i];
        const uint64_t *P = M + i * cols;
        uint64_t g = P[c];
        for (size_t h = 0; h < i; h++) {
            uint64_t *Q = M + h * cols;
            uint64_t q = Q[c] / g;
            if (!q)
                continue;
            for (size_t j = c; j < cols; j++)
                if (P[j])
                    Q[j] = toggle__submod(Q[j], toggle__mulmod(q, P[j], k), k);
        }
    }
    *nrows_out = r;
    return TOGGLE_OK;
}

int toggle__howell_readout(const uint64_t *M, size_t r, const size_t *lead, size_t m, size_t n,
                           uint64_t k, bool *solvable, size_t *nullity, toggle__vecs *kernel,
                           toggle__vecs *x, uint64_t *radix)
{
    size_t cols = m + 1 + n, first = r, d = 0;
    long xrow = -1;
    int rc = TOGGLE_OK;
    for (size_t i = 0; i < r; i++) {
        if (lead[i] < m)
            continue;
        if (first == r)
            first = i;
        if (lead[i] == m) {
            if (M[i * cols + m] == 1)
                xrow = (long)i;
        } else {
            radix[d++] = k / M[i * cols + lead[i]];
        }
    }
    *solvable = xrow >= 0;
    *nullity = d;
    rc = toggle__vecs_init(kernel, n, d, k);
    for (size_t i = first, v = 0; !rc && i < r; i++) {
        if (lead[i] <= m)
            continue;
        for (size_t j = 0; j < n; j++)
            toggle__vecs_set(kernel, v, j, M[i * cols + m + 1 + j]);
        v++;
    }
    if (!rc && *solvable) {
        rc = toggle__vecs_init(x, n, 1, k);
        for (size_t j = 0; !rc && j < n; j++)
            toggle__vecs_set(x, 0, j, M[(size_t)xrow * cols + m + 1 + j]);
    }
    return rc;
}

static bool howell_probe(const toggle_system *s, char *why, size_t len)
{
    /* Prime moduli belong to the field engines (same answers, faster). */
    if (toggle__is_prime(s->k))
        return toggle__probe_no(why, len, "the Howell engine is for composite moduli; %llu is "
                                "prime", (unsigned long long)s->k);
    return true;
}

/* Workspace of the larger of the two Howell matrices, in words. */
static bool work_words(const toggle_system *s, size_t *rows, size_t *cols, size_t *words)
{
    size_t c, r, w;
    if (!toggle__add_ok(s->m, s->n, &c) || !toggle__add_ok(c, 1, &c))
        return false;
    /* solve matrix: n + 1 rows; certificate matrix: m rows; each may gain
     * one annihilator row per column */
    r = (s->n + 1 > s->m ? s->n + 1 : s->m);
    if (!toggle__add_ok(r, c, &r) || !toggle__mul_ok(r, c, &w))
        return false;
    *rows = r;
    *cols = c;
    *words = w;
    return true;
}

static int howell_estimate(const toggle_system *s, uint64_t *bytes)
{
    size_t r, c, w;
    if (!work_words(s, &r, &c, &w) || w > SIZE_MAX / 8)
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu system is too large for Howell form",
                             s->m, s->n);
    *bytes = (uint64_t)w * 8 + (uint64_t)r * sizeof(size_t) + (uint64_t)(s->n + 1) * 16;
    /* the kernel basis and x are filled while the Howell form is held */
    return toggle__readout_estimate(s, *bytes, bytes);
}

/* Certificate: Howell form of [A | b | I_m]; the row led by the b column
 * is (0 | y.b | y) with y A = 0 and y.b != 0. */
static int certify_in(const toggle_system *s, toggle_solution *sol, uint64_t *M, size_t *lead,
                      size_t cols, size_t cap)
{
    size_t m = s->m, n = s->n, r;
    int rc = toggle__system_put_words(s, M, cols, 0, 0, false);
    if (rc)
        return rc;
    for (size_t i = 0; i < m; i++) {
        M[i * cols + n] = toggle__rhs(s, i);
        M[i * cols + n + 1 + i] = 1;
    }
    if ((rc = toggle__howell(M, m, cap, cols, s->k, &r, lead, &s->progress)))
        return rc;
    for (size_t i = 0; i < r; i++) {
        if (lead[i] < n)
            continue;
        if (lead[i] > n)
            break;
        if ((rc = toggle__vecs_init(&sol->cert, m, 1, s->k)))
            return rc;
        for (size_t j = 0; j < m; j++)
            toggle__vecs_set(&sol->cert, 0, j, M[i * cols + n + 1 + j]);
        return TOGGLE_OK;
    }
    return toggle__error(TOGGLE_EINTERNAL, "unsolvable system without a certificate");
}

static int howell_certify(const toggle_system *s, toggle_solution *sol)
{
    size_t cols = s->n + 1 + s->m, cap = s->m + cols, words;
    if (!toggle__mul_ok(cap, cols, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "system too large");
    uint64_t *M = toggle__calloc(words ? words : 1, sizeof *M);
    size_t *lead = toggle__calloc(cap, sizeof *lead);
    int rc = M && lead ? TOGGLE_OK
                       : toggle__error(TOGGLE_ENOMEM, "out of memory for the Howell form");
    if (!rc)
        rc = certify_in(s, sol, M, lead, cols, cap);
    toggle__free(M);
    toggle__free(lead);
    return rc;
}

static int howell_solve(const toggle_system *s, toggle_solution *sol)
{
    size_t m = s->m, n = s->n, wr, wc, words, r = 0;
    uint64_t k = s->k;
    if (!work_words(s, &wr, &wc, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "system too large");
    uint64_t *M = toggle__calloc(words ? words : 1, sizeof *M);
    size_t *lead = toggle__calloc(wr ? wr : 1, sizeof *lead);
    uint64_t *radix = toggle__malloc_array(n + 1, sizeof *radix);
    if (!M || !lead || !radix) {
        toggle__free(M);
        toggle__free(lead);
        toggle__free(radix);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the Howell form");
    }
    /* Rows: (-b | 1 | 0) and (column j of A | 0 | e_j). A combination with
     * coefficients (c, x) reads (A x - c b | c | x). */
    size_t cols = m + 1 + n, cap = n + 1 + cols;
    int rc = toggle__system_put_words(s, M, cols, 1, 0, true);
    if (!rc) {
        for (size_t i = 0; i < m; i++)
            M[i] = toggle__rhs(s, i) ? k - toggle__rhs(s, i) : 0;
        M[m] = 1;
        for (size_t j = 0; j < n; j++)
            M[(1 + j) * cols + m + 1 + j] = 1;
        rc = toggle__howell(M, n + 1, cap, cols, k, &r, lead, &s->progress);
    }
    if (!rc)
        rc = toggle__howell_readout(M, r, lead, m, n, k, &sol->solvable, &sol->nullity,
                                    &sol->kernel, &sol->x, radix);
    toggle__free(M);
    toggle__free(lead);
    if (rc)
        toggle__free(radix);
    else
        sol->radix = radix;
    return rc;
}

const toggle__engine toggle__engine_howell = {howell_probe, howell_estimate, howell_solve,
                                              howell_certify};
