/*
 * algorithm_checks.h - how test_algorithms*.c judge one call of each
 * algorithm against the oracles of oracle.h, on ctx[k] of harness.h:
 *
 *   check_bfs           lg_bfs's distances equal or_bfs's exactly; parents
 *                       pass or_check_parents
 *   check_components    labels and count equal or_components's, also with
 *                       num_components NULL
 *   check_pagerank      lg_pagerank within 1e-12 of or_pagerank per entry,
 *                       with the same status and iteration count (unless a
 *                       convergence decision is too close to call)
 *   check_pagerank_f32  lg_pagerank_f32 within about 1e-5 relative of the
 *                       float64 iterate after as many iterations, stopping
 *                       where the float64 test would (up to float rounding)
 *
 * Each call must also have run where it should (or_ran_on_expected).
 */
#ifndef LIBGRAPH_TEST_ALGORITHM_CHECKS_H
#define LIBGRAPH_TEST_ALGORITHM_CHECKS_H

#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>

/* ---- BFS and components ------------------------------------------------------------- */

static inline void check_bfs(const lg_graph_t *g, const or_graph *o, lg_vertex_t source, int k,
                             bool parents_wanted)
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
    CHECK(or_ran_on_expected(true));
    CHECK(st == LG_OK);
    if (st != LG_OK) {
        report("lg_bfs from %d: %s: %s", (int)source, lg_status_string(st), lg_last_error());
    } else {
        bool same = memcmp(dist, want, (size_t)n * sizeof *dist) == 0;
        CHECK(same);
        if (!same)
            for (int64_t v = 0; v < n; v++)
                if (dist[v] != want[v]) {
                    report("lg_bfs from %d, %d threads: distance of %lld is %d, want %d",
                           (int)source, k + 1, (long long)v, dist[v], want[v]);
                    break;
                }
        if (parents_wanted) {
            int64_t bad = or_check_parents(o, source, want, parents);
            CHECK(bad < 0);
            if (bad >= 0)
                report("lg_bfs from %d, %d threads: bad parent %d of vertex %lld (dist %d)",
                       (int)source, k + 1, (int)parents[bad], (long long)bad, want[bad]);
        }
    }
    free(want);
    free(dist);
    free(parents);
}

static inline void check_components(const lg_graph_t *g, const or_graph *o, int k)
{
    const int64_t n = o->n;
    lg_vertex_t *want = or_alloc((size_t)n, sizeof *want);
    lg_vertex_t *labels = or_alloc((size_t)n, sizeof *labels);
    int64_t want_count = or_components(o, want), count = -1;
    lg_status_t st = lg_connected_components(ctx[k], g, NULL, labels, &count);
    CHECK(or_ran_on_expected(n > 0)); /* nothing to run on an empty graph */
    CHECK(st == LG_OK);
    if (st == LG_OK) {
        bool same = memcmp(labels, want, (size_t)n * sizeof *labels) == 0;
        CHECK(same);
        CHECK(count == want_count);
        if (!same || count != want_count)
            report("lg_connected_components, %d threads: %lld components (want %lld)%s", k + 1,
                   (long long)count, (long long)want_count, same ? "" : ", labels differ");
        /* num_components may be NULL */
        for (int64_t v = 0; v < n; v++)
            labels[v] = -1;
        CHECK_OK(lg_connected_components(ctx[(k + 1) % NUM_CTX], g, NULL, labels, NULL));
        CHECK(memcmp(labels, want, (size_t)n * sizeof *labels) == 0);
    } else {
        report("lg_connected_components: %s: %s", lg_status_string(st), lg_last_error());
    }
    free(want);
    free(labels);
}

/* ---- PageRank ------------------------------------------------------------------------ */

/* True when a convergence decision of the oracle is too close to call in
 * floating point (an L1 change within 1e-9 relative of N * tol). */
static inline bool borderline(const double *errs, int iters, double limit)
{
    for (int i = 0; i < iters; i++)
        if (limit > 0.0 && fabs(errs[i] - limit) <= 1e-9 * limit)
            return true;
    return false;
}

static long borderline_skips;

/* A summary line for harness_main, when comparisons were skipped. */
static inline void print_borderline_skips(void)
{
    if (borderline_skips)
        printf("%ld PageRank comparisons skipped as too close to call\n", borderline_skips);
}

