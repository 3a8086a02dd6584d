/* A progress bar on stderr: done/total, items per second, time left. */
#ifndef TOGGLE_TOOLS_PROGRESS_H
#define TOGGLE_TOOLS_PROGRESS_H

#include <stddef.h>

typedef struct {
    double t0;        /* when the work started (monotonic seconds) */
    const char *unit; /* what is counted, plural: "boards" */
} progress_bar;

/* Start the clock. */
void progress_start(progress_bar *b, const char *unit);
/* Redraw the bar (b is a progress_bar *: the signature of pool_spec.tick). */
void progress_show(void *b, size_t done, size_t total);
/* Draw the full bar with the time taken, and end the line. */
void progress_finish(const progress_bar *b, size_t total);

/* A bar of one piece of work on stderr, by the fraction done (0..1). */
void progress_fraction(double fraction);
/* Erase that bar's line. */
void progress_erase(void);

#endif
