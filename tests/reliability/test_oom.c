/* Out-of-memory injection: every public function that allocates is run with
 * the library's K-th allocation failing, once and from K on, for K = 1, 2,
 * ... until it completes. Each failure must return TOGGLE_ENOMEM with a
 * message and leave the caller's data unchanged; leaks are caught by the
 * LeakSanitizer / valgrind runs of this suite (docs/reliability.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "oom_walk.h"
#include "testutil.h"

#define SENTINEL ((void *)(uintptr_t)0x5e17)

static void walk(const oom_op *op, void *ctx)
{
    oom_result r = oom_walk(op, ctx);
    fprintf(stderr, "oom: %-34s %3llu allocations, %4llu injected failures\n", op->name,
            (unsigned long long)r.sites, (unsigned long long)r.failures);
}

/* ---- graphs ------------------------------------------------------------- */
typedef struct {
    toggle_graph *g;
    int which;
} graph_ctx;

static const char edges_text[] = "nodes 6\n0 1\n1 2\n2 3 # c\n3 4\n4 5\n5 0\n0 3\n";

static int graph_run(void *p)
{
    graph_ctx *c = p;
    static const int64_t dr[] = {0, -1, 1, 0, 0, 2}, dc[] = {0, 0, 0, -1, 1, 1};
    static const uint64_t w[] = {1, 2, 1, 3, 1, 1};
    static const uint8_t adj[16] = {0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0};
    static const size_t edges[] = {0, 1, 1, 2, 2, 0, 3, 4, 1, 2};
    uint64_t m[9] = {1, 1, 0, 0, 1, 1, 1, 0, 1};
    switch (c->which) {
    case 0: return toggle_graph_new_grid(&c->g, 5, 7, TOGGLE_GRID_TORUS);
    case 1: return toggle_graph_new_stencil(&c->g, 4, 6, dr, dc, w, 6, TOGGLE_GRID_TORUS);
    case 2: return toggle_graph_new_adjacency(&c->g, 4, adj, 0);
    case 3: return toggle_graph_new_edges(&c->g, 5, edges, 5, TOGGLE_GRAPH_NO_SELF);
    case 4: return toggle_graph_parse_edges(&c->g, edges_text, sizeof edges_text - 1, 0);
    default: return toggle_graph_new_matrix(&c->g, 3, m);
    }
}

static int graph_unchanged(void *p)
{
    return ((graph_ctx *)p)->g == SENTINEL;
}

static const char *graph_accept(void *p)
{
    graph_ctx *c = p;
    const char *msg = c->g && c->g != SENTINEL && toggle_graph_cells(c->g) > 0 ? NULL : "no graph";
    toggle_graph_free(c->g);
    c->g = SENTINEL;
    return msg;
}

START_TEST(oom_graph_constructors)
{
    static const char *names[] = {"toggle_graph_new_grid", "toggle_graph_new_stencil",
                                  "toggle_graph_new_adjacency", "toggle_graph_new_edges",
                                  "toggle_graph_parse_edges", "toggle_graph_new_matrix"};
    graph_ctx c = {SENTINEL, _i};
    oom_op op = {names[_i], graph_run, graph_unchanged, graph_accept, 0};
    walk(&op, &c);
}
END_TEST

/* ---- systems and text ---------------------------------------------------- */
typedef struct {
    toggle_system *s;
    toggle_graph *g;
    int which;
} system_ctx;

static const char sys_text[] = "1 2 0 | 3\n4 0 6 | 1\n# comment\n0 0 1 | 2\n";

static int system_run(void *p)
{
    system_ctx *c = p;
    uint64_t a[6] = {1, 2, 0, 3, 4, 1}, b[2] = {1, 0}, start[35] = {0};
    start[3] = 2;
    switch (c->which) {
    case 0: return toggle_system_new(&c->s, c->g, 3, start, NULL);
    case 1: return toggle_system_new_matrix(&c->s, 2, 3, a, b, 5);
    default: return toggle_system_parse(&c->s, sys_text, sizeof sys_text - 1, 7);
    }
}

static int system_unchanged(void *p)
{
    return ((system_ctx *)p)->s == SENTINEL;
}

static const char *system_accept(void *p)
{
    system_ctx *c = p;
    const char *msg = c->s != SENTINEL && toggle_system_rows(c->s) > 0 ? NULL : "no system";
    toggle_system_free(c->s);
    c->s = SENTINEL;
    return msg;
}

