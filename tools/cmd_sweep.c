/* toggle sweep / sweep-merge: solve the all-off to all-on game for every n x n
 * board and prime p, draw each solution under several colour maps, and write
 * a manifest (CSV, JSON lines) and a static HTML gallery. Same command, same
 * bytes: rows are sorted and nothing depends on time or thread scheduling. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"

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
    "  -h, --help         this help\n"
    "\n"
    "Parts made with --shard are joined by toggle sweep-merge (see its --help).\n";

static const char merge_usage[] =
    "usage: toggle sweep-merge [--out DIR] DIR...\n"
    "\n"
    "Join the manifests of the parts of a sharded sweep and write one manifest\n"
    "and gallery into --out (default: the first DIR). Pictures stay where they\n"
    "are; the gallery links them by relative path.\n"
    "\n"
    "  --out DIR          where the merged manifest and gallery go\n"
    "  -h, --help         this help\n";

static const char default_maps[] = "viridis,magma,inferno,plasma,cividis,twilight,turbo,greys";

/* One board of the sweep: the manifest row. */
typedef struct {
    size_t n;
    uint64_t p;
    size_t nullity, pressed;
    int solvable;
    uint32_t sym;
    char solutions[192];
    size_t nimg;
    char **img_map, **img_path; /* nimg colour map names and paths (relative to the gallery) */
} row;

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

/* Parse "a..b,c,d..e" into ascending unique values (primes only if want_prime). */
static int parse_list(const char *s, int want_prime, uint64_t **out, size_t *count)
{
    char *copy = strdup(s), *save = NULL;
    uint8_t *seen = calloc(100001, 1);
    int bad = !copy || !seen;
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
        bad = !v || n == 0;
        for (size_t i = 0, j = 0; !bad && i <= 100000; i++)
            if (seen[i])
                v[j++] = i;
    }
    free(copy);
    free(seen);
    if (bad) {
        free(v);
        return -1;
    }
    *out = v;
    *count = n;
    return 0;
}

/* ---- files -------------------------------------------------------------- */

static int mkdirs(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) && errno != EEXIST) {
                free(p);
                return -1;
            }
            *s = '/';
        }
    int rc = mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

static char *join(const char *a, const char *b)
{
    size_t l = strlen(a) + strlen(b) + 2;
    char *s = malloc(l);
    if (s)
        snprintf(s, l, "%s/%s", a, b);
    return s;
}

/* ---- the sweep ---------------------------------------------------------- */

typedef struct {
    const uint64_t *sizes, *primes;
    size_t nsizes, nprimes;
    size_t *tasks; /* indices t (into sizes x primes) of this shard */
    size_t ntasks;
    row *rows;
    const char *dir;
    int nmaps, *map_id, *map_rev;
    char **map_name;
    int render, format;
    size_t cell;
    atomic_size_t next, done;
    atomic_int failed;
    pthread_mutex_t lock;
    char errmsg[512];
} sweep;

/* Record the first failure: "<doing> <n>x<n> mod <p>: <why> (<status>)". Called
 * on the failing worker's thread (the library's last error is per thread). */
static void sweep_fail(sweep *sw, const char *doing, size_t n, uint64_t p, const char *why,
                       int rc)
{
    pthread_mutex_lock(&sw->lock);
    if (!atomic_load(&sw->failed))
        snprintf(sw->errmsg, sizeof sw->errmsg, "%s %zux%zu mod %llu: %s (%s)", doing, n, n,
                 (unsigned long long)p, why, toggle_status_name(rc));
    atomic_store(&sw->failed, 1);
    pthread_mutex_unlock(&sw->lock);
}

