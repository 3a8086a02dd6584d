/* The library's one allocator, with thread-local failure injection for tests. */
#include <stdlib.h>

#include "core.h"

static _Thread_local toggle__failpoint library;

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
    return malloc(size ? size : 1);
}

void *toggle__calloc(size_t count, size_t size)
{
    if (should_fail())
        return NULL;
    if (count == 0 || size == 0)
        return calloc(1, 1);
    return calloc(count, size);
}

void *toggle__realloc(void *ptr, size_t size)
{
    if (should_fail())
        return NULL;
    return realloc(ptr, size ? size : 1);
}

void toggle__free(void *ptr)
{
    free(ptr);
}

void toggle__free_each(size_t count, void *const *ptrs)
{
    for (size_t i = 0; i < count; i++)
        free(ptrs[i]);
}

void *toggle__malloc_array(size_t count, size_t size)
{
    size_t bytes;
    if (!toggle__mul_ok(count, size, &bytes))
        return NULL;
    return toggle__malloc(bytes);
}
