/* toggle demo: a short tour of what the library does, on built-in examples. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"

static void print_answer(const toggle_system *s, const toggle_solution *sol, size_t rows,
                         size_t cols, const char *title)
{
    size_t n = rows * cols;
    uint64_t k = toggle_system_modulus(s);
    char count[64];
    toggle_solution_count_string(sol, count, sizeof count, NULL);
    printf("== %s\n", title);
    printf("   %zu x %zu board over Z/%lluZ, all off -> all on (engine: %s)\n", rows, cols,
           (unsigned long long)k, toggle_engine_name(toggle_solution_engine(sol)));
    printf("   nullity %zu, %s solution(s)\n", toggle_solution_nullity(sol), count);
    uint64_t *v = calloc(n, sizeof *v);
    if (!v)
        return;
    int ok = 0;
    if (toggle_solution_is_solvable(sol) == 1) {
        toggle_solution_particular(sol, v, n);
        toggle_system_check(s, v, n, &ok);
        printf("   presses (checked by applying them: %s):\n", ok ? "all on" : "WRONG");
    } else {
        toggle_solution_certificate(sol, v, n);
        toggle_system_check_certificate(s, v, n, &ok);
        printf("   no solution; proof y with yA = 0, y.b != 0 (%s):\n", ok ? "verified" : "WRONG");
    }
    for (size_t r = 0; r < rows; r++) {
        printf("     ");
        for (size_t c = 0; c < cols; c++)
            printf("%llu", (unsigned long long)v[r * cols + c]);
        printf("\n");
    }
    printf("\n");
    free(v);
}

static int show_grid(size_t rows, size_t cols, uint64_t k, const char *title)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    int rc = toggle_graph_new_grid(&g, rows, cols, TOGGLE_GRID_CLASSIC);
    if (!rc)
        rc = toggle_system_new(&s, g, k, NULL, NULL);
    if (!rc)
        rc = toggle_solve(&sol, s);
    if (!rc)
        print_answer(s, sol, rows, cols, title);
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return rc ? cli_status("demo", rc) : 0;
}

static int show_chaos(void)
{
    /* a 4-cell chaos puzzle: column j lists the cells that pressing j changes */
    static const char text[] = "# a chaos puzzle over Z/3Z\n"
                               "1 1 0 2|2\n"
                               "0 1 1 0|2\n"
                               "2 0 1 1|0\n"
                               "1 0 0 1|2\n";
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    int rc = toggle_system_parse(&s, text, sizeof text - 1, 3);
    if (!rc)
        rc = toggle_solve(&sol, s);
    if (rc) {
        toggle_system_free(s);
        return cli_status("demo", rc);
    }
    printf("== A chaos puzzle read from the augmented text format\n%s", text);
    uint64_t x[4];
    if (toggle_solution_particular(sol, x, 4) == TOGGLE_OK)
        printf("   solution: %llu %llu %llu %llu (nullity %zu)\n\n", (unsigned long long)x[0],
               (unsigned long long)x[1], (unsigned long long)x[2], (unsigned long long)x[3],
               toggle_solution_nullity(sol));
    else
        printf("   no solution\n\n");
    toggle_solution_free(sol);
    toggle_system_free(s);
    return 0;
}

int cmd_demo(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs("usage: toggle demo\n\n"
                  "Solve a few built-in puzzles (the classic 5 x 5 board, hard mode mod 3,\n"
                  "a board with no solution and its proof, a 20 x 20 board mod 7, and a\n"
                  "chaos puzzle in the augmented text format) and check every answer.\n",
                  stdout);
            return 0;
        }
        return cli_usage("demo", "unknown argument '%s' (see toggle demo --help)", argv[i]);
    }
    printf("libtoggle %s: Lights Out and its relatives as linear algebra over Z/kZ\n\n",
           toggle_version_string());
    int rc = show_grid(5, 5, 2, "The classic 5 x 5 Lights Out board");
    rc = rc || show_grid(3, 3, 3, "Hard mode: three states per light");
    rc = rc || show_grid(2, 2, 3, "A board with no solution");
    rc = rc || show_grid(20, 20, 7, "A 20 x 20 board over Z/7Z");
    rc = rc || show_chaos();
    if (!rc)
        printf("More: toggle solve --help\n");
    return rc;
}
