/*
 * edge_betweenness.c - edge betweenness centrality: its descriptor and
 * public entry point (lg_edge_betweenness).  The checks and the call are
 * betweenness's (lg__brandes_call, betweenness.c); the counting is the
 * kernels' (src/kernels/cpu/edge_betweenness.c).
 */
#include "algorithm.h"

/* The descriptor's parameters and results, in this order. */
enum {
    P_SOURCES,
    P_NORMALIZED,
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
                      .help = "divide by the number of vertex pairs"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
    [P_RESCALE] = LG_PARAM_RESCALE,
};

static const lg_result_info_t results[] = {
    [R_CENTRALITY] = {.name = "centrality",
                      .type = LG_TYPE_REAL,
                      .per_arc = true,
                      .help = "each arc's edge betweenness centrality (an undirected edge's "
                              "two arcs the same)"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_betweenness_options_t o;
    lg_betweenness_options_init(&o);
    o.normalized = p[P_NORMALIZED].i != 0;
    o.use_weights = p[P_USE_WEIGHTS].i != 0;
    o.rescale = p[P_RESCALE].i != 0;
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_edge_betweenness(ctx, g, p[P_SOURCES].array, p[P_SOURCES].length, &o,
                               r[R_CENTRALITY]);
}

const struct lg_algorithm lg__algorithm_edge_betweenness = {
    .id = LG_ALG_EDGE_BETWEENNESS,
    .info = {.name = "edge_betweenness_centrality",
             .title = "edge betweenness",
             .function = "lg_edge_betweenness",
             .summary = "Edge betweenness centrality: the shortest paths between vertices "
                        "that take each edge, exact or from sampled sources, scaled as "
                        "NetworkX scales it; Brandes (Social Networks 2008).",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

lg_status_t lg_edge_betweenness(lg_context_t *context, const lg_graph_t *graph,
                                const lg_vertex_t *sources, int64_t num_sources,
                                const lg_betweenness_options_t *options, double *centrality)
{
    if (options && options->endpoints) {
        lg__set_last_backend(LG_BACKEND_AUTO);
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_edge_betweenness: endpoints is true; an edge's ends are on every "
                         "path it is on (set it false)");
    }
    return lg__brandes_call(context, graph, sources, num_sources, options, centrality,
                            &lg__algorithm_edge_betweenness, NULL);
}
