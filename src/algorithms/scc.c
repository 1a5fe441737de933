/*
 * scc.c - strongly connected components: its descriptor, options and
 * public entry point (lg_strongly_connected_components).  The labelling is
 * the kernel's (src/kernels/cpu/scc.c), reached through lg__dispatch;
 * everything a kernel may assume is checked here, once.
 */
#include "algorithm.h"

enum {
    R_LABELS,
    R_COUNT
};

static const lg_result_info_t results[] = {
    [R_LABELS] = {.name = "labels",
                  .type = LG_TYPE_INT32,
                  .per_vertex = true,
                  .help = "the smallest vertex id of each vertex's strongly connected component"},
    [R_COUNT] = {.name = "count",
                 .type = LG_TYPE_INT,
                 .help = "the number of components (the condensation's vertices)"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    (void)p;
    lg_scc_options_t o;
    lg_scc_options_init(&o);
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_strongly_connected_components(ctx, g, &o, r[R_LABELS], r[R_COUNT]);
}

const struct lg_algorithm lg__algorithm_scc = {
    .id = LG_ALG_SCC,
    .info = {.name = "strongly_connected_components",
             .title = "strongly connected components",
             .function = "lg_strongly_connected_components",
             .summary = "Strongly connected components: each vertex labelled with its "
                        "component's smallest vertex id; Multistep (Slota, Rajamanickam and "
                        "Madduri, IPDPS'14).",
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_scc_options_init(lg_scc_options_t *options)
{
    if (!options)
        return;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

lg_status_t lg_strongly_connected_components(lg_context_t *context, const lg_graph_t *graph,
                                             const lg_scc_options_t *options, lg_vertex_t *labels,
                                             int64_t *num_components)
{
    lg_run_options_t o;
    lg_run_options_init(&o);
    if (options)
        LG_FROM_RUN_OPTIONS(&o, options);
    return lg__label_vertices(context, graph, &lg__algorithm_scc, &o, labels, num_components);
}
