/* The grid suite: the chase engine against full elimination (canonical answers
 * must be identical), polynomial nullities, OEIS A159257, the published
 * 998 x 998 first row, packed readout and misuse. Every answer is checked by
 * this file's own press-applying verifier. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#ifndef TOGGLE_TEST_DATA_DIR
#define TOGGLE_TEST_DATA_DIR "/work/shared/data"
#endif

static const uint64_t primes[] = {2, 3, 5, 7, 11, 13, 1000000007ull};
#define NPRIMES (sizeof primes / sizeof *primes)

/* ---- independent verifier: presses applied by this file's neighbour code ---- */

/* y = A x on a rows x cols grid (classic or no-self); A is symmetric. */
static void press(size_t rows, size_t cols, int self, const uint64_t *x, uint64_t k, uint64_t *y)
{
    memset(y, 0, rows * cols * sizeof *y);
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) {
            uint64_t v = x[r * cols + c];
            if (!v)
                continue;
            if (self)
                y[r * cols + c] = tu_addmod(y[r * cols + c], v, k);
            if (r > 0)
                y[(r - 1) * cols + c] = tu_addmod(y[(r - 1) * cols + c], v, k);
            if (r + 1 < rows)
                y[(r + 1) * cols + c] = tu_addmod(y[(r + 1) * cols + c], v, k);
            if (c > 0)
                y[r * cols + c - 1] = tu_addmod(y[r * cols + c - 1], v, k);
            if (c + 1 < cols)
                y[r * cols + c + 1] = tu_addmod(y[r * cols + c + 1], v, k);
        }
}

/* Check sol on the board; returns NULL or a message. */
static const char *verify(const toggle_solution *sol, size_t rows, size_t cols, int self,
                          uint64_t k, const uint64_t *b)
{
    size_t n = rows * cols, d = toggle_solution_nullity(sol);
    const char *err = NULL;
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (toggle_solution_is_solvable(sol) == 1) {
        if (toggle_solution_particular(sol, x, n) != TOGGLE_OK)
            err = "no particular solution";
        else {
            press(rows, cols, self, x, k, y);
            if (memcmp(y, b, n * sizeof *y))
                err = "A x != b";
        }
    } else if (toggle_solution_certificate(sol, x, n) != TOGGLE_OK) {
        err = "no certificate";
    } else {
        uint64_t yb = 0;
        for (size_t i = 0; i < n; i++)
            yb = tu_addmod(yb, tu_mulmod(x[i], b[i], k), k);
        press(rows, cols, self, x, k, y); /* A^T y = A y */
        for (size_t i = 0; i < n && !err; i++)
            if (y[i])
                err = "certificate: y A != 0";
        if (!err && yb != 1)
            err = "certificate: y . b != 1";
    }
    /* Kernel vectors: in the kernel, and unit on the last d cells (which
     * also makes them independent). */
    for (size_t i = 0; i < d && !err; i++) {
        if (toggle_solution_kernel_vector(sol, i, x, n) != TOGGLE_OK) {
            err = "no kernel vector";
            break;
        }
        press(rows, cols, self, x, k, y);
        for (size_t t = 0; t < n && !err; t++)
            if (y[t])
                err = "kernel vector not in the kernel";
        for (size_t j = 0; j < d && !err; j++)
            if (x[n - d + j] != (i == j))
                err = "kernel vector not unit on the last cells";
    }
    free(x);
    free(y);
    return err;
}

/* ---- chase against full elimination ------------------------------------- */

static toggle_solution *solve_with(const toggle_graph *g, uint64_t k, const uint64_t *start,
                                   const uint64_t *target, int engine)
{
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, k, start, target), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)engine), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0), TOGGLE_OK);
    int rc = toggle_solve(&sol, s);
    ck_assert_msg(rc == TOGGLE_OK, "solve with engine %d: %s", engine, toggle_last_error());
    toggle_system_free(s);
    return sol;
}

