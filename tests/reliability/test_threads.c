/* Thread stress: 8 threads solve independent systems on their own handles,
 * built from graphs shared read-only by all of them, through every engine;
 * every answer is checked by the independent verifier. Run under helgrind
 * or ThreadSanitizer for the data-race check (docs/reliability.md). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toggle/guard.h>

#include "testutil.h"

#define THREADS 8

typedef struct {
    size_t rows, cols;
    uint32_t flags;
} shape;

static const shape shapes[] = {
    {5, 5, 0}, {7, 7, 0}, {4, 4, TOGGLE_GRID_TORUS}, {3, 8, TOGGLE_GRID_MOORE},
    {9, 9, 0}, {1, 12, TOGGLE_GRID_NO_SELF},
};
#define NSHAPES (sizeof shapes / sizeof *shapes)

static toggle_graph *graphs[NSHAPES];
/* A system and a solution shared read-only by every thread as well. */
static toggle_system *shared_sys;
static toggle_solution *shared_sol;
static uint64_t *shared_a, shared_b[49];
static uint64_t *dense[NSHAPES];

static const int engines[] = {TOGGLE_ENGINE_AUTO, TU_ENGINE_PRIME, TOGGLE_ENGINE_GF2,
                              TOGGLE_ENGINE_CHASE, TOGGLE_ENGINE_HOWELL};
static const uint64_t moduli[] = {2, 3, 5, 4, 6, UINT64_C(1000000007)};

typedef struct {
    int id;
    size_t iters;
    size_t verified, unsupported;
    char failure[256];
} worker;

static void *work(void *p)
{
    worker *w = p;
    tu_rng r = tu_rng_for(0x7412ead + (uint64_t)w->id);
    for (size_t it = 0; it < w->iters && !w->failure[0]; it++) {
        size_t gi = tu_below(&r, NSHAPES);
        const shape *sh = &shapes[gi];
        size_t n = sh->rows * sh->cols;
        uint64_t k = moduli[tu_below(&r, sizeof moduli / sizeof *moduli)];
        int engine = engines[(it + (size_t)w->id) % (sizeof engines / sizeof *engines)];
        uint64_t *b = malloc(n * sizeof *b);
        for (size_t i = 0; i < n; i++)
            b[i] = tu_below(&r, k);
        toggle_system *s = NULL;
        toggle_solution *sol = NULL;
        int rc = toggle_system_new(&s, graphs[gi], k, NULL, b);
        if (!rc)
            rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)engine);
        if (!rc)
            rc = toggle_solve(&sol, s);
        if (rc == TOGGLE_EUNSUPPORTED) {
            /* the forced engine does not apply (chase on a torus, gf2 with
             * k = 3, ...): count it and let AUTO pick one */
            w->unsupported++;
            rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_AUTO);
            if (!rc)
                rc = toggle_solve(&sol, s);
        }
        if (rc == TOGGLE_EUNSUPPORTED && (k == 4 || k == 6)) {
            w->unsupported++; /* composite k before the Howell engine exists */
        } else if (rc) {
            snprintf(w->failure, sizeof w->failure, "thread %d: %s: %s", w->id,
                     toggle_status_name(rc), toggle_last_error());
        } else {
            const char *msg = tu_verify(sol, dense[gi], b, n, n, k, SIZE_MAX);
            if (msg)
                snprintf(w->failure, sizeof w->failure, "thread %d, %zux%zu k=%llu engine %s: %s",
                         w->id, sh->rows, sh->cols, (unsigned long long)k,
                         toggle_engine_name(engine), msg);
            w->verified++;
        }
        /* the error message is per thread: a failure here is not seen elsewhere */
        toggle_solution_free(sol);
        toggle_system_free(s);
        free(b);
        if (it % 8 == 0 && !w->failure[0]) {
            /* solve the shared system, read the shared solution */
            toggle_solution *mine = NULL;
            rc = toggle_solve(&mine, shared_sys);
            const char *msg = rc ? toggle_last_error()
                                 : tu_verify(mine, shared_a, shared_b, 49, 49, 3, SIZE_MAX);
            if (!msg)
                msg = tu_verify(shared_sol, shared_a, shared_b, 49, 49, 3, SIZE_MAX);
            if (msg)
                snprintf(w->failure, sizeof w->failure, "thread %d, shared system: %s", w->id,
                         msg);
            else
                w->verified += 2;
            toggle_solution_free(mine);
        }
    }
    return NULL;
}

static void run_threads(int guard)
{
    if (guard)
        ck_assert_int_eq(toggle_flint_guard_install(), 0); /* before the threads start */
    for (size_t i = 0; i < NSHAPES; i++) {
        ck_assert_int_eq(toggle_graph_new_grid(&graphs[i], shapes[i].rows, shapes[i].cols,
                                               shapes[i].flags), 0);
        dense[i] = tu_grid_matrix(shapes[i].rows, shapes[i].cols, shapes[i].flags);
    }
    ck_assert_int_eq(toggle_system_new(&shared_sys, graphs[1], 3, NULL, NULL), 0); /* 7x7 */
    ck_assert_int_eq(toggle_solve(&shared_sol, shared_sys), 0);
    shared_a = tu_grid_matrix(7, 7, 0);
    for (size_t i = 0; i < 49; i++)
        shared_b[i] = 1;
    pthread_t th[THREADS];
    worker w[THREADS];
    size_t iters = tu_iters(150);
    for (int i = 0; i < THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        w[i].iters = iters;
        ck_assert_int_eq(pthread_create(&th[i], NULL, work, &w[i]), 0);
    }
    size_t verified = 0, unsupported = 0;
    for (int i = 0; i < THREADS; i++) {
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
        ck_assert_msg(w[i].failure[0] == '\0', "%s", w[i].failure);
        verified += w[i].verified;
        unsupported += w[i].unsupported;
    }
    fprintf(stderr, "threads%s: %d threads, %zu answers verified, %zu engine refusals\n",
            guard ? " (guard)" : "", THREADS, verified, unsupported);
    ck_assert_uint_gt(verified, THREADS * iters * 3 / 4);
    toggle_solution_free(shared_sol);
    toggle_system_free(shared_sys);
    free(shared_a);
    for (size_t i = 0; i < NSHAPES; i++) {
        toggle_graph_free(graphs[i]);
        free(dense[i]);
    }
}

START_TEST(threads_independent_solves)
{
    run_threads(0);
}
END_TEST

START_TEST(threads_with_guard)
{
    run_threads(1);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, threads_independent_solves);
    tcase_add_test(tc, threads_with_guard);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
