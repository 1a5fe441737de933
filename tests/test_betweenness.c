/*
 * test_betweenness.c - lg_betweenness against Brandes's algorithm written
 * here as NetworkX writes it (a stack of settled vertices, predecessor
 * lists, dependencies pushed to predecessors), with contexts of 1, 2 and 3
 * threads.
 *
 * The oracle's searches are its own: a FIFO BFS, and a Dijkstra that
 * settles the unsettled vertex of least (distance, id) by a linear scan.
 * Its rescaling is NetworkX's _rescale (3.5 and later) transcribed.  Values
 * must agree to a relative 1e-9 (the sums run in another order; path
 * counts are exact integers in double on these graphs, so any real
 * difference is far larger): the random shapes of oracle_shapes.h directed
 * and undirected; unweighted, weighted by small integers and halves (many
 * equal-length paths), and float64 tenths; every source and samples
 * of 1, 2 and 7 sources; normalized or not, endpoints or not, and the
 * plain sums (rescale off).  Then larger
 * graphs that take the parallel steps, refusals, messages and cancellation.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "oracle_shapes.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

/* The *_gpu build's calls run on the GPU. */
#define BC_ON_GPU true

static long bc_runs;

/* ---- the oracle ---------------------------------------------------------------------- */

struct bc_graph {
    const or_graph *g;
    const double *w; /* m exact weights, or NULL: every arc weighs 1 */
};

/* Brandes from s into bc (NetworkX's _accumulate_basic / _endpoints; with
 * targets, a byte a vertex, its _accumulate_subset: a path's end counts
 * only at a target). */
static void brandes_from(const struct bc_graph *b, lg_vertex_t s, bool endpoints,
                         const unsigned char *targets, double *bc)
{
    const or_graph *g = b->g;
    const int64_t n = g->n;
    double *dist = or_alloc((size_t)n, sizeof *dist), *sigma = or_alloc((size_t)n, sizeof *sigma);
    double *delta = or_alloc((size_t)n, sizeof *delta);
    lg_vertex_t *stack = or_alloc((size_t)n, sizeof *stack);
    bool *done = or_alloc((size_t)n, sizeof *done);
    /* predecessor lists: at most the in-degree each; as arcs into one array */
    int64_t *pcount = or_alloc((size_t)n, sizeof *pcount);
    lg_vertex_t *pred = or_alloc((size_t)g->m + 1, sizeof *pred);
    int64_t *pstart = or_alloc((size_t)n + 1, sizeof *pstart);
    for (int64_t u = 0; u < n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++)
            pstart[g->idx[e] + 1]++;
    for (int64_t v = 0; v < n; v++)
        pstart[v + 1] += pstart[v];
    for (int64_t v = 0; v < n; v++)
        dist[v] = INFINITY;
    dist[s] = 0.0;
    sigma[s] = 1.0;
    int64_t settled = 0;
    if (!b->w) { /* BFS: the stack is its FIFO queue */
        stack[settled++] = s;
        for (int64_t head = 0; head < settled; head++) {
            const lg_vertex_t u = stack[head];
            for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
                const lg_vertex_t v = g->idx[e];
                if (!isfinite(dist[v])) {
                    dist[v] = dist[u] + 1.0;
                    stack[settled++] = v;
                }
                if (dist[v] == dist[u] + 1.0) {
                    sigma[v] += sigma[u];
                    pred[pstart[v] + pcount[v]++] = u;
                }
            }
        }
    } else { /* Dijkstra: settle the least (distance, id) by a scan */
        for (;;) {
            lg_vertex_t u = -1;
            for (int64_t v = 0; v < n; v++)
                if (!done[v] && isfinite(dist[v]) &&
                    (u < 0 || dist[v] < dist[u] || (dist[v] == dist[u] && v < u)))
                    u = (lg_vertex_t)v;
            if (u < 0)
                break;
            done[u] = true;
            stack[settled++] = u;
            for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
                const lg_vertex_t v = g->idx[e];
                if (done[v])
                    continue;
                const double d = dist[u] + b->w[e];
                if (d < dist[v]) {
                    dist[v] = d;
                    sigma[v] = sigma[u];
                    pcount[v] = 1;
                    pred[pstart[v]] = u;
                } else if (d == dist[v]) {
                    sigma[v] += sigma[u];
                    pred[pstart[v] + pcount[v]++] = u;
                }
            }
        }
    }
    if (endpoints)
        bc[s] += (double)(settled - 1);
    while (settled > 0) {
        const lg_vertex_t w = stack[--settled];
        const double end = !targets || (targets[w] && w != s) ? 1.0 : 0.0;
        const double coeff = (end + delta[w]) / sigma[w];
        for (int64_t i = 0; i < pcount[w]; i++) {
            const lg_vertex_t v = pred[pstart[w] + i];
            delta[v] += sigma[v] * coeff;
        }
        if (w != s)
            bc[w] += endpoints ? delta[w] + 1.0 : delta[w];
    }
    free(dist);
    free(sigma);
    free(delta);
    free(stack);
    free(done);
    free(pcount);
    free(pred);
    free(pstart);
}

