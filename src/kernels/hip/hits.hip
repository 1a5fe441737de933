/*
 * hits.hip - hubs and authorities (HITS) on the GPU (lg__gpu_hits).
 *
 * Returns: hubs[v] and authorities[v] as lg_hits defines them, the CPU's
 * iteration (src/kernels/cpu/hits.c, which states it): a = A^T h, a /= max a,
 * h' = A a, h' /= max h', until the L1 change of h is below tol.
 *
 * Method: both passes are launches of the binned pull kernel
 * (pull_kernel.h) in the pull structure's numbering: a = A^T h over the
 * pull's in-edges, h' = A a over the out-edges renamed into that numbering
 * (struct lg__dev_pull_out, built the first time; an undirected graph's
 * out-edges are its in-edges).  Each largest entry is a device reduction
 * that the scaling kernel reads in place, so an iteration's one host round
 * trip reads the two largest entries and the change together (32 bytes).
 * Sums are in double, in a fixed order: a run repeats bit for bit.  The
 * vectors are double or float (hits_iteration<T>), the sums double.
 *
 * Cost per iteration: one pass over the in-arcs and one over the out-arcs,
 * three over the vertices; memory: the device graph with its pull
 * structure and (directed) the renamed out-edges, 3 vectors of n of the
 * call's type.
 */
#include "power_kernel.h"

/* y[v] = the sum of c over row v's arcs: a pass of HITS. */
template <class T> struct gather_args : pull_shape<T> {
    T *y;
};

template <class T>
__device__ inline pr_sums finish_row(const gather_args<T> &a, lg_vertex_t v, double sum)
{
    a.y[v] = (T)sum;
    pr_sums none = {0.0, 0.0};
    return none;
}

/* x *= 1 / *most (kept when *most is 0: the host reports it), and each
 * block's sum |x' - last| (last NULL: none), in double. */
template <class T>
__global__ void __launch_bounds__(LG_PULL_BLOCK)
    scale_by_largest(int64_t n, T *x, const T *most, const T *last, pr_sums *partial)
{
    const double s = *most > 0 ? 1.0 / (double)*most : 1.0;
    double change = 0.0;
    LG_FOR_EACH(v, n)
    {
        x[v] = (T)((double)x[v] * s);
        if (last)
            change += fabs((double)x[v] - (double)last[v]);
    }
    change = lg__block_sum(change);
    if (threadIdx.x == 0) {
        pr_sums r = {change, 0.0};
        partial[blockIdx.x] = r;
    }
}

/* The device results of an iteration, read back together. */
template <class T> struct hits_sums {
    T most_a, most_h;
    pr_sums change;
};

/* The launch shapes of the two passes. */
template <class T> struct hits_passes {
    gather_args<T> in, out;
    int64_t in_grid, out_grid;
};

template <class T>
static void hits_passes_make(hits_passes<T> *p, const lg__dev_graph *dg, bool use_weights)
{
    memset(p, 0, sizeof *p);
    p->in_grid = lg__blocks_for(
        pull_rows_shape(&p->in, dg->pull, dg->n, use_weights) * LG_PULL_BLOCK, LG_PULL_BLOCK);
    if (dg->directed) {
        const lg__dev_pull_out &o = dg->pull_out;
        p->out.off = o.csr.offsets;
        p->out.idx = o.csr.indices;
        p->out.w = use_weights ? o.csr.weights : NULL;
        p->out.rows = o.rows;
        p->out_grid = lg__blocks_for(pr_launch_shape(&p->out, o.bin_begin, dg->n) * LG_PULL_BLOCK,
                                     LG_PULL_BLOCK);
    } else {
        p->out = p->in;
        p->out_grid = p->in_grid;
    }
}

/* The largest entry of x (n > 0) into *most (exact in either type). */
template <class T> static hipError_t largest(lg__gpu_state *s, const T *x, int64_t n, T *most)
{
    return lg__reduce(&s->scratch, x, most, n, lg__max_op(), (T)0, s->stream);
}

/* The sum of x (n > 0) in double into *sum, through the blocks' partials
 * and *dev, read back. */
