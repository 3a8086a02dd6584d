/* The JSON vocabulary's shared pieces (commands.h, docs/json.md): every
 * command's --json object starts with the same keys and spells the board,
 * the clock and strings the same way. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "commands.h"

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void cli_json_begin(FILE *f, const char *command)
{
    fprintf(f, "{\"version\":%d,\"command\":", CLI_JSON_VERSION);
    cli_json_string(f, command);
}

void cli_json_board(FILE *f, size_t rows, size_t cols)
{
    if (rows)
        fprintf(f, ",\"rows\":%zu,\"cols\":%zu", rows, cols);
    else
        fputs(",\"rows\":null,\"cols\":null", f);
}

static double seconds(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_clock_start(cli_clock *c)
{
    c->wall = seconds(CLOCK_MONOTONIC);
    c->cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
}

void cli_json_timing(FILE *f, const cli_clock *c)
{
    fprintf(f, ",\"timing\":{\"wall_seconds\":%.6f,\"cpu_seconds\":%.6f}",
            seconds(CLOCK_MONOTONIC) - c->wall, seconds(CLOCK_PROCESS_CPUTIME_ID) - c->cpu);
}
