/* The FLINT guard without FLINT (meson -Dflint=disabled): there is nothing
 * to guard, so a recovery point is a plain call and the test hooks count
 * nothing. toggle_flint_guard_installed() still reports the install. */
#include <stdatomic.h>

#include "engine/flint/flint_guard.h"
#include "core.h"

static atomic_int installed;

int toggle_flint_guard_install(void)
{
    atomic_store(&installed, 1);
    return TOGGLE_OK;
}

int toggle_flint_guard_installed(void)
{
    return atomic_load(&installed);
}

int toggle__flint_call(int (*fn)(void *), void *arg, const char *what)
{
    (void)what;
    return fn(arg);
}

void toggle__flint_fail_at(uint64_t nth, bool sticky)
{
    (void)nth;
    (void)sticky;
}

uint64_t toggle__flint_alloc_calls(void)
{
    return 0;
}
