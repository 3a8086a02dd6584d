/* The transfer engine (TOGGLE_ENGINE_TRANSFER) against full elimination (the
 * build's prime engine forced, TU_ENGINE_PRIME: FLINT, or dense without
 * FLINT): identical canonical answers (solvability, nullity,
 * particular solution, kernel basis, certificate) on every board up to
 * 12 x 12 of every lattice (square, Moore, hex, tri), wrap (none, torus,
 * cylinder), with and without self, over 2, 3, 5, 7 and a large prime, with
 * random start and target; random stencils with wraps. Every answer is also
 * checked against this suite's own neighbourhood model (tests/common:
 * tu_grid_neighbours, written from the documented conventions). The torus
 * nullity by polynomials against the own elimination, OEIS A165738 and
 * Buchholz's formula. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/transfer/ring.h"
#include "testutil.h"
#include "tu_engine.h"

/* 3, 5, 7: 4-bit lanes; 101: 8; 32749: 16; 10^9 + 7: 32; 2^61 - 1: 64 */
static const uint64_t primes[] = {2, 3, 5, 7, 101, 32749, 1000000007ull, 2305843009213693951ull};
#define NPRIMES (sizeof primes / sizeof *primes)

/* Solve s with engine e; NULL when the engine declines (EUNSUPPORTED). */
static toggle_solution *solve_with(toggle_system *s, int e)
{
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)e), TOGGLE_OK);
    int rc = toggle_solve(&sol, s);
    if (rc == TOGGLE_EUNSUPPORTED)
        return NULL;
    ck_assert_msg(rc == TOGGLE_OK, "engine %d: %s", e, toggle_last_error());
    return sol;
}

/* The two answers are identical (cert: the certificates too, else not
 * looked at: the lanes path called directly leaves them to the public
 * solve); returns NULL or a message. */
static const char *answers_differ(const toggle_solution *a, const toggle_solution *b, size_t n,
                                  bool cert)
{
    if (toggle_solution_is_solvable(a) != toggle_solution_is_solvable(b))
        return "solvability differs";
    size_t d = toggle_solution_nullity(a);
    if (d != toggle_solution_nullity(b))
        return "nullity differs";
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    const char *err = NULL;
    if (toggle_solution_is_solvable(a) == 1) {
        toggle_solution_particular(a, x, n);
        toggle_solution_particular(b, y, n);
        if (memcmp(x, y, n * sizeof *x))
            err = "particular solution differs";
    } else if (cert) {
        toggle_solution_certificate(a, x, n);
        toggle_solution_certificate(b, y, n);
        if (memcmp(x, y, n * sizeof *x))
            err = "certificate differs";
    }
    for (size_t i = 0; i < d && !err; i++) {
        toggle_solution_kernel_vector(a, i, x, n);
        toggle_solution_kernel_vector(b, i, y, n);
        if (memcmp(x, y, n * sizeof *x))
            err = "kernel vector differs";
        uint64_t ra = 0, rb = 0;
        if (!err && (toggle_solution_radix(a, i, &ra) || toggle_solution_radix(b, i, &rb) ||
                     ra != rb))
            err = "radix differs";
    }
    char ca[1024], cb[1024];
    if (!err && (toggle_solution_count_string(a, ca, sizeof ca, NULL) ||
                 toggle_solution_count_string(b, cb, sizeof cb, NULL) || strcmp(ca, cb)))
        err = "count differs";
    free(x);
    free(y);
    return err;
}

static const char *same_answers(const toggle_solution *a, const toggle_solution *b, size_t n)
{
    return answers_differ(a, b, n, true);
}

/* The reference engine: full elimination for a prime, the forced Howell
 * engine for composite k. */
static int ref_engine(uint64_t k)
{
    for (size_t q = 0; q < NPRIMES; q++)
        if (primes[q] == k)
            return TU_ENGINE_PRIME;
    return TOGGLE_ENGINE_HOWELL;
}

static size_t handled, declined, local_ran, span_ran, tri_torus_span;

/* The lanes path with or without the odd-p canonical form from local
 * vectors (toggle__transfer_lanes_solve_canon); *ran: it gave the answer,
 * *spanned: its spanning vectors came from one chase (either may be NULL).
 * NULL when the lanes path declines (Moore with self: the separable route
 * serves it). */
