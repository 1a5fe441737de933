/*
 * bfs.hip - direction-optimizing breadth-first search on the GPU
 * (lg__gpu_bfs, the plugin's bfs kernel).  This file reserves the search's
 * arrays and launches it; its phases and kernels are in bfs_kernel.h.
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
 *   top-down   the frontier is a queue of vertices, and every arc leaving
 *              it gets a thread: the arcs are cut into equal shares, one a
 *              block, and each thread finds its arc's row by binary search
 *              over the prefix sums of the queue's degrees (the
 *              load-balanced search of Gunrock's advance; the scan-based
 *              gather of Merrill, Garland, Grimshaw, PPoPP'12), so few long
 *              rows and many short ones spread alike.  A thread claims an
 *              unvisited v with one compare-and-swap of dist[v] from -1 to
 *              the level, so every vertex is claimed once; the claimed
 *              vertices go to the next queue with one atomic a wave
 *              (lg__wave_atomic_inc), and their out-degrees to the "scout"
 *              count the switching rule reads.
 *   bottom-up  the frontier is a bitmap (one bit a vertex, 32-bit words);
 *              each lane takes an unvisited vertex and scans its in-edges
 *              until one comes from the frontier (early exit).  A wave
 *              covers consecutive vertices, so a ballot gives whole words of
 *              the next bitmap, each written by one lane with no atomics
 *              (and no clearing between levels); the woken vertices also go
 *              to the queue, ready for a return to top-down.  A lane reads
 *              an in-arc, then four at a time, their loads in flight
 *              together.
 *
 * Level loop on the device: one kernel (search) runs every level of the
 * search, phase after phase, with a grid-wide barrier between phases
 * (cooperative launch, so every block is resident; lg__grid_sync).  A phase
 * is a top-down level, a bottom-up level, the queue's conversion to a
 * bitmap when the search turns bottom-up, or the scan of a large queue's
 * degrees before its top-down level (a queue of at most SMALL_FRONTIER
 * vertices is scanned by every block itself, with no phase of its own).
 * At the start of each phase every block reads the counters of the last
 * one and applies the switching rule itself, so all blocks agree without
 * the host: a search is three launches and one small read however many
 * levels it has, where a launch a level with its counters read back by the
 * host cost a round trip a level (docs/decisions/gpu-bfs.md gives the figures).
 * Where cooperative launch is not available the same kernel runs a phase a
 * launch, the host reading after each whether the search is done (and
 * telling the call's progress callback, which may stop it there).
 * Directed graphs go bottom-up over their in-edges (the host's CSC,
 * uploaded once and kept with the device graph); an undirected graph's
 * in-edges are its out-edges.
 *
 * The distances come back narrowed (lg__download_narrowed): the deepest
 * level is known, and a search of fewer than 128 levels sends a byte a
 * vertex over the link instead of four.
 *
 * Memory: the device graph (cached); in the context's work buffer, kept
 * between calls so that a search allocates nothing after the first: dist
 * and parents (4 n bytes each), two queues of n vertices, two bitmaps of n
 * bits, the scan's row starts (8 n bytes), and the narrowed distances
 * (2 n bytes).
 */
#include "bfs_kernel.h"

#include <limits.h>
#include <string.h>

#include <algorithm>

/* Process-wide test switch (plugin.hip's hooks): a launch a phase even
 * where cooperative launch works. */
bool lg__bfs_phase_launches = false;

/* The grid of the cooperative search: as many blocks as fit resident at
 * once (at most LG_MAX_GRID_THREADS threads); 0 where the device cannot
 * launch cooperatively.  Asked once a context. */
static int cooperative_blocks(lg__gpu_state *s)
{
    if (s->search_blocks >= 0)
        return s->search_blocks;
    int coop = 0, per_sm = 0;
    if (hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, s->device) !=
            hipSuccess ||
        hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, search, BFS_BLOCK, 0) != hipSuccess) {
        (void)hipGetLastError(); /* not sticky: a launch a phase works */
        coop = 0;
    }
    const int64_t blocks = (int64_t)per_sm * s->info.multiprocessors;
    const int64_t cap = std::min<int64_t>(LG_MAX_GRID_THREADS / BFS_BLOCK, SEARCH_BLOCKS_MAX);
    s->search_blocks = coop ? (int)(blocks < cap ? blocks : cap) : 0;
    return s->search_blocks;
}

