/*
 * test_bellman_ford.c - lg_sssp with negative weights against a plain
 * Bellman-Ford written here (n - 1 passes over every arc, then one more
 * to find a negative cycle), with contexts of 1, 2 and 3 threads, on
 * float32 and float64 graphs.
 *
 * Graphs without negative cycles: random directed graphs whose weights are
 * w(u, v) + p(u) - p(v) for integer w >= 0 and integer potentials p (every
 * cycle keeps its non-negative length, most arcs turn negative), DAGs with
 * any integer weights, and the same graphs with weights in multiples of
 * 1/16 (exact in float32 too) or of 0.1 (float64 graphs only): distances
 * must equal the oracle's bit for bit, as NetworkX's sums would.  Graphs with one: a
 * planted negative cycle reachable from the source (LG_ERR_UNBOUNDED, the
 * vertex named lies on a negative closed walk), the same cycle unreachable
 * (no error), an undirected graph with one negative edge, cycles whose
 * negative sum rounding hides (through the source: LG_ERR_UNBOUNDED as the
 * search settles with the source below 0), sources lowered below 0 by
 * another's path (no cycle: such a source has a predecessor).  Also: cutoff and
 * target (a vertex stays reached when a shortest path to it keeps within
 * them; Bellman-Ford keeps those past the target), predecessors tight and ending at a source, with and without them,
 * LG_SSSP_BELLMAN_FORD on non-negative weights, delta-stepping's refusal,
 * PageRank's refusal, cancellation.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static long runs;
/* weights that float32 would round (multiples of 0.1): float64 graphs only */
static bool wide_only;

struct wgraph {
    int64_t n, E;
    lg_vertex_t *src, *dst;
    double *w;
};

/* dist from the sources by n - 1 passes; true when a further pass still
 * lowers a distance (a negative cycle reachable). */
static bool oracle(const struct wgraph *g, bool directed, const lg_vertex_t *sources, int k,
                   double *dist)
{
    for (int64_t v = 0; v < g->n; v++)
        dist[v] = INFINITY;
    for (int i = 0; i < k; i++)
        dist[sources[i]] = 0.0;
    for (int64_t pass = 0; pass <= g->n; pass++) {
        bool changed = false;
        for (int64_t i = 0; i < g->E; i++)
            for (int dir = 0; dir < (directed ? 1 : 2); dir++) {
                const lg_vertex_t u = dir ? g->dst[i] : g->src[i], v = dir ? g->src[i] : g->dst[i];
                if (dist[u] + g->w[i] < dist[v])
                    dist[v] = dist[u] + g->w[i], changed = true;
            }
        if (!changed)
            return false;
        if (pass == g->n)
            return true;
    }
    return false;
}

/* Cutoff and target on the oracle's distances: a vertex stays reached when
 * a shortest path to it keeps within limit, that is when tight arcs (dist[u]
 * + w == dist[v]) join it to a source through vertices within limit. */
static void keep_within(const struct wgraph *g, bool directed, const lg_vertex_t *sources, int k,
                        double limit, double *dist)
{
    bool *in = or_alloc((size_t)g->n + 1, sizeof *in);
    for (int64_t v = 0; v < g->n; v++)
        in[v] = false;
    for (int i = 0; i < k; i++)
        in[sources[i]] = dist[sources[i]] <= limit;
    for (bool changed = true; changed;) {
        changed = false;
        for (int64_t i = 0; i < g->E; i++)
            for (int dir = 0; dir < (directed ? 1 : 2); dir++) {
                const lg_vertex_t u = dir ? g->dst[i] : g->src[i], v = dir ? g->src[i] : g->dst[i];
                if (in[u] && !in[v] && dist[v] <= limit && dist[u] + g->w[i] == dist[v])
                    in[v] = true, changed = true;
            }
    }
    for (int64_t v = 0; v < g->n; v++)
        if (!in[v])
            dist[v] = INFINITY;
    free(in);
}

