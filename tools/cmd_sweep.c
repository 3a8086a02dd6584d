/* toggle sweep: solve the all-off to all-on game for every n x n board and
 * prime p, draw each solution under several colour maps, and write a manifest
 * (sweep_manifest.c) and a static HTML gallery (sweep_gallery.c). Same
 * command, same bytes: rows are in (n, p) order and nothing depends on time or
 * thread scheduling. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "path.h"
#include "pool.h"
#include "progress.h"
#include "sweep_gallery.h"
#include "web_site.h"
#include "sweep_manifest.h"
#include "sweep_row.h"

static const char sweep_usage[] =
    "usage: toggle sweep --out DIR [options]\n"
    "\n"
    "For every n x n board and prime p: the nullity, whether the all-off to\n"
    "all-on game is solvable, the canonical solution, its symmetry, and one\n"
    "picture per colour map. Writes DIR/manifest.csv, DIR/manifest.jsonl,\n"
    "DIR/img/<colormap>/n<n>-p<p>.png and the gallery DIR/index.html.\n"
    "\n"
    "  --sizes LIST       board sizes, e.g. 1..70 or 3,5,9..12 (default 1..70)\n"
    "  --primes LIST      primes, e.g. 2..67 (the primes in each range; default 2..67)\n"
    "  --out DIR          output directory (created)\n"
    "  --colormaps LIST   comma-separated colour maps (NAME_r reverses; 'all' = every\n"
    "                     map); default viridis,magma,inferno,plasma,cividis,twilight,\n"
    "                     turbo,greys\n"
    "  --threads T        worker threads (default: the number of CPUs)\n"
    "  --shard I/K        do only part I of K (0 <= I < K): boards number t = 0, 1, ...\n"
    "                     in (n, p) order and part I takes those with t mod K = I\n"
    "  --no-render        no pictures (manifest without image columns, gallery)\n"
    "  --cell N           pixels per cell (default: 600 / n, at least 1)\n"
    "  --format F         png (default) or ppm\n"
    "  --site             also the game (play.html) and libtoggle.js: what toggle web does\n"
    "  --json             print a summary as one JSON object (docs/json.md)\n"
    "  --progress         the progress bar even when stderr is not a terminal\n"
    "  --no-progress      no progress bar (the default off a terminal)\n"
    "  --resume           keep the boards of DIR's manifest whose pictures are all\n"
    "                     there; do only the others\n"
    "  --force            write into a DIR that is not empty although toggle sweep\n"
    "                     did not make it (it is refused otherwise)\n"
    "  -h, --help         this help\n"
    "\n"
    "Parts made with --shard are joined by toggle sweep-merge (see its --help).\n"
    "Every file is written whole (to a temporary name, then renamed). Ctrl-C\n"
    "stops at the boards under way and writes the manifest and gallery of the\n"
    "boards done (exit status 130); --resume goes on from there.\n";

/* The marker of a folder toggle sweep made (what --force is needed without). */
#define SWEEP_MARKER ".toggle-sweep"

/* Set by SIGINT: boards not started yet are left (pending). */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
    signal(SIGINT, SIG_DFL); /* a second Ctrl-C stops at once */
}

static const char default_maps[] = "viridis,magma,inferno,plasma,cividis,twilight,turbo,greys";

/* ---- lists ------------------------------------------------------------- */

static int is_prime(uint64_t p)
{
    if (p < 2)
        return 0;
    for (uint64_t d = 2; d * d <= p; d++)
        if (p % d == 0)
            return 0;
    return 1;
}

/* Parse "a..b,c,d..e" into ascending unique values (primes only if want_prime):
 * 0, -1 (a bad list) or -2 (out of memory). */
