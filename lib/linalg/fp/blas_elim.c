/* Exact RREF over F_p in doubles (docs/blas.md).
 *
 * Entries are centred residues, |v| <= h = floor(p / 2). A product of
 * K such entries summed onto a residue stays below h + K h^2, so a BLAS
 * dgemm over an inner dimension of at most kmax = (2^52 - h) / h^2 is exact
 * (every partial sum is an integer below 2^52); the result is reduced once
 * per chunk. 2^52 rather than 2^53 keeps the reduction free of FMA and
 * rounding instructions the baseline ISA lacks: the quotient is rounded
 * with the 1.5 * 2^52 trick (exact for |x / p| < 2^51) and x - q p is exact.
 *
 * Phase 1, row echelon form: recursive on column halves (Gaussian
 * elimination with row swaps, L stored in place at the pivot columns of the
 * rows below each pivot, as LAPACK's getrf does); after the left half, the
 * right half is updated by a unit lower triangular solve and one product
 * (in row chunks). Phase 2, reduction: the pivot rows are scaled to unit
 * pivots and the non-pivot columns X solve U_P X = U_F (unit upper
 * triangular, recursive, products through the BLAS). */
#define _POSIX_C_SOURCE 200809L /* blis.h names pthread barriers */
#include "blas.h" /* first: its pragma (blas.h) */

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include <blis.h>

#include "blas_tune.h"
#include "core.h"

#define HOT TOGGLE__HOT

typedef struct {
    double p, pinv, h;
    size_t kmax;     /* inner dimension of one exact product */
    size_t threads;  /* BLIS threads of each product (a per-call setting) */
    double *pack;    /* PACK_COLS * (cols + PACK_ROWS) doubles for packed products */
} fp;

/* Packed products for small p: a sum of kc products of centred residues
 * is below kc h^2 in magnitude, far less than a double holds, so s entries
 * of B share one double as "slots" b_0 + b_1 2^w + ... (w bits a slot),
 * one dgemm computes s columns of A B at once (s times fewer
 * multiply-adds), and the slots are split back exactly (docs/blas.md).
 * Panels bound the workspace: PACK_COLS packed columns of B, PACK_ROWS
 * rows of A at a time (blas_tune.h). */

static inline double red(const fp *f, double x)
{
    const double magic = 6755399441055744.0; /* 1.5 * 2^52 */
    double q = (x * f->pinv + magic) - magic;
    double r = x - q * f->p;
    /* both candidates computed unconditionally: the selects vectorise */
    double below = r - f->p, above = r + f->p;
    r = r > f->h ? below : r;
    r = r < -f->h ? above : r;
    return r;
}

static double centred(const fp *f, uint64_t v)
{
    double d = (double)v;
    return d > f->h ? d - f->p : d;
}

static uint64_t residue(const fp *f, double v)
{
    return (uint64_t)(v < 0 ? v + f->p : v);
}

static double inverse(const fp *f, double v)
{
    uint64_t p = (uint64_t)f->p;
    return centred(f, toggle__invmod(residue(f, v), p));
}

HOT static void reduce_block(const fp *f, size_t rows, size_t cols, double *C, size_t ldc)
{
    for (size_t i = 0; i < rows; i++) {
        double *c = C + i * ldc;
        for (size_t j = 0; j < cols; j++)
            c[j] = red(f, c[j]);
    }
}

/* Bits w of one slot for products over kc terms: every slot value and
 * every partial sum of one stays below 2^(w-1) in magnitude. */
static unsigned slot_bits(const fp *f, size_t kc)
{
    double bound = (double)kc * f->h * f->h;
    unsigned w = 2;
    while (ldexp(1.0, (int)w - 1) <= bound)
        w++;
    return w;
}

/* Slots a double holds for products over kc terms: with s slots of w bits
 * every partial sum of a packed dot product is an integer below 2^52 (the
 * bound of the whole engine), so each is exact whatever order the BLAS
 * adds in; 1 means no packing. */
