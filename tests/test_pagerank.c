/*
 * test_pagerank.c - lg_pagerank and lg_pagerank_f32 against the float64 power
 * iteration of oracle_pagerank.h, with contexts of 1, 2 and 3 threads.
 *
 * lg_pagerank (weighted and not) within 1e-9 relative and with the oracle's
 * iteration count; lg_pagerank_f32 within 1e-5 relative and with the float64
 * iteration count (unless that decision is too close to call in float);
 * under the defaults, weights ignored, alpha 0.5 with tol 1e-10,
 * personalization with dangling, and 4 iterations (not converged).  On graphs
 * whose rows and columns have every length from 1 to 5000 around the vector
 * widths, with sinks, weights of 0 (dangling by weight) and hubs, directed
 * and not, a column of 131074 equal tiny terms after one large one (a float
 * accumulator drifts past 1e-5 there), and Kronecker graphs, raw (weighted,
 * with self-loops and repeats) and from lg_generate, where the CPU must take
 * its hub order.  The CPU's float rows are summed in trees, then again in
 * one loop a row (lg__pagerank_row_loop), and over segments.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "internal.h" /* lg__pagerank_hub_runs */
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>

/* Row and column lengths around the vector widths, up to 5000. */
static const int64_t ladder[] = {1,    2,    3,    4,    5,    6,    7,    8,    9,    10,  11,
                                 12,   13,   14,   15,   16,   17,   31,   32,   33,   63,  64,
                                 65,   127,  128,  129,  255,  256,  257,  511,  512,  513, 1000,
                                 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 5000};
#define LADDER ((int64_t)(sizeof ladder / sizeof ladder[0]))

/* Vertex i < LADDER has out-degree ladder[i], vertex LADDER + i in-degree
 * ladder[i]; the rest have out-degree 0 .. 4 (a fifth of them sinks); a few
 * have out-arcs of weight 0 only (dangling by weight), some arcs weigh 0. */
static void ladder_edges(struct elist *el, unsigned long long *rng)
{
    const int64_t n = 12007; /* not a multiple of any vector width */
    el_init(el, n);
    for (int64_t i = 0; i < LADDER; i++)
        for (int64_t j = 0; j < ladder[i]; j++) {
            el_add(el, i, or_rand_below(rng, n), rand_weight(rng));
            el_add(el, or_rand_below(rng, n), LADDER + i, rand_weight(rng));
        }
    for (int64_t v = 2 * LADDER; v < n; v++) {
        int64_t deg = or_rand_below(rng, 5), zero_row = v % 500 == 0;
        for (int64_t j = 0; j < deg + zero_row; j++)
            el_add(el, v, or_rand_below(rng, n),
                   zero_row || or_rand_below(rng, 10) == 0 ? 0.0f : rand_weight(rng));
    }
    el_permute(el, rng);
}

/* Is a stopping decision of the oracle within `slack` of N * tol? */
static bool too_close(const or_pr_run *w, int64_t n, double tol, double slack)
{
    const double limit = (double)n * tol;
    for (int i = 0; i < w->iters; i++)
        if (fabs(w->errs[i] - limit) <= slack)
            return true;
    return false;
}

static long pr_skips;