static int parse_list(const char *s, int want_prime, uint64_t **out, size_t *count)
{
    char *copy = strdup(s), *save = NULL;
    uint8_t *seen = calloc(100001, 1);
    int oom = !copy || !seen, bad = oom;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !bad;
         tok = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(tok, "..");
        uint64_t a, b;
        if (dots) {
            *dots = 0;
            bad = cli_parse_u64(tok, &a) || cli_parse_u64(dots + 2, &b);
        } else {
            bad = cli_parse_u64(tok, &a);
            b = a;
            if (!bad && want_prime && !is_prime(a))
                bad = 1;
        }
        if (bad || a > b || b > 100000 || a == 0)
            bad = 1;
        for (uint64_t v = a; !bad && v <= b; v++)
            if (!want_prime || is_prime(v))
                seen[v] = 1;
    }
    size_t n = 0;
    uint64_t *v = NULL;
    if (!bad) {
        for (size_t i = 0; i <= 100000; i++)
            n += seen[i];
        v = malloc((n ? n : 1) * sizeof *v);
        oom = !v;
        bad = oom || n == 0;
        for (size_t i = 0, j = 0; !bad && i <= 100000; i++)
            if (seen[i])
                v[j++] = i;
    }
    free(copy);
    free(seen);
    if (bad) {
        free(v);
        return oom ? -2 : -1;
    }
    *out = v;
    *count = n;
    return 0;
}

/* "I/K" with 0 <= I < K. */
static int parse_shard(const char *s, uint64_t *i, uint64_t *k)
{
    char tmp[64];
    const char *slash = strchr(s, '/');
    size_t l = slash ? (size_t)(slash - s) : 0;
    if (!slash || l == 0 || l >= sizeof tmp)
        return -1;
    memcpy(tmp, s, l);
    tmp[l] = 0;
    return cli_parse_u64(tmp, i) || cli_parse_u64(slash + 1, k) || *k == 0 || *i >= *k ? -1 : 0;
}

/* The colour maps to draw: ids, reversal and names ("magma_r"). */
typedef struct {
    int n, *id, *rev;
    char **name;
} map_list;

static void maps_free(map_list *ml)
{
    for (int m = 0; m < ml->n; m++)
        free(ml->name[m]);
    free(ml->name);
    free(ml->id);
    free(ml->rev);
}

/* Add one map unless it is listed already; 0 or -1 (out of memory). */
static int maps_add(map_list *ml, size_t cap, int id, int rev)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s", toggle_colormap_name(id), rev ? "_r" : "");
    for (int m = 0; m < ml->n; m++)
        if (!strcmp(ml->name[m], name))
            return 0;
    if ((size_t)ml->n >= cap)
        return 0;
    if (!(ml->name[ml->n] = strdup(name)))
        return -1;
    ml->id[ml->n] = id;
    ml->rev[ml->n++] = rev;
    return 0;
}

/* Parse "viridis,magma_r,all"; prints the reason and returns 1 when it fails. */
static int parse_maps(const char *list, map_list *ml)
{
    size_t cap = toggle_colormap_count() * 2 + 1;
    char *copy = strdup(list), *save = NULL;
    ml->id = calloc(cap, sizeof *ml->id);
    ml->rev = calloc(cap, sizeof *ml->rev);
    ml->name = calloc(cap, sizeof *ml->name);
    int rc = !copy || !ml->id || !ml->rev || !ml->name ? cli_nomem("sweep") : 0;
    for (char *t = rc ? NULL : strtok_r(copy, ",", &save); t && !rc;
         t = strtok_r(NULL, ",", &save)) {
        int id, rev;
        if (!strcmp(t, "all")) {
            for (size_t i = 0; !rc && i < toggle_colormap_count(); i++)
                rc = maps_add(ml, cap, (int)i, 0);
        } else if (toggle_colormap_from_name(t, &id, &rev)) {
            /* t points into copy: report before it is freed */
            rc = cli_usage("sweep", "unknown colour map '%s' (toggle render --colormap list "
                          "shows them)", t);
            break;
        } else {
            rc = maps_add(ml, cap, id, rev);
        }
        if (rc < 0)
            rc = cli_nomem("sweep");
    }
    free(copy);
    return rc;
}

/* ---- the boards --------------------------------------------------------- */

/* What each worker thread owns. */
typedef struct {
    toggle_render_opts *opts;
    char err[512]; /* why its board failed */
} sweep_worker;

