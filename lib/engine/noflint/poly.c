/* The grid engine's polynomial services without FLINT (engine/flint/poly.h,
 * meson -Dflint=disabled): schoolbook polynomials over F_p for nullities
 * (gcd degrees), and the small system P_rows(T) w = rhs solved as a c x c
 * matrix by the dense engine's Gauss-Jordan. O(rows c + c^3): meant for the
 * boards a FLINT-free build (the browser) meets. */
#include <string.h>

#include "engine/flint/poly.h"
#include "linalg/fp/dense.h"



/* chi[0 .. c] = charpoly of the c x c tridiagonal T (1 off the diagonal, d
 * on it): Q_{j+1} = (x - d) Q_j - Q_{j-1}, Q_0 = 1. tmp: c + 1 words. */
static void charpoly(uint64_t *chi, size_t c, unsigned d, uint64_t p, uint64_t *tmp)
{
    uint64_t *prev = tmp, *cur = chi, md = (p - d % p) % p;
    memset(prev, 0, (c + 1) * sizeof *prev);
    memset(cur, 0, (c + 1) * sizeof *cur);
    cur[0] = 1 % p; /* Q_0 */
    for (size_t j = 0; j < c; j++) {
        /* prev <- (x - d) cur - prev, then swap: degree j + 1 */
        for (size_t i = j + 1; i-- > 0;) {
            uint64_t t = toggle__addmod(i ? cur[i - 1] : 0, toggle__mulmod(md, cur[i], p), p);
            prev[i] = toggle__submod(t, prev[i], p);
        }
        prev[j + 1] = cur[j];
        uint64_t *s = prev;
        prev = cur;
        cur = s;
    }
    if (cur != chi)
        memcpy(chi, cur, (c + 1) * sizeof *chi);
}

/* r[0 .. c) = P_rows mod chi (monic, degree c >= 1), with P_{j+1} = x P_j -
 * P_{j-1}, run in F_p[x] / chi. tmp: 2 c words. */
static void cheb_mod(uint64_t *r, size_t rows, const uint64_t *chi, size_t c, uint64_t p,
                     uint64_t *tmp)
{
    uint64_t *prev = tmp, *cur = tmp + c; /* P_{-1} = 0 (so that P_1 = x), P_0 = 1 */
    memset(tmp, 0, 2 * c * sizeof *tmp);
    cur[0] = 1 % p;
    for (size_t j = 0; j < rows; j++) {
        /* prev <- x cur mod chi - prev */
        uint64_t top = cur[c - 1];
        for (size_t i = c; i-- > 0;) {
            uint64_t t = i ? cur[i - 1] : 0;
            if (top)
                t = toggle__submod(t, toggle__mulmod(top, chi[i], p), p);
            prev[i] = toggle__submod(t, prev[i], p);
        }
        uint64_t *s = prev;
        prev = cur;
        cur = s;
    }
    memcpy(r, cur, c * sizeof *r);
}

static size_t degree(const uint64_t *a, size_t len) /* len if a = 0 ... as SIZE_MAX */
{
    while (len > 0 && a[len - 1] == 0)
        len--;
    return len ? len - 1 : SIZE_MAX;
}

/* deg gcd(a, b) (a: degree da, b: anything of at most da + 1 words), both
 * destroyed. */
static size_t gcd_degree(uint64_t *a, uint64_t *b, size_t len, uint64_t p)
{
    size_t da = degree(a, len), db = degree(b, len);
    while (db != SIZE_MAX) {
        /* a <- a mod b */
        uint64_t inv = toggle__invmod(b[db], p);
        while (da != SIZE_MAX && da >= db) {
            uint64_t f = toggle__mulmod(a[da], inv, p);
            for (size_t i = 0; i <= db; i++)
                a[da - db + i] = toggle__submod(a[da - db + i], toggle__mulmod(f, b[i], p), p);
            da = degree(a, da);
        }
        uint64_t *t = a;
        a = b;
        b = t;
        size_t td = da;
        da = db;
        db = td;
    }
    return da;
}

/* chi and r = P_rows mod chi into the c + 1 and c words given. */
static int polys(uint64_t p, size_t rows, size_t c, unsigned d, uint64_t *chi, uint64_t *r)
{
    uint64_t *tmp = toggle__malloc_array(2 * c + 1, sizeof *tmp);
    if (!tmp)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for grid polynomials");
    charpoly(chi, c, d, p, tmp);
    cheb_mod(r, rows, chi, c, p, tmp);
    toggle__free(tmp);
    return TOGGLE_OK;
}

