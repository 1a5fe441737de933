/*
 * algorithms.h - the list of algorithms, and what each one's kernels are
 * handed.
 *
 * This is the one shared file a new algorithm adds to: a line in
 * LG_ALGORITHMS and its arguments struct.  Everything else about an
 * algorithm lives in its own files (docs/ADDING_AN_ALGORITHM.md):
 *   src/algorithms/<name>.c       its descriptor (lg__algorithm_<name>) and
 *                                 public entry point
 *   src/kernels/cpu/<name>.c      its CPU kernel and row
 *   src/kernels/hip/<name>.hip    its GPU kernel and row
 * and the tables that index kernels by id (src/kernels/cpu/kernels.c,
 * src/kernels/hip/plugin.hip), the table of descriptors
 * (src/algorithms/run.c) and the build's list of those files
 * (cmake/sources.cmake, which reads the X(...) lines below) are made from
 * the list.
 *
 * An algorithm's id is its position in the list, so the list only grows at
 * its end and never drops a line (a retired algorithm keeps its place):
 * the GPU plugin names the algorithms it implements by id (plugin.h).  Its
 * arguments struct is part of the plugin ABI: changing one's layout is a
 * change of LG_PLUGIN_ABI_VERSION; adding an algorithm is not.
 *
 * Included by C (the core) and C++ (the .hip sources): plain structs only.
 */
#ifndef LIBGRAPH_ALGORITHMS_H
#define LIBGRAPH_ALGORITHMS_H

