/*
 * components.c - (weakly) connected components: its descriptor, options and
 * public entry point (lg_connected_components), and the entry point's work
 * that strongly connected components share (lg__label_vertices).  The labelling is the
 * kernels' (src/kernels/cpu/components.c, src/kernels/hip/components.hip),
 * reached through lg__dispatch; everything a kernel may assume is checked
 * here, once.
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
                  .help = "the smallest vertex id of each vertex's component"},
    [R_COUNT] = {.name = "count", .type = LG_TYPE_INT, .help = "the number of components"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    (void)p;
    lg_components_options_t o;
    lg_components_options_init(&o);
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_connected_components(ctx, g, &o, r[R_LABELS], r[R_COUNT]);
}

const struct lg_algorithm lg__algorithm_components = {
    .id = LG_ALG_COMPONENTS,
    .info = {.name = "connected_components",
             .title = "connected components",
             .function = "lg_connected_components",
             .summary = "Connected components (weak on a directed graph): each vertex "
                        "labelled with its component's smallest vertex id; Afforest (Sutton, "
                        "Ben-Nun and Barak, IPDPS'18).",
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_components_options_init(lg_components_options_t *options)
{
    if (!options)
        return;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

lg_status_t lg__label_vertices(lg_context_t *context, const lg_graph_t *graph,
                               const struct lg_algorithm *a, const lg_run_options_t *options,
                               lg_vertex_t *labels, int64_t *num_components)
{
    const char *fn = a->info.function;
    lg__set_last_backend(LG_BACKEND_AUTO);
    const lg_status_t st = lg__check_output_memory(fn, options->output_memory);
    if (st != LG_OK)
        return st;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (graph->n > 0 && !labels)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: labels is NULL", fn);
    if (graph->n == 0) {
        if (num_components)
            *num_components = 0;
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to label, answered here */
        return LG_OK;
    }
    /* both algorithms' arguments are {labels, num_components} (algorithms.h) */
    const struct lg_components_args args = {labels, num_components};
    const struct lg_call c = LG_CALL(a, &args, true, options);
    return lg__dispatch(context, graph, &c);
}

lg_status_t lg_connected_components(lg_context_t *context, const lg_graph_t *graph,
                                    const lg_components_options_t *options, lg_vertex_t *labels,
                                    int64_t *num_components)
{
    lg_run_options_t o;
    lg_run_options_init(&o);
    if (options)
        LG_FROM_RUN_OPTIONS(&o, options);
    return lg__label_vertices(context, graph, &lg__algorithm_components, &o, labels,
                              num_components);
}
