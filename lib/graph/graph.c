/* Toggle graphs: grids and stencils kept implicit, other graphs as sparse columns. */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

static int graph_alloc(toggle_graph **out, int kind, uint32_t flags, size_t n)
{
    toggle_graph *g;
    TOGGLE__NEW_HANDLE(g, "a graph");
    atomic_init(&g->refs, 1);
    g->kind = kind;
    g->flags = flags;
    g->n = n;
    *out = g;
    return TOGGLE_OK;
}

void toggle_graph_free(toggle_graph *g)
{
    if (!g)
        return;
    if (atomic_fetch_sub(&g->refs, 1) != 1)
        return;
    TOGGLE__FREE_ALL(g->dr, g->dc, g->w, g->colptr, g->rowidx, g->val, g);
}

toggle_graph *toggle__graph_ref(const toggle_graph *g)
{
    toggle_graph *mut = (toggle_graph *)g;
    atomic_fetch_add(&mut->refs, 1);
    return mut;
}

static int check_shape(toggle_graph **out, size_t rows, size_t cols, size_t *n)
{
    if (!out)
        return toggle__error(TOGGLE_EINVAL, "out is NULL");
    if (rows == 0 || cols == 0)
        return toggle__error(TOGGLE_EINVAL, "grid shape %zu x %zu has no cells", rows, cols);
    if (!toggle__mul_ok(rows, cols, n))
        return toggle__error(TOGGLE_EOVERFLOW, "grid shape %zu x %zu overflows size_t",
                             rows, cols);
    return TOGGLE_OK;
}

/* A board graph (grid or stencil) of rows x cols = n cells whose stencil
 * has npar parity classes of count offsets each (zeroed, to be filled). */
static int board_alloc(toggle_graph **out, int kind, uint32_t flags, size_t rows, size_t cols,
                       size_t n, size_t npar, size_t count)
{
    toggle_graph *g = NULL;
    int rc = graph_alloc(&g, kind, flags, n);
    if (rc)
        return rc;
    g->rows = rows;
    g->cols = cols;
    g->nst = count;
    g->npar = npar;
    g->dr = toggle__calloc(npar * count, sizeof *g->dr);
    g->dc = toggle__calloc(npar * count, sizeof *g->dc);
    g->w = toggle__calloc(npar * count, sizeof *g->w);
    if (!g->dr || !g->dc || !g->w) {
        toggle_graph_free(g);
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating a stencil");
    }
    *out = g;
    return TOGGLE_OK;
}

#define GRID_WRAPS (TOGGLE_GRID_TORUS | TOGGLE_GRID_CYLINDER)
#define GRID_LATTICES (TOGGLE_GRID_MOORE | TOGGLE_GRID_HEX | TOGGLE_GRID_TRI)

/* The neighbour offsets of the lattices (docs/lattices.md), before wrapping:
 * a cell of parity q (hex: r & 1, tri: (r + c) & 1, square: 0) touches
 * (r + dr, c + dc) for each listed offset. */
