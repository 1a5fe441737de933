/*
 * pagerank.c - PageRank on the CPU.
 *
 * Returns: scores[v], the PageRank of v, with networkx.pagerank's semantics
 * (see lg_pagerank in libgraph.h), in double or float.
 *
 * Method: power iteration (Page, Brin, Motwani, Winograd 1999) in Jacobi form,
 * pulling over in-edges so that each score is written by one thread and no
 * atomics are needed:
 *
 *   c[u]    = x[u] / outweight[u]          (0 for a dangling u)
 *   D       = sum of x over dangling vertices
 *   x'[v]   = alpha * (sum over arcs u->v of c[u] * w(u,v) + D * d[v])
 *             + (1 - alpha) * p[v]
 *   stop after the first iteration whose sum |x' - x| < N * tol.
 *
 * p is the normalised personalization (uniform by default), d the normalised
 * dangling vector (p by default), x starts at the normalised nstart (uniform by
 * default).  A vertex is dangling when its out-weight is 0, as in NetworkX,
 * where zero-weight edges count for nothing.  Parallel edges add.
 *
 * Cost per iteration: one pass over the in-edges (CSC, built once and cached
 * on the graph) plus O(n).  Memory: 4 vectors of n.  The float variant keeps
 * the vectors in float, and sums each vertex's in-edges and the convergence
 * test in double (and runs in
 * double when an out-weight is too small for float to divide by).
 */
#include "cpu.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A vector option normalised to sum 1, or NULL when it is uniform. */
static double *normalised(const double *v, int64_t n, const char *what)
{
    if (!v)
        return NULL;
    double *out = lg__alloc_array((size_t)n, sizeof *out, what);
    if (!out)
        return NULL;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++)
        sum += v[i];
    for (int64_t i = 0; i < n; i++)
        out[i] = v[i] / sum;
    return out;
}

/* The per-run constants every iteration reads. */
struct pr_setup {
    int64_t n;
    double alpha;
    const struct lg_csr *in;   /* in-edges */
    const float *w;            /* in-edge weights, NULL = all 1 */
    const double *inv_out;     /* 1 / out-weight, 0 for dangling vertices */
    const double *p, *d;       /* NULL = uniform 1/n */
    int threads;
};

/* One Jacobi step in double; returns sum |x' - x|. */
static double step_f64(const struct pr_setup *s, const double *x, double *c, double *xn)
{
    const int64_t n = s->n;
    const double uniform = 1.0 / (double)n;
    double dangling = 0.0;
#pragma omp parallel for num_threads(s->threads) schedule(static) reduction(+ : dangling)
    for (int64_t u = 0; u < n; u++) {
        c[u] = x[u] * s->inv_out[u];
        if (s->inv_out[u] == 0.0)
            dangling += x[u];
    }
    double err = 0.0;
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1024) reduction(+ : err)
    for (int64_t v = 0; v < n; v++) {
        double sum = 0.0;
        const lg_edge_t lo = s->in->offsets[v], hi = s->in->offsets[v + 1];
        if (s->w)
            for (lg_edge_t e = lo; e < hi; e++)
                sum += c[s->in->indices[e]] * (double)s->w[e];
        else
            for (lg_edge_t e = lo; e < hi; e++)
                sum += c[s->in->indices[e]];
        double dv = s->d ? s->d[v] : uniform, pv = s->p ? s->p[v] : uniform;
        xn[v] = s->alpha * (sum + dangling * dv) + (1.0 - s->alpha) * pv;
        err += fabs(xn[v] - x[v]);
    }
    return err;
}

/* The same step in float. */
static double step_f32(const struct pr_setup *s, const float *x, float *c, float *xn)
{
    const int64_t n = s->n;
    const float uniform = (float)(1.0 / (double)n);
    const float alpha = (float)s->alpha;
    float dangling = 0.0f;
#pragma omp parallel for num_threads(s->threads) schedule(static) reduction(+ : dangling)
    for (int64_t u = 0; u < n; u++) {
        c[u] = x[u] * (float)s->inv_out[u];
        if (s->inv_out[u] == 0.0)
            dangling += x[u];
    }
    double err = 0.0;
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1024) reduction(+ : err)
    for (int64_t v = 0; v < n; v++) {
        /* the gathers of c are the cost; summing them in double is free and
         * keeps hubs with thousands of in-edges accurate */
        double sum = 0.0;
        const lg_edge_t lo = s->in->offsets[v], hi = s->in->offsets[v + 1];
        if (s->w)
            for (lg_edge_t e = lo; e < hi; e++)
                sum += (double)(c[s->in->indices[e]] * s->w[e]);
        else
            for (lg_edge_t e = lo; e < hi; e++)
                sum += (double)c[s->in->indices[e]];
        float dv = s->d ? (float)s->d[v] : uniform, pv = s->p ? (float)s->p[v] : uniform;
        xn[v] = alpha * ((float)sum + dangling * dv) + (1.0f - alpha) * pv;
        err += fabs((double)xn[v] - (double)x[v]);
    }
    return err;
}