/* NetworkX's _rescale (NetworkX 3.5 and later), as it reads. */
static void nx_rescale(double *bc, int64_t n, bool normalized, bool directed, bool endpoints,
                       const lg_vertex_t *sampled, int64_t k_sampled)
{
    const int64_t big_n = endpoints ? n : n - 1;
    if (big_n < 2)
        return;
    const int64_t k_source = sampled ? k_sampled : big_n;
    if (!sampled || endpoints) {
        double scale;
        if (normalized)
            scale = 1.0 / (double)(k_source * (big_n - 1));
        else
            scale = (double)big_n / (double)(k_source * (directed ? 1 : 2));
        if (scale != 1.0)
            for (int64_t v = 0; v < n; v++)
                bc[v] *= scale;
        return;
    }
    double scale_source, scale_nonsource;
    const int64_t correction = directed ? 1 : 2;
    if (normalized) {
        scale_source = k_source > 1 ? 1.0 / (double)((k_source - 1) * (big_n - 1)) : NAN;
        scale_nonsource = 1.0 / (double)(k_source * (big_n - 1));
    } else {
        scale_source = k_source > 1 ? (double)big_n / (double)((k_source - 1) * correction) : NAN;
        scale_nonsource = (double)big_n / (double)(k_source * correction);
    }
    for (int64_t v = 0; v < n; v++) {
        bool in = false;
        for (int64_t i = 0; i < k_sampled; i++)
            in = in || sampled[i] == v;
        bc[v] *= in ? scale_source : scale_nonsource;
    }
}

static void oracle(const struct bc_graph *b, const lg_vertex_t *sources, int64_t k, bool normalized,
                   bool endpoints, bool rescale, double *bc)
{
    const int64_t n = b->g->n;
    for (int64_t v = 0; v < n; v++)
        bc[v] = 0.0;
    const bool sampled = sources && k < n;
    for (int64_t i = 0; i < (sources ? k : n); i++)
        brandes_from(b, sources ? sources[i] : (lg_vertex_t)i, endpoints, NULL, bc);
    if (rescale)
        nx_rescale(bc, n, normalized, b->g->directed, endpoints, sampled ? sources : NULL, k);
}

/* ---- the checks ------------------------------------------------------------------------ */

/* The first entry of got[0 .. n) that is not want's to a relative 1e-9, or -1. */
static int64_t first_far(const double *got, const double *want, int64_t n)
{
    return or_first_far(got, want, n, 1e-9);
}

/* k distinct sources of n vertices into sample[0 .. k): a partial
 * Fisher-Yates shuffle. */
static void draw_sample(lg_vertex_t *sample, int64_t n, int64_t k, unsigned long long *rng)
{
    for (int64_t v = 0; v < n; v++)
        sample[v] = (lg_vertex_t)v;
    for (int64_t i = 0; i < k; i++) {
        const int64_t j = i + (int64_t)or_rand_below(rng, (uint64_t)(n - i));
        const lg_vertex_t t = sample[i];
        sample[i] = sample[j];
        sample[j] = t;
    }
}

/* Every combination of sources, normalized and endpoints on g. */
static void check_graph(const lg_graph_t *g, const struct bc_graph *b, bool use_weights,
                        unsigned long long *rng)
{
    const int64_t n = b->g->n;
    double *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    lg_vertex_t *sample = or_alloc((size_t)n + 1, sizeof *sample);
    static const int64_t sizes[] = {0, 1, 2, 7};
    for (int si = 0; si < 4; si++) {
        int64_t k = sizes[si] < n ? sizes[si] : n;
        if (si > 0 && k == 0)
            continue;
        draw_sample(sample, n, k, rng);
        for (int flags = 0; flags < 6; flags++) { /* 4, 5: the plain sums */
            const bool normalized = flags & 1, endpoints = flags & 2, rescale = flags < 4;
            oracle(b, si ? sample : NULL, k, normalized, endpoints, rescale, want);
            lg_betweenness_options_t o;
            lg_betweenness_options_init(&o);
            o.normalized = normalized;
            o.endpoints = endpoints;
            o.use_weights = use_weights;
            o.rescale = rescale;
            const int c = (int)((flags + si) % NUM_CTX);
            for (int64_t v = 0; v < n; v++)
                got[v] = -7.0;
            const lg_status_t st = lg_betweenness(ctx[c], g, si ? sample : NULL, k, &o, got);
            bc_runs++;
            CHECK(st == LG_OK);
            if (st != LG_OK) {
                report("lg_betweenness, %d threads: %s: %s", c + 1, lg_status_string(st),
                       lg_last_error());
                continue;
            }
            CHECK(n == 0 || or_ran_on_expected(BC_ON_GPU)); /* empty: answered before */
            const int64_t bad = first_far(got, want, n);
            CHECK(bad < 0);
            if (bad >= 0)
                report("lg_betweenness, %d threads, %lld sources, normalized %d, endpoints %d, "
                       "weights %d: vertex %lld has %.17g, want %.17g",
                       c + 1, (long long)k, normalized, endpoints, use_weights, (long long)bad,
                       got[bad], want[bad]);
        }
    }
    free(want);
    free(got);
    free(sample);
}

