/* Checked size arithmetic and the modular arithmetic of the library, for
 * moduli up to TOGGLE_MAX_MODULUS (lib/core/core.h). */
#include "core.h"

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

int toggle__check_modulus(uint64_t k)
{
    if (k < 2)
        return toggle__error(TOGGLE_EINVAL, "modulus %llu is less than 2", (unsigned long long)k);
    if (k > TOGGLE_MAX_MODULUS)
        return toggle__error(TOGGLE_ERANGE, "modulus %llu exceeds 2^63 - 1",
                             (unsigned long long)k);
    return TOGGLE_OK;
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

uint64_t toggle__gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint64_t toggle__xgcd(uint64_t a, uint64_t b, int64_t *s, int64_t *t)
{
    int64_t s0 = 1, s1 = 0, t0 = 0, t1 = 1;
    uint64_t r0 = a, r1 = b;
    while (r1) {
        uint64_t q = r0 / r1, r = r0 - q * r1;
        int64_t ns = s0 - (int64_t)q * s1, nt = t0 - (int64_t)q * t1;
        r0 = r1;
        r1 = r;
        s0 = s1;
        s1 = ns;
        t0 = t1;
        t1 = nt;
    }
    *s = s0;
    *t = t0;
    return r0;
}

uint64_t toggle__smod(int64_t v, uint64_t k)
{
    if (v >= 0)
        return (uint64_t)v % k;
    uint64_t r = (uint64_t)(-(v + 1)) % k; /* -(v+1) cannot overflow */
    return k - 1 - r;
}

uint64_t toggle__unit_normaliser(uint64_t a, uint64_t k, uint64_t *g_out)
{
    uint64_t g = toggle__gcd(a, k);
    uint64_t kk = k / g, aa = a / g;
    *g_out = g;
    if (kk == 1)
        return 1;
    uint64_t w0 = toggle__invmod(aa % kk, kk);
    /* w0 + t kk for some small t is coprime to k (Storjohann's stab). */
    for (uint64_t t = 0; t < g; t++) {
        uint64_t w = w0 + t * kk; /* < k */
        if (toggle__gcd(w, k) == 1)
            return w;
    }
    return 0;
}

uint64_t toggle__powmod(uint64_t b, uint64_t e, uint64_t k)
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
        uint64_t x = toggle__powmod(bases[i], d, n);
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