static toggle_solution *solve_canon(const toggle_system *s, bool local, bool *ran, bool *spanned)
{
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle__solution_new(&sol, s, TOGGLE_ENGINE_TRANSFER), TOGGLE_OK);
    int rc = toggle__transfer_lanes_solve_canon(s, sol, local, ran, spanned);
    if (rc == TOGGLE_EUNSUPPORTED) {
        toggle_solution_free(sol);
        return NULL;
    }
    ck_assert_msg(rc == TOGGLE_OK, "lanes (local %d): %s", (int)local, toggle_last_error());
    return sol;
}

/* One board: transfer vs FLINT, both verified against the own model. */
static void check_board(size_t rows, size_t cols, uint32_t flags, uint64_t k, tu_rng *rng)
{
    size_t n = rows * cols;
    uint64_t *a = tu_grid_matrix(rows, cols, flags);
    uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg), *b = malloc(n * sizeof *b);
    int mode = (int)tu_below(rng, 3); /* random; all on; reachable */
    for (size_t i = 0; i < n; i++) {
        st[i] = tu_below(rng, k);
        tg[i] = mode == 1 ? 1 % k : tu_below(rng, k);
    }
    if (mode == 2) { /* a reachable target: t = s + A x */
        uint64_t *x = malloc(n * sizeof *x);
        for (size_t i = 0; i < n; i++)
            x[i] = tu_below(rng, k);
        tu_apply(a, n, n, x, k, tg);
        for (size_t i = 0; i < n; i++)
            tg[i] = tu_addmod(tg[i], st[i], k);
        free(x);
    }
    for (size_t i = 0; i < n; i++)
        b[i] = tu_addmod(tg[i], k - st[i], k);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, rows, cols, flags), TOGGLE_OK);
    ck_assert_int_eq(toggle_system_new(&s, g, k, st, tg), TOGGLE_OK);
    toggle_solution *ref = solve_with(s, ref_engine(k));
    toggle_solution *got = solve_with(s, TOGGLE_ENGINE_TRANSFER);
    ck_assert_ptr_nonnull(ref);
    const char *err = tu_verify(ref, a, b, n, n, k, SIZE_MAX);
    ck_assert_msg(!err, "reference %zux%zu flags 0x%x k=%llu: %s", rows, cols, (unsigned)flags,
                  (unsigned long long)k, err);
    if (got) {
        handled++;
        err = tu_verify(got, a, b, n, n, k, toggle_solution_nullity(ref));
        if (!err)
            err = same_answers(got, ref, n);
        ck_assert_msg(!err, "transfer %zux%zu flags 0x%x k=%llu: %s (seed %llu)", rows, cols,
                      (unsigned)flags, (unsigned long long)k, err,
                      (unsigned long long)tu_seed());
        /* odd p with a kernel: the lanes path with the local canonical
         * form, counted where it gave the answer */
        bool ran = false, sp = false;
        if (k != 2 && toggle_solution_nullity(ref) && ref_engine(k) == TU_ENGINE_PRIME) {
            toggle_solution *loc = solve_canon(s, true, &ran, &sp);
            err = loc ? answers_differ(loc, ref, n, false) : NULL;
            ck_assert_msg(!err, "local %zux%zu flags 0x%x k=%llu: %s (seed %llu)", rows, cols,
                          (unsigned)flags, (unsigned long long)k, err,
                          (unsigned long long)tu_seed());
            toggle_solution_free(loc);
        }
        local_ran += ran;
        span_ran += sp;
        /* the tri torus keeps vectors that span the board: by one chase
         * where the local form gives the answer (and ns^2 >= L) */
        tri_torus_span += (flags & TOGGLE_GRID_TRI) && (flags & TOGGLE_GRID_TORUS) && sp;
    } else {
        declined++;
    }
    if (ref_engine(k) == TOGGLE_ENGINE_HOWELL) { /* composite: the public nullity */
        size_t pn = 0;
        ck_assert_int_eq(toggle_grid_nullity(rows, cols, k, flags, &pn), TOGGLE_OK);
        ck_assert_msg(pn == toggle_solution_nullity(ref), "%zux%zu flags 0x%x k=%llu: "
                      "toggle_grid_nullity %zu, Howell %zu", rows, cols, (unsigned)flags,
                      (unsigned long long)k, pn, toggle_solution_nullity(ref));
    }
    toggle_solution_free(got);
    toggle_solution_free(ref);
    toggle_system_free(s);
    toggle_graph_free(g);
    free(a);
    free(st);
    free(tg);
    free(b);
}

