/*
 * oracle_components.h - reference connected components for the tests:
 * union-find over every arc (so weak components of a directed graph), the
 * smaller id kept as the root, so labels[v] is the smallest vertex id of v's
 * component, the canonical labels the library documents.  O(m alpha(n)).
 */
#ifndef LIBGRAPH_TEST_ORACLE_COMPONENTS_H
#define LIBGRAPH_TEST_ORACLE_COMPONENTS_H

#include "oracle_graph.h"

static inline lg_vertex_t or_find(lg_vertex_t *parent, lg_vertex_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Weak components; labels[v] = smallest id in v's component.  Returns the count. */
static inline int64_t or_components(const or_graph *g, lg_vertex_t *labels)
{
    lg_vertex_t *parent = or_alloc((size_t)g->n, sizeof *parent);
    for (int64_t v = 0; v < g->n; v++)
        parent[v] = (lg_vertex_t)v;
    for (int64_t u = 0; u < g->n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            lg_vertex_t a = or_find(parent, (lg_vertex_t)u), b = or_find(parent, g->idx[e]);
            /* keep the smaller id as the root, so the root is the label */
            if (a < b)
                parent[b] = a;
            else if (b < a)
                parent[a] = b;
        }
    int64_t count = 0;
    for (int64_t v = 0; v < g->n; v++) {
        labels[v] = or_find(parent, (lg_vertex_t)v);
        if (labels[v] == v)
            count++;
    }
    free(parent);
    return count;
}

#endif
