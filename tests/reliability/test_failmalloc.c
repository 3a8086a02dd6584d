/* Failing-malloc sweep of the library (docs/reliability.md, "Failing
 * malloc"). Every allocation of the process during one operation (the
 * library's, FLINT's, GMP's, libpng's and zlib's: failmalloc.c replaces
 * malloc and friends in this program) is failed in turn, n = 1, 2, ...,
 * once and from n on, until the operation completes without reaching n;
 * each n runs in a forked child, with and without the FLINT guard. Each
 * run must end in one of:
 *   - TOGGLE_OK with the answer of an unfailed run (solves also checked by
 *     the independent verifier of tests/common);
 *   - TOGGLE_ENOMEM with a message naming memory, the caller's outputs
 *     untouched;
 *   - without the guard only: FLINT's or GMP's documented abort (SIGABRT
 *     after "Exception (FLINT memory_manager). Unable to allocate memory (size)."
 *     on stdout, or "GNU MP: Cannot allocate memory"), which the guard exists to turn
 *     into TOGGLE_ENOMEM;
 * and no block allocated during the operation may be live after its
 * results are freed (a leak). Operations with more than FAILMALLOC_MAX
 * (default 300) allocations are swept on a random sample of that many
 * indices plus the first and last 20 (seed printed; TOGGLE_TEST_SEED
 * reproduces it).
 *
 * Output: one line per operation and mode with its allocations, the runs
 * and what they ended in. Exit status 0 when every run passed. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <toggle.h>

#include "failmalloc.h"
#include "testutil.h"

#define SENT ((void *)(uintptr_t)0x5e17)
#define BUFV 0xa5

typedef struct {
    /* setup (unarmed) */
    toggle_graph *g;
    toggle_system *s;
    toggle_solution *sol;
    toggle_rng *rng;
    toggle_render_opts *ro;
    uint64_t *a, *b;
    size_t m, n;
    uint64_t k;
    /* outputs of the operation */
    toggle_solution *out_sol;
    void *out;     /* iterator, search, generator */
    uint64_t x[64], count;
    char str[24000];
    uint8_t img[8192];
    size_t need;
} ctx;

typedef struct op op;
struct op {
    const char *name;
    int (*setup)(const op *o, ctx *c);
    int (*run)(const op *o, ctx *c);
    /* TOGGLE_OK result: digest of the outputs, then free them */
    uint64_t (*digest)(const op *o, ctx *c);
    /* after a failure: outputs untouched? */
    int (*untouched)(const op *o, ctx *c);
    int engine;
    uint64_t k;
    size_t rows, cols;
    uint32_t flags;
    int variant; /* per-op: unsolvable, format, ... */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
    return h;
}

static uint64_t mix_bytes(uint64_t h, const void *p, size_t len)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < len; i++)
        h = mix(h, b[i]);
    return h;
}

static void reset_outputs(ctx *c)
{
    c->out_sol = SENT;
    c->out = SENT;
    memset(c->x, BUFV, sizeof c->x);
    memset(c->str, BUFV, sizeof c->str);
    memset(c->img, BUFV, sizeof c->img);
    c->count = 0xa5a5a5a5a5a5a5a5u;
    c->need = 0;
}

static int bytes_untouched(const void *p, size_t len)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < len; i++)
        if (b[i] != BUFV)
            return 0;
    return 1;
}

/* ---- systems ---- */
static int run_solve(const op *o, ctx *c);
static int setup_grid(const op *o, ctx *c)
{
    c->k = o->k;
    c->m = c->n = o->rows * o->cols;
    c->a = tu_grid_matrix(o->rows, o->cols, o->flags);
    c->b = calloc(c->n, sizeof *c->b);
    for (size_t i = 0; i < c->n; i++)
        c->b[i] = o->run == run_solve && o->variant ? (i == 0) : 1 % c->k; /* a lit corner: 4x4 k=2 unsolvable */
    int rc = toggle_graph_new_grid(&c->g, o->rows, o->cols, o->flags);
    if (!rc)
        rc = toggle_system_new(&c->s, c->g, c->k, NULL, c->b);
    if (!rc && o->engine >= 0)
        rc = toggle_system_set_option(c->s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)o->engine);
    return rc;
}

