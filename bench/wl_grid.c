/* Grid engine workloads: the pattern sweep, big boards over F_2 and
 * F_p, polynomial nullities, and the chase engine against full elimination. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toggle.h>

#include "harness.h"

#ifndef TOGGLE_BENCH_DATA_DIR
#define TOGGLE_BENCH_DATA_DIR "/work/shared/data"
#endif

/* ---- one board, all off to all on ---------------------------------------- */

typedef struct {
    size_t rows, cols;
    uint64_t p;
    int engine;
    const char *first_row; /* reference file for row 0, or NULL */
    uint32_t flags;        /* TOGGLE_GRID_* (lattice and wrap), 0 classic */
} board_arg;

static void *board_setup(const void *arg)
{
    const board_arg *a = arg;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    if (toggle_graph_new_grid(&g, a->rows, a->cols, a->flags) != TOGGLE_OK)
        return NULL;
    int rc = toggle_system_new(&s, g, a->p, NULL, NULL);
    toggle_graph_free(g);
    if (rc)
        return NULL;
    if (toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)a->engine)
        || toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0)) {
        toggle_system_free(s);
        return NULL;
    }
    return (void *)s;
}

typedef struct {
    toggle_system *s;
    const board_arg *a;
} board_state;

static void *board_state_setup(const void *arg)
{
    board_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->a = arg;
    st->s = board_setup(arg);
    if (!st->s) {
        free(st);
        return NULL;
    }
    return st;
}

static void board_teardown(void *p)
{
    board_state *st = p;
    toggle_system_free(st->s);
    free(st);
}

/* Compare row 0 with a reference file of '0'/'1' characters. */
static int check_first_row(const toggle_solution *sol, const char *file, size_t cols)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", TOGGLE_BENCH_DATA_DIR, file);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 1;
    char *ref = malloc(cols);
    uint64_t *x = malloc(cols * sizeof *x);
    int bad = !ref || !x || fread(ref, 1, cols, fp) != cols
           || toggle_solution_particular_range(sol, 0, x, cols) != TOGGLE_OK;
    for (size_t j = 0; !bad && j < cols; j++)
        bad = x[j] != (uint64_t)(ref[j] - '0');
    fclose(fp);
    free(ref);
    free(x);
    return bad;
}

static int board_run(void *p, int check)
{
    board_state *st = p;
    toggle_solution *sol = NULL;
    if (toggle_solve(&sol, st->s) != TOGGLE_OK)
        return 1;
    int bad = 0;
    if (check) {
        size_t n = toggle_system_cols(st->s);
        uint64_t *v = malloc(n * sizeof *v);
        int ok = 0;
        if (toggle_solution_is_solvable(sol) == 1)
            bad = !v || toggle_solution_particular(sol, v, n) != TOGGLE_OK
               || toggle_system_check(st->s, v, n, &ok) != TOGGLE_OK || !ok;
        else
            bad = !v || toggle_solution_certificate(sol, v, n) != TOGGLE_OK
               || toggle_system_check_certificate(st->s, v, n, &ok) != TOGGLE_OK || !ok;
        free(v);
        if (!bad && st->a->first_row)
            bad = check_first_row(sol, st->a->first_row, st->a->cols);
    }
    toggle_solution_free(sol);
    return bad;
}

/* ---- the pattern sweep: every n <= 70 against every prime p < 70 -------- */

#define SWEEP_N 70
static const uint64_t sweep_primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47,
                                        53, 59, 61, 67};
#define SWEEP_P (sizeof sweep_primes / sizeof *sweep_primes)

static void *sweep_setup(const void *arg)
{
    (void)arg;
    toggle_system **sys = calloc(SWEEP_N * SWEEP_P, sizeof *sys);
    if (!sys)
        return NULL;
    for (size_t n = 1; n <= SWEEP_N; n++) {
        toggle_graph *g = NULL;
        if (toggle_graph_new_grid(&g, n, n, 0) != TOGGLE_OK)
            return NULL;
        for (size_t q = 0; q < SWEEP_P; q++)
            if (toggle_system_new(&sys[(n - 1) * SWEEP_P + q], g, sweep_primes[q], NULL, NULL))
                return NULL;
        toggle_graph_free(g);
    }
    return sys;
}

