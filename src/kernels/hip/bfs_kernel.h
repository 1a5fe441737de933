/*
 * bfs_kernel.h - the device side of the GPU breadth-first search: the
 * phases (top-down level, bottom-up level, queue to bitmap, degree scan),
 * the switching rule that picks each one, and the search kernel that runs
 * them with a grid-wide barrier between two.  bfs.hip states the method
 * and launches it.
 */
#ifndef LG_BFS_KERNEL_H
#define LG_BFS_KERNEL_H

#include "gpu.h"

#define BFS_BLOCK 256

/* The most blocks a search grid has: a top-down block keeps every block's
 * first arc in shared memory (8 bytes a block). */
#define SEARCH_BLOCKS_MAX 1024

/* A queue of at most SMALL_FRONTIER vertices is scanned by every block
 * itself, in the top-down phase (no scan phase before it). */
#define SMALL_PER_THREAD 4
#define SMALL_FRONTIER (BFS_BLOCK * SMALL_PER_THREAD)

#define TABLE (SMALL_FRONTIER > SEARCH_BLOCKS_MAX ? SMALL_FRONTIER : SEARCH_BLOCKS_MAX)

/* What a phase adds up: the next frontier's size and the out-degree sum of
 * its vertices. */
struct bfs_counts {
    unsigned long long queued, scout;
};

enum bfs_kind {
    PHASE_START,
    PHASE_SCAN, /* the degrees of a large queue, summed a block at a time */
    PHASE_TOP_DOWN,
    PHASE_TO_BITMAP,
    PHASE_BOTTOM_UP,
    PHASE_DONE
};

/* A phase: what it does, on which frontier, and the switching rule's state
 * (edges_to_check and old_awake as in src/kernels/cpu/bfs.c). */
struct bfs_phase {
    int64_t queued, scout; /* the frontier: queue[cur], and its out-degree sum */
    int64_t edges_to_check, old_awake;
    int32_t kind, cur;
    int32_t level; /* the level it labels (START: 0; SCAN, TO_BITMAP, DONE: the last one) */
};

struct bfs_args {
    int64_t n, words;
    const lg_edge_t *off; /* out-edges */
    const lg_vertex_t *idx;
    const lg_edge_t *in_off; /* in-edges (bottom-up) */
    const lg_vertex_t *in_idx;
    int32_t *dist;
    lg_vertex_t *parents; /* NULL unless asked for */
    lg_vertex_t *queue[2];
    uint32_t *bits[2];
    /* SCAN: where each queued vertex's arcs start among its block's share
     * of the queue's arcs, and each block's arcs */
    int64_t *row_start, *block_arcs;
    /* phase p writes counts[p % 3] and reads phase p - 1's, and its block 0
     * zeroes counts[(p + 1) % 3] (read by everyone before phase p - 1's
     * barrier); phase[p & 1] records phase p for phase p + 1 */
    bfs_counts *counts;
    bfs_phase *phase;
    bfs_phase *last; /* the DONE phase, for the host */
    int32_t last_level;
    int alpha, beta;
};

/* The counters and queue a phase writes, and the level it labels. */
struct bfs_out {
    bfs_counts *counts;
    lg_vertex_t *queue;
    int32_t level;
};

/* Puts the vertices that active lanes woke into the next queue (the wave
 * converged) with one atomic, and (when `scout`: the switching rule reads
 * it after a top-down level only) their out-degrees into the scout count. */
__device__ inline void push(const bfs_out &o, lg_vertex_t v, bool active, lg_edge_t degree,
                            bool scout)
{
    const long long slot = lg__wave_atomic_inc(&o.counts->queued, active);
    if (active)
        o.queue[slot] = v;
    if (scout) {
        const unsigned long long sum = lg__wave_sum(active ? (unsigned long long)degree : 0ull);
        if (lg__lane_id() == 0 && sum)
            atomicAdd(&o.counts->scout, sum);
    }
}

__global__ void fill_unvisited(bfs_args a)
{
    LG_FOR_EACH(v, a.n)
    {
        a.dist[v] = -1;
        if (a.parents)
            a.parents[v] = -1;
    }
    LG_FOR_EACH(w, a.words)
    {
        a.bits[0][w] = 0; /* the first frontier's bitmap, if it turns bottom-up at once */
    }
    if (blockIdx.x == 0 && threadIdx.x < 3)
        a.counts[threadIdx.x] = bfs_counts{0, 0};
}