/* rows x cols dense random matrix (or all zero for variant 1) */
static int setup_matrix(const op *o, ctx *c)
{
    tu_rng r = tu_rng_for(0xfa11 + o->rows);
    c->k = o->k;
    c->m = o->rows;
    c->n = o->cols;
    c->a = calloc(c->m * c->n, sizeof *c->a);
    c->b = calloc(c->m, sizeof *c->b);
    if (o->variant != 1) {
        for (size_t i = 0; i < c->m * c->n; i++)
            c->a[i] = tu_below(&r, 3) ? 0 : tu_below(&r, c->k);
        for (size_t i = 0; i < c->m; i++)
            c->b[i] = tu_below(&r, c->k);
    }
    int rc = toggle_system_new_matrix(&c->s, c->m, c->n, c->a, c->b, c->k);
    if (!rc && o->engine >= 0)
        rc = toggle_system_set_option(c->s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)o->engine);
    return rc;
}

static int setup_solved(const op *o, ctx *c)
{
    int rc = setup_grid(o, c);
    if (!rc)
        rc = toggle_solve(&c->sol, c->s);
    if (!rc)
        rc = toggle_rng_new(&c->rng, 7);
    if (!rc)
        rc = toggle_render_opts_new(&c->ro);
    return rc;
}

/* 1 x 1100 zero matrix, k = 2^61 - 1: the count (2^61 - 1)^1100 has more
 * factors than the plain-C product takes (TOGGLE__DECIMAL_PLAIN_MAX): GMP */
static int setup_zero(const op *o, ctx *c)
{
    c->k = UINT64_C(2305843009213693951);
    c->m = 1;
    c->n = o->cols ? o->cols : 1100;
    c->a = calloc(c->m * c->n, sizeof *c->a);
    c->b = calloc(c->m, sizeof *c->b);
    int rc = toggle_system_new_matrix(&c->s, c->m, c->n, c->a, c->b, c->k);
    if (!rc)
        rc = toggle_solve(&c->sol, c->s);
    return rc;
}

/* pictures need only the options */
static int setup_render(const op *o, ctx *c)
{
    c->n = o->rows * o->cols;
    return toggle_render_opts_new(&c->ro);
}

/* ---- solve ---- */
static int run_solve(const op *o, ctx *c)
{
    (void)o;
    return toggle_solve(&c->out_sol, c->s);
}

static const char *verify_msg;

static uint64_t digest_solve(const op *o, ctx *c)
{
    (void)o;
    const char *msg = tu_verify(c->out_sol, c->a, c->b, c->m, c->n, c->k, SIZE_MAX);
    if (msg)
        verify_msg = msg;
    uint64_t h = mix(0, (uint64_t)toggle_solution_is_solvable(c->out_sol));
    size_t d = toggle_solution_nullity(c->out_sol);
    h = mix(h, d);
    uint64_t *x = calloc(c->n + c->m + 1, sizeof *x);
    if (toggle_solution_is_solvable(c->out_sol)) {
        toggle_solution_particular(c->out_sol, x, c->n);
        h = mix_bytes(h, x, c->n * sizeof *x);
    } else {
        toggle_solution_certificate(c->out_sol, x, c->m);
        h = mix_bytes(h, x, c->m * sizeof *x);
    }
    for (size_t i = 0; i < d && i < 64; i++) {
        toggle_solution_kernel_vector(c->out_sol, i, x, c->n);
        h = mix_bytes(h, x, c->n * sizeof *x);
    }
    free(x);
    toggle_solution_free(c->out_sol);
    c->out_sol = SENT;
    return h;
}

static int untouched_out_sol(const op *o, ctx *c)
{
    (void)o;
    return c->out_sol == SENT;
}

/* ---- count string ---- */
static int run_count(const op *o, ctx *c)
{
    (void)o;
    return toggle_solution_count_string(c->sol, c->str, sizeof c->str, &c->need);
}

static uint64_t digest_count(const op *o, ctx *c)
{
    (void)o;
    return mix_bytes(mix(0, c->need), c->str, strlen(c->str));
}

static int untouched_count(const op *o, ctx *c)
{
    (void)o;
    return bytes_untouched(c->str, sizeof c->str);
}

