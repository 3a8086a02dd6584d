/* Fewest presses: the split search (threads, symmetry, bounds, costs and
 * forbidden cells) against brute force over every press vector and against
 * the plain Gray walk; A075464 for n <= 54. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space/space_internal.h"
#include "testutil.h"

/* A075464(n), n = 1..54: https://oeis.org/A075464 (the terms its main page
 * prints; b-file by Max Alekseyev and Zhao Hui Du). */
static const unsigned a075464[54] = {
    1,    4,    5,    4,    15,   28,   33,   40,   25,   44,   55,   72,   105,  56,
    117,  104,  147,  188,  141,  224,  245,  276,  231,  270,  353,  356,  405,  416,
    345,  376,  553,  428,  469,  520,  563,  600,  761,  772,  561,  696,  891,  940,
    953,  772,  1069, 1188, 971,  1096, 1165, 1220, 1317, 1256, 1487, 1400};

static uint64_t weigh(const uint64_t *x, size_t n, const uint64_t *cost, int metric)
{
    uint64_t w = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t c = cost ? cost[j] : 1;
        if (x[j] && c == TOGGLE_COST_FORBIDDEN)
            return UINT64_MAX;
        w += c * (metric == TOGGLE_METRIC_CELLS ? (x[j] != 0) : x[j]);
    }
    return w;
}

/* A board: dense A, its system with start 0 and target b, and the solution. */
typedef struct {
    size_t R, C, n;
    uint64_t k;
    uint64_t *a, *b;
    toggle_graph *g;
    toggle_system *s;
    toggle_solution *sol;
} board;

static void board_free(board *B)
{
    tu_free_all(B->g, B->s, B->sol);
    free(B->a);
    free(B->b);
}

/* target = A x for x drawn per symmetry class of `sym` (bits of D4 that x
 * keeps: 0 = none), so the system is solvable and as symmetric as asked. */
static void board_new(board *B, size_t R, size_t C, uint32_t flags, uint64_t k, uint32_t sym,
                      tu_rng *r)
{
    memset(B, 0, sizeof *B);
    B->R = R;
    B->C = C;
    B->n = R * C;
    B->k = k;
    B->a = tu_grid_matrix(R, C, flags);
    B->b = calloc(B->n, sizeof *B->b);
    uint64_t *x = calloc(B->n, sizeof *x);
    for (size_t j = 0; j < B->n; j++)
        x[j] = tu_below(r, k);
    if (sym) { /* x(j) = x(orbit's first cell) */
        for (int pass = 0; pass < 8; pass++)
            for (size_t rr = 0; rr < R; rr++)
                for (size_t cc = 0; cc < C; cc++) {
                    size_t j = rr * C + cc;
                    size_t img[8] = {j, cc * R + (R - 1 - rr), (R - 1 - rr) * C + (C - 1 - cc),
                                     (C - 1 - cc) * R + rr, (R - 1 - rr) * C + cc,
                                     rr * C + (C - 1 - cc), cc * R + rr,
                                     (C - 1 - cc) * R + (R - 1 - rr)};
                    for (int s = 1; s < 8; s++)
                        if ((sym >> s) & 1)
                            x[img[s]] = x[j] < x[img[s]] ? x[j] : x[img[s]];
                }
    }
    tu_apply(B->a, B->n, B->n, x, k, B->b);
    free(x);
    ck_assert_int_eq(toggle_graph_new_grid(&B->g, R, C, flags), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&B->s, B->g, k, NULL, B->b), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&B->sol, B->s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_is_solvable(B->sol), 1);
}

/* Brute force: the least weight over every press vector x with A x = b. */
static uint64_t brute(const board *B, const uint64_t *cost, int metric)
{
    size_t n = B->n;
    uint64_t total = 1, best = UINT64_MAX;
    for (size_t j = 0; j < n; j++)
        total *= B->k;
    uint64_t *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
    for (uint64_t t = 0; t < total; t++) {
        uint64_t v = t;
        for (size_t j = 0; j < n; j++) {
            x[j] = v % B->k;
            v /= B->k;
        }
        uint64_t w = weigh(x, n, cost, metric);
        if (w >= best)
            continue;
        tu_apply(B->a, n, n, x, B->k, y);
        if (!memcmp(y, B->b, n * sizeof *y))
            best = w;
    }
    free(x);
    free(y);
    return best;
}

/* Run the internal search with o; check the answer solves the system and
 * weighs what it says; returns the weight (UINT64_MAX: none allowed). */
