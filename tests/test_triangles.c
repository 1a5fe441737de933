/*
 * test_triangles.c - lg_triangles and lg_clustering against a plain count
 * written here: an adjacency matrix of the edges (self-loops and repeats
 * dropped), and for each vertex every pair of its neighbours looked up in
 * it; the coefficients, their mean and the transitivity from those counts
 * by NetworkX's formulas, in vertex order, so they must match bit for bit.
 * With contexts of 1, 2 and 3 threads.
 *
 * Graphs: the random shapes of oracle_shapes.h (empty, one vertex,
 * isolated vertices, duplicates, stars, paths, cliques, self-loop heavy,
 * disconnected...), undirected; larger random graphs with hubs (rows long
 * enough for the binary-search intersections and for several progress
 * steps) and complete graphs (n choose 3); the directed graph's refusal,
 * NULL arguments, cancellation (the graph usable after it, the same
 * answer).
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "oracle_shapes.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static long runs;

/* The oracle: t[v] the triangles through v, deg[v] v's distinct
 * neighbours other than itself, of the n-vertex undirected graph of the
 * edges. */
static void oracle(int64_t n, int64_t E, const lg_vertex_t *src, const lg_vertex_t *dst, int64_t *t,
                   int64_t *deg)
{
    unsigned char *adj = or_alloc((size_t)(n * n) + 1, 1);
    memset(adj, 0, (size_t)(n * n) + 1);
    for (int64_t i = 0; i < E; i++)
        if (src[i] != dst[i])
            adj[src[i] * n + dst[i]] = adj[dst[i] * n + src[i]] = 1;
    for (int64_t v = 0; v < n; v++) {
        t[v] = deg[v] = 0;
        for (int64_t u = 0; u < n; u++) {
            deg[v] += adj[v * n + u];
            for (int64_t w = u + 1; w < n && adj[v * n + u]; w++)
                t[v] += adj[v * n + w] && adj[u * n + w];
        }
    }
    free(adj);
}

/* Checks both calls on graph g (the edges' undirected graph) on every context. */
static void check(const lg_graph_t *g, int64_t n, int64_t E, const lg_vertex_t *src,
                  const lg_vertex_t *dst)
{
    int64_t *want = or_alloc((size_t)n + 1, sizeof *want), *deg = or_alloc((size_t)n + 1, 8);
    int64_t *got = or_alloc((size_t)n + 1, sizeof *got);
    double *cw = or_alloc((size_t)n + 1, sizeof *cw), *cg = or_alloc((size_t)n + 1, sizeof *cg);
    oracle(n, E, src, dst, want, deg);
    int64_t sum = 0;
    double mean = 0.0, triads = 0.0;
    for (int64_t v = 0; v < n; v++) {
        sum += want[v];
        cw[v] = deg[v] < 2 ? 0.0 : 2.0 * (double)want[v] / ((double)deg[v] * (double)(deg[v] - 1));
        mean += cw[v];
        triads += (double)deg[v] * (double)(deg[v] - 1);
    }
    mean = n > 0 ? mean / (double)n : 0.0;
    const double transitivity = sum == 0 ? 0.0 : 2.0 * (double)sum / triads;
    CHECK(sum % 3 == 0);
    for (int c = 0; c < NUM_CTX; c++) {
        int64_t total = -1;
        runs++;
        CHECK_OK(lg_triangles(ctx[c], g, NULL, got, &total));
        CHECK(n == 0 || or_ran_on_expected(true));
        int64_t bad = -1;
        for (int64_t v = 0; v < n && bad < 0; v++)
            if (got[v] != want[v])
                bad = v;
        CHECK(bad < 0 && total == sum / 3);
        if (bad >= 0)
            report("%d threads: vertex %lld in %lld triangles, want %lld", c + 1, (long long)bad,
                   (long long)got[bad], (long long)want[bad]);
        int64_t only = -1;
        CHECK_OK(lg_triangles(ctx[c], g, NULL, NULL, &only)); /* the total alone */
        CHECK(only == sum / 3);
        double average = -1.0, trans = -1.0;
        CHECK_OK(lg_clustering(ctx[c], g, NULL, cg, &average, &trans));
        CHECK(n == 0 || memcmp(cg, cw, (size_t)n * sizeof *cg) == 0);
        CHECK(average == mean && trans == transitivity);
        if (average != mean || trans != transitivity)
            report("%d threads: average %.17g (want %.17g), transitivity %.17g (want %.17g)", c + 1,
                   average, mean, trans, transitivity);
    }
    free(want);
    free(deg);
    free(got);
    free(cw);
    free(cg);
}

static void check_elist(const struct elist *el)
{
    struct tgraph t;
    if (tgraph_from_elist(&t, el, false, false, (int)(runs % NUM_CTX)))
        check(t.g, el->n, el->E, el->src, el->dst);
    tgraph_free(&t);
}

static void test_shapes(void)
{
    for (int gi = 0, rounds = harness_rounds(96, 24); gi < rounds; gi++) {
        unsigned long long seed = 9100 + (unsigned long long)gi, rng = seed * 37 + 11;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        set_subject("shape %s, seed %llu", e.shape, seed);
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        check_elist(&el);
        or_edges_free(&e);
    }
}

/* Hubs: a few vertices joined to most others, over a sparse random graph,
 * so that hub rows are long against short ones (binary search) and the
 * vertices span several progress steps. */
