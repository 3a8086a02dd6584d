/* The GF(2) elimination's entry points (gf2.h): AUTO's choice of form for
 * the matrix's shape, size and content, the workspace bound of each form,
 * and the run of the chosen one. */
#include "gf2_elim.h"

/* AUTO's panel where the products run on GFNI: a sixteenth of the words below 512 words, an eighth
 * from there (4096 columns: 4 words, 8192: 8, 16384: 16, 32768: 64), a
 * power of two from 2 to PROD_PANEL, twice as wide for a matrix twice as
 * tall as wide and four times for eight times (its updates cover many
 * rows, its pivot searches only a prefix), halved while wider than the
 * rank can be. Panels below 2 * PROD_MIN_PANEL recurse down to one word
 * (toggle__gf2_prod_min). */
static size_t gfni_panel(size_t rows, size_t W)
{
    size_t pw = 2, want = W >= 512 ? W / 8 : W / 16;
    while (pw * 2 <= want && pw * 2 <= PROD_PANEL)
        pw *= 2;
    if (rows / 8 >= W * 64)
        pw *= 4;
    else if (rows / 2 >= W * 64)
        pw *= 2;
    if (pw > PROD_PANEL)
        pw = PROD_PANEL;
    size_t most = (rows < W * 64 ? rows : W * 64) / 64;
    while (pw > 1 && pw > most)
        pw /= 2;
    return pw;
}

/* Whether at most one word in GF2_SPARSE_WORDS of M's rows (up to 512 of
 * them, evenly spaced) is nonzero: a banded or sparse matrix, such as a
 * Lights Out board's, whose fill the plain form's passes skip and the
 * products do not. Stops as soon as the count passes the share of all
 * sampled words (a dense matrix: its first row); a sample of 512 rows
 * keeps the read small next to a board's solve. */
static bool sparse_words(const uint64_t *M, size_t rows, size_t W, size_t stride)
{
    size_t step = (rows + 511) / 512, n = (rows + step - 1) / step, live = 0;
    uint64_t most = (uint64_t)n * W; /* the words sampled */
    for (size_t i = 0; i < rows; i += step) {
        for (size_t w = 0; w < W; w++)
            live += M[i * stride + w] != 0;
        if ((uint64_t)live * GF2_SPARSE_WORDS > most)
            return false;
    }
    return true;
}

/* The form used for this shape and configuration (PLAIN or RECURSIVE) and
 * its panel width in words. AUTO on GFNI also reads the matrix
 * (sparse_words: then PLAIN); M NULL (the estimate): the form for a dense
 * one, and *by_content says the matrix could make it PLAIN. */
static int choose_mode(const uint64_t *M, size_t stride, size_t rows, size_t W,
                       const toggle__gf2_cfg *cfg, size_t *pw, bool *by_content)
{
    int mode = cfg ? cfg->mode : TOGGLE__GF2_AUTO;
    size_t panel = cfg ? cfg->panel : 0;
    *pw = 0;
    *by_content = false;
    if (mode == TOGGLE__GF2_AUTO && toggle__gf2_gfni_ok()) {
        if ((uint64_t)rows * W < PROD_GFNI_MIN_WORDS || rows < PROD_GFNI_MIN_SIDE ||
            W * 64 < PROD_GFNI_MIN_SIDE || (M && sparse_words(M, rows, W, stride)))
            return TOGGLE__GF2_PLAIN;
        *by_content = !M;
        *pw = gfni_panel(rows, W);
        return TOGGLE__GF2_RECURSIVE;
    }
    if (mode == TOGGLE__GF2_AUTO) {
        if ((uint64_t)rows * W >= PROD_MIN_WORDS && W >= 2 * PROD_NARROW) {
            *pw = W < 4 * PROD_PANEL ? PROD_NARROW : PROD_PANEL;
            return TOGGLE__GF2_RECURSIVE;
        }
        return TOGGLE__GF2_PLAIN;
    }
    if (mode == TOGGLE__GF2_RECURSIVE || mode == TOGGLE__GF2_RECURSIVE_DEEP) {
        *pw = panel < 1 ? PROD_PANEL : panel;
        return TOGGLE__GF2_RECURSIVE; /* DEEP: psearch 0 (toggle__gf2_rref_rows) */
    }
    return TOGGLE__GF2_PLAIN;
}

