/*
 * test_algorithms.c - BFS, PageRank and connected components against the
 * oracles of oracle.h.
 *
 * Hundreds of random graphs of every shape in or_random_edges (directed and
 * undirected, weighted or not, with self-loops, duplicates, sinks), a few
 * larger ones (long frontiers, so a direction-optimizing BFS changes
 * direction), and the edge lists in tests/data, on contexts of 1, 2 and 3
 * threads:
 *
 *   lg_bfs          distances equal the queue BFS exactly, from several
 *                   sources; parents pass or_check_parents
 *   lg_pagerank     within 1e-12 of the float64 oracle per entry, with the same
 *                   status and the same iteration count, under default
 *                   options, no weights, alpha from 0 to 1, personalization,
 *                   nstart, dangling, tol 0 and small max_iter (then
 *                   LG_ERR_NOT_CONVERGED with the oracle's max_iter-th iterate)
 *   lg_pagerank_f32 within about 1e-5 relative of the oracle's iterate after
 *                   the same number of iterations, and stopping where the
 *                   float64 convergence test would (up to float rounding)
 *   lg_connected_components  labels and count equal union-find's exactly
 */
#define _POSIX_C_SOURCE 200809L

#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <pthread.h>
#include <stdarg.h>

#if defined(__GNUC__)
#define LG_TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LG_TEST_PRINTF(f, a)
#endif

#define NUM_CTX 3
static lg_context_t *ctx[NUM_CTX]; /* 1, 2 and 3 threads */

static int reports_left = 25;

/* A description of the graph under test, for failure reports. */
struct subject {
    const char *shape;
    unsigned long long seed;
    const lg_graph_options_t *o;
    bool weighted;
};

static void report(const struct subject *s, const char *fmt, ...) LG_TEST_PRINTF(2, 3);

/* ---- BFS and components ------------------------------------------------------------- */

static void check_bfs(const lg_graph_t *g, const or_graph *o, lg_vertex_t source, int k,
                      bool parents_wanted, const struct subject *s)
{
    const int64_t n = o->n;
    int32_t *want = or_alloc((size_t)n, sizeof *want);
    int32_t *dist = or_alloc((size_t)n, sizeof *dist);
    lg_vertex_t *parents = or_alloc((size_t)n, sizeof *parents);
    or_bfs(o, source, want);
    for (int64_t v = 0; v < n; v++)
        dist[v] = -7, parents[v] = -7;

    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    CHECK(!bo.compute_parents);
    bo.compute_parents = parents_wanted;
    /* without compute_parents, parents may be NULL; pass it that way half the time */
    lg_vertex_t *p_arg = parents_wanted || source % 2 ? parents : NULL;
    lg_status_t st = lg_bfs(ctx[k], g, source, &bo, dist, p_arg);
    CHECK(or_ran_on_expected(false));
    CHECK(st == LG_OK);
    if (st != LG_OK) {
        report(s, "lg_bfs from %d: %s: %s", (int)source, lg_status_string(st), lg_last_error());
    } else {
        bool same = memcmp(dist, want, (size_t)n * sizeof *dist) == 0;
        CHECK(same);
        if (!same)
            for (int64_t v = 0; v < n; v++)
                if (dist[v] != want[v]) {
                    report(s, "lg_bfs from %d, %d threads: distance of %lld is %d, want %d",
                           (int)source, k + 1, (long long)v, dist[v], want[v]);
                    break;
                }
        if (parents_wanted) {
            int64_t bad = or_check_parents(o, source, want, parents);
            CHECK(bad < 0);
            if (bad >= 0)
                report(s, "lg_bfs from %d, %d threads: bad parent %d of vertex %lld (dist %d)",
                       (int)source, k + 1, (int)parents[bad], (long long)bad, want[bad]);
        }
    }
    free(want);
    free(dist);
    free(parents);
}

