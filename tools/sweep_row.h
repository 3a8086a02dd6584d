/* The sweep's results: one row per board, as the manifest and gallery list
 * them, and the list of rows. */
#ifndef TOGGLE_TOOLS_SWEEP_ROW_H
#define TOGGLE_TOOLS_SWEEP_ROW_H

#include <stddef.h>
#include <stdint.h>

/* One board of the sweep: n x n over F_p. */
typedef struct {
    size_t n;
    uint64_t p;
    size_t nullity, pressed;
    int solvable;
    uint32_t sym; /* symmetry mask of the canonical solution (when solvable) */
    char solutions[192];
    size_t nimg, img_cap;
    char **img_map, **img_path; /* nimg colour map names and picture paths */
    int pending; /* the sweep has not finished this board (yet) */
} sweep_row;

/* Rows in a growable array. */
typedef struct {
    sweep_row *v;
    size_t n, cap;
} sweep_rows;

/* List a picture of the row (copies both strings); 0 or -1 (out of memory). */
int sweep_row_add_image(sweep_row *r, const char *map, const char *path);
/* The path of the row's picture in colour map `map`, or "" when it has none. */
const char *sweep_row_image(const sweep_row *r, const char *map);
/* The name of the row's symmetry class, or "n/a" when unsolvable. */
const char *sweep_row_symmetry(const sweep_row *r);

/* A new zeroed row at the end, or NULL (out of memory). */
sweep_row *sweep_rows_push(sweep_rows *rows);
/* Sort by (n, p) and keep one row per board: of rows for the same board the
 * first in the array. 0 or -1 (out of memory; the rows are left as they were). */
int sweep_rows_sort_unique(sweep_rows *rows);
/* Every colour map any row has a picture in, in first-seen order: a malloc'd
 * array of *count borrowed names, or NULL (out of memory). */
const char **sweep_rows_maps(const sweep_rows *rows, size_t *count);
/* Drop the rows still pending (an interrupted sweep's unfinished boards),
 * keeping the order of the others. */
void sweep_rows_drop_pending(sweep_rows *rows);
/* Free the rows and their pictures' names; *rows becomes empty. */
void sweep_rows_free(sweep_rows *rows);

#endif
