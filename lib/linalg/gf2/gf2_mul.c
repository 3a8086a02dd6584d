/* Packed GF(2) matrix product C += A * B: the
 * Method of Four Russians (M4RM: eight 8-bit Gray-code tables of B's rows
 * per 64 bits of A, column strip by column strip so that the tables and the
 * C strip stay in L2) as the base case, Strassen-Winograd recursion above a
 * cutoff, and output tiles dealt to the threads of a per-call pool. */
#include <stdatomic.h>
#include <string.h>

#include "gf2.h"
#include "gf2_kern.h"
#include "core.h"

#include "gf2_tune.h"

/* one thread's tables */
#define MUL_TAB_WORDS(sw) (GF2_MAXT * 256 * (size_t)(sw))

/* A product without a Strassen step, on threads: with GFNI, tiles of whole
 * rows, a multiple of MUL_PREP_ROWS, as many as gives every thread
 * MUL_FLAT_TILES to take (an elimination's look-ahead keeps one thread away
 * for part of the product), B copied once for all of them: two threads
 * writing the same rows slow each other down even 256 bytes apart (the
 * cores' prefetchers), and B copied per tile would be copied whole for
 * each. Without GFNI, Four-Russians strips of MUL_FLAT_TC_M4RM bits (a tile
 * narrower than a strip makes the base case copy A again for each) cut
 * into row tiles of a multiple of MUL_MIN_TILE_ROWS rows until every thread
 * has MUL_FLAT_TILES tiles, and a product that would be one tile takes
 * MUL_FLAT_TC_NARROW columns. */

static size_t words_for(size_t bits) { return bits / 64 + (bits % 64 != 0); }

static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* ---- base case: M4RM -------------------------------------------------- */

typedef struct m4rm_args {
    uint64_t *C;
    const uint64_t *A, *B;
    size_t cs, as, bs;  /* strides in words */
    size_t m, k, nw;    /* A is m x k bits, B k x nw words */
    size_t sw;          /* words per strip */
    uint64_t *tab;      /* GF2_MAXT * 256 entries of sw words */
} m4rm_args;

GF2_INLINE void m4rm_tables(const m4rm_args *a, size_t ws, size_t n, size_t kc, unsigned kb)
{
    for (unsigned t = 0; t * 8 < kb; t++) {
        unsigned kt = kb - t * 8 < 8 ? kb - t * 8 : 8;
        uint64_t *T = a->tab + ((size_t)t << 8) * a->sw;
        memset(T, 0, n * sizeof *T);
        size_t prev = 0;
        for (size_t i = 1; i < ((size_t)1 << kt); i++) {
            size_t g = i ^ (i >> 1);
            unsigned b = (unsigned)__builtin_ctzll((unsigned long long)i);
            const uint64_t *restrict src = a->B + (kc + t * 8 + b) * a->bs + ws;
            const uint64_t *restrict pt = T + prev * a->sw;
            uint64_t *restrict dt = T + g * a->sw;
            for (size_t w = 0; w < n; w++)
                dt[w] = pt[w] ^ src[w];
            prev = g;
        }
    }
}

GF2_INLINE void m4rm_rows(const m4rm_args *a, size_t ws, size_t n, size_t kc, uint64_t mask,
                          unsigned NT)
{
    const uint64_t *t[GF2_MAXT];
    for (unsigned q = NT; q < GF2_MAXT; q++)
        t[q] = a->tab; /* never read for this NT */
    const uint64_t *arow = a->A + kc / 64;
    for (size_t i = 0; i < a->m; i++) {
        uint64_t x = arow[i * a->as] & mask;
        if (!x)
            continue;
        for (unsigned q = 0; q < NT; q++)
            t[q] = a->tab + (((size_t)q << 8) + ((x >> (8 * q)) & 255)) * a->sw;
        xor_fused(a->C + i * a->cs + ws, t, NT, n);
    }
}