static int sweep_run(void *p, int check)
{
    toggle_system **sys = p;
    uint64_t *v = check ? malloc(SWEEP_N * SWEEP_N * sizeof *v) : NULL;
    int bad = check && !v;
    for (size_t i = 0; !bad && i < SWEEP_N * SWEEP_P; i++) {
        toggle_solution *sol = NULL;
        if (toggle_solve(&sol, sys[i]) != TOGGLE_OK)
            return 1;
        if (check) {
            size_t n = toggle_system_cols(sys[i]), nul;
            int ok = 0;
            if (toggle_solution_is_solvable(sol) == 1)
                bad = toggle_solution_particular(sol, v, n) || toggle_system_check(sys[i], v, n, &ok);
            else
                bad = toggle_solution_certificate(sol, v, n)
                   || toggle_system_check_certificate(sys[i], v, n, &ok);
            size_t side = i / SWEEP_P + 1;
            bad = bad || !ok
               || toggle_grid_nullity(side, side, sweep_primes[i % SWEEP_P], 0, &nul)
               || nul != toggle_solution_nullity(sol);
        }
        toggle_solution_free(sol);
    }
    free(v);
    return bad;
}

static void sweep_teardown(void *p)
{
    toggle_system **sys = p;
    for (size_t i = 0; i < SWEEP_N * SWEEP_P; i++)
        toggle_system_free(sys[i]);
    free(sys);
}

/* ---- nullity by polynomials ------------------------------------------------ */

typedef struct {
    size_t n;
    uint64_t p;
    size_t expect;
    uint32_t flags; /* TOGGLE_GRID_TORUS: checked by Buchholz's formula (p = 2) */
} nullity_arg;

static void *nullity_setup(const void *arg)
{
    return (void *)arg;
}

static int nullity_run(void *p, int check)
{
    const nullity_arg *a = p;
    size_t d, c;
    if (toggle_grid_nullity(a->n, a->n, a->p, a->flags, &d) != TOGGLE_OK)
        return 1;
    if (check && a->flags == TOGGLE_GRID_TORUS) /* a(n) = 2 A159257(n - 1) + 4 [n = 0 mod 3] */
        return toggle_grid_nullity(a->n - 1, a->n - 1, 2, 0, &c) != TOGGLE_OK
            || d != 2 * c + ((a->n - 1) % 3 == 2 ? 4 : 0);
    return check && a->expect != SIZE_MAX && d != a->expect;
}

static void nullity_teardown(void *p)
{
    (void)p;
}

/* ---- the table --------------------------------------------------------- */

