/* The GF(2) product's base case on CPUs with GFNI and AVX-512:
 * GF2P8AFFINEQB multiplies, in each 64-bit lane, eight
 * bytes by one 8 x 8 bit matrix, so one instruction does 8 rows x 64
 * columns x 8 inner bits of C += A * B. B is copied once per chunk of
 * inner bits into those 8 x 8 matrices (one lane per byte of a word of C),
 * A into qwords that hold one byte of 8 rows, and each 8-row x 64-column
 * block of C is summed in a register over the chunk, then transposed back
 * into rows. The Four-Russians base case (gf2_mul.c) stays for other CPUs. */
#include <stdint.h>
#include <string.h>

#include "gf2_kern.h"
#include "gf2_tune.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

#define GFNI_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,gfni")))
#define GFNI_INLINE GFNI_TARGET static inline __attribute__((always_inline))

/* Chunk sizes GFNI_KC, GFNI_NW, GFNI_RC and the register blocking
 * GFNI_R x GFNI_J: gf2_tune.h. */

int toggle__gf2_gfni_ok(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("gfni");
}

/* Gather indices of eight rows `stride` words apart. */
GFNI_INLINE __m512i strides(size_t stride)
{
    long long s = (long long)stride;
    return _mm512_set_epi64(7 * s, 6 * s, 5 * s, 4 * s, 3 * s, 2 * s, s, 0);
}

/* Bt (nk bytes of the inner dimension from byte k0, words w0 .. w0 + nw of
 * B): for word W and inner byte K, eight qwords at Bt + (W * nk + K) * 8,
 * lane j the matrix of B's rows 8 K .. 8 K + 7 on columns 8 (8 W + j) ..
 * + 7 as GF2P8AFFINEQB reads it (its byte 7 - i is column i, bit r row r).
 * The eight rows' words are byte-transposed (lane j: byte j of each row,
 * row order reversed), then one affine with the reversed unit bytes turns
 * each lane's bits over. Rows at or past k count as zero. */
GFNI_TARGET static void prep_b(const uint64_t *B, size_t bs, size_t k, size_t k0, size_t nk,
                               size_t w0, size_t nw, uint64_t *Bt)
{
    uint8_t ix[64];
    for (unsigned j = 0; j < 8; j++)
        for (unsigned x = 0; x < 8; x++)
            ix[8 * j + x] = (uint8_t)(8 * (7 - x) + j);
    const __m512i idx = _mm512_loadu_si512(ix);
    const __m512i rev = _mm512_set1_epi64(0x0102040810204080LL);
    const __m512i vix = strides(bs);
    for (size_t K = 0; K < nk; K++) {
        size_t r0 = 8 * (k0 + K);
        unsigned live = k - r0 >= 8 ? 8 : (unsigned)(k - r0);
        const uint64_t *row = B + r0 * bs + w0;
        __mmask8 km = (__mmask8)((1u << live) - 1);
        for (size_t W = 0; W < nw; W++) {
            __m512i z = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), km, vix,
                                                    (const long long *)(row + W), 8);
            __m512i y = _mm512_permutexvar_epi8(idx, z);
            _mm512_store_si512(Bt + (W * nk + K) * 8, _mm512_gf2p8affine_epi64_epi8(rev, y, 0));
        }
    }
}

/* At (rows r0 .. r0 + rows of A, inner bytes k0 .. k0 + nk): for group g
 * of 8 rows and inner byte K, the qword At[g * nk + K] whose byte b is byte
 * K of row 8 g + b (rows past `rows` zero). A's bits past k are copied as
 * they are: B's rows past k are zero in Bt, so they add nothing. */
GFNI_TARGET static void prep_a(const uint64_t *A, size_t as, size_t k0, size_t nk, size_t rows,
                               uint64_t *At)
{
    uint8_t ix[64];
    for (unsigned x = 0; x < 8; x++)
        for (unsigned b = 0; b < 8; b++)
            ix[8 * x + b] = (uint8_t)(8 * b + x);
    const __m512i idx = _mm512_loadu_si512(ix);
    const __m512i vix = strides(as);
    size_t ng = (rows + 7) / 8, wlo = k0 / 8, whi = (k0 + nk + 7) / 8;
    for (size_t g = 0; g < ng; g++) {
        unsigned live = rows - 8 * g >= 8 ? 8 : (unsigned)(rows - 8 * g);
        __mmask8 rm = (__mmask8)((1u << live) - 1);
        const uint64_t *base = A + 8 * g * as;
        for (size_t w = wlo; w < whi; w++) {
            __m512i z = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), rm, vix,
                                                    (const long long *)(base + w), 8);
            uint64_t o[8];
            _mm512_storeu_si512(o, _mm512_permutexvar_epi8(idx, z));
            /* o[x]: byte 8 w + x of the group's rows */
            for (unsigned x = 0; x < 8; x++) {
                size_t K = 8 * w + x;
                if (K >= k0 && K < k0 + nk)
                    At[g * nk + (K - k0)] = o[x];
            }
        }
    }
}

