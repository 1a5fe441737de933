/*
 * part.c - lg_read_edges: one part of a graph file's edges, so that many
 * processes can load one file, each its own part (libgraph_dist's loader).
 *
 * Text files (.mtx, .el, .wel): the header is read from a prefix of the file
 * (text_read.c); the body [B, size) is cut into
 * num_parts equal byte ranges, and a part parses the lines that start in
 * its range -- a line starts at B or after a '\n', so a part finds its
 * first line by looking at the byte before its range, and its end the same
 * way at the next range: parts made apart tile the body exactly.  The
 * lines are parsed by the whole-file parser (edges.c), with the part's
 * first line number for messages, found (only when a line is bad) by
 * counting the newlines before the part.
 *
 * .lgb: by rows (lgb_part.c, lg__read_lgb_part).
 */
#define _XOPEN_SOURCE 700 /* pread */
#include "io.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define SCAN_STEP ((size_t)4 << 10)

void lg_edge_part_free(lg_edge_part_t *p)
{
    if (!p)
        return;
    lg__free(p->src);
    lg__free(p->dst);
    lg__free(p->weights);
    memset(p, 0, sizeof *p);
}

/* The first line start at or after x in a body [body, size). */
static lg_status_t line_start(struct lg_in_file *in, int64_t body, int64_t x, int64_t *start)
{
    if (x <= body || x >= in->size) {
        *start = x <= body ? body : in->size;
        return LG_OK;
    }
    char buf[SCAN_STEP];
    for (int64_t at = x - 1; at < in->size;) {
        const int64_t got = lg__pread_full(in->fd, buf, sizeof buf, at);
        if (got < 0)
            return lg__errno_error(errno, in->path, "read error");
        if (got == 0)
            break;
        const char *nl = memchr(buf, '\n', (size_t)got);
        if (nl) {
            *start = at + (nl - buf) + 1;
            return LG_OK;
        }
        at += got;
    }
    *start = in->size;
    return LG_OK;
}

/* The newlines in [0, end) of the file: a part's first line number. */
static lg_status_t lines_before(struct lg_in_file *in, int64_t end, int64_t *lines)
{
    char *buf = lg__alloc_array((size_t)1 << 20, 1, "a line count");
    if (!buf)
        return LG_ERR_OUT_OF_MEMORY;
    int64_t k = 0;
    for (int64_t at = 0; at < end;) {
        const size_t len = end - at < ((int64_t)1 << 20) ? (size_t)(end - at) : (size_t)1 << 20;
        const int64_t got = lg__pread_full(in->fd, buf, len, at);
        if (got <= 0) {
            lg__free(buf);
            return lg__errno_error(got < 0 ? errno : EIO, in->path, "read error");
        }
        for (int64_t i = 0; i < got; i++)
            k += buf[i] == '\n';
        at += got;
    }
    lg__free(buf);
    *lines = k;
    return LG_OK;
}

static lg_status_t read_text_part(lg_context_t *context, struct lg_in_file *in,
                                  lg_file_format_t format, int part, int num_parts,
                                  lg_edge_part_t *out)
{
    struct lg_text_header h;
    lg_status_t st = lg__read_text_header(
        in, format == LG_FORMAT_MTX ? lg__mtx_header : lg__edge_list_header, format, &h);
    if (st != LG_OK)
        return st;
    const int64_t body = (int64_t)h.body, len = in->size - body;
    int64_t start, end;
    if ((st = line_start(in, body,
                         body + len / num_parts * part + len % num_parts * part / num_parts,
                         &start)) != LG_OK ||
        (st = line_start(in, body,
                         body + len / num_parts * (part + 1) +
                             len % num_parts * (part + 1) / num_parts,
                         &end)) != LG_OK)
        return st;
    if (end < start)
        end = start;
    struct lg_text t = {lg__alloc_array((size_t)(end - start) + 1, 1, "the file's text"),
                        (size_t)(end - start), 0};
    if (!t.data)
        return LG_ERR_OUT_OF_MEMORY;
    const int threads = lg__threads(context);
    in->pos = start;
    struct lg_edge_arrays e = {0};
    st = lg__in_read(in, t.data, t.size, threads, "text");
    if (st == LG_OK) {
        t.data[t.size] = '\0';
        const struct lg_progress none = {NULL, NULL, 1};
        st = lg__parse_edges(in->path, &h.rules, &t, t.data, threads, none, &e);
        if (st == LG_ERR_IO && start > 0) { /* a bad line: its number in the file */
            st = lines_before(in, start, &t.first_line);
            if (st == LG_OK)
                st = lg__parse_edges(in->path, &h.rules, &t, t.data, threads, none, &e);
        }
    }
    lg__free(t.data);
    if (st == LG_OK && h.n >= 0 && e.max_id >= h.n)
        st = lg__error(LG_ERR_IO, "%s: vertex id %lld, but the header line says %lld vertices",
                       in->path, (long long)e.max_id, (long long)h.n);
    if (st != LG_OK) {
        lg__free_edges(&e);
        return st;
    }
    if (h.unweighted && lg__all_weights_one(&e)) {
        lg__free(e.w);
        e.w = NULL;
    }
    out->src = e.src;
    out->dst = e.dst;
    out->weights = e.w;
    out->count = e.count;
    out->num_vertices = h.n;
    out->directedness = h.directedness;
    out->both_arcs = false;
    out->declared_edges = h.entries;
    return LG_OK;
}

lg_status_t lg_read_edges(lg_context_t *context, const char *path, lg_file_format_t format,
                          int part, int num_parts, lg_edge_part_t *out)
{
    static const char fn[] = "lg_read_edges";
    if (!out || !path)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, out ? "path" : "out");
    if (num_parts < 1 || part < 0 || part >= num_parts)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: part %d of %d is not in [0, %d)", fn, part,
                         num_parts, num_parts);
    lg_status_t st = lg__resolve_format(fn, path, &format);
    if (st != LG_OK)
        return st;
    lg_edge_part_t got;
    memset(&got, 0, sizeof got);
    if (format == LG_FORMAT_BINARY) {
        st = lg__read_lgb_part(context, path, part, num_parts, &got);
    } else {
        struct lg_in_file in;
        if ((st = lg__in_open_regular(&in, path, fn, "parts are byte ranges of one")) != LG_OK)
            return st;
        st = read_text_part(context, &in, format, part, num_parts, &got);
        lg__in_close(&in);
    }
    if (st == LG_OK)
        *out = got;
    else
        lg_edge_part_free(&got); /* what a failed read had made */
    return st;
}

lg_status_t lg_read_edges_verify(lg_context_t *context, const char *path, lg_file_format_t format,
                                 const uint64_t checksum[LG_EDGE_PART_CHECKSUMS])
{
    static const char fn[] = "lg_read_edges_verify";
    (void)context;
    if (!path || !checksum)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, path ? "checksum" : "path");
    lg_status_t st = lg__resolve_format(fn, path, &format);
    if (st != LG_OK || format != LG_FORMAT_BINARY)
        return st;
    return lg__lgb_verify_parts(path, checksum);
}