/* ---- render ---- */
static int run_render(const op *o, ctx *c)
{
    uint64_t cells[64];
    for (size_t i = 0; i < c->n; i++)
        cells[i] = (i * UINT64_C(0x9E3779B97F4A7C15)) % o->k;
    if (o->variant >= 2) {
        toggle_render_opts_set(c->ro, TOGGLE_RENDER_BORDER, 2);
        toggle_render_opts_set(c->ro, TOGGLE_RENDER_GRID_LINES, 1);
    }
    int fmt = o->variant & 1 ? TOGGLE_IMAGE_PNG : TOGGLE_IMAGE_PPM;
    return toggle_render(c->ro, fmt, cells, o->rows, o->cols, o->k, c->img, sizeof c->img,
                         &c->need);
}

static uint64_t digest_render(const op *o, ctx *c)
{
    (void)o;
    return mix_bytes(mix(0, c->need), c->img, c->need);
}

static int untouched_img(const op *o, ctx *c)
{
    (void)o;
    return bytes_untouched(c->img, sizeof c->img);
}

/* ---- iterate: create and list every solution ---- */
static int run_iter(const op *o, ctx *c)
{
    (void)o;
    toggle_iter *it = NULL;
    int rc = toggle_iter_new(&it, c->sol);
    if (rc)
        return rc;
    uint64_t h = 0, x[64];
    while ((rc = toggle_iter_next(it, x, 64)) == TOGGLE_OK)
        h = mix_bytes(h, x, c->n * sizeof *x);
    c->count = h;
    c->out = it;
    return rc == TOGGLE_ITEROVER ? TOGGLE_OK : rc;
}

static uint64_t digest_iter(const op *o, ctx *c)
{
    (void)o;
    toggle_iter_free(c->out);
    c->out = SENT;
    return c->count;
}

static int untouched_out(const op *o, ctx *c)
{
    (void)o;
    return c->out == SENT;
}

/* ---- sample ---- */
static int run_sample(const op *o, ctx *c)
{
    (void)o;
    return toggle_solution_sample(c->sol, c->rng, c->x, 64);
}

static uint64_t digest_sample(const op *o, ctx *c)
{
    (void)o;
    int ok = 0;
    if (toggle_system_check(c->s, c->x, c->n, &ok) || !ok)
        verify_msg = "the sample does not solve the system";
    return 1; /* the rng moved on: the sample differs from the unfailed run's */
}

static int untouched_x(const op *o, ctx *c)
{
    (void)o;
    return bytes_untouched(c->x, sizeof c->x);
}

/* ---- search: create, costs (variant 1), run, result ---- */
static int run_search(const op *o, ctx *c)
{
    toggle_search *se = NULL;
    int rc = toggle_search_new(&se, c->sol);
    if (rc)
        return rc;
    c->out = se;
    if (o->variant) {
        uint64_t cost[64];
        for (size_t i = 0; i < c->n; i++)
            cost[i] = 1 + i % 3;
        if ((rc = toggle_search_set_costs(se, cost, c->n)))
            return rc;
    }
    if ((rc = toggle_search_run(se)))
        return rc;
    uint64_t w = 0;
    rc = toggle_search_result(se, c->x, 64, &w, NULL, NULL);
    c->count = w;
    return rc;
}

static uint64_t digest_search(const op *o, ctx *c)
{
    (void)o;
    toggle_search_free(c->out);
    c->out = SENT;
    return mix_bytes(mix(0, c->count), c->x, c->n * sizeof *c->x);
}

/* a failed search may have created its handle: free it, then check x */
static int untouched_search(const op *o, ctx *c)
{
    (void)o;
    if (c->out != SENT)
        toggle_search_free(c->out);
    c->out = SENT;
    return bytes_untouched(c->x, sizeof c->x);
}

/* ---- generate: create, constrain (variant 1: lit; 2: presses), next ---- */
static int run_gen(const op *o, ctx *c)
{
    toggle_generator *gen = NULL;
    int rc = toggle_generator_new(&gen, c->s);
    if (rc)
        return rc;
    c->out = gen;
    toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_SEED, 3);
    if (o->variant == 1)
        toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_LIT, 3);
    if (o->variant == 2)
        toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_PRESSES, 2);
    uint64_t w = 0;
    rc = toggle_generator_next(gen, c->x, 64, &w);
    c->count = w;
    return rc;
}

static uint64_t digest_gen(const op *o, ctx *c)
{
    (void)o;
    toggle_generator_free(c->out);
    c->out = SENT;
    return mix_bytes(mix(0, c->count), c->x, c->n * sizeof *c->x);
}

