/* The packed GF(2) engine: [A | b] one bit per entry, reduced by
 * toggle__gf2_rref and read out by the engine layer's shared readout, with
 * the same canonical rules as the FLINT engine. */
#include <string.h>

#include "linalg/gf2/gf2.h"
#include "engine/engine.h"
#include "linalg/gf2/gf2_tune.h"

static bool gf2_probe(const toggle_system *s, char *why, size_t len)
{
    if (s->k != 2)
        return toggle__probe_no(why, len, "the gf2 engine needs modulus 2, got %llu",
                                (unsigned long long)s->k);
    return true;
}

static size_t words_for(size_t cols) { return cols / 64 + (cols % 64 != 0); }

/* The stride of a dense [A | b] of W words a row: from GF2_LINE_MIN_WORDS
 * words up, a multiple of a cache line (8 words; the block starts on one,
 * toggle__system_take_words), so that no two rows share a line: two
 * threads then never write one line, and every row's vectors start on a
 * line. At most 7 / 64 more words. A graph's rows keep W (their bounds are
 * read against the last word). */
static size_t dense_stride(size_t W)
{
    return W >= GF2_LINE_MIN_WORDS ? (W + 7) / 8 * 8 : W;
}

/* Bytes of a rows x cols packed matrix plus its elimination workspace, as
 * unsigned __int128 so that no product wraps. */
static unsigned __int128 matrix_cost(size_t rows, size_t cols, const toggle__gf2_cfg *cfg)
{
    return (unsigned __int128)rows * dense_stride(words_for(cols)) * 8
         + toggle__gf2_workspace_bytes(rows, cols, cfg);
}

