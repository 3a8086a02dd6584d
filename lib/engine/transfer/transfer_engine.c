/* The transfer engine (TOGGLE_ENGINE_TRANSFER): light chasing generalised to
 * every grid (square, hex and tri lattices, Moore, torus and cylinder) and
 * every stencil over a prime modulus, with the canonical answers of full
 * elimination (composite k: composite.c, the Howell engine's answers, through
 * the hooks at the end of this file). docs/transfer.md has the method and
 * the proofs:
 *
 * - the frame: board rows (or board columns, "transposed") of C cells; the
 *   equations of frame row r involve press rows r - Hb .. r + Hf, and the
 *   lead block B_r (offset +Hf) is solved by a substitution program found
 *   by peeling (each step an equation with one unknown of unit weight;
 *   when the peeling stalls, a variable is promoted to a new unknown and
 *   the equations left over join the small system: Moore);
 * - unknowns: the first Hf rows (and, across a wrap, the last Hb rows too);
 *   every other row follows from them; the last rows' equations are the
 *   small system E u = -e0, built by one chase with one lane per unknown
 *   (packed bits for F_2) and solved by the engines on a dense system;
 * - the particular solution and the kernel basis are chased from the
 *   small system's answers (one lane each) and brought to the canonical
 *   form by a reverse echelon of the kernel basis: the free columns of the
 *   full RREF are the last nonzero positions of kernel vectors. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/flint/poly.h"
#include "engine/gf2/gf2.h"
#include "linalg/fp/rref.h"
#include "engine/transfer/kron.h"
#include "engine/transfer/ring.h"
#include "engine/transfer/s3.h"
#include "engine/transfer/tri.h"
#include "transfer.h"

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
    /* the program compiled from the substitution (chasing rows only): step
     * t reads the terms pterm[pstart[t] .. pstart[t + 1]) (every entry of
     * its equation but the solved variable's), row slot dq + Hb */
    size_t *pstart;
    struct pterm {
        size_t slot, col;
        uint64_t w;
    } *pterm;
    /* F_2 with B = I ("sliced": cells packed 64 to a word, one lane at a
     * time): the pattern as nst terms, term i adding mask i AND the row at
     * slot sterm[i].slot rotated by sterm[i].rot (cell e reads cell e + rot
     * mod C); smask holds nst masks of (C + 63) / 64 words */
    struct sterm {
        size_t slot, rot;
        bool lead;
    } *sterm;
    uint64_t *smask;
    /* p = 3: smask holds the cells of weight 1, smask2 those of weight 2 */
    uint64_t *smask2;
    size_t nst;
    /* promotions: npro steps of the program solve no equation (peq[t] ==
     * SIZE_MAX): their variable is a new unknown; the npro equations the
     * program leaves over (lefto) become rows of the small system */
    size_t npro;
    size_t *lefto;
    /* the hex recurrence (rec_class): 0 not checked, -1 not of that form,
     * 1 solved by ascending columns, 2 by descending ones; rself the
     * weight of a cell on itself */
    int rec;
    uint64_t rself;
    int p3ok;       /* row_p3_ok: 0 not checked, 1 yes, -1 no (row_p3_once) */
    bool built, peels;
} rowpat;

typedef struct toggle__tframe {
    const toggle_graph *g;
    uint64_t p;
    bool tr;        /* frame rows are board columns */
    bool rev;       /* frame row r is board row R - 1 - r (chased from the end) */
    bool wrap;      /* frame rows wrap (the last touches the first) */
    size_t R, C;    /* frame rows, cells per frame row */
    size_t Hf, Hb;  /* forward and backward reach of the equations */
    size_t HH;      /* class radius */
    bool all;       /* every row is an unknown (no chase) */
    size_t nuk;     /* unknown rows */
    size_t nx;      /* promoted unknowns of the chasing rows (= their left-over equations) */
    size_t m;       /* the small system's unknowns: nuk C + nx */
    size_t ncls;
    rowpat *cls;
    toggle__colbuf cb;
    int sliced;     /* 0 not decided, 1 the sliced F_2 chase serves, -1 not */
    int rec;        /* 0 not decided, 1 every chasing row is a hex recurrence, -1 not */
    int s3;         /* 0 the bit-sliced F_3 chase may serve the small system, -1 not (plain) */
    bool notri;     /* the tri step off (the row programs, for the tests) */
} tframe;

static size_t frame_cell(const tframe *f, size_t r, size_t j)
{
    size_t rr = f->rev ? f->R - 1 - r : r;
    return f->tr ? j * f->g->cols + rr : rr * f->g->cols + j;
}

static size_t class_of(const tframe *f, size_t r)
{
    size_t par = (f->g->kind == TOGGLE_KIND_GRID && f->g->npar == 2) ? (r & 1) : 0;
    size_t top = r < f->HH ? r : f->HH, bot = f->R - 1 - r < f->HH ? f->R - 1 - r : f->HH;
    /* across a wrap no row is near an edge: one class (per parity, when
     * the parities alternate all the way round) */
    if (f->wrap && (f->g->npar == 1 || f->R % 2 == 0))
        top = bot = f->HH;
    return (par * (f->HH + 1) + top) * (f->HH + 1) + bot;
}

static void pat_clear(rowpat *pt)
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

/* Entries of a class build's list at most (32 bytes each). */
#define PAT_LIST_MAX 65536

/* Build the pattern of frame row r's class from the graph's columns. */
static int pat_build(tframe *f, size_t r, rowpat *pt)
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

/* Set up the frame on one axis, its rows in board order or reversed (rev);
 * false (silent) when that axis cannot be chased. Leaves f cleared on false.
 * With promo, false with *promo set at the first class that promotes (the
 * caller wants an axis without promotions first). */
static bool frame_setup_dir(const toggle_system *s, bool tr, bool rev, tframe *f, bool *oom,
                            bool *promo)
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
    f->rev = rev;
    if (rev) { /* reversed rows: the offsets change sign */
        int64_t t = emin;
        emin = -emax;
        emax = -t;
    }
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
        if (rc || !pt->peels || (promo && pt->npro)) {
            *oom = *oom || rc;
            if (promo && !rc && pt->peels)
                *promo = true;
            frame_clear(f);
            return false;
        }
        if (r == f->HH && nchase > 2 * f->HH + 2)
            r = nchase - f->HH - 2; /* the interior classes are met already */
    }
    /* the promoted unknowns, one per promotion of every chasing row */
    for (size_t r = 0; r < nchase; r++)
        f->nx += f->cls[class_of(f, r)].npro;
    f->m = f->nuk * f->C + f->nx;
    return true;
}

static bool frame_setup(const toggle_system *s, bool tr, tframe *f, bool *oom)
{
    return frame_setup_dir(s, tr, false, f, oom, NULL);
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

/* Narrow lanes: a cell's L lanes are packed `per` to a word, lw bits each
 * (1 for F_2; for odd p the narrowest of 4, 8, 16, 32 with p <= 2^(lw-1),
 * else one 64-bit word per lane). Odd p adds and subtracts a word's fields
 * at once without carries between them: s = a + b < 2p per field, and the
 * field's top bit of s + 2^(lw-1) - p says s >= p (docs/transfer.md). */
typedef struct {
    unsigned lw;     /* bits per lane */
    size_t per;      /* lanes per word */
    uint64_t fmask;  /* one field's mask */
    uint64_t hi;     /* the top bit of every field */
    uint64_t kk;     /* 2^(lw-1) - p in every field */
    uint64_t pb;     /* p in every field */
} lanefmt;

static unsigned lane_bits(uint64_t p)
{
    if (p == 2)
        return 1;
    for (unsigned lw = 4; lw <= 32; lw *= 2)
        if (p <= (uint64_t)1 << (lw - 1))
            return lw;
    return 64;
}

static void lanefmt_init(lanefmt *lf, uint64_t p)
{
    memset(lf, 0, sizeof *lf);
    lf->lw = lane_bits(p);
    lf->per = 64 / lf->lw;
    lf->fmask = lf->lw == 64 ? ~(uint64_t)0 : ((uint64_t)1 << lf->lw) - 1;
    if (lf->lw == 1 || lf->lw == 64)
        return;
    for (size_t i = 0; i < lf->per; i++) {
        unsigned sh = (unsigned)(i * lf->lw);
        lf->hi |= (uint64_t)1 << (sh + lf->lw - 1);
        lf->kk |= (((uint64_t)1 << (lf->lw - 1)) - p) << sh;
        lf->pb |= p << sh;
    }
}

/* Words per cell of L lanes. */
static size_t lane_words(uint64_t p, size_t L)
{
    size_t per = 64 / lane_bits(p), nw = (L + per - 1) / per;
    /* past one cache line, whole lines: the row kernels' loads stay aligned */
    return nw > 8 ? (nw + 7) & ~(size_t)7 : nw ? nw : 1;
}

/* Fields of s (each < 2p) reduced mod p. */
static inline uint64_t swar_reduce(const lanefmt *lf, uint64_t s)
{
    uint64_t t = ((s + lf->kk) & lf->hi) >> (lf->lw - 1);
    return s - (((t << lf->lw) - t) & lf->pb);
}

/* Field-wise w * a mod p (w < p). */
static uint64_t swar_mul(const lanefmt *lf, uint64_t a, uint64_t w, uint64_t p)
{
    uint64_t o = 0;
    for (size_t i = 0; i < lf->per; i++) {
        unsigned sh = (unsigned)(i * lf->lw);
        o |= toggle__mulmod((a >> sh) & lf->fmask, w, p) << sh;
    }
    return o;
}

typedef struct {
    const tframe *f;
    size_t L, nw;            /* lanes, words per cell */
    lanefmt lf;
    size_t blane;            /* the lane that carries b */
    uint64_t *saved;         /* nuk rows: the unknown rows' cells */
    uint64_t *xsaved;        /* nx cells: the promoted unknowns, in chase order */
    uint64_t *ring;          /* ring of Hf + Hb + 1 computed rows */
    size_t nring;
    uint64_t *acc;           /* one cell */
    void *mem;               /* saved and ring, each on a cache line */
} lanes;

static uint64_t *row_ptr(lanes *ln, size_t r)
{
    size_t u = unknown_slot(ln->f, r), rowwords = ln->f->C * ln->nw;
    if (u != SIZE_MAX)
        return ln->saved + u * rowwords;
    return ln->ring + (r % ln->nring) * rowwords;
}

/* acc -= w * x over the lanes. */
static inline void lane_axpy(const lanes *ln, uint64_t *acc, const uint64_t *x, uint64_t w)
{
    size_t nw = ln->nw;
    uint64_t p = ln->f->p;
    const lanefmt *lf = &ln->lf;
    if (p == 2) {
        if (w & 1)
            for (size_t i = 0; i < nw; i++)
                acc[i] ^= x[i];
    } else if (lf->lw < 64) {
        if (w == 1)
            for (size_t i = 0; i < nw; i++)
                acc[i] = swar_reduce(lf, acc[i] + (lf->pb - x[i]));
        else if (w == p - 1)
            for (size_t i = 0; i < nw; i++)
                acc[i] = swar_reduce(lf, acc[i] + x[i]);
        else
            for (size_t i = 0; i < nw; i++)
                acc[i] = swar_reduce(lf, acc[i] + (lf->pb - swar_mul(lf, x[i], w, p)));
    } else if (w == 1) {
        for (size_t i = 0; i < nw; i++)
            acc[i] = toggle__submod(acc[i], x[i], p);
    } else if (w == p - 1) {
        for (size_t i = 0; i < nw; i++)
            acc[i] = toggle__addmod(acc[i], x[i], p);
    } else {
        for (size_t i = 0; i < nw; i++)
            acc[i] = toggle__submod(acc[i], toggle__mulmod(w, x[i], p), p);
    }
}

/* acc = w * acc over the lanes (odd p). */
static inline void lane_scale(const lanes *ln, uint64_t *acc, uint64_t w)
{
    for (size_t i = 0; i < ln->nw; i++)
        acc[i] = ln->lf.lw < 64 ? swar_mul(&ln->lf, acc[i], w, ln->f->p)
                                : toggle__mulmod(acc[i], w, ln->f->p);
}

static inline uint64_t lane_get(const lanes *ln, const uint64_t *cell, size_t l)
{
    const lanefmt *lf = &ln->lf;
    return (cell[l / lf->per] >> ((l % lf->per) * lf->lw)) & lf->fmask;
}

/* Lane l of cell := v (the lane is 0 before). */
static inline void lane_set(const lanes *ln, uint64_t *cell, size_t l, uint64_t v)
{
    const lanefmt *lf = &ln->lf;
    cell[l / lf->per] |= (v & lf->fmask) << ((l % lf->per) * lf->lw);
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
        lane_set(ln, ln->acc, ln->blane, bv);
    }
    for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++) {
        const tentry *en = &pt->ent[t];
        if (skip_lead && en->dq == (int64_t)f->Hf)
            continue;
        int64_t q = (int64_t)r + en->dq;
        if (f->wrap)
            q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
        lane_axpy(ln, ln->acc, row_ptr(ln, (size_t)q) + en->col * nw, en->w);
    }
}

/* A computed row: cell-major (row: C cells of nw words) or, from the
 * sliced chase, lane-major (lrow: L lanes of C bits, lstride words apart;
 * F_3: lane l's lo plane at lrow + l lstride, its hi plane lstride / 2
 * words after it; bits past C are not the row's); the other pointer is
 * NULL. */
typedef void (*row_sink)(void *ctx, const lanes *ln, size_t r, const uint64_t *row,
                         const uint64_t *lrow, size_t lstride);

/* Lane l's value at cell j of a lane-major row (the sinks' reader). */
static inline uint64_t lrow_get(const lanes *ln, const uint64_t *lrow, size_t lstride, size_t l,
                                size_t j)
{
    const uint64_t *v = lrow + l * lstride;
    uint64_t lo = (v[j >> 6] >> (j & 63)) & 1;
    return ln->f->p == 2 ? lo : lo | ((v[lstride / 2 + (j >> 6)] >> (j & 63)) & 1) << 1;
}

/* ---- the sliced chase (lead block B = I), F_2 and F_3 ---------------------- */

#define SLICED_MAX_TERMS 64
#define SLICED_MAX_LANES 128
/* F_3: up to this many lanes (beyond, the cell-major kernels' words of 16
 * lanes a cell win) */
#define SLICED3_MAX_LANES 16

/* The terms of pt (every class of f); false when some chasing row's lead
 * block is not the identity or there are too many terms. A term's weight
 * on a cell is the sum of its entries' weights mod p (F_2: the mask's bit;
 * F_3: the bit of smask for 1, of smask2 for 2). */
static bool sliced_build(const tframe *f, rowpat *pt, bool chasing)
{
    size_t C = f->C, CW = (C + 63) / 64, n = 0;
    pt->sterm = toggle__malloc_array(SLICED_MAX_TERMS, sizeof *pt->sterm);
    pt->smask = toggle__calloc(SLICED_MAX_TERMS * CW, sizeof *pt->smask);
    if (f->p == 3)
        pt->smask2 = toggle__calloc(SLICED_MAX_TERMS * CW, sizeof *pt->smask2);
    if (!pt->sterm || !pt->smask || (f->p == 3 && !pt->smask2))
        return false;
    for (size_t e = 0; e < C; e++)
        for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++) {
            const tentry *en = &pt->ent[t];
            if (!(en->w % f->p))
                continue;
            int64_t d = en->dq + (int64_t)f->Hb;
            if (f->wrap)
                d = ((d % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
            if (d < 0 || d > (int64_t)(f->Hf + f->Hb))
                return false;
            size_t rot = (en->col + C - e) % C, i = 0;
            while (i < n && (pt->sterm[i].slot != (size_t)d || pt->sterm[i].rot != rot))
                i++;
            if (i == n) {
                if (n == SLICED_MAX_TERMS)
                    return false;
                pt->sterm[n].slot = (size_t)d;
                pt->sterm[n].rot = rot;
                pt->sterm[n++].lead = false;
            }
            uint64_t bit = (uint64_t)1 << (e & 63), *m1 = pt->smask + i * CW + (e >> 6);
            if (f->p == 2) {
                *m1 ^= bit;
            } else {
                uint64_t *m2 = pt->smask2 + i * CW + (e >> 6);
                uint64_t w = ((*m1 & bit) ? 1 : (*m2 & bit) ? 2 : 0) + en->w % 3;
                *m1 = (w % 3 == 1) ? *m1 | bit : *m1 & ~bit;
                *m2 = (w % 3 == 2) ? *m2 | bit : *m2 & ~bit;
            }
        }
    pt->nst = n;
    if (!chasing)
        return true;
    /* B = I: the lead slot has exactly the term rot 0 on every cell */
    size_t lead = f->Hf + f->Hb;
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        if (pt->sterm[i].slot != lead)
            continue;
        const uint64_t *mk = pt->smask + i * CW, *m2 = pt->smask2 ? pt->smask2 + i * CW : NULL;
        bool zero = true, ones = true;
        for (size_t q = 0; q < CW; q++) {
            uint64_t full = (q + 1 < CW || !(C & 63)) ? ~(uint64_t)0
                                                      : ((uint64_t)1 << (C & 63)) - 1;
            zero = zero && !mk[q] && !(m2 && m2[q]);
            ones = ones && mk[q] == full && !(m2 && m2[q]);
        }
        if (zero)
            continue;
        if (pt->sterm[i].rot != 0 || !ones)
            return false;
        pt->sterm[i].lead = found = true;
    }
    return found;
}

/* Decide once whether the sliced chase serves f: F_2 or F_3, a chase,
 * every class (built now) a sliced pattern with B = I on the chasing rows. */
static bool sliced_ok(tframe *f)
{
    if (f->sliced)
        return f->sliced > 0;
    f->sliced = -1;
    if ((f->p != 2 && (f->p != 3 || f->s3 < 0)) || f->all || f->nx)
        return false;
    size_t fc = first_constraint(f);
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt;
        if (frame_class(f, r, &pt))
            return false;
        if (!pt->sterm && !sliced_build(f, pt, r < fc))
            return false;
        if (r < fc) {
            bool lead = false;
            for (size_t i = 0; i < pt->nst; i++)
                lead = lead || pt->sterm[i].lead;
            if (!lead)
                return false;
        }
    }
    f->sliced = 1;
    return true;
}

/* Bits [off, off + 64) of a (zero-padded) word array. */
static inline uint64_t bits_at(const uint64_t *v, size_t off)
{
    size_t q = off >> 6;
    unsigned sh = off & 63;
    return sh ? (v[q] >> sh) | (v[q + 1] << (64 - sh)) : v[q];
}

/* A transposed frame's b, 64 frame rows at a time: w[j] holds the bits of
 * frame rows r0 .. r0 + 63 at frame column j (one window of board row j),
 * transposed into 64 rows of CW words after it, so that a frame row is a
 * copy instead of C scattered reads. */
typedef struct {
    uint64_t *w; /* BTILE_WORDS(C), or NULL (then one read a cell) */
    size_t r0;
    bool have;
} btile;
#define BTILE_WORDS(C) ((C) + 64 * (((C) + 63) / 64))

/* Frame row r of b (C bits) into out (CW words). */
static void sliced_load_b(const tframe *f, const toggle_system *s, size_t r, uint64_t *out,
                          btile *bt)
{
    size_t C = f->C, CW = (C + 63) / 64;
    memset(out, 0, CW * sizeof *out);
    if (!f->tr) {
        const uint64_t *src = toggle__vecs_row(&s->b, 0);
        size_t off = frame_cell(f, r, 0), last = (s->b.len + 63) / 64;
        for (size_t i = 0; i < CW; i++) {
            size_t q = (off >> 6) + i;
            unsigned sh = off & 63;
            uint64_t lo = q < last ? src[q] >> sh : 0;
            uint64_t hi = (sh && q + 1 < last) ? src[q + 1] << (64 - sh) : 0;
            out[i] = lo | hi;
        }
        if (C & 63)
            out[CW - 1] &= ((uint64_t)1 << (C & 63)) - 1;
    } else if (bt && bt->w && !f->rev) {
        size_t r0 = r & ~(size_t)63, last = (s->b.len + 63) / 64;
        const uint64_t *src = toggle__vecs_row(&s->b, 0);
        if (!bt->have || bt->r0 != r0) {
            for (size_t j = 0; j < C; j++) /* (bits past the board row are not read) */
                bt->w[j] = toggle__bits_window(src, last, frame_cell(f, r0, j));
            toggle__bits_transpose(bt->w + C, CW, bt->w, 1, C, 64);
            bt->r0 = r0;
            bt->have = true;
        }
        memcpy(out, bt->w + C + (r - r0) * CW, CW * sizeof *out);
    } else {
        for (size_t j = 0; j < C; j++)
            out[j >> 6] |= toggle__vecs_get(&s->b, 0, frame_cell(f, r, j)) << (j & 63);
    }
}

/* out (CW words, C bits) = sum over pt's terms (without the lead on chasing
 * rows) of mask AND the slot's row of lane l rotated; rows are stored
 * doubled (2C bits) so that a rotation is a window. */
static void sliced_row(const tframe *f, const rowpat *pt, uint64_t *const *base, size_t l,
                       size_t DW, bool skip_lead, uint64_t *out)
{
    size_t C = f->C, CW = (C + 63) / 64;
    memset(out, 0, CW * sizeof *out);
    for (size_t i = 0; i < pt->nst; i++) {
        const struct sterm *t = &pt->sterm[i];
        if (skip_lead && t->lead)
            continue;
        const uint64_t *src = base[t->slot] + l * DW, *mk = pt->smask + i * CW;
        for (size_t q = 0; q < CW; q++)
            out[q] ^= mk[q] & bits_at(src, q * 64 + t->rot);
    }
}

/* Store C bits as the doubled row dst (DW words). */
static void sliced_store(uint64_t *dst, const uint64_t *bits, size_t C, size_t DW)
{
    size_t CW = (C + 63) / 64;
    memset(dst, 0, DW * sizeof *dst);
    memcpy(dst, bits, CW * sizeof *dst);
    size_t q = C >> 6;
    unsigned sh = C & 63;
    for (size_t i = 0; i < CW; i++) {
        dst[q + i] |= bits[i] << sh;
        if (sh)
            dst[q + i + 1] |= bits[i] >> (64 - sh);
    }
}

/* ---- the hex recurrence ---------------------------------------------------- */

/* Is pt (the class of chasing row r) the hex form? With delta = -1 for
 * pt->rec = 1 and +1 for 2, equation c reads exactly: row r + 1 at columns
 * c and c + delta (B = I + shift, unit bidiagonal), row r - 1 at the same
 * columns (S = B; none when r = 0), row r at c - 1 and c + 1 and itself
 * with weight d (every weight 1 but d; columns out of the frame absent).
 * Then T = B + N with N x (c) = x(c - delta) + (d - 1) x(c), and the row's
 * equations B x_{r+1} + T x_r + S x_{r-1} = b give
 *     x_{r+1} = B^-1 (b - N x_r) - x_r - x_{r-1},
 * B^-1 a first-order recurrence along the row (w(c) = v(c) - w(c + delta)):
 * two reads a cell instead of the program's six (docs/transfer.md). */
static int rec_class(const tframe *f, rowpat *pt, size_t r)
{
    size_t C = f->C;
    bool up = r >= 1;
    for (int dir = 1; dir <= 2; dir++) {
        int64_t delta = dir == 1 ? -1 : 1;
        bool ok = true;
        uint64_t d = 0;
        for (size_t c = 0; ok && c < C; c++) {
            int64_t cd = (int64_t)c + delta;
            bool in = cd >= 0 && cd < (int64_t)C;
            unsigned want = 1u | (in ? 2u : 0) | (up ? 4u : 0) | (up && in ? 8u : 0)
                          | (c >= 1 ? 16u : 0) | (c + 1 < C ? 32u : 0), got = 0;
            uint64_t dc = 0;
            for (size_t t = pt->start[c]; ok && t < pt->start[c + 1]; t++) {
                const tentry *en = &pt->ent[t];
                unsigned bit = 0;
                if (en->dq == 1 || en->dq == -1) {
                    bit = en->col == c ? 1u : in && en->col == (size_t)cd ? 2u : 0;
                    bit <<= en->dq == -1 ? 2 : 0;
                } else if (en->dq == 0 && en->col == c) {
                    ok = !dc;
                    dc = en->w;
                    continue;
                } else if (en->dq == 0) {
                    bit = c >= 1 && en->col == c - 1 ? 16u : en->col == c + 1 ? 32u : 0;
                }
                ok = bit && !(got & bit) && en->w == 1;
                got |= bit;
            }
            if (c == 0)
                d = dc;
            ok = ok && got == want && dc == d;
        }
        if (ok) {
            pt->rec = dir;
            pt->rself = d;
            return dir;
        }
    }
    pt->rec = -1;
    return -1;
}

/* Is every chasing row of f a hex recurrence? Then the sliced terms of the
 * constraint rows are built too (the sliced chase takes their residuals
 * from them). Silent; false on any doubt. */
static bool rec_decide(tframe *f)
{
    if (f->all || f->nx || f->wrap || f->Hf != 1 || f->Hb != 1)
        return false;
    size_t fc = first_constraint(f);
    rowpat *pt;
    for (size_t r = 0; r < fc; r++) {
        if (frame_class(f, r, &pt) || (!pt->rec && rec_class(f, pt, r) < 0) || pt->rec < 0)
            return false;
        if (r == f->HH && fc > 2 * f->HH + 2)
            r = fc - f->HH - 2; /* the interior classes are met already */
    }
    for (size_t r = fc; r < f->R && (f->p == 2 || f->p == 3); r++)
        if (frame_class(f, r, &pt) || (!pt->sterm && !sliced_build(f, pt, false)))
            return false;
    return true;
}

