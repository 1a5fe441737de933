/*
 * betweenness.hip - betweenness centrality on the GPU, one HIP source for
 * AMD (wave 64 and 32) and NVIDIA (CUDA).
 *
 * Returns: centrality[v] as lg_betweenness defines it (the CPU kernel's
 * header, src/kernels/cpu/betweenness.c, says the same in C).
 *
 * Method: Brandes's two passes a source, each level of the search one
 * launch over that level's vertices, in the work-efficient form of
 * McLaughlin and Bader, "Scalable and High Performance Betweenness
 * Centrality on the GPU", SC'14 (a queue of each level's vertices, rows
 * expanded with load balance: expand.h), sources one after another:
 *   1. the search counts shortest paths sigma in double.  Unweighted: a
 *      BFS level by level; the first lane to reach v claims it
 *      (atomicCAS on its level) and every lane whose arc reaches v at the
 *      next level adds sigma[u] (atomicAdd; the counts are integers, exact
 *      in double below 2^53, so the order of the adds does not matter).
 *      Weighted: distances first by frontier relaxation rounds (atomicMin
 *      on order-preserving keys, gpu.h's key_of), then the tight arcs
 *      (dist[u] + w == dist[v]; weights are > 0, so they make a DAG)
 *      counted into each head's in-degree,
 *      and sigma pushed along them in rounds of the vertices whose tight
 *      in-arcs are all done (Kahn's order): each round is a level.
 *   2. the dependencies in the reverse order of the levels, pulled: a wave
 *      a vertex sums (1 + delta) / sigma over its row's successors (lane by
 *      lane, then lg__wave_sum), so each sum has one order on a given wave
 *      width and the result is the same on every call; the quotient then
 *      replaces sigma, as on the CPU.
 * After the last source the sums are scaled as NetworkX scales them
 * (betweenness_scale.h), on the device.
 *
 * Edge betweenness (edge_betweenness.hip) is the same counting with each
 * tight arc w -> v credited sigma[w] * (1 + delta[v]) / sigma[v] by the lane
 * that reads it in pass 2 (one lane an arc a source: no atomics, the same
 * result on every call), into a double an arc; an undirected edge's two
 * arcs are then given their sum (fold_edges).
 *
 * A subset's betweenness (betweenness_subset.hip) keeps the 1 of a
 * dependency (1 + delta) / sigma only where the vertex is a target.
 *
 * Memory (the context's work buffer): levels, sigma, the sums and the
 * search order (24 n bytes); weighted, the distance keys, stamps, in-degrees
 * and two frontiers (24 n more); the sample's marks (n); a subset's targets
 * (n); per arc, 8 m.  The host keeps a
 * level's start a level (8 bytes each).
 */
#include "betweenness_scale.h"
#include "expand.h"
#include "fold_edges.h"
#include "gpu.h"

#define BC_BLOCK 256
/* Sources between two reports to the progress callback. */
#define REPORT_SOURCES 16

namespace
{

struct bc_args {
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;    /* weighted: the float32 weights, or NULL */
    const double *w64; /* weighted: a float64 graph's, read instead of w */
    bool weighted;
    int32_t *level;               /* -1: unreached */
    double *val;                  /* sigma, then (1 + delta) / sigma */
    double *sum;                  /* the centrality's sums over the sources */
    double *arcs;                 /* edge betweenness: the arcs' sums, else NULL */
    unsigned long long *dist;     /* weighted: distance keys */
    int *stamp;                   /* weighted: the round v last joined a frontier */
    int *indeg;                   /* weighted: v's tight in-arcs not yet pushed */
    const unsigned char *targets; /* a subset's: 1 a target (NULL: every vertex) */
};

__device__ static inline double arc_weight(const bc_args &a, lg_edge_t e)
{
    return a.w64 ? a.w64[e] : (double)a.w[e];
}

/* Whether arc e = u -> v is on a shortest path (weighted; weights > 0, so
 * the tight arcs make a DAG). */
__device__ static inline bool tight(const bc_args &a, lg_vertex_t u, lg_vertex_t v, lg_edge_t e)
{
    return of_key(a.dist[u]) + arc_weight(a, e) == of_key(a.dist[v]);
}

__global__ void clear_all(bc_args a, int64_t n)
{
    LG_FOR_EACH(v, n)
    {
        a.level[v] = -1;
        a.val[v] = 0.0;
        a.sum[v] = 0.0;
        if (a.weighted) {
            a.dist[v] = INF_KEY;
            a.stamp[v] = -1;
            a.indeg[v] = 0;
        }
    }
}

/* What the last source reached, back to unreached. */
__global__ void clear_reached(bc_args a, const lg_vertex_t *order, int64_t count)
{
    LG_FOR_EACH(i, count)
    {
        const lg_vertex_t v = order[i];
        a.level[v] = -1;
        a.val[v] = 0.0;
        if (a.weighted) {
            a.dist[v] = INF_KEY;
            a.stamp[v] = -1;
        }
    }
}

__global__ void start(bc_args a, lg_vertex_t s, lg_vertex_t *order, lg_vertex_t *frontier)
{
    a.level[s] = 0;
    a.val[s] = 1.0;
    order[0] = s;
    if (a.weighted) {
        a.dist[s] = ZERO_KEY;
        frontier[0] = s;
    }
}

/* Unweighted, one arc of the level's BFS step. */
struct bfs_visit {
    bc_args a; /* by value: the visits are made on the host */
    int32_t next;
    lg_vertex_t *out;
    unsigned long long *count;
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t e, bool valid) const
    {
        (void)e;
        bool claimed = false;
        if (valid) {
            const int32_t old = atomicCAS(a.level + v, -1, next);
            claimed = old == -1;
            if (claimed || old == next)
                atomicAdd(a.val + v, a.val[u]);
        }
        const long long at = lg__wave_atomic_inc(count, claimed);
        if (claimed)
            out[at] = v;
    }
};

