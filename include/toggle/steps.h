/* libtoggle: row operations on an augmented matrix, step by step: a trace of
 * plain Gauss-Jordan elimination, hand operations with undo, chaos boards. */
#ifndef TOGGLE_STEPS_H
#define TOGGLE_STEPS_H

#include "common.h"
#include "graph.h"
#include "system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file steps.h
 *  @brief Elimination one row operation at a time (see docs/steps.md).
 *
 *  A toggle_steps handle holds a copy of the augmented matrix [A | b] of a
 *  system (m rows, n + 1 columns, column n is b) and the row operations
 *  applied to it so far. Every operation is invertible, so every state is
 *  row-equivalent to the input and has the same solutions. The operations
 *  (0-based rows, values mod k):
 *
 *  | op                 | text           | effect                               |
 *  |--------------------|----------------|--------------------------------------|
 *  | TOGGLE_STEP_ADD    | `add A B`, `add A*C B` | row B += C * row A (C != 0, A != B) |
 *  | TOGGLE_STEP_SCALE  | `scale A C`    | row A *= C (C a unit mod k)          |
 *  | TOGGLE_STEP_SWAP   | `swap A B`     | exchange rows A and B (A != B)       |
 *  | TOGGLE_STEP_MOVE   | `move A B`     | take row A out and put it back just  |
 *  |                    |                | before the row that was B (B = m: at |
 *  |                    |                | the end); B != A, A + 1              |
 *
 *  toggle_steps_auto() performs plain Gauss-Jordan elimination on the whole
 *  augmented matrix, column by column from the left (column n included):
 *  bring the first row at or below the pivot row whose entry is a unit up
 *  with `swap`, make the pivot 1 with `scale`, then clear the column in every
 *  other row, top to bottom, with `add`. It continues from whatever state the
 *  matrix is in, so hand operations and automatic ones mix. The result is
 *  the reduced row echelon form of [A | b]. For composite k a column whose
 *  nonzero entries (at or below the pivot row) are all non-units stops it
 *  (TOGGLE_EUNSUPPORTED): the Howell form that toggle_solve() uses is not a
 *  sequence of these steps. The steps are not those of the fast engines. */

/** Opaque handle: an augmented matrix under row operations. */
typedef struct toggle_steps toggle_steps;

/** Row operations (the op of toggle_steps_op()). */
enum {
    TOGGLE_STEP_ADD = 1,   /**< row b += c * row a */
    TOGGLE_STEP_SCALE = 2, /**< row a *= c */
    TOGGLE_STEP_SWAP = 3,  /**< exchange rows a and b */
    TOGGLE_STEP_MOVE = 4   /**< move row a before row b */
};

/** Copy the augmented matrix of a system (any kind, any k >= 2). The
 *  matrix (m (n + 1) words) and the trace (32 bytes per operation) count
 *  against the system's TOGGLE_OPT_MEMORY_BUDGET, read now.
 *  @param out     receives the handle (free with toggle_steps_free())
 *  @param system  the system (borrowed; may be freed afterwards)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_EOVERFLOW, TOGGLE_ENOMEM
 *          (over the budget, or out of memory). */
TOGGLE_API int toggle_steps_new(toggle_steps **out, const toggle_system *system);

/** Free the handle. NULL is a no-op. */
TOGGLE_API void toggle_steps_free(toggle_steps *steps);

/** Rows m (0 for NULL). */
TOGGLE_API size_t toggle_steps_rows(const toggle_steps *steps);

/** Unknowns n; the matrix has n + 1 columns (0 for NULL). */
TOGGLE_API size_t toggle_steps_cols(const toggle_steps *steps);

/** The modulus k (0 for NULL). */
TOGGLE_API uint64_t toggle_steps_modulus(const toggle_steps *steps);

/** Current entry (i, j) of [A | b]; j = n reads the right-hand side.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_ERANGE (i >= m or j > n). */
TOGGLE_API int toggle_steps_entry(const toggle_steps *steps, size_t i, size_t j,
                                  uint64_t *value);

/** Row b += c * row a.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, a == b, c = 0), TOGGLE_ERANGE
 *          (a or b >= m, c >= k), TOGGLE_ENOMEM (the trace would pass the
 *          budget). On failure nothing changes. */
TOGGLE_API int toggle_steps_add(toggle_steps *steps, size_t a, size_t b, uint64_t c);

/** Row a *= c.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, c not a unit mod k), TOGGLE_ERANGE
 *          (a >= m, c >= k), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_steps_scale(toggle_steps *steps, size_t a, uint64_t c);

/** Exchange rows a and b.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, a == b), TOGGLE_ERANGE, TOGGLE_ENOMEM. */
TOGGLE_API int toggle_steps_swap(toggle_steps *steps, size_t a, size_t b);

/** Move row a so that it stands just before the row that was b (b = m: last).
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, b == a or b == a + 1: no change),
 *          TOGGLE_ERANGE (a >= m, b > m), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_steps_move(toggle_steps *steps, size_t a, size_t b);

/** Apply a script in the text language of the table above: one command per
 *  line, `add A B B2 ...` adds row A to each target in turn, C may be
 *  negative (read mod k), `#` starts a comment, blank lines are ignored.
 *  The whole script is checked before anything is applied.
 *  @param steps    the handle
 *  @param text     the script, len bytes (need not be NUL-terminated)
 *  @param len      its length
 *  @param applied  receives the number of operations applied (may be NULL)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, a == b, a zero multiplier, a
 *          non-unit scale), TOGGLE_EPARSE (unknown command, bad number,
 *          wrong count of arguments), TOGGLE_ERANGE (row out of range),
 *          TOGGLE_ENOMEM; the message names the line. On failure nothing
 *          changes. */
