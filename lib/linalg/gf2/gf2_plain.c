/* The plain Gauss-Jordan elimination over GF(2) with the Method of Four
 * Russians: pivots are found a block of up to nt * k at a time
 * (gf2_pivot.c), then every other row is cleared on those columns by nt
 * Gray-code tables of k-row combinations, column strip by column strip.
 * On banded rows (a Lights Out board) in two sweeps: forward to an
 * echelon form, then backward, last block first. */
#include "gf2_elim.h"

typedef toggle__gf2_plan plan;
typedef toggle__gf2_plain plain_ctx;
typedef toggle__gf2_pass_fn pass_fn;

/* Table sizes: big enough to amortise a row pass over many columns, small
 * enough that one strip of all tables stays in L2 and the whole workspace
 * stays within a quarter of the matrix (or a small constant). The bits per
 * table follow `active`, the rows a block's pass updates (rows, or on a
 * banded matrix about its band: a table of 2^k entries pays off over that
 * many rows, not over all of them). */
static void choose_plan(size_t rows, size_t W, size_t active, plan *p)
{
    unsigned lg = 0;
    while (lg < 20 && ((size_t)1 << (lg + 1)) <= active)
        lg++;
    unsigned k = lg >= 12 ? 8 : lg >= 10 ? 7 : lg >= 8 ? 6 : lg >= 6 ? 5 : lg >= 4 ? 4 : 2;
    unsigned nt = GF2_MAXT;
    uint64_t budget = (uint64_t)rows * W / 4;
    if (budget < 4096)
        budget = 4096;
    size_t strip = 0;
    for (;;) {
        uint64_t trows = (uint64_t)nt << k;
        uint64_t s = budget / trows;
        uint64_t cache = ((uint64_t)512 << 10) / 8 / trows; /* L2-friendly strip */
        if (cache < 8)
            cache = 8;
        if (s > cache)
            s = cache;
        if (s >= W || s >= 8) {
            strip = s >= W ? W : (size_t)(s & ~(uint64_t)7);
            break;
        }
        if (nt > 1)
            nt /= 2;
        else if (k > 1)
            k--;
        else {
            strip = s ? (size_t)s : 1;
            break;
        }
    }
    p->k = k;
    p->nt = nt;
    p->strip = strip ? strip : 1;
}
/* ---- the wide XOR kernels, compiled once per instruction set ------------ */

struct pass_args {
    uint64_t *M;
    size_t stride, rows, skip_lo, skip_hi; /* rows [skip_lo, skip_hi) are the pivots */
    size_t r_lo, r_hi;                     /* rows [r_lo, r_hi) are updated */
    size_t w0, W;                          /* words [w0, W) are live */
    const uint64_t *piv;                   /* first pivot row (row skip_lo) */
    unsigned k, nt, kbar;                  /* kbar pivots, in nt tables of k (last smaller) */
    size_t strip;
    uint64_t *tab;                         /* nt << k rows of strip words */
    const uint8_t *idx;                    /* rows * GF2_MAXT table indices */
    /* nruns > 0: one visit of each row for all the word runs
     * [runs[2q], runs[2q + 1]) instead (their words, gathered, fit a strip) */
    const size_t *runs;
    size_t nruns;
};
typedef struct pass_args pass_args;

GF2_INLINE void build_tables(const pass_args *a, size_t ws, size_t n)
{
    for (unsigned t = 0; t < a->nt; t++) {
        unsigned lo = t * a->k, kt = a->kbar - lo < a->k ? a->kbar - lo : a->k;
        uint64_t *T = a->tab + ((size_t)t << a->k) * a->strip;
        memset(T, 0, n * sizeof *T);
        /* Gray code: entry g(i) = entry g(i-1) ^ pivot row (lo + ctz(i)) */
        size_t prev = 0;
        for (size_t i = 1; i < ((size_t)1 << kt); i++) {
            size_t g = i ^ (i >> 1);
            unsigned b = (unsigned)__builtin_ctzll((unsigned long long)i);
            const uint64_t *restrict src = a->piv + (lo + b) * a->stride;
            const uint64_t *restrict pt = T + prev * a->strip;
            uint64_t *restrict dt = T + g * a->strip;
            if (a->nruns) /* the runs' words side by side */
                for (size_t q = 0, o = 0; q < a->nruns; q++)
                    for (size_t w = a->runs[2 * q]; w < a->runs[2 * q + 1]; w++, o++)
                        dt[o] = pt[o] ^ src[w];
            else
                for (size_t w = 0; w < n; w++)
                    dt[w] = pt[w] ^ src[ws + w];
            prev = g;
        }
    }
}

