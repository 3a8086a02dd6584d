/* The polynomial half of the grid engine: Chebyshev-like P_n from their closed
 * form, nullities as gcd degrees, and the small system P_rows(T) w = r solved
 * in F_p[x] / charpoly(T) (docs/grid.md). Includes FLINT's nmod_poly. */
#include <string.h>

#include <flint/flint.h>
#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include "poly.h"
#include "flint_guard.h"

static uint64_t add_p(uint64_t a, uint64_t b, uint64_t p)
{
    uint64_t s = a + b; /* p < 2^63: no wrap */
    return s >= p ? s - p : s;
}

static uint64_t sub_p(uint64_t a, uint64_t b, uint64_t p)
{
    return a >= b ? a - b : a + (p - b);
}

/* f with every factor p removed (counted into *v with the given sign), mod p. */
static uint64_t strip_p(uint64_t f, uint64_t p, long *v, int sign)
{
    while (f % p == 0) {
        f /= p;
        *v += sign;
    }
    return f % p;
}

/* P_n(x) = sum_k (-1)^k C(n-k, k) x^(n-2k) over F_p, with P_0 = 1, P_1 = x,
 * P_{j+1} = x P_j - P_{j-1}. The binomials come from the ratio of
 * consecutive terms, (n-2k)(n-2k-1) / ((k+1)(n-k)), keeping the power of p
 * apart from the unit part: O(n) coefficient operations. */
static void cheb_closed(nmod_poly_t P, size_t n, uint64_t p)
{
    mp_limb_t pinv = n_preinvert_limb(p);
    nmod_poly_fit_length(P, (slong)n + 1);
    memset(P->coeffs, 0, (n + 1) * sizeof *P->coeffs);
    uint64_t unit = 1 % p;
    long val = 0;
    for (size_t k = 0; 2 * k <= n; k++) {
        uint64_t c = val > 0 ? 0 : unit;
        P->coeffs[n - 2 * k] = (k & 1) && c ? p - c : c;
        if (2 * (k + 1) > n)
            break;
        uint64_t num = n_mulmod2_preinv(strip_p(n - 2 * k, p, &val, 1),
                                        strip_p(n - 2 * k - 1, p, &val, 1), p, pinv);
        uint64_t den = n_mulmod2_preinv(strip_p(k + 1, p, &val, -1),
                                        strip_p(n - k, p, &val, -1), p, pinv);
        unit = n_mulmod2_preinv(n_mulmod2_preinv(unit, num, p, pinv), n_invmod(den, p), p, pinv);
    }
    _nmod_poly_set_length(P, (slong)n + 1);
    _nmod_poly_normalise(P);
}

/* f(x + a), in place. FLINT's shift is quadratic when p <= deg f (the
 * convolution method needs n! invertible), so split f = lo + x^m hi with m a
 * power of two: f(x + a) = lo(x + a) + (x + a)^m hi(x + a), the powers
 * (x + a)^(2^i) made once by squaring: O(M(n) log n) for every p. */
static void shift_rec(nmod_poly_t f, mp_limb_t a, const nmod_poly_struct *pw, int top)
{
    slong len = nmod_poly_length(f);
    if (len <= 256 || top <= 0) {
        nmod_poly_taylor_shift(f, f, a);
        return;
    }
    int i = top;
    while (i > 0 && ((slong)1 << i) >= len)
        i--;
    slong m = (slong)1 << i;
    nmod_poly_t hi;
    nmod_poly_init_mod(hi, f->mod);
    nmod_poly_shift_right(hi, f, m);
    nmod_poly_truncate(f, m);
    shift_rec(f, a, pw, i - 1);
    shift_rec(hi, a, pw, i - 1);
    nmod_poly_mul(hi, hi, pw + i);
    nmod_poly_add(f, f, hi);
    nmod_poly_clear(hi);
}