static void all_boards(uint32_t lattice, size_t maxside)
{
    tu_rng rng = tu_rng_for(lattice + 17);
    static const uint32_t wraps[] = {0, TOGGLE_GRID_TORUS, TOGGLE_GRID_CYLINDER};
    handled = declined = local_ran = span_ran = tri_torus_span = 0;
    for (size_t w = 0; w < 3; w++)
        for (uint32_t ns = 0; ns <= TOGGLE_GRID_NO_SELF; ns++)
            for (size_t q = 0; q < NPRIMES; q++)
                for (size_t r = 1; r <= maxside; r++)
                    for (size_t c = 1; c <= maxside; c++)
                        check_board(r, c, lattice | wraps[w] | ns, primes[q], &rng);
    printf("lattice 0x%x: transfer solved %zu boards, declined %zu, the local canonical "
           "form gave %zu, its spanning vectors by one chase %zu (%zu tri tori)\n",
           (unsigned)lattice, handled, declined, local_ran, span_ran, tri_torus_span);
    if (lattice == TOGGLE_GRID_TRI) { /* the tri cylinders and tori over odd p */
        ck_assert_uint_ge(local_ran, 100);
        ck_assert_uint_ge(tri_torus_span, 40);
    }
}

/* Hex boards 13 to 33 wide, taller than wide (the board rows are the
 * frame), so that the small system's C + 1 lanes pass the sliced chase's
 * 16 and the hex recurrence's cell-major kernel builds it (F_2), with and
 * without self, over 2, 3, 5 and 7. */
START_TEST(hex_wide_boards)
{
    tu_rng rng = tu_rng_for(4321);
    static const size_t widths[] = {13, 16, 17, 24, 33};
    handled = declined = 0;
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
        for (size_t dr = 0; dr <= 5; dr += 5)
            for (uint32_t ns = 0; ns < 2; ns++)
                for (size_t q = 0; q < 4; q++)
                    check_board(widths[w] + dr, widths[w],
                                TOGGLE_GRID_HEX | (ns ? TOGGLE_GRID_NO_SELF : 0), primes[q], &rng);
    printf("wide hex boards: transfer solved %zu, declined %zu\n", handled, declined);
    ck_assert_uint_eq(declined, 0);
}
END_TEST

START_TEST(square_all_boards) { all_boards(0, 12); }
END_TEST
START_TEST(hex_all_boards) { all_boards(TOGGLE_GRID_HEX, 12); }
END_TEST
START_TEST(tri_all_boards) { all_boards(TOGGLE_GRID_TRI, 12); }
END_TEST
START_TEST(moore_all_boards) { all_boards(TOGGLE_GRID_MOORE, 12); }
END_TEST

/* Moore boards need promoted unknowns (the tridiagonal lead block does not
 * peel for C >= 3): without a wrap the engine takes every one up to
 * 12 x 12 but 1 x 1 (small system C + R - 1 <= N / 4, or N <= 64) over every prime,
 * with and without self; check_board compares each with FLINT. */
START_TEST(moore_open_handled)
{
    tu_rng rng = tu_rng_for(91);
    handled = declined = 0;
    for (uint32_t ns = 0; ns <= TOGGLE_GRID_NO_SELF; ns++)
        for (size_t q = 0; q < NPRIMES; q++)
            for (size_t r = 1; r <= 12; r++)
                for (size_t c = 1; c <= 12; c++)
                    if (r * c > 1) /* 1 x 1: no frame (declined on every lattice) */
                        check_board(r, c, TOGGLE_GRID_MOORE | ns, primes[q], &rng);
    ck_assert_msg(declined == 0, "transfer declined %zu open Moore boards", declined);
    ck_assert_uint_eq(handled, 2 * NPRIMES * 143);
}
END_TEST

/* Moore boards of large nullity (sides 2 mod 3: the tridiagonal factor is
 * singular over every prime here, A = T_R (x) T_C with self) at 30..60,
 * open and cylinder, with and without self: the engine chases them from the
 * last row and reads the canonical form off the small system's kernel
 * (rev_canonical); every answer identical to FLINT's (and verified). */
