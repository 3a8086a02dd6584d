/* Storage for solution vectors: bit-packed for k = 2, narrow integers otherwise. */
#include <string.h>

#include "internal.h"

unsigned toggle__vecs_width(uint64_t k)
{
    if (k <= 2)
        return 1;
    if (k <= ((uint64_t)1 << 8))
        return 8;
    if (k <= ((uint64_t)1 << 16))
        return 16;
    if (k <= ((uint64_t)1 << 32))
        return 32;
    return 64;
}

size_t toggle__vecs_stride(size_t len, uint64_t k)
{
    size_t per_word = 64 / toggle__vecs_width(k);
    return len / per_word + (len % per_word != 0);
}

bool toggle__vecs_bytes(size_t len, size_t count, uint64_t k, size_t *bytes)
{
    size_t words;
    return toggle__mul_ok(toggle__vecs_stride(len, k), count, &words)
        && toggle__mul_ok(words, sizeof(uint64_t), bytes);
}

int toggle__vecs_init(toggle__vecs *v, size_t len, size_t count, uint64_t k)
{
    size_t bytes;
    memset(v, 0, sizeof *v);
    if (!toggle__vecs_bytes(len, count, k, &bytes))
        return toggle__error(TOGGLE_EOVERFLOW, "%zu vectors of %zu entries overflow size_t",
                             count, len);
    v->data = toggle__calloc(1, bytes ? bytes : 1);
    if (!v->data)
        return toggle__error(TOGGLE_ENOMEM, "out of memory allocating %zu bytes", bytes);
    v->len = len;
    v->count = count;
    v->stride = toggle__vecs_stride(len, k);
    v->width = toggle__vecs_width(k);
    v->packed = v->width == 1;
    return TOGGLE_OK;
}

void toggle__vecs_clear(toggle__vecs *v)
{
    toggle__free(v->data);
    memset(v, 0, sizeof *v);
}
