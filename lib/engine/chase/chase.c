/* The grid engine (TOGGLE_ENGINE_CHASE): light chasing on classic and no-self
 * grids over prime moduli, with results equal to full elimination's canonical
 * answers (docs/grid.md explains why the free cells are the last cells of the
 * last row, and how the small system is solved). */
#include <string.h>

#include "engine/engine.h"
#include "engine/flint/poly.h"
#include "chase.h"

typedef toggle__chase_frame frame;

/* The board row of frame row r. */
static size_t board_row(const frame *f, size_t r)
{
    return f->flip ? f->R - 1 - r : r;
}

static size_t cell_index(const frame *f, size_t r, size_t j)
{
    size_t br = board_row(f, r);
    return f->tr ? j * f->R + br : br * f->C + j;
}

/* ---- F_2: 64 cells per word ---------------------------------------------- */

static void gf2_load_b(const frame *f, size_t r, uint64_t *bw, size_t W)
{
    memset(bw, 0, W * sizeof *bw);
    if (!f->b)
        return;
    if (!f->tr) {
        /* bits [r C, r C + C) of the packed right-hand side */
        const uint64_t *src = toggle__vecs_row(f->b, 0);
        size_t off = board_row(f, r) * f->C, q = off >> 6;
        unsigned sh = off & 63;
        size_t last = (f->b->len - 1) >> 6;
        for (size_t i = 0; i < W; i++) {
            uint64_t lo = src[q + i] >> sh;
            uint64_t hi = (sh && q + i + 1 <= last) ? src[q + i + 1] << (64 - sh) : 0;
            bw[i] = lo | hi;
        }
        if (f->C & 63)
            bw[W - 1] &= ((uint64_t)1 << (f->C & 63)) - 1;
    } else {
        for (size_t j = 0; j < f->C; j++)
            bw[j >> 6] |= toggle__vecs_get(f->b, 0, cell_index(f, r, j)) << (j & 63);
    }
}

/* OR nbits bits of src into dst starting at bit offset off (dst bits there are 0). */
static void put_bits(uint64_t *dst, size_t off, const uint64_t *src, size_t nbits)
{
    size_t W = (nbits + 63) / 64, q = off >> 6;
    unsigned sh = off & 63;
    if (sh == 0) {
        for (size_t i = 0; i < W; i++)
            dst[q + i] |= src[i];
        return;
    }
    size_t endword = (off + nbits - 1) >> 6;
    for (size_t i = 0; i < W; i++) {
        dst[q + i] |= src[i] << sh;
        if (q + i + 1 <= endword)
            dst[q + i + 1] |= src[i] >> (64 - sh);
    }
}

static void gf2_store(const frame *f, size_t r, const uint64_t *x)
{
    uint64_t *dst = toggle__vecs_row(f->out, f->outvec);
    if (!f->tr) {
        put_bits(dst, board_row(f, r) * f->C, x, f->C);
        return;
    }
    for (size_t j = 0; j < f->C; j++)
        if ((x[j >> 6] >> (j & 63)) & 1) {
            size_t t = cell_index(f, r, j);
            dst[t >> 6] |= (uint64_t)1 << (t & 63);
        }
}

/* One chase from the last frame row w (C values) upward; virt receives the
 * virtual row above the board (C values): zero iff w leads to a solution. */
