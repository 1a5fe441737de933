/*
 * closeness.c - closeness and harmonic centrality on the CPU.
 *
 * Returns: centrality[u] as lg_closeness defines it, from the distances
 * d(v, u) of the vertices v that reach u.
 *
 * Method: from every vertex u a search over the in-arcs (so it finds the
 * vertices that reach u, nearest first): unweighted, 64 BFS at once as the
 * bits of a word a vertex (by_hops); with weights, Dijkstra on an indexed
 * 4-ary heap ordered by (distance, id); closeness sums the
 * distances (an integer sum unweighted, then NetworkX's two divisions:
 * (r - 1) / sum, times (r - 1) / (n - 1)), harmonic sums 1 / d.  The
 * vertices are spread over the threads dynamically: a vertex's value is
 * one thread's search, so the result does not depend on the schedule.
 * Only what a search reached is reset for the next.
 *
 * Cost: O(n (n + m)) unweighted (each arc once a level of a batch: about
 * n / 64 times the graph's diameter passes), O(n (m + n log n)) weighted.
 * Memory a thread: 40 bytes a vertex unweighted, 20 weighted.
 */
#include "closeness_value.h"
#include "cpu.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void)
{
    return 0;
}
#endif

/* Vertices a parallel step takes at the least (progress is reported between
 * steps); a step takes VERTICES_A_THREAD a thread when there are more threads. */
#define STEP_VERTICES 1024
#define VERTICES_A_THREAD 256

struct closeness_work {
    const struct lg_graph_view *g;
    const struct lg_closeness_args *a;
    int threads;
    uint64_t *seen, *visit, *next; /* threads * n, unweighted (struct hop_lanes) */
    lg_vertex_t *lists;            /* threads * 4 n, unweighted: hop_lanes' lists */
    lg_vertex_t *queue;            /* threads * n, weighted: the settled order */
    double *dist;                  /* threads * n, weighted: INFINITY unreached */
    int32_t *slot;                 /* threads * n, weighted: heap places (-1: not in it) */
    lg_vertex_t *heap;             /* threads * n, weighted */
};

/* Unweighted: the searches from BATCH vertices at once, a bit each
 * (multi-source BFS, Then et al., "The More the Merrier: Efficient
 * Multi-Source Graph Traversal", VLDB 2015): seen[v] holds the searches
 * that reached v, visit[v] those that reached it in the last level; a
 * level ORs each frontier vertex's visit bits into its in-neighbours' next
 * bits, so one pass over a frontier's arcs serves every search in it. */
#define BATCH 64

struct hop_lanes {
    uint64_t *seen, *visit, *next;
    lg_vertex_t *frontier, *ahead, *touched, *ever; /* n each */
};

static void by_hops(const struct closeness_work *w, int64_t first, int count,
                    const struct hop_lanes *h)
{
    const struct lg_csr_view *in = &w->g->in;
    int64_t reached[BATCH], total[BATCH];
    double inverse[BATCH];
    int64_t nf = 0, ne = 0;
    for (int b = 0; b < count; b++) {
        const lg_vertex_t u = (lg_vertex_t)(first + b);
        reached[b] = 1, total[b] = 0, inverse[b] = 0.0;
        h->seen[u] = h->visit[u] = (uint64_t)1 << b;
        h->frontier[nf++] = u;
        h->ever[ne++] = u;
    }
    lg_vertex_t *frontier = h->frontier, *ahead = h->ahead;
    for (int64_t level = 1; nf > 0; level++) {
        int64_t nt = 0;
        for (int64_t i = 0; i < nf; i++) {
            const lg_vertex_t x = frontier[i];
            const uint64_t bits = h->visit[x];
            h->visit[x] = 0;
            for (lg_edge_t e = in->offsets[x]; e < in->offsets[x + 1]; e++) {
                const lg_vertex_t v = in->indices[e];
                const uint64_t fresh = bits & ~h->seen[v];
                if (fresh) {
                    if (!h->next[v])
                        h->touched[nt++] = v;
                    h->next[v] |= fresh;
                }
            }
        }
        const double inv = 1.0 / (double)level;
        int64_t na = 0;
        for (int64_t i = 0; i < nt; i++) {
            const lg_vertex_t v = h->touched[i];
            uint64_t fresh = h->next[v] & ~h->seen[v];
            h->next[v] = 0;
            if (!fresh)
                continue;
            if (!h->seen[v])
                h->ever[ne++] = v;
            h->seen[v] |= fresh;
            h->visit[v] = fresh;
            ahead[na++] = v;
            while (fresh) {
                const int b = __builtin_ctzll(fresh);
                reached[b]++;
                total[b] += level;
                inverse[b] += inv;
                fresh &= fresh - 1;
            }
        }
        lg_vertex_t *t = frontier;
        frontier = ahead, ahead = t;
        nf = na;
    }
    for (int64_t i = 0; i < ne; i++)
        h->seen[h->ever[i]] = 0;
    for (int b = 0; b < count; b++)
        w->a->centrality[first + b] =
            lg_closeness_value(w->a, w->g->n, reached[b], (double)total[b], inverse[b]);
}

/* The indexed 4-ary heap of the weighted search, ordered by (dist, id). */
static inline bool before(const double *dist, lg_vertex_t a, lg_vertex_t b)
{
    return dist[a] < dist[b] || (dist[a] == dist[b] && a < b);
}

static void sift_up(const double *dist, int32_t *slot, lg_vertex_t *heap, int32_t i)
{
    const lg_vertex_t v = heap[i];
    while (i > 0) {
        const int32_t p = (i - 1) / 4;
        if (!before(dist, v, heap[p]))
            break;
        heap[i] = heap[p];
        slot[heap[i]] = i;
        i = p;
    }
    heap[i] = v;
    slot[v] = i;
}

