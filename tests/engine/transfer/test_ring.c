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

/* One torus: the ring route (the engine forced) against the lanes path;
 * the target random (mode 0), reachable (1) or either (-1, by rg). */
static void check_torus_mode(size_t R, size_t C, uint32_t flags, uint64_t k, tu_rng *rg, int mode)
{
    tu_rng rng = *rg;
    size_t n = R * C;
    uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg);
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    uint64_t *z = malloc(n * sizeof *z), *b = malloc(n * sizeof *b);
    if (mode < 0)
        mode = (int)tu_below(&rng, 2); /* random target, or a reachable one */
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
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE,
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

static void check_torus(size_t R, size_t C, uint32_t flags, uint64_t k, tu_rng *rg)
{
    check_torus_mode(R, C, flags, k, rg, -1);
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

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RING_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RING_TEST_SANITIZED 1
#endif
#endif
#ifndef RING_TEST_SANITIZED
#define RING_TEST_SANITIZED 0
#endif

/* The answer writer's boundaries (ring.c: write_shifted stores every word
 * of a row but the one it shares with the row above, which it ORs; put_row
 * faults each vector in 256 KiB ahead of the writer): rows of 63, 64, 65,
 * 511, 512, 513, 4095, 4096 and 4097 cells, on tori and cylinders with
 * nullity > 0, vectors past 256 KiB (F_2 2.46 and 2.13 Mbit, F_3
 * 280200 bytes) and a kernel past 32 MiB, each with a reachable target (the particular solution
 * chased) and a random one, against the lanes path and the own model. */
START_TEST(answer_writer_boundaries)
{
    tu_rng rng = tu_rng_for(1402);
    static const struct {
        size_t r, c;
        uint32_t flags;
        uint64_t k;
        bool big;
    } cases[] = {
        /* tori: nullity 4, 8, 8, 2, 8, 4, 4, 8, 2 */
        {4, 63, TOGGLE_GRID_TORUS, 2, false},
        {6, 64, TOGGLE_GRID_TORUS, 2, false},
        {5, 65, TOGGLE_GRID_TORUS, 2, false},
        {6, 511, TOGGLE_GRID_TORUS, 2, false},
        {6, 512, TOGGLE_GRID_TORUS, 2, false},
        {4, 513, TOGGLE_GRID_TORUS, 2, false},
        {4, 4095, TOGGLE_GRID_TORUS, 2, false},
        {6, 4096, TOGGLE_GRID_TORUS, 2, false},
        {6, 4097, TOGGLE_GRID_TORUS, 2, false},
        /* cylinders: nullity 2, 4, 4, 7, 4, 2, 4, 4, 9 */
        {3, 63, TOGGLE_GRID_CYLINDER, 2, false},
        {2, 64, TOGGLE_GRID_CYLINDER, 2, false},
        {4, 65, TOGGLE_GRID_CYLINDER, 2, false},
        {8, 511, TOGGLE_GRID_CYLINDER, 2, false},
        {2, 512, TOGGLE_GRID_CYLINDER, 2, false},
        {3, 513, TOGGLE_GRID_CYLINDER, 2, false},
        {4, 4095, TOGGLE_GRID_CYLINDER, 2, false},
        {2, 4096, TOGGLE_GRID_CYLINDER, 2, false},
        {14, 4097, TOGGLE_GRID_CYLINDER, 2, false},
        /* past 256 KiB a vector: nullity 18, 2, 4 */
        {600, 4097, TOGGLE_GRID_TORUS, 2, true},
        {513, 4095, TOGGLE_GRID_CYLINDER, 2, true},
        {1401, 200, TOGGLE_GRID_TORUS, 3, true},
        /* a kernel of 51.5 MiB (nullity 1200), past the 32 MiB from which
         * the writer faults the answer in ahead */
        {600, 600, TOGGLE_GRID_TORUS | TOGGLE_GRID_NO_SELF, 2, true},
    };
    size_t done = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (cases[i].big && RING_TEST_SANITIZED)
            continue;
        size_t d = 0;
        ck_assert_int_eq(
            toggle_grid_nullity(cases[i].r, cases[i].c, cases[i].k, cases[i].flags, &d), TOGGLE_OK);
        ck_assert_msg(d > 0, "%zux%zu: nullity 0", cases[i].r, cases[i].c);
        /* the 51.5 MiB kernel (no-self): the reachable target only, its
         * lanes path is the costly part */
        int first = cases[i].big && (cases[i].flags & TOGGLE_GRID_NO_SELF) ? 1 : 0;
        for (int mode = first; mode < 2; mode++, done++)
            check_torus_mode(cases[i].r, cases[i].c, cases[i].flags, cases[i].k, &rng, mode);
    }
    fprintf(stderr, "answer writer boundaries: %zu boards\n", done);
}
END_TEST

/* toggle__vecs_prefault (the answer writer's fault-in) leaves every word
 * as it was: written vectors, fresh ones (still 0), ranges that cut pages,
 * ranges past the vector or empty (no-ops). */
START_TEST(prefault_keeps_contents)
{
    tu_rng rng = tu_rng_for(1403);
    toggle__vecs v;
    size_t len = (size_t)1 << 21; /* 2 Mbit = 256 KiB a vector */
    ck_assert_int_eq(toggle__vecs_init(&v, len, 4, 2), TOGGLE_OK);
    size_t words = 4 * v.stride;
    uint64_t *copy = malloc(words * sizeof *copy);
    ck_assert_ptr_nonnull(copy);
    for (size_t q = 0; q < 3 * v.stride; q++) /* vector 3 stays fresh */
        v.data[q] = tu_below(&rng, UINT64_MAX);
    memcpy(copy, v.data, words * sizeof *copy);
    static const struct {
        size_t i, from, to;
    } r[] = {{1, 0, SIZE_MAX}, {0, 3, 5000}, {2, 511, 513}, {1, 1000, 20001}, {3, 0, SIZE_MAX},
             {2, 9, 9}, {2, 10, 3}, {4, 0, 100}, {0, 5, SIZE_MAX - 1}};
    for (size_t t = 0; t < sizeof r / sizeof *r; t++) {
        size_t to = r[t].to == SIZE_MAX       ? v.stride
                    : r[t].to == SIZE_MAX - 1 ? v.stride + 600
                                              : r[t].to;
        toggle__vecs_prefault(&v, r[t].i, r[t].from, to);
        ck_assert_msg(!memcmp(copy, v.data, words * sizeof *copy), "range %zu changed words", t);
    }
    for (size_t q = 0; q < v.stride; q++) /* the fresh vector is still 0 */
        ck_assert_uint_eq(v.data[3 * v.stride + q], 0);
    toggle__vecs_clear(&v);
    free(copy);
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
    tcase_add_test(tc, answer_writer_boundaries);
    tcase_add_test(tc, prefault_keeps_contents);
    tcase_add_test(tc, f2_torus_nullity_against_flint);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
