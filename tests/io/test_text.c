/* Text forms: augmented systems and boards, round trips and parse errors. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

START_TEST(augmented_background_example)
{
    const char *txt = "# a chaos puzzle\n110000100000|1\n011000011000|1\n\n";
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_parse(&s, txt, strlen(txt), 2), TOGGLE_OK);
    ck_assert_uint_eq(toggle_system_rows(s), 2);
    ck_assert_uint_eq(toggle_system_cols(s), 12);
    uint64_t v;
    ck_assert_int_eq(toggle_system_entry(s, 1, 2, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 1);
    ck_assert_int_eq(toggle_system_rhs(s, 1, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 1);
    char buf[64];
    size_t need;
    ck_assert_int_eq(toggle_system_write(s, buf, sizeof buf, &need), TOGGLE_OK);
    ck_assert_str_eq(buf, "110000100000|1\n011000011000|1\n");
    ck_assert_int_eq(toggle_system_write(s, buf, 5, &need), TOGGLE_EBUFSIZE);
    ck_assert_uint_eq(need, strlen("110000100000|1\n011000011000|1\n") + 1);
    toggle_system_free(s);
}
END_TEST

START_TEST(augmented_round_trip_random)
{
    tu_rng rng = tu_rng_for(5);
    const uint64_t ks[] = {2, 3, 7, 10, 11, 65521, 4611686018427388039ull};
    for (size_t it = 0; it < tu_iters(200); it++) {
        uint64_t k = ks[tu_below(&rng, 7)];
        size_t m = 1 + tu_below(&rng, 6), n = tu_below(&rng, 9);
        uint64_t *a = malloc((m * n + 1) * 8), *b = malloc(m * 8);
        for (size_t i = 0; i < m * n; i++)
            a[i] = tu_below(&rng, k);
        for (size_t i = 0; i < m; i++)
            b[i] = tu_below(&rng, k);
        toggle_system *s = NULL, *t = NULL;
        ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, k), TOGGLE_OK);
        size_t need = 0;
        ck_assert_int_eq(toggle_system_write(s, NULL, 0, &need), TOGGLE_EBUFSIZE);
        char *txt = malloc(need);
        ck_assert_int_eq(toggle_system_write(s, txt, need, NULL), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_parse(&t, txt, strlen(txt), k), TOGGLE_OK);
        ck_assert_uint_eq(toggle_system_rows(t), m);
        ck_assert_uint_eq(toggle_system_cols(t), n);
        for (size_t i = 0; i < m; i++) {
            uint64_t v;
            for (size_t j = 0; j < n; j++) {
                toggle_system_entry(t, i, j, &v);
                ck_assert_uint_eq(v, a[i * n + j]);
            }
            toggle_system_rhs(t, i, &v);
            ck_assert_uint_eq(v, b[i]);
        }
        free(txt);
        free(a);
        free(b);
        toggle_system_free(s);
        toggle_system_free(t);
    }
}
END_TEST

START_TEST(augmented_errors)
{
    toggle_system *s = NULL;
    const char *ragged = "101|1\n10|0\n";
    ck_assert_int_eq(toggle_system_parse(&s, ragged, strlen(ragged), 2), TOGGLE_EPARSE);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(toggle_last_error(), "line 2 has 2 entries, expected 3"), "%s",
                  toggle_last_error());
    ck_assert_int_eq(toggle_system_parse(&s, "102|1\n", 6, 2), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_system_parse(&s, "101\n", 4, 2), TOGGLE_EPARSE);
    ck_assert_int_eq(toggle_system_parse(&s, "101|\n", 5, 2), TOGGLE_EPARSE);
    ck_assert_int_eq(toggle_system_parse(&s, "1x1|1\n", 6, 2), TOGGLE_EPARSE);
    ck_assert_int_eq(toggle_system_parse(&s, "12 3|4\n", 7, 13), TOGGLE_OK);
    ck_assert_uint_eq(toggle_system_cols(s), 2);
    toggle_system_free(s);
    s = NULL;
    ck_assert_int_eq(toggle_system_parse(&s, "12 13|4\n", 8, 13), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_system_parse(&s, "99999999999999999999999 1|0\n", 28, 13),
                     TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_system_parse(&s, "", 0, 2), TOGGLE_OK); /* 0 x 0 */
    ck_assert_uint_eq(toggle_system_rows(s), 0);
    toggle_system_free(s);
}
END_TEST

