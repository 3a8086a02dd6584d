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
 * columns gives the canonical answers; that solver, generic over "a small
 * system seen through callbacks", is lib/linalg/zk/zk.c (shared with the
 * transfer engine). The certificate is the policy's kernel route
 * (certificate.c), whose composite case is the Howell one. */
#include <string.h>

#include "chase.h"
#include "engine/flint/poly.h"
#include "linalg/gf2/gf2.h"
#include "linalg/zk/zk.h"

typedef toggle__zk_ppow ppow;
#define MAX_PP TOGGLE__ZK_MAX_PP

bool toggle__chase_composite_probe(const toggle_system *s, char *why, size_t len)
{
    ppow f[MAX_PP];
    size_t nf;
    if (!toggle__zk_factor(s->k, f, &nf))
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

/* ---- the small system, as zk.h sees it ------------------------------------ */

/* r = L w + z: the virtual row of the chase from w with b. */
static void cb_resid(void *ctx, const uint64_t *w, uint64_t *r)
{
    cctx *c = ctx;
    run(c, w, true, NULL, 0);
    memcpy(r, c->v, c->C * sizeof *r);
}

/* L delta = -r over F_p by the polynomials: L = (-1)^R P_R(T), so
 * P_R(T) delta = -(-1)^R r. */
static int cb_field(void *ctx, uint64_t p, const uint64_t *r, uint64_t *delta, int *solvable,
                    size_t *dn, uint64_t **kern)
{
    cctx *c = ctx;
    uint64_t *rhs = toggle__malloc_array(c->C ? c->C : 1, sizeof *rhs);
    if (!rhs)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    for (size_t j = 0; j < c->C; j++)
        rhs[j] = (c->R & 1) ? r[j] : toggle__submod(0, r[j], p);
    int rc = toggle__grid_small_solve(p, c->R, c->C, c->f.d, rhs, delta, solvable, dn, kern);
    toggle__free(rhs);
    return rc;
}

/* The columns L e_j mod q: L e_0 by one chase, then the recurrence of the
 * rows' unit vectors (L is a polynomial in T, e_{j+1} = (T - d) e_j -
 * e_{j-1}). */
static int cb_columns(void *ctx, uint64_t q, uint64_t *M, size_t stride)
{
    cctx *c = ctx;
    size_t C = c->C;
    uint64_t *e0 = toggle__calloc(C ? C : 1, sizeof *e0);
    if (!e0)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
    e0[0] = 1;
    run(c, e0, false, NULL, 0);
    toggle__free(e0);
    for (size_t j = 0; j < C; j++) {
        uint64_t *col = M + j * stride;
        const uint64_t *p1 = col - stride, *p2 = col - 2 * stride;
        for (size_t i = 0; i < C; i++) {
            if (j == 0) {
                col[i] = c->v[i] % q;
                continue;
            }
            uint64_t t = toggle__addmod(i ? p1[i - 1] : 0, i + 1 < C ? p1[i + 1] : 0, q);
            col[i] = j >= 2 ? toggle__submod(t, p2[i], q) : t;
        }
    }
    return TOGGLE_OK;
}

int toggle__chase_composite_solve(const toggle_system *s, toggle_solution *sol)
{
    size_t d = 0;
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
    bool solvable = false;
    toggle__zk_small sm = {&c, c.C, cb_resid, cb_field, cb_columns};
    if (!rc)
        rc = toggle__zk_small_solve(&sm, s->k, z, &solvable, &d, &K, &x, radix);
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
    toggle__vecs_clear(&K);
    toggle__vecs_clear(&x);
    toggle__free(z);
    toggle__free(radix);
    ctx_free(&c);
    return rc;
}

/* ---- memory ------------------------------------------------------------------ */

int toggle__chase_composite_estimate(const toggle_system *s, uint64_t *bytes)
{
    ppow pp[MAX_PP];
    size_t nf = 0, R = s->graph->rows, C = s->graph->cols, work, vec;
    if (!toggle__zk_factor(s->k, pp, &nf))
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
