/* Solution spaces: iteration, counting, sampling, fewest presses, composite
 * moduli and the generator, each checked against brute force over every
 * press vector or against OEIS A075464. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* A075464(n), n = 1..54 (OEIS, fewest presses for the n x n all-off to
 * all-on board over F_2). */
static const unsigned a075464[] = {
    1,   4,   5,   4,   15,  28,  33,  40,  25,  44,  55,  72,  105, 56,
    117, 104, 147, 188, 141, 224, 245, 276, 231, 270, 353, 356, 405, 416,
    345, 376, 553, 428, 469, 520, 563, 600, 761, 772, 561, 696};

static uint64_t ipow(uint64_t k, size_t e)
{
    uint64_t r = 1;
    while (e--)
        r *= k;
    return r;
}

/* Decode index t into a press vector of n digits base k. */
static void decode(uint64_t t, size_t n, uint64_t k, uint64_t *x)
{
    for (size_t j = 0; j < n; j++) {
        x[j] = t % k;
        t /= k;
    }
}

static uint64_t weight_of(const uint64_t *x, size_t n, int metric)
{
    uint64_t w = 0;
    for (size_t j = 0; j < n; j++)
        w += metric == TOGGLE_METRIC_CELLS ? (x[j] != 0) : x[j];
    return w;
}

/* Brute force: number of solutions and the fewest weights (UINT64_MAX if none). */
typedef struct {
    uint64_t count, best[2];
} brute;

static brute brute_force(const uint64_t *a, const uint64_t *b, size_t m, size_t n, uint64_t k)
{
    brute r = {0, {UINT64_MAX, UINT64_MAX}};
    uint64_t total = ipow(k, n), *x = calloc(n + 1, 8), *y = calloc(m + 1, 8);
    for (uint64_t t = 0; t < total; t++) {
        decode(t, n, k, x);
        tu_apply(a, m, n, x, k, y);
        if (memcmp(y, b, m * 8))
            continue;
        r.count++;
        for (int mt = 0; mt < 2; mt++) {
            uint64_t w = weight_of(x, n, mt);
            if (w < r.best[mt])
                r.best[mt] = w;
        }
    }
    free(x);
    free(y);
    return r;
}

static int cmp_vec_n;
static int cmp_vec(const void *p, const void *q)
{
    return memcmp(p, q, (size_t)cmp_vec_n * 8);
}

/* Iterate every solution, verify each, check distinctness; returns the count. */
static uint64_t iterate_all(const toggle_solution *sol, const uint64_t *a, const uint64_t *b,
                            size_t m, size_t n, uint64_t k, uint64_t cap)
{
    toggle_iter *it = NULL;
    ck_assert_int_eq(toggle_iter_new(&it, sol), TOGGLE_OK);
    uint64_t *all = malloc((cap + 1) * (n + 1) * 8), *y = calloc(m + 1, 8), cnt = 0;
    int rc;
    while ((rc = toggle_iter_next(it, all + cnt * n, n)) == TOGGLE_OK) {
        ck_assert_msg(cnt < cap, "iterator produced more than %llu", (unsigned long long)cap);
        tu_apply(a, m, n, all + cnt * n, k, y);
        ck_assert_msg(!memcmp(y, b, m * 8), "iterated vector is not a solution (k=%llu)",
                      (unsigned long long)k);
        cnt++;
        ck_assert_uint_eq(toggle_iter_produced(it), cnt);
    }
    ck_assert_int_eq(rc, TOGGLE_ITEROVER);
    ck_assert_int_eq(toggle_iter_next(it, all, n), TOGGLE_ITEROVER);
    cmp_vec_n = (int)n;
    qsort(all, cnt, n * 8, cmp_vec);
    for (uint64_t i = 1; n && i < cnt; i++)
        ck_assert_msg(memcmp(all + (i - 1) * n, all + i * n, n * 8), "duplicate solution");
    toggle_iter_free(it);
    free(all);
    free(y);
    return cnt;
}

static void check_cert(const toggle_solution *sol, const uint64_t *a, const uint64_t *b,
                       size_t m, size_t n, uint64_t k)
{
    uint64_t *y = calloc(m + 1, 8);
    ck_assert_int_eq(toggle_solution_certificate(sol, y, m), TOGGLE_OK);
    uint64_t yb = 0;
    for (size_t i = 0; i < m; i++)
        yb = tu_addmod(yb, tu_mulmod(y[i], b[i], k), k);
    ck_assert_msg(yb != 0, "certificate has y.b = 0");
    for (size_t j = 0; j < n; j++) {
        uint64_t acc = 0;
        for (size_t i = 0; i < m; i++)
            acc = tu_addmod(acc, tu_mulmod(y[i], a[i * n + j], k), k);
        ck_assert_msg(acc == 0, "certificate has yA != 0");
    }
    free(y);
}

