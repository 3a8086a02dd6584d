/* Solution counts as decimal strings without GMP (engine/flint/bigint.h):
 * the plain-C product of lib/core/decimal.c for every size. */
#include "engine/flint/bigint.h"

int toggle__decimal_product(const uint64_t *radix, size_t d, uint64_t k, char **out)
{
    if (d > ((size_t)1 << 26))
        return toggle__error(TOGGLE_ENOMEM, "a product of %zu factors is too large to write out",
                             d);
    return toggle__decimal_product_plain(radix, d, k, out);
}