static int do_board(sweep *sw, row *r, toggle_render_opts *o)
{
    size_t n = r->n, N = n * n;
    uint64_t p = r->p;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t *x = NULL;
    int rc = toggle_graph_new_grid(&g, n, n, 0);
    if (!rc)
        rc = toggle_system_new(&s, g, p, NULL, NULL);
    if (!rc)
        rc = toggle_solve(&sol, s);
    if (rc) {
        sweep_fail(sw, "solving", n, p, toggle_last_error(), rc);
        goto done;
    }
    r->nullity = toggle_solution_nullity(sol);
    r->solvable = toggle_solution_is_solvable(sol) == 1;
    if (toggle_solution_count_string(sol, r->solutions, sizeof r->solutions, NULL))
        snprintf(r->solutions, sizeof r->solutions, "?");
    if (!r->solvable)
        goto done;
    x = malloc(N * sizeof *x);
    if (!x) {
        rc = TOGGLE_ENOMEM;
        sweep_fail(sw, "reading", n, p, "out of memory", rc);
        goto done;
    }
    if ((rc = toggle_solution_particular(sol, x, N)) != TOGGLE_OK ||
        (rc = toggle_board_symmetry(x, n, n, &r->sym)) != TOGGLE_OK) {
        sweep_fail(sw, "reading", n, p, toggle_last_error(), rc);
        goto done;
    }
    for (size_t i = 0; i < N; i++)
        r->pressed += x[i] != 0;
    /* without rendering there are no pictures to list: the manifest has no
     * image columns and the gallery shows "not drawn" cards */
    r->nimg = sw->render ? (size_t)sw->nmaps : 0;
    r->img_map = calloc(r->nimg + 1, sizeof *r->img_map);
    r->img_path = calloc(r->nimg + 1, sizeof *r->img_path);
    size_t cell = sw->cell ? sw->cell : (600 / n ? 600 / n : 1);
    toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, cell > 4096 ? 4096 : cell);
    for (int m = 0; m < (int)r->nimg && r->img_path; m++) {
        char rel[256];
        snprintf(rel, sizeof rel, "img/%s/n%zu-p%llu.%s", sw->map_name[m], n,
                 (unsigned long long)p, sw->format == TOGGLE_IMAGE_PNG ? "png" : "ppm");
        r->img_map[m] = strdup(sw->map_name[m]);
        r->img_path[m] = strdup(rel);
        char *path = join(sw->dir, rel);
        toggle_render_opts_set(o, TOGGLE_RENDER_COLORMAP, (uint64_t)sw->map_id[m]);
        toggle_render_opts_set(o, TOGGLE_RENDER_REVERSED, (uint64_t)sw->map_rev[m]);
        rc = path ? toggle_render_file(o, sw->format, x, n, n, p, path) : TOGGLE_ENOMEM;
        free(path);
        if (rc) {
            sweep_fail(sw, "drawing", n, p, toggle_last_error(), rc);
            goto done;
        }
    }
    if (!r->img_map || !r->img_path)
        sweep_fail(sw, "listing", n, p, "out of memory", TOGGLE_ENOMEM);
done:
    free(x);
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return rc;
}

static void *worker(void *arg)
{
    sweep *sw = arg;
    toggle_render_opts *o = NULL;
    int rc = toggle_render_opts_new(&o);
    if (rc) {
        sweep_fail(sw, "starting on", sw->rows[0].n, sw->rows[0].p, "out of memory", rc);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&sw->next, 1);
        if (i >= sw->ntasks || atomic_load(&sw->failed))
            break;
        do_board(sw, &sw->rows[i], o);
        atomic_fetch_add(&sw->done, 1);
    }
    toggle_render_opts_free(o);
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress(size_t done, size_t total, double t0, int final)
{
    double el = now_s() - t0, rate = el > 0 ? (double)done / el : 0;
    int width = 30, fill = total ? (int)((double)width * (double)done / (double)total) : width;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[width] = 0;
    double left = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "\r[%s] %zu/%zu  %.1f boards/s  %s %.0fs   ", bar, done, total, rate,
            final ? "took" : "left", final ? el : left);
    if (final)
        fputc('\n', stderr);
    fflush(stderr);
}

/* ---- manifest and gallery ----------------------------------------------- */

static const char *sym_name(const row *r)
{
    const char *s = r->solvable ? toggle_symmetry_name(r->sym) : NULL;
    return s ? s : "n/a";
}

/* "full D4" -> "full-D4" for attribute values and URLs. */
static void slug(const char *s, char *out, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = s[i] == ' ' ? '-' : s[i];
    out[i] = 0;
}

static void json_row(FILE *f, const row *r)
{
    fprintf(f, "{\"n\":%zu,\"p\":%llu,\"nullity\":%zu,\"solvable\":%s,\"solutions\":\"%s\","
               "\"symmetry\":\"%s\",\"symmetry_mask\":%u,\"pressed\":%zu,\"images\":{",
            r->n, (unsigned long long)r->p, r->nullity, r->solvable ? "true" : "false",
            r->solutions, sym_name(r), r->solvable ? r->sym : 0u, r->pressed);
    for (size_t i = 0; i < r->nimg; i++)
        fprintf(f, "%s\"%s\":\"%s\"", i ? "," : "", r->img_map[i], r->img_path[i]);
    fputs("}}\n", f);
}

