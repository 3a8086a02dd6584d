/* The transfer engine's ring route (lib/engine/transfer/ring.c: the square
 * torus by rows in F_p[y]/(y^C - 1)) against its lanes path (forced by
 * calling it) on random tori
 * of 30..80 cells a side over eight primes (identical canonical answers:
 * solvability, nullity, particular solution, every kernel vector; each
 * answer also checked by this suite's own neighbourhood model,
 * tu_grid_neighbours), that AUTO takes the ring route on the torus, and
 * the packed F_2 torus nullity against FLINT's (rectangular boards, with
 * and without self). The small boards (every torus up to 12 x 12 against
 * forced FLINT) are in test_transfer.c: the engine forced there takes the
 * ring route. Seeds: TOGGLE_TEST_SEED, printed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/flint/poly.h"
#include "engine/transfer/ring.h"
#include "testutil.h"

static const uint64_t primes[] = {2, 3, 5, 7, 101, 32749, 1000000007ull, 2305843009213693951ull};
#define NPRIMES (sizeof primes / sizeof *primes)

/* s solved by the transfer engine's lanes path (no ring route). */
static toggle_solution *lanes_solve(const toggle_system *s)
{
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle__solution_new(&sol, s, TOGGLE_ENGINE_TRANSFER), TOGGLE_OK);
    int rc = toggle__transfer_lanes_solve(s, sol);
    ck_assert_msg(rc == TOGGLE_OK, "lanes: %s", toggle_last_error());
    return sol;
}

/* One torus: the ring route (the engine forced) against the lanes path. */
static void check_torus(size_t R, size_t C, uint32_t flags, uint64_t k, tu_rng *rg)
{
    tu_rng rng = *rg;
    size_t n = R * C;
    uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg);
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    uint64_t *z = malloc(n * sizeof *z), *b = malloc(n * sizeof *b);
    int mode = (int)tu_below(&rng, 2); /* random target, or a reachable one */
    for (size_t i = 0; i < n; i++) {
        st[i] = tu_below(&rng, k);
        x[i] = tu_below(&rng, k);
    }
    tu_grid_apply(R, C, flags, x, k, tg);
    for (size_t i = 0; i < n; i++) {
        if (!mode)
            tg[i] = tu_below(&rng, k);
        else
            tg[i] = tu_addmod(tg[i], st[i], k);
        b[i] = tu_addmod(tg[i], k - st[i], k);
    }
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, R, C, flags), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, k, st, tg), TOGGLE_OK);
    ck_assert(toggle__transfer_ring_applies(s));
    /* the engine forced takes the ring route (ring_applies) */
    toggle_solution *ring = NULL, *lanes = lanes_solve(s);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_OPT_ENGINE,
                                              TOGGLE_ENGINE_TRANSFER), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&ring, s), TOGGLE_OK);
    const char *why = NULL;
    char where[160];
    snprintf(where, sizeof where, "%zux%zu%s mod %llu (seed %llu)", R, C,
             (flags & TOGGLE_GRID_NO_SELF) ? " no-self" : "", (unsigned long long)k,
             (unsigned long long)tu_seed());
    int sv = toggle_solution_is_solvable(ring);
    ck_assert_msg(sv == toggle_solution_is_solvable(lanes), "%s: solvability", where);
    ck_assert_msg(mode == 0 || sv == 1, "%s: a reachable target unsolvable", where);
    size_t d = toggle_solution_nullity(ring);
    ck_assert_msg(d == toggle_solution_nullity(lanes), "%s: nullity %zu, lanes %zu",
                  where, d, toggle_solution_nullity(lanes));
    size_t dn = 0;
    ck_assert_int_eq(toggle_grid_nullity(R, C, k, flags, &dn), TOGGLE_OK);
    ck_assert_msg(d == dn, "%s: nullity %zu, formula %zu", where, d, dn);
    if (sv == 1) {
        toggle_solution_particular(ring, x, n);
        toggle_solution_particular(lanes, y, n);
        if (memcmp(x, y, n * sizeof *x))
            why = "particular solution differs";
        tu_grid_apply(R, C, flags, x, k, z);
        if (!why && memcmp(z, b, n * sizeof *z))
            why = "particular solution does not solve (own model)";
    } /* (the certificate is the policy's, made from the kernel compared below) */
    for (size_t i = 0; i < d && !why; i++) {
        toggle_solution_kernel_vector(ring, i, x, n);
        toggle_solution_kernel_vector(lanes, i, y, n);
        if (memcmp(x, y, n * sizeof *x))
            why = "kernel vector differs";
        tu_grid_apply(R, C, flags, x, k, z);
        for (size_t j = 0; j < n && !why; j++)
            if (z[j])
                why = "kernel vector not in the kernel (own model)";
    }
    ck_assert_msg(!why, "%s: %s", where, why);
    toggle_solution_free(ring);
    toggle_solution_free(lanes);
    toggle_system_free(s);
    toggle_graph_free(g);
    free(st);
    free(tg);
    free(x);
    free(y);
    free(z);
    free(b);
    *rg = rng;
}

