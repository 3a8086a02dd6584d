/* The chase engine's internals shared by its files (lib/engine/chase/):
 * the frame and the row chases (chase.c), run by the engine
 * (chase_engine.c) and its composite-modulus path (composite.c). Never
 * installed. */
#ifndef TOGGLE_CHASE_H
#define TOGGLE_CHASE_H

#include "engine/engine.h"

/* The board as the chase sees it: R frame rows of C cells, chased from the
 * last frame row upward. When the board is wider than tall the frame is its
 * transpose (tr), so that the small system has min(rows, cols) unknowns;
 * flip numbers the frame rows from the board's last row (the composite
 * path chases downward from the first board row). Frame cell (r, j) is
 * board cell r' * C + j, or j * R + r' when transposed, r' = r or R-1-r. */
typedef struct {
    size_t R, C;
    bool tr, flip;
    unsigned d;         /* 1: the pressed cell toggles itself (classic), 0: no self */
    uint64_t p;         /* the modulus of the chase (prime, or any k >= 3) */
    const toggle__vecs *b; /* right-hand side (N values) or NULL for zero */
    toggle__vecs *out;  /* where to write the frame rows, or NULL */
    size_t outvec;      /* which vector of out */
    toggle__pool *pool; /* the solve's threads (NULL: one): column strips */
    bool shared;        /* set by the chase: strips share output words */
} toggle__chase_frame;

/* One chase from the last frame row w (C values < p) upward; virt receives
 * the virtual row above the board (C values): zero iff w leads to a
 * solution. work: the bytes toggle__chase_pick gave. */
typedef void (*toggle__chase_fn)(const toggle__chase_frame *f, const uint64_t *w, uint64_t *virt,
                                 void *work);

/* The chase routine for modulus p (2 only for F_2) with C cells per row,
 * and its work size in bytes. */
toggle__chase_fn toggle__chase_pick(uint64_t p, size_t C, size_t *bytes);
/* The extra bytes a chase allocates when its frame has a pool of nt
 * threads (the strips' rows and the shared state). */
size_t toggle__chase_thread_bytes(uint64_t p, size_t C, unsigned nt);

/* Composite k (composite.c): can the chase give the Howell engine's
 * answers for s (silent, like a probe)? */
bool toggle__chase_composite_probe(const toggle_system *s, char *why, size_t len);
int toggle__chase_composite_estimate(const toggle_system *s, uint64_t *bytes);
int toggle__chase_composite_solve(const toggle_system *s, toggle_solution *sol);

#endif
