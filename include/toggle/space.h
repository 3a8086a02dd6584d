/* libtoggle: the solution set of a solvable system: iterate, sample, fewest
 * presses; and a puzzle generator. */
#ifndef TOGGLE_SPACE_H
#define TOGGLE_SPACE_H

#include "common.h"
#include "solution.h"
#include "system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file space.h
 *  @brief Solution spaces: iteration, sampling, fewest presses, generation.
 *
 *  The solutions of a solvable system are x0 + c_0 g_0 + ... + c_{d-1} g_{d-1}
 *  (mod k), where x0 is the particular solution, g_i the kernel vectors of the
 *  solution (toggle_solution_kernel_vector()) and each coefficient c_i runs
 *  over 0 .. r_i - 1. For prime k every radix r_i is k; for composite k (the
 *  Howell engine) r_i = k / h_i, where h_i is the leading entry of generator
 *  i, a divisor of k. Every solution has exactly one such coefficient tuple,
 *  so the count is r_0 * ... * r_{d-1}. See docs/solution-spaces.md.
 *
 *  The functions on a solution itself, toggle_solution_radix() and
 *  toggle_solution_sample(), are declared in solution.h (included here),
 *  with the toggle_rng type that sampling takes. */

/** Opaque iterator over every solution of a solvable system. */
typedef struct toggle_iter toggle_iter;
/** Opaque fewest-press search over a solution set. */
typedef struct toggle_search toggle_search;
/** Opaque generator of random solvable start states. */
typedef struct toggle_generator toggle_generator;

/** Weights for toggle_search (values of TOGGLE_SEARCH_OPT_METRIC and
 *  TOGGLE_GENERATOR_OPT_METRIC). */
enum {
    TOGGLE_METRIC_CELLS = 0,  /**< number of cells pressed (x_i != 0) */
    TOGGLE_METRIC_PRESSES = 1 /**< total presses: sum of x_i read as 0..k-1 */
};

/** Option keys of a fewest-press search (toggle_search_set_option()). Their
 *  values are those of the 1.0 names TOGGLE_OPT_METRIC and
 *  TOGGLE_OPT_SEARCH_LIMIT (system.h), which keep working. */
enum {
    TOGGLE_SEARCH_OPT_SEARCH_LIMIT = 3, /**< solutions the search may visit; 0 =
                                             unlimited (UINT64_MAX); default the
                                             TOGGLE_SYSTEM_OPT_SEARCH_LIMIT of the
                                             system solved (2^32 unless set) */
    TOGGLE_SEARCH_OPT_METRIC = 4,       /**< a TOGGLE_METRIC_* value; default
                                             TOGGLE_METRIC_CELLS */
    TOGGLE_SEARCH_OPT_THREADS = 10      /**< threads of the F_2 split search; 0 =
                                             one per online CPU; default the
                                             system's TOGGLE_SYSTEM_OPT_THREADS
                                             (the value of TOGGLE_OPT_THREADS) */
};

/** Option keys of a puzzle generator (toggle_generator_set_option()). Their
 *  values are those of the 1.0 names TOGGLE_OPT_SEARCH_LIMIT, TOGGLE_OPT_METRIC
 *  and TOGGLE_OPT_SEED .. TOGGLE_OPT_ATTEMPTS (system.h), which keep working. */
enum {
    TOGGLE_GENERATOR_OPT_SEARCH_LIMIT = 3, /**< search limit of the fewest-press check;
                                                0 = unlimited (UINT64_MAX); default
                                                the system's
                                                TOGGLE_SYSTEM_OPT_SEARCH_LIMIT */
    TOGGLE_GENERATOR_OPT_METRIC = 4,       /**< the TOGGLE_METRIC_* of
                                                TOGGLE_GENERATOR_OPT_PRESSES; default
                                                TOGGLE_METRIC_CELLS */
    TOGGLE_GENERATOR_OPT_SEED = 5,         /**< seed of the generator's own rng (default
                                                0); setting it restarts the sequence */
    TOGGLE_GENERATOR_OPT_UNIQUE = 6,       /**< 1: the start must have exactly one
                                                solution; 0 (the default): any */
    TOGGLE_GENERATOR_OPT_PRESSES = 7,      /**< N: the fewest-press solution must weigh
                                                exactly N; default UINT64_MAX = no
                                                constraint */
    TOGGLE_GENERATOR_OPT_LIT = 8,          /**< L: the start must have exactly L nonzero
                                                cells; default UINT64_MAX = no constraint */
    TOGGLE_GENERATOR_OPT_ATTEMPTS = 9      /**< tries before giving up, >= 1; default
                                                100000 */
};

