/* Solution sets: a flat copy of x0 + generators, the Gray-order iterator,
 * the seeded rng and uniform sampling. */
#include <string.h>

#include "space_internal.h"

int toggle_solution_radix(const toggle_solution *sol, size_t index, uint64_t *radix)
{
    if (!sol || !radix)
        return toggle__error(TOGGLE_EINVAL, "solution and radix must not be NULL");
    if (index >= sol->kernel.count)
        return toggle__error(TOGGLE_ERANGE, "coefficient %zu requested, there are %zu", index,
                             sol->kernel.count);
    *radix = toggle__solution_radix(sol, index);
    return TOGGLE_OK;
}

void toggle__space_clear(toggle__space *sp)
{
    toggle__vecs_clear(&sp->x0);
    toggle__vecs_clear(&sp->gen);
    toggle__free(sp->radix);
    toggle__free(sp->supp_start);
    toggle__free(sp->supp_idx);
    toggle__free(sp->supp_val);
    memset(sp, 0, sizeof *sp);
}

int toggle__space_init(toggle__space *sp, const toggle_solution *sol)
{
    memset(sp, 0, sizeof *sp);
    if (!sol->solvable)
        return toggle__error(TOGGLE_ENOSOLUTION, "the system has no solution");
    return toggle__space_init_kernel(sp, sol);
}

int toggle__space_estimate(const toggle_solution *sol, uint64_t *bytes)
{
    size_t n = sol->n, d = sol->kernel.count, x0, gen;
    if (!toggle__vecs_bytes(n, 1, sol->k, &x0) || !toggle__vecs_bytes(n, d, sol->k, &gen))
        return toggle__error(TOGGLE_EOVERFLOW, "kernel too large");
    unsigned __int128 nnz = 0;
    for (size_t i = 0; i < d; i++)
        for (size_t j = 0; j < n; j++)
            nnz += toggle__vecs_get(&sol->kernel, i, j) != 0;
    /* the copy (x0, the generators, their supports), and the handle that
     * holds it: its current vector and a few words per generator (counted
     * by the allocator hooks, tests/reliability/test_peak.c) */
    unsigned __int128 t = (unsigned __int128)x0 * 2 + gen + 4 * sizeof(uint64_t) * ((unsigned __int128)d + 1) +
                          (sizeof(size_t) + sizeof(uint64_t)) * (nnz + 1) + 1024;
    *bytes = t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
    return TOGGLE_OK;
}

int toggle__space_init_kernel(toggle__space *sp, const toggle_solution *sol)
{
    memset(sp, 0, sizeof *sp);
    uint64_t need = 0;
    int rc0 = toggle__space_estimate(sol, &need);
    if (!rc0)
        rc0 = toggle__budget_check_bytes(sol->budget, need, "a copy of the solution set");
    if (rc0)
        return rc0;
    size_t n = sol->n, d = sol->kernel.count, words, nnz = 0;
    sp->n = n;
    sp->d = d;
    sp->k = sol->k;
    toggle__progress_copy(&sp->progress, &sol->progress);
    int rc = toggle__vecs_init(&sp->x0, n, 1, sol->k);
    if (!rc)
        rc = toggle__vecs_init(&sp->gen, n, d, sol->k);
    if (rc)
        goto fail;
    if (sol->solvable)
        memcpy(sp->x0.data, sol->x.data, sp->x0.stride * sizeof(uint64_t));
    if (d && !toggle__mul_ok(d, sp->gen.stride, &words)) {
        rc = toggle__error(TOGGLE_EOVERFLOW, "kernel too large");
        goto fail;
    }
    if (d)
        memcpy(sp->gen.data, sol->kernel.data, words * sizeof(uint64_t));
    for (size_t i = 0; i < d; i++)
        for (size_t j = 0; j < n; j++)
            nnz += toggle__vecs_get(&sp->gen, i, j) != 0;
    sp->radix = toggle__malloc_array(d + 1, sizeof *sp->radix);
    sp->supp_start = toggle__malloc_array(d + 1, sizeof *sp->supp_start);
    sp->supp_idx = toggle__malloc_array(nnz + 1, sizeof *sp->supp_idx);
    sp->supp_val = toggle__malloc_array(nnz + 1, sizeof *sp->supp_val);
    if (!sp->radix || !sp->supp_start || !sp->supp_idx || !sp->supp_val) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory copying a solution set");
        goto fail;
    }
    nnz = 0;
    for (size_t i = 0; i < d; i++) {
        sp->radix[i] = toggle__solution_radix(sol, i);
        sp->supp_start[i] = nnz;
        for (size_t j = 0; j < n; j++) {
            uint64_t v = toggle__vecs_get(&sp->gen, i, j);
            if (v) {
                sp->supp_idx[nnz] = j;
                sp->supp_val[nnz++] = v;
            }
        }
    }
    sp->supp_start[d] = nnz;
    return TOGGLE_OK;
