/* lib/core: what every module of the library uses: error messages,
 * allocation, checked and modular arithmetic, and narrow vector storage.
 * Each module's own structs live in that module's header. Never installed. */
#ifndef TOGGLE_CORE_H
#define TOGGLE_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "toggle.h"

/* Hot loops that run at memory speed only with vectors wider than the
 * baseline ISA's: on x86-64 ELF builds they are built twice and the loader
 * picks the AVX2 (x86-64-v3) copy where the CPU has it (function
 * multiversioning, docs/design.md). Not under ThreadSanitizer: the clones'
 * resolvers run while the loader relocates the library, before the
 * sanitizer's runtime is up, and their instrumented entry crashes there. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TOGGLE__NO_CLONES 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TOGGLE__NO_CLONES 1
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__) && !defined(TOGGLE__NO_CLONES)
#define TOGGLE__HOT __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define TOGGLE__HOT
#endif

/* Kernels that want every vector unit, AVX-512 included, and a choice per
 * call: TOGGLE__CLONES(NAME, ARGS_T) compiles the body NAME_body(const
 * ARGS_T *) once per vector unit (NAME_generic, and on x86 NAME_avx2 and
 * NAME_avx512; its inline helpers inline into each), TOGGLE__PICK(NAME)
 * picks the widest one the CPU has (no global state; safe under TSan, no
 * resolver). TOGGLE__HOT is for plain functions of any signature. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define TOGGLE__CLONES(name, args_t)                                                 \
    static void name##_generic(const args_t *a) { name##_body(a); }                  \
    __attribute__((target("avx2"))) static void name##_avx2(const args_t *a)         \
    {                                                                                \
        name##_body(a);                                                              \
    }                                                                                \
    __attribute__((target("avx512f"))) static void name##_avx512(const args_t *a)    \
    {                                                                                \
        name##_body(a);                                                              \
    }
#define TOGGLE__PICK(name)                                                           \
    (__builtin_cpu_supports("avx512f") ? name##_avx512                                \
     : __builtin_cpu_supports("avx2")  ? name##_avx2                                  \
                                       : name##_generic)
#else
#define TOGGLE__CLONES(name, args_t) static void name##_generic(const args_t *a) { name##_body(a); }
#define TOGGLE__PICK(name) name##_generic
#endif

#if defined(__GNUC__)
#define TOGGLE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TOGGLE_PRINTF(a, b)
#endif

/* ---- errors (lib/core/error.c) ---------------------------------------- */

/* Record a message for toggle_last_error() and return status, so that
 * `return toggle__error(TOGGLE_EINVAL, "...")` reads naturally. */
int toggle__error(int status, const char *fmt, ...) TOGGLE_PRINTF(2, 3);
/* The one message for a caller's array that is too short: TOGGLE_EBUFSIZE,
 * "<name> has <len> entries, <holder> <need>" (holder: "solutions have",
 * "the board has", ...). */
int toggle__short_array(const char *name, size_t len, const char *holder, size_t need);

/* ---- progress and cancel (lib/core/progress.c) ------------------------ */
/* The monotonic clock in nanoseconds, never 0 (1 when it cannot be read). */
uint64_t toggle__clock_ns(void);

/* A handle's progress callback (toggle_system_set_progress) and its rate
 * limit. Copied from the system into its solutions, searches, generators
 * and derived systems (toggle__progress_copy). */
typedef struct toggle__progress_state {
    toggle_progress_fn fn; /* NULL: no callback */
    void *payload;
    atomic_uint_fast64_t last_ns; /* monotonic time of the last call; 0 = none */
} toggle__progress_state;

/* Least time between two calls of the callback. */
#define TOGGLE__PROGRESS_INTERVAL_NS 50000000u

