/* GF(2) workloads: libtoggle's gf2 engine, its FLINT engine and
 * M4RI's mzd_echelonize on the same dense random N x N systems and on full
 * Lights Out boards (N = n^2, the gf2 engine forced, not light chasing), and
 * on matrices whose pivotless columns lie between pivot columns (gapped, low
 * rank).
 * Every implementation reduces the augmented matrix [A | b]. In each group
 * the gf2 row's ratio is against M4RI, the FLINT row's against gf2. */
#include "harness.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <toggle.h>

#ifdef HAVE_M4RI
#include <m4ri/m4ri.h>
#endif

/* Matrix kinds. GAPPED: rank N / step, pivot columns every `step` columns,
 * each column in between a random combination of the pivot columns before
 * it, so pivotless columns alternate with pivot columns (step 2) or fill
 * most of the matrix (step 8). LOWRANK: product of random N x N/8 and
 * N/8 x N matrices (pivots first, then a long pivotless tail). */
enum { DENSE, BOARD, GAPPED, LOWRANK };

typedef struct spec {
    size_t n;     /* N (rows); for a board its side (N = n^2) */
    int kind;     /* matrix kind (DENSE, BOARD, GAPPED, LOWRANK) */
    int engine;   /* TOGGLE_ENGINE_* or -1 for M4RI */
    size_t step;  /* GAPPED: one pivot column every `step` columns; LOWRANK: rank N / step
                   * (0: N / 8) */
    size_t cols;  /* columns of A (0: N) */
    unsigned threads; /* TOGGLE_SYSTEM_OPT_THREADS (0: 1) */
} spec;

static size_t spec_cols(const spec *sp) { return sp->cols ? sp->cols : sp->n; }

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Fill the packed rows x cols matrix a (rows of NW = (cols + 63) / 64
 * words) with the matrix of the given kind. */
static void fill_matrix(const spec *sp, size_t rows, size_t cols, uint64_t *a, uint64_t *seed)
{
    size_t NW = (cols + 63) / 64;
    uint64_t last = cols % 64 ? ((uint64_t)1 << (cols % 64)) - 1 : ~(uint64_t)0;
    memset(a, 0, rows * NW * sizeof *a);
    if (sp->kind == DENSE) {
        for (size_t i = 0; i < rows; i++) {
            for (size_t w = 0; w < NW; w++)
                a[i * NW + w] = rng_next(seed);
            a[i * NW + NW - 1] &= last;
        }
        return;
    }
    /* rank R: a = Y C with Y random rows x R (packed rows of RW words) */
    size_t n = rows;
    size_t step = sp->kind == GAPPED ? sp->step : 0;
    size_t R = step ? cols / step : n / (sp->step ? sp->step : 8), RW = (R + 63) / 64;
    uint64_t *y = calloc(n * RW + 1, sizeof *y);
    uint64_t *c = calloc((step ? cols * RW : R * NW) + 1, sizeof *c);
    if (!y || !c) {
        free(y);
        free(c);
        return;
    }
    for (size_t i = 0; i < n * RW; i++)
        y[i] = rng_next(seed);
    if (R % 64)
        for (size_t i = 0; i < n; i++)
            y[i * RW + RW - 1] &= ((uint64_t)1 << (R % 64)) - 1;
    if (step) { /* column j: pivot q = j / step itself, or a mask over pivots <= q */
        for (size_t j = 0; j < cols; j++) {
            size_t q = j / step < R ? j / step : R - 1;
            uint64_t *cj = c + j * RW;
            if (j % step == 0 && j / step < R) {
                cj[q / 64] = (uint64_t)1 << (q % 64);
                continue;
            }
            for (size_t w = 0; w <= q / 64; w++)
                cj[w] = rng_next(seed);
            if ((q + 1) % 64)
                cj[q / 64] &= ((uint64_t)1 << ((q + 1) % 64)) - 1;
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < cols; j++) {
                const uint64_t *cj = c + j * RW, *yi = y + i * RW;
                uint64_t acc = 0;
                for (size_t w = 0; w < RW; w++)
                    acc ^= yi[w] & cj[w];
                a[i * NW + j / 64] |= (uint64_t)__builtin_parityll(acc) << (j % 64);
            }
    } else { /* low rank: C random R x cols */
        for (size_t l = 0; l < R; l++) {
            for (size_t w = 0; w < NW; w++)
                c[l * NW + w] = rng_next(seed);
            c[l * NW + NW - 1] &= last;
        }
        /* a ^= Y C eight rows of C at a time: a table of their 256 sums
         * (the matrices of N = 32768 are built in seconds, not minutes) */
        uint64_t *t = malloc(256 * NW * sizeof *t);
        for (size_t l0 = 0; t && l0 < R; l0 += 8) {
            unsigned kb = R - l0 < 8 ? (unsigned)(R - l0) : 8;
            memset(t, 0, NW * sizeof *t);
            for (unsigned v = 1; v < (1u << kb); v++) {
                unsigned lo = (unsigned)__builtin_ctz(v);
                const uint64_t *p = t + (v & (v - 1)) * NW, *cr = c + (l0 + lo) * NW;
                for (size_t w = 0; w < NW; w++)
                    t[v * NW + w] = p[w] ^ cr[w];
            }
            for (size_t i = 0; i < n; i++) {
                unsigned v = (unsigned)(y[i * RW + l0 / 64] >> (l0 % 64)) & ((1u << kb) - 1);
                if (!v)
                    continue;
                uint64_t *row = a + i * NW;
                const uint64_t *tv = t + v * NW;
                for (size_t w = 0; w < NW; w++)
                    row[w] ^= tv[w];
            }
        }
        free(t);
    }
    free(y);
    free(c);
}

