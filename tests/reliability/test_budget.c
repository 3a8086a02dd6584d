/* The memory budget: a request over it fails before any large allocation
 * (the peak RSS of a fresh child barely moves), a budget equal to the
 * engine's estimate is enough, and each engine's estimate bounds the peak
 * RSS measured while it solves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "space/space_internal.h"
#include "rel_util.h"
#include "testutil.h"

static long maxrss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Run fn in a fresh child; it writes two figures to the pipe. */
typedef int (*child_fn)(const void *arg, long out[3]);

static int in_child(child_fn fn, const void *arg, long out[3])
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fd[0]);
        long o[3] = {0, 0, 0};
        int rc = fn(arg, o);
        ssize_t w = write(fd[1], o, sizeof o);
        _exit(w == (ssize_t)sizeof o ? rc : 99);
    }
    close(fd[1]);
    ssize_t r = read(fd[0], out, 3 * sizeof(long));
    close(fd[0]);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st), "child killed by signal %d", WTERMSIG(st));
    ck_assert_int_eq(r, (ssize_t)(3 * sizeof(long)));
    return WEXITSTATUS(st);
}

typedef struct {
    const char *name;
    int engine;
    uint64_t k;
    size_t rows, cols;
    uint32_t flags;
} bcase;

/* Huge requests: each far over the default 4 GiB budget or a set one. */
static const bcase huge[] = {
    {"flint 3000x3000 k=3", TU_ENGINE_PRIME, 3, 3000, 3000, 0},
    {"gf2 1000x1000 torus", TOGGLE_ENGINE_GF2, 2, 1000, 1000, TOGGLE_GRID_TORUS},
    /* (AUTO now chases this torus within the budget: the transfer engine) */
    {"flint 2000x2000 k=5 torus", TOGGLE_ENGINE_FLINT, 5, 2000, 2000, TOGGLE_GRID_TORUS},
    {"chase 4000x4000 (budget 1 MiB)", TOGGLE_ENGINE_CHASE, 2, 4000, 4000, 0},
    {"howell 1000x1000 k=4", TOGGLE_ENGINE_HOWELL, 4, 1000, 1000, 0},
#ifdef TOGGLE_HAVE_BLAS /* else the option is refused and AUTO would chase the grid */
    {"blas 3000x3000 k=3", TOGGLE_ENGINE_BLAS, 3, 3000, 3000, 0},
#endif
    {"transfer 6000x6000 k=3 torus", TOGGLE_ENGINE_TRANSFER, 3, 6000, 6000, TOGGLE_GRID_TORUS},
};

static int over_budget_child(const void *arg, long out[3])
{
    const bcase *c = arg;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    if (toggle_graph_new_grid(&g, c->rows, c->cols, c->flags) ||
        toggle_system_new(&s, g, c->k, NULL, NULL))
        return 10;
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)c->engine);
    if (c->engine == TOGGLE_ENGINE_CHASE)
        toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 1 << 20);
    long before = maxrss_kib();
    int rc = toggle_solve(&sol, s);
    out[0] = before;
    out[1] = maxrss_kib();
    out[2] = rc;
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return 0;
}

START_TEST(over_budget_fails_early)
{
    const bcase *c = &huge[_i];
    long o[3];
    ck_assert_int_eq(in_child(over_budget_child, c, o), 0);
    if (o[2] == TOGGLE_EUNSUPPORTED) {
        fprintf(stderr, "budget: %s: engine not in this build, skipped\n", c->name);
        return;
    }
    ck_assert_msg(o[2] == TOGGLE_ENOMEM, "%s: solve returned %s", c->name,
                  toggle_status_name((int)o[2]));
    fprintf(stderr, "budget: %-32s refused, peak RSS %ld -> %ld KiB\n", c->name, o[0], o[1]);
    if (rel_memory_figures_meaningful())
        ck_assert_msg(o[1] - o[0] < 16 * 1024, "%s: RSS grew by %ld KiB before refusing",
                      c->name, o[1] - o[0]);
}
END_TEST

