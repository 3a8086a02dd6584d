/* The opt-in FLINT guard (include/toggle/guard.h, lib/engine/flint/flint_guard.h): FLINT's
 * memory functions and abort handler are replaced by ones that, inside a
 * recovery point (toggle__flint_call), track every block FLINT allocates and
 * unwind with longjmp instead of letting FLINT print and abort. Outside a
 * recovery point they behave like FLINT's defaults. GMP's memory functions
 * are routed the same way (its default allocator aborts too). */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <flint/flint.h>
#include <gmp.h>

#include "flint_guard.h"
#include "core.h"

static atomic_int installed;

/* Per thread: the active recovery point, the status to unwind with, and an
 * open-addressing set of the blocks FLINT allocated since it was set. */
#define INLINE_SLOTS 64
#define TOMB ((void *)(uintptr_t)1)
static _Thread_local jmp_buf *point;
static _Thread_local int unwind_status;
static _Thread_local bool cleaning;
static _Thread_local void *inline_slots[INLINE_SLOTS];
static _Thread_local void **slots;
static _Thread_local size_t cap, used; /* used counts tombstones too */
static _Thread_local toggle__failpoint fl_fail;

void toggle__flint_fail_at(uint64_t nth, bool sticky)
{
    toggle__failpoint_arm(&fl_fail, nth, sticky);
}

uint64_t toggle__flint_alloc_calls(void)
{
    return fl_fail.calls;
}

static _Noreturn void unwind(int status)
{
    unwind_status = status;
    longjmp(*point, 1);
}

