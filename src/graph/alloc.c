/*
 * alloc.c - the one allocator of libgraph.
 *
 * Everything the library owns is allocated here, so tests can make the N-th
 * allocation fail (lg__alloc_fail_after) and check that every error path frees
 * what it took and reports LG_ERR_OUT_OF_MEMORY.
 */
#include "internal.h"

#include <stdlib.h>

/* Allocations left before injected failure; negative = never fail. */
static atomic_long fail_countdown = -1;
static atomic_long alloc_count = 0;

static bool injected_failure(void)
{
    atomic_fetch_add_explicit(&alloc_count, 1, memory_order_relaxed);
    long left = atomic_load_explicit(&fail_countdown, memory_order_relaxed);
    if (left < 0)
        return false;
    while (left > 0) {
        if (atomic_compare_exchange_weak(&fail_countdown, &left, left - 1))
            return false;
        if (left < 0)
            return false;
    }
    return true;
}

long lg__alloc_fail_after(long n)
{
    atomic_store(&fail_countdown, n < 0 ? -1 : n);
    return atomic_exchange(&alloc_count, 0);
}

void *lg__malloc(size_t bytes)
{
    if (injected_failure())
        return NULL;
    return malloc(bytes ? bytes : 1);
}

void *lg__calloc(size_t count, size_t size)
{
    if (injected_failure())
        return NULL;
    if (count == 0 || size == 0)
        return calloc(1, 1);
    return calloc(count, size);
}

void lg__free(void *p)
{
    free(p);
}

void *lg__alloc_array(size_t count, size_t size, const char *what)
{
    if (size != 0 && count > SIZE_MAX / size) {
        lg__error(LG_ERR_OUT_OF_MEMORY, "%s: %zu elements of %zu bytes overflow the address space",
                  what, count, size);
        return NULL;
    }
    void *p = lg__malloc(count * size);
    if (!p)
        lg__oom(what);
    return p;
}
