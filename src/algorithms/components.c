/*
 * components.c - (weakly) connected components: its descriptor, options and
 * public entry point (lg_connected_components).  The labelling is the
 * kernels' (src/kernels/cpu/components.c, src/kernels/hip/components.hip),
 * reached through lg__dispatch; everything a kernel may assume is checked
 * here, once.
 */
#include "algorithm.h"

static const struct lg_algorithm components = {LG_ALG_COMPONENTS, "components",
                                               "lg_connected_components", "connected components"};

void lg_components_options_init(lg_components_options_t *options)
{
    if (!options)
        return;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

lg_status_t lg_connected_components(lg_context_t *context, const lg_graph_t *graph,
                                    const lg_components_options_t *options, lg_vertex_t *labels,
                                    int64_t *num_components)
{
    lg_components_options_t defaults;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!options) {
        lg_components_options_init(&defaults);
        options = &defaults;
    }
    const lg_status_t st =
        lg__check_output_memory("lg_connected_components", options->output_memory);
    if (st != LG_OK)
        return st;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_connected_components: graph is NULL");
    if (graph->n > 0 && !labels)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_connected_components: labels is NULL");
    if (graph->n == 0) {
        if (num_components)
            *num_components = 0;
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to label, answered here */
        return LG_OK;
    }
    const struct lg_components_args args = {labels, num_components};
    const struct lg_call c = LG_CALL(&components, &args, true, options);
    return lg__dispatch(context, graph, &c);
}
