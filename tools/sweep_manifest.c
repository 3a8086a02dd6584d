/* The sweep's manifest (sweep_manifest.h). The reader reads what the writer
 * writes, not JSON in general. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "path.h"
#include "sweep_manifest.h"

/* ---- writing ------------------------------------------------------------ */
/* The names are the JSON vocabulary's (docs/json.md): rows and cols the
 * board, modulus, count the exact number of solutions. */

static void csv_header(FILE *f, const char **maps, size_t nmaps)
{
    fputs("rows,cols,modulus,nullity,solvable,count,symmetry,symmetry_mask,pressed", f);
    for (size_t m = 0; m < nmaps; m++)
        fprintf(f, ",image_%s", maps[m]);
    fputc('\n', f);
}

static void csv_row(FILE *f, const sweep_row *r, const char **maps, size_t nmaps)
{
    fprintf(f, "%zu,%zu,%llu,%zu,%s,%s,%s,%u,%zu", r->n, r->n, (unsigned long long)r->p,
            r->nullity, r->solvable ? "true" : "false", r->solutions, sweep_row_symmetry(r),
            r->solvable ? r->sym : 0u, r->pressed);
    for (size_t m = 0; m < nmaps; m++)
        fprintf(f, ",%s", sweep_row_image(r, maps[m]));
    fputc('\n', f);
}

static void json_row(FILE *f, const sweep_row *r)
{
    fprintf(f, "{\"version\":%d,\"rows\":%zu,\"cols\":%zu,\"modulus\":%llu,\"nullity\":%zu,"
               "\"solvable\":%s,\"count\":\"%s\",\"symmetry\":\"%s\",\"symmetry_mask\":%u,"
               "\"pressed\":%zu,\"images\":{",
            CLI_JSON_VERSION, r->n, r->n, (unsigned long long)r->p, r->nullity,
            r->solvable ? "true" : "false",
            r->solutions, sweep_row_symmetry(r), r->solvable ? r->sym : 0u, r->pressed);
    for (size_t i = 0; i < r->nimg; i++)
        fprintf(f, "%s\"%s\":\"%s\"", i ? "," : "", r->img_map[i], r->img_path[i]);
    fputs("}}\n", f);
}

int sweep_manifest_write(const char *dir, const sweep_rows *rows)
{
    size_t nmaps = 0;
    const char **maps = sweep_rows_maps(rows, &nmaps);
    char *cp = path_join(dir, "manifest.csv"), *jp = path_join(dir, "manifest.jsonl");
    char *ct = NULL, *jt = NULL;
    /* each written whole to a temporary name, then renamed (path.h) */
    FILE *c = cp ? path_tmp_open(cp, &ct) : NULL, *j = jp ? path_tmp_open(jp, &jt) : NULL;
    int rc = maps && c && j ? 0 : -1;
    if (!rc) {
        csv_header(c, maps, nmaps);
        for (size_t i = 0; i < rows->n; i++) {
            csv_row(c, &rows->v[i], maps, nmaps);
            json_row(j, &rows->v[i]);
        }
    }
    /* the jsonl (what --resume and sweep-merge read) last */
    if (c && path_tmp_commit(c, ct, cp, !rc))
        rc = -1;
    if (j && path_tmp_commit(j, jt, jp, !rc))
        rc = -1;
    free(cp);
    free(jp);
    free(maps);
    return rc;
}

/* ---- reading ------------------------------------------------------------ */

/* The value after "key": in a line written by json_row. */
static const char *json_at(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *s = strstr(line, pat);
    return s ? s + strlen(pat) : NULL;
}

/* The number after "key":; 1 when there is one, else 0. */
static int json_u64(const char *line, const char *key, unsigned long long *v)
{
    const char *s = json_at(line, key);
    return s && sscanf(s, "%llu", v) == 1;
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

/* The "images" object {"map":"path",...} of a line into r, each path put
 * under prefix. 1 when it reads, 0 when it does not, -1 out of memory. */
static int read_images(const char *s, const char *prefix, sweep_row *r)
{
    if (!s || *s != '{')
        return 0;
    for (s++; *s == '"';) {
        char map[64], path[256];
        s = json_str(s, map, sizeof map);
        if (!s || *s != ':' || !(s = json_str(s + 1, path, sizeof path)))
            return 0;
        char *full = *prefix ? path_join(prefix, path) : NULL;
        int rc = *prefix && !full ? -1 : sweep_row_add_image(r, map, full ? full : path);
        free(full);
        if (rc)
            return -1;
        if (*s == ',')
            s++;
    }
    return 1;
}

/* One line into r: 1 when it reads, 0 when it does not, -1 out of memory.
 * Lines of 1.0 manifests (n, p, solutions: no version key) read too. */
static int read_row(const char *line, const char *prefix, sweep_row *r)
{
    unsigned long long n, p, nullity, mask, pressed;
    const char *solvable = json_at(line, "solvable");
    int v1 = json_at(line, "version") != NULL;
    if (!json_u64(line, v1 ? "rows" : "n", &n) || !json_u64(line, v1 ? "modulus" : "p", &p) ||
        !json_u64(line, "nullity", &nullity) || !solvable ||
        !json_str(json_at(line, v1 ? "count" : "solutions"), r->solutions, sizeof r->solutions) ||
        !json_u64(line, "symmetry_mask", &mask) || !json_u64(line, "pressed", &pressed))
        return 0;
    r->n = (size_t)n;
    r->p = p;
    r->nullity = (size_t)nullity;
    r->solvable = !strncmp(solvable, "true", 4);
    r->sym = (uint32_t)mask;
    r->pressed = (size_t)pressed;
    return read_images(json_at(line, "images"), prefix, r);
}

int sweep_manifest_read(const char *dir, const char *prefix, sweep_rows *rows, char *err,
                        size_t errcap)
{
    char *path = path_join(dir, "manifest.jsonl");
    size_t len;
    char *text = path ? cli_read_file(path, &len) : NULL;
    free(path);
    if (!text) {
        snprintf(err, errcap, "cannot read %s/manifest.jsonl", dir);
        return -1;
    }
    text[len] = 0; /* cli_read_file leaves room: it stops when a read comes up short */
    int rc = 1;
    for (char *line = text, *end = text + len; rc == 1 && line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (nl)
            *nl = 0;
        if (*line) {
            sweep_row *r = sweep_rows_push(rows);
            rc = r ? read_row(line, prefix, r) : -1;
            if (rc == 0)
                snprintf(err, errcap, "%s/manifest.jsonl: bad line '%.60s'", dir, line);
        }
        line = nl ? nl + 1 : end;
    }
    if (rc == -1)
        snprintf(err, errcap, "out of memory");
    free(text);
    return rc == 1 ? 0 : -1;
}