static const int8_t square_nbr[8][2] = {{-1, 0}, {0, -1}, {0, 1}, {1, 0},
                                        {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
static const int8_t hex_nbr[2][6][2] = {
    {{0, -1}, {0, 1}, {-1, -1}, {-1, 0}, {1, -1}, {1, 0}}, /* even rows */
    {{0, -1}, {0, 1}, {-1, 0}, {-1, 1}, {1, 0}, {1, 1}},   /* odd rows */
};
static const int8_t tri_nbr[2][3][2] = {
    {{0, -1}, {0, 1}, {1, 0}},  /* r + c even: pointing up */
    {{0, -1}, {0, 1}, {-1, 0}}, /* r + c odd: pointing down */
};

int toggle_graph_new_grid(toggle_graph **out, size_t rows, size_t cols, uint32_t flags)
{
    size_t n;
    int rc = check_shape(out, rows, cols, &n);
    if (rc)
        return rc;
    if (flags & ~(uint32_t)(TOGGLE_GRID_NO_SELF | GRID_WRAPS | GRID_LATTICES))
        return toggle__error(TOGGLE_EINVAL, "unknown grid flags 0x%x", (unsigned)flags);
    if ((flags & GRID_WRAPS) == GRID_WRAPS)
        return toggle__error(TOGGLE_EINVAL, "grid flags 0x%x: TORUS and CYLINDER exclude each "
                             "other (a torus wraps both directions)", (unsigned)flags);
    uint32_t lat = flags & GRID_LATTICES;
    if (lat & (lat - 1))
        return toggle__error(TOGGLE_EINVAL, "grid flags 0x%x: at most one of MOORE, HEX and TRI",
                             (unsigned)flags);
    if (rows > INT64_MAX || cols > INT64_MAX)
        return toggle__error(TOGGLE_ERANGE, "grid shape %zu x %zu too large", rows, cols);

    /* Every parity class lists the same number of offsets (self first). */
    size_t npar = (lat & (TOGGLE_GRID_HEX | TOGGLE_GRID_TRI)) ? 2 : 1;
    size_t nn = (lat & TOGGLE_GRID_MOORE) ? 8 : (lat & TOGGLE_GRID_HEX) ? 6
              : (lat & TOGGLE_GRID_TRI) ? 3 : 4;
    size_t self = (flags & TOGGLE_GRID_NO_SELF) ? 0 : 1, count = self + nn;
    toggle_graph *g = NULL;
    if ((rc = board_alloc(&g, TOGGLE_KIND_GRID, flags, rows, cols, n, npar, count)))
        return rc;
    for (size_t q = 0; q < npar; q++) {
        int64_t *dr = g->dr + q * count, *dc = g->dc + q * count;
        uint64_t *w = g->w + q * count;
        size_t t = 0;
        if (self) {
            dr[t] = dc[t] = 0;
            w[t++] = 1;
        }
        for (size_t s = 0; s < nn; s++, t++) {
            const int8_t *o = (lat & TOGGLE_GRID_HEX) ? hex_nbr[q][s]
                            : (lat & TOGGLE_GRID_TRI) ? tri_nbr[q][s] : square_nbr[s];
            dr[t] = o[0];
            dc[t] = o[1];
            w[t] = 1;
        }
    }
    *out = g;
    return TOGGLE_OK;
}

/* One stencil entry with its offset normalised to the cell it reaches
 * (on a torus, offsets equal modulo the board reach the same cell). */
typedef struct stencil_key {
    int64_t r, c;
    uint64_t w;
} stencil_key;

static int stencil_key_cmp(const void *a, const void *b)
{
    const stencil_key *x = a, *y = b;
    return TOGGLE__CMP2(x->r, y->r, x->c, y->c);
}

/* Entries reaching the same cell add up in one unreduced entry of A
 * (toggle__graph_column(), toggle_graph_entry()); a sum past 64 bits would
 * wrap and then be reduced wrongly modulo k, so refuse such a stencil. */
static int stencil_check_sums(size_t rows, size_t cols, const int64_t *drow,
                              const int64_t *dcol, const uint64_t *weight, size_t count,
                              bool wrap_rows, bool wrap_cols)
{
    uint64_t total = 0;
    size_t s = 0;
    for (; s < count && total <= UINT64_MAX - weight[s]; s++)
        total += weight[s];
    if (s == count)
        return TOGGLE_OK; /* even all of them together fit */
    stencil_key *k = toggle__malloc_array(count, sizeof *k);
    if (!k)
        return toggle__error(TOGGLE_ENOMEM, "out of memory checking %zu stencil entries", count);
    for (s = 0; s < count; s++) {
        k[s].r = wrap_rows ? ((drow[s] % (int64_t)rows) + (int64_t)rows) % (int64_t)rows : drow[s];
        k[s].c = wrap_cols ? ((dcol[s] % (int64_t)cols) + (int64_t)cols) % (int64_t)cols : dcol[s];
        k[s].w = weight[s];
    }
    qsort(k, count, sizeof *k, stencil_key_cmp);
    int rc = TOGGLE_OK;
    for (s = 0; s < count && !rc; s++) {
        uint64_t sum = k[s].w;
        for (; s + 1 < count && !stencil_key_cmp(&k[s], &k[s + 1]); s++) {
            if (sum > UINT64_MAX - k[s + 1].w) {
                rc = toggle__error(TOGGLE_EOVERFLOW, "stencil weights at offset (%lld, %lld) "
                                   "add up past 2^64", (long long)k[s].r, (long long)k[s].c);
                break;
            }
            sum += k[s + 1].w;
        }
    }
    toggle__free(k);
    return rc;
}

int toggle_graph_new_stencil(toggle_graph **out, size_t rows, size_t cols,
                             const int64_t *drow, const int64_t *dcol,
                             const uint64_t *weight, size_t count, uint32_t flags)
{
    size_t n;
    int rc = check_shape(out, rows, cols, &n);
    if (rc)
        return rc;
    if (!drow || !dcol || !weight)
        return toggle__error(TOGGLE_EINVAL, "stencil arrays must not be NULL");
    if (count == 0)
        return toggle__error(TOGGLE_EINVAL, "stencil has no entries");
    if (flags & ~(uint32_t)GRID_WRAPS)
        return toggle__error(TOGGLE_EINVAL, "unknown stencil flags 0x%x", (unsigned)flags);
    if ((flags & GRID_WRAPS) == GRID_WRAPS)
        return toggle__error(TOGGLE_EINVAL, "stencil flags 0x%x: TORUS and CYLINDER exclude "
                             "each other (a torus wraps both directions)", (unsigned)flags);
    for (size_t s = 0; s < count; s++) {
        uint64_t ar = drow[s] < 0 ? 0 - (uint64_t)drow[s] : (uint64_t)drow[s];
        uint64_t ac = dcol[s] < 0 ? 0 - (uint64_t)dcol[s] : (uint64_t)dcol[s];
        if (ar >= rows || ac >= cols)
            return toggle__error(TOGGLE_ERANGE,
                                 "stencil entry %zu offset (%lld, %lld) does not fit a %zu x %zu board",
                                 s, (long long)drow[s], (long long)dcol[s], rows, cols);
    }
    if ((rc = stencil_check_sums(rows, cols, drow, dcol, weight, count,
                                 flags & TOGGLE_GRID_TORUS, flags & GRID_WRAPS)))
        return rc;
    toggle_graph *g = NULL;
    if ((rc = board_alloc(&g, TOGGLE_KIND_STENCIL, flags, rows, cols, n, 1, count)))
        return rc;
    memcpy(g->dr, drow, count * sizeof *drow);
    memcpy(g->dc, dcol, count * sizeof *dcol);
    memcpy(g->w, weight, count * sizeof *weight);
    *out = g;
    return TOGGLE_OK;
}

/* Build a MATRIX graph from a column count array already filled:
 * colptr has n + 1 entries (prefix sums computed here). */
static int sparse_alloc(toggle_graph *g, size_t nnz)
{
    /* A graph has no system (and so no budget option) yet: hold it to the
     * default budget, so that a short text ("nodes 10^15") cannot ask for
     * petabytes. Checked before anything is allocated. */
    unsigned __int128 bytes = ((unsigned __int128)g->n + 1) * sizeof *g->colptr
                            + (unsigned __int128)nnz * (sizeof *g->rowidx + sizeof *g->val);
    if (bytes > TOGGLE_DEFAULT_MEMORY_BUDGET)
        return toggle__error(TOGGLE_ENOMEM, "a graph of %zu nodes and %zu entries needs more "
                             "than the default memory budget of %llu bytes", g->n, nnz,
                             (unsigned long long)TOGGLE_DEFAULT_MEMORY_BUDGET);
    g->colptr = toggle__calloc(g->n + 1, sizeof *g->colptr);
    g->rowidx = toggle__calloc(nnz ? nnz : 1, sizeof *g->rowidx);
    g->val = toggle__calloc(nnz ? nnz : 1, sizeof *g->val);
    if (!g->colptr || !g->rowidx || !g->val)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating %zu graph entries", nnz);
    return TOGGLE_OK;
}

int toggle_graph_new_matrix(toggle_graph **out, size_t n, const uint64_t *a)
{
    size_t nn;
    if (!out || !a)
        return toggle__error(TOGGLE_EINVAL, "out and a must not be NULL");
    if (n == 0)
        return toggle__error(TOGGLE_EINVAL, "a toggle matrix needs at least one cell");
    if (!toggle__mul_ok(n, n, &nn) || nn > SIZE_MAX / sizeof(uint64_t))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu matrix overflows size_t", n, n);
    size_t nnz = 0;
    for (size_t i = 0; i < nn; i++)
        nnz += a[i] != 0;
    toggle_graph *g = NULL;
    int rc = graph_alloc(&g, TOGGLE_KIND_MATRIX, 0, n);
    if (rc)
        return rc;
    if ((rc = sparse_alloc(g, nnz))) {
        toggle_graph_free(g);
        return rc;
    }
    size_t p = 0;
    for (size_t j = 0; j < n; j++) {
        g->colptr[j] = p;
        for (size_t i = 0; i < n; i++) {
            if (a[i * n + j]) {
                g->rowidx[p] = i;
                g->val[p++] = a[i * n + j];
            }
        }
    }
    g->colptr[n] = p;
    *out = g;
    return TOGGLE_OK;
}

static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return (a > b) - (a < b);
}

/* Shared by the adjacency and edge-list constructors: pairs (u, v) with
 * u != v, both directions listed by the caller or not (dups are merged). */
static int build_undirected(toggle_graph **out, size_t n, size_t *pairs, size_t npairs,
                            uint32_t flags)
{
    /* pairs holds npairs (col, row) entries, both directions; sort by column
     * then row, merge duplicates, then add the diagonal. */
    size_t *order = pairs;
    qsort(order, npairs, 2 * sizeof(size_t), cmp_size); /* sorts by first key only */
    toggle_graph *g = NULL;
    int rc = graph_alloc(&g, TOGGLE_KIND_MATRIX, flags, n);
    if (rc)
        return rc;
    size_t self = (flags & TOGGLE_GRAPH_NO_SELF) ? 0 : n, cap;
    if (!toggle__add_ok(npairs, self, &cap)) {
        toggle_graph_free(g);
        return toggle__error(TOGGLE_EOVERFLOW, "graph too large");
    }
    if ((rc = sparse_alloc(g, cap))) {
        toggle_graph_free(g);
        return rc;
    }
    size_t p = 0, q = 0;
    for (size_t j = 0; j < n; j++) {
        g->colptr[j] = p;
        size_t start = p;
        if (self) {
            g->rowidx[p] = j;
            g->val[p++] = 1;
        }
        for (; q < npairs && pairs[2 * q] == j; q++)
            g->rowidx[p++] = pairs[2 * q + 1];
        /* sort this column's rows and merge repeats */
        qsort(g->rowidx + start, p - start, sizeof(size_t), cmp_size);
        size_t w = start;
        for (size_t r = start; r < p; r++) {
            if (w > start && g->rowidx[w - 1] == g->rowidx[r])
                continue;
            g->rowidx[w] = g->rowidx[r];
            g->val[w++] = 1;
        }
        p = w;
    }
    g->colptr[n] = p;
    *out = g;
    return TOGGLE_OK;
}

int toggle_graph_new_adjacency(toggle_graph **out, size_t n, const uint8_t *adj,
                               uint32_t flags)
{
    size_t nn;
    if (!out || !adj)
        return toggle__error(TOGGLE_EINVAL, "out and adjacency must not be NULL");
    if (n == 0)
        return toggle__error(TOGGLE_EINVAL, "a graph needs at least one node");
    if (flags & ~(uint32_t)TOGGLE_GRAPH_NO_SELF)
        return toggle__error(TOGGLE_EINVAL, "unknown graph flags 0x%x", (unsigned)flags);
    if (!toggle__mul_ok(n, n, &nn))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu matrix overflows size_t", n, n);
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            uint8_t v = adj[i * n + j];
            if (v > 1)
                return toggle__error(TOGGLE_EINVAL, "adjacency[%zu][%zu] = %u, expected 0 or 1",
                                     i, j, (unsigned)v);
            if (v != adj[j * n + i])
                return toggle__error(TOGGLE_EINVAL,
                                     "adjacency is not symmetric at (%zu, %zu)", i, j);
            count += (i != j && v);
        }
    }
    size_t *pairs = toggle__malloc_array(count ? 2 * count : 1, sizeof(size_t));
    if (!pairs)
        return toggle__error(TOGGLE_ENOMEM, "out of memory reading %zu edges", count / 2);
    size_t p = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j && adj[i * n + j]) {
                pairs[2 * p] = j;     /* column: pressed node */
                pairs[2 * p + 1] = i; /* row: changed node */
                p++;
            }
    int rc = build_undirected(out, n, pairs, count, flags);
    toggle__free(pairs);
    return rc;
}

