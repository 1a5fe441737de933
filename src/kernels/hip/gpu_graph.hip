/*
 * gpu_graph.hip - a graph's device copy: upload, the in-edges built on the
 * device, and the pull structure of the PageRank kernels.
 *
 * In-edges (CSC) of a directed graph: the arcs are radix-sorted by
 * destination (prims.h; stable, so each in-row keeps its sources in
 * ascending order, as the CPU's CSC does) with the arc's index as the value;
 * each sorted arc's source is then found by a binary search of the CSR
 * offsets, and the in-offsets by a lower bound of each vertex in the sorted
 * destinations.  Memory: 24 bytes an arc while it runs.
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

__global__ void iota_kernel(int64_t *out, int64_t m)
{
    LG_FOR_EACH(i, m)
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
    LG_FOR_EACH(i, m) {
        int64_t e = perm[i];
        in_indices[i] = row_of_arc(out_offsets, n, e);
        if (in_weights)
            in_weights[i] = out_weights[e];
    }
}

/* offsets[v] = the first i with keys[i] >= v, for v in [0, n]. */
template <class K>
__global__ void lower_bounds(const K *keys, int64_t m, int64_t *offsets, int64_t n)
{
    LG_FOR_EACH(v, n + 1) {
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
}

static int bits_for(int64_t n)
{
    int b = 1;
    while (b < 62 && ((int64_t)1 << b) < n)
        b++;
    return b;
}

static void lg_dev_pull_free(lg_dev_pull *p)
{
    (void)hipFree(p->csr.offsets);
    (void)hipFree(p->csr.indices);
    (void)hipFree(p->csr.weights);
    (void)hipFree(p->perm);
    (void)hipFree(p->rank);
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
            (void)hipHostFree(s->staging[b]);
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
        if (hipHostMalloc(&s->staging[b], LG_STAGE_BYTES, hipHostMallocDefault) != hipSuccess ||
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
    LG_TRY_OR_CLEANUP(upload_array(s, d->out.offsets, g->offsets,
                                   (size_t)(g->n + 1) * sizeof(lg_edge_t)),
                      "uploading the CSR offsets");
    if (g->m > 0) {
        LG_TRY_OR_CLEANUP(upload_array(s, d->out.indices, g->indices,
                                       (size_t)g->m * sizeof(lg_vertex_t)),
                          "uploading the CSR indices");
        if (g->weights)
            LG_TRY_OR_CLEANUP(upload_array(s, d->out.weights, g->weights,
                                           (size_t)g->m * sizeof(float)),
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

__global__ void in_degree_keys(const lg_edge_t *offsets, int64_t n, uint64_t max_degree,
                               uint64_t *keys, lg_vertex_t *ids, int64_t *degree)
{
    LG_FOR_EACH(v, n) {
        int64_t d = offsets[v + 1] - offsets[v];
        keys[v] = max_degree - (uint64_t)d; /* ascending keys: descending degrees */
        ids[v] = (lg_vertex_t)v;
        degree[v] = d;
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

/* Arc p of the relabelled rows: row i (found by binary search), the k-th
 * arc of old row perm[i], its source renamed; as a sort key (row <<
 * ROW_KEY_SHIFT | source) so that a radix sort can order each row by
 * source, and with its weight at the key's position when weighted. */
#define ROW_KEY_SHIFT 32 /* vertex ids fit in 32 bits (lg_vertex_t) */
__global__ void relabel_arcs(const lg_edge_t *new_offsets, int64_t n, const lg_vertex_t *perm,
                             const lg_vertex_t *rank, const lg_edge_t *old_offsets,
                             const lg_vertex_t *old_indices, const float *old_weights,
                             uint64_t *keys, float *weights, int64_t m)
{
    LG_FOR_EACH(p, m) {
        lg_vertex_t i = row_of_arc(new_offsets, n, p);
        lg_edge_t q = old_offsets[perm[i]] + (p - new_offsets[i]);
        keys[p] = (uint64_t)(uint32_t)i << ROW_KEY_SHIFT | (uint32_t)rank[old_indices[q]];
        if (weights)
            weights[p] = old_weights[q];
    }
}

__global__ void low_words(const uint64_t *keys, lg_vertex_t *indices, int64_t m)
{
    LG_FOR_EACH(p, m)
        indices[p] = (lg_vertex_t)(uint32_t)keys[p];
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
    __host__ __device__ int64_t operator()(const int64_t &a, const int64_t &b) const
    {
        return a > b ? a : b;
    }
};

/* The pull structure: the in-edges with the vertices renumbered by in-degree,
 * descending (stable), so that the rows of each degree bin are one range, the
 * offsets of neighbouring lanes are neighbours, and the contributions of the
 * hubs, which most arcs read, share a few cache lines (degree ordering; see
 * e.g. Balaji & Lucia, "When is graph reordering an optimization?", IISWC'18). */
static lg_status_t build_pull(lg_gpu_state *s, lg_dev_graph *d, const char *fn)
{
    lg_status_t st = LG_OK;
    const int64_t n = d->n, m = d->m;
    const unsigned threads = 256;
    const size_t nn = (size_t)(n ? n : 1), mm = (size_t)(m ? m : 1);
    uint64_t *keys = NULL, *keys_sorted = NULL, *arc_keys = NULL, *arc_keys_sorted = NULL;
    float *arc_weights = NULL;
    lg_vertex_t *ids = NULL;
    int64_t *degree = NULL, *new_degree = NULL, *max_degree = NULL, *bin_begin = NULL;
    lg_dev_pull pull;
    memset(&pull, 0, sizeof pull);
    int64_t max_host = 0;
    LG_TRY_OR_CLEANUP(hipMalloc(&keys, nn * sizeof *keys), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&keys_sorted, nn * sizeof *keys_sorted), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&ids, nn * sizeof *ids), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&degree, nn * sizeof *degree), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&new_degree, (nn + 1) * sizeof *new_degree), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&max_degree, sizeof *max_degree), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&bin_begin, LG_BINS * sizeof *bin_begin), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&pull.perm, nn * sizeof *pull.perm), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&pull.rank, nn * sizeof *pull.rank), "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMalloc(&pull.csr.offsets, (nn + 1) * sizeof(lg_edge_t)),
                      "allocating the relabelled in-edges");
    LG_TRY_OR_CLEANUP(hipMalloc(&pull.csr.indices, mm * sizeof(lg_vertex_t)),
                      "allocating the relabelled in-edges");
    if (d->in.weights)
        LG_TRY_OR_CLEANUP(hipMalloc(&pull.csr.weights, mm * sizeof(float)),
                          "allocating the relabelled in-edges");

    /* the largest in-degree bounds the sort keys: max_degree - degree */
    in_degree_keys<<<lg_blocks_for(n, threads), threads, 0, s->stream>>>(d->in.offsets, n, 0,
                                                                         keys, ids, degree);
    LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the graph");
    LG_TRY_OR_CLEANUP(lg_reduce(&s->scratch, (const int64_t *)degree, max_degree, n, max_op(),
                                (int64_t)0, s->stream),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipMemcpyAsync(&max_host, max_degree, sizeof max_host, hipMemcpyDeviceToHost,
                                     s->stream),
                      "relabelling the graph");
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "relabelling the graph");
    in_degree_keys<<<lg_blocks_for(n, threads), threads, 0, s->stream>>>(
        d->in.offsets, n, (uint64_t)max_host, keys, ids, degree);
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
        /* each row sorted by (new) source: a warp's gathers then walk the
         * contribution vector upwards, and the hubs' lines are shared */
        LG_TRY_OR_CLEANUP(hipMalloc(&arc_keys, mm * sizeof *arc_keys), "relabelling the arcs");
        LG_TRY_OR_CLEANUP(hipMalloc(&arc_keys_sorted, mm * sizeof *arc_keys_sorted),
                          "relabelling the arcs");
        if (d->in.weights)
            LG_TRY_OR_CLEANUP(hipMalloc(&arc_weights, mm * sizeof *arc_weights),
                              "relabelling the arcs");
        relabel_arcs<<<lg_blocks_for(m, threads), threads, 0, s->stream>>>(
            pull.csr.offsets, n, pull.perm, pull.rank, d->in.offsets, d->in.indices,
            d->in.weights, arc_keys, arc_weights, m);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the graph");
        const int id_bits = bits_for(n);
        if (arc_weights)
            LG_TRY_OR_CLEANUP(lg_radix_sort_pairs(&s->scratch, (const uint64_t *)arc_keys,
                                                  arc_keys_sorted, (const float *)arc_weights,
                                                  pull.csr.weights, m, ROW_KEY_SHIFT + id_bits, s->stream),
                              "sorting the relabelled arcs");
        else
            LG_TRY_OR_CLEANUP(lg_radix_sort_keys(&s->scratch, (const uint64_t *)arc_keys,
                                                 arc_keys_sorted, m, ROW_KEY_SHIFT + id_bits, s->stream),
                              "sorting the relabelled arcs");
        low_words<<<lg_blocks_for(m, threads), threads, 0, s->stream>>>(arc_keys_sorted,
                                                                        pull.csr.indices, m);
        LG_TRY_OR_CLEANUP(hipGetLastError(), "relabelling the graph");
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
    (void)hipFree(keys);
    (void)hipFree(keys_sorted);
    (void)hipFree(ids);
    (void)hipFree(degree);
    (void)hipFree(new_degree);
    (void)hipFree(max_degree);
    (void)hipFree(bin_begin);
    (void)hipFree(arc_keys);
    (void)hipFree(arc_keys_sorted);
    (void)hipFree(arc_weights);
    lg_dev_pull_free(&pull);
    return st;
}

