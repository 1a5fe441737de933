/*
 * pagerank.h - what CPU PageRank (pagerank.c) shares with the segmented
 * layout of its in-arcs (pagerank_segments.c).
 */
#ifndef LIBGRAPH_PAGERANK_H
#define LIBGRAPH_PAGERANK_H

#include "internal.h"

#include <stdbool.h>

/* The per-run constants every iteration reads. */
struct pr_setup {
    int64_t n;
    double alpha;
    const lg_edge_t *off; /* in-edges (CSC) */
    const lg_vertex_t *idx;
    const float *w;          /* in-edge weights, NULL = all 1 */
    const double *inv_out;   /* 1 / out-weight, 0 for dangling vertices */
    const float *inv_out_f;  /* the same in float, for the float variant */
    const double *p, *d;     /* NULL = uniform 1/n */
    const lg_vertex_t *rank; /* c is stored in this order (hub_order), NULL = by vertex id */
    int threads;
    bool one_loop; /* float rows summed in one loop (row_loop_f32), not in trees */
};

/* What a block of rows adds to an iteration's two sums. */
struct pr_sums {
    double err;      /* sum |x' - x| */
    double dangling; /* sum of x' over dangling vertices, for the next iteration */
};

/* ---- CSR segmenting (pagerank_segments.c) -------------------------------------- */

/* The in-arcs cut by source into segments whose contributions fit in a
 * slice of the last-level cache: segment j holds the arcs from sources
 * [j << shift, (j + 1) << shift), row by row (pairs: a destination and its
 * arcs of the segment). */
struct lg_seg {
    int64_t count;       /* segments */
    int64_t *pair_begin; /* segment j's pairs: [pair_begin[j], pair_begin[j + 1]) */
    lg_vertex_t *row;    /* a pair's destination */
    lg_edge_t *off;      /* a pair's arcs: [off[p], off[p + 1]) of idx and w */
    lg_vertex_t *idx;    /* sources */
    float *w;            /* weights alongside, NULL = all 1 */
    double *sum;         /* n row sums, an iteration's */
};

/* Whether segmenting pays for a graph of n vertices and m arcs whose
 * contributions take elem bytes each, with iterations_left iterations
 * still expected. */
LG_INTERNAL bool lg__seg_pays(int64_t n, int64_t m, size_t elem, double iterations_left);

/* The segmented layout of the in-arcs (weights when use_weights) for
 * contributions of elem bytes; NULL (nothing allocated, the thread's message
 * untouched) when its memory cannot be had or a row's sources are not
 * sorted. */
LG_INTERNAL struct lg_seg *lg__seg_make(const struct lg_graph_view *g, bool use_weights,
                                        size_t elem, int threads);
LG_INTERNAL void lg__seg_free(struct lg_seg *seg);

/* cpu0's data or unified cache at `level` (1 to 3; 0: the highest there
 * is) in bytes, from sysfs; 0 when the system does not say. */
LG_INTERNAL size_t lg__cache_bytes(int level);

/* Whether float PageRank sums its rows in one loop (row_loop_f32) rather
 * than in trees (row_sum_f32) where the gathers are scalar: where they land
 * mostly in the last-level cache -- a contribution vector of vector_bytes
 * larger than the L2 and at most a quarter of the last level, by vertex id
 * (hub order puts most gathers in L1 and L2).  Measured on the 2-core
 * machine (docs/decisions/pagerank-row-sums.md): one loop faster on urand:19 to urand:21 and
 * kron:20, the trees on kron:18, urand:22 (a vector half the last level)
 * and kron:22 in hub order. */
LG_INTERNAL bool lg__one_loop_pays(size_t vector_bytes, bool hub_order);

#endif
