/* The FLINT engine: dense nmod_mat elimination of [A | b] over Z/pZ. The only
 * folder that includes FLINT headers. Every argument is validated and the
 * memory budget checked before FLINT is called, since FLINT aborts on bad
 * input and on allocation failure. */
#include <flint/flint.h>
#include <flint/nmod_mat.h>

#include "guard.h"
#include "internal.h"

static int flint_supports(const toggle_system *s)
{
    if (!toggle__is_prime(s->k))
        return toggle__error(TOGGLE_EUNSUPPORTED,
                             "the FLINT engine needs a prime modulus, %llu is composite",
                             (unsigned long long)s->k);
    return TOGGLE_OK;
}

static int flint_estimate(const toggle_system *s, uint64_t *bytes)
{
    /* [A | b] as one word per entry; nmod_mat_rref works in place but its
     * LU and triangular-solve stages hold further copies: the peak RSS
     * measured by tests/reliability/test_budget.c reaches 3.4 copies of M
     * (50 x 50 grid, k = 3), so budget 4 copies plus 1 MiB of fixed
     * overhead. The certificate system (the transpose) comes after M is
     * freed. */
    unsigned __int128 e = (unsigned __int128)s->m * (s->n + 2) * sizeof(mp_limb_t) * 4
                        + (unsigned __int128)(s->m + s->n + 2) * 64 + ((unsigned __int128)1 << 20);
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    if ((unsigned __int128)s->m * (s->n + 2) > (unsigned __int128)(WORD_MAX / 2))
        return toggle__error(TOGGLE_ENOMEM, "%zu x %zu system is too large for FLINT",
                             s->m, s->n);
    return TOGGLE_OK;
}

static int fill_matrix(const toggle_system *s, nmod_mat_t M)
{
    uint64_t k = s->k;
    if (!s->graph) {
        for (size_t i = 0; i < s->m; i++)
            for (size_t j = 0; j < s->n; j++)
                nmod_mat_entry(M, i, j) = toggle__vecs_get(&s->a, i, j);
    } else {
        toggle__colbuf cb;
        int rc = toggle__colbuf_init(&cb, s->graph);
        if (rc)
            return rc;
        for (size_t j = 0; j < s->n; j++) {
            size_t c = toggle__graph_column(s->graph, j, cb.idx, cb.val);
            for (size_t p = 0; p < c; p++)
                nmod_mat_entry(M, cb.idx[p], j) = cb.val[p] % k;
        }
        toggle__colbuf_clear(&cb);
    }
    for (size_t i = 0; i < s->m; i++)
        nmod_mat_entry(M, i, s->n) = toggle__rhs(s, i);
    return TOGGLE_OK;
}

/* Everything between nmod_mat_init and nmod_mat_clear, run inside the FLINT
 * guard's recovery point (lib/core/guard.h): FLINT can only fail in
 * nmod_mat_init and nmod_mat_rref, before any vector of sol is allocated. */
typedef struct {
    const toggle_system *s;
    toggle_solution *sol;
    size_t *pivot;
    unsigned char *is_pivot;
} flint_job;

static int flint_eliminate(void *arg)
{
    flint_job *job = arg;
    const toggle_system *s = job->s;
    toggle_solution *sol = job->sol;
    size_t m = s->m, n = s->n, *pivot = job->pivot;
    unsigned char *is_pivot = job->is_pivot;
    uint64_t k = s->k;
    nmod_mat_t M;
    int rc = TOGGLE_OK;
    size_t rank = 0;
    bool inconsistent = false;
    if (m > 0) {
        nmod_mat_init(M, (slong)m, (slong)(n + 1), k);
        rc = fill_matrix(s, M);
        if (!rc) {
            rank = (size_t)nmod_mat_rref(M);
            for (size_t i = 0, j = 0; i < rank; i++) {
                while (nmod_mat_entry(M, i, j) == 0)
                    j++;
                pivot[i] = j;
                is_pivot[j] = 1;
            }
            inconsistent = rank > 0 && pivot[rank - 1] == n;
        }
    }
    size_t rank_a = inconsistent ? rank - 1 : rank;
    if (!rc) {
        sol->solvable = !inconsistent;
        sol->nullity = n - rank_a;
        rc = toggle__vecs_init(&sol->kernel, n, sol->nullity, k);
    }
    if (!rc && sol->solvable) {
        rc = toggle__vecs_init(&sol->x, n, 1, k);
        for (size_t i = 0; !rc && i < rank_a; i++)
            toggle__vecs_set(&sol->x, 0, pivot[i], nmod_mat_entry(M, i, n));
    }
    if (!rc) {
        size_t v = 0;
        for (size_t f = 0; f < n; f++) {
            if (is_pivot[f])
                continue;
            toggle__vecs_set(&sol->kernel, v, f, 1 % k);
            for (size_t i = 0; i < rank_a; i++) {
                uint64_t e = nmod_mat_entry(M, i, f);
                if (e)
                    toggle__vecs_set(&sol->kernel, v, pivot[i], k - e);
            }
            v++;
        }
    }
    if (m > 0)
        nmod_mat_clear(M);
    return rc;
}

static int flint_solve(const toggle_system *s, toggle_solution *sol)
{
    size_t m = s->m, n = s->n;
    size_t *pivot = toggle__calloc(m ? m : 1, sizeof *pivot);
    unsigned char *is_pivot = toggle__calloc(n + 1, 1);
    if (!pivot || !is_pivot) {
        toggle__free(pivot);
        toggle__free(is_pivot);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for pivot bookkeeping");
    }
    flint_job job = {s, sol, pivot, is_pivot};
    int rc = toggle__flint_call(flint_eliminate, &job, "nmod_mat_rref");
    toggle__free(pivot);
    toggle__free(is_pivot);
    if (!rc && !sol->solvable)
        rc = toggle__certificate_by_transpose(s, &toggle__engine_flint, sol);
    return rc;
}

const toggle__engine toggle__engine_flint = {
    .id = TOGGLE_ENGINE_FLINT,
    .name = "flint",
    .supports = flint_supports,
    .estimate = flint_estimate,
    .solve = flint_solve,
};