GF2_INLINE void m4rm_body(const m4rm_args *a)
{
    for (size_t ws = 0; ws < a->nw; ws += a->sw) {
        size_t n = min_sz(a->sw, a->nw - ws);
        for (size_t kc = 0; kc < a->k; kc += 64) {
            unsigned kb = a->k - kc < 64 ? (unsigned)(a->k - kc) : 64;
            uint64_t mask = kb == 64 ? ~(uint64_t)0 : (((uint64_t)1 << kb) - 1);
            m4rm_tables(a, ws, n, kc, kb);
            switch ((kb + 7) / 8) {
            case 8: m4rm_rows(a, ws, n, kc, mask, 8); break;
            case 7: m4rm_rows(a, ws, n, kc, mask, 7); break;
            case 6: m4rm_rows(a, ws, n, kc, mask, 6); break;
            case 5: m4rm_rows(a, ws, n, kc, mask, 5); break;
            case 4: m4rm_rows(a, ws, n, kc, mask, 4); break;
            case 3: m4rm_rows(a, ws, n, kc, mask, 3); break;
            case 2: m4rm_rows(a, ws, n, kc, mask, 2); break;
            default: m4rm_rows(a, ws, n, kc, mask, 1); break;
            }
        }
    }
}

typedef void (*m4rm_fn)(const m4rm_args *);
TOGGLE__CLONES(m4rm, m4rm_args)

/* One thread's workspace: the M4RM tables and a stack of Strassen
 * temporaries. */
typedef struct mul_ws {
    m4rm_fn fn;
    int gfni;         /* the GFNI base case (gf2_gfni.c), in tab */
    uint64_t *tab;
    uint64_t *tmp;    /* Strassen temporaries, used as a stack */
    size_t cutoff;    /* bits; SIZE_MAX: the base case only */
    int lent;         /* tab is the pool's scratch (toggle__pool_take), not ours */
    unsigned fault;   /* tests only: TOGGLE__GF2_MUL_DROP_P7 drops the P7 product of
                       * every Winograd step */
} mul_ws;

typedef toggle__gf2_view view;

static view sub(view v, size_t r0, size_t rows, size_t w0, size_t cols)
{
    view s = {v.p + r0 * v.stride + w0, rows, cols, v.stride};
    return s;
}

/* C += A * B with few rows: a row xor per set bit of A. */
static void mul_naive(view C, view A, view B)
{
    size_t nw = words_for(B.cols);
    for (size_t i = 0; i < A.rows; i++) {
        const uint64_t *a = A.p + i * A.stride;
        uint64_t *c = C.p + i * C.stride;
        for (size_t w = 0; w * 64 < A.cols; w++) {
            uint64_t x = a[w];
            if ((w + 1) * 64 > A.cols)
                x &= ((uint64_t)1 << (A.cols % 64)) - 1;
            while (x) {
                const uint64_t *b = B.p + (w * 64 + (size_t)__builtin_ctzll(x)) * B.stride;
                for (size_t q = 0; q < nw; q++)
                    c[q] ^= b[q];
                x &= x - 1;
            }
        }
    }
}

static void mul_base(view C, view A, view B, const mul_ws *ws, size_t maxsw)
{
    if (A.rows == 0 || A.cols == 0 || B.cols == 0)
        return;
    if (A.rows < 32) { /* the tables would cost more than they save */
        mul_naive(C, A, B);
        return;
    }
    if (ws->gfni) {
        toggle__gf2_gfni_mul(C.p, C.stride, A.p, A.stride, B.p, B.stride, A.rows, A.cols,
                             B.cols, ws->tab);
        return;
    }
    size_t sw = MUL_STRIP_WORDS / A.rows;
    sw = sw < 2 ? 2 : sw > maxsw ? maxsw : sw >= 8 ? sw & ~(size_t)7 : sw & ~(size_t)1;
    m4rm_args a = {.C = C.p, .A = A.p, .B = B.p, .cs = C.stride, .as = A.stride,
                   .bs = B.stride, .m = A.rows, .k = A.cols, .nw = words_for(B.cols),
                   .sw = sw, .tab = ws->tab};
    ws->fn(&a);
}

