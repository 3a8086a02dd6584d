/* Chaos boards: random toggle matrices where a press may change any cell
 * (or any cell within a distance), reproducible from a seed. */
#include <math.h>

#include "core.h"

static size_t dist(size_t a, size_t b)
{
    return a > b ? a - b : b - a;
}

int toggle_graph_new_chaos(toggle_graph **out, size_t rows, size_t cols, double density,
                           size_t radius, uint64_t seed)
{
    if (!out)
        return toggle__error(TOGGLE_EINVAL, "toggle_graph_new_chaos: NULL out");
    if (!rows || !cols)
        return toggle__error(TOGGLE_EINVAL, "a chaos board needs rows and columns, got %zu x %zu",
                             rows, cols);
    if (!(density >= 0.0 && density <= 1.0))
        return toggle__error(TOGGLE_EINVAL, "density %g is not a probability in [0, 1]", density);
    size_t n, nn;
    if (!toggle__mul_ok(rows, cols, &n) || !toggle__mul_ok(n, n, &nn))
        return toggle__error(TOGGLE_EOVERFLOW, "a %zu x %zu chaos board is too large", rows, cols);
    /* density * 2^53 is exact, so the threshold is the same everywhere. */
    uint64_t threshold = (uint64_t)ldexp(density, 53);
    uint64_t *a = toggle__calloc(nn ? nn : 1, sizeof *a);
    toggle_rng *rng = NULL;
    int rc = a ? toggle_rng_new(&rng, seed) : TOGGLE_ENOMEM;
    if (rc) {
        toggle__free(a);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for a %zu x %zu toggle matrix", n, n);
    }
    for (size_t j = 0; j < n; j++) {
        a[j * n + j] = 1;
        for (size_t i = 0; i < n; i++) {
            if (i == j || dist(i / cols, j / cols) > radius || dist(i % cols, j % cols) > radius)
                continue;
            if ((toggle_rng_next(rng) >> 11) < threshold)
                a[i * n + j] = 1;
        }
    }
    toggle_rng_free(rng);
    rc = toggle_graph_new_matrix(out, n, a);
    toggle__free(a);
    return rc;
}
