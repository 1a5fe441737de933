/*
 * io.h - what the graph-file code of src/graph/io/ shares, and nothing public.
 *
 * The folder holds one file a purpose, so each format reads in one sitting:
 *
 *   dispatch.c    lg_graph_read and lg_graph_write: options, the format by
 *                 extension, then the format's reader or writer
 *   file.c        file access: whole-file and parallel reads, and writes to a
 *                 temporary file renamed over the target when complete
 *   text.c        parsing one text line into an edge, with the reason when a
 *                 line is bad (ids, weights by Clinger's fast path)
 *   edges.c       text parsed in parallel chunks into edge arrays, the
 *                 "path:line: reason" message, the hand-over to the builder
 *   text_read.c   a text file's header from a prefix, its body read in
 *                 windows, twice (lines counted, then parsed)
 *   text_write.c  formatting arcs as text lines in parallel, for the writers
 *   mtx.c         Matrix Market, reader and writer
 *   edgelist.c    .el / .wel edge lists, reader and writer
 *   lgb.c         libgraph's binary CSR: layout, checksum, reader and writer
 *                 (lgb.h: what it shares with lgb_part.c)
 *   lgb_part.c    one part of a .lgb: rows cut at its share of the arcs, and
 *                 its share of the file's checksum
 *   part.c        lg_read_edges: one part of a file's edges (byte ranges of a
 *                 text body; .lgb rows by lgb_part.c)
 *
 * A folder rather than io_*.c files beside the rest of src/graph/: the file
 * code is the largest group there, and one folder keeps the group and its
 * shared header together.
 *
 * Errors: every message names the file; text parse errors read
 * "path:line: reason" (lines 1-based), and errors of the file as a whole
 * "path: reason".
 *
 * The scanners below are static inline because the parser's hot loop
 * (text.c) calls them once or more a field and must inline them.
 */
#ifndef LIBGRAPH_IO_H
#define LIBGRAPH_IO_H

#include "internal.h"

#include <sys/types.h>

#include <string.h>

/* The most edges a file may declare: what lg_graph_from_edges accepts (two
 * arcs an edge, in 8-byte words, must fit an int64). */
#define LG_MAX_FILE_EDGES (INT64_MAX / 16)

/* Room for a parser's reason (with a quoted token). */
#define LG_REASON_MAX 192

/* Any 19 decimal digits fit a uint64_t. */
#define LG_UINT_DIGITS_EXACT 19

/* A size a test hook sets (lg__parse_part_bytes, lg__text_window_bytes):
 * bytes, unless 0; returns the size before. */
static inline size_t lg__set_size_hook(size_t *size, size_t bytes)
{
    const size_t old = *size;
    if (bytes)
        *size = bytes;
    return old;
}

/* ---- errors that name the file (file.c) ---------------------------------------- */

/* "PATH: what: strerror(err)", LG_ERR_IO. */
LG_INTERNAL lg_status_t lg__errno_error(int err, const char *path, const char *what);

/* The builders reject bad data with LG_ERR_INVALID_ARGUMENT; when the data
 * came from a file it is the file that is wrong, so this turns that status
 * into LG_ERR_IO with the message prefixed "PATH: "; LG_ERR_OUT_OF_MEMORY keeps
 * its status and gains the prefix (the file's sizes asked for the memory);
 * others pass through. */
LG_INTERNAL lg_status_t lg__blame_file(lg_status_t st, const char *path);

/* ---- input files (file.c) ------------------------------------------------------ */

/* A file being read.  A regular file is read with pread, a share a thread;
 * pipes and other streams are read in order. */
struct lg_in_file {
    const char *path;
    int fd; /* -1 when closed */
    bool regular;
    int64_t size;                /* of a regular file */
    int64_t pos;                 /* where the next lg__in_read starts */
    struct lg_progress progress; /* told of each part read (LG_STAGE_READ) */
};

