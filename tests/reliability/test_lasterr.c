/* common.h promises that a successful call leaves toggle_last_error() alone.
 * For every public function that can succeed, each case below first records
 * a known failure (the sentinel), then makes successful calls and compares
 * the thread's message with the sentinel byte for byte. Public API only.
 *
 * Tables:
 * - CALLS: one or more cases per public function (the label is the
 *   function's name, "__variant" after it for a further case);
 * - solve_cases: toggle_solve with AUTO (and some forced engines) on systems
 *   that each engine takes, solvable and not, then the count string;
 * - nullity_cases: toggle_grid_nullity, polynomial and elimination routes;
 * - gen_cases: the generator with several options;
 * - not_covered: the functions that have no success to test, and why.
 * The coverage test reads lib/libtoggle.map and every header in
 * include/toggle/ and fails if a public function is in none of these tables. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, unlink, close */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#ifndef LASTERR_SOURCE_ROOT
#error "meson passes LASTERR_SOURCE_ROOT"
#endif

/* A call returned TOGGLE_OK with a wrong result (not a status code). */
#define WRONG 1000
#define OK_IF(cond) ((cond) ? TOGGLE_OK : WRONG)

/* ---- the sentinel -------------------------------------------------------- */

static char sentinel[512];

/* A known failure: an engine name no build has. */
static void sentinel_set(void)
{
    int engine = -1;
    ck_assert_int_eq(toggle_engine_from_name("lasterr-sentinel", &engine), TOGGLE_EINVAL);
    const char *msg = toggle_last_error();
    ck_assert_msg(strstr(msg, "'lasterr-sentinel'") != NULL, "unexpected sentinel \"%s\"", msg);
    ck_assert_uint_lt(strlen(msg), sizeof sentinel);
    memcpy(sentinel, msg, strlen(msg) + 1);
}

static int sentinel_intact(void)
{
    const char *now = toggle_last_error();
    return strlen(now) == strlen(sentinel) && memcmp(now, sentinel, strlen(sentinel) + 1) == 0;
}

/* Successful calls that replaced the sentinel, one line each: a test goes
 * on after one, so that it reports every such call it makes. */
static char misses[8192];

/* rc is what the calls under test returned (WRONG: a wrong result): that
 * must be want, or the test stops; the message must still be the sentinel. */
static void assert_kept(const char *what, int rc, int want)
{
    const char *now = toggle_last_error();
    ck_assert_msg(rc != WRONG, "%s: success with a wrong result", what);
    ck_assert_msg(rc == want, "%s returned %s, expected %s: \"%s\"", what,
                  toggle_status_name(rc), toggle_status_name(want), now);
    if (!sentinel_intact()) {
        size_t used = strlen(misses);
        snprintf(misses + used, sizeof misses - used, "\n  %s succeeded but left \"%s\"", what,
                 now);
    }
}

/* End of a test: no call it made replaced the sentinel. */
static void misses_reset(void) { misses[0] = '\0'; }

static void assert_no_misses(void)
{
    ck_assert_msg(misses[0] == '\0', "the last error was \"%s\"; then:%s", sentinel, misses);
}

/* ---- fixtures ------------------------------------------------------------ */

typedef struct {
    toggle_graph *g;
    toggle_system *s;
    toggle_solution *sol;
    toggle_iter *it;
    toggle_rng *rng;
    toggle_search *search;
    toggle_generator *gen;
    toggle_render_opts *opts;
    toggle_steps *steps;
    toggle_system *s2;
    uint64_t v[64], w[64], u, u2;
    size_t r, c;
    int i, j, rc;
    uint32_t mask;
    uint8_t rgb[3];
    char buf[8192];
    char path[64];
} fx;

static void fx_free(fx *f)
{
    toggle_iter_free(f->it);
    toggle_rng_free(f->rng);
    toggle_search_free(f->search);
    toggle_generator_free(f->gen);
    toggle_render_opts_free(f->opts);
    toggle_steps_free(f->steps);
    toggle_system_free(f->s2);
    tu_free_all(f->g, f->s, f->sol);
    if (f->path[0])
        unlink(f->path);
}

/* Setup steps are not under test: they must succeed, nothing more. */
static void need(int rc, const char *what)
{
    ck_assert_msg(rc == TOGGLE_OK, "setup %s: %s: %s", what, toggle_status_name(rc),
                  toggle_last_error());
}

#define SYS_MOD3 "# dense, unique mod 3\n211|1\n121|2\n\n111|0\n"
#define BOARD "# full D4\n1..1\n0110\n\n0110\n1001\n"
#define BOARD_OUT "1001\n0110\n0110\n1001\n"

static void parse(fx *f, const char *text, uint64_t k)
{
    need(toggle_system_parse(&f->s, text, strlen(text), k), "toggle_system_parse");
}

static void su_none(fx *f) { (void)f; }
static void su_graph(fx *f) { need(toggle_graph_new_grid(&f->g, 4, 4, 0), "graph"); }
/* The all-off to all-on 4x4 game mod 2: chase, nullity 4, 16 solutions. */
static void su_grid(fx *f) { f->sol = tu_solve_grid(4, 4, TOGGLE_GRID_CLASSIC, 2, &f->g, &f->s); }
/* 5x5 mod 6 (chase, the Howell answers: 108 solutions) and 5x5 mod 3 (chase, 27). */
static void su_grid6(fx *f) { f->sol = tu_solve_grid(5, 5, TOGGLE_GRID_CLASSIC, 6, &f->g, &f->s); }
static void su_grid3(fx *f) { f->sol = tu_solve_grid(5, 5, TOGGLE_GRID_CLASSIC, 3, &f->g, &f->s); }
static void su_parsed(fx *f) { parse(f, SYS_MOD3, 3); }
static void su_steps(fx *f)
{
    parse(f, SYS_MOD3, 3);
    need(toggle_steps_new(&f->steps, f->s), "toggle_steps_new");
}
static void su_steps_done(fx *f)
{
    su_steps(f);
    need(toggle_steps_auto(f->steps, SIZE_MAX, &f->r), "toggle_steps_auto");
}
static void su_steps_undone(fx *f)
{
    su_steps_done(f);
    need(toggle_steps_undo(f->steps, 1), "toggle_steps_undo");
}
static void su_unsolvable(fx *f)
{
    parse(f, "11|0\n11|1\n", 2);
    need(toggle_solve(&f->sol, f->s), "toggle_solve");
}
/* Steps on the board a setup before them built. */
static void particular(fx *f) { need(toggle_solution_particular(f->sol, f->v, 16), "particular"); }
static void certificate(fx *f) { need(toggle_solution_certificate(f->sol, f->v, 2), "cert"); }
static void iter(fx *f) { need(toggle_iter_new(&f->it, f->sol), "toggle_iter_new"); }
static void su_rng(fx *f) { need(toggle_rng_new(&f->rng, 42), "toggle_rng_new"); }
static void search(fx *f) { need(toggle_search_new(&f->search, f->sol), "toggle_search_new"); }
static void limit3(fx *f)
{
    need(toggle_search_set_option(f->search, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, 3), "search limit");
}
static void run(fx *f) { need(toggle_search_run(f->search), "toggle_search_run"); }
static void gen(fx *f) { need(toggle_generator_new(&f->gen, f->s), "toggle_generator_new"); }

/* A setup made of two. */
#define SETUP2(name, first, then) \
    static void name(fx *f)       \
    {                             \
        first(f);                 \
        then(f);                  \
    }
