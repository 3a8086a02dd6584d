/* The puzzle generator: start states s = -A x for random presses x, so that
 * "s to all 0" is solvable, with optional constraints checked per attempt. */
#include <string.h>

#include "space_internal.h"

#define NONE UINT64_MAX

struct toggle_generator {
    size_t m, n;
    uint64_t k;
    int engine;
    uint64_t budget;
    bool symmetric; /* A = A^T: the left kernel is the kernel */
    size_t *colptr, *rowidx; /* A by columns */
    uint64_t *val;
    toggle__space sp; /* kernel of A; x0 is set per attempt */
    toggle_rng rng;
    uint64_t seed, unique, presses, lit, attempts, limit;
    int metric;
    uint64_t *x, *s;
    /* left kernel of A (generators of {y : y A = 0}), built on demand */
    bool have_left;
    size_t nleft;
    uint64_t *left; /* nleft rows of m */
};

/* A by columns (CSC): one walk counts each column, a second fills it; both
 * orders of the walk give ascending rows within a column. */
typedef struct {
    toggle_generator *g;
    size_t *fill; /* next free slot of each column, or NULL when counting */
} columns_ctx;

static void column_entry(void *ctx, size_t i, size_t j, uint64_t v)
{
    columns_ctx *c = ctx;
    if (!c->fill) {
        c->g->colptr[j + 1]++;
        return;
    }
    size_t at = c->fill[j]++;
    c->g->rowidx[at] = i;
    c->g->val[at] = v;
}

static int read_columns(toggle_generator *g, const toggle_system *s)
{
    size_t n = s->n;
    g->colptr = toggle__calloc(n + 1, sizeof *g->colptr);
    if (!g->colptr)
        return toggle__error(TOGGLE_ENOMEM, "out of memory reading the board");
    columns_ctx c = {g, NULL};
    int rc = toggle__system_each_entry(s, column_entry, &c);
    if (rc)
        return rc;
    for (size_t j = 0; j < n; j++)
        g->colptr[j + 1] += g->colptr[j];
    size_t nnz = g->colptr[n];
    g->rowidx = toggle__malloc_array(nnz + 1, sizeof *g->rowidx);
    g->val = toggle__malloc_array(nnz + 1, sizeof *g->val);
    c.fill = toggle__malloc_array(n + 1, sizeof *c.fill);
    if (!g->rowidx || !g->val || !c.fill) {
        toggle__free(c.fill);
        return toggle__error(TOGGLE_ENOMEM, "out of memory reading the board");
    }
    memcpy(c.fill, g->colptr, n * sizeof *c.fill);
    rc = toggle__system_each_entry(s, column_entry, &c);
    toggle__free(c.fill);
    return rc;
}

int toggle_generator_new(toggle_generator **out, const toggle_system *system)
{
    toggle_generator *g;
    TOGGLE__NEW_HANDLE_FROM(out, system, "system", g, "a generator");
    g->m = system->m;
    g->n = system->n;
    g->k = system->k;
    g->engine = system->engine;
    g->budget = system->budget;
    g->symmetric = toggle__system_is_symmetric(system);
    g->unique = 0;
    g->presses = NONE;
    g->lit = NONE;
    g->attempts = 100000;
    g->limit = system->search_limit ? system->search_limit : (uint64_t)1 << 32;
    g->metric = TOGGLE_METRIC_CELLS;
    toggle__rng_seed(&g->rng, 0);
    toggle_solution *sol = NULL;
    int rc = read_columns(g, system);
    if (!rc)
        rc = toggle_solve(&sol, system);
    if (!rc)
        rc = toggle__space_init_kernel(&g->sp, sol);
    toggle_solution_free(sol);
    if (!rc) {
        g->x = toggle__calloc(g->n + 1, sizeof *g->x);
        g->s = toggle__calloc(g->m + 1, sizeof *g->s);
        if (!g->x || !g->s)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory allocating a generator");
    }
    TOGGLE__HAND_OUT(out, g, rc, toggle_generator_free);
}

