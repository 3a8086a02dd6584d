/* libtoggle internals shared across lib/: object layouts, errors, allocation,
 * budgets, vector storage and the engine interface. Never installed. */
#ifndef TOGGLE_INTERNAL_H
#define TOGGLE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "toggle.h"

#if defined(__GNUC__)
#define TOGGLE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TOGGLE_PRINTF(a, b)
#endif

/* ---- errors (lib/core/error.c) ---------------------------------------- */

/* Record a message for toggle_last_error() and return status, so that
 * `return toggle__error(TOGGLE_EINVAL, "...")` reads naturally. */
int toggle__error(int status, const char *fmt, ...) TOGGLE_PRINTF(2, 3);

/* ---- allocation (lib/core/alloc.c) ------------------------------------ */
/* Every allocation of the library's own goes through these, so that tests
 * can inject failures (toggle__alloc_fail_* below). They set no message;
 * callers report TOGGLE_ENOMEM themselves. */
void *toggle__malloc(size_t size);
void *toggle__calloc(size_t count, size_t size);
void *toggle__realloc(void *ptr, size_t size);
void toggle__free(void *ptr);
/* Allocate count * size bytes, checking the product; NULL on overflow. */
void *toggle__malloc_array(size_t count, size_t size);

/* Test hooks (thread-local): fail the nth allocation from now (n >= 1),
 * once or for every later call too; 0 disables. Returns calls counted. */
void toggle__alloc_fail_at(uint64_t nth, bool sticky);
uint64_t toggle__alloc_calls(void);

/* ---- checked arithmetic (lib/core/util.c) ------------------------------ */
bool toggle__mul_ok(size_t a, size_t b, size_t *out);
bool toggle__add_ok(size_t a, size_t b, size_t *out);
bool toggle__is_prime(uint64_t k);
uint64_t toggle__mulmod(uint64_t a, uint64_t b, uint64_t k);
uint64_t toggle__addmod(uint64_t a, uint64_t b, uint64_t k);
uint64_t toggle__submod(uint64_t a, uint64_t b, uint64_t k);
uint64_t toggle__invmod(uint64_t a, uint64_t k); /* 0 if not invertible */

/* ---- vector storage (lib/core/vecs.c) ---------------------------------- */
/* `count` vectors of `len` entries modulo k, each entry in the narrowest
 * width that holds k - 1: 1 bit for k = 2 (bit j of word j / 64 is entry j),
 * else 8, 16, 32 or 64 bits, little-endian within the words. Padding is zero
 * and each vector starts on its own word. Narrow entries keep a large board's
 * answer (and its kernel basis) 8x smaller than a word per entry. */
typedef struct toggle__vecs {
    size_t len, count, stride; /* stride: words per vector */
    unsigned width;            /* bits per entry: 1, 8, 16, 32 or 64 */
    bool packed;               /* width == 1 */
    uint64_t *data;
} toggle__vecs;

unsigned toggle__vecs_width(uint64_t k);
size_t toggle__vecs_stride(size_t len, uint64_t k);
/* Bytes needed for count vectors; false on overflow. */
bool toggle__vecs_bytes(size_t len, size_t count, uint64_t k, size_t *bytes);
int toggle__vecs_init(toggle__vecs *v, size_t len, size_t count, uint64_t k);
void toggle__vecs_clear(toggle__vecs *v);
static inline uint64_t *toggle__vecs_row(const toggle__vecs *v, size_t i)
{
    return v->data + i * v->stride;
}
static inline uint64_t toggle__vecs_get(const toggle__vecs *v, size_t i, size_t j)
{
    const uint64_t *r = toggle__vecs_row(v, i);
    switch (v->width) {
    case 1: return (r[j >> 6] >> (j & 63)) & 1u;
    case 8: return ((const uint8_t *)r)[j];
    case 16: return ((const uint16_t *)r)[j];
    case 32: return ((const uint32_t *)r)[j];
    default: return r[j];
    }
}
static inline void toggle__vecs_set(toggle__vecs *v, size_t i, size_t j, uint64_t x)
{
    uint64_t *r = toggle__vecs_row(v, i);
    switch (v->width) {
    case 1: {
        uint64_t bit = (uint64_t)1 << (j & 63);
        r[j >> 6] = x ? (r[j >> 6] | bit) : (r[j >> 6] & ~bit);
        break;
    }
    case 8: ((uint8_t *)r)[j] = (uint8_t)x; break;
    case 16: ((uint16_t *)r)[j] = (uint16_t)x; break;
    case 32: ((uint32_t *)r)[j] = (uint32_t)x; break;
    default: r[j] = x; break;
    }
}

