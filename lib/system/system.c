/* Augmented systems: construction, accessors, options and the independent checks. */
#include <string.h>

#include "internal.h"

static int check_modulus(uint64_t k)
{
    if (k < 2)
        return toggle__error(TOGGLE_EINVAL, "modulus %llu is less than 2", (unsigned long long)k);
    if (k > TOGGLE_MAX_MODULUS)
        return toggle__error(TOGGLE_ERANGE, "modulus %llu exceeds 2^63 - 1",
                             (unsigned long long)k);
    return TOGGLE_OK;
}

static int check_values(const uint64_t *v, size_t len, uint64_t k, const char *what)
{
    for (size_t i = 0; v && i < len; i++)
        if (v[i] >= k)
            return toggle__error(TOGGLE_ERANGE, "%s[%zu] = %llu is not below the modulus %llu",
                                 what, i, (unsigned long long)v[i], (unsigned long long)k);
    return TOGGLE_OK;
}

static toggle_system *system_alloc(size_t m, size_t n, uint64_t k)
{
    toggle_system *s = toggle__calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->m = m;
    s->n = n;
    s->k = k;
    s->engine = TOGGLE_ENGINE_AUTO;
    s->budget = TOGGLE_DEFAULT_MEMORY_BUDGET;
    s->search_limit = (uint64_t)1 << 32;
    if (toggle__vecs_init(&s->b, m, 1, k) != TOGGLE_OK) {
        toggle__free(s);
        return NULL;
    }
    return s;
}

void toggle_system_free(toggle_system *s)
{
    if (!s)
        return;
    toggle_graph_free(s->graph);
    toggle__vecs_clear(&s->a);
    toggle__vecs_clear(&s->b);
    toggle__free(s);
}

int toggle_system_new(toggle_system **out, const toggle_graph *graph, uint64_t k,
                      const uint64_t *start, const uint64_t *target)
{
    if (!out || !graph)
        return toggle__error(TOGGLE_EINVAL, "out and graph must not be NULL");
    int rc = check_modulus(k);
    if (rc)
        return rc;
    size_t n = graph->n;
    if ((rc = check_values(start, n, k, "start")) || (rc = check_values(target, n, k, "target")))
        return rc;
    if (n > SIZE_MAX / sizeof(uint64_t))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu cells overflow size_t", n);
    toggle_system *s = system_alloc(n, n, k);
    if (!s)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a system of %zu cells", n);
    for (size_t i = 0; i < n; i++) {
        uint64_t t = target ? target[i] : 1 % k;
        uint64_t st = start ? start[i] : 0;
        toggle__vecs_set(&s->b, 0, i, toggle__submod(t, st, k));
    }
    s->graph = toggle__graph_ref(graph);
    *out = s;
    return TOGGLE_OK;
}

int toggle_system_new_matrix(toggle_system **out, size_t m, size_t n, const uint64_t *a,
                             const uint64_t *b, uint64_t k)
{
    size_t mn;
    if (!out)
        return toggle__error(TOGGLE_EINVAL, "out is NULL");
    int rc = check_modulus(k);
    if (rc)
        return rc;
    if (!toggle__mul_ok(m, n, &mn) || mn > SIZE_MAX / sizeof(uint64_t))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu matrix overflows size_t", m, n);
    if ((!a && mn) || (!b && m))
        return toggle__error(TOGGLE_EINVAL, "a and b must not be NULL for a %zu x %zu system",
                             m, n);
    if ((rc = check_values(a, mn, k, "a")) || (rc = check_values(b, m, k, "b")))
        return rc;
    toggle_system *s = system_alloc(m, n, k);
    if (!s)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a %zu x %zu system", m, n);
    if ((rc = toggle__vecs_init(&s->a, n, m, k))) {
        toggle_system_free(s);
        return rc;
    }
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++)
            toggle__vecs_set(&s->a, i, j, a[i * n + j]);
        toggle__vecs_set(&s->b, 0, i, b[i]);
    }
    *out = s;
    return TOGGLE_OK;
}

