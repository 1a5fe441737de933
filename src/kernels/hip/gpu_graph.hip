/*
 * gpu_graph.hip - a graph's device copy: upload, the in-edges built on the
 * device, and the degree bins of the pull kernels.
 *
 * In-edges (CSC) of a directed graph: the arcs are radix-sorted by
 * destination (prims.h; stable, so each in-row keeps its sources in
 * ascending order, as the CPU's CSC does) with the arc's index as the value;
 * each sorted arc's source is then found by a binary search of the CSR
 * offsets, and the in-offsets by a lower bound of each vertex in the sorted
 * destinations.  Memory: 24 bytes an arc while it runs.
 *
 * Degree bins (load balance of the pull kernels, cf. the row binning of
 * CSR-Adaptive, Greathouse & Daga, SC'14): a row of d in-arcs gets the
 * smallest power-of-two group of lanes (1 .. LG_PULL_BLOCK) with at most
 * LG_ARCS_PER_LANE arcs a lane; longer rows get a whole block.  The groups do
 * not depend on the wave width.  A stable radix sort of (bin, row) pairs
 * lists each bin's rows in vertex order.
 */
#include "gpu.h"

#include <string.h>

__global__ void iota_kernel(int64_t *out, int64_t m)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        out[i] = i;
}

/* The row r with offsets[r] <= e < offsets[r + 1]. */
__device__ inline lg_vertex_t row_of_arc(const lg_edge_t *offsets, int64_t n, int64_t e)
{
    int64_t lo = 0, hi = n; /* offsets[lo] <= e < offsets[hi] */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (offsets[mid] <= e)
            lo = mid;
        else
            hi = mid;
    }
    return (lg_vertex_t)lo;
}

__global__ void gather_in_arcs(const lg_edge_t *out_offsets, int64_t n, const int64_t *perm,
                               const float *out_weights, lg_vertex_t *in_indices,
                               float *in_weights, int64_t m)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    int64_t e = perm[i];
    in_indices[i] = row_of_arc(out_offsets, n, e);
    if (in_weights)
        in_weights[i] = out_weights[e];
}