fail:
    toggle__space_clear(sp);
    return rc;
}

/* ---- rng ---------------------------------------------------------------- */

uint64_t toggle__splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void toggle__rng_seed(toggle_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = toggle__splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t toggle__rng_next(toggle_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

uint64_t toggle__rng_below(toggle_rng *r, uint64_t bound)
{
    if (bound < 2)
        return 0;
    uint64_t lim = UINT64_MAX - UINT64_MAX % bound, v;
    do
        v = toggle__rng_next(r);
    while (v >= lim);
    return v % bound;
}

int toggle_rng_new(toggle_rng **out, uint64_t seed)
{
    if (!out)
        return toggle__error(TOGGLE_EINVAL, "out must not be NULL");
    toggle_rng *r = toggle__malloc(sizeof *r);
    if (!r)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating an rng");
    toggle__rng_seed(r, seed);
    *out = r;
    return TOGGLE_OK;
}

uint64_t toggle_rng_next(toggle_rng *rng) { return rng ? toggle__rng_next(rng) : 0; }
uint64_t toggle_rng_below(toggle_rng *rng, uint64_t bound)
{
    return rng ? toggle__rng_below(rng, bound) : 0;
}
void toggle_rng_free(toggle_rng *rng) { toggle__free(rng); }

void toggle__space_combine(const toggle__space *sp, const uint64_t *c, uint64_t *x)
{
    uint64_t k = sp->k;
    for (size_t j = 0; j < sp->n; j++)
        x[j] = toggle__vecs_get(&sp->x0, 0, j);
    for (size_t i = 0; i < sp->d; i++) {
        if (!c[i])
            continue;
        for (size_t p = sp->supp_start[i]; p < sp->supp_start[i + 1]; p++) {
            size_t j = sp->supp_idx[p];
            x[j] = toggle__addmod(x[j], toggle__mulmod(c[i], sp->supp_val[p], k), k);
        }
    }
}

int toggle_solution_sample(const toggle_solution *sol, toggle_rng *rng, uint64_t *x,
                           size_t len)
{
    if (!sol || !rng || !x)
        return toggle__error(TOGGLE_EINVAL, "solution, rng and x must not be NULL");
    if (!sol->solvable)
        return toggle__error(TOGGLE_ENOSOLUTION, "the system has no solution");
    if (len < sol->n)
        return toggle__short_array("x", len, "solutions have", sol->n);
    size_t n = sol->n, d = sol->kernel.count;
    uint64_t k = sol->k;
    /* Draw every coefficient first, then combine in place (x may be the
     * only buffer the caller has). */
    uint64_t *c = toggle__malloc_array(d + 1, sizeof *c);
    if (!c)
        return toggle__error(TOGGLE_ENOMEM, "out of memory sampling");
    for (size_t i = 0; i < d; i++)
        c[i] = toggle__rng_below(rng, toggle__solution_radix(sol, i));
    for (size_t j = 0; j < n; j++)
        x[j] = toggle__vecs_get(&sol->x, 0, j);
    for (size_t i = 0; i < d; i++) {
        if (!c[i])
            continue;
        for (size_t j = 0; j < n; j++) {
            uint64_t v = toggle__vecs_get(&sol->kernel, i, j);
            if (v)
                x[j] = toggle__addmod(x[j], toggle__mulmod(c[i], v, k), k);
        }
    }
    toggle__free(c);
    return TOGGLE_OK;
}

/* ---- iterator --------------------------------------------------------------- */

struct toggle_iter {
    toggle__space sp;
    uint64_t *digit;   /* coefficient tuple */
    signed char *dir;  /* +1 / -1 per digit (reflected Gray order) */
    toggle__vecs cur;  /* current solution (packed for k = 2) */
    uint64_t produced;
    bool done;
};

void toggle_iter_reset(toggle_iter *it)
{
    if (!it)
        return;
    for (size_t i = 0; i < it->sp.d; i++) {
        it->digit[i] = 0;
        it->dir[i] = 1;
    }
    memcpy(it->cur.data, it->sp.x0.data, it->cur.stride * sizeof(uint64_t));
    it->produced = 0;
    it->done = false;
}

int toggle_iter_new(toggle_iter **out, const toggle_solution *sol)
{
    toggle_iter *it;
    TOGGLE__NEW_HANDLE_FROM(out, sol, "solution", it, "an iterator");
    int rc = toggle__space_init(&it->sp, sol);
    if (!rc)
        rc = toggle__vecs_init(&it->cur, sol->n, 1, sol->k);
    if (!rc) {
        it->digit = toggle__calloc(it->sp.d + 1, sizeof *it->digit);
        it->dir = toggle__calloc(it->sp.d + 1, 1);
        if (!it->digit || !it->dir)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory allocating an iterator");
    }
    if (!rc)
        toggle_iter_reset(it);
    TOGGLE__HAND_OUT(out, it, rc, toggle_iter_free);
}

void toggle_iter_free(toggle_iter *it)
{
    if (!it)
        return;
    toggle__space_clear(&it->sp);
    toggle__vecs_clear(&it->cur);
    TOGGLE__FREE_ALL(it->digit, it->dir, it);
}

TOGGLE__GETTER(uint64_t, toggle_iter_produced, toggle_iter, produced)

/* Advance the reflected mixed-radix Gray code: the lowest digit that can
 * still move in its direction moves; the digits below it turn around.
 * Returns false at the end. */
static bool gray_step(toggle_iter *it)
{
    const toggle__space *sp = &it->sp;
    size_t j = 0;
    while (j < sp->d) {
        uint64_t a = it->digit[j];
        if ((it->dir[j] > 0 && a + 1 < sp->radix[j]) || (it->dir[j] < 0 && a > 0))
            break;
        it->dir[j] = (signed char)-it->dir[j];
        j++;
    }
    if (j == sp->d)
        return false;
    int dir = it->dir[j];
    it->digit[j] = dir > 0 ? it->digit[j] + 1 : it->digit[j] - 1;
    if (it->cur.packed) {
        uint64_t *cur = it->cur.data;
        const uint64_t *g = toggle__vecs_row(&sp->gen, j);
        for (size_t w = 0; w < it->cur.stride; w++)
            cur[w] ^= g[w];
        return true;
    }
    uint64_t k = sp->k;
    toggle__vecs *cur = &it->cur;
    for (size_t p = sp->supp_start[j]; p < sp->supp_start[j + 1]; p++) {
        size_t c = sp->supp_idx[p];
        uint64_t v = toggle__vecs_get(cur, 0, c);
        toggle__vecs_set(cur, 0, c, dir > 0 ? toggle__addmod(v, sp->supp_val[p], k)
                                            : toggle__submod(v, sp->supp_val[p], k));
    }
    return true;
}

int toggle_iter_next(toggle_iter *it, uint64_t *x, size_t len)
{
    if (!it || !x)
        return toggle__error(TOGGLE_EINVAL, "iterator and x must not be NULL");
    if (len < it->sp.n)
        return toggle__short_array("x", len, "solutions have", it->sp.n);
    if (it->done)
        return TOGGLE_ITEROVER;
    if (it->produced > 0 && !gray_step(it)) {
        it->done = true;
        return TOGGLE_ITEROVER;
    }
    for (size_t j = 0; j < it->sp.n; j++)
        x[j] = toggle__vecs_get(&it->cur, 0, j);
    it->produced++;
    return TOGGLE_OK;
}