static void check_components(const lg_graph_t *g, const or_graph *o, int k, const struct subject *s)
{
    const int64_t n = o->n;
    lg_vertex_t *want = or_alloc((size_t)n, sizeof *want);
    lg_vertex_t *labels = or_alloc((size_t)n, sizeof *labels);
    int64_t want_count = or_components(o, want), count = -1;
    lg_status_t st = lg_connected_components(ctx[k], g, labels, &count);
    CHECK(or_ran_on_expected(false));
    CHECK(st == LG_OK);
    if (st == LG_OK) {
        bool same = memcmp(labels, want, (size_t)n * sizeof *labels) == 0;
        CHECK(same);
        CHECK(count == want_count);
        if (!same || count != want_count)
            report(s, "lg_connected_components, %d threads: %lld components (want %lld)%s", k + 1,
                   (long long)count, (long long)want_count, same ? "" : ", labels differ");
        /* num_components may be NULL */
        for (int64_t v = 0; v < n; v++)
            labels[v] = -1;
        CHECK_OK(lg_connected_components(ctx[(k + 1) % NUM_CTX], g, labels, NULL));
        CHECK(memcmp(labels, want, (size_t)n * sizeof *labels) == 0);
    } else {
        report(s, "lg_connected_components: %s: %s", lg_status_string(st), lg_last_error());
    }
    free(want);
    free(labels);
}

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

/* True when a convergence decision of the oracle is too close to call in
 * floating point (an L1 change within 1e-9 relative of N * tol). */
static bool borderline(const double *errs, int iters, double limit)
{
    for (int i = 0; i < iters; i++)
        if (limit > 0.0 && fabs(errs[i] - limit) <= 1e-9 * limit)
            return true;
    return false;
}

static long borderline_skips;

static void check_pagerank(const lg_graph_t *g, const or_graph *o, const lg_pagerank_options_t *po,
                           int k, const struct subject *s)
{
    lg_pagerank_options_t d;
    lg_pagerank_options_init(&d);
    const lg_pagerank_options_t *eff = po ? po : &d;
    const int64_t n = o->n;
    double *want = or_alloc((size_t)n, sizeof *want);
    double *errs = or_alloc((size_t)eff->max_iter + 1, sizeof *errs);
    double *got = or_alloc((size_t)n, sizeof *got);
    int want_iters = -1, iters = -5;
    bool converged =
        or_pagerank(o, eff->alpha, eff->personalization, eff->nstart, eff->dangling,
                    eff->use_weights, eff->max_iter, eff->tol, want, &want_iters, errs);
    lg_status_t st = lg_pagerank(ctx[k], g, po, got, &iters);
    CHECK(or_ran_on_expected(n > 0)); /* nothing to run on an empty graph */
    if (borderline(errs, want_iters, (double)n * eff->tol)) {
        borderline_skips++;
    } else {
        lg_status_t want_st = converged ? LG_OK : LG_ERR_NOT_CONVERGED;
        CHECK(st == want_st);
        CHECK(iters == want_iters);
        if (st != want_st || iters != want_iters)
            report(s,
                   "lg_pagerank (alpha %g tol %g max_iter %d weights %d pers %d nstart %d "
                   "dangling %d, %d threads): %s after %d iterations (%s), want %s after %d",
                   eff->alpha, eff->tol, eff->max_iter, (int)eff->use_weights,
                   eff->personalization != NULL, eff->nstart != NULL, eff->dangling != NULL, k + 1,
                   lg_status_string(st), iters, lg_last_error(), lg_status_string(want_st),
                   want_iters);
        if (st == want_st && iters == want_iters) {
            double worst = 0.0;
            int64_t at = 0;
            for (int64_t v = 0; v < n; v++)
                if (fabs(got[v] - want[v]) > worst || got[v] != got[v])
                    worst = got[v] != got[v] ? INFINITY : fabs(got[v] - want[v]), at = v;
            CHECK(worst <= 1e-12);
            if (worst > 1e-12)
                report(s,
                       "lg_pagerank (alpha %g tol %g max_iter %d weights %d pers %d nstart %d "
                       "dangling %d, %d threads): score of %lld is %.17g, want %.17g",
                       eff->alpha, eff->tol, eff->max_iter, (int)eff->use_weights,
                       eff->personalization != NULL, eff->nstart != NULL, eff->dangling != NULL,
                       k + 1, (long long)at, got[at], want[at]);
        }
    }
    free(want);
    free(errs);
    free(got);
}