static void gf2_chase(const frame *f, const uint64_t *w, uint64_t *virt, void *work_)
{
    uint64_t *work = work_;
    size_t C = f->C, W = (C + 63) / 64;
    uint64_t *cur = work, *nxt = work + W, *prv = work + 2 * W, *bw = work + 3 * W;
    uint64_t last = (C & 63) ? ((uint64_t)1 << (C & 63)) - 1 : ~(uint64_t)0;
    uint64_t dm = f->d ? ~(uint64_t)0 : 0;
    memset(cur, 0, 2 * W * sizeof *cur);
    for (size_t j = 0; j < C; j++)
        cur[j >> 6] |= (w[j] & 1) << (j & 63);
    for (size_t r = f->R; r-- > 0;) {
        if (f->out)
            gf2_store(f, r, cur);
        gf2_load_b(f, r, bw, W);
        /* x_{r-1} = b_r + T x_r + x_{r+1}: T adds left, right and (d) self. */
        for (size_t i = 0; i < W; i++) {
            uint64_t left = (cur[i] << 1) | (i ? cur[i - 1] >> 63 : 0);
            uint64_t right = (cur[i] >> 1) | (i + 1 < W ? cur[i + 1] << 63 : 0);
            prv[i] = bw[i] ^ left ^ right ^ (cur[i] & dm) ^ nxt[i];
        }
        prv[W - 1] &= last;
        uint64_t *t = nxt;
        nxt = cur;
        cur = prv;
        prv = t;
    }
    for (size_t j = 0; j < C; j++)
        virt[j] = (cur[j >> 6] >> (j & 63)) & 1;
}

/* ---- odd p: narrow lanes with lazy reduction ------------------------------ */
/* Each new cell is b + 4p - (four terms < p), below 5p, brought under p by
 * three branch-free min(v, v - m) steps; the lane type is the narrowest with
 * 5p <= 2^bits, so 16-bit lanes serve p <= 13107 and gcc vectorises the loop
 * for the baseline ISA (SSE2 on x86-64; see docs/grid.md). */
#define DEFINE_LANE_CHASE(NAME, T, POW2)                                                 \
    static void NAME(const frame *f, const uint64_t *w, uint64_t *virt, void *work_) \
    {                                                                                \
        size_t C = f->C;                                                             \
        T *cur = work_, *nxt = cur + (C + 2), *prv = nxt + (C + 2), *bl = prv + (C + 2); \
        const T p1 = (T)f->p, p2 = (T)(2 * f->p), p4 = (T)(4 * f->p);                 \
        const T dm = f->d ? (T)~(T)0 : 0;                                            \
        const T mask = (T)(f->p - 1);                                                \
        memset(cur, 0, 3 * (C + 2) * sizeof(T));                                     \
        for (size_t j = 0; j < C; j++)                                               \
            cur[j + 1] = (T)w[j];                                                    \
        for (size_t r = f->R; r-- > 0;) {                                            \
            if (f->out) {                                                            \
                toggle__vecs *o = f->out;                                            \
                if (!f->tr && o->width == 8 * sizeof(T)) {                           \
                    memcpy((T *)toggle__vecs_row(o, f->outvec) + board_row(f, r) * C, cur + 1,     \
                           C * sizeof(T));                                           \
                } else {                                                             \
                    for (size_t j = 0; j < C; j++)                                   \
                        toggle__vecs_set(o, f->outvec, cell_index(f, r, j), cur[j + 1]); \
                }                                                                    \
            }                                                                        \
            if (!f->b) {                                                             \
                memset(bl, 0, C * sizeof(T));                                        \
            } else if (!f->tr && f->b->width == 8 * sizeof(T)) {                    \
                memcpy(bl, (const T *)toggle__vecs_row(f->b, 0) + board_row(f, r) * C, C * sizeof(T)); \
            } else {                                                                 \
                for (size_t j = 0; j < C; j++)                                       \
                    bl[j] = (T)toggle__vecs_get(f->b, 0, cell_index(f, r, j));       \
            }                                                                        \
            for (size_t j = 0; j < C; j++) {                                         \
                T s = (T)(cur[j] + cur[j + 2] + (T)(cur[j + 1] & dm) + nxt[j + 1]);  \
                T v;                                                                 \
                if (POW2) { /* k = 2^e: wrap, then keep e bits */                    \
                    v = (T)((T)(bl[j] - s) & mask);                                  \
                } else {                                                             \
                    T u;                                                             \
                    v = (T)(bl[j] + p4 - s);                                         \
                    u = (T)(v - p4); v = u < v ? u : v;                              \
                    u = (T)(v - p2); v = u < v ? u : v;                              \
                    u = (T)(v - p1); v = u < v ? u : v;                              \
                }                                                                    \
                prv[j + 1] = v;                                                      \
            }                                                                        \
            T *t = nxt;                                                              \
            nxt = cur;                                                               \
            cur = prv;                                                               \
            prv = t;                                                                 \
        }                                                                            \
        for (size_t j = 0; j < C; j++)                                               \
            virt[j] = cur[j + 1];                                                    \
    }

