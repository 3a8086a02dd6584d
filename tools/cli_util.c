/* Helpers shared by the toggle subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"

static void say(const char *what, const char *fmt, va_list ap)
{
    cli_progress_clear();
    fprintf(stderr, "toggle: %s: ", what);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_fail(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(what, fmt, ap);
    va_end(ap);
    return CLI_EXIT_INPUT;
}

int cli_usage(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(what, fmt, ap);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

int cli_nomem(const char *what)
{
    cli_fail(what, "out of memory");
    return CLI_EXIT_RESOURCE;
}

int cli_exit_code(int rc)
{
    switch (rc) {
    case TOGGLE_OK:
        return CLI_EXIT_OK;
    case TOGGLE_ENOMEM:    /* out of memory or over the budget */
    case TOGGLE_EOVERFLOW: /* a size that does not fit */
    case TOGGLE_ELIMIT:
        return CLI_EXIT_RESOURCE;
    case TOGGLE_ENOSOLUTION:
        return CLI_EXIT_NOSOLUTION;
    case TOGGLE_ECANCELED:
        return CLI_EXIT_CANCELLED;
    default:
        return CLI_EXIT_INPUT;
    }
}

int cli_status(const char *what, int rc)
{
    if (rc == TOGGLE_ECANCELED && cli_interrupted())
        cli_fail(what, "interrupted (SIGINT): %s", toggle_last_error());
    else if (rc == TOGGLE_ENOMEM && strstr(toggle_last_error(), "budget"))
        /* over the memory budget (the library names the need and the
         * budget): say how to raise it */
        cli_fail(what, "%s (%s); raise it with --budget BYTES (0 = unlimited)",
                 toggle_last_error(), toggle_status_name(rc));
    else
        cli_fail(what, "%s (%s)", toggle_last_error(), toggle_status_name(rc));
    return cli_exit_code(rc);
}

char *cli_read_file_max(const char *path, size_t max, int regular, size_t *len)
{
    int std = strcmp(path, "-") == 0;
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (!std && regular && (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))) {
        fclose(f);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int e = buf ? 0 : ENOMEM;
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f))
                e = EIO;
            break;
        }
        if (cap > max) {
            e = EFBIG;
            break;
        }
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            e = ENOMEM;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    if (!std)
        fclose(f);
    if (!e && n > max)
        e = EFBIG;
    if (e) {
        free(buf);
        errno = e;
        return NULL;
    }
    *len = n;
    return buf;
}

char *cli_read_file(const char *path, size_t *len)
{
    return cli_read_file_max(path, CLI_READ_MAX, 0, len);
}

int cli_parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

int cli_parse_shape(const char *s, size_t *rows, size_t *cols)
{
    const char *x = strchr(s, 'x');
    if (!x)
        x = strchr(s, 'X');
    if (!x)
        return -1;
    char tmp[64];
    size_t l = (size_t)(x - s);
    if (l == 0 || l >= sizeof tmp)
        return -1;
    memcpy(tmp, s, l);
    tmp[l] = 0;
    uint64_t r, c;
    if (cli_parse_u64(tmp, &r) || cli_parse_u64(x + 1, &c) || r == 0 || c == 0)
        return -1;
    *rows = (size_t)r;
    *cols = (size_t)c;
    return 0;
}

void cli_json_array(FILE *f, const uint64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, i ? ",%llu" : "%llu", (unsigned long long)v[i]);
    fputc(']', f);
}

int cli_print_board(FILE *f, const uint64_t *v, size_t rows, size_t cols, uint64_t k)
{
    size_t need = 0;
    int rc = toggle_board_format(v, rows, cols, k, NULL, 0, &need);
    if (rc != TOGGLE_EBUFSIZE && rc != TOGGLE_OK)
        return rc;
    char *buf = malloc(need);
    if (!buf)
        return TOGGLE_ENOMEM;
    rc = toggle_board_format(v, rows, cols, k, buf, need, NULL);
    if (rc == TOGGLE_OK)
        fputs(buf, f);
    free(buf);
    return rc;
}

int cli_print_vector(FILE *f, const uint64_t *v, size_t n, size_t rows, size_t cols, uint64_t k)
{
    if (rows && rows * cols == n) {
        int rc = cli_print_board(f, v, rows, cols, k);
        if (rc == TOGGLE_ENOMEM)
            return cli_fail("print", "out of memory formatting a board");
        return rc ? cli_status("print", rc) : 0;
    }
    for (size_t i = 0; i < n; i++)
        fprintf(f, k > 10 ? (i ? " %llu" : "%llu") : "%llu", (unsigned long long)v[i]);
    fputc('\n', f);
    return 0;
}

int cli_opt(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t l = strlen(name);
    if (strncmp(argv[*i], name, l) != 0)
        return 0;
    if (argv[*i][l] == '=') {
        *val = argv[*i] + l + 1;
        return 1;
    }
    if (argv[*i][l] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        *val = NULL;
        return 1;
    }
    *val = argv[++*i];
    return 1;
}

int cli_lattice_opt(int argc, char **argv, int *i, uint32_t *flags)
{
    const char *val = NULL;
    if (!strcmp(argv[*i], "--cylinder")) {
        *flags |= TOGGLE_GRID_CYLINDER;
        return 1;
    }
    if (!cli_opt(argc, argv, i, "--lattice", &val))
        return 0;
    if (val && !strcmp(val, "square"))
        return 1;
    if (val && !strcmp(val, "hex")) {
        *flags |= TOGGLE_GRID_HEX;
        return 1;
    }
    if (val && !strcmp(val, "tri")) {
        *flags |= TOGGLE_GRID_TRI;
        return 1;
    }
    cli_fail("--lattice", "expected square, hex or tri, got '%s'", val ? val : "");
    return -1;
}
