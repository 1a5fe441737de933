/*
 * power_kernel.h - the power iterations on the GPU: the linear iteration
 * that is both the eigenvector kernel (eigenvector.hip) and Katz's
 * (katz.hip), and the pieces HITS (hits.hip) shares with it.
 *
 * Returns: struct lg_power_args's x (algorithms.h), the CPU's iteration
 * (src/kernels/cpu/power.h, which states it):
 *
 *   y = scale A^T x + keep x + b, then x' = y (Katz) or y / |y|_2 (eigenvector),
 *
 * stopped after the first iteration whose L1 change is below the limit.
 *
 * Method: the rows are PageRank's pull structure (pull.hip: in-edges,
 * vertices renumbered by in-degree, rows binned by length) and a pass is
 * one launch of its binned pull kernel (pull_kernel.h), the gathered vector
 * x itself (no per-vertex divisor: no contributions vector).  The row's end
 * (finish_row below) writes y[v] and adds |y - x| and y^2 to its block's
 * sums; one device reduction gives both.  The eigenvector's second kernel
 * divides by the norm, read from the device (no host round trip between the
 * two), and sums the change.  An iteration's one host round trip is the L1
 * change (16 bytes).  Sums are in double, in a fixed order: a run repeats
 * bit for bit, and differs from the CPU's only by the order of its sums.
 *
 * Cost per iteration: one pass over the in-arcs (indices, weights) and a
 * gather of x an arc, one or two over the vertices; memory: the device graph
 * with its pull structure, 2 vectors of n (3 with a per-vertex b) of the
 * call's type (double, or float: power_iteration<float>, the arithmetic
 * still double), the block partials.
 */
#ifndef LG_POWER_KERNEL_H
#define LG_POWER_KERNEL_H

#include "pull_kernel.h"

#include <math.h>
#include <string.h>

/* The linear sweep y = scale * (A^T x) + keep * x + b over the rows of the
 * shape (c is x), vectors of T (double or float), the arithmetic double
 * (the CPU's: power.h). */
template <class T> struct power_args : pull_shape<T> {
    T *y;       /* the new iterate */
    const T *b; /* each row's constant; NULL: b0 */
    double b0, scale, keep;
};

/* The end of row v: y[v], and its |y - x| and y^2 (of y as stored) as the
 * block's two sums (pr_sums's err and, in the second slot, the square). */
template <class T>
__device__ inline pr_sums finish_row(const power_args<T> &a, lg_vertex_t v, double sum)
{
    const double xv = a.c[v];
    const T yv = (T)(a.scale * sum + a.keep * xv + (a.b ? (double)a.b[v] : a.b0));
    a.y[v] = yv;
    pr_sums r = {fabs((double)yv - xv), (double)yv * (double)yv};
    return r;
}

/* x = y / |y|_2 (the norm from the sum of squares in total->dangling; 0 is
 * taken as 1, as NetworkX does), and each block's sum |x' - x|. */
template <class T>
__global__ void __launch_bounds__(LG_PULL_BLOCK)
    unit_kernel(int64_t n, T *x, const T *y, const pr_sums *total, pr_sums *partial)
{
    const double sq = total->dangling, norm = sq > 0.0 ? sqrt(sq) : 1.0;
    double change = 0.0;
    LG_FOR_EACH(v, n)
    {
        const T xv = (T)((double)y[v] / norm);
        change += fabs((double)xv - (double)x[v]);
        x[v] = xv;
    }
    change = lg__block_sum(change);
    if (threadIdx.x == 0) {
        pr_sums r = {change, 0.0};
        partial[blockIdx.x] = r;
    }
}

/* Each block's sum of x^2 (in the second slot). */
template <class T>
__global__ void __launch_bounds__(LG_PULL_BLOCK)
    squares_kernel(int64_t n, const T *x, pr_sums *partial)
{
    double sq = 0.0;
    LG_FOR_EACH(v, n)
    sq += (double)x[v] * (double)x[v];
    sq = lg__block_sum(sq);
    if (threadIdx.x == 0) {
        pr_sums r = {0.0, sq};
        partial[blockIdx.x] = r;
    }
}

template <class T> __global__ void fill_kernel(T *x, int64_t n, T value)
{
    LG_FOR_EACH(v, n)
    x[v] = value;
}

/* Each block's sum of x (in the first slot). */
template <class T>
__global__ void __launch_bounds__(LG_PULL_BLOCK) sum_kernel(int64_t n, const T *x, pr_sums *partial)
{
    double sum = 0.0;
    LG_FOR_EACH(v, n)
    sum += (double)x[v];
    sum = lg__block_sum(sum);
    if (threadIdx.x == 0) {
        pr_sums r = {sum, 0.0};
        partial[blockIdx.x] = r;
    }
}

