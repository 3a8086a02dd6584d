/* toggle-bench: named workloads, each timed in a forked child for clean peak-memory figures. */
#ifndef TOGGLE_BENCH_HARNESS_H
#define TOGGLE_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_workload {
    const char *name;     /* unique, e.g. "gf2/dense/1024/toggle-gf2" */
    const char *group;    /* rows with the same group are compared, e.g. "gf2/dense/1024" */
    const char *impl;     /* e.g. "toggle-gf2", "flint", "m4ri" */
    const char *baseline; /* impl of the same group to take ratios against, or NULL */
    int quick;            /* 1: part of --quick (keep each quick one well under a second) */
    int reps;             /* repetitions (0: default 5; --quick uses min(reps, 3)) */
    /* Untimed preparation; returns a state pointer (NULL means failure). */
    void *(*setup)(const void *arg);
    /* Timed; returns 0 on success. May check its own result once (check != 0). */
    int (*run)(void *state, int check);
    void (*teardown)(void *state);
    const void *arg;
} bench_workload;

/* Register workloads (the array must outlive the run; static storage). */
void bench_register(const bench_workload *w, size_t count);

/* One more ratio after the table: IMPL's median over REF's median in every
 * group where both ran (a second reference, e.g. toggle-auto against
 * fflas-ffpack next to its baseline FLINT). Up to 16 pairs; static strings. */
void bench_compare(const char *impl, const char *ref);

/* Groups whose names start with PREFIX compare thread counts (their
 * baseline, the row other rows name, runs on one thread): that row runs on
 * the allowed CPU that is fastest when it starts (a short probe), so that
 * t2 / t1 is a speed-up even where the CPUs differ (docs/performance.md,
 * "Pinning"). Up to 16 prefixes; static strings. */
void bench_scaling(const char *prefix);

/* A monotonic clock in seconds. */
double bench_now(void);

/* SplitMix64: a fast reproducible generator for workload data (*state is
 * the seed and advances). Shared so each workload file need not carry one. */
uint64_t bench_rng(uint64_t *state);

/* The vector reference's inner loop: PASSES rounds of a ^= b, b += a >> 1
 * over WORDS words (L1-resident for small WORDS, so the core's loads,
 * stores and vector units bound it, as in the gf2 kernels). Shared by the
 * gf2/threads/vector workloads and the per-CPU probe of the header line. */
void bench_vec_sweep(uint64_t *restrict a, uint64_t *restrict b, size_t words, unsigned passes);

/* Each workload file provides one registration function. harness.c calls
 * every one of these that is linked in (they are weak references there), so
 * a new workload file needs only its line in bench/meson.build. Names are
 * bench_register_<file suffix>: wl_core.c -> bench_register_core. */
void bench_register_core(void);   /* wl_core.c: dense GF(p), FLINT direct, AUTO (blas engine) */
void bench_register_io(void);     /* wl_io.c: parsing and writing large systems */
void bench_register_gf2(void);    /* wl_gf2.c: packed GF(2), M4RI */
void bench_register_grid(void);   /* wl_grid.c: light chasing, polynomial nullity */
void bench_register_space(void);  /* wl_space.c: solution spaces, composite moduli */
void bench_register_render(void); /* wl_render.c: rendering, the n x p sweep */

#endif
