/* Reading the canonical answers out of a reduced row echelon form of
 * [A | b]: shared by the elimination engines (flint, gf2). */
#include "engine.h"

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
    /* Free column f gives e_f - sum R[i][f] e_pivot[i]; only the pivot rows
     * i whose pivot lies left of f can have an entry in column f. */
    for (size_t f = 0, v = 0, i = 0; f < n; f++) {
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
    if (m == 0 || n == 0 || (s->budget && *scratch > s->budget / 16)) {
        *scratch = 0;
        return TOGGLE_OK;
    }
    mu_ctx c = {toggle__calloc(m, sizeof(size_t)), board ? toggle__calloc(m, sizeof(size_t)) : NULL,
                board ? g->rows : 0, board ? g->cols : 0};
    size_t *tails = toggle__malloc_array(m, sizeof *tails);
    int rc = c.rm && tails && (!board || c.cm)
           ? TOGGLE_OK : toggle__error(TOGGLE_ENOMEM, "out of memory bounding the kernel");
    if (!rc && !g) /* dense rows: mu(i) from the row's end, not a walk over every entry */
        for (size_t i = 0; i < m; i++) {
            size_t j = n;
            while (j > 0 && !toggle__vecs_get(&s->a, i, j - 1))
                j--;
            c.rm[i] = j;
        }
    else if (!rc)
        rc = toggle__system_each_entry(s, note_mu, &c);
    if (!rc) {
        size_t run = longest_increasing(c.rm, m, tails);
        if (board) {
            size_t run2 = longest_increasing(c.cm, m, tails);
            run = run2 > run ? run2 : run;
        }
        *bound = n - (run < n ? run : n);
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