/* Solve, compare with brute force, iterate everything, check fewest. */
static void check_system(const uint64_t *a, const uint64_t *b, size_t m, size_t n, uint64_t k)
{
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, k), TOGGLE_OK);
    int rc = toggle_solve(&sol, s);
    ck_assert_msg(rc == TOGGLE_OK, "solve k=%llu: %s", (unsigned long long)k, toggle_last_error());
    brute bf = brute_force(a, b, m, n, k);
    uint64_t count;
    ck_assert_int_eq(toggle_solution_count_u64(sol, &count), TOGGLE_OK);
    ck_assert_msg(count == bf.count, "k=%llu m=%zu n=%zu: count %llu, brute force %llu",
                  (unsigned long long)k, m, n, (unsigned long long)count,
                  (unsigned long long)bf.count);
    char buf[32];
    ck_assert_int_eq(toggle_solution_count_string(sol, buf, sizeof buf, NULL), TOGGLE_OK);
    ck_assert_uint_eq(strtoull(buf, NULL, 10), bf.count);
    /* product of the radices is the count */
    uint64_t prod = 1, r;
    for (size_t i = 0; i < toggle_solution_nullity(sol); i++) {
        ck_assert_int_eq(toggle_solution_radix(sol, i, &r), TOGGLE_OK);
        ck_assert(r >= 2 && k % r == 0);
        prod *= r;
    }
    if (bf.count == 0) {
        ck_assert_int_eq(toggle_solution_is_solvable(sol), 0);
        check_cert(sol, a, b, m, n, k);
        toggle_iter *it = NULL;
        ck_assert_int_eq(toggle_iter_new(&it, sol), TOGGLE_ENOSOLUTION);
    } else {
        ck_assert_uint_eq(prod, bf.count);
        ck_assert_uint_eq(iterate_all(sol, a, b, m, n, k, bf.count), bf.count);
        for (int mt = 0; mt < 2; mt++) {
            toggle_search *se = NULL;
            uint64_t *x = calloc(n + 1, 8), *y = calloc(m + 1, 8), w;
            int proven;
            ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_OK);
            ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_METRIC, (uint64_t)mt),
                             TOGGLE_OK);
            ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
            ck_assert_int_eq(toggle_search_result(se, x, n, &w, &proven, NULL), TOGGLE_OK);
            ck_assert_int_eq(proven, 1);
            ck_assert_msg(w == bf.best[mt], "k=%llu metric %d: fewest %llu, brute force %llu",
                          (unsigned long long)k, mt, (unsigned long long)w,
                          (unsigned long long)bf.best[mt]);
            ck_assert_uint_eq(weight_of(x, n, mt), w);
            tu_apply(a, m, n, x, k, y);
            ck_assert(!memcmp(y, b, m * 8));
            toggle_search_free(se);
            free(x);
            free(y);
        }
    }
    tu_free_all(NULL, s, sol);
}

/* Random m x n system over k with entries biased towards 0 and towards
 * zero divisors, b chosen solvable half of the time. */
static void random_system(tu_rng *r, size_t m, size_t n, uint64_t k, uint64_t *a, uint64_t *b)
{
    for (size_t i = 0; i < m * n; i++) {
        uint64_t u = tu_below(r, 4);
        a[i] = u == 0 ? 0 : tu_below(r, k);
    }
    if (tu_below(r, 2)) {
        uint64_t *x = calloc(n + 1, 8);
        for (size_t j = 0; j < n; j++)
            x[j] = tu_below(r, k);
        tu_apply(a, m, n, x, k, b);
        free(x);
    } else {
        for (size_t i = 0; i < m; i++)
            b[i] = tu_below(r, k);
    }
    /* sometimes make rows dependent so the kernel grows */
    if (m >= 2 && tu_below(r, 2)) {
        uint64_t c = tu_below(r, k);
        for (size_t j = 0; j < n; j++)
            a[(m - 1) * n + j] = tu_mulmod(c, a[j], k);
        b[m - 1] = tu_mulmod(c, b[0], k);
    }
}

START_TEST(prime_bruteforce)
{
    tu_rng r = tu_rng_for(1);
    static const uint64_t ks[] = {2, 3, 5, 7};
    size_t iters = tu_iters(60);
    for (size_t t = 0; t < iters; t++) {
        uint64_t k = ks[t % 4];
        size_t maxn = k == 2 ? 10 : k == 3 ? 7 : k == 5 ? 5 : 4;
        size_t n = 1 + tu_below(&r, maxn), m = 1 + tu_below(&r, maxn);
        uint64_t a[100], b[10];
        random_system(&r, m, n, k, a, b);
        check_system(a, b, m, n, k);
    }
}
END_TEST

