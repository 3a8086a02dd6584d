/* The lanes: L values per cell (packed bits for F_2, narrow fields for odd
 * p), and loading the unknowns into them. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"

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

void toggle__tr_lanes_clear(lanes *ln)
{
    toggle__free(ln->mem);
    toggle__free(ln->xsaved);
    toggle__free(ln->acc);
    memset(ln, 0, sizeof *ln);
}

int toggle__tr_lanes_init(lanes *ln, const tframe *f, size_t L)
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
        toggle__tr_lanes_clear(ln); /* the callers return at once: nothing is left behind */
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer chase");
    }
    return TOGGLE_OK;
}


/* Unknown i's lanes (an unknown row's cell, then the promoted ones). */
uint64_t *toggle__tr_unknown_lanes(lanes *ln, size_t i)
{
    size_t mr = ln->f->nuk * ln->f->C;
    return i < mr ? ln->saved + i * ln->nw : ln->xsaved + (i - mr) * ln->nw;
}

/* Every lane of the m unknowns := 0. */
void toggle__tr_clear_unknowns(lanes *ln, size_t m)
{
    size_t mr = ln->f->nuk * ln->f->C;
    memset(ln->saved, 0, mr * ln->nw * sizeof *ln->saved);
    memset(ln->xsaved, 0, (m - mr) * ln->nw * sizeof *ln->xsaved);
}

/* Lane l of the unknown rows := U[l] (L vectors of m values). */
void toggle__tr_load_lanes(lanes *ln, const uint64_t *U, size_t m)
{
    toggle__tr_clear_unknowns(ln, m);
    for (size_t l = 0; l < ln->L; l++)
        for (size_t i = 0; i < m; i++)
            if (U[l * m + i])
                lane_set(ln, toggle__tr_unknown_lanes(ln, i), l, U[l * m + i]);
}
