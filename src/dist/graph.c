/*
 * graph.c - building a distributed graph from every rank's share of the edges.
 *
 *   check      the options agree across ranks; every id in [0, n), every
 *              weight finite and >= 0 (the first bad edge of the lowest rank
 *              that has one is everyone's error)
 *   partition  1D, contiguous ranges balanced on vertices + arcs: each rank
 *              counts its arcs into K buckets of equal width, one allreduce
 *              sums them, and the cut points are placed inside the buckets
 *              by interpolation (every rank computes the same cuts)
 *   shuffle    each arc goes to the owner of its row (out-arcs by source,
 *              and for a directed graph in-arcs by destination), packed in
 *              input order, so the global edge order -- rank by rank --
 *              survives for duplicates FIRST / LAST
 *   then local.c's local ids, ghosts and halos; the graph's accessors.
 */
#include "dist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void lg_dist_graph_options_init(lg_dist_graph_options_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->num_vertices = -1;
    o->directedness = LG_DIRECTEDNESS_DEFAULT;
    o->duplicates = LG_DUPLICATES_KEEP;
}

int lg__dist_owner(const lg_dist_graph_t *g, int64_t v)
{
    int lo = 0, hi = g->size - 1; /* the last rank whose first <= v */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (g->firsts[mid] <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

lg_status_t lg__dist_check_call(lg_dist_context_t *c, const lg_dist_graph_t *g, const char *fn,
                                bool output_missing)
{
    lg_status_t st = LG_OK;
    if (!g)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    else if (g->size != c->size)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                            "%s: the graph was built on %d ranks, the context has %d", fn, g->size,
                            c->size);
    else if (output_missing)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: an output array is NULL", fn);
    return lg__dist_agree(c, st);
}

/* ---- check ------------------------------------------------------------------------ */

static bool is_directed(const lg_dist_graph_options_t *o)
{
    return o->directedness == LG_DIRECTED;
}

static lg_status_t check_local(const char *fn, const int64_t *src, const int64_t *dst,
                               const float *w, int64_t m, const lg_dist_graph_options_t *o,
                               lg_dist_graph_t **graph)
{
    if (!graph)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (m < 0)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: num_edges %lld < 0", fn, (long long)m);
    if (m > 0 && (!src || !dst))
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: src or dst is NULL", fn);
    (void)w;
    if (o->directedness != LG_DIRECTEDNESS_DEFAULT && o->directedness != LG_DIRECTED &&
        o->directedness != LG_UNDIRECTED)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: unknown directedness %d", fn,
                              (int)o->directedness);
    if ((int)o->duplicates < LG_DUPLICATES_KEEP || (int)o->duplicates > LG_DUPLICATES_LAST)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: unknown duplicates policy %d", fn,
                              (int)o->duplicates);
    if (o->num_vertices < -1)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: num_vertices %lld < 0", fn,
                              (long long)o->num_vertices);
    return LG_OK;
}

/* Options every rank must pass alike: MIN and MAX of each in one allreduce. */
static lg_status_t check_agreement(lg_dist_context_t *c, const char *fn,
                                   const lg_dist_graph_options_t *o, bool weighted)
{
    static const char *const names[] = {"num_vertices",    "directedness", "symmetrize",
                                        "drop_self_loops", "duplicates",   "weights (NULL or not)"};
    enum {
        K = 6
    };
    int64_t v[2 * K] = {o->num_vertices,    is_directed(o), o->symmetrize,
                        o->drop_self_loops, o->duplicates,  weighted};
    for (int i = 0; i < K; i++)
        v[K + i] = -v[i];
    lg_status_t st = lg__dist_max_i64(c, v, 2 * K);
    if (st != LG_OK)
        return st;
    for (int i = 0; i < K; i++)
        if (v[i] != -v[K + i])
            return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                  "%s: the ranks passed different %s (from %lld to %lld)", fn,
                                  names[i], (long long)-v[K + i], (long long)v[i]);
    return LG_OK;
}

