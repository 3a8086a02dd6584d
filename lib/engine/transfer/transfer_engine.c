/* The transfer engine (TOGGLE_ENGINE_TRANSFER): light chasing generalised to
 * every grid (square, hex and tri lattices, Moore, torus and cylinder) and
 * every stencil over a prime modulus, with the canonical answers of full
 * elimination. docs/transfer.md has the method and the proofs:
 *
 * - the frame: board rows (or board columns, "transposed") of C cells; the
 *   equations of frame row r involve press rows r - Hb .. r + Hf, and the
 *   lead block B_r (offset +Hf) is solved by a substitution program found
 *   by peeling (each step an equation with one unknown of unit weight);
 * - unknowns: the first Hf rows (and, across a wrap, the last Hb rows too);
 *   every other row follows from them; the last rows' equations are the
 *   small system E u = -e0, built by one chase with one lane per unknown
 *   (packed bits for F_2) and solved by the engines on a dense system;
 * - the particular solution and the kernel basis are chased from the
 *   small system's answers (one lane each) and brought to the canonical
 *   form by a reverse echelon of the kernel basis: the free columns of the
 *   full RREF are the last nonzero positions of kernel vectors. */
#include <string.h>

#include "engine/engine.h"

/* The dense engine of this build for the small systems: FLINT, or the
 * library's own without FLINT (-Dflint=disabled). */
#ifdef TOGGLE_HAVE_FLINT
#define TRANSFER_SMALL_ENGINE toggle__engine_flint
#else
#define TRANSFER_SMALL_ENGINE toggle__engine_dense
#endif

/* One entry of an equation: weight w (mod p, nonzero) on the press at frame
 * row r + dq, frame column col. */
typedef struct {
    int64_t dq;
    size_t col;
    uint64_t w;
} tentry;

/* The equations of one class of frame rows (rows with equal patterns). */
typedef struct {
    size_t *start;  /* C + 1 offsets into ent */
    tentry *ent;
    size_t *peq;    /* substitution program: step t solves variable pvar[t] */
    size_t *pvar;   /* from equation peq[t] with the inverse weight pinv[t] */
    uint64_t *pinv;
    bool built, peels;
} rowpat;

typedef struct {
    const toggle_graph *g;
    uint64_t p;
    bool tr;        /* frame rows are board columns */
    bool wrap;      /* frame rows wrap (the last touches the first) */
    size_t R, C;    /* frame rows, cells per frame row */
    size_t Hf, Hb;  /* forward and backward reach of the equations */
    size_t HH;      /* class radius */
    bool all;       /* every row is an unknown (no chase) */
    size_t nuk;     /* unknown rows */
    size_t ncls;
    rowpat *cls;
    toggle__colbuf cb;
} tframe;

static size_t frame_cell(const tframe *f, size_t r, size_t j)
{
    return f->tr ? j * f->g->cols + r : r * f->g->cols + j;
}

static size_t class_of(const tframe *f, size_t r)
{
    size_t par = (f->g->kind == TOGGLE_KIND_GRID && f->g->npar == 2) ? (r & 1) : 0;
    size_t top = r < f->HH ? r : f->HH, bot = f->R - 1 - r < f->HH ? f->R - 1 - r : f->HH;
    return (par * (f->HH + 1) + top) * (f->HH + 1) + bot;
}

static void pat_clear(rowpat *pt)
{
    toggle__free(pt->start);
    toggle__free(pt->ent);
    toggle__free(pt->peq);
    toggle__free(pt->pvar);
    toggle__free(pt->pinv);
    memset(pt, 0, sizeof *pt);
}

static void frame_clear(tframe *f)
{
    if (f->cls)
        for (size_t i = 0; i < f->ncls; i++)
            pat_clear(&f->cls[i]);
    toggle__free(f->cls);
    toggle__colbuf_clear(&f->cb);
    f->cls = NULL;
}

/* Peel the lead block (entries at dq = Hf): repeatedly take an equation
 * with exactly one unsolved variable of unit weight. */
