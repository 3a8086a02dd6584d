/* The separable route of the transfer engine: Moore boards with self over a
 * prime p, every wrap. docs/transfer.md, "The separable route", has the
 * method and the proofs:
 *
 * - the 3 x 3 all-ones stencil is [1 1 1] along rows times [1 1 1] along
 *   columns, so A = T_R (x) T_C, T_n the path matrix tridiag(1, 1, 1) (or
 *   the circulant I + S + S^-1 across a wrap; on 1 and 2 cells a neighbour
 *   reached twice counts twice, as the graph does), and A x = b is
 *   T_R X T_C = B on the board matrix X;
 * - each factor's canonical answers (free indices, canonical kernel of at
 *   most 2 vectors, the solution with the free entries 0) come from a chase
 *   with h <= 2 unknowns, O(n) per right-hand side ("fac");
 * - the board's: the free cells are (r, c) with r free in T_R or c free in
 *   T_C; the canonical particular solution is T_R's canonical solve of
 *   every column, then T_C's of every row; the canonical kernel vector of a
 *   free cell is KR_r (x) e_c, e_r (x) KC_c, or e_r (x) e_c - (KR_r - e_r)
 *   (x) (KC_c - e_c) when both are free. O(R C) plus the answer's nonzeros. */
#include <string.h>

#include "engine/transfer/kron.h"
#include "engine/transfer/ring.h"

bool toggle__transfer_kron_applies(const toggle_system *s)
{
    const toggle_graph *g = s->graph;
    if (!g || g->kind != TOGGLE_KIND_GRID || !toggle__is_prime(s->k))
        return false;
    uint32_t fl = g->flags;
    return (fl & TOGGLE_GRID_MOORE) && !(fl & (TOGGLE_GRID_NO_SELF | TOGGLE_GRID_HEX |
                                              TOGGLE_GRID_TRI));
}

/* a - b - c mod p (every argument below p) */
static inline uint64_t sub3(uint64_t a, uint64_t b, uint64_t c, uint64_t p)
{
    if (p < ((uint64_t)1 << 62)) {
        uint64_t v = a + 2 * p - b - c;
        v -= v >= 2 * p ? 2 * p : 0;
        return v - (v >= p ? p : 0);
    }
    return toggle__submod(toggle__submod(a, b, p), c, p);
}

/* One factor T (n x n over F_p): path, or circulant when wrap. */
typedef struct {
    uint64_t p;
    size_t n;
    bool wrap;
    size_t h;        /* unknowns x_0 .. x_{h-1}: 1 (path), 2 (circulant), n (n <= 2 wrapped) */
    size_t le[2];    /* the h equations the chase leaves over */
    uint64_t *coef;  /* h vectors of n: the chase with unknown j = 1 and b = 0 */
    uint64_t Tm[2][2], Rf[2][2]; /* Tm M = Rf, the RREF of M (h x h) */
    size_t rank, piv[2];
    size_t d, fr[2]; /* nullity and free indices, ascending */
    uint64_t *K;     /* d vectors of n: the canonical kernel, K + i n unit at fr[i] */
} fac;

/* (T x)_e for x of n entries (blocks of one) */
static uint64_t fac_row(const fac *F, const uint64_t *x, size_t e)
{
    uint64_t v = 0, p = F->p;
    for (int o = -1; o <= 1; o++) {
        if (!F->wrap && ((o < 0 && e == 0) || (o > 0 && e + 1 == F->n)))
            continue;
        size_t j = (e + F->n + (size_t)(o + 1) - 1) % F->n;
        v = toggle__addmod(v, x[j], p);
    }
    return v;
}

static void fac_clear(fac *F)
{
    toggle__free(F->coef);
    toggle__free(F->K);
    F->coef = F->K = NULL;
}

/* The factor's shape: h unknowns and the h equations the chase leaves
 * over (a path: the last; a circulant of 3 or more: the last and the
 * first; 1 or 2 wrapped cells: every one). */