/* Weighted, one relaxation of the distance rounds. */
struct relax_visit {
    bc_args a; /* by value: the visits are made on the host */
    int round;
    lg_vertex_t *out;
    unsigned long long *count;
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t e, bool valid) const
    {
        bool pushed = false;
        if (valid) {
            const unsigned long long key = key_of(of_key(a.dist[u]) + arc_weight(a, e));
            if (key < atomicMin(a.dist + v, key))
                pushed = atomicExch(a.stamp + v, round) != round;
        }
        const long long at = lg__wave_atomic_inc(count, pushed);
        if (pushed)
            out[at] = v;
    }
};

/* Weighted: each tight arc counted into its head's in-degree. */
struct indegree_visit {
    bc_args a; /* by value: the visits are made on the host */
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t e, bool valid) const
    {
        if (valid && tight(a, u, v, e))
            atomicAdd(a.indeg + v, 1);
    }
};

/* Weighted: sigma pushed along tight arcs; a head whose last tight in-arc
 * this was joins the next level. */
struct push_visit {
    bc_args a; /* by value: the visits are made on the host */
    int32_t next;
    lg_vertex_t *out;
    unsigned long long *count;
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t e, bool valid) const
    {
        bool ready = false;
        if (valid && tight(a, u, v, e)) {
            atomicAdd(a.val + v, a.val[u]);
            ready = atomicSub(a.indeg + v, 1) == 1;
            if (ready)
                a.level[v] = next;
        }
        const long long at = lg__wave_atomic_inc(count, ready);
        if (ready)
            out[at] = v;
    }
};

/* The rows of q vertices (one a thread), every arc visited (expand.h). */
template <class Visit>
__global__ void __launch_bounds__(BC_BLOCK)
    expand(bc_args a, const lg_vertex_t *rows, int64_t q, Visit visit)
{
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < q;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = base + threadIdx.x;
        lg_vertex_t u = 0;
        lg_edge_t begin = 0, end = 0;
        if (i < q) {
            u = rows[i];
            begin = a.off[u];
            end = a.off[u + 1];
        }
        Visit v = visit;
        lg__expand_rows(u, begin, end, a.idx, v);
    }
}

/* Weighted: every reached vertex's tight out-arcs counted (rows of the
 * unreached are empty). */
__global__ void __launch_bounds__(BC_BLOCK) count_tight(bc_args a, int64_t n)
{
    indegree_visit visit{a};
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < n;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t u = base + threadIdx.x;
        lg_edge_t begin = 0, end = 0;
        if (u < n && a.dist[u] != INF_KEY) {
            begin = a.off[u];
            end = a.off[u + 1];
        }
        lg__expand_rows((lg_vertex_t)(u < n ? u : 0), begin, end, a.idx, visit);
    }
}

