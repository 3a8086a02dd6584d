/* The grid engine (TOGGLE_ENGINE_CHASE): light chasing (chase.c) on classic
 * and no-self grids over prime moduli, with results equal to full
 * elimination's canonical answers (docs/grid.md explains why the free cells
 * are the last cells of the last row, and how the small system is solved);
 * composite moduli go to composite.c. */
#include <string.h>

#include "engine/engine.h"
#include "engine/flint/poly.h"
#include "chase.h"

typedef toggle__chase_frame frame;
typedef toggle__chase_fn chase_fn;

static bool chase_probe(const toggle_system *s, char *why, size_t len)
{
    const toggle_graph *g = s->graph;
    if (!g || g->kind != TOGGLE_KIND_GRID)
        return toggle__probe_no(why, len, "the chase engine needs a grid graph");
    if (g->flags & ~(uint32_t)TOGGLE_GRID_NO_SELF)
        return toggle__probe_no(why, len, "the chase engine handles classic and no-self grids "
                                "only (not torus or Moore; grid flags 0x%x)", (unsigned)g->flags);
    if (!toggle__is_prime(s->k))
        return toggle__chase_composite_probe(s, why, len);
    return true;
}

static void frame_for(const toggle_system *s, frame *f)
{
    const toggle_graph *g = s->graph;
    memset(f, 0, sizeof *f);
    f->tr = g->rows < g->cols;
    f->R = f->tr ? g->cols : g->rows;
    f->C = f->tr ? g->rows : g->cols;
    f->d = (g->flags & TOGGLE_GRID_NO_SELF) ? 0 : 1;
    f->p = s->k;
}

static int chase_estimate(const toggle_system *s, uint64_t *bytes)
{
    if (!toggle__is_prime(s->k))
        return toggle__chase_composite_estimate(s, bytes);
    frame f;
    frame_for(s, &f);
    size_t dn = f.C, vec, work; /* the first row's C presses fix the rest: dn <= C */
    if (!toggle__vecs_bytes(s->n, 1, s->k, &vec))
        return toggle__error(TOGGLE_EOVERFLOW, "board of %zu cells overflows size_t", s->n);
    /* the exact nullity only when the answers can outweigh the small
     * system's polynomials: on a thin board they cannot, and computing it
     * would cost the solve's own peak before the budget is checked */
    unsigned __int128 small = (unsigned __int128)toggle__grid_small_bytes(f.R, f.C);
    if ((unsigned __int128)vec * (dn + 2) + (unsigned __int128)f.C * dn * 8 > small) {
        int rc = toggle__grid_poly_nullity(f.p, f.R, f.C, f.d, &dn);
        if (rc)
            return rc;
    }
    toggle__chase_pick(f.p, f.C, &work);
    /* the chase's rows (w, the virtual row, its work), then either the
     * small system's polynomials (a few of degree max(R, C)), or, after
     * them, the answers: the particular solution and the kernel on the
     * board, the small kernel and the certificate (chase_certify) */
    unsigned nt = toggle__system_threads(s);
    if (nt > 1) /* the strips' rows */
        work += toggle__chase_thread_bytes(f.p, f.C, nt);
    unsigned __int128 rows = (unsigned __int128)f.C * 2 * 8 + work;
    unsigned __int128 answers = (unsigned __int128)vec * (dn + 2) + (unsigned __int128)f.C * dn * 8;
    unsigned __int128 e = rows + (small > answers ? small : answers);
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}

/* dst ^= src over packed board vectors (F_2). */
static void vec_xor(toggle__vecs *v, size_t dst, size_t src)
{
    uint64_t *d = toggle__vecs_row(v, dst);
    const uint64_t *s = toggle__vecs_row(v, src);
    for (size_t i = 0; i < v->stride; i++)
        d[i] ^= s[i];
}

/* A transposed chase gives the kernel basis canonical for the column-major
 * order. The row-major canonical basis has unit vectors on the last dn cells
 * of the last board row (the same argument, docs/grid.md): over F_2 bring it
 * there by Gauss-Jordan on those dn coordinates of the packed board vectors,
 * then clear them in the particular (odd p: rechase_canonical). */