typedef struct {
    sweep_rows rows; /* the boards of this shard, in (n, p) order */
    const char *dir;
    map_list maps;
    int render, format;
    size_t cell;
    sweep_worker *workers;
} sweep;

/* Say why board r failed, on its worker's thread (the library's last error is
 * per thread); returns rc. */
static int board_fail(sweep_worker *w, const char *doing, const sweep_row *r, const char *why,
                      int rc)
{
    snprintf(w->err, sizeof w->err, "%s %zux%zu mod %llu: %s (%s)", doing, r->n, r->n,
             (unsigned long long)r->p, why, toggle_status_name(rc));
    return rc;
}

/* Draw board r's solution x in every colour map. */
static int draw_board(const sweep *sw, sweep_worker *w, sweep_row *r, const uint64_t *x)
{
    size_t n = r->n, cell = sw->cell ? sw->cell : (600 / n ? 600 / n : 1);
    toggle_render_opts_set(w->opts, TOGGLE_RENDER_CELL_SIZE, cell > 4096 ? 4096 : cell);
    for (int m = 0; m < sw->maps.n; m++) {
        char rel[256];
        snprintf(rel, sizeof rel, "img/%s/n%zu-p%llu.%s", sw->maps.name[m], n,
                 (unsigned long long)r->p, sw->format == TOGGLE_IMAGE_PNG ? "png" : "ppm");
        char *path = path_join(sw->dir, rel);
        if (!path || sweep_row_add_image(r, sw->maps.name[m], rel)) {
            free(path);
            return board_fail(w, "listing", r, "out of memory", TOGGLE_ENOMEM);
        }
        toggle_render_opts_set(w->opts, TOGGLE_RENDER_COLORMAP, (uint64_t)sw->maps.id[m]);
        toggle_render_opts_set(w->opts, TOGGLE_RENDER_REVERSED, (uint64_t)sw->maps.rev[m]);
        /* drawn whole under a unique temporary, then renamed (path.h) */
        char *tmp = path_tmp_name(path);
        int rc = tmp ? toggle_render_file(w->opts, sw->format, x, n, n, r->p, tmp) : TOGGLE_EIO;
        const char *why = tmp ? NULL : strerror(errno);
        if (tmp && path_tmp_finish(tmp, path, !rc) && !rc) {
            rc = TOGGLE_EIO;
            why = strerror(errno);
        }
        free(path);
        if (rc)
            return board_fail(w, "drawing", r, why ? why : toggle_last_error(), rc);
    }
    return 0;
}

/* Read a solvable board's canonical solution: symmetry, presses, pictures. */
static int read_solution(const sweep *sw, sweep_worker *w, sweep_row *r,
                         const toggle_solution *sol)
{
    size_t N = r->n * r->n;
    uint64_t *x = malloc(N * sizeof *x);
    if (!x)
        return board_fail(w, "reading", r, "out of memory", TOGGLE_ENOMEM);
    int rc = toggle_solution_particular(sol, x, N);
    if (!rc)
        rc = toggle_board_symmetry(x, r->n, r->n, &r->sym);
    if (rc) {
        free(x);
        return board_fail(w, "reading", r, toggle_last_error(), rc);
    }
    for (size_t i = 0; i < N; i++)
        r->pressed += x[i] != 0;
    /* without rendering there are no pictures to list: the manifest has no
     * image columns and the gallery shows "not drawn" cards */
    rc = sw->render ? draw_board(sw, w, r, x) : 0;
    free(x);
    return rc;
}

