/*
 * build.c - edges in, CSR out.
 *
 * Every builder runs the same pipeline:
 *
 *   validate  every id in [0, n) and every weight finite and >= 0; the error
 *             names the first offending edge, and nothing has been allocated
 *   rows      a stable counting sort of the arcs by source (an undirected
 *             edge {u, v} is the arcs u->v and v->u; self-loops once, or
 *             dropped): per-chunk histograms, then each chunk scatters its
 *             arcs at its own running offsets, so input order survives
 *   sort      each row stably by destination (insertion sort, or an LSD
 *             radix sort: rows are short and sit in cache), so equal
 *             destinations stay in input order -- what FIRST/LAST rely on
 *   merge     duplicates by the chosen policy, then compact the rows
 *
 * All phases are OpenMP-parallel and deterministic: the result does not depend
 * on the thread count.  The chunked histograms cost chunks * (n + 1) counters;
 * the chunk count is capped so that they never outweigh the arcs themselves.
 * The lazy CSC of a directed graph is the "rows" pass alone (lg__csr_transpose):
 * a stable sort of already sorted rows by column leaves its rows sorted.
 */
#include "internal.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- validation ------------------------------------------------------------ */

/* Index of the first edge whose endpoint or weight is invalid, or -1. */
static int64_t first_bad_edge(int64_t n, int64_t E, const lg_vertex_t *src,
                              const lg_vertex_t *dst, const float *w, int threads)
{
    int64_t first = E;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : first)
    for (int64_t i = 0; i < E; i++) {
        bool bad = src[i] < 0 || src[i] >= n || dst[i] < 0 || dst[i] >= n;
        if (w)
            bad = bad || !isfinite(w[i]) || w[i] < 0.0f;
        if (bad && i < first)
            first = i;
    }
    return first < E ? first : -1;
}

/* The message for edge i (u -> v, weight *w or no weight) that failed validation. */
static lg_status_t report_bad_edge(const char *fn, int64_t i, int64_t n, lg_vertex_t u,
                                   lg_vertex_t v, const float *w)
{
    if (u < 0 || u >= n)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: edge %lld: source %d %s num_vertices %lld",
                         fn, (long long)i, (int)u, u < 0 ? "< 0," : ">=", (long long)n);
    if (v < 0 || v >= n)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: edge %lld: destination %d %s num_vertices %lld", fn, (long long)i,
                         (int)v, v < 0 ? "< 0," : ">=", (long long)n);
    return lg__error(LG_ERR_INVALID_ARGUMENT,
                     "%s: edge %lld (%d -> %d): weight %g is not finite and >= 0", fn,
                     (long long)i, (int)u, (int)v, w ? (double)*w : 0.0);
}

/* counts[0..n) -> offsets[0..n]: exclusive prefix sums, counts[n] := the total
 * (counts[n] is ignored on input).  Blocked two-pass scan, one block a thread. */
