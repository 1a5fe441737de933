/*
 * triangles.hip - triangles on the GPU (lg__gpu_triangles): triangle_kernel.h's
 * count, each vertex's and the total.
 */
#include "triangle_kernel.h"

static lg_status_t triangles_run(lg__gpu_state *s, const struct lg_graph_view *g, const void *args)
{
    return triangles_on_device(s, g, args, "lg_triangles");
}

lg_status_t lg__gpu_triangles(const struct lg_exec *x, const struct lg_graph_view *g,
                              const void *args)
{
    return lg__gpu_run(x, g, args, "lg_triangles", triangles_run);
}

/* An undirected graph's out-edges are all its edges. */
LG_GPU_KERNEL_ROW(triangles, TRIANGLES, false)