SETUP2(su_particular, su_grid, particular)
SETUP2(su_certificate, su_unsolvable, certificate)
SETUP2(su_iter, su_grid, iter)
SETUP2(su_iter6, su_grid6, iter)
SETUP2(su_sample, su_grid, su_rng)
SETUP2(su_sample6, su_grid6, su_rng)
SETUP2(su_search, su_grid, search)
SETUP2(su_search6, su_grid6, search)
SETUP2(su_search_limited, su_search, limit3)
SETUP2(su_searched, su_search, run)
SETUP2(su_gen, su_grid, gen)
static void su_opts(fx *f) { need(toggle_render_opts_new(&f->opts), "toggle_render_opts_new"); }
static void su_board(fx *f)
{
    size_t r, c;
    need(toggle_board_parse(BOARD, strlen(BOARD), 2, f->v, 64, &r, &c), "toggle_board_parse");
}
static void su_guard(fx *f)
{
    (void)f;
    need(toggle_flint_guard_install(), "toggle_flint_guard_install");
}
static void su_guarded_flint(fx *f)
{
    su_guard(f);
    su_parsed(f);
    need(toggle_system_set_option(f->s, TOGGLE_SYSTEM_OPT_ENGINE, TU_ENGINE_PRIME), "engine");
}

/* Every render option, and a value other than its default. */
static const struct {
    int key;
    uint64_t value;
} render_settings[] = {
    {TOGGLE_RENDER_CELL_SIZE, 4},        {TOGGLE_RENDER_GRID_LINES, 1},
    {TOGGLE_RENDER_BORDER, 2},           {TOGGLE_RENDER_COLORMAP, TOGGLE_CMAP_TAB10},
    {TOGGLE_RENDER_REVERSED, 1},         {TOGGLE_RENDER_LINE_COLOR, 0xff8000},
};
#define N_RENDER_SETTINGS (sizeof render_settings / sizeof *render_settings)

static int render_set_all(fx *f)
{
    for (size_t i = 0; i < N_RENDER_SETTINGS; i++) {
        int rc = toggle_render_opts_set(f->opts, render_settings[i].key, render_settings[i].value);
        if (rc)
            return rc;
    }
    return TOGGLE_OK;
}

static int render_get_all(fx *f)
{
    for (size_t i = 0; i < N_RENDER_SETTINGS; i++) {
        int rc = toggle_render_opts_get(f->opts, render_settings[i].key, &f->u);
        if (rc || f->u != render_settings[i].value)
            return rc ? rc : WRONG;
    }
    return TOGGLE_OK;
}

