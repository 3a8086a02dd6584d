/* The plain form on two threads: a full-rank banded square system [A | b]
 * (a Lights Out board) eliminated from both ends at once. The rows split into a top T (every row with a column
 * left of word a), a bottom B (every row with a column from word bw on)
 * and the rows between, none in both. The caller eliminates T's columns
 * [0, 64 a) top-down in place while a second thread eliminates B's columns
 * [64 bw, N) bottom-up, as a top-down sweep of R, B with its rows and
 * columns reversed, written over B's rows (a copy would fault in fresh pages
 * on every solve); the
 * rows left (T's and R's past their pivots, and those between) form a
 * small square system on the middle columns, solved on its own; then each
 * side substitutes back on its echelon form and rewrites its rows as
 * [I | x]. Each sweep passes only its own rows, so they never meet. A
 * column without a pivot (A singular) stops both; R's rows are turned
 * back, and the matrix, changed by row operations only, goes to
 * the plain form: the RREF of a row-equivalent matrix is the same. Below
 * GF2_TWIST_MIN_ROWS rows the second thread's start costs more than it
 * saves; the middle is at most GF2_TWIST_MID_WORDS words wide. */
#include "gf2_elim.h"

typedef toggle__gf2_plain plain_ctx;

/* The bit-reversed word. */
static inline uint64_t rev64(uint64_t v)
{
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(v);
}

/* dst (dw words) gets src's columns [lo, hi) ORed in, column j at column
 * D - j (D >= hi - 1, every D - j inside dst). */
static void put_reversed(uint64_t *dst, size_t dw, const uint64_t *src, size_t lo, size_t hi,
                         size_t D)
{
    for (size_t w = lo >> 6; lo < hi && w <= (hi - 1) >> 6; w++) {
        uint64_t v = src[w];
        if (w == lo >> 6)
            v &= ~(uint64_t)0 << (lo & 63);
        if (w == (hi - 1) >> 6 && (hi & 63))
            v &= ~(~(uint64_t)0 << (hi & 63));
        if (!v)
            continue;
        /* column 64 w + u sits at bit 63 - u of rv, bound for D - 64 w - u:
         * rv's bit 0 goes to column s (s >= -63: 64 w <= hi - 1 <= D) */
        uint64_t rv = rev64(v);
        ptrdiff_t s = (ptrdiff_t)D - (ptrdiff_t)(64 * w) - 63;
        if (s < 0) {
            dst[0] |= rv >> -s;
            continue;
        }
        size_t q = (size_t)s >> 6;
        unsigned sh = (unsigned)s & 63;
        dst[q] |= rv << sh;
        if (sh && q + 1 < dw)
            dst[q + 1] |= rv >> (64 - sh);
    }
}

typedef struct twist_job {
    uint64_t *M, *R, *xb, *xr, *tmp; /* R: M's row bb on; tmp: 2 W zero words */
    size_t stride, N, W, Rw, a, bw, t, bb;
    uint64_t rhs;
    size_t *lead, *ext, *fa, *la; /* per row of M, as read (fa, la: A's words) */
    double ns[2];                 /* each share's time for its half of the extents */
    plain_ctx top, bot;
    size_t *tpiv, *bpiv, rtop, rbot;
    atomic_int stop;
    int rc_top, rc_bot, cancel;
    const toggle__progress_state *pr;
    uint64_t units;
} twist_job;

/* The rows' bounds, half on each share, timed: the split weighs each
 * side's work by its share's speed here (twist_split). */
