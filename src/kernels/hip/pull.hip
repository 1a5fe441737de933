/*
 * pull.hip - the pull structure of the PageRank kernels (struct lg__dev_pull,
 * gpu.h), built on the device from a graph's CSR (lg__dev_pull_build), and
 * the out-edges in its numbering for a kernel that pulls both ways
 * (struct lg__dev_pull_out, lg__dev_pull_out_build: the end of the file).
 *
 * What: the in-edges (rows = destinations, each row's sources ascending),
 * with the vertices renumbered by in-degree, descending (stable), and the
 * rows cut into degree bins.  Why this layout: the pull kernels balance
 * their load by binning rows by length (cf. CSR-Adaptive, Greathouse & Daga,
 * SC'14): a row of d in-arcs gets the smallest power-of-two group of lanes
 * (1 .. LG_PULL_BLOCK) with at most LG_ARCS_PER_LANE arcs a lane, longer
 * rows a whole block.  Renumbered by degree, each bin is one range of rows,
 * neighbouring lanes read neighbouring offsets, and the hubs, whose
 * contributions most arcs gather, share a few cache lines (degree ordering;
 * see Balaji & Lucia, "When is graph reordering an optimization?",
 * IISWC'18).  The groups do not depend on the wave width.
 *
 * Method: a transpose by radix sort, straight from the CSR, directed or not.
 * The vertices are sorted by in-degree (counted by atomics for a directed
 * graph; an undirected graph's out-degrees are its in-degrees); the arcs are
 * listed in the order of their new source, a thread an arc (mark_sources, a
 * running maximum, list_arcs); then one stable LSD radix sort (prims.h:
 * CUB or rocPRIM) by new head over log2(n) bits makes the in-rows, each in
 * ascending source order as listed: a counting sort's transpose (cf.
 * Gustavson, "Two fast algorithms for sparse matrices: multiplication and
 * permuted transposition", ACM TOMS 1978) done digit by digit.  Keys and
 * values are 32 bits (values 64 when weighted: the weight packed with the
 * source), and only log2(n) key bits are sorted.
 *
 * Cost: O(n + m) work and a few passes over the arcs (the listing, then a
 * sort pass a digit of the log2(n) key bits); memory while it runs: the pull copy
 * (offsets, indices, weights, perm and rank) plus ~20 bytes an arc (keys,
 * values, the sort's own buffers).
 */
#include "gpu.h"

#include <string.h>

static int bits_for(int64_t n)
{
    int b = 1;
    while (b < 62 && ((int64_t)1 << b) < n)
        b++;
    return b;
}

void lg__dev_pull_free(lg__dev_pull *p)
{
    (void)lg__device_free(p->csr.offsets);
    (void)lg__device_free(p->csr.indices);
    (void)lg__device_free(p->csr.weights);
    (void)lg__device_free(p->perm);
    (void)lg__device_free(p->rank);
    memset(p, 0, sizeof *p);
}

/* degree[v] = the length of row v. */
__global__ void row_degrees(const lg_edge_t *offsets, int64_t n, int64_t *degree)
{
    LG_FOR_EACH(v, n)
    degree[v] = offsets[v + 1] - offsets[v];
}

/* degree[v] += the number of arcs into v (degree zeroed first). */
__global__ void count_in_degrees(const lg_vertex_t *indices, int64_t m, int64_t *degree)
{
    LG_FOR_EACH(e, m)
    atomicAdd((unsigned long long *)(degree + indices[e]), 1ull);
}

/* Sort keys of the relabelling: ascending keys, descending degrees. */
__global__ void degree_keys(const int64_t *degree, int64_t n, uint64_t max_degree, uint64_t *keys,
                            lg_vertex_t *ids)
{
    LG_FOR_EACH(v, n)
    {
        keys[v] = max_degree - (uint64_t)degree[v];
        ids[v] = (lg_vertex_t)v;
    }
}

/* rank[perm[i]] = i; new_degree[i] = degree[perm[i]] (new_degree[n] = 0). */
__global__ void invert_permutation(const lg_vertex_t *perm, int64_t n, const int64_t *degree,
                                   lg_vertex_t *rank, int64_t *new_degree)
{
    LG_FOR_EACH(i, n + 1)
    {
        if (i == n) {
            new_degree[n] = 0;
        } else {
            rank[perm[i]] = (lg_vertex_t)i;
            new_degree[i] = degree[perm[i]];
        }
    }
}