static int untouched_gen(const op *o, ctx *c)
{
    (void)o;
    if (c->out != SENT)
        toggle_generator_free(c->out);
    c->out = SENT;
    return bytes_untouched(c->x, sizeof c->x);
}

/* ---- orbits ---- */
static int run_orbits(const op *o, ctx *c)
{
    return toggle_solution_count_orbits(c->sol, o->rows, o->cols, TOGGLE_SYM_ALL, &c->count);
}

static uint64_t digest_orbits(const op *o, ctx *c)
{
    (void)o;
    return c->count;
}

static int untouched_orbits(const op *o, ctx *c)
{
    (void)o;
    return c->count == 0xa5a5a5a5a5a5a5a5u;
}

#define SOLVE(name, eng, k, r, cl, fl, v) \
    {name, setup_grid, run_solve, digest_solve, untouched_out_sol, eng, k, r, cl, fl, v}
#define SOLVEM(name, eng, k, r, cl, v) \
    {name, setup_matrix, run_solve, digest_solve, untouched_out_sol, eng, k, r, cl, 0, v}
#define OPS(name, run, dig, unt, k, r, cl, v) \
    {name, setup_solved, run, dig, unt, -1, k, r, cl, 0, v}

static const op ops[] = {
    SOLVE("solve flint 5x5 k=3", TOGGLE_ENGINE_FLINT, 3, 5, 5, 0, 0),
    SOLVE("solve flint 4x4 k=2 unsolvable", TOGGLE_ENGINE_FLINT, 2, 4, 4, 0, 1),
    SOLVEM("solve flint 6x8 k=2^61-1", TOGGLE_ENGINE_FLINT, UINT64_C(2305843009213693951), 6, 8,
           0),
    SOLVE("solve gf2 5x5", TOGGLE_ENGINE_GF2, 2, 5, 5, 0, 0),
    SOLVE("solve gf2 4x4 unsolvable", TOGGLE_ENGINE_GF2, 2, 4, 4, 0, 1),
    SOLVEM("solve gf2 40x50 matrix", TOGGLE_ENGINE_GF2, 2, 40, 50, 0),
    SOLVE("solve chase 9x9 k=2", TOGGLE_ENGINE_CHASE, 2, 9, 9, 0, 0),
    SOLVE("solve chase 4x4 unsolvable", TOGGLE_ENGINE_CHASE, 2, 4, 4, 0, 1),
    SOLVE("solve chase 6x7 k=5", TOGGLE_ENGINE_CHASE, 5, 6, 7, 0, 0),
    SOLVE("solve transfer 6x5 k=3", TOGGLE_ENGINE_TRANSFER, 3, 6, 5, 0, 0),
    SOLVE("solve transfer 5x5 torus k=2", TOGGLE_ENGINE_TRANSFER, 2, 5, 5, TOGGLE_GRID_TORUS, 0),
    SOLVE("solve transfer 4x4 unsolvable", TOGGLE_ENGINE_TRANSFER, 2, 4, 4, 0, 1),
    SOLVE("solve howell 4x4 k=12", TOGGLE_ENGINE_HOWELL, 12, 4, 4, 0, 0),
    SOLVEM("solve howell 5x6 k=8 matrix", TOGGLE_ENGINE_HOWELL, 8, 5, 6, 0),
    SOLVE("solve dense 5x5 k=3", TOGGLE_ENGINE_DENSE, 3, 5, 5, 0, 0),
    SOLVE("solve dense 4x4 unsolvable", TOGGLE_ENGINE_DENSE, 2, 4, 4, 0, 1),
    SOLVE("solve blas 5x5 k=3", TOGGLE_ENGINE_BLAS, 3, 5, 5, 0, 0),
    SOLVE("solve auto 5x5 torus", TOGGLE_ENGINE_AUTO, 2, 5, 5, TOGGLE_GRID_TORUS, 0),
    OPS("count_string 4x4 k=2", run_count, digest_count, untouched_count, 2, 4, 4, 0),
    {"count_string 1x40 zero k=2^61-1", setup_zero, run_count, digest_count,
     untouched_count, -1, 0, 0, 40, 0, 0},
    {"count_string 1x1100 zero k=2^61-1 (GMP)", setup_zero, run_count, digest_count,
     untouched_count, -1, 0, 0, 0, 0, 0},
    {"render ppm 4x4 k=3", setup_render, run_render, digest_render, untouched_img, -1, 3, 4, 4,
     0, 0},
    {"render png 4x4 k=3", setup_render, run_render, digest_render, untouched_img, -1, 3, 4, 4,
     0, 1},
    {"render png 4x4 k=2^64-1 border lines", setup_render, run_render, digest_render,
     untouched_img, -1, UINT64_MAX, 4, 4, 0, 3},
    OPS("iterate 4x4 k=2", run_iter, digest_iter, untouched_out, 2, 4, 4, 0),
    OPS("iterate 4x5 k=3", run_iter, digest_iter, untouched_out, 3, 4, 5, 0),
    OPS("sample 4x4 k=2", run_sample, digest_sample, untouched_x, 2, 4, 4, 0),
    OPS("sample 4x4 k=6", run_sample, digest_sample, untouched_x, 6, 4, 4, 0),
    OPS("search 4x4 k=2", run_search, digest_search, untouched_search, 2, 4, 4, 0),
    OPS("search 4x4 k=2 costs", run_search, digest_search, untouched_search, 2, 4, 4, 1),
    OPS("search 4x5 k=3", run_search, digest_search, untouched_search, 3, 4, 5, 0),
    OPS("generate 4x4 k=2", run_gen, digest_gen, untouched_gen, 2, 4, 4, 0),
    OPS("generate 4x4 k=2 lit", run_gen, digest_gen, untouched_gen, 2, 4, 4, 1),
    OPS("generate 5x5 k=2 presses", run_gen, digest_gen, untouched_gen, 2, 5, 5, 2),
    OPS("generate 4x4 k=4", run_gen, digest_gen, untouched_gen, 4, 4, 4, 0),
    OPS("orbits 4x4 k=2", run_orbits, digest_orbits, untouched_orbits, 2, 4, 4, 0),
    OPS("orbits 5x5 k=3", run_orbits, digest_orbits, untouched_orbits, 3, 5, 5, 0),
};
#define NOPS (sizeof ops / sizeof *ops)

