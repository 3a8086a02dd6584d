/* Symmetry: every class on hand-made boards, random symmetrised boards
 * against the test's own geometry, and solution counts up to symmetry
 * (OEIS A075463, and brute-force orbit counting over whole solution sets). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static uint32_t sym_of(const char *const *lines, size_t rows, size_t cols)
{
    uint64_t cells[64];
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            cells[r * cols + c] = (uint64_t)(lines[r][c] - '0');
    uint32_t m = 0;
    ck_assert_int_eq(toggle_board_symmetry(cells, rows, cols, &m), TOGGLE_OK);
    return m;
}

START_TEST(every_class_by_hand)
{
    static const struct {
        const char *b[4];
        size_t rows, cols;
        uint32_t mask;
        const char *name;
    } cases[] = {
        {{"0000", "0000", "0000", "0000"}, 4, 4, 0xFF, "full D4"},
        {{"1200", "0000", "0000", "0000"}, 4, 4, 0x01, "none"},
        {{"1200", "0000", "0000", "0021"}, 4, 4, 0x05, "180-degree rotation"},
        {{"1200", "0000", "0000", "1200"}, 4, 4, 0x11, "horizontal mirror"},
        {{"1001", "2002", "0000", "0000"}, 4, 4, 0x21, "vertical mirror"},
        {{"1200", "2000", "0000", "0000"}, 4, 4, 0x41, "diagonal"},
        {{"0021", "0002", "0000", "0000"}, 4, 4, 0x81, "anti-diagonal"},
        {{"1221", "0000", "0000", "1221"}, 4, 4, 0x35, "both mirrors"},
        {{"1200", "2000", "0002", "0021"}, 4, 4, 0xC5, "both diagonals"},
        {{"1201", "0002", "2000", "1021"}, 4, 4, 0x0F, "90-degree rotation"},
        /* non-square: only the identity, the half turn and the two mirrors */
        {{"1200", "0000", "0000"}, 3, 4, 0x01, "none"},
        {{"1200", "0000", "0021"}, 3, 4, 0x05, "180-degree rotation"},
        {{"1200", "0000", "1200"}, 3, 4, 0x11, "horizontal mirror"},
        {{"1001", "2002", "0000"}, 3, 4, 0x21, "vertical mirror"},
        {{"0000", "0000", "0000"}, 3, 4, 0x35, "both mirrors"},
        {{"1"}, 1, 1, 0xFF, "full D4"},
        {{"12"}, 1, 2, 0x11, "horizontal mirror"},
        {{"121"}, 1, 3, 0x35, "both mirrors"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t m = sym_of(cases[i].b, cases[i].rows, cases[i].cols);
        ck_assert_msg(m == cases[i].mask, "case %zu: mask 0x%02x, expected 0x%02x", i, m,
                      cases[i].mask);
        ck_assert_str_eq(toggle_symmetry_name(m), cases[i].name);
    }
    /* masks that are not groups have no name */
    const uint32_t bad[] = {0x00, 0x02, 0x03, 0x07, 0x13, 0x31, 0x45, 0x1F, 0x100};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_ptr_null(toggle_symmetry_name(bad[i]));
    ck_assert_uint_eq(toggle_symmetry_of_shape(5, 5), 0xFF);
    ck_assert_uint_eq(toggle_symmetry_of_shape(5, 6), 0x35);
    ck_assert_uint_eq(toggle_symmetry_of_shape(0, 6), 0);
}
END_TEST

/* The test's own geometry: centred coordinates (2r - R + 1, 2c - C + 1) and
 * the eight signed permutation matrices of D4, in the library's bit order. */
static const int geo[8][4] = {
    {1, 0, 0, 1},   /* identity: (y, x) -> (y, x) */
    {0, 1, -1, 0},  /* rot90: (y, x) -> (x, -y) */
    {-1, 0, 0, -1}, /* rot180 */
    {0, -1, 1, 0},  /* rot270: (y, x) -> (-x, y) */
    {-1, 0, 0, 1},  /* mirror_h: (y, x) -> (-y, x) */
    {1, 0, 0, -1},  /* mirror_v */
    {0, 1, 1, 0},   /* diag: (y, x) -> (x, y) */
    {0, -1, -1, 0}, /* antidiag */
};