static void taylor_shift(nmod_poly_t f, mp_limb_t a)
{
    if ((mp_limb_t)nmod_poly_length(f) < f->mod.n) {
        nmod_poly_taylor_shift(f, f, a); /* convolution: fast when p > deg f */
        return;
    }
    int top = 0;
    while (((slong)1 << (top + 1)) < nmod_poly_length(f))
        top++;
    nmod_poly_struct pw[64];
    for (int i = 0; i <= top; i++) {
        nmod_poly_init_mod(pw + i, f->mod);
        if (i == 0) {
            nmod_poly_set_coeff_ui(pw, 1, 1);
            nmod_poly_set_coeff_ui(pw, 0, a);
        } else {
            nmod_poly_mul(pw + i, pw + i - 1, pw + i - 1);
        }
    }
    shift_rec(f, a, pw, top);
    for (int i = 0; i <= top; i++)
        nmod_poly_clear(pw + i);
}

/* charpoly of T: P_c(x - d). */
static void row_charpoly(nmod_poly_t chi, size_t c, unsigned d, uint64_t p)
{
    cheb_closed(chi, c, p);
    if (d % p)
        taylor_shift(chi, p - d % p);
}


typedef struct {
    uint64_t p;
    size_t rows, cols;
    unsigned d;
    size_t nullity;
} nullity_job;

/* Every FLINT object lives inside this body, run under toggle__flint_call
 * so that the opt-in FLINT guard can unwind an allocation failure. */
static int poly_nullity_body(void *arg)
{
    nullity_job *job = arg;
    nmod_poly_t a, b, g;
    nmod_poly_init(a, job->p);
    nmod_poly_init(b, job->p);
    nmod_poly_init(g, job->p);
    cheb_closed(a, job->rows, job->p);
    row_charpoly(b, job->cols, job->d, job->p);
    nmod_poly_gcd(g, a, b);
    job->nullity = (size_t)nmod_poly_degree(g);
    nmod_poly_clear(a);
    nmod_poly_clear(b);
    nmod_poly_clear(g);
    return TOGGLE_OK;
}

int toggle__grid_poly_nullity_in(uint64_t p, size_t rows, size_t cols, unsigned d,
                                 size_t *nullity)
{
    nullity_job job = {p, rows, cols, d, 0};
    int rc = toggle__flint_call(poly_nullity_body, &job, "grid polynomial nullity");
    if (!rc)
        *nullity = job.nullity;
    return rc;
}

/* ---- the square torus ------------------------------------------------------
 * Rows x_0 .. x_{R-1} of C cells are elements of S = F_p[y] / (y^C - 1)
 * (cell j = coefficient of y^j); a row's own part of A is T = d + y + y^-1.
 * Chasing x_{r+1} = b_r - T x_r - x_{r-1} from u = x_0, v = x_1 gives
 * x_r = -W_{r-2} u + W_{r-1} v with W_n = P_n(X), X = -T (P as in
 * cheb_closed, W_{-1} = 0), and the two equations left (rows R - 1 and 0)
 * are M (u, v) = rhs with
 *     M = [[1 + W_{R-2}, -W_{R-1}], [T - W_{R-3}, 1 + W_{R-2}]],
 *     det M = 2 + W_{R-2} - W_R          (Cassini: W_n^2 - W_{n+1} W_{n-1} = 1).
 * nullity A = dim ker M on S^2. With M = U diag(s1, s2) V over F_p[y] and
 * y^C - 1 = prod f^e, a factor f contributes deg f (min(k1, e) + min(k2, e)),
 * k_i = v_f(s_i); v_f(gcd(entries, h)) = min(k1, e) and v_f(gcd(det, h^2)) =
 * min(k1 + k2, 2e), from which min(k2, e) = min(v_f(G2 / G1), e). Computing
 * mod h^2 is enough for both (y^-1 = 2 y^(C-1) - y^(2C-1) mod h^2). */
typedef struct {
    nmod_poly_t H, Hinv; /* h^2 and the inverse of its reverse (mulmod_preinv) */
} tmod;