/* Moderate requests: estimate vs the measured peak. */
static const bcase moderate[] = {
    {"flint 40x40 k=3", TU_ENGINE_PRIME, 3, 40, 40, 0},
    {"flint 20x20 k=3", TU_ENGINE_PRIME, 3, 20, 20, 0},
    {"flint 50x50 k=3", TU_ENGINE_PRIME, 3, 50, 50, 0},
    {"flint 40x40 k=2^61-1", TU_ENGINE_PRIME, UINT64_C(2305843009213693951), 40, 40, 0},
    {"flint 30x30 k=2 torus (certificate)", TU_ENGINE_PRIME, 2, 30, 30, TOGGLE_GRID_TORUS},
    {"dense 40x40 k=3", TOGGLE_ENGINE_DENSE, 3, 40, 40, 0},
    {"dense 40x40 k=2^61-1", TOGGLE_ENGINE_DENSE, UINT64_C(2305843009213693951), 40, 40, 0},
    {"dense 30x30 k=2 torus (certificate)", TOGGLE_ENGINE_DENSE, 2, 30, 30, TOGGLE_GRID_TORUS},
    {"gf2 100x100 torus", TOGGLE_ENGINE_GF2, 2, 100, 100, TOGGLE_GRID_TORUS},
    {"chase 400x400", TOGGLE_ENGINE_CHASE, 2, 400, 400, 0},
    {"chase 200x200 k=3", TOGGLE_ENGINE_CHASE, 3, 200, 200, 0},
    {"howell 24x24 k=4", TOGGLE_ENGINE_HOWELL, 4, 24, 24, 0},
    {"blas 40x40 torus k=3 (certificate)", TOGGLE_ENGINE_BLAS, 3, 40, 40, TOGGLE_GRID_TORUS},
    {"blas 30x30 torus k=65521", TOGGLE_ENGINE_BLAS, 65521, 30, 30, TOGGLE_GRID_TORUS},
    {"blas 45x45 k=5", TOGGLE_ENGINE_BLAS, 5, 45, 45, 0},
    {"blas 20x20 k=1048573", TOGGLE_ENGINE_BLAS, 1048573, 20, 20, 0},
    {"transfer 200x200 k=2 torus", TOGGLE_ENGINE_TRANSFER, 2, 200, 200, TOGGLE_GRID_TORUS},
    {"transfer 60x60 k=3 torus", TOGGLE_ENGINE_TRANSFER, 3, 60, 60, TOGGLE_GRID_TORUS},
    {"transfer 100x100 k=3 hex", TOGGLE_ENGINE_TRANSFER, 3, 100, 100, TOGGLE_GRID_HEX},
};

static int estimate_child(const void *arg, long out[3])
{
    const bcase *c = arg;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    if (toggle_graph_new_grid(&g, c->rows, c->cols, c->flags) ||
        toggle_system_new(&s, g, c->k, NULL, NULL))
        return 10;
    const toggle__engine_entry *e = toggle__engine_get(c->engine);
    if (!e || !e->engine->probe(s, NULL, 0)) {
        out[2] = -1;
        return 0;
    }
    uint64_t est = 0;
    if (toggle__engine_estimate(e, s, &est))
        return 11;
    /* exactly the estimate is enough; one byte less is refused */
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)c->engine);
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, est - 1);
    if (toggle_solve(&sol, s) != TOGGLE_ENOMEM)
        return 12;
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, est);
    long before = maxrss_kib();
    int rc = toggle_solve(&sol, s);
    if (rc == TOGGLE_ENOMEM) {
        /* an engine that checks a later stage against the budget itself */
        out[2] = -2;
        toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0);
        rc = toggle_solve(&sol, s);
    }
    if (rc != TOGGLE_OK)
        return 13;
    out[0] = (long)(est / 1024);
    out[1] = maxrss_kib() - before;
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return 0;
}

START_TEST(estimate_bounds_peak)
{
    const bcase *c = &moderate[_i];
    long o[3];
    int rc = in_child(estimate_child, c, o);
    ck_assert_msg(rc == 0, "%s: child step %d: %s", c->name, rc, toggle_last_error());
    if (o[2] == -1) {
        fprintf(stderr, "budget: %s: engine not in this build, skipped\n", c->name);
        return;
    }
    fprintf(stderr, "budget: %-36s estimate %8ld KiB, measured peak growth %8ld KiB\n",
            c->name, o[0], o[1]);
    /* RSS counts whole pages and the allocator's own slack: 2 MiB leeway */
    if (rel_memory_figures_meaningful())
        ck_assert_msg(o[1] <= o[0] + 2048, "%s: peak %ld KiB over the estimate %ld KiB",
                      c->name, o[1], o[0]);
}
END_TEST

/* Size queries cost what the answer's size costs: a PNG size query streams
 * (a few rows in memory, not the picture), a PPM one is a formula (a
 * picture of 10^12 pixels answers at once), and the text size of a
 * 1000 x 1000 grid system is arithmetic on its structure. */