/* Random rows x cols matrix over F_2 of the spec's kind, packed (rows of
 * (cols + 63) / 64 words), and b = A x0 packed (so solvable). */
static void dense_system(const spec *sp, size_t n, uint64_t **pa, uint64_t **pb)
{
    size_t cols = sp->kind == BOARD ? n : spec_cols(sp), NW = (cols + 63) / 64;
    uint64_t seed = 0x5EED0000 + n + ((uint64_t)sp->kind << 32) + (sp->step << 40) + (cols << 20);
    uint64_t *a = malloc((n * NW + 1) * sizeof *a), *b = calloc(n / 64 + 1, sizeof *b);
    uint64_t *x = calloc(NW + 1, sizeof *x);
    if (!a || !b || !x) {
        free(a);
        free(b);
        free(x);
        *pa = *pb = NULL;
        return;
    }
    fill_matrix(sp, n, cols, a, &seed);
    for (size_t w = 0; w < NW; w++)
        x[w] = rng_next(&seed);
    for (size_t i = 0; i < n; i++) {
        uint64_t acc = 0;
        for (size_t w = 0; w < NW; w++)
            acc ^= a[i * NW + w] & x[w];
        b[i / 64] |= (uint64_t)__builtin_parityll(acc) << (i % 64);
    }
    free(x);
    *pa = a;
    *pb = b;
}

/* ---- libtoggle (gf2 or flint engine) ---------------------------------- */

static void *toggle_setup(const void *arg)
{
    const spec *sp = arg;
    toggle_system *s = NULL;
    if (sp->kind == BOARD) {
        toggle_graph *g = NULL;
        if (toggle_graph_new_grid(&g, sp->n, sp->n, 0) != TOGGLE_OK)
            return NULL;
        int rc = toggle_system_new(&s, g, 2, NULL, NULL);
        toggle_graph_free(g);
        if (rc)
            return NULL;
    } else {
        uint64_t *a, *b;
        dense_system(sp, sp->n, &a, &b);
        if (!a)
            return NULL;
        size_t cols = spec_cols(sp);
        int rc = toggle_system_new_packed(&s, sp->n, cols, a, (cols + 63) / 64, b);
        free(a);
        free(b);
        if (rc)
            return NULL;
    }
    if (toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)sp->engine)
        || toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, sp->threads ? sp->threads : 1)
        || toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0)) {
        toggle_system_free(s);
        return NULL;
    }
    return s;
}

