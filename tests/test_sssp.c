/*
 * test_sssp.c - lg_sssp against a plain binary-heap Dijkstra written here,
 * with contexts of 1, 2 and 3 threads.
 *
 * Distances exactly Dijkstra's (weights are multiples of 1/8, or 0, so that
 * sums are exact in float and double alike; a distance is a sum either
 * way, so equality is exact), on the random shapes of oracle_shapes.h
 * directed and undirected, weighted and not, with zero weights and
 * all-equal weights (ties), one source and several, cutoffs and targets;
 * long chains with a delta small enough that most buckets lie beyond each
 * thread's near ones (the far lists) and one large enough that everything
 * is one bucket; larger random graphs that take the parallel paths.
 * Predecessors checked for what lg_sssp promises (a tight in-arc, a chain
 * that ends at a source), and refusals, messages and cancellation.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "oracle_shapes.h"
#include "test_util.h"

#include <math.h>

static long sssp_runs;

/* ---- the oracle: Dijkstra with a binary heap and lazy deletion ------------------------- */

struct heap_item {
    double d;
    lg_vertex_t v;
};

static void heap_push(struct heap_item *h, int64_t *len, struct heap_item x)
{
    int64_t i = (*len)++;
    while (i > 0 && h[(i - 1) / 2].d > x.d) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static struct heap_item heap_pop(struct heap_item *h, int64_t *len)
{
    struct heap_item top = h[0], x = h[--*len];
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= *len)
            break;
        if (c + 1 < *len && h[c + 1].d < h[c].d)
            c++;
        if (h[c].d >= x.d)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*len > 0)
        h[i] = x;
    return top;
}

/* dist[v] from the nearest of the sources, INFINITY when unreached; weights
 * used when use_weights and the graph has them, else 1. */
static void dijkstra(const or_graph *g, const lg_vertex_t *sources, int64_t k, bool use_weights,
                     double *dist)
{
    struct heap_item *h = or_alloc((size_t)g->m + (size_t)k + 1, sizeof *h);
    int64_t len = 0;
    for (int64_t v = 0; v < g->n; v++)
        dist[v] = INFINITY;
    for (int64_t i = 0; i < k; i++) {
        dist[sources[i]] = 0.0;
        heap_push(h, &len, (struct heap_item){0.0, sources[i]});
    }
    while (len > 0) {
        struct heap_item it = heap_pop(h, &len);
        if (it.d > dist[it.v])
            continue;
        for (lg_edge_t e = g->off[it.v]; e < g->off[it.v + 1]; e++) {
            const double nd = it.d + (use_weights && g->w ? (double)g->w[e] : 1.0);
            if (nd < dist[g->idx[e]]) {
                dist[g->idx[e]] = nd;
                heap_push(h, &len, (struct heap_item){nd, g->idx[e]});
            }
        }
    }
    free(h);
}

/* -1 when the predecessors keep lg_sssp's promise, else the first vertex
 * that breaks it. */
static int64_t check_predecessors(const or_graph *g, const lg_vertex_t *sources, int64_t k,
                                  bool use_weights, const double *dist, const lg_vertex_t *pred)
{
    for (int64_t v = 0; v < g->n; v++) {
        bool source = false;
        for (int64_t i = 0; i < k; i++)
            source |= sources[i] == v;
        if (source) {
            if (pred[v] != v)
                return v;
            continue;
        }
        if (dist[v] == INFINITY) {
            if (pred[v] != -1)
                return v;
            continue;
        }
        const lg_vertex_t u = pred[v];
        if (u < 0 || u >= g->n)
            return v;
        bool tight = false;
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++)
            tight |= g->idx[e] == v &&
                     dist[u] + (use_weights && g->w ? (double)g->w[e] : 1.0) == dist[v];
        if (!tight)
            return v;
        /* the chain ends at a source within n steps */
        lg_vertex_t x = (lg_vertex_t)v;
        int64_t steps = 0;
        while (pred[x] != x && steps <= g->n)
            x = pred[x], steps++;
        if (steps > g->n)
            return v;
    }
    return -1;
}

/* ---- one graph ------------------------------------------------------------------------ */

struct query {
    lg_vertex_t sources[3];
    int64_t k;
    bool use_weights;
    double cutoff, delta;
    lg_vertex_t target;
};

/* The query on every context: distances exactly the oracle's (cut as cutoff
 * and target say), identical on every context, predecessors valid. */
