/* Solving: known answers, random systems over several primes checked by the
 * independent verifier, and brute force over every press vector on tiny boards. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Solve s, verify against dense a/b, return the solution (caller frees). */
static toggle_solution *solve_verified(toggle_system *s, const uint64_t *a, const uint64_t *b,
                                       size_t m, size_t n, uint64_t k)
{
    toggle_solution *sol = NULL;
    int rc = toggle_solve(&sol, s);
    ck_assert_msg(rc == TOGGLE_OK, "solve: %s: %s", toggle_status_name(rc), toggle_last_error());
    size_t rank = tu_rank(a, m, n, k);
    const char *err = tu_verify(sol, a, b, m, n, k, n - rank);
    ck_assert_msg(err == NULL, "verifier: %s (m=%zu n=%zu k=%llu, seed above)", err, m, n,
                  (unsigned long long)k);
    /* the library's own check agrees with the verifier */
    if (toggle_solution_is_solvable(sol) == 1) {
        uint64_t *x = calloc(n + 1, sizeof *x);
        int ok = 0;
        toggle_solution_particular(sol, x, n);
        ck_assert_int_eq(toggle_system_check(s, x, n, &ok), TOGGLE_OK);
        ck_assert_int_eq(ok, 1);
        free(x);
    }
    return sol;
}

START_TEST(known_3x3)
{
    const uint64_t ps[3] = {2, 3, 5};
    const char *want[3] = {"101010101", "020222020", "414121414"};
    for (int t = 0; t < 3; t++) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        toggle_solution *sol = NULL;
        sol = tu_solve_grid(3, 3, 0, ps[t], &g, &s);
        ck_assert_int_eq(toggle_solution_is_solvable(sol), 1);
        ck_assert_uint_eq(toggle_solution_nullity(sol), 0);
        uint64_t x[9];
        ck_assert_int_eq(toggle_solution_particular(sol, x, 9), TOGGLE_OK);
        char got[10];
        for (int i = 0; i < 9; i++)
            got[i] = (char)('0' + x[i]);
        got[9] = 0;
        ck_assert_str_eq(got, want[t]);
        tu_free_all(g, s, sol);
    }
}
END_TEST

START_TEST(nullities_a159257)
{
    static const size_t want[20] = {0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0};
    for (size_t n = 1; n <= 20; n++) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        toggle_solution *sol = NULL;
        sol = tu_solve_grid(n, n, 0, 2, &g, &s);
        ck_assert_msg(toggle_solution_nullity(sol) == want[n - 1], "n=%zu nullity %zu want %zu",
                      n, toggle_solution_nullity(sol), want[n - 1]);
        /* Sutner: always solvable over F_2 */
        ck_assert_int_eq(toggle_solution_is_solvable(sol), 1);
        if (n <= 12) {
            uint64_t *a = tu_grid_matrix(n, n, 0), *b = malloc(n * n * sizeof *b);
            for (size_t i = 0; i < n * n; i++)
                b[i] = 1;
            const char *err = tu_verify(sol, a, b, n * n, n * n, 2, want[n - 1]);
            ck_assert_msg(!err, "n=%zu: %s", n, err);
            free(a);
            free(b);
        }
        tu_free_all(g, s, sol);
    }
}
END_TEST

START_TEST(unsolvable_2x2_mod3)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    sol = tu_solve_grid(2, 2, 0, 3, &g, &s);
    ck_assert_int_eq(toggle_solution_is_solvable(sol), 0);
    uint64_t y[4], x[4];
    int valid = 0;
    ck_assert_int_eq(toggle_solution_certificate(sol, y, 4), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_check_certificate(s, y, 4, &valid), TOGGLE_OK);
    ck_assert_int_eq(valid, 1);
    ck_assert_int_eq(toggle_solution_particular(sol, x, 4), TOGGLE_ENOSOLUTION);
    uint64_t c = 99;
    ck_assert_int_eq(toggle_solution_count_u64(sol, &c), TOGGLE_OK);
    ck_assert_uint_eq(c, 0);
    char buf[8];
    ck_assert_int_eq(toggle_solution_count_string(sol, buf, sizeof buf, NULL), TOGGLE_OK);
    ck_assert_str_eq(buf, "0");
    tu_free_all(g, s, sol);
}
END_TEST

