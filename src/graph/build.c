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
 *
 * Memory: the merge compacts in place, and edges the library made itself
 * (the generator's, a parsed file's) are freed as soon as the rows hold
 * their arcs (lg__graph_from_own_edges); where memory is short, an
 * unweighted undirected graph goes through a half CSR (rows_through_half).
 */
#include "build.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- validation ------------------------------------------------------------ */

/* Index of the first edge whose endpoint or weight (w or w64) is invalid, or -1. */
static int64_t first_bad_edge(int64_t n, int64_t E, const lg_vertex_t *src, const lg_vertex_t *dst,
                              const float *w, const double *w64, int threads)
{
    int64_t first = E;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : first)
    for (int64_t i = 0; i < E; i++) {
        bool bad = src[i] < 0 || src[i] >= n || dst[i] < 0 || dst[i] >= n;
        if (w)
            bad = bad || !isfinite(w[i]);
        if (w64)
            bad = bad || !isfinite(w64[i]);
        if (bad && i < first)
            first = i;
    }
    return first < E ? first : -1;
}

/* The message for edge i (u -> v, weight *w or no weight) that failed validation. */
lg_status_t lg__report_bad_edge(const char *fn, int64_t i, int64_t n, lg_vertex_t u, lg_vertex_t v,
                                const double *w)
{
    if (u < 0 || u >= n)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: edge %lld: source %d %s num_vertices %lld",
                         fn, (long long)i, (int)u, u < 0 ? "< 0," : ">=", (long long)n);
    if (v < 0 || v >= n)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: edge %lld: destination %d %s num_vertices %lld", fn, (long long)i,
                         (int)v, v < 0 ? "< 0," : ">=", (long long)n);
    if (w && isfinite(*w)) /* a float64 weight that float32 cannot hold */
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: edge %lld (%d -> %d): weight %g is beyond float32's range (about "
                         "3.4e38): keep the weights float64 (weight_type)",
                         fn, (long long)i, (int)u, (int)v, *w);
    return lg__error(LG_ERR_INVALID_ARGUMENT,
                     "%s: edge %lld (%d -> %d): weight %g is not finite", fn, (long long)i,
                     (int)u, (int)v, w ? *w : 0.0);
}
/* ---- row sorting and duplicate merging ------------------------------------------ */

#define ROW_W float
#define ROW_FN(name) name##_f32
#include "row_sort.h"
#define ROW_W double
#define ROW_FN(name) name##_f64
#include "row_sort.h"

/* A CSR's row lo .. lo + len sorted (when `sort`) and merged; returns its
 * merged length.  tw: the thread's weight scratch, of the CSR's weight type. */
static int64_t sort_merge_row(struct lg_csr *c, lg_edge_t lo, int64_t len, bool sort, int key_bits,
                              lg_vertex_t *ti, void *tw, lg_duplicates_t policy)
{
    if (c->weights64) {
        if (sort)
            sort_row_f64(c->indices + lo, c->weights64 + lo, len, key_bits, ti, tw);
        return merge_row_f64(c->indices + lo, c->weights64 + lo, len, policy);
    }
    float *w = c->weights ? c->weights + lo : NULL;
    if (sort)
        sort_row_f32(c->indices + lo, w, len, key_bits, ti, tw);
    return merge_row_f32(c->indices + lo, w, len, policy);
}

/* The scratch a thread needs to sort rows: rows up to `each` long are sorted
 * in parallel with one scratch a thread; the few longer ones (at most
 * 4 * threads of them) one after another with a scratch of the longest.
 * `each` is at least 65,536 arcs, so that on a small graph, where
 * m / (4 * threads) is short, ordinary rows are not left to the serial pass. */
struct row_scratch {
    int64_t each, longest;
    lg_vertex_t *idx;
    char *w; /* entries of the CSR's weight type (wsize bytes) */
    size_t wsize;
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
    s->wsize = c->weights64 ? sizeof *c->weights64 : c->weights ? sizeof *c->weights : 0;
    s->w = s->wsize && s->idx ? lg__alloc_array(total ? total : 1, s->wsize, "row-sort scratch")
                              : NULL;
    if (!s->idx || (s->wsize && !s->w)) {
        lg__free(s->idx);
        lg__free(s->w);
        return LG_ERR_OUT_OF_MEMORY;
    }
    return LG_OK;
}

/* Moves every merged row of c (row v: to[v + 1] - to[v] arcs at
 * c->offsets[v]) to to[v], in place: no row moves right (to[v] <=
 * c->offsets[v]), so rows taken in order never overwrite one not yet moved.
 * In parallel: each thread closes up its own rows at the start of their
 * span, then the spans move left one after another. */
