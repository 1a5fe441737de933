/*
 * mtx.c - Matrix Market files (.mtx), reader and writer.
 *
 * The format is NIST's coordinate format ("The Matrix Market Exchange
 * Formats: Initial Design", Boisvert, Pozo and Remington, NISTIR 5935,
 * 1996; https://math.nist.gov/MatrixMarket/formats.html):
 *
 *   %%MatrixMarket matrix coordinate <field> <symmetry>
 *   % comment lines
 *   rows cols entries
 *   i j [value]            one entry a line, 1-based
 *
 * Entry (i, j) is the arc i-1 -> j-1.  A "symmetric" file lists one triangle
 * of an undirected graph (read as undirected by default; asked for as
 * directed, every entry gives both arcs); "general" is directed.  Fields
 * pattern (unweighted), integer, real and "double"; complex, array,
 * skew-symmetric and hermitian are LG_ERR_UNSUPPORTED.  The banner's words
 * are matched without regard to case.  The matrix must be square (it is an
 * adjacency matrix), and the file must hold exactly the entries its size
 * line declares.
 *
 * The writer writes "real" (weighted) or "pattern" and "general"
 * (directed) or "symmetric" (undirected, the lower triangle: row >= col).
 *
 * Errors: LG_ERR_IO "path:line: reason" (the banner is line 1; a count that
 * disagrees with the size line names the size line, or the first entry too
 * many); LG_ERR_UNSUPPORTED for the kinds above.
 */
#include "io.h"

#include <stdio.h>
#include <string.h>

struct mtx_header {
    bool weighted, symmetric;
    int64_t rows, nnz;
    int64_t size_line; /* its line number, for messages about the entry count */
    const char *body;  /* the first byte after the size line */
};

/* ---- the header ---------------------------------------------------------------- */

/* Copies the next blank-separated word of the line at *p, lowercased and cut
 * to cap - 1 bytes, into word; false at the end of the line. */
static bool next_word(const char **p, const char *end, char *word, size_t cap)
{
    const char *q = lg__skip_blanks(*p);
    size_t k = 0;
    if (lg__at_line_end(q, end))
        return false;
    for (; !lg__ends_token(*q); q++)
        if (k + 1 < cap)
            word[k++] = lg__ascii_lower(*q);
    word[k] = '\0';
    *p = q;
    return true;
}

static lg_status_t parse_banner_field(const char *path, const char *field, struct mtx_header *h)
{
    if (strcmp(field, "pattern") == 0)
        h->weighted = false;
    else if (strcmp(field, "integer") == 0 || strcmp(field, "real") == 0 ||
             strcmp(field, "double") == 0)
        h->weighted = true;
    else if (strcmp(field, "complex") == 0)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s:1: complex Matrix Market values are not supported (weights are real)",
                         path);
    else
        return lg__error(LG_ERR_IO, "%s:1: unknown Matrix Market field '%s'", path, field);
    return LG_OK;
}

static lg_status_t parse_banner_symmetry(const char *path, const char *sym, struct mtx_header *h)
{
    if (strcmp(sym, "general") == 0)
        h->symmetric = false;
    else if (strcmp(sym, "symmetric") == 0)
        h->symmetric = true;
    else if (strcmp(sym, "skew-symmetric") == 0 || strcmp(sym, "hermitian") == 0)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s:1: %s Matrix Market files are not supported (use general or "
                         "symmetric)",
                         path, sym);
    else
        return lg__error(LG_ERR_IO, "%s:1: unknown Matrix Market symmetry '%s'", path, sym);
    return LG_OK;
}

/* The first line: "%%MatrixMarket matrix coordinate <field> <symmetry>". */
static lg_status_t parse_banner(const char *path, const char *line, const char *end,
                                struct mtx_header *h)
{
    char w[5][32], extra[32];
    int k = 0;
    while (k < 5 && next_word(&line, end, w[k], sizeof w[k]))
        k++;
    if (k == 0 || strcmp(w[0], "%%matrixmarket") != 0)
        return lg__error(LG_ERR_IO,
                         "%s:1: not a Matrix Market file (the first line must start with "
                         "%%%%MatrixMarket)",
                         path);
    if (k < 5 || next_word(&line, end, extra, sizeof extra))
        return lg__error(LG_ERR_IO,
                         "%s:1: bad header: expected \"%%%%MatrixMarket matrix coordinate "
                         "<field> <symmetry>\"",
                         path);
    if (strcmp(w[1], "matrix") != 0)
        return lg__error(LG_ERR_IO, "%s:1: unknown Matrix Market object '%s' (want matrix)", path,
                         w[1]);
    if (strcmp(w[2], "array") == 0)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "%s:1: dense 'array' Matrix Market files are not supported (a graph "
                         "needs 'coordinate')",
                         path);
    if (strcmp(w[2], "coordinate") != 0)
        return lg__error(LG_ERR_IO, "%s:1: unknown Matrix Market format '%s'", path, w[2]);
    lg_status_t st = parse_banner_field(path, w[3], h);
    return st != LG_OK ? st : parse_banner_symmetry(path, w[4], h);
}

/* Steps over comment and blank lines; *p is at a line start, *line its number. */
static void skip_comments(const char **p, const char *end, int64_t *line)
{
    for (;;) {
        const char *q = lg__skip_blanks(*p);
        if (*p >= end || !(lg__at_line_end(q, end) || *q == '%'))
            return;
        *p = lg__next_line(*p, end);
        ++*line;
    }
}

