/* toggle solve: build a system from a grid, an edge list or an augmented file; solve; print. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"

static const char solve_usage[] =
    "usage: toggle solve (--grid RxC | --graph EDGELIST | --system FILE) [options]\n"
    "\n"
    "Solve A x = target - start over Z/kZ and print whether it is solvable, the\n"
    "nullity, the number of solutions and the canonical solution (reduced row\n"
    "echelon form, every free variable 0).\n"
    "\n"
    "Puzzle:\n"
    "  --grid RxC         a rows x cols board (classic: self plus 4 neighbours)\n"
    "  --torus            wrap around the edges (with --grid)\n"
    "  --cylinder         wrap left-right only (with --grid)\n"
    "  --lattice L        square (default), hex (odd rows shifted right) or tri\n"
    "                     (triangles, (r + c) even up); docs/lattices.md\n"
    "  --no-self          a press leaves the pressed cell alone (--grid, --graph)\n"
    "  --moore            8 neighbours instead of 4 (with --grid)\n"
    "  --graph FILE       an undirected graph as an edge list ('u v' per line,\n"
    "                     optional first line 'nodes N'; '-' = standard input)\n"
    "  --system FILE      an augmented matrix, one equation per line 'a b c|r'\n"
    "                     ('-' = standard input)\n"
    "  --start FILE       start state as a board (default: all 0); 'zero', 'ones'\n"
    "  --target FILE      target state as a board (default: all 1); 'zero', 'ones'\n"
    "  --mod K            the modulus (default 2)\n"
    "Solving:\n"
    "  --engine NAME      auto (default), flint, gf2, chase, howell\n"
    "  --threads N        threads for the solve (default 0: every online CPU)\n"
    "  --budget BYTES     memory budget for the solver (0 = unlimited)\n"
    "Output:\n"
    "  --all              also print the kernel basis\n"
    "  --all-solutions    print every solution (Gray order over the kernel)\n"
    "  --limit N          with --all-solutions: at most N; with --fewest: examine\n"
    "                     at most N solutions (default 2^32)\n"
    "  --fewest           print a solution with the fewest presses\n"
    "  --metric M         for --fewest: cells (default) or presses (sum of x_i)\n"
    "  --steps            print the elimination as a script of row operations\n"
    "                     (plain Gauss-Jordan; replay it with toggle rowops)\n"
    "  --orbits           with --grid: the number of solutions up to the board's\n"
    "                     symmetries (prime k)\n"
    "  --cost FILE        for --fewest: a board of per-cell costs, whitespace-\n"
    "                     separated, one row per line; x = may not be pressed\n"
    "  --json             one JSON object with the keys solvable, modulus, engine,\n"
    "                     rows, cols, nullity, count, solution, kernel and (when\n"
    "                     unsolvable) certificate\n"
    "  -h, --help         this help\n";

typedef struct {
    const char *grid, *graph, *system, *start, *target, *engine, *budget;
    uint64_t k;
    uint32_t flags;
    int json, all, steps, orbits;
    int all_solutions, fewest, metric; /* solution spaces (cli_space_report) */
    uint64_t limit;
    const char *cost;
    uint64_t threads; /* --threads: 0 (default) = every online CPU */
} solve_opts;

/* Read a start or target state: a board file or a keyword. *out is malloc'd
 * (NULL for the library default, which is what "default" means). */
