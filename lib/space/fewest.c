/* Fewest presses over a solution set: a Walsh-Hadamard split search for
 * k = 2, a Gray-order search with incremental weights for any k; and the
 * toggle_search handle. Method and limits: docs/solution-spaces.md. */
#include <string.h>

#include "space_internal.h"

typedef unsigned __int128 u128;

static inline u128 cell_weight(uint64_t v, int metric)
{
    return metric == TOGGLE_METRIC_PRESSES ? (u128)v : (u128)(v != 0);
}

static uint64_t clamp(u128 w)
{
    return w > UINT64_MAX ? UINT64_MAX : (uint64_t)w;
}

#define CELLW(j, v) (cost ? (u128)cost[j] * cell_weight(v, metric) : cell_weight(v, metric))
#define FORB(j) (cost && cost[j] == TOGGLE__COST_FORBIDDEN)

/* The Gray walk's buffers: x, the digits (current and best) and each
 * digit's direction. */
typedef struct {
    uint64_t *x, *digit, *best;
    signed char *dir;
} gray_bufs;

static void gray_free(gray_bufs *g)
{
    toggle__free(g->x);
    toggle__free(g->digit);
    toggle__free(g->best);
    toggle__free(g->dir);
}

/* The walk's tallies: weight now and best, the weight of cells no
 * generator moves, forbidden cells pressed (now, and among the fixed). */
typedef struct {
    u128 w, bw, fixed;
    size_t bad;
    bool found, fixed_bad, complete;
    uint64_t visited;
} gray_tally;

/* x <- x0 and the tallies of the walk's first tuple. */
static int gray_start(const toggle__space *sp, const toggle__fewest_opts *o, uint64_t *x,
                      gray_tally *t)
{
    size_t n = sp->n, d = sp->d;
    int metric = o->metric;
    const uint64_t *cost = o->cost;
    memset(t, 0, sizeof *t);
    unsigned char *moved = toggle__calloc(n + 1, 1);
    if (!moved)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the search");
    for (size_t p = 0; p < sp->supp_start[d]; p++)
        moved[sp->supp_idx[p]] = 1;
    for (size_t j = 0; j < n; j++) {
        x[j] = toggle__vecs_get(&sp->x0, 0, j);
        if (FORB(j))
            t->bad += x[j] != 0;
        else
            t->w += CELLW(j, x[j]);
        if (!moved[j]) {
            if (FORB(j))
                t->fixed_bad |= x[j] != 0;
            else
                t->fixed += CELLW(j, x[j]);
        }
    }
    toggle__free(moved);
    if (!t->bad) {
        t->bw = t->w;
        t->found = true;
    }
    t->visited = 1;
    t->complete = d == 0 || t->fixed_bad;
    return TOGGLE_OK;
}

/* The answer from the walk's tallies and its best tuple. */
static void gray_finish(const toggle__space *sp, const toggle__fewest_opts *o,
                        const gray_bufs *g, gray_tally *t, toggle__fewest *res)
{
    /* The walk ends after its last tuple without a further step. */
    if (!t->complete && t->visited >= o->limit) {
        uint64_t total = 1;
        bool fits = true;
        for (size_t i = 0; i < sp->d && fits; i++)
            fits = !__builtin_mul_overflow(total, sp->radix[i], &total);
        t->complete = fits && t->visited >= total;
    }
    toggle__space_combine(sp, g->best, res->x);
    res->found = t->found && !t->fixed_bad;
    res->weight = res->found ? clamp(t->bw) : UINT64_MAX;
    res->visited = t->visited;
    res->proven = t->complete;
    u128 lb = t->fixed_bad ? (u128)UINT64_MAX : t->fixed;
    if (t->complete)
        lb = res->found ? t->bw : (u128)UINT64_MAX;
    else if (res->found && t->bw < lb)
        lb = t->bw;
    res->bound = clamp(lb);
    if (res->found && res->bound >= res->weight)
        res->proven = 1;
}

/* Any k: walk the coefficient tuples in reflected mixed-radix Gray order,
 * updating x and its weight over the support of the one generator that
 * changes. Cells of cost TOGGLE__COST_FORBIDDEN must stay 0: solutions
 * pressing one are counted and skipped. Visits at most limit solutions. */
