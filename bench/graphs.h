/*
 * graphs.h - the generated graphs' names the benchmark programs take.
 */
#ifndef LG_BENCH_GRAPHS_H
#define LG_BENCH_GRAPHS_H

#include "libgraph.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* "kron:SCALE[:EF]" (Graph500 Kronecker) or "urand:SCALE[:EF]" (uniform
 * random), edge factor EF 16 unless given; false when spec is neither. */
static inline bool bench_parse_graph(const char *spec, lg_generator_t *gen, int *scale, int *ef)
{
    const char *rest;
    if (!strncmp(spec, "kron:", 5)) {
        *gen = LG_GENERATOR_KRONECKER;
        rest = spec + 5;
    } else if (!strncmp(spec, "urand:", 6)) {
        *gen = LG_GENERATOR_URAND;
        rest = spec + 6;
    } else {
        return false;
    }
    char *end;
    *scale = (int)strtol(rest, &end, 10);
    *ef = 16;
    if (*end == ':')
        *ef = (int)strtol(end + 1, &end, 10);
    return *end == '\0' && *scale >= 1 && *scale <= 30 && *ef >= 1;
}

#endif