START_TEST(composite_bruteforce)
{
    tu_rng r = tu_rng_for(2);
    static const uint64_t ks[] = {4, 6, 8, 9, 10, 12};
    size_t iters = tu_iters(40);
    for (size_t t = 0; t < iters; t++) {
        for (size_t q = 0; q < 6; q++) {
            uint64_t k = ks[q];
            size_t maxn = k <= 6 ? 5 : 4;
            size_t n = 1 + tu_below(&r, maxn), m = 1 + tu_below(&r, maxn);
            uint64_t a[100], b[10];
            random_system(&r, m, n, k, a, b);
            check_system(a, b, m, n, k);
        }
    }
    /* grid boards, all-off to all-on and random starts */
    for (size_t q = 0; q < 6; q++) {
        uint64_t k = ks[q];
        size_t shapes[][2] = {{1, 2}, {2, 2}, {1, 4}, {2, 3}, {1, 5}};
        for (size_t sh = 0; sh < 5; sh++) {
            size_t rows = shapes[sh][0], cols = shapes[sh][1], n = rows * cols;
            if (ipow(k, n) > 300000)
                continue;
            for (uint32_t flags = 0; flags <= TOGGLE_GRID_TORUS; flags += TOGGLE_GRID_TORUS) {
                uint64_t *a = tu_grid_matrix(rows, cols, flags), b[16];
                tu_reduce(a, n * n, k);
                for (size_t i = 0; i < n; i++)
                    b[i] = 1;
                check_system(a, b, n, n, k);
                for (size_t i = 0; i < n; i++)
                    b[i] = tu_below(&r, k);
                check_system(a, b, n, n, k);
                free(a);
            }
        }
    }
}
END_TEST

START_TEST(composite_edge_moduli)
{
    /* 2x = 1 mod 4 is unsolvable with a certificate; huge composite and
     * prime-power moduli near 2^63 never abort */
    static const uint64_t ks[] = {4, (uint64_t)1 << 62, 9223372036854775807ull /* 7^2*73*... */,
                                  4611686014132420609ull /* (2^31-1)^2 */,
                                  9223372036854775806ull};
    tu_rng r = tu_rng_for(3);
    for (size_t q = 0; q < 5; q++) {
        uint64_t k = ks[q];
        size_t m = 4, n = 5;
        uint64_t a[20], b[4], x[5], y[4];
        for (int rep = 0; rep < 20; rep++) {
            for (size_t i = 0; i < m * n; i++)
                a[i] = tu_below(&r, 3) ? tu_mulmod(tu_below(&r, k), (uint64_t)1 << tu_below(&r, 8), k) : 0;
            for (size_t i = 0; i < m; i++)
                b[i] = tu_below(&r, k);
            if (rep & 1) {
                for (size_t j = 0; j < n; j++)
                    x[j] = tu_below(&r, k);
                tu_apply(a, m, n, x, k, b);
            }
            toggle_system *s = NULL;
            toggle_solution *sol = NULL;
            ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, k), TOGGLE_OK);
            ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
            if (toggle_solution_is_solvable(sol)) {
                ck_assert_int_eq(toggle_solution_particular(sol, x, n), TOGGLE_OK);
                tu_apply(a, m, n, x, k, y);
                ck_assert(!memcmp(y, b, sizeof y));
                for (size_t i = 0; i < toggle_solution_nullity(sol); i++) {
                    ck_assert_int_eq(toggle_solution_kernel_vector(sol, i, x, n), TOGGLE_OK);
                    tu_apply(a, m, n, x, k, y);
                    for (size_t j = 0; j < m; j++)
                        ck_assert_uint_eq(y[j], 0);
                }
                toggle_rng *g = NULL;
                ck_assert_int_eq(toggle_rng_new(&g, 5), TOGGLE_OK);
                ck_assert_int_eq(toggle_solution_sample(sol, g, x, n), TOGGLE_OK);
                tu_apply(a, m, n, x, k, y);
                ck_assert(!memcmp(y, b, sizeof y));
                toggle_rng_free(g);
            } else {
                check_cert(sol, a, b, m, n, k);
            }
            tu_free_all(NULL, s, sol);
        }
    }
}
END_TEST

START_TEST(iter_stop_reset)
{
    /* 4x4 over F_2: nullity 4, 16 solutions */
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    toggle_iter *it = NULL;
    sol = tu_solve_grid(4, 4, 0, 2, &g, &s);
    ck_assert_int_eq(toggle_iter_new(&it, sol), TOGGLE_OK);
    uint64_t first[16], x[16], prev[16];
    ck_assert_int_eq(toggle_iter_next(it, first, 16), TOGGLE_OK);
    uint64_t x0[16];
    ck_assert_int_eq(toggle_solution_particular(sol, x0, 16), TOGGLE_OK);
    ck_assert(!memcmp(first, x0, sizeof x0));
    memcpy(prev, first, sizeof prev);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(toggle_iter_next(it, x, 16), TOGGLE_OK);
        /* Gray order: consecutive solutions differ by one kernel vector */
        int diff_is_kernel = 0;
        for (size_t v = 0; v < toggle_solution_nullity(sol); v++) {
            uint64_t kv[16];
            toggle_solution_kernel_vector(sol, v, kv, 16);
            int same = 1;
            for (int j = 0; j < 16; j++)
                same &= ((prev[j] ^ x[j]) == kv[j]);
            diff_is_kernel |= same;
        }
        ck_assert(diff_is_kernel);
        memcpy(prev, x, sizeof x);
    }
    ck_assert_uint_eq(toggle_iter_produced(it), 6);
    toggle_iter_reset(it);
    ck_assert_uint_eq(toggle_iter_produced(it), 0);
    ck_assert_int_eq(toggle_iter_next(it, x, 16), TOGGLE_OK);
    ck_assert(!memcmp(x, first, sizeof x));
    ck_assert_int_eq(toggle_iter_next(it, x, 15), TOGGLE_EBUFSIZE);
    ck_assert_int_eq(toggle_iter_next(NULL, x, 16), TOGGLE_EINVAL);
    int n = 1;
    while (toggle_iter_next(it, x, 16) == TOGGLE_OK)
        n++;
    ck_assert_int_eq(n, 16);
    toggle_iter_free(it);
    toggle_iter_free(NULL);
    ck_assert_int_eq(toggle_iter_new(NULL, sol), TOGGLE_EINVAL);
    tu_free_all(g, s, sol);
}
END_TEST

