/*
 * clustering_value.h - NetworkX's unweighted clustering, its average and
 * the transitivity from each vertex's triangles and distinct degree, in
 * vertex order: one function for both backends (the CPU's kernel, the
 * GPU's host code after its count), so they give the same doubles.
 *
 * Included by C (the core) and C++ (the .hip sources, on the host).
 */
#ifndef LIBGRAPH_CLUSTERING_VALUE_H
#define LIBGRAPH_CLUSTERING_VALUE_H

#include "algorithms.h"

/* a->clustering[v] = 2 t[v] / (deg[v] (deg[v] - 1)) (0 below degree 2),
 * *a->average their mean, *a->transitivity sum 2 t / sum deg (deg - 1) (0
 * without triangles); average and transitivity may be NULL. */
static inline void lg_clustering_values(const struct lg_triangles_args *a, int64_t n,
                                        const int64_t *t, const int64_t *deg)
{
    double sum = 0.0, triads = 0.0;
    int64_t triangles = 0;
    for (int64_t v = 0; v < n; v++) {
        const int64_t d = deg[v];
        a->clustering[v] = d < 2 ? 0.0 : 2.0 * (double)t[v] / ((double)d * (double)(d - 1));
        sum += a->clustering[v];
        triads += (double)d * (double)(d - 1);
        triangles += t[v];
    }
    if (a->average)
        *a->average = n > 0 ? sum / (double)n : 0.0;
    if (a->transitivity)
        *a->transitivity = triangles == 0 ? 0.0 : 2.0 * (double)triangles / triads;
}

#endif