/* rec_decide, once per frame. */
static bool rec_ok(tframe *f)
{
    if (!f->rec)
        f->rec = rec_decide(f) ? 1 : -1;
    return f->rec > 0;
}

/* ---- the tri step ---------------------------------------------------------- */

/* The units of pt (chasing row r's class, F_2, Hf = Hb = 1) for the tri step
 * (tri.c), when its program has that form: every step solves the variable
 * of its own equation e (B = I), its terms are x_{r-1}(e) on every step or
 * on none, and on row r at most e itself and one partner p(e); pairs
 * (a, p(a)) with p(p(a)) = a and equal self terms are units of two. Into
 * *out (C units at most, allocated), their count into *n, whether they
 * read row r - 1 into *usem; false when pt is not of that form or out of
 * memory (the row program serves it). */
static bool tri_units(const tframe *f, const rowpat *pt, toggle__tri_unit **out, size_t *n,
                      bool *usem)
{
    size_t C = f->C;
    *out = NULL;
    *n = 0;
    if ((f->p != 2 && f->p != 3) || f->Hf != 1 || f->Hb != 1 || f->all || pt->npro
        || !pt->pstart || C >= UINT32_MAX)
        return false;
    size_t *part = toggle__malloc_array(C, sizeof *part);
    unsigned char *fl = toggle__calloc(C, 1);
    toggle__tri_unit *u = toggle__malloc_array(C, sizeof *u);
    bool ok = part && fl && u;
    size_t withm = 0;
    for (size_t t = 0; ok && t < C; t++) {
        size_t e = pt->peq[t];
        /* F_3: x = b - the terms (inverse 1, every weight 1) */
        ok = e == pt->pvar[t] && (f->p == 2 || pt->pinv[t] == 1);
        for (size_t k = pt->pstart[t]; ok && k < pt->pstart[t + 1]; k++) {
            const struct pterm *tm = &pt->pterm[k];
            unsigned bit = tm->slot == 0 && tm->col == e ? 1u
                         : tm->slot == 1 && tm->col == e ? 2u
                         : tm->slot == 1 ? 4u : 8u;
            ok = bit != 8 && (f->p == 2 ? (tm->w & 1) : tm->w == 1) && !(fl[e] & bit);
            fl[e] |= (unsigned char)bit;
            if (bit == 4)
                part[e] = tm->col;
        }
        withm += ok && (fl[e] & 1);
    }
    ok = ok && (withm == 0 || withm == C);
    size_t k = 0;
    for (size_t e = 0; ok && e < C; e++) {
        bool hp = fl[e] & 4;
        size_t q = hp ? part[e] : 0;
        if (hp && q > e && (fl[q] & 4) && part[q] == e && (fl[q] & 2) == (fl[e] & 2)) {
            u[k].a = (uint32_t)e, u[k].b = (uint32_t)q;
            u[k++].flags = TOGGLE__TRI_PAIR | ((fl[e] & 2) ? TOGGLE__TRI_SELF : 0);
        } else if (!(hp && q < e && (fl[q] & 4) && part[q] == e && (fl[q] & 2) == (fl[e] & 2))) {
            u[k].a = (uint32_t)e, u[k].b = (uint32_t)q;
            u[k++].flags = ((fl[e] & 2) ? TOGGLE__TRI_SELF : 0) | (hp ? TOGGLE__TRI_PART : 0);
        }
    }
    toggle__free(part);
    toggle__free(fl);
    if (!ok) {
        toggle__free(u);
        return false;
    }
    *out = u;
    *n = k;
    *usem = withm > 0;
    return true;
}

/* The tri step's units per class, built at the class's first row (st: 0
 * not yet, 1 the units serve, 2 with row r - 1, -1 not). */
typedef struct {
    toggle__tri_unit **un;
    size_t *n;
    signed char *st;
    size_t ncls;
} tri_cache;

/* false when out of memory (then the row programs serve). */
static bool tri_cache_init(tri_cache *c, size_t ncls)
{
    c->ncls = ncls;
    c->un = toggle__calloc(ncls, sizeof *c->un);
    c->n = toggle__calloc(ncls, sizeof *c->n);
    c->st = toggle__calloc(ncls, sizeof *c->st);
    return c->un && c->n && c->st;
}

static void tri_cache_free(tri_cache *c)
{
    for (size_t i = 0; c->un && i < c->ncls; i++)
        toggle__free(c->un[i]);
    toggle__free(c->un);
    toggle__free(c->n);
    toggle__free(c->st);
    memset(c, 0, sizeof *c);
}

/* Class ci's state (pt its pattern), its units built on the first call. */
static int tri_cache_get(tri_cache *c, const tframe *f, const rowpat *pt, size_t ci)
{
    bool usem = false;
    if (!c->st[ci])
        c->st[ci] = tri_units(f, pt, &c->un[ci], &c->n[ci], &usem) ? (usem ? 2 : 1) : -1;
    return c->st[ci];
}

/* The sliced chase serves the hex recurrence up to this many lanes (each
 * lane a prefix XOR along the row; the cell-major kernel beyond). */
#define REC_SLICED_MAX_LANES 16

/* F_2, one lane of a hex-recurrence row: out = x_{r+1} (C bits) from the
 * doubled rows of r (base[1]) and r - 1 (base[0], NULL for r = 0) and b
 * (bl, C bits, or NULL): v = b + x_r(c - delta) [+ x_r(c) when d is even],
 * w = B^-1 v by a prefix (delta = -1) or suffix XOR, out = w + x_r + x_{r-1}. */
static void rec_sliced_row(const tframe *f, const rowpat *pt, uint64_t *const *base, size_t l,
                           size_t DW, const uint64_t *bl, uint64_t *out)
{
    size_t C = f->C, CW = (C + 63) / 64;
    const uint64_t *xr = base[1] + l * DW, *xm = base[0] ? base[0] + l * DW : NULL;
    uint64_t last = (C & 63) ? ((uint64_t)1 << (C & 63)) - 1 : ~(uint64_t)0;
    bool asc = pt->rec == 1, self0 = !(pt->rself & 1);
    for (size_t q = 0; q < CW; q++)
        out[q] = bits_at(xr, q * 64 + (asc ? 1 : C - 1));
    /* the doubled row wraps round: no x_r(C) (ascending), no x_r(-1) */
    if (asc)
        out[(C - 1) >> 6] &= ~((uint64_t)1 << ((C - 1) & 63));
    else
        out[0] &= ~(uint64_t)1;
    for (size_t q = 0; q < CW; q++)
        out[q] ^= (self0 ? xr[q] : 0) ^ (bl ? bl[q] : 0);
    out[CW - 1] &= last;
    uint64_t carry = 0;
    if (asc) {
        for (size_t q = 0; q < CW; q++) {
            uint64_t x = out[q];
            x ^= x << 1, x ^= x << 2, x ^= x << 4, x ^= x << 8, x ^= x << 16, x ^= x << 32;
            x ^= carry;
            carry = (uint64_t)0 - (x >> 63);
            out[q] = x;
        }
    } else {
        for (size_t q = CW; q-- > 0;) {
            uint64_t x = out[q];
            x ^= x >> 1, x ^= x >> 2, x ^= x >> 4, x ^= x >> 8, x ^= x >> 16, x ^= x >> 32;
            x ^= carry;
            carry = (uint64_t)0 - (x & 1);
            out[q] = x;
        }
    }
    for (size_t q = 0; q < CW; q++)
        out[q] ^= xr[q] ^ (xm ? xm[q] : 0);
    out[CW - 1] &= last;
}

/* Frame row q's row (across a wrap q mod R) among a chase's own copies of
 * the rows (saved: the unknown rows; ring: the last Hf + Hb + 1 chased),
 * NULL off the frame: the sliced chases and chase_s3. */
static uint64_t *own_row(const tframe *f, int64_t q, uint64_t *saved, uint64_t *ring,
                         size_t rowsz)
{
    int64_t R = (int64_t)f->R;
    if (f->wrap)
        q = ((q % R) + R) % R;
    if (q < 0 || q >= R)
        return NULL;
    size_t u = unknown_slot(f, (size_t)q);
    return u != SIZE_MAX ? saved + u * rowsz : ring + ((size_t)q % (f->Hf + f->Hb + 1)) * rowsz;
}

/* base[sl] = frame row r - Hb + sl's own row (own_row), sl = 0 .. Hf + Hb. */
static void own_bases(const tframe *f, size_t r, uint64_t *saved, uint64_t *ring, size_t rowsz,
                      uint64_t **base)
{
    for (size_t sl = 0; sl <= f->Hf + f->Hb; sl++)
        base[sl] = own_row(f, (int64_t)(r + sl) - (int64_t)f->Hb, saved, ring, rowsz);
}

/* The chase of chase() for the sliced case: the same inputs (ln->saved,
 * cell-major) and outputs (resid cell-major; sinks get lane-major rows). */
static int chase_sliced(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid,
                        row_sink sink, void *ctx)
{
    const tframe *f = ln->f;
    size_t C = f->C, CW = (C + 63) / 64, DW = (2 * C + 63) / 64 + 1, L = ln->L;
    size_t fc = first_constraint(f), nring = f->Hf + f->Hb + 1, rowsz = L * DW;
    uint64_t *saved = toggle__malloc_array(f->nuk * rowsz, sizeof *saved);
    uint64_t *ring = toggle__malloc_array(nring * rowsz, sizeof *ring);
    uint64_t *tmp = toggle__malloc_array(L * CW + CW, sizeof *tmp);
    btile bt = {with_b && f->tr ? toggle__malloc_array(BTILE_WORDS(C), sizeof *bt.w) : NULL, 0,
                false};
    int rc = TOGGLE_OK;
    if (!saved || !ring || !tmp || (with_b && f->tr && !bt.w)) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
        goto out;
    }
    uint64_t *bw = tmp + L * CW;
    /* the unknown rows, lane-major and doubled */
    for (size_t u = 0; u < f->nuk; u++) {
        toggle__bits_transpose(tmp, CW, ln->saved + u * C * ln->nw, ln->nw, C, L);
        for (size_t l = 0; l < L; l++)
            sliced_store(saved + u * rowsz + l * DW, tmp + l * CW, C, DW);
    }
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    for (size_t r = 0; r < f->R; r++) {
        size_t u = unknown_slot(f, r);
        if (sink && u != SIZE_MAX)
            sink(ctx, ln, r, NULL, saved + u * rowsz, DW);
    }
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt = &f->cls[class_of(f, r)];
        own_bases(f, r, saved, ring, rowsz, base);
        bool chasing = r < fc;
        if (with_b)
            sliced_load_b(f, s, r, bw, &bt);
        for (size_t l = 0; l < L; l++) {
            uint64_t *o = tmp + l * CW;
            const uint64_t *bl = with_b && l == ln->blane ? bw : NULL;
            if (chasing && pt->rec > 0) {
                rec_sliced_row(f, pt, base, l, DW, bl, o);
            } else {
                sliced_row(f, pt, base, l, DW, chasing, o);
                for (size_t q = 0; bl && q < CW; q++)
                    o[q] ^= bl[q];
            }
            if (chasing)
                sliced_store(base[f->Hf + f->Hb] + l * DW, o, C, DW);
        }
        if (chasing) {
            if (sink)
                sink(ctx, ln, r + f->Hf, NULL, base[f->Hf + f->Hb], DW);
        } else {
            /* residual b + A x of the constraint row, cell-major */
            toggle__bits_transpose(resid + (r - fc) * C * ln->nw, ln->nw, tmp, CW, L, C);
        }
    }
out:
    toggle__free(saved);
    toggle__free(ring);
    toggle__free(tmp);
    toggle__free(bt.w);
    return rc;
}

/* ---- the row kernels: one chasing row of the cell-major chase --------------- */

/* One chasing row of a class program over the cell-major lanes, for F_2 and
 * for p = 3 in 4-bit fields (every weight 1 or 2): each step's lanes are
 * summed in registers, KW words at a time, and stored once. Compiled per
 * vector unit (TOGGLE__CLONES); the caller keeps the other moduli. */
typedef struct {
    size_t C, nw;
    const size_t *pstart, *pvar, *peq;
    const struct pterm *pterm;
    uint64_t *const *base;
    uint64_t *dst;
    const uint64_t *bval;   /* b at equation e (frame column), or NULL */
    uint64_t bword;         /* the word (blane / per) and its shift: b's field */
    unsigned bshift;
    const uint64_t *pinv;   /* the steps' inverse weights (p = 3: 1 or 2) */
    const uint64_t *xsaved; /* the promoted unknowns' lanes, read from *xk on */
    size_t *xk;
    /* the hex recurrence (rec_f2): rows r and r - 1 (NULL for r = 0), the
     * class's rec and rself */
    const uint64_t *xr, *xm;
    int rdir;
    uint64_t rself;
} rowargs;

#define ROW_KW 8
#define ROW_MAX_TERMS 64

#if defined(__GNUC__)
#define ROW_INLINE static inline __attribute__((always_inline))
#else
#define ROW_INLINE static inline
#endif

#if defined(__GNUC__)
/* Eight words as one vector (GCC's vector extension: one register of
 * AVX-512, two of AVX2, four of SSE2). */
typedef uint64_t row_v8 __attribute__((vector_size(64)));
#endif

/* Step t's terms (*tm, *n); false for a promotion (its lanes copied to acc). */
ROW_INLINE bool row_step(const rowargs *a, size_t t, uint64_t *acc, const struct pterm **tm,
                         size_t *n)
{
    if (a->peq[t] == SIZE_MAX) {
        memcpy(acc, a->xsaved + (*a->xk)++ * a->nw, a->nw * sizeof *acc);
        return false;
    }
    *tm = a->pterm + a->pstart[t];
    *n = a->pstart[t + 1] - a->pstart[t];
    return true;
}

/* F_2: x_var = b + the sum of the other terms. */
ROW_INLINE void row_f2_body(const rowargs *a)
{
    size_t nw = a->nw;
    const uint64_t *src[ROW_MAX_TERMS];
    for (size_t t = 0; t < a->C; t++) {
        uint64_t *acc = a->dst + a->pvar[t] * nw;
        const struct pterm *tm;
        size_t n;
        if (!row_step(a, t, acc, &tm, &n))
            continue;
        uint64_t bb = a->bval ? (a->bval[a->peq[t]] & 1) << a->bshift : 0;
        if (nw == 1) { /* one word of lanes (the answers): no pointer list */
            uint64_t v = bb;
            for (size_t k = 0; k < n; k++)
                v ^= a->base[tm[k].slot][tm[k].col];
            *acc = v;
            continue;
        }
        if (n > ROW_MAX_TERMS) {
            memset(acc, 0, nw * sizeof *acc);
            for (size_t k = 0; k < n; k++) {
                const uint64_t *x = a->base[tm[k].slot] + tm[k].col * nw;
                for (size_t i = 0; i < nw; i++)
                    acc[i] ^= x[i];
            }
            acc[a->bword] ^= bb;
            continue;
        }
        for (size_t k = 0; k < n; k++)
            src[k] = a->base[tm[k].slot] + tm[k].col * nw;
        size_t i = 0;
#if defined(__GNUC__)
        for (; i + 8 <= nw; i += 8) {
            row_v8 v = {0}, x;
            if (a->bword - i < 8)
                v[a->bword - i] = bb;
            for (size_t k = 0; k < n; k++) {
                memcpy(&x, src[k] + i, sizeof x);
                v ^= x;
            }
            memcpy(acc + i, &v, sizeof v);
        }
#endif
        for (; i + ROW_KW <= nw; i += ROW_KW) {
            uint64_t v[ROW_KW];
            for (size_t q = 0; q < ROW_KW; q++) /* (no indexed store: it stalls the loads) */
                v[q] = i + q == a->bword ? bb : 0;
            for (size_t k = 0; k < n; k++)
                for (size_t q = 0; q < ROW_KW; q++)
                    v[q] ^= src[k][i + q];
            memcpy(acc + i, v, sizeof v);
        }
        for (; i < nw; i++) {
            uint64_t v = a->bword == i ? bb : 0;
            for (size_t k = 0; k < n; k++)
                v ^= src[k][i];
            acc[i] = v;
        }
    }
}

/* F_2, the hex recurrence (rec_class) over the cell-major lanes, W <= 8
 * words of each cell from word i0 on: w (in registers along the row) +=
 * b + x_r(c - delta) [+ x_r(c) when d is even], x_{r+1}(c) = w + x_r(c) +
 * x_{r-1}(c). Two reads and one store a word and cell. */
#define REC_F2_LOOP(T, LOAD, STORE, ZERO)                                          \
    do {                                                                           \
        bool asc = a->rdir == 1, self0 = !(a->rself & 1);                          \
        T w = ZERO, cur, nxt, bv = ZERO;                                           \
        size_t c = asc ? 0 : C - 1;                                                \
        cur = LOAD(xr + c * nw + i0);                                              \
        for (size_t k = 0; k < C; k++, c = asc ? c + 1 : c - 1) {                  \
            bool more = k + 1 < C;                                                 \
            nxt = more ? LOAD(xr + (asc ? c + 1 : c - 1) * nw + i0) : ZERO;        \
            w ^= nxt;                                                              \
            if (self0)                                                             \
                w ^= cur;                                                          \
            if (hasb) {                                                            \
                bv[bq] = (a->bval[c] & 1) << a->bshift;                            \
                w ^= bv;                                                           \
            }                                                                      \
            T o = w ^ cur;                                                         \
            if (xm)                                                                \
                o ^= LOAD(xm + c * nw + i0);                                       \
            STORE(a->dst + c * nw + i0, o);                                        \
            cur = nxt;                                                             \
        }                                                                          \
    } while (0)

#if defined(__GNUC__)
/* (macros: a vector argument or return would change the ABI) */
#define rec_load8(p) ({ row_v8 v_; memcpy(&v_, (p), sizeof v_); v_; })
#define rec_store8(p, v) do { row_v8 s_ = (v); memcpy((p), &s_, sizeof s_); } while (0)
#define REC_ZERO8 ((row_v8){0})
#endif

ROW_INLINE void rec_f2_body(const rowargs *a)
{
    size_t nw = a->nw, C = a->C;
    const uint64_t *xr = a->xr, *xm = a->xm;
    for (size_t i0 = 0; i0 < nw; i0 += 8) {
        size_t W = nw - i0 < 8 ? nw - i0 : 8;
        bool hasb = a->bval && a->bword - i0 < W;
        size_t bq = hasb ? a->bword - i0 : 0;
#if defined(__GNUC__)
        if (W == 8) {
            REC_F2_LOOP(row_v8, rec_load8, rec_store8, REC_ZERO8);
            continue;
        }
#endif
        for (size_t q = 0; q < W; q++) { /* one word at a time (few lanes) */
            size_t i1 = i0 + q;
            bool hb = hasb && bq == q;
            bool asc = a->rdir == 1, self0 = !(a->rself & 1);
            uint64_t w = 0, cur, nxt;
            size_t c = asc ? 0 : C - 1;
            cur = xr[c * nw + i1];
            for (size_t k = 0; k < C; k++, c = asc ? c + 1 : c - 1) {
                nxt = k + 1 < C ? xr[(asc ? c + 1 : c - 1) * nw + i1] : 0;
                w ^= nxt ^ (self0 ? cur : 0) ^ (hb ? (a->bval[c] & 1) << a->bshift : 0);
                a->dst[c * nw + i1] = w ^ cur ^ (xm ? xm[c * nw + i1] : 0);
                cur = nxt;
            }
        }
    }
}

/* p = 3 in 4-bit fields. m3_fold: every field of s (< 16) to at most 6
 * with the same residue (4 = 1 mod 3); m3_low: every field of s (<= 5)
 * mod 3, by the top bit of s + 8 - 3. */
#define M3_FOLD 0x3333333333333333ULL
#define M3_HI 0x8888888888888888ULL
#define M3_KK 0x5555555555555555ULL /* 8 - 3 in every field */
#define M3_SIX 0x6666666666666666ULL
ROW_INLINE uint64_t m3_fold(uint64_t s)
{
    return (s & M3_FOLD) + ((s >> 2) & M3_FOLD);
}

ROW_INLINE uint64_t m3_low(uint64_t s)
{
    uint64_t t = ((s + M3_KK) & M3_HI) >> 3;
    return s - (((t << 4) - t) & M3_FOLD);
}

/* Sum of src[k][i] over n terms onto v, each field < 16: v (<= 2 at the
 * start, <= 6 after a fold) takes at most 6 terms of <= 2 before a fold,
 * then 4 after each. */
#define M3_SUM(v, src, n, i, W)                                                    \
    for (size_t k = 0; k < (n); k++) {                                             \
        if (k == 6 || (k > 6 && (k - 6) % 4 == 0))                                 \
            for (size_t q = 0; q < (W); q++)                                       \
                v[q] = m3_fold(v[q]);                                              \
        for (size_t q = 0; q < (W); q++)                                           \
            v[q] += src[k][(i) + q];                                               \
    }

/* Words i .. i + W of step x_var's lanes (below). */
#define M3_WORDS(i, W)                                                             \
    do {                                                                           \
        uint64_t N[W] = {0}, S[W];                                                 \
        for (size_t q = 0; q < (W); q++) /* (no indexed store: it stalls loads) */ \
            S[q] = (i) + q == a->bword ? bb : 0;                                   \
        M3_SUM(N, sn, nn, i, W)                                                    \
        M3_SUM(S, sp, np, i, W)                                                    \
        for (size_t q = 0; q < (W); q++) {                                         \
            uint64_t nf = m3_fold(N[q]), sf = np ? m3_fold(S[q]) : S[q];           \
            acc[(i) + q] = m3_low(m3_fold(flip ? nf + M3_SIX - sf : sf + M3_SIX - nf)); \
        }                                                                          \
    } while (0)

#if defined(__GNUC__)
#define M3V_FOLD(s) (((s) & M3_FOLD) + (((s) >> 2) & M3_FOLD))
#define M3V_LOW(s, t) ((t) = (((s) + M3_KK) & M3_HI) >> 3, (s) - ((((t) << 4) - (t)) & M3_FOLD))
#define M3_WORDS8(i)                                                               \
    do {                                                                           \
        row_v8 N = {0}, S = {0}, x, t;                                             \
        if (a->bword - (i) < 8)                                                    \
            S[a->bword - (i)] = bb;                                                \
        for (size_t k = 0; k < nn; k++) {                                          \
            if (k >= 6 && (k - 6) % 4 == 0)                                        \
                N = M3V_FOLD(N);                                                   \
            memcpy(&x, sn[k] + (i), sizeof x);                                     \
            N += x;                                                                \
        }                                                                          \
        for (size_t k = 0; k < np; k++) {                                          \
            if (k >= 6 && (k - 6) % 4 == 0)                                        \
                S = M3V_FOLD(S);                                                   \
            memcpy(&x, sp[k] + (i), sizeof x);                                     \
            S += x;                                                                \
        }                                                                          \
        N = M3V_FOLD(N);                                                           \
        if (np)                                                                    \
            S = M3V_FOLD(S);                                                       \
        x = flip ? N + M3_SIX - S : S + M3_SIX - N;                                \
        x = M3V_FOLD(x);                                                           \
        x = M3V_LOW(x, t);                                                         \
        memcpy(acc + (i), &x, sizeof x);                                           \
    } while (0)
#else
#define M3_WORDS8(i) M3_WORDS(i, 8)
#endif

/* p = 3: the n terms' lanes split by weight: those with (w == 1) != x into
 * one (*n1 of them), the others (w = 2) into two. */
ROW_INLINE void row_split(const rowargs *a, const struct pterm *tm, size_t n, bool x,
                          const uint64_t **one, size_t *n1, const uint64_t **two, size_t *n2)
{
    for (size_t k = 0; k < n; k++) {
        const uint64_t *v = a->base[tm[k].slot] + tm[k].col * a->nw;
        if ((tm[k].w == 1) != x)
            one[(*n1)++] = v;
        else
            two[(*n2)++] = v;
    }
}

/* p = 3: x_var = inv (b - sum w x), w and inv 1 or 2. With N the sum of the
 * weight-1 terms and S = b + the weight-2 terms' x (-2 x = x), b - sum w x
 * = S - N; both are folded to <= 6, S + 6 - N (or N + 6 - S for inv 2, the
 * negation) is in 0 .. 12, one fold leaves <= 5 and m3_low the residue. */
ROW_INLINE void row_p3_body(const rowargs *a)
{
    size_t nw = a->nw;
    const uint64_t *sn[ROW_MAX_TERMS], *sp[ROW_MAX_TERMS];
    for (size_t t = 0; t < a->C; t++) {
        uint64_t *acc = a->dst + a->pvar[t] * nw;
        const struct pterm *tm;
        size_t n, nn = 0, np = 0;
        if (!row_step(a, t, acc, &tm, &n))
            continue;
        bool flip = a->pinv[t] == 2;
        uint64_t bb = a->bval ? a->bval[a->peq[t]] << a->bshift : 0;
        if (nw == 1) { /* one word of lanes (the answers): the values, no pointer list */
            uint64_t N = 0, S = bb;
            for (size_t k = 0; k < n; k++) {
                if (k >= 6 && (k - 6) % 4 == 0) {
                    N = m3_fold(N);
                    S = m3_fold(S);
                }
                uint64_t x = a->base[tm[k].slot][tm[k].col], one = tm[k].w == 1 ? ~(uint64_t)0 : 0;
                N += x & one;
                S += x & ~one;
            }
            N = m3_fold(N);
            S = m3_fold(S);
            *acc = m3_low(m3_fold(flip ? N + M3_SIX - S : S + M3_SIX - N));
            continue;
        }
        row_split(a, tm, n, false, sn, &nn, sp, &np);
        size_t i = 0;
        for (; i + 8 <= nw; i += 8)
            M3_WORDS8(i);
        for (; i < nw; i++)
            M3_WORDS(i, 1);
    }
}