int toggle_graph_new_edges(toggle_graph **out, size_t n, const size_t *edges,
                           size_t edge_count, uint32_t flags)
{
    if (!out)
        return toggle__error(TOGGLE_EINVAL, "out is NULL");
    if (n == 0)
        return toggle__error(TOGGLE_EINVAL, "a graph needs at least one node");
    if (!edges && edge_count)
        return toggle__error(TOGGLE_EINVAL, "edges is NULL but edge_count is %zu", edge_count);
    if (flags & ~(uint32_t)TOGGLE_GRAPH_NO_SELF)
        return toggle__error(TOGGLE_EINVAL, "unknown graph flags 0x%x", (unsigned)flags);
    size_t npairs;
    if (!toggle__mul_ok(edge_count, 2, &npairs) || npairs > SIZE_MAX / (2 * sizeof(size_t)))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu edges overflow size_t", edge_count);
    for (size_t e = 0; e < edge_count; e++) {
        size_t u = edges[2 * e], v = edges[2 * e + 1];
        if (u >= n || v >= n)
            return toggle__error(TOGGLE_ERANGE, "edge %zu (%zu, %zu) names a node >= %zu",
                                 e, u, v, n);
        if (u == v)
            return toggle__error(TOGGLE_EINVAL, "edge %zu is a self-loop on node %zu", e, u);
    }
    size_t *pairs = toggle__malloc_array(npairs ? 2 * npairs : 1, sizeof(size_t));
    if (!pairs)
        return toggle__error(TOGGLE_ENOMEM, "out of memory reading %zu edges", edge_count);
    for (size_t e = 0; e < edge_count; e++) {
        size_t u = edges[2 * e], v = edges[2 * e + 1];
        pairs[4 * e] = u;
        pairs[4 * e + 1] = v;
        pairs[4 * e + 2] = v;
        pairs[4 * e + 3] = u;
    }
    int rc = build_undirected(out, n, pairs, npairs, flags);
    toggle__free(pairs);
    return rc;
}