START_TEST(iter_random_larger)
{
    /* k^d distinct verified solutions on random systems too large for
     * brute force over press vectors */
    tu_rng r = tu_rng_for(4);
    static const uint64_t ks[] = {2, 3, 5, 4, 6};
    for (size_t t = 0; t < tu_iters(10); t++) {
        uint64_t k = ks[t % 5];
        size_t n = 12 + tu_below(&r, 20), m = n - 4 - tu_below(&r, 4);
        uint64_t *a = calloc(m * n, 8), *b = calloc(m, 8), *x = calloc(n, 8);
        for (size_t i = 0; i < m * n; i++)
            a[i] = tu_below(&r, 3) ? 0 : tu_below(&r, k);
        for (size_t j = 0; j < n; j++)
            x[j] = tu_below(&r, k);
        tu_apply(a, m, n, x, k, b);
        toggle_system *s = NULL;
        toggle_solution *sol = NULL;
        ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, k), TOGGLE_OK);
        ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
        uint64_t count;
        if (toggle_solution_count_u64(sol, &count) == TOGGLE_OK && count <= 200000) {
            if (toggle_solution_engine(sol) != TOGGLE_ENGINE_HOWELL)
                ck_assert_uint_eq(count, ipow(k, toggle_solution_nullity(sol)));
            ck_assert_uint_eq(iterate_all(sol, a, b, m, n, k, count), count);
        }
        tu_free_all(NULL, s, sol);
        free(a);
        free(b);
        free(x);
    }
}
END_TEST

/* Chi-square of sample frequencies over the whole (small) space. */
static void chi_square(const uint64_t *a, const uint64_t *b, size_t m, size_t n, uint64_t k,
                       double crit)
{
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, k), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    uint64_t count;
    ck_assert_int_eq(toggle_solution_count_u64(sol, &count), TOGGLE_OK);
    ck_assert(count >= 4 && count <= 64);
    /* index solutions by their position in the iteration */
    uint64_t *all = calloc(count * n, 8), x[16];
    toggle_iter *it = NULL;
    ck_assert_int_eq(toggle_iter_new(&it, sol), TOGGLE_OK);
    for (uint64_t i = 0; i < count; i++)
        ck_assert_int_eq(toggle_iter_next(it, all + i * n, n), TOGGLE_OK);
    toggle_iter_free(it);
    size_t draws = 200 * count;
    uint64_t *freq = calloc(count, 8);
    toggle_rng *g = NULL;
    ck_assert_int_eq(toggle_rng_new(&g, tu_seed()), TOGGLE_OK);
    for (size_t t = 0; t < draws; t++) {
        ck_assert_int_eq(toggle_solution_sample(sol, g, x, n), TOGGLE_OK);
        uint64_t i = 0;
        while (i < count && memcmp(all + i * n, x, n * 8))
            i++;
        ck_assert_msg(i < count, "sample is not a solution");
        freq[i]++;
    }
    double e = (double)draws / (double)count, chi = 0;
    for (uint64_t i = 0; i < count; i++)
        chi += ((double)freq[i] - e) * ((double)freq[i] - e) / e;
    ck_assert_msg(chi < crit, "chi-square %.2f >= %.2f with %llu cells", chi, crit,
                  (unsigned long long)count - 1);
    /* the same seed gives the same samples */
    toggle_rng *g1 = NULL, *g2 = NULL;
    uint64_t y[16];
    toggle_rng_new(&g1, 99);
    toggle_rng_new(&g2, 99);
    for (int t = 0; t < 10; t++) {
        toggle_solution_sample(sol, g1, x, n);
        toggle_solution_sample(sol, g2, y, n);
        ck_assert(!memcmp(x, y, n * 8));
    }
    toggle_rng_free(g);
    toggle_rng_free(g1);
    toggle_rng_free(g2);
    free(all);
    free(freq);
    tu_free_all(NULL, s, sol);
}

