/* Composite moduli shared by the engines that reduce a board to a small
 * square system over Z/kZ (zk.h): the chase engine's composite path
 * (lib/engine/chase/composite.c, docs/grid.md "Composite moduli") and the
 * transfer engine's (lib/engine/transfer/composite.c, docs/transfer.md).
 * The small system is solved per prime power q = p^e of k and the parts
 * joined by the CRT; one Howell form of the joined rows gives the small
 * system's Howell answers (docs/solution-spaces.md for the Howell form). */
#include <string.h>

#include "zk.h"
#include "linalg/gf2/gf2.h"
#include "linalg/howell/howell.h"

typedef toggle__zk_ppow ppow;

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

bool toggle__zk_factor(uint64_t k, ppow *f, size_t *nf)
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

/* ---- one prime power ------------------------------------------------------ */

typedef struct {
    bool solvable;
    uint64_t *w;   /* n values mod q: a solution of L w = -z (when solvable) */
    size_t ngen;
    uint64_t *gen; /* ngen x n values mod q spanning ker L mod q */
} part;

/* For p = 2 the lifting's F_2 solves are products with L^{-1} mod 2, made
 * once: the RREF of [L | I] (packed, the gf2 engine's elimination) is
 * [I | L^{-1}]. *inv: n rows of (n + 63) / 64 words; NULL (and OK) when
 * L is singular mod 2. */
