/* The hex recurrence of the transfer engine's F_2 lanes path (the
 * cell-major kernel, eight words a vector, for the small system's C + 1
 * lanes; prefix and suffix XORs along the row for the answers) against the
 * row programs (toggle__transfer_lanes_solve_plain) on boards too large for
 * full elimination: hex boards 449 to 520 wide, with and without self,
 * random start and target. Identical answers, and every answer checked
 * against this suite's own neighbourhood model (tu_grid_neighbours): A x =
 * b and A K = 0 for each kernel vector. Tri boards along their columns
 * (b read 64 frame rows at a time) by the same model. Seed printed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/transfer/ring.h"
#include "testutil.h"

static toggle_solution *solve_lanes(const toggle_system *s, bool plain)
{
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle__solution_new(&sol, s, TOGGLE_ENGINE_TRANSFER), TOGGLE_OK);
    int rc = plain ? toggle__transfer_lanes_solve_plain(s, sol) : toggle__transfer_lanes_solve(s, sol);
    ck_assert_msg(rc == TOGGLE_OK, "%s: %s", plain ? "programs" : "recurrence", toggle_last_error());
    return sol;
}

/* (A v)_cell - want_cell == 0 everywhere, A from the own model (mod 2). */
static bool model_apply_is(size_t R, size_t C, uint32_t flags, const uint64_t *v, const uint64_t *want)
{
    long nb[16][2];
    uint64_t *y = calloc(R * C, sizeof *y);
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++) {
            if (!(v[r * C + c] & 1))
                continue;
            size_t n = tu_grid_neighbours(R, C, flags, r, c, nb);
            for (size_t i = 0; i < n; i++)
                y[(size_t)nb[i][0] * C + (size_t)nb[i][1]] ^= 1;
        }
    bool ok = true;
    for (size_t i = 0; ok && i < R * C; i++)
        ok = y[i] == (want ? want[i] & 1 : 0);
    free(y);
    return ok;
}

/* plain: compare with the row programs (hex); else only the own model. */
static void check_large(size_t R, size_t C, uint32_t flags, tu_rng *rng, bool plain)
{
    size_t n = R * C;
    uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg), *b = malloc(n * sizeof *b);
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) {
        st[i] = tu_below(rng, 2);
        tg[i] = tu_below(rng, 2);
        b[i] = st[i] ^ tg[i];
    }
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, R, C, flags), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 2, st, tg), TOGGLE_OK);
    toggle_solution *got = solve_lanes(s, false), *ref = solve_lanes(s, plain);
    int sv = toggle_solution_is_solvable(got);
    size_t d = toggle_solution_nullity(got);
    ck_assert_msg(sv == toggle_solution_is_solvable(ref) && d == toggle_solution_nullity(ref),
                  "%zux%zu flags 0x%x: solvability or nullity differs (seed %llu)", R, C,
                  (unsigned)flags, (unsigned long long)tu_seed());
    if (sv == 1) {
        ck_assert_int_eq(toggle_solution_particular(got, x, n), TOGGLE_OK);
        ck_assert_int_eq(toggle_solution_particular(ref, y, n), TOGGLE_OK);
        ck_assert_msg(!memcmp(x, y, n * sizeof *x), "%zux%zu flags 0x%x: x differs (seed %llu)",
                      R, C, (unsigned)flags, (unsigned long long)tu_seed());
        ck_assert_msg(model_apply_is(R, C, flags, x, b), "%zux%zu flags 0x%x: A x != b", R, C,
                      (unsigned)flags);
    }
    if (sv == 0) { /* the certificate (the policy's, from the public solve): y A = A y = 0
                    * (A symmetric), y.b = 1 */
        toggle_solution *pub = NULL;
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_OPT_ENGINE, TOGGLE_ENGINE_TRANSFER), 0);
        ck_assert_int_eq(toggle_solve(&pub, s), TOGGLE_OK);
        ck_assert_int_eq(toggle_solution_certificate(pub, x, n), TOGGLE_OK);
        toggle_solution_free(pub);
        uint64_t yb = 0;
        for (size_t i = 0; i < n; i++)
            yb ^= x[i] & b[i] & 1;
        ck_assert_msg(yb == 1 && model_apply_is(R, C, flags, x, NULL),
                      "%zux%zu flags 0x%x: not a certificate", R, C, (unsigned)flags);
    }
    for (size_t i = 0; i < d; i++) {
        ck_assert_int_eq(toggle_solution_kernel_vector(got, i, x, n), TOGGLE_OK);
        ck_assert_int_eq(toggle_solution_kernel_vector(ref, i, y, n), TOGGLE_OK);
        ck_assert_msg(!memcmp(x, y, n * sizeof *x), "%zux%zu flags 0x%x: kernel vector %zu "
                      "differs (seed %llu)", R, C, (unsigned)flags, i, (unsigned long long)tu_seed());
        ck_assert_msg(model_apply_is(R, C, flags, x, NULL), "%zux%zu: A K != 0", R, C);
    }
    printf("%zux%zu flags 0x%x: solvable %d nullity %zu, %s\n", R, C, (unsigned)flags, sv, d,
           plain ? "identical to the row programs" : "checked");
    toggle_solution_free(got);
    toggle_solution_free(ref);
    toggle_system_free(s);
    toggle_graph_free(g);
    free(st);
    free(tg);
    free(b);
    free(x);
    free(y);
}