/* Float PageRank: scores against the float64 iterate after the same number of
 * iterations, and the stopping point against the float64 L1 changes. */
static void check_pagerank_f32(const lg_graph_t *g, const or_graph *o,
                               const lg_pagerank_options_t *po, int k, const struct subject *s)
{
    const int64_t n = o->n;
    float *got = or_alloc((size_t)n, sizeof *got);
    double *want = or_alloc((size_t)n, sizeof *want);
    double *errs = or_alloc((size_t)po->max_iter + 1, sizeof *errs);
    int iters = -5, want_iters = -1;
    lg_status_t st = lg_pagerank_f32(ctx[k], g, po, got, &iters);
    CHECK(or_ran_on_expected(n > 0)); /* nothing to run on an empty graph */
    CHECK(st == LG_OK || st == LG_ERR_NOT_CONVERGED);
    CHECK(iters >= 1 && iters <= po->max_iter);
    if ((st != LG_OK && st != LG_ERR_NOT_CONVERGED) || iters < 1 || iters > po->max_iter) {
        report(s, "lg_pagerank_f32: %s after %d iterations: %s", lg_status_string(st), iters,
               lg_last_error());
        goto done;
    }
    or_pagerank(o, po->alpha, po->personalization, po->nstart, po->dangling, po->use_weights, iters,
                -1.0, want, &want_iters, errs);
    /* float rounding moves an L1 change of total mass 2 by a few 1e-7 */
    const double limit = (double)n * po->tol, slack = 1e-5;
    if (st == LG_OK) {
        CHECK(errs[iters - 1] < limit + slack);
        CHECK(iters == 1 || errs[iters - 2] >= limit - slack);
    } else {
        CHECK(iters == po->max_iter);
        CHECK(errs[iters - 1] >= limit - slack);
    }
    double worst = 0.0;
    int64_t at = 0;
    for (int64_t v = 0; v < n; v++) {
        double rel = fabs((double)got[v] - want[v]) / (fabs(want[v]) + 1.0 / (double)n);
        if (rel > worst || got[v] != got[v])
            worst = got[v] != got[v] ? INFINITY : rel, at = v;
    }
    CHECK(worst <= 1e-5);
    if (worst > 1e-5)
        report(s,
               "lg_pagerank_f32 (alpha %g, %d iterations, %d threads): score of %lld is %.9g, "
               "want %.12g",
               po->alpha, iters, k + 1, (long long)at, (double)got[at], want[at]);
done:
    free(got);
    free(want);
    free(errs);
}