static inline void check_pagerank(const lg_graph_t *g, const or_graph *o,
                                  const lg_pagerank_options_t *po, int k)
{
    lg_pagerank_options_t d;
    lg_pagerank_options_init(&d);
    const lg_pagerank_options_t *eff = po ? po : &d;
    const int64_t n = o->n;
    double *want = or_alloc((size_t)n, sizeof *want);
    double *errs = or_alloc((size_t)eff->max_iter + 1, sizeof *errs);
    double *got = or_alloc((size_t)n, sizeof *got);
    int want_iters = -1;
    lg_pagerank_result_t r = {-5, -1.0, false};
    bool converged =
        or_pagerank(o, eff->alpha, eff->personalization, eff->nstart, eff->dangling,
                    eff->use_weights, eff->max_iter, eff->tol, want, &want_iters, errs);
    lg_status_t st = lg_pagerank(ctx[k], g, po, got, &r);
    const int iters = r.iterations;
    CHECK(or_ran_on_expected(n > 0)); /* nothing to run on an empty graph */
    if (borderline(errs, want_iters, (double)n * eff->tol)) {
        borderline_skips++;
    } else {
        lg_status_t want_st = converged ? LG_OK : LG_ERR_NOT_CONVERGED;
        CHECK(st == want_st);
        CHECK(iters == want_iters);
        if (st != want_st || iters != want_iters)
            report("lg_pagerank (alpha %g tol %g max_iter %d weights %d pers %d nstart %d "
                   "dangling %d, %d threads): %s after %d iterations (%s), want %s after %d",
                   eff->alpha, eff->tol, eff->max_iter, (int)eff->use_weights,
                   eff->personalization != NULL, eff->nstart != NULL, eff->dangling != NULL, k + 1,
                   lg_status_string(st), iters, lg_last_error(), lg_status_string(want_st),
                   want_iters);
        if (st == want_st && iters == want_iters) {
            /* what the result says: the oracle's last L1 change, and the status's verdict */
            const double want_residual = iters > 0 ? errs[iters - 1] : 0.0;
            CHECK(r.converged == (st == LG_OK));
            CHECK(fabs(r.residual - want_residual) <= 1e-12 * (want_residual + 1.0));
            double worst = 0.0;
            int64_t at = 0;
            for (int64_t v = 0; v < n; v++)
                if (fabs(got[v] - want[v]) > worst || got[v] != got[v])
                    worst = got[v] != got[v] ? INFINITY : fabs(got[v] - want[v]), at = v;
            CHECK(worst <= 1e-12);
            if (worst > 1e-12)
                report("lg_pagerank (alpha %g tol %g max_iter %d weights %d pers %d nstart %d "
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
static inline void check_pagerank_f32(const lg_graph_t *g, const or_graph *o,
                                      const lg_pagerank_options_t *po, int k)
{
    const int64_t n = o->n;
    float *got = or_alloc((size_t)n, sizeof *got);
    double *want = or_alloc((size_t)n, sizeof *want);
    double *errs = or_alloc((size_t)po->max_iter + 1, sizeof *errs);
    int want_iters = -1;
    lg_pagerank_result_t r = {-5, -1.0, false};
    lg_status_t st = lg_pagerank_f32(ctx[k], g, po, got, &r);
    const int iters = r.iterations;
    CHECK(or_ran_on_expected(n > 0)); /* nothing to run on an empty graph */
    CHECK(st == LG_OK || st == LG_ERR_NOT_CONVERGED);
    CHECK(iters >= 1 && iters <= po->max_iter);
    if ((st != LG_OK && st != LG_ERR_NOT_CONVERGED) || iters < 1 || iters > po->max_iter) {
        report("lg_pagerank_f32: %s after %d iterations: %s", lg_status_string(st), iters,
               lg_last_error());
        goto done;
    }
    or_pagerank(o, po->alpha, po->personalization, po->nstart, po->dangling, po->use_weights, iters,
                -1.0, want, &want_iters, errs);
    /* float rounding moves an L1 change of total mass 2 by a few 1e-7 */
    const double limit = (double)n * po->tol, slack = 1e-5;
    CHECK(r.converged == (st == LG_OK));
    CHECK(fabs(r.residual - errs[iters - 1]) <= slack);
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
        report("lg_pagerank_f32 (alpha %g, %d iterations, %d threads): score of %lld is %.9g, "
               "want %.12g",
               po->alpha, iters, k + 1, (long long)at, (double)got[at], want[at]);
done:
    free(got);
    free(want);
    free(errs);
}

#endif
