/* Storage for solution vectors: bit-packed for k = 2, narrow integers otherwise. */
#define _DEFAULT_SOURCE /* madvise */
#include <string.h>
#if defined(__linux__)
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "core.h"

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

void toggle__vecs_prefault(const toggle__vecs *v, size_t i, size_t from, size_t to)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    if (i >= v->count || from >= to || to > v->stride)
        return;
    long ps = sysconf(_SC_PAGESIZE);
    if (ps <= 0 || (ps & (ps - 1)))
        return;
    uintptr_t page = (uintptr_t)ps;
    const uint64_t *w = toggle__vecs_row(v, i);
    uintptr_t a = (uintptr_t)(w + from), b = (uintptr_t)(w + to);
    a = (a + page - 1) & ~(page - 1);
    b &= ~(page - 1);
    if (b > a) {
        int e = errno; /* a refusal (an older kernel: EINVAL) is not the caller's */
        (void)madvise((void *)a, b - a, MADV_POPULATE_WRITE);
        errno = e;
    }
#else
    (void)v, (void)i, (void)from, (void)to;
#endif
}

void toggle__vecs_clear(toggle__vecs *v)
{
    toggle__free(v->data);
    memset(v, 0, sizeof *v);
}

static size_t bits_words(size_t cols) { return cols / 64 + (cols % 64 != 0); }

/* 64 x 64 bit transpose in place (Hacker's Delight, 6 rounds of swaps),
 * each round as runs of j independent swaps, which the compiler turns into
 * vector operations for j >= 4. */
#define TRANSPOSE_ROUND(x, j, m)                                                     \
    for (unsigned base = 0; base < 64; base += 2 * (j))                              \
        for (unsigned k = base; k < base + (j); k++) {                               \
            uint64_t t = (((x)[k] >> (j)) ^ (x)[k + (j)]) & (m);                     \
            (x)[k] ^= t << (j);                                                      \
            (x)[k + (j)] ^= t;                                                       \
        }

static inline void transpose64(uint64_t x[64])
{
    TRANSPOSE_ROUND(x, 32, 0x00000000FFFFFFFFull)
    TRANSPOSE_ROUND(x, 16, 0x0000FFFF0000FFFFull)
    TRANSPOSE_ROUND(x, 8, 0x00FF00FF00FF00FFull)
    TRANSPOSE_ROUND(x, 4, 0x0F0F0F0F0F0F0F0Full)
    TRANSPOSE_ROUND(x, 2, 0x3333333333333333ull)
    TRANSPOSE_ROUND(x, 1, 0x5555555555555555ull)
}

/* The loop, cloned per vector unit (TOGGLE__HOT marks static functions
 * only: clang's clones of an external function do not link). */
static TOGGLE__HOT void bits_transpose(uint64_t *dst, size_t dstride, const uint64_t *src,
                                       size_t sstride, size_t rows, size_t cols)
{
    size_t RW = bits_words(rows), CW = bits_words(cols);
    uint64_t blk[64];
    for (size_t bi = 0; bi < RW; bi++) {
        for (size_t bj = 0; bj < CW; bj++) {
            for (size_t t = 0; t < 64; t++) {
                size_t i = bi * 64 + t;
                blk[t] = i < rows ? src[i * sstride + bj] : 0;
            }
            transpose64(blk);
            for (size_t t = 0; t < 64; t++) {
                size_t j = bj * 64 + t;
                if (j < cols)
                    dst[j * dstride + bi] = blk[t];
            }
        }
    }
}

void toggle__bits_transpose(uint64_t *dst, size_t dstride, const uint64_t *src, size_t sstride,
                           size_t rows, size_t cols)
{
    bits_transpose(dst, dstride, src, sstride, rows, cols);
}

size_t toggle__vecs_last_nonzero(const toggle__vecs *v, size_t i)
{
    if (v->packed) {
        const uint64_t *w = toggle__vecs_row(v, i);
        for (size_t q = v->stride; q-- > 0;)
            if (w[q])
                return q * 64 + 63 - (size_t)__builtin_clzll(w[q]);
        return SIZE_MAX;
    }
    for (size_t t = v->len; t-- > 0;)
        if (toggle__vecs_get(v, i, t))
            return t;
    return SIZE_MAX;
}
