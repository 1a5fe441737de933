/*
 * edges.c - text parsed in parallel into edge arrays, and the parsed edges
 * handed to lg_graph_from_edges; shared by the Matrix Market and edge-list
 * readers (text_read.c) and lg_read_edges (part.c).
 *
 * A text (a whole file, a window of one, or a part) is cut at line
 * boundaries into one chunk a thread.  A chunk is parsed in parts of at
 * most 32 MB, every chunk's next part in one parallel round, so that
 * progress is reported and a cancel honoured between rounds while each
 * chunk's edges stay in one run.  Each chunk first counts its lines, which
 * bound its edges (at most one a line), so every chunk parses straight into
 * its own slice of the edge arrays (no reallocation, no locks); the slices
 * are closed up afterwards, in file order, after the edges already there,
 * so the result does not depend on the thread count.  Cost: two passes
 * over the text (line count, parse; text_read.c's first pass adds a third
 * over a file's windows) and one memmove of the edges.
 *
 * Errors: a chunk that meets a bad line stops and records where; the first
 * failed chunk holds the text's first bad line, whose number is found then
 * by counting the newlines before it, so messages read "path:line: reason"
 * without the fast path counting lines.
 */
#include "io.h"

#include <string.h>

/* A text chunk shorter than this is not worth a thread of its own. */
#define PARSE_CHUNK_MIN ((size_t)256 << 10)
/* A chunk's part in one round: a round takes a tenth of a second at most
 * (parsing runs at about 200-400 MB/s a thread).  Tests make it small. */
static size_t parse_part_bytes = (size_t)32 << 20;

size_t lg__parse_part_bytes(size_t bytes)
{
    return lg__set_size_hook(&parse_part_bytes, bytes);
}

/* Counts '\n' eight bytes at a time: a byte of w ^ NEWLINES is zero exactly
 * where w holds a newline, and the expression below sets the top bit of
 * exactly those bytes (no carries cross bytes, unlike the classic haszero). */
int64_t lg__count_newlines(const char *p, const char *end)
{
    const uint64_t newlines = 0x0A0A0A0A0A0A0A0Aull, low7 = 0x7F7F7F7F7F7F7F7Full;
    int64_t k = 0;
    for (; end - p >= 8; p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= newlines;
        k += __builtin_popcountll(~(((w & low7) + low7) | w | low7));
    }
    for (; p < end; p++)
        k += *p == '\n';
    return k;
}

/* Cuts [body, end) into nc chunks of about equal size, each whole lines. */
static void split_chunks(const char *body, const char *end, struct lg_chunk *chunks, int nc)
{
    const size_t len = (size_t)(end - body);
    for (int c = 0; c < nc; c++) {
        const char *q = body + len / (size_t)nc * (size_t)c;
        if (q != body && q[-1] != '\n')
            q = lg__next_line(q, end);
        memset(&chunks[c], 0, sizeof chunks[c]);
        chunks[c].begin = q;
        if (c > 0)
            chunks[c - 1].end = q;
    }
    chunks[nc - 1].end = end;
}

static int chunk_count(size_t len, int threads)
{
    size_t by_size = len / PARSE_CHUNK_MIN;
    if (by_size < 1)
        return 1;
    return by_size < (size_t)threads ? (int)by_size : threads;
}

/* Parses c's next part (up to parse_part_bytes, whole lines) into the slots
 * after those it filled, keeping its count, max_id and first error. */
static void parse_part(const struct lg_line_rules *r, const struct lg_edge_arrays *a,
                       struct lg_chunk *c)
{
    const size_t len = parse_part_bytes;
    const char *stop = (size_t)(c->end - c->next) > len ? c->next + len : c->end;
    if (stop != c->end && stop[-1] != '\n')
        stop = lg__next_line(stop, c->end);
    struct lg_chunk part;
    memset(&part, 0, sizeof part);
    part.begin = c->next;
    part.end = stop;
    part.base = c->base + c->count;
    lg__parse_chunk(r, a, &part);
    c->count += part.count;
    c->max_id = part.max_id > c->max_id ? part.max_id : c->max_id;
    if (part.error_at) {
        c->error_at = part.error_at;
        memcpy(c->reason, part.reason, sizeof c->reason);
    }
    c->next = stop;
}