/* Report done of total units of the current stage: calls the callback with
 * done / total when none is set this does nothing, when the last call was
 * at least TOGGLE__PROGRESS_INTERVAL_NS ago (the first call always happens).
 * TOGGLE_ECANCELED (with its message) when the callback returns non-zero,
 * else TOGGLE_OK. Cheap enough for every pivot block or row. */
int toggle__progress_slow(const toggle__progress_state *p, uint64_t done, uint64_t total);
static inline int toggle__progress(const toggle__progress_state *p, uint64_t done, uint64_t total)
{
    return p->fn ? toggle__progress_slow(p, done, total) : TOGGLE_OK;
}
/* Start a public call's reports: its first report reaches the callback. */
void toggle__progress_begin(const toggle__progress_state *p);
void toggle__progress_copy(toggle__progress_state *to, const toggle__progress_state *from);

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
/* The same, starting on a 64-byte cache line (freed by toggle__free): for
 * the tables the vector kernels read 64 bytes at a time, which malloc's
 * 16-byte alignment would split across two lines (docs/gf2.md). */
#define TOGGLE__LINE 64
void *toggle__malloc_lines(size_t count, size_t size);

/* Free every pointer given (NULLs are fine): the bodies of destructors,
 * `TOGGLE__FREE_ALL(h->a, h->b, h)` (the values are read before any is
 * freed). */
void toggle__free_each(size_t count, void *const *ptrs);
#define TOGGLE__FREE_ALL(...)                                                  \
    toggle__free_each(sizeof((void *[]){__VA_ARGS__}) / sizeof(void *),       \
                      (void *[]){__VA_ARGS__})

/* A failure-injection point: counts calls, and says "fail" at the nth call
 * from arming (n >= 1), once or for every later call too; 0 disables. The
 * library's allocator has one (below), the FLINT guard another. */
typedef struct toggle__failpoint {
    uint64_t calls, fail_at;
    bool sticky;
} toggle__failpoint;
void toggle__failpoint_arm(toggle__failpoint *fp, uint64_t nth, bool sticky);
bool toggle__failpoint_hit(toggle__failpoint *fp);

/* The idioms of every handle constructor: allocate the zeroed handle (or
 * return TOGGLE_ENOMEM naming it), and hand it out, or free it and return
 * the failure. */
#define TOGGLE__NEW_HANDLE(var, what)                                          \
    do {                                                                       \
        (var) = toggle__calloc(1, sizeof *(var));                              \
        if (!(var))                                                            \
            return toggle__error(TOGGLE_ENOMEM, "out of memory allocating " what); \
    } while (0)
/* A constructor from another handle src (named src_name in the message):
 * out and src must not be NULL, then var is allocated as above. */
#define TOGGLE__NEW_HANDLE_FROM(out, src, src_name, var, what)                 \
    do {                                                                       \
        if (!(out) || !(src))                                                  \
            return toggle__error(TOGGLE_EINVAL,                                \
                                 "out and " src_name " must not be NULL");     \
        TOGGLE__NEW_HANDLE(var, what);                                         \
    } while (0)
#define TOGGLE__HAND_OUT(out, var, rc, free_fn)                                \
    do {                                                                       \
        if (rc) {                                                              \
            free_fn(var);                                                      \
            return (rc);                                                       \
        }                                                                      \
        *(out) = (var);                                                        \
        return TOGGLE_OK;                                                      \
    } while (0)

/* A public getter: the field of a handle, 0 for a NULL handle. Used as
 * `TOGGLE__GETTER(size_t, toggle_graph_cells, toggle_graph, n)` (no ';'). */
#define TOGGLE__GETTER(type, name, handle_type, field)                         \
    type name(const handle_type *h) { return h ? h->field : 0; }

/* Test hooks (thread-local): fail the nth allocation from now (n >= 1),
 * once or for every later call too; 0 disables. Returns calls counted. */
