/* The packed GF(2) engine: its elimination routine against a naive one (with
 * guard patterns around the matrix), agreement with the FLINT engine on
 * random systems, graph systems, threads, budgets and allocation failures. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gf2.h"
#include "gf2_kern.h"
#include "core.h"
#include "testutil.h"
#include "system/system_internal.h"

/* ---- the elimination routine itself ------------------------------------- */

static int getb(const uint64_t *row, size_t j) { return (int)((row[j / 64] >> (j % 64)) & 1); }
static void flipb(uint64_t *row, size_t j) { row[j / 64] ^= (uint64_t)1 << (j % 64); }

/* Naive Gauss-Jordan, one bit at a time, on rows of W words. */
static size_t naive_rref(uint64_t *M, size_t rows, size_t cols, size_t W, size_t *piv)
{
    size_t r = 0;
    for (size_t c = 0; c < cols && r < rows; c++) {
        size_t p = r;
        while (p < rows && !getb(M + p * W, c))
            p++;
        if (p == rows)
            continue;
        for (size_t w = 0; w < W; w++) {
            uint64_t t = M[p * W + w];
            M[p * W + w] = M[r * W + w];
            M[r * W + w] = t;
        }
        for (size_t i = 0; i < rows; i++)
            if (i != r && getb(M + i * W, c))
                for (size_t j = 0; j < cols; j++)
                    if (getb(M + r * W, j))
                        flipb(M + i * W, j);
        piv[r++] = c;
    }
    return r;
}

/* A random rows x cols matrix of rank about `rank` (product of random
 * rows x rank and rank x cols), or dense random when rank == 0; some
 * columns zeroed at random. Stored in rows of W words. */
static void random_matrix(tu_rng *g, uint64_t *M, size_t rows, size_t cols, size_t W,
                          size_t rank, int zero_cols)
{
    memset(M, 0, rows * W * sizeof *M);
    if (rank == 0) {
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < cols; j++)
                if (tu_next(g) & 1)
                    flipb(M + i * W, j);
    } else {
        size_t cw = (cols + 63) / 64;
        uint64_t *C = calloc(rank * cw + 1, sizeof *C);
        for (size_t l = 0; l < rank; l++)
            for (size_t j = 0; j < cols; j++)
                if (tu_next(g) & 1)
                    flipb(C + l * cw, j);
        for (size_t i = 0; i < rows; i++)
            for (size_t l = 0; l < rank; l++)
                if (tu_next(g) & 1)
                    for (size_t w = 0; w < cw; w++)
                        M[i * W + w] ^= C[l * cw + w];
        free(C);
    }
    for (int z = 0; z < zero_cols && cols; z++) {
        size_t j = tu_below(g, cols);
        for (size_t i = 0; i < rows; i++)
            if (getb(M + i * W, j))
                flipb(M + i * W, j);
    }
}

/* A rows x cols matrix whose pivot columns are those j with j % step ==
 * off (step 0: each column with probability 1/2), every other column a
 * random combination of the pivot columns before it: pivotless columns
 * between pivot columns. Rows are random combinations of the columns' rows. */
static void gapped_matrix(tu_rng *g, uint64_t *M, size_t rows, size_t cols, size_t W,
                          size_t step)
{
    memset(M, 0, rows * W * sizeof *M);
    size_t off = step ? tu_below(g, step) : 0, R = 0;
    int *is_piv = calloc(cols + 1, sizeof *is_piv);
    for (size_t j = 0; j < cols; j++) {
        is_piv[j] = step ? j % step == off : (int)(tu_next(g) & 1);
        R += (size_t)is_piv[j];
    }
    size_t RW = (R + 63) / 64 + 1;
    uint64_t *Y = calloc(rows * RW + 1, sizeof *Y), *mask = calloc(RW, sizeof *mask);
    for (size_t i = 0; i < rows; i++)
        for (size_t l = 0; l < R; l++)
            if (tu_next(g) & 1)
                flipb(Y + i * RW, l);
    size_t q = 0; /* pivot columns so far */
    for (size_t j = 0; j < cols; j++) {
        memset(mask, 0, RW * sizeof *mask);
        if (is_piv[j])
            flipb(mask, q++);
        else
            for (size_t l = 0; l < q; l++)
                if (tu_next(g) & 1)
                    flipb(mask, l);
        for (size_t i = 0; i < rows; i++) {
            uint64_t acc = 0;
            for (size_t w = 0; w < RW; w++)
                acc ^= Y[i * RW + w] & mask[w];
            if (__builtin_parityll(acc))
                flipb(M + i * W, j);
        }
    }
    free(is_piv);
    free(Y);
    free(mask);
}

#define PATTERN 0xA5C3F00F5A3C0FF0ull

/* Run toggle__gf2_rref_cfg (cfg NULL: toggle__gf2_rref) on the rows x cols
 * matrix `in` (rows of W words) embedded in a larger buffer: guard rows
 * before and after, extra words past each row, all filled with a pattern;
 * the result must be `want` (rank rw, pivots pw) and nothing outside the
 * matrix may change. */
static void run_embedded(tu_rng *g, const uint64_t *in, const uint64_t *want, size_t rw,
                         const size_t *pw, size_t rows, size_t cols, const toggle__gf2_cfg *cfg)
{
    size_t W = (cols + 63) / 64, extra = 1 + tu_below(g, 3), stride = W + extra, guard = 2;
    size_t total = (rows + 2 * guard) * stride;
    uint64_t *buf = malloc((total + 1) * sizeof *buf);
    for (size_t i = 0; i < total; i++)
        buf[i] = PATTERN ^ i;
    uint64_t *M = buf + guard * stride;
    for (size_t i = 0; i < rows; i++)
        memcpy(M + i * stride, in + i * W, W * sizeof *M);
    size_t *p1 = calloc(rows + 1, sizeof *p1), r1 = 0;
    int rc = cfg ? toggle__gf2_rref_cfg(M, rows, cols, stride, p1, &r1, cfg)
                 : toggle__gf2_rref(M, rows, cols, stride, p1, &r1);
    ck_assert_int_eq(rc, TOGGLE_OK);
    int mode = cfg ? cfg->mode : -1, panel = cfg ? (int)cfg->panel : 0;
    unsigned thr = cfg ? cfg->threads : 1;
    ck_assert_msg(r1 == rw, "rank %zu, expected %zu (rows=%zu cols=%zu mode=%d panel=%d threads=%u)",
                  r1, rw, rows, cols, mode, panel, thr);
    for (size_t i = 0; i < r1; i++)
        ck_assert_uint_eq(p1[i], pw[i]);
    for (size_t i = 0; i < rows; i++)
        ck_assert_msg(memcmp(M + i * stride, want + i * W, W * sizeof *M) == 0,
                      "row %zu differs from the expected RREF (rows=%zu cols=%zu mode=%d "
                      "panel=%d threads=%u)", i, rows, cols, mode, panel, thr);
    for (size_t i = 0; i < total; i++) {
        size_t row = i / stride, w = i % stride;
        int inside = row >= guard && row < guard + rows && w < W;
        if (!inside)
            ck_assert_msg(buf[i] == (PATTERN ^ i), "word %zu outside the matrix was touched", i);
    }
    if (cols % 64)
        for (size_t i = 0; i < rows; i++)
            ck_assert_msg((M[i * stride + W - 1] >> (cols % 64)) == 0, "padding bits set");
    free(buf);
    free(p1);
}

/* Every way toggle__gf2_rref_cfg can work (plain, AUTO, recursive with
 * panels of 1 to 4 words), each with 1, 2, 3 or 8 threads: each must give
 * exactly the naive RREF. */
static const toggle__gf2_cfg all_cfgs[] = {
    {1, TOGGLE__GF2_PLAIN, 0, 0, NULL},   {2, TOGGLE__GF2_PLAIN, 0, 0, NULL},   {3, TOGGLE__GF2_PLAIN, 0, 0, NULL},
    {8, TOGGLE__GF2_PLAIN, 0, 0, NULL},
    {8, TOGGLE__GF2_AUTO, 0, 0, NULL},    {1, TOGGLE__GF2_RECURSIVE, 1, 0, NULL},
    {2, TOGGLE__GF2_RECURSIVE, 2, 0, NULL}, {3, TOGGLE__GF2_RECURSIVE, 4, 0, NULL},
    {8, TOGGLE__GF2_RECURSIVE, 3, 0, NULL},
};

/* A random (gap_step == SIZE_MAX) or gapped matrix against the naive RREF,
 * by toggle__gf2_rref and every configuration. */
static void check_embedded(tu_rng *g, size_t rows, size_t cols, size_t rank, int zero_cols,
                           size_t gap_step)
{
    size_t W = (cols + 63) / 64;
    uint64_t *in = calloc(rows * W + 1, sizeof *in), *ref = calloc(rows * W + 1, sizeof *ref);
    if (gap_step != SIZE_MAX)
        gapped_matrix(g, in, rows, cols, W, gap_step);
    else
        random_matrix(g, in, rows, cols, W, rank, zero_cols);
    memcpy(ref, in, rows * W * sizeof *in);
    size_t *p2 = calloc(rows + 1, sizeof *p2);
    size_t r2 = naive_rref(ref, rows, cols, W, p2);
    run_embedded(g, in, ref, r2, p2, rows, cols, NULL);
    for (size_t c = 0; c < sizeof all_cfgs / sizeof *all_cfgs; c++)
        run_embedded(g, in, ref, r2, p2, rows, cols, &all_cfgs[c]);
    free(in);
    free(ref);
    free(p2);
}

