/*
 * hub_order.c - degree-based grouping of the vertices for CPU PageRank's
 * gathers.
 *
 * Method: degree-based grouping (DBG: Faldu, Diamond, Grot, IISWC'19).  The
 * gathers c[u] of a pull iteration are random loads; on skewed graphs most of
 * them hit the few high-degree vertices, whose contributions are spread
 * over the whole vector, a cache line each.  Storing c in DBG order
 * (vertices grouped by floor(log2(out-degree)), highest first, in id order
 * within a group) packs the hubs into a few lines that stay in L1/L2.  Only
 * c moves: rows, weights and x keep vertex order, the in-edge sources are
 * renamed into a copy of the index array (idx2[e] = rank[idx[e]]) and each
 * iteration writes cn[rank[v]] (pagerank.c).
 *
 * It costs a pass over the arcs into fresh memory (a few iterations' time)
 * and m + n ids of memory for the call, so pagerank.c makes it after the
 * first iteration only when lg__hub_order_pays:
 *  - at least HUB_MIN_ITERS more iterations are expected,
 *  - the contribution vector has at least HUB_MIN_BYTES: a smaller one
 *    stays in the last-level cache anyway, where the order gains nothing
 *    and the copy's cost shows,
 *  - and the degrees are skewed: the vertices of out-degree >= HUB_FACTOR x
 *    the mean hold at least half of the arcs (Kronecker and real power-law
 *    graphs; not uniform random ones, where it gains nothing).
 * When its memory cannot be had, PageRank goes on without; it is not even
 * asked for when it would take more than half of the memory the system has
 * available (lg__can_spare: under Linux's overcommit a large malloc succeeds
 * and the process can be killed later instead).
 */
#include "hub_order.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define HUB_GROUPS 64
#define HUB_FACTOR 4
#define HUB_MIN_ITERS 8.0
#define HUB_MIN_BYTES ((size_t)8 << 20)

static atomic_long hub_runs;
static atomic_size_t hub_min_bytes = HUB_MIN_BYTES; /* lg__pagerank_hub_min_bytes moves it */

long lg__pagerank_hub_runs(void)
{
    return atomic_exchange(&hub_runs, 0);
}

size_t lg__pagerank_hub_min_bytes(size_t bytes)
{
    return atomic_exchange(&hub_min_bytes, bytes);
}

static int hub_group(const lg_edge_t *off, int64_t u)
{
    const uint64_t deg = (uint64_t)(off[u + 1] - off[u]);
    return deg ? 64 - __builtin_clzll(deg) : 0; /* 1 + floor(log2 deg), 0 when none */
}

static bool degrees_skewed(const struct lg_graph_view *g, int threads)
{
    const lg_edge_t *off = g->out.offsets;
    const double hub = HUB_FACTOR * (double)g->m / (double)g->n;
    int64_t hub_arcs = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : hub_arcs)
    for (int64_t u = 0; u < g->n; u++) {
        const lg_edge_t deg = off[u + 1] - off[u];
        if ((double)deg >= hub)
            hub_arcs += deg;
    }
    return g->m > 0 && 2 * hub_arcs >= g->m;
}

bool lg__hub_order(const struct lg_graph_view *g, int threads, lg_vertex_t **rank_out,
                   lg_vertex_t **idx_out)
{
    const int64_t n = g->n, m = g->m;
    const lg_edge_t *off = g->out.offsets;
    char saved[LG_ERROR_CAPACITY];
    lg__error_save(saved);
    lg_vertex_t *rank = lg__alloc_array((size_t)n, sizeof *rank, "PageRank hub order");
    lg_vertex_t *idx2 = lg__alloc_array((size_t)(m ? m : 1), sizeof *idx2, "PageRank hub order");
    int64_t(*count)[HUB_GROUPS + 1] = lg__calloc((size_t)threads, sizeof *count);
    if (!rank || !idx2 || !count) {
        lg__free(rank);
        lg__free(idx2);
        lg__free(count);
        lg__error_restore(saved);
        return false;
    }
    /* a stable counting sort by group, highest first: each thread counts its
     * static share of the vertices, then numbers them from its offset */
#pragma omp parallel num_threads(threads)
    {
#ifdef _OPENMP
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
#else
        const int t = 0, nt = 1;
#endif
        const int64_t u0 = n * t / nt, u1 = n * (t + 1) / nt;
        for (int64_t u = u0; u < u1; u++)
            count[t][hub_group(off, u)]++;
#pragma omp barrier
#pragma omp single
        {
            int64_t next = 0;
            for (int k = HUB_GROUPS; k >= 0; k--)
                for (int i = 0; i < nt; i++) {
                    const int64_t c = count[i][k];
                    count[i][k] = next;
                    next += c;
                }
        }
        for (int64_t u = u0; u < u1; u++)
            rank[u] = (lg_vertex_t)count[t][hub_group(off, u)]++;
#pragma omp barrier
#pragma omp for schedule(static)
        for (int64_t e = 0; e < m; e++)
            idx2[e] = rank[g->in.indices[e]];
    }
    lg__free(count);
    *rank_out = rank;
    *idx_out = idx2;
    atomic_fetch_add_explicit(&hub_runs, 1, memory_order_relaxed);
    return true;
}

bool lg__hub_order_pays(const struct lg_graph_view *g, int threads, size_t vector_bytes,
                        double iterations_left)
{
    return iterations_left >= HUB_MIN_ITERS && vector_bytes >= atomic_load(&hub_min_bytes) &&
           degrees_skewed(g, threads) &&
           lg__can_spare(((size_t)g->m + (size_t)g->n) * sizeof(lg_vertex_t));
}