/* What a child reports through shared memory. */
typedef struct {
    int rc;
    uint64_t calls, hits, live, digest;
    char msg[256];
} report;

enum { R_DONE = 0, R_ENOMEM = 1, R_SURVIVED = 2, R_SKIP = 3, R_BAD = 10, R_RECURSION = 20 };

/* Without the guard, under a sticky failure, FLINT 2.9's abort path
 * recurses: flint_memory_error() prints with flint_printf(), whose
 * flint_malloc() fails again, and so on until the stack overflows
 * (SIGSEGV instead of SIGABRT). Recognised here by the fault on an
 * alternate stack after more than 1000 injected failures (the handler not
 * instrumented: AddressSanitizer's no-return hook would allocate). */
static char altstack[1 << 16];

FM_NOSAN static void on_segv(int sig)
{
    if (failmalloc_hits() > 1000)
        _exit(R_RECURSION);
    signal(sig, SIG_DFL);
    raise(sig);
}

static report *rep;

static void teardown(ctx *c)
{
    toggle_render_opts_free(c->ro);
    toggle_rng_free(c->rng);
    toggle_solution_free(c->sol);
    toggle_system_free(c->s);
    toggle_graph_free(c->g);
    free(c->a);
    free(c->b);
}

/* Child: set up, an unfailed run for the reference, then the run with the
 * nth allocation failing. nth = 0: only the unfailed run (count calls). */
