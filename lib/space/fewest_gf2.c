/* Fewest presses over F_2: the Walsh-Hadamard split search, with forbidden
 * cells eliminated from the coefficient space, per-cell costs, the board's
 * symmetries (each orbit of Walsh-Hadamard blocks scored once), sound
 * lower bounds on whole chunks and blocks, and the chunks of the outer
 * enumeration shared among threads. Method and proof of exactness:
 * docs/solution-spaces.md. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"
#include "space_internal.h"

#define LMAX 20    /* most low coefficients one transform covers */
#define LTARGET 17 /* low coefficients when d > LMAX */
#define CBITS 14   /* chunk bits (at most) */

static inline int par(uint64_t v) { return __builtin_parityll(v); }

/* pat[j] <- the pattern of cell j in the basis whose row r is
 * sum_i B[r]_i E_i (B[r] a bitmask over the old coefficients). */
static void change_basis(uint64_t *pat, size_t n, const uint64_t *B, size_t dnew)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t p = pat[j], q = 0;
        for (size_t r = 0; r < dnew; r++)
            q |= (uint64_t)par(B[r] & p) << r;
        pat[j] = q;
    }
}

/* Cells with cost TOGGLE__COST_FORBIDDEN must be 0: parity(pat_j & c) = x0_j.
 * Solve for c over F_2 (RREF of the constraint rows), move x0 to a
 * solution of the constraints and the basis to their null space. false if
 * the constraints are inconsistent. */
static int restrict_forbidden(uint64_t *pat, uint8_t *x0, size_t n, size_t *d,
                              const uint64_t *cost, bool *ok)
{
    *ok = true;
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        m += cost[j] == TOGGLE__COST_FORBIDDEN;
    if (!m)
        return TOGGLE_OK;
    uint64_t *row = toggle__malloc_array(m, sizeof *row);
    uint8_t *rhs = toggle__malloc(m);
    if (!row || !rhs) {
        toggle__free(row);
        toggle__free(rhs);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the search");
    }
    m = 0;
    for (size_t j = 0; j < n; j++)
        if (cost[j] == TOGGLE__COST_FORBIDDEN) {
            row[m] = pat[j];
            rhs[m++] = x0[j];
        }
    size_t rank = 0, pivcol[64];
    for (size_t col = 0; col < *d && rank < m; col++) {
        size_t r = rank;
        while (r < m && !((row[r] >> col) & 1))
            r++;
        if (r == m)
            continue;
        uint64_t tr = row[r];
        uint8_t tb = rhs[r];
        row[r] = row[rank];
        rhs[r] = rhs[rank];
        row[rank] = tr;
        rhs[rank] = tb;
        for (size_t q = 0; q < m; q++)
            if (q != rank && ((row[q] >> col) & 1)) {
                row[q] ^= tr;
                rhs[q] ^= tb;
            }
        pivcol[rank++] = col;
    }
    for (size_t q = rank; q < m; q++)
        if (rhs[q]) /* rows below the rank are zero */
            *ok = false;
    if (*ok) {
        uint64_t cstar = 0, B[64];
        size_t dn = 0;
        for (size_t r = 0; r < rank; r++)
            cstar |= (uint64_t)rhs[r] << pivcol[r];
        for (size_t f = 0, r = 0; f < *d; f++) {
            if (r < rank && pivcol[r] == f) {
                r++;
                continue;
            }
            uint64_t v = (uint64_t)1 << f;
            for (size_t q = 0; q < rank; q++)
                if ((row[q] >> f) & 1)
                    v |= (uint64_t)1 << pivcol[q];
            B[dn++] = v;
        }
        for (size_t j = 0; j < n; j++)
            x0[j] ^= (uint8_t)par(pat[j] & cstar);
        change_basis(pat, n, B, dn);
        *d = dn;
    }
    toggle__free(row);
    toggle__free(rhs);
    return TOGGLE_OK;
}

/* An information set: d cells piv[] whose patterns are independent, and
 * qinv with c_i = parity(qinv[i] & y) solving parity(pat[piv[r]] & c) = y_r. */
static bool info_set(const uint64_t *pat, size_t n, size_t d, size_t *piv, uint64_t *qinv)
{
    uint64_t basis[64] = {0}, Q[64];
    size_t cnt = 0;
    for (size_t j = 0; j < n && cnt < d; j++) {
        uint64_t v = pat[j];
        for (int b = 63; b >= 0 && v; b--)
            if ((v >> b) & 1) {
                if (!basis[b]) {
                    basis[b] = v;
                    piv[cnt] = j;
                    Q[cnt++] = pat[j];
                    break;
                }
                v ^= basis[b];
            }
    }
    if (cnt < d)
        return false;
    for (size_t i = 0; i < d; i++)
        qinv[i] = (uint64_t)1 << i;
    for (size_t i = 0; i < d; i++) {
        size_t r = i;
        while (!((Q[r] >> i) & 1))
            r++;
        uint64_t t = Q[r];
        Q[r] = Q[i];
        Q[i] = t;
        t = qinv[r];
        qinv[r] = qinv[i];
        qinv[i] = t;
        for (size_t q = 0; q < d; q++)
            if (q != i && ((Q[q] >> i) & 1)) {
                Q[q] ^= Q[i];
                qinv[q] ^= qinv[i];
            }
    }
    return true;
}

/* The coefficients of the vector v (given on the cells by bit(j)) if it lies
 * in the span of the basis; false otherwise. */
typedef struct {
    const uint64_t *pat;
    const uint8_t *x0;
    const size_t *inv; /* inverse permutation */
    size_t n, d;
} symctx;

static bool coords_of_image(const symctx *c, const size_t *piv, const uint64_t *qinv, int gen,
                            uint64_t *out)
{
    /* gen >= 0: v = sigma(E_gen), v[j] = bit gen of pat[inv[j]];
     * gen < 0: v = sigma(x0) - x0, v[j] = x0[inv[j]] ^ x0[j]. */
#define VBIT(j) (gen >= 0 ? (int)((c->pat[c->inv[j]] >> gen) & 1) : (c->x0[c->inv[j]] ^ c->x0[j]))
    uint64_t y = 0, co = 0;
    for (size_t r = 0; r < c->d; r++)
        y |= (uint64_t)VBIT(piv[r]) << r;
    for (size_t i = 0; i < c->d; i++)
        co |= (uint64_t)par(qinv[i] & y) << i;
    for (size_t j = 0; j < c->n; j++)
        if (par(c->pat[j] & co) != VBIT(j))
            return false;
#undef VBIT
    *out = co;
    return true;
}

/* The action of a cell permutation on the coefficients: m[i] = coords of
 * sigma(E_i), *alpha = coords of sigma(x0) - x0. false if sigma does not map
 * the solution set onto itself. */
