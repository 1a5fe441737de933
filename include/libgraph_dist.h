/*
 * libgraph_dist.h - libgraph across processes: graphs partitioned over the
 * ranks of an MPI communicator, and BFS, PageRank and connected components on
 * them.  Link with -lgraph_dist -lgraph and MPI.
 *
 * Every function here is collective: every rank of the context's
 * communicator calls it, in the same order, with the same options; each rank
 * passes its own share of the inputs and gets its own share of the outputs.
 * A failure on any rank is a failure on all of them: every rank returns the
 * same status, and lg_last_error() on every rank says what went wrong and on
 * which rank, e.g. "rank 2: edge 17: destination 1000 >= num_vertices 1000".
 * No call hangs because one rank had bad input.
 *
 * The partition (docs/DISTRIBUTED.md): vertex ids are 64-bit and global.
 * Rank r owns the vertices [first(r), first(r) + n_local(r)), ranges chosen
 * so that each rank holds about the same number of vertices + arcs, and holds
 * every arc out of (and, for a directed graph, into) its vertices.  The ranks
 * form a grid of P x 1 (1D; a 2D grid is a later setting of the same layout).
 * Inside a rank, vertices have 32-bit local ids.  Results are per owned
 * vertex, in the order of the owned range; lg_dist_gather collects them.
 */
#ifndef LIBGRAPH_DIST_H
#define LIBGRAPH_DIST_H

#include <mpi.h>

#include "libgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lg_dist_context lg_dist_context_t;
typedef struct lg_dist_graph lg_dist_graph_t;

/* ------------------------------------------------------------------------ */
/* Contexts                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct lg_dist_context_options {
    lg_backend_t backend; /* LG_BACKEND_CPU (default; AUTO means CPU too);
                             LG_BACKEND_GPU: one GPU a rank, traffic over NCCL */
    int device_id;        /* GPU ranks: this rank's GPU (may differ between ranks);
                             -1 (default) = the rank's index on its node modulo
                             the node's GPU count */
    int num_threads;      /* each rank's CPU threads; 0 (default) = OpenMP's default */
    int grid_rows;        /* process grid rows x columns; 0 (default) = P x 1;  */
    int grid_cols;        /* only grid_cols 1 (a 1D partition) is supported    */
} lg_dist_context_options_t;

LG_API void lg_dist_context_options_init(lg_dist_context_options_t *options);

/* Opens a context on a duplicate of comm (so libgraph's messages never mix
 * with the caller's).  Collective over comm; MPI must be initialised.
 * options NULL means the defaults.  Options that differ between ranks
 * (device_id and num_threads aside) are an error on every rank.
 *
 * GPU ranks load libgraph_dist's GPU module (libgraph_dist_cuda.so or
 * libgraph_dist_hip.so, beside libgraph_dist or in LIBGRAPH_PLUGIN_PATH) and
 * NCCL (libnccl.so.2; RCCL's librccl.so.1 on AMD; LIBGRAPH_NCCL_LIBRARY
 * names another file), open their GPU, and join one NCCL communicator made
 * from rank 0's id sent over MPI.  Without the module or NCCL:
 * LG_ERR_UNSUPPORTED; without a GPU: LG_ERR_DEVICE.  Graphs built on a GPU
 * context get a device copy, and the algorithms run on the GPUs with every
 * exchange over NCCL (docs/DISTRIBUTED.md). */
LG_API lg_status_t lg_dist_context_create(MPI_Comm comm, const lg_dist_context_options_t *options,
                                          lg_dist_context_t **context);
/* Frees the context (collective: it frees the duplicated communicator) and
 * sets *context to NULL.  NULL or *context NULL: nothing. */
LG_API void lg_dist_context_free(lg_dist_context_t **context);
LG_API int lg_dist_context_rank(const lg_dist_context_t *context);
LG_API int lg_dist_context_size(const lg_dist_context_t *context);
/* "cpu", or this rank's GPU and NCCL, e.g. "GPU 0: NVIDIA H200 (cuda),
 * NCCL 2.28.3". */
LG_API const char *lg_dist_context_device(const lg_dist_context_t *context);
/* The single-process context each rank computes with (for its threads). */
LG_API lg_context_t *lg_dist_context_local(const lg_dist_context_t *context);

/* ------------------------------------------------------------------------ */
/* Graphs                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct lg_dist_graph_options {
    int64_t num_vertices;           /* -1 (default): one more than the largest id on
                                       any rank                                       */
    lg_directedness_t directedness; /* as lg_graph_options_t: default undirected   */
    bool symmetrize;                /* directed: add the reverse of every edge     */
    bool drop_self_loops;           /* default false                               */
    lg_duplicates_t duplicates;     /* default LG_DUPLICATES_KEEP; FIRST and LAST
                                       follow the global edge order: rank 0's edges
                                       in order, then rank 1's, ...                */
} lg_dist_graph_options_t;

LG_API void lg_dist_graph_options_init(lg_dist_graph_options_t *options);

/*
 * Builds a distributed graph from the edges src[i] -> dst[i] (weights[i],
 * or weights NULL on every rank for an unweighted graph), i < num_edges,
 * that this rank holds: any share of the edges, none at all included.  Ids
 * are global, in [0, num_vertices).  The edges are sent to the ranks that
 * own their endpoints; the result is the graph lg_graph_from_edges would
 * build from all the ranks' edges concatenated in rank order.  The input
 * arrays are not kept.
 */
LG_API lg_status_t lg_dist_graph_from_edges(lg_dist_context_t *context, const int64_t *src,
                                            const int64_t *dst, const float *weights,
                                            int64_t num_edges,
                                            const lg_dist_graph_options_t *options,
                                            lg_dist_graph_t **graph);

