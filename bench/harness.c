/* toggle-bench's driver: options, forked runs, medians, ratios, the machine, JSON. */
#define _GNU_SOURCE
#include "harness.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <toggle.h>

/* Every registration function is a weak reference: a workload file that is
 * not linked in (not written yet, or left out of bench/meson.build) is
 * simply skipped. */
#pragma weak bench_register_core
#pragma weak bench_register_io
#pragma weak bench_register_gf2
#pragma weak bench_register_grid
#pragma weak bench_register_space
#pragma weak bench_register_render

#define MAX_WORKLOADS 1024
#define MAX_REPS 64
static const bench_workload *all[MAX_WORKLOADS];
static size_t nall;
static size_t dropped;

void bench_register(const bench_workload *w, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (nall < MAX_WORKLOADS)
            all[nall++] = &w[i];
        else
            dropped++;
    }
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define MAX_COMPARE 16
static const char *cmp_impl[MAX_COMPARE], *cmp_ref[MAX_COMPARE];
static size_t ncmp;

void bench_compare(const char *impl, const char *ref)
{
    if (ncmp < MAX_COMPARE) {
        cmp_impl[ncmp] = impl;
        cmp_ref[ncmp++] = ref;
    }
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t bench_rng(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void bench_vec_sweep(uint64_t *restrict a, uint64_t *restrict b, size_t words, unsigned passes)
{
    for (unsigned r = 0; r < passes; r++)
        for (size_t i = 0; i < words; i++) {
            a[i] ^= b[i];
            b[i] += a[i] >> 1;
        }
}

enum { RES_FAILED = 0, RES_OK = 1, RES_SETUP = 2, RES_CHECK = 3 };

typedef struct {
    int status;       /* R_* (filled by the child) */
    int reps;         /* timed runs; 0: only the warm-up was timed (see --max-time) */
    double warmup;    /* seconds of the checked warm-up run */
    double median, min, max;
    double cpu_median; /* process CPU seconds of the timed runs, median (the machine is shared:
                          CPU time is what other processes' load disturbs least) */
    double peak_mib;  /* VmHWM during the timed runs (after setup and the checked warm-up;
                         during the warm-up when it is the only sample) */
    double setup_mib; /* VmRSS after setup */
} result;

typedef struct {
    int quick;
    int reps;          /* --reps, 0: each workload's own */
    double max_time;   /* budget in seconds for one workload's timed runs */
    double timeout;    /* a child is killed after this many seconds (0: never) */
    double deadline;   /* the whole run stops starting workloads after this (0: never) */
    int interleave;    /* 1: a group's workloads take turns, one timed run each per round */
} config;

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

/* ---- the CPUs: --cpus, and how fast each one is ---------------------------- */

/* On a shared machine the processors need not be equal: a virtual CPU whose
 * core's twin is busy elsewhere runs vector code slower (docs/performance.md,
 * "Pinning"), and a workload's process stays on the
 * CPU it started on. Each workload then lands fast or slow at random, and
 * a ratio between two processes moves by as much. --cpus pins every
 * workload to a set the user chose; the header line says how fast each
 * allowed CPU runs the vector reference, so a run shows the state it met. */
#define MAX_PROBE 16

/* "0,2-3" into *set; -1 when malformed or naming no CPU. */
static int parse_cpus(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    const char *p = s;
    while (*p) {
        char *end;
        if (*p < '0' || *p > '9') /* strtol would take spaces and signs */
            return -1;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0 || lo >= CPU_SETSIZE)
            return -1;
        p = end;
        if (*p == '-') {
            hi = strtol(p + 1, &end, 10);
            if (end == p + 1 || hi < lo || hi >= CPU_SETSIZE)
                return -1;
            p = end;
        }
        for (long c = lo; c <= hi; c++)
            CPU_SET((int)c, set);
        if (*p == ',' && !*++p) /* a trailing comma */
            return -1;
        else if (*p && (*p < '0' || *p > '9'))
            return -1;
    }
    return CPU_COUNT(set) ? 0 : -1;
}

/* set as "0-1,4" */
static void format_cpus(const cpu_set_t *set, char *out, size_t len)
{
    size_t n = 0;
    out[0] = 0;
    for (int c = 0; c < CPU_SETSIZE && n < len; c++) {
        if (!CPU_ISSET(c, set) || (c > 0 && CPU_ISSET(c - 1, set)))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        int k = e > c ? snprintf(out + n, len - n, "%s%d-%d", n ? "," : "", c, e)
                      : snprintf(out + n, len - n, "%s%d", n ? "," : "", c);
        if (k < 0)
            break;
        n += (size_t)k;
    }
}

/* Best of three short vector sweeps on CPU c (the process moves there);
 * 0 when it may not run there. */
static double probe_one(int c)
{
    static uint64_t a[1024], b[1024];
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    if (sched_setaffinity(0, sizeof one, &one))
        return 0;
    for (size_t i = 0; i < 1024; i++) {
        a[i] = i * 0x9E3779B97F4A7C15ull;
        b[i] = ~a[i];
    }
    double low = 0;
    for (int r = 0; r < 3; r++) {
        double t0 = bench_now();
        __asm__ __volatile__("" ::: "memory"); /* the sweep stays between the clocks */
        bench_vec_sweep(a, b, 1024, 4096);
        __asm__ __volatile__("" ::: "memory");
        double dt = bench_now() - t0;
        if (r == 0 || dt < low)
            low = dt;
    }
    return low;
}

/* probe_one on each allowed CPU (the first MAX_PROBE that take the
 * process): their numbers in cpu[], their times in t[]; the process's
 * affinity is restored after. Returns how many. */
static int probe_each(const cpu_set_t *allowed, int *cpu, double *t)
{
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < MAX_PROBE; c++) {
        if (!CPU_ISSET(c, allowed))
            continue;
        double low = probe_one(c);
        if (low <= 0)
            continue;
        cpu[n] = c;
        t[n++] = low;
    }
    sched_setaffinity(0, sizeof *allowed, allowed);
    return n;
}