static int toggle_run(void *state, int check)
{
    toggle_system *s = state;
    toggle_solution *sol = NULL;
    if (toggle_solve(&sol, s) != TOGGLE_OK)
        return 1;
    int bad = toggle_solution_is_solvable(sol) != 1;
    if (!bad && check) {
        size_t n = toggle_system_cols(s);
        uint64_t *x = malloc((n ? n : 1) * sizeof *x);
        int ok = 0;
        bad = !x || toggle_solution_particular(sol, x, n) != TOGGLE_OK
           || toggle_system_check(s, x, n, &ok) != TOGGLE_OK || !ok;
        free(x);
    }
    toggle_solution_free(sol);
    return bad;
}

static void toggle_teardown(void *state)
{
    toggle_system_free(state);
}

/* ---- M4RI --------------------------------------------------------------- */

#ifdef HAVE_M4RI
typedef struct m4ri_state {
    mzd_t *src, *work;
    size_t rank; /* from the checked warm-up run */
} m4ri_state;

static void *m4ri_setup(const void *arg)
{
    const spec *sp = arg;
    size_t N = sp->kind == BOARD ? sp->n * sp->n : sp->n;
    size_t C = sp->kind == BOARD ? N : spec_cols(sp), NW = (C + 63) / 64;
    m4ri_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->src = mzd_init((rci_t)N, (rci_t)(C + 1));
    st->work = mzd_init((rci_t)N, (rci_t)(C + 1));
    if (sp->kind == BOARD) {
        size_t n = sp->n;
        for (size_t r = 0; r < n; r++)
            for (size_t c = 0; c < n; c++) {
                rci_t i = (rci_t)(r * n + c);
                mzd_write_bit(st->src, i, i, 1);
                if (r > 0) mzd_write_bit(st->src, i, i - (rci_t)n, 1);
                if (r + 1 < n) mzd_write_bit(st->src, i, i + (rci_t)n, 1);
                if (c > 0) mzd_write_bit(st->src, i, i - 1, 1);
                if (c + 1 < n) mzd_write_bit(st->src, i, i + 1, 1);
                mzd_write_bit(st->src, i, (rci_t)N, 1);
            }
    } else {
        uint64_t *a, *b;
        dense_system(sp, N, &a, &b);
        if (!a) {
            free(st);
            return NULL;
        }
        for (size_t i = 0; i < N; i++) {
            word *row = mzd_row(st->src, (rci_t)i);
            for (size_t w = 0; w < NW; w++)
                row[w] |= (word)a[i * NW + w];
            row[C / 64] |= (word)((b[i / 64] >> (i % 64)) & 1) << (C % 64);
        }
        free(a);
        free(b);
    }
    return st;
}

static int m4ri_run(void *state, int check)
{
    m4ri_state *st = state;
    mzd_copy(st->work, st->src);
    rci_t r = mzd_echelonize(st->work, 1);
    if (check)
        st->rank = (size_t)r;
    return r <= 0;
}

static void m4ri_teardown(void *state)
{
    m4ri_state *st = state;
    mzd_free(st->src);
    mzd_free(st->work);
    free(st);
}
#endif

/* ---- the table ------------------------------------------------------------ */

#define SPECS(n, kind, step)                                                               \
    {n, kind, -1, step, 0, 0}, {n, kind, TOGGLE_ENGINE_GF2, step, 0, 0},                   \
        {n, kind, TOGGLE_ENGINE_FLINT, step, 0, 0}
static const spec specs[] = {
    SPECS(1024, DENSE, 0), SPECS(2048, DENSE, 0), SPECS(4096, DENSE, 0), SPECS(8192, DENSE, 0),
    SPECS(32, BOARD, 0), SPECS(50, BOARD, 0), SPECS(70, BOARD, 0),
    SPECS(1024, GAPPED, 2), SPECS(4096, GAPPED, 2), SPECS(4096, GAPPED, 8),
    SPECS(4096, LOWRANK, 0), SPECS(64, BOARD, 0),
};

#define TOGGLE_WL(nm, grp, impl, base, quick, reps, sp)                                      \
    {nm, grp, impl, base, quick, reps, toggle_setup, toggle_run, toggle_teardown, sp}
#ifdef HAVE_M4RI
#define M4RI_WL(nm, grp, quick, reps, sp)                                                     \
    {nm, grp, "m4ri", NULL, quick, reps, m4ri_setup, m4ri_run, m4ri_teardown, sp},