static void test_larger(void)
{
    unsigned long long rng = 4040;
    for (int round = 0; round < 3; round++) {
        const int64_t n = round == 2 ? 70000 : 1500 + 500 * round;
        struct elist el;
        el_init(&el, n);
        el_random(&el, 0, n, 4 * n, &rng);
        for (int64_t h = 0; h < 6; h++)
            for (int64_t v = 0; v < n; v += 1 + h)
                el_add(&el, (h * 7919) % n, v, 1.0f);
        set_subject("random with hubs, %lld vertices", (long long)n);
        if (n <= 4000) {
            check_elist(&el);
        } else {
            /* too big for the matrix: the total against the per-vertex sum,
             * and against the clustering's transitivity's numerator */
            struct tgraph t;
            if (tgraph_from_elist(&t, &el, false, false, 2)) {
                int64_t *pv = or_alloc((size_t)n, sizeof *pv), total = -1, one = -1;
                CHECK_OK(lg_triangles(ctx[2], t.g, NULL, pv, &total));
                int64_t sum = 0;
                for (int64_t v = 0; v < n; v++)
                    sum += pv[v];
                CHECK(total > 0 && sum == 3 * total);
                CHECK_OK(lg_triangles(ctx[0], t.g, NULL, NULL, &one));
                CHECK(one == total);
                free(pv);
            }
            tgraph_free(&t);
        }
        el_free(&el);
    }
    /* complete graphs: n choose 3, each vertex in (n-1) choose 2 */
    for (int64_t n = 3; n <= 60; n += 19) {
        struct elist el;
        el_init(&el, n);
        for (int64_t u = 0; u < n; u++)
            for (int64_t v = u + 1; v < n; v++)
                el_add(&el, u, v, 1.0f);
        set_subject("complete graph of %lld", (long long)n);
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, false, false, 1)) {
            int64_t total = -1, *pv = or_alloc((size_t)n, sizeof *pv);
            CHECK_OK(lg_triangles(ctx[1], t.g, NULL, pv, &total));
            CHECK(total == n * (n - 1) * (n - 2) / 6);
            for (int64_t v = 0; v < n; v++)
                CHECK(pv[v] == (n - 1) * (n - 2) / 2);
            free(pv);
        }
        tgraph_free(&t);
        el_free(&el);
    }
}

static bool stop_now(const lg_progress_info_t *info, void *data)
{
    (void)data;
    return info->stage != LG_STAGE_TRIANGLES;
}

static void test_refusals(void)
{
    set_subject("refusals");
    const lg_vertex_t src[] = {0, 1, 2}, dst[] = {1, 2, 0};
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_DIRECTED;
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges(ctx[0], 3, 3, src, dst, NULL, &o, &g));
    int64_t t[3], total;
    double c[3];
    CHECK_STATUS(lg_triangles(ctx[0], g, NULL, t, &total), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("lg_triangles: the graph is directed");
    CHECK_STATUS(lg_clustering(ctx[0], g, NULL, c, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("lg_clustering: the graph is directed");
    lg_graph_free(&g);
    CHECK_STATUS(lg_triangles(ctx[0], NULL, NULL, t, &total), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("graph is NULL");
    o.directedness = LG_UNDIRECTED;
    CHECK_OK(lg_graph_from_edges(ctx[0], 3, 3, src, dst, NULL, &o, &g));
    CHECK_STATUS(lg_clustering(ctx[0], g, NULL, NULL, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("coefficients is NULL");
    lg_triangles_options_t to;
    lg_triangles_options_init(&to);
    to.output_memory = (lg_memory_t)9;
    CHECK_STATUS(lg_triangles(ctx[0], g, &to, t, &total), LG_ERR_INVALID_ARGUMENT);
    CHECK_OK(lg_triangles(ctx[0], g, NULL, t, &total));
    CHECK(total == 1 && t[0] == 1 && t[1] == 1 && t[2] == 1);
    lg_graph_free(&g);
    /* the empty graph: nothing, total 0 */
    CHECK_OK(lg_graph_from_edges(ctx[0], 0, 0, src, dst, NULL, &o, &g));
    total = -1;
    double average = -1.0, trans = -1.0;
    CHECK_OK(lg_triangles(ctx[0], g, NULL, NULL, &total));
    CHECK_OK(lg_clustering(ctx[0], g, NULL, NULL, &average, &trans));
    CHECK(total == 0 && average == 0.0 && trans == 0.0);
    lg_graph_free(&g);
}

static void test_cancellation(void)
{
    unsigned long long rng = 5150;
    struct elist el;
    el_init(&el, 200000);
    el_random(&el, 0, 200000, 600000, &rng);
    set_subject("random, 200000 vertices, cancelled");
    struct tgraph t;
    if (tgraph_from_elist(&t, &el, false, false, 1)) {
        int64_t total = -1, again = -1;
        CHECK_OK(lg_triangles(ctx[1], t.g, NULL, NULL, &total));
        lg_triangles_options_t o;
        lg_triangles_options_init(&o);
        o.progress = stop_now;
        CHECK_STATUS(lg_triangles(ctx[1], t.g, &o, NULL, &again), LG_ERR_CANCELLED);
        CHECK_MESSAGE("cancelled");
        CHECK_OK(lg_triangles(ctx[1], t.g, NULL, NULL, &again));
        CHECK(again == total);
    }
    tgraph_free(&t);
    el_free(&el);
}

static void print_runs(void)
{
    printf("%ld triangle runs\n", runs);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"triangles shapes", test_shapes},
        {"triangles larger", test_larger},
        {"triangles refusals", test_refusals},
        {"triangles cancellation", test_cancellation},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_runs);
}