/* new_length[i] = the length of row perm[i] (new_length[n] = 0). */
__global__ void permuted_row_lengths(const lg_edge_t *offsets, const lg_vertex_t *perm, int64_t n,
                                     int64_t *new_length)
{
    LG_FOR_EACH(i, n + 1)
    new_length[i] = i == n ? 0 : offsets[perm[i] + 1] - offsets[perm[i]];
}

/* heads[from[i]] = i for every new source i with out-arcs (heads zeroed
 * first): a running maximum over heads then names each listed arc's source. */
__global__ void mark_sources(const lg_edge_t *from, int64_t n, lg_vertex_t *heads)
{
    LG_FOR_EACH(i, n)
    if (from[i + 1] > from[i])
        heads[from[i]] = (lg_vertex_t)i;
}

/* Every arc, listed by new source (sources[p], from mark_sources and the
 * scan): the arcs of old vertex perm[i] from position from[i] on, each as
 * key: the new id of its head, and, when weighted, a value that packs its
 * weight (high word) with its source.  A thread an arc. */
__global__ void list_arcs(const lg_edge_t *from, const lg_vertex_t *perm, const lg_vertex_t *rank,
                          const lg_edge_t *offsets, const lg_vertex_t *indices,
                          const float *weights, const lg_vertex_t *sources, int64_t m,
                          uint32_t *keys, uint64_t *packed)
{
    LG_FOR_EACH(p, m)
    {
        const lg_vertex_t i = sources[p];
        const lg_edge_t q = offsets[perm[i]] + (p - from[i]);
        keys[p] = (uint32_t)rank[indices[q]];
        if (packed)
            packed[p] = (uint64_t)__float_as_uint(weights[q]) << 32 | (uint32_t)i;
    }
}

/* The sorted packed values of a weighted graph: sources and weights. */
__global__ void unpack_weighted(const uint64_t *values, int64_t m, lg_vertex_t *indices,
                                float *weights)
{
    LG_FOR_EACH(p, m)
    {
        const uint64_t x = values[p];
        indices[p] = (lg_vertex_t)(uint32_t)x;
        weights[p] = __uint_as_float((uint32_t)(x >> 32));
    }
}

/* bin_begin[k]: the first position i of the rows' list whose row has length
 * <= LG_ARCS_PER_LANE << k (row rows[i], or i when rows is NULL; lengths do
 * not increase along the list); the last bin starts at 0. */
__global__ void bin_bounds(const lg_edge_t *offsets, const lg_vertex_t *rows, int64_t n,
                           int64_t *bin_begin)
{
    int k = (int)threadIdx.x;
    if (k >= LG_BINS)
        return;
    if (k == LG_BINS - 1) {
        bin_begin[k] = 0;
        return;
    }
    const int64_t limit = (int64_t)LG_ARCS_PER_LANE << k;
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        const int64_t r = rows ? rows[mid] : mid;
        if (offsets[r + 1] - offsets[r] <= limit)
            hi = mid;
        else
            lo = mid + 1;
    }
    bin_begin[k] = lo;
}

/* order[0 .. n) = the vertices by length[v], longest first, ties by id
 * (a stable LSD radix sort of the largest length minus each, its key bits
 * no more than the largest needs), through keys, keys_sorted, ids (n each)
 * and max (one) of device memory. */
static hipError_t sort_by_length(lg__gpu_state *s, const int64_t *length, int64_t n, uint64_t *keys,
                                 uint64_t *keys_sorted, lg_vertex_t *ids, int64_t *max,
                                 lg_vertex_t *order)
{
    int64_t longest = 0;
    hipError_t e = lg__reduce(&s->scratch, length, max, n, lg__max_op(), (int64_t)0, s->stream);
    if (e == hipSuccess)
        e = hipMemcpyAsync(&longest, max, sizeof longest, hipMemcpyDeviceToHost, s->stream);
    if (e == hipSuccess)
        e = hipStreamSynchronize(s->stream);
    if (e == hipSuccess) {
        degree_keys<<<lg__blocks_for(n, 256), 256, 0, s->stream>>>(length, n, (uint64_t)longest,
                                                                   keys, ids);
        e = lg__launched();
    }
    if (e == hipSuccess)
        e = lg__radix_sort_pairs(&s->scratch, (const uint64_t *)keys, keys_sorted,
                                 (const lg_vertex_t *)ids, order, n, bits_for(longest + 1),
                                 s->stream);
    return e;
}

/* bins (host, LG_BINS) = bin_bounds of the rows listed in rows (NULL:
 * 0 .. n - 1) by way of device (LG_BINS of device memory); complete on
 * return. */
