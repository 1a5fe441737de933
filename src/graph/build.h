/*
 * build.h - what the graph builders share (csr.c, build.c, build_csr.c,
 * graph.c): the arc pipeline that turns arcs into sorted CSR rows.
 */
#ifndef LIBGRAPH_BUILD_H
#define LIBGRAPH_BUILD_H

#include "internal.h"

/* ---- csr.c: CSR primitives ------------------------------------------------ */

LG_INTERNAL void lg__csr_free(struct lg_csr *csr);

/* counts[0..n) -> offsets[0..n]: exclusive prefix sums, counts[n] := the
 * total (counts[n] is ignored on input); returns the total. */
LG_INTERNAL lg_edge_t lg__offsets_from_counts(lg_edge_t *a, int64_t n, int threads);

/* Arcs to sort: arc i is src[i] -> dst[i], except that one of src and dst
 * may be NULL when the arcs are a CSR's: that side of arc i is then its row
 * (rows[r] <= i < rows[r + 1]), found by walking the offsets, so no array of
 * row ids is written and read back. */
struct lg__arc_source {
    int64_t n, E;
    const lg_vertex_t *src, *dst;
    const lg_edge_t *rows;
    const float *w;     /* weights riding along, or NULL */
    const double *w64;  /* float64 weights riding along, or NULL */
    bool add_reverse, drop_loops;
    /* NULL, or the offsets of an n-row CSR: row v of the sort's output then
     * starts with room[v + 1] - room[v] slots left for the caller to fill */
    const lg_edge_t *room;
    /* bytes the builder holds through the sort and frees after it (edges it
     * owns), counted in the sort's estimate of the build's peak */
    size_t held;
};

/* The row of a CSR holding arc i: rows[r] <= i < rows[r + 1] (i < rows[n]). */
LG_INTERNAL int64_t lg__row_of_arc(const lg_edge_t *rows, int64_t n, int64_t i);

/* Stable counting sort of an arc source by source vertex: out gets the rows,
 * each row's arcs in input order.  *m_out = the number of arcs.  The count
 * is reported to progress (build steps 2 .. lg__build_counted), which may stop it. */
LG_INTERNAL lg_status_t lg__counting_sort(const struct lg__arc_source *a, int threads,
                                          struct lg_progress progress, struct lg_csr *out,
                                          int64_t *m_out);

/* The transpose of an n-row CSR with m arcs: rows become columns, each sorted. */
LG_INTERNAL lg_status_t lg__csr_transpose(int64_t n, int64_t m, const struct lg_csr *in,
                                          int threads, struct lg_csr *out);

/* ---- build.c: edges to a graph ----------------------------------------------- */

/* The message for edge i (u -> v, weight *w or no weight) that failed
 * validation. */
LG_INTERNAL lg_status_t lg__report_bad_edge(const char *fn, int64_t i, int64_t n, lg_vertex_t u,
                                            lg_vertex_t v, const double *w);
/* The input's weights (*w float32, or *w64 float64, or neither) as `type`
 * asks (LG_WEIGHTS_NONE: as they are): a converted copy in *copy, which the
 * caller frees, with *w and *w64 pointed at it. */
LG_INTERNAL lg_status_t lg__weights_as(const char *fn, lg_weight_type_t type, int64_t m,
                                       const float **w, const double **w64, void **copy,
                                       int threads);
LG_INTERNAL lg_status_t lg__check_graph_options(const char *fn, const lg_graph_options_t *o);
/* How every function that makes a graph starts: checks graph and clears
 * *graph, points *options at *defaults (filled) when it is NULL, and checks
 * the options. */
LG_INTERNAL lg_status_t lg__graph_options_start(const char *fn, lg_graph_t **graph,
                                                const lg_graph_options_t **options,
                                                lg_graph_options_t *defaults);
LG_INTERNAL lg_status_t lg__check_counts(const char *fn, int64_t n, int64_t E);

/* Sorts every row of a CSR by destination (stably, when `sort`) and merges
 * duplicate arcs by the policy, compacting the arrays; *m is updated.  On
 * failure the CSR is unusable and must be freed. */
LG_INTERNAL lg_status_t lg__finish_rows(int64_t n, struct lg_csr *c, int64_t *m,
                                        lg_duplicates_t policy, bool sort, int threads,
                                        struct lg_progress progress);

/* Builds a graph from validated arcs (COO arrays, or a CSR when src is NULL
 * and rows holds its offsets). */
LG_INTERNAL lg_status_t lg__build_from_arcs(int64_t n, int64_t E, const lg_vertex_t *src,
                                            const lg_vertex_t *dst, const lg_edge_t *rows,
                                            const float *w, const double *w64, bool directed,
                                            bool add_reverse,
                                            const lg_graph_options_t *o, int threads,
                                            lg_graph_t **graph);

#endif /* LIBGRAPH_BUILD_H */
