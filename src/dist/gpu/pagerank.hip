/*
 * pagerank.hip - PageRank on GPU ranks: src/dist/pagerank.c's iteration
 * with the plugin's binned pull kernel (src/kernels/hip/pull_kernel.h) over
 * the rank's pull structure.
 *
 * An iteration, all queued on the rank's stream: one pull_kernel launch over
 * the owned rows (it reads the contributions c of owned and ghost columns,
 * writes x and the next contributions cn of the owned rows, and leaves each
 * block's error and dangling sums), one device reduction of those sums, one
 * ncclAllReduce of the two doubles, and the halo of cn (grouped
 * ncclSend/ncclRecv of 8 bytes a ghost the in-arcs read); then the 16 bytes
 * of sums come back to the host for the convergence test, which every rank
 * takes alike since the sums are global.
 */
#include "pull_kernel.h"
#include "rank.h"

#include <string.h>

/* A host vector (n values, or NULL) on the device. */
static hipError_t vector_upload(double **dev, const double *host, int64_t n)
{
    *dev = NULL;
    if (!host)
        return hipSuccess;
    hipError_t e = lg__device_malloc(dev, (size_t)(n > 0 ? n : 1) * sizeof(double));
    if (e == hipSuccess && n > 0)
        e = hipMemcpy(*dev, host, (size_t)n * sizeof(double), hipMemcpyHostToDevice);
    return e;
}

/* 1 / out-degree of each pull row (0: dangling). */
__global__ void inverse_degrees(const lg_edge_t *off, const lg_vertex_t *perm, int64_t n,
                                double *inv_out)
{
    LG_FOR_EACH(i, n)
    {
        const lg_edge_t d = off[perm[i] + 1] - off[perm[i]];
        inv_out[i] = d > 0 ? 1.0 / (double)d : 0.0;
    }
}

__global__ void fill(double *x, int64_t n, double value)
{
    LG_FOR_EACH(i, n)
    x[i] = value;
}

struct pr_buffers {
    double *x, *c, *cn, *inv_out, *x0, *p, *d;
    uint64_t *send_buf, *recv_buf;
    pr_sums *partial, *total;
};

/* Every array of the run, allocated and filled before the first collective
 * (a failure here is agreed on by every rank). */
static lg_status_t setup(lg_rank_state *s, const lg_rank_graph *g,
                         const struct lg_dist_gpu_pagerank *o, int64_t partials, pr_buffers *b)
{
    static const char fn[] = "lg_dist_pagerank";
    const int64_t nl = g->n_local, cols = nl + g->n_ghost;
    const size_t nc = (size_t)(cols > 0 ? cols : 1);
    lg_status_t st = LG_OK;
    LG_RANK_TRY(lg__device_malloc(&b->x, nc * sizeof(double)), "allocating PageRank vectors");
    LG_RANK_TRY(lg__device_malloc(&b->c, nc * sizeof(double)), "allocating PageRank vectors");
    LG_RANK_TRY(lg__device_malloc(&b->cn, nc * sizeof(double)), "allocating PageRank vectors");
    if (o->inv_out) {
        LG_RANK_TRY(vector_upload(&b->inv_out, o->inv_out, nl), "uploading PageRank vectors");
    } else {
        LG_RANK_TRY(lg__device_malloc(&b->inv_out, nc * sizeof(double)),
                    "allocating PageRank vectors");
        inverse_degrees<<<lg__blocks_for(nl, 256), 256, 0, s->stream>>>(
            g->out.offsets, g->pull_perm, nl, b->inv_out);
        LG_RANK_TRY(hipGetLastError(), "PageRank set-up");
    }
    if (o->x0) {
        LG_RANK_TRY(vector_upload(&b->x0, o->x0, nl), "uploading PageRank vectors");
    } else {
        LG_RANK_TRY(lg__device_malloc(&b->x0, nc * sizeof(double)), "allocating PageRank vectors");
        fill<<<lg__blocks_for(nl, 256), 256, 0, s->stream>>>(b->x0, nl, 1.0 / (double)o->n);
        LG_RANK_TRY(hipGetLastError(), "PageRank set-up");
    }
    LG_RANK_TRY(vector_upload(&b->p, o->p, nl), "uploading PageRank vectors");
    LG_RANK_TRY(vector_upload(&b->d, o->d, nl), "uploading PageRank vectors");
    LG_RANK_TRY(lg__device_malloc(&b->send_buf, (size_t)(g->pull_halo.send_total + 1) * 8),
                "allocating the PageRank halo");
    LG_RANK_TRY(lg__device_malloc(&b->recv_buf, (size_t)(g->pull_halo.recv_total + 1) * 8),
                "allocating the PageRank halo");
    LG_RANK_TRY(lg__device_malloc(&b->partial, (size_t)partials * sizeof(pr_sums)),
                "allocating PageRank partial sums");
    LG_RANK_TRY(lg__device_malloc(&b->total, sizeof(pr_sums)), "allocating PageRank sums");
    /* the reduction's scratch too: the loop allocates nothing */
    LG_RANK_TRY(lg__reduce(&s->scratch, (const pr_sums *)b->partial, b->total, partials,
                           pr_sums_plus(), pr_sums{0.0, 0.0}, s->stream),
                "PageRank set-up");
    LG_RANK_TRY(hipStreamSynchronize(s->stream), "PageRank set-up");
cleanup:
    return st;
}