static lg_graph_t *build(const struct wgraph *g, bool directed, bool wide, int c)
{
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = directed ? LG_DIRECTED : LG_UNDIRECTED;
    lg_graph_t *out = NULL;
    lg_status_t st;
    if (wide) {
        st = lg_graph_from_edges_f64(ctx[c], g->n, g->E, g->src, g->dst, g->w, &o, &out);
    } else {
        float *f = or_alloc((size_t)g->E + 1, sizeof *f);
        for (int64_t i = 0; i < g->E; i++)
            f[i] = (float)g->w[i];
        st = lg_graph_from_edges(ctx[c], g->n, g->E, g->src, g->dst, f, &o, &out);
        free(f);
    }
    CHECK(st == LG_OK);
    if (st != LG_OK)
        report("build: %s", lg_last_error());
    if (out)
        CHECK(lg_graph_weight_type(out) == (wide ? LG_WEIGHTS_FLOAT64 : LG_WEIGHTS_FLOAT32));
    return out;
}

/* Whether a source below 0 is joined to no source at 0 by tight arcs: its
 * distance came round a closed walk of negative length (one whose sum
 * rounding stops from lowering anything further, so the passes settle). */
static bool source_left_below_zero(const struct wgraph *g, bool directed,
                                   const lg_vertex_t *sources, int k, const double *dist)
{
    bool *in = or_alloc((size_t)g->n + 1, sizeof *in);
    for (int64_t v = 0; v < g->n; v++)
        in[v] = false;
    for (int i = 0; i < k; i++)
        in[sources[i]] = dist[sources[i]] == 0.0;
    for (bool changed = true; changed;) {
        changed = false;
        for (int64_t i = 0; i < g->E; i++)
            for (int dir = 0; dir < (directed ? 1 : 2); dir++) {
                const lg_vertex_t u = dir ? g->dst[i] : g->src[i], v = dir ? g->src[i] : g->dst[i];
                if (in[u] && !in[v] && dist[u] + g->w[i] == dist[v])
                    in[v] = true, changed = true;
            }
    }
    bool left = false;
    for (int i = 0; i < k; i++)
        left |= !in[sources[i]];
    free(in);
    return left;
}

/* Each reached vertex's predecessor is a tight in-neighbour, but a source's
 * at distance 0, which is its own, and its chain ends at such a source; -1
 * when so, else the first vertex that is not. */
static int64_t bad_predecessor(const struct wgraph *g, bool directed, const lg_vertex_t *sources,
                               int k, const double *dist, const lg_vertex_t *pred)
{
    for (int64_t v = 0; v < g->n; v++) {
        bool source = false;
        for (int i = 0; i < k; i++)
            source |= sources[i] == v && dist[v] == 0.0;
        if (source ? pred[v] != v : dist[v] == INFINITY ? pred[v] != -1 : false)
            return v;
        if (source || dist[v] == INFINITY)
            continue;
        const lg_vertex_t u = pred[v];
        bool tight = false;
        for (int64_t i = 0; u >= 0 && i < g->E; i++)
            for (int dir = 0; dir < (directed ? 1 : 2); dir++)
                tight |= (dir ? g->dst[i] : g->src[i]) == u && (dir ? g->src[i] : g->dst[i]) == v &&
                         dist[u] + g->w[i] == dist[v];
        if (!tight)
            return v;
        lg_vertex_t x = (lg_vertex_t)v;
        int64_t steps = 0;
        while (pred[x] != x && steps <= g->n)
            x = pred[x], steps++;
        if (steps > g->n)
            return v;
    }
    return -1;
}

/* One query on every context and both weight types: distances equal to
 * the oracle's after cutoff and target, predecessors valid; or, with a
 * negative cycle reached, LG_ERR_UNBOUNDED naming a vertex on one. */
