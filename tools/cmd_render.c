/* toggle render: draw the canonical solution of a grid, or a board file, as PNG or PPM. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands.h"
#include "path.h"

static const char render_usage[] =
    "usage: toggle render (--grid RxC | --board FILE | --system FILE --toggles)\n"
    "                     --out FILE [options]\n"
    "\n"
    "Draw the canonical solution of the all-off to all-on game on a grid (or the\n"
    "board state in FILE) as a picture, one colour per value.\n"
    "\n"
    "  --grid RxC         solve a rows x cols board and draw its canonical solution\n"
    "  --board FILE       draw a board state (toggle's board format; '-' = stdin)\n"
    "  --system FILE      with --toggles: an augmented system (toggle matrix)\n"
    "  --toggles          draw each cell's toggle pattern (column j of A) as a\n"
    "                     small board, laid out as the board\n"
    "  --shape RxC        the board of --system (default: its '# board RxC'\n"
    "                     comment, else square, else one row)\n"
    "  --mod K            the modulus (default 2)\n"
    "  --out FILE         output file ('-' = standard output); written whole\n"
    "                     (a temporary beside it, renamed), never over an\n"
    "                     existing file without --force\n"
    "  --force            replace an existing --out file\n"
    "  --format F         png or ppm (default: from the file name, else png)\n"
    "  --colormap NAME    colour map (default viridis; NAME_r reverses it;\n"
    "                     --colormap list prints them all)\n"
    "  --cell N           pixels per cell, 1..4096 (default 8)\n"
    "  --lines N          grid line width in pixels, 0..256 (default 0)\n"
    "  --border N         border width in pixels, 0..4096 (default 0)\n"
    "  --line-color HEX   colour of lines and border, RRGGBB (default 000000)\n"
    "  --json             print what was written as one JSON object (docs/json.md)\n"
    "  --progress         show the solve's progress on stderr (--grid), even off a\n"
    "                     terminal\n"
    "  --no-progress      never show progress\n"
    "  --budget BYTES     memory budget (default 4 GiB; 0 = unlimited)\n"
    "  -h, --help         this help\n";

static int set_num(toggle_render_opts *o, int key, const char *val, const char *what)
{
    uint64_t v;
    if (!val || cli_parse_u64(val, &v))
        return cli_usage("render", "%s needs a number", what);
    int rc = toggle_render_opts_set(o, key, v);
    if (rc == TOGGLE_ERANGE || rc == TOGGLE_EINVAL) /* the library names its key, not the flag */
        return cli_usage("render", "%s %s is out of range (see toggle render --help)", what, val);
    return rc ? cli_status("render", rc) : 0;
}

/* The canonical solution of the all-off to all-on game under the memory
 * budget, or NULL with the exit status in *status (after printing why). */
static uint64_t *grid_solution(size_t rows, size_t cols, uint64_t k, uint64_t budget,
                               int *status)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t *x = NULL;
    int rc = toggle_graph_new_grid(&g, rows, cols, 0);
    if (!rc)
        rc = toggle_system_new(&s, g, k, NULL, NULL);
    if (!rc)
        rc = cli_cancel_attach(s);
    if (!rc)
        rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, budget);
    if (!rc)
        rc = toggle_solve(&sol, s);
    int nomem = 0;
    if (!rc && !(x = malloc(rows * cols * sizeof *x)))
        rc = TOGGLE_ENOMEM, nomem = 1;
    if (!rc)
        rc = toggle_solution_particular(sol, x, rows * cols);
    if (!rc && cli_interrupted())
        rc = TOGGLE_ECANCELED;
    cli_progress_clear();
    if (rc) {
        if (nomem) /* the CLI's own allocation: no library message */
            cli_fail("render", "out of memory");
        else if (rc == TOGGLE_ENOSOLUTION)
            cli_fail("render", "the %zux%zu board has no all-off to all-on solution mod %llu",
                     rows, cols, (unsigned long long)k);
        else if (rc == TOGGLE_ECANCELED && cli_interrupted())
            cli_cancelled("render");
        else
            cli_status("render", rc);
        *status = cli_exit_code(rc);
        free(x);
        x = NULL;
    }
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return x;
}

/* Draw into memory, then write it whole to out (path.h) or to standard
 * output; nothing is written once SIGINT came. */