START_TEST(sample_chi_square)
{
    /* F_3 with nullity 2 (9 solutions); critical values at p = 0.0001 */
    uint64_t a3[] = {1, 2, 0, 1, 0, 1, 1, 0}, b3[] = {1, 2};
    chi_square(a3, b3, 2, 4, 3, 33.7);
    /* Z/4 with mixed radices: 2x_0 = 2, x_1 + x_2 = 1 -> radices 2 and 4 (8 solutions) */
    uint64_t a4[] = {2, 0, 0, 0, 1, 1}, b4[] = {2, 1};
    chi_square(a4, b4, 2, 3, 4, 29.9);
    /* F_2, 4x4 all-on: 16 solutions */
    uint64_t *g = tu_grid_matrix(4, 4, 0), b2[16];
    for (int i = 0; i < 16; i++)
        b2[i] = 1;
    chi_square(g, b2, 16, 16, 2, 44.3);
    free(g);
}
END_TEST

/* Fewest presses of the n x n all-off to all-on board over F_2. */
static uint64_t fewest_allon(size_t n, int *proven, size_t *nullity)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    toggle_search *se = NULL;
    sol = tu_solve_grid(n, n, 0, 2, &g, &s);
    ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
    uint64_t *x = calloc(n * n, 8), w;
    ck_assert_int_eq(toggle_search_result(se, x, n * n, &w, proven, NULL), TOGGLE_OK);
    int ok = 0;
    ck_assert_int_eq(toggle_system_check(s, x, n * n, &ok), TOGGLE_OK);
    ck_assert_int_eq(ok, 1);
    ck_assert_uint_eq(weight_of(x, n * n, TOGGLE_METRIC_CELLS), w);
    *nullity = toggle_solution_nullity(sol);
    free(x);
    toggle_search_free(se);
    tu_free_all(g, s, sol);
    return w;
}

START_TEST(fewest_a075464)
{
    size_t top = 30;
    for (size_t n = 1; n <= top; n++) {
        int proven = 0;
        size_t d;
        uint64_t w = fewest_allon(n, &proven, &d);
        ck_assert_msg(proven, "n=%zu not proven", n);
        ck_assert_msg(w == a075464[n - 1], "n=%zu (d=%zu): fewest %llu, A075464 %u", n, d,
                      (unsigned long long)w, a075464[n - 1]);
    }
}
END_TEST

START_TEST(fewest_grids_odd)
{
    /* tiny boards over odd primes (and Z/4, Z/6) against brute force over
     * every press vector, random start and target, plain and torus */
    tu_rng r = tu_rng_for(5);
    static const uint64_t ks[] = {3, 5, 7, 4, 6};
    size_t shapes[][2] = {{2, 2}, {1, 5}, {2, 3}, {3, 3}, {1, 8}};
    for (size_t q = 0; q < 5; q++)
        for (size_t sh = 0; sh < 5; sh++)
            for (uint32_t flags = 0; flags <= TOGGLE_GRID_TORUS; flags += TOGGLE_GRID_TORUS) {
                uint64_t k = ks[q];
                size_t n = shapes[sh][0] * shapes[sh][1];
                if (ipow(k, n) > 100000)
                    continue;
                uint64_t *a = tu_grid_matrix(shapes[sh][0], shapes[sh][1], flags), b[16], x[16];
                tu_reduce(a, n * n, k);
                for (size_t j = 0; j < n; j++)
                    x[j] = tu_below(&r, k);
                tu_apply(a, n, n, x, k, b);
                check_system(a, b, n, n, k);
                for (size_t j = 0; j < n; j++)
                    b[j] = 1;
                check_system(a, b, n, n, k);
                free(a);
            }
}
END_TEST