static bool peel(const tframe *f, rowpat *pt, bool *oom)
{
    size_t C = f->C;
    size_t *left = toggle__calloc(C, sizeof *left), *queue = toggle__malloc_array(C, sizeof *queue);
    bool *done = toggle__calloc(C, sizeof *done), ok = true;
    size_t *vstart = toggle__calloc(C + 1, sizeof *vstart), *veq = NULL;
    if (!left || !queue || !done || !vstart)
        ok = false, *oom = true;
    /* variable -> equations index (lead entries) */
    size_t nlead = 0;
    for (size_t e = 0; ok && e < C; e++)
        for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++)
            if (pt->ent[t].dq == (int64_t)f->Hf) {
                left[e]++;
                vstart[pt->ent[t].col + 1]++;
                nlead++;
            }
    if (ok && !(veq = toggle__malloc_array(nlead ? nlead : 1, sizeof *veq)))
        ok = false, *oom = true;
    if (ok) {
        for (size_t v = 0; v < C; v++)
            vstart[v + 1] += vstart[v];
        size_t *fill = queue; /* reuse as a cursor array temporarily */
        memcpy(fill, vstart, C * sizeof *fill);
        for (size_t e = 0; e < C; e++)
            for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++)
                if (pt->ent[t].dq == (int64_t)f->Hf)
                    veq[fill[pt->ent[t].col]++] = e;
    }
    size_t qh = 0, qt = 0, steps = 0;
    for (size_t e = 0; ok && e < C; e++)
        if (left[e] == 1)
            queue[qt++] = e;
    while (ok && qh < qt) {
        size_t e = queue[qh++], var = SIZE_MAX;
        uint64_t w = 0;
        if (left[e] != 1) {
            ok = false; /* all its variables solved by others: B is singular */
            break;
        }
        for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++)
            if (pt->ent[t].dq == (int64_t)f->Hf && !done[pt->ent[t].col]) {
                var = pt->ent[t].col;
                w = (w + pt->ent[t].w) % f->p;
            }
        uint64_t inv = w ? toggle__invmod(w, f->p) : 0;
        if (var == SIZE_MAX || !inv) {
            ok = false;
            break;
        }
        done[var] = true;
        pt->peq[steps] = e;
        pt->pvar[steps] = var;
        pt->pinv[steps++] = inv;
        left[e] = 0;
        for (size_t t = vstart[var]; t < vstart[var + 1]; t++) {
            size_t e2 = veq[t];
            if (left[e2] && --left[e2] == 1)
                queue[qt++] = e2;
        }
    }
    ok = ok && steps == C;
    toggle__free(left);
    toggle__free(queue);
    toggle__free(done);
    toggle__free(vstart);
    toggle__free(veq);
    return ok;
}

/* Build the pattern of frame row r's class from the graph's columns. */
static int pat_build(tframe *f, size_t r, rowpat *pt)
{
    size_t C = f->C, cap = 0;
    pt->start = toggle__calloc(C + 1, sizeof *pt->start);
    pt->peq = toggle__malloc_array(C, sizeof *pt->peq);
    pt->pvar = toggle__malloc_array(C, sizeof *pt->pvar);
    pt->pinv = toggle__malloc_array(C, sizeof *pt->pinv);
    if (!pt->start || !pt->peq || !pt->pvar || !pt->pinv)
        return TOGGLE_ENOMEM;
    /* presses q in [r - Hb, r + Hf] (all rows when every row is unknown) */
    int64_t lo = f->all ? 0 : (int64_t)r - (int64_t)f->Hb;
    int64_t hi = f->all ? (int64_t)f->R - 1 : (int64_t)r + (int64_t)f->Hf;
    /* first count, then fill: two passes over the same columns */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (size_t j = 0; j < C; j++)
                pt->start[j + 1] += pt->start[j];
            cap = pt->start[C];
            pt->ent = toggle__malloc_array(cap ? cap : 1, sizeof *pt->ent);
            if (!pt->ent)
                return TOGGLE_ENOMEM;
        }
        size_t *fill = pass ? pt->peq : NULL;
        if (pass)
            memcpy(fill, pt->start, C * sizeof *fill);
        for (int64_t q0 = lo; q0 <= hi; q0++) {
            int64_t q = q0;
            if (f->wrap)
                q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
            else if (q < 0 || q >= (int64_t)f->R)
                continue;
            /* (q0 - lo < R: each row once, since R > Hf + Hb when chasing) */
            for (size_t jj = 0; jj < C; jj++) {
                size_t c = toggle__graph_column(f->g, frame_cell(f, (size_t)q, jj), f->cb.idx,
                                                f->cb.val);
                for (size_t t = 0; t < c; t++) {
                    size_t cell = f->cb.idx[t], br = cell / f->g->cols, bc = cell % f->g->cols;
                    size_t fr = f->tr ? bc : br, fj = f->tr ? br : bc;
                    uint64_t w = f->cb.val[t] % f->p;
                    if (fr != r || !w)
                        continue;
                    if (!pass) {
                        pt->start[fj + 1]++;
                    } else {
                        tentry *e = &pt->ent[fill[fj]++];
                        e->dq = q - (int64_t)r;
                        e->col = jj;
                        e->w = w;
                    }
                }
            }
        }
    }
    bool oom = false;
    pt->peels = f->all || peel(f, pt, &oom);
    if (oom)
        return TOGGLE_ENOMEM;
    pt->built = true;
    return TOGGLE_OK;
}