static int gf2_elimination_bytes(const toggle_system *s, uint64_t *bytes)
{
    size_t m = s->m, n = s->n;
    toggle__gf2_cfg cfg = {.threads = toggle__system_threads(s), .progress = &s->progress};
    unsigned __int128 e = matrix_cost(m, n == SIZE_MAX ? n : n + 1, &cfg)
                        + (unsigned __int128)m * sizeof(size_t) + (unsigned __int128)n / 8
                        + (unsigned __int128)n * sizeof(size_t) + 4096 + 16
                        /* the build's fresh bytes and column buffers, a share each */
                        + (unsigned __int128)m * GF2_BUILD_MAX_SHARES * (1 + 16)
                        + (unsigned __int128)m * 2 * sizeof(size_t); /* rows' bounds */
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

/* A packed rows x cols matrix, stride words per row (dense_stride for a
 * dense A): the system's spare
 * from its last solve when it is big enough (toggle__system_take_words;
 * *zeroed false: its words are stale), given back after the solve. */
static int alloc_matrix(const toggle_system *s, uint64_t **out, size_t rows, size_t cols,
                        size_t *stride, bool *zeroed)
{
    size_t W = s->graph ? words_for(cols) : dense_stride(words_for(cols)), words;
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
 * and then setting the bits column by column would take every line from
 * memory twice. */
typedef struct {
    uint64_t *M;
    size_t W;
    size_t w0, w1;  /* the words this walk zeroes and writes */
    uint8_t *fresh; /* NULL: the block is zeroed */
    size_t m;
    size_t *lead, *ext, Wx; /* NULL, or A's bounds per row (toggle__gf2_rref_rows) */
} put_ctx;

static void put(void *ctx, size_t i, size_t j, uint64_t v)
{
    put_ctx *c = ctx;
    uint64_t *row = c->M + i * c->W;
    if (c->fresh && c->fresh[i]) {
        memset(row + c->w0, 0, (c->w1 - c->w0) * sizeof *row);
        c->fresh[i] = 0;
    }
    size_t w = j >> 6;
    if (v & 1) {
        row[w] |= (uint64_t)1 << (j & 63);
        if (c->lead) {
            c->lead[i] = w < c->lead[i] ? w : c->lead[i];
            if (w < c->Wx && w >= c->ext[i])
                c->ext[i] = w + 1;
        }
    }
    /* a band's rows are first touched in order as the columns advance: the
     * same word GF2_BUILD_PREFETCH_ROWS rows down is (about) a coming first
     * touch */
    if (i + GF2_BUILD_PREFETCH_ROWS < c->m)
        __builtin_prefetch(row + GF2_BUILD_PREFETCH_ROWS * c->W + w, 1);
}

/* A graph's [A | b] on more threads: each share walks the columns of its
 * own range of words and zeroes and writes only those words of each row
 * (the last share's run to the row's end), so no two write one word; each
 * has its own fresh bytes and column buffer. From GF2_BUILD_PAR_WORDS
 * words of a stale block, where zeroing and walking it is a fair share of
 * a one-thread solve. */

typedef struct {
    const toggle_system *s;
    uint64_t *M;
    size_t W, Wn;   /* words a row, words of A's columns */
    uint8_t *fresh; /* m bytes a share; NULL: the block is zeroed */
    size_t *lead, *ext; /* NULL, or A's bounds per row, set by one share alone */
    toggle__colbuf cb[GF2_BUILD_MAX_SHARES];
} build_job;

static void build_share(void *ctx, unsigned t, unsigned nt)
{
    build_job *b = ctx;
    const toggle_system *s = b->s;
    size_t m = s->m, chunk = (b->Wn + nt - 1) / nt;
    size_t w0 = t * chunk < b->Wn ? t * chunk : b->Wn;
    size_t w1 = w0 + chunk < b->Wn ? w0 + chunk : b->Wn;
    put_ctx pc = {b->M, b->W, w0, t + 1 == nt ? b->W : w1, b->fresh ? b->fresh + t * m : NULL, m,
                  nt == 1 ? b->lead : NULL, b->ext, b->W - 1};
    size_t c1 = w1 * 64 < s->n ? w1 * 64 : s->n;
    if (w0 * 64 < c1)
        toggle__system_each_column_entry(s, w0 * 64, c1, &b->cb[t], put, &pc);
    for (size_t i = 0; pc.fresh && i < m; i++)
        if (pc.fresh[i]) /* no entry in these words */
            memset(b->M + i * b->W + pc.w0, 0, (pc.w1 - pc.w0) * sizeof *b->M);
}

/* The graph's A into M (W words a row; zeroed: M is zero already), on a
 * pool of up to GF2_BUILD_MAX_SHARES threads when it is big enough. lead
 * and ext (may be NULL; lead[i] = W, ext[i] = 0 on entry): each row's first
 * word and 1 + its last before word W - 1 holding A's bits, set by the walk
 * on one share (*have then true), for toggle__gf2_rref_rows. */
static int build_graph(const toggle_system *s, uint64_t *M, size_t W, bool zeroed, size_t *lead,
                       size_t *ext, bool *have)
{
    size_t m = s->m, words = 0;
    unsigned T = toggle__system_threads(s);
    T = T > GF2_BUILD_MAX_SHARES ? GF2_BUILD_MAX_SHARES : T < 1 ? 1 : T;
    /* only a stale block: on a zeroed one (given back zero by a full-rank
     * solve) the walk alone is too short to share */
    if (!toggle__mul_ok(m, W, &words) || words < GF2_BUILD_PAR_WORDS || W < 2 * T || zeroed)
        T = 1;
    build_job b = {.s = s, .M = M, .W = W, .Wn = (s->n + 63) / 64, .lead = lead, .ext = ext};
    int rc = TOGGLE_OK;
    if (!zeroed && m && !(b.fresh = toggle__malloc_array(m, T)))
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory building [A | b]");
    if (b.fresh)
        memset(b.fresh, 1, (size_t)m * T);
    unsigned ready = 0;
    for (; !rc && ready < T; ready++)
        rc = toggle__colbuf_init(&b.cb[ready], s->graph);
    toggle__pool *pool = !rc && T > 1 ? toggle__pool_new(T) : NULL;
    if (!rc && T > 1 && toggle__pool_threads(pool) < T) /* fewer started: one share */
        T = 1;
    if (!rc) /* one share (no pool): every word of every row */
        toggle__pool_run(T > 1 ? pool : NULL, build_share, &b);
    *have = !rc && T == 1 && lead && ext;
    toggle__pool_free(pool);
    while (ready-- > 0)
        toggle__colbuf_clear(&b.cb[ready]);
    toggle__free(b.fresh);
    return rc;
}

/* [A | b], m x (n + 1). Dense rows are already packed: copy them (and
 * zero the words past them); a graph's are set entry by entry, and *lead
 * and *ext then get the rows' bounds (toggle__gf2_rref_rows) when one share
 * built it and they could be allocated (else NULL; free both). */
static int build_augmented(const toggle_system *s, uint64_t **out, size_t *stride, size_t **lead,
                           size_t **ext)
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
        /* the rows' bounds, on one thread only: a two-thread board (the
         * two-ended form) reads them on both threads anyway, so the walk
         * would only cost it */
        bool one = toggle__system_threads(s) <= 1;
        size_t *hl = one ? toggle__malloc_array(m ? m : 1, sizeof *hl) : NULL;
        size_t *he = hl ? toggle__calloc(m ? m : 1, sizeof *he) : NULL;
        for (size_t i = 0; he && i < m; i++)
            hl[i] = W;
        bool have = false;
        rc = build_graph(s, M, W, zeroed, he ? hl : NULL, he, &have);
        if (rc || !have) {
            toggle__free(hl);
            toggle__free(he);
            hl = he = NULL;
        }
        if (rc) {
            toggle__system_give_words(s, M, 0);
            return rc;
        }
        *lead = hl;
        *ext = he;
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
    size_t stride = 0, rank = 0, *lead = NULL, *ext = NULL;
    int rc = build_augmented(s, &M, &stride, &lead, &ext);
    if (rc)
        return rc;
    size_t *pivot = toggle__calloc(s->m ? s->m : 1, sizeof *pivot);
    if (!pivot)
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for pivot bookkeeping");
    if (!rc) {
        toggle__gf2_cfg cfg = {.threads = toggle__system_threads(s), .progress = &s->progress};
        rc = toggle__gf2_rref_rows(M, s->m, s->n + 1, stride, pivot, &rank, &cfg, lead, ext);
    }
    toggle__free(lead);
    toggle__free(ext);
    if (!rc) {
        toggle__vecs R = {.len = s->n + 1, .count = s->m, .stride = stride, .width = 1,
                          .packed = true, .data = M};
        uint64_t held = 0;
        gf2_elimination_bytes(s, &held);
        rc = toggle__readout_rref(s, sol, &R, rank, pivot, held);
    }
    /* [I | x] (A square, of full rank): each row is its pivot word and the
     * last, so clearing those two leaves the block zero, and the next
     * solve's build skips zeroing it */
    size_t zeros = 0, m = s->m, Wx = s->n >> 6;
    if (!rc && m == s->n && rank == m && m > 0 && pivot[m - 1] == m - 1) {
        for (size_t i = 0; i < m; i++) {
            M[i * stride + (i >> 6)] = 0;
            M[i * stride + Wx] = 0;
        }
        zeros = m * stride;
    }
    toggle__free(pivot);
    toggle__system_give_words(s, M, zeros);
    return rc;
}

const toggle__engine toggle__engine_gf2 = {gf2_probe, gf2_estimate, gf2_solve, NULL};