START_TEST(fewest_limit)
{
    /* 16x16 over F_2 has nullity 8: with a limit below 256 the answer is
     * a solution, not proven, no better than the truth; with 256 or 0
     * (unlimited) it is proven, for a search, a system's default and a
     * generator alike */
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    toggle_search *se = NULL;
    sol = tu_solve_grid(16, 16, 0, 2, &g, &s);
    ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, 10), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_result(se, NULL, 0, NULL, NULL, NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
    uint64_t w, visited, x[256];
    int proven;
    ck_assert_int_eq(toggle_search_result(se, x, 256, &w, &proven, &visited), TOGGLE_OK);
    ck_assert_int_eq(proven, 0);
    ck_assert(visited <= 10);
    ck_assert(w >= a075464[15]);
    int ok;
    toggle_system_check(s, x, 256, &ok);
    ck_assert_int_eq(ok, 1);
    ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_METRIC, 7), TOGGLE_EINVAL);
    /* a limit of all 256 solutions, and 0 = unlimited, prove the minimum */
    static const uint64_t full[] = {256, 0};
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, full[i]), 0);
        ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
        ck_assert_int_eq(toggle_search_result(se, x, 256, &w, &proven, &visited), TOGGLE_OK);
        ck_assert_int_eq(proven, 1);
        ck_assert_uint_eq(w, a075464[15]);
        ck_assert_uint_eq(visited, 256);
        ck_assert_int_eq(toggle_system_check(s, x, 256, &ok), TOGGLE_OK);
        ck_assert_int_eq(ok, 1);
    }
    ck_assert_int_eq(toggle_search_result(se, x, 255, &w, &proven, &visited), TOGGLE_EBUFSIZE);
    toggle_search_free(se);
    toggle_search_free(NULL);
    toggle_solution_free(sol);
    /* the system's TOGGLE_SYSTEM_OPT_SEARCH_LIMIT is the default of its
     * searches; 0 is unlimited and reads back as UINT64_MAX */
    static const uint64_t sys_limit[] = {12, 0};
    for (size_t i = 0; i < 2; i++) {
        uint64_t v = 0;
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, sys_limit[i]),
                         TOGGLE_OK);
        ck_assert_int_eq(toggle_system_get_option(s, TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, &v), 0);
        ck_assert_uint_eq(v, sys_limit[i] ? sys_limit[i] : UINT64_MAX);
        ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
        ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_OK);
        ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
        ck_assert_int_eq(toggle_search_result(se, NULL, 0, &w, &proven, &visited), TOGGLE_OK);
        ck_assert_int_eq(proven, sys_limit[i] == 0);
        ck_assert_uint_eq(visited, sys_limit[i] ? 12 : 256);
        toggle_search_free(se);
        toggle_solution_free(sol);
    }
    /* a generator on a system whose limit is 1: its fewest-press checks are
     * never proven until its own limit is 0 */
    toggle_generator *gen = NULL;
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, 1), TOGGLE_OK);
    ck_assert_int_eq(toggle_generator_new(&gen, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_PRESSES, 3), 0);
    ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_ATTEMPTS, 20), 0);
    ck_assert_int_eq(toggle_generator_next(gen, x, 256, &w), TOGGLE_ELIMIT);
    ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_SEARCH_LIMIT, 0), 0);
    ck_assert_int_eq(toggle_generator_next(gen, x, 256, &w), TOGGLE_OK);
    ck_assert_uint_eq(w, 3);
    toggle_generator_free(gen);
    tu_free_all(g, s, NULL);
}
END_TEST

/* Solve "start to all 0" and return the solution (caller frees). */
static toggle_solution *solve_start(toggle_graph *g, uint64_t k, const uint64_t *start)
{
    size_t n = toggle_graph_cells(g);
    uint64_t *zero = calloc(n, 8);
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, k, start, zero), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    toggle_system_free(s);
    free(zero);
    return sol;
}

START_TEST(generator)
{
    static const struct {
        size_t r, c;
        uint64_t k;
    } boards[] = {{3, 3, 2}, {4, 4, 2}, {5, 5, 3}, {3, 4, 4}, {4, 4, 6}, {5, 5, 2}};
    for (size_t t = 0; t < 6; t++) {
        size_t n = boards[t].r * boards[t].c;
        uint64_t k = boards[t].k;
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        toggle_generator *gen = NULL, *gen2 = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&g, boards[t].r, boards[t].c, 0), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_new(&s, g, k, NULL, NULL), TOGGLE_OK);
        ck_assert_int_eq(toggle_generator_new(&gen, s), TOGGLE_OK);
        ck_assert_int_eq(toggle_generator_new(&gen2, s), TOGGLE_OK);
        uint64_t st[25], st2[25], w;
        for (int seed = 1; seed <= 3; seed++) {
            ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_SEED, (uint64_t)seed), 0);
            ck_assert_int_eq(toggle_generator_set_option(gen2, TOGGLE_GENERATOR_OPT_SEED, (uint64_t)seed), 0);
            for (int rep = 0; rep < 5; rep++) {
                ck_assert_int_eq(toggle_generator_next(gen, st, n, &w), TOGGLE_OK);
                ck_assert_int_eq(toggle_generator_next(gen2, st2, n, NULL), TOGGLE_OK);
                ck_assert(!memcmp(st, st2, n * 8)); /* reproducible */
                toggle_solution *sol = solve_start(g, k, st);
                ck_assert_int_eq(toggle_solution_is_solvable(sol), 1);
                toggle_solution_free(sol);
            }
        }
        size_t d = toggle_generator_nullity(gen);
        ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_UNIQUE, 1), TOGGLE_OK);
        int rc = toggle_generator_next(gen, st, n, &w);
        if (d > 0) {
            ck_assert_int_eq(rc, TOGGLE_ENOSOLUTION);
        } else {
            ck_assert_int_eq(rc, TOGGLE_OK);
            toggle_solution *sol = solve_start(g, k, st);
            uint64_t c;
            ck_assert_int_eq(toggle_solution_count_u64(sol, &c), TOGGLE_OK);
            ck_assert_uint_eq(c, 1);
            toggle_solution_free(sol);
        }
        ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_UNIQUE, 0), TOGGLE_OK);
        /* a given number of fewest presses */
        for (uint64_t want = 1; want <= 4; want++) {
            ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_PRESSES, want), 0);
            ck_assert_int_eq(toggle_generator_next(gen, st, n, &w), TOGGLE_OK);
            ck_assert_uint_eq(w, want);
            toggle_solution *sol = solve_start(g, k, st);
            toggle_search *se = NULL;
            int proven;
            ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_OK);
            ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
            ck_assert_int_eq(toggle_search_result(se, NULL, 0, &w, &proven, NULL), TOGGLE_OK);
            ck_assert_uint_eq(w, want);
            toggle_search_free(se);
            toggle_solution_free(sol);
        }
        ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_PRESSES, UINT64_MAX), 0);
        /* a given number of lit cells: one that a reachable start has (1 on
         * unique boards; on others a single lit cell may be unreachable) */
        for (int rep = 0; rep < 3; rep++) {
            uint64_t lit = 0;
            ck_assert_int_eq(toggle_generator_next(gen, st, n, NULL), TOGGLE_OK);
            for (size_t i = 0; i < n; i++)
                lit += st[i] != 0;
            if (d == 0 && rep == 0)
                lit = 1;
            ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_LIT, lit), 0);
            rc = toggle_generator_next(gen, st, n, NULL);
            ck_assert_msg(rc == TOGGLE_OK, "lit %llu: %s", (unsigned long long)lit,
                          toggle_last_error());
            uint64_t c = 0;
            for (size_t i = 0; i < n; i++)
                c += st[i] != 0;
            ck_assert_uint_eq(c, lit);
            toggle_solution *sol = solve_start(g, k, st);
            ck_assert_int_eq(toggle_solution_is_solvable(sol), 1);
            toggle_solution_free(sol);
            ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_LIT, UINT64_MAX), 0);
        }
        ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_LIT, n + 1), 0);
        ck_assert_int_eq(toggle_generator_next(gen, st, n, NULL), TOGGLE_ENOSOLUTION);
        ck_assert_int_eq(toggle_generator_next(gen, st, n - 1, NULL), TOGGLE_EBUFSIZE);
        ck_assert_int_eq(toggle_generator_set_option(gen, 999, 1), TOGGLE_EINVAL);
        toggle_generator_free(gen);
        toggle_generator_free(gen2);
        tu_free_all(g, s, NULL);
    }
    toggle_generator_free(NULL);
}
END_TEST