#define MAX_SCALING 16
static const char *scaling[MAX_SCALING];
static size_t nscaling;

void bench_scaling(const char *prefix)
{
    if (nscaling < MAX_SCALING)
        scaling[nscaling++] = prefix;
}

/* The baseline row of a thread-scaling group (bench_scaling) moves to the
 * allowed CPU that is fastest now. */
static void pin_if_scaling(const bench_workload *w)
{
    int scales = 0, base = 0;
    for (size_t i = 0; i < nscaling && !scales; i++)
        scales = !strncmp(w->group, scaling[i], strlen(scaling[i]));
    for (size_t i = 0; i < nall && scales && !base; i++)
        base = all[i]->baseline && !strcmp(all[i]->group, w->group) &&
               !strcmp(all[i]->baseline, w->impl) && all[i] != w;
    cpu_set_t allowed;
    if (!base || sched_getaffinity(0, sizeof allowed, &allowed) || CPU_COUNT(&allowed) < 2)
        return;
    int cpu[MAX_PROBE], n;
    double t[MAX_PROBE];
    if ((n = probe_each(&allowed, cpu, t)) == 0)
        return;
    int best = 0;
    for (int i = 1; i < n; i++)
        if (t[i] < t[best])
            best = i;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu[best], &one);
    if (sched_setaffinity(0, sizeof one, &one) == 0)
        fprintf(stderr, "  (%s: the baseline of a thread-scaling group, on cpu%d, the fastest now)\n",
                w->name, cpu[best]);
}

/* A child's start: the alarm, setup, then the checked warm-up (its time and
 * the first CPU sample in *cpu0). Returns the state, or NULL with r->status
 * RES_SETUP or RES_CHECK (after a failed check the state is torn down). */