/* Silent (the probe uses it): TOGGLE_ENOMEM without a message. */
static int frame_class(tframe *f, size_t r, rowpat **out)
{
    rowpat *pt = &f->cls[class_of(f, r)];
    if (!pt->built) {
        int rc = pat_build(f, r, pt);
        if (rc) {
            pat_clear(pt);
            return rc;
        }
    }
    *out = pt;
    return TOGGLE_OK;
}

/* Reach of the equations along the frame rows: presses q affect rows q + e,
 * e in [emin, emax] (the stencil's offsets along the frame's row axis). */
static void stencil_reach(const toggle_graph *g, bool tr, int64_t *emin, int64_t *emax)
{
    *emin = *emax = 0;
    for (size_t s = 0; s < g->nst * g->npar; s++) {
        int64_t e = tr ? g->dc[s] : g->dr[s];
        if (e < *emin)
            *emin = e;
        if (e > *emax)
            *emax = e;
    }
}

#define TRANSFER_MAX_REACH 4

/* Set up the frame on one axis; false (silent) when that axis cannot be
 * chased. Leaves f cleared on false. */
static bool frame_setup(const toggle_system *s, bool tr, tframe *f, bool *oom)
{
    const toggle_graph *g = s->graph;
    memset(f, 0, sizeof *f);
    f->g = g;
    f->p = s->k;
    f->tr = tr;
    f->R = tr ? g->cols : g->rows;
    f->C = tr ? g->rows : g->cols;
    f->wrap = tr ? (g->flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER)) != 0
                 : (g->flags & TOGGLE_GRID_TORUS) != 0;
    int64_t emin, emax;
    stencil_reach(g, tr, &emin, &emax);
    f->Hf = (size_t)-emin;
    f->Hb = (size_t)emax;
    if (f->R == 1)
        f->Hf = f->Hb = 0;
    if (f->Hf > TRANSFER_MAX_REACH || f->Hb > TRANSFER_MAX_REACH)
        return false;
    f->HH = f->Hf + f->Hb;
    if (f->wrap ? f->R <= f->Hf + f->Hb : f->R <= f->Hf)
        f->all = true;
    if (!f->all && f->Hf == 0)
        return false;
    f->nuk = f->all ? f->R : f->wrap ? f->Hf + f->Hb : f->Hf;
    f->ncls = 2 * (f->HH + 1) * (f->HH + 1);
    f->cls = toggle__calloc(f->ncls, sizeof *f->cls);
    if (!f->cls || (f->cb.idx = toggle__malloc_array(toggle__graph_max_column(g),
                                                     sizeof *f->cb.idx)) == NULL ||
        (f->cb.val = toggle__malloc_array(toggle__graph_max_column(g),
                                          sizeof *f->cb.val)) == NULL) {
        *oom = true; /* silent: toggle__colbuf_init would record a message */
        frame_clear(f);
        return false;
    }
    /* every class must peel (all classes are met by the rows of the chase) */
    size_t nchase = f->all ? 0 : f->R - (f->wrap ? f->Hf + f->Hb : f->Hf);
    for (size_t r = 0; r < nchase; r++) {
        rowpat *pt;
        int rc = frame_class(f, r, &pt);
        if (rc || !pt->peels) {
            *oom = *oom || rc;
            frame_clear(f);
            return false;
        }
        if (r == f->HH && nchase > 2 * f->HH + 2)
            r = nchase - f->HH - 2; /* the interior classes are met already */
    }
    return true;
}