START_TEST(oom_system_constructors)
{
    static const char *names[] = {"toggle_system_new", "toggle_system_new_matrix",
                                  "toggle_system_parse"};
    system_ctx c = {SENTINEL, NULL, _i};
    ck_assert_int_eq(toggle_graph_new_grid(&c.g, 5, 7, 0), 0);
    oom_op op = {names[_i], system_run, system_unchanged, system_accept, 0};
    walk(&op, &c);
    toggle_graph_free(c.g);
}
END_TEST

typedef struct {
    uint64_t cells[16];
    size_t rows, cols;
} board_ctx;

static int board_run(void *p)
{
    board_ctx *c = p;
    static const char text[] = "1.2\n0 1 2\n\n# x\n222\n";
    return toggle_board_parse(text, sizeof text - 1, 3, c->cells, 16, &c->rows, &c->cols);
}

static int board_unchanged(void *p)
{
    board_ctx *c = p;
    for (int i = 0; i < 16; i++)
        if (c->cells[i] != 99)
            return 0;
    return c->rows == 99 && c->cols == 99;
}

static const char *board_accept(void *p)
{
    board_ctx *c = p;
    const char *msg = c->rows == 3 && c->cols == 3 && c->cells[2] == 2 ? NULL : "bad board";
    for (int i = 0; i < 16; i++)
        c->cells[i] = 99;
    c->rows = c->cols = 99;
    return msg;
}

START_TEST(oom_board_parse)
{
    board_ctx c = {0};
    board_accept(&c);
    oom_op op = {"toggle_board_parse", board_run, board_unchanged, board_accept, 0};
    walk(&op, &c);
}
END_TEST

typedef struct {
    toggle_system *s;
    char buf[4096];
} write_ctx;

static int write_run(void *p)
{
    write_ctx *c = p;
    return toggle_system_write(c->s, c->buf, sizeof c->buf, NULL);
}

static const char *write_accept(void *p)
{
    write_ctx *c = p;
    const char *msg = strchr(c->buf, '|') ? NULL : "no text";
    memset(c->buf, 0, sizeof c->buf);
    return msg;
}

START_TEST(oom_system_write)
{
    write_ctx c;
    memset(c.buf, 0, sizeof c.buf);
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 6, 6, TOGGLE_GRID_MOORE), 0);
    ck_assert_int_eq(toggle_system_new(&c.s, g, 5, NULL, NULL), 0);
    oom_op op = {"toggle_system_write (grid)", write_run, NULL, write_accept, 0};
    walk(&op, &c);
    toggle_system_free(c.s);
    toggle_graph_free(g);
}
END_TEST

/* ---- solving: every engine, solvable and unsolvable ----------------------- */
typedef struct {
    toggle_system *s;
    toggle_solution *sol;
    uint64_t *a, *b;
    size_t m, n;
    uint64_t k;
} solve_ctx;

static int solve_run(void *p)
{
    solve_ctx *c = p;
    return toggle_solve(&c->sol, c->s);
}

static int solve_unchanged(void *p)
{
    return ((solve_ctx *)p)->sol == SENTINEL;
}

static const char *solve_accept(void *p)
{
    solve_ctx *c = p;
    const char *msg = tu_verify(c->sol, c->a, c->b, c->m, c->n, c->k, SIZE_MAX);
    toggle_solution_free(c->sol);
    c->sol = SENTINEL;
    return msg;
}

/* Case i: engine, modulus, grid or matrix, solvable or not. */
typedef struct {
    const char *name;
    int engine;
    uint64_t k;
    size_t rows, cols;
    uint32_t flags;
    int matrix; /* 1: dense random matrix m x n (rows x cols) */
    int unsolvable;
} solve_case;