START_TEST(moore_large_nullity)
{
    static const size_t sides[][2] = {{32, 35}, {35, 32}, {30, 32}, {41, 44}, {44, 30},
                                      {47, 50}, {50, 33}, {56, 41}};
    static const uint64_t ps[] = {2, 3, 5, 101};
    tu_rng rng = tu_rng_for(93);
    handled = declined = 0;
    size_t big = 0;
    for (size_t i = 0; i < sizeof sides / sizeof *sides; i++)
        for (size_t q = 0; q < sizeof ps / sizeof *ps; q++) {
            /* one board in four with no self and one in four on a cylinder */
            uint32_t fl = TOGGLE_GRID_MOORE | ((i + q) % 4 == 1 ? TOGGLE_GRID_NO_SELF : 0)
                        | ((i + q) % 4 == 2 ? TOGGLE_GRID_CYLINDER : 0);
            size_t before = handled;
            check_board(sides[i][0], sides[i][1], fl, ps[q], &rng);
            ck_assert_msg(handled == before + 1, "transfer declined Moore %zux%zu flags 0x%x",
                          sides[i][0], sides[i][1], (unsigned)fl);
            toggle_graph *g = NULL;
            toggle_system *s = NULL;
            ck_assert_int_eq(toggle_graph_new_grid(&g, sides[i][0], sides[i][1], fl), TOGGLE_OK);
            ck_assert_int_eq(toggle_system_new(&s, g, ps[q], NULL, NULL), TOGGLE_OK);
            toggle_solution *sol = solve_with(s, TOGGLE_ENGINE_TRANSFER);
            big += toggle_solution_nullity(sol) >= 30;
            toggle_solution_free(sol);
            toggle_system_free(s);
            toggle_graph_free(g);
        }
    printf("moore large nullity: %zu boards, %zu with nullity >= 30 (seed %llu)\n", handled, big,
           (unsigned long long)tu_seed());
    ck_assert_uint_ge(big, 16);
}
END_TEST

/* F_2 boards whose frame runs along the board columns (tri, and hex with a
 * column wrap) and whose nullity is large: the answers are written 64
 * board columns at a time (widths 63, 64, 65, 130: one block, a full one,
 * a partial second, three), and the canonical form comes from the last
 * board rows or from the RREF of the whole basis; hex without self on open
 * boards is unsolvable for most targets (the certificate from the kernel).
 * Against the reference, as every board here. */
START_TEST(wrapped_large_nullity)
{
    static const uint32_t kinds[] = {
        TOGGLE_GRID_TRI | TOGGLE_GRID_CYLINDER, TOGGLE_GRID_TRI | TOGGLE_GRID_TORUS,
        TOGGLE_GRID_HEX | TOGGLE_GRID_CYLINDER | TOGGLE_GRID_NO_SELF,
        TOGGLE_GRID_HEX | TOGGLE_GRID_TORUS | TOGGLE_GRID_NO_SELF,
        TOGGLE_GRID_HEX | TOGGLE_GRID_NO_SELF, TOGGLE_GRID_TRI};
    static const size_t widths[] = {63, 64, 65, 130}, heights[] = {6, 14};
    tu_rng rng = tu_rng_for(2026);
    handled = declined = 0;
    size_t big = 0;
    for (size_t q = 0; q < sizeof kinds / sizeof *kinds; q++)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (size_t h = 0; h < sizeof heights / sizeof *heights; h++) {
                size_t before = handled;
                check_board(heights[h], widths[w], kinds[q], 2, &rng);
                ck_assert_msg(handled == before + 1, "transfer declined %zux%zu flags 0x%x",
                              heights[h], widths[w], (unsigned)kinds[q]);
                size_t d = 0;
                ck_assert_int_eq(toggle_grid_nullity(heights[h], widths[w], 2, kinds[q], &d),
                                 TOGGLE_OK);
                big += d >= heights[h];
            }
    printf("wrapped large nullity: %zu boards, %zu with nullity >= rows (seed %llu)\n", handled,
           big, (unsigned long long)tu_seed());
    ck_assert_uint_ge(big, 16);
}
END_TEST

/* The odd-p canonical form from local vectors (canonicalise_local) on
 * boards too large for the 12 x 12 sweeps, whose kernels are mostly
 * vectors on two board rows: tri cylinders and tori, hex and Moore
 * wraps without self, 24 to 60 square and 30 x 45, over 3, 5 and 7, random
 * start and target. The answers with it against canonicalise's (the lanes
 * path without it), entry by entry, and each checked by the own model: A x
 * = b, A K_i = 0. It must give the answer on every tri board with a
 * kernel. Seed printed. */
