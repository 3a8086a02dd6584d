/* The JSON vocabulary's shared pieces (commands.h, docs/json.md): every
 * command's --json object starts with the same keys and spells the board,
 * the clock and strings the same way. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "commands.h"

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
             : c >= 0xf0 && c <= 0xf4                ? 4
                                                     : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) || (c == 0xf0 && p[1] < 0x90) ||
        (c == 0xf4 && p[1] > 0x8f))
        return 0;
    return n;
}

/* A JSON string for any bytes: quotes, backslashes and control characters
 * escaped; a byte that does not start well-formed UTF-8 (a file name in
 * another encoding) becomes U+FFFD, so the output is always valid JSON
 * (docs/json.md). */
void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_len(p);
        if (!n) {
            fputs("\\ufffd", f);
            p++;
        } else if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p++);
        } else if (*p < 0x20) {
            fprintf(f, "\\u%04x", *p++);
        } else {
            fwrite(p, 1, n, f);
            p += n;
        }
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
