/* Reading the canonical answers out of a reduced row echelon form of
 * [A | b]: shared by the elimination engines (flint, gf2). */
#include "engine.h"

/* out |= the bits of t (bit r: R[r][f]) deposited on the pivot columns of
 * words 0 .. nw - 1: word w takes bits cnt[w] .. cnt[w + 1] - 1 of t on the
 * set bits of P[w] (a bit deposit, pdep). Compiled for BMI2 on x86. */
#define KERNEL_DEPOSIT_BODY(PDEP)                                                        \
    for (size_t w = 0; w < nw; w++) {                                                    \
        uint64_t m = P[w];                                                               \
        if (!m)                                                                          \
            continue;                                                                    \
        size_t o = cnt[w];                                                               \
        unsigned sh = (unsigned)(o & 63), len = (unsigned)(cnt[w + 1] - o);               \
        uint64_t x = t[o >> 6] >> sh;                                                    \
        if (sh && sh + len > 64)                                                         \
            x |= t[(o >> 6) + 1] << (64 - sh);                                           \
        if (x)                                                                           \
            out[w] |= PDEP(x, m);                                                        \
    }

static inline uint64_t soft_pdep(uint64_t x, uint64_t m)
{
    uint64_t r = 0;
    for (; m && x; m &= m - 1, x >>= 1)
        if (x & 1)
            r |= m & (0 - m);
    return r;
}

typedef void (*deposit_fn)(uint64_t *out, const uint64_t *t, const uint64_t *P,
                           const size_t *cnt, size_t nw);
static void deposit_generic(uint64_t *out, const uint64_t *t, const uint64_t *P,
                            const size_t *cnt, size_t nw)
{
    KERNEL_DEPOSIT_BODY(soft_pdep)
}
#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target("bmi2"))) static void deposit_bmi2(uint64_t *out, const uint64_t *t,
                                                         const uint64_t *P, const size_t *cnt,
                                                         size_t nw)
{
    KERNEL_DEPOSIT_BODY(__builtin_ia32_pdep_di)
}
#define DEPOSIT_PICK() (__builtin_cpu_supports("bmi2") ? deposit_bmi2 : deposit_generic)
#else
#define DEPOSIT_PICK() deposit_generic
#endif

/* The kernel basis over GF(2) from a packed RREF R: vector v (free column
 * f) is e_f plus column f of R on the pivot columns. R's columns are read
 * 64 at a time by a 64 x 64 bit-block transpose (column f of R becomes a
 * row of rank_a bits) and deposited on the pivot columns a word at a time:
 * O(nullity * n / 64) word operations, where reading R a bit at a time
 * costs nullity * rank strided reads. */
static int kernel_gf2(toggle__vecs *K, const toggle__vecs *R, size_t rank_a, const size_t *pivot,
                      size_t n)
{
    size_t RW = rank_a / 64 + (rank_a % 64 != 0), NW = n / 64 + (n % 64 != 0);
    uint64_t *T = toggle__malloc_array(64 * (RW ? RW : 1), sizeof *T);
    uint64_t *P = toggle__calloc(NW ? NW : 1, sizeof *P);
    size_t *cnt = toggle__malloc_array(NW + 1, sizeof *cnt);
    if (!T || !P || !cnt) {
        TOGGLE__FREE_ALL(T, P, cnt);
        return toggle__error(TOGGLE_ENOMEM, "out of memory reading the kernel basis");
    }
    for (size_t r = 0; r < rank_a; r++)
        P[pivot[r] >> 6] |= (uint64_t)1 << (pivot[r] & 63);
    cnt[0] = 0;
    for (size_t w = 0; w < NW; w++)
        cnt[w + 1] = cnt[w] + (size_t)__builtin_popcountll((unsigned long long)P[w]);
    deposit_fn deposit = DEPOSIT_PICK();
    for (size_t wc = 0, v = 0; wc < NW; wc++) {
        size_t c = n - wc * 64 < 64 ? n - wc * 64 : 64;
        uint64_t fm = ~P[wc] & (c == 64 ? ~(uint64_t)0 : ((uint64_t)1 << c) - 1);
        if (!fm)
            continue;
        if (rank_a)
            toggle__bits_transpose(T, RW, R->data + wc, R->stride, rank_a, c);
        for (; fm; fm &= fm - 1) {
            unsigned b = (unsigned)__builtin_ctzll((unsigned long long)fm);
            uint64_t *out = toggle__vecs_row(K, v++);
            out[wc] |= (uint64_t)1 << b;
            /* rows whose pivot is right of f are zero in column f (RREF) */
            if (rank_a)
                deposit(out, T + b * RW, P, cnt, wc + 1);
        }
    }
    TOGGLE__FREE_ALL(T, P, cnt);
    return TOGGLE_OK;
}