static void check_query(const lg_graph_t *g, const or_graph *o, const struct query *q)
{
    const int64_t n = o->n;
    double *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    lg_vertex_t *pred = or_alloc((size_t)n, sizeof *pred);
    dijkstra(o, q->sources, q->k, q->use_weights, want);
    double limit = q->cutoff;
    if (q->target >= 0 && want[q->target] < limit)
        limit = want[q->target];
    for (int64_t v = 0; v < n; v++)
        if (want[v] > limit)
            want[v] = INFINITY;
    for (int k = 0; k < NUM_CTX; k++) {
        lg_sssp_options_t opt;
        lg_sssp_options_init(&opt);
        opt.use_weights = q->use_weights;
        opt.cutoff = q->cutoff;
        opt.delta = q->delta;
        opt.target = q->target;
        opt.compute_predecessors = k != 1;
        for (int64_t v = 0; v < n; v++)
            got[v] = -7.0, pred[v] = -7;
        const lg_status_t st =
            lg_sssp(ctx[k], g, q->sources, q->k, &opt, got, opt.compute_predecessors ? pred : NULL);
        sssp_runs++;
        CHECK(st == LG_OK);
        if (st != LG_OK) {
            report("lg_sssp, %d threads: %s: %s", k + 1, lg_status_string(st), lg_last_error());
            continue;
        }
        CHECK(or_ran_on_expected(true));
        int64_t bad = -1;
        for (int64_t v = 0; v < n && bad < 0; v++)
            if (got[v] != want[v])
                bad = v;
        CHECK(bad < 0);
        if (bad >= 0)
            report("lg_sssp, %d threads, %lld sources, weights %d, cutoff %g, target %d, delta %g: "
                   "distance of %lld is %.17g, want %.17g",
                   k + 1, (long long)q->k, (int)q->use_weights, q->cutoff, (int)q->target,
                   q->delta, (long long)bad, got[bad], want[bad]);
        if (opt.compute_predecessors) {
            const int64_t wrong = check_predecessors(o, q->sources, q->k, q->use_weights, got, pred);
            CHECK(wrong < 0);
            if (wrong >= 0)
                report("lg_sssp, %d threads: predecessor of %lld is %d (distance %.17g)", k + 1,
                       (long long)wrong, (int)pred[wrong], got[wrong]);
        }
    }
    free(want);
    free(got);
    free(pred);
}

/* A few queries on one graph: one source, several, a cutoff, a target, an
 * unweighted search, and the deltas given. */
static void check_graph(const lg_graph_t *g, const or_graph *o, unsigned long long *rng,
                        const double *deltas, int num_deltas)
{
    if (o->n == 0)
        return;
    for (int qi = 0; qi < 5; qi++) {
        struct query q = {.k = 1, .use_weights = qi != 3, .cutoff = INFINITY, .target = -1};
        q.delta = deltas[qi % num_deltas];
        q.sources[0] = (lg_vertex_t)or_rand_below(rng, o->n);
        if (qi == 1) {
            q.k = 3;
            q.sources[1] = (lg_vertex_t)or_rand_below(rng, o->n);
            q.sources[2] = q.sources[0]; /* repeated */
        }
        if (qi == 2)
            q.cutoff = (double)or_rand_below(rng, 40) / 4.0;
        if (qi == 4)
            q.target = (lg_vertex_t)or_rand_below(rng, o->n);
        check_query(g, o, &q);
    }
}

/* Weights: 0 with probability 1/4 (kind 1), all 1 (kind 2: every path of a
 * length ties), or as the shape made them (multiples of 1/8). */
static void reweigh(float *w, int64_t E, int kind, unsigned long long *rng)
{
    for (int64_t i = 0; i < E; i++)
        if (kind == 1 && or_rand_below(rng, 4) == 0)
            w[i] = 0.0f;
        else if (kind == 2)
            w[i] = 1.0f;
}

static void test_shapes(void)
{
    static const double deltas[] = {0.0, 0.125, 3.0, 1e6};
    for (int gi = 0, rounds = harness_rounds(288, 72); gi < rounds; gi++) {
        unsigned long long seed = 9400 + (unsigned long long)gi, rng = seed * 29 + 3;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool directed = (gi / OR_NUM_SHAPES) % 2 == 0;
        const int kind = (gi / (2 * OR_NUM_SHAPES)) % 3;
        reweigh(e.w, e.E, kind, &rng);
        set_subject("shape %s, seed %llu, %s, weights kind %d", e.shape, seed,
                    directed ? "directed" : "undirected", kind);
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, gi % 7 != 0, gi % NUM_CTX))
            check_graph(t.g, &t.o, &rng, deltas, 4);
        tgraph_free(&t);
        or_edges_free(&e);
    }
}

/* Long chains (far lists with a small delta), a chain of zero-weight
 * cycles, and larger random graphs (the parallel paths). */
