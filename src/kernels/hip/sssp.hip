/*
 * sssp.hip - single-source shortest paths on the GPU (lg__gpu_sssp, the
 * plugin's sssp kernel).
 *
 * Returns what the CPU backend returns (src/kernels/cpu/sssp.c states it):
 * dist[v] = the length of a shortest path from the nearest source, summed in
 * double from float32 weights (INFINITY: unreached, beyond the cutoff, or
 * farther than the target); distances are the fixed point both backends
 * reach, so they are equal to the bit.  On request a predecessor of each
 * reached vertex, found the same way as on the CPU (a search over the tight
 * arcs from the sources), any valid one.
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
 * gather), with one atomicMin on a distance's bits a relaxation (a
 * non-negative double orders as its bit pattern does), and the improved
 * vertices appended with one atomic a wave (lg__wave_atomic_inc).  A vertex
 * enters the next near queue once a round (a stamp) and the far pile once
 * while there (a flag), so both queues hold at most n vertices.  The host
 * reads the queues' sizes after each round (a round trip a round).
 *
 * delta: DELTA_FACTOR times the CPU's rule (the mean weight over the mean
 * degree): a GPU round fills the device only with a wide bucket.
 *
 * Memory: the device graph (cached); in the context's work buffer the
 * distances (8 n bytes), four queues (4 n each), the stamps and flags
 * (8 n), and with predecessors those (4 n).
 */
#include "expand.h"
#include "gpu.h"

#include <math.h>
#include <string.h>

#define SSSP_BLOCK 256
#define DELTA_FACTOR 16.0
#define WEIGHT_SAMPLES 4096
/* Rounds between two reports to the progress callback. */
#define REPORT_ROUNDS 64

#define INF_BITS 0x7FF0000000000000ull /* +INFINITY */

/* The kernels and their host side are this file's own (kernel names are
 * otherwise global across the plugin's sources). */
namespace {

struct sssp_args {
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w; /* NULL: every arc weighs 1 */
    unsigned long long *dist;
    int *stamp;        /* the round v last entered a near queue */
    int *in_far;       /* v is in the far pile */
    double cutoff;
};

/* The queue counters, on the device: [0] the next near queue, [1] the far pile
 * (appended to while relaxing), [2] the far pile's survivors while filtering,
 * [3] the far pile's smallest distance's bits. */
enum { NEXT, FAR, KEPT, FAR_MIN, COUNTERS };

__global__ void init(sssp_args a, int64_t n)
{
    LG_FOR_EACH(v, n)
    {
        a.dist[v] = INF_BITS;
        a.stamp[v] = -1;
        a.in_far[v] = 0;
    }
}

/* The sources at distance 0, each once, into the first near queue. */
__global__ void start(sssp_args a, const lg_vertex_t *sources, int64_t k, lg_vertex_t *near,
                      unsigned long long *count)
{
    LG_FOR_EACH(i, k)
    {
        const lg_vertex_t s = sources[i];
        if (atomicCAS(a.dist + s, INF_BITS, 0ull) == INF_BITS)
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
            const double nd =
                __longlong_as_double((long long)a.dist[u]) + (a.w ? (double)a.w[e] : 1.0);
            const unsigned long long bits = (unsigned long long)__double_as_longlong(nd);
            if (nd <= a.cutoff && bits < atomicMin(a.dist + v, bits)) {
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
            keep = __longlong_as_double((long long)a.dist[v]) >= split;
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

/* With a target: every distance beyond the target's back to INFINITY. */
__global__ void trim(unsigned long long *dist, int64_t n, unsigned long long limit)
{
    LG_FOR_EACH(v, n)
    if (dist[v] > limit)
        dist[v] = INF_BITS;
}

/* Predecessors: every vertex -1, then the sources their own. */
__global__ void pred_start(lg_vertex_t *pred, int64_t n)
{
    LG_FOR_EACH(v, n)
    pred[v] = -1;
}

__global__ void pred_sources(lg_vertex_t *pred, const lg_vertex_t *sources, int64_t k,
                             lg_vertex_t *queue, unsigned long long *count)
{
    LG_FOR_EACH(i, k)
    {
        const lg_vertex_t s = sources[i];
        if (atomicCAS(pred + s, -1, s) == -1)
            queue[atomicAdd(count, 1ull)] = s;
    }
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
            const double du = __longlong_as_double((long long)a.dist[u]);
            const double dv = __longlong_as_double((long long)a.dist[v]);
            claimed = du + (a.w ? (double)a.w[e] : 1.0) == dv && pred[v] < 0 &&
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

/* A distance's bits as the double they are (host side). */
static double from_bits(unsigned long long bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
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
    a.w = host_w ? dg->out.weights : NULL;
    a.cutoff = call->cutoff;
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
        double split = delta;
        int round = 0;           /* the stamps' round: relaxations and filters */
        int64_t relaxations = 0; /* the relaxation rounds, for the progress callback */
        for (;;) {
            while (q > 0) {
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
            if (call->target >= 0) {
                unsigned long long bits;
                LG_TRY_OR_CLEANUP(lg__download(s, &bits, a.dist + call->target, sizeof bits),
                                  "reading the target");
                const double dt = from_bits(bits);
                if (dt < split) {
                    trim<<<blocks, SSSP_BLOCK, 0, s->stream>>>(a.dist, n, bits);
                    LG_TRY_OR_CLEANUP(lg__launched(), "cutting at the target");
                    break;
                }
            }
            if (f == 0)
                break;
            h[FAR_MIN] = INF_BITS;
            LG_TRY_OR_CLEANUP(hipMemcpyAsync(counts + FAR_MIN, h + FAR_MIN, sizeof *h,
                                             hipMemcpyHostToDevice, s->stream),
                              "moving the split");
            far_min<<<lg__blocks_for(f, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(a, far, f,
                                                                                 counts);
            LG_TRY_OR_CLEANUP(lg__launched(), "moving the split");
            LG_TRY_OR_CLEANUP(lg__download(s, h + FAR_MIN, counts + FAR_MIN, sizeof *h),
                              "moving the split");
            const double lowest = from_bits(h[FAR_MIN]);
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
    if (pred) {
        lg_vertex_t *level = queue[0], *next = queue[1];
        pred_start<<<blocks, SSSP_BLOCK, 0, s->stream>>>(pred, n);
        LG_TRY_OR_CLEANUP(hipMemsetAsync(counts, 0, sizeof *counts, s->stream), "predecessors");
        pred_sources<<<lg__blocks_for(k, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(
            pred, d_sources, k, level, counts);
        LG_TRY_OR_CLEANUP(lg__launched(), "predecessors");
        LG_TRY_OR_CLEANUP(lg__download(s, h, counts, sizeof *h), "predecessors");
        for (int64_t q = (int64_t)h[0]; q > 0;) {
            LG_TRY_OR_CLEANUP(hipMemsetAsync(counts, 0, sizeof *counts, s->stream),
                              "predecessors");
            tight_level<<<lg__blocks_for(q, SSSP_BLOCK), SSSP_BLOCK, 0, s->stream>>>(
                a, level, q, pred, next, counts);
            LG_TRY_OR_CLEANUP(lg__launched(), "predecessors");
            LG_TRY_OR_CLEANUP(lg__download(s, h, counts, sizeof *h), "predecessors");
            q = (int64_t)h[0];
            lg_vertex_t *t = level;
            level = next, next = t;
        }
        LG_TRY_OR_CLEANUP(lg__deliver(s, call->predecessors, pred, (size_t)n * sizeof *pred),
                          "downloading the predecessors");
    }
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
