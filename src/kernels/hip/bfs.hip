/*
 * bfs.hip - direction-optimizing breadth-first search on the GPU
 * (lg__gpu_bfs, the plugin's bfs kernel).
 *
 * Returns what the CPU backend returns (src/kernels/cpu/bfs.c states it):
 * dist[v] = hops from the nearest source, -1 when unreached or beyond
 * max_depth; on request a BFS parent of each reached vertex (a source is its
 * own).  Levels are a property of the graph, so dist equals the CPU's
 * exactly; a parent is any in-neighbour one level up.
 *
 * Method: Beamer, Asanovic, Patterson, "Direction-Optimizing Breadth-First
 * Search", SC'12, with the switching rule of the CPU backend and of GAPBS
 * (options direction_alpha and direction_beta):
 *   top-down   the frontier is a queue of vertices; each thread holds one
 *              and the block expands their out-edges load-balanced
 *              (expand.h: Merrill, Garland, Grimshaw, PPoPP'12).  A thread
 *              claims an unvisited v with one compare-and-swap of dist[v]
 *              from -1 to the level, so every vertex is claimed once; the
 *              claimed vertices go to the next queue with one atomic a wave
 *              (lg__wave_atomic_inc), and their out-degrees to the "scout"
 *              count the switching rule reads.
 *   bottom-up  the frontier is a bitmap (one bit a vertex, 32-bit words);
 *              each lane takes an unvisited vertex and scans its in-edges
 *              until one comes from the frontier (early exit).  A wave
 *              covers consecutive vertices, so a ballot gives whole words of
 *              the next bitmap, each written by one lane with no atomics
 *              (and no clearing between levels); the woken vertices also go
 *              to a queue, ready for a return to top-down.
 * Level loop: a level's kernels (two top-down, one bottom-up), then its
 * counters (the next frontier's size and out-degree sum) come back to the
 * host, which applies the switching rule: one small read and wait a level
 * (docs/PERFORMANCE.md gives their share; a level loop kept on the device
 * would save them).  Directed graphs go bottom-up over their in-edges (the
 * host's CSC, uploaded once and kept with the device graph); an undirected
 * graph's in-edges are its out-edges.
 *
 * Top-down rows of BIG_ROW arcs or more (the hubs of skewed graphs) are
 * left by their block to a second kernel in which the whole grid takes each
 * in turn.  A frontier of few vertices with long rows (too few vertices
 * for a thread each to fill the GPU) is expanded over its arcs instead: a
 * scan of its degrees, and a thread an arc (top_down_edges).
 *
 * Memory: the device graph (cached); in the context's work buffer, kept
 * between calls so that a search allocates nothing after the first: dist
 * and parents (4 n bytes each), two queues of n vertices, two bitmaps of n
 * bits, and top_down_edges' degrees and their scan (8 n bytes each).
 */
#include "expand.h"
#include "gpu.h"

#include <string.h>

#define BFS_BLOCK 256

/* What a level's kernel adds up for the host. */
struct bfs_counts {
    unsigned long long size;  /* vertices of the next frontier */
    unsigned long long scout; /* their out-edges */
    unsigned long long big;   /* frontier rows left to top_down_big */
};

/* A top-down row of at least BIG_ROW arcs is left by its block to
 * top_down_big, where the whole grid takes it: a hub of a million arcs
 * would otherwise keep one block busy while the rest of the GPU idles. */
#define BIG_ROW 8192

struct bfs_args {
    int64_t n;
    const lg_edge_t *off; /* out-edges */
    const lg_vertex_t *idx;
    const lg_edge_t *in_off; /* in-edges (bottom-up) */
    const lg_vertex_t *in_idx;
    int32_t *dist;
    lg_vertex_t *parents;     /* NULL unless asked for */
    const lg_vertex_t *queue; /* the frontier (top-down) */
    int64_t size;
    lg_vertex_t *next_queue;
    const uint32_t *front; /* the frontier (bottom-up) */
    uint32_t *next;
    bfs_counts *counts;
    lg_vertex_t *big; /* the rows left to top_down_big */
    /* top_down_edges: where frontier row i's arcs start among the
     * frontier's arcs (an exclusive scan of the degrees), and their count */
    int64_t *row_start;
    int64_t arcs;
    int32_t level;
};