static lg_status_t check_edges(const char *fn, int64_t n, const int64_t *src, const int64_t *dst,
                               const float *w, int64_t m, int threads)
{
    int64_t bad = m;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : bad)
    for (int64_t i = 0; i < m; i++) {
        bool b = src[i] < 0 || src[i] >= n || dst[i] < 0 || dst[i] >= n;
        if (w)
            b = b || !isfinite(w[i]) || w[i] < 0.0f;
        if (b && i < bad)
            bad = i;
    }
    if (bad == m)
        return LG_OK;
    int64_t u = src[bad], v = dst[bad];
    if (u < 0 || u >= n)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                              "%s: edge %lld: source %lld %s num_vertices %lld", fn, (long long)bad,
                              (long long)u, u < 0 ? "< 0," : ">=", (long long)n);
    if (v < 0 || v >= n)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                              "%s: edge %lld: destination %lld %s num_vertices %lld", fn,
                              (long long)bad, (long long)v, v < 0 ? "< 0," : ">=", (long long)n);
    return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                          "%s: edge %lld (%lld -> %lld): weight %g is not finite and >= 0", fn,
                          (long long)bad, (long long)u, (long long)v, (double)w[bad]);
}

/* ---- the arcs an edge makes --------------------------------------------------------- */

/* Calls EMIT(row, col, i) for each arc of edge i in the order the single-
 * process builder makes them: u -> v, then v -> u when `reverse` (an
 * undirected or symmetrized graph built from edges, not from both arcs; a
 * self-loop once); a directed graph also emits each arc's in-arc (row tagged
 * LG_DIST_IN_ARC) for the owner of its head. */
#define LG_DIST_FOR_EACH_ARC(o, reverse, u, v, i, EMIT)                                            \
    do {                                                                                           \
        if ((o)->drop_self_loops && (u) == (v))                                                    \
            break;                                                                                 \
        const bool both_ = (reverse);                                                              \
        EMIT((uint64_t)(u), (v), i);                                                               \
        if (both_ && (u) != (v))                                                                   \
            EMIT((uint64_t)(v), (u), i);                                                           \
        if (is_directed(o)) {                                                                      \
            EMIT((uint64_t)(v) | LG_DIST_IN_ARC, (u), i);                                          \
            if (both_ && (u) != (v))                                                               \
                EMIT((uint64_t)(u) | LG_DIST_IN_ARC, (v), i);                                      \
        }                                                                                          \
    } while (0)

/* ---- partition -------------------------------------------------------------------- */

/* firsts[0..P]: cuts balancing vertices + arcs over the ranks. */
static lg_status_t partition(lg_dist_context_t *c, int64_t n, const int64_t *src,
                             const int64_t *dst, int64_t m, const lg_dist_graph_options_t *o,
                             bool reverse, int64_t *firsts)
{
    const int P = c->size;
    const int64_t K = n < 65536 ? (n > 0 ? n : 1) : 65536;
    const int64_t width = n > 0 ? (n + K - 1) / K : 1;
    /* count[0..K), then each thread's piece of the edges counted into its own K */
    const int threads = lg__dist_threads(c);
    int64_t *count = lg__dist_calloc((size_t)K * (1 + (size_t)threads), sizeof *count,
                                     "the partition's buckets");
    lg_status_t st = lg__dist_agree(c, count ? LG_OK : LG_ERR_OUT_OF_MEMORY);
    if (st != LG_OK) {
        free(count);
        return st;
    }
#define LG_DIST_COUNT(row, col, i) mine[LG_DIST_ROW(row) / width]++
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; t++) {
        int64_t *mine = count + K * (1 + t);
        for (int64_t i = lg__dist_piece(m, t, threads), end = lg__dist_piece(m, t + 1, threads);
             i < end; i++)
            LG_DIST_FOR_EACH_ARC(o, reverse, src[i], dst[i], i, LG_DIST_COUNT);
    }