static lg_edge_t offsets_from_counts(lg_edge_t *a, int64_t n, int threads)
{
    enum { MAX_BLOCKS = 256 };
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

/* Arcs to sort: arc i is src[i] -> dst[i], except that one of src and dst
 * may be NULL when the arcs are a CSR's: that side of arc i is then its row
 * (rows[r] <= i < rows[r + 1]), found by walking the offsets, so no array of
 * row ids is written and read back. */
struct arc_source {
    int64_t n, E;
    const lg_vertex_t *src, *dst;
    const lg_edge_t *rows;
    const float *w;
    bool add_reverse, drop_loops;
};

/* The row of a CSR holding arc i: rows[r] <= i < rows[r + 1] (i < rows[n]). */
static int64_t row_of_arc(const lg_edge_t *rows, int64_t n, int64_t i)
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
static inline void arc_at(const struct arc_source *a, int64_t i, int64_t *row, lg_vertex_t *u,
                          lg_vertex_t *v)
{
    if (a->rows)
        while (a->rows[*row + 1] <= i)
            (*row)++;
    *u = a->src ? a->src[i] : (lg_vertex_t)*row;
    *v = a->dst ? a->dst[i] : (lg_vertex_t)*row;
}

/* How many chunks the edges are cut into: up to one a thread, while the
 * chunk histograms (chunks * (n + 1) counters) stay below the edge arrays. */
static int chunk_count(int64_t n, int64_t E, int threads)
{
    int64_t c = threads;
    while (c > 1 && c * (n + 1) > 2 * E + 65536)
        c--;
    return (int)c;
}

/* Stable counting sort of an arc source by source vertex: out gets the rows,
 * each row's arcs in input order.  *m_out = the number of arcs. */
static lg_status_t counting_sort(const struct arc_source *a, int threads, struct lg_csr *out,
                                 int64_t *m_out)
{
    lg_status_t st = LG_OK;
    const int64_t n = a->n, E = a->E;
    const int chunks = chunk_count(n, E, threads);
    const bool weighted = a->w != NULL;
    lg_edge_t *hist = NULL, *offsets = NULL;
    lg_vertex_t *idx = NULL;
    float *w = NULL;

    memset(out, 0, sizeof *out);
    hist = lg__calloc((size_t)chunks * (size_t)(n + 1), sizeof *hist);
    offsets = lg__alloc_array((size_t)n + 1, sizeof *offsets, "CSR row offsets");
    if (!hist || !offsets) {
        st = hist ? LG_ERR_OUT_OF_MEMORY : lg__oom("edge-count histograms");
        goto cleanup;
    }

#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int c = 0; c < chunks; c++) {
        lg_edge_t *h = hist + (size_t)c * (size_t)(n + 1);
        const int64_t lo = E * c / chunks, hi = E * (c + 1) / chunks;
        int64_t row = a->rows && lo < hi ? row_of_arc(a->rows, n, lo) : 0;
        for (int64_t i = lo; i < hi; i++) {
            lg_vertex_t u, v;
            arc_at(a, i, &row, &u, &v);
            if (u == v) {
                if (!a->drop_loops)
                    h[u]++;
                continue;
            }
            h[u]++;
            if (a->add_reverse)
                h[v]++;
        }
    }
    /* offsets[v] = degree; chunk c of row v starts after chunks 0..c-1 of it */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) {
        lg_edge_t run = 0;
        for (int c = 0; c < chunks; c++) {
            lg_edge_t x = hist[(size_t)c * (size_t)(n + 1) + v];
            hist[(size_t)c * (size_t)(n + 1) + v] = run;
            run += x;
        }
        offsets[v] = run;
    }
    const lg_edge_t A = offsets_from_counts(offsets, n, threads);
    /* each chunk's cursor for row v starts at the row's offset plus what
     * earlier chunks put there: the scatter then needs one lookup an arc */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        for (int c = 0; c < chunks; c++)
            hist[(size_t)c * (size_t)(n + 1) + v] += offsets[v];

    idx = lg__alloc_array((size_t)A, sizeof *idx, "CSR column indices");
    if (weighted)
        w = lg__alloc_array((size_t)A, sizeof *w, "CSR weights");
    if (!idx || (weighted && !w)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }

#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int c = 0; c < chunks; c++) {
        lg_edge_t *h = hist + (size_t)c * (size_t)(n + 1);
        const int64_t lo = E * c / chunks, hi = E * (c + 1) / chunks;
        int64_t row = a->rows && lo < hi ? row_of_arc(a->rows, n, lo) : 0;
        for (int64_t i = lo; i < hi; i++) {
            lg_vertex_t u, v;
            arc_at(a, i, &row, &u, &v);
            if (u == v && a->drop_loops)
                continue;
            lg_edge_t p = h[u]++;
            idx[p] = v;
            if (weighted)
                w[p] = a->w[i];
            if (a->add_reverse && u != v) {
                p = h[v]++;
                idx[p] = u;
                if (weighted)
                    w[p] = a->w[i];
            }
        }
    }

    out->offsets = offsets;
    out->indices = idx;
    out->weights = w;
    *m_out = A;
    offsets = NULL;
    idx = NULL;
    w = NULL;

cleanup:
    lg__free(hist);
    lg__free(offsets);
    lg__free(idx);
    lg__free(w);
    return st;
}

/* ---- row sorting ------------------------------------------------------------------ */

