/*
 * test_algorithms.c - BFS, PageRank and connected components against the
 * oracles of oracle.h, on hundreds of random graphs and on hand-checked ones,
 * with contexts of 1, 2 and 3 threads (algorithm_checks.h says how each call
 * is judged).
 *
 *   by hand         a 5-vertex graph whose distances, parents, labels and
 *                   PageRank iterates are worked out by hand, for the library
 *                   and for the oracles themselves; the empty graph
 *   random graphs   every shape of or_random_edges under random build options
 *                   (directed and undirected, weighted or not, with
 *                   self-loops, duplicates, sinks): lg_bfs from four sources;
 *                   components; lg_pagerank under default options (also NULL
 *                   options), no weights, alpha from 0 to 1, personalization,
 *                   nstart, dangling, tol 0 and small max_iter (then
 *                   LG_ERR_NOT_CONVERGED with the oracle's max_iter-th
 *                   iterate); lg_pagerank_f32
 */
#define _POSIX_C_SOURCE 200809L

#include "algorithm_checks.h"
#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

/* ---- PageRank ------------------------------------------------------------------------ */

/* A random non-negative vector with some zeros and a positive sum; NULL for
 * the empty graph, where no vector can have a positive sum. */
static double *random_distribution(int64_t n, unsigned long long *rng)
{
    if (n == 0)
        return NULL;
    double *v = or_alloc((size_t)n, sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = or_rand_below(rng, 3) == 0 ? 0.0 : (double)(1 + or_rand_below(rng, 1000)) / 7.0;
    if (n > 0)
        v[or_rand_below(rng, n)] = 2.5;
    return v;
}

/* The PageRank variants run on each random graph. */
static void pagerank_variants(const lg_graph_t *g, const or_graph *o, unsigned long long *rng)
{
    static const double alphas[] = {0.0, 0.3, 0.5, 0.85, 0.9, 0.99, 1.0};
    static const double tols[] = {1e-3, 1e-6, 1e-10, 0.0};
    static const int small_iters[] = {0, 1, 2, 3, 5};
    const int64_t n = o->n;
    int k = (int)or_rand_below(rng, NUM_CTX);
    lg_pagerank_options_t po;

    /* NULL options are the defaults; iterations may be NULL */
    check_pagerank(g, o, NULL, k);
    if (n > 0) {
        double *a = or_alloc((size_t)n, sizeof *a), *b = or_alloc((size_t)n, sizeof *b);
        CHECK_OK(lg_pagerank(ctx[k], g, NULL, a, NULL));
        lg_pagerank_options_init(&po);
        CHECK(po.alpha == 0.85 && po.tol == 1e-6 && po.max_iter == 100 && po.use_weights &&
              !po.personalization && !po.nstart && !po.dangling);
        CHECK_OK(lg_pagerank(ctx[k], g, &po, b, NULL));
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(a[v] - b[v]));
        CHECK(worst <= 1e-14);
        free(a);
        free(b);
    }

    /* weights ignored, alpha anywhere in [0, 1] */
    lg_pagerank_options_init(&po);
    po.use_weights = false;
    po.alpha = alphas[or_rand_below(rng, 7)];
    check_pagerank(g, o, &po, (k + 1) % NUM_CTX);

    /* personalization, nstart and dangling, each there or not */
    double *pers = random_distribution(n, rng), *nstart = random_distribution(n, rng),
           *dang = random_distribution(n, rng);
    lg_pagerank_options_init(&po);
    unsigned long long r = tu_rand(rng) >> 20;
    po.personalization = r & 1 ? pers : NULL;
    po.nstart = r & 2 ? nstart : NULL;
    po.dangling = r & 4 ? dang : NULL;
    po.use_weights = r & 8;
    po.alpha = alphas[(r >> 4) % 7];
    check_pagerank(g, o, &po, (k + 2) % NUM_CTX);

    /* tolerances, tol 0 never converges */
    lg_pagerank_options_init(&po);
    po.tol = tols[or_rand_below(rng, 4)];
    po.max_iter = 40;
    po.personalization = r & 16 ? pers : NULL;
    check_pagerank(g, o, &po, k);

    /* max_iter too small: LG_ERR_NOT_CONVERGED with the oracle's iterate */
    lg_pagerank_options_init(&po);
    po.max_iter = small_iters[or_rand_below(rng, 5)];
    po.tol = 1e-9;
    po.nstart = r & 32 ? nstart : NULL;
    check_pagerank(g, o, &po, (k + 1) % NUM_CTX);

    /* single precision */
    if (n > 0) {
        lg_pagerank_options_init(&po);
        po.alpha = alphas[1 + (r >> 8) % 4]; /* 0.3 .. 0.9: float error stays small */
        po.personalization = r & 64 ? pers : NULL;
        po.dangling = r & 128 ? dang : NULL;
        po.use_weights = r & 256;
        po.max_iter = (r >> 12) % 4 == 0 ? 3 : 100;
        check_pagerank_f32(g, o, &po, (k + 2) % NUM_CTX);
    }
    free(pers);
    free(nstart);
    free(dang);
}