static void compare_vectors(const toggle_solution *a, const toggle_solution *b, size_t n,
                            const char *what)
{
    uint64_t *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
    if (toggle_solution_is_solvable(a) == 1) {
        toggle_solution_particular(a, u, n);
        toggle_solution_particular(b, v, n);
        ck_assert_msg(!memcmp(u, v, n * sizeof *u), "%s: particular solutions differ", what);
    } else {
        ck_assert_int_eq(toggle_solution_certificate(a, u, n), TOGGLE_OK);
        ck_assert_int_eq(toggle_solution_certificate(b, v, n), TOGGLE_OK);
        ck_assert_msg(!memcmp(u, v, n * sizeof *u), "%s: certificates differ", what);
    }
    for (size_t i = 0; i < toggle_solution_nullity(a); i++) {
        toggle_solution_kernel_vector(a, i, u, n);
        toggle_solution_kernel_vector(b, i, v, n);
        ck_assert_msg(!memcmp(u, v, n * sizeof *u), "%s: kernel vector %zu differs", what, i);
    }
    free(u);
    free(v);
}

/* Solve one board both ways with random start and target, compare and
 * verify: against full elimination for prime k; for composite k (howell
 * set) against the forced Howell engine, radices too, each answer checked
 * by tu_verify on the test's own matrix (tu_grid_matrix). */
static void check_board(size_t rows, size_t cols, uint32_t flags, uint64_t k, tu_rng *rng,
                        bool howell)
{
    size_t n = rows * cols;
    int self = !(flags & TOGGLE_GRID_NO_SELF);
    uint64_t *start = malloc(n * sizeof *start), *target = malloc(n * sizeof *target);
    uint64_t *b = malloc(n * sizeof *b);
    int mode = (int)tu_below(rng, 3); /* pattern game, random, or lights-out */
    for (size_t i = 0; i < n; i++) {
        start[i] = mode == 0 ? 0 : tu_below(rng, k);
        target[i] = mode == 0 ? 1 % k : mode == 1 ? tu_below(rng, k) : 0;
        b[i] = tu_addmod(target[i], start[i] ? k - start[i] : 0, k);
    }
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, rows, cols, flags), TOGGLE_OK);
    toggle_solution *full =
        solve_with(g, k, start, target, howell ? TOGGLE_ENGINE_HOWELL : TU_ENGINE_PRIME);
    toggle_solution *ch = solve_with(g, k, start, target, TOGGLE_ENGINE_CHASE);
    char what[96];
    snprintf(what, sizeof what, "%zux%zu flags %u mod %llu mode %d", rows, cols,
             (unsigned)flags, (unsigned long long)k, mode);
    ck_assert_int_eq(toggle_solution_engine(ch), TOGGLE_ENGINE_CHASE);
    ck_assert_msg(toggle_solution_is_solvable(ch) == toggle_solution_is_solvable(full),
                  "%s: solvability differs", what);
    ck_assert_msg(toggle_solution_nullity(ch) == toggle_solution_nullity(full),
                  "%s: nullity %zu, elimination says %zu", what, toggle_solution_nullity(ch),
                  toggle_solution_nullity(full));
    for (size_t i = 0; i < toggle_solution_nullity(full); i++) {
        uint64_t r1 = 0, r2 = 0;
        ck_assert_int_eq(toggle_solution_radix(ch, i, &r1), TOGGLE_OK);
        ck_assert_int_eq(toggle_solution_radix(full, i, &r2), TOGGLE_OK);
        ck_assert_msg(r1 == r2, "%s: radix %zu differs", what, i);
    }
    char c1[1024], c2[1024];
    ck_assert_int_eq(toggle_solution_count_string(ch, c1, sizeof c1, NULL), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_count_string(full, c2, sizeof c2, NULL), TOGGLE_OK);
    ck_assert_msg(!strcmp(c1, c2), "%s: counts differ", what);
    compare_vectors(ch, full, n, what);
    const char *err;
    if (howell) {
        uint64_t *a = tu_grid_matrix(rows, cols, flags);
        tu_reduce(a, n * n, k);
        err = tu_verify(ch, a, b, n, n, k, SIZE_MAX);
        free(a);
    } else {
        err = verify(ch, rows, cols, self, k, b);
    }
    ck_assert_msg(!err, "%s: %s", what, err);
    if (!howell) {
        size_t pn;
        ck_assert_int_eq(toggle_grid_nullity(rows, cols, k, flags, &pn), TOGGLE_OK);
        ck_assert_msg(pn == toggle_solution_nullity(full), "%s: polynomial nullity %zu", what,
                      pn);
    }
    toggle_solution_free(full);
    toggle_solution_free(ch);
    toggle_graph_free(g);
    free(start);
    free(target);
    free(b);
}

static void cross_check(size_t rows, size_t cols, uint32_t flags, uint64_t k, tu_rng *rng)
{
    check_board(rows, cols, flags, k, rng, false);
}