static bool sym_action(const symctx *c, uint64_t *m, uint64_t *alpha)
{
    size_t piv[64];
    uint64_t qinv[64];
    if (!info_set(c->pat, c->n, c->d, piv, qinv))
        return false;
    for (size_t i = 0; i < c->d; i++)
        if (!coords_of_image(c, piv, qinv, (int)i, &m[i]))
            return false;
    return coords_of_image(c, piv, qinv, -1, alpha);
}

static uint64_t lin_apply(const uint64_t *m, uint64_t v)
{
    uint64_t r = 0;
    while (v) {
        r ^= m[__builtin_ctzll(v)];
        v &= v - 1;
    }
    return r;
}

/* Linear basis over F_2 keyed by leading bit. */
typedef struct {
    uint64_t v[64];
    size_t count;
} xbasis;

static bool xb_insert(xbasis *b, uint64_t v)
{
    for (int t = 63; t >= 0 && v; t--)
        if ((v >> t) & 1) {
            if (!b->v[t]) {
                b->v[t] = v;
                b->count++;
                return true;
            }
            v ^= b->v[t];
        }
    return false;
}

/* ---- the threaded split search ------------------------------------------ */

#define MAXSYM 7

struct worker;

typedef struct shared {
    size_t nk, L, H, C;   /* kept cells, low bits, high bits, walk bits (the top
                           * H - C name the chunk) */
    int64_t ctot;         /* sum of kept costs */
    const uint32_t *plo;
    const uint64_t *phi;
    const int32_t *cst;
    const uint8_t *x0;
    const size_t *lstart, *lcell; /* cells whose phi has bit i (i < C) */
    const size_t *ord;            /* kept cells sorted by free pattern */
    const uint64_t *okey;
    bool narrow;
    unsigned vm;            /* the vector path: L - VSHIFT row levels */
    const int16_t *hsign;   /* VLANES x VLANES signs (-1)^{r.q} */
    void (*run)(struct worker *, uint64_t); /* the vector path's chunk, or NULL */
    const uint64_t *todo;   /* chunks this run may do, increasing */
    uint64_t ntodo;
    uint8_t *done;          /* per todo entry: 1 once finished */
    atomic_uint_fast64_t next, finished;
    atomic_int stop;        /* the progress callback cancelled */
    int cancel;             /* its status (written by worker 0 only) */
    _Atomic int64_t best;
    const toggle__progress_state *progress;
    toggle__fewest_live *live;
    int64_t w0;             /* weight of the cells no coefficient moves */
    uint64_t pbase, ptotal; /* chunks done before this run, chunks in all */
} shared;

typedef struct worker {
    shared *sh;
    unsigned id;
    int32_t *g;
    void *t;
    int8_t *sgn;
    int16_t *G, *A; /* the vector path's rows (64-byte aligned in Graw, Araw) */
    void *Graw, *Araw;
    uint64_t chunks;
    int64_t best;
    uint64_t bt, bu, blo, bhi;
} worker;

/* max over c of WHT(g)(c), and an argmax: the first level reads g (so g is
 * kept), the last one tracks the maximum. T is int16_t when the sum of |g|
 * is below 2^15 (the transform stays within +-sum |g|), else int32_t:
 * twice the SIMD lanes on the hot path. */
#define DEFINE_WHT_MAX(T, NAME)                                                        \
    static int32_t NAME(const int32_t *g, T *a, size_t N, size_t *arg)                 \
    {                                                                                  \
        if (N == 1) {                                                                  \
            *arg = 0;                                                                  \
            return g[0];                                                               \
        }                                                                              \
        for (size_t j = 0; j < N; j += 2) {                                            \
            a[j] = (T)(g[j] + g[j + 1]);                                               \
            a[j + 1] = (T)(g[j] - g[j + 1]);                                           \
        }                                                                              \
        size_t h;                                                                      \
        for (h = 2; 2 * h < N; h <<= 1)                                                \
            for (size_t i = 0; i < N; i += 2 * h)                                      \
                for (size_t j = i; j < i + h; j++) {                                   \
                    T u = a[j], v = a[j + h];                                          \
                    a[j] = (T)(u + v);                                                 \
                    a[j + h] = (T)(u - v);                                             \
                }                                                                      \
        T mx = a[0];                                                                   \
        if (h < N) {                                                                   \
            T m0 = a[0], m1 = a[0];                                                    \
            for (size_t j = 0; j < h; j++) {                                           \
                T u = a[j], v = a[j + h], p = (T)(u + v), q = (T)(u - v);              \
                a[j] = p;                                                              \
                a[j + h] = q;                                                          \
                m0 = p > m0 ? p : m0;                                                  \
                m1 = q > m1 ? q : m1;                                                  \
            }                                                                          \
            mx = m0 > m1 ? m0 : m1;                                                    \
        } else {                                                                       \
            for (size_t j = 1; j < N; j++)                                             \
                mx = a[j] > mx ? a[j] : mx;                                            \
        }                                                                              \
        size_t p = 0;                                                                  \
        while (a[p] != mx)                                                             \
            p++;                                                                       \
        *arg = p;                                                                      \
        return mx;                                                                     \
    }

DEFINE_WHT_MAX(int16_t, wht_max16)
DEFINE_WHT_MAX(int32_t, wht_max32)

/* ---- the vector transform ------------------------------------------------ */

/* When every |g| stays below 2^15 and L >= VSHIFT, g is kept transformed
 * over its lowest VSHIFT index bits: row v of G holds the 32 values
 * sum_r g[32 v + r] (-1)^{r.q}, q = 0..31, so moving a cell of pattern p
 * adds delta * H[p & 31] to row p >> 5 (one vector operation), and a block's
 * transform only runs the L - 5 levels between whole rows, in groups of up
 * to three levels held in registers, on sub-blocks of 2^8 rows (16 KB, in
 * L1) first. The last group keeps the running maximum instead of storing.
 * Index v * 32 + q of the result is the low coefficient vector c_lo. GCC's
 * vector extensions: the same source builds for AVX-512, AVX2 and the
 * baseline (chosen per search from the CPU) and for WebAssembly. */
#define VSHIFT 5
#define VLANES 32
#define SUBLOG 8
typedef int16_t v16 __attribute__((vector_size(64)));

#if defined(__GNUC__)
#define FW_INLINE static inline __attribute__((always_inline))
#else
#define FW_INLINE static inline
#endif

/* k (1..3) levels at row strides s, 2s, 4s on rows [lo, hi) of src: stored
 * into dst, or folded into *mx when mx is not NULL. */
