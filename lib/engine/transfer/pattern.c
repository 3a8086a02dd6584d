/* The row patterns: a class of frame rows' equations from the graph's
 * columns, its lead block peeled into a substitution program (promotions
 * where the peeling stalls), and the program compiled to terms by row slot.
 * Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

void toggle__tr_pat_clear(rowpat *pt)
{
    toggle__free(pt->start);
    toggle__free(pt->ent);
    toggle__free(pt->peq);
    toggle__free(pt->pvar);
    toggle__free(pt->pinv);
    toggle__free(pt->lefto);
    toggle__free(pt->pstart);
    toggle__free(pt->pterm);
    toggle__free(pt->sterm);
    toggle__free(pt->smask);
    toggle__free(pt->smask2);
    memset(pt, 0, sizeof *pt);
}

/* The peeling's state (peel): per equation its unsolved lead variables
 * (left) and whether it was taken (used); per variable whether it is
 * solved (done) and its equations veq[vstart[v] .. vstart[v + 1]); the
 * queue of equations with one unsolved variable; the program's next step
 * and the lowest column not yet known to be solved. */
typedef struct {
    const tframe *f;
    rowpat *pt;
    size_t *left, *queue, *vstart, *veq;
    bool *done, *used;
    size_t qh, qt, steps, low;
} peel_st;

/* Is the entry in the lead block (dq = Hf)? */
static inline bool peel_lead(const tframe *f, const tentry *en)
{
    return en->dq == (int64_t)f->Hf;
}

/* The variable -> equations index of the lead entries (vstart, veq) and
 * each equation's count of them (left); false when out of memory. */
static bool peel_index(peel_st *ps)
{
    const tframe *f = ps->f;
    const rowpat *pt = ps->pt;
    size_t C = f->C, nlead = 0;
    for (size_t e = 0; e < C; e++)
        for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++)
            if (peel_lead(f, &pt->ent[t])) {
                ps->left[e]++;
                ps->vstart[pt->ent[t].col + 1]++;
                nlead++;
            }
    if (!(ps->veq = toggle__malloc_array(nlead ? nlead : 1, sizeof *ps->veq)))
        return false;
    for (size_t v = 0; v < C; v++)
        ps->vstart[v + 1] += ps->vstart[v];
    size_t *fill = ps->queue; /* the queue is a cursor array until the peeling */
    memcpy(fill, ps->vstart, C * sizeof *fill);
    for (size_t e = 0; e < C; e++)
        for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++)
            if (peel_lead(f, &pt->ent[t]))
                ps->veq[fill[pt->ent[t].col]++] = e;
    return true;
}

/* var is solved: each equation it leaves with one unsolved variable joins
 * the queue. */
static inline void peel_release(peel_st *ps, size_t var)
{
    for (size_t t = ps->vstart[var]; t < ps->vstart[var + 1]; t++) {
        size_t e2 = ps->veq[t];
        if (ps->left[e2] && --ps->left[e2] == 1)
            ps->queue[ps->qt++] = e2;
    }
}

/* The queue is empty: the lowest unsolved column becomes a new unknown (a
 * step without equation). */
static void peel_promote(peel_st *ps)
{
    rowpat *pt = ps->pt;
    while (ps->low < ps->f->C && ps->done[ps->low])
        ps->low++;
    size_t var = ps->low;
    ps->done[var] = true;
    pt->peq[ps->steps] = SIZE_MAX;
    pt->pvar[ps->steps] = var;
    pt->pinv[ps->steps++] = 1;
    pt->npro++;
    peel_release(ps, var);
}

/* Equation e, with one unsolved variable, solves it; false when its
 * weight there has no inverse mod p. */
static bool peel_take(peel_st *ps, size_t e)
{
    const tframe *f = ps->f;
    rowpat *pt = ps->pt;
    size_t var = SIZE_MAX;
    uint64_t w = 0;
    for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++)
        if (peel_lead(f, &pt->ent[t]) && !ps->done[pt->ent[t].col]) {
            var = pt->ent[t].col;
            w = (w + pt->ent[t].w) % f->p;
        }
    uint64_t inv = w ? toggle__invmod(w, f->p) : 0;
    if (var == SIZE_MAX || !inv)
        return false;
    ps->done[var] = true;
    ps->used[e] = true;
    pt->peq[ps->steps] = e;
    pt->pvar[ps->steps] = var;
    pt->pinv[ps->steps++] = inv;
    ps->left[e] = 0;
    peel_release(ps, var);
    return true;
}

