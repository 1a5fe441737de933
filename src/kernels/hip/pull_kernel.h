/*
 * pull_kernel.h - the binned pull kernel of PageRank and the power
 * iterations, shared by the GPU plugin (pagerank.hip, which states the
 * method; power_kernel.h) and libgraph_dist's GPU ranks (src/dist/gpu/pagerank.hip).
 *
 * One launch of pull_kernel is one sweep over the rows [0, bin_end[0]) of a
 * pull structure (struct lg__dev_pull's layout: rows grouped by in-degree
 * bin, the longest first), each row the sum of the vector c over its arcs
 * -- columns past the rows (a rank's ghosts) only read -- ended by the
 * arguments' finish_row, which leaves its two sums in each block's
 * partial[]: for PageRank (pr_args) a Jacobi sweep x'[v] and the error and
 * dangling sums; the power iterations (power_kernel.h) extend it likewise.
 */
#ifndef LG_PULL_KERNEL_H
#define LG_PULL_KERNEL_H

#include "gpu.h"

#include <math.h>

/* What each block adds to an iteration's two sums. */
struct pr_sums {
    double err, dangling;
};

struct pr_sums_plus {
    __host__ __device__ pr_sums operator()(const pr_sums &a, const pr_sums &b) const
    {
        pr_sums r = {a.err + b.err, a.dangling + b.dangling};
        return r;
    }
};

/* What the binned pull below reads: the rows and their bins, the vector
 * the arcs gather, and where each block leaves its two sums.  Each kernel's
 * arguments extend it with its own vectors and say what a row's end does
 * (an overload of finish_row). */
template <class T> struct pull_shape {
    using real = T;
    const lg_edge_t *off; /* the rows' arcs (gpu.h, struct lg__dev_pull) */
    const lg_vertex_t *idx;
    const float *w;                               /* NULL: unweighted */
    const lg_vertex_t *rows;                      /* row i of the bins is rows[i]; NULL: i */
    int64_t bin_begin[LG_BINS], bin_end[LG_BINS]; /* rows of bin k */
    /* blocks, the heaviest bin first: bin k has blocks [block_end[k+1], block_end[k]),
     * block_end[LG_BINS] = 0 */
    int64_t block_end[LG_BINS + 1];
    const T *c;       /* the gathered vector: PageRank's contributions of this iteration */
    pr_sums *partial; /* one per block */
};

/* PageRank's sweep. */
template <class T> struct pr_args : pull_shape<T> {
    T *x;             /* scores, updated in place */
    T *cn;            /* contributions of the next iteration */
    const T *inv_out; /* 1 / outweight, 0 when dangling */
    const T *p, *d;   /* personalization, dangling distribution; NULL: uniform */
    T alpha, uniform;
    T dangling; /* D of this iteration */
};

/* The end of row v: its new score, contribution and the two sums. */
template <class T>
__device__ inline pr_sums finish_row(const pr_args<T> &a, lg_vertex_t v, double sum)
{
    T dv = a.d ? a.d[v] : a.uniform, pv = a.p ? a.p[v] : a.uniform;
    T xv = a.alpha * ((T)sum + a.dangling * dv) + (T(1) - a.alpha) * pv;
    pr_sums r;
    r.err = fabs((double)xv - (double)a.x[v]);
    a.x[v] = xv;
    T io = a.inv_out[v];
    a.cn[v] = xv * io;
    r.dangling = io == T(0) ? (double)xv : 0.0;
    return r;
}

/* t[0] + ... + t[N - 1] as a balanced tree (N a power of two); the indices
 * are constants after inlining, so t stays in registers. */
template <int N> __device__ inline double pairwise_sum(const double *t)
{
    if constexpr (N == 1)
        return t[0];
    else
        return pairwise_sum<N / 2>(t) + pairwise_sum<N / 2>(t + N / 2);
}

/* The sum of row v's contributions over arcs lane, lane + stride, ...; in
 * double whatever T is, as on the CPU (hubs have many in-arcs).  A batch
 * is LG_ARCS_PER_LANE arcs a lane, loaded without a branch (loads past the
 * row's end are predicated off): all its index loads, then all its gathers,
 * are in flight together, whether the batch is full or not.  The degree
 * bins give most lanes 8 to 16 arcs: one batch, with no tail loop that
 * loads one arc at a time.  The batch is added up as a pairwise tree (no chain of dependent
 * adds), into the row's sum batch by batch: a fixed order. */
template <bool Weighted, class A>
__device__ inline double row_part(const A &a, lg_vertex_t v, int lane, int stride)
{
    using T = typename A::real;
    constexpr int U = LG_ARCS_PER_LANE;
    static_assert(U > 0 && (U & (U - 1)) == 0, "the pairwise tree needs a power of two");
    double sum = 0.0;
    const lg_edge_t end = a.off[v + 1];
    for (lg_edge_t e = a.off[v] + lane; e < end; e += U * (lg_edge_t)stride) {
        lg_vertex_t u[U];
        double t[U];
#pragma unroll
        for (int k = 0; k < U; k++)
            u[k] = e + k * stride < end ? a.idx[e + k * stride] : -1;
#pragma unroll
        for (int k = 0; k < U; k++) {
            /* c is read-only in the kernel (cn is written) */
            const T cu = u[k] >= 0 ? lg__ldg(a.c + u[k]) : T(0);
            t[k] =
                Weighted ? (double)(cu * (u[k] >= 0 ? (T)a.w[e + k * stride] : T(0))) : (double)cu;
        }
        sum += pairwise_sum<U>(t);
    }
    return sum;
}

