/* The library's one allocator, with thread-local failure injection for tests. */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#define BLOCK_SIZE(p) malloc_usable_size((void *)(p))
#else /* (WebAssembly: no count) */
#define BLOCK_SIZE(p) ((void)(p), (size_t)0)
#endif

#if defined(__linux__)
#include <errno.h>
#include <sys/mman.h>
#endif

#include "core.h"

static _Thread_local toggle__failpoint library;

/* Large blocks (matrices, tables) are asked to be backed by transparent huge
 * pages where the kernel leaves that to madvise (Debian's default): every
 * 4 KiB page of a fresh block costs a page fault on first touch (dearer
 * under a hypervisor), and the eliminations stride over rows a TLB entry
 * apart. Only the 2 MiB-aligned interior of the block is advised, so no
 * other block's memory is affected; a refusal (no THP, old kernel) is
 * ignored: it changes speed, never the result. */
enum { HUGE_MIN = 16u << 20, HUGE_PAGE = 2u << 20 };

static void advise_huge(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!p || size < HUGE_MIN)
        return;
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + size) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (hi > lo) {
        int e = errno; /* a refusal is not the caller's */
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
        errno = e;
    }
#else
    (void)p;
    (void)size;
#endif
}

/* Byte counting (tests only, off by default): the live bytes of the
 * blocks allocated and freed on this thread while it is on, by the
 * allocator's own block sizes (BLOCK_SIZE), and their peak. */
static _Thread_local bool counting;
static _Thread_local int64_t live_bytes, peak_bytes;

void toggle__alloc_count(bool on)
{
    counting = on;
    live_bytes = peak_bytes = 0;
}

int64_t toggle__alloc_peak(void)
{
    return peak_bytes;
}

void toggle__alloc_note(const void *p, int sign)
{
    if (!counting || !p)
        return;
    live_bytes += sign * (int64_t)BLOCK_SIZE(p);
    if (live_bytes > peak_bytes)
        peak_bytes = live_bytes;
}

void toggle__failpoint_arm(toggle__failpoint *fp, uint64_t nth, bool sticky)
{
    fp->calls = 0;
    fp->fail_at = nth;
    fp->sticky = sticky;
}

bool toggle__failpoint_hit(toggle__failpoint *fp)
{
    fp->calls++;
    if (fp->fail_at == 0)
        return false;
    return fp->calls == fp->fail_at || (fp->sticky && fp->calls > fp->fail_at);
}

void toggle__alloc_fail_at(uint64_t nth, bool sticky)
{
    toggle__failpoint_arm(&library, nth, sticky);
}

uint64_t toggle__alloc_calls(void)
{
    return library.calls;
}

static bool should_fail(void)
{
    return toggle__failpoint_hit(&library);
}

void *toggle__malloc(size_t size)
{
    if (should_fail())
        return NULL;
    void *p = malloc(size ? size : 1);
    advise_huge(p, size);
    toggle__alloc_note(p, 1);
    return p;
}

void *toggle__calloc(size_t count, size_t size)
{
    if (should_fail())
        return NULL;
    void *p = count == 0 || size == 0 ? calloc(1, 1) : calloc(count, size);
    size_t bytes;
    if (p && toggle__mul_ok(count, size, &bytes))
        advise_huge(p, bytes);
    toggle__alloc_note(p, 1);
    return p;
}

void *toggle__realloc(void *ptr, size_t size)
{
    if (should_fail())
        return NULL;
    /* counted as the old block freed and the new one allocated; while
     * realloc copies both exist, which the count (like the estimates)
     * takes as the larger plus the smaller */
    size_t old = counting && ptr ? BLOCK_SIZE(ptr) : 0;
    void *q = realloc(ptr, size ? size : 1);
    if (q && counting) {
        live_bytes += (int64_t)BLOCK_SIZE(q);
        if (live_bytes > peak_bytes)
            peak_bytes = live_bytes;
        live_bytes -= (int64_t)old;
    }
    return q;
}

void toggle__free(void *ptr)
{
    toggle__alloc_note(ptr, -1);
    free(ptr);
}

void toggle__free_each(size_t count, void *const *ptrs)
{
    for (size_t i = 0; i < count; i++)
        toggle__free(ptrs[i]);
}

void *toggle__malloc_array(size_t count, size_t size)
{
    size_t bytes;
    if (!toggle__mul_ok(count, size, &bytes))
        return NULL;
    return toggle__malloc(bytes);
}

void *toggle__malloc_lines(size_t count, size_t size)
{
    size_t bytes;
    if (!toggle__mul_ok(count, size, &bytes) || bytes > SIZE_MAX - TOGGLE__LINE)
        return NULL;
    if (should_fail())
        return NULL;
    /* aligned_alloc wants a multiple of the alignment */
    bytes = (bytes + TOGGLE__LINE - 1) / TOGGLE__LINE * TOGGLE__LINE;
    void *p = aligned_alloc(TOGGLE__LINE, bytes ? bytes : TOGGLE__LINE);
    advise_huge(p, bytes);
    toggle__alloc_note(p, 1);
    return p;
}