/* Weights kind 0: as drawn (unweighted calls), 1: integers 1-4, 2: halves
 * 0.5-2 (sums that tie in other ways). */
static void reweigh(float *w, int64_t E, int kind, unsigned long long *rng)
{
    for (int64_t i = 0; i < E; i++)
        w[i] = kind == 1   ? (float)(1 + or_rand_below(rng, 4))
               : kind == 2 ? (float)(1 + or_rand_below(rng, 4)) / 2.0f
                           : 1.0f;
}

/* The oracle's weights: g's float32 ones widened. */
static double *widened(const or_graph *g)
{
    double *w = or_alloc((size_t)g->m + 1, sizeof *w);
    for (int64_t e = 0; e < g->m; e++)
        w[e] = g->w ? (double)g->w[e] : 1.0;
    return w;
}

typedef void check_fn(const lg_graph_t *g, const struct bc_graph *b, bool use_weights,
                      unsigned long long *rng);

/* rounds random graphs of oracle_shapes.h (graph gi from seed seed0 + gi),
 * directed and undirected, unweighted or weighted by reweigh's kinds, each
 * given to check with its weights and, weighted, once more without them
 * when also_unweighted. */
static void over_shapes(int rounds, unsigned long long seed0, check_fn *check, bool also_unweighted)
{
    for (int gi = 0; gi < rounds; gi++) {
        unsigned long long seed = seed0 + (unsigned long long)gi, rng = seed * 31 + 5;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool directed = (gi / OR_NUM_SHAPES) % 2 == 0;
        const int kind = (gi / (2 * OR_NUM_SHAPES)) % 3;
        reweigh(e.w, e.E, kind, &rng);
        set_subject("shape %s, seed %llu, %s, weights kind %d", e.shape, seed,
                    directed ? "directed" : "undirected", kind);
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, kind != 0, gi % NUM_CTX)) {
            double *w = kind ? widened(&t.o) : NULL;
            const struct bc_graph b = {&t.o, w};
            check(t.g, &b, true, &rng);
            if (kind && also_unweighted) { /* the same graph, its weights not used */
                const struct bc_graph u = {&t.o, NULL};
                check(t.g, &u, false, &rng);
            }
            free(w);
        }
        tgraph_free(&t);
        or_edges_free(&e);
    }
}

static void test_shapes(void)
{
    over_shapes(harness_rounds(144, 72), 4100, check_graph, true);
}

/* A float64 graph of tenths: sums that round, equal only when NetworkX's
 * sums would be. */
static void test_float64(void)
{
    unsigned long long rng = 515;
    for (int gi = 0; gi < 8; gi++) {
        const int64_t n = 40 + 10 * gi, E = 4 * n;
        lg_vertex_t *src = or_alloc((size_t)E, sizeof *src),
                    *dst = or_alloc((size_t)E, sizeof *dst);
        double *w = or_alloc((size_t)E, sizeof *w);
        for (int64_t i = 0; i < E; i++) {
            src[i] = (lg_vertex_t)or_rand_below(&rng, (uint64_t)n);
            dst[i] = (lg_vertex_t)or_rand_below(&rng, (uint64_t)n);
            w[i] = (double)(1 + or_rand_below(&rng, 5)) / 10.0;
        }
        const bool directed = gi % 2;
        lg_graph_options_t go = graph_options(directed);
        go.duplicates = LG_DUPLICATES_MIN;
        lg_graph_t *g = NULL;
        set_subject("float64 tenths, %lld vertices, %s", (long long)n,
                    directed ? "directed" : "undirected");
        CHECK_OK(lg_graph_from_edges_f64(ctx[0], n, E, src, dst, w, &go, &g));
        if (g) {
            const lg_edge_t *off;
            const lg_vertex_t *idx;
            const double *w64;
            const int64_t nn = lg_graph_num_vertices(g), m = lg_graph_num_edges(g);
            CHECK_OK(lg_graph_csr(g, &off, &idx, NULL));
            CHECK_OK(lg_graph_weights_f64(g, false, &w64));
            or_graph o = {nn, m, directed, (lg_edge_t *)off, (lg_vertex_t *)idx, NULL};
            const struct bc_graph b = {&o, w64};
            check_graph(g, &b, true, &rng);
        }
        lg_graph_free(&g);
        free(src);
        free(dst);
        free(w);
    }
}

/* Graphs large enough for every thread to take sources (the parallel
 * steps, several steps a call), and a Kronecker graph's hubs. */
