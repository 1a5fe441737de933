/*
 * scc.hip - strongly connected components on the GPU (lg__gpu_scc, the
 * plugin's scc kernel).
 *
 * Returns what the CPU backend returns (src/kernels/cpu/scc.c): label[v] =
 * the smallest vertex id of v's component, and their number; the arrays are
 * equal, since a component's smallest id does not depend on how it was
 * found.
 *
 * Method: Multistep (Slota, Rajamanickam, Madduri, IPDPS'14), as on the CPU,
 * with the parallel steps on the device:
 *   1. trimming passes, a thread a vertex: one with no in- or no out-arc
 *      from a vertex left (self-loops aside) is a component of its own;
 *      passes repeat while they find some, at most TRIM_PASSES;
 *   2. forward-backward from the vertex of the largest product of in- and
 *      out-degree (an atomicMax on (product, id)): two breadth-first
 *      searches over the vertices left, each level's rows load-balanced over
 *      the block (expand.h), reached vertices appended with one atomic a
 *      wave; the intersection is labelled with its smallest id;
 *   3. coloring rounds while more than SERIAL_LIMIT vertices are left: the
 *      smallest id reaching each vertex pushed along out-arcs (atomicMin)
 *      until none changes, then from every vertex that keeps its own id a
 *      backward search within its color; a round whose coloring takes more
 *      than COLOR_ITERATIONS passes is abandoned (a long chain of
 *      components), as are rounds after COLOR_ROUNDS;
 *   4. the rest by Tarjan's algorithm on the host (tarjan.h, over the host
 *      graph), the labels downloaded once and sent back.
 *
 * Memory: the device graph and its in-edges (cached); in the context's work
 * buffer labels, marks, colors and two queues (4 n bytes each).
 */
#include "expand.h"
#include "gpu.h"
#include "tarjan.h"

#include <string.h>

#define SCC_BLOCK 256
#define TRIM_PASSES 8
#define SERIAL_LIMIT 65536
#define COLOR_ROUNDS 8
#define COLOR_ITERATIONS 256

/* The kernels and their host side are this file's own (kernel names are
 * otherwise global across the plugin's sources). */
namespace {

struct scc_graph {
    const lg_edge_t *off, *in_off;
    const lg_vertex_t *idx, *in_idx;
    lg_vertex_t *label;
    int *mark;
    lg_vertex_t *color;
    int64_t n;
};

__global__ void init(scc_graph a)
{
    LG_FOR_EACH(v, a.n)
    a.label[v] = -1;
}

/* Whether v has an arc in [b, e) to a vertex left other than itself. */
__device__ inline bool has_live_arc(const lg_vertex_t *idx, lg_edge_t b, lg_edge_t e,
                                    const lg_vertex_t *label, int64_t v)
{
    for (; b < e; b++)
        if (idx[b] != v && label[idx[b]] < 0)
            return true;
    return false;
}

__global__ void trim_pass(scc_graph a, unsigned long long *trimmed)
{
    unsigned long long count = 0;
    LG_FOR_EACH(v, a.n)
    {
        if (a.label[v] >= 0)
            continue;
        if (!has_live_arc(a.idx, a.off[v], a.off[v + 1], a.label, v) ||
            !has_live_arc(a.in_idx, a.in_off[v], a.in_off[v + 1], a.label, v)) {
            a.label[v] = (lg_vertex_t)v;
            count++;
        }
    }
    if (count)
        atomicAdd(trimmed, count);
}

/* The pivot: the largest (in-degree * out-degree, id) among the vertices left. */
__global__ void pick_pivot(scc_graph a, unsigned long long *best)
{
    LG_FOR_EACH(v, a.n)
    {
        if (a.label[v] >= 0)
            continue;
        const unsigned long long p = (unsigned long long)(a.off[v + 1] - a.off[v]) *
                                     (unsigned long long)(a.in_off[v + 1] - a.in_off[v]);
        const unsigned long long key = (p < 0xFFFFFFFFull ? p : 0xFFFFFFFFull) << 32 |
                                       (unsigned long long)(uint32_t)v;
        atomicMax(best, key);
    }
}

/* One level of a search over the vertices left (within u's color when
 * colored): each unreached v gets `bit`, once. */
struct reach_visit {
    const scc_graph &a;
    int bit;
    bool colored;
    lg_vertex_t *next;
    unsigned long long *count;
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t, bool valid) const
    {
        bool reached = false;
        if (valid && a.label[v] < 0 && (!colored || a.color[v] == a.color[u]) &&
            !(a.mark[v] & bit))
            reached = !(atomicOr(a.mark + v, bit) & bit);
        const long long at = lg__wave_atomic_inc(count, reached);
        if (reached)
            next[at] = v;
    }
};