static hipError_t read_bins(lg__gpu_state *s, const lg_edge_t *offsets, const lg_vertex_t *rows,
                            int64_t n, int64_t *device, int64_t *bins)
{
    bin_bounds<<<1, LG_BINS, 0, s->stream>>>(offsets, rows, n, device);
    hipError_t e = lg__launched();
    if (e == hipSuccess)
        e = hipMemcpyAsync(bins, device, LG_BINS * sizeof *bins, hipMemcpyDeviceToHost, s->stream);
    if (e == hipSuccess)
        e = hipStreamSynchronize(s->stream);
    return e;
}

/* The pull structure of d (the method is at the top of the file): vertices
 * sorted by in-degree, arcs listed by new source, the arcs sorted by new
 * head, then the bins' bounds read back to the host. */
lg_status_t lg__dev_pull_build(lg__gpu_state *s, lg__dev_graph *d, const char *fn)
{
    lg_status_t st = LG_OK;
    const int64_t n = d->n, m = d->m;
    const unsigned threads = 256;
    const size_t nn = (size_t)(n ? n : 1), mm = (size_t)(m ? m : 1);
    const bool weighted = d->out.weights != NULL;
    uint64_t *keys = NULL, *keys_sorted = NULL, *packed = NULL, *packed_sorted = NULL;
    uint32_t *arc_keys = NULL, *arc_keys_sorted = NULL;
    lg_vertex_t *ids = NULL, *sources = NULL;
    int64_t *degree = NULL, *new_degree = NULL, *max_degree = NULL, *bin_begin = NULL;
    lg_edge_t *from_directed = NULL; /* where each new source's arcs are listed */
    lg__dev_pull pull;
    memset(&pull, 0, sizeof pull);
    LG_TRY_OR_CLEANUP(lg__device_malloc(&keys, nn * sizeof *keys), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&keys_sorted, nn * sizeof *keys_sorted),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&ids, nn * sizeof *ids), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&degree, nn * sizeof *degree), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&new_degree, (nn + 1) * sizeof *new_degree),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&max_degree, sizeof *max_degree), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&bin_begin, LG_BINS * sizeof *bin_begin),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&pull.perm, nn * sizeof *pull.perm),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&pull.rank, nn * sizeof *pull.rank),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&pull.csr.offsets, (nn + 1) * sizeof(lg_edge_t)),
                      "allocating the relabelled in-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&pull.csr.indices, mm * sizeof(lg_vertex_t)),
                      "allocating the relabelled in-edges");
    if (weighted)
        LG_TRY_OR_CLEANUP(lg__device_malloc(&pull.csr.weights, mm * sizeof(float)),
                          "allocating the relabelled in-edges");

    if (d->directed) {
        LG_TRY_OR_CLEANUP(hipMemsetAsync(degree, 0, nn * sizeof *degree, s->stream),
                          "counting in-degrees");
        if (m > 0)
            count_in_degrees<<<lg__blocks_for(m, threads), threads, 0, s->stream>>>(d->out.indices,
                                                                                    m, degree);
    } else {
        row_degrees<<<lg__blocks_for(n, threads), threads, 0, s->stream>>>(d->out.offsets, n,
                                                                           degree);
    }
    LG_TRY_OR_CLEANUP(lg__launched(), "counting in-degrees");
    LG_TRY_OR_CLEANUP(sort_by_length(s, degree, n, keys, keys_sorted, ids, max_degree, pull.perm),
                      "sorting vertices by degree");
    invert_permutation<<<lg__blocks_for(n + 1, threads), threads, 0, s->stream>>>(
        pull.perm, n, degree, pull.rank, new_degree);
    LG_TRY_OR_CLEANUP(lg__launched(), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg__exclusive_sum(&s->scratch, (const int64_t *)new_degree,
                                        (int64_t *)pull.csr.offsets, n + 1, s->stream),
                      "relabelling the graph");
    if (m > 0) {
        /* where each new source's out-arcs are listed: an undirected
         * graph's out-rows are its in-rows */
        const lg_edge_t *from = pull.csr.offsets;
        if (d->directed) {
            LG_TRY_OR_CLEANUP(lg__device_malloc(&from_directed, (nn + 1) * sizeof *from_directed),
                              "relabelling the arcs");
            from = from_directed;
            permuted_row_lengths<<<lg__blocks_for(n + 1, threads), threads, 0, s->stream>>>(
                d->out.offsets, pull.perm, n, new_degree);
            LG_TRY_OR_CLEANUP(lg__launched(), "relabelling the arcs");
            LG_TRY_OR_CLEANUP(lg__exclusive_sum(&s->scratch, (const int64_t *)new_degree,
                                                (int64_t *)from_directed, n + 1, s->stream),
                              "relabelling the arcs");
        }
        LG_TRY_OR_CLEANUP(lg__device_malloc(&arc_keys, mm * sizeof *arc_keys),
                          "relabelling the arcs");
        LG_TRY_OR_CLEANUP(lg__device_malloc(&arc_keys_sorted, mm * sizeof *arc_keys_sorted),
                          "relabelling the arcs");
        LG_TRY_OR_CLEANUP(lg__device_malloc(&sources, mm * sizeof *sources),
                          "relabelling the arcs");
        /* the arcs' sources, through the sort's spare key buffer */
        lg_vertex_t *heads = (lg_vertex_t *)arc_keys_sorted;
        LG_TRY_OR_CLEANUP(hipMemsetAsync(heads, 0, mm * sizeof *heads, s->stream),
                          "relabelling the arcs");
        mark_sources<<<lg__blocks_for(n, threads), threads, 0, s->stream>>>(from, n, heads);
        LG_TRY_OR_CLEANUP(lg__launched(), "relabelling the arcs");
        LG_TRY_OR_CLEANUP(lg__inclusive_scan(&s->scratch, (const lg_vertex_t *)heads, sources, m,
                                             lg__max_op(), s->stream),
                          "relabelling the arcs");
        if (weighted) {
            LG_TRY_OR_CLEANUP(lg__device_malloc(&packed, mm * sizeof *packed),
                              "relabelling the arcs");
            LG_TRY_OR_CLEANUP(lg__device_malloc(&packed_sorted, mm * sizeof *packed_sorted),
                              "relabelling the arcs");
        }
        list_arcs<<<lg__blocks_for(m, threads), threads, 0, s->stream>>>(
            from, pull.perm, pull.rank, d->out.offsets, d->out.indices, d->out.weights, sources, m,
            arc_keys, packed);
        LG_TRY_OR_CLEANUP(lg__launched(), "relabelling the arcs");
        if (weighted) {
            LG_TRY_OR_CLEANUP(lg__radix_sort_pairs(&s->scratch, (const uint32_t *)arc_keys,
                                                   arc_keys_sorted, (const uint64_t *)packed,
                                                   packed_sorted, m, bits_for(n), s->stream),
                              "sorting the relabelled arcs");
            unpack_weighted<<<lg__blocks_for(m, threads), threads, 0, s->stream>>>(
                packed_sorted, m, pull.csr.indices, pull.csr.weights);
        } else {
            LG_TRY_OR_CLEANUP(lg__radix_sort_pairs(&s->scratch, (const uint32_t *)arc_keys,
                                                   arc_keys_sorted, (const lg_vertex_t *)sources,
                                                   pull.csr.indices, m, bits_for(n), s->stream),
                              "sorting the relabelled arcs");
        }
        LG_TRY_OR_CLEANUP(lg__launched(), "relabelling the arcs");
    }
    LG_TRY_OR_CLEANUP(read_bins(s, pull.csr.offsets, NULL, n, bin_begin, pull.bin_begin),
                      "binning rows");
    d->pull = pull;
    d->pull_ready = true;
    memset(&pull, 0, sizeof pull);
