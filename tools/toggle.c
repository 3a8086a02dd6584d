/* toggle: the command-line front end of libtoggle (public API only). */
#include <string.h>

#include "commands.h"
#include "path.h"

static const struct {
    const char *name;
    toggle_cmd_fn fn;
    const char *help;
} commands[] = {
    {"solve", cmd_solve, "solve a puzzle (grid, graph or augmented system)"},
    {"demo", cmd_demo, "run the built-in examples"},
    {"render", cmd_render, "draw a solution or a board as PNG/PPM"},
    {"sweep", cmd_sweep, "solve and draw every n x n board over every prime; gallery"},
    {"web", cmd_web, "the web site: the game (play.html) and the gallery, libtoggle in WebAssembly"},
    {"sweep-merge", cmd_sweep_merge, "join the parts of a sharded sweep into one gallery"},
    {"generate", cmd_generate, "print a random solvable start board"},
    {"rowops", cmd_rowops, "reduce an augmented matrix by hand, one row operation at a time"},
    {"nullity", cmd_nullity, "nullity of a grid board over F_p, by polynomials"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: toggle <command> [options]\n\nCommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n  toggle <command> --help   shows a command's options\n"
               "  toggle --version          prints the library version\n"
               "  toggle                    (no command) runs the demo\n");
}

int main(int argc, char **argv)
{
    /* FLINT's and GMP's allocation failures become TOGGLE_ENOMEM, not an
     * abort (include/toggle/guard.h): before anything calls the library */
    toggle_flint_guard_install();
    path_init();
    if (argc < 2)
        return cmd_demo(argc, argv);
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("toggle %s (libtoggle %s)\n", TOGGLE_VERSION_STRING, toggle_version_string());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "toggle: unknown command '%s' (see toggle --help)\n", argv[1]);
    return 2;
}