static void su_opts_set(fx *f)
{
    su_opts(f);
    need(render_set_all(f), "render options");
}
static void su_picture(fx *f)
{
    su_opts_set(f);
    su_board(f);
}
static void su_file(fx *f)
{
    su_picture(f);
    snprintf(f->path, sizeof f->path, "/tmp/lasterr-XXXXXX");
    int fd = mkstemp(f->path);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

/* ---- helpers for the calls ----------------------------------------------- */

/* Run call into f->rc; on success the result must satisfy cond (which may
 * read what the call wrote: ?: sequences the two). */
#define THEN(call, cond) ((f->rc = (call)) != TOGGLE_OK ? f->rc : OK_IF(cond))

/* Functions that write into a caller buffer and report the size needed. */
typedef int (*writer)(fx *f, char *buf, size_t len, size_t *needed);

static int w_count(fx *f, char *buf, size_t len, size_t *needed)
{
    return toggle_solution_count_string(f->sol, buf, len, needed);
}
static int w_system(fx *f, char *buf, size_t len, size_t *needed)
{
    return toggle_system_write(f->s, buf, len, needed);
}
static int w_board(fx *f, char *buf, size_t len, size_t *needed)
{
    return toggle_board_format(f->v, 4, 4, 2, buf, len, needed);
}
static int w_ppm(fx *f, char *buf, size_t len, size_t *needed)
{
    return toggle_render(f->opts, TOGGLE_IMAGE_PPM, f->v, 4, 4, 2, (uint8_t *)buf, len, needed);
}
static int w_png(fx *f, char *buf, size_t len, size_t *needed)
{
    return toggle_render(f->opts, TOGGLE_IMAGE_PNG, f->v, 4, 4, 2, (uint8_t *)buf, len, needed);
}
/* toggle_board_parse in the same shape: len is the capacity in cells (into
 * f->v), needed the cells of the board. */
static int w_board_parse(fx *f, char *buf, size_t len, size_t *needed)
{
    int rc = toggle_board_parse(BOARD, strlen(BOARD), 2, buf ? f->v : NULL, buf ? len : 0, &f->r,
                                &f->c);
    if (needed)
        *needed = f->r * f->c;
    return rc;
}

/* A size query (buf NULL, len 0) is a failure by contract (TOGGLE_EBUFSIZE)
 * and must record a message of its own; then, from a fresh sentinel, the
 * call with a buffer of exactly the size reported. */
static int sized(fx *f, writer w)
{
    size_t needed = 0;
    int rc = w(f, NULL, 0, &needed);
    ck_assert_msg(rc == TOGGLE_EBUFSIZE, "size query returned %s", toggle_status_name(rc));
    ck_assert_msg(!sentinel_intact() && toggle_last_error()[0], "size query left no message");
    ck_assert_uint_gt(needed, 0);
    ck_assert_uint_le(needed, sizeof f->buf);
    sentinel_set();
    return w(f, f->buf, needed, NULL);
}

static int text_is(int rc, const char *got, const char *want)
{
    return rc ? rc : OK_IF(strcmp(got, want) == 0);
}

static int starts_with(int rc, const char *got, const char *prefix)
{
    return rc ? rc : OK_IF(memcmp(got, prefix, strlen(prefix)) == 0);
}

/* A search's checkpoint saved and resumed: the next run ends the same. */
static int ckpt_roundtrip(fx *f)
{
    unsigned char buf[512];
    size_t need = 0;
    uint64_t w0 = 0, w1 = 1;
    int rc = toggle_search_save(f->search, buf, sizeof buf, &need);
    if (!rc)
        rc = toggle_search_result(f->search, NULL, 0, &w0, NULL, NULL);
    if (!rc)
        rc = toggle_search_resume(f->search, buf, need);
    if (!rc)
        rc = toggle_search_run(f->search);
    if (!rc)
        rc = toggle_search_result(f->search, NULL, 0, &w1, NULL, NULL);
    return THEN(rc, w0 == w1);
}

/* Every solution, then the end (not an error): as many as the count. */
static int drain(fx *f)
{
    int rc;
    uint64_t n = 0, count = 0;
    size_t len = toggle_solution_cols(f->sol);
    while ((rc = toggle_iter_next(f->it, f->v, len)) == TOGGLE_OK)
        n++;
    if (rc != TOGGLE_ITEROVER)
        return rc;
    return THEN(toggle_solution_count_u64(f->sol, &count),
                n == count && toggle_iter_produced(f->it) == count);
}

static int count_progress(void *payload, double fraction)
{
    ++*(int *)payload;
    return fraction < 0.0 || fraction > 1.0; /* out of range: cancel (fails the case) */
}

/* A solve that reports progress and goes on leaves the message alone. */
static int progress_solve(fx *f)
{
    int calls = 0;
    toggle_solution *sol = NULL;
    int rc = toggle_system_set_progress(f->s, count_progress, &calls);
    if (!rc)
        rc = toggle_solve(&sol, f->s);
    toggle_solution_free(sol);
    toggle_system_set_progress(f->s, NULL, NULL);
    return rc ? rc : OK_IF(calls >= 1);
}

static int render_file(fx *f, int format)
{
    return toggle_render_file(f->opts, format, f->v, 4, 4, 2, f->path);
}

static const int64_t DROW[] = {0, 1, -1, 0, 0}, DCOL[] = {0, 0, 0, 1, -1};
static const uint64_t WEIGHT[] = {1, 1, 1, 1, 2};
static const uint8_t PATH3[] = {0, 1, 0, 1, 0, 1, 0, 1, 0};
static const size_t EDGES[] = {0, 1, 1, 2, 2, 3, 1, 0};
static const uint64_t MAT2[] = {1, 2, 3, 4};
static const uint64_t A23[] = {1, 0, 1, 0, 1, 1}, B2[] = {1, 0};
static const uint64_t A23P[] = {5, 6}, B2P[] = {1}; /* A23 and B2 packed */
#define EDGE_TEXT "nodes 5\n# a path and a loner\n0 1\n1 2\n\n2 3\n"

/* ---- the calls: X(label, setup, expression giving a status) --------------
 * The label is the function under test; "__variant" marks further cases. */
#define CALLS(X)                                                                                   \
    X(toggle_version_number, su_none, OK_IF(toggle_version_number() == TOGGLE_VERSION_NUMBER))     \
    X(toggle_version_string, su_none,                                                              \
      OK_IF(strcmp(toggle_version_string(), TOGGLE_VERSION_STRING) == 0))                          \
    X(toggle_status_name, su_none, OK_IF(strcmp(toggle_status_name(-4), "TOGGLE_EPARSE") == 0))    \
    X(toggle_status_name__unknown, su_none,                                                        \
      OK_IF(strcmp(toggle_status_name(12345), "TOGGLE_UNKNOWN") == 0))                             \
    X(toggle_last_error, su_none, OK_IF(strcmp(toggle_last_error(), sentinel) == 0))               \
    X(toggle_flint_guard_install, su_none, toggle_flint_guard_install())                           \
    X(toggle_flint_guard_install__again, su_guard, toggle_flint_guard_install())                   \
    X(toggle_flint_guard_installed, su_none, OK_IF(toggle_flint_guard_installed() >= 0))           \
    X(toggle_flint_guard_installed__after_install, su_guard,                                       \
      OK_IF(toggle_flint_guard_installed() == 1))                                                  \
    X(toggle_solve__under_the_guard, su_guarded_flint, toggle_solve(&f->sol, f->s))                \
    X(toggle_graph_new_grid, su_none, toggle_graph_new_grid(&f->g, 3, 3, TOGGLE_GRID_CLASSIC))     \
    X(toggle_graph_new_grid__no_self, su_none,                                                     \
      toggle_graph_new_grid(&f->g, 3, 4, TOGGLE_GRID_NO_SELF))                                     \
    X(toggle_graph_new_grid__torus, su_none,                                                       \
      toggle_graph_new_grid(&f->g, 3, 3, TOGGLE_GRID_TORUS))                                       \
    X(toggle_graph_new_grid__moore, su_none,                                                       \
      toggle_graph_new_grid(&f->g, 2, 5, TOGGLE_GRID_MOORE))                                       \
    X(toggle_graph_new_stencil, su_none,                                                           \
      toggle_graph_new_stencil(&f->g, 3, 3, DROW, DCOL, WEIGHT, 5, 0))                             \
    X(toggle_graph_new_stencil__torus, su_none,                                                    \
      toggle_graph_new_stencil(&f->g, 3, 3, DROW, DCOL, WEIGHT, 5, TOGGLE_GRID_TORUS))             \
    X(toggle_graph_new_adjacency, su_none, toggle_graph_new_adjacency(&f->g, 3, PATH3, 0))         \
    X(toggle_graph_new_adjacency__no_self, su_none,                                                \
      toggle_graph_new_adjacency(&f->g, 3, PATH3, TOGGLE_GRAPH_NO_SELF))                           \
    X(toggle_graph_new_edges, su_none, toggle_graph_new_edges(&f->g, 4, EDGES, 4, 0))              \
    X(toggle_graph_new_edges__no_edges, su_none, toggle_graph_new_edges(&f->g, 2, NULL, 0, 0))     \
    X(toggle_graph_parse_edges, su_none,                                                           \
      THEN(toggle_graph_parse_edges(&f->g, EDGE_TEXT, strlen(EDGE_TEXT), 0),                       \
           toggle_graph_cells(f->g) == 5))                                                         \
    X(toggle_graph_parse_edges__no_self, su_none,                                                  \
      toggle_graph_parse_edges(&f->g, "0 1\n", 4, TOGGLE_GRAPH_NO_SELF))                           \
    X(toggle_graph_new_matrix, su_none, toggle_graph_new_matrix(&f->g, 2, MAT2))                   \
    X(toggle_graph_free, su_graph, (toggle_graph_free(f->g), f->g = NULL, TOGGLE_OK))              \
    X(toggle_graph_free__null, su_none, (toggle_graph_free(NULL), TOGGLE_OK))                      \
    X(toggle_graph_cells, su_graph, OK_IF(toggle_graph_cells(f->g) == 16))                         \
    X(toggle_graph_kind, su_graph, OK_IF(toggle_graph_kind(f->g) == TOGGLE_KIND_GRID))             \
    X(toggle_graph_flags, su_graph, OK_IF(toggle_graph_flags(f->g) == TOGGLE_GRID_CLASSIC))        \
    X(toggle_graph_grid_shape, su_graph,                                                           \
      THEN(toggle_graph_grid_shape(f->g, &f->r, &f->c), f->r == 4 && f->c == 4))                   \
    X(toggle_graph_entry, su_graph, THEN(toggle_graph_entry(f->g, 0, 1, &f->u), f->u == 1))        \
    X(toggle_system_new, su_graph, toggle_system_new(&f->s, f->g, 2, NULL, NULL))                  \
    X(toggle_system_new__start_and_target, su_graph,                                               \
      toggle_system_new(&f->s, f->g, 3, f->v, f->w))                                               \
    X(toggle_system_new_matrix, su_none, toggle_system_new_matrix(&f->s, 2, 3, A23, B2, 2))        \
    X(toggle_system_new_packed, su_none, toggle_system_new_packed(&f->s, 2, 3, A23P, 1, B2P))      \
    X(toggle_system_new_matrix__empty, su_none,                                                    \
      toggle_system_new_matrix(&f->s, 0, 0, NULL, NULL, 5))                                        \
    X(toggle_system_parse, su_none, toggle_system_parse(&f->s, SYS_MOD3, strlen(SYS_MOD3), 3))     \
    X(toggle_system_parse__k_above_10, su_none,                                                    \
      toggle_system_parse(&f->s, "10 3 | 7\n", 9, 11))                                             \
    X(toggle_system_write, su_parsed,                                                              \
      text_is(sized(f, w_system), f->buf, "211|1\n121|2\n111|0\n"))                                \
    X(toggle_system_write__grid, su_grid,                                                          \
      starts_with(sized(f, w_system), f->buf, "1100100000000000|1\n"))                             \
    X(toggle_system_free, su_parsed, (toggle_system_free(f->s), f->s = NULL, TOGGLE_OK))           \
    X(toggle_system_free__null, su_none, (toggle_system_free(NULL), TOGGLE_OK))                    \
    X(toggle_system_rows, su_grid, OK_IF(toggle_system_rows(f->s) == 16))                          \
    X(toggle_system_cols, su_grid, OK_IF(toggle_system_cols(f->s) == 16))                          \
    X(toggle_system_modulus, su_grid, OK_IF(toggle_system_modulus(f->s) == 2))                     \
    X(toggle_system_graph, su_grid, OK_IF(toggle_system_graph(f->s) == f->g))                      \
    X(toggle_system_entry, su_grid, THEN(toggle_system_entry(f->s, 0, 1, &f->u), f->u == 1))       \
    X(toggle_system_rhs, su_grid, THEN(toggle_system_rhs(f->s, 5, &f->u), f->u == 1))              \
    X(toggle_system_set_progress, su_grid, progress_solve(f))                                      \
    X(toggle_system_set_option, su_grid,                                                           \
      toggle_system_set_option(f->s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2))                        \
    X(toggle_system_set_option__budget, su_grid,                                                   \
      toggle_system_set_option(f->s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0))                                 \
    X(toggle_system_set_option__search_limit, su_grid,                                             \
      toggle_system_set_option(f->s, TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, 1000))                               \
    X(toggle_system_get_option, su_grid,                                                           \
      THEN(toggle_system_get_option(f->s, TOGGLE_SYSTEM_OPT_ENGINE, &f->u), f->u == TOGGLE_ENGINE_AUTO))  \
    X(toggle_system_get_option__budget, su_grid,                                                   \
      THEN(toggle_system_get_option(f->s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, &f->u),                        \
           f->u == TOGGLE_DEFAULT_MEMORY_BUDGET))                                                  \
    X(toggle_system_get_option__search_limit, su_grid,                                             \
      THEN(toggle_system_get_option(f->s, TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, &f->u), f->u > 0))              \
    X(toggle_system_check, su_particular,                                                          \
      THEN(toggle_system_check(f->s, f->v, 16, &f->i), f->i == 1))                                 \
    X(toggle_system_check__not_a_solution, su_particular,                                          \
      THEN(toggle_system_check(f->s, f->w, 16, &f->i), f->i == 0))                                 \
    X(toggle_system_check_certificate, su_certificate,                                             \
      THEN(toggle_system_check_certificate(f->s, f->v, 2, &f->i), f->i == 1))                      \
    X(toggle_system_check_certificate__not_one, su_certificate,                                    \
      THEN(toggle_system_check_certificate(f->s, f->w, 2, &f->i), f->i == 0))                      \
    X(toggle_engine_name, su_none, OK_IF(strcmp(toggle_engine_name(4), "howell") == 0))            \
    X(toggle_engine_from_name, su_none,                                                            \
      THEN(toggle_engine_from_name("chase", &f->i), f->i == TOGGLE_ENGINE_CHASE))                  \
    X(toggle_board_parse, su_none,                                                                 \
      THEN(toggle_board_parse(BOARD, strlen(BOARD), 2, f->v, 64, &f->r, &f->c),                    \
           f->r == 4 && f->c == 4 && f->v[0] == 1 && f->v[1] == 0))                                \
    X(toggle_board_parse__size_query_first, su_none,                                               \
      THEN(sized(f, w_board_parse), f->v[3] == 1 && f->v[4] == 0))                                 \
    X(toggle_board_format, su_board, text_is(sized(f, w_board), f->buf, BOARD_OUT))                \
    X(toggle_solution_free, su_grid, (toggle_solution_free(f->sol), f->sol = NULL, TOGGLE_OK))     \
    X(toggle_solution_free__null, su_none, (toggle_solution_free(NULL), TOGGLE_OK))                \
    X(toggle_solution_is_solvable, su_grid, OK_IF(toggle_solution_is_solvable(f->sol) == 1))       \
    X(toggle_solution_is_solvable__no, su_unsolvable,                                              \
      OK_IF(toggle_solution_is_solvable(f->sol) == 0))                                             \
    X(toggle_solution_cols, su_grid, OK_IF(toggle_solution_cols(f->sol) == 16))                    \
    X(toggle_solution_rows, su_grid, OK_IF(toggle_solution_rows(f->sol) == 16))                    \
    X(toggle_solution_modulus, su_grid, OK_IF(toggle_solution_modulus(f->sol) == 2))               \
    X(toggle_solution_engine, su_grid,                                                             \
      OK_IF(toggle_solution_engine(f->sol) == TOGGLE_ENGINE_CHASE))                                \
    X(toggle_solution_nullity, su_grid, OK_IF(toggle_solution_nullity(f->sol) == 4))               \
    X(toggle_solution_count_u64, su_grid,                                                          \
      THEN(toggle_solution_count_u64(f->sol, &f->u), f->u == 16))                                  \
    X(toggle_solution_count_u64__unsolvable, su_unsolvable,                                        \
      THEN(toggle_solution_count_u64(f->sol, &f->u), f->u == 0))                                   \
    X(toggle_solution_count_string, su_grid, text_is(sized(f, w_count), f->buf, "16"))             \
    X(toggle_solution_count_string__unsolvable, su_unsolvable,                                     \
      text_is(sized(f, w_count), f->buf, "0"))                                                     \
    X(toggle_solution_particular, su_grid, toggle_solution_particular(f->sol, f->v, 16))           \
    X(toggle_solution_particular_range, su_grid,                                                   \
      toggle_solution_particular_range(f->sol, 4, f->v, 4))                                        \
    X(toggle_solution_kernel_vector, su_grid, toggle_solution_kernel_vector(f->sol, 3, f->v, 16))  \
    X(toggle_solution_certificate, su_unsolvable, toggle_solution_certificate(f->sol, f->v, 2))    \
    X(toggle_solution_particular_packed, su_grid,                                                  \
      toggle_solution_particular_packed(f->sol, 3, 10, f->v, 1))                                   \
    X(toggle_solution_kernel_packed, su_grid,                                                      \
      toggle_solution_kernel_packed(f->sol, 3, 2, 14, f->v, 1))                                    \
    X(toggle_solution_radix, su_grid, THEN(toggle_solution_radix(f->sol, 3, &f->u), f->u == 2))    \
    X(toggle_solution_radix__mod_6, su_grid6,                                                      \
      THEN(toggle_solution_radix(f->sol, 0, &f->u), f->u == 2 || f->u == 3 || f->u == 6))          \
    X(toggle_colormap_count, su_none, OK_IF(toggle_colormap_count() >= 17))                        \
    X(toggle_colormap_name, su_none,                                                               \
      OK_IF(strcmp(toggle_colormap_name(TOGGLE_CMAP_MAGMA), "magma") == 0))                        \
    X(toggle_colormap_is_qualitative, su_none,                                                     \
      OK_IF(toggle_colormap_is_qualitative(TOGGLE_CMAP_TAB10) == 1))                               \
    X(toggle_colormap_is_qualitative__continuous, su_none,                                         \
      OK_IF(toggle_colormap_is_qualitative(TOGGLE_CMAP_VIRIDIS) == 0))                             \
    X(toggle_colormap_from_name, su_none,                                                          \
      THEN(toggle_colormap_from_name("set1", &f->i, NULL), f->i == TOGGLE_CMAP_SET1))              \
    X(toggle_colormap_from_name__reversed, su_none,                                                \
      THEN(toggle_colormap_from_name("viridis_r", &f->i, &f->j), f->i == 0 && f->j == 1))          \
    X(toggle_colormap_color, su_none, toggle_colormap_color(TOGGLE_CMAP_VIRIDIS, 0, 1, 3, f->rgb)) \
    X(toggle_colormap_color__reversed_qualitative, su_none,                                        \
      toggle_colormap_color(TOGGLE_CMAP_TAB20, 1, 24, 25, f->rgb))                                 \
    X(toggle_render_opts_new, su_none, toggle_render_opts_new(&f->opts))                           \
    X(toggle_render_opts_free, su_opts,                                                            \
      (toggle_render_opts_free(f->opts), f->opts = NULL, TOGGLE_OK))                               \
    X(toggle_render_opts_free__null, su_none, (toggle_render_opts_free(NULL), TOGGLE_OK))          \
    X(toggle_render_opts_set, su_opts, render_set_all(f))                                          \
    X(toggle_render_opts_get, su_opts_set, render_get_all(f))                                      \
    X(toggle_render_size, su_none,                                                                 \
      THEN(toggle_render_size(NULL, 4, 4, &f->r, &f->c), f->r == 32 && f->c == 32))                \
    X(toggle_render_size__options, su_opts_set,                                                    \
      THEN(toggle_render_size(f->opts, 4, 4, &f->r, &f->c), f->r == 23 && f->c == 23))             \
    X(toggle_render__ppm, su_picture, starts_with(sized(f, w_ppm), f->buf, "P6\n23 23\n255\n"))    \
    X(toggle_render__png, su_picture, starts_with(sized(f, w_png), f->buf, "\x89PNG\r\n"))         \
    X(toggle_render_file__ppm, su_file, render_file(f, TOGGLE_IMAGE_PPM))                          \
    X(toggle_render_file__png, su_file, render_file(f, TOGGLE_IMAGE_PNG))                          \
    X(toggle_board_symmetry, su_board,                                                             \
      THEN(toggle_board_symmetry(f->v, 4, 4, &f->mask), f->mask == TOGGLE_SYM_ALL))                \
    X(toggle_board_symmetry__rectangle, su_board,                                                  \
      THEN(toggle_board_symmetry(f->v, 2, 3, &f->mask), f->mask == TOGGLE_SYM_IDENTITY))           \
    X(toggle_symmetry_name, su_none,                                                               \
      OK_IF(strcmp(toggle_symmetry_name(0x35), "both mirrors") == 0))                              \
    X(toggle_symmetry_name__not_a_group, su_none, OK_IF(toggle_symmetry_name(0x03) == NULL))       \
    X(toggle_symmetry_of_shape, su_none, OK_IF(toggle_symmetry_of_shape(4, 4) == TOGGLE_SYM_ALL))  \
    X(toggle_symmetry_of_shape__rectangle, su_none, OK_IF(toggle_symmetry_of_shape(2, 5) == 0x35)) \
    X(toggle_symmetry_of_shape__empty, su_none, OK_IF(toggle_symmetry_of_shape(0, 5) == 0))        \
    X(toggle_solution_count_orbits, su_grid,                                                       \
      THEN(toggle_solution_count_orbits(f->sol, 4, 4, TOGGLE_SYM_ALL, &f->u),                      \
           f->u >= 1 && f->u <= 16))                                                               \
    X(toggle_solution_count_orbits__mod_3, su_grid3,                                               \
      THEN(toggle_solution_count_orbits(f->sol, 5, 5, TOGGLE_SYM_ALL, &f->u),                      \
           f->u >= 1 && f->u <= 27))                                                               \
    X(toggle_solution_count_orbits__identity, su_grid,                                             \
      THEN(toggle_solution_count_orbits(f->sol, 4, 4, TOGGLE_SYM_IDENTITY, &f->u), f->u == 16))    \
    X(toggle_solution_count_orbits__unsolvable, su_unsolvable,                                     \
      THEN(toggle_solution_count_orbits(f->sol, 1, 2, 0x35, &f->u), f->u == 0))                    \
    X(toggle_iter_new, su_grid, toggle_iter_new(&f->it, f->sol))                                   \
    X(toggle_iter_next, su_iter, toggle_iter_next(f->it, f->v, 16))                                \
    X(toggle_iter_next__to_the_end, su_iter, drain(f))                                             \
    X(toggle_iter_next__to_the_end_mod_6, su_iter6, drain(f))                                      \
    X(toggle_iter_reset, su_iter, (toggle_iter_reset(f->it), TOGGLE_OK))                           \
    X(toggle_iter_reset__null, su_none, (toggle_iter_reset(NULL), TOGGLE_OK))                      \
    X(toggle_iter_produced, su_iter, OK_IF(toggle_iter_produced(f->it) == 0))                      \
    X(toggle_iter_free, su_iter, (toggle_iter_free(f->it), f->it = NULL, TOGGLE_OK))               \
    X(toggle_iter_free__null, su_none, (toggle_iter_free(NULL), TOGGLE_OK))                        \
    X(toggle_rng_new, su_none, toggle_rng_new(&f->rng, 7))                                         \
    X(toggle_rng_next, su_rng, (f->u = toggle_rng_next(f->rng), TOGGLE_OK))                        \
    X(toggle_rng_below, su_rng, OK_IF(toggle_rng_below(f->rng, 10) < 10))                          \
    X(toggle_rng_free, su_rng, (toggle_rng_free(f->rng), f->rng = NULL, TOGGLE_OK))                \
    X(toggle_rng_free__null, su_none, (toggle_rng_free(NULL), TOGGLE_OK))                          \
    X(toggle_solution_sample, su_sample, toggle_solution_sample(f->sol, f->rng, f->v, 16))         \
    X(toggle_solution_sample__mod_6, su_sample6, toggle_solution_sample(f->sol, f->rng, f->v, 25)) \
    X(toggle_search_new, su_grid, toggle_search_new(&f->search, f->sol))                           \
    X(toggle_search_set_option, su_search,                                                         \
      toggle_search_set_option(f->search, TOGGLE_SEARCH_OPT_METRIC, TOGGLE_METRIC_PRESSES))               \
    X(toggle_search_set_option__limit, su_search,                                                  \
      toggle_search_set_option(f->search, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, 3))                             \
    X(toggle_search_set_option__threads, su_search,                                                \
      toggle_search_set_option(f->search, TOGGLE_SEARCH_OPT_THREADS, 2))                                  \
    X(toggle_search_set_costs, su_search,                                                          \
      toggle_search_set_costs(f->search, (const uint64_t[16]){1, 2, TOGGLE_COST_FORBIDDEN}, 16))   \
    X(toggle_search_set_costs__reset, su_search, toggle_search_set_costs(f->search, NULL, 0))      \
    X(toggle_search_bound, su_searched, THEN(toggle_search_bound(f->search, &f->u), f->u == 4))    \
    X(toggle_search_save, su_searched, toggle_search_save(f->search, f->v, sizeof f->v, NULL))     \
    X(toggle_search_resume, su_searched, ckpt_roundtrip(f))                                        \
    X(toggle_search_progress, su_searched,                                                         \
      THEN(toggle_search_progress(f->search, &f->u, NULL), f->u == 4))                             \
    X(toggle_search_run, su_search, toggle_search_run(f->search))                                  \
    X(toggle_search_run__mod_6, su_search6, toggle_search_run(f->search))                          \
    X(toggle_search_run__over_the_limit, su_search_limited, toggle_search_run(f->search))          \
    X(toggle_search_result, su_searched,                                                           \
      THEN(toggle_search_result(f->search, f->v, 16, &f->u, &f->i, &f->u2), f->i == 1))            \
    X(toggle_search_result__no_outputs, su_searched,                                               \
      toggle_search_result(f->search, NULL, 0, NULL, NULL, NULL))                                  \
    X(toggle_search_free, su_search, (toggle_search_free(f->search), f->search = NULL, TOGGLE_OK)) \
    X(toggle_search_free__null, su_none, (toggle_search_free(NULL), TOGGLE_OK))                    \
    X(toggle_generator_new, su_grid, toggle_generator_new(&f->gen, f->s))                          \
    X(toggle_generator_set_option, su_gen,                                                         \
      toggle_generator_set_option(f->gen, TOGGLE_GENERATOR_OPT_SEED, 3))                                     \
    X(toggle_generator_nullity, su_gen, OK_IF(toggle_generator_nullity(f->gen) == 4))              \
    X(toggle_generator_next, su_gen, toggle_generator_next(f->gen, f->v, 16, &f->u))               \
    X(toggle_generator_free, su_gen, (toggle_generator_free(f->gen), f->gen = NULL, TOGGLE_OK))    \
    X(toggle_generator_free__null, su_none, (toggle_generator_free(NULL), TOGGLE_OK))           \
    X(toggle_graph_new_chaos, su_none, toggle_graph_new_chaos(&f->g, 3, 4, 0.5, 2, 7))            \
    X(toggle_steps_new, su_parsed, toggle_steps_new(&f->steps, f->s))                             \
    X(toggle_steps_free, su_steps, (toggle_steps_free(f->steps), f->steps = NULL, TOGGLE_OK))     \
    X(toggle_steps_free__null, su_none, (toggle_steps_free(NULL), TOGGLE_OK))                     \
    X(toggle_steps_rows, su_steps, OK_IF(toggle_steps_rows(f->steps) == 3))                       \
    X(toggle_steps_cols, su_steps, OK_IF(toggle_steps_cols(f->steps) == 3))                       \
    X(toggle_steps_modulus, su_steps, OK_IF(toggle_steps_modulus(f->steps) == 3))                 \
    X(toggle_steps_entry, su_steps, toggle_steps_entry(f->steps, 0, 3, &f->u))                    \
    X(toggle_steps_add, su_steps, toggle_steps_add(f->steps, 0, 1, 2))                            \
    X(toggle_steps_scale, su_steps, toggle_steps_scale(f->steps, 0, 2))                           \
    X(toggle_steps_swap, su_steps, toggle_steps_swap(f->steps, 0, 2))                             \
    X(toggle_steps_move, su_steps, toggle_steps_move(f->steps, 2, 0))                             \
    X(toggle_steps_apply, su_steps, toggle_steps_apply(f->steps, "swap 0 1\nadd 0 2\n", 17, &f->r)) \
    X(toggle_steps_auto, su_steps, toggle_steps_auto(f->steps, SIZE_MAX, &f->r))                  \
    X(toggle_steps_undo, su_steps_done, toggle_steps_undo(f->steps, 1))                           \
    X(toggle_steps_redo, su_steps_undone, toggle_steps_redo(f->steps, 1))                         \
    X(toggle_steps_count, su_steps_done, OK_IF(toggle_steps_count(f->steps) > 0))                 \
    X(toggle_steps_redo_count, su_steps_undone, OK_IF(toggle_steps_redo_count(f->steps) == 1))    \
    X(toggle_steps_op, su_steps_done, toggle_steps_op(f->steps, 0, &f->i, &f->r, &f->c, &f->u))   \
    X(toggle_steps_write, su_steps_done, toggle_steps_write(f->steps, 0, f->buf, sizeof f->buf, &f->r)) \
    X(toggle_steps_status, su_steps_done, toggle_steps_status(f->steps, &f->r, &f->i, &f->j))     \
    X(toggle_steps_pivots, su_steps_done, toggle_steps_pivots(f->steps, (size_t *)f->w, 8, &f->r)) \
    X(toggle_steps_solution, su_steps_done, toggle_steps_solution(f->steps, f->v, 3, &f->r))      \
    X(toggle_steps_system, su_steps_done, toggle_steps_system(f->steps, &f->s2))

#define DEFINE_CALL(label, setup, expr) \
    static int call_##label(fx *f)      \
    {                                   \
        (void)f;                        \
        return (expr);                  \
    }
CALLS(DEFINE_CALL)

static const struct {
    const char *label;
    void (*setup)(fx *);
    int (*call)(fx *);
} calls[] = {
#define CALL_ENTRY(label, setup, expr) {#label, setup, call_##label},
    CALLS(CALL_ENTRY)
};
#define N_CALLS (sizeof calls / sizeof *calls)

START_TEST(successful_call_keeps_last_error)
{
    fx f = {0};
    calls[_i].setup(&f);
    sentinel_set();
    assert_kept(calls[_i].label, calls[_i].call(&f), TOGGLE_OK);
    fx_free(&f);
    assert_no_misses();
}
END_TEST

/* ---- toggle_solve on each engine's systems -------------------------------- */

typedef struct {
    const char *name;
    const char *text;      /* augmented system, or NULL for the grid below */
    size_t rows, cols;     /* grid: the all-off to all-on game ... */
    uint32_t flags;
    int lit;               /* ... with this cell lit at the start, or -1 */
    uint64_t k;
    int force;             /* TOGGLE_SYSTEM_OPT_ENGINE; AUTO unless a forced engine is tested */
    int engine, solvable;  /* what the solution must report */
    const char *count;     /* toggle_solution_count_string */
} solve_case;

#define ZEROS10 "0000000000"
#define FREE70 ZEROS10 ZEROS10 ZEROS10 ZEROS10 ZEROS10 ZEROS10 ZEROS10 "|0\n"

static const solve_case solve_cases[] = {
    {"3-variable dense mod 3", SYS_MOD3, 0, 0, 0, -1, 3, 0, TU_ENGINE_PRIME, 1, "1"},
    {"dense mod 3, unsolvable", "111|1\n222|1\n", 0, 0, 0, -1, 3, 0, TU_ENGINE_PRIME, 0, "0"},
    {"dense mod 65521", "12 7|1\n3 4|9\n", 0, 0, 0, -1, 65521, 0, TU_ENGINE_PRIME, 1, "1"},
    {"k = 2 system", "110|1\n011|0\n", 0, 0, 0, -1, 2, 0, TOGGLE_ENGINE_GF2, 1, "2"},
    {"k = 2, unsolvable", "11|0\n11|1\n", 0, 0, 0, -1, 2, 0, TOGGLE_ENGINE_GF2, 0, "0"},
    {"k = 2, 70 free unknowns", FREE70, 0, 0, 0, -1, 2, 0, TOGGLE_ENGINE_GF2, 1,
     "1180591620717411303424"},
    {"5x5 classic grid mod 3", NULL, 5, 5, 0, -1, 3, 0, TOGGLE_ENGINE_CHASE, 1, "27"},
    {"5x5 classic grid mod 2", NULL, 5, 5, 0, -1, 2, 0, TOGGLE_ENGINE_CHASE, 1, "4"},
    {"5x5 grid mod 2, corner lit: unsolvable", NULL, 5, 5, 0, 0, 2, 0, TOGGLE_ENGINE_CHASE, 0,
     "0"},
    {"4x4 no-self grid mod 2", NULL, 4, 4, TOGGLE_GRID_NO_SELF, -1, 2, 0, TOGGLE_ENGINE_CHASE, 1,
     NULL},
    {"5x5 classic grid mod 6", NULL, 5, 5, 0, -1, 6, 0, TOGGLE_ENGINE_CHASE, 1, "108"},
    {"mod 4, unsolvable", "2|1\n", 0, 0, 0, -1, 4, 0, TOGGLE_ENGINE_HOWELL, 0, "0"},
    {"mod 6 matrix", "1 2|3\n", 0, 0, 0, -1, 6, 0, TOGGLE_ENGINE_HOWELL, 1, "6"},
    {"3x3 torus mod 2", NULL, 3, 3, TOGGLE_GRID_TORUS, -1, 2, 0, TOGGLE_ENGINE_TRANSFER, 1, "16"},
    /* Moore: the transfer engine since 1.1.0 (promoted unknowns) */
    {"3x3 Moore mod 3", NULL, 3, 3, TOGGLE_GRID_MOORE, -1, 3, 0, TOGGLE_ENGINE_TRANSFER, 1, "1"},
    {"dense mod 3, FLINT forced", SYS_MOD3, 0, 0, 0, -1, 3, TOGGLE_ENGINE_FLINT,
     TU_ENGINE_PRIME, 1, "1"},
    {"k = 2, gf2 forced", "11|0\n11|1\n", 0, 0, 0, -1, 2, TOGGLE_ENGINE_GF2, TOGGLE_ENGINE_GF2, 0,
     "0"},
    {"5x5 grid mod 3, chase forced", NULL, 5, 5, 0, -1, 3, TOGGLE_ENGINE_CHASE,
     TOGGLE_ENGINE_CHASE, 1, "27"},
    {"5x5 grid mod 6, Howell forced", NULL, 5, 5, 0, -1, 6, TOGGLE_ENGINE_HOWELL,
     TOGGLE_ENGINE_HOWELL, 1, "108"},
};
#define N_SOLVE (sizeof solve_cases / sizeof *solve_cases)

static void build_system(fx *f, const solve_case *c)
{
    if (c->text) {
        parse(f, c->text, c->k);
    } else {
        need(toggle_graph_new_grid(&f->g, c->rows, c->cols, c->flags), "grid");
        if (c->lit >= 0)
            f->v[c->lit] = 1;
        need(toggle_system_new(&f->s, f->g, c->k, f->v, NULL), "system");
    }
    need(toggle_system_set_option(f->s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)c->force), "engine");
}

