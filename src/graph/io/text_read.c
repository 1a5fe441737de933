/*
 * text_read.c - a text graph file (.mtx, .el, .wel) read into edge arrays:
 * its header from a prefix of the file, its body in windows.
 *
 * A regular file is read twice, a window of 32 MB at a time.  The first pass
 * counts its newlines, which bound its edges (one a data line), so the edge
 * arrays are allocated once, at their final size; the second re-reads each
 * window and parses it in parallel (edges.c) into the next slots.  A window
 * ends at its last newline, and the partial line after it opens the next
 * one (a window with no newline grows until it holds one).  The peak is the
 * edge arrays and one window: holding the text whole added about 14 bytes a
 * line to the 8 of the edge (more than the build that follows needs), and
 * a fresh buffer the size of the file costs a page fault every 4 KB, which
 * the one window reused does not.  The price is the second copy out of the
 * page cache (docs/decisions/text-read-in-windows.md has the figures).
 *
 * A stream (a pipe, a device) cannot be read twice: it is read whole
 * (lg__load_text) and parsed as one window.
 *
 * The file's size is taken when it is opened, and what lies past it is not
 * read.  A file that changes between the passes never makes the parser
 * write past its arrays: each window's lines are counted again before it
 * is parsed and must fit the slots left (more lines is LG_ERR_IO), and a
 * file that ends early is "truncated".  Other changes read as the file's
 * new contents.
 */
#include "io.h"

#include <errno.h>
#include <string.h>

#define PREFIX_FIRST ((size_t)64 << 10)

/* A window: large enough that each thread's chunk runs long between the
 * rounds' barriers, small beside any graph it would matter for.  Tests make
 * it small. */
static size_t window_bytes = (size_t)32 << 20;

size_t lg__text_window_bytes(size_t bytes)
{
    return lg__set_size_hook(&window_bytes, bytes);
}

static bool byte_order_mark(const char *p, size_t len)
{
    return len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0;
}

lg_status_t lg__read_text_header(struct lg_in_file *in, lg_text_header_fn header,
                                 lg_file_format_t format, struct lg_text_header *h)
{
    size_t want = PREFIX_FIRST;
    for (;;) {
        const size_t len = (int64_t)want < in->size ? want : (size_t)in->size;
        char *prefix = lg__alloc_array(len + 1, 1, "the file's header");
        if (!prefix)
            return LG_ERR_OUT_OF_MEMORY;
        const int64_t got = lg__pread_full(in->fd, prefix, len, 0);
        if (got < 0 || (size_t)got < len) {
            lg__free(prefix);
            return got < 0 ? lg__errno_error(errno, in->path, "read error")
                           : lg__error(LG_ERR_IO,
                                       "%s: truncated: the file ends inside the header (it "
                                       "shrank while being read)",
                                       in->path);
        }
        prefix[got] = '\0';
        const size_t skip = byte_order_mark(prefix, (size_t)got) ? 3 : 0;
        const struct lg_text t = {prefix + skip, (size_t)got - skip, 0};
        bool more = false;
        lg_status_t st = header(in->path, &t, got >= in->size, format, h, &more);
        lg__free(prefix);
        if (st == LG_OK)
            h->body += skip;
        if (st != LG_OK || !more)
            return st;
        want *= 2;
    }
}

/* What the passes over one file share. */
struct reader {
    const char *path;
    const struct lg_text_header *h;
    int threads;
    struct lg_progress progress;
    int64_t body_bytes; /* parsing's progress total */
    int64_t parsed;     /* body bytes parsed so far */
    int64_t slots;      /* the edge arrays' room */
    int64_t extra_line; /* a .mtx's first entry past the declared count, or 0 */
    struct lg_edge_arrays e;
    bool wide; /* weights read as doubles */
};

/* Parses window t, which starts `offset` bytes into the file, from the body
 * on, into rd->e; *lines: the window's lines (its newlines, when it ends in
 * one, as every window but the last does).  The line of a .mtx's first entry
 * past the declared count is found while its window is in memory; it is the
 * error once the whole file has parsed (a bad line anywhere is reported
 * first, whatever the window size). */
static lg_status_t parse_window(struct reader *rd, const struct lg_text *t, int64_t offset,
                                int64_t *lines)
{
    const int64_t skip = (int64_t)rd->h->body > offset ? (int64_t)rd->h->body - offset : 0;
    const char *body = t->data + (skip < (int64_t)t->size ? skip : (int64_t)t->size);
    const int64_t before = rd->e.count, header_lines = lg__count_newlines(t->data, body);
    int64_t body_lines = 0;
    lg_status_t st =
        lg__parse_more_edges(rd->path, &rd->h->rules, t, body, rd->threads, rd->progress,
                             rd->parsed, rd->body_bytes, rd->slots, &rd->e, &body_lines);
    rd->parsed += t->data + t->size - body;
    *lines = header_lines + body_lines;
    const int64_t declared = rd->h->entries;
    if (st == LG_OK && declared >= 0 && rd->e.count > declared && !rd->extra_line)
        rd->extra_line = lg__data_line_number(&rd->h->rules, body, t->data + t->size,
                                              declared - before, t->first_line + header_lines + 1);
    return st;
}

/* The newlines of [p, p + len), counted by all threads. */
static int64_t count_newlines_parallel(const char *p, size_t len, int threads)
{
    int64_t k = 0;
    const int64_t pieces = threads;
#pragma omp parallel for num_threads(threads) reduction(+ : k)
    for (int64_t i = 0; i < pieces; i++)
        k += lg__count_newlines(p + len * (size_t)i / (size_t)pieces,
                                p + len * (size_t)(i + 1) / (size_t)pieces);
    return k;
}