cleanup:
    (void)lg__device_free(keys);
    (void)lg__device_free(keys_sorted);
    (void)lg__device_free(ids);
    (void)lg__device_free(degree);
    (void)lg__device_free(new_degree);
    (void)lg__device_free(max_degree);
    (void)lg__device_free(bin_begin);
    (void)lg__device_free(from_directed);
    (void)lg__device_free(arc_keys);
    (void)lg__device_free(arc_keys_sorted);
    (void)lg__device_free(packed);
    (void)lg__device_free(packed_sorted);
    (void)lg__device_free(sources);
    lg__dev_pull_free(&pull);
    return st;
}

void lg__dev_pull_out_free(lg__dev_pull_out *p)
{
    (void)lg__device_free(p->csr.offsets);
    (void)lg__device_free(p->csr.indices);
    (void)lg__device_free(p->csr.weights);
    (void)lg__device_free(p->rows);
    memset(p, 0, sizeof *p);
}

/* Row i of the out-edges in the pull's numbering (from position to[i]): old
 * vertex perm[i]'s out-arcs, heads renamed by rank, weights with them.  A
 * wave a row, its lanes side by side along the row. */
__global__ void renamed_out_rows(const lg_edge_t *to, const lg_vertex_t *perm,
                                 const lg_vertex_t *rank, const lg_edge_t *offsets,
                                 const lg_vertex_t *indices, const float *weights, int64_t n,
                                 lg_vertex_t *new_indices, float *new_weights)
{
    const int64_t waves = (int64_t)gridDim.x * (blockDim.x / LG_WAVE_SIZE);
    for (int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / LG_WAVE_SIZE; i < n;
         i += waves) {
        const lg_edge_t base = offsets[perm[i]], len = offsets[perm[i] + 1] - base;
        for (lg_edge_t k = lg__lane_id(); k < len; k += LG_WAVE_SIZE) {
            new_indices[to[i] + k] = rank[indices[base + k]];
            if (weights)
                new_weights[to[i] + k] = weights[base + k];
        }
    }
}

