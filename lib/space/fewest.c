/* Fewest presses over a solution set: a Walsh-Hadamard split search for
 * k = 2, a Gray-order search with incremental weights for any k; and the
 * toggle_search handle. Method and limits: docs/solution-spaces.md. */
#include <string.h>

#include "space_internal.h"

typedef unsigned __int128 u128;

static inline u128 cell_weight(uint64_t v, int metric)
{
    return metric == TOGGLE_METRIC_PRESSES ? (u128)v : (u128)(v != 0);
}

static uint64_t clamp(u128 w)
{
    return w > UINT64_MAX ? UINT64_MAX : (uint64_t)w;
}

/* Any k: walk the coefficient tuples in reflected mixed-radix Gray order,
 * updating x and its weight over the support of the one generator that
 * changes. Visits at most limit solutions. */
static int gray_search(const toggle__space *sp, int metric, uint64_t limit, toggle__fewest *res)
{
    size_t n = sp->n, d = sp->d;
    uint64_t k = sp->k;
    uint64_t *x = toggle__malloc_array(n + 1, sizeof *x);
    uint64_t *digit = toggle__calloc(d + 1, sizeof *digit);
    uint64_t *best = toggle__calloc(d + 1, sizeof *best);
    signed char *dir = toggle__malloc(d + 1);
    if (!x || !digit || !best || !dir) {
        toggle__free(x);
        toggle__free(digit);
        toggle__free(best);
        toggle__free(dir);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the search");
    }
    memset(dir, 1, d + 1);
    u128 w = 0, bw;
    for (size_t j = 0; j < n; j++) {
        x[j] = toggle__vecs_get(&sp->x0, 0, j);
        w += cell_weight(x[j], metric);
    }
    bw = w;
    uint64_t visited = 1;
    bool complete = false;
    int rc = TOGGLE_OK;
    for (;;) {
        if (visited >= limit)
            break;
        if (!(visited & 0xffff) && (rc = toggle__progress(&sp->progress, visited, limit)))
            break;
        size_t j = 0;
        while (j < d) {
            uint64_t a = digit[j];
            if ((dir[j] > 0 && a + 1 < sp->radix[j]) || (dir[j] < 0 && a > 0))
                break;
            dir[j] = (signed char)-dir[j];
            j++;
        }
        if (j == d) {
            complete = true;
            break;
        }
        int up = dir[j] > 0;
        digit[j] = up ? digit[j] + 1 : digit[j] - 1;
        for (size_t p = sp->supp_start[j]; p < sp->supp_start[j + 1]; p++) {
            size_t c = sp->supp_idx[p];
            uint64_t old = x[c];
            uint64_t nv = up ? toggle__addmod(old, sp->supp_val[p], k)
                             : toggle__submod(old, sp->supp_val[p], k);
            x[c] = nv;
            w = w - cell_weight(old, metric) + cell_weight(nv, metric);
        }
        visited++;
        if (w < bw) {
            bw = w;
            memcpy(best, digit, d * sizeof *best);
        }
    }
    if (d == 0)
        complete = true;
    if (!rc) {
        toggle__space_combine(sp, best, res->x);
        res->weight = clamp(bw);
        res->visited = visited;
        res->proven = complete;
    }
    toggle__free(x);
    toggle__free(digit);
    toggle__free(best);
    toggle__free(dir);
    return rc;
}

/* max over c of WHT(g)(c), and an argmax: the first level reads g (so g is
 * kept), the last one tracks the maximum. T is int16_t when n < 2^15 (the
 * transform of a vector with sum |g| <= n stays within +-n), else int32_t:
 * twice the SIMD lanes on the hot path. */
