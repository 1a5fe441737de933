/*
 * sssp.hip - single-source shortest paths on the GPU (lg__gpu_sssp, the
 * plugin's sssp kernel).
 *
 * Returns what the CPU backend returns (src/kernels/cpu/sssp.c states it):
 * dist[v] = the length of a shortest path from the nearest source, summed in
 * double from float32 weights or a float64 graph's (INFINITY: unreached,
 * beyond the cutoff, or farther than the target); distances are the fixed
 * point both backends reach, so they are equal to the bit.  On request a
 * predecessor of each reached vertex, found the same way as on the CPU (a
 * search over the tight arcs from the sources), any valid one.
 *
 * Method: near-far, the work-list form of delta-stepping of Davidson,
 * Baxter, Garland and Owens, "Work-Efficient Parallel GPU Methods for
 * Single-Source Shortest Paths", IPDPS'14: a split distance divides the
 * improved vertices into a near queue (distance below the split), relaxed
 * round after round until it empties, and a far pile; then the split moves
 * on by delta (or past the nearest far vertex, if farther), and the far
 * pile's vertices below it become the next near queue.  Each round relaxes
 * every out-arc of the near queue's vertices, load-balanced over the block
 * whatever the mix of degrees (expand.h: Merrill, Garland and Grimshaw's
 * gather), with one atomicMin on a distance's key a relaxation (key_of: a
 * double's bits, turned so that they order as the doubles do, negative
 * ones included), and the improved
 * vertices appended with one atomic a wave (lg__wave_atomic_inc).  A vertex
 * enters the next near queue once a round (a stamp) and the far pile once
 * while there (a flag), so both queues hold at most n vertices.  The host
 * reads the queues' sizes after each round (a round trip a round).
 *
 * delta: DELTA_FACTOR times the CPU's rule (the mean weight over the mean
 * degree): a GPU round fills the device only with a wide bucket.
 *
 * Negative weights: Bellman-Ford as on the CPU (bellman_ford.h there): the
 * same rounds with the split at infinity (every improved vertex is near),
 * so a round is the frontier of vertices whose distance dropped in the one
 * before; each drop records its parent.  A frontier left after n rounds is
 * a negative cycle; the host walks the parents (downloaded at rounds 64,
 * 128, ... and n) and, failing that, searches (src/graph/negative_cycle.h)
 * to name a vertex on it.  The cutoff then keeps the vertices a tight-arc
 * path within it joins to a source; the target filters nothing.
 *
 * Memory: the device graph (cached); in the context's work buffer the
 * distances (8 n bytes), four queues (4 n each), the stamps and flags
 * (8 n), and with predecessors those (4 n); Bellman-Ford's parents (4 n).
 */
#include "expand.h"
#include "gpu.h"
#include "negative_cycle.h"

#include <math.h>
#include <string.h>

#define SSSP_BLOCK 256
#define DELTA_FACTOR 16.0
#define WEIGHT_SAMPLES 4096
/* Rounds between two reports to the progress callback. */
#define REPORT_ROUNDS 64

/* The kernels and their host side are this file's own (kernel names are
 * otherwise global across the plugin's sources). */
