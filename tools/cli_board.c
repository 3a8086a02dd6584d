/* The board options shared by toggle solve and toggle rowops: a grid (with
 * its lattice, wraps and start/target states), an edge list or an augmented
 * file, and the modulus; parsed, checked and built into a system here once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

int cli_board_opt(int argc, char **argv, int *i, cli_board *b)
{
    const char *val = NULL, *a = argv[*i];
    int lat = cli_lattice_opt(argc, argv, i, &b->flags);
    if (lat)
        return lat < 0 ? -CLI_EXIT_USAGE : lat;
    if (!strcmp(a, "--torus")) {
        b->flags |= TOGGLE_GRID_TORUS;
    } else if (!strcmp(a, "--no-self")) {
        b->flags |= TOGGLE_GRID_NO_SELF;
    } else if (!strcmp(a, "--moore")) {
        b->flags |= TOGGLE_GRID_MOORE;
    } else if (cli_opt(argc, argv, i, "--grid", &val)) {
        if (!(b->grid = val))
            return -cli_usage("--grid", "needs a value such as 5x5");
    } else if (cli_opt(argc, argv, i, "--graph", &val)) {
        if (!(b->graph = val))
            return -cli_usage("--graph", "needs a file");
    } else if (cli_opt(argc, argv, i, "--system", &val)) {
        if (!(b->system = val))
            return -cli_usage("--system", "needs a file");
    } else if (cli_opt(argc, argv, i, "--start", &val)) {
        if (!(b->start = val))
            return -cli_usage("--start", "needs a file");
    } else if (cli_opt(argc, argv, i, "--target", &val)) {
        if (!(b->target = val))
            return -cli_usage("--target", "needs a file");
    } else if (cli_opt(argc, argv, i, "--mod", &val)) {
        if (!val || cli_parse_u64(val, &b->k))
            return -cli_usage("--mod", "expected a modulus such as 2 or 65521");
    } else {
        return 0;
    }
    return 1;
}

int cli_board_check(const cli_board *b, const char *cmd, const char *sources)
{
    if (!!b->grid + !!b->graph + !!b->system != 1)
        return cli_usage(cmd, "give exactly one of %s (see --help)", sources);
    if (b->system && (b->start || b->target))
        return cli_usage(cmd, "--start and --target need --grid or --graph");
    if ((b->flags & (TOGGLE_GRID_TORUS | TOGGLE_GRID_MOORE | TOGGLE_GRID_CYLINDER |
                     TOGGLE_GRID_HEX | TOGGLE_GRID_TRI)) && !b->grid)
        return cli_usage(cmd, "--torus, --cylinder, --moore and --lattice need --grid");
    return 0;
}

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
        return cli_nomem("state");
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
        return cli_fail(spec, "cannot read the file: %s", strerror(errno));
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

int cli_board_system(const cli_board *b, toggle_system **sys, size_t *rows, size_t *cols)
{
    int rc;
    *rows = *cols = 0;
    if (b->system) {
        size_t len;
        char *text = cli_read_file(b->system, &len);
        if (!text)
            return cli_fail(b->system, "cannot read the file: %s", strerror(errno));
        /* a UTF-8 byte-order mark (as some editors write) is not content */
        size_t skip = len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;
        rc = toggle_system_parse(sys, text + skip, len - skip, b->k);
        free(text);
        if (rc)
            return cli_status(b->system, rc);
        if (!toggle_system_rows(*sys)) { /* as an empty board or graph is refused */
            toggle_system_free(*sys);
            *sys = NULL;
            return cli_fail(b->system, "the file holds no equation (only blank lines and comments)");
        }
        return 0;
    }
    toggle_graph *g = NULL;
    if (b->grid) {
        if (cli_parse_shape(b->grid, rows, cols))
            return cli_usage("--grid", "expected RxC, for example 5x5, got '%s'", b->grid);
        rc = toggle_graph_new_grid(&g, *rows, *cols, b->flags);
        if (rc)
            return cli_status("--grid", rc);
    } else {
        size_t len;
        char *text = cli_read_file(b->graph, &len);
        if (!text)
            return cli_fail(b->graph, "cannot read the file: %s", strerror(errno));
        rc = toggle_graph_parse_edges(&g, text, len,
                                      (b->flags & TOGGLE_GRID_NO_SELF) ? TOGGLE_GRAPH_NO_SELF : 0);
        free(text);
        if (rc)
            return cli_status(b->graph, rc);
    }
    size_t n = toggle_graph_cells(g);
    uint64_t *start = NULL, *target = NULL;
    int bad = read_state(b->start, n, *rows, *cols, b->k, &start)
           || read_state(b->target, n, *rows, *cols, b->k, &target);
    if (!bad) {
        rc = toggle_system_new(sys, g, b->k, start, target);
        if (rc)
            bad = cli_status("system", rc);
    }
    free(start);
    free(target);
    toggle_graph_free(g);
    return bad;
}

void cli_board_print_args(FILE *f, const cli_board *b)
{
    if (b->system)
        fputs(b->system[0] && strcmp(b->system, "-") ? b->system : "FILE", f);
    else if (b->grid)
        fprintf(f, "--grid %s", b->grid);
    else
        fprintf(f, "--graph %s", strcmp(b->graph, "-") ? b->graph : "FILE");
    static const struct {
        uint32_t flag;
        const char *arg;
    } flags[] = {{TOGGLE_GRID_TORUS, "--torus"},           {TOGGLE_GRID_CYLINDER, "--cylinder"},
                 {TOGGLE_GRID_MOORE, "--moore"},           {TOGGLE_GRID_NO_SELF, "--no-self"},
                 {TOGGLE_GRID_HEX, "--lattice hex"},       {TOGGLE_GRID_TRI, "--lattice tri"}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (b->flags & flags[i].flag)
            fprintf(f, " %s", flags[i].arg);
    if (b->start)
        fprintf(f, " --start %s", b->start);
    if (b->target)
        fprintf(f, " --target %s", b->target);
    fprintf(f, " --mod %llu", (unsigned long long)b->k);
}
