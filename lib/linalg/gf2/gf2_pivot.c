/* The pivot search of a Four-Russians block (gf2_plain.c): up to K pivots
 * in a window of GF2_SPANW words, found on the rows as they stand, and the
 * byte tables that gather a row's bits on the pivot columns. */
#include "gf2_elim.h"

/* Tr's columns [h0, h1) (Tr[j - 64 w0] bit l: pivot row r + l has column
 * j) from the `found` pivot rows. */
GF2_INLINE void tr_fill(const uint64_t *M, size_t stride, size_t r, unsigned found, size_t w0,
                        size_t h0, size_t h1, uint64_t *Tr)
{
    memset(Tr + (h0 - w0 * 64), 0, (h1 - h0) * sizeof *Tr);
    for (unsigned l = 0; l < found; l++)
        for (size_t col = h0; col < h1; col = (col | 63) + 1) {
            uint64_t x = window(M + (r + l) * stride, col, 64 - (unsigned)(col & 63));
            if (col + 64 - (col & 63) > h1)
                x &= ((uint64_t)1 << (h1 - col)) - 1;
            for (; x; x &= x - 1)
                Tr[col + (size_t)__builtin_ctzll(x) - w0 * 64] |= (uint64_t)1 << l;
        }
}

/* Row `hit` reduced by the pivot rows r + l of sel's bits (pivot rows are
 * mutually reduced: xoring one leaves its bits on the other pivot columns
 * alone, so the choices do not interact). With ext a row is nonzero only
 * on words [w0, ext) and the last. */
GF2_INLINE void pivot_reduce(const toggle__gf2_search *s, size_t r, size_t w0, size_t hit,
                             uint64_t sel)
{
    size_t stride = s->stride, W = s->W, *ext = s->ext;
    uint64_t *p = s->M + hit * stride;
    while (sel) {
        unsigned l = (unsigned)__builtin_ctzll((unsigned long long)sel);
        sel &= sel - 1;
        const uint64_t *src = s->M + (r + l) * stride;
        size_t e = ext ? ext[r + l] : W;
        if (e > w0)
            xor_row(p + w0, src + w0, e - w0);
        if (ext) {
            p[W - 1] ^= src[W - 1];
            ext[hit] = ext[hit] > e ? ext[hit] : e;
        }
    }
}

/* Rows a and b trade places (words from w0 on), with their bookkeeping. */
GF2_INLINE void pivot_swap(const toggle__gf2_search *s, size_t a, size_t b, size_t w0)
{
    size_t W = s->W, *ext = s->ext, *perm = s->perm, *lead = s->lead;
    uint64_t *dst = s->M + a * s->stride, *p = s->M + b * s->stride;
    size_t e = !ext ? W : ext[b] > ext[a] ? ext[b] : ext[a];
    if (e > w0)
        swap_rows(dst + w0, p + w0, e - w0);
    if (ext) {
        swap_rows(dst + W - 1, p + W - 1, 1);
        size_t t = ext[b];
        ext[b] = ext[a];
        ext[a] = t;
    }
    if (perm) {
        size_t t = perm[b];
        perm[b] = perm[a];
        perm[a] = t;
    }
    size_t t = lead[b];
    lead[b] = lead[a];
    lead[a] = t;
}

/* The new pivot row d (r + found) xored into the earlier pivot rows r + l
 * of hasj's bits (unchanged since the test), its zero runs found once. */
GF2_INLINE void pivot_clear(const toggle__gf2_search *s, size_t r, size_t d, uint64_t hasj,
                            size_t w0)
{
    size_t stride = s->stride, W = s->W, *ext = s->ext;
    const uint64_t *dst = s->M + d * stride;
    size_t ng = SIZE_MAX; /* dst's nonzero groups, once one row needs them */
    size_t de = ext ? ext[d] : W, dn = de > w0 ? de - w0 : 0;
    for (uint64_t m = hasj; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll((unsigned long long)m);
        uint64_t *q = s->M + (r + l) * stride;
        if (ng == SIZE_MAX)
            ng = nonzero_groups(dst + w0, dn, s->grp);
        xor_groups(q + w0, dst + w0, dn, s->grp, ng);
        if (ext) {
            q[W - 1] ^= dst[W - 1];
            ext[r + l] = ext[r + l] > de ? ext[r + l] : de;
        }
    }
}

/* Tr past column j up to hz: the new pivot row's bits (dst), and the rows
 * of upd's other bits got them. */
GF2_INLINE void tr_add(uint64_t *Tr, const uint64_t *dst, size_t j, size_t hz, size_t w0,
                       uint64_t upd)
{
    for (size_t col = j + 1; col < hz; col = (col | 63) + 1) {
        uint64_t x = dst[col >> 6] & (~(uint64_t)0 << (col & 63));
        if ((col | 63) >= hz) /* hz is inside this word */
            x &= ~(~(uint64_t)0 << (hz & 63));
        for (; x; x &= x - 1)
            Tr[(col & ~(size_t)63) + (size_t)__builtin_ctzll(x) - w0 * 64] ^= upd;
    }
}

/* (gf2_elim.h) The pivot rows are reduced among themselves as they are
 * found; the transposed pivot rows and the OR of the lower rows let the
 * search skip columns without reading every row for each. */