uint64_t toggle__gf2_workspace_bytes(size_t rows, size_t cols, const toggle__gf2_cfg *cfg)
{
    size_t W = words_for(cols), pw;
    bool by_content;
    int mode = choose_mode(NULL, 0, rows, W, cfg, &pw, &by_content);
    unsigned threads = cfg ? cfg->threads : 1;
    uint64_t pool = threads > 1 ? (uint64_t)threads * 256 + 1024 : 0;
    uint64_t plain = toggle__gf2_plain_bytes(rows, W, threads);
    if (threads > 1 && cols == rows + 1 && rows >= GF2_TWIST_MIN_ROWS) { /* the two-ended form */
        plain += rows; /* its block marks, kept for the plain form after it */
        uint64_t twist = toggle__gf2_twist_bytes(rows, W);
        plain = twist > plain ? twist : plain;
    }
    if (mode != TOGGLE__GF2_RECURSIVE)
        return pool + plain;
    uint64_t rec = toggle__gf2_prod_bytes(rows, cols, pw, toggle__gf2_prod_min(pw), threads, 1);
    if (by_content && plain > rec) /* a sparse matrix takes the plain form */
        rec = plain;
    return pool + rec;
}

int toggle__gf2_rref_cfg(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                         size_t *rank, const toggle__gf2_cfg *cfg)
{
    return toggle__gf2_rref_rows(M, rows, cols, stride, pivots, rank, cfg, NULL, NULL);
}

/* The plain form's two sweeps (banded rows) pass too few words a block to
 * share, so a banded matrix runs on the caller alone; but a full-rank
 * square one (a board) is eliminated from both ends at once, on two
 * threads (the two-ended form). */
int toggle__gf2_rref_rows(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                          size_t *rank, const toggle__gf2_cfg *cfg, const size_t *lead,
                          const size_t *ext)
{
    size_t W = words_for(cols), pw;
    *rank = 0;
    if (rows == 0 || cols == 0)
        return TOGGLE_OK;
    toggle__gf2_view m = {M, rows, cols, stride};
    bool by_content;
    int mode = choose_mode(M, stride, rows, W, cfg, &pw, &by_content);
    unsigned want = useful_threads(rows, W, cfg ? cfg->threads : 1);
    size_t span = W;
    bool band = want > 1 && mode == TOGGLE__GF2_PLAIN && toggle__gf2_banded_rows(m, &span);
    bool twist = band && cols == rows + 1 && rows >= GF2_TWIST_MIN_ROWS;
    if (band)
        want = twist ? 2 : 1;
    toggle__gf2_run run = {.pivots = pivots, .rank = rank,
                           .pool = toggle__pool_new(want), /* NULL: the caller alone */
                           .progress = cfg ? cfg->progress : NULL,
                           .fault = cfg ? cfg->fault : 0};
    int rc = TOGGLE_OK;
    bool done = false;
    if (mode == TOGGLE__GF2_RECURSIVE) {
        /* the search's form (PROD_SEARCH_TALL): tuned where products run on
         * GFNI, recursive on every panel when a test asks */
        toggle__gf2_prod_cfg pc = {pw, toggle__gf2_prod_min(pw), 1,
                                   toggle__gf2_gfni_ok() &&
                                       !(cfg && cfg->mode == TOGGLE__GF2_RECURSIVE_DEEP)};
        rc = toggle__gf2_rref_prod(m, &run, &pc);
        done = true;
    }
    if (!rc && twist)
        rc = toggle__gf2_rref_twisted(m, &run, span, &done);
    if (!rc && !done) { /* M as given (the two-ended form ends singular boards itself) */
        toggle__gf2_run plain = run;
        plain.pool = band ? NULL : run.pool;
        rc = toggle__gf2_rref_plain(m, &plain, &(toggle__gf2_from){.lead = lead, .ext = ext});
    }
    toggle__pool_free(run.pool);
    return rc;
}

int toggle__gf2_rref(uint64_t *M, size_t rows, size_t cols, size_t stride, size_t *pivots,
                     size_t *rank)
{
    return toggle__gf2_rref_cfg(M, rows, cols, stride, pivots, rank, NULL);
}
