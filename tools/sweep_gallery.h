/* The sweep's gallery: DIR/index.html, one static page with every picture and
 * filters. The page's HTML, CSS and JS are tools/gallery/, built in. */
#ifndef TOGGLE_TOOLS_SWEEP_GALLERY_H
#define TOGGLE_TOOLS_SWEEP_GALLERY_H

#include "sweep_row.h"

/* Write DIR/index.html for the rows (picture paths relative to DIR); 0 or -1.
 * site (toggle web): one card per board in a chosen map, the interesting
 * boards first, the module loaded for the detail view, links to play.html. */
int sweep_gallery_write(const char *dir, const sweep_rows *rows, int site);

#endif
