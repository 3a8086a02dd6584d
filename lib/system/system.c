/* Augmented systems: construction, accessors, options and the independent checks. */
#include <string.h>
#include <unistd.h>

#include "engine/engines.h"
#include "system_internal.h"

static int check_values(const uint64_t *v, size_t len, uint64_t k, const char *what)
{
    for (size_t i = 0; v && i < len; i++)
        if (v[i] >= k)
            return toggle__error(TOGGLE_ERANGE, "%s[%zu] = %llu is not below the modulus %llu",
                                 what, i, (unsigned long long)v[i], (unsigned long long)k);
    return TOGGLE_OK;
}

static void init_fields(toggle_system *s, size_t m, size_t n, uint64_t k)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->n = n;
    s->k = k;
    s->engine = TOGGLE_ENGINE_AUTO;
    s->budget = TOGGLE_DEFAULT_MEMORY_BUDGET;
    s->search_limit = (uint64_t)1 << 32;
    s->threads = 1;
}

/* The options of like (every field that is not shape or entries). */
static void copy_options(toggle_system *t, const toggle_system *like)
{
    t->engine = like->engine;
    t->budget = like->budget;
    t->search_limit = like->search_limit;
    t->threads = like->threads;
    toggle__progress_copy(&t->progress, &like->progress);
}

int toggle_system_set_progress(toggle_system *s, toggle_progress_fn callback, void *payload)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "system is NULL");
    toggle__progress_state p = {.fn = callback, .payload = payload};
    toggle__progress_copy(&s->progress, &p);
    return TOGGLE_OK;
}

void toggle__system_init_shape(toggle_system *t, size_t m, size_t n, const toggle_system *like)
{
    init_fields(t, m, n, like->k);
    copy_options(t, like);
}

static toggle_system *system_alloc(size_t m, size_t n, uint64_t k)
{
    toggle_system *s = toggle__calloc(1, sizeof *s);
    if (!s)
        return NULL;
    init_fields(s, m, n, k);
    if (toggle__vecs_init(&s->b, m, 1, k) != TOGGLE_OK) {
        toggle__free(s);
        return NULL;
    }
    return s;
}

void toggle_system_free(toggle_system *s)
{
    if (!s)
        return;
    toggle_graph_free(s->graph);
    toggle__vecs_clear(&s->a);
    toggle__vecs_clear(&s->b);
    toggle__system_release_words(s);
    toggle__free(s);
}

/* A block is the offset back to its allocation, its capacity in words, the
 * count of its leading words known to be zero (TOGGLE__SPARE_ZEROS), then
 * the words, from a 64-byte boundary: a work matrix whose stride is a
 * multiple of 8 words then has every row on its own cache lines, and two
 * threads working on neighbouring rows never share a line. */
enum { SPARE_HEAD = TOGGLE__SPARE_HEAD, SPARE_ALIGN = 8 };
#define SPARE_OFFSET(block) ((block)[-3])
#define SPARE_CAP(block) ((block)[-2])

static void spare_free(uint64_t *block)
{
    if (block)
        toggle__free(block - SPARE_OFFSET(block));
}

uint64_t *toggle__system_take_words(const toggle_system *s, size_t words, bool *zeroed)
{
    toggle_system *w = (toggle_system *)s; /* the slot only: never a const object */
    uint64_t *b = atomic_exchange(&w->spare, NULL);
    *zeroed = false;
    if (b && SPARE_CAP(b) >= words) {
        *zeroed = TOGGLE__SPARE_ZEROS(b) >= words;
        TOGGLE__SPARE_ZEROS(b) = 0; /* the caller's now */
        return b;
    }
    spare_free(b);
    size_t n = words ? words : 1;
    if (n > SIZE_MAX / sizeof *b - SPARE_HEAD - SPARE_ALIGN)
        return NULL;
    uint64_t *base = toggle__calloc(n + SPARE_HEAD + SPARE_ALIGN, sizeof *b);
    if (!base)
        return NULL;
    uint64_t *p = base + SPARE_HEAD;
    p += (SPARE_ALIGN - ((uintptr_t)p / sizeof *p) % SPARE_ALIGN) % SPARE_ALIGN;
    SPARE_OFFSET(p) = (uint64_t)(p - base);
    SPARE_CAP(p) = n;
    TOGGLE__SPARE_ZEROS(p) = 0;
    *zeroed = true;
    return p;
}

