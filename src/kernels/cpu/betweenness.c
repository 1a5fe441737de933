/*
 * betweenness.c - betweenness centrality on the CPU.
 *
 * Returns: centrality[v] = the sum over the sources s and the vertices t of
 * the fraction of shortest s-t paths through v, scaled as lg_betweenness
 * says (NetworkX's rule).
 *
 * Method: Brandes, "A faster algorithm for betweenness centrality", J.
 * Math. Sociol. 25 (2001).  From each source s:
 *   1. a search in order of distance counts the shortest paths sigma[v]
 *      from s to every v: BFS on unweighted graphs, Dijkstra (an indexed
 *      4-ary heap ordered by distance, then vertex id) on weighted ones
 *      (weights > 0: the entry point refuses others); sigma[v] is the sum
 *      of sigma[u] over the tight arcs u -> v (dist[u] + w == dist[v]);
 *   2. in the reverse of that order, each vertex's dependency
 *      delta[w] = sigma[w] * sum over tight arcs w -> v of (1 + delta[v]) / sigma[v]
 *      is pulled from its successors, which are already done; the quotient
 *      is kept in sigma's place once delta[w] is known, so that a vertex
 *      holds one double and its level (or distance) side by side and an
 *      arc costs one cache line.
 * Edge betweenness (edge_betweenness.c) is the same counting with each
 * tight arc w -> v credited its share sigma[w] * (1 + delta[v]) / sigma[v]
 * as the second pass reads it, into per-thread arrays of one double an arc;
 * an undirected edge's two arcs are then given their sum.
 * Only out-arcs are read, in both passes.  The sources are spread over the
 * threads, statically (so a thread count always sums in one order), each
 * thread with its own vertex state, search order and centrality array,
 * summed over the threads at the end; only the vertices a search reached
 * are reset for the next source.  A call with fewer sources than threads
 * runs on as many threads as sources.
 *
 * Cost: O(m + n) a source unweighted, O(m + n log n) weighted.  Memory a
 * thread: 24 bytes a vertex and a bit an arc unweighted, 44 bytes a vertex
 * weighted; edge betweenness 8 bytes an arc more.
 */
#include "betweenness_scale.h"
#include "cpu.h"
#include "fold_edges.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void)
{
    return 0;
}
#endif

/* Sources a parallel step takes at the least (progress is reported between
 * steps); a step takes SOURCES_A_THREAD a thread when there are more threads. */
#define STEP_SOURCES 64
#define SOURCES_A_THREAD 8

/* One thread's unweighted search: each vertex's level (-1: unreached) and
 * sigma, which becomes (1 + delta) / sigma in the second pass; a bit an
 * arc, set when the arc is tight (its head one level below its tail),
 * cleared again as the second pass reads it. */
struct hops {
    int32_t *level;
    double *val;
    uint64_t *tight;
};

/* A vertex in the weighted search: its distance (INFINITY: unreached), sigma
 * then the quotient, its heap slot (-1: not in the heap) and its place in
 * the settled order (-1: unsettled). */
struct weighted_vertex {
    double dist;
    double val;
    int32_t slot;
    int32_t rank;
};

/* The 1 of a path's end at w in the dependency (1 + delta[w]) / sigma[w]:
 * 0 where a subset's targets leave w out (Brandes 2008's source-target
 * form: only the paths to targets are counted). */
static inline double is_target(const unsigned char *targets, lg_vertex_t w)
{
    return !targets || targets[w] ? 1.0 : 0.0;
}

/* What the threads share: the call, and each thread's arrays. */
struct work {
    const struct lg_graph_view *g;
    const struct lg_betweenness_args *a;
    int threads;
    struct hops *hop;           /* threads, unweighted: their arrays in levels, vals, bits */
    int32_t *levels;            /* threads * n */
    double *vals;               /* threads * n */
    uint64_t *bits;             /* threads * words */
    struct weighted_vertex *wv; /* threads * n, weighted */
    lg_vertex_t *order;         /* threads * n: the search order */
    lg_vertex_t *heap;          /* threads * n, weighted */
    size_t len;                 /* n, or m per arc */
    bool per_arc;
    const unsigned char *targets; /* a subset's, or NULL */
    double *sums;                 /* threads * len: each thread's centrality */
};