#undef LG_DIST_COUNT
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t b = 0; b < K; b++)
        for (int t = 0; t < threads; t++)
            count[b] += count[K * (1 + t) + b];
    st = lg__dist_sum_i64(c, count, (int)K);
    if (st != LG_OK) {
        free(count);
        return st;
    }
    double total = 0.0;
    for (int64_t b = 0; b < K; b++) {
        int64_t lo = b * width, hi = lo + width < n ? lo + width : n;
        total += (double)(count[b] + (hi > lo ? hi - lo : 0));
    }
    firsts[0] = 0;
    double before = 0.0;
    int64_t b = 0;
    for (int r = 1; r < P; r++) {
        double target = total * r / P;
        for (;;) {
            int64_t lo = b * width, hi = lo + width < n ? lo + width : n;
            double weight = (double)(count[b] + (hi > lo ? hi - lo : 0));
            if (b == K - 1 || before + weight >= target) {
                double f = weight > 0 ? (target - before) / weight : 0.0;
                int64_t cut = lo + (int64_t)(f * (double)(hi - lo) + 0.5);
                cut = cut < lo ? lo : cut > hi ? hi : cut;
                firsts[r] = cut > firsts[r - 1] ? cut : firsts[r - 1];
                break;
            }
            before += weight;
            b++;
        }
    }
    firsts[P] = n;
    free(count);
    for (int r = 0; r < P; r++)
        if (firsts[r + 1] - firsts[r] > LG_DIST_MAX_LOCAL)
            return lg__dist_error(LG_ERR_UNSUPPORTED,
                                  "rank %d would own %lld vertices; "
                                  "local ids are 32-bit (at most %lld a rank): use more ranks",
                                  r, (long long)(firsts[r + 1] - firsts[r]),
                                  (long long)LG_DIST_MAX_LOCAL);
    return LG_OK;
}

/* ---- shuffle ------------------------------------------------------------------------ */

/* Sends every arc to the owner of its row, in input order.  The edges are
 * cut into consecutive pieces, one a thread, tallied and packed in parallel; a
 * piece's arcs for owner p go after those of the pieces before it, so each
 * owner's arcs stay in input order. */
