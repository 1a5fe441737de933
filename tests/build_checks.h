/*
 * build_checks.h - how the builder's tests (test_build.c, test_build_csr.c)
 * judge a built graph against the oracle builder of oracle_graph.h:
 *
 *   graph_matches  everything observable about a graph, array for array: the
 *                  counts and flags, the CSR offsets, indices and weights, the
 *                  CSC (the oracle's transpose; for undirected graphs the CSR
 *                  itself), out- and in-degrees
 *   same_csr       two built graphs with the same arrays (thread-count
 *                  independence)
 *   set_options    the combination combo of the build options: directedness,
 *                  symmetrize, drop_self_loops, the six duplicate policies
 */
#ifndef LIBGRAPH_TEST_BUILD_CHECKS_H
#define LIBGRAPH_TEST_BUILD_CHECKS_H

#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

/* What graph_matches found different, for the failure report. */
static const char *mismatch = "";

/* A failure report: what failed and what differed, on which graph and options. */
static inline void report_build(const char *what, const char *shape, unsigned long long seed,
                                const lg_graph_options_t *o, bool weighted, int threads)
{
    graph_subject(shape, seed, o, weighted);
    report("%s%s%s, %d threads", what, mismatch[0] ? ", " : "", mismatch, threads);
    mismatch = "";
}

/* Everything observable about a built graph, against the oracle's graph.
 * Returns true when all of it matches, else false with `mismatch` set. */
static inline bool graph_matches(const lg_graph_t *g, const or_graph *o)
{
    const lg_edge_t *off = NULL, *coff = NULL;
    const lg_vertex_t *idx = NULL, *cidx = NULL;
    const float *w = NULL, *cw = NULL;
    bool ok = true;

    mismatch = "";
    if (lg_graph_num_vertices(g) != o->n || lg_graph_num_edges(g) != o->m) {
        mismatch = "num_vertices or num_edges";
        return false;
    }
    if (lg_graph_is_directed(g) != o->directed || lg_graph_is_weighted(g) != (o->w != NULL)) {
        mismatch = "is_directed or is_weighted";
        return false;
    }
    if (lg_graph_csr(g, &off, &idx, &w) != LG_OK ||
        !or_csr_equal(o->n, off, idx, w, o->off, o->idx, o->w)) {
        mismatch = "CSR arrays";
        return false;
    }
    if (lg_graph_csc(g, &coff, &cidx, &cw) != LG_OK) {
        mismatch = "lg_graph_csc status";
        return false;
    }
    if (o->directed) {
        or_graph t;
        or_transpose(o, &t);
        ok = or_csr_equal(o->n, coff, cidx, cw, t.off, t.idx, t.w);
        or_graph_free(&t);
    } else {
        /* "for an undirected graph they are the CSR arrays" */
        ok = coff == off && cidx == idx && cw == w;
    }
    if (!ok) {
        mismatch = "CSC arrays";
        return false;
    }

    lg_edge_t *deg = or_alloc((size_t)o->n, sizeof *deg);
    lg_edge_t *in_count = or_alloc((size_t)o->n, sizeof *in_count);
    if (lg_graph_out_degrees(g, deg) != LG_OK)
        ok = false;
    for (int64_t v = 0; ok && v < o->n; v++)
        ok = deg[v] == o->off[v + 1] - o->off[v];
    if (!ok)
        mismatch = "out-degrees";
    for (int64_t e = 0; e < o->m; e++)
        in_count[o->idx[e]]++;
    if (ok && lg_graph_in_degrees(g, deg) != LG_OK)
        ok = false, mismatch = "in-degrees status";
    for (int64_t v = 0; ok && v < o->n; v++)
        if (deg[v] != in_count[v])
            ok = false, mismatch = "in-degrees";
    free(deg);
    free(in_count);
    return ok;
}

/* Two built graphs with the same arrays (the thread-count independence check). */
static inline bool same_csr(const lg_graph_t *a, const lg_graph_t *b)
{
    const lg_edge_t *oa, *ob;
    const lg_vertex_t *ia, *ib;
    const float *wa, *wb;
    if (lg_graph_num_vertices(a) != lg_graph_num_vertices(b))
        return false;
    if (lg_graph_csr(a, &oa, &ia, &wa) != LG_OK || lg_graph_csr(b, &ob, &ib, &wb) != LG_OK)
        return false;
    return or_csr_equal(lg_graph_num_vertices(a), oa, ia, wa, ob, ib, wb);
}

static inline void set_options(lg_graph_options_t *o, int combo)
{
    lg_graph_options_init(o);
    o->directedness = (lg_directedness_t)(combo % 3);
    o->symmetrize = (combo / 3) % 2;
    o->drop_self_loops = (combo / 6) % 2;
    o->duplicates = (lg_duplicates_t)((combo / 12) % 6);
}
#define NUM_COMBOS (3 * 2 * 2 * 6)

#endif