size_t toggle_system_rows(const toggle_system *s) { return s ? s->m : 0; }
size_t toggle_system_cols(const toggle_system *s) { return s ? s->n : 0; }
uint64_t toggle_system_modulus(const toggle_system *s) { return s ? s->k : 0; }
const toggle_graph *toggle_system_graph(const toggle_system *s) { return s ? s->graph : NULL; }

uint64_t toggle__system_get(const toggle_system *s, size_t i, size_t j)
{
    if (!s->graph)
        return toggle__vecs_get(&s->a, i, j);
    uint64_t v = 0;
    if (toggle_graph_entry(s->graph, i, j, &v) != TOGGLE_OK)
        return 0;
    return v % s->k;
}

int toggle_system_entry(const toggle_system *s, size_t i, size_t j, uint64_t *value)
{
    if (!s || !value)
        return toggle__error(TOGGLE_EINVAL, "system and value must not be NULL");
    if (i >= s->m || j >= s->n)
        return toggle__error(TOGGLE_ERANGE, "entry (%zu, %zu) outside a %zu x %zu system",
                             i, j, s->m, s->n);
    if (s->graph) {
        int rc = toggle_graph_entry(s->graph, i, j, value);
        if (rc)
            return rc;
        *value %= s->k;
        return TOGGLE_OK;
    }
    *value = toggle__vecs_get(&s->a, i, j);
    return TOGGLE_OK;
}

int toggle_system_rhs(const toggle_system *s, size_t i, uint64_t *value)
{
    if (!s || !value)
        return toggle__error(TOGGLE_EINVAL, "system and value must not be NULL");
    if (i >= s->m)
        return toggle__error(TOGGLE_ERANGE, "row %zu outside a system of %zu rows", i, s->m);
    *value = toggle__rhs(s, i);
    return TOGGLE_OK;
}

int toggle_system_set_option(toggle_system *s, int key, uint64_t value)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "system is NULL");
    switch (key) {
    case TOGGLE_OPT_ENGINE:
        if (value > TOGGLE_ENGINE_HOWELL)
            return toggle__error(TOGGLE_EINVAL, "unknown engine %llu", (unsigned long long)value);
        s->engine = (int)value;
        return TOGGLE_OK;
    case TOGGLE_OPT_MEMORY_BUDGET:
        s->budget = value;
        return TOGGLE_OK;
    case TOGGLE_OPT_SEARCH_LIMIT:
        s->search_limit = value ? value : UINT64_MAX; /* 0: unlimited */
        return TOGGLE_OK;
    default:
        /* not a system key: get_option refuses it with the same message
         * (and writes nothing) */
        return toggle_system_get_option(s, key, &value);
    }
}

int toggle_system_get_option(const toggle_system *s, int key, uint64_t *value)
{
    /* the generator's keys 5..9, by name (space.h) */
    static const char *const gen_keys[] = {"SEED", "UNIQUE", "PRESSES", "LIT", "ATTEMPTS"};
    if (!s || !value)
        return toggle__error(TOGGLE_EINVAL, "system and value must not be NULL");
    switch (key) {
    case TOGGLE_OPT_ENGINE: *value = (uint64_t)s->engine; return TOGGLE_OK;
    case TOGGLE_OPT_MEMORY_BUDGET: *value = s->budget; return TOGGLE_OK;
    case TOGGLE_OPT_SEARCH_LIMIT: *value = s->search_limit; return TOGGLE_OK;
    case TOGGLE_SEARCH_OPT_METRIC:
        return toggle__error(TOGGLE_EINVAL, "TOGGLE_SEARCH_OPT_METRIC (%d) is an option of a "
                             "search (and of a generator), not of a system", key);
    default:
        if (key >= TOGGLE_GENERATOR_OPT_SEED && key <= TOGGLE_GENERATOR_OPT_ATTEMPTS)
            return toggle__error(TOGGLE_EINVAL, "TOGGLE_GENERATOR_OPT_%s (%d) is an option of "
                                 "a generator, not of a system",
                                 gen_keys[key - TOGGLE_GENERATOR_OPT_SEED], key);
        return toggle__error(TOGGLE_EINVAL, "unknown option key %d", key);
    }
}