static void fac_shape(fac *F, uint64_t p, size_t n, bool wrap)
{
    memset(F, 0, sizeof *F);
    F->p = p;
    F->n = n;
    F->wrap = wrap;
    F->h = !wrap ? 1 : (n >= 3 ? 2 : n);
    if (!wrap) {
        F->le[0] = n - 1;
    } else if (n >= 3) {
        F->le[0] = n - 1;
        F->le[1] = 0;
    } else {
        F->le[0] = 0;
        F->le[1] = 1;
    }
}

/* The chase with unknown j = 1 (the others 0) and b = 0 into coef, and
 * [M | I] into A: M's column j the left-over equations on that chase. */
static void fac_chase(fac *F, uint64_t A[2][4])
{
    size_t h = F->h, n = F->n;
    uint64_t p = F->p;
    for (size_t j = 0; j < h; j++) {
        uint64_t *x = F->coef + j * n;
        x[j] = 1;
        for (size_t i = h - 1; i + 1 < n; i++)
            x[i + 1] = sub3(0, x[i], i ? x[i - 1] : 0, p);
        for (size_t e = 0; e < h; e++)
            A[e][j] = fac_row(F, x, F->le[e]);
    }
    for (size_t e = 0; e < h; e++)
        A[e][2 + e] = 1;
}

/* Gauss-Jordan on [M | I] (h rows): M's RREF into Rf, the transform into
 * Tm, the pivot columns into piv, the rank. */
static void fac_gauss_jordan(fac *F, uint64_t A[2][4])
{
    size_t h = F->h, r = 0;
    uint64_t p = F->p;
    for (size_t c = 0; c < h && r < h; c++) {
        size_t q = r;
        while (q < h && !A[q][c])
            q++;
        if (q == h)
            continue;
        for (size_t t = 0; t < 4; t++) {
            uint64_t tmp = A[r][t];
            A[r][t] = A[q][t];
            A[q][t] = tmp;
        }
        uint64_t inv = toggle__invmod(A[r][c], p);
        for (size_t t = 0; t < 4; t++)
            A[r][t] = toggle__mulmod(A[r][t], inv, p);
        for (size_t o = 0; o < h; o++) {
            uint64_t f = A[o][c];
            if (o == r || !f)
                continue;
            for (size_t t = 0; t < 4; t++)
                A[o][t] = toggle__submod(A[o][t], toggle__mulmod(f, A[r][t], p), p);
        }
        F->piv[r++] = c;
    }
    F->rank = r;
    for (size_t e = 0; e < h; e++)
        for (size_t t = 0; t < 2; t++) {
            F->Rf[e][t] = t < h ? A[e][t] : 0;
            F->Tm[e][t] = t < h ? A[e][2 + t] : 0;
        }
}

/* ker T = the chase of ker M: a vector of K per free column of M. Their
 * count. */
static size_t fac_kernel(fac *F)
{
    size_t h = F->h, n = F->n, r = F->rank, d = 0;
    uint64_t p = F->p;
    for (size_t c = 0; c < h; c++) {
        bool pivot = false;
        for (size_t i = 0; i < r; i++)
            pivot = pivot || F->piv[i] == c;
        if (pivot)
            continue;
        uint64_t w[2] = {0, 0};
        w[c] = 1;
        for (size_t i = 0; i < r; i++)
            w[F->piv[i]] = (p - F->Rf[i][c]) % p;
        uint64_t *v = F->K + d * n;
        for (size_t k = 0; k < h; k++)
            for (size_t i = 0; w[k] && i < n; i++)
                v[i] = toggle__addmod(v[i], toggle__mulmod(w[k], F->coef[k * n + i], p), p);
        d++;
    }
    return d;
}

/* The unused vector of K (d of them) with the largest last nonzero into
 * *best, that index into *bp; false when one is zero. */
static bool fac_pick_last(const fac *F, size_t d, const bool *used, size_t *best, size_t *bp)
{
    size_t n = F->n;
    *best = SIZE_MAX;
    *bp = 0;
    for (size_t i = 0; i < d; i++) {
        if (used[i])
            continue;
        size_t t = n;
        while (t > 0 && !F->K[i * n + t - 1])
            t--;
        if (t == 0)
            return false;
        if (*best == SIZE_MAX || t - 1 > *bp) {
            *best = i;
            *bp = t - 1;
        }
    }
    return true;
}