/* C (rows 8 g0 .., words w0 ..) += the R x J blocks summed over nk inner
 * bytes; `rows` bounds the rows written. */
GFNI_INLINE void kern(uint64_t *C, size_t cs, size_t rows, size_t g0, size_t w0, size_t nk,
                      const uint64_t *At, const uint64_t *Bt, unsigned R, unsigned J)
{
    __m512i acc[GFNI_R][GFNI_J];
#pragma GCC unroll 4
    for (unsigned r = 0; r < R; r++)
#pragma GCC unroll 4
        for (unsigned j = 0; j < J; j++)
            acc[r][j] = _mm512_setzero_si512();
    const uint64_t *ap = At + g0 * nk, *bp = Bt + w0 * nk * 8;
    size_t K = 0;
    for (; K + 2 <= nk; K += 2) { /* two inner bytes, summed by one ternary xor */
        __m512i b[GFNI_J], a[GFNI_R], b2[GFNI_J], a2[GFNI_R];
#pragma GCC unroll 4
        for (unsigned j = 0; j < J; j++) {
            b[j] = _mm512_load_si512(bp + (j * nk + K) * 8);
            b2[j] = _mm512_load_si512(bp + (j * nk + K + 1) * 8);
        }
#pragma GCC unroll 4
        for (unsigned r = 0; r < R; r++) {
            a[r] = _mm512_set1_epi64((long long)ap[r * nk + K]);
            a2[r] = _mm512_set1_epi64((long long)ap[r * nk + K + 1]);
        }
#pragma GCC unroll 4
        for (unsigned r = 0; r < R; r++)
#pragma GCC unroll 4
            for (unsigned j = 0; j < J; j++)
                acc[r][j] = _mm512_ternarylogic_epi64(
                    acc[r][j], _mm512_gf2p8affine_epi64_epi8(a[r], b[j], 0),
                    _mm512_gf2p8affine_epi64_epi8(a2[r], b2[j], 0), 0x96);
    }
    for (; K < nk; K++) {
        __m512i b[GFNI_J], a[GFNI_R];
#pragma GCC unroll 4
        for (unsigned j = 0; j < J; j++)
            b[j] = _mm512_load_si512(bp + (j * nk + K) * 8);
#pragma GCC unroll 4
        for (unsigned r = 0; r < R; r++)
            a[r] = _mm512_set1_epi64((long long)ap[r * nk + K]);
#pragma GCC unroll 4
        for (unsigned r = 0; r < R; r++)
#pragma GCC unroll 4
            for (unsigned j = 0; j < J; j++)
                acc[r][j] = _mm512_xor_si512(acc[r][j],
                                             _mm512_gf2p8affine_epi64_epi8(a[r], b[j], 0));
    }
    /* acc lane j byte b: row b's byte j of the word; to row-major words */
    uint8_t ix[64];
    for (unsigned b = 0; b < 8; b++)
        for (unsigned j = 0; j < 8; j++)
            ix[8 * b + j] = (uint8_t)(8 * j + b);
    const __m512i tix = _mm512_loadu_si512(ix);
#pragma GCC unroll 4
    for (unsigned r = 0; r < R; r++) {
        size_t i0 = 8 * (g0 + r);
        if (i0 >= rows)
            break;
        unsigned live = rows - i0 >= 8 ? 8 : (unsigned)(rows - i0);
#pragma GCC unroll 4
        for (unsigned j = 0; j < J; j++) {
            uint64_t o[8];
            _mm512_storeu_si512(o, _mm512_permutexvar_epi8(tix, acc[r][j]));
            uint64_t *c = C + i0 * cs + w0 + j;
            for (unsigned b = 0; b < live; b++)
                c[b * cs] ^= o[b];
        }
    }
}

