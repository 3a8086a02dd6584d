/* The recursive Gauss-Jordan elimination over GF(2): wide panels whose
 * updates are matrix products (gf2_mul.c), each panel's own pivot search
 * recursing on half panels (or Four Russians, gf2_plain.c), then a back
 * substitution by products. Used by AUTO on large dense matrices, where
 * the plain form's passes over the whole matrix fall out of cache, and
 * where the products run on GFNI from smaller sizes (gf2_rref.c). */
#include "gf2_elim.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
__attribute__((target("bmi2"))) static uint64_t pext_bmi2(uint64_t x, uint64_t m)
{
    return _pext_u64(x, m);
}
#define GF2_HAVE_BMI2() __builtin_cpu_supports("bmi2")
#else
static uint64_t pext_bmi2(uint64_t x, uint64_t m) { (void)x; (void)m; return 0; }
#define GF2_HAVE_BMI2() 0
#endif

typedef struct gather_job {
    const uint64_t *M;
    size_t stride, lo1, hi1, lo2, hi2; /* rows [lo1, hi1) and [lo2, hi2) */
    size_t pw0, nw;                    /* the panel's words */
    const uint64_t *mask;              /* its pivot columns, per word */
    uint64_t *Y;                       /* row i's bits on them at Y + i * yw */
    size_t yw;
    int bmi2;
} gather_job;

/* Y[i] = row i's bits on the panel's pivot columns, in order: the
 * coefficients of the panel's pivot rows in row i's update (TOGGLE__HOT:
 * the POPCNT instruction where the CPU has it, not libgcc's table). */
TOGGLE__HOT static void gather_rows(void *ctx, unsigned t, unsigned nt)
{
    gather_job *j = ctx;
    for (int part = 0; part < 2; part++) {
        size_t a = part ? j->lo2 : j->lo1, b = part ? j->hi2 : j->hi1, lo, hi;
        split(b - a, t, nt, 64, &lo, &hi);
        for (size_t i = a + lo; i < a + hi; i++) {
            const uint64_t *row = j->M + i * j->stride + j->pw0;
            uint64_t *y = j->Y + i * j->yw;
            memset(y, 0, j->yw * sizeof *y);
            size_t o = 0;
            for (size_t w = 0; w < j->nw; w++) {
                uint64_t m = j->mask[w];
                if (!m)
                    continue;
                uint64_t x = m == ~(uint64_t)0 ? row[w]
                           : j->bmi2           ? pext_bmi2(row[w], m)
                                               : pext_soft(row[w], m);
                unsigned cnt = (unsigned)__builtin_popcountll(m), sh = (unsigned)(o & 63);
                y[o >> 6] |= x << sh;
                if (sh && sh + cnt > 64)
                    y[(o >> 6) + 1] |= x >> (64 - sh);
                o += cnt;
            }
        }
    }
}

/* Rows [lo, hi)'s bits on a panel's r1 pivot columns (mask; words pw0 ..
 * pw0 + nw), as a product's operand: the panel's words as they stand when
 * its pivot columns are all its columns, else gathered into Y (row i at
 * Y + i * yw). */
static toggle__gf2_view panel_coeffs(uint64_t *M, size_t stride, size_t lo, size_t hi,
                                     size_t pw0, size_t nw, const uint64_t *mask, size_t r1,
                                     uint64_t *Y, size_t yw, int bmi2, toggle__pool *pool)
{
    size_t w = 0;
    while (w < nw && mask[w] == ~(uint64_t)0)
        w++;
    if (w == nw)
        return (toggle__gf2_view){M + lo * stride + pw0, hi - lo, r1, stride};
    gather_job g = {.M = M, .stride = stride, .lo1 = lo, .hi1 = hi, .lo2 = 0, .hi2 = 0,
                    .pw0 = pw0, .nw = nw, .mask = mask, .Y = Y, .yw = yw, .bmi2 = bmi2};
    toggle__pool_run((hi - lo) * yw >= PROD_PAR_ROW_WORDS ? pool : NULL, gather_rows, &g);
    return (toggle__gf2_view){Y + lo * yw, hi - lo, r1, yw};
}

