/* Core workloads: dense systems over F_p through libtoggle's FLINT engine
 * against FLINT's nmod_mat_rref called directly, and text parsing. */
#include <stdlib.h>
#include <string.h>

#include <flint/nmod_mat.h>
#include <toggle.h>

#include "harness.h"

typedef struct {
    size_t n;
    uint64_t p;
} dense_arg;

typedef struct {
    size_t n;
    uint64_t p;
    uint64_t *a, *b;
    toggle_system *sys;
} dense_state;

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void *dense_setup(const void *arg)
{
    const dense_arg *d = arg;
    dense_state *st = calloc(1, sizeof *st);
    st->n = d->n;
    st->p = d->p;
    st->a = malloc(d->n * d->n * sizeof *st->a);
    st->b = malloc(d->n * sizeof *st->b);
    uint64_t s = 12345 + d->n;
    for (size_t i = 0; i < d->n * d->n; i++)
        st->a[i] = rng_next(&s) % d->p;
    for (size_t i = 0; i < d->n; i++)
        st->b[i] = rng_next(&s) % d->p;
    if (toggle_system_new_matrix(&st->sys, d->n, d->n, st->a, st->b, d->p) != TOGGLE_OK)
        return NULL;
    toggle_system_set_option(st->sys, TOGGLE_OPT_ENGINE, TOGGLE_ENGINE_FLINT);
    toggle_system_set_option(st->sys, TOGGLE_OPT_MEMORY_BUDGET, 0);
    return st;
}

static void dense_teardown(void *p)
{
    dense_state *st = p;
    toggle_system_free(st->sys);
    free(st->a);
    free(st->b);
    free(st);
}

static int run_toggle(void *p, int check)
{
    dense_state *st = p;
    toggle_solution *sol;
    if (toggle_solve(&sol, st->sys) != TOGGLE_OK)
        return 1;
    int bad = 0;
    if (check && toggle_solution_is_solvable(sol) == 1) {
        uint64_t *x = malloc(st->n * sizeof *x);
        int ok = 0;
        toggle_solution_particular(sol, x, st->n);
        toggle_system_check(st->sys, x, st->n, &ok);
        bad = !ok;
        free(x);
    }
    toggle_solution_free(sol);
    return bad;
}

static int run_flint(void *p, int check)
{
    (void)check;
    dense_state *st = p;
    nmod_mat_t m;
    nmod_mat_init(m, (slong)st->n, (slong)st->n + 1, st->p);
    for (size_t i = 0; i < st->n; i++) {
        for (size_t j = 0; j < st->n; j++)
            nmod_mat_entry(m, i, j) = st->a[i * st->n + j];
        nmod_mat_entry(m, i, st->n) = st->b[i];
    }
    nmod_mat_rref(m);
    nmod_mat_clear(m);
    return 0;
}

#define DENSE(N, P, Q)                                                                   \
    {"gfp/dense/" #N "/p" #P "/toggle-flint", "gfp/dense/" #N "/p=" #P, "toggle-flint", \
     "flint", Q, 5, dense_setup, run_toggle, dense_teardown, &(dense_arg){N, P}},        \
    {"gfp/dense/" #N "/p" #P "/flint", "gfp/dense/" #N "/p=" #P, "flint", NULL, Q, 5,    \
     dense_setup, run_flint, dense_teardown, &(dense_arg){N, P}}

static const bench_workload core[] = {
    DENSE(256, 65521, 1),
    DENSE(512, 65521, 0),
    DENSE(1024, 65521, 0),
    DENSE(256, 3, 1),
    DENSE(1024, 3, 0),
};

void bench_register_core(void)
{
    bench_register(core, sizeof core / sizeof *core);
}
