/*
 * build.c - edges in, CSR out (lg_graph_from_edges).
 *
 * Every builder runs the same pipeline:
 *
 *   validate  every id in [0, n) and every weight finite and >= 0; the error
 *             names the first offending edge, and nothing has been allocated
 *   rows      a stable counting sort of the arcs by source (an undirected
 *             edge {u, v} is the arcs u->v and v->u; self-loops once, or
 *             dropped), so input order survives (csr.c)
 *   sort      each row stably by destination (insertion sort, or an LSD
 *             radix sort: rows are short and sit in cache), so equal
 *             destinations stay in input order -- what FIRST/LAST rely on
 *   merge     duplicates by the chosen policy, then compact the rows
 *
 * All phases are OpenMP-parallel and deterministic: the result does not depend
 * on the thread count.  lg_graph_from_csr (build_csr.c) shares the
 * validation messages, the merge and the arc pipeline.
 */
#include "build.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- validation ------------------------------------------------------------ */

/* Index of the first edge whose endpoint or weight is invalid, or -1. */
static int64_t first_bad_edge(int64_t n, int64_t E, const lg_vertex_t *src, const lg_vertex_t *dst,
                              const float *w, int threads)
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
lg_status_t lg__report_bad_edge(const char *fn, int64_t i, int64_t n, lg_vertex_t u, lg_vertex_t v,
                                const float *w)
{
    if (u < 0 || u >= n)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: edge %lld: source %d %s num_vertices %lld",
                         fn, (long long)i, (int)u, u < 0 ? "< 0," : ">=", (long long)n);
    if (v < 0 || v >= n)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: edge %lld: destination %d %s num_vertices %lld", fn, (long long)i,
                         (int)v, v < 0 ? "< 0," : ">=", (long long)n);
    return lg__error(LG_ERR_INVALID_ARGUMENT,
                     "%s: edge %lld (%d -> %d): weight %g is not finite and >= 0", fn, (long long)i,
                     (int)u, (int)v, w ? (double)*w : 0.0);
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
    enum {
        SHORT = 48,
        DIGITS = 4
    };
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
 * 4 * threads of them) one after another with a scratch of the longest.
 * `each` is at least 65,536 arcs, so that on a small graph, where
 * m / (4 * threads) is short, ordinary rows are not left to the serial pass. */
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
    s->w = c->weights && s->idx
               ? lg__alloc_array(total ? total : 1, sizeof *s->w, "row-sort scratch")
               : NULL;
    if (!s->idx || (c->weights && !s->w)) {
        lg__free(s->idx);
        lg__free(s->w);
        return LG_ERR_OUT_OF_MEMORY;
    }
    return LG_OK;
}

/* Sorts every row of a CSR by destination (stably, when `sort`) and merges
 * duplicate arcs by the policy, compacting the arrays; *m is updated.  The
 * rows go in LG_BUILD_ROW_ROUNDS rounds, each reported to progress (build
 * steps LG_BUILD_ROWS + 1, ...), which may stop the call.  On failure the
 * CSR is unusable and must be freed. */
lg_status_t lg__finish_rows(int64_t n, struct lg_csr *c, int64_t *m, lg_duplicates_t policy,
                            bool sort, int threads, struct lg_progress progress)
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
    for (int r = 0; r < LG_BUILD_ROW_ROUNDS; r++) {
        const int64_t first = n * r / LG_BUILD_ROW_ROUNDS, stop = n * (r + 1) / LG_BUILD_ROW_ROUNDS;
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
            for (int64_t v = first; v < stop; v++) {
                lg_edge_t lo = c->offsets[v], len = c->offsets[v + 1] - lo;
                if (sort && len > s.each)
                    continue; /* below, one at a time */
                if (sort)
                    sort_row(c->indices + lo, weighted ? c->weights + lo : NULL, len, key_bits, ti,
                             tw);
                offsets[v] =
                    merge_row(c->indices + lo, weighted ? c->weights + lo : NULL, len, policy);
            }
        }
        if (!lg_progress_go_on(progress, LG_STAGE_BUILD, LG_BUILD_ROWS + 1 + r, LG_BUILD_STEPS,
                               0.0)) {
            lg__free(s.idx);
            lg__free(s.w);
            lg__free(offsets);
            return LG_ERR_CANCELLED;
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
    const int64_t merged = lg__offsets_from_counts(offsets, n, threads);
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
static lg_status_t arcs_to_csr(const struct lg__arc_source *a, lg_duplicates_t policy, int threads,
                               struct lg_progress progress, struct lg_csr *out, int64_t *m_out)
{
    int64_t m = 0;
    lg_status_t st = lg__counting_sort(a, threads, progress, out, &m);
    if (st == LG_OK &&
        !lg_progress_go_on(progress, LG_STAGE_BUILD, LG_BUILD_ROWS, LG_BUILD_STEPS, 0.0)) {
        lg__csr_free(out);
        st = LG_ERR_CANCELLED;
    }
    if (st == LG_OK &&
        (st = lg__finish_rows(a->n, out, &m, policy, true, threads, progress)) != LG_OK)
        lg__csr_free(out);
    *m_out = m;
    return st;
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
    options->progress = NULL;
    options->progress_data = NULL;
}

lg_status_t lg__check_graph_options(const char *fn, const lg_graph_options_t *o)
{
    if (o->directedness != LG_DIRECTEDNESS_DEFAULT && o->directedness != LG_DIRECTED &&
        o->directedness != LG_UNDIRECTED)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown directedness %d", fn,
                         (int)o->directedness);
    if ((int)o->duplicates < (int)LG_DUPLICATES_KEEP ||
        (int)o->duplicates > (int)LG_DUPLICATES_LAST)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown duplicates policy %d", fn,
                         (int)o->duplicates);
    return LG_OK;
}