static int read_state(const char *spec, size_t n, size_t rows, size_t cols, uint64_t k,
                      uint64_t **out)
{
    *out = NULL;
    if (!spec)
        return 0;
    uint64_t *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return cli_fail("state", "out of memory");
    if (!strcmp(spec, "zero") || !strcmp(spec, "zeros")) {
        *out = v;
        return 0;
    }
    if (!strcmp(spec, "ones") || !strcmp(spec, "one")) {
        for (size_t i = 0; i < n; i++)
            v[i] = 1 % k;
        *out = v;
        return 0;
    }
    size_t len;
    char *text = cli_read_file(spec, &len);
    if (!text) {
        free(v);
        return cli_fail(spec, "cannot read the file");
    }
    size_t r = 0, c = 0;
    int rc = toggle_board_parse(text, len, k, v, n, &r, &c);
    free(text);
    if (rc == TOGGLE_EBUFSIZE || (rc == TOGGLE_OK && (r * c != n || (rows && (r != rows || c != cols))))) {
        free(v);
        return cli_fail(spec, "the board is %zux%zu, the puzzle has %zux%zu cells", r, c,
                        rows ? rows : 1, rows ? cols : n);
    }
    if (rc) {
        free(v);
        return cli_status(spec, rc);
    }
    *out = v;
    return 0;
}

static int build_system(const solve_opts *o, toggle_system **sys, size_t *rows, size_t *cols)
{
    int rc;
    *rows = *cols = 0;
    if (o->system) {
        size_t len;
        char *text = cli_read_file(o->system, &len);
        if (!text)
            return cli_fail(o->system, "cannot read the file");
        rc = toggle_system_parse(sys, text, len, o->k);
        free(text);
        return rc ? cli_status(o->system, rc) : 0;
    }
    toggle_graph *g = NULL;
    if (o->grid) {
        if (cli_parse_shape(o->grid, rows, cols))
            return cli_fail("--grid", "expected RxC, for example 5x5, got '%s'", o->grid);
        rc = toggle_graph_new_grid(&g, *rows, *cols, o->flags);
        if (rc)
            return cli_status("--grid", rc);
    } else {
        size_t len;
        char *text = cli_read_file(o->graph, &len);
        if (!text)
            return cli_fail(o->graph, "cannot read the file");
        rc = toggle_graph_parse_edges(&g, text, len,
                                      (o->flags & TOGGLE_GRID_NO_SELF) ? TOGGLE_GRAPH_NO_SELF : 0);
        free(text);
        if (rc)
            return cli_status(o->graph, rc);
    }
    size_t n = toggle_graph_cells(g);
    uint64_t *start = NULL, *target = NULL;
    int bad = read_state(o->start, n, *rows, *cols, o->k, &start)
           || read_state(o->target, n, *rows, *cols, o->k, &target);
    if (!bad) {
        rc = toggle_system_new(sys, g, o->k, start, target);
        if (rc)
            bad = cli_status("system", rc);
    }
    free(start);
    free(target);
    toggle_graph_free(g);
    return bad;
}

