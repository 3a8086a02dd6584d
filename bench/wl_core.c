/* Core workloads: dense systems over F_p through libtoggle's FLINT engine
 * against FLINT called directly (nmod_mat_rref on [A | b], and
 * nmod_mat_nullspace on rank-deficient A against toggle_solve's kernel).
 * Right-hand sides are b = A x0 (solvable) except in the
 * "nullspace-unsolvable" groups, which show the cost of the certificate.
 * With fflas-ffpack found (HAVE_FFLAS), the gfp/auto groups also time its
 * PLUQ and reduced echelon form on the same [A | b]. */
#include <stdlib.h>
#include <string.h>

#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>
#include <toggle.h>

#include "harness.h"
#ifdef HAVE_FFLAS
#include "fflas_ref.h"
#endif

typedef struct {
    size_t n;
    uint64_t p;      /* 0: the first prime above 2^62 */
    size_t nullity;  /* 0: random A (full rank, almost surely); else A = B C of rank n - nullity */
    int solvable;    /* 1: b = A x0; 0: random b (unsolvable almost surely when A is singular) */
    int automatic;   /* 1: toggle_solve with AUTO (the "gfp/auto" groups); 0: FLINT forced */
    unsigned threads; /* TOGGLE_SYSTEM_OPT_THREADS (0: the default, 1) */
} dense_arg;

typedef struct {
    size_t n;
    uint64_t p;
    size_t nullity;  /* as built */
    int solvable;    /* b = A x0 was built */
    uint64_t *a, *b;
    toggle_system *sys;
} dense_state;

static void dense_teardown(void *p)
{
    dense_state *st = p;
    toggle_system_free(st->sys);
    free(st->a);
    free(st->b);
    free(st);
}

/* A random n x n matrix over F_p, or B (n x r) times C (r x n) with
 * r = n - nullity, so that the kernel has dimension nullity (almost surely). */
static int fill_matrix(dense_state *st, const dense_arg *d, uint64_t *s)
{
    size_t n = d->n;
    if (!d->nullity) {
        for (size_t i = 0; i < n * n; i++)
            st->a[i] = bench_rng(s) % st->p;
        return 0;
    }
    slong r = (slong)(n - d->nullity);
    nmod_mat_t b, c, a;
    nmod_mat_init(b, (slong)n, r, st->p);
    nmod_mat_init(c, r, (slong)n, st->p);
    nmod_mat_init(a, (slong)n, (slong)n, st->p);
    for (slong i = 0; i < (slong)n; i++)
        for (slong j = 0; j < r; j++) {
            nmod_mat_entry(b, i, j) = bench_rng(s) % st->p;
            nmod_mat_entry(c, j, i) = bench_rng(s) % st->p;
        }
    nmod_mat_mul(a, b, c);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            st->a[i * n + j] = nmod_mat_entry(a, i, j);
    nmod_mat_clear(a);
    nmod_mat_clear(b);
    nmod_mat_clear(c);
    return 0;
}

/* b = A x0 for a random x0, so the system is solvable. */
static void consistent_rhs(dense_state *st, uint64_t *s)
{
    nmod_t mod;
    nmod_init(&mod, st->p);
    uint64_t *x0 = malloc(st->n * sizeof *x0);
    if (!x0)
        return;
    for (size_t j = 0; j < st->n; j++)
        x0[j] = bench_rng(s) % st->p;
    for (size_t i = 0; i < st->n; i++) {
        uint64_t acc = 0;
        for (size_t j = 0; j < st->n; j++)
            acc = nmod_add(acc, nmod_mul(st->a[i * st->n + j], x0[j], mod), mod);
        st->b[i] = acc;
    }
    free(x0);
}

