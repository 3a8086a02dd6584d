/* The ring route of the transfer engine: the square torus (with or without
 * self) over a prime p, by rows as elements of S = F_p[y]/(y^C - 1).
 * docs/transfer.md, "The ring route", has the method and the proof:
 *
 * - cell j of a row is the coefficient of y^j; the row's own part of A is
 *   multiplication by T = d + y + y^-1 (d = 1, or 0 without self), so row
 *   r's equation is T x_r + x_{r-1} + x_{r+1} = b_r (rows mod R);
 * - the unknowns are the LAST two rows U = x_{R-2}, V = x_{R-1}; chasing
 *   down, x_{r-1} = b_r - T x_r - x_{r+1}, gives x_r = P_r U + Q_r V + c_r
 *   with P, Q, c three packed rows a step (O(C / 64) word operations over
 *   F_2), never 2C + 1 lanes;
 * - the two equations left (rows 0 and R - 1) are a 2 x 2 system over S,
 *   written out as a 2C x 2C system of circulant blocks and solved by the
 *   engine AUTO picks for it;
 * - every solution is fixed by its last two rows, so every nonzero kernel
 *   vector has its last nonzero there: the small system's canonical answers
 *   (its unknowns are the last 2C cells, in cell order) are the board's,
 *   and each answer is one chase of one row triple. */
#include <string.h>

#include "engine/flint/poly.h"
#include "engine/transfer/ring.h"
#include "engine/transfer/transfer.h"
#include "engine/transfer/transfer_tune.h"

bool toggle__transfer_ring_applies(const toggle_system *s)
{
    const toggle_graph *g = s->graph;
    if (!g || g->kind != TOGGLE_KIND_GRID || !toggle__is_prime(s->k))
        return false;
    uint32_t top = g->flags & ~(uint32_t)TOGGLE_GRID_NO_SELF;
    return (top == TOGGLE_GRID_TORUS && g->rows >= 3) ||
           (top == TOGGLE_GRID_CYLINDER && g->rows >= 2);
}

/* Unknown rows: the last two on the torus, the last one on the cylinder. */
static size_t ring_unknown_rows(const toggle_graph *g)
{
    return (g->flags & TOGGLE_GRID_CYLINDER) ? 1 : 2;
}

bool toggle__transfer_ring_probe(const toggle_system *s, char *why, size_t len)
{
    /* the transfer engine's rule: the small system (2C unknowns) at most
     * half the board's for more than 64 cells */
    size_t m = ring_unknown_rows(s->graph) * s->graph->cols;
    if (s->n > SMALL_MIN_CELLS && SMALL_SHARE * m > s->n)
        return toggle__probe_no(why, len, "the transfer engine's small system (%zu unknowns) "
                                "is not small for %zu cells", m, s->n);
    return true;
}

typedef struct {
    const toggle_system *s;
    uint64_t p;
    size_t R, C, W; /* W: words a row (F_2: (C + 63) / 64; odd p: C) */
    unsigned d;     /* the self weight, 1 or 0 */
    uint64_t *brow; /* scratch: one row of b */
    size_t nb;      /* unknown rows: 2 (torus), 1 (cylinder: x_R = 0, no U) */
} ring;

/* Row r of b into rg->brow. */
static const uint64_t *load_b(ring *rg, size_t r)
{
    size_t C = rg->C, off = r * C;
    const toggle__vecs *b = &rg->s->b;
    if (rg->p == 2) {
        const uint64_t *src = toggle__vecs_row(b, 0);
        size_t last = (b->len + 63) / 64;
        for (size_t i = 0; i < rg->W; i++)
            rg->brow[i] = toggle__bits_window(src, last, off + 64 * i);
        if (C & 63)
            rg->brow[rg->W - 1] &= ((uint64_t)1 << (C & 63)) - 1;
    } else {
        for (size_t j = 0; j < C; j++)
            rg->brow[j] = toggle__vecs_get(b, 0, off + j) % rg->p;
    }
    return rg->brow;
}

/* Over F_2, one row of W words holding C cells (padding bits 0): out =
 * b + T x + xn, T x = (x & self) + (x rotated up one cell) + (x rotated
 * down one cell). The inner words need no branch, so the loop vectorises
 * (TOGGLE__HOT: an AVX2 copy where the CPU has it). */
TOGGLE__HOT static void step_f2(uint64_t *restrict out, const uint64_t *restrict x,
                                const uint64_t *restrict xn, const uint64_t *restrict b, size_t C,
                                size_t W, uint64_t self)
{
    uint64_t first = x[0] & 1, last = (x[(C - 1) >> 6] >> ((C - 1) & 63)) & 1;
    if (W == 1) {
        out[0] = (x[0] << 1) ^ (x[0] >> 1) ^ xn[0] ^ (x[0] & self) ^ (b ? b[0] : 0);
    } else {
        out[0] = (x[0] << 1) ^ (x[0] >> 1) ^ (x[1] << 63) ^ xn[0] ^ (x[0] & self);
        for (size_t q = 1; q + 1 < W; q++)
            out[q] = (x[q] << 1) ^ (x[q - 1] >> 63) ^ (x[q] >> 1) ^ (x[q + 1] << 63) ^ xn[q] ^
                     (x[q] & self);
        out[W - 1] = (x[W - 1] << 1) ^ (x[W - 2] >> 63) ^ (x[W - 1] >> 1) ^ xn[W - 1] ^
                     (x[W - 1] & self);
        if (b)
            for (size_t q = 0; q < W; q++)
                out[q] ^= b[q];
    }
    out[0] ^= last;                           /* y x at cell 0: x_{C-1} */
    out[(C - 1) >> 6] ^= first << ((C - 1) & 63); /* y^-1 x at C - 1: x_0 */
    if (C & 63)
        out[W - 1] &= ((uint64_t)1 << (C & 63)) - 1;
}

/* out = b - T x - xn (b may be NULL: 0); out, x, xn and b are distinct. */
static void step(const ring *rg, uint64_t *out, const uint64_t *x, const uint64_t *xn,
                 const uint64_t *b)
{
    size_t C = rg->C;
    if (rg->p == 2) {
        step_f2(out, x, xn, b, C, rg->W, rg->d ? ~(uint64_t)0 : 0);
        return;
    }
    uint64_t p = rg->p;
    if (p < ((uint64_t)1 << 61) && C >= 3) {
        /* b + 4p - (d x_j + x_{j-1} + x_{j+1} + xn_j) lies in [0, 5p):
         * three conditional subtractions, no division, no branch */
        uint64_t p4 = 4 * p, p2 = 2 * p, dm = rg->d ? ~(uint64_t)0 : 0;
        for (size_t j = 0; j < C; j++) {
            uint64_t l = x[j ? j - 1 : C - 1], r = x[j + 1 < C ? j + 1 : 0];
            uint64_t v = (b ? b[j] : 0) + p4 - (x[j] & dm) - l - r - xn[j];
            v -= v >= p4 ? p4 : 0;
            v -= v >= p2 ? p2 : 0;
            out[j] = v - (v >= p ? p : 0);
        }
        return;
    }
    for (size_t j = 0; j < C; j++) {
        uint64_t v = b ? b[j] : 0;
        if (rg->d)
            v = toggle__submod(v, x[j], p);
        v = toggle__submod(v, x[j ? j - 1 : C - 1], p);
        v = toggle__submod(v, x[j + 1 < C ? j + 1 : 0], p);
        out[j] = toggle__submod(v, xn[j], p);
    }
}