static size_t move_cell(int g, size_t r, size_t c, size_t R, size_t C)
{
    long y = 2 * (long)r - (long)R + 1, x = 2 * (long)c - (long)C + 1;
    long ny = geo[g][0] * y + geo[g][1] * x, nx = geo[g][2] * y + geo[g][3] * x;
    return (size_t)((ny + (long)R - 1) / 2) * C + (size_t)((nx + (long)C - 1) / 2);
}

static uint32_t own_mask(const uint64_t *v, size_t R, size_t C)
{
    uint32_t m = 0;
    for (int g = 0; g < 8; g++) {
        if (R != C && (g == 1 || g == 3 || g == 6 || g == 7))
            continue;
        int ok = 1;
        for (size_t r = 0; r < R && ok; r++)
            for (size_t c = 0; c < C && ok; c++)
                ok = v[move_cell(g, r, c, R, C)] == v[r * C + c];
        if (ok)
            m |= 1u << g;
    }
    return m;
}

static const uint32_t groups[10] = {0x01, 0x05, 0x11, 0x21, 0x41, 0x81, 0x35, 0xC5, 0x0F, 0xFF};

START_TEST(random_symmetrised)
{
    tu_rng rng = tu_rng_for(61);
    size_t iters = tu_iters(400);
    uint64_t v[100];
    for (size_t it = 0; it < iters; it++) {
        size_t R = 1 + tu_below(&rng, 9), C = tu_below(&rng, 3) ? R : 1 + tu_below(&rng, 9);
        uint32_t shape = toggle_symmetry_of_shape(R, C), grp;
        do
            grp = groups[tu_below(&rng, 10)];
        while (grp & ~shape);
        uint64_t k = 2 + tu_below(&rng, 4);
        for (size_t i = 0; i < R * C; i++)
            v[i] = tu_below(&rng, k);
        /* symmetrise: every cell takes the value of the least cell in its orbit */
        for (int pass = 0; pass < 8; pass++)
            for (size_t r = 0; r < R; r++)
                for (size_t c = 0; c < C; c++)
                    for (int g = 0; g < 8; g++) {
                        if (!(grp & (1u << g)))
                            continue;
                        size_t a = r * C + c, b = move_cell(g, r, c, R, C);
                        size_t lo = a < b ? a : b;
                        v[a] = v[b] = v[lo];
                    }
        uint32_t m = 0;
        ck_assert_int_eq(toggle_board_symmetry(v, R, C, &m), TOGGLE_OK);
        ck_assert_msg(m == own_mask(v, R, C), "%zux%zu: 0x%02x vs own 0x%02x", R, C, m,
                      own_mask(v, R, C));
        ck_assert_msg((m & grp) == grp, "symmetrised under 0x%02x, got 0x%02x", grp, m);
        ck_assert_ptr_nonnull(toggle_symmetry_name(m));
    }
}
END_TEST

