/*
 * csr.c - the CSR primitives that graph building and the lazy in-edges share.
 *
 * The "rows" pass of graph building is a stable counting sort of arcs by
 * source: per-chunk histograms, one exclusive scan into row offsets, then each
 * chunk scatters its arcs at its own running offsets, so input order
 * survives.  The last chunk counts in the row offsets themselves, which then
 * serve as its cursors and are shifted back, so the histograms cost
 * (chunks - 1) * (n + 1) counters (none with one chunk: one thread, or many
 * more vertices than arcs); the chunk count is capped so that they never
 * outweigh the arcs themselves.  The in-edges of a directed graph (lg__csr_transpose) are this pass alone: a
 * stable sort of already sorted rows by column leaves every column sorted.
 */
#include "build.h"

#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void lg__csr_free(struct lg_csr *csr)
{
    if (!csr)
        return;
    lg__free(csr->offsets);
    lg__free(csr->indices);
    lg__free(csr->weights);
    lg__free(csr->weights64);
    memset(csr, 0, sizeof *csr);
}

/* counts[0..n) -> offsets[0..n]: exclusive prefix sums, counts[n] := the total
 * (counts[n] is ignored on input).  Blocked two-pass scan, one block a thread. */
lg_edge_t lg__offsets_from_counts(lg_edge_t *a, int64_t n, int threads)
{
    enum {
        MAX_BLOCKS = 256
    };
    lg_edge_t block_start[MAX_BLOCKS + 1] = {0};
    int nb = threads < MAX_BLOCKS ? threads : MAX_BLOCKS;
    if (n < 65536)
        nb = 1;
#pragma omp parallel num_threads(nb)
    {
#ifdef _OPENMP
        int b = omp_get_thread_num(), real = omp_get_num_threads();
#else
        int b = 0, real = 1;
#endif
        int64_t lo = n * b / real, hi = n * (b + 1) / real;
        lg_edge_t s = 0;
        for (int64_t i = lo; i < hi; i++)
            s += a[i];
        block_start[b + 1] = s;
#pragma omp barrier
#pragma omp single
        for (int k = 1; k <= real; k++)
            block_start[k] += block_start[k - 1];
        lg_edge_t run = block_start[b];
        for (int64_t i = lo; i < hi; i++) {
            lg_edge_t x = a[i];
            a[i] = run;
            run += x;
        }
        if (b == real - 1)
            a[n] = run;
    }
    return a[n];
}

/* ---- the counting sort -------------------------------------------------------------- */

