/* The solve front door and the solution accessors. */
#include <string.h>

#include <gmp.h>

#include "internal.h"

int toggle__solution_new(toggle_solution **out, const toggle_system *s, int engine)
{
    toggle_solution *sol = toggle__calloc(1, sizeof *sol);
    if (!sol)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a solution");
    sol->m = s->m;
    sol->n = s->n;
    sol->k = s->k;
    sol->engine = engine;
    sol->search_limit = s->search_limit;
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
    toggle__free(sol->count);
    if (sol->extra_free)
        sol->extra_free(sol->extra);
    toggle__free(sol);
}

int toggle_solve(toggle_solution **out, const toggle_system *s)
{
    if (!out || !s)
        return toggle__error(TOGGLE_EINVAL, "out and system must not be NULL");
    const toggle__engine *e;
    if (s->engine == TOGGLE_ENGINE_AUTO) {
        e = toggle__engine_pick(s);
        if (!e)
            return TOGGLE_EUNSUPPORTED; /* pick set the message */
    } else {
        e = toggle__engine_get(s->engine);
        if (!e)
            return toggle__error(TOGGLE_EUNSUPPORTED, "engine '%s' is not available in this build",
                                 toggle_engine_name(s->engine));
        int rc = e->supports(s);
        if (rc)
            return rc;
    }
    uint64_t bytes = 0;
    int rc = e->estimate(s, &bytes);
    if (rc)
        return rc;
    if ((rc = toggle__budget_check(s, bytes, e->name)))
        return rc;
    toggle_solution *sol = NULL;
    if ((rc = toggle__solution_new(&sol, s, e->id)))
        return rc;
    if ((rc = e->solve(s, sol))) {
        toggle_solution_free(sol);
        return rc;
    }
    *out = sol;
    return TOGGLE_OK;
}

int toggle_solution_is_solvable(const toggle_solution *sol)
{
    if (!sol)
        return toggle__error(TOGGLE_EINVAL, "solution is NULL");
    return sol->solvable ? 1 : 0;
}

size_t toggle_solution_cols(const toggle_solution *sol) { return sol ? sol->n : 0; }
size_t toggle_solution_rows(const toggle_solution *sol) { return sol ? sol->m : 0; }
uint64_t toggle_solution_modulus(const toggle_solution *sol) { return sol ? sol->k : 0; }
int toggle_solution_engine(const toggle_solution *sol) { return sol ? sol->engine : 0; }
size_t toggle_solution_nullity(const toggle_solution *sol) { return sol ? sol->nullity : 0; }

/* The count as a GMP integer: the engine's exact string for composite k,
 * else k^nullity, or 0 when unsolvable. */
static int count_mpz(const toggle_solution *sol, mpz_t c)
{
    if (!sol->solvable) {
        mpz_set_ui(c, 0);
        return TOGGLE_OK;
    }
    if (sol->count) {
        if (mpz_set_str(c, sol->count, 10) != 0)
            return toggle__error(TOGGLE_EINTERNAL, "engine stored a malformed count");
        return TOGGLE_OK;
    }
    /* k^d has about d * 63 bits; refuse absurd sizes before GMP allocates. */
    if (sol->nullity > ((size_t)1 << 26))
        return toggle__error(TOGGLE_ENOMEM, "k^%zu is too large to write out", sol->nullity);
    mpz_ui_pow_ui(c, sol->k, sol->nullity);
    return TOGGLE_OK;
}