/* The sums of partial[0 .. blocks) over every rank, into *sums (host). */
static lg_status_t global_sums(lg_rank_state *s, const pr_buffers *b, int64_t blocks, pr_sums *sums,
                               const char *fn)
{
    lg_status_t st = LG_OK;
    LG_RANK_TRY(lg__reduce(&s->scratch, (const pr_sums *)b->partial, b->total, blocks,
                           pr_sums_plus(), pr_sums{0.0, 0.0}, s->stream),
                "reducing the PageRank sums");
    LG_RANK_NCCL(
        s->nccl.all_reduce(b->total, b->total, 2, LG_NCCL_DOUBLE, LG_NCCL_SUM, s->comm, s->stream),
        "summing over ranks");
    LG_RANK_TRY(hipMemcpyAsync(sums, b->total, sizeof *sums, hipMemcpyDeviceToHost, s->stream),
                "reading the PageRank sums");
cleanup:
    return st;
}

static lg_status_t iterate(lg_rank_state *s, const lg_rank_graph *g,
                           const struct lg_dist_gpu_pagerank *o, pr_args<double> *a, int64_t grid,
                           pr_buffers *b, double *scores, struct lg_dist_gpu_run *run)
{
    static const char fn[] = "lg_dist_pagerank";
    const int64_t nl = g->n_local;
    const unsigned tpb = LG_PULL_BLOCK, init_blocks = lg__blocks_for(nl, tpb);
    lg_status_t st = LG_OK;
    pr_sums sums = {0.0, 0.0};
    init_kernel<double>
        <<<init_blocks, tpb, 0, s->stream>>>(nl, b->x0, b->inv_out, b->x, b->c, b->partial);
    LG_RANK_TRY(hipGetLastError(), "PageRank set-up");
    if ((st = global_sums(s, b, init_blocks, &sums, fn)) != LG_OK ||
        (st = lg__rank_halo(s, g, &g->pull_halo, (uint64_t *)b->c, b->send_buf, b->recv_buf,
                            &run->bytes_sent, fn)) != LG_OK)
        goto cleanup;
    LG_RANK_TRY(hipStreamSynchronize(s->stream), "PageRank set-up");

    a->off = g->pull.offsets;
    a->idx = g->pull.indices;
    a->w = o->use_weights ? g->pull.weights : NULL;
    a->x = b->x;
    a->inv_out = b->inv_out;
    a->p = b->p;
    a->d = b->d;
    a->alpha = o->alpha;
    a->uniform = 1.0 / (double)o->n;
    a->partial = b->partial;
    {
        double *c = b->c, *cn = b->cn;
        bool converged = false;
        double dangling = sums.dangling;
        while (run->rounds < o->max_iter && !converged) {
            a->c = c;
            a->cn = cn;
            a->dangling = dangling;
            pull_kernel<pr_args<double>><<<(unsigned)grid, tpb, 0, s->stream>>>(*a);
            LG_RANK_TRY(hipGetLastError(), "running the PageRank kernel");
            /* the sums and the next contributions' halo, then one wait */
            if ((st = global_sums(s, b, grid, &sums, fn)) != LG_OK ||
                (st = lg__rank_halo(s, g, &g->pull_halo, (uint64_t *)cn, b->send_buf, b->recv_buf,
                                    &run->bytes_sent, fn)) != LG_OK)
                goto cleanup;
            LG_RANK_TRY(hipStreamSynchronize(s->stream), "running PageRank");
            double *t = c;
            c = cn;
            cn = t;
            run->residual = sums.err;
            dangling = sums.dangling;
            run->rounds++;
            converged = sums.err < o->limit;
        }
    }
    if (nl > 0) { /* back to the owned order, through the spare vector */
        scatter_permuted<double>
            <<<lg__blocks_for(nl, 256), 256, 0, s->stream>>>(b->cn, b->x, g->pull_perm, nl);
        LG_RANK_TRY(hipGetLastError(), "downloading the scores");
        LG_RANK_TRY(hipMemcpyAsync(scores, b->cn, (size_t)nl * sizeof(double),
                                   hipMemcpyDeviceToHost, s->stream),
                    "downloading the scores");
        LG_RANK_TRY(hipStreamSynchronize(s->stream), "downloading the scores");
    }
cleanup:
    (void)hipStreamSynchronize(s->stream); /* a queued copy into sums lands before it goes */
    return st;
}

