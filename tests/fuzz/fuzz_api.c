/* Fuzz target: bytes -> a random system (modulus including composites and
 * large primes, shape, entries, matrix or grid, engine), solved through the
 * public API and checked by this file's own arithmetic: the particular
 * solution satisfies A x = b, every kernel vector A v = 0, the nullity equals
 * n - rank (prime k, own elimination), an unsolvable answer carries a valid
 * certificate, tiny instances are counted by brute force, and the canonical
 * answer agrees with the FLINT engine's. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tu_engine.h"

#define MAXN 24

static const uint64_t moduli[] = {
    2, 3, 5, 7, 11, 13, 4, 6, 8, 9, 10, 12, 15, 16, 25, 27, 30, 36,
    UINT64_C(4294967291), UINT64_C(4294967296), UINT64_C(1000000007),
    UINT64_C(2305843009213693951),  /* 2^61 - 1 */
    UINT64_C(9223372036854775783),  /* largest prime < 2^63 */
    UINT64_C(9223372036854775807),  /* 2^63 - 1 = 7^2 * 73 * ... */
    UINT64_C(4611686018427387904),  /* 2^62 */
    UINT64_C(18446744073709551557), /* > TOGGLE_MAX_MODULUS: rejected */
    0, 1};

static int is_prime(uint64_t k)
{
    if (k < 2)
        return 0;
    for (uint64_t d = 2; d <= 1000 && d * d <= k; d++)
        if (k % d == 0)
            return 0;
    if (k < 1000000)
        return 1;
    /* deterministic Miller-Rabin for 64-bit */
    uint64_t d = k - 1;
    int s = 0;
    while (!(d & 1)) {
        d >>= 1;
        s++;
    }
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    for (size_t i = 0; i < 12; i++) {
        uint64_t x = 1, b = bases[i] % k, e = d;
        while (e) {
            if (e & 1)
                x = fuzz_mulmod(x, b, k);
            b = fuzz_mulmod(b, b, k);
            e >>= 1;
        }
        if (x == 1 || x == k - 1)
            continue;
        int comp = 1;
        for (int r = 1; r < s; r++) {
            x = fuzz_mulmod(x, x, k);
            if (x == k - 1) {
                comp = 0;
                break;
            }
        }
        if (comp)
            return 0;
    }
    return 1;
}

static uint64_t powmod(uint64_t b, uint64_t e, uint64_t k)
{
    uint64_t x = 1 % k;
    while (e) {
        if (e & 1)
            x = fuzz_mulmod(x, b, k);
        b = fuzz_mulmod(b, b, k);
        e >>= 1;
    }
    return x;
}

/* rank of the m x n matrix over F_p (copy destroyed). */
static size_t rank_mod_p(uint64_t *a, size_t m, size_t n, uint64_t p)
{
    size_t r = 0;
    for (size_t c = 0; c < n && r < m; c++) {
        size_t piv = r;
        while (piv < m && a[piv * n + c] == 0)
            piv++;
        if (piv == m)
            continue;
        for (size_t j = 0; j < n; j++) {
            uint64_t t = a[r * n + j];
            a[r * n + j] = a[piv * n + j];
            a[piv * n + j] = t;
        }
        uint64_t inv = powmod(a[r * n + c], p - 2, p);
        for (size_t i = 0; i < m; i++) {
            if (i == r || a[i * n + c] == 0)
                continue;
            uint64_t f = fuzz_mulmod(a[i * n + c], inv, p);
            for (size_t j = 0; j < n; j++)
                a[i * n + j] = (a[i * n + j] + p - fuzz_mulmod(f, a[r * n + j], p)) % p;
        }
        r++;
    }
    return r;
}

static void apply(const uint64_t *a, size_t m, size_t n, const uint64_t *x, uint64_t k,
                  uint64_t *y)
{
    for (size_t i = 0; i < m; i++) {
        uint64_t acc = 0;
        for (size_t j = 0; j < n; j++)
            acc = fuzz_addmod(acc, fuzz_mulmod(a[i * n + j], x[j], k), k);
        y[i] = acc;
    }
}