DEFINE_LANE_CHASE(chase_u16, uint16_t, 0)
DEFINE_LANE_CHASE(chase_u32, uint32_t, 0)
DEFINE_LANE_CHASE(chase_u64, uint64_t, 0)
/* Composite k = 2^e (e >= 2): plain wrapping lanes, masked to e bits. */
DEFINE_LANE_CHASE(chase_pow2_u16, uint16_t, 1)
DEFINE_LANE_CHASE(chase_pow2_u32, uint32_t, 1)
DEFINE_LANE_CHASE(chase_pow2_u64, uint64_t, 1)

/* Any p up to 2^63 - 1: plain modular steps. */
static void chase_big(const frame *f, const uint64_t *w, uint64_t *virt, void *work_)
{
    size_t C = f->C;
    uint64_t p = f->p;
    uint64_t *cur = work_, *nxt = cur + (C + 2), *prv = nxt + (C + 2);
    memset(cur, 0, 3 * (C + 2) * sizeof *cur);
    memcpy(cur + 1, w, C * sizeof *w);
    for (size_t r = f->R; r-- > 0;) {
        if (f->out)
            for (size_t j = 0; j < C; j++)
                toggle__vecs_set(f->out, f->outvec, cell_index(f, r, j), cur[j + 1]);
        for (size_t j = 0; j < C; j++) {
            uint64_t s = toggle__addmod(cur[j], cur[j + 2], p);
            if (f->d)
                s = toggle__addmod(s, cur[j + 1], p);
            s = toggle__addmod(s, nxt[j + 1], p);
            prv[j + 1] = toggle__submod(f->b ? toggle__vecs_get(f->b, 0, cell_index(f, r, j)) : 0,
                                        s, p);
        }
        uint64_t *t = nxt;
        nxt = cur;
        cur = prv;
        prv = t;
    }
    memcpy(virt, cur + 1, C * sizeof *virt);
}

typedef toggle__chase_fn chase_fn;

chase_fn toggle__chase_pick(uint64_t p, size_t C, size_t *bytes)
{
    size_t W = (C + 63) / 64;
    if (p == 2) {
        *bytes = 4 * W * sizeof(uint64_t);
        return gf2_chase;
    }
    if (!(p & (p - 1))) {
        unsigned sz = p <= (uint64_t)1 << 16 ? 2 : p <= (uint64_t)1 << 32 ? 4 : 8;
        *bytes = 4 * (C + 2) * sz;
        return sz == 2 ? chase_pow2_u16 : sz == 4 ? chase_pow2_u32 : chase_pow2_u64;
    }
    if (p <= UINT16_MAX / 5) {
        *bytes = 4 * (C + 2) * sizeof(uint16_t);
        return chase_u16;
    }
    if (p <= UINT32_MAX / 5) {
        *bytes = 4 * (C + 2) * sizeof(uint32_t);
        return chase_u32;
    }
    if (p <= UINT64_MAX / 5) {
        *bytes = 4 * (C + 2) * sizeof(uint64_t);
        return chase_u64;
    }
    *bytes = 3 * (C + 2) * sizeof(uint64_t);
    return chase_big;
}

/* ---- the engine ------------------------------------------------------------ */