/* Stable insertion sort of a short run by destination, weights moving along. */
static void insertion_sort(lg_vertex_t *idx, float *w, int64_t len)
{
    for (int64_t i = 1; i < len; i++) {
        lg_vertex_t v = idx[i];
        float x = w ? w[i] : 0.0f;
        int64_t j = i;
        for (; j > 0 && idx[j - 1] > v; j--) {
            idx[j] = idx[j - 1];
            if (w)
                w[j] = w[j - 1];
        }
        idx[j] = v;
        if (w)
            w[j] = x;
    }
}

/* Stable sort of one row by destination (equal destinations keep their
 * order), weights moving along: insertion sort for short rows, else an LSD
 * radix sort on 8-bit digits of the key_bits-bit ids, one counting pass for
 * all digits and one scatter pass a digit (skipped where every id shares the
 * digit), ping-ponging with the scratch (tmp_idx, tmp_w: len entries). */
static void sort_row(lg_vertex_t *idx, float *w, int64_t len, int key_bits, lg_vertex_t *tmp_idx,
                     float *tmp_w)
{
    enum { SHORT = 48, DIGITS = 4 };
    int64_t k = 1;
    while (k < len && idx[k - 1] <= idx[k])
        k++;
    if (k >= len)
        return; /* already sorted */
    if (len <= SHORT) {
        insertion_sort(idx, w, len);
        return;
    }
    const int passes = (key_bits + 7) / 8;
    int64_t count[DIGITS][256];
    memset(count, 0, sizeof count);
    for (int64_t i = 0; i < len; i++) {
        uint32_t x = (uint32_t)idx[i];
        for (int d = 0; d < passes; d++)
            count[d][(x >> (8 * d)) & 255]++;
    }
    lg_vertex_t *a = idx, *b = tmp_idx;
    float *aw = w, *bw = tmp_w;
    for (int d = 0; d < passes; d++) {
        int64_t *c = count[d], run = 0;
        if (c[((uint32_t)a[0] >> (8 * d)) & 255] == len)
            continue; /* one bucket: the pass would copy */
        for (int x = 0; x < 256; x++) {
            int64_t t = c[x];
            c[x] = run;
            run += t;
        }
        if (w) {
            for (int64_t i = 0; i < len; i++) {
                int64_t p = c[((uint32_t)a[i] >> (8 * d)) & 255]++;
                b[p] = a[i];
                bw[p] = aw[i];
            }
        } else {
            for (int64_t i = 0; i < len; i++)
                b[c[((uint32_t)a[i] >> (8 * d)) & 255]++] = a[i];
        }
        lg_vertex_t *t = a;
        a = b;
        b = t;
        float *tw = aw;
        aw = bw;
        bw = tw;
    }
    if (a != idx) {
        memcpy(idx, a, (size_t)len * sizeof *idx);
        if (w)
            memcpy(w, aw, (size_t)len * sizeof *w);
    }
}

/* ---- duplicate merging ----------------------------------------------------------- */

/* Merges runs of equal destinations in one sorted row in place; returns the new length. */
static int64_t merge_row(lg_vertex_t *idx, float *w, int64_t len, lg_duplicates_t policy)
{
    if (policy == LG_DUPLICATES_KEEP)
        return len;
    int64_t out = 0;
    for (int64_t i = 0; i < len; out++) {
        int64_t j = i + 1;
        float acc = w ? w[i] : 0.0f;
        for (; j < len && idx[j] == idx[i]; j++) {
            if (!w)
                continue;
            switch (policy) {
            case LG_DUPLICATES_SUM: acc += w[j]; break;
            case LG_DUPLICATES_MIN: acc = w[j] < acc ? w[j] : acc; break;
            case LG_DUPLICATES_MAX: acc = w[j] > acc ? w[j] : acc; break;
            case LG_DUPLICATES_LAST: acc = w[j]; break;
            default: break; /* FIRST keeps acc */
            }
        }
        idx[out] = idx[i];
        if (w)
            w[out] = acc;
        i = j;
    }
    return out;
}

