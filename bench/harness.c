/* toggle-bench's driver: options, forked runs, medians, ratios, JSON. */
#define _GNU_SOURCE
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <toggle.h>

#define MAX_WORKLOADS 512
static const bench_workload *all[MAX_WORKLOADS];
static size_t nall;

void bench_register(const bench_workload *w, size_t count)
{
    for (size_t i = 0; i < count && nall < MAX_WORKLOADS; i++)
        all[nall++] = &w[i];
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    int ok;
    int reps;
    double median, min, max;
    double peak_mib;  /* VmHWM during the timed runs (after setup) */
    double setup_mib; /* VmRSS after setup */
} result;

static double status_mib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double v = 0;
    size_t kl = strlen(key);
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0)
            v = strtod(line + kl + 1, NULL) / 1024.0;
    fclose(f);
    return v;
}

static void reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void run_child(const bench_workload *w, int reps, int fd)
{
    result r = {0};
    void *st = w->setup ? w->setup(w->arg) : (void *)1;
    if (st) {
        r.setup_mib = status_mib("VmRSS:");
        reset_peak();
        double t[64];
        if (reps > 64)
            reps = 64;
        r.ok = w->run(st, 1) == 0; /* warm-up, with the workload's own check */
        for (int i = 0; r.ok && i < reps; i++) {
            double t0 = bench_now();
            r.ok = w->run(st, 0) == 0;
            t[i] = bench_now() - t0;
        }
        r.peak_mib = status_mib("VmHWM:");
        if (r.ok) {
            qsort(t, (size_t)reps, sizeof *t, cmp_double);
            r.reps = reps;
            r.min = t[0];
            r.max = t[reps - 1];
            r.median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
        }
        if (w->teardown)
            w->teardown(st);
    }
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(2);
    _exit(0);
}

static result run_forked(const bench_workload *w, int reps)
{
    result r = {0};
    int p[2];
    if (pipe(p) != 0)
        return r;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        run_child(w, reps, p[1]);
    }
    close(p[1]);
    if (pid > 0) {
        if (read(p[0], &r, sizeof r) != (ssize_t)sizeof r)
            r.ok = 0;
        waitpid(pid, NULL, 0);
    }
    close(p[0]);
    return r;
}

static void usage(void)
{
    printf("usage: toggle-bench [--quick] [--filter TEXT] [--reps N] [--json FILE] [--list]\n"
           "  Runs the named workloads, each in its own process: one warm-up run (which\n"
           "  also checks the answer), then N timed runs; prints median/min/max seconds,\n"
           "  peak memory during the timed runs, and the ratio to the group's baseline.\n");
}

int main(int argc, char **argv)
{
    int quick = 0, list = 0, reps_opt = 0;
    const char *filter = NULL, *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps_opt = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            return 0;
        } else {
            fprintf(stderr, "toggle-bench: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    bench_register_core();
    bench_register_gf2();
    bench_register_grid();

    result *res = calloc(nall ? nall : 1, sizeof *res);
    int *sel = calloc(nall ? nall : 1, sizeof *sel);
    for (size_t i = 0; i < nall; i++)
        sel[i] = (!quick || all[i]->quick) && (!filter || strstr(all[i]->name, filter));
    if (list) {
        for (size_t i = 0; i < nall; i++)
            if (sel[i])
                printf("%s\n", all[i]->name);
        return 0;
    }
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("# toggle-bench, libtoggle %s, %s%s\n", toggle_version_string(), date,
           quick ? " (quick)" : "");
    printf("%-44s %-12s %10s %10s %10s %9s %9s\n", "workload", "impl", "median_s", "min_s",
           "max_s", "peak_MiB", "ratio");
    int failed = 0;
    for (size_t i = 0; i < nall; i++) {
        if (!sel[i])
            continue;
        const bench_workload *w = all[i];
        int reps = reps_opt > 0 ? reps_opt : (w->reps > 0 ? w->reps : 5);
        if (quick && reps > 3)
            reps = 3;
        res[i] = run_forked(w, reps);
        if (!res[i].ok) {
            failed++;
            printf("%-44s %-12s FAILED\n", w->group, w->impl);
            continue;
        }
        double ratio = 0;
        if (w->baseline) {
            for (size_t j = 0; j < nall; j++)
                if (sel[j] && res[j].ok && !strcmp(all[j]->group, w->group)
                    && !strcmp(all[j]->impl, w->baseline))
                    ratio = res[j].median > 0 ? res[i].median / res[j].median : 0;
        }
        printf("%-44s %-12s %10.6f %10.6f %10.6f %9.1f ", w->group, w->impl, res[i].median,
               res[i].min, res[i].max, res[i].peak_mib);
        if (ratio > 0)
            printf("%8.3fx\n", ratio);
        else
            printf("%9s\n", "-");
        fflush(stdout);
    }
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "toggle-bench: cannot write %s\n", json);
            return 1;
        }
        fprintf(f, "{\"version\": \"%s\", \"date\": \"%s\", \"quick\": %s, \"results\": [\n",
                toggle_version_string(), date, quick ? "true" : "false");
        int first = 1;
        for (size_t i = 0; i < nall; i++) {
            if (!sel[i])
                continue;
            const bench_workload *w = all[i];
            fprintf(f, "%s  {\"name\": \"%s\", \"group\": \"%s\", \"impl\": \"%s\", \"ok\": %s, "
                    "\"reps\": %d, \"median_s\": %.9f, \"min_s\": %.9f, \"max_s\": %.9f, "
                    "\"peak_mib\": %.2f, \"setup_mib\": %.2f}",
                    first ? "" : ",\n", w->name, w->group, w->impl, res[i].ok ? "true" : "false",
                    res[i].reps, res[i].median, res[i].min, res[i].max, res[i].peak_mib,
                    res[i].setup_mib);
            first = 0;
        }
        fprintf(f, "\n]}\n");
        fclose(f);
    }
    printf("# %d failed\n", failed);
    free(res);
    free(sel);
    return failed ? 1 : 0;
}