typedef struct clear_job {
    uint64_t *M;
    size_t stride, lo, hi, pw0, nw;
} clear_job;

/* Rows [lo, hi) zeroed on words pw0 .. pw0 + nw, in blocks per thread. */
static void clear_rows(void *ctx, unsigned t, unsigned nt)
{
    const clear_job *j = ctx;
    size_t lo, hi;
    split(j->hi - j->lo, t, nt, 64, &lo, &hi);
    for (size_t i = j->lo + lo; i < j->lo + hi; i++)
        memset(j->M + i * j->stride + j->pw0, 0, j->nw * sizeof *j->M);
}

/* Whether rows x nw words at p (stride words apart) are all zero. */
static bool rows_zero(const uint64_t *p, size_t rows, size_t stride, size_t nw)
{
    for (size_t i = 0; i < rows; i++) {
        uint64_t any = 0;
        for (size_t w = 0; w < nw; w++)
            any |= p[i * stride + w];
        if (any)
            return false;
    }
    return true;
}

static size_t prod_panel(size_t W, size_t pbw) { return pbw < W ? pbw : W; }

/* Words of the back substitution's compact non-pivot part: at most r rows
 * of cols - r bits for the worst rank r <= min(rows, cols). */
static uint64_t back_words(size_t rows, size_t cols)
{
    size_t r = rows < cols / 2 ? rows : cols / 2;
    return (uint64_t)r * words_for(cols - r) + (rows < cols ? rows : cols) + 1;
}

/* Workspace of a panel's pivot search on rows x nw words: the recursive
 * form or Four Russians, whichever panel_search takes (both bounded). */
static uint64_t search_bytes(size_t rows, size_t nw, size_t minp, unsigned threads)
{
    uint64_t plain = toggle__gf2_plain_bytes(rows, nw, threads);
    if (nw < 2 * minp)
        return plain;
    uint64_t rec = toggle__gf2_prod_bytes(rows, nw * 64, nw / 2, minp, threads, 0);
    return rec > plain ? rec : plain;
}

/* (gf2_elim.h) */
uint64_t toggle__gf2_prod_bytes(size_t rows, size_t cols, size_t pbw, size_t minp,
                                unsigned threads, int back)
{
    size_t W = words_for(cols), nw = prod_panel(W, pbw), pr = nw * 64; /* pivots per panel */
    size_t panels = (W + nw - 1) / nw;
    bool look = threads > 1 && panels > 1;
    uint64_t fw = (uint64_t)pr * nw;
    if (look && (uint64_t)rows * nw > fw)
        fw = (uint64_t)rows * nw;
    if (fw < W)
        fw = W;
    uint64_t own = (uint64_t)rows * nw * 8 + (uint64_t)rows * 3 * sizeof(size_t) +
                   (uint64_t)pr * sizeof(size_t) + (uint64_t)pr * (2 * nw) * 8 + fw * 8 +
                   (uint64_t)W * 8 + (uint64_t)panels * 2 * sizeof(size_t) + 256;
    uint64_t inner = search_bytes(rows, nw, minp, threads);
    uint64_t z = toggle__gf2_plain_bytes(pr, 2 * nw, threads);
    uint64_t m1 = toggle__gf2_mul_bytes(pr, pr, cols, threads, 0);
    uint64_t m2 = toggle__gf2_mul_bytes(rows, pr, cols, threads, 0);
    uint64_t big = inner > z ? inner : z;
    big = big > m1 ? big : m1;
    big = big > m2 ? big : m2;
    if (look) { /* the look-ahead: steps 1 and 3 on one thread beside a product */
        uint64_t one = search_bytes(rows, nw, minp, 1), z1 = toggle__gf2_plain_bytes(pr, 2 * nw, 1);
        one = one > z1 ? one : z1;
        big = big > one + m2 ? big : one + m2;
    }
    /* with threads the pool keeps the products' workspace (the largest
     * product's) to the end (toggle__pool_take), beside all the rest */
    uint64_t kept = threads > 1 ? (m1 > m2 ? m1 : m2) : 0;
    return own + big + kept + (back ? back_words(rows, cols) * 8 : 0);
}

