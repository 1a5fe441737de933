/*
 * triangle_kernel.h - triangles of an undirected graph on the GPU, the one
 * kernel of lg__gpu_triangles (triangles.hip) and lg__gpu_clustering
 * (clustering.hip).
 *
 * Returns: struct lg_triangles_args as the CPU's kernel does
 * (src/kernels/cpu/triangle_count.h, which states the method): the same
 * orientation of every edge by degree (ties by id), so the same forward
 * rows, and the same integers.
 *
 * Method: the forward rows built on the device (a thread a vertex counts
 * and, after an exclusive sum of the counts, writes its row, sorted by id
 * as the graph's rows are), then a thread a forward arc u -> v (Green,
 * Yalamanchili and Munguia's edge-parallel count, GPU'14; Hu, Liu and Huang
 * TriCore, SC'18): the shorter of the two forward rows searched entry by
 * entry in the longer, a binary search from where the last one ended;
 * each common entry w is one triangle {u, v, w}, its +1 an integer atomic
 * on w, the arc's count on u and v, and the arcs' counts summed per block
 * into one 64-bit total.  Integer sums: every run gives the same counts.
 * The arcs go in launches of ARC_CHUNK, progress told before each.
 * Clustering from the counts is clustering_value.h's, on the host, as the
 * CPU computes it: both backends give the same doubles.
 *
 * Cost: each arc min(d+u, d+v) binary searches (d+ the forward degree, at
 * most sqrt(2m)); memory: the forward rows (an index an edge and n + 1
 * offsets), the counts and distinct degrees (16 bytes a vertex).
 */
#ifndef LG_TRIANGLE_KERNEL_H
#define LG_TRIANGLE_KERNEL_H

#include "clustering_value.h"
#include "gpu.h"
#include "prims.h"

#include <string.h>

/* Kernels local to each source that includes the header (triangles.hip,
 * clustering.hip), as the other .hip sources keep theirs. */
namespace
{

#define TRI_BLOCK 256
/* Forward arcs a launch (progress and Ctrl-C between launches). */
#define ARC_CHUNK ((int64_t)1 << 24)

/* Whether v ranks above u: a larger row, ties by id (the CPU's rank). */
__device__ inline bool tri_ranks_above(const lg_edge_t *off, lg_vertex_t u, lg_vertex_t v)
{
    const lg_edge_t du = off[u + 1] - off[u], dv = off[v + 1] - off[v];
    return dv > du || (dv == du && v > u);
}

/* Each vertex's forward row's length into len[v] (len[n] = 0, for the
 * exclusive sum's total), its distinct neighbours other than itself into
 * deg[v]; with rows, the row itself at rows + start[v]. */
__global__ void __launch_bounds__(TRI_BLOCK)
    forward_rows(const lg_edge_t *off, const lg_vertex_t *idx, int64_t n, int64_t *len,
                 int64_t *deg, const int64_t *start, lg_vertex_t *rows)
{
    LG_FOR_EACH(u, n)
    {
        int64_t kept = 0, seen = 0;
        lg_vertex_t last = -1;
        for (lg_edge_t e = off[u]; e < off[u + 1]; e++) {
            const lg_vertex_t v = idx[e];
            if (v == last || v == (lg_vertex_t)u)
                continue;
            last = v;
            seen++;
            if (tri_ranks_above(off, (lg_vertex_t)u, v)) {
                if (rows)
                    rows[start[u] + kept] = v;
                kept++;
            }
        }
        if (!rows) {
            len[u] = kept;
            deg[u] = seen;
        }
    }
    if (!rows && blockIdx.x == 0 && threadIdx.x == 0)
        len[n] = 0;
}

/* The triangles on the forward arcs [first, last): see the top. */
__global__ void __launch_bounds__(TRI_BLOCK)
    count_arcs(const int64_t *start, const lg_vertex_t *rows, int64_t n, int64_t first,
               int64_t last, unsigned long long *per_vertex, unsigned long long *total)
{
    unsigned long long mine = 0;
    LG_FOR_EACH(i, last - first)
    {
        const int64_t e = first + i;
        /* the arc's tail: the last u with start[u] <= e */
        int64_t lo = 0, hi = n;
        while (hi - lo > 1) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (start[mid] <= e)
                lo = mid;
            else
                hi = mid;
        }
        const lg_vertex_t u = (lg_vertex_t)lo, v = rows[e];
        const lg_vertex_t *a = rows + start[u], *b = rows + start[v];
        int64_t la = start[u + 1] - start[u], lb = start[v + 1] - start[v];
        if (la > lb) {
            const lg_vertex_t *t = a;
            a = b, b = t;
            const int64_t tl = la;
            la = lb, lb = tl;
        }
        unsigned long long c = 0;
        int64_t from = 0;
        for (int64_t k = 0; k < la && from < lb; k++) {
            const lg_vertex_t x = a[k];
            int64_t l = from, h = lb;
            while (l < h) {
                const int64_t mid = l + (h - l) / 2;
                if (b[mid] < x)
                    l = mid + 1;
                else
                    h = mid;
            }
            from = l;
            if (l < lb && b[l] == x) {
                c++;
                if (per_vertex)
                    atomicAdd(per_vertex + x, 1ull);
            }
        }
        if (per_vertex && c) {
            atomicAdd(per_vertex + u, c);
            atomicAdd(per_vertex + v, c);
        }
        mine += c;
    }
    mine = lg__block_sum(mine);
    if (threadIdx.x == 0 && mine)
        atomicAdd(total, mine);
}

} // namespace