START_TEST(rref_matches_naive_and_stays_inside)
{
    tu_rng g = tu_rng_for(301);
    size_t iters = tu_iters(300);
    for (size_t it = 0; it < iters; it++) {
        size_t rows = tu_below(&g, 140), cols = tu_below(&g, 200);
        size_t rank = tu_below(&g, 3) ? 0 : tu_below(&g, 40) + 1;
        check_embedded(&g, rows, cols, rank, (int)tu_below(&g, 4), SIZE_MAX);
    }
    /* shapes where the tables, the column strips and 64-column blocks all matter */
    const size_t shapes[][3] = {
        {300, 1000, 0}, {300, 1000, 250}, {1000, 300, 0}, {520, 520, 0}, {520, 520, 500},
        {64, 64, 0}, {128, 129, 0}, {700, 1300, 690}, {1, 1, 0}, {1, 64, 0}, {64, 1, 0},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        check_embedded(&g, shapes[s][0], shapes[s][1], shapes[s][2], (int)(s % 3), SIZE_MAX);
}
END_TEST

/* Pivotless columns between pivot columns (alternating, one pivot in 3, 8
 * or 70 columns, random), so pivot blocks skip columns and span several
 * words; and very low rank (1 .. 3) with long pivotless runs. */
START_TEST(rref_gapped_and_low_rank)
{
    tu_rng g = tu_rng_for(307);
    size_t iters = tu_iters(60);
    const size_t steps[] = {0, 2, 2, 3, 5, 8, 63, 64, 70};
    for (size_t it = 0; it < iters; it++) {
        size_t rows = 1 + tu_below(&g, 200), cols = 1 + tu_below(&g, 600);
        check_embedded(&g, rows, cols, 0, 0, steps[tu_below(&g, sizeof steps / sizeof *steps)]);
        check_embedded(&g, rows, cols, 1 + tu_below(&g, 3), (int)tu_below(&g, 3), SIZE_MAX);
    }
    /* more than 64 pivots (several blocks), windows of 256 columns and more */
    const size_t shapes[][3] = {
        {300, 1000, 2}, {1000, 1000, 2}, {520, 2100, 8}, {400, 1300, 3}, {200, 4000, 70},
        {300, 900, 0}, {64, 1000, 2}, {130, 130, 2}, {600, 600, 64},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        check_embedded(&g, shapes[s][0], shapes[s][1], 0, 0, shapes[s][2]);
    const size_t low[][3] = {{1000, 1000, 1}, {700, 1300, 2}, {300, 2000, 3}, {2000, 300, 1}};
    for (size_t s = 0; s < sizeof low / sizeof *low; s++)
        check_embedded(&g, low[s][0], low[s][1], low[s][2], 0, SIZE_MAX);
}
END_TEST

/* Whether cfg's RREF of `in` (given the rows' bounds lead and ext, when
 * not NULL) is `want` (rank rw, pivots pw). */
static int same_rref_rows(const toggle__gf2_cfg *cfg, const uint64_t *in, const uint64_t *want,
                          size_t rw, const size_t *pw, size_t rows, size_t cols, const size_t *lead,
                          const size_t *ext)
{
    size_t W = (cols + 63) / 64, r = 0;
    uint64_t *M = malloc((rows * W + 1) * sizeof *M);
    size_t *p = calloc(rows + 1, sizeof *p);
    memcpy(M, in, rows * W * sizeof *M);
    ck_assert_int_eq(toggle__gf2_rref_rows(M, rows, cols, W, p, &r, cfg, lead, ext), TOGGLE_OK);
    int same = r == rw && memcmp(p, pw, r * sizeof *p) == 0 &&
               memcmp(M, want, rows * W * sizeof *M) == 0;
    free(M);
    free(p);
    return same;
}

static int same_rref(const toggle__gf2_cfg *cfg, const uint64_t *in, const uint64_t *want,
                     size_t rw, const size_t *pw, size_t rows, size_t cols)
{
    return same_rref_rows(cfg, in, want, rw, pw, rows, cols, NULL, NULL);
}

/* A case for the comparisons with plain: `in` (random of that rank, or
 * gapped; zero_block: 1100 zero columns from there) and its plain RREF
 * `ref` (rank *r, pivots *p). */
static void plain_case(tu_rng *g, size_t rows, size_t cols, size_t rank, size_t gap,
                       size_t zero_block, uint64_t **in, uint64_t **ref, size_t **p, size_t *r)
{
    size_t W = (cols + 63) / 64;
    *in = calloc(rows * W + 1, sizeof **in);
    *ref = malloc((rows * W + 1) * sizeof **ref);
    if (gap != SIZE_MAX)
        gapped_matrix(g, *in, rows, cols, W, gap);
    else
        random_matrix(g, *in, rows, cols, W, rank, 1);
    if (zero_block) /* a block of zero columns: a panel without pivots */
        for (size_t i = 0; i < rows; i++)
            for (size_t j = zero_block; j < zero_block + 1100 && j < cols; j++)
                if (getb(*in + i * W, j))
                    flipb(*in + i * W, j);
    memcpy(*ref, *in, rows * W * sizeof **in);
    *p = calloc(rows + 1, sizeof **p);
    toggle__gf2_cfg plain = {1, TOGGLE__GF2_PLAIN, 0, 0, NULL};
    ck_assert_int_eq(toggle__gf2_rref_cfg(*ref, rows, cols, W, *p, r, &plain), TOGGLE_OK);
}

/* AUTO and the plain form on more threads against the plain form on one,
 * on sizes around 2048 rows and panel-like boundaries: random, low-rank,
 * gapped and rectangular. */
static void auto_vs_plain(tu_rng *g, size_t rows, size_t cols, size_t rank, size_t gap)
{
    uint64_t *in, *ref;
    size_t *p, r = 0;
    plain_case(g, rows, cols, rank, gap, 0, &in, &ref, &p, &r);
    const toggle__gf2_cfg cfgs[] = {
        {1, TOGGLE__GF2_AUTO, 0, 0, NULL}, {2, TOGGLE__GF2_AUTO, 0, 0, NULL},
        {3, TOGGLE__GF2_PLAIN, 0, 0, NULL}, {8, TOGGLE__GF2_PLAIN, 0, 0, NULL},
    };
    for (size_t c = 0; c < sizeof cfgs / sizeof *cfgs; c++)
        ck_assert_msg(same_rref(&cfgs[c], in, ref, r, p, rows, cols),
                      "%zu x %zu (rank %zu, gap %zu): mode %d panel %zu threads %u differs "
                      "from plain", rows, cols, rank, gap, cfgs[c].mode, cfgs[c].panel,
                      cfgs[c].threads);
    free(in);
    free(ref);
    free(p);
}

START_TEST(auto_matches_plain_around_cutoffs)
{
    tu_rng g = tu_rng_for(311);
    const size_t shapes[][4] = {
        /* rows, cols, rank (0: dense), gap step (SIZE_MAX: none) */
        {2047, 1024, 0, SIZE_MAX}, {2048, 1024, 0, SIZE_MAX}, {2049, 1025, 0, SIZE_MAX},
        {2048, 1023, 0, SIZE_MAX}, {2100, 1537, 0, SIZE_MAX}, {2048, 2049, 0, SIZE_MAX},
        {2048, 2048, 300, SIZE_MAX}, {2049, 1600, 513, SIZE_MAX}, {2048, 1100, 0, 2},
        {2050, 1200, 0, 8}, {2048, 1300, 0, 70}, {4100, 1090, 0, SIZE_MAX},
        {1090, 4100, 0, SIZE_MAX}, {2048, 4100, 0, SIZE_MAX}, {4097, 2048, 1000, SIZE_MAX},
        {2048, 1024, 1, SIZE_MAX},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        auto_vs_plain(&g, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]);
}
END_TEST

/* The recursive elimination against plain Four Russians: panels of 1 .. 8
 * words (recursing down to one word) and the tuned panel (64 words, its own
 * elimination recursing to 16) around the panel boundaries, with random,
 * low-rank, gapped (a zero column block) and rectangular matrices, 1, 2
 * and 3 threads; a dropped pivot in a panel's update (fault 3) or in the
 * back substitution (fault 4) must differ. */
static void recursive_vs_plain(tu_rng *g, size_t rows, size_t cols, size_t rank, size_t gap,
                               size_t zero_block)
{
    uint64_t *in, *ref;
    size_t *p, r = 0;
    plain_case(g, rows, cols, rank, gap, zero_block, &in, &ref, &p, &r);
    const toggle__gf2_cfg cfgs[] = {
        {1, TOGGLE__GF2_RECURSIVE, 0, 0, NULL}, {2, TOGGLE__GF2_RECURSIVE, 0, 0, NULL},
        {3, TOGGLE__GF2_RECURSIVE, 8, 0, NULL}, {1, TOGGLE__GF2_RECURSIVE, 5, 0, NULL},
        {2, TOGGLE__GF2_RECURSIVE, 32, 0, NULL}, {1, TOGGLE__GF2_AUTO, 0, 0, NULL},
        /* the panels' searches recursing as without GFNI (the tuned ones
         * take Four Russians on a prefix where products run on GFNI) */
        {1, TOGGLE__GF2_RECURSIVE_DEEP, 8, 0, NULL}, {2, TOGGLE__GF2_RECURSIVE_DEEP, 32, 0, NULL},
    };
    for (size_t c = 0; c < sizeof cfgs / sizeof *cfgs; c++)
        ck_assert_msg(same_rref(&cfgs[c], in, ref, r, p, rows, cols),
                      "%zu x %zu (rank %zu, gap %zu, zero block %zu): recursive panel %zu "
                      "threads %u differs from plain", rows, cols, rank, gap, zero_block,
                      cfgs[c].panel, cfgs[c].threads);
    /* a wrong forward update, a wrong back substitution: caught when the
     * matrix has a second panel holding pivots and rows to update, and
     * enough (random, not zero) non-pivot columns for the error to show:
     * on the pivot columns the reduced form is the identity whatever the
     * updates did */
    if (r > 64 * 8 && cols >= r + 128 && !zero_block) {
        const toggle__gf2_cfg bad[] = {{1, TOGGLE__GF2_RECURSIVE, 8, 3, NULL},
                                       {2, TOGGLE__GF2_RECURSIVE, 8, 4, NULL}};
        for (size_t c = 0; c < 2; c++)
            ck_assert_msg(!same_rref(&bad[c], in, ref, r, p, rows, cols),
                          "fault %u not detected on %zu x %zu", bad[c].fault, rows, cols);
    }
    free(in);
    free(ref);
    free(p);
}

/* Sanitized builds (ThreadSanitizer runs this suite in CI) get the smaller
 * of the large cases below. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define GF2_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define GF2_TEST_SANITIZED 1
#endif
#endif
#ifndef GF2_TEST_SANITIZED
#define GF2_TEST_SANITIZED 0
#endif

/* One shape per loop iteration (tcase_add_loop_test), so that each gets
 * Check's timeout of its own: under ThreadSanitizer the whole list took
 * more than 600 s in one CI run. */
static const size_t recursive_shapes[][5] = {
    /* rows, cols, rank (0: dense), gap step (SIZE_MAX: none), zero column block at */
    {1000, 8192, 0, SIZE_MAX, 0},     {1100, 8193, 0, SIZE_MAX, 0},
    {4096, 4096, 0, SIZE_MAX, 0},     {4097, 4160, 0, SIZE_MAX, 0},
    {4100, 8250, 0, SIZE_MAX, 0},     {8300, 4100, 0, SIZE_MAX, 0},
    {4096, 4096, 2048, SIZE_MAX, 0},  {4096, 5000, 512, SIZE_MAX, 0},
    {3000, 6000, 0, 2, 0},            {3000, 4200, 0, 8, 0},
    {2500, 9000, 0, SIZE_MAX, 4096},  {4200, 4200, 0, SIZE_MAX, 1000},
    {700, 9000, 0, SIZE_MAX, 0},      {9000, 700, 0, SIZE_MAX, 0},
    {4096, 4097, 3, SIZE_MAX, 0},     {1, 9000, 0, SIZE_MAX, 0},
    /* AUTO's own cutoff: from 8 MiB of matrix (8192 x 8192: 2^20 words),
     * narrow panels below 4 tuned panels of columns */
    {8192, 8192, 0, SIZE_MAX, 0},     {8191, 8192, 0, SIZE_MAX, 0},
    /* the last two: not in the sanitizer builds (their time) */
    {8192, 8193, 4096, SIZE_MAX, 0},  {4100, 16385, 0, SIZE_MAX, 0},
};
enum { RECURSIVE_SHAPES = sizeof recursive_shapes / sizeof *recursive_shapes };

START_TEST(recursive_matches_plain_around_cutoffs)
{
    if (GF2_TEST_SANITIZED && _i >= RECURSIVE_SHAPES - 2)
        return;
    tu_rng g = tu_rng_for(337 + (uint64_t)_i);
    const size_t *sh = recursive_shapes[_i];
    recursive_vs_plain(&g, sh[0], sh[1], sh[2], sh[3], sh[4]);
}
END_TEST

/* Step 1's pivot search looks at a panel's first width + 64 lower rows
 * first and keeps them when they have a pivot on every column or the rows
 * after them are zero on the panel, else searches the prefix's independent
 * rows and the rows after it: around that boundary (panel 8 words: 576
 * rows), with a prefix that lacks pivots (a column block zero on the first
 * `zrows` rows, its pivots further down; lone: zero on every row but row
 * zrows, so that only that row holds the pivot) or a panel of lower rank,
 * against plain at 1, 2, 3 and 8 threads; fault 5 (a prefix without full
 * rank taken as the panel's) must differ. */
static void prefix_case(tu_rng *g, size_t rows, size_t cols, size_t rank, size_t zrows,
                        size_t zc0, size_t zc1, int faulty, int lone)
{
    size_t W = (cols + 63) / 64, r = 0;
    uint64_t *in = calloc(rows * W + 1, sizeof *in), *ref = malloc((rows * W + 1) * sizeof *ref);
    random_matrix(g, in, rows, cols, W, rank, 1);
    for (size_t i = 0; i < (lone ? rows : zrows) && i < rows; i++)
        for (size_t j = zc0; j < zc1 && j < cols && i != zrows; j++)
            if (getb(in + i * W, j))
                flipb(in + i * W, j);
    if (zrows && zrows < rows && zc0 < cols && !getb(in + zrows * W, zc0))
        flipb(in + zrows * W, zc0); /* the block's first column gets its pivot below */
    memcpy(ref, in, rows * W * sizeof *in);
    size_t *p = calloc(rows + 1, sizeof *p);
    toggle__gf2_cfg plain = {1, TOGGLE__GF2_PLAIN, 0, 0, NULL};
    ck_assert_int_eq(toggle__gf2_rref_cfg(ref, rows, cols, W, p, &r, &plain), TOGGLE_OK);
    const toggle__gf2_cfg cfgs[] = {
        {1, TOGGLE__GF2_RECURSIVE, 8, 0, NULL}, {2, TOGGLE__GF2_RECURSIVE, 8, 0, NULL},
        {3, TOGGLE__GF2_RECURSIVE, 4, 0, NULL}, {8, TOGGLE__GF2_RECURSIVE, 16, 0, NULL},
        {1, TOGGLE__GF2_RECURSIVE, 1, 0, NULL}, {1, TOGGLE__GF2_RECURSIVE_DEEP, 8, 0, NULL},
        {2, TOGGLE__GF2_RECURSIVE_DEEP, 16, 0, NULL},
    };
    for (size_t c = 0; c < sizeof cfgs / sizeof *cfgs; c++)
        ck_assert_msg(same_rref(&cfgs[c], in, ref, r, p, rows, cols),
                      "%zu x %zu (rank %zu, zero rows %zu): panel %zu threads %u differs from "
                      "plain", rows, cols, rank, zrows, cfgs[c].panel, cfgs[c].threads);
    if (faulty) {
        const toggle__gf2_cfg bad[] = {{1, TOGGLE__GF2_RECURSIVE, 8, 5, NULL},
                                       {1, TOGGLE__GF2_RECURSIVE_DEEP, 8, 5, NULL}};
        for (size_t c = 0; c < 2; c++)
            ck_assert_msg(!same_rref(&bad[c], in, ref, r, p, rows, cols),
                          "fault 5 not detected on %zu x %zu (mode %d)", rows, cols,
                          bad[c].mode);
    }
    free(in);
    free(ref);
    free(p);
}

START_TEST(recursive_prefix_around_its_boundary)
{
    tu_rng g = tu_rng_for(353);
    /* dense, the prefix boundary of a 512-column panel: 575, 576, 577 rows */
    const size_t dense[][2] = {{575, 1100}, {576, 1100}, {577, 1100}, {577, 577},
                               {640, 1025}, {1200, 1200}, {2000, 700}};
    for (size_t s = 0; s < sizeof dense / sizeof *dense; s++)
        prefix_case(&g, dense[s][0], dense[s][1], 0, 0, 0, 0, 0, 0);
    /* prefixes without a pivot on columns 100 .. 199 (first panel) or
     * 600 .. 649 (second), found below them; rank-deficient panels */
    prefix_case(&g, 1500, 1200, 0, 1000, 100, 200, 1, 0);
    prefix_case(&g, 2000, 1300, 0, 1300, 600, 650, 1, 0);
    prefix_case(&g, 578, 1100, 0, 577, 0, 1, 1, 0);
    prefix_case(&g, 1500, 1500, 300, 0, 0, 0, 0, 0);
    prefix_case(&g, 1500, 1500, 700, 0, 0, 0, 0, 0);
    prefix_case(&g, 3000, 1500, 0, 0, 0, 0, 0, 0);
    /* one row alone holds a pivot: the first row after the prefix (576),
     * the last row; rank-deficient panels whose later rows are zero on
     * them but for that row */
    prefix_case(&g, 1500, 1200, 0, 576, 100, 101, 1, 1);
    prefix_case(&g, 1500, 1200, 0, 1499, 700, 701, 1, 1);
    prefix_case(&g, 1500, 1500, 300, 576, 400, 401, 1, 1);
    prefix_case(&g, 1500, 1500, 300, 1499, 1000, 1001, 1, 1);
}
END_TEST


/* A banded rows x cols matrix: row i random on columns [i - bw, i + bw]
 * (diagonal set), and random on the last column (a right-hand side) and,
 * when far > 0, on the `far` columns before it: the live words of a pivot
 * block are then a few runs (docs/gf2.md, "Threads"). board > 0: the
 * Lights Out matrix of a board x board grid with b = all ones instead. */
static void banded_matrix(tu_rng *g, uint64_t *M, size_t rows, size_t cols, size_t W, size_t bw,
                          size_t far, size_t board)
{
    memset(M, 0, rows * W * sizeof *M);
    for (size_t i = 0; i < rows; i++) {
        uint64_t *row = M + i * W;
        if (board) {
            size_t n = board, r = i / n, c = i % n;
            flipb(row, i);
            if (r > 0) flipb(row, i - n);
            if (r + 1 < n) flipb(row, i + n);
            if (c > 0) flipb(row, i - 1);
            if (c + 1 < n) flipb(row, i + 1);
            flipb(row, cols - 1);
            continue;
        }
        for (size_t j = i > bw ? i - bw : 0; j <= i + bw && j + 1 < cols; j++)
            if (j == i || (tu_next(g) & 1))
                flipb(row, j);
        for (size_t j = cols - 1 - (far < cols ? far : cols - 1); j < cols; j++)
            if ((tu_next(g) & 1) && !getb(row, j))
                flipb(row, j);
    }
}

/* Threads 2, 3 and 8 (plain Four Russians and AUTO) against one thread on
 * matrices whose blocks go to the pool split by rows (few live words:
 * banded matrices, Lights Out boards, the last blocks of a dense matrix)
 * and by live-word ranges over several runs (a band and a dense right
 * part), with uneven splits; and small banded cases against the naive RREF
 * with every configuration. */
START_TEST(threads_banded_and_uneven)
{
    tu_rng g = tu_rng_for(353);
    for (int it = 0; it < 6; it++) {
        size_t board = it == 5 ? 13 : 0; /* the 13 x 13 board: nullity 0 */
        size_t rows = board ? 169 : 50 + tu_below(&g, 250);
        size_t cols = board ? 170 : rows + 1 + tu_below(&g, 40);
        size_t W = (cols + 63) / 64, r2 = 0;
        uint64_t *in = calloc(rows * W + 1, sizeof *in), *ref = calloc(rows * W + 1, sizeof *ref);
        size_t *p2 = calloc(rows + 1, sizeof *p2);
        banded_matrix(&g, in, rows, cols, W, 1 + tu_below(&g, 70), tu_below(&g, 3) * 50, board);
        memcpy(ref, in, rows * W * sizeof *in);
        r2 = naive_rref(ref, rows, cols, W, p2);
        for (size_t c = 0; c < sizeof all_cfgs / sizeof *all_cfgs; c++)
            run_embedded(&g, in, ref, r2, p2, rows, cols, &all_cfgs[c]);
        free(in);
        free(ref);
        free(p2);
    }
    /* blocks go to the pool from 2^14 live words over their active rows
     * (gf2_elim.c): a band of 3 live words needs 5500 rows for that */
    const size_t shapes[][5] = {
        /* rows, cols, band half-width (0: dense), far columns, board side */
        {6000, 6001, 40, 0, 0},     /* a few live words: row splits */
        {2600, 2601, 700, 0, 0},    /* 20+ live words: row splits */
        {2400, 3100, 300, 600, 0},  /* two runs of live words */
        /* fewer than 256 active rows a thread: column splits, over one run
         * and over two (gf2_elim.c, GF2_COLS_MAX_ROWS) */
        {400, 30001, 0, 0, 0},
        {450, 20001, 300, 6000, 0},
        {1101, 1101, 0, 0, 0},      /* dense: the last blocks by rows */
        {15, 140001, 0, 0, 0},      /* fewer rows than threads */
        {0, 0, 0, 0, GF2_TEST_SANITIZED ? 80 : 100}, /* a Lights Out board */
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        size_t n = shapes[s][4], rows = n ? n * n : shapes[s][0], cols = n ? n * n + 1 : shapes[s][1];
        size_t W = (cols + 63) / 64, r = 0;
        uint64_t *in = calloc(rows * W + 1, sizeof *in), *ref = malloc((rows * W + 1) * sizeof *ref);
        size_t *p = calloc(rows + 1, sizeof *p);
        if (shapes[s][2] || n)
            banded_matrix(&g, in, rows, cols, W, shapes[s][2], shapes[s][3], n);
        else
            random_matrix(&g, in, rows, cols, W, 0, 0);
        memcpy(ref, in, rows * W * sizeof *in);
        toggle__gf2_cfg one = {1, TOGGLE__GF2_PLAIN, 0, 0, NULL};
        ck_assert_int_eq(toggle__gf2_rref_cfg(ref, rows, cols, W, p, &r, &one), TOGGLE_OK);
        const toggle__gf2_cfg cfgs[] = {
            {2, TOGGLE__GF2_PLAIN, 0, 0, NULL}, {3, TOGGLE__GF2_PLAIN, 0, 0, NULL},
            {8, TOGGLE__GF2_PLAIN, 0, 0, NULL}, {2, TOGGLE__GF2_AUTO, 0, 0, NULL},
        };
        for (size_t c = 0; c < sizeof cfgs / sizeof *cfgs; c++)
            ck_assert_msg(same_rref(&cfgs[c], in, ref, r, p, rows, cols),
                          "%zu x %zu (band %zu, far %zu, board %zu): %u threads differ from one",
                          rows, cols, shapes[s][2], shapes[s][3], n, cfgs[c].threads);
        free(in);
        free(ref);
        free(p);
    }
    /* a pool larger than an inner elimination's table sets: the tuned
     * recursive panels eliminate 16-word copies, which use at most 2 of 3
     * or 8 threads (this crashed: a third thread used a missing table) */
    uint64_t *in, *ref;
    size_t *p, r = 0;
    plain_case(&g, 2100, 4200, 0, SIZE_MAX, 0, &in, &ref, &p, &r);
    const toggle__gf2_cfg rec[] = {{3, TOGGLE__GF2_RECURSIVE, 0, 0, NULL},
                                   {8, TOGGLE__GF2_RECURSIVE, 0, 0, NULL}};
    for (size_t c = 0; c < 2; c++)
        ck_assert_msg(same_rref(&rec[c], in, ref, r, p, 2100, 4200),
                      "recursive, %u threads, differs from plain", rec[c].threads);
    free(in);
    free(ref);
    free(p);
}
END_TEST

/* The plain form's two sweeps (gf2_elim.c, rref_plain: rows spanning at
 * most a quarter of the width on average) against the naive RREF with
 * every configuration: narrow bands with zero columns (free columns
 * between the pivots) and zero rows, wide and tall, and Lights Out boards
 * of full rank (28, 36, 40: no free column, so the forward sweep's echelon
 * form is solved by substitution) and of nullity 4 (24) and 16 (33). */
START_TEST(two_sweeps_match_naive)
{
    tu_rng g = tu_rng_for(354);
    const size_t boards[] = {0, 0, 0, 0, 0, 24, 33, 40, 28, 36};
    for (size_t it = 0; it < sizeof boards / sizeof *boards; it++) {
        size_t n = boards[it], rows = n ? n * n : 300 + tu_below(&g, 900);
        size_t cols = n ? n * n + 1 : it == 4 ? rows * 2 / 3 : rows + 1 + tu_below(&g, 30);
        size_t W = (cols + 63) / 64, bw = 1 + tu_below(&g, 20);
        uint64_t *in = calloc(rows * W + 1, sizeof *in), *ref = calloc(rows * W + 1, sizeof *ref);
        size_t *p = calloc(rows + 1, sizeof *p);
        banded_matrix(&g, in, rows, cols, W, bw, 0, n);
        for (size_t j = 0; !n && j + 1 < cols; j++)
            if (tu_below(&g, 20) == 0) /* a zero column: free, between pivots */
                for (size_t i = 0; i < rows; i++)
                    if (getb(in + i * W, j))
                        flipb(in + i * W, j);
        for (size_t i = 0; !n && i < rows; i++)
            if (tu_below(&g, 30) == 0)
                memset(in + i * W, 0, W * sizeof *in);
        /* rows of the band's top moved far down (and others up): pivots
         * found, and rows to clear, far past the band (the plain form's
         * bound on the rows a block passes) */
        for (size_t q = 0; it >= 2 && q < 2 + it; q++) {
            size_t a = tu_below(&g, rows / 8 + 1), b = rows - 1 - tu_below(&g, rows / 4 + 1);
            for (size_t w = 0; w < W; w++) {
                uint64_t t = in[a * W + w];
                in[a * W + w] = in[b * W + w];
                in[b * W + w] = t;
            }
        }
        memcpy(ref, in, rows * W * sizeof *in);
        size_t r = naive_rref(ref, rows, cols, W, p);
        for (size_t c = 0; c < sizeof all_cfgs / sizeof *all_cfgs; c++)
            run_embedded(&g, in, ref, r, p, rows, cols, &all_cfgs[c]);
        free(in);
        free(ref);
        free(p);
    }
}
END_TEST

/* toggle__gf2_rref_rows: the rows' bounds given (as the graph build gives
 * them) instead of read, against the same elimination reading them, on one
 * and two threads: banded systems (two sweeps; from 2048 rows on two
 * threads, from both ends) and small dense ones (one sweep), with empty
 * rows, rows whose only bits are in the last word, and rows whose only bit
 * is b. A row with nothing before the last word may be given any lead from
 * W - 1 on: W - 1 or W, at random. */
START_TEST(given_row_bounds_match)
{
    tu_rng g = tu_rng_for(358);
    for (size_t it = 0; it < 12; it++) {
        size_t rows = it < 4 ? 40 + tu_below(&g, 200) : it < 9 ? 300 + tu_below(&g, 900)
                                                              : 2048 + tu_below(&g, 1500);
        size_t cols = it % 3 == 0 || it == 10 ? rows + 1 : rows + 1 + tu_below(&g, 130);
        if (it == 5)
            cols = 64 * (rows / 64) + 1; /* b alone in its word */
        size_t W = (cols + 63) / 64, Wx = W - 1, bw = 1 + tu_below(&g, 40);
        uint64_t *in = calloc(rows * W + 1, sizeof *in), *ref = malloc((rows * W + 1) * sizeof *ref);
        size_t *p = calloc(rows + 1, sizeof *p), *lead = calloc(rows, sizeof *lead);
        size_t *ext = calloc(rows, sizeof *ext);
        if (it < 4)
            random_matrix(&g, in, rows, cols, W, 0, 0);
        else
            banded_matrix(&g, in, rows, cols, W, bw, 0, 0);
        for (size_t i = 0; i < rows; i++) {
            uint64_t *row = in + i * W;
            switch (it == 10 ? 2 : tu_below(&g, 12)) { /* 10: a full-rank band, both ends */
            case 0: /* empty, or b alone */
                memset(row, 0, W * sizeof *row);
                if (tu_below(&g, 2))
                    flipb(row, cols - 1);
                break;
            case 1: /* only the last word's columns */
                memset(row, 0, Wx * sizeof *row);
                row[Wx] = tu_next(&g) & (cols % 64 ? ~(~(uint64_t)0 << (cols % 64)) : ~(uint64_t)0);
                break;
            default:
                break;
            }
            size_t w = 0;
            while (w < Wx && !row[w])
                w++;
            lead[i] = w < Wx ? w : Wx + tu_below(&g, 2);
            for (w = Wx; w > 0 && !row[w - 1]; w--)
                ;
            ext[i] = w;
        }
        memcpy(ref, in, rows * W * sizeof *in);
        size_t r = 0;
        toggle__gf2_cfg one = {1, TOGGLE__GF2_PLAIN, 0, 0, NULL};
        toggle__gf2_cfg two = {2, TOGGLE__GF2_PLAIN, 0, 0, NULL};
        ck_assert_int_eq(toggle__gf2_rref_cfg(ref, rows, cols, W, p, &r, &one), TOGGLE_OK);
        ck_assert_msg(same_rref_rows(&one, in, ref, r, p, rows, cols, lead, ext),
                      "%zu x %zu (rank %zu): given bounds, one thread, differ", rows, cols, r);
        ck_assert_msg(same_rref_rows(&two, in, ref, r, p, rows, cols, lead, ext),
                      "%zu x %zu (rank %zu): given bounds, two threads, differ", rows, cols, r);
        free(in);
        free(ref);
        free(p);
        free(lead);
        free(ext);
    }
}
END_TEST

/* Square banded systems from 2048 rows on two or more threads are
 * eliminated from both ends at once (gf2_elim.c, rref_twisted), falling
 * back to the one-thread form when A is singular: against one thread on
 * Lights Out boards (both full rank and singular), random bands (N a
 * multiple of 64 or not, with band rows moved out of place) and, for the
 * first two cases, the naive RREF. Fault 6 (a wrong bit of the middle
 * system's solution) must change every full-rank answer: the path ran. */
START_TEST(twisted_matches_one_thread)
{
    tu_rng g = tu_rng_for(355);
    size_t full = 0, singular = 0;
    for (size_t it = 0; it < 22; it++) {
        size_t n = it < 14 ? 46 + it : 0;
        size_t rows = n ? n * n : it == 14 ? 4096 : 2048 + tu_below(&g, 3000), cols = rows + 1;
        size_t W = (cols + 63) / 64, bw = 1 + tu_below(&g, it % 2 ? 150 : 20), r = 0;
        uint64_t *in = calloc(rows * W + 1, sizeof *in), *ref = malloc((rows * W + 1) * sizeof *ref);
        size_t *p = calloc(rows + 1, sizeof *p);
        banded_matrix(&g, in, rows, cols, W, bw, 0, n);
        for (size_t q = 0; it >= 18 && q < 3; q++) { /* rows moved within a band's reach */
            size_t a = tu_below(&g, rows), b = a + tu_below(&g, 40) < rows ? a + tu_below(&g, 40) : a;
            for (size_t w = 0; w < W; w++) {
                uint64_t t = in[a * W + w];
                in[a * W + w] = in[b * W + w];
                in[b * W + w] = t;
            }
        }
        memcpy(ref, in, rows * W * sizeof *in);
        toggle__gf2_cfg one = {1, TOGGLE__GF2_PLAIN, 0, 0, NULL};
        if (it == 0 || it == 14)
            r = naive_rref(ref, rows, cols, W, p);
        else
            ck_assert_int_eq(toggle__gf2_rref_cfg(ref, rows, cols, W, p, &r, &one), TOGGLE_OK);
        const toggle__gf2_cfg cfgs[] = {
            {2, TOGGLE__GF2_PLAIN, 0, 0, NULL}, {3, TOGGLE__GF2_PLAIN, 0, 0, NULL},
            {8, TOGGLE__GF2_AUTO, 0, 0, NULL}, {2, TOGGLE__GF2_PLAIN, 0, 6, NULL},
        };
        for (size_t c = 0; c < 3; c++)
            ck_assert_msg(same_rref(&cfgs[c], in, ref, r, p, rows, cols),
                          "%zu rows (board %zu, band %zu, rank %zu): %u threads differ from one",
                          rows, n, bw, r, cfgs[c].threads);
        if (r == rows && p[r - 1] == r - 1) { /* A has full rank (not just [A | b]) */
            full++;
            ck_assert_msg(!same_rref(&cfgs[3], in, ref, r, p, rows, cols),
                          "%zu rows (board %zu, band %zu): fault 6 not detected", rows, n, bw);
        } else {
            singular++;
        }
        free(in);
        free(ref);
        free(p);
    }
    printf("# twisted: %zu full-rank and %zu singular systems\n", full, singular);
    ck_assert(full >= 8 && singular >= 3);
}
END_TEST

/* The recursive form's workspace stays inside toggle__gf2_workspace_bytes
 * (the memory budget is checked from it), printed per shape; and every
 * allocation failing in turn gives TOGGLE_ENOMEM, then it works. */
START_TEST(recursive_workspace_and_failures)
{
    tu_rng g = tu_rng_for(347);
    const size_t shapes[][5] = {
        /* rows, cols, rank (0: dense), panel words, threads */
        {3000, 9000, 0, 0, 1}, {9000, 3000, 0, 8, 2}, {4096, 8192, 512, 0, 2},
        {2000, 4000, 1000, 4, 3}, {24576, 8192, 0, 0, 1}, {300, 700, 0, 2, 1},
        /* 64-word panels: the estimate's products take a Strassen step, the
         * last panels' are flat and (GFNI, threads) copy B whole */
        {4500, 32768, 0, 0, 2},
    };
    for (size_t c = 0; c < sizeof shapes / sizeof *shapes; c++) {
        size_t rows = shapes[c][0], cols = shapes[c][1], W = (cols + 63) / 64, r = 0;
        uint64_t *M = malloc((rows * W + 1) * sizeof *M);
        size_t *p = calloc(rows + 1, sizeof *p);
        random_matrix(&g, M, rows, cols, W, shapes[c][2], 0);
        toggle__gf2_cfg cfg = {(unsigned)shapes[c][4], TOGGLE__GF2_RECURSIVE, shapes[c][3], 0,
                               NULL};
        toggle__alloc_count(true);
        ck_assert_int_eq(toggle__gf2_rref_cfg(M, rows, cols, W, p, &r, &cfg), TOGGLE_OK);
        int64_t peak = toggle__alloc_peak();
        toggle__alloc_count(false);
        uint64_t est = toggle__gf2_workspace_bytes(rows, cols, &cfg);
        printf("# recursive %zu x %zu rank %zu panel %zu threads %u: workspace peak %lld, "
               "bound %llu (%.2fx)\n", rows, cols, r, cfg.panel, cfg.threads, (long long)peak,
               (unsigned long long)est, peak > 0 ? (double)est / (double)peak : 0.0);
        ck_assert_msg(peak >= 0 && (uint64_t)peak <= est, "peak %lld over the bound %llu",
                      (long long)peak, (unsigned long long)est);
        free(M);
        free(p);
    }
    /* every allocation failing in turn: one thread's pool-less panels of 2
     * words, and 1100 x 2100 on 2 threads with 8-word panels (a pool, so
     * step 5's look-ahead: its product's workspace and the search inside
     * the threads' job) */
    const size_t walks[][4] = {{300, 700, 2, 2}, {1100, 2100, 8, 2}};
    for (size_t c = 0; c < sizeof walks / sizeof *walks; c++) {
        size_t rows = walks[c][0], cols = walks[c][1], W = (cols + 63) / 64;
        uint64_t *in = malloc((rows * W + 1) * sizeof *in),
                 *M = malloc((rows * W + 1) * sizeof *M);
        size_t *p = calloc(rows + 1, sizeof *p), r = 0;
        random_matrix(&g, in, rows, cols, W, 0, 0);
        toggle__gf2_cfg cfg = {(unsigned)walks[c][3], TOGGLE__GF2_RECURSIVE, walks[c][2], 0,
                               NULL};
        uint64_t *ref = malloc((rows * W + 1) * sizeof *ref);
        memcpy(ref, in, rows * W * sizeof *ref);
        ck_assert_int_eq(toggle__gf2_rref_cfg(ref, rows, cols, W, p, &r, &cfg), TOGGLE_OK);
        unsigned fell_back = 0;
        for (uint64_t nth = 1;; nth++) {
            memcpy(M, in, rows * W * sizeof *M);
            toggle__alloc_fail_at(nth, false);
            int rc = toggle__gf2_rref_cfg(M, rows, cols, W, p, &r, &cfg);
            uint64_t calls = toggle__alloc_calls();
            toggle__alloc_fail_at(0, false);
            if (calls < nth) {
                ck_assert_int_eq(rc, TOGGLE_OK);
                break;
            }
            /* the thread pool's own allocations failing: the caller alone,
             * the same answer */
            int same = rc == TOGGLE_OK && !memcmp(M, ref, rows * W * sizeof *M);
            fell_back += same;
            ck_assert_msg(rc == TOGGLE_ENOMEM || same,
                          "%zu x %zu: allocation %llu failing gave %d", rows, cols,
                          (unsigned long long)nth, rc);
        }
        ck_assert_uint_le(fell_back, 4); /* the pool's few allocations only */
        free(ref);
        free(in);
        free(M);
        free(p);
    }
}
END_TEST

/* ---- the product C += A * B ------------------------------------------ */

/* C += A * B one bit at a time. */
static void naive_mul(uint64_t *C, size_t cs, const uint64_t *A, size_t as, const uint64_t *B,
                      size_t bs, size_t m, size_t k, size_t n)
{
    for (size_t i = 0; i < m; i++)
        for (size_t l = 0; l < k; l++)
            if (getb(A + i * as, l))
                for (size_t w = 0; w < (n + 63) / 64; w++)
                    C[i * cs + w] ^= B[l * bs + w];
}

static void random_bits(tu_rng *g, uint64_t *M, size_t rows, size_t cols, size_t stride,
                        int pad_garbage)
{
    for (size_t i = 0; i < rows; i++)
        for (size_t w = 0; w < stride; w++) {
            uint64_t x = tu_next(g);
            if (!pad_garbage && w * 64 + 64 > cols)
                x = w * 64 >= cols ? 0 : x & ((((uint64_t)1) << (cols % 64)) - 1);
            M[i * stride + w] = x;
        }
}

/* One m x k x n product with this cutoff, threads and fault against the naive
 * product (gfni_work: the GFNI base case alone, with this workspace); A
 * carries garbage past its k columns (it must be ignored), C starts random
 * and its words past n's must stay. Returns whether it matched. */
static int mul_matches(tu_rng *g, size_t m, size_t k, size_t n, size_t cutoff, unsigned threads,
                       unsigned fault, uint64_t *gfni_work)
{
    size_t as = (k + 63) / 64 + 1, bs = (n + 63) / 64 + tu_below(g, 2), cs = (n + 63) / 64 + 1;
    uint64_t *A = malloc((m * as + 1) * 8), *B = malloc((k * bs + 1) * 8),
             *C = malloc((m * cs + 1) * 8), *R = malloc((m * cs + 1) * 8);
    random_bits(g, A, m, k, as, 1);
    random_bits(g, B, k, n, bs, 0);
    random_bits(g, C, m, n, cs, 1);
    memcpy(R, C, m * cs * 8);
    naive_mul(R, cs, A, as, B, bs, m, k, n);
    if (gfni_work) {
        toggle__gf2_gfni_mul(C, cs, A, as, B, bs, m, k, n, gfni_work);
    } else {
        toggle__pool *pool = toggle__pool_new(threads);
        toggle__gf2_view vc = {C, m, n, cs}, va = {A, m, k, as}, vb = {B, k, n, bs};
        ck_assert_int_eq(toggle__gf2_mul(vc, va, vb, cutoff, fault, pool), TOGGLE_OK);
        toggle__pool_free(pool);
    }
    int same = memcmp(C, R, m * cs * 8) == 0;
    free(A);
    free(B);
    free(C);
    free(R);
    return same;
}

/* Shapes around every cutoff: M4RM alone (SIZE_MAX), Strassen-Winograd one,
 * two and three levels deep (cutoffs 64 .. 256 bits on small matrices) with
 * odd rows, inner bits and columns left over, the tuned cutoff (0) around
 * 2 * 2048, and 1, 2, 3 threads; a dropped Winograd product must fail. */
START_TEST(mul_matches_naive_around_cutoffs)
{
    tu_rng g = tu_rng_for(331);
    size_t iters = tu_iters(40);
    for (size_t it = 0; it < iters; it++) {
        size_t m = tu_below(&g, 700), k = tu_below(&g, 700), n = tu_below(&g, 700);
        const size_t cuts[] = {SIZE_MAX, 64, 128, 192, 256};
        size_t cut = cuts[tu_below(&g, 5)];
        unsigned thr = 1 + (unsigned)tu_below(&g, 3), kern = it % 2 ? TOGGLE__GF2_MUL_M4RM : 0;
        ck_assert_msg(mul_matches(&g, m, k, n, cut, thr, kern, NULL),
                      "%zu x %zu x %zu, cutoff %zu, %u threads, base case %s", m, k, n, cut,
                      thr, kern ? "M4RM" : "tuned");
    }
    const size_t shapes[][4] = {
        /* m, k, n, cutoff */
        {128, 128, 128, 64}, {127, 128, 128, 64}, {128, 127, 128, 64}, {128, 128, 127, 64},
        {129, 129, 129, 64}, {255, 257, 300, 64}, {513, 520, 700, 64}, {256, 256, 256, 128},
        {1000, 640, 900, 128}, {31, 500, 500, 64}, {33, 500, 500, 64}, {4096, 4096, 4096, 0},
        {4095, 4097, 4100, 0}, {4096, 4100, 5000, 0}, {8200, 300, 4200, 0}, {4096, 4096, 4096, SIZE_MAX},
    };
    /* 1 thread, and 2 or 3: uneven tile counts, thin row tiles (gf2_mul.c);
     * the tuned base case (GFNI where the CPU has it) and M4RM */
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (unsigned q = 0; q < 4; q++) {
            unsigned thr = q % 2 == 0 ? 1 : s % 2 ? 3 : 2, kern = q / 2 ? TOGGLE__GF2_MUL_M4RM : 0;
            ck_assert_msg(mul_matches(&g, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3],
                                      thr, kern, NULL),
                          "%zu x %zu x %zu, cutoff %zu, %u threads, base case %s", shapes[s][0],
                          shapes[s][1], shapes[s][2], shapes[s][3], thr, kern ? "M4RM" : "tuned");
        }
    /* a last column tile narrower than a word joins the one before it, and
     * the threads take tiles as they come (gf2_mul.c, col_tiles, mul_tiles):
     * M4RM tiles of 512 columns and Strassen tiles of 4096 with a few bits
     * left over, more threads than tiles, on 1, 2, 3 and 8 threads; with
     * GFNI on threads, B's shared copy in two inner chunks by two strips,
     * and row tiles of 64 rows with a short last one */
    const size_t rest[][4] = {
        {300, 200, 1541, SIZE_MAX}, {300, 128, 8200, 64}, {301, 130, 4100, 64},
        {700, 64, 2049, SIZE_MAX},  {65, 100, 8255, 64},  {700, 2100, 2200, SIZE_MAX},
        {197, 2049, 4100, SIZE_MAX},
    };
    const unsigned rest_thr[] = {1, 2, 3, 8};
    for (size_t s = 0; s < sizeof rest / sizeof *rest; s++)
        for (unsigned q = 0; q < 4; q++)
            ck_assert_msg(mul_matches(&g, rest[s][0], rest[s][1], rest[s][2], rest[s][3],
                                      rest_thr[q], 0, NULL),
                          "%zu x %zu x %zu, cutoff %zu, %u threads", rest[s][0], rest[s][1],
                          rest[s][2], rest[s][3], rest_thr[q]);
    /* a Winograd step without its P7 product is caught, at the tuned cutoff too */
    ck_assert(!mul_matches(&g, 256, 256, 256, 64, 1, TOGGLE__GF2_MUL_DROP_P7, NULL));
    ck_assert(!mul_matches(&g, 4096, 4096, 4096, 0, 1, TOGGLE__GF2_MUL_DROP_P7, NULL));
    ck_assert(!mul_matches(&g, 4096, 4096, 4096, 0, 1,
                           TOGGLE__GF2_MUL_DROP_P7 | TOGGLE__GF2_MUL_M4RM, NULL));
}
END_TEST

/* The GFNI base case alone (gf2_gfni.c) against the naive product, on
 * shapes around its chunks: 8-row groups and blocks of 4 groups, 256-row
 * copies of A, 8-bit inner bytes and 2048-bit inner chunks, 4-word column
 * blocks and 2048-bit (32-word) strips (mul_matches with its workspace,
 * sized for the largest shape). */
START_TEST(gfni_matches_naive_around_chunks)
{
    if (!toggle__gf2_gfni_ok()) {
        printf("gfni_matches_naive_around_chunks: this CPU has no GFNI with AVX-512 "
               "(the Four-Russians base case is tested instead)\n");
        return;
    }
    tu_rng g = tu_rng_for(347);
    uint64_t *work = aligned_alloc(64, (toggle__gf2_gfni_words(600, 4200, 4200) * 8 + 63) / 64 * 64);
    ck_assert(work != NULL);
    const size_t ms[] = {1, 7, 8, 9, 31, 32, 33, 255, 256, 257, 300};
    const size_t ks[] = {1, 7, 8, 9, 63, 64, 65, 2047, 2048, 2049, 4100};
    const size_t ns[] = {1, 63, 64, 65, 255, 256, 257, 2047, 2048, 2049, 4200};
    size_t iters = tu_iters(150);
    for (size_t it = 0; it < iters; it++) {
        size_t m = ms[tu_below(&g, 11)], k = ks[tu_below(&g, 11)], n = ns[tu_below(&g, 11)];
        if (it % 3 == 0) { /* and anywhere in between */
            m = 1 + tu_below(&g, 600);
            k = 1 + tu_below(&g, 2200);
            n = 1 + tu_below(&g, 600);
        }
        ck_assert_msg(mul_matches(&g, m, k, n, 0, 1, 0, work), "GFNI %zu x %zu x %zu", m, k, n);
    }
    free(work);
}
END_TEST

START_TEST(transpose_matches_bits)
{
    tu_rng g = tu_rng_for(302);
    for (int it = 0; it < 50; it++) {
        size_t rows = tu_below(&g, 200), cols = tu_below(&g, 200);
        size_t sw = (cols + 63) / 64 + 1, dw = (rows + 63) / 64 + 1;
        uint64_t *src = calloc(rows * sw + 1, 8), *dst = calloc(cols * dw + 1, 8);
        random_matrix(&g, src, rows, cols, sw, 0, 0);
        toggle__bits_transpose(dst, dw, src, sw, rows, cols);
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < cols; j++)
                ck_assert_int_eq(getb(src + i * sw, j), getb(dst + j * dw, i));
        for (size_t j = 0; j < cols; j++) {
            if (rows % 64)
                ck_assert((dst[j * dw + rows / 64] >> (rows % 64)) == 0);
            ck_assert(dst[j * dw + dw - 1] == 0);
        }
        free(src);
        free(dst);
    }
}
END_TEST