TOGGLE__GETTER(size_t, toggle_graph_cells, toggle_graph, n)
TOGGLE__GETTER(int, toggle_graph_kind, toggle_graph, kind)
TOGGLE__GETTER(uint32_t, toggle_graph_flags, toggle_graph, flags)

int toggle_graph_grid_shape(const toggle_graph *g, size_t *rows, size_t *cols)
{
    if (!g || !rows || !cols)
        return toggle__error(TOGGLE_EINVAL, "graph, rows and cols must not be NULL");
    if (g->kind == TOGGLE_KIND_MATRIX)
        return toggle__error(TOGGLE_EINVAL, "the graph is not a grid");
    *rows = g->rows;
    *cols = g->cols;
    return TOGGLE_OK;
}

int toggle__colbuf_init(toggle__colbuf *cb, const toggle_graph *g)
{
    size_t mc = toggle__graph_max_column(g);
    cb->idx = toggle__malloc_array(mc ? mc : 1, sizeof *cb->idx);
    cb->val = toggle__malloc_array(mc ? mc : 1, sizeof *cb->val);
    if (!cb->idx || !cb->val) {
        toggle__colbuf_clear(cb);
        return toggle__error(TOGGLE_ENOMEM, "out of memory reading the graph's columns");
    }
    return TOGGLE_OK;
}

