/* Row operations step by step (steps.h): Gauss-Jordan traces replayed by the
 * test's own arithmetic, hand operations with undo and redo against the
 * test's own matrix, scripts, budgets, misuse, and chaos boards. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ---- the test's own augmented matrix ----------------------------------- */

typedef struct {
    size_t m, w;
    uint64_t k, *e;
} mat;

static mat mat_random(tu_rng *r, size_t m, size_t n, uint64_t k, unsigned zero_pct)
{
    mat M = {m, n + 1, k, calloc(m * (n + 1) + 1, 8)};
    for (size_t i = 0; i < m * M.w; i++)
        M.e[i] = tu_below(r, 100) < zero_pct ? 0 : tu_below(r, k);
    return M;
}

static toggle_system *mat_system(const mat *M)
{
    size_t n = M->w - 1;
    uint64_t *a = calloc(M->m * n + 1, 8), *b = calloc(M->m + 1, 8);
    for (size_t i = 0; i < M->m; i++) {
        memcpy(a + i * n, M->e + i * M->w, n * 8);
        b[i] = M->e[i * M->w + n];
    }
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, M->m, n, a, b, M->k), TOGGLE_OK);
    free(a);
    free(b);
    return s;
}

/* Apply one operation by the test's own arithmetic (same meaning as steps.h). */
static void mat_apply(mat *M, int op, size_t a, size_t b, uint64_t c)
{
    uint64_t *ra = M->e + a * M->w, *tmp = malloc(M->w * 8);
    if (op == TOGGLE_STEP_ADD) {
        for (size_t j = 0; j < M->w; j++)
            M->e[b * M->w + j] = tu_addmod(M->e[b * M->w + j], tu_mulmod(c, ra[j], M->k), M->k);
    } else if (op == TOGGLE_STEP_SCALE) {
        for (size_t j = 0; j < M->w; j++)
            ra[j] = tu_mulmod(c, ra[j], M->k);
    } else if (op == TOGGLE_STEP_SWAP) {
        memcpy(tmp, ra, M->w * 8);
        memcpy(ra, M->e + b * M->w, M->w * 8);
        memcpy(M->e + b * M->w, tmp, M->w * 8);
    } else { /* move: take a out, insert before old b */
        uint64_t *copy = malloc(M->m * M->w * 8);
        size_t at = 0;
        for (size_t i = 0; i <= M->m; i++) {
            if (i == b)
                memcpy(copy + at++ * M->w, ra, M->w * 8);
            if (i < M->m && i != a)
                memcpy(copy + at++ * M->w, M->e + i * M->w, M->w * 8);
        }
        memcpy(M->e, copy, M->m * M->w * 8);
        free(copy);
    }
    free(tmp);
}

static void expect_same(const toggle_steps *st, const mat *M, const char *when)
{
    for (size_t i = 0; i < M->m; i++)
        for (size_t j = 0; j < M->w; j++) {
            uint64_t v;
            ck_assert_int_eq(toggle_steps_entry(st, i, j, &v), TOGGLE_OK);
            ck_assert_msg(v == M->e[i * M->w + j], "%s: entry (%zu,%zu) is %llu, expected %llu",
                          when, i, j, (unsigned long long)v,
                          (unsigned long long)M->e[i * M->w + j]);
        }
}

static uint64_t inv_own(uint64_t a, uint64_t k)
{
    for (uint64_t x = 1; x < k; x++)
        if (tu_mulmod(a, x, k) == 1)
            return x;
    return 0;
}

/* The reduced row echelon form over F_p by the test's own elimination. */
static void rref_own(mat *M)
{
    size_t r = 0;
    for (size_t j = 0; j < M->w && r < M->m; j++) {
        size_t p = r;
        while (p < M->m && !M->e[p * M->w + j])
            p++;
        if (p == M->m)
            continue;
        if (p != r)
            mat_apply(M, TOGGLE_STEP_SWAP, p, r, 0);
        mat_apply(M, TOGGLE_STEP_SCALE, r, 0, inv_own(M->e[r * M->w + j], M->k));
        for (size_t i = 0; i < M->m; i++)
            if (i != r && M->e[i * M->w + j])
                mat_apply(M, TOGGLE_STEP_ADD, r, i, M->k - M->e[i * M->w + j]);
        r++;
    }
}

/* Is M in reduced row echelon form (pivots 1, alone in their columns)? */
static int is_rref(const mat *M)
{
    size_t last = SIZE_MAX, zero_rows = 0;
    for (size_t i = 0; i < M->m; i++) {
        size_t j = 0;
        while (j < M->w && !M->e[i * M->w + j])
            j++;
        if (j == M->w) {
            zero_rows++;
            continue;
        }
        if (zero_rows || (last != SIZE_MAX && j <= last) || M->e[i * M->w + j] != 1)
            return 0;
        for (size_t i2 = 0; i2 < M->m; i2++)
            if (i2 != i && M->e[i2 * M->w + j])
                return 0;
        last = j;
    }
    return 1;
}

