/*
 * bfs.c - breadth-first search: its descriptor, options and public entry
 * points (lg_bfs, lg_bfs_multi).  The search itself is the kernels'
 * (src/kernels/cpu/bfs.c, src/kernels/hip/bfs.hip), reached through
 * lg__dispatch; everything a kernel may assume is checked here, once.
 */
#include "algorithm.h"

static const struct lg_algorithm bfs = {LG_ALG_BFS, "bfs", "lg_bfs", "BFS"};

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
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

lg_status_t lg_bfs_multi(lg_context_t *context, const lg_graph_t *graph, const lg_vertex_t *sources,
                         int64_t num_sources, const lg_bfs_options_t *options, int32_t *distances,
                         lg_vertex_t *parents)
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
    lg_status_t st = lg__check_output_memory("lg_bfs", options->output_memory);
    if (st != LG_OK)
        return st;
    const struct lg_bfs_args args = {sources, num_sources, options, distances, parents};
    const struct lg_call c = LG_CALL(&bfs, &args, options->direction_alpha > 0, options);
    return lg__dispatch(context, graph, &c);
}

lg_status_t lg_bfs(lg_context_t *context, const lg_graph_t *graph, lg_vertex_t source,
                   const lg_bfs_options_t *options, int32_t *distances, lg_vertex_t *parents)
{
    return lg_bfs_multi(context, graph, &source, 1, options, distances, parents);
}
