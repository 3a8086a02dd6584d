/* The sweep's results (sweep_row.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include <toggle.h>

#include "sweep_row.h"

int sweep_row_add_image(sweep_row *r, const char *map, const char *path)
{
    if (r->nimg == r->img_cap) {
        size_t cap = r->img_cap ? r->img_cap * 2 : 8;
        char **m = realloc(r->img_map, cap * sizeof *m);
        if (m)
            r->img_map = m;
        char **p = realloc(r->img_path, cap * sizeof *p);
        if (p)
            r->img_path = p;
        if (!m || !p)
            return -1;
        r->img_cap = cap;
    }
    char *m = strdup(map), *p = strdup(path);
    if (!m || !p) {
        free(m);
        free(p);
        return -1;
    }
    r->img_map[r->nimg] = m;
    r->img_path[r->nimg++] = p;
    return 0;
}

const char *sweep_row_image(const sweep_row *r, const char *map)
{
    for (size_t j = 0; j < r->nimg; j++)
        if (!strcmp(r->img_map[j], map))
            return r->img_path[j];
    return "";
}

const char *sweep_row_symmetry(const sweep_row *r)
{
    const char *s = r->solvable ? toggle_symmetry_name(r->sym) : NULL;
    return s ? s : "n/a";
}

static void row_clear(sweep_row *r)
{
    for (size_t j = 0; j < r->nimg; j++) {
        free(r->img_map[j]);
        free(r->img_path[j]);
    }
    free(r->img_map);
    free(r->img_path);
    memset(r, 0, sizeof *r);
}

sweep_row *sweep_rows_push(sweep_rows *rows)
{
    if (rows->n == rows->cap) {
        size_t cap = rows->cap ? rows->cap * 2 : 256;
        sweep_row *v = realloc(rows->v, cap * sizeof *v);
        if (!v)
            return NULL;
        rows->v = v;
        rows->cap = cap;
    }
    sweep_row *r = &rows->v[rows->n++];
    memset(r, 0, sizeof *r);
    return r;
}

static int cmp_board(const sweep_row *x, const sweep_row *y)
{
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    return (x->p > y->p) - (x->p < y->p);
}

/* By board, then by place in the array: a stable order for qsort. */
static int cmp_row_ptr(const void *a, const void *b)
{
    const sweep_row *x = *(const sweep_row *const *)a, *y = *(const sweep_row *const *)b;
    int c = cmp_board(x, y);
    return c ? c : (x > y) - (x < y);
}

int sweep_rows_sort_unique(sweep_rows *rows)
{
    size_t cap = rows->n ? rows->n : 1;
    sweep_row **order = malloc(cap * sizeof *order);
    sweep_row *sorted = malloc(cap * sizeof *sorted);
    if (!order || !sorted) {
        free(order);
        free(sorted);
        return -1;
    }
    for (size_t i = 0; i < rows->n; i++)
        order[i] = &rows->v[i];
    qsort(order, rows->n, sizeof *order, cmp_row_ptr);
    size_t m = 0;
    for (size_t i = 0; i < rows->n; i++) {
        if (m && !cmp_board(&sorted[m - 1], order[i]))
            row_clear(order[i]);
        else
            sorted[m++] = *order[i];
    }
    free(order);
    free(rows->v);
    rows->v = sorted;
    rows->n = m;
    rows->cap = cap;
    return 0;
}

const char **sweep_rows_maps(const sweep_rows *rows, size_t *count)
{
    size_t cap = 1;
    for (size_t i = 0; i < rows->n; i++)
        cap += rows->v[i].nimg;
    const char **names = malloc(cap * sizeof *names);
    size_t c = 0;
    for (size_t i = 0; names && i < rows->n; i++)
        for (size_t j = 0; j < rows->v[i].nimg; j++) {
            const char *map = rows->v[i].img_map[j];
            size_t k = 0;
            while (k < c && strcmp(names[k], map))
                k++;
            if (k == c)
                names[c++] = map;
        }
    *count = c;
    return names;
}

void sweep_rows_drop_pending(sweep_rows *rows)
{
    size_t k = 0;
    for (size_t i = 0; i < rows->n; i++) {
        if (rows->v[i].pending)
            row_clear(&rows->v[i]);
        else
            rows->v[k++] = rows->v[i];
    }
    rows->n = k;
}

void sweep_rows_free(sweep_rows *rows)
{
    for (size_t i = 0; i < rows->n; i++)
        row_clear(&rows->v[i]);
    free(rows->v);
    memset(rows, 0, sizeof *rows);
}
