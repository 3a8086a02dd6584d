/* The transfer engine's separable route (lib/engine/transfer/kron.c: Moore
 * boards with self, A = T_R (x) T_C) against the lanes path (forced by
 * calling it, or forced FLINT on boards of at most 1024 cells where the
 * lanes path has no frame or the answer is unsolvable) on Moore boards of
 * 1 to 201 a side, every wrap, over 2, 3, 5, 7 and 10^9 + 7, with
 * random start and target (or a reachable target): identical canonical
 * answers (solvability, nullity, particular solution, every kernel vector,
 * the certificate), each answer also checked by this suite's own
 * neighbourhood model (tu_grid_neighbours, from the documented
 * conventions), and the public nullity (by the factors' ranks) equal to the
 * solve's; that the route serves exactly the Moore boards with self and
 * that AUTO takes it. The small boards (every Moore board up to 12 x 12,
 * every wrap, with and without self, eight primes, against forced FLINT)
 * are in test_transfer.c: the engine forced there takes this route.
 * Seeds: TOGGLE_TEST_SEED, printed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/transfer/kron.h"
#include "engine/transfer/ring.h"
#include "testutil.h"
#include "tu_engine.h"

static const uint64_t primes[] = {2, 3, 5, 7, 1000000007ull};
#define NPRIMES (sizeof primes / sizeof *primes)

/* The reference: the lanes path, or forced FLINT (small boards) where the
 * lanes path has no frame; NULL when neither serves. */
static toggle_solution *reference(toggle_system *s)
{
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle__solution_new(&sol, s, TOGGLE_ENGINE_TRANSFER), TOGGLE_OK);
    tu_quiet_begin();
    int rc = toggle__transfer_lanes_solve(s, sol);
    tu_quiet_end();
    if (rc == TOGGLE_OK) {
        if (toggle_solution_is_solvable(sol) == 0) { /* the policy's certificate */
            toggle_solution_free(sol);
            sol = NULL;
            goto flint;
        }
        return sol;
    }
    ck_assert_msg(rc == TOGGLE_EUNSUPPORTED, "lanes: %s", toggle_last_error());
    toggle_solution_free(sol);
    sol = NULL;
flint:
    if (toggle_system_cols(s) > 1024)
        return NULL;
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TU_ENGINE_PRIME), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    return sol;
}

static size_t compared;

/* One board: the route (the engine forced) against the reference. */
/* mode: 0 a random target, 1 a reachable one, -1 either at random */
static void check_board(size_t R, size_t C, uint32_t flags, uint64_t k, int mode, tu_rng *rng)
{
    size_t n = R * C;
    uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg);
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    uint64_t *z = malloc(n * sizeof *z), *b = malloc(n * sizeof *b);
    if (mode < 0)
        mode = (int)tu_below(rng, 2);
    for (size_t i = 0; i < n; i++) {
        st[i] = tu_below(rng, k);
        x[i] = tu_below(rng, k);
    }
    tu_grid_apply(R, C, flags, x, k, tg);
    for (size_t i = 0; i < n; i++) {
        tg[i] = mode ? tu_addmod(tg[i], st[i], k) : tu_below(rng, k);
        b[i] = tu_addmod(tg[i], k - st[i], k);
    }
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, R, C, flags), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, k, st, tg), TOGGLE_OK);
    ck_assert(toggle__transfer_kron_applies(s));
    toggle_solution *got = NULL;
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_TRANSFER),
                     TOGGLE_OK);
    ck_assert_msg(toggle_solve(&got, s) == TOGGLE_OK, "%s", toggle_last_error());
    toggle_solution *ref = reference(s);
    const char *why = NULL;
    char where[160];
    snprintf(where, sizeof where, "Moore %zux%zu flags 0x%x mod %llu (seed %llu)", R, C,
             (unsigned)flags, (unsigned long long)k, (unsigned long long)tu_seed());
    int sv = toggle_solution_is_solvable(got);
    size_t d = toggle_solution_nullity(got), dn = 0;
    ck_assert_msg(mode == 0 || sv == 1, "%s: a reachable target unsolvable", where);
    ck_assert_int_eq(toggle_grid_nullity(R, C, k, flags, &dn), TOGGLE_OK);
    ck_assert_msg(d == dn, "%s: nullity %zu, toggle_grid_nullity %zu", where, d, dn);
    if (ref) {
        compared++;
        ck_assert_msg(sv == toggle_solution_is_solvable(ref), "%s: solvability", where);
        ck_assert_msg(d == toggle_solution_nullity(ref), "%s: nullity %zu, reference %zu", where,
                      d, toggle_solution_nullity(ref));
    }
    if (sv == 1) {
        toggle_solution_particular(got, x, n);
        tu_grid_apply(R, C, flags, x, k, z);
        if (memcmp(z, b, n * sizeof *z))
            why = "particular solution does not solve (own model)";
        if (!why && ref) {
            toggle_solution_particular(ref, y, n);
            if (memcmp(x, y, n * sizeof *x))
                why = "particular solution differs";
        }
    } else {
        /* y A = 0 (A symmetric: A y = 0) and y.b = 1 */
        ck_assert_int_eq(toggle_solution_certificate(got, x, n), TOGGLE_OK);
        tu_grid_apply(R, C, flags, x, k, z);
        uint64_t yb = 0;
        for (size_t j = 0; j < n; j++) {
            yb = tu_addmod(yb, tu_mulmod(x[j], b[j], k), k);
            if (z[j] && !why)
                why = "certificate: y A != 0 (own model)";
        }
        if (!why && yb != 1)
            why = "certificate: y.b != 1";
        if (!why && ref) {
            toggle_solution_certificate(ref, y, n);
            if (memcmp(x, y, n * sizeof *x))
                why = "certificate differs";
        }
    }
    for (size_t i = 0; i < d && !why; i++) {
        toggle_solution_kernel_vector(got, i, x, n);
        tu_grid_apply(R, C, flags, x, k, z);
        for (size_t j = 0; j < n && !why; j++)
            if (z[j])
                why = "kernel vector not in the kernel (own model)";
        if (!why && ref) {
            toggle_solution_kernel_vector(ref, i, y, n);
            if (memcmp(x, y, n * sizeof *x))
                why = "kernel vector differs";
        }
    }
    ck_assert_msg(!why, "%s: %s", where, why);
    toggle_solution_free(got);
    toggle_solution_free(ref);
    toggle_system_free(s);
    toggle_graph_free(g);
    free(st);
    free(tg);
    free(x);
    free(y);
    free(z);
    free(b);
}