static size_t slots(const fp *f, size_t kc)
{
    if (!f->pack)
        return 1;
    size_t s = 52 / slot_bits(f, kc);
    return s > MAX_SLOTS ? MAX_SLOTS : (s ? s : 1);
}

/* Columns in slot i of a panel of jn columns packed into pc (the last
 * slots may be short or empty). */
static size_t slot_len(size_t i, size_t pc, size_t jn)
{
    size_t from = i * pc;
    return from >= jn ? 0 : (jn - from < pc ? jn - from : pc);
}

/* C := C - A B (mod p) with s slots of w bits: B packed a panel at a time
 * (slot i of packed column q is column i pc + q of the panel, so packing
 * and splitting run along contiguous columns), the product split slot by
 * slot (x = q 2^w + c with |c| < 2^(w-1): q is x / 2^w rounded to nearest,
 * exact with the 1.5 * 2^52 trick). */
HOT static void gemm_sub_packed(const fp *f, size_t s, unsigned w, size_t rows, size_t cols,
                            size_t kc, const double *A, size_t lda, const double *B, size_t ldb,
                            double *C, size_t ldc, rntm_t *rntm)
{
    const double magic = 6755399441055744.0; /* 1.5 * 2^52 */
    const double beta = ldexp(1.0, (int)w), ibeta = ldexp(1.0, -(int)w);
    double one = 1.0, zero = 0.0;
    double *Bp = f->pack, *D = f->pack + (size_t)PACK_COLS * kc;
    size_t span = PACK_COLS * s; /* real columns of one panel */
    for (size_t j0 = 0; j0 < cols; j0 += span) {
        size_t jn = cols - j0 < span ? cols - j0 : span;
        size_t pc = (jn + s - 1) / s;
        for (size_t k = 0; k < kc; k++) {
            const double *b = B + k * ldb + j0;
            double *bp = Bp + k * pc;
            memset(bp, 0, pc * sizeof *bp);
            for (size_t i = s; i-- > 0;) {
                size_t n = slot_len(i, pc, jn);
                for (size_t q = 0; q < n; q++)
                    bp[q] = bp[q] * beta + b[i * pc + q];
                for (size_t q = n; q < pc; q++)
                    bp[q] *= beta;
            }
        }
        for (size_t i0 = 0; i0 < rows; i0 += PACK_ROWS) {
            size_t rn = rows - i0 < PACK_ROWS ? rows - i0 : PACK_ROWS;
            bli_dgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, (dim_t)rn, (dim_t)pc, (dim_t)kc,
                         &one, (double *)(A + i0 * lda), (inc_t)lda, 1, Bp, (inc_t)pc, 1, &zero,
                         D, (inc_t)pc, 1, NULL, rntm);
            for (size_t r = 0; r < rn; r++) {
                double *c = C + (i0 + r) * ldc + j0, *d = D + r * pc;
                for (size_t i = 0; i < s; i++) {
                    double *ci = c + i * pc;
                    size_t n = slot_len(i, pc, jn);
                    for (size_t q = 0; q < n; q++) {
                        double hi = (d[q] * ibeta + magic) - magic;
                        ci[q] = red(f, ci[q] - (d[q] - hi * beta));
                        d[q] = hi;
                    }
                }
            }
        }
    }
}

/* C := C - A B (mod p): A rows x K, B K x cols, all reduced. */
static void gemm_sub(const fp *f, size_t rows, size_t cols, size_t K, const double *A,
                     size_t lda, const double *B, size_t ldb, double *C, size_t ldc)
{
    if (!rows || !cols || !K)
        return;
    /* the thread count travels with the call (BLIS's runtime object), so
     * nothing process-wide is set: concurrent solves and the caller's own
     * BLIS calls keep their own counts */
    rntm_t rntm = BLIS_RNTM_INITIALIZER;
    bli_rntm_set_num_threads((dim_t)f->threads, &rntm);
    double minus_one = -1.0, one = 1.0;
    for (size_t k0 = 0; k0 < K; k0 += f->kmax) {
        size_t kc = K - k0 < f->kmax ? K - k0 : f->kmax;
        size_t sl = cols >= 2 * MAX_SLOTS ? slots(f, kc) : 1;
        if (sl > 1) {
            gemm_sub_packed(f, sl, slot_bits(f, kc), rows, cols, kc, A + k0, lda, B + k0 * ldb,
                            ldb, C, ldc, &rntm);
            continue;
        }
        bli_dgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, (dim_t)rows, (dim_t)cols, (dim_t)kc,
                     &minus_one, (double *)(A + k0), (inc_t)lda, 1, (double *)(B + k0 * ldb),
                     (inc_t)ldb, 1, &one, C, (inc_t)ldc, 1, NULL, &rntm);
        reduce_block(f, rows, cols, C, ldc);
    }
}