static uint64_t run_opts(const board *B, const toggle__fewest_opts *o, int *proven,
                         uint64_t *bound)
{
    toggle__space sp;
    ck_assert_int_eq(toggle__space_init(&sp, B->sol), TOGGLE_OK);
    toggle__fewest res = {0};
    res.x = calloc(B->n + 1, sizeof *res.x);
    ck_assert_int_eq(toggle__fewest_run_opts(&sp, o, &res), TOGGLE_OK);
    uint64_t w = UINT64_MAX;
    if (res.found) {
        uint64_t *y = calloc(B->n, sizeof *y);
        tu_apply(B->a, B->n, B->n, res.x, B->k, y);
        ck_assert_msg(!memcmp(y, B->b, B->n * sizeof *y), "the answer does not solve");
        free(y);
        w = weigh(res.x, B->n, o->cost, o->metric);
        ck_assert_uint_eq(w, res.weight);
        ck_assert_uint_le(res.bound, res.weight);
    }
    if (res.proven && res.found)
        ck_assert_uint_eq(res.bound, res.weight);
    *proven = res.proven;
    if (bound)
        *bound = res.bound;
    free(res.x);
    toggle__space_clear(&sp);
    return w;
}

START_TEST(fewest_costs_brute)
{
    /* k = 2, 3, 5, plain and torus, random costs 0..4 with forbidden cells,
     * both metrics: the search (split for k = 2, walk otherwise) and the
     * plain walk against every press vector */
    static const struct {
        size_t R, C;
        uint32_t flags;
        uint64_t k;
    } shapes[] = {{4, 4, 0, 2}, {4, 5, 0, 2}, {5, 4, 2, 2}, {3, 3, 0, 3}, {3, 4, 2, 3},
                  {2, 5, 0, 3}, {2, 4, 0, 5}, {3, 3, 2, 5}, {2, 3, 1, 5}};
    tu_rng r = tu_rng_for(171);
    for (size_t it = 0; it < tu_iters(3); it++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
            board B;
            board_new(&B, shapes[s].R, shapes[s].C, shapes[s].flags, shapes[s].k, 0, &r);
            uint64_t *cost = calloc(B.n, sizeof *cost);
            for (int variant = 0; variant < 3; variant++) {
                for (size_t j = 0; j < B.n; j++) {
                    uint64_t u = tu_below(&r, 10);
                    cost[j] = variant == 0 ? 1 : u < 2 && variant == 2 ? TOGGLE_COST_FORBIDDEN : u % 5;
                }
                for (int metric = 0; metric < 2; metric++) {
                    uint64_t want = brute(&B, cost, metric);
                    for (int plain = 0; plain < 2; plain++) {
                        toggle__fewest_opts o = {.metric = metric, .limit = UINT64_MAX,
                                                 .threads = 2, .cost = cost, .rows = B.R,
                                                 .cols = B.C, .plain = plain, .lsplit = 2};
                        int proven;
                        uint64_t got = run_opts(&B, &o, &proven, NULL);
                        ck_assert_msg(proven && got == want,
                                      "%zux%zu k=%llu variant %d metric %d plain %d: got %llu "
                                      "(proven %d), brute force %llu",
                                      B.R, B.C, (unsigned long long)B.k, variant, metric, plain,
                                      (unsigned long long)got, proven, (unsigned long long)want);
                    }
                }
            }
            free(cost);
            board_free(&B);
        }
}
END_TEST

