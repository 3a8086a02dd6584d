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
    "  --engine NAME      auto (default) or an engine; --engine list names them\n"
    "  --threads N        threads for the solve (default 0: every online CPU)\n"
    "  --budget BYTES     memory budget for the solver (default 4 GiB; 0 = unlimited)\n"
    "Output:\n"
    "  --all              also print the kernel basis (text and --json)\n"
    "  --kernel-limit N   with --all: at most the first N kernel vectors\n"
    "  --no-kernel        never print the kernel (overrides --all)\n"
    "  --all-solutions    print every solution (Gray order over the kernel)\n"
    "  --limit N          with --all-solutions: at most N; with --fewest: examine\n"
    "                     at most N solutions (default 2^32; over F_2 with\n"
    "                     nullity <= 44: every solution)\n"
    "  --fewest           print a solution with the fewest presses\n"
    "  --metric M         for --fewest: cells (default) or presses (sum of x_i)\n"
    "  --steps            print the elimination as a script of row operations\n"
    "                     (plain Gauss-Jordan; replay it with toggle rowops)\n"
    "  --orbits           with --grid: the number of solutions up to the board's\n"
    "                     symmetries (prime k)\n"
    "  --cost FILE        for --fewest: a board of per-cell costs, whitespace-\n"
    "                     separated, one row per line; x = may not be pressed\n"
    "  --checkpoint FILE  for --fewest over F_2: continue the search saved in FILE\n"
    "                     (if it exists) and save it there when it ends, stops at\n"
    "                     --limit or is interrupted (Ctrl-C, SIGTERM); without\n"
    "                     --limit also every --checkpoint-every seconds\n"
    "  --checkpoint-every SECONDS\n"
    "                     with --checkpoint: the save interval (default 60;\n"
    "                     0 = only at the end)\n"
    "  --json             one JSON object (docs/json.md): board shape, system size,\n"
    "                     modulus, engine, solvable, nullity, count, solution,\n"
    "                     certificate, kernel (with --all), fewest, solutions, timing\n"
    "  --progress         show progress on stderr even when it is not a terminal\n"
    "  --no-progress      no progress bar (the default off a terminal)\n"
    "  -h, --help         this help\n"
    "\n"
    "Exit status: 0 solved, 4 no solution (the answer and its certificate are\n"
    "printed), 1 bad input, 2 usage, 3 memory or size limit, 130 interrupted\n"
    "(Ctrl-C cancels a long solve). See toggle(1) EXIT STATUS.\n";

typedef struct {
    cli_board b; /* --grid, --graph, --system, --start, --target, --mod, lattice */
    const char *engine, *budget;
    int json, all, steps, orbits;
    int all_solutions, fewest, metric; /* solution spaces (cli_space_report) */
    uint64_t limit;
    const char *cost;
    const char *checkpoint; /* --checkpoint FILE (with --fewest) */
    uint64_t save_every;    /* --checkpoint-every SECONDS */
    uint64_t threads; /* --threads: 0 (default) = every online CPU */
    uint64_t kernel_limit; /* --kernel-limit (UINT64_MAX: all) */
    int no_kernel, progress;
    cli_clock clock;
} solve_opts;

/* Ctrl-C while a long answer prints: stop (CLI_EXIT_CANCELLED), else 0. */
static int stop_if_interrupted(void)
{
    return cli_interrupted() ? cli_cancelled("solve") : 0;
}

/* The kernel vectors to print: --all, at most --kernel-limit, none with --no-kernel. */
static size_t kernel_shown(const solve_opts *o, size_t d)
{
    if (!o->all || o->no_kernel)
        return 0;
    return o->kernel_limit < d ? (size_t)o->kernel_limit : d;
}

