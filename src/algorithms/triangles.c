/*
 * triangles.c - triangles as NetworkX counts them: the descriptor, options
 * and public entry point (lg_triangles), and the entry point's work that
 * clustering shares (lg__count_triangles).  The count is the kernels'
 * (src/kernels/cpu/triangle_count.h), reached through lg__dispatch;
 * everything a kernel may assume is checked here, once.
 */
#include "algorithm.h"

enum {
    P_PER_VERTEX
};
enum {
    R_TRIANGLES,
    R_TOTAL
};

static const lg_param_info_t params[] = {
    [P_PER_VERTEX] = {.name = "per_vertex",
                      .type = LG_TYPE_BOOL,
                      .default_value.i = 1,
                      .help = "count each vertex's triangles too (off: the total alone, faster)"},
};

static const lg_result_info_t results[] = {
    [R_TRIANGLES] = {.name = "triangles",
                     .type = LG_TYPE_INT64,
                     .per_vertex = true,
                     .when = "per_vertex",
                     .help = "the triangles through each vertex"},
    [R_TOTAL] = {.name = "total", .type = LG_TYPE_INT, .help = "the graph's triangles"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_triangles_options_t o;
    lg_triangles_options_init(&o);
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_triangles(ctx, g, &o, p[P_PER_VERTEX].i ? r[R_TRIANGLES] : NULL, r[R_TOTAL]);
}

const struct lg_algorithm lg__algorithm_triangles = {
    .id = LG_ALG_TRIANGLES,
    .info = {.name = "triangles",
             .title = "triangles",
             .function = "lg_triangles",
             .summary = "Triangles of an undirected graph: through each vertex and in all, as "
                        "NetworkX counts them; each found once on its edges oriented by degree "
                        "(Chiba and Nishizeki 1985).",
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_triangles_options_init(lg_triangles_options_t *options)
{
    if (!options)
        return;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

lg_status_t lg__count_triangles(lg_context_t *context, const lg_graph_t *graph,
                                const struct lg_algorithm *a, const lg_triangles_options_t *options,
                                const struct lg_triangles_args *args)
{
    const char *fn = a->info.function;
    lg_triangles_options_t defaults;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (!options) {
        lg_triangles_options_init(&defaults);
        options = &defaults;
    }
    const lg_status_t st = lg__check_output_memory(fn, options->output_memory);
    if (st != LG_OK)
        return st;
    if (graph->directed)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: the graph is directed; triangles and clustering here are for "
                         "undirected graphs (NetworkX's triangles refuses a directed one)",
                         fn);
    if (graph->n == 0) {
        if (args->total)
            *args->total = 0;
        if (args->average)
            *args->average = 0.0;
        if (args->transitivity)
            *args->transitivity = 0.0;
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to count, answered here */
        return LG_OK;
    }
    const struct lg_call c = LG_CALL(a, args, false, options);
    return lg__dispatch(context, graph, &c);
}

lg_status_t lg_triangles(lg_context_t *context, const lg_graph_t *graph,
                         const lg_triangles_options_t *options, int64_t *per_vertex, int64_t *total)
{
    const struct lg_triangles_args args = {per_vertex, total, NULL, NULL, NULL};
    return lg__count_triangles(context, graph, &lg__algorithm_triangles, options, &args);
}