__global__ void fill_unvisited(int32_t *dist, lg_vertex_t *parents, int64_t n)
{
    LG_FOR_EACH(v, n)
    {
        dist[v] = -1;
        if (parents)
            parents[v] = -1;
    }
}

/* Level 0: each source once (a repeated one loses the compare-and-swap). */
__global__ void start(bfs_args a, const lg_vertex_t *sources, int64_t num_sources)
{
    LG_FOR_EACH(i, num_sources)
    {
        const lg_vertex_t s = sources[i];
        if (atomicCAS(&a.dist[s], -1, 0) == -1) {
            if (a.parents)
                a.parents[s] = s;
            a.next_queue[atomicAdd(&a.counts->size, 1ull)] = s;
            atomicAdd(&a.counts->scout, (unsigned long long)(a.off[s + 1] - a.off[s]));
        }
    }
}

/* The top-down visit of arc u -> v (expand.h calls it with the wave
 * converged): claim v, queue the claimed ones, count their out-edges. */
struct claim_visit {
    bfs_args a;
    __device__ void operator()(lg_vertex_t u, lg_vertex_t v, lg_edge_t, bool valid) const
    {
        bool claimed = false;
        if (valid && a.dist[v] < 0 && atomicCAS(&a.dist[v], -1, a.level) == -1) {
            claimed = true;
            if (a.parents)
                a.parents[v] = u;
        }
        const long long slot = lg__wave_atomic_inc(&a.counts->size, claimed);
        unsigned long long degree = 0;
        if (claimed) {
            a.next_queue[slot] = v;
            degree = (unsigned long long)(a.off[v + 1] - a.off[v]);
        }
        degree = lg__wave_sum(degree);
        if (lg__lane_id() == 0 && degree)
            atomicAdd(&a.counts->scout, degree);
    }
};

__global__ void __launch_bounds__(BFS_BLOCK) top_down(bfs_args a)
{
    claim_visit visit{a};
    /* block-stride: every thread of a block makes the same trips */
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < a.size;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = base + threadIdx.x;
        lg_vertex_t u = 0;
        lg_edge_t begin = 0, end = 0;
        if (i < a.size) {
            u = a.queue[i];
            begin = a.off[u];
            end = a.off[u + 1];
        }
        const bool big = end - begin >= BIG_ROW;
        const long long slot = lg__wave_atomic_inc(&a.counts->big, big);
        if (big) {
            a.big[slot] = u;
            begin = end;
        }
        lg__expand_rows(u, begin, end, a.idx, visit);
    }
}

/* The rows top_down left, one at a time, each over the whole grid (the
 * trips of a block's threads are the same, so the visit's wave primitives
 * see converged waves). */
__global__ void __launch_bounds__(BFS_BLOCK) top_down_big(bfs_args a)
{
    claim_visit visit{a};
    const unsigned long long rows = a.counts->big;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (unsigned long long r = 0; r < rows; r++) {
        const lg_vertex_t u = a.big[r];
        const lg_edge_t begin = a.off[u], end = a.off[u + 1];
        for (lg_edge_t e0 = begin + (lg_edge_t)blockIdx.x * blockDim.x; e0 < end; e0 += stride) {
            const lg_edge_t e = e0 + threadIdx.x;
            const bool valid = e < end;
            visit(u, valid ? lg__ldg(a.idx + e) : 0, e, valid);
        }
    }
}