int toggle__readout_rref(const toggle_system *s, toggle_solution *sol, const toggle__vecs *R,
                         size_t rank, const size_t *pivot, uint64_t held)
{
    size_t n = s->n;
    uint64_t k = s->k;
    bool inconsistent = rank > 0 && pivot[rank - 1] == n;
    size_t rank_a = inconsistent ? rank - 1 : rank;
    sol->solvable = !inconsistent;
    sol->nullity = n - rank_a;
    size_t kb;
    if (!toggle__vecs_bytes(n, sol->nullity, k, &kb))
        return toggle__error(TOGGLE_EOVERFLOW, "kernel basis overflows size_t");
    int rc = toggle__budget_check(s, held + kb, "the kernel basis");
    if (!rc)
        rc = toggle__vecs_init(&sol->kernel, n, sol->nullity, k);
    if (rc)
        return rc;
    bool bits = k == 2 && R && R->packed && sol->kernel.packed; /* word-wise readout */
    if (bits) {
        if ((rc = kernel_gf2(&sol->kernel, R, rank_a, pivot, n))) {
            toggle__vecs_clear(&sol->kernel);
            return rc;
        }
    }
    /* Free column f gives e_f - sum R[i][f] e_pivot[i]; only the pivot rows
     * i whose pivot lies left of f can have an entry in column f. */
    for (size_t f = 0, v = 0, i = 0; f < n && !bits; f++) {
        if (i < rank_a && pivot[i] == f) {
            i++;
            continue;
        }
        toggle__vecs_set(&sol->kernel, v, f, 1);
        for (size_t r = 0; r < i; r++) {
            uint64_t e = toggle__vecs_get(R, r, f);
            if (e)
                toggle__vecs_set(&sol->kernel, v, pivot[r], k - e);
        }
        v++;
    }
    if (!sol->solvable)
        return TOGGLE_OK;
    if ((rc = toggle__vecs_init(&sol->x, n, 1, k)))
        return rc;
    for (size_t r = 0; r < rank_a; r++)
        toggle__vecs_set(&sol->x, 0, pivot[r], toggle__vecs_get(R, r, n));
    return TOGGLE_OK;
}

/* ---- the kernel's share of the estimate -------------------------------- */

/* Rows i whose last nonzero column mu(i) strictly increases with i form,
 * with the columns mu(i), a lower triangular block whose diagonal is
 * nonzero (row i has no entry right of mu(i)), so over a prime field
 * rank A >= their number and nullity <= n - (longest such run). The run is
 * the longest strictly increasing subsequence of mu, found by patience
 * sorting. A board is read in both cell orders (row-major, column-major),
 * so that the bound follows its shorter side: for the classic R x C board
 * it is min(R, C); for wraps and wider stencils a few rows more. */
typedef struct {
    size_t *rm, *cm; /* mu + 1 per row (0: empty row), in each order */
    size_t R, C;     /* board shape (cm unused when R = 0) */
} mu_ctx;

static void note_mu(void *ctx, size_t i, size_t j, uint64_t v)
{
    (void)v;
    mu_ctx *c = ctx;
    if (j + 1 > c->rm[i])
        c->rm[i] = j + 1;
    if (c->R) {
        size_t pi = (i % c->C) * c->R + i / c->C, pj = (j % c->C) * c->R + j / c->C;
        if (pj + 1 > c->cm[pi])
            c->cm[pi] = pj + 1;
    }
}

/* mu + 1 of each row of a dense A, read from the row's end (packed rows a
 * word at a time): O(m) for dense rows, where a walk over every entry
 * would cost m * n callbacks. */
static int dense_mu(const toggle_system *s, size_t *rm)
{
    for (size_t i = 0; i < s->m; i++) {
        /* one cache miss a row, a row apart: ask for the rows ahead so the
         * misses overlap instead of being paid one after another */
        if (s->a.packed && i + 16 < s->m && s->a.stride)
            __builtin_prefetch(toggle__vecs_row(&s->a, i + 16) + s->a.stride - 1);
        size_t j = toggle__vecs_last_nonzero(&s->a, i);
        rm[i] = j == SIZE_MAX ? 0 : j + 1;
    }
    return TOGGLE_OK;
}