/* The pool's job: solve (and draw) board `task` on worker `worker`. */
static int sweep_board(void *ctx, size_t worker, size_t task)
{
    const sweep *sw = ctx;
    sweep_worker *w = &sw->workers[worker];
    sweep_row *r = &sw->rows.v[task];
    if (!r->pending || interrupted)
        return 0; /* kept by --resume, or left after Ctrl-C (stays pending) */
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    int rc = toggle_graph_new_grid(&g, r->n, r->n, 0);
    if (!rc)
        rc = toggle_system_new(&s, g, r->p, NULL, NULL);
    if (!rc)
        rc = toggle_solve(&sol, s);
    if (rc) {
        board_fail(w, "solving", r, toggle_last_error(), rc);
    } else {
        r->nullity = toggle_solution_nullity(sol);
        r->solvable = toggle_solution_is_solvable(sol) == 1;
        rc = toggle_solution_count_string(sol, r->solutions, sizeof r->solutions, NULL);
        if (rc == TOGGLE_EBUFSIZE) { /* longer than the manifest's field */
            snprintf(r->solutions, sizeof r->solutions, "?");
            rc = TOGGLE_OK;
        } else if (rc) { /* out of memory: the board fails, not a "?" */
            board_fail(w, "counting", r, toggle_last_error(), rc);
        }
        if (!rc)
            rc = r->solvable ? read_solution(sw, w, r, sol) : 0;
    }
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    if (!rc)
        r->pending = 0; /* its pictures are all in place */
    return rc;
}

/* ---- the command -------------------------------------------------------- */

/* --json: what the sweep wrote (docs/json.md). */
static void sweep_json_summary(const char *out, const sweep_rows *rows, const cli_clock *clock)
{
    size_t solvable = 0, pictures = 0;
    for (size_t i = 0; i < rows->n; i++) {
        solvable += rows->v[i].solvable != 0;
        pictures += rows->v[i].nimg;
    }
    cli_json_begin(stdout, "sweep");
    fputs(",\"out\":", stdout);
    cli_json_string(stdout, out);
    printf(",\"board_count\":%zu,\"solvable_count\":%zu,\"picture_count\":%zu", rows->n,
           solvable, pictures);
    cli_json_timing(stdout, clock);
    puts("}");
}

/* --resume: take over the rows of DIR's manifest for boards whose every
 * picture (one per colour map drawn) is in place; those are not done again.
 * A missing manifest resumes nothing. 0, or 1 after printing why. */
static int resume_rows(sweep *sw)
{
    char *mp = path_join(sw->dir, "manifest.jsonl");
    int have = mp && path_nonempty_file(mp);
    free(mp);
    if (!have)
        return 0;
    sweep_rows old = {0};
    char err[256] = "";
    if (sweep_manifest_read(sw->dir, "", &old, err, sizeof err)) {
        sweep_rows_free(&old);
        return cli_fail("sweep", "--resume: %s", err);
    }
    int rc = 0;
    for (size_t i = 0; !rc && i < sw->rows.n; i++) {
        sweep_row *r = &sw->rows.v[i];
        const sweep_row *o = NULL;
        for (size_t j = 0; !o && j < old.n; j++)
            if (old.v[j].n == r->n && old.v[j].p == r->p)
                o = &old.v[j];
        if (!o)
            continue;
        int complete = 1;
        for (int m = 0; complete && sw->render && o->solvable && m < sw->maps.n; m++) {
            const char *rel = sweep_row_image(o, sw->maps.name[m]);
            char *full = *rel ? path_join(sw->dir, rel) : NULL;
            complete = full && path_nonempty_file(full);
            free(full);
        }
        if (!complete)
            continue;
        r->nullity = o->nullity;
        r->solvable = o->solvable;
        r->sym = o->sym;
        r->pressed = o->pressed;
        memcpy(r->solutions, o->solutions, sizeof r->solutions);
        for (int m = 0; !rc && sw->render && o->solvable && m < sw->maps.n; m++)
            if (sweep_row_add_image(r, sw->maps.name[m], sweep_row_image(o, sw->maps.name[m])))
                rc = cli_fail("sweep", "out of memory");
        r->pending = 0;
    }
    sweep_rows_free(&old);
    return rc;
}

/* --out: a folder toggle sweep made (its marker), an empty or new one, or,
 * with --force, any; then make it and mark it. 0, or 1 after printing why. */