/* Moves each chunk's edges down to follow the previous chunk's, after the
 * a->count edges already there (the slots of comment and blank lines are
 * left behind), and counts them in a. */
static void close_up(struct lg_edge_arrays *a, const struct lg_chunk *chunks, int nc)
{
    int64_t k = a->count;
    for (int c = 0; c < nc; c++) {
        const int64_t b = chunks[c].base, len = chunks[c].count;
        if (b != k && len > 0) {
            memmove(a->src + k, a->src + b, (size_t)len * sizeof *a->src);
            memmove(a->dst + k, a->dst + b, (size_t)len * sizeof *a->dst);
            if (a->w)
                memmove(a->w + k, a->w + b, (size_t)len * sizeof *a->w);
            if (a->w64)
                memmove(a->w64 + k, a->w64 + b, (size_t)len * sizeof *a->w64);
        }
        k += len;
        a->max_id = chunks[c].max_id > a->max_id ? chunks[c].max_id : a->max_id;
    }
    a->count = k;
}

lg_status_t lg__alloc_edges(struct lg_edge_arrays *a, int64_t slots, const struct lg_line_rules *r)
{
    a->count = 0;
    a->max_id = -1;
    a->src = lg__alloc_array((size_t)slots, sizeof *a->src, "edge sources");
    a->dst = lg__alloc_array((size_t)slots, sizeof *a->dst, "edge destinations");
    const bool narrow = r->weighted && !r->wide, wide = r->weighted && r->wide;
    a->w = narrow ? lg__alloc_array((size_t)slots, sizeof *a->w, "edge weights") : NULL;
    a->w64 = wide ? lg__alloc_array((size_t)slots, sizeof *a->w64, "edge weights") : NULL;
    return a->src && a->dst && (!r->weighted || a->w || a->w64) ? LG_OK : LG_ERR_OUT_OF_MEMORY;
}

void lg__free_edges(struct lg_edge_arrays *a)
{
    lg__free(a->src);
    lg__free(a->dst);
    lg__free(a->w);
    lg__free(a->w64);
    memset(a, 0, sizeof *a);
}

/* Cuts [body, end) into chunks and counts each one's lines (newlines, and a
 * last line without one): the bound on its edges; *lines is their sum. */
static struct lg_chunk *plan_chunks(const char *body, const char *end, int threads, int *nc,
                                    int64_t *lines)
{
    *nc = chunk_count((size_t)(end - body), threads);
    struct lg_chunk *chunks = lg__alloc_array((size_t)*nc, sizeof *chunks, "parser chunks");
    if (!chunks)
        return NULL;
    split_chunks(body, end, chunks, *nc);
#pragma omp parallel for num_threads(*nc) schedule(static, 1)
    for (int c = 0; c < *nc; c++)
        chunks[c].count = lg__count_newlines(chunks[c].begin, chunks[c].end) +
                          (chunks[c].end > chunks[c].begin && chunks[c].end[-1] != '\n');
    *lines = 0;
    for (int c = 0; c < *nc; c++)
        *lines += chunks[c].count;
    return chunks;
}

/* Parses the planned chunks of t into a's slots after its a->count edges
 * (room for each chunk's count), reporting progress as done_before plus the
 * bytes parsed, of total. */