static void compact_rows(int64_t n, struct lg_csr *c, const lg_edge_t *to, int threads)
{
    enum {
        MAX_SPANS = 256
    };
    const int spans = n < 65536 ? 1 : threads < MAX_SPANS ? threads : MAX_SPANS;
    const size_t wsize = c->weights64 ? sizeof *c->weights64 : c->weights ? sizeof *c->weights : 0;
    char *w = c->weights64 ? (char *)c->weights64 : (char *)c->weights;
#pragma omp parallel for num_threads(spans) schedule(static, 1)
    for (int s = 0; s < spans; s++) {
        const int64_t lo = n * s / spans, hi = n * (s + 1) / spans;
        const lg_edge_t base = c->offsets[lo] - to[lo];
        for (int64_t v = lo; v < hi; v++) {
            const size_t len = (size_t)(to[v + 1] - to[v]);
            memmove(c->indices + base + to[v], c->indices + c->offsets[v],
                    len * sizeof *c->indices);
            if (wsize)
                memmove(w + (size_t)(base + to[v]) * wsize, w + (size_t)c->offsets[v] * wsize,
                        len * wsize);
        }
    }
    for (int s = 1; s < spans; s++) {
        const int64_t lo = n * s / spans, hi = n * (s + 1) / spans;
        const size_t len = (size_t)(to[hi] - to[lo]);
        memmove(c->indices + to[lo], c->indices + c->offsets[lo], len * sizeof *c->indices);
        if (wsize)
            memmove(w + (size_t)to[lo] * wsize, w + (size_t)c->offsets[lo] * wsize, len * wsize);
    }
}

/* Sorts every row of a CSR by destination (stably, when `sort`) and merges
 * duplicate arcs by the policy, compacting the arrays; *m is updated.  The
 * rows go in 4k rounds (k: progress's rounds), each reported to progress
 * (build steps lg__build_rows + 1, ...), which may stop the call.  On failure the
 * CSR is unusable and must be freed. */
lg_status_t lg__finish_rows(int64_t n, struct lg_csr *c, int64_t *m, lg_duplicates_t policy,
                            bool sort, int threads, struct lg_progress progress)
{
    const bool weighted = c->weights || c->weights64;
    struct row_scratch s = {0};
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
    const int row_rounds = 4 * lg__rounds_of(progress);
    for (int r = 0; r < row_rounds; r++) {
        const int64_t first = n * r / row_rounds, stop = n * (r + 1) / row_rounds;
#pragma omp parallel num_threads(threads)
        {
#ifdef _OPENMP
            const size_t t = (size_t)omp_get_thread_num();
#else
            const size_t t = 0;
#endif
            lg_vertex_t *ti = sort ? s.idx + t * (size_t)s.each : NULL;
            void *tw = sort && weighted ? s.w + t * (size_t)s.each * s.wsize : NULL;
#pragma omp for schedule(dynamic, 1024)
            for (int64_t v = first; v < stop; v++) {
                lg_edge_t lo = c->offsets[v], len = c->offsets[v + 1] - lo;
                if (sort && len > s.each)
                    continue; /* below, one at a time */
                offsets[v] = sort_merge_row(c, lo, len, sort, key_bits, ti, tw, policy);
            }
        }
        if (!lg_progress_go_on(progress, LG_STAGE_BUILD, lg__build_rows(progress) + 1 + r,
                               lg__build_steps(progress), 0.0)) {
            lg__free(s.idx);
            lg__free(s.w);
            lg__free(offsets);
            return LG_ERR_CANCELLED;
        }
    }
    if (sort && s.longest > s.each) {
        lg_vertex_t *ti = s.idx + (size_t)threads * (size_t)s.each;
        void *tw = weighted ? s.w + (size_t)threads * (size_t)s.each * s.wsize : NULL;
        for (int64_t v = 0; v < n; v++) {
            lg_edge_t lo = c->offsets[v], len = c->offsets[v + 1] - lo;
            if (len <= s.each)
                continue;
            offsets[v] = sort_merge_row(c, lo, len, true, key_bits, ti, tw, policy);
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
                if (!isfinite(c->weights64 ? c->weights64[e] : c->weights[e]) && v < overflow_row)
                    overflow_row = v;
    }
    if (overflow_row < n) {
        lg_edge_t e = c->offsets[overflow_row];
        while (isfinite(c->weights64 ? c->weights64[e] : c->weights[e]))
            e++;
        lg__free(offsets);
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "duplicates of the edge %lld -> %d sum to a weight beyond %s range",
                         (long long)overflow_row, (int)c->indices[e],
                         c->weights64 ? "double's" : "float's");
    }
    const int64_t merged = lg__offsets_from_counts(offsets, n, threads);
    if (merged == *m) {
        lg__free(offsets);
        return LG_OK;
    }
    compact_rows(n, c, offsets, threads);
    lg__free(c->offsets);
    c->offsets = offsets;
    /* hand the tail back: the merged arcs are fewer than the arrays hold */
    c->indices = lg__shrink(c->indices, (size_t)merged * sizeof *c->indices);
    if (c->weights)
        c->weights = lg__shrink(c->weights, (size_t)merged * sizeof *c->weights);
    if (c->weights64)
        c->weights64 = lg__shrink(c->weights64, (size_t)merged * sizeof *c->weights64);
    *m = merged;
    return LG_OK;
}

