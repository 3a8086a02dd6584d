/* The engine table, the automatic choice, and the shared certificate helper. */
#include <string.h>

#include "internal.h"

static const toggle__engine *const engines[] = {
    &toggle__engine_flint,
    &toggle__engine_gf2,
    &toggle__engine_chase,
    &toggle__engine_howell,
};

static const char *const names[] = {"auto", "flint", "gf2", "chase", "howell"};

const char *toggle_engine_name(int engine)
{
    if (engine < 0 || engine >= (int)(sizeof names / sizeof *names))
        return NULL;
    return names[engine];
}

int toggle_engine_from_name(const char *name, int *engine)
{
    if (!name || !engine)
        return toggle__error(TOGGLE_EINVAL, "name and engine must not be NULL");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (strcmp(name, names[i]) == 0) {
            *engine = (int)i;
            return TOGGLE_OK;
        }
    }
    return toggle__error(TOGGLE_EINVAL, "unknown engine '%s' (auto, flint, gf2, chase, howell)",
                         name);
}

const toggle__engine *toggle__engine_get(int id)
{
    for (size_t i = 0; i < sizeof engines / sizeof *engines; i++)
        if (engines[i]->id == id)
            return engines[i];
    return NULL;
}

/* Preference order for AUTO: the grid engine where it applies, the packed
 * GF(2) engine for k = 2, FLINT for other primes, Howell for composites. */
const toggle__engine *toggle__engine_pick(const toggle_system *s)
{
    static const int order[] = {TOGGLE_ENGINE_CHASE, TOGGLE_ENGINE_GF2, TOGGLE_ENGINE_FLINT,
                                TOGGLE_ENGINE_HOWELL};
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        const toggle__engine *e = toggle__engine_get(order[i]);
        if (e && e->supports(s) == TOGGLE_OK)
            return e;
    }
    if (!toggle__is_prime(s->k))
        toggle__error(TOGGLE_EUNSUPPORTED, "modulus %llu is not prime: composite moduli are not "
                      "supported by this build", (unsigned long long)s->k);
    else
        toggle__error(TOGGLE_EUNSUPPORTED, "no engine can solve this system");
    return NULL;
}

int toggle__certificate_by_transpose(const toggle_system *s, const toggle__engine *engine,
                                     toggle_solution *sol)
{
    size_t m = s->m, n = s->n, rows;
    if (!toggle__add_ok(n, 1, &rows))
        return toggle__error(TOGGLE_EOVERFLOW, "system too large for a certificate");
    toggle_system t;
    memset(&t, 0, sizeof t);
    t.m = rows;
    t.n = m;
    t.k = s->k;
    t.budget = s->budget;
    t.search_limit = s->search_limit;
    t.engine = engine->id;
    int rc = toggle__vecs_init(&t.a, m, rows, s->k);
    if (rc)
        return rc;
    if ((rc = toggle__vecs_init(&t.b, rows, 1, s->k))) {
        toggle__vecs_clear(&t.a);
        return rc;
    }
    if (s->graph) {
        /* row j of A^T is column j of A: read it straight from the graph */
        toggle__colbuf cb;
        rc = toggle__colbuf_init(&cb, s->graph);
        for (size_t j = 0; !rc && j < n; j++) {
            size_t c = toggle__graph_column(s->graph, j, cb.idx, cb.val);
            for (size_t p = 0; p < c; p++)
                toggle__vecs_set(&t.a, j, cb.idx[p], cb.val[p] % s->k);
        }
        if (!rc)
            toggle__colbuf_clear(&cb);
    } else {
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                uint64_t v = toggle__vecs_get(&s->a, i, j);
                if (v)
                    toggle__vecs_set(&t.a, j, i, v);
            }
    }
    for (size_t i = 0; i < m; i++)
        toggle__vecs_set(&t.a, n, i, toggle__rhs(s, i));
    toggle__vecs_set(&t.b, 0, n, 1);
    toggle_solution *ts = NULL;
    if (!rc)
        rc = toggle__solution_new(&ts, &t, engine->id);
    if (!rc)
        rc = engine->solve(&t, ts);
    if (!rc && !ts->solvable)
        rc = toggle__error(TOGGLE_EINTERNAL, "certificate system unexpectedly unsolvable");
    if (!rc) {
        sol->cert = ts->x; /* take ownership */
        memset(&ts->x, 0, sizeof ts->x);
    }
    toggle_solution_free(ts);
    toggle__vecs_clear(&t.a);
    toggle__vecs_clear(&t.b);
    return rc;
}
