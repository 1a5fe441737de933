/*
 * build.hip - a graph built on the GPU from edges in device memory (the
 * plugin's build entry, lg_graph_from_device_edges), so that edges that are
 * already on the device never cross to the host and back: the CSR is made
 * here, downloaded once for the host graph, and kept as its device copy.
 *
 * The result is the host builder's (src/graph/build.c) to the arc:
 *   arcs      edge i gives slot 2i = (u, v), and slot 2i + 1 = (v, u) when
 *             the reverse is added and u != v; a dropped self-loop or an
 *             absent reverse is the key ~0, which sorts last
 *   sort      one stable LSD radix sort of the 64-bit keys (row << 32 | column)
 *             with the weights as values: rows, then columns, then input
 *             order among equal arcs -- what FIRST and LAST rely on
 *   merge     a run of equal keys becomes one arc by the policy (heads
 *             marked, an exclusive sum gives each its place)
 *   offsets   a binary search of the sorted keys for each row's first arc
 * Validation first: the smallest index of an edge with an id outside
 * [0, n) or a weight not finite and >= 0 (atomicMin), reported to the core
 * with its values, which words the message as the host builder does.
 */
#include "gpu.h"

#include <math.h>
#include <string.h>

#define BUILD_BLOCK 256
#define NO_ARC (~0ull)

/* *top = the largest id (ids below 0 do not count: they fail the check) */
__global__ static void largest_id(int64_t E, const lg_vertex_t *src, const lg_vertex_t *dst,
                                  int *top)
{
    LG_FOR_EACH(i, E)
    {
        const lg_vertex_t m = src[i] > dst[i] ? src[i] : dst[i];
        if (m > 0)
            atomicMax(top, m);
    }
}

__global__ static void first_bad_edge(int64_t n, int64_t E, const lg_vertex_t *src,
                                      const lg_vertex_t *dst, const float *w,
                                      unsigned long long *first)
{
    LG_FOR_EACH(i, E)
    {
        const lg_vertex_t u = src[i], v = dst[i];
        bool bad = u < 0 || u >= n || v < 0 || v >= n;
        if (w)
            bad = bad || !isfinite(w[i]);
        if (bad)
            atomicMin(first, (unsigned long long)i);
    }
}

__global__ static void make_arcs(int64_t E, const lg_vertex_t *src, const lg_vertex_t *dst,
                                 const float *w, bool add_reverse, bool drop_loops,
                                 unsigned long long *keys, float *values,
                                 unsigned long long *count)
{
    LG_FOR_EACH(i, E)
    {
        const unsigned long long u = (unsigned)src[i], v = (unsigned)dst[i];
        const bool loop = u == v, keep = !(loop && drop_loops);
        keys[2 * i] = keep ? u << 32 | v : NO_ARC;
        keys[2 * i + 1] = keep && add_reverse && !loop ? v << 32 | u : NO_ARC;
        values[2 * i] = values[2 * i + 1] = w ? w[i] : 0.0f;
        const unsigned long long made = (keep ? 1 : 0) + (keep && add_reverse && !loop ? 1 : 0);
        if (made)
            atomicAdd(count, made);
    }
}

/* heads[k] = 1 where arc k starts a run of equal keys (k < A) */
__global__ static void mark_heads(int64_t A, const unsigned long long *keys, int64_t *heads)
{
    LG_FOR_EACH(k, A)
    {
        heads[k] = k == 0 || keys[k] != keys[k - 1];
    }
}

/* Each run into one arc at its place; a SUM that leaves float's range marks
 * the smallest such key */