static const solve_case solve_cases[] = {
    {"toggle_solve flint grid", TU_ENGINE_PRIME, 3, 5, 5, 0, 0, 0},
    {"toggle_solve flint unsolvable", TU_ENGINE_PRIME, 2, 4, 4, 0, 0, 1},
    {"toggle_solve flint matrix p=2^61-1", TU_ENGINE_PRIME, UINT64_C(2305843009213693951),
     6, 8, 0, 1, 0},
    {"toggle_solve gf2 grid", TOGGLE_ENGINE_GF2, 2, 5, 5, 0, 0, 0},
    {"toggle_solve gf2 unsolvable", TOGGLE_ENGINE_GF2, 2, 4, 4, 0, 0, 1},
    {"toggle_solve gf2 matrix", TOGGLE_ENGINE_GF2, 2, 70, 90, 0, 1, 0},
    {"toggle_solve chase grid", TOGGLE_ENGINE_CHASE, 2, 9, 9, 0, 0, 0},
    {"toggle_solve chase unsolvable", TOGGLE_ENGINE_CHASE, 2, 4, 4, 0, 0, 1},
    {"toggle_solve chase p=5", TOGGLE_ENGINE_CHASE, 5, 6, 7, 0, 0, 0},
    {"toggle_solve auto torus", TOGGLE_ENGINE_AUTO, 2, 5, 5, TOGGLE_GRID_TORUS, 0, 0},
    {"toggle_solve howell k=12", TOGGLE_ENGINE_HOWELL, 12, 4, 4, 0, 0, 0},
    {"toggle_solve howell k=8 matrix", TOGGLE_ENGINE_HOWELL, 8, 5, 6, 0, 1, 0},
    /* the transfer probe's own allocations: ENOMEM, not "does not peel" */
    {"toggle_solve transfer grid p=3", TOGGLE_ENGINE_TRANSFER, 3, 6, 5, 0, 0, 0},
    {"toggle_solve transfer torus", TOGGLE_ENGINE_TRANSFER, 2, 5, 5, TOGGLE_GRID_TORUS, 0, 0},
    {"toggle_solve transfer unsolvable", TOGGLE_ENGINE_TRANSFER, 2, 4, 4, 0, 0, 1},
    /* odd p, no tail decides: the canonical form from local vectors */
    {"toggle_solve transfer tri cylinder p=3", TOGGLE_ENGINE_TRANSFER, 3, 6, 8,
     TOGGLE_GRID_TRI | TOGGLE_GRID_CYLINDER, 0, 0},
    /* a board where both axes peel: a failure while the second axis is
     * set up is ENOMEM, never "the small system is not small" (the first
     * axis kept as if the second did not peel) */
    {"toggle_solve transfer tri 21x20", TOGGLE_ENGINE_TRANSFER, 2, 21, 20, TOGGLE_GRID_TRI, 0, 0},
    /* AUTO picks the transfer engine's composite path (k = 12): every
     * failure between its phases must free each buffer once */
    {"toggle_solve auto hex torus k=12", TOGGLE_ENGINE_AUTO, 12, 12, 12,
     TOGGLE_GRID_HEX | TOGGLE_GRID_TORUS, 0, 0},
    {"toggle_solve dense grid p=3", TOGGLE_ENGINE_DENSE, 3, 5, 5, 0, 0, 0},
    {"toggle_solve dense unsolvable", TOGGLE_ENGINE_DENSE, 2, 4, 4, 0, 0, 1},
};
#define NSOLVE (int)(sizeof solve_cases / sizeof *solve_cases)

static int make_case(const solve_case *sc, solve_ctx *c, toggle_graph **g)
{
    tu_rng r = tu_rng_for(0x00a11c + (uint64_t)sc->rows);
    c->k = sc->k;
    c->sol = SENTINEL;
    *g = NULL;
    if (sc->matrix) {
        c->m = sc->rows;
        c->n = sc->cols;
        c->a = calloc(c->m * c->n, sizeof *c->a);
        c->b = calloc(c->m, sizeof *c->b);
        for (size_t i = 0; i < c->m * c->n; i++)
            c->a[i] = tu_below(&r, 4) ? 0 : tu_below(&r, c->k);
        for (size_t i = 0; i < c->m; i++)
            c->b[i] = tu_below(&r, c->k);
        return toggle_system_new_matrix(&c->s, c->m, c->n, c->a, c->b, c->k);
    }
    c->m = c->n = sc->rows * sc->cols;
    c->a = tu_grid_matrix(sc->rows, sc->cols, sc->flags);
    c->b = calloc(c->n, sizeof *c->b);
    int rc = toggle_graph_new_grid(g, sc->rows, sc->cols, sc->flags);
    if (rc)
        return rc;
    /* 4x4 classic k=2 has nullity 4: a single lit corner is unsolvable */
    for (size_t i = 0; i < c->n; i++)
        c->b[i] = sc->unsolvable ? (i == 0) : 1 % c->k;
    return toggle_system_new(&c->s, *g, c->k, NULL, c->b);
}