/* dst[perm[i]] = src[i] * scale: a vector of pull rows back to the graph's
 * order, scaled (in double) on the way. */
template <class T>
__global__ void scatter_scaled(T *dst, const T *src, const lg_vertex_t *perm, int64_t n,
                               double scale)
{
    LG_FOR_EACH(i, n)
    dst[perm[i]] = (T)((double)src[i] * scale);
}

/* dev (the pull's order) = host[v] * mul / div for the host vector in the
 * graph's order (the CPU's arithmetic: mul or div is 1), rounded to T,
 * through a host copy and staging (n values of T of device memory). */
template <class T>
static inline lg_status_t upload_vector(lg__gpu_state *s, const char *fn, const char *what,
                                        const double *host, double mul, double div, int64_t n,
                                        const lg_vertex_t *perm, T *dev, T *staging)
{
    T *copy = (T *)lg__gpu_host->malloc((size_t)(n ? n : 1) * sizeof *copy);
    if (!copy)
        return lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (%s)", fn, what);
    for (int64_t v = 0; v < n; v++)
        copy[v] = (T)(host[v] * mul / div);
    hipError_t e =
        hipMemcpyAsync(staging, copy, (size_t)n * sizeof *copy, hipMemcpyHostToDevice, s->stream);
    if (e == hipSuccess) {
        gather_permuted<T><<<lg__blocks_for(n, LG_PULL_BLOCK), LG_PULL_BLOCK, 0, s->stream>>>(
            dev, staging, perm, n);
        e = lg__launched();
    }
    if (e == hipSuccess)
        e = hipStreamSynchronize(s->stream); /* the copy and staging are reused */
    lg__gpu_host->free(copy);
    return e == hipSuccess ? LG_OK : lg__gpu_fail(e, fn, what);
}

/* x = the start vector: upload_vector's of start, or every entry fill
 * when start is NULL. */
template <class T>
static inline lg_status_t start_vector(lg__gpu_state *s, const char *fn, const double *start,
                                       double mul, double div, double fill, int64_t n,
                                       const lg_vertex_t *perm, T *x, T *staging)
{
    if (start)
        return upload_vector(s, fn, "uploading nstart", start, mul, div, n, perm, x, staging);
    fill_kernel<T>
        <<<lg__blocks_for(n, LG_PULL_BLOCK), LG_PULL_BLOCK, 0, s->stream>>>(x, n, (T)fill);
    const hipError_t e = lg__launched();
    return e == hipSuccess ? LG_OK : lg__gpu_fail(e, fn, "starting the iteration");
}

/* The graph's float32 weights are what the pull structure holds: a float64
 * graph's exact weights (which the CPU reads) are refused rather than
 * rounded. */
static inline lg_status_t power_weights_ok(const lg__dev_graph *dg, bool use_weights,
                                           const char *fn)
{
    if (use_weights && dg->out.weights64)
        return lg__gpu_host->error(LG_ERR_UNSUPPORTED,
                                   "%s: the GPU kernel reads float32 weights, and this graph's "
                                   "are float64 (run it on the CPU, or load the weights as "
                                   "float32)",
                                   fn);
    return LG_OK;
}

/* The launch shape of the pull structure's rows, weighted or not. */
template <class A>
static inline int64_t pull_rows_shape(A *a, const lg__dev_pull &pull, int64_t n, bool use_weights)
{
    a->off = pull.csr.offsets;
    a->idx = pull.csr.indices;
    a->w = use_weights ? pull.csr.weights : NULL;
    a->rows = NULL;
    return pr_launch_shape(a, pull.bin_begin, n);
}

/* The linear iteration of struct lg_power_args (the method at the top),
 * vectors of T. */
