/* Fuzz target: toggle_board_parse() on arbitrary text (size query first,
 * then the real parse), and a round trip through toggle_board_format().
 * Byte 0 picks the modulus and whether to query the size first. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const uint64_t moduli[] = {2, 3, 5, 7, 10, 11, 12, 16, 97, 0, 1,
                                  UINT64_C(9223372036854775783), UINT64_C(9223372036854775808),
                                  UINT64_MAX, 1000000007, 4};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint64_t k = moduli[data[0] % (sizeof moduli / sizeof *moduli)];
    int guess = data[0] >> 4 & 1; /* parse into a small buffer first */
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    size_t rows = 7777, cols = 7777;
    uint64_t small[4] = {11, 11, 11, 11};
    int rc = toggle_board_parse(text, len, k, guess ? small : NULL, guess ? 4 : 0, &rows, &cols);
    FUZZ_KNOWN_STATUS(rc);
    if (rc != TOGGLE_OK && rc != TOGGLE_EBUFSIZE) {
        FUZZ_CHECK(rows == 7777 && cols == 7777, "shape written on failure");
        return 0;
    }
    FUZZ_CHECK(rows >= 1, "no rows");
    FUZZ_CHECK(cols == 0 || rows <= SIZE_MAX / cols, "shape overflows");
    size_t n = rows * cols;
    if (rc == TOGGLE_EBUFSIZE) {
        FUZZ_CHECK(n > (guess ? 4u : 0u), "EBUFSIZE with %zu cells", n);
        for (int i = 0; i < 4; i++)
            FUZZ_CHECK(small[i] == 11, "buffer written on EBUFSIZE");
    }
    uint64_t *cells = malloc((n ? n : 1) * sizeof *cells);
    FUZZ_CHECK(cells, "malloc");
    size_t r2 = 0, c2 = 0;
    rc = toggle_board_parse(text, len, k, cells, n, &r2, &c2);
    FUZZ_CHECK(rc == 0 && r2 == rows && c2 == cols, "second parse rc %d", rc);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(cells[i] < k, "cell %zu not reduced", i);
    size_t need = 0;
    rc = toggle_board_format(cells, rows, cols, k, NULL, 0, &need);
    FUZZ_CHECK(rc == TOGGLE_EBUFSIZE && need >= 1, "format size rc %d", rc);
    char *buf = malloc(need);
    FUZZ_CHECK(buf, "malloc");
    rc = toggle_board_format(cells, rows, cols, k, buf, need, NULL);
    FUZZ_CHECK(rc == 0, "format rc %d", rc);
    if (n > 0) { /* a board of empty rows formats as blank lines, which parse as no rows */
        uint64_t *back = malloc(n * sizeof *back);
        FUZZ_CHECK(back, "malloc");
        rc = toggle_board_parse(buf, need - 1, k, back, n, &r2, &c2);
        FUZZ_CHECK(rc == 0 && r2 == rows && c2 == cols, "formatted board does not parse back");
        FUZZ_CHECK(memcmp(back, cells, n * sizeof *back) == 0, "round trip changed cells");
        free(back);
    }
    free(buf);
    free(cells);
    return 0;
}
