/* libtoggle: augmented systems [A | b] over Z/kZ, their options and text forms. */
#ifndef TOGGLE_SYSTEM_H
#define TOGGLE_SYSTEM_H

#include "common.h"
#include "graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file system.h
 *  @brief Augmented systems A x = b over Z/kZ.
 *
 *  A system built from a graph has b = target - start and keeps a reference
 *  to the graph (so grid systems stay small). A system built from a matrix
 *  or parsed from text stores A itself; it may have m != n. */

/** Opaque handle to an augmented system. */
typedef struct toggle_system toggle_system;

/** Engines (values of TOGGLE_SYSTEM_OPT_ENGINE). */
enum {
    TOGGLE_ENGINE_AUTO = 0,    /**< let toggle_solve() choose (the default) */
    TOGGLE_ENGINE_FLINT = 1,   /**< dense elimination with FLINT's nmod_mat, prime k */
    TOGGLE_ENGINE_GF2 = 2,     /**< bit-packed elimination, k = 2 */
    TOGGLE_ENGINE_CHASE = 3,   /**< light chasing on grids */
    TOGGLE_ENGINE_HOWELL = 4,  /**< composite k: Howell form / CRT */
    TOGGLE_ENGINE_BLAS = 5,    /**< dense elimination through a BLAS, prime
                                    k < 2^26 (builds with -Dblas; 1.1) */
    TOGGLE_ENGINE_TRANSFER = 6, /**< chasing on every lattice, wrap and stencil,
                                     prime k (1.1) */
    TOGGLE_ENGINE_DENSE = 7     /**< plain-C dense Gauss-Jordan, prime k: serves primes
                                     in builds without FLINT, else only when forced
                                     (1.1) */
};

/** Option keys of a system: toggle_system_set_option() and
 *  toggle_system_get_option(). The keys of the three keyed handles never
 *  share a value with a different meaning: a search's keys
 *  (TOGGLE_SEARCH_OPT_*) and a generator's (TOGGLE_GENERATOR_OPT_*) are in
 *  space.h, and giving one handle another's key fails with TOGGLE_EINVAL and
 *  a message naming the key and the handle it belongs to. */
enum {
    TOGGLE_SYSTEM_OPT_ENGINE = 1,         /**< a TOGGLE_ENGINE_* value; default AUTO */
    TOGGLE_SYSTEM_OPT_MEMORY_BUDGET = 2,  /**< bytes the solver may allocate; default
                                               TOGGLE_DEFAULT_MEMORY_BUDGET; 0 = unlimited */
    TOGGLE_SYSTEM_OPT_SEARCH_LIMIT = 3,   /**< solutions a fewest-press search may visit:
                                               the default of toggle_search handles made
                                               from this system's solutions and of its
                                               generators; default 2^32; 0 = unlimited
                                               (kept, and read back, as UINT64_MAX) */
    TOGGLE_SYSTEM_OPT_THREADS = 10        /**< threads an engine (and a search made
                                               from this system's solutions) may use:
                                               default 1; 0 = one per online
                                               processor. Answers never depend on
                                               it. (1.1) */
};

/** The option keys of 1.0, one list for the three keyed handles. Deprecated
 *  (in the documentation only: no compiler warning) in favour of the
 *  per-handle names, which have the same values; these names stay, with
 *  these values, for good. */
enum {
    TOGGLE_OPT_ENGINE = 1,         /**< = TOGGLE_SYSTEM_OPT_ENGINE */
    TOGGLE_OPT_MEMORY_BUDGET = 2,  /**< = TOGGLE_SYSTEM_OPT_MEMORY_BUDGET */
    TOGGLE_OPT_SEARCH_LIMIT = 3,   /**< = TOGGLE_SYSTEM_OPT_SEARCH_LIMIT, and also
                                        TOGGLE_SEARCH_OPT_SEARCH_LIMIT and
                                        TOGGLE_GENERATOR_OPT_SEARCH_LIMIT */
    TOGGLE_OPT_METRIC = 4,         /**< = TOGGLE_SEARCH_OPT_METRIC and
                                        TOGGLE_GENERATOR_OPT_METRIC */
    TOGGLE_OPT_SEED = 5,           /**< = TOGGLE_GENERATOR_OPT_SEED */
    TOGGLE_OPT_UNIQUE = 6,         /**< = TOGGLE_GENERATOR_OPT_UNIQUE */
    TOGGLE_OPT_PRESSES = 7,        /**< = TOGGLE_GENERATOR_OPT_PRESSES */
    TOGGLE_OPT_LIT = 8,            /**< = TOGGLE_GENERATOR_OPT_LIT */
    TOGGLE_OPT_ATTEMPTS = 9,       /**< = TOGGLE_GENERATOR_OPT_ATTEMPTS */
    TOGGLE_OPT_THREADS = 10        /**< = TOGGLE_SYSTEM_OPT_THREADS (1.1) */
};