static void tmul(nmod_poly_t r, const nmod_poly_t a, const nmod_poly_t b, const tmod *m)
{
    nmod_poly_mulmod_preinv(r, a, b, m->H, m->Hinv);
}

/* r = X a = -(d a + y a + y^-1 a) mod H in O(C) (a reduced, r != a):
 * y^2C = 2 y^C - 1 and y^-1 = 2 y^(C-1) - y^(2C-1) mod H. */
static void tmulX(nmod_poly_t r, const nmod_poly_t a, size_t C, unsigned d, uint64_t p, bool sq)
{
    slong n = (slong)(sq ? C : 2 * C);
    nmod_poly_fit_length(r, n);
    mp_limb_t *rc = r->coeffs;
    memset(rc, 0, (size_t)n * sizeof *rc);
    slong la = nmod_poly_length(a);
    const mp_limb_t *ac = a->coeffs;
    for (slong i = 0; i < la; i++) {
        mp_limb_t v = ac[i];
        if (!v)
            continue;
        if (d % p)
            rc[i] = add_p(rc[i], n_mulmod2(v, d % p, p), p);
        /* y a */
        if (i + 1 < n) {
            rc[i + 1] = add_p(rc[i + 1], v, p);
        } else if (sq) { /* mod h: y^C = 1 */
            rc[0] = add_p(rc[0], v, p);
        } else { /* y^2C = 2 y^C - 1 */
            rc[C] = add_p(rc[C], n_mulmod2(v, 2 % p, p), p);
            rc[0] = sub_p(rc[0], v, p);
        }
        /* y^-1 a */
        if (i > 0) {
            rc[i - 1] = add_p(rc[i - 1], v, p);
        } else if (sq) { /* y^-1 = y^(C-1) */
            rc[C - 1] = add_p(rc[C - 1], v, p);
        } else {
            rc[C - 1] = add_p(rc[C - 1], n_mulmod2(v, 2 % p, p), p);
            rc[n - 1] = sub_p(rc[n - 1], v, p);
        }
    }
    for (slong i = 0; i < n; i++)
        rc[i] = rc[i] ? p - rc[i] : 0;
    _nmod_poly_set_length(r, n);
    _nmod_poly_normalise(r);
}

/* m->H = h or h^2 (sq: h = y^C - 1 alone) with its preinverse, and
 * X = -(d + y + y^-1) mod H (y^-1 = 2 y^(C-1) - y^(2C-1) mod h^2); t is
 * scratch. */
static void torus_ring(tmod *m, nmod_poly_t X, nmod_poly_t t, const nmod_poly_t h, size_t C,
                       unsigned d, uint64_t p, bool sq)
{
    if (sq)
        nmod_poly_set(m->H, h);
    else
        nmod_poly_mul(m->H, h, h);
    nmod_poly_reverse(m->Hinv, m->H, nmod_poly_length(m->H));
    nmod_poly_inv_series(m->Hinv, m->Hinv, nmod_poly_length(m->H));
    nmod_poly_zero(t);
    nmod_poly_zero(X);
    if (sq) {
        nmod_poly_set_coeff_ui(t, C - 1, 1);
        nmod_poly_neg(X, t);
    } else {
        nmod_poly_set_coeff_ui(X, 2 * C - 1, 1);
        nmod_poly_set_coeff_ui(t, C - 1, 2 % p);
        nmod_poly_sub(X, X, t);
    }                                              /* -y^-1 */
    nmod_poly_zero(t);
    nmod_poly_set_coeff_ui(t, 1, 1);
    nmod_poly_set_coeff_ui(t, 0, d % p);
    nmod_poly_rem(t, t, m->H);
    nmod_poly_sub(X, X, t);                        /* -y^-1 - y - d */
    nmod_poly_rem(X, X, m->H);
}

static void ring_clear(tmod *m, nmod_poly_t h, nmod_poly_struct **all, size_t n)
{
    for (size_t i = 0; i < n; i++)
        nmod_poly_clear(all[i]);
    nmod_poly_clear(h);
    nmod_poly_clear(m->H);
    nmod_poly_clear(m->Hinv);
}

