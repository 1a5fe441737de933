/*
 * hits.c - hubs and authorities (HITS) on the CPU.
 *
 * Returns: hubs[v] and authorities[v] as lg_hits defines them (NetworkX's
 * iteration).
 *
 * Method: Kleinberg's iteration (JACM 1999) as NetworkX writes it: from the
 * hubs h, a = A^T h (a pull over the in-edges: a vertex's authority is its
 * in-neighbours' hub scores), h = A a (a pull over the out-edges), each
 * then multiplied by the inverse of its largest entry; the L1 change of h
 * decides convergence.  Each pass is one thread a row, over blocks whose
 * partial sums add up in a fixed order (power.h).
 *
 * Cost per iteration: one pass over the in-arcs and one over the out-arcs,
 * two over the vertices; memory: 3 vectors of n.
 */
#include "power.h"

#include <string.h>

/* y = the pull of x over rows' arcs for block k (a = A^T h over the
 * in-edges, h = A a over the out-edges); its largest entry in part[2k]. */
static void pull_block(const struct power_rows *rows, const double *x, double *y,
                       const struct power_blocks *b, int64_t k)
{
    int64_t v0, v1;
    power_block_rows(b, k, &v0, &v1);
    double most = 0.0;
    for (int64_t v = v0; v < v1; v++) {
        y[v] = power_sum(rows, x, v);
        most = y[v] > most ? y[v] : most;
    }
    b->part[2 * k] = most;
    b->part[2 * k + 1] = 0.0;
}

/* x *= s over block k, and the block's sum |x' - last| (last NULL: 0). */
static void scale_block(double *x, double s, const double *last, const struct power_blocks *b,
                        int64_t k)
{
    int64_t v0, v1;
    power_block_rows(b, k, &v0, &v1);
    double change = 0.0;
    for (int64_t v = v0; v < v1; v++) {
        x[v] *= s;
        change += last ? fabs(x[v] - last[v]) : 0.0;
    }
    b->part[2 * k] = 0.0;
    b->part[2 * k + 1] = change;
}

static double largest(const struct power_blocks *b)
{
    double most = 0.0;
    for (int64_t k = 0; k < b->count; k++)
        most = b->part[2 * k] > most ? b->part[2 * k] : most;
    return most;
}

static lg_status_t hits(const struct lg_exec *exec, const struct lg_graph_view *g, const void *args)
{
    const struct lg_hits_args *a = args;
    const int64_t n = g->n;
    const int threads = lg__team_size(exec->num_threads, n + 2 * g->m);
    const struct power_rows in = power_rows_of(&g->in, a->use_weights),
                            out = power_rows_of(&g->out, a->use_weights);
    lg_status_t st = LG_OK;
    struct power_blocks blocks = {0, 0, 0, 0, NULL};
    double *h = lg__alloc_array((size_t)n, sizeof *h, "HITS hubs");
    double *hn = lg__alloc_array((size_t)n, sizeof *hn, "HITS hubs");
    double *au = lg__alloc_array((size_t)n, sizeof *au, "HITS authorities");
    if (!h || !hn || !au || !power_blocks_make(&blocks, n, threads, "HITS sums")) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    if (a->h0) {
        double sum = 0.0;
        for (int64_t v = 0; v < n; v++)
            sum += a->h0[v];
        const double s = 1.0 / sum;
        for (int64_t v = 0; v < n; v++)
            h[v] = a->h0[v] * s;
    } else {
        for (int64_t v = 0; v < n; v++)
            h[v] = 1.0 / (double)n;
    }
    int iter = 0;
    double err = 0.0;
    bool converged = false, no_hubs = false;
    while (iter < a->max_iter && !converged) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int64_t k = 0; k < blocks.count; k++)
            pull_block(&in, h, au, &blocks, k);
        const double most_a = largest(&blocks);
        /* a scaled before h = A a (NetworkX scales both after): the same
         * h once scaled, and no overflow of h where weights are large */
        if ((no_hubs = !(most_a > 0.0)))
            break;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t k = 0; k < blocks.count; k++)
            scale_block(au, 1.0 / most_a, NULL, &blocks, k);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int64_t k = 0; k < blocks.count; k++)
            pull_block(&out, au, hn, &blocks, k);
        const double most_h = largest(&blocks);
        if ((no_hubs = !(most_h > 0.0)))
            break;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t k = 0; k < blocks.count; k++)
            scale_block(hn, 1.0 / most_h, h, &blocks, k);
        double unused;
        power_blocks_sum(&blocks, &unused, &err);
        double *t = h;
        h = hn;
        hn = t;
        iter++;
        converged = err < a->tol;
        if (!lg_exec_go_on(exec, LG_STAGE_HITS, iter, a->max_iter, err) && !converged &&
            iter < a->max_iter) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
    }
    if (no_hubs) {
        st = lg__error(LG_ERR_INVALID_ARGUMENT,
                       "lg_hits: every hub score is 0 after an iteration (no arc of positive "
                       "weight leaves a vertex of the start vector)");
        goto cleanup;
    }
    double sh = 1.0, sa = 1.0;
    if (converged && a->normalized) {
        double sum_h = 0.0, sum_a = 0.0;
        for (int64_t v = 0; v < n; v++) {
            sum_h += h[v];
            sum_a += au[v];
        }
        sh = 1.0 / sum_h;
        sa = 1.0 / sum_a;
    }
    /* max_iter 0: the start hubs, and authorities not yet computed (0) */
    if (iter == 0)
        memset(au, 0, (size_t)n * sizeof *au);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) {
        a->hubs[v] = h[v] * sh;
        a->authorities[v] = au[v] * sa;
    }
    a->result->iterations = iter;
    a->result->residual = err;
    a->result->converged = converged;
cleanup:
    lg__free(h);
    lg__free(hn);
    lg__free(au);
    lg__free(blocks.part);
    return st;
}

/* Authorities pull over the in-edges, hubs over the out-edges. */
const struct lg_kernel LG_CPU_ROW(hits) = {LG_ALG_HITS, hits, true};