__global__ void __launch_bounds__(SCC_BLOCK)
    reach_level(scc_graph a, bool backward, int bit, bool colored, const lg_vertex_t *level,
                int64_t q, lg_vertex_t *next, unsigned long long *count)
{
    reach_visit visit{a, bit, colored, next, count};
    const lg_edge_t *off = backward ? a.in_off : a.off;
    const lg_vertex_t *idx = backward ? a.in_idx : a.idx;
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < q;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = base + threadIdx.x;
        lg_vertex_t u = 0;
        lg_edge_t begin = 0, end = 0;
        if (i < q) {
            u = level[i];
            begin = off[u];
            end = off[u + 1];
        }
        lg__expand_rows(u, begin, end, idx, visit);
    }
}

__global__ void clear_marks(scc_graph a)
{
    LG_FOR_EACH(v, a.n)
    a.mark[v] = 0;
}

__global__ void smallest_marked(scc_graph a, int want, unsigned long long *smallest)
{
    LG_FOR_EACH(v, a.n)
    if (a.label[v] < 0 && a.mark[v] == want)
        atomicMin(smallest, (unsigned long long)v);
}

/* Labels the vertices left whose mark has `bit`: `as` (>= 0), or their color. */
__global__ void label_marked(scc_graph a, int bit, lg_vertex_t as, unsigned long long *left)
{
    unsigned long long count = 0;
    LG_FOR_EACH(v, a.n)
    {
        if (a.label[v] >= 0)
            continue;
        if ((a.mark[v] & bit) == bit)
            a.label[v] = as >= 0 ? as : a.color[v];
        else
            count++;
    }
    if (count)
        atomicAdd(left, count);
}

__global__ void color_init(scc_graph a)
{
    LG_FOR_EACH(v, a.n)
    a.color[v] = (lg_vertex_t)v;
}

/* One coloring pass: each vertex left pushes its color along its out-arcs. */
__global__ void color_pass(scc_graph a, unsigned long long *changed)
{
    unsigned long long count = 0;
    LG_FOR_EACH(u, a.n)
    {
        if (a.label[u] >= 0)
            continue;
        const lg_vertex_t c = a.color[u];
        for (lg_edge_t e = a.off[u]; e < a.off[u + 1]; e++) {
            const lg_vertex_t v = a.idx[e];
            if (a.label[v] < 0 && c < a.color[v] && c < atomicMin(a.color + v, c))
                count++;
        }
    }
    if (count)
        atomicAdd(changed, count);
}

/* The roots of the coloring (a vertex left that keeps its own id), marked
 * and queued. */
__global__ void color_roots(scc_graph a, lg_vertex_t *queue, unsigned long long *count)
{
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < a.n;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t v = base + threadIdx.x;
        const bool root = v < a.n && a.label[v] < 0 && a.color[v] == v;
        if (root)
            a.mark[v] = 2;
        const long long at = lg__wave_atomic_inc(count, root);
        if (root)
            queue[at] = (lg_vertex_t)v;
    }
}

__global__ void count_roots(const lg_vertex_t *label, int64_t n, unsigned long long *count)
{
    unsigned long long roots = 0;
    LG_FOR_EACH(v, n)
    roots += label[v] == (lg_vertex_t)v;
    if (roots)
        atomicAdd(count, roots);
}

/* The host side: a counter the device fills, read back. */
struct counter {
    lg__gpu_state *s;
    unsigned long long *d;
    hipError_t zero(unsigned long long value = 0)
    {
        return hipMemcpyAsync(d, &value, sizeof value, hipMemcpyHostToDevice, s->stream);
    }
    hipError_t read(unsigned long long *h) { return lg__download(s, h, d, sizeof *h); }
};