FW_INLINE void vpass(v16 *dst, const v16 *src, size_t lo, size_t hi, size_t s, unsigned k,
                     v16 *mx)
{
    size_t m = (size_t)1 << k, span = s << k;
    for (size_t blk = lo; blk < hi; blk += span)
        for (size_t o = blk; o < blk + s; o++) {
            v16 x[8];
            for (size_t t = 0; t < m; t++)
                x[t] = src[o + t * s];
            for (size_t h = 1; h < m; h <<= 1)
                for (size_t t = 0; t < m; t++)
                    if (!(t & h)) {
                        v16 u = x[t], w = x[t + h];
                        x[t] = u + w;
                        x[t + h] = u - w;
                    }
            if (mx) {
                v16 a = *mx;
                for (size_t t = 0; t < m; t++) {
                    v16 gt = x[t] > a;
                    a = (x[t] & gt) | (a & ~gt);
                }
                *mx = a;
            } else {
                for (size_t t = 0; t < m; t++)
                    dst[o + t * s] = x[t];
            }
        }
}

/* The same with k a constant, so that the loops unroll. */
FW_INLINE void vpass_k(v16 *dst, const v16 *src, size_t lo, size_t hi, size_t s, unsigned k,
                       v16 *mx)
{
    switch (k) {
    case 3: vpass(dst, src, lo, hi, s, 3, mx); break;
    case 2: vpass(dst, src, lo, hi, s, 2, mx); break;
    default: vpass(dst, src, lo, hi, s, 1, mx); break;
    }
}

/* Gray step u > 0 of a chunk's inner walk: flips bit ctz(u) of hi and
 * returns the cells whose sign that flips (*count of them). */
static inline const size_t *gray_step(const shared *sh, uint64_t u, uint64_t *hi, size_t *count)
{
    unsigned i = (unsigned)__builtin_ctzll(u);
    *hi ^= (uint64_t)1 << i;
    *count = sh->lstart[i + 1] - sh->lstart[i];
    return sh->lcell + sh->lstart[i];
}

/* max over c_lo of WHT(g)(c_lo) from G (m = L - VSHIFT row levels); with
 * store, the whole transform is left in A as well. */
FW_INLINE int32_t vwht_body(const int16_t *Gp, int16_t *Ap, unsigned m, int store)
{
    const v16 *G = (const v16 *)(const void *)Gp;
    v16 *A = (v16 *)(void *)Ap;
    size_t V = (size_t)1 << m;
    v16 mx;
    for (size_t q = 0; q < VLANES; q++)
        mx[q] = INT16_MIN;
    v16 *pm = store ? NULL : &mx;
    if (m == 0) {
        if (store)
            A[0] = G[0];
        mx = G[0];
    } else {
        unsigned sub = m < SUBLOG ? m : SUBLOG;
        size_t SB = (size_t)1 << sub;
        for (size_t b = 0; b < V; b += SB)
            for (unsigned l = 0; l < sub; l += 3) {
                unsigned k = sub - l < 3 ? sub - l : 3;
                bool last = l + k == m;
                vpass_k(A, l ? A : G, b, b + SB, (size_t)1 << l, k, last ? pm : NULL);
            }
        for (unsigned l = sub; l < m; l += 3) {
            unsigned k = m - l < 3 ? m - l : 3;
            vpass_k(A, A, 0, V, (size_t)1 << l, k, l + k == m ? pm : NULL);
        }
        if (store)
            for (size_t v = 0; v < V; v++) {
                v16 gt = A[v] > mx;
                mx = (A[v] & gt) | (mx & ~gt);
            }
    }
    int32_t r = mx[0];
    for (size_t q = 1; q < VLANES; q++)
        r = mx[q] > r ? mx[q] : r;
    return r;
}

/* Lower bound on every solution whose high coefficients agree with top
 * on the bits that free_hi leaves fixed: cells grouped by their pattern on
 * the free coefficients flip together, so a group weighs at least the
 * smaller of its two sides; a cell whose pattern is zero there is fixed. */
static int64_t group_bound(const shared *sh, uint64_t top)
{
    int64_t lb = 0, a = 0, b = 0;
    for (size_t q = 0; q < sh->nk; q++) {
        size_t j = sh->ord[q];
        if (sh->x0[j] ^ par(sh->phi[j] & top))
            a += sh->cst[j];
        else
            b += sh->cst[j];
        if (q + 1 == sh->nk || sh->okey[q + 1] != sh->okey[q]) {
            lb += sh->okey[q] ? (a < b ? a : b) : a;
            a = b = 0;
        }
    }
    return lb;
}

static void atomic_min(_Atomic int64_t *a, int64_t v)
{
    int64_t cur = atomic_load_explicit(a, memory_order_relaxed);
    while (v < cur && !atomic_compare_exchange_weak_explicit(a, &cur, v, memory_order_relaxed,
                                                             memory_order_relaxed))
        ;
}

/* A worker's new best: weight wt at walk step u of chunk t. */
static void record(worker *w, int64_t wt, uint64_t t, uint64_t u, uint64_t lo, uint64_t hi)
{
    w->best = wt;
    w->bt = t;
    w->bu = u;
    w->blo = lo;
    w->bhi = hi;
    atomic_min(&w->sh->best, wt);
    if (w->sh->live)
        atomic_store_explicit(&w->sh->live->best, (uint64_t)(w->sh->best + w->sh->w0),
                              memory_order_relaxed);
}

static void run_chunk(worker *w, uint64_t t)
{
    const shared *sh = w->sh;
    size_t N = (size_t)1 << sh->L;
    uint64_t hi = t << sh->C, U = (uint64_t)1 << sh->C;
    int32_t *g = w->g;
    memset(g, 0, N * sizeof *g);
    for (size_t j = 0; j < sh->nk; j++) {
        int v = sh->x0[j] ^ par(sh->phi[j] & hi);
        w->sgn[j] = (int8_t)(v ? -1 : 1);
        g[sh->plo[j]] += v ? -sh->cst[j] : sh->cst[j];
    }
    int64_t S = 0;
    for (size_t p = 0; p < N; p++)
        S += g[p] < 0 ? -g[p] : g[p];
    for (uint64_t u = 0; u < U; u++) {
        size_t nflip = 0;
        const size_t *flip = u ? gray_step(sh, u, &hi, &nflip) : NULL;
        for (size_t p = 0; p < nflip; p++) {
            size_t j = flip[p];
            int32_t *q = &g[sh->plo[j]];
            S -= *q < 0 ? -*q : *q;
            *q -= 2 * w->sgn[j] * sh->cst[j];
            S += *q < 0 ? -*q : *q;
            w->sgn[j] = (int8_t)-w->sgn[j];
        }
        int64_t lb = (sh->ctot - S + 1) / 2; /* no low part beats this */
        if (lb >= w->best || lb > atomic_load_explicit(&sh->best, memory_order_relaxed))
            continue;
        size_t arg = 0;
        int32_t mx = sh->narrow ? wht_max16(g, w->t, N, &arg) : wht_max32(g, w->t, N, &arg);
        int64_t wt = (sh->ctot - mx) / 2;
        if (wt < w->best)
            record(w, wt, t, u, arg, hi);
    }
}