#else
#define M4RI_WL(nm, grp, quick, reps, sp)
#endif
/* gf2 and M4RI: 5 reps (quick 3); FLINT: fewer, slow at the top sizes. */
#define GROUP(grp, i, q, frep, fq)                                                           \
    M4RI_WL(grp "/m4ri", grp, q, 5, &specs[i])                                             \
    TOGGLE_WL(grp "/toggle-gf2", grp, "toggle-gf2", "m4ri", q, 5, &specs[i + 1]),          \
    TOGGLE_WL(grp "/flint", grp, "flint", "toggle-gf2", fq, frep, &specs[i + 2])

static const bench_workload gf2_workloads[] = {
    GROUP("gf2/dense/1024", 0, 1, 3, 1),
    GROUP("gf2/dense/2048", 3, 1, 3, 1),
    GROUP("gf2/dense/4096", 6, 1, 1, 0), /* FLINT here takes seconds: full runs only */
    GROUP("gf2/dense/8192", 9, 1, 1, 0),
    GROUP("gf2/lightsout/32", 12, 1, 3, 1),
    GROUP("gf2/lightsout/50", 15, 1, 3, 1),
    GROUP("gf2/lightsout/70", 18, 1, 1, 0),
    /* pivotless columns between pivot columns (docs/gf2.md) */
    GROUP("gf2/gapped/1024", 21, 1, 3, 1),    /* rank N/2, odd columns dependent */
    GROUP("gf2/gapped/4096", 24, 0, 1, 0),
    GROUP("gf2/gapped8/4096", 27, 0, 1, 0),   /* rank N/8, one pivot column in 8 */
    GROUP("gf2/lowrank/4096", 30, 0, 1, 0),   /* rank N/8, random */
    GROUP("gf2/lightsout/64", 33, 0, 1, 0),   /* N = 4096, nullity 28 */
};

/* ---- large sizes, rectangles, ranks, threads, packed input ------------- */

static const spec big_specs[] = {
    {16384, DENSE, -1, 0, 0, 0},   {16384, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 0},
    {32768, DENSE, -1, 0, 0, 0},   {32768, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 0},
    {8192, LOWRANK, -1, 2, 0, 0},  {8192, LOWRANK, TOGGLE_ENGINE_GF2, 2, 0, 0},  /* rank N/2 */
    {8192, LOWRANK, -1, 8, 0, 0},  {8192, LOWRANK, TOGGLE_ENGINE_GF2, 8, 0, 0},  /* rank N/8 */
    {8192, DENSE, -1, 0, 4096, 0}, {8192, DENSE, TOGGLE_ENGINE_GF2, 0, 4096, 0}, /* 2N x N */
    {4096, DENSE, -1, 0, 8192, 0}, {4096, DENSE, TOGGLE_ENGINE_GF2, 0, 8192, 0}, /* N x 2N */
    {8192, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 1}, {8192, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 2},
    {100, BOARD, TOGGLE_ENGINE_GF2, 0, 0, 1},  {100, BOARD, TOGGLE_ENGINE_GF2, 0, 0, 2},
    {16384, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 1}, {16384, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 2},
    {32768, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 0},
    {16384, LOWRANK, -1, 8, 0, 0}, {16384, LOWRANK, TOGGLE_ENGINE_GF2, 8, 0, 0},
    /* 21: the recursive form's sizes: rank N/2 and rectangles */
    {16384, LOWRANK, -1, 2, 0, 0}, {16384, LOWRANK, TOGGLE_ENGINE_GF2, 2, 0, 0},
    {32768, LOWRANK, -1, 2, 0, 0}, {32768, LOWRANK, TOGGLE_ENGINE_GF2, 2, 0, 0},
    {16384, DENSE, -1, 0, 8192, 0}, {16384, DENSE, TOGGLE_ENGINE_GF2, 0, 8192, 0},
    {8192, DENSE, -1, 0, 16384, 0}, {8192, DENSE, TOGGLE_ENGINE_GF2, 0, 16384, 0},
    {32768, DENSE, -1, 0, 16384, 0}, {32768, DENSE, TOGGLE_ENGINE_GF2, 0, 16384, 0},
    {16384, DENSE, -1, 0, 32768, 0}, {16384, DENSE, TOGGLE_ENGINE_GF2, 0, 32768, 0},
    {32768, LOWRANK, -1, 8, 0, 0}, {32768, LOWRANK, TOGGLE_ENGINE_GF2, 8, 0, 0},
    /* 35: N = 1024 .. 4096 random ranks and rectangles,
     * 32768 rectangles, 65536 dense (512 MiB: full runs only) */
    {1024, LOWRANK, -1, 2, 0, 0},  {1024, LOWRANK, TOGGLE_ENGINE_GF2, 2, 0, 0},
    {2048, LOWRANK, -1, 2, 0, 0},  {2048, LOWRANK, TOGGLE_ENGINE_GF2, 2, 0, 0},
    {4096, LOWRANK, -1, 2, 0, 0},  {4096, LOWRANK, TOGGLE_ENGINE_GF2, 2, 0, 0},
    {1024, LOWRANK, -1, 8, 0, 0},  {1024, LOWRANK, TOGGLE_ENGINE_GF2, 8, 0, 0},
    {2048, LOWRANK, -1, 8, 0, 0},  {2048, LOWRANK, TOGGLE_ENGINE_GF2, 8, 0, 0},
    {2048, DENSE, -1, 0, 1024, 0}, {2048, DENSE, TOGGLE_ENGINE_GF2, 0, 1024, 0},
    {1024, DENSE, -1, 0, 2048, 0}, {1024, DENSE, TOGGLE_ENGINE_GF2, 0, 2048, 0},
    {4096, DENSE, -1, 0, 2048, 0}, {4096, DENSE, TOGGLE_ENGINE_GF2, 0, 2048, 0},
    {2048, DENSE, -1, 0, 4096, 0}, {2048, DENSE, TOGGLE_ENGINE_GF2, 0, 4096, 0},
    {65536, DENSE, -1, 0, 32768, 0}, {65536, DENSE, TOGGLE_ENGINE_GF2, 0, 32768, 0},
    {32768, DENSE, -1, 0, 65536, 0}, {32768, DENSE, TOGGLE_ENGINE_GF2, 0, 65536, 0},
    {65536, DENSE, -1, 0, 0, 0},   {65536, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 0},
    /* 59: two threads at 32768 */
    {32768, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 1}, {32768, DENSE, TOGGLE_ENGINE_GF2, 0, 0, 2},
};

