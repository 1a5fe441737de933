/*
 * oracle_shapes.h - random test graphs of many shapes (or_random_edges):
 * empty, one vertex, isolated vertices, sparse random, dense with many
 * duplicates, star, path, complete, directed with sinks, disconnected
 * clusters, self-loop heavy and a larger random graph, as COO edge lists with
 * weights that sum exactly in float.  Deterministic for a seed (tu_rand).
 */
#ifndef LIBGRAPH_TEST_ORACLE_SHAPES_H
#define LIBGRAPH_TEST_ORACLE_SHAPES_H

#include "oracle_graph.h"
#include "test_util.h"

typedef struct or_edges {
    int64_t n, E;
    lg_vertex_t *src, *dst;
    float *w; /* E weights, multiples of 1/8 (so sums are exact in float) */
    const char *shape;
} or_edges;

static inline void or_edges_free(or_edges *e)
{
    free(e->src);
    free(e->dst);
    free(e->w);
    memset(e, 0, sizeof *e);
}

static inline int64_t or_rand_below(unsigned long long *rng, int64_t bound)
{
    return bound > 0 ? (int64_t)(tu_rand(rng) % (unsigned long long)bound) : 0;
}

static inline void or_edges_alloc(or_edges *e, int64_t n, int64_t E)
{
    e->n = n;
    e->E = E;
    e->src = or_alloc((size_t)E, sizeof *e->src);
    e->dst = or_alloc((size_t)E, sizeof *e->dst);
    e->w = or_alloc((size_t)E, sizeof *e->w);
}

#define OR_NUM_SHAPES 12

/* A random graph of shape `shape` (0 .. OR_NUM_SHAPES-1): empty, one vertex,
 * isolated vertices, sparse random, dense with many duplicates, star, path,
 * complete, directed with sinks, disconnected clusters, self-loop heavy, and a
 * larger random graph (rows long enough for the library's non-trivial sorts). */
static inline void or_random_edges(or_edges *e, int shape, unsigned long long *rng)
{
    memset(e, 0, sizeof *e);
    int64_t n, E, k = 0;
    switch (shape) {
    case 0:
        e->shape = "empty";
        or_edges_alloc(e, 0, 0);
        break;
    case 1:
        e->shape = "one vertex";
        or_edges_alloc(e, 1, or_rand_below(rng, 4));
        break; /* every edge is the self-loop 0-0 */
    case 2:
        e->shape = "isolated vertices";
        n = 1 + or_rand_below(rng, 20);
        or_edges_alloc(e, n, 0);
        break;
    case 3:
        e->shape = "sparse random";
        n = 2 + or_rand_below(rng, 60);
        E = or_rand_below(rng, 3 * n);
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            e->src[i] = (lg_vertex_t)or_rand_below(rng, n);
            e->dst[i] = (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    case 4:
        e->shape = "dense duplicates";
        n = 2 + or_rand_below(rng, 5);
        E = 10 + or_rand_below(rng, 50);
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            e->src[i] = (lg_vertex_t)or_rand_below(rng, n);
            e->dst[i] = (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    case 5: {
        e->shape = "star";
        n = 2 + or_rand_below(rng, 80);
        lg_vertex_t hub = (lg_vertex_t)or_rand_below(rng, n);
        bool inward = or_rand_below(rng, 3) == 0, mixed = or_rand_below(rng, 3) == 0;
        or_edges_alloc(e, n, n - 1);
        for (int64_t v = 0; v < n; v++) {
            if (v == hub)
                continue;
            bool in = mixed ? or_rand_below(rng, 2) == 0 : inward;
            e->src[k] = in ? (lg_vertex_t)v : hub;
            e->dst[k] = in ? hub : (lg_vertex_t)v;
            k++;
        }
        /* shuffle the edge order: rows are not given sorted */
        for (int64_t i = k - 1; i > 0; i--) {
            int64_t j = or_rand_below(rng, i + 1);
            lg_vertex_t t = e->src[i];
            e->src[i] = e->src[j];
            e->src[j] = t;
            t = e->dst[i];
            e->dst[i] = e->dst[j];
            e->dst[j] = t;
        }
        break;
    }
    case 6: {
        e->shape = "path";
        n = 1 + or_rand_below(rng, 70);
        lg_vertex_t *perm = or_alloc((size_t)n, sizeof *perm);
        for (int64_t v = 0; v < n; v++)
            perm[v] = (lg_vertex_t)v;
        if (or_rand_below(rng, 2))
            for (int64_t i = n - 1; i > 0; i--) {
                int64_t j = or_rand_below(rng, i + 1);
                lg_vertex_t t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
        or_edges_alloc(e, n, n - 1);
        for (int64_t i = 0; i + 1 < n; i++) {
            e->src[i] = perm[i];
            e->dst[i] = perm[i + 1];
        }
        free(perm);
        break;
    }
    case 7:
        e->shape = "complete";
        n = 1 + or_rand_below(rng, 7);
        or_edges_alloc(e, n, n * n);
        for (int64_t u = 0; u < n; u++)
            for (int64_t v = 0; v < n; v++)
                if (u != v) {
                    e->src[k] = (lg_vertex_t)u;
                    e->dst[k] = (lg_vertex_t)v;
                    k++;
                }
        e->E = k;
        break;
    case 8: {
        e->shape = "directed with sinks";
        n = 3 + or_rand_below(rng, 50);
        int64_t sinks = 1 + or_rand_below(rng, n / 2);
        E = or_rand_below(rng, 3 * n);
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            /* sources never among the last `sinks` ids */
            e->src[i] = (lg_vertex_t)or_rand_below(rng, n - sinks);
            e->dst[i] = (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    }
    case 9: {
        e->shape = "disconnected";
        int64_t parts = 2 + or_rand_below(rng, 5), size = 1 + or_rand_below(rng, 12);
        n = parts * size + or_rand_below(rng, 4); /* plus a few isolated vertices */
        E = parts * size * 2;
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            int64_t part = or_rand_below(rng, parts);
            e->src[i] = (lg_vertex_t)(part * size + or_rand_below(rng, size));
            e->dst[i] = (lg_vertex_t)(part * size + or_rand_below(rng, size));
        }
        break;
    }
    case 10:
        e->shape = "self-loop heavy";
        n = 1 + or_rand_below(rng, 15);
        E = or_rand_below(rng, 4 * n);
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            e->src[i] = (lg_vertex_t)or_rand_below(rng, n);
            e->dst[i] = or_rand_below(rng, 3) ? e->src[i] : (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    default:
        e->shape = "larger random";
        n = 50 + or_rand_below(rng, 300);
        E = n * (4 + or_rand_below(rng, 40));
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            /* a skewed source distribution gives some long rows */
            int64_t r = or_rand_below(rng, n);
            e->src[i] = (lg_vertex_t)(or_rand_below(rng, 4) == 0 ? r % 5 : r);
            e->dst[i] = (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    }
    /* weights: multiples of 1/8 in [0, 16), some zero, so every sum is exact */
    for (int64_t i = 0; i < e->E; i++)
        e->w[i] = (float)or_rand_below(rng, 128) / 8.0f;
}

#endif