static int size_query_child(const void *arg, long out[3])
{
    (void)arg;
    size_t R = 1500, C = 1500;
    uint64_t *cells = malloc(R * C * sizeof *cells);
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < R * C; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        cells[i] = x % 300; /* RGB, incompressible */
    }
    toggle_render_opts *o = NULL;
    if (toggle_render_opts_new(&o) || toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, 2))
        return 10;
    size_t need = 0;
    long before = maxrss_kib();
    int rc = toggle_render(o, TOGGLE_IMAGE_PNG, cells, R, C, 300, NULL, 0, &need);
    out[0] = maxrss_kib() - before;
    out[1] = (long)(need / 1024);
    if (rc != TOGGLE_EBUFSIZE && rc != TOGGLE_EUNSUPPORTED)
        return 11;
    /* PPM: 1000 x 1000 cells of 1000 pixels: 3 * 10^12 bytes, by formula */
    if (toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, 1000))
        return 12;
    if (toggle_render(o, TOGGLE_IMAGE_PPM, cells, 1000, 1000, 300, NULL, 0, &need) !=
        TOGGLE_EBUFSIZE)
        return 13;
    if (need != 3000000000000u + strlen("P6\n1000000 1000000\n255\n"))
        return 14;
    toggle_render_opts_free(o);
    free(cells);
    /* the text of a 1000 x 1000 grid system, k = 2: 10^6 rows of 10^6
     * digits, '|', the right-hand side and a newline */
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    if (toggle_graph_new_grid(&g, 1000, 1000, 0) || toggle_system_new(&s, g, 2, NULL, NULL))
        return 15;
    if (toggle_system_write(s, NULL, 0, &need) != TOGGLE_EBUFSIZE)
        return 16;
    if (need != 1000000000000u + 3000000u + 1u)
        return 17;
    toggle_system_free(s);
    toggle_graph_free(g);
    out[2] = maxrss_kib() - before;
    return 0;
}

START_TEST(size_queries_cheap)
{
    long o[3];
    int rc = in_child(size_query_child, NULL, o);
    ck_assert_msg(rc == 0, "child step %d", rc);
    fprintf(stderr, "budget: PNG size query of a 3000x3000 RGB picture (%ld KiB): peak RSS "
            "growth %ld KiB; with the PPM and text queries %ld KiB\n", o[1], o[0], o[2]);
    if (rel_memory_figures_meaningful())
        ck_assert_msg(o[2] < 4096, "size queries grew the RSS by %ld KiB", o[2]);
}
END_TEST

/* Solution-set operations: one estimate (the copy of the solution set:
 * x0, generators, supports), checked against the system's budget before
 * any work, naming the need and the budget; and the estimate bounds the
 * measured peak within 2x. A random (n/2) x n matrix over F_2 has nullity
 * about n/2, each kernel vector about n/2 nonzeros: the supports (16 bytes
 * a nonzero) are far larger than the solve (a bit an entry), so a budget
 * can hold the solve and refuse the copy. */
static int space_child(const void *arg, long out[3])
{
    const size_t *np = arg;
    size_t n = *np, m = n / 2;
    uint64_t *a = calloc(m * n, sizeof *a), *bv = calloc(m, sizeof *bv), x = 12345;
    for (size_t i = 0; i < m * n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = x & 1;
    }
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    if (toggle_system_new_matrix(&s, m, n, a, bv, 2) || toggle_solve(&sol, s))
        return 10;
    free(bv);
    uint64_t est = 0;
    if (toggle__space_estimate(sol, &est))
        return 11;
    toggle_solution_free(sol);
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, est - 1);
    if (toggle_solve(&sol, s))
        return 12;
    long before = maxrss_kib();
    toggle_iter *it = NULL;
    toggle_search *se = NULL;
    toggle_generator *gen = NULL;
    uint64_t orbits;
    if (toggle_iter_new(&it, sol) != TOGGLE_ENOMEM || !strstr(toggle_last_error(), "budget") ||
        toggle_search_new(&se, sol) != TOGGLE_ENOMEM ||
        toggle_solution_count_orbits(sol, 1, n, 0x01, &orbits) != TOGGLE_ENOMEM)
        return 13;
    out[2] = maxrss_kib() - before; /* refused: no growth */
    /* the generator solves the board first (budgeted by toggle_solve), then
     * its copy of the kernel is refused */
    if (toggle_generator_new(&gen, s) != TOGGLE_ENOMEM)
        return 16;
    toggle_solution_free(sol);
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, est);
    if (toggle_solve(&sol, s))
        return 14;
    before = maxrss_kib();
    if (toggle_iter_new(&it, sol))
        return 15;
    out[0] = (long)(est / 1024);
    out[1] = maxrss_kib() - before;
    toggle_iter_free(it);
    toggle_solution_free(sol);
    toggle_system_free(s);
    free(a);
    return 0;
}

START_TEST(space_budget)
{
    size_t n = 1200;
    long o[3];
    int rc = in_child(space_child, &n, o);
    ck_assert_msg(rc == 0, "child step %d", rc);
    fprintf(stderr, "budget: iterator over nullity %zu: estimate %ld KiB, measured peak growth "
            "%ld KiB; refused over the budget with %ld KiB growth\n", n, o[0], o[1], o[2]);
    if (rel_memory_figures_meaningful()) {
        ck_assert_msg(o[2] < 4096, "refusals grew the RSS by %ld KiB", o[2]);
        ck_assert_msg(o[1] <= o[0] + 2048, "estimate %ld KiB, peak %ld KiB", o[0], o[1]);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("budget");
    TCase *tc = tcase_create("budget");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, over_budget_fails_early, 0, (int)(sizeof huge / sizeof *huge));
    tcase_add_loop_test(tc, estimate_bounds_peak, 0, (int)(sizeof moderate / sizeof *moderate));
    tcase_add_test(tc, size_queries_cheap);
    tcase_add_test(tc, space_budget);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
