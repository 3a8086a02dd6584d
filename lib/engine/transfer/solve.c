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

/* The lanes path for a board over a prime. plain: the row programs
 * everywhere (no hex recurrence), for the tests; local: odd p tries
 * toggle__tr_canonicalise_local before canonicalise (*ran, when not NULL,
 * tells whether it gave the answer). */
int toggle__tr_lanes_solve(const toggle_system *s, toggle_solution *sol, bool plain, bool local,
                           bool *ran, bool *spanned)
{
    tframe f;
    bool oom;
    if (!toggle__tr_frame_pick(s, &f, &oom))
        return toggle__tr_pick_error(oom);
    if (plain)
        f.rec = f.s3 = -1, f.notri = true;
    toggle_solution *small = NULL;
    lanes ln;
    memset(&ln, 0, sizeof ln);
    uint64_t *resid = NULL, *tmp = NULL, *U = NULL;
    bool full = false, checked = false;
    size_t *pcell = NULL; /* toggle__tr_rev_canonical's free cells */
    size_t m = f.m;
    int rc = toggle__tr_small_system(s, &f, &small, NULL);
    if (rc)
        goto out;
    size_t dn = toggle_solution_nullity(small);
    bool solvable = toggle_solution_is_solvable(small) == 1;
    if ((rc = toggle__transfer_answers_init(s, sol, solvable, dn)))
        goto out;
    size_t L = dn + (solvable ? 1 : 0);
    if (L) {
        if ((rc = toggle__tr_lanes_init(&ln, &f, L)))
            goto out;
        tmp = toggle__malloc_array(m ? m : 1, sizeof *tmp);
        resid = toggle__calloc(m * ln.nw + 1, sizeof *resid);
        if (!tmp || !resid) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        U = toggle__malloc_array(m ? L * m : 1, sizeof *U);
        if (!U) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        for (size_t l = 0; l < L; l++) {
            if (solvable && l == 0)
                rc = toggle_solution_particular(small, U + l * m, m);
            else
                rc = toggle_solution_kernel_vector(small, l - solvable, U + l * m, m);
            if (rc)
                goto out;
            for (size_t i = 0; f.rev && i < m / 2; i++) { /* columns reversed */
                uint64_t t = U[l * m + i];
                U[l * m + i] = U[l * m + m - 1 - i];
                U[l * m + m - 1 - i] = t;
            }
        }
        /* the canonical form from the last board rows (when they decide):
         * F_2 packed, on either axis, over growing tails; odd p on the
         * frame's last rows */
        if (dn && f.p == 2 && !f.all && !f.rev) {
            if ((rc = toggle__tr_tail_f2_canonical(&ln, s, solvable, U, m, resid, &full)))
                goto out;
        } else if (dn && !f.tr && !f.all && !f.rev) {
            toggle__tr_load_lanes(&ln, U, m);
            if ((rc = toggle__tr_tail_canonical(&ln, s, solvable, U, m, resid, &full)))
                goto out;
        } else if (dn && f.tr && !f.all && !f.rev) {
            /* odd p, a transposed frame: the last board rows, one try (on
             * the boards sampled, docs/transfer.md, a longer tail never
             * decided where the first did not) */
            if ((rc = toggle__tr_tail_rows_p(&ln, s, solvable, U, m, resid, toggle__tr_tail_first(&f, dn), &full)))
                goto out;
        } else if (dn && f.rev) {
            toggle__tr_load_lanes(&ln, U, m);
            if (!(pcell = toggle__malloc_array(dn, sizeof *pcell))) {
                rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
                goto out;
            }
            if ((rc = toggle__tr_rev_canonical(&ln, s, solvable, U, m, resid, pcell, &full)))
                goto out;
            checked = !full;
        } else {
            full = dn > 0;
        }
        toggle__tr_load_lanes(&ln, U, m);
        out_ctx ctx = {sol, solvable, NULL, NULL, NULL, NULL, SIZE_MAX, 0, false};
        size_t CW = (f.C + 63) / 64;
        if (f.p == 2 && f.tr
            && (!(ctx.blk = toggle__calloc(toggle__tr_tcol_words(&f, L, ln.nw), sizeof *ctx.blk))
                || !(ctx.col = toggle__malloc_array(f.C > 64 ? f.C : 64, sizeof *ctx.col)))) {
            toggle__free(ctx.blk);
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        if (f.p == 2 && !f.tr && !(ctx.tbuf = toggle__calloc(L * CW, sizeof *ctx.tbuf))) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        if (f.p != 2 && !(ctx.dst = toggle__malloc_array(L, sizeof *ctx.dst))) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory for the transfer answers");
            goto out;
        }
        for (size_t l = 0; ctx.dst && l < L; l++)
            ctx.dst[l] = solvable && l == 0 ? toggle__vecs_row(&sol->x, 0)
                                            : toggle__vecs_row(&sol->kernel, l - solvable);
        rc = toggle__tr_chase(&ln, solvable, s, resid, toggle__tr_write_row, &ctx);
        if (!rc)
            toggle__tr_tcol_flush(&ctx, &ln);
        toggle__free(ctx.tbuf);
        toggle__free(ctx.blk);
        toggle__free(ctx.col);
        toggle__free(ctx.dst);
        if (rc)
            goto out;
        for (size_t i = 0; i < m * ln.nw; i++)
            if (resid[i]) {
                rc = toggle__error(TOGGLE_EINTERNAL, "transfer chase leaves a residue");
                goto out;
            }
    }
    bool done = false, sp = false;
    loc_chase lc = {&ln, U, m, solvable, resid};
    if (full && f.p != 2 && local
        && (rc = toggle__tr_canonicalise_local(s, sol, L && !f.all ? &lc : NULL, &done, &sp)))
        goto out;
    if (ran)
        *ran = done;
    if (spanned)
        *spanned = sp;
    if (full && !done)
        rc = f.p == 2 && sol->kernel.packed ? toggle__tr_canonicalise_f2(sol) : toggle__tr_canonicalise(sol);
    else if (checked)
        rc = canonical_check(sol, pcell);
out:
    toggle__tr_lanes_clear(&ln);
    toggle__free(resid);
    toggle__free(tmp);
    toggle__free(U);
    toggle__free(pcell);
    toggle_solution_free(small);
    toggle__tr_frame_clear(&f);
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