int toggle_solution_count_u64(const toggle_solution *sol, uint64_t *count)
{
    if (!sol || !count)
        return toggle__error(TOGGLE_EINVAL, "solution and count must not be NULL");
    if (!sol->solvable) {
        *count = 0;
        return TOGGLE_OK;
    }
    if (!sol->count) {
        /* k^d without GMP: stop at the first overflow. */
        uint64_t c = 1;
        for (size_t i = 0; i < sol->nullity; i++) {
            if (__builtin_mul_overflow(c, sol->k, &c))
                return toggle__error(TOGGLE_EOVERFLOW, "%llu^%zu solutions do not fit in 64 bits",
                                     (unsigned long long)sol->k, sol->nullity);
        }
        *count = c;
        return TOGGLE_OK;
    }
    mpz_t c;
    mpz_init(c);
    int rc = count_mpz(sol, c);
    if (!rc && mpz_sizeinbase(c, 2) > 64)
        rc = toggle__error(TOGGLE_EOVERFLOW, "the number of solutions does not fit in 64 bits");
    if (!rc)
        *count = (uint64_t)mpz_get_ui(c); /* 64-bit limbs on every supported target */
    mpz_clear(c);
    return rc;
}

int toggle_solution_count_string(const toggle_solution *sol, char *buf, size_t len,
                                 size_t *needed)
{
    if (!sol || (!buf && len))
        return toggle__error(TOGGLE_EINVAL, "solution is NULL, or buf is NULL with len > 0");
    if (sol->count && sol->solvable) {
        size_t need = strlen(sol->count) + 1;
        if (needed)
            *needed = need;
        if (len < need)
            return toggle__error(TOGGLE_EBUFSIZE, "the count needs %zu bytes, buffer has %zu",
                                 need, len);
        memcpy(buf, sol->count, need);
        return TOGGLE_OK;
    }
    mpz_t c;
    mpz_init(c);
    int rc = count_mpz(sol, c);
    if (rc) {
        mpz_clear(c);
        return rc;
    }
    size_t need = mpz_sizeinbase(c, 10) + 2; /* sizeinbase may be one too big */
    char *tmp = toggle__malloc(need);
    if (!tmp) {
        mpz_clear(c);
        return toggle__error(TOGGLE_ENOMEM, "out of memory writing the count");
    }
    mpz_get_str(tmp, 10, c);
    mpz_clear(c);
    need = strlen(tmp) + 1;
    if (needed)
        *needed = need;
    if (len < need) {
        toggle__free(tmp);
        return toggle__error(TOGGLE_EBUFSIZE, "the count needs %zu bytes, buffer has %zu",
                             need, len);
    }
    memcpy(buf, tmp, need);
    toggle__free(tmp);
    return TOGGLE_OK;
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

int toggle_solution_particular(const toggle_solution *sol, uint64_t *x, size_t len)
{
    if (!sol || !x)
        return toggle__error(TOGGLE_EINVAL, "solution and x must not be NULL");
    if (!sol->solvable)
        return toggle__error(TOGGLE_ENOSOLUTION, "the system has no solution");
    if (len < sol->n)
        return toggle__error(TOGGLE_EBUFSIZE, "x has %zu entries, the solution has %zu",
                             len, sol->n);
    copy_vec(&sol->x, 0, 0, x, sol->n);
    return TOGGLE_OK;
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
    if (len < sol->n)
        return toggle__error(TOGGLE_EBUFSIZE, "v has %zu entries, vectors have %zu", len, sol->n);
    copy_vec(&sol->kernel, index, 0, v, sol->n);
    return TOGGLE_OK;
}

int toggle_solution_certificate(const toggle_solution *sol, uint64_t *y, size_t len)
{
    if (!sol || !y)
        return toggle__error(TOGGLE_EINVAL, "solution and y must not be NULL");
    if (sol->solvable)
        return toggle__error(TOGGLE_EUNSUPPORTED, "the system is solvable: no certificate");
    if (!sol->cert.data)
        return toggle__error(TOGGLE_EUNSUPPORTED, "no certificate is available for this system");
    if (len < sol->m)
        return toggle__error(TOGGLE_EBUFSIZE, "y has %zu entries, the certificate has %zu",
                             len, sol->m);
    copy_vec(&sol->cert, 0, 0, y, sol->m);
    return TOGGLE_OK;
}
