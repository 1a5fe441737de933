/*
 * build_device.c - lg_graph_from_device_edges: a graph built by the GPU
 * plugin from edges in device memory (src/kernels/hip/build.hip), wrapped
 * here as any graph, with the plugin's CSR as its device copy.
 *
 * The arguments and options are checked here as lg_graph_from_edges checks
 * them; the edges themselves are checked on the device, and a bad one comes
 * back with its values so that the message is the host builder's.
 */
#include "build.h"

lg_status_t lg_graph_from_device_edges(lg_context_t *context, int64_t num_vertices,
                                       int64_t num_edges, const lg_vertex_t *src,
                                       const lg_vertex_t *dst, const float *weights,
                                       const lg_graph_options_t *options, lg_graph_t **graph)
{
    static const char fn[] = "lg_graph_from_device_edges";
    lg_graph_options_t defaults;
    lg_status_t st;
    if ((st = lg__graph_options_start(fn, graph, &options, &defaults)) != LG_OK ||
        (st = lg__check_counts(fn, num_vertices < 0 ? 0 : num_vertices, num_edges)) != LG_OK)
        return st;
    if (num_edges > 0 && (!src || !dst))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: src or dst is NULL with %lld edges", fn,
                         (long long)num_edges);
    if (!context || context->backend != LG_BACKEND_GPU)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: edges in device memory need a GPU context",
                         fn);
    if (options->weight_type == LG_WEIGHTS_FLOAT64)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s: builds float32 graphs (float64 weights: lg_graph_from_edges_f64)", fn);
    if (!context->plugin->build)
        return lg__error(LG_ERR_UNSUPPORTED, "%s: the GPU plugin cannot build graphs", fn);
    const bool directed = options->directedness == LG_DIRECTED;
    const struct lg_plugin_build b = {num_vertices,
                                      num_edges,
                                      src,
                                      dst,
                                      weights,
                                      directed,
                                      !directed || options->symmetrize,
                                      options->drop_self_loops,
                                      options->duplicates};
    struct lg_plugin_built out = {0, NULL, NULL, NULL, 0, NULL, -1, 0, 0, 0.0f};
    pthread_mutex_lock(&context->gpu_lock); /* the plugin's state and stream */
    st = context->plugin->build(context->gpu_state, &b, &out);
    pthread_mutex_unlock(&context->gpu_lock);
    if (st == LG_ERR_INVALID_ARGUMENT && out.bad_edge >= 0) {
        const double w = out.bad_weight;
        return lg__report_bad_edge(fn, out.bad_edge, out.n, out.bad_src, out.bad_dst,
                                   weights ? &w : NULL);
    }
    if (st != LG_OK)
        return st;
    struct lg_csr csr = {out.offsets, out.indices, out.weights, NULL};
    lg_graph_t *built = NULL;
    if ((st = lg__graph_wrap(out.n, directed, &csr, &built)) != LG_OK) {
        context->plugin->graph_free(out.device_graph);
        return st;
    }
    built->m = out.m;
    built->device_cache = out.device_graph;
    built->device_owner = context->plugin;
    *graph = built;
    return LG_OK;
}