/* All colour map names used by any row, in first-seen order. */
static size_t all_maps(const row *rows, size_t n, const char **names, size_t cap)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < rows[i].nimg; j++) {
            size_t k = 0;
            while (k < c && strcmp(names[k], rows[i].img_map[j]))
                k++;
            if (k == c && c < cap)
                names[c++] = rows[i].img_map[j];
        }
    return c;
}

static const char *row_image(const row *r, const char *map)
{
    for (size_t j = 0; j < r->nimg; j++)
        if (!strcmp(r->img_map[j], map))
            return r->img_path[j];
    return "";
}

static const char gallery_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>libtoggle sweep: all-off to all-on solutions</title>\n"
    "<link rel=\"icon\" href=\"data:,\">\n"
    "<style>\n"
    "body{font-family:system-ui,sans-serif;margin:0;background:#111;color:#ddd}\n"
    "header{position:sticky;top:0;background:#1b1b1b;padding:.6em 1em;border-bottom:1px solid #333;z-index:1}\n"
    "h1{font-size:1.15em;margin:0 0 .4em}\n"
    "form{display:flex;flex-wrap:wrap;gap:.4em 1.2em;align-items:center}\n"
    "select{background:#222;color:#ddd;border:1px solid #444;padding:.15em}\n"
    "#count{margin:.4em 0 0;color:#999;font-size:.9em}\n"
    "main{display:flex;flex-wrap:wrap;gap:10px;padding:12px}\n"
    "figure{margin:0;width:140px;background:#1b1b1b;border:1px solid #2a2a2a;padding:6px;text-align:center}\n"
    "figure img{width:128px;height:128px;image-rendering:pixelated;display:block;margin:auto}\n"
    ".nosol{width:128px;height:128px;display:flex;align-items:center;justify-content:center;"
    "margin:auto;background:repeating-linear-gradient(45deg,#222,#222 8px,#292929 8px,#292929 16px);color:#888}\n"
    "figcaption{font-size:.75em;line-height:1.3;margin-top:4px}\n"
    "[hidden]{display:none!important}\n"
    "</style>\n</head>\n<body>\n";

static const char gallery_script[] =
    "<script>\n"
    "(function () {\n"
    "  'use strict';\n"
    "  var keys = ['n', 'p', 'cmap', 'sym', 'solvable'];\n"
    "  var cards = Array.prototype.slice.call(document.querySelectorAll('#gallery figure'));\n"
    "  function sel(k) { return document.getElementById('f-' + k); }\n"
    "  function apply() {\n"
    "    var want = {}, shown = 0;\n"
    "    keys.forEach(function (k) { want[k] = sel(k).value; });\n"
    "    cards.forEach(function (c) {\n"
    "      var ok = keys.every(function (k) {\n"
    "        if (!want[k]) return true;\n"
    "        if (k === 'cmap' && c.dataset.cmap === 'none') return true;\n"
    "        return c.dataset[k] === want[k];\n"
    "      });\n"
    "      c.hidden = !ok;\n"
    "      if (ok) shown++;\n"
    "    });\n"
    "    document.getElementById('count').textContent =\n"
    "      'showing ' + shown + ' of ' + cards.length + ' cards';\n"
    "    document.body.setAttribute('data-shown', String(shown));\n"
    "  }\n"
    "  function fromHash() {\n"
    "    var h = decodeURIComponent(location.hash.replace(/^#/, ''));\n"
    "    keys.forEach(function (k) { sel(k).value = ''; });\n"
    "    h.split('&').forEach(function (kv) {\n"
    "      var i = kv.indexOf('=');\n"
    "      if (i < 0) return;\n"
    "      var k = kv.slice(0, i), v = kv.slice(i + 1);\n"
    "      if (keys.indexOf(k) >= 0 && sel(k).querySelector('option[value=\"' + v + '\"]'))\n"
    "        sel(k).value = v;\n"
    "    });\n"
    "    apply();\n"
    "  }\n"
    "  function toHash() {\n"
    "    var parts = [];\n"
    "    keys.forEach(function (k) { if (sel(k).value) parts.push(k + '=' + sel(k).value); });\n"
    "    history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname);\n"
    "    apply();\n"
    "  }\n"
    "  keys.forEach(function (k) { sel(k).addEventListener('change', toHash); });\n"
    "  window.addEventListener('hashchange', fromHash);\n"
    "  fromHash();\n"
    "})();\n"
    "</script>\n";

