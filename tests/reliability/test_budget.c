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
    {"auto 2000x2000 k=5 torus", TOGGLE_ENGINE_AUTO, 5, 2000, 2000, TOGGLE_GRID_TORUS},
    {"chase 4000x4000 (budget 1 MiB)", TOGGLE_ENGINE_CHASE, 2, 4000, 4000, 0},
    {"howell 1000x1000 k=4", TOGGLE_ENGINE_HOWELL, 4, 1000, 1000, 0},
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
    toggle_system_set_option(s, TOGGLE_OPT_ENGINE, (uint64_t)c->engine);
    if (c->engine == TOGGLE_ENGINE_CHASE)
        toggle_system_set_option(s, TOGGLE_OPT_MEMORY_BUDGET, 1 << 20);
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
    toggle_system_set_option(s, TOGGLE_OPT_ENGINE, (uint64_t)c->engine);
    toggle_system_set_option(s, TOGGLE_OPT_MEMORY_BUDGET, est - 1);
    if (toggle_solve(&sol, s) != TOGGLE_ENOMEM)
        return 12;
    toggle_system_set_option(s, TOGGLE_OPT_MEMORY_BUDGET, est);
    long before = maxrss_kib();
    int rc = toggle_solve(&sol, s);
    if (rc == TOGGLE_ENOMEM) {
        /* an engine that checks a later stage against the budget itself */
        out[2] = -2;
        toggle_system_set_option(s, TOGGLE_OPT_MEMORY_BUDGET, 0);
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

int main(void)
{
    Suite *su = suite_create("budget");
    TCase *tc = tcase_create("budget");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, over_budget_fails_early, 0, (int)(sizeof huge / sizeof *huge));
    tcase_add_loop_test(tc, estimate_bounds_peak, 0, (int)(sizeof moderate / sizeof *moderate));
    suite_add_tcase(su, tc);
    return tu_run(su);
}
