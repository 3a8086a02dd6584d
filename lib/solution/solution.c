/* The solution accessors: answers, counts and readouts. */
#include <string.h>

#include "engine/flint/bigint.h"
#include "solution_internal.h"

int toggle__solution_new(toggle_solution **out, const toggle_system *s, int engine)
{
    toggle_solution *sol;
    TOGGLE__NEW_HANDLE(sol, "a solution");
    sol->m = s->m;
    sol->n = s->n;
    sol->k = s->k;
    sol->engine = engine;
    sol->search_limit = s->search_limit;
    sol->budget = s->budget;
    sol->threads = s->threads;
    if (s->graph && s->graph->kind != TOGGLE_KIND_MATRIX
        && s->graph->rows * s->graph->cols == s->n) {
        sol->rows = s->graph->rows;
        sol->cols = s->graph->cols;
    }
    toggle__progress_copy(&sol->progress, &s->progress);
    *out = sol;
    return TOGGLE_OK;
}

void toggle_solution_free(toggle_solution *sol)
{
    if (!sol)
        return;
    toggle__vecs_clear(&sol->x);
    toggle__vecs_clear(&sol->kernel);
    toggle__vecs_clear(&sol->cert);
    TOGGLE__FREE_ALL(sol->radix, sol);
}

int toggle_solution_is_solvable(const toggle_solution *sol)
{
    if (!sol)
        return toggle__error(TOGGLE_EINVAL, "solution is NULL");
    return sol->solvable ? 1 : 0;
}

TOGGLE__GETTER(size_t, toggle_solution_cols, toggle_solution, n)
TOGGLE__GETTER(size_t, toggle_solution_rows, toggle_solution, m)
TOGGLE__GETTER(uint64_t, toggle_solution_modulus, toggle_solution, k)
TOGGLE__GETTER(int, toggle_solution_engine, toggle_solution, engine)
TOGGLE__GETTER(size_t, toggle_solution_nullity, toggle_solution, nullity)

int toggle_solution_count_u64(const toggle_solution *sol, uint64_t *count)
{
    if (!sol || !count)
        return toggle__error(TOGGLE_EINVAL, "solution and count must not be NULL");
    uint64_t c = sol->solvable ? 1 : 0;
    for (size_t i = 0; sol->solvable && i < sol->nullity; i++)
        if (__builtin_mul_overflow(c, toggle__solution_radix(sol, i), &c))
            return toggle__error(TOGGLE_EOVERFLOW, "the number of solutions does not fit in 64 "
                                 "bits (nullity %zu modulo %llu)", sol->nullity,
                                 (unsigned long long)sol->k);
    *count = c;
    return TOGGLE_OK;
}

int toggle_solution_count_string(const toggle_solution *sol, char *buf, size_t len,
                                 size_t *needed)
{
    if (!sol || (!buf && len))
        return toggle__error(TOGGLE_EINVAL, "solution is NULL, or buf is NULL with len > 0");
    char *tmp = NULL;
    int rc = sol->solvable ? toggle__decimal_product(sol->radix, sol->nullity, sol->k, &tmp)
                           : TOGGLE_OK;
    if (rc)
        return rc;
    const char *digits = tmp ? tmp : "0";
    size_t need = strlen(digits) + 1;
    if (needed)
        *needed = need;
    if (len < need)
        rc = toggle__error(TOGGLE_EBUFSIZE, "the count needs %zu bytes, buffer has %zu", need,
                           len);
    else
        memcpy(buf, digits, need);
    toggle__free(tmp);
    return rc;
}

static void copy_vec(const toggle__vecs *v, size_t which, size_t offset, uint64_t *out,
                     size_t len)
{
    if (v->width == 64) {
        memcpy(out, toggle__vecs_row(v, which) + offset, len * sizeof *out);
        return;
    }
    for (size_t j = 0; j < len; j++)
        out[j] = toggle__vecs_get(v, which, offset + j);
}

/* Vector `which` of v (need entries) into out (len entries), or EBUFSIZE. */
static int copy_whole(const toggle__vecs *v, size_t which, size_t need, uint64_t *out,
                      size_t len, const char *name)
{
    if (len < need)
        return toggle__short_array(name, len, "the answer has", need);
    copy_vec(v, which, 0, out, need);
    return TOGGLE_OK;
}

int toggle_solution_particular(const toggle_solution *sol, uint64_t *x, size_t len)
{
    if (!sol || !x)
        return toggle__error(TOGGLE_EINVAL, "solution and x must not be NULL");
    if (!sol->solvable)
        return toggle__error(TOGGLE_ENOSOLUTION, "the system has no solution");
    return copy_whole(&sol->x, 0, sol->n, x, len, "x");
}

