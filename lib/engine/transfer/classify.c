/* Which chase kernel serves a frame: the sliced terms (lead block B = I),
 * the hex recurrence, the p = 3 row programs and the bit-sliced F_3 small
 * system. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"
#include "engine/transfer/s3.h"

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
bool toggle__tr_sliced_ok(tframe *f)
{
    if (f->sliced)
        return f->sliced > 0;
    f->sliced = -1;
    if ((f->p != 2 && (f->p != 3 || f->s3 < 0)) || f->all || f->nx)
        return false;
    size_t fc = first_constraint(f);
    for (size_t r = 0; r < f->R; r++) {
        rowpat *pt;
        if (toggle__tr_frame_class(f, r, &pt))
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
        if (toggle__tr_frame_class(f, r, &pt) || (!pt->rec && rec_class(f, pt, r) < 0) || pt->rec < 0)
            return false;
        if (r == f->HH && fc > 2 * f->HH + 2)
            r = fc - f->HH - 2; /* the interior classes are met already */
    }
    for (size_t r = fc; r < f->R && (f->p == 2 || f->p == 3); r++)
        if (toggle__tr_frame_class(f, r, &pt) || (!pt->sterm && !sliced_build(f, pt, false)))
            return false;
    return true;
}

/* rec_decide, once per frame. */
bool toggle__tr_rec_ok(tframe *f)
{
    if (!f->rec)
        f->rec = rec_decide(f) ? 1 : -1;
    return f->rec > 0;
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

/* row_p3_ok, once per class (toggle__tr_chase() asks for every row). */
bool toggle__tr_row_p3_once(rowpat *pt, size_t C)
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

/* Does the bit-sliced F_3 chase serve the small system of f with L lanes?
 * p = 3 in 4-bit fields, no promotions, at least S3_MIN_LANES lanes, and
 * every chasing row's program of weights and inverses 1 or 2 (row_p3_ok). */
bool toggle__tr_s3_ok(tframe *f, const lanes *ln)
{
    if (f->s3 < 0 || f->p != 3 || ln->lf.lw != 4 || f->all || f->nx || ln->L < S3_MIN_LANES)
        return false;
    size_t fc = first_constraint(f);
    for (size_t r = 0; r < fc; r++) {
        rowpat *pt;
        if (toggle__tr_frame_class(f, r, &pt) || !pt->peels || !pt->pstart || !toggle__tr_row_p3_once(pt, f->C))
            return false;
        if (r == f->HH && fc > 2 * f->HH + 2)
            r = fc - f->HH - 2; /* the interior classes are met already */
    }
    return true;
}
