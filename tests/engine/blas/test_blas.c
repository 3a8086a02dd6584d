/* The blas engine: identical canonical answers to the FLINT engine
 * (solvability, nullity, particular solution, kernel basis, certificate)
 * on random square, rectangular, low-rank and unsolvable systems around
 * every block size of the elimination (16-column base blocks, 32-row
 * triangular bases, the recursion's halves, 512-row update chunks, groups
 * of 256 gathered pivots) and for
 * primes from 2 to just below 2^26 (where one exact product spans only 4
 * terms); every answer checked by the independent verifier. Then AUTO's
 * choice, the probe's refusals, threads (the same answers; BLIS's
 * process-wide thread count untouched) and graph systems. */
#define _POSIX_C_SOURCE 200809L /* blis.h names pthread barriers */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blis.h>

#include "blas.h"
#include "testutil.h"

static const uint64_t primes[] = {2, 3, 5, 7, 251, 65521, 1048573, 33554393, 67108859};
#define NPRIMES (sizeof primes / sizeof *primes)


enum { FULL, LOWRANK, ZEROCOLS, SPARSE };

/* A random m x n matrix over F_p of the given kind: FULL uniform; LOWRANK
 * the product of random m x r and r x n (r = rank); ZEROCOLS uniform with
 * every third column zero and a copy of column 1 in the last; SPARSE one
 * nonzero in 8 (long pivotless runs, rows that vanish early). b = A x0
 * (solvable) or uniform (unsolvable when A is singular, almost surely). */
static void random_system(tu_rng *g, size_t m, size_t n, uint64_t p, int kind, size_t rank,
                          int solvable, uint64_t *a, uint64_t *b)
{
    if (kind == LOWRANK) {
        uint64_t *y = calloc(m * rank + 1, sizeof *y), *c = calloc(rank * n + 1, sizeof *c);
        for (size_t i = 0; i < m * rank; i++)
            y[i] = tu_below(g, p);
        for (size_t i = 0; i < rank * n; i++)
            c[i] = tu_below(g, p);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                uint64_t acc = 0;
                for (size_t l = 0; l < rank; l++)
                    acc = tu_addmod(acc, tu_mulmod(y[i * rank + l], c[l * n + j], p), p);
                a[i * n + j] = acc;
            }
        free(y);
        free(c);
    } else {
        for (size_t i = 0; i < m * n; i++)
            a[i] = kind == SPARSE && tu_below(g, 8) ? 0 : tu_below(g, p);
        if (kind == ZEROCOLS) {
            for (size_t i = 0; i < m; i++) {
                for (size_t j = 0; j < n; j++) {
                    if (j % 3 == 0)
                        a[i * n + j] = 0;
                    else if (j == n - 1 && n > 2)
                        a[i * n + j] = a[i * n + 1];
                }
            }
        }
    }
    if (solvable) {
        uint64_t *x = calloc(n + 1, sizeof *x);
        for (size_t j = 0; j < n; j++)
            x[j] = tu_below(g, p);
        tu_apply(a, m, n, x, p, b);
        free(x);
    } else {
        for (size_t i = 0; i < m; i++)
            b[i] = tu_below(g, p);
    }
}

static void check_case(tu_rng *g, size_t m, size_t n, uint64_t p, int kind, size_t rank,
                       int solvable)
{
    uint64_t *a = calloc(m * n + 1, sizeof *a), *b = calloc(m + 1, sizeof *b);
    random_system(g, m, n, p, kind, rank, solvable, a, b);
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, p), TOGGLE_OK);
    tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_BLAS, a, b, m, n, p);
    toggle_system_free(s);
    free(a);
    free(b);
}