static lg_status_t parse_chunks(const char *path, const struct lg_line_rules *r,
                                const struct lg_text *t, struct lg_chunk *chunks, int nc,
                                struct lg_progress progress, int64_t done_before, int64_t total,
                                struct lg_edge_arrays *a)
{
    int64_t slots = a->count;
    for (int c = 0; c < nc; c++) {
        chunks[c].base = slots;
        slots += chunks[c].count;
        chunks[c].next = chunks[c].begin;
        chunks[c].count = 0;
        chunks[c].max_id = -1;
    }
    /* Rounds until every chunk before the first failed one is parsed: the
     * chunks are in file order, so the first failed chunk then holds the
     * first bad line. */
    for (int live = nc; live > 0;) {
#pragma omp parallel for num_threads(nc) schedule(static, 1)
        for (int c = 0; c < live; c++)
            if (c < live && chunks[c].next < chunks[c].end && !chunks[c].error_at)
                parse_part(r, a, &chunks[c]);
        int64_t parsed = 0;
        int first_failed = nc;
        bool left = false;
        for (int c = 0; c < nc; c++) {
            parsed += chunks[c].next - chunks[c].begin;
            if (chunks[c].error_at && c < first_failed)
                first_failed = c;
            left = left || (c < first_failed && chunks[c].next < chunks[c].end);
        }
        if (!left && first_failed < nc) {
            const struct lg_chunk *f = &chunks[first_failed];
            return lg__error(
                LG_ERR_IO, "%s:%lld: %s", path,
                (long long)(t->first_line + lg__count_newlines(t->data, f->error_at) + 1),
                f->reason);
        }
        live = left ? first_failed : 0;
        if (!lg_progress_go_on(progress, LG_STAGE_PARSE, done_before + parsed, total, 0.0))
            return LG_ERR_CANCELLED;
    }
    close_up(a, chunks, nc);
    return LG_OK;
}

lg_status_t lg__parse_edges(const char *path, const struct lg_line_rules *r,
                            const struct lg_text *t, const char *body, int threads,
                            struct lg_progress progress, struct lg_edge_arrays *out)
{
    lg_status_t st;
    struct lg_edge_arrays a = {0};
    int nc;
    int64_t slots;
    const char *end = t->data + t->size;
    struct lg_chunk *chunks = plan_chunks(body, end, threads, &nc, &slots);
    if (!chunks)
        return LG_ERR_OUT_OF_MEMORY;
    if ((st = lg__alloc_edges(&a, slots, r)) == LG_OK)
        st = parse_chunks(path, r, t, chunks, nc, progress, 0, end - body, &a);
    if (st == LG_OK) {
        *out = a;
        memset(&a, 0, sizeof a);
    }
    lg__free_edges(&a);
    lg__free(chunks);
    return st;
}

lg_status_t lg__parse_more_edges(const char *path, const struct lg_line_rules *r,
                                 const struct lg_text *t, const char *body, int threads,
                                 struct lg_progress progress, int64_t done_before, int64_t total,
                                 int64_t slots, struct lg_edge_arrays *a, int64_t *lines)
{
    int nc;
    struct lg_chunk *chunks = plan_chunks(body, t->data + t->size, threads, &nc, lines);
    if (!chunks)
        return LG_ERR_OUT_OF_MEMORY;
    lg_status_t st =
        a->count + *lines > slots
            ? lg__error(LG_ERR_IO, "%s: the file changed while it was being read", path)
            : parse_chunks(path, r, t, chunks, nc, progress, done_before, total, a);
    lg__free(chunks);
    return st;
}

/* Build options for a text file that records `recorded` (or nothing:
 * LG_DIRECTEDNESS_DEFAULT, taken as undirected).  A file that records an
 * undirected graph asked for as directed keeps both arcs of every entry. */
static lg_graph_options_t text_build_options(const lg_graph_options_t *o,
                                             lg_directedness_t recorded)
{
    lg_graph_options_t b = *o;
    if (b.directedness == LG_DIRECTEDNESS_DEFAULT)
        b.directedness = recorded == LG_DIRECTED ? LG_DIRECTED : LG_UNDIRECTED;
    else if (b.directedness == LG_DIRECTED && recorded == LG_UNDIRECTED)
        b.symmetrize = true;
    return b;
}

lg_status_t lg__graph_from_text(lg_context_t *context, const char *path, int64_t n,
                                struct lg_edge_arrays *e, const lg_graph_options_t *options,
                                lg_directedness_t recorded, lg_graph_t **graph)
{
    const lg_graph_options_t b = text_build_options(options, recorded);
    return lg__blame_file(lg__graph_from_own_edges("lg_graph_read", context, n, e->count, &e->src,
                                                   &e->dst, &e->w, &e->w64, &b, graph),
                          path);
}