#define DEFINE_WHT_MAX(T, NAME)                                                        \
    static int32_t NAME(const int32_t *g, T *a, size_t N, size_t *arg)                 \
    {                                                                                  \
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

/* k = 2. Write the coefficients c = (c_lo, c_hi) with L low bits. Each cell
 * j has a column p_j (bit i: generator i is 1 at j). For fixed c_hi let
 * v_j = x0_j + p_hi,j . c_hi and g[p] = sum over cells with p_lo,j = p of
 * (-1)^v_j. Then the weight of (c_lo, c_hi) is (n - WHT(g)(c_lo)) / 2, so
 * one transform of 2^L entries prices 2^L solutions; c_hi walks a binary
 * Gray code, each step moving the cells of one generator between classes. */
static int wht_search(const toggle__space *sp, size_t L, uint64_t limit, toggle__fewest *res)
{
    size_t n = sp->n, d = sp->d, H = d - L, N = (size_t)1 << L;
    int32_t *g = toggle__calloc(N, sizeof *g);
    bool narrow = n < 32768;
    void *t = toggle__malloc_array(N, narrow ? sizeof(int16_t) : sizeof(int32_t));
    uint32_t *plo = toggle__malloc_array(n + 1, sizeof *plo);
    signed char *sgn = toggle__malloc(n + 1);
    uint64_t *c = toggle__calloc(d + 1, sizeof *c);
    int rc = TOGGLE_OK;
    if (!g || !t || !plo || !sgn || !c) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the search");
        goto done;
    }
    memset(plo, 0, (n + 1) * sizeof *plo);
    for (size_t i = 0; i < L; i++)
        for (size_t p = sp->supp_start[i]; p < sp->supp_start[i + 1]; p++)
            plo[sp->supp_idx[p]] |= (uint32_t)1 << i;
    int64_t S = 0; /* sum |g[p]|: weights are at least (n - S) / 2 */
    for (size_t j = 0; j < n; j++) {
        sgn[j] = toggle__vecs_get(&sp->x0, 0, j) ? -1 : 1;
        g[plo[j]] += sgn[j];
    }
    for (size_t p = 0; p < N; p++)
        S += g[p] < 0 ? -g[p] : g[p];
    int64_t best = INT64_MAX; /* weight */
    uint64_t best_lo = 0, best_hi = 0, hi = 0, visited = 0, steps = (uint64_t)1 << H;
    bool complete = true;
    for (uint64_t s = 0; s < steps; s++) {
        if (s) {
            if (visited + N > limit) {
                complete = false;
                break;
            }
            if ((rc = toggle__progress(&sp->progress, s, steps)))
                goto done;
            unsigned i = (unsigned)__builtin_ctzll(s);
            hi ^= (uint64_t)1 << i;
            size_t gi = L + i;
            for (size_t p = sp->supp_start[gi]; p < sp->supp_start[gi + 1]; p++) {
                size_t j = sp->supp_idx[p];
                int32_t *q = &g[plo[j]];
                S -= *q < 0 ? -*q : *q;
                *q -= 2 * sgn[j];
                S += *q < 0 ? -*q : *q;
                sgn[j] = (signed char)-sgn[j];
            }
        }
        visited += N;
        if (((int64_t)n - S) / 2 >= best)
            continue; /* no c_lo can beat the best */
        size_t arg = 0;
        int32_t mx = narrow ? wht_max16(g, t, N, &arg) : wht_max32(g, t, N, &arg);
        int64_t w = ((int64_t)n - mx) / 2;
        if (w < best) {
            best = w;
            best_lo = arg;
            best_hi = hi;
        }
    }
    for (size_t i = 0; i < L; i++)
        c[i] = (best_lo >> i) & 1;
    for (size_t i = 0; i < H; i++)
        c[L + i] = (best_hi >> i) & 1;
    toggle__space_combine(sp, c, res->x);
    res->weight = (uint64_t)best;
    res->visited = visited;
    res->proven = complete;
done:
    toggle__free(g);
    toggle__free(t);
    toggle__free(plo);
    toggle__free(sgn);
    toggle__free(c);
    return rc;
}