/* Row r of the answer being chased. */
typedef void (*ring_sink)(void *ctx, const ring *rg, size_t r, const uint64_t *row);

/* The chase down from x_{R-1} = V, x_{R-2} = U (the cylinder: x_R = 0, U
 * unused) (b read when with_b): every
 * row to sink (if any) in descending order, R - 1 first (write_shifted
 * relies on it), then x_0 into x0 and x_{-1} (the chase of row 0's
 * equation, which must equal x_{R-1}) into xm1. buf: 3 rows. */
static void ring_chase(ring *rg, const uint64_t *U, const uint64_t *V, bool with_b, ring_sink sink,
                       void *ctx, uint64_t *buf, uint64_t *x0, uint64_t *xm1)
{
    size_t W = rg->W, R = rg->R, first = R - rg->nb;
    uint64_t *nxt = buf, *cur = buf + W, *out = buf + 2 * W;
    if (rg->nb == 1) { /* the cylinder: x_R = 0 */
        memset(nxt, 0, W * sizeof *nxt);
        memcpy(cur, V, W * sizeof *cur);
    } else {
        memcpy(nxt, V, W * sizeof *nxt);
        memcpy(cur, U, W * sizeof *cur);
    }
    if (sink) {
        sink(ctx, rg, R - 1, rg->nb == 1 ? cur : nxt);
        if (rg->nb == 2)
            sink(ctx, rg, R - 2, cur);
    }
    for (size_t r = first; r-- > 0;) {
        /* x_r from row r + 1's equation */
        step(rg, out, cur, nxt, with_b ? load_b(rg, r + 1) : NULL);
        if (sink)
            sink(ctx, rg, r, out);
        uint64_t *t = nxt;
        nxt = cur;
        cur = out;
        out = t;
    }
    memcpy(x0, cur, W * sizeof *x0);
    step(rg, xm1, cur, nxt, with_b ? load_b(rg, 0) : NULL);
}

/* Coefficient k of a ring element (a row). */
static inline uint64_t coef(const ring *rg, const uint64_t *g, size_t k)
{
    return rg->p == 2 ? (g[k >> 6] >> (k & 63)) & 1 : g[k];
}

/* g += c y^k. */
static void coef_add(const ring *rg, uint64_t *g, size_t k, uint64_t c)
{
    if (rg->p == 2)
        g[k >> 6] ^= (c & 1) << (k & 63);
    else
        g[k] = toggle__addmod(g[k], c % rg->p, rg->p);
}

/* g's coefficient k := c (reduced). */
static void coef_set(const ring *rg, uint64_t *g, size_t k, uint64_t c)
{
    if (rg->p == 2)
        g[k >> 6] = (g[k >> 6] & ~((uint64_t)1 << (k & 63))) | ((c & 1) << (k & 63));
    else
        g[k] = c % rg->p;
}

/* The nb C x nb C system of the nb x nb ring matrix G (G[a][b] multiplies
 * unknown row b in equation a: entry (a C + i, b C + j) = G[a][b] at
 * (i - j) mod C) and right-hand side rhs[a] (rows of S). */
static int ring_small_system(const ring *rg, uint64_t *const G[2][2], uint64_t *const rhs[2],
                             toggle_system **ss)
{
    size_t C = rg->C, nb = rg->nb, m = nb * C;
    if (rg->p == 2) {
        size_t mw = (m + 63) / 64, DW = (2 * C + 63) / 64 + 1, CW = rg->W;
        uint64_t *rows = toggle__calloc(m * mw, sizeof *rows);
        uint64_t *bb = toggle__calloc(mw, sizeof *bb);
        uint64_t *D = toggle__calloc(DW + CW, sizeof *D), *win = D + DW;
        if (!rows || !bb || !D) {
            toggle__free(rows);
            toggle__free(bb);
            toggle__free(D);
            return toggle__error(TOGGLE_ENOMEM, "out of memory for the ring small system");
        }
        for (size_t a = 0; a < nb; a++) {
            for (size_t bc = 0; bc < nb; bc++) {
                /* D[t] = G[(C - t) mod C] for t < 2C: row i is the window
                 * at C - i (bit j: G at (i - j) mod C) */
                memset(D, 0, DW * sizeof *D);
                for (size_t t = 0; t < 2 * C; t++)
                    D[t >> 6] |= coef(rg, G[a][bc], (C - t % C) % C) << (t & 63);
                size_t off = bc * C, q0 = off >> 6;
                unsigned sh = off & 63;
                for (size_t i = 0; i < C; i++) {
                    uint64_t *row = rows + (a * C + i) * mw;
                    for (size_t q = 0; q < CW; q++)
                        win[q] = toggle__bits_window(D, DW, C - i + 64 * q);
                    if (C & 63)
                        win[CW - 1] &= ((uint64_t)1 << (C & 63)) - 1;
                    for (size_t q = 0; q < CW; q++) {
                        row[q0 + q] |= win[q] << sh;
                        if (sh && q0 + q + 1 < mw)
                            row[q0 + q + 1] |= win[q] >> (64 - sh);
                    }
                }
            }
            for (size_t i = 0; i < C; i++)
                bb[(a * C + i) >> 6] |= coef(rg, rhs[a], i) << ((a * C + i) & 63);
        }
        toggle__free(D);
        int rc = toggle__system_adopt_packed(ss, m, m, rows, bb, true);
        toggle__free(bb);
        return rc;
    }
    uint64_t *E = toggle__malloc_array(m * m, sizeof *E);
    uint64_t *bb = toggle__malloc_array(m, sizeof *bb);
    int rc = TOGGLE_OK;
    if (!E || !bb) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the ring small system");
        goto out;
    }
    for (size_t a = 0; a < nb; a++) {
        for (size_t i = 0; i < C; i++) {
            uint64_t *row = E + (a * C + i) * m;
            for (size_t bc = 0; bc < nb; bc++) {
                /* entry j: G[a][bc] at (i - j) mod C */
                const uint64_t *ga = G[a][bc];
                for (size_t j = 0; j <= i; j++)
                    row[bc * C + j] = ga[i - j];
                for (size_t j = i + 1; j < C; j++)
                    row[bc * C + j] = ga[i + C - j];
            }
            bb[a * C + i] = rhs[a][i];
        }
    }
    rc = toggle_system_new_matrix(ss, m, m, E, bb, rg->p);
out:
    toggle__free(E);
    toggle__free(bb);
    return rc;
}

/* Writing an answer: row r of the chase into vector i of v, whose words
 * from pre on are faulted in already. */
typedef struct {
    toggle__vecs *v;
    size_t i, pre;
} put_ctx;

/* (RING_PREFAULT_WORDS, RING_PREFAULT_MIN_WORDS: transfer_tune.h) */

/* The C-cell row (W words, padding bits 0) shifted up by sh < 64 bits into
 * an F_2 answer vector, from bit sh of dst[0] on. The chase hands the rows
 * over in descending order, so the row above this one is written and the
 * one below is not: every word is stored, but for the top word when the
 * row above starts inside it (ORed). No word of a fresh page is read
 * before it is written: a vector load first would map the zero page and
 * fault a second time on the store. */