static void check(const struct wgraph *g, bool directed, const lg_vertex_t *sources, int k,
                  double cutoff, lg_vertex_t target, lg_sssp_method_t method)
{
    const int64_t n = g->n;
    double *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    double *from = or_alloc((size_t)n, sizeof *from);
    lg_vertex_t *pred = or_alloc((size_t)n, sizeof *pred);
    bool cycle = oracle(g, directed, sources, k, want);
    cycle = cycle || source_left_below_zero(g, directed, sources, k, want);
    /* Bellman-Ford (asked for, or for negative weights) keeps every distance
     * but those past the cutoff; delta-stepping also those past the target */
    bool negative = false;
    for (int64_t i = 0; i < g->E; i++)
        negative |= g->w[i] < 0;
    const bool bf = method == LG_SSSP_BELLMAN_FORD || negative;
    const double reach = target >= 0 && !bf ? want[target] : INFINITY;
    const double limit = reach < cutoff ? reach : cutoff;
    if (!cycle && limit < INFINITY)
        keep_within(g, directed, sources, k, limit, want);
    for (int c = wide_only ? NUM_CTX : 0; c < NUM_CTX * 2; c++) {
        const bool wide = c >= NUM_CTX;
        lg_graph_t *lg = build(g, directed, wide, c % NUM_CTX);
        if (!lg)
            continue;
        lg_sssp_options_t o;
        lg_sssp_options_init(&o);
        o.cutoff = cutoff;
        o.target = target;
        o.method = method;
        o.compute_predecessors = !cycle && (c & 1); /* both with and without */
        const lg_status_t st = lg_sssp(ctx[c % NUM_CTX], lg, sources, k, &o, got,
                                       o.compute_predecessors ? pred : NULL);
        runs++;
        if (cycle) {
            CHECK(st == LG_ERR_UNBOUNDED);
            const char *msg = lg_last_error();
            const char *at = strstr(msg, "vertex ");
            CHECK(at != NULL);
            if (st == LG_ERR_UNBOUNDED && at) {
                const lg_vertex_t x = (lg_vertex_t)atoi(at + 7);
                CHECK(x >= 0 && x < n);
                /* x lies on a negative closed walk: from x alone, x ends below 0 */
                if (x >= 0 && x < n) {
                    (void)oracle(g, directed, &x, 1, from);
                    CHECK(from[x] < 0.0);
                }
            } else {
                report("%d threads, %s: %s: %s", c % NUM_CTX + 1, wide ? "f64" : "f32",
                       lg_status_string(st), msg);
            }
        } else {
            CHECK(st == LG_OK);
            if (st != LG_OK) {
                report("%d threads: %s", c % NUM_CTX + 1, lg_last_error());
            } else {
                CHECK(or_ran_on_expected(true));
                int64_t bad = -1;
                for (int64_t v = 0; v < n && bad < 0; v++)
                    if (got[v] != want[v])
                        bad = v;
                CHECK(bad < 0);
                if (bad >= 0)
                    report("%d threads, %s, cutoff %g, target %d: distance of %lld is %.17g, "
                           "want %.17g",
                           c % NUM_CTX + 1, wide ? "f64" : "f32", cutoff, (int)target,
                           (long long)bad, got[bad], want[bad]);
                if (o.compute_predecessors) {
                    const int64_t wrong = bad_predecessor(g, directed, sources, k, got, pred);
                    CHECK(wrong < 0);
                    if (wrong >= 0)
                        report("predecessor of %lld is %d (cutoff %g, target %d, %d sources, "
                               "source %d, dist %g)",
                               (long long)wrong, (int)pred[wrong], cutoff, (int)target, k,
                               (int)sources[0], got[wrong]);
                }
            }
        }
        lg_graph_free(&lg);
    }
    free(want);
    free(got);
    free(from);
    free(pred);
}

static void wgraph_alloc(struct wgraph *g, int64_t n, int64_t E)
{
    g->n = n, g->E = E;
    g->src = or_alloc((size_t)E + 1, sizeof *g->src);
    g->dst = or_alloc((size_t)E + 1, sizeof *g->dst);
    g->w = or_alloc((size_t)E + 1, sizeof *g->w);
}

static void wgraph_free(struct wgraph *g)
{
    free(g->src), free(g->dst), free(g->w);
}

/* A random directed graph: kind 0 potentials (no negative cycle), kind 1 a
 * DAG (arcs from lower to higher ids) with weights in [-20, 20], weights
 * multiples of 1/16 (scale 16) or integers (scale 1). */