/* The dependencies of one level's vertices, a wave a vertex. */
__global__ void __launch_bounds__(BC_BLOCK)
    accumulate(bc_args a, const lg_vertex_t *rows, int64_t q, int32_t level, lg_vertex_t s,
               bool endpoints)
{
    const int64_t waves = (int64_t)gridDim.x * (blockDim.x / LG_WAVE_SIZE);
    for (int64_t i = (int64_t)blockIdx.x * (blockDim.x / LG_WAVE_SIZE) + lg__wave_id(); i < q;
         i += waves) {
        const lg_vertex_t w = rows[i];
        const lg_edge_t lo = a.off[w], hi = a.off[w + 1];
        const double sigma = a.val[w]; /* read by every lane before lane 0 replaces it */
        double part = 0.0;
        for (lg_edge_t e = lo + lg__lane_id(); e < hi; e += LG_WAVE_SIZE) {
            const lg_vertex_t v = lg__ldg(a.idx + e);
            if (a.weighted ? tight(a, w, v, e) : a.level[v] == level + 1) {
                const double q = a.val[v];
                part += q;
                if (a.arcs)
                    a.arcs[e] += sigma * q;
            }
        }
        const double total = lg__wave_sum(part);
        if (lg__lane_id() == 0) {
            const double delta = sigma * total;
            if (!a.arcs && w != s)
                a.sum[w] += endpoints ? delta + 1.0 : delta;
            /* a path's end at w counts where w is a target (a subset's) */
            a.val[w] = ((!a.targets || a.targets[w] ? 1.0 : 0.0) + delta) / sigma;
        }
    }
}

__global__ void add_one(double *x, double value)
{
    *x += value;
}

__global__ void mark_sources(unsigned char *mark, const lg_vertex_t *sources, int64_t k)
{
    LG_FOR_EACH(i, k)
    mark[sources[i]] = 1;
}

__global__ void scale_sums(double *sum, int64_t n, const unsigned char *mark, double other,
                           double source)
{
    LG_FOR_EACH(v, n)
    sum[v] *= mark && mark[v] ? source : other;
}

/* An undirected graph's per-arc sums into its edges' values (fold_edges.h),
 * a thread a row. */
__global__ void fold_edges(const lg_edge_t *off, const lg_vertex_t *idx, int64_t n, double *c)
{
    LG_FOR_EACH(u, n)
    lg_fold_row(off, idx, u, c);
}

/* The levels of source s's search into order (level L is
 * order[starts[L] .. starts[L + 1])); *levels their number, *reached the
 * vertices in them. */
lg_status_t search(lg__gpu_state *s, const char *fn, const bc_args &a, int64_t n, lg_vertex_t src,
                   lg_vertex_t *order, lg_vertex_t *frontier[2], unsigned long long *count,
                   int64_t *starts, int32_t *levels, int64_t *reached)
{
    lg_status_t st = LG_OK;
    unsigned long long h = 0;
    start<<<1, 1, 0, s->stream>>>(a, src, order, frontier[0]);
    LG_TRY_OR_CLEANUP(lg__launched(), "starting a search");
    if (a.weighted) { /* the distances, by relaxation rounds */
        int64_t q = 1;
        for (int round = 1; q > 0; round++) {
            LG_TRY_OR_CLEANUP(hipMemsetAsync(count, 0, sizeof *count, s->stream), "relaxing");
            expand<<<lg__blocks_for(q, BC_BLOCK), BC_BLOCK, 0, s->stream>>>(
                a, frontier[0], q, relax_visit{a, round, frontier[1], count});
            LG_TRY_OR_CLEANUP(lg__launched(), "relaxing");
            LG_TRY_OR_CLEANUP(lg__download(s, &h, count, sizeof h), "relaxing");
            q = (int64_t)h;
            lg_vertex_t *t = frontier[0];
            frontier[0] = frontier[1], frontier[1] = t;
        }
        count_tight<<<lg__blocks_for(n, BC_BLOCK), BC_BLOCK, 0, s->stream>>>(a, n);
        LG_TRY_OR_CLEANUP(lg__launched(), "counting the tight arcs");
    }
    {
        int64_t lo = 0, hi = 1;
        int32_t L = 0;
        starts[0] = 0;
        while (hi > lo) {
            starts[L + 1] = hi;
            LG_TRY_OR_CLEANUP(hipMemsetAsync(count, 0, sizeof *count, s->stream), "searching");
            if (a.weighted)
                expand<<<lg__blocks_for(hi - lo, BC_BLOCK), BC_BLOCK, 0, s->stream>>>(
                    a, order + lo, hi - lo, push_visit{a, L + 1, order + hi, count});
            else
                expand<<<lg__blocks_for(hi - lo, BC_BLOCK), BC_BLOCK, 0, s->stream>>>(
                    a, order + lo, hi - lo, bfs_visit{a, L + 1, order + hi, count});
            LG_TRY_OR_CLEANUP(lg__launched(), "searching");
            LG_TRY_OR_CLEANUP(lg__download(s, &h, count, sizeof h), "searching");
            lo = hi;
            hi += (int64_t)h;
            L++;
        }
        *levels = L;
        *reached = hi;
    }
cleanup:
    return st;
}

} // namespace

