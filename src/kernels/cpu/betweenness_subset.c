/*
 * betweenness_subset.c - betweenness centrality of a subset on the CPU.
 *
 * Returns: centrality[v] as lg_betweenness_subset says: the sum over the
 * given sources s and targets t of the fraction of shortest s-t paths
 * through v, scaled by the subset's rule (betweenness_scale.h).
 *
 * Method: Brandes's counting (betweenness.c, which says how) with the 1 of
 * each dependency (1 + delta[w]) / sigma[w] kept only where w is a target
 * (Brandes, "On variants of shortest-path betweenness centrality and their
 * generic computation", Social Networks 30 (2008), the source-target form).
 *
 * Cost: as betweenness.c's, from the given sources.
 */
#include "cpu.h"

static lg_status_t betweenness_subset(const struct lg_exec *x, const struct lg_graph_view *g,
                                      const void *args)
{
    const struct lg_betweenness_subset_args *a = args;
    return LG_CPU_TWIN(brandes)(x, g, &a->base, false, a->targets);
}

/* Reads the out-arcs only. */
const struct lg_kernel LG_CPU_ROW(betweenness_subset) = {LG_ALG_BETWEENNESS_SUBSET,
                                                         betweenness_subset, false};
