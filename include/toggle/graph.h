/* libtoggle: toggle graphs, the matrix A of a puzzle (what each press changes). */
#ifndef TOGGLE_GRAPH_H
#define TOGGLE_GRAPH_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file graph.h
 *  @brief Toggle graphs: N cells and the toggle matrix A.
 *
 *  A[i][j] is what pressing cell j adds to cell i. Grid cells are numbered
 *  row-major: cell (r, c) is r * cols + c. A graph does not know a modulus;
 *  its weights are reduced modulo k when a system is built from it. */

/** Opaque handle to a toggle graph. Immutable once built, so one graph may
 *  be shared read-only by any number of threads and systems. */
typedef struct toggle_graph toggle_graph;

/** Flags for the grid and graph constructors (bitwise OR). */
enum {
    TOGGLE_GRID_CLASSIC = 0,   /**< self plus up, down, left, right */
    TOGGLE_GRID_NO_SELF = 1,   /**< pressing a cell leaves the cell itself alone */
    TOGGLE_GRID_TORUS = 2,     /**< wrap around the edges */
    TOGGLE_GRID_MOORE = 4,     /**< 8 neighbours (adds the diagonals); square lattice only */
    TOGGLE_GRID_CYLINDER = 8,  /**< wrap left-right only (the last column touches the first) */
    TOGGLE_GRID_HEX = 16,      /**< hexagonal lattice, "odd-r" offset rows (docs/lattices.md) */
    TOGGLE_GRID_TRI = 32       /**< triangular lattice, (r + c) even points up (docs/lattices.md) */
};

/** Flag for toggle_graph_new_adjacency() and toggle_graph_new_edges(). */
enum {
    TOGGLE_GRAPH_NO_SELF = 1   /**< do not put the identity on the diagonal */
};

/** Kinds of graph, as reported by toggle_graph_kind(). */
enum {
    TOGGLE_KIND_GRID = 1,      /**< grid built by toggle_graph_new_grid() */
    TOGGLE_KIND_STENCIL = 2,   /**< grid built by toggle_graph_new_stencil() */
    TOGGLE_KIND_MATRIX = 3     /**< graph or toggle matrix stored sparsely */
};

/** Build a rows x cols grid.
 *
 *  Lattices (docs/lattices.md has the pictures): square (default; 4
 *  neighbours, 8 with TOGGLE_GRID_MOORE), TOGGLE_GRID_HEX (odd rows shifted
 *  right by half a cell: (r, c) touches (r, c +- 1) and, on even r,
 *  (r +- 1, c - 1), (r +- 1, c); on odd r, (r +- 1, c), (r +- 1, c + 1)) and
 *  TOGGLE_GRID_TRI ((r, c) points up when r + c is even and touches
 *  (r, c +- 1) and (r + 1, c); pointing down it touches (r, c +- 1) and
 *  (r - 1, c)). Each cell also touches itself unless TOGGLE_GRID_NO_SELF.
 *  TOGGLE_GRID_TORUS wraps both directions, TOGGLE_GRID_CYLINDER the columns
 *  only: the last row (column) touches the first. Every listed neighbour,
 *  after wrapping, adds 1: on a board 1 or 2 cells wide a neighbour reached
 *  twice counts twice (and a wrap onto the cell itself adds to it).
 *  @param out    receives the new graph (caller frees with toggle_graph_free())
 *  @param rows   number of rows, >= 1
 *  @param cols   number of columns, >= 1
 *  @param flags  OR of TOGGLE_GRID_NO_SELF, TOGGLE_GRID_TORUS or
 *                TOGGLE_GRID_CYLINDER, and TOGGLE_GRID_MOORE or
 *                TOGGLE_GRID_HEX or TOGGLE_GRID_TRI
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL out, zero size, unknown flag,
 *          both wraps, more than one of MOORE, HEX, TRI),
 *          TOGGLE_EOVERFLOW (rows * cols overflows), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_graph_new_grid(toggle_graph **out, size_t rows, size_t cols,
                                     uint32_t flags);

/** Build a grid whose press pattern is an arbitrary stencil: pressing (r, c)
 *  adds weight[s] to cell (r + drow[s], c + dcol[s]) for each s < count.
 *  Offsets that leave the board are dropped unless TOGGLE_GRID_TORUS (both
 *  directions) or TOGGLE_GRID_CYLINDER (columns only) wraps them. Repeated
 *  offsets add up. A weight of 0 is allowed.
 *  @param out    receives the new graph (caller frees with toggle_graph_free())
 *  @param rows   number of rows, >= 1
 *  @param cols   number of columns, >= 1
 *  @param drow   count row offsets
 *  @param dcol   count column offsets
 *  @param weight count weights (what the press adds at each offset)
 *  @param count  number of stencil entries, >= 1
 *  @param flags  0, TOGGLE_GRID_TORUS or TOGGLE_GRID_CYLINDER
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL pointer, zero size or count,
 *          unknown flag, both wraps), TOGGLE_ERANGE (an offset's magnitude >= the board
 *          size in that direction), TOGGLE_EOVERFLOW (rows * cols overflows,
 *          or weights that reach the same cell add up past 2^64 - 1),
 *          TOGGLE_ENOMEM. */