void toggle__alloc_fail_at(uint64_t nth, bool sticky);
uint64_t toggle__alloc_calls(void);
/* Test hooks (thread-local): count the bytes of the blocks this thread
 * allocates and frees (the library's allocator, and FLINT's and GMP's
 * blocks inside a recovery point of the FLINT guard), from 0, while on;
 * the peak of the live count since turned on. The memory-budget tests
 * measure each estimate against this peak. toggle__alloc_note counts a
 * block allocated (sign 1) or about to be freed (-1). */
void toggle__alloc_count(bool on);
int64_t toggle__alloc_peak(void);
void toggle__alloc_note(const void *p, int sign);

/* ---- checked and modular arithmetic (lib/core/arith.c) ----------------- */
/* The one modular-arithmetic module: every engine and module uses these for
 * values below a modulus k, 2 <= k <= TOGGLE_MAX_MODULUS. */
bool toggle__mul_ok(size_t a, size_t b, size_t *out);
bool toggle__add_ok(size_t a, size_t b, size_t *out);
bool toggle__is_prime(uint64_t k);
/* TOGGLE_OK for 2 <= k <= TOGGLE_MAX_MODULUS, else the status and message
 * every entry point reports for a bad modulus. */
int toggle__check_modulus(uint64_t k);
/* a * b mod k; the fast path is taken when both fit in 32 bits. */
static inline uint64_t toggle__mulmod(uint64_t a, uint64_t b, uint64_t k)
{
    if ((a | b) < ((uint64_t)1 << 32))
        return (a * b) % k;
    return (uint64_t)(((unsigned __int128)a * b) % k);
}
static inline uint64_t toggle__addmod(uint64_t a, uint64_t b, uint64_t k)
{
    uint64_t s = a + b; /* a, b < k <= 2^63: no wrap */
    return s >= k ? s - k : s;
}
static inline uint64_t toggle__submod(uint64_t a, uint64_t b, uint64_t k)
{
    return a >= b ? a - b : a + (k - b);
}
uint64_t toggle__invmod(uint64_t a, uint64_t k); /* 0 if not invertible */
uint64_t toggle__gcd(uint64_t a, uint64_t b);
/* g = gcd(a, b) = s a + t b over the integers (a, b < 2^63). */
uint64_t toggle__xgcd(uint64_t a, uint64_t b, int64_t *s, int64_t *t);
/* v mod k for a signed v. */
uint64_t toggle__smod(int64_t v, uint64_t k);
/* A unit w with w * a = gcd(a, k) (mod k) for 0 < a < k, and that gcd in
 * *g; 0 if none was found (cannot happen for valid input). */
uint64_t toggle__unit_normaliser(uint64_t a, uint64_t k, uint64_t *g);
/* b^e mod k. */
uint64_t toggle__powmod(uint64_t b, uint64_t e, uint64_t k);
/* qsort's -1, 0 or 1 for the pair (a1, a2) against (b1, b2), compared
 * lexicographically (any integer types). */
#define TOGGLE__CMP2(a1, b1, a2, b2)                                           \
    ((a1) != (b1) ? ((a1) > (b1)) - ((a1) < (b1)) : ((a2) > (b2)) - ((a2) < (b2)))

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
/* Faults in the whole pages inside words [from, to) of vector i for
 * writing, in one kernel call (Linux's MADV_POPULATE_WRITE; elsewhere, or
 * when the kernel refuses, nothing: they fault one by one when written).
 * Contents unchanged. For a writer about to store those words: called a few
 * hundred KiB ahead of it, the fresh pages are written while the kernel's
 * zeroing is still in cache, and the per-page trap is gone. */
void toggle__vecs_prefault(const toggle__vecs *v, size_t i, size_t from, size_t to);
/* The last nonzero position of vector i, or SIZE_MAX when it is 0 (packed
 * vectors a word at a time; their padding bits are zero). */
size_t toggle__vecs_last_nonzero(const toggle__vecs *v, size_t i);
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