void toggle__system_give_words(const toggle_system *s, uint64_t *block, size_t zeros)
{
    toggle_system *w = (toggle_system *)s;
    if (block)
        TOGGLE__SPARE_ZEROS(block) = zeros < SPARE_CAP(block) ? zeros : SPARE_CAP(block);
    if (block && SPARE_CAP(block) > TOGGLE__SPARE_MAX_BYTES / sizeof *block) {
        spare_free(block);
        return;
    }
    spare_free(atomic_exchange(&w->spare, block));
}

void toggle__system_release_words(const toggle_system *s)
{
    toggle_system *w = (toggle_system *)s; /* the slot only: never a const object */
    spare_free(atomic_exchange(&w->spare, NULL));
}

int toggle_system_new(toggle_system **out, const toggle_graph *graph, uint64_t k,
                      const uint64_t *start, const uint64_t *target)
{
    if (!out || !graph)
        return toggle__error(TOGGLE_EINVAL, "out and graph must not be NULL");
    int rc = toggle__check_modulus(k);
    if (rc)
        return rc;
    size_t n = graph->n;
    if ((rc = check_values(start, n, k, "start")) || (rc = check_values(target, n, k, "target")))
        return rc;
    if (n > SIZE_MAX / sizeof(uint64_t))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu cells overflow size_t", n);
    toggle_system *s = system_alloc(n, n, k);
    if (!s)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a system of %zu cells", n);
    for (size_t i = 0; i < n; i++) {
        uint64_t t = target ? target[i] : 1 % k;
        uint64_t st = start ? start[i] : 0;
        toggle__vecs_set(&s->b, 0, i, toggle__submod(t, st, k));
    }
    s->graph = toggle__graph_ref(graph);
    *out = s;
    return TOGGLE_OK;
}

int toggle_system_new_matrix(toggle_system **out, size_t m, size_t n, const uint64_t *a,
                             const uint64_t *b, uint64_t k)
{
    size_t mn;
    if (!out)
        return toggle__error(TOGGLE_EINVAL, "out is NULL");
    int rc = toggle__check_modulus(k);
    if (rc)
        return rc;
    if (!toggle__mul_ok(m, n, &mn) || mn > SIZE_MAX / sizeof(uint64_t))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu matrix overflows size_t", m, n);
    if ((!a && mn) || (!b && m))
        return toggle__error(TOGGLE_EINVAL, "a and b must not be NULL for a %zu x %zu system",
                             m, n);
    if ((rc = check_values(a, mn, k, "a")) || (rc = check_values(b, m, k, "b")))
        return rc;
    toggle_system *s = system_alloc(m, n, k);
    if (!s)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a %zu x %zu system", m, n);
    if ((rc = toggle__vecs_init(&s->a, n, m, k))) {
        toggle_system_free(s);
        return rc;
    }
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < n; j++)
            toggle__vecs_set(&s->a, i, j, a[i * n + j]);
        toggle__vecs_set(&s->b, 0, i, b[i]);
    }
    *out = s;
    return TOGGLE_OK;
}

int toggle__system_new_zero(toggle_system **out, size_t m, size_t n, uint64_t k)
{
    toggle_system *s = system_alloc(m, n, k);
    int rc = s ? toggle__vecs_init(&s->a, n, m, k) : TOGGLE_ENOMEM;
    if (rc) {
        toggle_system_free(s);
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a %zu x %zu system", m, n);
    }
    *out = s;
    return TOGGLE_OK;
}

static size_t bit_words(size_t n) { return n / 64 + (n % 64 != 0); }

