/* Render workloads: one PNG of a 70 x 70 solution through the library, and the
 * article sweep (70 sizes x 19 primes) through the toggle CLI, with 8 colour
 * maps and with rendering off. The sweep runs as a child process so its
 * threads and files are measured as a user sees them. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toggle.h>

#include "harness.h"

#ifndef TOGGLE_BENCH_CLI
#define TOGGLE_BENCH_CLI "toggle"
#endif

typedef struct {
    const char *args; /* sweep arguments after "--out DIR" */
    size_t rows;      /* manifest rows expected */
    int gallery;      /* pictures expected */
} sweep_arg;

typedef struct {
    const sweep_arg *a;
    char dir[64];
} sweep_state;

static void *sweep_setup(const void *arg)
{
    sweep_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->a = arg;
    snprintf(st->dir, sizeof st->dir, "/tmp/toggle-bench-sweep-XXXXXX");
    if (!mkdtemp(st->dir)) {
        free(st);
        return NULL;
    }
    return st;
}

static int sweep_run(void *p, int check)
{
    sweep_state *st = p;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' sweep --out '%s' %s", TOGGLE_BENCH_CLI, st->dir, st->a->args);
    if (system(cmd) != 0)
        return 1;
    if (!check)
        return 0;
    char path[256], line[512];
    snprintf(path, sizeof path, "%s/manifest.csv", st->dir);
    FILE *f = fopen(path, "r");
    size_t n = 0;
    while (f && fgets(line, sizeof line, f))
        n++;
    if (f)
        fclose(f);
    if (n != st->a->rows + 1)
        return 1;
    snprintf(path, sizeof path, "%s/img/viridis/n70-p2.png", st->dir);
    f = fopen(path, "rb");
    if (f)
        fclose(f);
    return (f != NULL) != st->a->gallery;
}

static void sweep_teardown(void *p)
{
    sweep_state *st = p;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", st->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "wl_render: could not remove %s\n", st->dir);
    free(st);
}

/* One picture: the 70 x 70 solution over F_67, cell 8, as PNG in memory. */
typedef struct {
    uint64_t *x;
    uint8_t *buf;
    size_t cap;
} png_state;

static void *png_setup(const void *arg)
{
    (void)arg;
    png_state *st = calloc(1, sizeof *st);
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    st->x = malloc(4900 * sizeof *st->x);
    int rc = toggle_graph_new_grid(&g, 70, 70, 0);
    if (!rc)
        rc = toggle_system_new(&s, g, 2, NULL, NULL);
    if (!rc)
        rc = toggle_solve(&sol, s);
    if (!rc)
        rc = toggle_solution_particular(sol, st->x, 4900);
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    st->cap = 1 << 20;
    st->buf = malloc(st->cap);
    if (rc || !st->buf) {
        free(st->x);
        free(st->buf);
        free(st);
        return NULL;
    }
    return st;
}

static int png_run(void *p, int check)
{
    png_state *st = p;
    size_t need = 0;
    int rc = toggle_render(NULL, TOGGLE_IMAGE_PNG, st->x, 70, 70, 2, st->buf, st->cap, &need);
    return rc != TOGGLE_OK || (check && memcmp(st->buf, "\x89PNG", 4) != 0);
}

static void png_teardown(void *p)
{
    png_state *st = p;
    free(st->x);
    free(st->buf);
    free(st);
}

static const sweep_arg article = {
    "--sizes 1..70 --primes 2..67 --threads 2", 70 * 19, 1};
static const sweep_arg article_off = {
    "--sizes 1..70 --primes 2..67 --threads 2 --no-render", 70 * 19, 0};
static const sweep_arg small = {
    "--sizes 1..20 --primes 2..19 --threads 2", 20 * 8, 0};

static const bench_workload render_workloads[] = {
    {"render/png/70x70/toggle", "render/png/70x70", "toggle", NULL, 1, 20, png_setup, png_run,
     png_teardown, NULL},
    {"render/sweep/70x19/no-render", "render/sweep/70x19/no-render", "toggle-cli", NULL, 1, 5,
     sweep_setup, sweep_run, sweep_teardown, &article_off},
    {"render/sweep/20x8/8maps", "render/sweep/20x8/8maps", "toggle-cli", NULL, 1, 3,
     sweep_setup, sweep_run, sweep_teardown, &small},
    {"render/sweep/70x19/8maps", "render/sweep/70x19/8maps", "toggle-cli", NULL, 0, 3,
     sweep_setup, sweep_run, sweep_teardown, &article},
};

void bench_register_render(void)
{
    bench_register(render_workloads, sizeof render_workloads / sizeof *render_workloads);
}
