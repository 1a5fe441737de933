/*
 * components.hip - connected components on the GPU (lg__gpu_components, the
 * plugin's components kernel).
 *
 * Returns what the CPU backend returns (src/kernels/cpu/components.c):
 * label[v] = the smallest vertex id of v's component (weak components on a
 * directed graph), and the number of components; the arrays are equal.
 *
 * Method: Afforest (Sutton, Ben-Nun, Barak, IPDPS'18) over a lock-free
 * union-find, as on the CPU: the larger of two roots is hooked under the
 * smaller with one atomic compare-and-swap, retried when another thread
 * moved the root first, climbing a parent at a time between tries (link,
 * the lock-free hooking that ECL-CC, Jaiganesh and Burtscher, HPDC'18, also
 * uses).  A parent is always smaller than its child, so every root is its
 * component's smallest id and the labels come out canonical with no
 * relabelling pass.
 *   1. Link each vertex with its first NEIGHBOR_ROUNDS out-neighbours, one
 *      thread a vertex, a round at a time: a synchronous hooking pass
 *      (atomicMin, no retries: hook_neighbour) joins most of the round's
 *      arcs without contention, an exact pass (link) the rest, and the
 *      labels are compressed (every label to its root) after each.
 *   2. Find the component most vertices already joined: SAMPLES labels at
 *      fixed pseudo-random vertices come back to the host, which takes the
 *      most frequent.
 *   3. Link the remaining arcs of every vertex outside that component,
 *      load-balanced (expand.h).  An undirected graph stores each edge in
 *      both rows, so an edge from the big component is still seen from the
 *      other side; a directed graph stores it once, so there nothing is
 *      skipped.
 *   4. Compress, and count the roots.
 *
 * Memory: the device graph (cached); in the context's work buffer, kept
 * between calls, the labels (4 n bytes) and the sample.
 */
#include "expand.h"
#include "gpu.h"

#include <stdlib.h>
#include <string.h>

#define CC_BLOCK 256
#define NEIGHBOR_ROUNDS 2
#define SAMPLES 1024

/* Joins the trees of u and v: climbs from both a parent at a time and hooks
 * the larger root under the smaller with one compare-and-swap (the Link of
 * Afforest as GAPBS writes it).  Only the hooks write, so threads climbing
 * the same hot paths do not fight over their cache lines. */
__device__ inline void link(lg_vertex_t *label, lg_vertex_t u, lg_vertex_t v)
{
    volatile lg_vertex_t *p = label;
    lg_vertex_t pu = p[u], pv = p[v];
    while (pu != pv) {
        const lg_vertex_t hi = pu > pv ? pu : pv, lo = pu > pv ? pv : pu;
        const lg_vertex_t p_hi = p[hi];
        if (p_hi == lo || (p_hi == hi && atomicCAS(label + hi, hi, lo) == hi))
            return;
        pu = p[p[hi]];
        pv = p[lo];
    }
}

__global__ void init_labels(lg_vertex_t *label, int64_t n)
{
    LG_FOR_EACH(v, n)
    label[v] = (lg_vertex_t)v;
}

/* Round r of step 1, second pass: v linked with its r-th out-neighbour,
 * exactly (link retries until the trees are one). */
__global__ void link_neighbour(const lg_edge_t *off, const lg_vertex_t *idx, lg_vertex_t *label,
                               int64_t n, int r)
{
    LG_FOR_EACH(v, n)
    {
        const lg_edge_t e = off[v] + r;
        if (e < off[v + 1])
            link(label, (lg_vertex_t)v, idx[e]);
    }
}

/* Round r of step 1, first pass: one synchronous hooking pass in the manner
 * of Shiloach and Vishkin over labels that are all roots: the larger root
 * of v and its r-th neighbour lowered to the smaller with atomicMin, no
 * retries.  Where two arcs hook one root the smaller wins and the other
 * arc is left to link_neighbour, which then finds most arcs already joined;
 * this pass takes the contention out of the round (a root many arcs reach
 * gets one atomic from each arc that still lowers it, not a retry loop from
 * each). */
__global__ void hook_neighbour(const lg_edge_t *off, const lg_vertex_t *idx, lg_vertex_t *label,
                               int64_t n, int r)
{
    LG_FOR_EACH(v, n)
    {
        const lg_edge_t e = off[v] + r;
        if (e < off[v + 1]) {
            const lg_vertex_t a = label[v], b = label[idx[e]];
            const lg_vertex_t hi = a > b ? a : b, lo = a > b ? b : a;
            if (a != b && label[hi] > lo)
                atomicMin(label + hi, lo);
        }
    }
}

/* Every label to its root.  No thread links now, so the walk needs neither
 * volatile loads nor path halving: a parent read late is still an ancestor
 * (labels only ever move down to smaller ids). */
__global__ void compress(lg_vertex_t *label, int64_t n)
{
    LG_FOR_EACH(v, n)
    {
        lg_vertex_t r = label[v], p;
        while ((p = label[r]) != r)
            r = p;
        label[v] = r;
    }
}

/* The labels of SAMPLES vertices drawn by a fixed hash (the result does not
 * depend on which, only the speed). */
__global__ void sample_labels(const lg_vertex_t *label, int64_t n, lg_vertex_t *sample)
{
    LG_FOR_EACH(i, SAMPLES)
    {
        uint64_t h = (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        sample[i] = label[h % (uint64_t)n];
    }
}

/* Step 3's visit of arc u -> v. */
struct link_visit {
    lg_vertex_t *label;
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t, bool valid) const
    {
        if (valid)
            link(label, u, v);
    }
};

/* Step 3: every vertex outside component `skip` (-1: none skipped) links
 * its arcs from the NEIGHBOR_ROUNDS-th on. */
