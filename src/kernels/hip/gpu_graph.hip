/*
 * gpu_graph.hip - a graph's device copy: upload, the in-edges built on the
 * device, and the pull structure of the PageRank kernels.
 *
 * The pull structure (build_pull): the in-edges with the vertices renumbered
 * by in-degree, descending, so that the degree bins of the pull kernels
 * (load balance, cf. the row binning of CSR-Adaptive, Greathouse & Daga,
 * SC'14) are ranges of rows: a row of d in-arcs gets the smallest
 * power-of-two group of lanes (1 .. LG_PULL_BLOCK) with at most
 * LG_ARCS_PER_LANE arcs a lane; longer rows get a whole block.  The groups do
 * not depend on the wave width.
 */
#include "gpu.h"

#include <sched.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <thread>

static int bits_for(int64_t n)
{
    int b = 1;
    while (b < 62 && ((int64_t)1 << b) < n)
        b++;
    return b;
}

static void lg_dev_pull_free(lg_dev_pull *p)
{
    (void)lg_device_free(p->csr.offsets);
    (void)lg_device_free(p->csr.indices);
    (void)lg_device_free(p->csr.weights);
    (void)lg_device_free(p->perm);
    (void)lg_device_free(p->rank);
    memset(p, 0, sizeof *p);
}

void lg_dev_graph_free(void *device_graph)
{
    lg_dev_graph *d = (lg_dev_graph *)device_graph;
    if (!d)
        return;
    int current = 0;
    bool switched = hipGetDevice(&current) == hipSuccess && current != d->device &&
                    hipSetDevice(d->device) == hipSuccess;
    (void)lg_device_free(d->out.offsets);
    (void)lg_device_free(d->out.indices);
    if (d->out.weights)
        (void)lg_device_free(d->out.weights);
    lg_dev_pull_free(&d->pull);
    if (switched)
        (void)hipSetDevice(current);
    lg_gpu_host->free(d);
}

/* Large uploads.  The runtime copies pageable host memory through staging
 * buffers of its own with one thread: 7.5-9.1 GB/s on the H100's host
 * (docs/PERFORMANCE.md), 60 ms for kron22's 513 MB of indices, where the
 * link itself takes 54 GB/s from pinned memory.  Here the calling thread and
 * up to LG_STAGE_THREADS - 1 helpers (started once an upload) copy each
 * LG_STAGE_BYTES chunk into one of two pinned buffers, side by side, while
 * the device reads the other; the host copies (~27 GB/s with 8 threads
 * there, no more with 16: host memory bandwidth) set the pace.  The buffers
 * are small because pinning costs ~0.5 ms a MB there: 2 x 32 MB took 25-39
 * ms of a 100 ms first call.  Smaller arrays take the runtime's path; so
 * does everything when the buffers cannot be made. */
#ifndef LG_STAGE_BYTES
#define LG_STAGE_BYTES ((size_t)4 << 20)
#endif
#ifndef LG_STAGE_MIN /* -DLG_STAGE_MIN=SIZE_MAX: the runtime's path only (for comparisons) */
#define LG_STAGE_MIN ((size_t)8 << 20)
#endif
#ifndef LG_STAGE_THREADS
#define LG_STAGE_THREADS 8
#endif
#ifndef LG_STAGE_PARALLEL_MIN /* smaller chunks: the calling thread alone */
#define LG_STAGE_PARALLEL_MIN ((size_t)1 << 20)
#endif

void lg_staging_free(lg_gpu_state *s)
{
    for (int b = 0; b < 2; b++) {
        if (s->staged[b])
            (void)hipEventSynchronize(s->staged[b]);
        if (s->staging[b])
            (void)lg_pinned_free(s->staging[b]);
        if (s->staged[b])
            (void)hipEventDestroy(s->staged[b]);
        s->staging[b] = NULL;
        s->staged[b] = NULL;
    }
}

