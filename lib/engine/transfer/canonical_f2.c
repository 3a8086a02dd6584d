/* The canonical kernel over F_2 by a packed RREF of the whole basis, bits
 * reversed. Internal. */
#include <string.h>

#include "linalg/gf2/gf2.h"
#include "engine/transfer/transfer_internal.h"

static uint64_t word_reverse(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(x);
}

/* Bit t of the first n bits of v becomes bit n - 1 - t, in place (the
 * padding bits past n are zero before and after). */
static void bits_reverse(uint64_t *v, size_t n)
{
    size_t w = (n + 63) / 64;
    unsigned pad = (unsigned)(w * 64 - n);
    for (size_t a = 0, b = w; a < b--; a++) {
        uint64_t t = word_reverse(v[a]);
        v[a] = a == b ? t : word_reverse(v[b]);
        if (a != b)
            v[b] = t;
    }
    for (size_t i = 0; pad && i < w; i++)
        v[i] = (v[i] >> pad) | (i + 1 < w ? v[i + 1] << (64 - pad) : 0);
}

/* canonicalise for packed (F_2) answers: the canonical basis is the reverse
 * echelon of the basis, fully reduced, which is the RREF of the vectors
 * with their bits reversed: reversed in place, reduced by the Four-Russians
 * elimination (toggle__gf2_rref_cfg, plain form: its workspace is a
 * quarter of the kernel at most), reversed back and put in ascending free
 * cell (the RREF's pivots ascend in reversed positions); the particular
 * solution is then cleared on the free cells. O(dn^2 n / 4096) word
 * operations, against canonicalise's O(dn^2 n / 64). */
int toggle__tr_canonicalise_f2(toggle_solution *sol)
{
    toggle__vecs *K = &sol->kernel;
    size_t dn = sol->nullity, n = K->len, w = (n + 63) / 64, rank = 0;
    size_t *piv = toggle__malloc_array(dn ? dn : 1, sizeof *piv);
    if (!piv)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the canonical kernel");
    for (size_t i = 0; i < dn; i++)
        bits_reverse(toggle__vecs_row(K, i), n);
    toggle__gf2_cfg cfg = {sol->threads, TOGGLE__GF2_PLAIN, 0, 0, NULL};
    int rc = toggle__gf2_rref_cfg(K->data, dn, n, K->stride, piv, &rank, &cfg);
    for (size_t i = 0; i < dn; i++)
        bits_reverse(toggle__vecs_row(K, i), n);
    if (!rc && rank < dn)
        rc = toggle__error(TOGGLE_EINTERNAL, "transfer: kernel basis is dependent");
    for (size_t i = 0; !rc && i < dn / 2; i++)
        toggle__vecs_swap(K, i, dn - 1 - i);
    for (size_t i = 0; !rc && sol->solvable && i < dn; i++) {
        size_t c = n - 1 - piv[dn - 1 - i]; /* vector i's free cell */
        uint64_t *x = toggle__vecs_row(&sol->x, 0);
        const uint64_t *v = toggle__vecs_row(K, i);
        if ((x[c >> 6] >> (c & 63)) & 1)
            for (size_t q = 0; q < w; q++)
                x[q] ^= v[q];
    }
    toggle__free(piv);
    return rc;
}

/* Its workspace, for the estimate (d vectors of n). */
uint64_t toggle__tr_canonicalise_f2_bytes(size_t d, size_t n, unsigned threads)
{
    toggle__gf2_cfg cfg = {threads, TOGGLE__GF2_PLAIN, 0, 0, NULL};
    return toggle__gf2_workspace_bytes(d, n, &cfg) + (uint64_t)d * 8;
}