static int report(const solve_opts *o, const toggle_system *s, const toggle_solution *sol,
                  size_t rows, size_t cols)
{
    size_t n = toggle_solution_cols(sol), m = toggle_solution_rows(sol);
    size_t d = toggle_solution_nullity(sol);
    int solvable = toggle_solution_is_solvable(sol) == 1;
    uint64_t k = toggle_system_modulus(s);
    size_t need = 0;
    int qrc = toggle_solution_count_string(sol, NULL, 0, &need);
    if (qrc != TOGGLE_EBUFSIZE && qrc != TOGGLE_OK) /* the query itself failed */
        return cli_status("count", qrc);
    char *count = malloc(need ? need : 1);
    uint64_t *v = malloc((n > m ? n : m) * sizeof *v + 8);
    if (!count || !v) {
        free(count);
        free(v);
        return cli_fail("solve", "out of memory");
    }
    int rc = toggle_solution_count_string(sol, count, need, NULL);
    if (rc) {
        free(count);
        free(v);
        return cli_status("count", rc);
    }
    const char *engine = toggle_engine_name(toggle_solution_engine(sol));
    FILE *f = stdout;
    if (o->json) {
        fprintf(f, "{\"solvable\":%s,\"modulus\":%llu,\"engine\":\"%s\",\"rows\":%zu,"
                   "\"cols\":%zu,\"nullity\":%zu,\"count\":\"%s\",\"solution\":",
                solvable ? "true" : "false", (unsigned long long)k, engine, m, n, d, count);
        if (solvable) {
            toggle_solution_particular(sol, v, n);
            cli_json_array(f, v, n);
        } else {
            fputs("null", f);
        }
        fputs(",\"kernel\":[", f);
        for (size_t i = 0; i < d; i++) {
            toggle_solution_kernel_vector(sol, i, v, n);
            if (i)
                fputc(',', f);
            cli_json_array(f, v, n);
        }
        fputc(']', f);
        if (!solvable) {
            fputs(",\"certificate\":", f);
            if (toggle_solution_certificate(sol, v, m) == TOGGLE_OK)
                cli_json_array(f, v, m);
            else
                fputs("null", f);
        }
        fputs("}\n", f);
    } else {
        fprintf(f, "solvable: %s\nmodulus: %llu\nengine: %s\nnullity: %zu\nsolutions: %s\n",
                solvable ? "yes" : "no", (unsigned long long)k, engine, d, count);
        int prc = 0;
        if (solvable) {
            toggle_solution_particular(sol, v, n);
            fputs("solution:\n", f);
            prc = cli_print_vector(f, v, n, rows, cols, k);
        } else if (toggle_solution_certificate(sol, v, m) == TOGGLE_OK) {
            fputs("certificate (y with yA = 0 and y.b != 0):\n", f);
            prc = cli_print_vector(f, v, m, rows, cols, k);
        }
        if (o->all) {
            for (size_t i = 0; i < d && !prc; i++) {
                toggle_solution_kernel_vector(sol, i, v, n);
                fprintf(f, "kernel %zu:\n", i);
                prc = cli_print_vector(f, v, n, rows, cols, k);
            }
        }
        if (prc) {
            free(count);
            free(v);
            return prc;
        }
    }
    free(count);
    free(v);
    return 0;
}

