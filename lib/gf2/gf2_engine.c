/* The packed GF(2) engine: [A | b] one bit per entry, reduced by
 * toggle__gf2_rref, read out with the same canonical rules as the FLINT
 * engine. The certificate comes from the transpose system, built only after
 * the first matrix is freed, so the peak is one packed matrix. */
#include <string.h>

#include "gf2.h"
#include "internal.h"

static int gf2_supports(const toggle_system *s)
{
    if (s->k != 2)
        return toggle__error(TOGGLE_EUNSUPPORTED,
                             "the gf2 engine needs modulus 2, got %llu", (unsigned long long)s->k);
    return TOGGLE_OK;
}

static size_t words_for(size_t cols) { return cols / 64 + (cols % 64 != 0); }

/* Bytes of a rows x cols packed matrix plus its elimination workspace, as
 * unsigned __int128 so that no product wraps. */
static unsigned __int128 matrix_cost(size_t rows, size_t cols)
{
    return (unsigned __int128)rows * words_for(cols) * 8 + toggle__gf2_workspace_bytes(rows, cols);
}

static int gf2_estimate(const toggle_system *s, uint64_t *bytes)
{
    size_t m = s->m, n = s->n;
    unsigned __int128 a = matrix_cost(m, (unsigned __int128)n + 1 > SIZE_MAX ? n : n + 1);
    unsigned __int128 t = matrix_cost(n == SIZE_MAX ? n : n + 1, m == SIZE_MAX ? m : m + 1);
    unsigned __int128 e = (a > t ? a : t)
                        + (unsigned __int128)m * sizeof(size_t) + (unsigned __int128)n / 8
                        + (unsigned __int128)n * sizeof(size_t) + 4096;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    if (n == SIZE_MAX || m == SIZE_MAX || e > SIZE_MAX)
        return toggle__error(TOGGLE_ENOMEM, "%zu x %zu system is too large for the gf2 engine",
                             m, n);
    return TOGGLE_OK;
}

