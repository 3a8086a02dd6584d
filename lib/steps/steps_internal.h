/* lib/steps internals: the handle's layout and the operations shared by the
 * handle (steps.c), the script reader and writer (script.c) and the check
 * of one operation (check.c). */
#ifndef TOGGLE_STEPS_INTERNAL_H
#define TOGGLE_STEPS_INTERNAL_H

#include "core.h"

typedef struct toggle__step {
    int op;
    size_t a, b;
    uint64_t c;
} toggle__step;

struct toggle_steps {
    size_t m, n, w; /* w = n + 1 columns; column n is b */
    uint64_t k;
    bool prime;      /* every nonzero entry is a unit */
    uint64_t budget; /* 0 = unlimited */
    uint64_t *mat;   /* m * w entries, row-major */
    toggle__step *hist, *redo;
    size_t nhist, caphist, nredo, capredo;
};

/* TOGGLE_OK if op can be applied to any m x w matrix mod k, else a status
 * with a message ("row 7 is out of range (the matrix has 5 rows)"). */
int toggle__step_check(const toggle_steps *st, const toggle__step *op);
/* The same check, the message written into msg[0 .. cap) instead of
 * recorded (check.c). */
int toggle__step_problem(const toggle_steps *st, const toggle__step *op, char *msg, size_t cap);
/* Make room for extra more trace entries (budget checked); nothing else changes. */
int toggle__steps_reserve(toggle_steps *st, size_t extra);
/* Apply a checked op and record it (room reserved); forgets the redo list. */
void toggle__steps_push(toggle_steps *st, const toggle__step *op);

#endif