START_TEST(boards)
{
    const char *txt = "# a board\n1.1\n010\n\n101\n";
    uint64_t cells[9];
    size_t r, c;
    ck_assert_int_eq(toggle_board_parse(txt, strlen(txt), 2, cells, 9, &r, &c), TOGGLE_OK);
    ck_assert_uint_eq(r, 3);
    ck_assert_uint_eq(c, 3);
    const uint64_t want[9] = {1, 0, 1, 0, 1, 0, 1, 0, 1};
    ck_assert_mem_eq(cells, want, sizeof want);
    ck_assert_int_eq(toggle_board_parse(txt, strlen(txt), 2, cells, 4, &r, &c), TOGGLE_EBUFSIZE);
    ck_assert_uint_eq(r * c, 9);
    char buf[32];
    size_t need;
    ck_assert_int_eq(toggle_board_format(want, 3, 3, 2, buf, sizeof buf, &need), TOGGLE_OK);
    ck_assert_str_eq(buf, "101\n010\n101\n");
    const uint64_t big[4] = {10, 0, 65520, 7};
    ck_assert_int_eq(toggle_board_format(big, 2, 2, 65521, buf, sizeof buf, &need), TOGGLE_OK);
    ck_assert_str_eq(buf, "10 0\n65520 7\n");
    uint64_t back[4];
    ck_assert_int_eq(toggle_board_parse(buf, strlen(buf), 65521, back, 4, &r, &c), TOGGLE_OK);
    ck_assert_mem_eq(back, big, sizeof big);
    ck_assert_int_eq(toggle_board_parse("12\n1\n", 5, 3, cells, 9, &r, &c), TOGGLE_EPARSE);
    ck_assert_int_eq(toggle_board_parse("13\n", 3, 3, cells, 9, &r, &c), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_board_parse("\n# x\n", 5, 3, cells, 9, &r, &c), TOGGLE_EPARSE);
    ck_assert_int_eq(toggle_board_format(big, 2, 2, 7, buf, sizeof buf, &need), TOGGLE_ERANGE);
}
END_TEST

/* A too small buffer is left untouched (every length below the need), for
 * dense and grid systems and for boards; *needed is the exact size. */
static void check_untouched(int (*fmt)(const void *, char *, size_t, size_t *), const void *obj)
{
    size_t need = 0;
    ck_assert_int_eq(fmt(obj, NULL, 0, &need), TOGGLE_EBUFSIZE);
    char *full = malloc(need);
    ck_assert_int_eq(fmt(obj, full, need, NULL), TOGGLE_OK);
    ck_assert_uint_eq(strlen(full) + 1, need);
    char *buf = malloc(need);
    for (size_t len = 1; len < need; len++) {
        memset(buf, 0x7f, need);
        size_t got = 0;
        ck_assert_int_eq(fmt(obj, buf, len, &got), TOGGLE_EBUFSIZE);
        ck_assert_uint_eq(got, need);
        for (size_t i = 0; i < need; i++)
            ck_assert_msg(buf[i] == 0x7f, "byte %zu of a %zu-byte buffer written", i, len);
    }
    free(buf);
    free(full);
}

static int write_system(const void *s, char *buf, size_t len, size_t *need)
{
    return toggle_system_write(s, buf, len, need);
}

typedef struct {
    const uint64_t *cells;
    size_t rows, cols;
    uint64_t k;
} board;

