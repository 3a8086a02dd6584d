/* toggle sweep-merge: join the manifests of the parts of a sharded sweep
 * (toggle sweep --shard) into one manifest and gallery. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "path.h"
#include "sweep_gallery.h"
#include "sweep_manifest.h"
#include "sweep_row.h"

static const char merge_usage[] =
    "usage: toggle sweep-merge [--out DIR] DIR...\n"
    "\n"
    "Join the manifests of the parts of a sharded sweep and write one manifest\n"
    "and gallery into --out (default: the first DIR). Pictures stay where they\n"
    "are; the gallery links them by relative path.\n"
    "\n"
    "  --out DIR          where the merged manifest and gallery go\n"
    "  -h, --help         this help\n";

/* Add the rows of part `dir`, their pictures linked from directory aout
 * (absolute); prints the reason and returns 1 when it fails. */
static int read_part(const char *aout, const char *dir, sweep_rows *rows)
{
    char *ad = path_absolute(dir);
    char *rel = ad ? path_relative(aout, ad) : NULL;
    char err[512];
    int rc = 0;
    if (!rel)
        rc = cli_fail("sweep-merge", "cannot open '%s'", dir);
    else if (sweep_manifest_read(dir, strcmp(rel, ".") ? rel : "", rows, err, sizeof err))
        rc = cli_fail("sweep-merge", "%s", err);
    free(ad);
    free(rel);
    return rc;
}

int cmd_sweep_merge(int argc, char **argv)
{
    const char *out = NULL, *val;
    const char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
    size_t ndirs = 0;
    if (!dirs)
        return cli_nomem("sweep-merge");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(merge_usage, stdout);
            free(dirs);
            return 0;
        } else if (cli_opt(argc, argv, &i, "--out", &val) && val) {
            out = val;
        } else if (argv[i][0] == '-') {
            free(dirs);
            return cli_usage("sweep-merge", "bad argument '%s' (see toggle sweep-merge --help)",
                            argv[i]);
        } else {
            dirs[ndirs++] = argv[i];
        }
    }
    if (ndirs == 0) {
        free(dirs);
        return cli_usage("sweep-merge", "need at least one sweep directory");
    }
    if (!out)
        out = dirs[0];
    int status = 0;
    sweep_rows rows = {0};
    char *aout = NULL;
    if (path_mkdirs(out) || !(aout = path_absolute(out)))
        status = cli_fail("sweep-merge", "cannot create '%s'", out);
    for (size_t d = 0; !status && d < ndirs; d++)
        status = read_part(aout, dirs[d], &rows);
    /* the same board from two parts (or a re-run merge) counts once */
    if (!status && sweep_rows_sort_unique(&rows))
        status = cli_nomem("sweep-merge");
    if (!status && (sweep_manifest_write(out, &rows) || sweep_gallery_write(out, &rows, 0)))
        status = cli_fail("sweep-merge", "cannot write the manifest or gallery in '%s'", out);
    sweep_rows_free(&rows);
    free(aout);
    free(dirs);
    return status;
}