/* D = X ^ Y (Y may be NULL: D = X) and D ^= X, on rows x nw words. */
static void mat_sum(view D, view X, const view *Y, size_t nw)
{
    for (size_t i = 0; i < D.rows; i++) {
        uint64_t *d = D.p + i * D.stride;
        const uint64_t *x = X.p + i * X.stride, *y = Y ? Y->p + i * Y->stride : NULL;
        if (y)
            for (size_t w = 0; w < nw; w++)
                d[w] = x[w] ^ y[w];
        else
            memcpy(d, x, nw * sizeof *d);
    }
}

static void mat_acc(view D, view X, size_t nw)
{
    for (size_t i = 0; i < D.rows; i++) {
        uint64_t *d = D.p + i * D.stride;
        const uint64_t *x = X.p + i * X.stride;
        for (size_t w = 0; w < nw; w++)
            d[w] ^= x[w];
    }
}

static void mat_zero(view D, size_t nw)
{
    for (size_t i = 0; i < D.rows; i++)
        memset(D.p + i * D.stride, 0, nw * sizeof(uint64_t));
}

static int strassen_splits(size_t m, size_t k, size_t n, size_t cut)
{
    return cut != SIZE_MAX && m >= 2 * cut && k >= 2 * cut && n >= 2 * cut;
}

/* Words of Strassen temporaries a product m x k x n needs (the stack depth). */
static uint64_t strassen_words(size_t m, size_t k, size_t n, size_t cut)
{
    uint64_t total = 0;
    while (strassen_splits(m, k, n, cut)) {
        size_t m1 = m / 2, k1 = k / 2 / 64 * 64, n1 = n / 2 / 64 * 64;
        total += 2 * (uint64_t)m1 * (n1 / 64) + (uint64_t)m1 * (k1 / 64) +
                 (uint64_t)k1 * (n1 / 64);
        m = m1;
        k = k1;
        n = n1;
    }
    return total;
}

/* C += A * B: Strassen-Winograd on the leading 2m1 x 2k1 x 2n1 part (seven
 * half-size products, 15 additions), the leftover row, inner bits and
 * columns by M4RM. */