START_TEST(solve_keeps_last_error)
{
    const solve_case *c = &solve_cases[_i];
    char what[160];
    fx f = {0};
    build_system(&f, c);
    snprintf(what, sizeof what, "toggle_solve (%s)", c->name);
    sentinel_set();
    assert_kept(what, toggle_solve(&f.sol, f.s), TOGGLE_OK);
    ck_assert_msg(toggle_solution_engine(f.sol) == c->engine, "%s: engine %s, expected %s", what,
                  toggle_engine_name(toggle_solution_engine(f.sol)), toggle_engine_name(c->engine));
    ck_assert_int_eq(toggle_solution_is_solvable(f.sol), c->solvable);
    if (c->count) {
        snprintf(what, sizeof what, "toggle_solution_count_string (%s)", c->name);
        sentinel_set();
        assert_kept(what, text_is(sized(&f, w_count), f.buf, c->count), TOGGLE_OK);
    }
    fx_free(&f);
    assert_no_misses();
}
END_TEST

/* ---- toggle_grid_nullity ---------------------------------------------------- */

typedef struct {
    size_t rows, cols;
    uint64_t p;
    uint32_t flags;
} nullity_case;

static const nullity_case nullity_cases[] = {
    {5, 5, 2, TOGGLE_GRID_CLASSIC},
    {4, 4, 2, TOGGLE_GRID_CLASSIC},
    {5, 5, 3, TOGGLE_GRID_CLASSIC},
    {17, 17, 2, TOGGLE_GRID_CLASSIC},
    {4, 7, 5, TOGGLE_GRID_CLASSIC},
    {4, 4, 2, TOGGLE_GRID_NO_SELF},
    {3, 3, 2, TOGGLE_GRID_TORUS},
    {5, 5, 2, TOGGLE_GRID_TORUS},
    {4, 4, 3, TOGGLE_GRID_TORUS},
    {3, 3, 2, TOGGLE_GRID_MOORE},
    {4, 4, 5, TOGGLE_GRID_MOORE},
    {3, 3, 2, TOGGLE_GRID_TORUS | TOGGLE_GRID_MOORE},
    {4, 4, 2, TOGGLE_GRID_TORUS | TOGGLE_GRID_NO_SELF},
    {4, 5, 7, TOGGLE_GRID_MOORE | TOGGLE_GRID_NO_SELF},
};
#define N_NULLITY (sizeof nullity_cases / sizeof *nullity_cases)