static bool chase_probe(const toggle_system *s, char *why, size_t len)
{
    const toggle_graph *g = s->graph;
    if (!g || g->kind != TOGGLE_KIND_GRID)
        return toggle__probe_no(why, len, "the chase engine needs a grid graph");
    if (g->flags & ~(uint32_t)TOGGLE_GRID_NO_SELF)
        return toggle__probe_no(why, len, "the chase engine handles classic and no-self grids "
                                "only (not torus or Moore; grid flags 0x%x)", (unsigned)g->flags);
    if (!toggle__is_prime(s->k))
        return toggle__chase_composite_probe(s, why, len);
    return true;
}

static void frame_for(const toggle_system *s, frame *f)
{
    const toggle_graph *g = s->graph;
    memset(f, 0, sizeof *f);
    f->tr = g->rows < g->cols;
    f->R = f->tr ? g->cols : g->rows;
    f->C = f->tr ? g->rows : g->cols;
    f->d = (g->flags & TOGGLE_GRID_NO_SELF) ? 0 : 1;
    f->p = s->k;
}

static int chase_estimate(const toggle_system *s, uint64_t *bytes)
{
    if (!toggle__is_prime(s->k))
        return toggle__chase_composite_estimate(s, bytes);
    frame f;
    frame_for(s, &f);
    size_t dn = 0, vec, work;
    int rc = toggle__grid_poly_nullity(f.p, f.R, f.C, f.d, &dn);
    if (rc)
        return rc;
    if (!toggle__vecs_bytes(s->n, 1, s->k, &vec))
        return toggle__error(TOGGLE_EOVERFLOW, "board of %zu cells overflows size_t", s->n);
    toggle__chase_pick(f.p, f.C, &work);
    /* the chase's rows (w, the virtual row, its work), then either the
     * small system's polynomials (a few of degree max(R, C)), or, after
     * them, the answers: the particular solution and the kernel on the
     * board, the small kernel and the certificate (chase_certify) */
    unsigned __int128 rows = (unsigned __int128)f.C * 2 * 8 + work;
    unsigned __int128 small = (unsigned __int128)toggle__grid_small_bytes(f.R, f.C);
    unsigned __int128 answers = (unsigned __int128)vec * (dn + 2) + (unsigned __int128)f.C * dn * 8;
    unsigned __int128 e = rows + (small > answers ? small : answers);
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}

/* dst -= f * src over whole board vectors. */
static void vec_axpy(toggle__vecs *v, size_t dst, const toggle__vecs *sv, size_t src,
                     uint64_t f, uint64_t k)
{
    uint64_t *d = toggle__vecs_row(v, dst);
    const uint64_t *s = toggle__vecs_row(sv, src);
    if (v->packed) {
        if (f & 1)
            for (size_t i = 0; i < v->stride; i++)
                d[i] ^= s[i];
        return;
    }
    for (size_t i = 0; i < v->len; i++) {
        uint64_t si = toggle__vecs_get(sv, src, i);
        if (si)
            toggle__vecs_set(v, dst, i, toggle__submod(toggle__vecs_get(v, dst, i),
                                                       toggle__mulmod(f, si, k), k));
    }
}

static void vec_scale(toggle__vecs *v, size_t i, uint64_t f, uint64_t k)
{
    if (v->packed)
        return; /* f = 1 */
    for (size_t t = 0; t < v->len; t++)
        toggle__vecs_set(v, i, t, toggle__mulmod(toggle__vecs_get(v, i, t), f, k));
}

/* A transposed chase gives the kernel basis canonical for the column-major
 * order. The row-major canonical basis has unit vectors on the last dn cells
 * of the last board row (the same argument, docs/grid.md): bring it there by
 * Gauss-Jordan on those dn coordinates, then clear them in the particular. */