int toggle__system_adopt_packed(toggle_system **out, size_t m, size_t n, uint64_t *rows,
                                const uint64_t *b, bool b_packed)
{
    toggle_system *s = system_alloc(m, n, 2);
    if (!s) {
        toggle__free(rows);
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a %zu x %zu system", m, n);
    }
    s->a.len = n;
    s->a.count = m;
    s->a.stride = toggle__vecs_stride(n, 2);
    s->a.width = 1;
    s->a.packed = true;
    s->a.data = rows ? rows : toggle__calloc(1, sizeof(uint64_t));
    if (!s->a.data) {
        toggle_system_free(s);
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a %zu x %zu system", m, n);
    }
    for (size_t i = 0; i < m; i++)
        toggle__vecs_set(&s->b, 0, i, b_packed ? (b[i >> 6] >> (i & 63)) & 1 : b[i] & 1);
    *out = s;
    return TOGGLE_OK;
}

int toggle_system_new_packed(toggle_system **out, size_t m, size_t n, const uint64_t *a,
                             size_t a_stride, const uint64_t *b)
{
    size_t W = bit_words(n), words;
    if (!out)
        return toggle__error(TOGGLE_EINVAL, "out is NULL");
    if (a_stride < W)
        return toggle__error(TOGGLE_EINVAL, "a row stride of %zu words is below the %zu words "
                             "of %zu columns", a_stride, W, n);
    if (!toggle__mul_ok(m, W, &words) || words > SIZE_MAX / sizeof(uint64_t))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu bit matrix overflows size_t", m, n);
    if ((m && W && !a) || (!b && m))
        return toggle__error(TOGGLE_EINVAL, "a and b must not be NULL for a %zu x %zu system",
                             m, n);
    if (m > 1 && W && a_stride > (SIZE_MAX / sizeof(uint64_t) - W) / (m - 1))
        return toggle__error(TOGGLE_EOVERFLOW, "a row stride of %zu words overflows size_t",
                             a_stride);
    uint64_t *rows = toggle__malloc_array(words ? words : 1, sizeof *rows);
    if (!rows)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a %zu x %zu system", m, n);
    /* padding bits (columns >= n of a row's last word) are ignored: masked here */
    uint64_t last = n % 64 ? ((uint64_t)1 << (n % 64)) - 1 : ~(uint64_t)0;
    for (size_t i = 0; i < m && W; i++) {
        memcpy(rows + i * W, a + i * a_stride, W * sizeof *rows);
        rows[i * W + W - 1] &= last;
    }
    return toggle__system_adopt_packed(out, m, n, rows, b, true);
}

TOGGLE__GETTER(size_t, toggle_system_rows, toggle_system, m)
TOGGLE__GETTER(size_t, toggle_system_cols, toggle_system, n)
TOGGLE__GETTER(uint64_t, toggle_system_modulus, toggle_system, k)
const toggle_graph *toggle_system_graph(const toggle_system *s) { return s ? s->graph : NULL; }

uint64_t toggle__system_get(const toggle_system *s, size_t i, size_t j)
{
    if (!s->graph)
        return toggle__vecs_get(&s->a, i, j);
    uint64_t v = 0;
    if (toggle_graph_entry(s->graph, i, j, &v) != TOGGLE_OK)
        return 0;
    return v % s->k;
}

int toggle_system_entry(const toggle_system *s, size_t i, size_t j, uint64_t *value)
{
    if (!s || !value)
        return toggle__error(TOGGLE_EINVAL, "system and value must not be NULL");
    if (i >= s->m || j >= s->n)
        return toggle__error(TOGGLE_ERANGE, "entry (%zu, %zu) outside a %zu x %zu system",
                             i, j, s->m, s->n);
    if (s->graph) {
        int rc = toggle_graph_entry(s->graph, i, j, value);
        if (rc)
            return rc;
        *value %= s->k;
        return TOGGLE_OK;
    }
    *value = toggle__vecs_get(&s->a, i, j);
    return TOGGLE_OK;
}

int toggle_system_rhs(const toggle_system *s, size_t i, uint64_t *value)
{
    if (!s || !value)
        return toggle__error(TOGGLE_EINVAL, "system and value must not be NULL");
    if (i >= s->m)
        return toggle__error(TOGGLE_ERANGE, "row %zu outside a system of %zu rows", i, s->m);
    *value = toggle__rhs(s, i);
    return TOGGLE_OK;
}