START_TEST(grid_nullity_keeps_last_error)
{
    const nullity_case *c = &nullity_cases[_i];
    size_t n = c->rows * c->cols, nullity = SIZE_MAX;
    char what[160];
    snprintf(what, sizeof what, "toggle_grid_nullity(%zu, %zu, %llu, flags 0x%x)", c->rows,
             c->cols, (unsigned long long)c->p, (unsigned)c->flags);
    sentinel_set();
    assert_kept(what, toggle_grid_nullity(c->rows, c->cols, c->p, c->flags, &nullity), TOGGLE_OK);
    uint64_t *a = tu_grid_matrix(c->rows, c->cols, c->flags);
    ck_assert_uint_eq(nullity, n - tu_rank(a, n, n, c->p));
    free(a);
    assert_no_misses();
}
END_TEST

/* ---- the generator ----------------------------------------------------------- */

typedef struct {
    int key; /* 0 ends the list */
    uint64_t value;
} gen_opt;

typedef struct {
    const char *name;
    size_t rows, cols;
    uint32_t flags;
    uint64_t k;
    gen_opt opts[5];
} gen_case;

static const gen_case gen_cases[] = {
    {"3x3 mod 2, defaults", 3, 3, 0, 2, {{0, 0}}},
    {"3x3 mod 2, seed, unique", 3, 3, 0, 2, {{TOGGLE_GENERATOR_OPT_SEED, 7}, {TOGGLE_GENERATOR_OPT_UNIQUE, 1}}},
    {"4x4 mod 2, 3 cells pressed", 4, 4, 0, 2, {{TOGGLE_GENERATOR_OPT_PRESSES, 3}}},
    {"4x4 mod 2, 3 presses in all, limits",
     4,
     4,
     0,
     2,
     {{TOGGLE_GENERATOR_OPT_METRIC, TOGGLE_METRIC_PRESSES},
      {TOGGLE_GENERATOR_OPT_PRESSES, 3},
      {TOGGLE_GENERATOR_OPT_SEARCH_LIMIT, 1000},
      {TOGGLE_GENERATOR_OPT_ATTEMPTS, 100000}}},
    {"4x4 mod 2, 5 lit", 4, 4, 0, 2, {{TOGGLE_GENERATOR_OPT_SEED, 3}, {TOGGLE_GENERATOR_OPT_LIT, 5}}},
    {"3x3 mod 3, 4 presses in all", 3, 3, 0, 3,
     {{TOGGLE_GENERATOR_OPT_METRIC, TOGGLE_METRIC_PRESSES}, {TOGGLE_GENERATOR_OPT_PRESSES, 4}}},
    {"3x3 torus mod 2, 4 lit", 3, 3, TOGGLE_GRID_TORUS, 2, {{TOGGLE_GENERATOR_OPT_LIT, 4}}},
    {"4x4 Moore mod 5, unique", 4, 4, TOGGLE_GRID_MOORE, 5, {{TOGGLE_GENERATOR_OPT_UNIQUE, 1}}},
    {"5x5 mod 6, seed", 5, 5, 0, 6, {{TOGGLE_GENERATOR_OPT_SEED, 11}}},
};
#define N_GEN (sizeof gen_cases / sizeof *gen_cases)

