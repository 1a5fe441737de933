/*
 * test_eigenvector.c - the power iterations (lg_eigenvector, lg_katz,
 * lg_hits) against NetworkX's iterations written out here plainly: a push
 * over the out-arcs in vertex order (for u, for each arc u -> v: x[v] +=
 * x[u] w), serial, with contexts of 1, 2 and 3 threads.
 *
 * Values must equal the oracle's to a relative 1e-12 of the largest entry
 * (the sums run in another order), and the iterations run within one (a
 * change at the very limit may round to either side).  The random shapes
 * of oracle_shapes.h directed and undirected, unweighted and weighted,
 * nstart and per-vertex betas; a float64 graph's exact weights (refused on
 * the GPU); not converging; refusals and messages; cancellation at each
 * iteration, the graph usable after it (the same answer, bit for bit).
 * The float twins (lg_eigenvector_f32, ...) against the oracle after as
 * many iterations as they ran (F32_NEAR below), and cancelled likewise.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "oracle_shapes.h"
#include "test_util.h"

#include <math.h>

static long power_runs;

/* ---- the oracles ----------------------------------------------------------------------- */

/* y = A^T x over o's arcs (w: weights, NULL: 1). */
static void push(const or_graph *o, const double *w, const double *x, double *y)
{
    for (int64_t v = 0; v < o->n; v++)
        y[v] = 0.0;
    for (int64_t u = 0; u < o->n; u++)
        for (lg_edge_t e = o->off[u]; e < o->off[u + 1]; e++)
            y[o->idx[e]] += x[u] * (w ? w[e] : 1.0);
}

/* NetworkX's eigenvector_centrality (kind 0), katz_centrality (1, alpha
 * 0.05, betas b), _hits_python (2: x the hubs, a the authorities);
 * returns the iterations run, -1 when max_iter ran out.  exactly: max_iter
 * iterations whatever their change, the last finished as a converged one. */
static int iterate(int kind, const or_graph *o, const double *w, const double *nstart,
                   const double *b, int max_iter, bool exactly, double *x, double *a)
{
    const int64_t n = o->n;
    double *last = or_alloc((size_t)n + 1, sizeof *last), *y = or_alloc((size_t)n + 1, sizeof *y);
    double sum = 0.0;
    for (int64_t v = 0; v < n; v++)
        sum += nstart ? nstart[v] : 1.0;
    for (int64_t v = 0; v < n; v++)
        x[v] = kind == 1 ? (nstart ? nstart[v] : 0.0) : (nstart ? nstart[v] : 1.0) / sum;
    const double tol = kind == 2 ? 1e-8 : 1e-6, limit = kind == 2 ? tol : (double)n * tol;
    int iter = 0, done = -1;
    while (iter < max_iter && done < 0) {
        for (int64_t v = 0; v < n; v++)
            last[v] = x[v];
        push(o, w, last, y);
        double err = 0.0;
        if (kind == 0) {
            double sq = 0.0;
            for (int64_t v = 0; v < n; v++) {
                y[v] += last[v];
                sq += y[v] * y[v];
            }
            const double norm = sq > 0.0 ? sqrt(sq) : 1.0;
            for (int64_t v = 0; v < n; v++)
                x[v] = y[v] / norm;
        } else if (kind == 1) {
            for (int64_t v = 0; v < n; v++)
                x[v] = 0.05 * y[v] + (b ? b[v] : 1.0);
        } else {
            for (int64_t v = 0; v < n; v++)
                a[v] = y[v];
            double ma = 0.0, mh = 0.0;
            for (int64_t u = 0; u < n; u++) {
                double h = 0.0;
                for (lg_edge_t e = o->off[u]; e < o->off[u + 1]; e++)
                    h += a[o->idx[e]] * (w ? w[e] : 1.0);
                x[u] = h;
                mh = fmax(mh, h);
                ma = fmax(ma, a[u]);
            }
            for (int64_t v = 0; v < n; v++) {
                x[v] *= 1.0 / mh;
                a[v] *= 1.0 / ma;
            }
        }
        for (int64_t v = 0; v < n; v++)
            err += fabs(x[v] - last[v]);
        iter++;
        if (exactly ? iter == max_iter : err < limit)
            done = iter;
    }
    if (done > 0 && kind == 1) {
        double sq = 0.0;
        for (int64_t v = 0; v < n; v++)
            sq += x[v] * x[v];
        for (int64_t v = 0; v < n && sq > 0.0; v++)
            x[v] *= 1.0 / sqrt(sq);
    }
    if (done > 0 && kind == 2) {
        double sh = 0.0, sa = 0.0;
        for (int64_t v = 0; v < n; v++) {
            sh += x[v];
            sa += a[v];
        }
        for (int64_t v = 0; v < n; v++) {
            x[v] *= 1.0 / sh;
            a[v] *= 1.0 / sa;
        }
    }
    free(last);
    free(y);
    return done;
}