static int prime_own(uint64_t k)
{
    for (uint64_t d = 2; d * d <= k; d++)
        if (k % d == 0)
            return 0;
    return k >= 2;
}

/* The solution the handle reports solves the ORIGINAL system (own arithmetic). */
static void check_solution(const toggle_steps *st, const mat *orig, int expect_solvable)
{
    size_t n = orig->w - 1, nul = 0;
    uint64_t *x = calloc(n + 1, 8), *y = calloc(orig->m + 1, 8), *a = calloc(orig->m * n + 1, 8);
    int rc = toggle_steps_solution(st, x, n, &nul);
    if (!expect_solvable) {
        ck_assert_int_eq(rc, TOGGLE_ENOSOLUTION);
    } else {
        ck_assert_int_eq(rc, TOGGLE_OK);
        for (size_t i = 0; i < orig->m; i++)
            memcpy(a + i * n, orig->e + i * orig->w, n * 8);
        tu_apply(a, orig->m, n, x, orig->k, y);
        for (size_t i = 0; i < orig->m; i++)
            ck_assert_uint_eq(y[i], orig->e[i * orig->w + n]);
        if (prime_own(orig->k))
            ck_assert_uint_eq(nul, n - tu_rank(a, orig->m, n, orig->k));
    }
    free(x);
    free(y);
    free(a);
}

/* Copy the handle's matrix into a mat. */
static mat mat_of(const toggle_steps *st)
{
    mat M = {toggle_steps_rows(st), toggle_steps_cols(st) + 1, toggle_steps_modulus(st), NULL};
    M.e = calloc(M.m * M.w + 1, 8);
    for (size_t i = 0; i < M.m; i++)
        for (size_t j = 0; j < M.w; j++)
            ck_assert_int_eq(toggle_steps_entry(st, i, j, &M.e[i * M.w + j]), TOGGLE_OK);
    return M;
}

/* Replay the trace on a copy of the input with the test's own arithmetic. */
static mat replay(const toggle_steps *st, const mat *orig)
{
    mat R = *orig;
    R.e = malloc(orig->m * orig->w * 8 + 8);
    memcpy(R.e, orig->e, orig->m * orig->w * 8);
    for (size_t t = 0; t < toggle_steps_count(st); t++) {
        int op;
        size_t a, b;
        uint64_t c;
        ck_assert_int_eq(toggle_steps_op(st, t, &op, &a, &b, &c), TOGGLE_OK);
        mat_apply(&R, op, a, b, c);
    }
    return R;
}

static const uint64_t moduli[] = {2, 3, 5, 7, 4, 6, 9, 10, 12};

START_TEST(gauss_jordan_replay)
{
    tu_rng r = tu_rng_for(1);
    size_t reduced_composite = 0, refused = 0;
    for (size_t it = 0; it < tu_iters(300); it++) {
        uint64_t k = moduli[it % (sizeof moduli / sizeof *moduli)];
        size_t m = 1 + tu_below(&r, 8), n = tu_below(&r, 9);
        mat M = mat_random(&r, m, n, k, (unsigned)tu_below(&r, 70));
        toggle_system *s = mat_system(&M);
        toggle_steps *st = NULL;
        ck_assert_int_eq(toggle_steps_new(&st, s), TOGGLE_OK);
        expect_same(st, &M, "fresh");
        size_t done = 0;
        toggle_clear_error();
        int rc = toggle_steps_auto(st, SIZE_MAX, &done);
        int reduced = 0, unsolvable = 0;
        ck_assert_int_eq(toggle_steps_status(st, NULL, &reduced, &unsolvable), TOGGLE_OK);
        mat R = replay(st, &M);
        expect_same(st, &R, "replayed trace");
        ck_assert_uint_eq(done, toggle_steps_count(st));
        if (prime_own(k)) {
            ck_assert_int_eq(rc, TOGGLE_OK);
            ck_assert_str_eq(toggle_last_error(), "");
            ck_assert(reduced && is_rref(&R));
            mat O = mat_of(st);
            memcpy(O.e, M.e, m * (n + 1) * 8);
            rref_own(&O); /* the RREF is unique over a field */
            expect_same(st, &O, "own rref");
            free(O.e);
            uint64_t *a = calloc(m * n + 1, 8);
            for (size_t i = 0; i < m; i++)
                memcpy(a + i * n, M.e + i * (n + 1), n * 8);
            int solvable = tu_rank(a, m, n, k) == tu_rank(M.e, m, n + 1, k);
            free(a);
            ck_assert_int_eq(unsolvable, !solvable);
            check_solution(st, &M, solvable);
        } else if (reduced) {
            reduced_composite++;
            ck_assert(is_rref(&R));
            check_solution(st, &M, !unsolvable);
        } else {
            /* documented refusal: the next call makes no step */
            refused++;
            TU_EXPECT(toggle_steps_auto(st, SIZE_MAX, &done), TOGGLE_EUNSUPPORTED);
            ck_assert_uint_eq(toggle_steps_count(st), R.m ? toggle_steps_count(st) : 0);
            expect_same(st, &R, "after the refusal");
        }
        free(R.e);
        free(M.e);
        toggle_steps_free(st);
        toggle_system_free(s);
    }
    ck_assert_msg(reduced_composite > 0 && refused > 0, "composite cases: %zu reduced, %zu refused",
                  reduced_composite, refused);
}
END_TEST