static int claim_out(const char *dir, int force)
{
    int st = path_dir_state(dir, SWEEP_MARKER);
    if (st < 0)
        return cli_fail("sweep", "cannot read '%s': %s", dir, strerror(errno));
    if (st == 1 && !force)
        return cli_fail("sweep", "'%s' is not empty and toggle sweep did not make it (no "
                        SWEEP_MARKER " in it): choose another --out, or --force to write "
                        "into it", dir);
    if (path_mkdirs(dir))
        return cli_fail("sweep", "cannot create '%s': %s", dir, strerror(errno));
    char *mk = path_join(dir, SWEEP_MARKER);
    FILE *f = mk ? fopen(mk, "a") : NULL;
    free(mk);
    if (!f || fclose(f))
        return errno == ENOMEM ? cli_nomem("sweep: " SWEEP_MARKER)
                               : cli_fail("sweep", "cannot write '%s/" SWEEP_MARKER "': %s", dir,
                                          strerror(errno));
    return 0;
}

/* The boards t (in sizes x primes, (n, p) order) with t mod k = i. */
static int list_boards(sweep *sw, const uint64_t *sizes, size_t nsizes, const uint64_t *primes,
                       size_t nprimes, uint64_t i, uint64_t k)
{
    for (size_t t = 0; t < nsizes * nprimes; t++)
        if (t % k == i) {
            sweep_row *r = sweep_rows_push(&sw->rows);
            if (!r)
                return cli_nomem("sweep");
            r->n = (size_t)sizes[t / nprimes];
            r->p = primes[t % nprimes];
            r->pending = 1;
        }
    return 0;
}

/* DIR and DIR/img/<map> for each map drawn. */
static int make_dirs(const sweep *sw)
{
    if (path_mkdirs(sw->dir))
        return cli_fail("sweep", "cannot create '%s': %s", sw->dir, strerror(errno));
    for (int m = 0; sw->render && m < sw->maps.n; m++) {
        char rel[128];
        snprintf(rel, sizeof rel, "img/%s", sw->maps.name[m]);
        char *d = path_join(sw->dir, rel);
        if (!d)
            return cli_fail("sweep", "out of memory");
        int bad = path_mkdirs(d), e = errno;
        free(d);
        if (bad)
            return cli_fail("sweep", "cannot create the image folders under '%s': %s", sw->dir,
                            strerror(e));
    }
    return 0;
}

/* Do the boards on `threads` workers, with a progress bar on a terminal. */
static int run_boards(sweep *sw, size_t threads, int progress)
{
    if (threads > sw->rows.n)
        threads = sw->rows.n ? sw->rows.n : 1;
    sw->workers = calloc(threads, sizeof *sw->workers);
    int rc = sw->workers ? 0 : -1;
    for (size_t i = 0; !rc && i < threads; i++)
        rc = toggle_render_opts_new(&sw->workers[i].opts);
    if (rc)
        cli_nomem("sweep");
    int tty = progress == CLI_PROGRESS_AUTO ? isatty(2) : progress == CLI_PROGRESS_ON;
    progress_bar bar;
    progress_start(&bar, "boards");
    pool_spec spec = {.threads = threads, .tasks = sw->rows.n, .job = sweep_board, .ctx = sw,
                      .tick = tty ? progress_show : NULL, .tick_ctx = &bar};
    size_t failed = 0;
    if (!rc && pool_run(&spec, &failed)) {
        if (tty)
            fputc('\n', stderr);
        rc = cli_fail("sweep", "%s", sw->workers[failed].err);
    } else if (!rc && tty) {
        progress_finish(&bar, sw->rows.n);
    }
    for (size_t i = 0; sw->workers && i < threads; i++)
        toggle_render_opts_free(sw->workers[i].opts);
    free(sw->workers);
    sw->workers = NULL;
    return rc ? 1 : 0;
}