__global__ void __launch_bounds__(CC_BLOCK)
    link_rest(const lg_edge_t *off, const lg_vertex_t *idx, lg_vertex_t *label, int64_t n,
              lg_vertex_t skip)
{
    link_visit visit{label};
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < n;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t v = base + threadIdx.x;
        lg_edge_t begin = 0, end = 0;
        if (v < n && label[v] != skip) {
            begin = off[v] + NEIGHBOR_ROUNDS;
            end = off[v + 1];
            if (begin > end)
                begin = end;
        }
        lg__expand_rows((lg_vertex_t)(v < n ? v : 0), begin, end, idx, visit);
    }
}

__global__ void __launch_bounds__(CC_BLOCK)
    count_roots(const lg_vertex_t *label, int64_t n, unsigned long long *count)
{
    unsigned long long roots = 0;
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < n;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t v = base + threadIdx.x;
        roots += v < n && label[v] == (lg_vertex_t)v;
    }
    roots = lg__block_sum(roots); /* one atomic a block */
    if (threadIdx.x == 0 && roots)
        atomicAdd(count, roots);
}

static int compare_vertex(const void *a, const void *b)
{
    const lg_vertex_t x = *(const lg_vertex_t *)a, y = *(const lg_vertex_t *)b;
    return (x > y) - (x < y);
}

/* The most frequent value of sample[SAMPLES] (sorted in place). */
static lg_vertex_t most_frequent(lg_vertex_t *sample)
{
    qsort(sample, SAMPLES, sizeof *sample, compare_vertex);
    lg_vertex_t best = sample[0];
    int best_run = 0;
    for (int i = 0, run = 0; i < SAMPLES; i++) {
        run = i > 0 && sample[i] == sample[i - 1] ? run + 1 : 1;
        if (run > best_run) {
            best_run = run;
            best = sample[i];
        }
    }
    return best;
}

static lg_status_t components_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                        const void *args)
{
    static const char fn[] = "lg_connected_components";
    const struct lg_components_args *call = (const struct lg_components_args *)args;
    lg_vertex_t *labels = call->labels;
    int64_t *num_components = call->num_components;
    const int64_t n = g->n;
    const unsigned blocks = lg__blocks_for(n, CC_BLOCK);
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_vertex_t *label = NULL, *d_sample = NULL;
    unsigned long long *d_count = NULL, count = 0;
    lg_vertex_t sample[SAMPLES];
    lg_vertex_t skip = -1;
    lg_status_t st = lg__dev_graph_get(s, g, fn, false, &dg, &temporary);
    if (st != LG_OK)
        return st;
    const lg_edge_t *off = dg->out.offsets;
    const lg_vertex_t *idx = dg->out.indices;
    {
        /* the call's arrays in the context's work buffer */
        lg__carve c = {0, NULL};
        const size_t at_label = c.add((size_t)n * sizeof *label);
        const size_t at_sample = c.add(sizeof sample);
        const size_t at_count = c.add(sizeof *d_count);
        LG_TRY_OR_CLEANUP(lg__scratch_reserve(&s->work, c.used), "allocating the labels");
        c.base = (char *)s->work.ptr;
        label = c.take<lg_vertex_t>(at_label);
        d_sample = c.take<lg_vertex_t>(at_sample);
        d_count = c.take<unsigned long long>(at_count);
    }

    init_labels<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n);
    for (int r = 0; r < NEIGHBOR_ROUNDS; r++) {
        hook_neighbour<<<blocks, CC_BLOCK, 0, s->stream>>>(off, idx, label, n, r);
        compress<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n);
        link_neighbour<<<blocks, CC_BLOCK, 0, s->stream>>>(off, idx, label, n, r);
        compress<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n);
    }
    LG_TRY_OR_CLEANUP(lg__launched(), "linking the sampled neighbours");
    if (!dg->directed) {
        sample_labels<<<1, CC_BLOCK, 0, s->stream>>>(label, n, d_sample);
        LG_TRY_OR_CLEANUP(lg__launched(), "sampling the labels");
        LG_TRY_OR_CLEANUP(lg__download(s, sample, d_sample, sizeof sample), "sampling the labels");
        skip = most_frequent(sample);
        /* the host waited for the sampled rounds: a point to report */
        if (!lg_progress_go_on(s->progress, LG_STAGE_COMPONENTS, NEIGHBOR_ROUNDS,
                               NEIGHBOR_ROUNDS + 1, 0.0)) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
    }
    link_rest<<<blocks, CC_BLOCK, 0, s->stream>>>(off, idx, label, n, skip);
    compress<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n);
    LG_TRY_OR_CLEANUP(hipMemsetAsync(d_count, 0, sizeof *d_count, s->stream), "counting");
    count_roots<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n, d_count);
    LG_TRY_OR_CLEANUP(lg__launched(), "linking the remaining arcs");
    LG_TRY_OR_CLEANUP(lg__deliver(s, labels, label, (size_t)n * sizeof *labels),
                      "downloading the labels");
    LG_TRY_OR_CLEANUP(lg__download(s, &count, d_count, sizeof count), "downloading the count");
    if (num_components)
        *num_components = (int64_t)count;
    (void)lg_progress_go_on(s->progress, LG_STAGE_COMPONENTS, NEIGHBOR_ROUNDS + 1,
                            NEIGHBOR_ROUNDS + 1, 0.0);

cleanup:
    (void)hipStreamSynchronize(s->stream);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

lg_status_t lg__gpu_components(const struct lg_exec *x, const struct lg_graph_view *g,
                               const void *args)
{
    return lg__gpu_run(x, g, args, "lg_connected_components", components_on_device);
}

/* The plugin's connected components (plugin.hip). */
LG_GPU_KERNEL_ROW(components, COMPONENTS, false)
