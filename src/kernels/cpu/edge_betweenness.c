/*
 * edge_betweenness.c - edge betweenness centrality on the CPU.
 *
 * Returns: centrality[e] for each out-arc e, as lg_edge_betweenness says:
 * the sum over the sources s and the vertices t of the fraction of
 * shortest s-t paths along e, scaled by NetworkX's rule for edges.
 *
 * Method: Brandes's counting, shared with vertex betweenness
 * (betweenness.c, which says how), crediting each tight arc its share of
 * the dependency that passes along it (Brandes, "On variants of
 * shortest-path betweenness centrality and their generic computation",
 * Social Networks 30 (2008)).
 *
 * Cost: as betweenness.c's, and a double an arc a thread.
 */
#include "cpu.h"

static lg_status_t edge_betweenness(const struct lg_exec *x, const struct lg_graph_view *g,
                                    const void *args)
{
    return LG_CPU_TWIN(brandes)(x, g, args, true, NULL);
}

/* Reads the out-arcs only. */
const struct lg_kernel LG_CPU_ROW(edge_betweenness) = {LG_ALG_EDGE_BETWEENNESS, edge_betweenness,
                                                       false};