/* The PageRank variants run on each random graph. */
static void pagerank_variants(const lg_graph_t *g, const or_graph *o, unsigned long long *rng,
                              const struct subject *s)
{
    static const double alphas[] = {0.0, 0.3, 0.5, 0.85, 0.9, 0.99, 1.0};
    static const double tols[] = {1e-3, 1e-6, 1e-10, 0.0};
    static const int small_iters[] = {0, 1, 2, 3, 5};
    const int64_t n = o->n;
    int k = (int)or_rand_below(rng, NUM_CTX);
    lg_pagerank_options_t po;

    /* NULL options are the defaults; iterations may be NULL */
    check_pagerank(g, o, NULL, k, s);
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
    check_pagerank(g, o, &po, (k + 1) % NUM_CTX, s);

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
    check_pagerank(g, o, &po, (k + 2) % NUM_CTX, s);

    /* tolerances, tol 0 never converges */
    lg_pagerank_options_init(&po);
    po.tol = tols[or_rand_below(rng, 4)];
    po.max_iter = 40;
    po.personalization = r & 16 ? pers : NULL;
    check_pagerank(g, o, &po, k, s);

    /* max_iter too small: LG_ERR_NOT_CONVERGED with the oracle's iterate */
    lg_pagerank_options_init(&po);
    po.max_iter = small_iters[or_rand_below(rng, 5)];
    po.tol = 1e-9;
    po.nstart = r & 32 ? nstart : NULL;
    check_pagerank(g, o, &po, (k + 1) % NUM_CTX, s);

    /* single precision */
    if (n > 0) {
        lg_pagerank_options_init(&po);
        po.alpha = alphas[1 + (r >> 8) % 4]; /* 0.3 .. 0.9: float error stays small */
        po.personalization = r & 64 ? pers : NULL;
        po.dangling = r & 128 ? dang : NULL;
        po.use_weights = r & 256;
        po.max_iter = (r >> 12) % 4 == 0 ? 3 : 100;
        check_pagerank_f32(g, o, &po, (k + 2) % NUM_CTX, s);
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
        struct subject s = {e.shape, seed, &o, weighted};
        const float *w = weighted ? e.w : NULL;

        lg_graph_t *g = NULL;
        lg_status_t st = lg_graph_from_edges(ctx[gi % NUM_CTX], e.n, e.E, e.src, e.dst, w, &o, &g);
        CHECK(st == LG_OK);
        if (st != LG_OK) {
            report(&s, "lg_graph_from_edges: %s: %s", lg_status_string(st), lg_last_error());
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
                check_bfs(g, &want, sources[i], (gi + i) % NUM_CTX, i % 2 == 0, &s);
        }
        check_components(g, &want, gi % NUM_CTX, &s);
        pagerank_variants(g, &want, &rng, &s);

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
    CHECK_OK(lg_graph_from_edges(ctx[0], 5, 4, src, dst, NULL, NULL, &g));
    if (!g)
        return;
    or_graph o;
    or_build(&o, 5, 4, src, dst, NULL, NULL);

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
    CHECK_OK(lg_connected_components(ctx[2], g, labels, &count));
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
    int iters = 0;
    CHECK_OK(lg_pagerank(ctx[0], g, &po, x, &iters));
    CHECK(iters == 2);
    CHECK(x[0] == 0.25 && x[1] == 0.0 && x[2] == 0.0 && x[3] == 0.0 && x[4] == 0.75);

    /* one iteration from uniform, alpha 0.5, by hand:
     *   x W: 0 gets 0.2 (from 2), 1 gets 0.2, 2 gets 0.4, 3 and 4 get 0;
     *   dangling mass 0.2 spread uniformly: +0.04 each;
     *   x' = 0.5 * (xW + 0.04) + 0.5 * 0.2 */
    lg_pagerank_options_init(&po);
    po.alpha = 0.5;
    po.max_iter = 1;
    CHECK_STATUS(lg_pagerank(ctx[1], g, &po, x, &iters), LG_ERR_NOT_CONVERGED);
    CHECK(iters == 1);
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
        CHECK_OK(lg_connected_components(ctx[2], g, lab, &count));
        CHECK(count == 0 && lab[0] == -5);
        lg_graph_free(&g);
    }
}

/* ---- larger graphs ----------------------------------------------------------------------------
 */

/* PageRank with weights at the edges of float: subnormal and huge. */
static void test_weight_extremes(void)
{
    static const struct {
        const char *name;
        float w[5];
    } cases[] = {
        {"subnormal weights", {1e-40f, 1.0f, 1.0f, 1e-40f, 3e-41f}},
        {"huge weights", {3e38f, 3e38f, 1.0f, 2e38f, 1e-3f}},
        {"mixed weights", {1e-40f, 3e38f, 1.0f, 1e-30f, 1e30f}},
    };
    /* 0 -> 1, 0 -> 2, 1 -> 0, 2 -> 0, 2 -> 3; 3 dangling */
    const lg_vertex_t src[] = {0, 0, 1, 2, 2}, dst[] = {1, 2, 0, 0, 3};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        struct subject s = {cases[c].name, 0, &o, true};
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[c % NUM_CTX], 4, 5, src, dst, cases[c].w, &o, &g));
        if (!g)
            continue;
        or_graph want;
        or_build(&want, 4, 5, src, dst, cases[c].w, &o);
        lg_pagerank_options_t po;
        lg_pagerank_options_init(&po);
        check_pagerank(g, &want, &po, (int)c % NUM_CTX, &s);
        check_pagerank_f32(g, &want, &po, (int)(c + 1) % NUM_CTX, &s);
        or_graph_free(&want);
        lg_graph_free(&g);
    }
}