static void random_graph(struct wgraph *g, int64_t n, int64_t E, int kind, double scale,
                         unsigned long long *rng)
{
    wgraph_alloc(g, n, E);
    double *p = or_alloc((size_t)n, sizeof *p);
    for (int64_t v = 0; v < n; v++)
        p[v] = (double)or_rand_below(rng, 50) / scale;
    for (int64_t i = 0; i < E; i++) {
        lg_vertex_t u = (lg_vertex_t)or_rand_below(rng, (uint64_t)n);
        lg_vertex_t v = (lg_vertex_t)or_rand_below(rng, (uint64_t)n);
        if (kind == 1 && u > v) {
            const lg_vertex_t t = u;
            u = v, v = t;
        }
        g->src[i] = u, g->dst[i] = v;
        g->w[i] = kind == 0 ? (double)or_rand_below(rng, 30) / scale + p[u] - p[v]
                            : ((double)or_rand_below(rng, 41) - 20.0) / scale;
        if (kind == 1 && u == v)
            g->w[i] = fabs(g->w[i]); /* a self-loop is a cycle */
    }
    free(p);
}

static void test_random(void)
{
    unsigned long long rng = 4242;
    for (int gi = 0; gi < 120; gi++) {
        const int64_t n = 1 + (int64_t)or_rand_below(&rng, gi < 100 ? 40 : 400);
        const int64_t E = (int64_t)or_rand_below(&rng, (uint64_t)(4 * n + 1));
        const int kind = gi % 2;
        struct wgraph g;
        wide_only = gi % 3 == 1;
        random_graph(&g, n, E, kind, wide_only ? 10.0 : gi % 3 == 0 ? 16.0 : 1.0, &rng);
        set_subject("random graph %d: n %lld, E %lld, kind %d", gi, (long long)n, (long long)E,
                    kind);
        const lg_vertex_t s[3] = {(lg_vertex_t)or_rand_below(&rng, (uint64_t)n),
                                  (lg_vertex_t)or_rand_below(&rng, (uint64_t)n), 0};
        check(&g, true, s, 1, INFINITY, -1, LG_SSSP_AUTO);
        check(&g, true, s, 3, INFINITY, -1, LG_SSSP_BELLMAN_FORD);
        if (gi % 4 == 0) {
            check(&g, true, s, 1, (double)or_rand_below(&rng, 20), -1, LG_SSSP_AUTO);
            check(&g, true, s, 1, INFINITY, s[1], LG_SSSP_AUTO);
        }
        wgraph_free(&g);
    }
    wide_only = false;
}

/* Bellman-Ford asked for on weights >= 0, and undirected graphs. */
static void test_nonnegative_and_undirected(void)
{
    unsigned long long rng = 99;
    for (int gi = 0; gi < 30; gi++) {
        const int64_t n = 2 + (int64_t)or_rand_below(&rng, 60), E = 3 * n;
        struct wgraph g;
        wgraph_alloc(&g, n, E);
        for (int64_t i = 0; i < E; i++) {
            g.src[i] = (lg_vertex_t)or_rand_below(&rng, (uint64_t)n);
            g.dst[i] = (lg_vertex_t)or_rand_below(&rng, (uint64_t)n);
            g.w[i] = (double)or_rand_below(&rng, 64) / 8.0;
        }
        set_subject("non-negative graph %d", gi);
        const lg_vertex_t s = (lg_vertex_t)or_rand_below(&rng, (uint64_t)n);
        check(&g, gi % 2 == 0, &s, 1, INFINITY, -1, LG_SSSP_BELLMAN_FORD);
        /* one negative edge in an undirected graph: a negative cycle, when reached */
        g.w[0] = -0.5;
        check(&g, false, &g.src[0], 1, INFINITY, -1, LG_SSSP_AUTO);
        wgraph_free(&g);
    }
}

