/* The transfer engine over Z/kZ for composite k, with exactly the Howell
 * engine's answers (docs/transfer.md, "Composite moduli"; the Howell form:
 * docs/solution-spaces.md).
 *
 * The frame is the board rows (the Howell form orders cells by their first
 * nonzero, row-major). The chase runs over Z/kZ where every peeling weight
 * is a unit mod k (the probe declines otherwise) and yields the small
 * system E u = rhs (m x m over Z/kZ) exactly as over a prime; it is solved
 * by the composite small-system solver the chase engine uses
 * (lib/linalg/zk/zk.c: per prime power, lifting, dense Howell, CRT join),
 * which gives a particular solution and generators of ker E. Their chases
 * restricted to the first H = Hf + Hb frame rows (a prefix of the cell
 * order) decide the canonical form when that restriction is injective on
 * the kernel (zk.h, toggle__zk_prefix_form: the Howell form on the prefix
 * lifts to the Howell form of the vectors); otherwise the whole board is
 * the prefix. One more chase maps the canonical unknowns to the board.
 * A is symmetric (the probe asks it), so the certificate is the policy's
 * kernel route, whose composite case is the Howell one (certificate.c). */
#include <string.h>

#include "engine/flint/poly.h"
#include "linalg/zk/zk.h"
#include "transfer.h"

bool toggle__transfer_composite_applies(const toggle_system *s, char *why, size_t len)
{
    toggle__zk_ppow pp[TOGGLE__ZK_MAX_PP];
    size_t nf;
    if (!toggle__zk_factor(s->k, pp, &nf))
        return toggle__probe_no(why, len, "the transfer engine cannot factor the modulus %llu "
                                "quickly", (unsigned long long)s->k);
    /* the Howell certificate comes from the kernel only for symmetric A */
    if (!toggle__system_is_symmetric(s))
        return toggle__probe_no(why, len, "the transfer engine's composite path needs a "
                                "symmetric board (A = A^T) for its certificate");
    return true;
}

/* ---- the small system, as zk.h sees it -------------------------------------- */

/* Two routes to E. Explicit: one chase of m + 1 lanes over Z/kZ gives E mod
 * k. Lazy, when every entry of A is a unit mod k (then A mod p has the same
 * pattern and the same peeling, so E mod p is E mod k reduced): E mod p
 * from the prime path (packed F_2, narrow lanes), and the residual of w by
 * one chase of one lane over Z/kZ; E mod k only if a prime power needs its
 * dense form (L singular mod p). */
typedef struct {
    const toggle_system *s;
    toggle__tframe *f;
    size_t m;
    uint64_t k;
    bool lazy;
    uint64_t *Ek;  /* E mod k, row-major (explicit, or lazily) */
    uint64_t *zk;  /* -rhs mod k, with Ek */
    size_t np;
    uint64_t pr[TOGGLE__ZK_MAX_PP];
    uint64_t *Ep[TOGGLE__ZK_MAX_PP]; /* E mod pr[i] (lazy) */
} small_ctx;

static void ctx_free(small_ctx *c)
{
    toggle__free(c->Ek);
    toggle__free(c->zk);
    for (size_t i = 0; i < c->np; i++)
        toggle__free(c->Ep[i]);
}

