/* The failing malloc of failmalloc.c, for the programs that link it. */
#ifndef TOGGLE_FAILMALLOC_H
#define TOGGLE_FAILMALLOC_H

#include <stdint.h>

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