/* The reverse echelon of K's d vectors: the largest last nonzero first,
 * scaled to 1, cleared in the other vector; the vectors ordered by their
 * last nonzeros, which are the free indices fr. */
static int fac_reverse_echelon(fac *F, size_t d)
{
    size_t n = F->n, last[2], done = 0;
    uint64_t p = F->p;
    bool used[2] = {false, false};
    while (done < d) {
        size_t best, bp;
        if (!fac_pick_last(F, d, used, &best, &bp))
            return toggle__error(TOGGLE_EINTERNAL, "separable route: zero kernel vector");
        uint64_t *v = F->K + best * n, inv = toggle__invmod(v[bp], p);
        for (size_t i = 0; i < n; i++)
            v[i] = toggle__mulmod(v[i], inv, p);
        for (size_t o = 0; o < d; o++) {
            uint64_t *u = F->K + o * n, f = u[bp];
            for (size_t i = 0; o != best && f && i < n; i++)
                u[i] = toggle__submod(u[i], toggle__mulmod(f, v[i], p), p);
        }
        used[best] = true;
        last[best] = bp;
        done++;
    }
    if (d == 2 && last[0] > last[1]) {
        for (size_t i = 0; i < n; i++) {
            uint64_t t = F->K[i];
            F->K[i] = F->K[n + i];
            F->K[n + i] = t;
        }
        size_t t = last[0];
        last[0] = last[1];
        last[1] = t;
    }
    F->d = d;
    for (size_t i = 0; i < d; i++)
        F->fr[i] = last[i];
    return TOGGLE_OK;
}

/* Build the factor: the chase's coefficients, M's RREF, the canonical
 * kernel (the reverse echelon of ker T: docs/transfer.md). */
static int fac_init(fac *F, uint64_t p, size_t n, bool wrap)
{
    fac_shape(F, p, n, wrap);
    F->coef = toggle__calloc(F->h * n, sizeof *F->coef);
    F->K = toggle__calloc(2 * n, sizeof *F->K);
    if (!F->coef || !F->K) {
        fac_clear(F);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the separable route");
    }
    uint64_t A[2][4] = {{0}};
    fac_chase(F, A);
    fac_gauss_jordan(F, A);
    return fac_reverse_echelon(F, fac_kernel(F));
}

/* y += c x over W lanes */
static void blk_axpy(uint64_t *y, const uint64_t *x, uint64_t c, size_t W, uint64_t p)
{
    if (c == 1) {
        for (size_t w = 0; w < W; w++)
            y[w] = toggle__addmod(y[w], x[w], p);
    } else if (c == p - 1) {
        for (size_t w = 0; w < W; w++)
            y[w] = toggle__submod(y[w], x[w], p);
    } else {
        for (size_t w = 0; w < W; w++)
            y[w] = toggle__addmod(y[w], toggle__mulmod(c, x[w], p), p);
    }
}

/* The canonical solutions of T x = b for W right-hand sides at once: x
 * holds n blocks of W residues (block i: entry i of every lane), b in,
 * the canonical solutions out; scr 7 W words. False when some lane has no
 * solution. */