/* ---- random graphs ------------------------------------------------------------------------- */

static void test_random(void)
{
    const int graphs = 288;
    for (int gi = 0; gi < graphs; gi++) {
        unsigned long long seed = 9000 + (unsigned long long)gi, rng = seed * 0x9E3779B9ull + 3;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        unsigned long long r = tu_rand(&rng) >> 20;
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = (lg_directedness_t)(r % 3);
        o.symmetrize = (r >> 2) % 4 == 0;
        o.drop_self_loops = (r >> 4) % 3 == 0;
        o.duplicates = (r >> 6) % 2 ? LG_DUPLICATES_KEEP : (lg_duplicates_t)((r >> 7) % 6);
        const bool weighted = (r >> 10) % 2;
        graph_subject(e.shape, seed, &o, weighted);
        const float *w = weighted ? e.w : NULL;

        lg_graph_t *g = NULL;
        lg_status_t st = lg_graph_from_edges(ctx[gi % NUM_CTX], e.n, e.E, e.src, e.dst, w, &o, &g);
        CHECK(st == LG_OK);
        if (st != LG_OK) {
            report("lg_graph_from_edges: %s: %s", lg_status_string(st), lg_last_error());
            or_edges_free(&e);
            continue;
        }
        or_graph want;
        or_build(&want, e.n, e.E, e.src, e.dst, w, &o);

        if (e.n > 0) {
            lg_vertex_t sources[4] = {0, (lg_vertex_t)(e.n - 1),
                                      (lg_vertex_t)or_rand_below(&rng, e.n),
                                      (lg_vertex_t)or_rand_below(&rng, e.n)};
            for (int i = 0; i < 4; i++)
                check_bfs(g, &want, sources[i], (gi + i) % NUM_CTX, i % 2 == 0);
        }
        check_components(g, &want, gi % NUM_CTX);
        pagerank_variants(g, &want, &rng);

        or_graph_free(&want);
        lg_graph_free(&g);
        or_edges_free(&e);
    }
}