namespace {

struct sssp_args {
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;    /* NULL (and w64 NULL): every arc weighs 1 */
    const double *w64; /* a float64 graph's weights, read instead of w */
    unsigned long long *dist; /* keys (key_of) */
    lg_vertex_t *parent;      /* Bellman-Ford: the vertex each drop came from, else NULL */
    int *stamp;        /* the round v last entered a near queue */
    int *in_far;       /* v is in the far pile */
    double cutoff;
};

/* Arc e's weight (kernels.h's lg_arc_weight, on the device). */
__device__ static inline double arc_weight(const sssp_args &a, lg_edge_t e)
{
    return a.w64 ? a.w64[e] : a.w ? (double)a.w[e] : 1.0;
}

/* The queue counters, on the device: [0] the next near queue, [1] the far pile
 * (appended to while relaxing), [2] the far pile's survivors while filtering,
 * [3] the far pile's smallest distance's bits. */
enum { NEXT, FAR, KEPT, FAR_MIN, COUNTERS };

__global__ void init(sssp_args a, int64_t n)
{
    LG_FOR_EACH(v, n)
    {
        a.dist[v] = INF_KEY;
        a.stamp[v] = -1;
        a.in_far[v] = 0;
        if (a.parent)
            a.parent[v] = -1;
    }
}

/* The sources at distance 0, each once, into the first near queue. */
__global__ void start(sssp_args a, const lg_vertex_t *sources, int64_t k, lg_vertex_t *near,
                      unsigned long long *count)
{
    LG_FOR_EACH(i, k)
    {
        const lg_vertex_t s = sources[i];
        if (atomicCAS(a.dist + s, INF_KEY, ZERO_KEY) == INF_KEY)
            near[atomicAdd(count, 1ull)] = s;
    }
}

/* One relaxation of arc e = u -> v, by every lane of the wave together. */
struct relax_visit {
    const sssp_args &a;
    double split;
    int round;
    lg_vertex_t *next, *far;
    unsigned long long *counts;
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t e, bool valid) const
    {
        bool to_near = false, to_far = false;
        if (valid) {
            const double nd = of_key(a.dist[u]) + arc_weight(a, e);
            const unsigned long long key = key_of(nd);
            if (nd <= a.cutoff && key < atomicMin(a.dist + v, key)) {
                if (a.parent)
                    a.parent[v] = u;
                if (nd < split)
                    to_near = atomicExch(a.stamp + v, round) != round;
                else
                    to_far = atomicExch(a.in_far + v, 1) == 0;
            }
        }
        const long long at_near = lg__wave_atomic_inc(counts + NEXT, to_near);
        if (to_near)
            next[at_near] = v;
        const long long at_far = lg__wave_atomic_inc(counts + FAR, to_far);
        if (to_far)
            far[at_far] = v;
    }
};

/* A round: every out-arc of the near queue's q vertices relaxed. */
__global__ void __launch_bounds__(SSSP_BLOCK)
    relax(sssp_args a, const lg_vertex_t *near, int64_t q, lg_vertex_t *next, lg_vertex_t *far,
          unsigned long long *counts, double split, int round)
{
    relax_visit visit{a, split, round, next, far, counts};
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < q;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = base + threadIdx.x;
        lg_vertex_t u = 0;
        lg_edge_t begin = 0, end = 0;
        if (i < q) {
            u = near[i];
            begin = a.off[u];
            end = a.off[u + 1];
        }
        lg__expand_rows(u, begin, end, a.idx, visit);
    }
}

/* The far pile's smallest distance (its bits). */
__global__ void far_min(sssp_args a, const lg_vertex_t *far, int64_t f,
                        unsigned long long *counts)
{
    LG_FOR_EACH(i, f)
    atomicMin(counts + FAR_MIN, a.dist[far[i]]);
}

/* The far pile split at the new split: below it to the near queue (once),
 * the rest kept. */
__global__ void far_filter(sssp_args a, const lg_vertex_t *far, int64_t f, lg_vertex_t *near,
                           lg_vertex_t *kept, unsigned long long *counts, double split, int round)
{
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < f;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = base + threadIdx.x;
        bool to_near = false, keep = false;
        lg_vertex_t v = 0;
        if (i < f) {
            v = far[i];
            keep = of_key(a.dist[v]) >= split;
            if (!keep) {
                a.in_far[v] = 0;
                to_near = atomicExch(a.stamp + v, round) != round;
            }
        }
        const long long at_near = lg__wave_atomic_inc(counts + NEXT, to_near);
        if (to_near)
            near[at_near] = v;
        const long long at_kept = lg__wave_atomic_inc(counts + KEPT, keep);
        if (keep)
            kept[at_kept] = v;
    }
}

/* Every distance beyond limit (a key) back to INFINITY, and its
 * predecessor (when there are some) to -1. */
