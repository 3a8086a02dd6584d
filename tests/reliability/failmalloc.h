/* The failing malloc of failmalloc.c, for the programs that link it. */
#ifndef TOGGLE_FAILMALLOC_H
#define TOGGLE_FAILMALLOC_H

#include <stdint.h>

/* Not instrumented by AddressSanitizer: the allocation wrappers (they run
 * before the sanitizer has mapped its shadow memory) and code that must not
 * allocate once every allocation fails (the sanitizer's no-return hook
 * asks pthread_getattr_np, which allocates, for the stack bounds). */
#if defined(__SANITIZE_ADDRESS__)
#define FM_NOSAN __attribute__((no_sanitize_address))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FM_NOSAN __attribute__((no_sanitize_address))
#endif
#endif
#ifndef FM_NOSAN
#define FM_NOSAN
#endif

/* Fail the nth allocation counted from now (once, or from nth on if
 * sticky); nth = 0 disarms. Resets the counters. */
void failmalloc_arm(uint64_t nth, int sticky);
/* Allocations counted since the last arm (0 while disarmed). */
uint64_t failmalloc_calls(void);
/* Failures injected since the last arm. */
uint64_t failmalloc_hits(void);
/* Start (1, clearing the table) or stop (0) recording the blocks
 * allocated; frees are always matched against the table. */
void failmalloc_track(int on);
/* Blocks recorded and not freed yet. */
uint64_t failmalloc_live(void);

#endif