static int oracle(int kind, const or_graph *o, const double *w, const double *nstart,
                  const double *b, int max_iter, double *x, double *a)
{
    return iterate(kind, o, w, nstart, b, max_iter, false, x, a);
}

/* ---- the checks ------------------------------------------------------------------------ */

/* got within a relative 1e-12 of want's largest entry. */
static bool near(const double *got, const double *want, int64_t n)
{
    return or_near(got, want, n, 1e-12);
}

static const char *const names[3] = {"lg_eigenvector", "lg_katz", "lg_hits"};

/* The float twins: to a relative F32_NEAR(iterations) of the largest entry
 * of the oracle's iterate after as many iterations (the float test of the
 * change may stop an iteration before or after the double's, and on a
 * slowly converging graph one iteration moves the result by more than
 * float's rounding).  The bound grows with the iterations: each rounds
 * every entry (6e-8), and an iteration that contracts slowly does not damp
 * those errors (a directed path's A + I, one Jordan block: 2e-4 after 968
 * iterations).  HITS stopped at HITS_F32_TOL (its default 1e-8 is below
 * float's rounding of an L1 change). */
#define F32_NEAR(iterations) (1e-5 + 4e-7 * (iterations))
#define HITS_F32_TOL 1e-5

/* One call of kind's function (options as the oracle's); its status.
 * x32 and a32 not NULL: the float twin's, into them. */
static lg_status_t call(int kind, const lg_graph_t *g, bool use_weights, const double *nstart,
                        const double *b, int max_iter, double *x, double *a, float *x32, float *a32,
                        lg_iteration_result_t *r)
{
    lg_context_t *c = ctx[power_runs++ % NUM_CTX];
    if (kind == 0) {
        lg_eigenvector_options_t o;
        lg_eigenvector_options_init(&o);
        o.use_weights = use_weights, o.nstart = nstart, o.max_iter = max_iter;
        return x32 ? lg_eigenvector_f32(c, g, &o, x32, r) : lg_eigenvector(c, g, &o, x, r);
    }
    if (kind == 1) {
        lg_katz_options_t o;
        lg_katz_options_init(&o);
        o.alpha = 0.05, o.use_weights = use_weights, o.nstart = nstart, o.betas = b;
        o.max_iter = max_iter;
        return x32 ? lg_katz_f32(c, g, &o, x32, r) : lg_katz(c, g, &o, x, r);
    }
    lg_hits_options_t o;
    lg_hits_options_init(&o);
    o.use_weights = use_weights, o.nstart = nstart, o.max_iter = max_iter;
    if (x32)
        o.tol = HITS_F32_TOL;
    return x32 ? lg_hits_f32(c, g, &o, x32, a32, r) : lg_hits(c, g, &o, x, a, r);
}

static double worst_f32;

