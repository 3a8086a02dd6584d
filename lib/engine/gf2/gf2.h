/* Internal interface of the packed GF(2) engine (lib/engine/gf2), shared with its tests. */
#ifndef TOGGLE_GF2_H
#define TOGGLE_GF2_H

#include <stddef.h>
#include <stdint.h>

/* Reduce the rows x cols bit matrix M to reduced row echelon form in place,
 * by Gauss-Jordan elimination with the Method of Four Russians. Row i is the
 * `stride` words at M + i * stride; column j is bit j % 64 of word j / 64.
 * Only the first (cols + 63) / 64 words of each of the first `rows` rows are
 * read or written; padding bits (columns >= cols in the last word) must be
 * zero on entry and are zero on return. pivots (rows entries, may be NULL
 * when rows == 0) receives the pivot column of each of the first *rank rows,
 * ascending. Workspace comes from toggle__malloc and is bounded by
 * toggle__gf2_workspace_bytes(rows, cols, NULL) bytes.
 * Returns TOGGLE_OK or TOGGLE_ENOMEM (then M holds a partially reduced
 * matrix with the same row space). */
int toggle__gf2_rref(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank);

/* How toggle__gf2_rref_cfg works (NULL = {1 thread, AUTO}). */
enum { TOGGLE__GF2_AUTO = 0, TOGGLE__GF2_PLAIN = 1, TOGGLE__GF2_BLOCKED = 2 };
typedef struct toggle__gf2_cfg {
    unsigned threads; /* threads for the row passes (0 or 1: the caller only); a pool is
                       * created for the call and joined before it returns */
    int mode;         /* AUTO: blocked from the tuned cutoff up, else plain; PLAIN: Four-Russians
                       * blocks only; BLOCKED: panels of `panel` words at every size */
    size_t panel;     /* BLOCKED: panel width in words, 1 .. 16 */
    unsigned fault;   /* tests only: 1 drops each panel's last pivot row from its update,
                       * 2 ends each panel's pivot search one column early */
    const struct toggle__progress_state *progress; /* reported once per pivot block of the
                                                    * plain elimination; NULL: none */
} toggle__gf2_cfg;

/* toggle__gf2_rref with a configuration: the same RREF for every cfg. */
int toggle__gf2_rref_cfg(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                         size_t *rank, const toggle__gf2_cfg *cfg);

/* Upper bound on the workspace toggle__gf2_rref_cfg allocates for this shape
 * and configuration (cfg may be NULL). */
uint64_t toggle__gf2_workspace_bytes(size_t rows, size_t cols, const toggle__gf2_cfg *cfg);

#endif