void toggle__colbuf_clear(toggle__colbuf *cb)
{
    toggle__free(cb->idx);
    toggle__free(cb->val);
    cb->idx = NULL;
    cb->val = NULL;
}

size_t toggle__graph_max_column(const toggle_graph *g)
{
    if (g->kind != TOGGLE_KIND_MATRIX)
        return g->nst;
    size_t best = 0;
    for (size_t j = 0; j < g->n; j++) {
        size_t c = g->colptr[j + 1] - g->colptr[j];
        if (c > best)
            best = c;
    }
    return best;
}

static int64_t wrap(int64_t x, size_t len)
{
    int64_t l = (int64_t)len;
    return ((x % l) + l) % l;
}

size_t toggle__graph_column(const toggle_graph *g, size_t j, size_t *idx, uint64_t *val)
{
    if (g->kind == TOGGLE_KIND_MATRIX) {
        size_t c = 0;
        for (size_t p = g->colptr[j]; p < g->colptr[j + 1]; p++, c++) {
            idx[c] = g->rowidx[p];
            val[c] = g->val[p];
        }
        return c;
    }
    int64_t r = (int64_t)(j / g->cols), c = (int64_t)(j % g->cols);
    bool wrap_r = g->flags & TOGGLE_GRID_TORUS, wrap_c = g->flags & GRID_WRAPS;
    size_t count = 0, base = 0;
    if (g->kind == TOGGLE_KIND_GRID && (g->flags & TOGGLE_GRID_HEX))
        base = (size_t)(r & 1) * g->nst;
    else if (g->kind == TOGGLE_KIND_GRID && (g->flags & TOGGLE_GRID_TRI))
        base = (size_t)((r + c) & 1) * g->nst;
    for (size_t s = base; s < base + g->nst; s++) {
        int64_t rr = r + g->dr[s], cc = c + g->dc[s];
        if (wrap_r)
            rr = wrap(rr, g->rows);
        if (wrap_c)
            cc = wrap(cc, g->cols);
        if (rr < 0 || cc < 0 || rr >= (int64_t)g->rows || cc >= (int64_t)g->cols)
            continue;
        size_t cell = (size_t)rr * g->cols + (size_t)cc;
        /* insertion into the sorted list, merging repeats (weights add) */
        size_t pos = count;
        while (pos > 0 && idx[pos - 1] > cell)
            pos--;
        if (pos > 0 && idx[pos - 1] == cell) {
            val[pos - 1] += g->w[s];
            continue;
        }
        for (size_t q = count; q > pos; q--) { /* a few entries: no memmove calls */
            idx[q] = idx[q - 1];
            val[q] = val[q - 1];
        }
        idx[pos] = cell;
        val[pos] = g->w[s];
        count++;
    }
    return count;
}