int toggle_system_set_option(toggle_system *s, int key, uint64_t value)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "system is NULL");
    switch (key) {
    case TOGGLE_SYSTEM_OPT_ENGINE:
        if (!toggle__engine_id_known(value))
            return toggle__error(TOGGLE_EINVAL, "unknown engine %llu", (unsigned long long)value);
        s->engine = (int)value;
        return TOGGLE_OK;
    case TOGGLE_SYSTEM_OPT_MEMORY_BUDGET:
        s->budget = value;
        return TOGGLE_OK;
    case TOGGLE_SYSTEM_OPT_SEARCH_LIMIT:
        s->search_limit = value ? value : UINT64_MAX; /* 0: unlimited */
        return TOGGLE_OK;
    case TOGGLE_SYSTEM_OPT_THREADS:
        if (value > TOGGLE__MAX_THREADS)
            return toggle__error(TOGGLE_EINVAL, "%llu threads requested, at most %u",
                                 (unsigned long long)value, TOGGLE__MAX_THREADS);
        s->threads = (unsigned)value;
        return TOGGLE_OK;
    default:
        /* not a system key: get_option refuses it with the same message
         * (and writes nothing) */
        return toggle_system_get_option(s, key, &value);
    }
}

int toggle_system_get_option(const toggle_system *s, int key, uint64_t *value)
{
    /* the generator's keys 5..9, by name (space.h) */
    static const char *const gen_keys[] = {"SEED", "UNIQUE", "PRESSES", "LIT", "ATTEMPTS"};
    if (!s || !value)
        return toggle__error(TOGGLE_EINVAL, "system and value must not be NULL");
    switch (key) {
    case TOGGLE_SYSTEM_OPT_ENGINE: *value = (uint64_t)s->engine; return TOGGLE_OK;
    case TOGGLE_SYSTEM_OPT_MEMORY_BUDGET: *value = s->budget; return TOGGLE_OK;
    case TOGGLE_SYSTEM_OPT_SEARCH_LIMIT: *value = s->search_limit; return TOGGLE_OK;
    case TOGGLE_SYSTEM_OPT_THREADS: *value = s->threads; return TOGGLE_OK;
    case TOGGLE_SEARCH_OPT_METRIC:
        return toggle__error(TOGGLE_EINVAL, "TOGGLE_SEARCH_OPT_METRIC (%d) is an option of a "
                             "search (and of a generator), not of a system", key);
    default:
        if (key >= TOGGLE_GENERATOR_OPT_SEED && key <= TOGGLE_GENERATOR_OPT_ATTEMPTS)
            return toggle__error(TOGGLE_EINVAL, "TOGGLE_GENERATOR_OPT_%s (%d) is an option of "
                                 "a generator, not of a system",
                                 gen_keys[key - TOGGLE_GENERATOR_OPT_SEED], key);
        return toggle__error(TOGGLE_EINVAL, "unknown option key %d", key);
    }
}

unsigned toggle__system_threads(const toggle_system *s)
{
    return toggle__threads_resolve(s->threads);
}

int toggle__threads_check(uint64_t value)
{
    if (value > TOGGLE__MAX_THREADS)
        return toggle__error(TOGGLE_EINVAL, "%llu threads requested, at most %u",
                             (unsigned long long)value, TOGGLE__MAX_THREADS);
    return TOGGLE_OK;
}

unsigned toggle__threads_resolve(unsigned threads)
{
    if (threads)
        return threads;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > (long)TOGGLE__MAX_THREADS ? TOGGLE__MAX_THREADS : (unsigned)n;
}

int toggle__budget_check_bytes(uint64_t budget, uint64_t bytes, const char *what)
{
    if (budget && bytes > budget)
        return toggle__error(TOGGLE_ENOMEM,
                             "%s needs about %llu bytes, over the memory budget of %llu "
                             "(TOGGLE_OPT_MEMORY_BUDGET)",
                             what, (unsigned long long)bytes, (unsigned long long)budget);
    return TOGGLE_OK;
}

