/*
 * components.c - connected components on the CPU.
 *
 * Returns: label[v] = the smallest vertex id of v's component (weakly
 * connected components on a directed graph), and the number of components.
 *
 * Method: concurrent union-find with linking by index (the lock-free variant of
 * Anderson and Woll, STOC'91, as used by Afforest's final phase, Sutton et
 * al., IPDPS'18).  Each arc u-v links the larger of the two roots under the
 * smaller with one compare-and-swap, retrying when another thread moved the
 * root first.  Because a parent is always smaller than its child, every tree's
 * root is the smallest id of its component: the labels come out canonical
 * without a relabelling pass.  find() halves paths as it walks; concurrent
 * halving only ever replaces a parent by one of its ancestors, so it is safe.
 *
 * Encoding: label[] doubles as the parent array while linking.  Cost: O(m
 * alpha(n)) work, one pass over the out-edges (a weak component needs each arc
 * in one direction only).  (Afforest's sampling arrives with the fast kernels.)
 */
#include "cpu.h"

static lg_vertex_t find_root(lg_vertex_t *parent, lg_vertex_t v)
{
    for (;;) {
        lg_vertex_t p = __atomic_load_n(&parent[v], __ATOMIC_RELAXED);
        if (p == v)
            return v;
        lg_vertex_t gp = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
        if (gp != p)
            __atomic_store_n(&parent[v], gp, __ATOMIC_RELAXED);
        v = p;
    }
}

static void link(lg_vertex_t *parent, lg_vertex_t u, lg_vertex_t v)
{
    for (;;) {
        lg_vertex_t ru = find_root(parent, u), rv = find_root(parent, v);
        if (ru == rv)
            return;
        lg_vertex_t hi = ru > rv ? ru : rv, lo = ru > rv ? rv : ru;
        lg_vertex_t expected = hi;
        if (__atomic_compare_exchange_n(&parent[hi], &expected, lo, false, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            return;
    }
}

lg_status_t lg__cpu_components(const lg_context_t *ctx, const lg_graph_t *g, lg_vertex_t *labels,
                               int64_t *num_components)
{
    const int threads = lg__threads_for(ctx, g->n + g->m);
    const int64_t n = g->n;
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *adj = g->out.indices;

#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        labels[v] = (lg_vertex_t)v;

#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t u = 0; u < n; u++)
        for (lg_edge_t e = off[u]; e < off[u + 1]; e++)
            link(labels, (lg_vertex_t)u, adj[e]);

    int64_t roots = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : roots)
    for (int64_t v = 0; v < n; v++) {
        lg_vertex_t root = find_root(labels, (lg_vertex_t)v);
        __atomic_store_n(&labels[v], root, __ATOMIC_RELAXED);
        roots += root == v;
    }
    if (num_components)
        *num_components = roots;
    return LG_OK;
}