/* Exchange vectors a and b of v. */
static inline void toggle__vecs_swap(toggle__vecs *v, size_t a, size_t b)
{
    uint64_t *x = toggle__vecs_row(v, a), *y = toggle__vecs_row(v, b);
    for (size_t t = 0; t < v->stride; t++) {
        uint64_t tmp = x[t];
        x[t] = y[t];
        y[t] = tmp;
    }
}

/* Bits [off, off + 64) of the n-word packed array v, bit 0 first (bits
 * past its end read 0). */
static inline uint64_t toggle__bits_window(const uint64_t *v, size_t n, size_t off)
{
    size_t q = off >> 6;
    unsigned sh = off & 63;
    uint64_t lo = q < n ? v[q] >> sh : 0;
    uint64_t hi = sh && q + 1 < n ? v[q + 1] << (64 - sh) : 0;
    return lo | hi;
}

/* Transpose the rows x cols packed matrix src (row stride sstride words)
 * into dst (cols rows of dstride words, which must hold at least
 * (rows + 63) / 64 words each); bits of dst past column `rows` are zeroed. */
void toggle__bits_transpose(uint64_t *dst, size_t dstride, const uint64_t *src, size_t sstride,
                            size_t rows, size_t cols);

/* ---- fork-join thread pool (lib/core/pool.c) --------------------------- */
/* Owned by one caller (created per solve, never shared between systems).
 * toggle__pool_run calls fn(ctx, t, nt) once for each share t = 0 .. nt - 1
 * and returns when all have returned: share 0 on the caller, share t >= 1
 * on worker t or, when that worker has not started it by the time share 0
 * is done, on the caller after share 0 (lib/core/pool.c). So a share must
 * not wait for another share (no barriers, no spinning on another share's
 * flag: on one thread that never ends), nor depend on the thread it runs
 * on (the allocator's counters and failure injection and the last error
 * are per thread: a share neither allocates nor reports errors). toggle__pool_new
 * returns NULL for threads < 2 or when no worker could be started (a NULL
 * pool runs fn(ctx, 0, 1) on the caller); it may start fewer threads than
 * asked (toggle__pool_threads says how many). */
typedef struct toggle__pool toggle__pool;
typedef void (*toggle__pool_fn)(void *ctx, unsigned t, unsigned nt);
toggle__pool *toggle__pool_new(unsigned threads);
unsigned toggle__pool_threads(const toggle__pool *p);
void toggle__pool_run(toggle__pool *p, toggle__pool_fn fn, void *ctx);
void toggle__pool_free(toggle__pool *p);
/* Scratch blocks the pool keeps until toggle__pool_free, one per thread
 * slot (0 .. toggle__pool_threads - 1), for work that a solve repeats many
 * times, such as the base-case workspace of every product of an
 * elimination: memory freed and taken again may go back to the system in
 * between and fault in anew, which costs more than the work on a machine
 * with slow page faults. take sets *block to
 * slot's block, grown to at least `bytes` (aligned to TOGGLE__LINE,
 * contents undefined), and marks it taken until give; it sets NULL, for
 * the caller to allocate its own, for a NULL pool or a slot out of range or
 * already taken. Returns 0, or -1 (*block NULL) when the block could not
 * grow (no memory). Only the pool's owner (the thread that runs
 * toggle__pool_run) calls them. */
int toggle__pool_take(toggle__pool *p, unsigned slot, size_t bytes, void **block);
void toggle__pool_give(toggle__pool *p, unsigned slot);

/* The decimal digits of prod_{i < d} f(i), f(i) = radix[i] when radix is
 * not NULL and k otherwise, into a toggle__malloc'd string (*out; the
 * caller frees), in plain C (decimal.c; quadratic in the digits). The FLINT
 * build uses it up to TOGGLE__DECIMAL_PLAIN_MAX factors, GMP beyond. */
#define TOGGLE__DECIMAL_PLAIN_MAX 1024
int toggle__decimal_product_plain(const uint64_t *radix, size_t d, uint64_t k, char **out);

#endif