/* p = 3 in 4-bit fields, the hex recurrence (rec_class), a word of each
 * cell at a time (the answers' few lanes): w = b - x_r(c - delta) -
 * (d - 1) x_r(c) - w (kept along the row), x_{r+1}(c) = w - x_r(c) -
 * x_{r-1}(c); -y is 3 - y in every field (M3_FOLD), each sum below 16,
 * folded and reduced (m3_low). Padding fields stay 0. */
ROW_INLINE void rec_p3_body(const rowargs *a)
{
    size_t nw = a->nw, C = a->C;
    const uint64_t *xr = a->xr, *xm = a->xm;
    bool asc = a->rdir == 1;
    uint64_t d = a->rself % 3;
    for (size_t i = 0; i < nw; i++) {
        bool hb = a->bval && a->bword == i;
        uint64_t w = 0, cur, nxt;
        size_t c = asc ? 0 : C - 1;
        cur = xr[c * nw + i];
        for (size_t k = 0; k < C; k++, c = asc ? c + 1 : c - 1) {
            nxt = k + 1 < C ? xr[(asc ? c + 1 : c - 1) * nw + i] : 0;
            uint64_t v = (M3_FOLD - nxt) + (M3_FOLD - w) + (hb ? a->bval[c] << a->bshift : 0)
                       + (d == 0 ? cur : d == 2 ? M3_FOLD - cur : 0);
            w = m3_low(m3_fold(v));
            uint64_t o = w + (M3_FOLD - cur) + (xm ? M3_FOLD - xm[c * nw + i] : 0);
            a->dst[c * nw + i] = m3_low(m3_fold(o));
            cur = nxt;
        }
    }
}

/* Each kernel compiled for the vector units of x86 (TOGGLE__CLONES,
 * lib/core/core.h; the widest one the CPU has is picked once per chase). */

TOGGLE__CLONES(row_f2, rowargs)
TOGGLE__CLONES(row_p3, rowargs)
TOGGLE__CLONES(rec_f2, rowargs)
TOGGLE__CLONES(rec_p3, rowargs)
typedef void (*row_fn)(const rowargs *);

/* ---- bit-sliced F_3 lanes (the small system's chase) ------------------------
 * A residue v is two bits (lo, hi) = ([v == 1], [v == 2]) (s3.h: S3_ADD);
 * a cell's L lanes are nh words of lo bits, then nh words of hi bits
 * (s3_words). */

/* Words per plane of a cell of L sliced lanes (whole vectors past one). */
static size_t s3_words(size_t L)
{
    size_t nh = (L + 63) / 64;
    return nh > 8 ? (nh + 7) & ~(size_t)7 : nh ? nh : 1;
}

/* p = 3, sliced: x_var = inv (b - sum w x) as a signed sum: b's sign is
 * inv's, a term's -inv w (1 or 2, as row_p3_ok admits); the terms of sign
 * +1 are added, the others subtracted, 8 words of both planes at a time. */
ROW_INLINE bool s3_terms(const rowargs *a, size_t t, uint64_t *acc, const uint64_t **sa,
                         size_t *na, const uint64_t **ss, size_t *ns, uint64_t *bl, uint64_t *bh)
{
    const struct pterm *tm;
    size_t n;
    if (!row_step(a, t, acc, &tm, &n))
        return false;
    bool flip = a->pinv[t] == 2;
    row_split(a, tm, n, flip, ss, ns, sa, na);
    uint64_t bv = a->bval ? a->bval[a->peq[t]] : 0;
    *bl = (uint64_t)(bv == (flip ? 2u : 1u)) << a->bshift;
    *bh = (uint64_t)(bv == (flip ? 1u : 2u)) << a->bshift;
    return true;
}

ROW_INLINE void row_s3_body(const rowargs *a)
{
    size_t nw = a->nw, nh = nw / 2;
    const uint64_t *sa[ROW_MAX_TERMS], *ss[ROW_MAX_TERMS];
    for (size_t t = 0; t < a->C; t++) {
        size_t na = 0, ns = 0, i = 0;
        uint64_t *acc = a->dst + a->pvar[t] * nw, bl, bh;
        if (!s3_terms(a, t, acc, sa, &na, ss, &ns, &bl, &bh))
            continue;
#if defined(__GNUC__)
        for (; i + 8 <= nh; i += 8) {
            row_v8 l = {0}, h = {0}, xl, xh;
            if (a->bword - i < 8) {
                l[a->bword - i] = bl;
                h[a->bword - i] = bh;
            }
            for (size_t k = 0; k < na; k++) {
                memcpy(&xl, sa[k] + i, sizeof xl);
                memcpy(&xh, sa[k] + nh + i, sizeof xh);
                S3_ADD(l, h, xl, xh);
            }
            for (size_t k = 0; k < ns; k++) {
                memcpy(&xl, ss[k] + i, sizeof xl);
                memcpy(&xh, ss[k] + nh + i, sizeof xh);
                S3_ADD(l, h, xh, xl);
            }
            memcpy(acc + i, &l, sizeof l);
            memcpy(acc + nh + i, &h, sizeof h);
        }
#endif
        for (; i < nh; i++) {
            uint64_t l = i == a->bword ? bl : 0, h = i == a->bword ? bh : 0;
            for (size_t k = 0; k < na; k++)
                S3_ADD(l, h, sa[k][i], sa[k][nh + i]);
            for (size_t k = 0; k < ns; k++)
                S3_ADD(l, h, ss[k][nh + i], ss[k][i]);
            acc[i] = l;
            acc[nh + i] = h;
        }
    }
}

/* p = 3, sliced, the hex recurrence (rec_class; rec_p3 in 4-bit fields):
 * u = b - x_r(c - delta) - (d - 1) x_r(c) does not depend on w, so the
 * chain along the row is one addition (w = u - w), then x_{r+1}(c) =
 * w - x_r(c) - x_{r-1}(c): two cells read and one stored a cell instead of
 * the program's seven terms. LOAD/STORE: W words of one plane. */
#define REC_S3_LOOP(T, LOAD, STORE, ZERO, BSET)                                    \
    do {                                                                           \
        T wl = ZERO, wh = ZERO, cl, ch, ql, qh, ul, uh;                            \
        size_t c = asc ? 0 : C - 1;                                                \
        cl = LOAD(xr + c * nw + i0);                                               \
        ch = LOAD(xr + c * nw + nh + i0);                                          \
        for (size_t k = 0; k < C; k++) {                                           \
            size_t cn = asc ? c + 1 : c - 1;                                       \
            bool more = k + 1 < C;                                                 \
            ql = more ? LOAD(xr + cn * nw + i0) : ZERO;                            \
            qh = more ? LOAD(xr + cn * nw + nh + i0) : ZERO;                       \
            ul = ZERO;                                                             \
            uh = ZERO;                                                             \
            if (hasb)                                                              \
                BSET(ul, uh, a->bval[c]);                                          \
            S3_ADD(ul, uh, qh, ql);                                                \
            if (d == 0)                                                            \
                S3_ADD(ul, uh, cl, ch);                                            \
            else if (d == 2)                                                       \
                S3_ADD(ul, uh, ch, cl);                                            \
            S3_ADD(ul, uh, wh, wl);                                                \
            wl = ul;                                                               \
            wh = uh;                                                               \
            S3_ADD(ul, uh, ch, cl);                                                \
            if (xm) {                                                              \
                T ml = LOAD(xm + c * nw + i0), mh = LOAD(xm + c * nw + nh + i0);   \
                S3_ADD(ul, uh, mh, ml);                                            \
            }                                                                      \
            STORE(a->dst + c * nw + i0, ul);                                       \
            STORE(a->dst + c * nw + nh + i0, uh);                                  \
            cl = ql;                                                               \
            ch = qh;                                                               \
            c = cn;                                                                \
        }                                                                          \
    } while (0)

#define S3_BSET8(l, h, v)                                                          \
    do {                                                                           \
        (l)[bq] = (uint64_t)((v) == 1) << a->bshift;                               \
        (h)[bq] = (uint64_t)((v) == 2) << a->bshift;                               \
    } while (0)
#define S3_BSET1(l, h, v)                                                          \
    do {                                                                           \
        (l) = (uint64_t)((v) == 1) << a->bshift;                                   \
        (h) = (uint64_t)((v) == 2) << a->bshift;                                   \
    } while (0)
#define S3_LOAD1(p) (*(p))
#define S3_STORE1(p, v) (*(p) = (v))

ROW_INLINE void rec_s3_body(const rowargs *a)
{
    size_t nw = a->nw, nh = nw / 2, C = a->C;
    const uint64_t *xr = a->xr, *xm = a->xm;
    bool asc = a->rdir == 1;
    uint64_t d = a->rself % 3;
    size_t i0 = 0;
#if defined(__GNUC__)
    for (; i0 + 8 <= nh; i0 += 8) {
        bool hasb = a->bval && a->bword - i0 < 8;
        size_t bq = hasb ? a->bword - i0 : 0;
        REC_S3_LOOP(row_v8, rec_load8, rec_store8, REC_ZERO8, S3_BSET8);
    }
#endif
    for (; i0 < nh; i0++) {
        bool hasb = a->bval && a->bword == i0;
        REC_S3_LOOP(uint64_t, S3_LOAD1, S3_STORE1, 0, S3_BSET1);
    }
}

TOGGLE__CLONES(row_s3, rowargs)
TOGGLE__CLONES(rec_s3, rowargs)

/* Fields 0, 4, 8, .. 60 of x (the other bits 0) gathered into bits 0 .. 15,
 * and back. */
static inline uint64_t s3_gather(uint64_t x)
{
    x = (x | x >> 3) & 0x0303030303030303ULL;
    x = (x | x >> 6) & 0x000f000f000f000fULL;
    x = (x | x >> 12) & 0x000000ff000000ffULL;
    return (x | x >> 24) & 0xffffULL;
}

static inline uint64_t s3_spread(uint64_t x)
{
    x = (x | x << 24) & 0x000000ff000000ffULL;
    x = (x | x << 12) & 0x000f000f000f000fULL;
    x = (x | x << 6) & 0x0303030303030303ULL;
    return (x | x << 3) & 0x1111111111111111ULL;
}

/* One cell: nw words of 4-bit fields (residues 0 .. 2) into nh sliced words
 * per plane, and back. */
static void s3_from4(uint64_t *dst, size_t nh, const uint64_t *src, size_t nw)
{
    memset(dst, 0, 2 * nh * sizeof *dst);
    for (size_t j = 0; j < nw && j / 4 < nh; j++) {
        uint64_t w = src[j];
        if (!w)
            continue;
        unsigned sh = (unsigned)(j % 4) * 16;
        dst[j / 4] |= s3_gather(w & 0x1111111111111111ULL) << sh;
        dst[nh + j / 4] |= s3_gather((w >> 1) & 0x1111111111111111ULL) << sh;
    }
}

static void s3_to4(uint64_t *dst, size_t nw, const uint64_t *src, size_t nh)
{
    for (size_t j = 0; j < nw; j++) {
        unsigned sh = (unsigned)(j % 4) * 16;
        uint64_t lo = j / 4 < nh ? (src[j / 4] >> sh) & 0xffff : 0;
        uint64_t hi = j / 4 < nh ? (src[nh + j / 4] >> sh) & 0xffff : 0;
        dst[j] = s3_spread(lo) | s3_spread(hi) << 1;
    }
}

/* Can row_p3 run pt's program: every term weight and inverse 1 or 2, at
 * most ROW_MAX_TERMS terms a step? */
static bool row_p3_ok(const rowpat *pt, size_t C)
{
    for (size_t t = 0; t < C; t++) {
        if (pt->peq[t] == SIZE_MAX)
            continue;
        if (pt->pstart[t + 1] - pt->pstart[t] > ROW_MAX_TERMS || pt->pinv[t] == 0 || pt->pinv[t] > 2)
            return false;
        for (size_t u = pt->pstart[t]; u < pt->pstart[t + 1]; u++)
            if (pt->pterm[u].w == 0 || pt->pterm[u].w > 2)
                return false;
    }
    return true;
}

/* row_p3_ok, once per class (chase() asks for every row). */
static bool row_p3_once(rowpat *pt, size_t C)
{
    if (!pt->p3ok)
        pt->p3ok = row_p3_ok(pt, C) ? 1 : -1;
    return pt->p3ok > 0;
}

/* ---- the sliced F_3 chase ----------------------------------------------------
 * As the sliced F_2 chase (B = I, cells packed 64 to a word, one lane at a
 * time), over F_3: a lane's row is two doubled bit planes (lo, hi) of DW
 * words each (S3_ADD's residues), and a term adds its mask's cells of weight
 * 1 and subtracts those of weight 2. The sinks get the unknown rows
 * cell-major and the chased rows as lane rows (both planes); the
 * constraint rows' residuals go to resid cell-major in 4-bit fields. */

/* Bit 0 of each byte of w gathered into bits 0 .. 7, and back. */
static inline uint64_t byte_bits(uint64_t w)
{
    return ((w & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
}

static inline uint64_t bits_bytes(uint64_t x)
{
    x = (x | x << 28) & 0x0000000F0000000FULL;
    x = (x | x << 14) & 0x0003000300030003ULL;
    return (x | x << 7) & 0x0101010101010101ULL;
}

/* Frame row r of b as the planes lo, hi (CW words each). */
static void sliced3_load_b(const tframe *f, const toggle_system *s, size_t r, uint64_t *lo,
                           uint64_t *hi)
{
    size_t C = f->C, CW = (C + 63) / 64, e = 0;
    memset(lo, 0, CW * sizeof *lo);
    memset(hi, 0, CW * sizeof *hi);
    if (!f->tr && s->b.width == 8) {
        /* 8 residues (bytes 0 .. 2: bit 0 is [v = 1], bit 1 [v = 2]) at a time */
        const unsigned char *src = (const unsigned char *)toggle__vecs_row(&s->b, 0)
                                 + frame_cell(f, r, 0);
        for (; e + 8 <= C; e += 8) {
            uint64_t w;
            memcpy(&w, src + e, 8);
            lo[e >> 6] |= byte_bits(w) << (e & 63);
            hi[e >> 6] |= byte_bits(w >> 1) << (e & 63);
        }
    }
    for (; e < C; e++) {
        uint64_t v = toggle__vecs_get(&s->b, 0, frame_cell(f, r, e));
        lo[e >> 6] |= (uint64_t)(v == 1) << (e & 63);
        hi[e >> 6] |= (uint64_t)(v == 2) << (e & 63);
    }
}

/* (ol, oh) = b - the sum over pt's terms (without the lead on chasing rows)
 * of the slot's row of lane l rotated, weighted by the masks; b (bl, bh) or
 * NULL for 0. */
static void sliced3_row(const tframe *f, const rowpat *pt, uint64_t *const *base, size_t l,
                        size_t DW, bool skip_lead, const uint64_t *bl, const uint64_t *bh,
                        uint64_t *ol, uint64_t *oh)
{
    size_t C = f->C, CW = (C + 63) / 64;
    for (size_t q = 0; q < CW; q++) {
        ol[q] = bl ? bl[q] : 0;
        oh[q] = bh ? bh[q] : 0;
    }
    for (size_t i = 0; i < pt->nst; i++) {
        const struct sterm *t = &pt->sterm[i];
        if (skip_lead && t->lead)
            continue;
        const uint64_t *sl = base[t->slot] + 2 * l * DW, *sh = sl + DW;
        const uint64_t *m1 = pt->smask + i * CW, *m2 = pt->smask2 + i * CW;
        for (size_t q = 0; q < CW; q++) {
            uint64_t xl = bits_at(sl, q * 64 + t->rot), xh = bits_at(sh, q * 64 + t->rot);
            uint64_t yl = (m1[q] & xl) | (m2[q] & xh), yh = (m1[q] & xh) | (m2[q] & xl);
            S3_ADD(ol[q], oh[q], yh, yl); /* minus y */
        }
    }
}

/* One lane of a hex-recurrence row over F_3 (rec_sliced_row's planes):
 * v = b - x_r(c - delta) - (d - 1) x_r(c), w(c) = v(c) - w(c + delta),
 * out = w - x_r - x_{r-1}. With s(c) = (-1)^c w(c) the chain is the plain
 * prefix (delta = -1) or suffix sum of (-1)^c v(c): the odd cells' planes
 * swapped, six shift-and-add rounds a word, the previous word's last sum
 * added to every cell, the odd cells swapped back. */
static void rec_sliced3_row(const tframe *f, const rowpat *pt, uint64_t *const *base, size_t l,
                            size_t DW, const uint64_t *bl, const uint64_t *bh, uint64_t *ol,
                            uint64_t *oh)
{
    const uint64_t odd = 0xAAAAAAAAAAAAAAAAull;
    size_t C = f->C, CW = (C + 63) / 64;
    const uint64_t *xl = base[1] + 2 * l * DW, *xh = xl + DW;
    const uint64_t *ml = base[0] ? base[0] + 2 * l * DW : NULL, *mh = ml ? ml + DW : NULL;
    uint64_t last = (C & 63) ? ((uint64_t)1 << (C & 63)) - 1 : ~(uint64_t)0;
    bool asc = pt->rec == 1;
    uint64_t d = pt->rself % 3;
    size_t rot = asc ? 1 : C - 1, wq = asc ? (C - 1) >> 6 : 0;
    /* the doubled row wraps round: no x_r(C) (ascending), no x_r(-1) */
    uint64_t wbit = asc ? (uint64_t)1 << ((C - 1) & 63) : 1;
    for (size_t q = 0; q < CW; q++) {
        uint64_t nl = bits_at(xl, q * 64 + rot), nh = bits_at(xh, q * 64 + rot);
        uint64_t ul = bl ? bl[q] : 0, uh = bh ? bh[q] : 0, keep = q + 1 < CW ? ~(uint64_t)0 : last;
        if (q == wq)
            nl &= ~wbit, nh &= ~wbit;
        S3_ADD(ul, uh, nh & keep, nl & keep);
        if (d == 0)
            S3_ADD(ul, uh, xl[q] & keep, xh[q] & keep);
        else if (d == 2)
            S3_ADD(ul, uh, xh[q] & keep, xl[q] & keep);
        uint64_t t = (ul ^ uh) & odd;
        ol[q] = ul ^ t;
        oh[q] = uh ^ t;
    }
    uint64_t cl = 0, ch = 0;
    for (size_t k = 0; k < CW; k++) {
        size_t q = asc ? k : CW - 1 - k;
        uint64_t a = ol[q], b = oh[q];
        for (unsigned sh = 1; sh < 64; sh *= 2) {
            uint64_t sa = asc ? a << sh : a >> sh, sb = asc ? b << sh : b >> sh;
            S3_ADD(a, b, sa, sb);
        }
        S3_ADD(a, b, cl, ch);
        cl = (uint64_t)0 - (asc ? a >> 63 : a & 1);
        ch = (uint64_t)0 - (asc ? b >> 63 : b & 1);
        uint64_t t = (a ^ b) & odd;
        a ^= t, b ^= t;
        S3_ADD(a, b, xh[q], xl[q]);
        if (ml)
            S3_ADD(a, b, mh[q], ml[q]);
        uint64_t keep = q + 1 < CW ? ~(uint64_t)0 : last;
        ol[q] = a & keep;
        oh[q] = b & keep;
    }
}

/* Lane l's planes (CW words each) into the cell-major row of 4-bit fields
 * (C cells of nw words; the lane's fields are 0 before). */
static void sliced3_to_cells(const lanes *ln, size_t l, const uint64_t *lo, const uint64_t *hi,
                             uint64_t *row)
{
    size_t C = ln->f->C, nw = ln->nw, wi = l / 16;
    unsigned sh = (unsigned)(l % 16) * 4;
    for (size_t j = 0; j < C; j++)
        row[j * nw + wi] |= (((lo[j >> 6] >> (j & 63)) & 1) | (((hi[j >> 6] >> (j & 63)) & 1) << 1))
                            << sh;
}

/* The chase of chase() for p = 3 and a sliced frame. */
static int chase_sliced3(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid,
                         row_sink sink, void *ctx)
{
    const tframe *f = ln->f;
    size_t C = f->C, CW = (C + 63) / 64, DW = (2 * C + 63) / 64 + 1, L = ln->L, nw = ln->nw;
    size_t fc = first_constraint(f), nring = f->Hf + f->Hb + 1, rowsz = 2 * L * DW;
    uint64_t *saved = toggle__calloc(f->nuk * rowsz, sizeof *saved);
    uint64_t *ring = toggle__malloc_array(nring * rowsz, sizeof *ring);
    uint64_t *tmp = toggle__malloc_array(2 * L * CW + 2 * CW, sizeof *tmp);
    int rc = TOGGLE_OK;
    if (!saved || !ring || !tmp) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
        goto out;
    }
    uint64_t *bwl = tmp + 2 * L * CW, *bwh = bwl + CW;
    bool rec = rec_ok((tframe *)f);
    /* the unknown rows, lane-major planes, doubled */
    for (size_t u = 0; u < f->nuk; u++) {
        const uint64_t *src = ln->saved + u * C * nw;
        for (size_t l = 0; l < L; l++) {
            uint64_t *o = tmp + 2 * l * CW;
            memset(o, 0, 2 * CW * sizeof *o);
            for (size_t e = 0; e < C; e++) {
                uint64_t v = lane_get(ln, src + e * nw, l);
                o[e >> 6] |= (uint64_t)(v == 1) << (e & 63);
                o[CW + (e >> 6)] |= (uint64_t)(v == 2) << (e & 63);
            }
            sliced_store(saved + u * rowsz + 2 * l * DW, o, C, DW);
            sliced_store(saved + u * rowsz + (2 * l + 1) * DW, o + CW, C, DW);
        }
    }
    for (size_t r = 0; sink && r < f->R; r++)
        if (unknown_slot(f, r) != SIZE_MAX)
            sink(ctx, ln, r, row_ptr(ln, r), NULL, 0);
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt = &f->cls[class_of(f, r)];
        own_bases(f, r, saved, ring, rowsz, base);
        bool chasing = r < fc;
        if (with_b)
            sliced3_load_b(f, s, r, bwl, bwh);
        uint64_t *dst = chasing ? NULL : resid + (r - fc) * C * nw;
        if (dst)
            memset(dst, 0, C * nw * sizeof *dst);
        for (size_t l = 0; l < L; l++) {
            uint64_t *ol = tmp + 2 * l * CW, *oh = ol + CW;
            bool hb = with_b && l == ln->blane;
            if (rec && chasing && pt->rec > 0)
                rec_sliced3_row(f, pt, base, l, DW, hb ? bwl : NULL, hb ? bwh : NULL, ol, oh);
            else
                sliced3_row(f, pt, base, l, DW, chasing, hb ? bwl : NULL, hb ? bwh : NULL, ol,
                            oh);
            if (chasing) {
                sliced_store(base[f->Hf + f->Hb] + 2 * l * DW, ol, C, DW);
                sliced_store(base[f->Hf + f->Hb] + (2 * l + 1) * DW, oh, C, DW);
            }
            if (!chasing)
                sliced3_to_cells(ln, l, ol, oh, dst);
        }
        if (chasing && sink)
            sink(ctx, ln, r + f->Hf, NULL, base[f->Hf + f->Hb], 2 * DW);
    }
out:
    toggle__free(saved);
    toggle__free(ring);
    toggle__free(tmp);
    return rc;
}

/* Chase: the unknown rows are in ln->saved; computes every other row (each
 * handed to sink, as are the unknown rows), and the residuals b - A x of the
 * constraint rows' equations into resid (ncons * C cells of nw words). */