#include "libgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * X(ID, name, gpu): every algorithm, in id order.
 *   ID, name  LG_ALG_<ID>; lg__cpu_<name> (the CPU kernel, which every
 *             algorithm has) and lg__gpu_<name>_row (its GPU kernel's row)
 *   gpu       GPU when src/kernels/hip/<name>.hip has a kernel, else CPU
 */
#define LG_ALGORITHMS(X)                                                                           \
    X(BFS, bfs, GPU)                                                                               \
    X(PAGERANK, pagerank, GPU)                                                                     \
    X(COMPONENTS, components, GPU)                                                                 \
    X(SSSP, sssp, GPU)                                                                             \
    X(SCC, scc, GPU)                                                                               \
    X(BETWEENNESS, betweenness, GPU)                                                               \
    X(CLOSENESS, closeness, GPU)                                                                   \
    X(EIGENVECTOR, eigenvector, GPU)                                                               \
    X(KATZ, katz, GPU)                                                                             \
    X(HITS, hits, GPU)                                                                             \
    X(EDGE_BETWEENNESS, edge_betweenness, GPU)                                                     \
    X(BETWEENNESS_SUBSET, betweenness_subset, GPU)                                                 \
    X(TRIANGLES, triangles, GPU)                                                                   \
    X(CLUSTERING, clustering, GPU)

enum lg_algorithm_id {
#define LG_ALGORITHM_ID(ID, name, gpu) LG_ALG_##ID,
    LG_ALGORITHMS(LG_ALGORITHM_ID)
#undef LG_ALGORITHM_ID
    LG_ALG_COUNT
};

/* The vectors' type of PageRank and the other power iterations. */
typedef enum lg_precision {
    LG_PRECISION_F64 = 0,
    LG_PRECISION_F32 = 1
} lg_precision_t;

/* BFS: dist[v] = hops from the nearest source (-1: unreached); parents,
 * when not NULL, a BFS parent of each reached vertex (a source is its own). */
struct lg_bfs_args {
    const lg_vertex_t *sources;
    int64_t num_sources;
    const lg_bfs_options_t *opts;
    int32_t *dist;
    lg_vertex_t *parents;
};

/* PageRank: NetworkX's PageRank into scores (double or float by
 * precision), what it did into *result (not NULL); n > 0. */
struct lg_pagerank_args {
    const lg_pagerank_options_t *opts;
    lg_precision_t precision;
    void *scores;
    lg_pagerank_result_t *result;
};

/* Connected components, and strongly connected components (whose kernels
 * take the same struct): labels[v] = the smallest vertex id of v's
 * component, *num_components their count (when not NULL); n > 0. */
struct lg_components_args {
    lg_vertex_t *labels;
    int64_t *num_components;
};

/* SSSP: dist[v] = the shortest distance from the nearest source (INFINITY:
 * unreached), with lg_sssp's cutoff and target; the graph's weights unless
 * use_weights is false (or the graph has none: then every edge weighs 1);
 * delta > 0, or 0: the kernel chooses; predecessors, when not NULL, as
 * lg_sssp says.  Delta-stepping sees no negative weight; Bellman-Ford
 * returns LG_ERR_UNBOUNDED for a negative cycle reached. */
struct lg_sssp_args {
    const lg_vertex_t *sources;
    int64_t num_sources;
    bool use_weights;
    double cutoff;
    lg_vertex_t target;
    double delta;
    bool bellman_ford; /* Bellman-Ford (negative weights), else delta-stepping */
    double *dist;
    lg_vertex_t *predecessors;
};

/* Betweenness: centrality[v] as lg_betweenness defines it, from
 * num_sources distinct sources, or from every vertex (sources NULL); the
 * graph's weights (>= 0) when use_weights; n > 0. */
struct lg_betweenness_args {
    const lg_vertex_t *sources;
    int64_t num_sources;
    bool use_weights;
    bool normalized;
    bool endpoints;
    bool rescale; /* false: the plain sums */
    double *centrality;
};
/* Edge betweenness takes the same arguments: centrality one an arc (m of
 * them, in the view's out-arcs' order), endpoints false. */

/* Betweenness of a subset (lg_betweenness_subset): only the paths from
 * base.sources to the vertices that targets marks (a byte a vertex, 1: a
 * target; NULL: every vertex) count; base.endpoints false; scaled by the
 * subset's rule (betweenness_scale.h). */
struct lg_betweenness_subset_args {
    struct lg_betweenness_args base;
    const unsigned char *targets;
};

/* Closeness: centrality[v] as lg_closeness defines it (harmonic or not),
 * over the in-arcs (a directed graph's in-edges are in the view); the
 * graph's weights (>= 0) when use_weights; n > 0. */
struct lg_closeness_args {
    bool harmonic;
    bool wf_improved;
    bool use_weights;
    double *centrality;
};

/* Eigenvector and Katz centrality (whose kernels take the same struct):
 * from x = x0 / x0_divisor (x0 NULL: every entry x0_fill), each iteration
 *   x' = scale * A^T x + keep * x + b     (b: b[v], or b0 when b is NULL)
 * divided by its L2 norm when unit_each (eigenvector), until sum |x' - x| <
 * limit or max_iter iterations; unit_at_end: the converged x divided by
 * its L2 norm (when > 0).  x (double or float by precision) gets the last
 * iterate, *result what ran; n > 0. */
struct lg_power_args {
    const double *x0;
    double x0_divisor, x0_fill;
    double scale, keep;
    const double *b;
    double b0;
    bool unit_each, unit_at_end;
    bool use_weights;
    double limit;
    int max_iter;
    lg_stage_t stage;
    lg_precision_t precision;
    void *x;
    lg_pagerank_result_t *result;
};

/* HITS: lg_hits's iteration from the hubs h0 (NULL: uniform), hubs and
 * authorities double or float by precision; n > 0. */
struct lg_hits_args {
    const double *h0;
    double tol;
    int max_iter;
    bool normalized;
    bool use_weights;
    lg_precision_t precision;
    void *hubs, *authorities;
    lg_pagerank_result_t *result;
};

/* Triangles and clustering (whose kernels take the same struct) of an
 * undirected graph: per_vertex[v] the triangles through v and *total
 * theirs (either NULL: not asked); clustering[v] NetworkX's unweighted
 * coefficients, *average their mean and *transitivity the graph's (clustering
 * NULL: none of the three). */
struct lg_triangles_args {
    int64_t *per_vertex;
    int64_t *total;
    double *clustering;
    double *average, *transitivity;
};

#ifdef __cplusplus
}
#endif

#endif /* LIBGRAPH_ALGORITHMS_H */