/* Random hand operations, good and bad, with undo and redo: every state
 * equals the test's own matrix, and every bad operation changes nothing. */
START_TEST(hand_ops_undo_redo)
{
    tu_rng r = tu_rng_for(2);
    for (size_t it = 0; it < tu_iters(60); it++) {
        uint64_t k = moduli[it % (sizeof moduli / sizeof *moduli)];
        size_t m = 1 + tu_below(&r, 6), n = tu_below(&r, 6);
        mat M = mat_random(&r, m, n, k, 30);
        mat orig = M;
        orig.e = malloc(m * (n + 1) * 8);
        memcpy(orig.e, M.e, m * (n + 1) * 8);
        toggle_system *s = mat_system(&M);
        toggle_steps *st = NULL;
        ck_assert_int_eq(toggle_steps_new(&st, s), TOGGLE_OK);
        /* the test's own history: state[d] is the matrix after d operations */
        size_t cap = 64, depth = 0, redo_avail = 0, bytes = m * (n + 1) * 8;
        uint64_t **state = calloc(cap + 1, sizeof *state);
        state[0] = malloc(bytes);
        memcpy(state[0], M.e, bytes);
        for (size_t t = 0; t < 40 && depth < cap; t++) {
            int what = (int)tu_below(&r, 7);
            size_t a = tu_below(&r, m + 1), b = tu_below(&r, m + 2);
            uint64_t c = tu_below(&r, k + 1);
            if (what >= 4) { /* undo or redo some */
                size_t cnt = tu_below(&r, 3);
                int undo = what != 5;
                size_t avail = undo ? depth : redo_avail;
                int rc = undo ? toggle_steps_undo(st, cnt) : toggle_steps_redo(st, cnt);
                if (cnt > avail) {
                    ck_assert_int_eq(rc, TOGGLE_ERANGE);
                } else {
                    ck_assert_int_eq(rc, TOGGLE_OK);
                    depth = undo ? depth - cnt : depth + cnt;
                    redo_avail = undo ? redo_avail + cnt : redo_avail - cnt;
                    memcpy(M.e, state[depth], bytes);
                }
                expect_same(st, &M, "after undo/redo");
                ck_assert_uint_eq(toggle_steps_count(st), depth);
                ck_assert_uint_eq(toggle_steps_redo_count(st), redo_avail);
                continue;
            }
            int op = what + 1;
            int valid = a < m && c < k;
            if (op == TOGGLE_STEP_ADD)
                valid = valid && b < m && a != b && c != 0;
            else if (op == TOGGLE_STEP_SCALE)
                valid = valid && inv_own(c, k) != 0;
            else if (op == TOGGLE_STEP_SWAP)
                valid = a < m && b < m && a != b;
            else
                valid = a < m && b <= m && b != a && b != a + 1;
            toggle_clear_error();
            int rc = op == TOGGLE_STEP_ADD     ? toggle_steps_add(st, a, b, c)
                     : op == TOGGLE_STEP_SCALE ? toggle_steps_scale(st, a, c)
                     : op == TOGGLE_STEP_SWAP  ? toggle_steps_swap(st, a, b)
                                               : toggle_steps_move(st, a, b);
            ck_assert_msg((rc == TOGGLE_OK) == valid, "op %d (%zu, %zu, %llu) on %zu rows mod %llu: %s",
                          op, a, b, (unsigned long long)c, m, (unsigned long long)k,
                          toggle_status_name(rc));
            if (valid) {
                ck_assert_str_eq(toggle_last_error(), "");
                mat_apply(&M, op, a, b, c);
                depth++;
                redo_avail = 0;
                free(state[depth]);
                state[depth] = malloc(bytes);
                memcpy(state[depth], M.e, bytes);
            } else {
                ck_assert(toggle_last_error()[0] != '\0');
            }
            expect_same(st, &M, "after a hand operation");
        }
        /* the state stays row-equivalent: its RREF is the input's (prime k) */
        if (prime_own(k)) {
            ck_assert_int_eq(toggle_steps_auto(st, SIZE_MAX, NULL), TOGGLE_OK);
            rref_own(&orig);
            expect_same(st, &orig, "rref of the hand-worked state");
        }
        for (size_t i = 0; i <= cap; i++)
            free(state[i]);
        free(state);
        free(M.e);
        free(orig.e);
        toggle_steps_free(st);
        toggle_system_free(s);
    }
}
END_TEST

