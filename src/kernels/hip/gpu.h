/*
 * gpu.h - what the plugin's .hip files share: the per-context state, the
 * device copy of a graph, the device guard, grid sizing and error reporting.
 *
 * A graph's device copy (struct lg__dev_graph) is made on the first GPU call
 * that needs it and cached on the host graph (plugin.h's device_cache slot):
 * the CSR is uploaded as it is, and the pull kernels' in-edges (struct
 * lg__dev_pull) are built from it on the device by a radix sort of the arcs
 * by destination, directed or not (pull.hip).
 * All offsets are 64-bit (lg_edge_t), as on the host.
 */
#ifndef LG_GPU_H
#define LG_GPU_H

#include "plugin.h"
#include "prims.h"
#include "wave.h"

#include <string.h>

/* The services the core lent at lg_plugin_entry. */
extern const struct lg_plugin_host *lg__gpu_host;

/* One context's device, stream and scratch. */
/* The pinned buffers a large copy passes through (transfer.hip): four, so
 * that the host fills one while the link empties the others, with no wait
 * at a chunk's turn. */
#ifndef LG_STAGE_BUFFERS
#define LG_STAGE_BUFFERS 4
#endif

struct lg__gpu_state {
    int device;
    hipStream_t stream;
    bool own_stream;
    struct lg_device_info info;
    lg__scratch scratch;         /* temporary storage of prims.h */
    lg__scratch work;            /* the arrays of a BFS or CC call (lg__carve), kept
                          * between calls so that a call allocates nothing */
    int search_blocks;           /* BFS's cooperative grid (bfs.hip); -1 until asked */
    int host_threads;            /* the calling context's CPU threads (lg_exec.num_threads):
                          * the parts of a staged copy's chunk (transfer.hip) */
    struct lg_progress progress; /* the call's progress callback (lg_exec.progress),
                                  * told between kernel launches of its steps */
    bool device_outputs;         /* the call's outputs are device memory (lg_exec) */
    /* the pinned buffers of large copies (transfer.hip), made when the
     * context opens, kept until it closes */
    void *staging[LG_STAGE_BUFFERS];
    hipEvent_t staged[LG_STAGE_BUFFERS];
};

/* Makes the staging buffers of transfer.hip unless they are there; false
 * when they cannot be (large copies then take the runtime's path). */
bool lg__staging_ready(lg__gpu_state *s);
/* Frees the staging buffers of transfer.hip (the context is closing). */
void lg__staging_free(lg__gpu_state *s);

/* dst (device) = src (pageable host), queued on the context's stream; the
 * caller synchronizes the stream before src may change.  On an error the
 * stream is drained first, so the caller may free dst at once. */
hipError_t lg__upload(lg__gpu_state *s, void *dst, const void *src, size_t bytes);

/* dst (host) = src (device) after the work queued on the context's stream,
 * complete on return (large arrays through the staging buffers). */
hipError_t lg__download(lg__gpu_state *s, void *dst, const void *src, size_t bytes);

/* dst (host, n values) = src (device, n values, all within [lo, hi]), like
 * lg__download, but crossing the link as the narrowest signed integers that
 * hold [lo, hi] (1 or 2 bytes; 4 when neither does): packed into tmp
 * (device, at least 2 n bytes) by a kernel and sign-extended on the host.
 * Complete on return. */
hipError_t lg__download_narrowed(lg__gpu_state *s, int32_t *dst, const int32_t *src, int64_t n,
                                 int32_t lo, int32_t hi, void *tmp);
/* A result into the caller's output array: lg__download, or a
 * device-to-device copy when the call's outputs are device memory
 * (lg_exec.device_outputs); the narrowed form likewise. */
hipError_t lg__deliver(lg__gpu_state *s, void *dst, const void *src, size_t bytes);
hipError_t lg__deliver_narrowed(lg__gpu_state *s, int32_t *dst, const int32_t *src, int64_t n,
                                int32_t lo, int32_t hi, void *tmp);