static void *child_start(const bench_workload *w, const config *cf, result *r, double *cpu0)
{
    if (cf->timeout > 0)
        alarm((unsigned)(cf->timeout + 0.999));
    pin_if_scaling(w);
    void *st = w->setup ? w->setup(w->arg) : (void *)1;
    if (!st) {
        r->status = RES_SETUP;
        return NULL;
    }
    r->setup_mib = status_mib("VmRSS:");
    reset_peak();
    double t0 = bench_now(), c0 = cpu_now();
    int ok = w->run(st, 1) == 0;
    r->warmup = bench_now() - t0;
    *cpu0 = cpu_now() - c0;
    if (!ok) {
        r->status = RES_CHECK;
        r->peak_mib = status_mib("VmHWM:");
        if (w->teardown)
            w->teardown(st);
        return NULL;
    }
    r->status = RES_OK;
    return st;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The child: child_start, then as many timed runs as the workload asks for
 * and the time budget allows (at least one, except that --quick lets a
 * warm-up longer than the budget stand as the only sample). */
static void run_child(const bench_workload *w, int reps, const config *cf, int fd)
{
    result r = {0};
    double t[MAX_REPS], ct[MAX_REPS];
    void *st = child_start(w, cf, &r, &ct[0]);
    if (!st)
        goto out;
    int ok = 1;
    if (cf->max_time > 0 && r.warmup > 0) {
        double fit = cf->max_time / r.warmup;
        if (fit < reps)
            reps = fit < 1 ? (cf->quick ? 0 : 1) : (int)fit;
    }
    /* The warm-up's own answer check (a whole-board copy, say) is not the
     * workload's memory: measure the peak over the timed runs only. */
    if (reps > 0)
        reset_peak();
    for (int i = 0; ok && i < reps; i++) {
        double t0 = bench_now(), c0 = cpu_now();
        ok = w->run(st, 0) == 0;
        t[i] = bench_now() - t0;
        ct[i] = cpu_now() - c0;
    }
    if (!ok) {
        r.status = RES_FAILED;
        goto done;
    }
    if (reps == 0) {
        t[0] = r.warmup;
        r.reps = 0;
        reps = 1;
    } else {
        r.reps = reps;
    }
    r.cpu_median = median_of(ct, reps);
    r.median = median_of(t, reps); /* (sorts t) */
    r.min = t[0];
    r.max = t[reps - 1];
    r.status = RES_OK;
done:
    r.peak_mib = status_mib("VmHWM:");
    if (w->teardown)
        w->teardown(st);
out:
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(2);
    _exit(0);
}

/* Why a child that sent no report stopped (ws: its wait status). */
static void child_why(int ws, const config *cf, char *why, size_t len)
{
    if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGALRM)
        snprintf(why, len, "TIMEOUT after %.0f s", cf->timeout);
    else if (WIFSIGNALED(ws))
        snprintf(why, len, "FAILED: killed by signal %d (%s)", WTERMSIG(ws),
                 strsignal(WTERMSIG(ws)));
}

/* The message of a report's status (RES_OK: none). */
static void status_why(int status, char *why, size_t len)
{
    if (status == RES_SETUP)
        snprintf(why, len, "FAILED: setup returned NULL");
    else if (status == RES_CHECK)
        snprintf(why, len, "FAILED: the checked warm-up run failed");
    else if (status != RES_OK)
        snprintf(why, len, "FAILED: a timed run failed");
}

/* Runs one workload in a child; *why receives a reason when it failed. */
static result run_forked(const bench_workload *w, int reps, const config *cf, char *why,
                         size_t whylen)
{
    result r = {0};
    int p[2];
    snprintf(why, whylen, "FAILED");
    if (pipe(p) != 0)
        return r;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        run_child(w, reps, cf, p[1]);
    }
    close(p[1]);
    if (pid > 0) {
        int ws = 0;
        int got = read(p[0], &r, sizeof r) == (ssize_t)sizeof r;
        waitpid(pid, &ws, 0);
        if (!got) {
            r.status = RES_FAILED;
            child_why(ws, cf, why, whylen);
        } else {
            status_why(r.status, why, whylen);
        }
    }
    close(p[0]);
    return r;
}

/* ---- --interleave: a group's workloads take turns ----------------------- */

/* On a shared machine the load moves within seconds, so two workloads timed
 * one after the other can see different machines. With --interleave every
 * workload of a group gets its own process, set up and warmed up one at a
 * time (each then waits, idle, on its command pipe); then the parent runs
 * rounds: in each round every workload makes one timed run, in an order
 * rotated from round to round. A workload's ratio is then the median over
 * the rounds of its time over its baseline's time in the same round. */

typedef struct {
    double wall, cpu;
    int ok;
} lap;

/* The child of one workload: setup and checked warm-up (reported as a
 * result), then one timed run per 'r' byte on cmd (each reported as a lap),
 * until cmd closes; then the peak over the timed runs, as a second result. */