/* Block `blk` of the bin of G-lane groups: LG_PULL_BLOCK / G rows.  Groups
 * within a wave sum with lg__group_sum; groups of several waves add their
 * waves' sums through shared memory. */
template <int G, class A> __device__ inline pr_sums pull_groups(const A &a, int bin, int64_t blk)
{
    const int group = (int)threadIdx.x / G, lane = (int)threadIdx.x % G;
    const int64_t i = a.bin_begin[bin] + blk * (LG_PULL_BLOCK / G) + group;
    const bool active = i < a.bin_end[bin];
    const lg_vertex_t v = (lg_vertex_t)(active ? (a.rows ? a.rows[i] : i) : 0);
    double sum = 0.0;
    if (active)
        sum = a.w ? row_part<true>(a, v, lane, G) : row_part<false>(a, v, lane, G);
    if constexpr (G <= LG_WAVE_SIZE) {
        sum = lg__group_sum<G>(sum); /* every lane calls it: waves stay converged */
    } else {
        __shared__ double wave_sums[LG_PULL_BLOCK / LG_WAVE_SIZE];
        constexpr int waves = G / LG_WAVE_SIZE;
        const double w = lg__wave_sum(sum);
        if (lg__lane_id() == 0)
            wave_sums[lg__wave_id()] = w;
        __syncthreads();
        if (lane == 0) {
            sum = 0.0;
            for (int k = 0; k < waves; k++)
                sum += wave_sums[group * waves + k];
        }
        __syncthreads();
    }
    pr_sums r = {0.0, 0.0};
    if (active && lane == 0)
        r = finish_row(a, v, sum);
    return r;
}

/* Bin `bin` of the block: groups of 2^bin lanes (uniform in the block). */
template <int G, class A> __device__ inline pr_sums pull_bin(const A &a, int bin, int64_t blk)
{
    if constexpr (G <= LG_PULL_BLOCK) {
        if ((1 << bin) == G)
            return pull_groups<G, A>(a, bin, blk);
        return pull_bin<G * 2, A>(a, bin, blk);
    } else {
        pr_sums none = {0.0, 0.0};
        return none;
    }
}

/* Block b of the launch shape (struct pull_shape) for b = blockIdx.x,
 * blockIdx.x + gridDim.x, ...: one pass unless the shape has more blocks
 * than a grid may (lg__blocks_for).  A is pr_args or another extension of
 * pull_shape with its finish_row. */
template <class A> __global__ void __launch_bounds__(LG_PULL_BLOCK) pull_kernel(A a)
{
    pr_sums r = {0.0, 0.0};
    for (int64_t b = blockIdx.x; b < a.block_end[0]; b += gridDim.x) {
        int bin = LG_BINS - 1; /* the same for the whole block */
        while (b >= a.block_end[bin])
            bin--;
        const pr_sums rb = pull_bin<1, A>(a, bin, b - a.block_end[bin + 1]);
        r.err += rb.err;
        r.dangling += rb.dangling;
    }
    r.err = lg__block_sum(r.err);
    r.dangling = lg__block_sum(r.dangling);
    if (threadIdx.x == 0)
        a.partial[blockIdx.x] = r;
}

/* Set-up: x = start (NULL: uniform), c = x / outweight, and the dangling
 * mass of x in per-block partials. */
template <class T>
__global__ void __launch_bounds__(LG_PULL_BLOCK)
    init_kernel(int64_t n, const T *start, const T *inv_out, T *x, T *c, pr_sums *partial)
{
    double dangling = 0.0;
    LG_FOR_EACH(v, n)
    {
        T xv = start ? start[v] : T(1.0 / (double)n);
        x[v] = xv;
        c[v] = xv * inv_out[v];
        if (inv_out[v] == T(0))
            dangling += (double)xv;
    }
    dangling = lg__block_sum(dangling);
    if (threadIdx.x == 0) {
        pr_sums r = {0.0, dangling};
        partial[blockIdx.x] = r;
    }
}

/* dst[i] = src[perm[i]]: a vertex vector into the relabelled order. */
template <class T>
__global__ void gather_permuted(T *dst, const T *src, const lg_vertex_t *perm, int64_t n)
{
    LG_FOR_EACH(i, n)
    dst[i] = src[perm[i]];
}

/* dst[perm[i]] = src[i]: a vector of pull rows back to the graph's own
 * order. */
template <class T>
__global__ void scatter_permuted(T *dst, const T *src, const lg_vertex_t *perm, int64_t n)
{
    LG_FOR_EACH(i, n)
    dst[perm[i]] = src[i];
}

/* The launch shape of rows [0, rows) binned at bin_begin (struct
 * lg__dev_pull): bin k has rows of 2^k lanes, LG_PULL_BLOCK >> k rows a
 * block; the blocks of the longest rows come first (they are the first
 * rows), so that they start first and the short ones fill in.  Returns the
 * blocks. */
template <class A>
static inline int64_t pr_launch_shape(A *a, const int64_t *bin_begin, int64_t rows)
{
    int64_t blocks = 0;
    a->block_end[LG_BINS] = 0;
    for (int k = LG_BINS - 1; k >= 0; k--) {
        a->bin_begin[k] = bin_begin[k];
        a->bin_end[k] = k == 0 ? rows : bin_begin[k - 1];
        const int64_t in_bin = a->bin_end[k] - a->bin_begin[k];
        const int64_t rows_per_block = (int64_t)LG_PULL_BLOCK >> k;
        blocks += (in_bin + rows_per_block - 1) / rows_per_block;
        a->block_end[k] = blocks;
    }
    return blocks;
}

#endif /* LG_PULL_KERNEL_H */
