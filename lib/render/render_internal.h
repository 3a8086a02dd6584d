/* lib/render internals: the colour map tables (colormaps.c is generated). */
#ifndef TOGGLE_RENDER_INTERNAL_H
#define TOGGLE_RENDER_INTERNAL_H

#include "solution/solution_internal.h"

typedef struct toggle__colormap {
    const char *name;
    int qualitative;           /* 1: a list of n colours, value v -> v mod n */
    int cyclic;                /* 1: the ends meet (twilight, hsv): v of k sits at v / k */
    size_t n;                  /* 256 for continuous maps */
    const uint8_t (*rgb)[3];
} toggle__colormap;

extern const toggle__colormap toggle__colormaps[];
extern const size_t toggle__colormap_count;

/* Where board symmetry bit b (0..7, the TOGGLE_SYM_* bits of symmetry.h)
 * sends cell (r, c) of an R x C board (bits 1, 3, 6, 7 need R == C). */
size_t toggle__sym_dest(int b, size_t r, size_t c, size_t R, size_t C);

/* The peak bytes toggle_render (len: the caller's buffer; 0 for a size
 * query or toggle_render_file) allocates for a rows x cols board: its
 * one estimate, checked against the default memory budget before any
 * work. */
int toggle__render_estimate(const toggle_render_opts *opts, int format, size_t rows,
                            size_t cols, uint64_t k, size_t len, uint64_t *bytes);

#endif
