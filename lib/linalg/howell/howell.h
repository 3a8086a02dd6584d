/* The Howell form over Z/kZ (lib/linalg/howell): pure kernels on matrices
 * of residues. Never installed. */
#ifndef TOGGLE_LINALG_HOWELL_H
#define TOGGLE_LINALG_HOWELL_H

#include "core.h"

/* Howell form in place of the rows x cols matrix M (row-major, entries < k),
 * which has room for cap >= rows + cols rows. On return rows [0, *rank) are
 * the nonzero rows, lead[i] the leading column of row i (lead needs cap
 * entries), each leading entry a divisor of k. Reports the columns done to
 * pr (may be NULL); TOGGLE_ECANCELED when its callback cancels. */
int toggle__howell(uint64_t *M, size_t rows, size_t cap, size_t cols, uint64_t k,
                   size_t *rank, size_t *lead, const toggle__progress_state *pr);

/* The answers in the Howell form M (r rows, lead as above) of the rows
 * (-b | 1 | 0) and (column j of A | 0 | e_j) of an m x n system (m + 1 + n
 * columns): solvable when the row led by column m has entry 1, x (1 vector,
 * when solvable) its last n entries, the kernel (nullity vectors of n
 * entries) the rows led further right, with radix[i] = k / (their leading
 * entry); radix has room for n entries. m may be 0: then M is a Howell form
 * of rows (c | x) whose rows led after column 0 span a kernel. */
int toggle__howell_readout(const uint64_t *M, size_t r, const size_t *lead, size_t m, size_t n,
                           uint64_t k, bool *solvable, size_t *nullity, toggle__vecs *kernel,
                           toggle__vecs *x, uint64_t *radix);

#endif