static int gray_search(const toggle__space *sp, const toggle__fewest_opts *o, toggle__fewest *res)
{
    size_t n = sp->n, d = sp->d;
    uint64_t k = sp->k;
    int metric = o->metric;
    const uint64_t *cost = o->cost;
    gray_bufs g;
    g.x = toggle__malloc_array(n + 1, sizeof *g.x);
    g.digit = toggle__calloc(d + 1, sizeof *g.digit);
    g.best = toggle__calloc(d + 1, sizeof *g.best);
    g.dir = toggle__malloc(d + 1);
    if (!g.x || !g.digit || !g.best || !g.dir) {
        gray_free(&g);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the search");
    }
    memset(g.dir, 1, d + 1);
    gray_tally t;
    int cancel = gray_start(sp, o, g.x, &t);
    if (cancel) {
        gray_free(&g);
        return cancel;
    }
    uint64_t *x = g.x, *digit = g.digit;
    signed char *dir = g.dir;
    u128 w = t.w, bw = t.bw;
    size_t bad = t.bad;
    bool found = t.found, complete = t.complete;
    uint64_t visited = t.visited;
    while (!complete && visited < o->limit) {
        if (!(visited & 0xffff) && (cancel = toggle__progress(&sp->progress, visited, o->limit)))
            break;
        size_t j = 0;
        while (j < d) {
            uint64_t a = digit[j];
            if ((dir[j] > 0 && a + 1 < sp->radix[j]) || (dir[j] < 0 && a > 0))
                break;
            dir[j] = (signed char)-dir[j];
            j++;
        }
        if (j == d) {
            complete = true;
            break;
        }
        int up = dir[j] > 0;
        digit[j] = up ? digit[j] + 1 : digit[j] - 1;
        for (size_t p = sp->supp_start[j]; p < sp->supp_start[j + 1]; p++) {
            size_t c = sp->supp_idx[p];
            uint64_t old = x[c];
            uint64_t nv = up ? toggle__addmod(old, sp->supp_val[p], k)
                             : toggle__submod(old, sp->supp_val[p], k);
            x[c] = nv;
            if (FORB(c))
                bad = bad - (old != 0) + (nv != 0);
            else
                w = w - CELLW(c, old) + CELLW(c, nv);
        }
        visited++;
        if (!bad && (!found || w < bw)) {
            bw = w;
            found = true;
            memcpy(g.best, digit, d * sizeof *g.best);
        }
    }
    t.bw = bw;
    t.found = found;
    t.complete = complete;
    t.visited = visited;
    gray_finish(sp, o, &g, &t, res);
    gray_free(&g);
    return cancel;
}
#undef CELLW
#undef FORB

int toggle__fewest_run_opts(const toggle__space *sp, const toggle__fewest_opts *o,
                            toggle__fewest *res)
{
    /* the first report of a search always reaches the callback; the serial
     * walk reports again every 65536 solutions */
    int rc = toggle__progress(&sp->progress, 0, 1);
    if (rc)
        return rc;
    toggle__fewest_opts oo = *o;
    if (oo.limit == 0)
        oo.limit = 1;
    if (oo.threads == 0)
        oo.threads = 1;
    if (!oo.plain && sp->k == 2) {
        int rc = toggle__fewest_gf2(sp, &oo, res);
        if (rc != TOGGLE_EUNSUPPORTED)
            return rc;
    }
    if (oo.ck && oo.ck->sig)
        return toggle__error(TOGGLE_EINVAL, "the checkpoint belongs to a split search over F_2; "
                             "this search walks its solutions (k != 2, nullity > 62 or a limit "
                             "below one chunk)");
    return gray_search(sp, &oo, res);
}

int toggle__fewest_run(const toggle__space *sp, int metric, uint64_t limit, toggle__fewest *res)
{
    toggle__fewest_opts o = {.metric = metric, .limit = limit, .threads = 1};
    return toggle__fewest_run_opts(sp, &o, res);
}

/* ---- the public handle ---------------------------------------------------- */

