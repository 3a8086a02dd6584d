/* The sweep's manifest: DIR/manifest.csv and DIR/manifest.jsonl, written from
 * the rows, and manifest.jsonl read back (by sweep-merge). */
#ifndef TOGGLE_TOOLS_SWEEP_MANIFEST_H
#define TOGGLE_TOOLS_SWEEP_MANIFEST_H

#include <stddef.h>

#include "sweep_row.h"

/* Write DIR/manifest.csv and DIR/manifest.jsonl; 0 or -1. */
int sweep_manifest_write(const char *dir, const sweep_rows *rows);
/* Append the rows of DIR/manifest.jsonl to *rows, each picture path put under
 * `prefix` ("" for none). 0, or -1 with the reason in err. */
int sweep_manifest_read(const char *dir, const char *prefix, sweep_rows *rows, char *err,
                        size_t errcap);

#endif
