/* The Howell engine: A x = b over Z/kZ for any k (composite included) through
 * the Howell form, computed here with extended-gcd row operations (no FLINT,
 * so no abort on zero divisors). Theory and layout: docs/solution-spaces.md. */
#include <string.h>

#include <gmp.h>

#include "internal.h"
#include "space_internal.h"

/* a * b mod k for a, b < k < 2^63. */
static inline uint64_t mm(uint64_t a, uint64_t b, uint64_t k)
{
    if ((a | b) < ((uint64_t)1 << 32))
        return (a * b) % k;
    return (uint64_t)(((unsigned __int128)a * b) % k);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* g = gcd(a, b) = s a + t b over the integers (a, b < 2^63). */
static uint64_t xgcd(uint64_t a, uint64_t b, int64_t *s, int64_t *t)
{
    int64_t s0 = 1, s1 = 0, t0 = 0, t1 = 1;
    uint64_t r0 = a, r1 = b;
    while (r1) {
        uint64_t q = r0 / r1, r = r0 - q * r1;
        int64_t ns = s0 - (int64_t)q * s1, nt = t0 - (int64_t)q * t1;
        r0 = r1;
        r1 = r;
        s0 = s1;
        s1 = ns;
        t0 = t1;
        t1 = nt;
    }
    *s = s0;
    *t = t0;
    return r0;
}

static inline uint64_t smod(int64_t v, uint64_t k)
{
    if (v >= 0)
        return (uint64_t)v % k;
    uint64_t r = (uint64_t)(-(v + 1)) % k; /* -(v+1) cannot overflow */
    return k - 1 - r;
}

/* A unit w with w * a = gcd(a, k) (mod k), for a != 0 mod k. */
static uint64_t unit_normaliser(uint64_t a, uint64_t k, uint64_t *g_out)
{
    uint64_t g = gcd_u64(a, k);
    uint64_t kk = k / g, aa = a / g;
    *g_out = g;
    if (kk == 1)
        return 1;
    uint64_t w0 = toggle__invmod(aa % kk, kk);
    /* w0 + t kk for some small t is coprime to k (Storjohann's stab). */
    for (uint64_t t = 0; t < g; t++) {
        uint64_t w = w0 + t * kk; /* < k */
        if (gcd_u64(w, k) == 1)
            return w;
    }
    return 0; /* unreachable: some t works */
}

int toggle__howell(uint64_t *M, size_t rows, size_t cap, size_t cols, uint64_t k,
                   size_t *nrows_out, size_t *lead)
{
    size_t nrows = rows, r = 0;
    for (size_t c = 0; c < cols && r < nrows; c++) {
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
                        Q[j] = toggle__submod(Q[j], mm(q, P[j], k), k);
                continue;
            }
            int64_t s, t;
            uint64_t g = xgcd(a, b, &s, &t);
            uint64_t us = smod(s, k), ut = smod(t, k);
            uint64_t u = a / g, v = k - (b / g) % k; /* -b/g */
            if (v == k)
                v = 0;
            for (size_t j = c; j < cols; j++) {
                uint64_t p = P[j], qv = Q[j];
                P[j] = toggle__addmod(mm(us, p, k), mm(ut, qv, k), k);
                Q[j] = toggle__addmod(mm(v, p, k), mm(u, qv, k), k);
            }
        }
        if (!P[c])
            continue;
        uint64_t g;
        uint64_t w = unit_normaliser(P[c], k, &g);
        if (!w)
            return toggle__error(TOGGLE_EINTERNAL, "no unit normalises %llu mod %llu",
                                 (unsigned long long)P[c], (unsigned long long)k);
        if (w != 1)
            for (size_t j = c; j < cols; j++)
                P[j] = mm(w, P[j], k);
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
                if ((N[j] = mm(ann, P[j], k)))
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
                    Q[j] = toggle__submod(Q[j], mm(q, P[j], k), k);
        }
    }
    *nrows_out = r;
    return TOGGLE_OK;
}

static int howell_supports(const toggle_system *s)
{
    if (s->k < 2 || s->k > TOGGLE_MAX_MODULUS)
        return toggle__error(TOGGLE_EUNSUPPORTED, "modulus %llu is out of range",
                             (unsigned long long)s->k);
    /* Prime moduli belong to the field engines (same answers, faster). */
    if (toggle__is_prime(s->k))
        return toggle__error(TOGGLE_EUNSUPPORTED, "the Howell engine is for composite moduli; "
                             "%llu is prime", (unsigned long long)s->k);
    return TOGGLE_OK;
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
    return TOGGLE_OK;
}

/* Dense columns of A into the rows of M: M[row0 + j][col0 + i] = A[i][j]
 * (transpose = true), or M[row0 + i][col0 + j] = A[i][j]. */