/* Edges a builder owns and frees as soon as their arcs are in rows (the
 * generator's and the text readers'), before the rows are sorted and
 * merged.  A NULL w: nothing to free there. */
struct own_edges {
    lg_vertex_t **src, **dst;
    float **w;     /* NULL, or *w NULL: no float32 weights */
    double **w64;  /* NULL, or *w64 NULL: no float64 weights */
};

static void let_go(const struct own_edges *own)
{
    if (!own)
        return;
    lg__free(*own->src);
    lg__free(*own->dst);
    *own->src = *own->dst = NULL;
    if (own->w) {
        lg__free(*own->w);
        *own->w = NULL;
    }
    if (own->w64) {
        lg__free(*own->w64);
        *own->w64 = NULL;
    }
}

/*
 * The rows of an unweighted undirected graph from edges the builder owns, in
 * two counting sorts: the edges' arcs one way only (E arcs), the edges freed,
 * then the reverse of that half CSR's arcs sorted into rows that leave room
 * at their start for each row's own arcs, copied in.  Held at once: the
 * edges and E arcs, then E arcs and 2E, where one sort from the edges holds
 * the edges and 2E arcs -- with E edges of 8 bytes, 12E bytes at the peak
 * instead of 16E.  The rows hold the same arcs as one sort's, in another
 * order among equal destinations (a row's own arcs before its reverse ones),
 * which is why weights, whose duplicates FIRST and LAST tell apart, go the
 * one way.  Slower than the one sort (a second pass over E arcs), so taken
 * when memory is short (lean_pays).  The second sort reports no progress:
 * the build's steps are the first's.
 */
static lg_status_t rows_through_half(const struct lg__arc_source *a, const struct own_edges *own,
                                     int threads, struct lg_progress progress, struct lg_csr *out,
                                     int64_t *m_out)
{
    struct lg__arc_source one_way = *a;
    one_way.add_reverse = false;
    struct lg_csr half;
    int64_t h = 0;
    lg_status_t st = lg__counting_sort(&one_way, threads, progress, &half, &h);
    let_go(own);
    if (st != LG_OK)
        return st;
    /* arc u -> v of half is v -> u here; a kept self-loop is in its own row once */
    const size_t held = ((size_t)a->n + 1) * sizeof *half.offsets + (size_t)h * sizeof *half.indices;
    const struct lg__arc_source reverse = {.n = a->n,
                                           .E = h,
                                           .src = half.indices,
                                           .rows = half.offsets,
                                           .drop_loops = true,
                                           .room = half.offsets,
                                           .held = held};
    const struct lg_progress none = {NULL, NULL, 1};
    st = lg__counting_sort(&reverse, threads, none, out, m_out);
    if (st == LG_OK) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
        for (int64_t u = 0; u < a->n; u++)
            memcpy(out->indices + out->offsets[u], half.indices + half.offsets[u],
                   (size_t)(half.offsets[u + 1] - half.offsets[u]) * sizeof *out->indices);
    }
    lg__csr_free(&half);
    return st;
}

static atomic_int lean_mode = -1;

int lg__build_lean(int mode)
{
    return atomic_exchange(&lean_mode, mode);
}

/* Whether to take rows_through_half: for owned unweighted edges of an
 * undirected graph, when the one sort's new arrays (2E arcs and the
 * counters) are more than the machine can spare.  Otherwise the one sort,
 * which is faster (docs/decisions/csr-build.md). */