static lg_status_t shuffle(lg_dist_context_t *c, lg_dist_graph_t *g, const int64_t *src,
                           const int64_t *dst, const float *w, int64_t m,
                           const lg_dist_graph_options_t *o, bool reverse, struct lg_dist_arcs *out)
{
    const int P = c->size, threads = lg__dist_threads(c);
    /* counts[0..P) arcs to each owner, then recv_counts[P], then each piece's
     * tally by owner, which becomes its first slot for that owner */
    int64_t *counts =
        lg__dist_calloc((size_t)P * (2 + (size_t)threads), sizeof *counts, "shuffle counts");
    int64_t *tally = counts ? counts + 2 * P : NULL;
    struct lg_dist_arc *send = NULL;
    float *send_w = NULL;
    lg_status_t st = counts ? LG_OK : LG_ERR_OUT_OF_MEMORY;
    if (st == LG_OK) {
#define LG_DIST_TALLY(row, col, i) at[lg__dist_owner(g, LG_DIST_ROW(row))]++
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (int t = 0; t < threads; t++) {
            int64_t *at = tally + (int64_t)t * P;
            for (int64_t i = lg__dist_piece(m, t, threads), end = lg__dist_piece(m, t + 1, threads);
                 i < end; i++)
                LG_DIST_FOR_EACH_ARC(o, reverse, src[i], dst[i], i, LG_DIST_TALLY);
        }
#undef LG_DIST_TALLY
        int64_t total = 0;
        for (int p = 0; p < P; p++) {
            for (int t = 0; t < threads; t++) {
                int64_t k = tally[(int64_t)t * P + p];
                tally[(int64_t)t * P + p] = total;
                total += k;
                counts[p] += k;
            }
        }
        send = lg__dist_alloc((size_t)total, sizeof *send, "the arcs to send");
        if (w && send)
            send_w = lg__dist_alloc((size_t)total, sizeof *send_w, "the weights to send");
        if (!send || (w && !send_w))
            st = LG_ERR_OUT_OF_MEMORY;
    }
    if (st == LG_OK) {
#define LG_DIST_PACK(r_, c_, i)                                                                    \
    do {                                                                                           \
        int64_t k_ = at[lg__dist_owner(g, LG_DIST_ROW(r_))]++;                                     \
        send[k_].row = (r_);                                                                       \
        send[k_].col = (c_);                                                                       \
        if (send_w)                                                                                \
            send_w[k_] = w[i];                                                                     \
    } while (0)
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (int t = 0; t < threads; t++) {
            int64_t *at = tally + (int64_t)t * P;
            for (int64_t i = lg__dist_piece(m, t, threads), end = lg__dist_piece(m, t + 1, threads);
                 i < end; i++)
                LG_DIST_FOR_EACH_ARC(o, reverse, src[i], dst[i], i, LG_DIST_PACK);
        }
#undef LG_DIST_PACK
    }
    st = lg__dist_agree(c, st);
    int64_t *recv_counts = counts ? counts + P : NULL;
    void *recv = NULL, *recv_w = NULL;
    if (st == LG_OK)
        st = lg__dist_alltoallv(c, send, counts, sizeof *send, &recv, recv_counts);
    free(send);
    if (st == LG_OK && w)
        st = lg__dist_alltoallv(c, send_w, counts, sizeof *send_w, &recv_w, recv_counts);
    free(send_w);
    if (st == LG_OK) {
        out->a = recv;
        out->w = recv_w;
        out->count = 0;
        for (int p = 0; p < P; p++)
            out->count += recv_counts[p];
    } else {
        free(recv);
        free(recv_w);
    }
    free(counts);
    return st;
}

/* ---- the graph ---------------------------------------------------------------------- */

void lg_dist_graph_free(lg_dist_graph_t **graph)
{
    if (!graph || !*graph)
        return;
    lg_dist_graph_t *g = *graph;
    lg__dist_gpu_graph_free(g);
    if (g->pull.send_counts != g->all.send_counts)
        lg__dist_halo_free(&g->pull);
    lg__dist_halo_free(&g->all);
    if (g->in != g->out)
        lg_graph_free(&g->in);
    lg_graph_free(&g->out);
    free(g->firsts);
    free(g->ghost_gid);
    free(g->ghost_begin);
    free(g);
    *graph = NULL;
}

/* The memory this rank holds at its build's peak: what the caller holds
 * (held: its edges, a file's part), the arcs received (with their local
 * columns and the rows and columns built from them), and the out and in
 * graphs of its vertices and ghosts (at most one ghost an arc), each as the
 * core's build holds it (two offset arrays at once, arcs and a quarter again
 * of scratch). */
static size_t local_peak(const lg_dist_graph_t *g, const struct lg_dist_arcs *arcs, size_t held)
{
    const size_t A = (size_t)arcs->count, w = arcs->w ? sizeof(float) : 0;
    const int64_t others = g->n - g->n_local;
    const size_t nv = (size_t)g->n_local + (size_t)((int64_t)A < others ? (int64_t)A : others) + 1;
    held += A * (sizeof *arcs->a + w + sizeof(int32_t) + 2 * sizeof(int32_t) + w);
    const size_t graphs = (g->directed ? 3 : 2) * nv * sizeof(lg_edge_t);
    return held + graphs + A * (sizeof(lg_vertex_t) + w) * 5 / 4;
}

/* Ranks of one node share its memory: each passing the check of its own
 * build alone, together they had the kernel kill them.  The sum of the
 * node's local peaks against what the node has available (the same answer
 * on every rank of the node; the caller agrees it across nodes). */