/* ---- cross-engine agreement ---------------------------------------------- */


/* A random dense system as uint64 arrays: rank-limited or not, b = A x0
 * (consistent) or random. */
static void random_system(tu_rng *g, size_t m, size_t n, uint64_t *a, uint64_t *b)
{
    size_t W = (n + 63) / 64 + 1;
    uint64_t *M = calloc(m * W + 1, sizeof *M);
    size_t rank = tu_below(g, 2) ? 0 : tu_below(g, (m < n ? m : n) + 1) + 1;
    random_matrix(g, M, m, n, W, rank, (int)tu_below(g, 3));
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            a[i * n + j] = (uint64_t)getb(M + i * W, j);
    if (tu_below(g, 2)) {
        uint64_t *x = calloc(n + 1, sizeof *x);
        for (size_t j = 0; j < n; j++)
            x[j] = tu_next(g) & 1;
        tu_apply(a, m, n, x, 2, b);
        free(x);
    } else {
        for (size_t i = 0; i < m; i++)
            b[i] = tu_next(g) & 1;
    }
    free(M);
}

START_TEST(agrees_with_flint_random)
{
    tu_rng g = tu_rng_for(303);
    size_t iters = tu_iters(2000);
    for (size_t it = 0; it < iters; it++) {
        size_t m, n;
        switch (tu_below(&g, 6)) {
        case 0: m = tu_below(&g, 3); n = tu_below(&g, 3); break;          /* N = 0, 1, 2 */
        case 1: m = n = 64 * (1 + tu_below(&g, 2)) + tu_below(&g, 3) - 1; break; /* near 64 */
        case 2: m = tu_below(&g, 40); n = tu_below(&g, 130); break;       /* wide */
        case 3: m = tu_below(&g, 130); n = tu_below(&g, 40); break;       /* tall */
        default: m = n = tu_below(&g, 100); break;                        /* square */
        }
        uint64_t *a = calloc(m * n + 1, sizeof *a), *b = calloc(m + 1, sizeof *b);
        random_system(&g, m, n, a, b);
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, 2), TOGGLE_OK);
        tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_GF2, a, b, m, n, 2);
        toggle_system_free(s);
        free(a);
        free(b);
    }
}
END_TEST

