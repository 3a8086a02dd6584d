/* The lanes path over a prime: the small system, the answers chased from its
 * solution, their canonical form (tail, rev, local or full), and the chase
 * the composite path calls. Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"
#include "engine/transfer/ring.h"

/* The answers are the canonical ones for the free cells piv (ascending):
 * kernel vector i is 1 at piv[i] and 0 at the others, x is 0 there, and
 * (a scan of the whole basis, for answers of up to 2^24 entries: the tests'
 * boards) vector i's last nonzero is piv[i]; such a basis of the kernel is
 * the RREF's (docs/transfer.md). */
static int canonical_check(const toggle_solution *sol, const size_t *piv)
{
    const toggle__vecs *K = &sol->kernel;
    size_t dn = sol->nullity;
    bool ok = true, scan = dn <= CHECK_SCAN_MAX / (K->len ? K->len : 1);
    for (size_t i = 0; ok && i < dn; i++)
        ok = (i == 0 || piv[i] > piv[i - 1]) && (!scan || toggle__vecs_last_nonzero(K, i) == piv[i]);
    for (size_t i = 0; ok && i < dn; i++)
        for (size_t j = 0; ok && j < dn; j++)
            ok = toggle__vecs_get(K, i, piv[j]) == (i == j);
    for (size_t j = 0; ok && sol->solvable && j < dn; j++)
        ok = toggle__vecs_get(&sol->x, 0, piv[j]) == 0;
    return ok ? TOGGLE_OK
              : toggle__error(TOGGLE_EINTERNAL, "transfer: the kernel basis is not canonical");
}

/* The lanes path's state: the frame, the small system, its answers as
 * lanes and as rows U (L of m: x first when solvable, then the kernel),
 * and what the canonical phase decided (freed in one place). */
typedef struct {
    tframe f;
    toggle_solution *small;
    lanes ln;
    uint64_t *resid, *tmp, *U;
    size_t *pcell; /* toggle__tr_rev_canonical's free cells */
    size_t m, dn, L;
    bool solvable;
    bool full;    /* canonicalise the answers afterwards */
    bool checked; /* check them against pcell afterwards */
} lsolve;

static void lsolve_clear(lsolve *st)
{
    toggle__tr_lanes_clear(&st->ln);
    toggle__free(st->resid);
    toggle__free(st->tmp);
    toggle__free(st->U);
    toggle__free(st->pcell);
    toggle_solution_free(st->small);
    toggle__tr_frame_clear(&st->f);
    st->resid = st->tmp = st->U = NULL;
    st->pcell = NULL;
    st->small = NULL;
}

/* The lanes and the small system's answers as rows of U (columns reversed
 * on a rev frame). */
static int lsolve_vectors(lsolve *st)
{
    size_t m = st->m, L = st->L;
    int rc = toggle__tr_lanes_init(&st->ln, &st->f, L);
    if (rc)
        return rc;
    st->tmp = toggle__malloc_array(m ? m : 1, sizeof *st->tmp);
    st->resid = toggle__calloc(m * st->ln.nw + 1, sizeof *st->resid);
    if (!st->tmp || !st->resid)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    st->U = toggle__malloc_array(m ? L * m : 1, sizeof *st->U);
    if (!st->U)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    uint64_t *U = st->U;
    for (size_t l = 0; l < L; l++) {
        if (st->solvable && l == 0)
            rc = toggle_solution_particular(st->small, U + l * m, m);
        else
            rc = toggle_solution_kernel_vector(st->small, l - st->solvable, U + l * m, m);
        if (rc)
            return rc;
        for (size_t i = 0; st->f.rev && i < m / 2; i++) { /* columns reversed */
            uint64_t t = U[l * m + i];
            U[l * m + i] = U[l * m + m - 1 - i];
            U[l * m + m - 1 - i] = t;
        }
    }
    return TOGGLE_OK;
}

/* The canonical form from the last board rows (when they decide): F_2
 * packed, on either axis, over growing tails; odd p on the frame's last
 * rows; a rev frame by its free cells (checked afterwards); else full. */