/* A negative cycle planted in a potential-weighted graph, reached or not. */
static void test_cycles(void)
{
    unsigned long long rng = 7;
    for (int gi = 0; gi < 40; gi++) {
        const int64_t n = 6 + (int64_t)or_rand_below(&rng, gi < 30 ? 50 : 3000);
        const int64_t E = 2 * n, len = 2 + (int64_t)or_rand_below(&rng, 5);
        struct wgraph g;
        random_graph(&g, n, E + len, 0, 1.0, &rng);
        /* the cycle on the last len vertices: their arcs weigh 1, one weighs -len */
        for (int64_t j = 0; j < len; j++) {
            g.src[E + j] = (lg_vertex_t)(n - len + j);
            g.dst[E + j] = (lg_vertex_t)(n - len + (j + 1) % len);
            g.w[E + j] = j == 0 ? -(double)len : 1.0;
        }
        /* keep the cycle unreachable from vertex 0 when gi is odd: no arc into it */
        for (int64_t i = 0; gi % 2 && i < E; i++)
            if (g.dst[i] >= n - len)
                g.dst[i] = (lg_vertex_t)or_rand_below(&rng, (uint64_t)(n - len));
        set_subject("cycle graph %d: n %lld, cycle of %lld, %s", gi, (long long)n, (long long)len,
                    gi % 2 ? "unreachable" : "maybe reachable");
        const lg_vertex_t s = 0;
        check(&g, true, &s, 1, INFINITY, -1, LG_SSSP_AUTO);
        const lg_vertex_t on = (lg_vertex_t)(n - len);
        check(&g, true, &on, 1, INFINITY, -1, LG_SSSP_BELLMAN_FORD);
        wgraph_free(&g);
    }
}

/* Cycles whose negative sum rounding hides after one lap: through the
 * source, the search settles with the source below 0 (LG_ERR_UNBOUNDED,
 * naming it); elsewhere, no sum drops at all (the sums are the answer, as
 * they are for any order of relaxations).  And sources lowered by another
 * source's negative path, which are no cycle. */
static void test_rounding(void)
{
    const double tiny = -0x1p-120; /* exact in float32 too */
    struct wgraph g;
    /* 0 -> 1 -> 2 -> 0 sums to tiny: the first lap lowers 0 to tiny, the
     * second's tiny + 0.5 is 0.5 again; 3's self-loop is out of reach */
    const lg_vertex_t src[] = {0, 0, 1, 1, 2, 2, 3}, dst[] = {1, 2, 0, 2, 0, 1, 3};
    const double w[] = {0.5, 0.25, 0.5, -0.5, tiny, 2.0, 4.0};
    wgraph_alloc(&g, 4, 7);
    memcpy(g.src, src, sizeof src), memcpy(g.dst, dst, sizeof dst), memcpy(g.w, w, sizeof w);
    set_subject("a cycle through the source lost in rounding");
    const lg_vertex_t s[] = {0, 3, 2};
    check(&g, true, &s[0], 1, INFINITY, -1, LG_SSSP_AUTO);
    check(&g, true, &s[0], 2, INFINITY, -1, LG_SSSP_AUTO);
    check(&g, true, &s[1], 1, INFINITY, -1, LG_SSSP_AUTO);
    check(&g, true, &s[1], 2, INFINITY, 1, LG_SSSP_AUTO);
    lg_graph_t *lg = build(&g, true, false, 1);
    double d[4];
    if (lg) {
        CHECK_STATUS(lg_sssp(ctx[1], lg, &s[0], 1, NULL, d, NULL), LG_ERR_UNBOUNDED);
        CHECK_MESSAGE("through vertex 0, a source, lowers its distance below 0");
        lg_graph_free(&lg);
    }
    /* the same cycle on 1 -> 2 -> 3 -> 1, after 0 -> 1: 3 -> 1's sum 1 + tiny
     * is 1, so nothing drops */
    const lg_vertex_t src2[] = {0, 1, 2, 3}, dst2[] = {1, 2, 3, 1};
    const double w2[] = {1.0, 0.5, -0.5, tiny};
    memcpy(g.src, src2, sizeof src2), memcpy(g.dst, dst2, sizeof dst2), memcpy(g.w, w2, sizeof w2);
    g.E = 4;
    set_subject("a cycle away from the source lost in rounding");
    check(&g, true, &s[0], 1, INFINITY, -1, LG_SSSP_AUTO);
    lg = build(&g, true, true, 0);
    if (lg) {
        CHECK_OK(lg_sssp(ctx[0], lg, &s[0], 1, NULL, d, NULL));
        CHECK(d[0] == 0.0 && d[1] == 1.0 && d[2] == 1.5 && d[3] == 1.0);
        lg_graph_free(&lg);
    }
    /* sources 0 and 1, 0 -> 1 weighing -1: 1 at -1 through 0, its predecessor */
    const lg_vertex_t src3[] = {0, 1}, dst3[] = {1, 2};
    const double w3[] = {-1.0, 1.0};
    memcpy(g.src, src3, sizeof src3), memcpy(g.dst, dst3, sizeof dst3), memcpy(g.w, w3, sizeof w3);
    g.n = 3, g.E = 2;
    set_subject("a source below 0 through another");
    const lg_vertex_t both[] = {1, 0};
    check(&g, true, both, 2, INFINITY, -1, LG_SSSP_AUTO);
    lg = build(&g, true, false, 2);
    if (lg) {
        lg_sssp_options_t o;
        lg_sssp_options_init(&o);
        o.compute_predecessors = true;
        lg_vertex_t pred[3];
        CHECK_OK(lg_sssp(ctx[2], lg, both, 2, &o, d, pred));
        CHECK(d[0] == 0.0 && d[1] == -1.0 && d[2] == 0.0);
        CHECK(pred[0] == 0 && pred[1] == 0 && pred[2] == 1);
        lg_graph_free(&lg);
    }
    wgraph_free(&g);
}