TOGGLE__HOT static void write_shifted(uint64_t *restrict dst, const uint64_t *restrict row,
                                      size_t C, size_t W, unsigned sh)
{
    size_t top = (sh + C - 1) >> 6; /* the row's last word: W - 1 or W */
    if (!top) {
        dst[0] |= row[0] << sh;
        return;
    }
    uint64_t last;
    if (!sh) {
        for (size_t q = 0; q < top; q++)
            dst[q] = row[q];
        last = row[top];
    } else {
        dst[0] = row[0] << sh;
        for (size_t q = 1; q < top; q++)
            dst[q] = (row[q] << sh) | (row[q - 1] >> (64 - sh));
        last = top < W ? (row[top] << sh) | (row[top - 1] >> (64 - sh)) : row[W - 1] >> (64 - sh);
    }
    if ((sh + C) & 63) /* the row above starts in dst[top] */
        dst[top] |= last;
    else
        dst[top] = last;
}

static void put_row(void *ctx_, const ring *rg, size_t r, const uint64_t *row)
{
    put_ctx *ctx = ctx_;
    size_t C = rg->C, off = r * C;
    uint64_t *dst = toggle__vecs_row(ctx->v, ctx->i);
    /* the rows come in descending order: fault in the next words below in
     * one call before the writer reaches them */
    size_t w0 = (size_t)((unsigned __int128)off * ctx->v->width / 64);
    if (w0 < ctx->pre) {
        size_t lo = w0 > RING_PREFAULT_WORDS ? w0 - RING_PREFAULT_WORDS : 0;
        toggle__vecs_prefault(ctx->v, ctx->i, lo, ctx->pre);
        ctx->pre = lo;
    }
    if (rg->p == 2) {
        write_shifted(dst + (off >> 6), row, C, rg->W, off & 63);
        return;
    }
    switch (ctx->v->width) {
    case 8:
        for (size_t j = 0; j < C; j++)
            ((uint8_t *)dst)[off + j] = (uint8_t)row[j];
        break;
    case 16:
        for (size_t j = 0; j < C; j++)
            ((uint16_t *)dst)[off + j] = (uint16_t)row[j];
        break;
    case 32:
        for (size_t j = 0; j < C; j++)
            ((uint32_t *)dst)[off + j] = (uint32_t)row[j];
        break;
    default:
        memcpy(dst + off, row, C * sizeof *row);
    }
}

/* The unknown rows U, V of an answer of the small system (vector i of sv). */
static void load_uv(const ring *rg, const toggle__vecs *sv, size_t i, uint64_t *U, uint64_t *V)
{
    size_t C = rg->C;
    if (rg->nb == 1) { /* the cylinder: V alone, cells 0 .. C - 1 */
        for (size_t j = 0; j < C; j++)
            coef_set(rg, V, j, toggle__vecs_get(sv, i, j));
        return;
    }
    if (rg->p == 2) {
        const uint64_t *src = toggle__vecs_row(sv, i);
        for (size_t q = 0; q < rg->W; q++) {
            U[q] = src[q];
            V[q] = toggle__bits_window(src, sv->stride, C + 64 * q);
        }
        if (C & 63) {
            U[rg->W - 1] &= ((uint64_t)1 << (C & 63)) - 1;
            V[rg->W - 1] &= ((uint64_t)1 << (C & 63)) - 1;
        }
        return;
    }
    for (size_t j = 0; j < C; j++) {
        U[j] = toggle__vecs_get(sv, i, j);
        V[j] = toggle__vecs_get(sv, i, C + j);
    }
}

static int ring_solve_f2(const ring *rg, uint64_t *const Gin[2][2], uint64_t *const rin[2],
                         toggle__vecs *xs, toggle__vecs *ks,
                         bool *solvable);

int toggle__transfer_answers_init(const toggle_system *s, toggle_solution *sol, bool solvable,
                                  size_t dn)
{
    sol->solvable = solvable;
    sol->nullity = dn;
    size_t kb;
    if (!toggle__vecs_bytes(s->n, dn, s->k, &kb))
        return toggle__error(TOGGLE_EOVERFLOW, "kernel basis overflows size_t");
    int rc = toggle__budget_check(s, kb, "the kernel basis");
    if (!rc)
        rc = toggle__vecs_init(&sol->kernel, s->n, dn, s->k);
    if (!rc && solvable)
        rc = toggle__vecs_init(&sol->x, s->n, 1, s->k);
    return rc;
}

static int ring_cylinder_nullity(uint64_t p, size_t R, size_t C, unsigned d, size_t *nullity);

int toggle__transfer_sizes(const toggle_system *s, size_t m, size_t d, toggle__transfer_size *z)
{
    if (!toggle__vecs_bytes(s->n, 1, s->k, &z->vec) ||
        !toggle__vecs_bytes(s->n, d, s->k, &z->kern) ||
        !toggle__vecs_bytes(m, m, s->k, &z->sys) || !toggle__vecs_bytes(m, 1, s->k, &z->sysb) ||
        !toggle__vecs_bytes(m, d + 1, s->k, &z->smallsol))
        return toggle__error(TOGGLE_EOVERFLOW, "board of %zu cells overflows size_t", s->n);
    /* the small system m x m and its solve by the engine AUTO picks for it
     * (no certificate), its nullity d at most */
    toggle_system shape;
    toggle__system_init_shape(&shape, m, m, s);
    shape.engine = TOGGLE_ENGINE_AUTO;
    shape.budget = 0;
    shape.nullity_hint = d + 1;
    int why = TOGGLE_EUNSUPPORTED;
    const toggle__engine_entry *se = toggle__engine_choose(&shape, &why);
    z->inner = 0;
    return se ? se->engine->estimate(&shape, &z->inner) : why;
}

int toggle__transfer_ring_estimate(const toggle_system *s, uint64_t *bytes)
{
    const toggle_graph *g = s->graph;
    size_t C = g->cols, m = ring_unknown_rows(g) * C, d = m;
    uint64_t k = s->k;
    size_t W = k == 2 ? (C + 63) / 64 : C, mw = (m + 63) / 64;
    /* the nullity (polynomials; without FLINT, odd p: the small system's m) */
    unsigned self = (g->flags & TOGGLE_GRID_NO_SELF) ? 0 : 1;
    int rc = (g->flags & TOGGLE_GRID_CYLINDER)
               ? ring_cylinder_nullity(k, g->rows, C, self, &d)
               : toggle__transfer_ring_nullity(k, g->rows, C, self, &d);
    if (rc == TOGGLE_EUNSUPPORTED)
        d = m;
    else if (rc)
        return rc;
    toggle__transfer_size z;
    if ((rc = toggle__transfer_sizes(s, m, d, &z)))
        return rc;
    size_t kern = z.kern, vec = z.vec, sys = z.sys, sysb = z.sysb, smallsol = z.smallsol;
    uint64_t inner = z.inner;
    unsigned __int128 m8 = (unsigned __int128)m * 8, build, solve, ans;
    if (k == 2) {
        unsigned __int128 packed = (unsigned __int128)m * mw * 8 + mw * 8;
        build = packed + mw * 8 + ((2 * C + 63) / 64 + 1 + W) * 8;
        (void)m;
        solve = packed + inner;
    } else {
        /* E in words, its right-hand side, the system made of them */
        build = (unsigned __int128)m * m8 + m8 + sys + sysb;
        solve = (unsigned __int128)sys + sysb + inner;
    }
    ans = (unsigned __int128)kern + vec + smallsol;
    unsigned __int128 e = build > solve ? build : solve;
    if (e < ans)
        e = ans;
    /* the rows of the chase (22 of W words), handles and small blocks, and
     * 1/16 for the small engine's scratch that its estimate rounds */
    e += (unsigned __int128)(22 * W + 1) * 8 + 8192;
    e += e / 16;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}