static int write_out(const toggle_render_opts *o, int fmt, const uint64_t *x, size_t rows,
                     size_t cols, uint64_t k, const char *out, size_t *bytes)
{
    size_t need = 0;
    int rc = toggle_render(o, fmt, x, rows, cols, k, NULL, 0, &need);
    if (rc != TOGGLE_EBUFSIZE)
        return cli_status("render", rc);
    *bytes = need; /* the size query costs what the answer's size costs */
    uint8_t *buf = malloc(need);
    if (!buf)
        return cli_nomem("render");
    rc = toggle_render(o, fmt, x, rows, cols, k, buf, need, NULL);
    if (rc) {
        free(buf);
        return cli_status("render", rc);
    }
    if (cli_interrupted()) {
        free(buf);
        return cli_cancelled("render");
    }
    int bad = strcmp(out, "-") != 0 ? path_write_whole(out, buf, need)
                                    : fwrite(buf, 1, need, stdout) != need || fflush(stdout);
    int e = errno;
    free(buf);
    if (bad)
        return cli_fail("render", "cannot write '%s': %s", out, strerror(e));
    return 0;
}

int cmd_render(int argc, char **argv)
{
    const char *grid = NULL, *board = NULL, *out = NULL, *format = NULL, *val;
    const char *system = NULL, *shape = NULL;
    int toggles = 0, json = 0, force = 0, progress = CLI_PROGRESS_AUTO;
    uint64_t k = 2, budget = TOGGLE_DEFAULT_MEMORY_BUDGET;
    cli_clock clock;
    cli_clock_start(&clock);
    toggle_render_opts *o = NULL;
    int status = 1;
    if (toggle_render_opts_new(&o))
        return cli_nomem("render");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(render_usage, stdout);
            status = 0;
            goto done;
        } else if (cli_opt(argc, argv, &i, "--grid", &val)) {
            grid = val;
        } else if (!strcmp(a, "--toggles")) {
            toggles = 1;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--force")) {
            force = 1;
        } else if (cli_progress_opt(a, &progress)) {
            continue;
        } else if (cli_opt(argc, argv, &i, "--system", &val)) {
            system = val;
        } else if (cli_opt(argc, argv, &i, "--shape", &val)) {
            shape = val;
        } else if (cli_opt(argc, argv, &i, "--board", &val)) {
            board = val;
        } else if (cli_opt(argc, argv, &i, "--out", &val)) {
            out = val;
        } else if (cli_opt(argc, argv, &i, "--format", &val)) {
            format = val;
        } else if (cli_opt(argc, argv, &i, "--budget", &val)) {
            if ((status = cli_budget_parse(val, &budget)))
                goto done;
            status = 1;
        } else if (cli_opt(argc, argv, &i, "--mod", &val)) {
            if (!val || cli_parse_u64(val, &k) || k < 2) {
                status = cli_usage("render", "--mod needs a modulus >= 2");
                goto done;
            }
        } else if (cli_opt(argc, argv, &i, "--colormap", &val)) {
            int id, rev;
            if (val && !strcmp(val, "list")) {
                for (size_t m = 0; m < toggle_colormap_count(); m++)
                    printf("%s%s\n", toggle_colormap_name((int)m),
                           toggle_colormap_is_qualitative((int)m) == 1 ? " (qualitative)" : "");
                status = 0;
                goto done;
            }
            if (!val || toggle_colormap_from_name(val, &id, &rev)) {
                status = cli_usage("render", "unknown colour map '%s' (--colormap list shows them)",
                         val ? val : "");
                goto done;
            }
            toggle_render_opts_set(o, TOGGLE_RENDER_COLORMAP, (uint64_t)id);
            toggle_render_opts_set(o, TOGGLE_RENDER_REVERSED, (uint64_t)rev);
        } else if (cli_opt(argc, argv, &i, "--cell", &val)) {
            if ((status = set_num(o, TOGGLE_RENDER_CELL_SIZE, val, "--cell")))
                goto done;
            status = 1;
        } else if (cli_opt(argc, argv, &i, "--lines", &val)) {
            if ((status = set_num(o, TOGGLE_RENDER_GRID_LINES, val, "--lines")))
                goto done;
            status = 1;
        } else if (cli_opt(argc, argv, &i, "--border", &val)) {
            if ((status = set_num(o, TOGGLE_RENDER_BORDER, val, "--border")))
                goto done;
            status = 1;
        } else if (cli_opt(argc, argv, &i, "--line-color", &val)) {
            char *end;
            unsigned long c = val ? strtoul(val[0] == '#' ? val + 1 : val, &end, 16) : 0;
            if (!val || *end || toggle_render_opts_set(o, TOGGLE_RENDER_LINE_COLOR, c)) {
                status = cli_usage("render", "--line-color needs RRGGBB");
                goto done;
            }
        } else {
            status = cli_usage("render", "unknown argument '%s' (see toggle render --help)", a);
            goto done;
        }
    }
    if (!out || !!grid + !!board + !!system != 1 || !system != !toggles) {
        status = cli_usage("render", "need --out and exactly one of --grid, --board, --system with "
                           "--toggles (see --help)");
        goto done;
    }
    if (json && !strcmp(out, "-")) {
        status = cli_usage("render", "--json prints to standard output: give --out a file");
        goto done;
    }
    char why[512];
    if (strcmp(out, "-") != 0 && path_target_check(out, force, NULL, why, sizeof why)) {
        status = cli_fail("render", "%s", why);
        goto done;
    }
    int fmt = TOGGLE_IMAGE_PNG;
    size_t ol = strlen(out);
    if (format ? !strcmp(format, "ppm") : (ol > 4 && !strcmp(out + ol - 4, ".ppm")))
        fmt = TOGGLE_IMAGE_PPM;
    else if (format && strcmp(format, "png") != 0) {
        status = cli_usage("render", "unknown format '%s' (png, ppm)", format);
        goto done;
    }
    /* a name that promises another format (x.jpg) would hold a PNG */
    const char *base = strrchr(out, '/'), *dot = strrchr(base ? base + 1 : out, '.');
    if (!format && dot && dot[1] && strcasecmp(dot, ".png") && strcasecmp(dot, ".ppm")) {
        status = cli_usage("render", "'%s': render writes PNG or PPM; name the file .png or .ppm, "
                           "or give --format", out);
        goto done;
    }
    size_t rows = 0, cols = 0;
    uint64_t *x = NULL;
    if (grid) {
        if (cli_parse_shape(grid, &rows, &cols)) {
            status = cli_usage("render", "--grid needs RxC, e.g. 9x9");
            goto done;
        }
        /* before any work: the solution's copy and the system's right-hand side */
        if ((status = cli_budget_board("render", budget, rows, cols, 2)))
            goto done;
        status = 1;
        cli_cancel_begin(progress);
        x = grid_solution(rows, cols, k, budget, &status);
    } else if (system) {
        x = cli_toggle_picture(system, k, shape, &rows, &cols);
    } else {
        size_t len;
        char *text = cli_read_file(board, &len);
        if (!text) {
            cli_fail("render", "cannot read '%s': %s", board, strerror(errno));
            goto done;
        }
        int rc = toggle_board_parse(text, len, k, NULL, 0, &rows, &cols);
        if (rc == TOGGLE_EBUFSIZE || rc == TOGGLE_OK) {
            size_t cells = rows * cols;
            x = malloc((cells ? cells : 1) * sizeof *x);
            rc = x ? toggle_board_parse(text, len, k, x, rows * cols, &rows, &cols)
                   : TOGGLE_ENOMEM;
        }
        free(text);
        if (rc) {
            status = cli_status("render", rc);
            free(x);
            x = NULL;
        }
    }
    size_t bytes = 0;
    int drawn = x != NULL;
    if (x)
        status = write_out(o, fmt, x, rows, cols, k, out, &bytes);
    free(x);
    if (drawn && !status && json) {
        cli_json_begin(stdout, "render");
        cli_json_board(stdout, rows, cols);
        printf(",\"modulus\":%llu,\"source\":\"%s\",\"file\":", (unsigned long long)k,
               grid ? "grid" : system ? "toggles" : "board");
        cli_json_string(stdout, out);
        printf(",\"format\":\"%s\",\"bytes\":%zu", fmt == TOGGLE_IMAGE_PNG ? "png" : "ppm", bytes);
        cli_json_timing(stdout, &clock);
        puts("}");
    }
done:
    toggle_render_opts_free(o);
    return status;
}