/* toggle_system_new_packed alone on the data of a spec: the cost of building. */
typedef struct build_state {
    uint64_t *a, *b;
    size_t n;
} build_state;

static void *build_setup(const void *arg)
{
    const spec *sp = arg;
    build_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    dense_system(sp, sp->n, &st->a, &st->b);
    st->n = sp->n;
    if (!st->a) {
        free(st);
        return NULL;
    }
    return st;
}

static int build_run(void *state, int check)
{
    build_state *st = state;
    toggle_system *s = NULL;
    (void)check;
    if (toggle_system_new_packed(&s, st->n, st->n, st->a, (st->n + 63) / 64, st->b))
        return 1;
    toggle_system_free(s);
    return 0;
}

static void build_teardown(void *state)
{
    build_state *st = state;
    free(st->a);
    free(st->b);
    free(st);
}

/* The machine's own two-thread capacity, the reference for the thread
 * groups: a streaming xor over 16 MiB (the row pass's access pattern), 48
 * sweeps, split in halves over 1 or 2 threads. On a shared machine its
 * t2 / t1 wall ratio says what two threads can gain at that moment. */
typedef struct cap_state {
    uint64_t *buf;
    size_t words;
    unsigned threads;
} cap_state;

typedef struct cap_part {
    uint64_t *p;
    size_t n;
} cap_part;

static void *cap_setup(const void *arg)
{
    cap_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->threads = *(const unsigned *)arg;
    st->words = (size_t)2 << 20;
    if (!(st->buf = malloc(st->words * sizeof *st->buf))) {
        free(st);
        return NULL;
    }
    uint64_t seed = 7;
    for (size_t i = 0; i < st->words; i++)
        st->buf[i] = rng_next(&seed);
    return st;
}

static void *cap_sweep(void *arg)
{
    cap_part *c = arg;
    for (unsigned pass = 0; pass < 48; pass++)
        for (size_t w = 1; w < c->n; w++)
            c->p[w] ^= c->p[w - 1] + pass;
    return NULL;
}