/* The row of a CSR holding arc i: rows[r] <= i < rows[r + 1] (i < rows[n]). */
int64_t lg__row_of_arc(const lg_edge_t *rows, int64_t n, int64_t i)
{
    int64_t lo = 0, hi = n;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (rows[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Arc i of a source whose rows cursor stands at *row (walked forward as i grows). */
static inline void arc_at(const struct lg__arc_source *a, int64_t i, int64_t *row, lg_vertex_t *u,
                          lg_vertex_t *v)
{
    if (a->rows)
        while (a->rows[*row + 1] <= i)
            (*row)++;
    *u = a->src ? a->src[i] : (lg_vertex_t)*row;
    *v = a->dst ? a->dst[i] : (lg_vertex_t)*row;
}

/* Part `part` of `parts` of chunk c of `chunks`: its arcs [*lo, *hi), and
 * the row of its first arc (the rows cursor of arc_at). */
static inline int64_t chunk_of(const struct lg__arc_source *a, int c, int chunks, int part,
                               int parts, int64_t *lo, int64_t *hi)
{
    const int64_t first = a->E * c / chunks, len = a->E * (c + 1) / chunks - first;
    *lo = first + len * part / parts;
    *hi = first + len * (part + 1) / parts;
    return a->rows && *lo < *hi ? lg__row_of_arc(a->rows, a->n, *lo) : 0;
}

/* One pass over a part of chunk c's arcs, moving each kept arc's row
 * cursor h[u] on by one (and h[v] for the reverse arc).  With idx, the arc
 * is stored where the cursor stood (the scatter; w: its weight too);
 * without, the pass only counts.  Inlined with constant NULLs into the
 * counting pass, whose loop then has no stores but the counts.  A chunk's
 * parts in order keep its arcs in input order. */
static inline __attribute__((always_inline)) void chunk_pass(const struct lg__arc_source *a, int c,
                                                             int chunks, int part, int parts,
                                                             lg_edge_t *h, lg_vertex_t *idx,
                                                             float *w, double *w64)
{
    int64_t lo, hi, row = chunk_of(a, c, chunks, part, parts, &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
        lg_vertex_t u, v;
        arc_at(a, i, &row, &u, &v);
        if (u == v && a->drop_loops)
            continue;
        lg_edge_t p = h[u]++;
        if (idx) {
            idx[p] = v;
            if (w)
                w[p] = a->w[i];
            if (w64)
                w64[p] = a->w64[i];
        }
        if (a->add_reverse && u != v) {
            p = h[v]++;
            if (idx) {
                idx[p] = u;
                if (w)
                    w[p] = a->w[i];
                if (w64)
                    w64[p] = a->w64[i];
            }
        }
    }
}

/* How many chunks the edges are cut into: up to one a thread, while the
 * chunk histograms (chunks * (n + 1) counters) stay below the edge arrays,
 * give or take 65,536 counters, so that small inputs keep a chunk a thread. */
static int chunk_count(int64_t n, int64_t E, int threads)
{
    int64_t c = threads;
    while (c > 1 && c * (n + 1) > 2 * E + 65536)
        c--;
    return (int)c;
}

/* Room left at the start of row v (a->room), or 0. */
static inline lg_edge_t room_of(const struct lg__arc_source *a, int64_t v)
{
    return a->room ? a->room[v + 1] - a->room[v] : 0;
}

/* Stable counting sort of an arc source by source vertex: out gets the rows,
 * each row's arcs in input order.  *m_out = the number of arcs.
 *
 * Chunk c's cursors are hist[c] for c < last = chunks - 1, and the row
 * offsets themselves for the last chunk: its cursor for row v ends at the
 * row's end, which is the next row's start, so one shift afterwards turns
 * the cursors into the offsets and one histogram fewer is held. */
lg_status_t lg__counting_sort(const struct lg__arc_source *a, int threads,
                              struct lg_progress progress, struct lg_csr *out, int64_t *m_out)
{
    lg_status_t st = LG_OK;
    const int64_t n = a->n, E = a->E;
    const int chunks = chunk_count(n, E, threads), last = chunks - 1;
    const size_t stride = (size_t)n + 1;
    lg_edge_t *hist = NULL, *offsets = NULL;
    lg_vertex_t *idx = NULL;
    float *w = NULL;
    double *w64 = NULL;
#define CURSORS(c) ((c) < last ? hist + (size_t)(c)*stride : offsets)

    memset(out, 0, sizeof *out);
    {
        /* n comes from input (a file's size line or largest id): ask before
         * taking memory that overcommit would grant and the kernel reclaim.
         * The build's peak is the larger of two moments: this sort (what the
         * builder holds, the histograms and offsets, the arcs) and the row
         * pass after it (the arcs, two offset arrays, the row-sort scratch:
         * a quarter of the arcs at most but for one long row) */
        const size_t arcs = (size_t)E * (a->add_reverse ? 2u : 1u);
        const size_t arc_bytes = arcs * (sizeof(lg_vertex_t) + (a->w ? sizeof(float) : 0) +
                                          (a->w64 ? sizeof(double) : 0));
        const size_t row_bytes = stride * sizeof(lg_edge_t);
        const size_t sorting = a->held + (size_t)chunks * row_bytes + arc_bytes;
        const size_t rows = arc_bytes + arc_bytes / 4 + 2 * row_bytes;
        const size_t peak = sorting > rows ? sorting : rows;
        lg__note_peak(peak);
        if (peak - a->held >= ((size_t)16 << 20)) {
            char what[96];
            snprintf(what, sizeof what, "a graph of %lld vertices and %lld arcs", (long long)n,
                     (long long)arcs);
            if ((st = lg__check_available(peak - a->held, what)) != LG_OK)
                return st;
        }
    }
    hist = last > 0 ? lg__calloc((size_t)last * stride, sizeof *hist) : NULL;
    offsets = lg__calloc(stride, sizeof *offsets);
    if ((last > 0 && !hist) || !offsets) {
        st = lg__oom(offsets ? "edge-count histograms" : "CSR row offsets");
        goto cleanup;
    }
    /* the arrays for the most arcs there can be (dropped self-loops make
     * fewer: the tail goes back after the scatter) */
    const int64_t most = E * (a->add_reverse ? 2 : 1) + (a->room ? a->room[n] - a->room[0] : 0);
    idx = lg__alloc_array((size_t)most, sizeof *idx, "CSR column indices");
    if (a->w)
        w = lg__alloc_array((size_t)most, sizeof *w, "CSR weights");
    if (a->w64)
        w64 = lg__alloc_array((size_t)most, sizeof *w64, "CSR weights");
    if (!idx || (a->w && !w) || (a->w64 && !w64)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }

    /* the count in k rounds, each a part of every chunk, reported (build
     * steps 2 .. lg__build_counted); each round also touches a part of the
     * arc arrays, so that their page faults (a second per GB where the
     * kernel compacts memory for huge pages) are spread over steps that can
     * stop, not all in the scatter's first round */
    const int k = lg__rounds_of(progress);
    for (int r = 0; r < k; r++) {
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (int c = 0; c < chunks; c++)
            chunk_pass(a, c, chunks, r, k, CURSORS(c), NULL, NULL, NULL);
        const int64_t lo = most * r / k, hi = most * (r + 1) / k;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t p = lo; p < hi; p += 1024) { /* one store a 4 KiB page */
            idx[p] = 0;
            if (w)
                w[p] = 0.0f;
            if (w64)
                w64[p] = 0.0;
        }
        if (!lg_progress_go_on(progress, LG_STAGE_BUILD, LG_BUILD_CHECKED + 1 + r,
                               lg__build_steps(progress), 0.0)) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
    }
    /* hist[c][v] := what chunks 0..c put in row v; offsets[v] := the row's
     * length, room included */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) {
        lg_edge_t run = 0;
        for (int c = 0; c < last; c++)
            hist[(size_t)c * stride + v] = run += hist[(size_t)c * stride + v];
        offsets[v] += run + room_of(a, v);
    }
    const lg_edge_t A = lg__offsets_from_counts(offsets, n, threads);
    /* chunk c's cursor for row v: the row's start, past its room, after what
     * chunks 0..c-1 put there; the scatter then needs one lookup an arc */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) {
        const lg_edge_t start = offsets[v] + room_of(a, v);
        if (last > 0)
            offsets[v] = start + hist[(size_t)(last - 1) * stride + v];
        for (int c = last - 1; c > 0; c--)
            hist[(size_t)c * stride + v] = start + hist[(size_t)(c - 1) * stride + v];
        if (last > 0)
            hist[v] = start;
        else
            offsets[v] = start;
    }

    /* the scatter in 4k rounds, each a part of every chunk, reported (build
     * steps lg__build_counted + 1, ...; the last is the caller's) */
    const int scatter_rounds = 4 * k;
    for (int r = 0; r < scatter_rounds; r++) {
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (int c = 0; c < chunks; c++)
            chunk_pass(a, c, chunks, r, scatter_rounds, CURSORS(c), idx, w, w64);
        if (r + 1 < scatter_rounds &&
            !lg_progress_go_on(progress, LG_STAGE_BUILD, lg__build_counted(progress) + 1 + r,
                               lg__build_steps(progress), 0.0)) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
    }
#undef CURSORS
    /* the last chunk's cursors stand at each row's end, the next row's start */
    memmove(offsets + 1, offsets, (size_t)n * sizeof *offsets);
    offsets[0] = 0;

    if (A < most) {
        idx = lg__shrink(idx, (size_t)(A ? A : 1) * sizeof *idx);
        if (w)
            w = lg__shrink(w, (size_t)(A ? A : 1) * sizeof *w);
        if (w64)
            w64 = lg__shrink(w64, (size_t)(A ? A : 1) * sizeof *w64);
    }
    out->offsets = offsets;
    out->indices = idx;
    out->weights = w;
    out->weights64 = w64;
    *m_out = A;
    offsets = NULL;
    idx = NULL;
    w = NULL;
    w64 = NULL;

cleanup:
    lg__free(hist);
    lg__free(offsets);
    lg__free(idx);
    lg__free(w);
    lg__free(w64);
    return st;
}

/* ---- the transpose -------------------------------------------------------------- */

lg_status_t lg__csr_transpose(int64_t n, int64_t m, const struct lg_csr *in, int threads,
                              struct lg_csr *out)
{
    /* arcs u->v become v->u; the stable sort leaves each column's sources ascending */
    const size_t held = ((size_t)n + 1) * sizeof *in->offsets +
                        (size_t)m * (sizeof *in->indices + (in->weights ? sizeof *in->weights : 0) +
                                     (in->weights64 ? sizeof *in->weights64 : 0));
    struct lg__arc_source a = {.n = n,
                               .E = m,
                               .src = in->indices,
                               .rows = in->offsets,
                               .w = in->weights,
                               .w64 = in->weights64,
                               .held = held};
    int64_t mm = 0;
    const struct lg_progress none = {NULL, NULL, 1};
    return lg__counting_sort(&a, threads, none, out, &mm);
}