struct toggle_search {
    toggle__space sp;
    int metric;
    uint64_t limit;
    unsigned threads; /* TOGGLE_SEARCH_OPT_THREADS: 0 = the online processors */
    uint64_t *cost;   /* n per-cell costs, or NULL (all 1) */
    size_t rows, cols;
    bool ran;
    toggle__fewest res;
    toggle__fewest_ckpt ck; /* the F_2 split search's state after the last run */
    bool resume;            /* toggle_search_resume: the next run continues ck */
    toggle__fewest_live live;
};

int toggle_search_new(toggle_search **out, const toggle_solution *sol)
{
    toggle_search *s;
    TOGGLE__NEW_HANDLE_FROM(out, sol, "solution", s, "a search");
    int rc = toggle__space_init(&s->sp, sol);
    if (!rc) {
        s->res.x = toggle__calloc(sol->n + 1, sizeof *s->res.x);
        if (!s->res.x)
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory allocating a search");
    }
    if (rc) {
        toggle_search_free(s);
        return rc;
    }
    s->metric = TOGGLE_METRIC_CELLS;
    s->limit = sol->search_limit ? sol->search_limit : (uint64_t)1 << 32;
    s->threads = sol->threads;
    s->rows = sol->rows;
    s->cols = sol->cols;
    atomic_init(&s->live.best, UINT64_MAX);
    atomic_init(&s->live.bound, UINT64_MAX);
    *out = s;
    return TOGGLE_OK;
}

int toggle_search_set_option(toggle_search *s, int key, uint64_t value)
{
    /* the keys of the other handles (system.h, space.h), by name */
    static const char *const other[] = {NULL, "SYSTEM_OPT_ENGINE", "SYSTEM_OPT_MEMORY_BUDGET",
                                        NULL, NULL, "GENERATOR_OPT_SEED",
                                        "GENERATOR_OPT_UNIQUE", "GENERATOR_OPT_PRESSES",
                                        "GENERATOR_OPT_LIT", "GENERATOR_OPT_ATTEMPTS"};
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "search is NULL");
    switch (key) {
    case TOGGLE_SEARCH_OPT_METRIC:
        if (value != TOGGLE_METRIC_CELLS && value != TOGGLE_METRIC_PRESSES)
            return toggle__error(TOGGLE_EINVAL, "unknown metric %llu", (unsigned long long)value);
        s->metric = (int)value;
        return TOGGLE_OK;
    case TOGGLE_SEARCH_OPT_SEARCH_LIMIT:
        s->limit = value ? value : UINT64_MAX; /* 0: unlimited */
        return TOGGLE_OK;
    case TOGGLE_SEARCH_OPT_THREADS:
        if (toggle__threads_check(value))
            return TOGGLE_EINVAL;
        s->threads = (unsigned)value;
        return TOGGLE_OK;
    default:
        if (key > 0 && key <= TOGGLE_GENERATOR_OPT_ATTEMPTS)
            return toggle__error(TOGGLE_EINVAL, "TOGGLE_%s (%d) is an option of a %s, not of a "
                                 "search", other[key], key,
                                 key < TOGGLE_GENERATOR_OPT_SEED ? "system" : "generator");
        return toggle__error(TOGGLE_EINVAL, "option key %d does not apply to a search", key);
    }
}

int toggle_search_set_costs(toggle_search *s, const uint64_t *cost, size_t len)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "search is NULL");
    if (!cost) {
        toggle__free(s->cost);
        s->cost = NULL;
        return TOGGLE_OK;
    }
    if (len != s->sp.n)
        return toggle__short_array("cost", len, "solutions have", s->sp.n);
    uint64_t *c = toggle__malloc_array(len + 1, sizeof *c);
    if (!c)
        return toggle__error(TOGGLE_ENOMEM, "out of memory copying costs");
    memcpy(c, cost, len * sizeof *c);
    toggle__free(s->cost);
    s->cost = c;
    return TOGGLE_OK;
}