/* The references' two halves of work: f(a) then f(b) on one thread, or
 * side by side on two. Returns 1 when the second thread did not start. */
static int halves(void *(*f)(void *), void *a, void *b, unsigned threads)
{
    if (threads < 2) {
        f(a);
        f(b);
        return 0;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, f, b))
        return 1;
    f(a);
    pthread_join(t, NULL);
    return 0;
}

static int cap_run(void *state, int check)
{
    cap_state *st = state;
    (void)check;
    size_t half = st->words / 2;
    cap_part a = {st->buf, half}, b = {st->buf + half, st->words - half};
    return halves(cap_sweep, &a, &b, st->threads);
}

static void cap_teardown(void *state)
{
    cap_state *st = state;
    free(st->buf);
    free(st);
}

static const unsigned cap_threads[] = {1, 2};

/* The cores' own two-thread capacity on compute alone (no memory traffic):
 * a fixed number of dependent multiply-xorshift steps on registers, split
 * in halves over 1 or 2 threads. Against the streaming reference above it
 * tells what the cores give and what the memory system takes. */
typedef struct spin_part {
    uint64_t x, steps;
} spin_part;

static void *spin_sweep(void *arg)
{
    spin_part *c = arg;
    uint64_t x = c->x;
    for (uint64_t i = 0; i < c->steps; i++) {
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
    }
    c->x = x;
    return NULL;
}

static void *spin_setup(const void *arg)
{
    unsigned *t = malloc(sizeof *t);
    if (t)
        *t = *(const unsigned *)arg;
    return t;
}

static int spin_run(void *state, int check)
{
    unsigned threads = *(unsigned *)state;
    (void)check;
    spin_part a = {1, (uint64_t)1 << 26}, b = {2, (uint64_t)1 << 26};
    if (halves(spin_sweep, &a, &b, threads))
        return 1;
    return (a.x | b.x) == 0; /* never: keeps the loops */
}

/* The cores' two-thread capacity on vector work (no memory traffic): per
 * thread, repeated xor and add passes over two 8 KiB buffers (L1-resident,
 * so the loads, stores and vector units bound it, as in the gf2 kernels'
 * inner loops), split in halves over 1 or 2 threads. Where the machine's
 * two processors are hyperthreads of one core at that moment, they share
 * those units and its t2 / t1 nears 1; the compute reference above (a
 * latency-bound chain) does not see that. The two halves are 4 KiB
 * apart on cache lines of their own: written back to back, one thread's
 * last lines next to the other's first would slow the second thread
 * down, and the reference would understate the second core. */
enum { VEC_WORDS = 1024, VEC_GAP = 4096 };
typedef struct vec_part {
    uint64_t a[VEC_WORDS], b[VEC_WORDS];
    unsigned passes;
    char gap[VEC_GAP - sizeof(unsigned)]; /* a part: a whole number of cache lines */
} vec_part;

static void *vec_sweep(void *arg)
{
    vec_part *v = arg;
    bench_vec_sweep(v->a, v->b, VEC_WORDS, v->passes);
    return NULL;
}

typedef struct vec_state {
    vec_part part[2];
    unsigned threads;
} vec_state;

static void *vec_setup(const void *arg)
{
    size_t bytes = (sizeof(vec_state) + 63) / 64 * 64;
    vec_state *st = aligned_alloc(64, bytes);
    if (!st)
        return NULL;
    memset(st, 0, bytes);
    st->threads = *(const unsigned *)arg;
    uint64_t seed = 11;
    for (int h = 0; h < 2; h++) {
        for (size_t i = 0; i < VEC_WORDS; i++) {
            st->part[h].a[i] = rng_next(&seed);
            st->part[h].b[i] = rng_next(&seed);
        }
        st->part[h].passes = 1u << 19;
    }
    return st;
}

static int vec_run(void *state, int check)
{
    vec_state *st = state;
    (void)check;
    if (halves(vec_sweep, &st->part[0], &st->part[1], st->threads))
        return 1;
    return (st->part[0].a[0] | st->part[1].a[0]) == 1; /* keeps the loops */
}

