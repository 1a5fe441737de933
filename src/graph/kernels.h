/*
 * kernels.h - the kernel table: the one interface between the dispatch code
 * (src/graph/algorithms.c) and the kernels that compute.
 *
 * Two backends fill a struct lg_kernels: the CPU (src/kernels/cpu/kernels.c,
 * always there) and the GPU plugin (src/kernels/hip/plugin.hip, loaded at run
 * time, its table inside struct lg_plugin of plugin.h).  Every algorithm has
 * one signature, the same for both: the context's execution state, a view of
 * the graph, then the algorithm's own arguments, already validated.  An entry
 * left NULL is the only way a backend says it has no kernel for an algorithm
 * (algorithms.c then runs the CPU's under LG_BACKEND_AUTO, and reports
 * LG_ERR_UNSUPPORTED under LG_BACKEND_GPU).
 *
 * The view carries both edge directions.  A kernel that reads the in-edges
 * says so in the table's in_edges mask, and the dispatch code builds them
 * (once per graph, cached) before the kernel runs, so no kernel calls back
 * into the graph code.  When a kernel did not ask for them, `in` holds them
 * anyway if the graph already has them, and NULL pointers otherwise.
 *
 * This header is included by C (the core) and by C++ (the .hip sources): it
 * holds plain structs and function pointers only.
 */
#ifndef LIBGRAPH_KERNELS_H
#define LIBGRAPH_KERNELS_H

#include "libgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PageRank's score type. */
typedef enum lg_precision {
    LG_PRECISION_F64 = 0,
    LG_PRECISION_F32 = 1
} lg_precision_t;

/* One direction of a graph's edges in compressed sparse form: the arcs of
 * row v are [offsets[v], offsets[v + 1]), each row sorted. */
struct lg_csr_view {
    const lg_edge_t *offsets;   /* n + 1 */
    const lg_vertex_t *indices; /* m */
    const float *weights;       /* m, or NULL for an unweighted graph */
};

/* A graph as a kernel sees it. */
struct lg_graph_view {
    int64_t n, m;
    int directed;
    struct lg_csr_view out; /* out-edges: rows are sources */
    struct lg_csr_view in;  /* in-edges: rows are destinations; an undirected
                             * graph's are its out-edges (see the top) */
    /* The GPU plugin's copy of this graph, NULL until made: the slot a
     * plugin fills (plugin.h says under which lock); the CPU ignores it. */
    void **device_cache;
};

/* A call's progress callback (NULL: none) and its data, from its options. */
struct lg_progress {
    lg_progress_fn fn;
    void *data;
    int rounds; /* a build's: each phase in `rounds` times its parts (internal.h); 0 reads as 1 */
};

/* Reports a finished step to a call's progress callback, from the calling
 * thread, outside parallel regions; false when the callback asked to stop:
 * the caller then frees what it holds and returns LG_ERR_CANCELLED (the
 * public function writes the message). */
static inline bool lg_progress_go_on(struct lg_progress p, lg_stage_t stage, int64_t done,
                                     int64_t total, double residual)
{
    if (!p.fn)
        return true;
    lg_progress_info_t info;
    info.stage = stage;
    info.done = done;
    info.total = total;
    info.residual = residual;
    return p.fn(&info, p.data);
}

/* Where a kernel runs: the backend's state for the context (the plugin's
 * device, stream and scratch; NULL for the CPU), the host threads the
 * context allows (>= 1), the call's progress callback, and whether its
 * outputs are in device memory (then only a GPU kernel gets the call). */
struct lg_exec {
    void *state;
    int num_threads;
    struct lg_progress progress;
    bool device_outputs; /* the output arrays are device memory (GPU kernels only) */
};

/* lg_progress_go_on of a kernel's call. */
static inline bool lg_exec_go_on(const struct lg_exec *x, lg_stage_t stage, int64_t done,
                                 int64_t total, double residual)
{
    return lg_progress_go_on(x->progress, stage, done, total, residual);
}

/* Bits of lg_kernels.in_edges, one an algorithm. */
enum lg_algorithm {
    LG_ALGORITHM_BFS = 1u << 0,
    LG_ALGORITHM_PAGERANK = 1u << 1,
    LG_ALGORITHM_COMPONENTS = 1u << 2
};

struct lg_kernels {
    /* dist[v] = hops from the nearest source (-1: unreached); parents, when
     * not NULL, a BFS parent of each reached vertex (a source is its own). */
    lg_status_t (*bfs)(const struct lg_exec *x, const struct lg_graph_view *g,
                       const lg_vertex_t *sources, int64_t num_sources,
                       const lg_bfs_options_t *opts, int32_t *dist, lg_vertex_t *parents);
    /* NetworkX's PageRank into scores (double or float by precision), what
     * it did into *result (not NULL); n > 0. */
    lg_status_t (*pagerank)(const struct lg_exec *x, const struct lg_graph_view *g,
                            const lg_pagerank_options_t *opts, lg_precision_t precision,
                            void *scores, lg_pagerank_result_t *result);
    /* labels[v] = the smallest vertex id of v's (weak) component; n > 0. */
    lg_status_t (*components)(const struct lg_exec *x, const struct lg_graph_view *g,
                              lg_vertex_t *labels, int64_t *num_components);
    /* The algorithms whose kernels read g->in (lg_algorithm bits).  BFS's
     * bit means: when the search may go bottom-up (direction_alpha > 0). */
    unsigned in_edges;
};

#ifdef __cplusplus
}
#endif

#endif /* LIBGRAPH_KERNELS_H */