/* Rows r_lo .. r_hi get their tables' entries on words [ws, ws + n), or
 * (a->nruns > 0) on the runs' words in turn, each row visited once. */
GF2_INLINE void process_rows(const pass_args *a, size_t ws, size_t n, unsigned NT)
{
    const uint64_t *t[GF2_MAXT];
    for (unsigned i = NT; i < GF2_MAXT; i++)
        t[i] = a->tab; /* never read for this NT */
    for (size_t r = a->r_lo; r < a->r_hi; r++) {
        if (r >= a->skip_lo && r < a->skip_hi) {
            r = a->skip_hi - 1;
            continue;
        }
        const uint8_t *x = a->idx + r * GF2_MAXT;
        uint64_t any = 0;
        memcpy(&any, x, sizeof any);
        if (!any)
            continue;
        for (unsigned i = 0; i < NT; i++)
            t[i] = a->tab + (((size_t)i << a->k) + x[i]) * a->strip;
        uint64_t *row = a->M + r * a->stride;
        if (!a->nruns) {
            xor_fused(row + ws, t, NT, n);
            continue;
        }
        for (size_t q = 0; q < a->nruns; q++) {
            size_t w = a->runs[2 * q], len = a->runs[2 * q + 1] - w;
            xor_fused(row + w, t, NT, len);
            for (unsigned i = 0; i < NT; i++)
                t[i] += len;
        }
    }
}

GF2_INLINE void pass_strip(const pass_args *a, size_t ws, size_t n)
{
    build_tables(a, ws, n);
    switch (a->nt) {
    case 8: process_rows(a, ws, n, 8); break;
    case 7: process_rows(a, ws, n, 7); break;
    case 6: process_rows(a, ws, n, 6); break;
    case 5: process_rows(a, ws, n, 5); break;
    case 4: process_rows(a, ws, n, 4); break;
    case 3: process_rows(a, ws, n, 3); break;
    case 2: process_rows(a, ws, n, 2); break;
    default: process_rows(a, ws, n, 1); break;
    }
}

GF2_INLINE void pass_body(const pass_args *a)
{
    if (a->nruns) { /* gathered: the runs' words fit one strip */
        size_t n = 0;
        for (size_t q = 0; q < a->nruns; q++)
            n += a->runs[2 * q + 1] - a->runs[2 * q];
        pass_strip(a, 0, n);
        return;
    }
    for (size_t ws = a->w0; ws < a->W; ws += a->strip)
        pass_strip(a, ws, a->W - ws < a->strip ? a->W - ws : a->strip);
}

TOGGLE__CLONES(pass, pass_args)

/* ---- the plain Four-Russians Gauss-Jordan ------------------------------- */

typedef struct plain_job {
    pass_args a;      /* the block's pass; tab, rows and words per thread */
    uint64_t **tabs;  /* one table set per thread */
    pass_fn pass;
    /* index phase */
    int gaps;
    unsigned nb, kk, nt;
    const unsigned *pos;
    uint64_t (*lut)[256];
    const size_t *pc;
    size_t *lead;     /* per row: a lower bound on its first nonzero word */
    /* the forward sweep (fwd): a row that gets pivot rows may then be
     * nonzero up to their bound ext_piv */
    size_t *ext, ext_piv;
    int fwd;
    uint64_t *acc;    /* W words of scratch (plain_work) */
    /* the work: rows [ra, rb) may hold the block's
     * pivot columns; the pivot rows are nonzero only on the word runs
     * [runs[2q], runs[2q + 1]), nlive words in all */
    size_t ra, rb, nruns, nlive;
    size_t *runs;
    unsigned T;       /* table sets: threads t >= T of a larger pool stay idle */
} plain_job;

