/*
 * test_errors_alloc.c - allocation failures through the public API, against
 * the oracles of oracle.h.
 *
 * The k-th allocation fails (lg__alloc_fail_after), for k = 0, 1, 2, ...
 * until a whole pipeline runs through: build, CSC, BFS with parents,
 * PageRank in both precisions, components, in-degrees, from_csr of the
 * graph's own arrays (directed and undirected, weighted and not, on 2 and 3
 * threads); then context creation, file reading and generation.  Every call
 * must return LG_OK or LG_ERR_OUT_OF_MEMORY with a message, never crash or
 * leak (the sanitizer build checks the leaks), leave its outputs untouched
 * when it fails, and give the oracle's answer when it succeeds.  PageRank's
 * hub order, an optimisation with memory of its own, is done without when
 * its memory cannot be had, with the same scores and the message untouched.
 */
#define _POSIX_C_SOURCE 200809L

#include "alloc_sites.h"
#include "errors_util.h"
#include "internal.h" /* lg__alloc_fail_after, lg__pagerank_hub_runs */
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>

/* The answers the sweep's successful calls must give, computed with no
 * failure injected. */
struct expected {
    or_graph o;
    int32_t dist[64];
    lg_vertex_t labels[64];
    int64_t count;
    double pr[64];
    int pr_iters;
    double sssp[64];
    lg_vertex_t scc[64];
    double bc[3][64];        /* lg_betweenness from every vertex, from two, and the subset between
                              * two (no failure injected) */
    double closeness[2][64]; /* lg_closeness by hops and by weights (likewise) */
    double power[4][64];     /* eigenvector, Katz, HITS's hubs and authorities (likewise) */
    float power32[4][64];    /* the same from the float twins (HITS at tol 1e-5) */
};

/* Strongly connected components by reachability from every vertex (the
 * sweep's graphs have 40 vertices): scc[v] = the smallest u that v reaches
 * and that reaches v. */
static void scc_by_closure(const or_graph *o, lg_vertex_t *scc)
{
    bool reach[64][64] = {{false}};
    for (int64_t s = 0; s < o->n; s++) {
        lg_vertex_t queue[64];
        int head = 0, tail = 0;
        reach[s][s] = true;
        queue[tail++] = (lg_vertex_t)s;
        while (head < tail) {
            const lg_vertex_t u = queue[head++];
            for (lg_edge_t e = o->off[u]; e < o->off[u + 1]; e++)
                if (!reach[s][o->idx[e]]) {
                    reach[s][o->idx[e]] = true;
                    queue[tail++] = o->idx[e];
                }
        }
    }
    for (int64_t v = 0; v < o->n; v++)
        for (int64_t u = 0; u <= v; u++)
            if (reach[u][v] && reach[v][u]) {
                scc[v] = (lg_vertex_t)u;
                break;
            }
}

/* Shortest distances from vertex 1 by Bellman-Ford (the oracle of the
 * sweep's lg_sssp calls; its weights are multiples of 1/8, exact). */
static void bellman_ford(const or_graph *o, double *dist)
{
    for (int64_t v = 0; v < o->n; v++)
        dist[v] = v == 1 ? 0.0 : INFINITY;
    for (int64_t round = 0; round < o->n; round++)
        for (int64_t u = 0; u < o->n; u++)
            for (lg_edge_t e = o->off[u]; e < o->off[u + 1]; e++) {
                const double d = dist[u] + (o->w ? (double)o->w[e] : 1.0);
                if (d < dist[o->idx[e]])
                    dist[o->idx[e]] = d;
            }
}

static long sweep_failures_reported;
/* Set when a call under injection fails other than by running out of memory:
 * a broken call, reported once, need not be swept to the end. */
static bool sweep_broken;

/* One call's status under injection: LG_OK, or LG_ERR_OUT_OF_MEMORY with a
 * message.  Returns whether it succeeded. */
static bool sweep_ok(lg_status_t st, const char *call, long k)
{
    bool fine = st == LG_OK || (st == LG_ERR_OUT_OF_MEMORY && lg_last_error()[0] != '\0');
    CHECK(fine);
    if (!fine)
        sweep_broken = true;
    if (!fine && sweep_failures_reported++ < 10)
        fprintf(stderr, "  allocation %ld fails: %s returned %s, message \"%s\"\n", k, call,
                lg_status_string(st), lg_last_error());
    return st == LG_OK;
}

/* The pipeline on one graph with the k-th allocation failing; returns true
 * when every call succeeded. */
