/*
 * bellman_ford.h - single-source shortest paths with negative weights on
 * the CPU: Bellman-Ford, for lg_sssp (sssp.c includes it, with its
 * prefetch-free relaxation and its tight-edge predecessors).
 *
 * Method: Bellman (1958), Ford (1956), in the frontier ("queue-based",
 * Moore 1959) form: a round relaxes, in parallel, the out-edges of every
 * vertex whose distance dropped in the round before; a drop is an atomic
 * compare-and-swap of the smaller sum, and a vertex joins the next frontier
 * once however often it drops.  After round k every vertex whose shortest
 * path has at most k arcs is final, so without a negative cycle the
 * frontier is empty after round n; one still there means a negative cycle
 * reachable from a source.
 *
 * Naming a vertex on the cycle (negative_cycle.h): each drop records the
 * vertex it came from (parent), and a walk of parents from the frontier
 * looks for a negative cycle of them at rounds 64, 128, 256, ... and n, so
 * that a cycle is usually named long before round n; when the walk cannot
 * name one, the sequential search does.  A cycle whose negative sum is lost
 * in rounding settles instead, and is caught when it lowers a source below
 * 0 (lg_source_below_zero).
 *
 * The distances are the same fixed point delta-stepping reaches (sssp.c's
 * top says why every relaxation order ends there), and the predecessors
 * the same tight-edge search; cutoff and target then filter the final
 * distances (sssp.c), as no bucket order bounds a search with negative
 * weights.
 */
#ifndef LIBGRAPH_CPU_BELLMAN_FORD_H
#define LIBGRAPH_CPU_BELLMAN_FORD_H

#include "negative_cycle.h"

/* negative_cycle.h's search, with its work arrays. */
static lg_status_t cycle_by_search(const struct lg_weighted_rows *r, const struct lg_sssp_args *a,
                                   lg_vertex_t *found)
{
    const size_t n = (size_t)r->n;
    static const char what[] = "lg_sssp: Bellman-Ford's cycle search";
    struct lg_cycle_work k = {lg__alloc_array(n, sizeof *k.d, what),
                              lg__alloc_array(n, sizeof *k.parent, what),
                              lg__alloc_array(n, sizeof *k.queue, what),
                              lg__alloc_array(n, sizeof *k.arcs, what), lg__malloc(n)};
    lg_status_t st = LG_OK;
    if (k.d && k.parent && k.queue && k.arcs && k.queued)
        *found = lg_cycle_by_search(r, a->sources, a->num_sources, &k);
    else
        st = lg__error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    lg__free(k.d);
    lg__free(k.parent);
    lg__free(k.queue);
    lg__free(k.arcs);
    lg__free(k.queued);
    return st;
}

static lg_status_t unbounded(lg_vertex_t v)
{
    return lg__error(LG_ERR_UNBOUNDED,
                     "lg_sssp: a negative cycle is reachable from the sources: vertex %d is on it",
                     (int)v);
}

static lg_status_t bellman_ford(const struct lg_exec *x, const struct lg_graph_view *g,
                                const struct lg_sssp_args *a, const float *w, const double *w64,
                                int threads)
{
    const int64_t n = g->n;
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *adj = g->out.indices;
    double *dist = a->dist;
    static const char what[] = "lg_sssp: Bellman-Ford's frontiers";
    lg_vertex_t *queue = lg__alloc_array((size_t)n, 2 * sizeof *queue, what);
    lg_vertex_t *parent = lg__alloc_array((size_t)n, sizeof *parent, what);
    unsigned char *in_next = lg__calloc((size_t)n, 1);
    const struct lg_weighted_rows rows = {n, off, adj, w, w64};
    lg_status_t st = LG_OK;
    if (!queue || !parent || !in_next) {
        st = lg__error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
        goto done;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        dist[v] = INFINITY, parent[v] = -1;
    lg_vertex_t *curr = queue, *next = queue + n;
    int64_t size = 0;
    for (int64_t i = 0; i < a->num_sources; i++) {
        const lg_vertex_t s = a->sources[i];
        if (dist[s] > 0.0)
            dist[s] = 0.0, curr[size++] = s;
    }
    for (int64_t round = 1; size > 0; round++) {
        if (round > n || (round >= 64 && (round & (round - 1)) == 0)) {
            const lg_vertex_t v = lg_cycle_on_parents(&rows, parent, curr[0]);
            if (v >= 0) {
                st = unbounded(v);
                goto done;
            }
            if (round > n) {
                lg_vertex_t found = -1;
                if ((st = cycle_by_search(&rows, a, &found)) == LG_OK)
                    st = found >= 0
                             ? unbounded(found)
                             : lg__error(LG_ERR_INTERNAL, "lg_sssp: Bellman-Ford ran %lld rounds",
                                         (long long)n);
                goto done;
            }
        }
        int64_t tail = 0;
#pragma omp parallel num_threads(lg__team_size(threads, size * 16))
        {
            struct lg__frontier_buffer b = {.count = 0};
#pragma omp for schedule(dynamic, RELAX_CHUNK) nowait
            for (int64_t i = 0; i < size; i++) {
                const lg_vertex_t u = curr[i];
                double du;
                __atomic_load(&dist[u], &du, __ATOMIC_RELAXED);
                for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
                    const lg_vertex_t v = adj[e];
                    double nd = du + lg_arc_weight(w, w64, e), old;
                    __atomic_load(&dist[v], &old, __ATOMIC_RELAXED);
                    while (nd < old) {
                        if (__atomic_compare_exchange(&dist[v], &old, &nd, true, __ATOMIC_RELAXED,
                                                      __ATOMIC_RELAXED)) {
                            __atomic_store_n(&parent[v], u, __ATOMIC_RELAXED);
                            if (!__atomic_exchange_n(&in_next[v], 1, __ATOMIC_RELAXED))
                                lg__frontier_push(&b, next, &tail, v);
                            break;
                        }
                    }
                }
            }
            lg__frontier_flush(&b, next, &tail);
        }
#pragma omp parallel for num_threads(lg__team_size(threads, tail)) schedule(static)
        for (int64_t i = 0; i < tail; i++)
            in_next[next[i]] = 0;
        lg_vertex_t *t = curr;
        curr = next, next = t, size = tail;
        if (!lg_exec_go_on(x, LG_STAGE_SSSP, round, -1, (double)size)) {
            st = LG_ERR_CANCELLED;
            goto done;
        }
    }
    /* settled; the frontier's queue and the (all zero) marks serve the check */
    if (lg_any_source_below_zero(dist, a->sources, a->num_sources)) {
        const lg_vertex_t s =
            lg_source_below_zero(&rows, dist, a->sources, a->num_sources, queue, in_next);
        if (s >= 0)
            st = lg__error(LG_ERR_UNBOUNDED, LG_SOURCE_BELOW_ZERO, "lg_sssp", (int)s);
    }
done:
    lg__free(queue);
    lg__free(parent);
    lg__free(in_next);
    return st;
}

#endif