int toggle_search_run(toggle_search *s)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "search is NULL");
    toggle__fewest_opts o = {.metric = s->metric,
                             .limit = s->limit,
                             .threads = toggle__threads_resolve(s->threads),
                             .cost = s->cost,
                             .rows = s->rows,
                             .cols = s->cols};
    o.ck = &s->ck;
    o.live = &s->live;
    if (!s->resume)
        toggle__fewest_ckpt_clear(&s->ck);
    s->resume = false;
    atomic_store(&s->live.best, UINT64_MAX);
    atomic_store(&s->live.bound, UINT64_MAX);
    s->ran = false;
    int rc = toggle__fewest_run_opts(&s->sp, &o, &s->res);
    if (rc == TOGGLE_ECANCELED && s->res.found)
        s->ran = true; /* the best found and the bound so far stay readable */
    if (rc)
        return rc;
    s->ran = true;
    atomic_store(&s->live.best, s->res.found ? s->res.weight : UINT64_MAX);
    atomic_store(&s->live.bound, s->res.bound);
    if (!s->res.found && s->res.proven)
        return toggle__error(TOGGLE_ENOSOLUTION, "no solution presses only the allowed cells");
    if (!s->res.found)
        return toggle__error(TOGGLE_ELIMIT, "no solution pressing only the allowed cells was "
                             "found within the search limit");
    return TOGGLE_OK;
}

int toggle_search_result(const toggle_search *s, uint64_t *x, size_t len, uint64_t *weight,
                         int *proven, uint64_t *visited)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "search is NULL");
    if (!s->ran)
        return toggle__error(TOGGLE_EINVAL, "the search has not run");
    if (!s->res.found)
        return toggle__error(s->res.proven ? TOGGLE_ENOSOLUTION : TOGGLE_ELIMIT,
                             "the last run found no solution pressing only the allowed cells");
    if (x && len < s->sp.n)
        return toggle__short_array("x", len, "solutions have", s->sp.n);
    if (x)
        memcpy(x, s->res.x, s->sp.n * sizeof *x);
    if (weight)
        *weight = s->res.weight;
    if (proven)
        *proven = s->res.proven;
    if (visited)
        *visited = s->res.visited;
    return TOGGLE_OK;
}

int toggle_search_bound(const toggle_search *s, uint64_t *lower)
{
    if (!s || !lower)
        return toggle__error(TOGGLE_EINVAL, "search and lower must not be NULL");
    if (!s->ran)
        return toggle__error(TOGGLE_EINVAL, "the search has not run");
    *lower = s->res.bound;
    return TOGGLE_OK;
}

void toggle_search_free(toggle_search *s)
{
    if (!s)
        return;
    toggle__fewest_ckpt_clear(&s->ck);
    toggle__space_clear(&s->sp);
    TOGGLE__FREE_ALL(s->cost, s->res.x, s);
}

/* ---- checkpoints ------------------------------------------------------- */

/* The checkpoint: "TGLFEW02", then little-endian u64s: sig (the search's
 * identity: the problem, the split and the metric), nchunks, chunk_sol,
 * have, bw, bt, bu, blo, bhi; then the finished chunks, one bit each; then
 * a u64 checksum (FNV-1a) of every byte before it. FNV-1a's step is a
 * bijection of its state for a fixed byte, so a file that differs from a
 * saved one in any single byte fails the checksum; a different length fails
 * the size check. A damaged file is refused, never resumed. "TGLFEW01"
 * (no checksum) is refused too: such a file cannot be checked. */
static const unsigned char ck_magic[8] = {'T', 'G', 'L', 'F', 'E', 'W', '0', '2'};
static const unsigned char ck_magic_v1[8] = {'T', 'G', 'L', 'F', 'E', 'W', '0', '1'};
#define CK_FIELDS 9

static size_t ck_size(uint64_t nchunks)
{
    return sizeof ck_magic + 8 * CK_FIELDS + (size_t)((nchunks + 7) / 8) + 8;
}