static void twist_extents(void *ctx, unsigned t, unsigned nt)
{
    twist_job *j = ctx;
    size_t lo, hi, Wx = j->W - 1;
    nt = nt > 2 ? 2 : nt;
    if (t >= nt)
        return;
    split(j->N, t, nt, 64, &lo, &hi);
    uint64_t t0 = toggle__clock_ns();
    for (size_t i = lo; i < hi; i++) {
        const uint64_t *row = j->M + i * j->stride;
        row_extent(row, j->W, &j->lead[i], &j->ext[i]);
        bool tail = (row[Wx] & ~j->rhs) != 0; /* A's columns in the last word */
        j->fa[i] = j->lead[i] < Wx ? j->lead[i] : tail ? Wx : SIZE_MAX;
        j->la[i] = tail ? Wx : j->ext[i] ? j->ext[i] - 1 : SIZE_MAX;
    }
    j->ns[t] = (double)(toggle__clock_ns() - t0) / (double)(hi > lo ? hi - lo : 1);
}

/* M's row i moved to tmp (its words fa .. la and the last; zero after). */
static void twist_take(const twist_job *j, uint64_t *tmp, uint64_t *row, size_t i)
{
    size_t Wx = j->W - 1, n = j->la[i] + 1 - j->fa[i];
    if (j->la[i] < Wx) {
        tmp[Wx] = row[Wx];
        row[Wx] = 0;
    }
    memcpy(tmp + j->fa[i], row + j->fa[i], n * sizeof *row);
    memset(row + j->fa[i], 0, n * sizeof *row);
}

/* R's row q (zero) from M's row i in tmp, which is left zero. */
static void twist_put(twist_job *j, uint64_t *tmp, size_t i, size_t q)
{
    size_t N = j->N, Rx = j->Rw - 1, rc = N - 64 * j->a, Wx = j->W - 1;
    size_t lo = 64 * j->fa[i], hi = 64 * j->la[i] + 64;
    uint64_t *dst = j->R + q * j->stride;
    hi = hi < N ? hi : N;
    put_reversed(dst, j->Rw, tmp, lo, hi, N - 1);
    if (tmp[Wx] & j->rhs)
        dst[Rx] |= (uint64_t)1 << (rc & 63);
    memset(tmp + j->fa[i], 0, (j->la[i] + 1 - j->fa[i]) * sizeof *tmp);
    tmp[Wx] = 0;
    /* bounds as row_extent gives them (a lower one and an upper one) */
    size_t f = (N - hi) >> 6, l = (N - 1 - lo) >> 6;
    j->bot.lead[q] = f;
    j->bot.ext[q] = l < Rx ? l + 1 : Rx;
}

/* Share 0: T's sweep; share 1: B into R (row q from M's row N - 1 - q,
 * M's column j < N at column N - 1 - j, the right-hand side at column
 * N - 64 a), then R's sweep. */
static void twist_sweeps(void *ctx, unsigned t, unsigned nt)
{
    twist_job *j = ctx;
    (void)nt;
    if (t == 0) {
        memcpy(j->top.lead, j->lead, j->t * sizeof *j->lead);
        memcpy(j->top.ext, j->ext, j->t * sizeof *j->ext);
        toggle__gf2_plain_setup(&j->top, 1, true);
        toggle__gf2_sweep sw = {.two = 1, .cmax = 64 * j->a, .units = j->units, .strict = true,
                                .stop = &j->stop};
        toggle__gf2_run run = {.pivots = j->tpiv, .rank = &j->rtop, .progress = j->pr};
        j->rc_top = toggle__gf2_plain_forward(&j->top, &sw, &run, &j->cancel);
        if (j->cancel || j->rc_top)
            atomic_store_explicit(&j->stop, 1, memory_order_relaxed);
        return;
    }
    if (t != 1)
        return;
    size_t N = j->N, nb = N - j->bb;
    uint64_t *ta = j->tmp, *tb = j->tmp + j->W;
    for (size_t q = 0; q < (nb + 1) / 2; q++) { /* rows bb + q and N - 1 - q trade */
        size_t p1 = j->bb + q, p2 = N - 1 - q;
        twist_take(j, ta, j->M + p1 * j->stride, p1);
        if (p2 == p1) {
            twist_put(j, ta, p1, q);
            continue;
        }
        twist_take(j, tb, j->M + p2 * j->stride, p2);
        twist_put(j, tb, p2, q);
        twist_put(j, ta, p1, nb - 1 - q);
    }
    toggle__gf2_plain_setup(&j->bot, 1, true);
    int cancel = TOGGLE_OK;
    toggle__gf2_sweep sw = {.two = 1, .cmax = N - 64 * j->bw, .strict = true, .stop = &j->stop};
    toggle__gf2_run run = {.pivots = j->bpiv, .rank = &j->rbot};
    j->rc_bot = toggle__gf2_plain_forward(&j->bot, &sw, &run, &cancel);
    if (j->rc_bot)
        atomic_store_explicit(&j->stop, 1, memory_order_relaxed);
}