int toggle__budget_check(const toggle_system *s, uint64_t bytes, const char *what)
{
    return toggle__budget_check_bytes(s->budget, bytes, what);
}

/* ---- the one walk over A ------------------------------------------------ */

int toggle__system_each_entry(const toggle_system *s, toggle__entry_fn fn, void *ctx)
{
    if (!s->graph) {
        for (size_t i = 0; i < s->m; i++)
            for (size_t j = 0; j < s->n; j++) {
                uint64_t v = toggle__vecs_get(&s->a, i, j);
                if (v)
                    fn(ctx, i, j, v);
            }
        return TOGGLE_OK;
    }
    toggle__colbuf cb;
    int rc = toggle__colbuf_init(&cb, s->graph);
    if (rc)
        return rc;
    toggle__system_each_column_entry(s, 0, s->n, &cb, fn, ctx);
    toggle__colbuf_clear(&cb);
    return TOGGLE_OK;
}

void toggle__system_each_column_entry(const toggle_system *s, size_t lo, size_t hi,
                                      toggle__colbuf *cb, toggle__entry_fn fn, void *ctx)
{
    uint64_t k = s->k;
    for (size_t j = lo; j < hi; j++) {
        size_t c = toggle__graph_column(s->graph, j, cb->idx, cb->val);
        for (size_t p = 0; p < c; p++) {
            uint64_t v = cb->val[p] % k;
            if (v)
                fn(ctx, cb->idx[p], j, v);
        }
    }
}

typedef struct {
    uint64_t *M;
    size_t stride, row0, col0;
    bool transpose;
} words_ctx;

static void put_word(void *ctx, size_t i, size_t j, uint64_t v)
{
    words_ctx *c = ctx;
    if (c->transpose)
        c->M[(c->row0 + j) * c->stride + c->col0 + i] = v;
    else
        c->M[(c->row0 + i) * c->stride + c->col0 + j] = v;
}

int toggle__system_put_words(const toggle_system *s, uint64_t *M, size_t stride, size_t row0,
                             size_t col0, bool transpose)
{
    words_ctx c = {M, stride, row0, col0, transpose};
    return toggle__system_each_entry(s, put_word, &c);
}

typedef struct {
    const toggle_system *s;
    bool symmetric;
} symmetric_ctx;

static void check_mirror(void *ctx, size_t i, size_t j, uint64_t v)
{
    symmetric_ctx *c = ctx;
    if (c->symmetric && toggle__system_get(c->s, j, i) != v)
        c->symmetric = false;
}

bool toggle__system_is_symmetric(const toggle_system *s)
{
    if (s->m != s->n)
        return false;
    if (s->graph && s->graph->kind == TOGGLE_KIND_GRID &&
        (!(s->graph->flags & (TOGGLE_GRID_HEX | TOGGLE_GRID_TRI)) ||
         !(s->graph->flags & TOGGLE_GRID_TORUS) || s->graph->rows % 2 == 0))
        return true; /* every square-lattice neighbourhood is a symmetric relation; hex and
                      * tri are too unless wrapped across an odd number of rows (two rows
                      * of one parity meet at the seam: compared below; docs/lattices.md) */
    if (!s->graph) {
        for (size_t i = 0; i < s->m; i++)
            for (size_t j = i + 1; j < s->n; j++)
                if (toggle__vecs_get(&s->a, i, j) != toggle__vecs_get(&s->a, j, i))
                    return false;
        return true;
    }
    /* Graphs: every entry (i, j) against its mirror (j, i). */
    symmetric_ctx c = {s, true};
    if (toggle__system_each_entry(s, check_mirror, &c))
        return false; /* out of memory: the policy falls back to the transpose */
    return c.symmetric;
}

typedef struct {
    toggle__vecs *a;
} transpose_ctx;

static void put_transposed(void *ctx, size_t i, size_t j, uint64_t v)
{
    toggle__vecs_set(((transpose_ctx *)ctx)->a, j, i, v);
}