/* offsets[v] = the first i with keys[i] >= v, for v in [0, n]. */
template <class K>
__global__ void lower_bounds(const K *keys, int64_t m, int64_t *offsets, int64_t n)
{
    int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (v > n)
        return;
    int64_t lo = 0, hi = m;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((int64_t)keys[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    offsets[v] = lo;
}

__global__ void bin_of_rows(const lg_edge_t *offsets, int64_t n, unsigned char *bin,
                            lg_vertex_t *rows)
{
    int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    int64_t d = offsets[v + 1] - offsets[v];
    int b = 0;
    while (b < LG_BINS - 1 && ((int64_t)LG_ARCS_PER_LANE << b) < d)
        b++;
    bin[v] = (unsigned char)b;
    rows[v] = (lg_vertex_t)v;
}

static int bits_for(int64_t n)
{
    int b = 1;
    while (b < 62 && ((int64_t)1 << b) < n)
        b++;
    return b;
}

void lg_dev_graph_free(void *device_graph)
{
    lg_dev_graph *d = (lg_dev_graph *)device_graph;
    if (!d)
        return;
    int current = 0;
    bool switched = hipGetDevice(&current) == hipSuccess && current != d->device &&
                    hipSetDevice(d->device) == hipSuccess;
    if (d->in.offsets && d->in.offsets != d->out.offsets) {
        (void)hipFree(d->in.offsets);
        (void)hipFree(d->in.indices);
        if (d->in.weights)
            (void)hipFree(d->in.weights);
    }
    (void)hipFree(d->out.offsets);
    (void)hipFree(d->out.indices);
    if (d->out.weights)
        (void)hipFree(d->out.weights);
    if (d->in_bins.rows)
        (void)hipFree(d->in_bins.rows);
    if (switched)
        (void)hipSetDevice(current);
    lg_gpu_host->free(d);
}

static lg_status_t upload(lg_gpu_state *s, const struct lg_plugin_graph *g, const char *fn,
                          lg_dev_graph **out)
{
    lg_status_t st = LG_OK;
    lg_dev_graph *d = (lg_dev_graph *)lg_gpu_host->malloc(sizeof *d);
    if (!d)
        return lg_gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (device graph)", fn);
    memset(d, 0, sizeof *d);
    d->device = s->device;
    d->n = g->n;
    d->m = g->m;
    d->directed = g->directed != 0;
    LG_TRY_OR_CLEANUP(hipMalloc(&d->out.offsets, (size_t)(g->n + 1) * sizeof(lg_edge_t)),
                      "allocating the CSR offsets");
    LG_TRY_OR_CLEANUP(hipMalloc(&d->out.indices, (size_t)(g->m ? g->m : 1) * sizeof(lg_vertex_t)),
                      "allocating the CSR indices");
    if (g->weights)
        LG_TRY_OR_CLEANUP(hipMalloc(&d->out.weights, (size_t)(g->m ? g->m : 1) * sizeof(float)),
                          "allocating the CSR weights");
    LG_TRY_OR_CLEANUP(hipMemcpyAsync(d->out.offsets, g->offsets,
                                     (size_t)(g->n + 1) * sizeof(lg_edge_t),
                                     hipMemcpyHostToDevice, s->stream),
                      "uploading the CSR offsets");
    if (g->m > 0) {
        LG_TRY_OR_CLEANUP(hipMemcpyAsync(d->out.indices, g->indices,
                                         (size_t)g->m * sizeof(lg_vertex_t),
                                         hipMemcpyHostToDevice, s->stream),
                          "uploading the CSR indices");
        if (g->weights)
            LG_TRY_OR_CLEANUP(hipMemcpyAsync(d->out.weights, g->weights,
                                             (size_t)g->m * sizeof(float),
                                             hipMemcpyHostToDevice, s->stream),
                              "uploading the CSR weights");
    }
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "uploading the graph");
    if (!d->directed) {
        d->in = d->out;
        d->in_ready = true;
    }
    *out = d;
    d = NULL;
cleanup:
    lg_dev_graph_free(d);
    return st;
}

/* The in-edges of a directed graph, by a radix sort of the arcs on the device. */
static lg_status_t build_in_edges(lg_gpu_state *s, lg_dev_graph *d, const char *fn)
{
    lg_status_t st = LG_OK;
    const int64_t n = d->n, m = d->m;
    const unsigned threads = 256;
    lg_vertex_t *keys_sorted = NULL;
    int64_t *arc_ids = NULL, *perm = NULL;
    lg_dev_csr in = {NULL, NULL, NULL};
    const size_t mm = (size_t)(m ? m : 1);
    LG_TRY_OR_CLEANUP(hipMalloc(&in.offsets, (size_t)(n + 1) * sizeof(lg_edge_t)),
                      "allocating the CSC offsets");
    LG_TRY_OR_CLEANUP(hipMalloc(&in.indices, mm * sizeof(lg_vertex_t)), "allocating the CSC");
    if (d->out.weights)
        LG_TRY_OR_CLEANUP(hipMalloc(&in.weights, mm * sizeof(float)), "allocating the CSC weights");
    LG_TRY_OR_CLEANUP(hipMalloc(&keys_sorted, mm * sizeof(lg_vertex_t)), "building the CSC");
    LG_TRY_OR_CLEANUP(hipMalloc(&arc_ids, mm * sizeof(int64_t)), "building the CSC");
    LG_TRY_OR_CLEANUP(hipMalloc(&perm, mm * sizeof(int64_t)), "building the CSC");
    if (m > 0) {
        iota_kernel<<<lg_blocks_for(m, threads), threads, 0, s->stream>>>(arc_ids, m);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "building the CSC");
        LG_TRY_OR_CLEANUP(lg_radix_sort_pairs(&s->scratch, d->out.indices, keys_sorted,
                                              (const int64_t *)arc_ids, perm, m, bits_for(n),
                                              s->stream),
                          "sorting the arcs by destination");
        gather_in_arcs<<<lg_blocks_for(m, threads), threads, 0, s->stream>>>(
            d->out.offsets, n, perm, d->out.weights, in.indices, in.weights, m);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "building the CSC");
    }
    lower_bounds<<<lg_blocks_for(n + 1, threads), threads, 0, s->stream>>>(keys_sorted, m,
                                                                           in.offsets, n);
    LG_TRY_OR_CLEANUP(hipGetLastError(), "building the CSC");
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "building the CSC");
    d->in = in;
    d->in_ready = true;
    in.offsets = NULL;
    in.indices = NULL;
    in.weights = NULL;
