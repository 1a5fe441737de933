/*
 * test_vector_paths.c - the CPU kernels' vector paths against their scalar
 * twins (src/kernels/cpu/vec.h), on whatever instruction set this build
 * targets (tools/cross-test.sh runs it on NEON, SVE, RVV and LASX).
 *
 *  1. the compaction of vec.h against the portable one, on every length
 *     up to a few vectors, starts inside, and hits none, all, or at every
 *     position; the gather sums (SVE, RVV) against sums in order;
 *  2. BFS, CC and PageRank with the vector paths on and off
 *     (lg__cpu_vector_paths) on Kronecker, uniform and real graphs, directed
 *     and undirected, weighted, personalised, in hub order: BFS distances
 *     and component labels equal, parents a BFS tree, PageRank within
 *     rounding (the vector gathers add a row's arcs in another order);
 *  3. lg_build_info names the instruction set.
 * The vector paths themselves are checked against independent oracles by
 * every other suite, which run them by default.
 */
#include "internal.h"
#include "libgraph.h"
#include "test_util.h"

#include "../src/kernels/cpu/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- 1. the primitives --------------------------------------------------------------- */

/* The compaction against the portable one: every length up to a few
 * vectors, starts inside, hits none, one at each position, a few, or all. */
static void test_compaction(void)
{
    enum {
        MAX = 160
    };
    uint64_t w[MAX];
    int64_t got[MAX + 1], want[MAX + 1];
    long mismatches = 0, checks = 0;
    for (int len = 0; len <= MAX; len++)
        for (int hit = -3; hit < len; hit++) /* -1: none, -2: every third, -3: all */
            for (int variant = 0; variant < 2; variant++) {
                for (int i = 0; i < len; i++) {
                    const bool on = hit == -3 || (hit == -2 && i % 3 == 0) || i == hit;
                    w[i] = on ? (variant ? (uint64_t)1 << 63 : (uint64_t)1 << (i % 64)) : 0;
                }
                if (hit >= 0 && hit + 3 < len)
                    w[hit + 3] = 2; /* a second hit further on */
                for (int start = 0; start <= len; start += (len > 40 ? 7 : 1)) {
                    const int64_t nw = lg__scalar_compact_nonzero_u64(w, start, len, want);
                    const int64_t gw = lg__vec_compact_nonzero_u64(w, start, len, got);
                    checks++;
                    if (gw != nw || memcmp(got, want, (size_t)nw * sizeof *got) != 0) {
                        if (mismatches++ < 10)
                            fprintf(stderr,
                                    "  compaction: len %d hit %d start %d: %lld, want %lld\n", len,
                                    hit, start, (long long)gw, (long long)nw);
                    }
                }
            }
    CHECK(mismatches == 0);
    CHECK(checks > 10000);
    /* the expected answers themselves, on a case worked by hand */
    const uint64_t b[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 1};
    int64_t out[12];
    CHECK(lg__vec_compact_nonzero_u64(b, 0, 12, out) == 2 && out[0] == 9 && out[1] == 11);
    CHECK(lg__vec_compact_nonzero_u64(b, 10, 12, out) == 1 && out[0] == 11);
    CHECK(lg__vec_compact_nonzero_u64(b, 0, 9, out) == 0);
}

/* PageRank's gather-sums, where the ISA has them, against sums in order. */
static void test_gather_sums(void)
{
#if LG_VEC_GATHER
    enum {
        N = 1000,
        MAX = 130
    };
    static double c[N];
    static float cf[N], w[MAX];
    static lg_vertex_t idx[MAX];
    unsigned long long rng = 11;
    for (int i = 0; i < N; i++) {
        c[i] = (double)(tu_rand(&rng) % 1000000) / 1e6;
        cf[i] = (float)c[i];
    }
    long bad = 0;
    for (int len = 0; len <= MAX; len++)
        for (int start = 0; start <= 3 && start <= len; start++) {
            for (int k = 0; k < len; k++) {
                idx[k] =
                    (lg_vertex_t)(k == 0 ? N - 1 : (int)(tu_rand(&rng) % N)); /* the last too */
                w[k] = 0.25f + (float)(tu_rand(&rng) % 16);
            }
            double want[4] = {0, 0, 0, 0};
            for (int k = start; k < len; k++) {
                want[0] += c[idx[k]];
                want[1] += c[idx[k]] * (double)w[k];
                want[2] += (double)cf[idx[k]];
                want[3] += (double)(cf[idx[k]] * w[k]);
            }
            const double got[4] = {lg__vec_gather_sum_f64(c, idx, NULL, start, len),
                                   lg__vec_gather_sum_f64(c, idx, w, start, len),
                                   lg__vec_gather_sum_f32(cf, idx, NULL, start, len),
                                   lg__vec_gather_sum_f32(cf, idx, w, start, len)};
            for (int i = 0; i < 4; i++)
                if (fabs(got[i] - want[i]) > 1e-12 * (1.0 + fabs(want[i])) && bad++ < 10)
                    fprintf(stderr, "  gather sum %d: len %d start %d: %.17g, want %.17g\n", i, len,
                            start, got[i], want[i]);
        }
    CHECK(bad == 0);
#else
    printf("no vector gathers on %s: the portable row sums only\n", LG_VEC_ISA);
#endif
}