/* Small shapes of every kind, every prime. */
START_TEST(agrees_with_flint_small)
{
    tu_rng g = tu_rng_for(601);
    size_t iters = tu_iters(1500);
    for (size_t it = 0; it < iters; it++) {
        size_t m, n;
        switch (tu_below(&g, 6)) {
        case 0: m = tu_below(&g, 3); n = tu_below(&g, 3); break;      /* 0, 1, 2 */
        case 1: m = n = 16 * (1 + tu_below(&g, 4)) + tu_below(&g, 3) - 1; break; /* near blocks */
        case 2: m = tu_below(&g, 40); n = tu_below(&g, 130); break;   /* wide */
        case 3: m = tu_below(&g, 130); n = tu_below(&g, 40); break;   /* tall */
        default: m = n = tu_below(&g, 100); break;                    /* square */
        }
        uint64_t p = primes[tu_below(&g, NPRIMES)];
        int kind = (int)tu_below(&g, 4);
        size_t lim = m < n ? m : n;
        check_case(&g, m, n, p, kind, tu_below(&g, lim + 1), (int)tu_below(&g, 2));
    }
}
END_TEST

/* Every shape next to a block boundary, every prime, every kind. */
START_TEST(agrees_with_flint_block_sizes)
{
    tu_rng g = tu_rng_for(602);
    const size_t sides[] = {15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 257};
    const size_t ns = sizeof sides / sizeof *sides;
    size_t iters = tu_iters(60);
    for (size_t it = 0; it < iters; it++) {
        size_t m = sides[tu_below(&g, ns)], n = tu_below(&g, 3) ? m : sides[tu_below(&g, ns)];
        uint64_t p = primes[it % NPRIMES];
        int kind = (int)(it / NPRIMES % 4);
        size_t lim = m < n ? m : n;
        check_case(&g, m, n, p, kind, 1 + tu_below(&g, lim), (int)tu_below(&g, 2));
    }
}
END_TEST

/* Larger systems: more than one 512-row chunk in the trailing update,
 * recursion several levels deep, rank deficiency across the halves. */
START_TEST(agrees_with_flint_large)
{
    tu_rng g = tu_rng_for(603);
    const size_t shapes[][3] = {
        {600, 150, 0}, {150, 600, 0}, {560, 540, 60}, {1100, 90, 0}, {90, 1100, 70},
        {530, 530, 0},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        uint64_t p = primes[(s * 3 + tu_below(&g, 3)) % NPRIMES];
        size_t rank = shapes[s][2];
        check_case(&g, shapes[s][0], shapes[s][1], p, rank ? LOWRANK : FULL, rank,
                   (int)(s % 2));
    }
}
END_TEST

/* On 2 and 3 threads (the pool, the updates split by columns, each slice
 * with its own packing buffer): the FLINT engine's answers, for every
 * kind (the in-place L and the gathered L, phase 2 in place and
 * reordered), packed (p = 3, 5) and plain products, updates above and
 * below the split's threshold. */
START_TEST(threads_agree_with_flint)
{
    tu_rng g = tu_rng_for(607);
    const size_t shapes[][2] = {{300, 280}, {260, 300}, {530, 520}, {140, 700}, {90, 90}};
    const uint64_t ps[] = {3, 5, 65521, 33554393};
    for (size_t it = 0; it < 24; it++) {
        size_t m = shapes[it % 5][0], n = shapes[it % 5][1], lim = m < n ? m : n;
        uint64_t p = ps[it % 4];
        int kind = (int)(it / 4 % 4);
        uint64_t *a = calloc(m * n + 1, sizeof *a), *b = calloc(m + 1, sizeof *b);
        random_system(&g, m, n, p, kind, lim / 2 + tu_below(&g, lim / 2), (int)(it % 3 != 2),
                      a, b);
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, p), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, 2 + it % 2), TOGGLE_OK);
        tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_BLAS, a, b, m, n, p);
        toggle_system_free(s);
        free(a);
        free(b);
    }
}
END_TEST

/* Scattered pivots (every third column zero) in a left half with more
 * than 256 of them: L is gathered in several groups (GATHER in
 * blas_elim.c), on 1 and 2 threads, packed and plain products. */
