/* The engine table: one line per engine, in the order AUTO prefers them.
 * X(ID, name): TOGGLE_ENGINE_<ID> is its public enum value (system.h),
 * toggle__engine_<name> its definition in lib/engine/<name>/, and "name"
 * the name users pass to --engine and toggle_engine_from_name(). The name
 * list, AUTO's order and the option's range check are all derived from
 * this one list (lib/engine/engine.c, engine.h). docs/design.md: adding an
 * engine. */
#ifndef TOGGLE_ENGINES_H
#define TOGGLE_ENGINES_H

/* The blas engine (docs/blas.md) exists only in builds with -Dblas, which
 * define TOGGLE_HAVE_BLAS for the library and for the suites that link its
 * internals. */
#ifdef TOGGLE_HAVE_BLAS
#define TOGGLE__ENGINE_BLAS(X) X(BLAS, blas)
#else
#define TOGGLE__ENGINE_BLAS(X)
#endif
/* FLINT's engine exists unless the build has -Dflint=disabled (the
 * WebAssembly build); then the dense engine serves primes. */
#ifdef TOGGLE_HAVE_FLINT
#define TOGGLE__ENGINE_FLINT(X) X(FLINT, flint)
#else
#define TOGGLE__ENGINE_FLINT(X)
#endif

#define TOGGLE__ENGINES(X) \
    X(CHASE, chase)        \
    X(TRANSFER, transfer)  \
    X(GF2, gf2)            \
    TOGGLE__ENGINE_BLAS(X) \
    TOGGLE__ENGINE_FLINT(X) \
    X(DENSE, dense)        \
    X(HOWELL, howell)

#include <stdbool.h>
#include <stdint.h>

#include "toggle.h"

/* Is id TOGGLE_ENGINE_AUTO or an engine of this build? A switch derived
 * from the table, so that lib/system can range-check the engine option
 * without calling into the engine layer. */
static inline bool toggle__engine_id_known(uint64_t id)
{
#define TOGGLE__ENGINE_CASE(ID, name) case TOGGLE_ENGINE_##ID:
    switch (id) {
    case TOGGLE_ENGINE_AUTO:
    TOGGLE__ENGINES(TOGGLE__ENGINE_CASE)
        return true;
    default:
        return false;
    }
#undef TOGGLE__ENGINE_CASE
}

#endif