START_TEST(agrees_with_flint_larger)
{
    tu_rng g = tu_rng_for(304);
    size_t iters = tu_iters(12);
    for (size_t it = 0; it < iters; it++) {
        size_t m = 150 + tu_below(&g, 200), n = tu_below(&g, 2) ? m : 150 + tu_below(&g, 200);
        uint64_t *a = calloc(m * n + 1, sizeof *a), *b = calloc(m + 1, sizeof *b);
        random_system(&g, m, n, a, b);
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, 2), TOGGLE_OK);
        tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_GF2, a, b, m, n, 2);
        toggle_system_free(s);
        free(a);
        free(b);
    }
}
END_TEST

/* Grid graphs (all flags) with random start states, plus a weighted stencil. */
START_TEST(agrees_with_flint_graphs)
{
    tu_rng g = tu_rng_for(305);
    size_t iters = tu_iters(150);
    for (size_t it = 0; it < iters; it++) {
        size_t rows = 1 + tu_below(&g, 12), cols = 1 + tu_below(&g, 12), n = rows * cols;
        uint32_t flags = (uint32_t)tu_below(&g, 8);
        toggle_graph *gr = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&gr, rows, cols, flags), TOGGLE_OK);
        uint64_t *start = calloc(n, sizeof *start), *b = calloc(n, sizeof *b);
        for (size_t i = 0; i < n; i++)
            start[i] = tu_next(&g) & 1;
        int pattern = (int)tu_below(&g, 2);
        for (size_t i = 0; i < n; i++)
            b[i] = pattern ? 1 : start[i]; /* target 0: b = -start = start */
        toggle_system *s = NULL;
        uint64_t *zero = calloc(n, sizeof *zero);
        ck_assert_int_eq(toggle_system_new(&s, gr, 2, pattern ? NULL : start,
                                           pattern ? NULL : zero), TOGGLE_OK);
        uint64_t *a = tu_grid_matrix(rows, cols, flags);
        tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_GF2, a, b, n, n, 2);
        /* AUTO takes a k = 2 engine, never FLINT */
        toggle_solution *sol = NULL;
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_AUTO),
                         TOGGLE_OK);
        ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
        ck_assert_int_ne(toggle_solution_engine(sol), TU_ENGINE_PRIME);
        toggle_solution_free(sol);
        tu_free_all(gr, s, NULL);
        free(a);
        free(b);
        free(start);
        free(zero);
    }
    /* stencil with repeated offsets and even weights: weights add mod 2 */
    const int64_t dr[] = {0, 0, 1, -1, 0, 2, 1};
    const int64_t dc[] = {0, 1, 0, 0, 1, 0, 1};
    const uint64_t w[] = {1, 1, 3, 1, 1, 2, 5};
    for (size_t rows = 3; rows <= 9; rows += 3) {
        size_t cols = rows + 1, n = rows * cols;
        for (uint32_t fl = 0; fl <= TOGGLE_GRID_TORUS; fl += TOGGLE_GRID_TORUS) {
            toggle_graph *gr = NULL;
            ck_assert_int_eq(toggle_graph_new_stencil(&gr, rows, cols, dr, dc, w, 7, fl),
                             TOGGLE_OK);
            uint64_t *a = calloc(n * n, sizeof *a), *b = calloc(n, sizeof *b);
            for (size_t r = 0; r < rows; r++)
                for (size_t c = 0; c < cols; c++)
                    for (int k = 0; k < 7; k++) {
                        int64_t rr = (int64_t)r + dr[k], cc = (int64_t)c + dc[k];
                        if (fl) {
                            rr = (rr + (int64_t)rows) % (int64_t)rows;
                            cc = (cc + (int64_t)cols) % (int64_t)cols;
                        } else if (rr < 0 || cc < 0 || rr >= (int64_t)rows || cc >= (int64_t)cols) {
                            continue;
                        }
                        size_t i = (size_t)rr * cols + (size_t)cc, j = r * cols + c;
                        a[i * n + j] = (a[i * n + j] + w[k]) & 1;
                    }
            for (size_t i = 0; i < n; i++)
                b[i] = 1;
            toggle_system *s = NULL;
            ck_assert_int_eq(toggle_system_new(&s, gr, 2, NULL, NULL), TOGGLE_OK);
            tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_GF2, a, b, n, n, 2);
            tu_free_all(gr, s, NULL);
            free(a);
            free(b);
        }
    }
}
END_TEST