static bool sweep_once(long k, lg_context_t *c, int64_t n, int64_t E, const lg_vertex_t *src,
                       const lg_vertex_t *dst, const float *w, const lg_graph_options_t *o,
                       const struct expected *want)
{
    bool all = true;
    lg_graph_t *g = POISON_GRAPH, *g2 = POISON_GRAPH;
    int32_t dist[64];
    lg_vertex_t parents[64], labels[64];
    double pr[64];
    float prf[64];
    lg_pagerank_result_t r = {-9, 0.0, false};
    int64_t count = -9;

    lg__alloc_fail_after(k);
    lg_status_t st = lg_graph_from_edges(c, n, E, src, dst, w, o, &g);
    lg__alloc_fail_after(-1);
    if (!sweep_ok(st, "lg_graph_from_edges", k)) {
        CHECK(g == POISON_GRAPH);
        return false;
    }

    lg__alloc_fail_after(k);
    const lg_edge_t *coff = NULL;
    st = lg_graph_csc(g, &coff, NULL, NULL);
    all &= sweep_ok(st, "lg_graph_csc", k);
    CHECK(st != LG_OK || coff != NULL);

    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = true;
    for (int64_t v = 0; v < n; v++)
        dist[v] = -9, parents[v] = -9;
    st = lg_bfs(c, g, 1, &bo, dist, parents);
    if (sweep_ok(st, "lg_bfs", k)) {
        CHECK(memcmp(dist, want->dist, (size_t)n * sizeof *dist) == 0);
        CHECK(or_check_parents(&want->o, 1, want->dist, parents) < 0);
    } else {
        all = false;
        bool untouched = true;
        for (int64_t v = 0; v < n; v++)
            untouched = untouched && dist[v] == -9 && parents[v] == -9;
        CHECK(untouched);
    }

    for (int64_t v = 0; v < n; v++)
        pr[v] = -9.0, prf[v] = -9.0f;
    st = lg_pagerank(c, g, NULL, pr, &r);
    if (sweep_ok(st, "lg_pagerank", k)) {
        CHECK(r.iterations == want->pr_iters);
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(pr[v] - want->pr[v]));
        CHECK(worst <= 1e-12);
    } else {
        all = false;
        bool untouched = true;
        for (int64_t v = 0; v < n; v++)
            untouched = untouched && pr[v] == -9.0;
        CHECK(untouched);
    }
    st = lg_pagerank_f32(c, g, NULL, prf, &r);
    if (sweep_ok(st, "lg_pagerank_f32", k)) {
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs((double)prf[v] - want->pr[v]));
        CHECK(worst <= 1e-4);
    } else {
        all = false;
        bool untouched = true;
        for (int64_t v = 0; v < n; v++)
            untouched = untouched && prf[v] == -9.0f;
        CHECK(untouched);
    }

    for (int64_t v = 0; v < n; v++)
        labels[v] = -9;
    st = lg_connected_components(c, g, NULL, labels, &count);
    if (sweep_ok(st, "lg_connected_components", k)) {
        CHECK(memcmp(labels, want->labels, (size_t)n * sizeof *labels) == 0);
        CHECK(count == want->count);
    } else {
        all = false;
        CHECK(labels[0] == -9 && count == -9);
    }

    /* SSSP in one bucket (a growing frontier), and in hundreds (growing
     * bucket lists), with predecessors; the outputs may be written before
     * an allocation fails (lg_sssp says so) */
    for (int call = 0; call < 2; call++) {
        lg_sssp_options_t so;
        lg_sssp_options_init(&so);
        so.compute_predecessors = true;
        so.delta = call ? 0.01 : 1e6;
        const lg_vertex_t one = 1;
        double sd[64];
        st = lg_sssp(c, g, &one, 1, &so, sd, parents);
        if (sweep_ok(st, "lg_sssp", k))
            CHECK(memcmp(sd, want->sssp, (size_t)n * sizeof *sd) == 0);
        else
            all = false;
    }

    for (int64_t v = 0; v < n; v++)
        labels[v] = -9;
    st = lg_strongly_connected_components(c, g, NULL, labels, NULL);
    if (sweep_ok(st, "lg_strongly_connected_components", k))
        CHECK(memcmp(labels, want->scc, (size_t)n * sizeof *labels) == 0);
    else
        all = false;

    /* betweenness from every vertex, and from two (the check of distinct
     * sources, the sample's marks), and the subset between two (its targets) */
    for (int call = 0; call < 3; call++) {
        const lg_vertex_t two[2] = {3, 1};
        double bc[64];
        st = call == 2 ? lg_betweenness_subset(c, g, two, 2, two, 2, NULL, bc)
                       : lg_betweenness(c, g, call ? two : NULL, call ? 2 : 0, NULL, bc);
        if (sweep_ok(st, call == 2 ? "lg_betweenness_subset" : "lg_betweenness", k))
            CHECK(memcmp(bc, want->bc[call], (size_t)n * sizeof *bc) == 0);
        else
            all = false;
    }

    /* closeness by hops, and by weights (the heap's arrays) */
    for (int call = 0; call < 2; call++) {
        lg_closeness_options_t co;
        lg_closeness_options_init(&co);
        co.use_weights = call == 1;
        double cl[64];
        st = lg_closeness(c, g, &co, cl);
        if (sweep_ok(st, "lg_closeness", k))
            CHECK(memcmp(cl, want->closeness[call], (size_t)n * sizeof *cl) == 0);
        else
            all = false;
    }

    /* the power iterations (each has its vectors and its blocks' sums) */
    {
        double x[4][64];
        lg_katz_options_t ko;
        lg_katz_options_init(&ko);
        ko.alpha = 0.01;
        lg_eigenvector_options_t eo;
        lg_eigenvector_options_init(&eo);
        eo.max_iter = 1000;
        st = lg_eigenvector(c, g, &eo, x[0], NULL);
        if (sweep_ok(st, "lg_eigenvector", k))
            CHECK(memcmp(x[0], want->power[0], (size_t)n * sizeof **x) == 0);
        else
            all = false;
        st = lg_katz(c, g, &ko, x[1], NULL);
        if (sweep_ok(st, "lg_katz", k))
            CHECK(memcmp(x[1], want->power[1], (size_t)n * sizeof **x) == 0);
        else
            all = false;
        st = lg_hits(c, g, NULL, x[2], x[3], NULL);
        if (sweep_ok(st, "lg_hits", k))
            CHECK(memcmp(x[2], want->power[2], (size_t)n * sizeof **x) == 0 &&
                  memcmp(x[3], want->power[3], (size_t)n * sizeof **x) == 0);
        else
            all = false;
        float f[4][64];
        lg_hits_options_t ho;
        lg_hits_options_init(&ho);
        ho.tol = 1e-5;
        st = lg_eigenvector_f32(c, g, &eo, f[0], NULL);
        if (sweep_ok(st, "lg_eigenvector_f32", k))
            CHECK(memcmp(f[0], want->power32[0], (size_t)n * sizeof **f) == 0);
        else
            all = false;
        st = lg_katz_f32(c, g, &ko, f[1], NULL);
        if (sweep_ok(st, "lg_katz_f32", k))
            CHECK(memcmp(f[1], want->power32[1], (size_t)n * sizeof **f) == 0);
        else
            all = false;
        st = lg_hits_f32(c, g, &ho, f[2], f[3], NULL);
        if (sweep_ok(st, "lg_hits_f32", k))
            CHECK(memcmp(f[2], want->power32[2], (size_t)n * sizeof **f) == 0 &&
                  memcmp(f[3], want->power32[3], (size_t)n * sizeof **f) == 0);
        else
            all = false;
    }

    lg_edge_t deg[64];
    all &= sweep_ok(lg_graph_in_degrees(g, deg), "lg_graph_in_degrees", k);

    /* from_csr of the graph's own arrays */
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *gw;
    lg__alloc_fail_after(-1);
    CHECK_OK(lg_graph_csr(g, &off, &idx, &gw));
    lg_graph_options_t rt;
    lg_graph_options_init(&rt);
    rt.directedness = lg_graph_is_directed(g) ? LG_DIRECTED : LG_UNDIRECTED;
    lg__alloc_fail_after(k);
    st = lg_graph_from_csr(c, n, off, idx, gw, &rt, &g2);
    lg__alloc_fail_after(-1);
    if (sweep_ok(st, "lg_graph_from_csr", k))
        CHECK(lg_graph_num_edges(g2) == lg_graph_num_edges(g));
    else {
        all = false;
        CHECK(g2 == POISON_GRAPH);
        g2 = NULL;
    }
    lg_graph_free(&g2);
    lg_graph_free(&g);
    return all;
}