int cmd_sweep(int argc, char **argv)
{
    const char *sizes = "1..70", *primes = "2..67", *out = NULL, *maps = default_maps;
    const char *shard = NULL, *val;
    uint64_t threads = 0, cell = 0, si = 0, sk = 1;
    sweep sw = {.render = 1, .format = TOGGLE_IMAGE_PNG};
    int site = 0, json = 0, progress = CLI_PROGRESS_AUTO, force = 0, resume = 0;
    cli_clock clock;
    cli_clock_start(&clock);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(sweep_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--no-render")) {
            sw.render = 0;
        } else if (!strcmp(a, "--site")) {
            site = 1;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (cli_progress_opt(a, &progress)) {
            continue;
        } else if (!strcmp(a, "--force")) {
            force = 1;
        } else if (!strcmp(a, "--resume")) {
            resume = 1;
        } else if (cli_opt(argc, argv, &i, "--sizes", &val) && val) {
            sizes = val;
        } else if (cli_opt(argc, argv, &i, "--primes", &val) && val) {
            primes = val;
        } else if (cli_opt(argc, argv, &i, "--out", &val) && val) {
            out = val;
        } else if (cli_opt(argc, argv, &i, "--colormaps", &val) && val) {
            maps = val;
        } else if (cli_opt(argc, argv, &i, "--shard", &val) && val) {
            shard = val;
        } else if (cli_opt(argc, argv, &i, "--threads", &val) && val) {
            if (cli_parse_u64(val, &threads) || threads == 0 || threads > 256)
                return cli_usage("sweep", "--threads needs 1..256");
        } else if (cli_opt(argc, argv, &i, "--cell", &val) && val) {
            if (cli_parse_u64(val, &cell) || cell == 0 || cell > 4096)
                return cli_usage("sweep", "--cell needs 1..4096");
        } else if (cli_opt(argc, argv, &i, "--format", &val) && val) {
            if (!strcmp(val, "ppm"))
                sw.format = TOGGLE_IMAGE_PPM;
            else if (strcmp(val, "png"))
                return cli_usage("sweep", "--format needs png or ppm");
        } else {
            return cli_usage("sweep", "bad argument '%s' (see toggle sweep --help)", a);
        }
    }
    if (!out)
        return cli_usage("sweep", "--out DIR is required (see toggle sweep --help)");
    if (shard && parse_shard(shard, &si, &sk))
        return cli_usage("sweep", "--shard needs I/K with 0 <= I < K");
    uint64_t *sz = NULL, *pr = NULL;
    size_t nsz = 0, npr = 0;
    int lrc = parse_list(sizes, 0, &sz, &nsz);
    if (lrc)
        return lrc == -2 ? cli_nomem("sweep: --sizes")
                         : cli_usage("sweep", "bad --sizes '%s' (e.g. 1..70 or 3,5,8..10)", sizes);
    if ((lrc = parse_list(primes, 1, &pr, &npr))) {
        free(sz);
        return lrc == -2 ? cli_nomem("sweep: --primes")
                         : cli_usage("sweep", "bad --primes '%s' (primes or ranges, e.g. 2..67)",
                                     primes);
    }
    sw.dir = out;
    sw.cell = (size_t)cell;
    if (!threads) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (uint64_t)c : 1;
    }
    int status = parse_maps(maps, &sw.maps) || list_boards(&sw, sz, nsz, pr, npr, si, sk) ||
                 claim_out(out, force) || make_dirs(&sw) || (resume && resume_rows(&sw));
    size_t total = sw.rows.n;
    if (!status) {
        /* Ctrl-C: the boards under way finish, the others stay pending */
        interrupted = 0;
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old);
        int failed = run_boards(&sw, (size_t)threads, progress);
        sigaction(SIGINT, &old, NULL);
        /* the manifest and gallery list what finished (a failure or Ctrl-C
         * leaves the others out; --resume does them) */
        sweep_rows_drop_pending(&sw.rows);
        if (sweep_manifest_write(out, &sw.rows) || sweep_gallery_write(out, &sw.rows, site))
            status = cli_fail("sweep", "cannot write the manifest or gallery in '%s'", out);
        else if (interrupted) {
            cli_fail("sweep", "interrupted: %zu of %zu boards done, listed in "
                     "'%s/manifest.jsonl' (--resume does the rest)", sw.rows.n, total, out);
            status = CLI_EXIT_CANCELLED;
        }
        status = status ? status : failed;
    }
    if (!status && site && web_site_write(out))
        status = cli_fail("web", "cannot write play.html or libtoggle.js in '%s'", out);
    if (!status && json)
        sweep_json_summary(out, &sw.rows, &clock);
    sweep_rows_free(&sw.rows);
    maps_free(&sw.maps);
    free(sz);
    free(pr);
    return status;
}