static void check_f32(int kind, const lg_graph_t *g, const or_graph *o, const double *w,
                      bool use_weights, const double *nstart, const double *b)
{
    const int64_t n = o->n;
    float *x = or_alloc((size_t)n, sizeof *x), *a = or_alloc((size_t)n, sizeof *a);
    double *wx = or_alloc((size_t)n, sizeof *wx), *wa = or_alloc((size_t)n, sizeof *wa);
    double *want = or_alloc((size_t)n, sizeof *want), *want_a = or_alloc((size_t)n, sizeof *want);
    lg_iteration_result_t r;
    const lg_status_t st = call(kind, g, use_weights, nstart, b, 3000, NULL, NULL, x, a, &r);
    CHECK(st == LG_OK && r.converged);
    if (st != LG_OK) {
        report("%s_f32: %s: %s", names[kind], lg_status_string(st), lg_last_error());
    } else {
        CHECK(or_ran_on_expected(true));
        iterate(kind, o, w, nstart, b, r.iterations, true, want, want_a);
        double most = 0.0, off = 0.0;
        for (int64_t v = 0; v < n; v++) {
            wx[v] = x[v], wa[v] = a[v];
            most = fmax(most, fmax(fabs(want[v]), kind == 2 ? fabs(want_a[v]) : 0.0));
            off = fmax(off, fmax(fabs(wx[v] - want[v]), kind == 2 ? fabs(wa[v] - want_a[v]) : 0.0));
        }
        worst_f32 = fmax(worst_f32, most > 0.0 ? off / most : off);
        const double bound = F32_NEAR(r.iterations);
        CHECK(or_near(wx, want, n, bound) && (kind < 2 || or_near(wa, want_a, n, bound)));
        if (!(off <= bound * most))
            report("%s_f32, weights %d: off by %.3g of the largest %.3g after %d iterations",
                   names[kind], use_weights, off, most, r.iterations);
    }
    free(x);
    free(a);
    free(wx);
    free(wa);
    free(want);
    free(want_a);
}

static void check_graph(const lg_graph_t *g, const or_graph *o, bool use_weights,
                        unsigned long long *rng)
{
    const int64_t n = o->n;
    if (n == 0)
        return;
    double *w = NULL;
    if (use_weights && o->w) {
        w = or_alloc((size_t)o->m + 1, sizeof *w);
        for (int64_t e = 0; e < o->m; e++)
            w[e] = (double)o->w[e];
    }
    double *want = or_alloc((size_t)n, sizeof *want), *want_a = or_alloc((size_t)n, sizeof *want),
           *got = or_alloc((size_t)n, sizeof *got), *got_a = or_alloc((size_t)n, sizeof *got),
           *nstart = or_alloc((size_t)n, sizeof *nstart), *b = or_alloc((size_t)n, sizeof *b);
    for (int64_t v = 0; v < n; v++) {
        nstart[v] = 0.5 + (double)or_rand_below(rng, 8);
        b[v] = 1.0 + (double)or_rand_below(rng, 3);
    }
    for (int kind = 0; kind < 3; kind++)
        for (int given = 0; given < 2; given++) {
            if (kind == 2 && o->m == 0)
                continue; /* no hubs: the refusal is test_refusals' */
            const double *ns = given ? nstart : NULL, *bs = given ? b : NULL;
            const int max_iter = 3000;
            const int iters = oracle(kind, o, w, ns, bs, max_iter, want, want_a);
            lg_iteration_result_t r;
            const lg_status_t st =
                call(kind, g, use_weights, ns, bs, max_iter, got, got_a, NULL, NULL, &r);
            if (iters < 0) { /* Katz diverges on graphs whose largest eigenvalue is > 20 */
                CHECK(st == LG_ERR_NOT_CONVERGED && !r.converged && r.iterations == max_iter);
                continue;
            }
            CHECK(st == LG_OK);
            if (st != LG_OK) {
                report("%s: %s: %s", names[kind], lg_status_string(st), lg_last_error());
                continue;
            }
            CHECK(r.converged && abs(r.iterations - iters) <= 1);
            const bool same = abs(r.iterations - iters) == 0;
            if (same)
                CHECK(near(got, want, n) && (kind < 2 || near(got_a, want_a, n)));
            if (!same || !near(got, want, n) || (kind == 2 && !near(got_a, want_a, n)))
                report("%s, weights %d, nstart %d: %d iterations (oracle %d), vertex 0 %.17g "
                       "(oracle %.17g)",
                       names[kind], use_weights, given, r.iterations, iters, got[0], want[0]);
            check_f32(kind, g, o, w, use_weights, ns, bs);
        }
    free(w);
    free(want);
    free(want_a);
    free(got);
    free(got_a);
    free(nstart);
    free(b);
}