static void test_larger(void)
{
    unsigned long long rng = 919;
    for (int directed = 0; directed < 2; directed++)
        for (int weighted = 0; weighted < 2; weighted++) {
            struct elist el;
            el_init(&el, 1500);
            el_random(&el, 0, 1500, 6000, &rng);
            el_random(&el, 0, 60, 600, &rng); /* a dense core: many equal paths */
            if (weighted)
                for (int64_t i = 0; i < el.E; i++)
                    el.w[i] = (float)(1 + or_rand_below(&rng, 3));
            set_subject("random, 1500 vertices, %s, %s", directed ? "directed" : "undirected",
                        weighted ? "weighted" : "unweighted");
            struct tgraph t;
            if (tgraph_from_elist(&t, &el, directed, weighted, 2)) {
                double *w = weighted ? widened(&t.o) : NULL;
                const struct bc_graph b = {&t.o, w};
                double *want = or_alloc(1500, sizeof *want), *got = or_alloc(1500, sizeof *got);
                /* weighted: 150 sources (the oracle's Dijkstra is quadratic) */
                lg_vertex_t sources[150];
                for (int i = 0; i < 150; i++)
                    sources[i] = (lg_vertex_t)(i * 7);
                const int64_t k = weighted ? 150 : 0;
                oracle(&b, k ? sources : NULL, k, true, false, true, want);
                for (int c = 0; c < NUM_CTX; c++) {
                    CHECK_OK(lg_betweenness(ctx[c], t.g, k ? sources : NULL, k, NULL, got));
                    const int64_t bad = first_far(got, want, 1500);
                    CHECK(bad < 0);
                    if (bad >= 0)
                        report("%d threads: vertex %lld has %.17g, want %.17g", c + 1,
                               (long long)bad, got[bad], want[bad]);
                }
                free(want);
                free(got);
                free(w);
            }
            tgraph_free(&t);
            el_free(&el);
        }
    struct tgraph t;
    set_subject("Kronecker scale 10, 64 sources");
    if (tgraph_generate(&t, LG_GENERATOR_KRONECKER, 10, 8, 5, false, 0)) {
        const int64_t n = t.o.n;
        const struct bc_graph b = {&t.o, NULL};
        double *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
        lg_vertex_t sources[64];
        for (int i = 0; i < 64; i++)
            sources[i] = (lg_vertex_t)(i * 13 % n);
        oracle(&b, sources, 64, false, false, true, want);
        lg_betweenness_options_t o;
        lg_betweenness_options_init(&o);
        o.normalized = false;
        for (int c = 0; c < NUM_CTX; c++) {
            CHECK_OK(lg_betweenness(ctx[c], t.g, sources, 64, &o, got));
            const int64_t bad = first_far(got, want, n);
            CHECK(bad < 0);
            /* the same call again: the same values to the bit */
            double *again = or_alloc((size_t)n, sizeof *again);
            CHECK_OK(lg_betweenness(ctx[c], t.g, sources, 64, &o, again));
            CHECK(memcmp(again, got, (size_t)n * sizeof *got) == 0);
            free(again);
        }
        free(want);
        free(got);
    }
    tgraph_free(&t);
}

/* ---- edge betweenness ------------------------------------------------------------------ */

/* Brandes from s as NetworkX's _accumulate_edges writes it: the
 * predecessor arcs of each settled vertex, each credited
 * sigma[u] * (1 + delta[w]) / sigma[w] into arcs[its index]. */
static void brandes_edges_from(const struct bc_graph *b, lg_vertex_t s, double *arcs)
{
    const or_graph *g = b->g;
    const int64_t n = g->n;
    double *dist = or_alloc((size_t)n, sizeof *dist), *sigma = or_alloc((size_t)n, sizeof *sigma);
    double *delta = or_alloc((size_t)n, sizeof *delta);
    lg_vertex_t *stack = or_alloc((size_t)n, sizeof *stack),
                *tail = or_alloc((size_t)g->m + 1, sizeof *tail);
    bool *done = or_alloc((size_t)n, sizeof *done);
    int64_t *pcount = or_alloc((size_t)n, sizeof *pcount);
    lg_edge_t *pred = or_alloc((size_t)g->m + 1, sizeof *pred); /* arcs, by head */
    int64_t *pstart = or_alloc((size_t)n + 1, sizeof *pstart);
    for (int64_t u = 0; u < n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            pstart[g->idx[e] + 1]++;
            tail[e] = (lg_vertex_t)u;
        }
    for (int64_t v = 0; v < n; v++) {
        pstart[v + 1] += pstart[v];
        dist[v] = INFINITY;
    }
    dist[s] = 0.0;
    sigma[s] = 1.0;
    int64_t settled = 0;
    for (;;) { /* settle the least (distance, id) by a scan; BFS when unweighted */
        lg_vertex_t u = -1;
        for (int64_t v = 0; v < n; v++)
            if (!done[v] && isfinite(dist[v]) &&
                (u < 0 || dist[v] < dist[u] || (dist[v] == dist[u] && v < u)))
                u = (lg_vertex_t)v;
        if (u < 0)
            break;
        done[u] = true;
        stack[settled++] = u;
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            const lg_vertex_t v = g->idx[e];
            if (done[v])
                continue;
            const double d = dist[u] + (b->w ? b->w[e] : 1.0);
            if (d < dist[v]) {
                dist[v] = d;
                sigma[v] = sigma[u];
                pcount[v] = 1;
                pred[pstart[v]] = e;
            } else if (d == dist[v]) {
                sigma[v] += sigma[u];
                pred[pstart[v] + pcount[v]++] = e;
            }
        }
    }
    while (settled > 0) {
        const lg_vertex_t w = stack[--settled];
        const double coeff = (1.0 + delta[w]) / sigma[w];
        for (int64_t i = 0; i < pcount[w]; i++) {
            const lg_edge_t e = pred[pstart[w] + i];
            const double c = sigma[tail[e]] * coeff;
            arcs[e] += c;
            delta[tail[e]] += c;
        }
    }
    free(dist);
    free(sigma);
    free(delta);
    free(stack);
    free(tail);
    free(done);
    free(pcount);
    free(pred);
    free(pstart);
}

