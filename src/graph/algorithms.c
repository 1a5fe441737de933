/*
 * algorithms.c - the public entry points of the algorithms.
 *
 * Each validates its arguments once, here, and hands them to a backend:
 * the GPU plugin's kernel on a GPU context (under the graph's device lock,
 * which guards the graph's device copy), else the CPU backend (struct
 * lg_backend).  Fallback: on a context created with LG_BACKEND_AUTO, an
 * algorithm the plugin has no kernel for, or one that ran out of GPU memory,
 * runs on the CPU; on an LG_BACKEND_GPU context those are errors
 * (LG_ERR_UNSUPPORTED, LG_ERR_OUT_OF_MEMORY).  lg_last_backend() tells
 * which ran.  Nothing below knows how a kernel works, and no kernel
 * re-checks what is checked here.
 */
#include "internal.h"
#include "plugin.h"

#include <math.h>

static const struct lg_backend *backend_of(const lg_context_t *ctx)
{
    return ctx ? ctx->backend : &lg__cpu_backend;
}

/* A GPU call's view of the graph, taken under its device lock. */
static void gpu_begin(const lg_graph_t *cg, struct lg_plugin_graph *view)
{
    lg_graph_t *g = (lg_graph_t *)cg; /* the device copy is a cache */
    pthread_mutex_lock(&g->device_lock);
    view->n = g->n;
    view->m = g->m;
    view->directed = g->directed;
    view->offsets = g->out.offsets;
    view->indices = g->out.indices;
    view->weights = g->out.weights;
    view->device_cache = &g->device_cache;
}

static void gpu_end(const lg_graph_t *cg, const struct lg_plugin *plugin)
{
    lg_graph_t *g = (lg_graph_t *)cg;
    if (g->device_cache)
        g->device_owner = plugin;
    pthread_mutex_unlock(&g->device_lock);
}

/* After a GPU call returned st: whether it stands (true), or the CPU should
 * run the algorithm instead (AUTO context, GPU out of memory). */
static bool gpu_result_stands(const lg_context_t *ctx, lg_status_t st)
{
    if (st == LG_ERR_OUT_OF_MEMORY && ctx->requested == LG_BACKEND_AUTO) {
        lg__error(LG_OK, "%s", "");
        return false;
    }
    lg__set_last_backend(LG_BACKEND_GPU);
    return true;
}

/* Whether a GPU context must refuse an algorithm the plugin lacks. */
static bool gpu_refuses(const lg_context_t *ctx, bool has_kernel)
{
    return ctx && ctx->kind == LG_BACKEND_GPU && !has_kernel && ctx->requested == LG_BACKEND_GPU;
}

#define GPU_UNSUPPORTED(fn, what)                                                                \
    lg__error(LG_ERR_UNSUPPORTED,                                                                \
              fn ": no GPU kernel for " what " in this version (use LG_BACKEND_AUTO, which "     \
                 "runs it on the CPU, or a CPU context)")

#define LG_BFS_DEFAULT_ALPHA 15 /* GAPBS's tuned values (Beamer et al.) */
#define LG_BFS_DEFAULT_BETA 18

void lg_bfs_options_init(lg_bfs_options_t *options)
{
    if (!options)
        return;
    options->compute_parents = false;
    options->max_depth = -1;
    options->direction_alpha = LG_BFS_DEFAULT_ALPHA;
    options->direction_beta = LG_BFS_DEFAULT_BETA;
}

lg_status_t lg_bfs_multi(lg_context_t *context, const lg_graph_t *graph,
                         const lg_vertex_t *sources, int64_t num_sources,
                         const lg_bfs_options_t *options, int32_t *distances, lg_vertex_t *parents)
{
    lg_bfs_options_t defaults;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_bfs: graph is NULL");
    if (!options) {
        lg_bfs_options_init(&defaults);
        options = &defaults;
    }
    if (num_sources < 1 || !sources)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_bfs: %s",
                         sources ? "num_sources < 1" : "sources is NULL");
    for (int64_t i = 0; i < num_sources; i++)
        if (sources[i] < 0 || sources[i] >= graph->n)
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "lg_bfs: source %d is not a vertex (num_vertices %lld)",
                             (int)sources[i], (long long)graph->n);
    if (options->max_depth < -1)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_bfs: max_depth %d < -1 (-1 = no limit)",
                         (int)options->max_depth);
    if (options->direction_alpha < 0 || options->direction_beta < 1)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_bfs: direction_alpha %d < 0 or direction_beta %d < 1",
                         options->direction_alpha, options->direction_beta);
    if (!distances)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_bfs: distances is NULL");
    if (options->compute_parents && !parents)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_bfs: compute_parents is set but parents is NULL");
    if (gpu_refuses(context, context && context->plugin && context->plugin->bfs))
        return GPU_UNSUPPORTED("lg_bfs", "BFS");
    if (context && context->kind == LG_BACKEND_GPU && context->plugin->bfs) {
        struct lg_plugin_graph view;
        gpu_begin(graph, &view);
        lg_status_t st = context->plugin->bfs(context->gpu_state, &view, sources, num_sources,
                                              options, distances, parents);
        gpu_end(graph, context->plugin);
        if (gpu_result_stands(context, st))
            return st;
    }
    lg__set_last_backend(LG_BACKEND_CPU);
    return backend_of(context)->bfs(context, graph, sources, num_sources, options, distances,
                                    options->compute_parents ? parents : NULL);
}