/* run_chunk on the vector path (g kept as rows of G, no block bound: with
 * 2^L buckets for a few thousand cells it never bites). The same order and
 * tie-breaks as run_chunk, so both give the same answer. */
FW_INLINE void run_chunk_v_body(worker *w, uint64_t t)
{
    const shared *sh = w->sh;
    size_t N = (size_t)1 << sh->L;
    uint64_t hi = t << sh->C, U = (uint64_t)1 << sh->C;
    v16 *G = (v16 *)(void *)w->G;
    const v16 *H = (const v16 *)(const void *)sh->hsign;
    memset(w->G, 0, N * sizeof *w->G);
    for (size_t j = 0; j < sh->nk; j++) {
        int v = sh->x0[j] ^ par(sh->phi[j] & hi);
        w->sgn[j] = (int8_t)(v ? -1 : 1);
        int16_t c = (int16_t)(v ? -sh->cst[j] : sh->cst[j]);
        G[sh->plo[j] >> VSHIFT] += c * H[sh->plo[j] & (VLANES - 1)];
    }
    for (uint64_t u = 0; u < U; u++) {
        size_t nflip = 0;
        const size_t *flip = u ? gray_step(sh, u, &hi, &nflip) : NULL;
        for (size_t p = 0; p < nflip; p++) {
            size_t j = flip[p];
            int16_t delta = (int16_t)(-2 * w->sgn[j] * sh->cst[j]);
            G[sh->plo[j] >> VSHIFT] += delta * H[sh->plo[j] & (VLANES - 1)];
            w->sgn[j] = (int8_t)-w->sgn[j];
        }
        int32_t mx = vwht_body(w->G, w->A, sh->vm, 0);
        int64_t wt = (sh->ctot - mx) / 2;
        if (wt < w->best) {
            vwht_body(w->G, w->A, sh->vm, 1);
            size_t arg = 0;
            while (w->A[arg] != mx)
                arg++;
            record(w, wt, t, u, arg, hi);
        }
    }
}

static void run_v_generic(worker *w, uint64_t t) { run_chunk_v_body(w, t); }
#if defined(__GNUC__) && defined(__x86_64__)
#define FW_X86 1
__attribute__((target("avx2"))) static void run_v_avx2(worker *w, uint64_t t)
{
    run_chunk_v_body(w, t);
}
__attribute__((target("avx512bw"))) static void run_v_avx512(worker *w, uint64_t t)
{
    run_chunk_v_body(w, t);
}
#endif

/* Chosen per search (no global state): the widest vector unit the CPU has. */
static void (*pick_run_v(void))(worker *, uint64_t)
{
#ifdef FW_X86
    if (__builtin_cpu_supports("avx512bw"))
        return run_v_avx512;
    if (__builtin_cpu_supports("avx2"))
        return run_v_avx2;
#endif
    return run_v_generic;
}

static void *work(void *p);

static void work_slot(void *ctx, unsigned t, unsigned nt)
{
    (void)nt;
    work((worker *)ctx + t);
}

static void *work(void *p)
{
    worker *w = p;
    shared *sh = w->sh;
    for (;;) {
        if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
            break;
        uint64_t k = atomic_fetch_add_explicit(&sh->next, 1, memory_order_relaxed);
        if (k >= sh->ntodo)
            break;
        uint64_t t = sh->todo[k];
        w->chunks++;
        int64_t lb = group_bound(sh, t << sh->C);
        if (lb < w->best && lb <= atomic_load_explicit(&sh->best, memory_order_relaxed)) {
            if (sh->run)
                sh->run(w, t);
            else
                run_chunk(w, t);
        }
        sh->done[k] = 1;
        uint64_t f = atomic_fetch_add_explicit(&sh->finished, 1, memory_order_relaxed) + 1;
        /* the caller's thread reports (the pool's slot 0) */
        if (w->id == 0 && sh->progress->fn) {
            int rc = toggle__progress(sh->progress, sh->pbase + f, sh->ptotal);
            if (rc) {
                sh->cancel = rc;
                atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
                break;
            }
        }
    }
    return NULL;
}

typedef struct {
    size_t j;
    uint64_t key;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    return TOGGLE__CMP2(x->key, y->key, x->j, y->j);
}

/* Build the group order for free coefficients freemask (bits of the full
 * pattern plo | phi << L). */
static int sort_groups(shared *sh, uint64_t freemask, size_t *ord, uint64_t *okey)
{
    keyed *k = toggle__malloc_array(sh->nk + 1, sizeof *k);
    if (!k)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the search");
    for (size_t j = 0; j < sh->nk; j++) {
        k[j].j = j;
        k[j].key = ((uint64_t)sh->plo[j] | (sh->phi[j] << sh->L)) & freemask;
    }
    qsort(k, sh->nk, sizeof *k, cmp_keyed);
    for (size_t q = 0; q < sh->nk; q++) {
        ord[q] = k[q].j;
        okey[q] = k[q].key;
    }
    toggle__free(k);
    return TOGGLE_OK;
}

/* ---- set-up ---------------------------------------------------------------- */