static void mul_rec(view C, view A, view B, uint64_t *tmp, const mul_ws *ws, size_t maxsw)
{
    size_t m = A.rows, k = A.cols, n = B.cols;
    if (!strassen_splits(m, k, n, ws->cutoff)) {
        mul_base(C, A, B, ws, maxsw);
        return;
    }
    size_t m1 = m / 2, k1 = k / 2 / 64 * 64, n1 = n / 2 / 64 * 64;
    size_t kw = k1 / 64, nw = n1 / 64;
    view A11 = sub(A, 0, m1, 0, k1), A12 = sub(A, 0, m1, kw, k1), A21 = sub(A, m1, m1, 0, k1),
         A22 = sub(A, m1, m1, kw, k1);
    view B11 = sub(B, 0, k1, 0, n1), B12 = sub(B, 0, k1, nw, n1), B21 = sub(B, k1, k1, 0, n1),
         B22 = sub(B, k1, k1, nw, n1);
    view C11 = sub(C, 0, m1, 0, n1), C12 = sub(C, 0, m1, nw, n1), C21 = sub(C, m1, m1, 0, n1),
         C22 = sub(C, m1, m1, nw, n1);
    view Q1 = {tmp, m1, n1, nw}, Q2 = {tmp + m1 * nw, m1, n1, nw};
    view S = {tmp + 2 * m1 * nw, m1, k1, kw}, T = {S.p + m1 * kw, k1, n1, nw};
    uint64_t *next = T.p + k1 * nw;
    /* C11 = P1 + P2 */
    mat_zero(Q1, nw);
    mul_rec(Q1, A11, B11, next, ws, MUL_SW); /* P1 */
    mat_acc(C11, Q1, nw);
    mul_rec(C11, A12, B21, next, ws, MUL_SW); /* P2 */
    /* U2 = P1 + P6, in C12, C21 and C22 */
    mat_sum(S, A11, &A21, kw);
    mat_acc(S, A22, kw);              /* S2 = A11 + A21 + A22 */
    mat_sum(T, B11, &B12, nw);
    mat_acc(T, B22, nw);              /* T2 = B11 + B12 + B22 */
    mul_rec(Q1, S, T, next, ws, MUL_SW); /* P6 */
    mat_acc(C12, Q1, nw);
    mat_acc(C21, Q1, nw);
    mat_acc(C22, Q1, nw);
    /* P7 in C21 and C22 */
    if (!(ws->fault & TOGGLE__GF2_MUL_DROP_P7)) {
        mat_sum(S, A11, &A21, kw);    /* S3 */
        mat_sum(T, B12, &B22, nw);    /* T3 */
        mat_zero(Q2, nw);
        mul_rec(Q2, S, T, next, ws, MUL_SW);
        mat_acc(C21, Q2, nw);
        mat_acc(C22, Q2, nw);
    }
    /* P5 in C12 and C22 */
    mat_sum(S, A21, &A22, kw);        /* S1 */
    mat_sum(T, B11, &B12, nw);        /* T1 */
    mat_zero(Q2, nw);
    mul_rec(Q2, S, T, next, ws, MUL_SW);
    mat_acc(C12, Q2, nw);
    mat_acc(C22, Q2, nw);
    /* P3 = S4 B22 in C12; P4 = A22 T4 in C21 */
    mat_sum(S, A11, &A12, kw);
    mat_acc(S, A21, kw);
    mat_acc(S, A22, kw);              /* S4 = A12 + S2 */
    mul_rec(C12, S, B22, next, ws, MUL_SW);
    mat_sum(T, B11, &B12, nw);
    mat_acc(T, B21, nw);
    mat_acc(T, B22, nw);              /* T4 = T2 + B21 */
    mul_rec(C21, A22, T, next, ws, MUL_SW);
    /* leftovers: inner bits past 2 k1, columns past 2 n1, the odd row */
    size_t m2 = 2 * m1;
    if (k > 2 * k1)
        mul_base(sub(C, 0, m2, 0, n), sub(A, 0, m2, 2 * kw, k - 2 * k1),
                 sub(B, 2 * k1, k - 2 * k1, 0, n), ws, MUL_SW);
    if (n > 2 * n1)
        mul_base(sub(C, 0, m2, 2 * nw, n - 2 * n1), sub(A, 0, m2, 0, 2 * k1),
                 sub(B, 0, 2 * k1, 2 * nw, n - 2 * n1), ws, MUL_SW);
    if (m > m2)
        mul_base(sub(C, m2, m - m2, 0, n), sub(A, m2, m - m2, 0, k), B, ws, MUL_SW);
}

/* ---- tiles and threads -------------------------------------------------- */

static size_t cutoff_of(size_t cutoff) { return cutoff ? cutoff : MUL_CUTOFF; }

/* Column tiles of n bits of width tc: a last tile narrower than a word (the
 * right-hand side's column past a square part) joins the one before it,
 * so it costs no tile of its own (the Strassen stack is the same: the
 * halves are cut on words). */
static size_t col_tiles(size_t n, size_t tc)
{
    size_t nct = (n + tc - 1) / tc;
    return nct > 1 && n - (nct - 1) * tc < 64 ? nct - 1 : nct;
}

/* The widest column tile (the last one, when it took the narrow rest). */
static size_t col_tile_max(size_t n, size_t tc)
{
    size_t last = n - (col_tiles(n, tc) - 1) * tc;
    return last > tc ? last : min_sz(n, tc);
}

/* Tile shape in bits for a product with inner dimension k on T threads:
 * square Strassen tiles when it applies (side k, halved while there are
 * fewer than 2 T tiles, down to MUL_TILE); else one tile on one thread,
 * and on more, row tiles of whole rows with GFNI, else base-case
 * strips cut into row tiles (MUL_FLAT_*). */
