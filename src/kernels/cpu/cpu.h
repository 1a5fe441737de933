/*
 * cpu.h - the CPU kernels, as the kernel table (kernels.c) sees them.
 * Arguments arrive validated by src/graph/algorithms.c, with the in-edges
 * built when the table says the kernel reads them.
 */
#ifndef LIBGRAPH_CPU_H
#define LIBGRAPH_CPU_H

#include "internal.h"

LG_INTERNAL lg_status_t lg__cpu_bfs(const struct lg_exec *x, const struct lg_graph_view *g,
                                    const lg_vertex_t *sources, int64_t num_sources,
                                    const lg_bfs_options_t *opts, int32_t *dist,
                                    lg_vertex_t *parents);
LG_INTERNAL lg_status_t lg__cpu_pagerank(const struct lg_exec *x, const struct lg_graph_view *g,
                                         const lg_pagerank_options_t *opts,
                                         lg_precision_t precision, void *scores,
                                         lg_pagerank_result_t *result);
LG_INTERNAL lg_status_t lg__cpu_components(const struct lg_exec *x, const struct lg_graph_view *g,
                                           lg_vertex_t *labels, int64_t *num_components);

/* The scalar twins of the three (the same files built with LG_VEC_SCALAR
 * and the vectorisers off: vec.h), which lg__cpu_vector_paths(0) selects. */
LG_INTERNAL lg_status_t lg__cpu_bfs_scalar(const struct lg_exec *x, const struct lg_graph_view *g,
                                           const lg_vertex_t *sources, int64_t num_sources,
                                           const lg_bfs_options_t *opts, int32_t *dist,
                                           lg_vertex_t *parents);
LG_INTERNAL lg_status_t lg__cpu_pagerank_scalar(const struct lg_exec *x,
                                                const struct lg_graph_view *g,
                                                const lg_pagerank_options_t *opts,
                                                lg_precision_t precision, void *scores,
                                                lg_pagerank_result_t *result);
LG_INTERNAL lg_status_t lg__cpu_components_scalar(const struct lg_exec *x,
                                                  const struct lg_graph_view *g,
                                                  lg_vertex_t *labels, int64_t *num_components);

/* Vertices a dynamically scheduled task of a loop over n vertices takes:
 * `most`, or fewer on small graphs so that every thread gets work (at least
 * 16 tasks a thread); always a multiple of 64, so that tasks own whole
 * 64-bit bitmap words and whole cache lines of 8-byte vectors.  A fixed
 * `most` would make a graph of a few thousand vertices one task and leave
 * the other threads idle. */
static inline int64_t lg__task_vertices(int64_t n, int threads, int64_t most)
{
    const int64_t k = n / ((int64_t)threads * 16) / 64 * 64;
    return k < 64 ? 64 : k > most ? most : k;
}

#endif