/* Adds s's dependencies to bc, and to arcs each tight arc's share (either
 * may be NULL) (unweighted).  The first pass reads every arc's head's
 * level; the second only the tight arcs' heads, found by the bits the
 * first pass set. */
static void from_source_hops(const struct lg_graph_view *g, lg_vertex_t s, bool endpoints,
                             const unsigned char *targets, const struct hops *h, lg_vertex_t *order,
                             double *bc, double *arcs)
{
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *idx = g->out.indices;
    int32_t *level = h->level;
    double *val = h->val;
    uint64_t *tight = h->tight;
    int64_t head = 0, tail = 0;
    order[tail++] = s;
    level[s] = 0;
    val[s] = 1.0;
    while (head < tail) {
        const lg_vertex_t u = order[head++];
        const int32_t next = level[u] + 1;
        const double su = val[u];
        for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
            const lg_vertex_t v = idx[e];
            const int32_t lv = level[v];
            if (lv < 0) {
                level[v] = next;
                val[v] = su;
                order[tail++] = v;
            } else if (lv != next) {
                continue;
            } else {
                val[v] += su;
            }
            tight[e / 64] |= (uint64_t)1 << (e % 64);
        }
    }
    for (int64_t i = tail - 1; i >= 0; i--) {
        const lg_vertex_t w = order[i];
        const lg_edge_t lo = off[w], hi = off[w + 1];
        double sum = 0.0;
        for (lg_edge_t word = lo / 64; word * 64 < hi; word++) {
            uint64_t bits = tight[word];
            if (!bits)
                continue;
            /* this row's bits of the word */
            if (word * 64 < lo)
                bits &= ~(uint64_t)0 << (lo % 64);
            if ((word + 1) * 64 > hi)
                bits &= ~(uint64_t)0 >> (63 - (hi - 1) % 64);
            tight[word] &= ~bits;
            while (bits) {
                const lg_edge_t e = word * 64 + __builtin_ctzll(bits);
                const double q = val[idx[e]];
                sum += q;
                if (arcs)
                    arcs[e] += val[w] * q;
                bits &= bits - 1;
            }
        }
        const double delta = val[w] * sum;
        if (bc && w != s)
            bc[w] += endpoints ? delta + 1.0 : delta;
        val[w] = (is_target(targets, w) + delta) / val[w];
    }
    if (bc && endpoints)
        bc[s] += (double)(tail - 1);
    for (int64_t i = 0; i < tail; i++)
        level[order[i]] = -1;
}

/* The indexed 4-ary heap of the weighted search, ordered by (dist, id). */
static inline bool before(const struct weighted_vertex *st, lg_vertex_t a, lg_vertex_t b)
{
    return st[a].dist < st[b].dist || (st[a].dist == st[b].dist && a < b);
}

static void sift_up(struct weighted_vertex *st, lg_vertex_t *heap, int32_t i)
{
    const lg_vertex_t v = heap[i];
    while (i > 0) {
        const int32_t p = (i - 1) / 4;
        if (!before(st, v, heap[p]))
            break;
        heap[i] = heap[p];
        st[heap[i]].slot = i;
        i = p;
    }
    heap[i] = v;
    st[v].slot = i;
}

static lg_vertex_t pop_min(struct weighted_vertex *st, lg_vertex_t *heap, int32_t *len)
{
    const lg_vertex_t top = heap[0];
    st[top].slot = -1;
    const lg_vertex_t v = heap[--*len];
    if (*len == 0)
        return top;
    int32_t i = 0;
    for (;;) {
        const int32_t c = 4 * i + 1;
        if (c >= *len)
            break;
        int32_t best = c;
        const int32_t end = c + 4 < *len ? c + 4 : *len;
        for (int32_t j = c + 1; j < end; j++)
            if (before(st, heap[j], heap[best]))
                best = j;
        if (!before(st, heap[best], v))
            break;
        heap[i] = heap[best];
        st[heap[i]].slot = i;
        i = best;
    }
    heap[i] = v;
    st[v].slot = i;
    return top;
}

/* Adds s's dependencies to bc and arcs, as from_source_hops (weighted: w32
 * or w64, the other NULL). */
