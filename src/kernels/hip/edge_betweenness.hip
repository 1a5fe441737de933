/*
 * edge_betweenness.hip - edge betweenness centrality on the GPU, one HIP
 * source for AMD (wave 64 and 32) and NVIDIA (CUDA).
 *
 * Returns: centrality[e] for each out-arc e as lg_edge_betweenness defines
 * it (the CPU kernel's header, src/kernels/cpu/edge_betweenness.c).
 *
 * Method: betweenness.hip's counting (McLaughlin and Bader's level-by-level
 * passes), each tight arc credited its share as the dependency pass reads
 * it (Brandes, Social Networks 30 (2008)); betweenness.hip says how.
 */
#include "gpu.h"

namespace
{
lg_status_t edge_betweenness_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                       const void *args)
{
    return lg__gpu_brandes(s, g, (const struct lg_betweenness_args *)args, true, NULL);
}
} // namespace

lg_status_t lg__gpu_edge_betweenness(const struct lg_exec *x, const struct lg_graph_view *g,
                                     const void *args)
{
    return lg__gpu_run(x, g, args, "lg_edge_betweenness", edge_betweenness_on_device);
}

/* The plugin's edge betweenness (plugin.hip). */
LG_GPU_KERNEL_ROW(edge_betweenness, EDGE_BETWEENNESS, false)