int toggle_solution_particular_range(const toggle_solution *sol, size_t offset, uint64_t *x,
                                     size_t len)
{
    size_t end;
    if (!sol || (!x && len))
        return toggle__error(TOGGLE_EINVAL, "solution and x must not be NULL");
    if (!sol->solvable)
        return toggle__error(TOGGLE_ENOSOLUTION, "the system has no solution");
    if (!toggle__add_ok(offset, len, &end) || end > sol->n)
        return toggle__error(TOGGLE_ERANGE, "range [%zu, +%zu) is outside a solution of %zu",
                             offset, len, sol->n);
    copy_vec(&sol->x, 0, offset, x, len);
    return TOGGLE_OK;
}

int toggle_solution_kernel_vector(const toggle_solution *sol, size_t index, uint64_t *v,
                                  size_t len)
{
    if (!sol || !v)
        return toggle__error(TOGGLE_EINVAL, "solution and v must not be NULL");
    if (index >= sol->kernel.count)
        return toggle__error(TOGGLE_ERANGE, "kernel vector %zu requested, the basis has %zu",
                             index, sol->kernel.count);
    return copy_whole(&sol->kernel, index, sol->n, v, len, "v");
}

int toggle_solution_certificate(const toggle_solution *sol, uint64_t *y, size_t len)
{
    if (!sol || !y)
        return toggle__error(TOGGLE_EINVAL, "solution and y must not be NULL");
    if (sol->solvable)
        return toggle__error(TOGGLE_EUNSUPPORTED, "the system is solvable: no certificate");
    if (!sol->cert.data)
        return toggle__error(TOGGLE_EUNSUPPORTED, "no certificate is available for this system");
    return copy_whole(&sol->cert, 0, sol->m, y, len, "y");
}

/* Bits [offset, offset + len) of the packed vector src (n bits) into
 * words (need words, bits past len zero). */
static void copy_bits(const uint64_t *src, size_t n, size_t offset, size_t len, uint64_t *words,
                      size_t need)
{
    size_t q = offset >> 6;
    unsigned sh = offset & 63;
    for (size_t i = 0; i < need; i++) {
        uint64_t wv = src[q + i] >> sh;
        if (sh && (q + i + 1) * 64 < n)
            wv |= src[q + i + 1] << (64 - sh);
        words[i] = wv;
    }
    if (len % 64)
        words[need - 1] &= ((uint64_t)1 << (len % 64)) - 1;
}

/* The checks both packed readouts share: modulus 2, range, buffer. */
static int packed_args(const toggle_solution *sol, size_t offset, size_t len, const uint64_t *words,
                       size_t nwords, size_t *need)
{
    size_t end;
    *need = len / 64 + (len % 64 != 0);
    if (!sol || (!words && nwords))
        return toggle__error(TOGGLE_EINVAL, "solution and words must not be NULL");
    if (sol->k != 2)
        return toggle__error(TOGGLE_EUNSUPPORTED, "packed readout needs modulus 2, not %llu",
                             (unsigned long long)sol->k);
    if (!toggle__add_ok(offset, len, &end) || end > sol->n)
        return toggle__error(TOGGLE_ERANGE, "range [%zu, +%zu) is outside a vector of %zu",
                             offset, len, sol->n);
    if (nwords < *need)
        return toggle__error(TOGGLE_EBUFSIZE, "%zu entries need %zu words, buffer has %zu",
                             len, *need, nwords);
    return TOGGLE_OK;
}

int toggle_solution_particular_packed(const toggle_solution *sol, size_t offset, size_t len,
                                      uint64_t *words, size_t nwords)
{
    size_t need;
    if (sol && sol->k == 2 && !sol->solvable && (words || !nwords))
        return toggle__error(TOGGLE_ENOSOLUTION, "the system has no solution");
    int rc = packed_args(sol, offset, len, words, nwords, &need);
    if (rc)
        return rc;
    copy_bits(toggle__vecs_row(&sol->x, 0), sol->n, offset, len, words, need);
    return TOGGLE_OK;
}

int toggle_solution_kernel_packed(const toggle_solution *sol, size_t index, size_t offset,
                                  size_t len, uint64_t *words, size_t nwords)
{
    size_t need;
    int rc = packed_args(sol, offset, len, words, nwords, &need);
    if (rc)
        return rc;
    if (index >= sol->kernel.count)
        return toggle__error(TOGGLE_ERANGE, "kernel vector %zu requested, the basis has %zu",
                             index, sol->kernel.count);
    copy_bits(toggle__vecs_row(&sol->kernel, index), sol->n, offset, len, words, need);
    return TOGGLE_OK;
}