static void test_larger(void)
{
    for (int round = 0; round < 6; round++) {
        unsigned long long rng = 31337 + (unsigned long long)round;
        const int64_t n = 4000 + 3000 * round, E = n * (round % 2 ? 3 : 10);
        or_edges e;
        or_edges_alloc(&e, n, E);
        e.shape = round % 3 == 2 ? "larger, skewed" : "larger, uniform";
        for (int64_t i = 0; i < E; i++) {
            int64_t a = or_rand_below(&rng, n), b = or_rand_below(&rng, n);
            if (round % 3 == 2) { /* hubs: many arcs touch the first 30 ids */
                if (i % 3 == 0)
                    a %= 30;
                if (i % 5 == 0)
                    b %= 30;
            }
            e.src[i] = (lg_vertex_t)a;
            e.dst[i] = (lg_vertex_t)b;
            e.w[i] = (float)(1 + or_rand_below(&rng, 64)) / 8.0f;
        }
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = round % 2 ? LG_UNDIRECTED : LG_DIRECTED;
        o.duplicates = round % 3 ? LG_DUPLICATES_KEEP : LG_DUPLICATES_SUM;
        struct subject s = {e.shape, 31337 + (unsigned long long)round, &o, true};
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[round % NUM_CTX], n, E, e.src, e.dst, e.w, &o, &g));
        if (g) {
            or_graph want;
            or_build(&want, n, E, e.src, e.dst, e.w, &o);
            for (int k = 0; k < NUM_CTX; k++) {
                check_bfs(g, &want, (lg_vertex_t)or_rand_below(&rng, n), k, k != 1, &s);
                check_components(g, &want, k, &s);
            }
            lg_pagerank_options_t po;
            lg_pagerank_options_init(&po);
            check_pagerank(g, &want, &po, round % NUM_CTX, &s);
            po.use_weights = false;
            po.max_iter = 7;
            check_pagerank(g, &want, &po, (round + 1) % NUM_CTX, &s);
            lg_pagerank_options_init(&po);
            check_pagerank_f32(g, &want, &po, (round + 2) % NUM_CTX, &s);
            or_graph_free(&want);
        }
        lg_graph_free(&g);
        or_edges_free(&e);
    }
}

/* ---- one graph and one context shared by several threads -------------------------------- */

#define WORKERS 4

struct worker {
    const lg_graph_t *g;
    lg_context_t *c;
    lg_vertex_t source;
    int64_t n;
    int32_t *dist;
    lg_vertex_t *parents, *labels;
    double *scores;
    int iters;
    lg_status_t st_bfs, st_cc, st_pr;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = true;
    /* PageRank first: on a fresh directed graph it races for the lazy CSC */
    w->st_pr = lg_pagerank(w->c, w->g, NULL, w->scores, &w->iters);
    w->st_bfs = lg_bfs(w->c, w->g, w->source, &bo, w->dist, w->parents);
    w->st_cc = lg_connected_components(w->c, w->g, w->labels, NULL);
    return NULL;
}