/* A directed graph's device CSC (never the CSR an undirected graph aliases). */
static void free_in_edges(lg_dev_graph *d)
{
    if (!d->directed || !d->in.offsets)
        return;
    (void)hipFree(d->in.offsets);
    (void)hipFree(d->in.indices);
    (void)hipFree(d->in.weights);
    memset(&d->in, 0, sizeof d->in);
    d->in_ready = false;
}

lg_status_t lg_dev_graph_get(lg_gpu_state *s, const struct lg_plugin_graph *g, const char *fn,
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
    if (need_pull && !d->pull_ready) {
        /* a directed graph's CSC is only the way to the pull structure:
         * built for it, freed after it (the pull copy holds the same arcs) */
        if (!d->in_ready && (st = build_in_edges(s, d, fn)) != LG_OK)
            goto cleanup;
        if ((st = build_pull(s, d, fn)) != LG_OK)
            goto cleanup;
        if (d->directed)
            free_in_edges(d);
    }
    *out = d;
    return LG_OK;
cleanup:
    /* Dropped, cached or not: a failure here is mostly the device's memory,
     * and a cached copy that keeps its CSR (and CSC) would hold that memory
     * and fail the same way on every later call.  The next call uploads
     * afresh. */
    if (!*temporary)
        *g->device_cache = NULL;
    lg_dev_graph_free(d);
    return st;
}
