/* Internal side of the FLINT guard (include/toggle/guard.h). */
#ifndef TOGGLE_FLINT_GUARD_H
#define TOGGLE_FLINT_GUARD_H

#include <stdbool.h>
#include <stdint.h>

/* Run fn(arg), which calls FLINT, inside a recovery point. Without the guard
 * this is just fn(arg). With it, a FLINT allocation failure inside fn
 * unwinds to here, frees what FLINT allocated since fn started, and returns
 * TOGGLE_ENOMEM (a FLINT abort: TOGGLE_EINTERNAL), with a message naming
 * `what`. Rules for fn: every FLINT object it uses is created and cleared
 * inside fn (an object FLINT allocated before the call must not be grown
 * inside it), and any libtoggle allocation made inside fn is owned by
 * something the caller frees on error (or freed before fn calls FLINT
 * again), since an unwind skips the rest of fn. Nested calls join the
 * outermost recovery point. */
int toggle__flint_call(int (*fn)(void *), void *arg, const char *what);

/* Test hooks (thread-local): fail the nth FLINT allocation made inside a
 * recovery point from now (n >= 1), once or from n on; 0 disables. Only
 * effective with the guard installed. Returns the allocations counted. */
void toggle__flint_fail_at(uint64_t nth, bool sticky);
uint64_t toggle__flint_alloc_calls(void);

#endif
