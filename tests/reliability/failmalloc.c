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
 *     FAILMALLOC_LIVE=path  the sequence numbers (allocation indices) of
 *                           the blocks still live at exit, one a line;
 *   FAILMALLOC_NOGUARD=1 also replaces toggle_flint_guard_install() with a
 *   no-op, so the CLI runs without the FLINT guard.
 * - compiled into a test program with -DFAILMALLOC_LINKED (the library
 *   driver): armed with failmalloc_arm(), and failmalloc_track() records
 *   every block allocated meanwhile in a fixed table so that the program
 *   can count the blocks still live after it freed everything (a leak).
 *
 * The wrappers call glibc's __libc_* entry points (or, in a build with
 * AddressSanitizer, the sanitizer's), so they never recurse and need no
 * dlsym. */
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

/* In a build with AddressSanitizer the blocks must be the sanitizer's (it
 * checks every access and every free against its own heap): its runtime
 * (gcc's libasan, clang's static one) defines the allocation functions as
 * weak aliases of __interceptor_<name>, which this file's strong
 * definitions replace; they forward to the sanitizer's entry points
 * instead of glibc's. Weak references: NULL without a sanitizer. */
extern void *__interceptor_malloc(size_t size) __attribute__((weak));
extern void *__interceptor_calloc(size_t n, size_t size) __attribute__((weak));
extern void *__interceptor_realloc(void *p, size_t size) __attribute__((weak));
extern void *__interceptor_memalign(size_t align, size_t size) __attribute__((weak));
extern void __interceptor_free(void *p) __attribute__((weak));
#define REAL(name) (__interceptor_##name ? __interceptor_##name : __libc_##name)
/* (FM_NOSAN, failmalloc.h: the wrappers run before the sanitizer has mapped
 * its shadow memory, while the loader and the sanitizer start up) */

static uint64_t fm_calls, fm_nth, fm_hits;
static bool fm_sticky;
static char fm_hit_path[512];

/* ---- the live-block table (open addressing, no allocation) ----
 * Each live block with the index of the allocation that made it (its
 * sequence number: the count of allocations when it was made, 0 while
 * disarmed); a spin lock, since a program may allocate from threads. */
#define TRACK_SLOTS (1u << 18)
static uintptr_t track_tab[TRACK_SLOTS]; /* 0 empty, 1 deleted */
static uint64_t track_seq[TRACK_SLOTS];
static bool tracking;
static uint64_t track_live;
static int track_lock_word;

FM_NOSAN static void track_lock(void)
{
    while (__atomic_exchange_n(&track_lock_word, 1, __ATOMIC_ACQUIRE))
        ;
}

FM_NOSAN static void track_unlock(void)
{
    __atomic_store_n(&track_lock_word, 0, __ATOMIC_RELEASE);
}

