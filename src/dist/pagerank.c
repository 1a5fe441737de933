/*
 * pagerank.c - PageRank over ranks: lg_pagerank's power iteration (NetworkX's
 * semantics; src/kernels/cpu/pagerank.c states them) on a 1D partition.
 *
 * Each rank owns its vertices' in-arcs, so it computes their new scores by
 * pulling, as the single-process kernel does, from the contributions
 * c[u] = x[u] / outweight[u] of every tail u: its own, and its ghosts', which
 * their owners send once an iteration through the pull halo (8 bytes a ghost
 * a rank reads; at most 8 bytes x |V| a rank, the 1D model).  The two global
 * numbers an iteration needs -- the L1 change for the convergence test and
 * the dangling mass for the next iteration -- travel in one allreduce.
 *
 * Why not the core's kernel on the rank's graph: lg_pagerank runs whole
 * iterations to convergence in one call, while a rank's step is one
 * iteration of its own rows between two exchanges (the ghosts'
 * contributions in, the global sums out), over contributions that other
 * ranks computed.
 */
#include "dist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Local vector option v (n_local entries): checked, and its global sum. */
static lg_status_t check_share(const char *name, const double *v, int64_t n, double *sum)
{
    *sum = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i]) || v[i] < 0.0)
            return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                  "lg_dist_pagerank: %s[%lld] = %g is not finite and >= 0", name,
                                  (long long)i, v[i]);
        *sum += v[i];
    }
    return LG_OK;
}

static lg_status_t check_options(lg_dist_context_t *c, const lg_dist_graph_t *g,
                                 const lg_pagerank_options_t *o, double sums[3])
{
    static const char fn[] = "lg_dist_pagerank";
    lg_status_t st = LG_OK;
    if (!(o->alpha >= 0.0 && o->alpha <= 1.0))
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: alpha %g is not in [0, 1]", fn, o->alpha);
    else if (!(o->tol >= 0.0) || !isfinite(o->tol))
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: tol %g is not finite and >= 0", fn,
                            o->tol);
    else if (o->max_iter < 0)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: max_iter %d < 0", fn, o->max_iter);
    else if (o->output_memory != LG_MEMORY_HOST)
        st = lg__dist_error(LG_ERR_UNSUPPORTED, "%s: scores must be host memory", fn);
    const double *vec[3] = {o->personalization, o->nstart, o->dangling};
    static const char *const names[3] = {"personalization", "nstart", "dangling"};
    for (int k = 0; k < 3; k++) {
        sums[k] = 0.0;
        if (st == LG_OK && vec[k] && g->n_local > 0)
            st = check_share(names[k], vec[k], g->n_local, &sums[k]);
    }
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        return st;
    /* the same options on every rank: alpha, tol, max_iter, which vectors */
    double sig[12] = {o->alpha,       o->tol,         o->max_iter,
                      vec[0] != NULL, vec[1] != NULL, vec[2] != NULL};
    for (int k = 0; k < 6; k++)
        sig[6 + k] = -sig[k];
    int rc = MPI_Allreduce(MPI_IN_PLACE, sig, 12, MPI_DOUBLE, MPI_MAX, c->comm);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Allreduce");
    for (int k = 0; k < 6; k++)
        if (sig[k] != -sig[6 + k])
            return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                  "%s: the ranks passed different options (alpha, tol, "
                                  "max_iter, or which of personalization, nstart, dangling)",
                                  fn);
    if ((st = lg__dist_sum_f64(c, sums, 3)) != LG_OK)
        return st;
    for (int k = 0; k < 3; k++)
        if (vec[k] && (!(sums[k] > 0.0) || !isfinite(sums[k])))
            return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                  "%s: %s sums to %g over all ranks; it needs a positive, finite "
                                  "sum",
                                  fn, names[k], sums[k]);
    return LG_OK;
}

