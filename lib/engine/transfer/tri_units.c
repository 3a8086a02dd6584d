/* The tri step's units (tri.c) of a class program, cached per class.
 * Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

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

/* false when out of memory (then the row programs serve). */
bool toggle__tr_tri_cache_init(tri_cache *c, size_t ncls)
{
    c->ncls = ncls;
    c->un = toggle__calloc(ncls, sizeof *c->un);
    c->n = toggle__calloc(ncls, sizeof *c->n);
    c->st = toggle__calloc(ncls, sizeof *c->st);
    return c->un && c->n && c->st;
}

void toggle__tr_tri_cache_free(tri_cache *c)
{
    for (size_t i = 0; c->un && i < c->ncls; i++)
        toggle__free(c->un[i]);
    toggle__free(c->un);
    toggle__free(c->n);
    toggle__free(c->st);
    memset(c, 0, sizeof *c);
}

/* Class ci's state (pt its pattern), its units built on the first call. */
int toggle__tr_tri_cache_get(tri_cache *c, const tframe *f, const rowpat *pt, size_t ci)
{
    bool usem = false;
    if (!c->st[ci])
        c->st[ci] = tri_units(f, pt, &c->un[ci], &c->n[ci], &usem) ? (usem ? 2 : 1) : -1;
    return c->st[ci];
}