__global__ void __launch_bounds__(BFS_BLOCK) bottom_up(bfs_args a)
{
    const int64_t waves = (int64_t)gridDim.x * (blockDim.x / LG_WAVE_SIZE);
    /* wave-stride: the lanes of a wave take consecutive vertices */
    for (int64_t w = (int64_t)blockIdx.x * (blockDim.x / LG_WAVE_SIZE) + lg__wave_id();
         w * LG_WAVE_SIZE < a.n; w += waves) {
        const int lane = lg__lane_id();
        const int64_t v = w * LG_WAVE_SIZE + lane;
        bool found = false;
        lg_vertex_t parent = -1;
        if (v < a.n && a.dist[v] < 0) {
            const lg_edge_t end = a.in_off[v + 1];
            for (lg_edge_t e = a.in_off[v]; e < end; e++) {
                const lg_vertex_t u = lg__ldg(a.in_idx + e);
                if ((lg__ldg(a.front + (u >> 5)) >> (u & 31)) & 1u) {
                    found = true;
                    parent = u;
                    break;
                }
            }
        }
        const lg__lanemask_t mask = lg__wave_ballot(found);
        if ((lane & 31) == 0 && v < a.n) /* one lane a word of 32 vertices */
            a.next[v >> 5] = (uint32_t)(mask >> lane);
        if (found) {
            a.dist[v] = a.level;
            if (a.parents)
                a.parents[v] = parent;
        }
        const long long slot = lg__wave_atomic_inc(&a.counts->size, found);
        if (found)
            a.next_queue[slot] = (lg_vertex_t)v;
    }
}

/* The degree of each frontier vertex (the scan of top_down_edges). */
__global__ void frontier_degrees(bfs_args a, int64_t *degree)
{
    LG_FOR_EACH(i, a.size)
    {
        const lg_vertex_t u = a.queue[i];
        degree[i] = a.off[u + 1] - a.off[u];
    }
}

/* Top-down over the frontier's arcs rather than its vertices: arc k of the
 * frontier is found by a binary search of row_start (the load-balanced
 * search of Gunrock's advance), so every thread has an arc however few and
 * long the rows are.  Used when the frontier has too few vertices for
 * top_down's thread a vertex to fill the GPU but many arcs. */
__global__ void __launch_bounds__(BFS_BLOCK) top_down_edges(bfs_args a)
{
    claim_visit visit{a};
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k0 = (int64_t)blockIdx.x * blockDim.x; k0 < a.arcs; k0 += stride) {
        const int64_t k = k0 + threadIdx.x;
        const bool valid = k < a.arcs;
        lg_vertex_t u = 0, v = 0;
        lg_edge_t e = 0;
        if (valid) {
            int64_t lo = 0, hi = a.size - 1; /* the last i with row_start[i] <= k */
            while (lo < hi) {
                const int64_t mid = (lo + hi + 1) / 2;
                if (lg__ldg(a.row_start + mid) <= k)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            u = a.queue[lo];
            e = a.off[u] + (k - a.row_start[lo]);
            v = lg__ldg(a.idx + e);
        }
        visit(u, v, e, valid);
    }
}

/* The queue's vertices as bits of a cleared bitmap. */
__global__ void queue_to_bitmap(const lg_vertex_t *queue, int64_t size, uint32_t *bits)
{
    LG_FOR_EACH(i, size)
    {
        const lg_vertex_t u = queue[i];
        atomicOr(bits + (u >> 5), 1u << (u & 31));
    }
}

/* Runs one level's kernels and reads its counters back.  A top-down level
 * whose frontier is known (scout > 0) to hold few vertices, too few for a
 * thread a vertex to fill the GPU (fewer than LG_EDGES_BLOCKS blocks a
 * multiprocessor), but at least a wave's arcs a vertex, goes over its arcs
 * instead (top_down_edges). */
