/*
 * pagerank.hip - PageRank on the GPU (lg__gpu_pagerank, the plugin's
 * pagerank kernel).
 *
 * Returns: scores[v] with networkx.pagerank's semantics, in double or float,
 * the same iteration as the CPU backend (src/kernels/cpu/pagerank.c, which
 * states it): power iteration in Jacobi form, pulling over in-edges,
 *
 *   x'[v] = alpha * (sum over arcs u->v of c[u] * w(u,v) + D * d[v]) + (1 - alpha) * p[v]
 *   c[u]  = x[u] / outweight[u] (0 when u dangles), D = sum of x over dangling u,
 *
 * stopping after the first iteration with sum |x' - x| < n * tol.
 *
 * Method: an iteration is one sparse matrix-vector product over the in-edges
 * (the pull structure of pull.hip: vertices renumbered by in-degree,
 * descending), one kernel launch.  Work is balanced by binning rows by
 * length, in the family of the CSR-vector kernel (Bell & Garland, SC'09)
 * and CSR-Adaptive (Greathouse & Daga, SC'14): a row gets a group of G
 * lanes (G = 1, 2, 4, ..., 256, a block) with at most LG_ARCS_PER_LANE arcs
 * a lane, the longest rows a block however long.  A row is never split
 * between groups (unlike merge-based SpMV, Merrill & Garland, SC'16), so
 * the sums need no carry-out, at the price of one block alone on the
 * longest row.  The group's lanes read the row's arcs side by side
 * (coalesced), LG_ARCS_PER_LANE loads deep each, and sum them with
 * lg__group_sum (through shared memory when the group spans waves).  The
 * blocks of the longest rows are launched first, so the short ones fill in
 * behind them.  The lane that owns the row then writes x'[v] over x[v] (the
 * gathers read only c), the next iteration's contribution c'[v], and adds
 * |x' - x| and the dangling mass to its block's partial sums; one device
 * reduction (prims.h) of the block partials gives the error and D for the
 * next iteration, and those 16 bytes are the only host round trip an
 * iteration.  Every sum is in a fixed order, so a run repeats bit for bit.
 *
 * Layout: the contributions c = x / outweight are a vector of their own
 * (the inverse out-weights computed once), so a gather is one load; c and
 * c' swap each iteration.  All vectors are in the renumbered order, put
 * back in the graph's order once at the end.
 *
 * Cost an iteration: one pass over the in-edge indices (and weights), one
 * gather of c per arc (c is n floats or doubles, mostly cache-resident),
 * O(n) for the vectors.  Memory: the device graph, 4 vectors of n in the
 * working precision, the block partials.
 *
 * The float variant keeps the vectors in float and, like the CPU, sums each
 * row, the error and the dangling mass in double; like the CPU, it runs in
 * double (rounding at the end) when an out-weight is outside [FLT_MIN,
 * 1/FLT_MIN].
 */
#include "pull_kernel.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Out-weight of every vertex: its out-degree, or (weighted) the sum of its
 * out-arc weights, in double, a wave per row; then 1 / it (0 for none), in
 * the relabelled order (inv_out[i] is old vertex perm[i]'s).  *out_of_range
 * is set when a weight sum is nonzero but outside float's [FLT_MIN,
 * 1 / FLT_MIN] (the float variant then runs in double). */
template <class T>
__global__ void __launch_bounds__(LG_PULL_BLOCK)
    out_weights_kernel(const lg_edge_t *off, const float *w, const lg_vertex_t *perm, int64_t n,
                       T *inv_out, int *out_of_range)
{
    /* row i for i = this wave, this wave + the grid's waves, ...: uniform in
     * the wave, so its lanes stay converged for lg__wave_sum */
    const int64_t waves = (int64_t)gridDim.x * (blockDim.x / LG_WAVE_SIZE);
    for (int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / LG_WAVE_SIZE; i < n;
         i += waves) {
        const int64_t v = perm[i];
        double sum = 0.0;
        if (w)
            for (lg_edge_t e = off[v] + lg__lane_id(); e < off[v + 1]; e += LG_WAVE_SIZE)
                sum += (double)w[e];
        sum = lg__wave_sum(sum);
        if (lg__lane_id() == 0) {
            if (!w)
                sum = (double)(off[v + 1] - off[v]);
            inv_out[i] = sum > 0.0 ? T(1.0 / sum) : T(0);
            if (sum > 0.0 && (sum < (double)FLT_MIN || sum > 1.0 / (double)FLT_MIN))
                *out_of_range = 1;
        }
    }
}