/* The table indices of rows [lo, hi). */
static void index_range(plain_job *j, size_t lo, size_t hi)
{
    const pass_args *a = &j->a;
    size_t wl = j->pc[a->kbar - 1] >> 6; /* the last word holding a pivot column */
    for (size_t i = lo; i < hi; i++) {
        const uint64_t *row = a->M + i * a->stride;
        uint64_t x = 0;
        if ((i >= a->skip_lo && i < a->skip_hi) || j->lead[i] > wl)
            x = 0; /* a pivot row, or zero on every pivot column: not read */
        else if (!j->gaps)
            x = window(row, j->pc[0], a->kbar);
        else
            for (unsigned b = 0; b < j->nb; b++)
                x |= j->lut[b][(uint8_t)(row[a->w0 + j->pos[b] / 8] >> (j->pos[b] % 8 * 8))];
        /* row i gets pivot rows, which are zero left of word w0. (Not needed
         * for the skip: x != 0 means a pivot column at word >= lead[i], so
         * the next block starts at that word or later; kept as the plain
         * lower bound.) */
        if (x && j->lead[i] > a->w0)
            j->lead[i] = a->w0;
        if (x && j->fwd && j->ext[i] < j->ext_piv)
            j->ext[i] = j->ext_piv;
        uint8_t *d = (uint8_t *)a->idx + i * GF2_MAXT;
        for (unsigned q = 0; q < GF2_MAXT; q++) {
            d[q] = q < j->nt ? (uint8_t)(x & (((uint64_t)1 << j->kk) - 1)) : 0;
            x >>= j->kk;
        }
    }
}

/* Rows [lo, hi) of the live words [off, off + n) (counted along the runs). */
static void pass_live(const plain_job *j, pass_args a, size_t off, size_t n)
{
    if (j->nruns > 1 && off == 0 && n == j->nlive && n <= a.strip) {
        a.runs = j->runs; /* all of them: one visit per row */
        a.nruns = j->nruns;
        j->pass(&a);
        return;
    }
    for (size_t q = 0, at = 0; q < j->nruns && n; q++) {
        size_t len = j->runs[2 * q + 1] - j->runs[2 * q];
        if (off >= at + len) {
            at += len;
            continue;
        }
        size_t s = off - at, e = s + n < len ? s + n : len;
        a.w0 = j->runs[2 * q] + s;
        a.W = j->runs[2 * q] + e;
        j->pass(&a);
        n -= e - s;
        off += e - s;
        at += len;
    }
}

/* The block's work (j->a, pc and lead set): the runs of words where a pivot
 * row is nonzero (xoring zero words changes nothing; on a banded matrix
 * they are a few words by the diagonal and the right-hand side) and the
 * rows before `rows` that may hold a pivot column (lead at most the last
 * pivot word: below a band, none). */
static void plain_work(plain_job *j, size_t rows, size_t hi, const size_t *fw, size_t nfw)
{
    const pass_args *a = &j->a;
    size_t *runs = j->runs, nr = 0, live = 0, w0 = a->w0;
    /* acc: the OR of the pivot rows on words [w0, hi), the words fw[] and
     * the last one (zero elsewhere) */
    uint64_t *acc = j->acc;
    size_t n = hi > w0 ? hi - w0 : 0, q0 = 0; /* fw ascends: past [w0, hi) from q0 */
    while (q0 < nfw && fw[q0] < w0 + n)
        q0++;
    memset(acc + w0, 0, (a->W - w0) * sizeof *acc);
    for (unsigned l = 0; l < a->kbar; l++) {
        const uint64_t *row = a->piv + l * a->stride;
        for (size_t w = 0; w < n; w++)
            acc[w0 + w] |= row[w0 + w];
        for (size_t q = q0; q < nfw; q++)
            acc[fw[q]] |= row[fw[q]];
        acc[a->W - 1] |= row[a->W - 1];
    }
    for (size_t w = w0; w < a->W; w++) {
        if (!acc[w])
            continue;
        if (nr && w - runs[2 * nr - 1] < GF2_RUN_GAP) {
            live += w + 1 - runs[2 * nr - 1];
            runs[2 * nr - 1] = w + 1;
        } else {
            runs[2 * nr] = w;
            runs[2 * nr + 1] = w + 1;
            nr++;
            live++;
        }
    }
    j->nruns = nr;
    j->nlive = live;
    size_t wl = j->pc[a->kbar - 1] >> 6, ra = 0, rb = rows;
    while (ra < rows && j->lead[ra] > wl)
        ra++;
    while (rb > ra && j->lead[rb - 1] > wl)
        rb--;
    j->ra = ra;
    j->rb = rb;
}

/* A pool may have more threads than the job has table sets (an inner
 * elimination of the recursive form): the job runs on its first j->T
 * threads only; false for the others. */
static bool job_takes(const plain_job *j, unsigned t, unsigned *nt)
{
    if (*nt > j->T)
        *nt = j->T;
    return t < *nt;
}

