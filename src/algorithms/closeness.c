/*
 * closeness.c - closeness and harmonic centrality: the descriptor, options
 * and public entry point (lg_closeness).  The searches are the kernel's
 * (src/kernels/cpu/closeness.c), reached through lg__dispatch; everything a
 * kernel may assume is checked here, once.
 */
#include "algorithm.h"

/* The descriptor's parameters and results, in this order. */
enum {
    P_HARMONIC,
    P_WF_IMPROVED,
    P_USE_WEIGHTS
};
enum {
    R_CENTRALITY
};

static const lg_param_info_t params[] = {
    [P_HARMONIC] = {.name = "harmonic",
                    .type = LG_TYPE_BOOL,
                    .help = "the harmonic centrality: the sum of 1 / d(v, u)"},
    [P_WF_IMPROVED] = {.name = "wf_improved",
                       .type = LG_TYPE_BOOL,
                       .default_value.i = 1,
                       .help = "scale closeness by the share of the vertices that reach a "
                               "vertex (Wasserman and Faust)"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
};

static const lg_result_info_t results[] = {
    [R_CENTRALITY] = {.name = "centrality",
                      .type = LG_TYPE_REAL,
                      .per_vertex = true,
                      .help = "each vertex's closeness (or harmonic) centrality"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_closeness_options_t o;
    lg_closeness_options_init(&o);
    o.harmonic = p[P_HARMONIC].i != 0;
    o.wf_improved = p[P_WF_IMPROVED].i != 0;
    o.use_weights = p[P_USE_WEIGHTS].i != 0;
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_closeness(ctx, g, &o, r[R_CENTRALITY]);
}

const struct lg_algorithm lg__algorithm_closeness = {
    .id = LG_ALG_CLOSENESS,
    .info = {.name = "closeness_centrality",
             .title = "closeness",
             .function = "lg_closeness",
             .summary = "Closeness centrality: how near the vertices that reach each vertex "
                        "are, as NetworkX computes it (Wasserman and Faust's scaling), or the "
                        "harmonic centrality; a search from every vertex.",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_closeness_options_init(lg_closeness_options_t *options)
{
    if (!options)
        return;
    options->harmonic = false;
    options->wf_improved = true;
    options->use_weights = true;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

lg_status_t lg_closeness(lg_context_t *context, const lg_graph_t *graph,
                         const lg_closeness_options_t *options, double *centrality)
{
    lg_closeness_options_t defaults;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_closeness: graph is NULL");
    if (!options) {
        lg_closeness_options_init(&defaults);
        options = &defaults;
    }
    if (!centrality)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_closeness: centrality is NULL");
    const lg_status_t st = lg__check_output_memory("lg_closeness", options->output_memory);
    if (st != LG_OK)
        return st;
    const bool use_weights = options->use_weights && graph->out.weights;
    if (use_weights && graph->negative_weights)
        return lg__refuse_negative_weights("lg_closeness", graph, "closeness needs weights >= 0");
    if (graph->n == 0)
        return LG_OK;
    const struct lg_closeness_args args = {
        .harmonic = options->harmonic,
        .wf_improved = options->wf_improved,
        .use_weights = use_weights,
        .centrality = centrality,
    };
    struct lg_call c = LG_CALL(&lg__algorithm_closeness, &args, true, options);
    c.passes = graph->n < 64 ? graph->n : 64; /* a search a vertex */
    return lg__dispatch(context, graph, &c);
}