/* The game matrix of a grid, by this file's own neighbour rule (a neighbour
 * that wraps onto the pressed cell is the cell itself; each cell once). */
static void grid_matrix(uint64_t *a, size_t rows, size_t cols, uint32_t flags)
{
    size_t n = rows * cols;
    memset(a, 0, n * n * sizeof *a);
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            for (long dr = -1; dr <= 1; dr++)
                for (long dc = -1; dc <= 1; dc++) {
                    if (dr && dc && !(flags & TOGGLE_GRID_MOORE))
                        continue;
                    if (!dr && !dc && (flags & TOGGLE_GRID_NO_SELF))
                        continue;
                    long rr = (long)r + dr, cc = (long)c + dc;
                    if (flags & TOGGLE_GRID_TORUS) {
                        rr = (rr + (long)rows) % (long)rows;
                        cc = (cc + (long)cols) % (long)cols;
                    } else if (rr < 0 || cc < 0 || rr >= (long)rows || cc >= (long)cols) {
                        continue;
                    }
                    /* a neighbour reached twice counts twice */
                    a[((size_t)rr * cols + (size_t)cc) * n + r * cols + c] += 1;
                }
}

static uint64_t entry_value(fuzz_reader *rd, uint64_t k)
{
    uint8_t b = fuzz_u8(rd);
    if (k <= 256)
        return b % k;
    switch (b & 3) {
    case 0: return 0;
    case 1: return (b >> 2) % k;
    case 2: return k - 1 - (b >> 2) % k;
    default: return fuzz_u64(rd) % k;
    }
}