static int format_board(const void *o, char *buf, size_t len, size_t *need)
{
    const board *b = o;
    return toggle_board_format(b->cells, b->rows, b->cols, b->k, buf, len, need);
}

START_TEST(too_small_buffers_untouched)
{
    const uint64_t a[6] = {1, 0, 2, 12, 0, 3}, rhs[2] = {4, 0};
    const uint64_t ks[] = {5, 13, UINT64_C(4611686018427388039)};
    for (size_t ki = 0; ki < 3; ki++) {
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_system_new_matrix(&s, 2, 3, a, rhs, ks[ki] > 12 ? ks[ki] : 13),
                         TOGGLE_OK);
        check_untouched(write_system, s);
        toggle_system_free(s);
        board bd = {a, 2, 3, 13};
        check_untouched(format_board, &bd);
    }
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 3, 4, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, 11, NULL, NULL), TOGGLE_OK);
    check_untouched(write_system, s);
    toggle_system_free(s);
    ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, NULL), TOGGLE_OK);
    check_untouched(write_system, s);
    toggle_system_free(s);
    toggle_graph_free(g);
}
END_TEST

/* Parse messages: no raw NUL or control byte (shown in hex), columns count
 * from the start of the line (after '|' and after "nodes" too), and the
 * edge-list parser never speaks of a modulus. */
static void expect_msg(int rc, int want, const char *needle)
{
    const char *m = toggle_last_error();
    ck_assert_msg(rc == want, "%s: %s", toggle_status_name(rc), m);
    for (const char *p = m; *p; p++)
        ck_assert_msg((unsigned char)*p >= 32 && (unsigned char)*p < 127, "raw byte 0x%02x in "
                      "'%s'", (unsigned)(unsigned char)*p, m);
    ck_assert_msg(strstr(m, needle) != NULL, "'%s' lacks '%s'", m, needle);
}

START_TEST(parse_messages)
{
    toggle_system *s = NULL;
    toggle_graph *g = NULL;
    expect_msg(toggle_system_parse(&s, "1 2\x01|3", 7, 13), TOGGLE_EPARSE, "0x01");
    expect_msg(toggle_system_parse(&s, "1 2\0|3", 7, 13), TOGGLE_EPARSE, "0x00");
    expect_msg(toggle_system_parse(&s, "12 3\x1b | 3", 10, 1000), TOGGLE_EPARSE, "column 5");
    expect_msg(toggle_system_parse(&s, "11|1x", 5, 2), TOGGLE_EPARSE, "column 5");
    expect_msg(toggle_system_parse(&s, "1 1 | 2 \x7f", 9, 11), TOGGLE_EPARSE, "0x7f");
    uint64_t cells[4];
    size_t r, c;
    expect_msg(toggle_board_parse("12 3\x02", 5, 20, cells, 4, &r, &c), TOGGLE_EPARSE, "0x02");
    const char *e1 = "0 18446744073709551615";
    expect_msg(toggle_graph_parse_edges(&g, e1, strlen(e1), 0), TOGGLE_ERANGE, "column 3");
    ck_assert(strstr(toggle_last_error(), "modulus") == NULL);
    expect_msg(toggle_graph_parse_edges(&g, "nodes 5x", 8, 0), TOGGLE_EPARSE, "column 8");
    expect_msg(toggle_graph_parse_edges(&g, "nodes 99999999999999999999", 26, 0), TOGGLE_ERANGE,
               "column 7");
    ck_assert(strstr(toggle_last_error(), "modulus") == NULL);
    expect_msg(toggle_graph_parse_edges(&g, "0 1\x03", 4, 0), TOGGLE_EPARSE, "0x03");
}
END_TEST

int main(void)
{
    Suite *su = suite_create("text");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, augmented_background_example);
    tcase_add_test(tc, augmented_round_trip_random);
    tcase_add_test(tc, augmented_errors);
    tcase_add_test(tc, boards);
    tcase_add_test(tc, too_small_buffers_untouched);
    tcase_add_test(tc, parse_messages);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
