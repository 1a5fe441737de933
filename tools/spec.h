/*
 * spec.h - the generator specs that lgraph and the benchmark programs take
 * for a graph: "kron:SCALE[:EF]" (Graph500 Kronecker) or "urand:SCALE[:EF]"
 * (uniform random), 2^SCALE vertices and EF * 2^SCALE edges, EF 16 unless
 * given.  Header-only, so that bench/ parses them as lgraph does.
 */
#ifndef LIBGRAPH_SPEC_H
#define LIBGRAPH_SPEC_H

#include "libgraph.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define LG_SPEC_EDGE_FACTOR 16
#define LG_SPEC_MAX_SCALE 30
#define LG_SPEC_MAX_EDGE_FACTOR (1 << 20)

/* False when input is not a spec; else true, with *bad set when a number is
 * missing or out of range (SCALE 1..LG_SPEC_MAX_SCALE, EF
 * 1..LG_SPEC_MAX_EDGE_FACTOR). */
static inline bool lg_spec_parse(const char *input, lg_generator_t *gen, int *scale, int *ef,
                                 bool *bad)
{
    const char *rest;
    *bad = false;
    if (!strncmp(input, "kron:", 5)) {
        *gen = LG_GENERATOR_KRONECKER;
        rest = input + 5;
    } else if (!strncmp(input, "urand:", 6)) {
        *gen = LG_GENERATOR_URAND;
        rest = input + 6;
    } else {
        return false;
    }
    char *end;
    long s = strtol(rest, &end, 10), e = LG_SPEC_EDGE_FACTOR;
    if (*end == ':')
        e = strtol(end + 1, &end, 10);
    if (end == rest || *end || s < 1 || s > LG_SPEC_MAX_SCALE || e < 1 ||
        e > LG_SPEC_MAX_EDGE_FACTOR)
        *bad = true;
    *scale = (int)s;
    *ef = (int)e;
    return true;
}

#endif /* LIBGRAPH_SPEC_H */