START_TEST(local_canonical_form)
{
    static const uint32_t kinds[] = {
        TOGGLE_GRID_TRI | TOGGLE_GRID_CYLINDER, TOGGLE_GRID_TRI | TOGGLE_GRID_TORUS,
        TOGGLE_GRID_HEX | TOGGLE_GRID_CYLINDER | TOGGLE_GRID_NO_SELF,
        TOGGLE_GRID_HEX | TOGGLE_GRID_TORUS | TOGGLE_GRID_NO_SELF,
        TOGGLE_GRID_MOORE | TOGGLE_GRID_CYLINDER | TOGGLE_GRID_NO_SELF};
    static const size_t shapes[][2] = {{24, 24}, {30, 45}, {36, 36}, {48, 48}, {60, 60}};
    static const uint64_t ks[] = {3, 5, 7};
    tu_rng rng = tu_rng_for(1414);
    size_t ran_total = 0, kernels = 0, span_total = 0;
    for (size_t q = 0; q < sizeof kinds / sizeof *kinds; q++)
        for (size_t z = 0; z < sizeof shapes / sizeof *shapes; z++)
            for (size_t kk = 0; kk < sizeof ks / sizeof *ks; kk++) {
                size_t R = shapes[z][0], C = shapes[z][1], n = R * C;
                uint64_t k = ks[kk];
                uint32_t flags = kinds[q];
                uint64_t *st = malloc(n * sizeof *st), *tg = malloc(n * sizeof *tg);
                uint64_t *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
                tu_random_game(&rng, n, k, st, tg, b);
                toggle_graph *g = NULL;
                toggle_system *s = NULL;
                ck_assert_int_eq(toggle_graph_new_grid(&g, R, C, flags), TOGGLE_OK);
                ck_assert_int_eq(toggle_system_new(&s, g, k, st, tg), TOGGLE_OK);
                bool ran = false, sp = false;
                toggle_solution *got = solve_canon(s, true, &ran, &sp);
                toggle_solution *ref = solve_canon(s, false, NULL, NULL);
                ck_assert_ptr_nonnull(got);
                ck_assert_ptr_nonnull(ref);
                const char *err = answers_differ(got, ref, n, false);
                ck_assert_msg(!err, "%zux%zu flags 0x%x k=%llu: %s (seed %llu)", R, C,
                              (unsigned)flags, (unsigned long long)k, err,
                              (unsigned long long)tu_seed());
                size_t d = toggle_solution_nullity(got);
                if (toggle_solution_is_solvable(got) == 1) {
                    ck_assert_int_eq(toggle_solution_particular(got, x, n), TOGGLE_OK);
                    ck_assert_msg(tu_grid_apply_is(R, C, flags, k, x, b), "%zux%zu flags 0x%x "
                                  "k=%llu: A x != b", R, C, (unsigned)flags, (unsigned long long)k);
                }
                for (size_t i = 0; i < d; i++) {
                    ck_assert_int_eq(toggle_solution_kernel_vector(got, i, x, n), TOGGLE_OK);
                    ck_assert_msg(tu_grid_apply_is(R, C, flags, k, x, NULL), "%zux%zu flags 0x%x "
                                  "k=%llu: A K_%zu != 0", R, C, (unsigned)flags,
                                  (unsigned long long)k, i);
                }
                if ((flags & TOGGLE_GRID_TRI) && d)
                    ck_assert_msg(ran, "%zux%zu flags 0x%x k=%llu: the local form did not "
                                  "apply", R, C, (unsigned)flags, (unsigned long long)k);
                /* the tri torus keeps vectors that span the board: by one chase */
                if ((flags & TOGGLE_GRID_TRI) && (flags & TOGGLE_GRID_TORUS) && d)
                    ck_assert_msg(sp, "%zux%zu flags 0x%x k=%llu: the spanning vectors not "
                                  "by one chase", R, C, (unsigned)flags, (unsigned long long)k);
                span_total += sp;
                ran_total += ran;
                kernels += d > 0;
                toggle_solution_free(ref);
                tu_free_all(g, s, got);
                free(st);
                free(tg);
                free(b);
                free(x);
            }
    printf("local canonical form: %zu boards with a kernel, %zu by local vectors, %zu of them "
           "with the spanning ones by one chase (seed %llu)\n", kernels, ran_total, span_total,
           (unsigned long long)tu_seed());
    ck_assert_uint_ge(ran_total, 20);
}
END_TEST

/* Random stencils (offsets within 2 rows and columns, random weights) with
 * every wrap: transfer against the reference (ref_engine) on the stencil's
 * own dense matrix; symmetric: every offset also mirrored (A = A^T, which
 * the composite path needs for its certificate). */