/* want->bc and want->closeness: the library's own values with no failure
 * injected (the sweep checks that a failure changes nothing;
 * test_betweenness.c and test_closeness.c check the values against oracles). */
static void expected_betweenness(lg_context_t *c, int64_t n, int64_t E, const lg_vertex_t *src,
                                 const lg_vertex_t *dst, const float *w,
                                 const lg_graph_options_t *o, struct expected *want)
{
    lg_graph_t *g = NULL;
    const lg_vertex_t two[2] = {3, 1};
    lg__alloc_fail_after(-1);
    CHECK_OK(lg_graph_from_edges(c, n, E, src, dst, w, o, &g));
    CHECK_OK(lg_betweenness(c, g, NULL, 0, NULL, want->bc[0]));
    CHECK_OK(lg_betweenness(c, g, two, 2, NULL, want->bc[1]));
    CHECK_OK(lg_betweenness_subset(c, g, two, 2, two, 2, NULL, want->bc[2]));
    for (int call = 0; call < 2; call++) {
        lg_closeness_options_t co;
        lg_closeness_options_init(&co);
        co.use_weights = call == 1;
        CHECK_OK(lg_closeness(c, g, &co, want->closeness[call]));
    }
    lg_katz_options_t ko;
    lg_katz_options_init(&ko);
    ko.alpha = 0.01;
    lg_eigenvector_options_t eo;
    lg_eigenvector_options_init(&eo);
    eo.max_iter = 1000;
    CHECK_OK(lg_eigenvector(c, g, &eo, want->power[0], NULL));
    CHECK_OK(lg_katz(c, g, &ko, want->power[1], NULL));
    CHECK_OK(lg_hits(c, g, NULL, want->power[2], want->power[3], NULL));
    lg_hits_options_t ho;
    lg_hits_options_init(&ho);
    ho.tol = 1e-5;
    CHECK_OK(lg_eigenvector_f32(c, g, &eo, want->power32[0], NULL));
    CHECK_OK(lg_katz_f32(c, g, &ko, want->power32[1], NULL));
    CHECK_OK(lg_hits_f32(c, g, &ho, want->power32[2], want->power32[3], NULL));
    lg_graph_free(&g);
}