static lg_status_t bfs_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                 const void *args)
{
    static const char fn[] = "lg_bfs";
    const struct lg_bfs_args *call = (const struct lg_bfs_args *)args;
    const lg_vertex_t *sources = call->sources;
    const int64_t num_sources = call->num_sources;
    const lg_bfs_options_t *opts = call->opts;
    int32_t *dist = call->dist;
    lg_vertex_t *parents = call->parents;
    const int64_t n = g->n, words = (n + 31) / 32;
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_vertex_t *d_sources = NULL;
    void *narrowed = NULL;
    bfs_args a;
    memset(&a, 0, sizeof a);
    lg_status_t st = lg__dev_graph_get(s, g, fn, false, &dg, &temporary);
    if (st != LG_OK)
        return st;
    struct lg__dev_csr in = dg->out;
    if (opts->direction_alpha > 0 && (st = lg__dev_in_edges(s, g, dg, fn, &in)) != LG_OK)
        goto cleanup;

    a.n = n;
    a.words = words;
    a.off = dg->out.offsets;
    a.idx = dg->out.indices;
    a.in_off = in.offsets;
    a.in_idx = in.indices;
    a.last_level = opts->max_depth < 0 ? INT32_MAX : opts->max_depth;
    a.alpha = opts->direction_alpha;
    a.beta = opts->direction_beta;
    {
        /* every array of the call in the context's work buffer */
        lg__carve c = {0, NULL};
        const size_t at_dist = c.add((size_t)n * sizeof *a.dist);
        const size_t at_parents = parents ? c.add((size_t)n * sizeof *a.parents) : 0;
        const size_t at_q0 = c.add((size_t)n * sizeof(lg_vertex_t));
        const size_t at_q1 = c.add((size_t)n * sizeof(lg_vertex_t));
        const size_t at_b0 = c.add((size_t)words * sizeof(uint32_t));
        const size_t at_b1 = c.add((size_t)words * sizeof(uint32_t));
        const size_t at_row_start = c.add((size_t)n * sizeof *a.row_start);
        const size_t at_block_arcs = c.add(SEARCH_BLOCKS_MAX * sizeof *a.block_arcs);
        const size_t at_counts = c.add(3 * sizeof *a.counts);
        const size_t at_phase = c.add(3 * sizeof *a.phase);
        const size_t at_sources = c.add((size_t)num_sources * sizeof *sources);
        const size_t at_narrowed = c.add((size_t)n * sizeof(int16_t));
        LG_TRY_OR_CLEANUP(lg__scratch_reserve(&s->work, c.used), "allocating the search's arrays");
        c.base = (char *)s->work.ptr;
        a.dist = c.take<int32_t>(at_dist);
        a.parents = parents ? c.take<lg_vertex_t>(at_parents) : NULL;
        a.queue[0] = c.take<lg_vertex_t>(at_q0);
        a.queue[1] = c.take<lg_vertex_t>(at_q1);
        a.bits[0] = c.take<uint32_t>(at_b0);
        a.bits[1] = c.take<uint32_t>(at_b1);
        a.row_start = c.take<int64_t>(at_row_start);
        a.block_arcs = c.take<int64_t>(at_block_arcs);
        a.counts = c.take<bfs_counts>(at_counts);
        a.phase = c.take<bfs_phase>(at_phase);
        a.last = a.phase + 2;
        d_sources = c.take<lg_vertex_t>(at_sources);
        narrowed = c.take<char>(at_narrowed);
    }
    LG_TRY_OR_CLEANUP(lg__upload(s, d_sources, sources, (size_t)num_sources * sizeof *sources),
                      "uploading the sources");
    LG_TRY_OR_CLEANUP(hipMemsetAsync(a.last, 0, sizeof *a.last, s->stream), "starting the search");
    fill_unvisited<<<lg__blocks_for(n, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(a);
    start<<<lg__blocks_for(num_sources, BFS_BLOCK), BFS_BLOCK, 0, s->stream>>>(a, d_sources,
                                                                               num_sources);
    LG_TRY_OR_CLEANUP(lg__launched(), "starting the search");

    bfs_phase last;
    {
        const int blocks = lg__bfs_phase_launches ? 0 : cooperative_blocks(s);
        if (blocks > 0) {
            int first = 1, final = INT_MAX;
            void *args[] = {&a, &first, &final};
            LG_TRY_OR_CLEANUP(hipLaunchCooperativeKernel((const void *)search, dim3(blocks),
                                                         dim3(BFS_BLOCK), args, 0, s->stream),
                              "searching");
        }
        const unsigned grid =
            blocks > 0 ? 0 : std::min<unsigned>(lg__blocks_for(n, BFS_BLOCK), SEARCH_BLOCKS_MAX);
        for (int p = 1;; p++) {
            if (grid) {
                search<<<grid, BFS_BLOCK, 0, s->stream>>>(a, p, p);
                LG_TRY_OR_CLEANUP(lg__launched(), "searching");
            }
            LG_TRY_OR_CLEANUP(
                hipMemcpyAsync(&last, a.last, sizeof last, hipMemcpyDeviceToHost, s->stream),
                "searching");
            LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "searching");
            /* between launches (a cooperative search reports once, done) */
            const bool go_on = lg_progress_go_on(s->progress, LG_STAGE_BFS, last.level, -1, 0.0);
            if (last.kind == PHASE_DONE)
                break;
            if (!go_on) {
                st = LG_ERR_CANCELLED;
                goto cleanup;
            }
            if (!grid) { /* a cooperative search ends DONE */
                st = lg__gpu_fail(hipErrorLaunchFailure, fn, "searching");
                goto cleanup;
            }
        }
    }
    LG_TRY_OR_CLEANUP(lg__deliver_narrowed(s, dist, a.dist, n, -1, last.level, narrowed),
                      "downloading the distances");
    if (parents)
        LG_TRY_OR_CLEANUP(lg__deliver(s, parents, a.parents, (size_t)n * sizeof *parents),
                          "downloading the parents");

cleanup:
    (void)hipStreamSynchronize(s->stream);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

lg_status_t lg__gpu_bfs(const struct lg_exec *x, const struct lg_graph_view *g,
                        const void *args)
{
    return lg__gpu_run(x, g, args, "lg_bfs", bfs_on_device);
}

/* The plugin's BFS (plugin.hip): it reads the in-edges when it may go
 * bottom-up. */
LG_GPU_KERNEL_ROW(bfs, BFS, true)
