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
 *    solution y of A^T y = 0, b . y = 1, so y A = 0 and y . b = 1.
 *
 *  Every toggle_solution_* function is declared here, including those that
 *  belong to a feature header's topic (the radix and sampling of space.h,
 *  the packed readout of grid.h, the orbit count of symmetry.h); those
 *  headers include this one, so code that included only them still sees
 *  the same declarations. */

/** Opaque handle to the result of toggle_solve(). Immutable. */
typedef struct toggle_solution toggle_solution;
/** Opaque seeded pseudo-random generator (xoshiro256**), made by
 *  toggle_rng_new() and freed by toggle_rng_free() (space.h); declared here
 *  because toggle_solution_sample() takes one. Not thread-safe; use one per
 *  thread. */
typedef struct toggle_rng toggle_rng;

/** Solve a system with the engine its TOGGLE_SYSTEM_OPT_ENGINE option names (AUTO
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

/* ---- solution spaces (see space.h) -------------------------------------- */

/** Radix r_i of coefficient i. The solutions of a solvable system are
 *  x0 + c_0 g_0 + ... + c_{d-1} g_{d-1} (mod k), x0 the particular solution,
 *  g_i the kernel vectors and each c_i in 0 .. r_i - 1: r_i = k for prime k,
 *  k / h_i for composite k (h_i the leading entry of generator i). See
 *  space.h and docs/solution-spaces.md.
 *  @param solution  a solution from toggle_solve()
 *  @param index     which coefficient, < the nullity
 *  @param radix  receives r_i
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_ERANGE (index >= nullity). */
TOGGLE_API int toggle_solution_radix(const toggle_solution *solution, size_t index,
                                     uint64_t *radix);

/** Write a uniformly random solution (n values) into x: each coefficient
 *  c_i is drawn uniformly from 0 .. r_i - 1 with rng.
 *  @param solution  a solution from toggle_solve() (borrowed)
 *  @param rng       the generator to draw from (toggle_rng_new(), space.h)
 *  @param x         receives the solution
 *  @param len       entries of x
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_EBUFSIZE (len < n),
 *          TOGGLE_ENOSOLUTION (unsolvable), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_solution_sample(const toggle_solution *solution, toggle_rng *rng,
                                      uint64_t *x, size_t len);

/* ---- grids (see grid.h) -------------------------------------------------- */

/** Copy entries [offset, offset + len) of the particular solution of a
 *  modulus-2 system as packed bits: entry offset + i goes to bit (i % 64)
 *  of words[i / 64]; bits past len in the last word are set to 0. Reads one
 *  row of a 10,000 x 10,000 board (offset = row * cols, len = cols) without
 *  unpacking the board.
 *  @param solution  the solution (borrowed)
 *  @param offset    first entry
 *  @param len       number of entries
 *  @param words     caller buffer of nwords words
 *  @param nwords    at least (len + 63) / 64
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_EUNSUPPORTED (modulus is
 *          not 2), TOGGLE_ENOSOLUTION (unsolvable), TOGGLE_ERANGE (range past
 *          the solution), TOGGLE_EBUFSIZE (nwords too small). */
TOGGLE_API int toggle_solution_particular_packed(const toggle_solution *solution, size_t offset,
                                                 size_t len, uint64_t *words, size_t nwords);

/** Copy entries [offset, offset + len) of kernel basis vector `index` of a
 *  modulus-2 system as packed bits, in the layout of
 *  toggle_solution_particular_packed: entry offset + i goes to bit (i % 64)
 *  of words[i / 64]; bits past len in the last word are set to 0. (1.1)
 *  @param solution  the solution (borrowed)
 *  @param index     kernel vector, below toggle_solution_nullity()
 *  @param offset    first entry
 *  @param len       number of entries
 *  @param words     caller buffer of nwords words
 *  @param nwords    at least (len + 63) / 64
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_EUNSUPPORTED (modulus is
 *          not 2), TOGGLE_ERANGE (index >= nullity, or range past the
 *          vector), TOGGLE_EBUFSIZE (nwords too small). */
TOGGLE_API int toggle_solution_kernel_packed(const toggle_solution *solution, size_t index,
                                             size_t offset, size_t len, uint64_t *words,
                                             size_t nwords);

/* ---- symmetry (see symmetry.h) ------------------------------------------- */

/** Count the solutions of a solved rows x cols board up to a group of
 *  symmetries (the number of orbits, by Burnside's lemma: the average over
 *  the group of the number of solutions each symmetry fixes). For the
 *  all-off to all-on game on an n x n board and group TOGGLE_SYM_ALL this is
 *  OEIS A075463 over F_2.
 *  @param solution  a solution from toggle_solve() of a system with
 *                   rows * cols unknowns and a prime modulus (borrowed)
 *  @param rows      rows of the board
 *  @param cols      columns of the board
 *  @param group     a subgroup of the shape's symmetries (a mask that
 *                   toggle_symmetry_name() names); the solution set must be
 *                   mapped onto itself by each of its symmetries
 *  @param orbits    receives the count (0 when the system is unsolvable)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL argument, rows * cols != the
 *          number of unknowns, group not a subgroup or not a symmetry of the
 *          shape, solution set not invariant under the group),
 *          TOGGLE_EUNSUPPORTED (composite modulus), TOGGLE_EOVERFLOW (the
 *          count does not fit in 64 bits), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_solution_count_orbits(const toggle_solution *solution, size_t rows,
                                            size_t cols, uint32_t group, uint64_t *orbits);

#ifdef __cplusplus
}
#endif
#endif