/* More allocations than any of the swept pipelines makes. */
#define SWEEP_MAX 10000

static void test_allocation_failures(void)
{
    /* a directed graph with duplicates, self-loops and a sink; and the same undirected */
    enum {
        N = 40,
        E = 150
    };
    lg_vertex_t src[E], dst[E];
    float w[E];
    unsigned long long rng = 2024;
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)or_rand_below(&rng, N - 1); /* N-1 is a sink */
        dst[i] = (lg_vertex_t)or_rand_below(&rng, N);
        w[i] = (float)(1 + or_rand_below(&rng, 40)) / 8.0f; /* > 0: betweenness takes them */
    }
    lg_context_t *c3 = NULL;
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.num_threads = 3;
    CHECK_OK(lg_context_create(&c3, &co));

    for (int variant = 0; variant < 4; variant++) {
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = variant % 2 ? LG_UNDIRECTED : LG_DIRECTED;
        o.duplicates = variant < 2 ? LG_DUPLICATES_SUM : LG_DUPLICATES_KEEP;
        o.drop_self_loops = variant == 1;
        const float *wv = variant < 3 ? w : NULL;
        lg_context_t *c = variant % 2 ? c3 : ctx;

        struct expected want;
        or_build(&want.o, N, E, src, dst, wv, &o);
        or_bfs(&want.o, 1, want.dist);
        want.count = or_components(&want.o, want.labels);
        bellman_ford(&want.o, want.sssp);
        scc_by_closure(&want.o, want.scc);
        expected_betweenness(c, N, E, src, dst, wv, &o, &want);
        or_pagerank(&want.o, 0.85, NULL, NULL, NULL, true, 100, 1e-6, want.pr, &want.pr_iters,
                    NULL);

        long k = 0;
        sweep_broken = false;
        for (; k < SWEEP_MAX; k++)
            if (sweep_once(k, c, N, E, src, dst, wv, &o, &want) || sweep_broken)
                break;
        CHECK(k > 0 && k < SWEEP_MAX); /* the first allocation failing fails something */
        printf("allocation sweep %d: %ld failure points\n", variant, k);
        or_graph_free(&want.o);
    }
    lg__alloc_fail_after(-1);

    /* contexts, files and generators under injection */
    char path[512];
    snprintf(path, sizeof path, "%s/lg_errors_sweep.wel", LG_TEST_TMP_DIR);
    write_file(path, "# a small weighted list\n0 1 0.5\n1 2 1.5\n2 0 2\n3 3 1\n2 1 0.25\n");
    const lg_edge_t want_off[] = {0, 1, 2, 4, 5};
    const lg_vertex_t want_idx[] = {1, 2, 0, 1, 3};
    /* an unweighted list, which the lean build (lg__build_lean) takes */
    char el_path[512];
    snprintf(el_path, sizeof el_path, "%s/lg_errors_sweep.el", LG_TEST_TMP_DIR);
    write_file(el_path, "0 1\n1 2\n2 0\n3 3\n2 1\n");
    const lg_edge_t el_off[] = {0, 2, 5, 8, 9}; /* undirected, duplicates and loop kept */
    const lg_vertex_t el_idx[] = {1, 2, 0, 2, 2, 0, 1, 1, 3};
    /* per call: 0 still sweeping, 1 succeeded, 2 broken (failed other than OOM) */
    int done[5] = {0, 0, 0, 0, 0};
    long k_files = 0;
    for (long k = 0; k < SWEEP_MAX && !(done[0] && done[1] && done[2] && done[3] && done[4]); k++) {
        k_files = k;
        if (!done[0]) {
            lg_context_t *cc = POISON_CONTEXT;
            lg__alloc_fail_after(k);
            lg_status_t st = lg_context_create(&cc, NULL);
            lg__alloc_fail_after(-1);
            sweep_broken = false;
            bool ok = sweep_ok(st, "lg_context_create", k);
            done[0] = ok ? 1 : sweep_broken ? 2 : 0;
            CHECK(ok ? cc != NULL : cc == NULL);
            lg_context_free(&cc);
        }
        if (!done[1]) {
            lg_graph_t *g = POISON_GRAPH;
            /* windows shorter than the comment line, which one must grow for */
            const size_t window = lg__text_window_bytes(16);
            lg__alloc_fail_after(k);
            lg_status_t st = lg_graph_read(ctx, path, LG_FORMAT_AUTO, tu_directed(), &g);
            lg__alloc_fail_after(-1);
            lg__text_window_bytes(window);
            sweep_broken = false;
            bool ok = sweep_ok(st, "lg_graph_read", k);
            done[1] = ok ? 1 : sweep_broken ? 2 : 0;
            if (ok) {
                const lg_edge_t *off;
                const lg_vertex_t *idx;
                CHECK_OK(lg_graph_csr(g, &off, &idx, NULL));
                CHECK(lg_graph_num_vertices(g) == 4 && lg_graph_num_edges(g) == 5 &&
                      memcmp(off, want_off, sizeof want_off) == 0 &&
                      memcmp(idx, want_idx, sizeof want_idx) == 0);
            } else {
                CHECK(g == POISON_GRAPH);
                g = NULL;
            }
            lg_graph_free(&g);
        }
        if (!done[2]) {
            lg_graph_t *g = POISON_GRAPH;
            lg__alloc_fail_after(k);
            lg_status_t st = lg_generate(c3, LG_GENERATOR_KRONECKER, 6, 4, 7, NULL, &g);
            lg__alloc_fail_after(-1);
            sweep_broken = false;
            bool ok = sweep_ok(st, "lg_generate", k);
            done[2] = ok ? 1 : sweep_broken ? 2 : 0;
            CHECK(ok ? g != POISON_GRAPH : g == POISON_GRAPH);
            if (!ok)
                g = NULL;
            lg_graph_free(&g);
        }
        /* the lean build: a generated graph, then an unweighted file */
        for (int call = 3; call < 5; call++) {
            if (done[call])
                continue;
            lg_graph_t *g = POISON_GRAPH, *want = NULL;
            const int was = lg__build_lean(1);
            lg__alloc_fail_after(k);
            lg_status_t st = call == 3 ? lg_generate(c3, LG_GENERATOR_KRONECKER, 6, 4, 7, NULL, &g)
                                       : lg_graph_read(c3, el_path, LG_FORMAT_AUTO, NULL, &g);
            lg__alloc_fail_after(-1);
            lg__build_lean(was);
            sweep_broken = false;
            bool ok = sweep_ok(st, call == 3 ? "lg_generate (lean)" : "lg_graph_read (lean)", k);
            done[call] = ok ? 1 : sweep_broken ? 2 : 0;
            if (!ok) {
                CHECK(g == POISON_GRAPH);
                continue;
            }
            const lg_edge_t *off, *woff;
            const lg_vertex_t *idx, *widx;
            CHECK_OK(lg_graph_csr(g, &off, &idx, NULL));
            if (call == 3) { /* as built by the one sort */
                CHECK_OK(lg_generate(c3, LG_GENERATOR_KRONECKER, 6, 4, 7, NULL, &want));
                CHECK_OK(lg_graph_csr(want, &woff, &widx, NULL));
                CHECK(memcmp(off, woff, 65 * sizeof *off) == 0 &&
                      memcmp(idx, widx, (size_t)off[64] * sizeof *idx) == 0);
            } else {
                CHECK(memcmp(off, el_off, sizeof el_off) == 0 &&
                      memcmp(idx, el_idx, sizeof el_idx) == 0);
            }
            lg_graph_free(&want);
            lg_graph_free(&g);
        }
    }
    remove(el_path);
    CHECK(done[0] == 1 && done[1] == 1 && done[2] == 1 && done[3] == 1 && done[4] == 1);
    printf("allocation sweep of contexts, files, generators: %ld failure points\n", k_files);
    remove(path);
    lg_context_free(&c3);
}

