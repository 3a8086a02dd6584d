/* One check per way to misuse each public function: the documented status,
 * no signal, a message, the caller's data untouched, and nothing printed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

START_TEST(misuse_version_and_errors)
{
    tu_quiet_begin();
    ck_assert_uint_eq(toggle_version_number(), TOGGLE_VERSION_NUMBER);
    ck_assert_str_eq(toggle_version_string(), TOGGLE_VERSION_STRING);
    ck_assert_str_eq(toggle_status_name(TOGGLE_EINVAL), "TOGGLE_EINVAL");
    ck_assert_str_eq(toggle_status_name(12345), "TOGGLE_UNKNOWN");
    ck_assert_str_eq(toggle_status_name(-12345), "TOGGLE_UNKNOWN");
    toggle_clear_error();
    ck_assert_ptr_nonnull(toggle_last_error());
    ck_assert_str_eq(toggle_last_error(), "");
    /* pinned values */
    ck_assert_int_eq(TOGGLE_EINVAL, -1);
    ck_assert_int_eq(TOGGLE_ENOMEM, -2);
    ck_assert_int_eq(TOGGLE_EUNSUPPORTED, -3);
    ck_assert_int_eq(TOGGLE_EPARSE, -4);
    ck_assert_int_eq(TOGGLE_ERANGE, -5);
    ck_assert_int_eq(TOGGLE_EBUFSIZE, -6);
    ck_assert_int_eq(TOGGLE_EOVERFLOW, -7);
    ck_assert_int_eq(TOGGLE_ENOSOLUTION, -8);
    ck_assert_int_eq(TOGGLE_EIO, -9);
    ck_assert_int_eq(TOGGLE_ITEROVER, -10);
    ck_assert_int_eq(TOGGLE_ELIMIT, -11);
    ck_assert_int_eq(TOGGLE_EINTERNAL, -12);
    tu_quiet_end();
}
END_TEST