static int lsolve_tail(lsolve *st, const toggle_system *s)
{
    const tframe *f = &st->f;
    size_t dn = st->dn, m = st->m;
    bool tail = dn && !f->all && !f->rev;
    if (tail && f->p == 2)
        return toggle__tr_tail_f2_canonical(&st->ln, s, st->solvable, st->U, m, st->resid, &st->full);
    if (tail && !f->tr) {
        toggle__tr_load_lanes(&st->ln, st->U, m);
        return toggle__tr_tail_canonical(&st->ln, s, st->solvable, st->U, m, st->resid, &st->full);
    }
    if (tail) {
        /* odd p, a transposed frame: the last board rows, one try (on the
         * boards sampled, docs/transfer.md, a longer tail never decided
         * where the first did not) */
        return toggle__tr_tail_rows_p(&st->ln, s, st->solvable, st->U, m, st->resid,
                                      toggle__tr_tail_first(f, dn), &st->full);
    }
    if (dn && f->rev) {
        toggle__tr_load_lanes(&st->ln, st->U, m);
        if (!(st->pcell = toggle__malloc_array(dn, sizeof *st->pcell)))
            return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
        int rc = toggle__tr_rev_canonical(&st->ln, s, st->solvable, st->U, m, st->resid, st->pcell,
                                          &st->full);
        if (rc)
            return rc;
        st->checked = !st->full;
        return TOGGLE_OK;
    }
    st->full = dn > 0;
    return TOGGLE_OK;
}

/* The output buffers of ctx for the frame's field and axis, and dst's
 * targets: x then the kernel vectors of sol. */
static int lsolve_out_alloc(const lsolve *st, toggle_solution *sol, out_ctx *ctx)
{
    const tframe *f = &st->f;
    size_t L = st->L, CW = (f->C + 63) / 64;
    if (f->p == 2 && f->tr
        && (!(ctx->blk = toggle__calloc(toggle__tr_tcol_words(f, L, st->ln.nw), sizeof *ctx->blk))
            || !(ctx->col = toggle__malloc_array(f->C > 64 ? f->C : 64, sizeof *ctx->col))))
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    if (f->p == 2 && !f->tr && !(ctx->tbuf = toggle__calloc(L * CW, sizeof *ctx->tbuf)))
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    if (f->p != 2 && !(ctx->dst = toggle__malloc_array(L, sizeof *ctx->dst)))
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    for (size_t l = 0; ctx->dst && l < L; l++)
        ctx->dst[l] = st->solvable && l == 0 ? toggle__vecs_row(&sol->x, 0)
                                             : toggle__vecs_row(&sol->kernel, l - st->solvable);
    return TOGGLE_OK;
}

/* The answers written into sol by one chase; the residue must be 0. */
static int lsolve_chase(lsolve *st, const toggle_system *s, toggle_solution *sol)
{
    toggle__tr_load_lanes(&st->ln, st->U, st->m);
    out_ctx ctx = {sol, st->solvable, NULL, NULL, NULL, NULL, SIZE_MAX, 0, false};
    int rc = lsolve_out_alloc(st, sol, &ctx);
    if (!rc)
        rc = toggle__tr_chase(&st->ln, st->solvable, s, st->resid, toggle__tr_write_row, &ctx);
    if (!rc)
        toggle__tr_tcol_flush(&ctx, &st->ln);
    toggle__free(ctx.tbuf);
    toggle__free(ctx.blk);
    toggle__free(ctx.col);
    toggle__free(ctx.dst);
    if (rc)
        return rc;
    for (size_t i = 0; i < st->m * st->ln.nw; i++)
        if (st->resid[i])
            return toggle__error(TOGGLE_EINTERNAL, "transfer chase leaves a residue");
    return TOGGLE_OK;
}

/* The canonical form where the tail did not give it: local (odd p, when
 * asked), else canonicalise; or the rev form's check. */