static void composite_check(size_t rows, size_t cols, uint32_t flags, uint64_t k, tu_rng *rng)
{
    check_board(rows, cols, flags, k, rng, true);
}

static const uint64_t composites[] = {4, 6, 12, 8, 9, (uint64_t)1 << 32};

/* Every board up to 12 x 12, classic and no-self, over each modulus. */
static void every_small_board(const uint64_t *ks, size_t nk, bool howell, uint64_t salt)
{
    tu_rng rng = tu_rng_for(salt);
    for (size_t q = 0; q < nk; q++)
        for (size_t r = 1; r <= 12; r++)
            for (size_t c = 1; c <= 12; c++) {
                check_board(r, c, 0, ks[q], &rng, howell);
                check_board(r, c, TOGGLE_GRID_NO_SELF, ks[q], &rng, howell);
            }
}

START_TEST(composite_every_board_to_12)
{
    every_small_board(composites, sizeof composites / sizeof *composites, true, 47);
}
END_TEST

/* More moduli (several prime powers, squares of large primes, 2^62) on
 * random boards, and the singular shapes. */
START_TEST(composite_more_moduli)
{
    static const uint64_t ks[] = {10, 18, 25, 27, 36, 60, 72, 210, 1024, 2310,
                                  (uint64_t)1 << 62, 4294967295ull /* 3 5 17 257 65537 */,
                                  1000003ull * 1000003ull, 2ull * 1000003ull * 1000003ull};
    tu_rng rng = tu_rng_for(48);
    size_t iters = tu_iters(150);
    for (size_t i = 0; i < iters; i++) {
        size_t r = 1 + tu_below(&rng, 10), c = 1 + tu_below(&rng, 10);
        uint32_t flags = tu_below(&rng, 2) ? TOGGLE_GRID_NO_SELF : 0;
        composite_check(r, c, flags, ks[tu_below(&rng, sizeof ks / sizeof *ks)], &rng);
    }
    static const size_t shapes[][2] = {{4, 4}, {5, 5}, {9, 9}, {11, 11}, {3, 8}, {8, 3}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (size_t q = 0; q < 6; q++)
            composite_check(shapes[i][0], shapes[i][1], 0, ks[q], &rng);
}
END_TEST

/* TOGGLE_SYSTEM_OPT_THREADS: the chase runs column strips on the solve's threads;
 * 1, 2, 3 and 8 threads give identical answers (the rows must be wide
 * enough for the strips: 4 halos of 64 cells each per thread). */
static toggle_solution *solve_threads(const toggle_graph *g, uint64_t k, const uint64_t *start,
                                      unsigned threads)
{
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, k, start, NULL), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_CHASE),
                     TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, threads), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0), TOGGLE_OK);
    ck_assert_msg(toggle_solve(&sol, s) == TOGGLE_OK, "%s", toggle_last_error());
    toggle_system_free(s);
    return sol;
}

START_TEST(threads_identical)
{
    static const struct {
        size_t rows, cols;
        uint64_t k;
        uint32_t flags;
    } cases[] = {
        {600, 700, 2, 0}, {700, 600, 3, 0}, {520, 530, 5, TOGGLE_GRID_NO_SELF},
        {2100, 2100, 2, 0}, {2050, 2060, 3, 0}, {600, 800, 12, 0},
        {300, 900, (uint64_t)1 << 32, TOGGLE_GRID_NO_SELF}, {540, 700, 1000000007ull, 0},
        {623, 611, 2, TOGGLE_GRID_NO_SELF}, {599, 599, 7, 0}, {560, 560, 4, 0},
    };
    static const unsigned threads[] = {2, 3, 8};
    tu_rng rng = tu_rng_for(49);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t n = cases[c].rows * cases[c].cols;
        uint64_t k = cases[c].k;
        uint64_t *start = malloc(n * sizeof *start);
        for (size_t i = 0; i < n; i++)
            start[i] = tu_below(&rng, k);
        toggle_graph *g = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&g, cases[c].rows, cases[c].cols, cases[c].flags),
                         TOGGLE_OK);
        toggle_solution *one = solve_threads(g, k, start, 1);
        for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
            toggle_solution *many = solve_threads(g, k, start, threads[t]);
            char what[96];
            snprintf(what, sizeof what, "%zux%zu mod %llu, %u threads", cases[c].rows,
                     cases[c].cols, (unsigned long long)k, threads[t]);
            ck_assert_msg(toggle_solution_is_solvable(many) == toggle_solution_is_solvable(one),
                          "%s: solvability differs", what);
            ck_assert_msg(toggle_solution_nullity(many) == toggle_solution_nullity(one),
                          "%s: nullity differs", what);
            compare_vectors(many, one, n, what);
            toggle_solution_free(many);
        }
        toggle_solution_free(one);
        toggle_graph_free(g);
        free(start);
    }
}
END_TEST