static bool staging_ready(lg_gpu_state *s)
{
    if (s->staging[1])
        return true;
    for (int b = 0; b < 2; b++)
        if (lg_pinned_malloc(&s->staging[b], LG_STAGE_BYTES) != hipSuccess ||
            hipEventCreateWithFlags(&s->staged[b], hipEventDisableTiming) != hipSuccess) {
            (void)hipGetLastError(); /* not sticky: the plain path goes on */
            lg_staging_free(s);
            return false;
        }
    return true;
}

/* The CPUs this process may run on (its affinity mask: a container or
 * taskset may allow fewer than the machine has), at least 1. */
static unsigned usable_cpus(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
#endif
    const unsigned hw = std::thread::hardware_concurrency();
    return hw < 1 ? 1 : hw;
}

/* A staged copy's host side: chunk k (bytes [k * LG_STAGE_BYTES, ...)) of
 * the host array passes through staging buffer k % 2, and `threads`
 * threads copy it between the two side by side, thread t its page-aligned
 * part t (empty parts count too: a chunk's tail may be a few bytes).  The
 * calling thread releases chunk k (run_chunk) once the buffer is ready, copies
 * part 0 (and the parts of helpers that could not be started) and waits
 * for the helpers' parts; each helper adds 1 to `copied` a chunk. */
struct stage_job {
    char *staging[2];
    char *host;
    size_t bytes;
    bool download; /* staging -> host; else host -> staging */
    unsigned threads, helpers;
    std::atomic<int64_t> released; /* the last chunk the helpers may copy */
    std::atomic<int64_t> copied;   /* parts the helpers have finished */
    std::atomic<bool> stop;        /* the copy ended (or failed): helpers leave */
    std::thread pool[LG_STAGE_THREADS];

    stage_job(lg_gpu_state *s, char *host_, size_t bytes_, bool download_)
        : host(host_), bytes(bytes_), download(download_), helpers(0), released(-1), copied(0),
          stop(false)
    {
        staging[0] = (char *)s->staging[0];
        staging[1] = (char *)s->staging[1];
        const unsigned cpus = usable_cpus();
        threads = LG_STAGE_BYTES < LG_STAGE_PARALLEL_MIN ? 1
                  : cpus > LG_STAGE_THREADS               ? LG_STAGE_THREADS
                                                          : cpus;
        try {
            for (unsigned t = 1; t < threads; t++, helpers++)
                pool[t] = std::thread(&stage_job::helper, this, t);
        } catch (...) {
            /* no more threads: the calling thread copies the parts of those not started */
        }
    }
    ~stage_job()
    {
        stop.store(true, std::memory_order_release);
        for (unsigned t = 1; t <= helpers; t++)
            pool[t].join();
    }
    int64_t chunks() const { return (int64_t)((bytes + LG_STAGE_BYTES - 1) / LG_STAGE_BYTES); }
    size_t chunk_len(int64_t k) const
    {
        return std::min((size_t)LG_STAGE_BYTES, bytes - (size_t)k * LG_STAGE_BYTES);
    }
    void copy_part(int64_t k, unsigned t) const
    {
        const size_t len = chunk_len(k);
        const size_t part = ((len + threads - 1) / threads + 4095) & ~(size_t)4095;
        const size_t lo = (size_t)t * part;
        if (lo >= len)
            return;
        char *h = host + (size_t)k * LG_STAGE_BYTES + lo, *st = staging[k & 1] + lo;
        if (download)
            memcpy(h, st, std::min(part, len - lo));
        else
            memcpy(st, h, std::min(part, len - lo));
    }
    void helper(unsigned t)
    {
        for (int64_t k = 0; k < chunks(); k++) {
            while (released.load(std::memory_order_acquire) < k) {
                if (stop.load(std::memory_order_acquire))
                    return;
                std::this_thread::yield();
            }
            copy_part(k, t);
            copied.fetch_add(1, std::memory_order_release);
        }
    }
    void run_chunk(int64_t k)
    {
        released.store(k, std::memory_order_release);
        copy_part(k, 0);
        for (unsigned t = helpers + 1; t < threads; t++)
            copy_part(k, t);
        while (copied.load(std::memory_order_acquire) < (k + 1) * (int64_t)helpers)
            std::this_thread::yield();
    }
};