static int chase(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid, row_sink sink,
                 void *ctx)
{
    tframe *f = (tframe *)ln->f;
    size_t C = f->C, nw = ln->nw, fc = first_constraint(f);
    int rc;
    /* sliced: L word operations per 64 cells and term; cell-major: one per
     * 64 lanes and cell, plus a cell's overhead: sliced wins for few lanes */
    if (f->p == 3 && ln->lf.lw == 4 && ln->L <= SLICED3_MAX_LANES && (sliced_ok(f) || rec_ok(f)))
        return chase_sliced3(ln, with_b, s, resid, sink, ctx);
    if ((f->p == 2 && ln->L <= SLICED_MAX_LANES && sliced_ok(f))
        || (f->p == 2 && ln->L <= REC_SLICED_MAX_LANES && rec_ok(f)))
        return chase_sliced(ln, with_b, s, resid, sink, ctx);
    if (sink)
        for (size_t r = 0; r < f->R; r++)
            if (unknown_slot(f, r) != SIZE_MAX)
                sink(ctx, ln, r, row_ptr(ln, r), NULL, 0);
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    /* promoted unknowns read and left-over equations written so far (the
     * latter after the constraint rows' cells in resid) */
    size_t xk = 0, xc = (f->R - fc) * C;
    /* the row kernels: F_2, and p = 3 in 4-bit fields */
    row_fn kern = f->p == 2 ? TOGGLE__PICK(row_f2) : (f->p == 3 && ln->lf.lw == 4) ? TOGGLE__PICK(row_p3) : NULL;
    row_fn rkern = f->p == 2 && rec_ok(f) ? TOGGLE__PICK(rec_f2)
                 : f->p == 3 && ln->lf.lw == 4 && rec_ok(f) ? TOGGLE__PICK(rec_p3) : NULL;
    uint64_t *bval = kern && with_b ? toggle__malloc_array(C + (C + 63) / 64 + 1, sizeof *bval)
                                    : NULL;
    btile bt = {kern && with_b && f->p == 2 && f->tr
                    ? toggle__malloc_array(BTILE_WORDS(C), sizeof *bt.w) : NULL, 0, false};
    if (kern && with_b && (!bval || (f->p == 2 && f->tr && !bt.w))) {
        toggle__free(bval);
        toggle__free(bt.w);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
    }
    /* the tri step (tri.c): per class its units (tri_cache) */
    toggle__tri_fn tkern = f->p == 2 && !f->notri && !rkern ? toggle__transfer_tri_pick() : NULL;
    tri_cache tc = {0};
    if (tkern && !tri_cache_init(&tc, f->ncls))
        tkern = NULL; /* (the row programs serve) */
    /* every chasing row a tri step: row r + 1 overwrites row r - 1 in place
     * (a ring of two rows; the step reads x_{r-1}(e) only for its cell e,
     * and the constraint rows read rows fc - 1 .. fc + 1, two apart) */
    bool inplace = tkern && f->Hf == 1 && f->Hb == 1;
    for (size_t r = 0; inplace && r < fc; r++) {
        rowpat *pt;
        if (frame_class(f, r, &pt)) {
            inplace = false; /* (the loop below reports it) */
            break;
        }
        inplace = tri_cache_get(&tc, f, pt, class_of(f, r)) > 0;
        if (r == f->HH && fc > 2 * f->HH + 2)
            r = fc - f->HH - 2; /* the interior classes are met already */
    }
    size_t nring0 = ln->nring;
    if (inplace)
        ln->nring = 2;
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        if ((rc = frame_class(f, r, &pt))) {
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        if (!pt->peels || !pt->pstart) {
            rc = toggle__error(TOGGLE_EINTERNAL, "transfer: frame row %zu does not peel", r);
            goto out;
        }
        for (size_t sl = 0; sl <= f->Hf + f->Hb; sl++) {
            int64_t q = (int64_t)r - (int64_t)f->Hb + (int64_t)sl;
            if (f->wrap)
                q = ((q % (int64_t)f->R) + (int64_t)f->R) % (int64_t)f->R;
            base[sl] = (q < 0 || q >= (int64_t)f->R) ? NULL : row_ptr(ln, (size_t)q);
        }
        size_t tgt = r + f->Hf;
        uint64_t *dst = base[f->Hf + f->Hb];
        bool fast = kern && (f->p == 2 || row_p3_once(pt, C));
        if (fast) {
            if (with_b && f->p == 2) { /* the row's bits at once */
                uint64_t *bw = bval + C;
                sliced_load_b(f, s, r, bw, &bt);
                for (size_t e = 0; e < C; e++)
                    bval[e] = (bw[e >> 6] >> (e & 63)) & 1;
            } else if (with_b) {
                for (size_t e = 0; e < C; e++)
                    bval[e] = toggle__vecs_get(&s->b, 0, frame_cell(f, r, e));
            }
            rowargs ra = {C, nw, pt->pstart, pt->pvar, pt->peq, pt->pterm, base, dst,
                          with_b ? bval : NULL, f->p == 2 ? ln->blane >> 6 : ln->blane / ln->lf.per,
                          (unsigned)(f->p == 2 ? ln->blane & 63 : (ln->blane % ln->lf.per) * ln->lf.lw),
                          pt->pinv, ln->xsaved, &xk, base[1], base[0], pt->rec, pt->rself};
            size_t ci = class_of(f, r);
            int ts = tkern ? tri_cache_get(&tc, f, pt, ci) : -1;
            if (rkern && pt->rec > 0) {
                rkern(&ra);
            } else if (ts > 0) {
                toggle__tri_args ta = {tc.un[ci], tc.n[ci], nw, base[1], ts == 2 ? base[0] : NULL,
                                       dst, ra.bval, ra.bword, ra.bshift};
                tkern(&ta);
            } else {
                kern(&ra);
            }
        }
        for (size_t t = 0; !fast && t < C; t++) {
            const struct pterm *tm = pt->pterm + pt->pstart[t], *te = pt->pterm + pt->pstart[t + 1];
            uint64_t *acc = dst + pt->pvar[t] * nw;
            if (pt->peq[t] == SIZE_MAX) { /* a promotion: the unknown's lanes */
                memcpy(acc, ln->xsaved + xk++ * nw, nw * sizeof *acc);
                continue;
            }
            uint64_t bv = with_b ? toggle__vecs_get(&s->b, 0, frame_cell(f, r, pt->peq[t])) : 0;
            if (f->p == 2) {
                /* x_var = b + the sum of the other terms (each weight 1) */
                if (tm == te) {
                    memset(acc, 0, nw * sizeof *acc);
                } else {
                    memcpy(acc, base[tm->slot] + tm->col * nw, nw * sizeof *acc);
                    for (tm++; tm < te; tm++) {
                        const uint64_t *x = base[tm->slot] + tm->col * nw;
                        for (size_t i = 0; i < nw; i++)
                            acc[i] ^= x[i];
                    }
                }
                acc[ln->blane >> 6] ^= (bv & 1) << (ln->blane & 63);
            } else {
                /* x_var = inv (b - the sum of the other terms) */
                memset(acc, 0, nw * sizeof *acc);
                lane_set(ln, acc, ln->blane, bv);
                for (; tm < te; tm++)
                    lane_axpy(ln, acc, base[tm->slot] + tm->col * nw, tm->w);
                if (pt->pinv[t] != 1)
                    lane_scale(ln, acc, pt->pinv[t]);
            }
        }
        /* the left-over equations of row r: every row they read is known */
        for (size_t i = 0; i < pt->npro; i++, xc++) {
            eq_residual(ln, pt, r, pt->lefto[i], with_b, s, false);
            memcpy(resid + xc * nw, ln->acc, nw * sizeof *ln->acc);
        }
        if (sink)
            sink(ctx, ln, tgt, dst, NULL, 0);
    }
    for (size_t r = fc; r < f->R; r++) {
        rowpat *pt;
        if ((rc = frame_class(f, r, &pt))) {
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        for (size_t e = 0; e < C; e++) {
            eq_residual(ln, pt, r, e, with_b, s, false);
            memcpy(resid + ((r - fc) * C + e) * nw, ln->acc, nw * sizeof *ln->acc);
        }
    }
    rc = TOGGLE_OK;
out:
    ln->nring = nring0;
    toggle__free(bval);
    toggle__free(bt.w);
    tri_cache_free(&tc);
    return rc;
}

/* Does the bit-sliced F_3 chase serve the small system of f with L lanes?
 * p = 3 in 4-bit fields, no promotions, at least S3_MIN_LANES lanes (few
 * lanes fit in a word or two of 4-bit fields), and every chasing row's
 * program of weights and inverses 1 or 2 (row_p3_ok). */
#define S3_MIN_LANES 2
static bool s3_ok(tframe *f, const lanes *ln)
{
    if (f->s3 < 0 || f->p != 3 || ln->lf.lw != 4 || f->all || f->nx || ln->L < S3_MIN_LANES)
        return false;
    size_t fc = first_constraint(f);
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        if (frame_class(f, r, &pt) || !pt->peels || !pt->pstart || !row_p3_once(pt, f->C))
            return false;
        if (r == f->HH && fc > 2 * f->HH + 2)
            r = fc - f->HH - 2; /* the interior classes are met already */
    }
    return true;
}


/* chase() for the small system over F_3 (s3_ok): the unknown rows
 * (ln->saved, 4-bit fields) are sliced, the chasing rows run row_s3, and
 * the constraint rows' residuals b - A x are summed sliced and written to
 * resid in 4-bit fields, as chase() leaves them. Its buffers (the sliced
 * rows, half the 4-bit lanes') are freed before the small system is made,
 * so the estimate's build phase covers them. */
static int chase_s3(lanes *ln, const toggle_system *s, uint64_t *resid)
{
    tframe *f = (tframe *)ln->f;
    size_t C = f->C, nw = ln->nw, nh = s3_words(ln->L), cw = 2 * nh;
    size_t fc = first_constraint(f), rowsz = C * cw;
    void *mem = toggle__calloc((f->nuk + f->Hf + f->Hb + 1) * rowsz + 8, sizeof(uint64_t));
    uint64_t *bval = toggle__malloc_array(C, sizeof *bval);
    uint64_t *acc = toggle__malloc_array(cw, sizeof *acc);
    int rc = TOGGLE_OK;
    tri_cache tc = {0};
    if (!mem || !bval || !acc) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
        goto out;
    }
    uintptr_t al = (uintptr_t)mem;
    uint64_t *saved = (uint64_t *)mem + ((64 - al % 64) % 64) / 8, *ring = saved + f->nuk * rowsz;
    for (size_t c = 0; c < f->nuk * C; c++)
        s3_from4(saved + c * cw, nh, ln->saved + c * nw, nw);
    row_fn kern = TOGGLE__PICK(row_s3), rkern = rec_ok(f) ? TOGGLE__PICK(rec_s3) : NULL;
    /* the tri step over the sliced lanes (tri.c) */
    toggle__tri_fn tkern = !f->notri && !rkern ? toggle__transfer_tri3_pick() : NULL;
    if (tkern && !tri_cache_init(&tc, f->ncls))
        tkern = NULL;
    uint64_t *base[2 * TRANSFER_MAX_REACH + 1];
    size_t xk = 0;
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt;
        if ((rc = frame_class(f, r, &pt))) {
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        own_bases(f, r, saved, ring, rowsz, base);
        for (size_t e = 0; e < C; e++)
            bval[e] = toggle__vecs_get(&s->b, 0, frame_cell(f, r, e));
        if (r < fc) {
            rowargs ra = {C, cw, pt->pstart, pt->pvar, pt->peq, pt->pterm, base,
                          base[f->Hf + f->Hb], bval, ln->blane / 64, (unsigned)(ln->blane % 64),
                          pt->pinv, ln->xsaved, &xk, base[1], base[0], pt->rec, pt->rself};
            size_t ci = class_of(f, r);
            int ts = tkern ? tri_cache_get(&tc, f, pt, ci) : -1;
            if (ts > 0) {
                toggle__tri_args ta = {tc.un[ci], tc.n[ci], cw, base[1], ts == 2 ? base[0] : NULL,
                                       base[f->Hf + f->Hb], bval, ra.bword, ra.bshift};
                tkern(&ta);
            } else {
                (rkern && pt->rec > 0 ? rkern : kern)(&ra);
            }
            continue;
        }
        /* a constraint row: acc = b - sum w x over each equation's entries */
        for (size_t e = 0; e < C; e++) {
            memset(acc, 0, cw * sizeof *acc);
            acc[ln->blane / 64] = (uint64_t)(bval[e] == 1) << (ln->blane % 64);
            acc[nh + ln->blane / 64] = (uint64_t)(bval[e] == 2) << (ln->blane % 64);
            for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++) {
                const tentry *en = &pt->ent[t]; /* (a wrap's dq may span it: eq_residual) */
                const uint64_t *x = own_row(f, (int64_t)r + en->dq, saved, ring, rowsz) + en->col * cw;
                if (en->w % 3 == 1)
                    for (size_t i = 0; i < nh; i++)
                        S3_ADD(acc[i], acc[nh + i], x[nh + i], x[i]);
                else if (en->w % 3 == 2)
                    for (size_t i = 0; i < nh; i++)
                        S3_ADD(acc[i], acc[nh + i], x[i], x[nh + i]);
            }
            s3_to4(resid + ((r - fc) * C + e) * nw, nw, acc, nh);
        }
    }
out:
    toggle__free(mem);
    toggle__free(bval);
    toggle__free(acc);
    tri_cache_free(&tc);
    return rc;
}

static void lanes_clear(lanes *ln)
{
    toggle__free(ln->mem);
    toggle__free(ln->xsaved);
    toggle__free(ln->acc);
    memset(ln, 0, sizeof *ln);
}

static int lanes_init(lanes *ln, const tframe *f, size_t L)
{
    memset(ln, 0, sizeof *ln);
    ln->f = f;
    ln->L = L;
    lanefmt_init(&ln->lf, f->p);
    ln->nw = lane_words(f->p, L);
    ln->nring = f->Hf + f->Hb + 1;
    size_t rowwords = f->C * ln->nw;
    size_t sw = (f->nuk * rowwords + 7) & ~(size_t)7;
    ln->mem = toggle__calloc(sw + ln->nring * rowwords + 8, sizeof *ln->saved);
    ln->xsaved = toggle__calloc(f->nx ? f->nx * ln->nw : 1, sizeof *ln->xsaved);
    ln->acc = toggle__calloc(ln->nw, sizeof *ln->acc);
    if (ln->mem) {
        uintptr_t a = (uintptr_t)ln->mem;
        ln->saved = (uint64_t *)ln->mem + ((64 - a % 64) % 64) / 8;
        ln->ring = ln->saved + sw;
    }
    if (!ln->mem || !ln->xsaved || !ln->acc) {
        lanes_clear(ln); /* the callers return at once: nothing is left behind */
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
    }
    return TOGGLE_OK;
}

/* ---- the small system ------------------------------------------------------ */

/* OR the first nbits bits of src into dst from bit offset off (those bits are 0). */
static void or_bits(uint64_t *dst, size_t off, const uint64_t *src, size_t nbits)
{
    size_t q = off >> 6, nw = (nbits + 63) / 64;
    unsigned sh = off & 63;
    for (size_t i = 0; i < nw; i++) {
        uint64_t w = src[i]; /* bits past nbits are ignored */
        if (i + 1 == nw && (nbits & 63))
            w &= ((uint64_t)1 << (nbits & 63)) - 1;
        dst[q + i] |= w << sh;
        if (sh && ((off + nbits - 1) >> 6) > q + i)
            dst[q + i + 1] |= w >> (64 - sh);
    }
}

/* ---- shift invariance: the circulant small system ------------------------ */

/* Sum of the weights of equation e's entries at (dq, col), mod p. */
static uint64_t eq_weight(const tframe *f, const rowpat *pt, size_t e, int64_t dq, size_t col)
{
    uint64_t w = 0;
    for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++)
        if (pt->ent[t].dq == dq && pt->ent[t].col == col)
            w = (w + pt->ent[t].w) % f->p;
    return w;
}

/* Is every row's pattern invariant under the cyclic shift of the frame
 * columns by P (equation e + P has equation e's entries, columns + P mod C)?
 * Then so is the chase of b = 0: the unknown at column j + P t acts as the
 * unknown at column j shifted by P t, and one lane per residue class mod P
 * gives all of E. Checked on the patterns themselves (every class). */
static bool shift_invariant(tframe *f, size_t P)
{
    size_t C = f->C;
    if (f->all || f->nx || P >= C || C % P)
        return false;
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt;
        if (frame_class(f, r, &pt))
            return false;
        (void)pt;
    }
    for (size_t c = 0; c < f->ncls; c++) {
        const rowpat *pt = &f->cls[c];
        if (!pt->built)
            continue;
        for (size_t e = 0; e < C; e++) {
            size_t e2 = (e + P) % C;
            if (pt->start[e + 1] - pt->start[e] != pt->start[e2 + 1] - pt->start[e2])
                return false;
            for (size_t t = pt->start[e]; t < pt->start[e + 1]; t++) {
                const tentry *en = &pt->ent[t];
                if (eq_weight(f, pt, e, en->dq, en->col) !=
                    eq_weight(f, pt, e2, en->dq, (en->col + P) % C))
                    return false;
            }
            for (size_t t = pt->start[e2]; t < pt->start[e2 + 1]; t++) {
                const tentry *en = &pt->ent[t];
                if (eq_weight(f, pt, e2, en->dq, en->col) !=
                    eq_weight(f, pt, e, en->dq, (en->col + C - P) % C))
                    return false;
            }
        }
    }
    return true;
}

/* The small system of a shift-invariant frame from one chase with
 * nuk * P + 1 lanes: lane blane the constant (b), lane off + k P + j0 the
 * unknown at row k, column j0 < P. E[(er, ec)][(k, j0 + P t)] is lane
 * (k, j0) at residual cell (er, ec - P t mod C). */
static int small_system_shift(const toggle_system *s, tframe *f, size_t P, toggle_system **ss)
{
    size_t C = f->C, m = f->nuk * C, nred = f->nuk * P;
    size_t off = f->p == 2 ? 0 : 1;
    lanes ln;
    int rc = lanes_init(&ln, f, nred + 1);
    uint64_t *resid = NULL, *V = NULL, *rows = NULL, *bb = NULL, *E = NULL;
    if (rc)
        return rc;
    ln.blane = f->p == 2 ? nred : 0;
    for (size_t k = 0; k < f->nuk; k++)
        for (size_t j0 = 0; j0 < P; j0++)
            lane_set(&ln, ln.saved + (k * C + j0) * ln.nw, k * P + j0 + off, 1);
    resid = toggle__calloc(m ? m * ln.nw : 1, sizeof *resid);
    /* V: lane (k, j0) over the residual cells of constraint row er, twice
     * over (2C values) so that a rotation is a window */
    V = toggle__malloc_array(2 * C, sizeof *V);
    if (!resid || !V) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        goto out;
    }
    if ((rc = chase(&ln, true, s, resid, NULL, NULL)))
        goto out;
    if (f->p == 2) {
        size_t mw = (m + 63) / 64;
        /* Et: row i = column i of E, transposed at the end */
        uint64_t *Et = toggle__calloc(m ? m * mw : 1, sizeof *Et);
        rows = toggle__calloc(m ? m * mw : 1, sizeof *rows);
        bb = toggle__calloc(mw ? mw : 1, sizeof *bb);
        if (!Et || !rows || !bb) {
            toggle__free(Et);
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
            goto out;
        }
        /* V as bits, doubled (2C bits, DW words), and one window of C bits */
        size_t CW = (C + 63) / 64, DW = (2 * C + 63) / 64 + 1;
        uint64_t *vb = toggle__calloc(DW + CW, sizeof *vb), *win = vb + DW;
        if (!vb) {
            toggle__free(Et);
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
            goto out;
        }
        for (size_t k = 0; k < f->nuk; k++)
            for (size_t j0 = 0; j0 < P; j0++)
                for (size_t er = 0; er < f->nuk; er++) {
                    memset(vb, 0, DW * sizeof *vb);
                    for (size_t ec = 0; ec < C; ec++) {
                        uint64_t v = lane_get(&ln, resid + (er * C + ec) * ln.nw,
                                              k * P + j0 + off);
                        vb[ec >> 6] |= v << (ec & 63);
                        vb[(ec + C) >> 6] |= v << ((ec + C) & 63);
                    }
                    for (size_t t = 0; t < C / P; t++) {
                        /* bit ec of the window: V[ec - P t mod C] */
                        for (size_t q = 0; q < CW; q++)
                            win[q] = bits_at(vb, C - P * t + 64 * q);
                        or_bits(Et + (k * C + j0 + P * t) * mw, er * C, win, C);
                    }
                }
        toggle__free(vb);
        toggle__bits_transpose(rows, mw, Et, mw, m, m);
        toggle__free(Et);
        for (size_t e = 0; e < m; e++)
            bb[e >> 6] |= lane_get(&ln, resid + e * ln.nw, ln.blane) << (e & 63);
        rc = toggle__system_adopt_packed(ss, m, m, rows, bb, true);
        rows = NULL;
        goto out;
    }
    E = toggle__malloc_array(m ? m * m : 1, sizeof *E);
    bb = toggle__malloc_array(m ? m : 1, sizeof *bb);
    if (!E || !bb) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        goto out;
    }
    for (size_t k = 0; k < f->nuk; k++)
        for (size_t j0 = 0; j0 < P; j0++)
            for (size_t er = 0; er < f->nuk; er++) {
                for (size_t ec = 0; ec < C; ec++)
                    V[ec] = V[ec + C] = lane_get(&ln, resid + (er * C + ec) * ln.nw,
                                                 k * P + j0 + off);
                for (size_t t = 0; t < C / P; t++)
                    for (size_t ec = 0; ec < C; ec++)
                        E[(er * C + ec) * m + k * C + j0 + P * t] = V[C - P * t + ec];
            }
    for (size_t e = 0; e < m; e++)
        bb[e] = toggle__submod(0, lane_get(&ln, resid + e * ln.nw, ln.blane), f->p);
    rc = toggle_system_new_matrix(ss, m, m, E, bb, f->p);
out:
    lanes_clear(&ln);
    toggle__free(resid);
    toggle__free(V);
    toggle__free(rows);
    toggle__free(bb);
    toggle__free(E);
    return rc;
}

/* Solve the small system with the engine AUTO picks, without the run's
 * certificate route (the transfer engine never reads the small system's
 * certificate, and deciding its route walks the m x m matrix); the budget
 * is the transfer engine's estimate. */
static int solve_small(const toggle_system *ss, toggle_solution **small)
{
    int why = TOGGLE_EUNSUPPORTED;
    const toggle__engine_entry *e = toggle__engine_choose(ss, &why);
    if (!e)
        return why; /* choose set the message */
    toggle_solution *sol = NULL;
    int rc = toggle__solution_new(&sol, ss, e->id);
    if (!rc)
        rc = e->engine->solve(ss, sol);
    if (rc) {
        toggle_solution_free(sol);
        return rc;
    }
    *small = sol;
    return TOGGLE_OK;
}

/* E (m x m) and -e0 from one chase with lane 0 the constant, lane 1 + i
 * unknown i; then solve it by the engines on a dense system. */
static int small_system(const toggle_system *s, tframe *f, toggle_solution **small,
                        toggle_system **keep)
{
    size_t m = f->m, L = m + 1, mr = f->nuk * f->C;
    lanes ln;
    memset(&ln, 0, sizeof ln);
    uint64_t *resid = NULL;
    toggle_system *ss = NULL;
    int rc;
    for (size_t P = 1; P <= 2 && !f->rev; P++) /* (rev: E's columns reversed below) */
        if (shift_invariant(f, P)) {
            if ((rc = small_system_shift(s, f, P, &ss)))
                goto out;
            rc = keep ? (*keep = ss, ss = NULL, TOGGLE_OK) : solve_small(ss, small);
            goto out;
        }
    if ((rc = lanes_init(&ln, f, L)))
        goto out;
    /* F_2: unknown i in lane i and b in lane m, so that a residual cell's
     * first m bits are its row of E; odd p: b in lane 0, unknown i in 1 + i */
    size_t off = f->p == 2 ? 0 : 1;
    ln.blane = f->p == 2 ? m : 0;
    for (size_t i = 0; i < m; i++)
        lane_set(&ln, i < mr ? ln.saved + i * ln.nw : ln.xsaved + (i - mr) * ln.nw, i + off, 1);
    resid = toggle__calloc(m * ln.nw, sizeof *resid);
    if (f->p == 2) {
        rc = resid ? chase(&ln, true, s, resid, NULL, NULL)
                   : toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        if (rc)
            goto out;
        size_t mw = (m + 63) / 64;
        uint64_t *rows = toggle__calloc(m ? m * mw : 1, sizeof *rows);
        uint64_t *bb = toggle__calloc(mw ? mw : 1, sizeof *bb);
        if (!rows || !bb) {
            toggle__free(rows);
            toggle__free(bb);
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
            goto out;
        }
        for (size_t e = 0; e < m; e++) {
            const uint64_t *cell = resid + e * ln.nw;
            if (f->rev) { /* unknown i is column m - 1 - i (rev_canonical) */
                for (size_t i = 0; i < m; i++)
                    rows[e * mw + ((m - 1 - i) >> 6)] |= ((cell[i >> 6] >> (i & 63)) & 1)
                                                         << ((m - 1 - i) & 63);
            } else {
                memcpy(rows + e * mw, cell, mw * sizeof *rows);
                if (m & 63)
                    rows[e * mw + mw - 1] &= ((uint64_t)1 << (m & 63)) - 1;
            }
            bb[e >> 6] |= ((cell[m >> 6] >> (m & 63)) & 1) << (e & 63);
        }
        rc = toggle__system_adopt_packed(&ss, m, m, rows, bb, true);
        toggle__free(bb);
        if (rc)
            goto out;
        toggle__free(resid);
        resid = NULL;
        rc = keep ? (*keep = ss, ss = NULL, TOGGLE_OK) : solve_small(ss, small);
        goto out;
    }
    if (!resid) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer small system");
        goto out;
    }
    if ((rc = s3_ok(f, &ln) ? chase_s3(&ln, s, resid) : chase(&ln, true, s, resid, NULL, NULL)))
        goto out;
    /* resid = b - A x(u) = c0 - E' u with lane 0 = c0 and lane 1 + i =
     * -(column i of A's action): A x = b iff sum_i u_i lane_{1+i} = -c0.
     * The system's rows are written from the lanes (every value below p). */
    if ((rc = toggle__system_new_zero(&ss, m, m, f->p)))
        goto out;
    for (size_t e = 0; e < m; e++) {
        const uint64_t *cell = resid + e * ln.nw;
        toggle__vecs_set(&ss->b, 0, e, toggle__submod(0, lane_get(&ln, cell, 0), f->p));
        /* lane 1 + i, a word's fields at a time; rev: unknown i is column m - 1 - i */
        if (ln.lf.lw == 4 && ss->a.width == 8 && !f->rev) {
            uint8_t *Er = (uint8_t *)toggle__vecs_row(&ss->a, e); /* Er[l - 1]: lane l */
            for (size_t j = 0, l = 0; l <= m; j++) {
                uint64_t w = cell[j];
                if (!w) {
                    l += 16;
                    continue;
                }
                for (size_t q = 0; q < 16 && l <= m; q++, l++, w >>= 4)
                    if (l)
                        Er[l - 1] = (uint8_t)(w & 15);
            }
            continue;
        }
        for (size_t j = 0, l = 0; l <= m; j++) {
            uint64_t w = cell[j];
            for (size_t q = 0; q < ln.lf.per && l <= m; q++, l++, w = ln.lf.lw < 64 ? w >> ln.lf.lw : 0)
                if (l)
                    toggle__vecs_set(&ss->a, e, f->rev ? m - l : l - 1, w & ln.lf.fmask);
        }
    }
    toggle__free(resid);
    resid = NULL;
    rc = keep ? (*keep = ss, ss = NULL, TOGGLE_OK) : solve_small(ss, small);