/* 449 columns: 450 lanes, 8 words a cell (one vector); 520: 16 words. */
START_TEST(large_hex_boards)
{
    tu_rng rng = tu_rng_for(77);
    static const size_t shapes[][2] = {{455, 449}, {449, 449}, {530, 520}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (uint32_t ns = 0; ns < 2; ns++)
            check_large(shapes[i][0], shapes[i][1], TOGGLE_GRID_HEX | (ns ? TOGGLE_GRID_NO_SELF : 0),
                        &rng, true);
}
END_TEST

/* Tri boards chase along the board columns: frame rows past 64 and 128
 * read b from later tiles. */
START_TEST(large_tri_boards)
{
    tu_rng rng = tu_rng_for(78);
    static const size_t shapes[][2] = {{100, 130}, {130, 100}, {200, 199}, {65, 64}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (uint32_t ns = 0; ns < 2; ns++)
            check_large(shapes[i][0], shapes[i][1], TOGGLE_GRID_TRI | (ns ? TOGGLE_GRID_NO_SELF : 0),
                        &rng, false);
}
END_TEST

/* The tri step (tri.c: pairs of cells sharing x_r(a) + x_r(p(a)), the
 * small system's lanes cell-major) against the row programs: frame rows
 * of 63 .. 129 cells across a wrap (2C + 1 lanes; even wraps, so that A
 * is symmetric and the certificate check holds) and 129 .. 520 cells open
 * (C + 1 lanes; odd and even column counts), across the lane words' and
 * the vectors' boundaries, with and without self, each answer checked by
 * the own model too. */
START_TEST(tri_step_boards)
{
    tu_rng rng = tu_rng_for(79);
    static const size_t wrapped[] = {63, 64, 65, 127, 128, 129};
    static const size_t open[] = {129, 449, 450, 511, 512, 513, 520};
    for (size_t i = 0; i < sizeof wrapped / sizeof *wrapped; i++)
        for (uint32_t v = 0; v < 4; v++)
            check_large(wrapped[i], 20 + 2 * i + 2 * (v & 1),
                        TOGGLE_GRID_TRI | (v & 2 ? TOGGLE_GRID_NO_SELF : 0)
                            | (wrapped[i] % 2 ? TOGGLE_GRID_CYLINDER : TOGGLE_GRID_TORUS),
                        &rng, true);
    for (size_t i = 0; i < sizeof open / sizeof *open; i++)
        for (uint32_t v = 0; v < 2; v++)
            check_large(open[i], 24 + 5 * i + (i & 1), TOGGLE_GRID_TRI | (v ? TOGGLE_GRID_NO_SELF : 0),
                        &rng, true);
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("hexrec");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, large_hex_boards);
    tcase_add_test(tc, large_tri_boards);
    tcase_add_test(tc, tri_step_boards);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return tu_run(suite());
}