START_TEST(fewest_split_vs_walk)
{
    /* d up to 24: symmetric and random starts; the split with symmetry,
     * without, with 1, 2, 3 threads and several split widths, against the
     * plain walk */
    static const struct {
        size_t R, C;
        uint32_t flags;
    } shapes[] = {{9, 9, 0}, {16, 16, 0}, {19, 19, 0}, {11, 11, 0}, {4, 19, 0}, {9, 14, 0},
                  {8, 8, 2}, {6, 6, 2}, {12, 12, 2}};
    static const uint32_t syms[] = {0, 0xFF, 0x05, 0x35, 0x41};
    tu_rng r = tu_rng_for(172);
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (size_t y = 0; y < sizeof syms / sizeof *syms; y++) {
            uint32_t sym = syms[y];
            if (shapes[s].R != shapes[s].C && (sym & 0xCA))
                continue;
            board B;
            board_new(&B, shapes[s].R, shapes[s].C, shapes[s].flags, 2, sym, &r);
            size_t d = toggle_solution_nullity(B.sol);
            if (d > 24) {
                board_free(&B);
                continue;
            }
            toggle__fewest_opts o = {.metric = 0, .limit = UINT64_MAX, .threads = 1,
                                     .plain = 1};
            int proven;
            uint64_t want = run_opts(&B, &o, &proven, NULL);
            ck_assert(proven);
            uint64_t *cost = NULL;
            for (int pass = 0; pass < 2; pass++) {
                if (pass) { /* symmetric costs: the same symmetries apply */
                    cost = calloc(B.n, sizeof *cost);
                    for (size_t j = 0; j < B.n; j++)
                        cost[j] = 1 + (j % B.C == 0 || j % B.C == B.C - 1 || j < B.C
                                       || j >= B.n - B.C);
                    o.plain = 1;
                    o.threads = 1;
                    o.cost = cost;
                    o.rows = o.cols = 0;
                    o.lsplit = 0;
                    want = run_opts(&B, &o, &proven, NULL);
                    ck_assert(proven);
                }
                for (size_t ls = 2; ls <= 20; ls += 5)
                    for (unsigned th = 1; th <= 3; th++)
                        for (int nosym = 0; nosym < 2; nosym++) {
                            o.plain = 0;
                            o.threads = th;
                            o.rows = B.R;
                            o.cols = B.C;
                            o.nosym = nosym;
                            o.lsplit = ls;
                            uint64_t got = run_opts(&B, &o, &proven, NULL);
                            ck_assert_msg(proven && got == want,
                                          "%zux%zu sym 0x%x d=%zu L=%zu threads %u nosym %d "
                                          "cost %d: %llu, walk %llu",
                                          B.R, B.C, sym, d, ls, th, nosym, pass,
                                          (unsigned long long)got, (unsigned long long)want);
                        }
            }
            free(cost);
            board_free(&B);
        }
}
END_TEST

START_TEST(fewest_limits)
{
    /* a limit equal to the number of solutions proves; a smaller one keeps
     * the best found with a bound no larger than the true minimum */
    tu_rng r = tu_rng_for(173);
    static const struct {
        size_t R, C;
        uint64_t k;
    } shapes[] = {{19, 19, 2}, {16, 16, 2}, {4, 4, 3}, {5, 5, 3}, {4, 4, 5}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        board B;
        board_new(&B, shapes[s].R, shapes[s].C, 0, shapes[s].k, 0, &r);
        uint64_t count = 0;
        ck_assert_int_eq(toggle_solution_count_u64(B.sol, &count), TOGGLE_OK);
        toggle__fewest_opts o = {.metric = 1, .limit = UINT64_MAX, .threads = 2};
        int proven;
        uint64_t bound, want = run_opts(&B, &o, &proven, NULL);
        ck_assert(proven);
        for (int plain = 0; plain < 2; plain++) {
            o.plain = plain;
            o.lsplit = 4;
            o.limit = count;
            ck_assert_uint_eq(run_opts(&B, &o, &proven, &bound), want);
            ck_assert_msg(proven, "limit = count (%llu) must prove", (unsigned long long)count);
            o.limit = count / 3 + 1;
            uint64_t got = run_opts(&B, &o, &proven, &bound);
            ck_assert_uint_ge(got, want);
            ck_assert_uint_le(bound, want);
            if (proven)
                ck_assert_uint_eq(got, want);
        }
        board_free(&B);
    }
}
END_TEST

START_TEST(fewest_forbidden_public)
{
    /* through the public handle: no allowed solution is TOGGLE_ENOSOLUTION;
     * unit costs give the unweighted answer */
    board B;
    tu_rng r = tu_rng_for(174);
    board_new(&B, 5, 5, 0, 2, 0, &r);
    toggle_search *se = NULL;
    ck_assert_int_eq(toggle_search_new(&se, B.sol), TOGGLE_OK);
    uint64_t *cost = calloc(B.n, sizeof *cost), w1, w2;
    for (size_t j = 0; j < B.n; j++)
        cost[j] = 1;
    ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_result(se, NULL, 0, &w1, NULL, NULL), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_set_costs(se, cost, B.n), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_result(se, NULL, 0, &w2, NULL, NULL), TOGGLE_OK);
    ck_assert_uint_eq(w1, w2);
    bool zero = true;
    for (size_t j = 0; j < B.n; j++) {
        cost[j] = TOGGLE_COST_FORBIDDEN;
        zero &= B.b[j] == 0;
    }
    ck_assert_int_eq(toggle_search_set_costs(se, cost, B.n), TOGGLE_OK);
    if (!zero) {
        TU_EXPECT(toggle_search_run(se), TOGGLE_ENOSOLUTION);
        TU_EXPECT(toggle_search_result(se, NULL, 0, &w2, NULL, NULL), TOGGLE_ENOSOLUTION);
        uint64_t lb = 0;
        ck_assert_int_eq(toggle_search_bound(se, &lb), TOGGLE_OK);
        ck_assert_uint_eq(lb, UINT64_MAX);
    }
    free(cost);
    toggle_search_free(se);
    board_free(&B);
}
END_TEST

