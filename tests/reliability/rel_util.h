/* Small helpers shared by the reliability suites. */
#ifndef TOGGLE_REL_UTIL_H
#define TOGGLE_REL_UTIL_H

#include <stdlib.h>
#include <string.h>

/* Address-space limits and RSS figures mean nothing under ASan (it reserves
 * terabytes of shadow) or valgrind (which runs the program in its own
 * address space): the tests that rely on them skip there. */
#if defined(__SANITIZE_ADDRESS__)
#define REL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define REL_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#undef REL_ASAN
#define REL_ASAN 1
#endif
#ifndef REL_ASAN
#define REL_ASAN 0
#endif

static inline int rel_under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload") != NULL;
}

static inline int rel_memory_figures_meaningful(void)
{
    return !REL_ASAN && !rel_under_valgrind();
}

#endif
