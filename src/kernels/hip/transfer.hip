/*
 * transfer.hip - host <-> device copies of large arrays: a graph's upload
 * (lg__upload), results' download (lg__download), and the download of small
 * integers such as BFS distances (lg__download_narrowed).
 *
 * Why: the runtime copies pageable host memory through staging buffers of
 * its own with one host thread, well below the link's rate from pinned
 * memory, and a download into a freshly allocated host array takes all its
 * page faults on that one thread too.  Pinning or registering the caller's
 * arrays for each call costs as much as the copy or more.
 *
 * Method: LG_STAGE_BUFFERS (4) pinned buffers of the context (LG_STAGE_BYTES,
 * 8 MB, each, made when it opens, kept until it closes, made again after a
 * call that ran out of memory freed them).  An array is cut into chunks of
 * LG_STAGE_BYTES; chunk k passes through buffer k % 4, so the DMA of one
 * chunk overlaps the host copy of the next ones, and an event a buffer says
 * when the device is done with it.  On the H200 host (16 threads) kron:24's
 * 2.1 GB went up at 52 GB/s this way, the link's rate from pinned memory
 * (55), against 22-26 GB/s with two 4 MB buffers and 6.5-9 through the
 * runtime's own path (docs/decisions/staged-uploads.md).
 * The host side of each chunk is split into page-aligned parts copied side
 * by side by the core's OpenMP threads (lg_plugin_host.parallel, as many as
 * the context's CPU threads): the memcpy and its page faults run in
 * parallel, and the team is the CPU kernels', already started, so a copy
 * pays no thread start (creating 7 threads took 176 us on the H100 host,
 * longer than a 2 MB DMA).  The pace is then the host's memory bandwidth
 * (each byte is read, written, and read again by the DMA).
 * A narrowed download crosses the link as 1- or 2-byte integers (a kernel
 * packs them) and the host side of each chunk sign-extends them into the
 * caller's 4-byte array: a quarter or half of the bytes to move and read.
 * Arrays under LG_STAGE_MIN take the runtime's path (narrowed ones do not),
 * and so does everything when the buffers cannot be made.
 *
 * Cost: 4 * LG_STAGE_BYTES (32 MB) of pinned host memory a context, pinned
 * in 12 ms when it opens; a copy waits on one event and runs one parallel
 * loop a chunk.
 */
#include "gpu.h"

#include <string.h>

#include <algorithm>

/* the chunk and buffer size: large enough that a chunk's fixed costs (an
 * event wait, a parallel loop, a copy's launch: 10-20 us) are small beside
 * its 0.15 ms on the link, small because pinning host memory takes time in
 * proportion to its size (0.4 ms a MB), paid when the context opens */
#ifndef LG_STAGE_BYTES
#define LG_STAGE_BYTES ((size_t)8 << 20)
#endif
/* smaller arrays take the runtime's path: a few chunks leave little to
 * overlap (-DLG_STAGE_MIN=SIZE_MAX: the runtime's path only, to compare) */
#ifndef LG_STAGE_MIN
#define LG_STAGE_MIN ((size_t)8 << 20)
#endif
#ifndef LG_STAGE_PARALLEL_MIN /* smaller chunks: the calling thread alone */
#define LG_STAGE_PARALLEL_MIN ((size_t)1 << 20)
#endif

void lg__staging_free(lg__gpu_state *s)
{
    for (int b = 0; b < LG_STAGE_BUFFERS; b++) {
        if (s->staged[b])
            (void)hipEventSynchronize(s->staged[b]);
        if (s->staging[b])
            (void)lg__pinned_free(s->staging[b]);
        if (s->staged[b])
            (void)hipEventDestroy(s->staged[b]);
        s->staging[b] = NULL;
        s->staged[b] = NULL;
    }
}

bool lg__staging_ready(lg__gpu_state *s)
{
    if (s->staging[LG_STAGE_BUFFERS - 1])
        return true;
    for (int b = 0; b < LG_STAGE_BUFFERS; b++)
        if (lg__pinned_malloc(&s->staging[b], LG_STAGE_BYTES) != hipSuccess ||
            hipEventCreateWithFlags(&s->staged[b], hipEventDisableTiming) != hipSuccess) {
            (void)hipGetLastError(); /* not sticky: the plain path goes on */
            lg__staging_free(s);
            return false;
        }
    return true;
}

/* Elements a chunk: a staging buffer's worth, or (a narrowed download) a
 * buffer's worth of the host array, so that a chunk's host copy, the
 * larger side, overlaps the next chunk's DMA. */
static size_t chunk_elements(unsigned stage_unit, unsigned host_unit)
{
    return LG_STAGE_BYTES / std::max(stage_unit, host_unit);
}