/* Blocks with few active rows (under GF2_COLS_MAX_ROWS a thread) and
 * enough live words: the indices by row ranges, then (pass_cols, after a
 * join) the pass by ranges of the live words, each thread on every active
 * row. */
static void index_rows(void *ctx, unsigned t, unsigned nt)
{
    plain_job *j = ctx;
    if (!job_takes(j, t, &nt))
        return;
    size_t lo, hi;
    split(j->rb - j->ra, t, nt, 64, &lo, &hi);
    index_range(j, j->ra + lo, j->ra + hi);
}

static void pass_cols(void *ctx, unsigned t, unsigned nt)
{
    plain_job *j = ctx;
    if (!job_takes(j, t, &nt))
        return;
    pass_args a = j->a;
    size_t lo, hi;
    split(j->nlive, t, nt, 2, &lo, &hi);
    if (lo >= hi)
        return;
    a.r_lo = j->ra;
    a.r_hi = j->rb;
    a.tab = j->tabs[t];
    pass_live(j, a, lo, hi - lo);
}

/* Every other block (most of them: GF2_COLS_MAX_ROWS active rows a thread
 * or more, or few live words): each thread indexes and updates its own
 * range of the active rows on every live word, with its own tables; one
 * hand-off per block, no join between the phases (a row's indices are
 * read only by its own thread). */
static void pass_rows(void *ctx, unsigned t, unsigned nt)
{
    plain_job *j = ctx;
    if (!job_takes(j, t, &nt))
        return;
    pass_args a = j->a;
    size_t lo, hi;
    split(j->rb - j->ra, t, nt, 8, &lo, &hi);
    if (lo >= hi)
        return;
    index_range(j, j->ra + lo, j->ra + hi);
    a.r_lo = j->ra + lo;
    a.r_hi = j->ra + hi;
    a.tab = j->tabs[t];
    pass_live(j, a, 0, j->nlive);
}

/* Words of one thread's tables under plan p. */
static uint64_t plan_words(const plan *p) { return ((uint64_t)p->nt << p->k) * p->strip; }

uint64_t toggle__gf2_plain_bytes(size_t rows, size_t W, unsigned threads)
{
    plan p, q;
    choose_plan(rows, W, rows, &p);
    uint64_t tw = plan_words(&p);
    /* a banded matrix's plan (fewer bits a table, maybe wider strips) */
    for (size_t active = 64; active < rows; active *= 2) {
        choose_plan(rows, W, active, &q);
        tw = plan_words(&q) > tw ? plan_words(&q) : tw;
    }
    unsigned T = useful_threads(rows, W, threads);
    return T * (tw * 8 + 64) + (uint64_t)rows * (GF2_MAXT + 2 * sizeof(size_t) + 1) +
           (uint64_t)(W + 1) * 3 * sizeof(size_t) + (uint64_t)W * (8 + sizeof(size_t)) +
           GF2_LUTB * 256 * 8 + 64;
}

/* row_extent's lead from a given one (toggle__gf2_rref_rows): from the last
 * word on, the last word says which */
static inline size_t given_lead(const uint64_t *row, size_t W, size_t lead)
{
    return lead < W - 1 ? lead : row[W - 1] ? W - 1 : W;
}

/* Whether the rows' nonzero spans (first to last word, the last word left
 * out) average at most 1 / GF2_BAND_RATIO of the width, on up to 64 evenly
 * spaced rows; *words (may be NULL) gets that average, rounded up. */
bool toggle__gf2_banded_rows(toggle__gf2_view m, size_t *words)
{
    const uint64_t *M = m.p;
    size_t rows = m.rows, W = words_for(m.cols), stride = m.stride;
    if (words)
        *words = W;
    if (W < 2)
        return false;
    size_t step = (rows + 63) / 64, n = 0;
    uint64_t span = 0;
    for (size_t i = 0; i < rows; i += step, n++) {
        size_t lead, ext;
        row_extent(M + i * stride, W, &lead, &ext);
        span += ext > lead ? ext - lead : 0;
    }
    if (words)
        *words = (size_t)((span + n - 1) / n);
    return span * GF2_BAND_RATIO <= (uint64_t)n * (W - 1);
}

/* The pass of the kbar pivot rows from row r (columns pc, reduced among
 * themselves on them; zero left of word w0) over every row before `end`
 * that may hold one of their columns: tables, gather, live words and rows
 * (the caller then narrows [ra, rb)). */
