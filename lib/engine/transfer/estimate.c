/* Peak bytes of the lanes path (prime k), phase by phase, and of the frame's
 * patterns and lanes. Internal. */
#include <string.h>

#include "engine/flint/poly.h"
#include "engine/transfer/transfer_internal.h"
#include "engine/transfer/kron.h"
#include "engine/transfer/ring.h"

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

/* Bytes of the lanes of L lanes (toggle__tr_lanes_init) and, when the sliced chase
 * serves them, its lane-major copies (toggle__tr_chase_sliced; F_3: two planes). */
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

/* The answers' block of 64 board columns (tcol_put, a transposed F_2
 * frame): the larger of its two layouts, in words. */
size_t toggle__tr_tcol_words(const tframe *f, size_t L, size_t nw)
{
    size_t lane = L * 64 * ((f->C + 63) / 64), cube = 64 * f->C * nw;
    return lane > cube ? lane : cube;
}

/* The estimate follows toggle__tr_lanes_solve's allocations phase by
 * phase: the row patterns (alive throughout), then the larger of building
 * the small system, solving it (the engine AUTO picks for it, its own
 * estimate), and chasing the answers (the kernel and x, the small
 * solution, d + 1 lanes, the tail's canonical form). The nullity d is
 * exact for the torus and the cylinder (polynomials), else the small
 * system's m unknowns. s: a board over a prime. */
int toggle__tr_lanes_estimate(const toggle_system *s, uint64_t *bytes)
{
    tframe f;
    bool oom;
    if (!toggle__tr_frame_pick(s, &f, &oom))
        return toggle__tr_pick_error(oom);
    size_t m = f.m, C = f.C, P = 0;
    for (size_t q = 1; q <= 2 && !P && !f.rev; q++)
        if (toggle__tr_shift_invariant(&f, q))
            P = q;
    /* (the hex recurrence's sliced chase allocates as the sliced chase) */
    bool sliced = toggle__tr_sliced_ok(&f) || ((f.p == 2 || f.p == 3) && toggle__tr_rec_ok(&f));
    unsigned __int128 pat = toggle__transfer_frame_bytes(&f);
    size_t d = m;
    int rc = known_nullity(s, m, &d);
    if (rc) {
        toggle__tr_frame_clear(&f);
        return rc;
    }
    toggle__transfer_size z;
    rc = toggle__transfer_sizes(s, m, d, &z);
    if (rc) {
        toggle__tr_frame_clear(&f);
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
                          /* the tail (none for rev; odd p, tr: toggle__tr_tail_rows_p's) */
                          + (f.rev ? 0 : f.p != 2 && f.tr
                                ? (unsigned __int128)toggle__tr_tail_rows_p_bytes(&f, d, m, toggle__system_threads(s))
                                : (unsigned __int128)L * hc * 8)
                          + (hc > m ? hc : m) * 8
                          + (unsigned __int128)L * 17
                          + (unsigned __int128)L * ((C + 63) / 64) * 8
                          + (f.tr ? (unsigned __int128)(toggle__tr_tcol_words(&f, L, lane_words(2, L))
                                                        + C + 64) * 8 : 0);
    if (f.rev) /* toggle__tr_rev_canonical: the free cells' lanes and lists, one row's leads */
        ans += (unsigned __int128)L * L * 8 + (unsigned __int128)L * 64 + (f.R + 2) * 16
             + (unsigned __int128)(L < C ? L : C) * C * 8;
    if (f.p == 2 && d) /* toggle__tr_canonicalise_f2, when no tail decides */
        ans += toggle__tr_canonicalise_f2_bytes(d, (size_t)f.R * C, toggle__system_threads(s));
    if (f.p != 2 && d) /* toggle__tr_canonicalise_local and its toggle__tr_span_chase, likewise */
        ans += toggle__tr_canonicalise_local_bytes(s->graph->rows, s->graph->cols, d, f.p)
             + toggle__tr_span_chase_bytes(s->graph->rows, s->graph->cols, d, m, L, f.p);
    ans += ans / 8; /* the small engine's answers are read out through copies */
    toggle__tr_frame_clear(&f);
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