/* A staged copy's host side: chunk k of the array passes through staging
 * buffer k % 2, and its parts (page-aligned; empty ones count too: a
 * chunk's tail may be a few bytes) are copied side by side.  An element is
 * stage_unit bytes in the staging buffers and host_unit bytes in the host
 * array: equal for a plain copy (1 and 1), 1 or 2 and 4 for a narrowed
 * download (sign extension). */
struct stage_job {
    char *staging[LG_STAGE_BUFFERS];
    char *host;
    size_t elements;                /* of the whole array */
    unsigned stage_unit, host_unit; /* bytes an element */
    bool download;                  /* staging -> host; else host -> staging */
    int threads;                    /* parts a chunk */
    int64_t chunk;                  /* the one being copied */

    stage_job(lg__gpu_state *s, char *host_, size_t elements_, unsigned stage_unit_,
              unsigned host_unit_, bool download_)
        : host(host_), elements(elements_), stage_unit(stage_unit_), host_unit(host_unit_),
          download(download_), chunk(0)
    {
        for (int b = 0; b < LG_STAGE_BUFFERS; b++)
            staging[b] = (char *)s->staging[b];
        threads =
            LG_STAGE_BYTES < LG_STAGE_PARALLEL_MIN || s->host_threads < 1 ? 1 : s->host_threads;
    }
    size_t per_chunk() const /* elements */
    {
        return chunk_elements(stage_unit, host_unit);
    }
    int64_t chunks() const
    {
        return (int64_t)((elements + per_chunk() - 1) / per_chunk());
    }
    size_t chunk_len(int64_t k) const /* elements */
    {
        return std::min(per_chunk(), elements - (size_t)k * per_chunk());
    }
    size_t chunk_bytes(int64_t k) const /* in the staging buffer */
    {
        return chunk_len(k) * stage_unit;
    }
    void copy_part(int64_t k, int64_t t) const
    {
        const size_t len = chunk_len(k);
        const size_t part = ((len + threads - 1) / threads + 4095) & ~(size_t)4095;
        const size_t lo = (size_t)t * part;
        if (lo >= len)
            return;
        const size_t count = std::min(part, len - lo), first = (size_t)k * per_chunk() + lo;
        char *h = host + first * host_unit, *st = staging[k % LG_STAGE_BUFFERS] + lo * stage_unit;
        if (stage_unit == host_unit) {
            if (download)
                memcpy(h, st, count * host_unit);
            else
                memcpy(st, h, count * host_unit);
        } else if (stage_unit == 1) { /* narrowed download: sign extension */
            const int8_t *from = (const int8_t *)st;
            int32_t *to = (int32_t *)h;
            for (size_t i = 0; i < count; i++)
                to[i] = from[i];
        } else {
            const int16_t *from = (const int16_t *)st;
            int32_t *to = (int32_t *)h;
            for (size_t i = 0; i < count; i++)
                to[i] = from[i];
        }
    }
    static void part(void *job, int64_t t)
    {
        const stage_job *j = (const stage_job *)job;
        j->copy_part(j->chunk, t);
    }
    /* chunk k's parts, side by side; returns when all are copied */
    void run_chunk(int64_t k)
    {
        chunk = k;
        if (threads == 1)
            copy_part(k, 0);
        else
            lg__gpu_host->parallel(threads, threads, part, this);
    }
};

/* dst (device) = src (pageable host), queued on the context's stream; the
 * caller synchronizes the stream before src may change.  On an error the
 * stream is drained first, so the caller may free dst at once. */
hipError_t lg__upload(lg__gpu_state *s, void *dst, const void *src, size_t bytes)
{
    if (bytes < LG_STAGE_MIN || !lg__staging_ready(s))
        return hipMemcpyAsync(dst, src, bytes, hipMemcpyHostToDevice, s->stream);
    hipError_t e = hipSuccess;
    {
        stage_job job(s, (char *)src, bytes, 1, 1, false);
        for (int64_t k = 0; k < job.chunks() && e == hipSuccess; k++) {
            const int b = (int)(k % LG_STAGE_BUFFERS);
            /* the device is done with this buffer's previous chunk (an event
             * never recorded is complete) */
            if ((e = hipEventSynchronize(s->staged[b])) != hipSuccess)
                break;
            job.run_chunk(k);
            if ((e = hipMemcpyAsync((char *)dst + (size_t)k * LG_STAGE_BYTES, job.staging[b],
                                    job.chunk_bytes(k), hipMemcpyHostToDevice, s->stream)) ==
                hipSuccess)
                e = hipEventRecord(s->staged[b], s->stream);
        }
    }
    if (e != hipSuccess)
        (void)hipStreamSynchronize(s->stream); /* no queued copy outlives the arrays it names */
    return e;
}