static int plain_block(plain_ctx *x, plain_job *j, size_t r, unsigned kbar, const size_t *pc,
                       size_t w0, size_t hi, size_t nfw, size_t end)
{
    unsigned nt = (kbar + x->p.k - 1) / x->p.k, nb = 0;
    int gaps = pc[kbar - 1] - pc[0] != kbar - 1;
    if (gaps) {
        if (!x->lut && !(x->lut = toggle__malloc_array(GF2_LUTB, sizeof *x->lut)))
            return TOGGLE_ENOMEM;
        nb = toggle__gf2_build_gather(pc, kbar, w0, x->lut, x->pos);
    }
    *j = (plain_job){
        .a = {.M = x->M, .stride = x->stride, .rows = x->rows, .skip_lo = r, .skip_hi = r + kbar,
              .r_lo = 0, .r_hi = x->rows, .w0 = w0, .W = x->W, .piv = x->M + r * x->stride,
              .k = x->p.k, .nt = nt, .kbar = kbar, .strip = x->p.strip, .tab = x->tabs[0],
              .idx = x->idx},
        .tabs = x->tabs, .pass = x->pass, .gaps = gaps, .nb = nb, .kk = x->p.k, .nt = nt,
        .pos = x->pos, .lut = x->lut, .pc = pc, .lead = x->lead, .ext = x->ext,
        .runs = x->runs, .acc = x->acc, .T = x->T,
    };
    plain_work(j, end < x->rows ? end : x->rows, hi, x->fw, nfw);
    return TOGGLE_OK;
}

/* Rows [ra, rb) of the block's pass; on the pool when it is big enough
 * (a hand-off costs microseconds). */
static void plain_pass(plain_job *j, toggle__pool *pool)
{
    if (j->ra >= j->rb)
        return;
    unsigned T = j->T;
    int par = T > 1 && (uint64_t)(j->rb - j->ra) * j->nlive >= GF2_PAR_MIN_WORDS;
    if (par && j->nlive >= (size_t)GF2_COLS_MIN_WORDS * T &&
        j->rb - j->ra < (size_t)GF2_COLS_MAX_ROWS * T) {
        toggle__pool_run(pool, index_rows, j);
        toggle__pool_run(pool, pass_cols, j);
    } else {
        toggle__pool_run(par ? pool : NULL, pass_rows, j);
    }
}

/* The first row of [0, n) whose ext (made a running maximum) exceeds w,
 * n when none does. */
static size_t first_past(const size_t *ext, size_t n, size_t w)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ext[mid] > w)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* One plain elimination's workspace for a rows x W matrix (two: banded,
 * span its rows' average span in words; T table sets; lut: the gather
 * tables now, where a block would take them at its first gaps). Allocates
 * only: plain_setup reads the matrix. Returns TOGGLE_OK, TOGGLE_EOVERFLOW
 * (nothing allocated) or TOGGLE_ENOMEM (plain_free frees what was). */
int toggle__gf2_plain_alloc(plain_ctx *x, toggle__gf2_view m, size_t W, int two, size_t span,
                            unsigned T, bool lut)
{
    size_t rows = m.rows;
    *x = (plain_ctx){.M = m.p, .stride = m.stride, .rows = rows, .W = W, .T = T,
                     .pass = TOGGLE__PICK(pass)};
    /* a banded block's pass updates about a band of rows (as many as a row
     * spans columns, below it in the forward sweep, above it in the
     * backward one): the plan's tables follow that */
    choose_plan(rows, W, two ? (span + 1) * 64 : rows, &x->p);
    size_t trows = (size_t)x->p.nt << x->p.k, tabw, idxb;
    if (!toggle__mul_ok(trows, x->p.strip, &tabw) || !toggle__mul_ok(rows, GF2_MAXT, &idxb))
        return TOGGLE_EOVERFLOW;
    x->idx = toggle__calloc(idxb, 1);
    x->lead = toggle__malloc_array(rows, sizeof *x->lead);
    x->ext = toggle__malloc_array(rows, sizeof *x->ext);
    x->runs = toggle__malloc_array(W + 1, 2 * sizeof *x->runs);
    x->acc = toggle__malloc_array(W, sizeof *x->acc);
    x->fw = toggle__malloc_array(W, sizeof *x->fw);
    x->last = toggle__calloc(W + 1, sizeof *x->last);
    x->blk = toggle__malloc(rows);
    if (lut)
        x->lut = toggle__malloc_array(GF2_LUTB, sizeof *x->lut);
    int rc = x->idx && x->lead && x->ext && x->runs && x->acc && x->fw && x->last && x->blk &&
             (x->lut || !lut) ? TOGGLE_OK : TOGGLE_ENOMEM;
    for (unsigned t = 0; t < T && !rc; t++)
        if (!(x->tabs[t] = toggle__malloc_lines(tabw, sizeof(uint64_t))))
            rc = TOGGLE_ENOMEM;
    return rc;
}