/* ---- iteration ---------------------------------------------------------- */

/** Create an iterator over every solution. Order: reflected (Gray) order of
 *  the coefficient tuple, so consecutive solutions differ by adding +g_i or
 *  -g_i for one i (for k = 2: one XOR of a packed kernel vector). The first
 *  solution is the particular one. The iterator copies what it needs; the
 *  solution may be freed afterwards.
 *  @param out  receives the iterator (free with toggle_iter_free())
 *  @param solution  a solvable solution from toggle_solve() (borrowed)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_ENOSOLUTION (unsolvable),
 *          TOGGLE_ENOMEM. */
TOGGLE_API int toggle_iter_new(toggle_iter **out, const toggle_solution *solution);

/** Write the next solution (n values) into x.
 *  @return TOGGLE_OK, TOGGLE_ITEROVER (every solution has been produced; x
 *          is untouched), TOGGLE_EINVAL (NULL), TOGGLE_EBUFSIZE (len < n). */
TOGGLE_API int toggle_iter_next(toggle_iter *iter, uint64_t *x, size_t len);

/** Restart from the first solution. NULL is a no-op. */
TOGGLE_API void toggle_iter_reset(toggle_iter *iter);

/** Number of solutions produced since creation or the last reset (0 for NULL). */
TOGGLE_API uint64_t toggle_iter_produced(const toggle_iter *iter);

/** Free an iterator. NULL is a no-op. */
TOGGLE_API void toggle_iter_free(toggle_iter *iter);

/* ---- random numbers and sampling ----------------------------------------- */

/** Create a generator seeded with seed (splitmix64 expands it into the
 *  xoshiro256** state). The same seed gives the same sequence on every
 *  platform.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL out), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_rng_new(toggle_rng **out, uint64_t seed);

/** Next 64 random bits (0 for NULL). */
TOGGLE_API uint64_t toggle_rng_next(toggle_rng *rng);

/** A uniform value in [0, bound) without modulo bias (0 for NULL or bound < 2). */
TOGGLE_API uint64_t toggle_rng_below(toggle_rng *rng, uint64_t bound);

/** Free a generator. NULL is a no-op. */
TOGGLE_API void toggle_rng_free(toggle_rng *rng);

/* ---- fewest presses ------------------------------------------------------ */

/** Cost of a cell that may not be pressed (toggle_search_set_costs()). */
#define TOGGLE_COST_FORBIDDEN UINT64_MAX

/** Create a fewest-press search over the solutions of a solvable system.
 *  Options (toggle_search_set_option()): TOGGLE_SEARCH_OPT_METRIC (default
 *  TOGGLE_METRIC_CELLS), TOGGLE_SEARCH_OPT_SEARCH_LIMIT (solutions the
 *  search may visit; 0 = unlimited; default the system's
 *  TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, 2^32 unless set) and TOGGLE_OPT_THREADS
 *  (default the system's; 0 = one per online processor). The search copies
 *  what it needs. Over F_2 a board's symmetries (grid and stencil systems)
 *  that map the solution set and the costs onto themselves are used: each
 * orbit of chunks is searched once. See docs/solution-spaces.md.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_ENOSOLUTION, TOGGLE_ENOMEM. */
TOGGLE_API int toggle_search_new(toggle_search **out, const toggle_solution *solution);

/** Set TOGGLE_SEARCH_OPT_METRIC, TOGGLE_SEARCH_OPT_SEARCH_LIMIT or
 *  TOGGLE_SEARCH_OPT_THREADS (= TOGGLE_OPT_THREADS).
 *  @param search  the search
 *  @param key     a TOGGLE_SEARCH_OPT_* key
 *  @param value   the value (see the keys)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, unknown key or a key of another
 *          handle, bad metric, more than 1024 threads). */
TOGGLE_API int toggle_search_set_option(toggle_search *search, int key, uint64_t value);

