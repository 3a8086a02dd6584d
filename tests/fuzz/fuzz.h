/* Shared helpers for the fuzz targets (tests/fuzz/): a byte reader, a check
 * macro that aborts loudly (libFuzzer and the corpus replay both report it),
 * and the independent arithmetic the API target verifies answers with. */
#ifndef TOGGLE_FUZZ_H
#define TOGGLE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <toggle.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                       \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "FUZZ CHECK FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                           \
            fprintf(stderr, "\n");                                                  \
            abort();                                                                \
        }                                                                           \
    } while (0)

/* Every status a public function may return is a known one. */
#define FUZZ_KNOWN_STATUS(rc) \
    FUZZ_CHECK((rc) <= 0 && (rc) >= TOGGLE_EINTERNAL && (rc) != TOGGLE_EINTERNAL, \
               "status %d (%s): %s", (rc), toggle_status_name(rc), toggle_last_error())

typedef struct {
    const uint8_t *p;
    size_t left;
} fuzz_reader;

static inline uint8_t fuzz_u8(fuzz_reader *r)
{
    if (!r->left)
        return 0;
    r->left--;
    return *r->p++;
}

static inline uint64_t fuzz_u64(fuzz_reader *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | fuzz_u8(r);
    return v;
}

static inline uint64_t fuzz_mulmod(uint64_t a, uint64_t b, uint64_t k)
{
    return (uint64_t)((unsigned __int128)a * b % k);
}

static inline uint64_t fuzz_addmod(uint64_t a, uint64_t b, uint64_t k)
{
    return (uint64_t)(((unsigned __int128)a + b) % k);
}

#endif
