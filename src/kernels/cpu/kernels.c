/*
 * kernels.c - the CPU's kernel table (src/graph/kernels.h): the OpenMP
 * kernels of this folder.  BFS reads the in-edges when it goes bottom-up on
 * a directed graph, and pull PageRank always does; CC reads them when the
 * graph already has them (components.c says why).
 */
#include "cpu.h"

/* Whether the kernels' vector paths run (1, the default) or their scalar
 * twins (0: tests and bench/isa_count.c; vec.h). */
static atomic_int vector_paths = 1;

int lg__cpu_vector_paths(int on)
{
    return on < 0 ? atomic_load(&vector_paths) : atomic_exchange(&vector_paths, on != 0);
}

static bool vectors(void)
{
    return atomic_load_explicit(&vector_paths, memory_order_relaxed);
}

static lg_status_t bfs(const struct lg_exec *x, const struct lg_graph_view *g,
                       const lg_vertex_t *sources, int64_t num_sources,
                       const lg_bfs_options_t *opts, int32_t *dist, lg_vertex_t *parents)
{
    return (vectors() ? lg__cpu_bfs : lg__cpu_bfs_scalar)(x, g, sources, num_sources, opts, dist,
                                                          parents);
}

static lg_status_t pagerank(const struct lg_exec *x, const struct lg_graph_view *g,
                            const lg_pagerank_options_t *opts, lg_precision_t precision,
                            void *scores, lg_pagerank_result_t *result)
{
    return (vectors() ? lg__cpu_pagerank : lg__cpu_pagerank_scalar)(x, g, opts, precision, scores,
                                                                    result);
}

static lg_status_t components(const struct lg_exec *x, const struct lg_graph_view *g,
                              lg_vertex_t *labels, int64_t *num_components)
{
    return (vectors() ? lg__cpu_components : lg__cpu_components_scalar)(x, g, labels,
                                                                        num_components);
}

const struct lg_kernels lg__cpu_kernels = {
    .bfs = bfs,
    .pagerank = pagerank,
    .components = components,
    .in_edges = LG_ALGORITHM_BFS | LG_ALGORITHM_PAGERANK,
};