static bool lean_pays(const struct lg__arc_source *a, const struct own_edges *own, int threads)
{
    if (!own || !a->add_reverse || a->w || a->w64)
        return false;
    const int mode = atomic_load(&lean_mode);
    if (mode >= 0)
        return mode == 1;
    const size_t arcs = 2 * (size_t)a->E * sizeof(lg_vertex_t);
    const size_t counters = (size_t)threads * ((size_t)a->n + 1) * sizeof(lg_edge_t);
    return !lg__can_spare(arcs + counters);
}

/*
 * Builds a CSR with sorted rows from an arc source: a stable counting sort by
 * source gives the rows with their arcs in input order, then each row is
 * stably sorted by destination (cache-resident: rows are short) and merged.
 * One random scatter of the arcs; the row sorts are local.  Owned edges
 * (own, else NULL) are freed once the rows hold their arcs.
 */
static lg_status_t arcs_to_csr(const struct lg__arc_source *a, const struct own_edges *own,
                               lg_duplicates_t policy, int threads, struct lg_progress progress,
                               struct lg_csr *out, int64_t *m_out)
{
    int64_t m = 0;
    lg_status_t st;
    progress = lg__build_progress(progress, a->E);
    if (lean_pays(a, own, threads)) {
        st = rows_through_half(a, own, threads, progress, out, &m);
    } else {
        st = lg__counting_sort(a, threads, progress, out, &m);
        let_go(own);
    }
    if (st == LG_OK &&
        !lg_progress_go_on(progress, LG_STAGE_BUILD, lg__build_rows(progress),
                           lg__build_steps(progress), 0.0)) {
        lg__csr_free(out);
        st = LG_ERR_CANCELLED;
    }
    if (st == LG_OK &&
        (st = lg__finish_rows(a->n, out, &m, policy, true, threads, progress)) != LG_OK)
        lg__csr_free(out);
    *m_out = m;
    return st;
}

/* ---- public builders ------------------------------------------------------------- */

lg_status_t lg__weights_as(const char *fn, lg_weight_type_t type, int64_t m, const float **w,
                           const double **w64, void **copy, int threads)
{
    (void)fn;
    *copy = NULL;
    if (type == LG_WEIGHTS_FLOAT64 && *w) {
        double *d = lg__alloc_array(m ? (size_t)m : 1, sizeof *d, "float64 weights");
        if (!d)
            return LG_ERR_OUT_OF_MEMORY;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t e = 0; e < m; e++)
            d[e] = (*w)[e];
        *copy = d;
        *w64 = d;
        *w = NULL;
    } else if (type == LG_WEIGHTS_FLOAT32 && *w64) {
        float *f = lg__alloc_array(m ? (size_t)m : 1, sizeof *f, "float32 weights");
        if (!f)
            return LG_ERR_OUT_OF_MEMORY;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t e = 0; e < m; e++)
            f[e] = (float)(*w64)[e]; /* beyond float's range: inf, refused as not finite */
        *copy = f;
        *w = f;
        *w64 = NULL;
    }
    return LG_OK;
}

/* Builds from validated arcs (COO arrays, or a CSR when src is NULL and
 * rows holds its offsets); own: see arcs_to_csr. */
static lg_status_t build_from_arcs(const struct lg__arc_source *a, const struct own_edges *own,
                                   bool directed, const lg_graph_options_t *o, int threads,
                                   lg_graph_t **graph)
{
    struct lg_csr csr;
    int64_t m = 0;
    lg_status_t st = arcs_to_csr(a, own, o->duplicates, threads, lg__graph_progress(o), &csr, &m);
    if (st != LG_OK)
        return st;
    st = lg__graph_wrap(a->n, directed, &csr, graph);
    if (st == LG_OK)
        (*graph)->m = m;
    return st;
}

lg_status_t lg__build_from_arcs(int64_t n, int64_t E, const lg_vertex_t *src,
                                const lg_vertex_t *dst, const lg_edge_t *rows, const float *w,
                                const double *w64, bool directed, bool add_reverse,
                                const lg_graph_options_t *o, int threads, lg_graph_t **graph)
{
    const struct lg__arc_source a = {.n = n,
                                     .E = E,
                                     .src = src,
                                     .dst = dst,
                                     .rows = rows,
                                     .w = w,
                                     .w64 = w64,
                                     .add_reverse = add_reverse,
                                     .drop_loops = o->drop_self_loops};
    return build_from_arcs(&a, NULL, directed, o, threads, graph);
}