void toggle_generator_free(toggle_generator *g)
{
    if (!g)
        return;
    toggle__space_clear(&g->sp);
    TOGGLE__FREE_ALL(g->colptr, g->rowidx, g->val, g->x, g->s, g->left, g);
}

TOGGLE__GETTER(size_t, toggle_generator_nullity, toggle_generator, sp.d)

int toggle_generator_set_option(toggle_generator *g, int key, uint64_t value)
{
    if (!g)
        return toggle__error(TOGGLE_EINVAL, "generator is NULL");
    switch (key) {
    case TOGGLE_GENERATOR_OPT_SEED:
        g->seed = value;
        toggle__rng_seed(&g->rng, value);
        return TOGGLE_OK;
    case TOGGLE_GENERATOR_OPT_UNIQUE:
        if (value > 1)
            return toggle__error(TOGGLE_EINVAL, "TOGGLE_GENERATOR_OPT_UNIQUE takes 0 or 1");
        g->unique = value;
        return TOGGLE_OK;
    case TOGGLE_GENERATOR_OPT_PRESSES:
        g->presses = value;
        return TOGGLE_OK;
    case TOGGLE_GENERATOR_OPT_LIT:
        g->lit = value;
        return TOGGLE_OK;
    case TOGGLE_GENERATOR_OPT_METRIC:
        if (value != TOGGLE_METRIC_CELLS && value != TOGGLE_METRIC_PRESSES)
            return toggle__error(TOGGLE_EINVAL, "unknown metric %llu", (unsigned long long)value);
        g->metric = (int)value;
        return TOGGLE_OK;
    case TOGGLE_GENERATOR_OPT_ATTEMPTS:
        if (!value)
            return toggle__error(TOGGLE_EINVAL, "attempts must be at least 1");
        g->attempts = value;
        return TOGGLE_OK;
    case TOGGLE_GENERATOR_OPT_SEARCH_LIMIT:
        g->limit = value ? value : UINT64_MAX; /* 0: unlimited */
        return TOGGLE_OK;
    case TOGGLE_SYSTEM_OPT_ENGINE:
    case TOGGLE_SYSTEM_OPT_MEMORY_BUDGET:
        /* the generator took these from its system when it was made */
        return toggle__error(TOGGLE_EINVAL, "TOGGLE_SYSTEM_OPT_%s (%d) is an option of a "
                             "system, not of a generator",
                             key == TOGGLE_SYSTEM_OPT_ENGINE ? "ENGINE" : "MEMORY_BUDGET", key);
    default:
        return toggle__error(TOGGLE_EINVAL, "option key %d does not apply to a generator", key);
    }
}

/* s = -A x. */
static void press(toggle_generator *g)
{
    uint64_t k = g->k;
    memset(g->s, 0, g->m * sizeof *g->s);
    for (size_t j = 0; j < g->n; j++) {
        if (!g->x[j])
            continue;
        for (size_t p = g->colptr[j]; p < g->colptr[j + 1]; p++) {
            size_t i = g->rowidx[p];
            g->s[i] = toggle__submod(g->s[i], toggle__mulmod(g->val[p], g->x[j], k), k);
        }
    }
}

/* N distinct random entries of v[0..len) (zeroed first) set to random
 * nonzero values (rejection on the few collisions is fine for N << len; a
 * partial shuffle of indices would need len words). */
static void place_nonzeros(toggle_generator *g, uint64_t *v, size_t len, uint64_t N)
{
    uint64_t k = g->k;
    memset(v, 0, len * sizeof *v);
    for (uint64_t placed = 0; placed < N;) {
        size_t j = (size_t)toggle__rng_below(&g->rng, len);
        if (v[j])
            continue;
        v[j] = 1 + toggle__rng_below(&g->rng, k - 1);
        placed++;
    }
}

