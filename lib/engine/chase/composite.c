/* The chase engine over Z/kZ for composite k (classic and no-self grids),
 * with exactly the Howell engine's answers (docs/grid.md, "Composite
 * moduli"; docs/solution-spaces.md for the Howell form).
 *
 * The first board row w is the unknown: the chase fixes every other row,
 * and the virtual row below the board is L w + z (L linear, z the chase of
 * w = 0). A kernel vector is zero iff its first row is, so its first
 * nonzero cell lies in the first row: the Howell rows of the board's
 * kernel are the chases of the Howell rows of ker L, and the Howell
 * particular solution is the chase of the small one (reduction looks only
 * at pivot columns, all in the first row). The small system L w = -z is
 * solved per prime power q = p^e of k: over F_p by the polynomials of the
 * prime chase; for e > 1 by p-adic lifting when L is invertible mod p, else
 * by a dense Howell form of the C x C system mod q. The parts are joined by
 * the CRT into a generating set mod k, and one Howell form of those C + 1
 * columns gives the canonical answers. */
#include <string.h>

#include "chase.h"
#include "engine/flint/poly.h"
#include "engine/gf2/gf2.h"
#include "engine/howell/howell.h"

#define MAX_PP 16 /* distinct primes of a k < 2^64: at most 15 */

typedef struct {
    uint64_t p, q; /* q = p^e */
    unsigned e;
} ppow;