START_TEST(oom_solve)
{
    const solve_case *sc = &solve_cases[_i];
    solve_ctx c;
    toggle_graph *g;
    ck_assert_int_eq(make_case(sc, &c, &g), 0);
    ck_assert_int_eq(toggle_system_set_option(c.s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)sc->engine), 0);
    toggle_solution *probe = NULL;
    int rc = toggle_solve(&probe, c.s);
    if (rc == TOGGLE_EUNSUPPORTED) { /* engine not in this build yet */
        fprintf(stderr, "oom: %s skipped: %s\n", sc->name, toggle_last_error());
    } else {
        ck_assert_msg(rc == 0, "%s: %s", sc->name, toggle_last_error());
        if (!sc->matrix) /* random matrices may go either way */
            ck_assert_int_eq(toggle_solution_is_solvable(probe), !sc->unsolvable);
        toggle_solution_free(probe);
        oom_op op = {sc->name, solve_run, solve_unchanged, solve_accept, 0};
        walk(&op, &c);
    }
    toggle_system_free(c.s);
    toggle_graph_free(g);
    free(c.a);
    free(c.b);
}
END_TEST

/* ---- solution readers that allocate -------------------------------------- */
typedef struct {
    toggle_solution *sol;
    char buf[256];
    int which;
    size_t nullity, expect;
} reader_ctx;

static int reader_run(void *p)
{
    reader_ctx *c = p;
    if (c->which == 0)
        return toggle_solution_count_string(c->sol, c->buf, sizeof c->buf, NULL);
    return toggle_grid_nullity(12, 12, 2, 0, &c->nullity);
}

static int reader_unchanged(void *p)
{
    reader_ctx *c = p;
    return c->buf[0] == 'x' && c->nullity == 12345;
}

static const char *reader_accept(void *p)
{
    reader_ctx *c = p;
    const char *msg = NULL;
    if (c->which == 0 && strcmp(c->buf, "16") != 0)
        msg = "count is not 16";
    if (c->which == 1 && c->nullity != c->expect)
        msg = "12x12 nullity differs from the test's own rank";
    memset(c->buf, 'x', sizeof c->buf);
    c->nullity = 12345;
    return msg;
}

START_TEST(oom_readers)
{
    static const char *names[] = {"toggle_solution_count_string", "toggle_grid_nullity"};
    reader_ctx c;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 4, 4, 0), 0);
    ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, NULL), 0);
    ck_assert_int_eq(toggle_solve(&c.sol, s), 0);
    c.which = _i;
    uint64_t *a = tu_grid_matrix(12, 12, 0);
    c.expect = 144 - tu_rank(a, 144, 144, 2);
    free(a);
    reader_accept(&c);
    oom_op op = {names[_i], reader_run, reader_unchanged, reader_accept, 0};
    walk(&op, &c);
    toggle_solution_free(c.sol);
    toggle_system_free(s);
    toggle_graph_free(g);
}
END_TEST


/* ---- solution spaces, rendering, symmetry --------------------------------- */
typedef struct {
    int which;
    toggle_system *s;
    toggle_solution *sol;
    void *out; /* the handle a constructor returns (SENTINEL while none) */
    toggle_rng *rng;
    toggle_search *search;
    toggle_generator *gen;
    toggle_render_opts *opts;
    uint64_t x[16], count;
    uint8_t img[4096];
    size_t need;
} api_ctx;

static const char *api_names[] = {
    "toggle_iter_new", "toggle_rng_new", "toggle_solution_sample", "toggle_search_new",
    "toggle_search_run", "toggle_generator_new", "toggle_generator_next",
    "toggle_render_opts_new", "toggle_render (ppm)", "toggle_render (png)",
    "toggle_solution_count_orbits"};
#define NAPI (int)(sizeof api_names / sizeof *api_names)

static const uint64_t board4[16] = {0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0};

