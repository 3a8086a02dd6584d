/* The Howell form over Z/kZ for any k (composite included), computed with
 * extended-gcd row operations (no FLINT, so no abort on zero divisors), and
 * the readout of the answers of a system from it. Theory and layout:
 * docs/solution-spaces.md. */
#include <string.h>

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