static bool stop_at_second(const lg_progress_info_t *info, void *data)
{
    (void)info;
    return ++*(int *)data < 2;
}

static void test_refusals(void)
{
    set_subject("refusals");
    const lg_vertex_t src[] = {0, 1, 2, 0}, dst[] = {1, 2, 0, 2};
    const double w[] = {1.0, -3.0, 1.0, 4.0};
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_DIRECTED;
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges_f64(ctx[0], 3, 4, src, dst, w, &o, &g));
    CHECK(lg_graph_has_negative_weights(g));
    double d[3];
    lg_sssp_options_t so;
    lg_sssp_options_init(&so);
    so.method = LG_SSSP_DELTA_STEPPING;
    const lg_vertex_t s = 0;
    CHECK_STATUS(lg_sssp(ctx[0], g, &s, 1, &so, d, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("the arc 1 -> 2 weighs -3");
    so.method = (lg_sssp_method_t)7;
    CHECK_STATUS(lg_sssp(ctx[0], g, &s, 1, &so, d, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("unknown method 7");
    /* the cycle 0 -> 1 -> 2 -> 0 weighs -1 */
    so.method = LG_SSSP_AUTO;
    CHECK_STATUS(lg_sssp(ctx[0], g, &s, 1, &so, d, NULL), LG_ERR_UNBOUNDED);
    CHECK_MESSAGE("negative cycle");
    /* unweighted, the same graph is fine */
    so.use_weights = false;
    CHECK_OK(lg_sssp(ctx[0], g, &s, 1, &so, d, NULL));
    CHECK(d[0] == 0.0 && d[1] == 1.0 && d[2] == 1.0);
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    double r[3];
    CHECK_STATUS(lg_pagerank(ctx[0], g, &po, r, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("PageRank needs weights >= 0");
    po.use_weights = false;
    CHECK_OK(lg_pagerank(ctx[0], g, &po, r, NULL));
    lg_graph_free(&g);

    /* cancellation, after the second round of a long chain with negative arcs */
    enum {
        N = 200
    };
    lg_vertex_t cs[N], cd[N];
    double cw[N];
    for (int i = 0; i < N; i++)
        cs[i] = i, cd[i] = (i + 1) % N, cw[i] = i == N - 1 ? 1e9 : -1.0;
    CHECK_OK(lg_graph_from_edges_f64(ctx[1], N, N, cs, cd, cw, &o, &g));
    int calls = 0;
    double cdist[N];
    lg_sssp_options_init(&so);
    so.progress = stop_at_second;
    so.progress_data = &calls;
    CHECK_STATUS(lg_sssp(ctx[1], g, &s, 1, &so, cdist, NULL), LG_ERR_CANCELLED);
    so.progress = NULL;
    CHECK_OK(lg_sssp(ctx[1], g, &s, 1, &so, cdist, NULL));
    CHECK(cdist[N - 1] == -(double)(N - 1));
    lg_graph_free(&g);
}

static void print_runs(void)
{
    printf("%ld sssp runs\n", runs);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"bf random graphs", test_random},   {"bf non-negative", test_nonnegative_and_undirected},
        {"bf negative cycles", test_cycles}, {"bf rounding", test_rounding},
        {"bf refusals", test_refusals},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_runs);
}