#define C TOGGLE_ENGINE_CHASE
#define F TOGGLE_ENGINE_FLINT
static const board_arg boards[] = {
    /* 0..2: F_2 */
    {1000, 1000, 2, C, NULL, 0}, {4000, 4000, 2, C, NULL, 0},
    {10000, 10000, 2, C, "lightsout-10000-first-row.txt", 0},
    /* 3..8: F_p */
    {1000, 1000, 3, C, NULL, 0}, {2000, 2000, 3, C, NULL, 0},
    {1000, 1000, 29, C, NULL, 0}, {2000, 2000, 29, C, NULL, 0},
    {1000, 1000, 65521, C, NULL, 0}, {2000, 2000, 65521, C, NULL, 0},
    /* 9..14: chase against full elimination */
    {20, 20, 3, C, NULL, 0}, {20, 20, 3, F, NULL, 0},
    {40, 40, 3, C, NULL, 0}, {40, 40, 3, F, NULL, 0},
    {60, 60, 2, C, NULL, 0}, {60, 60, 2, F, NULL, 0},
    /* 15: the published 998 board */
    {998, 998, 2, C, "lightsout-998-first-row.txt", 0},
    /* 16..: every topology and lattice (transfer engine, AUTO) against the
     * classic board (chase) of the same size and modulus */
#define A TOGGLE_ENGINE_AUTO
    {200, 200, 2, C, NULL, 0}, {200, 200, 2, A, NULL, TOGGLE_GRID_TORUS},
    {200, 200, 2, A, NULL, TOGGLE_GRID_CYLINDER}, {200, 200, 2, A, NULL, TOGGLE_GRID_HEX},
    {200, 200, 2, A, NULL, TOGGLE_GRID_TRI},
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_TORUS}, {1000, 1000, 2, A, NULL, TOGGLE_GRID_HEX},
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_TRI},
    {400, 400, 3, C, NULL, 0}, {400, 400, 3, A, NULL, TOGGLE_GRID_TORUS},
    {400, 400, 3, A, NULL, TOGGLE_GRID_HEX}, {400, 400, 3, A, NULL, TOGGLE_GRID_TRI},
    /* 28, 29: the 60 x 60 torus over F_3, transfer against full elimination */
    {60, 60, 3, A, NULL, TOGGLE_GRID_TORUS}, {60, 60, 3, F, NULL, TOGGLE_GRID_TORUS},
    /* 30..32: the cylinder over F_2, hex and tri over F_3 at 1000 x 1000 */
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_CYLINDER},
    {1000, 1000, 3, C, NULL, 0}, {1000, 1000, 3, A, NULL, TOGGLE_GRID_TRI},
    /* 33, 34: hex over F_3 at 1000 x 1000, the F_3 torus at 1000 x 1000 */
    {1000, 1000, 3, A, NULL, TOGGLE_GRID_HEX}, {1000, 1000, 3, A, NULL, TOGGLE_GRID_TORUS},
    /* 35..37: composite k by the chase against the same board mod 3 */
    {500, 500, 3, C, NULL, 0}, {500, 500, 12, C, NULL, 0},
    {500, 500, (uint64_t)1 << 32, C, NULL, 0},
    /* 38, 39: Moore 400 x 401 over F_3 (promoted unknowns) against classic */
    {400, 401, 3, C, NULL, 0}, {400, 401, 3, A, NULL, TOGGLE_GRID_MOORE},
    /* 40: Moore 400 x 400 over F_3 (nullity 0) against the classic 400 x 400 */
    {400, 400, 3, A, NULL, TOGGLE_GRID_MOORE},
    /* 41..44: boards wider than tall (the chase runs on the transpose) against
     * the same board tall */
    {200000, 200, 2, C, NULL, 0}, {200, 200000, 2, C, NULL, 0},
    {30000, 300, 7, C, NULL, 0}, {300, 30000, 7, C, NULL, 0},
    /* 45, 46: F_2 10000 x 10000, the classic board (chase) and the torus
     * (transfer engine, ring route: the small system split by the CRT, nullity
     * 128, an answer of 129 vectors of 10^8 bits) */
    {10000, 10000, 2, C, NULL, 0}, {10000, 10000, 2, A, NULL, TOGGLE_GRID_TORUS},
    /* 47..52: composite k by the transfer engine, the 500 x 500 torus and
     * hex board mod 12 and 2^32 against the same board mod 3 */
    {500, 500, 3, A, NULL, TOGGLE_GRID_TORUS}, {500, 500, 12, A, NULL, TOGGLE_GRID_TORUS},
    {500, 500, (uint64_t)1 << 32, A, NULL, TOGGLE_GRID_TORUS},
    {500, 500, 3, A, NULL, TOGGLE_GRID_HEX}, {500, 500, 12, A, NULL, TOGGLE_GRID_HEX},
    {500, 500, (uint64_t)1 << 32, A, NULL, TOGGLE_GRID_HEX},
    /* 53..55: Moore with self (transfer engine, the separable route): the
     * F_2 1000 x 1000 torus against the classic board (0), the F_7
     * 1000 x 1000 cylinder against the classic F_7 board */
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_MOORE | TOGGLE_GRID_TORUS},
    {1000, 1000, 7, C, NULL, 0}, {1000, 1000, 7, A, NULL, TOGGLE_GRID_MOORE | TOGGLE_GRID_CYLINDER},
    /* 56..60: F_2 1000 x 1000 boards of nullity 1000 to 2000 (answers of
     * 125 to 250 MB), against the classic board (0): the tri cylinder and
     * torus, hex without self open, on a cylinder and on a torus */
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_TRI | TOGGLE_GRID_CYLINDER},
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_TRI | TOGGLE_GRID_TORUS},
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_HEX | TOGGLE_GRID_NO_SELF},
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_HEX | TOGGLE_GRID_NO_SELF | TOGGLE_GRID_CYLINDER},
    {1000, 1000, 2, A, NULL, TOGGLE_GRID_HEX | TOGGLE_GRID_NO_SELF | TOGGLE_GRID_TORUS},
    /* 61: the F_3 tri cylinder at 1000 x 1000 (nullity 1000, an answer of
     * 1 GB; the canonical form from local vectors), against the classic
     * F_3 board (3) */
    {1000, 1000, 3, A, NULL, TOGGLE_GRID_TRI | TOGGLE_GRID_CYLINDER},