TOGGLE_API int toggle_graph_new_stencil(toggle_graph **out, size_t rows, size_t cols,
                                        const int64_t *drow, const int64_t *dcol,
                                        const uint64_t *weight, size_t count,
                                        uint32_t flags);

/** Build an undirected graph from a dense n x n adjacency matrix (row-major,
 *  entries 0 or 1, symmetric, diagonal ignored). Pressing node j toggles j
 *  (unless TOGGLE_GRAPH_NO_SELF) and each neighbour.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL, n == 0, entry not 0/1, matrix not
 *          symmetric, unknown flag), TOGGLE_EOVERFLOW, TOGGLE_ENOMEM. */
TOGGLE_API int toggle_graph_new_adjacency(toggle_graph **out, size_t n,
                                          const uint8_t *adjacency, uint32_t flags);

/** Build an undirected graph on n nodes from an edge list: edges[2e] and
 *  edges[2e + 1] are the ends of edge e. Self-loops are rejected; repeated
 *  edges count once.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL out, n == 0, NULL edges with
 *          count > 0, self-loop, unknown flag), TOGGLE_ERANGE (node >= n),
 *          TOGGLE_EOVERFLOW, TOGGLE_ENOMEM. */
TOGGLE_API int toggle_graph_new_edges(toggle_graph **out, size_t n, const size_t *edges,
                                      size_t edge_count, uint32_t flags);

/** Parse an edge list: one edge "u v" (0-based node numbers) per line,
 *  '#' starts a comment, blank lines are ignored, and an optional first
 *  line "nodes N" fixes the node count (else it is the largest node + 1).
 *  @param out   receives the new graph (caller frees with toggle_graph_free())
 *  @param text  the text, len bytes (need not be NUL-terminated)
 *  @param len   length of text in bytes
 *  @param flags 0 or TOGGLE_GRAPH_NO_SELF
 *  @return as toggle_graph_new_edges(), or TOGGLE_EPARSE with the line number
 *          in toggle_last_error(). */
TOGGLE_API int toggle_graph_parse_edges(toggle_graph **out, const char *text, size_t len,
                                        uint32_t flags);

/** Build an arbitrary (directed) toggle matrix: a is n x n row-major and
 *  a[i * n + j] is what pressing j adds to cell i. Values are reduced modulo
 *  the modulus of each system built from the graph.
 *  @return TOGGLE_OK, TOGGLE_EINVAL, TOGGLE_EOVERFLOW, TOGGLE_ENOMEM. */
TOGGLE_API int toggle_graph_new_matrix(toggle_graph **out, size_t n, const uint64_t *a);

/** Free a graph. NULL is a no-op. Systems built from it stay valid (they
 *  hold their own reference). */
TOGGLE_API void toggle_graph_free(toggle_graph *graph);

/** Number of cells N (0 for NULL). */
TOGGLE_API size_t toggle_graph_cells(const toggle_graph *graph);

/** The kind of graph (TOGGLE_KIND_*), or 0 for NULL. */
TOGGLE_API int toggle_graph_kind(const toggle_graph *graph);

/** The flags the graph was built with (0 for NULL). */
TOGGLE_API uint32_t toggle_graph_flags(const toggle_graph *graph);

/** Shape of a grid graph.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL argument, or the graph is not a grid). */
TOGGLE_API int toggle_graph_grid_shape(const toggle_graph *graph, size_t *rows,
                                       size_t *cols);

/** One entry of A: what pressing cell j adds to cell i (not reduced).
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL), TOGGLE_ERANGE (i or j >= N). */
TOGGLE_API int toggle_graph_entry(const toggle_graph *graph, size_t i, size_t j,
                                  uint64_t *value);

#ifdef __cplusplus
}
#endif
#endif