static void tile_shape(size_t m, size_t k, size_t n, size_t cut, unsigned T, int gfni,
                       size_t *tr, size_t *tc, int *prep)
{
    *prep = 0;
    size_t side = k < MUL_TILE ? MUL_TILE : (k + 63) / 64 * 64;
    while (side > MUL_TILE && ((m + side - 1) / side) * ((n + side - 1) / side) < 2 * (size_t)T)
        side = (side / 2 + 63) / 64 * 64;
    if (!strassen_splits(min_sz(m, side), k, min_sz(n, side), cut)) {
        *tr = m ? m : 1;
        *tc = n ? n : 1;
        if (T < 2)
            return;
        if (gfni && m >= 2 * MUL_PREP_ROWS) { /* whole rows, B copied once (see MUL_PREP_ROWS) */
            size_t want = MUL_FLAT_TILES * (size_t)T, rows = (m + want - 1) / want;
            *tr = min_sz(m, (rows + MUL_PREP_ROWS - 1) / MUL_PREP_ROWS * MUL_PREP_ROWS);
            *prep = 1;
            return;
        }
        *tc = MUL_FLAT_TC_M4RM;
        size_t nct = col_tiles(n, *tc), want = MUL_FLAT_TILES * (size_t)T;
        if (nct < want) {
            size_t nr = (want + nct - 1) / nct, rows = (m + nr - 1) / nr;
            rows = (rows + MUL_MIN_TILE_ROWS - 1) / MUL_MIN_TILE_ROWS * MUL_MIN_TILE_ROWS;
            *tr = min_sz(*tr, rows);
        }
        /* one tile (few rows, one strip): narrower columns, so that the
         * threads can still share it (an elimination's last panels) */
        if (col_tiles(n, *tc) == 1 && *tr >= m && n > MUL_FLAT_TC_NARROW)
            *tc = MUL_FLAT_TC_NARROW;
        return;
    }
    *tr = side;
    *tc = side;
    /* T threads: when the tiles do not share evenly, thinner row tiles may
     * finish sooner (a tile too thin for Strassen costs 8/7 of its share
     * per level lost, an idle thread costs its whole share) */
    size_t nct = col_tiles(n, side), nr0 = (m + side - 1) / side, best = SIZE_MAX;
    for (size_t nr = nr0; T > 1 && nr <= nr0 * T && m / nr >= MUL_MIN_TILE_ROWS; nr++) {
        size_t rows = (m + nr - 1) / nr, tiles = ((m + rows - 1) / rows) * nct, cost = rows * 64;
        for (size_t a = rows, b = k, c = min_sz(n, side); strassen_splits(a, b, c, cut);
             a /= 2, b /= 2, c /= 2)
            cost = cost / 8 * 7;
        cost *= (tiles + T - 1) / T;
        if (cost < best) {
            best = cost;
            *tr = rows;
        }
    }
}

static unsigned clamp_threads(unsigned threads)
{
    return threads < 1 ? 1 : threads > MUL_MAX_THREADS ? MUL_MAX_THREADS : threads;
}

struct toggle__gf2_mul_job {
    view C, A, B;
    size_t tr, tc, nrt, nct;
    unsigned T;         /* threads with a workspace: t >= T stay idle */
    toggle__pool *pool; /* the lender of lent workspaces */
    atomic_size_t next; /* the next tile to take */
    uint64_t *bt;       /* B's copy for all tiles (tile_shape's prep), in ws[0]'s block */
    size_t nblk;        /* ... of this many blocks */
    atomic_size_t nextblk;
    mul_ws ws[MUL_MAX_THREADS];
};
typedef toggle__gf2_mul_job mul_job;

/* Words of one thread's base-case workspace: with GFNI, the copies of B and
 * A for the largest tile (gf2_gfni.c); else M4RM's tables, on strips of
 * MUL_SW words when the tiles take a Strassen step, else of MUL_SW_FLAT
 * (half the tables to allocate and fault in for each of the many small
 * products of an elimination). */
