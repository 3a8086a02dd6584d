/* The Howell form over Z/kZ (lib/engine/howell). Never installed. */
#ifndef TOGGLE_HOWELL_H
#define TOGGLE_HOWELL_H

#include "core.h"

/* Howell form in place of the rows x cols matrix M (row-major, entries < k),
 * which has room for cap >= rows + cols rows. On return rows [0, *rank) are
 * the nonzero rows, lead[i] the leading column of row i (lead needs cap
 * entries), each leading entry a divisor of k. Reports the columns done to
 * pr (may be NULL); TOGGLE_ECANCELED when its callback cancels. */
int toggle__howell(uint64_t *M, size_t rows, size_t cap, size_t cols, uint64_t k,
                   size_t *rank, size_t *lead, const toggle__progress_state *pr);

#endif