static void test_shapes(void)
{
    for (int gi = 0, rounds = harness_rounds(96, 24); gi < rounds; gi++) {
        unsigned long long seed = 8100 + (unsigned long long)gi, rng = seed * 41 + 3;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool directed = (gi / OR_NUM_SHAPES) % 2 == 0, weighted = gi % 3 != 0;
        for (int64_t i = 0; i < e.E; i++)
            e.w[i] = (float)(1 + or_rand_below(&rng, 4)) / 2.0f;
        set_subject("shape %s, seed %llu, %s, %s", e.shape, seed,
                    directed ? "directed" : "undirected", weighted ? "weighted" : "unweighted");
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, weighted, gi % NUM_CTX)) {
            check_graph(t.g, &t.o, true, &rng);
            if (weighted)
                check_graph(t.g, &t.o, false, &rng);
        }
        tgraph_free(&t);
        or_edges_free(&e);
    }
}

/* Enough vertices for many blocks of rows. */
static void test_larger(void)
{
    unsigned long long rng = 707;
    for (int directed = 0; directed < 2; directed++) {
        struct elist el;
        el_init(&el, 6000);
        el_random(&el, 0, 6000, 15000, &rng);
        set_subject("random, 6000 vertices, %s", directed ? "directed" : "undirected");
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, false, 1))
            check_graph(t.g, &t.o, true, &rng);
        tgraph_free(&t);
        el_free(&el);
    }
}

/* A float64 graph's exact weights: the CPU reads them (the oracle weighs
 * each arc u -> v as weight_of(u, v), not its float32 rounding); the GPU
 * kernels, which read float32, refuse them under LG_BACKEND_GPU (and an
 * AUTO context reruns the call on the CPU: test_plugin_dispatch). */
static double weight_of(int64_t u, int64_t v)
{
    return 0.1 + 0.01 * (double)((u * 7 + v) % 10);
}

static void test_float64_weights(void)
{
    unsigned long long rng = 909;
    struct elist el;
    el_init(&el, 300);
    el_random(&el, 0, 300, 900, &rng);
    set_subject("random, 300 vertices, float64 weights");
    struct tgraph t;
    double *w64 = or_alloc((size_t)el.E, sizeof *w64);
    for (int64_t i = 0; i < el.E; i++)
        w64[i] = weight_of(el.src[i], el.dst[i]);
    lg_graph_options_t go = graph_options(true);
    lg_graph_t *g = NULL;
    if (!tgraph_from_elist(&t, &el, true, false, 0)) {
        free(w64);
        el_free(&el);
        return;
    }
    CHECK_OK(lg_graph_from_edges_f64(ctx[0], el.n, el.E, el.src, el.dst, w64, &go, &g));
    const or_graph *o = &t.o;
    double *w = or_alloc((size_t)o->m + 1, sizeof *w), *want = or_alloc(300, sizeof *want),
           *want_a = or_alloc(300, sizeof *want), *got = or_alloc(300, sizeof *got),
           *got_a = or_alloc(300, sizeof *got);
    for (int64_t u = 0; u < o->n; u++)
        for (lg_edge_t e = o->off[u]; e < o->off[u + 1]; e++)
            w[e] = weight_of(u, o->idx[e]);
    for (int kind = 0; g && kind < 3; kind++) {
        const int iters = oracle(kind, o, w, NULL, NULL, 3000, want, want_a);
        lg_iteration_result_t r;
#ifdef LG_TEST_GPU
        (void)iters;
        CHECK_STATUS(call(kind, g, true, NULL, NULL, 3000, got, got_a, NULL, NULL, &r),
                     LG_ERR_UNSUPPORTED);
        CHECK_MESSAGE("the GPU kernel reads float32 weights, and this graph's are float64");
        /* unweighted, the graph's float64 weights are not read */
        CHECK_OK(call(kind, g, false, NULL, NULL, 3000, got, got_a, NULL, NULL, &r));
#else
        const lg_status_t st = call(kind, g, true, NULL, NULL, 3000, got, got_a, NULL, NULL, &r);
        CHECK(iters > 0 && st == LG_OK && abs(r.iterations - iters) <= 1);
        if (st == LG_OK && r.iterations == iters)
            CHECK(near(got, want, o->n) && (kind < 2 || near(got_a, want_a, o->n)));
#endif
    }
    lg_graph_free(&g);
    free(w);
    free(want);
    free(want_a);
    free(got);
    free(got_a);
    free(w64);
    tgraph_free(&t);
    el_free(&el);
}

static bool stop_at_second(const lg_progress_info_t *info, void *data)
{
    int *calls = data;
    CHECK(info->stage == LG_STAGE_EIGENVECTOR || info->stage == LG_STAGE_KATZ ||
          info->stage == LG_STAGE_HITS);
    CHECK(info->done > 0 && info->done <= info->total);
    return ++*calls < 2;
}