static size_t tab_words(size_t m, size_t k, size_t n, size_t tr, size_t tc, size_t cut, int gfni,
                        int prep)
{
    if (prep)
        return toggle__gf2_gfni_rows_words(min_sz(m, tr), k);
    if (gfni)
        return toggle__gf2_gfni_words(min_sz(m, tr), k, col_tile_max(n, tc));
    return strassen_splits(min_sz(m, tr), k, col_tile_max(n, tc), cut) ? MUL_TAB_WORDS(MUL_SW)
                                                                         : MUL_TAB_WORDS(MUL_SW_FLAT);
}

/* Per thread: the tables and the Strassen stack of the largest tile (the
 * one of a single thread), so that this bounds every thread count up to
 * `threads`. */
uint64_t toggle__gf2_mul_bytes(size_t m, size_t k, size_t n, unsigned threads, size_t cutoff)
{
    size_t cut = cutoff_of(cutoff), tr, tc;
    int gfni = toggle__gf2_gfni_ok(), prep;
    tile_shape(m, k, n, cut, 1, gfni, &tr, &tc, &prep);
    uint64_t per = tab_words(m, k, n, tr, tc, cut, gfni, prep) +
                   strassen_words(min_sz(m, tr), k, col_tile_max(n, tc), cut) + 8;
    /* B's copy for all threads (only on more than one), counted whatever
     * this shape's tiles: an elimination bounds all its products, some of
     * them flat where this one takes a Strassen step, by the largest */
    uint64_t shared = 0;
    if (gfni && clamp_threads(threads) > 1)
        shared = (uint64_t)toggle__gf2_gfni_prep_words(k, n) * 8 + 64;
    return (uint64_t)clamp_threads(threads) * per * 8 + shared + sizeof(mul_job) + 256;
}

/* Each thread takes the next tile until none is left (tiles differ in
 * size at the edges; each is computed by one thread, so the bits do not
 * depend on who takes which). */
static void mul_tiles(void *ctx, unsigned t, unsigned nt)
{
    mul_job *j = ctx;
    (void)nt;
    if (t >= j->T)
        return;
    for (;;) {
        size_t q = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
        if (q >= j->nrt * j->nct)
            break;
        size_t r0 = q / j->nct * j->tr, c0 = q % j->nct * j->tc;
        size_t rows = min_sz(j->tr, j->C.rows - r0);
        if (j->bt) {
            toggle__gf2_gfni_mul_prepped(j->C.p + r0 * j->C.stride, j->C.stride,
                                         j->A.p + r0 * j->A.stride, j->A.stride, j->bt, rows,
                                         j->A.cols, j->B.cols, j->ws[t].tab);
            continue;
        }
        size_t cols = q % j->nct == j->nct - 1 ? j->B.cols - c0 : j->tc;
        mul_rec(sub(j->C, r0, rows, c0 / 64, cols), sub(j->A, r0, rows, 0, j->A.cols),
                sub(j->B, 0, j->B.rows, c0 / 64, cols), j->ws[t].tmp, &j->ws[t], MUL_SW_FLAT);
    }
}

/* B's copy, its blocks taken in turn (any share may take any block). */
static void mul_prep(void *ctx, unsigned t, unsigned nt)
{
    mul_job *j = ctx;
    (void)t, (void)nt;
    for (;;) {
        size_t b = atomic_fetch_add_explicit(&j->nextblk, 1, memory_order_relaxed);
        if (b >= j->nblk)
            break;
        toggle__gf2_gfni_prep(j->B.p, j->B.stride, j->B.rows, j->B.cols, b, j->bt);
    }
}