/* NetworkX's edge betweenness of g (every arc of an undirected edge the
 * edge's value: the j-th arc u -> v and the j-th v -> u summed, found by a
 * scan), its _rescale with endpoints (3.5 and later) after. */
static void edge_oracle(const struct bc_graph *b, const lg_vertex_t *sources, int64_t k,
                        bool normalized, bool rescale, double *arcs)
{
    const or_graph *g = b->g;
    const int64_t n = g->n;
    double *raw = or_alloc((size_t)g->m + 1, sizeof *raw);
    for (int64_t i = 0; i < (sources ? k : n); i++)
        brandes_edges_from(b, sources ? sources[i] : (lg_vertex_t)i, raw);
    for (int64_t u = 0; u < n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            const lg_vertex_t v = g->idx[e];
            arcs[e] = raw[e];
            if (g->directed || v == u)
                continue;
            int64_t j = 0; /* e is the j-th arc u -> v */
            for (lg_edge_t f = g->off[u]; f < e; f++)
                j += g->idx[f] == v;
            for (lg_edge_t f = g->off[v]; f < g->off[v + 1]; f++)
                if (g->idx[f] == u && j-- == 0) {
                    arcs[e] += raw[f];
                    break;
                }
        }
    free(raw);
    const bool sampled = sources && k < n;
    if (!rescale || n < 2)
        return;
    const int64_t k_source = sampled ? k : n;
    const double scale = normalized ? 1.0 / (double)(k_source * (n - 1))
                                    : (double)n / (double)(k_source * (g->directed ? 1 : 2));
    for (int64_t e = 0; e < g->m; e++)
        arcs[e] *= scale;
}

/* Every source sample, normalized or not and the plain sums, on g (its
 * oracle graph: g's own arcs). */
static void check_edges(const lg_graph_t *g, const struct bc_graph *b, bool use_weights,
                        unsigned long long *rng)
{
    const int64_t n = b->g->n, m = b->g->m;
    double *want = or_alloc((size_t)m + 1, sizeof *want),
           *got = or_alloc((size_t)m + 1, sizeof *got);
    lg_vertex_t *sample = or_alloc((size_t)n + 1, sizeof *sample);
    static const int64_t sizes[] = {0, 1, 3};
    for (int si = 0; si < 3; si++) {
        const int64_t k = sizes[si] < n ? sizes[si] : n;
        if (si > 0 && k == 0)
            continue;
        draw_sample(sample, n, k, rng);
        for (int flags = 0; flags < 3; flags++) { /* 2: the plain sums */
            const bool normalized = flags == 1, rescale = flags < 2;
            edge_oracle(b, si ? sample : NULL, k, normalized, rescale, want);
            lg_betweenness_options_t o;
            lg_betweenness_options_init(&o);
            o.normalized = normalized;
            o.use_weights = use_weights;
            o.rescale = rescale;
            const int c = (flags + si) % NUM_CTX;
            for (int64_t e = 0; e < m; e++)
                got[e] = -7.0;
            const lg_status_t st = lg_edge_betweenness(ctx[c], g, si ? sample : NULL, k, &o, got);
            bc_runs++;
            CHECK(st == LG_OK);
            if (st != LG_OK) {
                report("lg_edge_betweenness, %d threads: %s: %s", c + 1, lg_status_string(st),
                       lg_last_error());
                continue;
            }
            CHECK(n == 0 || or_ran_on_expected(BC_ON_GPU)); /* empty: answered before */
            const int64_t bad = first_far(got, want, m);
            CHECK(bad < 0);
            if (bad >= 0)
                report("lg_edge_betweenness, %d threads, %lld sources, normalized %d, rescale %d, "
                       "weights %d: arc %lld has %.17g, want %.17g",
                       c + 1, (long long)k, normalized, rescale, use_weights, (long long)bad,
                       got[bad], want[bad]);
        }
    }
    free(want);
    free(got);
    free(sample);
}

/* The oracle's view of g: its own arcs, their weights widened. */
static struct bc_graph library_arcs(const lg_graph_t *g, or_graph *o, double **w)
{
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w32;
    CHECK_OK(lg_graph_csr(g, &off, &idx, &w32));
    *o = (or_graph){lg_graph_num_vertices(g), lg_graph_num_edges(g), lg_graph_is_directed(g),
                    (lg_edge_t *)off,         (lg_vertex_t *)idx,    NULL};
    *w = NULL;
    if (w32) {
        *w = or_alloc((size_t)o->m + 1, sizeof **w);
        for (int64_t e = 0; e < o->m; e++)
            (*w)[e] = (double)w32[e];
    }
    return (struct bc_graph){o, *w};
}

