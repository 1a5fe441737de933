/*
 * text_write.c - a graph's arcs written as text lines "u v[ w]", the part
 * the Matrix Market and edge-list writers share.
 *
 * Arcs go out in CSR order (by source, then destination), filtered to one
 * arc per undirected edge where the format wants that.  Formatting is the
 * CPU's share of the work, so it runs in parallel: rounds of slices of
 * WRITE_SLICE_ARCS arcs, each slice formatted by one thread into its own
 * buffer, then the buffers written in order, so the file does not depend on
 * the thread count.  Ids are formatted by hand; weights with nine
 * significant digits, which read back as the same float.
 *
 * Errors: those of lg__out_write ("PATH: cannot write: strerror") and
 * LG_ERR_OUT_OF_MEMORY for the buffers.
 */
#include "io.h"

#include <stdio.h>

/* Text output: arcs a thread formats per round, the longest line one arc can
 * take ("2147483647 2147483647 -2.2250738585072014e-308\n" is 47 bytes), and
 * the most threads worth formatting for one output stream. */
#define WRITE_SLICE_ARCS ((int64_t)1 << 15)
#define TEXT_LINE_MAX 56
#define WEIGHT_TEXT_MAX 32
#define WRITE_THREADS_MAX 16

static inline bool keep_arc(enum lg_arc_filter keep, int64_t u, int64_t v)
{
    return keep == LG_ALL_ARCS || (keep == LG_ROW_GE_COL ? u >= v : u <= v);
}

static char *format_uint(char *p, uint64_t x)
{
    char digits[20];
    int k = 0;
    do {
        digits[k++] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    while (k)
        *p++ = digits[--k];
    return p;
}

/* Nine significant digits read back as the same float (FLT_DECIMAL_DIG),
 * seventeen as the same double (a float64 graph's: DBL_DECIMAL_DIG).  Whole
 * weights, the common case, skip printf: %.9g prints them as plain integers
 * below 1e9 anyway. */
static char *format_weight(char *p, double w, bool wide)
{
    if (w >= 0.0 && w < 1e9 && w == (double)(uint32_t)w)
        return format_uint(p, (uint32_t)w);
    return p + snprintf(p, WEIGHT_TEXT_MAX, wide ? "%.17g" : "%.9g", w);
}

/* The row that holds arc e (< m): the last row v with offsets[v] <= e. */
static int64_t row_of_arc(const lg_edge_t *offsets, int64_t n, int64_t e)
{
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (offsets[mid] <= e)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Formats arcs [lo, hi) (those the style keeps) into buf; returns the bytes. */
static size_t format_arcs(const lg_graph_t *g, const struct lg_text_style *s, int64_t lo,
                          int64_t hi, char *buf)
{
    const struct lg_csr *c = &g->out;
    char *p = buf;
    if (lo >= hi)
        return 0;
    int64_t u = row_of_arc(c->offsets, g->n, lo);
    for (int64_t e = lo; e < hi; e++) {
        while (c->offsets[u + 1] <= e)
            u++;
        const int64_t v = c->indices[e];
        if (!keep_arc(s->keep, u, v))
            continue;
        p = format_uint(p, (uint64_t)(u + s->id_base));
        *p++ = ' ';
        p = format_uint(p, (uint64_t)(v + s->id_base));
        if (s->weights) {
            *p++ = ' ';
            const double w = c->weights64 ? c->weights64[e] : c->weights ? (double)c->weights[e] : 1.0;
            p = format_weight(p, w, c->weights64 != NULL);
        }
        *p++ = '\n';
    }
    return (size_t)(p - buf);
}

lg_status_t lg__write_arcs(struct lg_out_file *out, const lg_graph_t *g,
                           const struct lg_text_style *s, int threads)
{
    lg_status_t st = LG_OK;
    const int64_t m = g->m, needed = (m + WRITE_SLICE_ARCS - 1) / WRITE_SLICE_ARCS;
    int slices = threads < WRITE_THREADS_MAX ? threads : WRITE_THREADS_MAX;
    if (needed < slices)
        slices = needed > 0 ? (int)needed : 1;
    const size_t slice_bytes = (size_t)WRITE_SLICE_ARCS * TEXT_LINE_MAX;
    char *buf = lg__alloc_array((size_t)slices, slice_bytes, "text output buffers");
    size_t *len = lg__alloc_array((size_t)slices, sizeof *len, "text output lengths");
    if (!buf || !len) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    for (int64_t first = 0; first < m && st == LG_OK; first += slices * WRITE_SLICE_ARCS) {
#pragma omp parallel for num_threads(slices) schedule(static, 1)
        for (int k = 0; k < slices; k++) {
            const int64_t lo = first + k * WRITE_SLICE_ARCS;
            const int64_t hi = lo + WRITE_SLICE_ARCS < m ? lo + WRITE_SLICE_ARCS : m;
            len[k] = format_arcs(g, s, lo < m ? lo : m, hi, buf + (size_t)k * slice_bytes);
        }
        for (int k = 0; k < slices && st == LG_OK; k++)
            st = lg__out_write(out, buf + (size_t)k * slice_bytes, len[k]);
    }

cleanup:
    lg__free(buf);
    lg__free(len);
    return st;
}

int64_t lg__count_kept_arcs(const lg_graph_t *g, enum lg_arc_filter keep, int threads)
{
    const struct lg_csr *c = &g->out;
    int64_t total = 0;
    if (keep == LG_ALL_ARCS)
        return g->m;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(+ : total)
    for (int64_t u = 0; u < g->n; u++)
        for (lg_edge_t e = c->offsets[u]; e < c->offsets[u + 1]; e++)
            total += keep_arc(keep, u, c->indices[e]);
    return total;
}