template <class T>
static hipError_t sum_to_host(lg__gpu_state *s, const T *x, int64_t n, pr_sums *partial,
                              pr_sums *dev, double *sum)
{
    const pr_sums zero = {0.0, 0.0};
    const int64_t blocks = lg__blocks_for(n, LG_PULL_BLOCK);
    pr_sums got = zero;
    sum_kernel<T><<<(unsigned)blocks, LG_PULL_BLOCK, 0, s->stream>>>(n, x, partial);
    hipError_t e = lg__launched();
    if (e == hipSuccess)
        e = lg__reduce(&s->scratch, (const pr_sums *)partial, dev, blocks, pr_sums_plus(), zero,
                       s->stream);
    if (e == hipSuccess)
        e = hipMemcpyAsync(&got, dev, sizeof got, hipMemcpyDeviceToHost, s->stream);
    if (e == hipSuccess)
        e = hipStreamSynchronize(s->stream);
    *sum = got.err;
    return e;
}

template <class T>
static lg_status_t hits_iteration(lg__gpu_state *s, const lg__dev_graph *dg,
                                  const struct lg_hits_args *o)
{
    static const char fn[] = "lg_hits";
    lg_status_t st = LG_OK;
    const int64_t n = dg->n;
    const unsigned tpb = LG_PULL_BLOCK;
    const lg_vertex_t *perm = dg->pull.perm;
    const size_t nn = (size_t)n;
    T *h = NULL, *hn = NULL, *au = NULL;
    pr_sums *partial = NULL;
    hits_sums<T> *sums = NULL;
    hits_passes<T> p;
    const int64_t vertex_blocks = lg__blocks_for(n, tpb);
    LG_TRY_OR_CLEANUP(lg__device_malloc(&h, nn * sizeof *h), "allocating the iteration's vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&hn, nn * sizeof *hn),
                      "allocating the iteration's vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&au, nn * sizeof *au),
                      "allocating the iteration's vectors");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&sums, sizeof *sums), "allocating the iteration's sums");
    {
        /* the partials are sized for the larger launch */
        hits_passes_make(&p, dg, o->use_weights);
        int64_t partials = vertex_blocks;
        partials = p.in_grid > partials ? p.in_grid : partials;
        partials = p.out_grid > partials ? p.out_grid : partials;
        LG_TRY_OR_CLEANUP(lg__device_malloc(&partial, (size_t)partials * sizeof *partial),
                          "allocating the iteration's partial sums");
        p.in.partial = p.out.partial = partial;
    }
    {
        double total = 0.0; /* as the CPU scales it */
        for (int64_t v = 0; o->h0 && v < n; v++)
            total += o->h0[v];
        if ((st = start_vector(s, fn, o->h0, 1.0 / total, 1.0, 1.0 / (double)n, n, perm, h, hn)) !=
            LG_OK)
            goto cleanup;
    }
    {
        const pr_sums zero = {0.0, 0.0};
        hits_sums<T> got;
        memset(&got, 0, sizeof got);
        int iter = 0;
        double err = 0.0;
        bool converged = false, no_hubs = false;
        while (iter < o->max_iter && !converged) {
            p.in.c = h;
            p.in.y = au;
            pull_kernel<gather_args<T>><<<(unsigned)p.in_grid, tpb, 0, s->stream>>>(p.in);
            LG_TRY_OR_CLEANUP(lg__launched(), "running the authorities' pass");
            LG_TRY_OR_CLEANUP(largest(s, au, n, &sums->most_a), "scaling the authorities");
            scale_by_largest<T><<<(unsigned)vertex_blocks, tpb, 0, s->stream>>>(
                n, au, &sums->most_a, NULL, partial);
            LG_TRY_OR_CLEANUP(lg__launched(), "scaling the authorities");
            p.out.c = au;
            p.out.y = hn;
            pull_kernel<gather_args<T>><<<(unsigned)p.out_grid, tpb, 0, s->stream>>>(p.out);
            LG_TRY_OR_CLEANUP(lg__launched(), "running the hubs' pass");
            LG_TRY_OR_CLEANUP(largest(s, hn, n, &sums->most_h), "scaling the hubs");
            scale_by_largest<T><<<(unsigned)vertex_blocks, tpb, 0, s->stream>>>(
                n, hn, &sums->most_h, h, partial);
            LG_TRY_OR_CLEANUP(lg__launched(), "scaling the hubs");
            LG_TRY_OR_CLEANUP(lg__reduce(&s->scratch, (const pr_sums *)partial, &sums->change,
                                         vertex_blocks, pr_sums_plus(), zero, s->stream),
                              "reducing the iteration's change");
            LG_TRY_OR_CLEANUP(
                hipMemcpyAsync(&got, sums, sizeof got, hipMemcpyDeviceToHost, s->stream),
                "reading the iteration's change");
            LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "running the iteration");
            no_hubs = !(got.most_a > 0) || !(got.most_h > 0);
            if (no_hubs)
                break;
            T *t = h;
            h = hn;
            hn = t;
            err = got.change.err;
            iter++;
            converged = err < o->tol;
            if (!lg_progress_go_on(s->progress, LG_STAGE_HITS, iter, o->max_iter, err) &&
                !converged && iter < o->max_iter) {
                st = LG_ERR_CANCELLED;
                goto cleanup;
            }
        }
        if (no_hubs) {
            st = lg__gpu_host->error(LG_ERR_INVALID_ARGUMENT,
                                     "lg_hits: every hub score is 0 after an iteration (no arc of "
                                     "positive weight leaves a vertex of the start vector)");
            goto cleanup;
        }
        double sh = 1.0, sa = 1.0;
        if (converged && o->normalized) {
            double sum_h = 0.0, sum_a = 0.0;
            LG_TRY_OR_CLEANUP(sum_to_host(s, h, n, partial, &sums->change, &sum_h),
                              "normalizing the hubs");
            LG_TRY_OR_CLEANUP(sum_to_host(s, au, n, partial, &sums->change, &sum_a),
                              "normalizing the authorities");
            sh = 1.0 / sum_h;
            sa = 1.0 / sum_a;
        }
        /* max_iter 0: the start hubs, and authorities not yet computed (0) */
        if (iter == 0) {
            fill_kernel<T><<<(unsigned)vertex_blocks, tpb, 0, s->stream>>>(au, n, (T)0);
            LG_TRY_OR_CLEANUP(lg__launched(), "downloading the result");
        }
        /* back to the graph's vertex order through the spare vector (hn),
         * then the authorities through the hubs' (h, once delivered) */
        scatter_scaled<T><<<(unsigned)vertex_blocks, tpb, 0, s->stream>>>(hn, h, perm, n, sh);
        LG_TRY_OR_CLEANUP(lg__launched(), "downloading the hubs");
        LG_TRY_OR_CLEANUP(lg__deliver(s, o->hubs, hn, nn * sizeof(T)), "downloading the hubs");
        scatter_scaled<T><<<(unsigned)vertex_blocks, tpb, 0, s->stream>>>(hn, au, perm, n, sa);
        LG_TRY_OR_CLEANUP(lg__launched(), "downloading the authorities");
        LG_TRY_OR_CLEANUP(lg__deliver(s, o->authorities, hn, nn * sizeof(T)),
                          "downloading the authorities");
        o->result->iterations = iter;
        o->result->residual = err;
        o->result->converged = converged;
    }
