/* toggle-abx: two builds of libtoggle in one process, their solves
 * alternating (maintainers only; not installed, not run by meson test).
 *
 *   toggle-abx OLD.so NEW.so dense:N|board:N THREADS REPS
 *
 * Loads both shared libraries (dlopen, RTLD_LOCAL), builds the same
 * system in each (dense: a random N x N packed A and b = A x from a fixed
 * seed; board: the N x N Lights Out grid, all lights on), forces the gf2
 * engine and THREADS, then solves REPS + 1 times in each, old and new in
 * turn (the order swapped every round; the first round is a warm-up whose
 * particular solutions must agree). Prints the medians and the median,
 * first and third quartile of the per-round ratios new / old: on a shared
 * machine whose speed moves from second to second, a ratio of two solves
 * a few milliseconds apart is steadier than two runs of toggle-bench. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <toggle.h>

typedef struct lib {
    int (*new_packed)(toggle_system **, size_t, size_t, const uint64_t *, size_t,
                      const uint64_t *);
    int (*new_grid)(toggle_graph **, size_t, size_t, uint32_t);
    int (*new_system)(toggle_system **, const toggle_graph *, uint64_t, const uint64_t *,
                      const uint64_t *);
    void (*graph_free)(toggle_graph *);
    int (*set_option)(toggle_system *, int, uint64_t);
    int (*solve)(toggle_solution **, const toggle_system *);
    int (*particular)(const toggle_solution *, uint64_t *, size_t);
    void (*solution_free)(toggle_solution *);
    void (*system_free)(toggle_system *);
    toggle_system *s;
} lib;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define SYM(L, h, f, name)                                                                   \
    do {                                                                                     \
        *(void **)&(L)->f = dlsym(h, name);                                                  \
        if (!(L)->f) {                                                                       \
            fprintf(stderr, "toggle-abx: %s has no %s\n", path, name);                      \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

static int load(lib *L, const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "toggle-abx: %s\n", dlerror());
        return 1;
    }
    SYM(L, h, new_packed, "toggle_system_new_packed");
    SYM(L, h, new_grid, "toggle_graph_new_grid");
    SYM(L, h, new_system, "toggle_system_new");
    SYM(L, h, graph_free, "toggle_graph_free");
    SYM(L, h, set_option, "toggle_system_set_option");
    SYM(L, h, solve, "toggle_solve");
    SYM(L, h, particular, "toggle_solution_particular");
    SYM(L, h, solution_free, "toggle_solution_free");
    SYM(L, h, system_free, "toggle_system_free");
    return 0;
}

static int build(lib *L, int board, size_t n, const uint64_t *a, const uint64_t *b,
                 unsigned threads)
{
    int rc;
    if (board) {
        toggle_graph *g = NULL;
        uint64_t *on = malloc(n * n * sizeof *on);
        if (!on)
            return 1;
        for (size_t i = 0; i < n * n; i++)
            on[i] = 1;
        rc = L->new_grid(&g, n, n, 0);
        if (!rc)
            rc = L->new_system(&L->s, g, 2, on, NULL);
        L->graph_free(g);
        free(on);
    } else {
        rc = L->new_packed(&L->s, n, n, a, (n + 63) / 64, b);
    }
    if (!rc)
        rc = L->set_option(L->s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_GF2);
    if (!rc)
        rc = L->set_option(L->s, TOGGLE_SYSTEM_OPT_THREADS, threads);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 6 || (strncmp(argv[3], "dense:", 6) && strncmp(argv[3], "board:", 6))) {
        fprintf(stderr, "usage: toggle-abx OLD.so NEW.so dense:N|board:N THREADS REPS\n");
        return 2;
    }
    int board = argv[3][0] == 'b';
    size_t n = strtoul(argv[3] + 6, NULL, 10), cells = board ? n * n : n;
    unsigned threads = (unsigned)strtoul(argv[4], NULL, 10);
    int reps = atoi(argv[5]);
    if (n == 0 || reps < 1 || reps > 100000) {
        fprintf(stderr, "toggle-abx: N and REPS must be positive\n");
        return 2;
    }
    uint64_t *a = NULL, *b = NULL, seed = 1;
    if (!board) { /* b = A x: solvable */
        size_t W = (n + 63) / 64;
        a = malloc(n * W * sizeof *a);
        b = calloc(W, sizeof *b);
        uint64_t *x = malloc(W * sizeof *x);
        if (!a || !b || !x)
            return 1;
        for (size_t i = 0; i < n * W; i++)
            a[i] = next(&seed);
        for (size_t w = 0; w < W; w++)
            x[w] = next(&seed);
        for (size_t i = 0; i < n; i++) {
            uint64_t acc = 0;
            for (size_t w = 0; w < W; w++)
                acc ^= a[i * W + w] & x[w];
            b[i / 64] |= (uint64_t)__builtin_parityll(acc) << (i % 64);
        }
        free(x);
    }
    lib L[2];
    memset(L, 0, sizeof L);
    for (int k = 0; k < 2; k++)
        if (load(&L[k], argv[1 + k]) || build(&L[k], board, n, a, b, threads)) {
            fprintf(stderr, "toggle-abx: could not set up %s\n", argv[1 + k]);
            return 1;
        }
    free(a);
    free(b);
    double *t[2] = {malloc(reps * sizeof(double)), malloc(reps * sizeof(double))};
    double *r = malloc(reps * sizeof *r);
    uint64_t *x[2] = {malloc(cells * sizeof(uint64_t)), malloc(cells * sizeof(uint64_t))};
    if (!t[0] || !t[1] || !r || !x[0] || !x[1])
        return 1;
    for (int i = 0; i <= reps; i++)
        for (int j = 0; j < 2; j++) {
            int k = (i + j) & 1;
            toggle_solution *sol = NULL;
            double t0 = now_ms();
            if (L[k].solve(&sol, L[k].s)) {
                fprintf(stderr, "toggle-abx: %s failed to solve\n", argv[1 + k]);
                return 1;
            }
            double t1 = now_ms();
            if (i == 0 && L[k].particular(sol, x[k], cells)) {
                fprintf(stderr, "toggle-abx: %s gave no particular solution\n", argv[1 + k]);
                return 1;
            }
            L[k].solution_free(sol);
            if (i)
                t[k][i - 1] = t1 - t0;
        }
    if (memcmp(x[0], x[1], cells * sizeof(uint64_t))) {
        fprintf(stderr, "toggle-abx: the two builds' particular solutions differ\n");
        return 1;
    }
    for (int i = 0; i < reps; i++)
        r[i] = t[1][i] / t[0][i];
    qsort(r, reps, sizeof *r, cmp);
    qsort(t[0], reps, sizeof(double), cmp);
    qsort(t[1], reps, sizeof(double), cmp);
    printf("%s threads %u: old %.3f ms, new %.3f ms; new / old %.3f (quartiles %.3f, %.3f; "
           "%d rounds)\n",
           argv[3], threads, t[0][reps / 2], t[1][reps / 2], r[reps / 2], r[reps / 4],
           r[3 * reps / 4], reps);
    for (int k = 0; k < 2; k++)
        L[k].system_free(L[k].s);
    free(t[0]);
    free(t[1]);
    free(r);
    free(x[0]);
    free(x[1]);
    return 0;
}
