/* The Howell engine: A x = b over Z/kZ for any k (composite included)
 * through the Howell form of lib/linalg/howell: the system's matrices are
 * laid out here, the form and its readout are the kernel's.
 * docs/solution-spaces.md. */
#include "engine/engine.h"
#include "linalg/howell/howell.h"

static bool howell_probe(const toggle_system *s, char *why, size_t len)
{
    /* Prime moduli belong to the field engines (same answers, faster). */
    if (toggle__is_prime(s->k))
        return toggle__probe_no(why, len, "the Howell engine is for composite moduli; %llu is "
                                "prime", (unsigned long long)s->k);
    return true;
}

/* Workspace of the larger of the two Howell matrices, in words. */
static bool work_words(const toggle_system *s, size_t *rows, size_t *cols, size_t *words)
{
    size_t c, r, w;
    if (!toggle__add_ok(s->m, s->n, &c) || !toggle__add_ok(c, 1, &c))
        return false;
    /* solve matrix: n + 1 rows; certificate matrix: m rows; each may gain
     * one annihilator row per column */
    r = (s->n + 1 > s->m ? s->n + 1 : s->m);
    if (!toggle__add_ok(r, c, &r) || !toggle__mul_ok(r, c, &w))
        return false;
    *rows = r;
    *cols = c;
    *words = w;
    return true;
}

static int howell_estimate(const toggle_system *s, uint64_t *bytes)
{
    size_t r, c, w;
    if (!work_words(s, &r, &c, &w) || w > SIZE_MAX / 8)
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu system is too large for Howell form",
                             s->m, s->n);
    *bytes = (uint64_t)w * 8 + (uint64_t)r * sizeof(size_t) + (uint64_t)(s->n + 1) * 16;
    /* the kernel basis and x are filled while the Howell form is held */
    return toggle__readout_estimate(s, *bytes, bytes);
}

/* Certificate: Howell form of [A | b | I_m]; the row led by the b column
 * is (0 | y.b | y) with y A = 0 and y.b != 0. */
static int certify_in(const toggle_system *s, toggle_solution *sol, uint64_t *M, size_t *lead,
                      size_t cols, size_t cap)
{
    size_t m = s->m, n = s->n, r;
    int rc = toggle__system_put_words(s, M, cols, 0, 0, false);
    if (rc)
        return rc;
    for (size_t i = 0; i < m; i++) {
        M[i * cols + n] = toggle__rhs(s, i);
        M[i * cols + n + 1 + i] = 1;
    }
    if ((rc = toggle__howell(M, m, cap, cols, s->k, &r, lead, &s->progress)))
        return rc;
    for (size_t i = 0; i < r; i++) {
        if (lead[i] < n)
            continue;
        if (lead[i] > n)
            break;
        if ((rc = toggle__vecs_init(&sol->cert, m, 1, s->k)))
            return rc;
        for (size_t j = 0; j < m; j++)
            toggle__vecs_set(&sol->cert, 0, j, M[i * cols + n + 1 + j]);
        return TOGGLE_OK;
    }
    return toggle__error(TOGGLE_EINTERNAL, "unsolvable system without a certificate");
}

static int howell_certify(const toggle_system *s, toggle_solution *sol)
{
    size_t cols = s->n + 1 + s->m, cap = s->m + cols, words;
    if (!toggle__mul_ok(cap, cols, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "system too large");
    uint64_t *M = toggle__calloc(words ? words : 1, sizeof *M);
    size_t *lead = toggle__calloc(cap, sizeof *lead);
    int rc = M && lead ? TOGGLE_OK
                       : toggle__error(TOGGLE_ENOMEM, "out of memory for the Howell form");
    if (!rc)
        rc = certify_in(s, sol, M, lead, cols, cap);
    toggle__free(M);
    toggle__free(lead);
    return rc;
}

static int howell_solve(const toggle_system *s, toggle_solution *sol)
{
    size_t m = s->m, n = s->n, wr, wc, words, r = 0;
    uint64_t k = s->k;
    if (!work_words(s, &wr, &wc, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "system too large");
    uint64_t *M = toggle__calloc(words ? words : 1, sizeof *M);
    size_t *lead = toggle__calloc(wr ? wr : 1, sizeof *lead);
    uint64_t *radix = toggle__malloc_array(n + 1, sizeof *radix);
    if (!M || !lead || !radix) {
        toggle__free(M);
        toggle__free(lead);
        toggle__free(radix);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the Howell form");
    }
    /* Rows: (-b | 1 | 0) and (column j of A | 0 | e_j). A combination with
     * coefficients (c, x) reads (A x - c b | c | x). */
    size_t cols = m + 1 + n, cap = n + 1 + cols;
    int rc = toggle__system_put_words(s, M, cols, 1, 0, true);
    if (!rc) {
        for (size_t i = 0; i < m; i++)
            M[i] = toggle__rhs(s, i) ? k - toggle__rhs(s, i) : 0;
        M[m] = 1;
        for (size_t j = 0; j < n; j++)
            M[(1 + j) * cols + m + 1 + j] = 1;
        rc = toggle__howell(M, n + 1, cap, cols, k, &r, lead, &s->progress);
    }
    if (!rc)
        rc = toggle__howell_readout(M, r, lead, m, n, k, &sol->solvable, &sol->nullity,
                                    &sol->kernel, &sol->x, radix);
    toggle__free(M);
    toggle__free(lead);
    if (rc)
        toggle__free(radix);
    else
        sol->radix = radix;
    return rc;
}

const toggle__engine toggle__engine_howell = {howell_probe, howell_estimate, howell_solve,
                                              howell_certify};