__global__ void trim(unsigned long long *dist, int64_t n, unsigned long long limit,
                     lg_vertex_t *pred)
{
    LG_FOR_EACH(v, n)
    if (dist[v] > limit) {
        dist[v] = INF_KEY;
        if (pred)
            pred[v] = -1;
    }
}

/* Every vertex the tight-arc search left unclaimed is unreached. */
__global__ void unclaimed(unsigned long long *dist, int64_t n, const lg_vertex_t *pred)
{
    LG_FOR_EACH(v, n)
    if (pred[v] < 0)
        dist[v] = INF_KEY;
}

/* The keys back to the doubles' bits, for delivery. */
__global__ void to_doubles(unsigned long long *dist, int64_t n)
{
    LG_FOR_EACH(v, n)
    {
        const double d = of_key(dist[v]);
        memcpy(dist + v, &d, sizeof d);
    }
}

/* Predecessors: every vertex -1, then the sources their own. */
__global__ void pred_start(lg_vertex_t *pred, int64_t n)
{
    LG_FOR_EACH(v, n)
    pred[v] = -1;
}

/* A source below 0 (Bellman-Ford: reached from another) waits for its arc. */
__global__ void pred_sources(lg_vertex_t *pred, const unsigned long long *dist,
                             const lg_vertex_t *sources, int64_t k, lg_vertex_t *queue,
                             unsigned long long *count)
{
    LG_FOR_EACH(i, k)
    {
        const lg_vertex_t s = sources[i];
        if (dist[s] == ZERO_KEY && atomicCAS(pred + s, -1, s) == -1)
            queue[atomicAdd(count, 1ull)] = s;
    }
}

/* How many of the sources Bellman-Ford left below 0 (keys order as the
 * doubles do). */
__global__ void below_zero(const unsigned long long *dist, const lg_vertex_t *sources, int64_t k,
                           unsigned long long *count)
{
    LG_FOR_EACH(i, k)
    if (dist[sources[i]] < ZERO_KEY)
        atomicAdd(count, 1ull);
}

/* One level of the search over tight arcs: each unclaimed v at the end of
 * a tight arc from the level is claimed once. */
struct tight_visit {
    const sssp_args &a;
    lg_vertex_t *pred, *next;
    unsigned long long *count;
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t e, bool valid) const
    {
        bool claimed = false;
        if (valid) {
            const double du = of_key(a.dist[u]);
            const double dv = of_key(a.dist[v]);
            claimed = du + arc_weight(a, e) == dv && pred[v] < 0 &&
                      atomicCAS(pred + v, -1, u) == -1;
        }
        const long long at = lg__wave_atomic_inc(count, claimed);
        if (claimed)
            next[at] = v;
    }
};

__global__ void __launch_bounds__(SSSP_BLOCK)
    tight_level(sssp_args a, const lg_vertex_t *level, int64_t q, lg_vertex_t *pred,
                lg_vertex_t *next, unsigned long long *count)
{
    tight_visit visit{a, pred, next, count};
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < q;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = base + threadIdx.x;
        lg_vertex_t u = 0;
        lg_edge_t begin = 0, end = 0;
        if (i < q) {
            u = level[i];
            begin = a.off[u];
            end = a.off[u + 1];
        }
        lg__expand_rows(u, begin, end, a.idx, visit);
    }
}

/* Bellman-Ford's negative cycle, named from the device's parents and the
 * host's rows (negative_cycle.h): LG_ERR_UNBOUNDED, or *named false when
 * the parents' walk (search false) finds none. */
