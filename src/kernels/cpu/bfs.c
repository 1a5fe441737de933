/*
 * bfs.c - breadth-first search on the CPU.
 *
 * Returns: dist[v] = hop count from the source along out-edges, -1 when v is
 * unreachable; on request parent[v] = a BFS parent (an in-neighbour one hop
 * closer), parent[source] = source, -1 when unreached.
 *
 * Method: level-synchronous top-down search (the textbook frontier expansion,
 * parallelised as in GAPBS's top-down step, Beamer et al., SC'12).  Threads
 * split the frontier; a vertex is claimed by the one compare-and-swap that
 * moves dist[v] from -1 to the next level, so each vertex enters the next
 * frontier exactly once and distances do not depend on the schedule.  Each
 * thread collects claimed vertices in a small local buffer and appends it to
 * the shared next frontier with one atomic add.
 *
 * Encoding: dist[v] < 0 means unvisited.  Cost: O(n + m) work, one pass over
 * the out-edges of each reached vertex.  (Direction optimisation arrives with
 * the fast kernels.)
 */
#include "cpu.h"

#include <string.h>

/* Vertices a thread buffers before one atomic append to the next frontier. */
#define LG_BFS_LOCAL_BUFFER 1024

lg_status_t lg__cpu_bfs(const lg_context_t *ctx, const lg_graph_t *g, lg_vertex_t source,
                        const lg_bfs_options_t *opts, int32_t *dist, lg_vertex_t *parents)
{
    (void)opts;
    const int threads = lg__threads_for(ctx, g->n + g->m);
    const int64_t n = g->n;
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *adj = g->out.indices;
    lg_vertex_t *frontier = lg__alloc_array((size_t)n, sizeof *frontier, "the BFS frontier");
    lg_vertex_t *next = lg__alloc_array((size_t)n, sizeof *next, "the BFS frontier");
    if (!frontier || !next) {
        lg__free(frontier);
        lg__free(next);
        return LG_ERR_OUT_OF_MEMORY;
    }

#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) {
        dist[v] = -1;
        if (parents)
            parents[v] = -1;
    }
    dist[source] = 0;
    if (parents)
        parents[source] = source;
    frontier[0] = source;
    int64_t frontier_size = 1;

    for (int32_t level = 1; frontier_size > 0; level++) {
        int64_t next_size = 0;
#pragma omp parallel num_threads(threads)
        {
            lg_vertex_t local[LG_BFS_LOCAL_BUFFER];
            int count = 0;
#pragma omp for schedule(dynamic, 64) nowait
            for (int64_t i = 0; i < frontier_size; i++) {
                lg_vertex_t u = frontier[i];
                for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
                    lg_vertex_t v = adj[e];
                    int32_t unvisited = -1;
                    if (__atomic_load_n(&dist[v], __ATOMIC_RELAXED) >= 0 ||
                        !__atomic_compare_exchange_n(&dist[v], &unvisited, level, false,
                                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                        continue;
                    if (parents)
                        parents[v] = u;
                    local[count++] = v;
                    if (count == LG_BFS_LOCAL_BUFFER) {
                        int64_t at = __atomic_fetch_add(&next_size, count, __ATOMIC_RELAXED);
                        memcpy(next + at, local, (size_t)count * sizeof *local);
                        count = 0;
                    }
                }
            }
            if (count > 0) {
                int64_t at = __atomic_fetch_add(&next_size, count, __ATOMIC_RELAXED);
                memcpy(next + at, local, (size_t)count * sizeof *local);
            }
        }
        lg_vertex_t *swap = frontier;
        frontier = next;
        next = swap;
        frontier_size = next_size;
    }

    lg__free(frontier);
    lg__free(next);
    return LG_OK;
}