/* The peeling proper: C steps, each a taken equation or a promotion. */
static bool peel_run(peel_st *ps)
{
    size_t C = ps->f->C;
    for (size_t e = 0; e < C; e++)
        if (ps->left[e] == 1)
            ps->queue[ps->qt++] = e;
    while (ps->steps < C) {
        if (ps->qh == ps->qt) {
            peel_promote(ps);
            continue;
        }
        size_t e = ps->queue[ps->qh++];
        if (ps->left[e] != 1)
            continue; /* all its variables solved by others: left over */
        if (!peel_take(ps, e))
            return false;
    }
    return true;
}

/* Peel the lead block (entries at dq = Hf): repeatedly take an equation
 * with exactly one unsolved variable of unit weight; when none is left and
 * variables are unsolved, promote the lowest unsolved column to a new
 * unknown (a program step without equation) and go on. The equations never
 * taken are left over (pt->lefto, as many as promotions): their rows are
 * fully known once the row is chased, and they join the small system. */
static bool peel(const tframe *f, rowpat *pt, bool *oom)
{
    size_t C = f->C;
    peel_st ps = {.f = f, .pt = pt};
    ps.left = toggle__calloc(C, sizeof *ps.left);
    ps.queue = toggle__malloc_array(C, sizeof *ps.queue);
    ps.done = toggle__calloc(C, sizeof *ps.done);
    ps.vstart = toggle__calloc(C + 1, sizeof *ps.vstart);
    bool ok = ps.left && ps.queue && ps.done && ps.vstart && peel_index(&ps);
    if (ok && !(ps.used = toggle__calloc(C, sizeof *ps.used)))
        ok = false;
    if (!ok)
        *oom = true;
    pt->npro = 0;
    ok = ok && peel_run(&ps);
    for (size_t e = 0, n = 0; ok && e < C; e++)
        if (!ps.used[e])
            pt->lefto[n++] = e;
    toggle__free(ps.used);
    toggle__free(ps.left);
    toggle__free(ps.queue);
    toggle__free(ps.done);
    toggle__free(ps.vstart);
    toggle__free(ps.veq);
    return ok;
}

/* Can a press's cells be read from the stencil without merging: a grid or
 * stencil graph whose offsets of one parity reach distinct cells (after
 * the wraps) on every board cell? Then pat_press gives the column. */
#define PAT_DIRECT_MAX 64
static bool stencil_distinct(const toggle_graph *g)
{
    if (g->kind == TOGGLE_KIND_MATRIX || g->nst > PAT_DIRECT_MAX)
        return false;
    bool wr = g->flags & TOGGLE_GRID_TORUS, wc = g->flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER);
    for (size_t q = 0; q < g->npar; q++)
        for (size_t s = q * g->nst; s < (q + 1) * g->nst; s++)
            for (size_t t = s + 1; t < (q + 1) * g->nst; t++) {
                int64_t a = g->dr[s] - g->dr[t], b = g->dc[s] - g->dc[t];
                if ((wr ? a % (int64_t)g->rows == 0 : a == 0) && (wc ? b % (int64_t)g->cols == 0 : b == 0))
                    return false;
            }
    return true;
}

/* One index into [0, n) across a wrap. */
static inline int64_t pat_wrap(int64_t x, size_t n)
{
    if (x >= 0 && x < (int64_t)n)
        return x;
    x %= (int64_t)n;
    return x < 0 ? x + (int64_t)n : x;
}

/* The cells that the press at frame (q, jj) changes in frame row r, from the
 * stencil (stencil_distinct): their frame columns into col, the weights
 * into w (at most nst); the count. The offsets' parity as in the graph's
 * column (toggle__graph_column): hex by the press's board row, tri by the
 * sum of its row and column. */
static size_t pat_press(const tframe *f, size_t r, size_t q, size_t jj, size_t *col, uint64_t *w)
{
    const toggle_graph *g = f->g;
    size_t rr = f->rev ? f->R - 1 - q : q, n = 0;
    int64_t br = (int64_t)(f->tr ? jj : rr), bc = (int64_t)(f->tr ? rr : jj);
    bool wr = g->flags & TOGGLE_GRID_TORUS, wc = g->flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER);
    size_t base = 0;
    if (g->kind == TOGGLE_KIND_GRID && (g->flags & TOGGLE_GRID_HEX))
        base = (size_t)(br & 1) * g->nst;
    else if (g->kind == TOGGLE_KIND_GRID && (g->flags & TOGGLE_GRID_TRI))
        base = (size_t)((br + bc) & 1) * g->nst;
    /* frame row r as a board row (or column) */
    int64_t want = (int64_t)(f->rev ? f->R - 1 - r : r);
    for (size_t s = base; s < base + g->nst; s++) {
        int64_t tr = br + g->dr[s], tc = bc + g->dc[s];
        if (wr)
            tr = pat_wrap(tr, g->rows);
        else if (tr < 0 || tr >= (int64_t)g->rows)
            continue;
        if (wc)
            tc = pat_wrap(tc, g->cols);
        else if (tc < 0 || tc >= (int64_t)g->cols)
            continue;
        if ((f->tr ? tc : tr) != want)
            continue;
        col[n] = (size_t)(f->tr ? tr : tc);
        w[n++] = g->w[s];
    }
    return n;
}