void toggle__gf2_plain_free(plain_ctx *x)
{
    for (unsigned t = 0; t < x->T; t++)
        toggle__free(x->tabs[t]);
    toggle__free(x->idx);
    toggle__free(x->lead);
    toggle__free(x->ext);
    toggle__free(x->runs);
    toggle__free(x->acc);
    toggle__free(x->fw);
    toggle__free(x->last);
    toggle__free(x->lut);
    toggle__free(x->blk);
}

/* The rows' bounds, read from the matrix (have: lead and, for two sweeps,
 * ext already hold them), and last[]. */
void toggle__gf2_plain_setup(plain_ctx *x, int two, bool have)
{
    /* lead[i]: a lower bound on row i's first nonzero word (W: none); rows
     * that are zero on a block's pivot columns are then skipped unread */
    for (size_t i = 0; i < x->rows && !have; i++) {
        const uint64_t *row = x->M + i * x->stride;
        if (two) {
            row_extent(row, x->W, &x->lead[i], &x->ext[i]);
            continue;
        }
        size_t w = 0;
        while (w < x->W && !row[w])
            w++;
        x->lead[i] = w;
    }
    /* last[w]: 1 + the last row whose first word, as read, is at most w (a
     * running maximum). A forward block whose pivot columns end at word w
     * passes no row from last[w] on: the blocks' last words ascend, so every
     * pass and swap so far stayed before it (a swapped-in pivot row held the
     * column's bit, so it came before last[w]) and the rows from it on are
     * as read */
    for (size_t i = 0; i < x->rows; i++)
        if (x->lead[i] < x->W)
            x->last[x->lead[i]] = i + 1;
    for (size_t w = 1; w <= x->W; w++)
        if (x->last[w] < x->last[w - 1])
            x->last[w] = x->last[w - 1];
}

/* (gf2_elim.h) The pivot search of each block, its rows' bounds, then its
 * pass over the rows that may hold its columns (below the pivot rows only
 * for two sweeps). */
int toggle__gf2_plain_forward(plain_ctx *x, const toggle__gf2_sweep *sw,
                              const toggle__gf2_run *run, int *cancel)
{
    const toggle__progress_state *pr = run->progress;
    int two = sw->two;
    bool strict = sw->strict;
    atomic_int *stop = sw->stop;
    size_t *pivots = run->pivots, cmax = sw->cmax;
    unsigned Kmax = x->p.k * x->p.nt;
    size_t r = sw->r0, c = sw->r0, W = x->W;
    toggle__gf2_search s = {x->M, x->stride, x->rows, W, cmax, run->perm, x->lead,
                            two ? x->ext : NULL, x->runs /* free until plain_work */};
    int rc = TOGGLE_OK;
    while (r < x->rows && c < cmax) {
        if (pr && (*cancel = toggle__progress(pr, c, sw->units)))
            break;
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            break;
        size_t next, *pc = pivots + r;
        unsigned kbar = toggle__gf2_find_pivots(&s, r, c, Kmax, pc, &next);
        if (strict && (kbar == 0 || pc[0] != c || pc[kbar - 1] - c != kbar - 1)) {
            if (stop)
                atomic_store_explicit(stop, 1, memory_order_relaxed);
            break; /* a column without a pivot */
        }
        if (kbar > 0) {
            /* rows r.. are zero left of column c: the pivot rows, combined
             * among themselves, start at word c / 64 or later and end by
             * the last of their bounds */
            size_t e = W; /* ext is kept for two sweeps only */
            for (unsigned l = 0; l < kbar; l++)
                x->lead[r + l] = c >> 6;
            if (two) {
                e = 0;
                for (unsigned l = 0; l < kbar; l++)
                    e = x->ext[r + l] > e ? x->ext[r + l] : e;
                for (unsigned l = 0; l < kbar; l++)
                    x->ext[r + l] = e;
            }
            x->blk[r + kbar - 1] = (uint8_t)kbar;
            plain_job j;
            size_t end = x->last[pc[kbar - 1] >> 6];
            if ((rc = plain_block(x, &j, r, kbar, pc, c >> 6, e, 0, end)))
                break;
            j.fwd = two;
            j.ext_piv = e;
            if (two && j.ra < r + kbar)
                j.ra = r + kbar;
            plain_pass(&j, run->pool);
        }
        r += kbar;
        c = next;
    }
    *run->rank = r;
    return rc;
}

