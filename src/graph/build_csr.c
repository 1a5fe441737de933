/*
 * build_csr.c - lg_graph_from_csr: a graph from caller CSR arrays.
 *
 * The arrays are checked before anything is built (offsets start at 0 and
 * never decrease, every column in range, every weight finite; the
 * message names the first bad row or arc).  Rows already sorted, with no
 * symmetrizing or self-loop dropping asked for, are copied and merged as
 * they are; anything else goes through the arc pipeline of build.c.  An
 * undirected graph's CSR must be symmetric: checked by an order-independent
 * hash of the arcs, then, when that fails, row by row to name the culprit.
 */
#include "build.h"

#include <math.h>
#include <string.h>

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

/* A weight's bits for hashing, widened to double (exact) so that a float32
 * and a float64 graph hash alike; -0.0 counts as 0.0. */
static inline uint64_t weight_bits(double w)
{
    union {
        double d;
        uint64_t bits;
    } x = {w + 0.0};
    return x.bits;
}

/* A hash of the weights of arcs [lo, hi) as a multiset (either array, or none). */
static uint64_t weights_hash(const float *w, const double *w64, lg_edge_t lo, lg_edge_t hi)
{
    uint64_t h = 0;
    for (lg_edge_t e = lo; (w || w64) && e < hi; e++)
        h += lg__mix64(weight_bits(w64 ? w64[e] : (double)w[e]));
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
        if (g - f != run - e || weights_hash(c->weights, c->weights64, e, run) !=
                                    weights_hash(c->weights, c->weights64, f, g))
            return false;
        e = run;
    }
    return true;
}

/* A 64-bit hash of the arc u -> v with weight w (-0.0 hashes as 0.0). */
static uint64_t arc_hash(lg_vertex_t u, lg_vertex_t v, double w)
{
    uint64_t key = (uint64_t)(uint32_t)u << 32 | (uint32_t)v;
    return lg__mix64(lg__mix64(key) ^ lg__mix64(weight_bits(w)));
}

/*
 * Whether a CSR is symmetric: the multiset of arcs (u, v, w) equals the
 * multiset of their reverses (v, u, w).  Summing a strong hash over each
 * multiset (incremental multiset hashing, Clarke et al., ASIACRYPT 2003)
 * compares them in one pass over the arcs (in parallel); a random asymmetric input passes with
 * probability 2^-64.  Looking up each reverse arc instead costs a cache miss
 * an arc, an order of magnitude slower on a graph larger than the caches.
 * The difference of the sums is a sum over arcs, so rows hashed apart (a
 * .lgb's parts, lgb_part.c) add up to the whole CSR's.
 */
uint64_t lg__arcs_asymmetry(int64_t first_row, int64_t rows, const lg_edge_t *offsets,
                            const lg_vertex_t *indices, const float *weights,
                            const double *weights64, int threads)
{
    const lg_edge_t base = offsets[0];
    uint64_t diff = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(+ : diff)
    for (int64_t r = 0; r < rows; r++) {
        const lg_vertex_t u = (lg_vertex_t)(first_row + r);
        for (lg_edge_t e = offsets[r] - base; e < offsets[r + 1] - base; e++) {
            const double w = weights64 ? weights64[e] : weights ? (double)weights[e] : 1.0;
            diff += arc_hash(u, indices[e], w) - arc_hash(indices[e], u, w);
        }
    }
    return diff;
}

static bool csr_symmetric(int64_t n, const struct lg_csr *c, int threads)
{
    return lg__arcs_asymmetry(0, n, c->offsets, c->indices, c->weights, c->weights64, threads) == 0;
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
                             const float *w, const double *w64, int threads, int64_t *row)
{
    int64_t first = offsets[n];
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(min : first)
    for (int64_t v = 0; v < n; v++)
        for (lg_edge_t e = offsets[v]; e < offsets[v + 1] && e < first; e++)
            if (idx[e] < 0 || idx[e] >= n || (w && !isfinite(w[e])) || (w64 && !isfinite(w64[e])))
                first = e;
    if (first == offsets[n])
        return -1;
    *row = lg__row_of_arc(offsets, n, first);
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
                            const float *w, const double *w64, struct lg_csr *out)
{
    const int64_t m = offsets[n];
    out->offsets = lg__alloc_array((size_t)n + 1, sizeof *out->offsets, "CSR row offsets");
    out->indices = lg__alloc_array((size_t)m, sizeof *out->indices, "CSR column indices");
    out->weights = w ? lg__alloc_array((size_t)m, sizeof *out->weights, "CSR weights") : NULL;
    out->weights64 = w64 ? lg__alloc_array((size_t)m, sizeof *w64, "CSR weights") : NULL;
    if (!out->offsets || !out->indices || (w && !out->weights) || (w64 && !out->weights64)) {
        lg__csr_free(out);
        return LG_ERR_OUT_OF_MEMORY;
    }
    memcpy(out->offsets, offsets, (size_t)(n + 1) * sizeof *offsets);
    if (m > 0) /* idx and w may be NULL when there are no arcs */
        memcpy(out->indices, idx, (size_t)m * sizeof *idx);
    if (w && m > 0)
        memcpy(out->weights, w, (size_t)m * sizeof *w);
    if (w64 && m > 0)
        memcpy(out->weights64, w64, (size_t)m * sizeof *w64);
    return LG_OK;
}

/* lg_graph_from_csr; when own is not NULL it holds the arrays themselves,
 * which the graph takes where they are final but for duplicates (merged in
 * place) instead of copying them. */