START_TEST(misuse)
{
    uint64_t v[4] = {0};
    uint32_t m;
    ck_assert_int_eq(toggle_board_symmetry(NULL, 2, 2, &m), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_board_symmetry(v, 2, 2, NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_board_symmetry(v, 0, 2, &m), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_board_symmetry(v, SIZE_MAX, 3, &m), TOGGLE_EOVERFLOW);

    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t orbits = 99;
    sol = tu_solve_grid(3, 3, 0, 2, &g, &s);
    ck_assert_int_eq(toggle_solution_count_orbits(NULL, 3, 3, 0xFF, &orbits), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_solution_count_orbits(sol, 3, 3, 0xFF, NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_solution_count_orbits(sol, 3, 4, 0x35, &orbits), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_solution_count_orbits(sol, 9, 1, 0xFF, &orbits), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_solution_count_orbits(sol, 3, 3, 0x03, &orbits), TOGGLE_EINVAL);
    ck_assert_uint_eq(orbits, 99);
    ck_assert_int_eq(toggle_solution_count_orbits(sol, 3, 3, 0xFF, &orbits), TOGGLE_OK);
    ck_assert_uint_eq(orbits, 1);
    tu_free_all(NULL, s, sol);
    /* a target without the board's symmetry: the solution set is not invariant */
    uint64_t target[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
    s = NULL;
    sol = NULL;
    ck_assert_int_eq(toggle_system_new(&s, g, 2, NULL, target), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    ck_assert_int_eq(toggle_solution_count_orbits(sol, 3, 3, 0xFF, &orbits), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_solution_count_orbits(sol, 3, 3, 0x41, &orbits), TOGGLE_OK);
    ck_assert_uint_eq(orbits, 1);
    tu_free_all(g, s, sol);
}
END_TEST

/* OEIS A075463, n = 1..16: all-off to all-on over F_2 up to D4. */
START_TEST(a075463)
{
    static const uint64_t want[17] = {0, 1, 1, 1, 5, 1, 1, 1, 1, 43, 1, 10, 1, 1, 5, 1, 43};
    for (size_t n = 1; n <= 16; n++) {
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        toggle_solution *sol = NULL;
        sol = tu_solve_grid(n, n, 0, 2, &g, &s);
        uint64_t orbits = 0;
        ck_assert_int_eq(toggle_solution_count_orbits(sol, n, n, TOGGLE_SYM_ALL, &orbits),
                         TOGGLE_OK);
        ck_assert_msg(orbits == want[n], "n = %zu: %llu orbits, A075463 says %llu", n,
                      (unsigned long long)orbits, (unsigned long long)want[n]);
        tu_free_all(g, s, sol);
    }
}
END_TEST

/* Large boards whose orbit count fits in 64 bits although p^d does not
 * (79 x 79: nullity 64, A075463(79) = 2305843011898064896); Burnside's sum
 * is exact in 128 bits, only the quotient must fit. */
START_TEST(a075463_large)
{
    const size_t ns[] = {79, 135};
    for (size_t i = 0; i < 2; i++) {
        size_t n = ns[i];
        toggle_graph *g = NULL;
        toggle_system *s = NULL;
        toggle_solution *sol = tu_solve_grid(n, n, 0, 2, &g, &s);
        uint64_t orbits = 0;
        int rc = toggle_solution_count_orbits(sol, n, n, TOGGLE_SYM_ALL, &orbits);
        ck_assert_msg(rc == TOGGLE_OK, "n = %zu (nullity %zu): %s", n,
                      toggle_solution_nullity(sol), toggle_last_error());
        if (n == 79)
            ck_assert_uint_eq(orbits, UINT64_C(2305843011898064896));
        /* at least the identity term over |D4| */
        ck_assert_uint_ge(orbits, ((uint64_t)1 << (toggle_solution_nullity(sol) - 3)));
        tu_free_all(g, s, sol);
    }
}
END_TEST

/* Brute force: list every solution x0 + sum c_i K_i (each checked by the
 * independent verifier), reduce each to the least image under the group, and
 * count distinct ones; compare with the library's Burnside count for every
 * subgroup of the shape. */
static uint64_t brute_orbits(const uint64_t *all, size_t count, size_t R, size_t C,
                             uint32_t grp)
{
    size_t n = R * C;
    uint64_t *canon = malloc(count * n * sizeof *canon), *img = malloc(n * sizeof *img);
    size_t distinct = 0;
    for (size_t s = 0; s < count; s++) {
        const uint64_t *x = all + s * n;
        uint64_t *best = canon + distinct * n;
        memcpy(best, x, n * sizeof *best);
        for (int g = 1; g < 8; g++) {
            if (!(grp & (1u << g)))
                continue;
            for (size_t r = 0; r < R; r++)
                for (size_t c = 0; c < C; c++)
                    img[move_cell(g, r, c, R, C)] = x[r * C + c];
            if (memcmp(img, best, n * sizeof *img) < 0) /* any fixed total order */
                memcpy(best, img, n * sizeof *img);
        }
        size_t j = 0;
        while (j < distinct && memcmp(canon + j * n, best, n * sizeof *best) != 0)
            j++;
        if (j == distinct)
            distinct++;
    }
    free(canon);
    free(img);
    return distinct;
}

START_TEST(burnside_vs_brute_force)
{
    static const uint64_t primes[] = {2, 3, 5, 7};
    size_t checked = 0;
    for (size_t R = 1; R <= 9; R++)
        for (size_t C = R; C <= 9; C++)
            for (size_t pi = 0; pi < 4; pi++) {
                uint64_t p = primes[pi];
                size_t n = R * C;
                toggle_graph *g = NULL;
                toggle_system *s = NULL;
                toggle_solution *sol = NULL;
                sol = tu_solve_grid(R, C, 0, p, &g, &s);
                size_t d = toggle_solution_nullity(sol);
                uint64_t total = 1;
                for (size_t i = 0; i < d; i++)
                    total *= p;
                if (d == 0 || total > 2048 || toggle_solution_is_solvable(sol) != 1) {
                    uint64_t o = 7;
                    if (toggle_solution_is_solvable(sol) != 1) {
                        ck_assert_int_eq(toggle_solution_count_orbits(sol, R, C, 0x05, &o),
                                         TOGGLE_OK);
                        ck_assert_uint_eq(o, 0);
                    }
                    tu_free_all(g, s, sol);
                    continue;
                }
                uint64_t *a = tu_grid_matrix(R, C, 0), *b = malloc(n * sizeof *b);
                for (size_t i = 0; i < n; i++)
                    b[i] = 1;
                ck_assert_ptr_null(tu_verify(sol, a, b, n, n, p, n - tu_rank(a, n, n, p)));
                uint64_t *kv = malloc((d + 1) * n * sizeof *kv);
                uint64_t *all = malloc(total * n * sizeof *all), *y = malloc(n * sizeof *y);
                ck_assert_int_eq(toggle_solution_particular(sol, kv, n), TOGGLE_OK);
                for (size_t i = 0; i < d; i++)
                    ck_assert_int_eq(toggle_solution_kernel_vector(sol, i, kv + (i + 1) * n, n),
                                     TOGGLE_OK);
                for (uint64_t t = 0; t < total; t++) {
                    uint64_t *x = all + t * n, digits = t;
                    memcpy(x, kv, n * sizeof *x);
                    for (size_t i = 0; i < d; i++, digits /= p)
                        for (size_t j = 0; j < n; j++)
                            x[j] = tu_addmod(x[j], tu_mulmod(digits % p, kv[(i + 1) * n + j], p),
                                             p);
                    tu_apply(a, n, n, x, p, y);
                    for (size_t j = 0; j < n; j++)
                        ck_assert_uint_eq(y[j], 1);
                }
                uint32_t shape = toggle_symmetry_of_shape(R, C);
                for (size_t gi = 0; gi < 10; gi++) {
                    if (groups[gi] & ~shape)
                        continue;
                    uint64_t o = 0;
                    ck_assert_int_eq(toggle_solution_count_orbits(sol, R, C, groups[gi], &o),
                                     TOGGLE_OK);
                    uint64_t want = brute_orbits(all, total, R, C, groups[gi]);
                    ck_assert_msg(o == want, "%zux%zu p=%llu group 0x%02x: %llu vs brute %llu",
                                  R, C, (unsigned long long)p, groups[gi],
                                  (unsigned long long)o, (unsigned long long)want);
                }
                checked++;
                free(a);
                free(b);
                free(kv);
                free(all);
                free(y);
                tu_free_all(g, s, sol);
            }
    ck_assert_msg(checked >= 5, "only %zu boards had a kernel", checked);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("symmetry");
    TCase *tc = tcase_create("symmetry");
    tcase_add_test(tc, every_class_by_hand);
    tcase_add_test(tc, random_symmetrised);
    tcase_add_test(tc, misuse);
    tcase_add_test(tc, a075463);
    tcase_add_test(tc, a075463_large);
    tcase_add_test(tc, burnside_vs_brute_force);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