START_TEST(strip_singular_mod3)
{
    /* A 1 x n strip is singular exactly when n = 2 (mod 3), over every field. */
    const uint64_t ps[] = {2, 3, 5, 7, 13};
    for (size_t pi = 0; pi < 5; pi++)
        for (size_t n = 1; n <= 30; n++) {
            toggle_graph *g = NULL;
            toggle_system *s = NULL;
            toggle_solution *sol = NULL;
            sol = tu_solve_grid(1, n, 0, ps[pi], &g, &s);
            ck_assert_msg((toggle_solution_nullity(sol) > 0) == (n % 3 == 2), "1x%zu p=%llu", n,
                          (unsigned long long)ps[pi]);
            tu_free_all(g, s, sol);
        }
}
END_TEST

static void random_system(tu_rng *rng, uint64_t k, size_t maxdim)
{
    size_t m = tu_below(rng, maxdim + 1), n = tu_below(rng, maxdim + 1);
    uint64_t *a = malloc((m * n + 1) * sizeof *a), *b = malloc((m + 1) * sizeof *b);
    int shape = (int)tu_below(rng, 4);
    for (size_t i = 0; i < m * n; i++)
        a[i] = tu_below(rng, k);
    if (shape == 1 && m > 1) /* rank-deficient: copy rows */
        for (size_t i = m / 2; i < m; i++)
            memcpy(a + i * n, a + (i - m / 2) * n, n * sizeof *a);
    if (shape == 2) /* sparse */
        for (size_t i = 0; i < m * n; i++)
            if (tu_below(rng, 4))
                a[i] = 0;
    uint64_t *x = malloc((n + 1) * sizeof *x);
    for (size_t j = 0; j < n; j++)
        x[j] = tu_below(rng, k);
    if (tu_below(rng, 2)) /* consistent by construction */
        tu_apply(a, m, n, x, k, b);
    else
        for (size_t i = 0; i < m; i++)
            b[i] = tu_below(rng, k);
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, k), TOGGLE_OK);
    toggle_solution *sol = solve_verified(s, a, b, m, n, k);
    /* the FLINT engine, forced, gives the identical canonical answer */
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TU_ENGINE_PRIME), TOGGLE_OK);
    toggle_solution *sol2 = solve_verified(s, a, b, m, n, k);
    ck_assert_int_eq(toggle_solution_is_solvable(sol), toggle_solution_is_solvable(sol2));
    ck_assert_uint_eq(toggle_solution_nullity(sol), toggle_solution_nullity(sol2));
    if (toggle_solution_is_solvable(sol) == 1) {
        uint64_t *x2 = malloc((n + 1) * sizeof *x2);
        toggle_solution_particular(sol, x, n);
        toggle_solution_particular(sol2, x2, n);
        ck_assert_msg(memcmp(x, x2, n * sizeof *x) == 0, "canonical solutions differ");
        free(x2);
    }
    toggle_solution_free(sol);
    toggle_solution_free(sol2);
    toggle_system_free(s);
    free(a);
    free(b);
    free(x);
}

START_TEST(random_primes)
{
    const uint64_t ps[] = {2, 3, 5, 7, 65521, 4611686018427388039ull /* prime > 2^62 */,
                           9223372036854775783ull /* largest prime < 2^63 */};
    tu_rng rng = tu_rng_for(22);
    for (size_t pi = 0; pi < sizeof ps / sizeof *ps; pi++)
        for (size_t it = 0; it < tu_iters(60); it++)
            random_system(&rng, ps[pi], it < 10 ? 3 : 24);
}
END_TEST

START_TEST(random_graphs_start_target)
{
    tu_rng rng = tu_rng_for(33);
    const uint64_t ps[] = {2, 3, 5, 7, 11};
    for (size_t it = 0; it < tu_iters(100); it++) {
        uint64_t k = ps[tu_below(&rng, 5)];
        size_t rows = 1 + tu_below(&rng, 7), cols = 1 + tu_below(&rng, 7), n = rows * cols;
        uint32_t flags = (uint32_t)tu_below(&rng, 8);
        uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg), *b = malloc(n * sizeof *b);
        for (size_t i = 0; i < n; i++) {
            st[i] = tu_below(&rng, k);
            tg[i] = tu_below(&rng, k);
            b[i] = (tg[i] + k - st[i]) % k;
        }
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&g, rows, cols, flags), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_new(&s, g, k, st, tg), TOGGLE_OK);
        uint64_t *a = tu_grid_matrix(rows, cols, flags);
        toggle_solution *sol = solve_verified(s, a, b, n, n, k);
        tu_free_all(g, s, sol);
        free(a);
        free(st);
        free(tg);
        free(b);
    }
}
END_TEST