/* (A, B) = (P_{N-1}, P_N) at X mod H, N >= 1, by the bits of N (doubling:
 * P_{2n} = P_n^2 - P_{n-1}^2, P_{2n-1} = P_{n-1} (2 P_n - X P_{n-1})). */
static void torus_cheb(nmod_poly_t A, nmod_poly_t B, nmod_poly_t t1, nmod_poly_t t2,
                       const nmod_poly_t X, size_t N, size_t C, unsigned d, uint64_t p, bool sq,
                       const tmod *m)
{
    nmod_poly_one(A);
    nmod_poly_set(B, X);
    int top = 0;
    while (((size_t)1 << (top + 1)) <= N)
        top++;
    for (int i = top - 1; i >= 0; i--) {
        tmulX(t1, A, C, d, p, sq);
        nmod_poly_scalar_mul_nmod(t2, B, 2 % p);
        nmod_poly_sub(t2, t2, t1);
        tmul(t2, A, t2, m);                        /* P_{2n-1} */
        nmod_poly_sub(t1, B, A);
        nmod_poly_add(B, B, A);
        tmul(B, B, t1, m);                         /* P_{2n} = (P_n + P_{n-1})(P_n - P_{n-1}) */
        nmod_poly_swap(A, t2);
        if ((N >> i) & 1) {
            /* step: (P_n, P_{n+1} = X P_n - P_{n-1}) */
            tmulX(t1, B, C, d, p, sq);
            nmod_poly_sub(t1, t1, A);
            nmod_poly_swap(A, B);
            nmod_poly_swap(B, t1);
        }
    }
}

/* job (the classic nullity's): rows = R >= cols = C */
static int torus_nullity_body(void *arg)
{
    nullity_job *job = arg;
    uint64_t p = job->p;
    size_t R = job->rows, C = job->cols, N = R - 1;
    tmod m;
    nmod_poly_t h, X, A, B, t1, t2, det, m12, m21, g1, g2;
    nmod_poly_init(m.H, p);
    nmod_poly_init(m.Hinv, p);
    nmod_poly_init(h, p);
    nmod_poly_struct *all[] = {X, A, B, t1, t2, det, m12, m21, g1, g2};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        nmod_poly_init(all[i], p);
    /* h = y^C - 1, H = h^2; when p does not divide C, h is squarefree
     * (every e = 1) and H = h is enough: a factor f then contributes 2 if
     * it divides G1 (then k2 >= k1 >= 1, so f | det), else [f | det], which
     * is v_f(G1) + v_f(gcd(det, h)) either way: nullity = deg G1 +
     * deg gcd(det, h) */
    bool sq = C % p != 0;
    nmod_poly_set_coeff_ui(h, C, 1);
    nmod_poly_set_coeff_ui(h, 0, p - 1 % p);
    torus_ring(&m, X, t1, h, C, job->d, p, sq);
    /* (A, B) = (P_{n-1}, P_n) at X, n = N */
    torus_cheb(A, B, t1, t2, X, N, C, job->d, p, sq, &m);
    /* A = W_{R-2}, B = W_{R-1}; t1 = W_{R-3} = X W_{R-2} - W_{R-1}; t2 = W_R */
    tmulX(t1, A, C, job->d, p, sq);
    nmod_poly_sub(t1, t1, B);
    tmulX(t2, B, C, job->d, p, sq);
    nmod_poly_sub(t2, t2, A);
    /* det = 2 + W_{R-2} - W_R, m11 = 1 + W_{R-2}, m12 = -W_{R-1}, m21 = -X - W_{R-3} */
    nmod_poly_sub(det, A, t2);
    nmod_poly_add_ui(det, det, 2 % p);
    nmod_poly_add_ui(A, A, 1 % p);
    nmod_poly_neg(m12, B);
    nmod_poly_add(m21, X, t1);
    nmod_poly_neg(m21, m21);
    /* G1 divides G2 (v_f(G1) = min(k1, e) <= min(k1 + k2, 2e)) and h, so
     * G1 = gcd(gcd(G2, h), entries): one gcd of full degree (with det),
     * the others start from gcd(G2, h), of degree about the nullity */
    nmod_poly_rem(det, det, m.H);
    nmod_poly_gcd(g2, m.H, det);                   /* gcd(H, 0) = H */
    if (sq)
        nmod_poly_set(g1, g2);
    else
        nmod_poly_gcd(g1, g2, h);
    nmod_poly_gcd(g1, g1, A);
    nmod_poly_gcd(g1, g1, m12);
    nmod_poly_gcd(g1, g1, m21);
    if (!sq) {
        nmod_poly_div(g2, g2, g1);
        nmod_poly_gcd(g2, g2, h);
    }
    job->nullity = (size_t)nmod_poly_degree(g1) + (size_t)nmod_poly_degree(g2);
    ring_clear(&m, h, all, sizeof all / sizeof *all);
    return TOGGLE_OK;
}