static void from_source_weighted(const struct lg_graph_view *g, lg_vertex_t s, bool endpoints,
                                 const unsigned char *targets, const float *w32, const double *w64,
                                 struct weighted_vertex *st, lg_vertex_t *order, lg_vertex_t *heap,
                                 double *bc, double *arcs)
{
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *idx = g->out.indices;
    int32_t len = 0, settled = 0;
    st[s].dist = 0.0;
    st[s].val = 1.0;
    heap[len++] = s;
    st[s].slot = 0;
    while (len > 0) {
        const lg_vertex_t u = pop_min(st, heap, &len);
        st[u].rank = settled;
        order[settled++] = u;
        const double du = st[u].dist, su = st[u].val;
        for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
            const lg_vertex_t v = idx[e];
            struct weighted_vertex *t = &st[v];
            if (t->rank >= 0)
                continue;
            const double d = du + lg_arc_weight(w32, w64, e);
            if (d < t->dist) {
                t->dist = d;
                t->val = su;
                if (t->slot < 0) {
                    heap[len] = v;
                    sift_up(st, heap, len++);
                } else {
                    sift_up(st, heap, t->slot);
                }
            } else if (d == t->dist) {
                t->val += su;
            }
        }
    }
    for (int32_t i = settled - 1; i >= 0; i--) {
        const lg_vertex_t w = order[i];
        const double dw = st[w].dist;
        double sum = 0.0;
        for (lg_edge_t e = off[w]; e < off[w + 1]; e++) {
            const struct weighted_vertex *t = &st[idx[e]];
            if (t->rank > i && dw + lg_arc_weight(w32, w64, e) == t->dist) {
                sum += t->val;
                if (arcs)
                    arcs[e] += st[w].val * t->val;
            }
        }
        const double delta = st[w].val * sum;
        if (bc && w != s)
            bc[w] += endpoints ? delta + 1.0 : delta;
        st[w].val = (is_target(targets, w) + delta) / st[w].val;
    }
    if (bc && endpoints)
        bc[s] += (double)(settled - 1);
    for (int32_t i = 0; i < settled; i++) {
        st[order[i]].dist = INFINITY;
        st[order[i]].rank = -1;
    }
}

/* Sources [first, last) on the threads, source i on thread i % threads. */
static void step(const void *work, int64_t first, int64_t last)
{
    const struct work *w = work;
    const struct lg_graph_view *g = w->g;
    const struct lg_betweenness_args *a = w->a;
    const int64_t n = g->n;
#pragma omp parallel num_threads(w->threads)
    {
        const int t = omp_get_thread_num();
        lg_vertex_t *order = w->order + (size_t)t * (size_t)n;
        double *sums = w->sums + (size_t)t * w->len;
        double *bc = w->per_arc ? NULL : sums, *arcs = w->per_arc ? sums : NULL;
#pragma omp for schedule(static, 1)
        for (int64_t i = first; i < last; i++) {
            const lg_vertex_t s = a->sources ? a->sources[i] : (lg_vertex_t)i;
            if (w->hop)
                from_source_hops(g, s, a->endpoints, w->targets, &w->hop[t], order, bc, arcs);
            else
                from_source_weighted(g, s, a->endpoints, w->targets,
                                     g->out.weights64 ? NULL : g->out.weights, g->out.weights64,
                                     w->wv + (size_t)t * (size_t)n, order,
                                     w->heap + (size_t)t * (size_t)n, bc, arcs);
        }
    }
}

/* An undirected graph's per-arc sums into its edges' values (fold_edges.h). */
static void fold_edges(const struct lg_graph_view *g, int threads, double *c)
{
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256)
    for (int64_t u = 0; u < g->n; u++)
        lg_fold_row(g->out.offsets, g->out.indices, u, c);
}