static int recanonicalise(toggle_solution *sol, size_t brows, size_t bcols, size_t dn)
{
    uint64_t k = sol->k;
    toggle__vecs *K = &sol->kernel;
    size_t base = (brows - 1) * bcols + (bcols - dn);
    for (size_t j = 0; j < dn; j++) {
        size_t piv = j;
        while (piv < dn && toggle__vecs_get(K, piv, base + j) == 0)
            piv++;
        if (piv == dn)
            return toggle__error(TOGGLE_EINTERNAL, "grid kernel is not unit on the last row");
        if (piv != j)
            toggle__vecs_swap(K, piv, j);
        vec_scale(K, j, toggle__invmod(toggle__vecs_get(K, j, base + j), k), k);
        for (size_t i = 0; i < dn; i++) {
            uint64_t f = i == j ? 0 : toggle__vecs_get(K, i, base + j);
            if (f)
                vec_axpy(K, i, K, j, f, k);
        }
    }
    if (sol->solvable)
        for (size_t j = 0; j < dn; j++) {
            uint64_t f = toggle__vecs_get(&sol->x, 0, base + j);
            if (f)
                vec_axpy(&sol->x, 0, K, j, f, k);
        }
    return TOGGLE_OK;
}

static bool all_zero(const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i])
            return false;
    return true;
}

static int chase_solve(const toggle_system *s, toggle_solution *sol)
{
    if (!toggle__is_prime(s->k))
        return toggle__chase_composite_solve(s, sol);
    frame f;
    frame_for(s, &f);
    size_t C = f.C, workbytes, dn = 0;
    uint64_t p = f.p;
    int solvable = 0, rc;
    chase_fn chase = toggle__chase_pick(p, C, &workbytes);
    uint64_t *w = toggle__malloc_array(C, 2 * sizeof *w);
    void *work = toggle__malloc(workbytes);
    uint64_t *kern = NULL;
    if (!w || !work) {
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the chase");
        goto out;
    }
    uint64_t *virt = w + C;
    /* Pass 1: presses 0 on the last row give the virtual row z; the virtual
     * row of last row w is (-1)^R P_R(T) w + z, so P_R(T) w = -(-1)^R z. */
    memset(w, 0, C * sizeof *w);
    f.b = &s->b;
    if ((rc = toggle__progress(&s->progress, 0, 2)))
        goto out;
    chase(&f, w, virt, work);
    for (size_t j = 0; j < C; j++)
        w[j] = (f.R & 1) ? virt[j] : toggle__submod(0, virt[j], p);
    if ((rc = toggle__grid_small_solve(p, f.R, C, f.d, w, w, &solvable, &dn, &kern)))
        goto out;
    if ((rc = toggle__progress(&s->progress, 1, 2)))
        goto out;
    sol->solvable = solvable;
    sol->nullity = dn;
    if ((rc = toggle__vecs_init(&sol->kernel, s->n, dn, p)))
        goto out;
    if (solvable) {
        if ((rc = toggle__vecs_init(&sol->x, s->n, 1, p)))
            goto out;
        f.out = &sol->x;
        f.outvec = 0;
        chase(&f, w, virt, work);
        if (!all_zero(virt, C)) {
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: particular solution leaves a residue");
            goto out;
        }
    }
    f.b = NULL;
    f.out = &sol->kernel;
    for (size_t i = 0; i < dn; i++) {
        f.outvec = i;
        chase(&f, kern + i * C, virt, work);
        if (!all_zero(virt, C)) {
            rc = toggle__error(TOGGLE_EINTERNAL, "grid chase: kernel vector leaves a residue");
            goto out;
        }
    }
    if (f.tr && dn)
        rc = recanonicalise(sol, s->graph->rows, s->graph->cols, dn);
out:
    toggle__free(w);
    toggle__free(work);
    toggle__free(kern);
    return rc;
}

/* A grid's A is symmetric: for prime k the certificate is the policy's
 * (from the kernel basis); for composite k the Howell engine's. */
static int chase_certify(const toggle_system *s, toggle_solution *sol)
{
    if (!toggle__is_prime(s->k))
        return toggle__chase_composite_certify(s, sol);
    return toggle__certify_from_kernel(s, sol);
}

const toggle__engine toggle__engine_chase = {chase_probe, chase_estimate, chase_solve,
                                             chase_certify};