static lg_status_t from_csr(const char *fn, lg_context_t *context, int64_t num_vertices,
                            const lg_edge_t *row_offsets, const lg_vertex_t *col_indices,
                            const float *weights, const double *weights64, struct lg_csr *own,
                            bool symmetric, const lg_graph_options_t *options, lg_graph_t **graph)
{
    lg_graph_options_t defaults;
    lg_status_t st;
    lg_graph_t *g = NULL;
    void *converted = NULL;

    if ((st = lg__graph_options_start(fn, graph, &options, &defaults)) != LG_OK ||
        (st = lg__check_counts(fn, num_vertices, 0)) != LG_OK)
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
    if ((st = lg__check_counts(fn, num_vertices, E)) != LG_OK)
        return st;
    if (E > 0 && !col_indices)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: col_indices is NULL with %lld arcs", fn,
                         (long long)E);
    threads = lg__threads_for(context, num_vertices + E);

    const float *w_in = weights;
    const double *w64_in = weights64;
    if ((st = lg__weights_as(fn, options->weight_type, E, &weights, &weights64, &converted,
                             threads)) != LG_OK)
        return st;
    if (converted && own) /* the graph takes converted weights, not the caller's */
        own = NULL;
    int64_t bad_src = 0, bad = first_bad_arc(num_vertices, row_offsets, col_indices, weights,
                                             weights64, threads, &bad_src);
    if (bad >= 0) {
        const double w = w64_in ? w64_in[bad] : w_in ? (double)w_in[bad] : 0.0;
        st = lg__report_bad_edge(fn, bad, num_vertices, (lg_vertex_t)bad_src, col_indices[bad],
                                 w_in || w64_in ? &w : NULL);
        lg__free(converted);
        return st;
    }
    const struct lg_progress progress = lg__build_progress(lg__graph_progress(options), E);
    const int64_t steps = lg__build_steps(progress);
    if (!lg_progress_go_on(progress, LG_STAGE_BUILD, LG_BUILD_CHECKED, steps, 0.0)) {
        lg__free(converted);
        return lg__cancelled(fn);
    }
    const bool directed = options->directedness == LG_DIRECTED;
    if (!options->symmetrize && !options->drop_self_loops &&
        rows_sorted(num_vertices, row_offsets, col_indices, threads)) {
        /* already a CSR in final form but for duplicates: copy, merge, done */
        int64_t m = E;
        struct lg_csr c = {0};
        if (own) {
            c = *own;
            memset(own, 0, sizeof *own);
        } else {
            st = copy_csr(num_vertices, row_offsets, col_indices, weights, weights64, &c);
        }
        if (st == LG_OK &&
            !lg_progress_go_on(progress, LG_STAGE_BUILD, lg__build_rows(progress), steps, 0.0)) {
            lg__csr_free(&c);
            st = LG_ERR_CANCELLED;
        }
        if (st == LG_OK && options->duplicates != LG_DUPLICATES_KEEP &&
            (st = lg__finish_rows(num_vertices, &c, &m, options->duplicates, false, threads,
                                  progress)) != LG_OK)
            lg__csr_free(&c);
        if (st == LG_OK)
            st = lg__graph_wrap(num_vertices, directed, &c, &g);
    } else {
        st = lg__build_from_arcs(num_vertices, E, NULL, col_indices, row_offsets, weights, weights64,
                                 directed, options->symmetrize, options, threads, &g);
    }
    if (st != LG_OK)
        goto cleanup;
    /* arcs known to be symmetric stay so unless duplicates are merged (the
     * copy kept of each may differ from its reverse's) */
    if (!directed && !options->symmetrize &&
        !(symmetric && options->duplicates == LG_DUPLICATES_KEEP)) {
        /* the symmetry check reads every arc once more: a step of its own */
        if (!lg_progress_go_on(progress, LG_STAGE_BUILD, steps - 1, steps, 0.0)) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
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
    (void)lg_progress_go_on(progress, LG_STAGE_BUILD, steps, steps, 0.0);
    *graph = g;
    g = NULL;

cleanup:
    lg_graph_free(&g);
    lg__free(converted);
    return st == LG_ERR_CANCELLED ? lg__cancelled(fn) : st;
}

lg_status_t lg_graph_from_csr(lg_context_t *context, int64_t num_vertices,
                              const lg_edge_t *row_offsets, const lg_vertex_t *col_indices,
                              const float *weights, const lg_graph_options_t *options,
                              lg_graph_t **graph)
{
    return from_csr("lg_graph_from_csr", context, num_vertices, row_offsets, col_indices, weights,
                    NULL, NULL, false, options, graph);
}

lg_status_t lg_graph_from_csr_f64(lg_context_t *context, int64_t num_vertices,
                                  const lg_edge_t *row_offsets, const lg_vertex_t *col_indices,
                                  const double *weights, const lg_graph_options_t *options,
                                  lg_graph_t **graph)
{
    return from_csr("lg_graph_from_csr_f64", context, num_vertices, row_offsets, col_indices, NULL,
                    weights, NULL, false, options, graph);
}

lg_status_t lg__graph_from_own_csr(const char *fn, lg_context_t *context, int64_t n,
                                   struct lg_csr *csr, bool symmetric,
                                   const lg_graph_options_t *options, lg_graph_t **graph)
{
    const lg_status_t st = from_csr(fn, context, n, csr->offsets, csr->indices, csr->weights,
                                    csr->weights64, csr, symmetric, options, graph);
    lg__csr_free(csr); /* what the graph did not take */
    return st;
}
