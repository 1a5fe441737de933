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
 * on the graph) plus O(n); the next iteration's contributions and dangling
 * mass are computed in the same pass as the scores, so each iteration is one
 * parallel loop, and the scores are updated in place (only the
 * contributions are double-buffered).  The gather-sums stay scalar (see
 * pull_block_f64 for the measurements against vectorised versions).  Memory:
 * 4 vectors of n (one more in float).  The float variant keeps
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
    const lg_edge_t *off;      /* in-edges (CSC) */
    const lg_vertex_t *idx;
    const float *w;            /* in-edge weights, NULL = all 1 */
    const double *inv_out;     /* 1 / out-weight, 0 for dangling vertices */
    const float *inv_out_f;    /* the same in float, for the float variant */
    const double *p, *d;       /* NULL = uniform 1/n */
    int threads;
};

/* What a block of rows adds to an iteration's two sums. */
struct pr_sums {
    double err;      /* sum |x' - x| */
    double dangling; /* sum of x' over dangling vertices, for the next iteration */
};

/* Rows a pull task takes: enough to amortise the call, few enough to balance
 * power-law rows. */
#define PULL_BLOCK 1024

/* The gather-sums are plain scalar loops, on purpose.  Measured on kron20
 * and urand20 (2 threads, this repository's Zen 3 VM): gcc's vectorisation of
 * them (OpenMP SIMD, AVX2 through target_clones) emulates the gathers with
 * scalar loads and made an iteration 1.4-1.5x slower; hand-written AVX2
 * gathers (vgatherdps, widened to double) ran no faster than the scalar loop.
 * The loop is bound by the random loads of c[], not by arithmetic. */

/*
 * One block of a Jacobi step in double: for v in [v0, v1)
 *   x'[v] = alpha * (sum over in-arcs u->v of c[u] * w + dangling * d[v]) + (1 - alpha) * p[v]
 * written over x[v] once |x'[v] - x[v]| is added to the error (the gathers
 * read only c, so x can be updated in place), and, fused into the same pass,
 * the next iteration's contribution cn[v] = x'[v] / outweight[v] and its
 * dangling mass.
 */
static struct pr_sums pull_block_f64(const struct pr_setup *s, double *x, const double *c,
                                     double dangling, double *cn, int64_t v0, int64_t v1)
{
    const lg_edge_t *off = s->off;
    const lg_vertex_t *idx = s->idx;
    const float *w = s->w;
    const double alpha = s->alpha, uniform = 1.0 / (double)s->n;
    struct pr_sums out = {0.0, 0.0};
    for (int64_t v = v0; v < v1; v++) {
        double sum = 0.0;
        if (w) {
            for (lg_edge_t e = off[v]; e < off[v + 1]; e++)
                sum += c[idx[e]] * (double)w[e];
        } else {
            for (lg_edge_t e = off[v]; e < off[v + 1]; e++)
                sum += c[idx[e]];
        }
        double dv = s->d ? s->d[v] : uniform, pv = s->p ? s->p[v] : uniform;
        double xv = alpha * (sum + dangling * dv) + (1.0 - alpha) * pv;
        out.err += fabs(xv - x[v]);
        x[v] = xv;
        cn[v] = xv * s->inv_out[v];
        if (s->inv_out[v] == 0.0)
            out.dangling += xv;
    }
    return out;
}

/* The same in float; each row's sum is accumulated in double, which costs
 * nothing next to the gathers and keeps hubs with thousands of in-edges
 * accurate. */
static struct pr_sums pull_block_f32(const struct pr_setup *s, float *x, const float *c,
                                     double dangling, float *cn, int64_t v0, int64_t v1)
{
    const lg_edge_t *off = s->off;
    const lg_vertex_t *idx = s->idx;
    const float *w = s->w;
    const float alpha = (float)s->alpha, uniform = (float)(1.0 / (double)s->n);
    struct pr_sums out = {0.0, 0.0};
    for (int64_t v = v0; v < v1; v++) {
        double sum = 0.0;
        if (w) {
            for (lg_edge_t e = off[v]; e < off[v + 1]; e++)
                sum += (double)(c[idx[e]] * w[e]);
        } else {
            for (lg_edge_t e = off[v]; e < off[v + 1]; e++)
                sum += (double)c[idx[e]];
        }
        float dv = s->d ? (float)s->d[v] : uniform, pv = s->p ? (float)s->p[v] : uniform;
        float xv = alpha * ((float)sum + (float)dangling * dv) + (1.0f - alpha) * pv;
        out.err += fabs((double)xv - (double)x[v]);
        x[v] = xv;
        cn[v] = xv * s->inv_out_f[v];
        if (s->inv_out_f[v] == 0.0f)
            out.dangling += xv;
    }
    return out;
}