static uint64_t a[MAXN * MAXN], b[MAXN];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader rd = {data, size};
    uint8_t h0 = fuzz_u8(&rd), h1 = fuzz_u8(&rd), h2 = fuzz_u8(&rd);
    uint64_t k = moduli[h0 % (sizeof moduli / sizeof *moduli)];
    if (h0 >= 0xf0) /* any modulus */
        k = fuzz_u64(&rd);
    int engine = h1 % 9; /* 0..7 engines (5: blas, when built; 1 only with FLINT), 8 = bogus value */
    int grid = h1 >> 3 & 1;
    int budget_small = (h1 >> 4 & 7) == 7;
    size_t m, n;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    int rc;
    if (grid) {
        size_t rows = 1 + (h2 & 3), cols = 1 + (h2 >> 2 & 3);
        uint32_t flags = h2 >> 4 & 7;
        m = n = rows * cols;
        rc = toggle_graph_new_grid(&g, rows, cols, flags);
        FUZZ_CHECK(rc == 0, "grid %zux%zu flags %u: %s", rows, cols, flags, toggle_last_error());
        grid_matrix(a, rows, cols, flags);
        for (size_t i = 0; i < n * n && k >= 2; i++)
            a[i] %= k;
        uint64_t start[MAXN], target[MAXN];
        int use_start = fuzz_u8(&rd) & 1;
        for (size_t i = 0; i < n; i++) {
            start[i] = k >= 2 ? entry_value(&rd, k) : 0;
            target[i] = k >= 2 ? entry_value(&rd, k) : 0;
        }
        rc = toggle_system_new(&s, g, k, use_start ? start : NULL, target);
        for (size_t i = 0; i < n && k >= 2; i++)
            b[i] = ((unsigned __int128)target[i] + k - (use_start ? start[i] : 0)) % k;
    } else {
        m = h2 % 9;
        n = (h2 / 9) % 9 + (h2 >= 162 ? 8 : 0); /* up to 16 columns */
        for (size_t i = 0; i < m * n; i++)
            a[i] = k >= 2 ? entry_value(&rd, k) : 0;
        for (size_t i = 0; i < m; i++)
            b[i] = k >= 2 ? entry_value(&rd, k) : 0;
        rc = toggle_system_new_matrix(&s, m, n, a, b, k);
    }
    FUZZ_KNOWN_STATUS(rc);
    if (k < 2 || k > TOGGLE_MAX_MODULUS) {
        FUZZ_CHECK(rc == TOGGLE_EINVAL || rc == TOGGLE_ERANGE, "bad modulus accepted, rc %d", rc);
        toggle_graph_free(g);
        return 0;
    }
    FUZZ_CHECK(rc == 0, "system rejected: %s", toggle_last_error());
    rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)engine);
    if (!toggle_engine_name((int)engine)) { /* not an engine of this build */
        FUZZ_CHECK(rc == TOGGLE_EINVAL, "bogus engine accepted");
        engine = 0;
    } else {
        FUZZ_CHECK(rc == 0, "engine option");
    }
    if (budget_small)
        FUZZ_CHECK(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 64) == 0, "budget");

    toggle_solution *sol = NULL;
    rc = toggle_solve(&sol, s);
    FUZZ_KNOWN_STATUS(rc);
    int prime = is_prime(k);
    if (rc) {
        /* A forced engine that does not apply, a composite modulus without
         * a composite engine, or the tiny budget: never anything else. */
        FUZZ_CHECK(rc == TOGGLE_EUNSUPPORTED || (rc == TOGGLE_ENOMEM && budget_small),
                   "solve failed: %s: %s", toggle_status_name(rc), toggle_last_error());
        FUZZ_CHECK(sol == NULL, "out written on failure");
        if (rc == TOGGLE_EUNSUPPORTED && engine == TU_ENGINE_PRIME)
            FUZZ_CHECK(!prime, "FLINT refused a prime modulus");
        toggle_system_free(s);
        toggle_graph_free(g);
        return 0;
    }
    FUZZ_CHECK(toggle_solution_cols(sol) == n && toggle_solution_rows(sol) == m &&
               toggle_solution_modulus(sol) == k, "shape");
    int solvable = toggle_solution_is_solvable(sol);
    FUZZ_CHECK(solvable == 0 || solvable == 1, "is_solvable %d", solvable);
    size_t d = toggle_solution_nullity(sol);
    uint64_t x[MAXN], y[MAXN], v[MAXN];
    if (solvable) {
        FUZZ_CHECK(toggle_solution_particular(sol, x, n) == 0, "particular");
        for (size_t j = 0; j < n; j++)
            FUZZ_CHECK(x[j] < k, "x not reduced");
        apply(a, m, n, x, k, y);
        FUZZ_CHECK(memcmp(y, b, m * sizeof *y) == 0, "A x != b");
        int ok = -1;
        FUZZ_CHECK(toggle_system_check(s, x, n, &ok) == 0 && ok == 1, "system_check");
    } else {
        FUZZ_CHECK(toggle_solution_particular(sol, x, n) == TOGGLE_ENOSOLUTION, "particular");
        rc = toggle_solution_certificate(sol, y, m);
        if (prime)
            FUZZ_CHECK(rc == 0, "no certificate for prime k: %s", toggle_last_error());
        if (rc == 0) {
            uint64_t yb = 0;
            for (size_t i = 0; i < m; i++)
                yb = fuzz_addmod(yb, fuzz_mulmod(y[i], b[i], k), k);
            FUZZ_CHECK(yb != 0, "y.b == 0");
            for (size_t j = 0; j < n; j++) {
                uint64_t acc = 0;
                for (size_t i = 0; i < m; i++)
                    acc = fuzz_addmod(acc, fuzz_mulmod(y[i], a[i * n + j], k), k);
                FUZZ_CHECK(acc == 0, "yA != 0 at column %zu", j);
            }
            int valid = -1;
            FUZZ_CHECK(toggle_system_check_certificate(s, y, m, &valid) == 0 && valid == 1,
                       "check_certificate");
        }
    }
    for (size_t i = 0; i < d; i++) {
        FUZZ_CHECK(toggle_solution_kernel_vector(sol, i, v, n) == 0, "kernel %zu", i);
        apply(a, m, n, v, k, y);
        for (size_t r = 0; r < m; r++)
            FUZZ_CHECK(y[r] == 0, "A v != 0 (vector %zu)", i);
    }
    FUZZ_CHECK(toggle_solution_kernel_vector(sol, d, v, n) == TOGGLE_ERANGE, "kernel range");
    if (prime) {
        uint64_t t[MAXN * MAXN];
        memcpy(t, a, m * n * sizeof *t);
        FUZZ_CHECK(d == n - rank_mod_p(t, m, n, k), "nullity %zu is wrong", d);
    }
    /* Tiny instances: count the solutions by brute force. */
    uint64_t count = 0;
    int crc = toggle_solution_count_u64(sol, &count);
    FUZZ_CHECK(crc == 0 || crc == TOGGLE_EOVERFLOW, "count_u64 %d", crc);
    char cbuf[512]; /* k^d: up to 16 * 19 digits */
    FUZZ_CHECK(toggle_solution_count_string(sol, cbuf, sizeof cbuf, NULL) == 0, "count_string");
    if (crc == 0) {
        char expect[32];
        snprintf(expect, sizeof expect, "%llu", (unsigned long long)count);
        FUZZ_CHECK(strcmp(expect, cbuf) == 0, "count %s vs %s", cbuf, expect);
    }
    FUZZ_CHECK(solvable || (crc == 0 && count == 0), "unsolvable with count");
    uint64_t total = 1;
    int small = 1;
    for (size_t j = 0; j < n && small; j++) {
        if (total > 256 / k)
            small = 0;
        total *= k;
    }
    if (small && k <= 256) {
        uint64_t found = 0;
        memset(x, 0, sizeof x);
        for (uint64_t it = 0; it < total; it++) {
            apply(a, m, n, x, k, y);
            found += memcmp(y, b, m * sizeof *y) == 0;
            for (size_t j = 0; j < n && ++x[j] == k; j++)
                x[j] = 0;
        }
        FUZZ_CHECK(crc == 0 && count == found, "count %llu, brute force %llu",
                   (unsigned long long)count, (unsigned long long)found);
    }
    /* Canonical answers are engine independent: compare with FLINT. */
    if (prime && toggle_solution_engine(sol) != TU_ENGINE_PRIME) {
        toggle_solution *ref = NULL;
        FUZZ_CHECK(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TU_ENGINE_PRIME) == 0, "opt");
        FUZZ_CHECK(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0) == 0, "opt");
        FUZZ_CHECK(toggle_solve(&ref, s) == 0, "flint: %s", toggle_last_error());
        FUZZ_CHECK(toggle_solution_is_solvable(ref) == solvable, "solvable differs");
        FUZZ_CHECK(toggle_solution_nullity(ref) == d, "nullity differs");
        uint64_t w[MAXN];
        if (solvable) {
            toggle_solution_particular(sol, x, n);
            toggle_solution_particular(ref, w, n);
            FUZZ_CHECK(memcmp(x, w, n * sizeof *x) == 0, "particular differs from FLINT's");
        } else {
            toggle_solution_certificate(sol, x, m);
            toggle_solution_certificate(ref, w, m);
            FUZZ_CHECK(memcmp(x, w, m * sizeof *x) == 0, "certificate differs from FLINT's");
        }
        for (size_t i = 0; i < d; i++) {
            toggle_solution_kernel_vector(sol, i, x, n);
            toggle_solution_kernel_vector(ref, i, w, n);
            FUZZ_CHECK(memcmp(x, w, n * sizeof *x) == 0, "kernel %zu differs from FLINT's", i);
        }
        toggle_solution_free(ref);
    }
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return 0;
}