static int fill_a(const toggle_system *s, uint64_t *M, size_t cols, size_t row0, size_t col0,
                  bool transpose)
{
    if (!s->graph) {
        for (size_t i = 0; i < s->m; i++)
            for (size_t j = 0; j < s->n; j++) {
                uint64_t v = toggle__vecs_get(&s->a, i, j) % s->k;
                if (transpose)
                    M[(row0 + j) * cols + col0 + i] = v;
                else
                    M[(row0 + i) * cols + col0 + j] = v;
            }
        return TOGGLE_OK;
    }
    toggle__colbuf cb;
    int rc = toggle__colbuf_init(&cb, s->graph);
    if (rc)
        return rc;
    for (size_t j = 0; j < s->n; j++) {
        size_t cnt = toggle__graph_column(s->graph, j, cb.idx, cb.val);
        for (size_t p = 0; p < cnt; p++) {
            uint64_t v = cb.val[p] % s->k;
            if (transpose)
                M[(row0 + j) * cols + col0 + cb.idx[p]] = v;
            else
                M[(row0 + cb.idx[p]) * cols + col0 + j] = v;
        }
    }
    toggle__colbuf_clear(&cb);
    return TOGGLE_OK;
}

static void extra_free(void *p)
{
    toggle__free(p);
}

/* Decimal product of the radices into sol->count. */
static int store_count(toggle_solution *sol, const uint64_t *radix, size_t d)
{
    mpz_t c;
    mpz_init_set_ui(c, 1);
    for (size_t i = 0; i < d; i++)
        mpz_mul_ui(c, c, radix[i]);
    size_t need = mpz_sizeinbase(c, 10) + 2;
    sol->count = toggle__malloc(need);
    if (!sol->count) {
        mpz_clear(c);
        return toggle__error(TOGGLE_ENOMEM, "out of memory writing the count");
    }
    mpz_get_str(sol->count, 10, c);
    mpz_clear(c);
    return TOGGLE_OK;
}

/* Certificate: Howell form of [A | b | I_m]; the row led by the b column
 * is (0 | y.b | y) with y A = 0 and y.b != 0. */
static int certificate(const toggle_system *s, toggle_solution *sol, uint64_t *M, size_t *lead)
{
    size_t m = s->m, n = s->n, cols = n + 1 + m, cap = m + cols, r;
    memset(M, 0, cap * cols * sizeof *M);
    int rc = fill_a(s, M, cols, 0, 0, false);
    if (rc)
        return rc;
    for (size_t i = 0; i < m; i++) {
        M[i * cols + n] = toggle__rhs(s, i);
        M[i * cols + n + 1 + i] = 1;
    }
    if ((rc = toggle__howell(M, m, cap, cols, s->k, &r, lead)))
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

static int howell_solve(const toggle_system *s, toggle_solution *sol)
{
    size_t m = s->m, n = s->n, wr, wc, words, r = 0;
    uint64_t k = s->k;
    if (!work_words(s, &wr, &wc, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "system too large");
    uint64_t *M = toggle__calloc(words ? words : 1, sizeof *M);
    size_t *lead = toggle__calloc(wr ? wr : 1, sizeof *lead);
    toggle__radices *ex = toggle__calloc(1, sizeof *ex + (n + 1) * sizeof(uint64_t));
    if (!M || !lead || !ex) {
        toggle__free(M);
        toggle__free(lead);
        toggle__free(ex);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the Howell form");
    }
    /* Rows: (-b | 1 | 0) and (column j of A | 0 | e_j). A combination with
     * coefficients (c, x) reads (A x - c b | c | x). */
    size_t cols = m + 1 + n, cap = n + 1 + cols;
    int rc = fill_a(s, M, cols, 1, 0, true);
    if (!rc) {
        for (size_t i = 0; i < m; i++)
            M[i] = toggle__rhs(s, i) ? k - toggle__rhs(s, i) : 0;
        M[m] = 1;
        for (size_t j = 0; j < n; j++)
            M[(1 + j) * cols + m + 1 + j] = 1;
        rc = toggle__howell(M, n + 1, cap, cols, k, &r, lead);
    }
    size_t first = r, d = 0;
    long xrow = -1;
    for (size_t i = 0; !rc && i < r; i++) {
        if (lead[i] < m)
            continue;
        if (first == r)
            first = i;
        if (lead[i] == m) {
            if (M[i * cols + m] == 1)
                xrow = (long)i;
        } else {
            ex->radix[d++] = k / M[i * cols + lead[i]];
        }
    }
    if (!rc) {
        sol->solvable = xrow >= 0;
        sol->nullity = d;
        ex->d = d;
        rc = toggle__vecs_init(&sol->kernel, n, d, k);
    }
    for (size_t i = first, v = 0; !rc && i < r; i++) {
        if (lead[i] <= m)
            continue;
        for (size_t j = 0; j < n; j++)
            toggle__vecs_set(&sol->kernel, v, j, M[i * cols + m + 1 + j]);
        v++;
    }
    if (!rc && sol->solvable) {
        rc = toggle__vecs_init(&sol->x, n, 1, k);
        for (size_t j = 0; !rc && j < n; j++)
            toggle__vecs_set(&sol->x, 0, j, M[(size_t)xrow * cols + m + 1 + j]);
    }
    if (!rc && sol->solvable)
        rc = store_count(sol, ex->radix, d);
    if (!rc && !sol->solvable)
        rc = certificate(s, sol, M, lead);
    toggle__free(M);
    toggle__free(lead);
    if (!rc) {
        ex->magic = TOGGLE__RADICES_MAGIC;
        sol->extra = ex;
        sol->extra_free = extra_free;
    } else {
        toggle__free(ex);
    }
    return rc;
}

const toggle__engine toggle__engine_howell = {
    .id = TOGGLE_ENGINE_HOWELL,
    .name = "howell",
    .supports = howell_supports,
    .estimate = howell_estimate,
    .solve = howell_solve,
};
