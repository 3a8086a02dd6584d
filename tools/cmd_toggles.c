/* toggle render --system FILE --toggles: each cell's toggle pattern (column j
 * of A: the cells pressing j changes) as a small board, the small boards laid
 * out as the board itself, one blank cell between them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

/* The board's shape: --shape, else the "# board RxC" line toggle generate
 * --chaos writes, else a square, else one row. */
static int board_shape(const char *shape, const char *text, size_t n, size_t *rows, size_t *cols)
{
    if (shape)
        return cli_parse_shape(shape, rows, cols) ? cli_usage("--shape", "expected RxC") : 0;
    const char *p = strstr(text, "# board ");
    char buf[64];
    if (p && sscanf(p + 8, "%63[0-9x]", buf) == 1 && !cli_parse_shape(buf, rows, cols)
        && *rows * *cols == n)
        return 0;
    size_t r = 1;
    while ((r + 1) * (r + 1) <= n)
        r++;
    *rows = r * r == n ? r : 1;
    *cols = r * r == n ? r : n;
    return 0;
}

uint64_t *cli_toggle_picture(const char *path, uint64_t k, const char *shape, size_t *prow,
                             size_t *pcol)
{
    size_t len, rows, cols;
    char *text = cli_read_file(path, &len);
    if (!text) {
        cli_fail("render", "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    toggle_system *s = NULL;
    int rc = toggle_system_parse(&s, text, len, k);
    size_t n = toggle_system_cols(s);
    if (rc || board_shape(shape, text, n, &rows, &cols)) {
        if (rc)
            cli_status(path, rc);
        free(text);
        toggle_system_free(s);
        return NULL;
    }
    free(text);
    if (rows * cols != n || toggle_system_rows(s) != n) {
        cli_fail("render", "the system is %zu x %zu, not the square matrix of a %zux%zu board",
                 toggle_system_rows(s), n, rows, cols);
        toggle_system_free(s);
        return NULL;
    }
    size_t W = cols * (cols + 1) - 1, H = rows * (rows + 1) - 1;
    uint64_t *pic = calloc(W && H ? W * H : 1, sizeof *pic);
    for (size_t j = 0; pic && j < n; j++) { /* tile of pressed cell j */
        size_t top = (j / cols) * (rows + 1), left = (j % cols) * (cols + 1);
        for (size_t i = 0; i < n; i++)
            toggle_system_entry(s, i, j, &pic[(top + i / cols) * W + left + i % cols]);
    }
    toggle_system_free(s);
    if (!pic)
        cli_nomem("render");
    *prow = H;
    *pcol = W;
    return pic;
}
