/* toggle generate: random solvable start boards; and the solution-space
 * output of toggle solve (--all-solutions, --fewest). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "path.h"

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
    "  --json           one JSON object (docs/json.md): the boards as \"start\" arrays\n"
    "  --progress       show progress on stderr even off a terminal\n"
    "  --no-progress    never show progress\n"
    "  --budget BYTES   memory budget (default 4 GiB; 0 = unlimited)\n"
    "  -h, --help       this help\n";

int cmd_generate(int argc, char **argv)
{
    const char *grid = NULL;
    uint64_t k = 2, seed = 0, presses = UINT64_MAX, lit = UINT64_MAX, count = 1;
    uint64_t budget = TOGGLE_DEFAULT_MEMORY_BUDGET;
    uint32_t flags = 0;
    int unique = 0, metric = TOGGLE_METRIC_CELLS, json = 0, progress = CLI_PROGRESS_AUTO;
    cli_clock clock;
    cli_clock_start(&clock);
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
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (cli_progress_opt(a, &progress)) {
            continue;
        } else if (cli_opt(argc, argv, &i, "--grid", &val)) {
            if (!(grid = val))
                return cli_usage("--grid", "needs a value such as 5x5");
        } else if (cli_opt(argc, argv, &i, "--mod", &val)) {
            if (!val || cli_parse_u64(val, &k))
                return cli_usage("--mod", "expected a modulus such as 2 or 6");
        } else if (cli_opt(argc, argv, &i, "--seed", &val)) {
            if (!val || cli_parse_u64(val, &seed))
                return cli_usage("--seed", "expected a number");
        } else if (cli_opt(argc, argv, &i, "--presses", &val)) {
            /* UINT64_MAX is the library's "no constraint": not a count */
            if (!val || cli_parse_u64(val, &presses) || presses == UINT64_MAX)
                return cli_usage("--presses", "expected a number below 2^64 - 1");
        } else if (cli_opt(argc, argv, &i, "--lit", &val)) {
            if (!val || cli_parse_u64(val, &lit) || lit == UINT64_MAX)
                return cli_usage("--lit", "expected a number below 2^64 - 1");
        } else if (cli_opt(argc, argv, &i, "--budget", &val)) {
            int bad = cli_budget_parse(val, &budget);
            if (bad)
                return bad;
        } else if (cli_opt(argc, argv, &i, "--count", &val)) {
            if (!val || cli_parse_u64(val, &count) || !count)
                return cli_usage("--count", "expected a positive number");
        } else if (cli_opt(argc, argv, &i, "--metric", &val)) {
            if (cli_parse_metric(val, &metric))
                return cli_usage("--metric", "expected cells or presses");
        } else {
            return cli_usage("generate", "unknown argument '%s' (see toggle generate --help)", a);
        }
    }
    size_t rows, cols;
    if (!grid || cli_parse_shape(grid, &rows, &cols))
        return cli_usage("generate", "--grid RxC is required (see --help)");
    /* before any work: the board printed, the system's right-hand side and
     * the generator's own copy of the board (the library checks its solve
     * and its copy of the solution set against the same budget) */
    int over = cli_budget_board("generate", budget, rows, cols, 3);
    if (over)
        return over;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_generator *gen = NULL;
    uint64_t *board = NULL;
    int rc = toggle_graph_new_grid(&g, rows, cols, flags);
    const char *what = "--grid";
    if (!rc && (what = "system", 1))
        rc = toggle_system_new(&s, g, k, NULL, NULL);
    cli_cancel_begin(progress);
    if (!rc)
        rc = cli_cancel_attach(s);
    if (!rc)
        rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, budget);
    if (!rc && (what = "generator", 1))
        rc = toggle_generator_new(&gen, s);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_SEED, seed);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_UNIQUE, (uint64_t)unique);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_METRIC, (uint64_t)metric);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_PRESSES, presses);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_LIT, lit);
    size_t n = rows * cols;
    if (!rc && !(board = calloc(n ? n : 1, sizeof *board))) {
        rc = TOGGLE_ENOMEM;
    }
    int status = 0;
    if (!rc && json) {
        cli_json_begin(stdout, "generate");
        cli_json_board(stdout, rows, cols);
        printf(",\"modulus\":%llu,\"seed\":%llu,\"boards\":[", (unsigned long long)k,
               (unsigned long long)seed);
    }
    for (uint64_t c = 0; !rc && c < count; c++) {
        uint64_t w;
        what = "generate";
        rc = toggle_generator_next(gen, board, n, &w);
        if (!rc && cli_interrupted())
            rc = TOGGLE_ECANCELED;
        if (rc)
            break;
        cli_progress_clear();
        if (json) {
            fputs(c ? ",{\"start\":" : "{\"start\":", stdout);
            cli_json_array(stdout, board, n);
            if (w != UINT64_MAX)
                printf(",\"fewest\":{\"metric\":\"%s\",\"weight\":%llu}",
                       metric == TOGGLE_METRIC_CELLS ? "cells" : "presses", (unsigned long long)w);
            putchar('}');
            continue;
        }
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
    if (json && gen) {
        putchar(']'); /* the boards made so far: none when there is no such board */
        cli_json_timing(stdout, &clock);
        puts("}");
    }
    if (rc == TOGGLE_ECANCELED && cli_interrupted())
        status = cli_cancelled(what);
    else if (rc)
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

/* Write the search's checkpoint to path whole (path.h): the previous
 * checkpoint stays intact until the new one is complete. */
static int save_checkpoint(toggle_search *se, const char *path)
{
    size_t need = 0;
    int rc = toggle_search_save(se, NULL, 0, &need);
    if (rc != TOGGLE_EBUFSIZE)
        return cli_status("--checkpoint", rc);
    unsigned char *buf = malloc(need);
    if (!buf)
        return cli_nomem("--checkpoint");
    rc = toggle_search_save(se, buf, need, &need);
    int bad = !rc && path_write_whole(path, buf, need);
    int e = errno;
    free(buf);
    if (rc)
        return cli_status("--checkpoint", rc);
    return bad ? cli_fail("--checkpoint", "cannot write '%s': %s", path, strerror(e)) : 0;
}

/* Before the search: the checkpoint is a regular file or absent, and a file
 * can be created beside it (a search that cannot be saved is refused before
 * it runs, not after). 0 or the exit status. */
static int check_checkpoint_path(const char *path)
{
    char why[512];
    if (path_target_check(path, 1, NULL, why, sizeof why))
        return cli_fail("--checkpoint", "%s", why);
    char *probe = path_tmp_name(path);
    if (!probe)
        return cli_fail("--checkpoint", "cannot write beside '%s': %s", path, strerror(errno));
    unlink(probe);
    free(probe);
    return 0;
}

/* --checkpoint FILE: continue the search saved there (no file yet: a new
 * search; a file that cannot be read is an error, never "no checkpoint");
 * 0 or the exit status. */
static int resume_checkpoint(toggle_search *se, const char *path)
{
    int st = check_checkpoint_path(path);
    if (st)
        return st;
    /* a checkpoint of this search is about the size of its own save: a
     * larger file is not one (bounded read, no FIFO or device) */
    size_t len = 0, own = 0;
    if (toggle_search_save(se, NULL, 0, &own) != TOGGLE_EBUFSIZE)
        own = 0;
    errno = 0;
    char *buf = cli_read_file_max(path, 2 * own + 65536, 1, &len);
    if (!buf)
        return errno == ENOENT ? 0
                               : cli_fail("--checkpoint", "cannot read '%s': %s", path,
                                          strerror(errno));
    int rc = toggle_search_resume(se, buf, len);
    free(buf);
    return rc ? cli_status("--checkpoint", rc) : 0;
}

/* The search, saved every a->save_every seconds when it has a checkpoint
 * and no --limit: each slice ends through the progress callback
 * (TOGGLE_ECANCELED, the state kept), is saved whole, and the next slice
 * resumes from those same bytes, so that a kill -9 loses at most one
 * slice. A search that keeps no checkpoint (a walk: k != 2) is run again
 * whole, unsliced. A failed save is said once and the search goes on. */
static int run_saving(toggle_search *se, const cli_space_args *a, int *save_failed)
{
    int slicing = a->checkpoint && a->save_every && !a->limit;
    for (;;) {
        cli_slice_arm(slicing ? a->save_every : 0);
        int rc = toggle_search_run(se);
        cli_slice_arm(0);
        if (rc != TOGGLE_ECANCELED || !cli_slice_due() || cli_interrupted())
            return rc;
        size_t need = 0;
        unsigned char *buf = NULL;
        rc = toggle_search_save(se, NULL, 0, &need);
        if (rc == TOGGLE_EBUFSIZE && (buf = malloc(need)))
            rc = toggle_search_save(se, buf, need, &need);
        if (rc == TOGGLE_EUNSUPPORTED) {
            slicing = 0;
            continue;
        }
        if (!rc && !*save_failed && path_write_whole(a->checkpoint, buf, need)) {
            cli_fail("--checkpoint", "cannot write '%s': %s (the search goes on)", a->checkpoint,
                     strerror(errno));
            *save_failed = 1;
        }
        if (!rc)
            rc = toggle_search_resume(se, buf, need);
        free(buf);
        if (rc)
            return buf ? rc : TOGGLE_ENOMEM;
    }
}

int cli_fewest_run(const toggle_solution *sol, const cli_space_args *a, cli_fewest *out)
{
    memset(out, 0, sizeof *out);
    size_t n = toggle_solution_cols(sol);
    uint64_t *cost = NULL;
    if (a->cost_file && !(cost = read_costs(a->cost_file, n)))
        return CLI_EXIT_INPUT;
    if (!(out->x = calloc(n ? n : 1, sizeof *out->x))) {
        free(cost);
        return cli_nomem("--fewest");
    }
    toggle_search *se = NULL;
    int rc = toggle_search_new(&se, sol);
    if (!rc)
        rc = toggle_search_set_option(se, TOGGLE_SEARCH_OPT_METRIC, (uint64_t)a->metric);
    /* over F_2 the split search is exhaustive by default up to nullity 44
     * (2^44 solutions; 65 x 65 has 2^42): docs/solution-spaces.md */
    uint64_t limit = a->limit;
    if (!limit && toggle_solution_modulus(sol) == 2 && toggle_solution_nullity(sol) <= 44)
        limit = UINT64_MAX;
    if (!rc && limit)
        rc = toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, limit);
    if (!rc && a->threads != UINT64_MAX)
        rc = toggle_search_set_option(se, TOGGLE_SEARCH_OPT_THREADS, a->threads);
    if (!rc && cost)
        rc = toggle_search_set_costs(se, cost, n);
    free(cost);
    if (!rc && a->checkpoint) {
        int st = resume_checkpoint(se, a->checkpoint);
        if (st) {
            toggle_search_free(se);
            free(out->x);
            out->x = NULL;
            return st;
        }
    }
    if (!rc)
        rc = run_saving(se, a, &out->save_failed);
    /* Ctrl-C stops the search after its current chunks: its state is kept */
    int stopped = rc == TOGGLE_ECANCELED && cli_interrupted();
    if (a->checkpoint && (!rc || stopped)) {
        /* a failed save is said, and the answer is printed all the same */
        if (out->save_failed || save_checkpoint(se, a->checkpoint))
            out->save_failed = 1;
        else
            out->checkpoint = a->checkpoint;
    }
    /* with --checkpoint, Ctrl-C prints the best so far (the saved search
     * continues); without, it is a plain cancel */
    if (stopped && a->checkpoint &&
        toggle_search_result(se, NULL, 0, NULL, NULL, NULL) == TOGGLE_OK) {
        rc = TOGGLE_OK; /* print what it reached */
        out->stopped = 1;
    }
    if (rc == TOGGLE_ENOSOLUTION && a->cost_file) {
        /* no solution avoids the forbidden cells: an answer, not a failure */
        toggle_search_free(se);
        out->proven = 1;
        return 0;
    }
    if (!rc)
        rc = toggle_search_result(se, out->x, n, &out->weight, &out->proven, &out->visited);
    if (!rc)
        rc = toggle_search_bound(se, &out->lower);
    toggle_search_free(se);
    if (rc)
        return cli_status("--fewest", rc);
    out->found = 1;
    return 0;
}

