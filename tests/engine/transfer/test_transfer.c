/* The transfer engine (TOGGLE_ENGINE_TRANSFER) against full elimination (the
 * FLINT engine forced): identical canonical answers (solvability, nullity,
 * particular solution, kernel basis, certificate) on every board up to
 * 12 x 12 of every lattice (square, Moore, hex, tri), wrap (none, torus,
 * cylinder), with and without self, over 2, 3, 5, 7 and a large prime, with
 * random start and target; random stencils with wraps. Every answer is also
 * checked against this suite's own neighbourhood model (tests/common:
 * tu_grid_neighbours, written from the documented conventions). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const uint64_t primes[] = {2, 3, 5, 7, 1000000007ull};
#define NPRIMES (sizeof primes / sizeof *primes)

/* Solve s with engine e; NULL when the engine declines (EUNSUPPORTED). */
static toggle_solution *solve_with(toggle_system *s, int e)
{
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_OPT_ENGINE, (uint64_t)e), TOGGLE_OK);
    int rc = toggle_solve(&sol, s);
    if (rc == TOGGLE_EUNSUPPORTED)
        return NULL;
    ck_assert_msg(rc == TOGGLE_OK, "engine %d: %s", e, toggle_last_error());
    return sol;
}

/* The two answers are identical; returns NULL or a message. */
static const char *same_answers(const toggle_solution *a, const toggle_solution *b, size_t n)
{
    if (toggle_solution_is_solvable(a) != toggle_solution_is_solvable(b))
        return "solvability differs";
    size_t d = toggle_solution_nullity(a);
    if (d != toggle_solution_nullity(b))
        return "nullity differs";
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    const char *err = NULL;
    if (toggle_solution_is_solvable(a) == 1) {
        toggle_solution_particular(a, x, n);
        toggle_solution_particular(b, y, n);
        if (memcmp(x, y, n * sizeof *x))
            err = "particular solution differs";
    } else {
        toggle_solution_certificate(a, x, n);
        toggle_solution_certificate(b, y, n);
        if (memcmp(x, y, n * sizeof *x))
            err = "certificate differs";
    }
    for (size_t i = 0; i < d && !err; i++) {
        toggle_solution_kernel_vector(a, i, x, n);
        toggle_solution_kernel_vector(b, i, y, n);
        if (memcmp(x, y, n * sizeof *x))
            err = "kernel vector differs";
    }
    free(x);
    free(y);
    return err;
}

static size_t handled, declined;

/* One board: transfer vs FLINT, both verified against the own model. */
static void check_board(size_t rows, size_t cols, uint32_t flags, uint64_t k, tu_rng *rng)
{
    size_t n = rows * cols;
    uint64_t *a = tu_grid_matrix(rows, cols, flags);
    uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg), *b = malloc(n * sizeof *b);
    int mode = (int)tu_below(rng, 3); /* random; all on; reachable */
    for (size_t i = 0; i < n; i++) {
        st[i] = tu_below(rng, k);
        tg[i] = mode == 1 ? 1 % k : tu_below(rng, k);
    }
    if (mode == 2) { /* a reachable target: t = s + A x */
        uint64_t *x = malloc(n * sizeof *x);
        for (size_t i = 0; i < n; i++)
            x[i] = tu_below(rng, k);
        tu_apply(a, n, n, x, k, tg);
        for (size_t i = 0; i < n; i++)
            tg[i] = tu_addmod(tg[i], st[i], k);
        free(x);
    }
    for (size_t i = 0; i < n; i++)
        b[i] = tu_addmod(tg[i], k - st[i], k);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, rows, cols, flags), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, k, st, tg), TOGGLE_OK);
    toggle_solution *ref = solve_with(s, TOGGLE_ENGINE_FLINT);
    toggle_solution *got = solve_with(s, TOGGLE_ENGINE_TRANSFER);
    ck_assert_ptr_nonnull(ref);
    const char *err = tu_verify(ref, a, b, n, n, k, SIZE_MAX);
    ck_assert_msg(!err, "flint %zux%zu flags 0x%x k=%llu: %s", rows, cols, (unsigned)flags,
                  (unsigned long long)k, err);
    if (got) {
        handled++;
        err = tu_verify(got, a, b, n, n, k, toggle_solution_nullity(ref));
        if (!err)
            err = same_answers(got, ref, n);
        ck_assert_msg(!err, "transfer %zux%zu flags 0x%x k=%llu: %s (seed %llu)", rows, cols,
                      (unsigned)flags, (unsigned long long)k, err,
                      (unsigned long long)tu_seed());
    } else {
        declined++;
    }
    toggle_solution_free(got);
    toggle_solution_free(ref);
    toggle_system_free(s);
    toggle_graph_free(g);
    free(a);
    free(st);
    free(tg);
    free(b);
}

static void all_boards(uint32_t lattice, size_t maxside)
{
    tu_rng rng = tu_rng_for(lattice + 17);
    static const uint32_t wraps[] = {0, TOGGLE_GRID_TORUS, TOGGLE_GRID_CYLINDER};
    handled = declined = 0;
    for (size_t w = 0; w < 3; w++)
        for (uint32_t ns = 0; ns <= TOGGLE_GRID_NO_SELF; ns++)
            for (size_t q = 0; q < NPRIMES; q++)
                for (size_t r = 1; r <= maxside; r++)
                    for (size_t c = 1; c <= maxside; c++)
                        check_board(r, c, lattice | wraps[w] | ns, primes[q], &rng);
    printf("lattice 0x%x: transfer solved %zu boards, declined %zu\n", (unsigned)lattice,
           handled, declined);
}