START_TEST(misuse_graph)
{
    tu_quiet_begin();
    toggle_graph *g = (toggle_graph *)0x1; /* must stay untouched on failure */
    TU_EXPECT(toggle_graph_new_grid(NULL, 3, 3, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_grid(&g, 0, 3, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_grid(&g, 3, 0, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_grid(&g, 3, 3, 0x100), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_grid(&g, SIZE_MAX, 3, 0), TOGGLE_EOVERFLOW);
    ck_assert_ptr_eq(g, (toggle_graph *)0x1);

    int64_t dr[2] = {0, 1}, dc[2] = {0, 0};
    uint64_t w[2] = {1, 1};
    TU_EXPECT(toggle_graph_new_stencil(NULL, 3, 3, dr, dc, w, 2, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_stencil(&g, 3, 3, NULL, dc, w, 2, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_stencil(&g, 3, 3, dr, NULL, w, 2, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_stencil(&g, 3, 3, dr, dc, NULL, 2, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_stencil(&g, 3, 3, dr, dc, w, 0, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_stencil(&g, 3, 3, dr, dc, w, 2, TOGGLE_GRID_MOORE), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_stencil(&g, 1, 3, dr, dc, w, 2, 0), TOGGLE_ERANGE);
    int64_t huge[1] = {INT64_MIN};
    TU_EXPECT(toggle_graph_new_stencil(&g, 3, 3, huge, dc, w, 1, 0), TOGGLE_ERANGE);
    TU_EXPECT(toggle_graph_new_stencil(&g, 0, 3, dr, dc, w, 2, 0), TOGGLE_EINVAL);

    uint8_t adj[4] = {0, 1, 0, 0}, bad[4] = {0, 2, 2, 0};
    TU_EXPECT(toggle_graph_new_adjacency(NULL, 2, adj, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_adjacency(&g, 2, NULL, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_adjacency(&g, 0, adj, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_adjacency(&g, 2, adj, 0), TOGGLE_EINVAL); /* not symmetric */
    TU_EXPECT(toggle_graph_new_adjacency(&g, 2, bad, 0), TOGGLE_EINVAL); /* not 0/1 */
    TU_EXPECT(toggle_graph_new_adjacency(&g, 2, adj, 8), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_adjacency(&g, SIZE_MAX, adj, 0), TOGGLE_EOVERFLOW);

    size_t edges[4] = {0, 1, 1, 5}, loop[2] = {1, 1};
    TU_EXPECT(toggle_graph_new_edges(NULL, 3, edges, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_edges(&g, 0, edges, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_edges(&g, 3, NULL, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_edges(&g, 3, edges, 2, 0), TOGGLE_ERANGE);
    TU_EXPECT(toggle_graph_new_edges(&g, 3, loop, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_edges(&g, 3, edges, 1, 4), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_edges(&g, 3, edges, SIZE_MAX, 0), TOGGLE_EOVERFLOW);

    TU_EXPECT(toggle_graph_parse_edges(NULL, "0 1", 3, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_parse_edges(&g, NULL, 3, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_parse_edges(&g, "0 -1", 4, 0), TOGGLE_EPARSE);
    TU_EXPECT(toggle_graph_parse_edges(&g, "", 0, 0), TOGGLE_EINVAL); /* no nodes */

    uint64_t m[4] = {1, 1, 0, 1};
    TU_EXPECT(toggle_graph_new_matrix(NULL, 2, m), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_matrix(&g, 2, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_matrix(&g, 0, m), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_matrix(&g, SIZE_MAX / 2, m), TOGGLE_EOVERFLOW);
    ck_assert_ptr_eq(g, (toggle_graph *)0x1);

    toggle_graph_free(NULL);
    ck_assert_uint_eq(toggle_graph_cells(NULL), 0);
    ck_assert_int_eq(toggle_graph_kind(NULL), 0);
    ck_assert_uint_eq(toggle_graph_flags(NULL), 0);
    toggle_graph *real = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&real, 2, 3, 0), TOGGLE_OK);
    size_t r = 7, c = 7;
    uint64_t v = 7;
    TU_EXPECT(toggle_graph_grid_shape(NULL, &r, &c), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_grid_shape(real, NULL, &c), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_grid_shape(real, &r, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_entry(NULL, 0, 0, &v), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_entry(real, 0, 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_entry(real, 6, 0, &v), TOGGLE_ERANGE);
    TU_EXPECT(toggle_graph_entry(real, 0, 6, &v), TOGGLE_ERANGE);
    ck_assert_uint_eq(v, 7);
    ck_assert_uint_eq(r, 7);
    toggle_graph_free(real);
    tu_quiet_end();
}
END_TEST

START_TEST(misuse_system)
{
    tu_quiet_begin();
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 2, 2, 0), TOGGLE_OK);
    toggle_system *s = (toggle_system *)0x1;
    uint64_t st[4] = {0, 1, 2, 0}, big[4] = {0, 0, 0, 9};
    TU_EXPECT(toggle_system_new(NULL, g, 3, NULL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new(&s, NULL, 3, NULL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new(&s, g, 0, NULL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new(&s, g, 1, NULL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new(&s, g, UINT64_MAX, NULL, NULL), TOGGLE_ERANGE);
    TU_EXPECT(toggle_system_new(&s, g, 2, st, NULL), TOGGLE_ERANGE);
    TU_EXPECT(toggle_system_new(&s, g, 5, NULL, big), TOGGLE_ERANGE);

    uint64_t a[4] = {1, 0, 0, 1}, b[2] = {1, 1}, abad[4] = {1, 0, 0, 3};
    TU_EXPECT(toggle_system_new_matrix(NULL, 2, 2, a, b, 3), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new_matrix(&s, 2, 2, NULL, b, 3), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new_matrix(&s, 2, 2, a, NULL, 3), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new_matrix(&s, 2, 2, a, b, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_new_matrix(&s, 2, 2, abad, b, 3), TOGGLE_ERANGE);
    TU_EXPECT(toggle_system_new_matrix(&s, SIZE_MAX, 2, a, b, 3), TOGGLE_EOVERFLOW);
    TU_EXPECT(toggle_system_new_matrix(&s, 2, 2, a, b, (uint64_t)1 << 63), TOGGLE_ERANGE);

    TU_EXPECT(toggle_system_parse(NULL, "1|1", 3, 2), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_parse(&s, NULL, 3, 2), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_parse(&s, "1|1", 3, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_parse(&s, "1|1|1", 5, 2), TOGGLE_EPARSE);
    TU_EXPECT(toggle_system_parse(&s, "1|1\0", 4, 2), TOGGLE_EPARSE);
    ck_assert_ptr_eq(s, (toggle_system *)0x1);

    toggle_system *real = NULL;
    ck_assert_int_eq(toggle_system_new(&real, g, 3, NULL, NULL), TOGGLE_OK);
    char buf[4] = "xyz";
    size_t need = 0;
    TU_EXPECT(toggle_system_write(NULL, buf, 4, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_write(real, NULL, 4, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_write(real, buf, 4, &need), TOGGLE_EBUFSIZE);
    ck_assert_uint_gt(need, 4);
    uint64_t v = 42;
    TU_EXPECT(toggle_system_entry(NULL, 0, 0, &v), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_entry(real, 0, 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_entry(real, 4, 0, &v), TOGGLE_ERANGE);
    TU_EXPECT(toggle_system_rhs(NULL, 0, &v), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_rhs(real, 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_rhs(real, 4, &v), TOGGLE_ERANGE);
    ck_assert_uint_eq(v, 42);
    TU_EXPECT(toggle_system_set_option(NULL, TOGGLE_SYSTEM_OPT_ENGINE, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_set_option(real, 999, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_set_option(real, TOGGLE_SYSTEM_OPT_ENGINE, 77), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_set_option(real, TOGGLE_SEARCH_OPT_METRIC, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_get_option(NULL, TOGGLE_SYSTEM_OPT_ENGINE, &v), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_get_option(real, TOGGLE_SYSTEM_OPT_ENGINE, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_get_option(real, 999, &v), TOGGLE_EINVAL);
    int ok = 7;
    uint64_t x[4] = {0, 0, 0, 0}, xbad[4] = {0, 0, 3, 0};
    TU_EXPECT(toggle_system_check(NULL, x, 4, &ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_check(real, NULL, 4, &ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_check(real, x, 4, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_check(real, x, 3, &ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_check(real, xbad, 4, &ok), TOGGLE_ERANGE);
    TU_EXPECT(toggle_system_check_certificate(NULL, x, 4, &ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_check_certificate(real, NULL, 4, &ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_check_certificate(real, x, 4, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_check_certificate(real, x, 5, &ok), TOGGLE_EINVAL);
    TU_EXPECT(toggle_system_check_certificate(real, xbad, 4, &ok), TOGGLE_ERANGE);
    ck_assert_int_eq(ok, 7);
    int e = 99;
    TU_EXPECT(toggle_engine_from_name(NULL, &e), TOGGLE_EINVAL);
    TU_EXPECT(toggle_engine_from_name("flint", NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_engine_from_name("warp", &e), TOGGLE_EINVAL);
    ck_assert_int_eq(e, 99);
    ck_assert_ptr_null(toggle_engine_name(-1));
    ck_assert_ptr_null(toggle_engine_name(1000));
    ck_assert_uint_eq(toggle_system_rows(NULL), 0);
    ck_assert_uint_eq(toggle_system_cols(NULL), 0);
    ck_assert_uint_eq(toggle_system_modulus(NULL), 0);
    ck_assert_ptr_null(toggle_system_graph(NULL));
    toggle_system_free(NULL);

    uint64_t cells[4] = {5, 5, 5, 5};
    size_t r = 9, c = 9;
    TU_EXPECT(toggle_board_parse(NULL, 3, 2, cells, 4, &r, &c), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_parse("01", 2, 2, cells, 4, NULL, &c), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_parse("01", 2, 2, cells, 4, &r, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_parse("01", 2, 2, NULL, 4, &r, &c), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_parse("01", 2, 1, cells, 4, &r, &c), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_parse("0a", 2, 2, cells, 4, &r, &c), TOGGLE_EPARSE);
    ck_assert_uint_eq(cells[0], 5);
    TU_EXPECT(toggle_board_format(NULL, 1, 1, 2, buf, 4, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_format(x, 2, 2, 2, NULL, 4, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_format(x, 2, 2, 0, buf, 4, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_board_format(x, SIZE_MAX, 2, 2, buf, 4, &need), TOGGLE_EOVERFLOW);
    TU_EXPECT(toggle_board_format(x, 2, 2, 2, buf, 4, &need), TOGGLE_EBUFSIZE);
    toggle_system_free(real);
    toggle_graph_free(g);
    tu_quiet_end();
}
END_TEST

START_TEST(misuse_solution)
{
    tu_quiet_begin();
    toggle_solution *sol = (toggle_solution *)0x1;
    TU_EXPECT(toggle_solve(NULL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solve(&sol, NULL), TOGGLE_EINVAL);
    ck_assert_ptr_eq(sol, (toggle_solution *)0x1);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 2, 2, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, NULL), TOGGLE_OK);
    TU_EXPECT(toggle_solve(NULL, s), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    uint64_t x[4], c;
    char buf[2];
    size_t need;
    ck_assert_int_eq(toggle_solution_is_solvable(NULL), TOGGLE_EINVAL);
    ck_assert_uint_eq(toggle_solution_nullity(NULL), 0);
    ck_assert_uint_eq(toggle_solution_cols(NULL), 0);
    ck_assert_uint_eq(toggle_solution_rows(NULL), 0);
    ck_assert_uint_eq(toggle_solution_modulus(NULL), 0);
    ck_assert_int_eq(toggle_solution_engine(NULL), 0);
    TU_EXPECT(toggle_solution_count_u64(NULL, &c), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_count_u64(sol, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_count_string(NULL, buf, 2, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_count_string(sol, NULL, 2, &need), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_count_string(sol, buf, 1, &need), TOGGLE_EBUFSIZE);
    TU_EXPECT(toggle_solution_particular(NULL, x, 4), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_particular(sol, NULL, 4), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_particular(sol, x, 3), TOGGLE_EBUFSIZE);
    TU_EXPECT(toggle_solution_particular_range(NULL, 0, x, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_particular_range(sol, 0, NULL, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_particular_range(sol, 3, x, 2), TOGGLE_ERANGE);
    TU_EXPECT(toggle_solution_particular_range(sol, SIZE_MAX, x, 2), TOGGLE_ERANGE);
    TU_EXPECT(toggle_solution_kernel_vector(NULL, 0, x, 4), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_kernel_vector(sol, 0, NULL, 4), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_kernel_vector(sol, 0, x, 4), TOGGLE_ERANGE); /* nullity 0 */
    TU_EXPECT(toggle_solution_certificate(NULL, x, 4), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_certificate(sol, NULL, 4), TOGGLE_EINVAL);
    TU_EXPECT(toggle_solution_certificate(sol, x, 4), TOGGLE_EUNSUPPORTED); /* solvable */
    toggle_solution_free(sol);
    toggle_solution_free(NULL);
    /* engines that do not apply */
    TU_EXPECT(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_HOWELL), TOGGLE_OK);
    sol = (toggle_solution *)0x1;
    toggle_clear_error();
    int rc = toggle_solve(&sol, s);
    ck_assert_int_eq(rc, TOGGLE_EUNSUPPORTED);
    ck_assert_ptr_eq(sol, (toggle_solution *)0x1);
    toggle_system_free(s);
    toggle_graph_free(g);
    tu_quiet_end();
}
END_TEST

int main(void)
{
    Suite *su = suite_create("misuse");
    TCase *tc = tcase_create("misuse");
    tcase_add_test(tc, misuse_version_and_errors);
    tcase_add_test(tc, misuse_graph);
    tcase_add_test(tc, misuse_system);
    tcase_add_test(tc, misuse_solution);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
