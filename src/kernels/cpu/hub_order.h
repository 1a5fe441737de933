/*
 * hub_order.h - degree-based grouping order for CPU PageRank (hub_order.c).
 */
#ifndef LIBGRAPH_HUB_ORDER_H
#define LIBGRAPH_HUB_ORDER_H

#include "internal.h"

#include <stdbool.h>

/* Whether putting the contributions (vector_bytes of them) in hub order
 * pays, with iterations_left iterations still expected. */
LG_INTERNAL bool lg__hub_order_pays(const struct lg_graph_view *g, int threads, size_t vector_bytes,
                                    double iterations_left);

/* rank[u] = u's position in hub order; idx = the in-edge sources renamed
 * (idx[e] = rank[g->in.indices[e]]), both the caller's to free.  false
 * (nothing allocated, the thread's message untouched) when the memory
 * cannot be had. */
LG_INTERNAL bool lg__hub_order(const struct lg_graph_view *g, int threads, lg_vertex_t **rank,
                               lg_vertex_t **idx);

#endif