/* lg_graph_from_edges, and lg__graph_from_own_edges when own is not NULL
 * (then the edges are freed on every path). */
static lg_status_t from_edges(const char *fn, lg_context_t *context, int64_t n, int64_t E,
                              const lg_vertex_t *src, const lg_vertex_t *dst, const float *weights,
                              const double *weights64, const struct own_edges *own,
                              const lg_graph_options_t *options, lg_graph_t **graph)
{
    lg_graph_options_t defaults;
    lg_status_t st;
    void *converted = NULL;
    if ((st = lg__graph_options_start(fn, graph, &options, &defaults)) != LG_OK ||
        (st = lg__check_counts(fn, n, E)) != LG_OK)
        goto done;
    if (E > 0 && (!src || !dst)) {
        st = lg__error(LG_ERR_INVALID_ARGUMENT, "%s: src or dst is NULL with %lld edges", fn,
                       (long long)E);
        goto done;
    }
    const int threads = lg__threads_for(context, n + E);
    const float *w_in = weights;
    const double *w64_in = weights64;
    if ((st = lg__weights_as(fn, options->weight_type, E, &weights, &weights64, &converted,
                             threads)) != LG_OK)
        goto done;
    int64_t bad = first_bad_edge(n, E, src, dst, weights, weights64, threads);
    if (bad >= 0) {
        const double w = w64_in ? w64_in[bad] : w_in ? (double)w_in[bad] : 0.0;
        st = lg__report_bad_edge(fn, bad, n, src[bad], dst[bad], w_in || w64_in ? &w : NULL);
        goto done;
    }
    const struct lg_progress progress = lg__build_progress(lg__graph_progress(options), E);
    if (!lg_progress_go_on(progress, LG_STAGE_BUILD, LG_BUILD_CHECKED, lg__build_steps(progress),
                           0.0)) {
        st = LG_ERR_CANCELLED;
        goto done;
    }
    const bool directed = options->directedness == LG_DIRECTED;
    const size_t in_weight = w64_in ? sizeof *w64_in : w_in ? sizeof *w_in : 0;
    const size_t held = (own ? (size_t)E * (2 * sizeof *src + in_weight) : 0) +
                        (converted ? (size_t)E * (weights64 ? sizeof *weights64 : sizeof *weights)
                                   : 0);
    const struct lg__arc_source a = {.n = n,
                                     .E = E,
                                     .src = src,
                                     .dst = dst,
                                     .w = weights,
                                     .w64 = weights64,
                                     .add_reverse = !directed || options->symmetrize,
                                     .drop_loops = options->drop_self_loops,
                                     .held = held};
    lg_graph_t *built = NULL; /* *graph is written only on success */
    st = build_from_arcs(&a, own, directed, options, threads, &built);
    if (st == LG_OK) {
        (void)lg_progress_go_on(progress, LG_STAGE_BUILD, lg__build_steps(progress),
                                lg__build_steps(progress), 0.0);
        *graph = built;
    }
done:
    let_go(own);
    lg__free(converted);
    return st == LG_ERR_CANCELLED ? lg__cancelled(fn) : st;
}

lg_status_t lg_graph_from_edges(lg_context_t *context, int64_t num_vertices, int64_t num_edges,
                                const lg_vertex_t *src, const lg_vertex_t *dst,
                                const float *weights, const lg_graph_options_t *options,
                                lg_graph_t **graph)
{
    return from_edges("lg_graph_from_edges", context, num_vertices, num_edges, src, dst, weights,
                      NULL, NULL, options, graph);
}

lg_status_t lg_graph_from_edges_f64(lg_context_t *context, int64_t num_vertices,
                                    int64_t num_edges, const lg_vertex_t *src,
                                    const lg_vertex_t *dst, const double *weights,
                                    const lg_graph_options_t *options, lg_graph_t **graph)
{
    return from_edges("lg_graph_from_edges_f64", context, num_vertices, num_edges, src, dst, NULL,
                      weights, NULL, options, graph);
}

lg_status_t lg__graph_from_own_edges(const char *fn, lg_context_t *context, int64_t n, int64_t E,
                                     lg_vertex_t **src, lg_vertex_t **dst, float **w,
                                     double **w64, const lg_graph_options_t *options,
                                     lg_graph_t **graph)
{
    const struct own_edges own = {src, dst, w, w64};
    return from_edges(fn, context, n, E, *src, *dst, w ? *w : NULL, w64 ? *w64 : NULL, &own,
                      options, graph);
}

/* First index >= lo in the sorted idx[lo, hi) that is >= key. */