/* dst (device) = src (pageable host), queued on the context's stream; the
 * caller synchronizes the stream before src may change.  On an error the
 * stream is drained first, so the caller may free dst at once. */
static hipError_t upload_array(lg_gpu_state *s, void *dst, const void *src, size_t bytes)
{
    if (bytes < LG_STAGE_MIN || !staging_ready(s))
        return hipMemcpyAsync(dst, src, bytes, hipMemcpyHostToDevice, s->stream);
    hipError_t e = hipSuccess;
    {
        stage_job job(s, (char *)src, bytes, false);
        for (int64_t k = 0; k < job.chunks() && e == hipSuccess; k++) {
            const int b = (int)(k & 1);
            /* the device is done with this buffer's previous chunk (an event
             * never recorded is complete) */
            if ((e = hipEventSynchronize(s->staged[b])) != hipSuccess)
                break;
            job.run_chunk(k);
            if ((e = hipMemcpyAsync((char *)dst + (size_t)k * LG_STAGE_BYTES, job.staging[b],
                                    job.chunk_len(k), hipMemcpyHostToDevice, s->stream)) ==
                hipSuccess)
                e = hipEventRecord(s->staged[b], s->stream);
        }
    }
    if (e != hipSuccess)
        (void)hipStreamSynchronize(s->stream); /* no queued copy outlives the arrays it names */
    return e;
}

/* dst (pageable host) = src (device), after the work queued on the
 * context's stream; complete on return.  Staged like uploads: the runtime's
 * path writes a fresh host array (its pages not yet touched) at ~1.1 GB/s
 * on the H100's host (28-30 ms for 33.5 MB of kron22 scores), where the
 * host threads here fault the pages in side by side. */
hipError_t lg_download(lg_gpu_state *s, void *dst, const void *src, size_t bytes)
{
    if (bytes < LG_STAGE_MIN || !staging_ready(s)) {
        hipError_t e = hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToHost, s->stream);
        hipError_t e2 = hipStreamSynchronize(s->stream);
        return e != hipSuccess ? e : e2;
    }
    hipError_t e = hipSuccess;
    {
        stage_job job(s, (char *)dst, bytes, true);
        const int64_t chunks = job.chunks();
        /* queues chunk q's copy into buffer q % 2 */
        auto fetch = [&](int64_t q) {
            const hipError_t r =
                hipMemcpyAsync(job.staging[q & 1], (const char *)src + (size_t)q * LG_STAGE_BYTES,
                               job.chunk_len(q), hipMemcpyDeviceToHost, s->stream);
            return r == hipSuccess ? hipEventRecord(s->staged[q & 1], s->stream) : r;
        };
        e = fetch(0);
        /* chunk k + 1 comes while chunk k is copied out (its buffer was
         * emptied, synchronously, the round before) */
        for (int64_t k = 0; k < chunks && e == hipSuccess; k++) {
            if (k + 1 < chunks)
                e = fetch(k + 1);
            if (e == hipSuccess && (e = hipEventSynchronize(s->staged[k & 1])) == hipSuccess)
                job.run_chunk(k);
        }
    }
    if (e != hipSuccess)
        (void)hipStreamSynchronize(s->stream);
    return e;
}