/* Hand-checked answers, so the oracles are themselves tested. */
static void test_by_hand(void)
{
    /* directed 0->1, 1->2, 2->0, 3->2, 4 isolated; dangling: 4 */
    const lg_vertex_t src[] = {0, 1, 2, 3}, dst[] = {1, 2, 0, 2};
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges(ctx[0], 5, 4, src, dst, NULL, tu_directed(), &g));
    if (!g)
        return;
    or_graph o;
    or_build(&o, 5, 4, src, dst, NULL, tu_directed());

    int32_t dist[5], want_dist[5] = {2, 0, 1, -1, -1};
    lg_vertex_t parents[5], want_parents[5] = {2, 1, 1, -1, -1};
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = true;
    CHECK_OK(lg_bfs(ctx[1], g, 1, &bo, dist, parents));
    CHECK(memcmp(dist, want_dist, sizeof dist) == 0);
    CHECK(memcmp(parents, want_parents, sizeof parents) == 0);
    int32_t odist[5];
    or_bfs(&o, 1, odist);
    CHECK(memcmp(odist, want_dist, sizeof odist) == 0);
    CHECK(or_check_parents(&o, 1, want_dist, want_parents) < 0);
    const lg_vertex_t wrong_parents[5] = {1, 1, 1, -1, -1}; /* 1 -> 0 is no arc */
    CHECK(or_check_parents(&o, 1, want_dist, wrong_parents) == 0);

    lg_vertex_t labels[5], want_labels[5] = {0, 0, 0, 0, 4};
    int64_t count = 0;
    CHECK_OK(lg_connected_components(ctx[2], g, NULL, labels, &count));
    CHECK(memcmp(labels, want_labels, sizeof labels) == 0);
    CHECK(count == 2);
    CHECK(or_components(&o, labels) == 2 && memcmp(labels, want_labels, sizeof labels) == 0);

    /* alpha 0: one iteration gives p, the second changes nothing */
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.alpha = 0.0;
    const double pers[5] = {1, 0, 0, 0, 3};
    po.personalization = pers;
    double x[5];
    lg_pagerank_result_t r;
    CHECK_OK(lg_pagerank(ctx[0], g, &po, x, &r));
    CHECK(r.iterations == 2 && r.residual == 0.0 && r.converged);
    CHECK(x[0] == 0.25 && x[1] == 0.0 && x[2] == 0.0 && x[3] == 0.0 && x[4] == 0.75);

    /* one iteration from uniform, alpha 0.5, by hand:
     *   x W: 0 gets 0.2 (from 2), 1 gets 0.2, 2 gets 0.4, 3 and 4 get 0;
     *   dangling mass 0.2 spread uniformly: +0.04 each;
     *   x' = 0.5 * (xW + 0.04) + 0.5 * 0.2 */
    lg_pagerank_options_init(&po);
    po.alpha = 0.5;
    po.max_iter = 1;
    CHECK_STATUS(lg_pagerank(ctx[1], g, &po, x, &r), LG_ERR_NOT_CONVERGED);
    /* |0.22 - 0.2| * 2 + |0.32 - 0.2| + |0.12 - 0.2| * 2 */
    CHECK(r.iterations == 1 && fabs(r.residual - 0.32) < 1e-15 && !r.converged);
    const double hand[5] = {0.22, 0.22, 0.32, 0.12, 0.12};
    double ox[5];
    int oit;
    or_pagerank(&o, 0.5, NULL, NULL, NULL, true, 1, 1e-6, ox, &oit, NULL);
    for (int v = 0; v < 5; v++) {
        CHECK(fabs(x[v] - hand[v]) < 1e-15);
        CHECK(fabs(ox[v] - hand[v]) < 1e-15);
    }
    or_graph_free(&o);
    lg_graph_free(&g);

    /* the empty graph: LG_OK and nothing to write */
    CHECK_OK(lg_graph_from_edges(ctx[0], 0, 0, NULL, NULL, NULL, NULL, &g));
    if (g) {
        double none[1] = {-1.0};
        CHECK_OK(lg_pagerank(ctx[0], g, NULL, none, NULL));
        CHECK(none[0] == -1.0);
        float nonef[1] = {-1.0f};
        CHECK_OK(lg_pagerank_f32(ctx[1], g, NULL, nonef, NULL));
        CHECK(nonef[0] == -1.0f);
        lg_vertex_t lab[1] = {-5};
        count = -1;
        CHECK_OK(lg_connected_components(ctx[2], g, NULL, lab, &count));
        CHECK(count == 0 && lab[0] == -5);
        lg_graph_free(&g);
    }
}
int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"by hand", test_by_hand},
        {"random graphs", test_random},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0],
                        print_borderline_skips);
}
