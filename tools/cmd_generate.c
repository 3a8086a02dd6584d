/* toggle generate: random solvable start boards; and the solution-space
 * output of toggle solve (--all-solutions, --fewest). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"

static const char generate_usage[] =
    "usage: toggle generate --grid RxC [options]\n"
    "       toggle generate --chaos RxC [options]   (toggle generate --chaos 6x9 --help)\n"
    "\n"
    "Print a random start board that 'toggle solve --grid RxC --start FILE\n"
    "--target zero' solves: the result of pressing a uniformly random vector,\n"
    "negated, so every reachable board is equally likely.\n"
    "\n"
    "  --grid RxC       the board (classic: self plus 4 neighbours)\n"
    "  --torus          wrap around the edges\n"
    "  --moore          8 neighbours instead of 4\n"
    "  --mod K          the modulus (default 2); composite moduli work too\n"
    "  --unique         the board must have exactly one solution (fails when\n"
    "                   the board's nullity is > 0)\n"
    "  --presses N      its fewest-press solution must have exactly N presses\n"
    "  --metric M       cells (default) or presses: how --presses counts\n"
    "  --lit N          exactly N cells of the board are lit\n"
    "  --count N        print N boards, separated by blank lines (default 1)\n"
    "  --seed S         seed (default 0); the same seed prints the same boards\n"
    "  -h, --help       this help\n";

int cmd_generate(int argc, char **argv)
{
    const char *grid = NULL;
    uint64_t k = 2, seed = 0, presses = UINT64_MAX, lit = UINT64_MAX, count = 1;
    uint32_t flags = 0;
    int unique = 0, metric = TOGGLE_METRIC_CELLS;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--chaos"))
            return cli_generate_chaos(argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *val = NULL, *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(generate_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--torus")) {
            flags |= TOGGLE_GRID_TORUS;
        } else if (!strcmp(a, "--moore")) {
            flags |= TOGGLE_GRID_MOORE;
        } else if (!strcmp(a, "--unique")) {
            unique = 1;
        } else if (cli_opt(argc, argv, &i, "--grid", &val)) {
            if (!(grid = val))
                return cli_fail("--grid", "needs a value such as 5x5");
        } else if (cli_opt(argc, argv, &i, "--mod", &val)) {
            if (!val || cli_parse_u64(val, &k))
                return cli_fail("--mod", "expected a modulus such as 2 or 6");
        } else if (cli_opt(argc, argv, &i, "--seed", &val)) {
            if (!val || cli_parse_u64(val, &seed))
                return cli_fail("--seed", "expected a number");
        } else if (cli_opt(argc, argv, &i, "--presses", &val)) {
            if (!val || cli_parse_u64(val, &presses))
                return cli_fail("--presses", "expected a number");
        } else if (cli_opt(argc, argv, &i, "--lit", &val)) {
            if (!val || cli_parse_u64(val, &lit))
                return cli_fail("--lit", "expected a number");
        } else if (cli_opt(argc, argv, &i, "--count", &val)) {
            if (!val || cli_parse_u64(val, &count) || !count)
                return cli_fail("--count", "expected a positive number");
        } else if (cli_opt(argc, argv, &i, "--metric", &val)) {
            if (cli_parse_metric(val, &metric))
                return cli_fail("--metric", "expected cells or presses");
        } else {
            return cli_fail("generate", "unknown argument '%s' (see toggle generate --help)", a);
        }
    }
    size_t rows, cols;
    if (!grid || cli_parse_shape(grid, &rows, &cols))
        return cli_fail("generate", "--grid RxC is required (see --help)");
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_generator *gen = NULL;
    uint64_t *board = NULL;
    int rc = toggle_graph_new_grid(&g, rows, cols, flags);
    const char *what = "--grid";
    if (!rc && (what = "system", 1))
        rc = toggle_system_new(&s, g, k, NULL, NULL);
    if (!rc && (what = "generator", 1))
        rc = toggle_generator_new(&gen, s);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_OPT_SEED, seed);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_OPT_UNIQUE, (uint64_t)unique);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_OPT_METRIC, (uint64_t)metric);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_OPT_PRESSES, presses);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_OPT_LIT, lit);
    size_t n = rows * cols;
    if (!rc && !(board = calloc(n ? n : 1, sizeof *board))) {
        rc = TOGGLE_ENOMEM;
    }
    int status = 0;
    for (uint64_t c = 0; !rc && c < count; c++) {
        uint64_t w;
        what = "generate";
        rc = toggle_generator_next(gen, board, n, &w);
        if (rc)
            break;
        if (c)
            putchar('\n');
        printf("# toggle generate --grid %zux%zu --mod %llu --seed %llu%s", rows, cols,
               (unsigned long long)k, (unsigned long long)seed, unique ? " --unique" : "");
        if (presses != UINT64_MAX)
            printf(" --presses %llu", (unsigned long long)presses);
        if (lit != UINT64_MAX)
            printf(" --lit %llu", (unsigned long long)lit);
        if (w != UINT64_MAX)
            printf(" (fewest %s: %llu)", metric == TOGGLE_METRIC_CELLS ? "cells" : "presses",
                   (unsigned long long)w);
        putchar('\n');
        rc = cli_print_board(stdout, board, rows, cols, k);
    }
    if (rc)
        status = cli_status(what, rc);
    free(board);
    toggle_generator_free(gen);
    toggle_system_free(s);
    toggle_graph_free(g);
    return status;
}

int cli_parse_metric(const char *s, int *metric)
{
    if (s && !strcmp(s, "cells"))
        *metric = TOGGLE_METRIC_CELLS;
    else if (s && !strcmp(s, "presses"))
        *metric = TOGGLE_METRIC_PRESSES;
    else
        return 1;
    return 0;
}

/* Read n costs: whitespace-separated non-negative integers, 'x' for a cell
 * that may not be pressed. NULL (message printed) on error. */