/* R's row q, moved to tmp (its words from bot.lead to bot.ext and the
 * last: zero elsewhere), back in M's columns at M's row p; tmp left zero. */
static void twist_unput(twist_job *j, uint64_t *tmp, size_t q, size_t p)
{
    size_t N = j->N, rc = N - 64 * j->a, Rx = j->Rw - 1;
    size_t lo = j->bot.lead[q] < Rx ? j->bot.lead[q] : Rx, ext = j->bot.ext[q];
    uint64_t *row = j->M + p * j->stride;
    if (ext > lo) {
        put_reversed(row, j->W, tmp, 64 * lo, 64 * ext < rc ? 64 * ext : rc, N - 1);
        memset(tmp + lo, 0, (ext - lo) * sizeof *tmp);
    }
    if (64 * Rx < rc)
        put_reversed(row, j->W, tmp, 64 * Rx, rc, N - 1);
    if (tmp[Rx] & ((uint64_t)1 << (rc & 63)))
        row[j->W - 1] |= j->rhs;
    tmp[Rx] = 0;
}

/* R's row q at M's row bb + q into tmp, the row left zero. */
static void twist_untake(twist_job *j, uint64_t *tmp, size_t q)
{
    size_t Rx = j->Rw - 1, lo = j->bot.lead[q] < Rx ? j->bot.lead[q] : Rx, ext = j->bot.ext[q];
    uint64_t *row = j->R + q * j->stride;
    if (ext > lo) {
        memcpy(tmp + lo, row + lo, (ext - lo) * sizeof *tmp);
        memset(row + lo, 0, (ext - lo) * sizeof *row);
    }
    tmp[Rx] = row[Rx];
    row[Rx] = 0;
}

/* R's rows back in M's columns, each at the row it came from (the rows
 * stay in band order for the plain form; a row of R is row-equivalent to B's
 * rows, not to its source alone, and the RREF does not depend on that). */
static void twist_unreverse(twist_job *j)
{
    size_t N = j->N, nb = N - j->bb;
    uint64_t *ta = j->tmp, *tb = j->tmp + j->W;
    for (size_t q = 0; q < (nb + 1) / 2; q++) {
        size_t q2 = nb - 1 - q; /* at M's rows bb + q and N - 1 - q: they trade */
        twist_untake(j, ta, q);
        if (q2 != q) {
            twist_untake(j, tb, q2);
            twist_unput(j, tb, q2, j->bb + q);
        }
        twist_unput(j, ta, q, N - 1 - q);
    }
}

/* Share 0: T's x by substitution, then T's rows; share 1: R's (in its
 * coordinates), then the rows from t on. xb holds the middle's x. */