/* The power iteration on this rank's CPU threads. */
static lg_status_t power_iteration(lg_dist_context_t *c, const lg_dist_graph_t *g,
                                   const lg_pagerank_options_t *o, const double sums[3],
                                   double *scores, int *iterations, double *residual)
{
    lg_status_t st = LG_OK;
    const int64_t n = g->n, nl = g->n_local, cols = nl + g->n_ghost;
    const int threads = lg__dist_threads(c);
    const bool use_weights = g->weighted && o->use_weights;
    double *inv_out = lg__dist_alloc((size_t)nl, sizeof *inv_out, "PageRank vectors");
    double *x = lg__dist_alloc((size_t)nl, sizeof *x, "PageRank vectors");
    double *contrib = lg__dist_alloc((size_t)cols, sizeof *contrib, "PageRank vectors");
    void *scratch = lg__dist_alloc(lg__dist_halo_scratch(c, g, &g->pull, sizeof(double)), 1,
                                   "the PageRank halo");
    st = inv_out && x && contrib && scratch ? LG_OK : LG_ERR_OUT_OF_MEMORY;
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        goto cleanup;

    const struct lg_dist_csr out = lg__dist_csr(g->out), in = lg__dist_csr(g->in);
    const float *in_w = use_weights ? in.weights : NULL;
    const double *p = o->personalization, *d = o->dangling ? o->dangling : o->personalization;
    const double p_scale = p ? 1.0 / sums[0] : 0.0;
    const double d_scale = o->dangling ? 1.0 / sums[2] : p_scale;
    const double x_scale = o->nstart ? 1.0 / sums[1] : 0.0;
    const double uniform = 1.0 / (double)n, alpha = o->alpha;

    /* the error and the dangling mass, summed over ranks: two values, one allreduce */
    double global[2] = {0.0, 0.0};
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : global[1])
    for (int64_t v = 0; v < nl; v++) {
        double ow = 0.0;
        for (lg_edge_t k = out.offsets[v]; k < out.offsets[v + 1]; k++)
            ow += use_weights ? (double)out.weights[k] : 1.0;
        inv_out[v] = ow > 0.0 ? 1.0 / ow : 0.0;
        x[v] = o->nstart ? o->nstart[v] * x_scale : uniform;
        contrib[v] = x[v] * inv_out[v];
        if (ow == 0.0)
            global[1] += x[v];
    }
    if ((st = lg__dist_sum_f64(c, global + 1, 1)) != LG_OK)
        goto cleanup;

    const double limit = (double)n * o->tol;
    bool converged = false;
    int iter = 0;
    double err = 0.0;
    while (iter < o->max_iter && !converged) {
        if ((st = lg__dist_halo_exchange(c, g, &g->pull, contrib, sizeof(double), scratch)) !=
            LG_OK)
            goto cleanup;
        const double dangling = global[1];
        double e = 0.0, dn = 0.0;
        /* x is updated in place; contrib[v] for the next iteration waits
         * until every row has read this one's (below) */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(+ : e, dn)
        for (int64_t v = 0; v < nl; v++) {
            double sum = 0.0;
            if (in_w)
                for (lg_edge_t k = in.offsets[v]; k < in.offsets[v + 1]; k++)
                    sum += contrib[in.indices[k]] * (double)in_w[k];
            else
                for (lg_edge_t k = in.offsets[v]; k < in.offsets[v + 1]; k++)
                    sum += contrib[in.indices[k]];
            double pv = p ? p[v] * p_scale : uniform;
            double dv = d ? d[v] * d_scale : uniform;
            double next = alpha * (sum + dangling * dv) + (1.0 - alpha) * pv;
            e += fabs(next - x[v]);
            x[v] = next;
            if (inv_out[v] == 0.0)
                dn += next;
        }
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t v = 0; v < nl; v++)
            contrib[v] = x[v] * inv_out[v];
        global[0] = e;
        global[1] = dn;
        if ((st = lg__dist_sum_f64(c, global, 2)) != LG_OK)
            goto cleanup;
        err = global[0];
        iter++;
        converged = err < limit;
    }
    if (nl > 0)
        memcpy(scores, x, (size_t)nl * sizeof *x);
    *iterations = iter;
    *residual = err;
cleanup:
    free(inv_out);
    free(x);
    free(contrib);
    free(scratch);
    return st;
}

lg_status_t lg_dist_pagerank(lg_dist_context_t *c, const lg_dist_graph_t *g,
                             const lg_pagerank_options_t *options, double *scores,
                             lg_pagerank_result_t *result, lg_dist_traffic_t *traffic)
{
    static const char fn[] = "lg_dist_pagerank";
    if (!c)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: context is NULL", fn);
    lg_pagerank_options_t defaults;
    lg_pagerank_result_t ignored;
    if (!options) {
        lg_pagerank_options_init(&defaults);
        options = &defaults;
    }
    if (!result)
        result = &ignored;
    lg_status_t st = lg__dist_check_call(c, g, fn, g && g->n_local > 0 && !scores);
    double sums[3];
    if (st == LG_OK)
        st = check_options(c, g, options, sums);
    if (st != LG_OK)
        return st;
    result->iterations = 0;
    result->residual = 0.0;
    result->converged = true;
    lg__dist_traffic_start(c);
    if (g->n == 0)
        return lg__dist_traffic_end(c, 0, traffic);

    int iter = 0;
    double err = 0.0;
    st = c->gpu ? lg__dist_gpu_pagerank(c, g, options, sums, scores, &iter, &err)
                : power_iteration(c, g, options, sums, scores, &iter, &err);
    if (st != LG_OK)
        return st;
    const double limit = (double)g->n * options->tol;
    result->iterations = iter;
    result->residual = err;
    result->converged = iter > 0 && err < limit; /* no iteration: not converged, as lg_pagerank */
    if ((st = lg__dist_traffic_end(c, iter, traffic)) != LG_OK)
        return st;
    if (!result->converged)
        st = lg__dist_error(LG_ERR_NOT_CONVERGED,
                            "%s: no convergence in %d iterations (last L1 change %g, needs < "
                            "%g); scores hold the last iterate",
                            fn, iter, err, limit);
    return st;
}