/* Phase 0: each source once (a repeated one loses the compare-and-swap). */
__global__ void start(bfs_args a, const lg_vertex_t *sources, int64_t num_sources)
{
    const bfs_out o{a.counts, a.queue[0], 0};
    /* block-stride: the waves stay converged for push */
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < num_sources;
         base += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = base + threadIdx.x;
        bool claimed = false;
        lg_vertex_t v = 0;
        if (i < num_sources) {
            v = sources[i];
            if (atomicCAS(&a.dist[v], -1, 0) == -1) {
                claimed = true;
                if (a.parents)
                    a.parents[v] = v;
            }
        }
        push(o, v, claimed, claimed ? a.off[v + 1] - a.off[v] : 0, true);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        bfs_phase p = bfs_phase();
        p.kind = PHASE_START;
        p.edges_to_check = a.off[a.n];
        a.phase[0] = p;
    }
}

/* What phase p does, from phase p - 1 and its counters: the switching rule
 * of src/kernels/cpu/bfs.c, a phase at a time. */
__device__ inline bfs_phase next_phase(const bfs_args &a, const bfs_phase &prev,
                                       const bfs_counts &c)
{
    bfs_phase s = prev;
    if (prev.kind == PHASE_TO_BITMAP || prev.kind == PHASE_SCAN) { /* the same frontier */
        s.kind = prev.kind == PHASE_SCAN ? PHASE_TOP_DOWN : PHASE_BOTTOM_UP;
        s.level = prev.level + 1;
        return s;
    }
    /* after START, TOP_DOWN or BOTTOM_UP: the frontier it found */
    s.queued = (int64_t)c.queued;
    s.scout = (int64_t)c.scout;
    s.cur = prev.kind == PHASE_START ? 0 : 1 - prev.cur;
    if (s.queued == 0 || prev.level >= a.last_level) {
        s.kind = PHASE_DONE;
        return s;
    }
    if (prev.kind == PHASE_BOTTOM_UP) {
        if (s.queued >= prev.old_awake || s.queued > a.n / a.beta) {
            s.kind = PHASE_BOTTOM_UP;
            s.old_awake = s.queued;
            s.level = prev.level + 1;
            return s;
        }
        s.scout = 1; /* back to top-down, unless the rule turns at once */
    }
    if (a.alpha > 0 && s.scout > s.edges_to_check / a.alpha) {
        s.kind = PHASE_TO_BITMAP;
        s.old_awake = s.queued;
        return s;
    }
    s.edges_to_check -= s.scout;
    if (s.queued <= SMALL_FRONTIER) {
        s.kind = PHASE_TOP_DOWN;
        s.level = prev.level + 1;
    } else {
        s.kind = PHASE_SCAN;
    }
    return s;
}

/* The top-down visit of arc u -> v (called with the wave converged): claim
 * v, push the claimed ones. */
__device__ inline void visit(const bfs_args &a, const bfs_out &o, lg_vertex_t u, lg_vertex_t v,
                             bool valid)
{
    bool claimed = false;
    if (valid && a.dist[v] < 0 && atomicCAS(&a.dist[v], -1, o.level) == -1) {
        claimed = true;
        if (a.parents)
            a.parents[v] = u;
    }
    push(o, v, claimed, claimed ? a.off[v + 1] - a.off[v] : 0, true);
}

/* The last i in [lo, hi) with start[i] <= k (start non-decreasing,
 * start[lo] <= k): the row holding arc k, past rows without arcs. */