static lg_vertex_t pop_min(const double *dist, int32_t *slot, lg_vertex_t *heap, int32_t *len)
{
    const lg_vertex_t top = heap[0], v = heap[--*len];
    slot[top] = -1;
    if (*len == 0)
        return top;
    int32_t i = 0;
    for (;;) {
        const int32_t c = 4 * i + 1;
        if (c >= *len)
            break;
        int32_t best = c;
        for (int32_t j = c + 1; j < c + 4 && j < *len; j++)
            if (before(dist, heap[j], heap[best]))
                best = j;
        if (!before(dist, heap[best], v))
            break;
        heap[i] = heap[best];
        slot[heap[i]] = i;
        i = best;
    }
    heap[i] = v;
    slot[v] = i;
    return top;
}

static double by_weights(const struct closeness_work *w, lg_vertex_t u, double *dist, int32_t *slot,
                         lg_vertex_t *heap, lg_vertex_t *order)
{
    const struct lg_csr_view *in = &w->g->in;
    const float *w32 = in->weights64 ? NULL : in->weights;
    int32_t len = 0;
    int64_t settled = 0;
    double sum = 0.0, inverse = 0.0;
    dist[u] = 0.0;
    heap[len++] = u;
    slot[u] = 0;
    while (len > 0) {
        const lg_vertex_t x = pop_min(dist, slot, heap, &len);
        order[settled++] = x;
        const double dx = dist[x];
        sum += dx;
        if (dx > 0.0)
            inverse += 1.0 / dx;
        for (lg_edge_t e = in->offsets[x]; e < in->offsets[x + 1]; e++) {
            const lg_vertex_t v = in->indices[e];
            const double d = dx + lg_arc_weight(w32, in->weights64, e);
            if (d < dist[v]) { /* a settled vertex's distance never drops (weights >= 0) */
                dist[v] = d;
                if (slot[v] < 0) {
                    heap[len] = v;
                    sift_up(dist, slot, heap, len++);
                } else {
                    sift_up(dist, slot, heap, slot[v]);
                }
            }
        }
    }
    for (int64_t i = 0; i < settled; i++)
        dist[order[i]] = INFINITY;
    return lg_closeness_value(w->a, w->g->n, settled, sum, inverse);
}

static void closeness_step(const void *work, int64_t first, int64_t last)
{
    const struct closeness_work *w = work;
    const int64_t n = w->g->n;
#pragma omp parallel num_threads(w->threads)
    {
        const size_t t = (size_t)omp_get_thread_num(), at = t * (size_t)n;
        if (w->seen) {
            const struct hop_lanes h = {w->seen + at,
                                        w->visit + at,
                                        w->next + at,
                                        w->lists + 4 * at,
                                        w->lists + 4 * at + (size_t)n,
                                        w->lists + 4 * at + 2 * (size_t)n,
                                        w->lists + 4 * at + 3 * (size_t)n};
#pragma omp for schedule(dynamic, 1)
            for (int64_t b = first; b < last; b += BATCH)
                by_hops(w, b, (int)(last - b < BATCH ? last - b : BATCH), &h);
        } else {
#pragma omp for schedule(dynamic, 16)
            for (int64_t u = first; u < last; u++)
                w->a->centrality[u] = by_weights(w, (lg_vertex_t)u, w->dist + at, w->slot + at,
                                                 w->heap + at, w->queue + at);
        }
    }
}

static lg_status_t closeness(const struct lg_exec *x, const struct lg_graph_view *g,
                             const void *args)
{
    const struct lg_closeness_args *a = args;
    const int64_t n = g->n;
    int threads = x->num_threads;
    if (threads > n)
        threads = (int)n;
    struct closeness_work w = {.g = g, .a = a, .threads = threads};
    const size_t tn = (size_t)threads * (size_t)n;
    const bool weighted = a->use_weights && g->in.weights;
    /* each allocation on one line: its site is the line */
    static const char what[] = "lg_closeness";
    if (weighted) {
        w.dist = lg__alloc_array(tn, sizeof *w.dist, what);
        w.slot = lg__alloc_array(tn, sizeof *w.slot, what);
        w.heap = lg__alloc_array(tn, sizeof *w.heap, what);
        w.queue = lg__alloc_array(tn, sizeof *w.queue, what);
    } else {
        w.seen = lg__alloc_array(tn, sizeof *w.seen, what);
        w.visit = lg__alloc_array(tn, sizeof *w.visit, what);
        w.next = lg__alloc_array(tn, sizeof *w.next, what);
        w.lists = lg__alloc_array(tn, 4 * sizeof *w.lists, what);
    }
    lg_status_t st = LG_OK;
    if (weighted ? !w.dist || !w.slot || !w.heap || !w.queue
                 : !w.seen || !w.visit || !w.next || !w.lists) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto done;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < tn; i++) {
        if (weighted) {
            w.dist[i] = INFINITY;
            w.slot[i] = -1;
        } else {
            w.seen[i] = w.visit[i] = w.next[i] = 0;
        }
    }
    st = lg__cpu_in_steps(x, LG_STAGE_CLOSENESS, n, STEP_VERTICES, VERTICES_A_THREAD, threads,
                          closeness_step, &w);
done:
    lg__free(w.seen);
    lg__free(w.visit);
    lg__free(w.next);
    lg__free(w.lists);
    lg__free(w.queue);
    lg__free(w.dist);
    lg__free(w.slot);
    lg__free(w.heap);
    return st;
}

/* Reads the in-arcs (a directed graph's in-edges). */
const struct lg_kernel LG_CPU_ROW(closeness) = {LG_ALG_CLOSENESS, closeness, true};