int toggle__gf2_mul_begin(toggle__gf2_mul_job **out, toggle__gf2_view C, toggle__gf2_view A,
                          toggle__gf2_view B, size_t cutoff, unsigned fault, toggle__pool *pool)
{
    unsigned threads = toggle__pool_threads(pool);
    size_t m = A.rows, k = A.cols, n = B.cols;
    *out = NULL;
    if (m == 0 || k == 0 || n == 0)
        return TOGGLE_OK;
    mul_job *j = toggle__calloc(1, sizeof *j);
    if (!j)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for a GF(2) product");
    size_t cut = cutoff_of(cutoff);
    j->C = C;
    j->A = A;
    j->B = B;
    unsigned T = clamp_threads(threads);
    int gfni = !(fault & TOGGLE__GF2_MUL_M4RM) && toggle__gf2_gfni_ok(), prep;
    tile_shape(m, k, n, cut, T, gfni, &j->tr, &j->tc, &prep);
    j->nrt = (m + j->tr - 1) / j->tr;
    j->nct = col_tiles(n, j->tc);
    atomic_init(&j->next, 0);
    if ((uint64_t)j->nrt * j->nct < T)
        T = (unsigned)(j->nrt * j->nct);
    size_t tabw = tab_words(m, k, n, j->tr, j->tc, cut, gfni, prep);
    uint64_t words = tabw + strassen_words(min_sz(m, j->tr), k, col_tile_max(n, j->tc), cut);
    uint64_t bw = prep ? toggle__gf2_gfni_prep_words(k, n) : 0;
    if (prep) /* B's copy after it, on a cache line (aligned stores) */
        words = (words + 7) / 8 * 8;
    atomic_init(&j->nextblk, 0);
    int rc = TOGGLE_OK;
    m4rm_fn fn = TOGGLE__PICK(m4rm);
    j->pool = pool;
    j->T = T;
    for (unsigned t = 0; t < T && !rc; t++) {
        j->ws[t].fn = fn;
        j->ws[t].gfni = gfni;
        j->ws[t].cutoff = cut;
        j->ws[t].fault = fault;
        /* the pool's scratch where there is one (kept between the many
         * products of a solve, so the heap is not trimmed and refaulted
         * between them), else our own */
        void *lent = NULL;
        uint64_t tw = words + (t == 0 ? bw : 0);
        if (tw > SIZE_MAX / 8 || toggle__pool_take(pool, t, (size_t)tw * 8, &lent))
            rc = TOGGLE_ENOMEM;
        else if ((j->ws[t].tab = lent))
            j->ws[t].lent = 1;
        else if (!(j->ws[t].tab = toggle__malloc_lines((size_t)tw, 8)))
            rc = TOGGLE_ENOMEM;
        if (!rc)
            j->ws[t].tmp = j->ws[t].tab + tabw;
    }
    if (!rc && prep) {
        j->bt = j->ws[0].tab + words;
        j->nblk = toggle__gf2_gfni_prep_blocks(k, n);
        toggle__pool_run(T > 1 ? pool : NULL, mul_prep, j);
    }
    if (rc) {
        toggle__gf2_mul_end(j);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for a GF(2) product");
    }
    *out = j;
    return TOGGLE_OK;
}

void toggle__gf2_mul_tiles(toggle__gf2_mul_job *j, unsigned t)
{
    if (j)
        mul_tiles(j, t, j->T);
}

void toggle__gf2_mul_end(toggle__gf2_mul_job *j)
{
    if (!j)
        return;
    for (unsigned t = 0; t < j->T; t++) {
        if (j->ws[t].lent)
            toggle__pool_give(j->pool, t);
        else
            toggle__free(j->ws[t].tab);
    }
    toggle__free(j);
}

int toggle__gf2_mul(toggle__gf2_view C, toggle__gf2_view A, toggle__gf2_view B, size_t cutoff,
                    unsigned fault, toggle__pool *pool)
{
    mul_job *j = NULL;
    int rc = toggle__gf2_mul_begin(&j, C, A, B, cutoff, fault, pool);
    if (rc || !j)
        return rc;
    toggle__pool_run(j->T > 1 ? pool : NULL, mul_tiles, j);
    toggle__gf2_mul_end(j);
    return TOGGLE_OK;
}
