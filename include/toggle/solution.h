/* libtoggle: solving a system, and the solution set it returns. */
#ifndef TOGGLE_SOLUTION_H
#define TOGGLE_SOLUTION_H

#include "common.h"
#include "system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file solution.h
 *  @brief Solving A x = b, and reading the answer.
 *
 *  Canonical answers (the same for every engine):
 *  - the particular solution is the one read off the reduced row echelon
 *    form of [A | b] with every free variable 0 (columns taken in order
 *    0..n-1);
 *  - kernel vector i belongs to the i-th free column f (ascending): it has
 *    x_f = 1, every other free variable 0;
 *  - the certificate of an unsolvable system is the canonical particular
 *    solution y of A^T y = 0, b . y = 1, so y A = 0 and y . b = 1. */

/** Opaque handle to the result of toggle_solve(). Immutable. */
typedef struct toggle_solution toggle_solution;

/** Solve a system with the engine its TOGGLE_OPT_ENGINE option names (AUTO
 *  picks the fastest that applies). An unsolvable system is a successful
 *  solve whose solution says so.
 *  @param out     receives the solution (free with toggle_solution_free())
 *  @param system  the system (borrowed; the solution does not refer back to it)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_EUNSUPPORTED (composite
 *          modulus without a composite engine, or a forced engine that does
 *          not apply), TOGGLE_ENOMEM (out of memory or over the budget). */
TOGGLE_API int toggle_solve(toggle_solution **out, const toggle_system *system);

/** Free a solution. NULL is a no-op. */
TOGGLE_API void toggle_solution_free(toggle_solution *solution);

/** 1 if the system is solvable, 0 if not, TOGGLE_EINVAL for NULL. */
TOGGLE_API int toggle_solution_is_solvable(const toggle_solution *solution);

/** Number of unknowns n (length of solutions and kernel vectors). */
TOGGLE_API size_t toggle_solution_cols(const toggle_solution *solution);

/** Number of equations m (length of the certificate). */
TOGGLE_API size_t toggle_solution_rows(const toggle_solution *solution);

/** The modulus k. */
TOGGLE_API uint64_t toggle_solution_modulus(const toggle_solution *solution);

/** The engine that produced the solution (TOGGLE_ENGINE_*). */
TOGGLE_API int toggle_solution_engine(const toggle_solution *solution);

/** Nullity d: the dimension of the kernel of A (prime k), i.e. the number of
 *  kernel basis vectors. For composite k, the number of generators of the
 *  solution module. Defined for unsolvable systems too. */
TOGGLE_API size_t toggle_solution_nullity(const toggle_solution *solution);

/** Number of solutions as a uint64 (0 when unsolvable).
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EOVERFLOW (does not fit). */
TOGGLE_API int toggle_solution_count_u64(const toggle_solution *solution, uint64_t *count);

/** Number of solutions as a decimal string (NUL-terminated).
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EBUFSIZE (*needed says how much),
 *          TOGGLE_ENOMEM. */
TOGGLE_API int toggle_solution_count_string(const toggle_solution *solution, char *buf,
                                            size_t len, size_t *needed);

/** Copy the canonical particular solution (n values) into x.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EBUFSIZE (len < n),
 *          TOGGLE_ENOSOLUTION (unsolvable). */
TOGGLE_API int toggle_solution_particular(const toggle_solution *solution, uint64_t *x,
                                          size_t len);

/** Copy entries [offset, offset + len) of the particular solution, so that a
 *  large board can be read row by row.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_ERANGE (range past n),
 *          TOGGLE_ENOSOLUTION. */
TOGGLE_API int toggle_solution_particular_range(const toggle_solution *solution,
                                                size_t offset, uint64_t *x, size_t len);

/** Copy kernel basis vector index (n values) into v.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_ERANGE (index >= nullity),
 *          TOGGLE_EBUFSIZE (len < n). */
TOGGLE_API int toggle_solution_kernel_vector(const toggle_solution *solution, size_t index,
                                             uint64_t *v, size_t len);

/** Copy the certificate of unsolvability (m values) into y.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EBUFSIZE (len < m),
 *          TOGGLE_EUNSUPPORTED (the system is solvable, or composite k where
 *          no certificate exists). */
TOGGLE_API int toggle_solution_certificate(const toggle_solution *solution, uint64_t *y,
                                           size_t len);

#ifdef __cplusplus
}
#endif
#endif