/** Give every cell a non-negative integer cost (copied). The weight of a
 *  solution becomes the sum over cells of cost[j] * (x_j != 0) under
 *  TOGGLE_METRIC_CELLS and of cost[j] * x_j under TOGGLE_METRIC_PRESSES; a
 *  cell of cost TOGGLE_COST_FORBIDDEN may not be pressed (only solutions
 *  with x_j = 0 there count). Over F_2 the fast search needs every allowed
 *  cost below 2^31 and their sum too; otherwise the Gray walk is used.
 *  @param search  the search
 *  @param cost    n costs, or NULL for the default (every cost 1)
 *  @param len     entries of cost (must be n when cost is given)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL search), TOGGLE_EBUFSIZE (len !=
 *          n), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_search_set_costs(toggle_search *search, const uint64_t *cost, size_t len);

/** Run the search. While the number of solutions fits the limit the answer
 *  is exact (proven); otherwise the best solution among those visited
 *  before the limit is kept, with a lower bound on every solution
 *  (toggle_search_bound()), and it is proven when the bound reaches it.
 *  Running again starts over, unless toggle_search_resume() was called
 *  since the last run. The progress callback of the system (its fraction:
 *  chunks done) may cancel: then TOGGLE_ECANCELED, and the best found,
 *  the bound and the checkpoint (toggle_search_save()) stay readable.
 *  @return TOGGLE_OK (see toggle_search_result() for proven), TOGGLE_EINVAL,
 *          TOGGLE_ENOSOLUTION (no solution presses only allowed cells),
 *          TOGGLE_ELIMIT (no allowed solution found within the limit),
 *          TOGGLE_ECANCELED, TOGGLE_ENOMEM. */
TOGGLE_API int toggle_search_run(toggle_search *search);

/** Read the result of the last run.
 *  @param search  a search that has run
 *  @param x       receives the best solution (n values), or NULL
 *  @param len     entries of x
 *  @param weight  receives its weight under the metric, or NULL
 *  @param proven  receives 1 if no solution has a smaller weight, else 0;
 *                 or NULL
 *  @param visited receives how many solutions were examined, or NULL
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL search, or not run yet),
 *          TOGGLE_EBUFSIZE (x given and len < n), TOGGLE_ENOSOLUTION or
 *          TOGGLE_ELIMIT (the last run found no allowed solution, as
 *          toggle_search_run() said; outputs untouched). */
TOGGLE_API int toggle_search_result(const toggle_search *search, uint64_t *x, size_t len,
                                    uint64_t *weight, int *proven, uint64_t *visited);

/** Lower bound reached by the last run: no allowed solution weighs less.
 *  Equal to the weight when the result is proven; UINT64_MAX when no
 *  allowed solution exists.
 *  @param search  a search that has run
 *  @param lower   receives the bound
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, or not run yet). */
TOGGLE_API int toggle_search_bound(const toggle_search *search, uint64_t *lower);

/** Save the state of the last run of a search over F_2 (the split search
 *  of docs/solution-spaces.md): which chunks of the solution set are done
 *  and the best solution so far. Valid after a run that completed, stopped
 *  at its limit, or was cancelled by the progress callback
 *  (TOGGLE_ECANCELED). toggle_search_resume() with these bytes makes the
 *  next run of a search on the same system, target, costs and options
 *  continue it and end with the same answer as one uninterrupted run.
 *  The bytes are portable (little-endian).
 *  @param search  a search that has run
 *  @param buf     receives the checkpoint, or NULL to ask its size
 *  @param len     bytes available at buf
 *  @param needed  receives the checkpoint's size in bytes (may be NULL)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL search), TOGGLE_EBUFSIZE (buf
 *          NULL or len too small; *needed says how much, buf untouched),
 *          TOGGLE_EUNSUPPORTED (no run yet, or the last run walked the
 *          solutions: k != 2, nullity > 62 or a limit below one chunk). */
TOGGLE_API int toggle_search_save(const toggle_search *search, void *buf, size_t len,
                                  size_t *needed);

/** Make the next toggle_search_run() continue from a checkpoint written by
 *  toggle_search_save(): the chunks it lists as done are skipped and its
 *  best solution is kept. That run fails with TOGGLE_EINVAL (and a
 *  message) when the checkpoint belongs to another search. The limit of
 *  the next run counts the solutions that run examines.
 *  @param search  the search
 *  @param buf     the checkpoint's bytes (copied)
 *  @param len     their number
 *  A checkpoint carries a checksum over all its bytes: a damaged one
 *  (any changed byte, truncated or extended) is refused with a message
 *  starting "damaged checkpoint" and nothing of it is used. Checkpoints
 *  of 1.0.0 (format TGLFEW01, no checksum) are refused the same way.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, not a checkpoint, damaged),
 *          TOGGLE_ENOMEM. */
