/* Shared test helpers: seeded RNG, iteration multiplier, and an independent
 * verifier that never calls the library's elimination code. */
#ifndef TOGGLE_TESTUTIL_H
#define TOGGLE_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <check.h>
#include <toggle.h>

#include "tu_engine.h"

/* Seed for this process: TOGGLE_TEST_SEED if set, else from the clock.
 * Printed to stderr once, so that a failure can be reproduced. */
uint64_t tu_seed(void);
/* Iteration multiplier from TOGGLE_TEST_MULTIPLIER (default 1, may be 0.1 etc). */
double tu_multiplier(void);
/* max(1, base * multiplier). */
size_t tu_iters(size_t base);

typedef struct {
    uint64_t s;
} tu_rng;
/* An RNG seeded from tu_seed() mixed with a per-test salt. */
tu_rng tu_rng_for(uint64_t salt);
uint64_t tu_next(tu_rng *r);
uint64_t tu_below(tu_rng *r, uint64_t bound); /* uniform in [0, bound) */

uint64_t tu_mulmod(uint64_t a, uint64_t b, uint64_t k);
uint64_t tu_addmod(uint64_t a, uint64_t b, uint64_t k);

/* The cells pressing (r, c) changes, one entry per listed neighbour after
 * wrapping (repeats kept: each adds 1), from the documented conventions
 * of every lattice and wrap. nb holds at least 9 entries. */
size_t tu_grid_neighbours(size_t rows, size_t cols, uint32_t flags, size_t r, size_t c,
                          long nb[][2]);
/* Dense m x n matrix of the game on a rows x cols grid with TOGGLE_GRID_*
 * flags, built by the test's own neighbour code (malloc'd; caller frees). */
uint64_t *tu_grid_matrix(size_t rows, size_t cols, uint32_t flags);
/* y = A x mod k on a rows x cols grid by the own neighbour code (the
 * sparse tu_grid_matrix, for boards too large for a dense A). */
void tu_grid_apply(size_t rows, size_t cols, uint32_t flags, const uint64_t *x, uint64_t k,
                   uint64_t *y);
/* A x == want (want NULL: A x == 0) mod k, A by the own neighbour code
 * (tu_grid_apply). */
bool tu_grid_apply_is(size_t rows, size_t cols, uint32_t flags, uint64_t k, const uint64_t *x,
                      const uint64_t *want);
/* A random game of n cells mod k: start st and target tg uniform, b = tg -
 * st (the right-hand side). */
void tu_random_game(tu_rng *rng, size_t n, uint64_t k, uint64_t *st, uint64_t *tg, uint64_t *b);
/* Reduce count entries modulo k in place (grid matrices hold 2 or 3 where a
 * neighbour is reached twice; toggle_system_new_matrix wants entries < k). */
void tu_reduce(uint64_t *a, size_t count, uint64_t k);

/* y = A x mod k for dense row-major A (m x n). */
void tu_apply(const uint64_t *a, size_t m, size_t n, const uint64_t *x, uint64_t k,
              uint64_t *y);

/* Check a solution handle against the dense A and b the test built itself:
 * solvable <=> particular solves; kernel vectors are in the kernel, are
 * linearly independent (prime k: checked by their canonical shape or by
 * rank over F_p computed here), and their count equals the nullity the
 * test computes independently (expected_nullity, or SIZE_MAX to skip);
 * an unsolvable answer carries a certificate y with yA = 0, y.b != 0.
 * Returns NULL on success, else a static message. */
const char *tu_verify(const toggle_solution *sol, const uint64_t *a, const uint64_t *b,
                      size_t m, size_t n, uint64_t k, size_t expected_nullity);

/* Solve s with engine forced (asserting success and that engine answered). */
toggle_solution *tu_solve_with(toggle_system *s, int engine);

/* Solve s with the engines `ref` and `test` (prime k; dense copy a, b of
 * the system): identical canonical answers (solvability, nullity,
 * particular solution, certificate, every kernel vector), each checked by
 * tu_verify against the rank computed here. */
void tu_compare_engines(toggle_system *s, int ref, int test, const uint64_t *a,
                        const uint64_t *b, size_t m, size_t n, uint64_t k);

/* Rank of a dense matrix over F_p by the test's own Gaussian elimination. */
size_t tu_rank(const uint64_t *a, size_t m, size_t n, uint64_t p);

/* Send file descriptors 1 and 2 to a temporary file until tu_quiet_end(),
 * which fails the test if anything was written (the library never prints). */
void tu_quiet_begin(void);
void tu_quiet_end(void);

/* Call, expect a status, and for an error expect a message too. */
#define TU_EXPECT(call, status)                                                         \
    do {                                                                                \
        toggle_clear_error();                                                           \
        int rc_ = (call);                                                               \
        ck_assert_msg(rc_ == (status), "%s returned %s, expected %s", #call,            \
                      toggle_status_name(rc_), toggle_status_name(status));             \
        if ((status) < 0 && (status) != TOGGLE_ITEROVER)                                \
            ck_assert_msg(toggle_last_error()[0] != '\0', "%s left no message", #call); \
    } while (0)

/* Run a suite (seed fixed first, so forked tests share it); exit status. */
int tu_run(Suite *su);

/* The all-off to all-on game on a rows x cols grid: build the graph and the
 * system and solve them, asserting each step succeeds. The caller frees all
 * three (tu_free_all). */
toggle_solution *tu_solve_grid(size_t rows, size_t cols, uint32_t flags, uint64_t k,
                               toggle_graph **g, toggle_system **s);

/* Free helpers that tolerate NULL. */
void tu_free_all(toggle_graph *g, toggle_system *s, toggle_solution *sol);

#endif
