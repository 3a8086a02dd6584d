/* The frame: board rows or columns as frame rows, their classes, the reach
 * of the equations, and the choice of axis and direction. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

void toggle__tr_frame_clear(tframe *f)
{
    if (f->cls)
        for (size_t i = 0; i < f->ncls; i++)
            toggle__tr_pat_clear(&f->cls[i]);
    toggle__free(f->cls);
    toggle__colbuf_clear(&f->cb);
    f->cls = NULL;
}

/* Silent (the probe uses it): TOGGLE_ENOMEM without a message. */
int toggle__tr_frame_class(tframe *f, size_t r, rowpat **out)
{
    rowpat *pt = &f->cls[class_of(f, r)];
    if (!pt->built) {
        int rc = toggle__tr_pat_build(f, r, pt);
        if (rc) {
            toggle__tr_pat_clear(pt);
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
        toggle__tr_frame_clear(f);
        return false;
    }
    /* every class must peel (all classes are met by the rows of the chase) */
    size_t nchase = f->all ? 0 : f->R - (f->wrap ? f->Hf + f->Hb : f->Hf);
    for (size_t r = 0; r < nchase; r++) {
        rowpat *pt;
        int rc = toggle__tr_frame_class(f, r, &pt);
        if (rc || !pt->peels || (promo && pt->npro)) {
            *oom = *oom || rc;
            if (promo && !rc && pt->peels)
                *promo = true;
            toggle__tr_frame_clear(f);
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
        /* out of memory on the second axis: no choice can be made (the
         * first axis alone could be the worse one), so the caller reports
         * ENOMEM instead of refusing the board */
        if (*oom)
            return false;
        if (promo && frame_setup(s, first, f, oom))
            return true;
        return false;
    }
    if (!o.nx) {
        *f = o;
        return true;
    }
    if (promo && !frame_setup(s, first, f, oom) && *oom) {
        toggle__tr_frame_clear(&o);
        return false;
    }
    bool have = f->cls != NULL;
    /* on a tie the board rows (the canonical form from the tail) */
    if (have && o.nx && (f->m < o.m || (f->m == o.m && !f->tr))) {
        toggle__tr_frame_clear(&o);
        return true;
    }
    if (have)
        toggle__tr_frame_clear(f);
    *f = o;
    return true;
}

/* The axis (frame_pick_axis); board rows with promotions and no row wrap
 * are then chased from the last row when that needs no more unknowns, so
 * that the canonical form comes from the small system's kernel
 * (toggle__tr_rev_canonical). */
bool toggle__tr_frame_pick(const toggle_system *s, tframe *f, bool *oom)
{
    if (!frame_pick_axis(s, f, oom))
        return false;
    if (f->nx && !f->tr && !f->wrap && !f->all) {
        tframe o;
        bool ooom = false;
        if (frame_setup_dir(s, false, true, &o, &ooom, NULL)) {
            if (o.m <= f->m) {
                toggle__tr_frame_clear(f);
                *f = o;
            } else {
                toggle__tr_frame_clear(&o);
            }
        } else if (ooom) { /* the choice depends on o: out of memory, not a refusal */
            toggle__tr_frame_clear(f);
            *oom = true;
            return false;
        }
    }
    return true;
}

/* The error of a failed toggle__tr_frame_pick in estimate and solve. */
int toggle__tr_pick_error(bool oom)
{
    if (oom)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer engine's frame");
    return toggle__error(TOGGLE_EUNSUPPORTED, "the transfer engine cannot chase this board");
}

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
        toggle__tr_frame_clear(f);
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