int toggle__grid_torus_nullity(uint64_t p, size_t rows, size_t cols, unsigned d, size_t *nullity)
{
    int rc = toggle__grid_poly_dims(rows, cols);
    if (rc)
        return rc;
    /* the square torus is symmetric under transposition: C the shorter side */
    nullity_job job = {p, rows >= cols ? rows : cols, rows >= cols ? cols : rows, d, 0};
    if (job.rows == 1) { /* 1 x 1: the cell and its four doubled neighbours, d + 4 */
        *nullity = (d + 4) % p == 0;
        return TOGGLE_OK;
    }
    rc = toggle__flint_call(torus_nullity_body, &job, "torus polynomial nullity");
    if (!rc)
        *nullity = job.nullity;
    return rc;
}

/* ---- the square cylinder ----------------------------------------------------
 * Rows wrap left-right only: x_0 = u, x_r = P_r(X) u in S (X = -T as for
 * the torus), and the last row's equation is P_R(X) u = 0. The kernel of
 * multiplication by g in F_p[y] / (h) is (h / gcd(g, h)) S, of dimension
 * deg gcd(g, h): nullity = deg gcd(P_R(X) mod h, h). O(M(C) log R). */
static int cylinder_nullity_body(void *arg)
{
    nullity_job *job = arg;
    uint64_t p = job->p;
    size_t R = job->rows, C = job->cols;
    tmod m;
    nmod_poly_t h, X, A, B, t1, t2;
    nmod_poly_init(m.H, p);
    nmod_poly_init(m.Hinv, p);
    nmod_poly_init(h, p);
    nmod_poly_struct *all[] = {X, A, B, t1, t2};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        nmod_poly_init(all[i], p);
    nmod_poly_set_coeff_ui(h, C, 1);
    nmod_poly_set_coeff_ui(h, 0, p - 1 % p);
    torus_ring(&m, X, t1, h, C, job->d, p, true);
    torus_cheb(A, B, t1, t2, X, R, C, job->d, p, true, &m);
    nmod_poly_gcd(t1, h, B);                       /* gcd(h, 0) = h */
    job->nullity = (size_t)nmod_poly_degree(t1);
    ring_clear(&m, h, all, sizeof all / sizeof *all);
    return TOGGLE_OK;
}

int toggle__grid_cylinder_nullity(uint64_t p, size_t rows, size_t cols, unsigned d,
                                  size_t *nullity)
{
    int rc = toggle__grid_poly_dims(rows, cols);
    if (rc)
        return rc;
    nullity_job job = {p, rows, cols, d, 0};
    rc = toggle__flint_call(cylinder_nullity_body, &job, "cylinder polynomial nullity");
    if (!rc)
        *nullity = job.nullity;
    return rc;
}