static uint64_t ck_checksum(const unsigned char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int toggle_search_save(const toggle_search *s, void *buf, size_t len, size_t *needed)
{
    if (!s)
        return toggle__error(TOGGLE_EINVAL, "search is NULL");
    if (!s->ck.sig)
        return toggle__error(TOGGLE_EUNSUPPORTED, "no checkpoint: the last run %s",
                             s->ran || s->res.found ? "walked the solutions (the checkpoint covers "
                                                      "the F_2 split search)"
                                                    : "did not happen");
    size_t size = ck_size(s->ck.nchunks);
    if (needed)
        *needed = size;
    if (!buf || len < size)
        return toggle__error(TOGGLE_EBUFSIZE, "the checkpoint takes %zu bytes, the buffer has %zu",
                             size, buf ? len : 0);
    unsigned char *p = buf;
    memcpy(p, ck_magic, sizeof ck_magic);
    uint64_t f[CK_FIELDS] = {s->ck.sig, s->ck.nchunks, s->ck.chunk_sol, (uint64_t)s->ck.have,
                             s->ck.bw, s->ck.bt, s->ck.bu, s->ck.blo, s->ck.bhi};
    for (int i = 0; i < CK_FIELDS; i++)
        put64(p + sizeof ck_magic + 8 * i, f[i]);
    unsigned char *bits = p + sizeof ck_magic + 8 * CK_FIELDS;
    memset(bits, 0, (size_t)((s->ck.nchunks + 7) / 8));
    for (uint64_t k = 0; k < s->ck.nchunks; k++)
        if (s->ck.done[k])
            bits[k / 8] |= (unsigned char)(1u << (k % 8));
    put64(p + size - 8, ck_checksum(p, size - 8));
    return TOGGLE_OK;
}

int toggle_search_resume(toggle_search *s, const void *buf, size_t len)
{
    if (!s || !buf)
        return toggle__error(TOGGLE_EINVAL, "search and buf must not be NULL");
    const unsigned char *p = buf;
    size_t head = sizeof ck_magic + 8 * CK_FIELDS;
    if (len >= sizeof ck_magic_v1 && !memcmp(p, ck_magic_v1, sizeof ck_magic_v1))
        return toggle__error(TOGGLE_EINVAL, "damaged checkpoint: format TGLFEW01 has no checksum "
                             "and cannot be checked; start the search again");
    if (len < head + 8 || memcmp(p, ck_magic, sizeof ck_magic))
        return toggle__error(TOGGLE_EINVAL, "not a fewest-press checkpoint (bad magic or length)");
    uint64_t f[CK_FIELDS];
    for (int i = 0; i < CK_FIELDS; i++)
        f[i] = get64(p + sizeof ck_magic + 8 * i);
    if (!f[0] || !f[1] || f[1] > ((uint64_t)1 << 40) || len != ck_size(f[1]))
        return toggle__error(TOGGLE_EINVAL, "damaged checkpoint: %zu bytes, its header says %llu "
                             "chunks", len, (unsigned long long)f[1]);
    if (ck_checksum(p, len - 8) != get64(p + len - 8))
        return toggle__error(TOGGLE_EINVAL, "damaged checkpoint: the checksum does not match");
    if (f[3] > 1)
        return toggle__error(TOGGLE_EINVAL, "damaged checkpoint: its fields do not agree");
    const unsigned char *bits = p + head;
    if (f[1] % 8 && (bits[f[1] / 8] >> (f[1] % 8)))
        return toggle__error(TOGGLE_EINVAL, "damaged checkpoint: bits past its last chunk");
    uint8_t *done = toggle__malloc((size_t)f[1] + 1);
    if (!done)
        return toggle__error(TOGGLE_ENOMEM, "out of memory reading a checkpoint");
    for (uint64_t k = 0; k < f[1]; k++)
        done[k] = (bits[k / 8] >> (k % 8)) & 1;
    toggle__fewest_ckpt_clear(&s->ck);
    s->ck = (toggle__fewest_ckpt){.sig = f[0], .nchunks = f[1], .done = done, .chunk_sol = f[2],
                                  .have = (int)f[3], .bw = f[4], .bt = f[5], .bu = f[6],
                                  .blo = f[7], .bhi = f[8]};
    s->resume = true;
    return TOGGLE_OK;
}

int toggle_search_progress(const toggle_search *s, uint64_t *best, uint64_t *bound)
{
    if (!s || (!best && !bound))
        return toggle__error(TOGGLE_EINVAL, "search must not be NULL and best or bound given");
    if (best)
        *best = atomic_load(&((toggle_search *)s)->live.best);
    if (bound)
        *bound = atomic_load(&((toggle_search *)s)->live.bound);
    return TOGGLE_OK;
}