static int report(const solve_opts *o, const toggle_system *s, const toggle_solution *sol,
                  size_t rows, size_t cols)
{
    size_t n = toggle_solution_cols(sol), m = toggle_solution_rows(sol);
    size_t d = toggle_solution_nullity(sol), kshow = kernel_shown(o, d);
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
        return cli_nomem("solve");
    }
    int rc = toggle_solution_count_string(sol, count, need, NULL);
    if (rc) {
        free(count);
        free(v);
        return cli_status("count", rc);
    }
    /* the search runs before anything is printed: a failure prints no half answer */
    cli_space_args sa = {.limit = o->limit, .metric = o->metric, .cost_file = o->cost,
                         .threads = o->threads, .checkpoint = o->checkpoint,
                         .save_every = o->save_every};
    cli_fewest fw = {0};
    int status = o->fewest && solvable ? cli_fewest_run(sol, &sa, &fw) : 0;
    if (!status && cli_interrupted() && !fw.stopped)
        status = cli_cancelled("solve");
    if (status) {
        free(fw.x);
        free(count);
        free(v);
        return status;
    }
    cli_progress_clear();
    const char *engine = toggle_engine_name(toggle_solution_engine(sol));
    FILE *f = stdout;
    if (o->json) {
        cli_json_begin(f, "solve");
        cli_json_board(f, rows, cols);
        fprintf(f, ",\"equations\":%zu,\"unknowns\":%zu,\"modulus\":%llu,\"engine\":\"%s\","
                   "\"solvable\":%s,\"nullity\":%zu,\"count\":\"%s\",\"solution\":",
                m, n, (unsigned long long)k, engine, solvable ? "true" : "false", d, count);
        if (solvable) {
            toggle_solution_particular(sol, v, n);
            cli_json_array(f, v, n);
        } else {
            fputs("null", f);
        }
        fputs(",\"certificate\":", f);
        if (!solvable && toggle_solution_certificate(sol, v, m) == TOGGLE_OK)
            cli_json_array(f, v, m);
        else
            fputs("null", f);
        fputs(",\"kernel\":", f);
        if (o->all && !o->no_kernel) {
            fputc('[', f);
            for (size_t i = 0; i < kshow && !(status = stop_if_interrupted()); i++) {
                toggle_solution_kernel_vector(sol, i, v, n);
                if (i)
                    fputc(',', f);
                cli_json_array(f, v, n);
            }
            fputc(']', f);
        } else {
            fputs("null", f);
        }
        if (o->fewest) {
            if (solvable)
                (void)cli_fewest_print(f, &fw, o->metric, 1, n, rows, cols, k); /* JSON: no allocation */
            else
                fputs(",\"fewest\":null", f);
        }
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
        status = prc;
        for (size_t i = 0; !status && i < kshow && !(status = stop_if_interrupted()); i++) {
            toggle_solution_kernel_vector(sol, i, v, n);
            fprintf(f, "kernel %zu:\n", i);
            if ((status = cli_print_vector(f, v, n, rows, cols, k)))
                break;
        }
        if (!status && o->fewest && solvable)
            status = cli_fewest_print(f, &fw, o->metric, 0, n, rows, cols, k);
    }
    free(fw.x);
    free(count);
    free(v);
    if (!status && fw.stopped) /* the best so far is printed (and saved) */
        status = cli_cancelled("solve");
    if (!status && fw.save_failed) /* printed above; the save's failure was said */
        status = 1;
    if (!status && o->orbits)
        status = cli_orbits_report(f, sol, rows, cols);
    if (!status && o->all_solutions && (o->json || solvable))
        status = cli_solutions_print(f, sol, o->limit, o->json, rows, cols);
    if (o->json) {
        if (status) {
            fputs("}\n", f); /* close the object; the exit status says it is incomplete */
            return status;
        }
        cli_json_timing(f, &o->clock);
        fputs("}\n", f);
    }
    if (!status && !solvable)
        status = CLI_EXIT_NOSOLUTION;
    return status;
}