static lg_status_t name_cycle(lg__gpu_state *s, const struct lg_graph_view *g,
                              const struct lg_sssp_args *call, const lg_vertex_t *d_parent,
                              const lg_vertex_t *d_frontier, bool search, bool *named)
{
    static const char fn[] = "lg_sssp";
    const int64_t n = g->n;
    lg_status_t st = LG_OK;
    const struct lg_weighted_rows rows = {n, g->out.offsets, g->out.indices,
                                          call->use_weights ? g->out.weights : NULL,
                                          call->use_weights ? g->out.weights64 : NULL};
    lg_vertex_t *parent = (lg_vertex_t *)lg__gpu_host->malloc((size_t)n * sizeof *parent);
    struct lg_cycle_work k = {NULL, NULL, NULL, NULL, NULL};
    lg_vertex_t from = -1, v = -1;
    *named = false;
    if (!parent)
        return lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory for the parents", fn);
    LG_TRY_OR_CLEANUP(lg__download(s, parent, d_parent, (size_t)n * sizeof *parent),
                      "reading the parents");
    LG_TRY_OR_CLEANUP(lg__download(s, &from, d_frontier, sizeof from), "reading the parents");
    v = lg_cycle_on_parents(&rows, parent, from);
    if (v < 0 && search) {
        k.d = (double *)lg__gpu_host->malloc((size_t)n * sizeof *k.d);
        k.parent = parent;
        k.queue = (lg_vertex_t *)lg__gpu_host->malloc((size_t)n * sizeof *k.queue);
        k.arcs = (int64_t *)lg__gpu_host->malloc((size_t)n * sizeof *k.arcs);
        k.queued = (unsigned char *)lg__gpu_host->malloc((size_t)n);
        if (!k.d || !k.queue || !k.arcs || !k.queued) {
            st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY,
                                     "%s: out of memory for the cycle search", fn);
            goto cleanup;
        }
        v = lg_cycle_by_search(&rows, call->sources, call->num_sources, &k);
        if (v < 0)
            st = lg__gpu_host->error(LG_ERR_INTERNAL, "%s: Bellman-Ford ran %lld rounds", fn,
                                     (long long)n);
    }
    if (v >= 0) {
        *named = true;
        st = lg__gpu_host->error(
            LG_ERR_UNBOUNDED,
            "%s: a negative cycle is reachable from the sources: vertex %d is on it", fn, (int)v);
    }
cleanup:
    lg__gpu_host->free(parent);
    lg__gpu_host->free(k.d);
    lg__gpu_host->free(k.queue);
    lg__gpu_host->free(k.arcs);
    lg__gpu_host->free(k.queued);
    return st;
}

/* Bellman-Ford settled: a source left below 0 that no tight path from a
 * source at 0 reaches (negative_cycle.h's lg_source_below_zero, on the
 * host, only when the device counts one below 0): LG_ERR_UNBOUNDED, *named
 * true. */
static lg_status_t source_below_zero(lg__gpu_state *s, const struct lg_graph_view *g,
                                     const struct lg_sssp_args *call,
                                     const unsigned long long *d_dist, const lg_vertex_t *d_sources,
                                     unsigned long long *counts, bool *named)
{
    static const char fn[] = "lg_sssp";
    const int64_t n = g->n, k = call->num_sources;
    unsigned long long below = 0;
    *named = false;
    lg_status_t st = LG_OK;
    double *dist = NULL;
    lg_vertex_t *queue = NULL;
    unsigned char *reached = NULL;
    LG_TRY_OR_CLEANUP(hipMemsetAsync(counts, 0, sizeof *counts, s->stream), "checking the sources");
    below_zero<<<lg__blocks_for(k, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(d_dist, d_sources, k,
                                                                            counts);
    LG_TRY_OR_CLEANUP(lg__launched(), "checking the sources");
    LG_TRY_OR_CLEANUP(lg__download(s, &below, counts, sizeof below), "checking the sources");
    if (below == 0)
        return LG_OK;
    dist = (double *)lg__gpu_host->malloc((size_t)n * sizeof *dist);
    queue = (lg_vertex_t *)lg__gpu_host->malloc((size_t)n * sizeof *queue);
    reached = (unsigned char *)lg__gpu_host->malloc((size_t)n);
    if (!dist || !queue || !reached) {
        st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory for the sources' check",
                                 fn);
        goto cleanup;
    }
    {
        /* the keys into dist's bytes, then each turned back in place */
        unsigned long long *keys = (unsigned long long *)dist;
        LG_TRY_OR_CLEANUP(lg__download(s, keys, d_dist, (size_t)n * sizeof *keys),
                          "checking the sources");
        for (int64_t v = 0; v < n; v++)
            dist[v] = of_key(keys[v]);
        const struct lg_weighted_rows rows = {n, g->out.offsets, g->out.indices,
                                              call->use_weights ? g->out.weights : NULL,
                                              call->use_weights ? g->out.weights64 : NULL};
        const lg_vertex_t v = lg_source_below_zero(&rows, dist, call->sources, k, queue, reached);
        if (v >= 0) {
            *named = true;
            st = lg__gpu_host->error(LG_ERR_UNBOUNDED, LG_SOURCE_BELOW_ZERO, fn, (int)v);
        }
    }
cleanup:
    lg__gpu_host->free(dist);
    lg__gpu_host->free(queue);
    lg__gpu_host->free(reached);
    return st;
}

