/* The packed GF(2) engine: [A | b] one bit per entry, reduced by
 * toggle__gf2_rref and read out by the engine layer's shared readout, with
 * the same canonical rules as the FLINT engine. */
#include <string.h>

#include "gf2.h"
#include "engine/engine.h"

static bool gf2_probe(const toggle_system *s, char *why, size_t len)
{
    if (s->k != 2)
        return toggle__probe_no(why, len, "the gf2 engine needs modulus 2, got %llu",
                                (unsigned long long)s->k);
    return true;
}

static size_t words_for(size_t cols) { return cols / 64 + (cols % 64 != 0); }

/* Bytes of a rows x cols packed matrix plus its elimination workspace, as
 * unsigned __int128 so that no product wraps. */
static unsigned __int128 matrix_cost(size_t rows, size_t cols, const toggle__gf2_cfg *cfg)
{
    return (unsigned __int128)rows * words_for(cols) * 8
         + toggle__gf2_workspace_bytes(rows, cols, cfg);
}

static int gf2_elimination_bytes(const toggle_system *s, uint64_t *bytes)
{
    size_t m = s->m, n = s->n;
    toggle__gf2_cfg cfg = {.threads = toggle__system_threads(s), .progress = &s->progress};
    unsigned __int128 e = matrix_cost(m, n == SIZE_MAX ? n : n + 1, &cfg)
                        + (unsigned __int128)m * sizeof(size_t) + (unsigned __int128)n / 8
                        + (unsigned __int128)n * sizeof(size_t) + 4096 + 16;
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    if (n == SIZE_MAX || m == SIZE_MAX || e > SIZE_MAX)
        return toggle__error(TOGGLE_ENOMEM, "%zu x %zu system is too large for the gf2 engine",
                             m, n);
    return TOGGLE_OK;
}

/* The elimination's memory is still held at the readout. */
static int gf2_estimate(const toggle_system *s, uint64_t *bytes)
{
    uint64_t held = 0;
    int rc = gf2_elimination_bytes(s, &held);
    return rc ? rc : toggle__readout_estimate(s, held, bytes);
}

/* A packed rows x cols matrix, stride words per row: the system's spare
 * from its last solve when it is big enough (toggle__system_take_words;
 * *zeroed false: its words are stale), given back after the solve. */
static int alloc_matrix(const toggle_system *s, uint64_t **out, size_t rows, size_t cols,
                        size_t *stride, bool *zeroed)
{
    size_t W = words_for(cols), words;
    if (!toggle__mul_ok(rows, W, &words))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu x %zu bit matrix overflows size_t", rows, cols);
    *out = toggle__system_take_words(s, words, zeroed);
    if (!*out)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for a %zu x %zu bit matrix", rows, cols);
    *stride = W;
    return TOGGLE_OK;
}

/* A graph's entries, column by column. On a stale block a row is zeroed at
 * its first entry (fresh[i] still 1), so its words come into the cache once
 * and stay for the next entries of the band: zeroing the whole block first
 * and then setting the bits column by column took every line from memory
 * twice (a 100 x 100 board: 2.2 ms against 1.2, measured). */
typedef struct {
    uint64_t *M;
    size_t W;
    uint8_t *fresh; /* NULL: the block is zeroed */
} put_ctx;

static void put(void *ctx, size_t i, size_t j, uint64_t v)
{
    put_ctx *c = ctx;
    uint64_t *row = c->M + i * c->W;
    if (c->fresh && c->fresh[i]) {
        memset(row, 0, c->W * sizeof *row);
        c->fresh[i] = 0;
    }
    if (v & 1)
        row[j >> 6] |= (uint64_t)1 << (j & 63);
}

/* [A | b], m x (n + 1). Dense rows are already packed: copy them (and
 * zero the words past them); a graph's are set entry by entry. */
static int build_augmented(const toggle_system *s, uint64_t **out, size_t *stride)
{
    size_t m = s->m, n = s->n, W = 0;
    uint64_t *M;
    bool zeroed = false;
    int rc = alloc_matrix(s, &M, m, n + 1, &W, &zeroed);
    if (rc)
        return rc;
    if (!s->graph) {
        size_t sw = s->a.stride < W ? s->a.stride : W;
        for (size_t i = 0; i < m; i++) {
            uint64_t *row = M + i * W;
            if (sw)
                memcpy(row, toggle__vecs_row(&s->a, i), sw * sizeof *M);
            if (!zeroed && sw < W)
                memset(row + sw, 0, (W - sw) * sizeof *M);
        }
    } else {
        put_ctx ctx = {M, W, NULL};
        if (!zeroed && m && !(ctx.fresh = toggle__malloc(m)))
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory building [A | b]");
        if (ctx.fresh)
            memset(ctx.fresh, 1, m);
        if (!rc)
            rc = toggle__system_each_entry(s, put, &ctx);
        for (size_t i = 0; !rc && ctx.fresh && i < m; i++)
            if (ctx.fresh[i]) /* no entry */
                memset(M + i * W, 0, W * sizeof *M);
        toggle__free(ctx.fresh);
        if (rc) {
            toggle__system_give_words(s, M);
            return rc;
        }
    }
    for (size_t i = 0; i < m; i++)
        if (toggle__rhs(s, i))
            M[i * W + (n >> 6)] |= (uint64_t)1 << (n & 63);
    *out = M;
    *stride = W;
    return TOGGLE_OK;
}

static int gf2_solve(const toggle_system *s, toggle_solution *sol)
{
    uint64_t *M = NULL;
    size_t stride = 0, rank = 0;
    int rc = build_augmented(s, &M, &stride);
    if (rc)
        return rc;
    size_t *pivot = toggle__calloc(s->m ? s->m : 1, sizeof *pivot);
    if (!pivot)
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for pivot bookkeeping");
    if (!rc) {
        toggle__gf2_cfg cfg = {.threads = toggle__system_threads(s), .progress = &s->progress};
        rc = toggle__gf2_rref_cfg(M, s->m, s->n + 1, stride, pivot, &rank, &cfg);
    }
    if (!rc) {
        toggle__vecs R = {.len = s->n + 1, .count = s->m, .stride = stride, .width = 1,
                          .packed = true, .data = M};
        uint64_t held = 0;
        gf2_elimination_bytes(s, &held);
        rc = toggle__readout_rref(s, sol, &R, rank, pivot, held);
    }
    toggle__free(pivot);
    toggle__system_give_words(s, M);
    return rc;
}

const toggle__engine toggle__engine_gf2 = {gf2_probe, gf2_estimate, gf2_solve, NULL};
