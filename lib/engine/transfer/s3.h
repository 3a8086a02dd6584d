/* Bit-sliced F_3 residues, shared by the transfer engine's sliced F_3
 * kernels (transfer_engine.c, tri.c): a residue v is two bits (lo, hi) =
 * ([v == 1], [v == 2]), kept in two bit planes, so that one word operation
 * serves 64 lanes or cells. a + x is t = (a_lo | x_hi) ^ (a_hi | x_lo),
 * lo = (a_hi | x_hi) ^ t, hi = (a_lo | x_lo) ^ t (seven word operations,
 * every case checked in test_hexrec); a - x is the same with x's planes
 * swapped, -a swaps a's planes. Works on words and on GNU vectors. Never
 * installed. */
#ifndef TOGGLE_TRANSFER_S3_H
#define TOGGLE_TRANSFER_S3_H

#define S3_ADD(l, h, xl, xh)                                                       \
    do {                                                                           \
        __typeof__(l) t_ = ((l) | (xh)) ^ ((h) | (xl)), nl_ = ((h) | (xh)) ^ t_;   \
        (h) = ((l) | (xl)) ^ t_;                                                   \
        (l) = nl_;                                                                 \
    } while (0)

#endif