int toggle__budget_check(const toggle_system *s, uint64_t bytes, const char *what)
{
    if (s->budget && bytes > s->budget)
        return toggle__error(TOGGLE_ENOMEM,
                             "%s needs about %llu bytes, over the memory budget of %llu",
                             what, (unsigned long long)bytes, (unsigned long long)s->budget);
    return TOGGLE_OK;
}

/* A x, computed straight from the definition of A (graph columns or stored
 * rows), for the checks below; no elimination code is involved. */
int toggle_system_check(const toggle_system *s, const uint64_t *x, size_t len, int *solves)
{
    if (!s || !x || !solves)
        return toggle__error(TOGGLE_EINVAL, "system, x and solves must not be NULL");
    if (len != s->n)
        return toggle__error(TOGGLE_EINVAL, "x has %zu entries, the system has %zu unknowns",
                             len, s->n);
    int rc = check_values(x, len, s->k, "x");
    if (rc)
        return rc;
    uint64_t k = s->k;
    uint64_t *ax = toggle__calloc(s->m ? s->m : 1, sizeof *ax);
    if (!ax)
        return toggle__error(TOGGLE_ENOMEM, "out of memory checking a solution");
    if (s->graph) {
        toggle__colbuf cb;
        if ((rc = toggle__colbuf_init(&cb, s->graph))) {
            toggle__free(ax);
            return rc;
        }
        for (size_t j = 0; j < s->n; j++) {
            if (!x[j])
                continue;
            size_t c = toggle__graph_column(s->graph, j, cb.idx, cb.val);
            for (size_t p = 0; p < c; p++)
                ax[cb.idx[p]] = toggle__addmod(ax[cb.idx[p]],
                                               toggle__mulmod(cb.val[p] % k, x[j], k), k);
        }
        toggle__colbuf_clear(&cb);
    } else {
        for (size_t i = 0; i < s->m; i++)
            for (size_t j = 0; j < s->n; j++)
                ax[i] = toggle__addmod(ax[i], toggle__mulmod(toggle__vecs_get(&s->a, i, j),
                                                              x[j], k), k);
    }
    int ok = 1;
    for (size_t i = 0; i < s->m && ok; i++)
        ok = ax[i] == toggle__rhs(s, i);
    toggle__free(ax);
    *solves = ok;
    return TOGGLE_OK;
}

int toggle_system_check_certificate(const toggle_system *s, const uint64_t *y, size_t len,
                                    int *valid)
{
    if (!s || !y || !valid)
        return toggle__error(TOGGLE_EINVAL, "system, y and valid must not be NULL");
    if (len != s->m)
        return toggle__error(TOGGLE_EINVAL, "y has %zu entries, the system has %zu equations",
                             len, s->m);
    int rc = check_values(y, len, s->k, "y");
    if (rc)
        return rc;
    uint64_t k = s->k, yb = 0;
    for (size_t i = 0; i < s->m; i++)
        yb = toggle__addmod(yb, toggle__mulmod(y[i], toggle__rhs(s, i), k), k);
    int ok = yb != 0;
    if (s->graph) {
        toggle__colbuf cb;
        if ((rc = toggle__colbuf_init(&cb, s->graph)))
            return rc;
        for (size_t j = 0; j < s->n && ok; j++) {
            uint64_t acc = 0;
            size_t c = toggle__graph_column(s->graph, j, cb.idx, cb.val);
            for (size_t p = 0; p < c; p++)
                acc = toggle__addmod(acc, toggle__mulmod(y[cb.idx[p]], cb.val[p] % k, k), k);
            ok = acc == 0;
        }
        toggle__colbuf_clear(&cb);
    } else {
        for (size_t j = 0; j < s->n && ok; j++) {
            uint64_t acc = 0;
            for (size_t i = 0; i < s->m; i++)
                acc = toggle__addmod(acc, toggle__mulmod(y[i], toggle__vecs_get(&s->a, i, j), k),
                                     k);
            ok = acc == 0;
        }
    }
    *valid = ok;
    return TOGGLE_OK;
}
