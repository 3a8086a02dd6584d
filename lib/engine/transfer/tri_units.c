/* The tri step's units (tri.c) of a class program, cached per class.
 * Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

/* The term flags of a tri program's equation e (tri_units). */
enum {
    TRI_M = 1u,    /* x_{r-1}(e) */
    TRI_S = 2u,    /* x_r(e) */
    TRI_P = 4u,    /* x_r(p(e)), p(e) != e */
    TRI_BAD = 8u,  /* any other term */
};

/* Can the program of pt have the tri form at all: F_2 or F_3, reach one
 * each way, a chase (not every row unknown), no promotions, compiled,
 * and columns that fit the units' 32-bit cells? */
static inline bool tri_frame_fits(const tframe *f, const rowpat *pt)
{
    if (f->p != 2 && f->p != 3)
        return false;
    if (f->Hf != 1 || f->Hb != 1 || f->all)
        return false;
    return !pt->npro && pt->pstart && f->C < UINT32_MAX;
}

/* A term's flag for equation e: slot 0 is row r - 1, slot 1 row r. */
static inline unsigned tri_term_bit(const struct pterm *tm, size_t e)
{
    if (tm->slot == 0 && tm->col == e)
        return TRI_M;
    if (tm->slot == 1 && tm->col == e)
        return TRI_S;
    return tm->slot == 1 ? TRI_P : TRI_BAD;
}

/* The weight a tri term must have: odd on F_2, 1 on F_3 (x = b - the
 * terms). */
static inline bool tri_weight_ok(const tframe *f, uint64_t w)
{
    return f->p == 2 ? (w & 1) : w == 1;
}

/* Step t of pt's program into the flags fl[e] and partner part[e] of its
 * equation e: false when the step is not of the tri form (solves another
 * variable, an inverse other than 1 on F_3, a term of another kind, a
 * wrong weight or a term kind twice). */
static bool tri_scan_step(const tframe *f, const rowpat *pt, size_t t, unsigned char *fl,
                          size_t *part)
{
    size_t e = pt->peq[t];
    bool ok = e == pt->pvar[t] && (f->p == 2 || pt->pinv[t] == 1);
    for (size_t k = pt->pstart[t]; ok && k < pt->pstart[t + 1]; k++) {
        const struct pterm *tm = &pt->pterm[k];
        unsigned bit = tri_term_bit(tm, e);
        ok = bit != TRI_BAD && tri_weight_ok(f, tm->w) && !(fl[e] & bit);
        fl[e] |= (unsigned char)bit;
        if (bit == TRI_P)
            part[e] = tm->col;
    }
    return ok;
}

/* Are e and q = p(e) a unit of two: q's partner is e and both have the
 * self term or neither? */
static inline bool tri_paired(const unsigned char *fl, const size_t *part, size_t e, size_t q)
{
    return (fl[e] & TRI_P) && (fl[q] & TRI_P) && part[q] == e
        && (fl[q] & TRI_S) == (fl[e] & TRI_S);
}

/* The units from the flags and partners of the C equations into u: a pair
 * at its lower member, every other equation alone. Their count. */
static size_t tri_emit_units(size_t C, const unsigned char *fl, const size_t *part,
                             toggle__tri_unit *u)
{
    size_t k = 0;
    for (size_t e = 0; e < C; e++) {
        bool hp = fl[e] & TRI_P;
        size_t q = hp ? part[e] : 0;
        bool pair = hp && tri_paired(fl, part, e, q);
        unsigned self = (fl[e] & TRI_S) ? TOGGLE__TRI_SELF : 0;
        if (pair && q > e) {
            u[k].a = (uint32_t)e, u[k].b = (uint32_t)q;
            u[k++].flags = TOGGLE__TRI_PAIR | self;
        } else if (!(pair && q < e)) {
            u[k].a = (uint32_t)e, u[k].b = (uint32_t)q;
            u[k++].flags = self | (hp ? TOGGLE__TRI_PART : 0);
        }
    }
    return k;
}

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
    if (!tri_frame_fits(f, pt))
        return false;
    size_t *part = toggle__malloc_array(C, sizeof *part);
    unsigned char *fl = toggle__calloc(C, 1);
    toggle__tri_unit *u = toggle__malloc_array(C, sizeof *u);
    bool ok = part && fl && u;
    size_t withm = 0, k = 0;
    for (size_t t = 0; ok && t < C; t++) {
        ok = tri_scan_step(f, pt, t, fl, part);
        withm += ok && (fl[pt->peq[t]] & TRI_M);
    }
    /* x_{r-1}(e) on every step or on none */
    ok = ok && (withm == 0 || withm == C);
    if (ok)
        k = tri_emit_units(C, fl, part, u);
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