/** Default memory budget: 4 GiB. */
#define TOGGLE_DEFAULT_MEMORY_BUDGET ((uint64_t)4 << 30)

/** Largest supported modulus. */
#define TOGGLE_MAX_MODULUS ((uint64_t)INT64_MAX)

/** Build the system of the game on a graph: A x = target - start (mod k).
 *  @param out      receives the system (free with toggle_system_free())
 *  @param graph    the graph; the system takes its own reference
 *  @param modulus  k, 2 <= k <= TOGGLE_MAX_MODULUS
 *  @param start    N values < k, or NULL for all 0
 *  @param target   N values < k, or NULL for all 1
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL out or graph, k < 2),
 *          TOGGLE_ERANGE (k too large, a value >= k), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_system_new(toggle_system **out, const toggle_graph *graph,
                                 uint64_t modulus, const uint64_t *start,
                                 const uint64_t *target);

/** Build a system from an m x n matrix (row-major, a[i * n + j]) and a
 *  right-hand side b of m values, all < k. m or n may be 0.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL pointer with a nonzero size, k < 2),
 *          TOGGLE_ERANGE (k too large, an entry >= k), TOGGLE_EOVERFLOW,
 *          TOGGLE_ENOMEM. */
TOGGLE_API int toggle_system_new_matrix(toggle_system **out, size_t m, size_t n,
                                        const uint64_t *a, const uint64_t *b,
                                        uint64_t modulus);

/** Build a modulus-2 system from packed bit rows, 64 entries to a word:
 *  entry A[i][j] is bit (j % 64) (bit 0 = least significant) of word
 *  a[i * a_stride + j / 64], so row i starts at word i * a_stride and
 *  needs (n + 63) / 64 words; b[i] is bit (i % 64) of b[i / 64]. Padding
 *  bits (columns >= n in a row's last word, words of the stride past the
 *  row, bits >= m in b's last word) are ignored, whatever they hold. The
 *  rows are copied (the caller keeps a and b); the system holds A at one
 *  bit per entry, so a 32768 x 32768 system takes 128 MiB instead of
 *  toggle_system_new_matrix's 8 GiB of input.
 *  @param out       receives the new system
 *  @param m         number of equations (rows)
 *  @param n         number of unknowns (columns)
 *  @param a         packed rows of A (may be NULL when m or n is 0)
 *  @param a_stride  words from one row of a to the next, at least (n + 63) / 64
 *  @param b         packed right-hand side, (m + 63) / 64 words (may be NULL when m is 0)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL out, a or b; a_stride too small),
 *          TOGGLE_EOVERFLOW (size overflows size_t), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_system_new_packed(toggle_system **out, size_t m, size_t n,
                                        const uint64_t *a, size_t a_stride, const uint64_t *b);

/** Parse the augmented text format: one equation per line, the entries of
 *  A then '|' then the right-hand side. For k <= 10 entries are single digits
 *  with no separator (spaces between them are allowed); for k > 10 they are
 *  separated by white space. '#' starts a comment; blank lines are ignored.
 *  Every line must have the same number of entries.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EPARSE (with line and column in
 *          toggle_last_error()), TOGGLE_ERANGE (entry >= k), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_system_parse(toggle_system **out, const char *text, size_t len,
                                   uint64_t modulus);

/** Write the augmented text format into buf (NUL-terminated). A system with
 *  no equations writes as empty text, which reads back as 0 x 0: the format
 *  has no line to carry the number of unknowns.
 *  @param system  the system
 *  @param buf     caller buffer of len bytes (may be NULL when len is 0)
 *  @param len     size of buf in bytes
 *  @param needed  receives the size needed, NUL included (may be NULL)
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EBUFSIZE (buf too small and
 *          left untouched: *needed says how much), TOGGLE_EOVERFLOW (the text
 *          would be longer than SIZE_MAX bytes), TOGGLE_ENOMEM (the column
 *          buffer of a graph). */
TOGGLE_API int toggle_system_write(const toggle_system *system, char *buf, size_t len,
                                   size_t *needed);

/** Free a system. NULL is a no-op. */
TOGGLE_API void toggle_system_free(toggle_system *system);

/** Number of equations m (0 for NULL). */
TOGGLE_API size_t toggle_system_rows(const toggle_system *system);

/** Number of unknowns n (0 for NULL). */
TOGGLE_API size_t toggle_system_cols(const toggle_system *system);

/** The modulus k (0 for NULL). */
TOGGLE_API uint64_t toggle_system_modulus(const toggle_system *system);

/** The graph the system was built from, borrowed, or NULL. */
TOGGLE_API const toggle_graph *toggle_system_graph(const toggle_system *system);

/** Entry A[i][j], reduced modulo k.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_ERANGE (index out of range). */
TOGGLE_API int toggle_system_entry(const toggle_system *system, size_t i, size_t j,
                                   uint64_t *value);

/** Right-hand side b[i].
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_ERANGE. */
TOGGLE_API int toggle_system_rhs(const toggle_system *system, size_t i, uint64_t *value);