/* Opens a file to read whole: a regular file, or a stream (a pipe, a FIFO,
 * a terminal), whose open waits for a writer as any reader's does. */
LG_INTERNAL lg_status_t lg__in_open(struct lg_in_file *in, const char *path);
/* Opens a file that must be regular (read in byte ranges: a part, a .lgb's
 * checksum shares) without blocking: anything else is refused with
 * LG_ERR_INVALID_ARGUMENT "FN: PATH is not a regular file: WHY". */
LG_INTERNAL lg_status_t lg__in_open_regular(struct lg_in_file *in, const char *path,
                                            const char *fn, const char *why);
LG_INTERNAL void lg__in_close(struct lg_in_file *in);
/* read() until `bytes` are in or the stream ends: the count read, or -1 with
 * errno set. */
LG_INTERNAL int64_t lg__read_full(int fd, char *p, size_t bytes);
/* pread() of `bytes` at offset `at` until they are in or the file ends: the
 * count read, or -1 with errno set. */
LG_INTERNAL int64_t lg__pread_full(int fd, void *p, size_t bytes, int64_t at);
/* Reads the next `bytes` bytes, the file's `what` (named when it ends too
 * soon), into buf, reporting progress between parts of a few hundred MB
 * (LG_ERR_CANCELLED when the callback says stop). */
LG_INTERNAL lg_status_t lg__in_read(struct lg_in_file *in, void *buf, size_t bytes, int threads,
                                    const char *what);

/* Text of a file: all of it, a window or a part. */
struct lg_text {
    char *data; /* size bytes and a terminating NUL, so scanners stop at the end */
    size_t size;
    int64_t first_line; /* the lines of the file before data, for messages */
};

/* Reads the stream in (a pipe, a device: not a regular file) whole into t,
 * a UTF-8 byte-order mark at its start dropped. */
LG_INTERNAL lg_status_t lg__load_text(struct lg_in_file *in, struct lg_text *t);

/* ---- output files (file.c) ----------------------------------------------------- */

/* A file being written: a temporary name beside the target, renamed over it
 * when complete. */
struct lg_out_file {
    const char *path;   /* as the caller named it, for messages */
    const char *target; /* the file replaced: path, or where its symbolic links lead */
    char *target_copy;  /* target's memory when it is not path */
    char *tmp_path;
    int fd;         /* -1 when closed */
    bool direct;    /* written in place: a FIFO, a device, a descriptor's path */
    bool replacing; /* a regular file is there: keep its mode and owner */
    mode_t mode;
    uid_t uid;
    gid_t gid;
    struct lg_progress progress; /* told of every LG_WRITE_STEP bytes (LG_STAGE_WRITE) */
    int64_t written, total;      /* bytes so far; all of them, or -1 */
    int64_t next_report;
};

/* Bytes written between two progress reports. */
#define LG_WRITE_STEP ((int64_t)16 << 20)

/* Opens the way to write path.  A regular file (or a new one) is written as
 * TARGET.tmp.XXXXXX beside it and renamed over it only once complete and on
 * disk, so a failure at any point leaves the old file as it was; symbolic
 * links are followed and stay (a dangling one: the file it names is made);
 * a FIFO or device, and /dev/stdout, /dev/fd/N and the like, are written
 * into directly; a directory is an error. */
LG_INTERNAL lg_status_t lg__out_open(struct lg_out_file *out, const char *path);
LG_INTERNAL lg_status_t lg__out_write(struct lg_out_file *out, const void *data, size_t bytes);
/* Renames the finished file over the target when st is LG_OK, else removes
 * it; returns st or the first error of closing or renaming. */
LG_INTERNAL lg_status_t lg__out_finish(struct lg_out_file *out, lg_status_t st);

/* ---- the tokenizer ------------------------------------------------------------- */

static inline char lg__ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static inline bool lg__is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static inline bool lg__is_digit(char c)
{
    return (unsigned)(c - '0') < 10u;
}