static lg_status_t triangles_on_device(lg__gpu_state *s, const struct lg_graph_view *g,
                                       const void *args, const char *fn)
{
    const struct lg_triangles_args *a = (const struct lg_triangles_args *)args;
    const int64_t n = g->n;
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_status_t st = lg__dev_graph_get(s, g, fn, false, &dg, &temporary);
    if (st != LG_OK)
        return st;
    const bool counts = a->per_vertex || a->clustering;
    int64_t *len = NULL, *start = NULL, *deg = NULL, *host_t = NULL, *host_deg = NULL;
    lg_vertex_t *rows = NULL;
    unsigned long long *per_vertex = NULL, *total = NULL, got = 0;
    int64_t arcs = 0;
    const unsigned blocks = lg__blocks_for(n, TRI_BLOCK);
    LG_TRY_OR_CLEANUP(lg__device_malloc(&len, (size_t)(n + 1) * sizeof *len),
                      "allocating the forward rows");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&start, (size_t)(n + 1) * sizeof *start),
                      "allocating the forward rows");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&deg, (size_t)n * sizeof *deg),
                      "allocating the forward rows");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&total, sizeof *total), "allocating the count");
    forward_rows<<<blocks, TRI_BLOCK, 0, s->stream>>>(dg->out.offsets, dg->out.indices, n, len, deg,
                                                      NULL, NULL);
    LG_TRY_OR_CLEANUP(lg__launched(), "counting the forward rows");
    LG_TRY_OR_CLEANUP(lg__exclusive_sum(&s->scratch, len, start, n + 1, s->stream),
                      "placing the forward rows");
    LG_TRY_OR_CLEANUP(lg__download(s, &arcs, start + n, sizeof arcs), "placing the forward rows");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&rows, (size_t)(arcs ? arcs : 1) * sizeof *rows),
                      "allocating the forward rows");
    forward_rows<<<blocks, TRI_BLOCK, 0, s->stream>>>(dg->out.offsets, dg->out.indices, n, len, deg,
                                                      start, rows);
    LG_TRY_OR_CLEANUP(lg__launched(), "writing the forward rows");
    if (counts) {
        LG_TRY_OR_CLEANUP(lg__device_malloc(&per_vertex, (size_t)n * sizeof *per_vertex),
                          "allocating the counts");
        LG_TRY_OR_CLEANUP(hipMemsetAsync(per_vertex, 0, (size_t)n * sizeof *per_vertex, s->stream),
                          "counting");
    }
    LG_TRY_OR_CLEANUP(hipMemsetAsync(total, 0, sizeof *total, s->stream), "counting");
    /* progress before each launch (done: the arcs counted so far) */
    for (int64_t first = 0; first < arcs; first += ARC_CHUNK) {
        const int64_t last = arcs - first < ARC_CHUNK ? arcs : first + ARC_CHUNK;
        if (first > 0)
            LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "counting");
        if (!lg_progress_go_on(s->progress, LG_STAGE_TRIANGLES, first, arcs, 0.0)) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
        count_arcs<<<lg__blocks_for(last - first, TRI_BLOCK), TRI_BLOCK, 0, s->stream>>>(
            start, rows, n, first, last, per_vertex, total);
        LG_TRY_OR_CLEANUP(lg__launched(), "counting");
    }
    LG_TRY_OR_CLEANUP(lg__download(s, &got, total, sizeof got), "reading the count");
    if (a->total)
        *a->total = (int64_t)got;
    if (a->per_vertex)
        LG_TRY_OR_CLEANUP(lg__deliver(s, a->per_vertex, per_vertex, (size_t)n * sizeof(int64_t)),
                          "downloading the counts");
    if (a->clustering) {
        host_t = (int64_t *)lg__gpu_host->malloc((size_t)n * sizeof *host_t);
        host_deg = (int64_t *)lg__gpu_host->malloc((size_t)n * sizeof *host_deg);
        if (!host_t || !host_deg) {
            st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory for the counts", fn);
            goto cleanup;
        }
        LG_TRY_OR_CLEANUP(lg__download(s, host_t, per_vertex, (size_t)n * sizeof *host_t),
                          "downloading the counts");
        LG_TRY_OR_CLEANUP(lg__download(s, host_deg, deg, (size_t)n * sizeof *host_deg),
                          "downloading the degrees");
        /* the coefficients on the host (the CPU's arithmetic), then to the
         * caller's array through the counts' device array (8 bytes each) */
        double *c = (double *)host_deg;
        struct lg_triangles_args on_host = *a;
        on_host.clustering = (double *)lg__gpu_host->malloc((size_t)n * sizeof(double));
        if (!on_host.clustering) {
            st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory for the counts", fn);
            goto cleanup;
        }
        lg_clustering_values(&on_host, n, host_t, host_deg);
        memcpy(c, on_host.clustering, (size_t)n * sizeof *c);
        lg__gpu_host->free(on_host.clustering);
        LG_TRY_OR_CLEANUP(
            hipMemcpyAsync(per_vertex, c, (size_t)n * sizeof *c, hipMemcpyHostToDevice, s->stream),
            "uploading the coefficients");
        LG_TRY_OR_CLEANUP(lg__deliver(s, a->clustering, per_vertex, (size_t)n * sizeof *c),
                          "downloading the coefficients");
    }
cleanup:
    (void)lg__device_free(len);
    (void)lg__device_free(start);
    (void)lg__device_free(deg);
    (void)lg__device_free(rows);
    (void)lg__device_free(per_vertex);
    (void)lg__device_free(total);
    lg__gpu_host->free(host_t);
    lg__gpu_host->free(host_deg);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

#endif /* LG_TRIANGLE_KERNEL_H */
