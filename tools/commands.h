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

/* ---- helpers (cli_util.c) ---- */
/* Print "toggle: <what>: <message>" on stderr; returns 1 (the exit status). */
int cli_fail(const char *what, const char *fmt, ...);
/* Report a library status: "toggle: <what>: <last error> (<STATUS>)"; returns 1. */
int cli_status(const char *what, int rc);
/* Read a whole file ('-' = standard input). Returns malloc'd bytes or NULL. */
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

/* ---- solution spaces (cmd_generate.c) ---- */
/* "cells" or "presses" into a TOGGLE_METRIC_*; 0 on success. */
int cli_parse_metric(const char *s, int *metric);
/* toggle solve's --fewest and --all-solutions output (nothing when unsolvable),
 * with --cost FILE (or NULL) and --threads (UINT64_MAX = the default). */
int cli_space_report_costs(FILE *f, const toggle_solution *sol, size_t rows, size_t cols,
                           int all_solutions, uint64_t limit, int fewest, int metric,
                           const char *cost_file, uint64_t threads);

/* toggle render --toggles (cmd_toggles.c): the picture of a system's toggle
 * matrix, *rows x *cols values (malloc'd), or NULL after printing why. */
uint64_t *cli_toggle_picture(const char *path, uint64_t k, const char *shape, size_t *rows,
                             size_t *cols);

/* toggle generate --chaos (cmd_chaos.c). */
int cli_generate_chaos(int argc, char **argv);

/* ---- row operations (cmd_rowops.c) ---- */
/* toggle solve --steps: the Gauss-Jordan script of s. */
int cli_print_steps(FILE *f, const toggle_system *s);
/* toggle solve --orbits: solutions up to the symmetries of the rows x cols board. */
int cli_orbits_report(FILE *f, const toggle_solution *sol, size_t rows, size_t cols);

#endif