static lg_status_t scc_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                 const void *args)
{
    static const char fn[] = "lg_strongly_connected_components";
    const struct lg_components_args *call = (const struct lg_components_args *)args;
    const int64_t n = g->n;
    const unsigned blocks = lg__blocks_for(n, SCC_BLOCK);
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_vertex_t *queue[2] = {NULL, NULL};
    unsigned long long *d_counter = NULL, h = 0, left = 0;
    void *host = NULL;
    scc_graph a;
    memset(&a, 0, sizeof a);
    struct lg__dev_csr in;
    lg_status_t st = lg__dev_graph_get(s, g, fn, false, &dg, &temporary);
    if (st != LG_OK)
        return st;
    if ((st = lg__dev_in_edges(s, g, dg, fn, &in)) != LG_OK)
        goto cleanup;
    a.n = n;
    a.off = dg->out.offsets;
    a.idx = dg->out.indices;
    a.in_off = in.offsets;
    a.in_idx = in.indices;
    {
        lg__carve c = {0, NULL};
        const size_t at_label = c.add((size_t)n * sizeof *a.label);
        const size_t at_mark = c.add((size_t)n * sizeof *a.mark);
        const size_t at_color = c.add((size_t)n * sizeof *a.color);
        const size_t at_q0 = c.add((size_t)n * sizeof(lg_vertex_t));
        const size_t at_q1 = c.add((size_t)n * sizeof(lg_vertex_t));
        const size_t at_counter = c.add(sizeof *d_counter);
        LG_TRY_OR_CLEANUP(lg__scratch_reserve(&s->work, c.used), "allocating the labels");
        c.base = (char *)s->work.ptr;
        a.label = c.take<lg_vertex_t>(at_label);
        a.mark = c.take<int>(at_mark);
        a.color = c.take<lg_vertex_t>(at_color);
        queue[0] = c.take<lg_vertex_t>(at_q0);
        queue[1] = c.take<lg_vertex_t>(at_q1);
        d_counter = c.take<unsigned long long>(at_counter);
    }
    {
        counter k{s, d_counter};
        init<<<blocks, SCC_BLOCK, 0, s->stream>>>(a);
        /* 1. trimming */
        for (int pass = 0; pass < TRIM_PASSES; pass++) {
            LG_TRY_OR_CLEANUP(k.zero(), "trimming");
            trim_pass<<<blocks, SCC_BLOCK, 0, s->stream>>>(a, d_counter);
            LG_TRY_OR_CLEANUP(lg__launched(), "trimming");
            LG_TRY_OR_CLEANUP(k.read(&h), "trimming");
            if (h == 0)
                break;
        }
        /* 2. forward-backward from the pivot */
        LG_TRY_OR_CLEANUP(k.zero(), "choosing the pivot");
        pick_pivot<<<blocks, SCC_BLOCK, 0, s->stream>>>(a, d_counter);
        LG_TRY_OR_CLEANUP(lg__launched(), "choosing the pivot");
        LG_TRY_OR_CLEANUP(k.read(&h), "choosing the pivot");
        left = 1; /* unknown until counted; 0 only when nothing is left */
        if (h) {
            const lg_vertex_t pivot = (lg_vertex_t)(h & 0xFFFFFFFFull);
            const int marked = 3;
            clear_marks<<<blocks, SCC_BLOCK, 0, s->stream>>>(a);
            LG_TRY_OR_CLEANUP(hipMemcpyAsync(a.mark + pivot, &marked, sizeof marked,
                                             hipMemcpyHostToDevice, s->stream),
                              "searching from the pivot");
            for (int dir = 0; dir < 2; dir++) {
                LG_TRY_OR_CLEANUP(lg__upload(s, queue[0], &pivot, sizeof pivot),
                                  "searching from the pivot");
                lg_vertex_t *level = queue[0], *next = queue[1];
                for (int64_t q = 1; q > 0;) {
                    LG_TRY_OR_CLEANUP(k.zero(), "searching from the pivot");
                    reach_level<<<lg__blocks_for(q, SCC_BLOCK), SCC_BLOCK, 0, s->stream>>>(
                        a, dir == 1, 1 << dir, false, level, q, next, d_counter);
                    LG_TRY_OR_CLEANUP(lg__launched(), "searching from the pivot");
                    LG_TRY_OR_CLEANUP(k.read(&h), "searching from the pivot");
                    q = (int64_t)h;
                    lg_vertex_t *t = level;
                    level = next, next = t;
                }
            }
            LG_TRY_OR_CLEANUP(k.zero(~0ull), "labelling the pivot's component");
            smallest_marked<<<blocks, SCC_BLOCK, 0, s->stream>>>(a, 3, d_counter);
            LG_TRY_OR_CLEANUP(k.read(&h), "labelling the pivot's component");
            LG_TRY_OR_CLEANUP(k.zero(), "labelling the pivot's component");
            label_marked<<<blocks, SCC_BLOCK, 0, s->stream>>>(a, 3, (lg_vertex_t)h, d_counter);
            LG_TRY_OR_CLEANUP(lg__launched(), "labelling the pivot's component");
            LG_TRY_OR_CLEANUP(k.read(&left), "labelling the pivot's component");
        } else {
            left = 0;
        }
        if (!lg_progress_go_on(s->progress, LG_STAGE_SCC, 2, -1, 0.0)) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
        /* 3. coloring rounds */
        for (int round = 0; left > SERIAL_LIMIT && round < COLOR_ROUNDS; round++) {
            color_init<<<blocks, SCC_BLOCK, 0, s->stream>>>(a);
            int it = 0;
            for (h = 1; h && it < COLOR_ITERATIONS; it++) {
                LG_TRY_OR_CLEANUP(k.zero(), "coloring");
                color_pass<<<blocks, SCC_BLOCK, 0, s->stream>>>(a, d_counter);
                LG_TRY_OR_CLEANUP(lg__launched(), "coloring");
                LG_TRY_OR_CLEANUP(k.read(&h), "coloring");
            }
            if (h)
                break; /* not converged: a long chain of components, Tarjan's */
            clear_marks<<<blocks, SCC_BLOCK, 0, s->stream>>>(a);
            LG_TRY_OR_CLEANUP(k.zero(), "coloring");
            color_roots<<<blocks, SCC_BLOCK, 0, s->stream>>>(a, queue[0], d_counter);
            LG_TRY_OR_CLEANUP(lg__launched(), "coloring");
            LG_TRY_OR_CLEANUP(k.read(&h), "coloring");
            lg_vertex_t *level = queue[0], *next = queue[1];
            for (int64_t q = (int64_t)h; q > 0;) {
                LG_TRY_OR_CLEANUP(k.zero(), "coloring");
                reach_level<<<lg__blocks_for(q, SCC_BLOCK), SCC_BLOCK, 0, s->stream>>>(
                    a, true, 2, true, level, q, next, d_counter);
                LG_TRY_OR_CLEANUP(lg__launched(), "coloring");
                LG_TRY_OR_CLEANUP(k.read(&h), "coloring");
                q = (int64_t)h;
                lg_vertex_t *t = level;
                level = next, next = t;
            }
            LG_TRY_OR_CLEANUP(k.zero(), "coloring");
            label_marked<<<blocks, SCC_BLOCK, 0, s->stream>>>(a, 2, -1, d_counter);
            LG_TRY_OR_CLEANUP(lg__launched(), "coloring");
            LG_TRY_OR_CLEANUP(k.read(&left), "coloring");
            if (!lg_progress_go_on(s->progress, LG_STAGE_SCC, 3 + round, -1, 0.0)) {
                st = LG_ERR_CANCELLED;
                goto cleanup;
            }
        }
        /* 4. the rest on the host */
        if (left > 0) {
            const size_t bytes = (size_t)n * (2 * sizeof(lg_edge_t) + 2 * sizeof(lg_vertex_t) +
                                              sizeof(lg_edge_t) + 1);
            host = lg__gpu_host->malloc(bytes);
            if (!host) {
                st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY,
                                         "%s: out of memory for Tarjan's arrays on the host", fn);
                goto cleanup;
            }
            lg_vertex_t *labels = call->labels;
            lg_vertex_t *host_labels = s->device_outputs ? (lg_vertex_t *)NULL : labels;
            lg_vertex_t *tmp = NULL;
            if (!host_labels) { /* device outputs: the labels pass through the host */
                tmp = (lg_vertex_t *)lg__gpu_host->malloc((size_t)n * sizeof *tmp);
                if (!tmp) {
                    st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY,
                                             "%s: out of memory for the labels on the host", fn);
                    goto cleanup;
                }
                host_labels = tmp;
            }
            hipError_t e = lg__download(s, host_labels, a.label, (size_t)n * sizeof *host_labels);
            if (e == hipSuccess) {
                char *p = (char *)host;
                lg_edge_t *index = (lg_edge_t *)(void *)p, *low = index + n, *arc = low + n;
                lg_vertex_t *stack = (lg_vertex_t *)(void *)(arc + n), *calls = stack + n;
                const struct lg_tarjan t = {n,     g->out.offsets, g->out.indices, host_labels,
                                            index, low,            stack,          calls,
                                            arc,   (unsigned char *)(calls + n)};
                lg_tarjan_rest(&t);
                e = lg__upload(s, a.label, host_labels, (size_t)n * sizeof *host_labels);
                if (e == hipSuccess)
                    e = hipStreamSynchronize(s->stream);
            }
            lg__gpu_host->free(tmp);
            LG_TRY_OR_CLEANUP(e, "labelling the rest (Tarjan's algorithm)");
        }
        if (call->num_components) {
            LG_TRY_OR_CLEANUP(k.zero(), "counting");
            count_roots<<<blocks, SCC_BLOCK, 0, s->stream>>>(a.label, n, d_counter);
            LG_TRY_OR_CLEANUP(lg__launched(), "counting");
            LG_TRY_OR_CLEANUP(k.read(&h), "counting");
            *call->num_components = (int64_t)h;
        }
        LG_TRY_OR_CLEANUP(lg__deliver(s, call->labels, a.label, (size_t)n * sizeof *a.label),
                          "downloading the labels");
    }

cleanup:
    (void)hipStreamSynchronize(s->stream);
    if (host)
        lg__gpu_host->free(host);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

} // namespace

lg_status_t lg__gpu_scc(const struct lg_exec *x, const struct lg_graph_view *g, const void *args)
{
    return lg__gpu_run(x, g, args, "lg_strongly_connected_components", scc_on_device);
}

/* The plugin's SCC (plugin.hip); it reads the in-edges. */
LG_GPU_KERNEL_ROW(scc, SCC, true)
