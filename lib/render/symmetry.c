/* Symmetries of board states (subgroups of D4) and Burnside orbit counts of
 * solution sets over prime fields. */
#include <string.h>

#include "render_internal.h"

/* Where symmetry bit b (0..7) sends cell (r, c) of an R x C board. */
size_t toggle__sym_dest(int b, size_t r, size_t c, size_t R, size_t C)
{
    switch (b) {
    case 1: return c * R + (R - 1 - r);               /* ROT90 (square) */
    case 2: return (R - 1 - r) * C + (C - 1 - c);     /* ROT180 */
    case 3: return (C - 1 - c) * R + r;               /* ROT270 (square) */
    case 4: return (R - 1 - r) * C + c;               /* MIRROR_H */
    case 5: return r * C + (C - 1 - c);               /* MIRROR_V */
    case 6: return c * R + r;                         /* DIAG (square) */
    case 7: return (C - 1 - c) * R + (R - 1 - r);     /* ANTIDIAG (square) */
    default: return r * C + c;
    }
}

uint32_t toggle_symmetry_of_shape(size_t rows, size_t cols)
{
    if (rows == 0 || cols == 0)
        return 0;
    return rows == cols ? TOGGLE_SYM_ALL : 0x35u;
}

int toggle_board_symmetry(const uint64_t *cells, size_t rows, size_t cols, uint32_t *mask)
{
    if (!cells || !mask)
        return toggle__error(TOGGLE_EINVAL, "cells and mask must not be NULL");
    if (rows == 0 || cols == 0)
        return toggle__error(TOGGLE_EINVAL, "board must have at least one cell");
    size_t n;
    if (!toggle__mul_ok(rows, cols, &n))
        return toggle__error(TOGGLE_EOVERFLOW, "rows * cols overflows");
    uint32_t shape = toggle_symmetry_of_shape(rows, cols), m = TOGGLE_SYM_IDENTITY;
    for (int b = 1; b < 8; b++) {
        if (!(shape & (1u << b)))
            continue;
        int ok = 1;
        for (size_t r = 0; r < rows && ok; r++)
            for (size_t c = 0; c < cols; c++)
                if (cells[toggle__sym_dest(b, r, c, rows, cols)] != cells[r * cols + c]) {
                    ok = 0;
                    break;
                }
        if (ok)
            m |= 1u << b;
    }
    *mask = m;
    return TOGGLE_OK;
}

const char *toggle_symmetry_name(uint32_t mask)
{
    switch (mask) {
    case 0x01: return "none";
    case 0x05: return "180-degree rotation";
    case 0x11: return "horizontal mirror";
    case 0x21: return "vertical mirror";
    case 0x41: return "diagonal";
    case 0x81: return "anti-diagonal";
    case 0x35: return "both mirrors";
    case 0xC5: return "both diagonals";
    case 0x0F: return "90-degree rotation";
    case 0xFF: return "full D4";
    default: return NULL;
    }
}

/* ---- orbit counting ----------------------------------------------------- */

/* An echelon basis over F_p, built incrementally: each row is 1 at its pivot
 * and 0 at the pivots of the rows inserted after it, so reducing a vector
 * against the rows in insertion order clears every pivot. */
typedef struct {
    size_t len, count, cap;
    uint64_t p;
    uint64_t *rows;  /* cap * len */
    size_t *pivot;
} basis;

static int basis_init(basis *b, size_t len, size_t cap, uint64_t p)
{
    memset(b, 0, sizeof *b);
    b->len = len;
    b->cap = cap;
    b->p = p;
    b->rows = toggle__malloc_array(cap ? cap : 1, len * sizeof *b->rows);
    b->pivot = toggle__malloc_array(cap ? cap : 1, sizeof *b->pivot);
    if (!b->rows || !b->pivot) {
        toggle__free(b->rows);
        toggle__free(b->pivot);
        b->rows = NULL; /* the caller's basis_clear() frees them again */
        b->pivot = NULL;
        return toggle__error(TOGGLE_ENOMEM, "out of memory counting orbits");
    }
    return TOGGLE_OK;
}

static void basis_clear(basis *b)
{
    toggle__free(b->rows);
    toggle__free(b->pivot);
    memset(b, 0, sizeof *b);
}

/* The workspace of both counts: *a of na words, *b of nb words, then a
 * basis of up to cap vectors of len entries. Release it with work_clear
 * whatever this returned. */