/* A generated graph (lg_generate's: same seed, same graph, whatever the
 * number of ranks), each rank making its share of the edges in place; options
 * NULL means lg_generate's convention (undirected, self-loops dropped,
 * duplicates merged). */
LG_API lg_status_t lg_dist_generate(lg_dist_context_t *context, lg_generator_t generator, int scale,
                                    int edge_factor, uint64_t seed,
                                    const lg_dist_graph_options_t *options,
                                    lg_dist_graph_t **graph);

/*
 * Reads a graph file (.mtx, .el, .wel, .lgb; format LG_FORMAT_AUTO: by the
 * extension) with every rank reading only its part (lg_read_edges): the
 * graph lg_graph_read builds from the file, distributed.  options as for
 * lg_dist_graph_from_edges, except num_vertices, which must be -1 (what the
 * file declares, else one more than its largest id).  The file must be
 * visible to every rank at the same path (a shared file system).
 */
LG_API lg_status_t lg_dist_graph_read(lg_dist_context_t *context, const char *path,
                                      lg_file_format_t format,
                                      const lg_dist_graph_options_t *options,
                                      lg_dist_graph_t **graph);

LG_API void lg_dist_graph_free(lg_dist_graph_t **graph);

/* The whole graph's vertices and arcs (an undirected edge is two arcs, a
 * self-loop one), the same on every rank. */
LG_API int64_t lg_dist_graph_num_vertices(const lg_dist_graph_t *graph);
LG_API int64_t lg_dist_graph_num_edges(const lg_dist_graph_t *graph);
LG_API bool lg_dist_graph_is_directed(const lg_dist_graph_t *graph);
LG_API bool lg_dist_graph_is_weighted(const lg_dist_graph_t *graph);
/* This rank's vertices: [*first, *first + *count). */
LG_API void lg_dist_graph_local_range(const lg_dist_graph_t *graph, int64_t *first, int64_t *count);
/* This rank's out-arcs, and the other ranks' vertices they reach (ghosts). */
LG_API int64_t lg_dist_graph_local_edges(const lg_dist_graph_t *graph);
LG_API int64_t lg_dist_graph_num_ghosts(const lg_dist_graph_t *graph);

/*
 * Collects every rank's share of a per-vertex result (num_local elements of
 * elem_size bytes: 4 or 8) into all[num_vertices] on rank root, in global id
 * order; all is only read on root (NULL elsewhere).
 */
LG_API lg_status_t lg_dist_gather(lg_dist_context_t *context, const lg_dist_graph_t *graph,
                                  const void *local, size_t elem_size, int root, void *all);

/* ------------------------------------------------------------------------ */
/* Algorithms                                                               */
/* ------------------------------------------------------------------------ */

/* What a call sent: the bytes this rank sent to other ranks (its own share
 * not counted), the rounds (levels, iterations) it ran, and the largest
 * bytes any rank sent.  Any pointer to it may be NULL. */
typedef struct lg_dist_traffic {
    int64_t bytes_sent;     /* this rank                                */
    int64_t max_bytes_sent; /* the most any rank sent                   */
    int64_t total_bytes;    /* all ranks                                */
    int rounds;
} lg_dist_traffic_t;

/*
 * BFS from the global ids sources[num_sources] (the same list on every rank):
 * dist[v] for this rank's vertices (hops; -1: unreached) and, when parents is
 * not NULL, parents[v] (a global id; a source is its own; -1 unreached).
 * Level-synchronous: top-down levels send the newly reached ghost vertices to
 * their owners; bottom-up levels (Beamer et al., SC'12, switched by
 * options->direction_alpha / _beta, whose defaults are lg_bfs's) read a
 * frontier bitmap gathered from every rank.  max_depth as lg_bfs; progress,
 * output_memory not used (NULL / host).
 */
LG_API lg_status_t lg_dist_bfs(lg_dist_context_t *context, const lg_dist_graph_t *graph,
                               const int64_t *sources, int64_t num_sources,
                               const lg_bfs_options_t *options, int32_t *dist, int64_t *parents,
                               lg_dist_traffic_t *traffic);

/*
 * PageRank with lg_pagerank's (NetworkX's) semantics: scores[v] for this
 * rank's vertices.  options->personalization, nstart and dangling, when not
 * NULL, are this rank's entries (lg_dist_graph_local_range), normalised over
 * all ranks.  The dangling mass and the convergence test are sums over all
 * ranks; each iteration sends every rank the contributions of the vertices it
 * reads (8 bytes a ghost).  result as lg_pagerank's, the same on every rank.
 */
LG_API lg_status_t lg_dist_pagerank(lg_dist_context_t *context, const lg_dist_graph_t *graph,
                                    const lg_pagerank_options_t *options, double *scores,
                                    lg_pagerank_result_t *result, lg_dist_traffic_t *traffic);

/*
 * Weakly connected components: labels[v] = the smallest global id of v's
 * component, for this rank's vertices; num_components (may be NULL) the
 * global count.  Label propagation: each rank takes the minimum over its arcs
 * until nothing changes locally, then sends the labels that changed to the
 * ranks that read them, until no label changes anywhere.
 */
LG_API lg_status_t lg_dist_connected_components(lg_dist_context_t *context,
                                                const lg_dist_graph_t *graph, int64_t *labels,
                                                int64_t *num_components,
                                                lg_dist_traffic_t *traffic);

#ifdef __cplusplus
}
#endif

#endif /* LIBGRAPH_DIST_H */