unsigned toggle__gf2_find_pivots(const toggle__gf2_search *s, size_t r, size_t c, unsigned K,
                                 size_t *pc, size_t *next)
{
    uint64_t *M = s->M;
    size_t stride = s->stride, rows = s->rows, W = s->W, cols = s->cols;
    size_t w0 = c >> 6;
    size_t end = (w0 + GF2_SPANW) * 64 < cols ? (w0 + GF2_SPANW) * 64 : cols;
    /* U (once a column had no pivot): the OR of rows r.. on the window, a
     * superset of the columns where a pivot can still occur, since rows
     * r.. only change by xors among themselves; lets low-rank tails and
     * zero columns be skipped without scanning every row for each one */
    uint64_t U[GF2_SPANW] = {0};
    int have_u = 0;
    /* the pivot rows transposed: Tr[j - 64 w0] has bit l when pivot row
     * r + l has a 1 in column j, kept for the columns not yet examined
     * (the new pivot row's bits are added, and the rows it is xored into
     * changed, at each pivot); reading each pivot row's bit j for every
     * column instead would cost a load per pivot row and column. pcm: the pivot columns found, per word. */
    uint64_t Tr[GF2_SPANW * 64], pcm[GF2_SPANW] = {0};
    unsigned pcn[GF2_SPANW] = {0}; /* pcm's counts (no popcnt in the base x86-64 set) */
    /* Tr is kept up to hz, K columns on at first (a full-rank stretch needs
     * no more); past it, GF2_TR_STEP columns more are read from the pivot
     * rows at a time */
    size_t hz = c + K < end ? c + K : end;
    memset(Tr + (c - w0 * 64), 0, (hz > c ? hz - c : 0) * sizeof *Tr);
    unsigned found = 0;
    size_t j = c;
    for (; j < end && found < K && r + found < rows; j++) {
        if (have_u && !((U[(j >> 6) - w0] >> (j & 63)) & 1))
            continue;
        if (j >= hz) {
            size_t h1 = j + GF2_TR_STEP < end ? j + GF2_TR_STEP : end;
            tr_fill(M, stride, r, found, w0, j, h1, Tr);
            hz = h1;
        }
        /* colm: the pivot columns whose pivot row has a 1 in column j; a
         * row's bit j once reduced by the block is its own bit xor the
         * parity of (row AND colm) */
        uint64_t colm[GF2_SPANW] = {0}, hasj = Tr[j - w0 * 64]; /* bit l: pivot row l has j */
        for (unsigned q = 0, lo = 0; hasj && q < GF2_SPANW; lo += pcn[q++])
            if (pcn[q]) /* then lo < 64: pivot rows lo .. lo + pcn[q] - 1 have word q's */
                colm[q] = place_bits(hasj >> lo, pcm[q]);
        uint64_t any = hasj;
        size_t nq = found ? (pc[found - 1] >> 6) - w0 + 1 : 0;
        size_t hit = rows;
        for (size_t i = r + found; i < rows; i++) {
            const uint64_t *row = M + i * stride;
            unsigned b = bit(row, j);
            if (any) {
                uint64_t acc = 0;
                for (size_t q = 0; q < nq; q++)
                    acc ^= row[w0 + q] & colm[q];
                b ^= (unsigned)__builtin_parityll((unsigned long long)acc);
            }
            if (b) {
                hit = i;
                break;
            }
        }
        if (hit == rows) { /* no pivot in column j: look further */
            if (!have_u) {
                size_t nw = W - w0 < GF2_SPANW ? W - w0 : GF2_SPANW;
                for (size_t i = r; i < rows; i++)
                    for (size_t q = 0; q < nw; q++)
                        U[q] |= M[i * stride + w0 + q];
                have_u = 1;
            }
            continue;
        }
        const uint64_t *p = M + hit * stride;
        uint64_t sel = 0;
        for (unsigned q = 0, lo = 0; q < nq; lo += pcn[q++])
            if (pcn[q])
                sel |= take_bits(p[w0 + q], pcm[q]) << lo;
        pivot_reduce(s, r, w0, hit, sel);
        if (hit != r + found)
            pivot_swap(s, r + found, hit, w0);
        pivot_clear(s, r, r + found, hasj, w0);
        tr_add(Tr, M + (r + found) * stride, j, hz, w0, hasj | (uint64_t)1 << found);
        pcm[(j >> 6) - w0] |= (uint64_t)1 << (j & 63);
        pcn[(j >> 6) - w0]++;
        pc[found++] = j;
    }
    *next = j;
    return found;
}

/* (gf2_elim.h) */
unsigned toggle__gf2_build_gather(const size_t *pc, unsigned kbar, size_t w0,
                                  uint64_t (*lut)[256], unsigned *pos)
{
    uint8_t pm[GF2_LUTB] = {0};
    for (unsigned l = 0; l < kbar; l++) {
        size_t o = pc[l] - w0 * 64;
        pm[o >> 3] |= (uint8_t)(1u << (o & 7));
    }
    unsigned nb = 0, base = 0;
    for (unsigned b = 0; b < GF2_LUTB; b++) {
        if (!pm[b])
            continue;
        uint64_t *t = lut[nb];
        t[0] = 0;
        for (unsigned v = 1; v < 256; v++) {
            unsigned low = v & (0u - v);
            uint64_t add = (pm[b] & low)
                ? (uint64_t)1 << (base + (unsigned)__builtin_popcount(pm[b] & (low - 1)))
                : 0;
            t[v] = t[v & (v - 1)] | add;
        }
        base += (unsigned)__builtin_popcount(pm[b]);
        pos[nb++] = b;
    }
    return nb;
}