struct lg__dev_csr {
    lg_edge_t *offsets;   /* n + 1 */
    lg_vertex_t *indices; /* m */
    float *weights;       /* m or NULL */
    double *weights64;    /* m: a float64 graph's exact weights (out-edges only), or NULL */
};

/* The in-edges as the pull kernels read them: vertices renumbered by
 * in-degree, descending (new id i is old vertex perm[i]; rank is the
 * inverse), sources renamed too.  Bin k, the rows handled by groups of 2^k
 * lanes (the last group a whole LG_PULL_BLOCK-thread block), is the row
 * range [bin_begin[k], bin_begin[k - 1]) (bin_begin[-1] = n): the longest
 * rows come first. */
#define LG_PULL_BLOCK 256
#define LG_BINS 9 /* groups of 1, 2, 4, ..., 256 lanes */
struct lg__dev_pull {
    struct lg__dev_csr csr;
    lg_vertex_t *perm, *rank;
    int64_t bin_begin[LG_BINS];
};

/* A directed graph's out-edges in the pull's numbering, for a kernel that
 * pulls both ways (HITS: h = A a after a = A^T h): row i is new vertex i's
 * out-arcs, heads renamed by the pull's rank.  The rows keep the pull's
 * numbering, so they are not in out-degree order; `rows` lists them by
 * out-degree, descending, and bin k is rows[bin_begin[k] .. bin_begin[k - 1])
 * as in the pull (the kernels' pull_shape.rows). */
struct lg__dev_pull_out {
    struct lg__dev_csr csr;
    lg_vertex_t *rows;
    int64_t bin_begin[LG_BINS];
};

struct lg__dev_graph {
    int device;
    int64_t n, m;
    bool directed;
    struct lg__dev_csr out;
    struct lg__dev_pull pull;
    bool pull_ready;
    struct lg__dev_pull_out pull_out; /* built the first time a kernel asks */
    bool pull_out_ready;
    /* a directed graph's in-edges in vertex order (the host's CSC, without
     * weights), uploaded the first time a kernel asks (lg__dev_in_edges) */
    struct lg__dev_csr in;
};

/* A row of d in-arcs gets the smallest group of lanes with d <=
 * LG_ARCS_PER_LANE * lanes (pull.hip); a row longer than a block covers gets
 * a block.  It is also the depth of each lane's batch of loads in flight
 * (pagerank.hip, row_part): deeper batches hide more of the gathers' latency
 * for the same bytes.  A power of two. */
#ifndef LG_ARCS_PER_LANE
#define LG_ARCS_PER_LANE 16
#endif

/* Makes `device` the calling thread's current device for a scope.  The
 * calling thread's current device is the caller's business: an entry point
 * that works on a device holds one of these, so the call leaves the thread
 * on the device it found, however it ends.  The constructor saves the current
 * device and makes `device` current (error() is the runtime's answer); the
 * destructor switches back to the saved one when it differs from `device`.
 * Neither throws nor prints. */
class lg__device_guard
{
  public:
    explicit lg__device_guard(int device) : device_(device), previous_(-1)
    {
        known_ = hipGetDevice(&previous_) == hipSuccess;
        error_ = hipSetDevice(device);
    }
    ~lg__device_guard()
    {
        if (known_ && previous_ != device_)
            (void)hipSetDevice(previous_);
    }
    hipError_t error() const
    {
        return error_;
    }
    lg__device_guard(const lg__device_guard &) = delete;
    lg__device_guard &operator=(const lg__device_guard &) = delete;

  private:
    int device_, previous_;
    bool known_;
    hipError_t error_;
};

/* The status of the kernels launched since the last check (hipGetLastError),
 * where the test hook fail_launch_after (plugin.h) can make a launch fail
 * for real. */
hipError_t lg__launched(void);

/* Reports a runtime failure: LG_ERR_OUT_OF_MEMORY for an allocation that did
 * not fit, LG_ERR_DEVICE otherwise, naming what was being done. */
lg_status_t lg__gpu_fail(hipError_t e, const char *fn, const char *what);

/* The device copy of g for this context's device, with the pull structure
 * ready when need_pull (built from the CSR, pull.hip).
 * *temporary is set when the copy could not be cached (the graph is cached
 * on another device): the caller frees it with lg__dev_graph_free. */