int toggle_graph_entry(const toggle_graph *g, size_t i, size_t j, uint64_t *value)
{
    if (!g || !value)
        return toggle__error(TOGGLE_EINVAL, "graph and value must not be NULL");
    if (i >= g->n || j >= g->n)
        return toggle__error(TOGGLE_ERANGE, "entry (%zu, %zu) outside a %zu-cell graph",
                             i, j, g->n);
    *value = 0;
    if (g->kind == TOGGLE_KIND_MATRIX) {
        for (size_t p = g->colptr[j]; p < g->colptr[j + 1]; p++)
            if (g->rowidx[p] == i)
                *value = g->val[p];
        return TOGGLE_OK;
    }
    size_t idx[64];
    uint64_t val[64];
    if (g->nst <= 64) {
        size_t c = toggle__graph_column(g, j, idx, val);
        for (size_t p = 0; p < c; p++)
            if (idx[p] == i)
                *value = val[p];
        return TOGGLE_OK;
    }
    size_t *bidx = toggle__malloc_array(g->nst, sizeof *bidx);
    uint64_t *bval = toggle__malloc_array(g->nst, sizeof *bval);
    if (!bidx || !bval) {
        toggle__free(bidx);
        toggle__free(bval);
        return toggle__error(TOGGLE_ENOMEM, "out of memory reading a stencil column");
    }
    size_t c = toggle__graph_column(g, j, bidx, bval);
    for (size_t p = 0; p < c; p++)
        if (bidx[p] == i)
            *value = bval[p];
    toggle__free(bidx);
    toggle__free(bval);
    return TOGGLE_OK;
}