/* row := row - l * src over cols entries, without reduction. */
static void axpy(double *row, double l, const double *src, size_t cols)
{
    for (size_t j = 0; j < cols; j++)
        row[j] -= l * src[j];
}

/* bi := bi - sum_{k0 <= k < k1} coef[k] B[k] (rows of B, ldb apart),
 * reduced every kmax terms and at the end. */
HOT static void substitute(const fp *f, double *bi, const double *coef, const double *B, size_t ldb,
                       size_t k0, size_t k1, size_t cols)
{
    size_t pending = 0;
    for (size_t k = k0; k < k1; k++) {
        if (coef[k] == 0)
            continue;
        axpy(bi, coef[k], B + k * ldb, cols);
        if (++pending == f->kmax) {
            reduce_block(f, 1, cols, bi, ldb);
            pending = 0;
        }
    }
    if (pending)
        reduce_block(f, 1, cols, bi, ldb);
}

/* B := L^{-1} B, L unit lower triangular t x t (only below the diagonal is
 * read), B t x cols. */
static void lower_solve(const fp *f, size_t t, const double *L, size_t ldl, size_t cols,
                        double *B, size_t ldb)
{
    if (t <= TBASE) {
        for (size_t i = 1; i < t; i++)
            substitute(f, B + i * ldb, L + i * ldl, B, ldb, 0, i, cols);
        return;
    }
    size_t t1 = t / 2;
    lower_solve(f, t1, L, ldl, cols, B, ldb);
    gemm_sub(f, t - t1, cols, t1, L + t1 * ldl, ldl, B, ldb, B + t1 * ldb, ldb);
    lower_solve(f, t - t1, L + t1 * ldl + t1, ldl, cols, B + t1 * ldb, ldb);
}

/* B := U^{-1} B, U unit upper triangular t x t (only above the diagonal is
 * read), B t x cols. */
static void upper_solve(const fp *f, size_t t, const double *U, size_t ldu, size_t cols,
                        double *B, size_t ldb)
{
    if (t <= TBASE) {
        for (size_t i = t ? t - 1 : 0; i-- > 0;)
            substitute(f, B + i * ldb, U + i * ldu, B, ldb, i + 1, t, cols);
        return;
    }
    size_t t1 = t / 2;
    upper_solve(f, t - t1, U + t1 * ldu + t1, ldu, cols, B + t1 * ldb, ldb);
    gemm_sub(f, t1, cols, t - t1, U + t1, ldu, B + t1 * ldb, ldb, B, ldb);
    upper_solve(f, t1, U, ldu, cols, B, ldb);
}

typedef struct {
    fp f;
    double *M;
    size_t m, nc, ld;
    size_t *pivot, rank;
    double *work; /* g * (g + CHUNK): a scattered L, gathered in groups of g */
    size_t g;     /* min(GATHER, rows, cols) */
    double *strip; /* m * BASE: the base case's columns, column by column */
    /* with more than one thread: the solve's own pool, and thread t's
     * arithmetic ft[t] (its packing buffer; one BLIS thread each) */
    toggle__pool *pool;
    unsigned nt;
    fp *ft;
} elim;

/* Large updates are split by columns over the pool's threads: the
 * columns of a triangular solve and of a product are independent, so each
 * thread solves and multiplies its own slice, with its own packing buffer
 * and one BLIS thread (the splitting, reduction and packing around the
 * products then run in parallel too, not only BLIS's kernels). A job is
 * B := T^{-1} B (T lower or upper unit triangular, t x t; t = 0: none),
 * then C := C - A B (A rows x K; rows = 0: none), over `cols` columns. */