static void check_pr_double(const struct tgraph *t, const lg_pagerank_options_t *po,
                            const or_pr_run *w, int k, const char *what)
{
    const int64_t n = t->o.n;
    double *got = or_alloc((size_t)n, sizeof *got);
    lg_pagerank_result_t r = {-5, 0.0, false};
    lg_status_t st = lg_pagerank(ctx[k], t->g, po, got, &r);
    const int iters = r.iterations;
    CHECK(or_ran_on_expected(n > 0));
    lg_status_t want_st = w->converged ? LG_OK : LG_ERR_NOT_CONVERGED;
    if (too_close(w, n, po->tol, 1e-9 * (double)n * po->tol)) {
        pr_skips++;
        free(got);
        return;
    }
    CHECK(st == want_st && iters == w->iters);
    if (st != want_st || iters != w->iters) {
        report("lg_pagerank, %s, %d threads: %s after %d iterations, want %s after %d", what, k + 1,
               lg_status_string(st), iters, lg_status_string(want_st), w->iters);
    } else {
        int64_t at = -1;
        for (int64_t v = 0; v < n && at < 0; v++)
            if (!(fabs(got[v] - w->x[v]) <= 1e-9 * w->x[v] + 1e-15))
                at = v;
        CHECK(at < 0);
        if (at >= 0)
            report("lg_pagerank, %s, %d threads: score of %lld is %.17g, want %.17g", what, k + 1,
                   (long long)at, got[at], w->x[at]);
    }
    free(got);
}

static void check_pr_float(const struct tgraph *t, const lg_pagerank_options_t *po,
                           const or_pr_run *w, int k, const char *what)
{
    const int64_t n = t->o.n;
    float *got = or_alloc((size_t)n, sizeof *got);
    lg_pagerank_result_t r = {-5, 0.0, false};
    lg_status_t st = lg_pagerank_f32(ctx[k], t->g, po, got, &r);
    const int iters = r.iterations;
    CHECK(or_ran_on_expected(n > 0));
    lg_status_t want_st = w->converged ? LG_OK : LG_ERR_NOT_CONVERGED;
    /* float rounding moves an L1 change (of vectors summing to 1) by ~1e-6 */
    const bool close = too_close(w, n, po->tol, 1e-5);
    bool same_stop = st == want_st && iters == w->iters;
    if (close && !same_stop) {
        pr_skips++;
        same_stop = (st == LG_OK || st == LG_ERR_NOT_CONVERGED) && iters >= 1 &&
                    iters <= po->max_iter && abs(iters - w->iters) <= 1;
    }
    CHECK(same_stop);
    if (!same_stop) {
        report("lg_pagerank_f32, %s, %d threads: %s after %d iterations, want %s after %d", what,
               k + 1, lg_status_string(st), iters, lg_status_string(want_st), w->iters);
        free(got);
        return;
    }
    /* the float64 iterate after as many iterations */
    or_pr_run at_iters = {NULL, NULL, 0, false};
    const double *want = w->x;
    if (iters != w->iters) {
        lg_pagerank_options_t exact = *po;
        exact.max_iter = iters;
        exact.tol = -1.0;
        at_iters = or_pagerank_run(&t->o, &exact);
        want = at_iters.x;
    }
    int64_t at = -1;
    double worst = 0.0;
    for (int64_t v = 0; v < n; v++) {
        double diff = fabs((double)got[v] - want[v]);
        if (!(diff <= 1e-5 * want[v] + 1e-30)) {
            double rel = want[v] > 0 ? diff / want[v] : INFINITY;
            if (at < 0 || !(rel <= worst))
                at = v, worst = rel;
        }
    }
    CHECK(at < 0);
    if (at >= 0)
        report("lg_pagerank_f32, %s, %d threads: score of %lld is %.9g, want %.12g (relative "
               "error %.3g)",
               what, k + 1, (long long)at, (double)got[at], want[at], worst);
    or_pr_run_free(&at_iters);
    free(got);
}