static void stencil_sweep(const uint64_t *ks, size_t nk, bool symmetric, uint64_t salt,
                          size_t iters)
{
    tu_rng rng = tu_rng_for(salt);
    size_t tried = 0, got_n = 0;
    for (size_t it = 0; it < iters; it++) {
        size_t rows = 1 + tu_below(&rng, 9), cols = 1 + tu_below(&rng, 9), n = rows * cols;
        uint64_t k = ks[tu_below(&rng, nk)];
        uint32_t flags = (uint32_t[]){0, TOGGLE_GRID_TORUS, TOGGLE_GRID_CYLINDER}[tu_below(&rng, 3)];
        size_t cnt = 1 + tu_below(&rng, 6);
        int64_t dr[16], dc[16];
        uint64_t w[16];
        for (size_t s = 0; s < cnt; s++) {
            long mr = rows > 2 ? 2 : (long)rows - 1, mc = cols > 2 ? 2 : (long)cols - 1;
            dr[s] = (int64_t)tu_below(&rng, (uint64_t)(2 * mr + 1)) - mr;
            dc[s] = (int64_t)tu_below(&rng, (uint64_t)(2 * mc + 1)) - mc;
            w[s] = tu_below(&rng, 4) ? 1 : tu_below(&rng, k);
        }
        /* a lead entry with unit weight makes the chase possible more often */
        if (tu_below(&rng, 2)) {
            dr[cnt] = rows > 1 ? -1 : 0;
            dc[cnt] = 0;
            w[cnt++] = 1;
        }
        for (size_t s = 0, c0 = cnt; symmetric && s < c0; s++) {
            bool have = false; /* the mirror (-dr, -dc) with the same weight */
            for (size_t t = 0; t < cnt; t++)
                have = have || (dr[t] == -dr[s] && dc[t] == -dc[s]);
            for (size_t t = 0; have && t < cnt; t++)
                if (dr[t] == -dr[s] && dc[t] == -dc[s])
                    w[t] = w[s];
            if (!have) {
                dr[cnt] = -dr[s];
                dc[cnt] = -dc[s];
                w[cnt++] = w[s];
            }
        }
        /* the test's own dense matrix */
        uint64_t *a = calloc(n * n, sizeof *a), *b = malloc(n * sizeof *b);
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < cols; c++)
                for (size_t s = 0; s < cnt; s++) {
                    long rr = (long)r + dr[s], cc = (long)c + dc[s];
                    if (flags & TOGGLE_GRID_TORUS)
                        rr = (rr + (long)rows) % (long)rows;
                    if (flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER))
                        cc = (cc + (long)cols) % (long)cols;
                    if (rr < 0 || cc < 0 || rr >= (long)rows || cc >= (long)cols)
                        continue;
                    size_t i = (size_t)rr * cols + (size_t)cc;
                    a[i * n + r * cols + c] = (a[i * n + r * cols + c] + w[s]) % k;
                }
        for (size_t i = 0; i < n; i++)
            b[i] = tu_below(&rng, k);
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_graph_new_stencil(&g, rows, cols, dr, dc, w, cnt, flags),
                         TOGGLE_OK);
        ck_assert_int_eq(toggle_system_new(&s, g, k, NULL, b), TOGGLE_OK);
        toggle_solution *ref = solve_with(s, ref_engine(k));
        toggle_solution *got = solve_with(s, TOGGLE_ENGINE_TRANSFER);
        tried++;
        if (got) {
            got_n++;
            const char *err = tu_verify(got, a, b, n, n, k, toggle_solution_nullity(ref));
            if (!err)
                err = same_answers(got, ref, n);
            ck_assert_msg(!err, "stencil %zux%zu flags %u k=%llu count %zu: %s (seed %llu)",
                          rows, cols, (unsigned)flags, (unsigned long long)k, cnt, err,
                          (unsigned long long)tu_seed());
        }
        toggle_solution_free(got);
        toggle_solution_free(ref);
        toggle_system_free(s);
        toggle_graph_free(g);
        free(a);
        free(b);
    }
    printf("random stencils%s: transfer solved %zu of %zu (seed %llu)\n",
           symmetric ? " (symmetric, composite k)" : "", got_n, tried,
           (unsigned long long)tu_seed());
    ck_assert_uint_gt(got_n, tried / 4);
}

START_TEST(random_stencils) { stencil_sweep(primes, NPRIMES, false, 99, tu_iters(300)); }
END_TEST

