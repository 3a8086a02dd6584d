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

/* plain: compare with the row programs (hex; and over F_3 the 4-bit lanes
 * instead of the sliced ones); else only the own model. Mod k (prime). */
static void check_large(size_t R, size_t C, uint32_t flags, uint64_t k, tu_rng *rng, bool plain)
{
    size_t n = R * C;
    uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg), *b = malloc(n * sizeof *b);
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    tu_random_game(rng, n, k, st, tg, b);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, R, C, flags), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, k, st, tg), TOGGLE_OK);
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
        ck_assert_msg(tu_grid_apply_is(R, C, flags, k, x, b), "%zux%zu flags 0x%x mod %llu: A x != b",
                      R, C, (unsigned)flags, (unsigned long long)k);
    }
    if (sv == 0) { /* the certificate (the policy's, from the public solve): y A = A y = 0
                    * (A symmetric), y.b != 0 */
        toggle_solution *pub = NULL;
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_TRANSFER), 0);
        ck_assert_int_eq(toggle_solve(&pub, s), TOGGLE_OK);
        ck_assert_int_eq(toggle_solution_certificate(pub, x, n), TOGGLE_OK);
        toggle_solution_free(pub);
        uint64_t yb = 0;
        for (size_t i = 0; i < n; i++)
            yb = tu_addmod(yb, tu_mulmod(x[i], b[i], k), k);
        ck_assert_msg(yb != 0 && tu_grid_apply_is(R, C, flags, k, x, NULL),
                      "%zux%zu flags 0x%x: not a certificate", R, C, (unsigned)flags);
    }
    for (size_t i = 0; i < d; i++) {
        ck_assert_int_eq(toggle_solution_kernel_vector(got, i, x, n), TOGGLE_OK);
        ck_assert_int_eq(toggle_solution_kernel_vector(ref, i, y, n), TOGGLE_OK);
        ck_assert_msg(!memcmp(x, y, n * sizeof *x), "%zux%zu flags 0x%x: kernel vector %zu "
                      "differs (seed %llu)", R, C, (unsigned)flags, i, (unsigned long long)tu_seed());
        ck_assert_msg(tu_grid_apply_is(R, C, flags, k, x, NULL), "%zux%zu: A K != 0", R, C);
    }
    printf("%zux%zu flags 0x%x mod %llu: solvable %d nullity %zu, %s\n", R, C, (unsigned)flags,
           (unsigned long long)k, sv, d, plain ? "identical to the row programs" : "checked");
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
                        2, &rng, true);
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
                        2, &rng, false);
}
END_TEST

/* (the sanitizer build, GCC's mark: the small shapes) */
#ifdef __SANITIZE_ADDRESS__
#define HEXREC_SANITIZED 1
#else
#define HEXREC_SANITIZED 0
#endif

/* F_3: the small system's chase in bit-sliced lanes (64 a word pair)
 * against the 4-bit lanes of the row programs, on boards whose C + 1 lanes
 * (2 C + 1 across a wrap) end just before, at and after a word of the
 * sliced planes (63 .. 65, 127 .. 129), and past 1001 lanes (1030 wide;
 * 130 under a sanitizer): hex along its rows (the recurrence: more rows
 * than columns) and along its columns (fewer), tri along its columns
 * (frame cells = board rows), hex and tri cylinders (the frame
 * wraps: two unknown rows), with and without self, random start and
 * target; every answer checked by the own model mod 3. */
START_TEST(large_p3_boards)
{
    tu_rng rng = tu_rng_for(79);
    bool big = !HEXREC_SANITIZED;
    static const size_t widths[] = {63, 64, 65, 127, 128, 129};
    for (size_t i = 0; i < sizeof widths / sizeof *widths; i++)
        for (uint32_t ns = 0; ns < 2; ns++) {
            uint32_t self = ns ? TOGGLE_GRID_NO_SELF : 0;
            size_t w = widths[i];
            check_large(w + 3, w, TOGGLE_GRID_HEX | self, 3, &rng, true);     /* the recurrence */
            check_large(w / 2 + 3, w, TOGGLE_GRID_HEX | self, 3, &rng, true); /* along columns */
            check_large(w, w / 2 + 4, TOGGLE_GRID_TRI | self, 3, &rng, true);
            if (i % 3 == 1) { /* 64 and 128: a wrap's 2 R + 1 lanes */
                check_large(w, 2 * w / 3 + 1, TOGGLE_GRID_HEX | TOGGLE_GRID_CYLINDER | self, 3, &rng,
                            true);
                check_large(w, w / 2, TOGGLE_GRID_TRI | TOGGLE_GRID_CYLINDER | self, 3, &rng, true);
            }
        }
    check_large(big ? 1034 : 134, big ? 1030 : 130, TOGGLE_GRID_HEX, 3, &rng, true);
    check_large(big ? 1030 : 130, big ? 20 : 10, TOGGLE_GRID_TRI, 3, &rng, true);
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
                        2, &rng, true);
    for (size_t i = 0; i < sizeof open / sizeof *open; i++)
        for (uint32_t v = 0; v < 2; v++)
            check_large(open[i], 24 + 5 * i + (i & 1), TOGGLE_GRID_TRI | (v ? TOGGLE_GRID_NO_SELF : 0),
                        2, &rng, true);
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("hexrec");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, large_hex_boards);
    tcase_add_test(tc, large_tri_boards);
    tcase_add_test(tc, large_p3_boards);
    tcase_add_test(tc, tri_step_boards);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return tu_run(suite());
}
