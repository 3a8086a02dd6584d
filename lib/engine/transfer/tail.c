/* The canonical form from the last board rows (the tail), when the kernel's
 * restriction to them is injective: odd p on frame rows, packed F_2 and odd
 * p on board rows of either axis. Internal. */
#include <string.h>

#include "linalg/fp/rref.h"
#include "linalg/gf2/gf2.h"
#include "engine/transfer/transfer_internal.h"

/* The canonical form computed on the last H = Hf + Hb frame rows (board
 * rows, so the last H C cells of the row-major order). The free columns are
 * the last nonzero positions of a reverse echelon basis (canonicalise); when
 * the kernel's restriction to those cells is injective, every kernel
 * vector's last nonzero lies there, and the reverse echelon of the
 * restrictions, applied to the unknown rows U (the chase is linear), gives
 * the canonical basis and particular solution without touching the board.
 * Otherwise (a restriction becomes dependent) *full asks for canonicalise. */
int toggle__tr_tail_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U, size_t m,
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
    if ((rc = toggle__tr_chase(ln, solvable, s, resid, toggle__tr_capture_row, &t)))
        goto out;
    rc = toggle__tr_restricted_echelon(f->p, solvable, dn, t.T, hc, U, m, full);
out:
    toggle__free(t.T);
    return rc;
}


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
    toggle__tr_load_lanes(ln, U, m);
    if ((rc = toggle__tr_chase(ln, solvable, s, resid, capture_bits, &t)))
        goto out;
    for (size_t l = 0; l < L; l++)
        for (size_t i = 0; i < m; i++)
            if (U[l * m + i])
                t.M[l * stride + ((hc + i) >> 6)] |= (uint64_t)1 << ((hc + i) & 63);
    uint64_t *K = t.M + solvable * stride;
    /* PLAIN: the form toggle__tr_canonicalise_f2_bytes counts (AUTO may take another) */
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

/* The first tail: Hf + Hb board rows on a frame of board rows, dn / cols
 * + 2 on a transposed one. */
size_t toggle__tr_tail_first(const tframe *f, size_t dn)
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
int toggle__tr_tail_rows_p(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U, size_t m,
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
    /* (toggle__tr_capture_row's single cells: lane l's cell at T[l n + ridx]) */
    tail_ctx t = {0, 0, toggle__calloc(L * n, sizeof(uint64_t)), tc.rstart, tc.rcol, tc.ridx, n};
    size_t *piv = toggle__malloc_array(dn ? dn : 1, sizeof *piv);
    *full = true;
    if (!t.T || !piv) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        goto out;
    }
    toggle__tr_load_lanes(ln, U, m);
    if ((rc = toggle__tr_chase(ln, solvable, s, resid, toggle__tr_capture_row, &t)))
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

/* Its bytes with the first tail (toggle__tr_tail_first), for the estimate. */
uint64_t toggle__tr_tail_rows_p_bytes(const tframe *f, size_t d, size_t m, unsigned threads)
{
    size_t brows = f->tr ? f->C : f->R, h = toggle__tr_tail_first(f, d);
    size_t hc = (h < brows ? h : brows) * f->g->cols;
    unsigned __int128 b = (unsigned __int128)(d + 1) * (hc + m) * 8 + (uint64_t)d * 8
                        + ((unsigned __int128)f->R + 1 + 2 * (unsigned __int128)hc) * 8
                        + toggle__fp_rref_bytes(d, hc + m, threads);
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* The F_2 canonical form from growing tails: h0 board rows (toggle__tr_tail_first),
 * then twice as many while the restriction does not decide, up to the
 * board or TAIL_CELLS; *full when none decides. */
int toggle__tr_tail_f2_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U,
                             size_t m, uint64_t *resid, bool *full)
{
    const tframe *f = ln->f;
    size_t dn = ln->L - solvable, cols = f->g->cols, brows = f->tr ? f->C : f->R;
    size_t h = toggle__tr_tail_first(f, dn);
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