static int recanonicalise(toggle_solution *sol, size_t brows, size_t bcols, size_t dn)
{
    toggle__vecs *K = &sol->kernel, *X = &sol->x;
    size_t base = (brows - 1) * bcols + (bcols - dn);
    for (size_t j = 0; j < dn; j++) {
        size_t piv = j;
        while (piv < dn && toggle__vecs_get(K, piv, base + j) == 0)
            piv++;
        if (piv == dn)
            return toggle__error(TOGGLE_EINTERNAL, "grid kernel is not unit on the last row");
        if (piv != j)
            toggle__vecs_swap(K, piv, j);
        for (size_t i = 0; i < dn; i++)
            if (i != j && toggle__vecs_get(K, i, base + j))
                vec_xor(K, i, j);
    }
    if (sol->solvable)
        for (size_t j = 0; j < dn; j++)
            if (toggle__vecs_get(X, 0, base + j)) {
                uint64_t *d = toggle__vecs_row(X, 0);
                const uint64_t *s = toggle__vecs_row(K, j);
                for (size_t i = 0; i < X->stride; i++)
                    d[i] ^= s[i];
            }
    return TOGGLE_OK;
}

static bool all_zero(const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i])
            return false;
    return true;
}

/* row_i -= fct * row_j over n values mod p */
static void small_axpy(uint64_t *ri, const uint64_t *rj, uint64_t fct, size_t n, uint64_t p)
{
    for (size_t t = 0; t < n; t++)
        if (rj[t])
            ri[t] = toggle__submod(ri[t], toggle__mulmod(fct, rj[t], p), p);
}

/* recanonicalise for lanes (odd p): the same change of basis, found from the
 * chased kernel's values on the dn cells, but applied to the kernel's start
 * rows (dn x C values, Gauss-Jordan on [M | rows]) and the board vectors
 * chased again from them, and the particular chased again from its start
 * row less its part on those cells: dn + 1 more chases instead of dn^2 + dn
 * axpys over whole board vectors. */
static int rechase_canonical(const toggle_system *s, toggle_solution *sol, frame *f,
                             toggle__chase_fn chase, const uint64_t *w, uint64_t *kern, size_t dn,
                             uint64_t *virt, void *work)
{
    uint64_t p = f->p;
    size_t C = f->C, cols = s->graph->cols;
    size_t base = (s->graph->rows - 1) * cols + (cols - dn);
    toggle__vecs *K = &sol->kernel;
    uint64_t *M = toggle__malloc_array(dn, (dn + C) * sizeof *M);
    if (!M)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the grid kernel's change of basis");
    size_t wd = dn + C; /* row i: M's row (dn values), then kern row i (C values) */
    for (size_t i = 0; i < dn; i++) {
        for (size_t j = 0; j < dn; j++)
            M[i * wd + j] = toggle__vecs_get(K, i, base + j);
        memcpy(M + i * wd + dn, kern + i * C, C * sizeof *M);
    }
    int rc = TOGGLE_OK;
    for (size_t j = 0; j < dn && !rc; j++) {
        size_t piv = j;
        while (piv < dn && M[piv * wd + j] == 0)
            piv++;
        if (piv == dn) {
            rc = toggle__error(TOGGLE_EINTERNAL, "grid kernel is not unit on the last row");
            break;
        }
        for (size_t t = 0; piv != j && t < wd; t++) {
            uint64_t tmp = M[piv * wd + t];
            M[piv * wd + t] = M[j * wd + t];
            M[j * wd + t] = tmp;
        }
        uint64_t inv = toggle__invmod(M[j * wd + j], p);
        for (size_t t = 0; t < wd; t++)
            M[j * wd + t] = toggle__mulmod(M[j * wd + t], inv, p);
        for (size_t i = 0; i < dn; i++)
            if (i != j && M[i * wd + j])
                small_axpy(M + i * wd, M + j * wd, M[i * wd + j], wd, p);
    }
    /* the particular's start row less its part on the cells */
    uint64_t *wx = NULL;
    if (!rc && sol->solvable) {
        wx = toggle__malloc_array(C, sizeof *wx);
        if (!wx)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the grid chase");
        else {
            memcpy(wx, w, C * sizeof *wx);
            for (size_t j = 0; j < dn; j++)
                small_axpy(wx, M + j * wd + dn, toggle__vecs_get(&sol->x, 0, base + j), C, p);
        }
    }
    f->b = NULL;
    f->out = K;
    for (size_t i = 0; i < dn && !rc; i++) {
        f->outvec = i;
        chase(f, M + i * wd + dn, virt, work);
        if (!all_zero(virt, C))
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: kernel vector leaves a residue");
        for (size_t j = 0; j < dn && !rc; j++)
            if (toggle__vecs_get(K, i, base + j) != (i == j))
                rc = toggle__error(TOGGLE_EINTERNAL, "grid kernel is not unit on the last row");
    }
    if (!rc && wx) {
        f->b = &s->b;
        f->out = &sol->x;
        f->outvec = 0;
        chase(f, wx, virt, work);
        if (!all_zero(virt, C))
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: particular solution leaves a residue");
        for (size_t j = 0; j < dn && !rc; j++)
            if (toggle__vecs_get(&sol->x, 0, base + j))
                rc = toggle__error(TOGGLE_EINTERNAL, "grid particular is not 0 on the free cells");
    }
    toggle__free(wx);
    toggle__free(M);
    return rc;
}