/* PageRank settings run on every big graph. */
static void pagerank_big_graph(const struct tgraph *t, unsigned long long *rng)
{
    const int64_t n = t->o.n;
    double *pers = or_alloc((size_t)n, sizeof *pers), *dang = or_alloc((size_t)n, sizeof *dang);
    for (int64_t v = 0; v < n; v++) {
        pers[v] = or_rand_below(rng, 4) ? (double)(1 + or_rand_below(rng, 100)) : 0.0;
        dang[v] = (double)or_rand_below(rng, 3);
    }
    pers[0] = dang[0] = 1.0;
    for (int setting = 0; setting < 5; setting++) {
        lg_pagerank_options_t po;
        lg_pagerank_options_init(&po);
        const char *what = "defaults";
        switch (setting) {
        case 1:
            po.use_weights = false;
            what = "weights ignored";
            break;
        case 2:
            po.alpha = 0.5;
            po.tol = 1e-10;
            po.max_iter = 200;
            what = "alpha 0.5, tol 1e-10";
            break;
        case 3:
            po.alpha = 0.9;
            po.personalization = pers;
            po.dangling = dang;
            what = "alpha 0.9, personalization, dangling";
            break;
        case 4:
            po.max_iter = 4;
            po.tol = 1e-12;
            what = "4 iterations (not converged)";
            break;
        default: break;
        }
        or_pr_run w = or_pagerank_run(&t->o, &po);
        /* a bounded run takes each setting on one of the thread counts */
        for (int k = 0; k < NUM_CTX; k++) {
            if (harness_quick() && k != setting % NUM_CTX)
                continue;
            check_pr_double(t, &po, &w, k, what);
            check_pr_float(t, &po, &w, k, what);
        }
        or_pr_run_free(&w);
    }
    free(pers);
    free(dang);
}

/* Which CPU iteration the graphs below reach on graphs of any size: the
 * pull in hub order, or segmenting (pagerank_segments.c), which
 * goes before hub order where both would pay. */
static bool segmented;
static bool one_loop; /* rows summed in one loop, not in trees (lg__pagerank_row_loop) */

/* On the CPU, PageRank on a skewed graph that runs many iterations stores
 * its contributions in hub order (pagerank.c), or pulls over segments: the settings above with many iterations must have taken that
 * path on `what`. */
static void expect_hub_order(const char *what)
{
#ifndef LG_TEST_GPU
    const long runs = segmented ? lg__pagerank_segmented_runs() : lg__pagerank_hub_runs();
    CHECK(runs > 0);
    if (runs <= 0)
        report("PageRank on %s never switched to %s", what, segmented ? "segments" : "hub order");
#else
    (void)what;
#endif
}