static const uint32_t wraps[] = {0, TOGGLE_GRID_TORUS, TOGGLE_GRID_CYLINDER};

/* Random boards of 13..48 a side, and shapes of every factor kind: both
 * factors singular (sides 2 mod 3: kernel vectors spread over the board),
 * circulant factors of nullity 2 (3 divides the side), 1 and 2 wide. */
START_TEST(kron_against_reference)
{
    tu_rng rng = tu_rng_for(1402);
    compared = 0;
    size_t cases = 0;
    static const size_t fixed[][2] = {{41, 44}, {30, 33}, {33, 30}, {1, 50}, {50, 1}, {2, 47},
                                      {47, 2}, {2, 2}, {1, 1}, {3, 3}, {20, 3}, {50, 50}};
    for (size_t q = 0; q < NPRIMES; q++)
        for (size_t w = 0; w < 3; w++) {
            for (int rep = 0; rep < 2; rep++, cases++)
                check_board(13 + (size_t)tu_below(&rng, 36), 13 + (size_t)tu_below(&rng, 36),
                            TOGGLE_GRID_MOORE | wraps[w], primes[q], -1, &rng);
            for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++, cases++)
                if ((i + q + w) % 3 == 0 || fixed[i][0] * fixed[i][1] <= 100)
                    check_board(fixed[i][0], fixed[i][1], TOGGLE_GRID_MOORE | wraps[w],
                                primes[q], -1, &rng);
        }
    fprintf(stderr, "kron against the reference: %zu boards, %zu compared (seed %llu)\n", cases,
            compared, (unsigned long long)tu_seed());
    ck_assert_uint_ge(compared, cases / 2);
}
END_TEST

/* Near the benchmark's shape at half size: 200 x 201 over F_3 (T_200
 * singular, nullity 201, every kernel vector on one board column), against
 * the lanes path, and 80 x 80 open over F_2 (both factors singular: nullity 159). */
START_TEST(kron_large_nullity)
{
    tu_rng rng = tu_rng_for(1403);
    compared = 0;
    check_board(200, 201, TOGGLE_GRID_MOORE, 3, 1, &rng);
    check_board(80, 80, TOGGLE_GRID_MOORE, 2, 1, &rng);
    ck_assert_uint_eq(compared, 2);
}
END_TEST

/* The route serves the Moore boards with self (every wrap, primes), not
 * without self, not composite k; AUTO picks the transfer engine there. */
START_TEST(auto_takes_kron)
{
    static const struct {
        uint32_t flags;
        uint64_t k;
        bool kron;
    } cases[] = {
        {TOGGLE_GRID_MOORE, 3, true},
        {TOGGLE_GRID_MOORE | TOGGLE_GRID_TORUS, 2, true},
        {TOGGLE_GRID_MOORE | TOGGLE_GRID_CYLINDER, 7, true},
        {TOGGLE_GRID_MOORE | TOGGLE_GRID_NO_SELF, 3, false},
        {TOGGLE_GRID_MOORE, 12, false},
        {TOGGLE_GRID_TORUS, 3, false},
        {TOGGLE_GRID_HEX, 3, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&g, 90, 95, cases[i].flags), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_new(&s, g, cases[i].k, NULL, NULL), TOGGLE_OK);
        ck_assert(toggle__transfer_kron_applies(s) == cases[i].kron);
        if (cases[i].kron) {
            toggle_solution *sol = NULL;
            ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
            ck_assert_int_eq(toggle_solution_engine(sol), TOGGLE_ENGINE_TRANSFER);
            toggle_solution_free(sol);
        }
        toggle_system_free(s);
        toggle_graph_free(g);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("kron");
    TCase *tc = tcase_create("kron");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, kron_against_reference);
    tcase_add_test(tc, kron_large_nullity);
    tcase_add_test(tc, auto_takes_kron);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