/* Back substitution on a forward sweep's echelon form with a pivot on
 * every column of [0, n): row i (the pivot of column i) is zero left of
 * word i / 64 and holds words [i / 64, ext[i]) and the last (W - 1), whose
 * bit `rhs` is its right-hand side. xb holds x_j for the columns past n
 * that the rows reach; x_i, i < n, are set in it. */
void toggle__gf2_echelon_solve(const uint64_t *M, size_t stride, size_t W, const size_t *ext,
                               size_t n, uint64_t rhs, uint64_t *xb)
{
    size_t Wx = W - 1;
    for (size_t i = n; i-- > 0;) {
        const uint64_t *row = M + i * stride;
        uint64_t acc = row[Wx] & xb[Wx];
        for (size_t w = i >> 6; w < ext[i]; w++)
            acc ^= row[w] & xb[w];
        if (((row[Wx] & rhs) != 0) != __builtin_parityll((unsigned long long)acc))
            xb[i >> 6] |= (uint64_t)1 << (i & 63);
    }
}

/* The forward blocks of an echelon prefix of r0 rows (pivot i on column i)
 * as blk0 marks them (blk0[e]: the pivots of the block ending at row e),
 * cut to at most this plan's pivots a block: the rows of one block are
 * reduced among themselves on its pivot columns, so any run of them is. */
static void plain_blocks(plain_ctx *x, const uint8_t *blk0, size_t r0)
{
    size_t Kmax = (size_t)x->p.k * x->p.nt;
    for (size_t s = 0, e = 0; e < r0; e++) {
        if (!blk0[e])
            continue;
        for (size_t a = s; a <= e; a += Kmax) {
            size_t n = e + 1 - a < Kmax ? e + 1 - a : Kmax;
            x->blk[a + n - 1] = (uint8_t)n;
        }
        s = e + 1;
    }
}

/* No free column (a full-rank board): the reduced form is [I | x] on the
 * r rows, so x is read off the echelon form by back substitution (row i is
 * zero left of column i and holds words [i / 64, ext[i]) and the last),
 * then each row is rewritten as its pivot bit and x_i, where the backward
 * sweep's blocks would build their tables for the same rows. Rows past the
 * rank are zero. */
static void plain_identity(plain_ctx *x, size_t r)
{
    size_t W = x->W, stride = x->stride;
    uint64_t *M = x->M, *xb = x->acc, rhs = (uint64_t)1 << (r & 63); /* x_j: bit j of xb */
    memset(xb, 0, W * sizeof *xb);
    toggle__gf2_echelon_solve(M, stride, W, x->ext, r, rhs, xb);
    for (size_t i = 0; i < r; i++)
        identity_row(M + i * stride, i, W, i >> 6, x->ext[i], rhs, (xb[i >> 6] >> (i & 63)) & 1);
}

/* The backward sweep over the r pivot rows of a forward sweep's echelon
 * form, last block first. Returns TOGGLE_OK or TOGGLE_ENOMEM (*cancel: the
 * progress callback's verdict; units: both sweeps' columns). */