/* ---- graphs (lib/graph) ------------------------------------------------ */
struct toggle_graph {
    atomic_size_t refs;
    int kind;
    uint32_t flags;
    size_t n, rows, cols;
    /* GRID and STENCIL: pressing (r, c) adds w[s] to (r + dr[s], c + dc[s]).
     * For GRID the offsets are distinct after wrapping (a set). */
    size_t nst;
    int64_t *dr, *dc;
    uint64_t *w;
    /* MATRIX: column j's nonzeros are rowidx/val[colptr[j] .. colptr[j+1]). */
    size_t *colptr, *rowidx;
    uint64_t *val;
};

/* Largest number of nonzeros in one column of A. */
size_t toggle__graph_max_column(const toggle_graph *g);
/* Nonzeros of column j (cells changed by pressing j), duplicates merged,
 * unreduced weights, in ascending cell order. idx/val hold at least
 * toggle__graph_max_column(g) entries. Returns the count. */
size_t toggle__graph_column(const toggle_graph *g, size_t j, size_t *idx, uint64_t *val);
toggle_graph *toggle__graph_ref(const toggle_graph *g);

/* A buffer large enough for any column of a graph (toggle__graph_column). */
typedef struct toggle__colbuf {
    size_t *idx;
    uint64_t *val;
} toggle__colbuf;
/* TOGGLE_OK, or TOGGLE_ENOMEM with a message (nothing left allocated). */
int toggle__colbuf_init(toggle__colbuf *cb, const toggle_graph *g);
void toggle__colbuf_clear(toggle__colbuf *cb);

/* ---- systems (lib/system) ---------------------------------------------- */
struct toggle_system {
    size_t m, n;
    uint64_t k;
    toggle_graph *graph; /* set when built from a graph (then m == n) */
    toggle__vecs a;      /* dense rows of A (count m, len n) when graph == NULL */
    toggle__vecs b;      /* the right-hand side: one vector of m values */
    int engine;
    uint64_t budget;       /* 0 = unlimited */
    uint64_t search_limit;
};

/* b[i] (no bounds check). */
static inline uint64_t toggle__rhs(const toggle_system *s, size_t i)
{
    return toggle__vecs_get(&s->b, 0, i);
}
/* A[i][j] reduced mod k (no bounds check). */
uint64_t toggle__system_get(const toggle_system *s, size_t i, size_t j);
/* Fail with TOGGLE_ENOMEM if bytes exceeds the system's budget. */
int toggle__budget_check(const toggle_system *s, uint64_t bytes, const char *what);

/* ---- solutions (lib/system/solution.c) ---------------------------------- */
struct toggle_solution {
    size_t m, n;
    uint64_t k;
    int engine;
    bool solvable;
    size_t nullity;
    toggle__vecs x;      /* 1 vector of n (when solvable) */
    toggle__vecs kernel; /* nullity vectors of n */
    toggle__vecs cert;   /* 1 vector of m (when unsolvable and a certificate exists) */
    uint64_t search_limit; /* the system's TOGGLE_OPT_SEARCH_LIMIT: default of searches */
    char *count;         /* exact count as decimal, set by engines for composite k;
                            NULL means k^nullity (or 0 when unsolvable) */
    void *extra;         /* engine-specific data (freed by extra_free) */
    void (*extra_free)(void *);
};

/* Allocate an empty solution shell for s (no vectors yet). */
int toggle__solution_new(toggle_solution **out, const toggle_system *s, int engine);

/* ---- engines (lib/engine) ---------------------------------------------- */
typedef struct toggle__engine {
    int id;
    const char *name;
    /* TOGGLE_OK if the engine can solve s, else TOGGLE_EUNSUPPORTED with a
     * message saying why. */
    int (*supports)(const toggle_system *s);
    /* Peak bytes the engine will allocate for s (for the budget). */
    int (*estimate)(const toggle_system *s, uint64_t *bytes);
    /* Fill sol (shell from toggle__solution_new): solvable, nullity, x,
     * kernel and cert, following the canonical rules of solution.h. */
    int (*solve)(const toggle_system *s, toggle_solution *sol);
} toggle__engine;

extern const toggle__engine toggle__engine_flint;
extern const toggle__engine toggle__engine_gf2;
extern const toggle__engine toggle__engine_chase;
extern const toggle__engine toggle__engine_howell;

/* The engine table, and the one AUTO picks for s. */
const toggle__engine *toggle__engine_get(int id);
const toggle__engine *toggle__engine_pick(const toggle_system *s);

/* Certificate helper for elimination engines: solve A^T y = 0, b.y = 1 with
 * `engine` on an (n + 1) x m system and store y in sol->cert. */
int toggle__certificate_by_transpose(const toggle_system *s, const toggle__engine *engine,
                                     toggle_solution *sol);

#endif
