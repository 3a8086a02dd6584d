/* Misuse of the APIs added after the core (grid.h, space.h, render.h,
 * symmetry.h, guard.h) and of limits found by fuzzing: each call expects its
 * documented status, a message, no signal, the caller's data untouched and
 * nothing printed. Complements tests/reliability/test_misuse.c; both feed the
 * bad-input table of docs/reliability.md. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define UNTOUCHED ((void *)(uintptr_t)0x1)

/* A solved 4x4 classic board (k = 2, nullity 4) and an unsolvable one. */
static toggle_graph *g44;
static toggle_system *s_ok, *s_bad, *s_comp;
static toggle_solution *sol_ok, *sol_bad;

static void setup(void)
{
    uint64_t corner[16] = {1};
    ck_assert_int_eq(toggle_graph_new_grid(&g44, 4, 4, 0), 0);
    ck_assert_int_eq(toggle_system_new(&s_ok, g44, 2, NULL, NULL), 0);
    ck_assert_int_eq(toggle_system_new(&s_bad, g44, 2, NULL, corner), 0);
    ck_assert_int_eq(toggle_system_new(&s_comp, g44, 6, NULL, NULL), 0);
    ck_assert_int_eq(toggle_solve(&sol_ok, s_ok), 0);
    ck_assert_int_eq(toggle_solve(&sol_bad, s_bad), 0);
    ck_assert_int_eq(toggle_solution_is_solvable(sol_bad), 0);
}

static void teardown(void)
{
    toggle_solution_free(sol_ok);
    toggle_solution_free(sol_bad);
    toggle_system_free(s_ok);
    toggle_system_free(s_bad);
    toggle_system_free(s_comp);
    toggle_graph_free(g44);
}