/* Blanks, the end of a line and the end of the buffer end a token. */
static inline bool lg__ends_token(char c)
{
    return lg__is_blank(c) || c == '\n' || c == '\0';
}

static inline const char *lg__skip_blanks(const char *p)
{
    while (lg__is_blank(*p))
        p++;
    return p;
}

static inline bool lg__at_line_end(const char *p, const char *end)
{
    return p == end || *p == '\n';
}

static inline const char *lg__next_line(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl + 1 : end;
}

/* Scans a token of decimal digits; NULL when the token at p is not one.
 * Past LG_UINT_DIGITS_EXACT digits the value saturates at UINT64_MAX, so a
 * 30-digit id reads as "too large" rather than wrapping around. */
static inline const char *lg__scan_uint(const char *p, uint64_t *value)
{
    const char *q = p;
    uint64_t x = 0;
    for (; lg__is_digit(*q) && q - p < LG_UINT_DIGITS_EXACT; q++)
        x = x * 10 + (uint64_t)(*q - '0');
    if (lg__is_digit(*q)) {
        x = UINT64_MAX;
        while (lg__is_digit(*q))
            q++;
    }
    if (q == p || !lg__ends_token(*q))
        return NULL;
    *value = x;
    return q;
}

/* ---- parsing edge lines (text.c) ----------------------------------------------- */

/* What a data line of one file must look like. */
struct lg_line_rules {
    lg_file_format_t format;
    uint64_t base;        /* the first id: 1 in Matrix Market, 0 in edge lists */
    uint64_t num_ids;     /* ids, less base, must be below this */
    bool weighted;        /* a third field, the weight, is required */
    bool hash_comments;   /* '#' starts a comment line too (edge lists) */
    const char *roles[2]; /* what the two ids are called in messages */
    bool wide;            /* weights read as doubles, into lg_edge_arrays.w64 */
};

/* Parsed edges: src[k], dst[k] (and w[k] or w64[k]) for k < count. */
struct lg_edge_arrays {
    lg_vertex_t *src, *dst;
    float *w;    /* NULL when unweighted or wide */
    double *w64; /* the weights of wide rules, else NULL */
    int64_t count;
    int64_t max_id; /* the largest id, or -1 when there are no edges */
};

/* One thread's share of the text: whole lines [begin, end). */
struct lg_chunk {
    const char *begin, *end;
    const char *next; /* where its parsing stands (lg__parse_edges's rounds) */
    int64_t base;     /* its edges go to slots base, base + 1, ... */
    int64_t count;
    int64_t max_id;       /* -1 when it has no edges */
    const char *error_at; /* NULL, or a point in its first bad line */
    char reason[LG_REASON_MAX];
};

/* Parses the data lines of c's text into slots c->base.. of a's arrays
 * (which have room for them), setting c's count and max_id; at a bad line
 * stops with c->error_at and c->reason set. */
LG_INTERNAL void lg__parse_chunk(const struct lg_line_rules *r, const struct lg_edge_arrays *a,
                                 struct lg_chunk *c);

/* The line number of data line k (0-based) of [p, end), whose first line is
 * number `line`.  Only error messages need it, so it may be slow. */
LG_INTERNAL int64_t lg__data_line_number(const struct lg_line_rules *r, const char *p,
                                         const char *end, int64_t k, int64_t line);

/* ---- parsing a text body (edges.c) --------------------------------------------- */

/* Parses every data line of [body, end of text) in parallel into *out
 * (allocated here); a bad line gives LG_ERR_IO "path:line: reason". */
LG_INTERNAL lg_status_t lg__parse_edges(const char *path, const struct lg_line_rules *r,
                                        const struct lg_text *t, const char *body, int threads,
                                        struct lg_progress progress, struct lg_edge_arrays *out);