static void twist_back(void *ctx, unsigned t, unsigned nt)
{
    twist_job *j = ctx;
    (void)nt;
    size_t N = j->N, mid = 64 * j->bw;
    if (t == 0) {
        toggle__gf2_echelon_solve(j->M, j->stride, j->W, j->top.ext, 64 * j->a, j->rhs, j->xb);
        for (size_t i = 0; i < j->t; i++)
            identity_row(j->M + i * j->stride, i, j->W, j->top.lead[i], j->top.ext[i], j->rhs,
                         (j->xb[i >> 6] >> (i & 63)) & 1);
        return;
    }
    if (t != 1)
        return;
    uint64_t rrhs = (uint64_t)1 << ((N - 64 * j->a) & 63);
    toggle__gf2_echelon_solve(j->R, j->stride, j->Rw, j->bot.ext, N - mid, rrhs, j->xr);
    for (size_t i = j->t; i < N; i++) {
        size_t q = N - 1 - i, lead = j->lead[i], ext = j->ext[i];
        bool xi = i < mid ? (j->xb[i >> 6] >> (i & 63)) & 1 : (j->xr[q >> 6] >> (q & 63)) & 1;
        uint64_t *row = j->M + i * j->stride;
        if (i >= j->bb) { /* R's row i - bb */
            lead = j->bot.lead[i - j->bb];
            ext = j->bot.ext[i - j->bb];
            row[j->Rw - 1] = 0;
        }
        identity_row(row, i, j->W, lead, ext, j->rhs, xi);
    }
}

/* The split: words a < bw of the middle, T = rows [0, t), B = rows
 * [bb, N); false when none fits (GF2_TWIST_MID_WORDS, enough rows for
 * each side's pivots). Balances the sides' work. */
static bool twist_split(twist_job *j, size_t *tend, size_t *bst)
{
    size_t N = j->N, WA = (N + 63) / 64;
    /* tend[w]: 1 + the last row with a column left of word w; bst[w]: the
     * first row with a column at word w or later */
    memset(tend, 0, (WA + 1) * sizeof *tend);
    for (size_t w = 0; w <= WA; w++)
        bst[w] = N;
    for (size_t i = 0; i < N; i++) {
        if (j->fa[i] == SIZE_MAX)
            return false; /* a zero row of A: singular */
        if (tend[j->fa[i] + 1] < i + 1)
            tend[j->fa[i] + 1] = i + 1;
        if (bst[j->la[i]] > i)
            bst[j->la[i]] = i;
    }
    for (size_t w = 1; w <= WA; w++)
        tend[w] = tend[w] > tend[w - 1] ? tend[w] : tend[w - 1];
    for (size_t w = WA; w-- > 0;)
        bst[w] = bst[w] < bst[w + 1] ? bst[w] : bst[w + 1];
    /* the second share's time a row over the first's (the two CPUs may
     * differ in speed), within [1/3, 3] */
    double rel = j->ns[0] > 0 && j->ns[1] > 0 ? j->ns[1] / j->ns[0] : 1;
    rel = rel < 1.0 / 3 ? 1.0 / 3 : rel > 3 ? 3 : rel;
    double best = -1;
    for (size_t a = 1; a < WA; a++) {
        if (tend[a] < 64 * a)
            continue; /* fewer rows than T's columns */
        for (size_t b = a + 1; b <= a + GF2_TWIST_MID_WORDS && 64 * b < N; b++) {
            if (bst[b] < tend[a] || bst[b] > 64 * b)
                continue;
            /* R's rows cost their reversal besides their sweep: about an
             * eighth of a column's sweep each */
            double bot = (double)(N - 64 * b + (N - bst[b]) / 8) * rel;
            double cost = (double)(64 * a) > bot ? (double)(64 * a) : bot;
            if (best < 0 || cost < best) {
                best = cost;
                j->a = a;
                j->bw = b;
                j->t = tend[a];
                j->bb = bst[b];
                j->Rw = words_for(N - 64 * a + 1);
            }
            break; /* a wider middle for this a costs more */
        }
    }
    return best >= 0;
}

/* The middle system: T's rows past its pivots, the rows between, R's past
 * its pivots, on columns [64 a, 64 bw); its x into xb and (reversed) xr.
 * Returns TOGGLE_OK (*full: it has full rank) or TOGGLE_ENOMEM. */