lg_status_t lg__rank_pagerank(void *state, void *device_graph, void *comm,
                              const struct lg_dist_gpu_pagerank *o, double *scores,
                              struct lg_dist_gpu_run *run)
{
    lg_rank_state *s = (lg_rank_state *)state;
    const lg_rank_graph *g = (const lg_rank_graph *)device_graph;
    pr_args<double> a;
    memset(&a, 0, sizeof a);
    const int64_t blocks = pr_launch_shape(&a, g->bin_begin, g->n_local);
    const int64_t grid = lg__blocks_for(blocks * LG_PULL_BLOCK, LG_PULL_BLOCK);
    const int64_t init_blocks = lg__blocks_for(g->n_local, LG_PULL_BLOCK);
    pr_buffers b;
    memset(&b, 0, sizeof b);
    run->rounds = 0;
    run->residual = 0.0;
    lg__device_guard on_device(s->device);
    lg_status_t st =
        on_device.error() == hipSuccess
            ? setup(s, g, o, grid > init_blocks ? grid : init_blocks, &b)
            : lg__rank_fail(s, on_device.error(), "lg_dist_pagerank", "selecting the device");
    if ((st = s->host->agree(comm, st)) == LG_OK)
        st = iterate(s, g, o, &a, grid, &b, scores, run);
    (void)hipStreamSynchronize(s->stream);
    (void)lg__device_free(b.x);
    (void)lg__device_free(b.c);
    (void)lg__device_free(b.cn);
    (void)lg__device_free(b.inv_out);
    (void)lg__device_free(b.x0);
    (void)lg__device_free(b.p);
    (void)lg__device_free(b.d);
    (void)lg__device_free(b.send_buf);
    (void)lg__device_free(b.recv_buf);
    (void)lg__device_free(b.partial);
    (void)lg__device_free(b.total);
    return st;
}