/* toggle_system_new_packed (garbage in the padding bits and stride words,
 * which are ignored) and the k = 2 parser give the system new_matrix gives:
 * same entries, and with 1, 2 and 3 threads the same answers as FLINT;
 * kernel vectors read packed at any offset match the unpacked ones. */
START_TEST(packed_input_and_readout)
{
    tu_rng g = tu_rng_for(331);
    size_t iters = tu_iters(30);
    for (size_t it = 0; it < iters; it++) {
        size_t m = 1 + tu_below(&g, 150), n = 1 + tu_below(&g, 150);
        size_t W = (n + 63) / 64, stride = W + tu_below(&g, 3);
        uint64_t *a = calloc(m * n, sizeof *a), *b = calloc(m, sizeof *b);
        random_system(&g, m, n, a, b);
        uint64_t *pa = malloc(m * stride * sizeof *pa), *pb = malloc(((m + 63) / 64) * 8);
        for (size_t i = 0; i < m * stride; i++)
            pa[i] = tu_next(&g); /* garbage everywhere, then the entries */
        for (size_t i = 0; i < (m + 63) / 64; i++)
            pb[i] = tu_next(&g);
        for (size_t i = 0; i < m; i++) {
            for (size_t j = 0; j < n; j++)
                if (getb(pa + i * stride, j) != (int)a[i * n + j])
                    flipb(pa + i * stride, j);
            if (getb(pb, i) != (int)b[i])
                flipb(pb, i);
        }
        toggle_system *s = NULL, *t = NULL;
        ck_assert_int_eq(toggle_system_new_packed(&s, m, n, pa, stride, pb), TOGGLE_OK);
        /* the parser (k = 2) fills packed rows directly */
        size_t tl = m * (n + 4) + 1, p = 0;
        char *text = malloc(tl);
        for (size_t i = 0; i < m; i++) {
            for (size_t j = 0; j < n; j++)
                text[p++] = (char)('0' + a[i * n + j]);
            text[p++] = '|';
            text[p++] = (char)('0' + b[i]);
            text[p++] = '\n';
        }
        ck_assert_int_eq(toggle_system_parse(&t, text, p, 2), TOGGLE_OK);
        ck_assert_uint_eq(toggle_system_rows(t), m);
        ck_assert_uint_eq(toggle_system_cols(t), n);
        for (size_t i = 0; i < m; i++) {
            uint64_t v = 9, w = 9;
            for (size_t j = 0; j < n; j++) {
                ck_assert_int_eq(toggle_system_entry(s, i, j, &v), TOGGLE_OK);
                ck_assert_int_eq(toggle_system_entry(t, i, j, &w), TOGGLE_OK);
                ck_assert_uint_eq(v, a[i * n + j]);
                ck_assert_uint_eq(w, a[i * n + j]);
            }
            ck_assert_int_eq(toggle_system_rhs(s, i, &v), TOGGLE_OK);
            ck_assert_uint_eq(v, b[i]);
        }
        unsigned th = (unsigned)(1 + it % 3);
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, th), TOGGLE_OK);
        tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_GF2, a, b, m, n, 2);
        toggle_solution *q = tu_solve_with(s, TOGGLE_ENGINE_GF2);
        size_t d = toggle_solution_nullity(q), off = tu_below(&g, n), len = tu_below(&g, n - off + 1);
        uint64_t *v = calloc(n, sizeof *v), *pw = calloc(n / 64 + 2, sizeof *pw);
        for (size_t i = 0; i < d; i++) {
            ck_assert_int_eq(toggle_solution_kernel_vector(q, i, v, n), TOGGLE_OK);
            ck_assert_int_eq(toggle_solution_kernel_packed(q, i, off, len, pw, n / 64 + 2),
                             TOGGLE_OK);
            for (size_t j = 0; j < len; j++)
                ck_assert_uint_eq((pw[j / 64] >> (j % 64)) & 1, v[off + j]);
            if (len % 64)
                ck_assert_uint_eq(pw[len / 64] >> (len % 64), 0);
        }
        ck_assert_int_eq(toggle_solution_kernel_packed(q, d, 0, 0, pw, 1), TOGGLE_ERANGE);
        toggle_solution_free(q);
        toggle_system_free(s);
        toggle_system_free(t);
        free(v);
        free(pw);
        free(text);
        free(a);
        free(b);
        free(pa);
        free(pb);
    }
}
END_TEST