static void select_open(FILE *f, const char *key, const char *label)
{
    fprintf(f, "<label>%s <select id=\"f-%s\"><option value=\"\">all</option>", label, key);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Distinct values, ascending. */
static size_t distinct(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

static int write_gallery(const char *dir, const row *rows, size_t nrows)
{
    char *path = join(dir, "index.html");
    FILE *f = path ? fopen(path, "w") : NULL;
    free(path);
    if (!f)
        return -1;
    const char *maps[512];
    size_t nmaps = all_maps(rows, nrows, maps, 512);
    uint64_t *tmp = malloc((nrows ? nrows : 1) * sizeof *tmp);
    if (!tmp) {
        fclose(f);
        return -1;
    }
    size_t pictures = 0, solvable = 0;
    for (size_t i = 0; i < nrows; i++) {
        pictures += rows[i].solvable ? rows[i].nimg : 0;
        solvable += rows[i].solvable;
    }
    fputs(gallery_head, f);
    fprintf(f, "<header>\n<h1>All-off to all-on: canonical solutions of n&times;n boards over "
               "F<sub>p</sub></h1>\n<form id=\"filters\">\n");
    for (size_t i = 0; i < nrows; i++)
        tmp[i] = rows[i].n;
    size_t m = distinct(tmp, nrows);
    select_open(f, "n", "n");
    for (size_t i = 0; i < m; i++)
        fprintf(f, "<option value=\"%llu\">%llu</option>", (unsigned long long)tmp[i],
                (unsigned long long)tmp[i]);
    fputs("</select></label>\n", f);
    for (size_t i = 0; i < nrows; i++)
        tmp[i] = rows[i].p;
    m = distinct(tmp, nrows);
    select_open(f, "p", "p");
    for (size_t i = 0; i < m; i++)
        fprintf(f, "<option value=\"%llu\">%llu</option>", (unsigned long long)tmp[i],
                (unsigned long long)tmp[i]);
    fputs("</select></label>\n", f);
    select_open(f, "cmap", "colour map");
    for (size_t i = 0; i < nmaps; i++)
        fprintf(f, "<option value=\"%s\">%s</option>", maps[i], maps[i]);
    fputs("</select></label>\n", f);
    /* symmetry classes present, in the order of the table in symmetry.h */
    static const uint32_t order[] = {0xFF, 0x0F, 0xC5, 0x35, 0x05, 0x11, 0x21, 0x41, 0x81, 0x01};
    select_open(f, "sym", "symmetry");
    for (size_t j = 0; j < sizeof order / sizeof *order; j++) {
        int present = 0;
        for (size_t i = 0; i < nrows && !present; i++)
            present = rows[i].solvable && rows[i].sym == order[j];
        char sl[64];
        slug(toggle_symmetry_name(order[j]), sl, sizeof sl);
        if (present)
            fprintf(f, "<option value=\"%s\">%s</option>", sl, toggle_symmetry_name(order[j]));
    }
    fputs("</select></label>\n", f);
    select_open(f, "solvable", "solvable");
    fputs("<option value=\"yes\">yes</option><option value=\"no\">no</option>"
          "</select></label>\n</form>\n", f);
    fprintf(f, "<p id=\"count\">%zu boards, %zu solvable, %zu pictures</p>\n</header>\n"
               "<main id=\"gallery\">\n", nrows, solvable, pictures);
    for (size_t i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        char sl[64];
        slug(sym_name(r), sl, sizeof sl);
        unsigned long long p = (unsigned long long)r->p;
        if (!r->solvable) {
            fprintf(f, "<figure data-n=\"%zu\" data-p=\"%llu\" data-cmap=\"none\" data-sym=\"n/a\" "
                       "data-solvable=\"no\"><div class=\"nosol\">no solution</div>"
                       "<figcaption>%zu&times;%zu mod %llu<br>nullity %zu, unsolvable"
                       "</figcaption></figure>\n", r->n, p, r->n, r->n, p, r->nullity);
            continue;
        }
        for (size_t j = 0; j < nmaps; j++) {
            const char *img = row_image(r, maps[j]);
            if (!*img)
                continue;
            fprintf(f, "<figure data-n=\"%zu\" data-p=\"%llu\" data-cmap=\"%s\" data-sym=\"%s\" "
                       "data-solvable=\"yes\"><a href=\"%s\"><img src=\"%s\" loading=\"lazy\" "
                       "width=\"128\" height=\"128\" alt=\"%zux%zu mod %llu, %s\"></a>"
                       "<figcaption>%zu&times;%zu mod %llu &middot; %s<br>nullity %zu &middot; "
                       "%s</figcaption></figure>\n", r->n, p, maps[j], sl, img, img, r->n, r->n,
                    p, maps[j], r->n, r->n, p, maps[j], r->nullity, sym_name(r));
        }
        if (r->nimg == 0)
            fprintf(f, "<figure data-n=\"%zu\" data-p=\"%llu\" data-cmap=\"none\" data-sym=\"%s\" "
                       "data-solvable=\"yes\"><div class=\"nosol\">not drawn</div><figcaption>"
                       "%zu&times;%zu mod %llu<br>nullity %zu &middot; %s</figcaption></figure>\n",
                    r->n, p, sl, r->n, r->n, p, r->nullity, sym_name(r));
    }
    fputs("</main>\n", f);
    fputs(gallery_script, f);
    fputs("</body>\n</html>\n", f);
    free(tmp);
    return fclose(f) ? -1 : 0;
}

static int write_manifests(const char *dir, const row *rows, size_t nrows)
{
    char *pc = join(dir, "manifest.csv"), *pj = join(dir, "manifest.jsonl");
    FILE *c = pc ? fopen(pc, "w") : NULL, *j = pj ? fopen(pj, "w") : NULL;
    free(pc);
    free(pj);
    int rc = c && j ? 0 : -1;
    if (!rc) {
        const char *maps[512];
        size_t nmaps = all_maps(rows, nrows, maps, 512);
        fputs("n,p,nullity,solvable,solutions,symmetry,symmetry_mask,pressed", c);
        for (size_t m = 0; m < nmaps; m++)
            fprintf(c, ",image_%s", maps[m]);
        fputc('\n', c);
        for (size_t i = 0; i < nrows; i++) {
            const row *r = &rows[i];
            fprintf(c, "%zu,%llu,%zu,%s,%s,%s,%u,%zu", r->n, (unsigned long long)r->p,
                    r->nullity, r->solvable ? "yes" : "no", r->solutions, sym_name(r),
                    r->solvable ? r->sym : 0u, r->pressed);
            for (size_t m = 0; m < nmaps; m++)
                fprintf(c, ",%s", row_image(r, maps[m]));
            fputc('\n', c);
            json_row(j, r);
        }
    }
    if (c && fclose(c))
        rc = -1;
    if (j && fclose(j))
        rc = -1;
    return rc;
}

static void free_rows(row *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++) {
        for (size_t j = 0; j < rows[i].nimg; j++) {
            if (rows[i].img_map)
                free(rows[i].img_map[j]);
            if (rows[i].img_path)
                free(rows[i].img_path[j]);
        }
        free(rows[i].img_map);
        free(rows[i].img_path);
    }
    free(rows);
}

static int parse_maps(const char *list, sweep *sw)
{
    char *copy = strdup(list), *save = NULL;
    size_t cap = toggle_colormap_count() * 2 + 1;
    sw->map_id = calloc(cap, sizeof *sw->map_id);
    sw->map_rev = calloc(cap, sizeof *sw->map_rev);
    sw->map_name = calloc(cap, sizeof *sw->map_name);
    if (!copy || !sw->map_id || !sw->map_rev || !sw->map_name) {
        free(copy);
        return cli_fail("sweep", "out of memory");
    }
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int all = !strcmp(t, "all");
        size_t count = all ? toggle_colormap_count() : 1;
        for (size_t i = 0; i < count; i++) {
            int id = (int)i, rev = 0;
            if (!all && toggle_colormap_from_name(t, &id, &rev)) {
                /* t points into copy: report before it is freed */
                cli_fail("sweep", "unknown colour map '%s' (toggle render --colormap list "
                         "shows them)", t);
                free(copy);
                return 1;
            }
            const char *base = toggle_colormap_name(id);
            char name[64];
            snprintf(name, sizeof name, "%s%s", base, rev ? "_r" : "");
            int dup = 0;
            for (int m = 0; m < sw->nmaps; m++)
                dup |= !strcmp(sw->map_name[m], name);
            if (dup || (size_t)sw->nmaps >= cap)
                continue;
            sw->map_id[sw->nmaps] = id;
            sw->map_rev[sw->nmaps] = rev;
            sw->map_name[sw->nmaps++] = strdup(name);
        }
    }
    free(copy);
    return 0;
}