out:
    lanes_clear(&ln);
    toggle__free(resid);
    toggle_system_free(ss);
    return rc;
}

/* ---- the canonical form ----------------------------------------------------- */

/* d[i] = (d[i] + nf s[i]) mod k for i < n, 8-bit entries below k < 256:
 * t = d + nf s < k^2, and with mk = 2^24 / k + 1, (t mk) >> 24 is t / k
 * exactly (the error t (mk - 2^24 / k) / 2^24 < k^2 / 2^24 < 1 / 256 is
 * less than the 1 / k that t / k's fraction stays below 1 by) and t mk <
 * 2^32: no division, so the loop vectorises (TOGGLE__HOT: AVX2 where the
 * CPU has it). */
static TOGGLE__HOT void sub8(uint8_t *restrict d, const uint8_t *restrict s, size_t n, uint32_t nf,
                             uint32_t k)
{
    uint32_t mk = ((uint32_t)1 << 24) / k + 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t t = d[i] + nf * s[i];
        d[i] = (uint8_t)(t - ((t * mk) >> 24) * k);
    }
}

/* Entries off + i of vector dst -= f * entry i of src, for i in [from,
 * upto] (unpacked vecs: odd p; src may be a shorter vector, as a local
 * one of canonicalise_local). */
static void axpy_span(toggle__vecs *v, size_t dst, size_t off, const toggle__vecs *sv, size_t src,
                      uint64_t fct, uint64_t k, size_t from, size_t upto)
{
    if (v->width == 8 && sv->width == 8) { /* k < 256 */
        sub8((uint8_t *)toggle__vecs_row(v, dst) + off + from,
             (const uint8_t *)toggle__vecs_row(sv, src) + from, upto + 1 - from,
             (uint32_t)((k - fct % k) % k), (uint32_t)k);
        return;
    }
    for (size_t i = from; i <= upto; i++) {
        uint64_t si = toggle__vecs_get(sv, src, i);
        if (si)
            toggle__vecs_set(v, dst, off + i,
                             toggle__submod(toggle__vecs_get(v, dst, off + i),
                                            toggle__mulmod(fct, si, k), k));
    }
}

/* Entries from .. upto of vector i times f (mod k). */
static void scale_span(toggle__vecs *v, size_t i, size_t from, size_t upto, uint64_t f, uint64_t k)
{
    for (size_t t = from; t <= upto; t++)
        toggle__vecs_set(v, i, t, toggle__mulmod(toggle__vecs_get(v, i, t), f, k));
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
    axpy_span(v, dst, 0, sv, src, fct, k, 0, upto);
}

/* Bring the kernel basis to the canonical one (unit on its free column, 0
 * on the others, in ascending free column) and x to free variables 0. */
/* ---- F_2: the canonical kernel by a packed RREF of the whole basis ------- */

static uint64_t word_reverse(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(x);
}

/* Bit t of the first n bits of v becomes bit n - 1 - t, in place (the
 * padding bits past n are zero before and after). */
static void bits_reverse(uint64_t *v, size_t n)
{
    size_t w = (n + 63) / 64;
    unsigned pad = (unsigned)(w * 64 - n);
    for (size_t a = 0, b = w; a < b--; a++) {
        uint64_t t = word_reverse(v[a]);
        v[a] = a == b ? t : word_reverse(v[b]);
        if (a != b)
            v[b] = t;
    }
    for (size_t i = 0; pad && i < w; i++)
        v[i] = (v[i] >> pad) | (i + 1 < w ? v[i + 1] << (64 - pad) : 0);
}

/* canonicalise for packed (F_2) answers: the canonical basis is the reverse
 * echelon of the basis, fully reduced, which is the RREF of the vectors
 * with their bits reversed: reversed in place, reduced by the Four-Russians
 * elimination (toggle__gf2_rref_cfg, plain form: its workspace is a
 * quarter of the kernel at most), reversed back and put in ascending free
 * cell (the RREF's pivots ascend in reversed positions); the particular
 * solution is then cleared on the free cells. O(dn^2 n / 4096) word
 * operations, against canonicalise's O(dn^2 n / 64). */
static int canonicalise_f2(toggle_solution *sol)
{
    toggle__vecs *K = &sol->kernel;
    size_t dn = sol->nullity, n = K->len, w = (n + 63) / 64, rank = 0;
    size_t *piv = toggle__malloc_array(dn ? dn : 1, sizeof *piv);
    if (!piv)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    for (size_t i = 0; i < dn; i++)
        bits_reverse(toggle__vecs_row(K, i), n);
    toggle__gf2_cfg cfg = {sol->threads, TOGGLE__GF2_PLAIN, 0, 0, NULL};
    int rc = toggle__gf2_rref_cfg(K->data, dn, n, K->stride, piv, &rank, &cfg);
    for (size_t i = 0; i < dn; i++)
        bits_reverse(toggle__vecs_row(K, i), n);
    if (!rc && rank < dn)
        rc = toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
    for (size_t i = 0; !rc && i < dn / 2; i++)
        toggle__vecs_swap(K, i, dn - 1 - i);
    for (size_t i = 0; !rc && sol->solvable && i < dn; i++) {
        size_t c = n - 1 - piv[dn - 1 - i]; /* vector i's free cell */
        uint64_t *x = toggle__vecs_row(&sol->x, 0);
        const uint64_t *v = toggle__vecs_row(K, i);
        if ((x[c >> 6] >> (c & 63)) & 1)
            for (size_t q = 0; q < w; q++)
                x[q] ^= v[q];
    }
    toggle__free(piv);
    return rc;
}

/* Its workspace, for the estimate (d vectors of n). */
static uint64_t canonicalise_f2_bytes(size_t d, size_t n, unsigned threads)
{
    toggle__gf2_cfg cfg = {threads, TOGGLE__GF2_PLAIN, 0, 0, NULL};
    return toggle__gf2_workspace_bytes(d, n, &cfg) + (uint64_t)d * 8;
}

/* The reverse echelon of K's first dn vectors, fully reduced (each unit on
 * its free cell, its last nonzero, and 0 on the others'), in ascending free
 * cell, those cells in piv: O(dn^2 n) scalar steps for vectors of n. */
static int canonical_basis(toggle__vecs *K, size_t dn, uint64_t k, size_t *piv)
{
    bool *used = toggle__calloc(dn ? dn : 1, sizeof *used);
    if (!used)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    for (size_t step = 0; step < dn; step++) {
        size_t best = SIZE_MAX, bi = 0;
        for (size_t i = 0; i < dn; i++) {
            if (used[i])
                continue;
            size_t l = toggle__vecs_last_nonzero(K, i);
            if (l == SIZE_MAX) {
                toggle__free(used);
                return toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
            }
            if (best == SIZE_MAX || l > best) {
                best = l;
                bi = i;
            }
        }
        used[bi] = true;
        piv[bi] = best;
        uint64_t lead = toggle__vecs_get(K, bi, best);
        if (lead != 1)
            scale_span(K, bi, 0, best, toggle__invmod(lead, k), k);
        for (size_t i = 0; i < dn; i++) {
            uint64_t e = i == bi ? 0 : toggle__vecs_get(K, i, best);
            if (e)
                axpy(K, i, K, bi, e, k, best);
        }
    }
    /* order by free column: sort the rows by piv (selection, dn swaps) */
    for (size_t a = 0; a < dn; a++) {
        size_t m = a;
        for (size_t b = a + 1; b < dn; b++)
            if (piv[b] < piv[m])
                m = b;
        if (m != a) {
            toggle__vecs_swap(K, a, m);
            size_t tp = piv[a];
            piv[a] = piv[m];
            piv[m] = tp;
        }
    }
    toggle__free(used);
    return TOGGLE_OK;
}

/* The particular solution to 0 on the free cells piv of the canonical
 * basis: x -= x(piv[i]) K_i (K_i is 0 on the other free cells, so the
 * order does not matter), K_i read from lo[i] (NULL: 0) to piv[i]. */
static void clear_free(toggle_solution *sol, const size_t *piv, const size_t *lo)
{
    for (size_t i = 0; sol->solvable && i < sol->nullity; i++) {
        uint64_t e = toggle__vecs_get(&sol->x, 0, piv[i]);
        if (e && lo)
            axpy_span(&sol->x, 0, 0, &sol->kernel, i, e, sol->k, lo[i], piv[i]);
        else if (e)
            axpy(&sol->x, 0, &sol->kernel, i, e, sol->k, piv[i]);
    }
}

static int canonicalise(toggle_solution *sol)
{
    size_t dn = sol->nullity;
    if (!dn)
        return TOGGLE_OK;
    size_t *piv = toggle__malloc_array(dn, sizeof *piv);
    if (!piv)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    int rc = canonical_basis(&sol->kernel, dn, sol->k, piv);
    if (!rc)
        clear_free(sol, piv, NULL);
    toggle__free(piv);
    return rc;
}

/* ---- odd p: the canonical kernel from two-row local vectors -------------- */

static bool is_board(const toggle_system *s);

/* A kernel vector supported on two consecutive board rows b - 1, b (a
 * "local" one) solves the local system: the window's 2C presses against
 * the equations of every cell they touch (rows b - 2 .. b + 1 for a
 * stencil of row reach 1). Its unknowns are ordered column by column, the
 * cells (b - 1, c), (b, c) of columns 1 .. C - 2 first (the band: cell
 * (b - 1 + o, c) at 2 (c - 1) + o), then the border: columns 0 and C - 1
 * (the wrap's columns: on a cylinder column 0's equations reach column
 * C - 1 and back). An equation of column c then holds band unknowns of
 * columns c - 1 .. c + 1 only, LOC_BW entries from lo, and LOC_NB border
 * entries; the elimination keeps that shape (below). */
#define LOC_BW 8
#define LOC_NB 4
#define LOC_KMAX 64 /* most null vectors of one window (else: not local) */

typedef struct {
    size_t lo; /* the band position of band[0] */
    uint64_t band[LOC_BW], bd[LOC_NB];
} loc_eq;

typedef struct {
    const toggle_graph *g;
    uint64_t p;
    size_t R, C, nb; /* nb = 2 (C - 2) band unknowns */
    loc_eq *eq;      /* 4C: equation 4 c + d is cell (b - 2 + d, c) */
    size_t *act, *pool, *pivrow; /* 4C, 4C, nb */
    uint64_t *x;                 /* nb + LOC_NB */
    toggle__colbuf cb;
    toggle__vecs W; /* the window's null vectors: LOC_KMAX of 2C */
    size_t *wpiv;   /* their free cells */
} loc_ws;

static size_t loc_unknown(const loc_ws *w, size_t o, size_t c)
{
    if (c == 0)
        return w->nb + o;
    if (c == w->C - 1)
        return w->nb + 2 + o;
    return 2 * (c - 1) + o;
}

/* eq's band moved to start at j (its entries below j are 0). */
static void loc_shift(loc_eq *e, size_t j)
{
    size_t sh = j - e->lo;
    for (size_t t = 0; t < LOC_BW; t++)
        e->band[t] = t + sh < LOC_BW ? e->band[t + sh] : 0;
    e->lo = j;
}

/* dst -= f src (both bands starting at the same position). */
static void loc_sub(loc_eq *dst, const loc_eq *src, uint64_t f, uint64_t p)
{
    for (size_t t = 0; t < LOC_BW; t++)
        dst->band[t] = toggle__submod(dst->band[t], toggle__mulmod(f, src->band[t], p), p);
    for (size_t t = 0; t < LOC_NB; t++)
        dst->bd[t] = toggle__submod(dst->bd[t], toggle__mulmod(f, src->bd[t], p), p);
}

static bool loc_band_zero(const loc_eq *e)
{
    for (size_t t = 0; t < LOC_BW; t++)
        if (e->band[t])
            return false;
    return true;
}

/* The null space of window b's local system, as w->W's first *k vectors
 * of 2C (window cell o C + c is board cell (b - 1 + o) C + c, so the
 * window's order is the board's), in canonical form (canonical_basis);
 * *ok false when the system is not of the banded shape (a stencil reaching
 * further) or the null space is larger than LOC_KMAX. The elimination is
 * by columns of the band: at band position j the active equations (those
 * whose first column is at most j's, not yet a pivot, band not 0) are
 * shifted to start at j, the first with a nonzero there is the pivot (made
 * 1) and cleared from the others. An active equation of column c starts
 * at 2 (c - 2) and ends by 2 c + 1, so every active equation's band lies
 * in [j, j + 5]: the LOC_BW entries hold it, the active ones are O(1),
 * O(C) steps a window. Equations whose band is 0 (pool) constrain the
 * border: reduced to their RREF (4 columns). Each free unknown (a band
 * position without pivot, a border one without) gives a null vector by
 * back substitution, O(C) each. */
static int loc_window(loc_ws *w, size_t b, size_t *k, bool *ok)
{
    const toggle_graph *g = w->g;
    size_t R = w->R, C = w->C, nb = w->nb, neq = 4 * C, nact = 0, npool = 0, next = 0;
    uint64_t p = w->p;
    *ok = false;
    for (size_t c = 0; c < C; c++)
        for (size_t d = 0; d < 4; d++) {
            loc_eq *e = &w->eq[4 * c + d];
            memset(e, 0, sizeof *e);
            e->lo = c >= 2 ? 2 * (c - 2) : 0;
        }
    for (size_t o = 0; o < 2; o++)
        for (size_t c = 0; c < C; c++) {
            size_t j = (b - 1 + o) * C + c, u = loc_unknown(w, o, c);
            size_t cnt = toggle__graph_column(g, j, w->cb.idx, w->cb.val);
            for (size_t q = 0; q < cnt; q++) {
                uint64_t v = w->cb.val[q] % p;
                size_t ri = w->cb.idx[q] / C, ci = w->cb.idx[q] % C, d = (ri + R + 2 - b) % R;
                if (!v)
                    continue;
                if (d >= 4)
                    return TOGGLE_OK; /* reaches past rows b - 2 .. b + 1 */
                loc_eq *e = &w->eq[4 * ci + d];
                uint64_t *slot = u >= nb ? &e->bd[u - nb]
                                 : u >= e->lo && u - e->lo < LOC_BW ? &e->band[u - e->lo] : NULL;
                if (!slot)
                    return TOGGLE_OK; /* reaches past columns ci - 1 .. ci + 1 */
                *slot = toggle__addmod(*slot, v, p);
            }
        }
    for (size_t j = 0; j < nb; j++) {
        while (next < neq && w->eq[next].lo <= j)
            w->act[nact++] = next++;
        size_t piv = SIZE_MAX;
        for (size_t a = 0; a < nact; a++) {
            loc_eq *e = &w->eq[w->act[a]];
            loc_shift(e, j);
            if (e->band[0] && piv == SIZE_MAX)
                piv = a;
        }
        w->pivrow[j] = SIZE_MAX;
        if (piv != SIZE_MAX) {
            loc_eq *pe = &w->eq[w->act[piv]];
            uint64_t inv = toggle__invmod(pe->band[0], p);
            for (size_t t = 0; t < LOC_BW; t++)
                pe->band[t] = toggle__mulmod(pe->band[t], inv, p);
            for (size_t t = 0; t < LOC_NB; t++)
                pe->bd[t] = toggle__mulmod(pe->bd[t], inv, p);
            for (size_t a = 0; a < nact; a++)
                if (a != piv && w->eq[w->act[a]].band[0])
                    loc_sub(&w->eq[w->act[a]], pe, w->eq[w->act[a]].band[0], p);
            w->pivrow[j] = w->act[piv];
        }
        size_t keep = 0; /* the pivot leaves; band-0 equations to the pool */
        for (size_t a = 0; a < nact; a++) {
            if (a == piv)
                continue;
            if (loc_band_zero(&w->eq[w->act[a]]))
                w->pool[npool++] = w->act[a];
            else
                w->act[keep++] = w->act[a];
        }
        nact = keep;
    }
    for (size_t a = 0; a < nact; a++) /* (nothing of the band is left) */
        w->pool[npool++] = w->act[a];
    while (next < neq)
        w->pool[npool++] = next++;
    /* the border: the pool's RREF (E rows, pivot columns pc) */
    uint64_t E[LOC_NB][LOC_NB];
    size_t pc[LOC_NB], ne = 0;
    for (size_t a = 0; a < npool; a++) {
        uint64_t v[LOC_NB];
        memcpy(v, w->eq[w->pool[a]].bd, sizeof v);
        for (size_t r = 0; r < ne; r++) {
            uint64_t f = v[pc[r]];
            for (size_t t = 0; f && t < LOC_NB; t++)
                v[t] = toggle__submod(v[t], toggle__mulmod(f, E[r][t], p), p);
        }
        size_t q = 0;
        while (q < LOC_NB && !v[q])
            q++;
        if (q == LOC_NB)
            continue;
        uint64_t inv = toggle__invmod(v[q], p);
        for (size_t t = 0; t < LOC_NB; t++)
            v[t] = toggle__mulmod(v[t], inv, p);
        for (size_t r = 0; r < ne; r++) {
            uint64_t f = E[r][q];
            for (size_t t = 0; f && t < LOC_NB; t++)
                E[r][t] = toggle__submod(E[r][t], toggle__mulmod(f, v[t], p), p);
        }
        memcpy(E[ne], v, sizeof v);
        pc[ne++] = q;
    }
    bool bpiv[LOC_NB] = {false};
    for (size_t r = 0; r < ne; r++)
        bpiv[pc[r]] = true;
    size_t nf = 0;
    for (size_t u = 0; u < nb + LOC_NB; u++) {
        if (u < nb ? w->pivrow[u] != SIZE_MAX : bpiv[u - nb])
            continue;
        if (nf == LOC_KMAX)
            return TOGGLE_OK;
        memset(w->x, 0, (nb + LOC_NB) * sizeof *w->x);
        w->x[u] = 1;
        for (size_t r = 0; r < ne; r++) {
            uint64_t s = 0;
            for (size_t t = 0; t < LOC_NB; t++)
                if (t != pc[r])
                    s = toggle__addmod(s, toggle__mulmod(E[r][t], w->x[nb + t], p), p);
            w->x[nb + pc[r]] = s ? p - s : 0;
        }
        for (size_t j = nb; j-- > 0;) {
            if (w->pivrow[j] == SIZE_MAX)
                continue;
            const loc_eq *e = &w->eq[w->pivrow[j]];
            uint64_t s = 0;
            for (size_t t = 1; t < LOC_BW && j + t < nb; t++)
                s = toggle__addmod(s, toggle__mulmod(e->band[t], w->x[j + t], p), p);
            for (size_t t = 0; t < LOC_NB; t++)
                s = toggle__addmod(s, toggle__mulmod(e->bd[t], w->x[nb + t], p), p);
            w->x[j] = s ? p - s : 0;
        }
        for (size_t o = 0; o < 2; o++)
            for (size_t c = 0; c < C; c++)
                toggle__vecs_set(&w->W, nf, o * C + c, w->x[loc_unknown(w, o, c)]);
        nf++;
    }
    int rc = canonical_basis(&w->W, nf, p, w->wpiv);
    if (rc)
        return rc;
    *k = nf;
    *ok = true;
    return TOGGLE_OK;
}

/* The free cells found so far (ascending): cell, the vector's first
 * possibly nonzero cell, and where it is: a local vector (src | LOC_LOCAL:
 * its row in the locals, board cell lo + i at entry i) or a kernel row. */
#define LOC_LOCAL ((size_t)1 << (sizeof(size_t) * 8 - 1))

typedef struct {
    size_t n, *cell, *lo, *src;
    uint64_t *bits; /* the free cells, one bit each */
} loc_free;

/* The index of free cell t (present). */
static size_t loc_find(const loc_free *fr, size_t t)
{
    size_t a = 0, b = fr->n;
    while (b - a > 1) {
        size_t m = a + (b - a) / 2;
        if (fr->cell[m] <= t)
            a = m;
        else
            b = m;
    }
    return a;
}

/* Free cell `cell` (not yet in fr) added in its place, its vector's first
 * possibly nonzero cell lo, where it is src: O(fr->n). */
static void loc_insert(loc_free *fr, size_t cell, size_t lo, size_t src)
{
    size_t q = fr->n;
    for (; q > 0 && fr->cell[q - 1] > cell; q--) {
        fr->cell[q] = fr->cell[q - 1];
        fr->lo[q] = fr->lo[q - 1];
        fr->src[q] = fr->src[q - 1];
    }
    fr->cell[q] = cell;
    fr->lo[q] = lo;
    fr->src[q] = src;
    fr->bits[cell >> 6] |= (uint64_t)1 << (cell & 63);
    fr->n++;
}

/* Kernel row i against the free cells of fr, from cell top down to lo:
 * at each nonzero on a free cell, the vector there (unit on it) times that
 * entry is subtracted (it changes only cells below); *lo moves down to the
 * subtracted vectors' first cells. With stop, the first nonzero that is
 * not on a free cell is returned (else SIZE_MAX). */
static size_t loc_reduce(toggle__vecs *K, size_t i, const toggle__vecs *Lv, const loc_free *fr,
                         size_t top, size_t *lo, bool stop, uint64_t p)
{
    for (size_t t = top + 1; t-- > *lo;) {
        uint64_t e = toggle__vecs_get(K, i, t);
        if (!e)
            continue;
        if (!((fr->bits[t >> 6] >> (t & 63)) & 1)) {
            if (stop)
                return t;
            continue;
        }
        size_t q = loc_find(fr, t), src = fr->src[q], ql = fr->lo[q];
        if (src & LOC_LOCAL)
            axpy_span(K, i, ql, Lv, src & ~LOC_LOCAL, e, p, 0, t - ql);
        else
            axpy_span(K, i, 0, K, src, e, p, ql, t);
        if (ql < *lo)
            *lo = ql;
    }
    return SIZE_MAX;
}

/* Bytes of canonicalise_local on a rows x cols board with d kernel
 * vectors over k, for the estimate. */