int cli_fewest_print(FILE *f, const cli_fewest *r, int metric, int json, size_t n, size_t rows,
                      size_t cols, uint64_t k)
{
    const char *m = metric == TOGGLE_METRIC_CELLS ? "cells" : "presses";
    if (json) {
        fputs(",\"fewest\":{\"solution\":", f);
        if (r->found)
            cli_json_array(f, r->x, n);
        else
            fputs("null", f);
        fprintf(f, ",\"metric\":\"%s\",\"weight\":", m);
        if (r->found)
            fprintf(f, "%llu", (unsigned long long)r->weight);
        else
            fputs("null", f);
        fprintf(f, ",\"proven\":%s,\"examined\":%llu,\"lower_bound\":%llu}",
                r->proven ? "true" : "false", (unsigned long long)r->visited,
                (unsigned long long)(r->found && r->proven ? r->weight : r->lower));
        return 0;
    }
    if (!r->found) {
        fprintf(f, "fewest: no solution with these cells (none presses only the allowed "
                   "cells)\n");
        return 0;
    }
    fprintf(f, "fewest %s: %llu (%s; %llu solutions examined)\n", m, (unsigned long long)r->weight,
            r->proven    ? "proven optimal"
            : r->stopped ? "interrupted: best found so far, not proven"
                         : "best found within the limit, not proven",
            (unsigned long long)r->visited);
    if (!r->proven)
        fprintf(f, "lower bound: %llu\n", (unsigned long long)r->lower);
    if (!r->proven && r->checkpoint)
        fprintf(f, "checkpoint: %s (run the same command again to continue)\n", r->checkpoint);
    return cli_print_vector(f, r->x, n, rows, cols, k);
}