static void test_shared(void)
{
    for (int round = 0; round < 4; round++) {
        unsigned long long rng = 555 + (unsigned long long)round;
        const int64_t n = 2000, E = 6000;
        or_edges e;
        or_edges_alloc(&e, n, E);
        e.shape = "shared";
        for (int64_t i = 0; i < E; i++) {
            e.src[i] = (lg_vertex_t)or_rand_below(&rng, n);
            e.dst[i] = (lg_vertex_t)or_rand_below(&rng, n);
        }
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = round % 2 ? LG_UNDIRECTED : LG_DIRECTED;
        struct subject s = {e.shape, 555 + (unsigned long long)round, &o, true};
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[1], n, E, e.src, e.dst, e.w, &o, &g));
        if (!g) {
            or_edges_free(&e);
            continue;
        }
        or_graph want;
        or_build(&want, n, E, e.src, e.dst, e.w, &o);
        double *pr = or_alloc((size_t)n, sizeof *pr);
        int pr_iters = 0;
        or_pagerank(&want, 0.85, NULL, NULL, NULL, true, 100, 1e-6, pr, &pr_iters, NULL);
        lg_vertex_t *labels = or_alloc((size_t)n, sizeof *labels);
        or_components(&want, labels);
        int32_t *dist = or_alloc((size_t)n, sizeof *dist);

        struct worker w[WORKERS];
        pthread_t th[WORKERS];
        bool started[WORKERS];
        for (int t = 0; t < WORKERS; t++) {
            w[t] = (struct worker){.g = g, .c = ctx[round % NUM_CTX], .n = n};
            w[t].source = (lg_vertex_t)or_rand_below(&rng, n);
            w[t].dist = or_alloc((size_t)n, sizeof *w[t].dist);
            w[t].parents = or_alloc((size_t)n, sizeof *w[t].parents);
            w[t].labels = or_alloc((size_t)n, sizeof *w[t].labels);
            w[t].scores = or_alloc((size_t)n, sizeof *w[t].scores);
        }
        for (int t = 0; t < WORKERS; t++) {
            started[t] = pthread_create(&th[t], NULL, work, &w[t]) == 0;
            CHECK(started[t]);
        }
        for (int t = 0; t < WORKERS; t++) {
            if (!started[t])
                continue;
            pthread_join(th[t], NULL);
            CHECK(w[t].st_pr == LG_OK && w[t].st_bfs == LG_OK && w[t].st_cc == LG_OK);
            CHECK(w[t].iters == pr_iters);
            double worst = 0.0;
            for (int64_t v = 0; v < n; v++)
                worst = fmax(worst, fabs(w[t].scores[v] - pr[v]));
            CHECK(worst <= 1e-12);
            or_bfs(&want, w[t].source, dist);
            bool same = memcmp(dist, w[t].dist, (size_t)n * sizeof *dist) == 0;
            CHECK(same);
            CHECK(or_check_parents(&want, w[t].source, dist, w[t].parents) < 0);
            CHECK(memcmp(labels, w[t].labels, (size_t)n * sizeof *labels) == 0);
            if (!same || worst > 1e-12)
                report(&s, "threads sharing a graph and a context disagree with the oracles");
        }
        for (int t = 0; t < WORKERS; t++) {
            free(w[t].dist);
            free(w[t].parents);
            free(w[t].labels);
            free(w[t].scores);
        }
        free(pr);
        free(labels);
        free(dist);
        or_graph_free(&want);
        lg_graph_free(&g);
        or_edges_free(&e);
    }
}

/* ---- the data files
 * ------------------------------------------------------------------------------- */

/* Our own reading of a "u v" edge list ('#' and '%' lines are comments). */
static bool parse_edge_list(const char *path, or_edges *e)
{
    memset(e, 0, sizeof *e);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t cap = 1024;
    int64_t E = 0, maxid = -1;
    lg_vertex_t *src = or_alloc(cap, sizeof *src), *dst = or_alloc(cap, sizeof *dst);
    char line[256];
    bool ok = true;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '%')
            continue;
        long a, b;
        int got = sscanf(line, "%ld %ld", &a, &b);
        if (got == EOF)
            continue;
        if (got != 2 || a < 0 || b < 0) {
            ok = false;
            break;
        }
        if ((size_t)E == cap) {
            cap *= 2;
            src = realloc(src, cap * sizeof *src);
            dst = realloc(dst, cap * sizeof *dst);
            if (!src || !dst) {
                fprintf(stderr, "out of memory\n");
                exit(2);
            }
        }
        src[E] = (lg_vertex_t)a;
        dst[E] = (lg_vertex_t)b;
        maxid = a > maxid ? a : maxid;
        maxid = b > maxid ? b : maxid;
        E++;
    }
    fclose(f);
    e->n = maxid + 1;
    e->E = E;
    e->src = src;
    e->dst = dst;
    e->w = NULL;
    return ok;
}