int toggle__transfer_ring_solve(const toggle_system *s, toggle_solution *sol)
{
    const toggle_graph *g = s->graph;
    ring rg = {s, s->k, g->rows, g->cols, 0, (g->flags & TOGGLE_GRID_NO_SELF) ? 0 : 1, NULL,
               ring_unknown_rows(g)};
    rg.W = rg.p == 2 ? (rg.C + 63) / 64 : rg.C;
    size_t W = rg.W, C = rg.C;
    /* rows: brow, the chase's 3, and P0 Pm Q0 Qm c0 cm, T, G[2][2] (4),
     * rhs (2), U V, x0 xm1, chk (1 + 3 + 6 + 1 + 4 + 2 + 2 + 2 + 1 = 22) */
    uint64_t *mem = toggle__calloc(22 * W + 1, sizeof *mem);
    toggle_system *ss = NULL;
    toggle_solution *small = NULL;
    toggle__vecs xs, ks;
    memset(&xs, 0, sizeof xs);
    memset(&ks, 0, sizeof ks);
    int rc = TOGGLE_OK;
    if (!mem)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the ring route");
    uint64_t *w = mem;
    rg.brow = w, w += W;
    uint64_t *buf = w;
    w += 3 * W;
    uint64_t *P0 = w, *Pm = w + W, *Q0 = w + 2 * W, *Qm = w + 3 * W, *c0 = w + 4 * W,
             *cm = w + 5 * W;
    w += 6 * W;
    uint64_t *T = w;
    w += W;
    uint64_t *G[2][2] = {{w, w + W}, {w + 2 * W, w + 3 * W}};
    w += 4 * W;
    uint64_t *rhs[2] = {w, w + W};
    w += 2 * W;
    uint64_t *U = w, *V = w + W, *x0 = w + 2 * W, *xm1 = w + 3 * W, *chk = w + 4 * W;
    /* x_r = P_r U + Q_r V + c_r: the chases of (U, V) = (1, 0), (0, 1), and
     * of b from (0, 0), keeping rows 0 and -1 */
    memset(U, 0, 2 * W * sizeof *U);
    coef_add(&rg, U, 0, 1);
    if (rg.nb == 2)
        ring_chase(&rg, U, V, false, NULL, NULL, buf, P0, Pm);
    memset(U, 0, 2 * W * sizeof *U);
    coef_add(&rg, V, 0, 1);
    ring_chase(&rg, U, V, false, NULL, NULL, buf, Q0, Qm);
    memset(U, 0, 2 * W * sizeof *U);
    ring_chase(&rg, U, V, true, NULL, NULL, buf, c0, cm);
    /* T = d + y + y^-1 */
    coef_add(&rg, T, 0, rg.d);
    coef_add(&rg, T, 1 % C, 1);
    coef_add(&rg, T, C - 1, 1);
    /* row 0: x_{-1} = V, i.e. P_{-1} U + (Q_{-1} - 1) V = -c_{-1};
     * row R - 1: T V + U + x_0 = b_{R-1}, i.e.
     * (P_0 + 1) U + (Q_0 + T) V = b_{R-1} - c_0 */
    const uint64_t *bl = load_b(&rg, rg.R - 1);
    for (size_t k = 0; rg.nb == 1 && k < C; k++) {
        /* the cylinder: row 0, x_{-1} = 0, i.e. Q_{-1} V = -c_{-1} */
        coef_add(&rg, G[0][0], k, coef(&rg, Qm, k));
        coef_add(&rg, rhs[0], k, toggle__submod(0, coef(&rg, cm, k), rg.p));
    }
    for (size_t k = 0; rg.nb == 2 && k < C; k++) {
        uint64_t p = rg.p;
        coef_add(&rg, G[0][0], k, coef(&rg, Pm, k));
        coef_add(&rg, G[0][1], k, coef(&rg, Qm, k));
        coef_add(&rg, G[1][0], k, coef(&rg, P0, k));
        coef_add(&rg, G[1][1], k, toggle__addmod(coef(&rg, Q0, k), coef(&rg, T, k), p));
        coef_add(&rg, rhs[0], k, toggle__submod(0, coef(&rg, cm, k), p));
        coef_add(&rg, rhs[1], k, toggle__submod(coef(&rg, bl, k), coef(&rg, c0, k), p));
    }
    if (rg.nb == 2) {
        coef_add(&rg, G[0][1], 0, rg.p - 1);
        coef_add(&rg, G[1][0], 0, 1);
    }
    /* the small system: over F_2 in the ring (CRT), else written out */
    const toggle__vecs *sx = NULL, *sk = NULL;
    bool solvable = false;
    if (rg.p == 2) {
        rc = ring_solve_f2(&rg, G, rhs, &xs, &ks, &solvable);
        if (!rc) {
            sx = &xs;
            sk = &ks;
        } else if (rc != TOGGLE_EUNSUPPORTED) {
            goto out;
        }
    }
    if (!sx) {
        if ((rc = ring_small_system(&rg, G, rhs, &ss)))
            goto out;
        if ((rc = toggle__transfer_solve_small(ss, &small)))
            goto out;
        toggle_system_free(ss);
        ss = NULL;
        solvable = small->solvable;
        sx = &small->x;
        sk = &small->kernel;
    }
    size_t dn = sk->count;
    if ((rc = toggle__transfer_answers_init(s, sol, solvable, dn)))
        goto out;
    for (size_t l = 0; l < dn + solvable; l++) {
        bool part = solvable && l == 0;
        put_ctx pc = {part ? &sol->x : &sol->kernel, part ? 0 : l - solvable, 0};
        /* pre = 0: no fault-in */
        pc.pre = pc.v->count * pc.v->stride >= RING_PREFAULT_MIN_WORDS ? pc.v->stride : 0;
        load_uv(&rg, part ? sx : sk, pc.i, U, V);
        ring_chase(&rg, U, V, part, put_row, &pc, buf, x0, xm1);
        /* the equations left: x_{-1} = V and b_{R-1} - T V - U = x_0 (the
         * cylinder: x_{-1} = 0) */
        bool bad = false;
        if (rg.nb == 1) {
            for (size_t q = 0; q < W; q++)
                bad = bad || xm1[q] != 0;
        } else {
            step(&rg, chk, V, U, part ? load_b(&rg, rg.R - 1) : NULL);
            bad = memcmp(xm1, V, W * sizeof *V) || memcmp(chk, x0, W * sizeof *x0);
        }
        if (bad) {
            rc = toggle__error(TOGGLE_EINTERNAL, "transfer ring chase leaves a residue");
            goto out;
        }
    }
out:
    toggle_system_free(ss);
    toggle_solution_free(small);
    toggle__vecs_clear(&xs);
    toggle__vecs_clear(&ks);
    toggle__free(mem);
    return rc;
}