/* Random presses of weight exactly N under the metric (N is feasible). */
static void draw_weighted(toggle_generator *g, uint64_t N)
{
    size_t n = g->n;
    uint64_t k = g->k;
    if (g->metric == TOGGLE_METRIC_CELLS) {
        place_nonzeros(g, g->x, n, N); /* N distinct cells */
        return;
    }
    memset(g->x, 0, n * sizeof *g->x);
    for (uint64_t placed = 0; placed < N;) {
        size_t j = (size_t)toggle__rng_below(&g->rng, n);
        if (g->x[j] + 1 >= k)
            continue;
        g->x[j]++;
        placed++;
    }
}

static uint64_t lit_count(const toggle_generator *g)
{
    uint64_t c = 0;
    for (size_t i = 0; i < g->m; i++)
        c += g->s[i] != 0;
    return c;
}

/* For a symmetric A the left kernel is the kernel already solved (no
 * second solve, and no derived system a forced engine may not take: the
 * grid engine takes only grids). */
static int left_from_kernel(toggle_generator *g)
{
    size_t d = g->sp.d, m = g->m, dm;
    if (!toggle__mul_ok(d, m, &dm))
        return toggle__error(TOGGLE_EOVERFLOW, "left kernel too large");
    if (!(g->left = toggle__calloc(dm + 1, sizeof *g->left)))
        return toggle__error(TOGGLE_ENOMEM, "out of memory");
    for (size_t i = 0; i < d; i++)
        for (size_t j = 0; j < m; j++)
            g->left[i * m + j] = toggle__vecs_get(&g->sp.gen, i, j);
    g->nleft = d;
    g->have_left = true;
    return TOGGLE_OK;
}

/* Generators of the left kernel: the kernel of A, or of A^T solved as a
 * matrix system with the same engine choice. */
static int build_left(toggle_generator *g)
{
    if (g->symmetric)
        return left_from_kernel(g);
    size_t m = g->m, n = g->n, mn;
    if (!toggle__mul_ok(m, n, &mn) || mn > SIZE_MAX / sizeof(uint64_t) - 1)
        return toggle__error(TOGGLE_EOVERFLOW, "board too large");
    /* A^T as dense rows, then its system's copy (the solve checks its own) */
    int rc0 = toggle__budget_check_bytes(g->budget, 2 * ((uint64_t)mn + 1) * sizeof(uint64_t),
                                         "the left kernel's transposed board");
    if (rc0)
        return rc0;
    uint64_t *at = toggle__calloc(mn + 1, sizeof *at);
    uint64_t *zero = toggle__calloc(n + 1, sizeof *zero);
    toggle_system *t = NULL;
    toggle_solution *sol = NULL;
    int rc = (!at || !zero) ? toggle__error(TOGGLE_ENOMEM, "out of memory") : TOGGLE_OK;
    for (size_t j = 0; !rc && j < n; j++)
        for (size_t p = g->colptr[j]; p < g->colptr[j + 1]; p++)
            at[j * m + g->rowidx[p]] = g->val[p];
    if (!rc)
        rc = toggle_system_new_matrix(&t, n, m, at, zero, g->k);
    if (!rc)
        rc = toggle_system_set_option(t, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)g->engine);
    if (!rc)
        rc = toggle_system_set_option(t, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, g->budget);
    if (!rc)
        rc = toggle_solve(&sol, t);
    if (!rc) {
        size_t c = sol->kernel.count, cm;
        if (!toggle__mul_ok(c, m, &cm))
            rc = toggle__error(TOGGLE_EOVERFLOW, "left kernel too large");
        else if (!(g->left = toggle__calloc(cm + 1, sizeof *g->left)))
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory");
        for (size_t i = 0; !rc && i < c; i++)
            for (size_t j = 0; j < m; j++)
                g->left[i * m + j] = toggle__vecs_get(&sol->kernel, i, j);
        if (!rc) {
            g->nleft = c;
            g->have_left = true;
        }
    }
    toggle_solution_free(sol);
    toggle_system_free(t);
    toggle__free(at);
    toggle__free(zero);
    return rc;
}

