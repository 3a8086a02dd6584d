/* The free cells of a canonical basis under construction
 * (canonicalise_local, span_chase): sorted cells, and reducing a kernel row
 * at them. Internal. */
#include "engine/transfer/transfer_internal.h"

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
void toggle__tr_loc_insert(loc_free *fr, size_t cell, size_t lo, size_t src)
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
size_t toggle__tr_loc_reduce(toggle__vecs *K, size_t i, const toggle__vecs *Lv, const loc_free *fr,
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
            toggle__tr_axpy_span(K, i, ql, Lv, src & ~LOC_LOCAL, e, p, 0, t - ql);
        else
            toggle__tr_axpy_span(K, i, 0, K, src, e, p, ql, t);
        if (ql < *lo)
            *lo = ql;
    }
    return SIZE_MAX;
}