/* ---- 2. the kernels ------------------------------------------------------------------- */

static lg_context_t *contexts[2]; /* 1 and 3 threads */

struct graph_case {
    const char *name;
    lg_graph_t *g;
};

static double l1_diff(const double *a, const double *b, int64_t n)
{
    double d = 0.0;
    for (int64_t i = 0; i < n; i++)
        d += fabs(a[i] - b[i]);
    return d;
}

/* Whether par is a BFS tree for dist: the source its own parent, every
 * other reached vertex's parent one level up with an arc to it, -1 for the
 * unreached. */
static bool valid_parents(const lg_graph_t *g, lg_vertex_t source, const int32_t *dist,
                          const lg_vertex_t *par)
{
    const lg_edge_t *off = NULL;
    const lg_vertex_t *idx = NULL;
    if (lg_graph_csr(g, &off, &idx, NULL) != LG_OK)
        return false;
    for (int64_t v = 0; v < lg_graph_num_vertices(g); v++) {
        const lg_vertex_t p = par[v];
        if (dist[v] < 0 || v == source) {
            if (p != (dist[v] < 0 ? -1 : v))
                return false;
            continue;
        }
        if (p < 0 || dist[p] != dist[v] - 1)
            return false;
        lg_edge_t e = off[p];
        while (e < off[p + 1] && idx[e] != v)
            e++;
        if (e == off[p + 1])
            return false;
    }
    return true;
}

static void compare_bfs(const struct graph_case *gc, int k)
{
    const int64_t n = lg_graph_num_vertices(gc->g);
    int32_t *dist[2] = {malloc((size_t)n * sizeof(int32_t)), malloc((size_t)n * sizeof(int32_t))};
    lg_vertex_t *par[2] = {malloc((size_t)n * sizeof(lg_vertex_t)),
                           malloc((size_t)n * sizeof(lg_vertex_t))};
    const lg_vertex_t sources[] = {0, (lg_vertex_t)(n / 3), (lg_vertex_t)(n - 1)};
    lg_bfs_options_t o;
    lg_bfs_options_init(&o);
    o.compute_parents = true;
    for (int s = 0; s < 6; s++) {
        o.direction_alpha = s < 3 ? 15 : 0; /* direction-optimising; top-down only */
        for (int vec = 0; vec < 2; vec++) {
            lg__cpu_vector_paths(vec);
            CHECK_OK(lg_bfs(contexts[k], gc->g, sources[s % 3], &o, dist[vec], par[vec]));
        }
        const bool same_dist = memcmp(dist[0], dist[1], (size_t)n * sizeof(int32_t)) == 0;
        CHECK(same_dist);
        /* parents: any BFS tree (the order frontier vertices claim theirs in
         * varies from run to run) */
        CHECK(valid_parents(gc->g, sources[s % 3], dist[0], par[0]));
        CHECK(valid_parents(gc->g, sources[s % 3], dist[1], par[1]));
        if (!same_dist)
            fprintf(stderr, "  BFS differs on %s from %d, %d threads\n", gc->name,
                    (int)sources[s % 3], k ? 3 : 1);
    }
    lg__cpu_vector_paths(1);
    for (int i = 0; i < 2; i++) {
        free(dist[i]);
        free(par[i]);
    }
}

static void compare_components(const struct graph_case *gc, int k)
{
    const int64_t n = lg_graph_num_vertices(gc->g);
    lg_vertex_t *label[2] = {malloc((size_t)n * sizeof(lg_vertex_t)),
                             malloc((size_t)n * sizeof(lg_vertex_t))};
    int64_t count[2] = {-1, -2};
    for (int vec = 0; vec < 2; vec++) {
        lg__cpu_vector_paths(vec);
        CHECK_OK(lg_connected_components(contexts[k], gc->g, NULL, label[vec], &count[vec]));
    }
    lg__cpu_vector_paths(1);
    CHECK(count[0] == count[1] && count[0] > 0);
    CHECK(memcmp(label[0], label[1], (size_t)n * sizeof(lg_vertex_t)) == 0);
    free(label[0]);
    free(label[1]);
}

/* PageRank in double and float, with and without weights and a
 * personalization, in hub order or not. */