typedef struct prod_ws {
    int psearch; /* a prefix's pivot search may take Four Russians (GFNI products) */
    uint64_t *P, *Z, *F, *mask, *X;
    uint64_t *Y; /* threads: step 5's coefficients, in F (not freed apart) */
    size_t *perm, *who, *where, *ppc, *prow;
} prod_ws;

/* One toggle__free per block (not TOGGLE__FREE_ALL, whose frees the
 * allocator's byte count does not see: lib/core/alloc.c), so that the
 * workspace test measures this form's real peak. */
static void prod_free(prod_ws *w)
{
    void *blocks[] = {w->P, w->Z, w->F, w->mask, w->X, w->perm, w->who, w->where, w->ppc, w->prow};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        toggle__free(blocks[i]);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("bmi2"))) static uint64_t pdep_bmi2(uint64_t x, uint64_t m)
{
    return _pdep_u64(x, m);
}
#else
static uint64_t pdep_bmi2(uint64_t x, uint64_t m) { return pdep_soft(x, m); }
#endif

typedef struct deposit_job {
    uint64_t *M;
    size_t stride, W;
    const uint64_t *npm, *X;
    size_t xw;
    const size_t *pivots;
    size_t rank;
    int bmi2;
} deposit_job;

/* prod_back's last step: row i (< rank) becomes its pivot bit plus X's row
 * i (compact, NULL: none) deposited on the non-pivot columns npm (W
 * words); rows dealt to threads in blocks. TOGGLE__HOT: the POPCNT
 * instruction where the CPU has it. */
TOGGLE__HOT static void deposit_rows(void *ctx, unsigned t, unsigned nt)
{
    const deposit_job *j = ctx;
    uint64_t *M = j->M;
    size_t stride = j->stride, W = j->W, xw = j->xw, lo, hi;
    const uint64_t *npm = j->npm, *X = j->X;
    int bmi2 = j->bmi2;
    split(j->rank, t, nt, 64, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        uint64_t *row = M + i * stride;
        const uint64_t *x = X ? X + i * xw : NULL;
        size_t o = 0;
        if (!x) {
            memset(row, 0, W * sizeof *row);
            row[j->pivots[i] / 64] |= (uint64_t)1 << (j->pivots[i] % 64);
            continue;
        }
        for (size_t q = 0; q < W; q++) {
            uint64_t m = npm[q], v = 0;
            if (m) {
                unsigned cnt = (unsigned)__builtin_popcountll(m), sh = (unsigned)(o & 63);
                uint64_t bits = x[o >> 6] >> sh;
                if (sh && sh + cnt > 64)
                    bits |= x[(o >> 6) + 1] << (64 - sh);
                v = m == ~(uint64_t)0 ? bits : bmi2 ? pdep_bmi2(bits, m) : pdep_soft(bits, m);
                o += cnt;
            }
            row[q] = v;
        }
        row[j->pivots[i] / 64] |= (uint64_t)1 << (j->pivots[i] % 64);
    }
}

/* The reduced form from the echelon form toggle__gf2_rref_prod's forward phase leaves:
 * rows 0 .. rank - 1 are reduced on their own panel's pivot columns and
 * zero left of them; panel q holds rows prow[2q] .. + prow[2q + 1]. With
 * X = the rows' non-pivot columns (compact), X_p += U_pq X_q for the
 * panels q from the last down and every earlier row p (U_pq: the rows' bits
 * on panel q's pivot columns, a product per panel), then each row is
 * rewritten as its pivot bit plus X deposited on the non-pivot columns. */