lg_status_t LG_CPU_TWIN(brandes)(const struct lg_exec *x, const struct lg_graph_view *g,
                                 const struct lg_betweenness_args *a, bool per_arc,
                                 const unsigned char *targets)
{
    const int64_t n = g->n, k = a->num_sources;
    int threads = x->num_threads;
    if (threads > k)
        threads = (int)k;
    struct work w = {.g = g, .a = a, .threads = threads, .per_arc = per_arc, .targets = targets};
    w.len = per_arc ? (size_t)g->m : (size_t)n;
    const size_t tn = (size_t)threads * (size_t)n, words = (size_t)(g->m + 63) / 64;
    const size_t tlen = (size_t)threads * w.len;
    const bool weighted = a->use_weights && g->out.weights;
    /* each allocation on one line: its site is the line */
    static const char what[] = "lg_betweenness";
    if (weighted) {
        w.wv = lg__alloc_array(tn, sizeof *w.wv, what);
        w.heap = lg__alloc_array(tn, sizeof *w.heap, what);
    } else {
        w.hop = lg__alloc_array((size_t)threads, sizeof *w.hop, what);
        w.levels = lg__alloc_array(tn, sizeof *w.levels, what);
        w.vals = lg__alloc_array(tn, sizeof *w.vals, what);
        w.bits = lg__alloc_array((size_t)threads * words, sizeof *w.bits, what);
    }
    w.order = lg__alloc_array(tn, sizeof *w.order, what);
    w.sums = lg__alloc_array(tlen ? tlen : 1, sizeof *w.sums, what);
    /* an edge's ends are on every path it is on: NetworkX scales edge
     * betweenness as a vertex's with endpoints */
    struct lg_betweenness_args scaled = *a;
    scaled.endpoints = scaled.endpoints || per_arc;
    const struct lg_betweenness_scale scale =
        targets ? lg_betweenness_subset_scale_of(a, n, g->directed)
                : lg_betweenness_scale_of(&scaled, n, g->directed);
    unsigned char *mark = scale.by_source ? lg__alloc_array((size_t)n, 1, what) : NULL;
    lg_status_t st = LG_OK;
    if ((weighted ? !w.wv || !w.heap : !w.hop || !w.levels || !w.vals || !w.bits) || !w.order ||
        !w.sums || (scale.by_source && !mark)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto done;
    }
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static) nowait
        for (size_t i = 0; i < tlen; i++)
            w.sums[i] = 0.0;
#pragma omp for schedule(static)
        for (size_t i = 0; i < tn; i++) {
            if (weighted)
                w.wv[i] = (struct weighted_vertex){INFINITY, 0.0, -1, -1};
            else
                w.levels[i] = -1;
        }
    }
    if (!weighted) {
        memset(w.bits, 0, (size_t)threads * words * sizeof *w.bits);
        for (int t = 0; t < threads; t++)
            w.hop[t] = (struct hops){w.levels + (size_t)t * (size_t)n,
                                     w.vals + (size_t)t * (size_t)n, w.bits + (size_t)t * words};
    }
    if ((st = lg__cpu_in_steps(x, LG_STAGE_BETWEENNESS, k, STEP_SOURCES, SOURCES_A_THREAD, threads,
                               step, &w)) != LG_OK)
        goto done;
    double *c = a->centrality;
    const int64_t len = (int64_t)w.len;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < len; i++) {
        double sum = w.sums[i];
        for (int t = 1; t < threads; t++)
            sum += w.sums[(size_t)t * w.len + (size_t)i];
        c[i] = sum;
    }
    if (per_arc && !g->directed)
        fold_edges(g, threads, c);
    if (mark) {
        memset(mark, 0, (size_t)n);
        for (int64_t i = 0; i < k; i++)
            mark[a->sources[i]] = 1;
    }
    if (scale.apply) { /* NetworkX's scaling (betweenness_scale.h) */
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t i = 0; i < len; i++)
            c[i] *= mark && mark[i] ? scale.source : scale.other;
    }
done:
    lg__free(w.hop);
    lg__free(w.levels);
    lg__free(w.vals);
    lg__free(w.bits);
    lg__free(w.wv);
    lg__free(w.heap);
    lg__free(w.order);
    lg__free(w.sums);
    lg__free(mark);
    return st;
}

static lg_status_t betweenness(const struct lg_exec *x, const struct lg_graph_view *g,
                               const void *args)
{
    return LG_CPU_TWIN(brandes)(x, g, args, false, NULL);
}

/* Reads the out-arcs only. */
const struct lg_kernel LG_CPU_ROW(betweenness) = {LG_ALG_BETWEENNESS, betweenness, false};