START_TEST(supports_only_modulus_2)
{
    uint64_t a[4] = {1, 0, 0, 1}, b[2] = {1, 1};
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, 2, 2, a, b, 3), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2), TOGGLE_OK);
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_EUNSUPPORTED);
    ck_assert_ptr_null(sol);
    toggle_system_free(s);
    ck_assert_int_eq(toggle_system_new_matrix(&s, 2, 2, a, b, 2), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_engine(sol), TOGGLE_ENGINE_GF2);
    toggle_solution_free(sol);
    toggle_system_free(s);
}
END_TEST

/* The budget applies to the packed size: a 2000 x 2000 system fits in
 * 2 MiB for gf2 (about 0.5 MiB packed) but not for FLINT (64 MiB). */
START_TEST(budget_uses_packed_size)
{
    size_t n = 2000;
    uint64_t *a = calloc(n * n, sizeof *a), *b = calloc(n, sizeof *b);
    for (size_t i = 0; i < n; i++)
        a[i * n + i] = b[i] = 1;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, n, n, a, b, 2), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 2u << 20), TOGGLE_OK);
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    const char *err = tu_verify(sol, a, b, n, n, 2, 0);
    ck_assert_msg(!err, "%s", err);
    toggle_solution_free(sol);
    sol = NULL;
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 100000), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_ENOMEM);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TU_ENGINE_PRIME), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 2u << 20), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_ENOMEM);
    toggle_system_free(s);
    free(a);
    free(b);
}
END_TEST