int cli_solutions_print(FILE *f, const toggle_solution *sol, uint64_t limit, int json,
                        size_t rows, size_t cols)
{
    size_t n = toggle_solution_cols(sol);
    uint64_t k = toggle_solution_modulus(sol);
    if (json)
        fputs(",\"solutions\":[", f);
    if (toggle_solution_is_solvable(sol) != 1) {
        if (json)
            fputc(']', f);
        return 0;
    }
    uint64_t *x = calloc(n ? n : 1, sizeof *x);
    if (!x)
        return cli_nomem("--all-solutions");
    toggle_iter *it = NULL;
    int rc = toggle_iter_new(&it, sol);
    while (!rc && (!limit || toggle_iter_produced(it) < limit)) {
        if (cli_interrupted()) {
            rc = TOGGLE_ECANCELED;
            break;
        }
        rc = toggle_iter_next(it, x, n);
        if (rc)
            break;
        if (json) {
            if (toggle_iter_produced(it) > 1)
                fputc(',', f);
            cli_json_array(f, x, n);
        } else {
            fprintf(f, "solution %llu:\n", (unsigned long long)toggle_iter_produced(it));
            if (cli_print_vector(f, x, n, rows, cols, k)) {
                toggle_iter_free(it);
                free(x);
                return 1;
            }
        }
    }
    toggle_iter_free(it);
    free(x);
    if (rc == TOGGLE_ITEROVER)
        rc = TOGGLE_OK;
    if (rc == TOGGLE_ECANCELED)
        return cli_cancelled("--all-solutions");
    if (rc)
        return cli_status("--all-solutions", rc);
    if (json)
        fputc(']', f);
    return 0;
}
