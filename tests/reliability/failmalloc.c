/* A failing malloc (docs/reliability.md, "Failing malloc"): every allocation
 * of the process (malloc, calloc, realloc, posix_memalign, aligned_alloc,
 * memalign: the library's, FLINT's, GMP's, libpng's, zlib's and libc's own)
 * is counted, and the n-th one fails (returns NULL with errno ENOMEM), once
 * or from n on. Two uses, one source:
 *
 * - built as a shared module and loaded with LD_PRELOAD (the CLI): armed
 *   from the environment when the module is initialised,
 *     FAILMALLOC_NTH=n      fail the n-th allocation counted from then on,
 *     FAILMALLOC_STICKY=1   and every later one,
 *     FAILMALLOC_HIT=path   file created when the first failure is injected
 *                           (so the runner knows the run reached n);
 *     FAILMALLOC_COUNT=path the number of allocations, written at exit;
 *   FAILMALLOC_NOGUARD=1 also replaces toggle_flint_guard_install() with a
 *   no-op, so the CLI runs without the FLINT guard.
 * - compiled into a test program with -DFAILMALLOC_LINKED (the library
 *   driver): armed with failmalloc_arm(), and failmalloc_track() records
 *   every block allocated meanwhile in a fixed table so that the program
 *   can count the blocks still live after it freed everything (a leak).
 *
 * The wrappers call glibc's __libc_* entry points, so they never recurse and
 * need no dlsym. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "failmalloc.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

static uint64_t fm_calls, fm_nth, fm_hits;
static bool fm_sticky;
static char fm_hit_path[512];

/* ---- the live-block table (open addressing, no allocation) ---- */
#define TRACK_SLOTS (1u << 18)
static uintptr_t track_tab[TRACK_SLOTS]; /* 0 empty, 1 deleted */
static bool tracking;
static uint64_t track_live;

static size_t slot_of(uintptr_t p)
{
    return (size_t)((p >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 46) & (TRACK_SLOTS - 1);
}

static void track_add(void *ptr)
{
    if (!tracking || !ptr)
        return;
    uintptr_t p = (uintptr_t)ptr;
    for (size_t i = slot_of(p), t = 0; t < TRACK_SLOTS; i = (i + 1) & (TRACK_SLOTS - 1), t++)
        if (track_tab[i] <= 1) {
            track_tab[i] = p;
            track_live++;
            return;
        }
}

static void track_del(void *ptr)
{
    if (!ptr || !track_live)
        return;
    uintptr_t p = (uintptr_t)ptr;
    for (size_t i = slot_of(p), t = 0; t < TRACK_SLOTS; i = (i + 1) & (TRACK_SLOTS - 1), t++) {
        if (track_tab[i] == p) {
            track_tab[i] = 1;
            track_live--;
            return;
        }
        if (track_tab[i] == 0)
            return;
    }
}

void failmalloc_arm(uint64_t nth, int sticky)
{
    __atomic_store_n(&fm_calls, 0, __ATOMIC_SEQ_CST);
    fm_hits = 0;
    fm_sticky = sticky != 0;
    __atomic_store_n(&fm_nth, nth, __ATOMIC_SEQ_CST);
}

uint64_t failmalloc_calls(void)
{
    return __atomic_load_n(&fm_calls, __ATOMIC_SEQ_CST);
}

uint64_t failmalloc_hits(void)
{
    return fm_hits;
}

void failmalloc_track(int on)
{
    if (on) {
        memset(track_tab, 0, sizeof track_tab);
        track_live = 0;
    }
    tracking = on != 0;
}

uint64_t failmalloc_live(void)
{
    return track_live;
}

/* true: this allocation must fail */
static bool fail_now(void)
{
    uint64_t nth = __atomic_load_n(&fm_nth, __ATOMIC_RELAXED);
    if (!nth)
        return false;
    uint64_t c = __atomic_add_fetch(&fm_calls, 1, __ATOMIC_SEQ_CST);
    if (c != nth && !(fm_sticky && c > nth))
        return false;
    if (fm_hits++ == 0 && fm_hit_path[0]) {
        int fd = open(fm_hit_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0)
            close(fd);
    }
    errno = ENOMEM;
    return true;
}

void *malloc(size_t size)
{
    if (fail_now())
        return NULL;
    void *p = __libc_malloc(size);
    track_add(p);
    return p;
}

void *calloc(size_t n, size_t size)
{
    if (fail_now())
        return NULL;
    void *p = __libc_calloc(n, size);
    track_add(p);
    return p;
}

void *realloc(void *old, size_t size)
{
    if (fail_now())
        return NULL;
    void *p = __libc_realloc(old, size);
    if (p || size == 0 || !old) {
        if (old)
            track_del(old);
        track_add(p);
    }
    return p;
}

void free(void *p)
{
    track_del(p);
    __libc_free(p);
}

int posix_memalign(void **out, size_t align, size_t size)
{
    if (fail_now())
        return ENOMEM;
    void *p = __libc_memalign(align, size);
    if (!p)
        return ENOMEM;
    track_add(p);
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t size)
{
    if (fail_now())
        return NULL;
    void *p = __libc_memalign(align, size);
    track_add(p);
    return p;
}

void *memalign(size_t align, size_t size)
{
    return aligned_alloc(align, size);
}

#ifndef FAILMALLOC_LINKED
__attribute__((constructor)) static void failmalloc_init(void)
{
    const char *hit = getenv("FAILMALLOC_HIT");
    if (hit && strlen(hit) < sizeof fm_hit_path)
        strcpy(fm_hit_path, hit);
    const char *nth = getenv("FAILMALLOC_NTH"), *sticky = getenv("FAILMALLOC_STICKY");
    if (nth)
        failmalloc_arm(strtoull(nth, NULL, 10), sticky && *sticky == '1');
}

/* FAILMALLOC_COUNT=path: the number of allocations counted, written at
 * exit (without allocating). */
__attribute__((destructor)) static void failmalloc_fini(void)
{
    const char *path = getenv("FAILMALLOC_COUNT");
    if (!path)
        return;
    char buf[24];
    size_t i = sizeof buf;
    uint64_t c = failmalloc_calls();
    buf[--i] = '\n';
    do {
        buf[--i] = (char)('0' + c % 10);
        c /= 10;
    } while (c);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        ssize_t w = write(fd, buf + i, sizeof buf - i);
        (void)w;
        close(fd);
    }
}

/* FAILMALLOC_NOGUARD=1: the CLI's call installs nothing. */
int toggle_flint_guard_install(void)
{
    const char *no = getenv("FAILMALLOC_NOGUARD");
    if (no && *no == '1')
        return 0;
    int (*real)(void) = (int (*)(void))dlsym(RTLD_NEXT, "toggle_flint_guard_install");
    return real ? real() : 0;
}
#endif