/* Every board up to 24 x 24 (classic), over one prime per board in turn so
 * that every prime meets every shape class; the multiplier adds primes. */
START_TEST(every_board_to_24)
{
    tu_rng rng = tu_rng_for(41);
    size_t extra = tu_iters(1) - 1, i = 0;
    for (size_t r = 1; r <= 24; r++)
        for (size_t c = 1; c <= 24; c++, i++)
            for (size_t e = 0; e <= extra && e < NPRIMES; e++)
                cross_check(r, c, 0, primes[(i + e) % NPRIMES], &rng);
}
END_TEST

START_TEST(every_prime_small_boards)
{
    every_small_board(primes, NPRIMES, false, 42);
}
END_TEST

START_TEST(random_rectangles_to_40)
{
    tu_rng rng = tu_rng_for(43);
    size_t iters = tu_iters(60);
    for (size_t i = 0; i < iters; i++) {
        size_t r = 1 + tu_below(&rng, 40), c = 1 + tu_below(&rng, 40);
        uint32_t flags = tu_below(&rng, 2) ? TOGGLE_GRID_NO_SELF : 0;
        cross_check(r, c, flags, primes[tu_below(&rng, NPRIMES)], &rng);
    }
}
END_TEST

/* Boards chosen for large nullities (every prime, both variants). */
START_TEST(singular_boards)
{
    static const size_t shapes[][2] = {{4, 4}, {5, 5}, {9, 9}, {11, 11}, {19, 19}, {16, 16},
                                       {5, 17}, {17, 5}, {2, 2}, {24, 24}, {14, 4}, {3, 8}};
    tu_rng rng = tu_rng_for(44);
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (size_t q = 0; q < NPRIMES; q++)
            for (uint32_t f = 0; f < 2; f++)
                cross_check(shapes[s][0], shapes[s][1], f, primes[q], &rng);
}
END_TEST

/* ---- polynomial nullity against elimination ------------------------------ */

/* Nullity by the test's own chase: column j of the c x c matrix M is the
 * virtual row below the board when the first row is e_j and b = 0; the
 * nullity is c - rank M (rank by the test utilities' own elimination). */
static size_t chase_nullity(size_t rows, size_t cols, int self, uint64_t p)
{
    uint64_t *m = calloc(cols * cols, sizeof *m);
    uint64_t *prev = calloc(cols, sizeof *prev), *cur = calloc(cols, sizeof *cur);
    uint64_t *nxt = calloc(cols, sizeof *nxt);
    for (size_t j = 0; j < cols; j++) {
        memset(prev, 0, cols * sizeof *prev);
        memset(cur, 0, cols * sizeof *cur);
        cur[j] = 1;
        for (size_t r = 0; r < rows; r++) {
            for (size_t c = 0; c < cols; c++) {
                uint64_t t = prev[c];
                if (self)
                    t = tu_addmod(t, cur[c], p);
                if (c > 0)
                    t = tu_addmod(t, cur[c - 1], p);
                if (c + 1 < cols)
                    t = tu_addmod(t, cur[c + 1], p);
                nxt[c] = t ? p - t : 0; /* the press below cancels what row r has */
            }
            memcpy(prev, cur, cols * sizeof *cur);
            memcpy(cur, nxt, cols * sizeof *cur);
        }
        for (size_t c = 0; c < cols; c++)
            m[c * cols + j] = cur[c];
    }
    size_t d = cols - tu_rank(m, cols, cols, p);
    free(m);
    free(prev);
    free(cur);
    free(nxt);
    return d;
}

/* Every board up to 30 x 30 over every prime <= 13, classic and no-self:
 * toggle_grid_nullity (both orders) against elimination. Full elimination of
 * the rows*cols board (GF(2) engine for p = 2, FLINT else) on every board of
 * up to 400 cells and on a random 1/16 of the larger ones (all of them from
 * TOGGLE_TEST_MULTIPLIER >= 16); elimination of the test's own c x c chase
 * matrix on every board. */