static int api_run(void *p)
{
    api_ctx *c = p;
    switch (c->which) {
    case 0: return toggle_iter_new((toggle_iter **)&c->out, c->sol);
    case 1: return toggle_rng_new((toggle_rng **)&c->out, 7);
    case 2: return toggle_solution_sample(c->sol, c->rng, c->x, 16);
    case 3: return toggle_search_new((toggle_search **)&c->out, c->sol);
    case 4: return toggle_search_run(c->search);
    case 5: return toggle_generator_new((toggle_generator **)&c->out, c->s);
    case 6: return toggle_generator_next(c->gen, c->x, 16, NULL);
    case 7: return toggle_render_opts_new((toggle_render_opts **)&c->out);
    case 8: return toggle_render(c->opts, TOGGLE_IMAGE_PPM, board4, 4, 4, 2, c->img,
                                 sizeof c->img, &c->need);
    case 9: return toggle_render(c->opts, TOGGLE_IMAGE_PNG, board4, 4, 4, 2, c->img,
                                 sizeof c->img, &c->need);
    default: return toggle_solution_count_orbits(c->sol, 4, 4, TOGGLE_SYM_ALL, &c->count);
    }
}

static int api_unchanged(void *p)
{
    api_ctx *c = p;
    if (c->out != SENTINEL || c->count != 99)
        return 0;
    if (c->which == 2 || c->which == 6)
        for (int i = 0; i < 16; i++)
            if (c->x[i] != 99)
                return 0;
    return 1;
}

static const char *api_accept(void *p)
{
    api_ctx *c = p;
    const char *msg = NULL;
    switch (c->which) {
    case 0: toggle_iter_free(c->out); break;
    case 1: toggle_rng_free(c->out); break;
    case 3: toggle_search_free(c->out); break;
    case 5: toggle_generator_free(c->out); break;
    case 7: toggle_render_opts_free(c->out); break;
    case 2: {
        int ok = 0;
        if (toggle_system_check(c->s, c->x, 16, &ok) || !ok)
            msg = "the sample does not solve the system";
        break;
    }
    case 8: case 9:
        if (c->need < 8 || c->need > sizeof c->img)
            msg = "image size";
        break;
    case 10:
        if (c->count == 0 || c->count > 16)
            msg = "orbit count";
        break;
    default: break;
    }
    c->out = SENTINEL;
    c->count = 99;
    for (int i = 0; i < 16; i++)
        c->x[i] = 99;
    return msg;
}

START_TEST(oom_space_render)
{
    api_ctx c;
    memset(&c, 0, sizeof c);
    c.which = _i;
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, 4, 4, 0), 0);
    ck_assert_int_eq(toggle_system_new(&c.s, g, 2, NULL, NULL), 0);
    ck_assert_int_eq(toggle_solve(&c.sol, c.s), 0);
    ck_assert_int_eq(toggle_rng_new(&c.rng, 1), 0);
    ck_assert_int_eq(toggle_search_new(&c.search, c.sol), 0);
    ck_assert_int_eq(toggle_generator_new(&c.gen, c.s), 0);
    ck_assert_int_eq(toggle_render_opts_new(&c.opts), 0);
    api_accept(&c);
    int probe = api_run(&c);
    api_accept(&c);
    if (probe == TOGGLE_EUNSUPPORTED) { /* PNG without libpng */
        fprintf(stderr, "oom: %s skipped: %s\n", api_names[_i], toggle_last_error());
    } else {
        ck_assert_msg(probe == 0, "%s: %s", api_names[_i], toggle_last_error());
        oom_op op = {api_names[_i], api_run, api_unchanged, api_accept, 0};
        walk(&op, &c);
    }
    toggle_render_opts_free(c.opts);
    toggle_generator_free(c.gen);
    toggle_search_free(c.search);
    toggle_rng_free(c.rng);
    toggle_solution_free(c.sol);
    toggle_system_free(c.s);
    toggle_graph_free(g);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("oom");
    TCase *tc = tcase_create("inject");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, oom_graph_constructors, 0, 6);
    tcase_add_loop_test(tc, oom_system_constructors, 0, 3);
    tcase_add_test(tc, oom_board_parse);
    tcase_add_test(tc, oom_system_write);
    tcase_add_loop_test(tc, oom_solve, 0, NSOLVE);
    tcase_add_loop_test(tc, oom_readers, 0, 2);
    tcase_add_loop_test(tc, oom_space_render, 0, NAPI);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