/* Every allocation in a solve (solvable and unsolvable, graph and matrix)
 * failing in turn gives TOGGLE_ENOMEM, never a crash; then it works. */
START_TEST(allocation_failures)
{
    tu_rng g = tu_rng_for(306);
    for (int kind = 0; kind < 3; kind++) {
        size_t m = 70, n = 70;
        uint64_t *a = calloc(m * n, sizeof *a), *b = calloc(m, sizeof *b);
        random_system(&g, m, n, a, b);
        if (kind == 1) { /* rank-deficient and inconsistent */
            for (size_t j = 0; j < n; j++)
                a[(m - 1) * n + j] = a[j];
            b[m - 1] = b[0] ^ 1;
        }
        toggle_system *s = NULL;
        toggle_graph *gr = NULL;
        if (kind == 2) {
            ck_assert_int_eq(toggle_graph_new_grid(&gr, 5, 5, 0), TOGGLE_OK); /* nullity 2 */
            uint64_t st[25] = {1};
            ck_assert_int_eq(toggle_system_new(&s, gr, 2, st, (uint64_t[25]){0}), TOGGLE_OK);
        } else {
            ck_assert_int_eq(toggle_system_new_matrix(&s, m, n, a, b, 2), TOGGLE_OK);
        }
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2),
                         TOGGLE_OK);
        int done = 0;
        for (uint64_t nth = 1; !done && nth < 200; nth++) {
            toggle_solution *sol = NULL;
            toggle__alloc_fail_at(nth, false);
            int rc = toggle_solve(&sol, s);
            uint64_t calls = toggle__alloc_calls();
            toggle__alloc_fail_at(0, false);
            if (calls < nth) {
                ck_assert_int_eq(rc, TOGGLE_OK);
                done = 1;
            } else {
                ck_assert_msg(rc == TOGGLE_ENOMEM, "allocation %llu: %s",
                              (unsigned long long)nth, toggle_status_name(rc));
                ck_assert_ptr_null(sol);
            }
            toggle_solution_free(sol);
        }
        ck_assert(done);
        tu_free_all(gr, s, NULL);
        free(a);
        free(b);
    }
}
END_TEST

/* ---- threads --------------------------------------------------------------- */

typedef struct job {
    uint64_t salt;
    int failures;
    char msg[160];
} job;

static void *worker(void *arg)
{
    job *jb = arg;
    tu_rng g = tu_rng_for(jb->salt);
    for (int it = 0; it < 6 && !jb->failures; it++) {
        size_t m = 100 + tu_below(&g, 300), n = 100 + tu_below(&g, 300);
        uint64_t *a = calloc(m * n, sizeof *a), *b = calloc(m, sizeof *b);
        random_system(&g, m, n, a, b);
        toggle_system *s = NULL;
        toggle_solution *sol = NULL;
        int rc = toggle_system_new_matrix(&s, m, n, a, b, 2);
        if (!rc)
            rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2);
        if (!rc)
            rc = toggle_solve(&sol, s);
        const char *err = rc ? toggle_status_name(rc) : tu_verify(sol, a, b, m, n, 2, SIZE_MAX);
        if (err) {
            jb->failures++;
            snprintf(jb->msg, sizeof jb->msg, "m=%zu n=%zu: %s", m, n, err);
        }
        toggle_solution_free(sol);
        toggle_system_free(s);
        free(a);
        free(b);
    }
    return NULL;
}

/* The pool (lib/core/pool.c): every share of every job runs exactly once
 * and sees the pool's thread count, also when the workers have gone to
 * sleep between jobs (the caller then runs their shares itself), and the
 * scratch blocks are lent once at a time and kept between takes. */
typedef struct share_job {
    unsigned runs[4];
    unsigned nt_seen;
} share_job;

static void count_share(void *ctx, unsigned t, unsigned nt)
{
    share_job *j = ctx;
    if (t < 4)
        j->runs[t]++; /* share t alone writes runs[t] */
    if (t == 0)
        j->nt_seen = nt;
}

START_TEST(pool_shares_once_and_scratch)
{
    tu_rng g = tu_rng_for(353);
    for (unsigned threads = 2; threads <= 4; threads++) {
        toggle__pool *pool = toggle__pool_new(threads);
        ck_assert_ptr_nonnull(pool);
        unsigned nt = toggle__pool_threads(pool);
        for (unsigned it = 0; it < 300; it++) {
            share_job j = {{0}, 0};
            /* now and then a pause past the workers' poll: they sleep */
            if (tu_below(&g, 8) == 0) {
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
            }
            toggle__pool_run(pool, count_share, &j);
            ck_assert_uint_eq(j.nt_seen, nt);
            for (unsigned t = 0; t < nt; t++)
                ck_assert_msg(j.runs[t] == 1, "%u threads, job %u: share %u ran %u times",
                              nt, it, t, j.runs[t]);
        }
        void *a = NULL, *b = NULL, *c = NULL;
        ck_assert_int_eq(toggle__pool_take(pool, 0, 100, &a), 0);
        ck_assert_ptr_nonnull(a);
        ck_assert_uint_eq((uintptr_t)a % 64, 0);
        memset(a, 1, 100);
        ck_assert_int_eq(toggle__pool_take(pool, 0, 100, &b), 0);
        ck_assert_ptr_null(b); /* taken */
        ck_assert_int_eq(toggle__pool_take(pool, nt, 100, &b), 0);
        ck_assert_ptr_null(b); /* no such slot */
        toggle__pool_give(pool, 0);
        ck_assert_int_eq(toggle__pool_take(pool, 0, 50, &b), 0);
        ck_assert_ptr_eq(a, b); /* kept */
        toggle__pool_give(pool, 0);
        ck_assert_int_eq(toggle__pool_take(pool, 0, 1 << 20, &c), 0);
        ck_assert_ptr_nonnull(c);
        memset(c, 2, 1 << 20); /* grown */
        toggle__pool_give(pool, 0);
        ck_assert_int_eq(toggle__pool_take(pool, nt - 1, 64, &b), 0);
        ck_assert_ptr_nonnull(b);
        toggle__pool_free(pool); /* frees the blocks, taken or not */
    }
    void *none = &g;
    ck_assert_int_eq(toggle__pool_take(NULL, 0, 64, &none), 0);
    ck_assert_ptr_null(none);
    toggle__pool_give(NULL, 0);
}
END_TEST

/* A solve keeps its [A | b] copy on the system for the next one
 * (toggle__system_take_words): solved again alone and by four threads at
 * once (the copy exchanged between them), the particular solution is the
 * same and passes the independent check; a copy above
 * TOGGLE__SPARE_MAX_BYTES is not kept. */
typedef struct same_job {
    toggle_system *s;
    const uint64_t *want;
    size_t n;
    int bad;
} same_job;

static void *solve_same(void *arg)
{
    same_job *j = arg;
    uint64_t *x = malloc(j->n * sizeof *x);
    for (int it = 0; it < 10 && !j->bad; it++) {
        toggle_solution *sol = NULL;
        int ok = 0;
        j->bad = toggle_solve(&sol, j->s) != TOGGLE_OK ||
                 toggle_solution_particular(sol, x, j->n) != TOGGLE_OK ||
                 toggle_system_check(j->s, x, j->n, &ok) != TOGGLE_OK || !ok ||
                 memcmp(x, j->want, j->n * sizeof *x) != 0;
        toggle_solution_free(sol);
    }
    free(x);
    return NULL;
}

static toggle_system *packed_identity_or_random(tu_rng *g, size_t n, int random)
{
    size_t W = (n + 63) / 64;
    uint64_t *a = calloc(n * W + 1, sizeof *a), *x = calloc(W + 1, sizeof *x),
             *b = calloc(W + 1, sizeof *b);
    for (size_t i = 0; i < n; i++) {
        flipb(a + i * W, i);
        for (size_t j = 0; random && j < n; j++)
            if (j != i && (tu_next(g) & 1))
                flipb(a + i * W, j);
    }
    for (size_t j = 0; j < n; j++)
        if (tu_next(g) & 1)
            flipb(x, j);
    for (size_t i = 0; i < n; i++) { /* b = A x: solvable (A = I: b = x) */
        int v = random ? 0 : getb(x, i);
        for (size_t j = 0; random && j < n; j++)
            v ^= getb(a + i * W, j) & getb(x, j);
        if (v)
            flipb(b, i);
    }
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new_packed(&s, n, n, a, W, b), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2), TOGGLE_OK);
    free(a);
    free(x);
    free(b);
    return s;
}

static void check_solve(toggle_system *s, size_t n, size_t *nullity);

START_TEST(spare_matrix_kept_and_shared)
{
    tu_rng g = tu_rng_for(355);
    size_t n = 300;
    toggle_system *s = packed_identity_or_random(&g, n, 1);
    ck_assert_ptr_null(atomic_load(&s->spare));
    toggle_solution *sol = NULL;
    uint64_t *want = malloc(n * sizeof *want);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_particular(sol, want, n), TOGGLE_OK);
    toggle_solution_free(sol);
    ck_assert_ptr_nonnull(atomic_load(&s->spare)); /* kept */
    same_job one = {s, want, n, 0};
    solve_same(&one);
    ck_assert_msg(!one.bad, "a second solve of the same system differs");
    pthread_t th[4];
    same_job jobs[4];
    for (int t = 0; t < 4; t++) {
        jobs[t] = one;
        ck_assert_int_eq(pthread_create(&th[t], NULL, solve_same, &jobs[t]), 0);
    }
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], NULL);
        ck_assert_msg(!jobs[t].bad, "thread %d: a solve differs", t);
    }
    free(want);
    toggle_system_free(s);
    /* a full-rank square system's [I | x] is cleared on its two words a row
     * and given back zero (the next build skips zeroing it): the whole
     * block must then be zero; a singular one's is given back stale. The
     * boards 28 (full rank) and 24 (nullity 4), on one and two threads. */
    for (int k = 0; k < 4; k++) {
        size_t side = k % 2 ? 24 : 28, cells = side * side, W = (cells + 64) / 64;
        toggle_graph *gr = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&gr, side, side, 0), TOGGLE_OK);
        uint64_t *st = calloc(cells, sizeof *st);
        for (size_t i = 0; i < cells; i++)
            st[i] = k % 2 ? 0 : tu_below(&g, 2); /* any start on the full-rank board */
        ck_assert_int_eq(toggle_system_new(&s, gr, 2, st, NULL), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2),
                         TOGGLE_OK);
        ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, k < 2 ? 1 : 2),
                         TOGGLE_OK);
        for (int rep = 0; rep < 2; rep++) {
            size_t nul = SIZE_MAX;
            check_solve(s, cells, &nul);
            uint64_t *spare = atomic_load(&s->spare);
            ck_assert_ptr_nonnull(spare);
            size_t zeros = TOGGLE__SPARE_ZEROS(spare), nonzero = 0;
            for (size_t w = 0; w < cells * W; w++)
                nonzero += spare[w] != 0;
            ck_assert_uint_eq(zeros, side == 28 ? cells * W : 0);
            if (side == 28)
                ck_assert_msg(nonzero == 0, "board 28: %zu words of the given-back block set",
                              nonzero);
        }
        toggle_system_free(s);
        toggle_graph_free(gr);
        free(st);
    }
    /* [A | b] of 11700 x 11701 bits is 17.2 MB, past 16 MiB: freed */
    s = packed_identity_or_random(&g, 11700, 0);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    toggle_solution_free(sol);
    ck_assert_ptr_null(atomic_load(&s->spare));
    toggle_system_free(s);
}
END_TEST