/** Set an option (a TOGGLE_SYSTEM_OPT_* key).
 *  @param system  the system
 *  @param key     TOGGLE_SYSTEM_OPT_ENGINE, _MEMORY_BUDGET or _SEARCH_LIMIT
 *  @param value   the value (see the keys)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, unknown key or a key of another
 *          handle, bad value). */
TOGGLE_API int toggle_system_set_option(toggle_system *system, int key, uint64_t value);

/** Read an option (a TOGGLE_SYSTEM_OPT_* key).
 *  @param system  the system
 *  @param key     TOGGLE_SYSTEM_OPT_ENGINE, _MEMORY_BUDGET or _SEARCH_LIMIT
 *  @param value   receives the value (a search limit set to 0 reads as
 *                 UINT64_MAX)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, unknown key or a key of another
 *          handle). */
TOGGLE_API int toggle_system_get_option(const toggle_system *system, int key,
                                        uint64_t *value);

/** A progress callback (1.1): receives the payload given to
 *  toggle_system_set_progress and the fraction of the current stage done
 *  (0 to 1; a solve has stages, elimination then certificate, and a
 *  fewest-press search is one, so the fraction may start again from 0).
 *  Return 0 to go on, anything else to cancel: the call then returns
 *  TOGGLE_ECANCELED and leaves the caller's outputs untouched. It is called
 *  on the thread that called the library, at most about 20 times a second
 *  (the first report of a call always reaches it), and must not call
 *  libtoggle on the handle it reports on. */
typedef int (*toggle_progress_fn)(void *payload, double fraction);

/** Report the progress of long work on this system (1.1): toggle_solve,
 *  and searches and generators made from it or its solutions, call
 *  callback with payload. The gf2, Howell and chase engines report per
 *  block of pivots or rows; the FLINT engine before and after FLINT's
 *  elimination, which itself cannot be interrupted (docs/api.md).
 *  @param system    the system
 *  @param callback  the callback, or NULL to remove it
 *  @param payload   passed to callback unchanged (may be NULL)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (system NULL). */
TOGGLE_API int toggle_system_set_progress(toggle_system *system, toggle_progress_fn callback,
                                          void *payload);

/** Check a press vector without any elimination: apply the presses x (n
 *  values < k) to the system and compare A x with b.
 *  @param system  the system
 *  @param x       the presses, len values
 *  @param len     must be n, the number of unknowns
 *  @param solves  receives 1 if A x = b (mod k), else 0
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, len != n), TOGGLE_ERANGE (value >= k). */
TOGGLE_API int toggle_system_check(const toggle_system *system, const uint64_t *x,
                                   size_t len, int *solves);

/** Check a certificate of unsolvability: y (m values < k) with y A = 0 and
 *  y . b != 0 (mod k).
 *  @param system  the system
 *  @param y       the certificate, len values
 *  @param len     must be m, the number of equations
 *  @param valid   receives 1 if y proves A x = b has no solution, else 0
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_ERANGE. */
TOGGLE_API int toggle_system_check_certificate(const toggle_system *system,
                                               const uint64_t *y, size_t len, int *valid);

/** Name of an engine ("auto", "flint", "gf2", "chase", "howell", "blas"), or NULL. */
TOGGLE_API const char *toggle_engine_name(int engine);

/** Look up an engine by name.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL or unknown name). */
TOGGLE_API int toggle_engine_from_name(const char *name, int *engine);

/** Parse a board: one line per grid row, one value per cell (single digits
 *  without separators when k <= 10, else white-space separated; '.' reads
 *  as 0). '#' comments and blank lines are ignored. Values go to cells
 *  (row-major) when cap is large enough.
 *  @param text     the text, len bytes (need not be NUL-terminated)
 *  @param len      length of text in bytes
 *  @param modulus  k; every value must be < k
 *  @param cells    receives rows * cols values (may be NULL when cap is 0)
 *  @param cap      capacity of cells
 *  @param rows, cols  receive the shape
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EPARSE (ragged rows, bad
 *          character), TOGGLE_ERANGE (value >= k), TOGGLE_EBUFSIZE (cap <
 *          rows * cols; the shape is still reported). */
TOGGLE_API int toggle_board_parse(const char *text, size_t len, uint64_t modulus,
                                  uint64_t *cells, size_t cap, size_t *rows, size_t *cols);

/** Format a board in the form toggle_board_parse() reads (NUL-terminated).
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_ERANGE (value >= k),
 *          TOGGLE_EBUFSIZE (buf too small and left untouched: *needed says
 *          how much), TOGGLE_EOVERFLOW (text longer than SIZE_MAX bytes). */
TOGGLE_API int toggle_board_format(const uint64_t *cells, size_t rows, size_t cols,
                                   uint64_t modulus, char *buf, size_t len, size_t *needed);

#ifdef __cplusplus
}
#endif
#endif