int cmd_sweep(int argc, char **argv)
{
    const char *sizes = "1..70", *primes = "2..67", *out = NULL, *maps = default_maps;
    const char *shard = NULL, *val;
    uint64_t threads = 0, cell = 0;
    int status = 1;
    sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.render = 1;
    sw.format = TOGGLE_IMAGE_PNG;
    uint64_t *sz = NULL, *pr = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(sweep_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--no-render")) {
            sw.render = 0;
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
                return cli_fail("sweep", "--threads needs 1..256");
        } else if (cli_opt(argc, argv, &i, "--cell", &val) && val) {
            if (cli_parse_u64(val, &cell) || cell == 0 || cell > 4096)
                return cli_fail("sweep", "--cell needs 1..4096");
        } else if (cli_opt(argc, argv, &i, "--format", &val) && val) {
            if (!strcmp(val, "ppm"))
                sw.format = TOGGLE_IMAGE_PPM;
            else if (strcmp(val, "png"))
                return cli_fail("sweep", "--format needs png or ppm");
        } else {
            return cli_fail("sweep", "bad argument '%s' (see toggle sweep --help)", a);
        }
    }
    if (!out)
        return cli_fail("sweep", "--out DIR is required (see toggle sweep --help)");
    uint64_t si = 0, sk = 1;
    if (shard) {
        char tmp[64];
        const char *slash = strchr(shard, '/');
        size_t l = slash ? (size_t)(slash - shard) : 0;
        if (!slash || l == 0 || l >= sizeof tmp)
            return cli_fail("sweep", "--shard needs I/K with 0 <= I < K");
        memcpy(tmp, shard, l);
        tmp[l] = 0;
        if (cli_parse_u64(tmp, &si) || cli_parse_u64(slash + 1, &sk) || sk == 0 || si >= sk)
            return cli_fail("sweep", "--shard needs I/K with 0 <= I < K");
    }
    if (parse_list(sizes, 0, &sz, &sw.nsizes))
        return cli_fail("sweep", "bad --sizes '%s' (e.g. 1..70 or 3,5,8..10)", sizes);
    if (parse_list(primes, 1, &pr, &sw.nprimes)) {
        free(sz);
        return cli_fail("sweep", "bad --primes '%s' (primes or ranges, e.g. 2..67)", primes);
    }
    sw.sizes = sz;
    sw.primes = pr;
    sw.dir = out;
    sw.cell = (size_t)cell;
    if (parse_maps(maps, &sw))
        goto done;
    size_t total = sw.nsizes * sw.nprimes;
    sw.rows = calloc(total ? total : 1, sizeof *sw.rows);
    if (!sw.rows) {
        cli_fail("sweep", "out of memory");
        goto done;
    }
    for (size_t t = 0; t < total; t++)
        if (t % sk == si) {
            row *r = &sw.rows[sw.ntasks++];
            r->n = (size_t)sz[t / sw.nprimes];
            r->p = pr[t % sw.nprimes];
        }
    if (mkdirs(out)) {
        cli_fail("sweep", "cannot create '%s': %s", out, strerror(errno));
        goto done;
    }
    for (int m = 0; sw.render && m < sw.nmaps; m++) {
        char rel[128];
        snprintf(rel, sizeof rel, "img/%s", sw.map_name[m]);
        char *d = join(out, rel);
        int bad = !d || mkdirs(d);
        free(d);
        if (bad) {
            cli_fail("sweep", "cannot create the image folders under '%s'", out);
            goto done;
        }
    }
    if (!threads) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (uint64_t)c : 1;
    }
    if (threads > sw.ntasks)
        threads = sw.ntasks ? sw.ntasks : 1;
    pthread_mutex_init(&sw.lock, NULL);
    pthread_t tid[256];
    size_t started = 0;
    double t0 = now_s();
    for (; started < threads; started++)
        if (pthread_create(&tid[started], NULL, worker, &sw))
            break;
    if (started == 0)
        worker(&sw);
    int tty = isatty(2);
    while (tty && atomic_load(&sw.done) < sw.ntasks && !atomic_load(&sw.failed)) {
        progress(atomic_load(&sw.done), sw.ntasks, t0, 0);
        struct timespec ts = {0, 200000000};
        nanosleep(&ts, NULL);
    }
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (tty && !atomic_load(&sw.failed))
        progress(sw.ntasks, sw.ntasks, t0, 1);
    pthread_mutex_destroy(&sw.lock);
    if (atomic_load(&sw.failed)) {
        if (tty)
            fputc('\n', stderr);
        cli_fail("sweep", "%s", sw.errmsg);
        goto done;
    }
    if (write_manifests(out, sw.rows, sw.ntasks) || write_gallery(out, sw.rows, sw.ntasks)) {
        cli_fail("sweep", "cannot write the manifest or gallery in '%s'", out);
        goto done;
    }
    status = 0;