int toggle__system_new_certificate(toggle_system **out, const toggle_system *s, int engine)
{
    size_t m = s->m, n = s->n, rows;
    if (!toggle__add_ok(n, 1, &rows))
        return toggle__error(TOGGLE_EOVERFLOW, "system too large for a certificate");
    toggle_system *t = system_alloc(rows, m, s->k);
    if (!t)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the certificate system");
    copy_options(t, s);
    t->engine = engine;
    int rc = toggle__vecs_init(&t->a, m, rows, s->k);
    if (!rc && !s->graph && s->a.packed && m && n) {
        toggle__bits_transpose(t->a.data, t->a.stride, s->a.data, s->a.stride, m, n);
    } else if (!rc) {
        transpose_ctx ctx = {&t->a};
        rc = toggle__system_each_entry(s, put_transposed, &ctx);
    }
    if (rc) {
        toggle_system_free(t);
        return rc;
    }
    for (size_t i = 0; i < m; i++)
        toggle__vecs_set(&t->a, n, i, toggle__rhs(s, i));
    toggle__vecs_set(&t->b, 0, n, 1);
    *out = t;
    return TOGGLE_OK;
}

/* ---- the independent checks ----------------------------------------------- */

typedef struct {
    const uint64_t *x;
    uint64_t *acc, k;
    bool left; /* y A (acc per column, x per row) instead of A x */
} product_ctx;

static void accumulate(void *ctx_, size_t i, size_t j, uint64_t v)
{
    product_ctx *c = ctx_;
    size_t from = c->left ? i : j, to = c->left ? j : i;
    if (c->x[from])
        c->acc[to] = toggle__addmod(c->acc[to], toggle__mulmod(v, c->x[from], c->k), c->k);
}

/* A x (left = false) or y A (left = true) into a fresh array, straight from
 * the definition of A; no elimination code is involved. */
static int product(const toggle_system *s, const uint64_t *x, bool left, uint64_t **out)
{
    size_t len = left ? s->n : s->m;
    product_ctx c = {x, toggle__calloc(len ? len : 1, sizeof(uint64_t)), s->k, left};
    if (!c.acc)
        return toggle__error(TOGGLE_ENOMEM, "out of memory checking a solution");
    int rc = toggle__system_each_entry(s, accumulate, &c);
    if (rc) {
        toggle__free(c.acc);
        return rc;
    }
    *out = c.acc;
    return TOGGLE_OK;
}

int toggle_system_check(const toggle_system *s, const uint64_t *x, size_t len, int *solves)
{
    if (!s || !x || !solves)
        return toggle__error(TOGGLE_EINVAL, "system, x and solves must not be NULL");
    if (len != s->n)
        return toggle__error(TOGGLE_EINVAL, "x has %zu entries, the system has %zu unknowns",
                             len, s->n);
    uint64_t *ax = NULL;
    int rc = check_values(x, len, s->k, "x");
    if (!rc)
        rc = product(s, x, false, &ax);
    if (rc)
        return rc;
    int ok = 1;
    for (size_t i = 0; i < s->m && ok; i++)
        ok = ax[i] == toggle__rhs(s, i);
    toggle__free(ax);
    *solves = ok;
    return TOGGLE_OK;
}

int toggle_system_check_certificate(const toggle_system *s, const uint64_t *y, size_t len,
                                    int *valid)
{
    if (!s || !y || !valid)
        return toggle__error(TOGGLE_EINVAL, "system, y and valid must not be NULL");
    if (len != s->m)
        return toggle__error(TOGGLE_EINVAL, "y has %zu entries, the system has %zu equations",
                             len, s->m);
    uint64_t *ya = NULL, k = s->k, yb = 0;
    int rc = check_values(y, len, k, "y");
    if (!rc)
        rc = product(s, y, true, &ya);
    if (rc)
        return rc;
    for (size_t i = 0; i < s->m; i++)
        yb = toggle__addmod(yb, toggle__mulmod(y[i], toggle__rhs(s, i), k), k);
    int ok = yb != 0;
    for (size_t j = 0; j < s->n && ok; j++)
        ok = ya[j] == 0;
    toggle__free(ya);
    *valid = ok;
    return TOGGLE_OK;
}
