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
/* Is this argument "--name" and does it have a value? Sets *val and advances *i. */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **val);

#endif