static int prod_back(uint64_t *M, size_t cols, size_t stride, const size_t *pivots, size_t rank,
                     prod_ws *w, size_t np, size_t nw0, unsigned fault, toggle__pool *pool,
                     int bmi2)
{
    size_t W = words_for(cols), f = cols - rank, xw = words_for(f);
    if (rank == 0)
        return TOGGLE_OK;
    uint64_t *npm = w->F; /* W words: the non-pivot columns (F is free now) */
    for (size_t q = 0; q < W; q++)
        npm[q] = q + 1 < W || cols % 64 == 0 ? ~(uint64_t)0 : ((uint64_t)1 << (cols % 64)) - 1;
    for (size_t l = 0; l < rank; l++)
        npm[pivots[l] / 64] &= ~((uint64_t)1 << (pivots[l] % 64));
    if (f > 0) {
        if (!(w->X = toggle__malloc_array(rank, xw * sizeof(uint64_t))))
            return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) back substitution");
        gather_job gx = {.M = M, .stride = stride, .lo1 = 0, .hi1 = rank, .lo2 = 0, .hi2 = 0,
                         .pw0 = 0, .nw = W, .mask = npm, .Y = w->X, .yw = xw, .bmi2 = bmi2};
        toggle__pool_run(rank * W >= PROD_PAR_ROW_WORDS ? pool : NULL, gather_rows, &gx);
        for (size_t q = np; q-- > 1;) {
            size_t r0 = w->prow[2 * q], r1 = w->prow[2 * q + 1], pw0 = q * nw0;
            size_t nw = W - pw0 < nw0 ? W - pw0 : nw0, gw = words_for(r1);
            if (r1 == 0 || r0 == 0)
                continue;
            memset(w->mask, 0, nw * sizeof *w->mask);
            for (size_t l = 0; l < r1 - (fault == TOGGLE__GF2_FAULT_BACK); l++)
                w->mask[(pivots[r0 + l] / 64) - pw0] |= (uint64_t)1 << (pivots[r0 + l] % 64);
            toggle__gf2_view C = {w->X, r0, f, xw},
                             A = panel_coeffs(M, stride, 0, r0, pw0, nw, w->mask, r1, w->P, gw,
                                              bmi2, pool),
                             B = {w->X + r0 * xw, r1, f, xw};
            int rc = toggle__gf2_mul(C, A, B, 0, 0, pool);
            if (rc)
                return rc;
        }
    }
    deposit_job dj = {.M = M, .stride = stride, .W = W, .npm = npm, .X = f ? w->X : NULL,
                      .xw = xw, .pivots = pivots, .rank = rank, .bmi2 = bmi2};
    toggle__pool_run(rank * W >= PROD_PAR_ROW_WORDS ? pool : NULL, deposit_rows, &dj);
    return TOGGLE_OK;
}

/* Step 1 of toggle__gf2_rref_prod: the pivot columns (w->ppc) and r1 independent rows
 * (w->perm[0 .. r1), offsets from r0) of the lower rows' panel (words pw0
 * .. pw0 + nw, pcols columns), on a copy in w->P (panel stride nw0
 * words); w->who and w->where start as the identity. First of the panel's
 * first pcols + PROD_PREFIX_EXTRA lower rows only: enough when they have a
 * pivot on every column of the panel (no row can add one; a random dense
 * panel almost surely does) or when the rows after them are zero on it (a
 * rank-deficient matrix's panels past its rank); else of the prefix's r1
 * independent rows and all the rows after the prefix (the prefix's other
 * rows depend on those r1 on the panel). Reads M's panel only. */