static int work_init(uint64_t **a, size_t na, uint64_t **b, size_t nb, basis *B, size_t len,
                     size_t cap, uint64_t p)
{
    memset(B, 0, sizeof *B);
    *a = toggle__malloc_array(na, sizeof **a);
    *b = toggle__malloc_array(nb, sizeof **b);
    if (!*a || !*b)
        return toggle__error(TOGGLE_ENOMEM, "out of memory counting orbits");
    return basis_init(B, len, cap, p);
}

static void work_clear(uint64_t *a, uint64_t *b, basis *B)
{
    basis_clear(B);
    toggle__free(a);
    toggle__free(b);
}

/* Reduce v in place; true if it became zero. */
static bool basis_reduce(const basis *b, uint64_t *v)
{
    for (size_t i = 0; i < b->count; i++) {
        uint64_t f = v[b->pivot[i]];
        if (!f)
            continue;
        const uint64_t *row = b->rows + i * b->len;
        uint64_t neg = b->p - f;
        for (size_t j = 0; j < b->len; j++)
            if (row[j])
                v[j] = toggle__addmod(v[j], toggle__mulmod(neg, row[j], b->p), b->p);
    }
    for (size_t j = 0; j < b->len; j++)
        if (v[j])
            return false;
    return true;
}

/* Reduce v (clobbered) and insert it if independent. Returns true if inserted. */
static bool basis_insert(basis *b, uint64_t *v)
{
    if (basis_reduce(b, v) || b->count == b->cap)
        return false;
    size_t piv = 0;
    while (!v[piv])
        piv++;
    uint64_t inv = toggle__invmod(v[piv], b->p);
    uint64_t *row = b->rows + b->count * b->len;
    for (size_t j = 0; j < b->len; j++)
        row[j] = toggle__mulmod(v[j], inv, b->p);
    b->pivot[b->count++] = piv;
    return true;
}

/* out = g(v): the value at cell i moves to toggle__sym_dest(g, i). */
static void apply_sym(int g, const uint64_t *v, uint64_t *out, size_t R, size_t C)
{
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++)
            out[toggle__sym_dest(g, r, c, R, C)] = v[r * C + c];
}

/* out = a - b mod p. */
static void sub_vec(const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n, uint64_t p)
{
    for (size_t j = 0; j < n; j++)
        out[j] = toggle__submod(a[j], b[j], p);
}

/* Burnside's terms are exact in 128 bits up to POW_CAP: the identity term
 * p^d bounds every other one, and the orbit count is at least p^d / 8, so
 * past 2^67 it cannot fit in 64 bits; below, the sum of 8 terms fits in
 * 128 bits and only the quotient has to fit in 64. */
#define POW_CAP ((unsigned __int128)1 << 70)

/* p^e as a 128-bit value, or false past POW_CAP. */
static bool pow_fits(uint64_t p, size_t e, unsigned __int128 *out)
{
    unsigned __int128 v = 1;
    for (size_t i = 0; i < e; i++) {
        v *= p;
        if (v > POW_CAP)
            return false;
    }
    *out = v;
    return true;
}

/* Number of solutions g fixes, given the kernel vectors K (d x n) and x0;
 * EINVAL if g does not map the solution set onto itself. */
static int fixed_count(int g, const uint64_t *x0, const uint64_t *K, size_t d, size_t R,
                       size_t C, uint64_t p, const basis *kb, unsigned __int128 *fixed)
{
    size_t n = R * C;
    uint64_t *gv, *w;
    basis mb;
    int rc = work_init(&gv, n, &w, n, &mb, n, d, p);
    if (rc)
        goto done;
    for (size_t i = 0; i < d; i++) {
        apply_sym(g, K + i * n, gv, R, C);
        memcpy(w, gv, n * sizeof *w);
        if (!basis_reduce(kb, w)) {
            rc = toggle__error(TOGGLE_EINVAL, "the solution set is not invariant under "
                               "symmetry 0x%02x", 1u << g);
            goto done;
        }
        sub_vec(gv, K + i * n, w, n, p);
        basis_insert(&mb, w);
    }
    apply_sym(g, x0, gv, R, C);
    sub_vec(x0, gv, w, n, p); /* x0 - g x0 */
    uint64_t *w2 = gv;        /* reuse: the membership test needs a copy */
    memcpy(w2, w, n * sizeof *w2);
    if (!basis_reduce(kb, w2)) {
        rc = toggle__error(TOGGLE_EINVAL, "the solution set is not invariant under "
                           "symmetry 0x%02x", 1u << g);
        goto done;
    }
    /* g fixes x0 + K c  <=>  (g K - K) c = x0 - g x0 */
    if (!basis_reduce(&mb, w)) {
        *fixed = 0;
    } else if (!pow_fits(p, d - mb.count, fixed)) {
        rc = toggle__error(TOGGLE_EOVERFLOW, "orbit count does not fit in 64 bits");
    }
done:
    work_clear(gv, w, &mb);
    return rc;
}