lg_status_t lg_bfs(lg_context_t *context, const lg_graph_t *graph, lg_vertex_t source,
                   const lg_bfs_options_t *options, int32_t *distances, lg_vertex_t *parents)
{
    return lg_bfs_multi(context, graph, &source, 1, options, distances, parents);
}

void lg_pagerank_options_init(lg_pagerank_options_t *options)
{
    if (!options)
        return;
    options->alpha = 0.85;
    options->tol = 1.0e-6;
    options->max_iter = 100;
    options->use_weights = true;
    options->personalization = NULL;
    options->nstart = NULL;
    options->dangling = NULL;
}

/* A vector option must be a non-negative, finite distribution with a positive sum. */
static lg_status_t check_distribution(const char *name, const double *v, int64_t n)
{
    if (!v)
        return LG_OK;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i]) || v[i] < 0.0)
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "lg_pagerank: %s[%lld] = %g is not finite and >= 0", name,
                             (long long)i, v[i]);
        sum += v[i];
    }
    if (!(sum > 0.0) || !isfinite(sum))
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_pagerank: %s sums to %g; it needs a positive, finite sum", name, sum);
    return LG_OK;
}

static lg_status_t pagerank(lg_context_t *context, const lg_graph_t *graph,
                            const lg_pagerank_options_t *options, lg_precision_t precision,
                            void *scores, int *iterations)
{
    lg_pagerank_options_t defaults;
    lg_status_t st;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: graph is NULL");
    if (!options) {
        lg_pagerank_options_init(&defaults);
        options = &defaults;
    }
    if (!(options->alpha >= 0.0 && options->alpha <= 1.0))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: alpha %g is not in [0, 1]",
                         options->alpha);
    if (!(options->tol >= 0.0) || !isfinite(options->tol))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: tol %g is not finite and >= 0",
                         options->tol);
    if (options->max_iter < 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: max_iter %d < 0",
                         options->max_iter);
    if (graph->n > 0 && !scores)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: scores is NULL");
    if (graph->n > 0 &&
        ((st = check_distribution("personalization", options->personalization, graph->n)) != LG_OK ||
         (st = check_distribution("nstart", options->nstart, graph->n)) != LG_OK ||
         (st = check_distribution("dangling", options->dangling, graph->n)) != LG_OK))
        return st;
    if (iterations)
        *iterations = 0;
    if (graph->n == 0) {
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to rank: answered here */
        return LG_OK;
    }
    if (gpu_refuses(context, context && context->plugin && context->plugin->pagerank))
        return GPU_UNSUPPORTED("lg_pagerank", "PageRank");
    if (context && context->kind == LG_BACKEND_GPU && context->plugin->pagerank) {
        struct lg_plugin_graph view;
        gpu_begin(graph, &view);
        st = context->plugin->pagerank(context->gpu_state, &view, options, (int)precision, scores,
                                       iterations);
        gpu_end(graph, context->plugin);
        if (gpu_result_stands(context, st))
            return st;
    }
    lg__set_last_backend(LG_BACKEND_CPU);
    return backend_of(context)->pagerank(context, graph, options, precision, scores, iterations);
}

lg_status_t lg_pagerank(lg_context_t *context, const lg_graph_t *graph,
                        const lg_pagerank_options_t *options, double *scores, int *iterations)
{
    return pagerank(context, graph, options, LG_PRECISION_F64, scores, iterations);
}

lg_status_t lg_pagerank_f32(lg_context_t *context, const lg_graph_t *graph,
                            const lg_pagerank_options_t *options, float *scores, int *iterations)
{
    return pagerank(context, graph, options, LG_PRECISION_F32, scores, iterations);
}

lg_status_t lg_connected_components(lg_context_t *context, const lg_graph_t *graph,
                                    lg_vertex_t *labels, int64_t *num_components)
{
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_connected_components: graph is NULL");
    if (graph->n > 0 && !labels)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_connected_components: labels is NULL");
    if (graph->n == 0) {
        if (num_components)
            *num_components = 0;
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to run: answered here */
        return LG_OK;
    }
    if (gpu_refuses(context, context && context->plugin && context->plugin->components))
        return GPU_UNSUPPORTED("lg_connected_components", "connected components");
    if (context && context->kind == LG_BACKEND_GPU && context->plugin->components) {
        struct lg_plugin_graph view;
        gpu_begin(graph, &view);
        lg_status_t st =
            context->plugin->components(context->gpu_state, &view, labels, num_components);
        gpu_end(graph, context->plugin);
        if (gpu_result_stands(context, st))
            return st;
    }
    lg__set_last_backend(LG_BACKEND_CPU);
    return backend_of(context)->components(context, graph, labels, num_components);
}