static int panel_search(const uint64_t *M, size_t rows, size_t stride, size_t r0, size_t pw0,
                        size_t nw, size_t nw0, size_t pcols, prod_ws *w, size_t minp,
                        unsigned fault, toggle__pool *pool, size_t *r1)
{
    size_t low = rows - r0;
    int rc = TOGGLE_OK;
    *r1 = 0;
    for (size_t i = 0; i < low; i++)
        w->who[i] = w->where[i] = i;
    size_t take = pcols + PROD_PREFIX_EXTRA < low ? pcols + PROD_PREFIX_EXTRA : low;
    for (size_t i = 0; i < take; i++) {
        memcpy(w->P + i * nw0, M + (r0 + i) * stride + pw0, nw * sizeof(uint64_t));
        w->perm[i] = i;
    }
    /* the prefix's fault goes down to the recursion (tests only) */
    toggle__gf2_run run = {.pivots = w->ppc, .rank = r1, .perm = w->perm, .pool = pool,
                           .fault = fault == TOGGLE__GF2_FAULT_PREFIX ? fault : 0};
    for (size_t n1 = take, pass = 0;; pass++) {
        toggle__gf2_view P = {w->P, n1, pcols, nw0};
        if (nw >= 2 * minp &&
            (!w->psearch || nw0 < PROD_SEARCH_PLAIN_MIN || n1 >= PROD_SEARCH_TALL * pcols))
            rc = toggle__gf2_rref_prod(P, &run, &(toggle__gf2_prod_cfg){nw / 2, minp, 0,
                                                                         w->psearch});
        else
            rc = toggle__gf2_rref_plain(P, &run, NULL);
        if (rc || pass || take == low || *r1 == pcols || fault == TOGGLE__GF2_FAULT_PREFIX ||
            rows_zero(M + (r0 + take) * stride + pw0, low - take, stride, nw))
            break;
        /* the prefix's independent rows (originals: perm[l] < take), then
         * rows take .. low - 1 */
        for (size_t l = 0; l < *r1; l++)
            memcpy(w->P + l * nw0, M + (r0 + w->perm[l]) * stride + pw0, nw * sizeof(uint64_t));
        for (size_t i = take; i < low; i++) {
            memcpy(w->P + (*r1 + i - take) * nw0, M + (r0 + i) * stride + pw0,
                   nw * sizeof(uint64_t));
            w->perm[*r1 + i - take] = i;
        }
        n1 = *r1 + (low - take);
    }
    return rc;
}

/* Step 3 of toggle__gf2_rref_prod: [S's panel | I] -> [E | G] in w->Z (row stride
 * 2 nw0 words), E the RREF of S's panel, its pivots (offsets in the
 * panel) in pv. S's rows are r0 + w->perm[l] (before step 2 moves them;
 * moved: NULL, rows r0 + l); reads only the panel's columns of M. */
static int panel_inverse(const uint64_t *M, size_t stride, size_t r0, size_t pw0, size_t nw,
                         size_t nw0, size_t r1, const size_t *perm, prod_ws *w, size_t *pv,
                         toggle__pool *pool)
{
    size_t gw = words_for(r1), rr = 0, zw = 2 * nw0;
    for (size_t l = 0; l < r1; l++) {
        uint64_t *z = w->Z + l * zw;
        memcpy(z, M + (r0 + (perm ? perm[l] : l)) * stride + pw0, nw * sizeof *z);
        memset(z + nw, 0, gw * sizeof *z);
        z[nw + l / 64] |= (uint64_t)1 << (l % 64);
    }
    int rc = toggle__gf2_rref_plain((toggle__gf2_view){w->Z, r1, nw * 64 + r1, zw},
                                    &(toggle__gf2_run){.pivots = pv, .rank = &rr, .pool = pool},
                                    NULL);
    if (!rc && (rr != r1 || pv[r1 - 1] != w->ppc[r1 - 1]))
        rc = toggle__error(TOGGLE_EINTERNAL, "GF(2) panel rank %zu, reduced rank %zu", r1, rr);
    return rc;
}

/* Step 5's look-ahead (threads): the caller (t = 0) does the next panel's
 * steps 1 and 3 on one thread, then takes the rest of the update's tiles;
 * the other threads take tiles from the start. */
typedef struct ahead_job {
    const uint64_t *M;
    size_t rows, stride, r0, pw0, nw, nw0, pcols, minp;
    prod_ws *w;
    size_t *pv; /* step 3's pivots */
    unsigned fault;
    toggle__gf2_mul_job *mul; /* NULL: no columns past the next panel */
    int rc;
    size_t r1;
} ahead_job;

static void ahead_run(void *ctx, unsigned t, unsigned nt)
{
    ahead_job *a = ctx;
    (void)nt;
    if (t == 0) {
        a->rc = panel_search(a->M, a->rows, a->stride, a->r0, a->pw0, a->nw, a->nw0, a->pcols,
                             a->w, a->minp, a->fault, NULL, &a->r1);
        if (!a->rc && a->r1)
            a->rc = panel_inverse(a->M, a->stride, a->r0, a->pw0, a->nw, a->nw0, a->r1,
                                  a->w->perm, a->w, a->pv, NULL);
    }
    toggle__gf2_mul_tiles(a->mul, t);
}

