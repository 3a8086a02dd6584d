/* toggle nullity: the nullity of a grid board over F_p, by polynomials (no elimination). */
#include <string.h>

#include "commands.h"

static const char nullity_usage[] =
    "usage: toggle nullity --grid RxC [--mod P] [--no-self] [--torus|--cylinder] [--moore]\n"
    "                      [--lattice square|hex|tri] [--json]\n"
    "\n"
    "The nullity d of the rows x cols board over F_p (the board has p^d\n"
    "solutions when solvable): deg gcd(P_rows(x), P_cols(x + 1)) for the classic\n"
    "board, deg gcd(P_rows(x), P_cols(x)) with --no-self. Other boards (torus,\n"
    "cylinder, Moore, hex, tri) are solved by the fastest engine that applies:\n"
    "the transfer chase where it peels, else full elimination. See docs/grid.md\n"
    "and docs/transfer.md.\n"
    "\n"
    "  --grid RxC   board shape (required)\n"
    "  --mod P      a prime modulus (default 2)\n"
    "  --no-self    pressing a cell leaves it alone\n"
    "  --torus      wrap around the edges\n"
    "  --cylinder   wrap left-right only\n"
    "  --moore      8 neighbours\n"
    "  --lattice L  square (default), hex (odd-r rows) or tri (docs/lattices.md)\n"
    "  --json       one JSON object (docs/json.md): rows, cols, modulus, nullity,\n"
    "               timing\n"
    "  -h, --help   this help\n";

int cmd_nullity(int argc, char **argv)
{
    const char *grid = NULL;
    uint64_t k = 2;
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
                return cli_usage("--mod", "expected a prime such as 2 or 65521");
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
    int rc = toggle_grid_nullity(rows, cols, k, flags, &d);
    if (rc)
        return cli_status("nullity", rc);
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