START_TEST(poly_nullity_to_30)
{
    static const uint64_t ps[] = {2, 3, 5, 7, 11, 13};
    tu_rng rng = tu_rng_for(46);
    size_t share = tu_iters(1);
    for (size_t q = 0; q < 6; q++)
        for (uint32_t f = 0; f < 2; f++)
            for (size_t r = 1; r <= 30; r++)
                for (size_t c = 1; c <= 30; c++) {
                    size_t a, b, want = chase_nullity(r, c, !f, ps[q]);
                    ck_assert_int_eq(toggle_grid_nullity(r, c, ps[q], f, &a), TOGGLE_OK);
                    ck_assert_int_eq(toggle_grid_nullity(c, r, ps[q], f, &b), TOGGLE_OK);
                    ck_assert_msg(a == want && b == want,
                                  "%zux%zu flags %u mod %llu: polynomial %zu/%zu, chase "
                                  "matrix %zu", r, c, (unsigned)f, (unsigned long long)ps[q],
                                  a, b, want);
                    if (c < r || (r * c > 400 && tu_below(&rng, 16) >= share))
                        continue;
                    toggle_graph *g = NULL;
                    toggle_system *s = NULL;
                    toggle_solution *sol = NULL;
                    ck_assert_int_eq(toggle_graph_new_grid(&g, r, c, f), TOGGLE_OK);
                    ck_assert_int_eq(toggle_system_new(&s, g, ps[q], NULL, NULL), TOGGLE_OK);
                    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE,
                                             ps[q] == 2 ? TOGGLE_ENGINE_GF2 : TU_ENGINE_PRIME);
                    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
                    ck_assert_msg(a == toggle_solution_nullity(sol),
                                  "%zux%zu flags %u mod %llu: polynomial %zu, elimination %zu",
                                  r, c, (unsigned)f, (unsigned long long)ps[q], a,
                                  toggle_solution_nullity(sol));
                    tu_free_all(g, s, sol);
                }
}
END_TEST

/* OEIS A159257, the nullity of the n x n classic board over F_2, n = 1..100.
 * Provenance: generated once (tests/engine/chase/README.md) by chasing unit vectors
 * through each board to build the n x n last-row matrix and taking its rank
 * with a plain Gaussian elimination written for that run, cross-checked
 * against full FLINT elimination of the n^2 x n^2 board for n <= 40 and
 * against OEIS's own first terms 0,0,0,4,2,0,0,0,8,0,6,0,0,4,0,8,2,0,16,0. */
static const unsigned char a159257[100] = {
    0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0,
    0, 0, 14, 4, 0, 0, 0, 0, 10, 20, 0, 20, 16, 4, 6, 0, 0, 0, 32, 0,
    2, 0, 0, 4, 0, 0, 30, 0, 8, 8, 0, 0, 2, 4, 0, 0, 0, 0, 22, 0,
    40, 24, 0, 28, 42, 0, 32, 0, 8, 0, 14, 0, 0, 4, 0, 0, 2, 0, 64, 0,
    0, 0, 6, 12, 0, 0, 0, 0, 10, 0, 0, 20, 0, 4, 62, 0, 0, 20, 16, 0,
};

START_TEST(oeis_a159257)
{
    static const unsigned char first[20] = {0, 0, 0, 4, 2, 0, 0, 0, 8, 0,
                                            6, 0, 0, 4, 0, 8, 2, 0, 16, 0};
    ck_assert(!memcmp(first, a159257, 20));
    for (size_t n = 1; n <= 100; n++) {
        size_t d;
        ck_assert_int_eq(toggle_grid_nullity(n, n, 2, 0, &d), TOGGLE_OK);
        ck_assert_msg(d == a159257[n - 1], "n = %zu: nullity %zu, A159257 says %u", n, d,
                      a159257[n - 1]);
    }
    /* and the engine agrees on every one of them */
    for (size_t n = 1; n <= 100; n++) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        toggle_solution *sol = NULL;
        sol = tu_solve_grid(n, n, 0, 2, &g, &s);
        ck_assert_int_eq(toggle_solution_engine(sol), TOGGLE_ENGINE_CHASE);
        ck_assert_uint_eq(toggle_solution_nullity(sol), a159257[n - 1]);
        tu_free_all(g, s, sol);
    }
}
END_TEST

/* ---- known answers --------------------------------------------------------- */

