/* The toggle command-line tool: shared helpers and the subcommand table. */
#ifndef TOGGLE_TOOLS_COMMANDS_H
#define TOGGLE_TOOLS_COMMANDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <toggle.h>

/* Each subcommand: argv[0] is the subcommand name; returns the exit status. */
typedef int (*toggle_cmd_fn)(int argc, char **argv);

int cmd_solve(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_sweep_merge(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_nullity(int argc, char **argv);
int cmd_rowops(int argc, char **argv);
int cmd_web(int argc, char **argv);

/* ---- exit status: the one table (docs/toggle.1 EXIT STATUS, README.md) --- */
enum {
    CLI_EXIT_OK = 0,          /* the command did what was asked */
    CLI_EXIT_INPUT = 1,       /* bad input or a failed step: a file that does not parse, a
                                 value the library refuses, an unreadable or unwritable file */
    CLI_EXIT_USAGE = 2,       /* the command line: unknown command or option, a missing or
                                 malformed option value, options that do not go together */
    CLI_EXIT_RESOURCE = 3,    /* out of memory, over the memory budget, a size that overflows */
    CLI_EXIT_NOSOLUTION = 4,  /* the puzzle has no solution (the answer is still printed) */
    CLI_EXIT_CANCELLED = 130  /* interrupted (SIGINT, Ctrl-C): 128 + 2, as shells report it;
                               * SIGTERM: 143 (cli_cancelled) */
};

/* ---- helpers (cli_util.c) ---- */
/* Print "toggle: <what>: <message>" on stderr; returns CLI_EXIT_INPUT. */
int cli_fail(const char *what, const char *fmt, ...);
/* The same message; returns CLI_EXIT_USAGE (a bad command line). */
int cli_usage(const char *what, const char *fmt, ...);
/* "toggle: <what>: out of memory"; returns CLI_EXIT_RESOURCE. */
int cli_nomem(const char *what);
/* Report a library status: "toggle: <what>: <last error> (<STATUS>)"; returns
 * cli_exit_code(rc). */
int cli_status(const char *what, int rc);
/* The exit status for a library status (the table above). */
int cli_exit_code(int rc);
/* Largest input file read (the default memory budget): a larger one, or a
 * stream that goes on past it (/dev/zero), is refused with EFBIG. */
#define CLI_READ_MAX ((size_t)4 << 30)
/* Read a whole file ('-' = standard input), at most max bytes; regular: refuse
 * anything but a regular file (EISDIR, EINVAL). malloc'd, *len its length;
 * NULL with errno set (ENOENT, EFBIG, EIO, ENOMEM, ...). */
char *cli_read_file_max(const char *path, size_t max, int regular, size_t *len);
char *cli_read_file(const char *path, size_t *len);
/* Parse "RxC". */
int cli_parse_shape(const char *s, size_t *rows, size_t *cols);
/* Parse an unsigned decimal number. */
int cli_parse_u64(const char *s, uint64_t *v);
/* Print values as a JSON array. */
void cli_json_array(FILE *f, const uint64_t *v, size_t n);
/* Print a board (rows x cols) in the text board format. */
int cli_print_board(FILE *f, const uint64_t *v, size_t rows, size_t cols, uint64_t k);
/* Print a vector: as a board when rows * cols == n (rows > 0), else on one line. */
/* 0, or 1 after a message (the board text could not be made: out of memory) */
int cli_print_vector(FILE *f, const uint64_t *v, size_t n, size_t rows, size_t cols, uint64_t k);
/* Is this argument "--name" and does it have a value? Sets *val and advances *i. */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **val);
/* --cylinder and --lattice square|hex|tri (grid commands): 1 when argv[*i]
 * was one of them (flags updated, *i advanced past a value), 0 when not,
 * -1 after printing an error for a bad lattice name. */
int cli_lattice_opt(int argc, char **argv, int *i, uint32_t *flags);

/* ---- the board of solve and rowops (cli_board.c) ---- */
typedef struct {
    const char *grid, *graph, *system, *start, *target; /* the options' values */
    uint64_t k;                                         /* --mod (set the default first) */
    uint32_t flags;  /* --torus, --cylinder, --moore, --no-self, --lattice */
} cli_board;
/* One board option at argv[*i] (--grid, --graph, --system, --start, --target,
 * --mod, --torus, --cylinder, --lattice, --moore, --no-self): 1 when taken
 * (*i advanced past a value), 0 when not a board option, -1 after printing
 * an error. */
int cli_board_opt(int argc, char **argv, int *i, cli_board *b);
/* Exactly one source (sources names them for the message), --start and
 * --target not with --system, grid-only flags with --grid: 0, or 1 after
 * printing why not. */
int cli_board_check(const cli_board *b, const char *cmd, const char *sources);
/* Build the system of the board; *rows x *cols for --grid, else 0 x 0. */
int cli_board_system(const cli_board *b, toggle_system **sys, size_t *rows, size_t *cols);
/* The board as toggle rowops arguments ("--grid 3x4 --torus --mod 3"; FILE
 * for standard input), for the replay line of solve --steps. */
void cli_board_print_args(FILE *f, const cli_board *b);

/* ---- JSON output (cli_json.c, docs/json.md) ---- */
/* The vocabulary's version: the "version" key of every object. */
#define CLI_JSON_VERSION 1
/* Print a JSON string (quotes and escapes). */
void cli_json_string(FILE *f, const char *s);
/* Start an object: {"version":1,"command":"<command>" (no closing brace). */
void cli_json_begin(FILE *f, const char *command);
/* ,"rows":R,"cols":C: the board shape; both null when rows is 0 (no board). */
void cli_json_board(FILE *f, size_t rows, size_t cols);
/* The clock of a command's work (wall and CPU), for the "timing" key. */
typedef struct {
    double wall, cpu;
} cli_clock;
void cli_clock_start(cli_clock *c);
/* ,"timing":{"wall_seconds":W,"cpu_seconds":C} since cli_clock_start. */
void cli_json_timing(FILE *f, const cli_clock *c);

/* ---- progress and cancel (cli_cancel.c) ---- */
/* --progress / --no-progress: CLI_PROGRESS_AUTO shows a bar when stderr is a
 * terminal; ON forces it (a line per percent when stderr is not a terminal). */
enum { CLI_PROGRESS_AUTO = 0, CLI_PROGRESS_ON = 1, CLI_PROGRESS_OFF = 2 };
/* 1 when argv[i] is --progress or --no-progress (*mode set), else 0. */
int cli_progress_opt(const char *arg, int *mode);
/* Catch SIGINT (once: a second Ctrl-C ends the program at once) so that long
 * work is cancelled through the progress callback, and show progress on
 * stderr as *mode says; for every system the command solves. */
void cli_cancel_begin(int mode);
/* Report and cancel the work on system s through the callback. */
int cli_cancel_attach(toggle_system *s);
/* 1 once SIGINT or SIGTERM has arrived. */
int cli_interrupted(void);
/* "toggle: <what>: interrupted (SIGINT)" (or SIGTERM); returns 128 + the
 * signal's number (CLI_EXIT_CANCELLED for SIGINT). */
int cli_cancelled(const char *what);
/* Periodic checkpoints: from now on the progress callback stops the work
 * (the library returns TOGGLE_ECANCELED, its state kept) once `seconds`
 * have passed; 0 disarms (keeping a stop already due). cli_slice_due() says whether a stop was such a
 * slice's end (and not a signal), and clears it. */
void cli_slice_arm(uint64_t seconds);
int cli_slice_due(void);
/* Erase the progress bar (before printing results or errors). */
void cli_progress_clear(void);

/* ---- the memory budget (cli_budget.c) ---- */
/* --budget BYTES (0 = unlimited) into *budget; CLI_EXIT_USAGE after
 * printing why not, else 0. */
int cli_budget_parse(const char *val, uint64_t *budget);
/* Before any work: refuse a rows x cols board whose per-cell arrays
 * (`copies` 64-bit values a cell: the command's own buffers and the
 * system's right-hand side) exceed the budget (0 = unlimited), printing
 * the need, the budget and how to raise it; CLI_EXIT_RESOURCE then, else 0. The library
 * checks its own estimate before its work (ENOMEM, shown by cli_status
 * with the same hint). */
int cli_budget_board(const char *what, uint64_t budget, size_t rows, size_t cols,
                     unsigned copies);

/* ---- solution spaces (cmd_generate.c) ---- */
/* "cells" or "presses" into a TOGGLE_METRIC_*; 0 on success. */
int cli_parse_metric(const char *s, int *metric);
/* toggle solve's --fewest and --all-solutions (cmd_generate.c). */
typedef struct {
    uint64_t limit;        /* --limit (0: the library's default) */
    int metric;            /* TOGGLE_METRIC_* */
    const char *cost_file; /* --cost FILE or NULL */
    uint64_t threads;      /* --threads (UINT64_MAX = the default) */
    const char *checkpoint; /* --checkpoint FILE or NULL: continue it, save it */
    uint64_t save_every;    /* --checkpoint-every SECONDS (0: only at the end) */
} cli_space_args;
/* A fewest-press search's answer; found 0: no solution avoids the forbidden
 * cells (an answer, with proven 1). x is malloc'd (free it). */
typedef struct {
    uint64_t *x, weight, visited, lower;
    int proven, found;
    int stopped;            /* interrupted (Ctrl-C): the best so far */
    const char *checkpoint; /* where the search was saved, or NULL */
    int save_failed;        /* the final save failed (said on stderr); the
                             * answer is still printed, the exit status is 1 */
} cli_fewest;
/* Run the search on a solvable solution; 0, or the exit status after printing why. */
int cli_fewest_run(const toggle_solution *sol, const cli_space_args *a, cli_fewest *out);
/* Print it as text or as the JSON key "fewest" (docs/json.md); n unknowns;
 * 0 or the exit status after printing why. */
int cli_fewest_print(FILE *f, const cli_fewest *r, int metric, int json, size_t n, size_t rows,
                      size_t cols, uint64_t k);
/* Print at most limit (0: all) solutions in Gray order, as text or as the
 * JSON key "solutions"; 0 or the exit status. */
int cli_solutions_print(FILE *f, const toggle_solution *sol, uint64_t limit, int json,
                        size_t rows, size_t cols);

/* toggle render --toggles (cmd_toggles.c): the picture of a system's toggle
 * matrix, *rows x *cols values (malloc'd), or NULL after printing why. */
uint64_t *cli_toggle_picture(const char *path, uint64_t k, const char *shape, size_t *rows,
                             size_t *cols);

/* toggle generate --chaos (cmd_chaos.c). */
int cli_generate_chaos(int argc, char **argv);

/* ---- row operations (cmd_rowops.c) ---- */
/* toggle solve --steps: the Gauss-Jordan script of s, the system of board b
 * (named in the replay line). */
int cli_print_steps(FILE *f, const toggle_system *s, const cli_board *b);
/* toggle solve --orbits: solutions up to the symmetries of the rows x cols board. */
int cli_orbits_report(FILE *f, const toggle_solution *sol, size_t rows, size_t cols);

#endif
