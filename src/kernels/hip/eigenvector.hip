/*
 * eigenvector.hip - Eigenvector centrality on the GPU (lg__gpu_eigenvector): the linear power
 * iteration of power_kernel.h, x' = (A^T x + x) / |A^T x + x|_2.
 */
#include "power_kernel.h"

static lg_status_t eigenvector_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                         const void *args)
{
    return power_on_device(s, g, args, "lg_eigenvector");
}

lg_status_t lg__gpu_eigenvector(const struct lg_exec *x, const struct lg_graph_view *g,
                                const void *args)
{
    return lg__gpu_run(x, g, args, "lg_eigenvector", eigenvector_on_device);
}

/* The plugin's pull structure is built on the device from the out-edges. */
LG_GPU_KERNEL_ROW(eigenvector, EIGENVECTOR, false)