static void pagerank_graphs(void)
{
    /* hub order or segments on graphs of any size, so these small ones reach it */
    const size_t hub_min = lg__pagerank_hub_min_bytes(0);
    const size_t seg_min = lg__pagerank_segment_min_bytes(segmented ? 1 : SIZE_MAX);
    const int seg_shift = lg__pagerank_segment_shift(segmented ? 12 : 0); /* several segments */
    const int row_loop = lg__pagerank_row_loop(one_loop ? 2 : 1);
    (void)lg__pagerank_hub_runs();
    (void)lg__pagerank_segmented_runs();
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long seed = 6100 + (unsigned long long)directed, rng = seed;
        struct elist el;
        ladder_edges(&el, &rng);
        set_subject("degree ladder 1 .. 5000 with sinks and zero weights, %s, seed %llu",
                    directed ? "directed" : "undirected", seed);
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, true, directed)) {
            if (directed && !lg_graph_is_weighted(t.g))
                report("the ladder graph lost its weights");
            pagerank_big_graph(&t, &rng);
        }
        tgraph_free(&t);
        el_free(&el);
    }
    /* uniform random with a few hubs that take a third of the arcs */
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long seed = 6200 + (unsigned long long)directed, rng = seed;
        const int64_t n = 10003;
        struct elist el;
        el_init(&el, n);
        for (int64_t i = 0; i < 8 * n; i++) {
            int64_t a = or_rand_below(&rng, n), b = or_rand_below(&rng, n);
            if (i % 3 == 0)
                b %= 7;
            el_add(&el, a, b, i % 11 == 0 ? 0.0f : rand_weight(&rng));
        }
        set_subject("random with 7 hubs, %s, seed %llu", directed ? "directed" : "undirected",
                    seed);
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, true, 2))
            pagerank_big_graph(&t, &rng);
        tgraph_free(&t);
        el_free(&el);
    }
    /* a bounded run takes the largest graphs through the default kernel only */
    if ((segmented || one_loop) && harness_quick())
        goto restore;
    /* 2^17 leaves -> hub 0, and the first 40000 of them -> vertex 1 -> 0 too:
     * column 0 starts with vertex 1's large term and goes on with 131074 tiny
     * equal ones, a sum that drifts by far more than 1e-5 if accumulated in
     * float, as each tiny term is rounded against the large partial sum */
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long seed = 6400 + (unsigned long long)directed, rng = seed;
        const int64_t n = ((int64_t)1 << 17) + 4;
        struct elist el;
        el_init(&el, n);
        el_add(&el, 1, 0, 1.0f);
        for (int64_t v = 2; v < n; v++) {
            el_add(&el, v, 0, 1.0f);
            if (v < 40002)
                el_add(&el, v, 1, 1.0f);
        }
        set_subject("in-star of %lld leaves with a heavy first term, %s", (long long)n - 2,
                    directed ? "directed" : "undirected");
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, true, 0))
            pagerank_big_graph(&t, &rng);
        tgraph_free(&t);
        el_free(&el);
    }
    /* Kronecker's raw edges (self-loops, repeats), weighted, some weights 0:
     * the weighted, skewed case of hub order */
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long seed = 6500 + (unsigned long long)directed, rng = seed;
        const int scale = 12, ef = 16;
        const int64_t n = (int64_t)1 << scale, E = (int64_t)ef << scale;
        lg_vertex_t *src = or_alloc((size_t)E, sizeof *src),
                    *dst = or_alloc((size_t)E, sizeof *dst);
        CHECK_OK(lg_generate_edges(ctx[0], LG_GENERATOR_KRONECKER, scale, ef, seed, src, dst));
        struct elist el;
        el_init(&el, n);
        for (int64_t i = 0; i < E; i++)
            el_add(&el, src[i], dst[i], or_rand_below(&rng, 13) == 0 ? 0.0f : rand_weight(&rng));
        free(src);
        free(dst);
        set_subject("Kronecker scale %d raw edges, weighted, %s, seed %llu", scale,
                    directed ? "directed" : "undirected", seed);
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, true, 1)) {
            pagerank_big_graph(&t, &rng);
            expect_hub_order("the weighted Kronecker graph");
        }
        tgraph_free(&t);
        el_free(&el);
    }
    /* Kronecker, unweighted: heavy-tailed rows and columns */
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long rng = 6300;
        struct tgraph t;
        set_subject("Kronecker scale 13, %s, seed 13", directed ? "directed" : "undirected");
        if (tgraph_generate(&t, LG_GENERATOR_KRONECKER, 13, 16, 13, directed, 1)) {
            pagerank_big_graph(&t, &rng);
            expect_hub_order("the Kronecker graph");
        }
        tgraph_free(&t);
    }
restore:
    lg__pagerank_hub_min_bytes(hub_min);
    lg__pagerank_segment_min_bytes(seg_min);
    lg__pagerank_segment_shift(seg_shift);
    lg__pagerank_row_loop(row_loop);
}

static void test_pagerank(void)
{
    segmented = one_loop = false;
    pagerank_graphs();
}

#ifndef LG_TEST_GPU
static void test_pagerank_segmented(void)
{
    segmented = true;
    one_loop = false;
    pagerank_graphs();
}

static void test_pagerank_one_loop(void)
{
    segmented = false;
    one_loop = true;
    pagerank_graphs();
}
#endif

static void print_pr_skips(void)
{
    if (pr_skips)
        printf("%ld PageRank stopping decisions too close to call\n", pr_skips);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"PageRank", test_pagerank},
#ifndef LG_TEST_GPU
        {"PageRank over segments", test_pagerank_segmented},
        {"PageRank in one loop a row", test_pagerank_one_loop},
#endif
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_pr_skips);
}