/* The staged download of `elements` elements of stage_unit bytes at src
 * (device) into dst (host, host_unit bytes an element). */
static hipError_t staged_download(lg__gpu_state *s, void *dst, const void *src, size_t elements,
                                  unsigned stage_unit, unsigned host_unit)
{
    const size_t per_chunk = chunk_elements(stage_unit, host_unit);
    const int64_t chunks = (int64_t)((elements + per_chunk - 1) / per_chunk);
    /* queues chunk q's copy into buffer q % LG_STAGE_BUFFERS (emptied by
     * the loop below LG_STAGE_BUFFERS - 1 rounds before) */
    auto fetch = [&](int64_t q) {
        const size_t first = (size_t)q * per_chunk;
        const hipError_t r = hipMemcpyAsync(
            s->staging[q % LG_STAGE_BUFFERS], (const char *)src + first * stage_unit,
            std::min(per_chunk, elements - first) * stage_unit, hipMemcpyDeviceToHost, s->stream);
        return r == hipSuccess ? hipEventRecord(s->staged[q % LG_STAGE_BUFFERS], s->stream) : r;
    };
    hipError_t e = fetch(0);
    if (e == hipSuccess) {
        stage_job job(s, (char *)dst, elements, stage_unit, host_unit, true);
        /* chunk k + 1 comes while chunk k is copied out (its buffer was
         * emptied, synchronously, the round before) */
        for (int64_t k = 0; k < chunks && e == hipSuccess; k++) {
            if (k + 1 < chunks)
                e = fetch(k + 1);
            if (e == hipSuccess &&
                (e = hipEventSynchronize(s->staged[k % LG_STAGE_BUFFERS])) == hipSuccess)
                job.run_chunk(k);
        }
    }
    if (e != hipSuccess)
        (void)hipStreamSynchronize(s->stream);
    return e;
}

/* dst (pageable host) = src (device), after the work queued on the
 * context's stream; complete on return.  Staged like uploads: when dst is a
 * fresh array (its pages not yet touched) the runtime's path takes every
 * page fault on one thread, where the threads here take them side by side. */
hipError_t lg__download(lg__gpu_state *s, void *dst, const void *src, size_t bytes)
{
    if (bytes < LG_STAGE_MIN || !lg__staging_ready(s)) {
        hipError_t e = hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToHost, s->stream);
        hipError_t e2 = hipStreamSynchronize(s->stream);
        return e != hipSuccess ? e : e2;
    }
    return staged_download(s, dst, src, bytes, 1, 1);
}

/* The values of src packed into T (they fit: the caller checked). */
template <class T> __global__ void narrow(const int32_t *src, T *out, int64_t n)
{
    LG_FOR_EACH(i, n)
    {
        out[i] = (T)src[i];
    }
}

hipError_t lg__download_narrowed(lg__gpu_state *s, int32_t *dst, const int32_t *src, int64_t n,
                                 int32_t lo, int32_t hi, void *tmp)
{
    const unsigned width = lo >= INT8_MIN && hi <= INT8_MAX     ? 1
                           : lo >= INT16_MIN && hi <= INT16_MAX ? 2
                                                                : 4;
    if (width == 4 || (size_t)n * sizeof *dst < LG_STAGE_MIN || !lg__staging_ready(s))
        return lg__download(s, dst, src, (size_t)n * sizeof *dst);
    if (width == 1)
        narrow<<<lg__blocks_for(n, 256), 256, 0, s->stream>>>(src, (int8_t *)tmp, n);
    else
        narrow<<<lg__blocks_for(n, 256), 256, 0, s->stream>>>(src, (int16_t *)tmp, n);
    const hipError_t e = hipGetLastError();
    return e != hipSuccess ? e : staged_download(s, dst, tmp, (size_t)n, width, 4);
}

/* A call's result into the caller's array: device memory (output_memory
 * LG_MEMORY_DEVICE) gets a device-to-device copy, host memory lg__download;
 * complete on return. */
hipError_t lg__deliver(lg__gpu_state *s, void *dst, const void *src, size_t bytes)
{
    if (!s->device_outputs)
        return lg__download(s, dst, src, bytes);
    hipError_t e = hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, s->stream);
    hipError_t e2 = hipStreamSynchronize(s->stream);
    return e != hipSuccess ? e : e2;
}

hipError_t lg__deliver_narrowed(lg__gpu_state *s, int32_t *dst, const int32_t *src, int64_t n,
                                int32_t lo, int32_t hi, void *tmp)
{
    if (s->device_outputs) /* no link to save: the values stay on the device */
        return lg__deliver(s, dst, src, (size_t)n * sizeof *dst);
    return lg__download_narrowed(s, dst, src, n, lo, hi, tmp);
}
