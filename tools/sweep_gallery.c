/* The sweep's gallery (sweep_gallery.h). The page is the template
 * gallery/index.html.in, in which a line "@name@" stands for a part written
 * here: the style sheet, the filters, the count, the cards, the script. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toggle.h>

#include "gallery_assets.h"
#include "path.h"
#include "sweep_gallery.h"

typedef struct {
    const sweep_rows *rows;
    const char **maps; /* the colour maps of all pictures, first-seen order */
    size_t nmaps;
    int site;          /* toggle web: one card per board, interesting first, the module */
} page;

/* "full D4" -> "full-D4" for attribute values and URLs. */
static void slug(const char *s, char *out, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = s[i] == ' ' ? '-' : s[i];
    out[i] = 0;
}

/* ---- the filters -------------------------------------------------------- */

static void select_open(FILE *f, const char *key, const char *label)
{
    fprintf(f, "<label>%s <select id=\"f-%s\"><option value=\"\">all</option>", label, key);
}

static void select_close(FILE *f)
{
    fputs("</select></label>\n", f);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A filter on a number: one option per distinct value, ascending (v is scratch). */
static void select_numbers(FILE *f, const char *key, uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    select_open(f, key, key);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || v[i - 1] != v[i])
            fprintf(f, "<option value=\"%llu\">%llu</option>", (unsigned long long)v[i],
                    (unsigned long long)v[i]);
    select_close(f);
}

static int write_filters(FILE *f, const page *pg)
{
    const sweep_rows *rows = pg->rows;
    uint64_t *v = malloc((rows->n ? rows->n : 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < rows->n; i++)
        v[i] = rows->v[i].n;
    select_numbers(f, "n", v, rows->n);
    for (size_t i = 0; i < rows->n; i++)
        v[i] = rows->v[i].p;
    select_numbers(f, "p", v, rows->n);
    free(v);
    select_open(f, "cmap", "colour map");
    for (size_t i = 0; i < pg->nmaps; i++)
        fprintf(f, "<option value=\"%s\">%s</option>", pg->maps[i], pg->maps[i]);
    select_close(f);
    /* symmetry classes present, in the order of the table in symmetry.h */
    static const uint32_t order[] = {0xFF, 0x0F, 0xC5, 0x35, 0x05, 0x11, 0x21, 0x41, 0x81, 0x01};
    select_open(f, "sym", "symmetry");
    for (size_t j = 0; j < sizeof order / sizeof *order; j++) {
        int present = 0;
        for (size_t i = 0; i < rows->n && !present; i++)
            present = rows->v[i].solvable && rows->v[i].sym == order[j];
        char sl[64];
        slug(toggle_symmetry_name(order[j]), sl, sizeof sl);
        if (present)
            fprintf(f, "<option value=\"%s\">%s</option>", sl, toggle_symmetry_name(order[j]));
    }
    select_close(f);
    select_open(f, "solvable", "solvable");
    fputs("<option value=\"yes\">yes</option><option value=\"no\">no</option>", f);
    select_close(f);
    return 0;
}

static int write_count(FILE *f, const page *pg)
{
    size_t pictures = 0, solvable = 0;
    for (size_t i = 0; i < pg->rows->n; i++) {
        const sweep_row *r = &pg->rows->v[i];
        pictures += r->solvable ? r->nimg : 0;
        solvable += r->solvable;
    }
    fprintf(f, "<p id=\"count\">%zu boards, %zu solvable, %zu pictures</p>\n", pg->rows->n,
            solvable, pictures);
    return 0;
}

/* ---- the cards ---------------------------------------------------------- */

/* A card's opening tag with the data the filters read. */
static void figure_open(FILE *f, const sweep_row *r, const char *cmap, const char *sym)
{
    fprintf(f, "<figure data-n=\"%zu\" data-p=\"%llu\" data-cmap=\"%s\" data-sym=\"%s\" "
               "data-solvable=\"%s\" data-nullity=\"%zu\" data-count=\"%s\" "
               "data-symname=\"%s\" data-images=\"", r->n, (unsigned long long)r->p, cmap, sym,
            r->solvable ? "yes" : "no", r->nullity, r->solutions, sweep_row_symmetry(r));
    for (size_t i = 0; i < r->nimg; i++) /* the detail view's pictures: map=path;... */
        fprintf(f, "%s%s=%s", i ? ";" : "", r->img_map[i], r->img_path[i]);
    fputs("\">", f);
}

/* A card without a picture: "no solution" or "not drawn". */
static void card_empty(FILE *f, const sweep_row *r, const char *sym)
{
    figure_open(f, r, "none", sym);
    fprintf(f, "<div class=\"nosol\">%s</div><figcaption>%zu&times;%zu mod %llu<br>nullity %zu",
            r->solvable ? "not drawn" : "no solution", r->n, r->n, (unsigned long long)r->p,
            r->nullity);
    if (r->solvable)
        fprintf(f, " &middot; %s", sweep_row_symmetry(r));
    else
        fputs(", unsolvable", f);
    fputs("</figcaption></figure>\n", f);
}

/* A card with the picture of the board in one colour map. */
static void card_picture(FILE *f, const sweep_row *r, const char *map, const char *img,
                         const char *sym)
{
    unsigned long long p = (unsigned long long)r->p;
    figure_open(f, r, map, sym);
    fprintf(f, "<a href=\"%s\"><img src=\"%s\" loading=\"lazy\" width=\"128\" height=\"128\" "
               "alt=\"%zux%zu mod %llu, %s\"></a><figcaption>%zu&times;%zu mod %llu &middot; "
               "%s<br>nullity %zu &middot; %s</figcaption></figure>\n", img, img, r->n, r->n, p,
            map, r->n, r->n, p, map, r->nullity, sweep_row_symmetry(r));
}

/* toggle web's order: solvable boards first, larger boards first, then the
 * boards with more solutions (nullity), then p. */
static int cmp_interest(const void *a, const void *b)
{
    const sweep_row *x = *(const sweep_row *const *)a, *y = *(const sweep_row *const *)b;
    if (x->solvable != y->solvable)
        return y->solvable - x->solvable;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    if (x->nullity != y->nullity)
        return x->nullity < y->nullity ? 1 : -1;
    return (x->p > y->p) - (x->p < y->p);
}

/* toggle web: one card per board, in one of its maps (chosen by (n, p), so
 * that neighbouring cards differ), interesting boards first. */
static int write_site_cards(FILE *f, const page *pg)
{
    size_t n = pg->rows->n;
    const sweep_row **order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++)
        order[i] = &pg->rows->v[i];
    qsort(order, n, sizeof *order, cmp_interest);
    for (size_t i = 0; i < n; i++) {
        const sweep_row *r = order[i];
        char sym[64];
        slug(sweep_row_symmetry(r), sym, sizeof sym);
        if (r->solvable && r->nimg) {
            size_t m = (r->n * 7 + (size_t)r->p) % r->nimg;
            card_picture(f, r, r->img_map[m], r->img_path[m], sym);
        } else {
            card_empty(f, r, sym);
        }
    }
    free(order);
    return 0;
}

