/*
 * betweenness_subset.hip - betweenness centrality of a subset on the GPU,
 * one HIP source for AMD (wave 64 and 32) and NVIDIA (CUDA).
 *
 * Returns: centrality[v] as lg_betweenness_subset defines it (the CPU
 * kernel's header, src/kernels/cpu/betweenness_subset.c).
 *
 * Method: betweenness.hip's counting (McLaughlin and Bader's level-by-level
 * passes) with the 1 of each dependency kept only where the vertex is a
 * target (Brandes, Social Networks 30 (2008)); betweenness.hip says how.
 */
#include "gpu.h"

namespace
{
lg_status_t betweenness_subset_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                         const void *args)
{
    const struct lg_betweenness_subset_args *a = (const struct lg_betweenness_subset_args *)args;
    return lg__gpu_brandes(s, g, &a->base, false, a->targets);
}
} // namespace

lg_status_t lg__gpu_betweenness_subset(const struct lg_exec *x, const struct lg_graph_view *g,
                                       const void *args)
{
    return lg__gpu_run(x, g, args, "lg_betweenness_subset", betweenness_subset_on_device);
}

/* The plugin's subset betweenness (plugin.hip). */
LG_GPU_KERNEL_ROW(betweenness_subset, BETWEENNESS_SUBSET, false)