/* A packed rows x cols matrix of zeros, stride words per row. */
static int alloc_matrix(uint64_t **out, size_t rows, size_t cols, size_t *stride)
{
    size_t W = words_for(cols), words;
    if (!toggle__mul_ok(rows, W, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu bit matrix overflows size_t", rows, cols);
    *out = toggle__calloc(words ? words : 1, sizeof(uint64_t));
    if (!*out)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for a %zu x %zu bit matrix", rows, cols);
    *stride = W;
    return TOGGLE_OK;
}

/* [A | b], m x (n + 1). */
static int build_augmented(const toggle_system *s, uint64_t **out, size_t *stride)
{
    size_t m = s->m, n = s->n, W = 0;
    uint64_t *M;
    int rc = alloc_matrix(&M, m, n + 1, &W);
    if (rc)
        return rc;
    if (!s->graph) {
        size_t sw = s->a.stride;
        for (size_t i = 0; i < m && sw; i++)
            memcpy(M + i * W, toggle__vecs_row(&s->a, i), sw * sizeof *M);
    } else {
        toggle__colbuf cb;
        if ((rc = toggle__colbuf_init(&cb, s->graph))) {
            toggle__free(M);
            return rc;
        }
        for (size_t j = 0; j < n; j++) {
            size_t c = toggle__graph_column(s->graph, j, cb.idx, cb.val);
            for (size_t p = 0; p < c; p++)
                if (cb.val[p] & 1)
                    M[cb.idx[p] * W + (j >> 6)] |= (uint64_t)1 << (j & 63);
        }
        toggle__colbuf_clear(&cb);
    }
    for (size_t i = 0; i < m; i++)
        if (toggle__rhs(s, i))
            M[i * W + (n >> 6)] |= (uint64_t)1 << (n & 63);
    *out = M;
    *stride = W;
    return TOGGLE_OK;
}

/* [A^T | 0 ; b^T | 1], (n + 1) x (m + 1): its canonical particular solution
 * is the canonical certificate. */
static int build_transposed(const toggle_system *s, uint64_t **out, size_t *stride)
{
    size_t m = s->m, n = s->n, W = 0;
    uint64_t *T;
    int rc = alloc_matrix(&T, n + 1, m + 1, &W);
    if (rc)
        return rc;
    if (!s->graph) {
        if (m && n)
            toggle__gf2_transpose(T, W, s->a.data, s->a.stride, m, n);
    } else {
        toggle__colbuf cb;
        if ((rc = toggle__colbuf_init(&cb, s->graph))) {
            toggle__free(T);
            return rc;
        }
        for (size_t j = 0; j < n; j++) {
            size_t c = toggle__graph_column(s->graph, j, cb.idx, cb.val);
            uint64_t *row = T + j * W;
            for (size_t p = 0; p < c; p++)
                if (cb.val[p] & 1)
                    row[cb.idx[p] >> 6] |= (uint64_t)1 << (cb.idx[p] & 63);
        }
        toggle__colbuf_clear(&cb);
    }
    uint64_t *last = T + n * W;
    for (size_t i = 0; i < m; i++)
        if (toggle__rhs(s, i))
            last[i >> 6] |= (uint64_t)1 << (i & 63);
    last[m >> 6] |= (uint64_t)1 << (m & 63);
    *out = T;
    *stride = W;
    return TOGGLE_OK;
}

static inline unsigned get(const uint64_t *row, size_t j)
{
    return (unsigned)(row[j >> 6] >> (j & 63)) & 1u;
}

static inline void set(uint64_t *row, size_t j)
{
    row[j >> 6] |= (uint64_t)1 << (j & 63);
}

/* Solve the rows x cols system whose augmented matrix is M (cols unknowns,
 * right-hand side in column cols); fills the particular solution x (when
 * consistent) and, if kernel is not NULL, the kernel basis. */
static int solve_packed(const toggle_system *s, uint64_t *M, size_t rows, size_t cols,
                        size_t stride, bool *solvable, size_t *nullity, toggle__vecs *x,
                        toggle__vecs *kernel)
{
    size_t *pivot = toggle__calloc(rows ? rows : 1, sizeof *pivot);
    if (!pivot)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for pivot bookkeeping");
    size_t rank = 0;
    int rc = toggle__gf2_rref(M, rows, cols + 1, stride, pivot, &rank);
    if (rc)
        goto done;
    bool inconsistent = rank > 0 && pivot[rank - 1] == cols;
    size_t rank_a = inconsistent ? rank - 1 : rank;
    *solvable = !inconsistent;
    *nullity = cols - rank_a;
    if (kernel) {
        size_t kb;
        if (!toggle__vecs_bytes(cols, *nullity, 2, &kb)) {
            rc = toggle__error(TOGGLE_EOVERFLOW, "kernel basis overflows size_t");
            goto done;
        }
        uint64_t est = 0;
        gf2_estimate(s, &est);
        if ((rc = toggle__budget_check(s, est + kb, "the gf2 kernel basis")))
            goto done;
        if ((rc = toggle__vecs_init(kernel, cols, *nullity, 2)))
            goto done;
        size_t v = 0, i = 0;
        for (size_t f = 0; f < cols; f++) {
            if (i < rank_a && pivot[i] == f) {
                i++;
                continue;
            }
            uint64_t *kv = toggle__vecs_row(kernel, v++);
            set(kv, f);
            /* only pivot rows i' < i can have a 1 in free column f */
            for (size_t r = 0; r < i; r++)
                if (get(M + r * stride, f))
                    set(kv, pivot[r]);
        }
    }
    if (*solvable) {
        if ((rc = toggle__vecs_init(x, cols, 1, 2)))
            goto done;
        uint64_t *xv = toggle__vecs_row(x, 0);
        for (size_t r = 0; r < rank_a; r++)
            if (get(M + r * stride, cols))
                set(xv, pivot[r]);
    }
done:
    toggle__free(pivot);
    return rc;
}

static int gf2_solve(const toggle_system *s, toggle_solution *sol)
{
    uint64_t *M = NULL;
    size_t stride = 0;
    int rc = build_augmented(s, &M, &stride);
    if (rc)
        return rc;
    rc = solve_packed(s, M, s->m, s->n, stride, &sol->solvable, &sol->nullity, &sol->x,
                      &sol->kernel);
    toggle__free(M);
    if (rc || sol->solvable)
        return rc;
    if ((rc = build_transposed(s, &M, &stride)))
        return rc;
    bool ok = false;
    size_t d = 0;
    rc = solve_packed(s, M, s->n + 1, s->m, stride, &ok, &d, &sol->cert, NULL);
    toggle__free(M);
    if (!rc && !ok)
        rc = toggle__error(TOGGLE_EINTERNAL, "certificate system unexpectedly unsolvable");
    return rc;
}

const toggle__engine toggle__engine_gf2 = {
    .id = TOGGLE_ENGINE_GF2,
    .name = "gf2",
    .supports = gf2_supports,
    .estimate = gf2_estimate,
    .solve = gf2_solve,
};