static void *dense_setup(const void *arg)
{
    const dense_arg *d = arg;
    dense_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->n = d->n;
    st->p = d->p ? d->p : n_nextprime(UWORD(1) << 62, 1);
    st->nullity = d->nullity;
    st->solvable = d->solvable;
    st->a = malloc(d->n * d->n * sizeof *st->a);
    st->b = malloc(d->n * sizeof *st->b);
    uint64_t s = 12345 + d->n;
    if (!st->a || !st->b || fill_matrix(st, d, &s)) {
        dense_teardown(st);
        return NULL;
    }
    for (size_t i = 0; i < d->n; i++)
        st->b[i] = bench_rng(&s) % st->p;
    if (d->solvable)
        consistent_rhs(st, &s);
    if (toggle_system_new_matrix(&st->sys, d->n, d->n, st->a, st->b, st->p) != TOGGLE_OK
        || toggle_system_set_option(st->sys, TOGGLE_SYSTEM_OPT_ENGINE,
                                    d->automatic ? TOGGLE_ENGINE_AUTO : TOGGLE_ENGINE_FLINT)
        || (d->threads && toggle_system_set_option(st->sys, TOGGLE_SYSTEM_OPT_THREADS, d->threads))
        || toggle_system_set_option(st->sys, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0)) {
        dense_teardown(st);
        return NULL;
    }
    return st;
}

/* toggle_solve, then read what the caller would read: the particular
 * solution and every kernel vector. The check verifies them with
 * toggle_system_check (no elimination) and, for the nullspace workloads,
 * the expected nullity. */
static int run_toggle(void *p, int check)
{
    dense_state *st = p;
    toggle_solution *sol;
    if (toggle_solve(&sol, st->sys) != TOGGLE_OK)
        return 1;
    int bad = 0;
    size_t n = st->n, d = toggle_solution_nullity(sol);
    uint64_t *x = malloc(n * sizeof *x);
    if (!x) {
        toggle_solution_free(sol);
        return 1;
    }
    if (toggle_solution_is_solvable(sol) == 1) {
        int ok = 0;
        bad |= toggle_solution_particular(sol, x, n) != TOGGLE_OK;
        if (check)
            bad |= toggle_system_check(st->sys, x, n, &ok) != TOGGLE_OK || !ok;
    }
    for (size_t i = 0; i < d && !bad; i++)
        bad |= toggle_solution_kernel_vector(sol, i, x, n) != TOGGLE_OK;
    if (check && st->nullity)
        bad |= d != st->nullity;
    if (check && st->solvable)
        bad |= toggle_solution_is_solvable(sol) != 1;
    free(x);
    toggle_solution_free(sol);
    return bad;
}

static void load(nmod_mat_t m, const dense_state *st, int augmented)
{
    for (size_t i = 0; i < st->n; i++) {
        for (size_t j = 0; j < st->n; j++)
            nmod_mat_entry(m, i, j) = st->a[i * st->n + j];
        if (augmented)
            nmod_mat_entry(m, i, st->n) = st->b[i];
    }
}

static int run_flint_rref(void *p, int check)
{
    (void)check;
    dense_state *st = p;
    nmod_mat_t m;
    nmod_mat_init(m, (slong)st->n, (slong)st->n + 1, st->p);
    load(m, st, 1);
    nmod_mat_rref(m);
    nmod_mat_clear(m);
    return 0;
}

static int run_flint_nullspace(void *p, int check)
{
    dense_state *st = p;
    nmod_mat_t m, x;
    nmod_mat_init(m, (slong)st->n, (slong)st->n, st->p);
    nmod_mat_init(x, (slong)st->n, (slong)st->n, st->p);
    load(m, st, 0);
    slong d = nmod_mat_nullspace(x, m);
    nmod_mat_clear(m);
    nmod_mat_clear(x);
    return check && (size_t)d != st->nullity;
}