static bool fac_solve(const fac *F, uint64_t *x, size_t W, uint64_t *scr)
{
    size_t n = F->n, h = F->h;
    uint64_t p = F->p;
    uint64_t *sb[2] = {scr, scr + W}, *ra = scr + 2 * W, *rb = scr + 3 * W;
    uint64_t *rho[2] = {scr + 4 * W, scr + 5 * W}, *xf = scr + 6 * W;
    const uint64_t *bsrc[2] = {NULL, NULL};
    for (size_t j = 0; j < h; j++)
        if (F->le[j] < h) {
            memcpy(sb[j], x + F->le[j] * W, W * sizeof *x);
            bsrc[j] = sb[j];
        }
    if (h < n)
        memcpy(ra, x + (h - 1) * W, W * sizeof *x);
    memset(x, 0, h * W * sizeof *x);
    /* the chase with the unknowns 0: x_{i+1} = b_i - x_i - x_{i-1} */
    for (size_t i = h - 1; i + 1 < n; i++) {
        uint64_t *cur = x + (i + 1) * W;
        const uint64_t *xi = x + i * W, *xm = i ? x + (i - 1) * W : NULL;
        if (xm) {
            for (size_t w = 0; w < W; w++) {
                uint64_t t = cur[w];
                cur[w] = sub3(ra[w], xi[w], xm[w], p);
                rb[w] = t;
            }
        } else {
            for (size_t w = 0; w < W; w++) {
                uint64_t t = cur[w];
                cur[w] = sub3(ra[w], xi[w], 0, p);
                rb[w] = t;
            }
        }
        uint64_t *t = ra;
        ra = rb;
        rb = t;
    }
    for (size_t j = 0; j < h; j++)
        if (!bsrc[j])
            bsrc[j] = ra; /* b_{n-1}, the chase's last right-hand side */
    /* the residuals of the equations left over */
    for (size_t j = 0; j < h; j++) {
        size_t e = F->le[j];
        memcpy(rho[j], bsrc[j], W * sizeof *x);
        for (int o = -1; o <= 1; o++) {
            if (!F->wrap && ((o < 0 && e == 0) || (o > 0 && e + 1 == n)))
                continue;
            size_t q = (e + n + (size_t)(o + 1) - 1) % n;
            blk_axpy(rho[j], x + q * W, p - 1, W, p);
        }
    }
    /* M u = rho, lane by lane, through the RREF */
    for (size_t w = 0; w < W; w++) {
        uint64_t r0 = rho[0][w], r1 = h > 1 ? rho[1][w] : 0, y[2] = {0, 0}, u[2] = {0, 0};
        for (size_t e = 0; e < h; e++)
            y[e] = toggle__addmod(toggle__mulmod(F->Tm[e][0], r0, p),
                                  toggle__mulmod(F->Tm[e][1], r1, p), p);
        for (size_t e = F->rank; e < h; e++)
            if (y[e])
                return false;
        for (size_t e = 0; e < F->rank; e++)
            u[F->piv[e]] = y[e];
        rho[0][w] = u[0];
        if (h > 1)
            rho[1][w] = u[1];
    }
    for (size_t k = 0; k < h; k++)
        for (size_t i = 0; i < n; i++) {
            uint64_t c = F->coef[k * n + i];
            if (c)
                blk_axpy(x + i * W, rho[k], c, W, p);
        }
    /* the free entries to 0: x -= x_f K_f */
    for (size_t f = 0; f < F->d; f++) {
        memcpy(xf, x + F->fr[f] * W, W * sizeof *x);
        for (size_t i = 0; i < n; i++) {
            uint64_t c = F->K[f * n + i];
            if (c)
                blk_axpy(x + i * W, xf, p - c, W, p);
        }
    }
    return true;
}

static int facs_init(const toggle_system *s, fac *FR, fac *FC)
{
    const toggle_graph *g = s->graph;
    bool wr = (g->flags & TOGGLE_GRID_TORUS) != 0;
    bool wc = (g->flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER)) != 0;
    int rc = fac_init(FR, s->k, g->rows, wr);
    if (rc)
        return rc;
    if ((rc = fac_init(FC, s->k, g->cols, wc)))
        fac_clear(FR);
    return rc;
}

/* N - rank: rank A = rank T_R rank T_C */
static size_t kron_nullity(size_t R, size_t C, const fac *FR, const fac *FC)
{
    return R * C - (R - FR->d) * (C - FC->d);
}

int toggle__transfer_kron_nullity(uint64_t p, size_t rows, size_t cols, uint32_t flags,
                                  size_t *nullity)
{
    fac FR, FC;
    bool wr = (flags & TOGGLE_GRID_TORUS) != 0;
    bool wc = (flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER)) != 0;
    int rc = fac_init(&FR, p, rows, wr);
    if (rc)
        return rc;
    if (!(rc = fac_init(&FC, p, cols, wc))) {
        *nullity = kron_nullity(rows, cols, &FR, &FC);
        fac_clear(&FC);
    }
    fac_clear(&FR);
    return rc;
}