START_TEST(misuse)
{
    toggle_rng *g = NULL;
    uint64_t x[4], r;
    ck_assert_int_eq(toggle_rng_new(NULL, 1), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_rng_new(&g, 1), TOGGLE_OK);
    ck_assert_uint_eq(toggle_rng_next(NULL), 0);
    ck_assert_uint_eq(toggle_rng_below(g, 1), 0);
    ck_assert_uint_lt(toggle_rng_below(g, 7), 7);
    ck_assert_int_eq(toggle_solution_sample(NULL, g, x, 4), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_solution_radix(NULL, 0, &r), TOGGLE_EINVAL);
    /* unsolvable 2x2 over F_3 */
    toggle_graph *gr = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    toggle_search *se = NULL;
    sol = tu_solve_grid(2, 2, 0, 3, &gr, &s);
    ck_assert_int_eq(toggle_solution_is_solvable(sol), 0);
    ck_assert_int_eq(toggle_solution_sample(sol, g, x, 4), TOGGLE_ENOSOLUTION);
    ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_ENOSOLUTION);
    ck_assert_int_eq(toggle_solution_radix(sol, 99, &r), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_generator_new(NULL, s), TOGGLE_EINVAL);
    toggle_rng_free(g);
    toggle_rng_free(NULL);
    tu_free_all(gr, s, sol);
}
END_TEST

START_TEST(option_keys)
{
    /* the per-handle names keep the 1.0 values; a key of another handle is
     * refused with a message naming it and its handle */
    ck_assert_int_eq(TOGGLE_SEARCH_OPT_METRIC, TOGGLE_OPT_METRIC);
    ck_assert_int_eq(TOGGLE_SEARCH_OPT_SEARCH_LIMIT, TOGGLE_OPT_SEARCH_LIMIT);
    ck_assert_int_eq(TOGGLE_GENERATOR_OPT_SEED, TOGGLE_OPT_SEED);
    ck_assert_int_eq(TOGGLE_GENERATOR_OPT_UNIQUE, TOGGLE_OPT_UNIQUE);
    ck_assert_int_eq(TOGGLE_GENERATOR_OPT_PRESSES, TOGGLE_OPT_PRESSES);
    ck_assert_int_eq(TOGGLE_GENERATOR_OPT_METRIC, TOGGLE_OPT_METRIC);
    ck_assert_int_eq(TOGGLE_GENERATOR_OPT_LIT, TOGGLE_OPT_LIT);
    ck_assert_int_eq(TOGGLE_GENERATOR_OPT_ATTEMPTS, TOGGLE_OPT_ATTEMPTS);
    ck_assert_int_eq(TOGGLE_GENERATOR_OPT_SEARCH_LIMIT, TOGGLE_OPT_SEARCH_LIMIT);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_search *se = NULL;
    toggle_generator *gen = NULL;
    toggle_solution *sol = tu_solve_grid(4, 4, 0, 2, &g, &s);
    ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_OK);
    ck_assert_int_eq(toggle_generator_new(&gen, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_METRIC, 1), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, 9), 0);
    ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_SEED, 3), 0);
    ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_METRIC, 1), 0);
    ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_ATTEMPTS, 5), 0);
    ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SYSTEM_OPT_ENGINE, 0), TOGGLE_EINVAL);
    ck_assert_str_eq(toggle_last_error(),
                     "TOGGLE_SYSTEM_OPT_ENGINE (1) is an option of a system, not of a search");
    ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_GENERATOR_OPT_LIT, 0), TOGGLE_EINVAL);
    ck_assert_str_eq(toggle_last_error(),
                     "TOGGLE_GENERATOR_OPT_LIT (8) is an option of a generator, not of a search");
    ck_assert_int_eq(toggle_search_set_option(se, 11, 0), TOGGLE_EINVAL);
    ck_assert_str_eq(toggle_last_error(), "option key 11 does not apply to a search");
    ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0),
                     TOGGLE_EINVAL);
    ck_assert_str_eq(toggle_last_error(), "TOGGLE_SYSTEM_OPT_MEMORY_BUDGET (2) is an option of "
                                          "a system, not of a generator");
    ck_assert_int_eq(toggle_generator_set_option(gen, -1, 0), TOGGLE_EINVAL);
    ck_assert_str_eq(toggle_last_error(), "option key -1 does not apply to a generator");
    toggle_search_free(se);
    toggle_generator_free(gen);
    tu_free_all(g, s, sol);
}
END_TEST