static void compare_pagerank(const struct graph_case *gc, int k)
{
    const int64_t n = lg_graph_num_vertices(gc->g);
    double *x[2] = {malloc((size_t)n * sizeof(double)), malloc((size_t)n * sizeof(double))};
    float *xf[2] = {malloc((size_t)n * sizeof(float)), malloc((size_t)n * sizeof(float))};
    double *pers = malloc((size_t)n * sizeof(double));
    for (int64_t v = 0; v < n; v++)
        pers[v] = (double)(v % 7 + 1);
    for (int variant = 0; variant < 8; variant++) {
        lg_pagerank_options_t o;
        lg_pagerank_options_init(&o);
        o.tol = 1e-10;
        o.max_iter = 200;
        o.use_weights = variant & 1;
        o.personalization = variant & 2 ? pers : NULL;
        const size_t hub_before = lg__pagerank_hub_min_bytes(variant & 4 ? 0 : (size_t)1 << 40);
        lg_pagerank_result_t r[2], rf[2];
        for (int vec = 0; vec < 2; vec++) {
            lg__cpu_vector_paths(vec);
            CHECK_OK(lg_pagerank(contexts[k], gc->g, &o, x[vec], &r[vec]));
            o.tol = 1e-6; /* float's reach */
            CHECK_OK(lg_pagerank_f32(contexts[k], gc->g, &o, xf[vec], &rf[vec]));
            o.tol = 1e-10;
        }
        lg__cpu_vector_paths(1);
        lg__pagerank_hub_min_bytes(hub_before);
        const double d = l1_diff(x[0], x[1], n);
        double df = 0.0;
        for (int64_t v = 0; v < n; v++)
            df += fabs((double)xf[0][v] - (double)xf[1][v]);
        CHECK(d <= 1e-12);
        CHECK(df <= 1e-5);
        CHECK(abs(r[0].iterations - r[1].iterations) <= 1 && r[0].converged && r[1].converged);
        CHECK(abs(rf[0].iterations - rf[1].iterations) <= 1);
        if (d > 1e-12 || df > 1e-5)
            fprintf(stderr, "  PageRank on %s variant %d, %d threads: L1 %g (double), %g (float)\n",
                    gc->name, variant, k ? 3 : 1, d, df);
    }
    for (int i = 0; i < 2; i++) {
        free(x[i]);
        free(xf[i]);
    }
    free(pers);
}

static lg_graph_t *generated(lg_generator_t gen, int scale, bool directed, bool weighted)
{
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = LG_DIRECTED;
    go.drop_self_loops = true;
    go.duplicates = LG_DUPLICATES_SUM;
    lg_graph_t *g = NULL;
    if (!weighted) {
        CHECK_OK(lg_generate(NULL, gen, scale, 16, 3, directed ? &go : NULL, &g));
        return g;
    }
    /* weighted: the generator's edges with weights 0.5 .. 4 */
    const int64_t n = (int64_t)1 << scale, m = (int64_t)16 << scale;
    lg_vertex_t *src = malloc((size_t)m * sizeof *src), *dst = malloc((size_t)m * sizeof *dst);
    float *w = malloc((size_t)m * sizeof *w);
    CHECK_OK(lg_generate_edges(NULL, gen, scale, 16, 5, src, dst));
    for (int64_t e = 0; e < m; e++)
        w[e] = 0.5f + (float)(e % 8) * 0.5f;
    go.directedness = directed ? LG_DIRECTED : LG_UNDIRECTED;
    CHECK_OK(lg_graph_from_edges(NULL, n, m, src, dst, w, &go, &g));
    free(src);
    free(dst);
    free(w);
    return g;
}

static void test_kernels(void)
{
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.num_threads = 1;
    CHECK_OK(lg_context_create(&contexts[0], &co));
    co.num_threads = 3;
    CHECK_OK(lg_context_create(&contexts[1], &co));

    struct graph_case cases[] = {
        {"kron:12", generated(LG_GENERATOR_KRONECKER, 12, false, false)},
        {"kron:11 directed", generated(LG_GENERATOR_KRONECKER, 11, true, false)},
        {"urand:12 weighted", generated(LG_GENERATOR_URAND, 12, false, true)},
        {"kron:10 directed weighted", generated(LG_GENERATOR_KRONECKER, 10, true, true)},
        {"facebook", NULL},
    };
    const int num_cases = (int)(sizeof cases / sizeof cases[0]);
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = LG_UNDIRECTED;
    CHECK_OK(lg_graph_read(NULL, LG_TEST_DATA_DIR "/facebook_combined.el", LG_FORMAT_AUTO, &go,
                           &cases[4].g));

    for (int c = 0; c < num_cases; c++) {
        if (!cases[c].g)
            continue;
        for (int k = 0; k < 2; k++) {
            compare_bfs(&cases[c], k);
            compare_components(&cases[c], k);
            compare_pagerank(&cases[c], k);
        }
        lg_graph_free(&cases[c].g);
    }
    lg_context_free(&contexts[0]);
    lg_context_free(&contexts[1]);
}

/* ---- 3. what the build says ------------------------------------------------------------ */

static void test_build_info(void)
{
    char want[64];
    snprintf(want, sizeof want, "vectors: %s", LG_VEC_ISA);
    CHECK(strstr(lg_build_info(), want) != NULL);
    CHECK(lg__cpu_vector_paths(-1) == 1);
    printf("%s\n", lg_build_info());
}

int main(void)
{
    test_compaction();
    test_gather_sums();
    test_kernels();
    test_build_info();
    TEST_EXIT();
}
