/*
 * negative_cycle.h - naming a vertex on a negative cycle, the last step of
 * Bellman-Ford on both backends when distances keep dropping (the CPU's
 * src/kernels/cpu/bellman_ford.h, and the GPU's on the host:
 * src/kernels/hip/sssp.hip).
 *
 * Three ways, all over host arrays:
 *   lg_cycle_on_parents   walks n parents from a vertex; if that ends on a
 *                         cycle of parents whose arcs weigh less than 0 in
 *                         all, names its smallest vertex.  Cheap (O(n));
 *                         a parallel search's parents race with its drops,
 *                         so a cycle found is checked, never trusted.
 *   lg_cycle_by_search    a sequential queue-based Bellman-Ford from the
 *                         sources with exact parents and each path's arc
 *                         count: a count reaching n repeats a vertex, and in
 *                         a sequential search a cycle of parents is a
 *                         negative cycle (Tarjan, "Data Structures and
 *                         Network Algorithms", 1983, ch. 7).  O(nm) at worst.
 *   lg_source_below_zero  after the rounds have settled: a source whose
 *                         distance fell below 0 that no tight path from a
 *                         source still at 0 reaches.  Its distance came
 *                         round a closed walk whose sum is negative, too
 *                         little to lower the next vertex's larger sum (a
 *                         -1e-36 arc after a 0.5 one leaves the sum 0.5), so
 *                         the drops stop before n rounds: the search settles
 *                         but the source is not at distance 0.  O(n + m),
 *                         and only when some source is below 0.
 *
 * The caller lends the work arrays.  Included by C and by C++ host code:
 * plain C only.
 */
#ifndef LIBGRAPH_NEGATIVE_CYCLE_H
#define LIBGRAPH_NEGATIVE_CYCLE_H

#include "kernels.h"

#include <math.h>

/* The out-arcs and weights (either array, or neither: every arc weighs 1). */
struct lg_weighted_rows {
    int64_t n;
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    const double *w64;
};

/* The smallest weight of an arc u -> v (rows are sorted), or NaN if none. */
static inline double lg_arc_min_weight(const struct lg_weighted_rows *r, lg_vertex_t u,
                                       lg_vertex_t v)
{
    lg_edge_t lo = r->off[u], hi = r->off[u + 1];
    while (lo < hi) {
        const lg_edge_t mid = lo + (hi - lo) / 2;
        if (r->idx[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    double best = NAN;
    for (lg_edge_t e = lo; e < r->off[u + 1] && r->idx[e] == v; e++) {
        const double x = lg_arc_weight(r->w, r->w64, e);
        best = isnan(best) || x < best ? x : best;
    }
    return best;
}

/* A vertex on a negative cycle of parents reached from `from`, or -1. */
static inline lg_vertex_t lg_cycle_on_parents(const struct lg_weighted_rows *r,
                                              const lg_vertex_t *parent, lg_vertex_t from)
{
    lg_vertex_t y = from;
    for (int64_t i = 0; i < r->n && y >= 0; i++)
        y = parent[y];
    if (y < 0)
        return -1;
    double sum = 0.0;
    lg_vertex_t smallest = y, z = y;
    for (int64_t i = 0; i <= r->n; i++) {
        const lg_vertex_t p = parent[z];
        if (p < 0)
            return -1;
        const double x = lg_arc_min_weight(r, p, z);
        if (isnan(x))
            return -1;
        sum += x;
        smallest = p < smallest ? p : smallest;
        z = p;
        if (z == y)
            return sum < 0.0 ? smallest : -1;
    }
    return -1;
}

/* The work arrays of lg_cycle_by_search, n elements each. */
struct lg_cycle_work {
    double *d;
    lg_vertex_t *parent, *queue;
    int64_t *arcs;
    unsigned char *queued;
};

/* A vertex on a negative cycle reachable from the sources, or -1 when there
 * is none. */
static inline lg_vertex_t lg_cycle_by_search(const struct lg_weighted_rows *r,
                                             const lg_vertex_t *sources, int64_t num_sources,
                                             const struct lg_cycle_work *k)
{
    const int64_t n = r->n;
    for (int64_t v = 0; v < n; v++)
        k->d[v] = INFINITY, k->parent[v] = -1, k->arcs[v] = 0, k->queued[v] = 0;
    int64_t head = 0, size = 0; /* a ring of at most n queued vertices */
    for (int64_t i = 0; i < num_sources; i++) {
        const lg_vertex_t s = sources[i];
        if (!k->queued[s])
            k->d[s] = 0.0, k->queued[s] = 1, k->queue[(head + size++) % n] = s;
    }
    while (size > 0) {
        const lg_vertex_t u = k->queue[head];
        head = (head + 1) % n, size--, k->queued[u] = 0;
        for (lg_edge_t e = r->off[u]; e < r->off[u + 1]; e++) {
            const lg_vertex_t v = r->idx[e];
            const double nd = k->d[u] + lg_arc_weight(r->w, r->w64, e);
            if (!(nd < k->d[v]))
                continue;
            k->d[v] = nd, k->parent[v] = u, k->arcs[v] = k->arcs[u] + 1;
            if (k->arcs[v] >= n) /* a path of n arcs repeats a vertex */
                return lg_cycle_on_parents(r, k->parent, v);
            if (!k->queued[v])
                k->queued[v] = 1, k->queue[(head + size++) % n] = v;
        }
    }
    return -1;
}

/* LG_ERR_UNBOUNDED's message for lg_source_below_zero's source: the
 * function's name, the source. */
#define LG_SOURCE_BELOW_ZERO                                                                       \
    "%s: a negative cycle is reachable from the sources: a closed walk of negative length "        \
    "through vertex %d, a source, lowers its distance below 0"

/* The source named by lg_source_below_zero's rule (the top of the file)
 * from the settled distances, or -1; queue: n vertices, reached: n bytes. */
static inline lg_vertex_t lg_source_below_zero(const struct lg_weighted_rows *r, const double *dist,
                                               const lg_vertex_t *sources, int64_t num_sources,
                                               lg_vertex_t *queue, unsigned char *reached)
{
    int64_t size = 0;
    for (int64_t v = 0; v < r->n; v++)
        reached[v] = 0;
    for (int64_t i = 0; i < num_sources; i++) {
        const lg_vertex_t s = sources[i];
        if (dist[s] == 0.0 && !reached[s])
            reached[s] = 1, queue[size++] = s;
    }
    for (int64_t head = 0; head < size; head++) {
        const lg_vertex_t u = queue[head];
        for (lg_edge_t e = r->off[u]; e < r->off[u + 1]; e++) {
            const lg_vertex_t v = r->idx[e];
            if (!reached[v] && dist[u] + lg_arc_weight(r->w, r->w64, e) == dist[v])
                reached[v] = 1, queue[size++] = v;
        }
    }
    for (int64_t i = 0; i < num_sources; i++)
        if (!reached[sources[i]])
            return sources[i];
    return -1;
}

/* Whether any source's settled distance is below 0: lg_source_below_zero's
 * cheap test first. */
static inline bool lg_any_source_below_zero(const double *dist, const lg_vertex_t *sources,
                                            int64_t num_sources)
{
    for (int64_t i = 0; i < num_sources; i++)
        if (dist[sources[i]] < 0.0)
            return true;
    return false;
}

#endif
