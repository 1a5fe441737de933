/*
 * clustering.c - NetworkX's unweighted clustering, average clustering and
 * transitivity of an undirected graph: the descriptor and public entry
 * point (lg_clustering).  The triangles are the kernels'
 * (src/kernels/cpu/triangle_count.h), through triangles.c's checks.
 */
#include "algorithm.h"

enum {
    R_CLUSTERING,
    R_AVERAGE,
    R_TRANSITIVITY
};

static const lg_result_info_t results[] = {
    [R_CLUSTERING] = {.name = "clustering",
                      .type = LG_TYPE_REAL,
                      .per_vertex = true,
                      .help = "each vertex's clustering coefficient, 2 T / (d (d - 1))"},
    [R_AVERAGE] = {.name = "average",
                   .type = LG_TYPE_DOUBLE,
                   .help = "the coefficients' mean over every vertex (average_clustering)"},
    [R_TRANSITIVITY] = {.name = "transitivity",
                        .type = LG_TYPE_DOUBLE,
                        .help = "3 triangles / connected triples"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    (void)p;
    lg_triangles_options_t o;
    lg_triangles_options_init(&o);
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_clustering(ctx, g, &o, r[R_CLUSTERING], r[R_AVERAGE], r[R_TRANSITIVITY]);
}

const struct lg_algorithm lg__algorithm_clustering = {
    .id = LG_ALG_CLUSTERING,
    .info = {.name = "clustering",
             .title = "clustering",
             .function = "lg_clustering",
             .summary = "Clustering coefficients of an undirected graph: each vertex's, their "
                        "average and the transitivity, from its triangles, as NetworkX's "
                        "unweighted clustering, average_clustering and transitivity.",
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

lg_status_t lg_clustering(lg_context_t *context, const lg_graph_t *graph,
                          const lg_triangles_options_t *options, double *coefficients,
                          double *average, double *transitivity)
{
    const char *fn = "lg_clustering";
    if (graph && graph->n > 0 && !coefficients)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: coefficients is NULL", fn);
    const struct lg_triangles_args args = {NULL, NULL, coefficients, average, transitivity};
    return lg__count_triangles(context, graph, &lg__algorithm_clustering, options, &args);
}
