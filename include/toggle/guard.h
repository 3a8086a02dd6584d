/* libtoggle: the opt-in FLINT guard. */
#ifndef TOGGLE_GUARD_H
#define TOGGLE_GUARD_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file guard.h
 *  @brief Turning FLINT's aborts into error returns.
 *
 *  libtoggle validates every argument and checks the memory budget before
 *  it calls FLINT, so on requests it accepts FLINT never sees a bad
 *  argument, and never needs more memory than the budget allows. What the
 *  library cannot rule out is the system itself running out of memory
 *  (another process, a container limit, RLIMIT_AS): FLINT then prints a
 *  message and calls abort(), taking the whole process down.
 *
 *  The guard is for processes that must survive that (a Python interpreter,
 *  a long-running service). Once installed, every FLINT call libtoggle
 *  makes runs inside a recovery point: if FLINT's allocator fails, the call
 *  is unwound at once (before FLINT prints anything), everything FLINT had
 *  allocated during the interrupted call is freed, FLINT's thread-local
 *  caches are released (flint_cleanup()), and the libtoggle function
 *  returns TOGGLE_ENOMEM. Should FLINT abort for any other reason (an
 *  internal invariant; never expected), the function returns
 *  TOGGLE_EINTERNAL instead, after FLINT has printed its message.
 *
 *  GMP is covered the same way: libtoggle uses it for exact solution
 *  counts (toggle_solution_count_string), and GMP's default allocator
 *  aborts too, so the guard also routes GMP's memory functions
 *  (mp_set_memory_functions) through the recovery point.
 *
 *  The guard is process-global: it replaces FLINT's memory functions
 *  (__flint_set_memory_functions), its abort handler (flint_set_abort) and
 *  GMP's memory functions. Rules:
 *  - install it once, before any thread calls libtoggle, FLINT or GMP, and
 *    never uninstall it;
 *  - do not install it if the program itself sets FLINT's memory functions
 *    or abort handler (the last one installed wins);
 *  - GMP memory functions the program set before the guard are kept: the
 *    guard reads them (mp_get_memory_functions) and calls them for every
 *    GMP allocation outside libtoggle, so a program's own GMP use behaves
 *    as before; do not set GMP's memory functions after the guard;
 *  - FLINT and GMP calls the program makes itself are not protected:
 *    outside libtoggle the guard behaves exactly like the previous
 *    functions (FLINT's defaults).
 *  The cost is a hash-table insertion per FLINT or GMP allocation inside
 *  libtoggle. */

/** Install the FLINT guard (see above). Idempotent: later calls do nothing.
 *  Not thread-safe against concurrent libtoggle or FLINT calls: call it
 *  from main() before starting threads.
 *  @return TOGGLE_OK. */
TOGGLE_API int toggle_flint_guard_install(void);

/** 1 if toggle_flint_guard_install() has run in this process, else 0. */
TOGGLE_API int toggle_flint_guard_installed(void);

#ifdef __cplusplus
}
#endif
#endif
