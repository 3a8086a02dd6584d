/* Graph constructors and accessors, checked against the test's own neighbour code. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void compare_grid(size_t rows, size_t cols, uint32_t flags)
{
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, rows, cols, flags), TOGGLE_OK);
    size_t n = rows * cols;
    ck_assert_uint_eq(toggle_graph_cells(g), n);
    size_t r, c;
    ck_assert_int_eq(toggle_graph_grid_shape(g, &r, &c), TOGGLE_OK);
    ck_assert_uint_eq(r, rows);
    ck_assert_uint_eq(c, cols);
    uint64_t *a = tu_grid_matrix(rows, cols, flags);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            uint64_t v;
            ck_assert_int_eq(toggle_graph_entry(g, i, j, &v), TOGGLE_OK);
            ck_assert_msg(v == a[i * n + j], "%zux%zu flags %u entry (%zu,%zu) = %llu, want %llu",
                          rows, cols, (unsigned)flags, i, j, (unsigned long long)v,
                          (unsigned long long)a[i * n + j]);
        }
    free(a);
    toggle_graph_free(g);
}

START_TEST(grid_matches_definition)
{
    /* every lattice and wrap, with and without self (a neighbour reached
     * twice on a 1- or 2-wide wrap counts twice) */
    uint32_t lat[] = {0, TOGGLE_GRID_MOORE, TOGGLE_GRID_HEX, TOGGLE_GRID_TRI};
    uint32_t wraps[] = {0, TOGGLE_GRID_TORUS, TOGGLE_GRID_CYLINDER};
    uint32_t flags[24];
    size_t nf = 0;
    for (size_t l = 0; l < 4; l++)
        for (size_t w = 0; w < 3; w++)
            for (uint32_t ns = 0; ns <= TOGGLE_GRID_NO_SELF; ns++)
                flags[nf++] = lat[l] | wraps[w] | ns;
    for (size_t f = 0; f < nf; f++)
        for (size_t r = 1; r <= 5; r++)
            for (size_t c = 1; c <= 5; c++)
                compare_grid(r, c, flags[f]);
}
END_TEST