static void run_child_turns(const bench_workload *w, const config *cf, int cmd, int out)
{
    result r = {0};
    double c0;
    void *st = child_start(w, cf, &r, &c0);
    if (write(out, &r, sizeof r) != (ssize_t)sizeof r || !st)
        _exit(2);
    alarm(0);
    reset_peak();
    char c;
    while (read(cmd, &c, 1) == 1) {
        if (cf->timeout > 0)
            alarm((unsigned)(cf->timeout + 0.999));
        lap l;
        c0 = cpu_now();
        double t0 = bench_now();
        l.ok = w->run(st, 0) == 0;
        l.wall = bench_now() - t0;
        l.cpu = cpu_now() - c0;
        alarm(0);
        if (write(out, &l, sizeof l) != (ssize_t)sizeof l || !l.ok)
            _exit(2);
    }
    r.peak_mib = status_mib("VmHWM:");
    if (w->teardown)
        w->teardown(st);
    if (write(out, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(2);
    _exit(0);
}

/* Reap a child that stopped without its report; the reason goes to why. */
static void reap_why(pid_t pid, const config *cf, char *why, size_t len)
{
    int ws = 0;
    waitpid(pid, &ws, 0);
    snprintf(why, len, "FAILED: a timed run failed");
    child_why(ws, cf, why, len);
}

/* The workloads ix[0 .. k) of one group, in turns. res, why, ratio and
 * cratio are indexed by workload; ratios are set for members whose baseline
 * is a member too. */
static void run_group_turns(const size_t *ix, size_t k, int reps, const config *cf,
                            result *res, char (*why)[128], double *ratio, double *cratio)
{
    enum { MAXK = 16 };
    pid_t pid[MAXK];
    int cmd[MAXK], out[MAXK], live[MAXK];
    lap laps[MAXK][MAX_REPS];
    int nrep[MAXK]; /* each member's timed runs: its own warm-up against --max-time */
    if (k > MAXK)
        k = MAXK;
    for (size_t j = 0; j < k; j++) {
        int pc[2], po[2];
        live[j] = 0;
        snprintf(why[ix[j]], sizeof why[0], "FAILED");
        if (pipe(pc) != 0)
            continue;
        if (pipe(po) != 0) {
            close(pc[0]);
            close(pc[1]);
            continue;
        }
        fflush(NULL);
        pid[j] = fork();
        if (pid[j] == 0) {
            close(pc[1]);
            close(po[0]);
            for (size_t i = 0; i < j; i++)
                if (live[i]) {
                    close(cmd[i]);
                    close(out[i]);
                }
            run_child_turns(all[ix[j]], cf, pc[0], po[1]);
        }
        close(pc[0]);
        close(po[1]);
        cmd[j] = pc[1];
        out[j] = po[0];
        result *r = &res[ix[j]];
        if (pid[j] < 0 || read(out[j], r, sizeof *r) != (ssize_t)sizeof *r) {
            r->status = RES_FAILED;
            if (pid[j] > 0)
                reap_why(pid[j], cf, why[ix[j]], sizeof why[0]);
            close(cmd[j]);
            close(out[j]);
            continue;
        }
        if (r->status != RES_OK) {
            status_why(r->status, why[ix[j]], sizeof why[0]);
            waitpid(pid[j], NULL, 0);
            close(cmd[j]);
            close(out[j]);
            continue;
        }
        live[j] = 1;
        nrep[j] = reps;
        if (cf->max_time > 0 && r->warmup > 0 && cf->max_time / r->warmup < reps)
            nrep[j] = cf->max_time / r->warmup < 1 ? 1 : (int)(cf->max_time / r->warmup);
    }
    for (int i = 0; i < reps; i++) {
        for (size_t q = 0; q < k; q++) {
            size_t j = (q + (size_t)i) % k;
            if (!live[j] || i >= nrep[j])
                continue;
            char c = 'r';
            lap *l = &laps[j][i];
            if (write(cmd[j], &c, 1) != 1 || read(out[j], l, sizeof *l) != (ssize_t)sizeof *l
                || !l->ok) {
                live[j] = 0;
                res[ix[j]].status = RES_FAILED;
                close(cmd[j]);
                close(out[j]);
                reap_why(pid[j], cf, why[ix[j]], sizeof why[0]);
            }
        }
    }
    for (size_t j = 0; j < k; j++) {
        if (!live[j])
            continue;
        result *r = &res[ix[j]];
        close(cmd[j]);
        result fin;
        if (read(out[j], &fin, sizeof fin) != (ssize_t)sizeof fin) {
            r->status = RES_FAILED;
            close(out[j]);
            reap_why(pid[j], cf, why[ix[j]], sizeof why[0]);
            live[j] = 0;
            continue;
        }
        close(out[j]);
        waitpid(pid[j], NULL, 0);
        double t[MAX_REPS], ct[MAX_REPS];
        int done = nrep[j];
        for (int i = 0; i < done; i++) {
            t[i] = laps[j][i].wall;
            ct[i] = laps[j][i].cpu;
        }
        r->reps = done;
        r->peak_mib = fin.peak_mib;
        r->cpu_median = median_of(ct, done);
        r->median = median_of(t, done);
        r->min = t[0];
        r->max = t[done - 1];
    }
    /* Paired ratios: each round's time over the baseline's in that round. */
    for (size_t j = 0; j < k; j++) {
        const bench_workload *w = all[ix[j]];
        if (!live[j] || !w->baseline)
            continue;
        for (size_t b = 0; b < k; b++) {
            if (!live[b] || strcmp(all[ix[b]]->impl, w->baseline))
                continue;
            double rw[MAX_REPS], rc[MAX_REPS];
            int n = 0;
            for (int i = 0; i < nrep[j] && i < nrep[b]; i++)
                if (laps[b][i].wall > 0 && laps[b][i].cpu > 0) {
                    rw[n] = laps[j][i].wall / laps[b][i].wall;
                    rc[n++] = laps[j][i].cpu / laps[b][i].cpu;
                }
            if (n) {
                ratio[ix[j]] = median_of(rw, n);
                cratio[ix[j]] = median_of(rc, n);
            }
        }
    }
}

/* ---- the machine, for the JSON and the header line ---------------------- */

typedef struct {
    char cpu[128];
    long nproc;
    double mem_gib;
    char kernel[200];
    double load[3];
    char cpus[128];    /* the CPUs the workloads may run on, e.g. "0-1" */
    int pinned;        /* 1: --cpus chose them */
    int nspeed;        /* CPUs probed (the first MAX_PROBE of cpus) */
    int speed_cpu[MAX_PROBE]; /* which CPU */
    double speed[MAX_PROBE];  /* its vector probe's time over the fastest one's */
} machine;

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        s[--n] = 0;
}

static void machine_read(machine *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->cpu, sizeof m->cpu, "unknown");
    m->nproc = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    if (f) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
                snprintf(m->cpu, sizeof m->cpu, "%s", strchr(line, ':') + 2);
                trim(m->cpu);
                break;
            }
        fclose(f);
    }
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && psize > 0)
        m->mem_gib = (double)pages * (double)psize / (1024.0 * 1024.0 * 1024.0);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(m->kernel, sizeof m->kernel, "%s %s %s", u.sysname, u.release, u.machine);
    if (getloadavg(m->load, 3) != 3)
        m->load[0] = m->load[1] = m->load[2] = -1;
}

