/*
 * betweenness_scale.h - NetworkX's scaling of a betweenness centrality (its
 * _rescale of NetworkX 3.5 and later) as the factors each vertex's sum is
 * multiplied by, computed as NetworkX computes them (one division, then a
 * product a value): shared by both backends' kernels.
 *
 * Included by C (the core) and C++ (the .hip sources).
 */
#ifndef LIBGRAPH_BETWEENNESS_SCALE_H
#define LIBGRAPH_BETWEENNESS_SCALE_H

#include "algorithms.h"

#include <math.h>

struct lg_betweenness_scale {
    bool apply;     /* false: every value stays as it is           */
    bool by_source; /* a sampled source takes `source`, the others `other` */
    double other, source;
};

/* The factors for a graph of n vertices and a call's arguments a (k of
 * them sampled when a->sources is given and k < n). */
static inline struct lg_betweenness_scale lg_betweenness_scale_of(
    const struct lg_betweenness_args *a, int64_t n, bool directed)
{
    struct lg_betweenness_scale s = {false, false, 1.0, 1.0};
    const int64_t big_n = a->endpoints ? n : n - 1, correction = directed ? 1 : 2;
    if (!a->rescale || big_n < 2)
        return s;
    const bool sampled = a->sources && a->num_sources < n;
    const int64_t k = sampled ? a->num_sources : big_n;
    if (!sampled || a->endpoints) {
        s.other = a->normalized ? 1.0 / (double)(k * (big_n - 1))
                                : (double)big_n / (double)(k * correction);
        s.source = s.other;
        s.apply = s.other != 1.0;
        return s;
    }
    s.apply = s.by_source = true;
    if (a->normalized) {
        s.source = k > 1 ? 1.0 / (double)((k - 1) * (big_n - 1)) : NAN;
        s.other = 1.0 / (double)(k * (big_n - 1));
    } else {
        s.source = k > 1 ? (double)big_n / (double)((k - 1) * correction) : NAN;
        s.other = (double)big_n / (double)(k * correction);
    }
    return s;
}

/* The factor of a subset's betweenness (NetworkX's
 * betweenness_centrality_subset, the same in 3.4 and later): normalized
 * 1 / ((n - 1)(n - 2)) when n > 2, else an undirected graph's sums halved. */
static inline struct lg_betweenness_scale lg_betweenness_subset_scale_of(
    const struct lg_betweenness_args *a, int64_t n, bool directed)
{
    struct lg_betweenness_scale s = {false, false, 1.0, 1.0};
    if (!a->rescale || (a->normalized ? n <= 2 : directed))
        return s;
    s.other = s.source = a->normalized ? 1.0 / (double)((n - 1) * (n - 2)) : 0.5;
    s.apply = true;
    return s;
}

#endif /* LIBGRAPH_BETWEENNESS_SCALE_H */
