/*
 * bfs.c - breadth-first search: its descriptor, options and public entry
 * points (lg_bfs, lg_bfs_multi).  The search itself is the kernels'
 * (src/kernels/cpu/bfs.c, src/kernels/hip/bfs.hip), reached through
 * lg__dispatch; everything a kernel may assume is checked here, once.
 */
#include "algorithm.h"

#define LG_BFS_DEFAULT_ALPHA 15 /* GAPBS's tuned values (Beamer et al.) */
#define LG_BFS_DEFAULT_BETA 18

/* The descriptor's parameters and results, in this order. */
enum {
    P_SOURCE,
    P_PARENTS,
    P_MAX_DEPTH,
    P_ALPHA,
    P_BETA
};
enum {
    R_DISTANCES,
    R_PARENTS
};

static const lg_param_info_t params[] = {
    [P_SOURCE] = {.name = "source",
                  .type = LG_TYPE_VERTICES,
                  .required = true,
                  .help = "the vertex the search starts from, or several (all at distance 0)"},
    [P_PARENTS] = {.name = "parents",
                   .type = LG_TYPE_BOOL,
                   .help = "also give each reached vertex's BFS parent"},
    [P_MAX_DEPTH] = {.name = "max_depth",
                     .type = LG_TYPE_INT,
                     .default_value.i = -1,
                     .help = "visit vertices up to this many hops (-1: no limit)"},
    [P_ALPHA] = {.name = "direction_alpha",
                 .type = LG_TYPE_INT,
                 .default_value.i = LG_BFS_DEFAULT_ALPHA,
                 .help = "go bottom-up when the frontier's edges exceed 1/alpha of those "
                         "unexplored (0: top-down only)"},
    [P_BETA] = {.name = "direction_beta",
                .type = LG_TYPE_INT,
                .default_value.i = LG_BFS_DEFAULT_BETA,
                .help = "go back top-down when the frontier is below num_vertices/beta"},
};

static const lg_result_info_t results[] = {
    [R_DISTANCES] = {.name = "distances",
                     .type = LG_TYPE_INT32,
                     .per_vertex = true,
                     .help = "hops from the nearest source, -1 when unreached"},
    [R_PARENTS] = {.name = "parents",
                   .type = LG_TYPE_INT32,
                   .per_vertex = true,
                   .when = "parents",
                   .help = "a BFS parent of each reached vertex (a source is its own), -1 "
                           "when unreached"},
};

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_bfs_options_t o;
    lg_bfs_options_init(&o);
    o.compute_parents = p[P_PARENTS].i != 0;
    o.max_depth = (int32_t)p[P_MAX_DEPTH].i;
    o.direction_alpha = (int)p[P_ALPHA].i;
    o.direction_beta = (int)p[P_BETA].i;
    LG_FROM_RUN_OPTIONS(&o, ro);
    return lg_bfs_multi(ctx, g, p[P_SOURCE].array, p[P_SOURCE].length, &o, r[R_DISTANCES],
                        o.compute_parents ? r[R_PARENTS] : NULL);
}

const struct lg_algorithm lg__algorithm_bfs = {
    .id = LG_ALG_BFS,
    .info = {.name = "bfs",
             .title = "BFS",
             .function = "lg_bfs",
             .summary = "Breadth-first search distances, and parents on request: hops along "
                        "out-edges from one vertex or several; direction-optimizing (Beamer, "
                        "Asanovic and Patterson, SC'12).",
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

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
    lg_status_t st = lg__check_vertices("lg_bfs", "source", graph, sources, num_sources);
    if (st != LG_OK)
        return st;
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
    st = lg__check_output_memory("lg_bfs", options->output_memory);
    if (st != LG_OK)
        return st;
    const struct lg_bfs_args args = {sources, num_sources, options, distances, parents};
    const struct lg_call c =
        LG_CALL(&lg__algorithm_bfs, &args, options->direction_alpha > 0, options);
    return lg__dispatch(context, graph, &c);
}

lg_status_t lg_bfs(lg_context_t *context, const lg_graph_t *graph, lg_vertex_t source,
                   const lg_bfs_options_t *options, int32_t *distances, lg_vertex_t *parents)
{
    return lg_bfs_multi(context, graph, &source, 1, options, distances, parents);
}
