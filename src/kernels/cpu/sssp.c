/*
 * sssp.c - single-source shortest paths on the CPU: delta-stepping.
 *
 * Returns: dist[v] = the length of a shortest path along out-edges from the
 * nearest source (INFINITY when unreached, beyond the cutoff, or farther
 * than the target when there is one); on request pred[v] = an in-neighbour
 * on a shortest path (a source is its own, -1 when unreached).
 *
 * Method: Meyer and Sanders, "Delta-stepping: a parallelizable shortest path
 * algorithm", J. Algorithms 49 (2003), in the shape of GAPBS's sssp.cc:
 * tentative distances in buckets of width delta; the lowest non-empty bucket
 * is relaxed in parallel, every out-edge of its vertices at once (light and
 * heavy edges alike, as GAPBS does), until it stays empty, then the next.
 * A vertex whose distance drops is pushed into the bucket of its new
 * distance; the old entry becomes stale and is skipped when its bucket comes
 * up (its distance is then below the bucket's start).  A distance drops by
 * an atomic compare-and-swap, so concurrent relaxations keep the smallest.
 *
 * Buckets are per thread, so a push touches no shared memory; a round copies
 * every thread's part of the current bucket into one shared frontier, which
 * the threads relax with dynamic scheduling.  A thread keeps BINS buckets
 * ahead of a base; a distance beyond them goes to its far list, which is
 * re-bucketed from the smallest far distance once every near bucket is
 * empty, so that a delta small for the weights costs rounds, not memory.
 *
 * Distances are doubles, each the sum of its path's weights (float32 widened,
 * or a float64 graph's exact ones)
 * added from the source outwards, as NetworkX adds Python floats: the
 * relaxation computes dist[u] + w exactly as Dijkstra does, and since that
 * sum is monotone in dist[u], every order of relaxations ends at the same
 * fixed point dist[v] = min over in-edges of dist[u] + w(u, v).
 *
 * Predecessors come after the distances: a level-synchronous search from
 * the sources at distance 0 (with negative weights, a source may be reached
 * below 0 from another) over the tight edges (dist[u] + w == dist[v]) claims
 * each vertex once.  Every reached vertex has a tight path from such a
 * source (the one Dijkstra would find), and the search follows only such paths, so a chain
 * of predecessors always ends at a source, even through zero-weight cycles,
 * where "the smallest tight in-neighbour" could go round in a loop.
 *
 * delta: the graph's mean weight (sampled) times DELTA_FACTOR over its mean
 * degree; unweighted graphs take 1 (a bucket a BFS level).  The measurements
 * behind it are in docs/decisions/sssp-delta.md.
 *
 * Cost: O(m + n) relaxations when delta is small for the weights, more as
 * delta grows (a vertex relaxed again within its bucket); O(rounds) barriers.
 * Memory: the frontier (grown to the largest bucket), the threads' buckets.
 */
#include "cpu.h"
#include "frontier.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void) { return 0; }
#endif

/* Buckets a thread holds ahead of its base; farther ones go to its far list. */
#define BINS 16384
/* Frontier vertices a task of the relaxation takes. */
#define RELAX_CHUNK 64
/* Frontier vertices ahead whose rows are asked for (twice as far: their
 * offsets), and arcs ahead within a row whose distances are. */
#define AHEAD 8
#define ROW_AHEAD 16
/* Rounds between two reports to the progress callback (which is called
 * outside the parallel region). */
#define REPORT_ROUNDS 256
/* delta = DELTA_FACTOR * mean weight / mean degree (the top says why). */
#define DELTA_FACTOR 1.0
/* Arcs sampled for the mean weight. */
#define WEIGHT_SAMPLES 4096

struct bin {
    lg_vertex_t *v;
    int64_t len, cap;
};

/* One thread's buckets: bins[k] holds the vertices of bucket base + k. */
struct lane {
    struct bin *bins;
    int64_t nbins;
    struct bin far;
    char pad[64]; /* lanes of neighbouring threads on different lines */
};