/* v = q(T) e_0 (c entries) by Horner; the support grows by one per step. */
static void poly_apply_e0(const nmod_poly_t q, size_t c, unsigned d, uint64_t p, uint64_t *v)
{
    memset(v, 0, c * sizeof *v);
    size_t supp = 0;
    for (slong i = nmod_poly_degree(q); i >= 0; i--) {
        /* v = T v, in place: (Tv)_j = v_{j-1} + d v_j + v_{j+1}. */
        size_t end = supp < c ? supp + 1 : c;
        uint64_t prev = 0;
        for (size_t j = 0; j < end; j++) {
            uint64_t cur = v[j];
            uint64_t t = add_p(prev, j + 1 < c ? v[j + 1] : 0, p);
            if (d)
                t = add_p(t, cur, p);
            v[j] = t;
            prev = cur;
        }
        supp = end;
        v[0] = add_p(v[0], q->coeffs[i], p);
        if (supp == 0)
            supp = 1;
    }
}

/* q = sum_j w_j S_j(x) with S_j(x) = P_j(x - d), by Clenshaw:
 * beta_j = w_j + (x - d) beta_{j+1} - beta_{j+2}, q = beta_0.
 * tmp holds 3 c words. */
static void sbasis_to_poly(nmod_poly_t q, const uint64_t *w, size_t c, unsigned d, uint64_t p,
                           uint64_t *tmp)
{
    uint64_t *b1 = tmp, *b2 = tmp + c, *nb = tmp + 2 * c;
    memset(tmp, 0, 3 * c * sizeof *tmp);
    for (size_t jj = c; jj-- > 0;) {
        size_t len = c - jj; /* beta_jj has degree <= c - 1 - jj */
        for (size_t i = 0; i < len; i++) {
            uint64_t t = i ? b1[i - 1] : w[jj];
            if (d)
                t = sub_p(t, b1[i], p);
            nb[i] = sub_p(t, b2[i], p);
        }
        uint64_t *old = b2;
        b2 = b1;
        b1 = nb;
        nb = old;
    }
    nmod_poly_fit_length(q, (slong)(c ? c : 1));
    memcpy(q->coeffs, b1, c * sizeof *b1);
    _nmod_poly_set_length(q, (slong)c);
    _nmod_poly_normalise(q);
}

typedef struct {
    uint64_t p;
    size_t rows, c;
    unsigned d;
    const uint64_t *rhs;
    uint64_t *w, *tmp;
    int solvable;
    size_t nullity;
    uint64_t *kernel; /* owned by the caller, also when the body unwinds */
} small_job;