static int child(const op *o, uint64_t nth, int sticky, int guard)
{
    if (guard) {
        toggle_flint_guard_install();
    } else {
        stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_segv;
        sa.sa_flags = SA_ONSTACK;
        sigaltstack(&ss, NULL);
        sigaction(SIGSEGV, &sa, NULL);
    }
    ctx c;
    memset(&c, 0, sizeof c);
    reset_outputs(&c);
    int rc = o->setup(o, &c);
    if (rc) {
        snprintf(rep->msg, sizeof rep->msg, "setup: %s", toggle_last_error());
        return R_SKIP;
    }
    reset_outputs(&c);
    failmalloc_arm(UINT64_MAX, 0); /* count only */
    rc = o->run(o, &c);
    uint64_t calls = failmalloc_calls();
    failmalloc_arm(0, 0);
    if (rc == TOGGLE_EUNSUPPORTED) {
        snprintf(rep->msg, sizeof rep->msg, "%s", toggle_last_error());
        return R_SKIP;
    }
    if (rc) {
        snprintf(rep->msg, sizeof rep->msg, "unfailed run: %s: %s", toggle_status_name(rc),
                 toggle_last_error());
        return R_BAD;
    }
    verify_msg = NULL;
    uint64_t ref = o->digest(o, &c);
    if (verify_msg) {
        snprintf(rep->msg, sizeof rep->msg, "unfailed run: %s", verify_msg);
        return R_BAD;
    }
    rep->calls = calls;
    if (!nth) {
        teardown(&c);
        return R_DONE;
    }
    reset_outputs(&c);
    toggle_clear_error();
    failmalloc_track(1);
    failmalloc_arm(nth, sticky);
    rc = o->run(o, &c);
    uint64_t hits = failmalloc_hits();
    failmalloc_arm(0, 0);
    rep->rc = rc;
    rep->hits = hits;
    int res;
    if (rc == TOGGLE_OK) {
        verify_msg = NULL;
        uint64_t h = o->digest(o, &c);
        if (verify_msg || h != ref) {
            snprintf(rep->msg, sizeof rep->msg, "a completed run gave another answer: %s",
                     verify_msg ? verify_msg : "digest differs");
            return R_BAD;
        }
        res = hits ? R_SURVIVED : R_DONE;
    } else {
        const char *e = toggle_last_error();
        if (rc != TOGGLE_ENOMEM || !strstr(e, "memory")) {
            snprintf(rep->msg, sizeof rep->msg, "status %s, message \"%s\"",
                     toggle_status_name(rc), e);
            return R_BAD;
        }
        if (!hits) {
            snprintf(rep->msg, sizeof rep->msg, "ENOMEM without a failed allocation");
            return R_BAD;
        }
        if (!o->untouched(o, &c)) {
            snprintf(rep->msg, sizeof rep->msg, "outputs changed by a failed call (%s)", e);
            return R_BAD;
        }
        res = R_ENOMEM;
    }
    /* after the setup's handles too: blocks they cached during the run are
     * theirs, not leaks */
    teardown(&c);
    rep->live = failmalloc_live();
    failmalloc_track(0);
    if (rep->live) {
        snprintf(rep->msg, sizeof rep->msg, "%llu blocks leaked (status %s)",
                 (unsigned long long)rep->live, toggle_status_name(rc));
        return R_BAD;
    }
    return res;
}

typedef struct {
    uint64_t runs, enomem, survived, aborts, recursions, bad;
} tally;

static char errpath[64];

