/* lib/graph: the layout of toggle_graph and the column access every engine
 * uses to read A from a graph. Never installed. */
#ifndef TOGGLE_GRAPH_INTERNAL_H
#define TOGGLE_GRAPH_INTERNAL_H

#include "core.h"

struct toggle_graph {
    atomic_size_t refs;
    int kind;
    uint32_t flags;
    size_t n, rows, cols;
    /* GRID and STENCIL: pressing (r, c) of parity q adds w[s] to
     * (r + dr[s], c + dc[s]) for s in [q nst, (q + 1) nst), wrapped by the
     * flags (offsets reaching one cell add up). npar parity classes: 1, or 2
     * for the hex (q = r & 1) and tri (q = (r + c) & 1) lattices. */
    size_t nst, npar;
    int64_t *dr, *dc;
    uint64_t *w;
    /* MATRIX: column j's nonzeros are rowidx/val[colptr[j] .. colptr[j+1]). */
    size_t *colptr, *rowidx;
    uint64_t *val;
};

/* Largest number of nonzeros in one column of A. */
size_t toggle__graph_max_column(const toggle_graph *g);
/* Nonzeros of column j (cells changed by pressing j), duplicates merged,
 * unreduced weights, in ascending cell order. idx/val hold at least
 * toggle__graph_max_column(g) entries. Returns the count. */
size_t toggle__graph_column(const toggle_graph *g, size_t j, size_t *idx, uint64_t *val);
toggle_graph *toggle__graph_ref(const toggle_graph *g);

/* A buffer large enough for any column of a graph (toggle__graph_column). */
typedef struct toggle__colbuf {
    size_t *idx;
    uint64_t *val;
} toggle__colbuf;
/* TOGGLE_OK, or TOGGLE_ENOMEM with a message (nothing left allocated). */
int toggle__colbuf_init(toggle__colbuf *cb, const toggle_graph *g);
void toggle__colbuf_clear(toggle__colbuf *cb);

#endif