/* The unknowns: rows 0 .. Hf - 1, then across a wrap rows R - Hb .. R - 1;
 * every row when there is no chase. Index of unknown row i, or SIZE_MAX. */
static size_t unknown_slot(const tframe *f, size_t r)
{
    if (f->all)
        return r;
    if (r < f->Hf)
        return r;
    if (f->wrap && r >= f->R - f->Hb)
        return f->Hf + (r - (f->R - f->Hb));
    return SIZE_MAX;
}

/* First constraint row (its equations and the following rows' make E). */
static size_t first_constraint(const tframe *f)
{
    return f->all ? 0 : f->R - (f->wrap ? f->Hf + f->Hb : f->Hf);
}

/* ---- the lanes: L values per cell, packed bits for p = 2 ------------------- */

typedef struct {
    const tframe *f;
    size_t L, nw;            /* lanes, words per cell */
    uint64_t *saved;         /* nuk rows: the unknown rows' cells */
    uint64_t *ring;          /* ring of Hf + Hb + 1 computed rows */
    size_t nring;
    uint64_t *acc;           /* one cell */
} lanes;

static uint64_t *row_ptr(lanes *ln, size_t r)
{
    size_t u = unknown_slot(ln->f, r), rowwords = ln->f->C * ln->nw;
    if (u != SIZE_MAX)
        return ln->saved + u * rowwords;
    return ln->ring + (r % ln->nring) * rowwords;
}

/* acc -= w * x over the lanes. */
static inline void lane_axpy(uint64_t *acc, const uint64_t *x, uint64_t w, size_t nw, uint64_t p)
{
    if (p == 2) {
        if (w & 1)
            for (size_t i = 0; i < nw; i++)
                acc[i] ^= x[i];
    } else if (w == 1) {
        for (size_t i = 0; i < nw; i++)
            acc[i] = toggle__submod(acc[i], x[i], p);
    } else {
        for (size_t i = 0; i < nw; i++)
            acc[i] = toggle__submod(acc[i], toggle__mulmod(w, x[i], p), p);
    }
}

static inline void lane_scale(uint64_t *dst, const uint64_t *acc, uint64_t inv, size_t nw,
                              uint64_t p)
{
    if (p == 2 || inv == 1)
        memcpy(dst, acc, nw * sizeof *dst);
    else
        for (size_t i = 0; i < nw; i++)
            dst[i] = toggle__mulmod(acc[i], inv, p);
}

/* The residual sum_t w x - b (lane 0 carries b when with_b) of equation e of
 * frame row r into acc, negated: acc = b - sum (entries except skip_lead). */
static void eq_residual(lanes *ln, const rowpat *pt, size_t r, size_t e, bool with_b,
                        const toggle_system *s, bool skip_lead)
{
    const tframe *f = ln->f;
    size_t nw = ln->nw;
    memset(ln->acc, 0, nw * sizeof *ln->acc);
    if (with_b) {
        uint64_t bv = toggle__vecs_get(&s->b, 0, frame_cell(f, r, e));
        ln->acc[0] = f->p == 2 ? (bv & 1) : bv;
    }
    for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++) {
        const tentry *en = &pt->ent[t];
        if (skip_lead && en->dq == (int64_t)f->Hf)
            continue;
        int64_t q = (int64_t)r + en->dq;
        if (f->wrap)
            q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
        lane_axpy(ln->acc, row_ptr(ln, (size_t)q) + en->col * nw, en->w, nw, f->p);
    }
}

typedef void (*row_sink)(void *ctx, const lanes *ln, size_t r, const uint64_t *row);

/* Chase: the unknown rows are in ln->saved; computes every other row (each
 * handed to sink, as are the unknown rows), and the residuals b - A x of the
 * constraint rows' equations into resid (ncons * C cells of nw words). */
