/* The transfer engine (TOGGLE_ENGINE_TRANSFER): light chasing generalised to
 * every grid (square, hex and tri lattices, Moore, torus and cylinder) and
 * every stencil, with the canonical answers of full elimination. This file
 * is the engine's table entry and its dispatch: Moore boards with self to
 * the separable route (kron.c), the square torus to the ring route
 * (ring.c), composite k to the Howell route (composite.c), every other
 * board over a prime to the lanes path (solve.c and the files below it).
 * docs/transfer.md has the method, the proofs and the file map. */
#include "engine/transfer/transfer_internal.h"
#include "engine/transfer/kron.h"
#include "engine/transfer/ring.h"

/* The dense engine of this build for the small systems: FLINT, or the
 * library's own without FLINT (-Dflint=disabled). */
#ifdef TOGGLE_HAVE_FLINT
#define TRANSFER_SMALL_ENGINE toggle__engine_flint
#else
#define TRANSFER_SMALL_ENGINE toggle__engine_dense
#endif

static bool transfer_applies(const toggle_system *s, char *why, size_t len)
{
    const toggle_graph *g = s->graph;
    if (!g || (g->kind != TOGGLE_KIND_GRID && g->kind != TOGGLE_KIND_STENCIL))
        return toggle__probe_no(why, len, "the transfer engine needs a grid or stencil graph");
    if (!toggle__is_prime(s->k)) /* composite k: composite.c */
        return toggle__transfer_composite_applies(s, why, len);
    return true;
}

static bool transfer_probe(const toggle_system *s, char *why, size_t len)
{
    if (!transfer_applies(s, why, len))
        return false;
    if (toggle__transfer_kron_applies(s)) /* no small system */
        return true;
    if (toggle__transfer_ring_applies(s))
        return toggle__transfer_ring_probe(s, why, len);
    tframe f;
    bool oom;
    if (!toggle__tr_frame_pick(s, &f, &oom)) {
        if (oom) /* could not tell: not a "no" */
            return toggle__probe_oom();
        if (!toggle__is_prime(s->k))
            return toggle__probe_no(why, len, "the transfer engine's composite path (k = %llu) "
                                    "needs the board rows' coupling block to peel with "
                                    "weights that are units mod k",
                                    (unsigned long long)s->k);
        return toggle__probe_no(why, len, "the transfer engine finds no axis whose coupling "
                                "block peels (singular or not triangular on both axes, or "
                                "a stencil reaching more than %d rows)", TRANSFER_MAX_REACH);
    }
    size_t m = f.m, nx = f.nx;
    toggle__tr_frame_clear(&f);
    /* the small system must be small: at most half the board's unknowns,
     * a quarter when the peeling promotes unknowns */
    if (s->n > SMALL_MIN_CELLS && (nx ? SMALL_SHARE_PROMO : SMALL_SHARE) * m > s->n)
        return toggle__probe_no(why, len, "the transfer engine's small system (%zu unknowns) "
                                "is not small for %zu cells", m, s->n);
    return true;
}

/* A system without a grid (the certificate system of a board whose A is
 * not symmetric) goes to dense elimination, composite k to composite.c,
 * every other board to the lanes path (solve.c). */
static int lanes_solve(const toggle_system *s, toggle_solution *sol, bool plain, bool local,
                       bool *ran, bool *spanned)
{
    if (!is_board(s))
        return TRANSFER_SMALL_ENGINE.solve(s, sol);
    if (!toggle__is_prime(s->k))
        return toggle__transfer_composite_solve(s, sol);
    return toggle__tr_lanes_solve(s, sol, plain, local, ran, spanned);
}

int toggle__transfer_lanes_solve(const toggle_system *s, toggle_solution *sol)
{
    return lanes_solve(s, sol, false, true, NULL, NULL);
}

int toggle__transfer_lanes_solve_plain(const toggle_system *s, toggle_solution *sol)
{
    return lanes_solve(s, sol, true, true, NULL, NULL);
}

int toggle__transfer_lanes_solve_canon(const toggle_system *s, toggle_solution *sol, bool local,
                                       bool *ran, bool *spanned)
{
    bool r = false, sp = false;
    int rc = lanes_solve(s, sol, false, local, &r, &sp);
    if (ran)
        *ran = r;
    if (spanned)
        *spanned = sp;
    return rc;
}

/* The estimate of the route transfer_solve takes. */
static int transfer_estimate(const toggle_system *s, uint64_t *bytes)
{
    if (!is_board(s))
        return TRANSFER_SMALL_ENGINE.estimate(s, bytes);
    if (toggle__transfer_kron_applies(s))
        return toggle__transfer_kron_estimate(s, bytes);
    if (toggle__transfer_ring_applies(s))
        return toggle__transfer_ring_estimate(s, bytes);
    if (!toggle__is_prime(s->k))
        return toggle__transfer_composite_estimate(s, bytes);
    return toggle__tr_lanes_estimate(s, bytes);
}

/* Moore boards with self take the separable route (kron.c), the square
 * torus the ring route (ring.c), every other board the lanes. */
static int transfer_solve(const toggle_system *s, toggle_solution *sol)
{
    if (toggle__transfer_kron_applies(s))
        return toggle__transfer_kron_solve(s, sol);
    if (toggle__transfer_ring_applies(s))
        return toggle__transfer_ring_solve(s, sol);
    return toggle__transfer_lanes_solve(s, sol);
}


/* The certificate comes from the policy (symmetric A: from the kernel; else
 * the transposed system, a stencil reversed, chased by this engine). */
const toggle__engine toggle__engine_transfer = {transfer_probe, transfer_estimate,
                                                transfer_solve, NULL};
