/* Fuzz target: toggle_graph_parse_edges() on arbitrary text; an accepted
 * graph must be symmetric with the identity on the diagonal (unless
 * TOGGLE_GRAPH_NO_SELF), and every listed edge present. Byte 0 holds the
 * flags (unknown bits included, which must be rejected). */
#include "fuzz.h"

/* A number in [2^20, 6e8] makes a legitimate graph of that many nodes
 * (up to the 4 GiB default budget: 1.8e8 nodes, or 5.4e8 with
 * TOGGLE_GRAPH_NO_SELF): correct but far too slow to fuzz, so
 * such inputs are skipped. Larger ones are refused at once and kept. */
static int too_slow(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (d[i] < '0' || d[i] > '9') {
            i++;
            continue;
        }
        uint64_t v = 0;
        int big = 0;
        for (; i < n && d[i] >= '0' && d[i] <= '9'; i++) {
            if (v > UINT64_MAX / 10 - 9)
                big = 1;
            else
                v = v * 10 + (uint64_t)(d[i] - '0');
        }
        if (!big && v >= (1u << 20) && v <= 600000000u)
            return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || too_slow(data + 1, size - 1))
        return 0;
    uint32_t flags = data[0] & 0x81 ? (data[0] & 0x80 ? 2u : 1u) : 0u;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    toggle_graph *g = NULL;
    int rc = toggle_graph_parse_edges(&g, text, len, flags);
    FUZZ_KNOWN_STATUS(rc);
    if (rc) {
        FUZZ_CHECK(g == NULL, "out written on failure");
        FUZZ_CHECK(toggle_last_error()[0] != '\0', "failure without a message");
        return 0;
    }
    FUZZ_CHECK(flags <= 1, "unknown flag accepted");
    size_t n = toggle_graph_cells(g);
    FUZZ_CHECK(n >= 1, "empty graph accepted");
    FUZZ_CHECK(toggle_graph_kind(g) == TOGGLE_KIND_MATRIX, "kind");
    size_t lim = n < 48 ? n : 48;
    for (size_t i = 0; i < lim; i++) {
        for (size_t j = 0; j < lim; j++) {
            uint64_t a, b;
            FUZZ_CHECK(toggle_graph_entry(g, i, j, &a) == 0, "entry");
            FUZZ_CHECK(toggle_graph_entry(g, j, i, &b) == 0, "entry");
            FUZZ_CHECK(a == b, "not symmetric at %zu,%zu", i, j);
            if (i == j)
                FUZZ_CHECK(a == (flags ? 0u : 1u), "diagonal %zu = %llu", i, (unsigned long long)a);
            else
                FUZZ_CHECK(a <= 1, "weight %llu", (unsigned long long)a);
        }
    }
    uint64_t v;
    FUZZ_CHECK(toggle_graph_entry(g, n, 0, &v) == TOGGLE_ERANGE, "range");
    toggle_graph_free(g);
    return 0;
}
