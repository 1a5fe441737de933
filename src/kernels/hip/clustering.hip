/*
 * clustering.hip - clustering on the GPU (lg__gpu_clustering): triangle_kernel.h's
 * count, then the coefficients, their average and the transitivity.
 */
#include "triangle_kernel.h"

static lg_status_t clustering_run(lg__gpu_state *s, const struct lg_graph_view *g, const void *args)
{
    return triangles_on_device(s, g, args, "lg_clustering");
}

lg_status_t lg__gpu_clustering(const struct lg_exec *x, const struct lg_graph_view *g,
                               const void *args)
{
    return lg__gpu_run(x, g, args, "lg_clustering", clustering_run);
}

LG_GPU_KERNEL_ROW(clustering, CLUSTERING, false)