done:
    free_rows(sw.rows, sw.ntasks);
    for (int m = 0; m < sw.nmaps; m++)
        free(sw.map_name[m]);
    free(sw.map_name);
    free(sw.map_id);
    free(sw.map_rev);
    free(sz);
    free(pr);
    return status;
}

/* ---- merge -------------------------------------------------------------- */

/* The value after "key": in a manifest line written by json_row. */
static const char *json_at(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *s = strstr(line, pat);
    return s ? s + strlen(pat) : NULL;
}

/* Copy a "..." string starting at s (at the quote); returns the end or NULL. */
static const char *json_str(const char *s, char *out, size_t cap)
{
    if (!s || *s != '"')
        return NULL;
    size_t i = 0;
    for (s++; *s && *s != '"'; s++)
        if (i + 1 < cap)
            out[i++] = *s;
    out[i] = 0;
    return *s == '"' ? s + 1 : NULL;
}

/* Absolute, normalised path of an existing directory. */
static char *abs_dir(const char *d)
{
    return realpath(d, NULL);
}

/* Relative path from directory `from` to directory `to` (both absolute and
 * normalised by realpath): "." when equal. */
static char *relpath(const char *from, const char *to)
{
    size_t i = 0, common = 0;
    for (;; i++) {
        char a = from[i], b = to[i];
        if ((a == '/' || a == 0) && (b == '/' || b == 0))
            common = i; /* both at a component boundary */
        if (a != b || a == 0)
            break;
    }
    size_t ups = 0;
    for (const char *s = from + common; *s; s++)
        ups += *s == '/';
    if (!strcmp(from, "/"))
        ups = 0;
    const char *rest = to + common;
    while (*rest == '/')
        rest++;
    char *r = malloc(ups * 3 + strlen(rest) + 2);
    if (!r)
        return NULL;
    r[0] = 0;
    for (size_t u = 0; u < ups; u++)
        strcat(r, "../");
    strcat(r, rest);
    size_t l = strlen(r);
    if (l && r[l - 1] == '/')
        r[l - 1] = 0;
    if (!*r)
        strcpy(r, ".");
    return r;
}

