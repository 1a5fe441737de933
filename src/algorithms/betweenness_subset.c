/*
 * betweenness_subset.c - betweenness centrality of a subset (NetworkX's
 * betweenness_centrality_subset): its descriptor and public entry point
 * (lg_betweenness_subset).  The checks and the call are betweenness's
 * (lg__brandes_call, betweenness.c) with the targets as a byte a vertex;
 * the counting is the kernels' (src/kernels/cpu/betweenness_subset.c).
 */
#include "algorithm.h"

#include <string.h>

/* The descriptor's parameters and results, in this order. */
enum {
    P_SOURCES,
    P_TARGETS,
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
                   .help = "the paths' first vertices, distinct (none given: every vertex)"},
    [P_TARGETS] = {.name = "targets",
                   .type = LG_TYPE_VERTICES,
                   .help = "the paths' last vertices (none given: every vertex)"},
    [P_NORMALIZED] = {.name = "normalized",
                      .type = LG_TYPE_BOOL,
                      .default_value.i = 1, /* as lg_betweenness_options_init's */
                      .help = "divide by (n - 1)(n - 2), as NetworkX's subset betweenness does "
                              "(off: an undirected graph's sums halved)"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
    [P_RESCALE] = LG_PARAM_RESCALE,
};

static const lg_result_info_t results[] = {
    [R_CENTRALITY] = {.name = "centrality",
                      .type = LG_TYPE_REAL,
                      .per_vertex = true,
                      .help = "each vertex's share of the shortest paths from the sources to "
                              "the targets"},
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
    return lg_betweenness_subset(ctx, g, p[P_SOURCES].array, p[P_SOURCES].length,
                                 p[P_TARGETS].length ? p[P_TARGETS].array : NULL,
                                 p[P_TARGETS].length, &o, r[R_CENTRALITY]);
}

const struct lg_algorithm lg__algorithm_betweenness_subset = {
    .id = LG_ALG_BETWEENNESS_SUBSET,
    .info = {.name = "betweenness_centrality_subset",
             .title = "subset betweenness",
             .function = "lg_betweenness_subset",
             .summary = "Betweenness centrality of a subset: the shortest paths from given "
                        "sources to given targets that pass through each vertex, scaled as "
                        "NetworkX's betweenness_centrality_subset; Brandes (Social Networks "
                        "2008).",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

lg_status_t lg_betweenness_subset(lg_context_t *context, const lg_graph_t *graph,
                                  const lg_vertex_t *sources, int64_t num_sources,
                                  const lg_vertex_t *targets, int64_t num_targets,
                                  const lg_betweenness_options_t *options, double *centrality)
{
    static const char fn[] = "lg_betweenness_subset";
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (options && options->endpoints)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: endpoints is true; a subset's paths end at its targets (set it "
                         "false)",
                         fn);
    if (num_targets < 0 || (num_targets > 0 && !targets))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s", fn,
                         num_targets < 0 ? "num_targets < 0" : "targets is NULL");
    lg_status_t st = lg__check_vertices(fn, "target", graph, targets, num_targets);
    if (st != LG_OK)
        return st;
    const size_t n = (size_t)graph->n;
    unsigned char *mark = lg__alloc_array(n ? n : 1, 1, fn);
    if (!mark)
        return LG_ERR_OUT_OF_MEMORY;
    memset(mark, targets ? 0 : 1, n);
    for (int64_t i = 0; i < num_targets; i++)
        mark[targets[i]] = 1;
    st = lg__brandes_call(context, graph, sources, num_sources, options, centrality,
                          &lg__algorithm_betweenness_subset, mark);
    lg__free(mark);
    return st;
}