/* ---- the torus nullity over F_2, on packed polynomials -------------------
 * The formula of docs/transfer.md ("Torus nullity without elimination"):
 * nullity = deg G1 + deg gcd(G2 / G1, h) with h = y^C - 1, G2 = gcd(det M,
 * H), G1 = gcd(G2, h, entries of M), computed mod H = h^2 (h alone when C
 * is odd: then h is squarefree and nullity = deg G1 + deg G2). Over F_2,
 * H = y^L + 1 (L = 2C, or C): the ring of the chase above with L cells, so
 * W_{n+1} = T W_n + W_{n-1} is one step() a row (O(L / 64) word
 * operations, R of them), and the gcds are Euclid's on packed bits
 * (O(L^2 / 64)), with no conversion to FLINT's word-per-coefficient form. */

/* Degree of a (nw words), -1 for 0. */
static long pdeg(const uint64_t *a, size_t nw)
{
    while (nw > 0 && !a[nw - 1])
        nw--;
    if (!nw)
        return -1;
    return (long)(64 * (nw - 1)) + 63 - __builtin_clzll(a[nw - 1]);
}

/* a += b y^s (b of degree db >= 0; a holds the result's words). */
static void padd_shift(uint64_t *a, const uint64_t *b, long db, size_t s)
{
    size_t bw = (size_t)db / 64 + 1, q = s >> 6;
    unsigned sh = s & 63;
    if (!sh) {
        for (size_t i = 0; i < bw; i++)
            a[q + i] ^= b[i];
        return;
    }
    uint64_t carry = 0;
    for (size_t i = 0; i < bw; i++) {
        a[q + i] ^= (b[i] << sh) | carry;
        carry = b[i] >> (64 - sh);
    }
    if (carry)
        a[q + bw] ^= carry;
}

/* gcd(a, b) by Euclid, in place (both are overwritten); returns the buffer
 * holding it and its degree in *dg (-1: both 0). */
static uint64_t *pgcd(uint64_t *a, uint64_t *b, size_t nw, long *dg)
{
    struct pp {
        uint64_t *c;
        long d;
    } x = {a, pdeg(a, nw)}, y = {b, pdeg(b, nw)};
    while (y.d >= 0) {
        if (x.d < y.d) { /* keep deg x >= deg y */
            struct pp t = x;
            x = y;
            y = t;
            continue;
        }
        padd_shift(x.c, y.c, y.d, (size_t)(x.d - y.d));
        x.d = pdeg(x.c, (size_t)x.d / 64 + 1);
    }
    *dg = x.d;
    return x.c;
}

/* q = a / b (exact; a is overwritten, q zeroed first). */
static void pdiv(uint64_t *q, uint64_t *a, const uint64_t *b, size_t nw)
{
    long da = pdeg(a, nw), db = pdeg(b, nw);
    memset(q, 0, nw * sizeof *q);
    while (da >= db) {
        size_t s = (size_t)(da - db);
        q[s >> 6] |= (uint64_t)1 << (s & 63);
        padd_shift(a, b, db, s);
        da = pdeg(a, (size_t)da / 64 + 1);
    }
}

/* Words of one polynomial mod H for the shorter side c, and the buffers. */
#define RING_NULLITY_BUFS 12
static size_t ring_nullity_words(size_t c)
{
    return (2 * c + 1 + 63) / 64 + 1;
}

uint64_t toggle__transfer_ring_nullity_bytes(size_t rows, size_t cols)
{
    size_t c = rows < cols ? rows : cols;
    return (uint64_t)RING_NULLITY_BUFS * ring_nullity_words(c) * 8 + 64;
}

int toggle__transfer_ring_nullity(uint64_t p, size_t rows, size_t cols, unsigned d,
                                  size_t *nullity)
{
    if (p != 2)
        return toggle__grid_torus_nullity(p, rows, cols, d, nullity);
    size_t R = rows >= cols ? rows : cols, C = rows >= cols ? cols : rows;
    if (R == 1) { /* 1 x 1: the cell and its four doubled neighbours, d + 4 */
        *nullity = (d + 4) % 2 == 0;
        return TOGGLE_OK;
    }
    bool sq = C % 2 != 0;
    size_t L = sq ? C : 2 * C, nw = ring_nullity_words(C);
    uint64_t *mem = toggle__calloc(RING_NULLITY_BUFS * nw, sizeof *mem);
    if (!mem)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the torus nullity");
    /* W_{n-1} .. W_{n+2} rotate through wb[0..3] */
    uint64_t *wb[4] = {mem, mem + nw, mem + 2 * nw, mem + 3 * nw};
    uint64_t *T = mem + 4 * nw, *det = mem + 5 * nw, *m11 = mem + 6 * nw, *m21 = mem + 7 * nw,
             *H = mem + 8 * nw, *h = mem + 9 * nw, *g = mem + 10 * nw, *q = mem + 11 * nw;
    ring rg = {NULL, 2, R, L, (L + 63) / 64, d, NULL, 2};
    /* slot (n + 1) & 3 holds W_n: W_{-1} = 0, W_0 = 1 */
    wb[1][0] = 1;
    for (size_t n = 0; n < R; n++) /* W_{n+1} = T W_n + W_{n-1} */
        step(&rg, wb[(n + 2) & 3], wb[(n + 1) & 3], wb[n & 3], NULL);
    const uint64_t *Wr3 = wb[(R - 2) & 3], *Wr2 = wb[(R - 1) & 3], *Wr = wb[(R + 1) & 3];
    uint64_t *m12 = wb[R & 3]; /* W_{R-1} */
    coef_add(&rg, T, 0, d);
    coef_add(&rg, T, 1 % L, 1);
    coef_add(&rg, T, L - 1, 1);
    for (size_t i = 0; i < rg.W; i++) {
        det[i] = Wr2[i] ^ Wr[i]; /* det M = 2 + W_{R-2} - W_R */
        m11[i] = Wr2[i];         /* 1 + W_{R-2} */
        m21[i] = T[i] ^ Wr3[i];  /* T - W_{R-3} */
    }
    m11[0] ^= 1;
    H[L >> 6] |= (uint64_t)1 << (L & 63);
    H[0] ^= 1;
    long dg1, dg2, dt;
    uint64_t *G2 = pgcd(H, det, nw, &dg2); /* gcd(H, 0) = H */
    uint64_t *G1 = g;
    memcpy(G1, G2, nw * sizeof *G1);
    if (!sq) {
        h[C >> 6] |= (uint64_t)1 << (C & 63);
        h[0] ^= 1;
        G1 = pgcd(G1, h, nw, &dt);
    }
    uint64_t *ent[3] = {m11, m12, m21};
    for (size_t e = 0; e < 3; e++)
        G1 = pgcd(G1, ent[e], nw, &dg1);
    dg1 = pdeg(G1, nw);
    if (!sq) {
        /* G2 / G1 into q, then gcd(q, h) */
        uint64_t *g1c = G1 == g ? T : g; /* keep G1 apart from the buffers reused */
        if (g1c != G1)
            memcpy(g1c, G1, nw * sizeof *g1c);
        pdiv(q, G2, g1c, nw);
        memset(h, 0, nw * sizeof *h);
        h[C >> 6] |= (uint64_t)1 << (C & 63);
        h[0] ^= 1;
        (void)pgcd(q, h, nw, &dg2);
    }
    *nullity = (size_t)dg1 + (size_t)dg2;
    toggle__free(mem);
    return TOGGLE_OK;
}