/* One recursive elimination's matrix, settings and workspace. */
typedef struct prod_run {
    uint64_t *M;
    size_t rows, cols, stride, W;
    size_t nw0, zw, fw, minp; /* panel words, Z's and F's words (prod_alloc) */
    size_t *pivots, *perm;
    unsigned fault;
    toggle__pool *pool;
    int bmi2;
    prod_ws w;
} prod_run;

/* The workspace (F: step 4's product, a chunk of a panel's width, with
 * threads of as many words as F holds per pivot row; then, with threads,
 * step 5's coefficients Y, which the look-ahead keeps apart from P, the
 * next panel's copy). Returns TOGGLE_OK or TOGGLE_ENOMEM (freed). */
static int prod_alloc(prod_run *p, size_t panels, int psearch)
{
    size_t rows = p->rows, W = p->W, nw0 = p->nw0, np = nw0 * 64;
    prod_ws *w = &p->w;
    bool look = toggle__pool_threads(p->pool) > 1 && panels > 1;
    size_t fw = np * (nw0 < W ? nw0 : W);
    if (look && rows * nw0 > fw)
        fw = rows * nw0;
    if (fw < W) /* prod_back's mask of the non-pivot columns */
        fw = W;
    p->fw = fw;
    p->zw = 2 * nw0;
    if (!(w->P = toggle__malloc_array(rows, nw0 * sizeof(uint64_t))) ||
        !(w->perm = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w->who = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w->where = toggle__malloc_array(rows, sizeof(size_t))) ||
        !(w->ppc = toggle__malloc_array(np, sizeof(size_t))) ||
        !(w->Z = toggle__malloc_array(np, p->zw * sizeof(uint64_t))) ||
        !(w->F = toggle__malloc_array(fw, sizeof(uint64_t))) ||
        !(w->mask = toggle__malloc_array(nw0, sizeof(uint64_t))) ||
        !(w->prow = toggle__calloc(2 * panels, sizeof(size_t)))) {
        prod_free(w);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) recursive elimination");
    }
    w->Y = look ? w->F : NULL;
    w->psearch = psearch;
    return TOGGLE_OK;
}

/* Step 2: the rows S came from (w.perm) to rows r0 .. r0 + r1 - 1. */
static void prod_move(prod_run *p, size_t r0, size_t pw0, size_t r1)
{
    prod_ws *w = &p->w;
    uint64_t *M = p->M;
    size_t stride = p->stride, *perm = p->perm;
    for (size_t l = 0; l < r1; l++) {
        size_t o = w->perm[l], at = w->where[o];
        if (at == l)
            continue;
        swap_rows(M + (r0 + l) * stride + pw0, M + (r0 + at) * stride + pw0, p->W - pw0);
        if (perm) {
            size_t t = perm[r0 + l];
            perm[r0 + l] = perm[r0 + at];
            perm[r0 + at] = t;
        }
        size_t o2 = w->who[l];
        w->who[l] = o;
        w->where[o] = l;
        w->who[at] = o2;
        w->where[o2] = at;
    }
}

/* Step 4: S's right part becomes G times it, then S's panel E: S (rows r0
 * .. r0 + r1 - 1) is reduced on the panel's pivot columns (pivots made
 * absolute). In column chunks (a chunk's product reads only its own
 * columns of S) of a panel's width on one thread, as wide as F holds on
 * more: one product over many chunks' columns gives every thread whole
 * Strassen tiles, where a panel-wide chunk is one tile that the threads
 * share as Four-Russians strips. Returns TOGGLE_OK or TOGGLE_ENOMEM. */