START_TEST(fewest_a075464_54)
{
    /* n = 1..54 through the public API on every core (n = 39: d = 32,
     * n = 47: d = 30), each answer a solution of its weight, proven */
    for (size_t n = 1; n <= 54; n++) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        toggle_solution *sol = tu_solve_grid(n, n, 0, 2, &g, &s);
        toggle_search *se = NULL;
        ck_assert_int_eq(toggle_search_new(&se, sol), TOGGLE_OK);
        ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_THREADS, 0), TOGGLE_OK);
        ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
        uint64_t *x = calloc(n * n, sizeof *x), w, lb;
        int proven = 0, ok = 0;
        ck_assert_int_eq(toggle_search_result(se, x, n * n, &w, &proven, NULL), TOGGLE_OK);
        ck_assert_int_eq(toggle_search_bound(se, &lb), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_check(s, x, n * n, &ok), TOGGLE_OK);
        ck_assert_int_eq(ok, 1);
        ck_assert_uint_eq(weigh(x, n * n, NULL, 0), w);
        ck_assert_msg(proven && lb == w, "n=%zu not proven", n);
        ck_assert_msg(w == a075464[n - 1], "n=%zu (d=%zu): fewest %llu, A075464 %u", n,
                      toggle_solution_nullity(sol), (unsigned long long)w, a075464[n - 1]);
        free(x);
        toggle_search_free(se);
        tu_free_all(g, s, sol);
    }
}
END_TEST

/* Progress callback of the checkpoint test: every call gets through (the
 * rate limit is reset), and the cancel_at-th one cancels. */
typedef struct {
    toggle__progress_state *st;
    int calls, cancel_at;
} cancel_ctx;

static int cancel_cb(void *payload, double fraction)
{
    cancel_ctx *c = payload;
    (void)fraction;
    atomic_store(&c->st->last_ns, 0);
    return ++c->calls == c->cancel_at;
}

START_TEST(fewest_checkpoint)
{
    /* stopped half-way (by the limit, or cancelled by the progress
     * callback), then resumed with other thread counts: the same weight and
     * the same x as one uninterrupted run; a checkpoint of another search
     * is refused */
    tu_rng r = tu_rng_for(174);
    static const uint32_t syms[] = {0, 0xFF, 0x05};
    for (size_t y = 0; y < 3; y++) {
        board B;
        board_new(&B, 19, 19, 0, 2, syms[y], &r);
        toggle__space sp;
        ck_assert_int_eq(toggle__space_init(&sp, B.sol), TOGGLE_OK);
        toggle__fewest full = {0}, part = {0};
        full.x = calloc(B.n, sizeof *full.x);
        part.x = calloc(B.n, sizeof *part.x);
        toggle__fewest_opts o = {.metric = 0, .limit = UINT64_MAX, .threads = 2, .rows = 19,
                                 .cols = 19, .lsplit = 7};
        ck_assert_int_eq(toggle__fewest_run_opts(&sp, &o, &full), TOGGLE_OK);
        ck_assert(full.proven);
        for (int how = 0; how < 2; how++) {
            toggle__fewest_ckpt ck = {0};
            o.ck = &ck;
            o.threads = 3;
            int rc;
            if (how == 0) {
                o.limit = full.visited / 2;
                rc = toggle__fewest_run_opts(&sp, &o, &part);
                ck_assert_int_eq(rc, TOGGLE_OK);
            } else {
                /* one worker: the caller's thread reports (the pool's
                 * other workers may take every chunk of a small search) */
                o.threads = 1;
                cancel_ctx c = {&sp.progress, 0, 6};
                sp.progress.fn = cancel_cb;
                sp.progress.payload = &c;
                rc = toggle__fewest_run_opts(&sp, &o, &part);
                sp.progress.fn = NULL;
                ck_assert_int_eq(rc, TOGGLE_ECANCELED);
            }
            uint64_t done = 0;
            for (uint64_t k = 0; k < ck.nchunks; k++)
                done += ck.done[k];
            ck_assert_msg(done > 0 && done < ck.nchunks, "sym 0x%x how %d: %llu of %llu done",
                          syms[y], how, (unsigned long long)done,
                          (unsigned long long)ck.nchunks);
            ck_assert_uint_le(part.bound, full.weight);
            ck_assert_uint_ge(part.weight, full.weight);
            o.limit = UINT64_MAX;
            o.threads = how ? 2 : 1;
            ck_assert_int_eq(toggle__fewest_run_opts(&sp, &o, &part), TOGGLE_OK);
            ck_assert(part.proven);
            ck_assert_uint_eq(part.weight, full.weight);
            ck_assert(!memcmp(part.x, full.x, B.n * sizeof *part.x));
            ck_assert_uint_eq(part.visited, full.visited);
            /* the same checkpoint on another split: refused */
            o.lsplit = 8;
            ck_assert_int_eq(toggle__fewest_run_opts(&sp, &o, &part), TOGGLE_EINVAL);
            o.lsplit = 7;
            toggle__fewest_ckpt_clear(&ck);
            o.ck = NULL;
        }
        free(full.x);
        free(part.x);
        toggle__space_clear(&sp);
        board_free(&B);
    }
}
END_TEST