template <class T>
static inline lg_status_t power_iteration(lg__gpu_state *s, const lg__dev_graph *dg,
                                          const struct lg_power_args *o, const char *fn)
{
    lg_status_t st = LG_OK;
    const int64_t n = dg->n;
    const unsigned tpb = LG_PULL_BLOCK;
    const lg__dev_pull &pull = dg->pull;
    T *x = NULL, *y = NULL, *b = NULL;
    pr_sums *partial = NULL, *total = NULL;
    power_args<T> a;
    memset(&a, 0, sizeof a);
    const int64_t blocks = pull_rows_shape(&a, pull, n, o->use_weights);
    const int64_t grid = lg__blocks_for(blocks * LG_PULL_BLOCK, LG_PULL_BLOCK);
    const int64_t vertex_blocks = lg__blocks_for(n, tpb);
    const int64_t partials = grid > vertex_blocks ? grid : vertex_blocks;
    const size_t nn = (size_t)n;
    LG_TRY_OR_CLEANUP(lg__device_malloc(&x, nn * sizeof *x), "allocating the iteration's vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&y, nn * sizeof *y), "allocating the iteration's vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&partial, (size_t)partials * sizeof *partial),
                      "allocating the iteration's partial sums");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&total, 2 * sizeof *total),
                      "allocating the iteration's partial sums");
    /* y is free until the loop: the staging buffer of the uploads */
    if (o->b) {
        LG_TRY_OR_CLEANUP(lg__device_malloc(&b, nn * sizeof *b),
                          "allocating the iteration's vectors");
        if ((st = upload_vector(s, fn, "uploading the per-vertex constants", o->b, 1.0, 1.0, n,
                                pull.perm, b, y)) != LG_OK)
            goto cleanup;
    }
    if ((st = start_vector(s, fn, o->x0, 1.0, o->x0_divisor, o->x0_fill, n, pull.perm, x, y)) !=
        LG_OK)
        goto cleanup;
    a.b = b;
    a.b0 = o->b0;
    a.scale = o->scale;
    a.keep = o->keep;
    a.partial = partial;
    {
        const pr_sums zero = {0.0, 0.0};
        pr_sums sums = zero;
        int iter = 0;
        double err = 0.0;
        bool converged = false;
        while (iter < o->max_iter && !converged) {
            a.c = x;
            a.y = y;
            pull_kernel<power_args<T>><<<(unsigned)grid, tpb, 0, s->stream>>>(a);
            LG_TRY_OR_CLEANUP(lg__launched(), "running the power iteration");
            LG_TRY_OR_CLEANUP(lg__reduce(&s->scratch, (const pr_sums *)partial, total, grid,
                                         pr_sums_plus(), zero, s->stream),
                              "reducing the iteration's sums");
            const pr_sums *change = total;
            if (o->unit_each) {
                unit_kernel<T>
                    <<<(unsigned)vertex_blocks, tpb, 0, s->stream>>>(n, x, y, total, partial);
                LG_TRY_OR_CLEANUP(lg__launched(), "normalizing the iterate");
                LG_TRY_OR_CLEANUP(lg__reduce(&s->scratch, (const pr_sums *)partial, total + 1,
                                             vertex_blocks, pr_sums_plus(), zero, s->stream),
                                  "reducing the iteration's sums");
                change = total + 1;
            } else {
                T *t = x;
                x = y;
                y = t;
            }
            LG_TRY_OR_CLEANUP(
                hipMemcpyAsync(&sums, change, sizeof sums, hipMemcpyDeviceToHost, s->stream),
                "reading the iteration's change");
            LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "running the power iteration");
            err = sums.err;
            iter++;
            converged = err < o->limit;
            if (!lg_progress_go_on(s->progress, o->stage, iter, o->max_iter, err) && !converged &&
                iter < o->max_iter) {
                st = LG_ERR_CANCELLED;
                goto cleanup;
            }
        }
        double scale = 1.0;
        if (converged && o->unit_at_end) {
            squares_kernel<T><<<(unsigned)vertex_blocks, tpb, 0, s->stream>>>(n, x, partial);
            LG_TRY_OR_CLEANUP(lg__launched(), "normalizing the result");
            LG_TRY_OR_CLEANUP(lg__reduce(&s->scratch, (const pr_sums *)partial, total,
                                         vertex_blocks, pr_sums_plus(), zero, s->stream),
                              "normalizing the result");
            LG_TRY_OR_CLEANUP(
                hipMemcpyAsync(&sums, total, sizeof sums, hipMemcpyDeviceToHost, s->stream),
                "normalizing the result");
            LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "normalizing the result");
            if (sums.dangling > 0.0)
                scale = 1.0 / sqrt(sums.dangling);
        }
        /* back to the graph's vertex order, through the spare vector */
        scatter_scaled<T>
            <<<(unsigned)vertex_blocks, tpb, 0, s->stream>>>(y, x, pull.perm, n, scale);
        LG_TRY_OR_CLEANUP(lg__launched(), "downloading the result");
        LG_TRY_OR_CLEANUP(lg__deliver(s, o->x, y, nn * sizeof(T)), "downloading the result");
        o->result->iterations = iter;
        o->result->residual = err;
        o->result->converged = converged;
    }
cleanup:
    (void)lg__device_free(x);
    (void)lg__device_free(y);
    (void)lg__device_free(b);
    (void)lg__device_free(partial);
    (void)lg__device_free(total);
    return st;
}

static inline lg_status_t power_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                          const void *args, const char *fn)
{
    const struct lg_power_args *o = (const struct lg_power_args *)args;
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_status_t st = lg__dev_graph_get(s, g, fn, true, &dg, &temporary);
    if (st != LG_OK)
        return st;
    if ((st = power_weights_ok(dg, o->use_weights, fn)) == LG_OK)
        st = o->precision == LG_PRECISION_F32 ? power_iteration<float>(s, dg, o, fn)
                                              : power_iteration<double>(s, dg, o, fn);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

#endif /* LG_POWER_KERNEL_H */
