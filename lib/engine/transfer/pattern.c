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

/* Peel the lead block (entries at dq = Hf): repeatedly take an equation
 * with exactly one unsolved variable of unit weight; when none is left and
 * variables are unsolved, promote the lowest unsolved column to a new
 * unknown (a program step without equation) and go on. The equations never
 * taken are left over (pt->lefto, as many as promotions): their rows are
 * fully known once the row is chased, and they join the small system. */
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
    size_t qh = 0, qt = 0, steps = 0, low = 0;
    bool *used = ok ? toggle__calloc(C, sizeof *used) : NULL;
    if (ok && !used)
        ok = false, *oom = true;
    for (size_t e = 0; ok && e < C; e++)
        if (left[e] == 1)
            queue[qt++] = e;
    pt->npro = 0;
    while (ok && steps < C) {
        if (qh == qt) {
            /* the queue is empty: promote the lowest unsolved column */
            while (low < C && done[low])
                low++;
            size_t var = low;
            done[var] = true;
            pt->peq[steps] = SIZE_MAX;
            pt->pvar[steps] = var;
            pt->pinv[steps++] = 1;
            pt->npro++;
            for (size_t t = vstart[var]; t < vstart[var + 1]; t++) {
                size_t e2 = veq[t];
                if (left[e2] && --left[e2] == 1)
                    queue[qt++] = e2;
            }
            continue;
        }
        size_t e = queue[qh++], var = SIZE_MAX;
        uint64_t w = 0;
        if (left[e] != 1)
            continue; /* all its variables solved by others: left over */
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
        used[e] = true;
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
    for (size_t e = 0, n = 0; ok && e < C; e++)
        if (!used[e])
            pt->lefto[n++] = e;
    toggle__free(used);
    toggle__free(left);
    toggle__free(queue);
    toggle__free(done);
    toggle__free(vstart);
    toggle__free(veq);
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
    /* presses q in [r - Hb, r + Hf] (all rows when every row is unknown) */
    int64_t lo = f->all ? 0 : (int64_t)r - (int64_t)f->Hb;
    int64_t hi = f->all ? (int64_t)f->R - 1 : (int64_t)r + (int64_t)f->Hf;
    /* one walk over the columns into a list (equation, entry), then the
     * entries by equation (in the walk's order); a list of more than
     * PAT_LIST_MAX entries is not kept: a second walk places them */
    size_t span = (size_t)(hi - lo + 1) < f->R ? (size_t)(hi - lo + 1) : f->R, nl = 0;
    size_t bound = span * C * toggle__graph_max_column(f->g);
    struct lentry {
        size_t fj;
        tentry e;
    } *list = bound <= PAT_LIST_MAX ? toggle__malloc_array(bound + 1, sizeof *list) : NULL;
    if (bound <= PAT_LIST_MAX && !list)
        return TOGGLE_ENOMEM;
    size_t *fill = pt->peq; /* a cursor per equation (peq is filled by peel) */
    bool direct = stencil_distinct(f->g);
    for (int pass = 0; pass < (list ? 1 : 2); pass++) {
        if (pass == 1) {
            for (size_t j = 0; j < C; j++)
                pt->start[j + 1] += pt->start[j];
            cap = pt->start[C];
            if (!(pt->ent = toggle__malloc_array(cap ? cap : 1, sizeof *pt->ent)))
                return TOGGLE_ENOMEM;
            memcpy(fill, pt->start, C * sizeof *fill);
        }
        for (int64_t q0 = lo; q0 <= hi; q0++) {
            int64_t q = q0;
            if (f->wrap)
                q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
            else if (q < 0 || q >= (int64_t)f->R)
                continue;
            /* (q0 - lo < R: each row once, since R > Hf + Hb when chasing) */
            size_t cols = f->g->cols;
            for (size_t jj = 0; jj < C; jj++) {
                /* the press's cells in frame row r: (frame column, weight) */
                size_t c = direct ? pat_press(f, r, (size_t)q, jj, f->cb.idx, f->cb.val)
                                  : toggle__graph_column(f->g, frame_cell(f, (size_t)q, jj),
                                                         f->cb.idx, f->cb.val);
                /* the cell's board row from the press's, without a division
                 * (the neighbours are a few rows away) */
                size_t pr = f->tr ? jj : f->rev ? f->R - 1 - (size_t)q : (size_t)q;
                for (size_t t = 0; t < c; t++) {
                    size_t fj = f->cb.idx[t];
                    if (!direct) {
                        size_t cell = f->cb.idx[t], br = pr, rs = pr * cols;
                        if (cell + 4 * cols < rs || cell >= rs + 5 * cols)
                            br = cell / cols, rs = br * cols;
                        while (cell < rs)
                            br--, rs -= cols;
                        while (cell >= rs + cols)
                            br++, rs += cols;
                        size_t bc = cell - rs;
                        size_t fr = f->tr ? bc : br;
                        fj = f->tr ? br : bc;
                        if (f->rev)
                            fr = f->R - 1 - fr;
                        if (fr != r)
                            continue;
                    }
                    uint64_t w = f->cb.val[t] < f->p ? f->cb.val[t] : f->cb.val[t] % f->p;
                    if (!w)
                        continue;
                    tentry en = {q - (int64_t)r, jj, w};
                    if (pass) {
                        pt->ent[fill[fj]++] = en;
                        continue;
                    }
                    pt->start[fj + 1]++;
                    if (list) {
                        list[nl].fj = fj;
                        list[nl++].e = en;
                    }
                }
            }
        }
    }
    if (list) {
        for (size_t j = 0; j < C; j++)
            pt->start[j + 1] += pt->start[j];
        cap = pt->start[C];
        pt->ent = toggle__malloc_array(cap ? cap : 1, sizeof *pt->ent);
        if (!pt->ent) {
            toggle__free(list);
            return TOGGLE_ENOMEM;
        }
        memcpy(fill, pt->start, C * sizeof *fill);
        for (size_t i = 0; i < nl; i++)
            pt->ent[fill[list[i].fj]++] = list[i].e;
        toggle__free(list);
    }
    bool oom = false;
    pt->peels = f->all || peel(f, pt, &oom);
    if (oom)
        return TOGGLE_ENOMEM;
    if (pt->peels && !f->all) {
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
    }
    pt->built = true;
    return TOGGLE_OK;
}