typedef struct {
    elim *e;
    size_t t, K;
    bool upper;
    const double *T;
    size_t ldt;
    size_t rows;
    const double *A;
    size_t lda;
    double *B;
    size_t ldb;
    double *C;
    size_t ldc, cols;
} slice_job;

/* Columns [a, b) of the job on thread t's arithmetic. */
static void slice_cols(const slice_job *j, unsigned t, size_t a, size_t b)
{
    const fp *f = t ? &j->e->ft[t] : &j->e->f;
    if (j->t && j->upper)
        upper_solve(f, j->t, j->T, j->ldt, b - a, j->B + a, j->ldb);
    else if (j->t)
        lower_solve(f, j->t, j->T, j->ldt, b - a, j->B + a, j->ldb);
    if (j->rows)
        gemm_sub(f, j->rows, b - a, j->K, j->A, j->lda, j->B + a, j->ldb, j->C + a, j->ldc);
}

/* The slices are handed out one at a time (a shared counter), several a
 * thread: on a shared machine a thread that loses its core for a while
 * leaves its remaining slices to the others instead of holding up the
 * join with a fixed share. */
typedef struct {
    const slice_job *j;
    size_t slices;
    atomic_size_t next;
} slice_run_ctx;

static void slice_run(void *ctx, unsigned t, unsigned nt)
{
    (void)nt;
    slice_run_ctx *r = ctx;
    size_t cols = r->j->cols, n = r->slices;
    for (size_t c; (c = atomic_fetch_add(&r->next, 1)) < n;) {
        /* slice boundaries on multiples of 8 columns (64 bytes apart) */
        size_t a = c ? (cols * c / n) & ~(size_t)7 : 0;
        size_t b = c + 1 < n ? (cols * (c + 1) / n) & ~(size_t)7 : cols;
        if (a < b)
            slice_cols(r->j, t, a, b);
    }
}

static void sliced(elim *e, const slice_job *j)
{
    double work = ((double)j->t * j->t / 2 + (double)j->rows * j->K) * (double)j->cols;
    if (!e->pool || j->cols < SPLIT_MIN_COLS || work < SPLIT_WORK) {
        slice_cols(j, 0, 0, j->cols);
        return;
    }
    size_t n = (size_t)e->nt * SLICES_PER_THREAD, most = j->cols / (SPLIT_MIN_COLS / 2);
    slice_run_ctx r = {j, n < most ? n : most, 0};
    toggle__pool_run(e->pool, slice_run, &r);
}

static void swap_rows(elim *e, size_t a, size_t b)
{
    double *ra = e->M + a * e->ld, *rb = e->M + b * e->ld;
    for (size_t j = 0; j < e->nc; j++) {
        double t = ra[j];
        ra[j] = rb[j];
        rb[j] = t;
    }
}

/* Columns [c0, c1) of rows [r0, m) without the BLAS. They are copied to
 * a strip stored by columns (S[c * rows + i]: walking a column of M
 * touches one page per row, a column of the strip is contiguous), so that
 * every step runs along a column: reducing it, the multipliers, and one
 * axpy per column right of the pivot, all over contiguous rows (they
 * vectorise). Row swaps move the whole rows of M too (the L entries left
 * of c0, the columns right of c1); the strip is written back at the end. */