static int cmp_row(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return (x->p > y->p) - (x->p < y->p);
}

static int read_manifest(const char *dir, const char *prefix, row **rows, size_t *n,
                         size_t *cap)
{
    char *path = join(dir, "manifest.jsonl");
    size_t len;
    char *text = path ? cli_read_file(path, &len) : NULL;
    free(path);
    if (!text)
        return cli_fail("sweep-merge", "cannot read %s/manifest.jsonl", dir);
    text[len] = 0; /* cli_read_file leaves room: it stops when a read comes up short */
    char *line = text, *end = text + len;
    while (line < end) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (nl)
            *nl = 0;
        if (*line) {
            if (*n == *cap) {
                size_t nc = *cap ? *cap * 2 : 256;
                row *nr = realloc(*rows, nc * sizeof *nr);
                if (!nr) {
                    free(text);
                    return cli_fail("sweep-merge", "out of memory");
                }
                *rows = nr;
                *cap = nc;
            }
            row *r = &(*rows)[*n];
            memset(r, 0, sizeof *r);
            const char *v;
            unsigned long long num = 0;
            char buf[256];
            int ok = (v = json_at(line, "n")) && sscanf(v, "%llu", &num) == 1;
            r->n = (size_t)num;
            ok = ok && (v = json_at(line, "p")) && sscanf(v, "%llu", &num) == 1;
            r->p = num;
            ok = ok && (v = json_at(line, "nullity")) && sscanf(v, "%llu", &num) == 1;
            r->nullity = (size_t)num;
            ok = ok && (v = json_at(line, "solvable"));
            r->solvable = ok && !strncmp(v, "true", 4);
            ok = ok && json_str(json_at(line, "solutions"), r->solutions, sizeof r->solutions);
            ok = ok && (v = json_at(line, "symmetry_mask")) && sscanf(v, "%llu", &num) == 1;
            r->sym = (uint32_t)num;
            ok = ok && (v = json_at(line, "pressed")) && sscanf(v, "%llu", &num) == 1;
            r->pressed = (size_t)num;
            const char *im = json_at(line, "images");
            ok = ok && im && *im == '{';
            size_t icap = 0;
            for (const char *s = im ? im + 1 : NULL; ok && s && *s == '"';) {
                char map[64];
                s = json_str(s, map, sizeof map);
                if (!s || *s != ':' || !(s = json_str(s + 1, buf, sizeof buf))) {
                    ok = 0;
                    break;
                }
                if (r->nimg == icap) {
                    icap = icap ? icap * 2 : 8;
                    r->img_map = realloc(r->img_map, icap * sizeof *r->img_map);
                    r->img_path = realloc(r->img_path, icap * sizeof *r->img_path);
                }
                char *full = malloc(strlen(prefix) + strlen(buf) + 2);
                if (full)
                    sprintf(full, "%s%s%s", prefix, *prefix ? "/" : "", buf);
                r->img_map[r->nimg] = strdup(map);
                r->img_path[r->nimg++] = full;
                if (*s == ',')
                    s++;
            }
            if (!ok) {
                free(text);
                (*n)++;
                return cli_fail("sweep-merge", "%s/manifest.jsonl: bad line '%.60s'", dir, line);
            }
            (*n)++;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    free(text);
    return 0;
}

int cmd_sweep_merge(int argc, char **argv)
{
    const char *out = NULL, *val;
    const char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
    size_t ndirs = 0;
    if (!dirs)
        return cli_fail("sweep-merge", "out of memory");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(merge_usage, stdout);
            free(dirs);
            return 0;
        } else if (cli_opt(argc, argv, &i, "--out", &val) && val) {
            out = val;
        } else if (argv[i][0] == '-') {
            free(dirs);
            return cli_fail("sweep-merge", "bad argument '%s' (see toggle sweep-merge --help)",
                            argv[i]);
        } else {
            dirs[ndirs++] = argv[i];
        }
    }
    if (ndirs == 0) {
        free(dirs);
        return cli_fail("sweep-merge", "need at least one sweep directory");
    }
    if (!out)
        out = dirs[0];
    int status = 1;
    row *rows = NULL;
    size_t n = 0, cap = 0;
    char *aout = NULL;
    if (mkdirs(out) || !(aout = abs_dir(out))) {
        cli_fail("sweep-merge", "cannot create '%s'", out);
        goto done;
    }
    for (size_t d = 0; d < ndirs; d++) {
        char *ad = abs_dir(dirs[d]);
        char *rel = ad ? relpath(aout, ad) : NULL;
        int rc = rel ? read_manifest(dirs[d], strcmp(rel, ".") ? rel : "", &rows, &n, &cap)
                     : cli_fail("sweep-merge", "cannot open '%s'", dirs[d]);
        free(ad);
        free(rel);
        if (rc)
            goto done;
    }
    qsort(rows, n, sizeof *rows, cmp_row);
    /* the same board from two parts (or a re-run merge) counts once */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && rows[m - 1].n == rows[i].n && rows[m - 1].p == rows[i].p) {
            for (size_t j = 0; j < rows[i].nimg; j++) {
                free(rows[i].img_map[j]);
                free(rows[i].img_path[j]);
            }
            free(rows[i].img_map);
            free(rows[i].img_path);
            continue;
        }
        rows[m++] = rows[i];
    }
    n = m;
    if (write_manifests(out, rows, n) || write_gallery(out, rows, n)) {
        cli_fail("sweep-merge", "cannot write the manifest or gallery in '%s'", out);
        goto done;
    }
    status = 0;
done:
    free_rows(rows, n);
    free(aout);
    free(dirs);
    return status;
}