static uint64_t opt_value(const gen_case *c, int key, uint64_t otherwise)
{
    for (const gen_opt *o = c->opts; o->key; o++)
        if (o->key == key)
            return o->value;
    return otherwise;
}

START_TEST(generator_keeps_last_error)
{
    const gen_case *c = &gen_cases[_i];
    char what[160];
    fx f = {0};
    need(toggle_graph_new_grid(&f.g, c->rows, c->cols, c->flags), "grid");
    need(toggle_system_new(&f.s, f.g, c->k, NULL, NULL), "system");
    size_t n = c->rows * c->cols;
    uint64_t lit = opt_value(c, TOGGLE_GENERATOR_OPT_LIT, UINT64_MAX);
    uint64_t presses = opt_value(c, TOGGLE_GENERATOR_OPT_PRESSES, UINT64_MAX), weight;

    snprintf(what, sizeof what, "toggle_generator_new (%s)", c->name);
    sentinel_set();
    assert_kept(what, toggle_generator_new(&f.gen, f.s), TOGGLE_OK);
    snprintf(what, sizeof what, "toggle_generator_set_option and _nullity (%s)", c->name);
    sentinel_set();
    for (const gen_opt *o = c->opts; o->key; o++)
        assert_kept(what, toggle_generator_set_option(f.gen, o->key, o->value), TOGGLE_OK);
    size_t d = toggle_generator_nullity(f.gen);
    assert_kept(what, TOGGLE_OK, TOGGLE_OK);
    snprintf(what, sizeof what, "toggle_generator_next (%s)", c->name);
    for (int round = 0; round < 3; round++) {
        sentinel_set();
        assert_kept(what, toggle_generator_next(f.gen, f.v, n, &weight), TOGGLE_OK);
        size_t on = 0;
        for (size_t i = 0; i < n; i++) {
            ck_assert_uint_lt(f.v[i], c->k);
            on += f.v[i] != 0;
        }
        if (lit != UINT64_MAX)
            ck_assert_uint_eq(on, lit);
        if (presses != UINT64_MAX)
            ck_assert_uint_eq(weight, presses);
    }
    snprintf(what, sizeof what, "toggle_generator_free (%s)", c->name);
    sentinel_set();
    toggle_generator_free(f.gen);
    f.gen = NULL;
    assert_kept(what, TOGGLE_OK, TOGGLE_OK);
    if (c->k == 2 || c->k == 3 || c->k == 5) { /* nullity by the test's own rank */
        uint64_t *a = tu_grid_matrix(c->rows, c->cols, c->flags);
        ck_assert_uint_eq(d, n - tu_rank(a, n, n, c->k));
        free(a);
    }
    fx_free(&f);
    assert_no_misses();
}
END_TEST