static lg_status_t check_node_memory(lg_dist_context_t *c, const char *fn,
                                     const lg_dist_graph_t *g, const struct lg_dist_arcs *arcs,
                                     size_t held)
{
    MPI_Comm node;
    int rc = MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &node);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Comm_split_type");
    unsigned long long mine = local_peak(g, arcs, held), sum = 0;
    int ranks = 1;
    rc = MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, node);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(node, &ranks);
    MPI_Comm_free(&node);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Allreduce");
    const int64_t avail = lg_memory_available();
    if (avail >= 0 && sum > (unsigned long long)avail)
        return lg__dist_error(LG_ERR_OUT_OF_MEMORY,
                              "%s: a graph of %lld vertices needs %.2f GB on the %d ranks of this "
                              "node, more than the %.2f GB it has available",
                              fn, (long long)g->n, (double)sum / 1e9, ranks, (double)avail / 1e9);
    return LG_OK;
}

lg_status_t lg__dist_build(lg_dist_context_t *c, const char *fn, const int64_t *src,
                           const int64_t *dst, const float *weights, int64_t num_edges,
                           const lg_dist_graph_options_t *options, bool both_arcs, size_t held,
                           lg_dist_graph_t **graph)
{
    if (!c)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: context is NULL", fn);
    lg_dist_graph_options_t o;
    lg_dist_graph_options_init(&o);
    if (options)
        o = *options;
    const bool reverse = !both_arcs && (!is_directed(&o) || o.symmetrize);
    const int threads = lg__dist_threads(c);
    lg_status_t st = lg__dist_agree(c, check_local(fn, src, dst, weights, num_edges, &o, graph));
    if (st == LG_OK)
        st = check_agreement(c, fn, &o, weights != NULL);
    if (st != LG_OK)
        return st;
    int64_t n = o.num_vertices;
    if (n < 0) { /* one more than the largest id anywhere (a negative one is caught below) */
        int64_t top = -1;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : top)
        for (int64_t i = 0; i < num_edges; i++) {
            int64_t t = src[i] > dst[i] ? src[i] : dst[i];
            top = t > top ? t : top;
        }
        if ((st = lg__dist_max_i64(c, &top, 1)) != LG_OK)
            return st;
        n = top + 1;
    }
    st = lg__dist_agree(c, check_edges(fn, n, src, dst, weights, num_edges, threads));
    if (st != LG_OK)
        return st;

    lg_dist_graph_t *g = lg__dist_calloc(1, sizeof *g, "a distributed graph");
    if (g) {
        g->firsts = lg__dist_alloc((size_t)c->size + 1, sizeof *g->firsts, "the partition");
        if (!g->firsts) {
            free(g);
            g = NULL;
        }
    }
    st = lg__dist_agree(c, g ? LG_OK : LG_ERR_OUT_OF_MEMORY);
    if (st != LG_OK) { /* this rank's graph, when another rank had none */
        lg_dist_graph_free(&g);
        return st;
    }
    g->rank = c->rank;
    g->size = c->size;
    g->n = n;
    g->directed = is_directed(&o);
    g->weighted = weights != NULL;

    struct lg_dist_arcs arcs = {NULL, NULL, 0};
    st = partition(c, n, src, dst, num_edges, &o, reverse, g->firsts);
    if (st == LG_OK) {
        g->first = g->firsts[c->rank];
        g->n_local = g->firsts[c->rank + 1] - g->first;
        st = shuffle(c, g, src, dst, weights, num_edges, &o, reverse, &arcs);
    }
    if (st == LG_OK)
        st = lg__dist_agree(
            c, check_node_memory(c, fn, g, &arcs,
                                 held + (size_t)num_edges * (2 * sizeof *src +
                                                             (weights ? sizeof *weights : 0))));
    if (st == LG_OK)
        st = lg__dist_agree(c, lg__dist_local(c, g, &arcs, &o));
    free(arcs.a);
    free(arcs.w);
    if (st == LG_OK)
        st = lg__dist_halos(c, g);
    if (st == LG_OK) {
        g->m = lg_graph_num_edges(g->out);
        st = lg__dist_sum_i64(c, &g->m, 1);
    }
    if (st == LG_OK && c->gpu)
        st = lg__dist_gpu_upload(c, g);
    if (st != LG_OK) {
        lg_dist_graph_free(&g);
        return st;
    }
    *graph = g;
    return LG_OK;
}

