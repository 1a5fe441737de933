/*
 * kernel_graphs.h - the graphs the kernel tests (test_bfs*.c, test_pagerank*.c,
 * test_components.c) are built from, and the oracle's copy of each:
 *
 *   struct elist   a growing COO edge list: random arcs among a range of
 *                  vertices, paths (optionally with alternating directions,
 *                  connected only weakly), and a random renaming of the
 *                  vertices, so no shape lines up with the ids
 *   struct tgraph  a library graph and the oracle graph of the same edges
 *                  (tgraph_from_elist), or of lg_generate's CSR
 *                  (tgraph_generate), built on ctx[k] of harness.h
 */
#ifndef LIBGRAPH_TEST_KERNEL_GRAPHS_H
#define LIBGRAPH_TEST_KERNEL_GRAPHS_H

#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

/* ---- edge lists ---------------------------------------------------------------------- */

struct elist {
    int64_t n, E, cap;
    lg_vertex_t *src, *dst;
    float *w;
};

static inline void el_init(struct elist *el, int64_t n)
{
    memset(el, 0, sizeof *el);
    el->n = n;
}

static inline void el_free(struct elist *el)
{
    free(el->src);
    free(el->dst);
    free(el->w);
    memset(el, 0, sizeof *el);
}

static inline void el_add(struct elist *el, int64_t u, int64_t v, float w)
{
    if (el->E == el->cap) {
        el->cap = el->cap ? 2 * el->cap : 1024;
        el->src = realloc(el->src, (size_t)el->cap * sizeof *el->src);
        el->dst = realloc(el->dst, (size_t)el->cap * sizeof *el->dst);
        el->w = realloc(el->w, (size_t)el->cap * sizeof *el->w);
        if (!el->src || !el->dst || !el->w) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    el->src[el->E] = (lg_vertex_t)u;
    el->dst[el->E] = (lg_vertex_t)v;
    el->w[el->E] = w;
    el->E++;
}

/* A weight in (0, 8], a multiple of 1/8, so sums are exact in float. */
static inline float rand_weight(unsigned long long *rng)
{
    return (float)(1 + or_rand_below(rng, 64)) / 8.0f;
}

/* count uniform random arcs among the vertices [lo, lo + size). */
static inline void el_random(struct elist *el, int64_t lo, int64_t size, int64_t count,
                             unsigned long long *rng)
{
    for (int64_t i = 0; i < count; i++)
        el_add(el, lo + or_rand_below(rng, size), lo + or_rand_below(rng, size), rand_weight(rng));
}

/* A path lo -> lo+1 -> ... -> lo+len-1; `alternate` turns every second arc
 * round (lo -> lo+1 <- lo+2 -> ...), so only weak connectivity holds. */
static inline void el_path(struct elist *el, int64_t lo, int64_t len, bool alternate)
{
    for (int64_t i = 0; i + 1 < len; i++) {
        if (alternate && i % 2)
            el_add(el, lo + i + 1, lo + i, 1.0f);
        else
            el_add(el, lo + i, lo + i + 1, 1.0f);
    }
}

/* Renames the vertices by a random permutation, so no shape lines up with ids. */
static inline void el_permute(struct elist *el, unsigned long long *rng)
{
    lg_vertex_t *perm = or_alloc((size_t)el->n, sizeof *perm);
    for (int64_t v = 0; v < el->n; v++)
        perm[v] = (lg_vertex_t)v;
    for (int64_t i = el->n - 1; i > 0; i--) {
        int64_t j = or_rand_below(rng, i + 1);
        lg_vertex_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int64_t i = 0; i < el->E; i++) {
        el->src[i] = perm[el->src[i]];
        el->dst[i] = perm[el->dst[i]];
    }
    free(perm);
}

/* ---- graphs under test: the library's and the oracle's ------------------------------- */

struct tgraph {
    lg_graph_t *g;
    or_graph o;
};

static inline void tgraph_free(struct tgraph *t)
{
    lg_graph_free(&t->g);
    or_graph_free(&t->o);
}

static inline lg_graph_options_t graph_options(bool directed)
{
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = directed ? LG_DIRECTED : LG_UNDIRECTED;
    return go;
}

/* Builds the library's graph and the oracle's from one edge list. */
static inline bool tgraph_from_elist(struct tgraph *t, const struct elist *el, bool directed,
                                     bool weighted, int k)
{
    memset(t, 0, sizeof *t);
    lg_graph_options_t go = graph_options(directed);
    const float *w = weighted ? el->w : NULL;
    lg_status_t st = lg_graph_from_edges(ctx[k], el->n, el->E, el->src, el->dst, w, &go, &t->g);
    CHECK(st == LG_OK);
    if (st != LG_OK) {
        report("lg_graph_from_edges: %s: %s", lg_status_string(st), lg_last_error());
        return false;
    }
    or_build(&t->o, el->n, el->E, el->src, el->dst, w, &go);
    return true;
}

/* A Kronecker (or uniform) graph from lg_generate; the oracle reads its CSR. */
static inline bool tgraph_generate(struct tgraph *t, lg_generator_t gen, int scale, int edge_factor,
                                   uint64_t seed, bool directed, int k)
{
    memset(t, 0, sizeof *t);
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = LG_DIRECTED;
    go.drop_self_loops = true;
    go.duplicates = LG_DUPLICATES_FIRST;
    /* NULL: the GAP convention, undirected, no self-loops, duplicates merged */
    lg_status_t st =
        lg_generate(ctx[k], gen, scale, edge_factor, seed, directed ? &go : NULL, &t->g);
    CHECK(st == LG_OK);
    if (st != LG_OK) {
        report("lg_generate: %s: %s", lg_status_string(st), lg_last_error());
        return false;
    }
    const lg_edge_t *off = NULL;
    const lg_vertex_t *idx = NULL;
    CHECK_OK(lg_graph_csr(t->g, &off, &idx, NULL));
    CHECK(lg_graph_is_directed(t->g) == directed);
    const int64_t n = lg_graph_num_vertices(t->g), m = lg_graph_num_edges(t->g);
    CHECK(n == (int64_t)1 << scale);
    if (!off || !idx || n != (int64_t)1 << scale) {
        lg_graph_free(&t->g);
        return false;
    }
    t->o.n = n;
    t->o.m = m;
    t->o.directed = directed;
    t->o.off = or_alloc((size_t)n + 1, sizeof *t->o.off);
    t->o.idx = or_alloc((size_t)m, sizeof *t->o.idx);
    memcpy(t->o.off, off, ((size_t)n + 1) * sizeof *off);
    memcpy(t->o.idx, idx, (size_t)m * sizeof *idx);
    return true;
}

/* A fresh copy of t's graph (so no device copy is cached on it yet). */
static inline lg_graph_t *tgraph_fresh_copy(const struct tgraph *t)
{
    const lg_edge_t *off = NULL;
    const lg_vertex_t *idx = NULL;
    const float *w = NULL;
    lg_graph_t *g = NULL;
    lg_graph_options_t go = graph_options(t->o.directed);
    CHECK_OK(lg_graph_csr(t->g, &off, &idx, &w));
    CHECK_OK(lg_graph_from_csr(ctx[0], t->o.n, off, idx, w, &go, &g));
    return g;
}

static inline lg_vertex_t max_out_degree_vertex(const or_graph *o)
{
    lg_vertex_t best = 0;
    for (int64_t v = 1; v < o->n; v++)
        if (o->off[v + 1] - o->off[v] > o->off[best + 1] - o->off[best])
            best = (lg_vertex_t)v;
    return best;
}

#endif