#undef A
};
/* The chase on 1 and 2 threads (TOGGLE_SYSTEM_OPT_THREADS; compare wall time). */
typedef struct {
    board_arg b;
    unsigned threads;
} threads_arg;

static const threads_arg threaded[] = {
    {{1000, 1000, 2, C, NULL, 0}, 1}, {{1000, 1000, 2, C, NULL, 0}, 2},
    {{4000, 4000, 2, C, NULL, 0}, 1}, {{4000, 4000, 2, C, NULL, 0}, 2},
    {{2000, 2000, 3, C, NULL, 0}, 1}, {{2000, 2000, 3, C, NULL, 0}, 2},
};

static void *threads_setup(const void *arg)
{
    const threads_arg *a = arg;
    board_state *st = board_state_setup(&a->b);
    if (st && toggle_system_set_option(st->s, TOGGLE_SYSTEM_OPT_THREADS, a->threads)) {
        board_teardown(st);
        return NULL;
    }
    return st;
}

static const nullity_arg nullities[] = {
    {100000, 2, 0, 0}, {100000, 3, 0, 0},
    /* 2..5: the torus nullity by polynomials against the classic one */
    {1000, 2, SIZE_MAX, 0}, {1000, 2, 0, TOGGLE_GRID_TORUS},
    {3000, 2, SIZE_MAX, 0}, {3000, 2, 0, TOGGLE_GRID_TORUS},
};

#define BOARD(name, group, impl, base, quick, reps, i) \
    {name, group, impl, base, quick, reps, board_state_setup, board_run, board_teardown, &boards[i]}

#define THREADS(name, group, impl, quick, reps, i)                                          \
    {name, group, impl, "t1", quick, reps, threads_setup, board_run, board_teardown, &threaded[i]}