/* Buchholz: the (n + 1) x (n + 1) square torus over F_2 has nullity
 * 2 d(n) + 4 [n = 2 mod 3], d(n) the classic n x n nullity (A159257), which
 * the classic polynomial route computes. The torus nullity comes from the
 * torus polynomials (n < 300) and, for n < 120, also from the transfer
 * engine's solve (forced). */
START_TEST(torus_buchholz_formula)
{
    for (size_t n = 2; n < 300; n++) {
        size_t d = 0, t = 0, want;
        ck_assert_int_eq(toggle_grid_nullity(n, n, 2, 0, &d), TOGGLE_OK);
        ck_assert_int_eq(toggle_grid_nullity(n + 1, n + 1, 2, TOGGLE_GRID_TORUS, &t), TOGGLE_OK);
        want = 2 * d + (n % 3 == 2 ? 4 : 0);
        ck_assert_msg(t == want, "torus %zu: nullity %zu, formula %zu", n + 1, t, want);
        if (n >= 120)
            continue;
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        ck_assert_int_eq(toggle_graph_new_grid(&g, n + 1, n + 1, TOGGLE_GRID_TORUS), TOGGLE_OK);
        ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, NULL), TOGGLE_OK);
        toggle_solution *sol = solve_with(s, TOGGLE_ENGINE_TRANSFER);
        ck_assert_ptr_nonnull(sol);
        ck_assert_msg(toggle_solution_nullity(sol) == want, "torus %zu: transfer nullity %zu, "
                      "formula %zu", n + 1, toggle_solution_nullity(sol), want);
        toggle_solution_free(sol);
        toggle_system_free(s);
        toggle_graph_free(g);
    }
}
END_TEST

/* The torus and cylinder nullities by polynomials (toggle_grid_nullity, no
 * elimination) against this suite's own model: n - rank of tu_grid_matrix
 * (tests/common, its own Gauss elimination), every torus and cylinder up to
 * 12 x 12 (16 x 16 over F_2), with and without self, over 2, 3, 5, 7 and a
 * large prime. */
START_TEST(torus_nullity_by_polynomials)
{
    size_t checked = 0;
    static const uint32_t wraps[] = {TOGGLE_GRID_TORUS, TOGGLE_GRID_CYLINDER};
    for (size_t q = 0; q < NPRIMES; q++)
        for (size_t v = 0; v < 4; v++) { /* torus, cylinder; with self, without */
            uint32_t wrap = wraps[v / 2], ns = v % 2 ? TOGGLE_GRID_NO_SELF : 0;
            size_t side = primes[q] == 2 ? 16 : primes[q] > 100 ? 8 : 12;
            for (size_t r = 1; r <= side; r++)
                for (size_t c = 1; c <= side; c++) {
                    uint32_t flags = wrap | ns;
                    uint64_t *a = tu_grid_matrix(r, c, flags);
                    size_t want = r * c - tu_rank(a, r * c, r * c, primes[q]), got = 0;
                    free(a);
                    ck_assert_int_eq(toggle_grid_nullity(r, c, primes[q], flags, &got),
                                     TOGGLE_OK);
                    ck_assert_msg(got == want, "%s %zux%zu%s mod %llu: nullity %zu, own "
                                  "elimination %zu", wrap == TOGGLE_GRID_TORUS ? "torus" : "cylinder",
                                  r, c, ns ? " no-self" : "",
                                  (unsigned long long)primes[q], got, want);
                    checked++;
                }
        }
    printf("torus and cylinder nullity by polynomials: %zu boards agree with elimination\n", checked);
}
END_TEST

/* OEIS A165738, the nullity of the n x n torus over F_2, n = 1..90, as
 * published at https://oeis.org/A165738 (terms by Max Alekseyev and Thomas
 * Buchholz); reproduced here by the polynomials, n <= 16 also by the own
 * elimination above, and n <= 300 by Buchholz's formula below. */
static const unsigned char a165738[90] = {
    0, 0, 4, 0, 8, 8, 0, 0, 4, 16, 0, 16, 0, 0, 12, 0, 16, 8, 0, 32, 4, 0, 0, 32, 8, 0, 4, 0,
    0, 24, 40, 0, 44, 32, 8, 16, 0, 0, 4, 64, 0, 8, 0, 0, 12, 0, 0, 64, 0, 16, 20, 0, 0, 8, 8,
    0, 4, 0, 0, 48, 0, 80, 52, 0, 56, 88, 0, 64, 4, 16, 0, 32, 0, 0, 12, 0, 0, 8, 0, 128, 4,
    0, 0, 16, 24, 0, 4, 0, 0, 24};