static size_t slot_of(const void *p, size_t c)
{
    return (size_t)(((uintptr_t)p >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 17) & (c - 1);
}

static void set_reset(void)
{
    if (slots && slots != inline_slots)
        toggle__free(slots);
    memset(inline_slots, 0, sizeof inline_slots);
    slots = inline_slots;
    cap = INLINE_SLOTS;
    used = 0;
}

static void set_put(void **t, size_t c, void *p)
{
    size_t i = slot_of(p, c);
    while (t[i])
        i = (i + 1) & (c - 1);
    t[i] = p;
}

/* Insert p; false if the table could not grow. */
static bool set_insert(void *p)
{
    if ((used + 1) * 4 > cap * 3) {
        size_t live = 0;
        for (size_t i = 0; i < cap; i++)
            live += slots[i] && slots[i] != TOMB;
        size_t nc = cap;
        while ((live + 1) * 2 > nc)
            nc *= 2;
        void **t = toggle__calloc(nc, sizeof *t);
        if (!t)
            return false;
        for (size_t i = 0; i < cap; i++)
            if (slots[i] && slots[i] != TOMB)
                set_put(t, nc, slots[i]);
        if (slots != inline_slots)
            toggle__free(slots);
        slots = t;
        cap = nc;
        used = live;
    }
    set_put(slots, cap, p);
    used++;
    return true;
}

/* The slot holding p, or SIZE_MAX if p is not tracked. */
static size_t set_find(const void *p)
{
    for (size_t i = slot_of(p, cap);; i = (i + 1) & (cap - 1)) {
        if (!slots[i])
            return SIZE_MAX;
        if (slots[i] == p)
            return i;
    }
}

static void set_remove(const void *p)
{
    size_t i = set_find(p);
    if (i != SIZE_MAX)
        slots[i] = TOMB;
}

static bool inject(void)
{
    return toggle__failpoint_hit(&fl_fail);
}

static void *track(void *p)
{
    if (!p)
        unwind(TOGGLE_ENOMEM);
    if (!set_insert(p)) {
        free(p);
        unwind(TOGGLE_ENOMEM);
    }
    toggle__alloc_note(p, 1); /* (the test hooks' byte count) */
    return p;
}

static void *guard_malloc(size_t size)
{
    if (!point)
        return malloc(size);
    if (inject())
        unwind(TOGGLE_ENOMEM);
    return track(malloc(size ? size : 1));
}

static void *guard_calloc(size_t count, size_t size)
{
    if (!point)
        return calloc(count, size);
    if (inject())
        unwind(TOGGLE_ENOMEM);
    return track(calloc(count ? count : 1, size ? size : 1));
}

static void *guard_realloc(void *ptr, size_t size)
{
    if (!point)
        return realloc(ptr, size);
    if (inject())
        unwind(TOGGLE_ENOMEM); /* ptr is untouched, still owned as before */
    /* A block FLINT allocated before the recovery point (a thread-local
     * cache) stays with its owner; one allocated inside stays tracked. */
    size_t slot = ptr ? set_find(ptr) : SIZE_MAX;
    if (slot != SIZE_MAX)
        toggle__alloc_note(ptr, -1);
    void *q = realloc(ptr, size ? size : 1);
    if (!q) {
        if (slot != SIZE_MAX)
            toggle__alloc_note(ptr, 1);
        unwind(TOGGLE_ENOMEM);
    }
    if (ptr && slot == SIZE_MAX)
        return q;
    if (slot != SIZE_MAX) {
        if (slots[slot] == q) {
            toggle__alloc_note(q, 1);
            return q; /* grown in place */
        }
        slots[slot] = TOMB;
    }
    return track(q);
}

static void guard_free(void *ptr)
{
    if (ptr && (point || cleaning) && set_find(ptr) != SIZE_MAX) {
        set_remove(ptr);
        toggle__alloc_note(ptr, -1);
    }
    free(ptr);
}

static FLINT_NORETURN void guard_abort(void)
{
    if (point)
        unwind(TOGGLE_EINTERNAL);
    /* A FLINT call the program made itself, outside libtoggle: FLINT's own
     * default behaviour (the guard only changes libtoggle's calls). */
    abort();
}

/* GMP's memory functions (GMP aborts when its allocator returns NULL).
 * Inside a recovery point blocks come from malloc and are tracked like
 * FLINT's, so a failure unwinds; outside one, and for a block allocated
 * outside one, the functions installed before the guard (GMP's defaults or
 * the program's own) do the work: a program's own GMP use is unaffected. */
static void *(*gmp_prev_alloc)(size_t);
static void *(*gmp_prev_realloc)(void *, size_t, size_t);
static void (*gmp_prev_free)(void *, size_t);

static bool tracked(const void *p)
{
    return p && (point || cleaning) && set_find(p) != SIZE_MAX;
}

static void *guard_gmp_alloc(size_t size)
{
    return point ? guard_malloc(size) : gmp_prev_alloc(size);
}

static void *guard_gmp_realloc(void *ptr, size_t old, size_t size)
{
    if (!point)
        return gmp_prev_realloc(ptr, old, size);
    if (ptr && !tracked(ptr)) { /* the program's block, grown inside libtoggle */
        if (inject())
            unwind(TOGGLE_ENOMEM);
        return gmp_prev_realloc(ptr, old, size);
    }
    return guard_realloc(ptr, size);
}

static void guard_gmp_free(void *ptr, size_t size)
{
    if (tracked(ptr))
        guard_free(ptr);
    else
        gmp_prev_free(ptr, size);
}

int toggle_flint_guard_install(void)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&installed, &expected, 1)) {
        __flint_set_memory_functions(guard_malloc, guard_calloc, guard_realloc, guard_free);
        flint_set_abort(guard_abort);
        mp_get_memory_functions(&gmp_prev_alloc, &gmp_prev_realloc, &gmp_prev_free);
        mp_set_memory_functions(guard_gmp_alloc, guard_gmp_realloc, guard_gmp_free);
    }
    return TOGGLE_OK;
}

int toggle_flint_guard_installed(void)
{
    return atomic_load(&installed) ? 1 : 0;
}

int toggle__flint_call(int (*fn)(void *), void *arg, const char *what)
{
    if (!atomic_load_explicit(&installed, memory_order_acquire) || point)
        return fn(arg); /* no guard, or joining the outer recovery point */
    jmp_buf jb;
    set_reset();
    point = &jb;
    if (setjmp(jb) == 0) {
        int rc = fn(arg);
        point = NULL;
        set_reset();
        return rc;
    }
    /* Unwound out of FLINT: release its thread-local caches (which may
     * point into blocks allocated here), then every block still tracked. */
    point = NULL;
    cleaning = true;
    flint_cleanup();
    cleaning = false;
    for (size_t i = 0; i < cap; i++)
        if (slots[i] && slots[i] != TOMB) {
            toggle__alloc_note(slots[i], -1);
            free(slots[i]);
        }
    set_reset();
    if (unwind_status == TOGGLE_ENOMEM)
        return toggle__error(TOGGLE_ENOMEM, "FLINT ran out of memory in %s", what);
    return toggle__error(TOGGLE_EINTERNAL, "FLINT aborted in %s", what);
}