TOGGLE_API int toggle_search_resume(toggle_search *search, const void *buf, size_t len);

/** What the search has reached: safe to call from the progress callback
 *  (toggle_system_set_progress()) while toggle_search_run() runs, on any
 *  thread. During an F_2 split search the best weight found so far and the
 *  lower bound at the start of the run; after a run its weight and
 *  bound (toggle_search_bound()). UINT64_MAX where not known yet.
 *  @param search  the search
 *  @param best    receives the best weight so far, or NULL
 *  @param bound   receives the lower bound, or NULL
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL search, or best and bound both
 *          NULL). */
TOGGLE_API int toggle_search_progress(const toggle_search *search, uint64_t *best,
                                      uint64_t *bound);

/** Free a search. NULL is a no-op. */
TOGGLE_API void toggle_search_free(toggle_search *search);

/* ---- puzzle generator ---------------------------------------------------- */

/** Create a generator of start states for the board of system (its A and k;
 *  its right-hand side is ignored). A generated start s is solvable with
 *  target 0: A x = -s has a solution. The generator solves the system once
 *  (with the system's engine option) to learn the kernel.
 *  Options (toggle_generator_set_option()):
 *  - TOGGLE_GENERATOR_OPT_SEED: seed of the generator's own rng (default 0);
 *    setting it restarts the sequence, so a (system, options, seed) triple
 *    always gives the same boards;
 *  - TOGGLE_GENERATOR_OPT_UNIQUE: 1 = the start must have exactly one solution;
 *  - TOGGLE_GENERATOR_OPT_PRESSES: N = the fewest-press solution must weigh
 *    exactly N under TOGGLE_GENERATOR_OPT_METRIC (default UINT64_MAX = no
 *    constraint);
 *  - TOGGLE_GENERATOR_OPT_METRIC: the metric for TOGGLE_GENERATOR_OPT_PRESSES;
 *  - TOGGLE_GENERATOR_OPT_LIT: L = the start must have exactly L nonzero cells
 *    (default UINT64_MAX = no constraint);
 *  - TOGGLE_GENERATOR_OPT_ATTEMPTS: tries before giving up (default 100000);
 *  - TOGGLE_GENERATOR_OPT_SEARCH_LIMIT: passed to the fewest-press check
 *    (0 = unlimited; default the system's TOGGLE_SYSTEM_OPT_SEARCH_LIMIT).
 *  Without constraints the start is uniform over all reachable states.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EUNSUPPORTED, TOGGLE_ENOMEM
 *          (from solving). */
TOGGLE_API int toggle_generator_new(toggle_generator **out, const toggle_system *system);

/** Set an option (see toggle_generator_new()).
 *  @param gen    the generator
 *  @param key    a TOGGLE_GENERATOR_OPT_* key
 *  @param value  the value (see the keys)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, unknown key or a key of another
 *          handle, bad value). */
TOGGLE_API int toggle_generator_set_option(toggle_generator *gen, int key, uint64_t value);

/** Number of solutions of each generated start as a nullity: the number of
 *  kernel generators of the board (0 means every start is unique). */
TOGGLE_API size_t toggle_generator_nullity(const toggle_generator *gen);

/** Generate the next start state (n values) into start.
 *  @param gen      the generator
 *  @param start    receives the start state (n values < k)
 *  @param len      entries of start
 *  @param presses  receives a fewest-press solution's weight under the
 *                  metric when it was computed (TOGGLE_GENERATOR_OPT_PRESSES set or
 *                  the board unique), else UINT64_MAX; may be NULL
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EBUFSIZE (len < n),
 *          TOGGLE_ENOSOLUTION (TOGGLE_GENERATOR_OPT_UNIQUE asked on a board
 *          whose nullity is > 0, or TOGGLE_GENERATOR_OPT_PRESSES /
 *          TOGGLE_GENERATOR_OPT_LIT larger than the board allows), TOGGLE_ELIMIT
 *          (no board met the constraints within TOGGLE_GENERATOR_OPT_ATTEMPTS
 *          tries), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_generator_next(toggle_generator *gen, uint64_t *start, size_t len,
                                     uint64_t *presses);

/** Free a generator. NULL is a no-op. */
TOGGLE_API void toggle_generator_free(toggle_generator *gen);

#ifdef __cplusplus
}
#endif
#endif