/* The scratch a thread needs to sort rows: rows up to `each` long are sorted
 * in parallel with one scratch a thread; the few longer ones (at most
 * 4 * threads of them) one after another with a scratch of the longest. */
struct row_scratch {
    int64_t each, longest;
    lg_vertex_t *idx;
    float *w;
};

static lg_status_t row_scratch_alloc(int64_t n, const struct lg_csr *c, int threads,
                                     struct row_scratch *s)
{
    const int64_t m = c->offsets[n];
    int64_t longest = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : longest)
    for (int64_t v = 0; v < n; v++)
        if (c->offsets[v + 1] - c->offsets[v] > longest)
            longest = c->offsets[v + 1] - c->offsets[v];
    int64_t each = m / (4 * (int64_t)threads);
    each = each < 65536 ? 65536 : each;
    s->each = longest < each ? longest : each;
    s->longest = longest;
    size_t total = (size_t)s->each * (size_t)threads + (size_t)(longest > s->each ? longest : 0);
    s->idx = lg__alloc_array(total ? total : 1, sizeof *s->idx, "row-sort scratch");
    s->w = c->weights && s->idx ? lg__alloc_array(total ? total : 1, sizeof *s->w, "row-sort scratch")
                                : NULL;
    if (!s->idx || (c->weights && !s->w)) {
        lg__free(s->idx);
        lg__free(s->w);
        return LG_ERR_OUT_OF_MEMORY;
    }
    return LG_OK;
}

/* Sorts every row of a CSR by destination (stably, when `sort`) and merges
 * duplicate arcs by the policy, compacting the arrays; *m is updated.  On
 * failure the CSR is unusable and must be freed. */
static lg_status_t finish_rows(int64_t n, struct lg_csr *c, int64_t *m, lg_duplicates_t policy,
                               bool sort, int threads)
{
    const bool weighted = c->weights != NULL;
    struct row_scratch s = {0};
    lg_vertex_t *idx = NULL;
    float *w = NULL;
    lg_edge_t *offsets = NULL;
    int key_bits = 1;
    while (key_bits < 31 && ((int64_t)1 << key_bits) < n)
        key_bits++;
    if (sort && row_scratch_alloc(n, c, threads, &s) != LG_OK)
        return LG_ERR_OUT_OF_MEMORY;
    if (!sort && policy == LG_DUPLICATES_KEEP)
        return LG_OK;
    offsets = lg__alloc_array((size_t)n + 1, sizeof *offsets, "CSR row offsets");
    if (!offsets) {
        lg__free(s.idx);
        lg__free(s.w);
        return LG_ERR_OUT_OF_MEMORY;
    }
    /* merging in place is safe to repeat: a merged row merges to itself */
#pragma omp parallel num_threads(threads)
    {
#ifdef _OPENMP
        const size_t t = (size_t)omp_get_thread_num();
#else
        const size_t t = 0;
#endif
        lg_vertex_t *ti = sort ? s.idx + t * (size_t)s.each : NULL;
        float *tw = sort && weighted ? s.w + t * (size_t)s.each : NULL;
#pragma omp for schedule(dynamic, 1024)
        for (int64_t v = 0; v < n; v++) {
            lg_edge_t lo = c->offsets[v], len = c->offsets[v + 1] - lo;
            if (sort && len > s.each)
                continue; /* below, one at a time */
            if (sort)
                sort_row(c->indices + lo, weighted ? c->weights + lo : NULL, len, key_bits, ti, tw);
            offsets[v] = merge_row(c->indices + lo, weighted ? c->weights + lo : NULL, len, policy);
        }
    }
    if (sort && s.longest > s.each) {
        lg_vertex_t *ti = s.idx + (size_t)threads * (size_t)s.each;
        float *tw = weighted ? s.w + (size_t)threads * (size_t)s.each : NULL;
        for (int64_t v = 0; v < n; v++) {
            lg_edge_t lo = c->offsets[v], len = c->offsets[v + 1] - lo;
            if (len <= s.each)
                continue;
            sort_row(c->indices + lo, weighted ? c->weights + lo : NULL, len, key_bits, ti, tw);
            offsets[v] = merge_row(c->indices + lo, weighted ? c->weights + lo : NULL, len, policy);
        }
    }
    lg__free(s.idx);
    lg__free(s.w);
    /* Inputs are finite, so only a sum can overflow: find the first such arc. */
    int64_t overflow_row = n;
    if (weighted && policy == LG_DUPLICATES_SUM) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(min : overflow_row)
        for (int64_t v = 0; v < n; v++)
            for (lg_edge_t e = c->offsets[v]; e < c->offsets[v] + offsets[v]; e++)
                if (!isfinite(c->weights[e]) && v < overflow_row)
                    overflow_row = v;
    }
    if (overflow_row < n) {
        lg_edge_t e = c->offsets[overflow_row];
        while (isfinite(c->weights[e]))
            e++;
        lg__free(offsets);
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "duplicates of the edge %lld -> %d sum to a weight beyond float's range",
                         (long long)overflow_row, (int)c->indices[e]);
    }
    const int64_t merged = offsets_from_counts(offsets, n, threads);
    if (merged == *m) {
        lg__free(offsets);
        return LG_OK;
    }
    idx = lg__alloc_array((size_t)merged, sizeof *idx, "CSR column indices");
    if (weighted)
        w = lg__alloc_array((size_t)merged, sizeof *w, "CSR weights");
    if (!idx || (weighted && !w)) {
        /* the rows are half-merged now: the caller frees the whole CSR */
        lg__free(offsets);
        lg__free(idx);
        lg__free(w);
        return LG_ERR_OUT_OF_MEMORY;
    }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t v = 0; v < n; v++) {
        lg_edge_t len = offsets[v + 1] - offsets[v];
        memcpy(idx + offsets[v], c->indices + c->offsets[v], (size_t)len * sizeof *idx);
        if (weighted)
            memcpy(w + offsets[v], c->weights + c->offsets[v], (size_t)len * sizeof *w);
    }
    lg__csr_free(c);
    c->offsets = offsets;
    c->indices = idx;
    c->weights = w;
    *m = merged;
    return LG_OK;
}