FM_NOSAN static size_t slot_of(uintptr_t p)
{
    return (size_t)((p >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 46) & (TRACK_SLOTS - 1);
}

FM_NOSAN static void track_add(void *ptr, uint64_t seq)
{
    if (!tracking || !ptr)
        return;
    uintptr_t p = (uintptr_t)ptr;
    track_lock();
    for (size_t i = slot_of(p), t = 0; t < TRACK_SLOTS; i = (i + 1) & (TRACK_SLOTS - 1), t++)
        if (track_tab[i] <= 1) {
            track_tab[i] = p;
            track_seq[i] = seq;
            track_live++;
            break;
        }
    track_unlock();
}

FM_NOSAN static void track_del(void *ptr)
{
    if (!ptr || !__atomic_load_n(&track_live, __ATOMIC_RELAXED))
        return;
    uintptr_t p = (uintptr_t)ptr;
    track_lock();
    for (size_t i = slot_of(p), t = 0; t < TRACK_SLOTS; i = (i + 1) & (TRACK_SLOTS - 1), t++) {
        if (track_tab[i] == p) {
            track_tab[i] = 1;
            track_live--;
            break;
        }
        if (track_tab[i] == 0)
            break;
    }
    track_unlock();
}

FM_NOSAN void failmalloc_arm(uint64_t nth, int sticky)
{
    __atomic_store_n(&fm_calls, 0, __ATOMIC_SEQ_CST);
    fm_hits = 0;
    fm_sticky = sticky != 0;
    __atomic_store_n(&fm_nth, nth, __ATOMIC_SEQ_CST);
}

FM_NOSAN uint64_t failmalloc_calls(void)
{
    return __atomic_load_n(&fm_calls, __ATOMIC_SEQ_CST);
}

FM_NOSAN uint64_t failmalloc_hits(void)
{
    return fm_hits;
}

FM_NOSAN void failmalloc_track(int on)
{
    if (on) {
        memset(track_tab, 0, sizeof track_tab);
        track_live = 0;
    }
    tracking = on != 0;
}

FM_NOSAN uint64_t failmalloc_live(void)
{
    return track_live;
}

/* true: this allocation must fail; *seq: its index (0 while disarmed) */
FM_NOSAN static bool fail_now(uint64_t *seq)
{
    *seq = 0;
    uint64_t nth = __atomic_load_n(&fm_nth, __ATOMIC_RELAXED);
    if (!nth)
        return false;
    uint64_t c = __atomic_add_fetch(&fm_calls, 1, __ATOMIC_SEQ_CST);
    *seq = c;
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

FM_NOSAN void *malloc(size_t size)
{
    uint64_t seq;
    if (fail_now(&seq))
        return NULL;
    void *p = REAL(malloc)(size);
    track_add(p, seq);
    return p;
}

FM_NOSAN void *calloc(size_t n, size_t size)
{
    uint64_t seq;
    if (fail_now(&seq))
        return NULL;
    void *p = REAL(calloc)(n, size);
    track_add(p, seq);
    return p;
}

FM_NOSAN void *realloc(void *old, size_t size)
{
    uint64_t seq;
    if (fail_now(&seq))
        return NULL;
    void *p = REAL(realloc)(old, size);
    if (p || size == 0 || !old) {
        if (old)
            track_del(old);
        track_add(p, seq);
    }
    return p;
}

FM_NOSAN void free(void *p)
{
    track_del(p);
    REAL(free)(p);
}

FM_NOSAN int posix_memalign(void **out, size_t align, size_t size)
{
    uint64_t seq;
    if (fail_now(&seq))
        return ENOMEM;
    void *p = REAL(memalign)(align, size);
    if (!p)
        return ENOMEM;
    track_add(p, seq);
    *out = p;
    return 0;
}

FM_NOSAN void *aligned_alloc(size_t align, size_t size)
{
    uint64_t seq;
    if (fail_now(&seq))
        return NULL;
    void *p = REAL(memalign)(align, size);
    track_add(p, seq);
    return p;
}

FM_NOSAN void *memalign(size_t align, size_t size)
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
    if (getenv("FAILMALLOC_LIVE"))
        tracking = true;
}

/* Appends the decimal v and a newline to buf at *len, flushed to fd when
 * full (no allocation). */
static void put_u64(int fd, char *buf, size_t cap, size_t *len, uint64_t v)
{
    char d[24];
    size_t i = sizeof d;
    d[--i] = '\n';
    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (*len + (sizeof d - i) > cap) {
        ssize_t w = write(fd, buf, *len);
        (void)w;
        *len = 0;
    }
    memcpy(buf + *len, d + i, sizeof d - i);
    *len += sizeof d - i;
}

static void write_file(const char *path, bool live)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return;
    char buf[4096];
    size_t len = 0;
    if (!live) {
        put_u64(fd, buf, sizeof buf, &len, failmalloc_calls());
    } else {
        track_lock();
        for (size_t i = 0; i < TRACK_SLOTS; i++)
            if (track_tab[i] > 1)
                put_u64(fd, buf, sizeof buf, &len, track_seq[i]);
        track_unlock();
    }
    ssize_t w = write(fd, buf, len);
    (void)w;
    close(fd);
}

/* At exit (after every other destructor: the preloaded module is
 * initialised first, so finalised last), without allocating:
 * FAILMALLOC_COUNT=path gets the number of allocations counted,
 * FAILMALLOC_LIVE=path the sequence numbers of the blocks still live, one
 * a line (the runner compares them with an unfailed run's: a leak). */
__attribute__((destructor)) static void failmalloc_fini(void)
{
    const char *path = getenv("FAILMALLOC_COUNT"), *live = getenv("FAILMALLOC_LIVE");
    if (path)
        write_file(path, false);
    if (live)
        write_file(live, true);
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
