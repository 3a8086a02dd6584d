/* The tri step (tri.c): one chasing row of a transposed tri frame over the
 * cell-major lanes, over F_2 and over bit-sliced F_3. Never installed. */
#ifndef TOGGLE_TRANSFER_TRI_H
#define TOGGLE_TRANSFER_TRI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One unit of a row: a pair of cells a, b (each the other's partner) or a
 * single cell a (b its partner when TRI_PART, else unused). */
enum { TOGGLE__TRI_PAIR = 1, TOGGLE__TRI_SELF = 2, TOGGLE__TRI_PART = 4 };
typedef struct {
    uint32_t a, b, flags;
} toggle__tri_unit;

/* x_{r+1}(e) = b(e) + x_{r-1}(e) + [self] x_r(e) + [partner] x_r(p(e)) on
 * every cell of the units; a pair with self shares s = x_r(a) + x_r(b). */
typedef struct {
    const toggle__tri_unit *unit;
    size_t nunit, nw;
    const uint64_t *xr, *xm; /* rows r and r - 1 (NULL: no such row) */
    uint64_t *dst;           /* row r + 1 */
    const uint64_t *bval;    /* b at cell e (bit 0), or NULL */
    size_t bword;            /* b's lane: word and shift */
    unsigned bshift;
} toggle__tri_args;

/* The row kernel for the widest vector unit the CPU has (pick once a chase). */
typedef void (*toggle__tri_fn)(const toggle__tri_args *a);
toggle__tri_fn toggle__transfer_tri_pick(void);
/* The same over F_3 in bit-sliced lanes (nw words a cell: nw / 2 of lo
 * bits, then as many of hi bits; bval the residues 0 .. 2): x_{r+1}(e) =
 * b(e) - x_{r-1}(e) - [self] x_r(e) - [partner] x_r(p(e)). */
toggle__tri_fn toggle__transfer_tri3_pick(void);

#endif