START_TEST(square_all_boards) { all_boards(0, 12); }
END_TEST
START_TEST(hex_all_boards) { all_boards(TOGGLE_GRID_HEX, 12); }
END_TEST
START_TEST(tri_all_boards) { all_boards(TOGGLE_GRID_TRI, 12); }
END_TEST
START_TEST(moore_all_boards) { all_boards(TOGGLE_GRID_MOORE, 12); }
END_TEST

/* Random stencils (offsets within 2 rows and columns, random weights) with
 * every wrap: transfer against FLINT on the stencil's own dense matrix. */
START_TEST(random_stencils)
{
    tu_rng rng = tu_rng_for(99);
    size_t tried = 0, got_n = 0;
    for (size_t it = 0; it < tu_iters(300); it++) {
        size_t rows = 1 + tu_below(&rng, 9), cols = 1 + tu_below(&rng, 9), n = rows * cols;
        uint64_t k = primes[tu_below(&rng, NPRIMES)];
        uint32_t flags = (uint32_t[]){0, TOGGLE_GRID_TORUS, TOGGLE_GRID_CYLINDER}[tu_below(&rng, 3)];
        size_t cnt = 1 + tu_below(&rng, 6);
        int64_t dr[8], dc[8];
        uint64_t w[8];
        for (size_t s = 0; s < cnt; s++) {
            long mr = rows > 2 ? 2 : (long)rows - 1, mc = cols > 2 ? 2 : (long)cols - 1;
            dr[s] = (int64_t)tu_below(&rng, (uint64_t)(2 * mr + 1)) - mr;
            dc[s] = (int64_t)tu_below(&rng, (uint64_t)(2 * mc + 1)) - mc;
            w[s] = tu_below(&rng, 4) ? 1 : tu_below(&rng, k);
        }
        /* a lead entry with unit weight makes the chase possible more often */
        if (tu_below(&rng, 2)) {
            dr[cnt] = rows > 1 ? -1 : 0;
            dc[cnt] = 0;
            w[cnt++] = 1;
        }
        /* the test's own dense matrix */
        uint64_t *a = calloc(n * n, sizeof *a), *b = malloc(n * sizeof *b);
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < cols; c++)
                for (size_t s = 0; s < cnt; s++) {
                    long rr = (long)r + dr[s], cc = (long)c + dc[s];
                    if (flags & TOGGLE_GRID_TORUS)
                        rr = (rr + (long)rows) % (long)rows;
                    if (flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER))
                        cc = (cc + (long)cols) % (long)cols;
                    if (rr < 0 || cc < 0 || rr >= (long)rows || cc >= (long)cols)
                        continue;
                    size_t i = (size_t)rr * cols + (size_t)cc;
                    a[i * n + r * cols + c] = (a[i * n + r * cols + c] + w[s]) % k;
                }
        for (size_t i = 0; i < n; i++)
            b[i] = tu_below(&rng, k);
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_graph_new_stencil(&g, rows, cols, dr, dc, w, cnt, flags),
                         TOGGLE_OK);
        ck_assert_int_eq(toggle_system_new(&s, g, k, NULL, b), TOGGLE_OK);
        toggle_solution *ref = solve_with(s, TOGGLE_ENGINE_FLINT);
        toggle_solution *got = solve_with(s, TOGGLE_ENGINE_TRANSFER);
        tried++;
        if (got) {
            got_n++;
            const char *err = tu_verify(got, a, b, n, n, k, toggle_solution_nullity(ref));
            if (!err)
                err = same_answers(got, ref, n);
            ck_assert_msg(!err, "stencil %zux%zu flags %u k=%llu count %zu: %s (seed %llu)",
                          rows, cols, (unsigned)flags, (unsigned long long)k, cnt, err,
                          (unsigned long long)tu_seed());
        }
        toggle_solution_free(got);
        toggle_solution_free(ref);
        toggle_system_free(s);
        toggle_graph_free(g);
        free(a);
        free(b);
    }
    printf("random stencils: transfer solved %zu of %zu\n", got_n, tried);
    ck_assert_uint_gt(got_n, tried / 4);
}
END_TEST

/* Buchholz: the (n + 1) x (n + 1) square torus over F_2 has nullity
 * 2 d(n) + 4 [n = 2 mod 3], d(n) the classic n x n nullity (A159257), which
 * the polynomial route computes; the torus goes through the transfer engine. */
START_TEST(torus_buchholz_formula)
{
    for (size_t n = 2; n <= 120; n++) {
        size_t d = 0, t = 0;
        ck_assert_int_eq(toggle_grid_nullity(n, n, 2, 0, &d), TOGGLE_OK);
        ck_assert_int_eq(toggle_grid_nullity(n + 1, n + 1, 2, TOGGLE_GRID_TORUS, &t), TOGGLE_OK);
        ck_assert_msg(t == 2 * d + (n % 3 == 2 ? 4 : 0), "torus %zu: nullity %zu, formula %zu",
                      n + 1, t, 2 * d + (n % 3 == 2 ? 4 : 0));
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("transfer");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, square_all_boards);
    tcase_add_test(tc, hex_all_boards);
    tcase_add_test(tc, tri_all_boards);
    tcase_add_test(tc, moore_all_boards);
    tcase_add_test(tc, random_stencils);
    tcase_add_test(tc, torus_buchholz_formula);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return tu_run(suite());
}