/* One iteration over all rows; returns the sums for the next. */
static struct pr_sums step(const struct pr_setup *s, bool f64, void *x, const void *c,
                           double dangling, void *cn)
{
    const int64_t blocks = (s->n + PULL_BLOCK - 1) / PULL_BLOCK;
    double err = 0.0, next_dangling = 0.0;
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1) \
    reduction(+ : err, next_dangling)
    for (int64_t b = 0; b < blocks; b++) {
        int64_t v0 = b * PULL_BLOCK, v1 = v0 + PULL_BLOCK < s->n ? v0 + PULL_BLOCK : s->n;
        struct pr_sums part =
            f64 ? pull_block_f64(s, x, c, dangling, cn, v0, v1)
                : pull_block_f32(s, x, c, dangling, cn, v0, v1);
        err += part.err;
        next_dangling += part.dangling;
    }
    struct pr_sums total = {err, next_dangling};
    return total;
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
    float *inv_out_f = NULL;
    void *x = NULL, *c = NULL, *cn = NULL;
    if (st != LG_OK)
        return st;

    inv_out = lg__alloc_array((size_t)n, sizeof *inv_out, "PageRank out-weights");
    if (!inv_out) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    /* An out-weight below float's normal range makes x[u] / outweight[u]
     * overflow float even though every product with a weight is <= x[u],
     * and one above 1 / FLT_MIN makes 1 / outweight subnormal or 0 (no
     * longer telling a dangling vertex): such graphs run the float variant
     * in double and round at the end. */
    lg__out_weight_sums(g, use_weights, inv_out, threads);
    bool tiny_out_weight = false;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(|| : tiny_out_weight)
    for (int64_t v = 0; v < n; v++)
        tiny_out_weight = tiny_out_weight ||
                          (inv_out[v] > 0.0 && (inv_out[v] < FLT_MIN || inv_out[v] > 1.0 / FLT_MIN));
    const bool wide = precision == LG_PRECISION_F64 || tiny_out_weight;
    const size_t elem = wide ? sizeof(double) : sizeof(float);
    x = lg__alloc_array((size_t)n, elem, "PageRank scores");
    c = lg__alloc_array((size_t)n, elem, "PageRank contributions");
    cn = lg__alloc_array((size_t)n, elem, "PageRank contributions");
    if (!wide)
        inv_out_f = lg__alloc_array((size_t)n, sizeof *inv_out_f, "PageRank out-weights");
    if (!x || !c || !cn || (!wide && !inv_out_f)) {
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

    double dangling = 0.0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : dangling)
    for (int64_t v = 0; v < n; v++) {
        inv_out[v] = inv_out[v] > 0.0 ? 1.0 / inv_out[v] : 0.0;
        double start = x0 ? x0[v] : 1.0 / (double)n;
        if (wide) {
            ((double *)x)[v] = start;
            ((double *)c)[v] = start * inv_out[v];
        } else {
            ((float *)x)[v] = (float)start;
            inv_out_f[v] = (float)inv_out[v];
            ((float *)c)[v] = (float)start * inv_out_f[v];
        }
        if (inv_out[v] == 0.0)
            dangling += wide ? start : (double)(float)start;
    }

    const struct pr_setup s = {n,       opts->alpha, g->in.offsets, g->in.indices,
                               use_weights ? g->in.weights : NULL,   inv_out, inv_out_f,
                               p,       d,           threads};
    const double limit = (double)n * opts->tol;
    bool converged = false;
    int iter = 0;
    double err = 0.0;
    while (iter < opts->max_iter && !converged) {
        struct pr_sums sums = step(&s, wide, x, c, dangling, cn);
        void *t = c;
        c = cn;
        cn = t;
        err = sums.err;
        dangling = sums.dangling;
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
    lg__free(inv_out_f);
    lg__free(cn);
    return st;
}