static size_t longest_increasing(const size_t *a, size_t m, size_t *tails)
{
    size_t len = 0;
    for (size_t i = 0; i < m; i++) {
        if (!a[i])
            continue;
        size_t lo = 0, hi = len; /* first tail >= a[i] */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (tails[mid] < a[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        tails[lo] = a[i];
        if (lo == len)
            len++;
    }
    return len;
}

/* An upper bound on the nullity of A (prime k) into *bound, and the bytes
 * the bound itself needs (three words per row, freed before the solve).
 * When those would be over a sixteenth of the budget, the estimate's own
 * cost stays small: n, the trivial bound. */
static int nullity_bound(const toggle_system *s, uint64_t *scratch, size_t *bound)
{
    size_t m = s->m, n = s->n;
    const toggle_graph *g = s->graph;
    bool board = g && (g->kind == TOGGLE_KIND_GRID || g->kind == TOGGLE_KIND_STENCIL) &&
                 g->rows && g->cols && m == n && g->rows * g->cols == n;
    *scratch = (uint64_t)m * sizeof(size_t) * (board ? 3 : 2);
    *bound = n;
    if (!g && !s->a.data) { /* a shape (estimates only): its hint, or n */
        *scratch = 0;
        if (s->nullity_hint && s->nullity_hint - 1 < n)
            *bound = s->nullity_hint - 1;
        return TOGGLE_OK;
    }
    size_t known = atomic_load_explicit(&s->nullity_bound, memory_order_relaxed);
    if (known) { /* found by an earlier solve: A is the same */
        *scratch = 0;
        *bound = known - 1;
        return TOGGLE_OK;
    }
    if (m == 0 || n == 0 || (s->budget && *scratch > s->budget / 16)) {
        *scratch = 0;
        return TOGGLE_OK;
    }
    mu_ctx c = {toggle__calloc(m, sizeof(size_t)), board ? toggle__calloc(m, sizeof(size_t)) : NULL,
                board ? g->rows : 0, board ? g->cols : 0};
    size_t *tails = toggle__malloc_array(m, sizeof *tails);
    int rc = c.rm && tails && (!board || c.cm)
           ? (g ? toggle__system_each_entry(s, note_mu, &c) : dense_mu(s, c.rm))
           : toggle__error(TOGGLE_ENOMEM, "out of memory bounding the kernel");
    if (!rc) {
        size_t run = longest_increasing(c.rm, m, tails);
        if (board) {
            size_t run2 = longest_increasing(c.cm, m, tails);
            run = run2 > run ? run2 : run;
        }
        *bound = n - (run < n ? run : n);
        /* kept for the next solve (the slot only: the system's A is const) */
        atomic_store_explicit(&((toggle_system *)s)->nullity_bound, *bound + 1,
                              memory_order_relaxed);
    }
    toggle__free(c.rm);
    toggle__free(c.cm);
    toggle__free(tails);
    return rc;
}

int toggle__answers_estimate(const toggle_system *s, uint64_t *bytes, size_t *nullity,
                             uint64_t *scratch_bytes)
{
    size_t x;
    if (!toggle__vecs_bytes(s->n, 1, s->k, &x))
        return toggle__error(TOGGLE_EOVERFLOW, "a vector of %zu entries overflows size_t", s->n);
    uint64_t scratch = 0;
    size_t d = s->n;
    int rc = toggle__is_prime(s->k) ? nullity_bound(s, &scratch, &d) : TOGGLE_OK;
    if (rc)
        return rc;
    if (scratch_bytes)
        *scratch_bytes = scratch;
    unsigned __int128 e = (unsigned __int128)x * (d + 1);
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    if (nullity)
        *nullity = d;
    return TOGGLE_OK;
}

int toggle__readout_estimate(const toggle_system *s, uint64_t held, uint64_t *bytes)
{
    size_t x, one_kernel;
    if (!toggle__vecs_bytes(s->n, 1, s->k, &x))
        return toggle__error(TOGGLE_EOVERFLOW, "a vector of %zu entries overflows size_t", s->n);
    one_kernel = x;
    unsigned __int128 e = (unsigned __int128)held + x;
    /* already over the budget without the kernel: no need to bound it */
    if (s->budget && e > s->budget) {
        *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
        return TOGGLE_OK;
    }
    uint64_t scratch = 0;
    size_t d = s->n;
    int rc = toggle__is_prime(s->k) ? nullity_bound(s, &scratch, &d) : TOGGLE_OK;
    if (rc)
        return rc;
    e += (unsigned __int128)one_kernel * d;
    if (e < scratch)
        e = scratch;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}