/* Random start with exactly L lit cells; true if it is reachable (y . s = 0
 * for every left-kernel generator y). */
static bool draw_lit(toggle_generator *g, uint64_t L)
{
    size_t m = g->m;
    uint64_t k = g->k;
    place_nonzeros(g, g->s, m, L);
    for (size_t r = 0; r < g->nleft; r++) {
        uint64_t acc = 0;
        const uint64_t *y = g->left + r * m;
        for (size_t i = 0; i < m; i++)
            if (g->s[i] && y[i])
                acc = toggle__addmod(acc, toggle__mulmod(y[i], g->s[i], k), k);
        if (acc)
            return false;
    }
    return true;
}

int toggle_generator_next(toggle_generator *g, uint64_t *start, size_t len, uint64_t *presses)
{
    if (!g || !start)
        return toggle__error(TOGGLE_EINVAL, "generator and start must not be NULL");
    if (len < g->m)
        return toggle__short_array("start", len, "the board has", g->m);
    size_t n = g->n, d = g->sp.d;
    uint64_t k = g->k;
    if (g->unique && d > 0)
        return toggle__error(TOGGLE_ENOSOLUTION, "the board has nullity %zu: no start state has "
                             "a unique solution", d);
    if (g->presses != NONE) {
        unsigned __int128 cap = g->metric == TOGGLE_METRIC_CELLS
                                    ? (unsigned __int128)n : (unsigned __int128)n * (k - 1);
        if ((unsigned __int128)g->presses > cap)
            return toggle__error(TOGGLE_ENOSOLUTION, "no press vector of %zu cells weighs %llu",
                                 n, (unsigned long long)g->presses);
    }
    if (g->lit != NONE && g->lit > g->m)
        return toggle__error(TOGGLE_ENOSOLUTION, "the board has %zu cells, %llu lit asked", g->m,
                             (unsigned long long)g->lit);
    int rc;
    if (g->lit != NONE && g->presses == NONE && !g->have_left && (rc = build_left(g)))
        return rc;
    toggle__fewest res = {.x = NULL};
    for (uint64_t attempt = 0; attempt < g->attempts; attempt++) {
        uint64_t weight = NONE;
        if (g->presses != NONE) {
            draw_weighted(g, g->presses);
        } else if (g->lit != NONE && (attempt & 1)) {
            /* a uniform L-lit start, kept when reachable */
            if (!draw_lit(g, g->lit))
                continue;
            memcpy(start, g->s, g->m * sizeof *start);
            if (presses)
                *presses = NONE;
            return TOGGLE_OK;
        } else {
            for (size_t j = 0; j < n; j++)
                g->x[j] = toggle__rng_below(&g->rng, k);
        }
        press(g);
        if (g->lit != NONE && lit_count(g) != g->lit)
            continue;
        if (g->presses != NONE && d > 0) {
            for (size_t j = 0; j < n; j++)
                toggle__vecs_set(&g->sp.x0, 0, j, g->x[j]);
            res.x = g->x; /* overwritten with the best; x is no longer needed */
            if ((rc = toggle__fewest_run(&g->sp, g->metric, g->limit, &res)))
                return rc;
            if (!res.proven || res.weight != g->presses)
                continue;
            weight = res.weight;
        } else if (g->presses != NONE || d == 0) {
            unsigned __int128 w = 0;
            for (size_t j = 0; j < n; j++)
                w += g->metric == TOGGLE_METRIC_CELLS ? (g->x[j] != 0) : g->x[j];
            weight = w > NONE ? NONE : (uint64_t)w;
        }
        memcpy(start, g->s, g->m * sizeof *start);
        if (presses)
            *presses = weight;
        return TOGGLE_OK;
    }
    return toggle__error(TOGGLE_ELIMIT, "no start met the constraints in %llu attempts",
                         (unsigned long long)g->attempts);
}