/* The column walk's state (toggle__tr_pat_build): the presses of frame rows
 * lo .. hi, their entries in frame row r counted per equation (pass 0, and
 * kept in list when it fits) or placed at the cursors fill (pass 1). */
typedef struct {
    tframe *f;
    rowpat *pt;
    size_t r;
    int64_t lo, hi;
    bool direct; /* the presses read from the stencil (stencil_distinct) */
    struct pat_lentry {
        size_t fj;
        tentry e;
    } *list;
    size_t nl;
    size_t *fill;
} pat_walk;

#define PAT_INLINE static inline __attribute__((always_inline))

/* Board cell's frame column into *fj when it lies in frame row r; pr is
 * the press's board row, a few rows from the cell, so the cell's row is
 * found without a division. */
PAT_INLINE bool pat_cell_col(const tframe *f, size_t r, size_t pr, size_t cell, size_t *fj)
{
    size_t cols = f->g->cols, br = pr, rs = pr * cols;
    if (cell + 4 * cols < rs || cell >= rs + 5 * cols)
        br = cell / cols, rs = br * cols;
    while (cell < rs)
        br--, rs -= cols;
    while (cell >= rs + cols)
        br++, rs += cols;
    size_t bc = cell - rs;
    size_t fr = f->tr ? bc : br;
    *fj = f->tr ? br : bc;
    if (f->rev)
        fr = f->R - 1 - fr;
    return fr == r;
}

/* An entry of equation fj: counted (pass 0, kept in the list when there
 * is one) or placed at its cursor (pass 1). */
PAT_INLINE void pat_put(pat_walk *w, int pass, size_t fj, tentry en)
{
    if (pass) {
        w->pt->ent[w->fill[fj]++] = en;
        return;
    }
    w->pt->start[fj + 1]++;
    if (w->list) {
        w->list[w->nl].fj = fj;
        w->list[w->nl++].e = en;
    }
}

/* The entries of the press at frame (q, jj) in frame row r. */
PAT_INLINE void pat_press_entries(pat_walk *w, int pass, int64_t q, size_t jj)
{
    tframe *f = w->f;
    size_t r = w->r;
    /* the press's cells in frame row r: (frame column, weight) */
    size_t c = w->direct ? pat_press(f, r, (size_t)q, jj, f->cb.idx, f->cb.val)
                         : toggle__graph_column(f->g, frame_cell(f, (size_t)q, jj), f->cb.idx,
                                                f->cb.val);
    size_t pr = f->tr ? jj : f->rev ? f->R - 1 - (size_t)q : (size_t)q;
    for (size_t t = 0; t < c; t++) {
        size_t fj = f->cb.idx[t];
        if (!w->direct && !pat_cell_col(f, r, pr, f->cb.idx[t], &fj))
            continue;
        uint64_t wt = f->cb.val[t] < f->p ? f->cb.val[t] : f->cb.val[t] % f->p;
        if (!wt)
            continue;
        tentry en = {q - (int64_t)r, jj, wt};
        pat_put(w, pass, fj, en);
    }
}

/* One walk over the presses of frame rows lo .. hi (each row once: R >
 * Hf + Hb when chasing, so q0 - lo < R). */
static void pat_walk_pass(pat_walk *w, int pass)
{
    const tframe *f = w->f;
    for (int64_t q0 = w->lo; q0 <= w->hi; q0++) {
        int64_t q = q0;
        if (f->wrap)
            q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
        else if (q < 0 || q >= (int64_t)f->R)
            continue;
        for (size_t jj = 0; jj < f->C; jj++)
            pat_press_entries(w, pass, q, jj);
    }
}

/* The counts in start into offsets, ent allocated for their total (*cap)
 * and the cursors fill at each equation's start. */
