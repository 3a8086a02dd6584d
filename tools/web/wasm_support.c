/* What the WebAssembly build of libtoggle needs besides wasi-libc: Debian's
 * compiler-rt for wasm32 (the 128-bit division helpers) is built with the
 * stack protector, so it references the guard and its failure handler,
 * which wasi-libc does not define. A smashed stack traps (unreachable),
 * which the JavaScript side sees as a RuntimeError. */
#include <stdint.h>

uintptr_t __stack_chk_guard = (uintptr_t)0x5a17c0de;

_Noreturn void __stack_chk_fail(void);
_Noreturn void __stack_chk_fail(void)
{
    __builtin_trap();
}