static toggle_steps *steps_of(const mat *M, toggle_system **s)
{
    *s = mat_system(M);
    toggle_steps *st = NULL;
    ck_assert_int_eq(toggle_steps_new(&st, *s), TOGGLE_OK);
    return st;
}

static char *script_of(const toggle_steps *st, size_t first)
{
    size_t need = 0;
    TU_EXPECT(toggle_steps_write(st, first, NULL, 0, &need), TOGGLE_EBUFSIZE);
    char *buf = malloc(need);
    ck_assert_int_eq(toggle_steps_write(st, first, buf, need, NULL), TOGGLE_OK);
    ck_assert_uint_eq(strlen(buf) + 1, need);
    return buf;
}

/* The written trace read back into a fresh handle gives the same matrix. */
START_TEST(script_round_trip)
{
    tu_rng r = tu_rng_for(3);
    for (size_t it = 0; it < tu_iters(40); it++) {
        uint64_t k = moduli[it % 4];
        mat M = mat_random(&r, 1 + tu_below(&r, 7), tu_below(&r, 7), k, 20);
        toggle_system *s1, *s2;
        toggle_steps *a = steps_of(&M, &s1), *b = steps_of(&M, &s2);
        ck_assert_int_eq(toggle_steps_auto(a, SIZE_MAX, NULL), TOGGLE_OK);
        char *text = script_of(a, 0);
        size_t applied = 0;
        ck_assert_int_eq(toggle_steps_apply(b, text, strlen(text), &applied), TOGGLE_OK);
        ck_assert_uint_eq(applied, toggle_steps_count(a));
        mat A = mat_of(a);
        expect_same(b, &A, "script replay");
        /* a part of the trace, and auto N in pieces, agree too */
        ck_assert_int_eq(toggle_steps_undo(b, applied), TOGGLE_OK);
        size_t total = 0, done = 1;
        while (done) {
            ck_assert_int_eq(toggle_steps_auto(b, 2, &done), TOGGLE_OK);
            ck_assert_uint_le(done, 2);
            total += done;
        }
        ck_assert_uint_eq(total, applied);
        expect_same(b, &A, "auto in steps of 2");
        free(A.e);
        free(text);
        free(M.e);
        toggle_steps_free(a);
        toggle_steps_free(b);
        toggle_system_free(s1);
        toggle_system_free(s2);
    }
}
END_TEST

