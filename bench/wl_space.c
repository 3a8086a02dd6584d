/* Solution-space workloads: the fewest-press search on the n x n all-off to
 * all-on boards over F_2 (A075464), Gray-order iteration throughput, and
 * the Howell engine on composite moduli. */
#include <stdlib.h>

#include <toggle.h>

#include "harness.h"

typedef struct {
    size_t rows, cols;
    uint64_t k;
    int what; /* 0: fewest presses, 1: iterate every solution, 2: solve */
    uint64_t expect; /* fewest weight (A075464) or 0 */
    unsigned threads; /* fewest: TOGGLE_SEARCH_OPT_THREADS (0 = default 1) */
    int weighted;     /* fewest: costs 1 inside, 2 on the border (same symmetries) */
} space_arg;

typedef struct {
    const space_arg *arg;
    toggle_graph *g;
    toggle_system *s;
    toggle_solution *sol;
    uint64_t *x;
} space_state;

static void space_teardown(void *p)
{
    space_state *st = p;
    if (!st)
        return;
    toggle_solution_free(st->sol);
    toggle_system_free(st->s);
    toggle_graph_free(st->g);
    free(st->x);
    free(st);
}

static void *space_setup(const void *arg)
{
    const space_arg *a = arg;
    space_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->arg = a;
    st->x = calloc(a->rows * a->cols, sizeof *st->x);
    if (!st->x || toggle_graph_new_grid(&st->g, a->rows, a->cols, 0)
        || toggle_system_new(&st->s, st->g, a->k, NULL, NULL)
        || (a->what != 2 && toggle_solve(&st->sol, st->s))) {
        space_teardown(st);
        return NULL;
    }
    return st;
}

static int space_run(void *p, int check)
{
    space_state *st = p;
    const space_arg *a = st->arg;
    size_t n = a->rows * a->cols;
    if (a->what == 0) {
        toggle_search *se = NULL;
        uint64_t w = 0;
        int proven = 0;
        uint64_t *cost = NULL;
        if (a->weighted && (cost = malloc(n * sizeof *cost)) != NULL)
            for (size_t j = 0; j < n; j++)
                cost[j] = 1 + (j % a->cols == 0 || j % a->cols == a->cols - 1 || j < a->cols
                               || j >= n - a->cols);
        int bad = toggle_search_new(&se, st->sol)
                  || toggle_search_set_option(se, TOGGLE_SEARCH_OPT_THREADS, a->threads ? a->threads : 1)
                  || toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, 0) /* exhaustive */
                  || (a->weighted && (!cost || toggle_search_set_costs(se, cost, n)));
        free(cost);
        if (bad || toggle_search_run(se)
            || toggle_search_result(se, st->x, n, &w, &proven, NULL)) {
            toggle_search_free(se);
            return 1;
        }
        toggle_search_free(se);
        return check && (!proven || (a->expect && !a->weighted && w != a->expect));
    }
    if (a->what == 1) {
        toggle_iter *it = NULL;
        if (toggle_iter_new(&it, st->sol))
            return 1;
        uint64_t count = 0, want = 0;
        while (toggle_iter_next(it, st->x, n) == TOGGLE_OK)
            count++;
        toggle_iter_free(it);
        return check && (toggle_solution_count_u64(st->sol, &want) || want != count);
    }
    toggle_solution *sol = NULL;
    int rc = toggle_solve(&sol, st->s);
    if (!rc && check && toggle_solution_is_solvable(sol) == 1) {
        int ok = 0;
        rc = toggle_solution_particular(sol, st->x, n)
             || toggle_system_check(st->s, st->x, n, &ok) || !ok;
    }
    toggle_solution_free(sol);
    return rc != 0;
}

#define FEWEST(nn, d, w, q)                                                                  \
    {.name = "space/fewest/allon-" #nn "/d" #d, .group = "space/fewest/allon-" #nn,          \
     .impl = "toggle", .quick = q, .reps = 1, .setup = space_setup, .run = space_run,       \
     .teardown = space_teardown, .arg = &(const space_arg){nn, nn, 2, 0, w, 0, 0}}

/* The same board on 1 and 2 threads and weighted (ratios in one run). */
#define FEWEST_T(nn, d, w, th, wt, tag)                                                      \
    {.name = "space/fewest/allon-" #nn "/" tag, .group = "space/fewest/allon-" #nn "-mt",    \
     .impl = tag, .baseline = "threads-1", .quick = 0, .reps = 1, .setup = space_setup,     \
     .run = space_run,                                                                    \
     .teardown = space_teardown, .arg = &(const space_arg){nn, nn, 2, 0, w, th, wt}}

static const bench_workload space_workloads[] = {
    FEWEST(19, 16, 141, 1),
    FEWEST(23, 14, 231, 1),
    FEWEST(30, 20, 376, 0),
    FEWEST(32, 20, 428, 0),
    FEWEST(39, 32, 561, 0),
    FEWEST_T(39, 32, 561, 1, 0, "threads-1"),
    FEWEST_T(39, 32, 561, 2, 0, "threads-2"),
    FEWEST_T(39, 32, 561, 1, 1, "weighted-threads-1"),
    FEWEST_T(39, 32, 561, 2, 1, "weighted-threads-2"),
    FEWEST_T(61, 40, 1629, 2, 0, "threads-2"),
    {.name = "space/iter/allon-19/toggle", .group = "space/iter/allon-19", .impl = "toggle",
     .quick = 1, .reps = 3, .setup = space_setup, .run = space_run, .teardown = space_teardown,
     .arg = &(const space_arg){19, 19, 2, 1, 0, 0, 0}},
    {.name = "space/howell/grid-8x8-mod6/toggle", .group = "space/howell/grid-8x8-mod6",
     .impl = "toggle", .quick = 1, .reps = 3, .setup = space_setup, .run = space_run,
     .teardown = space_teardown, .arg = &(const space_arg){8, 8, 6, 2, 0, 0, 0}},
    {.name = "space/howell/grid-16x16-mod12/toggle", .group = "space/howell/grid-16x16-mod12",
     .impl = "toggle", .quick = 0, .reps = 1, .setup = space_setup, .run = space_run,
     .teardown = space_teardown, .arg = &(const space_arg){16, 16, 12, 2, 0, 0, 0}},
};

void bench_register_space(void)
{
    bench_scaling("space/fewest/allon-39-mt");
    bench_register(space_workloads, sizeof space_workloads / sizeof *space_workloads);
}