static int f2_inverse(const toggle__zk_small *sm, uint64_t **inv)
{
    size_t C = sm->n, W = (C + 63) / 64, S = (2 * C + 63) / 64, rank = 0, words;
    *inv = NULL;
    if (!toggle__mul_ok(C, C, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "small system too large");
    uint64_t *M = toggle__calloc(C ? C * S : 1, sizeof *M);
    uint64_t *cols = toggle__calloc(words ? words : 1, sizeof *cols);
    size_t *piv = toggle__malloc_array(C ? C : 1, sizeof *piv);
    uint64_t *out = toggle__calloc(C ? C * W : 1, sizeof *out);
    int rc = M && cols && piv && out ? TOGGLE_OK
                                     : toggle__error(TOGGLE_ENOMEM, "out of memory for the small "
                                                     "system");
    if (!rc)
        rc = sm->columns(sm->ctx, 2, cols, C);
    if (!rc) {
        for (size_t j = 0; j < C; j++)
            for (size_t i = 0; i < C; i++)
                M[i * S + (j >> 6)] |= (cols[j * C + i] & 1) << (j & 63);
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

/* delta = inv rhs over F_2 (rhs: n values mod 2). */
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
 * and e > 1, nothing done. */
static int part_lift(const toggle__zk_small *sm, const ppow *pp, const uint64_t *z, part *out,
                     bool *dense)
{
    size_t C = sm->n, dn = 0;
    int solvable = 0, rc = TOGGLE_OK;
    uint64_t *rhs = toggle__malloc_array(C + 1, 4 * sizeof *rhs), *kern = NULL, *inv = NULL;
    out->w = toggle__calloc(C ? C : 1, sizeof *out->w);
    *dense = false;
    if (!rhs || !out->w)
        return toggle__free(rhs), toggle__error(TOGGLE_ENOMEM, "out of memory for the small "
                                                "system");
    uint64_t *delta = rhs + C, *res = delta + 2 * C + 1, pe = 1;
    for (unsigned i = 0; i < pp->e; i++) {
        if (i)
            sm->resid(sm->ctx, out->w, res);
        const uint64_t *r = i ? res : z;
        for (size_t j = 0; j < C; j++)
            rhs[j] = (r[j] % pp->q) / pe % pp->p;
        if (inv) {
            f2_apply(inv, C, rhs, delta + C, delta);
        } else if ((rc = sm->field(sm->ctx, pp->p, rhs, delta, &solvable, &dn, &kern))) {
            break;
        } else if (pp->p == 2 && pp->e > 2 && !dn && (rc = f2_inverse(sm, &inv))) {
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
            rc = toggle__error(TOGGLE_EINTERNAL, "invertible small system unsolvable");
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

/* The Howell answers of S v = -zz mod q (ne equations, nu unknowns; St:
 * nu rows of ne values, row j = column j of S): rows (zz | 1 | 0) and
 * (S e_j | 0 | e_j), one Howell form; *v (nu values, when solvable) and
 * *gens (*ngen rows of nu values) allocated here. */
static int howell_small(const uint64_t *St, const uint64_t *zz, size_t ne, size_t nu, uint64_t q,
                        bool *solvable, uint64_t **v, uint64_t **gens, size_t *ngen)
{
    size_t cols = ne + 1 + nu, cap = nu + 1 + cols, r = 0, words;
    *v = *gens = NULL;
    *ngen = 0;
    if (!toggle__mul_ok(cap, cols, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "small system too large");
    uint64_t *M = toggle__calloc(words, sizeof *M);
    uint64_t *radix = toggle__malloc_array(nu + 1, sizeof *radix);
    size_t *lead = toggle__calloc(cap, sizeof *lead), d = 0;
    toggle__vecs kv, xv;
    memset(&kv, 0, sizeof kv);
    memset(&xv, 0, sizeof xv);
    int rc = M && radix && lead ? TOGGLE_OK
                                : toggle__error(TOGGLE_ENOMEM, "out of memory for the small "
                                                "system");
    if (!rc) {
        for (size_t i = 0; i < ne; i++)
            M[i] = zz[i] % q;
        M[ne] = 1;
        for (size_t j = 0; j < nu; j++) {
            memcpy(M + (1 + j) * cols, St + j * ne, ne * sizeof *M);
            M[(1 + j) * cols + ne + 1 + j] = 1;
        }
        rc = toggle__howell(M, nu + 1, cap, cols, q, &r, lead, NULL);
    }
    if (!rc)
        rc = toggle__howell_readout(M, r, lead, ne, nu, q, solvable, &d, &kv, &xv, radix);
    if (!rc) {
        *v = toggle__calloc(nu ? nu : 1, sizeof **v);
        *gens = toggle__malloc_array(d ? d * nu : 1, sizeof **gens);
        *ngen = d;
        if (!*v || !*gens)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the small system");
    }
    for (size_t i = 0; !rc && i < d; i++)
        for (size_t j = 0; j < nu; j++)
            (*gens)[i * nu + j] = toggle__vecs_get(&kv, i, j);
    if (!rc && *solvable)
        for (size_t j = 0; j < nu; j++)
            (*v)[j] = toggle__vecs_get(&xv, 0, j);
    toggle__vecs_clear(&kv);
    toggle__vecs_clear(&xv);
    toggle__free(M);
    toggle__free(radix);
    toggle__free(lead);
    return rc;
}

/* The elimination of part_dense on words of type T (A: n rows of W words,
 * row idx[i] the i-th; every entry < q, or for q = 2^e any residue mod 2^64
 * (pow2: wrapping arithmetic, reduced by the caller)): column by column a
 * row below with a unit mod p there becomes the next pivot (normalised to
 * 1, eliminated from the rows below); pc: the pivot columns, fpos[c] the
 * free index of column c or SIZE_MAX - (its pivot); returns the rank and
 * *nf the free columns. Rows are 0 before the first free column lo and
 * before c, so each update starts at the smaller. */
#define ZK_ELIM(NAME, T)                                                                     \
    static size_t NAME(T *A, size_t n, size_t W, uint64_t q, uint64_t p, bool pow2,          \
                       size_t *idx, size_t *pc, size_t *fpos, size_t *nf_out)                \
    {                                                                                        \
        size_t rank = 0, nf = 0, lo = n;                                                     \
        for (size_t c = 0; c < n; c++) {                                                     \
            size_t rr = rank;                                                                \
            while (rr < n && !((pow2 ? (uint64_t)A[idx[rr] * W + c]                          \
                                     : (uint64_t)A[idx[rr] * W + c] % q) % p))               \
                rr++;                                                                        \
            if (rr == n) {                                                                   \
                if (lo == n)                                                                 \
                    lo = c;                                                                  \
                fpos[c] = nf++;                                                              \
                continue;                                                                    \
            }                                                                                \
            fpos[c] = SIZE_MAX - rank;                                                       \
            size_t t = idx[rank];                                                            \
            idx[rank] = idx[rr];                                                             \
            idx[rr] = t;                                                                     \
            T *P = A + idx[rank] * W;                                                        \
            T inv = (T)toggle__invmod(pow2 ? (uint64_t)P[c] & (q - 1) : (uint64_t)P[c], q);   \
            size_t j0 = lo < c ? lo : c;                                                     \
            for (size_t j = j0; j < W; j++)                                                  \
                P[j] = pow2 ? (T)(P[j] * inv) : (T)toggle__mulmod(P[j], inv, q);             \
            for (size_t i = rank + 1; i < n; i++) {                                          \
                T *Q = A + idx[i] * W, f = Q[c];                                             \
                if (!(pow2 ? (uint64_t)f & (q - 1) : (uint64_t)f))                           \
                    continue;                                                                \
                if (pow2) {                                                                  \
                    for (size_t j = j0; j < W; j++)                                          \
                        Q[j] = (T)(Q[j] - f * P[j]);                                         \
                } else {                                                                     \
                    for (size_t j = j0; j < W; j++)                                          \
                        if (P[j])                                                            \
                            Q[j] = (T)toggle__submod(Q[j], toggle__mulmod(f, P[j], q), q);   \
                }                                                                            \
            }                                                                                \
            pc[rank++] = c;                                                                  \
        }                                                                                    \
        *nf_out = nf;                                                                        \
        return rank;                                                                         \
    }                                                                                        \
    _Static_assert(sizeof(T) <= sizeof(uint64_t), #NAME ": words of at most 64 bits")
ZK_ELIM(elim64, uint64_t);
ZK_ELIM(elim32, uint32_t);

/* L mod q, singular mod p (e > 1): Gaussian elimination on [L | -z] with
 * pivots that are units mod p (so units mod q), column by column, finds
 * rho = rank(L mod p) pivots; the rows left are the equations of the Schur
 * complement S on the n - rho other unknowns, every entry 0 mod p (a
 * column without a unit pivot is 0 mod p on the rows left, and the later
 * pivot rows were among them). Back substitution writes each pivot unknown
 * as an affine function of the others, so the solutions mod q are
 * (pivots(v), v) for the solutions v of S v = r, and ker L is spanned by
 * (pivots_0(g), g) for generators g of ker S: S goes to the dense Howell
 * form, n - rho unknowns instead of n. For q a power of 2 the arithmetic
 * wraps mod 2^64 (q divides 2^64) and is reduced once at the end. */
/* [L | -z] mod q into A (n rows of W = n + 1 words, row i the i-th
 * equation) through the columns of L (T: n x n words of scratch). */
static int dense_load(const toggle__zk_small *sm, uint64_t q, const uint64_t *z, uint64_t *A,
                      uint64_t *T)
{
    size_t n = sm->n, W = n + 1;
    int rc = sm->columns(sm->ctx, q, T, n);
    for (size_t i = 0; !rc && i < n; i++) {
        for (size_t j = 0; j < n; j++)
            A[i * W + j] = T[j * n + i];
        A[i * W + n] = toggle__submod(0, z[i] % q, q);
    }
    return rc;
}

/* The elimination of A (elim64, or elim32 for q | 2^32) with its residues
 * reduced mod q after it: *rank pivots, *nf free columns. */
static int dense_eliminate(uint64_t *A, size_t n, uint64_t q, uint64_t p, size_t *idx,
                           size_t *pc, size_t *fpos, size_t *rank, size_t *nf)
{
    size_t W = n + 1, words = n * W;
    bool pow2 = p == 2;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    if (pow2 && q <= ((uint64_t)1 << 32)) {
        /* 32-bit words: twice the vector lanes (q divides 2^32) */
        uint32_t *A32 = toggle__malloc_array(words ? words : 1, sizeof *A32);
        if (!A32)
            return toggle__error(TOGGLE_ENOMEM, "out of memory for the small system");
        for (size_t i = 0; i < words; i++)
            A32[i] = (uint32_t)A[i];
        *rank = elim32(A32, n, W, q, p, true, idx, pc, fpos, nf);
        for (size_t i = 0; i < words; i++)
            A[i] = A32[i] & (q - 1);
        toggle__free(A32);
        return TOGGLE_OK;
    }
    *rank = elim64(A, n, W, q, p, pow2, idx, pc, fpos, nf);
    if (pow2)
        for (size_t i = 0; i < words; i++)
            A[i] &= q - 1;
    return TOGGLE_OK;
}

/* Back substitution: V row t (VW = nf + 1 words) := pivot t as
 * (coefficients on the nf other unknowns | constant). */
static void dense_back(const uint64_t *A, size_t n, uint64_t q, const size_t *idx,
                       const size_t *pc, const size_t *fpos, size_t rank, size_t nf, uint64_t *V)
{
    size_t W = n + 1, VW = nf + 1;
    for (size_t t = rank; t-- > 0;) {
        const uint64_t *P = A + idx[t] * W;
        uint64_t *Vt = V + t * VW;
        Vt[nf] = P[n];
        for (size_t j = pc[t] + 1; j < n; j++) {
            uint64_t a = P[j];
            if (!a)
                continue;
            if (fpos[j] < nf) {
                Vt[fpos[j]] = toggle__submod(Vt[fpos[j]], a, q);
                continue;
            }
            const uint64_t *Vs = V + (SIZE_MAX - fpos[j]) * VW; /* a later pivot */
            for (size_t f = 0; f < VW; f++)
                if (Vs[f])
                    Vt[f] = toggle__submod(Vt[f], toggle__mulmod(a, Vs[f], q), q);
        }
        for (size_t j = 0; j < pc[t]; j++) /* free columns before the pivot */
            if (P[j] && fpos[j] < nf)
                Vt[fpos[j]] = toggle__submod(Vt[fpos[j]], P[j], q);
    }
}

/* S v = r: the rows left (ne of them), S transposed into St (nf x ne); as
 * howell_small wants it, S v = -(-r). */
static void dense_schur(const uint64_t *A, size_t n, uint64_t q, const size_t *idx,
                        const size_t *fpos, size_t rank, size_t nf, uint64_t *St, uint64_t *r)
{
    size_t W = n + 1, ne = n - rank;
    for (size_t e = 0; e < ne; e++) {
        const uint64_t *P = A + idx[rank + e] * W;
        for (size_t j = 0; j < n; j++)
            if (fpos[j] < nf)
                St[fpos[j] * ne + e] = P[j];
        r[e] = toggle__submod(0, P[n], q);
    }
}

/* out's solution (pivots(v), v) when solvable and generators
 * (pivots_0(g), g), from S's answers v and g (ng rows of nf values). */
static int dense_expand(size_t n, uint64_t q, const size_t *pc, const size_t *fpos, size_t rank,
                        size_t nf, const uint64_t *V, bool solvable, const uint64_t *v,
                        const uint64_t *g, size_t ng, part *out)
{
    size_t VW = nf + 1;
    out->solvable = solvable;
    out->ngen = ng;
    out->w = toggle__calloc(n ? n : 1, sizeof *out->w);
    out->gen = toggle__calloc(ng && n ? ng * n : 1, sizeof *out->gen);
    if (!out->w || !out->gen)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the small system");
    for (size_t i = 0; i <= ng; i++) {
        const uint64_t *vv = i < ng ? g + i * nf : v;
        uint64_t *dst = i < ng ? out->gen + i * n : out->w;
        if (i == ng && !solvable)
            break;
        for (size_t c = 0; c < n; c++)
            if (fpos[c] < nf)
                dst[c] = vv[fpos[c]];
        for (size_t t = 0; t < rank; t++) {
            const uint64_t *Vt = V + t * VW;
            uint64_t acc = i < ng ? 0 : Vt[nf];
            for (size_t f = 0; f < nf; f++)
                if (Vt[f] && vv[f])
                    acc = toggle__addmod(acc, toggle__mulmod(Vt[f], vv[f], q), q);
            dst[pc[t]] = acc;
        }
    }
    return TOGGLE_OK;
}

static int part_dense(const toggle__zk_small *sm, const ppow *pp, const uint64_t *z, part *out)
{
    size_t n = sm->n, W = n + 1, words, rank = 0, nf = 0;
    uint64_t q = pp->q, p = pp->p;
    if (!toggle__mul_ok(n, W, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "small system too large");
    uint64_t *A = toggle__malloc_array(words ? words : 1, sizeof *A);
    uint64_t *T = toggle__malloc_array(n ? n * n : 1, sizeof *T);
    size_t *idx = toggle__malloc_array(n ? n : 1, sizeof *idx);
    size_t *pc = toggle__malloc_array(n ? n : 1, sizeof *pc);
    size_t *fpos = toggle__malloc_array(n ? n : 1, sizeof *fpos);
    uint64_t *V = NULL, *St = NULL, *r = NULL, *v = NULL, *g = NULL;
    int rc = A && T && idx && pc && fpos ? TOGGLE_OK
                                          : toggle__error(TOGGLE_ENOMEM, "out of memory for the "
                                                          "small system");
    if (!rc)
        rc = dense_load(sm, q, z, A, T);
    toggle__free(T);
    if (!rc)
        rc = dense_eliminate(A, n, q, p, idx, pc, fpos, &rank, &nf);
    size_t VW = nf + 1, ne = n - rank;
    if (!rc && (!(V = toggle__calloc(rank ? rank * VW : 1, sizeof *V)) ||
                !(St = toggle__calloc(nf && ne ? nf * ne : 1, sizeof *St)) ||
                !(r = toggle__calloc(ne ? ne : 1, sizeof *r))))
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the small system");
    bool solvable = false;
    size_t ng = 0;
    if (!rc) {
        dense_back(A, n, q, idx, pc, fpos, rank, nf, V);
        dense_schur(A, n, q, idx, fpos, rank, nf, St, r);
        rc = howell_small(St, r, ne, nf, q, &solvable, &v, &g, &ng);
    }
    if (!rc)
        rc = dense_expand(n, q, pc, fpos, rank, nf, V, solvable, v, g, ng, out);
    toggle__free(A);
    toggle__free(idx);
    toggle__free(pc);
    toggle__free(fpos);
    toggle__free(V);
    toggle__free(St);
    toggle__free(r);
    toggle__free(v);
    toggle__free(g);
    return rc;
}

/* ---- joining the prime powers --------------------------------------------- */

/* Rows (1 | w) (when every part is solvable) and (0 | g) for the parts'
 * generators, each lifted by its CRT idempotent; their Howell form read as
 * an m = 0 system (howell.h) gives the small canonical answers. */
static int join(size_t C, uint64_t k, const ppow *pp, const part *pt, size_t nf, bool *solvable,
                size_t *nullity, toggle__vecs *K, toggle__vecs *x, uint64_t *radix)
{
    size_t cols = C + 1, nrows = 1, r = 0, words;
    uint64_t eps[TOGGLE__ZK_MAX_PP];
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
        return toggle__error(TOGGLE_EOVERFLOW, "small system too large");
    uint64_t *M = toggle__calloc(words, sizeof *M);
    size_t *lead = toggle__calloc(cap, sizeof *lead);
    if (!M || !lead) {
        toggle__free(M);
        toggle__free(lead);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the small system");
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

int toggle__zk_small_solve(const toggle__zk_small *sm, uint64_t k, const uint64_t *z,
                           bool *solvable, size_t *nullity, toggle__vecs *K, toggle__vecs *x,
                           uint64_t *radix)
{
    ppow pp[TOGGLE__ZK_MAX_PP];
    part pt[TOGGLE__ZK_MAX_PP];
    size_t nf = 0;
    memset(pt, 0, sizeof pt);
    if (!toggle__zk_factor(k, pp, &nf))
        return toggle__error(TOGGLE_EINTERNAL, "modulus %llu not factored",
                             (unsigned long long)k);
    int rc = TOGGLE_OK;
    for (size_t t = 0; !rc && t < nf; t++) {
        bool dense = false;
        rc = part_lift(sm, &pp[t], z, &pt[t], &dense);
        if (!rc && dense) {
            toggle__free(pt[t].w);
            pt[t].w = NULL;
            rc = part_dense(sm, &pp[t], z, &pt[t]);
        }
    }
    if (!rc)
        rc = join(sm->n, k, pp, pt, nf, solvable, nullity, K, x, radix);
    for (size_t t = 0; t < nf; t++) {
        toggle__free(pt[t].w);
        toggle__free(pt[t].gen);
    }
    return rc;
}

/* ---- answers known on a prefix of the cells --------------------------------- */

size_t toggle__zk_howell_cap(uint64_t k, size_t rows, size_t cols)
{
    ppow pp[TOGGLE__ZK_MAX_PP];
    size_t nf = 0, omega = 64, cap;
    if (toggle__zk_factor(k, pp, &nf)) {
        omega = 0;
        for (size_t t = 0; t < nf; t++)
            omega += pp[t].e;
    }
    /* the final rows (at most rows * omega), each appending at most one */
    if (!toggle__mul_ok(rows, omega + 1, &cap) || !toggle__add_ok(cap, 1, &cap))
        cap = SIZE_MAX;
    size_t alt;
    if (toggle__add_ok(rows, cols, &alt) && alt < cap)
        cap = alt;
    return cap;
}

int toggle__zk_prefix_form(uint64_t *M, size_t rows, size_t cap, size_t h, size_t n, uint64_t k,
                           bool *injective, bool *solvable, size_t *nullity, toggle__vecs *K,
                           toggle__vecs *x, uint64_t *radix)
{
    size_t cols = 1 + h + n, r = 0, d = 0;
    size_t *lead = toggle__calloc(cap ? cap : 1, sizeof *lead);
    if (!lead)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the Howell form");
    int rc = toggle__howell(M, rows, cap, cols, k, &r, lead, NULL);
    long xrow = -1;
    *injective = true;
    for (size_t i = 0; !rc && i < r; i++) {
        if (lead[i] > h)
            *injective = false;
        else if (lead[i] == 0 && M[i * cols] == 1)
            xrow = (long)i;
        else if (lead[i] > 0)
            radix[d++] = k / M[i * cols + lead[i]];
    }
    if (!rc && *injective) {
        *solvable = xrow >= 0;
        *nullity = d;
        rc = toggle__vecs_init(K, n, d, k);
        for (size_t i = 0, v = 0; !rc && i < r; i++) {
            if (lead[i] == 0)
                continue;
            for (size_t j = 0; j < n; j++)
                toggle__vecs_set(K, v, j, M[i * cols + 1 + h + j]);
            v++;
        }
        if (!rc && *solvable && !(rc = toggle__vecs_init(x, n, 1, k)))
            for (size_t j = 0; j < n; j++)
                toggle__vecs_set(x, 0, j, M[(size_t)xrow * cols + 1 + h + j]);
    }
    toggle__free(lead);
    return rc;
}