static int prod_right(prod_run *p, size_t r0, size_t pw0, size_t nw, size_t r1)
{
    prod_ws *w = &p->w;
    size_t stride = p->stride, nw0 = p->nw0, zw = p->zw, fw = p->fw, *pv = p->pivots + r0;
    uint64_t *S = p->M + r0 * stride;
    size_t rw = p->W - pw0 - nw, rcols = rw ? p->cols - (pw0 + nw) * 64 : 0;
    size_t cwmax = toggle__pool_threads(p->pool) > 1 && fw / r1 > nw0 ? fw / r1 : nw0;
    for (size_t c0 = 0; c0 < rw; c0 += cwmax) {
        size_t cw = rw - c0 < cwmax ? rw - c0 : cwmax;
        size_t ccols = c0 + cw < rw ? cw * 64 : rcols - c0 * 64;
        toggle__gf2_view F = {w->F, r1, ccols, cw}, G = {w->Z + nw, r1, r1, zw},
                         B = {S + pw0 + nw + c0, r1, ccols, stride};
        memset(w->F, 0, r1 * cw * sizeof *w->F);
        int rc = toggle__gf2_mul(F, G, B, 0, 0, p->pool);
        if (rc)
            return rc;
        for (size_t l = 0; l < r1; l++)
            memcpy(S + l * stride + pw0 + nw + c0, w->F + l * cw, cw * sizeof *S);
    }
    for (size_t l = 0; l < r1; l++) {
        memcpy(S + l * stride + pw0, w->Z + l * zw, nw * sizeof *S);
        pv[l] += pw0 * 64;
    }
    return TOGGLE_OK;
}

/* Step 5: every row x below S (from lo = r0 + r1) gets x += x[pivots] * S
 * right of the panel. With threads, and at least a panel's width of
 * columns past the next panel: the next panel's columns first, then the
 * rest on all threads but the caller, which meanwhile does the next
 * panel's steps 1 and 3 on one thread (a look-ahead; it reads only those
 * columns; *ahead then true, its rank in *ahead_r1) and then joins them.
 * (With less to overlap, the step's own products are better on all
 * threads.) Returns TOGGLE_OK or TOGGLE_ENOMEM. */
static int prod_lower(prod_run *p, size_t r0, size_t pw0, size_t nw, size_t r1, bool *ahead,
                      size_t *ahead_r1)
{
    prod_ws *w = &p->w;
    uint64_t *M = p->M;
    size_t rows = p->rows, stride = p->stride, nw0 = p->nw0, lo = r0 + r1;
    size_t rw = p->W - pw0 - nw, rcols = rw ? p->cols - (pw0 + nw) * 64 : 0;
    uint64_t *S = M + r0 * stride;
    if (!rw || lo >= rows)
        return TOGGLE_OK;
    memset(w->mask, 0, nw * sizeof *w->mask);
    for (size_t l = 0; l < r1 - (p->fault == TOGGLE__GF2_FAULT_UPDATE); l++)
        w->mask[w->ppc[l] / 64] |= (uint64_t)1 << (w->ppc[l] % 64);
    toggle__gf2_view Y = panel_coeffs(M, stride, lo, rows, pw0, nw, w->mask, r1,
                                      w->Y ? w->Y : w->P, words_for(r1), p->bmi2, p->pool);
    size_t nw1 = rw < nw0 ? rw : nw0;
    bool la = w->Y && rw - nw1 >= nw1;
    if (!la)
        nw1 = rw;
    size_t c1 = nw1 < rw ? nw1 * 64 : rcols;
    toggle__gf2_view B1 = {S + pw0 + nw, r1, c1, stride},
                     C1 = {M + lo * stride + pw0 + nw, rows - lo, c1, stride};
    int rc = toggle__gf2_mul(C1, Y, B1, 0, 0, p->pool);
    if (rc || !la)
        return rc;
    toggle__gf2_view B2 = {S + pw0 + nw + nw1, r1, rcols - c1, stride},
                     C2 = {M + lo * stride + pw0 + nw + nw1, rows - lo, rcols - c1, stride};
    ahead_job aj = {.M = M, .rows = rows, .stride = stride, .r0 = lo, .pw0 = pw0 + nw,
                    .nw = nw1, .nw0 = nw0, .pcols = c1, .w = w, .pv = p->pivots + lo,
                    .minp = p->minp, .fault = p->fault};
    if ((rc = toggle__gf2_mul_begin(&aj.mul, C2, Y, B2, 0, 0, p->pool)))
        return rc;
    toggle__pool_run(p->pool, ahead_run, &aj);
    toggle__gf2_mul_end(aj.mul);
    if ((rc = aj.rc))
        return rc;
    *ahead = true;
    *ahead_r1 = aj.r1;
    return TOGGLE_OK;
}

