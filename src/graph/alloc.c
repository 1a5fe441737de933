/*
 * alloc.c - the one allocator of libgraph.
 *
 * Everything the library owns is allocated here, so tests can make the N-th
 * allocation fail (lg__alloc_fail_after) and check that every error path frees
 * what it took and reports LG_ERR_OUT_OF_MEMORY.
 */
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE under -std=c11 */
#include "internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Allocations left before injected failure; negative = never fail. */
static atomic_long fail_countdown = -1;
static atomic_long alloc_count = 0;

/* lg__mem_available_override's setting; negative = ask the system. */
static atomic_llong mem_available_override = -1;

long long lg__mem_available_override(long long bytes)
{
    return atomic_exchange(&mem_available_override, bytes < 0 ? -1 : bytes);
}

/* MemAvailable of /proc/meminfo in bytes, or -1 when it cannot be read. */
static long long mem_available(void)
{
    const long long forced = atomic_load(&mem_available_override);
    if (forced >= 0)
        return forced;
    long long kib = -1;
#ifdef __linux__
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[128];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1)
                break;
        fclose(f);
    }
#endif
    return kib < 0 || kib > LLONG_MAX / 1024 ? -1 : kib * 1024;
}

int64_t lg_memory_available(void)
{
    return (int64_t)mem_available();
}

static atomic_llong peak_estimate = 0;

void lg__note_peak(size_t bytes)
{
    long long now = atomic_load(&peak_estimate);
    const long long b = bytes > (size_t)LLONG_MAX ? LLONG_MAX : (long long)bytes;
    while (b > now && !atomic_compare_exchange_weak(&peak_estimate, &now, b)) {
    }
}

long long lg__peak_estimate(void)
{
    return atomic_exchange(&peak_estimate, 0);
}

bool lg__can_spare(size_t bytes)
{
    const long long avail = mem_available();
    return avail < 0 || bytes <= (unsigned long long)avail / 2;
}

lg_status_t lg__check_available(size_t bytes, const char *what)
{
    const long long avail = mem_available();
    if (avail < 0 || bytes <= (unsigned long long)avail)
        return LG_OK;
    return lg__error(LG_ERR_OUT_OF_MEMORY,
                     "%s needs %.2f GB, more than the %.2f GB this machine has available", what,
                     (double)bytes / 1e9, (double)avail / 1e9);
}

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

/*
 * Large arrays ask for transparent huge pages.  PageRank gathers at random
 * from vectors of megabytes and streams index arrays of hundreds: with 4 KiB
 * pages a vector of 16 MB spans 4,096 pages, more than the TLB holds, and
 * first touch of a fresh array costs a page fault every 4 KiB.  So PageRank
 * on graphs that outgrow the caches, and its hub-order copy, gain from huge
 * pages; BFS and CC neither gain nor lose.  Debian's default THP mode is
 * "madvise", so nothing changes unless asked.  The advice covers the 2 MiB
 * pages wholly inside the block, and a block of LG_HUGE_MIN (two of them)
 * holds at least one whatever its alignment; it is a hint, and its failure
 * (no THP, or another OS) changes nothing.
 */
#define LG_HUGE_PAGE ((uintptr_t)2 << 20)
#define LG_HUGE_MIN ((size_t)4 << 20)

static void ask_huge_pages(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t lo = ((uintptr_t)p + LG_HUGE_PAGE - 1) & ~(LG_HUGE_PAGE - 1);
    const uintptr_t hi = ((uintptr_t)p + bytes) & ~(LG_HUGE_PAGE - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

long lg__alloc_fail_after(long n)
{
    atomic_store(&fail_countdown, n < 0 ? -1 : n);
    return atomic_exchange(&alloc_count, 0);
}

/* The distinct sites seen while recording (lg__alloc_sites): string
 * literals, compared by content (one site may be compiled into several
 * objects). */
#define MAX_SITES 512
static atomic_int recording;
static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *sites[MAX_SITES];
static long site_count;

/* Records a site reached while failure injection is armed: the sweeps arm
 * it for the k-th allocation, k = 0, 1, ... until a run passes, so a site
 * reached armed is a site whose failure was injected. */
static void note_site(const char *site)
{
    if (!atomic_load_explicit(&recording, memory_order_relaxed) ||
        atomic_load_explicit(&fail_countdown, memory_order_relaxed) < 0)
        return;
    pthread_mutex_lock(&sites_lock);
    long i = 0;
    while (i < site_count && strcmp(sites[i], site) != 0)
        i++;
    if (i == site_count && site_count < MAX_SITES)
        sites[site_count++] = site;
    pthread_mutex_unlock(&sites_lock);
}

long lg__alloc_sites(int on, const char *path)
{
    pthread_mutex_lock(&sites_lock);
    const long count = site_count;
    FILE *f = path ? fopen(path, "a") : NULL;
    for (long i = 0; f && i < site_count; i++) {
        /* the path from the repository's root: from the last "/src/" (the
         * checkout itself may sit below a directory called src) */
        const char *src = NULL;
        for (const char *at = strstr(sites[i], "/src/"); at; at = strstr(at + 1, "/src/"))
            src = at + 1;
        fprintf(f, "%s\n", src ? src : sites[i]);
    }
    if (f)
        fclose(f);
    if (on)
        site_count = 0;
    atomic_store(&recording, on);
    pthread_mutex_unlock(&sites_lock);
    return count;
}

void *lg__malloc_at(size_t bytes, const char *site)
{
    note_site(site);
    if (injected_failure())
        return NULL;
    void *p = malloc(bytes ? bytes : 1);
    if (p && bytes >= LG_HUGE_MIN)
        ask_huge_pages(p, bytes);
    return p;
}

void *(lg__malloc)(size_t bytes)
{
    return lg__malloc_at(bytes, "the GPU plugin (host memory)");
}

void *lg__calloc_at(size_t count, size_t size, const char *site)
{
    note_site(site);
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

/* Gives back the tail of a block beyond its first `bytes` (realloc shrinks
 * a large block in place, returning whole pages).  Never fails: a refused
 * shrink keeps the block as it was, and no failure is injected (nothing
 * depends on it). */
void *lg__shrink(void *p, size_t bytes)
{
    if (!p || bytes == 0)
        return p;
    void *q = realloc(p, bytes);
    return q ? q : p;
}

void *lg__alloc_array_at(size_t count, size_t size, const char *what, const char *site)
{
    if (size != 0 && count > SIZE_MAX / size) {
        lg__error(LG_ERR_OUT_OF_MEMORY, "%s: %zu elements of %zu bytes overflow the address space",
                  what, count, size);
        return NULL;
    }
    void *p = lg__malloc_at(count * size, site);
    if (!p)
        lg__oom(what);
    return p;
}