/* ---- coverage: every exported function is in a table above ---------------- */

/* Functions that the scenario tests above call under the sentinel. */
static const char *const scenario_covered[] = {
    "toggle_solve",
    "toggle_solution_count_string",
    "toggle_grid_nullity",
    "toggle_generator_new",
    "toggle_generator_set_option",
    "toggle_generator_nullity",
    "toggle_generator_next",
    "toggle_generator_free",
};

/* | function | why no success of it is checked |
 * |----------|---------------------------------|
 * | toggle_clear_error | changing the message is its job: it empties it | */
static const struct {
    const char *name, *why;
} not_covered[] = {
    {"toggle_clear_error", "its documented effect is to empty the message"},
};

static int is_covered(const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < N_CALLS; i++)
        if (strncmp(calls[i].label, name, len) == 0 &&
            (calls[i].label[len] == '\0' || strncmp(calls[i].label + len, "__", 2) == 0))
            return 1;
    for (size_t i = 0; i < sizeof scenario_covered / sizeof *scenario_covered; i++)
        if (strcmp(scenario_covered[i], name) == 0)
            return 1;
    return 0;
}

static int is_exempt(const char *name)
{
    for (size_t i = 0; i < sizeof not_covered / sizeof *not_covered; i++)
        if (strcmp(not_covered[i].name, name) == 0)
            return 1;
    return 0;
}