lg_status_t lg__graph_options_start(const char *fn, lg_graph_t **graph,
                                    const lg_graph_options_t **options,
                                    lg_graph_options_t *defaults)
{
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (!*options) {
        lg_graph_options_init(defaults);
        *options = defaults;
    }
    return lg__check_graph_options(fn, *options);
}

lg_status_t lg__check_counts(const char *fn, int64_t n, int64_t E)
{
    if (n < 0 || n > LG_MAX_VERTICES)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: num_vertices %lld is outside [0, %lld]", fn,
                         (long long)n, (long long)LG_MAX_VERTICES);
    /* two arcs an edge must still fit lg_edge_t and size_t byte counts */
    if (E < 0 || E > INT64_MAX / 2 / 8)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: num_edges %lld is outside [0, %lld]", fn,
                         (long long)E, (long long)(INT64_MAX / 2 / 8));
    return LG_OK;
}

/* Builds from validated arcs (COO arrays, or a CSR when src is NULL and
 * rows holds its offsets). */
lg_status_t lg__build_from_arcs(int64_t n, int64_t E, const lg_vertex_t *src,
                                const lg_vertex_t *dst, const lg_edge_t *rows, const float *w,
                                bool directed, bool add_reverse, const lg_graph_options_t *o,
                                int threads, lg_graph_t **graph)
{
    struct lg__arc_source a = {n, E, src, dst, rows, w, add_reverse, o->drop_self_loops};
    struct lg_csr csr;
    int64_t m = 0;
    lg_status_t st = arcs_to_csr(&a, o->duplicates, threads, lg__graph_progress(o), &csr, &m);
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
    if ((st = lg__graph_options_start(fn, graph, &options, &defaults)) != LG_OK ||
        (st = lg__check_counts(fn, num_vertices, num_edges)) != LG_OK)
        return st;
    if (num_edges > 0 && (!src || !dst))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: src or dst is NULL with %lld edges", fn,
                         (long long)num_edges);
    const int threads = lg__threads_for(context, num_vertices + num_edges);
    int64_t bad = first_bad_edge(num_vertices, num_edges, src, dst, weights, threads);
    if (bad >= 0)
        return lg__report_bad_edge(fn, bad, num_vertices, src[bad], dst[bad],
                                   weights ? &weights[bad] : NULL);
    if (!lg_progress_go_on(lg__graph_progress(options), LG_STAGE_BUILD, LG_BUILD_CHECKED,
                           LG_BUILD_STEPS, 0.0))
        return lg__cancelled(fn);
    const bool directed = options->directedness == LG_DIRECTED;
    const bool add_reverse = !directed || options->symmetrize;
    lg_graph_t *built = NULL; /* *graph is written only on success */
    st = lg__build_from_arcs(num_vertices, num_edges, src, dst, NULL, weights, directed,
                             add_reverse, options, threads, &built);
    if (st == LG_OK) {
        (void)lg_progress_go_on(lg__graph_progress(options), LG_STAGE_BUILD, LG_BUILD_STEPS,
                                LG_BUILD_STEPS, 0.0);
        *graph = built;
    }
    return st == LG_ERR_CANCELLED ? lg__cancelled(fn) : st;
}

/* First index >= lo in the sorted idx[lo, hi) that is >= key. */
