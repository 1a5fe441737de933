/*
 * transfer.hip - host <-> device copies of large arrays: a graph's upload
 * (lg__upload) and the scores' download (lg__download).
 *
 * Why: the runtime copies pageable host memory through staging buffers of
 * its own with one host thread, well below the link's rate from pinned
 * memory, and a download into a freshly allocated host array takes all its
 * page faults on that one thread too.  Pinning or registering the caller's
 * arrays for each call costs as much as the copy or more.
 *
 * Method: double buffering through two small pinned buffers of the context
 * (LG_STAGE_BYTES each, made on its first large copy, kept until it
 * closes).  An array is cut into chunks of LG_STAGE_BYTES; chunk k passes
 * through buffer k % 2, so the DMA of one chunk overlaps the host copy of
 * the next, and an event a buffer says when the device is done with it.
 * The host side of each chunk is split among the calling thread and
 * helper threads (started once a copy: about one a chunk, at least
 * LG_STAGE_MIN_THREADS and at most LG_STAGE_THREADS in all), so the memcpy
 * and its page faults run side by side; the pace is then the host's memory
 * bandwidth (each byte is read, written, and read again by the DMA).
 * Arrays under LG_STAGE_MIN take the runtime's path, and so does everything
 * when the buffers cannot be made.
 *
 * Cost: 2 * LG_STAGE_BYTES of pinned host memory a context; a copy starts
 * and joins its helpers once and waits on one event a chunk.
 */
#include "gpu.h"

#include <sched.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <thread>

/* the chunk and buffer size: small, because pinning host memory takes time
 * in proportion to its size, paid on a context's first large copy */
#ifndef LG_STAGE_BYTES
#define LG_STAGE_BYTES ((size_t)4 << 20)
#endif
/* smaller arrays take the runtime's path: a few chunks leave little to
 * overlap (-DLG_STAGE_MIN=SIZE_MAX: the runtime's path only, to compare) */
#ifndef LG_STAGE_MIN
#define LG_STAGE_MIN ((size_t)8 << 20)
#endif
/* host threads a chunk: more do not copy faster once memory bandwidth is
 * the limit */
#ifndef LG_STAGE_THREADS
#define LG_STAGE_THREADS 8
#endif
#ifndef LG_STAGE_MIN_THREADS
#define LG_STAGE_MIN_THREADS 4
#endif
#ifndef LG_STAGE_PARALLEL_MIN /* smaller chunks: the calling thread alone */
#define LG_STAGE_PARALLEL_MIN ((size_t)1 << 20)
#endif

void lg__staging_free(lg__gpu_state *s)
{
    for (int b = 0; b < 2; b++) {
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

static bool staging_ready(lg__gpu_state *s)
{
    if (s->staging[1])
        return true;
    for (int b = 0; b < 2; b++)
        if (lg__pinned_malloc(&s->staging[b], LG_STAGE_BYTES) != hipSuccess ||
            hipEventCreateWithFlags(&s->staged[b], hipEventDisableTiming) != hipSuccess) {
            (void)hipGetLastError(); /* not sticky: the plain path goes on */
            lg__staging_free(s);
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

    stage_job(lg__gpu_state *s, char *host_, size_t bytes_, bool download_)
        : host(host_), bytes(bytes_), download(download_), helpers(0), released(-1), copied(0),
          stop(false)
    {
        staging[0] = (char *)s->staging[0];
        staging[1] = (char *)s->staging[1];
        /* about a thread a chunk, LG_STAGE_MIN_THREADS at least: a helper
         * costs its start and join, which a copy of a few chunks does not
         * win back */
        const int64_t cap = std::min<int64_t>({(int64_t)usable_cpus(), (int64_t)LG_STAGE_THREADS,
                                               std::max<int64_t>(chunks(), LG_STAGE_MIN_THREADS)});
        threads = LG_STAGE_BYTES < LG_STAGE_PARALLEL_MIN ? 1 : (unsigned)cap;
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
    int64_t chunks() const
    {
        return (int64_t)((bytes + LG_STAGE_BYTES - 1) / LG_STAGE_BYTES);
    }
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
hipError_t lg__upload(lg__gpu_state *s, void *dst, const void *src, size_t bytes)
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
 * context's stream; complete on return.  Staged like uploads: when dst is a
 * fresh array (its pages not yet touched) the runtime's path takes every
 * page fault on one thread, where the threads here take them side by side. */
hipError_t lg__download(lg__gpu_state *s, void *dst, const void *src, size_t bytes)
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