#define BIG(grp, i, reps)                                                                        M4RI_WL(grp "/m4ri", grp, 0, reps, &big_specs[i])                                          TOGGLE_WL(grp "/toggle-gf2", grp, "toggle-gf2", "m4ri", 0, reps, &big_specs[i + 1])
#define THREADS(grp, i, reps)                                                                    TOGGLE_WL(grp "/toggle-gf2-t1", grp, "toggle-gf2-t1", NULL, 0, reps, &big_specs[i]),        TOGGLE_WL(grp "/toggle-gf2-t2", grp, "toggle-gf2-t2", "toggle-gf2-t1", 0, reps,                      &big_specs[i + 1])

static const bench_workload gf2_big_workloads[] = {
    BIG("gf2/dense/16384", 0, 3),
    BIG("gf2/dense/32768", 2, 1),
    BIG("gf2/rankhalf/8192", 4, 3),
    BIG("gf2/lowrank/8192", 6, 3),
    BIG("gf2/rect2NxN/4096", 8, 3),
    BIG("gf2/rectNx2N/4096", 10, 3),
    BIG("gf2/lowrank/16384", 19, 1),
    BIG("gf2/rankhalf/16384", 21, 1),
    BIG("gf2/rankhalf/32768", 23, 1),
    BIG("gf2/rect2NxN/8192", 25, 1),
    BIG("gf2/rectNx2N/8192", 27, 1),
    BIG("gf2/rect2NxN/16384", 29, 1),
    BIG("gf2/rectNx2N/16384", 31, 1),
    BIG("gf2/lowrank/32768", 33, 1),
    BIG("gf2/rankhalf/1024", 35, 5),
    BIG("gf2/rankhalf/2048", 37, 5),
    BIG("gf2/rankhalf/4096", 39, 5),
    BIG("gf2/lowrank/1024", 41, 5),
    BIG("gf2/lowrank/2048", 43, 5),
    BIG("gf2/rect2NxN/1024", 45, 5),
    BIG("gf2/rectNx2N/1024", 47, 5),
    BIG("gf2/rect2NxN/2048", 49, 5),
    BIG("gf2/rectNx2N/2048", 51, 5),
    BIG("gf2/rect2NxN/32768", 53, 1),
    BIG("gf2/rectNx2N/32768", 55, 1),
    BIG("gf2/dense/65536", 57, 1),
    {"gf2/threads/capacity/spin-t1", "gf2/threads/capacity", "xor-t1", NULL, 0, 3, cap_setup,
     cap_run, cap_teardown, &cap_threads[0]},
    {"gf2/threads/capacity/spin-t2", "gf2/threads/capacity", "xor-t2", "xor-t1", 0, 3, cap_setup,
     cap_run, cap_teardown, &cap_threads[1]},
    THREADS("gf2/threads/dense/8192", 12, 3),
    THREADS("gf2/threads/lightsout/100", 14, 3),
    THREADS("gf2/threads/dense/16384", 16, 1),
    THREADS("gf2/threads/dense/32768", 59, 1),
    {"gf2/build/32768/toggle-packed", "gf2/dense/32768", "build-packed", "toggle-gf2", 0, 3,
     build_setup, build_run, build_teardown, &big_specs[18]},
    {"gf2/threads/compute/spin-t1", "gf2/threads/compute", "spin-t1", NULL, 0, 3, spin_setup,
     spin_run, free, &cap_threads[0]},
    {"gf2/threads/compute/spin-t2", "gf2/threads/compute", "spin-t2", "spin-t1", 0, 3,
     spin_setup, spin_run, free, &cap_threads[1]},
    {"gf2/threads/vector/xor-t1", "gf2/threads/vector", "vec-t1", NULL, 0, 3, vec_setup,
     vec_run, free, &cap_threads[0]},
    {"gf2/threads/vector/xor-t2", "gf2/threads/vector", "vec-t2", "vec-t1", 0, 3, vec_setup,
     vec_run, free, &cap_threads[1]},
};

void bench_register_gf2(void)
{
    bench_scaling("gf2/threads/");
    bench_register(gf2_workloads, sizeof gf2_workloads / sizeof *gf2_workloads);
    bench_register(gf2_big_workloads, sizeof gf2_big_workloads / sizeof *gf2_big_workloads);
}
