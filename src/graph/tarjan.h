/*
 * tarjan.h - Tarjan's strongly connected components (SIAM J. Computing
 * 1972), iterative, over the vertices a parallel method left: the last step
 * of the SCC kernels of both backends (src/kernels/cpu/scc.c, and the GPU's
 * on the host: src/kernels/hip/scc.hip).
 *
 * label[v] >= 0 marks a vertex whose component is already known: its arcs
 * are not followed.  Every other vertex gets the smallest id of its
 * component.  The caller lends the work arrays (n elements each).
 *
 * Included by C and by C++ host code: plain C only.
 */
#ifndef LIBGRAPH_TARJAN_H
#define LIBGRAPH_TARJAN_H

#include "libgraph.h"

#include <string.h>

struct lg_tarjan {
    int64_t n;
    const lg_edge_t *off;     /* the out-arcs, n + 1 */
    const lg_vertex_t *idx;
    lg_vertex_t *label;       /* n: -1 for the vertices left */
    lg_edge_t *index, *low;   /* n each */
    lg_vertex_t *stack, *calls; /* n each: the component stack, the call stack */
    lg_edge_t *arc;           /* n: each call's next arc */
    unsigned char *on_stack;  /* n */
};

static inline void lg_tarjan_rest(const struct lg_tarjan *t)
{
    const int64_t n = t->n;
    lg_vertex_t *label = t->label, *stack = t->stack, *calls = t->calls;
    lg_edge_t *index = t->index, *low = t->low, *arc = t->arc;
    memset(t->on_stack, 0, (size_t)n);
    for (int64_t v = 0; v < n; v++)
        index[v] = -1;
    lg_edge_t counter = 0;
    int64_t top = 0;
    for (int64_t root = 0; root < n; root++) {
        if (label[root] >= 0 || index[root] >= 0)
            continue;
        int64_t depth = 0;
        calls[0] = (lg_vertex_t)root;
        arc[0] = t->off[root];
        index[root] = low[root] = counter++;
        stack[top++] = (lg_vertex_t)root;
        t->on_stack[root] = 1;
        while (depth >= 0) {
            const lg_vertex_t v = calls[depth];
            if (arc[depth] < t->off[v + 1]) {
                const lg_vertex_t u = t->idx[arc[depth]++];
                if (label[u] >= 0)
                    continue; /* a component found before */
                if (index[u] < 0) {
                    index[u] = low[u] = counter++;
                    stack[top++] = u;
                    t->on_stack[u] = 1;
                    calls[++depth] = u;
                    arc[depth] = t->off[u];
                } else if (t->on_stack[u] && index[u] < low[v]) {
                    low[v] = index[u];
                }
                continue;
            }
            if (low[v] == index[v]) { /* v roots a component: pop it */
                int64_t k = top;
                lg_vertex_t smallest = v;
                do {
                    k--;
                    if (stack[k] < smallest)
                        smallest = stack[k];
                } while (stack[k] != v);
                for (int64_t i = k; i < top; i++) {
                    t->on_stack[stack[i]] = 0;
                    label[stack[i]] = smallest;
                }
                top = k;
            }
            depth--;
            if (depth >= 0 && low[v] < low[calls[depth]])
                low[calls[depth]] = low[v];
        }
    }
}

#endif /* LIBGRAPH_TARJAN_H */