#define DENSE(N, P, PN, Q)                                                                 \
    {"gfp/dense/" #N "/p" PN "/toggle-flint", "gfp/dense/" #N "/p=" PN, "toggle-flint",    \
     "flint-rref", Q, 5, dense_setup, run_toggle, dense_teardown, &(dense_arg){N, P, 0, 1, 0, 0}},  \
    {"gfp/dense/" #N "/p" PN "/flint-rref", "gfp/dense/" #N "/p=" PN, "flint-rref", NULL, Q, \
     5, dense_setup, run_flint_rref, dense_teardown, &(dense_arg){N, P, 0, 1, 0, 0}}

/* Nullspace of a rank-deficient A: FLINT's nmod_mat_nullspace against
 * toggle_solve plus reading every kernel vector. KIND "nullspace": b = A x0
 * (solvable); "nullspace-unsolvable": random b, where toggle_solve also
 * computes the certificate of unsolvability. */
#ifdef HAVE_FFLAS
/* fflas-ffpack on the same [A | b] (bench/fflas_ref.cpp): FFPACK::PLUQ (what
 * FFPACK::Rank does), or the reduced row echelon form (what toggle_solve
 * computes before its readout). The check compares the rank with n minus
 * the nullity toggle_solve finds (its answers verified in run_toggle). */
static int run_fflas(const dense_state *st, int rref, int check)
{
    long r = bench_fflas_echelon(st->a, st->b, st->n, st->p, rref);
    if (r < 0)
        return 1;
    if (!check)
        return 0;
    toggle_solution *sol;
    if (toggle_solve(&sol, st->sys) != TOGGLE_OK)
        return 1;
    int bad = (size_t)r + toggle_solution_nullity(sol) != st->n;
    toggle_solution_free(sol);
    return bad;
}

static void *fflas_setup(const void *arg)
{
    bench_fflas_single_thread();
    return dense_setup(arg);
}

static int run_fflas_pluq(void *p, int check)
{
    return run_fflas(p, 0, check);
}

static int run_fflas_rref(void *p, int check)
{
    return run_fflas(p, 1, check);
}

/* Rows of a gfp/auto group (after AUTO's own, hence the leading comma);
 * in --quick for p = 65521 only, to keep the smoke run short. */
#define AUTO_FFLAS(N, P, PN, Q, R)                                                         \
    , {"gfp/auto/" #N "/p" PN "/fflas-pluq", "gfp/auto/" #N "/p=" PN, "fflas-pluq",        \
       "flint-rref", Q && P == 65521, R, fflas_setup, run_fflas_pluq, dense_teardown,                    \
       &(dense_arg){N, P, 0, 1, 1, 0}},                                                    \
      {"gfp/auto/" #N "/p" PN "/fflas-rref", "gfp/auto/" #N "/p=" PN, "fflas-rref",        \
       "flint-rref", Q && P == 65521, R, fflas_setup, run_fflas_rref, dense_teardown,                    \
       &(dense_arg){N, P, 0, 1, 1, 0}}
#else
#define AUTO_FFLAS(N, P, PN, Q, R)
#endif

#define NULLSPACE(KIND, S, N, P, PN, D, Q)                                                 \
    {"gfp/" KIND "/" #N "/p" PN "/toggle-flint", "gfp/" KIND "/" #N "/p=" PN,              \
     "toggle-flint", "flint-nullspace", Q, 5, dense_setup, run_toggle, dense_teardown,     \
     &(dense_arg){N, P, D, S, 0, 0}},                                                            \
    {"gfp/" KIND "/" #N "/p" PN "/flint-nullspace", "gfp/" KIND "/" #N "/p=" PN,           \
     "flint-nullspace", NULL, Q, 5, dense_setup, run_flint_nullspace, dense_teardown,      \
     &(dense_arg){N, P, D, S, 0, 0}}

/* toggle_solve with AUTO (the blas engine for p < 2^26 from
 * N = 96, FLINT above 2^26) against nmod_mat_rref on the same dense
 * [A | b], b = A x0. P = 0 is not used here: PN names the prime. */