static int pat_place_init(const tframe *f, rowpat *pt, size_t *fill, size_t *cap)
{
    size_t C = f->C;
    for (size_t j = 0; j < C; j++)
        pt->start[j + 1] += pt->start[j];
    *cap = pt->start[C];
    if (!(pt->ent = toggle__malloc_array(*cap ? *cap : 1, sizeof *pt->ent)))
        return TOGGLE_ENOMEM;
    memcpy(fill, pt->start, C * sizeof *fill);
    return TOGGLE_OK;
}

/* The entries of frame row r's equations (start, ent; *cap of them): one
 * walk over the columns into a list (equation, entry), then the entries by
 * equation in the walk's order; a list of more than PAT_LIST_MAX entries
 * is not kept, and a second walk places them. */
static int pat_entries(tframe *f, size_t r, rowpat *pt, size_t *cap)
{
    /* a cursor per equation: peq, which peel fills later */
    pat_walk w = {.f = f, .pt = pt, .r = r, .fill = pt->peq};
    /* presses q in [r - Hb, r + Hf] (all rows when every row is unknown) */
    w.lo = f->all ? 0 : (int64_t)r - (int64_t)f->Hb;
    w.hi = f->all ? (int64_t)f->R - 1 : (int64_t)r + (int64_t)f->Hf;
    size_t span = (size_t)(w.hi - w.lo + 1) < f->R ? (size_t)(w.hi - w.lo + 1) : f->R;
    size_t bound = span * f->C * toggle__graph_max_column(f->g);
    if (bound <= PAT_LIST_MAX && !(w.list = toggle__malloc_array(bound + 1, sizeof *w.list)))
        return TOGGLE_ENOMEM;
    w.direct = stencil_distinct(f->g);
    pat_walk_pass(&w, 0);
    int rc = pat_place_init(f, pt, w.fill, cap);
    if (!rc && w.list) {
        for (size_t i = 0; i < w.nl; i++)
            pt->ent[w.fill[w.list[i].fj]++] = w.list[i].e;
    } else if (!rc) {
        pat_walk_pass(&w, 1);
    }
    toggle__free(w.list);
    return rc;
}

/* The program compiled to terms by row slot (pstart, pterm; cap bounds
 * their count): each step's equation without its solved variable. */
static int pat_compile(const tframe *f, rowpat *pt, size_t cap)
{
    size_t C = f->C;
    pt->pstart = toggle__malloc_array(C + 1, sizeof *pt->pstart);
    pt->pterm = toggle__malloc_array(cap ? cap : 1, sizeof *pt->pterm);
    if (!pt->pstart || !pt->pterm)
        return TOGGLE_ENOMEM;
    size_t n = 0;
    for (size_t t = 0; t < C; t++) {
        size_t e = pt->peq[t], var = pt->pvar[t];
        pt->pstart[t] = n;
        if (e == SIZE_MAX)
            continue; /* a promotion: no terms */
        for (size_t u = pt->start[e]; u < pt->start[e + 1]; u++) {
            const tentry *en = &pt->ent[u];
            if (en->dq == (int64_t)f->Hf && en->col == var)
                continue;
            /* across a wrap dq was taken mod R: back to [-Hb, Hf] */
            int64_t d = en->dq + (int64_t)f->Hb;
            if (f->wrap)
                d %= (int64_t)f->R;
            pt->pterm[n].slot = (size_t)d;
            pt->pterm[n].col = en->col;
            pt->pterm[n++].w = en->w;
        }
    }
    pt->pstart[C] = n;
    return TOGGLE_OK;
}

/* Build the pattern of frame row r's class from the graph's columns. */
int toggle__tr_pat_build(tframe *f, size_t r, rowpat *pt)
{
    size_t C = f->C, cap = 0;
    pt->start = toggle__calloc(C + 1, sizeof *pt->start);
    pt->peq = toggle__malloc_array(C, sizeof *pt->peq);
    pt->pvar = toggle__malloc_array(C, sizeof *pt->pvar);
    pt->pinv = toggle__malloc_array(C, sizeof *pt->pinv);
    pt->lefto = toggle__malloc_array(C, sizeof *pt->lefto);
    if (!pt->start || !pt->peq || !pt->pvar || !pt->pinv || !pt->lefto)
        return TOGGLE_ENOMEM;
    int rc = pat_entries(f, r, pt, &cap);
    if (rc)
        return rc;
    bool oom = false;
    pt->peels = f->all || peel(f, pt, &oom);
    if (oom)
        return TOGGLE_ENOMEM;
    if (pt->peels && !f->all && (rc = pat_compile(f, pt, cap)))
        return rc;
    pt->built = true;
    return TOGGLE_OK;
}
