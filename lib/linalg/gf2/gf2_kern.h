/* The hot-loop helpers of the packed GF(2) engine, shared by the
 * elimination (gf2_elim.c) and the matrix product (gf2_mul.c): the fused
 * table xor and the per-ISA clones of a kernel body. */
#ifndef TOGGLE_GF2_KERN_H
#define TOGGLE_GF2_KERN_H

#include <stddef.h>
#include <stdint.h>

#define GF2_MAXT 8   /* tables per pass */

#if defined(__GNUC__)
#define GF2_INLINE static inline __attribute__((always_inline))
#else
#define GF2_INLINE static inline
#endif

/* dst ^= t[0] ^ ... ^ t[NT-1] over n words; NT is a constant after inlining,
 * so the compiler emits one fused vector loop per table count. */
GF2_INLINE void xor_fused(uint64_t *restrict dst, const uint64_t *const *t, unsigned NT,
                          size_t n)
{
    const uint64_t *restrict t0 = t[0], *restrict t1 = t[1], *restrict t2 = t[2],
                   *restrict t3 = t[3], *restrict t4 = t[4], *restrict t5 = t[5],
                   *restrict t6 = t[6], *restrict t7 = t[7];
    switch (NT) {
    case 8: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w] ^ t4[w] ^ t5[w] ^ t6[w] ^ t7[w]; break;
    case 7: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w] ^ t4[w] ^ t5[w] ^ t6[w]; break;
    case 6: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w] ^ t4[w] ^ t5[w]; break;
    case 5: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w] ^ t4[w]; break;
    case 4: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w] ^ t3[w]; break;
    case 3: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w] ^ t2[w]; break;
    case 2: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w] ^ t1[w]; break;
    default: for (size_t w = 0; w < n; w++) dst[w] ^= t0[w]; break;
    }
}

/* The product's base case with GF2P8AFFINEQB (gf2_gfni.c): whether this
 * CPU runs it (AVX-512 F, BW, VBMI and GFNI), the words of workspace an
 * m x k x n product (or any smaller one) takes (64-byte aligned), and
 * C += A * B on it (A m x k bits, bits past k ignored; B k x n, its
 * padding bits zero: the first (n + 63) / 64 words of C's rows are
 * written, B's bits past n xored into them). */
int toggle__gf2_gfni_ok(void);
size_t toggle__gf2_gfni_words(size_t m, size_t k, size_t n);
void toggle__gf2_gfni_mul(uint64_t *C, size_t cs, const uint64_t *A, size_t as,
                          const uint64_t *B, size_t bs, size_t m, size_t k, size_t n,
                          uint64_t *work);
/* The same product with B copied once for all row tiles (threads): B's
 * copy is toggle__gf2_gfni_prep_blocks(k, n) blocks of a shared area of
 * toggle__gf2_gfni_prep_words(k, n) words, each filled once by
 * toggle__gf2_gfni_prep (any thread, any order); then any rows of C and A
 * multiply by it with a workspace At of toggle__gf2_gfni_rows_words(m, k)
 * words. */
size_t toggle__gf2_gfni_prep_blocks(size_t k, size_t n);
size_t toggle__gf2_gfni_prep_words(size_t k, size_t n);
size_t toggle__gf2_gfni_rows_words(size_t m, size_t k);
void toggle__gf2_gfni_prep(const uint64_t *B, size_t bs, size_t k, size_t n, size_t blk,
                           uint64_t *Bt);
void toggle__gf2_gfni_mul_prepped(uint64_t *C, size_t cs, const uint64_t *A, size_t as,
                                  const uint64_t *Bt, size_t m, size_t k, size_t n,
                                  uint64_t *At);

/* The hot bodies NAME_body are compiled once per vector unit by
 * TOGGLE__CLONES (lib/core/core.h) and picked per call by TOGGLE__PICK. */

#endif