static int twist_middle(twist_job *j, unsigned fault, bool *full)
{
    size_t N = j->N, qn = 64 * (j->bw - j->a), Qw = words_for(qn + 1), k = 0, r = 0;
    size_t lo = N - 64 * j->bw, hi = N - 64 * j->a, Wx = j->W - 1;
    uint64_t qrhs = (uint64_t)1 << (qn & 63);
    *full = false;
    uint64_t *Q = toggle__calloc(qn * Qw, sizeof *Q);
    size_t *qp = toggle__malloc_array(qn, sizeof *qp);
    int rc = Q && qp ? TOGGLE_OK : TOGGLE_ENOMEM;
    for (size_t i = 64 * j->a; !rc && i < j->bb; i++, k++) {
        const uint64_t *src = j->M + i * j->stride;
        memcpy(Q + k * Qw, src + j->a, (j->bw - j->a) * sizeof *Q);
        if (src[Wx] & j->rhs)
            Q[k * Qw + Qw - 1] |= qrhs;
    }
    for (size_t q = lo; !rc && q < N - j->bb; q++, k++) {
        const uint64_t *src = j->R + q * j->stride;
        put_reversed(Q + k * Qw, Qw, src, lo, hi, hi - 1);
        if (src[j->Rw - 1] & ((uint64_t)1 << (hi & 63)))
            Q[k * Qw + Qw - 1] |= qrhs;
    }
    if (!rc)
        rc = toggle__gf2_rref_plain((toggle__gf2_view){Q, qn, qn + 1, Qw},
                                    &(toggle__gf2_run){.pivots = qp, .rank = &r}, NULL);
    if (!rc && r == qn && qp[qn - 1] == qn - 1) {
        *full = true;
        for (size_t c = 0; c < qn; c++) {
            bool x = (Q[c * Qw + Qw - 1] & qrhs) != 0;
            if (fault == TOGGLE__GF2_FAULT_MIDDLE && c == 0)
                x = !x;
            size_t m = 64 * j->a + c, q = N - 1 - m;
            j->xb[m >> 6] |= (uint64_t)x << (m & 63);
            j->xr[q >> 6] |= (uint64_t)x << (q & 63);
        }
    }
    toggle__free(Q);
    toggle__free(qp);
    return rc;
}

/* (gf2_elim.h) The rows' bounds, two plain workspaces, the middle system
 * and its elimination's. */
uint64_t toggle__gf2_twist_bytes(size_t rows, size_t W)
{
    size_t qn = 64 * GF2_TWIST_MID_WORDS, qw = GF2_TWIST_MID_WORDS + 1;
    return 2 * toggle__gf2_plain_bytes(rows, W, 1) + (uint64_t)rows * 5 * sizeof(size_t) +
           (uint64_t)(W + 1) * 6 * sizeof(size_t) + (uint64_t)qn * (qw * 8 + sizeof(size_t)) +
           toggle__gf2_plain_bytes(qn, qw, 1) + 256;
}

static void twist_free(twist_job *j, bool go, size_t *tend, size_t *bst)
{
    if (go) {
        toggle__gf2_plain_free(&j->top);
        toggle__gf2_plain_free(&j->bot);
    }
    void *blocks[] = {j->xb, j->xr, j->tmp, j->bpiv, j->lead, j->ext, j->fa, j->la, tend, bst};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        toggle__free(blocks[i]);
}

/* (gf2_elim.h) From both ends when A has full rank; singular (or stopped),
 * the plain form goes on from the top's echelon rows. */