/* Parses the data lines of [body, end of t) in parallel into a's slots after
 * its a->count edges, which have room for `slots` in all (a text that needs
 * more, a file with more lines than were counted, is an LG_ERR_IO);
 * *lines: the lines parsed.  Progress is done_before plus the bytes parsed,
 * of total. */
LG_INTERNAL lg_status_t lg__parse_more_edges(const char *path, const struct lg_line_rules *r,
                                             const struct lg_text *t, const char *body, int threads,
                                             struct lg_progress progress, int64_t done_before,
                                             int64_t total, int64_t slots, struct lg_edge_arrays *a,
                                             int64_t *lines);

/* The '\n' bytes in [p, end). */
LG_INTERNAL int64_t lg__count_newlines(const char *p, const char *end);

/* Whether every weight of e is 1 (or it has none): a .wel of an unweighted graph. */
LG_INTERNAL bool lg__all_weights_one(const struct lg_edge_arrays *e);

/* Empty edge arrays with room for `slots` edges (and weights when r says
 * weighted: doubles when it says wide); on LG_ERR_OUT_OF_MEMORY what was had
 * stays in a for lg__free_edges. */
LG_INTERNAL lg_status_t lg__alloc_edges(struct lg_edge_arrays *a, int64_t slots,
                                        const struct lg_line_rules *r);

LG_INTERNAL void lg__free_edges(struct lg_edge_arrays *a);

/* Builds the n-vertex graph from the parsed edges, which it frees as soon
 * as the rows hold them (lg__graph_from_own_edges), with the caller's
 * options over the directedness the file records (LG_DIRECTEDNESS_DEFAULT:
 * none, and the graph is undirected unless the options say otherwise). */
LG_INTERNAL lg_status_t lg__graph_from_text(lg_context_t *context, const char *path, int64_t n,
                                            struct lg_edge_arrays *e,
                                            const lg_graph_options_t *options,
                                            lg_directedness_t recorded, lg_graph_t **graph);

/* ---- reading a text file (text_read.c) ----------------------------------------- */

struct lg_text_header;
struct lg_text;

/* A text format's header parser (lg__mtx_header, lg__edge_list_header):
 * the header of a file of that format (LG_FORMAT_MTX, _EL or _WEL) from
 * the first prefix->size bytes of it (NUL-terminated); complete says
 * whether the prefix is the whole file.  Returns LG_OK with *need_more when
 * the header may run past the prefix.  The generic reader (text_read.c) is
 * handed one, so that it never calls back into the formats. */
typedef lg_status_t (*lg_text_header_fn)(const char *path, const struct lg_text *prefix,
                                         bool complete, lg_file_format_t format,
                                         struct lg_text_header *h, bool *need_more);

/* Reads the text file at path (format LG_FORMAT_MTX, _EL or _WEL, whose
 * header parser is header): its header into *h and every edge of its body
 * into *e (allocated here), the weights as doubles with wide.  A regular file is read in windows, twice (lines
 * counted, then parsed), so that its text is never held whole; a stream is
 * read whole.  Errors name
 * the file, and a bad line its number; a .mtx with more entries than its
 * size line declares is an error at the first one too many. */
LG_INTERNAL lg_status_t lg__read_text_edges(const char *path, lg_text_header_fn header,
                                            lg_file_format_t format, bool wide, int threads,
                                            struct lg_progress progress, struct lg_text_header *h,
                                            struct lg_edge_arrays *e);

/* ---- writing text (text_write.c) ----------------------------------------------- */

/* Which arcs a text file lists: all of a directed graph; one of each edge
 * of an undirected one (Matrix Market's lower triangle, or u <= v). */
enum lg_arc_filter {
    LG_ALL_ARCS,
    LG_ROW_GE_COL,
    LG_ROW_LE_COL
};

struct lg_text_style {
    int64_t id_base; /* 1 for Matrix Market */
    enum lg_arc_filter keep;
    bool weights; /* write a third field (1 for an unweighted graph) */
};

