/* A progress bar on stderr (progress.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#include "progress.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void draw(const progress_bar *b, size_t done, size_t total, int final)
{
    double el = now_s() - b->t0, rate = el > 0 ? (double)done / el : 0;
    int width = 30, fill = total ? (int)((double)width * (double)done / (double)total) : width;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[width] = 0;
    double left = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "\r[%s] %zu/%zu  %.1f %s/s  %s %.0fs   ", bar, done, total, rate, b->unit,
            final ? "took" : "left", final ? el : left);
    if (final)
        fputc('\n', stderr);
    fflush(stderr);
}

void progress_start(progress_bar *b, const char *unit)
{
    b->t0 = now_s();
    b->unit = unit;
}

void progress_show(void *b, size_t done, size_t total)
{
    draw(b, done, total, 0);
}

void progress_finish(const progress_bar *b, size_t total)
{
    draw(b, total, total, 1);
}

void progress_fraction(double fraction)
{
    int width = 30, fill = (int)((double)width * fraction);
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[width] = 0;
    fprintf(stderr, "\r[%s] %5.1f%%", bar, 100.0 * fraction);
    fflush(stderr);
}

void progress_erase(void)
{
    fputs("\r\033[K", stderr);
    fflush(stderr);
}