/* A vector option normalised to sum 1 on the host, in T, uploaded through
 * staging (n entries) and put in the relabelled order in *dev. */
template <class T>
static hipError_t upload_normalised(const double *v, int64_t n, const lg_vertex_t *perm, T **dev,
                                    T *host_tmp, T *staging, hipStream_t stream)
{
    *dev = NULL;
    if (!v)
        return hipSuccess;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++)
        sum += v[i];
    for (int64_t i = 0; i < n; i++)
        host_tmp[i] = (T)(v[i] / sum);
    hipError_t e = lg__device_malloc(dev, (size_t)n * sizeof(T));
    if (e == hipSuccess)
        e = hipMemcpyAsync(staging, host_tmp, (size_t)n * sizeof(T), hipMemcpyHostToDevice, stream);
    if (e == hipSuccess) {
        gather_permuted<T><<<lg__blocks_for(n, 256), 256, 0, stream>>>(*dev, staging, perm, n);
        e = hipGetLastError();
    }
    if (e == hipSuccess)
        e = hipStreamSynchronize(stream); /* host_tmp and staging are reused */
    return e;
}

/* The power iteration in precision T (the set-up, the loop, the download). */
template <class T>
static lg_status_t run(lg__gpu_state *s, const lg__dev_graph *dg, const lg_pagerank_options_t *opts,
                       bool use_weights, const char *fn, T *scores, lg_pagerank_result_t *result,
                       bool *out_of_range_seen, bool float_requested)
{
    lg_status_t st = LG_OK;
    const int64_t n = dg->n;
    const unsigned tpb = LG_PULL_BLOCK;
    T *x = NULL, *c = NULL, *cn = NULL, *inv_out = NULL, *p = NULL, *d = NULL, *x0 = NULL;
    T *host_tmp = NULL;
    pr_sums *partial = NULL, *total = NULL;
    int *range_flag = NULL;
    pr_args<T> a;
    memset(&a, 0, sizeof a);

    const lg__dev_pull &pull = dg->pull;
    const int64_t blocks = pr_launch_shape(&a, pull.bin_begin, n);
    const int64_t grid = lg__blocks_for(blocks * LG_PULL_BLOCK, LG_PULL_BLOCK);
    const int64_t init_blocks = lg__blocks_for(n, tpb);
    const int64_t partials = grid > init_blocks ? grid : init_blocks;
    const unsigned weight_blocks = lg__blocks_for(n * (int64_t)s->info.wave_size, tpb);

    const size_t nn = (size_t)(n ? n : 1);
    LG_TRY_OR_CLEANUP(lg__device_malloc(&x, nn * sizeof(T)), "allocating PageRank vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&c, nn * sizeof(T)), "allocating PageRank vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&cn, nn * sizeof(T)), "allocating PageRank vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&inv_out, nn * sizeof(T)), "allocating PageRank vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&partial, (size_t)partials * sizeof(pr_sums)),
                      "allocating PageRank partial sums");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&total, sizeof(pr_sums)),
                      "allocating PageRank partial sums");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&range_flag, sizeof(int)), "allocating PageRank flags");
    LG_TRY_OR_CLEANUP(hipMemsetAsync(range_flag, 0, sizeof(int), s->stream), "PageRank set-up");

    out_weights_kernel<T><<<weight_blocks, tpb, 0, s->stream>>>(
        dg->out.offsets, use_weights ? dg->out.weights : NULL, pull.perm, n, inv_out, range_flag);
    LG_TRY_OR_CLEANUP(lg__launched(), "computing out-weights");
    if (float_requested && sizeof(T) == sizeof(float)) {
        int flag = 0;
        LG_TRY_OR_CLEANUP(
            hipMemcpyAsync(&flag, range_flag, sizeof flag, hipMemcpyDeviceToHost, s->stream),
            "computing out-weights");
        LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "computing out-weights");
        if (flag) {
            *out_of_range_seen = true; /* the caller reruns in double */
            goto cleanup;
        }
    }

    if (opts->personalization || opts->dangling || opts->nstart) {
        host_tmp = (T *)lg__gpu_host->malloc(nn * sizeof(T));
        if (!host_tmp) {
            st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (PageRank vectors)",
                                     fn);
            goto cleanup;
        }
    }
    /* cn is free until the loop: the staging buffer of the uploads */
    LG_TRY_OR_CLEANUP(
        upload_normalised(opts->personalization, n, pull.perm, &p, host_tmp, cn, s->stream),
        "uploading the personalization");
    LG_TRY_OR_CLEANUP(upload_normalised(opts->dangling ? opts->dangling : opts->personalization, n,
                                        pull.perm, &d, host_tmp, cn, s->stream),
                      "uploading the dangling weights");
    LG_TRY_OR_CLEANUP(upload_normalised(opts->nstart, n, pull.perm, &x0, host_tmp, cn, s->stream),
                      "uploading nstart");

    init_kernel<T><<<(unsigned)init_blocks, tpb, 0, s->stream>>>(n, x0, inv_out, x, c, partial);
    LG_TRY_OR_CLEANUP(lg__launched(), "PageRank set-up");
    {
        pr_sums zero = {0.0, 0.0}, sums = zero;
        LG_TRY_OR_CLEANUP(lg__reduce(&s->scratch, (const pr_sums *)partial, total, init_blocks,
                                     pr_sums_plus(), zero, s->stream),
                          "PageRank set-up");
        LG_TRY_OR_CLEANUP(
            hipMemcpyAsync(&sums, total, sizeof sums, hipMemcpyDeviceToHost, s->stream),
            "PageRank set-up");
        LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "PageRank set-up");

        a.off = pull.csr.offsets;
        a.idx = pull.csr.indices;
        a.w = use_weights ? pull.csr.weights : NULL;
        a.x = x;
        a.inv_out = inv_out;
        a.p = p;
        a.d = d;
        a.alpha = (T)opts->alpha;
        a.uniform = (T)(1.0 / (double)n);
        a.partial = partial;
        const double limit = (double)n * opts->tol;
        bool converged = false;
        int iter = 0;
        double err = 0.0, dangling = sums.dangling;
        while (iter < opts->max_iter && !converged) {
            a.c = c;
            a.cn = cn;
            a.dangling = (T)dangling;
            pull_kernel<pr_args<T>><<<(unsigned)grid, tpb, 0, s->stream>>>(a);
            LG_TRY_OR_CLEANUP(lg__launched(), "running the PageRank kernel");
            LG_TRY_OR_CLEANUP(lg__reduce(&s->scratch, (const pr_sums *)partial, total, grid,
                                         pr_sums_plus(), zero, s->stream),
                              "reducing the PageRank error");
            LG_TRY_OR_CLEANUP(
                hipMemcpyAsync(&sums, total, sizeof sums, hipMemcpyDeviceToHost, s->stream),
                "reading the PageRank error");
            LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "running PageRank");
            T *t = c;
            c = cn;
            cn = t;
            err = sums.err;
            dangling = sums.dangling;
            iter++;
            converged = err < limit;
            /* every iteration is reported; a stop counts while work is left */
            if (!lg_progress_go_on(s->progress, LG_STAGE_PAGERANK, iter, opts->max_iter, err) &&
                !converged && iter < opts->max_iter) {
                st = LG_ERR_CANCELLED;
                goto cleanup;
            }
        }
        /* back to the graph's vertex order, through the spare vector */
        scatter_permuted<T><<<lg__blocks_for(n, tpb), tpb, 0, s->stream>>>(cn, x, pull.perm, n);
        LG_TRY_OR_CLEANUP(lg__launched(), "downloading the scores");
        LG_TRY_OR_CLEANUP(lg__deliver(s, scores, cn, (size_t)n * sizeof(T)),
                          "downloading the scores");
        result->iterations = iter;
        result->residual = err;
        result->converged = converged;
        if (!converged)
            st = lg__gpu_host->error(LG_ERR_NOT_CONVERGED,
                                     "lg_pagerank: no convergence in %d iterations (last L1 change "
                                     "%g, needs < %g); scores hold the last iterate",
                                     iter, err, limit);
    }
