/*
 * algorithm.h - what an algorithm's entry point (src/algorithms/<name>.c)
 * hands the dispatch (dispatch.c): its descriptor, and one validated call.
 */
#ifndef LIBGRAPH_ALGORITHM_H
#define LIBGRAPH_ALGORITHM_H

#include "internal.h"

/* lg_algorithm_run's call of one algorithm: its options filled from the
 * parameters (p[k] the k-th of its descriptor's, each of its type: run.c
 * checked), its entry point called with the results' places r[k]. */
typedef lg_status_t (*lg_run_fn)(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p,
                                 void *const *r, const lg_run_options_t *o);

/* An algorithm, written once in its own file (src/algorithms/<name>.c)
 * beside its public entry point: the public descriptor (what it is called,
 * its parameters and results, for the layers above; libgraph.h), its id in
 * the kernel tables, and its generic call.  The dispatch's messages name
 * info.function and info.title. */
struct lg_algorithm {
    enum lg_algorithm_id id; /* algorithms.h */
    lg_algorithm_info_t info;
    lg_run_fn run;
};

/* The descriptor of every algorithm in the list, lg__algorithm_<name>. */
#define LG_ALGORITHM_DECLARE(ID, name, gpu)                                                        \
    LG_INTERNAL extern const struct lg_algorithm lg__algorithm_##name;
LG_ALGORITHMS(LG_ALGORITHM_DECLARE)
#undef LG_ALGORITHM_DECLARE

/* Copies what every options struct holds besides the parameters (its
 * progress callback and output memory) from a generic call's options. */
#define LG_FROM_RUN_OPTIONS(options, ro)                                                           \
    ((options)->progress = (ro)->progress, (options)->progress_data = (ro)->progress_data,         \
     (options)->output_memory = (ro)->output_memory)

/* The number of elements of a descriptor's static array. */
#define LG_COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* One validated call of an algorithm. */
struct lg_call {
    const struct lg_algorithm *algorithm;
    const void *args; /* its arguments struct (algorithms.h), which the kernel gets */
    /* whether a kernel that reads the in-edges may read them in this call
     * (BFS: only when the search may go bottom-up) */
    bool may_read_in_edges;
    lg_progress_fn progress; /* from the call's options */
    void *progress_data;
    lg_memory_t output_memory; /* checked: host or device */
    /* the call's work in passes over the graph, for its thread count (a
     * graph too small to share one pass may share many: betweenness's
     * searches); 0 reads as 1 */
    int64_t passes;
};

/* The call of algorithm `a` on its arguments struct, with the progress
 * callback and output memory of `options` (every algorithm's options struct
 * has the three fields). */
#define LG_CALL(a, arguments, may_read, options)                                                   \
    ((struct lg_call){.algorithm = (a),                                                            \
                      .args = (arguments),                                                         \
                      .may_read_in_edges = (may_read),                                             \
                      .progress = (options)->progress,                                             \
                      .progress_data = (options)->progress_data,                                   \
                      .output_memory = (options)->output_memory})

/* Parameters several descriptors share, spelled once: the graph's weights
 * used or not, NetworkX's scaling of a betweenness or its plain sums, and
 * a power iteration's vector type (lg__precisions: "float64", "float32";
 * results of LG_TYPE_REAL follow it). */
#define LG_PARAM_USE_WEIGHTS                                                                       \
    {                                                                                              \
        .name = "use_weights", .type = LG_TYPE_BOOL, .default_value.i = 1,                         \
        .help = "weigh the edges by the graph's weights (unweighted edges weigh 1)"                \
    }
#define LG_PARAM_RESCALE                                                                           \
    {                                                                                              \
        .name = "rescale", .type = LG_TYPE_BOOL, .default_value.i = 1,                             \
        .help = "scale as NetworkX does (off: the plain sums over the sources)"                    \
    }
#define LG_PARAM_PRECISION(what)                                                                   \
    {                                                                                              \
        .name = "precision", .type = LG_TYPE_PRECISION, .choices = lg__precisions,                 \
        .help = what "' type (float32: half the memory traffic)"                                   \
    }
LG_INTERNAL extern const char *const lg__precisions[];
/* A PRECISION parameter's value as the kernels' type. */
LG_INTERNAL lg_precision_t lg__precision_of(lg_value_t v);

