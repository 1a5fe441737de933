/*
 * betweenness.c - betweenness centrality: its descriptor, options and
 * public entry point (lg_betweenness).  The counting is the kernels'
 * (src/kernels/cpu/betweenness.c), reached through lg__dispatch;
 * everything a kernel may assume is checked here, once.
 */
#include "algorithm.h"

#include <string.h>

/* The descriptor's parameters and results, in this order. */
enum {
    P_SOURCES,
    P_NORMALIZED,
    P_ENDPOINTS,
    P_USE_WEIGHTS,
    P_RESCALE
};
enum {
    R_CENTRALITY
};

static const lg_param_info_t params[] = {
    [P_SOURCES] = {.name = "sources",
                   .type = LG_TYPE_VERTICES,
                   .help = "the sources of the paths counted, distinct (none given: every "
                           "vertex, the exact centrality)"},
    [P_NORMALIZED] = {.name = "normalized",
                      .type = LG_TYPE_BOOL,
                      .default_value.i = 1,
                      .help = "divide by the number of vertex pairs that could pass through a "
                              "vertex"},
    [P_ENDPOINTS] = {.name = "endpoints",
                     .type = LG_TYPE_BOOL,
                     .help = "count a path's two ends as on it"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
    [P_RESCALE] = LG_PARAM_RESCALE,
};

static const lg_result_info_t results[] = {
    [R_CENTRALITY] = {.name = "centrality",
                      .type = LG_TYPE_REAL,
                      .per_vertex = true,
                      .help = "each vertex's betweenness centrality"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_betweenness_options_t o;
    lg_betweenness_options_init(&o);
    o.normalized = p[P_NORMALIZED].i != 0;
    o.endpoints = p[P_ENDPOINTS].i != 0;
    o.use_weights = p[P_USE_WEIGHTS].i != 0;
    o.rescale = p[P_RESCALE].i != 0;
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_betweenness(ctx, g, p[P_SOURCES].array, p[P_SOURCES].length, &o, r[R_CENTRALITY]);
}

const struct lg_algorithm lg__algorithm_betweenness = {
    .id = LG_ALG_BETWEENNESS,
    .info = {.name = "betweenness_centrality",
             .title = "betweenness",
             .function = "lg_betweenness",
             .summary = "Betweenness centrality: the shortest paths between other vertices "
                        "that pass through each vertex, exact or from sampled sources, "
                        "scaled as NetworkX scales it; Brandes (J. Math. Sociol. 2001).",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_betweenness_options_init(lg_betweenness_options_t *options)
{
    if (!options)
        return;
    options->normalized = true;
    options->endpoints = false;
    options->use_weights = true;
    options->rescale = true;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

/* LG_OK when the sources are vertices and distinct, else the message. */
static lg_status_t check_sources(const char *function, const lg_graph_t *graph,
                                 const lg_vertex_t *sources, int64_t num_sources)
{
    lg_status_t st = lg__check_vertices(function, "source", graph, sources, num_sources);
    if (st != LG_OK || num_sources < 2)
        return st;
    uint64_t *seen = lg__alloc_array((size_t)(graph->n + 63) / 64, sizeof *seen, function);
    if (!seen)
        return LG_ERR_OUT_OF_MEMORY;
    memset(seen, 0, (size_t)(graph->n + 63) / 64 * sizeof *seen);
    for (int64_t i = 0; i < num_sources && st == LG_OK; i++) {
        const lg_vertex_t v = sources[i];
        if (seen[v / 64] >> (v % 64) & 1)
            st = lg__error(LG_ERR_INVALID_ARGUMENT,
                           "%s: source %d is given twice (the sources are a sample of distinct "
                           "vertices)",
                           function, (int)v);
        seen[v / 64] |= (uint64_t)1 << (v % 64);
    }
    lg__free(seen);
    return st;
}

lg_status_t lg__brandes_call(lg_context_t *context, const lg_graph_t *graph,
                             const lg_vertex_t *sources, int64_t num_sources,
                             const lg_betweenness_options_t *options, double *centrality,
                             const struct lg_algorithm *algorithm, const unsigned char *targets)
{
    const char *function = algorithm->info.function;
    lg_betweenness_options_t defaults;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", function);
    if (!options) {
        lg_betweenness_options_init(&defaults);
        options = &defaults;
    }
    if (num_sources < 0 || (num_sources > 0 && !sources))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s", function,
                         num_sources < 0 ? "num_sources < 0" : "sources is NULL");
    if (!centrality)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: centrality is NULL", function);
    lg_status_t st = lg__check_output_memory(function, options->output_memory);
    if (st != LG_OK)
        return st;
    if ((st = check_sources(function, graph, sources, num_sources)) != LG_OK)
        return st;
    const bool use_weights = options->use_weights && graph->out.weights;
    /* weights > 0: on a zero-weight cycle the shortest paths are infinitely
     * many, and which zero-weight arcs are on one would otherwise depend on
     * the search's order */
    if (use_weights &&
        (st = lg__refuse_weights_below(function, graph, true,
                                       "weighted betweenness needs weights > 0 (use_weights "
                                       "false counts edges)")) != LG_OK)
        return st;
    if (graph->n == 0)
        return LG_OK;
    const struct lg_betweenness_args args = {
        .sources = num_sources > 0 ? sources : NULL,
        .num_sources = num_sources > 0 ? num_sources : graph->n,
        .use_weights = use_weights,
        .normalized = options->normalized,
        .endpoints = options->endpoints,
        .rescale = options->rescale,
        .centrality = centrality,
    };
    const struct lg_betweenness_subset_args subset = {args, targets};
    struct lg_call c = LG_CALL(algorithm, targets ? (const void *)&subset : &args, false, options);
    c.passes = args.num_sources < 64 ? args.num_sources : 64; /* two passes a source */
    return lg__dispatch(context, graph, &c);
}

lg_status_t lg_betweenness(lg_context_t *context, const lg_graph_t *graph,
                           const lg_vertex_t *sources, int64_t num_sources,
                           const lg_betweenness_options_t *options, double *centrality)
{
    return lg__brandes_call(context, graph, sources, num_sources, options, centrality,
                            &lg__algorithm_betweenness, NULL);
}