static int chase(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid, row_sink sink,
                 void *ctx)
{
    tframe *f = (tframe *)ln->f;
    size_t C = f->C, nw = ln->nw, fc = first_constraint(f);
    int rc;
    if (sink)
        for (size_t r = 0; r < f->R; r++)
            if (unknown_slot(f, r) != SIZE_MAX)
                sink(ctx, ln, r, row_ptr(ln, r));
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        if ((rc = frame_class(f, r, &pt)))
            return toggle__error(rc, "out of memory for the transfer engine's row patterns");
        if (!pt->peels)
            return toggle__error(TOGGLE_EINTERNAL, "transfer: frame row %zu does not peel", r);
        size_t tgt = r + f->Hf;
        uint64_t *dst = row_ptr(ln, tgt);
        memset(dst, 0, C * nw * sizeof *dst);
        for (size_t t = 0; t < C; t++) {
            size_t e = pt->peq[t], var = pt->pvar[t];
            /* b - (non-lead terms) - (lead terms already solved: zero for
             * the unsolved var, since dst starts at 0) */
            eq_residual(ln, pt, r, e, with_b, s, true);
            for (size_t u = pt->start[e]; u < pt->start[e + 1]; u++) {
                const tentry *en = &pt->ent[u];
                if (en->dq == (int64_t)f->Hf && en->col != var)
                    lane_axpy(ln->acc, dst + en->col * nw, en->w, nw, f->p);
            }
            lane_scale(dst + var * nw, ln->acc, pt->pinv[t], nw, f->p);
        }
        if (sink)
            sink(ctx, ln, tgt, dst);
    }
    for (size_t r = fc; r < f->R; r++) {
        rowpat *pt;
        if ((rc = frame_class(f, r, &pt)))
            return toggle__error(rc, "out of memory for the transfer engine's row patterns");
        for (size_t e = 0; e < C; e++) {
            eq_residual(ln, pt, r, e, with_b, s, false);
            memcpy(resid + ((r - fc) * C + e) * nw, ln->acc, nw * sizeof *ln->acc);
        }
    }
    return TOGGLE_OK;
}

static int lanes_init(lanes *ln, const tframe *f, size_t L)
{
    memset(ln, 0, sizeof *ln);
    ln->f = f;
    ln->L = L;
    ln->nw = f->p == 2 ? (L + 63) / 64 : L;
    if (ln->nw == 0)
        ln->nw = 1;
    ln->nring = f->Hf + f->Hb + 1;
    size_t rowwords = f->C * ln->nw;
    ln->saved = toggle__calloc(f->nuk * rowwords, sizeof *ln->saved);
    ln->ring = toggle__calloc(ln->nring * rowwords, sizeof *ln->ring);
    ln->acc = toggle__calloc(ln->nw, sizeof *ln->acc);
    if (!ln->saved || !ln->ring || !ln->acc)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
    return TOGGLE_OK;
}

static void lanes_clear(lanes *ln)
{
    toggle__free(ln->saved);
    toggle__free(ln->ring);
    toggle__free(ln->acc);
    memset(ln, 0, sizeof *ln);
}

static inline uint64_t lane_get(const lanes *ln, const uint64_t *cell, size_t l)
{
    return ln->f->p == 2 ? (cell[l >> 6] >> (l & 63)) & 1 : cell[l];
}

static inline void lane_set(const lanes *ln, uint64_t *cell, size_t l, uint64_t v)
{
    if (ln->f->p == 2)
        cell[l >> 6] |= (v & 1) << (l & 63);
    else
        cell[l] = v;
}

/* ---- the small system ------------------------------------------------------ */

/* E (m x m) and -e0 from one chase with lane 0 the constant, lane 1 + i
 * unknown i; then solve it by the engines on a dense system. */
