/* What the transfer engine's routes read of the lanes path (lib/engine/
 * transfer/): the frame (frame.c, estimate.c), the small system (small.c)
 * and the chase (solve.c), for the composite-modulus path (composite.c)
 * and the ring route (ring.c); the composite path's entry points for the
 * dispatch (transfer_engine.c). Never installed. */
#ifndef TOGGLE_TRANSFER_H
#define TOGGLE_TRANSFER_H

#include "engine/engine.h"

typedef struct toggle__tframe toggle__tframe;

/* What the composite path reads of a frame. */
typedef struct {
    size_t m;      /* the small system's unknowns */
    size_t R, C;   /* frame rows, cells per frame row */
    size_t H;      /* Hf + Hb, at most R: the rows the head form captures */
    bool tr;       /* frame rows are board columns */
} toggle__tframe_info;

/* The frame on the board rows (tr false) or columns, as the probe sets it
 * up; NULL (and OK) when that axis does not peel, *oom when it could not
 * tell (silent: no message). */
toggle__tframe *toggle__transfer_frame(const toggle_system *s, bool tr, bool *oom);
void toggle__transfer_frame_free(toggle__tframe *f);
void toggle__transfer_frame_info(const toggle__tframe *f, toggle__tframe_info *info);
/* The row patterns' bytes (alive through a solve), for the estimates. */
uint64_t toggle__transfer_frame_bytes(const toggle__tframe *f);
/* Bytes of the lanes of L lanes (cell-major). */
uint64_t toggle__transfer_lanes_bytes(const toggle__tframe *f, size_t L);

/* The small system E u = rhs (m x m over Z/kZ, k = s->k), built by the
 * prime path's code (the circulant one where it applies), not solved. */
int toggle__transfer_small_system(const toggle_system *s, toggle__tframe *f, toggle_system **ss);
/* Solve a small system with the engine AUTO picks (no certificate). */
int toggle__transfer_solve_small(const toggle_system *ss, toggle_solution **small);

/* One chase of L lanes, lane l's unknowns U[l * m ..] (lane 0 with b when
 * with_b): into sol (x when with_b, then the kernel vectors; their storage
 * initialised), checking that every residual is 0, or, when sol is NULL,
 * capturing frame rows 0 .. H - 1 into T (lane l at T[l * H * C ..]); res
 * (m values, or NULL) receives lane 0's residuals, the rows of E in order:
 * E u - rhs for the unknowns u of lane 0 chased with b. */
int toggle__transfer_chase(const toggle_system *s, toggle__tframe *f, const uint64_t *U, size_t L,
                           bool with_b, toggle_solution *sol, size_t H, uint64_t *T,
                           uint64_t *res);

/* Composite k (composite.c): the Howell engine's answers. */
bool toggle__transfer_composite_applies(const toggle_system *s, char *why, size_t len);
int toggle__transfer_composite_estimate(const toggle_system *s, uint64_t *bytes);
int toggle__transfer_composite_solve(const toggle_system *s, toggle_solution *sol);

#endif