static const bench_workload grid_workloads[] = {
    {"grid/sweep/70x19/chase", "grid/sweep/70x19", "chase", NULL, 1, 5, sweep_setup, sweep_run,
     sweep_teardown, NULL},
    BOARD("grid/f2/1000/chase", "grid/f2/1000", "chase", NULL, 1, 5, 0),
    BOARD("grid/f2/4000/chase", "grid/f2/4000", "chase", NULL, 1, 5, 1),
    BOARD("grid/f2/10000/chase", "grid/f2/10000", "chase", NULL, 0, 3, 2),
    BOARD("grid/f2/998/chase", "grid/f2/998", "chase", NULL, 1, 5, 15),
    BOARD("grid/p3/1000/chase", "grid/p3/1000", "chase", NULL, 1, 5, 3),
    BOARD("grid/p3/2000/chase", "grid/p3/2000", "chase", NULL, 1, 5, 4),
    BOARD("grid/p29/1000/chase", "grid/p29/1000", "chase", NULL, 1, 5, 5),
    BOARD("grid/p29/2000/chase", "grid/p29/2000", "chase", NULL, 0, 5, 6),
    BOARD("grid/p65521/1000/chase", "grid/p65521/1000", "chase", NULL, 1, 5, 7),
    BOARD("grid/p65521/2000/chase", "grid/p65521/2000", "chase", NULL, 1, 5, 8),
    BOARD("grid/vs/p3/20x20/chase", "grid/vs/p3/20x20", "chase", "flint", 1, 5, 9),
    BOARD("grid/vs/p3/20x20/flint", "grid/vs/p3/20x20", "flint", "flint", 1, 5, 10),
    BOARD("grid/vs/p3/40x40/chase", "grid/vs/p3/40x40", "chase", "flint", 1, 5, 11),
    BOARD("grid/vs/p3/40x40/flint", "grid/vs/p3/40x40", "flint", "flint", 0, 3, 12),
    BOARD("grid/vs/f2/60x60/chase", "grid/vs/f2/60x60", "chase", "flint", 1, 5, 13),
    BOARD("grid/vs/f2/60x60/flint", "grid/vs/f2/60x60", "flint", "flint", 0, 3, 14),
    BOARD("grid/topo/f2/200/classic", "grid/topo/f2/200", "classic", "classic", 1, 5, 16),
    BOARD("grid/topo/f2/200/torus", "grid/topo/f2/200", "torus", "classic", 1, 5, 17),
    BOARD("grid/topo/f2/200/cylinder", "grid/topo/f2/200", "cylinder", "classic", 1, 5, 18),
    BOARD("grid/topo/f2/200/hex", "grid/topo/f2/200", "hex", "classic", 1, 5, 19),
    BOARD("grid/topo/f2/200/tri", "grid/topo/f2/200", "tri", "classic", 1, 5, 20),
    BOARD("grid/topo/f2/1000/classic", "grid/topo/f2/1000", "classic", "classic", 0, 3, 0),
    BOARD("grid/topo/f2/1000/torus", "grid/topo/f2/1000", "torus", "classic", 0, 3, 21),
    BOARD("grid/topo/f2/1000/hex", "grid/topo/f2/1000", "hex", "classic", 0, 3, 22),
    BOARD("grid/topo/f2/1000/tri", "grid/topo/f2/1000", "tri", "classic", 0, 3, 23),
    BOARD("grid/topo/p3/400/classic", "grid/topo/p3/400", "classic", "classic", 0, 3, 24),
    BOARD("grid/topo/p3/400/torus", "grid/topo/p3/400", "torus", "classic", 0, 3, 25),
    BOARD("grid/topo/p3/400/hex", "grid/topo/p3/400", "hex", "classic", 0, 3, 26),
    BOARD("grid/topo/p3/400/tri", "grid/topo/p3/400", "tri", "classic", 0, 3, 27),
    BOARD("grid/topo/p3/400/moore", "grid/topo/p3/400", "moore", "classic", 0, 3, 40),
    BOARD("grid/vs/p3/60x60torus/transfer", "grid/vs/p3/60x60torus", "transfer", "flint", 1, 3,
          28),
    BOARD("grid/vs/p3/60x60torus/flint", "grid/vs/p3/60x60torus", "flint", "flint", 0, 3, 29),
    BOARD("grid/topo/f2/1000/cylinder", "grid/topo/f2/1000", "cylinder", "classic", 0, 3, 30),
    BOARD("grid/topo/p3/1000/classic", "grid/topo/p3/1000", "classic", "classic", 0, 3, 31),
    BOARD("grid/topo/p3/1000/tri", "grid/topo/p3/1000", "tri", "classic", 0, 1, 32),
    BOARD("grid/topo/p3/1000/hex", "grid/topo/p3/1000", "hex", "classic", 0, 1, 33),
    BOARD("grid/topo/p3/1000/torus", "grid/topo/p3/1000", "torus", "classic", 0, 1, 34),
    BOARD("grid/composite/500/mod3", "grid/composite/500", "mod3", "mod3", 1, 5, 35),
    BOARD("grid/composite/500/mod12", "grid/composite/500", "mod12", "mod3", 1, 5, 36),
    BOARD("grid/composite/500/mod2^32", "grid/composite/500", "mod2^32", "mod3", 1, 5, 37),
    THREADS("grid/threads/f2/1000/t1", "grid/threads/f2/1000", "t1", 1, 9, 0),
    THREADS("grid/threads/f2/1000/t2", "grid/threads/f2/1000", "t2", 1, 9, 1),
    THREADS("grid/threads/f2/4000/t1", "grid/threads/f2/4000", "t1", 0, 7, 2),
    THREADS("grid/threads/f2/4000/t2", "grid/threads/f2/4000", "t2", 0, 7, 3),
    THREADS("grid/threads/p3/2000/t1", "grid/threads/p3/2000", "t1", 0, 7, 4),
    THREADS("grid/threads/p3/2000/t2", "grid/threads/p3/2000", "t2", 0, 7, 5),
    BOARD("grid/wide/f2/200x200000/tall", "grid/wide/f2/200x200000", "tall", "tall", 0, 3, 41),
    BOARD("grid/wide/f2/200x200000/wide", "grid/wide/f2/200x200000", "wide", "tall", 0, 3, 42),
    BOARD("grid/wide/p7/300x30000/tall", "grid/wide/p7/300x30000", "tall", "tall", 0, 3, 43),
    BOARD("grid/wide/p7/300x30000/wide", "grid/wide/p7/300x30000", "wide", "tall", 0, 3, 44),
    BOARD("grid/topo/p3/400x401/classic", "grid/topo/p3/400x401", "classic", "classic", 0, 3, 38),
    BOARD("grid/topo/p3/400x401/moore", "grid/topo/p3/400x401", "moore", "classic", 0, 3, 39),
    BOARD("grid/topo/f2/10000/classic", "grid/topo/f2/10000", "classic", "classic", 0, 1, 45),
    BOARD("grid/topo/f2/10000/torus", "grid/topo/f2/10000", "torus", "classic", 0, 1, 46),
    BOARD("grid/composite/500torus/mod3", "grid/composite/500torus", "mod3", "mod3", 1, 5, 47),
    BOARD("grid/composite/500torus/mod12", "grid/composite/500torus", "mod12", "mod3", 1, 5, 48),
    BOARD("grid/composite/500torus/mod2^32", "grid/composite/500torus", "mod2^32", "mod3", 1, 5,
          49),
    BOARD("grid/composite/500hex/mod3", "grid/composite/500hex", "mod3", "mod3", 1, 5, 50),
    BOARD("grid/composite/500hex/mod12", "grid/composite/500hex", "mod12", "mod3", 1, 5, 51),
    BOARD("grid/composite/500hex/mod2^32", "grid/composite/500hex", "mod2^32", "mod3", 1, 5, 52),
    BOARD("grid/moore/f2/1000/classic", "grid/moore/f2/1000", "classic", "classic", 0, 3, 0),
    BOARD("grid/moore/f2/1000/torus", "grid/moore/f2/1000", "torus", "classic", 0, 3, 53),
    BOARD("grid/moore/p7/1000/classic", "grid/moore/p7/1000", "classic", "classic", 0, 3, 54),
    BOARD("grid/moore/p7/1000/cylinder", "grid/moore/p7/1000", "cylinder", "classic", 0, 3, 55),
    BOARD("grid/nullwide/f2/1000/classic", "grid/nullwide/f2/1000", "classic", "classic", 0, 3, 0),
    BOARD("grid/nullwide/f2/1000/tri-cyl", "grid/nullwide/f2/1000", "tri-cyl", "classic", 0, 1, 56),
    BOARD("grid/nullwide/f2/1000/tri-torus", "grid/nullwide/f2/1000", "tri-torus", "classic", 0, 1,
          57),
    BOARD("grid/nullwide/f2/1000/hex-noself", "grid/nullwide/f2/1000", "hex-noself", "classic", 0,
          1, 58),
    BOARD("grid/nullwide/f2/1000/hex-cyl-ns", "grid/nullwide/f2/1000", "hex-cyl-ns", "classic", 0,
          1, 59),
    BOARD("grid/nullwide/f2/1000/hex-torus-ns", "grid/nullwide/f2/1000", "hex-torus-ns", "classic",
          0, 1, 60),
    BOARD("grid/nullwide/p3/1000/classic", "grid/nullwide/p3/1000", "classic", "classic", 0, 3, 3),
    BOARD("grid/nullwide/p3/1000/tri-cyl", "grid/nullwide/p3/1000", "tri-cyl", "classic", 0, 1, 61),
    {"grid/nullity-torus/f2/1000/classic", "grid/nullity-torus/f2/1000", "classic", "classic", 1,
     5, nullity_setup, nullity_run, nullity_teardown, &nullities[2]},
    {"grid/nullity-torus/f2/1000/torus", "grid/nullity-torus/f2/1000", "torus", "classic", 1, 5,
     nullity_setup, nullity_run, nullity_teardown, &nullities[3]},
    {"grid/nullity-torus/f2/3000/classic", "grid/nullity-torus/f2/3000", "classic", "classic", 0,
     5, nullity_setup, nullity_run, nullity_teardown, &nullities[4]},
    {"grid/nullity-torus/f2/3000/torus", "grid/nullity-torus/f2/3000", "torus", "classic", 0, 5,
     nullity_setup, nullity_run, nullity_teardown, &nullities[5]},
    {"grid/nullity/100000/f2", "grid/nullity/100000/f2", "poly", NULL, 1, 5, nullity_setup,
     nullity_run, nullity_teardown, &nullities[0]},
    {"grid/nullity/100000/f3", "grid/nullity/100000/f3", "poly", NULL, 1, 5, nullity_setup,
     nullity_run, nullity_teardown, &nullities[1]},
};

void bench_register_grid(void)
{
    bench_scaling("grid/threads/");
    bench_register(grid_workloads, sizeof grid_workloads / sizeof *grid_workloads);
}