static uint64_t isqrt(uint64_t v)
{
    uint64_t lo = 0, hi = (uint64_t)1 << 32;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (mid * mid <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* k as prime powers, by trial division below 2^16; false when the cofactor
 * left is neither a prime nor a prime's square (the probe declines). */
static bool factor(uint64_t k, ppow *f, size_t *nf)
{
    size_t n = 0;
    for (uint64_t p = 2; p < 65536 && p * p <= k; p += p == 2 ? 1 : 2) {
        if (k % p)
            continue;
        ppow t = {p, 1, 0};
        while (k % p == 0) {
            k /= p;
            t.q *= p;
            t.e++;
        }
        f[n++] = t;
    }
    if (k > 1) {
        uint64_t r = isqrt(k);
        if (toggle__is_prime(k))
            f[n++] = (ppow){k, k, 1};
        else if (r * r == k && toggle__is_prime(r))
            f[n++] = (ppow){r, k, 2};
        else
            return false;
    }
    *nf = n;
    return true;
}

bool toggle__chase_composite_probe(const toggle_system *s, char *why, size_t len)
{
    ppow f[MAX_PP];
    size_t nf;
    if (!factor(s->k, f, &nf))
        return toggle__probe_no(why, len, "the chase engine cannot factor the modulus %llu "
                                "quickly", (unsigned long long)s->k);
    return true;
}

/* ---- the chase over Z/kZ ---------------------------------------------------- */

typedef struct {
    const toggle_system *s;
    toggle__chase_frame f;
    toggle__chase_fn chase;
    void *work;
    uint64_t *v; /* the virtual row of the last chase (C values) */
    size_t R, C;
} cctx;

static int ctx_init(cctx *c, const toggle_system *s)
{
    const toggle_graph *g = s->graph;
    size_t work;
    memset(c, 0, sizeof *c);
    c->s = s;
    c->R = c->f.R = g->rows;
    c->C = c->f.C = g->cols;
    c->f.flip = true;
    c->f.d = (g->flags & TOGGLE_GRID_NO_SELF) ? 0 : 1;
    c->f.p = s->k;
    c->chase = toggle__chase_pick(s->k, c->C, &work);
    c->f.pool = toggle__pool_new(toggle__system_threads(s)); /* NULL: one thread */
    c->work = toggle__malloc(work);
    c->v = toggle__malloc_array(c->C, sizeof *c->v);
    if (!c->work || !c->v)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    return TOGGLE_OK;
}

static void ctx_free(cctx *c)
{
    toggle__pool_free(c->f.pool);
    toggle__free(c->work);
    toggle__free(c->v);
}

/* Chase from first row w (values < k) with b or 0, writing the board to
 * vector i of out (when not NULL); c->v receives the virtual row. */
static void run(cctx *c, const uint64_t *w, bool with_b, toggle__vecs *out, size_t i)
{
    c->f.b = with_b ? &c->s->b : NULL;
    c->f.out = out;
    c->f.outvec = i;
    c->chase(&c->f, w, c->v, c->work);
}

static bool virt_zero(const cctx *c)
{
    for (size_t j = 0; j < c->C; j++)
        if (c->v[j])
            return false;
    return true;
}

/* ---- one prime power ------------------------------------------------------ */

typedef struct {
    bool solvable;
    uint64_t *w;   /* C values mod q: a solution of L w = -z (when solvable) */
    size_t ngen;
    uint64_t *gen; /* ngen x C values mod q spanning ker L mod q */
} part;

/* The small system's right-hand side over F_p: P_R(T) w = -(-1)^R z. */
static void field_rhs(const cctx *c, const uint64_t *z, uint64_t div, uint64_t q, uint64_t p,
                      uint64_t *rhs)
{
    for (size_t j = 0; j < c->C; j++) {
        uint64_t t = (z[j] % q) / div % p;
        rhs[j] = (c->R & 1) ? t : toggle__submod(0, t, p);
    }
}

/* For p = 2 the lifting's F_2 solves are products with L^{-1} mod 2, made
 * once: the RREF of [L | I] (packed, the gf2 engine's elimination) is
 * [I | L^{-1}]. *inv: C rows of (C + 63) / 64 words; NULL (and OK) when
 * L is singular mod 2. */
static int f2_inverse(cctx *c, uint64_t **inv)
{
    size_t C = c->C, W = (C + 63) / 64, S = (2 * C + 63) / 64, rank = 0;
    *inv = NULL;
    uint64_t *M = toggle__calloc(C * S, sizeof *M), *cols = toggle__calloc(C ? 3 * C : 1, 8);
    size_t *piv = toggle__malloc_array(C, sizeof *piv);
    uint64_t *out = toggle__calloc(C * W, sizeof *out);
    int rc = M && cols && piv && out ? TOGGLE_OK
                                     : toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    if (!rc) {
        /* columns L e_j mod 2 by the recurrence of part_dense */
        uint64_t *e0 = cols + 2 * C, *prev = cols, *cur = cols + C;
        e0[0] = 1;
        run(c, e0, false, NULL, 0);
        for (size_t i = 0; i < C; i++)
            cur[i] = c->v[i] & 1;
        for (size_t j = 0; j < C; j++) {
            if (j) {
                for (size_t i = 0; i < C; i++)
                    e0[i] = (i ? cur[i - 1] : 0) ^ (i + 1 < C ? cur[i + 1] : 0) ^
                            (j >= 2 ? prev[i] : 0);
                memcpy(prev, cur, C * sizeof *cur);
                memcpy(cur, e0, C * sizeof *cur);
            }
            for (size_t i = 0; i < C; i++)
                M[i * S + (j >> 6)] |= cur[i] << (j & 63);
        }
        for (size_t i = 0; i < C; i++)
            M[i * S + ((C + i) >> 6)] |= (uint64_t)1 << ((C + i) & 63);
        rc = toggle__gf2_rref(M, C, 2 * C, S, piv, &rank);
    }
    bool full = !rc && rank == C && (C == 0 || piv[C - 1] == C - 1);
    for (size_t i = 0; full && i < C; i++)
        for (size_t j = 0; j < C; j++)
            if ((M[i * S + ((C + j) >> 6)] >> ((C + j) & 63)) & 1)
                out[i * W + (j >> 6)] |= (uint64_t)1 << (j & 63);
    toggle__free(M);
    toggle__free(cols);
    toggle__free(piv);
    if (full)
        *inv = out;
    else
        toggle__free(out);
    return rc;
}

/* delta = inv rhs over F_2 (rhs: C values mod 2). */
static void f2_apply(const uint64_t *inv, size_t C, const uint64_t *rhs, uint64_t *packed,
                     uint64_t *delta)
{
    size_t W = (C + 63) / 64;
    memset(packed, 0, W * sizeof *packed);
    for (size_t j = 0; j < C; j++)
        packed[j >> 6] |= (rhs[j] & 1) << (j & 63);
    for (size_t i = 0; i < C; i++) {
        uint64_t acc = 0;
        for (size_t t = 0; t < W; t++)
            acc ^= inv[i * W + t] & packed[t];
        delta[i] = (uint64_t)__builtin_parityll(acc);
    }
}

/* e = 1, or e > 1 with L invertible mod p (p-adic lifting: each step makes
 * the residual vanish mod one more power of p). *dense: L is singular mod p
 * and e > 1, nothing done. z: the virtual row of w = 0 (mod k). */
static int part_lift(cctx *c, const ppow *pp, const uint64_t *z, part *out, bool *dense)
{
    size_t C = c->C, dn = 0;
    int solvable = 0, rc = TOGGLE_OK;
    uint64_t *rhs = toggle__malloc_array(C + 1, 3 * sizeof *rhs), *kern = NULL, *inv = NULL;
    out->w = toggle__calloc(C ? C : 1, sizeof *out->w);
    *dense = false;
    if (!rhs || !out->w)
        return toggle__free(rhs), toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    uint64_t *delta = rhs + C, pe = 1;
    for (unsigned i = 0; i < pp->e; i++) {
        if (i)
            run(c, out->w, true, NULL, 0);
        field_rhs(c, i ? c->v : z, pe, pp->q, pp->p, rhs);
        if (inv) {
            f2_apply(inv, C, rhs, delta + C, delta);
        } else if ((rc = toggle__grid_small_solve(pp->p, c->R, C, c->f.d, rhs, delta, &solvable,
                                                  &dn, &kern))) {
            break;
        } else if (pp->p == 2 && pp->e > 2 && !dn && (rc = f2_inverse(c, &inv))) {
            break;
        }
        if (pp->e == 1) { /* the field: any particular solution, the kernel basis */
            out->solvable = solvable;
            memcpy(out->w, delta, C * sizeof *delta);
            out->gen = kern;
            out->ngen = dn;
            kern = NULL;
            break;
        }
        toggle__free(kern);
        kern = NULL;
        if (dn) {
            *dense = true;
            break;
        }
        if (!solvable) {
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: invertible small system unsolvable");
            break;
        }
        for (size_t j = 0; j < C; j++)
            out->w[j] = toggle__addmod(out->w[j], pe * delta[j], pp->q);
        pe *= pp->p;
        out->solvable = true;
    }
    toggle__free(rhs);
    toggle__free(inv);
    return rc;
}

/* L mod q as a dense C x C matrix solved by the Howell form: the columns
 * L e_j follow from L e_0 by the recurrence of the rows' unit vectors
 * (L is a polynomial in T, e_{j+1} = (T - d) e_j - e_{j-1}). */
static int part_dense(cctx *c, const ppow *pp, const uint64_t *z, part *out)
{
    size_t C = c->C, cols = 2 * C + 1, cap = C + 1 + cols, r = 0, words;
    uint64_t q = pp->q;
    if (!toggle__mul_ok(cap, cols, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "grid small system too large");
    uint64_t *M = toggle__calloc(words, sizeof *M);
    uint64_t *e0 = toggle__calloc(C, sizeof *e0);
    uint64_t *radix = toggle__malloc_array(C + 1, sizeof *radix);
    size_t *lead = toggle__calloc(cap, sizeof *lead);
    toggle__vecs kv, xv;
    memset(&kv, 0, sizeof kv);
    memset(&xv, 0, sizeof xv);
    int rc = M && e0 && radix && lead ? TOGGLE_OK
                                      : toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    if (!rc) {
        /* row 0: (z | 1 | 0) (the system L w = -z); row 1 + j: (L e_j | 0 | e_j) */
        for (size_t i = 0; i < C; i++)
            M[i] = z[i] % q;
        M[C] = 1;
        e0[0] = 1;
        run(c, e0, false, NULL, 0);
        for (size_t j = 0; j < C; j++) {
            uint64_t *col = M + (1 + j) * cols;
            const uint64_t *p1 = col - cols, *p2 = col - 2 * cols;
            for (size_t i = 0; i < C; i++) {
                if (j == 0) {
                    col[i] = c->v[i] % q;
                    continue;
                }
                uint64_t t = toggle__addmod(i ? p1[i - 1] : 0, i + 1 < C ? p1[i + 1] : 0, q);
                col[i] = j >= 2 ? toggle__submod(t, p2[i], q) : t;
            }
            col[C + 1 + j] = 1;
        }
        rc = toggle__howell(M, C + 1, cap, cols, q, &r, lead, NULL);
    }
    bool solvable = false;
    size_t d = 0;
    if (!rc)
        rc = toggle__howell_readout(M, r, lead, C, C, q, &solvable, &d, &kv, &xv, radix);
    if (!rc) {
        out->solvable = solvable;
        out->w = toggle__calloc(C, sizeof *out->w);
        out->gen = toggle__malloc_array(d ? d * C : 1, sizeof *out->gen);
        out->ngen = d;
        if (!out->w || !out->gen)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    }
    for (size_t i = 0; !rc && i < d; i++)
        for (size_t j = 0; j < C; j++)
            out->gen[i * C + j] = toggle__vecs_get(&kv, i, j);
    if (!rc && solvable)
        for (size_t j = 0; j < C; j++)
            out->w[j] = toggle__vecs_get(&xv, 0, j);
    toggle__vecs_clear(&kv);
    toggle__vecs_clear(&xv);
    toggle__free(M);
    toggle__free(e0);
    toggle__free(radix);
    toggle__free(lead);
    return rc;
}

/* ---- joining the prime powers --------------------------------------------- */

/* Rows (1 | w) (when every part is solvable) and (0 | g) for the parts'
 * generators, each lifted by its CRT idempotent; their Howell form read as
 * an m = 0 system (howell.h) gives the small canonical answers. */
static int join(const cctx *c, const ppow *pp, const part *pt, size_t nf, bool *solvable,
                size_t *nullity, toggle__vecs *K, toggle__vecs *x, uint64_t *radix)
{
    size_t C = c->C, cols = C + 1, nrows = 1, r = 0, words;
    uint64_t k = c->s->k, eps[MAX_PP];
    bool all = true;
    for (size_t t = 0; t < nf; t++) {
        uint64_t co = k / pp[t].q;
        eps[t] = toggle__mulmod(co, toggle__invmod(co % pp[t].q, pp[t].q), k);
        if (pp[t].q == k)
            eps[t] = 1;
        nrows += pt[t].ngen;
        all = all && pt[t].solvable;
    }
    size_t cap = nrows + cols;
    if (!toggle__mul_ok(cap, cols, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "grid small system too large");
    uint64_t *M = toggle__calloc(words, sizeof *M);
    size_t *lead = toggle__calloc(cap, sizeof *lead);
    if (!M || !lead) {
        toggle__free(M);
        toggle__free(lead);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    }
    size_t row = 0;
    if (all) {
        M[0] = 1;
        for (size_t t = 0; t < nf; t++)
            for (size_t j = 0; j < C; j++)
                M[1 + j] = toggle__addmod(M[1 + j], toggle__mulmod(eps[t], pt[t].w[j], k), k);
        row = 1;
    }
    for (size_t t = 0; t < nf; t++)
        for (size_t i = 0; i < pt[t].ngen; i++, row++)
            for (size_t j = 0; j < C; j++)
                M[row * cols + 1 + j] = toggle__mulmod(eps[t], pt[t].gen[i * C + j], k);
    int rc = toggle__howell(M, row, cap, cols, k, &r, lead, NULL);
    if (!rc)
        rc = toggle__howell_readout(M, r, lead, 0, C, k, solvable, nullity, K, x, radix);
    toggle__free(M);
    toggle__free(lead);
    return rc;
}

int toggle__chase_composite_solve(const toggle_system *s, toggle_solution *sol)
{
    ppow pp[MAX_PP];
    part pt[MAX_PP];
    size_t nf = 0, d = 0;
    memset(pt, 0, sizeof pt);
    if (!factor(s->k, pp, &nf))
        return toggle__error(TOGGLE_EINTERNAL, "grid chase: modulus not factored");
    cctx c;
    toggle__vecs K, x;
    memset(&K, 0, sizeof K);
    memset(&x, 0, sizeof x);
    uint64_t *z = NULL, *radix = NULL;
    int rc = ctx_init(&c, s);
    if (!rc && (rc = toggle__progress(&s->progress, 0, 2)) == TOGGLE_OK) {
        z = toggle__calloc(c.C, 2 * sizeof *z);
        radix = toggle__malloc_array(c.C + 1, sizeof *radix);
        if (!z || !radix)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    }
    if (!rc) {
        run(&c, z + c.C, true, NULL, 0); /* w = 0 */
        memcpy(z, c.v, c.C * sizeof *z);
    }
    for (size_t t = 0; !rc && t < nf; t++) {
        bool dense = false;
        rc = part_lift(&c, &pp[t], z, &pt[t], &dense);
        if (!rc && dense) {
            toggle__free(pt[t].w);
            pt[t].w = NULL;
            rc = part_dense(&c, &pp[t], z, &pt[t]);
        }
    }
    bool solvable = false;
    if (!rc)
        rc = join(&c, pp, pt, nf, &solvable, &d, &K, &x, radix);
    if (!rc)
        rc = toggle__progress(&s->progress, 1, 2);
    if (!rc) {
        sol->solvable = solvable;
        sol->nullity = d;
        rc = toggle__vecs_init(&sol->kernel, s->n, d, s->k);
    }
    if (!rc && solvable) {
        uint64_t *w = z + c.C;
        for (size_t j = 0; j < c.C; j++)
            w[j] = toggle__vecs_get(&x, 0, j);
        if (!(rc = toggle__vecs_init(&sol->x, s->n, 1, s->k))) {
            run(&c, w, true, &sol->x, 0);
            if (!virt_zero(&c))
                rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: particular solution leaves "
                                   "a residue");
        }
    }
    for (size_t i = 0; !rc && i < d; i++) {
        uint64_t *w = z + c.C;
        for (size_t j = 0; j < c.C; j++)
            w[j] = toggle__vecs_get(&K, i, j);
        run(&c, w, false, &sol->kernel, i);
        if (!virt_zero(&c))
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: kernel vector leaves a residue");
    }
    if (!rc) {
        sol->radix = radix;
        radix = NULL;
    }
    for (size_t t = 0; t < nf; t++) {
        toggle__free(pt[t].w);
        toggle__free(pt[t].gen);
    }
    toggle__vecs_clear(&K);
    toggle__vecs_clear(&x);
    toggle__free(z);
    toggle__free(radix);
    ctx_free(&c);
    return rc;
}

/* The Howell engine's certificate (howell.c) is the row led by the b column
 * of the Howell form of {(y.b | y) : y A = 0}; A is symmetric, so y runs
 * over the kernel, which the rows (b.K_i | first row of K_i) span in first
 * rows (the map to the board keeps leading cells and reductions). */
int toggle__chase_composite_certify(const toggle_system *s, toggle_solution *sol)
{
    size_t d = sol->kernel.count, C = s->graph->cols, cols = C + 1, cap = d + cols, r = 0;
    size_t words;
    uint64_t k = s->k;
    if (!toggle__mul_ok(cap, cols, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "grid certificate too large");
    cctx c;
    int rc = ctx_init(&c, s);
    uint64_t *M = rc ? NULL : toggle__calloc(words, sizeof *M);
    size_t *lead = rc ? NULL : toggle__calloc(cap, sizeof *lead);
    if (!rc && (!M || !lead))
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the grid certificate");
    for (size_t i = 0; !rc && i < d; i++) {
        uint64_t beta = 0;
        for (size_t t = 0; t < s->n; t++) {
            uint64_t v = toggle__vecs_get(&sol->kernel, i, t);
            if (v)
                beta = toggle__addmod(beta, toggle__mulmod(v, toggle__rhs(s, t), k), k);
            if (t < C)
                M[i * cols + 1 + t] = v;
        }
        M[i * cols] = beta;
    }
    if (!rc)
        rc = toggle__howell(M, d, cap, cols, k, &r, lead, NULL);
    if (!rc && (r == 0 || lead[0] != 0))
        rc = toggle__error(TOGGLE_EINTERNAL, "unsolvable grid without a certificate");
    if (!rc && !(rc = toggle__vecs_init(&sol->cert, s->m, 1, k))) {
        run(&c, M + 1, false, &sol->cert, 0);
        if (!virt_zero(&c))
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: certificate leaves a residue");
    }
    toggle__free(M);
    toggle__free(lead);
    ctx_free(&c);
    return rc;
}

/* ---- memory ------------------------------------------------------------------ */

int toggle__chase_composite_estimate(const toggle_system *s, uint64_t *bytes)
{
    ppow pp[MAX_PP];
    size_t nf = 0, R = s->graph->rows, C = s->graph->cols, work, vec;
    if (!factor(s->k, pp, &nf))
        return toggle__error(TOGGLE_EUNSUPPORTED, "the chase engine cannot factor %llu",
                             (unsigned long long)s->k);
    if (!toggle__vecs_bytes(s->n, 1, s->k, &vec))
        return toggle__error(TOGGLE_EOVERFLOW, "board of %zu cells overflows size_t", s->n);
    toggle__chase_pick(s->k, C, &work);
    unsigned nt = toggle__system_threads(s);
    if (nt > 1) /* the strips' rows */
        work += toggle__chase_thread_bytes(s->k, C, nt);
    /* the kernel's size: a Howell row per leading cell of the first row,
     * at most the nullity over F_p for a prime part, at most C otherwise */
    unsigned __int128 gens = 0, dense = 0, D = 0;
    for (size_t t = 0; t < nf; t++) {
        size_t dn = 0;
        int rc = toggle__grid_poly_nullity(pp[t].p, R, C, (s->graph->flags & TOGGLE_GRID_NO_SELF)
                                                              ? 0 : 1, &dn);
        if (rc)
            return rc;
        size_t g = pp[t].e == 1 ? dn : dn ? C : 0;
        D += g;
        gens += (unsigned __int128)g * C * 8;
        if (pp[t].p == 2 && pp[t].e > 2 && !dn) /* L^{-1} mod 2 and [L | I] */
            dense = (unsigned __int128)C * ((2 * (uint64_t)C + 63) / 64 + (C + 63) / 64) * 8 +
                    toggle__gf2_workspace_bytes(C, 2 * (size_t)C, NULL) + 4 * (uint64_t)C * 8;
        if (pp[t].e > 1 && dn) /* the dense Howell form of the small system */
            dense = (unsigned __int128)(3 * (uint64_t)C + 2) * (2 * (uint64_t)C + 1) * 8 +
                    (unsigned __int128)C * (C + 2) * 16;
    }
    if (D > C)
        D = C;
    unsigned __int128 rows = (unsigned __int128)C * 8 * 6 + work;
    unsigned __int128 small = toggle__grid_small_bytes(R, C) + dense;
    unsigned __int128 joined = (D + 2 + C) * (C + 1) * 8 + (D + 2 + C) * sizeof(size_t) +
                               (D + 1) * C * 8;
    unsigned __int128 answers = (unsigned __int128)vec * (D + 2) + (C + 1) * 8;
    unsigned __int128 e = rows + gens + small + joined + answers;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}
