/*
 * katz.hip - Katz centrality on the GPU (lg__gpu_katz): the linear power
 * iteration of power_kernel.h, x' = alpha A^T x + beta.
 */
#include "power_kernel.h"

static lg_status_t katz_on_device(lg__gpu_state *s, const struct lg_graph_view *g, const void *args)
{
    return power_on_device(s, g, args, "lg_katz");
}

lg_status_t lg__gpu_katz(const struct lg_exec *x, const struct lg_graph_view *g, const void *args)
{
    return lg__gpu_run(x, g, args, "lg_katz", katz_on_device);
}

/* The plugin's pull structure is built on the device from the out-edges. */
LG_GPU_KERNEL_ROW(katz, KATZ, false)