START_TEST(ring_against_lanes)
{
    tu_rng rng = tu_rng_for(1401);
    size_t cases = 0;
    for (size_t q = 0; q < NPRIMES; q++)
        for (int rep = 0; rep < 4; rep++) {
            uint64_t k = primes[q];
            size_t R = 30 + (size_t)tu_below(&rng, 51), C = 30 + (size_t)tu_below(&rng, 51);
            if (rep == 0)
                R = C = k == 2 ? 30 + 6 * (size_t)tu_below(&rng, 8) : R; /* big kernels */
            uint32_t flags = (rep == 3 ? TOGGLE_GRID_CYLINDER : TOGGLE_GRID_TORUS) |
                             (tu_below(&rng, 2) ? TOGGLE_GRID_NO_SELF : 0);
            check_torus(R, C, flags, k, &rng);
            cases++;
        }
    /* F_2, larger: the CRT split with A = h (no-self, nullity 2C), a power
     * of two, odd sides */
    static const struct {
        size_t r, c;
        uint32_t flags;
    } f2[] = {{128, 128, 0}, {96, 100, TOGGLE_GRID_NO_SELF}, {250, 250, 0}, {192, 64, 0},
              {255, 257, 0}, {120, 120, TOGGLE_GRID_NO_SELF}, {4, 200, 0}, {200, 3, 0}};
    for (size_t i = 0; i < sizeof f2 / sizeof *f2; i++, cases++)
        check_torus(f2[i].r, f2[i].c, TOGGLE_GRID_TORUS | f2[i].flags, 2, &rng);
    /* cylinders over F_2 and F_3: 2 rows, wide, square, no-self */
    static const struct {
        size_t r, c;
        uint32_t flags;
        uint64_t k;
    } cyl[] = {{2, 150, 0, 2}, {150, 150, 0, 2}, {64, 128, TOGGLE_GRID_NO_SELF, 2},
               {200, 60, 0, 2}, {99, 101, 0, 3}, {2, 90, TOGGLE_GRID_NO_SELF, 3}};
    for (size_t i = 0; i < sizeof cyl / sizeof *cyl; i++, cases++)
        check_torus(cyl[i].r, cyl[i].c, TOGGLE_GRID_CYLINDER | cyl[i].flags, cyl[i].k, &rng);
    fprintf(stderr, "ring against lanes: %zu tori\n", cases);
}
END_TEST

/* AUTO picks the transfer engine for the torus and the cylinder, and the
 * transfer engine takes the ring route there (ring_applies); not on the
 * hex and Moore wraps. */
START_TEST(auto_takes_ring)
{
    static const struct {
        size_t r, c;
        uint32_t flags;
        bool ring;
    } cases[] = {
        {200, 200, TOGGLE_GRID_TORUS, true},
        {64, 100, TOGGLE_GRID_TORUS | TOGGLE_GRID_NO_SELF, true},
        {200, 200, TOGGLE_GRID_CYLINDER, true},
        {2, 300, TOGGLE_GRID_CYLINDER | TOGGLE_GRID_NO_SELF, true},
        {200, 200, TOGGLE_GRID_TORUS | TOGGLE_GRID_HEX, false},
        {200, 200, TOGGLE_GRID_TORUS | TOGGLE_GRID_MOORE, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (size_t q = 0; q < 2; q++) {
            toggle_graph *g = NULL;
            toggle_system *s = NULL;
            ck_assert_int_eq(toggle_graph_new_grid(&g, cases[i].r, cases[i].c, cases[i].flags),
                             TOGGLE_OK);
            ck_assert_int_eq(toggle_system_new(&s, g, primes[q], NULL, NULL), TOGGLE_OK);
            ck_assert(toggle__transfer_ring_applies(s) == cases[i].ring);
            if (cases[i].ring) {
                int why = 0;
                const toggle__engine_entry *e = toggle__engine_choose(s, &why);
                ck_assert_ptr_nonnull(e);
                ck_assert_int_eq(e->id, TOGGLE_ENGINE_TRANSFER);
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

/* The packed F_2 torus nullity against FLINT's polynomials (rows x cols up
 * to 70 x 70, with and without self; some larger squares). */
START_TEST(f2_torus_nullity_against_flint)
{
#ifdef TOGGLE_HAVE_FLINT
    size_t checked = 0;
    for (unsigned self = 0; self <= 1; self++)
        for (size_t r = 1; r <= 70; r++)
            for (size_t c = 1; c <= 70; c += (r > 20 ? 7 : 1)) {
                size_t got = 0, want = 0;
                ck_assert_int_eq(toggle__transfer_ring_nullity(2, r, c, self, &got), TOGGLE_OK);
                ck_assert_int_eq(toggle__grid_torus_nullity(2, r, c, self, &want), TOGGLE_OK);
                ck_assert_msg(got == want, "%zux%zu self %u: packed %zu, FLINT %zu", r, c, self,
                              got, want);
                checked++;
            }
    static const size_t big[] = {255, 256, 500, 768, 1000, 1023};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        size_t got = 0, want = 0;
        ck_assert_int_eq(toggle__transfer_ring_nullity(2, big[i], big[i] + 3, 1, &got), 0);
        ck_assert_int_eq(toggle__grid_torus_nullity(2, big[i], big[i] + 3, 1, &want), 0);
        ck_assert_msg(got == want, "%zu: packed %zu, FLINT %zu", big[i], got, want);
    }
    fprintf(stderr, "f2 torus nullity: %zu boards against FLINT\n", checked);
#endif
}
END_TEST

int main(void)
{
    Suite *su = suite_create("ring");
    TCase *tc = tcase_create("ring");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, ring_against_lanes);
    tcase_add_test(tc, auto_takes_ring);
    tcase_add_test(tc, f2_torus_nullity_against_flint);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
