/* lib/system: the layout of toggle_system, the one walk over A's entries
 * that every engine and check uses, the transposed system for
 * certificates, and the memory budget. Never installed. */
#ifndef TOGGLE_SYSTEM_INTERNAL_H
#define TOGGLE_SYSTEM_INTERNAL_H

#include <stdatomic.h>
#include "graph/graph_internal.h"

struct toggle_system {
    size_t m, n;
    uint64_t k;
    toggle_graph *graph; /* set when built from a graph (then m == n) */
    toggle__vecs a;      /* dense rows of A (count m, len n) when graph == NULL */
    toggle__vecs b;      /* the right-hand side: one vector of m values */
    int engine;
    uint64_t budget;       /* 0 = unlimited */
    uint64_t search_limit;
    unsigned threads;      /* TOGGLE_SYSTEM_OPT_THREADS: 0 = one per online processor */
    toggle__progress_state progress; /* toggle_system_set_progress */
    /* A shape without entries (toggle__system_init_shape, for estimates):
     * 1 + a known bound on its nullity, or 0 when none is known. */
    size_t nullity_hint;
    /* Retained memory: the gf2 engine's [A | b] block from the last solve
     * (at most TOGGLE__SPARE_MAX_BYTES), kept for the next one
     * (toggle__system_take_words / give_words); NULL when none. It is a
     * cache, not part of the system's value: a const system's solves
     * exchange it atomically (concurrent solves each get their own block),
     * and toggle__system_release_words frees it (toggle_system_free does). */
    _Atomic(uint64_t *) spare;
    /* 1 + the bound on A's nullity the readout's estimate found
     * (lib/engine/readout.c), kept for the next solve (A never changes
     * after the system is built); 0 until then. */
    _Atomic size_t nullity_bound;
};

/* A block of `words` words for a solve's work matrix: the system's spare
 * from its last solve when that is big enough (its words as that solve
 * left them: *zeroed false, unless it gave back at least `words` words
 * zeroed), else a new one of zeros (*zeroed true); NULL when out of
 * memory. The caller writes every word it reads (a zeroing
 * pass before a scattered fill would take each line from memory twice).
 * Freed by toggle__system_give_words only. */
uint64_t *toggle__system_take_words(const toggle_system *s, size_t words, bool *zeroed);
/* The block back, its first `zeros` words zero: kept as the system's
 * spare when it is at most TOGGLE__SPARE_MAX_BYTES (freed, it could go
 * back to the system when glibc trims the heap, and the next solve would
 * fault every page in again), else freed. */
void toggle__system_give_words(const toggle_system *s, uint64_t *block, size_t zeros);
/* Frees the retained spare block, if any (the system stays usable: the
 * next solve allocates a new one). */
void toggle__system_release_words(const toggle_system *s);
/* A block's three header words, before its words (which start on a
 * 64-byte boundary): the offset back to its allocation, its capacity, and
 * how many of its leading words are known to be zero. */
#define TOGGLE__SPARE_HEAD 3
#define TOGGLE__SPARE_ZEROS(block) ((block)[-1])
#define TOGGLE__SPARE_MAX_BYTES ((size_t)16 << 20)

/* Most threads TOGGLE_SYSTEM_OPT_THREADS accepts. */
#define TOGGLE__MAX_THREADS 1024u

/* The threads an engine should use for s: the option, with 0 resolved to
 * the online processors (at least 1, at most TOGGLE__MAX_THREADS). */
unsigned toggle__system_threads(const toggle_system *s);
/* The same for a thread option value t (0 = the online processors). */
unsigned toggle__threads_resolve(unsigned t);
/* TOGGLE_EINVAL with a message when value is more threads than allowed. */
int toggle__threads_check(uint64_t value);

/* A modulus-2 m x n system whose A is `rows` (m rows of (n + 63) / 64
 * words, padding bits zero), adopted: freed with the system, or here on
 * failure (rows may be NULL when m or n is 0). b: m bits packed
 * (b_packed) or m values (only bit 0 read). */
int toggle__system_adopt_packed(toggle_system **out, size_t m, size_t n, uint64_t *rows,
                                const uint64_t *b, bool b_packed);

/* An m x n system over Z/kZ (k checked by the caller) with A and b zero,
 * dense rows: an internal caller writes the entries (each below k) through
 * toggle__vecs_row / toggle__vecs_set of s->a and s->b. */
int toggle__system_new_zero(toggle_system **out, size_t m, size_t n, uint64_t k);

/* b[i] (no bounds check). */
static inline uint64_t toggle__rhs(const toggle_system *s, size_t i)
{
    return toggle__vecs_get(&s->b, 0, i);
}
/* A[i][j] reduced mod k (no bounds check). */
uint64_t toggle__system_get(const toggle_system *s, size_t i, size_t j);
/* Fail with TOGGLE_ENOMEM if bytes exceeds the system's budget. */
int toggle__budget_check(const toggle_system *s, uint64_t bytes, const char *what);
/* The same against a budget carried by a derived handle (0 = unlimited):
 * the one refusal message, naming the need, the budget and the option. */
int toggle__budget_check_bytes(uint64_t budget, uint64_t bytes, const char *what);

/* The one walk over A: fn(ctx, i, j, v) for every nonzero A[i][j] = v
 * (reduced mod k), column by column for a graph (rows ascending within a
 * column), row by row for dense rows. TOGGLE_OK or TOGGLE_ENOMEM (the
 * column buffer of a graph). */
typedef void (*toggle__entry_fn)(void *ctx, size_t i, size_t j, uint64_t v);
int toggle__system_each_entry(const toggle_system *s, toggle__entry_fn fn, void *ctx);
/* The same walk over a graph's columns [lo, hi) only, with the caller's
 * column buffer (toggle__colbuf_init): no allocation, so shares of a pool
 * can each walk their own columns (the graph is only read). */
void toggle__system_each_column_entry(const toggle_system *s, size_t lo, size_t hi,
                                      toggle__colbuf *cb, toggle__entry_fn fn, void *ctx);

/* A into a matrix of one word per entry, row-major with `stride` words a
 * row: M[(row0 + i) * stride + col0 + j] = A[i][j], or, with transpose,
 * M[(row0 + j) * stride + col0 + i] = A[i][j]. Only A's nonzeros are
 * written (M starts zeroed). TOGGLE_OK or TOGGLE_ENOMEM (as the walk). */
int toggle__system_put_words(const toggle_system *s, uint64_t *M, size_t stride, size_t row0,
                             size_t col0, bool transpose);

/* Is A symmetric (m == n and A = A^T)? Costs one walk over A. */
bool toggle__system_is_symmetric(const toggle_system *s);

/* Set every field of t for an m x n system modulo like->k with like's
 * options, and no entries (graph NULL, no rows): the shape engines
 * estimate. toggle__system_new_certificate builds on it. */
void toggle__system_init_shape(toggle_system *t, size_t m, size_t n, const toggle_system *like);

/* The certificate system of s: the (n + 1) x m system [A^T ; b^T] y =
 * [0 ; 1] as dense rows, every field set from s (modulus, budget, options),
 * engine `engine`. Its canonical particular solution is the canonical
 * certificate of s. */
int toggle__system_new_certificate(toggle_system **out, const toggle_system *s, int engine);

#endif
