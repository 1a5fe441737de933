/*
 * algorithms.c - the public entry points of the algorithms.
 *
 * Each validates its arguments once, here, and hands them to a backend: the
 * GPU plugin's function on a GPU context, the CPU backend (struct lg_backend)
 * otherwise.  Nothing below knows how a kernel works, and no kernel re-checks
 * what is checked here.
 *
 * On a GPU context:
 *  - the plugin is called with the context's gpu_lock and then the graph's
 *    device_lock held (always in that order), so the plugin may fill the
 *    graph's device-copy slot and use its per-context state without locks of
 *    its own; the graph's device_owner is set once the slot is filled, so
 *    lg_graph_free can hand the copy back to the plugin;
 *  - an algorithm the plugin has no function for runs on the CPU when the
 *    context was created with LG_BACKEND_AUTO, and is LG_ERR_UNSUPPORTED when
 *    it was created with LG_BACKEND_GPU (asked for the GPU, it is not quietly
 *    given the CPU);
 *  - a plugin call that runs out of memory is rerun on the CPU under
 *    LG_BACKEND_AUTO, leaving the thread's last error as the call found it,
 *    and returns LG_ERR_OUT_OF_MEMORY under LG_BACKEND_GPU.
 * Every call records where it ran for lg_last_backend(): LG_BACKEND_AUTO
 * while it has not reached a backend (bad arguments, a refusal), then the
 * backend that computed the answer (the CPU for the trivial answers on empty
 * graphs given here).
 */
#include "internal.h"

#include <math.h>

_Static_assert(LG_PRECISION_F64 == 0 && LG_PRECISION_F32 == 1,
               "plugin.h passes the precision as 0 = double, 1 = float");

static const struct lg_backend *backend_of(const lg_context_t *ctx)
{
    return ctx ? ctx->backend : &lg__cpu_backend;
}

/* The plugin of a GPU context, or NULL. */
static const struct lg_plugin *plugin_of(const lg_context_t *ctx)
{
    return ctx && ctx->kind == LG_BACKEND_GPU ? ctx->plugin : NULL;
}

enum route { RUN_CPU, RUN_GPU, REFUSE };

/* Where an algorithm runs, given whether the plugin has a function for it. */
static enum route route_of(const lg_context_t *ctx, bool gpu_has_it)
{
    if (!plugin_of(ctx))
        return RUN_CPU;
    if (gpu_has_it)
        return RUN_GPU;
    return ctx->requested == LG_BACKEND_AUTO ? RUN_CPU : REFUSE;
}

static lg_status_t no_gpu_kernel(const char *function, const char *algorithm)
{
    return lg__error(LG_ERR_UNSUPPORTED,
                     "%s: no GPU kernel for %s in this version (use LG_BACKEND_AUTO or the CPU)",
                     function, algorithm);
}

/* One plugin call: the locks it holds, the graph as the plugin sees it, and
 * the caller's message to put back if the CPU takes over. */
struct gpu_call {
    lg_context_t *ctx;
    lg_graph_t *graph;
    struct lg_plugin_graph view;
    char saved_error[LG_ERROR_CAPACITY];
};

static void gpu_begin(struct gpu_call *call, lg_context_t *ctx, const lg_graph_t *graph)
{
    call->ctx = ctx;
    call->graph = (lg_graph_t *)graph; /* the device copy is a cache: the graph stays as it is */
    lg__error_save(call->saved_error);
    pthread_mutex_lock(&ctx->gpu_lock);
    pthread_mutex_lock(&call->graph->device_lock);
    call->view.n = graph->n;
    call->view.m = graph->m;
    call->view.directed = graph->directed;
    call->view.offsets = graph->out.offsets;
    call->view.indices = graph->out.indices;
    call->view.weights = graph->out.weights;
    call->view.device_cache = &call->graph->device_cache;
}

/* Ends a plugin call that returned st: true when its result stands, false
 * when the CPU is to run the algorithm instead (out of memory under AUTO). */
static bool gpu_end(struct gpu_call *call, lg_status_t st)
{
    if (call->graph->device_cache)
        call->graph->device_owner = call->ctx->plugin;
    pthread_mutex_unlock(&call->graph->device_lock);
    pthread_mutex_unlock(&call->ctx->gpu_lock);
    if (st == LG_ERR_OUT_OF_MEMORY && call->ctx->requested == LG_BACKEND_AUTO) {
        lg__error_restore(call->saved_error);
        return false;
    }
    lg__set_last_backend(LG_BACKEND_GPU);
    return true;
}

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
    lg__set_last_backend(LG_BACKEND_AUTO);
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
    if (!options->compute_parents)
        parents = NULL;
    const struct lg_plugin *gpu = plugin_of(context);
    enum route route = route_of(context, gpu && gpu->bfs);
    if (route == REFUSE)
        return no_gpu_kernel("lg_bfs", "BFS");
    if (route == RUN_GPU) {
        struct gpu_call call;
        gpu_begin(&call, context, graph);
        lg_status_t st = gpu->bfs(context->gpu_state, &call.view, sources, num_sources, options,
                                  distances, parents);
        if (gpu_end(&call, st))
            return st;
    }
    lg__set_last_backend(LG_BACKEND_CPU);
    return backend_of(context)->bfs(context, graph, sources, num_sources, options, distances,
                                    parents);
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
    lg__set_last_backend(LG_BACKEND_AUTO);
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
    const struct lg_plugin *gpu = plugin_of(context);
    enum route route = route_of(context, gpu && gpu->pagerank);
    if (route == REFUSE && graph->n > 0)
        return no_gpu_kernel("lg_pagerank", "PageRank");
    if (iterations)
        *iterations = 0;
    if (graph->n == 0) {
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to rank, answered here */
        return LG_OK;
    }
    if (route == RUN_GPU) {
        struct gpu_call call;
        gpu_begin(&call, context, graph);
        st = gpu->pagerank(context->gpu_state, &call.view, options, (int)precision, scores,
                           iterations);
        if (gpu_end(&call, st))
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
    lg__set_last_backend(LG_BACKEND_AUTO);
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
    const struct lg_plugin *gpu = plugin_of(context);
    enum route route = route_of(context, gpu && gpu->components);
    if (route == REFUSE)
        return no_gpu_kernel("lg_connected_components", "connected components");
    if (route == RUN_GPU) {
        struct gpu_call call;
        gpu_begin(&call, context, graph);
        lg_status_t st = gpu->components(context->gpu_state, &call.view, labels, num_components);
        if (gpu_end(&call, st))
            return st;
    }
    lg__set_last_backend(LG_BACKEND_CPU);
    return backend_of(context)->components(context, graph, labels, num_components);
}