static lg_status_t upload(lg_gpu_state *s, const struct lg_graph_view *g, const char *fn,
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
    LG_TRY_OR_CLEANUP(lg_device_malloc(&d->out.offsets, (size_t)(g->n + 1) * sizeof(lg_edge_t)),
                      "allocating the CSR offsets");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&d->out.indices,
                                       (size_t)(g->m ? g->m : 1) * sizeof(lg_vertex_t)),
                      "allocating the CSR indices");
    if (g->out.weights)
        LG_TRY_OR_CLEANUP(lg_device_malloc(&d->out.weights,
                                           (size_t)(g->m ? g->m : 1) * sizeof(float)),
                          "allocating the CSR weights");
    LG_TRY_OR_CLEANUP(upload_array(s, d->out.offsets, g->out.offsets,
                                   (size_t)(g->n + 1) * sizeof(lg_edge_t)),
                      "uploading the CSR offsets");
    if (g->m > 0) {
        LG_TRY_OR_CLEANUP(upload_array(s, d->out.indices, g->out.indices,
                                       (size_t)g->m * sizeof(lg_vertex_t)),
                          "uploading the CSR indices");
        if (g->out.weights)
            LG_TRY_OR_CLEANUP(upload_array(s, d->out.weights, g->out.weights,
                                           (size_t)g->m * sizeof(float)),
                              "uploading the CSR weights");
    }
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "uploading the graph");
    *out = d;
    d = NULL;
cleanup:
    lg_dev_graph_free(d);
    return st;
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
    LG_FOR_EACH(v, n) {
        keys[v] = max_degree - (uint64_t)degree[v];
        ids[v] = (lg_vertex_t)v;
    }
}

/* rank[perm[i]] = i; new_degree[i] = degree[perm[i]] (new_degree[n] = 0). */
__global__ void invert_permutation(const lg_vertex_t *perm, int64_t n, const int64_t *degree,
                                   lg_vertex_t *rank, int64_t *new_degree)
{
    LG_FOR_EACH(i, n + 1) {
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
    LG_FOR_EACH(p, m) {
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
    LG_FOR_EACH(p, m) {
        const uint64_t x = values[p];
        indices[p] = (lg_vertex_t)(uint32_t)x;
        weights[p] = __uint_as_float((uint32_t)(x >> 32));
    }
}

/* bin_begin[k]: the first relabelled row with degree <= LG_ARCS_PER_LANE << k
 * (degrees do not increase along the rows); the last bin starts at row 0. */
__global__ void bin_bounds(const lg_edge_t *offsets, int64_t n, int64_t *bin_begin)
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
        if (offsets[mid + 1] - offsets[mid] <= limit)
            hi = mid;
        else
            lo = mid + 1;
    }
    bin_begin[k] = lo;
}

struct max_op {
    template <class T> __host__ __device__ T operator()(const T &a, const T &b) const
    {
        return a > b ? a : b;
    }
};

/* The pull structure: the in-edges with the vertices renumbered by in-degree,
 * descending (stable), so that the rows of each degree bin are one range, the
 * offsets of neighbouring lanes are neighbours, and the contributions of the
 * hubs, which most arcs read, share a few cache lines (degree ordering; see
 * e.g. Balaji & Lucia, "When is graph reordering an optimization?", IISWC'18).
 *
 * Built straight from the CSR, directed or not: the vertices are sorted by
 * in-degree (counted for a directed graph); the arcs are listed in the
 * order of their new source, a thread an arc (mark_sources, a running
 * maximum, list_arcs); then a stable radix sort by their new head over
 * log2(n) bits makes the in-rows, each in ascending source order as listed
 * (the sort does a counting sort's transpose; cf. Gustavson's CSR
 * transpose, ACM TOMS 1978).  32-bit keys and values (64-bit values when
 * weighted): 3 passes of 8 bits for 4M vertices, where sorting (row,
 * source) pairs of the relabelled rows took 7 (docs/PERFORMANCE.md).
 * Memory while it runs: the pull copy plus ~20 bytes an arc (keys, values,
 * the sort's own buffers). */