/* A graph large enough for a team of threads, so the build's per-chunk
 * histograms (csr.c) are made, and fail, in their turn: each failure is
 * LG_ERR_OUT_OF_MEMORY and the graph built at last has every arc. */
static void test_parallel_build_failures(void)
{
    enum {
        N = 20000,
        E = 40000
    };
    lg_vertex_t *src = malloc(E * sizeof *src), *dst = malloc(E * sizeof *dst);
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.num_threads = 3;
    lg_context_t *c3 = NULL;
    CHECK_OK(lg_context_create(&c3, &co));
    if (!src || !dst || !c3)
        goto done;
    unsigned long long rng = 31;
    int64_t loops = 0;
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)or_rand_below(&rng, N);
        dst[i] = (lg_vertex_t)or_rand_below(&rng, N);
        loops += src[i] == dst[i];
    }
    long k = 0;
    for (; k < SWEEP_MAX; k++) {
        lg_graph_t *g = NULL;
        lg__alloc_fail_after(k);
        const lg_status_t st = lg_graph_from_edges(c3, N, E, src, dst, NULL, NULL, &g);
        lg__alloc_fail_after(-1);
        if (!sweep_ok(st, "lg_graph_from_edges (3 threads)", k))
            continue;
        CHECK(lg_graph_num_edges(g) == 2 * (int64_t)E - loops); /* undirected: both arcs */
        lg_graph_free(&g);
        break;
    }
    CHECK(k > 0 && k < SWEEP_MAX);