START_TEST(fewest_checkpoint_damaged)
{
    /* a multi-chunk checkpoint of a partial 39 x 39 search (nullity 32):
     * every single bit flip, every truncation and an extension are refused
     * as damaged checkpoints; the intact bytes resume, and the resumed run
     * goes on from the saved best (never worse) */
    tu_rng r = tu_rng_for(175);
    board B;
    board_new(&B, 39, 39, 0, 2, 0, &r);
    ck_assert_uint_eq(toggle_solution_nullity(B.sol), 32);
    toggle_search *se = NULL;
    ck_assert_int_eq(toggle_search_new(&se, B.sol), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, 1u << 23),
                     TOGGLE_OK);
    ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
    uint64_t first = 0, w = 0;
    int proven = 1;
    ck_assert_int_eq(toggle_search_result(se, NULL, 0, &first, &proven, NULL), TOGGLE_OK);
    ck_assert(!proven);
    size_t len = 0;
    ck_assert_int_eq(toggle_search_save(se, NULL, 0, &len), TOGGLE_EBUFSIZE);
    ck_assert_uint_gt(len, 100); /* more than a few chunks */
    unsigned char *ck = malloc(len + 1), *bad = malloc(len + 1);
    ck_assert_int_eq(toggle_search_save(se, ck, len, &len), TOGGLE_OK);
    toggle_search_free(se);
    ck_assert_int_eq(toggle_search_new(&se, B.sol), TOGGLE_OK);
    for (size_t bit = 0; bit < 8 * len; bit++) {
        memcpy(bad, ck, len);
        bad[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        ck_assert_msg(toggle_search_resume(se, bad, len) == TOGGLE_EINVAL,
                      "a flip of bit %zu of %zu was resumed", bit, 8 * len);
        ck_assert_msg(strstr(toggle_last_error(), "checkpoint"), "bit %zu: %s", bit,
                      toggle_last_error());
    }
    for (size_t cut = 0; cut < len; cut++)
        ck_assert_int_eq(toggle_search_resume(se, ck, cut), TOGGLE_EINVAL);
    memcpy(bad, ck, len);
    bad[len] = 0;
    ck_assert_int_eq(toggle_search_resume(se, bad, len + 1), TOGGLE_EINVAL);
    ck_assert(strstr(toggle_last_error(), "damaged checkpoint"));
    ck_assert_int_eq(toggle_search_resume(se, ck, len), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, 1u << 23),
                     TOGGLE_OK);
    ck_assert_int_eq(toggle_search_run(se), TOGGLE_OK);
    ck_assert_int_eq(toggle_search_result(se, NULL, 0, &w, &proven, NULL), TOGGLE_OK);
    ck_assert_uint_le(w, first);
    free(ck);
    free(bad);
    toggle_search_free(se);
    board_free(&B);
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("fewest");
    TCase *tc = tcase_create("fewest");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, fewest_costs_brute);
    tcase_add_test(tc, fewest_split_vs_walk);
    tcase_add_test(tc, fewest_limits);
    tcase_add_test(tc, fewest_forbidden_public);
    tcase_add_test(tc, fewest_checkpoint);
    tcase_add_test(tc, fewest_checkpoint_damaged);
    tcase_add_test(tc, fewest_a075464_54);
    suite_add_tcase(su, tc);
    return su;
}

int main(void) { return tu_run(suite()); }