/*
 * Builds a CSR with sorted rows from an arc source: a stable counting sort by
 * source gives the rows with their arcs in input order, then each row is
 * stably sorted by destination (cache-resident: rows are short) and merged.
 * One random scatter of the arcs; the row sorts are local.
 */
static lg_status_t arcs_to_csr(const struct arc_source *a, lg_duplicates_t policy, int threads,
                               struct lg_csr *out, int64_t *m_out)
{
    int64_t m = 0;
    lg_status_t st = counting_sort(a, threads, out, &m);
    if (st == LG_OK && (st = finish_rows(a->n, out, &m, policy, true, threads)) != LG_OK)
        lg__csr_free(out);
    *m_out = m;
    return st;
}

/* ---- the transpose -------------------------------------------------------------- */

lg_status_t lg__csr_transpose(int64_t n, int64_t m, const struct lg_csr *in, int threads,
                              struct lg_csr *out)
{
    /* arcs u->v become v->u; the stable sort leaves each column's sources ascending */
    struct arc_source a = {n, m, in->indices, NULL, in->offsets, in->weights, false, false};
    int64_t mm = 0;
    return counting_sort(&a, threads, out, &mm);
}

/* ---- options and public builders -------------------------------------------------- */

void lg_graph_options_init(lg_graph_options_t *options)
{
    if (!options)
        return;
    options->directedness = LG_DIRECTEDNESS_DEFAULT;
    options->symmetrize = false;
    options->drop_self_loops = false;
    options->duplicates = LG_DUPLICATES_KEEP;
}

static lg_status_t check_options(const char *fn, const lg_graph_options_t *o)
{
    if (o->directedness != LG_DIRECTEDNESS_DEFAULT && o->directedness != LG_DIRECTED &&
        o->directedness != LG_UNDIRECTED)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown directedness %d", fn,
                         (int)o->directedness);
    if ((int)o->duplicates < (int)LG_DUPLICATES_KEEP || (int)o->duplicates > (int)LG_DUPLICATES_LAST)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown duplicates policy %d", fn,
                         (int)o->duplicates);
    return LG_OK;
}