/* Count the press vectors x with A x = b by enumerating all k^n of them,
 * updating A x incrementally (odometer order). */
static uint64_t brute_count(const uint64_t *a, const uint64_t *b, size_t n, uint64_t k)
{
    uint64_t *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y), count = 0;
    for (;;) {
        if (memcmp(y, b, n * sizeof *y) == 0)
            count++;
        size_t j = 0;
        while (j < n && x[j] == k - 1) {
            x[j] = 0; /* adding the column once more wraps it back */
            for (size_t i = 0; i < n; i++)
                y[i] = (y[i] + a[i * n + j]) % k;
            j++;
        }
        if (j == n)
            break;
        x[j]++;
        for (size_t i = 0; i < n; i++)
            y[i] = (y[i] + a[i * n + j]) % k;
    }
    free(x);
    free(y);
    return count;
}

static void brute_case(size_t rows, size_t cols, uint32_t flags, uint64_t k, tu_rng *rng)
{
    size_t n = rows * cols;
    uint64_t *a = tu_grid_matrix(rows, cols, flags), *b = malloc(n * sizeof *b);
    tu_reduce(a, n * n, k);
    for (size_t i = 0; i < n; i++)
        b[i] = tu_below(rng, 3) ? 1 % k : tu_below(rng, k);
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, n, n, a, b, k), TOGGLE_OK);
    toggle_solution *sol = solve_verified(s, a, b, n, n, k);
    uint64_t want = brute_count(a, b, n, k), got = 0;
    ck_assert_int_eq(toggle_solution_count_u64(sol, &got), TOGGLE_OK);
    ck_assert_msg(got == want, "%zux%zu flags %u k=%llu: count %llu, brute force %llu", rows,
                  cols, (unsigned)flags, (unsigned long long)k, (unsigned long long)got,
                  (unsigned long long)want);
    ck_assert_int_eq(toggle_solution_is_solvable(sol), want > 0);
    toggle_solution_free(sol);
    toggle_system_free(s);
    free(a);
    free(b);
}

START_TEST(brute_force_tiny)
{
    tu_rng rng = tu_rng_for(44);
    /* k = 2: every shape with N <= 16; k = 3: N <= 9; k = 5: N <= 9 */
    for (size_t r = 1; r <= 4; r++)
        for (size_t c = 1; c <= 4; c++)
            for (uint32_t f = 0; f < 8; f++)
                brute_case(r, c, f, 2, &rng);
    for (size_t r = 1; r <= 3; r++)
        for (size_t c = 1; c <= 3; c++)
            for (uint32_t f = 0; f < 8; f += 3)
                brute_case(r, c, f, 3, &rng);
    brute_case(3, 3, 0, 5, &rng);
    brute_case(2, 4, TOGGLE_GRID_TORUS, 5, &rng);
    brute_case(2, 2, 0, 5, &rng);
    brute_case(1, 5, 0, 5, &rng);
}
END_TEST

START_TEST(count_strings)
{
    /* 19 x 19 over F_2 has nullity 16: 65536 solutions */
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    sol = tu_solve_grid(19, 19, 0, 2, &g, &s);
    char buf[32];
    size_t need = 0;
    ck_assert_int_eq(toggle_solution_count_string(sol, buf, sizeof buf, &need), TOGGLE_OK);
    ck_assert_str_eq(buf, "65536");
    ck_assert_uint_eq(need, 6);
    ck_assert_int_eq(toggle_solution_count_string(sol, buf, 3, &need), TOGGLE_EBUFSIZE);
    ck_assert_uint_eq(need, 6);
    tu_free_all(g, s, sol);
    /* a 0 x 70 system over a large prime: k^70 does not fit in 64 bits */
    uint64_t k = 4611686018427388039ull;
    ck_assert_int_eq(toggle_system_new_matrix(&s, 0, 70, NULL, NULL, k), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_uint_eq(toggle_solution_nullity(sol), 70);
    uint64_t c;
    ck_assert_int_eq(toggle_solution_count_u64(sol, &c), TOGGLE_EOVERFLOW);
    char big[2048];
    ck_assert_int_eq(toggle_solution_count_string(sol, big, sizeof big, &need), TOGGLE_OK);
    ck_assert_uint_eq(strlen(big), need - 1);
    ck_assert_uint_gt(strlen(big), 1300); /* 62 * 70 bits ~ 1306 digits */
    tu_free_all(NULL, s, sol);
}
END_TEST

START_TEST(range_readout)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    sol = tu_solve_grid(7, 9, 0, 2, &g, &s);
    uint64_t all[63], row[9];
    ck_assert_int_eq(toggle_solution_particular(sol, all, 63), TOGGLE_OK);
    for (size_t r = 0; r < 7; r++) {
        ck_assert_int_eq(toggle_solution_particular_range(sol, r * 9, row, 9), TOGGLE_OK);
        ck_assert_mem_eq(row, all + r * 9, sizeof row);
    }
    ck_assert_int_eq(toggle_solution_particular_range(sol, 60, row, 9), TOGGLE_ERANGE);
    tu_free_all(g, s, sol);
}
END_TEST