START_TEST(oeis_a165738)
{
    for (size_t n = 1; n <= 90; n++) {
        size_t t = 0;
        ck_assert_int_eq(toggle_grid_nullity(n, n, 2, TOGGLE_GRID_TORUS, &t), TOGGLE_OK);
        ck_assert_msg(t == a165738[n - 1], "A165738(%zu) = %u, got %zu", n, a165738[n - 1], t);
    }
}
END_TEST

/* Composite k: the transfer engine against the forced Howell engine
 * (identical solvability, nullity, radices, count, particular solution or
 * certificate, kernel vectors; each answer verified by tu_verify on the
 * suite's own matrix), every board up to 8 x 8 of every lattice and wrap,
 * with and without self, over 4, 6, 8, 9, 12 and 2^32, then random boards
 * up to 12 x 12 (seed printed by the harness). */
static const uint64_t composites[] = {4, 6, 8, 9, 12, (uint64_t)1 << 32};
#define NCOMPOSITES (sizeof composites / sizeof *composites)

static void composite_boards(uint32_t lattice)
{
    tu_rng rng = tu_rng_for(lattice + 1017);
    static const uint32_t wraps[] = {0, TOGGLE_GRID_TORUS, TOGGLE_GRID_CYLINDER};
    handled = declined = 0;
    for (size_t w = 0; w < 3; w++)
        for (uint32_t ns = 0; ns <= TOGGLE_GRID_NO_SELF; ns++)
            for (size_t q = 0; q < NCOMPOSITES; q++)
                for (size_t r = 1; r <= 8; r++)
                    for (size_t c = 1; c <= 8; c++)
                        check_board(r, c, lattice | wraps[w] | ns, composites[q], &rng);
    size_t all = handled, no = declined;
    for (size_t it = 0; it < tu_iters(60); it++) {
        size_t r = 1 + tu_below(&rng, 12), c = 9 + tu_below(&rng, 4);
        if (tu_below(&rng, 2)) {
            size_t t = r;
            r = c;
            c = t;
        }
        uint32_t flags = lattice | wraps[tu_below(&rng, 3)] |
                         (tu_below(&rng, 2) ? TOGGLE_GRID_NO_SELF : 0);
        check_board(r, c, flags, composites[tu_below(&rng, NCOMPOSITES)], &rng);
    }
    printf("lattice 0x%x, composite k: transfer solved %zu boards to 8x8 (declined %zu), "
           "%zu of %zu random to 12x12 (seed %llu)\n", (unsigned)lattice, all, no,
           handled - all, handled + declined - all - no, (unsigned long long)tu_seed());
    ck_assert_uint_gt(all, no);
}

START_TEST(composite_square) { composite_boards(0); }
END_TEST
START_TEST(composite_hex) { composite_boards(TOGGLE_GRID_HEX); }
END_TEST
START_TEST(composite_tri) { composite_boards(TOGGLE_GRID_TRI); }
END_TEST
START_TEST(composite_moore) { composite_boards(TOGGLE_GRID_MOORE); }
END_TEST
START_TEST(composite_stencils)
{
    stencil_sweep(composites, NCOMPOSITES, true, 199, tu_iters(300));
}
END_TEST

static Suite *suite(void)
{
    Suite *su = suite_create("transfer");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, square_all_boards);
    tcase_add_test(tc, hex_all_boards);
    tcase_add_test(tc, hex_wide_boards);
    tcase_add_test(tc, tri_all_boards);
    tcase_add_test(tc, moore_all_boards);
    tcase_add_test(tc, moore_open_handled);
    tcase_add_test(tc, moore_large_nullity);
    tcase_add_test(tc, wrapped_large_nullity);
    tcase_add_test(tc, local_canonical_form);
    tcase_add_test(tc, random_stencils);
    tcase_add_test(tc, torus_buchholz_formula);
    tcase_add_test(tc, torus_nullity_by_polynomials);
    tcase_add_test(tc, oeis_a165738);
    suite_add_tcase(su, tc);
    /* a case of its own, so that CK_RUN_CASE=composite picks it */
    TCase *zk = tcase_create("composite");
    tcase_set_timeout(zk, 1200);
    tcase_add_test(zk, composite_square);
    tcase_add_test(zk, composite_hex);
    tcase_add_test(zk, composite_tri);
    tcase_add_test(zk, composite_moore);
    tcase_add_test(zk, composite_stencils);
    suite_add_tcase(su, zk);
    return su;
}

int main(void)
{
    return tu_run(suite());
}
