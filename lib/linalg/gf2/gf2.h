/* The bit-packed GF(2) kernels (lib/linalg/gf2): elimination to reduced
 * row echelon form and matrix products. Internal (never installed); used
 * by the gf2 engine, other engines and the gf2 tests. Names no system or
 * solution: a matrix is words in memory. */
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
 * Returns TOGGLE_OK or TOGGLE_ENOMEM (then M's contents are unspecified:
 * the recursive form can stop between two products of one step, e.g. with
 * a panel's pivot rows transformed on some columns only; every caller
 * discards M on an error). */
int toggle__gf2_rref(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank);

/* How toggle__gf2_rref_cfg works (NULL = {1 thread, AUTO}). Value 2 is
 * retired (it named a form AUTO never took); it now means PLAIN. */
enum { TOGGLE__GF2_AUTO = 0, TOGGLE__GF2_PLAIN = 1, TOGGLE__GF2_RECURSIVE = 3,
       TOGGLE__GF2_RECURSIVE_DEEP = 4 };

/* Faults a test injects into one form (toggle__gf2_cfg.fault) to check
 * that its comparison would catch a wrong answer; each changes the RREF.
 * Values 1 and 2 are retired. 0: none (every caller but the tests). */
typedef enum toggle__gf2_fault {
    TOGGLE__GF2_FAULT_NONE = 0,
    /* RECURSIVE: each panel's last pivot is left out of the lower rows'
     * update by products */
    TOGGLE__GF2_FAULT_UPDATE = 3,
    /* RECURSIVE: each panel's last pivot is left out of the back
     * substitution's products */
    TOGGLE__GF2_FAULT_BACK = 4,
    /* RECURSIVE: a panel's pivot search takes its row prefix as the
     * panel's pivots even without full rank */
    TOGGLE__GF2_FAULT_PREFIX = 5,
    /* PLAIN on two threads, a full-rank banded square system (the
     * two-ended form): the middle system's first unknown is flipped */
    TOGGLE__GF2_FAULT_MIDDLE = 6,
} toggle__gf2_fault;

typedef struct toggle__gf2_cfg {
    unsigned threads; /* threads for the row passes (0 or 1: the caller only); a pool is
                       * created for the call and joined before it returns */
    int mode;         /* AUTO: the recursive form from the tuned sizes (lower, with
                       * panels scaled to the matrix, where products run on GFNI, and
                       * there plain on a sparse matrix), else plain (docs/gf2.md:
                       * the table); PLAIN: Four-Russians blocks only; RECURSIVE:
                       * panels of `panel` words (0: tuned) updated by products
                       * (toggle__gf2_mul), their own elimination recursing on half
                       * panels, at every size; RECURSIVE_DEEP (tests): RECURSIVE whose
                       * panels' pivot searches recurse as on CPUs without GFNI */
    size_t panel;     /* RECURSIVE: panel width in words, 0 = tuned */
    unsigned fault;   /* tests only: a toggle__gf2_fault; 0 otherwise */
    const struct toggle__progress_state *progress; /* reported once per pivot block of the
                                                    * plain elimination; NULL: none */
} toggle__gf2_cfg;

/* toggle__gf2_rref with a configuration: the same RREF for every cfg. */
int toggle__gf2_rref_cfg(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                         size_t *rank, const toggle__gf2_cfg *cfg);

/* toggle__gf2_rref_cfg given each row's bounds in M as the call finds it,
 * so that the plain form does not read every row for them (the two-ended
 * form, which times its shares on that read, still reads): lead[i] its
 * first nonzero word if one comes before the last word (W - 1), else any
 * value from W - 1 on (the last word is then read); ext[i] 1 + its last
 * nonzero word before the last word (0: none). lead and ext may be NULL
 * (then M is read). */
int toggle__gf2_rref_rows(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                          size_t *rank, const toggle__gf2_cfg *cfg, const size_t *lead,
                          const size_t *ext);

/* Upper bound on the workspace toggle__gf2_rref_cfg allocates for this shape
 * and configuration (cfg may be NULL). */
uint64_t toggle__gf2_workspace_bytes(size_t rows, size_t cols, const toggle__gf2_cfg *cfg);

/* A packed bit matrix view: row i is the words at p + i * stride, column j
 * bit j % 64 of word j / 64 (views start on a word). */
typedef struct toggle__gf2_view {
    uint64_t *p;
    size_t rows, cols, stride;
} toggle__gf2_view;

/* C += A * B over GF(2) (gf2_mul.c): A is rows x cols of A (bits past
 * A.cols are ignored), B is A.cols x B.cols, C is A.rows x B.cols; the
 * first words_for(B.cols) words of each row of C are written, so B's
 * padding bits must be zero. C must not overlap A or B. Strassen-Winograd
 * once all three dimensions reach 2 * cutoff bits (0: the tuned cutoff,
 * SIZE_MAX: the base case only), the base case GFNI where the CPU has it,
 * else Four Russians; output tiles are dealt to the pool's threads (NULL:
 * the caller alone). fault (tests only, flags): DROP_P7 drops one
 * Winograd product, M4RM takes the Four-Russians base case on every CPU.
 * Workspace at most toggle__gf2_mul_bytes; with a pool, taken from its
 * scratch blocks, which stay allocated (grown to the largest product's)
 * until toggle__pool_free. Returns TOGGLE_OK or
 * TOGGLE_ENOMEM (C unchanged). */
enum { TOGGLE__GF2_MUL_DROP_P7 = 1, TOGGLE__GF2_MUL_M4RM = 2 };
struct toggle__pool;
int toggle__gf2_mul(toggle__gf2_view C, toggle__gf2_view A, toggle__gf2_view B, size_t cutoff,
                    unsigned fault, struct toggle__pool *pool);
uint64_t toggle__gf2_mul_bytes(size_t m, size_t k, size_t n, unsigned threads, size_t cutoff);

/* The same product as a job whose tiles the pool's threads take inside a
 * job of theirs that also does other work: begin takes the workspace of
 * each of the pool's threads (*out NULL: nothing to compute); threads
 * 0 .. toggle__pool_threads(pool) - 1 each call toggle__gf2_mul_tiles at
 * most once, and every tile is computed once one of them has called it and
 * all calls have returned (a thread that comes late takes what is left);
 * end, after that, gives the workspace back. Both products take the
 * workspace from the pool's scratch (toggle__pool_take) when it is free,
 * else allocate it. Returns TOGGLE_OK or TOGGLE_ENOMEM. */
typedef struct toggle__gf2_mul_job toggle__gf2_mul_job;
int toggle__gf2_mul_begin(toggle__gf2_mul_job **out, toggle__gf2_view C, toggle__gf2_view A,
                          toggle__gf2_view B, size_t cutoff, unsigned fault,
                          struct toggle__pool *pool);
void toggle__gf2_mul_tiles(toggle__gf2_mul_job *j, unsigned t);
void toggle__gf2_mul_end(toggle__gf2_mul_job *j);

#endif