START_TEST(scattered_pivots_past_a_gather_group)
{
    tu_rng g = tu_rng_for(608);
    const uint64_t ps[] = {3, 65521};
    for (size_t it = 0; it < 4; it++) {
        size_t m = 700, n = 1100;
        uint64_t p = ps[it % 2];
        uint64_t *a = calloc(m * n + 1, sizeof *a), *b = calloc(m + 1, sizeof *b);
        random_system(&g, m, n, p, ZEROCOLS, 0, (int)(it / 2), a, b);
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, p), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, 1 + it / 2), TOGGLE_OK);
        tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_BLAS, a, b, m, n, p);
        toggle_system_free(s);
        free(a);
        free(b);
    }
}
END_TEST

/* Grids (all flags: torus and Moore too) and a stencil as graph systems,
 * the blas engine forced against FLINT. */
START_TEST(agrees_with_flint_graphs)
{
    tu_rng g = tu_rng_for(604);
    size_t iters = tu_iters(80);
    for (size_t it = 0; it < iters; it++) {
        size_t rows = 1 + tu_below(&g, 14), cols = 1 + tu_below(&g, 14), n = rows * cols;
        uint32_t flags = (uint32_t)tu_below(&g, 8);
        uint64_t p = primes[tu_below(&g, NPRIMES)];
        toggle_graph *gr = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&gr, rows, cols, flags), TOGGLE_OK);
        uint64_t *start = calloc(n, sizeof *start), *zero = calloc(n, sizeof *zero);
        uint64_t *b = calloc(n, sizeof *b);
        for (size_t i = 0; i < n; i++) {
            start[i] = tu_below(&g, p);
            b[i] = (p - start[i]) % p;
        }
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_system_new(&s, gr, p, start, zero), TOGGLE_OK);
        uint64_t *a = tu_grid_matrix(rows, cols, flags);
        tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_BLAS, a, b, n, n, p);
        tu_free_all(gr, s, NULL);
        free(a);
        free(b);
        free(start);
        free(zero);
    }
}
END_TEST

static toggle_system *dense_system(size_t m, size_t n, uint64_t p, uint64_t seed)
{
    tu_rng g = tu_rng_for(seed);
    uint64_t *a = calloc(m * n + 1, sizeof *a), *b = calloc(m + 1, sizeof *b);
    random_system(&g, m, n, p, FULL, 0, 1, a, b);
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, p), TOGGLE_OK);
    free(a);
    free(b);
    return s;
}

/* AUTO: blas for large dense systems over small primes, FLINT for small
 * systems and primes from 2^26 on; a successful AUTO solve leaves the last
 * error alone. */
START_TEST(auto_choice)
{
    const struct { size_t n; uint64_t p; int engine; } cases[] = {
        {200, 3, TOGGLE_ENGINE_BLAS}, {200, 65521, TOGGLE_ENGINE_BLAS},
        {200, 67108859, TOGGLE_ENGINE_BLAS}, {200, 67108879, TOGGLE_ENGINE_FLINT},
        {20, 3, TOGGLE_ENGINE_FLINT}, {200, 2, TOGGLE_ENGINE_GF2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        toggle_system *s = dense_system(cases[c].n, cases[c].n, cases[c].p, 605 + c);
        toggle_clear_error();
        toggle_solution *sol = NULL;
        ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
        ck_assert_msg(toggle_solution_engine(sol) == cases[c].engine, "n=%zu p=%llu: engine %d",
                      cases[c].n, (unsigned long long)cases[c].p, toggle_solution_engine(sol));
        ck_assert_str_eq(toggle_last_error(), "");
        toggle_solution_free(sol);
        toggle_system_free(s);
    }
    int e = -1;
    ck_assert_int_eq(toggle_engine_from_name("blas", &e), TOGGLE_OK);
    ck_assert_int_eq(e, TOGGLE_ENGINE_BLAS);
    ck_assert_str_eq(toggle_engine_name(TOGGLE_ENGINE_BLAS), "blas");
}
END_TEST

/* Forced on what it cannot do: a clear refusal, no solution. */
START_TEST(probe_refusals)
{
    const uint64_t moduli[] = {67108879, 4, 1u << 26};
    for (size_t c = 0; c < sizeof moduli / sizeof *moduli; c++) {
        toggle_system *s = dense_system(5, 5, moduli[c], 610 + c);
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_BLAS),
                         TOGGLE_OK);
        toggle_solution *sol = NULL;
        TU_EXPECT(toggle_solve(&sol, s), TOGGLE_EUNSUPPORTED);
        ck_assert_ptr_null(sol);
        ck_assert_msg(strstr(toggle_last_error(), "blas") != NULL, "message: %s",
                      toggle_last_error());
        toggle_system_free(s);
    }
}
END_TEST