int toggle_solution_count_orbits(const toggle_solution *sol, size_t rows, size_t cols,
                                 uint32_t group, uint64_t *orbits)
{
    if (!sol || !orbits)
        return toggle__error(TOGGLE_EINVAL, "solution and orbits must not be NULL");
    size_t n;
    if (rows == 0 || cols == 0 || !toggle__mul_ok(rows, cols, &n) || n != sol->n)
        return toggle__error(TOGGLE_EINVAL, "a %zu x %zu board does not match %zu unknowns",
                             rows, cols, sol->n);
    if (!toggle_symmetry_name(group) || (group & ~toggle_symmetry_of_shape(rows, cols)))
        return toggle__error(TOGGLE_EINVAL, "0x%02x is not a group of symmetries of a "
                             "%zu x %zu board", (unsigned)group, rows, cols);
    uint64_t p = sol->k;
    if (!toggle__is_prime(p))
        return toggle__error(TOGGLE_EUNSUPPORTED, "orbit counting needs a prime modulus, "
                             "got %llu", (unsigned long long)p);
    if (!sol->solvable) {
        *orbits = 0;
        return TOGGLE_OK;
    }
    size_t d = sol->nullity, kn;
    if (!toggle__mul_ok(d + 1, n, &kn) || kn > SIZE_MAX / sizeof(uint64_t))
        return toggle__error(TOGGLE_EOVERFLOW, "kernel too large");
    /* x0 and K, a row, the kernel's basis, and per symmetry two rows and a
     * second basis: (d + 1) n + n + 2 (n d + d) + 2 n words */
    unsigned __int128 words = (unsigned __int128)kn + 3 * (unsigned __int128)n +
                              2 * ((unsigned __int128)n * d + d);
    unsigned __int128 need128 = words * sizeof(uint64_t);
    int rc = toggle__budget_check_bytes(sol->budget, need128 > UINT64_MAX ? UINT64_MAX
                                                                           : (uint64_t)need128,
                                        "counting orbits");
    if (rc)
        return rc;
    uint64_t *x0, *tmp; /* x0, then K (d x n); a row */
    basis kb;
    if ((rc = work_init(&x0, kn, &tmp, n, &kb, n, d, p)))
        goto done;
    uint64_t *K = x0 + n;
    for (size_t j = 0; j < n; j++)
        x0[j] = toggle__vecs_get(&sol->x, 0, j);
    for (size_t i = 0; i < d; i++) {
        for (size_t j = 0; j < n; j++)
            K[i * n + j] = toggle__vecs_get(&sol->kernel, i, j);
        memcpy(tmp, K + i * n, n * sizeof *tmp);
        basis_insert(&kb, tmp);
    }
    if (kb.count != d) {
        rc = toggle__error(TOGGLE_EINTERNAL, "kernel vectors are not independent");
        goto done;
    }
    unsigned __int128 total = 0, f = 0;
    unsigned order = 0;
    for (int g = 0; g < 8; g++) {
        if (!(group & (1u << g)))
            continue;
        order++;
        if (g == 0) {
            if (!pow_fits(p, d, &f)) {
                rc = toggle__error(TOGGLE_EOVERFLOW, "orbit count does not fit in 64 bits");
                goto done;
            }
        } else if ((rc = fixed_count(g, x0, K, d, rows, cols, p, &kb, &f)) != TOGGLE_OK) {
            goto done;
        }
        total += f;
    }
    if (total % order)
        rc = toggle__error(TOGGLE_EINTERNAL, "Burnside sum not divisible by %u", order);
    else if (total / order > UINT64_MAX)
        rc = toggle__error(TOGGLE_EOVERFLOW, "orbit count does not fit in 64 bits");
    else
        *orbits = (uint64_t)(total / order);
done:
    work_clear(x0, tmp, &kb);
    return rc;
}