lg_status_t lg_dist_graph_from_edges(lg_dist_context_t *c, const int64_t *src, const int64_t *dst,
                                     const float *weights, int64_t num_edges,
                                     const lg_dist_graph_options_t *options,
                                     lg_dist_graph_t **graph)
{
    return lg__dist_build(c, "lg_dist_graph_from_edges", src, dst, weights, num_edges, options,
                          false, 0, graph);
}

lg_status_t lg_dist_generate(lg_dist_context_t *c, lg_generator_t generator, int scale,
                             int edge_factor, uint64_t seed, const lg_dist_graph_options_t *options,
                             lg_dist_graph_t **graph)
{
    static const char fn[] = "lg_dist_generate";
    if (!c)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: context is NULL", fn);
    lg_dist_graph_options_t gap;
    if (!options) {
        lg_dist_graph_options_init(&gap);
        gap.directedness = LG_UNDIRECTED;
        gap.drop_self_loops = true;
        gap.duplicates = LG_DUPLICATES_FIRST;
        options = &gap;
    }
    /* the shape is checked by the generator; an empty range checks it alone */
    lg_status_t st =
        lg_generate_edge_range(c->local, generator, scale, edge_factor, seed, 0, 0, NULL, NULL);
    if (st == LG_OK && !graph)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        return st;
    const int64_t E = (int64_t)edge_factor << scale;
    const int64_t lo = E * c->rank / c->size, hi = E * (c->rank + 1) / c->size, m = hi - lo;
    lg_vertex_t *s32 = lg__dist_alloc((size_t)m, 2 * sizeof *s32, "the generated edges");
    int64_t *s64 = lg__dist_alloc((size_t)m, 2 * sizeof *s64, "the generated edges");
    st = s32 && s64 ? LG_OK : LG_ERR_OUT_OF_MEMORY;
    if (st == LG_OK)
        st = lg_generate_edge_range(c->local, generator, scale, edge_factor, seed, lo, m, s32,
                                    s32 + m);
    if (st == LG_OK) {
#pragma omp parallel for num_threads(lg__dist_threads(c)) schedule(static)
        for (int64_t i = 0; i < 2 * m; i++)
            s64[i] = s32[i];
    }
    free(s32);
    st = lg__dist_agree(c, st);
    if (st == LG_OK) {
        lg_dist_graph_options_t o = *options;
        o.num_vertices = (int64_t)1 << scale;
        st = lg_dist_graph_from_edges(c, s64, s64 + m, NULL, m, &o, graph);
    }
    free(s64);
    return st;
}

int64_t lg_dist_graph_num_vertices(const lg_dist_graph_t *g)
{
    return g ? g->n : 0;
}

int64_t lg_dist_graph_num_edges(const lg_dist_graph_t *g)
{
    return g ? g->m : 0;
}

bool lg_dist_graph_is_directed(const lg_dist_graph_t *g)
{
    return g && g->directed;
}

bool lg_dist_graph_is_weighted(const lg_dist_graph_t *g)
{
    return g && g->weighted;
}

void lg_dist_graph_local_range(const lg_dist_graph_t *g, int64_t *first, int64_t *count)
{
    if (first)
        *first = g ? g->first : 0;
    if (count)
        *count = g ? g->n_local : 0;
}

int64_t lg_dist_graph_local_edges(const lg_dist_graph_t *g)
{
    return g ? lg_graph_num_edges(g->out) : 0;
}

int64_t lg_dist_graph_num_ghosts(const lg_dist_graph_t *g)
{
    return g ? g->n_ghost : 0;
}