lg_status_t lg__gpu_brandes(lg__gpu_state *s, const struct lg_graph_view *g,
                            const struct lg_betweenness_args *call, bool per_arc,
                            const unsigned char *targets)
{
    const char *fn = per_arc   ? "lg_edge_betweenness"
                     : targets ? "lg_betweenness_subset"
                               : "lg_betweenness";
    const int64_t n = g->n, k = call->num_sources;
    const unsigned blocks = lg__blocks_for(n, BC_BLOCK);
    const bool weighted = call->use_weights && g->out.weights;
    /* an edge's ends are on every path it is on: NetworkX scales edge
     * betweenness as a vertex's with endpoints */
    struct lg_betweenness_args scaled = *call;
    scaled.endpoints = scaled.endpoints || per_arc;
    const struct lg_betweenness_scale scale =
        targets ? lg_betweenness_subset_scale_of(call, n, g->directed)
                : lg_betweenness_scale_of(&scaled, n, g->directed);
    const int64_t len = per_arc ? g->m : n; /* the result's length */
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_vertex_t *order = NULL, *frontier[2] = {NULL, NULL}, *d_sources = NULL;
    unsigned char *mark = NULL;
    unsigned long long *count = NULL;
    int64_t *starts = NULL;
    bc_args a;
    memset(&a, 0, sizeof a);
    lg_status_t st = lg__dev_graph_get(s, g, fn, false, &dg, &temporary);
    if (st != LG_OK)
        return st;
    a.off = dg->out.offsets;
    a.idx = dg->out.indices;
    a.weighted = weighted;
    a.w = weighted && !dg->out.weights64 ? dg->out.weights : NULL;
    a.w64 = weighted ? dg->out.weights64 : NULL;
    starts = (int64_t *)lg__gpu_host->malloc((size_t)(n + 2) * sizeof *starts);
    if (!starts) {
        st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of host memory for the levels", fn);
        goto cleanup;
    }
    {
        lg__carve c = {0, NULL};
        const size_t at_level = c.add((size_t)n * sizeof *a.level);
        const size_t at_val = c.add((size_t)n * sizeof *a.val);
        const size_t at_sum = c.add((size_t)n * sizeof *a.sum);
        const size_t at_arcs = per_arc ? c.add((size_t)g->m * sizeof *a.arcs) : 0;
        const size_t at_order = c.add((size_t)n * sizeof *order);
        const size_t at_dist = weighted ? c.add((size_t)n * sizeof *a.dist) : 0;
        const size_t at_stamp = weighted ? c.add((size_t)n * sizeof *a.stamp) : 0;
        const size_t at_indeg = weighted ? c.add((size_t)n * sizeof *a.indeg) : 0;
        const size_t at_f0 = weighted ? c.add((size_t)n * sizeof(lg_vertex_t)) : 0;
        const size_t at_f1 = weighted ? c.add((size_t)n * sizeof(lg_vertex_t)) : 0;
        const size_t at_mark = scale.by_source ? c.add((size_t)n) : 0;
        const size_t at_sources = call->sources ? c.add((size_t)k * sizeof *d_sources) : 0;
        const size_t at_targets = targets ? c.add((size_t)n) : 0;
        const size_t at_count = c.add(sizeof *count);
        LG_TRY_OR_CLEANUP(lg__scratch_reserve(&s->work, c.used), "allocating the arrays");
        c.base = (char *)s->work.ptr;
        a.level = c.take<int32_t>(at_level);
        a.val = c.take<double>(at_val);
        a.sum = c.take<double>(at_sum);
        a.arcs = per_arc ? c.take<double>(at_arcs) : NULL;
        order = c.take<lg_vertex_t>(at_order);
        if (weighted) {
            a.dist = c.take<unsigned long long>(at_dist);
            a.stamp = c.take<int>(at_stamp);
            a.indeg = c.take<int>(at_indeg);
            frontier[0] = c.take<lg_vertex_t>(at_f0);
            frontier[1] = c.take<lg_vertex_t>(at_f1);
        }
        mark = scale.by_source ? c.take<unsigned char>(at_mark) : NULL;
        d_sources = call->sources ? c.take<lg_vertex_t>(at_sources) : NULL;
        a.targets = targets ? c.take<unsigned char>(at_targets) : NULL;
        count = c.take<unsigned long long>(at_count);
    }
    if (call->sources)
        LG_TRY_OR_CLEANUP(lg__upload(s, d_sources, call->sources, (size_t)k * sizeof *d_sources),
                          "uploading the sources");
    if (targets)
        LG_TRY_OR_CLEANUP(lg__upload(s, (unsigned char *)a.targets, targets, (size_t)n),
                          "uploading the targets");
    clear_all<<<blocks, BC_BLOCK, 0, s->stream>>>(a, n);
    LG_TRY_OR_CLEANUP(lg__launched(), "clearing the arrays");
    if (per_arc)
        LG_TRY_OR_CLEANUP(hipMemsetAsync(a.arcs, 0, (size_t)g->m * sizeof *a.arcs, s->stream),
                          "clearing the arrays");
    for (int64_t i = 0; i < k; i++) {
        const lg_vertex_t src = call->sources ? call->sources[i] : (lg_vertex_t)i;
        int32_t levels = 0;
        int64_t reached = 0;
        st = search(s, fn, a, n, src, order, frontier, count, starts, &levels, &reached);
        if (st != LG_OK)
            goto cleanup;
        for (int32_t L = levels - 1; L >= 0; L--) {
            const int64_t q = starts[L + 1] - starts[L];
            /* a wave a vertex: the grid sized by its lanes (lg__blocks_for's cap) */
            const unsigned blocks_q = lg__blocks_for(q * s->info.wave_size, BC_BLOCK);
            accumulate<<<blocks_q, BC_BLOCK, 0, s->stream>>>(a, order + starts[L], q, L, src,
                                                             call->endpoints);
            LG_TRY_OR_CLEANUP(lg__launched(), "accumulating the dependencies");
        }
        if (call->endpoints && !per_arc && reached > 1) {
            add_one<<<1, 1, 0, s->stream>>>(a.sum + src, (double)(reached - 1));
            LG_TRY_OR_CLEANUP(lg__launched(), "accumulating the dependencies");
        }
        clear_reached<<<lg__blocks_for(reached, BC_BLOCK), BC_BLOCK, 0, s->stream>>>(a, order,
                                                                                     reached);
        LG_TRY_OR_CLEANUP(lg__launched(), "clearing the search");
        if ((i + 1) % REPORT_SOURCES == 0 || i + 1 == k) {
            LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "searching");
            if (!lg_progress_go_on(s->progress, LG_STAGE_BETWEENNESS, i + 1, k, 0.0)) {
                st = LG_ERR_CANCELLED;
                goto cleanup;
            }
        }
    }
    if (per_arc && !g->directed) {
        fold_edges<<<blocks, BC_BLOCK, 0, s->stream>>>(a.off, a.idx, n, a.arcs);
        LG_TRY_OR_CLEANUP(lg__launched(), "summing the edges' two arcs");
    }
    if (scale.apply) {
        if (mark) {
            LG_TRY_OR_CLEANUP(hipMemsetAsync(mark, 0, (size_t)n, s->stream), "scaling");
            mark_sources<<<lg__blocks_for(k, BC_BLOCK), BC_BLOCK, 0, s->stream>>>(mark, d_sources,
                                                                                  k);
        }
        scale_sums<<<lg__blocks_for(len, BC_BLOCK), BC_BLOCK, 0, s->stream>>>(
            per_arc ? a.arcs : a.sum, len, mark, scale.other, scale.source);
        LG_TRY_OR_CLEANUP(lg__launched(), "scaling");
    }
    LG_TRY_OR_CLEANUP(
        lg__deliver(s, call->centrality, per_arc ? a.arcs : a.sum, (size_t)len * sizeof(double)),
        "downloading the centrality");

cleanup:
    (void)hipStreamSynchronize(s->stream);
    lg__gpu_host->free(starts);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

namespace
{
lg_status_t betweenness_on_device(lg__gpu_state *s, const struct lg_graph_view *g, const void *args)
{
    return lg__gpu_brandes(s, g, (const struct lg_betweenness_args *)args, false, NULL);
}
} // namespace

lg_status_t lg__gpu_betweenness(const struct lg_exec *x, const struct lg_graph_view *g,
                                const void *args)
{
    return lg__gpu_run(x, g, args, "lg_betweenness", betweenness_on_device);
}

/* The plugin's betweenness (plugin.hip). */
LG_GPU_KERNEL_ROW(betweenness, BETWEENNESS, false)
