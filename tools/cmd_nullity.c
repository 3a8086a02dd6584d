/* toggle nullity: the nullity of a grid board over F_p, by polynomials (no elimination). */
#include <string.h>

#include "commands.h"

static const char nullity_usage[] =
    "usage: toggle nullity --grid RxC [--mod K] [--no-self] [--torus|--cylinder] [--moore]\n"
    "                      [--lattice square|hex|tri] [--json]\n"
    "\n"
    "The nullity d of the rows x cols board over F_p (the board has p^d\n"
    "solutions when solvable): deg gcd(P_rows(x), P_cols(x + 1)) for the classic\n"
    "board, deg gcd(P_rows(x), P_cols(x)) with --no-self. The torus and the\n"
    "cylinder by polynomials over F_p[y]/(y^cols - 1), Moore boards with self by\n"
    "the ranks of their two tridiagonal (or circulant) factors; other boards\n"
    "(Moore without self, hex, tri) are solved by the fastest engine that\n"
    "applies: the transfer chase where it peels, else full elimination. See\n"
    "docs/grid.md and docs/transfer.md.\n"
    "\n"
    "  --grid RxC   board shape (required)\n"
    "  --mod K      the modulus (default 2); composite K: the number of Howell\n"
    "               rows of the kernel, as toggle_solution_nullity counts them\n"
    "  --no-self    pressing a cell leaves it alone\n"
    "  --torus      wrap around the edges\n"
    "  --cylinder   wrap left-right only\n"
    "  --moore      8 neighbours\n"
    "  --lattice L  square (default), hex (odd-r rows) or tri (docs/lattices.md)\n"
    "  --json       one JSON object (docs/json.md): rows, cols, modulus, nullity,\n"
    "               timing\n"
    "  --budget B   memory budget in bytes for boards solved by an engine\n"
    "               (default 4 GiB; 0 = unlimited)\n"
    "  -h, --help   this help\n";

/* A board an engine solves, held to the budget: the system's right-hand
 * side is checked first (before it is allocated), the solve's own estimate
 * by the library. */
static int nullity_solved(size_t rows, size_t cols, uint64_t k, uint32_t flags, uint64_t budget,
                          size_t *d)
{
    int over = cli_budget_board("nullity", budget, rows, cols, 1);
    if (over)
        return over;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    int rc = toggle_graph_new_grid(&g, rows, cols, flags);
    if (!rc)
        rc = toggle_system_new(&s, g, k, NULL, NULL);
    if (!rc)
        rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, budget);
    if (!rc)
        rc = toggle_solve(&sol, s);
    if (!rc)
        *d = toggle_solution_nullity(sol);
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return rc ? cli_status("nullity", rc) : 0;
}

int cmd_nullity(int argc, char **argv)
{
    const char *grid = NULL;
    uint64_t k = 2, budget = TOGGLE_DEFAULT_MEMORY_BUDGET;
    uint32_t flags = 0;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *val = NULL, *a = argv[i];
        int lat = cli_lattice_opt(argc, argv, &i, &flags);
        if (lat < 0)
            return CLI_EXIT_USAGE;
        if (lat) {
            continue;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(nullity_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--no-self")) {
            flags |= TOGGLE_GRID_NO_SELF;
        } else if (!strcmp(a, "--torus")) {
            flags |= TOGGLE_GRID_TORUS;
        } else if (!strcmp(a, "--moore")) {
            flags |= TOGGLE_GRID_MOORE;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (cli_opt(argc, argv, &i, "--grid", &val)) {
            if (!(grid = val))
                return cli_usage("--grid", "needs a value such as 5x5");
        } else if (cli_opt(argc, argv, &i, "--mod", &val)) {
            if (!val || cli_parse_u64(val, &k))
                return cli_usage("--mod", "expected a modulus such as 2, 65521 or 12");
        } else if (cli_opt(argc, argv, &i, "--budget", &val)) {
            int bad = cli_budget_parse(val, &budget);
            if (bad)
                return bad;
        } else {
            return cli_usage("nullity", "unknown argument '%s' (see toggle nullity --help)", a);
        }
    }
    size_t rows, cols, d;
    cli_clock clock;
    cli_clock_start(&clock);
    if (!grid)
        return cli_usage("nullity", "--grid RxC is required (see toggle nullity --help)");
    if (cli_parse_shape(grid, &rows, &cols))
        return cli_usage("--grid", "expected RxC such as 5x5, got '%s'", grid);
    /* classic and no-self boards, and every board under the default budget:
     * the library's own nullity (polynomials where a formula exists, held
     * to the default budget by the library); another --budget on the other
     * boards: solved here under that budget */
    int rc;
    /* the boards an engine solves hold a right-hand side a cell: refused
     * at once when that alone is over the budget */
    if (flags & ~(uint32_t)TOGGLE_GRID_NO_SELF) {
        rc = cli_budget_board("nullity", budget, rows, cols, 1);
        if (rc)
            return rc;
    }
    if ((flags & ~(uint32_t)TOGGLE_GRID_NO_SELF) && budget != TOGGLE_DEFAULT_MEMORY_BUDGET) {
        /* the modulus and flags, with the library's messages, on one cell */
        rc = toggle_grid_nullity(1, 1, k, flags, &d);
        if (rc)
            return cli_status("nullity", rc);
        rc = nullity_solved(rows, cols, k, flags, budget, &d);
        if (rc)
            return rc;
    } else {
        rc = toggle_grid_nullity(rows, cols, k, flags, &d);
        if (rc)
            return cli_status("nullity", rc);
    }
    if (json) {
        cli_json_begin(stdout, "nullity");
        cli_json_board(stdout, rows, cols);
        printf(",\"modulus\":%llu,\"nullity\":%zu", (unsigned long long)k, d);
        cli_json_timing(stdout, &clock);
        puts("}");
    } else
        printf("%zu\n", d);
    return 0;
}