HOT static size_t base(elim *e, size_t r0, size_t c0, size_t c1)
{
    const fp *f = &e->f;
    size_t r = r0, ld = e->ld, w = c1 - c0, rows = e->m - r0;
    double *S = e->strip;
    for (size_t i = 0; i < rows; i++) {
        const double *src = e->M + (r0 + i) * ld + c0;
        for (size_t j = 0; j < w; j++)
            S[j * rows + i] = src[j];
    }
    /* below 2^24 the strip's updates wait for their reduction: an entry
     * collects at most BASE - 1 products of two centred residues (each
     * below 2^48) before its column is reduced, so it stays below 2^52 */
    bool lazy = f->h < 16777216.0;
    for (size_t c = 0; c < w && r < e->m; c++) {
        size_t top = r - r0, i = top;
        double *col = S + c * rows;
        for (size_t k = top; k < rows; k++)
            col[k] = red(f, col[k]);
        while (i < rows && col[i] == 0)
            i++;
        if (i == rows)
            continue;
        if (i != top) {
            swap_rows(e, r0 + i, r);
            for (size_t j = 0; j < w; j++) {
                double t = S[j * rows + i];
                S[j * rows + i] = S[j * rows + top];
                S[j * rows + top] = t;
            }
        }
        double uinv = inverse(f, col[top]);
        /* the multipliers, in place: L, read by the trailing update (a
         * zero entry gives a zero multiplier, and its axpys change nothing) */
        for (size_t k = top + 1; k < rows; k++)
            col[k] = red(f, col[k] * uinv);
        for (size_t j = c + 1; j < w; j++) {
            double *cj = S + j * rows;
            double u = cj[top] = red(f, cj[top]); /* the pivot row, reduced */
            if (u == 0)
                continue;
            if (lazy)
                for (size_t k = top + 1; k < rows; k++)
                    cj[k] -= col[k] * u;
            else
                for (size_t k = top + 1; k < rows; k++)
                    cj[k] = red(f, cj[k] - col[k] * u);
        }
        e->pivot[e->rank++] = c0 + c;
        r++;
    }
    /* the rows below the last pivot may hold unreduced entries right of
     * its column (the pivot rows and the L entries are reduced) */
    if (lazy)
        for (size_t j = 0; j < w; j++)
            for (size_t k = r - r0; k < rows; k++)
                S[j * rows + k] = red(f, S[j * rows + k]);
    for (size_t i = 0; i < rows; i++) {
        double *dst = e->M + (r0 + i) * ld + c0;
        for (size_t j = 0; j < w; j++)
            dst[j] = S[j * rows + i];
    }
    return r - r0;
}

/* Apply the t pivots found in rows [r0, r0 + t) at columns piv[] to the
 * columns [ca, cb) of rows [r0, m): R_T := L11^{-1} R_T, R_B -= L21 R_T. */
static void update(elim *e, size_t r0, size_t t, const size_t *piv, size_t ca, size_t cb)
{
    size_t ld = e->ld, cols = cb - ca, below = e->m - r0 - t;
    double *RT = e->M + r0 * ld + ca;
    if (piv[t - 1] - piv[0] == t - 1) {
        /* pivots on consecutive columns: L is a block of M itself (its
         * columns are disjoint from the updated ones), no gather */
        double *L = e->M + r0 * ld + piv[0];
        slice_job j = {e, t, t, false, L, ld, below, L + t * ld, ld, RT, ld, RT + t * ld, ld,
                       cols};
        sliced(e, &j);
        return;
    }
    /* scattered pivots: L gathered a group of GATHER pivots at a time (a
     * blocked forward substitution over [R_T; R_B]: the group's diagonal
     * block solves its rows of R_T, then every row below the group, in
     * R_T and R_B, is updated with the group's columns of L) */
    double *Lg = e->work, *Lc = e->work + e->g * e->g;
    for (size_t g0 = 0; g0 < t; g0 += e->g) {
        size_t gn = t - g0 < e->g ? t - g0 : e->g;
        const size_t *pg = piv + g0;
        for (size_t i = 0; i < gn; i++)
            for (size_t k = 0; k < i; k++)
                Lg[i * gn + k] = e->M[(r0 + g0 + i) * ld + pg[k]];
        double *Rg = RT + g0 * ld;
        slice_job j = {e, gn, 0, false, Lg, gn, 0, NULL, 0, Rg, ld, NULL, 0, cols};
        sliced(e, &j);
        for (size_t i0 = r0 + g0 + gn; i0 < e->m; i0 += TOGGLE__BLAS_CHUNK) {
            size_t rows = e->m - i0 < TOGGLE__BLAS_CHUNK ? e->m - i0 : TOGGLE__BLAS_CHUNK;
            for (size_t i = 0; i < rows; i++)
                for (size_t k = 0; k < gn; k++)
                    Lc[i * gn + k] = e->M[(i0 + i) * ld + pg[k]];
            slice_job g = {e, 0, gn, false, NULL, 0, rows, Lc, gn, Rg, ld, e->M + i0 * ld + ca, ld,
                           cols};
            sliced(e, &g);
        }
    }
}

