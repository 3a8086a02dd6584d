/* toggle rowops: reduce an augmented matrix by hand, one row operation at a
 * time (the person decides, the program makes no typos); and the script
 * printed by toggle solve --steps. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "path.h"

static const char rowops_usage[] =
    "usage: toggle rowops (FILE | --grid RxC | --graph EDGELIST) [board options]\n"
    "                     [--mod K] [--quiet]\n"
    "\n"
    "Show the augmented matrix [A | b] of FILE (the text format of toggle solve\n"
    "--system), or of the board that toggle solve builds from the same options,\n"
    "with row numbers, then read commands, one per line, from the terminal (with\n"
    "a prompt) or from a pipe (a script, such as the output of toggle solve\n"
    "--steps with the same board options). Rows are numbered from 0; values are\n"
    "mod K. 'save FILE' writes the matrix, so 'save' at once writes a board's\n"
    "augmented system.\n"
    "\n"
    "Row operations (each keeps the system's solutions):\n"
    "  add A B [B ...]    row B += row A, for each B\n"
    "  add A*C B [B ...]  row B += C * row A (C may be negative)\n"
    "  scale A C          row A *= C (C a unit mod K)\n"
    "  swap A B           exchange rows A and B\n"
    "  move A B           move row A just before row B (B = rows: to the end)\n"
    "Helpers:\n"
    "  undo [N]           undo the last N commands (default 1)\n"
    "  redo [N]           redo N undone commands\n"
    "  auto [N]           let Gauss-Jordan make the next N operations (default 1)\n"
    "                     and print them\n"
    "  solve              let Gauss-Jordan finish\n"
    "  show               print the matrix\n"
    "  status             rank so far, pivots, reduced?, shown unsolvable?\n"
    "  solution           when reduced: the solution (every free unknown 0),\n"
    "                     checked against FILE, the nullity and free columns\n"
    "  save FILE          write the current matrix in the augmented text format\n"
    "                     (an existing FILE is replaced, and that is said)\n"
    "  help               this list\n"
    "  quit               stop (so does the end of the input)\n"
    "'#' starts a comment. A bad command prints one line and changes nothing;\n"
    "from a pipe the exit status is then 1 (4 when every bad line was a\n"
    "`solution` of a system without one).\n"
    "\n"
    "Options:\n"
    "  --grid RxC         the rows x cols board of toggle solve --grid, with its\n"
    "                     options --torus, --cylinder, --moore, --no-self,\n"
    "                     --lattice L, --start FILE and --target FILE\n"
    "  --graph FILE       an undirected graph as an edge list (with --no-self,\n"
    "                     --start, --target)\n"
    "  --system FILE      the same as FILE\n"
    "  --mod K            the modulus (default 2)\n"
    "  --quiet            print the matrix only on 'show'\n"
    "  -h, --help         this help\n";

/* The number of decimal digits of v. */
static int digits(uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

static void print_matrix(FILE *f, const toggle_steps *st)
{
    size_t m = toggle_steps_rows(st), n = toggle_steps_cols(st);
    uint64_t k = toggle_steps_modulus(st), v;
    int rw = digits(m ? m - 1 : 0), ew = digits(k - 1);
    for (size_t i = 0; i < m; i++) {
        fprintf(f, "%*zu: ", rw, i);
        for (size_t j = 0; j <= n; j++) {
            toggle_steps_entry(st, i, j, &v);
            if (j == n)
                fputs(k > 10 ? " | " : "|", f);
            else if (k > 10 && j)
                fputc(' ', f);
            fprintf(f, "%*llu", k > 10 ? ew : 1, (unsigned long long)v);
        }
        fputc('\n', f);
    }
}

/* Print the trace from operation first on, in the script language. */
static int print_ops(FILE *f, const toggle_steps *st, size_t first)
{
    size_t need = 0;
    toggle_steps_write(st, first, NULL, 0, &need);
    char *buf = malloc(need ? need : 1);
    if (!buf)
        return cli_nomem("steps");
    int rc = toggle_steps_write(st, first, buf, need, NULL);
    if (!rc)
        fputs(buf, f);
    free(buf);
    return rc ? cli_status("steps", rc) : 0;
}

/* "rank 3 of 5 unknowns; pivots 0 1 4" and friends, for status and the
 * end of a --steps script; each line starts with prefix. */
static int print_status(FILE *f, const toggle_steps *st, const char *prefix)
{
    size_t rank = 0, count = 0, n = toggle_steps_cols(st);
    int reduced = 0, unsolvable = 0;
    toggle_steps_status(st, &rank, &reduced, &unsolvable);
    toggle_steps_pivots(st, NULL, 0, &count);
    size_t *piv = malloc((count ? count : 1) * sizeof *piv);
    if (!piv)
        return cli_nomem("status");
    toggle_steps_pivots(st, piv, count, &count);
    fprintf(f, "%srank so far: %zu (of %zu unknowns)\n%spivots:", prefix, rank, n, prefix);
    for (size_t i = 0; i < count; i++)
        fprintf(f, i < count - 1 || piv[i] < n ? " %zu" : " %zu (b)", piv[i]);
    fprintf(f, "%s\n%sreduced: %s\n%sunsolvable: %s\n", count ? "" : " none", prefix,
            reduced ? "yes" : "no", prefix,
            unsolvable ? "yes (a row reads 0 = c with c != 0)"
                       : reduced ? "no" : "not shown yet");
    free(piv);
    return 0;
}

/* The solution of a reduced matrix, checked against the original system. */
static int print_solution(FILE *f, const toggle_steps *st, const toggle_system *orig)
{
    size_t n = toggle_steps_cols(st), nullity = 0, count = 0;
    uint64_t *x = malloc((n ? n : 1) * sizeof *x);
    size_t *piv = malloc((toggle_steps_rows(st) + 1) * sizeof *piv);
    int rc = x && piv ? toggle_steps_solution(st, x, n, &nullity) : TOGGLE_ENOMEM;
    int solves = 0;
    if (!rc)
        rc = toggle_system_check(orig, x, n, &solves);
    if (!rc)
        rc = toggle_steps_pivots(st, piv, toggle_steps_rows(st) + 1, &count);
    if (!rc) {
        fputs("solution (every free unknown 0):\n", f);
        cli_print_vector(f, x, n, 0, 0, toggle_steps_modulus(st));
        fprintf(f, "check: %s\nnullity: %zu\nfree columns:", solves ? "A x = b holds" : "FAILED",
                nullity);
        for (size_t j = 0, p = 0; j < n; j++) {
            if (p < count && piv[p] == j)
                p++;
            else
                fprintf(f, " %zu", j);
        }
        fputs(nullity ? "\n" : " none\n", f);
    }
    free(x);
    free(piv);
    if (rc)
        return cli_status("solution", rc);
    return solves ? 0 : cli_fail("solution", "the solution does not solve the system");
}

int cli_print_steps(FILE *f, const toggle_system *s, const cli_board *b)
{
    toggle_steps *st = NULL;
    int rc = toggle_steps_new(&st, s);
    if (rc)
        return cli_status("--steps", rc);
    fprintf(f, "# toggle solve --steps: plain Gauss-Jordan on the %zu x %zu augmented matrix\n"
               "# [A | b] over Z/%lluZ; replay with: toggle rowops ",
            toggle_steps_rows(st), toggle_steps_cols(st) + 1,
            (unsigned long long)toggle_steps_modulus(st));
    cli_board_print_args(f, b);
    fputs(" < this\n", f);
    size_t done = 0;
    rc = toggle_steps_auto(st, SIZE_MAX, &done);
    int status = rc ? 0 : print_ops(f, st, 0);
    if (!rc && !status) {
        int reduced = 0;
        toggle_steps_status(st, NULL, &reduced, NULL);
        fprintf(f, "# %zu operations\n", done);
        status = print_status(f, st, "# ");
        if (!reduced) /* composite k: the next column has no unit pivot */
            rc = toggle_steps_auto(st, SIZE_MAX, NULL);
    }
    if (rc)
        status = cli_status("--steps", rc);
    toggle_steps_free(st);
    return status;
}

/* ---- the interactive session ---------------------------------------------- */

/* Commands done and undone, as counts of row operations, so that undo and
 * redo work a command at a time. */
typedef struct {
    size_t *v, n, cap;
} stack;

static int stack_push(stack *s, size_t x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        size_t *p = realloc(s->v, cap * sizeof *p);
        if (!p)
            return 1;
        s->v = p;
        s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

typedef struct {
    toggle_steps *st;
    const toggle_system *orig;
    stack done, undone;
    int quiet;
} session;

/* An optional count argument (default 1). */
static int count_arg(const char *rest, uint64_t *n)
{
    *n = 1;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    return *rest ? cli_parse_u64(rest, n) || !*n : 0;
}

/* undo or redo n commands: move them from one stack to the other. */
static int undo_redo(session *se, const char *rest, int undo)
{
    uint64_t n;
    stack *from = undo ? &se->done : &se->undone, *to = undo ? &se->undone : &se->done;
    const char *what = undo ? "undo" : "redo";
    if (count_arg(rest, &n))
        return cli_fail(what, "expected a positive number of commands");
    if (n > from->n)
        return cli_fail(what, "only %zu command%s to %s", from->n, from->n == 1 ? "" : "s",
                        what);
    size_t ops = 0;
    for (size_t i = 0; i < n; i++)
        ops += from->v[from->n - 1 - i];
    int rc = undo ? toggle_steps_undo(se->st, ops) : toggle_steps_redo(se->st, ops);
    if (rc)
        return cli_status(what, rc);
    for (size_t i = 0; i < n; i++)
        if (stack_push(to, from->v[--from->n]))
            return cli_nomem(what);
    return 0;
}

/* A command that changed the matrix by ops operations. */
static int record(session *se, size_t ops)
{
    se->undone.n = 0;
    if (ops && stack_push(&se->done, ops))
        return cli_nomem("rowops");
    if (!se->quiet)
        print_matrix(stdout, se->st);
    return 0;
}

static int do_auto(session *se, uint64_t n)
{
    size_t before = toggle_steps_count(se->st), done = 0;
    int rc = toggle_steps_auto(se->st, n > SIZE_MAX ? SIZE_MAX : (size_t)n, &done);
    if (rc)
        return cli_status("auto", rc);
    if (!done) {
        puts("# already in reduced row echelon form");
        return 0;
    }
    int status = print_ops(stdout, se->st, before);
    return status ? status : record(se, done);
}

static int save(const session *se, const char *path)
{
    toggle_system *s = NULL;
    char *buf = NULL;
    size_t need = 0;
    int rc = toggle_steps_system(se->st, &s);
    if (!rc) {
        toggle_system_write(s, NULL, 0, &need);
        buf = malloc(need ? need : 1);
        rc = buf ? toggle_system_write(s, buf, need, NULL) : TOGGLE_ENOMEM;
    }
    toggle_system_free(s);
    if (rc) {
        free(buf);
        return cli_status("save", rc);
    }
    /* written whole (path.h); an existing regular file is replaced, as
     * the command's help says, and the replacement is reported */
    char why[512];
    int existed = 0;
    if (path_target_check(path, 1, &existed, why, sizeof why)) {
        free(buf);
        return cli_fail("save", "%s", why);
    }
    int bad = path_write_whole(path, buf, strlen(buf));
    int e = errno;
    free(buf);
    if (bad)
        return cli_fail("save", "cannot write '%s': %s", path, strerror(e));
    if (existed)
        fprintf(stderr, "save: replaced the existing '%s'\n", path);
    return 0;
}

/* Run one line; returns 0, 1 (a bad command) or -1 (quit). */
static int run_line(session *se, char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *p = line + strspn(line, " \t\r\n");
    size_t wl = strcspn(p, " \t\r\n");
    char *rest = p + wl;
    rest[strcspn(rest, "\r\n")] = '\0';
    while (*rest == ' ' || *rest == '\t')
        rest++;
#define IS(w) (wl == strlen(w) && !strncmp(p, w, wl))
    if (!wl)
        return 0;
    if (IS("add") || IS("scale") || IS("swap") || IS("move")) {
        size_t ops = 0;
        int rc = toggle_steps_apply(se->st, p, strlen(p), &ops);
        return rc ? cli_status("rowops", rc) : record(se, ops);
    }
    if (IS("undo") || IS("redo")) {
        int status = undo_redo(se, rest, IS("undo"));
        if (!status && !se->quiet)
            print_matrix(stdout, se->st);
        return status;
    }
    if (IS("auto") || IS("solve")) {
        uint64_t n = UINT64_MAX;
        if (IS("auto") && count_arg(rest, &n))
            return cli_fail("auto", "expected a positive number of operations");
        if (IS("solve") && *rest)
            return cli_fail("solve", "takes no argument");
        return do_auto(se, n);
    }
    if (IS("show"))
        return print_matrix(stdout, se->st), 0;
    if (IS("status"))
        return print_status(stdout, se->st, "");
    if (IS("solution"))
        return print_solution(stdout, se->st, se->orig);
    if (IS("save"))
        return *rest ? save(se, rest) : cli_fail("save", "needs a file name");
    if (IS("help"))
        return fputs(strstr(rowops_usage, "Row operations"), stdout), 0;
    if (IS("quit") || IS("exit"))
        return -1;
#undef IS
    return cli_fail("rowops", "unknown command '%.*s' (type help)", (int)wl, p);
}

int cmd_rowops(int argc, char **argv)
{
    cli_board b = {.k = 2};
    session se = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int board = cli_board_opt(argc, argv, &i, &b);
        if (board < 0)
            return -board;
        if (board) {
            continue;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(rowops_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--quiet")) {
            se.quiet = 1;
        } else if (a[0] == '-' || b.system) {
            return cli_usage("rowops", "unknown argument '%s' (see toggle rowops --help)", a);
        } else {
            b.system = a;
        }
    }
    if (!b.grid && !b.graph && !b.system)
        return cli_usage("rowops", "needs a FILE with an augmented matrix, or --grid or --graph "
                                   "(see --help)");
    int bad_board = cli_board_check(&b, "rowops", "FILE, --grid, --graph");
    if (bad_board)
        return bad_board;
    toggle_system *s = NULL;
    size_t rows, cols;
    int built = cli_board_system(&b, &s, &rows, &cols);
    if (built)
        return built;
    int rc = toggle_steps_new(&se.st, s);
    if (rc) {
        toggle_system_free(s);
        return cli_status("rowops", rc);
    }
    se.orig = s;
    int tty = isatty(0), failed = 0, r = 0;
    if (!se.quiet)
        print_matrix(stdout, se.st);
    char *line = NULL;
    size_t cap = 0;
    for (;;) {
        if (tty) {
            fputs("rowops> ", stdout);
            fflush(stdout);
        }
        if (getline(&line, &cap, stdin) < 0)
            break;
        if ((r = run_line(&se, line)) < 0)
            break;
        /* the bad lines' status when they agree (4: the only failures
         * were `solution` on a system without one), else 1; OR-ing the
         * statuses gave 5 for a 1 and a 4 */
        if (r)
            failed = !failed || failed == r ? r : CLI_EXIT_INPUT;
        fflush(stdout);
    }
    free(line);
    free(se.done.v);
    free(se.undone.v);
    toggle_steps_free(se.st);
    toggle_system_free(s);
    return tty ? 0 : failed;
}
