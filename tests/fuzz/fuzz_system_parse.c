/* Fuzz target: toggle_system_parse() on arbitrary text, then a round trip
 * through toggle_system_write() that must parse back to the same system.
 * Byte 0 picks the modulus; the rest is the text. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const uint64_t moduli[] = {2, 3, 5, 7, 10, 11, 12, 16, 97, 0, 1,
                                  UINT64_C(9223372036854775783), UINT64_C(9223372036854775807),
                                  UINT64_C(9223372036854775808), UINT64_MAX, 1000000007};

static void same_system(const toggle_system *a, const toggle_system *b)
{
    size_t m = toggle_system_rows(a), n = toggle_system_cols(a);
    FUZZ_CHECK(toggle_system_rows(b) == m && toggle_system_cols(b) == n, "shape changed");
    for (size_t i = 0; i < m; i++) {
        uint64_t x, y;
        FUZZ_CHECK(toggle_system_rhs(a, i, &x) == 0 && toggle_system_rhs(b, i, &y) == 0 && x == y,
                   "rhs %zu", i);
        for (size_t j = 0; j < n; j++) {
            FUZZ_CHECK(toggle_system_entry(a, i, j, &x) == 0, "entry");
            FUZZ_CHECK(toggle_system_entry(b, i, j, &y) == 0, "entry");
            FUZZ_CHECK(x == y, "entry (%zu,%zu) %llu != %llu", i, j, (unsigned long long)x,
                       (unsigned long long)y);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint64_t k = moduli[data[0] % (sizeof moduli / sizeof *moduli)];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    toggle_system *s = (toggle_system *)(uintptr_t)1; /* must stay untouched on failure */
    int rc = toggle_system_parse(&s, text, len, k);
    FUZZ_KNOWN_STATUS(rc);
    FUZZ_CHECK(toggle_last_error() != NULL, "last_error NULL");
    if (rc) {
        FUZZ_CHECK(s == (toggle_system *)(uintptr_t)1, "out written on failure");
        return 0;
    }
    FUZZ_CHECK(toggle_system_modulus(s) == k, "modulus");
    size_t need = 0;
    rc = toggle_system_write(s, NULL, 0, &need);
    FUZZ_CHECK(rc == TOGGLE_EBUFSIZE && need >= 1, "size query rc %d", rc);
    char *buf = malloc(need);
    FUZZ_CHECK(buf, "malloc");
    size_t need2 = 0;
    rc = toggle_system_write(s, buf, need, &need2);
    FUZZ_CHECK(rc == 0 && need2 == need && strlen(buf) + 1 == need, "write rc %d", rc);
    toggle_system *t = NULL;
    rc = toggle_system_parse(&t, buf, need - 1, k);
    FUZZ_CHECK(rc == 0, "written text does not parse back: %s", toggle_last_error());
    same_system(s, t);
    toggle_system_free(t);
    free(buf);
    toggle_system_free(s);
    return 0;
}
