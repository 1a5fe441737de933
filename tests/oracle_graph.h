/*
 * oracle_graph.h - the oracle's graphs: COO edges -> CSR as lg_graph_from_edges
 * documents it, by sorting an arc list with qsort on (source, destination,
 * input index) and merging runs; the in-edge (CSC) view; arc lookup; CSR
 * equality.  O(m log m) and obviously correct, written from include/libgraph.h
 * alone.  The other oracle_*.h headers read these graphs.
 *
 * Everything is static inline so a test that uses only part of it compiles
 * without unused-function warnings.  Allocation failures exit the test
 * program (the oracles are not under test).
 */
#ifndef LIBGRAPH_TEST_ORACLE_GRAPH_H
#define LIBGRAPH_TEST_ORACLE_GRAPH_H

#include "libgraph.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *or_alloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "oracle: out of memory\n");
        exit(2);
    }
    return p;
}

typedef struct or_graph {
    int64_t n, m;
    bool directed;
    lg_edge_t *off;   /* n + 1 */
    lg_vertex_t *idx; /* m */
    float *w;         /* m, or NULL when unweighted */
} or_graph;

static inline void or_graph_free(or_graph *g)
{
    free(g->off);
    free(g->idx);
    free(g->w);
    memset(g, 0, sizeof *g);
}

struct or_arc {
    lg_vertex_t u, v;
    int64_t seq; /* input position: ties between parallel arcs keep input order */
    float w;
};

static inline int or_arc_cmp(const void *pa, const void *pb)
{
    const struct or_arc *a = pa, *b = pb;
    if (a->u != b->u)
        return a->u < b->u ? -1 : 1;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return 0;
}

/* Sorts arcs and turns them into g's CSR, merging parallel arcs by policy. */
static inline void or_arcs_to_csr(or_graph *g, int64_t n, struct or_arc *arcs, int64_t A,
                                  bool weighted, lg_duplicates_t policy)
{
    qsort(arcs, (size_t)A, sizeof *arcs, or_arc_cmp);
    g->n = n;
    g->off = or_alloc((size_t)n + 1, sizeof *g->off);
    g->idx = or_alloc((size_t)A, sizeof *g->idx);
    g->w = weighted ? or_alloc((size_t)A, sizeof *g->w) : NULL;
    int64_t m = 0;
    for (int64_t i = 0; i < A;) {
        int64_t j = i;
        while (j < A && arcs[j].u == arcs[i].u && arcs[j].v == arcs[i].v)
            j++;
        if (policy == LG_DUPLICATES_KEEP) {
            for (int64_t k = i; k < j; k++) {
                g->idx[m] = arcs[k].v;
                if (weighted)
                    g->w[m] = arcs[k].w;
                g->off[arcs[k].u + 1]++;
                m++;
            }
        } else {
            float acc = arcs[i].w;
            for (int64_t k = i + 1; k < j; k++) {
                float x = arcs[k].w;
                switch (policy) {
                case LG_DUPLICATES_SUM: acc = acc + x; break;
                case LG_DUPLICATES_MIN: acc = x < acc ? x : acc; break;
                case LG_DUPLICATES_MAX: acc = x > acc ? x : acc; break;
                case LG_DUPLICATES_FIRST: break;
                case LG_DUPLICATES_LAST: acc = x; break;
                default: break;
                }
            }
            g->idx[m] = arcs[i].v;
            if (weighted)
                g->w[m] = acc;
            g->off[arcs[i].u + 1]++;
            m++;
        }
        i = j;
    }
    for (int64_t v = 0; v < n; v++)
        g->off[v + 1] += g->off[v];
    g->m = m;
}

/*
 * The graph lg_graph_from_edges should build: directed unless the options say
 * LG_UNDIRECTED; an undirected edge (and, with symmetrize, a directed one)
 * gives the arcs u->v and v->u, a self-loop only one; self-loops dropped on
 * request; parallel arcs merged by the duplicates policy, in input order.
 */
static inline void or_build(or_graph *g, int64_t n, int64_t E, const lg_vertex_t *src,
                            const lg_vertex_t *dst, const float *w, const lg_graph_options_t *opts)
{
    lg_graph_options_t defaults;
    if (!opts) {
        lg_graph_options_init(&defaults);
        opts = &defaults;
    }
    const bool directed = opts->directedness == LG_DIRECTED;
    const bool add_reverse = !directed || opts->symmetrize;
    struct or_arc *arcs = or_alloc((size_t)(2 * E), sizeof *arcs);
    int64_t A = 0;
    for (int64_t i = 0; i < E; i++) {
        lg_vertex_t u = src[i], v = dst[i];
        float x = w ? w[i] : 1.0f;
        if (u == v && opts->drop_self_loops)
            continue;
        arcs[A++] = (struct or_arc){u, v, i, x};
        if (add_reverse && u != v)
            arcs[A++] = (struct or_arc){v, u, i, x};
    }
    memset(g, 0, sizeof *g);
    or_arcs_to_csr(g, n, arcs, A, w != NULL, opts->duplicates);
    g->directed = directed;
    free(arcs);
}

/* The transpose: column v lists the sources of the arcs into v, ascending;
 * parallel arcs keep their order within the source row. */
static inline void or_transpose(const or_graph *g, or_graph *t)
{
    struct or_arc *arcs = or_alloc((size_t)g->m, sizeof *arcs);
    for (int64_t u = 0; u < g->n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++)
            arcs[e] = (struct or_arc){g->idx[e], (lg_vertex_t)u, e, g->w ? g->w[e] : 1.0f};
    memset(t, 0, sizeof *t);
    or_arcs_to_csr(t, g->n, arcs, g->m, g->w != NULL, LG_DUPLICATES_KEEP);
    t->directed = g->directed;
    free(arcs);
}

/* Is there an arc u -> v?  (Rows are sorted.) */
static inline bool or_has_arc(const or_graph *g, lg_vertex_t u, lg_vertex_t v)
{
    lg_edge_t lo = g->off[u], hi = g->off[u + 1];
    while (lo < hi) {
        lg_edge_t mid = lo + (hi - lo) / 2;
        if (g->idx[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->off[u + 1] && g->idx[lo] == v;
}

/* Exact equality of two CSRs (offsets, indices, weights bit for bit). */
static inline bool or_csr_equal(int64_t n, const lg_edge_t *off_a, const lg_vertex_t *idx_a,
                                const float *w_a, const lg_edge_t *off_b, const lg_vertex_t *idx_b,
                                const float *w_b)
{
    if (!off_a || !off_b)
        return false;
    if (memcmp(off_a, off_b, (size_t)(n + 1) * sizeof *off_a) != 0)
        return false;
    int64_t m = off_a[n];
    if (m > 0 && (!idx_a || !idx_b || memcmp(idx_a, idx_b, (size_t)m * sizeof *idx_a) != 0))
        return false;
    if ((w_a == NULL) != (w_b == NULL))
        return false;
    if (w_a && m > 0 && memcmp(w_a, w_b, (size_t)m * sizeof *w_a) != 0)
        return false;
    return true;
}

#endif