int toggle__gf2_rref_twisted(toggle__gf2_view m, const toggle__gf2_run *run, size_t span,
                             bool *done)
{
    uint64_t *M = m.p;
    size_t N = m.rows, cols = m.cols, stride = m.stride, W = words_for(cols);
    size_t *pivots = run->pivots;
    toggle__pool *pool = run->pool;
    const toggle__progress_state *pr = run->progress;
    *done = false;
    if (toggle__pool_threads(pool) < 2 || cols != N + 1 || N < GF2_TWIST_MIN_ROWS)
        return TOGGLE_OK;
    twist_job j = {.M = M, .stride = stride, .N = N, .W = W, .rhs = (uint64_t)1 << (N & 63),
                   .tpiv = pivots, .pr = pr, .units = cols};
    size_t WA = (N + 63) / 64;
    j.lead = toggle__malloc_array(N, sizeof *j.lead);
    j.ext = toggle__malloc_array(N, sizeof *j.ext);
    j.fa = toggle__malloc_array(N, sizeof *j.fa);
    j.la = toggle__malloc_array(N, sizeof *j.la);
    size_t *tend = toggle__malloc_array(WA + 1, sizeof *tend);
    size_t *bst = toggle__malloc_array(WA + 1, sizeof *bst);
    int rc = j.lead && j.ext && j.fa && j.la && tend && bst ? TOGGLE_OK : TOGGLE_ENOMEM;
    bool go = false;
    if (!rc) {
        toggle__pool_run(pool, twist_extents, &j);
        go = twist_split(&j, tend, bst);
    }
    size_t nb = N - j.bb;
    if (!rc && go) {
        atomic_init(&j.stop, 0);
        j.R = M + j.bb * stride;
        j.xb = toggle__calloc(W, sizeof *j.xb);
        j.xr = toggle__calloc(j.Rw, sizeof *j.xr);
        j.tmp = toggle__calloc(W, 2 * sizeof *j.tmp);
        j.bpiv = toggle__malloc_array(nb, sizeof *j.bpiv);
        rc = j.xb && j.xr && j.tmp && j.bpiv ? TOGGLE_OK : TOGGLE_ENOMEM;
        toggle__gf2_view top = {M, j.t, cols, stride}, bot = {j.R, nb, cols, stride};
        int r1 = rc ? rc : toggle__gf2_plain_alloc(&j.top, top, W, 1, span, 1, true);
        int r2 = rc ? rc : toggle__gf2_plain_alloc(&j.bot, bot, j.Rw, 1, span, 1, true);
        rc = r1 ? r1 : r2;
    }
    bool full = false, swept = false;
    if (!rc && go) {
        toggle__pool_run(pool, twist_sweeps, &j);
        swept = true;
        rc = j.rc_top ? j.rc_top : j.rc_bot;
        if (!rc && !j.cancel && j.rtop == 64 * j.a && j.rbot == N - 64 * j.bw)
            rc = twist_middle(&j, run->fault, &full);
    }
    /* singular (or stopped): the top's echelon rows [0, rtop) are kept and
     * the plain form goes on from them, with R's rows turned back */
    uint8_t *blk = NULL;
    size_t r0 = 0;
    if (!rc && !j.cancel && full) {
        toggle__pool_run(pool, twist_back, &j);
        for (size_t i = 0; i < N; i++)
            pivots[i] = i;
        *run->rank = N;
        *done = true;
    } else if (swept && !j.cancel) {
        twist_unreverse(&j); /* (after an error M is the caller's to drop) */
        blk = j.top.blk;
        j.top.blk = NULL;
        r0 = j.rtop;
    }
    twist_free(&j, go, tend, bst);
    if (rc == TOGGLE_EOVERFLOW)
        rc = toggle__error(rc, "GF(2) workspace overflows size_t");
    else if (rc)
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for GF(2) elimination tables");
    else if (j.cancel)
        rc = j.cancel;
    else if (blk) {
        toggle__gf2_run rest = {.pivots = pivots, .rank = run->rank, .progress = pr};
        toggle__gf2_from from = {.r0 = r0, .blk0 = blk};
        rc = toggle__gf2_rref_plain(m, &rest, &from);
        *done = true;
    }
    toggle__free(blk);
    return rc;
}