cleanup:
    (void)lg__device_free(h);
    (void)lg__device_free(hn);
    (void)lg__device_free(au);
    (void)lg__device_free(partial);
    (void)lg__device_free(sums);
    return st;
}

static lg_status_t hits_on_device(lg__gpu_state *s, const struct lg_graph_view *g, const void *args)
{
    const struct lg_hits_args *o = (const struct lg_hits_args *)args;
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_status_t st = lg__dev_graph_get(s, g, "lg_hits", true, &dg, &temporary);
    if (st != LG_OK)
        return st;
    if ((st = power_weights_ok(dg, o->use_weights, "lg_hits")) == LG_OK && dg->directed &&
        !dg->pull_out_ready)
        st = lg__dev_pull_out_build(s, dg, "lg_hits");
    if (st == LG_OK)
        st = o->precision == LG_PRECISION_F32 ? hits_iteration<float>(s, dg, o)
                                              : hits_iteration<double>(s, dg, o);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

lg_status_t lg__gpu_hits(const struct lg_exec *x, const struct lg_graph_view *g, const void *args)
{
    return lg__gpu_run(x, g, args, "lg_hits", hits_on_device);
}

/* The plugin's pull structure is built on the device from the out-edges. */
LG_GPU_KERNEL_ROW(hits, HITS, false)
