/*
 * alloc_sites.h - which of the library's allocation sites a test program's
 * failure-injection sweeps reached (internal.h's lg__alloc_sites: sites
 * reached while a failure was armed, so each one failed in turn).  At the
 * end the count is printed and the sites are appended to the file named by
 * LG_ALLOC_SITES_FILE, where tests/alloc_sites.sh takes the union over the
 * programs and compares it with the call sites in src/.
 */
#ifndef LIBGRAPH_TEST_ALLOC_SITES_H
#define LIBGRAPH_TEST_ALLOC_SITES_H

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

static inline void alloc_sites_begin(void)
{
    lg__alloc_sites(1, NULL);
}

static inline void alloc_sites_end(const char *program)
{
    const long n = lg__alloc_sites(0, getenv("LG_ALLOC_SITES_FILE"));
    printf("%s: failure injected at %ld distinct allocation sites\n", program, n);
}

#endif
