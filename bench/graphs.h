/*
 * graphs.h - the generated graphs' names the benchmark programs take.
 */
#ifndef LG_BENCH_GRAPHS_H
#define LG_BENCH_GRAPHS_H

#include "spec.h" /* tools/: lgraph's parser */

/* A generator spec (tools/spec.h) that is well formed; false otherwise. */
static inline bool bench_parse_graph(const char *spec, lg_generator_t *gen, int *scale, int *ef)
{
    bool bad;
    return lg_spec_parse(spec, gen, scale, ef, &bad) && !bad;
}

#endif