static int small_system(const toggle_system *s, tframe *f, toggle_solution **small)
{
    size_t m = f->nuk * f->C, L = m + 1;
    lanes ln;
    int rc = lanes_init(&ln, f, L);
    uint64_t *resid = NULL, *E = NULL, *rhs = NULL;
    toggle_system *ss = NULL;
    if (rc)
        goto out;
    for (size_t i = 0; i < m; i++)
        lane_set(&ln, ln.saved + i * ln.nw, i + 1, 1);
    resid = toggle__calloc(m * ln.nw, sizeof *resid);
    E = toggle__malloc_array((m * m) > 0 ? m * m : 1, sizeof *E);
    rhs = toggle__malloc_array(m ? m : 1, sizeof *rhs);
    if (!resid || !E || !rhs) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        goto out;
    }
    if ((rc = chase(&ln, true, s, resid, NULL, NULL)))
        goto out;
    /* resid = b - A x(u) = c0 - E' u with lane 0 = c0 and lane 1 + i =
     * -(column i of A's action): A x = b iff sum_i u_i lane_{1+i} = -c0. */
    for (size_t e = 0; e < m; e++) {
        const uint64_t *cell = resid + e * ln.nw;
        for (size_t i = 0; i < m; i++)
            E[e * m + i] = lane_get(&ln, cell, i + 1);
        rhs[e] = toggle__submod(0, lane_get(&ln, cell, 0), f->p);
    }
    if ((rc = toggle_system_new_matrix(&ss, m, m, E, rhs, f->p)))
        goto out;
    toggle__free(E);
    E = NULL;
    toggle__free(resid);
    resid = NULL;
    rc = toggle_solve(small, ss);
out:
    lanes_clear(&ln);
    toggle__free(resid);
    toggle__free(E);
    toggle__free(rhs);
    toggle_system_free(ss);
    return rc;
}

/* ---- the canonical form ----------------------------------------------------- */

/* Last nonzero position of vector i, or SIZE_MAX. */
static size_t last_nonzero(const toggle__vecs *v, size_t i)
{
    if (v->packed) {
        const uint64_t *w = toggle__vecs_row(v, i);
        for (size_t q = v->stride; q-- > 0;)
            if (w[q])
                return q * 64 + 63 - (size_t)__builtin_clzll(w[q]);
        return SIZE_MAX;
    }
    for (size_t t = v->len; t-- > 0;)
        if (toggle__vecs_get(v, i, t))
            return t;
    return SIZE_MAX;
}

/* dst -= f * src (vectors of the same vecs, or x against the kernel). */
static void axpy(toggle__vecs *v, size_t dst, const toggle__vecs *sv, size_t src, uint64_t fct,
                 uint64_t k, size_t upto)
{
    uint64_t *d = toggle__vecs_row(v, dst);
    const uint64_t *sr = toggle__vecs_row(sv, src);
    if (v->packed) {
        for (size_t i = 0; i <= upto / 64; i++)
            d[i] ^= sr[i];
        return;
    }
    for (size_t i = 0; i <= upto; i++) {
        uint64_t si = toggle__vecs_get(sv, src, i);
        if (si)
            toggle__vecs_set(v, dst, i, toggle__submod(toggle__vecs_get(v, dst, i),
                                                       toggle__mulmod(fct, si, k), k));
    }
}

/* Bring the kernel basis to the canonical one (unit on its free column, 0
 * on the others, in ascending free column) and x to free variables 0. */
static int canonicalise(toggle_solution *sol)
{
    toggle__vecs *K = &sol->kernel;
    size_t dn = sol->nullity;
    uint64_t k = sol->k;
    if (!dn)
        return TOGGLE_OK;
    size_t *piv = toggle__malloc_array(dn, sizeof *piv);
    bool *used = toggle__calloc(dn, sizeof *used);
    int rc = TOGGLE_OK;
    if (!piv || !used) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    for (size_t step = 0; step < dn; step++) {
        size_t best = SIZE_MAX, bi = 0;
        for (size_t i = 0; i < dn; i++) {
            if (used[i])
                continue;
            size_t l = last_nonzero(K, i);
            if (l == SIZE_MAX) {
                rc = toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
                goto out;
            }
            if (best == SIZE_MAX || l > best) {
                best = l;
                bi = i;
            }
        }
        used[bi] = true;
        piv[bi] = best;
        uint64_t lead = toggle__vecs_get(K, bi, best);
        if (lead != 1) {
            uint64_t inv = toggle__invmod(lead, k);
            for (size_t t = 0; t <= best; t++)
                toggle__vecs_set(K, bi, t, toggle__mulmod(toggle__vecs_get(K, bi, t), inv, k));
        }
        for (size_t i = 0; i < dn; i++) {
            uint64_t e = i == bi ? 0 : toggle__vecs_get(K, i, best);
            if (e)
                axpy(K, i, K, bi, e, k, best);
        }
    }
    if (sol->solvable)
        for (size_t i = 0; i < dn; i++) {
            uint64_t e = toggle__vecs_get(&sol->x, 0, piv[i]);
            if (e)
                axpy(&sol->x, 0, K, i, e, k, piv[i]);
        }
    /* order by free column: sort the rows by piv (selection, dn swaps) */
    for (size_t a = 0; a < dn; a++) {
        size_t m = a;
        for (size_t b = a + 1; b < dn; b++)
            if (piv[b] < piv[m])
                m = b;
        if (m != a) {
            uint64_t *x = toggle__vecs_row(K, a), *y = toggle__vecs_row(K, m);
            for (size_t t = 0; t < K->stride; t++) {
                uint64_t tmp = x[t];
                x[t] = y[t];
                y[t] = tmp;
            }
            size_t tp = piv[a];
            piv[a] = piv[m];
            piv[m] = tp;
        }
    }
out:
    toggle__free(piv);
    toggle__free(used);
    return rc;
}

