/*
 * components.hip - connected components on the GPU (lg__gpu_components, the
 * plugin's components kernel).
 *
 * Returns what the CPU backend returns (src/kernels/cpu/components.c):
 * label[v] = the smallest vertex id of v's component (weak components on a
 * directed graph), and the number of components; the arrays are equal.
 *
 * Method: Afforest (Sutton, Ben-Nun, Barak, IPDPS'18) over a lock-free
 * union-find, as on the CPU, with the hooking of ECL-CC (Jaiganesh and
 * Burtscher, HPDC'18): the larger of two roots is hooked under the smaller
 * with one atomic compare-and-swap, retried when another thread moved the
 * root first, and finds halve the paths they walk.  A parent is always
 * smaller than its child, so every root is its component's smallest id and
 * the labels come out canonical with no relabelling pass.
 *   1. Link each vertex with its first NEIGHBOR_ROUNDS out-neighbours, one
 *      thread a vertex, compressing (every label to its root) after each
 *      round.
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
 * Memory: the device graph (cached), the labels (4 n bytes), the sample.
 */
#include "expand.h"
#include "gpu.h"

#include <stdlib.h>
#include <string.h>

#define CC_BLOCK 256
#define NEIGHBOR_ROUNDS 2
#define SAMPLES 1024

/* The root of v, pointing each vertex walked at its grandparent (path
 * halving): a write only ever moves a vertex to an ancestor, so racing
 * writes leave valid trees.  Volatile: other threads move the parents. */
__device__ inline lg_vertex_t find_root(volatile lg_vertex_t *parent, lg_vertex_t v)
{
    for (;;) {
        const lg_vertex_t p = parent[v];
        if (p == v)
            return v;
        const lg_vertex_t gp = parent[p];
        if (gp != p)
            parent[v] = gp;
        v = p;
    }
}

__device__ inline void link(lg_vertex_t *parent, lg_vertex_t u, lg_vertex_t v)
{
    for (;;) {
        const lg_vertex_t ru = find_root(parent, u), rv = find_root(parent, v);
        if (ru == rv)
            return;
        const lg_vertex_t hi = ru > rv ? ru : rv, lo = ru > rv ? rv : ru;
        if (atomicCAS(parent + hi, hi, lo) == hi)
            return;
    }
}

__global__ void init_labels(lg_vertex_t *label, int64_t n)
{
    LG_FOR_EACH(v, n)
    label[v] = (lg_vertex_t)v;
}

/* Round r of step 1: v linked with its r-th out-neighbour. */
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

__global__ void compress(lg_vertex_t *label, int64_t n)
{
    LG_FOR_EACH(v, n)
    label[v] = find_root(label, (lg_vertex_t)v);
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
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < n;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t v = base + threadIdx.x;
        const unsigned long long roots =
            lg__wave_sum((unsigned long long)(v < n && label[v] == (lg_vertex_t)v));
        if (lg__lane_id() == 0 && roots)
            atomicAdd(count, roots);
    }
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
                                        lg_vertex_t *labels, int64_t *num_components)
{
    static const char fn[] = "lg_connected_components";
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
    LG_TRY_OR_CLEANUP(lg__device_malloc(&label, (size_t)n * sizeof *label),
                      "allocating the labels");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&d_sample, sizeof sample), "allocating the sample");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&d_count, sizeof *d_count), "allocating the count");

    init_labels<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n);
    for (int r = 0; r < NEIGHBOR_ROUNDS; r++) {
        link_neighbour<<<blocks, CC_BLOCK, 0, s->stream>>>(off, idx, label, n, r);
        compress<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n);
    }
    LG_TRY_OR_CLEANUP(hipGetLastError(), "linking the sampled neighbours");
    if (!dg->directed) {
        sample_labels<<<1, CC_BLOCK, 0, s->stream>>>(label, n, d_sample);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "sampling the labels");
        LG_TRY_OR_CLEANUP(lg__download(s, sample, d_sample, sizeof sample), "sampling the labels");
        skip = most_frequent(sample);
    }
    link_rest<<<blocks, CC_BLOCK, 0, s->stream>>>(off, idx, label, n, skip);
    compress<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n);
    LG_TRY_OR_CLEANUP(hipMemsetAsync(d_count, 0, sizeof *d_count, s->stream), "counting");
    count_roots<<<blocks, CC_BLOCK, 0, s->stream>>>(label, n, d_count);
    LG_TRY_OR_CLEANUP(hipGetLastError(), "linking the remaining arcs");
    LG_TRY_OR_CLEANUP(lg__download(s, labels, label, (size_t)n * sizeof *labels),
                      "downloading the labels");
    LG_TRY_OR_CLEANUP(lg__download(s, &count, d_count, sizeof count), "downloading the count");
    if (num_components)
        *num_components = (int64_t)count;

cleanup:
    (void)hipStreamSynchronize(s->stream);
    (void)lg__device_free(label);
    (void)lg__device_free(d_sample);
    (void)lg__device_free(d_count);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

/* The entry point, on the context's device for the call (lg__device_guard). */
lg_status_t lg__gpu_components(const struct lg_exec *x, const struct lg_graph_view *g,
                               lg_vertex_t *labels, int64_t *num_components)
{
    lg__gpu_state *s = (lg__gpu_state *)x->state;
    lg__device_guard on_device(s->device);
    if (on_device.error() != hipSuccess)
        return lg__gpu_fail(on_device.error(), "lg_connected_components", "selecting the device");
    return lg__gpu_call_end(s, components_on_device(s, g, labels, num_components));
}