/* The spare block comes back stale (toggle__system_take_words): each row is
 * rewritten whole before it is read (and the nullity bound is kept). Graph systems (a board; a matrix graph
 * with empty rows, the rows no entry reaches) and packed ones whose width
 * is a multiple of 64 (the right-hand side's word past the copied rows) are
 * solved after a different system's matrix was left in the block: every
 * answer is checked by applying it (and its nullity against the first). */
static void check_solve(toggle_system *s, size_t n, size_t *nullity)
{
    toggle_solution *sol = NULL;
    uint64_t *x = malloc((n ? n : 1) * sizeof *x);
    int ok = 0;
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_is_solvable(sol), 1);
    ck_assert_int_eq(toggle_solution_particular(sol, x, n), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_check(s, x, n, &ok), TOGGLE_OK);
    ck_assert_msg(ok, "the particular solution does not solve the system");
    if (*nullity == SIZE_MAX)
        *nullity = toggle_solution_nullity(sol);
    ck_assert_uint_eq(toggle_solution_nullity(sol), *nullity);
    toggle_solution_free(sol);
    free(x);
}

START_TEST(stale_spare_rewritten)
{
    tu_rng g = tu_rng_for(356);
    for (int kind = 0; kind < 4; kind++) {
        /* kind 3: an 80 x 80 board on two threads, whose [A | b] (646,400
         * words) is built by two shares, each zeroing its own words of a row */
        size_t side = kind == 3 ? 80 : 24;
        size_t n = kind == 0 || kind == 3 ? side * side : kind == 1 ? 640 : 512;
        toggle_graph *gr = NULL;
        uint64_t *a = NULL, *st = calloc(n, sizeof *st), *off = calloc(n, sizeof *off);
        if (kind == 0 || kind == 3) {
            ck_assert_int_eq(toggle_graph_new_grid(&gr, side, side, 0), TOGGLE_OK);
        } else if (kind == 1) { /* every 5th cell no press reaches: empty rows */
            a = calloc(n * n, sizeof *a);
            for (size_t j = 0; j < n; j++)
                for (size_t i = j >= 3 ? j - 3 : 0; i < n && i <= j + 3; i++)
                    if (i % 5 && (i == j || tu_below(&g, 2)))
                        a[i * n + j] = 1;
            ck_assert_int_eq(toggle_graph_new_matrix(&gr, n, a), TOGGLE_OK);
        }
        toggle_system *s = NULL;
        if (kind != 2) {
            for (size_t j = 0; kind == 1 && j < n; j++) /* a start any presses reach */
                if (tu_below(&g, 2)) {
                    for (size_t i = 0; i < n; i++)
                        st[i] ^= a[i * n + j] & 1;
                }
            if (kind == 0 || kind == 3)
                for (size_t i = 0; i < n; i++) { /* presses of cell i on the board */
                    if (!tu_below(&g, 3))
                        continue;
                    size_t r = i / side, c = i % side;
                    st[i] ^= 1;
                    if (r) st[i - side] ^= 1;
                    if (r + 1 < side) st[i + side] ^= 1;
                    if (c) st[i - 1] ^= 1;
                    if (c + 1 < side) st[i + 1] ^= 1;
                }
            ck_assert_int_eq(toggle_system_new(&s, gr, 2, st, off), TOGGLE_OK);
            ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2),
                             TOGGLE_OK);
            ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, kind == 3 ? 2 : 1),
                             TOGGLE_OK);
        } else {
            s = packed_identity_or_random(&g, n, 1);
        }
        size_t nullity = SIZE_MAX;
        for (int rep = 0; rep < 3; rep++) {
            /* the block as another solve would leave it: every word set */
            uint64_t *spare = atomic_load(&s->spare);
            if (spare) {
                memset(spare, 0xff, (n * ((n + 64) / 64)) * sizeof *spare);
                TOGGLE__SPARE_ZEROS(spare) = 0; /* as such a solve gives it back */
            }
            check_solve(s, n, &nullity);
            ck_assert_ptr_nonnull(atomic_load(&s->spare));
        }
        /* the estimate's bound on the nullity is kept too, and bounds it */
        size_t kept = atomic_load(&s->nullity_bound);
        ck_assert_uint_gt(kept, 0);
        ck_assert_uint_ge(kept - 1, nullity);
        printf("# stale spare, kind %d, n %zu: nullity %zu, kept bound %zu\n", kind, n, nullity,
               kept - 1);
        toggle_system_free(s);
        toggle_graph_free(gr);
        free(a);
        free(st);
        free(off);
    }
}
END_TEST

/* A dense [A | b] of 64 words a row or more has a stride of whole cache
 * lines and starts on one (a row straddling two lines costs two misses on every vector): 4095 columns
 * (b makes 64 words, no padding) and 4100 (65 words, stride 72), the
 * identity (full rank: the block comes back zero, padding included) and a
 * random A (rank-deficient or not), on one and two threads, each solved
 * twice (the second on the block the first gave back): the same answer,
 * checked independently. */
START_TEST(dense_rows_on_lines)
{
    tu_rng g = tu_rng_for(357);
    const size_t sizes[] = {4095, 4100};
    for (int k = 0; k < 4; k++) {
        size_t n = sizes[k / 2], W = (n + 64) / 64, stride = W >= 64 ? (W + 7) / 8 * 8 : W;
        toggle_system *s = packed_identity_or_random(&g, n, k % 2);
        uint64_t *first = malloc(n * sizeof *first), *x = malloc(n * sizeof *x);
        size_t nul = SIZE_MAX;
        for (int run = 0; run < 4; run++) {
            ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, run < 2 ? 1 : 2),
                             TOGGLE_OK);
            check_solve(s, n, &nul);
            toggle_solution *sol = NULL;
            ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
            ck_assert_int_eq(toggle_solution_particular(sol, run ? x : first, n), TOGGLE_OK);
            toggle_solution_free(sol);
            if (run)
                ck_assert_msg(memcmp(x, first, n * sizeof *x) == 0,
                              "n %zu kind %d run %d: another particular solution", n, k, run);
            uint64_t *spare = atomic_load(&s->spare);
            ck_assert_ptr_nonnull(spare);
            ck_assert_uint_eq((uintptr_t)spare % 64, 0);
            if (k % 2 == 0) { /* [I | x] given back zero, its padding words too */
                ck_assert_uint_ge(TOGGLE__SPARE_ZEROS(spare), n * stride);
                size_t nonzero = 0;
                for (size_t w = 0; w < n * stride; w++)
                    nonzero += spare[w] != 0;
                ck_assert_msg(nonzero == 0, "n %zu: %zu words of the given-back block set", n,
                              nonzero);
            }
        }
        if (k % 2 == 0)
            ck_assert_uint_eq(nul, 0);
        free(first);
        free(x);
        toggle_system_free(s);
    }
}
END_TEST

/* The graph build hands the elimination each row's bounds
 * (toggle__gf2_rref_rows) instead of it reading every row: rows no press
 * reaches (their b alone in the last word, or nothing), rows whose only
 * bits are in the last word, and sizes that put column n in a word of its
 * own (n % 64 == 0) or share it; b on the empty rows makes some systems
 * unsolvable. Against the FLINT engine, and through the build's kept
 * block (second solve). */
START_TEST(graph_row_bounds_match_flint)
{
    tu_rng g = tu_rng_for(357);
    static const size_t sizes[] = {1, 63, 64, 65, 127, 128, 130, 191, 200, 256};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes * 3; t++) {
        size_t n = sizes[t % 10], Wx = n / 64;
        uint64_t *a = calloc(n * n, sizeof *a), *st = calloc(n, sizeof *st);
        uint64_t *off = calloc(n, sizeof *off); /* target all off: b = start (mod 2) */
        for (size_t i = 0; i < n; i++) {
            unsigned shape = (unsigned)tu_below(&g, 6);
            if (shape == 0)
                continue; /* no press reaches cell i */
            if (shape == 1 && 64 * Wx < n) { /* only presses of the last word's cells */
                for (size_t j = 64 * Wx; j < n; j++)
                    a[i * n + j] = tu_below(&g, 2);
                continue;
            }
            size_t lo = i >= 20 ? i - 20 : 0, hi = i + 20 < n ? i + 21 : n;
            for (size_t j = lo; j < hi; j++)
                a[i * n + j] = j == i || tu_below(&g, 3) == 0;
        }
        for (size_t i = 0; i < n; i++) /* a start presses reach, or any start */
            st[i] = t % 3 ? tu_below(&g, 2) : 0;
        for (size_t j = 0; t % 3 == 0 && j < n; j++)
            if (tu_below(&g, 2))
                for (size_t i = 0; i < n; i++)
                    st[i] ^= a[i * n + j];
        toggle_graph *gr = NULL;
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_graph_new_matrix(&gr, n, a), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_new(&s, gr, 2, st, off), TOGGLE_OK);
        for (int rep = 0; rep < 2; rep++) /* the second on the block the first gave back */
            tu_compare_engines(s, TOGGLE_ENGINE_FLINT, TOGGLE_ENGINE_GF2, a, st, n, n, 2);
        toggle_system_free(s);
        toggle_graph_free(gr);
        free(a);
        free(st);
        free(off);
    }
}
END_TEST

START_TEST(eight_threads)
{
    pthread_t th[8];
    job jobs[8];
    for (int t = 0; t < 8; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].salt = 400 + (uint64_t)t;
        ck_assert_int_eq(pthread_create(&th[t], NULL, worker, &jobs[t]), 0);
    }
    for (int t = 0; t < 8; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < 8; t++)
        ck_assert_msg(jobs[t].failures == 0, "thread %d: %s", t, jobs[t].msg);
}
END_TEST

int main(void)
{
    tu_seed();
    Suite *su = suite_create("gf2");
    TCase *tc = tcase_create("gf2");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, rref_matches_naive_and_stays_inside);
    tcase_add_test(tc, rref_gapped_and_low_rank);
    tcase_add_test(tc, auto_matches_plain_around_cutoffs);
    tcase_add_test(tc, mul_matches_naive_around_cutoffs);
    tcase_add_test(tc, gfni_matches_naive_around_chunks);
    tcase_add_loop_test(tc, recursive_matches_plain_around_cutoffs, 0, RECURSIVE_SHAPES);
    tcase_add_test(tc, recursive_prefix_around_its_boundary);
    tcase_add_test(tc, recursive_workspace_and_failures);
    tcase_add_test(tc, threads_banded_and_uneven);
    tcase_add_test(tc, two_sweeps_match_naive);
    tcase_add_test(tc, twisted_matches_one_thread);
    tcase_add_test(tc, transpose_matches_bits);
    tcase_add_test(tc, agrees_with_flint_random);
    tcase_add_test(tc, agrees_with_flint_larger);
    tcase_add_test(tc, agrees_with_flint_graphs);
    tcase_add_test(tc, packed_input_and_readout);
    tcase_add_test(tc, supports_only_modulus_2);
    tcase_add_test(tc, budget_uses_packed_size);
    tcase_add_test(tc, allocation_failures);
    tcase_add_test(tc, pool_shares_once_and_scratch);
    tcase_add_test(tc, eight_threads);
    tcase_add_test(tc, spare_matrix_kept_and_shared);
    tcase_add_test(tc, stale_spare_rewritten);
    tcase_add_test(tc, dense_rows_on_lines);
    tcase_add_test(tc, graph_row_bounds_match_flint);
    tcase_add_test(tc, given_row_bounds_match);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