done:
    free(src);
    free(dst);
    lg_context_free(&c3);
}

/* Makes the k-th allocation of lg_pagerank fail for k = 0, 1, ... until a
 * call takes the optional layout whose runs `runs` counts (hub order or
 * segments): every failure before is LG_ERR_OUT_OF_MEMORY with
 * the scores untouched, or the call going on without the layout, with the
 * same scores and the thread's last message untouched. */
static void sweep_optional_layout(const lg_graph_t *g, const lg_pagerank_options_t *po,
                                  const double *want, const lg_pagerank_result_t *want_r,
                                  long (*runs_of)(void), const char *what)
{
    const int64_t n = lg_graph_num_vertices(g);
    double *got = or_alloc((size_t)n, sizeof *got);
    lg_pagerank_result_t r = {-1, 0.0, false};
    long k, taken = 0, without = 0;
    for (k = 0; k < SWEEP_MAX; k++) {
        CHECK(lg_bfs(ctx, g, -1, NULL, NULL, NULL) == LG_ERR_INVALID_ARGUMENT);
        char before[LG_ERROR_CAPACITY];
        snprintf(before, sizeof before, "%s", lg_last_error());
        for (int64_t v = 0; v < n; v++)
            got[v] = -9.0;
        lg__alloc_fail_after(k);
        lg_status_t st = lg_pagerank(ctx, g, po, got, &r);
        lg__alloc_fail_after(-1);
        const long runs = runs_of();
        if (st == LG_ERR_OUT_OF_MEMORY) {
            bool untouched = true;
            for (int64_t v = 0; v < n; v++)
                untouched = untouched && got[v] == -9.0;
            CHECK(untouched);
            continue;
        }
        CHECK(st == LG_OK && r.iterations == want_r->iterations);
        /* the same sums (in another order over segments); the reductions of
         * the error and the dangling mass may differ in the last bit */
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(got[v] - want[v]) / want[v]);
        CHECK(worst <= 1e-12);
        CHECK(strcmp(before, lg_last_error()) == 0);
        if (runs == 0) {
            without++;
            continue;
        }
        taken = runs;
        break; /* from here on nothing fails */
    }
    CHECK(without > 0 && taken == 1 && k < SWEEP_MAX);
    printf("PageRank %s: %ld allocations failed without failing the call\n", what, without);
    free(got);
}

/* PageRank's hub order (pagerank.c) and segments (pagerank_segments.c) are optimisations with memory of their own: when
 * that memory cannot be had, the call goes on without, with the same scores
 * and the thread's last message untouched; only the allocations the call
 * cannot do without fail it. */