GFNI_TARGET static void kern_44(uint64_t *C, size_t cs, size_t rows, size_t g0, size_t w0,
                                size_t nk, const uint64_t *At, const uint64_t *Bt)
{
    kern(C, cs, rows, g0, w0, nk, At, Bt, GFNI_R, GFNI_J);
}

GFNI_TARGET static void kern_41(uint64_t *C, size_t cs, size_t rows, size_t g0, size_t w0,
                                size_t nk, const uint64_t *At, const uint64_t *Bt)
{
    kern(C, cs, rows, g0, w0, nk, At, Bt, GFNI_R, 1);
}

GFNI_TARGET static void kern_14(uint64_t *C, size_t cs, size_t rows, size_t g0, size_t w0,
                                size_t nk, const uint64_t *At, const uint64_t *Bt)
{
    kern(C, cs, rows, g0, w0, nk, At, Bt, 1, GFNI_J);
}

GFNI_TARGET static void kern_11(uint64_t *C, size_t cs, size_t rows, size_t g0, size_t w0,
                                size_t nk, const uint64_t *At, const uint64_t *Bt)
{
    kern(C, cs, rows, g0, w0, nk, At, Bt, 1, 1);
}

/* Bt's words for this shape: a chunk of inner bytes by a strip of words,
 * 8 qwords each (a multiple of 8: At after it stays on a cache line). */
static size_t bt_words(size_t k, size_t n)
{
    size_t kb = (k + 7) / 8, nw = (n + 63) / 64;
    return (kb < GFNI_KC ? kb : GFNI_KC) * (nw < GFNI_NW ? nw : GFNI_NW) * 8;
}

size_t toggle__gf2_gfni_rows_words(size_t m, size_t k)
{
    size_t kb = (k + 7) / 8, rows = m < GFNI_RC ? m : GFNI_RC;
    return (rows + 7) / 8 * (kb < GFNI_KC ? kb : GFNI_KC);
}

size_t toggle__gf2_gfni_words(size_t m, size_t k, size_t n)
{
    return bt_words(k, n) + toggle__gf2_gfni_rows_words(m, k);
}

/* The kernels over one block of rows (At) and one strip of nw words (Bt). */
GFNI_TARGET static void strip_kernels(uint64_t *Cb, size_t cs, size_t rows, size_t nw,
                                      size_t nk, const uint64_t *At, const uint64_t *Bt)
{
    size_t ng = (rows + 7) / 8, w = 0;
    for (; w + GFNI_J <= nw; w += GFNI_J) {
        size_t g = 0;
        for (; g + GFNI_R <= ng; g += GFNI_R)
            kern_44(Cb, cs, rows, g, w, nk, At, Bt);
        for (; g < ng; g++)
            kern_14(Cb, cs, rows, g, w, nk, At, Bt);
    }
    for (; w < nw; w++) {
        size_t g = 0;
        for (; g + GFNI_R <= ng; g += GFNI_R)
            kern_41(Cb, cs, rows, g, w, nk, At, Bt);
        for (; g < ng; g++)
            kern_11(Cb, cs, rows, g, w, nk, At, Bt);
    }
}

GFNI_TARGET void toggle__gf2_gfni_mul(uint64_t *C, size_t cs, const uint64_t *A, size_t as,
                                      const uint64_t *B, size_t bs, size_t m, size_t k,
                                      size_t n, uint64_t *work)
{
    size_t nwall = (n + 63) / 64, kb = (k + 7) / 8;
    uint64_t *Bt = work, *At = work + bt_words(k, n);
    for (size_t c0 = 0; c0 < nwall; c0 += GFNI_NW) {
        size_t nw = nwall - c0 < GFNI_NW ? nwall - c0 : GFNI_NW;
        for (size_t k0 = 0; k0 < kb; k0 += GFNI_KC) {
            size_t nk = kb - k0 < GFNI_KC ? kb - k0 : GFNI_KC;
            prep_b(B, bs, k, k0, nk, c0, nw, Bt);
            for (size_t r0 = 0; r0 < m; r0 += GFNI_RC) {
                size_t rows = m - r0 < GFNI_RC ? m - r0 : GFNI_RC;
                prep_a(A + r0 * as, as, k0, nk, rows, At);
                strip_kernels(C + r0 * cs + c0, cs, rows, nw, nk, At, Bt);
            }
        }
    }
}