START_TEST(known_3x3)
{
    static const char *want[3] = {"101010101", "020222020", "414121414"};
    static const uint64_t ks[3] = {2, 3, 5};
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 3, 0), TOGGLE_OK);
    for (int i = 0; i < 3; i++) {
        toggle_system *s = NULL;
        toggle_solution *sol = NULL;
        ck_assert_int_eq(toggle_system_new(&s, g, ks[i], NULL, NULL), TOGGLE_OK);
        ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
        ck_assert_int_eq(toggle_solution_engine(sol), TOGGLE_ENGINE_CHASE);
        uint64_t x[9];
        ck_assert_int_eq(toggle_solution_particular(sol, x, 9), TOGGLE_OK);
        for (int j = 0; j < 9; j++)
            ck_assert_uint_eq(x[j], (uint64_t)(want[i][j] - '0'));
        toggle_solution_free(sol);
        toggle_system_free(s);
    }
    toggle_graph_free(g);
}
END_TEST

START_TEST(strip_singular_iff_2_mod_3)
{
    for (size_t q = 0; q < NPRIMES; q++)
        for (size_t n = 1; n <= 60; n++) {
            size_t d1, d2;
            ck_assert_int_eq(toggle_grid_nullity(1, n, primes[q], 0, &d1), TOGGLE_OK);
            ck_assert_int_eq(toggle_grid_nullity(n, 1, primes[q], 0, &d2), TOGGLE_OK);
            ck_assert_uint_eq(d1, n % 3 == 2 ? 1 : 0);
            ck_assert_uint_eq(d2, d1);
        }
}
END_TEST

/* The first n characters of a published reference file (malloc'd). */
static char *read_reference(const char *name, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", TOGGLE_TEST_DATA_DIR, name);
    char *buf = malloc(n + 1);
    FILE *fp = fopen(path, "r");
    ck_assert_msg(buf && fp, "cannot open the reference data %s", path);
    ck_assert_uint_eq(fread(buf, 1, n, fp), n);
    fclose(fp);
    return buf;
}

/* The published first row of the 998 x 998 board over F_2 (all off to all on). */
START_TEST(published_998)
{
    const size_t n = 998;
    char *row = read_reference("lightsout-998-first-row.txt", n);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    sol = tu_solve_grid(n, n, 0, 2, &g, &s);
    ck_assert_int_eq(toggle_solution_engine(sol), TOGGLE_ENGINE_CHASE);
    ck_assert_uint_eq(toggle_solution_nullity(sol), 0);
    uint64_t *x = malloc(n * sizeof *x), words[16];
    ck_assert_int_eq(toggle_solution_particular_range(sol, 0, x, n), TOGGLE_OK);
    for (size_t j = 0; j < n; j++)
        ck_assert_msg(x[j] == (uint64_t)(row[j] - '0'), "column %zu differs", j);
    ck_assert_int_eq(toggle_solution_particular_packed(sol, 0, n, words, 16), TOGGLE_OK);
    for (size_t j = 0; j < n; j++)
        ck_assert_uint_eq((words[j / 64] >> (j % 64)) & 1, x[j]);
    /* the whole answer solves the board: checked row by row against presses */
    uint64_t *all = malloc(n * n * sizeof *all), *y = malloc(n * n * sizeof *y);
    ck_assert_int_eq(toggle_solution_particular(sol, all, n * n), TOGGLE_OK);
    press(n, n, 1, all, 2, y);
    for (size_t i = 0; i < n * n; i++)
        ck_assert_uint_eq(y[i], 1);
    free(all);
    free(y);
    free(x);
    free(row);
    tu_free_all(g, s, sol);
}
END_TEST

#ifdef TOGGLE_HAVE_FLINT /* without FLINT the small system is O(n^3): not at n = 10^4 */
/* The published first row of the 10000 x 10000 board: 10^8 cells, read back
 * row by row (the whole answer is never copied out), and the presses applied
 * three rows at a time: every one of the 10^8 cells must end up lit. */