cleanup:
    (void)lg__device_free(x);
    (void)lg__device_free(c);
    (void)lg__device_free(cn);
    (void)lg__device_free(inv_out);
    (void)lg__device_free(p);
    (void)lg__device_free(d);
    (void)lg__device_free(x0);
    (void)lg__device_free(partial);
    (void)lg__device_free(total);
    (void)lg__device_free(range_flag);
    if (host_tmp)
        lg__gpu_host->free(host_tmp);
    return st;
}

static lg_status_t pagerank_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                      const void *args)
{
    static const char fn[] = "lg_pagerank";
    const struct lg_pagerank_args *call = (const struct lg_pagerank_args *)args;
    const lg_pagerank_options_t *opts = call->opts;
    const lg_precision_t precision = call->precision;
    void *scores = call->scores;
    lg_pagerank_result_t *result = call->result;
    lg__dev_graph *dg = NULL;
    bool temporary = false, out_of_range = false;
    double *wide = NULL;
    lg_status_t st = lg__dev_graph_get(s, g, fn, true, &dg, &temporary);
    if (st != LG_OK)
        return st;
    const bool use_weights = opts->use_weights && g->out.weights;
    if (precision == LG_PRECISION_F32) {
        st = run<float>(s, dg, opts, use_weights, fn, (float *)scores, result, &out_of_range, true);
        if (st == LG_OK && out_of_range) {
            /* an out-weight float cannot invert: run in double, round at the end */
            wide = (double *)lg__gpu_host->malloc((size_t)(g->n ? g->n : 1) * sizeof(double));
            if (!wide) {
                st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (scores)", fn);
            } else {
                const bool to_device = s->device_outputs;
                s->device_outputs = false; /* wide is host memory */
                st = run<double>(s, dg, opts, use_weights, fn, wide, result, &out_of_range, false);
                s->device_outputs = to_device;
                /* rounded in place when the scores go to the device (a float
                 * overwrites only bytes of doubles already read) */
                float *rounded = to_device ? (float *)wide : (float *)scores;
                if (st == LG_OK || st == LG_ERR_NOT_CONVERGED) {
                    for (int64_t v = 0; v < g->n; v++)
                        rounded[v] = (float)wide[v];
                    hipError_t e = hipSuccess;
                    if (to_device &&
                        ((e = hipMemcpyAsync(scores, rounded, (size_t)g->n * sizeof(float),
                                             hipMemcpyHostToDevice, s->stream)) != hipSuccess ||
                         (e = hipStreamSynchronize(s->stream)) != hipSuccess))
                        st = lg__gpu_fail(e, fn, "writing the scores");
                }
                lg__gpu_host->free(wide);
            }
        }
    } else {
        st = run<double>(s, dg, opts, use_weights, fn, (double *)scores, result, &out_of_range,
                         false);
    }
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

lg_status_t lg__gpu_pagerank(const struct lg_exec *x, const struct lg_graph_view *g,
                             const void *args)
{
    return lg__gpu_run(x, g, args, "lg_pagerank", pagerank_on_device);
}

/* The plugin's PageRank (plugin.hip): it builds its own pull structure on
 * the device from the out-edges. */
LG_GPU_KERNEL_ROW(pagerank, PAGERANK, false)
