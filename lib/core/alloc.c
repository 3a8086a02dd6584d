/* The library's one allocator, with thread-local failure injection for tests. */
#include <stdlib.h>

#include "core.h"

static _Thread_local uint64_t calls;
static _Thread_local uint64_t fail_at;   /* 0: never */
static _Thread_local bool fail_sticky;

void toggle__alloc_fail_at(uint64_t nth, bool sticky)
{
    calls = 0;
    fail_at = nth;
    fail_sticky = sticky;
}

uint64_t toggle__alloc_calls(void)
{
    return calls;
}

static bool should_fail(void)
{
    calls++;
    if (fail_at == 0)
        return false;
    if (calls == fail_at)
        return true;
    return fail_sticky && calls > fail_at;
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

void *toggle__malloc_array(size_t count, size_t size)
{
    size_t bytes;
    if (!toggle__mul_ok(count, size, &bytes))
        return NULL;
    return toggle__malloc(bytes);
}