START_TEST(published_10000)
{
    const size_t n = 10000;
    char *ref = read_reference("lightsout-10000-first-row.txt", n);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    sol = tu_solve_grid(n, n, 0, 2, &g, &s);
    ck_assert_int_eq(toggle_solution_engine(sol), TOGGLE_ENGINE_CHASE);
    ck_assert_uint_eq(toggle_solution_nullity(sol), 0);
    uint64_t *r0 = malloc(n * sizeof *r0), *r1 = malloc(n * sizeof *r1);
    ck_assert_int_eq(toggle_solution_particular_range(sol, 0, r0, n), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_particular_range(sol, n, r1, n), TOGGLE_OK);
    for (size_t j = 0; j < n; j++) {
        ck_assert_msg(r0[j] == (uint64_t)(ref[j] - '0'), "column %zu differs", j);
        uint64_t lit = r0[j] ^ r1[j] ^ (j ? r0[j - 1] : 0) ^ (j + 1 < n ? r0[j + 1] : 0);
        ck_assert_msg(lit == 1, "cell (0, %zu) is not lit", j);
    }
    /* and every row: stream three rows at a time and apply the presses */
    uint64_t *up = calloc(n, sizeof *up), *cur = r0, *down = r1;
    for (size_t r = 0; r < n; r++) {
        if (r + 1 < n)
            ck_assert_int_eq(toggle_solution_particular_range(sol, (r + 1) * n, down, n), 0);
        else
            memset(down, 0, n * sizeof *down);
        for (size_t j = 0; j < n; j++) {
            uint64_t lit = cur[j] ^ up[j] ^ down[j] ^ (j ? cur[j - 1] : 0)
                         ^ (j + 1 < n ? cur[j + 1] : 0);
            if (lit != 1)
                ck_abort_msg("cell (%zu, %zu) is not lit", r, j);
        }
        uint64_t *t = up;
        up = cur;
        cur = down;
        down = t;
    }
    free(up);
    free(cur);
    free(down);
    free(ref);
    tu_free_all(g, s, sol);
}
END_TEST
#endif

/* Packed readout equals the unpacked range at every offset and length. */
START_TEST(packed_readout)
{
    tu_rng rng = tu_rng_for(45);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    size_t rows = 37, cols = 71, n = rows * cols;
    uint64_t *x = malloc(n * sizeof *x), words[64];
    /* the pattern game is always solvable over F_2 (Sutner) */
    sol = tu_solve_grid(rows, cols, 0, 2, &g, &s);
    ck_assert_int_eq(toggle_solution_particular(sol, x, n), TOGGLE_OK);
    for (size_t it = 0; it < 500; it++) {
        size_t off = tu_below(&rng, n), len = tu_below(&rng, n - off + 1);
        if (len > 64 * 64)
            len = 64 * 64;
        memset(words, 0xff, sizeof words);
        ck_assert_int_eq(toggle_solution_particular_packed(sol, off, len, words, 64), TOGGLE_OK);
        for (size_t j = 0; j < len; j++)
            ck_assert_uint_eq((words[j / 64] >> (j % 64)) & 1, x[off + j]);
        if (len % 64)
            ck_assert_uint_eq(words[len / 64] >> (len % 64), 0);
    }
    free(x);
    tu_free_all(g, s, sol);
}
END_TEST

/* Torus and Moore boards: AUTO falls back to elimination, a forced chase is
 * refused, and the nullity helper answers by elimination. */
START_TEST(torus_falls_back)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    sol = tu_solve_grid(5, 5, TOGGLE_GRID_TORUS, 2, &g, &s);
    ck_assert_int_ne(toggle_solution_engine(sol), TOGGLE_ENGINE_CHASE);
    size_t d;
    ck_assert_int_eq(toggle_grid_nullity(5, 5, 2, TOGGLE_GRID_TORUS, &d), TOGGLE_OK);
    ck_assert_uint_eq(d, toggle_solution_nullity(sol));
    toggle_solution_free(sol);
    sol = NULL;
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_CHASE);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_EUNSUPPORTED);
    ck_assert_ptr_null(sol);
    tu_free_all(g, s, NULL);
    /* composite moduli go to the chase engine (AUTO) unless the modulus
     * does not factor quickly (two primes over 2^16: AUTO takes Howell) */
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 3, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 4, NULL, NULL), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_engine(sol), TOGGLE_ENGINE_CHASE);
    tu_free_all(NULL, s, sol);
    sol = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, 1000003ull * 1000033ull, NULL, NULL), TOGGLE_OK);
    toggle_clear_error();
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_engine(sol), TOGGLE_ENGINE_HOWELL);
    ck_assert_str_eq(toggle_last_error(), "");
    tu_free_all(NULL, s, sol);
    sol = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, 1000003ull * 1000033ull, NULL, NULL), TOGGLE_OK);
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_CHASE);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_EUNSUPPORTED);
    tu_free_all(g, s, NULL);
    uint64_t a[4] = {1, 1, 0, 1}, b[2] = {1, 0};
    ck_assert_int_eq(toggle_system_new_matrix(&s, 2, 2, a, b, 2), TOGGLE_OK);
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_CHASE);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_EUNSUPPORTED);
    tu_free_all(NULL, s, NULL);
}
END_TEST