int cmd_solve(int argc, char **argv)
{
    solve_opts o = {.save_every = 60};
    o.b.k = 2;
    o.kernel_limit = UINT64_MAX;
    o.threads = 0;
    cli_clock_start(&o.clock);
    for (int i = 1; i < argc; i++) {
        const char *val = NULL, *a = argv[i];
        int board = cli_board_opt(argc, argv, &i, &o.b);
        if (board < 0)
            return -board;
        if (board) {
            continue;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(solve_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            o.json = 1;
        } else if (cli_progress_opt(a, &o.progress)) {
            continue;
        } else if (!strcmp(a, "--no-kernel")) {
            o.no_kernel = 1;
        } else if (cli_opt(argc, argv, &i, "--kernel-limit", &val)) {
            if (!val || cli_parse_u64(val, &o.kernel_limit))
                return cli_usage("--kernel-limit", "expected a number of kernel vectors");
            o.all = 1;
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
                return cli_usage("--limit", "expected a positive number");
        } else if (cli_opt(argc, argv, &i, "--checkpoint-every", &val)) {
            if (!val || cli_parse_u64(val, &o.save_every) || o.save_every > 86400 * 366)
                return cli_usage("--checkpoint-every", "expected seconds (0 = only at the end)");
        } else if (cli_opt(argc, argv, &i, "--checkpoint", &val)) {
            if (!val)
                return cli_usage("--checkpoint", "expected a file");
            o.checkpoint = val;
        } else if (cli_opt(argc, argv, &i, "--cost", &val)) {
            if (!val)
                return cli_usage("--cost", "expected a file");
            o.cost = val;
        } else if (cli_opt(argc, argv, &i, "--threads", &val)) {
            if (!val || cli_parse_u64(val, &o.threads) || o.threads > 1024)
                return cli_usage("--threads", "expected 0 .. 1024");
        } else if (cli_opt(argc, argv, &i, "--metric", &val)) {
            if (cli_parse_metric(val, &o.metric))
                return cli_usage("--metric", "expected cells or presses");
        } else if (cli_opt(argc, argv, &i, "--engine", &val)) {
            if (!(o.engine = val))
                return cli_usage("--engine", "needs a name");
            if (!strcmp(val, "list")) {
                for (int e = 0; e < 64; e++) /* ids only grow; this build's engines */
                    if (toggle_engine_name(e))
                        puts(toggle_engine_name(e));
                return 0;
            }
        } else if (cli_opt(argc, argv, &i, "--budget", &val)) {
            if (!(o.budget = val))
                return cli_usage("--budget", "needs a number of bytes");
        } else {
            return cli_usage("solve", "unknown argument '%s' (see toggle solve --help)", a);
        }
    }
    int bad_board = cli_board_check(&o.b, "solve", "--grid, --graph, --system");
    if (bad_board)
        return bad_board;
    if (o.orbits && !o.b.grid)
        return cli_usage("solve", "--orbits needs --grid (the symmetries of a board)");
    if ((o.orbits || o.steps) && o.json)
        return cli_usage("solve", "--orbits and --steps print text, not --json");
    if (o.limit && !o.fewest && !o.all_solutions)
        return cli_usage("--limit", "limits --fewest or --all-solutions; give one of them");
    if (o.checkpoint && !o.fewest)
        return cli_usage("--checkpoint", "saves a --fewest search; give --fewest");

    /* the budget, checked before any work: the board's arrays here (the
     * answer buffer, the system's right-hand side, --start, --target), then
     * the library's own estimate when it solves */
    uint64_t budget = TOGGLE_DEFAULT_MEMORY_BUDGET;
    int bad = o.budget ? cli_budget_parse(o.budget, &budget) : 0;
    if (bad)
        return bad;
    if (o.b.grid) {
        size_t r, c;
        if (cli_parse_shape(o.b.grid, &r, &c))
            return cli_usage("--grid", "expected RxC with R and C at least 1, for example 5x5, "
                             "got '%s'", o.b.grid);
        bad = cli_budget_board("solve", budget, r, c, 2u + !!o.b.start + !!o.b.target);
        if (bad)
            return bad;
    }
    toggle_system *s = NULL;
    size_t rows, cols;
    int status = cli_board_system(&o.b, &s, &rows, &cols);
    if (status)
        return status;
    if (o.engine) {
        int e;
        int rc = toggle_engine_from_name(o.engine, &e);
        if (!rc)
            rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)e);
        if (rc) {
            toggle_system_free(s);
            cli_status("--engine", rc);
            return CLI_EXIT_USAGE;
        }
    }
    {
        int rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_THREADS, o.threads);
        if (rc) {
            toggle_system_free(s);
            return cli_status("--threads", rc);
        }
    }
    if (o.budget)
        toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, budget);
    if (o.steps) {
        status = cli_print_steps(stdout, s, &o.b);
        toggle_system_free(s);
        return status;
    }
    /* Ctrl-C cancels the solve (and the searches made from its solution)
     * through the progress callback, which also draws the bar */
    cli_cancel_begin(o.progress);
    cli_cancel_attach(s);
    toggle_solution *sol = NULL;
    int rc = toggle_solve(&sol, s);
    if (rc) {
        toggle_system_free(s);
        return cli_status("solve", rc);
    }
    status = report(&o, s, sol, rows, cols);
    toggle_solution_free(sol);
    toggle_system_free(s);
    return status;
}