/* (gf2_elim.h) Gauss-Jordan by panels of pbw words whose updates are
 * products. Forward, for each panel: (1) the pivot columns and r1
 * independent rows S are found on a copy of the lower rows' panel (this
 * routine again with half panels, forward only, or Four Russians); (2) S
 * moves to rows r0 .. r0 + r1 - 1; (3) G = the inverse of S on the pivot
 * columns, from the RREF of [S's panel | I]; (4) S's right part becomes
 * G * S's right part (a product), so S is reduced on its panel; (5) every
 * lower row x gets x += x[pivots] * S right of the panel (a product) and
 * zero on it. Then (back) the reduced form by prod_back. Same RREF as the
 * plain form. */
int toggle__gf2_rref_prod(toggle__gf2_view m, const toggle__gf2_run *run,
                          const toggle__gf2_prod_cfg *pc)
{
    size_t rows = m.rows, cols = m.cols, W = words_for(cols), nw0 = prod_panel(W, pc->pbw);
    size_t panels = (W + nw0 - 1) / nw0;
    const toggle__progress_state *pr = run->progress;
    prod_run p = {.M = m.p, .rows = rows, .cols = cols, .stride = m.stride, .W = W, .nw0 = nw0,
                  .minp = pc->minp, .pivots = run->pivots, .perm = run->perm,
                  .fault = run->fault, .pool = run->pool, .bmi2 = GF2_HAVE_BMI2()};
    *run->rank = 0;
    int rc = prod_alloc(&p, panels, pc->psearch);
    if (rc)
        return rc;
    prod_ws *w = &p.w;
    size_t r0 = 0, ahead_r1 = 0;
    bool ahead = false; /* step 1 of this panel done (r1 = ahead_r1) */
    for (size_t q = 0, pw0 = 0; pw0 < W && r0 < rows && !rc; q++, pw0 += nw0) {
        if (pr && (rc = toggle__progress(pr, pw0 * 64, cols)))
            break;
        size_t nw = W - pw0 < nw0 ? W - pw0 : nw0, pcols = cols - pw0 * 64;
        if (pcols > nw * 64)
            pcols = nw * 64;
        w->prow[2 * q] = r0;
        /* (1) pivots of the lower rows' panel (done ahead, during the
         * previous panel's update, when there are threads) */
        size_t r1 = 0;
        bool inverted = ahead;
        if (ahead) {
            r1 = ahead_r1;
            ahead = false;
        } else {
            rc = panel_search(m.p, rows, m.stride, r0, pw0, nw, nw0, pcols, w, p.minp, p.fault,
                              p.pool, &r1);
        }
        if (rc || r1 == 0)
            continue;
        prod_move(&p, r0, pw0, r1);
        /* (3) [S's panel | I] -> [E | G], E the RREF of S's panel (done
         * ahead with step 1) */
        if (!inverted && (rc = panel_inverse(m.p, m.stride, r0, pw0, nw, nw0, r1, NULL, w,
                                             p.pivots + r0, p.pool)))
            break;
        if ((rc = prod_right(&p, r0, pw0, nw, r1)))
            break;
        w->prow[2 * q + 1] = r1;
        if ((rc = prod_lower(&p, r0, pw0, nw, r1, &ahead, &ahead_r1)))
            break;
        /* the lower rows zero on the panel, once their update is in (an
         * ENOMEM before leaves the row space as it was) */
        size_t lo = r0 + r1;
        clear_job cj = {.M = m.p, .stride = m.stride, .lo = lo, .hi = rows, .pw0 = pw0, .nw = nw};
        toggle__pool_run(lo < rows && (rows - lo) * nw >= PROD_PAR_ROW_WORDS ? p.pool : NULL,
                         clear_rows, &cj);
        r0 += r1;
    }
    *run->rank = r0;
    if (!rc && pc->back)
        rc = prod_back(m.p, cols, m.stride, p.pivots, r0, w, panels, nw0, p.fault, p.pool,
                       p.bmi2);
    prod_free(w);
    return rc;
}