/* Threads: identical answers for 1, 2 and 0 (all processors) threads, and
 * BLIS's process-wide thread count is what the caller set: the engine
 * passes its count with each call and never touches it. */
START_TEST(threads_same_answers_and_restored)
{
    bli_thread_set_num_threads(1);
    const uint64_t counts[] = {1, 2, 0, 3};
    toggle_system *s = dense_system(700, 650, 65521, 620);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_BLAS),
                     TOGGLE_OK);
    uint64_t *x0 = calloc(650, sizeof *x0), *x = calloc(650, sizeof *x);
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, counts[c]), TOGGLE_OK);
        toggle_solution *sol = NULL;
        ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
        ck_assert_int_eq(bli_thread_get_num_threads(), 1);
        ck_assert_int_eq(toggle_solution_particular(sol, c ? x : x0, 650), TOGGLE_OK);
        if (c)
            ck_assert(memcmp(x, x0, 650 * sizeof *x) == 0);
        toggle_solution_free(sol);
    }
    bli_thread_set_num_threads(2);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, 1), TOGGLE_OK);
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(bli_thread_get_num_threads(), 2);
    toggle_solution_free(sol);
    toggle_system_free(s);
    free(x0);
    free(x);
}
END_TEST

/* Solves from several threads at once, each with its own system and
 * thread option: the right answers, the caller's count restored. */
typedef struct {
    toggle_system *s;
    int ok;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    toggle_solution *sol = NULL;
    j->ok = toggle_solve(&sol, j->s) == TOGGLE_OK && toggle_solution_is_solvable(sol) == 1;
    toggle_solution_free(sol);
    return NULL;
}

START_TEST(concurrent_solves)
{
    bli_thread_set_num_threads(1);
    job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i].s = dense_system(300, 300, primes[i + 2], 630 + (uint64_t)i);
        toggle_system_set_option(jobs[i].s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_BLAS);
        toggle_system_set_option(jobs[i].s, TOGGLE_SYSTEM_OPT_THREADS, (uint64_t)(i % 2 + 1));
        ck_assert_int_eq(pthread_create(&th[i], NULL, run_job, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        ck_assert(jobs[i].ok);
        toggle_system_free(jobs[i].s);
    }
    ck_assert_int_eq(bli_thread_get_num_threads(), 1);
}
END_TEST

/* The elimination routine on its own: an empty matrix, one column. */
/* The engine's products at the edges of their exactness bounds: every
 * entry +h or -h (sums of K products reach K h^2, the packed slots' and
 * the chunks' limits), and random entries, for widths around the slot and
 * panel boundaries; checked against exact integer arithmetic. A slot one
 * bit too narrow, or a chunk one term too long, fails here. */
static int64_t centred_mod(__int128 v, int64_t p)
{
    int64_t r = (int64_t)(v % p);
    if (r < 0)
        r += p;
    return r > p / 2 ? r - p : r;
}