static int lsolve_canonical(lsolve *st, const toggle_system *s, toggle_solution *sol, bool local,
                            bool *ran, bool *spanned)
{
    const tframe *f = &st->f;
    bool done = false, sp = false;
    loc_chase lc = {&st->ln, st->U, st->m, st->solvable, st->resid};
    int rc;
    if (st->full && f->p != 2 && local
        && (rc = toggle__tr_canonicalise_local(s, sol, st->L && !f->all ? &lc : NULL, &done, &sp)))
        return rc;
    if (ran)
        *ran = done;
    if (spanned)
        *spanned = sp;
    if (st->full && !done)
        return f->p == 2 && sol->kernel.packed ? toggle__tr_canonicalise_f2(sol)
                                               : toggle__tr_canonicalise(sol);
    if (st->checked)
        return canonical_check(sol, st->pcell);
    return TOGGLE_OK;
}

/* The lanes path for a board over a prime. plain: the row programs
 * everywhere (no hex recurrence), for the tests; local: odd p tries
 * toggle__tr_canonicalise_local before canonicalise (*ran, when not NULL,
 * tells whether it gave the answer). */
int toggle__tr_lanes_solve(const toggle_system *s, toggle_solution *sol, bool plain, bool local,
                           bool *ran, bool *spanned)
{
    lsolve st;
    memset(&st, 0, sizeof st);
    bool oom;
    if (!toggle__tr_frame_pick(s, &st.f, &oom))
        return toggle__tr_pick_error(oom);
    if (plain)
        st.f.rec = st.f.s3 = -1, st.f.notri = true;
    st.m = st.f.m;
    int rc = toggle__tr_small_system(s, &st.f, &st.small, NULL);
    if (!rc) {
        st.dn = toggle_solution_nullity(st.small);
        st.solvable = toggle_solution_is_solvable(st.small) == 1;
        st.L = st.dn + (st.solvable ? 1 : 0);
        rc = toggle__transfer_answers_init(s, sol, st.solvable, st.dn);
    }
    if (!rc && st.L && !(rc = lsolve_vectors(&st)) && !(rc = lsolve_tail(&st, s)))
        rc = lsolve_chase(&st, s, sol);
    if (!rc)
        rc = lsolve_canonical(&st, s, sol, local, ran, spanned);
    lsolve_clear(&st);
    return rc;
}

int toggle__transfer_chase(const toggle_system *s, toggle__tframe *f, const uint64_t *U, size_t L,
                           bool with_b, toggle_solution *sol, size_t H, uint64_t *T,
                           uint64_t *res)
{
    lanes ln;
    int rc = toggle__tr_lanes_init(&ln, f, L);
    if (rc)
        return rc;
    uint64_t *resid = toggle__calloc(f->m * ln.nw + 1, sizeof *resid);
    out_ctx ctx = {sol, with_b, NULL, NULL, NULL, NULL, SIZE_MAX, 0, false};
    tail_ctx t = {0, H, T, NULL, NULL, NULL, 0};
    if (!resid || (sol && !(ctx.dst = toggle__malloc_array(L, sizeof *ctx.dst))))
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
    for (size_t l = 0; !rc && sol && l < L; l++)
        ctx.dst[l] = with_b && l == 0 ? toggle__vecs_row(&sol->x, 0)
                                      : toggle__vecs_row(&sol->kernel, l - with_b);
    if (!rc) {
        toggle__tr_load_lanes(&ln, U, f->m);
        rc = sol ? toggle__tr_chase(&ln, with_b, s, resid, toggle__tr_write_row, &ctx)
                 : toggle__tr_chase(&ln, with_b, s, resid, toggle__tr_capture_row, &t);
    }
    for (size_t i = 0; !rc && sol && i < f->m * ln.nw; i++)
        if (resid[i])
            rc = toggle__error(TOGGLE_EINTERNAL, "transfer chase leaves a residue");
    for (size_t e = 0; !rc && res && e < f->m; e++)
        res[e] = lane_get(&ln, resid + e * ln.nw, 0);
    toggle__free(ctx.dst);
    toggle__free(resid);
    toggle__tr_lanes_clear(&ln);
    return rc;
}