/* Runs a validated call on the kernel that the rule of dispatch.c picks,
 * recording where it ran (lg_last_backend) and why; a call its progress
 * callback stopped gets its message here. */
LG_INTERNAL lg_status_t lg__dispatch(lg_context_t *ctx, const lg_graph_t *graph,
                                     const struct lg_call *c);
/* The entry point of an algorithm whose kernels label every vertex with
 * {labels, num_components} arguments (connected and strongly connected
 * components): its checks, the empty graph answered, the dispatch; messages
 * name a->info.function. */
LG_INTERNAL lg_status_t lg__label_vertices(lg_context_t *ctx, const lg_graph_t *graph,
                                           const struct lg_algorithm *a,
                                           const lg_run_options_t *options, lg_vertex_t *labels,
                                           int64_t *num_components);
/* The entry point of triangles and clustering (whose kernels take struct
 * lg_triangles_args): the checks, the empty graph answered, the dispatch;
 * messages name a->info.function. */
LG_INTERNAL lg_status_t lg__count_triangles(lg_context_t *ctx, const lg_graph_t *graph,
                                            const struct lg_algorithm *a,
                                            const lg_triangles_options_t *options,
                                            const struct lg_triangles_args *args);
/* LG_ERR_INVALID_ARGUMENT unless memory is one of lg_memory_t's values. */
LG_INTERNAL lg_status_t lg__check_output_memory(const char *function, lg_memory_t memory);
/* LG_ERR_INVALID_ARGUMENT naming the first of list[0 .. count) that is not
 * a vertex of graph ("<function>: <what> 7 is not a vertex (num_vertices
 * 5)"), else LG_OK. */
LG_INTERNAL lg_status_t lg__check_vertices(const char *function, const char *what,
                                           const lg_graph_t *graph, const lg_vertex_t *list,
                                           int64_t count);
/* Betweenness's checks and call (betweenness.c), shared with edge
 * betweenness and a subset's (targets: a byte a vertex, for
 * lg__algorithm_betweenness_subset only): the sources, the weights, the
 * output; algorithm's info.function names the entry point in messages. */
LG_INTERNAL lg_status_t lg__brandes_call(lg_context_t *context, const lg_graph_t *graph,
                                         const lg_vertex_t *sources, int64_t num_sources,
                                         const lg_betweenness_options_t *options,
                                         double *centrality, const struct lg_algorithm *algorithm,
                                         const unsigned char *targets);

/* What the power iterations' entry points share (eigenvector, Katz, HITS;
 * defined in eigenvector.c).  Their descriptors end with the results
 * iterations, residual and converged, from index `first`: */
#define LG_ITERATION_RESULTS(first)                                                                \
    [first] = {.name = "iterations", .type = LG_TYPE_INT, .help = "iterations run"},               \
    [first + 1] = {.name = "residual",                                                             \
                   .type = LG_TYPE_DOUBLE,                                                         \
                   .help = "the L1 change of the last iteration"},                                 \
    [first + 2] = {.name = "converged",                                                            \
                   .type = LG_TYPE_BOOL,                                                           \
                   .help = "whether that change was below the limit"}
/* ... which a generic call fills from *res (when st is LG_OK or
 * LG_ERR_NOT_CONVERGED) into r[0..2] (each may be NULL). */
LG_INTERNAL void lg__iteration_results(lg_status_t st, const lg_iteration_result_t *res,
                                       void *const *r);
/* tol finite and >= 0, max_iter >= 0, memory host or device. */
LG_INTERNAL lg_status_t lg__check_iteration(const char *function, double tol, int max_iter,
                                            lg_memory_t memory);
/* Every v[i] (i < n) finite, and >= 0 with a positive sum when
 * non_negative; *sum gets the sum. */
LG_INTERNAL lg_status_t lg__check_vector(const char *function, const char *name, const double *v,
                                         int64_t n, bool non_negative, double *sum);
/* A kernel's status: LG_ERR_NOT_CONVERGED with the message when it ran
 * but did not converge (result's change against `limit`). */
LG_INTERNAL lg_status_t lg__iteration_status(const char *function, lg_status_t st,
                                             const lg_iteration_result_t *result, double limit);

#endif /* LIBGRAPH_ALGORITHM_H */