/* The probe on each allowed CPU, as a time relative to the fastest. A few
 * ms per CPU. */
static void probe_cpus(machine *m, const cpu_set_t *allowed)
{
    double t[MAX_PROBE], best = 0;
    int n = probe_each(allowed, m->speed_cpu, t);
    for (int i = 0; i < n; i++)
        if (best == 0 || t[i] < best)
            best = t[i];
    m->nspeed = n;
    for (int i = 0; i < n; i++)
        m->speed[i] = t[i] / best;
}

/* JSON string: the texts here are ours or the machine's; escape what JSON needs. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* ---- main ------------------------------------------------------------------ */

static void usage(void)
{
    printf("usage: toggle-bench [options]\n"
           "  Runs the named workloads, each in its own process: setup (untimed), one\n"
           "  warm-up run that also checks the answer, then the timed runs. Prints the\n"
           "  median/min/max seconds, the peak memory during the runs and the ratio of\n"
           "  each median to the median of its group's baseline (same run).\n"
           "\n"
           "  --quick           only the workloads marked quick, at most 3 reps each\n"
           "                    (a smoke test; meson test runs it)\n"
           "  --filter TEXT     only workloads whose name contains TEXT (repeatable: any)\n"
           "  --reps N          timed runs per workload (default: the workload's, else 5)\n"
           "  --max-time S      time budget per workload for its timed runs: fewer reps\n"
           "                    when the warm-up shows they would not fit (default 30,\n"
           "                    quick 0.5; with --quick a slow warm-up is the only sample)\n"
           "  --timeout S       kill a workload after S seconds (default none, quick 30)\n"
           "  --deadline S      start no workload after S seconds, report the rest as\n"
           "                    skipped (default none, quick 40)\n"
           "  --interleave      a group's workloads take turns: one timed run each per\n"
           "                    round, the order rotated each round; ratios are the\n"
           "                    median over rounds of the row's time over its baseline's\n"
           "                    in the same round (for a machine whose load moves)\n"
           "  --cpus LIST       run every workload on these CPUs only, e.g. 1 or 0,2-3\n"
           "                    (one-thread ratios on a machine whose CPUs differ; the\n"
           "                    header line shows each allowed CPU's speed)\n"
           "  --json FILE       also write every result and the machine as JSON\n"
           "  --list            list the selected workloads and exit\n"
           "  -h, --help        this help\n");
}