/* What the threads share between rounds. */
struct step {
    lg_vertex_t *frontier;
    int64_t cap, tail;
    double base;     /* the bucket number of every lane's bins[0] */
    int64_t curr;    /* the bucket being relaxed, relative to base */
    int64_t next;    /* the smallest non-empty bucket found (a reduction) */
    int64_t far;     /* far entries over the threads (a reduction) */
    double far_min;  /* the smallest bucket among far entries (a reduction) */
    int64_t need;    /* the current bucket's entries over the threads */
    int64_t rounds;
    bool failed, stop, pause, rebase;
};

static bool bin_push(struct bin *b, lg_vertex_t v)
{
    if (b->len == b->cap) {
        const int64_t cap = b->cap ? 2 * b->cap : 256;
        lg_vertex_t *a = lg__malloc((size_t)cap * sizeof *a);
        if (!a)
            return false;
        if (b->len)
            memcpy(a, b->v, (size_t)b->len * sizeof *a);
        lg__free(b->v);
        b->v = a;
        b->cap = cap;
    }
    b->v[b->len++] = v;
    return true;
}

/* Pushes v into bucket `rel` (relative to the base) of its thread's lane.
 * Buckets are always floor(distance / delta), compared as such (never as
 * products), so that a vertex never lands below the bucket it came from. */
static bool lane_push(struct lane *l, double rel, lg_vertex_t v)
{
    if (rel >= BINS)
        return bin_push(&l->far, v);
    const int64_t k = (int64_t)rel;
    if (k >= l->nbins) {
        int64_t nb = l->nbins ? 2 * l->nbins : 64;
        while (nb <= k)
            nb *= 2;
        if (nb > BINS)
            nb = BINS;
        struct bin *b = lg__malloc((size_t)nb * sizeof *b);
        if (!b)
            return false;
        if (l->nbins)
            memcpy(b, l->bins, (size_t)l->nbins * sizeof *b);
        memset(b + l->nbins, 0, (size_t)(nb - l->nbins) * sizeof *b);
        lg__free(l->bins);
        l->bins = b;
        l->nbins = nb;
    }
    return bin_push(&l->bins[k], v);
}

static void lanes_free(struct lane *lanes, int threads)
{
    if (!lanes)
        return;
    for (int t = 0; t < threads; t++) {
        for (int64_t k = 0; k < lanes[t].nbins; k++)
            lg__free(lanes[t].bins[k].v);
        lg__free(lanes[t].bins);
        lg__free(lanes[t].far.v);
    }
    lg__free(lanes);
}

/* The bucket width the top of the file describes. */
static double choose_delta(const struct lg_graph_view *g, const float *w)
{
    if (!w || g->m == 0)
        return 1.0;
    const double mean_weight = lg_sampled_mean_weight(g, w, WEIGHT_SAMPLES);
    const double mean_degree = (double)g->m / (double)g->n;
    const double delta = DELTA_FACTOR * mean_weight / (mean_degree > 1.0 ? mean_degree : 1.0);
    return delta > 0.0 && isfinite(delta) ? delta : 1.0;
}

static inline void atomic_min_i64(int64_t *p, int64_t v)
{
    int64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
}

