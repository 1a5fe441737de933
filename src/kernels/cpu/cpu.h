/*
 * cpu.h - the CPU kernels, as the backend table sees them.  Arguments arrive
 * validated by src/graph/algorithms.c.
 */
#ifndef LIBGRAPH_CPU_H
#define LIBGRAPH_CPU_H

#include "internal.h"

LG_INTERNAL lg_status_t lg__cpu_bfs(const lg_context_t *ctx, const lg_graph_t *g,
                                    const lg_vertex_t *sources, int64_t num_sources,
                                    const lg_bfs_options_t *opts, int32_t *dist,
                                    lg_vertex_t *parents);
LG_INTERNAL lg_status_t lg__cpu_pagerank(const lg_context_t *ctx, const lg_graph_t *g,
                                         const lg_pagerank_options_t *opts,
                                         lg_precision_t precision, void *scores,
                                         int *iterations);
LG_INTERNAL lg_status_t lg__cpu_components(const lg_context_t *ctx, const lg_graph_t *g,
                                           lg_vertex_t *labels, int64_t *num_components);

#endif
