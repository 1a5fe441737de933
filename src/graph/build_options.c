/*
 * build_options.c - the graph options every builder and loader starts from:
 * their defaults, their checks, and the bounds on vertex and edge counts.
 */
#include "build.h"

void lg_graph_options_init(lg_graph_options_t *options)
{
    if (!options)
        return;
    options->directedness = LG_DIRECTEDNESS_DEFAULT;
    options->symmetrize = false;
    options->drop_self_loops = false;
    options->duplicates = LG_DUPLICATES_KEEP;
    options->progress = NULL;
    options->progress_data = NULL;
    options->skip_names = false;
    options->weight_type = LG_WEIGHTS_NONE;
}

lg_status_t lg__check_graph_options(const char *fn, const lg_graph_options_t *o)
{
    if (o->directedness != LG_DIRECTEDNESS_DEFAULT && o->directedness != LG_DIRECTED &&
        o->directedness != LG_UNDIRECTED)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown directedness %d", fn,
                         (int)o->directedness);
    if ((int)o->duplicates < (int)LG_DUPLICATES_KEEP ||
        (int)o->duplicates > (int)LG_DUPLICATES_LAST)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown duplicates policy %d", fn,
                         (int)o->duplicates);
    if ((int)o->weight_type < (int)LG_WEIGHTS_NONE || (int)o->weight_type > (int)LG_WEIGHTS_FLOAT64)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown weight_type %d", fn,
                         (int)o->weight_type);
    return LG_OK;
}

lg_status_t lg__graph_options_start(const char *fn, lg_graph_t **graph,
                                    const lg_graph_options_t **options,
                                    lg_graph_options_t *defaults)
{
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (!*options) {
        lg_graph_options_init(defaults);
        *options = defaults;
    }
    return lg__check_graph_options(fn, *options);
}

lg_status_t lg__check_counts(const char *fn, int64_t n, int64_t E)
{
    if (n < 0 || n > LG_MAX_VERTICES)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: num_vertices %lld is outside [0, %lld]", fn,
                         (long long)n, (long long)LG_MAX_VERTICES);
    /* two arcs an edge must still fit lg_edge_t and size_t byte counts */
    if (E < 0 || E > INT64_MAX / 2 / 8)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: num_edges %lld is outside [0, %lld]", fn,
                         (long long)E, (long long)(INT64_MAX / 2 / 8));
    return LG_OK;
}