int cmd_solve(int argc, char **argv)
{
    solve_opts o = {0};
    o.k = 2;
    for (int i = 1; i < argc; i++) {
        const char *val = NULL, *a = argv[i];
        int lat = cli_lattice_opt(argc, argv, &i, &o.flags);
        if (lat < 0)
            return 1;
        if (lat) {
            continue;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(solve_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--torus")) {
            o.flags |= TOGGLE_GRID_TORUS;
        } else if (!strcmp(a, "--no-self")) {
            o.flags |= TOGGLE_GRID_NO_SELF;
        } else if (!strcmp(a, "--moore")) {
            o.flags |= TOGGLE_GRID_MOORE;
        } else if (!strcmp(a, "--json")) {
            o.json = 1;
        } else if (!strcmp(a, "--steps")) {
            o.steps = 1;
        } else if (!strcmp(a, "--orbits")) {
            o.orbits = 1;
        } else if (!strcmp(a, "--all")) {
            o.all = 1;
        } else if (!strcmp(a, "--all-solutions")) {
            o.all_solutions = 1;
        } else if (!strcmp(a, "--fewest")) {
            o.fewest = 1;
        } else if (cli_opt(argc, argv, &i, "--limit", &val)) {
            if (!val || cli_parse_u64(val, &o.limit) || !o.limit)
                return cli_fail("--limit", "expected a positive number");
        } else if (cli_opt(argc, argv, &i, "--cost", &val)) {
            if (!val)
                return cli_fail("--cost", "expected a file");
            o.cost = val;
        } else if (cli_opt(argc, argv, &i, "--threads", &val)) {
            if (!val || cli_parse_u64(val, &o.threads) || o.threads > 1024)
                return cli_fail("--threads", "expected 0 .. 1024");
        } else if (cli_opt(argc, argv, &i, "--metric", &val)) {
            if (cli_parse_metric(val, &o.metric))
                return cli_fail("--metric", "expected cells or presses");
        } else if (cli_opt(argc, argv, &i, "--grid", &val)) {
            if (!(o.grid = val))
                return cli_fail("--grid", "needs a value such as 5x5");
        } else if (cli_opt(argc, argv, &i, "--graph", &val)) {
            if (!(o.graph = val))
                return cli_fail("--graph", "needs a file");
        } else if (cli_opt(argc, argv, &i, "--system", &val)) {
            if (!(o.system = val))
                return cli_fail("--system", "needs a file");
        } else if (cli_opt(argc, argv, &i, "--start", &val)) {
            if (!(o.start = val))
                return cli_fail("--start", "needs a file");
        } else if (cli_opt(argc, argv, &i, "--target", &val)) {
            if (!(o.target = val))
                return cli_fail("--target", "needs a file");
        } else if (cli_opt(argc, argv, &i, "--engine", &val)) {
            if (!(o.engine = val))
                return cli_fail("--engine", "needs a name");
        } else if (cli_opt(argc, argv, &i, "--budget", &val)) {
            if (!(o.budget = val))
                return cli_fail("--budget", "needs a number of bytes");
        } else if (cli_opt(argc, argv, &i, "--mod", &val)) {
            if (!val || cli_parse_u64(val, &o.k))
                return cli_fail("--mod", "expected a modulus such as 2 or 65521");
        } else {
            return cli_fail("solve", "unknown argument '%s' (see toggle solve --help)", a);
        }
    }
    int sources = !!o.grid + !!o.graph + !!o.system;
    if (sources != 1)
        return cli_fail("solve", "give exactly one of --grid, --graph, --system (see --help)");
    if (o.system && (o.start || o.target))
        return cli_fail("solve", "--start and --target need --grid or --graph");
    if (o.orbits && !o.grid)
        return cli_fail("solve", "--orbits needs --grid (the symmetries of a board)");
    if ((o.orbits || o.steps) && o.json)
        return cli_fail("solve", "--orbits and --steps print text, not --json");

    if ((o.flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_MOORE | TOGGLE_GRID_CYLINDER |
                    TOGGLE_GRID_HEX | TOGGLE_GRID_TRI)) && !o.grid)
        return cli_fail("solve", "--torus, --cylinder, --moore and --lattice need --grid");

    toggle_system *s = NULL;
    size_t rows, cols;
    int status = build_system(&o, &s, &rows, &cols);
    if (status)
        return status;
    if (o.engine) {
        int e;
        int rc = toggle_engine_from_name(o.engine, &e);
        if (!rc)
            rc = toggle_system_set_option(s, TOGGLE_OPT_ENGINE, (uint64_t)e);
        if (rc) {
            toggle_system_free(s);
            return cli_status("--engine", rc);
        }
    }
    {
        int rc = toggle_system_set_option(s, TOGGLE_OPT_THREADS, o.threads);
        if (rc) {
            toggle_system_free(s);
            return cli_status("--threads", rc);
        }
    }
    if (o.budget) {
        uint64_t b;
        if (cli_parse_u64(o.budget, &b)) {
            toggle_system_free(s);
            return cli_fail("--budget", "expected a number of bytes, got '%s'", o.budget);
        }
        toggle_system_set_option(s, TOGGLE_OPT_MEMORY_BUDGET, b);
    }
    if (o.steps) {
        status = cli_print_steps(stdout, s);
        toggle_system_free(s);
        return status;
    }
    toggle_solution *sol = NULL;
    int rc = toggle_solve(&sol, s);
    if (rc) {
        toggle_system_free(s);
        return cli_status("solve", rc);
    }
    status = report(&o, s, sol, rows, cols);
    if (!status && o.orbits)
        status = cli_orbits_report(stdout, sol, rows, cols);
    if (!status && !o.json && (o.all_solutions || o.fewest))
        status = cli_space_report_costs(stdout, sol, rows, cols, o.all_solutions, o.limit,
                                        o.fewest, o.metric, o.cost, o.threads);
    toggle_solution_free(sol);
    toggle_system_free(s);
    return status;
}