static void test_pagerank_hub_order_failures(void)
{
    lg_graph_t *g = NULL;
    CHECK_OK(lg_generate(ctx, LG_GENERATOR_KRONECKER, 12, 16, 5, NULL, &g));
    if (!g)
        return;
    const int64_t n = lg_graph_num_vertices(g);
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.tol = 1e-12; /* many iterations: worth a hub order */
    double *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    lg_pagerank_result_t want_r = {-1, 0.0, false}, r = {-1, 0.0, false};
    const size_t hub_min = lg__pagerank_hub_min_bytes(0); /* a small graph reaches it */
    (void)lg__pagerank_hub_runs();
    CHECK_OK(lg_pagerank(ctx, g, &po, want, &want_r));
    CHECK(lg__pagerank_hub_runs() == 1);
    sweep_optional_layout(g, &po, want, &want_r, lg__pagerank_hub_runs, "hub order");
    const size_t seg_min = lg__pagerank_segment_min_bytes(1);
    const int seg_shift = lg__pagerank_segment_shift(9);
    (void)lg__pagerank_segmented_runs();
    sweep_optional_layout(g, &po, want, &want_r, lg__pagerank_segmented_runs, "segments");
    {
        /* a weighted graph: the segments copy the weights too */
        const int64_t E = (int64_t)16 << 10;
        lg_vertex_t *src = or_alloc((size_t)E, sizeof *src),
                    *dst = or_alloc((size_t)E, sizeof *dst);
        float *w = or_alloc((size_t)E, sizeof *w);
        CHECK_OK(lg_generate_edges(ctx, LG_GENERATOR_KRONECKER, 10, 16, 9, src, dst));
        for (int64_t i = 0; i < E; i++)
            w[i] = (float)(1 + i % 5);
        lg_graph_t *wg = NULL;
        CHECK_OK(lg_graph_from_edges(ctx, 1024, E, src, dst, w, NULL, &wg));
        double *wwant = or_alloc(1024, sizeof *wwant);
        lg_pagerank_result_t wwant_r = {-1, 0.0, false};
        if (wg) {
            lg__pagerank_segment_min_bytes(SIZE_MAX);
            CHECK_OK(lg_pagerank(ctx, wg, &po, wwant, &wwant_r));
            lg__pagerank_segment_min_bytes(1);
            sweep_optional_layout(wg, &po, wwant, &wwant_r, lg__pagerank_segmented_runs,
                                  "segments, weighted");
        }
        lg_graph_free(&wg);
        free(wwant);
        free(src);
        free(dst);
        free(w);
    }
    lg__pagerank_segment_min_bytes(seg_min);
    lg__pagerank_segment_shift(seg_shift);
    (void)lg__pagerank_hub_runs(); /* taken where the segments' memory failed */
    /* not asked for when it would take more than half of the memory the
     * system has available (lg__can_spare): the same scores without it */
    const int64_t m = lg_graph_num_edges(g);
    const long long need = (long long)((m + n) * (int64_t)sizeof(lg_vertex_t));
    const long long avail[] = {0, 2 * need - 1, 2 * need, -1};
    const long runs_want[] = {0, 0, 1, 1};
    for (int i = 0; i < 4; i++) {
        lg__mem_available_override(avail[i]);
        for (int64_t v = 0; v < n; v++)
            got[v] = -9.0;
        CHECK_OK(lg_pagerank(ctx, g, &po, got, &r));
        CHECK(lg__pagerank_hub_runs() == runs_want[i] && r.iterations == want_r.iterations);
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(got[v] - want[v]) / want[v]);
        CHECK(worst <= 1e-12);
    }
    lg__mem_available_override(-1);
    /* with the default size rule a graph this small never takes it */
    lg__pagerank_hub_min_bytes(hub_min);
    CHECK_OK(lg_pagerank(ctx, g, &po, got, &r));
    CHECK(lg__pagerank_hub_runs() == 0 && r.iterations == want_r.iterations);
    free(want);
    free(got);
    lg_graph_free(&g);
}
/* float64 graphs (built, converted both ways, from their CSR, through a
 * .lgb) and Bellman-Ford on them, with each allocation failing in turn:
 * every call succeeds or says it ran out of memory, and a graph that fails
 * is not written. */
