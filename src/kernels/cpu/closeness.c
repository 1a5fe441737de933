/*
 * closeness.c - closeness and harmonic centrality on the CPU.
 *
 * Returns: centrality[u] as lg_closeness defines it, from the distances
 * d(v, u) of the vertices v that reach u.
 *
 * Method: from every vertex u a search over the in-arcs (so it finds the
 * vertices that reach u, nearest first): a BFS, or Dijkstra on an indexed
 * 4-ary heap ordered by (distance, id) for weights; closeness sums the
 * distances (an integer sum unweighted, then NetworkX's two divisions:
 * (r - 1) / sum, times (r - 1) / (n - 1)), harmonic sums 1 / d.  The
 * vertices are spread over the threads dynamically: a vertex's value is
 * one thread's search, so the result does not depend on the schedule.
 * Only what a search reached is reset for the next.
 *
 * Cost: O(n (n + m)) unweighted, O(n (m + n log n)) weighted.  Memory a
 * thread: 8 bytes a vertex unweighted, 20 weighted.
 */
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
#define VERTICES_A_THREAD 64

struct closeness_work {
    const struct lg_graph_view *g;
    const struct lg_closeness_args *a;
    int threads;
    int32_t *level;     /* threads * n, unweighted: -1 unreached */
    lg_vertex_t *queue; /* threads * n: the search order */
    double *dist;       /* threads * n, weighted: INFINITY unreached */
    int32_t *slot;      /* threads * n, weighted: heap places (-1: not in it) */
    lg_vertex_t *heap;  /* threads * n, weighted */
};

/* u's value from its r reached vertices (u included) at total distance
 * `sum`, or harmonic's sum of inverses `inverse`. */
static double value_of(const struct lg_closeness_args *a, int64_t n, int64_t r, double sum,
                       double inverse)
{
    if (a->harmonic)
        return inverse;
    if (!(sum > 0.0) || n < 2)
        return 0.0;
    double c = ((double)r - 1.0) / sum;
    if (a->wf_improved)
        c *= ((double)r - 1.0) / (double)(n - 1);
    return c;
}

static double by_hops(const struct closeness_work *w, lg_vertex_t u, int32_t *level,
                      lg_vertex_t *queue)
{
    const struct lg_csr_view *in = &w->g->in;
    int64_t head = 0, tail = 0, total = 0;
    double inverse = 0.0;
    queue[tail++] = u;
    level[u] = 0;
    while (head < tail) {
        const lg_vertex_t x = queue[head++];
        const int32_t next = level[x] + 1;
        for (lg_edge_t e = in->offsets[x]; e < in->offsets[x + 1]; e++) {
            const lg_vertex_t v = in->indices[e];
            if (level[v] < 0) {
                level[v] = next;
                queue[tail++] = v;
                total += next;
                inverse += 1.0 / (double)next;
            }
        }
    }
    for (int64_t i = 0; i < tail; i++)
        level[queue[i]] = -1;
    return value_of(w->a, w->g->n, tail, (double)total, inverse);
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

static double by_weights(const struct closeness_work *w, lg_vertex_t u, double *dist,
                         int32_t *slot, lg_vertex_t *heap, lg_vertex_t *order)
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
    return value_of(w->a, w->g->n, settled, sum, inverse);
}

static void closeness_step(const struct closeness_work *w, int64_t first, int64_t last)
{
    const int64_t n = w->g->n;
#pragma omp parallel num_threads(w->threads)
    {
        const size_t t = (size_t)omp_get_thread_num(), at = t * (size_t)n;
#pragma omp for schedule(dynamic, 16)
        for (int64_t u = first; u < last; u++)
            w->a->centrality[u] =
                w->level ? by_hops(w, (lg_vertex_t)u, w->level + at, w->queue + at)
                         : by_weights(w, (lg_vertex_t)u, w->dist + at, w->slot + at,
                                      w->heap + at, w->queue + at);
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
    } else {
        w.level = lg__alloc_array(tn, sizeof *w.level, what);
    }
    w.queue = lg__alloc_array(tn, sizeof *w.queue, what);
    lg_status_t st = LG_OK;
    if ((weighted ? !w.dist || !w.slot || !w.heap : !w.level) || !w.queue) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto done;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < tn; i++) {
        if (weighted) {
            w.dist[i] = INFINITY;
            w.slot[i] = -1;
        } else {
            w.level[i] = -1;
        }
    }
    const int64_t per_step = STEP_VERTICES > (int64_t)VERTICES_A_THREAD * threads
                                 ? STEP_VERTICES
                                 : (int64_t)VERTICES_A_THREAD * threads;
    for (int64_t first = 0; first < n; first += per_step) {
        const int64_t last = n - first < per_step ? n : first + per_step;
        closeness_step(&w, first, last);
        if (!lg_exec_go_on(x, LG_STAGE_CLOSENESS, last, n, 0.0)) {
            st = LG_ERR_CANCELLED;
            goto done;
        }
    }
done:
    lg__free(w.level);
    lg__free(w.queue);
    lg__free(w.dist);
    lg__free(w.slot);
    lg__free(w.heap);
    return st;
}

/* Reads the in-arcs (a directed graph's in-edges). */
const struct lg_kernel LG_CPU_ROW(closeness) = {LG_ALG_CLOSENESS, closeness, true};