static uint64_t canonicalise_local_bytes(size_t rows, size_t cols, size_t d, uint64_t k)
{
    size_t lv = 0, wv = 0, n = rows * cols;
    if (!toggle__vecs_bytes(2 * cols, d, k, &lv) || !toggle__vecs_bytes(2 * cols, LOC_KMAX, k, &wv))
        return UINT64_MAX;
    unsigned __int128 b = (unsigned __int128)lv + wv + (unsigned __int128)cols * 4 * sizeof(loc_eq)
                        + (unsigned __int128)cols * 8 * 8 + 2 * (unsigned __int128)cols * 16
                        + 64 + LOC_KMAX * 8 + (unsigned __int128)d * 5 * 8 + d + (n / 64 + 1) * 8;
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* What canonicalise_local needs to chase combinations of the kernel rows
 * (span_chase): the lanes of the answers' chase and the unknowns U they
 * were loaded from (ln->L rows of m; x's first when solvable), resid for
 * a chase's residuals (m lanes). NULL: span_chase does not run. */
typedef struct {
    lanes *ln;
    const uint64_t *U;
    size_t m;
    bool solvable;
    uint64_t *resid;
} loc_chase;

/* The most board rows span_chase's suffix takes. */
#define SPAN_HMAX 8

static int span_chase(const toggle_system *s, toggle_solution *sol, const loc_chase *lc,
                      const toggle__vecs *Lv, loc_free *fr, bool *ok);

/* Bytes of span_chase on a board of cols columns with d kernel vectors, m
 * unknowns and L lanes over k, for the estimate. */
static uint64_t span_chase_bytes(size_t rows, size_t cols, size_t d, size_t m, size_t L,
                                 uint64_t k)
{
    size_t h = rows - 1 < SPAN_HMAX ? rows - 1 : SPAN_HMAX, ab = 0;
    if (!toggle__vecs_bytes(h * cols + m, d + 1, k, &ab))
        return UINT64_MAX;
    unsigned __int128 b = (unsigned __int128)ab + (unsigned __int128)m * 8
                        + (unsigned __int128)L * 8 + (unsigned __int128)d * 8;
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* The canonical kernel over odd p from local vectors, where the graph is
 * a board of at least 4 x 4 whose stencil reaches one row and column:
 * (1) every window of board rows b - 1, b (b = 1 .. R - 1) gives its null
 * vectors (loc_window), of which those whose free cell is in row b (row 0
 * too for b = 1; the others lie on row b - 1 alone and came from window
 * b - 1) are kept: distinct free cells, so independent, and kernel
 * vectors of the board (the window's equations are all the cells its
 * presses touch); (2) the rest, given lc, by one chase of their
 * combinations, already reduced (span_chase: O(ns N) for ns of them, not
 * O(ns^2 N)), else the kernel rows, in order, are reduced by them and
 * by the vectors this step already kept (loc_reduce from the last cell),
 * each that keeps a nonzero off the free cells adds its last nonzero as a
 * free cell, until there are dn; (3) all are placed in ascending free cell
 * and each is reduced by the ones before it (which are 0 on every other
 * free cell, so one descending pass clears all of them), and x is cleared
 * on the free cells. dn vectors of the kernel, unit on their distinct
 * free cells and 0 on the others': the canonical basis, which is unique,
 * so canonicalise's answer. Cost: O(R C) for (1); for (2) and (3) O(N) per
 * vector kept in (2) and O(C) per local one (the kernel rows' writes,
 * O(dn N), are the answer's), unless a local vector meets a kept one's free
 * cell (then O(N)). *done false (nothing changed) where it does not apply:
 * then canonicalise; *spanned: span_chase gave (2). */
static int canonicalise_local(const toggle_system *s, toggle_solution *sol, const loc_chase *lc,
                              bool *done, bool *spanned)
{
    const toggle_graph *g = s->graph;
    toggle__vecs *K = &sol->kernel;
    size_t dn = sol->nullity, R = g ? g->rows : 0, C = g ? g->cols : 0, N = R * C, nl = 0;
    uint64_t p = sol->k;
    *done = *spanned = false;
    if (!dn || K->packed || !is_board(s) || R < 4 || C < 4)
        return TOGGLE_OK;
    loc_ws w = {g, p, R, C, 2 * (C - 2), NULL, NULL, NULL, NULL, NULL, {0}, {0}, NULL};
    toggle__vecs Lv = {0};
    loc_free fr = {0, NULL, NULL, NULL, NULL};
    size_t *pos = NULL, *at = NULL;
    bool *fin = NULL;
    int rc = toggle__colbuf_init(&w.cb, g);
    if (rc)
        return rc;
    w.eq = toggle__malloc_array(4 * C, sizeof *w.eq);
    w.act = toggle__malloc_array(4 * C, sizeof *w.act);
    w.pool = toggle__malloc_array(4 * C, sizeof *w.pool);
    w.pivrow = toggle__malloc_array(w.nb, sizeof *w.pivrow);
    w.x = toggle__malloc_array(w.nb + LOC_NB, sizeof *w.x);
    w.wpiv = toggle__malloc_array(LOC_KMAX, sizeof *w.wpiv);
    fr.cell = toggle__malloc_array(dn, sizeof *fr.cell);
    fr.lo = toggle__malloc_array(dn, sizeof *fr.lo);
    fr.src = toggle__malloc_array(dn, sizeof *fr.src);
    fr.bits = toggle__calloc(N / 64 + 1, sizeof *fr.bits);
    if (!w.eq || !w.act || !w.pool || !w.pivrow || !w.x || !w.wpiv || !fr.cell || !fr.lo
        || !fr.src || !fr.bits) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    if ((rc = toggle__vecs_init(&w.W, 2 * C, LOC_KMAX, p))
        || (rc = toggle__vecs_init(&Lv, 2 * C, dn, p)))
        goto out;
    /* (1) the local vectors, in ascending free cell */
    for (size_t b = 1; b < R; b++) {
        size_t k = 0;
        bool ok;
        if ((rc = loc_window(&w, b, &k, &ok)) || !ok)
            goto out;
        for (size_t v = 0; v < k; v++) {
            if (b > 1 && w.wpiv[v] < C)
                continue;
            if (nl == dn)
                goto out; /* more than the kernel holds: not local after all */
            memcpy(toggle__vecs_row(&Lv, nl), toggle__vecs_row(&w.W, v), Lv.stride * 8);
            loc_insert(&fr, (b - 1) * C + w.wpiv[v], (b - 1) * C, nl | LOC_LOCAL);
            nl++;
        }
    }
    /* (2) the rest: by one chase (span_chase), else from the kernel rows:
     * row i reduced, kept in row ns */
    if (lc && (rc = span_chase(s, sol, lc, &Lv, &fr, spanned)))
        goto out;
    size_t ns = *spanned ? dn - nl : 0;
    for (size_t i = 0; !*spanned && fr.n < dn && i < dn; i++) {
        size_t lo = 0, t = loc_reduce(K, i, &Lv, &fr, N - 1, &lo, true, p);
        if (t == SIZE_MAX)
            continue; /* in the span of those found */
        scale_span(K, i, 0, t, toggle__invmod(toggle__vecs_get(K, i, t), p), p);
        if (i != ns)
            toggle__vecs_swap(K, i, ns);
        loc_insert(&fr, t, 0, ns++);
    }
    if (fr.n < dn) {
        rc = toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
        goto out;
    }
    /* (3) the kept rows to their places (descending: a swap never moves a
     * placed row), the local vectors written out, then the full reduction */
    pos = toggle__malloc_array(ns ? ns : 1, sizeof *pos);
    at = toggle__malloc_array(dn, sizeof *at);
    fin = toggle__malloc_array(dn, sizeof *fin);
    if (!pos || !at || !fin) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    for (size_t r = 0; r < dn; r++)
        at[r] = r < ns ? r : SIZE_MAX;
    for (size_t v = 0; v < ns; v++)
        pos[v] = v;
    for (size_t q = dn; q-- > 0;) {
        size_t v = fr.src[q];
        if (v & LOC_LOCAL || pos[v] == q)
            continue;
        size_t r = pos[v], u = at[q];
        toggle__vecs_swap(K, r, q);
        at[r] = u;
        if (u != SIZE_MAX)
            pos[u] = r;
        at[q] = v;
        pos[v] = q;
    }
    for (size_t q = 0; q < dn; q++) {
        size_t v = fr.src[q];
        fin[q] = *spanned && !(v & LOC_LOCAL); /* span_chase's: reduced already */
        if (v & LOC_LOCAL) {
            memset(toggle__vecs_row(K, q), 0, K->stride * 8);
            for (size_t t = 0; t < 2 * C; t++)
                toggle__vecs_set(K, q, fr.lo[q] + t, toggle__vecs_get(&Lv, v & ~LOC_LOCAL, t));
        }
        fr.src[q] = q;
    }
    for (size_t q = 0; q < dn; q++)
        if (!fin[q] && fr.cell[q] > fr.lo[q])
            loc_reduce(K, q, &Lv, &fr, fr.cell[q] - 1, &fr.lo[q], false, p);
    clear_free(sol, fr.cell, fr.lo);
    *done = true;
out:
    toggle__colbuf_clear(&w.cb);
    toggle__free(w.eq);
    toggle__free(w.act);
    toggle__free(w.pool);
    toggle__free(w.pivrow);
    toggle__free(w.x);
    toggle__free(w.wpiv);
    toggle__vecs_clear(&w.W);
    toggle__vecs_clear(&Lv);
    toggle__free(fr.cell);
    toggle__free(fr.lo);
    toggle__free(fr.src);
    toggle__free(fr.bits);
    toggle__free(pos);
    toggle__free(at);
    toggle__free(fin);
    return rc;
}

/* ---- the engine ------------------------------------------------------------- */

static bool transfer_applies(const toggle_system *s, char *why, size_t len)
{
    const toggle_graph *g = s->graph;
    if (!g || (g->kind != TOGGLE_KIND_GRID && g->kind != TOGGLE_KIND_STENCIL))
        return toggle__probe_no(why, len, "the transfer engine needs a grid or stencil graph");
    if (!toggle__is_prime(s->k)) /* composite k: composite.c */
        return toggle__transfer_composite_applies(s, why, len);
    return true;
}

/* Pick the axis: the shorter frame rows first (fewer unknowns), an axis
 * that peels without promotions before one that needs them, and of two
 * axes with promotions the one with fewer unknowns (on a tie the board
 * rows, whose canonical form comes from the tail). */
static bool frame_pick_axis(const toggle_system *s, tframe *f, bool *oom)
{
    const toggle_graph *g = s->graph;
    bool first = g->rows < g->cols;
    *oom = false;
    if (!toggle__is_prime(s->k)) /* composite k: the board rows (composite.c) */
        return frame_setup(s, false, f, oom);
    /* the first axis only as far as its first promotion: when the other
     * axis peels without any, the first is not needed (then as before:
     * the first axis in full when it is) */
    bool promo = false;
    if (frame_setup_dir(s, first, false, f, oom, &promo))
        return true;
    if (*oom)
        return false;
    tframe o;
    if (!frame_setup(s, !first, &o, oom)) {
        bool ooo = *oom;
        *oom = false; /* the first axis serves when it peels */
        if (promo && frame_setup(s, first, f, oom))
            return true;
        *oom = *oom || ooo;
        return false;
    }
    if (!o.nx) {
        *f = o;
        return true;
    }
    if (promo && !frame_setup(s, first, f, oom) && *oom) {
        frame_clear(&o);
        return false;
    }
    bool have = f->cls != NULL;
    /* on a tie the board rows (the canonical form from the tail) */
    if (have && o.nx && (f->m < o.m || (f->m == o.m && !f->tr))) {
        frame_clear(&o);
        return true;
    }
    if (have)
        frame_clear(f);
    *f = o;
    return true;
}

/* The axis (frame_pick_axis); board rows with promotions and no row wrap
 * are then chased from the last row when that needs no more unknowns, so
 * that the canonical form comes from the small system's kernel
 * (rev_canonical). */
static bool frame_pick(const toggle_system *s, tframe *f, bool *oom)
{
    if (!frame_pick_axis(s, f, oom))
        return false;
    if (f->nx && !f->tr && !f->wrap && !f->all) {
        tframe o;
        bool ooom = false; /* out of memory here: keep the forward frame */
        if (frame_setup_dir(s, false, true, &o, &ooom, NULL)) {
            if (o.m <= f->m) {
                frame_clear(f);
                *f = o;
            } else {
                frame_clear(&o);
            }
        }
    }
    return true;
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
    if (toggle__transfer_kron_applies(s)) /* no small system */
        return true;
    if (toggle__transfer_ring_applies(s))
        return toggle__transfer_ring_probe(s, why, len);
    tframe f;
    bool oom;
    if (!frame_pick(s, &f, &oom)) {
        if (oom) /* could not tell: not a "no" */
            return toggle__probe_oom();
        if (!toggle__is_prime(s->k))
            return toggle__probe_no(why, len, "the transfer engine's composite path (k = %llu) "
                                    "needs the board rows' coupling block to peel with "
                                    "weights that are units mod k",
                                    (unsigned long long)s->k);
        return toggle__probe_no(why, len, "the transfer engine finds no axis whose coupling "
                                "block peels (singular or not triangular on both axes, or "
                                "a stencil reaching more than %d rows)", TRANSFER_MAX_REACH);
    }
    size_t m = f.m, nx = f.nx;
    frame_clear(&f);
    /* the small system must be small: at most half the board's unknowns,
     * a quarter when the peeling promotes unknowns */
    if (s->n > 64 && (nx ? 4 : 2) * m > s->n)
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

/* The nullity when a formula gives it without elimination (the square
 * torus and cylinder, by polynomials), else bound (the small system's
 * unknowns: A's structural bound is no smaller on the boards this engine
 * chases, and walking A for it costs more than the chase). */
static int known_nullity(const toggle_system *s, size_t bound, size_t *d)
{
    const toggle_graph *g = s->graph;
    *d = bound;
    if (g->kind != TOGGLE_KIND_GRID)
        return TOGGLE_OK;
    uint32_t top = g->flags & ~(uint32_t)TOGGLE_GRID_NO_SELF;
    unsigned self = (g->flags & TOGGLE_GRID_NO_SELF) ? 0 : 1;
    size_t n = bound;
    int rc = TOGGLE_EUNSUPPORTED;
    if (top == TOGGLE_GRID_TORUS)
        rc = toggle__transfer_ring_nullity(s->k, g->rows, g->cols, self, &n);
    else if (top == TOGGLE_GRID_CYLINDER)
        rc = toggle__grid_cylinder_nullity(s->k, g->rows, g->cols, self, &n);
    if (rc == TOGGLE_EUNSUPPORTED) /* without FLINT (silent) */
        return TOGGLE_OK;
    if (rc)
        return rc;
    *d = n < bound ? n : bound;
    return TOGGLE_OK;
}

/* Bytes of the lanes of L lanes (lanes_init) and, when the sliced chase
 * serves them, its lane-major copies (chase_sliced; F_3: two planes). */
static unsigned __int128 lanes_bytes(const tframe *f, bool sliced, size_t L)
{
    size_t rows = f->nuk + f->Hf + f->Hb + 1, nw = lane_words(f->p, L);
    unsigned __int128 b = ((unsigned __int128)rows * f->C + 1 + f->nx) * nw * 8 + 128;
    size_t CW = (f->C + 63) / 64, DW = (2 * f->C + 63) / 64 + 1;
    if (sliced && f->p == 2 && L <= SLICED_MAX_LANES)
        b += ((unsigned __int128)rows * L * DW + (unsigned __int128)(L + 1) * CW) * 8;
    if (sliced && f->p == 3 && L <= SLICED3_MAX_LANES)
        b += ((unsigned __int128)rows * 2 * L * DW + (unsigned __int128)(2 * L + 2) * CW) * 8;
    return b;
}

/* The estimate follows transfer_solve's allocations phase by phase: the
 * row patterns (alive throughout), then the larger of building the small
 * system, solving it (the engine AUTO picks for it, its own estimate), and
 * chasing the answers (the kernel and x, the small solution, d + 1 lanes,
 * the tail's canonical form). The nullity d is exact for the torus and the
 * cylinder (polynomials), else the small system's m unknowns. */
/* The answers' block of 64 board columns (tcol_put, a transposed F_2
 * frame): the larger of its two layouts, in words. */
static size_t tcol_words(const tframe *f, size_t L, size_t nw)
{
    size_t lane = L * 64 * ((f->C + 63) / 64), cube = 64 * f->C * nw;
    return lane > cube ? lane : cube;
}

static uint64_t tail_rows_p_bytes(const tframe *f, size_t d, size_t m, unsigned threads);

static int transfer_estimate(const toggle_system *s, uint64_t *bytes)
{
    if (!is_board(s))
        return TRANSFER_SMALL_ENGINE.estimate(s, bytes);
    if (toggle__transfer_kron_applies(s))
        return toggle__transfer_kron_estimate(s, bytes);
    if (toggle__transfer_ring_applies(s))
        return toggle__transfer_ring_estimate(s, bytes);
    if (!toggle__is_prime(s->k))
        return toggle__transfer_composite_estimate(s, bytes);
    tframe f;
    bool oom;
    if (!frame_pick(s, &f, &oom))
        return pick_error(oom);
    size_t m = f.m, C = f.C, P = 0;
    for (size_t q = 1; q <= 2 && !P && !f.rev; q++)
        if (shift_invariant(&f, q))
            P = q;
    /* (the hex recurrence's sliced chase allocates as the sliced chase) */
    bool sliced = sliced_ok(&f) || ((f.p == 2 || f.p == 3) && rec_ok(&f));
    unsigned __int128 pat = toggle__transfer_frame_bytes(&f);
    size_t d = m;
    int rc = known_nullity(s, m, &d);
    if (rc) {
        frame_clear(&f);
        return rc;
    }
    toggle__transfer_size z;
    rc = toggle__transfer_sizes(s, m, d, &z);
    if (rc) {
        frame_clear(&f);
        return rc;
    }
    size_t vec = z.vec, kern = z.kern, sys = z.sys, sysb = z.sysb, smallsol = z.smallsol;
    uint64_t inner = z.inner;
    size_t mw = (m + 63) / 64;
    unsigned __int128 m8 = (unsigned __int128)m * 8, build, solve;
    unsigned __int128 packed = (unsigned __int128)m * mw * 8 + mw * 8 + 8;
    unsigned __int128 dense = (unsigned __int128)sys + sysb;
    if (P) {
        size_t L = f.nuk * P + 1;
        unsigned __int128 ln = lanes_bytes(&f, sliced, L) + m8 * lane_words(f.p, L) + 16 * C;
        /* F_2: E transposed and E (m x m bits each); odd p: E in words and
         * the system made of it */
        build = ln + (f.p == 2 ? 2 * packed + (unsigned __int128)(4 * C / 64 + 4) * 8
                               : (unsigned __int128)m * m8 + m8 + dense);
        solve = (f.p == 2 ? packed : dense) + inner;
    } else {
        unsigned __int128 ln = lanes_bytes(&f, sliced, m + 1);
        unsigned __int128 res = m8 * lane_words(f.p, m + 1);
        /* (odd p: the system's rows are written from the residuals) */
        build = ln + res + (f.p == 2 ? packed : dense);
        solve = ln + m8 + (f.p == 2 ? packed : dense) + inner;
    }
    /* the answers: kernel, x, the small solution, d + 1 lanes, U, the
     * residuals, the tail (H rows of d + 1 vectors), the row buffer */
    size_t L = d + 1, H = f.Hf + f.Hb < f.R ? f.Hf + f.Hb : f.R, hc = H * C;
    unsigned __int128 ans = (unsigned __int128)kern + vec + smallsol + lanes_bytes(&f, sliced, L)
                          + m8 + (m8 * lane_words(f.p, L) + 8) + (unsigned __int128)L * m8
                          /* the tail (none for rev; odd p, tr: tail_rows_p's) */
                          + (f.rev ? 0 : f.p != 2 && f.tr
                                ? (unsigned __int128)tail_rows_p_bytes(&f, d, m, toggle__system_threads(s))
                                : (unsigned __int128)L * hc * 8)
                          + (hc > m ? hc : m) * 8
                          + (unsigned __int128)L * 17
                          + (unsigned __int128)L * ((C + 63) / 64) * 8
                          + (f.tr ? (unsigned __int128)(tcol_words(&f, L, lane_words(2, L))
                                                        + C + 64) * 8 : 0);
    if (f.rev) /* rev_canonical: the free cells' lanes and lists, one row's leads */
        ans += (unsigned __int128)L * L * 8 + (unsigned __int128)L * 64 + (f.R + 2) * 16
             + (unsigned __int128)(L < C ? L : C) * C * 8;
    if (f.p == 2 && d) /* canonicalise_f2, when no tail decides */
        ans += canonicalise_f2_bytes(d, (size_t)f.R * C, toggle__system_threads(s));
    if (f.p != 2 && d) /* canonicalise_local and its span_chase, likewise */
        ans += canonicalise_local_bytes(s->graph->rows, s->graph->cols, d, f.p)
             + span_chase_bytes(s->graph->rows, s->graph->cols, d, m, L, f.p);
    ans += ans / 8; /* the small engine's answers are read out through copies */
    frame_clear(&f);
    unsigned __int128 e = build > solve ? build : solve;
    if (e < ans)
        e = ans;
    /* small blocks besides: the handles of the solutions and the small
     * system, the small engine's own scratch of a few rows */
    /* (+ 16 C + 512: a transposed frame's b tile, BTILE_WORDS) */
    /* (+ the tri step's units, C a class, and one build's scratch) */
    e += pat + 8192 + 512 + (unsigned __int128)48 * C
       + (unsigned __int128)(f.ncls * sizeof(toggle__tri_unit) + 9) * C;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}

typedef struct {
    toggle_solution *sol;
    bool with_b;
    uint64_t *tbuf; /* F_2: L rows of (C + 63) / 64 words */
    uint64_t **dst; /* odd p: lane l's vector (x, then the kernel; NULL: not
                     * written), or NULL */
    /* F_2, a transposed frame (frame rows are board columns): a block of 64
     * board columns, written out as words of the board rows (tcol_flush).
     * Cell-major rows (cube): column q's row at blk + q * C * nw; lane rows
     * (the sliced chase): lane l's column q as C bits at blk + (l * 64 + q)
     * * CW. col: C words */
    uint64_t *blk, *col;
    size_t bcur;    /* the block held (board columns 64 bcur ..), SIZE_MAX: none */
    uint64_t bhave; /* its columns received */
    bool cube;      /* the held columns are cell-major rows */
} out_ctx;

/* Lane l's vector in the answers (x first when with_b). */
static uint64_t *out_vec(const out_ctx *ctx, size_t l)
{
    return ctx->with_b && l == 0 ? toggle__vecs_row(&ctx->sol->x, 0)
                                 : toggle__vecs_row(&ctx->sol->kernel, l - ctx->with_b);
}

/* OR the nb (1 .. 64) bits of w into v at bit off (w has no bits past nb). */
static inline void or_word(uint64_t *v, size_t off, uint64_t w, size_t nb)
{
    size_t q = off >> 6;
    unsigned sh = off & 63;
    v[q] |= w << sh;
    if (sh && nb > 64 - sh)
        v[q + 1] |= w >> (64 - sh);
}

/* The held block of board columns into the answers: board row j's bits on
 * those columns, for each lane, as one word ORed in at j * cols + 64 bcur
 * (the answers start at 0, and every column is received once, so blocks
 * flushed in parts compose). Cell-major: for each cell j and 64 lanes the
 * 64 x 64 block (column q, lane) transposed; lane rows: per lane its 64 x C
 * bits transposed into C words. */
static void tcol_flush(out_ctx *ctx, const lanes *ln)
{
    const tframe *f = ln->f;
    if (ctx->bcur == SIZE_MAX || !ctx->bhave)
        return;
    size_t C = f->C, CW = (C + 63) / 64, cols = f->g->cols, c0 = ctx->bcur * 64;
    size_t nb = cols - c0 < 64 ? cols - c0 : 64, L = ln->L, nw = ln->nw, rs = C * nw;
    if (ctx->cube) {
        for (size_t j = 0; j < C; j++)
            for (size_t q = 0; q * 64 < L; q++) {
                toggle__bits_transpose(ctx->col, 1, ctx->blk + j * nw + q, rs, 64, 64);
                for (size_t lb = 0; lb < 64 && q * 64 + lb < L; lb++)
                    if (ctx->col[lb])
                        or_word(out_vec(ctx, q * 64 + lb), j * cols + c0, ctx->col[lb], nb);
            }
        for (uint64_t h = ctx->bhave; h; h &= h - 1)
            memset(ctx->blk + (size_t)__builtin_ctzll(h) * rs, 0, rs * sizeof *ctx->blk);
    } else {
        for (size_t l = 0; l < L; l++) {
            uint64_t *v = out_vec(ctx, l), *b = ctx->blk + l * 64 * CW;
            toggle__bits_transpose(ctx->col, 1, b, CW, 64, C);
            for (size_t j = 0; j < C; j++)
                if (ctx->col[j])
                    or_word(v, j * cols + c0, ctx->col[j], nb);
            for (uint64_t h = ctx->bhave; h; h &= h - 1)
                memset(b + (size_t)__builtin_ctzll(h) * CW, 0, CW * sizeof *b);
        }
    }
    ctx->bhave = 0;
}

/* Frame row r of a transposed F_2 frame into the held block (the block
 * before it flushed first): cell-major rows copied whole, lane rows per
 * lane. A chase hands over rows of one kind. */
static void tcol_put(out_ctx *ctx, const lanes *ln, size_t r, const uint64_t *row,
                     const uint64_t *lrow, size_t lstride)
{
    const tframe *f = ln->f;
    size_t C = f->C, CW = (C + 63) / 64, c = f->rev ? f->R - 1 - r : r;
    if (ctx->bcur != c / 64 || ctx->cube != !lrow) {
        tcol_flush(ctx, ln);
        ctx->bcur = c / 64;
        ctx->cube = !lrow;
    }
    if (lrow) {
        uint64_t *d = ctx->blk + (c % 64) * CW;
        for (size_t l = 0; l < ln->L; l++) {
            memcpy(d + l * 64 * CW, lrow + l * lstride, CW * sizeof *d);
            if (C & 63)
                d[l * 64 * CW + CW - 1] &= ((uint64_t)1 << (C & 63)) - 1;
        }
    } else {
        memcpy(ctx->blk + (c % 64) * C * ln->nw, row, C * ln->nw * sizeof *row);
    }
    ctx->bhave |= (uint64_t)1 << (c % 64);
}

static void write_row(void *ctx_, const lanes *ln, size_t r, const uint64_t *row,
                      const uint64_t *lrow, size_t lstride)
{
    out_ctx *ctx = ctx_;
    const tframe *f = ln->f;
    if (ctx->blk) {
        tcol_put(ctx, ln, r, row, lrow, lstride);
        return;
    }
    if (lrow && f->p == 3 && ctx->sol->kernel.width == 8) {
        /* the two planes into bytes: 8 cells at a time along a board row,
         * a cell at a time down a board column */
        size_t C = f->C, base = frame_cell(f, r, 0), step = f->tr ? f->g->cols : 1;
        for (size_t l = 0; l < ln->L; l++) {
            if (ctx->dst && !ctx->dst[l])
                continue; /* (a lane span_chase does not keep) */
            unsigned char *d = (unsigned char *)(ctx->dst ? ctx->dst[l] : out_vec(ctx, l)) + base;
            const uint64_t *lo = lrow + l * lstride, *hi = lo + lstride / 2;
            size_t j = 0;
            for (; !f->tr && j + 8 <= C; j += 8) {
                uint64_t v = bits_bytes((lo[j >> 6] >> (j & 63)) & 0xff)
                           | bits_bytes((hi[j >> 6] >> (j & 63)) & 0xff) << 1;
                memcpy(d + j, &v, 8);
            }
            for (; j < C; j++)
                d[j * step] = (unsigned char)(((lo[j >> 6] >> (j & 63)) & 1)
                                              | ((hi[j >> 6] >> (j & 63)) & 1) << 1);
        }
        return;
    }
    if (lrow) {
        for (size_t l = 0; l < ln->L; l++) {
            uint64_t *v = out_vec(ctx, l);
            const uint64_t *bits = lrow + l * lstride;
            if (!f->tr) {
                or_bits(v, frame_cell(f, r, 0), bits, f->C);
                continue;
            }
            for (size_t j = 0; j < f->C; j++)
                if ((bits[j >> 6] >> (j & 63)) & 1)
                    or_word(v, frame_cell(f, r, j), 1, 1);
        }
        return;
    }
    if (f->p == 2 && !f->tr && ctx->tbuf) {
        /* the C x L bit matrix of the row, transposed: lane l's C bits (a
         * few lanes bit by bit) */
        size_t CW = (f->C + 63) / 64;
        if (ln->L <= 4) {
            memset(ctx->tbuf, 0, ln->L * CW * sizeof *ctx->tbuf);
            for (size_t l = 0; l < ln->L; l++)
                for (size_t j = 0; j < f->C; j++)
                    ctx->tbuf[l * CW + (j >> 6)] |= ((row[j * ln->nw] >> l) & 1) << (j & 63);
        } else {
            toggle__bits_transpose(ctx->tbuf, CW, row, ln->nw, f->C, ln->L);
        }
        for (size_t l = 0; l < ln->L; l++)
            or_bits(out_vec(ctx, l), frame_cell(f, r, 0), ctx->tbuf + l * CW, f->C);
        return;
    }
    if (f->p != 2 && ctx->dst) {
        /* odd p: lane l's field of every cell, straight into its vector's
         * narrow storage at base + j step (board rows: r C + j; a
         * transposed frame: j cols + its column) */
        size_t per = ln->lf.per, base = frame_cell(f, r, 0), nw = ln->nw, C = f->C;
        size_t step = f->tr ? f->g->cols : 1;
        uint64_t fm = ln->lf.fmask;
        /* 64 cells at a time, every lane: the cells stay in the first cache */
        for (size_t j0 = 0; j0 < C; j0 += 64) {
            size_t j1 = C - j0 < 64 ? C : j0 + 64;
            for (size_t l = 0; l < ln->L; l++) {
                if (!ctx->dst[l])
                    continue;
                const uint64_t *src = row + l / per;
                unsigned sh = (unsigned)((l % per) * ln->lf.lw);
                switch (ctx->sol->kernel.width) {
                case 8: {
                    uint8_t *d = (uint8_t *)ctx->dst[l] + base;
                    for (size_t j = j0; j < j1; j++)
                        d[j * step] = (uint8_t)((src[j * nw] >> sh) & fm);
                    break;
                }
                case 16: {
                    uint16_t *d = (uint16_t *)ctx->dst[l] + base;
                    for (size_t j = j0; j < j1; j++)
                        d[j * step] = (uint16_t)((src[j * nw] >> sh) & fm);
                    break;
                }
                case 32: {
                    uint32_t *d = (uint32_t *)ctx->dst[l] + base;
                    for (size_t j = j0; j < j1; j++)
                        d[j * step] = (uint32_t)((src[j * nw] >> sh) & fm);
                    break;
                }
                default:
                    for (size_t j = j0; j < j1; j++)
                        ctx->dst[l][base + j * step] = (src[j * nw] >> sh) & fm;
                }
            }
        }
        return;
    }
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

/* Unknown i's lanes (an unknown row's cell, then the promoted ones). */
static uint64_t *unknown_lanes(lanes *ln, size_t i)
{
    size_t mr = ln->f->nuk * ln->f->C;
    return i < mr ? ln->saved + i * ln->nw : ln->xsaved + (i - mr) * ln->nw;
}

/* Every lane of the m unknowns := 0. */
static void clear_unknowns(lanes *ln, size_t m)
{
    size_t mr = ln->f->nuk * ln->f->C;
    memset(ln->saved, 0, mr * ln->nw * sizeof *ln->saved);
    memset(ln->xsaved, 0, (m - mr) * ln->nw * sizeof *ln->xsaved);
}

/* Lane l of the unknown rows := U[l] (L vectors of m values). */
static void load_lanes(lanes *ln, const uint64_t *U, size_t m)
{
    clear_unknowns(ln, m);
    for (size_t l = 0; l < ln->L; l++)
        for (size_t i = 0; i < m; i++)
            if (U[l * m + i])
                lane_set(ln, unknown_lanes(ln, i), l, U[l * m + i]);
}

/* The unknowns' board cells in U's order, *n of them (m at most): the
 * unknown rows' cells slot by slot, then the promoted cells in the
 * chase's order (row r's promotion t is cell pvar[t] of frame row r +
 * Hf). */
static int unknown_cells(tframe *f, size_t *cell, size_t m, size_t *n)
{
    size_t C = f->C, fc = first_constraint(f), xk = f->nuk * C;
    *n = 0;
    if (xk > m)
        return TOGGLE_OK;
    for (size_t r = 0; r < f->R; r++) {
        size_t u = unknown_slot(f, r);
        for (size_t j = 0; u != SIZE_MAX && j < C; j++)
            cell[u * C + j] = frame_cell(f, r, j);
    }
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        int rc = frame_class(f, r, &pt);
        if (rc)
            return toggle__error(rc, "out of memory for the transfer engine's row patterns");
        if (!pt->peq)
            return TOGGLE_OK;
        for (size_t t = 0; t < C; t++) {
            if (pt->peq[t] != SIZE_MAX)
                continue;
            if (xk == m)
                return TOGGLE_OK;
            cell[xk++] = frame_cell(f, (r + f->Hf) % f->R, pt->pvar[t]);
        }
    }
    *n = xk;
    return TOGGLE_OK;
}

/* The spanning part of canonicalise_local's basis by one chase, where fr
 * holds the nl local vectors (Lv) and ns = dn - nl vectors are left. A
 * kernel vector is the chase of its values on the unknown cells (checked:
 * every kernel row's there are U's row), and the chase is linear, so a
 * combination of kernel rows is the chase of the same combination of
 * their unknowns. (a) Kernel rows, in order, are reduced at the local
 * free cells (loc_reduce: O(N) each), giving S, 0 on every local free
 * cell. (b) Their last h board rows, reversed, beside their unknowns'
 * values, go into an incremental RREF by the suffix's columns (h = 1, 2,
 * 4, 8: SPAN_HMAX, fewer than R), until its rank is ns; a row without a
 * pivot there is dropped. The RREF's rows are T S on the suffix and on the
 * unknowns: unit on its pivot (the vector's last nonzero, a free cell), 0
 * on the other pivots and on the local free cells. O(ns^2 (h C + m)),
 * sub8 where the entries are bytes. (c) One chase of those unknowns
 * writes T S into kernel rows 0 .. ns - 1: O(ns N), against the O(ns^2
 * N) of reducing the rows by each other. Verified: every residual 0, each
 * vector equal to its RREF row on the suffix and 0 on the local free
 * cells. Then the ns free cells join fr (lo 0, src the row), *ok true.
 * *ok false: no rank ns within SPAN_HMAX rows, or the unknowns not cells,
 * or a check failed (the kernel rows then chased again from U: as they
 * were); the kernel rows stay kernel vectors that span the kernel with the
 * local ones; also false, untried, where ns^2 < L (few spanning
 * vectors: their reduction costs less than a chase). */
static int span_chase(const toggle_system *s, toggle_solution *sol, const loc_chase *lc,
                      const toggle__vecs *Lv, loc_free *fr, bool *ok)
{
    toggle__vecs *K = &sol->kernel, A = {0};
    lanes *ln = lc->ln;
    tframe *f = (tframe *)ln->f;
    size_t dn = sol->nullity, nl = fr->n, ns = dn - nl, m = lc->m, L = ln->L, sb = lc->solvable;
    size_t R = s->graph->rows, C = s->graph->cols, N = R * C, nu = 0, rank = 0, hc = 0;
    size_t hmax = R - 1 < SPAN_HMAX ? R - 1 : SPAN_HMAX;
    uint64_t p = sol->k;
    *ok = false;
    /* the chase costs about L lane steps a cell whatever ns, the
     * reduction it replaces about ns^2 / 32 (sub8) plus 2 ns reads: for a
     * few spanning vectors (the tri cylinder's one) that is cheaper; from
     * ns^2 = L on (the tri torus: ns about L / 2) the chase, at most about
     * the answers' chase again */
    if (!ns || ns * ns < L || f->all || !m || !hmax)
        return TOGGLE_OK;
    size_t *ucell = toggle__malloc_array(m, sizeof *ucell), *pc = toggle__malloc_array(ns, sizeof *pc);
    uint64_t **dst = toggle__malloc_array(L, sizeof *dst);
    int rc = TOGGLE_OK;
    if (!ucell || !pc || !dst) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    if ((rc = toggle__vecs_init(&A, hmax * C + m, ns + 1, p)) || (rc = unknown_cells(f, ucell, m, &nu))
        || nu != m)
        goto out;
    for (size_t i = 0; i < dn; i++)
        for (size_t t = 0; t < m; t++)
            if (ucell[t] >= N || toggle__vecs_get(K, i, ucell[t]) != lc->U[(i + sb) * m + t])
                goto out;
    /* (a), (b) */
    size_t nred = 0;
    for (size_t h = 1;; h = 2 * h < hmax ? 2 * h : hmax) {
        hc = h * C;
        rank = 0;
        for (size_t i = 0; i < dn && rank < ns; i++) {
            size_t w = hc + m, t = 0;
            if (i == nred) {
                size_t lo = 0;
                loc_reduce(K, i, Lv, fr, N - 1, &lo, false, p);
                nred++;
            }
            for (t = 0; t < hc; t++)
                toggle__vecs_set(&A, rank, t, toggle__vecs_get(K, i, N - 1 - t));
            for (t = 0; t < m; t++)
                toggle__vecs_set(&A, rank, hc + t, toggle__vecs_get(K, i, ucell[t]));
            for (size_t r = 0; r < rank; r++) {
                uint64_t e = toggle__vecs_get(&A, rank, pc[r]);
                if (e)
                    axpy_span(&A, rank, 0, &A, r, e, p, pc[r], w - 1);
            }
            for (t = 0; t < hc && !toggle__vecs_get(&A, rank, t); t++)
                ;
            if (t == hc)
                continue; /* 0 on the suffix */
            scale_span(&A, rank, t, w - 1, toggle__invmod(toggle__vecs_get(&A, rank, t), p), p);
            for (size_t r = 0; r < rank; r++) {
                uint64_t e = toggle__vecs_get(&A, r, t);
                if (e)
                    axpy_span(&A, r, 0, &A, rank, e, p, t, w - 1);
            }
            pc[rank++] = t;
        }
        if (rank == ns || h == hmax)
            break;
    }
    if (rank < ns)
        goto out;
    /* (c) lane v := the unknowns of RREF row v (the other lanes 0) */
    clear_unknowns(ln, m);
    for (size_t v = 0; v < ns; v++)
        for (size_t t = 0; t < m; t++) {
            uint64_t e = toggle__vecs_get(&A, v, hc + t);
            if (e)
                lane_set(ln, unknown_lanes(ln, t), v, e);
        }
    for (size_t l = 0; l < L; l++)
        dst[l] = l < ns ? toggle__vecs_row(K, l) : NULL;
    out_ctx ctx = {sol, false, NULL, dst, NULL, NULL, SIZE_MAX, 0, false};
    if ((rc = chase(ln, false, s, lc->resid, write_row, &ctx)))
        goto out;
    bool good = true;
    for (size_t i = 0; i < m * ln->nw; i++)
        good = good && !lc->resid[i];
    for (size_t v = 0; good && v < ns; v++) {
        for (size_t t = 0; good && t < hc; t++)
            good = toggle__vecs_get(K, v, N - 1 - t) == toggle__vecs_get(&A, v, t);
        for (size_t q = 0; good && q < nl; q++)
            good = !toggle__vecs_get(K, v, fr->cell[q]);
    }
    if (!good) { /* (not seen) the kernel rows as they were */
        load_lanes(ln, lc->U, m);
        for (size_t l = 0; l < L; l++)
            dst[l] = l < sb ? NULL : toggle__vecs_row(K, l - sb);
        rc = chase(ln, false, s, lc->resid, write_row, &ctx);
        goto out;
    }
    for (size_t v = 0; v < ns; v++)
        loc_insert(fr, N - 1 - pc[v], 0, v);
    *ok = true;
out:
    toggle__vecs_clear(&A);
    toggle__free(ucell);
    toggle__free(pc);
    toggle__free(dst);
    return rc;
}

typedef struct {
    size_t first;  /* first captured frame row */
    size_t H;      /* rows captured */
    uint64_t *T;   /* L vectors of H * C values (or of hc, below) */
    /* or single cells: frame row r's cells rcol[rstart[r] .. rstart[r + 1])
     * go to positions ridx[..] of the L vectors of hc values */
    const size_t *rstart, *rcol, *ridx;
    size_t hc;
} tail_ctx;

static void capture_row(void *ctx_, const lanes *ln, size_t r, const uint64_t *row,
                        const uint64_t *lrow, size_t lstride)
{
    tail_ctx *t = ctx_;
    size_t C = ln->f->C;
    if (t->rstart) {
        for (size_t k = t->rstart[r]; k < t->rstart[r + 1]; k++) {
            size_t j = t->rcol[k];
            for (size_t l = 0; l < ln->L; l++)
                t->T[l * t->hc + t->ridx[k]] = lrow ? lrow_get(ln, lrow, lstride, l, j)
                                                    : lane_get(ln, row + j * ln->nw, l);
        }
        return;
    }
    if (r < t->first || r - t->first >= t->H)
        return;
    if (lrow) {
        for (size_t l = 0; l < ln->L; l++)
            for (size_t j = 0; j < C; j++)
                t->T[l * t->H * C + (r - t->first) * C + j] = lrow_get(ln, lrow, lstride, l, j);
        return;
    }
    for (size_t j = 0; j < C; j++)
        for (size_t l = 0; l < ln->L; l++)
            t->T[l * t->H * C + (r - t->first) * C + j] = lane_get(ln, row + j * ln->nw, l);
}

/* Reduction mod p < 2^32 of x < 2^64 (Barrett: mu = floor(2^64 / p), the
 * quotient estimate is short by at most one). */
typedef struct {
    uint64_t p, mu;
} modp;

static void modp_init(modp *mp, uint64_t p)
{
    mp->p = p;
    mp->mu = p < ((uint64_t)1 << 32) ? UINT64_MAX / p : 0;
}

static inline uint64_t modp_reduce(const modp *mp, uint64_t x)
{
    uint64_t q = (uint64_t)(((unsigned __int128)x * mp->mu) >> 64), r = x - q * mp->p;
    return r >= mp->p ? r - mp->p : r;
}

/* v -= e w over n entries (each < p; e != 0). */
static void vec_submul(uint64_t *v, const uint64_t *w, uint64_t e, size_t n, const modp *mp)
{
    uint64_t p = mp->p;
    if (p == 2) {
        for (size_t q = 0; q < n; q++)
            v[q] ^= w[q];
    } else if (mp->mu) {
        uint64_t c = p - e;
        for (size_t q = 0; q < n; q++)
            v[q] = modp_reduce(mp, v[q] + c * w[q]);
    } else {
        for (size_t q = 0; q < n; q++)
            if (w[q])
                v[q] = toggle__submod(v[q], toggle__mulmod(e, w[q], p), p);
    }
}

/* v *= e over n entries. */
static void vec_scale(uint64_t *v, uint64_t e, size_t n, const modp *mp)
{
    for (size_t q = 0; q < n; q++)
        v[q] = mp->mu ? modp_reduce(mp, v[q] * e) : toggle__mulmod(v[q], e, mp->p);
}

/* The reverse echelon of the restrictions T (L vectors of hc values, in
 * board order; the particular solution first when solvable) applied to U
 * (L vectors of m values): repeatedly the remaining kernel vector with the
 * largest last nonzero, scaled to 1 there and cleared from every other
 * vector (the particular solution too); then U's kernel vectors ordered by
 * that position. *full when a restriction becomes 0 (not injective). */
static int restricted_echelon(uint64_t p, bool solvable, size_t dn, uint64_t *T, size_t hc,
                              uint64_t *U, size_t m, bool *full)
{
    size_t *piv = toggle__malloc_array(dn ? dn : 1, sizeof *piv);
    bool *used = toggle__calloc(dn ? dn : 1, sizeof *used);
    uint64_t *sw = toggle__malloc_array(m ? m : 1, sizeof *sw);
    int rc = TOGGLE_OK;
    modp mp;
    modp_init(&mp, p);
    *full = false;
    if (!piv || !used || !sw) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    uint64_t *K = T + solvable * hc, *KU = U + solvable * m;
    for (size_t step = 0; step < dn; step++) {
        size_t best = SIZE_MAX, bi = 0;
        for (size_t i = 0; i < dn; i++) {
            if (used[i])
                continue;
            size_t l = hc;
            while (l > 0 && !K[i * hc + l - 1])
                l--;
            if (l == 0) {
                *full = true; /* the restriction does not decide */
                goto out;
            }
            if (best == SIZE_MAX || l - 1 > best) {
                best = l - 1;
                bi = i;
            }
        }
        used[bi] = true;
        piv[bi] = best;
        uint64_t lead = K[bi * hc + best];
        if (lead != 1) {
            uint64_t inv = toggle__invmod(lead, p);
            vec_scale(K + bi * hc, inv, hc, &mp);
            vec_scale(KU + bi * m, inv, m, &mp);
        }
        for (size_t i = 0; i < dn + solvable; i++) {
            /* i < dn: the other kernel vectors; i == dn: the particular */
            uint64_t *vt = i < dn ? K + i * hc : T, *vu = i < dn ? KU + i * m : U;
            if (i == bi && i < dn)
                continue;
            uint64_t e = vt[best];
            if (!e)
                continue;
            vec_submul(vt, K + bi * hc, e, hc, &mp);
            vec_submul(vu, KU + bi * m, e, m, &mp);
        }
    }
    /* order by free column */
    for (size_t a = 0; a < dn; a++) {
        size_t mi = a;
        for (size_t b = a + 1; b < dn; b++)
            if (piv[b] < piv[mi])
                mi = b;
        if (mi != a) {
            memcpy(sw, KU + a * m, m * sizeof *sw);
            memcpy(KU + a * m, KU + mi * m, m * sizeof *sw);
            memcpy(KU + mi * m, sw, m * sizeof *sw);
            size_t tp = piv[a];
            piv[a] = piv[mi];
            piv[mi] = tp;
        }
    }
out:
    toggle__free(piv);
    toggle__free(used);
    toggle__free(sw);
    return rc;
}

/* The canonical form computed on the last H = Hf + Hb frame rows (board
 * rows, so the last H C cells of the row-major order). The free columns are
 * the last nonzero positions of a reverse echelon basis (canonicalise); when
 * the kernel's restriction to those cells is injective, every kernel
 * vector's last nonzero lies there, and the reverse echelon of the
 * restrictions, applied to the unknown rows U (the chase is linear), gives
 * the canonical basis and particular solution without touching the board.
 * Otherwise (a restriction becomes dependent) *full asks for canonicalise. */
static int tail_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U, size_t m,
                          uint64_t *resid, bool *full)
{
    const tframe *f = ln->f;
    size_t C = f->C, H = f->Hf + f->Hb, L = ln->L, dn = L - solvable;
    if (H > f->R)
        H = f->R;
    size_t hc = H * C;
    tail_ctx t = {f->R - H, H, toggle__calloc(L * hc, sizeof(uint64_t)), NULL, NULL, NULL, 0};
    int rc = TOGGLE_OK;
    *full = false;
    if (!t.T) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    if ((rc = chase(ln, solvable, s, resid, capture_row, &t)))
        goto out;
    rc = restricted_echelon(f->p, solvable, dn, t.T, hc, U, m, full);
out:
    toggle__free(t.T);
    return rc;
}

/* ---- F_2: the canonical form from the last board rows, packed ----------- */

/* The cells of the last h board rows (a suffix of the row-major order, on
 * a frame of board rows or of board columns): frame row r's cells
 * rcol[rstart[r] .. rstart[r + 1]) at positions ridx[..] of that suffix. */
typedef struct {
    size_t *rstart, *rcol, *ridx;
    size_t hc;
} tail_cells;

static void tail_cells_free(tail_cells *tc)
{
    toggle__free(tc->rstart);
    toggle__free(tc->rcol);
    toggle__free(tc->ridx);
}

static int tail_cells_init(const tframe *f, size_t h, tail_cells *tc)
{
    size_t R = f->R, C = f->C, cols = f->g->cols, brows = f->tr ? C : R;
    tc->hc = h * cols;
    tc->rstart = toggle__malloc_array(R + 1, sizeof *tc->rstart);
    tc->rcol = toggle__malloc_array(tc->hc, sizeof *tc->rcol);
    tc->ridx = toggle__malloc_array(tc->hc, sizeof *tc->ridx);
    if (!tc->rstart || !tc->rcol || !tc->ridx) {
        tail_cells_free(tc);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    }
    size_t k = 0;
    for (size_t r = 0; r < R; r++) {
        size_t rr = f->rev ? R - 1 - r : r; /* the board row, or column when tr */
        tc->rstart[r] = k;
        for (size_t j = 0; j < C; j++) {
            size_t br = f->tr ? j : rr, bc = f->tr ? rr : j;
            if (br + h < brows)
                continue;
            tc->rcol[k] = j;
            tc->ridx[k++] = (br + h - brows) * cols + bc;
        }
    }
    tc->rstart[R] = k;
    return TOGGLE_OK;
}

/* Capture into packed rows (lane l's row at M + l * stride): the cell at
 * suffix position t goes to bit hc - 1 - t, so that the rows' forward RREF
 * is the reverse echelon of the restrictions. */
typedef struct {
    const tail_cells *tc;
    size_t stride;
    uint64_t *M;
} tailbits_ctx;

static void capture_bits(void *ctx_, const lanes *ln, size_t r, const uint64_t *row,
                         const uint64_t *lrow, size_t lstride)
{
    tailbits_ctx *t = ctx_;
    const tail_cells *tc = t->tc;
    for (size_t k = tc->rstart[r]; k < tc->rstart[r + 1]; k++) {
        size_t j = tc->rcol[k], pos = tc->hc - 1 - tc->ridx[k];
        uint64_t bit = (uint64_t)1 << (pos & 63), *col = t->M + (pos >> 6);
        if (lrow) {
            for (size_t l = 0; l < ln->L; l++)
                if ((lrow[l * lstride + (j >> 6)] >> (j & 63)) & 1)
                    col[l * t->stride] |= bit;
            continue;
        }
        const uint64_t *cell = row + j * ln->nw;
        for (size_t q = 0; q < ln->nw; q++)
            for (uint64_t w = cell[q]; w; w &= w - 1) {
                size_t l = q * 64 + (size_t)__builtin_ctzll(w);
                if (l < ln->L)
                    col[l * t->stride] |= bit;
            }
    }
}

/* The canonical form over F_2 from the last h board rows: one chase of the
 * L lanes (U loaded) captures them packed, U is appended to each row, and
 * the RREF of the dn kernel rows (toggle__gf2_rref) is, on the reversed
 * suffix, the reverse echelon with every other vector 0 on each free cell;
 * when its rank is dn with every pivot in the suffix (the restriction is
 * injective, so every kernel vector's last nonzero lies there) the rows'
 * U parts are the canonical basis's unknowns, in descending free cell, and
 * the particular solution is cleared on the free cells by them. Otherwise
 * *full and U is left alone. */
static int tail_rows_f2(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U, size_t m,
                        uint64_t *resid, size_t h, bool *full)
{
    const tframe *f = ln->f;
    size_t L = ln->L, dn = L - solvable;
    tail_cells tc = {0};
    int rc = tail_cells_init(f, h, &tc);
    if (rc)
        return rc;
    size_t hc = tc.hc, n = hc + m, stride = (n + 63) / 64, rank = 0;
    tailbits_ctx t = {&tc, stride, toggle__calloc(L * stride, sizeof(uint64_t))};
    size_t *piv = toggle__malloc_array(dn ? dn : 1, sizeof *piv);
    *full = true;
    if (!t.M || !piv) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    load_lanes(ln, U, m);
    if ((rc = chase(ln, solvable, s, resid, capture_bits, &t)))
        goto out;
    for (size_t l = 0; l < L; l++)
        for (size_t i = 0; i < m; i++)
            if (U[l * m + i])
                t.M[l * stride + ((hc + i) >> 6)] |= (uint64_t)1 << ((hc + i) & 63);
    uint64_t *K = t.M + solvable * stride;
    /* PLAIN: the form canonicalise_f2_bytes counts (AUTO may take another) */
    toggle__gf2_cfg plain = {1, TOGGLE__GF2_PLAIN, 0, 0, NULL};
    if ((rc = toggle__gf2_rref_cfg(K, dn, n, stride, piv, &rank, &plain)))
        goto out;
    if (rank < dn || (dn && piv[dn - 1] >= hc))
        goto out; /* the restriction does not decide */
    for (size_t i = 0; solvable && i < dn; i++)
        if ((t.M[piv[i] >> 6] >> (piv[i] & 63)) & 1)
            for (size_t q = 0; q < stride; q++)
                t.M[q] ^= K[i * stride + q];
    for (size_t l = 0; l < L; l++) {
        /* lane l: the particular, then the kernel by ascending free cell */
        const uint64_t *row = l < solvable ? t.M : K + (dn - 1 - (l - solvable)) * stride;
        for (size_t i = 0; i < m; i++)
            U[l * m + i] = (row[(hc + i) >> 6] >> ((hc + i) & 63)) & 1;
    }
    *full = false;
out:
    toggle__free(t.M);
    toggle__free(piv);
    tail_cells_free(&tc);
    return rc;
}

/* The largest tail tail_f2_canonical tries: about 8 (dn + a board row)
 * cells. */
#define TAIL_CELLS(dn, cols) (8 * ((dn) + (cols)))

/* The first tail: Hf + Hb board rows on a frame of board rows, dn / cols
 * + 2 on a transposed one. */
static size_t tail_first(const tframe *f, size_t dn)
{
    size_t cols = f->g->cols, h = f->tr ? dn / cols + 2 : f->Hf + f->Hb;
    return h ? h : 1;
}

/* The canonical form over odd p from the last h board rows (a frame of
 * board rows or of board columns), as tail_rows_f2 does over F_2: one
 * chase captures the restrictions as residues, each reversed (the cell at
 * suffix position t in column hc - 1 - t, so that the forward RREF is the
 * reverse echelon), U is appended, and the dn kernel rows are reduced by
 * toggle__fp_rref; when the rank is dn with every pivot in the suffix,
 * the rows' U parts are the canonical basis's unknowns (descending free
 * cell) and the particular solution is cleared on the free cells by
 * them. Otherwise *full and U is left alone. */
static int tail_rows_p(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U, size_t m,
                       uint64_t *resid, size_t h, bool *full)
{
    const tframe *f = ln->f;
    size_t L = ln->L, dn = L - solvable;
    uint64_t p = f->p;
    tail_cells tc = {0};
    int rc = tail_cells_init(f, h, &tc);
    if (rc)
        return rc;
    size_t hc = tc.hc, n = hc + m, rank = 0;
    for (size_t k = 0; k < tc.rstart[f->R]; k++)
        tc.ridx[k] = hc - 1 - tc.ridx[k];
    /* (capture_row's single cells: lane l's cell at T[l n + ridx]) */
    tail_ctx t = {0, 0, toggle__calloc(L * n, sizeof(uint64_t)), tc.rstart, tc.rcol, tc.ridx, n};
    size_t *piv = toggle__malloc_array(dn ? dn : 1, sizeof *piv);
    *full = true;
    if (!t.T || !piv) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    load_lanes(ln, U, m);
    if ((rc = chase(ln, solvable, s, resid, capture_row, &t)))
        goto out;
    for (size_t l = 0; l < L; l++)
        memcpy(t.T + l * n + hc, U + l * m, m * sizeof *U);
    uint64_t *K = t.T + solvable * n;
    if ((rc = toggle__fp_rref(K, dn, n, n, p, toggle__system_threads(s), piv, &rank)))
        goto out;
    if (rank < dn || (dn && piv[dn - 1] >= hc))
        goto out; /* the restriction does not decide */
    /* x -= sum_i x(free_i) K_i (each K_i is 0 on the other free cells, so
     * x's values there are read before any is changed) */
    for (size_t i = 0; solvable && i < dn; i++) {
        uint64_t e = t.T[piv[i]];
        for (size_t j = hc; e && j < n; j++)
            if (K[i * n + j])
                t.T[j] = toggle__submod(t.T[j], toggle__mulmod(e, K[i * n + j], p), p);
    }
    for (size_t l = 0; l < L; l++) {
        const uint64_t *row = l < solvable ? t.T : K + (dn - 1 - (l - solvable)) * n;
        memcpy(U + l * m, row + hc, m * sizeof *U);
    }
    *full = false;
out:
    toggle__free(t.T);
    toggle__free(piv);
    tail_cells_free(&tc);
    return rc;
}

/* Its bytes with the first tail (tail_first), for the estimate. */
static uint64_t tail_rows_p_bytes(const tframe *f, size_t d, size_t m, unsigned threads)
{
    size_t brows = f->tr ? f->C : f->R, h = tail_first(f, d);
    size_t hc = (h < brows ? h : brows) * f->g->cols;
    unsigned __int128 b = (unsigned __int128)(d + 1) * (hc + m) * 8 + (uint64_t)d * 8
                        + ((unsigned __int128)f->R + 1 + 2 * (unsigned __int128)hc) * 8
                        + toggle__fp_rref_bytes(d, hc + m, threads);
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* The F_2 canonical form from growing tails: h0 board rows (tail_first),
 * then twice as many while the restriction does not decide, up to the
 * board or TAIL_CELLS; *full when none decides. */
static int tail_f2_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U,
                             size_t m, uint64_t *resid, bool *full)
{
    const tframe *f = ln->f;
    size_t dn = ln->L - solvable, cols = f->g->cols, brows = f->tr ? f->C : f->R;
    size_t h = tail_first(f, dn);
    int rc = TOGGLE_OK;
    *full = true;
    for (bool first = true; *full && !rc; first = false, h *= 2) {
        if (h > brows)
            h = brows;
        if (!first && h * cols > TAIL_CELLS(dn, cols))
            break;
        rc = tail_rows_f2(ln, s, solvable, U, m, resid, h, full);
        if (h == brows)
            break;
    }
    return rc;
}

/* Frame (row, column) pairs ordered by their board cell. */
typedef struct {
    size_t cell, r, j;
} fcell;

static int fcell_cmp(const void *a, const void *b)
{
    size_t x = ((const fcell *)a)->cell, y = ((const fcell *)b)->cell;
    return (x > y) - (x < y);
}

/* The canonical form of a frame chased from the last board row (rev, no
 * row wrap). The small system's kernel basis (columns reversed, so its
 * canonical basis is in echelon by first nonzero unknown) has a distinct
 * lead per vector, and the unknowns are ordered by the frame row they sit
 * in (the first Hf rows, then each chasing row's promotions in the row
 * they solve). A kernel vector with zero unknowns in frame rows < t is 0
 * on those rows (they are chased from those unknowns alone), and its row t
 * follows from row t's own unknowns alone; so the vectors vanishing on
 * rows < t are spanned by the basis vectors whose lead lies in rows >= t,
 * and their restriction to row t by those whose lead lies in row t. The
 * free columns of row t (the last nonzero positions, in board order, of
 * kernel vectors vanishing on the board rows after it) are hence the
 * reverse echelon positions of those vectors' row t: a few rows of C
 * values each. The restriction to the free columns is injective (it is
 * the identity on the canonical basis), so restricted_echelon on those
 * cells, captured in one chase, gives the canonical basis and particular
 * solution; the answers' chase checks the result (see transfer_solve). */
static int rev_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U, size_t m,
                         uint64_t *resid, size_t *pcell, bool *full)
{
    tframe *f = (tframe *)ln->f;
    size_t C = f->C, R = f->R, L = ln->L, dn = L - solvable, fc = first_constraint(f);
    size_t mr = f->nuk * C, HH = f->Hf + f->Hb;
    uint64_t p = f->p, *KU = U + solvable * m;
    modp mp;
    modp_init(&mp, p);
    *full = false;
    size_t *xo = toggle__calloc(fc + 1, sizeof *xo), *lrow = toggle__malloc_array(dn, sizeof *lrow);
    size_t *rst = toggle__calloc(R + 2, sizeof *rst), *byrow = toggle__malloc_array(dn, sizeof *byrow);
    size_t *rcol = toggle__malloc_array(dn, sizeof *rcol), *ridx = toggle__malloc_array(dn, sizeof *ridx);
    fcell *pv = toggle__malloc_array(dn, sizeof *pv);
    uint64_t *T = toggle__calloc(L * dn, sizeof *T);
    int rc = TOGGLE_OK;
    if (!xo || !lrow || !rst || !byrow || !rcol || !ridx || !pv || !T) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    /* promotions of chasing row r: unknowns mr + xo[r] .. mr + xo[r + 1] */
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        if ((rc = frame_class(f, r, &pt))) {
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        xo[r + 1] = xo[r] + pt->npro;
    }
    /* each basis vector's lead and the frame row it sits in */
    for (size_t l = 0; l < dn; l++) {
        size_t i = 0;
        while (i < m && !KU[l * m + i])
            i++;
        if (i == m) {
            rc = toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
            goto out;
        }
        if (i < mr) {
            lrow[l] = i / C;
        } else {
            size_t r = 0;
            while (xo[r + 1] <= i - mr)
                r++;
            lrow[l] = r + f->Hf;
        }
        rst[lrow[l] + 1]++;
    }
    for (size_t t = 0; t < R; t++)
        rst[t + 1] += rst[t];
    for (size_t l = 0; l < dn; l++)
        byrow[rst[lrow[l]]++] = l;
    for (size_t t = R; t > 0; t--)
        rst[t] = rst[t - 1];
    rst[0] = 0;
    /* row by row: the leads' row t, their reverse echelon positions */
    size_t np = 0, rows_scratch = 0;
    uint64_t *W = NULL;
    for (size_t t = 0; t < R; t++) {
        size_t rho = rst[t + 1] - rst[t];
        if (!rho)
            continue;
        if (rho > rows_scratch) {
            toggle__free(W);
            rows_scratch = rho;
            if (!(W = toggle__malloc_array(rho * C, sizeof *W))) {
                rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
                goto out;
            }
        }
        rowpat *pt = NULL;
        if (t >= f->Hf && (rc = frame_class(f, t - f->Hf, &pt))) {
            toggle__free(W);
            rc = toggle__error(rc, "out of memory for the transfer engine's row patterns");
            goto out;
        }
        for (size_t a = 0; a < rho; a++) {
            const uint64_t *u = KU + byrow[rst[t] + a] * m;
            uint64_t *w = W + a * C;
            if (!pt) { /* an unknown row: its cells are unknowns */
                memcpy(w, u + t * C, C * sizeof *w);
                continue;
            }
            /* the program of row t - Hf with every other row 0 */
            const uint64_t *x = u + mr + xo[t - f->Hf];
            memset(w, 0, C * sizeof *w);
            for (size_t st = 0, kk = 0; st < C; st++) {
                if (pt->peq[st] == SIZE_MAX) {
                    w[pt->pvar[st]] = x[kk++];
                    continue;
                }
                uint64_t acc = 0;
                for (size_t q = pt->pstart[st]; q < pt->pstart[st + 1]; q++)
                    if (pt->pterm[q].slot == HH && w[pt->pterm[q].col])
                        acc = toggle__addmod(acc, toggle__mulmod(pt->pterm[q].w,
                                                                 w[pt->pterm[q].col], p), p);
                w[pt->pvar[st]] = toggle__mulmod(toggle__submod(0, acc, p), pt->pinv[st], p);
            }
        }
        /* reverse echelon of the rho rows (board order: ascending column) */
        for (size_t k = 0; k < rho; k++) {
            size_t best = SIZE_MAX, bi = 0;
            for (size_t a = k; a < rho; a++) {
                size_t j = C;
                while (j > 0 && !W[a * C + j - 1])
                    j--;
                if (j && (best == SIZE_MAX || j - 1 > best))
                    best = j - 1, bi = a;
            }
            if (best == SIZE_MAX) {
                *full = true; /* cannot happen: the row's unknowns are its cells */
                toggle__free(W);
                goto out;
            }
            if (bi != k)
                for (size_t j = 0; j < C; j++) {
                    uint64_t tmp = W[k * C + j];
                    W[k * C + j] = W[bi * C + j];
                    W[bi * C + j] = tmp;
                }
            uint64_t inv = toggle__invmod(W[k * C + best], p);
            for (size_t a = k + 1; a < rho; a++) {
                uint64_t e = W[a * C + best];
                if (e)
                    vec_submul(W + a * C, W + k * C, toggle__mulmod(e, inv, p), C, &mp);
            }
            pv[np].cell = frame_cell(f, t, best);
            pv[np].r = t;
            pv[np++].j = best;
        }
    }
    toggle__free(W);
    /* capture the free cells (in board order) in one chase, reduce there */
    qsort(pv, np, sizeof *pv, fcell_cmp);
    memset(rst, 0, (R + 2) * sizeof *rst);
    for (size_t k = 0; k < np; k++)
        rst[pv[k].r + 1]++;
    for (size_t t = 0; t < R; t++)
        rst[t + 1] += rst[t];
    for (size_t k = 0; k < np; k++)
        rcol[k] = SIZE_MAX;
    if (np != dn) {
        rc = toggle__error(TOGGLE_EINTERNAL, "transfer: %zu free columns for nullity %zu", np, dn);
        goto out;
    }
    for (size_t k = 0; k < np; k++)
        pcell[k] = pv[k].cell;
    /* row t's cells at rst[t] .. rst[t + 1], each at its place k in board
     * order (a row has a few) */
    for (size_t k = 0; k < np; k++) {
        size_t t = pv[k].r, at = rst[t];
        while (at < rst[t + 1] && rcol[at] != SIZE_MAX)
            at++;
        rcol[at] = pv[k].j;
        ridx[at] = k;
    }
    tail_ctx tc = {0, 0, T, rst, rcol, ridx, dn};
    if ((rc = chase(ln, solvable, s, resid, capture_row, &tc)))
        goto out;
    rc = restricted_echelon(p, solvable, dn, T, dn, U, m, full);
out:
    toggle__free(xo);
    toggle__free(lrow);
    toggle__free(rst);
    toggle__free(byrow);
    toggle__free(rcol);
    toggle__free(ridx);
    toggle__free(pv);
    toggle__free(T);
    return rc;
}

/* The answers are the canonical ones for the free cells piv (ascending):
 * kernel vector i is 1 at piv[i] and 0 at the others, x is 0 there, and
 * (a scan of the whole basis, for answers of up to 2^24 entries: the tests'
 * boards) vector i's last nonzero is piv[i]; such a basis of the kernel is
 * the RREF's (docs/transfer.md). */
static int canonical_check(const toggle_solution *sol, const size_t *piv)
{
    const toggle__vecs *K = &sol->kernel;
    size_t dn = sol->nullity;
    bool ok = true, scan = dn <= ((size_t)1 << 24) / (K->len ? K->len : 1);
    for (size_t i = 0; ok && i < dn; i++)
        ok = (i == 0 || piv[i] > piv[i - 1]) && (!scan || toggle__vecs_last_nonzero(K, i) == piv[i]);
    for (size_t i = 0; ok && i < dn; i++)
        for (size_t j = 0; ok && j < dn; j++)
            ok = toggle__vecs_get(K, i, piv[j]) == (i == j);
    for (size_t j = 0; ok && sol->solvable && j < dn; j++)
        ok = toggle__vecs_get(&sol->x, 0, piv[j]) == 0;
    return ok ? TOGGLE_OK
              : toggle__error(TOGGLE_EINTERNAL, "transfer: the kernel basis is not canonical");
}

static int lanes_solve(const toggle_system *s, toggle_solution *sol, bool plain, bool local,
                       bool *ran, bool *spanned);

int toggle__transfer_lanes_solve(const toggle_system *s, toggle_solution *sol)
{
    return lanes_solve(s, sol, false, true, NULL, NULL);
}

int toggle__transfer_lanes_solve_plain(const toggle_system *s, toggle_solution *sol)
{
    return lanes_solve(s, sol, true, true, NULL, NULL);
}

int toggle__transfer_lanes_solve_canon(const toggle_system *s, toggle_solution *sol, bool local,
                                       bool *ran, bool *spanned)
{
    bool r = false, sp = false;
    int rc = lanes_solve(s, sol, false, local, &r, &sp);
    if (ran)
        *ran = r;
    if (spanned)
        *spanned = sp;
    return rc;
}

/* plain: the row programs everywhere (no hex recurrence), for the tests;
 * local: odd p tries canonicalise_local before canonicalise (*ran, when
 * not NULL, tells whether it gave the answer). */
static int lanes_solve(const toggle_system *s, toggle_solution *sol, bool plain, bool local,
                       bool *ran, bool *spanned)
{
    if (!is_board(s))
        return TRANSFER_SMALL_ENGINE.solve(s, sol);
    if (!toggle__is_prime(s->k))
        return toggle__transfer_composite_solve(s, sol);
    tframe f;
    bool oom;
    if (!frame_pick(s, &f, &oom))
        return pick_error(oom);
    if (plain)
        f.rec = f.s3 = -1, f.notri = true;
    toggle_solution *small = NULL;
    lanes ln;
    memset(&ln, 0, sizeof ln);
    uint64_t *resid = NULL, *tmp = NULL, *U = NULL;
    bool full = false, checked = false;
    size_t *pcell = NULL; /* rev_canonical's free cells */
    size_t m = f.m;
    int rc = small_system(s, &f, &small, NULL);
    if (rc)
        goto out;
    size_t dn = toggle_solution_nullity(small);
    bool solvable = toggle_solution_is_solvable(small) == 1;
    if ((rc = toggle__transfer_answers_init(s, sol, solvable, dn)))
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
        U = toggle__malloc_array(m ? L * m : 1, sizeof *U);
        if (!U) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        for (size_t l = 0; l < L; l++) {
            if (solvable && l == 0)
                rc = toggle_solution_particular(small, U + l * m, m);
            else
                rc = toggle_solution_kernel_vector(small, l - solvable, U + l * m, m);
            if (rc)
                goto out;
            for (size_t i = 0; f.rev && i < m / 2; i++) { /* columns reversed */
                uint64_t t = U[l * m + i];
                U[l * m + i] = U[l * m + m - 1 - i];
                U[l * m + m - 1 - i] = t;
            }
        }
        /* the canonical form from the last board rows (when they decide):
         * F_2 packed, on either axis, over growing tails; odd p on the
         * frame's last rows */
        if (dn && f.p == 2 && !f.all && !f.rev) {
            if ((rc = tail_f2_canonical(&ln, s, solvable, U, m, resid, &full)))
                goto out;
        } else if (dn && !f.tr && !f.all && !f.rev) {
            load_lanes(&ln, U, m);
            if ((rc = tail_canonical(&ln, s, solvable, U, m, resid, &full)))
                goto out;
        } else if (dn && f.tr && !f.all && !f.rev) {
            /* odd p, a transposed frame: the last board rows, one try (on
             * the boards sampled, docs/transfer.md, a longer tail never
             * decided where the first did not) */
            if ((rc = tail_rows_p(&ln, s, solvable, U, m, resid, tail_first(&f, dn), &full)))
                goto out;
        } else if (dn && f.rev) {
            load_lanes(&ln, U, m);
            if (!(pcell = toggle__malloc_array(dn, sizeof *pcell))) {
                rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
                goto out;
            }
            if ((rc = rev_canonical(&ln, s, solvable, U, m, resid, pcell, &full)))
                goto out;
            checked = !full;
        } else {
            full = dn > 0;
        }
        load_lanes(&ln, U, m);
        out_ctx ctx = {sol, solvable, NULL, NULL, NULL, NULL, SIZE_MAX, 0, false};
        size_t CW = (f.C + 63) / 64;
        if (f.p == 2 && f.tr
            && (!(ctx.blk = toggle__calloc(tcol_words(&f, L, ln.nw), sizeof *ctx.blk))
                || !(ctx.col = toggle__malloc_array(f.C > 64 ? f.C : 64, sizeof *ctx.col)))) {
            toggle__free(ctx.blk);
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        if (f.p == 2 && !f.tr && !(ctx.tbuf = toggle__calloc(L * CW, sizeof *ctx.tbuf))) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        if (f.p != 2 && !(ctx.dst = toggle__malloc_array(L, sizeof *ctx.dst))) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        for (size_t l = 0; ctx.dst && l < L; l++)
            ctx.dst[l] = solvable && l == 0 ? toggle__vecs_row(&sol->x, 0)
                                            : toggle__vecs_row(&sol->kernel, l - solvable);
        rc = chase(&ln, solvable, s, resid, write_row, &ctx);
        if (!rc)
            tcol_flush(&ctx, &ln);
        toggle__free(ctx.tbuf);
        toggle__free(ctx.blk);
        toggle__free(ctx.col);
        toggle__free(ctx.dst);
        if (rc)
            goto out;
        for (size_t i = 0; i < m * ln.nw; i++)
            if (resid[i]) {
                rc = toggle__error(TOGGLE_EINTERNAL, "transfer chase leaves a residue");
                goto out;
            }
    }
    bool done = false, sp = false;
    loc_chase lc = {&ln, U, m, solvable, resid};
    if (full && f.p != 2 && local
        && (rc = canonicalise_local(s, sol, L && !f.all ? &lc : NULL, &done, &sp)))
        goto out;
    if (ran)
        *ran = done;
    if (spanned)
        *spanned = sp;
    if (full && !done)
        rc = f.p == 2 && sol->kernel.packed ? canonicalise_f2(sol) : canonicalise(sol);
    else if (checked)
        rc = canonical_check(sol, pcell);
out:
    lanes_clear(&ln);
    toggle__free(resid);
    toggle__free(tmp);
    toggle__free(U);
    toggle__free(pcell);
    toggle_solution_free(small);
    frame_clear(&f);
    return rc;
}

/* Moore boards with self take the separable route (kron.c), the square
 * torus the ring route (ring.c), every other board the lanes. */
static int transfer_solve(const toggle_system *s, toggle_solution *sol)
{
    if (toggle__transfer_kron_applies(s))
        return toggle__transfer_kron_solve(s, sol);
    if (toggle__transfer_ring_applies(s))
        return toggle__transfer_ring_solve(s, sol, solve_small);
    return toggle__transfer_lanes_solve(s, sol);
}

/* ---- for the composite path (transfer.h) ----------------------------------- */

toggle__tframe *toggle__transfer_frame(const toggle_system *s, bool tr, bool *oom)
{
    tframe *f = toggle__malloc(sizeof *f);
    *oom = !f;
    if (f && !frame_setup(s, tr, f, oom)) {
        toggle__free(f);
        f = NULL;
    }
    return f;
}

void toggle__transfer_frame_free(toggle__tframe *f)
{
    if (f)
        frame_clear(f);
    toggle__free(f);
}

void toggle__transfer_frame_info(const toggle__tframe *f, toggle__tframe_info *info)
{
    info->m = f->m;
    info->R = f->R;
    info->C = f->C;
    info->H = f->Hf + f->Hb < f->R ? f->Hf + f->Hb : f->R;
    info->tr = f->tr;
}

uint64_t toggle__transfer_frame_bytes(const toggle__tframe *f)
{
    size_t C = f->C;
    unsigned __int128 pat = (unsigned __int128)2 * toggle__graph_max_column(f->g) * 8;
    for (size_t c = 0; c < f->ncls; c++) {
        const rowpat *pt = &f->cls[c];
        if (pt->built)
            pat += (unsigned __int128)pt->start[C] * (sizeof(tentry) + sizeof(struct pterm))
                 + (unsigned __int128)(7 * C + 2) * 8
                 + (pt->sterm ? SLICED_MAX_TERMS * (sizeof(struct sterm)
                                                    + (pt->smask2 ? 16 : 8) * ((C + 63) / 64))
                              : 0);
    }
    pat += (unsigned __int128)f->ncls * sizeof(rowpat);
    /* a class's build walks up to Hf + Hb + 1 rows of columns into a list */
    {
        unsigned __int128 nl = (unsigned __int128)(f->Hf + f->Hb + 1 < f->R ? f->Hf + f->Hb + 1 : f->R)
                             * C * toggle__graph_max_column(f->g);
        pat += (nl <= PAT_LIST_MAX ? nl : 0) * 40 + 40;
    }
    return pat > UINT64_MAX ? UINT64_MAX : (uint64_t)pat;
}

uint64_t toggle__transfer_lanes_bytes(const toggle__tframe *f, size_t L)
{
    unsigned __int128 b = lanes_bytes(f, false, L);
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

int toggle__transfer_small_system(const toggle_system *s, toggle__tframe *f, toggle_system **ss)
{
    return small_system(s, f, NULL, ss);
}

int toggle__transfer_solve_small(const toggle_system *ss, toggle_solution **small)
{
    return solve_small(ss, small);
}

int toggle__transfer_chase(const toggle_system *s, toggle__tframe *f, const uint64_t *U, size_t L,
                           bool with_b, toggle_solution *sol, size_t H, uint64_t *T,
                           uint64_t *res)
{
    lanes ln;
    int rc = lanes_init(&ln, f, L);
    if (rc)
        return rc;
    uint64_t *resid = toggle__calloc(f->m * ln.nw + 1, sizeof *resid);
    out_ctx ctx = {sol, with_b, NULL, NULL, NULL, NULL, SIZE_MAX, 0, false};
    tail_ctx t = {0, H, T, NULL, NULL, NULL, 0};
    if (!resid || (sol && !(ctx.dst = toggle__malloc_array(L, sizeof *ctx.dst))))
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    for (size_t l = 0; !rc && sol && l < L; l++)
        ctx.dst[l] = with_b && l == 0 ? toggle__vecs_row(&sol->x, 0)
                                      : toggle__vecs_row(&sol->kernel, l - with_b);
    if (!rc) {
        load_lanes(&ln, U, f->m);
        rc = sol ? chase(&ln, with_b, s, resid, write_row, &ctx)
                 : chase(&ln, with_b, s, resid, capture_row, &t);
    }
    for (size_t i = 0; !rc && sol && i < f->m * ln.nw; i++)
        if (resid[i])
            rc = toggle__error(TOGGLE_EINTERNAL, "transfer chase leaves a residue");
    for (size_t e = 0; !rc && res && e < f->m; e++)
        res[e] = lane_get(&ln, resid + e * ln.nw, 0);
    toggle__free(ctx.dst);
    toggle__free(resid);
    lanes_clear(&ln);
    return rc;
}

/* The certificate comes from the policy (symmetric A: from the kernel; else
 * the transposed system, a stencil reversed, chased by this engine). */
const toggle__engine toggle__engine_transfer = {transfer_probe, transfer_estimate,
                                                transfer_solve, NULL};
