/* The FLINT engine: dense nmod_mat elimination of [A | b] over Z/pZ.
 * lib/engine/flint is the only folder that includes FLINT or GMP headers.
 * Every argument is validated and the memory budget checked before FLINT is
 * called, since FLINT aborts on bad input and on allocation failure. */
#include <string.h>

#include <flint/flint.h>
#include <flint/nmod_mat.h>

#include "flint_guard.h"
#include "engine/engine.h"

static bool flint_probe(const toggle_system *s, char *why, size_t len)
{
    return toggle__probe_prime(s, "FLINT", why, len);
}

/* Alive at the readout: the matrix and the pivots. */
static uint64_t held_bytes(const toggle_system *s)
{
    unsigned __int128 h = (unsigned __int128)s->m * (s->n + 1) * sizeof(mp_limb_t)
                        + (unsigned __int128)s->m * sizeof(size_t);
    return h > UINT64_MAX ? UINT64_MAX : (uint64_t)h;
}

static int flint_estimate(const toggle_system *s, uint64_t *bytes)
{
    /* [A | b] as one word per entry (M); nmod_mat_rref works in place but
     * its LU and triangular-solve stages hold a second copy, so the peak
     * is about 2 M: budget 2.25 M plus 64 KiB of FLINT's fixed blocks
     * (tests/reliability/test_peak.c holds the estimate within 2x of the
     * peak the allocator hooks count). The certificate system (the
     * transpose) comes after M is freed. */
    unsigned __int128 M = (unsigned __int128)s->m * (s->n + 1) * sizeof(mp_limb_t);
    unsigned __int128 e = M * 2 + M / 4 + (unsigned __int128)(s->m + s->n + 2) * 64
                        + ((unsigned __int128)64 << 10);
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    if ((unsigned __int128)s->m * (s->n + 2) > (unsigned __int128)(WORD_MAX / 2))
        return toggle__error(TOGGLE_ENOMEM, "%zu x %zu system is too large for FLINT",
                             s->m, s->n);
    /* the readout: the matrix and the pivots still held, plus the answers */
    uint64_t readout = 0;
    int rc = toggle__readout_estimate(s, held_bytes(s), &readout);
    if (readout > *bytes)
        *bytes = readout;
    return rc;
}

static void put(void *M, size_t i, size_t j, uint64_t v)
{
    nmod_mat_entry((nmod_mat_struct *)M, i, j) = v;
}

/* nmod_mat_rref swaps row pointers, not rows: move the rows back into
 * row-major order of the entry block (each row moves once), so that the
 * block reads as full-width vectors. tmp holds one row. */
static void order_rows(nmod_mat_t M, uint64_t *tmp)
{
    size_t m = (size_t)M->r, c = (size_t)M->c;
    for (size_t i = 0; i < m; i++) {
        if (M->rows[i] == M->entries + i * c)
            continue;
        /* follow the cycle through row i: position cur receives the row
         * that rows[cur] points at */
        memcpy(tmp, M->entries + i * c, c * sizeof *tmp);
        size_t cur = i;
        for (;;) {
            size_t src = (size_t)(M->rows[cur] - M->entries) / c;
            M->rows[cur] = M->entries + cur * c;
            if (src == i) {
                memcpy(M->rows[cur], tmp, c * sizeof *tmp);
                break;
            }
            memcpy(M->rows[cur], M->entries + src * c, c * sizeof *tmp);
            cur = src;
        }
    }
}

/* Everything between nmod_mat_init and nmod_mat_clear, run inside the FLINT
 * guard's recovery point (flint_guard.h): FLINT can only fail in
 * nmod_mat_init and nmod_mat_rref, before any vector of sol is allocated. */
typedef struct {
    const toggle_system *s;
    toggle_solution *sol;
    size_t *pivot;
    uint64_t held;
} flint_job;

static int flint_eliminate(void *arg)
{
    flint_job *job = arg;
    const toggle_system *s = job->s;
    size_t m = s->m, n = s->n, rank = 0;
    if (m == 0)
        return toggle__readout_rref(s, job->sol, NULL, 0, job->pivot, job->held);
    nmod_mat_t M;
    nmod_mat_init(M, (slong)m, (slong)(n + 1), s->k);
    int rc = toggle__system_each_entry(s, put, M);
    if (!rc) {
        for (size_t i = 0; i < m; i++)
            nmod_mat_entry(M, i, n) = toggle__rhs(s, i);
        /* FLINT's elimination is one call that cannot be interrupted:
         * report (and honour a cancel) before and after it. */
        if ((rc = toggle__progress(&s->progress, 0, 1))) {
            nmod_mat_clear(M);
            return rc;
        }
        rank = (size_t)nmod_mat_rref(M);
        if ((rc = toggle__progress(&s->progress, 1, 1))) {
            nmod_mat_clear(M);
            return rc;
        }
        for (size_t i = 0, j = 0; i < rank; i++) {
            while (nmod_mat_entry(M, i, j) == 0)
                j++;
            job->pivot[i] = j;
        }
        uint64_t *tmp = toggle__malloc_array(n + 1, sizeof *tmp);
        if (!tmp) {
            nmod_mat_clear(M);
            return toggle__error(TOGGLE_ENOMEM, "out of memory reading the reduced matrix");
        }
        order_rows(M, tmp);
        toggle__free(tmp);
        toggle__vecs R = {.len = n + 1, .count = m, .stride = n + 1, .width = 64,
                          .data = M->entries};
        rc = toggle__readout_rref(s, job->sol, &R, rank, job->pivot, job->held);
    }
    nmod_mat_clear(M);
    return rc;
}

static int flint_solve(const toggle_system *s, toggle_solution *sol)
{
    size_t *pivot = toggle__calloc(s->m ? s->m : 1, sizeof *pivot);
    if (!pivot)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for pivot bookkeeping");
    flint_job job = {s, sol, pivot, held_bytes(s)};
    int rc = toggle__flint_call(flint_eliminate, &job, "nmod_mat_rref");
    toggle__free(pivot);
    return rc;
}

const toggle__engine toggle__engine_flint = {flint_probe, flint_estimate, flint_solve, NULL};