__global__ static void merge_runs(int64_t A, const unsigned long long *keys, const float *values,
                                  const int64_t *place, lg_duplicates_t policy, bool weighted,
                                  unsigned long long *out_keys, float *out_values,
                                  unsigned long long *overflow)
{
    LG_FOR_EACH(k, A)
    {
        if (k > 0 && keys[k] == keys[k - 1])
            continue;
        float acc = values[k];
        int64_t j = k + 1;
        for (; j < A && keys[j] == keys[k]; j++) {
            switch (policy) {
            case LG_DUPLICATES_SUM: acc += values[j]; break;
            case LG_DUPLICATES_MIN: acc = values[j] < acc ? values[j] : acc; break;
            case LG_DUPLICATES_MAX: acc = values[j] > acc ? values[j] : acc; break;
            case LG_DUPLICATES_LAST: acc = values[j]; break;
            default: break; /* FIRST keeps the first */
            }
        }
        out_keys[place[k]] = keys[k];
        if (weighted) {
            out_values[place[k]] = acc;
            if (!isfinite(acc))
                atomicMin(overflow, keys[k]);
        }
    }
}

/* offsets[v] = the first arc of row v (binary search), indices from keys */
__global__ static void csr_of_keys(int64_t n, int64_t M, const unsigned long long *keys,
                                   lg_edge_t *offsets, lg_vertex_t *indices)
{
    LG_FOR_EACH(v, n + 1)
    {
        const unsigned long long want = (unsigned long long)v << 32;
        int64_t lo = 0, hi = M;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (keys[mid] < want)
                lo = mid + 1;
            else
                hi = mid;
        }
        offsets[v] = lo;
    }
    LG_FOR_EACH(k, M)
    {
        indices[k] = (lg_vertex_t)(keys[k] & 0xffffffffull);
    }
}

static lg_status_t build_on_device(lg__gpu_state *s, const struct lg_plugin_build *b,
                                   struct lg_plugin_built *out)
{
    static const char fn[] = "lg_graph_from_device_edges";
    lg_status_t st = LG_OK;
    int64_t n = b->n;
    const int64_t E = b->E, slots = 2 * E;
    const bool weighted = b->weights != NULL;
    unsigned long long *flag = NULL, *keys = NULL, *sorted = NULL, *merged = NULL;
    float *values = NULL, *sorted_values = NULL, *merged_values = NULL;
    int64_t *heads = NULL, *place = NULL;
    lg_edge_t *offsets = NULL, *h_offsets = NULL;
    lg_vertex_t *indices = NULL, *h_indices = NULL;
    float *h_weights = NULL;
    lg__dev_graph *d = NULL;
    unsigned long long host_flag[2] = {NO_ARC, 0};
    int64_t A = 0, M = 0;
    unsigned grid = lg__blocks_for(E > n + 1 ? E : n + 1, BUILD_BLOCK);

