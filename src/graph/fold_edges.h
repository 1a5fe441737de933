/*
 * fold_edges.h - an undirected graph's per-arc sums into its edges' values:
 * the j-th arc u -> v and the j-th arc v -> u (parallel arcs paired in
 * order, rows sorted) each get the two's sum, the paths through the edge
 * either way (edge betweenness).  One row's work, shared by the CPU kernel
 * (src/kernels/cpu/betweenness.c, the rows over the threads) and the GPU's
 * (betweenness.hip, a thread a row).
 *
 * Included by C (the core) and C++ (the .hip sources, on the device too).
 */
#ifndef LIBGRAPH_FOLD_EDGES_H
#define LIBGRAPH_FOLD_EDGES_H

#include "host_device.h"
#include "libgraph.h"

/* Row u's pairs u -> v with u < v (the row of v leaves them alone, so each
 * pair has one writer; a self-loop stays as it is). */
LG_SHARED_FN void lg_fold_row(const lg_edge_t *off, const lg_vertex_t *idx, int64_t u, double *c)
{
    for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
        const lg_vertex_t v = idx[e];
        if (v <= u)
            continue;
        lg_edge_t first = e; /* the first arc u -> v: e is the j-th */
        while (first > off[u] && idx[first - 1] == v)
            first--;
        lg_edge_t lo = off[v], hi = off[v + 1]; /* the first arc v -> u */
        while (lo < hi) {
            const lg_edge_t mid = lo + (hi - lo) / 2;
            if (idx[mid] < (lg_vertex_t)u)
                lo = mid + 1;
            else
                hi = mid;
        }
        const lg_edge_t r = lo + (e - first);
        const double sum = c[e] + c[r];
        c[e] = sum;
        c[r] = sum;
    }
}

#endif
