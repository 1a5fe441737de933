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
 * skipped.  The format itself records neither directedness nor a vertex
 * count.  libgraph's header line records both, as a comment:
 *
 *   # libgraph edge list: undirected, 6 vertices, unweighted
 *
 * ("directed" or "undirected"; "weighted" or "unweighted"), and the reader
 * honours it when it is the first line.  Without it, an edge list is read as
 * undirected (unless the options ask for directed), n is one more than the
 * largest id, and a .wel gives a weighted graph.  With it, the graph has the
 * stated vertex count (so isolated vertices past the largest id survive),
 * and a .wel whose line says "unweighted" and whose weights are all 1 gives
 * an unweighted graph.
 *
 * NetworkX's read_edgelist and SNAP skip the line as a comment, but GAPBS
 * reads such a file as an empty graph and igraph and pandas.read_csv refuse
 * it, so the writer puts the line first only where the file read without it
 * would be another graph: a directed graph, a last vertex with no edges
 * (n > largest id + 1, the empty graph of n > 0 included), or an unweighted
 * graph written as .wel.  The plain option leaves it out even then.
 *
 * The writer lists every arc of a directed graph and one arc of each edge
 * of an undirected one (u <= v); .wel of an unweighted graph gives weight 1.
 *
 * Errors: LG_ERR_IO "path:line: reason" for the first bad line (an id that
 * is not a non-negative integer or not below LG_MAX_VERTICES, or not below
 * the header line's vertex count, a missing or extra field, a weight that is
 * not a finite number >= 0) and for a header line it cannot read.
 */
#include "io.h"

#include <stdio.h>
#include <string.h>

#define HEADER_PREFIX "# libgraph edge list:"

/* What libgraph's header line records. */
struct el_header {
    bool present;
    lg_directedness_t directedness;
    int64_t n;
    bool unweighted;
};

/* Reads the header line at the start of text, if there is one.  Its fields
 * are comma-separated; unknown ones are skipped, so that later versions may
 * add some. */
static lg_status_t read_header(const char *path, const char *text, struct el_header *h)
{
    memset(h, 0, sizeof *h);
    h->n = -1;
    if (strncmp(text, HEADER_PREFIX, sizeof HEADER_PREFIX - 1) != 0)
        return LG_OK;
    h->present = true;
    const char *p = text + sizeof HEADER_PREFIX - 1;
    while (*p && *p != '\n') {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *f = p;
        while (*p && *p != '\n' && *p != '\r' && *p != ',')
            p++;
        const size_t len = (size_t)(p - f);
        long long count = 0;
        char unit[16];
        if (len == 8 && memcmp(f, "directed", 8) == 0) {
            h->directedness = LG_DIRECTED;
        } else if (len == 10 && memcmp(f, "undirected", 10) == 0) {
            h->directedness = LG_UNDIRECTED;
        } else if (len == 10 && memcmp(f, "unweighted", 10) == 0) {
            h->unweighted = true;
        } else if (len >= 8 && memcmp(f + len - 8, "vertices", 8) == 0) {
            char field[48];
            if (len >= sizeof field ||
                (memcpy(field, f, len), field[len] = 0,
                 sscanf(field, "%lld %15s", &count, unit) != 2) ||
                strcmp(unit, "vertices") != 0 || count < 0 || count > LG_MAX_VERTICES)
                return lg__error(LG_ERR_IO, "%s:1: bad vertex count in the header line", path);
            h->n = count;
        }
        if (*p == '\r')
            p++;
    }
    return LG_OK;
}

bool lg__all_weights_one(const struct lg_edge_arrays *e)
{
    for (int64_t i = 0; e->w64 && i < e->count; i++)
        if (e->w64[i] != 1.0)
            return false;
    for (int64_t i = 0; e->w && i < e->count; i++)
        if (e->w[i] != 1.0f)
            return false;
    return true;
}

static struct lg_line_rules edge_list_rules(lg_file_format_t format)
{
    /* the largest id is one below LG_MAX_VERTICES, so that n = id + 1 fits */
    struct lg_line_rules r = {format,
                              0,
                              (uint64_t)LG_MAX_VERTICES,
                              format == LG_FORMAT_WEL,
                              true,
                              {"source", "destination"},
                              false};
    return r;
}

lg_status_t lg__edge_list_header(const char *path, const struct lg_text *prefix, bool complete,
                                 lg_file_format_t format, struct lg_text_header *out,
                                 bool *need_more)
{
    struct el_header h;
    /* the header is the first line: it must end inside the prefix */
    *need_more = !complete && !memchr(prefix->data, '\n', prefix->size);
    if (*need_more)
        return LG_OK;
    lg_status_t st = read_header(path, prefix->data, &h);
    if (st != LG_OK)
        return st;
    out->rules = edge_list_rules(format);
    out->body = 0; /* the header line is a comment to the parser */
    out->n = h.n;
    out->directedness = h.directedness;
    out->entries = -1;
    out->size_line = 0;
    out->unweighted = h.unweighted;
    return LG_OK;
}

lg_status_t lg__read_edge_list(lg_context_t *context, const char *path, lg_file_format_t format,
                               const lg_graph_options_t *options, lg_graph_t **graph)
{
    struct lg_text_header h;
    struct lg_edge_arrays e = {0};
    lg_status_t st = lg__read_text_edges(path, lg__edge_list_header, format,
                                         options->weight_type == LG_WEIGHTS_FLOAT64,
                                         lg__threads(context),
                                         lg__graph_progress(options), &h, &e);
    if (st == LG_OK && h.n >= 0 && e.max_id >= h.n)
        st = lg__error(LG_ERR_IO, "%s: vertex id %lld, but the header line says %lld vertices",
                       path, (long long)e.max_id, (long long)h.n);
    if (st == LG_OK) {
        if (h.unweighted && lg__all_weights_one(&e)) {
            lg__free(e.w);
            lg__free(e.w64);
            e.w = NULL;
            e.w64 = NULL;
        }
        st = lg__graph_from_text(context, path, h.n >= 0 ? h.n : e.max_id + 1, &e, options,
                                 h.directedness, graph);
    }
    lg__free_edges(&e);
    return st;
}

/* Whether the file read without the header line would be another graph
 * (the reader's defaults above): undirected; n one more than the largest id,
 * which in an undirected graph's symmetric CSR is the last vertex with arcs;
 * a .wel weighted. */
static bool header_needed(const lg_graph_t *g, bool weights)
{
    const lg_edge_t *offsets = g->out.offsets;
    const bool last_vertex_isolated = g->n > 0 && offsets[g->n] == offsets[g->n - 1];
    return g->directed || last_vertex_isolated || (weights && !g->out.weights);
}

lg_status_t lg__write_edge_list(struct lg_out_file *out, const lg_graph_t *g, bool weights,
                                bool plain, int threads)
{
    const struct lg_text_style s = {0, g->directed ? LG_ALL_ARCS : LG_ROW_LE_COL, weights};
    lg_status_t st = LG_OK;
    if (!plain && header_needed(g, weights)) {
        char line[96];
        const int len = snprintf(line, sizeof line, HEADER_PREFIX " %s, %lld vertices, %s\n",
                                 g->directed ? "directed" : "undirected", (long long)g->n,
                                 g->out.weights ? "weighted" : "unweighted");
        st = lg__out_write(out, line, (size_t)len);
    }
    return st != LG_OK ? st : lg__write_arcs(out, g, &s, threads);
}