START_TEST(memory_budget)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 30, 30, TOGGLE_GRID_TORUS), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 3, NULL, NULL), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 1000), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_ENOMEM);
    ck_assert_ptr_null(sol);
    ck_assert_msg(strstr(toggle_last_error(), "budget") != NULL, "%s", toggle_last_error());
    uint64_t v;
    ck_assert_int_eq(toggle_system_get_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 1000);
    tu_free_all(g, s, NULL);
}
END_TEST

START_TEST(composite_unsupported_or_solved)
{
    /* Until a composite engine exists this is EUNSUPPORTED; once it does, the
     * answer must verify. Either way: no abort. */
    uint64_t a[4] = {2, 0, 0, 1}, b[2] = {1, 1};
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, 2, 2, a, b, 4), TOGGLE_OK);
    int rc = toggle_solve(&sol, s);
    ck_assert(rc == TOGGLE_OK || rc == TOGGLE_EUNSUPPORTED);
    if (rc == TOGGLE_OK)
        ck_assert_int_eq(toggle_solution_is_solvable(sol), 0); /* 2x = 1 mod 4 */
    else
        ck_assert_ptr_null(sol);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TU_ENGINE_PRIME), TOGGLE_OK);
    toggle_solution_free(sol);
    sol = NULL;
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_EUNSUPPORTED);
    tu_free_all(NULL, s, sol);
}
END_TEST

/* The certificate policy's shortcut for symmetric A (the first kernel
 * vector with b.K != 0, scaled) against the canonical solution of the
 * certificate system [A^T ; b^T] y = [0 ; 1] built here by hand and solved
 * as a plain matrix system, for every prime engine, on random symmetric
 * systems that are unsolvable. */
START_TEST(symmetric_certificate_is_canonical)
{
    static const uint64_t ps[] = {2, 3, 5, 7, 65521};
    static const int engines[] = {TU_ENGINE_PRIME, TOGGLE_ENGINE_GF2};
    tu_rng rng = tu_rng_for(44);
    size_t checked = 0;
    for (size_t it = 0; it < tu_iters(400); it++) {
        uint64_t k = ps[tu_below(&rng, 5)];
        size_t n = 1 + tu_below(&rng, 9), rank_cap = 1 + tu_below(&rng, n);
        uint64_t *a = calloc(n * n, sizeof *a), *b = malloc(n * sizeof *b);
        uint64_t *t = calloc((n + 1) * n, sizeof *t), *tb = calloc(n + 1, sizeof *tb);
        uint64_t *y = malloc(n * sizeof *y), *want = malloc(n * sizeof *want);
        /* low-rank symmetric A = sum of rank_cap symmetric outer products */
        for (size_t r = 0; r < rank_cap; r++) {
            uint64_t *u = malloc(n * sizeof *u), c = tu_below(&rng, k);
            for (size_t i = 0; i < n; i++)
                u[i] = tu_below(&rng, k);
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < n; j++)
                    a[i * n + j] = tu_addmod(a[i * n + j], tu_mulmod(c, tu_mulmod(u[i], u[j], k), k), k);
            free(u);
        }
        for (size_t i = 0; i < n; i++)
            b[i] = tu_below(&rng, k);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                t[j * n + i] = a[i * n + j];
        for (size_t i = 0; i < n; i++)
            t[n * n + i] = b[i];
        tb[n] = 1;
        for (size_t e = 0; e < 2; e++) {
            if (engines[e] == TOGGLE_ENGINE_GF2 && k != 2)
                continue;
            toggle_system *s = NULL, *ts = NULL;
            toggle_solution *sol = NULL, *tsol = NULL;
            ck_assert_int_eq(toggle_system_new_matrix(&s, n, n, a, b, k), TOGGLE_OK);
            ck_assert_int_eq(toggle_system_new_matrix(&ts, n + 1, n, t, tb, k), TOGGLE_OK);
            toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)engines[e]);
            ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
            ck_assert_int_eq(toggle_solve(&tsol, ts), TOGGLE_OK);
            ck_assert_int_eq(toggle_solution_is_solvable(sol), !toggle_solution_is_solvable(tsol));
            if (!toggle_solution_is_solvable(sol)) {
                ck_assert_int_eq(toggle_solution_certificate(sol, y, n), TOGGLE_OK);
                ck_assert_int_eq(toggle_solution_particular(tsol, want, n), TOGGLE_OK);
                for (size_t i = 0; i < n; i++)
                    ck_assert_msg(y[i] == want[i], "k=%llu n=%zu engine %d: certificate entry "
                                  "%zu is %llu, canonical %llu (seed above)",
                                  (unsigned long long)k, n, engines[e], i,
                                  (unsigned long long)y[i], (unsigned long long)want[i]);
                checked++;
            }
            toggle_solution_free(sol);
            toggle_solution_free(tsol);
            toggle_system_free(s);
            toggle_system_free(ts);
        }
        free(a);
        free(b);
        free(t);
        free(tb);
        free(y);
        free(want);
    }
    ck_assert_msg(checked > 50, "only %zu unsolvable symmetric systems drawn", checked);
}
END_TEST