static inline void atomic_min_f64(double *p, double v)
{
    double old;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    while (v < old &&
           !__atomic_compare_exchange(p, &old, &v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* Called by every thread of the region: finds the smallest non-empty
 * bucket over the lanes, then one thread decides what comes next. */
static void find_next(struct step *s, struct lane *me, const double *dist, lg_vertex_t target,
                      double delta, bool reporting)
{
    int64_t k = s->curr;
    while (k < me->nbins && me->bins[k].len == 0)
        k++;
    if (k < me->nbins)
        atomic_min_i64(&s->next, k);
    if (me->far.len)
        __atomic_fetch_add(&s->far, me->far.len, __ATOMIC_RELAXED);
#pragma omp barrier
#pragma omp single
    {
        const int64_t next = s->next, far = s->far;
        s->next = INT64_MAX;
        s->far = 0;
        s->need = 0;
        s->rebase = false;
        if (s->failed) {
            s->stop = true;
        } else {
            /* every bucket below `next` (below BINS when only far ones are
             * left) is done: the target's distance is final once it is there */
            const int64_t done = next != INT64_MAX ? next : BINS;
            if (target >= 0 && dist[target] < INFINITY && floor(dist[target] / delta) - s->base < done)
                s->stop = true;
            else if (next != INT64_MAX)
                s->curr = next;
            else if (far == 0)
                s->stop = true;
            else
                s->rebase = true, s->far_min = INFINITY;
        }
        s->rounds++;
        s->pause = !s->stop && reporting && s->rounds % REPORT_ROUNDS == 0;
    }
}

/* Moves the far entries into buckets from the smallest far distance on; a
 * far entry whose distance has since dropped below BINS is stale (its vertex
 * was pushed again, into a near bucket, and relaxed there). */
static void rebase(struct step *s, struct lane *me, const double *dist, double delta)
{
    double lowest = INFINITY;
    for (int64_t i = 0; i < me->far.len; i++) {
        const double b = floor(dist[me->far.v[i]] / delta);
        if (b - s->base >= BINS && b < lowest)
            lowest = b;
    }
    atomic_min_f64(&s->far_min, lowest);
#pragma omp barrier
    const double old_base = s->base;
#pragma omp barrier
#pragma omp single
    {
        if (s->far_min < INFINITY)
            s->base = s->far_min;
        s->curr = 0;
    }
    int64_t kept = 0;
    for (int64_t i = 0; i < me->far.len; i++) {
        const lg_vertex_t v = me->far.v[i];
        const double b = floor(dist[v] / delta);
        if (b - old_base < BINS)
            continue; /* stale */
        if (b - s->base >= BINS)
            me->far.v[kept++] = v;
        else if (!lane_push(me, b - s->base, v))
            __atomic_store_n(&s->failed, true, __ATOMIC_RELAXED);
    }
    me->far.len = kept;
}

/* Relaxes the out-edges of the frontier's vertices (those still in the
 * current bucket), pushing each vertex whose distance drops.  Inlined into
 * relax() once for each weight array, so that the loop reads one. */
static inline __attribute__((always_inline)) void
relax_with(struct step *s, struct lane *me, const struct lg_graph_view *g,
           const struct lg_sssp_args *a, const float *w, const double *w64, double delta)
{
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *adj = g->out.indices;
    double *dist = a->dist;
    const double curr = s->base + (double)s->curr, cutoff = a->cutoff;
    bool failed = false;
    const int64_t tail = s->tail;
    const lg_vertex_t *frontier = s->frontier;
#pragma omp for schedule(dynamic, RELAX_CHUNK) nowait
    for (int64_t i = 0; i < tail; i++) {
        /* rows come in no order: their offsets, arcs and weights are asked
         * for ahead, and the row's distances before its first
         * compare-and-swap, a locked instruction that holds back the loads
         * after it */
        if (i + 2 * AHEAD < tail)
            __builtin_prefetch(&off[frontier[i + 2 * AHEAD]]);
        if (i + AHEAD < tail) {
            const lg_vertex_t ahead = frontier[i + AHEAD];
            __builtin_prefetch(&adj[off[ahead]]);
            if (w)
                __builtin_prefetch(&w[off[ahead]]);
            if (w64)
                __builtin_prefetch(&w64[off[ahead]]);
            __builtin_prefetch(&dist[ahead]);
        }
        const lg_vertex_t u = frontier[i];
        double du;
        __atomic_load(&dist[u], &du, __ATOMIC_RELAXED);
        if (floor(du / delta) < curr)
            continue; /* stale: relaxed from an earlier bucket */
        for (lg_edge_t e = off[u]; e < off[u + 1] && e < off[u] + ROW_AHEAD; e++)
            __builtin_prefetch(&dist[adj[e]]);
        for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
            if (e + ROW_AHEAD < off[u + 1])
                __builtin_prefetch(&dist[adj[e + ROW_AHEAD]]);
            const lg_vertex_t v = adj[e];
            double nd = du + lg_arc_weight(w, w64, e), old;
            if (nd > cutoff)
                continue;
            __atomic_load(&dist[v], &old, __ATOMIC_RELAXED);
            while (nd < old) {
                if (__atomic_compare_exchange(&dist[v], &old, &nd, true, __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED)) {
                    failed |= !lane_push(me, floor(nd / delta) - s->base, v);
                    break;
                }
            }
        }
    }
    if (failed)
        __atomic_store_n(&s->failed, true, __ATOMIC_RELAXED);
}

static void relax(struct step *s, struct lane *me, const struct lg_graph_view *g,
                  const struct lg_sssp_args *a, const float *w, const double *w64, double delta)
{
    if (w64)
        relax_with(s, me, g, a, NULL, w64, delta);
    else if (w)
        relax_with(s, me, g, a, w, NULL, delta);
    else
        relax_with(s, me, g, a, NULL, NULL, delta);
}

/* Copies every lane's part of the current bucket into the frontier,
 * growing it first when it is too small. */
static void gather(struct step *s, struct lane *me)
{
    struct bin *b = s->curr < me->nbins ? &me->bins[s->curr] : NULL;
    const int64_t len = b ? b->len : 0;
    __atomic_fetch_add(&s->need, len, __ATOMIC_RELAXED);
#pragma omp barrier
#pragma omp single
    {
        s->tail = 0;
        if (s->need > s->cap) {
            const int64_t cap = s->need > 2 * s->cap ? s->need : 2 * s->cap;
            lg_vertex_t *f = lg__malloc((size_t)cap * sizeof *f);
            if (f) {
                lg__free(s->frontier);
                s->frontier = f;
                s->cap = cap;
            } else {
                s->failed = s->stop = true;
            }
        }
    }
    if (s->stop)
        return;
    if (len) {
        const int64_t at = __atomic_fetch_add(&s->tail, len, __ATOMIC_RELAXED);
        memcpy(s->frontier + at, b->v, (size_t)len * sizeof *b->v);
        b->len = 0;
    }
#pragma omp barrier
}

/* The tight-edge search of the top of the file: pred[v] for every v that a
 * path of tight arcs reaches from a source, -1 for the rest. */
static lg_status_t predecessors(const struct lg_graph_view *g, const struct lg_sssp_args *a,
                                lg_vertex_t *pred, const float *w, const double *w64, int threads)
{
    const int64_t n = g->n;
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *adj = g->out.indices;
    const double *dist = a->dist;
    static const char what[] = "lg_sssp: the predecessors' queues";
    lg_vertex_t *queue = lg__alloc_array((size_t)n, 2 * sizeof *queue, what);
    if (!queue)
        return LG_ERR_OUT_OF_MEMORY;
    lg_vertex_t *curr = queue, *next = queue + n;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        pred[v] = -1;
    int64_t size = 0;
    for (int64_t i = 0; i < a->num_sources; i++) {
        const lg_vertex_t s = a->sources[i];
        if (pred[s] < 0 && dist[s] == 0.0) /* below 0: reached from another source */
            pred[s] = s, curr[size++] = s;
    }
    while (size > 0) {
        int64_t tail = 0;
#pragma omp parallel num_threads(lg__team_size(threads, size * 16))
        {
            struct lg__frontier_buffer b = {.count = 0};
#pragma omp for schedule(dynamic, RELAX_CHUNK) nowait
            for (int64_t i = 0; i < size; i++) {
                const lg_vertex_t u = curr[i];
                const double du = dist[u];
                for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
                    const lg_vertex_t v = adj[e];
                    lg_vertex_t none = -1;
                    if (du + lg_arc_weight(w, w64, e) == dist[v] &&
                        __atomic_load_n(&pred[v], __ATOMIC_RELAXED) < 0 &&
                        __atomic_compare_exchange_n(&pred[v], &none, u, false, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED))
                        lg__frontier_push(&b, next, &tail, v);
                }
            }
            lg__frontier_flush(&b, next, &tail);
        }
        lg_vertex_t *t = curr;
        curr = next, next = t, size = tail;
    }
    lg__free(queue);
    return LG_OK;
}

#include "bellman_ford.h"

/* Bellman-Ford (bellman_ford.h), then the cutoff on the final distances: a
 * negative arc can bring a path that left it back within, so a vertex is
 * reached when some shortest path to it stays within it, the tight-arc
 * search from the sources over the vertices no farther (predecessors, into
 * a scratch array when the call asked for none); the rest are unreached.
 * The target filters nothing: every distance is final at once, and the
 * path to the target may pass vertices farther than it. */
static lg_status_t negative_weights(const struct lg_exec *x, const struct lg_graph_view *g,
                                    const struct lg_sssp_args *a, const float *w,
                                    const double *w64, int threads)
{
    lg_status_t st = bellman_ford(x, g, a, w, w64, threads);
    if (st != LG_OK)
        return st;
    double *dist = a->dist;
    const double limit = a->cutoff;
    if (!(limit < INFINITY))
        return a->predecessors ? predecessors(g, a, a->predecessors, w, w64, threads) : LG_OK;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < g->n; v++)
        if (dist[v] > limit)
            dist[v] = INFINITY;
    lg_vertex_t *scratch = NULL, *pred = a->predecessors;
    if (!pred) {
        scratch = lg__alloc_array((size_t)g->n, sizeof *scratch, "lg_sssp: the reached set");
        if (!(pred = scratch))
            return LG_ERR_OUT_OF_MEMORY;
    }
    st = predecessors(g, a, pred, w, w64, threads);
    if (st == LG_OK) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t v = 0; v < g->n; v++)
            if (pred[v] < 0)
                dist[v] = INFINITY;
    }
    lg__free(scratch);
    return st;
}