/* Every bad command is refused with its status and changes nothing. */
START_TEST(script_errors)
{
    uint64_t e[] = {1, 2, 0, 1, 0, 3, 4, 2, 1, 1, 1, 0};
    mat M = {3, 4, 6, e};
    toggle_system *s;
    toggle_steps *st = steps_of(&M, &s);
    static const struct {
        const char *text;
        int status;
        const char *says;
    } bad[] = {
        {"frobnicate 1 2", TOGGLE_EPARSE, "unknown command"},
        {"add", TOGGLE_EPARSE, "row number is missing"},
        {"add 0", TOGGLE_EPARSE, "row number is missing"},
        {"add 0 0", TOGGLE_EINVAL, "itself"},
        {"add 0 3", TOGGLE_ERANGE, "out of range"},
        {"add x 1", TOGGLE_EPARSE, "not a number"},
        {"add 0*6 1", TOGGLE_EINVAL, "0 mod 6"},
        {"add 0*-12 1", TOGGLE_EINVAL, "0 mod 6"},
        {"add 0*", TOGGLE_EPARSE, "expected a number"},
        {"add 0 1 1 9", TOGGLE_ERANGE, "out of range"},
        {"scale 0 2", TOGGLE_EINVAL, "not a unit"},
        {"scale 0 3", TOGGLE_EINVAL, "not a unit"},
        {"scale 0", TOGGLE_EPARSE, "expected a number"},
        {"scale 5 1", TOGGLE_ERANGE, "out of range"},
        {"swap 1 1", TOGGLE_EINVAL, "two different"},
        {"swap 1", TOGGLE_EPARSE, "missing"},
        {"swap 1 2 0", TOGGLE_EPARSE, "unexpected"},
        {"move 1 2", TOGGLE_EINVAL, "already"},
        {"move 1 1", TOGGLE_EINVAL, "already"},
        {"move 0 4", TOGGLE_ERANGE, "out of range"},
        {"add 99999999999999999999 1", TOGGLE_EPARSE, "too large"},
        {"swap 0 1\nswap 1 2\nscale 2 4\n", TOGGLE_EINVAL, "line 3: scale"},
        {"*", TOGGLE_EPARSE, "'*'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t applied = 77;
        TU_EXPECT(toggle_steps_apply(st, bad[i].text, strlen(bad[i].text), &applied),
                  bad[i].status);
        ck_assert_msg(strstr(toggle_last_error(), bad[i].says), "'%s' says '%s'", bad[i].text,
                      toggle_last_error());
        ck_assert_uint_eq(applied, 77);
        ck_assert_uint_eq(toggle_steps_count(st), 0);
        expect_same(st, &M, bad[i].text);
    }
    /* good ones: comments, blank lines, several targets, negative multipliers */
    const char *good = "# a comment\n\n  add 0*-1 1 2  # two targets\nmove 2 0\nswap 0 1\nscale 1 5\nmove 0 3\n";
    size_t applied = 0;
    ck_assert_int_eq(toggle_steps_apply(st, good, strlen(good), &applied), TOGGLE_OK);
    ck_assert_uint_eq(applied, 6);
    mat_apply(&M, TOGGLE_STEP_ADD, 0, 1, 5);
    mat_apply(&M, TOGGLE_STEP_ADD, 0, 2, 5);
    mat_apply(&M, TOGGLE_STEP_MOVE, 2, 0, 0);
    mat_apply(&M, TOGGLE_STEP_SWAP, 0, 1, 0);
    mat_apply(&M, TOGGLE_STEP_SCALE, 1, 0, 5);
    mat_apply(&M, TOGGLE_STEP_MOVE, 0, 3, 0);
    expect_same(st, &M, "good script");
    char *text = script_of(st, 4);
    ck_assert_str_eq(text, "scale 1 5\nmove 0 3\n");
    free(text);
    toggle_steps_free(st);
    toggle_system_free(s);
}
END_TEST

START_TEST(budget_and_misuse)
{
    tu_rng r = tu_rng_for(4);
    mat M = mat_random(&r, 20, 20, 5, 0);
    for (size_t i = 0; i < 20; i++) { /* b = A (1, ..., 1): solvable */
        uint64_t sum = 0;
        for (size_t j = 0; j < 20; j++)
            sum += M.e[i * 21 + j];
        M.e[i * 21 + 20] = sum % 5;
    }
    toggle_system *s = mat_system(&M);
    toggle_steps *st = NULL;
    /* the matrix alone is 21 * 21 * 8 bytes */
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 3000), TOGGLE_OK);
    TU_EXPECT(toggle_steps_new(&st, s), TOGGLE_ENOMEM);
    ck_assert_ptr_null(st);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 4000), TOGGLE_OK);
    ck_assert_int_eq(toggle_steps_new(&st, s), TOGGLE_OK);
    size_t done = 99;
    TU_EXPECT(toggle_steps_auto(st, SIZE_MAX, &done), TOGGLE_ENOMEM); /* the trace does not fit */
    ck_assert_uint_eq(done, 99);
    ck_assert_uint_eq(toggle_steps_count(st), 0);
    expect_same(st, &M, "after the refused auto");
    ck_assert_int_eq(toggle_steps_auto(st, 3, &done), TOGGLE_OK);
    ck_assert_uint_eq(done, 3);
    toggle_steps_free(st);

    /* misuse: every entry point, NULLs and ranges */
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0), TOGGLE_OK);
    ck_assert_int_eq(toggle_steps_new(&st, s), TOGGLE_OK);
    uint64_t v, x[20];
    size_t cnt, piv[1];
    TU_EXPECT(toggle_steps_new(NULL, s), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_new(&st, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_entry(NULL, 0, 0, &v), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_entry(st, 0, 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_entry(st, 20, 0, &v), TOGGLE_ERANGE);
    TU_EXPECT(toggle_steps_entry(st, 0, 21, &v), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_steps_entry(st, 0, 20, &v), TOGGLE_OK);
    TU_EXPECT(toggle_steps_add(NULL, 0, 1, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_add(st, 0, 1, 5), TOGGLE_ERANGE);
    TU_EXPECT(toggle_steps_scale(NULL, 0, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_scale(st, 0, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_swap(NULL, 0, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_move(NULL, 0, 1), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_apply(NULL, "", 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_apply(st, NULL, 3, NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_steps_apply(st, NULL, 0, NULL), TOGGLE_OK);
    TU_EXPECT(toggle_steps_auto(NULL, 1, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_undo(NULL, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_undo(st, 1), TOGGLE_ERANGE);
    TU_EXPECT(toggle_steps_redo(NULL, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_redo(st, 1), TOGGLE_ERANGE);
    TU_EXPECT(toggle_steps_op(NULL, 0, NULL, NULL, NULL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_op(st, 0, NULL, NULL, NULL, NULL), TOGGLE_ERANGE);
    TU_EXPECT(toggle_steps_write(NULL, 0, NULL, 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_write(st, 0, NULL, 5, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_write(st, 1, NULL, 0, NULL), TOGGLE_ERANGE);
    TU_EXPECT(toggle_steps_status(NULL, NULL, NULL, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_pivots(NULL, NULL, 0, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_pivots(st, NULL, 2, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_solution(NULL, x, 20, NULL), TOGGLE_EINVAL);
    TU_EXPECT(toggle_steps_solution(st, x, 20, NULL), TOGGLE_EINVAL); /* not reduced */
    TU_EXPECT(toggle_steps_system(NULL, NULL), TOGGLE_EINVAL);
    ck_assert_uint_eq(toggle_steps_rows(NULL) + toggle_steps_cols(NULL) + toggle_steps_count(NULL)
                          + toggle_steps_redo_count(NULL) + toggle_steps_modulus(NULL),
                      0);
    toggle_steps_free(NULL);
    /* reduced: solution and pivots, buffers too small, the system copy */
    ck_assert_int_eq(toggle_steps_auto(st, SIZE_MAX, NULL), TOGGLE_OK);
    TU_EXPECT(toggle_steps_solution(st, x, 19, NULL), TOGGLE_EBUFSIZE);
    TU_EXPECT(toggle_steps_pivots(st, piv, 1, &cnt), TOGGLE_EBUFSIZE);
    ck_assert_uint_ge(cnt, 2);
    check_solution(st, &M, 1);
    toggle_system *copy = NULL;
    ck_assert_int_eq(toggle_steps_system(st, &copy), TOGGLE_OK);
    for (size_t i = 0; i < 20; i++) {
        ck_assert_int_eq(toggle_system_rhs(copy, i, &v), TOGGLE_OK);
        uint64_t want;
        ck_assert_int_eq(toggle_steps_entry(st, i, 20, &want), TOGGLE_OK);
        ck_assert_uint_eq(v, want);
    }
    toggle_system_free(copy);
    toggle_steps_free(st);
    toggle_system_free(s);
    free(M.e);
}
END_TEST

/* ---- chaos boards -------------------------------------------------------- */

static uint64_t *chaos_matrix(const toggle_graph *g, size_t n)
{
    uint64_t *a = calloc(n * n + 1, 8);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            ck_assert_int_eq(toggle_graph_entry(g, i, j, &a[i * n + j]), TOGGLE_OK);
    return a;
}

START_TEST(chaos_density_radius_seed)
{
    tu_rng r = tu_rng_for(5);
    const double dens[] = {0.0, 0.05, 0.3, 0.5, 0.9, 1.0};
    for (size_t d = 0; d < sizeof dens / sizeof *dens; d++) {
        uint64_t seed = tu_next(&r);
        toggle_graph *g = NULL, *h = NULL;
        ck_assert_int_eq(toggle_graph_new_chaos(&g, 12, 12, dens[d], TOGGLE_CHAOS_ANY_DISTANCE, seed),
                         TOGGLE_OK);
        size_t n = 144, ones = 0;
        uint64_t *a = chaos_matrix(g, n);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                if (i == j)
                    ck_assert_uint_eq(a[i * n + j], 1);
                else
                    ones += a[i * n + j] != 0;
            }
        double trials = (double)(n * (n - 1)), mean = trials * dens[d];
        double sigma = sqrt(trials * dens[d] * (1 - dens[d]));
        ck_assert_msg(fabs((double)ones - mean) <= 6 * sigma + 0.5,
                      "density %g: %zu ones of %.0f (seed %llu)", dens[d], ones, trials,
                      (unsigned long long)seed);
        /* the same seed gives the same board */
        ck_assert_int_eq(toggle_graph_new_chaos(&h, 12, 12, dens[d], TOGGLE_CHAOS_ANY_DISTANCE, seed),
                         TOGGLE_OK);
        uint64_t *b = chaos_matrix(h, n);
        ck_assert_mem_eq(a, b, n * n * 8);
        toggle_graph_free(h);
        if (dens[d] > 0.2 && dens[d] < 0.8) {
            ck_assert_int_eq(toggle_graph_new_chaos(&h, 12, 12, dens[d], TOGGLE_CHAOS_ANY_DISTANCE,
                                                    seed + 1),
                             TOGGLE_OK);
            free(b);
            b = chaos_matrix(h, n);
            ck_assert(memcmp(a, b, n * n * 8) != 0);
            toggle_graph_free(h);
        }
        free(a);
        free(b);
        toggle_graph_free(g);
    }
    /* radius: only cells within Chebyshev distance R */
    for (size_t rad = 0; rad < 3; rad++) {
        toggle_graph *g = NULL;
        ck_assert_int_eq(toggle_graph_new_chaos(&g, 7, 9, 1.0, rad, 1), TOGGLE_OK);
        uint64_t *a = chaos_matrix(g, 63);
        for (size_t i = 0; i < 63; i++)
            for (size_t j = 0; j < 63; j++) {
                size_t dr = i / 9 > j / 9 ? i / 9 - j / 9 : j / 9 - i / 9;
                size_t dc = i % 9 > j % 9 ? i % 9 - j % 9 : j % 9 - i % 9;
                ck_assert_uint_eq(a[i * 63 + j], (dr <= rad && dc <= rad) ? 1 : 0);
            }
        free(a);
        toggle_graph_free(g);
    }
    toggle_graph *g = NULL;
    TU_EXPECT(toggle_graph_new_chaos(NULL, 2, 2, 0.5, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_chaos(&g, 0, 2, 0.5, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_chaos(&g, 2, 2, -0.1, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_chaos(&g, 2, 2, 1.5, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_chaos(&g, 2, 2, NAN, 1, 0), TOGGLE_EINVAL);
    TU_EXPECT(toggle_graph_new_chaos(&g, SIZE_MAX, 2, 0.5, 1, 0), TOGGLE_EOVERFLOW);
    ck_assert_ptr_null(g);
}
END_TEST

/* Brute force over every press vector: is A x = b solvable, how many
 * solutions, the fewest cells pressed. */
static void brute(const uint64_t *a, const uint64_t *b, size_t n, uint64_t k, uint64_t *count,
                  uint64_t *fewest)
{
    uint64_t total = 1, *x = calloc(n + 1, 8), *y = calloc(n + 1, 8);
    for (size_t j = 0; j < n; j++)
        total *= k;
    *count = 0;
    *fewest = UINT64_MAX;
    for (uint64_t t = 0; t < total; t++) {
        uint64_t u = t, w = 0;
        for (size_t j = 0; j < n; j++, u /= k)
            w += (x[j] = u % k) != 0;
        tu_apply(a, n, n, x, k, y);
        if (memcmp(y, b, n * 8))
            continue;
        ++*count;
        if (w < *fewest)
            *fewest = w;
    }
    free(x);
    free(y);
}

/* Generated starts on chaos boards: solvable, unique when asked, the fewest
 * presses when asked (all by brute force), reproducible from the seed. */
START_TEST(chaos_generator)
{
    tu_rng r = tu_rng_for(6);
    size_t unique_boards = 0;
    /* at least one board with a unique solution is needed for the mode-1
     * checks: go on past tu_iters (scaled down under sanitizers) until one
     * comes, within a bound */
    for (size_t it = 0; it < tu_iters(24) || (!unique_boards && it < 400); it++) {
        uint64_t k = it % 3 == 2 ? 3 : 2, seed = tu_next(&r);
        size_t rows = 2 + it % 2, cols = 3, n = rows * cols;
        toggle_graph *g = NULL;
        ck_assert_int_eq(toggle_graph_new_chaos(&g, rows, cols, 0.4, TOGGLE_CHAOS_ANY_DISTANCE, seed),
                         TOGGLE_OK);
        uint64_t *a = chaos_matrix(g, n), start[9], again[9], b[9], count, fewest, w;
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_system_new(&s, g, k, NULL, NULL), TOGGLE_OK);
        int unique = tu_rank(a, n, n, k) == n;
        for (int mode = 0; mode < 3; mode++) {
            toggle_generator *gen = NULL, *gen2 = NULL;
            ck_assert_int_eq(toggle_generator_new(&gen, s), TOGGLE_OK);
            ck_assert_int_eq(toggle_generator_new(&gen2, s), TOGGLE_OK);
            uint64_t want = 1 + tu_below(&r, 3);
            for (toggle_generator *q = gen; q; q = q == gen ? gen2 : NULL) {
                ck_assert_int_eq(toggle_generator_set_option(q, TOGGLE_GENERATOR_OPT_SEED, seed), TOGGLE_OK);
                if (mode == 1)
                    ck_assert_int_eq(toggle_generator_set_option(q, TOGGLE_GENERATOR_OPT_UNIQUE, 1), TOGGLE_OK);
                if (mode == 2)
                    ck_assert_int_eq(toggle_generator_set_option(q, TOGGLE_GENERATOR_OPT_PRESSES, want),
                                     TOGGLE_OK);
            }
            int rc = toggle_generator_next(gen, start, n, &w);
            if (mode == 1 && !unique) {
                ck_assert_int_eq(rc, TOGGLE_ENOSOLUTION);
            } else if (rc == TOGGLE_OK) {
                ck_assert_int_eq(toggle_generator_next(gen2, again, n, NULL), TOGGLE_OK);
                ck_assert_mem_eq(start, again, n * 8);
                for (size_t i = 0; i < n; i++)
                    b[i] = (k - start[i]) % k; /* target 0: A x = -s */
                brute(a, b, n, k, &count, &fewest);
                ck_assert_uint_ge(count, 1);
                if (mode == 1) {
                    ck_assert_uint_eq(count, 1);
                    unique_boards++;
                }
                if (mode == 2)
                    ck_assert_uint_eq(fewest, want);
            } else {
                ck_assert_msg(mode == 2 && (rc == TOGGLE_ENOSOLUTION || rc == TOGGLE_ELIMIT),
                              "mode %d: %s", mode, toggle_status_name(rc));
            }
            toggle_generator_free(gen);
            toggle_generator_free(gen2);
        }
        free(a);
        toggle_system_free(s);
        toggle_graph_free(g);
    }
    ck_assert_uint_gt(unique_boards, 0);
}
END_TEST

/* The document's workflow: a 6 x 9 chaos board's 54 x 54 system over Z_2,
 * reduced by hand with add and move only, and by auto: both reach the same
 * reduced form, whose solution solves the board. */
START_TEST(chaos_54_by_hand)
{
    tu_rng r = tu_rng_for(7);
    uint64_t seed = tu_next(&r);
    toggle_graph *g = NULL;
    ck_assert_int_eq(toggle_graph_new_chaos(&g, 6, 9, 0.5, TOGGLE_CHAOS_ANY_DISTANCE, seed), TOGGLE_OK);
    toggle_system *s0 = NULL;
    ck_assert_int_eq(toggle_system_new(&s0, g, 2, NULL, NULL), TOGGLE_OK);
    toggle_generator *gen = NULL;
    uint64_t start[54];
    ck_assert_int_eq(toggle_generator_new(&gen, s0), TOGGLE_OK);
    ck_assert_int_eq(toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_SEED, seed), TOGGLE_OK);
    ck_assert_int_eq(toggle_generator_next(gen, start, 54, NULL), TOGGLE_OK);
    uint64_t zero[54] = {0};
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, 2, start, zero), TOGGLE_OK);
    toggle_steps *hand = NULL, *autos = NULL;
    ck_assert_int_eq(toggle_steps_new(&hand, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_steps_new(&autos, s), TOGGLE_OK);
    mat orig = mat_of(hand);
    size_t row = 0;
    for (size_t j = 0; j < 55 && row < 54; j++) {
        mat M = mat_of(hand);
        size_t p = row;
        while (p < 54 && !M.e[p * 55 + j])
            p++;
        if (p < 54) {
            char cmd[512];
            int at = 0;
            if (p != row) {
                snprintf(cmd, sizeof cmd, "move %zu %zu", p, row);
                ck_assert_int_eq(toggle_steps_apply(hand, cmd, strlen(cmd), NULL), TOGGLE_OK);
                mat_apply(&M, TOGGLE_STEP_MOVE, p, row, 0);
            }
            at = snprintf(cmd, sizeof cmd, "add %zu", row);
            int targets = 0;
            for (size_t i = 0; i < 54; i++)
                if (i != row && M.e[i * 55 + j]) {
                    at += snprintf(cmd + at, sizeof cmd - (size_t)at, " %zu", i);
                    targets++;
                }
            if (targets)
                ck_assert_int_eq(toggle_steps_apply(hand, cmd, strlen(cmd), NULL), TOGGLE_OK);
            row++;
        }
        free(M.e);
    }
    int reduced = 0;
    ck_assert_int_eq(toggle_steps_status(hand, NULL, &reduced, NULL), TOGGLE_OK);
    ck_assert(reduced);
    ck_assert_int_eq(toggle_steps_auto(autos, SIZE_MAX, NULL), TOGGLE_OK);
    mat H = mat_of(hand);
    ck_assert(is_rref(&H));
    expect_same(autos, &H, "hand against auto");
    mat R = replay(hand, &orig);
    expect_same(hand, &R, "hand trace replayed");
    check_solution(hand, &orig, 1); /* a generated start is solvable */
    free(H.e);
    free(R.e);
    free(orig.e);
    toggle_steps_free(hand);
    toggle_steps_free(autos);
    toggle_generator_free(gen);
    toggle_system_free(s);
    toggle_system_free(s0);
    toggle_graph_free(g);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("steps");
    TCase *tc = tcase_create("steps");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, gauss_jordan_replay);
    tcase_add_test(tc, hand_ops_undo_redo);
    tcase_add_test(tc, script_round_trip);
    tcase_add_test(tc, script_errors);
    tcase_add_test(tc, budget_and_misuse);
    tcase_add_test(tc, chaos_density_radius_seed);
    tcase_add_test(tc, chaos_generator);
    tcase_add_test(tc, chaos_54_by_hand);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