int toggle__transfer_kron_estimate(const toggle_system *s, uint64_t *bytes)
{
    const toggle_graph *g = s->graph;
    size_t R = g->rows, C = g->cols, vec, kern;
    fac FR, FC;
    int rc = facs_init(s, &FR, &FC);
    if (rc)
        return rc;
    size_t d = kron_nullity(R, C, &FR, &FC);
    unsigned __int128 f = (unsigned __int128)(FR.h + 2) * R * 8 + (unsigned __int128)(FC.h + 2) * C * 8;
    fac_clear(&FR);
    fac_clear(&FC);
    if (!toggle__vecs_bytes(s->n, 1, s->k, &vec) || !toggle__vecs_bytes(s->n, d, s->k, &kern))
        return toggle__error(TOGGLE_EOVERFLOW, "board of %zu cells overflows size_t", s->n);
    /* the board in words, the scratch blocks, the factors, the answers */
    unsigned __int128 e = (unsigned __int128)s->n * 8 + (unsigned __int128)7 * C * 8 + 2 * f
                        + vec + kern + 8192;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}

/* Is i one of F's free indices? Its position, else SIZE_MAX. */
static size_t free_at(const fac *F, size_t i)
{
    for (size_t q = 0; q < F->d; q++)
        if (F->fr[q] == i)
            return q;
    return SIZE_MAX;
}

int toggle__transfer_kron_solve(const toggle_system *s, toggle_solution *sol)
{
    const toggle_graph *g = s->graph;
    size_t R = g->rows, C = g->cols, N = s->n;
    uint64_t p = s->k;
    fac FR, FC;
    int rc = facs_init(s, &FR, &FC);
    if (rc)
        return rc;
    uint64_t *X = toggle__malloc_array(N, sizeof *X);
    uint64_t *scr = toggle__malloc_array(7 * C, sizeof *scr);
    if (!X || !scr) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the separable route");
        goto out;
    }
    for (size_t i = 0; i < N; i++)
        X[i] = toggle__rhs(s, i);
    /* T_R along the columns (blocks: board rows), then T_C along each row */
    bool solvable = fac_solve(&FR, X, C, scr);
    for (size_t r = 0; solvable && r < R; r++)
        solvable = fac_solve(&FC, X + r * C, 1, scr);
    size_t d = kron_nullity(R, C, &FR, &FC);
    if ((rc = toggle__transfer_answers_init(s, sol, solvable, d)))
        goto out;
    for (size_t i = 0; solvable && i < N; i++)
        if (X[i])
            toggle__vecs_set(&sol->x, 0, i, X[i]);
    /* the canonical kernel, by free cell in cell order */
    size_t v = 0;
    for (size_t r = 0; r < R; r++) {
        size_t qr = free_at(&FR, r);
        for (size_t c = 0; c < C; c++) {
            size_t qc = free_at(&FC, c);
            if (qr == SIZE_MAX && qc == SIZE_MAX)
                continue;
            const uint64_t *KR = FR.K + (qr == SIZE_MAX ? 0 : qr) * R;
            const uint64_t *KC = FC.K + (qc == SIZE_MAX ? 0 : qc) * C;
            if (qc == SIZE_MAX) { /* KR_r (x) e_c */
                for (size_t i = 0; i < R; i++)
                    if (KR[i])
                        toggle__vecs_set(&sol->kernel, v, i * C + c, KR[i]);
            } else if (qr == SIZE_MAX) { /* e_r (x) KC_c */
                for (size_t j = 0; j < C; j++)
                    if (KC[j])
                        toggle__vecs_set(&sol->kernel, v, r * C + j, KC[j]);
            } else { /* e_r (x) e_c - (KR_r - e_r) (x) (KC_c - e_c) */
                toggle__vecs_set(&sol->kernel, v, r * C + c, 1);
                for (size_t i = 0; i < R; i++) {
                    if (i == r || !KR[i])
                        continue;
                    for (size_t j = 0; j < C; j++)
                        if (j != c && KC[j])
                            toggle__vecs_set(&sol->kernel, v, i * C + j,
                                             p - toggle__mulmod(KR[i], KC[j], p));
                }
            }
            v++;
        }
    }
    if (v != d)
        rc = toggle__error(TOGGLE_EINTERNAL, "separable route: %zu kernel vectors for nullity %zu",
                           v, d);
out:
    toggle__free(X);
    toggle__free(scr);
    fac_clear(&FR);
    fac_clear(&FC);
    return rc;
}
