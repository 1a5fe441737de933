/*
 * oracle_bfs.h - reference BFS for the tests: a FIFO-queue BFS from one
 * source (or_bfs) and from many sources at once, optionally depth-limited
 * (or_bfs_multi), each O(n + m); and the checkers of BFS parents against
 * their distances (or_check_parents, or_check_parents_multi), since parents
 * are not unique.
 */
#ifndef LIBGRAPH_TEST_ORACLE_BFS_H
#define LIBGRAPH_TEST_ORACLE_BFS_H

#include "oracle_graph.h"

static inline void or_bfs(const or_graph *g, lg_vertex_t s, int32_t *dist)
{
    lg_vertex_t *queue = or_alloc((size_t)g->n, sizeof *queue);
    for (int64_t v = 0; v < g->n; v++)
        dist[v] = -1;
    int64_t head = 0, tail = 0;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        lg_vertex_t u = queue[head++];
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            lg_vertex_t v = g->idx[e];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
}

/* Checks BFS parents against (oracle) distances: parents[s] == s; a reached
 * v != s has an in-neighbour parent one hop closer; unreached v has -1.
 * Returns -1 when all hold, else the first vertex that breaks one. */
static inline int64_t or_check_parents(const or_graph *g, lg_vertex_t s, const int32_t *dist,
                                       const lg_vertex_t *parents)
{
    for (int64_t v = 0; v < g->n; v++) {
        lg_vertex_t p = parents[v];
        if (v == s) {
            if (p != s)
                return v;
        } else if (dist[v] < 0) {
            if (p != -1)
                return v;
        } else {
            if (p < 0 || p >= g->n || dist[p] < 0 || dist[p] + 1 != dist[v] ||
                !or_has_arc(g, p, (lg_vertex_t)v))
                return v;
        }
    }
    return -1;
}

/*
 * Multi-source, depth-limited BFS: every vertex of sources[0 .. ns) (repeats
 * allowed) is at distance 0, and no vertex at distance max_depth is expanded
 * (max_depth -1: no limit).  dist[v] = hops from the nearest source, -1 when
 * unreached.  With one source and max_depth -1 it is or_bfs.
 */
static inline void or_bfs_multi(const or_graph *g, const lg_vertex_t *sources, int64_t ns,
                                int32_t max_depth, int32_t *dist)
{
    lg_vertex_t *queue = or_alloc((size_t)g->n, sizeof *queue);
    for (int64_t v = 0; v < g->n; v++)
        dist[v] = -1;
    int64_t head = 0, tail = 0;
    for (int64_t i = 0; i < ns; i++)
        if (dist[sources[i]] < 0) {
            dist[sources[i]] = 0;
            queue[tail++] = sources[i];
        }
    while (head < tail) {
        lg_vertex_t u = queue[head++];
        if (max_depth >= 0 && dist[u] >= max_depth)
            continue;
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            lg_vertex_t v = g->idx[e];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
}

/* Checks multi-source BFS parents against (oracle) distances: a vertex at
 * distance 0 (a source) is its own parent; any other reached v has an
 * in-neighbour parent one hop closer; an unreached v has -1.  Returns -1 when
 * all hold, else the first vertex that breaks one. */
static inline int64_t or_check_parents_multi(const or_graph *g, const int32_t *dist,
                                             const lg_vertex_t *parents)
{
    for (int64_t v = 0; v < g->n; v++) {
        lg_vertex_t p = parents[v];
        if (dist[v] == 0) {
            if (p != v)
                return v;
        } else if (dist[v] < 0) {
            if (p != -1)
                return v;
        } else if (p < 0 || p >= g->n || dist[p] < 0 || dist[p] + 1 != dist[v] ||
                   !or_has_arc(g, p, (lg_vertex_t)v)) {
            return v;
        }
    }
    return -1;
}

#endif