/* The size line "rows cols entries" at p, line number `line`. */
static lg_status_t parse_size_line(const char *path, const char *p, const char *end, int64_t line,
                                   struct mtx_header *h)
{
    uint64_t v[3];
    if (p >= end)
        return lg__error(LG_ERR_IO, "%s:%lld: missing the size line \"rows columns entries\"", path,
                         (long long)line);
    for (int i = 0; i < 3; i++) {
        p = lg__skip_blanks(p);
        if (!(p = lg__scan_uint(p, &v[i])))
            break;
    }
    if (!p || !lg__at_line_end(lg__skip_blanks(p), end))
        return lg__error(LG_ERR_IO,
                         "%s:%lld: bad size line: expected three counts \"rows columns entries\"",
                         path, (long long)line);
    if (v[0] != v[1])
        return lg__error(LG_ERR_IO,
                         "%s:%lld: the matrix is not square (%llu rows, %llu columns); a graph's "
                         "adjacency matrix must be",
                         path, (long long)line, (unsigned long long)v[0], (unsigned long long)v[1]);
    if (v[0] > (uint64_t)LG_MAX_VERTICES)
        return lg__error(LG_ERR_IO, "%s:%lld: %llu rows: a graph has at most %lld vertices", path,
                         (long long)line, (unsigned long long)v[0], (long long)LG_MAX_VERTICES);
    if (v[2] > (uint64_t)LG_MAX_FILE_EDGES)
        return lg__error(LG_ERR_IO, "%s:%lld: %llu entries: at most %lld are supported", path,
                         (long long)line, (unsigned long long)v[2], (long long)LG_MAX_FILE_EDGES);
    h->rows = (int64_t)v[0];
    h->nnz = (int64_t)v[2];
    h->size_line = line;
    h->body = lg__next_line(p, end);
    return LG_OK;
}

static lg_status_t parse_header(const char *path, const struct lg_text *t, struct mtx_header *h)
{
    const char *end = t->data + t->size, *p = t->data;
    int64_t line = 2;
    lg_status_t st = parse_banner(path, p, end, h);
    if (st != LG_OK)
        return st;
    p = lg__next_line(p, end);
    skip_comments(&p, end, &line);
    return parse_size_line(path, p, end, line, h);
}

/* ---- the entries --------------------------------------------------------------- */

static struct lg_line_rules mtx_rules(const struct mtx_header *h)
{
    struct lg_line_rules r = {LG_FORMAT_MTX, 1,     (uint64_t)h->rows,
                              h->weighted,   false, {"row", "column"}, false};
    return r;
}

/* Whether the header (the banner, comment lines, the size line) ends
 * inside [p, end), so that no line of it, and no count, is cut short. */
static bool header_inside(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
        return false;
    p = nl + 1;
    int64_t line = 2;
    skip_comments(&p, end, &line);
    return p < end && memchr(p, '\n', (size_t)(end - p)) != NULL;
}

lg_status_t lg__mtx_header(const char *path, const struct lg_text *prefix, bool complete,
                           lg_file_format_t format, struct lg_text_header *out, bool *need_more)
{
    (void)format; /* always LG_FORMAT_MTX */
    struct mtx_header h = {0};
    /* a header that ends inside the prefix is read now, a bad one refused
     * at once (not after the prefix has grown to the whole file) */
    *need_more = !complete && !header_inside(prefix->data, prefix->data + prefix->size);
    if (*need_more)
        return LG_OK;
    lg_status_t st = parse_header(path, prefix, &h);
    if (st != LG_OK)
        return st;
    out->rules = mtx_rules(&h);
    out->body = (size_t)(h.body - prefix->data);
    out->n = h.rows;
    out->directedness = h.symmetric ? LG_UNDIRECTED : LG_DIRECTED;
    out->entries = h.nnz;
    out->size_line = h.size_line;
    out->unweighted = false;
    return LG_OK;
}

lg_status_t lg__read_mtx(lg_context_t *context, const char *path, const lg_graph_options_t *options,
                         lg_graph_t **graph)
{
    struct lg_text_header h;
    struct lg_edge_arrays e = {0};
    /* an entry past the declared count is the reader's error, at its line */
    lg_status_t st = lg__read_text_edges(path, lg__mtx_header, LG_FORMAT_MTX,
                                         options->weight_type == LG_WEIGHTS_FLOAT64,
                                         lg__threads(context),
                                         lg__graph_progress(options), &h, &e);
    if (st == LG_OK && e.count < h.entries)
        st = lg__error(LG_ERR_IO,
                       "%s:%lld: the size line declares %lld entries, but the file has only %lld",
                       path, (long long)h.size_line, (long long)h.entries, (long long)e.count);
    if (st == LG_OK)
        st = lg__graph_from_text(context, path, h.n, &e, options, h.directedness, graph);
    lg__free_edges(&e);
    return st;
}

/* ---- the writer ---------------------------------------------------------------- */

lg_status_t lg__write_mtx(struct lg_out_file *out, const lg_graph_t *g, int threads)
{
    const struct lg_text_style s = {1, g->directed ? LG_ALL_ARCS : LG_ROW_GE_COL,
                                    g->out.weights != NULL};
    char head[160];
    const int len = snprintf(
        head, sizeof head, "%%%%MatrixMarket matrix coordinate %s %s\n%lld %lld %lld\n",
        s.weights ? "real" : "pattern", g->directed ? "general" : "symmetric", (long long)g->n,
        (long long)g->n, (long long)lg__count_kept_arcs(g, s.keep, threads));
    lg_status_t st = lg__out_write(out, head, (size_t)len);
    return st != LG_OK ? st : lg__write_arcs(out, g, &s, threads);
}