START_TEST(misuse_grid)
{
    tu_quiet_begin();
    size_t d = 777;
    uint64_t words[2] = {5, 5};
    TU_EXPECT(toggle_grid_nullity(4, 4, 2, 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_grid_nullity(0, 4, 2, 0, &d), TOGGLE_EINVAL);
    TU_EXPECT(toggle_grid_nullity(4, 0, 2, 0, &d), TOGGLE_EINVAL);
    TU_EXPECT(toggle_grid_nullity(4, 4, 1, 0, &d), TOGGLE_EINVAL);
    TU_EXPECT(toggle_grid_nullity(4, 4, 2, 0x100, &d), TOGGLE_EINVAL);
    TU_EXPECT(toggle_grid_nullity(4, 4, UINT64_MAX, 0, &d), TOGGLE_ERANGE);
    TU_EXPECT(toggle_grid_nullity(SIZE_MAX, 3, 2, 0, &d), TOGGLE_EOVERFLOW);
    ck_assert_uint_eq(d, 777);
    TU_EXPECT(toggle_solution_particular_packed(NULL, 0, 16, words, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_particular_packed(sol_ok, 0, 16, NULL, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_particular_packed(sol_bad, 0, 16, words, 1), TOGGLE_ENOSOLUTION);
    TU_EXPECT(toggle_solution_particular_packed(sol_ok, 10, 16, words, 1), TOGGLE_ERANGE);
    TU_EXPECT(toggle_solution_particular_packed(sol_ok, SIZE_MAX, 2, words, 1), TOGGLE_ERANGE);
    TU_EXPECT(toggle_solution_kernel_packed(NULL, 0, 0, 16, words, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_kernel_packed(sol_ok, 0, 0, 16, NULL, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_kernel_packed(sol_ok, 99, 0, 16, words, 1), TOGGLE_ERANGE);
    TU_EXPECT(toggle_solution_kernel_packed(sol_ok, 0, 10, 16, words, 1), TOGGLE_ERANGE);
    TU_EXPECT(toggle_solution_kernel_packed(sol_ok, 0, 0, 16, words, 0), TOGGLE_EBUFSIZE);
    ck_assert_uint_eq(words[0], 5);
    tu_quiet_end();
}
END_TEST

START_TEST(misuse_packed_system)
{
    tu_quiet_begin();
    toggle_system *s = (toggle_system *)&s;
    const uint64_t a[2] = {3, 1}, b[1] = {1};
    TU_EXPECT(toggle_system_new_packed(NULL, 2, 2, a, 1, b), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new_packed(&s, 2, 2, NULL, 1, b), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new_packed(&s, 2, 2, a, 1, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new_packed(&s, 2, 65, a, 1, b), TOGGLE_EINVAL); /* stride < 2 words */
    TU_EXPECT(toggle_system_new_packed(&s, SIZE_MAX, 64, a, 1, b), TOGGLE_EOVERFLOW);
    TU_EXPECT(toggle_system_new_packed(&s, 3, 64, a, SIZE_MAX / 2, b), TOGGLE_EOVERFLOW);
    ck_assert_ptr_eq(s, (toggle_system *)&s);
    tu_quiet_end();
}
END_TEST

START_TEST(misuse_space)
{
    tu_quiet_begin();
    uint64_t x[16], r = 0;
    toggle_iter *it = UNTOUCHED;
    toggle_rng *rng = UNTOUCHED;
    toggle_search *se = UNTOUCHED;
    toggle_generator *gen = UNTOUCHED;
    TU_EXPECT(toggle_solution_radix(NULL, 0, &r), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_radix(sol_ok, 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_radix(sol_ok, 4, &r), TOGGLE_ERANGE);
    TU_EXPECT(toggle_iter_new(NULL, sol_ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_iter_new(&it, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_iter_new(&it, sol_bad), TOGGLE_ENOSOLUTION);
    ck_assert_ptr_eq(it, UNTOUCHED);
    TU_EXPECT(toggle_iter_next(NULL, x, 16), TOGGLE_EINVAL);
    it = NULL;
    ck_assert_int_eq(toggle_iter_new(&it, sol_ok), 0);
    TU_EXPECT(toggle_iter_next(it, NULL, 16), TOGGLE_EINVAL);
    TU_EXPECT(toggle_iter_next(it, x, 15), TOGGLE_EBUFSIZE);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(toggle_iter_next(it, x, 16), 0);
    TU_EXPECT(toggle_iter_next(it, x, 16), TOGGLE_ITEROVER);
    ck_assert_uint_eq(toggle_iter_produced(it), 16);
    toggle_iter_reset(NULL);
    ck_assert_uint_eq(toggle_iter_produced(NULL), 0);
    toggle_iter_free(it);
    toggle_iter_free(NULL);

    TU_EXPECT(toggle_rng_new(NULL, 1), TOGGLE_EINVAL);
    rng = NULL;
    ck_assert_int_eq(toggle_rng_new(&rng, 1), 0);
    TU_EXPECT(toggle_solution_sample(NULL, rng, x, 16), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_sample(sol_ok, NULL, x, 16), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_sample(sol_ok, rng, NULL, 16), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_sample(sol_ok, rng, x, 3), TOGGLE_EBUFSIZE);
    TU_EXPECT(toggle_solution_sample(sol_bad, rng, x, 16), TOGGLE_ENOSOLUTION);
    toggle_rng_free(rng);
    toggle_rng_free(NULL);

    TU_EXPECT(toggle_search_new(NULL, sol_ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_search_new(&se, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_search_new(&se, sol_bad), TOGGLE_ENOSOLUTION);
    ck_assert_ptr_eq(se, UNTOUCHED);
    se = NULL;
    ck_assert_int_eq(toggle_search_new(&se, sol_ok), 0);
    TU_EXPECT(toggle_search_set_option(NULL, TOGGLE_SEARCH_OPT_METRIC, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_search_set_option(se, 12345, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_METRIC, 99), TOGGLE_EINVAL);
    TU_EXPECT(toggle_search_result(se, x, 16, NULL, NULL, NULL), TOGGLE_EINVAL); /* not run yet */
    TU_EXPECT(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_THREADS, 5000), TOGGLE_EINVAL);
    TU_EXPECT(toggle_search_set_costs(NULL, x, 16), TOGGLE_EINVAL);
    TU_EXPECT(toggle_search_set_costs(se, x, 3), TOGGLE_EBUFSIZE);
    {
        uint64_t lower = 77;
        TU_EXPECT(toggle_search_bound(se, &lower), TOGGLE_EINVAL); /* not run yet */
        TU_EXPECT(toggle_search_bound(NULL, &lower), TOGGLE_EINVAL);
        TU_EXPECT(toggle_search_bound(se, NULL), TOGGLE_EINVAL);
        ck_assert_uint_eq(lower, 77);
    }
    {
        unsigned char cb[512];
        size_t need = 77;
        uint64_t best = 77, bound = 77;
        memset(cb, 0xA5, sizeof cb);
        TU_EXPECT(toggle_search_save(se, cb, sizeof cb, &need), TOGGLE_EUNSUPPORTED); /* no run */
        TU_EXPECT(toggle_search_save(NULL, cb, sizeof cb, &need), TOGGLE_EINVAL);
        TU_EXPECT(toggle_search_resume(NULL, cb, sizeof cb), TOGGLE_EINVAL);
        TU_EXPECT(toggle_search_resume(se, NULL, 8), TOGGLE_EINVAL);
        TU_EXPECT(toggle_search_resume(se, cb, sizeof cb), TOGGLE_EINVAL); /* not a checkpoint */
        TU_EXPECT(toggle_search_progress(NULL, &best, &bound), TOGGLE_EINVAL);
        TU_EXPECT(toggle_search_progress(se, NULL, NULL), TOGGLE_EINVAL);
        ck_assert_uint_eq(need, 77);
        ck_assert_uint_eq(best, 77);
        ck_assert_uint_eq(bound, 77);
        ck_assert_int_eq(toggle_search_run(se), 0);
        TU_EXPECT(toggle_search_save(se, cb, 3, &need), TOGGLE_EBUFSIZE);
        ck_assert_uint_gt(need, 3);
        ck_assert_uint_eq(cb[0], 0xA5); /* untouched */
        size_t full = need;
        ck_assert_int_eq(toggle_search_save(se, cb, sizeof cb, &need), 0);
        TU_EXPECT(toggle_search_resume(se, cb, full - 1), TOGGLE_EINVAL); /* cut short */
        cb[8 + 8 * 3] = 7; /* "have" neither 0 nor 1 */
        TU_EXPECT(toggle_search_resume(se, cb, full), TOGGLE_EINVAL);
    }
    TU_EXPECT(toggle_search_run(NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_search_run(se), 0);
    TU_EXPECT(toggle_search_result(NULL, x, 16, NULL, NULL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_search_result(se, x, 3, NULL, NULL, NULL), TOGGLE_EBUFSIZE);
    toggle_search_free(se);
    toggle_search_free(NULL);

    TU_EXPECT(toggle_generator_new(NULL, s_ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_generator_new(&gen, NULL), TOGGLE_EINVAL);
    ck_assert_ptr_eq(gen, UNTOUCHED);
    gen = NULL;
    ck_assert_int_eq(toggle_generator_new(&gen, s_ok), 0);
    TU_EXPECT(toggle_generator_set_option(NULL, TOGGLE_GENERATOR_OPT_SEED, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_generator_set_option(gen, 12345, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_generator_next(NULL, x, 16, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_generator_next(gen, x, 3, NULL), TOGGLE_EBUFSIZE);
    ck_assert_uint_eq(toggle_generator_nullity(NULL), 0);
    toggle_generator_free(gen);
    toggle_generator_free(NULL);
    tu_quiet_end();
}
END_TEST

START_TEST(misuse_render)
{
    tu_quiet_begin();
    uint8_t rgb[3] = {1, 2, 3};
    int id = -5, rev = -5;
    uint64_t cells[4] = {0, 1, 1, 0}, big[4] = {0, 1, 7, 0}, v;
    uint8_t buf[16];
    size_t w, h, need;
    toggle_render_opts *o = UNTOUCHED;
    TU_EXPECT(toggle_colormap_is_qualitative(-1), TOGGLE_EINVAL);
    ck_assert_ptr_null(toggle_colormap_name(-1));
    TU_EXPECT(toggle_colormap_from_name(NULL, &id, &rev), TOGGLE_EINVAL);
    TU_EXPECT(toggle_colormap_from_name("viridis", NULL, &rev), TOGGLE_EINVAL);
    TU_EXPECT(toggle_colormap_from_name("no-such-map", &id, &rev), TOGGLE_EINVAL);
    ck_assert_int_eq(id, -5);
    TU_EXPECT(toggle_colormap_color(0, 0, 0, 2, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_colormap_color(999, 0, 0, 2, rgb), TOGGLE_EINVAL);
    TU_EXPECT(toggle_colormap_color(0, 0, 0, 1, rgb), TOGGLE_EINVAL);
    TU_EXPECT(toggle_colormap_color(0, 0, 2, 2, rgb), TOGGLE_ERANGE);
    ck_assert_uint_eq(rgb[0], 1);
    TU_EXPECT(toggle_render_opts_new(NULL), TOGGLE_EINVAL);
    o = NULL;
    ck_assert_int_eq(toggle_render_opts_new(&o), 0);
    TU_EXPECT(toggle_render_opts_set(NULL, TOGGLE_RENDER_CELL_SIZE, 8), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render_opts_set(o, 12345, 8), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, 0), TOGGLE_ERANGE);
    TU_EXPECT(toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, 5000), TOGGLE_ERANGE);
    TU_EXPECT(toggle_render_opts_set(o, TOGGLE_RENDER_COLORMAP, 999), TOGGLE_ERANGE);
    TU_EXPECT(toggle_render_opts_get(o, TOGGLE_RENDER_CELL_SIZE, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render_opts_get(o, 12345, &v), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render_size(o, 0, 2, &w, &h), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render_size(o, 2, 2, NULL, &h), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render_size(o, 1, 2000000, &w, &h), TOGGLE_ERANGE);
    TU_EXPECT(toggle_render(o, TOGGLE_IMAGE_PPM, NULL, 2, 2, 2, buf, sizeof buf, &need),
           TOGGLE_EINVAL);
    TU_EXPECT(toggle_render(o, 99, cells, 2, 2, 2, buf, sizeof buf, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render(o, TOGGLE_IMAGE_PPM, cells, 0, 2, 2, buf, sizeof buf, &need),
           TOGGLE_EINVAL);
    TU_EXPECT(toggle_render(o, TOGGLE_IMAGE_PPM, cells, 2, 2, 1, buf, sizeof buf, &need),
           TOGGLE_EINVAL);
    TU_EXPECT(toggle_render(o, TOGGLE_IMAGE_PPM, big, 2, 2, 2, buf, sizeof buf, &need),
           TOGGLE_ERANGE);
    TU_EXPECT(toggle_render(o, TOGGLE_IMAGE_PPM, cells, 2, 2, 2, NULL, 5, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render(o, TOGGLE_IMAGE_PPM, cells, 2, 2, 2, buf, sizeof buf, &need),
           TOGGLE_EBUFSIZE);
    TU_EXPECT(toggle_render_file(o, TOGGLE_IMAGE_PPM, cells, 2, 2, 2, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_render_file(o, TOGGLE_IMAGE_PPM, cells, 2, 2, 2, "/nonexistent/dir/x.ppm"),
           TOGGLE_EIO);
    toggle_render_opts_free(o);
    toggle_render_opts_free(NULL);
    tu_quiet_end();
}
END_TEST

START_TEST(misuse_symmetry_and_guard)
{
    tu_quiet_begin();
    uint64_t cells[4] = {1, 0, 0, 1}, count = 99;
    uint32_t mask = 0;
    TU_EXPECT(toggle_board_symmetry(NULL, 2, 2, &mask), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_symmetry(cells, 2, 2, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_symmetry(cells, 0, 2, &mask), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_symmetry(cells, SIZE_MAX, 3, &mask), TOGGLE_EOVERFLOW);
    ck_assert_ptr_null(toggle_symmetry_name(0x12345)); /* not a subgroup of D4 */
    TU_EXPECT(toggle_solution_count_orbits(NULL, 4, 4, TOGGLE_SYM_ALL, &count), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_count_orbits(sol_ok, 4, 4, TOGGLE_SYM_ALL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_count_orbits(sol_ok, 3, 4, TOGGLE_SYM_ALL, &count), TOGGLE_EINVAL);
    ck_assert_uint_eq(count, 99);
    ck_assert_int_eq(toggle_flint_guard_installed(), 0);
    TU_EXPECT(toggle_flint_guard_install(), TOGGLE_OK);
    ck_assert_int_eq(toggle_flint_guard_installed(), 1);
    tu_quiet_end();
}
END_TEST

static int cancel_at_once(void *payload, double fraction)
{
    (void)fraction;
    ++*(int *)payload;
    return 1;
}

static int cancel_after(void *payload, double fraction)
{
    (void)fraction;
    int *left = payload;
    return (*left)-- <= 0;
}

/* toggle_system_set_progress: NULL system; a cancelling callback leaves the
 * output untouched on every engine, and removing it (NULL) restores solves. */
START_TEST(misuse_progress)
{
    tu_quiet_begin();
    int calls = 0;
    TU_EXPECT(toggle_system_set_progress(NULL, cancel_at_once, &calls), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_system_set_progress(s_ok, cancel_at_once, &calls), 0);
    static const int engines[] = {TOGGLE_ENGINE_CHASE, TOGGLE_ENGINE_GF2, TOGGLE_ENGINE_FLINT};
    for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
        toggle_solution *sol = UNTOUCHED;
        ck_assert_int_eq(toggle_system_set_option(s_ok, TOGGLE_SYSTEM_OPT_ENGINE,
                                                  (uint64_t)engines[e]), 0);
        TU_EXPECT(toggle_solve(&sol, s_ok), TOGGLE_ECANCELED);
        ck_assert_ptr_eq(sol, UNTOUCHED);
        ck_assert_ptr_nonnull(strstr(toggle_last_error(), "cancelled"));
    }
    ck_assert_int_eq(calls, 3);
    ck_assert_int_eq(toggle_system_set_progress(s_comp, cancel_at_once, &calls), 0);
    toggle_solution *sol = UNTOUCHED;
    TU_EXPECT(toggle_solve(&sol, s_comp), TOGGLE_ECANCELED); /* Howell */
    ck_assert_ptr_eq(sol, UNTOUCHED);
    /* a solution keeps the callback for its searches */
    int budget = 1000;
    ck_assert_int_eq(toggle_system_set_progress(s_ok, cancel_after, &budget), 0);
    ck_assert_int_eq(toggle_system_set_option(s_ok, TOGGLE_SYSTEM_OPT_ENGINE,
                                              TOGGLE_ENGINE_AUTO), 0);
    ck_assert_int_eq(toggle_solve(&sol, s_ok), 0);
    toggle_search *search = NULL;
    ck_assert_int_eq(toggle_search_new(&search, sol), 0);
    budget = 0;
    TU_EXPECT(toggle_search_run(search), TOGGLE_ECANCELED);
    uint64_t x[16] = {7}, weight = 99;
    int proven = 5;
    TU_EXPECT(toggle_search_result(search, x, 16, &weight, &proven, NULL), TOGGLE_EINVAL);
    ck_assert_uint_eq(x[0], 7);
    ck_assert_uint_eq(weight, 99);
    budget = 1000;
    ck_assert_int_eq(toggle_search_run(search), 0);
    toggle_search_free(search);
    toggle_solution_free(sol);
    ck_assert_int_eq(toggle_system_set_progress(s_ok, NULL, NULL), 0);
    ck_assert_int_eq(toggle_solve(&sol, s_ok), 0);
    toggle_solution_free(sol);
    ck_assert_int_eq(toggle_system_set_option(s_ok, TOGGLE_SYSTEM_OPT_ENGINE,
                                              TOGGLE_ENGINE_AUTO), 0);
    ck_assert_str_eq(toggle_status_name(TOGGLE_ECANCELED), "TOGGLE_ECANCELED");
    ck_assert_int_eq(TOGGLE_ECANCELED, -13);
    tu_quiet_end();
}
END_TEST

START_TEST(misuse_limits_found_by_fuzzing)
{
    tu_quiet_begin();
    toggle_graph *g = UNTOUCHED;
    /* a 20-byte text asking for 10^15 nodes: refused before allocating */
    static const char huge[] = "nodes 1000000000000000\n0 1\n";
    TU_EXPECT(toggle_graph_parse_edges(&g, huge, sizeof huge - 1, 0), TOGGLE_ENOMEM);
    static const char max[] = "nodes 18446744073709551615\n";
    TU_EXPECT(toggle_graph_parse_edges(&g, max, sizeof max - 1, 0), TOGGLE_ERANGE);
    size_t e[2] = {0, 1};
    TU_EXPECT(toggle_graph_new_edges(&g, SIZE_MAX, e, 1, 0), TOGGLE_EOVERFLOW);
    TU_EXPECT(toggle_graph_new_edges(&g, (size_t)1 << 40, e, 1, 0), TOGGLE_ENOMEM);
    ck_assert_ptr_eq(g, UNTOUCHED);
    tu_quiet_end();
}
END_TEST

int main(void)
{
    Suite *su = suite_create("misuse_ext");
    TCase *tc = tcase_create("misuse");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, misuse_grid);
    tcase_add_test(tc, misuse_packed_system);
    tcase_add_test(tc, misuse_space);
    tcase_add_test(tc, misuse_render);
    tcase_add_test(tc, misuse_symmetry_and_guard);
    tcase_add_test(tc, misuse_limits_found_by_fuzzing);
    tcase_add_test(tc, misuse_progress);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
