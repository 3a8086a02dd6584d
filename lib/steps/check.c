/* Checking one row operation against the matrix it would change, for the
 * handle (steps.c) and the script reader (script.c). */
#include <stdio.h>

#include "steps_internal.h"

int toggle__step_problem(const toggle_steps *st, const toggle__step *op, char *msg, size_t cap)
{
    size_t m = st->m;
    bool two = op->op != TOGGLE_STEP_SCALE;
    size_t blimit = op->op == TOGGLE_STEP_MOVE ? m + 1 : m;
    if (op->a >= m || (two && op->b >= blimit)) {
        snprintf(msg, cap, "row %zu is out of range (the matrix has %zu rows, 0 .. %zu)",
                 op->a >= m ? op->a : op->b, m, m ? m - 1 : 0);
        if (op->a < m && op->op == TOGGLE_STEP_MOVE)
            snprintf(msg, cap, "move: %zu is out of range (0 .. %zu; %zu = to the end)", op->b,
                     m, m);
        return TOGGLE_ERANGE;
    }
    switch (op->op) {
    case TOGGLE_STEP_ADD:
        if (op->c >= st->k) {
            snprintf(msg, cap, "add: multiplier %llu is not below k = %llu",
                     (unsigned long long)op->c, (unsigned long long)st->k);
            return TOGGLE_ERANGE;
        }
        if (!op->c) {
            snprintf(msg, cap, "add: the multiplier is 0 mod %llu, nothing would change",
                     (unsigned long long)st->k);
            return TOGGLE_EINVAL;
        }
        if (op->a == op->b) {
            snprintf(msg, cap, "add: row %zu cannot be added to itself (use scale)", op->a);
            return TOGGLE_EINVAL;
        }
        return TOGGLE_OK;
    case TOGGLE_STEP_SCALE:
        if (op->c >= st->k) {
            snprintf(msg, cap, "scale: %llu is not below k = %llu", (unsigned long long)op->c,
                     (unsigned long long)st->k);
            return TOGGLE_ERANGE;
        }
        if (!toggle__invmod(op->c, st->k)) {
            snprintf(msg, cap, "scale: %llu is not a unit mod %llu (the row could not be "
                     "restored)", (unsigned long long)op->c, (unsigned long long)st->k);
            return TOGGLE_EINVAL;
        }
        return TOGGLE_OK;
    case TOGGLE_STEP_SWAP:
        if (op->a == op->b) {
            snprintf(msg, cap, "swap: needs two different rows");
            return TOGGLE_EINVAL;
        }
        return TOGGLE_OK;
    case TOGGLE_STEP_MOVE:
        if (op->b == op->a || op->b == op->a + 1) {
            snprintf(msg, cap, "move: row %zu is already just before row %zu", op->a, op->b);
            return TOGGLE_EINVAL;
        }
        return TOGGLE_OK;
    default:
        snprintf(msg, cap, "unknown operation %d", op->op);
        return TOGGLE_EINVAL;
    }
}

int toggle__step_check(const toggle_steps *st, const toggle__step *op)
{
    char msg[160];
    int rc = toggle__step_problem(st, op, msg, sizeof msg);
    return rc ? toggle__error(rc, "%s", msg) : TOGGLE_OK;
}