/* Row echelon form of columns [c0, c1) of rows [r0, m); returns the pivots
 * found (appended to e->pivot). */
static size_t echelon(elim *e, size_t r0, size_t c0, size_t c1)
{
    if (r0 >= e->m || c0 >= c1)
        return 0;
    if (c1 - c0 <= BASE)
        return base(e, r0, c0, c1);
    size_t cm = c0 + (c1 - c0) / 2, p0 = e->rank;
    size_t t1 = echelon(e, r0, c0, cm);
    if (t1)
        update(e, r0, t1, e->pivot + p0, cm, c1);
    return t1 + echelon(e, r0 + t1, cm, c1);
}

static size_t gather_size(size_t rows, size_t cols)
{
    size_t g = rows < cols ? rows : cols;
    return g < GATHER ? g : GATHER;
}

uint64_t toggle__blas_workspace_bytes(size_t rows, size_t cols, size_t threads)
{
    /* phase 1: a scattered L's gathered group (GATHER x GATHER) and one
     * chunk of its rows below; phase 2: the free columns, the reorder and
     * one row (U_P and U_F stay in place) */
    unsigned __int128 g = gather_size(rows, cols);
    unsigned __int128 p1 = g * (g + TOGGLE__BLAS_CHUNK);
    unsigned __int128 p2 = (unsigned __int128)3 * cols;
    unsigned __int128 pk = (unsigned __int128)PACK_COLS * ((unsigned __int128)cols + PACK_ROWS);
    unsigned __int128 nt = threads > 1 ? threads : 1;
    unsigned __int128 w = (p1 > p2 ? p1 : p2) * sizeof(double) + cols * sizeof(size_t)
                        + (pk * nt + (unsigned __int128)rows * BASE) * sizeof(double)
                        + nt * (sizeof(fp) + 256); /* the pool and its threads' records */
    return w > UINT64_MAX ? UINT64_MAX : (uint64_t)w;
}

/* row[j] := u row[j] (mod p) over n entries (|u|, |row[j]| <= h: exact). */
HOT static void scale_row(const fp *f, double *row, double u, size_t n)
{
    for (size_t j = 0; j < n; j++)
        row[j] = red(f, row[j] * u);
}

/* Columns [c0, c0 + len) of rows [0, rows) reordered: seg[t] := seg[order[t]]
 * (tmp: len doubles). */
HOT static void compact_rows(double *M, size_t ld, size_t rows, size_t c0, size_t len,
                             const size_t *order, double *tmp)
{
    for (size_t i = 0; i < rows; i++) {
        double *seg = M + i * ld + c0;
        memcpy(tmp, seg, len * sizeof *tmp);
        for (size_t t = 0; t < len; t++)
            seg[t] = tmp[order[t]];
    }
}

/* Phase 2: the first r rows of M in row echelon form (L entries left of
 * each pivot) become the RREF: every non-pivot column holds its entry in
 * [0, p), each pivot entry is 1, the other pivot columns are scratch. The
 * pivot rows are scaled to unit pivots; from the first column c0 that is
 * not a pivot on, each row's columns are reordered (pivot columns, then
 * free columns), so that U_P is the leading r x r block of M and U_F the
 * columns [r, nc), and X = U_P^{-1} U_F is solved in place (no copy of U_P;
 * when the pivots are the first r columns, the common case, nothing is
 * moved); X's columns go back to the free columns at the end. */
