/*
 * kernels.h - the kernel tables: the one interface between the dispatch code
 * (src/algorithms/dispatch.c) and the kernels that compute.
 *
 * Two backends hold kernels: the CPU (src/kernels/cpu/kernels.c, a kernel
 * for every algorithm) and the GPU plugin (src/kernels/hip/plugin.hip,
 * loaded at run time), whose table lists the algorithms it implements
 * (plugin.h); the core indexes both by algorithm id (algorithms.h).  Every
 * kernel has one signature: the context's execution state, a view of the
 * graph, and the algorithm's arguments struct, already validated.  An
 * algorithm the plugin does not list has no GPU kernel (the dispatch then
 * runs the CPU's under LG_BACKEND_AUTO, and reports LG_ERR_UNSUPPORTED under
 * LG_BACKEND_GPU).
 *
 * The view carries both edge directions.  A kernel that reads the in-edges
 * says so in its row (reads_in_edges), and the dispatch code builds them
 * (once per graph, cached) before the kernel runs, so no kernel calls back
 * into the graph code.  When a kernel did not ask for them, `in` holds them
 * anyway if the graph already has them, and NULL pointers otherwise.
 *
 * This header is included by C (the core) and by C++ (the .hip sources): it
 * holds plain structs and function pointers only.
 */
#ifndef LIBGRAPH_KERNELS_H
#define LIBGRAPH_KERNELS_H

#include "algorithms.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One direction of a graph's edges in compressed sparse form: the arcs of
 * row v are [offsets[v], offsets[v + 1]), each row sorted. */
struct lg_csr_view {
    const lg_edge_t *offsets;   /* n + 1 */
    const lg_vertex_t *indices; /* m */
    const float *weights;       /* m, or NULL for an unweighted graph */
    const double *weights64;    /* m: a float64 graph's exact weights, else NULL */
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

/* Arc e's weight: a float64 graph's exact one (w64), a float32 one (w), or
 * 1 when neither is read.  Kernels pass the arrays they read, with NULLs as
 * constants where they specialise a loop for each case. */
static inline double lg_arc_weight(const float *w, const double *w64, lg_edge_t e)
{
    return w64 ? w64[e] : w ? (double)w[e] : 1.0;
}

/* The mean of `samples` weights of g's out-arcs at fixed pseudo-random
 * positions (1 for an unweighted graph or one without arcs): SSSP's bucket
 * width rule on both backends reads it. */
static inline double lg_sampled_mean_weight(const struct lg_graph_view *g, const float *weights,
                                            int64_t samples)
{
    if (!weights || g->m == 0)
        return 1.0;
    const int64_t k = g->m < samples ? g->m : samples;
    double sum = 0.0;
    for (int64_t i = 0; i < k; i++) { /* arc splitmix64(i) mod m */
        uint64_t x = (uint64_t)i + 0x9E3779B97F4A7C15ull;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        sum += weights[(int64_t)((x ^ (x >> 31)) % (uint64_t)g->m)];
    }
    return sum / (double)k;
}

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

/* Every kernel's signature: args points to its algorithm's arguments
 * struct (algorithms.h). */
typedef lg_status_t (*lg_kernel_fn)(const struct lg_exec *x, const struct lg_graph_view *g,
                                    const void *args);

/* A backend's kernel for one algorithm. */
struct lg_kernel {
    int algorithm; /* enum lg_algorithm_id */
    lg_kernel_fn run;
    /* It reads g->in whenever the call allows (struct lg_call's
     * may_read_in_edges: BFS only when it may go bottom-up). */
    bool reads_in_edges;
};

#ifdef __cplusplus
}
#endif

#endif /* LIBGRAPH_KERNELS_H */