/* The square cylinder's nullity, deg gcd(P_R(X) mod h, h) (docs/transfer.md):
 * over F_2 by the packed recurrence mod h = y^C + 1 and one packed gcd,
 * else toggle__grid_cylinder_nullity (FLINT). */
static int ring_cylinder_nullity(uint64_t p, size_t R, size_t C, unsigned d, size_t *nullity)
{
    if (p != 2)
        return toggle__grid_cylinder_nullity(p, R, C, d, nullity);
    size_t nw = (C + 63) / 64 + 1;
    uint64_t *mem = toggle__calloc(6 * nw, sizeof *mem);
    if (!mem)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the cylinder nullity");
    uint64_t *wb[4] = {mem, mem + nw, mem + 2 * nw, mem + 3 * nw}, *h = mem + 4 * nw;
    ring rg = {NULL, 2, R, C, (C + 63) / 64, d, NULL, 1};
    wb[1][0] = 1; /* slot (n + 1) & 3 holds W_n: W_{-1} = 0, W_0 = 1 */
    for (size_t n = 0; n < R; n++)
        step(&rg, wb[(n + 2) & 3], wb[(n + 1) & 3], wb[n & 3], NULL);
    h[C >> 6] |= (uint64_t)1 << (C & 63);
    h[0] ^= 1;
    long dg;
    (void)pgcd(wb[(R + 1) & 3], h, nw, &dg);
    *nullity = (size_t)dg;
    toggle__free(mem);
    return TOGGLE_OK;
}

/* ---- the small system over F_2 in the ring, by the CRT -------------------
 * G X = rhs with G 2 x 2 over S = F_2[y]/(h), h = y^C + 1 (X = (U, V), the
 * last two rows). With D = det G, split h = A B: A the part of h made of
 * the irreducible factors that divide D (to their full power in h), B the
 * rest, so S = F_2[y]/(A) x F_2[y]/(B) (A, B coprime). Mod B, D is a unit:
 * X_B = D^-1 adj(G) rhs, unique. Mod A, G is a 2 deg A x 2 deg A system
 * over F_2 (the basis y^0 .. y^(deg A - 1)), solved by the engines: its
 * particular solution X_A and kernel basis. The solutions of G X = rhs are
 * the X with X = X_A mod A and X = X_B mod B: X = X_B + B ((X_A - X_B)
 * B^-1 mod A); the kernel vectors B (K_A B^-1 mod A). The small system of
 * the dense route is this system written out in the 2C cells, so its
 * canonical answers are the reverse echelon form of these (the canonical
 * form of docs/transfer.md, on 2C-bit vectors: U's cells, then V's). Cost:
 * a few gcds and products of degree C on packed bits (O(C^2 / 64)) and the
 * system of 2 deg A unknowns, instead of 2C. */

static size_t pwords(long d)
{
    return d < 0 ? 1 : (size_t)d / 64 + 1;
}

/* out = a b (out has onw words, zeroed here). */
static void pmul(uint64_t *out, size_t onw, const uint64_t *a, long da, const uint64_t *b, long db)
{
    memset(out, 0, onw * sizeof *out);
    if (db < 0)
        return;
    for (long i = 0; i <= da; i++)
        if ((a[i >> 6] >> (i & 63)) & 1)
            padd_shift(out, b, db, (size_t)i);
}

/* a := a mod m (m of degree dm >= 0), a of nw words. */
static void pmod(uint64_t *a, size_t nw, const uint64_t *m, long dm)
{
    long da = pdeg(a, nw);
    while (da >= dm) {
        padd_shift(a, m, dm, (size_t)(da - dm));
        da = pdeg(a, (size_t)da / 64 + 1);
    }
}

/* out := a b mod m (a, b reduced mod m or of degree < 2 C; t: scratch of
 * nw words, out of nw words). */
static void pmulmod(uint64_t *out, const uint64_t *a, const uint64_t *b, const uint64_t *m, long dm,
                    uint64_t *t, size_t nw)
{
    pmul(t, nw, a, pdeg(a, nw), b, pdeg(b, nw));
    pmod(t, nw, m, dm);
    memcpy(out, t, nw * sizeof *out);
}

/* inv := a^-1 mod m (dm >= 1); false when gcd(a, m) != 1. t: 4 nw words
 * (nw of at least 2 deg m + 128 bits). Euclid by shifts with the cofactor
 * s of a (s a = r mod m), kept below degree deg m + 64 by reductions. */
static bool pinv(uint64_t *inv, const uint64_t *a, const uint64_t *m, long dm, uint64_t *t,
                 size_t nw)
{
    memset(t, 0, 4 * nw * sizeof *t);
    struct rs {
        uint64_t *r, *s;
        long dr, ds;
    } x = {t, t + 2 * nw, dm, -1}, y = {t + nw, t + 3 * nw, -1, 0};
    memcpy(x.r, m, pwords(dm) * sizeof *m);
    memcpy(y.r, a, nw * sizeof *a);
    pmod(y.r, nw, m, dm);
    y.dr = pdeg(y.r, nw);
    y.s[0] = 1;
    while (x.dr >= 0 && y.dr >= 0) {
        if (x.dr < y.dr) {
            struct rs tt = x;
            x = y;
            y = tt;
        }
        size_t sh = (size_t)(x.dr - y.dr);
        padd_shift(x.r, y.r, y.dr, sh);
        x.dr = pdeg(x.r, (size_t)x.dr / 64 + 1);
        if (y.ds >= 0) {
            long top = x.ds > y.ds + (long)sh ? x.ds : y.ds + (long)sh;
            padd_shift(x.s, y.s, y.ds, sh);
            x.ds = pdeg(x.s, pwords(top));
            if (x.ds >= dm + 64) {
                pmod(x.s, nw, m, dm);
                x.ds = pdeg(x.s, nw);
            }
        }
    }
    struct rs *g = x.dr >= 0 ? &x : &y;
    if (g->dr != 0)
        return false;
    pmod(g->s, nw, m, dm);
    memcpy(inv, g->s, nw * sizeof *inv);
    return true;
}

/* The canonical form (docs/transfer.md) of the d kernel vectors K (packed)
 * and of x (NULL when unsolvable): reverse echelon, then
 * ascending free columns. False when K is dependent. */
