/* The engine layer: the table (from engines.h), the names, AUTO's choice,
 * the budget check and toggle_solve. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

#define TOGGLE__ENGINE_ENTRY(ID, nm) {TOGGLE_ENGINE_##ID, #nm, &toggle__engine_##nm},
static const toggle__engine_entry table[] = {TOGGLE__ENGINES(TOGGLE__ENGINE_ENTRY)};
#undef TOGGLE__ENGINE_ENTRY
#define NENGINES (sizeof table / sizeof *table)

const toggle__engine_entry *toggle__engine_get(int id)
{
    for (size_t i = 0; i < NENGINES; i++)
        if (table[i].id == id)
            return &table[i];
    return NULL;
}

const char *toggle_engine_name(int engine)
{
    if (engine == TOGGLE_ENGINE_AUTO)
        return "auto";
    const toggle__engine_entry *e = toggle__engine_get(engine);
    return e ? e->name : NULL;
}

int toggle_engine_from_name(const char *name, int *engine)
{
    if (!name || !engine)
        return toggle__error(TOGGLE_EINVAL, "name and engine must not be NULL");
    if (strcmp(name, "auto") == 0) {
        *engine = TOGGLE_ENGINE_AUTO;
        return TOGGLE_OK;
    }
    for (size_t i = 0; i < NENGINES; i++) {
        if (strcmp(name, table[i].name) == 0) {
            *engine = table[i].id;
            return TOGGLE_OK;
        }
    }
    char list[256] = "auto";
    for (size_t i = 0, used = strlen(list); i < NENGINES && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, ", %s", table[i].name);
    return toggle__error(TOGGLE_EINVAL, "unknown engine '%s' (%s)", name, list);
}

bool toggle__probe_no(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool toggle__probe_prime(const toggle_system *s, const char *engine, char *why, size_t len)
{
    if (toggle__is_prime(s->k))
        return true;
    return toggle__probe_no(why, len, "the %s engine needs a prime modulus, %llu is composite",
                            engine, (unsigned long long)s->k);
}

/* Set by toggle__probe_oom() during one probe of this thread. */
static _Thread_local bool probe_oom;

bool toggle__probe_oom(void)
{
    probe_oom = true;
    return false;
}

/* Run e's probe; *oom tells a refusal for want of memory from a "no". */
static bool probe(const toggle__engine_entry *e, const toggle_system *s, char *why, size_t len,
                  bool *oom)
{
    probe_oom = false;
    bool yes = e->engine->probe(s, why, len);
    *oom = !yes && probe_oom;
    probe_oom = false;
    return yes;
}

static const toggle__engine_entry *probe_out_of_memory(const toggle__engine_entry *e, int *status)
{
    *status = toggle__error(TOGGLE_ENOMEM, "out of memory probing the %s engine", e->name);
    return NULL;
}

const toggle__engine_entry *toggle__engine_choose(const toggle_system *s, int *status)
{
    *status = TOGGLE_EUNSUPPORTED;
    char why[256] = "";
    bool oom = false;
    if (s->engine != TOGGLE_ENGINE_AUTO) {
        const toggle__engine_entry *e = toggle__engine_get(s->engine);
        if (!e) {
            toggle__error(TOGGLE_EUNSUPPORTED, "engine %d is not available in this build",
                          s->engine);
            return NULL;
        }
        if (!probe(e, s, why, sizeof why, &oom)) {
            if (oom)
                return probe_out_of_memory(e, status);
            toggle__error(TOGGLE_EUNSUPPORTED, "%s", why);
            return NULL;
        }
        return e;
    }
    /* AUTO: the first engine of the table that takes s; probes are silent.
     * An engine that could not tell for want of memory ends the choice:
     * passing it over would pick an engine AUTO would not have picked. */
    for (size_t i = 0; i < NENGINES; i++) {
        if (probe(&table[i], s, NULL, 0, &oom))
            return &table[i];
        if (oom)
            return probe_out_of_memory(&table[i], status);
    }
    toggle__error(TOGGLE_EUNSUPPORTED, "no engine of this build can solve a %zu x %zu system "
                  "modulo %llu", s->m, s->n, (unsigned long long)s->k);
    return NULL;
}

/* The engine's own estimate is `solve` (already computed). */
static int estimate_on(const toggle__engine_entry *e, toggle__cert_route route,
                       const toggle_system *s, uint64_t solve, uint64_t *bytes)
{
    /* one estimate for the whole solve: the engine's (its work, with the
     * answers it fills), then the certificate phase, during which the
     * answers stay allocated */
    uint64_t cert = 0, answers = 0;
    size_t nullity = s->n;
    int rc = TOGGLE_OK;
    /* the answers: at most what the engine's estimate holds at its end
     * (kernel route: the certificate comes after the engine freed its work),
     * else bounded from A's structure (the certificate system's solve) */
    if (!rc && route == TOGGLE__CERT_KERNEL) {
        /* the certificate stands in for x, which an unsolvable system has not */
        size_t x = 0;
        toggle__vecs_bytes(s->n, 1, s->k, &x);
        answers = solve > x ? solve - x : 0;
    }
    else if (!rc && route == TOGGLE__CERT_TRANSPOSE)
        rc = toggle__answers_estimate(s, &answers, &nullity, NULL);
    if (!rc)
        rc = toggle__certify_estimate(e, route, s, nullity, &cert);
    if (!rc) {
        unsigned __int128 c = (unsigned __int128)answers + cert;
        uint64_t c64 = c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
        *bytes = solve > c64 ? solve : c64;
    }
    return rc;
}

int toggle__engine_estimate(const toggle__engine_entry *e, const toggle_system *s,
                            uint64_t *bytes)
{
    uint64_t solve = 0;
    int rc = e->engine->estimate(s, &solve);
    if (!rc && s->budget && solve > s->budget) {
        *bytes = solve; /* refused anyway: no need to look further */
        return TOGGLE_OK;
    }
    return rc ? rc : estimate_on(e, toggle__certify_route(e, s), s, solve, bytes);
}

int toggle__engine_run(const toggle__engine_entry *e, const toggle_system *s,
                       toggle_solution **out)
{
    uint64_t bytes = 0, solve = 0;
    toggle__progress_begin(&s->progress);
    /* the engine's estimate first: over the budget already, the solve is
     * refused before the walk over A that decides the certificate's route */
    int rc = e->engine->estimate(s, &solve);
    if (!rc)
        rc = toggle__budget_check(s, solve, e->name);
    /* the certificate's route is decided once: the estimate and the
     * certificate both follow it (deciding costs a walk over A) */
    toggle__cert_route route = rc ? TOGGLE__CERT_ENGINE : toggle__certify_route(e, s);
    if (!rc)
        rc = estimate_on(e, route, s, solve, &bytes);
    if (!rc)
        rc = toggle__budget_check(s, bytes, e->name);
    toggle_solution *sol = NULL;
    if (!rc)
        rc = toggle__solution_new(&sol, s, e->id);
    if (!rc)
        rc = e->engine->solve(s, sol);
    if (!rc && !sol->solvable)
        rc = toggle__certify(e, route, s, sol);
    if (rc) {
        toggle_solution_free(sol);
        return rc;
    }
    *out = sol;
    return TOGGLE_OK;
}

int toggle_solve(toggle_solution **out, const toggle_system *s)
{
    if (!out || !s)
        return toggle__error(TOGGLE_EINVAL, "out and system must not be NULL");
    int rc;
    const toggle__engine_entry *e = toggle__engine_choose(s, &rc);
    if (!e)
        return rc; /* choose set the message */
    return toggle__engine_run(e, s, out);
}