static void test_larger(void)
{
    unsigned long long rng = 777;
    for (int variant = 0; variant < 3; variant++) {
        struct elist el;
        el_init(&el, 6000);
        el_path(&el, 0, 6000, false);
        for (int64_t i = 0; i < el.E; i++)
            el.w[i] = variant == 2 ? 0.0f : rand_weight(&rng);
        if (variant == 1)
            el_random(&el, 0, 6000, 3000, &rng); /* shortcuts */
        if (variant == 2)
            for (int64_t v = 0; v + 1 < 6000; v += 2)
                el_add(&el, v + 1, v, 0.0f); /* zero-weight two-cycles */
        el_permute(&el, &rng);
        set_subject("chain of 6000, variant %d", variant);
        struct tgraph t;
        static const double deltas[] = {0.001, 0.0, 1e9};
        if (tgraph_from_elist(&t, &el, true, true, variant % NUM_CTX))
            check_graph(t.g, &t.o, &rng, deltas, 3);
        tgraph_free(&t);
        el_free(&el);
    }
    for (int directed = 0; directed < 2; directed++) {
        struct elist el;
        el_init(&el, 40000);
        el_random(&el, 0, 40000, 200000, &rng);
        el_random(&el, 0, 300, 20000, &rng); /* a dense core: many equal-length paths */
        set_subject("random, 40000 vertices, %s", directed ? "directed" : "undirected");
        struct tgraph t;
        static const double deltas[] = {0.0, 0.5, 50.0};
        if (tgraph_from_elist(&t, &el, directed, true, 1))
            check_graph(t.g, &t.o, &rng, deltas, 3);
        tgraph_free(&t);
        el_free(&el);
    }
    /* a Kronecker graph, unweighted: distances are BFS's */
    struct tgraph t;
    set_subject("Kronecker scale 14, unweighted");
    if (tgraph_generate(&t, LG_GENERATOR_KRONECKER, 14, 8, 3, false, 0)) {
        static const double deltas[] = {0.0, 4.0};
        check_graph(t.g, &t.o, &rng, deltas, 2);
    }
    tgraph_free(&t);
}

static bool stop_at_third(const lg_progress_info_t *info, void *data)
{
    int *calls = data;
    CHECK(info->stage == LG_STAGE_SSSP);
    return ++*calls < 3;
}

static void test_refusals(void)
{
    struct elist el;
    el_init(&el, 3000);
    el_path(&el, 0, 3000, false);
    struct tgraph t;
    set_subject("path of 3000");
    if (!tgraph_from_elist(&t, &el, true, true, 0)) {
        el_free(&el);
        return;
    }
    double dist[3000];
    lg_vertex_t pred[3000], s = 0, bad = 3000;
    lg_sssp_options_t o;
    lg_sssp_options_init(&o);
    CHECK_STATUS(lg_sssp(ctx[0], NULL, &s, 1, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("graph is NULL");
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &bad, 1, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("source 3000 is not a vertex");
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &s, 0, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("num_sources < 1");
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &s, 1, &o, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("distances is NULL");
    o.compute_predecessors = true;
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &s, 1, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("predecessors is NULL");
    lg_sssp_options_init(&o);
    o.cutoff = -1.0;
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &s, 1, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("cutoff -1 is not >= 0");
    o.cutoff = NAN;
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &s, 1, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    lg_sssp_options_init(&o);
    o.target = 3000;
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &s, 1, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("target 3000 is not a vertex");
    lg_sssp_options_init(&o);
    o.delta = INFINITY;
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &s, 1, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("delta inf is not finite");
    o.delta = -2.0;
    CHECK_STATUS(lg_sssp(ctx[0], t.g, &s, 1, &o, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    /* cancellation: a bucket a vertex (delta 0.5, unit weights), reports
     * every few hundred of them */
    lg_sssp_options_init(&o);
    int calls = 0;
    o.delta = 0.5;
    o.progress = stop_at_third;
    o.progress_data = &calls;
    o.compute_predecessors = true;
    CHECK_STATUS(lg_sssp(ctx[1], t.g, &s, 1, &o, dist, pred), LG_ERR_CANCELLED);
    CHECK(calls == 3);
    CHECK_MESSAGE("cancelled");
    /* and the same search, not stopped, reaches the end of the path */
    o.progress_data = &(int){-1000000};
    CHECK_OK(lg_sssp(ctx[1], t.g, &s, 1, &o, dist, pred));
    CHECK(dist[2999] == 2999.0 && pred[2999] == 2998);
    tgraph_free(&t);
    el_free(&el);
}

static void print_runs(void)
{
    printf("%ld sssp runs\n", sssp_runs);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"sssp random shapes", test_shapes},
        {"sssp larger graphs", test_larger},
        {"sssp refusals", test_refusals},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_runs);
}
