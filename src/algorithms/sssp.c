/*
 * sssp.c - single-source shortest paths: its descriptor, options and public
 * entry point (lg_sssp).  The search is the kernels' (src/kernels/cpu/sssp.c,
 * src/kernels/hip/sssp.hip), reached through lg__dispatch; everything a
 * kernel may assume is checked here, once.
 */
#include "algorithm.h"

#include <math.h>

/* The descriptor's parameters and results, in this order. */
enum {
    P_SOURCE,
    P_PREDECESSORS,
    P_USE_WEIGHTS,
    P_CUTOFF,
    P_TARGET,
    P_DELTA,
    P_METHOD
};
enum {
    R_DISTANCES,
    R_PREDECESSORS
};

static const lg_param_info_t params[] = {
    [P_SOURCE] = {.name = "source",
                  .type = LG_TYPE_VERTICES,
                  .required = true,
                  .help = "the vertex the search starts from, or several (all at distance 0)"},
    [P_PREDECESSORS] = {.name = "predecessors",
                        .type = LG_TYPE_BOOL,
                        .help = "also give each reached vertex's predecessor on a shortest path"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
    [P_CUTOFF] = {.name = "cutoff",
                  .type = LG_TYPE_DOUBLE,
                  .default_value.d = INFINITY,
                  .help = "reach only vertices at this distance or nearer (inf: no limit)"},
    [P_TARGET] = {.name = "target",
                  .type = LG_TYPE_INT,
                  .default_value.i = -1,
                  .help = "stop once this vertex's distance is final, reaching none farther "
                          "(-1: none)"},
    [P_DELTA] = {.name = "delta",
                 .type = LG_TYPE_DOUBLE,
                 .default_value.d = 0.0,
                 .help = "delta-stepping's bucket width (0: chosen from the graph)"},
    [P_METHOD] = {.name = "method",
                  .type = LG_TYPE_INT,
                  .default_value.i = LG_SSSP_AUTO,
                  .help = "0: delta-stepping, or Bellman-Ford for negative weights; "
                          "1: delta-stepping; 2: Bellman-Ford"},
};

static const lg_result_info_t results[] = {
    [R_DISTANCES] = {.name = "distances",
                     .type = LG_TYPE_REAL,
                     .per_vertex = true,
                     .help = "the length of a shortest path from the nearest source, inf when "
                             "unreached"},
    [R_PREDECESSORS] = {.name = "predecessors",
                        .type = LG_TYPE_INT32,
                        .per_vertex = true,
                        .when = "predecessors",
                        .help = "each reached vertex's predecessor on a shortest path (a source "
                                "is its own), -1 when unreached"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_sssp_options_t o;
    lg_sssp_options_init(&o);
    o.compute_predecessors = p[P_PREDECESSORS].i != 0;
    o.use_weights = p[P_USE_WEIGHTS].i != 0;
    o.cutoff = p[P_CUTOFF].d;
    o.target = (lg_vertex_t)p[P_TARGET].i;
    o.delta = p[P_DELTA].d;
    o.method = (lg_sssp_method_t)p[P_METHOD].i;
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_sssp(ctx, g, p[P_SOURCE].array, p[P_SOURCE].length, &o, r[R_DISTANCES],
                   o.compute_predecessors ? r[R_PREDECESSORS] : NULL);
}

const struct lg_algorithm lg__algorithm_sssp = {
    .id = LG_ALG_SSSP,
    .info = {.name = "sssp",
             .title = "SSSP",
             .function = "lg_sssp",
             .summary = "Single-source shortest paths: weighted distances along out-edges from "
                        "one vertex or several, and predecessors on request; delta-stepping "
                        "(Meyer and Sanders, J. Algorithms 2003), Bellman-Ford for negative "
                        "weights.",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_sssp_options_init(lg_sssp_options_t *options)
{
    if (!options)
        return;
    options->compute_predecessors = false;
    options->use_weights = true;
    options->cutoff = INFINITY;
    options->target = -1;
    options->delta = 0.0;
    options->method = LG_SSSP_AUTO;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

lg_status_t lg_sssp(lg_context_t *context, const lg_graph_t *graph, const lg_vertex_t *sources,
                    int64_t num_sources, const lg_sssp_options_t *options, double *distances,
                    lg_vertex_t *predecessors)
{
    lg_sssp_options_t defaults;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_sssp: graph is NULL");
    if (!options) {
        lg_sssp_options_init(&defaults);
        options = &defaults;
    }
    if (num_sources < 1 || !sources)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_sssp: %s",
                         sources ? "num_sources < 1" : "sources is NULL");
    lg_status_t st = lg__check_vertices("lg_sssp", "source", graph, sources, num_sources);
    if (st != LG_OK)
        return st;
    if (!(options->cutoff >= 0.0))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_sssp: cutoff %g is not >= 0",
                         options->cutoff);
    if (options->target < -1 || options->target >= graph->n)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_sssp: target %d is not a vertex (num_vertices %lld) or -1",
                         (int)options->target, (long long)graph->n);
    if (!(options->delta >= 0.0) || isinf(options->delta))
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_sssp: delta %g is not finite and >= 0 (0: chosen)", options->delta);
    if ((int)options->method < (int)LG_SSSP_AUTO ||
        (int)options->method > (int)LG_SSSP_BELLMAN_FORD)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_sssp: unknown method %d",
                         (int)options->method);
    if (!distances)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_sssp: distances is NULL");
    if (options->compute_predecessors && !predecessors)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_sssp: compute_predecessors is set but predecessors is NULL");
    st = lg__check_output_memory("lg_sssp", options->output_memory);
    if (st != LG_OK)
        return st;
    const bool use_weights = options->use_weights && graph->out.weights;
    const bool negative = use_weights && graph->negative_weights;
    if (negative && options->method == LG_SSSP_DELTA_STEPPING)
        return lg__refuse_negative_weights(
            "lg_sssp", graph, "delta-stepping needs weights >= 0 (Bellman-Ford takes them)");
    const struct lg_sssp_args args = {
        .sources = sources,
        .num_sources = num_sources,
        .use_weights = use_weights,
        .bellman_ford = options->method == LG_SSSP_BELLMAN_FORD ||
                        (options->method == LG_SSSP_AUTO && negative),
        .cutoff = options->cutoff,
        .target = options->target,
        .delta = options->delta,
        .dist = distances,
        .predecessors = options->compute_predecessors ? predecessors : NULL,
    };
    const struct lg_call c = LG_CALL(&lg__algorithm_sssp, &args, false, options);
    return lg__dispatch(context, graph, &c);
}