static void *align64(void *p)
{
    return (void *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

typedef struct {
    uint64_t *pat;
    uint8_t *x0;
    size_t *perm, *inv;
    uint32_t *plo;
    uint64_t *phi;
    int32_t *cst;
    uint8_t *kx0;
    size_t *kcell, *lstart, *lcell, *ord;
    uint64_t *okey;
    uint64_t *canon, *todo, *tidx;
    uint8_t *tdone;
    void *Hraw;
    worker *w;
} bufs;

static void bufs_free(bufs *b, unsigned T)
{
    toggle__free(b->pat);
    toggle__free(b->x0);
    toggle__free(b->perm);
    toggle__free(b->inv);
    toggle__free(b->plo);
    toggle__free(b->phi);
    toggle__free(b->cst);
    toggle__free(b->kx0);
    toggle__free(b->kcell);
    toggle__free(b->lstart);
    toggle__free(b->lcell);
    toggle__free(b->ord);
    toggle__free(b->okey);
    toggle__free(b->canon);
    toggle__free(b->todo);
    toggle__free(b->tidx);
    toggle__free(b->tdone);
    toggle__free(b->Hraw);
    if (b->w)
        for (unsigned i = 0; i < T; i++) {
            toggle__free(b->w[i].g);
            toggle__free(b->w[i].t);
            toggle__free(b->w[i].sgn);
            toggle__free(b->w[i].Graw);
            toggle__free(b->w[i].Araw);
        }
    toggle__free(b->w);
}

/* The symmetries of the board that map the (restricted) solution set and
 * the costs onto themselves, as coefficient actions; returns how many. */
static int find_symmetries(const toggle__fewest_opts *o, bufs *b, size_t n, size_t d,
                           uint64_t (*m)[64], uint64_t *alpha, int *count)
{
    *count = 0;
    size_t R = o->rows, C = o->cols;
    if (o->nosym || !R || !C || R * C != n)
        return TOGGLE_OK;
    if (!b->perm) {
        b->perm = toggle__malloc_array(n, sizeof *b->perm);
        b->inv = toggle__malloc_array(n, sizeof *b->inv);
        if (!b->perm || !b->inv)
            return toggle__error(TOGGLE_ENOMEM, "out of memory for the search");
    }
    for (int s = 1; s < 8; s++) {
        if (R != C && (s == 1 || s == 3 || s == 6 || s == 7))
            continue;
        for (size_t r = 0; r < R; r++)
            for (size_t c = 0; c < C; c++)
                b->perm[r * C + c] = toggle__sym_dest(s, r, c, R, C);
        bool ok = true;
        for (size_t j = 0; j < n && ok; j++) {
            b->inv[b->perm[j]] = j;
            if (o->cost && o->cost[b->perm[j]] != o->cost[j])
                ok = false;
        }
        symctx sc = {b->pat, b->x0, b->inv, n, d};
        if (ok && sym_action(&sc, m[*count], &alpha[*count]))
            (*count)++;
    }
    return TOGGLE_OK;
}

/* Greedy sparsening of generators 0 .. dw - 1 (a change of basis inside
 * their span, so every subspace they span stays the same): generator r is
 * replaced by r + r' while that has fewer cells. Then ordered: the densest
 * L become the transform's, the sparsest the walk's first bits (the walk
 * moves bit L + i 2^(C-1-i) times per chunk). */
static void sparsen(uint64_t *pat, size_t n, size_t dw, size_t L)
{
    size_t cnt[64] = {0};
    for (size_t j = 0; j < n; j++)
        for (size_t r = 0; r < dw; r++)
            cnt[r] += (pat[j] >> r) & 1;
    for (int round = 0; round < 4; round++) {
        bool moved = false;
        for (size_t r = 0; r < dw; r++)
            for (size_t r2 = 0; r2 < dw; r2++) {
                if (r2 == r)
                    continue;
                size_t c = 0;
                for (size_t j = 0; j < n; j++)
                    c += ((pat[j] >> r) ^ (pat[j] >> r2)) & 1;
                if (c < cnt[r]) {
                    for (size_t j = 0; j < n; j++)
                        pat[j] ^= ((pat[j] >> r2) & 1) << r;
                    cnt[r] = c;
                    moved = true;
                }
            }
        if (!moved)
            break;
    }
    /* new bit q <- old bit from[q]: densest first, then ascending */
    size_t from[64];
    for (size_t r = 0; r < dw; r++)
        from[r] = r;
    for (size_t a = 1; a < dw; a++) /* descending by count, stable */
        for (size_t b = a; b > 0 && cnt[from[b]] > cnt[from[b - 1]]; b--) {
            size_t t = from[b];
            from[b] = from[b - 1];
            from[b - 1] = t;
        }
    /* bits L .. dw - 1 ascending: reverse the tail */
    for (size_t a = L, b = dw; a + 1 < b; a++, b--) {
        size_t t = from[a];
        from[a] = from[b - 1];
        from[b - 1] = t;
    }
    for (size_t j = 0; j < n; j++) {
        uint64_t p = pat[j], q = p >> dw << dw;
        for (size_t r = 0; r < dw; r++)
            q |= ((p >> from[r]) & 1) << r;
        pat[j] = q;
    }
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdu;
}

void toggle__fewest_ckpt_clear(toggle__fewest_ckpt *ck)
{
    toggle__free(ck->done);
    memset(ck, 0, sizeof *ck);
}

/* ---- the search's phases --------------------------------------------------- */

/* The state one search carries from phase to phase. */
typedef struct {
    const toggle__space *sp;
    const toggle__fewest_opts *o;
    toggle__fewest_ckpt *ck; /* the caller's checkpoint, or a local one */
    bufs b;
    size_t n, d;             /* cells, coefficients (after the forbidden cells) */
    size_t L, C, H, cb, dw;  /* the split (see choose_split) */
    int nsym;
    uint64_t m[MAXSYM][64], alpha[MAXSYM]; /* the symmetries' coefficient actions */
    size_t nk;               /* kept cells */
    int64_t w0, ctot;        /* weight of the fixed cells, sum of kept costs */
    uint64_t nchunks, chunk_sol, ncanon, ntodo, ndone, allowed, sig;
    unsigned T;              /* workers */
    shared sh;
} fsearch;

static int out_of_memory(void)
{
    return toggle__error(TOGGLE_ENOMEM, "out of memory for the search");
}

/* Each cell's pattern over the coefficients and its bit of x0, with the
 * forbidden cells eliminated; *none when no allowed solution exists. */
static int load_patterns(fsearch *f, bool *none)
{
    const toggle__space *sp = f->sp;
    bufs *b = &f->b;
    *none = false;
    b->pat = toggle__calloc(f->n + 1, sizeof *b->pat);
    b->x0 = toggle__calloc(f->n + 1, 1);
    if (!b->pat || !b->x0)
        return out_of_memory();
    for (size_t j = 0; j < f->n; j++) {
        b->x0[j] = (uint8_t)toggle__vecs_get(&sp->x0, 0, j);
        for (size_t i = 0; i < f->d; i++)
            b->pat[j] |= (uint64_t)(toggle__vecs_get(&sp->gen, i, j) & 1) << i;
    }
    if (!f->o->cost)
        return TOGGLE_OK;
    bool ok;
    int rc = restrict_forbidden(b->pat, b->x0, f->n, &f->d, f->o->cost, &ok);
    *none = !rc && !ok;
    return rc;
}

/* With symmetries: a subspace W of dimension about dw that they map to
 * itself, made the first coefficients; without one, nsym drops to 0. */
static void invariant_subspace(fsearch *f)
{
    size_t d = f->d;
    xbasis W;
    memset(&W, 0, sizeof W);
    uint64_t seed = 0x7067;
    for (size_t cand = 0; cand < 8 * d && W.count < f->dw; cand++) {
        uint64_t v = cand < d ? (uint64_t)1 << cand
                              : toggle__splitmix(&seed) & (((uint64_t)1 << d) - 1);
        xbasis t = W;
        xb_insert(&t, v);
        for (int s = 0; s < f->nsym; s++)
            xb_insert(&t, lin_apply(f->m[s], v));
        if (t.count <= f->dw)
            W = t;
    }
    if (W.count < f->L || W.count + 4 < f->dw) {
        f->nsym = 0;
        return;
    }
    uint64_t B[64];
    xbasis full = W;
    size_t r = 0;
    for (int t = 0; t < 64; t++)
        if (W.v[t])
            B[r++] = W.v[t];
    f->dw = r;
    f->cb = d - f->dw;
    for (size_t i = 0; i < d; i++)
        if (xb_insert(&full, (uint64_t)1 << i))
            B[r++] = (uint64_t)1 << i;
    change_basis(f->b.pat, f->n, B, d);
}

/* The split: bits 0 .. L-1 of a coefficient vector are the transform's,
 * L .. L+C-1 the walk's, the top cb bits name the chunk. With a symmetry
 * group, the first L + C span a subspace W it maps to itself, so it
 * permutes the chunks (the cosets of W) and one chunk per orbit is done. */
static int choose_split(fsearch *f)
{
    const toggle__fewest_opts *o = f->o;
    size_t d = f->d;
    size_t lmax = o->lsplit ? o->lsplit : LMAX, ltarget = o->lsplit ? o->lsplit : LTARGET;
    if (lmax > LMAX)
        lmax = ltarget = LMAX;
    f->L = d <= lmax ? d : ltarget;
    f->cb = d - f->L < CBITS ? d - f->L : CBITS;
    f->dw = d - f->cb;
    int rc;
    f->nsym = 0;
    if (d > lmax && ((uint64_t)1 << f->dw) <= o->limit
        && (rc = find_symmetries(o, &f->b, f->n, d, f->m, f->alpha, &f->nsym)))
        return rc;
    if (f->nsym)
        invariant_subspace(f);
    if (d > lmax)
        sparsen(f->b.pat, f->n, f->dw, f->L);
    if (f->nsym) {
        int ns2 = 0;
        if ((rc = find_symmetries(o, &f->b, f->n, d, f->m, f->alpha, &ns2)))
            return rc;
        bool inv_ok = ns2 == f->nsym;
        for (int s = 0; s < ns2 && inv_ok; s++)
            for (size_t i = 0; i < f->dw; i++)
                if (f->m[s][i] >> f->dw)
                    inv_ok = false;
        if (!inv_ok)
            f->nsym = 0; /* cannot happen: W is invariant; stay exact anyway */
    }
    f->H = d - f->L;
    f->C = f->dw - f->L;
    return TOGGLE_OK;
}

/* Kept cells: allowed, positive cost, not fixed by every coefficient. Then
 * the chunk size the limit allows. */
static int keep_cells(fsearch *f)
{
    const toggle__fewest_opts *o = f->o;
    bufs *b = &f->b;
    f->w0 = f->ctot = 0;
    f->nk = 0;
    b->kcell = toggle__malloc_array(f->n + 1, sizeof *b->kcell);
    if (!b->kcell)
        return out_of_memory();
    for (size_t j = 0; j < f->n; j++) {
        uint64_t cj = o->cost ? o->cost[j] : 1;
        if (cj == TOGGLE__COST_FORBIDDEN || cj == 0)
            continue;
        if (!b->pat[j])
            f->w0 += b->x0[j] ? (int64_t)cj : 0;
        else {
            b->kcell[f->nk++] = j;
            f->ctot += (int64_t)cj;
        }
    }
    if (f->ctot >= ((int64_t)1 << 31))
        return TOGGLE_EUNSUPPORTED;
    if (!f->nsym) /* no orbits to keep whole: chunks as small as the limit needs */
        while (f->C > 0 && ((uint64_t)1 << (f->C + f->L)) > o->limit)
            f->C--;
    if (((uint64_t)1 << (f->C + f->L)) > o->limit)
        return TOGGLE_EUNSUPPORTED; /* the limit is below one transform: walk */
    f->cb = f->H - f->C;
    f->nchunks = (uint64_t)1 << f->cb;
    f->chunk_sol = (uint64_t)1 << (f->C + f->L);
    return TOGGLE_OK;
}

/* The chunks to do: the least of each orbit. */
static int canonical_chunks(fsearch *f)
{
    f->b.canon = toggle__malloc_array(f->nchunks + 1, sizeof *f->b.canon);
    if (!f->b.canon)
        return out_of_memory();
    uint64_t mt[MAXSYM][64], at[MAXSYM];
    for (int s = 0; s < f->nsym; s++) {
        at[s] = f->alpha[s] >> f->dw;
        for (size_t i = 0; i < f->cb; i++)
            mt[s][i] = f->m[s][f->dw + i] >> f->dw;
    }
    f->ncanon = 0;
    for (uint64_t t = 0; t < f->nchunks; t++) {
        bool least = true;
        for (int s = 0; s < f->nsym && least; s++)
            least = (at[s] ^ lin_apply(mt[s], t)) >= t;
        if (least)
            f->b.canon[f->ncanon++] = t;
    }
    return TOGGLE_OK;
}

/* The kept cells' tables (low and high patterns, costs, x0, the cells each
 * walk bit flips) and the search's signature for the checkpoint. */
static int cell_tables(fsearch *f)
{
    const toggle__fewest_opts *o = f->o;
    bufs *b = &f->b;
    size_t nk = f->nk, L = f->L, C = f->C;
    b->plo = toggle__malloc_array(nk + 1, sizeof *b->plo);
    b->phi = toggle__malloc_array(nk + 1, sizeof *b->phi);
    b->cst = toggle__malloc_array(nk + 1, sizeof *b->cst);
    b->kx0 = toggle__malloc_array(nk + 1, 1);
    b->lstart = toggle__calloc(C + 2, sizeof *b->lstart);
    b->ord = toggle__malloc_array(nk + 1, sizeof *b->ord);
    b->okey = toggle__malloc_array(nk + 1, sizeof *b->okey);
    if (!b->plo || !b->phi || !b->cst || !b->kx0 || !b->lstart || !b->ord || !b->okey)
        return out_of_memory();
    size_t nl = 0;
    uint64_t sig = mix(mix(mix(mix(0x746f67676c65u, f->n), f->d), L | C << 8 | f->cb << 16),
                       (uint64_t)f->nsym);
    for (size_t q = 0; q < nk; q++) {
        size_t j = b->kcell[q];
        b->plo[q] = (uint32_t)(b->pat[j] & (((uint64_t)1 << L) - 1));
        b->phi[q] = b->pat[j] >> L;
        b->cst[q] = (int32_t)(o->cost ? o->cost[j] : 1);
        b->kx0[q] = b->x0[j];
        sig = mix(sig, mix(j, b->pat[j] ^ ((uint64_t)b->x0[j] << 63)) ^ (uint64_t)b->cst[q]);
        for (size_t i = 0; i < C; i++)
            if ((b->phi[q] >> i) & 1) {
                b->lstart[i + 1]++;
                nl++;
            }
    }
    f->sig = mix(sig, (uint64_t)f->w0) | 1;
    for (size_t i = 0; i < C; i++)
        b->lstart[i + 1] += b->lstart[i];
    b->lcell = toggle__malloc_array(nl + 1, sizeof *b->lcell);
    if (!b->lcell)
        return out_of_memory();
    size_t fill[64];
    memcpy(fill, b->lstart, (C + 1) * sizeof *fill);
    for (size_t q = 0; q < nk; q++)
        for (size_t i = 0; i < C; i++)
            if ((b->phi[q] >> i) & 1)
                b->lcell[fill[i]++] = q;
    return TOGGLE_OK;
}

/* The checkpoint: resume one of this very search, or start one; then the
 * chunks still to do, and how many of them this run's limit allows. */
static int attach_checkpoint(fsearch *f)
{
    toggle__fewest_ckpt *ck = f->ck;
    bufs *b = &f->b;
    if (ck->sig && (ck->sig != f->sig || ck->nchunks != f->ncanon || ck->chunk_sol != f->chunk_sol))
        return toggle__error(TOGGLE_EINVAL, "the checkpoint belongs to another search (another "
                             "system, target, costs or split)");
    if (!ck->sig) {
        toggle__fewest_ckpt_clear(ck);
        ck->done = toggle__calloc(f->ncanon + 1, 1);
        if (!ck->done)
            return out_of_memory();
        ck->sig = f->sig;
        ck->nchunks = f->ncanon;
        ck->chunk_sol = f->chunk_sol;
    }
    b->todo = toggle__malloc_array(f->ncanon + 1, sizeof *b->todo);
    b->tidx = toggle__malloc_array(f->ncanon + 1, sizeof *b->tidx);
    b->tdone = toggle__calloc(f->ncanon + 1, 1);
    if (!b->todo || !b->tidx || !b->tdone)
        return out_of_memory();
    f->ndone = f->ntodo = 0;
    for (uint64_t k = 0; k < f->ncanon; k++) {
        if (ck->done[k])
            f->ndone++;
        else {
            b->tidx[f->ntodo] = k;
            b->todo[f->ntodo++] = b->canon[k];
        }
    }
    f->allowed = f->o->limit / f->chunk_sol;
    if (f->allowed > f->ntodo)
        f->allowed = f->ntodo;
    return TOGGLE_OK;
}

/* The workers' shared state, the cells' group order, and the first live
 * bound (over at most 2^16 chunks; 0 past that). */
static int share(fsearch *f)
{
    const toggle__fewest_opts *o = f->o;
    const toggle__fewest_ckpt *ck = f->ck;
    bufs *b = &f->b;
    shared *sh = &f->sh;
    *sh = (shared){.nk = f->nk, .L = f->L, .H = f->H, .C = f->C, .ctot = f->ctot,
                   .plo = b->plo, .phi = b->phi, .cst = b->cst, .x0 = b->kx0,
                   .lstart = b->lstart, .lcell = b->lcell, .ord = b->ord, .okey = b->okey,
                   .narrow = f->ctot < 32768, .todo = b->todo, .ntodo = f->allowed,
                   .done = b->tdone, .progress = &f->sp->progress, .live = o->live,
                   .w0 = f->w0, .pbase = f->ndone, .ptotal = f->ncanon};
    atomic_init(&sh->next, 0);
    atomic_init(&sh->finished, 0);
    atomic_init(&sh->stop, 0);
    atomic_init(&sh->best, ck->have ? (int64_t)ck->bw : INT64_MAX);
    uint64_t freemask = ((uint64_t)1 << (f->L + f->C)) - 1;
    int rc = sort_groups(sh, freemask, b->ord, b->okey);
    if (rc || !o->live)
        return rc;
    int64_t lb0 = INT64_MAX;
    for (uint64_t k = 0; k < f->ntodo && k < ((uint64_t)1 << 16); k++) {
        int64_t lb = group_bound(sh, b->todo[k] << f->C);
        lb0 = lb < lb0 ? lb : lb0;
    }
    if (f->ntodo > ((uint64_t)1 << 16))
        lb0 = 0;
    if (ck->have && (int64_t)ck->bw < lb0)
        lb0 = (int64_t)ck->bw;
    atomic_store(&o->live->bound, lb0 == INT64_MAX ? UINT64_MAX : (uint64_t)(lb0 + f->w0));
    atomic_store(&o->live->best, ck->have ? ck->bw + (uint64_t)f->w0 : UINT64_MAX);
    return TOGGLE_OK;
}

/* The workers and their buffers; the vector path's sign table and chunk
 * function when the costs are narrow and the transform spans whole rows. */
static int make_workers(fsearch *f)
{
    shared *sh = &f->sh;
    bufs *b = &f->b;
    unsigned T = f->o->threads ? f->o->threads : 1;
    if (T > f->allowed)
        T = f->allowed ? (unsigned)f->allowed : 1;
    f->T = T;
    size_t N = (size_t)1 << f->L;
    b->w = toggle__calloc(T, sizeof *b->w);
    if (!b->w)
        return out_of_memory();
    if (sh->narrow && f->L >= VSHIFT) {
        sh->vm = (unsigned)(f->L - VSHIFT);
        b->Hraw = toggle__malloc(VLANES * VLANES * sizeof(int16_t) + 64);
        if (!b->Hraw)
            return out_of_memory();
        int16_t *Hs = align64(b->Hraw);
        for (unsigned r = 0; r < VLANES; r++)
            for (unsigned q = 0; q < VLANES; q++)
                Hs[r * VLANES + q] = (int16_t)(par(r & q) ? -1 : 1);
        sh->hsign = Hs;
        sh->run = pick_run_v();
    }
    for (unsigned i = 0; i < T; i++) {
        worker *w = &b->w[i];
        w->sh = sh;
        w->id = i;
        w->best = INT64_MAX;
        w->sgn = toggle__malloc_array(f->nk + 1, 1);
        if (!w->sgn)
            return out_of_memory();
        if (sh->run) {
            w->Graw = toggle__malloc(N * sizeof(int16_t) + 64);
            w->Araw = toggle__malloc(N * sizeof(int16_t) + 64);
            if (!w->Graw || !w->Araw)
                return out_of_memory();
            w->G = align64(w->Graw);
            w->A = align64(w->Araw);
        } else {
            w->g = toggle__malloc_array(N, sizeof(int32_t));
            w->t = toggle__malloc_array(N, sh->narrow ? sizeof(int16_t) : sizeof(int32_t));
            if (!w->g || !w->t)
                return out_of_memory();
        }
    }
    return TOGGLE_OK;
}

/* The least (weight, chunk, position) among the workers' bests and the
 * checkpoint's; the finished chunks join the checkpoint. */
static void merge_into_checkpoint(fsearch *f)
{
    toggle__fewest_ckpt *ck = f->ck;
    for (unsigned i = 0; i < f->T; i++) {
        const worker *w = &f->b.w[i];
        if (w->best == INT64_MAX)
            continue;
        if (!ck->have || (uint64_t)w->best < ck->bw
            || ((uint64_t)w->best == ck->bw
                && (w->bt < ck->bt || (w->bt == ck->bt && w->bu < ck->bu)))) {
            ck->have = 1;
            ck->bw = (uint64_t)w->best;
            ck->bt = w->bt;
            ck->bu = w->bu;
            ck->blo = w->blo;
            ck->bhi = w->bhi;
        }
    }
    for (uint64_t k = 0; k < f->ntodo; k++)
        if (f->b.tdone[k])
            ck->done[f->b.tidx[k]] = 1;
    f->ndone = 0;
    for (uint64_t k = 0; k < f->ncanon; k++)
        f->ndone += ck->done[k];
}

/* The bound: every chunk not done weighs at least its grouping bound. */
static int remaining_bound(fsearch *f, int64_t *lbr)
{
    *lbr = INT64_MAX;
    if (f->ncanon - f->ndone <= ((uint64_t)1 << 16)) {
        for (uint64_t k = 0; k < f->ncanon; k++)
            if (!f->ck->done[k]) {
                int64_t lb = group_bound(&f->sh, f->b.canon[k] << f->C);
                *lbr = lb < *lbr ? lb : *lbr;
            }
        return TOGGLE_OK;
    }
    int rc = sort_groups(&f->sh, ((uint64_t)1 << (f->L + f->H)) - 1, f->b.ord, f->b.okey);
    if (!rc)
        *lbr = group_bound(&f->sh, 0);
    return rc;
}

/* The answer: the checkpoint's best (x0 when no chunk finished), its
 * weight and the proven bound. */
static int write_result(fsearch *f, int64_t lbr, toggle__fewest *res)
{
    const toggle__fewest_opts *o = f->o;
    toggle__fewest_ckpt *ck = f->ck;
    const bufs *b = &f->b;
    res->visited = f->ndone * f->chunk_sol;
    if (!ck->have) { /* chunk 0 holds a solution and is never pruned */
        if (f->ndone == f->ncanon)
            return toggle__error(TOGGLE_EINVAL, "internal error: the search scored nothing");
        /* stopped before any chunk finished: x0 is an allowed solution */
        ck->have = 1;
        ck->bt = ck->bu = ck->blo = ck->bhi = 0;
        int64_t wx = 0;
        for (size_t q = 0; q < f->nk; q++)
            wx += b->kx0[q] ? b->cst[q] : 0;
        ck->bw = (uint64_t)wx;
        ck->bt = UINT64_MAX; /* loses every tie against a scored record */
    }
    int64_t bestw = (int64_t)ck->bw;
    uint64_t c = ck->blo | (ck->bhi << f->L);
    uint64_t weight = 0;
    for (size_t j = 0; j < f->n; j++) {
        uint64_t cj = o->cost ? o->cost[j] : 1;
        res->x[j] = (uint64_t)(b->x0[j] ^ par(b->pat[j] & c));
        if (res->x[j] && cj != TOGGLE__COST_FORBIDDEN)
            weight += cj;
    }
    res->found = 1;
    res->weight = weight;
    int64_t lb = (lbr < bestw ? lbr : bestw) + f->w0;
    res->bound = (uint64_t)lb;
    res->proven = lbr >= bestw;
    if (o->live) {
        atomic_store(&o->live->best, weight);
        atomic_store(&o->live->bound, res->bound);
    }
    if (weight != (uint64_t)(bestw + f->w0))
        return toggle__error(TOGGLE_EINVAL, "internal error: the search's weight does not match");
    return f->sh.cancel;
}

/* Set up (patterns, split, kept cells, chunks, tables), attach the
 * checkpoint, search the chunks on the library's pool, merge, answer. */
static int fewest_phases(fsearch *f, toggle__fewest *res)
{
    bool none;
    int rc = load_patterns(f, &none);
    if (rc)
        return rc;
    if (none) {
        res->found = 0;
        res->proven = 1;
        res->weight = res->bound = UINT64_MAX;
        res->visited = 0;
        return TOGGLE_OK;
    }
    if ((rc = choose_split(f)) || (rc = keep_cells(f)) || (rc = canonical_chunks(f))
        || (rc = cell_tables(f)) || (rc = attach_checkpoint(f)) || (rc = share(f))
        || (rc = make_workers(f)))
        return rc;
    /* the library's fork-join pool; it may start fewer workers than asked
     * (none in WebAssembly): the chunks are shared dynamically */
    if (f->allowed) {
        toggle__pool *pool = toggle__pool_new(f->T);
        toggle__pool_run(pool, work_slot, f->b.w);
        toggle__pool_free(pool);
    }
    merge_into_checkpoint(f);
    int64_t lbr;
    if ((rc = remaining_bound(f, &lbr)))
        return rc;
    return write_result(f, lbr, res);
}

int toggle__fewest_gf2(const toggle__space *sp, const toggle__fewest_opts *o, toggle__fewest *res)
{
    size_t n = sp->n, d = sp->d;
    if (sp->k != 2 || d > 62 || n >= ((size_t)1 << 30))
        return TOGGLE_EUNSUPPORTED;
    if (o->cost)
        for (size_t j = 0; j < n; j++)
            if (o->cost[j] != TOGGLE__COST_FORBIDDEN && o->cost[j] >= ((uint64_t)1 << 31))
                return TOGGLE_EUNSUPPORTED;
    toggle__fewest_ckpt local;
    memset(&local, 0, sizeof local);
    fsearch f;
    memset(&f, 0, sizeof f);
    f.sp = sp;
    f.o = o;
    f.ck = o->ck ? o->ck : &local;
    f.n = n;
    f.d = d;
    int rc = fewest_phases(&f, res);
    if (f.ck == &local)
        toggle__fewest_ckpt_clear(&local);
    bufs_free(&f.b, f.T);
    return rc;
}