/* ---- the engine ------------------------------------------------------------- */

static bool transfer_applies(const toggle_system *s, char *why, size_t len)
{
    const toggle_graph *g = s->graph;
    if (!g || (g->kind != TOGGLE_KIND_GRID && g->kind != TOGGLE_KIND_STENCIL))
        return toggle__probe_no(why, len, "the transfer engine needs a grid or stencil graph");
    if (!toggle__is_prime(s->k))
        return toggle__probe_no(why, len, "the transfer engine needs a prime modulus, %llu is "
                                "composite", (unsigned long long)s->k);
    return true;
}

/* Pick the axis: the shorter frame rows first (fewer unknowns). */
static bool frame_pick(const toggle_system *s, tframe *f, bool *oom)
{
    const toggle_graph *g = s->graph;
    bool first = g->rows < g->cols;
    *oom = false;
    return frame_setup(s, first, f, oom) || frame_setup(s, !first, f, oom);
}

/* The error of a failed frame_pick in estimate and solve. */
static int pick_error(bool oom)
{
    if (oom)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer engine's frame");
    return toggle__error(TOGGLE_EUNSUPPORTED, "the transfer engine cannot chase this board");
}

static bool transfer_probe(const toggle_system *s, char *why, size_t len)
{
    if (!transfer_applies(s, why, len))
        return false;
    tframe f;
    bool oom;
    if (!frame_pick(s, &f, &oom)) {
        if (oom) /* could not tell: not a "no" */
            return toggle__probe_oom();
        return toggle__probe_no(why, len, "the transfer engine finds no axis whose coupling "
                                "block peels (singular or not triangular on both axes, or "
                                "a stencil reaching more than %d rows)", TRANSFER_MAX_REACH);
    }
    size_t m = f.nuk * f.C;
    frame_clear(&f);
    /* the small system must be small: at most half the board's unknowns */
    if (s->n > 64 && 2 * m > s->n)
        return toggle__probe_no(why, len, "the transfer engine's small system (%zu unknowns) "
                                "is not small for %zu cells", m, s->n);
    return true;
}

/* A system without a grid (the certificate system of a board whose A is not
 * symmetric: stencils, hex and tri across an odd wrap) goes to dense
 * elimination. */
static bool is_board(const toggle_system *s)
{
    return s->graph && (s->graph->kind == TOGGLE_KIND_GRID ||
                        s->graph->kind == TOGGLE_KIND_STENCIL);
}

static int transfer_estimate(const toggle_system *s, uint64_t *bytes)
{
    if (!is_board(s))
        return TRANSFER_SMALL_ENGINE.estimate(s, bytes);
    tframe f;
    bool oom;
    if (!frame_pick(s, &f, &oom))
        return pick_error(oom);
    size_t m = f.nuk * f.C, nw = f.p == 2 ? (m + 64) / 64 : m + 1;
    size_t rows = f.nuk + f.Hf + f.Hb + 1 + f.nuk; /* saved, ring, residuals */
    unsigned __int128 e = (unsigned __int128)rows * f.C * nw * 8 /* lanes */
                        + (unsigned __int128)m * m * 8 * 2   /* E, the small system's A */
                        + (unsigned __int128)m * m * 8 * 2   /* its elimination, kernel */
                        + (unsigned __int128)f.ncls * f.C * 64
                        + (2u << 20); /* the inner engine's fixed allocations */
    size_t vec;
    if (!toggle__vecs_bytes(s->n, 1, s->k, &vec)) {
        frame_clear(&f);
        return toggle__error(TOGGLE_EOVERFLOW, "board of %zu cells overflows size_t", s->n);
    }
    /* answers: x (the kernel, once its size is known, is checked by solve) */
    e += (unsigned __int128)vec * 2;
    frame_clear(&f);
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}