int toggle__fewest_run(const toggle__space *sp, int metric, uint64_t limit, toggle__fewest *res)
{
    if (limit == 0)
        limit = 1;
    toggle__progress_begin(&sp->progress);
    int rc = toggle__progress(&sp->progress, 0, limit);
    if (rc)
        return rc;
    if (sp->k == 2 && sp->d >= 2 && sp->d <= 62 && sp->n < ((size_t)1 << 30)) {
        size_t L = sp->d <= 20 ? sp->d : 16;
        if (((uint64_t)1 << L) <= limit)
            return wht_search(sp, L, limit, res);
    }
    return gray_search(sp, metric, limit, res);
}

/* ---- the public handle ---------------------------------------------------- */

struct toggle_search {
    toggle__space sp;
    int metric;
    uint64_t limit;
    bool ran;
    toggle__fewest res;
};

int toggle_search_new(toggle_search **out, const toggle_solution *sol)
{
    if (!out || !sol)
        return toggle__error(TOGGLE_EINVAL, "out and solution must not be NULL");
    toggle_search *s = toggle__calloc(1, sizeof *s);
    if (!s)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a search");
    int rc = toggle__space_init(&s->sp, sol);
    if (!rc) {
        s->res.x = toggle__calloc(sol->n + 1, sizeof *s->res.x);
        if (!s->res.x)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory allocating a search");
    }
    if (rc) {
        toggle_search_free(s);
        return rc;
    }
    s->metric = TOGGLE_METRIC_CELLS;
    s->limit = sol->search_limit ? sol->search_limit : (uint64_t)1 << 32;
    *out = s;
    return TOGGLE_OK;
}

int toggle_search_set_option(toggle_search *s, int key, uint64_t value)
{
    /* the keys of the other handles (system.h, space.h), by name */
    static const char *const other[] = {NULL, "SYSTEM_OPT_ENGINE", "SYSTEM_OPT_MEMORY_BUDGET",
                                        NULL, NULL, "GENERATOR_OPT_SEED",
                                        "GENERATOR_OPT_UNIQUE", "GENERATOR_OPT_PRESSES",
                                        "GENERATOR_OPT_LIT", "GENERATOR_OPT_ATTEMPTS"};
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "search is NULL");
    switch (key) {
    case TOGGLE_OPT_METRIC:
        if (value != TOGGLE_METRIC_CELLS && value != TOGGLE_METRIC_PRESSES)
            return toggle__error(TOGGLE_EINVAL, "unknown metric %llu", (unsigned long long)value);
        s->metric = (int)value;
        return TOGGLE_OK;
    case TOGGLE_OPT_SEARCH_LIMIT:
        s->limit = value ? value : UINT64_MAX; /* 0: unlimited */
        return TOGGLE_OK;
    default:
        if (key > 0 && key <= TOGGLE_GENERATOR_OPT_ATTEMPTS)
            return toggle__error(TOGGLE_EINVAL, "TOGGLE_%s (%d) is an option of a %s, not of a "
                                 "search", other[key], key,
                                 key < TOGGLE_GENERATOR_OPT_SEED ? "system" : "generator");
        return toggle__error(TOGGLE_EINVAL, "option key %d does not apply to a search", key);
    }
}

int toggle_search_run(toggle_search *s)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "search is NULL");
    int rc = toggle__fewest_run(&s->sp, s->metric, s->limit, &s->res);
    s->ran = rc == TOGGLE_OK;
    return rc;
}

int toggle_search_result(const toggle_search *s, uint64_t *x, size_t len, uint64_t *weight,
                         int *proven, uint64_t *visited)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "search is NULL");
    if (!s->ran)
        return toggle__error(TOGGLE_EINVAL, "the search has not run");
    if (x && len < s->sp.n)
        return toggle__error(TOGGLE_EBUFSIZE, "x has %zu entries, solutions have %zu", len,
                             s->sp.n);
    if (x)
        memcpy(x, s->res.x, s->sp.n * sizeof *x);
    if (weight)
        *weight = s->res.weight;
    if (proven)
        *proven = s->res.proven;
    if (visited)
        *visited = s->res.visited;
    return TOGGLE_OK;
}

void toggle_search_free(toggle_search *s)
{
    if (!s)
        return;
    toggle__space_clear(&s->sp);
    toggle__free(s->res.x);
    toggle__free(s);
}
