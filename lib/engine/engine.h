/* lib/engine: the one place engines plug in. An engine is a folder under
 * lib/engine/ defining a `const toggle__engine toggle__engine_<name>` and a
 * line in engines.h. The engine layer (engine.c) picks the engine, checks
 * the budget, runs it, applies the certificate policy (certificate.c) and
 * owns toggle_solve. Never installed. */
#ifndef TOGGLE_ENGINE_H
#define TOGGLE_ENGINE_H

#include "engines.h"
#include "solution/solution_internal.h"

typedef struct toggle__engine {
    /* Can the engine solve s? Silent: records no error message. When it
     * cannot, writes why into why[0 .. len) (why may be NULL) and returns
     * false; toggle_solve reports the reason only when the engine was
     * forced. */
    bool (*probe)(const toggle_system *s, char *why, size_t len);
    /* Peak bytes solve allocates for s (for the memory budget). */
    int (*estimate)(const toggle_system *s, uint64_t *bytes);
    /* Fill sol (a shell from toggle__solution_new): solvable, nullity, x,
     * kernel, and radix where they are not all k, following the canonical
     * rules of solution.h. The certificate comes from the policy in
     * certificate.c unless the engine sets `certify`. */
    int (*solve)(const toggle_system *s, toggle_solution *sol);
    /* Optional: the engine's own certificate of an unsolvable s (moduli
     * where the policy's y.b = 1 need not exist). NULL: the policy. */
    int (*certify)(const toggle_system *s, toggle_solution *sol);
} toggle__engine;

/* An engine as the table lists it. */
typedef struct toggle__engine_entry {
    int id;
    const char *name;
    const toggle__engine *engine;
} toggle__engine_entry;

#define TOGGLE__ENGINE_DECLARE(ID, name) extern const toggle__engine toggle__engine_##name;
TOGGLE__ENGINES(TOGGLE__ENGINE_DECLARE)
#undef TOGGLE__ENGINE_DECLARE

/* The table entry of an engine id, or NULL. */
const toggle__engine_entry *toggle__engine_get(int id);
/* The engine toggle_solve would use for s (AUTO or forced), or NULL with a
 * message and *status: TOGGLE_EUNSUPPORTED, or TOGGLE_ENOMEM when a probe
 * ran out of memory. */
const toggle__engine_entry *toggle__engine_choose(const toggle_system *s, int *status);
/* The bytes toggle_solve checks against the budget for s with e: the
 * engine's estimate, and for the certificate phase the certificate system
 * and the engine's estimate for it, whichever is larger. */
int toggle__engine_estimate(const toggle__engine_entry *e, const toggle_system *s,
                            uint64_t *bytes);
/* Run e on s: budget check, solve, certificate. */
int toggle__engine_run(const toggle__engine_entry *e, const toggle_system *s,
                       toggle_solution **out);

/* ---- shared machinery for the engines (readout.c, certificate.c) ------- */

/* Read solvability, nullity, the particular solution (free variables 0)
 * and the canonical kernel basis out of the reduced row echelon form R of
 * [A | b] (R: at least `rank` rows of n + 1 entries; pivot[i] the pivot
 * column of row i, ascending; only the non-pivot columns right of each
 * row's pivot are read). The kernel's size is checked against the
 * budget on top of `held` bytes still allocated by the engine. */
int toggle__readout_rref(const toggle_system *s, toggle_solution *sol, const toggle__vecs *R,
                         size_t rank, const size_t *pivot, uint64_t held);
/* The peak of that readout, for an engine's estimate: `held` bytes still
 * allocated by the engine, the particular solution and the kernel basis at
 * an upper bound of the nullity read cheaply off A's structure (readout.c;
 * n for composite k), so that the kernel is checked before any work. */
int toggle__readout_estimate(const toggle_system *s, uint64_t held, uint64_t *bytes);
/* The bytes of the answers a solve of s hands out (the particular solution
 * and the kernel basis at that nullity bound, which goes to *nullity when
 * not NULL): what stays allocated while the certificate is made; the bound
 * itself needs *scratch_bytes (when not NULL) for a moment. */
int toggle__answers_estimate(const toggle_system *s, uint64_t *bytes, size_t *nullity,
                             uint64_t *scratch_bytes);

/* The certificate policy, applied by toggle__engine_run to an unsolvable
 * solution. Its route is chosen once per solve (it costs a walk over A):
 * the engine's own `certify` if it has one; else, when A is symmetric, the
 * first canonical kernel vector K with b.K != 0, scaled so that b.K = 1 (no
 * second elimination); else the canonical solution of the certificate
 * system (lib/system) by the same engine. All three give the canonical
 * certificate of solution.h for prime k. */
typedef enum {
    TOGGLE__CERT_ENGINE,    /* the engine's own certify */
    TOGGLE__CERT_KERNEL,    /* symmetric A: from the kernel basis */
    TOGGLE__CERT_TRANSPOSE  /* the certificate system, same engine */
} toggle__cert_route;
toggle__cert_route toggle__certify_route(const toggle__engine_entry *e, const toggle_system *s);
int toggle__certify(const toggle__engine_entry *e, toggle__cert_route route,
                    const toggle_system *s, toggle_solution *sol);
/* The kernel route itself (A symmetric), for an engine whose own certify
 * serves other moduli: for k prime y = K / (b.K), K the first canonical
 * kernel vector of sol with b.K != 0; for composite k the Howell engine's
 * certificate, from sol's Howell kernel rows (certificate.c). */
int toggle__certify_from_kernel(const toggle_system *s, toggle_solution *sol);
/* Bytes of the certificate phase of e on s along route (for the budget). */
/* `nullity` is a bound on A's nullity (it bounds the certificate system's). */
int toggle__certify_estimate(const toggle__engine_entry *e, toggle__cert_route route,
                             const toggle_system *s, size_t nullity, uint64_t *bytes);

/* The peak bytes toggle_grid_nullity allocates (chase/nullity.c): its one
 * estimate, checked against the default budget before any work. */
int toggle__grid_nullity_estimate(size_t rows, size_t cols, uint64_t p, uint32_t flags,
                                  uint64_t *bytes);

/* Probe helper: write a reason with printf formatting; returns false. */
bool toggle__probe_no(char *why, size_t len, const char *fmt, ...) TOGGLE_PRINTF(3, 4);
/* The field engines' first test: true for a prime modulus, else false with
 * the reason "the <engine> engine needs a prime modulus, k is composite". */
bool toggle__probe_prime(const toggle_system *s, const char *engine, char *why, size_t len);
/* Probe helper: the probe could not tell for want of memory (toggle_solve
 * then returns TOGGLE_ENOMEM, forced engine or AUTO); returns false. */
bool toggle__probe_oom(void);

#endif