static lg_status_t build_pull(lg_gpu_state *s, lg_dev_graph *d, const char *fn)
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
    lg_dev_pull pull;
    memset(&pull, 0, sizeof pull);
    int64_t max_host = 0;
    LG_TRY_OR_CLEANUP(lg_device_malloc(&keys, nn * sizeof *keys), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&keys_sorted, nn * sizeof *keys_sorted),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&ids, nn * sizeof *ids), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&degree, nn * sizeof *degree), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&new_degree, (nn + 1) * sizeof *new_degree),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&max_degree, sizeof *max_degree), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&bin_begin, LG_BINS * sizeof *bin_begin),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&pull.perm, nn * sizeof *pull.perm),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&pull.rank, nn * sizeof *pull.rank),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&pull.csr.offsets, (nn + 1) * sizeof(lg_edge_t)),
                      "allocating the relabelled in-edges");
    LG_TRY_OR_CLEANUP(lg_device_malloc(&pull.csr.indices, mm * sizeof(lg_vertex_t)),
                      "allocating the relabelled in-edges");
    if (weighted)
        LG_TRY_OR_CLEANUP(lg_device_malloc(&pull.csr.weights, mm * sizeof(float)),
                          "allocating the relabelled in-edges");

    if (d->directed) {
        LG_TRY_OR_CLEANUP(hipMemsetAsync(degree, 0, nn * sizeof *degree, s->stream),
                          "counting in-degrees");
        if (m > 0)
            count_in_degrees<<<lg_blocks_for(m, threads), threads, 0, s->stream>>>(
                d->out.indices, m, degree);
    } else {
        row_degrees<<<lg_blocks_for(n, threads), threads, 0, s->stream>>>(d->out.offsets, n,
                                                                          degree);
    }
    LG_TRY_OR_CLEANUP(hipGetLastError(), "counting in-degrees");
    /* the largest in-degree bounds the sort keys: max_degree - degree */
    LG_TRY_OR_CLEANUP(lg_reduce(&s->scratch, (const int64_t *)degree, max_degree, n, max_op(),
                                (int64_t)0, s->stream),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMemcpyAsync(&max_host, max_degree, sizeof max_host, hipMemcpyDeviceToHost,
                                     s->stream),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "relabelling the graph");
    degree_keys<<<lg_blocks_for(n, threads), threads, 0, s->stream>>>(degree, n,
                                                                     (uint64_t)max_host, keys, ids);
    LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_radix_sort_pairs(&s->scratch, (const uint64_t *)keys, keys_sorted,
                                          (const lg_vertex_t *)ids, pull.perm, n,
                                          bits_for(max_host + 1), s->stream),
                      "sorting vertices by degree");
    invert_permutation<<<lg_blocks_for(n + 1, threads), threads, 0, s->stream>>>(
        pull.perm, n, degree, pull.rank, new_degree);
    LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_exclusive_sum(&s->scratch, (const int64_t *)new_degree,
                                       (int64_t *)pull.csr.offsets, n + 1, s->stream),
                      "relabelling the graph");
    if (m > 0) {
        /* where each new source's out-arcs are listed: an undirected
         * graph's out-rows are its in-rows */
        const lg_edge_t *from = pull.csr.offsets;
        if (d->directed) {
            LG_TRY_OR_CLEANUP(lg_device_malloc(&from_directed, (nn + 1) * sizeof *from_directed),
                              "relabelling the arcs");
            from = from_directed;
            permuted_row_lengths<<<lg_blocks_for(n + 1, threads), threads, 0, s->stream>>>(
                d->out.offsets, pull.perm, n, new_degree);
            LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the arcs");
            LG_TRY_OR_CLEANUP(lg_exclusive_sum(&s->scratch, (const int64_t *)new_degree,
                                               (int64_t *)from_directed, n + 1, s->stream),
                              "relabelling the arcs");
        }
        LG_TRY_OR_CLEANUP(lg_device_malloc(&arc_keys, mm * sizeof *arc_keys),
                          "relabelling the arcs");
        LG_TRY_OR_CLEANUP(lg_device_malloc(&arc_keys_sorted, mm * sizeof *arc_keys_sorted),
                          "relabelling the arcs");
        LG_TRY_OR_CLEANUP(lg_device_malloc(&sources, mm * sizeof *sources), "relabelling the arcs");
        /* the arcs' sources, through the sort's spare key buffer */
        lg_vertex_t *heads = (lg_vertex_t *)arc_keys_sorted;
        LG_TRY_OR_CLEANUP(hipMemsetAsync(heads, 0, mm * sizeof *heads, s->stream),
                          "relabelling the arcs");
        mark_sources<<<lg_blocks_for(n, threads), threads, 0, s->stream>>>(from, n, heads);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the arcs");
        LG_TRY_OR_CLEANUP(lg_inclusive_scan(&s->scratch, (const lg_vertex_t *)heads, sources, m,
                                            max_op(), s->stream),
                          "relabelling the arcs");
        if (weighted) {
            LG_TRY_OR_CLEANUP(lg_device_malloc(&packed, mm * sizeof *packed),
                              "relabelling the arcs");
            LG_TRY_OR_CLEANUP(lg_device_malloc(&packed_sorted, mm * sizeof *packed_sorted),
                              "relabelling the arcs");
        }
        list_arcs<<<lg_blocks_for(m, threads), threads, 0, s->stream>>>(
            from, pull.perm, pull.rank, d->out.offsets, d->out.indices, d->out.weights, sources,
            m, arc_keys, packed);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the arcs");
        if (weighted) {
            LG_TRY_OR_CLEANUP(lg_radix_sort_pairs(&s->scratch, (const uint32_t *)arc_keys,
                                                  arc_keys_sorted, (const uint64_t *)packed,
                                                  packed_sorted, m, bits_for(n), s->stream),
                              "sorting the relabelled arcs");
            unpack_weighted<<<lg_blocks_for(m, threads), threads, 0, s->stream>>>(
                packed_sorted, m, pull.csr.indices, pull.csr.weights);
        } else {
            LG_TRY_OR_CLEANUP(lg_radix_sort_pairs(&s->scratch, (const uint32_t *)arc_keys,
                                                  arc_keys_sorted, (const lg_vertex_t *)sources,
                                                  pull.csr.indices, m, bits_for(n), s->stream),
                              "sorting the relabelled arcs");
        }
        LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the arcs");
    }
    bin_bounds<<<1, LG_BINS, 0, s->stream>>>(pull.csr.offsets, n, bin_begin);
    LG_TRY_OR_CLEANUP(hipGetLastError(), "binning rows");
    LG_TRY_OR_CLEANUP(hipMemcpyAsync(pull.bin_begin, bin_begin, LG_BINS * sizeof(int64_t),
                                     hipMemcpyDeviceToHost, s->stream),
                      "binning rows");
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "relabelling the graph");
    d->pull = pull;
    d->pull_ready = true;
    memset(&pull, 0, sizeof pull);