static lg_status_t check_counts(const char *fn, int64_t n, int64_t E)
{
    if (n < 0 || n > LG_MAX_VERTICES)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: num_vertices %lld is outside [0, %lld]", fn, (long long)n,
                         (long long)LG_MAX_VERTICES);
    /* two arcs an edge must still fit lg_edge_t and size_t byte counts */
    if (E < 0 || E > INT64_MAX / 2 / 8)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: num_edges %lld is outside [0, %lld]", fn,
                         (long long)E, (long long)(INT64_MAX / 2 / 8));
    return LG_OK;
}

/* Builds from validated arcs (COO arrays, or a CSR when src is NULL and
 * rows holds its offsets). */
static lg_status_t build_from_arcs(int64_t n, int64_t E, const lg_vertex_t *src,
                                   const lg_vertex_t *dst, const lg_edge_t *rows, const float *w,
                                   bool directed, bool add_reverse, const lg_graph_options_t *o,
                                   int threads, lg_graph_t **graph)
{
    struct arc_source a = {n, E, src, dst, rows, w, add_reverse, o->drop_self_loops};
    struct lg_csr csr;
    int64_t m = 0;
    lg_status_t st = arcs_to_csr(&a, o->duplicates, threads, &csr, &m);
    if (st != LG_OK)
        return st;
    st = lg__graph_wrap(n, directed, &csr, graph);
    if (st == LG_OK)
        (*graph)->m = m;
    return st;
}

lg_status_t lg_graph_from_edges(lg_context_t *context, int64_t num_vertices, int64_t num_edges,
                                const lg_vertex_t *src, const lg_vertex_t *dst,
                                const float *weights, const lg_graph_options_t *options,
                                lg_graph_t **graph)
{
    static const char fn[] = "lg_graph_from_edges";
    lg_graph_options_t defaults;
    lg_status_t st;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    *graph = NULL;
    if (!options) {
        lg_graph_options_init(&defaults);
        options = &defaults;
    }
    if ((st = check_options(fn, options)) != LG_OK || (st = check_counts(fn, num_vertices, num_edges)) != LG_OK)
        return st;
    if (num_edges > 0 && (!src || !dst))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: src or dst is NULL with %lld edges", fn,
                         (long long)num_edges);
    const int threads = lg__threads_for(context, num_vertices + num_edges);
    int64_t bad = first_bad_edge(num_vertices, num_edges, src, dst, weights, threads);
    if (bad >= 0)
        return report_bad_edge(fn, bad, num_vertices, src[bad], dst[bad],
                               weights ? &weights[bad] : NULL);
    const bool directed = options->directedness != LG_UNDIRECTED;
    const bool add_reverse = !directed || options->symmetrize;
    return build_from_arcs(num_vertices, num_edges, src, dst, NULL, weights, directed,
                           add_reverse, options, threads, graph);
}