static uint64_t *read_costs(const char *path, size_t n)
{
    FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!in) {
        cli_fail("--cost", "cannot open the cost file");
        return NULL;
    }
    uint64_t *c = calloc(n ? n : 1, sizeof *c);
    size_t got = 0;
    char tok[32];
    int bad = !c;
    while (!bad && fscanf(in, "%31s", tok) == 1) {
        if (got == n) {
            bad = 1;
            break;
        }
        if (!strcmp(tok, "x") || !strcmp(tok, "X"))
            c[got++] = TOGGLE_COST_FORBIDDEN;
        else if (cli_parse_u64(tok, &c[got]) || c[got] == TOGGLE_COST_FORBIDDEN)
            bad = 1;
        else
            got++;
    }
    if (in != stdin)
        fclose(in);
    if (bad || got != n) {
        free(c);
        cli_fail("--cost", "expected one cost per cell (non-negative integers, x = forbidden)");
        return NULL;
    }
    return c;
}

int cli_space_report_costs(FILE *f, const toggle_solution *sol, size_t rows, size_t cols,
                           int all_solutions, uint64_t limit, int fewest, int metric,
                           const char *cost_file, uint64_t threads)
{
    if (toggle_solution_is_solvable(sol) != 1)
        return 0;
    size_t n = toggle_solution_cols(sol);
    uint64_t k = toggle_solution_modulus(sol);
    uint64_t *x = calloc(n ? n : 1, sizeof *x);
    if (!x)
        return cli_fail("solve", "out of memory");
    int rc = TOGGLE_OK;
    if (fewest) {
        toggle_search *se = NULL;
        uint64_t w = 0, visited = 0, lower = 0;
        int proven = 0;
        uint64_t *cost = NULL;
        if (cost_file && !(cost = read_costs(cost_file, n))) {
            free(x);
            return 1;
        }
        rc = toggle_search_new(&se, sol);
        if (!rc)
            rc = toggle_search_set_option(se, TOGGLE_OPT_METRIC, (uint64_t)metric);
        if (!rc && limit)
            rc = toggle_search_set_option(se, TOGGLE_OPT_SEARCH_LIMIT, limit);
        if (!rc && threads != UINT64_MAX)
            rc = toggle_search_set_option(se, TOGGLE_OPT_THREADS, threads);
        if (!rc && cost)
            rc = toggle_search_set_costs(se, cost, n);
        free(cost);
        if (!rc)
            rc = toggle_search_run(se);
        if (rc == TOGGLE_ENOSOLUTION && cost_file) {
            toggle_search_free(se);
            free(x);
            fprintf(f, "fewest: no solution with these cells (none presses only the allowed "
                       "cells)\n");
            return 0;
        }
        if (!rc)
            rc = toggle_search_result(se, x, n, &w, &proven, &visited);
        if (!rc)
            rc = toggle_search_bound(se, &lower);
        toggle_search_free(se);
        if (rc) {
            free(x);
            return cli_status("--fewest", rc);
        }
        fprintf(f, "fewest %s: %llu (%s; %llu solutions examined)\n",
                metric == TOGGLE_METRIC_CELLS ? "cells" : "presses", (unsigned long long)w,
                proven ? "proven optimal" : "best found within the limit, not proven",
                (unsigned long long)visited);
        if (!proven)
            fprintf(f, "lower bound: %llu\n", (unsigned long long)lower);
        if (cli_print_vector(f, x, n, rows, cols, k)) {
            free(x);
            return 1;
        }
    }
    if (all_solutions) {
        toggle_iter *it = NULL;
        rc = toggle_iter_new(&it, sol);
        while (!rc && (!limit || toggle_iter_produced(it) < limit)) {
            rc = toggle_iter_next(it, x, n);
            if (rc)
                break;
            fprintf(f, "solution %llu:\n", (unsigned long long)toggle_iter_produced(it));
            if (cli_print_vector(f, x, n, rows, cols, k)) {
                toggle_iter_free(it);
                free(x);
                return 1;
            }
        }
        toggle_iter_free(it);
        if (rc == TOGGLE_ITEROVER)
            rc = TOGGLE_OK;
        if (rc) {
            free(x);
            return cli_status("--all-solutions", rc);
        }
    }
    free(x);
    return 0;
}
