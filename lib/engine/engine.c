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

static int estimate_on(const toggle__engine_entry *e, toggle__cert_route route,
                       const toggle_system *s, uint64_t *bytes)
{
    uint64_t solve = 0, cert = 0;
    int rc = e->engine->estimate(s, &solve);
    if (!rc)
        rc = toggle__certify_estimate(e, route, s, &cert);
    if (!rc)
        *bytes = solve > cert ? solve : cert;
    return rc;
}

int toggle__engine_estimate(const toggle__engine_entry *e, const toggle_system *s,
                            uint64_t *bytes)
{
    return estimate_on(e, toggle__certify_route(e, s), s, bytes);
}

int toggle__engine_run(const toggle__engine_entry *e, const toggle_system *s,
                       toggle_solution **out)
{
    uint64_t bytes = 0;
    toggle__progress_begin(&s->progress);
    /* the certificate's route is decided once: the estimate and the
     * certificate both follow it (deciding costs a walk over A) */
    toggle__cert_route route = toggle__certify_route(e, s);
    int rc = estimate_on(e, route, s, &bytes);
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