static bool reverse_echelon(toggle__vecs *K, uint64_t *x)
{
    size_t d = K->count;
    bool ok = true;
    for (size_t step = 0; ok && step < d; step++) {
        /* the remaining vector (step .. d - 1) with the largest last nonzero */
        size_t best = SIZE_MAX, bi = step;
        for (size_t i = step; i < d; i++) {
            size_t l = toggle__vecs_last_nonzero(K, i);
            if (l != SIZE_MAX && (best == SIZE_MAX || l > best)) {
                best = l;
                bi = i;
            }
        }
        if (best == SIZE_MAX) {
            ok = false;
            break;
        }
        toggle__vecs_swap(K, step, bi);
        const uint64_t *kb = toggle__vecs_row(K, step);
        for (size_t i = 0; i < d; i++) {
            uint64_t *v = toggle__vecs_row(K, i);
            if (i != step && ((v[best >> 6] >> (best & 63)) & 1))
                for (size_t q = 0; q <= best >> 6; q++)
                    v[q] ^= kb[q];
        }
        if (x && ((x[best >> 6] >> (best & 63)) & 1))
            for (size_t q = 0; q <= best >> 6; q++)
                x[q] ^= kb[q];
    }
    /* the pivots came in descending order: reverse to ascending */
    for (size_t i = 0; ok && i < d / 2; i++)
        toggle__vecs_swap(K, i, d - 1 - i);
    return ok;
}

/* ring_solve_f2's polynomials: nw words each in one block. */
enum { H, Dt, A, B, Tq, Gg, Binv, T1, T2, T3, XU, XV, Y0, Y1, G00, G01, G10, G11, R0, R1, NT };

/* ring_solve_f2's state: the polynomials P (G and rhs among them, h = y^C
 * + 1 = A B with A the part sharing factors with D = det G), and the
 * small system mod A (a unknowns a component; freed in one place). */
typedef struct {
    size_t C, nw, CW, nb;
    uint64_t *mem, *P[NT], *scratch;
    uint64_t *G[2][2], *rhs[2];
    long da, db;
    size_t a, m, mw, dn;
    toggle_system *ss;
    toggle_solution *small;
    uint64_t *rows, *Et, *bb;
} ring_f2;

static void ring_f2_clear(ring_f2 *st)
{
    toggle_system_free(st->ss);
    toggle_solution_free(st->small);
    toggle__free(st->rows);
    toggle__free(st->Et);
    toggle__free(st->bb);
    toggle__free(st->mem);
    st->ss = NULL;
    st->small = NULL;
    st->rows = st->Et = st->bb = st->mem = NULL;
}

/* G, rhs and h = y^C + 1 into buffers of nw words. */
static int ring_f2_load(ring_f2 *st, uint64_t *const Gin[2][2], uint64_t *const rin[2])
{
    size_t nw = st->nw, C = st->C;
    uint64_t *mem = st->mem = toggle__calloc((size_t)NT * nw + 4 * nw, sizeof *mem), **P = st->P;
    if (!mem)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the ring small system");
    st->scratch = mem + (size_t)NT * nw;
    for (int i = 0; i < NT; i++)
        P[i] = mem + (size_t)i * nw;
    st->G[0][0] = P[G00], st->G[0][1] = P[G01], st->G[1][0] = P[G10], st->G[1][1] = P[G11];
    st->rhs[0] = P[R0], st->rhs[1] = P[R1];
    for (int e = 0; e < 2; e++) {
        memcpy(st->rhs[e], rin[e], st->CW * sizeof *mem);
        for (int c = 0; c < 2; c++)
            memcpy(st->G[e][c], Gin[e][c], st->CW * sizeof *mem);
    }
    P[H][C >> 6] |= (uint64_t)1 << (C & 63);
    P[H][0] ^= 1;
    return TOGGLE_OK;
}

/* D = G00 G11 + G01 G10 mod h (the cylinder: D = G00); A = prod of h's
 * factors dividing D, B = h / A: g = gcd(h, D); while deg g > 0: A *= g,
 * t /= g, g = gcd(t, g). */
static void ring_f2_split(ring_f2 *st)
{
    size_t nw = st->nw;
    uint64_t **P = st->P, *const(*G)[2] = st->G;
    if (st->nb == 1) {
        memcpy(P[Dt], G[0][0], nw * sizeof *P[Dt]);
    } else {
        pmulmod(P[Dt], G[0][0], G[1][1], P[H], (long)st->C, P[T1], nw);
        pmulmod(P[T2], G[0][1], G[1][0], P[H], (long)st->C, P[T1], nw);
        for (size_t q = 0; q < nw; q++)
            P[Dt][q] ^= P[T2][q];
    }
    long dg;
    memcpy(P[T1], P[H], nw * sizeof *P[T1]);
    memcpy(P[T2], P[Dt], nw * sizeof *P[T2]);
    memcpy(P[Gg], pgcd(P[T1], P[T2], nw, &dg), nw * sizeof *P[Gg]);
    P[A][0] = 1;
    memcpy(P[B], P[H], nw * sizeof *P[B]);
    while (dg > 0) {
        pmul(P[T1], nw, P[A], pdeg(P[A], nw), P[Gg], dg);
        memcpy(P[A], P[T1], nw * sizeof *P[A]);
        pdiv(P[Tq], P[B], P[Gg], nw); /* B := B / g (B destroyed) */
        memcpy(P[B], P[Tq], nw * sizeof *P[B]);
        memcpy(P[T1], P[B], nw * sizeof *P[T1]);
        memcpy(P[T2], P[Gg], nw * sizeof *P[T2]);
        memcpy(P[Gg], pgcd(P[T1], P[T2], nw, &dg), nw * sizeof *P[Gg]);
    }
    st->da = pdeg(P[A], nw);
    st->db = pdeg(P[B], nw);
}

/* Mod B: X_B = D^-1 adj(G) rhs; and B^-1 mod A, for the lifts. */
static int ring_f2_mod_b(ring_f2 *st)
{
    size_t nw = st->nw, nb = st->nb;
    long da = st->da, db = st->db;
    uint64_t **P = st->P, *const(*G)[2] = st->G, *const *rhs = st->rhs;
    if (db > 0) {
        memcpy(P[T3], P[Dt], nw * sizeof *P[T3]);
        pmod(P[T3], nw, P[B], db);
        if (!pinv(P[T3], P[T3], P[B], db, st->scratch, nw))
            return TOGGLE_EUNSUPPORTED; /* cannot happen: D is a unit mod B */
        /* XU = D^-1 (G11 r0 + G01 r1), XV = D^-1 (G10 r0 + G00 r1) mod B
         * (the cylinder: XU = D^-1 r0) */
        const uint64_t *adj[2][2] = {{G[1][1], G[0][1]}, {G[1][0], G[0][0]}};
        uint64_t *outv[2] = {P[XU], P[XV]};
        if (nb == 1)
            pmulmod(P[XU], rhs[0], P[T3], P[B], db, P[T1], nw);
        for (int c = 0; nb == 2 && c < 2; c++) {
            pmulmod(P[Y0], adj[c][0], rhs[0], P[B], db, P[T1], nw);
            pmulmod(P[Y1], adj[c][1], rhs[1], P[B], db, P[T1], nw);
            for (size_t q = 0; q < nw; q++)
                P[Y0][q] ^= P[Y1][q];
            pmulmod(outv[c], P[Y0], P[T3], P[B], db, P[T1], nw);
        }
    }
    if (da > 0 && db > 0) {
        memcpy(P[T3], P[B], nw * sizeof *P[T3]);
        pmod(P[T3], nw, P[A], da);
        if (!pinv(P[Binv], P[T3], P[A], da, st->scratch, nw))
            return TOGGLE_EUNSUPPORTED; /* cannot happen: A, B coprime */
    }
    return TOGGLE_OK;
}