static void test_data_file(const char *name, int64_t want_n, int64_t want_edges)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", LG_TEST_DATA_DIR, name);
    or_edges e;
    bool parsed = parse_edge_list(path, &e);
    CHECK(parsed);
    CHECK(e.n == want_n && e.E == want_edges);
    if (!parsed) {
        fprintf(stderr, "cannot parse %s\n", path);
        or_edges_free(&e);
        return;
    }
    for (int undirected = 0; undirected < 2; undirected++) {
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        if (undirected)
            o.directedness = LG_UNDIRECTED;
        struct subject s = {name, 0, &o, false};
        lg_graph_t *g = NULL;
        lg_status_t st = lg_graph_read(ctx[undirected + 1], path, LG_FORMAT_AUTO, &o, &g);
        CHECK(st == LG_OK);
        if (st != LG_OK) {
            report(&s, "lg_graph_read(%s): %s: %s", path, lg_status_string(st), lg_last_error());
            continue;
        }
        or_graph want;
        or_build(&want, e.n, e.E, e.src, e.dst, NULL, &o);
        const lg_edge_t *off;
        const lg_vertex_t *idx;
        const float *w;
        CHECK_OK(lg_graph_csr(g, &off, &idx, &w));
        CHECK(lg_graph_num_vertices(g) == want.n);
        CHECK(lg_graph_is_directed(g) == !undirected); /* .el is directed by default */
        CHECK(!lg_graph_is_weighted(g));
        bool same = lg_graph_num_vertices(g) == want.n &&
                    or_csr_equal(want.n, off, idx, w, want.off, want.idx, want.w);
        CHECK(same);
        if (!same) {
            report(&s, "lg_graph_read(%s) differs from our parse of it", path);
        } else {
            for (int i = 0; i < 3; i++)
                check_bfs(g, &want, (lg_vertex_t)(i * (e.n - 1) / 2), i, i != 1, &s);
            check_components(g, &want, undirected, &s);
            lg_pagerank_options_t po;
            lg_pagerank_options_init(&po);
            check_pagerank(g, &want, &po, undirected, &s);
            check_pagerank_f32(g, &want, &po, 2 - undirected, &s);
            if (undirected && want_n == 4039) {
                /* facebook_combined is one component */
                int64_t count = 0;
                lg_vertex_t *labels = or_alloc((size_t)want.n, sizeof *labels);
                CHECK_OK(lg_connected_components(ctx[0], g, labels, &count));
                CHECK(count == 1);
                free(labels);
            }
        }
        or_graph_free(&want);
        lg_graph_free(&g);
    }
    or_edges_free(&e);
}

int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    bool opened = or_open_contexts(ctx, NUM_CTX);
    CHECK(opened);
    if (!opened)
        TEST_EXIT();
    test_by_hand();
    test_random();
    test_weight_extremes();
    test_larger();
    test_shared();
    test_data_file("facebook_combined.el", 4039, 88234);
    test_data_file("oregon1_010331.el", 10670, 22002);
    if (borderline_skips)
        printf("%ld PageRank comparisons skipped as too close to call\n", borderline_skips);
    for (int k = 0; k < NUM_CTX; k++)
        lg_context_free(&ctx[k]);
    TEST_EXIT();
}

static void report(const struct subject *s, const char *fmt, ...)
{
    if (reports_left <= 0)
        return;
    reports_left--;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "  FAILED ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr,
            "\n    graph: shape %s seed %llu directedness %d symmetrize %d drop_self_loops %d "
            "duplicates %d weighted %d\n",
            s->shape, s->seed, (int)s->o->directedness, (int)s->o->symmetrize,
            (int)s->o->drop_self_loops, (int)s->o->duplicates, (int)s->weighted);
}