static lg_status_t sssp_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                  const void *args)
{
    static const char fn[] = "lg_sssp";
    const struct lg_sssp_args *call = (const struct lg_sssp_args *)args;
    const int64_t n = g->n, k = call->num_sources;
    const unsigned blocks = lg__blocks_for(n, SSSP_BLOCK);
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_vertex_t *queue[4] = {NULL, NULL, NULL, NULL}, *d_sources = NULL, *pred = NULL;
    unsigned long long *counts = NULL, h[COUNTERS];
    sssp_args a;
    memset(&a, 0, sizeof a);
    lg_status_t st = lg__dev_graph_get(s, g, fn, false, &dg, &temporary);
    if (st != LG_OK)
        return st;
    const float *host_w = call->use_weights ? g->out.weights : NULL;
    const bool bf = call->bellman_ford;
    const double mean_degree = g->m > g->n ? (double)g->m / (double)g->n : 1.0;
    double delta = call->delta;
    if (delta <= 0.0)
        delta = host_w ? DELTA_FACTOR * lg_sampled_mean_weight(g, host_w, WEIGHT_SAMPLES) /
                             mean_degree
                       : 1.0;
    if (!(delta > 0.0) || !isfinite(delta))
        delta = 1.0;
    a.off = dg->out.offsets;
    a.idx = dg->out.indices;
    a.w = host_w && !dg->out.weights64 ? dg->out.weights : NULL;
    a.w64 = host_w ? dg->out.weights64 : NULL;
    /* Bellman-Ford: no cut while searching (a negative arc may come back under) */
    a.cutoff = bf ? INFINITY : call->cutoff;
    {
        /* the call's arrays in the context's work buffer */
        lg__carve c = {0, NULL};
        const size_t at_dist = c.add((size_t)n * sizeof *a.dist);
        const size_t at_stamp = c.add((size_t)n * sizeof *a.stamp);
        const size_t at_far = c.add((size_t)n * sizeof *a.in_far);
        size_t at_queue[4];
        for (int i = 0; i < 4; i++)
            at_queue[i] = c.add((size_t)n * sizeof(lg_vertex_t));
        const size_t at_pred = call->predecessors ? c.add((size_t)n * sizeof *pred) : 0;
        const size_t at_parent = bf ? c.add((size_t)n * sizeof *a.parent) : 0;
        const size_t at_sources = c.add((size_t)k * sizeof *d_sources);
        const size_t at_counts = c.add(COUNTERS * sizeof *counts);
        LG_TRY_OR_CLEANUP(lg__scratch_reserve(&s->work, c.used), "allocating the search's arrays");
        c.base = (char *)s->work.ptr;
        a.dist = c.take<unsigned long long>(at_dist);
        a.stamp = c.take<int>(at_stamp);
        a.in_far = c.take<int>(at_far);
        for (int i = 0; i < 4; i++)
            queue[i] = c.take<lg_vertex_t>(at_queue[i]);
        pred = call->predecessors ? c.take<lg_vertex_t>(at_pred) : NULL;
        a.parent = bf ? c.take<lg_vertex_t>(at_parent) : NULL;
        d_sources = c.take<lg_vertex_t>(at_sources);
        counts = c.take<unsigned long long>(at_counts);
    }
    LG_TRY_OR_CLEANUP(lg__upload(s, d_sources, call->sources, (size_t)k * sizeof *d_sources),
                      "uploading the sources");
    LG_TRY_OR_CLEANUP(hipMemsetAsync(counts, 0, COUNTERS * sizeof *counts, s->stream),
                      "starting the search");
    init<<<blocks, SSSP_BLOCK, 0, s->stream>>>(a, n);
    start<<<lg__blocks_for(k, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(a, d_sources, k, queue[0],
                                                                       counts + NEXT);
    LG_TRY_OR_CLEANUP(lg__launched(), "starting the search");
    {
        lg_vertex_t *near = queue[0], *next = queue[1], *far = queue[2], *kept = queue[3];
        LG_TRY_OR_CLEANUP(lg__download(s, h, counts, sizeof h), "starting the search");
        int64_t q = (int64_t)h[NEXT], f = 0;
        double split = bf ? INFINITY : delta;
        int round = 0;           /* the stamps' round: relaxations and filters */
        int64_t relaxations = 0; /* the relaxation rounds, for the progress callback */
        for (;;) {
            while (q > 0) {
                if (bf && (relaxations >= n || (relaxations >= 64 &&
                                                (relaxations & (relaxations - 1)) == 0))) {
                    bool named = false;
                    st = name_cycle(s, g, call, a.parent, near, relaxations >= n, &named);
                    if (st != LG_OK || named)
                        goto cleanup;
                }
                round++;
                relaxations++;
                LG_TRY_OR_CLEANUP(hipMemsetAsync(counts + NEXT, 0, sizeof *counts, s->stream),
                                  "relaxing");
                relax<<<lg__blocks_for(q, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(
                    a, near, q, next, far, counts, split, round);
                LG_TRY_OR_CLEANUP(lg__launched(), "relaxing");
                LG_TRY_OR_CLEANUP(lg__download(s, h, counts, 2 * sizeof *h), "relaxing");
                q = (int64_t)h[NEXT];
                f = (int64_t)h[FAR];
                lg_vertex_t *t = near;
                near = next, next = t;
                if (relaxations % REPORT_ROUNDS == 0 &&
                    !lg_progress_go_on(s->progress, LG_STAGE_SSSP, relaxations, -1, split)) {
                    st = LG_ERR_CANCELLED;
                    goto cleanup;
                }
            }
            /* every vertex below the split is final: the target may be */
            if (call->target >= 0 && !bf) {
                unsigned long long key;
                LG_TRY_OR_CLEANUP(lg__download(s, &key, a.dist + call->target, sizeof key),
                                  "reading the target");
                if (of_key(key) < split) {
                    trim<<<blocks, SSSP_BLOCK, 0, s->stream>>>(a.dist, n, key, NULL);
                    LG_TRY_OR_CLEANUP(lg__launched(), "cutting at the target");
                    break;
                }
            }
            if (f == 0)
                break;
            h[FAR_MIN] = INF_KEY;
            LG_TRY_OR_CLEANUP(hipMemcpyAsync(counts + FAR_MIN, h + FAR_MIN, sizeof *h,
                                             hipMemcpyHostToDevice, s->stream),
                              "moving the split");
            far_min<<<lg__blocks_for(f, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(a, far, f,
                                                                                 counts);
            LG_TRY_OR_CLEANUP(lg__launched(), "moving the split");
            LG_TRY_OR_CLEANUP(lg__download(s, h + FAR_MIN, counts + FAR_MIN, sizeof *h),
                              "moving the split");
            const double lowest = of_key(h[FAR_MIN]);
            split += delta;
            if (lowest >= split)
                split = (floor(lowest / delta) + 1.0) * delta;
            round++;
            LG_TRY_OR_CLEANUP(hipMemsetAsync(counts, 0, 3 * sizeof *counts, s->stream),
                              "moving the split");
            far_filter<<<lg__blocks_for(f, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(
                a, far, f, near, kept, counts, split, round);
            LG_TRY_OR_CLEANUP(lg__launched(), "moving the split");
            LG_TRY_OR_CLEANUP(lg__download(s, h, counts, 3 * sizeof *h), "moving the split");
            q = (int64_t)h[NEXT];
            f = (int64_t)h[KEPT];
            lg_vertex_t *t = far;
            far = kept, kept = t;
            /* the far pile is appended to from the kept count on */
            LG_TRY_OR_CLEANUP(hipMemcpyAsync(counts + FAR, h + KEPT, sizeof *h,
                                             hipMemcpyHostToDevice, s->stream),
                              "moving the split");
        }
    }
    if (bf) {
        bool named = false;
        st = source_below_zero(s, g, call, a.dist, d_sources, counts, &named);
        if (st != LG_OK || named)
            goto cleanup;
    }
    /* Bellman-Ford: the cutoff on the final distances, then reached only what
     * a tight-arc path within it joins to a source (the CPU's rule; the
     * target filters nothing); the parents' array serves when the call asked
     * for no predecessors */
    {
        const bool cut = bf && call->cutoff < INFINITY;
        if (cut) {
            trim<<<blocks, SSSP_BLOCK, 0, s->stream>>>(a.dist, n, key_of(call->cutoff), NULL);
            LG_TRY_OR_CLEANUP(lg__launched(), "cutting at the cutoff");
        }
        lg_vertex_t *tight = pred ? pred : cut ? a.parent : NULL;
        if (tight) {
            lg_vertex_t *level = queue[0], *next = queue[1];
            pred_start<<<blocks, SSSP_BLOCK, 0, s->stream>>>(tight, n);
            LG_TRY_OR_CLEANUP(hipMemsetAsync(counts, 0, sizeof *counts, s->stream), "predecessors");
            pred_sources<<<lg__blocks_for(k, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(
                tight, a.dist, d_sources, k, level, counts);
            LG_TRY_OR_CLEANUP(lg__launched(), "predecessors");
            LG_TRY_OR_CLEANUP(lg__download(s, h, counts, sizeof *h), "predecessors");
            for (int64_t q = (int64_t)h[0]; q > 0;) {
                LG_TRY_OR_CLEANUP(hipMemsetAsync(counts, 0, sizeof *counts, s->stream),
                                  "predecessors");
                tight_level<<<lg__blocks_for(q, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(
                    a, level, q, tight, next, counts);
                LG_TRY_OR_CLEANUP(lg__launched(), "predecessors");
                LG_TRY_OR_CLEANUP(lg__download(s, h, counts, sizeof *h), "predecessors");
                q = (int64_t)h[0];
                lg_vertex_t *t = level;
                level = next, next = t;
            }
        }
        if (cut) {
            unclaimed<<<blocks, SSSP_BLOCK, 0, s->stream>>>(a.dist, n, tight);
            LG_TRY_OR_CLEANUP(lg__launched(), "cutting at the cutoff");
        }
    }
    if (pred)
        LG_TRY_OR_CLEANUP(lg__deliver(s, call->predecessors, pred, (size_t)n * sizeof *pred),
                          "downloading the predecessors");
    to_doubles<<<blocks, SSSP_BLOCK, 0, s->stream>>>(a.dist, n);
    LG_TRY_OR_CLEANUP(lg__launched(), "finishing the distances");
    LG_TRY_OR_CLEANUP(lg__deliver(s, call->dist, a.dist, (size_t)n * sizeof *call->dist),
                      "downloading the distances");

cleanup:
    (void)hipStreamSynchronize(s->stream);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

} // namespace

lg_status_t lg__gpu_sssp(const struct lg_exec *x, const struct lg_graph_view *g,
                         const void *args)
{
    return lg__gpu_run(x, g, args, "lg_sssp", sssp_on_device);
}

/* The plugin's SSSP (plugin.hip). */
LG_GPU_KERNEL_ROW(sssp, SSSP, false)
