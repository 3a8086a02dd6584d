/* Solution counts as decimal strings in plain C (core.h): a little-endian
 * number in base 10^9, multiplied by word-sized groups of factors.
 * Quadratic in the number of digits: the whole count without FLINT (the
 * browser), and with FLINT every count of at most
 * TOGGLE__DECIMAL_PLAIN_MAX factors, so that GMP (whose default allocator
 * aborts) is needed only for the huge ones. */
#include <string.h>

#include "core.h"

#define BASE 1000000000u

int toggle__decimal_product_plain(const uint64_t *radix, size_t d, uint64_t k, char **out)
{
    /* each factor < 2^64 adds at most 20 decimal digits: 3 limbs */
    size_t cap = 3 * d + 2, len = 1;
    uint32_t *v = toggle__malloc_array(cap, sizeof *v);
    if (!v)
        return toggle__error(TOGGLE_ENOMEM, "out of memory writing the count");
    v[0] = 1;
    for (size_t i = 0; i < d;) {
        /* the next factors whose product fits a word */
        uint64_t g = 1;
        while (i < d) {
            uint64_t f = radix ? radix[i] : k;
            if (f && g > UINT64_MAX / f)
                break;
            g *= f;
            i++;
        }
        unsigned __int128 carry = 0;
        for (size_t j = 0; j < len; j++) {
            carry += (unsigned __int128)v[j] * g;
            v[j] = (uint32_t)(carry % BASE);
            carry /= BASE;
        }
        while (carry) {
            v[len++] = (uint32_t)(carry % BASE);
            carry /= BASE;
        }
        while (len > 1 && v[len - 1] == 0) /* a factor 0 */
            len--;
    }
    char *s = toggle__malloc(len * 9 + 1);
    if (!s) {
        toggle__free(v);
        return toggle__error(TOGGLE_ENOMEM, "out of memory writing the count");
    }
    char *w = s;
    for (size_t j = len; j-- > 0;) {
        uint32_t x = v[j];
        char buf[9];
        for (int t = 8; t >= 0; t--) {
            buf[t] = (char)('0' + x % 10);
            x /= 10;
        }
        size_t skip = 0;
        if (j == len - 1)
            while (skip < 8 && buf[skip] == '0')
                skip++;
        memcpy(w, buf + skip, 9 - skip);
        w += 9 - skip;
    }
    *w = 0;
    toggle__free(v);
    *out = s;
    return TOGGLE_OK;
}