/* First index >= lo in the sorted idx[lo, hi) that is >= key. */
static lg_edge_t lower_bound(const lg_vertex_t *idx, lg_edge_t lo, lg_edge_t hi, lg_vertex_t key)
{
    while (lo < hi) {
        lg_edge_t mid = lo + (hi - lo) / 2;
        if (idx[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A hash of the weights of arcs [lo, hi) as a multiset (-0.0 counts as 0.0). */
static uint64_t weights_hash(const float *w, lg_edge_t lo, lg_edge_t hi)
{
    uint64_t h = 0;
    for (lg_edge_t e = lo; w && e < hi; e++) {
        union {
            float f;
            uint32_t bits;
        } x = {w[e] + 0.0f};
        h += lg__mix64(x.bits);
    }
    return h;
}

/* Whether row u of a CSR with sorted rows is mirrored: every run of k arcs
 * u->v is matched by a run of k arcs v->u with the same weights. */
static bool row_mirrored(const struct lg_csr *c, int64_t u)
{
    const lg_edge_t end = c->offsets[u + 1];
    for (lg_edge_t e = c->offsets[u]; e < end;) {
        const lg_vertex_t v = c->indices[e];
        lg_edge_t run = e;
        while (run < end && c->indices[run] == v)
            run++;
        const lg_edge_t lo = c->offsets[v], hi = c->offsets[v + 1];
        const lg_edge_t f = lower_bound(c->indices, lo, hi, (lg_vertex_t)u);
        lg_edge_t g = f;
        while (g < hi && c->indices[g] == u)
            g++;
        if (g - f != run - e || weights_hash(c->weights, e, run) != weights_hash(c->weights, f, g))
            return false;
        e = run;
    }
    return true;
}

/* A 64-bit hash of the arc u -> v with weight w (-0.0 hashes as 0.0). */
static uint64_t arc_hash(lg_vertex_t u, lg_vertex_t v, float w)
{
    uint64_t key = (uint64_t)(uint32_t)u << 32 | (uint32_t)v;
    return lg__mix64(lg__mix64(key) ^ weights_hash(&w, 0, 1));
}

/*
 * Whether a CSR is symmetric: the multiset of arcs (u, v, w) equals the
 * multiset of their reverses (v, u, w).  Summing a strong hash over each
 * multiset (incremental multiset hashing, Clarke et al., ASIACRYPT 2003)
 * compares them in one sequential pass; a random asymmetric input passes with
 * probability 2^-64.  Looking up each reverse arc instead costs a cache miss
 * an arc (3 s on kron20 here, against 0.05 s).
 */
static bool csr_symmetric(int64_t n, const struct lg_csr *c, int threads)
{
    uint64_t diff = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(+ : diff)
    for (int64_t u = 0; u < n; u++)
        for (lg_edge_t e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
            float w = c->weights ? c->weights[e] : 1.0f;
            diff += arc_hash((lg_vertex_t)u, c->indices[e], w) -
                    arc_hash(c->indices[e], (lg_vertex_t)u, w);
        }
    return diff == 0;
}

/* The first row of a CSR with sorted rows that is not mirrored, or -1.  Slow
 * (a random access a run of arcs): only run to name the row once
 * csr_symmetric has said no. */
static int64_t first_asymmetric_row(int64_t n, const struct lg_csr *c, int threads)
{
    int64_t first = n;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(min : first)
    for (int64_t u = 0; u < n; u++)
        if (u < first && !row_mirrored(c, u))
            first = u;
    return first < n ? first : -1;
}

/* The first arc (as an index) of a CSR whose column or weight is invalid, or -1. */
static int64_t first_bad_arc(int64_t n, const lg_edge_t *offsets, const lg_vertex_t *idx,
                             const float *w, int threads, int64_t *row)
{
    int64_t first = offsets[n];
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(min : first)
    for (int64_t v = 0; v < n; v++)
        for (lg_edge_t e = offsets[v]; e < offsets[v + 1] && e < first; e++)
            if (idx[e] < 0 || idx[e] >= n || (w && (!isfinite(w[e]) || w[e] < 0.0f)))
                first = e;
    if (first == offsets[n])
        return -1;
    *row = row_of_arc(offsets, n, first);
    return first;
}

/* Whether every row of a CSR is sorted by column. */
static bool rows_sorted(int64_t n, const lg_edge_t *offsets, const lg_vertex_t *idx, int threads)
{
    bool sorted = true;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(&& : sorted)
    for (int64_t v = 0; v < n; v++)
        for (lg_edge_t e = offsets[v] + 1; e < offsets[v + 1] && sorted; e++)
            sorted = idx[e - 1] <= idx[e];
    return sorted;
}

/* A copy of CSR arrays that are already in final form. */
static lg_status_t copy_csr(int64_t n, const lg_edge_t *offsets, const lg_vertex_t *idx,
                            const float *w, struct lg_csr *out)
{
    const int64_t m = offsets[n];
    out->offsets = lg__alloc_array((size_t)n + 1, sizeof *out->offsets, "CSR row offsets");
    out->indices = lg__alloc_array((size_t)m, sizeof *out->indices, "CSR column indices");
    out->weights = w ? lg__alloc_array((size_t)m, sizeof *out->weights, "CSR weights") : NULL;
    if (!out->offsets || !out->indices || (w && !out->weights)) {
        lg__csr_free(out);
        return LG_ERR_OUT_OF_MEMORY;
    }
    memcpy(out->offsets, offsets, (size_t)(n + 1) * sizeof *offsets);
    if (m > 0) /* idx and w may be NULL when there are no arcs */
        memcpy(out->indices, idx, (size_t)m * sizeof *idx);
    if (w && m > 0)
        memcpy(out->weights, w, (size_t)m * sizeof *w);
    return LG_OK;
}

lg_status_t lg_graph_from_csr(lg_context_t *context, int64_t num_vertices,
                              const lg_edge_t *row_offsets, const lg_vertex_t *col_indices,
                              const float *weights, const lg_graph_options_t *options,
                              lg_graph_t **graph)
{
    static const char fn[] = "lg_graph_from_csr";
    lg_graph_options_t defaults;
    lg_status_t st;
    lg_graph_t *g = NULL;

    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    *graph = NULL;
    if (!options) {
        lg_graph_options_init(&defaults);
        options = &defaults;
    }
    if ((st = check_options(fn, options)) != LG_OK || (st = check_counts(fn, num_vertices, 0)) != LG_OK)
        return st;
    if (!row_offsets)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: row_offsets is NULL", fn);
    if (row_offsets[0] != 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: row_offsets[0] is %lld, not 0", fn,
                         (long long)row_offsets[0]);
    /* row_offsets[n] is not trusted yet: size the team by the vertices */
    int threads = lg__threads_for(context, num_vertices);
    int64_t bad_row = num_vertices;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : bad_row)
    for (int64_t v = 0; v < num_vertices; v++)
        if (row_offsets[v + 1] < row_offsets[v] && v < bad_row)
            bad_row = v;
    if (bad_row < num_vertices)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: row_offsets decrease at row %lld (%lld > %lld)", fn,
                         (long long)bad_row, (long long)row_offsets[bad_row],
                         (long long)row_offsets[bad_row + 1]);
    const int64_t E = row_offsets[num_vertices];
    if ((st = check_counts(fn, num_vertices, E)) != LG_OK)
        return st;
    if (E > 0 && !col_indices)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: col_indices is NULL with %lld arcs", fn,
                         (long long)E);
    threads = lg__threads_for(context, num_vertices + E);

    int64_t bad_src = 0, bad = first_bad_arc(num_vertices, row_offsets, col_indices, weights,
                                             threads, &bad_src);
    if (bad >= 0)
        return report_bad_edge(fn, bad, num_vertices, (lg_vertex_t)bad_src, col_indices[bad],
                               weights ? &weights[bad] : NULL);
    const bool directed = options->directedness != LG_UNDIRECTED;
    if (!options->symmetrize && !options->drop_self_loops &&
        rows_sorted(num_vertices, row_offsets, col_indices, threads)) {
        /* already a CSR in final form but for duplicates: copy, merge, done */
        int64_t m = E;
        struct lg_csr c = {0};
        st = copy_csr(num_vertices, row_offsets, col_indices, weights, &c);
        if (st == LG_OK && options->duplicates != LG_DUPLICATES_KEEP &&
            (st = finish_rows(num_vertices, &c, &m, options->duplicates, false, threads)) != LG_OK)
            lg__csr_free(&c);
        if (st == LG_OK)
            st = lg__graph_wrap(num_vertices, directed, &c, &g);
    } else {
        st = build_from_arcs(num_vertices, E, NULL, col_indices, row_offsets, weights, directed,
                             options->symmetrize, options, threads, &g);
    }
    if (st != LG_OK)
        goto cleanup;
    if (!directed && !options->symmetrize) {
        int64_t v = csr_symmetric(g->n, &g->out, threads)
                        ? -1
                        : first_asymmetric_row(g->n, &g->out, threads);
        if (v >= 0) {
            st = lg__error(LG_ERR_INVALID_ARGUMENT,
                           "%s: an undirected graph needs a symmetric CSR, but row %lld differs "
                           "from column %lld (set symmetrize to add the reverse arcs)",
                           fn, (long long)v, (long long)v);
            goto cleanup;
        }
    }
    *graph = g;
    g = NULL;

cleanup:
    lg_graph_free(&g);
    return st;
}