/* E and -rhs of the small system (m x m words) of s on frame f. */
static int small_matrix(const toggle_system *s, toggle__tframe *f, size_t m, uint64_t **E,
                        uint64_t **z)
{
    toggle_system *ss = NULL;
    size_t words;
    *E = NULL;
    if (z)
        *z = NULL;
    if (!toggle__mul_ok(m, m, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "transfer small system too large");
    int rc = toggle__transfer_small_system(s, f, &ss);
    if (!rc) {
        *E = toggle__calloc(words ? words : 1, sizeof **E);
        if (!*E || (z && !(*z = toggle__malloc_array(m ? m : 1, sizeof **z))))
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
    }
    if (!rc)
        rc = toggle__system_put_words(ss, *E, m, 0, 0, false);
    for (size_t i = 0; !rc && z && i < m; i++)
        (*z)[i] = toggle__submod(0, toggle__rhs(ss, i), s->k);
    toggle_system_free(ss);
    if (rc) {
        toggle__free(*E);
        *E = NULL;
        if (z) {
            toggle__free(*z);
            *z = NULL;
        }
    }
    return rc;
}

/* E mod k (explicit route, or the lazy route's dense prime power). */
static int need_Ek(small_ctx *c)
{
    return c->Ek ? TOGGLE_OK : small_matrix(c->s, c->f, c->m, &c->Ek, &c->zk);
}

/* E mod p for a prime p of k: the lazy route's own small system over F_p
 * (the same frame on the same board, modulo p), else E mod k reduced. */
static int need_Ep(small_ctx *c, uint64_t p, const uint64_t **out)
{
    for (size_t i = 0; i < c->np; i++)
        if (c->pr[i] == p) {
            *out = c->Ep[i];
            return TOGGLE_OK;
        }
    if (c->np == TOGGLE__ZK_MAX_PP)
        return toggle__error(TOGGLE_EINTERNAL, "transfer: too many primes");
    uint64_t *E = NULL;
    int rc;
    if (c->lazy) {
        toggle_system *sp = NULL;
        toggle__tframe *fp = NULL;
        bool oom = false;
        rc = toggle_system_new(&sp, c->s->graph, p, NULL, NULL);
        if (!rc && !(fp = toggle__transfer_frame(sp, false, &oom)))
            rc = oom ? toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer frame")
                     : toggle__error(TOGGLE_EINTERNAL, "transfer: no frame modulo %llu",
                                     (unsigned long long)p);
        if (!rc) {
            toggle__tframe_info fi;
            toggle__transfer_frame_info(fp, &fi);
            rc = fi.m == c->m ? small_matrix(sp, fp, c->m, &E, NULL)
                              : toggle__error(TOGGLE_EINTERNAL, "transfer: the frame modulo %llu "
                                              "differs", (unsigned long long)p);
        }
        toggle__transfer_frame_free(fp);
        toggle_system_free(sp);
    } else if (!(rc = need_Ek(c))) {
        E = toggle__malloc_array(c->m ? c->m * c->m : 1, sizeof *E);
        if (!E)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        for (size_t i = 0; !rc && i < c->m * c->m; i++)
            E[i] = c->Ek[i] % p;
    }
    if (rc)
        return rc;
    c->pr[c->np] = p;
    c->Ep[c->np++] = E;
    *out = E;
    return TOGGLE_OK;
}

static void cb_resid(void *ctx, const uint64_t *w, uint64_t *r)
{
    small_ctx *c = ctx;
    if (c->lazy) {
        /* (zk.h's resid cannot fail; an error here shows as a residual the
         * lifting rejects, and the message stays recorded) */
        if (toggle__transfer_chase(c->s, c->f, w, 1, true, NULL, 0, NULL, r))
            memset(r, 0xff, c->m * sizeof *r);
        return;
    }
    for (size_t i = 0; i < c->m; i++) {
        uint64_t acc = c->zk[i];
        const uint64_t *row = c->Ek + i * c->m;
        for (size_t j = 0; j < c->m; j++)
            if (row[j] && w[j])
                acc = toggle__addmod(acc, toggle__mulmod(row[j], w[j], c->k), c->k);
        r[i] = acc;
    }
}

/* E delta = -r over F_p by the engine AUTO picks for the dense system. */
static int cb_field(void *ctx, uint64_t p, const uint64_t *r, uint64_t *delta, int *solvable,
                    size_t *dn, uint64_t **kern)
{
    small_ctx *c = ctx;
    size_t m = c->m;
    const uint64_t *Ep = NULL;
    uint64_t *rhs = toggle__malloc_array(m ? m : 1, sizeof *rhs);
    toggle_system *ss = NULL;
    toggle_solution *sol = NULL;
    int rc = rhs ? need_Ep(c, p, &Ep) : toggle__error(TOGGLE_ENOMEM, "out of memory for the "
                                                      "transfer small system");
    *kern = NULL;
    *dn = 0;
    for (size_t i = 0; !rc && i < m; i++)
        rhs[i] = toggle__submod(0, r[i] % p, p);
    if (!rc)
        rc = toggle_system_new_matrix(&ss, m, m, Ep, rhs, p);
    toggle__free(rhs);
    if (!rc)
        rc = toggle__transfer_solve_small(ss, &sol);
    if (!rc) {
        *solvable = toggle_solution_is_solvable(sol) == 1;
        *dn = toggle_solution_nullity(sol);
        memset(delta, 0, m * sizeof *delta);
        if (*solvable)
            rc = toggle_solution_particular(sol, delta, m);
        if (!rc && *dn && !(*kern = toggle__malloc_array(*dn * m, sizeof **kern)))
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        for (size_t i = 0; !rc && i < *dn; i++)
            rc = toggle_solution_kernel_vector(sol, i, *kern + i * m, m);
        if (rc) {
            toggle__free(*kern);
            *kern = NULL;
        }
    }
    toggle_solution_free(sol);
    toggle_system_free(ss);
    return rc;
}

static int cb_columns(void *ctx, uint64_t q, uint64_t *M, size_t stride)
{
    small_ctx *c = ctx;
    const uint64_t *E = NULL;
    int rc = toggle__is_prime(q) ? need_Ep(c, q, &E) : need_Ek(c);
    if (rc)
        return rc;
    if (!E)
        E = c->Ek;
    for (size_t j = 0; j < c->m; j++)
        for (size_t i = 0; i < c->m; i++)
            M[j * stride + i] = E[i * c->m + j] % q;
    return TOGGLE_OK;
}

/* Every entry of A a unit mod k (the lazy route's condition). */
typedef struct {
    uint64_t k;
    bool units;
} units_ctx;

static void units_entry(void *ctx, size_t i, size_t j, uint64_t v)
{
    units_ctx *u = ctx;
    (void)i;
    (void)j;
    uint64_t w = v % u->k;
    if (w > 1 && toggle__gcd(w, u->k) != 1) /* (most entries are 1) */
        u->units = false;
}

/* ---- the canonical form on a prefix ------------------------------------------ */

/* The Howell answers of the board in unknowns: the L = solvable + d0
 * vectors U (particular first) chased onto frame rows 0 .. H - 1, then
 * toggle__zk_prefix_form on (c | those rows | U). */
static int prefix_canonical(const toggle_system *s, toggle__tframe *f, const uint64_t *U,
                            size_t L, bool solvable, size_t H, size_t C, size_t m, bool *injective,
                            bool *solv, size_t *d, toggle__vecs *K, toggle__vecs *x,
                            uint64_t *radix)
{
    size_t hc = H * C, cols = 1 + hc + m, cap = toggle__zk_howell_cap(s->k, L, cols), words, tw;
    if (!toggle__mul_ok(cap, cols, &words) || !toggle__mul_ok(L, hc, &tw))
        return toggle__error(TOGGLE_EOVERFLOW, "transfer canonical form too large");
    unsigned __int128 bytes = ((unsigned __int128)words + tw + cap) * 8;
    int rc = toggle__budget_check(s, bytes > UINT64_MAX ? UINT64_MAX : (uint64_t)bytes,
                                  "the canonical form");
    if (rc)
        return rc;
    uint64_t *T = toggle__calloc(tw ? tw : 1, sizeof *T);
    uint64_t *M = toggle__calloc(words ? words : 1, sizeof *M);
    if (!T || !M)
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer canonical form");
    if (!rc && L)
        rc = toggle__transfer_chase(s, f, U, L, solvable, NULL, H, T, NULL);
    for (size_t l = 0; !rc && l < L; l++) {
        uint64_t *row = M + l * cols;
        row[0] = solvable && l == 0;
        memcpy(row + 1, T + l * hc, hc * sizeof *row);
        memcpy(row + 1 + hc, U + l * m, m * sizeof *row);
    }
    toggle__free(T);
    if (!rc)
        rc = toggle__zk_prefix_form(M, L, cap, hc, m, s->k, injective, solv, d, K, x, radix);
    toggle__free(M);
    return rc;
}

/* U[l * m ..] := the l-th answer in unknowns: x first (when solvable),
 * then the kernel rows. */
static void to_lanes(uint64_t *U, size_t m, bool solvable, const toggle__vecs *x,
                     const toggle__vecs *K, size_t L)
{
    for (size_t l = 0; l < L; l++)
        for (size_t j = 0; j < m; j++)
            U[l * m + j] = solvable && l == 0 ? toggle__vecs_get(x, 0, j)
                                              : toggle__vecs_get(K, l - solvable, j);
}

/* The frame on the board rows (the probe took it) and what it tells. */
static int open_frame(const toggle_system *s, toggle__tframe **f, toggle__tframe_info *fi)
{
    bool oom = false;
    *f = toggle__transfer_frame(s, false, &oom);
    if (!*f)
        return oom ? toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer engine's frame")
                   : toggle__error(TOGGLE_EUNSUPPORTED, "the transfer engine cannot chase this "
                                   "board over Z/%lluZ", (unsigned long long)s->k);
    toggle__transfer_frame_info(*f, fi);
    return TOGGLE_OK;
}

/* The small system's answers over Z/kZ: solvability, the d0 Howell rows
 * K0 of its kernel, x0 and the radices (*radix allocated here). E is made
 * only when some entry of A is not a unit mod k (else each prime power's
 * field system is chased lazily: the small context's callbacks). */
static int composite_small(const toggle_system *s, toggle__tframe *f, size_t m, bool *solvable,
                           size_t *d0, toggle__vecs *K0, toggle__vecs *x0, uint64_t **radix)
{
    uint64_t *z = NULL;
    units_ctx uc = {s->k, true};
    small_ctx c = {s, f, m, s->k, false, NULL, NULL, 0, {0}, {NULL}};
    int rc = toggle__system_each_entry(s, units_entry, &uc);
    c.lazy = uc.units;
    if (!rc && !c.lazy && !(rc = need_Ek(&c))) {
        if ((z = toggle__malloc_array(m ? m : 1, sizeof *z)))
            memcpy(z, c.zk, m * sizeof *z);
        else
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
    }
    if (!rc && c.lazy) {
        uint64_t *w0 = toggle__calloc(m ? m : 1, sizeof *w0);
        z = toggle__malloc_array(m ? m : 1, sizeof *z);
        rc = w0 && z ? toggle__transfer_chase(s, f, w0, 1, true, NULL, 0, NULL, z)
                     : toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        toggle__free(w0);
    }
    if (!rc && !(*radix = toggle__malloc_array(s->n + 1, sizeof **radix)))
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    if (!rc) {
        toggle__zk_small sm = {&c, m, cb_resid, cb_field, cb_columns};
        rc = toggle__zk_small_solve(&sm, s->k, z, solvable, d0, K0, x0, *radix);
    }
    ctx_free(&c);
    toggle__free(z);
    return rc;
}

/* The canonical answers in unknowns (K, x, *d) from the small ones (K0,
 * x0): the prefix form on the frame's first H rows, the whole board when
 * those do not decide (always injective). */
static int composite_canonical(const toggle_system *s, toggle__tframe *f,
                               const toggle__tframe_info *fi, bool solvable, size_t d0,
                               const toggle__vecs *K0, const toggle__vecs *x0, size_t *d,
                               toggle__vecs *K, toggle__vecs *x, uint64_t *radix)
{
    size_t m = fi->m, L = d0 + solvable;
    bool injective = false, solv = false;
    uint64_t *U = toggle__malloc_array(L ? L * (m ? m : 1) : 1, sizeof *U);
    if (!U)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    to_lanes(U, m, solvable, x0, K0, L);
    int rc = prefix_canonical(s, f, U, L, solvable, fi->H, fi->C, m, &injective, &solv, d, K, x,
                              radix);
    if (!rc && !injective)
        rc = prefix_canonical(s, f, U, L, solvable, fi->R, fi->C, m, &injective, &solv, d, K, x,
                              radix);
    if (!rc && (!injective || solv != solvable))
        rc = toggle__error(TOGGLE_EINTERNAL, "transfer: composite canonical form inconsistent");
    toggle__free(U);
    return rc;
}

/* sol's answers (d kernel vectors, x when solvable) chased from the
 * canonical ones in unknowns, after the budget check of the kernel basis. */
static int composite_answers(const toggle_system *s, toggle__tframe *f, size_t m, bool solvable,
                             size_t d, const toggle__vecs *K, const toggle__vecs *x,
                             toggle_solution *sol)
{
    size_t kb, L = d + solvable;
    if (!toggle__vecs_bytes(s->n, d, s->k, &kb))
        return toggle__error(TOGGLE_EOVERFLOW, "kernel basis overflows size_t");
    int rc = toggle__budget_check(s, kb, "the kernel basis");
    if (rc)
        return rc;
    sol->solvable = solvable;
    sol->nullity = d;
    if ((rc = toggle__vecs_init(&sol->kernel, s->n, d, s->k)))
        return rc;
    if (solvable && (rc = toggle__vecs_init(&sol->x, s->n, 1, s->k)))
        return rc;
    uint64_t *U = toggle__malloc_array(L ? L * (m ? m : 1) : 1, sizeof *U);
    if (!U)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    to_lanes(U, m, solvable, x, K, L);
    if (L)
        rc = toggle__transfer_chase(s, f, U, L, solvable, sol, 0, NULL, NULL);
    toggle__free(U);
    return rc;
}

/* The phases, each freeing what it allocates; the answers' vectors and
 * the radices pass between them and are freed here once. */
int toggle__transfer_composite_solve(const toggle_system *s, toggle_solution *sol)
{
    toggle__tframe *f;
    toggle__tframe_info fi;
    int rc = open_frame(s, &f, &fi);
    if (rc)
        return rc;
    size_t d0 = 0, d = 0;
    uint64_t *radix = NULL;
    toggle__vecs K0, x0, K, x;
    memset(&K0, 0, sizeof K0);
    memset(&x0, 0, sizeof x0);
    memset(&K, 0, sizeof K);
    memset(&x, 0, sizeof x);
    bool solvable = false;
    rc = toggle__progress(&s->progress, 0, 3);
    if (!rc)
        rc = composite_small(s, f, fi.m, &solvable, &d0, &K0, &x0, &radix);
    if (!rc)
        rc = toggle__progress(&s->progress, 1, 3);
    if (!rc)
        rc = composite_canonical(s, f, &fi, solvable, d0, &K0, &x0, &d, &K, &x, radix);
    toggle__vecs_clear(&K0);
    toggle__vecs_clear(&x0);
    if (!rc)
        rc = toggle__progress(&s->progress, 2, 3);
    if (!rc)
        rc = composite_answers(s, f, fi.m, solvable, d, &K, &x, sol);
    if (!rc) {
        sol->radix = radix;
        radix = NULL;
    }
    toggle__vecs_clear(&K);
    toggle__vecs_clear(&x);
    toggle__free(radix);
    toggle__transfer_frame_free(f);
    return rc;
}

/* ---- memory ------------------------------------------------------------------ */

/* The kernel's Howell rows: at most the module's length, sum_p e_p times
 * the nullity over F_p (exact for the square torus and cylinder by
 * polynomials, else m), and at most m (a module of ker E). */
static int kernel_rows(const toggle_system *s, size_t m, size_t *d)
{
    const toggle_graph *g = s->graph;
    toggle__zk_ppow pp[TOGGLE__ZK_MAX_PP];
    size_t nf = 0;
    *d = m;
    if (g->kind != TOGGLE_KIND_GRID || !toggle__zk_factor(s->k, pp, &nf))
        return TOGGLE_OK;
    uint32_t top = g->flags & ~(uint32_t)TOGGLE_GRID_NO_SELF;
    unsigned self = (g->flags & TOGGLE_GRID_NO_SELF) ? 0 : 1;
    if (top != TOGGLE_GRID_TORUS && top != TOGGLE_GRID_CYLINDER)
        return TOGGLE_OK;
    unsigned __int128 sum = 0;
    for (size_t t = 0; t < nf; t++) {
        size_t n = m;
        int rc = top == TOGGLE_GRID_TORUS
                     ? toggle__grid_torus_nullity(pp[t].p, g->rows, g->cols, self, &n)
                     : toggle__grid_cylinder_nullity(pp[t].p, g->rows, g->cols, self, &n);
        if (rc == TOGGLE_EUNSUPPORTED) /* without FLINT */
            return TOGGLE_OK;
        if (rc)
            return rc;
        sum += (unsigned __int128)pp[t].e * n;
    }
    if (sum < m)
        *d = (size_t)sum;
    return TOGGLE_OK;
}

/* Phase by phase, as toggle__transfer_composite_solve allocates: the
 * patterns throughout; building the small system (m + 1 lanes, E in words
 * and the system made of it); E with the per-prime-power solve (a field
 * system and its engine, the dense Howell form mod q, L^{-1} mod 2, the
 * joined rows); the prefix form (H rows of the L = d + 1 lanes, the Howell
 * workspace); the answers (kernel and x, the lanes, the small vectors). */
int toggle__transfer_composite_estimate(const toggle_system *s, uint64_t *bytes)
{
    toggle__tframe *f;
    toggle__tframe_info fi;
    int rc0 = open_frame(s, &f, &fi);
    if (rc0)
        return rc0;
    size_t m = fi.m, d = m, vec, kern, sys, L;
    int rc = kernel_rows(s, m, &d);
    uint64_t pat = toggle__transfer_frame_bytes(f), lanes_small = 0, lanes_ans = 0;
    if (!rc) {
        lanes_small = toggle__transfer_lanes_bytes(f, m + 1);
        lanes_ans = toggle__transfer_lanes_bytes(f, d + 1);
    }
    toggle__transfer_frame_free(f);
    if (rc)
        return rc;
    if (!toggle__vecs_bytes(s->n, 1, s->k, &vec) || !toggle__vecs_bytes(s->n, d, s->k, &kern) ||
        !toggle__vecs_bytes(m, m, s->k, &sys))
        return toggle__error(TOGGLE_EOVERFLOW, "board of %zu cells overflows size_t", s->n);
    L = d + 1;
    unsigned __int128 m8 = (unsigned __int128)m * 8, mm8 = m8 * m;
    /* the lanes and the residual cells (no more than the lanes' rows) */
    unsigned __int128 build = 2 * (unsigned __int128)lanes_small + 2 * mm8 + m8 + sys;
    /* the small solve: E, a field system (m x m words and its vecs) and its
     * engine's work (about one more m x m), the dense Howell form mod q,
     * L^{-1} mod 2 and [L | I], the joined rows and generators */
    unsigned __int128 dense = (3 * m8 / 8 + 2) * (2 * m8 + 8) + m8 * 2,
                      inv = mm8 + m8 * ((2 * m + 63) / 64 + (m + 63) / 64) * 2,
                      join = (m8 / 8 + 2 + m) * (m8 + 8) * 2 + (unsigned __int128)m * m8 * 2;
    unsigned __int128 solve = mm8 + m8 * 4 + 3 * mm8 + (dense > inv ? dense : inv) + join;
    size_t hc = fi.H * fi.C, cols = 1 + hc + m, cap = toggle__zk_howell_cap(s->k, L, cols);
    unsigned __int128 prefix = (unsigned __int128)cap * cols * 8 + (unsigned __int128)L * hc * 8 +
                               cap * 8 + lanes_ans + (unsigned __int128)L * m8 * 2;
    unsigned __int128 ans = (unsigned __int128)kern + vec + lanes_ans +
                            (unsigned __int128)L * m8 * 3 + (unsigned __int128)(s->n + 1) * 8;
    unsigned __int128 e = build > solve ? build : solve;
    if (e < prefix + (unsigned __int128)L * m8)
        e = prefix + (unsigned __int128)L * m8;
    if (e < ans)
        e = ans;
    e += pat + 8192 + (unsigned __int128)32 * fi.C + (unsigned __int128)(s->n + 1) * 8;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}