static int selected(const bench_workload *w, int quick, const char **filters, int nf)
{
    if (quick && !w->quick)
        return 0;
    if (nf == 0)
        return 1;
    for (int i = 0; i < nf; i++)
        if (strstr(w->name, filters[i]))
            return 1;
    return 0;
}

/* The timed runs a workload asks for under cf. */
static int workload_reps(const bench_workload *w, const config *cf)
{
    int reps = cf->reps > 0 ? cf->reps : (w->reps > 0 ? w->reps : 5);
    if (cf->quick && reps > 3)
        reps = 3;
    return reps > MAX_REPS ? MAX_REPS : reps;
}

static int parse_seconds(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || v < 0)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    config cf = {0, 0, -1, -1, -1, 0};
    int list = 0;
    const char *json = NULL;
    const char *filters[32];
    int nf = 0;
    const char *cpus = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--quick"))
            cf.quick = 1;
        else if (!strcmp(a, "--interleave"))
            cf.interleave = 1;
        else if (!strcmp(a, "--list"))
            list = 1;
        else if (!strcmp(a, "--filter") && has && nf < 32)
            filters[nf++] = argv[++i];
        else if (!strcmp(a, "--reps") && has)
            cf.reps = atoi(argv[++i]);
        else if (!strcmp(a, "--cpus") && has)
            cpus = argv[++i];
        else if (!strcmp(a, "--json") && has)
            json = argv[++i];
        else if (!strcmp(a, "--max-time") && has && !parse_seconds(argv[i + 1], &cf.max_time))
            i++;
        else if (!strcmp(a, "--timeout") && has && !parse_seconds(argv[i + 1], &cf.timeout))
            i++;
        else if (!strcmp(a, "--deadline") && has && !parse_seconds(argv[i + 1], &cf.deadline))
            i++;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            return 0;
        } else {
            fprintf(stderr, "toggle-bench: bad argument '%s' (see --help)\n", a);
            return 2;
        }
    }
    if (cf.reps < 0 || cf.reps > MAX_REPS) {
        fprintf(stderr, "toggle-bench: --reps must be 1..%d\n", MAX_REPS);
        return 2;
    }
    if (cf.max_time < 0)
        cf.max_time = cf.quick ? 0.5 : 30;
    if (cf.timeout < 0)
        cf.timeout = cf.quick ? 30 : 0;
    if (cf.deadline < 0)
        cf.deadline = cf.quick ? 40 : 0;

    void (*regs[])(void) = {bench_register_core, bench_register_io,   bench_register_gf2,
                            bench_register_grid, bench_register_space, bench_register_render};
    for (size_t i = 0; i < sizeof regs / sizeof *regs; i++)
        if (regs[i])
            regs[i]();
    if (dropped)
        fprintf(stderr, "toggle-bench: %zu workloads over the limit of %d were dropped\n",
                dropped, MAX_WORKLOADS);

    result *res = calloc(nall ? nall : 1, sizeof *res);
    int *sel = calloc(nall ? nall : 1, sizeof *sel);   /* 1 selected, 2 skipped */
    double *ratio = calloc(nall ? nall : 1, sizeof *ratio);
    double *cratio = calloc(nall ? nall : 1, sizeof *cratio);
    if (!res || !sel || !ratio || !cratio) {
        fprintf(stderr, "toggle-bench: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nall; i++)
        sel[i] = selected(all[i], cf.quick, filters, nf);
    if (list) {
        for (size_t i = 0; i < nall; i++)
            if (sel[i])
                printf("%s\n", all[i]->name);
        return 0;
    }
    machine mc;
    machine_read(&mc);
    cpu_set_t allowed;
    if (cpus) {
        if (parse_cpus(cpus, &allowed)) {
            fprintf(stderr, "toggle-bench: --cpus wants a list such as 1 or 0,2-3, not '%s'\n",
                    cpus);
            return 2;
        }
        if (sched_setaffinity(0, sizeof allowed, &allowed)) {
            fprintf(stderr, "toggle-bench: cannot run on CPUs %s (not online or not allowed here)\n", cpus);
            return 2;
        }
        mc.pinned = 1;
    }
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
        format_cpus(&allowed, mc.cpus, sizeof mc.cpus);
        if (!cf.quick)
            probe_cpus(&mc, &allowed);
    }
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("# toggle-bench, libtoggle %s, %s%s\n", toggle_version_string(), date,
           cf.quick ? " (quick)" : "");
    printf("# %s, %ld CPUs, %.1f GiB, load %.2f %.2f %.2f, gcc %s\n", mc.cpu, mc.nproc,
           mc.mem_gib, mc.load[0], mc.load[1], mc.load[2], __VERSION__);
    if (mc.cpus[0]) {
        printf("# cpus %s (%s)", mc.cpus, mc.pinned ? "--cpus" : "all allowed");
        if (mc.nspeed)
            printf(", vector probe time / the fastest's:");
        for (int k = 0; k < mc.nspeed; k++)
            printf(" cpu%d %.2f", mc.speed_cpu[k], mc.speed[k]);
        printf("\n");
    }
    int failed = 0, skipped = 0, ran = 0;
    char (*why)[128] = calloc(nall ? nall : 1, sizeof *why);
    char *turned = calloc(nall ? nall : 1, 1); /* --interleave: already run with its group */
    if (!why || !turned)
        return 1;
    double start = bench_now();
    /* Progress on stderr as each workload finishes; the table comes at the
     * end, when every baseline is known. */
    for (size_t i = 0; i < nall; i++) {
        if (!sel[i])
            continue;
        const bench_workload *w = all[i];
        if (cf.deadline > 0 && bench_now() - start > cf.deadline) {
            sel[i] = 2;
            skipped++;
            snprintf(why[i], sizeof why[i], "SKIPPED (past the %.0f s deadline)", cf.deadline);
            continue;
        }
        int reps = workload_reps(w, &cf);
        if (cf.interleave) {
            if (turned[i])
                continue;
            size_t ix[16], k = 0;
            for (size_t j = i; j < nall && k < 16; j++)
                if (sel[j] == 1 && !turned[j] && !strcmp(all[j]->group, w->group)) {
                    ix[k++] = j;
                    turned[j] = 1;
                    if (workload_reps(all[j], &cf) > reps)
                        reps = workload_reps(all[j], &cf);
                }
            run_group_turns(ix, k, reps, &cf, res, why, ratio, cratio);
            for (size_t q = 0; q < k; q++) {
                ran++;
                if (res[ix[q]].status != RES_OK)
                    failed++;
                fprintf(stderr, "  [%6.1f s] %-50s %s\n", bench_now() - start, all[ix[q]]->name,
                        res[ix[q]].status == RES_OK ? "" : why[ix[q]]);
            }
            continue;
        }
        res[i] = run_forked(w, reps, &cf, why[i], sizeof why[i]);
        ran++;
        if (res[i].status != RES_OK)
            failed++;
        fprintf(stderr, "  [%6.1f s] %-50s %s\n", bench_now() - start, w->name,
                res[i].status == RES_OK ? "" : why[i]);
    }
    for (size_t i = 0; i < nall && !cf.interleave; i++) {
        const bench_workload *w = all[i];
        if (sel[i] != 1 || res[i].status != RES_OK || !w->baseline)
            continue;
        for (size_t j = 0; j < nall; j++)
            if (sel[j] == 1 && res[j].status == RES_OK && !strcmp(all[j]->group, w->group)
                && !strcmp(all[j]->impl, w->baseline) && res[j].median > 0) {
                ratio[i] = res[i].median / res[j].median;
                if (res[j].cpu_median > 0)
                    cratio[i] = res[i].cpu_median / res[j].cpu_median;
            }
    }
    printf("%-40s %-16s %10s %10s %10s %4s %9s %9s %10s %9s\n", "group", "impl", "median_s",
           "min_s", "max_s", "reps", "peak_MiB", "ratio", "cpu_s", "cpu_ratio");
    for (size_t i = 0; i < nall; i++) {
        const bench_workload *w = all[i];
        if (!sel[i])
            continue;
        if (sel[i] == 2 || res[i].status != RES_OK) {
            printf("%-40s %-16s %s\n", w->group, w->impl, why[i]);
            continue;
        }
        printf("%-40s %-16s %10.6f %10.6f %10.6f %4d %9.1f ", w->group, w->impl, res[i].median,
               res[i].min, res[i].max, res[i].reps, res[i].peak_mib);
        if (ratio[i] > 0)
            printf("%8.3gx", ratio[i]);
        else
            printf("%9s", "-");
        printf(" %10.6f ", res[i].cpu_median);
        if (cratio[i] > 0)
            printf("%8.3gx\n", cratio[i]);
        else
            printf("%9s\n", "-");
    }
    /* The second references (bench_compare): IMPL / REF per group where both ran. */
    for (size_t c = 0; c < ncmp; c++)
        for (size_t i = 0; i < nall; i++) {
            if (sel[i] != 1 || res[i].status != RES_OK || strcmp(all[i]->impl, cmp_impl[c]))
                continue;
            for (size_t j = 0; j < nall; j++)
                if (sel[j] == 1 && res[j].status == RES_OK && res[j].median > 0
                    && !strcmp(all[j]->group, all[i]->group) && !strcmp(all[j]->impl, cmp_ref[c]))
                    printf("%-40s %-16s / %-12s wall %8.3gx  cpu %8.3gx\n", all[i]->group,
                           cmp_impl[c], cmp_ref[c], res[i].median / res[j].median,
                           res[j].cpu_median > 0 ? res[i].cpu_median / res[j].cpu_median : 0.0);
        }
    if (cf.interleave)
        printf("# interleaved: ratio, cpu_ratio: the median over rounds of this row's time /"
               " its baseline's in the same round (wall, process CPU)\n");
    else
        printf("# ratio: this median / the median of the group's baseline impl (%s);"
               " cpu_s, cpu_ratio: the same for process CPU time;"
               " reps 0: the warm-up was the only sample\n",
               "toggle rows against the reference they are measured with");
    double elapsed = bench_now() - start;
    machine end;
    machine_read(&end);
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "toggle-bench: cannot write %s\n", json);
            return 1;
        }
        fprintf(f, "{\"version\": \"%s\", \"date\": \"%s\", \"quick\": %s, \"elapsed_s\": %.1f,\n",
                toggle_version_string(), date, cf.quick ? "true" : "false", elapsed);
        fprintf(f, " \"machine\": {\"cpu\": ");
        json_str(f, mc.cpu);
        fprintf(f, ", \"nproc\": %ld, \"mem_gib\": %.2f, \"kernel\": ", mc.nproc, mc.mem_gib);
        json_str(f, mc.kernel);
        fprintf(f, ", \"compiler\": ");
        json_str(f, "gcc " __VERSION__);
        fprintf(f, ", \"cpus\": ");
        json_str(f, mc.cpus);
        fprintf(f, ", \"pinned\": %s, \"cpu_speed\": {", mc.pinned ? "true" : "false");
        for (int k = 0; k < mc.nspeed; k++)
            fprintf(f, "%s\"%d\": %.3f", k ? ", " : "", mc.speed_cpu[k], mc.speed[k]);
        fprintf(f, "}");
        fprintf(f, ",\n  \"load_start\": [%.2f, %.2f, %.2f], \"load_end\": [%.2f, %.2f, %.2f],"
                   " \"m4ri\": %s},\n \"results\": [\n",
                mc.load[0], mc.load[1], mc.load[2], end.load[0], end.load[1], end.load[2],
#ifdef HAVE_M4RI
                "true"
#else
                "false"
#endif
        );
        int first = 1;
        for (size_t i = 0; i < nall; i++) {
            if (sel[i] != 1)
                continue;
            const bench_workload *w = all[i];
            fprintf(f, "%s  {\"name\": ", first ? "" : ",\n");
            json_str(f, w->name);
            fprintf(f, ", \"group\": ");
            json_str(f, w->group);
            fprintf(f, ", \"impl\": ");
            json_str(f, w->impl);
            fprintf(f, ", \"baseline\": ");
            if (w->baseline)
                json_str(f, w->baseline);
            else
                fputs("null", f);
            fprintf(f, ", \"ok\": %s, \"reps\": %d, \"warmup_s\": %.9f, \"median_s\": %.9f, "
                       "\"min_s\": %.9f, \"max_s\": %.9f, \"cpu_median_s\": %.9f, \"peak_mib\": %.2f, "
                       "\"setup_mib\": %.2f, \"ratio\": ",
                    res[i].status == RES_OK ? "true" : "false", res[i].reps, res[i].warmup,
                    res[i].median, res[i].min, res[i].max, res[i].cpu_median, res[i].peak_mib,
                    res[i].setup_mib);
            if (ratio[i] > 0)
                fprintf(f, "%.6f}", ratio[i]);
            else
                fputs("null}", f);
            first = 0;
        }
        fprintf(f, "\n]}\n");
        fclose(f);
    }
    printf("# %d run, %d failed, %d skipped, %.1f s, load at the end %.2f %.2f %.2f\n", ran,
           failed, skipped, elapsed, end.load[0], end.load[1], end.load[2]);
    free(res);
    free(sel);
    free(ratio);
    free(cratio);
    free(why);
    free(turned);
    return failed ? 1 : 0;
}
