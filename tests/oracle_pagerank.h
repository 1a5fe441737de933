/*
 * oracle_pagerank.h - reference PageRank for the tests: float64 power
 * iteration in plain loops, networkx._pagerank_scipy's loop (personalization,
 * nstart, dangling, weights, the L1 test err < N * tol), O(max_iter * m).
 */
#ifndef LIBGRAPH_TEST_ORACLE_PAGERANK_H
#define LIBGRAPH_TEST_ORACLE_PAGERANK_H

#include "oracle_graph.h"

#include <math.h>

/* NULL means uniform; else the vector scaled to sum 1. */
static inline void or_normalised(int64_t n, const double *in, double *out)
{
    double s = 0.0;
    for (int64_t v = 0; v < n; v++)
        s += in ? in[v] : 1.0;
    for (int64_t v = 0; v < n; v++)
        out[v] = (in ? in[v] : 1.0) / s;
}

/*
 * networkx._pagerank_scipy in plain loops:
 *   W = D^-1 A (A the weighted adjacency, parallel arcs summed; D its row sums)
 *   x = nstart, p = personalization, d = dangling (or p), each scaled to sum 1
 *   repeat max_iter times:
 *     x' = alpha * (x W + sum(x[dangling]) * d) + (1 - alpha) * p
 *     err = sum |x' - x|;  stop (converged) when err < N * tol
 * x gets the last iterate, *iterations the iterations run, errs[k-1] (when not
 * NULL, max_iter entries) the L1 change of iteration k.  Returns true when it
 * converged.  tol < 0 runs exactly max_iter iterations.
 */
static inline bool or_pagerank(const or_graph *g, double alpha, const double *personalization,
                               const double *nstart, const double *dangling, bool use_weights,
                               int max_iter, double tol, double *x, int *iterations, double *errs)
{
    const int64_t n = g->n;
    *iterations = 0;
    if (n == 0)
        return true;
    double *p = or_alloc((size_t)n, sizeof *p), *d = or_alloc((size_t)n, sizeof *d);
    double *out_w = or_alloc((size_t)n, sizeof *out_w), *next = or_alloc((size_t)n, sizeof *next);
    or_normalised(n, personalization, p);
    or_normalised(n, dangling ? dangling : personalization, d);
    or_normalised(n, nstart, x);
    for (int64_t u = 0; u < n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++)
            out_w[u] += (use_weights && g->w) ? (double)g->w[e] : 1.0;
    bool converged = false;
    for (int it = 1; it <= max_iter; it++) {
        double dangling_sum = 0.0;
        for (int64_t v = 0; v < n; v++)
            next[v] = 0.0;
        for (int64_t u = 0; u < n; u++) {
            if (out_w[u] == 0.0) {
                dangling_sum += x[u];
                continue;
            }
            for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
                double wt = (use_weights && g->w) ? (double)g->w[e] : 1.0;
                next[g->idx[e]] += x[u] * (wt / out_w[u]);
            }
        }
        double err = 0.0;
        for (int64_t v = 0; v < n; v++) {
            double y = alpha * (next[v] + dangling_sum * d[v]) + (1.0 - alpha) * p[v];
            err += fabs(y - x[v]);
            x[v] = y;
        }
        *iterations = it;
        if (errs)
            errs[it - 1] = err;
        if (err < (double)n * tol) {
            converged = true;
            break;
        }
    }
    free(p);
    free(d);
    free(out_w);
    free(next);
    return converged;
}

/* The oracle's answer to an lg_pagerank call with options po: the last
 * iterate x, the L1 change of each iteration (errs[k-1] for iteration k),
 * the iterations run, and whether it converged. */
typedef struct or_pr_run {
    double *x, *errs;
    int iters;
    bool converged;
} or_pr_run;

static inline or_pr_run or_pagerank_run(const or_graph *o, const lg_pagerank_options_t *po)
{
    or_pr_run r;
    r.x = or_alloc((size_t)o->n, sizeof *r.x);
    r.errs = or_alloc((size_t)po->max_iter + 1, sizeof *r.errs);
    r.converged = or_pagerank(o, po->alpha, po->personalization, po->nstart, po->dangling,
                              po->use_weights, po->max_iter, po->tol, r.x, &r.iters, r.errs);
    return r;
}

static inline void or_pr_run_free(or_pr_run *r)
{
    free(r->x);
    free(r->errs);
}

#endif
