/* toggle generate --chaos: a random toggle matrix (a "chaos" board, where a
 * press may change any cell) and a solvable start, as an augmented system. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

static const char chaos_usage[] =
    "usage: toggle generate --chaos RxC [options]\n"
    "\n"
    "Print a random chaos puzzle as an augmented system (the format of toggle\n"
    "solve --system and toggle rowops): pressing a cell adds 1 to itself and,\n"
    "with probability D, 1 to each other cell (only cells within distance R\n"
    "with --radius: max(|row difference|, |column difference|) <= R); row i\n"
    "of the matrix says which presses change cell i, and the right-hand side\n"
    "is -start, so the puzzle is to bring a start to all 0. The comment header\n"
    "says how it was made; the same options and seed print the same puzzle.\n"
    "\n"
    "  --chaos RxC      the board\n"
    "  --density D      probability in [0, 1] (default 0.5)\n"
    "  --radius R       only cells within distance R (default: any cell)\n"
    "  --mod K          the modulus (default 2)\n"
    "  --unique         the start must have exactly one solution (fails when\n"
    "                   the matrix is singular: try another seed)\n"
    "  --presses N      its fewest-press solution must press exactly N cells\n"
    "  --seed S         seed of the matrix and the start (default 0)\n"
    "  -h, --help       this help\n";

typedef struct {
    const char *shape;
    double density;
    size_t radius;
    uint64_t k, seed, presses;
    int unique;
} chaos_opts;

static int parse(int argc, char **argv, chaos_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *val = NULL, *a = argv[i];
        char *end = NULL;
        uint64_t v;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(chaos_usage, stdout);
            return -1;
        } else if (!strcmp(a, "--unique")) {
            o->unique = 1;
        } else if (cli_opt(argc, argv, &i, "--chaos", &val)) {
            if (!(o->shape = val))
                return cli_usage("--chaos", "needs a board such as 6x9");
        } else if (cli_opt(argc, argv, &i, "--density", &val)) {
            o->density = val ? strtod(val, &end) : NAN;
            if (!val || !*val || *end || !(o->density >= 0 && o->density <= 1))
                return cli_usage("--density", "expected a probability between 0 and 1");
        } else if (cli_opt(argc, argv, &i, "--radius", &val)) {
            if (!val || cli_parse_u64(val, &v) || v >= SIZE_MAX)
                return cli_usage("--radius", "expected a distance such as 2");
            o->radius = (size_t)v;
        } else if (cli_opt(argc, argv, &i, "--mod", &val)) {
            if (!val || cli_parse_u64(val, &o->k))
                return cli_usage("--mod", "expected a modulus such as 2 or 3");
        } else if (cli_opt(argc, argv, &i, "--seed", &val)) {
            if (!val || cli_parse_u64(val, &o->seed))
                return cli_usage("--seed", "expected a number");
        } else if (cli_opt(argc, argv, &i, "--presses", &val)) {
            if (!val || cli_parse_u64(val, &o->presses))
                return cli_usage("--presses", "expected a number");
        } else {
            return cli_usage("generate", "unknown argument '%s' with --chaos (see toggle "
                                        "generate --chaos RxC --help)", a);
        }
    }
    return 0;
}

/* Header and the augmented system of the start on the board g. */
static int print_puzzle(const chaos_opts *o, const toggle_graph *g, size_t rows, size_t cols,
                        const uint64_t *start, uint64_t presses)
{
    size_t n = rows * cols, need = 0;
    uint64_t *zero = calloc(n, sizeof *zero);
    toggle_system *s = NULL;
    char *text = NULL;
    int rc = zero ? toggle_system_new(&s, g, o->k, start, zero) : TOGGLE_ENOMEM;
    if (!rc) {
        toggle_system_write(s, NULL, 0, &need);
        rc = (text = malloc(need)) ? toggle_system_write(s, text, need, NULL) : TOGGLE_ENOMEM;
    }
    if (!rc) {
        printf("# toggle generate --chaos %zux%zu --density %g", rows, cols, o->density);
        if (o->radius != TOGGLE_CHAOS_ANY_DISTANCE)
            printf(" --radius %zu", o->radius);
        printf(" --mod %llu --seed %llu%s", (unsigned long long)o->k,
               (unsigned long long)o->seed, o->unique ? " --unique" : "");
        if (o->presses != UINT64_MAX)
            printf(" --presses %llu", (unsigned long long)o->presses);
        printf("\n# board %zux%zu: pressing a cell adds 1 to itself and, with probability %g,"
               " to each other cell", rows, cols, o->density);
        if (o->radius != TOGGLE_CHAOS_ANY_DISTANCE)
            printf(" within distance %zu", o->radius);
        printf("\n# row i lists the presses that change cell i; b = -start (target all 0)\n");
        if (presses != UINT64_MAX)
            printf("# fewest cells pressed: %llu\n", (unsigned long long)presses);
        printf("# start:\n");
        for (size_t r = 0; r < rows; r++) {
            fputs("#   ", stdout);
            for (size_t c = 0; c < cols; c++)
                printf(o->k > 10 ? "%llu " : "%llu", (unsigned long long)start[r * cols + c]);
            putchar('\n');
        }
        fputs(text, stdout);
    }
    free(text);
    free(zero);
    toggle_system_free(s);
    return rc ? cli_status("generate", rc) : 0;
}

int cli_generate_chaos(int argc, char **argv)
{
    chaos_opts o = {NULL, 0.5, TOGGLE_CHAOS_ANY_DISTANCE, 2, 0, UINT64_MAX, 0};
    int status = parse(argc, argv, &o);
    if (status)
        return status < 0 ? 0 : status;
    size_t rows, cols;
    if (!o.shape || cli_parse_shape(o.shape, &rows, &cols))
        return cli_usage("--chaos", "expected RxC, for example 6x9");
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_generator *gen = NULL;
    uint64_t *start = NULL, presses = UINT64_MAX;
    const char *what = "--chaos";
    int rc = toggle_graph_new_chaos(&g, rows, cols, o.density, o.radius, o.seed);
    if (!rc && (what = "generate", 1))
        rc = toggle_system_new(&s, g, o.k, NULL, NULL);
    if (!rc)
        rc = toggle_generator_new(&gen, s);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_SEED, o.seed);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_UNIQUE, (uint64_t)o.unique);
    if (!rc)
        rc = toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_PRESSES, o.presses);
    if (!rc && !(start = calloc(rows * cols, sizeof *start)))
        rc = TOGGLE_ENOMEM;
    if (!rc)
        rc = toggle_generator_next(gen, start, rows * cols, &presses);
    status = rc ? cli_status(what, rc) : print_puzzle(&o, g, rows, cols, start, presses);
    free(start);
    toggle_generator_free(gen);
    toggle_system_free(s);
    toggle_graph_free(g);
    return status;
}
