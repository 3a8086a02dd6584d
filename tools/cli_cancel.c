/* Progress on stderr and cancel by SIGINT (commands.h): the library's
 * progress callback (toggle_system_set_progress) draws the bar and, once
 * SIGINT has set the flag, asks the library to stop, which then returns
 * TOGGLE_ECANCELED with the caller's data untouched; the command frees what
 * it holds and exits with CLI_EXIT_CANCELLED. The handler only sets a
 * sig_atomic_t flag (async-signal-safe); everything else happens on the
 * thread that called the library. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "progress.h"

static volatile sig_atomic_t interrupted; /* the signal's number, or 0 */
static struct timespec slice_end; /* cli_slice_arm: tv_sec 0 = disarmed */
static int slice_due;

static struct {
    int show;     /* 0 no progress, 1 a bar on a terminal, 2 a line per percent */
    int drawn;    /* a bar is on the screen */
    int last_pct; /* the last percent printed (mode 2) */
} state;

static void on_sigint(int sig)
{
    interrupted = sig;
}

int cli_progress_opt(const char *arg, int *mode)
{
    if (!strcmp(arg, "--progress"))
        *mode = CLI_PROGRESS_ON;
    else if (!strcmp(arg, "--no-progress"))
        *mode = CLI_PROGRESS_OFF;
    else
        return 0;
    return 1;
}

void cli_cancel_begin(int mode)
{
    int tty = isatty(2);
    if (mode == CLI_PROGRESS_OFF)
        state.show = 0;
    else
        state.show = tty ? 1 : mode == CLI_PROGRESS_ON ? 2 : 0;
    state.last_pct = -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C is the default action: the end */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL); /* a polite kill: stopped and saved as Ctrl-C is */
}

void cli_slice_arm(uint64_t seconds)
{
    slice_end.tv_sec = 0;
    if (seconds) {
        slice_due = 0;
        clock_gettime(CLOCK_MONOTONIC, &slice_end);
        slice_end.tv_sec += (time_t)seconds;
    }
}

int cli_slice_due(void)
{
    int due = slice_due;
    slice_due = 0;
    return due;
}

static int slice_over(void)
{
    if (!slice_end.tv_sec)
        return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec < slice_end.tv_sec ||
        (now.tv_sec == slice_end.tv_sec && now.tv_nsec < slice_end.tv_nsec))
        return 0;
    slice_due = 1;
    slice_end.tv_sec = 0;
    return 1;
}

int cli_interrupted(void)
{
    return interrupted != 0;
}

int cli_cancelled(const char *what)
{
    int sig = interrupted ? interrupted : SIGINT;
    cli_fail(what, "interrupted (%s)", sig == SIGTERM ? "SIGTERM" : "SIGINT");
    return 128 + sig;
}

static int on_progress(void *payload, double fraction)
{
    (void)payload;
    if (interrupted || slice_over())
        return 1;
    if (state.show == 1) {
        progress_fraction(fraction);
        state.drawn = 1;
    } else if (state.show == 2) {
        int pct = (int)(fraction * 100.0);
        if (pct != state.last_pct) {
            fprintf(stderr, "toggle: progress %d%%\n", pct);
            fflush(stderr);
            state.last_pct = pct;
        }
    }
    return 0;
}

int cli_cancel_attach(toggle_system *s)
{
    return toggle_system_set_progress(s, on_progress, NULL);
}

void cli_progress_clear(void)
{
    if (state.drawn) {
        progress_erase();
        state.drawn = 0;
    }
}