/* The out-edges in the pull's numbering (struct lg__dev_pull_out): each new
 * row's length, their exclusive sum as offsets, the rows copied with their
 * heads renamed, and the rows sorted by length (a stable radix sort, as the
 * pull's vertices are) and binned. */
lg_status_t lg__dev_pull_out_build(lg__gpu_state *s, lg__dev_graph *d, const char *fn)
{
    lg_status_t st = LG_OK;
    const int64_t n = d->n, m = d->m;
    const unsigned threads = 256;
    const size_t nn = (size_t)(n ? n : 1), mm = (size_t)(m ? m : 1);
    const lg__dev_pull &pull = d->pull;
    uint64_t *keys = NULL, *keys_sorted = NULL;
    lg_vertex_t *ids = NULL;
    int64_t *length = NULL, *max_length = NULL, *bin_begin = NULL;
    lg__dev_pull_out out;
    memset(&out, 0, sizeof out);
    LG_TRY_OR_CLEANUP(lg__device_malloc(&out.csr.offsets, (nn + 1) * sizeof(lg_edge_t)),
                      "allocating the relabelled out-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&out.csr.indices, mm * sizeof(lg_vertex_t)),
                      "allocating the relabelled out-edges");
    if (d->out.weights)
        LG_TRY_OR_CLEANUP(lg__device_malloc(&out.csr.weights, mm * sizeof(float)),
                          "allocating the relabelled out-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&out.rows, nn * sizeof *out.rows),
                      "allocating the relabelled out-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&length, (nn + 1) * sizeof *length),
                      "relabelling the out-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&max_length, sizeof *max_length),
                      "relabelling the out-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&keys, nn * sizeof *keys), "relabelling the out-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&keys_sorted, nn * sizeof *keys_sorted),
                      "relabelling the out-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&ids, nn * sizeof *ids), "relabelling the out-edges");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&bin_begin, LG_BINS * sizeof *bin_begin),
                      "binning the out-edges");
    permuted_row_lengths<<<lg__blocks_for(n + 1, threads), threads, 0, s->stream>>>(
        d->out.offsets, pull.perm, n, length);
    LG_TRY_OR_CLEANUP(lg__launched(), "relabelling the out-edges");
    LG_TRY_OR_CLEANUP(lg__exclusive_sum(&s->scratch, (const int64_t *)length,
                                        (int64_t *)out.csr.offsets, n + 1, s->stream),
                      "relabelling the out-edges");
    renamed_out_rows<<<lg__blocks_for(n * (int64_t)s->info.wave_size, threads), threads, 0,
                       s->stream>>>(out.csr.offsets, pull.perm, pull.rank, d->out.offsets,
                                    d->out.indices, d->out.weights, n, out.csr.indices,
                                    out.csr.weights);
    LG_TRY_OR_CLEANUP(lg__launched(), "relabelling the out-edges");
    LG_TRY_OR_CLEANUP(sort_by_length(s, length, n, keys, keys_sorted, ids, max_length, out.rows),
                      "sorting rows by out-degree");
    LG_TRY_OR_CLEANUP(read_bins(s, out.csr.offsets, out.rows, n, bin_begin, out.bin_begin),
                      "binning the out-edges");
    d->pull_out = out;
    d->pull_out_ready = true;
    memset(&out, 0, sizeof out);
cleanup:
    (void)lg__device_free(keys);
    (void)lg__device_free(keys_sorted);
    (void)lg__device_free(ids);
    (void)lg__device_free(length);
    (void)lg__device_free(max_length);
    (void)lg__device_free(bin_begin);
    lg__dev_pull_out_free(&out);
    return st;
}