#define MAX_NAMES 256

typedef struct {
    char name[MAX_NAMES][64];
    size_t count;
} names;

static void names_add(names *ns, const char *p, size_t len)
{
    for (size_t i = 0; i < ns->count; i++)
        if (strlen(ns->name[i]) == len && strncmp(ns->name[i], p, len) == 0)
            return;
    ck_assert_uint_lt(ns->count, MAX_NAMES);
    ck_assert_uint_lt(len, sizeof ns->name[0]);
    memcpy(ns->name[ns->count], p, len);
    ns->name[ns->count++][len] = '\0';
}

static size_t ident_len(const char *p)
{
    size_t n = 0;
    while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '_')
        n++;
    return n;
}

/* From the map, each "toggle_x;" line; from a header, each line starting
 * with TOGGLE_API: the identifier before its first '(' (the function). */
static void read_names(names *ns, const char *path, int header)
{
    FILE *fp = fopen(path, "r");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    char line[1024];
    while (fgets(line, sizeof line, fp)) {
        const char *p = line;
        if (header) {
            const char *paren = strchr(line, '(');
            if (strncmp(line, "TOGGLE_API ", 11) != 0 || !paren)
                continue;
            for (p = paren; p > line && ident_len(p - 1) > 0; p--)
                ;
        } else {
            p += strspn(p, " \t");
        }
        size_t len = ident_len(p);
        if (strncmp(p, "toggle_", 7) == 0 && p[len] == (header ? '(' : ';'))
            names_add(ns, p, len);
    }
    fclose(fp);
}

START_TEST(every_public_function_is_covered)
{
    static names from_map, from_headers;
    read_names(&from_map, LASTERR_SOURCE_ROOT "/lib/libtoggle.map", 0);
    DIR *dir = opendir(LASTERR_SOURCE_ROOT "/include/toggle");
    ck_assert_ptr_nonnull(dir);
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".h") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/include/toggle/%s", LASTERR_SOURCE_ROOT, e->d_name);
        read_names(&from_headers, path, 1);
    }
    closedir(dir);
    ck_assert_uint_gt(from_map.count, 80);
    ck_assert_uint_gt(from_headers.count, 80);
    names *both[] = {&from_map, &from_headers};
    for (size_t b = 0; b < 2; b++)
        for (size_t i = 0; i < both[b]->count; i++) {
            const char *name = both[b]->name[i];
            ck_assert_msg(is_covered(name) != is_exempt(name),
                          "%s (%s) is %s", name, b ? "declared" : "exported",
                          is_covered(name) ? "covered and listed as not covered"
                                           : "neither covered nor listed as not covered");
        }
    /* and every label names an exported function */
    for (size_t i = 0; i < N_CALLS; i++) {
        size_t len = ident_len(calls[i].label);
        const char *cut = strstr(calls[i].label, "__");
        if (cut)
            len = (size_t)(cut - calls[i].label);
        int found = 0;
        for (size_t j = 0; j < from_map.count; j++)
            found |= strlen(from_map.name[j]) == len &&
                     strncmp(from_map.name[j], calls[i].label, len) == 0;
        ck_assert_msg(found, "case %s names no exported function", calls[i].label);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("lasterr");
    TCase *tc = tcase_create("lasterr");
    tcase_add_checked_fixture(tc, misses_reset, NULL);
    tcase_add_loop_test(tc, successful_call_keeps_last_error, 0, (int)N_CALLS);
    tcase_add_loop_test(tc, solve_keeps_last_error, 0, (int)N_SOLVE);
    tcase_add_loop_test(tc, grid_nullity_keeps_last_error, 0, (int)N_NULLITY);
    tcase_add_loop_test(tc, generator_keeps_last_error, 0, (int)N_GEN);
    tcase_add_test(tc, every_public_function_is_covered);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