#define LG_EDGES_BLOCKS 2
static hipError_t level(lg__gpu_state *s, bool bottom, bfs_args &a, int64_t scout, int64_t *degree,
                        bfs_counts *host)
{
    hipError_t e = hipMemsetAsync(a.counts, 0, sizeof *a.counts, s->stream);
    if (e != hipSuccess)
        return e;
    const int64_t sms = s->info.multiprocessors;
    if (bottom) {
        bottom_up<<<lg__blocks_for(a.n, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(a);
    } else if (a.size < LG_EDGES_BLOCKS * sms * BFS_BLOCK && scout >= 32 * a.size) {
        frontier_degrees<<<lg__blocks_for(a.size, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(a, degree);
        if ((e = lg__exclusive_sum(&s->scratch, (const int64_t *)degree, a.row_start, a.size,
                                   s->stream)) != hipSuccess)
            return e;
        a.arcs = scout;
        top_down_edges<<<lg__blocks_for(scout, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(a);
    } else {
        top_down<<<lg__blocks_for(a.size, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(a);
        top_down_big<<<lg__blocks_for((int64_t)s->info.multiprocessors * 4 * BFS_BLOCK, BFS_BLOCK),
                       BFS_BLOCK, 0, s->stream>>>(a);
    }
    if ((e = hipGetLastError()) != hipSuccess)
        return e;
    if ((e = hipMemcpyAsync(host, a.counts, sizeof *host, hipMemcpyDeviceToHost, s->stream)) !=
        hipSuccess)
        return e;
    return hipStreamSynchronize(s->stream);
}

static lg_status_t bfs_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                 const lg_vertex_t *sources, int64_t num_sources,
                                 const lg_bfs_options_t *opts, int32_t *dist, lg_vertex_t *parents)
{
    static const char fn[] = "lg_bfs";
    const int64_t n = g->n, words = (n + 31) / 32;
    const int32_t last_level = opts->max_depth < 0 ? INT32_MAX : opts->max_depth;
    const bool may_go_bottom_up = opts->direction_alpha > 0;
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_vertex_t *q[2] = {NULL, NULL}, *d_sources = NULL;
    int64_t *degree = NULL;
    uint32_t *bits[2] = {NULL, NULL};
    bfs_args a;
    memset(&a, 0, sizeof a);
    lg_status_t st = lg__dev_graph_get(s, g, fn, false, &dg, &temporary);
    if (st != LG_OK)
        return st;
    struct lg__dev_csr in = dg->out;
    if (may_go_bottom_up && (st = lg__dev_in_edges(s, g, dg, fn, &in)) != LG_OK)
        goto cleanup;

    a.n = n;
    a.off = dg->out.offsets;
    a.idx = dg->out.indices;
    a.in_off = in.offsets;
    a.in_idx = in.indices;
    {
        /* every array of the call in the context's work buffer */
        lg__carve c = {0, NULL};
        const size_t at_dist = c.add((size_t)n * sizeof *a.dist);
        const size_t at_parents = parents ? c.add((size_t)n * sizeof *a.parents) : 0;
        const size_t at_q0 = c.add((size_t)n * sizeof(lg_vertex_t));
        const size_t at_q1 = c.add((size_t)n * sizeof(lg_vertex_t));
        const size_t at_b0 = c.add((size_t)words * sizeof(uint32_t));
        const size_t at_b1 = c.add((size_t)words * sizeof(uint32_t));
        const size_t at_counts = c.add(sizeof *a.counts);
        const size_t at_big = c.add((size_t)(g->m / BIG_ROW + 1) * sizeof(lg_vertex_t));
        const size_t at_sources = c.add((size_t)num_sources * sizeof *sources);
        const size_t at_degree = c.add((size_t)n * sizeof(int64_t));
        const size_t at_row_start = c.add((size_t)n * sizeof(int64_t));
        LG_TRY_OR_CLEANUP(lg__scratch_reserve(&s->work, c.used), "allocating the search's arrays");
        c.base = (char *)s->work.ptr;
        a.dist = c.take<int32_t>(at_dist);
        a.parents = parents ? c.take<lg_vertex_t>(at_parents) : NULL;
        q[0] = c.take<lg_vertex_t>(at_q0);
        q[1] = c.take<lg_vertex_t>(at_q1);
        bits[0] = c.take<uint32_t>(at_b0);
        bits[1] = c.take<uint32_t>(at_b1);
        a.counts = c.take<bfs_counts>(at_counts);
        a.big = c.take<lg_vertex_t>(at_big);
        d_sources = c.take<lg_vertex_t>(at_sources);
        degree = c.take<int64_t>(at_degree);
        a.row_start = c.take<int64_t>(at_row_start);
    }
    LG_TRY_OR_CLEANUP(lg__upload(s, d_sources, sources, (size_t)num_sources * sizeof *sources),
                      "uploading the sources");

    {
        fill_unvisited<<<lg__blocks_for(n, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(a.dist, a.parents,
                                                                                  n);
        LG_TRY_OR_CLEANUP(hipMemsetAsync(a.counts, 0, sizeof *a.counts, s->stream),
                          "starting the search");
        a.next_queue = q[0];
        start<<<lg__blocks_for(num_sources, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(a, d_sources,
                                                                                   num_sources);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "starting the search");
        bfs_counts c;
        LG_TRY_OR_CLEANUP(hipMemcpyAsync(&c, a.counts, sizeof c, hipMemcpyDeviceToHost, s->stream),
                          "starting the search");
        LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "starting the search");

        int cur = 0; /* q[cur] holds the frontier; in bottom-up, bits[cur] too */
        int64_t size = (int64_t)c.size, scout = (int64_t)c.scout, edges_to_check = g->m;
        int32_t lvl = 1;
        while (size > 0 && lvl <= last_level) {
            if (may_go_bottom_up && scout > edges_to_check / opts->direction_alpha) {
                LG_TRY_OR_CLEANUP(
                    hipMemsetAsync(bits[cur], 0, (size_t)words * sizeof(uint32_t), s->stream),
                    "switching to bottom-up");
                queue_to_bitmap<<<lg__blocks_for(size, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(
                    q[cur], size, bits[cur]);
                int64_t awake = size, old_awake;
                do {
                    old_awake = awake;
                    a.front = bits[cur];
                    a.next = bits[1 - cur];
                    a.next_queue = q[1 - cur];
                    a.level = lvl++;
                    LG_TRY_OR_CLEANUP(level(s, true, a, 0, NULL, &c), "a bottom-up step");
                    awake = (int64_t)c.size;
                    cur = 1 - cur;
                } while (lvl <= last_level && awake > 0 &&
                         (awake >= old_awake || awake > n / opts->direction_beta));
                size = awake;
                scout = 1;
            } else {
                edges_to_check -= scout;
                a.queue = q[cur];
                a.size = size;
                a.next_queue = q[1 - cur];
                a.level = lvl++;
                LG_TRY_OR_CLEANUP(level(s, false, a, scout, degree, &c), "a top-down step");
                size = (int64_t)c.size;
                scout = (int64_t)c.scout;
                cur = 1 - cur;
            }
        }
    }
    LG_TRY_OR_CLEANUP(lg__download(s, dist, a.dist, (size_t)n * sizeof *dist),
                      "downloading the distances");
    if (parents)
        LG_TRY_OR_CLEANUP(lg__download(s, parents, a.parents, (size_t)n * sizeof *parents),
                          "downloading the parents");

cleanup:
    (void)hipStreamSynchronize(s->stream);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

/* The entry point, on the context's device for the call (lg__device_guard). */
lg_status_t lg__gpu_bfs(const struct lg_exec *x, const struct lg_graph_view *g,
                        const lg_vertex_t *sources, int64_t num_sources,
                        const lg_bfs_options_t *opts, int32_t *dist, lg_vertex_t *parents)
{
    lg__gpu_state *s = (lg__gpu_state *)x->state;
    lg__device_guard on_device(s->device);
    if (on_device.error() != hipSuccess)
        return lg__gpu_fail(on_device.error(), "lg_bfs", "selecting the device");
    return lg__gpu_call_end(s, bfs_on_device(s, g, sources, num_sources, opts, dist, parents));
}