static int reduce_echelon(elim *e)
{
    const fp *f = &e->f;
    size_t r = e->rank, nc = e->nc, ld = e->ld, nf = nc - r, c0 = 0;
    for (size_t i = 0; i < r; i++) {
        double *row = e->M + i * ld;
        size_t pc = e->pivot[i];
        double uinv = inverse(f, row[pc]);
        row[pc] = 1;
        scale_row(f, row + pc + 1, uinv, nc - pc - 1);
    }
    while (c0 < r && e->pivot[c0] == c0)
        c0++;
    size_t len = nc - c0;
    size_t *free_col = toggle__malloc_array(nf ? nf : 1, sizeof *free_col);
    size_t *order = c0 < r ? toggle__malloc_array(len, sizeof *order) : NULL;
    double *tmp = c0 < r ? toggle__malloc_array(len, sizeof *tmp) : NULL;
    if (!free_col || (c0 < r && (!order || !tmp))) {
        toggle__free(free_col);
        toggle__free(order);
        toggle__free(tmp);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the back substitution");
    }
    for (size_t j = 0, q = 0, k = 0; j < nc; j++) {
        if (k < r && e->pivot[k] == j)
            k++;
        else
            free_col[q++] = j;
    }
    if (c0 < r) {
        for (size_t k = c0; k < r; k++)
            order[k - c0] = e->pivot[k] - c0;
        for (size_t q = 0; q < nf; q++)
            order[r - c0 + q] = free_col[q] - c0;
        compact_rows(e->M, ld, r, c0, len, order, tmp);
    }
    if (nf) {
        slice_job j = {e, r, 0, true, e->M, ld, 0, NULL, 0, e->M + r, ld, NULL, 0, nf};
        sliced(e, &j);
    }
    /* X's column q (at r + q) to free column free_col[q] <= r + q, in
     * increasing q: no source is overwritten before it is read */
    for (size_t i = 0; i < r; i++) {
        double *row = e->M + i * ld;
        for (size_t q = 0; q < nf; q++)
            row[free_col[q]] = (double)residue(f, row[r + q]);
        row[e->pivot[i]] = 1;
    }
    toggle__free(tmp);
    toggle__free(order);
    toggle__free(free_col);
    return TOGGLE_OK;
}

/* The arithmetic for p and products over at most kdim terms; with the
 * packing buffer when two slots fit over kdim terms (NULL otherwise, or
 * when it cannot be had: *ok false). */
static fp fp_init(uint64_t p, size_t threads, size_t kdim, bool *ok)
{
    fp f = {.p = (double)p, .pinv = 1.0 / (double)p, .h = (double)(p / 2)};
    f.threads = threads ? threads : 1;
    double h = f.h > 0 ? f.h : 1;
    double kmax = (4503599627370496.0 - h) / (h * h); /* (2^52 - h) / h^2 */
    f.kmax = kmax > (double)kdim ? (kdim ? kdim : 1) : (size_t)kmax;
    fp probe = f;
    probe.pack = (double *)1;
    *ok = true;
    if (kdim && slots(&probe, kdim) > 1) {
        f.pack = toggle__malloc_array((size_t)PACK_COLS * (kdim + PACK_ROWS), sizeof *f.pack);
        *ok = f.pack != NULL;
    }
    return f;
}

int toggle__blas_mul_sub(uint64_t p, size_t threads, size_t rows, size_t cols, size_t K,
                         const double *A, size_t lda, const double *B, size_t ldb, double *C,
                         size_t ldc)
{
    bool ok;
    fp f = fp_init(p, threads, K, &ok);
    if (!ok)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the product workspace");
    gemm_sub(&f, rows, cols, K, A, lda, B, ldb, C, ldc);
    toggle__free(f.pack);
    return TOGGLE_OK;
}

/* The pool and the other threads' arithmetic (packing buffers of their
 * own); false when a buffer cannot be had. No pool (one thread, or none
 * could be started): the products use BLIS's threads instead. */