/* A search whose limit equals the number of solutions visits them all and
 * is proven (k = 3 Gray search and the k = 2 transform); one less is not. */
START_TEST(fewest_limit_equals_count)
{
    const size_t Rs[] = {4, 5, 16};
    const uint64_t ks[] = {3, 2, 2};
    for (int c = 0; c < 3; c++) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        toggle_solution *sol = tu_solve_grid(Rs[c], Rs[c], 0, ks[c], &g, &s);
        uint64_t count = 0;
        ck_assert_int_eq(toggle_solution_count_u64(sol, &count), TOGGLE_OK);
        ck_assert_uint_gt(count, 1);
        toggle_search *se = NULL;
        ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_OK);
        for (uint64_t lim = count - 1; lim <= count + 1; lim++) {
            ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, lim),
                             TOGGLE_OK);
            ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
            uint64_t w, visited;
            int proven;
            ck_assert_int_eq(toggle_search_result(se, NULL, 0, &w, &proven, &visited),
                             TOGGLE_OK);
            ck_assert_msg(proven == (lim >= count), "%zux%zu k=%llu, %llu solutions, limit "
                          "%llu: proven %d after %llu visits", Rs[c], Rs[c],
                          (unsigned long long)ks[c], (unsigned long long)count,
                          (unsigned long long)lim, proven, (unsigned long long)visited);
        }
        toggle_search_free(se);
        tu_free_all(g, s, sol);
    }
}
END_TEST

/* The generator's left kernel with the chase engine forced (it takes grids
 * only; A^T of a grid is the grid itself): TOGGLE_GENERATOR_OPT_LIT works, as with
 * AUTO, and gives reachable starts. */
START_TEST(generator_lit_chase_forced)
{
    for (int forced = 0; forced < 2; forced++) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&g, 5, 5, 0), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, NULL), TOGGLE_OK);
        if (forced)
            ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE,
                                                      TOGGLE_ENGINE_CHASE), TOGGLE_OK);
        toggle_generator *gen = NULL;
        ck_assert_int_eq(toggle_generator_new(&gen, s), TOGGLE_OK);
        ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_LIT, 3), TOGGLE_OK);
        for (int t = 0; t < 20; t++) {
            uint64_t start[25];
            int rc = toggle_generator_next(gen, start, 25, NULL);
            ck_assert_msg(rc == TOGGLE_OK, "forced %d: %s: %s", forced, toggle_status_name(rc),
                          toggle_last_error());
            size_t lit = 0;
            for (int i = 0; i < 25; i++)
                lit += start[i] != 0;
            ck_assert_uint_eq(lit, 3);
            toggle_system *t2 = NULL;
            toggle_solution *sol = NULL;
            ck_assert_int_eq(toggle_system_new(&t2, g, 2, start, NULL), TOGGLE_OK);
            ck_assert_int_eq(toggle_solve(&sol, t2), TOGGLE_OK);
            ck_assert(toggle_solution_is_solvable(sol));
            toggle_solution_free(sol);
            toggle_system_free(t2);
        }
        toggle_generator_free(gen);
        toggle_system_free(s);
        toggle_graph_free(g);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("space");
    TCase *tc = tcase_create("space");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, prime_bruteforce);
    tcase_add_test(tc, composite_bruteforce);
    tcase_add_test(tc, composite_edge_moduli);
    tcase_add_test(tc, iter_stop_reset);
    tcase_add_test(tc, iter_random_larger);
    tcase_add_test(tc, sample_chi_square);
    tcase_add_test(tc, fewest_a075464);
    tcase_add_test(tc, fewest_grids_odd);
    tcase_add_test(tc, fewest_limit);
    tcase_add_test(tc, generator);
    tcase_add_test(tc, fewest_limit_equals_count);
    tcase_add_test(tc, generator_lit_chase_forced);
    tcase_add_test(tc, misuse);
    tcase_add_test(tc, option_keys);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