lg_status_t lg__cpu_pagerank(const lg_context_t *ctx, const lg_graph_t *g,
                             const lg_pagerank_options_t *opts, lg_precision_t precision,
                             void *scores, int *iterations)
{
    const int threads = lg__threads_for(ctx, g->n + g->m);
    const int64_t n = g->n;
    const bool use_weights = opts->use_weights && g->out.weights;
    lg_status_t st = lg__graph_ensure_csc(g, threads);
    double *inv_out = NULL, *p = NULL, *d = NULL, *x0 = NULL;
    void *x = NULL, *c = NULL, *xn = NULL;
    if (st != LG_OK)
        return st;

    inv_out = lg__alloc_array((size_t)n, sizeof *inv_out, "PageRank out-weights");
    if (!inv_out) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    /* An out-weight below float's normal range makes x[u] / outweight[u]
     * overflow float even though every product with a weight is <= x[u]:
     * such graphs run the float variant in double and round at the end. */
    lg__out_weight_sums(g, use_weights, inv_out, threads);
    bool tiny_out_weight = false;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(|| : tiny_out_weight)
    for (int64_t v = 0; v < n; v++)
        tiny_out_weight = tiny_out_weight || (inv_out[v] > 0.0 && inv_out[v] < FLT_MIN);
    const bool wide = precision == LG_PRECISION_F64 || tiny_out_weight;
    const size_t elem = wide ? sizeof(double) : sizeof(float);
    x = lg__alloc_array((size_t)n, elem, "PageRank scores");
    c = lg__alloc_array((size_t)n, elem, "PageRank contributions");
    xn = lg__alloc_array((size_t)n, elem, "PageRank scores");
    if (!x || !c || !xn) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    p = normalised(opts->personalization, n, "PageRank personalization");
    d = normalised(opts->dangling ? opts->dangling : opts->personalization, n,
                   "PageRank dangling weights");
    x0 = normalised(opts->nstart, n, "PageRank start vector");
    if ((opts->personalization && !p) || ((opts->dangling || opts->personalization) && !d) ||
        (opts->nstart && !x0)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }

#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) {
        inv_out[v] = inv_out[v] > 0.0 ? 1.0 / inv_out[v] : 0.0;
        double start = x0 ? x0[v] : 1.0 / (double)n;
        if (wide)
            ((double *)x)[v] = start;
        else
            ((float *)x)[v] = (float)start;
    }

    const struct pr_setup s = {n,  opts->alpha, &g->in, use_weights ? g->in.weights : NULL,
                               inv_out, p, d, threads};
    const double limit = (double)n * opts->tol;
    bool converged = false;
    int iter = 0;
    double err = 0.0;
    while (iter < opts->max_iter && !converged) {
        err = wide ? step_f64(&s, x, c, xn) : step_f32(&s, x, c, xn);
        void *t = x;
        x = xn;
        xn = t;
        iter++;
        converged = err < limit;
    }
    if (wide && precision == LG_PRECISION_F32)
        for (int64_t v = 0; v < n; v++)
            ((float *)scores)[v] = (float)((double *)x)[v];
    else
        memcpy(scores, x, (size_t)n * elem);
    if (iterations)
        *iterations = iter;
    if (!converged)
        st = lg__error(LG_ERR_NOT_CONVERGED,
                       "lg_pagerank: no convergence in %d iterations (last L1 change %g, needs < "
                       "%g); scores hold the last iterate",
                       iter, err, limit);

cleanup:
    lg__free(inv_out);
    lg__free(p);
    lg__free(d);
    lg__free(x0);
    lg__free(x);
    lg__free(c);
    lg__free(xn);
    return st;
}