/* The first pass: the file's lines, which bound its edges. */
static lg_status_t count_lines(struct lg_in_file *in, char *buf, size_t cap, int threads,
                               int64_t *lines)
{
    *lines = 1; /* the last line may have no newline */
    in->pos = 0;
    while (in->pos < in->size) {
        const size_t len = in->size - in->pos < (int64_t)cap ? (size_t)(in->size - in->pos) : cap;
        lg_status_t st = lg__in_read(in, buf, len, threads, "text (it shrank while being read)");
        if (st != LG_OK)
            return st;
        *lines += count_newlines_parallel(buf, len, threads);
    }
    return LG_OK;
}

/* The second pass: each window re-read and parsed.  A window holds the
 * partial line the last one ended in, then as much more as fits. */
static lg_status_t parse_windows(struct reader *rd, struct lg_in_file *in, char **buf, size_t *cap)
{
    size_t carry = 0;
    int64_t lines_before = 0;
    in->pos = 0;
    in->progress = (struct lg_progress){NULL, NULL, 1};
    for (;;) {
        const int64_t left = in->size - in->pos;
        const size_t len = left < (int64_t)(*cap - carry) ? (size_t)left : *cap - carry;
        lg_status_t st =
            lg__in_read(in, *buf + carry, len, rd->threads, "text (it shrank while being read)");
        if (st != LG_OK)
            return st;
        const size_t fill = carry + len;
        const bool last = in->pos == in->size;
        size_t cut = fill;
        while (!last && cut > 0 && (*buf)[cut - 1] != '\n')
            cut--;
        if (cut == 0 && !last) { /* one line fills the window: grow it */
            char *wider = lg__alloc_array(*cap * 2 + 1, 1, "a file window");
            if (!wider)
                return LG_ERR_OUT_OF_MEMORY;
            memcpy(wider, *buf, fill);
            lg__free(*buf);
            *buf = wider;
            *cap *= 2;
            carry = fill;
            continue;
        }
        const char kept = (*buf)[cut];
        (*buf)[cut] = '\0'; /* the scanners stop at a NUL */
        const struct lg_text t = {*buf, cut, lines_before};
        int64_t lines;
        st = parse_window(rd, &t, in->pos - (int64_t)fill, &lines);
        (*buf)[cut] = kept;
        if (st != LG_OK || last)
            return st;
        lines_before += lines;
        carry = fill - cut;
        memmove(*buf, *buf + cut, carry);
    }
}

static lg_status_t read_regular(struct reader *rd, struct lg_in_file *in, lg_text_header_fn header,
                                lg_file_format_t format, struct lg_text_header *h)
{
    lg_status_t st = lg__read_text_header(in, header, format, h);
    if (st != LG_OK)
        return st;
    h->rules.wide = rd->wide && h->rules.weighted;
    rd->body_bytes = in->size - (int64_t)h->body;
    size_t cap = in->size < (int64_t)window_bytes ? (size_t)in->size + 1 : window_bytes;
    char *buf = lg__alloc_array(cap + 1, 1, "a file window");
    if (!buf)
        return LG_ERR_OUT_OF_MEMORY;
    if ((st = count_lines(in, buf, cap, rd->threads, &rd->slots)) == LG_OK &&
        (st = lg__alloc_edges(&rd->e, rd->slots, &h->rules)) == LG_OK)
        st = parse_windows(rd, in, &buf, &cap);
    lg__free(buf);
    return st;
}

static lg_status_t read_stream(struct reader *rd, struct lg_in_file *in, lg_text_header_fn header,
                               lg_file_format_t format, struct lg_text_header *h)
{
    struct lg_text t = {0};
    bool more = false;
    lg_status_t st = lg__load_text(in, &t);
    if (st == LG_OK && (st = header(rd->path, &t, true, format, h, &more)) == LG_OK) {
        h->rules.wide = rd->wide && h->rules.weighted;
        rd->body_bytes = (int64_t)(t.size - h->body);
        rd->slots = lg__count_newlines(t.data, t.data + t.size) + 1;
        /* the text held whole while its edges are parsed */
        lg__note_peak(t.size + (size_t)rd->slots * (2 * sizeof(lg_vertex_t) +
                                                    (!h->rules.weighted ? 0
                                                     : h->rules.wide    ? sizeof(double)
                                                                        : sizeof(float))));
        int64_t lines;
        if ((st = lg__alloc_edges(&rd->e, rd->slots, &h->rules)) == LG_OK)
            st = parse_window(rd, &t, 0, &lines);
    }
    lg__free(t.data);
    return st;
}

lg_status_t lg__read_text_edges(const char *path, lg_text_header_fn header, lg_file_format_t format,
                                bool wide, int threads, struct lg_progress progress,
                                struct lg_text_header *h, struct lg_edge_arrays *e)
{
    struct reader rd = {path, h, threads, progress, 0, 0, 0, 0, {0}, wide};
    struct lg_in_file in;
    lg_status_t st = lg__in_open(&in, path);
    if (st != LG_OK)
        return st;
    in.progress = progress;
    st = in.regular ? read_regular(&rd, &in, header, format, h)
                    : read_stream(&rd, &in, header, format, h);
    lg__in_close(&in);
    if (st == LG_OK && rd.extra_line)
        st = lg__error(LG_ERR_IO, "%s:%lld: one entry more than the %lld the size line declares",
                       path, (long long)rd.extra_line, (long long)h->entries);
    if (st == LG_OK) {
        *e = rd.e;
        memset(&rd.e, 0, sizeof rd.e);
    }
    lg__free_edges(&rd.e);
    return st;
}