typedef struct {
    toggle_solution *sol;
    bool with_b;
} out_ctx;

static void write_row(void *ctx_, const lanes *ln, size_t r, const uint64_t *row)
{
    out_ctx *ctx = ctx_;
    const tframe *f = ln->f;
    for (size_t j = 0; j < f->C; j++) {
        const uint64_t *cell = row + j * ln->nw;
        size_t idx = frame_cell(f, r, j);
        for (size_t l = 0; l < ln->L; l++) {
            uint64_t v = lane_get(ln, cell, l);
            if (!v)
                continue;
            if (ctx->with_b && l == 0)
                toggle__vecs_set(&ctx->sol->x, 0, idx, v);
            else
                toggle__vecs_set(&ctx->sol->kernel, l - ctx->with_b, idx, v);
        }
    }
}

static int transfer_solve(const toggle_system *s, toggle_solution *sol)
{
    if (!is_board(s))
        return TRANSFER_SMALL_ENGINE.solve(s, sol);
    tframe f;
    bool oom;
    if (!frame_pick(s, &f, &oom))
        return pick_error(oom);
    toggle_solution *small = NULL;
    lanes ln;
    memset(&ln, 0, sizeof ln);
    uint64_t *resid = NULL, *tmp = NULL;
    size_t m = f.nuk * f.C;
    int rc = small_system(s, &f, &small);
    if (rc)
        goto out;
    size_t dn = toggle_solution_nullity(small);
    bool solvable = toggle_solution_is_solvable(small) == 1;
    sol->solvable = solvable;
    sol->nullity = dn;
    size_t kb;
    if (!toggle__vecs_bytes(s->n, dn, s->k, &kb)) {
        rc = toggle__error(TOGGLE_EOVERFLOW, "kernel basis overflows size_t");
        goto out;
    }
    if ((rc = toggle__budget_check(s, kb, "the kernel basis")))
        goto out;
    if ((rc = toggle__vecs_init(&sol->kernel, s->n, dn, s->k)))
        goto out;
    if (solvable && (rc = toggle__vecs_init(&sol->x, s->n, 1, s->k)))
        goto out;
    size_t L = dn + (solvable ? 1 : 0);
    if (L) {
        if ((rc = lanes_init(&ln, &f, L)))
            goto out;
        tmp = toggle__malloc_array(m ? m : 1, sizeof *tmp);
        resid = toggle__calloc(m * ln.nw + 1, sizeof *resid);
        if (!tmp || !resid) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        for (size_t l = 0; l < L; l++) {
            if (solvable && l == 0)
                rc = toggle_solution_particular(small, tmp, m);
            else
                rc = toggle_solution_kernel_vector(small, l - solvable, tmp, m);
            if (rc)
                goto out;
            for (size_t i = 0; i < m; i++)
                if (tmp[i])
                    lane_set(&ln, ln.saved + i * ln.nw, l, tmp[i]);
        }
        out_ctx ctx = {sol, solvable};
        if ((rc = chase(&ln, solvable, s, resid, write_row, &ctx)))
            goto out;
        for (size_t i = 0; i < m * ln.nw; i++)
            if (resid[i]) {
                rc = toggle__error(TOGGLE_EINTERNAL, "transfer chase leaves a residue");
                goto out;
            }
    }
    rc = canonicalise(sol);
out:
    lanes_clear(&ln);
    toggle__free(resid);
    toggle__free(tmp);
    toggle_solution_free(small);
    frame_clear(&f);
    return rc;
}

/* The certificate comes from the policy (symmetric A: from the kernel; else
 * the transposed system, a stencil reversed, chased by this engine). */
const toggle__engine toggle__engine_transfer = {transfer_probe, transfer_estimate,
                                                transfer_solve, NULL};