/* Run one child; returns its R_* code, or R_BAD + 1 for an accepted abort. */
static int spawn(const op *o, uint64_t nth, int sticky, int guard)
{
    memset(rep, 0, sizeof *rep);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* FLINT prints its abort message on stdout, GMP on stderr */
        FILE *f = freopen(errpath, "w", stderr);
        if (f) {
            setvbuf(stderr, NULL, _IONBF, 0);
            dup2(fileno(f), 1);
            setvbuf(stdout, NULL, _IONBF, 0);
        }
        _exit(child(o, nth, sticky, guard));
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == R_RECURSION && !guard && sticky)
        return R_BAD + 2;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    char err[4096] = "";
    FILE *f = fopen(errpath, "r");
    if (f) {
        size_t got = fread(err, 1, sizeof err - 1, f);
        err[got] = 0;
        fclose(f);
    }
    if (!guard && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT &&
        (strstr(err, "Exception (FLINT memory_manager). Unable to allocate memory") ||
         strstr(err, "GNU MP: Cannot allocate memory")))
        return R_BAD + 1;
    snprintf(rep->msg, sizeof rep->msg, "%s %d: %.200s",
             WIFSIGNALED(st) ? "signal" : "status", WIFSIGNALED(st) ? WTERMSIG(st) : st, err);
    return R_BAD;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    uint64_t maxidx = getenv("FAILMALLOC_MAX") ? strtoull(getenv("FAILMALLOC_MAX"), NULL, 10)
                                               : 300;
    uint64_t seed = tu_seed();
    const char *only = argc > 1 ? argv[1] : NULL;
    rep = mmap(NULL, sizeof *rep, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (rep == MAP_FAILED)
        return 2;
    snprintf(errpath, sizeof errpath, "/tmp/failmalloc-%d.err", (int)getpid());
    if (argc > 4) { /* NAME N STICKY GUARD: one run in this process (debugging) */
        for (size_t i = 0; i < NOPS; i++)
            if (strstr(ops[i].name, argv[1])) {
                int r = child(&ops[i], strtoull(argv[2], NULL, 10), atoi(argv[3]), atoi(argv[4]));
                printf("%s: result %d, status %s, %s\n", ops[i].name, r,
                       toggle_status_name(rep->rc), rep->msg);
                return 0;
            }
        return 2;
    }
    printf("failing-malloc sweep, seed %llu (sample above %llu allocations)\n",
           (unsigned long long)seed, (unsigned long long)maxidx);
    int failed = 0;
    uint64_t total_sites = 0, total_runs = 0;
    for (size_t i = 0; i < NOPS; i++) {
        const op *o = &ops[i];
        if (only && !strstr(o->name, only))
            continue;
        int r = spawn(o, 0, 0, 1);
        if (r == R_SKIP) {
            printf("%-40s skipped: %s\n", o->name, rep->msg);
            continue;
        }
        if (r != R_DONE) {
            printf("%-40s FAIL unfailed run: %s\n", o->name, rep->msg);
            failed = 1;
            continue;
        }
        uint64_t calls = rep->calls;
        total_sites += calls;
        /* indices: all, or first/last 20 and a sample */
        /* (sampling needs calls > 40 and room for maxidx + 40 indices) */
        uint64_t *idx = malloc((calls + maxidx + 41) * sizeof *idx);
        size_t ni = 0;
        if (!idx)
            return 2;
        if (calls <= maxidx + 40) {
            for (uint64_t n = 1; n <= calls; n++)
                idx[ni++] = n;
        } else {
            tu_rng rng = tu_rng_for(seed ^ (i * 7919));
            for (uint64_t n = 1; n <= 20; n++)
                idx[ni++] = n, idx[ni++] = calls + 1 - n;
            while (ni < maxidx + 40)
                idx[ni++] = 21 + tu_below(&rng, calls - 40);
            qsort(idx, ni, sizeof *idx, cmp_u64);
        }
        idx[ni++] = calls + 1; /* beyond the last: completes */
        for (int guard = 1; guard >= 0; guard--)
            for (int sticky = 0; sticky <= 1; sticky++) {
                tally t = {0, 0, 0, 0, 0, 0};
                char first_bad[300] = "";
                uint64_t prev = 0;
                for (size_t j = 0; j < ni; j++) {
                    if (idx[j] == prev)
                        continue;
                    prev = idx[j];
                    r = spawn(o, idx[j], sticky, guard);
                    t.runs++;
                    if (r == R_ENOMEM)
                        t.enomem++;
                    else if (r == R_SURVIVED)
                        t.survived++;
                    else if (r == R_BAD + 1)
                        t.aborts++;
                    else if (r == R_BAD + 2)
                        t.recursions++;
                    else if (r == R_DONE) {
                        /* fewer allocations than the unfailed run (an rng
                         * that moved on): a correct completion */
                        t.survived += idx[j] <= calls;
                    } else {
                        t.bad++;
                        if (!first_bad[0])
                            snprintf(first_bad, sizeof first_bad, "n=%llu: %s",
                                     (unsigned long long)idx[j], rep->msg);
                    }
                }
                total_runs += t.runs;
                printf("%-40s %s %-6s %4llu allocations, %4llu runs: %4llu ENOMEM, %3llu "
                       "completed, %3llu FLINT/GMP aborts, %3llu FLINT abort recursions%s%s\n",
                       o->name, guard ? "guard   " : "no guard", sticky ? "sticky" : "once",
                       (unsigned long long)calls, (unsigned long long)t.runs,
                       (unsigned long long)t.enomem, (unsigned long long)t.survived,
                       (unsigned long long)t.aborts, (unsigned long long)t.recursions,
                       t.bad ? "  FAIL " : "", first_bad);
                if (t.bad)
                    failed = 1;
            }
        free(idx);
    }
    unlink(errpath);
    printf("%llu allocation sites, %llu runs: %s\n", (unsigned long long)total_sites,
           (unsigned long long)total_runs, failed ? "FAILED" : "ok");
    return failed;
}