lg_status_t lg__dev_graph_get(lg__gpu_state *s, const struct lg_graph_view *g, const char *fn,
                              bool need_pull, lg__dev_graph **out, bool *temporary);
void lg__dev_graph_free(void *device_graph);

/* The in-edges of d in vertex order: an undirected graph's out-edges, a
 * directed graph's CSC uploaded from g->in on the first call (the dispatch
 * code built it: the kernel's in_edges bit) and kept with d. */
lg_status_t lg__dev_in_edges(lg__gpu_state *s, const struct lg_graph_view *g, lg__dev_graph *d,
                             const char *fn, struct lg__dev_csr *in);

/* d->pull built from d->out on the context's stream (d->pull_ready set),
 * complete on return; on failure d is left as it was. */
lg_status_t lg__dev_pull_build(lg__gpu_state *s, lg__dev_graph *d, const char *fn);
/* Frees p's device arrays and zeroes it. */
void lg__dev_pull_free(lg__dev_pull *p);
/* d->pull_out built from d->out and d->pull (d->pull_ready; d directed) on
 * the context's stream (d->pull_out_ready set), complete on return; on
 * failure d is left as it was. */
lg_status_t lg__dev_pull_out_build(lg__gpu_state *s, lg__dev_graph *d, const char *fn);
void lg__dev_pull_out_free(lg__dev_pull_out *p);

/* A load through the read-only (non-coherent) data cache where the target
 * has one (NVIDIA's ld.global.nc); a plain load on AMD.  Only for data no
 * thread writes during the kernel. */
template <class T> __device__ inline T lg__ldg(const T *p)
{
#if defined(LG_GPU_NVIDIA)
    return __ldg(p);
#else
    return *p;
#endif
}

/* A barrier of the whole grid, with every write before it visible to
 * every thread after it (cooperative groups, CUDA's and HIP's).  Only in a
 * kernel launched with hipLaunchCooperativeKernel, whose blocks are then
 * all resident; called by every thread of the grid together. */
__device__ inline void lg__grid_sync(void)
{
    cooperative_groups::this_grid().sync();
}

/* Consecutive arrays cut from one buffer: add() each array's bytes (padded
 * to 256), reserve the total in a scratch, then take() them in the same
 * order. */
struct lg__carve {
    size_t used;
    char *base;
    size_t add(size_t bytes)
    {
        const size_t at = used;
        used += (bytes + 255) & ~(size_t)255;
        return at;
    }
    template <class T> T *take(size_t at) const
    {
        return (T *)(base + at);
    }
};

/* Grid size for `items` work items of `per_block` each, at most
 * LG_MAX_GRID_THREADS threads: AMD refuses a grid of 2^32 threads or more
 * (NVIDIA 2^31 - 1 blocks), so every kernel launched through this loops
 * over its items with LG_FOR_EACH (grid-stride) and any size works.  2^30
 * threads is far more than a GPU holds resident at once (about 2^18 on the
 * largest). */
#ifndef LG_MAX_GRID_THREADS /* the emulated wave-64 test build sets it small */
#define LG_MAX_GRID_THREADS ((int64_t)1 << 30)
#endif
static inline unsigned lg__blocks_for(int64_t items, int64_t per_block)
{
    int64_t b = (items + per_block - 1) / per_block;
    const int64_t cap = LG_MAX_GRID_THREADS / per_block;
    return (unsigned)(b < 1 || cap < 1 ? 1 : b > cap ? cap : b);
}

/* for (i = this thread's first item; i < count; i += the grid's threads) */
#define LG_FOR_EACH(i, count)                                                                      \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (int64_t)(count);         \
         i += (int64_t)gridDim.x * blockDim.x)

#define LG_TRY_OR_CLEANUP(call, what)                                                              \
    do {                                                                                           \
        hipError_t lg_e_ = (call);                                                                 \
        if (lg_e_ != hipSuccess) {                                                                 \
            st = lg__gpu_fail(lg_e_, fn, what);                                                    \
            goto cleanup;                                                                          \
        }                                                                                          \
    } while (0)