START_TEST(misuse)
{
    size_t d;
    ck_assert_int_eq(toggle_grid_nullity(3, 3, 2, 0, NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_grid_nullity(0, 3, 2, 0, &d), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_grid_nullity(3, 0, 2, 0, &d), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_grid_nullity(3, 3, 1, 0, &d), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_grid_nullity(3, 3, 2, 64, &d), TOGGLE_EINVAL);
    /* composite k (1.1.0): the Howell rows, as the forced Howell engine */
    ck_assert_int_eq(toggle_grid_nullity(3, 3, 4, 0, &d), TOGGLE_OK);
    ck_assert_int_eq(toggle_grid_nullity(3, 3, UINT64_MAX, 0, &d), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_grid_nullity(SIZE_MAX, 3, 2, 0, &d), TOGGLE_EOVERFLOW);
    ck_assert_int_eq(toggle_grid_nullity((size_t)1 << 40, 1, 2, 0, &d), TOGGLE_ENOMEM);

    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t w[2];
    ck_assert_int_eq(toggle_solution_particular_packed(NULL, 0, 1, w, 2), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_graph_new_grid(&g, 2, 2, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 3, NULL, NULL), TOGGLE_OK); /* unsolvable mod 3 */
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_particular_packed(sol, 0, 1, w, 2), TOGGLE_EUNSUPPORTED);
    tu_free_all(NULL, s, sol);
    sol = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, NULL), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_particular_packed(sol, 0, 4, NULL, 1), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_solution_particular_packed(sol, 3, 2, w, 2), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_solution_particular_packed(sol, SIZE_MAX, 2, w, 2), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_solution_particular_packed(sol, 0, 4, w, 0), TOGGLE_EBUFSIZE);
    ck_assert_int_eq(toggle_solution_particular_packed(sol, 0, 0, NULL, 0), TOGGLE_OK);
    tu_free_all(g, s, sol);
    /* unsolvable over F_3: 2 x 2 pattern game */
    ck_assert_int_eq(toggle_graph_new_grid(&g, 2, 2, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 3, NULL, NULL), TOGGLE_OK);
    sol = NULL;
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_is_solvable(sol), 0);
    ck_assert_int_eq(toggle_solution_particular_packed(sol, 0, 1, w, 2), TOGGLE_EUNSUPPORTED);
    tu_free_all(g, s, sol);
}
END_TEST

/* A memory budget too small for the answer is refused before any work. */
START_TEST(budget_refused)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 100, 100, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 3, NULL, NULL), TOGGLE_OK);
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 10000);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_ENOMEM);
    ck_assert_ptr_null(sol);
    tu_free_all(g, s, NULL);
}
END_TEST

static Suite *grid_suite(void)
{
    Suite *s = suite_create("grid");
    /* one case per test, so that CK_RUN_CASE can pick one */
#define GRID_CASE(fn)                          \
    do {                                       \
        TCase *tc = tcase_create(#fn);         \
        tcase_set_timeout(tc, 600);            \
        tcase_add_test(tc, fn);                \
        suite_add_tcase(s, tc);                \
    } while (0)
    GRID_CASE(known_3x3);
    GRID_CASE(strip_singular_iff_2_mod_3);
    GRID_CASE(every_board_to_24);
    GRID_CASE(composite_every_board_to_12);
    GRID_CASE(composite_more_moduli);
    GRID_CASE(threads_identical);
    GRID_CASE(every_prime_small_boards);
    GRID_CASE(random_rectangles_to_40);
    GRID_CASE(singular_boards);
    GRID_CASE(poly_nullity_to_30);
    GRID_CASE(oeis_a159257);
    GRID_CASE(published_998);
#ifdef TOGGLE_HAVE_FLINT
    GRID_CASE(published_10000);
#endif
    GRID_CASE(packed_readout);
    GRID_CASE(torus_falls_back);
    GRID_CASE(misuse);
    GRID_CASE(budget_refused);
    return s;
}

int main(void)
{
    tu_seed();
    SRunner *sr = srunner_create(grid_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