static bool float64_once(long k, lg_context_t *c)
{
    enum {
        N = 30,
        E = 90
    };
    lg_vertex_t src[E], dst[E];
    double w[E];
    float wf[E];
    unsigned long long rng = 77;
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)or_rand_below(&rng, N);
        dst[i] = (lg_vertex_t)or_rand_below(&rng, N);
        w[i] = (double)or_rand_below(&rng, 30) / 10.0 + 0.1;
        wf[i] = (float)w[i];
    }
    src[0] = 0, dst[0] = 1, w[0] = -0.5; /* a negative arc, no negative cycle */
    bool all = true;
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_DIRECTED;
    o.duplicates = LG_DUPLICATES_SUM;
    lg_graph_t *g = POISON_GRAPH, *g2 = POISON_GRAPH;
    lg__alloc_fail_after(k);
    lg_status_t st = lg_graph_from_edges_f64(c, N, E, src, dst, w, &o, &g);
    lg__alloc_fail_after(-1);
    if (!sweep_ok(st, "lg_graph_from_edges_f64", k)) {
        CHECK(g == POISON_GRAPH);
        return false;
    }
    CHECK(lg_graph_weight_type(g) == LG_WEIGHTS_FLOAT64);
    /* converted both ways */
    lg_graph_options_t conv = o;
    conv.weight_type = LG_WEIGHTS_FLOAT64;
    lg__alloc_fail_after(k);
    st = lg_graph_from_edges(c, N, E, src, dst, wf, &conv, &g2);
    lg__alloc_fail_after(-1);
    all &= sweep_ok(st, "lg_graph_from_edges to float64", k);
    CHECK(st == LG_OK ? lg_graph_weight_type(g2) == LG_WEIGHTS_FLOAT64 : g2 == POISON_GRAPH);
    if (st == LG_OK)
        lg_graph_free(&g2);
    g2 = POISON_GRAPH;
    conv.weight_type = LG_WEIGHTS_FLOAT32;
    lg__alloc_fail_after(k);
    st = lg_graph_from_edges_f64(c, N, E, src, dst, w, &conv, &g2);
    lg__alloc_fail_after(-1);
    all &= sweep_ok(st, "lg_graph_from_edges_f64 to float32", k);
    CHECK(st == LG_OK ? lg_graph_weight_type(g2) == LG_WEIGHTS_FLOAT32 : g2 == POISON_GRAPH);
    if (st == LG_OK)
        lg_graph_free(&g2);
    g2 = POISON_GRAPH;
    /* from its own CSR (already final: the copy) */
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const double *w64;
    CHECK_OK(lg_graph_csr(g, &off, &idx, NULL));
    CHECK_OK(lg_graph_weights_f64(g, false, &w64));
    lg__alloc_fail_after(k);
    st = lg_graph_from_csr_f64(c, N, off, idx, w64, &o, &g2);
    lg__alloc_fail_after(-1);
    all &= sweep_ok(st, "lg_graph_from_csr_f64", k);
    if (st == LG_OK)
        lg_graph_free(&g2);
    /* a .lgb round trip */
    char path[512];
    snprintf(path, sizeof path, "%s/lg_errors_sweep64.lgb", LG_TEST_TMP_DIR);
    CHECK_OK(lg_graph_write(c, g, path, LG_FORMAT_AUTO));
    g2 = POISON_GRAPH;
    lg__alloc_fail_after(k);
    st = lg_graph_read(c, path, LG_FORMAT_AUTO, NULL, &g2);
    lg__alloc_fail_after(-1);
    all &= sweep_ok(st, "lg_graph_read of a float64 .lgb", k);
    if (st == LG_OK) {
        const double *r64;
        CHECK_OK(lg_graph_weights_f64(g2, false, &r64));
        CHECK(r64 && memcmp(r64, w64, (size_t)lg_graph_num_edges(g) * sizeof *r64) == 0);
        lg_graph_free(&g2);
    }
    /* a .wel (17 digits) read back as float64 */
    snprintf(path, sizeof path, "%s/lg_errors_sweep64.wel", LG_TEST_TMP_DIR);
    CHECK_OK(lg_graph_write(c, g, path, LG_FORMAT_AUTO));
    conv.weight_type = LG_WEIGHTS_FLOAT64;
    g2 = POISON_GRAPH;
    lg__alloc_fail_after(k);
    st = lg_graph_read(c, path, LG_FORMAT_AUTO, &conv, &g2);
    lg__alloc_fail_after(-1);
    all &= sweep_ok(st, "lg_graph_read of a .wel as float64", k);
    if (st == LG_OK) {
        const double *r64;
        CHECK_OK(lg_graph_weights_f64(g2, false, &r64));
        CHECK(r64 && memcmp(r64, w64, (size_t)lg_graph_num_edges(g) * sizeof *r64) == 0);
        lg_graph_free(&g2);
    }
    /* Bellman-Ford with predecessors */
    lg_sssp_options_t so;
    lg_sssp_options_init(&so);
    so.compute_predecessors = true;
    double d[N];
    lg_vertex_t p[N];
    const lg_vertex_t s = 0;
    lg__alloc_fail_after(k);
    st = lg_sssp(c, g, &s, 1, &so, d, p);
    lg__alloc_fail_after(-1);
    all &= sweep_ok(st, "lg_sssp (Bellman-Ford)", k);
    /* with a cutoff and no predecessors: the reached set in scratch memory */
    so.compute_predecessors = false;
    so.cutoff = 1.0;
    lg__alloc_fail_after(k);
    st = lg_sssp(c, g, &s, 1, &so, d, NULL);
    lg__alloc_fail_after(-1);
    all &= sweep_ok(st, "lg_sssp (Bellman-Ford, cutoff)", k);
    lg_graph_free(&g);
    /* a negative cycle: LG_ERR_UNBOUNDED naming a vertex on it (the cycle's
     * search has arrays of its own) */
    const lg_vertex_t cs[3] = {0, 1, 2}, cd[3] = {1, 2, 0};
    const double cw[3] = {1.0, -2.0, 0.5};
    CHECK_OK(lg_graph_from_edges_f64(c, 4, 3, cs, cd, cw, &o, &g));
    so.cutoff = INFINITY;
    lg__alloc_fail_after(k);
    st = lg_sssp(c, g, &s, 1, &so, d, NULL);
    lg__alloc_fail_after(-1);
    if (st == LG_ERR_UNBOUNDED)
        CHECK(strstr(lg_last_error(), "cycle") != NULL);
    else
        all &= sweep_ok(st, "lg_sssp (Bellman-Ford, a negative cycle)", k) && false;
    lg_graph_free(&g);
    return all;
}

static void test_float64_failures(void)
{
    long k = 0;
    sweep_broken = false;
    for (; k < SWEEP_MAX; k++)
        if (float64_once(k, ctx) || sweep_broken)
            break;
    CHECK(k > 0 && k < SWEEP_MAX);
    printf("float64 allocation sweep: %ld failure points\n", k);
}

int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    static void (*const tests[])(void) = {
        test_allocation_failures,
        test_parallel_build_failures,
        test_pagerank_hub_order_failures,
        test_float64_failures,
    };
    alloc_sites_begin();
    const int rc = errors_main(tests, sizeof tests / sizeof tests[0]);
    alloc_sites_end("test_errors_alloc (building, files, generators, algorithms)");
    return rc;
}