/* How every entry point ends: after LG_ERR_OUT_OF_MEMORY it gives back
 * what the context keeps between calls (the scratch of prims.h, the work
 * arrays of BFS and CC, the pinned
 * upload buffers), since the caller is short of memory (AUTO reruns on the
 * CPU) and the next call makes them again.  Returns st. */
lg_status_t lg__gpu_call_end(lg__gpu_state *s, lg_status_t st);

/* Tests only (plugin.hip's hooks): BFS runs a launch a phase even where
 * cooperative launch works. */
extern bool lg__bfs_phase_launches;

/* A GPU kernel's entry (kernels.h's signature) runs on_device(s, g, args)
 * through this: on the context's device (lg__device_guard), with the call's
 * host threads, progress and output memory in the context's state, ending
 * with lg__gpu_call_end.  fn names the public function in messages. */
lg_status_t lg__gpu_run(const struct lg_exec *x, const struct lg_graph_view *g, const void *args,
                        const char *fn,
                        lg_status_t (*on_device)(lg__gpu_state *s, const struct lg_graph_view *g,
                                                 const void *args));

/* The GPU kernels (<name>.hip), one for each algorithm that algorithms.h's
 * list marks GPU: its entry lg__gpu_<name> (kernels.h's signature), which
 * runs through lg__gpu_run, and its row lg__gpu_<name>_row, which
 * plugin.hip lists. */
#define LG_GPU_DECLARE_GPU(name)                                                                   \
    lg_status_t lg__gpu_##name(const struct lg_exec *x, const struct lg_graph_view *g,             \
                               const void *args);                                                  \
    extern const struct lg_kernel lg__gpu_##name##_row;
#define LG_GPU_DECLARE_CPU(name)
#define LG_GPU_DECLARE(ID, name, gpu) LG_GPU_DECLARE_##gpu(name)
LG_ALGORITHMS(LG_GPU_DECLARE)

/* Brandes's counting on the device (betweenness.hip), per vertex or, with
 * per_arc, per arc (edge_betweenness.hip), and with targets (a host byte a
 * vertex, or NULL) a subset's (betweenness_subset.hip): the result into
 * call->centrality. */
struct lg_betweenness_args;
lg_status_t lg__gpu_brandes(lg__gpu_state *s, const struct lg_graph_view *g,
                            const struct lg_betweenness_args *call, bool per_arc,
                            const unsigned char *targets);

/* Defines lg__gpu_<name>'s row: LG_GPU_KERNEL_ROW(name, ID, reads_in_edges).
 * Host code only: hipcc's device pass has no host function to point at. */
#if defined(__HIP_DEVICE_COMPILE__)
#define LG_GPU_KERNEL_ROW(name, ID, reads_in_edges)
#else
#define LG_GPU_KERNEL_ROW(name, ID, reads_in_edges)                                                \
    const struct lg_kernel lg__gpu_##name##_row = {LG_ALG_##ID, lg__gpu_##name, reads_in_edges};
#endif

/* Doubles as unsigned keys that order as the doubles do (atomicMin on a
 * distance): SSSP's and weighted betweenness's. */
#define SIGN_BIT 0x8000000000000000ull
#define INF_KEY 0xFFF0000000000000ull /* key_of(+INFINITY) */
#define ZERO_KEY SIGN_BIT             /* key_of(+0.0) */

/* A double as an unsigned key that orders as the doubles do: the sign bit
 * set for a positive one, every bit flipped for a negative one. */
__host__ __device__ static inline unsigned long long key_of(double d)
{
    unsigned long long b;
    memcpy(&b, &d, sizeof b);
    return (b & SIGN_BIT) ? ~b : b | SIGN_BIT;
}

__host__ __device__ static inline double of_key(unsigned long long k)
{
    const unsigned long long b = (k & SIGN_BIT) ? k & ~SIGN_BIT : ~k;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

lg_status_t lg__gpu_build(void *state, const struct lg_plugin_build *b,
                          struct lg_plugin_built *out);

#endif /* LG_GPU_H */