START_TEST(products_at_their_bounds)
{
    const uint64_t ps[] = {2, 3, 5, 7, 13, 101, 257, 4099, 65521, 1048573, 33554393, 67108859};
    const size_t Ks[] = {1, 2, 17, 300, 2100};
    const size_t widths[] = {16, 17, 33, 257, 1031, 2053};
    tu_rng rng = tu_rng_for(0x5107); /* the seed is printed by tu_seed */
    for (size_t pi = 0; pi < sizeof ps / sizeof *ps; pi++)
        for (size_t ki = 0; ki < sizeof Ks / sizeof *Ks; ki++)
            for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
                for (int kind = 0; kind < 3; kind++) {
                    int64_t p = (int64_t)ps[pi], h = p / 2;
                    size_t K = Ks[ki], cols = widths[wi], rows = 3;
                    if (K * cols > 2100 * 300)
                        continue; /* keep the test short */
                    double *A = malloc(rows * K * sizeof *A), *B = malloc(K * cols * sizeof *B);
                    double *C = malloc(rows * cols * sizeof *C);
                    int64_t *want = malloc(rows * cols * sizeof *want);
                    for (size_t i = 0; i < rows * K; i++)
                        A[i] = kind == 2 ? (double)tu_below(&rng, (uint64_t)p) - (double)h
                                         : (double)h;
                    for (size_t i = 0; i < K * cols; i++)
                        B[i] = kind == 2 ? (double)tu_below(&rng, (uint64_t)p) - (double)h
                                         : (double)(kind ? -h : h);
                    for (size_t i = 0; i < rows * cols; i++)
                        C[i] = kind == 2 ? (double)tu_below(&rng, (uint64_t)p) - (double)h
                                         : (double)(kind ? h : -h);
                    for (size_t i = 0; i < rows; i++)
                        for (size_t j = 0; j < cols; j++) {
                            __int128 v = (__int128)C[i * cols + j];
                            for (size_t k = 0; k < K; k++)
                                v -= (__int128)(int64_t)A[i * K + k] * (int64_t)B[k * cols + j];
                            want[i * cols + j] = centred_mod(v, p);
                        }
                    ck_assert_int_eq(toggle__blas_mul_sub((uint64_t)p, 1, rows, cols, K, A, K, B,
                                                          cols, C, cols),
                                     TOGGLE_OK);
                    for (size_t i = 0; i < rows * cols; i++)
                        ck_assert_msg(centred_mod((__int128)C[i], p) == want[i],
                                      "p %lld K %zu cols %zu kind %d entry %zu: %.0f, want %lld",
                                      (long long)p, K, cols, kind, i, C[i], (long long)want[i]);
                    free(A);
                    free(B);
                    free(C);
                    free(want);
                }
}
END_TEST

START_TEST(rref_edges)
{
    size_t piv[4] = {0}, rank = 9;
    double one[1] = {0};
    ck_assert_int_eq(toggle__blas_rref(one, 0, 0, 0, 3, 1, piv, &rank), TOGGLE_OK);
    ck_assert_uint_eq(rank, 0);
    double col[3] = {0, -1, 1};
    ck_assert_int_eq(toggle__blas_rref(col, 3, 1, 1, 3, 1, piv, &rank), TOGGLE_OK);
    ck_assert_uint_eq(rank, 1);
    ck_assert_uint_eq(piv[0], 0);
    ck_assert(col[0] == 1);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("blas");
    TCase *tc = tcase_create("blas");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, agrees_with_flint_small);
    tcase_add_test(tc, agrees_with_flint_block_sizes);
    tcase_add_test(tc, agrees_with_flint_large);
    tcase_add_test(tc, agrees_with_flint_graphs);
    tcase_add_test(tc, auto_choice);
    tcase_add_test(tc, probe_refusals);
    tcase_add_test(tc, threads_same_answers_and_restored);
    tcase_add_test(tc, threads_agree_with_flint);
    tcase_add_test(tc, scattered_pivots_past_a_gather_group);
    tcase_add_test(tc, concurrent_solves);
    tcase_add_test(tc, rref_edges);
    tcase_add_test(tc, products_at_their_bounds);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