    LG_TRY_OR_CLEANUP(lg__device_malloc(&flag, 2 * sizeof *flag), "allocating the build");
    if (n < 0) { /* one more than the largest id */
        int top = E > 0 ? 0 : -1;
        LG_TRY_OR_CLEANUP(hipMemcpyAsync(flag, &top, sizeof top, hipMemcpyHostToDevice, s->stream),
                          "finding the largest id");
        if (E > 0) {
            largest_id<<<lg__blocks_for(E, BUILD_BLOCK), BUILD_BLOCK, 0, s->stream>>>(
                E, b->src, b->dst, (int *)flag);
            LG_TRY_OR_CLEANUP(lg__launched(), "finding the largest id");
        }
        LG_TRY_OR_CLEANUP(lg__download(s, &top, flag, sizeof top), "finding the largest id");
        n = (int64_t)top + 1;
        grid = lg__blocks_for(E > n + 1 ? E : n + 1, BUILD_BLOCK);
    }
    out->n = n;
    LG_TRY_OR_CLEANUP(hipMemcpyAsync(flag, host_flag, sizeof host_flag, hipMemcpyHostToDevice,
                                     s->stream),
                      "starting the build");
    if (E > 0) {
        first_bad_edge<<<grid, BUILD_BLOCK, 0, s->stream>>>(n, E, b->src, b->dst, b->weights,
                                                            flag);
        LG_TRY_OR_CLEANUP(lg__launched(), "checking the edges");
        LG_TRY_OR_CLEANUP(lg__download(s, host_flag, flag, sizeof host_flag[0]), "checking the edges");
        if (host_flag[0] != NO_ARC) { /* the core words the message */
            const int64_t i = (int64_t)host_flag[0];
            out->bad_edge = i;
            LG_TRY_OR_CLEANUP(lg__download(s, &out->bad_src, b->src + i, sizeof out->bad_src),
                              "reading the bad edge");
            LG_TRY_OR_CLEANUP(lg__download(s, &out->bad_dst, b->dst + i, sizeof out->bad_dst),
                              "reading the bad edge");
            if (weighted)
                LG_TRY_OR_CLEANUP(lg__download(s, &out->bad_weight, b->weights + i, sizeof(float)),
                                  "reading the bad edge");
            st = LG_ERR_INVALID_ARGUMENT;
            goto cleanup;
        }
    }
    {
        const size_t k = (size_t)(slots ? slots : 1);
        LG_TRY_OR_CLEANUP(lg__device_malloc(&keys, k * sizeof *keys), "allocating the arcs");
        LG_TRY_OR_CLEANUP(lg__device_malloc(&sorted, k * sizeof *sorted), "allocating the arcs");
        LG_TRY_OR_CLEANUP(lg__device_malloc(&values, k * sizeof *values), "allocating the arcs");
        LG_TRY_OR_CLEANUP(lg__device_malloc(&sorted_values, k * sizeof *sorted_values),
                          "allocating the arcs");
    }
    if (E > 0) {
        host_flag[1] = 0;
        LG_TRY_OR_CLEANUP(hipMemcpyAsync(flag + 1, &host_flag[1], sizeof host_flag[1],
                                         hipMemcpyHostToDevice, s->stream),
                          "making the arcs");
        make_arcs<<<grid, BUILD_BLOCK, 0, s->stream>>>(E, b->src, b->dst, b->weights,
                                                       b->add_reverse, b->drop_self_loops, keys,
                                                       values, flag + 1);
        LG_TRY_OR_CLEANUP(lg__launched(), "making the arcs");
        LG_TRY_OR_CLEANUP(lg__radix_sort_pairs(&s->scratch, keys, sorted, values, sorted_values,
                                               slots, 64, s->stream),
                          "sorting the arcs");
        LG_TRY_OR_CLEANUP(lg__download(s, &host_flag[1], flag + 1, sizeof host_flag[1]),
                          "sorting the arcs");
        A = (int64_t)host_flag[1];
    }
    merged = sorted;
    merged_values = sorted_values;
    M = A;
    if (b->duplicates != LG_DUPLICATES_KEEP && A > 0) {
        LG_TRY_OR_CLEANUP(lg__device_malloc(&heads, (size_t)A * sizeof *heads), "merging");
        LG_TRY_OR_CLEANUP(lg__device_malloc(&place, (size_t)A * sizeof *place), "merging");
        mark_heads<<<lg__blocks_for(A, BUILD_BLOCK), BUILD_BLOCK, 0, s->stream>>>(A, sorted,
                                                                                  heads);
        LG_TRY_OR_CLEANUP(lg__launched(), "merging");
        LG_TRY_OR_CLEANUP(lg__exclusive_sum(&s->scratch, heads, place, A, s->stream), "merging");
        int64_t last[2];
        LG_TRY_OR_CLEANUP(lg__download(s, &last[0], place + A - 1, sizeof last[0]), "merging");
        LG_TRY_OR_CLEANUP(lg__download(s, &last[1], heads + A - 1, sizeof last[1]), "merging");
        M = last[0] + last[1];
        /* the unsorted arrays are free again: the merged arcs go there */
        merged = keys;
        merged_values = values;
        host_flag[0] = NO_ARC;
        LG_TRY_OR_CLEANUP(hipMemcpyAsync(flag, host_flag, sizeof host_flag[0],
                                         hipMemcpyHostToDevice, s->stream),
                          "merging");
        merge_runs<<<lg__blocks_for(A, BUILD_BLOCK), BUILD_BLOCK, 0, s->stream>>>(
            A, sorted, sorted_values, place, b->duplicates, weighted, merged, merged_values, flag);
        LG_TRY_OR_CLEANUP(lg__launched(), "merging");
        LG_TRY_OR_CLEANUP(lg__download(s, host_flag, flag, sizeof host_flag[0]), "merging");
        if (host_flag[0] != NO_ARC) {
            st = lg__gpu_host->error(LG_ERR_INVALID_ARGUMENT,
                                     "duplicates of the edge %lld -> %d sum to a weight beyond "
                                     "float's range",
                                     (long long)(host_flag[0] >> 32),
                                     (int)(host_flag[0] & 0xffffffffull));
            goto cleanup;
        }
    }
    LG_TRY_OR_CLEANUP(lg__device_malloc(&offsets, (size_t)(n + 1) * sizeof *offsets),
                      "allocating the CSR");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&indices, (size_t)(M ? M : 1) * sizeof *indices),
                      "allocating the CSR");
    csr_of_keys<<<lg__blocks_for(M > n + 1 ? M : n + 1, BUILD_BLOCK), BUILD_BLOCK, 0,
                  s->stream>>>(n, M, merged, offsets, indices);
    LG_TRY_OR_CLEANUP(lg__launched(), "making the CSR");

    /* the host's copy, in the core's memory */
    h_offsets = (lg_edge_t *)lg__gpu_host->malloc((size_t)(n + 1) * sizeof *h_offsets);
    h_indices = (lg_vertex_t *)lg__gpu_host->malloc((size_t)(M ? M : 1) * sizeof *h_indices);
    h_weights = weighted ? (float *)lg__gpu_host->malloc((size_t)(M ? M : 1) * sizeof(float))
                         : NULL;
    d = (lg__dev_graph *)lg__gpu_host->malloc(sizeof *d);
    if (!h_offsets || !h_indices || (weighted && !h_weights) || !d) {
        st = lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of host memory for the CSR", fn);
        goto cleanup;
    }
    LG_TRY_OR_CLEANUP(lg__download(s, h_offsets, offsets, (size_t)(n + 1) * sizeof *h_offsets),
                      "downloading the CSR");
    LG_TRY_OR_CLEANUP(lg__download(s, h_indices, indices, (size_t)M * sizeof *h_indices),
                      "downloading the CSR");
    if (weighted)
        LG_TRY_OR_CLEANUP(lg__download(s, h_weights, merged_values, (size_t)M * sizeof(float)),
                          "downloading the CSR");

    /* the device copy: the CSR just made (weights: the merged values, kept) */
    memset(d, 0, sizeof *d);
    d->device = s->device;
    d->n = n;
    d->m = M;
    d->directed = b->directed;
    d->out.offsets = offsets;
    d->out.indices = indices;
    d->out.weights = weighted ? merged_values : NULL;
    if (weighted && merged_values == values)
        values = NULL;
    if (weighted && merged_values == sorted_values)
        sorted_values = NULL;
    offsets = NULL;
    indices = NULL;
    out->offsets = h_offsets;
    out->indices = h_indices;
    out->weights = h_weights;
    out->m = M;
    out->device_graph = d;
    h_offsets = NULL;
    h_indices = NULL;
    h_weights = NULL;
    d = NULL;

cleanup:
    (void)lg__device_free(flag);
    (void)lg__device_free(keys);
    (void)lg__device_free(sorted);
    (void)lg__device_free(values);
    (void)lg__device_free(sorted_values);
    (void)lg__device_free(heads);
    (void)lg__device_free(place);
    (void)lg__device_free(offsets);
    (void)lg__device_free(indices);
    lg__gpu_host->free(h_offsets);
    lg__gpu_host->free(h_indices);
    lg__gpu_host->free(h_weights);
    lg__gpu_host->free(d);
    return st;
}

/* The entry point, on the context's device (lg__device_guard). */
lg_status_t lg__gpu_build(void *state, const struct lg_plugin_build *b,
                          struct lg_plugin_built *out)
{
    lg__gpu_state *s = (lg__gpu_state *)state;
    lg__device_guard on_device(s->device);
    if (on_device.error() != hipSuccess)
        return lg__gpu_fail(on_device.error(), "lg_graph_from_device_edges",
                            "selecting the device");
    return lg__gpu_call_end(s, build_on_device(s, b, out));
}
