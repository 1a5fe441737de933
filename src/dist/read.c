/*
 * read.c - lg_dist_graph_read: a graph file loaded by every rank at once.
 *
 * Rank r reads part r of P with lg_read_edges (libgraph's: a byte range of a
 * text file's body, cut at line starts; rows of a .lgb balanced on arcs),
 * so no rank reads or holds more than its share, and the edges then go to
 * their owners as lg_dist_graph_from_edges sends them.  What the file
 * records decides as it does for lg_graph_read: its vertex count, its
 * directedness (a text file's, overridable; a .lgb's, only repeatable), and
 * a .mtx's entry count, checked against the sum of the parts; a .lgb's
 * checksum is checked against the parts' shares of it, summed.
 */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

/* Whether the file is read as a .lgb (named so, or by its extension). */
static bool is_lgb(const char *path, lg_file_format_t format)
{
    if (format != LG_FORMAT_AUTO)
        return format == LG_FORMAT_BINARY;
    const char *slash = strrchr(path, '/'), *dot = strrchr(slash ? slash + 1 : path, '.');
    return dot && (dot[1] | 0x20) == 'l' && (dot[2] | 0x20) == 'g' && (dot[3] | 0x20) == 'b' &&
           !dot[4];
}

/* The build options for what the file records, as lg_graph_read chooses them. */
static lg_status_t build_options(const char *path, bool lgb, const lg_edge_part_t *p,
                                 const lg_dist_graph_options_t *asked, lg_dist_graph_options_t *b)
{
    *b = *asked;
    const lg_directedness_t recorded = p->directedness;
    if (p->both_arcs) { /* an undirected .lgb: what it stores wins */
        if (asked->directedness == LG_DIRECTED)
            return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                  "lg_dist_graph_read: %s holds an undirected graph, but the "
                                  "options ask for a directed one",
                                  path);
        b->directedness = LG_UNDIRECTED;
        b->symmetrize = false;
    } else if (lgb && asked->directedness == LG_UNDIRECTED) {
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                              "lg_dist_graph_read: %s holds a directed graph, but the options ask "
                              "for an undirected one",
                              path);
    } else if (b->directedness == LG_DIRECTEDNESS_DEFAULT) {
        b->directedness = recorded == LG_DIRECTED ? LG_DIRECTED : LG_UNDIRECTED;
    } else if (b->directedness == LG_DIRECTED && recorded == LG_UNDIRECTED) {
        b->symmetrize = true; /* both arcs of every entry, as lg_graph_read keeps them */
    }
    b->num_vertices = p->num_vertices;
    return LG_OK;
}

lg_status_t lg_dist_graph_read(lg_dist_context_t *c, const char *path, lg_file_format_t format,
                               const lg_dist_graph_options_t *options, lg_dist_graph_t **graph)
{
    static const char fn[] = "lg_dist_graph_read";
    if (!c)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: context is NULL", fn);
    lg_dist_graph_options_t asked;
    lg_dist_graph_options_init(&asked);
    if (options)
        asked = *options;
    lg_edge_part_t p;
    memset(&p, 0, sizeof p);
    lg_status_t st = LG_OK;
    if (!graph)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    else if (!path)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: path is NULL", fn);
    else if (asked.num_vertices != -1)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                            "%s: num_vertices must be -1: the file says how many", fn);
    else
        st = lg_read_edges(c->local, path, format, c->rank, c->size, &p);
    if ((st = lg__dist_agree(c, st)) != LG_OK) {
        lg_edge_part_free(&p); /* this rank's part, when another rank's failed */
        return st;
    }

    /* a .lgb's checksum covers the whole file: the parts' shares, summed */
    uint64_t check[LG_EDGE_PART_CHECKSUMS];
    memcpy(check, p.checksum, sizeof check);
    int rc =
        MPI_Allreduce(MPI_IN_PLACE, check, LG_EDGE_PART_CHECKSUMS, MPI_UINT64_T, MPI_SUM, c->comm);
    st = rc == MPI_SUCCESS ? lg_read_edges_verify(c->local, path, format, check)
                           : lg__dist_mpi_error(rc, "MPI_Allreduce");
    if ((st = lg__dist_agree(c, st)) != LG_OK) {
        lg_edge_part_free(&p);
        return st;
    }

    lg_dist_graph_options_t b;
    int64_t *ids = NULL;
    float *ones = NULL;
    /* the parts' counts against a .mtx's size line; weights on every rank if on any */
    int64_t sums[2] = {p.count, p.weights != NULL};
    st = lg__dist_sum_i64(c, sums, 2);
    if (st == LG_OK && p.declared_edges >= 0 && sums[0] != p.declared_edges)
        st = lg__dist_error(LG_ERR_IO,
                            "%s: the size line declares %lld entries, but the file has %lld", path,
                            (long long)p.declared_edges, (long long)sums[0]);
    if (st == LG_OK)
        st = build_options(path, is_lgb(path, format), &p, &asked, &b);
    if (st == LG_OK) {
        ids = lg__dist_alloc((size_t)p.count, 2 * sizeof *ids, "the file's edges");
        if (sums[1] && !p.weights)
            ones = lg__dist_alloc((size_t)p.count, sizeof *ones, "the file's weights");
        if (!ids || (sums[1] && !p.weights && !ones))
            st = LG_ERR_OUT_OF_MEMORY;
    }
    if (st == LG_OK) {
        for (int64_t i = 0; i < p.count; i++) {
            ids[i] = p.src[i];
            ids[p.count + i] = p.dst[i];
        }
        for (int64_t i = 0; ones && i < p.count; i++)
            ones[i] = 1.0f;
    }
    const float *w = p.weights ? p.weights : ones;
    int64_t *dst = ids ? ids + p.count : NULL;
    if ((st = lg__dist_agree(c, st)) == LG_OK)
        st = lg__dist_build(c, fn, ids, dst, w, p.count, &b, p.both_arcs,
                            (size_t)p.count * (2 * sizeof *p.src + (w ? sizeof *w : 0)), graph);
    lg_edge_part_free(&p);
    free(ids);
    free(ones);
    return st;
}
