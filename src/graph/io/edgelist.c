/*
 * edgelist.c - text edge lists (.el, .wel), reader and writer.
 *
 * The convention is GAPBS's (the GAP Benchmark Suite, Beamer, Asanovic and
 * Patterson, arXiv:1508.03619; its README's "Graph Loading" and
 * src/reader.h), which SNAP's edge lists also follow:
 *
 *   .el   "u v" a line: an arc from u to v, 0-based vertex ids
 *   .wel  "u v w" a line: the same with a weight (finite, >= 0)
 *
 * '#' (SNAP's headers) and '%' start comment lines; blank lines are
 * skipped.  An edge list is directed by default, as in GAPBS.  There is no
 * vertex count: n is one more than the largest id, so isolated vertices
 * above the largest used id do not survive an edge list.
 *
 * The writer lists every arc of a directed graph and one arc of each edge
 * of an undirected one (u <= v); .wel of an unweighted graph gives weight 1.
 *
 * Errors: LG_ERR_IO "path:line: reason" for the first bad line (an id that
 * is not a non-negative integer or not below LG_MAX_VERTICES, a missing or
 * extra field, a weight that is not a finite number >= 0).
 */
#include "io.h"

static struct lg_line_rules edge_list_rules(lg_file_format_t format)
{
    /* the largest id is one below LG_MAX_VERTICES, so that n = id + 1 fits */
    struct lg_line_rules r = {format,
                              0,
                              (uint64_t)LG_MAX_VERTICES,
                              format == LG_FORMAT_WEL,
                              true,
                              {"source", "destination"}};
    return r;
}

lg_status_t lg__read_edge_list(lg_context_t *context, const char *path, lg_file_format_t format,
                               const lg_graph_options_t *options, lg_graph_t **graph)
{
    lg_status_t st;
    struct lg_text t = {0};
    struct lg_edge_arrays e = {0};
    const struct lg_line_rules r = edge_list_rules(format);
    const int threads = lg__threads(context);

    if ((st = lg__load_text(path, threads, &t)) != LG_OK ||
        (st = lg__parse_edges(path, &r, &t, t.data, threads, &e)) != LG_OK)
        goto cleanup;
    st = lg__graph_from_text(context, path, &t, e.max_id + 1, &e, options, false, graph);

cleanup:
    lg__free_edges(&e);
    lg__free(t.data);
    return st;
}

lg_status_t lg__write_edge_list(struct lg_out_file *out, const lg_graph_t *g, bool weights,
                                int threads)
{
    const struct lg_text_style s = {0, g->directed ? LG_ALL_ARCS : LG_ROW_LE_COL, weights};
    return lg__write_arcs(out, g, &s, threads);
}