int toggle__grid_poly_nullity_in(uint64_t p, size_t rows, size_t cols, unsigned d,
                                 size_t *nullity)
{
    uint64_t *chi = toggle__calloc(2 * cols + 2, sizeof *chi);
    if (!chi)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for grid polynomials");
    uint64_t *r = chi + cols + 1;
    int rc = polys(p, rows, cols, d, chi, r);
    if (!rc) {
        size_t g = gcd_degree(chi, r, cols + 1, p); /* gcd(chi, 0) = chi */
        *nullity = g == SIZE_MAX ? 0 : g;
    }
    toggle__free(chi);
    return rc;
}

size_t toggle__grid_small_bytes(size_t rows, size_t c)
{
    (void)rows;
    return (c + 1) * (c + 1) * 8 + (4 * c + 4) * 8;
}

int toggle__grid_small_solve_in(uint64_t p, size_t rows, size_t c, unsigned d,
                                const uint64_t *rhs, uint64_t *w, int *solvable,
                                size_t *nullity, uint64_t **kernel)
{
    size_t cols = c + 1, cells;
    if (!toggle__mul_ok(c, cols, &cells))
        return toggle__error(TOGGLE_EOVERFLOW, "small system of %zu columns overflows", c);
    int rc = TOGGLE_OK;
    uint64_t *M = toggle__calloc(cells, sizeof *M);
    uint64_t *chi = toggle__calloc(2 * c + 1, sizeof *chi);
    size_t *pivot = toggle__calloc(c, sizeof *pivot);
    uint64_t *k = NULL;
    if (!M || !chi || !pivot) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the small system");
        goto out;
    }
    uint64_t *r = chi + c + 1;
    if ((rc = polys(p, rows, c, d, chi, r)))
        goto out;
    /* M = r(T) by Horner: M <- T M + r_i I, column j of T M being T M e_j */
    for (size_t i = c; i-- > 0;) {
        for (size_t j = 0; j < c; j++) {
            uint64_t prev = 0;
            for (size_t t = 0; t < c; t++) {
                uint64_t cur = M[t * cols + j];
                uint64_t v = toggle__addmod(prev, t + 1 < c ? M[(t + 1) * cols + j] : 0, p);
                if (d)
                    v = toggle__addmod(v, cur, p);
                M[t * cols + j] = v;
                prev = cur;
            }
        }
        for (size_t t = 0; t < c; t++)
            M[t * cols + t] = toggle__addmod(M[t * cols + t], r[i], p);
    }
    for (size_t t = 0; t < c; t++)
        M[t * cols + c] = rhs[t];
    size_t rank = toggle__dense_rref(M, c, cols, c, cols, p, pivot);
    for (size_t i = 0; i < rank; i++)
        if (pivot[i] != i) {
            rc = toggle__error(TOGGLE_EINTERNAL, "grid small system: kernel not free on the "
                               "last coordinates");
            goto out;
        }
    size_t dn = c - rank, base = rank;
    *solvable = 1;
    for (size_t t = rank; t < c; t++)
        if (M[t * cols + c])
            *solvable = 0;
    *nullity = dn;
    if (*solvable)
        for (size_t t = 0; t < c; t++)
            w[t] = t < rank ? M[t * cols + c] : 0;
    if (dn > 0) {
        if (!(k = toggle__calloc(dn, c * sizeof *k))) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for %zu kernel vectors", dn);
            goto out;
        }
        for (size_t i = 0; i < dn; i++) {
            k[i * c + base + i] = 1;
            for (size_t t = 0; t < rank; t++) {
                uint64_t e = M[t * cols + base + i];
                k[i * c + t] = e ? p - e : 0;
            }
        }
    }
    *kernel = k;
out:
    toggle__free(M);
    toggle__free(chi);
    toggle__free(pivot);
    return rc;
}

int toggle__grid_torus_nullity(uint64_t p, size_t rows, size_t cols, unsigned d, size_t *nullity)
{
    (void)p, (void)rows, (void)cols, (void)d, (void)nullity;
    return TOGGLE_EUNSUPPORTED; /* silent: toggle_grid_nullity eliminates instead */
}

int toggle__grid_cylinder_nullity(uint64_t p, size_t rows, size_t cols, unsigned d,
                                  size_t *nullity)
{
    (void)p, (void)rows, (void)cols, (void)d, (void)nullity;
    return TOGGLE_EUNSUPPORTED; /* silent: the caller bounds it otherwise */
}