static int plain_backward(plain_ctx *x, const toggle__gf2_run *run, size_t r, uint64_t units,
                          int *cancel)
{
    const size_t *pivots = run->pivots;
    size_t W = x->W, Wx = W - 1;
    /* ext as a running maximum, so the rows that reach word w start at
     * first_past(ext, ., w) */
    for (size_t i = 1; i < r; i++)
        if (x->ext[i] < x->ext[i - 1])
            x->ext[i] = x->ext[i - 1];
    /* a block's pivot rows then hold words [w0, ext) (their bound from the
     * forward sweep), free columns (from later blocks) and the last word */
    size_t nfw = 0;
    memset(x->acc, 0, W * sizeof *x->acc);
    for (size_t i = 0; i < r; i++)
        x->acc[pivots[i] >> 6] |= (uint64_t)1 << (pivots[i] & 63);
    for (size_t w = 0; w + 1 < W; w++)
        if (~x->acc[w])
            x->fw[nfw++] = w;
    int rc = TOGGLE_OK;
    for (size_t end = r; !rc && end > 0;) {
        unsigned kbar = x->blk[end - 1];
        size_t s = end - kbar, w0 = pivots[s] >> 6;
        const size_t *pc = pivots + s;
        end = s;
        if (s == 0)
            break;
        if (run->progress && (*cancel = toggle__progress(run->progress, units - pc[0], units)))
            break;
        plain_job j;
        if ((rc = plain_block(x, &j, s, kbar, pc, w0, x->ext[s + kbar - 1], nfw, s)))
            break;
        /* a row above holds one of these columns only if it did after the
         * forward sweep (later blocks add only free columns): ext reaches w0 */
        size_t lo = pc[kbar - 1] >> 6 < Wx ? first_past(x->ext, s, w0) : 0;
        if (j.ra < lo)
            j.ra = lo;
        plain_pass(&j, run->pool);
    }
    return rc;
}

/* (gf2_elim.h) Two sweeps when the rows are banded: the forward one finds
 * every block's pivots and clears their columns below the pivot rows only
 * (an echelon form); the backward one, last block first, clears each
 * block's columns above its pivot rows, whose rows by then are zero on
 * every later pivot column, so it adds only their own columns, the free
 * ones and the right-hand side. The RREF is unique, so this is the RREF a
 * single top-down sweep gives, pivots and swaps included; but on a banded
 * matrix the rows above a block that hold its columns are the band's, not
 * every row above, and they get no fill right of the band. ext[i] bounds
 * row i's last nonzero word left of the last word (1 + its index, 0:
 * none), kept through the forward sweep, so the backward one visits only
 * the rows that reach the block. On other rows one top-down sweep, each
 * block clearing its columns above and below at once: on a dense matrix
 * the backward sweep's extra visit of every row above costs more than the
 * words it saves, and the rows are not read whole. */
int toggle__gf2_rref_plain(toggle__gf2_view m, const toggle__gf2_run *run,
                           const toggle__gf2_from *from)
{
    size_t rows = m.rows, cols = m.cols, stride = m.stride, W = words_for(cols);
    uint64_t *M = m.p;
    *run->rank = 0;
    if (rows == 0 || cols == 0)
        return TOGGLE_OK;
    size_t span = W;
    int two = toggle__gf2_banded_rows(m, &span);
    plain_ctx x;
    int rc = toggle__gf2_plain_alloc(&x, m, W, two, span,
                                     useful_threads(rows, W, toggle__pool_threads(run->pool)),
                                     false);
    if (rc == TOGGLE_EOVERFLOW)
        return toggle__error(TOGGLE_EOVERFLOW, "GF(2) workspace overflows size_t");
    int cancel = TOGGLE_OK; /* the progress callback's verdict, once per pivot block */
    /* progress: the sweeps' columns */
    toggle__gf2_sweep sw = {.two = two, .cmax = cols, .units = (two ? 2 : 1) * (uint64_t)cols};
    size_t r = 0;
    if (!rc) {
        bool have = from && from->lead && from->ext; /* the rows' bounds as given */
        for (size_t i = 0; have && i < rows; i++) {
            x.lead[i] = given_lead(M + i * stride, W, from->lead[i]);
            x.ext[i] = from->ext[i];
        }
        toggle__gf2_plain_setup(&x, two, have);
        /* one sweep clears above too: not from an echelon prefix */
        sw.r0 = two && from ? from->r0 : 0;
        for (size_t i = 0; i < sw.r0; i++)
            run->pivots[i] = i;
        plain_blocks(&x, from ? from->blk0 : NULL, sw.r0);
        toggle__gf2_run fwd = *run;
        fwd.rank = &r;
        rc = toggle__gf2_plain_forward(&x, &sw, &fwd, &cancel);
    }
    *run->rank = r;
    const size_t *pivots = run->pivots;
    if (two && !rc && !cancel && r > 0 && r + 1 == cols && pivots[r - 1] == r - 1)
        plain_identity(&x, r);
    else if (two && !rc && !cancel)
        rc = plain_backward(&x, run, r, sw.units, &cancel);
    toggle__gf2_plain_free(&x);
    if (rc)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) elimination tables");
    return cancel;
}