/* src (CW words) mod A into w (nw words). */
static inline void ring_f2_reduce_a(const ring_f2 *st, uint64_t *w, const uint64_t *src)
{
    memcpy(w, src, st->CW * sizeof *w);
    memset(w + st->CW, 0, (st->nw - st->CW) * sizeof *w);
    pmod(w, st->nw, st->P[A], st->da);
}

/* Mod A: column (b, k) of the 2a x 2a system is (G[0][b] y^k, G[1][b]
 * y^k) mod A; built as rows of Et (its transpose). */
static void ring_f2_matrix_a(ring_f2 *st)
{
    size_t a = st->a, nb = st->nb, mw = st->mw, aw = pwords(st->da - 1);
    uint64_t **P = st->P;
    for (size_t e = 0; e < nb; e++)
        for (size_t bc = 0; bc < nb; bc++) {
            uint64_t *w = P[T3];
            ring_f2_reduce_a(st, w, st->G[e][bc]);
            for (size_t k = 0; k < a; k++) {
                /* bits of w into row bc a + k of Et at offset e a */
                uint64_t *dst = st->Et + (bc * a + k) * mw;
                for (size_t i = 0; i < a; i++)
                    if ((w[i >> 6] >> (i & 63)) & 1)
                        dst[(e * a + i) >> 6] |= (uint64_t)1 << ((e * a + i) & 63);
                /* w := y w mod A */
                uint64_t carry = 0;
                for (size_t q = 0; q <= aw; q++) {
                    uint64_t nc = w[q] >> 63;
                    w[q] = (w[q] << 1) | carry;
                    carry = nc;
                }
                if ((w[a >> 6] >> (a & 63)) & 1)
                    for (size_t q = 0; q <= aw; q++)
                        w[q] ^= P[A][q];
            }
        }
}

/* The small system mod A (when deg A > 0), solved: *solvable and dn. */
static int ring_f2_mod_a(ring_f2 *st, bool *solvable)
{
    size_t a = st->a, m = st->m, mw = st->mw;
    *solvable = true;
    if (!a)
        return TOGGLE_OK;
    st->Et = toggle__calloc(m * mw, sizeof *st->Et);
    st->rows = toggle__calloc(m * mw, sizeof *st->rows);
    st->bb = toggle__calloc(mw, sizeof *st->bb);
    if (!st->Et || !st->rows || !st->bb)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the ring small system");
    ring_f2_matrix_a(st);
    toggle__bits_transpose(st->rows, mw, st->Et, mw, m, m);
    toggle__free(st->Et);
    st->Et = NULL;
    for (size_t e = 0; e < st->nb; e++) {
        uint64_t *w = st->P[T3];
        ring_f2_reduce_a(st, w, st->rhs[e]);
        for (size_t i = 0; i < a; i++)
            if ((w[i >> 6] >> (i & 63)) & 1)
                st->bb[(e * a + i) >> 6] |= (uint64_t)1 << ((e * a + i) & 63);
    }
    int rc = toggle__system_adopt_packed(&st->ss, m, m, st->rows, st->bb, true);
    st->rows = NULL;
    if (rc || (rc = toggle__transfer_solve_small(st->ss, &st->small)))
        return rc;
    *solvable = st->small->solvable;
    st->dn = st->small->nullity;
    return TOGGLE_OK;
}

/* Component c of the lift of vector l (0: x, else kernel l - 1) into bits
 * c C .. c C + C - 1 of dst: the A part (the small answer's bits c a ..
 * c a + a - 1), for x less X_B mod A, times B B^-1 (mod A), plus X_B. */
static inline void ring_f2_lift(ring_f2 *st, size_t l, size_t c, uint64_t *dst)
{
    size_t nw = st->nw, a = st->a, C = st->C;
    long da = st->da, db = st->db;
    uint64_t **P = st->P, *v = P[Y0];
    memset(v, 0, nw * sizeof *v);
    if (a) {
        const uint64_t *src = l ? toggle__vecs_row(&st->small->kernel, l - 1)
                                : toggle__vecs_row(&st->small->x, 0);
        for (size_t i = 0; i < a; i++)
            v[i >> 6] |= ((src[(c * a + i) >> 6] >> ((c * a + i) & 63)) & 1) << (i & 63);
    }
    uint64_t *xb = c ? P[XV] : P[XU];
    if (l == 0 && db > 0) {
        /* X_A - X_B mod A */
        memcpy(P[T2], xb, nw * sizeof *P[T2]);
        if (a)
            pmod(P[T2], nw, P[A], da);
        for (size_t q = 0; q < nw; q++)
            v[q] ^= a ? P[T2][q] : 0;
    }
    if (a && db > 0) {
        pmulmod(P[Y1], v, P[Binv], P[A], da, P[T1], nw);
        pmul(v, nw, P[B], db, P[Y1], pdeg(P[Y1], nw)); /* B (...) */
    }
    if (l == 0 && db > 0)
        for (size_t q = 0; q < nw; q++)
            v[q] ^= xb[q];
    /* degree < C: into bits c C .. c C + C - 1 of dst */
    for (size_t i = 0; i < C; i++)
        if ((v[i >> 6] >> (i & 63)) & 1)
            dst[(c * C + i) >> 6] |= (uint64_t)1 << ((c * C + i) & 63);
}

static int ring_solve_f2(const ring *rg, uint64_t *const Gin[2][2], uint64_t *const rin[2],
                         toggle__vecs *xs, toggle__vecs *ks,
                         bool *solvable)
{
    ring_f2 st;
    memset(&st, 0, sizeof st);
    st.C = rg->C;
    st.nw = (2 * rg->C + 130) / 64 + 2;
    st.CW = rg->W;
    st.nb = rg->nb;
    int rc = ring_f2_load(&st, Gin, rin);
    if (rc)
        return rc;
    ring_f2_split(&st);
    if ((rc = ring_f2_mod_b(&st)))
        goto out;
    st.a = st.da > 0 ? (size_t)st.da : 0;
    st.m = st.nb * st.a;
    st.mw = (st.m + 63) / 64;
    if ((rc = ring_f2_mod_a(&st, solvable)))
        goto out;
    if ((rc = toggle__vecs_init(ks, st.nb * st.C, st.dn, 2))
        || (rc = toggle__vecs_init(xs, st.nb * st.C, 1, 2)))
        goto out;
    /* the lifts: vector l (0: x, else kernel l - 1) */
    for (size_t l = 0; l <= st.dn; l++) {
        if (l == 0 && !*solvable)
            continue;
        uint64_t *dst = l ? toggle__vecs_row(ks, l - 1) : toggle__vecs_row(xs, 0);
        for (size_t c = 0; c < st.nb; c++)
            ring_f2_lift(&st, l, c, dst);
    }
    if (!reverse_echelon(ks, *solvable ? toggle__vecs_row(xs, 0) : NULL))
        rc = toggle__error(TOGGLE_EINTERNAL, "the ring kernel basis is dependent");
out:
    ring_f2_clear(&st);
    return rc;
}
