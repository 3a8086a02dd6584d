/* Cancel in the middle of long work (toggle_system_set_progress): the
 * callback lets the first report through and cancels a later one, so the
 * engine has allocated its workspace (and the gf2 engine started its thread
 * pool) when it stops. Each call must return TOGGLE_ECANCELED, leave the
 * output untouched and free everything: this suite also runs under valgrind
 * (meson test --suite valgrind), which fails on any leak or invalid access.
 * Plain C (no fork): valgrind sees one process. */
#include <stdio.h>
#include <string.h>

#include <toggle.h>

static int failures;

#define CHECK(cond, ...)                                                                    \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            failures++;                                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                            \
            fprintf(stderr, __VA_ARGS__);                                                   \
            fputc('\n', stderr);                                                            \
        }                                                                                   \
    } while (0)

typedef struct {
    int calls;       /* reports received */
    double fraction; /* the fraction of the report that cancelled */
} tally;

/* Go on at the first report, cancel at the second (at least 50 ms later:
 * the library's rate limit), when the work is under way. */
static int cancel_second(void *payload, double fraction)
{
    tally *t = payload;
    if (++t->calls < 2)
        return 0;
    t->fraction = fraction;
    return 1;
}

/* A rows x cols board (flags) over Z/kZ, engine forced, threads; solved with
 * the cancelling callback. Grows the board until the work outlasts two
 * reports (a fast machine may finish a small one before the second). */
static void solve_cancelled(const char *what, size_t n, uint32_t flags, uint64_t k, int engine,
                            uint64_t threads)
{
    for (int attempt = 0; attempt < 4; attempt++, n *= 2) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        tally t = {0, -1.0};
        CHECK(toggle_graph_new_grid(&g, n, n, flags) == 0, "%s: grid", what);
        CHECK(toggle_system_new(&s, g, k, NULL, NULL) == 0, "%s: system", what);
        toggle_graph_free(g);
        CHECK(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)engine) == 0,
              "%s: engine", what);
        CHECK(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, threads) == 0,
              "%s: threads", what);
        CHECK(toggle_system_set_progress(s, cancel_second, &t) == 0, "%s: progress", what);
        toggle_solution *sol = (toggle_solution *)&t; /* a sentinel: must stay */
        int rc = toggle_solve(&sol, s);
        if (rc == TOGGLE_OK && t.calls < 2) { /* too fast for a second report */
            toggle_solution_free(sol);
            toggle_system_free(s);
            continue;
        }
        CHECK(rc == TOGGLE_ECANCELED, "%s %zux%zu: status %s", what, n, n,
              toggle_status_name(rc));
        CHECK(sol == (toggle_solution *)&t, "%s: the output was written", what);
        CHECK(strstr(toggle_last_error(), "cancelled") != NULL, "%s: message '%s'", what,
              toggle_last_error());
        printf("%s %zux%zu: cancelled at report %d (%.0f%%)\n", what, n, n, t.calls,
               100.0 * t.fraction);
        toggle_system_free(s);
        return;
    }
    CHECK(0, "%s: every board finished before a second report", what);
}

/* A fewest-press search over F_3 (the serial walk reports every 65536
 * solutions): cancelled mid-walk, its result stays unset. */
static void search_cancelled(void)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    toggle_search *se = NULL;
    tally t = {0, -1.0};
    /* 38 x 38 over F_3 has nullity 19: 3^19 solutions with target 0 */
    uint64_t zero[38 * 38] = {0};
    CHECK(toggle_graph_new_grid(&g, 38, 38, 0) == 0, "search: grid");
    CHECK(toggle_system_new(&s, g, 3, zero, zero) == 0, "search: system");
    toggle_graph_free(g);
    CHECK(toggle_solve(&sol, s) == 0, "search: solve");
    CHECK(toggle_system_set_progress(s, cancel_second, &t) == 0, "search: progress");
    /* the search takes the callback from the solution, which took it from
     * the system when it was made: set it on a solution made afterwards */
    toggle_solution_free(sol);
    sol = NULL;
    t.calls = -1; /* the solve's own first report does not count */
    CHECK(toggle_solve(&sol, s) == 0, "search: solve with the callback");
    t.calls = 0;
    CHECK(toggle_search_new(&se, sol) == 0, "search: new");
    CHECK(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_METRIC, TOGGLE_METRIC_PRESSES) == 0,
          "search: metric");
    int rc = toggle_search_run(se);
    CHECK(rc == TOGGLE_ECANCELED, "search: status %s", toggle_status_name(rc));
    /* a cancelled search is anytime: the best found so far stays readable,
     * never claimed proven (docs/solution-spaces.md) */
    uint64_t x[38 * 38], w = 77;
    int proven = 9;
    int rr = toggle_search_result(se, x, 38 * 38, &w, &proven, NULL);
    CHECK(rr == TOGGLE_OK || rr == TOGGLE_ELIMIT, "search: result after the cancel: %s",
          toggle_status_name(rr));
    uint64_t lb = 0;
    CHECK(rr != TOGGLE_OK || toggle_search_bound(se, &lb) == TOGGLE_OK, "search: bound");
    /* proven only when the bound reached meets the best found (here the
     * zero solution of the zero board weighs 0: proven at once) */
    CHECK(rr != TOGGLE_OK || !proven || lb >= w, "search: proven %d with bound %llu < %llu",
          proven, (unsigned long long)lb, (unsigned long long)w);
    printf("search 38x38 over F_3: cancelled at report %d\n", t.calls);
    toggle_search_free(se);
    toggle_solution_free(sol);
    toggle_system_free(s);
}

int main(void)
{
    /* the bit-packed engine, serial and with its per-solve pool */
    solve_cancelled("gf2", 64, TOGGLE_GRID_TORUS, 2, TOGGLE_ENGINE_GF2, 1);
    solve_cancelled("gf2-threads", 64, TOGGLE_GRID_TORUS, 2, TOGGLE_ENGINE_GF2, 2);
    /* composite k: the Howell form */
    solve_cancelled("howell", 16, 0, 4, TOGGLE_ENGINE_HOWELL, 1);
    search_cancelled();
    printf("cancel: %s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