START_TEST(option_keys)
{
    /* the per-handle names keep the 1.0 values (pinned by abi/constants.txt
     * too); a key of another handle is refused with a message naming it */
    ck_assert_int_eq(TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_OPT_ENGINE);
    ck_assert_int_eq(TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, TOGGLE_OPT_MEMORY_BUDGET);
    ck_assert_int_eq(TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, TOGGLE_OPT_SEARCH_LIMIT);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 3, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, NULL), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2), 0);
    uint64_t v = 0;
    ck_assert_int_eq(toggle_system_get_option(s, TOGGLE_OPT_ENGINE, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, TOGGLE_ENGINE_GF2);
    static const struct {
        int key;
        const char *msg;
    } foreign[] = {
        {TOGGLE_SEARCH_OPT_METRIC, "TOGGLE_SEARCH_OPT_METRIC (4) is an option of a search (and "
                                   "of a generator), not of a system"},
        {TOGGLE_GENERATOR_OPT_SEED, "TOGGLE_GENERATOR_OPT_SEED (5) is an option of a generator, "
                                    "not of a system"},
        {TOGGLE_GENERATOR_OPT_ATTEMPTS, "TOGGLE_GENERATOR_OPT_ATTEMPTS (9) is an option of a "
                                        "generator, not of a system"},
        {11, "unknown option key 11"},
        {0, "unknown option key 0"},
    };
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        ck_assert_int_eq(toggle_system_set_option(s, foreign[i].key, 1), TOGGLE_EINVAL);
        ck_assert_str_eq(toggle_last_error(), foreign[i].msg);
        v = 42;
        ck_assert_int_eq(toggle_system_get_option(s, foreign[i].key, &v), TOGGLE_EINVAL);
        ck_assert_str_eq(toggle_last_error(), foreign[i].msg);
        ck_assert_uint_eq(v, 42);
    }
    for (int key = TOGGLE_GENERATOR_OPT_UNIQUE; key <= TOGGLE_GENERATOR_OPT_LIT; key++) {
        ck_assert_int_eq(toggle_system_set_option(s, key, 1), TOGGLE_EINVAL);
        ck_assert_ptr_nonnull(strstr(toggle_last_error(), "is an option of a generator"));
    }
    ck_assert_int_eq(toggle_system_get_option(s, TOGGLE_SYSTEM_OPT_ENGINE, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, TOGGLE_ENGINE_GF2); /* refused keys changed nothing */
    tu_free_all(g, s, NULL);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("solve");
    TCase *tc = tcase_create("solve");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, known_3x3);
    tcase_add_test(tc, nullities_a159257);
    tcase_add_test(tc, unsolvable_2x2_mod3);
    tcase_add_test(tc, strip_singular_mod3);
    tcase_add_test(tc, random_primes);
    tcase_add_test(tc, random_graphs_start_target);
    tcase_add_test(tc, brute_force_tiny);
    tcase_add_test(tc, count_strings);
    tcase_add_test(tc, range_readout);
    tcase_add_test(tc, memory_budget);
    tcase_add_test(tc, composite_unsupported_or_solved);
    tcase_add_test(tc, symmetric_certificate_is_canonical);
    tcase_add_test(tc, option_keys);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