static int write_cards(FILE *f, const page *pg)
{
    if (pg->site)
        return write_site_cards(f, pg);
    for (size_t i = 0; i < pg->rows->n; i++) {
        const sweep_row *r = &pg->rows->v[i];
        char sym[64];
        slug(sweep_row_symmetry(r), sym, sizeof sym);
        for (size_t j = 0; r->solvable && j < pg->nmaps; j++) {
            const char *img = sweep_row_image(r, pg->maps[j]);
            if (*img)
                card_picture(f, r, pg->maps[j], img, sym);
        }
        if (!r->solvable || r->nimg == 0)
            card_empty(f, r, sym);
    }
    return 0;
}

/* ---- the page ----------------------------------------------------------- */

static int write_style(FILE *f, const page *pg)
{
    (void)pg;
    return fwrite(gallery_css, 1, gallery_css_len, f) == gallery_css_len ? 0 : -1;
}

static int write_script(FILE *f, const page *pg)
{
    (void)pg;
    return fwrite(gallery_js, 1, gallery_js_len, f) == gallery_js_len ? 0 : -1;
}

/* toggle web: the module, for the detail view's colour maps */
static int write_module(FILE *f, const page *pg)
{
    if (pg->site)
        fputs("<script src=\"libtoggle.js\"></script>\n", f);
    return 0;
}

static const struct {
    const char *name; /* the template line "@name@" */
    int (*write)(FILE *f, const page *pg);
} parts[] = {
    {"style", write_style}, {"filters", write_filters}, {"count", write_count},
    {"cards", write_cards}, {"script", write_script}, {"module", write_module},
};

/* The part a template line (without its newline) stands for: -1 for a plain
 * line, -2 for "@name@" with a name not in parts. */
static int part_of(const char *line, size_t len)
{
    if (len < 2 || line[0] != '@' || line[len - 1] != '@')
        return -1;
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++)
        if (strlen(parts[k].name) == len - 2 && !memcmp(parts[k].name, line + 1, len - 2))
            return (int)k;
    return -2;
}

/* The template, each "@name@" line replaced by its part. */
static int write_page(FILE *f, const page *pg)
{
    const char *t = (const char *)gallery_page, *end = t + gallery_page_len;
    int rc = 0;
    while (!rc && t < end) {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        size_t len = nl ? (size_t)(nl - t) : (size_t)(end - t), whole = nl ? len + 1 : len;
        int k = part_of(t, len);
        if (k == -1)
            rc = fwrite(t, 1, whole, f) == whole ? 0 : -1;
        else
            rc = k >= 0 ? parts[k].write(f, pg) : -1;
        t += whole;
    }
    return rc;
}

int sweep_gallery_write(const char *dir, const sweep_rows *rows, int site)
{
    page pg = {.rows = rows, .site = site};
    pg.maps = sweep_rows_maps(rows, &pg.nmaps);
    char *path = path_join(dir, "index.html"), *tmp = NULL;
    FILE *f = pg.maps && path ? path_tmp_open(path, &tmp) : NULL; /* whole, then renamed */
    int rc = f ? write_page(f, &pg) : -1;
    if (f && path_tmp_commit(f, tmp, path, !rc))
        rc = -1;
    free(path);
    free(pg.maps);
    return rc;
}