__device__ inline int64_t row_of(const int64_t *start, int64_t lo, int64_t hi, int64_t k)
{
    hi--;
    while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        if (start[mid] <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Block b's share of a queue of `rows` vertices: [rows * b / B, rows * (b + 1) / B). */
__device__ inline int64_t share(int64_t rows, int64_t b)
{
    return rows * b / gridDim.x;
}

/* SCAN: the degrees of the block's share of the queue, summed in order:
 * row_start[i] is where vertex i's arcs start among the share's, and
 * block_arcs[b] the share's total. */
__device__ void scan(const bfs_args &a, const bfs_phase &s)
{
    const lg_vertex_t *queue = a.queue[s.cur];
    const int64_t hi = share(s.queued, blockIdx.x + 1);
    int64_t sum = 0;
    for (int64_t base = share(s.queued, blockIdx.x); base < hi; base += blockDim.x) {
        const int64_t i = base + threadIdx.x;
        int64_t degree = 0;
        if (i < hi) {
            const lg_vertex_t u = queue[i];
            degree = a.off[u + 1] - a.off[u];
        }
        int64_t total;
        const int64_t before = lg__block_exclusive_sum(degree, &total);
        if (i < hi)
            a.row_start[i] = sum + before;
        sum += total;
    }
    if (threadIdx.x == 0)
        a.block_arcs[blockIdx.x] = sum;
}

/* TOP_DOWN: every arc of the frontier, an equal share to each block and a
 * thread an arc, however few and long or many and short its rows are (the
 * load-balanced search of Gunrock's advance; Merrill, Garland, Grimshaw,
 * PPoPP'12, for the scan-based gather): arc k's row is found by binary
 * search, first among the blocks' shares (table: their first arcs), then
 * among the rows of that share (row_start).  A queue of at most
 * SMALL_FRONTIER vertices needs no scan phase: every block scans it itself
 * and table holds each vertex's first arc. */
__device__ void top_down(const bfs_args &a, const bfs_phase &s, const bfs_out &o)
{
    __shared__ int64_t table[TABLE + 1];
    const lg_vertex_t *queue = a.queue[s.cur];
    const bool small = s.queued <= SMALL_FRONTIER;
    /* table[j]: where entry j's arcs start (a block's share, or a vertex) */
    const int64_t entries = small ? s.queued : (int64_t)gridDim.x;
    const int64_t first = (int64_t)threadIdx.x * SMALL_PER_THREAD;
    int64_t mine = 0; /* this thread's entries' arcs, read twice rather than kept */
    for (int64_t j = first; j < first + SMALL_PER_THREAD && j < entries; j++)
        mine += small ? a.off[queue[j] + 1] - a.off[queue[j]] : a.block_arcs[j];
    int64_t arcs;
    int64_t at = lg__block_exclusive_sum(mine, &arcs);
    for (int64_t j = first; j < first + SMALL_PER_THREAD && j < entries; j++) {
        table[j] = at;
        at += small ? a.off[queue[j] + 1] - a.off[queue[j]] : a.block_arcs[j];
    }
    /* the bitmap of the frontier this level finds, cleared in case the
     * search turns bottom-up after it */
    if (a.alpha > 0) {
        LG_FOR_EACH(w, a.words)
        {
            a.bits[1 - s.cur][w] = 0;
        }
    }
    __syncthreads();
    const int64_t hi = arcs * (blockIdx.x + 1) / gridDim.x;
    for (int64_t k0 = arcs * blockIdx.x / gridDim.x; k0 < hi; k0 += blockDim.x) {
        const int64_t k = k0 + threadIdx.x;
        const bool valid = k < hi;
        lg_vertex_t u = 0, v = 0;
        if (valid) {
            const int64_t j = row_of(table, 0, entries, k);
            int64_t i = j, offset = k - table[j];
            if (!small) {
                i = row_of(a.row_start, share(s.queued, j), share(s.queued, j + 1), offset);
                offset -= a.row_start[i];
            }
            u = queue[i];
            v = lg__ldg(a.idx + a.off[u] + offset);
        }
        visit(a, o, u, v, valid);
    }
    __syncthreads(); /* table is rewritten by the next top-down level */
}

/* The frontier's queue as bits of its bitmap (cleared by the top-down level
 * that found it, or written whole by a bottom-up one). */
__device__ void to_bitmap(const bfs_args &a, const bfs_phase &s)
{
    uint32_t *bits = a.bits[s.cur];
    LG_FOR_EACH(i, s.queued)
    {
        const lg_vertex_t u = a.queue[s.cur][i];
        atomicOr(bits + (u >> 5), 1u << (u & 31));
    }
}

/* Vertices a bottom-up wave takes at a time, LG_WAVE_SIZE times this (a
 * counter handing the chunks out measured the same as the fixed order). */
#define BOTTOM_UP_CHUNK 8
/* In-arcs a bottom-up lane reads at once after the first */
#define BOTTOM_UP_BATCH 4

__device__ void bottom_up(const bfs_args &a, const bfs_phase &s, const bfs_out &o)
{
    /* written earlier in this kernel: plain loads, not lg__ldg */
    const uint32_t *front = a.bits[s.cur];
    uint32_t *next = a.bits[1 - s.cur];
    const int64_t per_chunk = (int64_t)LG_WAVE_SIZE * BOTTOM_UP_CHUNK;
    const int64_t chunks = (a.n + per_chunk - 1) / per_chunk;
    const int lane = lg__lane_id();
    /* wave-stride over chunks: chunk c to wave c mod the grid's waves */
    const int64_t waves = (int64_t)gridDim.x * (blockDim.x / LG_WAVE_SIZE);
    for (int64_t c = (int64_t)blockIdx.x * (blockDim.x / LG_WAVE_SIZE) + lg__wave_id(); c < chunks;
         c += waves) {
        /* the lanes of a wave take consecutive vertices */
        const int64_t end = (c + 1) * per_chunk;
#pragma unroll 1
        for (int64_t v = c * per_chunk + lane; v < end && v - lane < a.n; v += LG_WAVE_SIZE) {
            bool found = false;
            lg_vertex_t parent = -1;
            if (v < a.n && a.dist[v] < 0) {
                lg_edge_t e = a.in_off[v];
                const lg_edge_t stop = a.in_off[v + 1];
                /* the first arc alone (where the frontier is large most
                 * vertices find it there), then BOTTOM_UP_BATCH arcs at a
                 * time, their loads in flight together */
                if (e < stop) {
                    const lg_vertex_t u = lg__ldg(a.in_idx + e++);
                    if ((front[u >> 5] >> (u & 31)) & 1u) {
                        found = true;
                        parent = u;
                    }
                }
                while (!found && e < stop) {
                    lg_vertex_t u[BOTTOM_UP_BATCH];
                    uint32_t word[BOTTOM_UP_BATCH];
#pragma unroll
                    for (int j = 0; j < BOTTOM_UP_BATCH; j++)
                        u[j] = e + j < stop ? lg__ldg(a.in_idx + e + j) : -1;
#pragma unroll
                    for (int j = 0; j < BOTTOM_UP_BATCH; j++)
                        word[j] = u[j] >= 0 ? front[u[j] >> 5] : 0u;
#pragma unroll
                    for (int j = 0; j < BOTTOM_UP_BATCH; j++)
                        if (!found && u[j] >= 0 && ((word[j] >> (u[j] & 31)) & 1u)) {
                            found = true;
                            parent = u[j];
                        }
                    e += BOTTOM_UP_BATCH;
                }
            }
            const lg__lanemask_t mask = lg__wave_ballot(found);
            if ((lane & 31) == 0 && v < a.n) /* one lane a word of 32 vertices */
                next[v >> 5] = (uint32_t)(mask >> lane);
            if (found) {
                a.dist[v] = o.level;
                if (a.parents)
                    a.parents[v] = parent;
            }
            push(o, (lg_vertex_t)v, found, 0, false);
        }
    }
}

/* Phases first..last of the search (phase 0 is start), a grid-wide barrier
 * between two; returns early once the search is done.  Launched
 * cooperatively for all of them, or a launch a phase (first == last); a
 * grid of at most SEARCH_BLOCKS_MAX blocks, the same for every phase. */
/* At least 6 blocks of 256 resident a multiprocessor on NVIDIA (40
 * registers a thread at most): without the bound the compiler takes 124 and
 * the bottom-up phases, bound by memory latency, lose most of their waves
 * (HIP's second bound means something else: AMD takes the first alone). */
#define BFS_MIN_BLOCKS 6
#if defined(LG_GPU_NVIDIA)
#define BFS_BOUNDS __launch_bounds__(BFS_BLOCK, BFS_MIN_BLOCKS)
#else
#define BFS_BOUNDS __launch_bounds__(BFS_BLOCK)
#endif
__global__ void BFS_BOUNDS search(bfs_args a, int first, int last)
{
    __shared__ bfs_phase shared_phase;
    for (int p = first; p <= last; p++) {
        if (threadIdx.x == 0) {
            const bfs_phase s = next_phase(a, a.phase[(p - 1) & 1], a.counts[(p - 1) % 3]);
            shared_phase = s;
            if (blockIdx.x == 0) {
                a.phase[p & 1] = s;
                a.counts[(p + 1) % 3] = bfs_counts{0, 0};
                if (s.kind == PHASE_DONE)
                    *a.last = s;
            }
        }
        __syncthreads();
        const bfs_phase s = shared_phase;
        if (s.kind == PHASE_DONE)
            return; /* every block decides the same */
        const bfs_out o{a.counts + p % 3, a.queue[1 - s.cur], s.level};
        if (s.kind == PHASE_SCAN)
            scan(a, s);
        else if (s.kind == PHASE_TOP_DOWN)
            top_down(a, s, o);
        else if (s.kind == PHASE_TO_BITMAP)
            to_bitmap(a, s);
        else
            bottom_up(a, s, o);
        if (p < last)
            lg__grid_sync(); /* also orders shared_phase's next write after this read */
    }
}

#endif