static int small_solve_body(void *arg)
{
    small_job *job = arg;
    uint64_t p = job->p, *tmp = job->tmp, *w = job->w;
    size_t rows = job->rows, c = job->c;
    unsigned d = job->d;
    const uint64_t *rhs = job->rhs;
    int *solvable = &job->solvable;
    size_t *nullity = &job->nullity;
    uint64_t **kernel = &job->kernel;
    int rc = TOGGLE_OK;
    nmod_poly_t chi, pr, g, qr, quo, rem, chi2, inv;
    nmod_poly_init(chi, p);
    nmod_poly_init(pr, p);
    nmod_poly_init(g, p);
    nmod_poly_init(qr, p);
    nmod_poly_init(quo, p);
    nmod_poly_init(rem, p);
    nmod_poly_init(chi2, p);
    nmod_poly_init(inv, p);

    row_charpoly(chi, c, d, p);
    cheb_closed(pr, rows, p);
    nmod_poly_rem(pr, pr, chi);
    nmod_poly_gcd(g, pr, chi); /* gcd(0, chi) = chi */
    size_t dn = (size_t)nmod_poly_degree(g);
    *nullity = dn;

    sbasis_to_poly(qr, rhs, c, d, p, tmp);
    nmod_poly_divrem(quo, rem, qr, g);
    *solvable = nmod_poly_is_zero(rem);
    nmod_poly_div(chi2, chi, g); /* chi' = chi / g, monic, degree c - dn */
    if (*solvable) {
        /* P_rows q_w = q_r (mod chi)  <=>  (P/g) q_w = q_r/g (mod chi'),
         * and P/g is invertible modulo chi'. The answer of degree < c - dn
         * is the one whose last dn S-coordinates vanish. */
        if (nmod_poly_degree(chi2) >= 1) {
            nmod_poly_div(pr, pr, g);
            nmod_poly_rem(pr, pr, chi2);
            if (nmod_poly_is_zero(pr) || !nmod_poly_invmod(inv, pr, chi2)) {
                rc = toggle__error(TOGGLE_EINTERNAL, "grid small system: cofactor not invertible");
                goto out;
            }
            nmod_poly_mulmod(quo, quo, inv, chi2);
        } else {
            nmod_poly_zero(quo);
        }
        poly_apply_e0(quo, c, d, p, w);
    }
    if (dn > 0) {
        uint64_t *k = toggle__malloc_array(dn, c * sizeof *k);
        if (!k) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for %zu kernel vectors", dn);
            goto out;
        }
        /* The kernel is {h chi' : deg h < dn}; v_i = T^i chi'(T) e_0 has its
         * last nonzero S-coordinate, 1, at c - dn + i. Reduce to unit vectors
         * on the last dn coordinates. */
        size_t base = c - dn;
        poly_apply_e0(chi2, c, d, p, k);
        for (size_t i = 1; i < dn; i++) {
            const uint64_t *src = k + (i - 1) * c;
            uint64_t *dst = k + i * c;
            for (size_t j = 0; j < c; j++) {
                uint64_t t = add_p(j ? src[j - 1] : 0, j + 1 < c ? src[j + 1] : 0, p);
                dst[j] = d ? add_p(t, src[j], p) : t;
            }
        }
        mp_limb_t pinv = n_preinvert_limb(p);
        for (size_t i = 1; i < dn; i++) {
            uint64_t *vi = k + i * c;
            for (size_t j = 0; j < i; j++) {
                uint64_t f = vi[base + j];
                if (!f)
                    continue;
                const uint64_t *vj = k + j * c;
                for (size_t t = 0; t < c; t++)
                    if (vj[t])
                        vi[t] = sub_p(vi[t], n_mulmod2_preinv(f, vj[t], p, pinv), p);
            }
        }
        *kernel = k;
    }
out:
    nmod_poly_clear(chi);
    nmod_poly_clear(pr);
    nmod_poly_clear(g);
    nmod_poly_clear(qr);
    nmod_poly_clear(quo);
    nmod_poly_clear(rem);
    nmod_poly_clear(chi2);
    nmod_poly_clear(inv);
    return rc;
}

size_t toggle__grid_small_bytes(size_t rows, size_t c)
{
    /* a few polynomials of degree max(rows, c) and FLINT's gcd scratch (as
     * counted for toggle_grid_nullity: up to 124 bytes per degree), and 3 c
     * words of scratch. The gcd's scratch follows the smaller degree once
     * the larger polynomial is reduced, so a thin board needs about 24
     * bytes per degree of its long side (tests/reliability/test_peak.c
     * measures both shapes); the smaller of the two bounds is kept. */
    size_t lo = rows < c ? rows : c, hi = rows < c ? c : rows;
    size_t square = (rows + c + 2) * 160, thin = (2 * lo + 2) * 160 + hi * 40;
    return (square < thin ? square : thin) + 3 * c * 8;
}

int toggle__grid_small_solve_in(uint64_t p, size_t rows, size_t c, unsigned d,
                                const uint64_t *rhs, uint64_t *w, int *solvable,
                                size_t *nullity, uint64_t **kernel)
{
    small_job job = {p, rows, c, d, rhs, w, NULL, 0, 0, NULL};
    job.tmp = toggle__malloc_array(c, 3 * sizeof *job.tmp);
    if (!job.tmp)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the small system");
    int rc = toggle__flint_call(small_solve_body, &job, "grid small system");
    toggle__free(job.tmp);
    if (rc) {
        toggle__free(job.kernel);
        return rc;
    }
    *solvable = job.solvable;
    *nullity = job.nullity;
    *kernel = job.kernel;
    return TOGGLE_OK;
}