static bool threads_init(elim *e, size_t threads, size_t kdim)
{
    e->nt = 1;
    if (threads < 2 || !(e->pool = toggle__pool_new(threads > 64 ? 64 : (unsigned)threads)))
        return true;
    unsigned nt = toggle__pool_threads(e->pool);
    if (!(e->ft = toggle__calloc(nt, sizeof *e->ft)))
        return false;
    e->nt = nt;
    e->f.threads = 1;
    for (unsigned t = 1; t < nt; t++) {
        e->ft[t] = e->f;
        e->ft[t].pack = NULL;
        if (e->f.pack && !(e->ft[t].pack = toggle__malloc_array((size_t)PACK_COLS *
                                                                    (kdim + PACK_ROWS),
                                                                sizeof *e->f.pack)))
            return false;
    }
    return true;
}

static void threads_free(elim *e)
{
    for (unsigned t = 1; e->ft && t < e->nt; t++)
        toggle__free(e->ft[t].pack);
    toggle__free(e->ft);
    toggle__pool_free(e->pool);
}

int toggle__blas_rref(double *M, size_t rows, size_t cols, size_t ld, uint64_t p,
                      size_t threads, size_t *pivot, size_t *rank)
{
    elim e = {.M = M, .m = rows, .nc = cols, .ld = ld, .pivot = pivot};
    *rank = 0;
    if (!rows || !cols)
        return TOGGLE_OK;
    bool pack_ok;
    e.f = fp_init(p, threads, cols, &pack_ok);
    e.g = gather_size(rows, cols);
    e.work = toggle__malloc_array(e.g * (e.g + TOGGLE__BLAS_CHUNK), sizeof *e.work);
    e.strip = toggle__malloc_array(rows, BASE * sizeof *e.strip);
    int rc = TOGGLE_OK;
    if (!e.work || !e.strip || !pack_ok || !threads_init(&e, threads, cols))
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the elimination workspace");
    if (!rc)
        echelon(&e, 0, 0, cols);
    toggle__free(e.work);
    toggle__free(e.strip);
    if (!rc)
        rc = reduce_echelon(&e);
    threads_free(&e);
    toggle__free(e.f.pack);
    *rank = rc ? 0 : e.rank;
    return rc;
}

/* Bytes of BLIS's packing buffers and pools (blas.h), per thread. BLIS
 * sizes its pool blocks by the blocking of the kernel configuration it
 * picks for the CPU at hand (KC x NC doubles for B, MC x KC for A), and the
 * pages a product touches grow with its width, so the count is read from
 * the configuration BLIS reports, never a constant (the blockings of two
 * CPUs differ by half): twice (KC (NC + NR) + KC (MC + MR)) doubles, plus
 * 4 MiB and 6 KiB a column (up to 4096 columns). Re-check it with
 * MALLOC_PERTURB_ set (every allocated page touched) against the RSS, as
 * tests/reliability/test_budget.c does. */
uint64_t toggle__blas_pool_bytes(size_t cols, size_t threads)
{
    cntx_t *cx = (cntx_t *)bli_gks_query_cntx();
    unsigned __int128 kc = (unsigned __int128)bli_cntx_get_blksz_max_dt(BLIS_DOUBLE, BLIS_KC, cx);
    unsigned __int128 nc = (unsigned __int128)bli_cntx_get_blksz_max_dt(BLIS_DOUBLE, BLIS_NC, cx);
    unsigned __int128 mc = (unsigned __int128)bli_cntx_get_blksz_max_dt(BLIS_DOUBLE, BLIS_MC, cx);
    unsigned __int128 mr = (unsigned __int128)bli_cntx_get_blksz_def_dt(BLIS_DOUBLE, BLIS_MR, cx);
    unsigned __int128 nr = (unsigned __int128)bli_cntx_get_blksz_def_dt(BLIS_DOUBLE, BLIS_NR, cx);
    unsigned __int128 c = (unsigned __int128)cols + 1;
    unsigned __int128 per = 2 * 8 * (kc * (nc + nr) + kc * (mc + mr)) +
                            (c < 4096 ? c : 4096) * 6144 + (unsigned __int128)4 * (1u << 20);
    unsigned __int128 all = per * (threads ? threads : 1);
    return all > UINT64_MAX ? UINT64_MAX : (uint64_t)all;
}
