/* Checked size arithmetic and modular helpers for 64-bit moduli. */
#include "internal.h"

bool toggle__mul_ok(size_t a, size_t b, size_t *out)
{
    size_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return false;
    *out = r;
    return true;
}

bool toggle__add_ok(size_t a, size_t b, size_t *out)
{
    size_t r;
    if (__builtin_add_overflow(a, b, &r))
        return false;
    *out = r;
    return true;
}

uint64_t toggle__mulmod(uint64_t a, uint64_t b, uint64_t k)
{
    return (uint64_t)(((unsigned __int128)a * b) % k);
}

uint64_t toggle__addmod(uint64_t a, uint64_t b, uint64_t k)
{
    /* a, b < k <= 2^63, so a + b cannot wrap. */
    uint64_t s = a + b;
    return s >= k ? s - k : s;
}

uint64_t toggle__submod(uint64_t a, uint64_t b, uint64_t k)
{
    return a >= b ? a - b : a + (k - b);
}

uint64_t toggle__invmod(uint64_t a, uint64_t k)
{
    /* Extended Euclid on signed 128-bit values. */
    __int128 t = 0, nt = 1, r = (__int128)k, nr = (__int128)(a % k);
    while (nr != 0) {
        __int128 q = r / nr, tmp;
        tmp = t - q * nt; t = nt; nt = tmp;
        tmp = r - q * nr; r = nr; nr = tmp;
    }
    if (r != 1)
        return 0;
    if (t < 0)
        t += k;
    return (uint64_t)t;
}

static uint64_t powmod(uint64_t b, uint64_t e, uint64_t k)
{
    uint64_t r = 1 % k;
    b %= k;
    while (e) {
        if (e & 1)
            r = toggle__mulmod(r, b, k);
        b = toggle__mulmod(b, b, k);
        e >>= 1;
    }
    return r;
}

/* Deterministic Miller-Rabin: these bases are exact for all 64-bit n. */
bool toggle__is_prime(uint64_t n)
{
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2)
        return false;
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
        if (n == bases[i])
            return true;
        if (n % bases[i] == 0)
            return false;
    }
    uint64_t d = n - 1;
    unsigned s = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        s++;
    }
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
        uint64_t x = powmod(bases[i], d, n);
        if (x == 1 || x == n - 1)
            continue;
        bool composite = true;
        for (unsigned r = 1; r < s; r++) {
            x = toggle__mulmod(x, x, n);
            if (x == n - 1) {
                composite = false;
                break;
            }
        }
        if (composite)
            return false;
    }
    return true;
}