static void test_edges(void)
{
    for (int gi = 0, rounds = harness_rounds(72, 24); gi < rounds; gi++) {
        unsigned long long seed = 4700 + (unsigned long long)gi, rng = seed * 43 + 1;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool directed = (gi / OR_NUM_SHAPES) % 2 == 0;
        const int kind = (gi / (2 * OR_NUM_SHAPES)) % 3;
        reweigh(e.w, e.E, kind, &rng);
        set_subject("edges: shape %s, seed %llu, %s, weights kind %d", e.shape, seed,
                    directed ? "directed" : "undirected", kind);
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, kind != 0, gi % NUM_CTX)) {
            or_graph o;
            double *w;
            const struct bc_graph b = library_arcs(t.g, &o, &w);
            check_edges(t.g, &b, true, &rng);
            if (kind) {
                const struct bc_graph u = {&o, NULL};
                check_edges(t.g, &u, false, &rng);
            }
            free(w);
        }
        tgraph_free(&t);
        or_edges_free(&e);
    }
    /* parallel arcs kept (each its own path), self-loops, on 1500 vertices:
     * every thread takes sources */
    unsigned long long rng = 4799;
    for (int directed = 0; directed < 2; directed++) {
        struct elist el;
        el_init(&el, 1500);
        el_random(&el, 0, 1500, 5000, &rng);
        el_random(&el, 0, 40, 400, &rng); /* a dense core: repeats, many equal paths */
        set_subject("edges: random, 1500 vertices, %s, repeats kept",
                    directed ? "directed" : "undirected");
        lg_graph_options_t go = graph_options(directed);
        go.duplicates = LG_DUPLICATES_KEEP;
        go.drop_self_loops = false;
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[0], el.n, el.E, el.src, el.dst, NULL, &go, &g));
        if (g) {
            or_graph o;
            double *w;
            const struct bc_graph b = library_arcs(g, &o, &w);
            double *want = or_alloc((size_t)o.m, sizeof *want),
                   *got = or_alloc((size_t)o.m, sizeof *got);
            lg_vertex_t sources[40];
            for (int i = 0; i < 40; i++)
                sources[i] = (lg_vertex_t)(i * 37);
            edge_oracle(&b, sources, 40, true, true, want);
            for (int c = 0; c < NUM_CTX; c++) {
                CHECK_OK(lg_edge_betweenness(ctx[c], g, sources, 40, NULL, got));
                const int64_t bad = first_far(got, want, o.m);
                CHECK(bad < 0);
                if (bad >= 0)
                    report("%d threads: arc %lld has %.17g, want %.17g", c + 1, (long long)bad,
                           got[bad], want[bad]);
            }
            free(want);
            free(got);
            free(w);
        }
        lg_graph_free(&g);
        el_free(&el);
    }
    /* a path: edge i - (i + 1) is on (i + 1) (n - 1 - i) paths */
    struct elist el;
    el_init(&el, 50);
    el_path(&el, 0, 50, false);
    struct tgraph t;
    set_subject("edges: path of 50");
    if (tgraph_from_elist(&t, &el, false, false, 0)) {
        double *eb = or_alloc((size_t)lg_graph_num_edges(t.g), sizeof *eb);
        lg_betweenness_options_t o;
        lg_betweenness_options_init(&o);
        o.normalized = false;
        CHECK_OK(lg_edge_betweenness(ctx[1], t.g, NULL, 0, &o, eb));
        const lg_edge_t *off;
        const lg_vertex_t *idx;
        CHECK_OK(lg_graph_csr(t.g, &off, &idx, NULL));
        for (int64_t u = 0; u < 50; u++)
            for (lg_edge_t a = off[u]; a < off[u + 1]; a++) {
                const int64_t lo = u < idx[a] ? u : idx[a];
                CHECK(eb[a] == (double)((lo + 1) * (49 - lo)));
            }
        /* the refusals name the entry point */
        o.endpoints = true;
        CHECK_STATUS(lg_edge_betweenness(ctx[0], t.g, NULL, 0, &o, eb), LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("lg_edge_betweenness: endpoints is true");
        const lg_vertex_t twice[2] = {3, 3};
        CHECK_STATUS(lg_edge_betweenness(ctx[0], t.g, twice, 2, NULL, eb), LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("lg_edge_betweenness: source 3 is given twice");
        CHECK_STATUS(lg_edge_betweenness(ctx[0], t.g, NULL, 0, NULL, NULL),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("lg_edge_betweenness: centrality is NULL");
        free(eb);
    }
    tgraph_free(&t);
    el_free(&el);
}

/* ---- a subset's betweenness ---------------------------------------------------------------- */

/* NetworkX's betweenness_centrality_subset: the sources' searches, a
 * path's end counted at the targets only, then its own _rescale. */
static void subset_oracle(const struct bc_graph *b, const lg_vertex_t *sources, int64_t k,
                          const unsigned char *targets, bool normalized, bool rescale, double *bc)
{
    const int64_t n = b->g->n;
    for (int64_t v = 0; v < n; v++)
        bc[v] = 0.0;
    for (int64_t i = 0; i < k; i++)
        brandes_from(b, sources[i], false, targets, bc);
    double scale = 1.0;
    if (normalized)
        scale = n > 2 ? 1.0 / (double)((n - 1) * (n - 2)) : 1.0;
    else if (!b->g->directed)
        scale = 0.5;
    if (rescale)
        for (int64_t v = 0; v < n; v++)
            bc[v] *= scale;
}

/* Samples of sources and targets (repeats among the targets; none, and
 * every vertex as NULL), normalized or not and the plain sums, on g. */
static void check_subsets(const lg_graph_t *g, const struct bc_graph *b, bool use_weights,
                          unsigned long long *rng)
{
    const int64_t n = b->g->n;
    if (n <= 0)
        return; /* no vertex to draw */
    double *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    lg_vertex_t *sample = or_alloc((size_t)n + 1, sizeof *sample);
    lg_vertex_t *targets = or_alloc((size_t)n + 1, sizeof *targets);
    unsigned char *mark = or_alloc((size_t)n + 1, 1);
    for (int round = 0; round < 4; round++) {
        const int64_t k = n < 5 ? n : 1 + (int64_t)or_rand_below(rng, (uint64_t)(n / 2));
        /* round 0: every vertex a target (NULL); 1: none; else a third, repeats allowed */
        const int64_t nt = round == 0 ? 0 : round == 1 ? 0 : 1 + n / 3;
        draw_sample(sample, n, k, rng);
        memset(mark, round == 0, (size_t)n);
        for (int64_t i = 0; i < nt; i++) {
            targets[i] = (lg_vertex_t)or_rand_below(rng, (uint64_t)n);
            mark[targets[i]] = 1;
        }
        for (int flags = 0; flags < 3; flags++) { /* 2: the plain sums */
            const bool normalized = flags == 1, rescale = flags < 2;
            subset_oracle(b, sample, k, mark, normalized, rescale, want);
            lg_betweenness_options_t o;
            lg_betweenness_options_init(&o);
            o.normalized = normalized;
            o.use_weights = use_weights;
            o.rescale = rescale;
            const int c = (int)((flags + round) % NUM_CTX);
            for (int64_t v = 0; v < n; v++)
                got[v] = -7.0;
            const lg_status_t st = lg_betweenness_subset(ctx[c], g, sample, k,
                                                         round == 0 ? NULL : targets, nt, &o, got);
            bc_runs++;
            CHECK(st == LG_OK);
            if (st != LG_OK) {
                report("lg_betweenness_subset, %d threads: %s: %s", c + 1, lg_status_string(st),
                       lg_last_error());
                continue;
            }
            CHECK(n == 0 || or_ran_on_expected(BC_ON_GPU));
            const int64_t bad = first_far(got, want, n);
            CHECK(bad < 0);
            if (bad >= 0)
                report("lg_betweenness_subset, %d threads, %lld sources, %lld targets (round "
                       "%d), normalized %d, rescale %d, weights %d: vertex %lld has %.17g, "
                       "want %.17g",
                       c + 1, (long long)k, (long long)nt, round, normalized, rescale, use_weights,
                       (long long)bad, got[bad], want[bad]);
        }
    }
    free(want);
    free(got);
    free(sample);
    free(targets);
    free(mark);
}

static void test_subsets(void)
{
    over_shapes(harness_rounds(72, 24), 4700, check_subsets, false);
    /* refusals */
    struct tgraph t;
    struct elist el;
    el_init(&el, 50);
    el_path(&el, 0, 50, false);
    set_subject("subset refusals, path of 50");
    if (tgraph_from_elist(&t, &el, false, false, 0)) {
        double *bc = or_alloc(50, sizeof *bc);
        const lg_vertex_t s[2] = {0, 49}, bad[1] = {50}, mid[2] = {25, 25};
        CHECK_STATUS(lg_betweenness_subset(ctx[0], NULL, s, 2, s, 2, NULL, bc),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("graph is NULL");
        CHECK_STATUS(lg_betweenness_subset(ctx[0], t.g, s, 2, bad, 1, NULL, bc),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("target 50 is not a vertex");
        CHECK_STATUS(lg_betweenness_subset(ctx[0], t.g, s, 2, NULL, 1, NULL, bc),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("targets is NULL");
        CHECK_STATUS(lg_betweenness_subset(ctx[0], t.g, s, 2, s, -1, NULL, bc),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("num_targets < 0");
        CHECK_STATUS(lg_betweenness_subset(ctx[0], t.g, bad, 1, s, 2, NULL, bc),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("source 50 is not a vertex");
        lg_betweenness_options_t o;
        lg_betweenness_options_init(&o);
        o.endpoints = true;
        CHECK_STATUS(lg_betweenness_subset(ctx[0], t.g, s, 2, s, 2, &o, bc),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("endpoints is true");
        /* from both ends to the middle (twice: counted once), unnormalized, halved:
         * each vertex strictly between an end and 25 is on one path of the two */
        lg_betweenness_options_init(&o);
        o.normalized = false;
        CHECK_OK(lg_betweenness_subset(ctx[0], t.g, s, 2, mid, 2, &o, bc));
        CHECK(bc[0] == 0.0 && bc[1] == 0.5 && bc[24] == 0.5 && bc[25] == 0.0 && bc[26] == 0.5 &&
              bc[49] == 0.0);
        free(bc);
    }
    tgraph_free(&t);
    el_free(&el);
}

static bool stop_at_second(const lg_progress_info_t *info, void *data)
{
    int *calls = data;
    CHECK(info->stage == LG_STAGE_BETWEENNESS);
    CHECK(info->total == 300 && info->done > 0 && info->done <= info->total);
    return ++*calls < 2;
}

static void test_refusals(void)
{
    struct elist el;
    el_init(&el, 300);
    el_path(&el, 0, 300, false);
    el.w[5] = -1.0f;
    struct tgraph t;
    set_subject("path of 300");
    if (!tgraph_from_elist(&t, &el, true, true, 0)) {
        el_free(&el);
        return;
    }
    double *bc = or_alloc(300, sizeof *bc);
    lg_vertex_t s[3] = {0, 7, 0}, bad = 300;
    CHECK_STATUS(lg_betweenness(ctx[0], NULL, NULL, 0, NULL, bc), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("graph is NULL");
    CHECK_STATUS(lg_betweenness(ctx[0], t.g, NULL, 0, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("centrality is NULL");
    CHECK_STATUS(lg_betweenness(ctx[0], t.g, &bad, 1, NULL, bc), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("source 300 is not a vertex");
    CHECK_STATUS(lg_betweenness(ctx[0], t.g, NULL, 2, NULL, bc), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("sources is NULL");
    CHECK_STATUS(lg_betweenness(ctx[0], t.g, s, -1, NULL, bc), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("num_sources < 0");
    CHECK_STATUS(lg_betweenness(ctx[0], t.g, s, 3, NULL, bc), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("source 0 is given twice");
    /* the negative arc: refused with weights, counted as 1 without */
    CHECK_STATUS(lg_betweenness(ctx[0], t.g, NULL, 0, NULL, bc), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("the arc 5 -> 6 weighs -1: weighted betweenness needs weights > 0");
    /* a zero weight too (float64 graph) */
    {
        const lg_vertex_t zs[2] = {0, 1}, zd[2] = {1, 2};
        const double zw[2] = {1.0, 0.0};
        lg_graph_t *z = NULL;
        lg_graph_options_t zo = graph_options(true);
        CHECK_OK(lg_graph_from_edges_f64(ctx[0], 3, 2, zs, zd, zw, &zo, &z));
        CHECK_STATUS(lg_betweenness(ctx[0], z, NULL, 0, NULL, bc), LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE("the arc 1 -> 2 weighs 0: weighted betweenness needs weights > 0");
        lg_graph_free(&z);
    }
    lg_betweenness_options_t o;
    lg_betweenness_options_init(&o);
    o.use_weights = false;
    o.normalized = false;
    CHECK_OK(lg_betweenness(ctx[0], t.g, NULL, 0, &o, bc));
    /* on a directed path, vertex v lies on v * (299 - v) paths */
    CHECK(bc[0] == 0.0 && bc[1] == 298.0 && bc[150] == 150.0 * 149.0 && bc[299] == 0.0);
    o.output_memory = (lg_memory_t)7;
    CHECK_STATUS(lg_betweenness(ctx[0], t.g, NULL, 0, &o, bc), LG_ERR_INVALID_ARGUMENT);
    /* cancellation: stopped at the second report, then the same call to the end */
    lg_betweenness_options_init(&o);
    o.use_weights = false;
    int calls = 0;
    o.progress = stop_at_second;
    o.progress_data = &calls;
    CHECK_STATUS(lg_betweenness(ctx[1], t.g, NULL, 0, &o, bc), LG_ERR_CANCELLED);
    CHECK(calls == 2);
    CHECK_MESSAGE("cancelled");
    calls = -1000000;
    CHECK_OK(lg_betweenness(ctx[1], t.g, NULL, 0, &o, bc));
    CHECK(bc[1] == 298.0 * (1.0 / (299.0 * 298.0)));
    /* an empty graph: nothing to do, nothing written */
    lg_graph_t *empty = NULL;
    lg_graph_options_t go = graph_options(false);
    CHECK_OK(lg_graph_from_edges(ctx[0], 0, 0, NULL, NULL, NULL, &go, &empty));
    CHECK_OK(lg_betweenness(ctx[0], empty, NULL, 0, NULL, bc));
    lg_graph_free(&empty);
    free(bc);
    tgraph_free(&t);
    el_free(&el);
}

static void print_runs(void)
{
    printf("%ld betweenness runs\n", bc_runs);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"betweenness shapes", test_shapes},  {"betweenness float64", test_float64},
        {"betweenness larger", test_larger},  {"edge betweenness", test_edges},
        {"subset betweenness", test_subsets}, {"betweenness refusals", test_refusals},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_runs);
}