TOGGLE_API int toggle_steps_apply(toggle_steps *steps, const char *text, size_t len,
                                  size_t *applied);

/** Perform up to max steps of Gauss-Jordan elimination (see the file
 *  comment); SIZE_MAX for all. The trace for the worst case is reserved
 *  against the budget first.
 *  @param steps the handle
 *  @param max   most operations to perform
 *  @param done  receives the number of operations performed (may be NULL);
 *               fewer than max means the matrix is reduced, or (composite
 *               k) the next column has no unit pivot
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_EUNSUPPORTED (composite
 *          k: no step could be made because the next column has no unit
 *          pivot; nothing changed), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_steps_auto(toggle_steps *steps, size_t max, size_t *done);

/** Undo the last count operations (newest first); they can be redone.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_ERANGE (count > the
 *          operations done), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_steps_undo(toggle_steps *steps, size_t count);

/** Redo count undone operations. Any new operation forgets what could be
 *  redone.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_ERANGE (count > what can
 *          be redone), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_steps_redo(toggle_steps *steps, size_t count);

/** Operations applied so far: the trace (0 for NULL). */
TOGGLE_API size_t toggle_steps_count(const toggle_steps *steps);

/** Undone operations that toggle_steps_redo() can bring back (0 for NULL). */
TOGGLE_API size_t toggle_steps_redo_count(const toggle_steps *steps);

/** Operation index of the trace (0 = the first applied). Each output may be
 *  NULL. For SCALE, b is 0; for SWAP and MOVE, c is 0.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL steps), TOGGLE_ERANGE (index >= count). */
TOGGLE_API int toggle_steps_op(const toggle_steps *steps, size_t index, int *op, size_t *a,
                               size_t *b, uint64_t *c);

/** Write operations first .. count - 1 of the trace as a script, one per
 *  line, in the language toggle_steps_apply() reads (NUL-terminated).
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL steps, buf NULL with len > 0),
 *          TOGGLE_ERANGE (first > count), TOGGLE_EBUFSIZE (*needed says how
 *          much). */
TOGGLE_API int toggle_steps_write(const toggle_steps *steps, size_t first, char *buf,
                                  size_t len, size_t *needed);

/** Where the elimination stands. Each output may be NULL.
 *  @param steps       the handle
 *  @param rank        receives the pivots found so far in A's columns (the
 *                     rows of the leading part already in reduced echelon
 *                     form); when reduced, the rank of A
 *  @param reduced     receives 1 if the matrix is in reduced row echelon form
 *  @param unsolvable  receives 1 if some row reads 0 ... 0 | c with c != 0,
 *                     which proves A x = b has no solution
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL steps). */
TOGGLE_API int toggle_steps_status(const toggle_steps *steps, size_t *rank, int *reduced,
                                   int *unsolvable);

/** The pivot columns found so far (as toggle_steps_status() counts them, plus
 *  column n when b holds a pivot), ascending.
 *  @param steps  the handle
 *  @param cols   receives up to cap columns (may be NULL when cap is 0)
 *  @param cap    capacity of cols
 *  @param count  receives how many there are (may be NULL)
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EBUFSIZE (cap < count; *count set). */
TOGGLE_API int toggle_steps_pivots(const toggle_steps *steps, size_t *cols, size_t cap,
                                   size_t *count);

/** The particular solution of a reduced matrix: every free unknown 0, each
 *  pivot unknown the right-hand side of its row (the canonical solution of
 *  solution.h for prime k).
 *  @param steps    the handle
 *  @param x        receives n values
 *  @param len      entries of x
 *  @param nullity  receives n - rank (may be NULL)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, not reduced yet), TOGGLE_EBUFSIZE
 *          (len < n), TOGGLE_ENOSOLUTION (the system has no solution). */
TOGGLE_API int toggle_steps_solution(const toggle_steps *steps, uint64_t *x, size_t len,
                                     size_t *nullity);

/** The current matrix as a new system (dense; memory budget copied).
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_ENOMEM. */
TOGGLE_API int toggle_steps_system(const toggle_steps *steps, toggle_system **out);

/** Chaos radius meaning "no limit" (toggle_graph_new_chaos()). */
#define TOGGLE_CHAOS_ANY_DISTANCE SIZE_MAX

/** A random "chaos" toggle matrix on a rows x cols board: pressing cell j
 *  adds 1 to itself and, with probability density, 1 to each other cell i
 *  within Chebyshev distance radius (max(|dr|, |dc|) <= radius). Candidates
 *  are drawn column by column (pressed cell j ascending, then cell i
 *  ascending) from toggle_rng_new(seed), one toggle_rng_next() each, taken
 *  when its top 53 bits, read as a fraction of 2^53, are below density; so a
 *  seed gives the same board on every platform. The matrix is built dense
 *  (8 (rows cols)^2 bytes while building).
 *  @param out      receives the graph (kind TOGGLE_KIND_MATRIX)
 *  @param rows     board rows
 *  @param cols     board columns
 *  @param density  probability in [0, 1]
 *  @param radius   largest distance, or TOGGLE_CHAOS_ANY_DISTANCE
 *  @param seed     seed of the draw
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL out, zero rows or cols, density
 *          not in [0, 1]), TOGGLE_EOVERFLOW, TOGGLE_ENOMEM. */
TOGGLE_API int toggle_graph_new_chaos(toggle_graph **out, size_t rows, size_t cols,
                                      double density, size_t radius, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