cleanup:
    (void)hipFree(keys_sorted);
    (void)hipFree(arc_ids);
    (void)hipFree(perm);
    if (in.offsets)
        (void)hipFree(in.offsets);
    if (in.indices)
        (void)hipFree(in.indices);
    if (in.weights)
        (void)hipFree(in.weights);
    return st;
}

static lg_status_t build_bins(lg_gpu_state *s, lg_dev_graph *d, const char *fn)
{
    lg_status_t st = LG_OK;
    const int64_t n = d->n;
    const unsigned threads = 256;
    const int bins = LG_BINS;
    unsigned char *bin = NULL, *bin_sorted = NULL;
    lg_vertex_t *rows = NULL, *rows_sorted = NULL;
    int64_t *starts = NULL;
    const size_t nn = (size_t)(n ? n : 1);
    LG_TRY_OR_CLEANUP(hipMalloc(&bin, nn), "binning rows");
    LG_TRY_OR_CLEANUP(hipMalloc(&bin_sorted, nn), "binning rows");
    LG_TRY_OR_CLEANUP(hipMalloc(&rows, nn * sizeof(lg_vertex_t)), "binning rows");
    LG_TRY_OR_CLEANUP(hipMalloc(&rows_sorted, nn * sizeof(lg_vertex_t)), "binning rows");
    LG_TRY_OR_CLEANUP(hipMalloc(&starts, (LG_BINS + 1) * sizeof(int64_t)), "binning rows");
    if (n > 0) {
        bin_of_rows<<<lg_blocks_for(n, threads), threads, 0, s->stream>>>(d->in.offsets, n, bin,
                                                                        rows);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "binning rows");
        LG_TRY_OR_CLEANUP(lg_radix_sort_pairs(&s->scratch, (const unsigned char *)bin, bin_sorted,
                                              (const lg_vertex_t *)rows, rows_sorted, n, 4,
                                              s->stream),
                          "sorting rows by bin");
    }
    lower_bounds<<<1, LG_BINS + 1, 0, s->stream>>>(bin_sorted, n, starts, bins);
    LG_TRY_OR_CLEANUP(hipGetLastError(), "binning rows");
    memset(&d->in_bins, 0, sizeof d->in_bins);
    LG_TRY_OR_CLEANUP(hipMemcpyAsync(d->in_bins.start, starts, (size_t)(bins + 1) * sizeof(int64_t),
                                     hipMemcpyDeviceToHost, s->stream),
                      "binning rows");
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "binning rows");
    d->in_bins.rows = rows_sorted;
    rows_sorted = NULL;
    d->in_bins_ready = true;
cleanup:
    (void)hipFree(bin);
    (void)hipFree(bin_sorted);
    (void)hipFree(rows);
    if (rows_sorted)
        (void)hipFree(rows_sorted);
    (void)hipFree(starts);
    return st;
}

lg_status_t lg_dev_graph_get(lg_gpu_state *s, const struct lg_plugin_graph *g, const char *fn,
                             bool need_in, lg_dev_graph **out, bool *temporary)
{
    lg_status_t st = LG_OK;
    lg_dev_graph *d = (lg_dev_graph *)*g->device_cache;
    *out = NULL;
    *temporary = false;
    if (d && d->device != s->device) {
        d = NULL; /* cached on another GPU: a copy for this call only */
        *temporary = true;
    }
    if (!d) {
        if ((st = upload(s, g, fn, &d)) != LG_OK)
            return st;
        if (!*temporary)
            *g->device_cache = d;
    }
    if (need_in && !d->in_ready && (st = build_in_edges(s, d, fn)) != LG_OK)
        goto cleanup;
    if (need_in && !d->in_bins_ready && (st = build_bins(s, d, fn)) != LG_OK)
        goto cleanup;
    *out = d;
    return LG_OK;
cleanup:
    if (*temporary)
        lg_dev_graph_free(d); /* a cached copy stays: what it has is valid */
    return st;
}