static lg_status_t sssp(const struct lg_exec *x, const struct lg_graph_view *g, const void *args)
{
    const struct lg_sssp_args *a = args;
    const int64_t n = g->n;
    const double *w64 = a->use_weights ? g->out.weights64 : NULL;
    const float *w = a->use_weights && !w64 ? g->out.weights : NULL;
    const int threads = lg__team_size(x->num_threads, g->n + g->m);
    double *dist = a->dist;
    if (a->bellman_ford)
        return negative_weights(x, g, a, w, w64, threads);
    const double delta = a->delta > 0.0 ? a->delta : choose_delta(g, g->out.weights);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        dist[v] = INFINITY;

    /* the frontier starts small and doubles: most buckets hold few vertices */
    struct step s = {.cap = 16, .next = INT64_MAX};
    struct lane *lanes = lg__calloc((size_t)threads, sizeof *lanes);
    s.frontier = lg__malloc((size_t)s.cap * sizeof *s.frontier);
    lg_status_t st = LG_OK;
    if (!lanes || !s.frontier)
        goto out_of_memory;
    for (int64_t i = 0; i < a->num_sources; i++) {
        const lg_vertex_t v = a->sources[i];
        if (dist[v] > 0.0) {
            dist[v] = 0.0;
            if (!lane_push(&lanes[0], 0.0, v))
                goto out_of_memory;
        }
    }
    const bool reporting = x->progress.fn != NULL;
    while (!s.stop) {
        s.pause = false;
#pragma omp parallel num_threads(threads)
        {
            struct lane *me = &lanes[omp_get_thread_num()];
            for (;;) {
                if (s.rebase) {
                    rebase(&s, me, dist, delta);
                    find_next(&s, me, dist, a->target, delta, reporting);
                    if (s.stop || s.pause)
                        break;
                    if (s.rebase)
                        continue;
                }
                gather(&s, me);
                if (s.stop)
                    break;
                relax(&s, me, g, a, w, w64, delta);
                find_next(&s, me, dist, a->target, delta, reporting);
                if (s.stop || s.pause)
                    break;
            }
        }
        if (s.failed)
            goto out_of_memory;
        if (s.pause &&
            !lg_exec_go_on(x, LG_STAGE_SSSP, s.rounds, -1, (s.base + (double)s.curr) * delta)) {
            st = LG_ERR_CANCELLED;
            goto done;
        }
    }
    if (a->target >= 0 && dist[a->target] < INFINITY) {
        const double limit = dist[a->target];
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t v = 0; v < n; v++)
            if (dist[v] > limit)
                dist[v] = INFINITY;
    }
    if (a->predecessors)
        st = predecessors(g, a, a->predecessors, w, w64, threads);
    goto done;
out_of_memory:
    st = lg__error(LG_ERR_OUT_OF_MEMORY, "lg_sssp: out of memory for the buckets");
done:
    lanes_free(lanes, threads);
    lg__free(s.frontier);
    return st;
}

const struct lg_kernel LG_CPU_ROW(sssp) = {LG_ALG_SSSP, sssp, false};