cleanup:
    (void)lg_device_free(keys);
    (void)lg_device_free(keys_sorted);
    (void)lg_device_free(ids);
    (void)lg_device_free(degree);
    (void)lg_device_free(new_degree);
    (void)lg_device_free(max_degree);
    (void)lg_device_free(bin_begin);
    (void)lg_device_free(from_directed);
    (void)lg_device_free(arc_keys);
    (void)lg_device_free(arc_keys_sorted);
    (void)lg_device_free(packed);
    (void)lg_device_free(packed_sorted);
    (void)lg_device_free(sources);
    lg_dev_pull_free(&pull);
    return st;
}

lg_status_t lg_dev_graph_get(lg_gpu_state *s, const struct lg_graph_view *g, const char *fn,
                             bool need_pull, lg_dev_graph **out, bool *temporary)
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
    if (need_pull && !d->pull_ready && (st = build_pull(s, d, fn)) != LG_OK) {
        /* Dropped, cached or not: a failure here is mostly the device's
         * memory, and a cached copy that keeps its CSR would hold that
         * memory and fail the same way on every later call.  The next call
         * uploads afresh. */
        if (!*temporary)
            *g->device_cache = NULL;
        lg_dev_graph_free(d);
        return st;
    }
    *out = d;
    return LG_OK;
}