#define AUTO(N, P, PN, Q, R)                                                               \
    {"gfp/auto/" #N "/p" PN "/toggle-auto", "gfp/auto/" #N "/p=" PN, "toggle-auto",        \
     "flint-rref", Q, R, dense_setup, run_toggle, dense_teardown,                          \
     &(dense_arg){N, P, 0, 1, 1, 0}},                                                      \
    {"gfp/auto/" #N "/p" PN "/flint-rref", "gfp/auto/" #N "/p=" PN, "flint-rref", NULL, Q,  \
     R, dense_setup, run_flint_rref, dense_teardown, &(dense_arg){N, P, 0, 1, 1, 0}}        \
    AUTO_FFLAS(N, P, PN, Q, R)

/* Two threads against one (TOGGLE_SYSTEM_OPT_THREADS), AUTO, same system. */
#define THREADS(N, P, PN, Q, R)                                                            \
    {"gfp/threads/" #N "/p" PN "/toggle-1t", "gfp/threads/" #N "/p=" PN, "toggle-1t",      \
     NULL, Q, R, dense_setup, run_toggle, dense_teardown, &(dense_arg){N, P, 0, 1, 1, 1}}, \
    {"gfp/threads/" #N "/p" PN "/toggle-2t", "gfp/threads/" #N "/p=" PN, "toggle-2t",      \
     "toggle-1t", Q, R, dense_setup, run_toggle, dense_teardown,                           \
     &(dense_arg){N, P, 0, 1, 1, 2}}

static const bench_workload core[] = {
    AUTO(256, 3, "3", 1, 5),
    AUTO(256, 65521, "65521", 1, 5),
    AUTO(256, 1048573, "1048573", 1, 5),
    AUTO(256, 67108879, "67108879", 1, 5),
    AUTO(2000, 3, "3", 0, 3),
    AUTO(2000, 65521, "65521", 0, 3),
    AUTO(2000, 1048573, "1048573", 0, 3),
    AUTO(2000, 33554393, "33554393", 0, 3),
    AUTO(2000, 67108879, "67108879", 0, 3),
    AUTO(4000, 3, "3", 0, 1),
    AUTO(4000, 65521, "65521", 0, 1),
    AUTO(4000, 1048573, "1048573", 0, 1),
    AUTO(4000, 67108879, "67108879", 0, 1),
    THREADS(4000, 65521, "65521", 0, 1),
    THREADS(512, 65521, "65521", 1, 3),
    DENSE(128, 3, "3", 1),
    DENSE(256, 3, "3", 0),
    DENSE(512, 3, "3", 0),
    DENSE(1024, 3, "3", 0),
    DENSE(2048, 3, "3", 0),
    DENSE(128, 65521, "65521", 1),
    DENSE(256, 65521, "65521", 0),
    DENSE(512, 65521, "65521", 0),
    DENSE(1024, 65521, "65521", 0),
    DENSE(2048, 65521, "65521", 0),
    DENSE(128, 0, "2^62+", 1),
    DENSE(256, 0, "2^62+", 0),
    DENSE(512, 0, "2^62+", 0),
    DENSE(1024, 0, "2^62+", 0),
    NULLSPACE("nullspace", 1, 128, 65521, "65521", 16, 1),
    NULLSPACE("nullspace", 1, 256, 65521, "65521", 32, 0),
    NULLSPACE("nullspace", 1, 512, 65521, "65521", 64, 0),
    NULLSPACE("nullspace", 1, 1024, 65521, "65521", 128, 0),
    NULLSPACE("nullspace", 1, 2048, 65521, "65521", 256, 0),
    NULLSPACE("nullspace-unsolvable", 0, 512, 65521, "65521", 64, 0),
    NULLSPACE("nullspace-unsolvable", 0, 1024, 65521, "65521", 128, 0),
};

void bench_register_core(void)
{
    bench_scaling("gfp/threads/");
#ifdef HAVE_FFLAS
    bench_compare("toggle-auto", "fflas-pluq");
    bench_compare("toggle-auto", "fflas-rref");
#endif
    bench_register(core, sizeof core / sizeof *core);
}