/* Writes the arcs the style keeps as "u v[ w]" lines, in CSR order. */
LG_INTERNAL lg_status_t lg__write_arcs(struct lg_out_file *out, const lg_graph_t *g,
                                       const struct lg_text_style *s, int threads);
/* How many arcs the filter keeps. */
LG_INTERNAL int64_t lg__count_kept_arcs(const lg_graph_t *g, enum lg_arc_filter keep, int threads);

/* ---- the formats (mtx.c, edgelist.c, lgb.c, lgb_part.c) ------------------------ */

/* Readers take options already checked (dispatch.c); writers a file opened
 * by lg__out_open, which the caller finishes. */
LG_INTERNAL lg_status_t lg__read_mtx(lg_context_t *context, const char *path,
                                     const lg_graph_options_t *options, lg_graph_t **graph);
LG_INTERNAL lg_status_t lg__write_mtx(struct lg_out_file *out, const lg_graph_t *g, int threads);

/* format: LG_FORMAT_EL or LG_FORMAT_WEL. */
LG_INTERNAL lg_status_t lg__read_edge_list(lg_context_t *context, const char *path,
                                           lg_file_format_t format,
                                           const lg_graph_options_t *options, lg_graph_t **graph);
/* weights: a .wel; plain: no header line, even where the file needs one. */
LG_INTERNAL lg_status_t lg__write_edge_list(struct lg_out_file *out, const lg_graph_t *g,
                                            bool weights, bool plain, int threads);

/* The host must be little-endian (dispatch.c checks). */
/* ---- one part of a file (part.c) ----------------------------------------------- */

/* What a text file's header says, read from a prefix of the file. */
struct lg_text_header {
    struct lg_line_rules rules;
    size_t body; /* the offset of the first byte after the header */
    int64_t n;   /* declared vertices, or -1 */
    lg_directedness_t directedness;
    int64_t entries;   /* .mtx's declared entry count, or -1 */
    int64_t size_line; /* .mtx: the size line's number */
    bool unweighted;   /* libgraph's header says unweighted */
};

LG_INTERNAL lg_status_t lg__mtx_header(const char *path, const struct lg_text *prefix,
                                       bool complete, lg_file_format_t format,
                                       struct lg_text_header *h, bool *need_more);
LG_INTERNAL lg_status_t lg__edge_list_header(const char *path, const struct lg_text *prefix,
                                             bool complete, lg_file_format_t format,
                                             struct lg_text_header *h, bool *need_more);
/* The header of the open regular file in (a UTF-8 byte-order mark before
 * it skipped), by header, from a prefix grown until the header ends inside
 * it; h->body is an offset in the file. */
LG_INTERNAL lg_status_t lg__read_text_header(struct lg_in_file *in, lg_text_header_fn header,
                                             lg_file_format_t format, struct lg_text_header *h);
/* A .lgb's part: rows [first, last) holding about the part's share of arcs. */
LG_INTERNAL lg_status_t lg__read_lgb_part(lg_context_t *context, const char *path, int part,
                                          int num_parts, lg_edge_part_t *out);
/* lg_read_edges_verify for a .lgb: the parts' summed shares against the
 * header's checksum, and an undirected file's arcs' symmetry. */
LG_INTERNAL lg_status_t lg__lgb_verify_parts(const char *path,
                                             const uint64_t sums[LG_EDGE_PART_CHECKSUMS]);
/* dispatch.c: the format, named or told by the extension, and the host's fit for it */
LG_INTERNAL lg_status_t lg__resolve_format(const char *fn, const char *path,
                                           lg_file_format_t *format);

LG_INTERNAL lg_status_t lg__read_lgb(lg_context_t *context, const char *path,
                                     const lg_graph_options_t *options, lg_graph_t **graph);
LG_INTERNAL lg_status_t lg__write_lgb(struct lg_out_file *out, const lg_graph_t *g, int threads);

#endif /* LIBGRAPH_IO_H */