/* B copied once for all rows (threads share it):
 * block s * nq + q is strip s (GFNI_NW words) by inner chunk q (GFNI_KC
 * bytes), each bt_words(k, n) words. */
static size_t chunks(size_t k) { return ((k + 7) / 8 + GFNI_KC - 1) / GFNI_KC; }

size_t toggle__gf2_gfni_prep_blocks(size_t k, size_t n)
{
    return chunks(k) * (((n + 63) / 64 + GFNI_NW - 1) / GFNI_NW);
}

size_t toggle__gf2_gfni_prep_words(size_t k, size_t n)
{
    return toggle__gf2_gfni_prep_blocks(k, n) * bt_words(k, n);
}

GFNI_TARGET void toggle__gf2_gfni_prep(const uint64_t *B, size_t bs, size_t k, size_t n,
                                       size_t blk, uint64_t *Bt)
{
    size_t nq = chunks(k), q = blk % nq, s = blk / nq, kb = (k + 7) / 8;
    size_t nwall = (n + 63) / 64, c0 = s * GFNI_NW, k0 = q * GFNI_KC;
    size_t nw = nwall - c0 < GFNI_NW ? nwall - c0 : GFNI_NW;
    size_t nk = kb - k0 < GFNI_KC ? kb - k0 : GFNI_KC;
    prep_b(B, bs, k, k0, nk, c0, nw, Bt + blk * bt_words(k, n));
}

GFNI_TARGET void toggle__gf2_gfni_mul_prepped(uint64_t *C, size_t cs, const uint64_t *A,
                                              size_t as, const uint64_t *Bt, size_t m,
                                              size_t k, size_t n, uint64_t *At)
{
    size_t nwall = (n + 63) / 64, kb = (k + 7) / 8, nq = chunks(k), bw = bt_words(k, n);
    for (size_t q = 0, k0 = 0; k0 < kb; q++, k0 += GFNI_KC) {
        size_t nk = kb - k0 < GFNI_KC ? kb - k0 : GFNI_KC;
        for (size_t r0 = 0; r0 < m; r0 += GFNI_RC) {
            size_t rows = m - r0 < GFNI_RC ? m - r0 : GFNI_RC;
            prep_a(A + r0 * as, as, k0, nk, rows, At);
            for (size_t s = 0, c0 = 0; c0 < nwall; s++, c0 += GFNI_NW) {
                size_t nw = nwall - c0 < GFNI_NW ? nwall - c0 : GFNI_NW;
                strip_kernels(C + r0 * cs + c0, cs, rows, nw, nk, At, Bt + (s * nq + q) * bw);
            }
        }
    }
}

#else

int toggle__gf2_gfni_ok(void) { return 0; }

size_t toggle__gf2_gfni_words(size_t m, size_t k, size_t n)
{
    (void)m, (void)k, (void)n;
    return 0;
}

void toggle__gf2_gfni_mul(uint64_t *C, size_t cs, const uint64_t *A, size_t as,
                          const uint64_t *B, size_t bs, size_t m, size_t k, size_t n,
                          uint64_t *work)
{
    (void)C, (void)cs, (void)A, (void)as, (void)B, (void)bs, (void)m, (void)k, (void)n,
        (void)work;
}

size_t toggle__gf2_gfni_prep_blocks(size_t k, size_t n)
{
    (void)k, (void)n;
    return 0;
}

size_t toggle__gf2_gfni_prep_words(size_t k, size_t n)
{
    (void)k, (void)n;
    return 0;
}

size_t toggle__gf2_gfni_rows_words(size_t m, size_t k)
{
    (void)m, (void)k;
    return 0;
}

void toggle__gf2_gfni_prep(const uint64_t *B, size_t bs, size_t k, size_t n, size_t blk,
                           uint64_t *Bt)
{
    (void)B, (void)bs, (void)k, (void)n, (void)blk, (void)Bt;
}

void toggle__gf2_gfni_mul_prepped(uint64_t *C, size_t cs, const uint64_t *A, size_t as,
                                  const uint64_t *Bt, size_t m, size_t k, size_t n,
                                  uint64_t *At)
{
    (void)C, (void)cs, (void)A, (void)as, (void)Bt, (void)m, (void)k, (void)n, (void)At;
}

#endif