static int chase_solve(const toggle_system *s, toggle_solution *sol)
{
    if (!toggle__is_prime(s->k))
        return toggle__chase_composite_solve(s, sol);
    frame f;
    frame_for(s, &f);
    size_t C = f.C, workbytes, dn = 0;
    uint64_t p = f.p;
    int solvable = 0, rc;
    chase_fn chase = toggle__chase_pick(p, C, &workbytes);
    f.pool = toggle__pool_new(toggle__system_threads(s)); /* NULL: one thread */
    uint64_t *w = toggle__malloc_array(C, 2 * sizeof *w);
    void *work = toggle__malloc(workbytes);
    uint64_t *kern = NULL;
    if (!w || !work) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
        goto out;
    }
    uint64_t *virt = w + C;
    /* Pass 1: presses 0 on the last row give the virtual row z; the virtual
     * row of last row w is (-1)^R P_R(T) w + z, so P_R(T) w = -(-1)^R z. */
    memset(w, 0, C * sizeof *w);
    f.b = &s->b;
    if ((rc = toggle__progress(&s->progress, 0, 2)))
        goto out;
    chase(&f, w, virt, work);
    for (size_t j = 0; j < C; j++)
        w[j] = (f.R & 1) ? virt[j] : toggle__submod(0, virt[j], p);
    if ((rc = toggle__grid_small_solve(p, f.R, C, f.d, w, w, &solvable, &dn, &kern)))
        goto out;
    if ((rc = toggle__progress(&s->progress, 1, 2)))
        goto out;
    sol->solvable = solvable;
    sol->nullity = dn;
    if ((rc = toggle__vecs_init(&sol->kernel, s->n, dn, p)))
        goto out;
    if (solvable) {
        if ((rc = toggle__vecs_init(&sol->x, s->n, 1, p)))
            goto out;
        f.out = &sol->x;
        f.outvec = 0;
        chase(&f, w, virt, work);
        if (!all_zero(virt, C)) {
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: particular solution leaves a residue");
            goto out;
        }
    }
    f.b = NULL;
    f.out = &sol->kernel;
    for (size_t i = 0; i < dn; i++) {
        f.outvec = i;
        chase(&f, kern + i * C, virt, work);
        if (!all_zero(virt, C)) {
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: kernel vector leaves a residue");
            goto out;
        }
    }
    if (f.tr && dn && !sol->kernel.packed)
        rc = rechase_canonical(s, sol, &f, chase, w, kern, dn, virt, work);
    else if (f.tr && dn)
        rc = recanonicalise(sol, s->graph->rows, s->graph->cols, dn);
out:
    toggle__pool_free(f.pool);
    toggle__free(w);
    toggle__free(work);
    toggle__free(kern);
    return rc;
}

/* A grid's A is symmetric: the certificate is the policy's kernel route
 * (for composite k the Howell engine's, from the Howell kernel rows). */
static int chase_certify(const toggle_system *s, toggle_solution *sol)
{
    return toggle__certify_from_kernel(s, sol);
}

const toggle__engine toggle__engine_chase = {chase_probe, chase_estimate, chase_solve,
                                             chase_certify};