START_TEST(grid_flag_combinations)
{
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 3, TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER),
                     TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 3, TOGGLE_GRID_HEX | TOGGLE_GRID_TRI),
                     TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 3, TOGGLE_GRID_MOORE | TOGGLE_GRID_HEX),
                     TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 3, 64), TOGGLE_EINVAL);
    ck_assert_ptr_null(g);
    /* a 1-wide torus: the two horizontal neighbours are the cell itself */
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 1, TOGGLE_GRID_TORUS), TOGGLE_OK);
    uint64_t v = 0;
    ck_assert_int_eq(toggle_graph_entry(g, 1, 1, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 3);
    toggle_graph_free(g);
    /* a 2-wide cylinder: left and right are the same cell, counted twice */
    ck_assert_int_eq(toggle_graph_new_grid(&g, 2, 2, TOGGLE_GRID_CYLINDER), TOGGLE_OK);
    ck_assert_int_eq(toggle_graph_entry(g, 0, 1, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 2);
    ck_assert_int_eq(toggle_graph_entry(g, 0, 2, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 1);
    toggle_graph_free(g);
}
END_TEST

START_TEST(stencil_knight)
{
    /* knight moves plus self on a 4 x 5 board */
    int64_t dr[9] = {0, 1, 1, -1, -1, 2, 2, -2, -2}, dc[9] = {0, 2, -2, 2, -2, 1, -1, 1, -1};
    uint64_t w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_stencil(&g, 4, 5, dr, dc, w, 9, 0), TOGGLE_OK);
    for (size_t j = 0; j < 20; j++)
        for (size_t i = 0; i < 20; i++) {
            long ri = (long)(i / 5), ci = (long)(i % 5), rj = (long)(j / 5), cj = (long)(j % 5);
            long d1 = labs(ri - rj), d2 = labs(ci - cj);
            uint64_t want = (d1 == 0 && d2 == 0) || (d1 == 1 && d2 == 2) || (d1 == 2 && d2 == 1);
            uint64_t v;
            ck_assert_int_eq(toggle_graph_entry(g, i, j, &v), TOGGLE_OK);
            ck_assert_uint_eq(v, want);
        }
    ck_assert_int_eq(toggle_graph_kind(g), TOGGLE_KIND_STENCIL);
    toggle_graph_free(g);
}
END_TEST

START_TEST(stencil_weights_add)
{
    int64_t dr[3] = {0, 0, 1}, dc[3] = {0, 0, 0};
    uint64_t w[3] = {2, 3, 7};
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_stencil(&g, 3, 3, dr, dc, w, 3, TOGGLE_GRID_TORUS),
                     TOGGLE_OK);
    uint64_t v;
    ck_assert_int_eq(toggle_graph_entry(g, 4, 4, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 5);
    ck_assert_int_eq(toggle_graph_entry(g, 1, 7, &v), TOGGLE_OK); /* (2,1) -> wraps to (0,1) */
    ck_assert_uint_eq(v, 7);
    toggle_graph_free(g);
}
END_TEST

/* Weights reaching the same cell add up in one unreduced 64-bit entry:
 * a sum past 2^64 used to wrap, giving a wrong A mod k (k = 3: (2^64 - 1) + 2
 * is 2 mod 3, the wrapped 1 is not). Such stencils are refused; distinct
 * cells with huge weights, and huge sums that never meet, stay fine. */
START_TEST(stencil_weight_sum_overflow)
{
    toggle_graph *g = NULL;
    int64_t dr[2] = {0, 0}, dc[2] = {0, 0};
    uint64_t w[2] = {UINT64_MAX, 2};
    ck_assert_int_eq(toggle_graph_new_stencil(&g, 2, 2, dr, dc, w, 2, 0), TOGGLE_EOVERFLOW);
    ck_assert_ptr_null(g);
    /* on a 1 x 2 torus, offsets (0, 1) and (0, -1) reach the same cell */
    int64_t tr[2] = {0, 0}, tc[2] = {1, -1};
    ck_assert_int_eq(toggle_graph_new_stencil(&g, 1, 2, tr, tc, w, 2, TOGGLE_GRID_TORUS),
                     TOGGLE_EOVERFLOW);
    ck_assert_ptr_null(g);
    /* ... but not without the torus: each weight stays in its own entry */
    ck_assert_int_eq(toggle_graph_new_stencil(&g, 1, 2, tr, tc, w, 2, 0), TOGGLE_OK);
    uint64_t v;
    ck_assert_int_eq(toggle_graph_entry(g, 1, 0, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, UINT64_MAX);
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, 3, NULL, NULL), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_entry(s, 1, 0, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 0); /* 2^64 - 1 = 0 mod 3 */
    ck_assert_int_eq(toggle_system_entry(s, 0, 1, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 2);
    toggle_system_free(s);
    toggle_graph_free(g);
    /* a sum reaching exactly 2^64 - 1 fits */
    uint64_t w2[2] = {UINT64_MAX - 2, 2};
    ck_assert_int_eq(toggle_graph_new_stencil(&g, 2, 2, dr, dc, w2, 2, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_graph_entry(g, 3, 3, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, UINT64_MAX);
    toggle_graph_free(g);
}
END_TEST

START_TEST(edges_adjacency_agree)
{
    tu_rng rng = tu_rng_for(11);
    for (size_t it = 0; it < tu_iters(50); it++) {
        size_t n = 1 + tu_below(&rng, 12);
        uint8_t *adj = calloc(n * n, 1);
        size_t *edges = malloc(n * n * 2 * sizeof *edges), ne = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                if (tu_below(&rng, 3) == 0) {
                    adj[i * n + j] = adj[j * n + i] = 1;
                    edges[2 * ne] = i;
                    edges[2 * ne + 1] = j;
                    ne++;
                    if (tu_below(&rng, 4) == 0) { /* a repeated edge counts once */
                        edges[2 * ne] = j;
                        edges[2 * ne + 1] = i;
                        ne++;
                    }
                }
        uint32_t flags = tu_below(&rng, 2) ? TOGGLE_GRAPH_NO_SELF : 0;
        toggle_graph *g1 = NULL, *g2 = NULL;
        ck_assert_int_eq(toggle_graph_new_adjacency(&g1, n, adj, flags), TOGGLE_OK);
        ck_assert_int_eq(toggle_graph_new_edges(&g2, n, edges, ne, flags), TOGGLE_OK);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                uint64_t v1, v2, want = (i == j) ? !flags : adj[i * n + j];
                toggle_graph_entry(g1, i, j, &v1);
                toggle_graph_entry(g2, i, j, &v2);
                ck_assert_uint_eq(v1, want);
                ck_assert_uint_eq(v2, want);
            }
        toggle_graph_free(g1);
        toggle_graph_free(g2);
        free(adj);
        free(edges);
    }
}
END_TEST

START_TEST(parse_edges)
{
    const char *txt = "# a path and a triangle\nnodes 6\n0 1\n1 2\n\n3 4 # comment\n4 5\n5 3\n";
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_parse_edges(&g, txt, strlen(txt), 0), TOGGLE_OK);
    ck_assert_uint_eq(toggle_graph_cells(g), 6);
    uint64_t v;
    toggle_graph_entry(g, 0, 1, &v);
    ck_assert_uint_eq(v, 1);
    toggle_graph_entry(g, 0, 2, &v);
    ck_assert_uint_eq(v, 0);
    toggle_graph_entry(g, 3, 5, &v);
    ck_assert_uint_eq(v, 1);
    toggle_graph_free(g);
    g = NULL;
    ck_assert_int_eq(toggle_graph_parse_edges(&g, "0 1\n1 x\n", 8, 0), TOGGLE_EPARSE);
    ck_assert_ptr_null(g);
    ck_assert_msg(strstr(toggle_last_error(), "line 2") != NULL, "%s", toggle_last_error());
    ck_assert_int_eq(toggle_graph_parse_edges(&g, "0 1 2\n", 6, 0), TOGGLE_EPARSE);
    ck_assert_int_eq(toggle_graph_parse_edges(&g, "nodes 2\n0 5\n", 12, 0), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_graph_parse_edges(&g, "1 1\n", 4, 0), TOGGLE_EINVAL);
}
END_TEST

START_TEST(matrix_graph)
{
    uint64_t a[9] = {1, 2, 0, 0, 1, 5, 3, 0, 1};
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_matrix(&g, 3, a), TOGGLE_OK);
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++) {
            uint64_t v;
            ck_assert_int_eq(toggle_graph_entry(g, i, j, &v), TOGGLE_OK);
            ck_assert_uint_eq(v, a[i * 3 + j]);
        }
    size_t r, c;
    ck_assert_int_eq(toggle_graph_grid_shape(g, &r, &c), TOGGLE_EINVAL);
    toggle_graph_free(g);
}
END_TEST

START_TEST(system_keeps_graph_alive)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 3, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, NULL), TOGGLE_OK);
    toggle_graph_free(g);
    ck_assert_uint_eq(toggle_graph_cells(toggle_system_graph(s)), 9);
    uint64_t v;
    ck_assert_int_eq(toggle_system_entry(s, 0, 1, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 1);
    toggle_system_free(s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("graph");
    TCase *tc = tcase_create("graph");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, grid_matches_definition);
    tcase_add_test(tc, grid_flag_combinations);
    tcase_add_test(tc, stencil_knight);
    tcase_add_test(tc, stencil_weights_add);
    tcase_add_test(tc, stencil_weight_sum_overflow);
    tcase_add_test(tc, edges_adjacency_agree);
    tcase_add_test(tc, parse_edges);
    tcase_add_test(tc, matrix_graph);
    tcase_add_test(tc, system_keeps_graph_alive);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