static void test_refusals(void)
{
    struct elist el;
    el_init(&el, 50);
    el_path(&el, 0, 50, false);
    el.w[3] = -2.0f;
    struct tgraph t;
    set_subject("path of 50");
    if (!tgraph_from_elist(&t, &el, true, true, 0)) {
        el_free(&el);
        return;
    }
    double x[50], a[50], bad[50];
    lg_iteration_result_t r;
    CHECK_STATUS(lg_eigenvector(ctx[0], NULL, NULL, x, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("graph is NULL");
    CHECK_STATUS(lg_katz(ctx[0], t.g, NULL, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("centrality is NULL");
    CHECK_STATUS(lg_hits(ctx[0], t.g, NULL, x, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("authorities is NULL");
    CHECK_STATUS(lg_hits(ctx[0], t.g, NULL, x, a, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("the arc 3 -> 4 weighs -2: HITS needs weights >= 0");
    /* negative weights are fine for eigenvector and Katz */
    lg_katz_options_t ko;
    lg_katz_options_init(&ko);
    CHECK_OK(lg_katz(ctx[0], t.g, &ko, x, &r));
    CHECK(r.converged && r.iterations > 1);
    lg_eigenvector_options_t eo;
    lg_eigenvector_options_init(&eo);
    eo.max_iter = 2;
    CHECK_STATUS(lg_eigenvector(ctx[0], t.g, &eo, x, &r), LG_ERR_NOT_CONVERGED);
    CHECK_MESSAGE("no convergence in 2 iterations");
    CHECK(!r.converged && r.iterations == 2 && r.residual > 0.0);
    eo.max_iter = -1;
    CHECK_STATUS(lg_eigenvector(ctx[0], t.g, &eo, x, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("max_iter -1 < 0");
    lg_eigenvector_options_init(&eo);
    eo.tol = NAN;
    CHECK_STATUS(lg_eigenvector(ctx[0], t.g, &eo, x, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("tol nan is not finite");
    for (int v = 0; v < 50; v++)
        bad[v] = 0.0;
    eo.tol = 1e-6;
    eo.nstart = bad;
    CHECK_STATUS(lg_eigenvector(ctx[0], t.g, &eo, x, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("nstart sums to 0");
    bad[7] = INFINITY;
    CHECK_STATUS(lg_eigenvector(ctx[0], t.g, &eo, x, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("nstart[7] = inf is not finite");
    lg_hits_options_t ho;
    lg_hits_options_init(&ho);
    ho.use_weights = false;
    bad[7] = -1.0;
    ho.nstart = bad;
    CHECK_STATUS(lg_hits(ctx[0], t.g, &ho, x, a, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("nstart[7] = -1 is not finite and >= 0");
    /* hubs only where no arc leaves: no hub after an iteration */
    bad[7] = 0.0;
    bad[49] = 1.0;
    CHECK_STATUS(lg_hits(ctx[0], t.g, &ho, x, a, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("every hub score is 0");
    /* cancellation between iterations */
    lg_eigenvector_options_init(&eo);
    eo.use_weights = false;
    eo.tol = 0.0;
    int calls = 0;
    eo.progress = stop_at_second;
    eo.progress_data = &calls;
    CHECK_STATUS(lg_eigenvector(ctx[1], t.g, &eo, x, &r), LG_ERR_CANCELLED);
    CHECK(calls == 2);
    CHECK_MESSAGE("cancelled");
    /* the empty graph */
    lg_graph_t *empty = NULL;
    lg_graph_options_t go = graph_options(false);
    CHECK_OK(lg_graph_from_edges(ctx[0], 0, 0, NULL, NULL, NULL, &go, &empty));
    CHECK_STATUS(lg_eigenvector(ctx[0], empty, NULL, x, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("the graph has no vertices");
    CHECK_OK(lg_katz(ctx[0], empty, NULL, x, &r));
    CHECK(r.converged && r.iterations == 0);
    CHECK_OK(lg_hits(ctx[0], empty, NULL, x, a, &r));
    lg_graph_free(&empty);
    tgraph_free(&t);
    el_free(&el);
}

/* Each iteration reports (stage, done = the iterations run); the k-th report
 * stops the call (struct stop_after's stop), which frees what it holds and
 * leaves the graph usable: the same call without a callback then gives the
 * answer it gave before. */
struct stop_after {
    int calls, stop;
    lg_stage_t stage;
};

static bool stop_at_k(const lg_progress_info_t *info, void *data)
{
    struct stop_after *s = data;
    s->calls++;
    CHECK(info->stage == s->stage && info->done == (int64_t)s->calls && info->total == 30);
    return s->calls < s->stop;
}

/* Kind k's call (0-2 double, 3-5 their float twins into x and a as floats). */
static lg_status_t stoppable(int k, const lg_graph_t *g, const lg_eigenvector_options_t *eo,
                             const lg_katz_options_t *ko, const lg_hits_options_t *ho, void *x,
                             void *a, lg_iteration_result_t *r)
{
    switch (k) {
    case 0: return lg_eigenvector(ctx[1], g, eo, x, r);
    case 1: return lg_katz(ctx[1], g, ko, x, r);
    case 2: return lg_hits(ctx[1], g, ho, x, a, r);
    case 3: return lg_eigenvector_f32(ctx[1], g, eo, x, r);
    case 4: return lg_katz_f32(ctx[1], g, ko, x, r);
    default: return lg_hits_f32(ctx[1], g, ho, x, a, r);
    }
}

static void test_cancellation(void)
{
    unsigned long long rng = 919;
    struct elist el;
    el_init(&el, 2000);
    el_random(&el, 0, 2000, 8000, &rng);
    set_subject("random, 2000 vertices, directed, stopped at each iteration");
    struct tgraph t;
    if (!tgraph_from_elist(&t, &el, true, false, 0)) {
        el_free(&el);
        return;
    }
    static const lg_stage_t stages[3] = {LG_STAGE_EIGENVECTOR, LG_STAGE_KATZ, LG_STAGE_HITS};
    double *want = or_alloc(2000, sizeof *want), *want_a = or_alloc(2000, sizeof *want_a),
           *x = or_alloc(2000, sizeof *x), *a = or_alloc(2000, sizeof *a);
    for (int kind = 0; kind < 6; kind++) {
        const size_t bytes = 2000 * (kind < 3 ? sizeof(double) : sizeof(float));
        lg_iteration_result_t r;
        lg_eigenvector_options_t eo;
        lg_katz_options_t ko;
        lg_hits_options_t ho;
        lg_eigenvector_options_init(&eo);
        lg_katz_options_init(&ko);
        lg_hits_options_init(&ho);
        eo.tol = ko.tol = ho.tol = 0.0;
        eo.max_iter = ko.max_iter = ho.max_iter = 30;
        ko.alpha = 0.05;
        CHECK_STATUS(stoppable(kind, t.g, &eo, &ko, &ho, want, want_a, &r), LG_ERR_NOT_CONVERGED);
        for (int stop = 1; stop < 30; stop += 7) {
            struct stop_after s = {0, stop, stages[kind % 3]};
            eo.progress = ko.progress = ho.progress = stop_at_k;
            eo.progress_data = ko.progress_data = ho.progress_data = &s;
            CHECK_STATUS(stoppable(kind, t.g, &eo, &ko, &ho, x, a, &r), LG_ERR_CANCELLED);
            CHECK_MESSAGE("cancelled");
            CHECK(s.calls == stop);
            eo.progress = ko.progress = ho.progress = NULL;
            CHECK_STATUS(stoppable(kind, t.g, &eo, &ko, &ho, x, a, &r), LG_ERR_NOT_CONVERGED);
            CHECK(memcmp(x, want, bytes) == 0 && (kind % 3 < 2 || memcmp(a, want_a, bytes) == 0));
        }
    }
    free(want);
    free(want_a);
    free(x);
    free(a);
    tgraph_free(&t);
    el_free(&el);
}

static void print_runs(void)
{
    printf("float twins: within %.2g of the largest entry\n", worst_f32);
    printf("%ld power iteration runs\n", power_runs);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"power iteration shapes", test_shapes},
        {"power iteration larger", test_larger},
        {"power iteration refusals", test_refusals},
        {"power iteration float64 weights", test_float64_weights},
        {"power iteration cancellation", test_cancellation},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_runs);
}
