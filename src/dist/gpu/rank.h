/*
 * rank.h - what the GPU module's files share: NCCL's entry points (loaded at
 * run time), a GPU rank's state, a graph's device copy, and the halo
 * exchange.
 *
 *   module.hip       the entry, opening a GPU and NCCL, uploading a graph,
 *                    the halo exchange
 *   pagerank.hip, bfs.hip, components.hip   the algorithms on GPU ranks
 *
 * The device code is libgraph's GPU plugin's (src/kernels/hip): its runtime
 * mapping, wave primitives, device-wide primitives and PageRank's pull kernel
 * are included from there, so both build from one set of kernels.
 */
#ifndef LG_DIST_GPU_RANK_H
#define LG_DIST_GPU_RANK_H

#include "gpu.h"
#include "dist_gpu.h"

/* NCCL's ABI (nccl.h; RCCL's is the same), declared here because no NCCL
 * header or library is needed to build: the library is dlopen'd. */
typedef struct lg_nccl_comm *lg_nccl_comm_t;
typedef struct {
    char internal[LG_DIST_GPU_ID_BYTES];
} lg_nccl_id_t;
typedef int lg_nccl_result_t; /* ncclSuccess = 0 */
enum {
    LG_NCCL_INT8 = 0,
    LG_NCCL_INT32 = 2,
    LG_NCCL_INT64 = 4,
    LG_NCCL_UINT64 = 5,
    LG_NCCL_DOUBLE = 8,
    LG_NCCL_SUM = 0,
    LG_NCCL_MAX = 2,
};
struct lg_nccl {
    void *library;
    lg_nccl_result_t (*get_unique_id)(lg_nccl_id_t *id);
    lg_nccl_result_t (*comm_init_rank)(lg_nccl_comm_t *comm, int nranks, lg_nccl_id_t id, int rank);
    lg_nccl_result_t (*comm_destroy)(lg_nccl_comm_t comm);
    const char *(*error_string)(lg_nccl_result_t r);
    lg_nccl_result_t (*all_reduce)(const void *send, void *recv, size_t count, int type, int op,
                                   lg_nccl_comm_t comm, hipStream_t stream);
    lg_nccl_result_t (*all_gather)(const void *send, void *recv, size_t count, int type,
                                   lg_nccl_comm_t comm, hipStream_t stream);
    lg_nccl_result_t (*send)(const void *send, size_t count, int type, int peer,
                             lg_nccl_comm_t comm, hipStream_t stream);
    lg_nccl_result_t (*recv)(void *recv, size_t count, int type, int peer, lg_nccl_comm_t comm,
                             hipStream_t stream);
    lg_nccl_result_t (*group_start)(void);
    lg_nccl_result_t (*group_end)(void);
    lg_nccl_result_t (*get_version)(int *version);
};

/* One GPU rank. */
struct lg_rank_state {
    const struct lg_dist_gpu_host *host;
    int device;
    hipStream_t stream;
    lg__scratch scratch; /* prims.h's temporary storage */
    struct lg_nccl nccl;
    lg_nccl_comm_t comm; /* NULL until connect */
    int rank, size;
};

/* A halo on the device: the counts on the host (NCCL's sizes), the index
 * lists and the message buffers on the device. */
struct lg_rank_halo {
    int64_t *send_counts, *send_displs, *recv_counts, *recv_displs; /* host, size + 1 */
    int64_t send_total, recv_total;
    int32_t *send_index; /* device */
    int32_t *recv_ghost; /* device: the ghost each received value lands on */
};

struct lg_rank_graph {
    int device, rank, size;
    int64_t n, n_local, n_ghost, m_out, m_in;
    bool directed, weighted;
    int64_t *firsts, *ghost_begin; /* host, size + 1 */
    /* device */
    struct lg__dev_csr out, in; /* in aliases out when undirected */
    struct lg__dev_csr pull;
    int32_t *pull_perm; /* n_local: pull row i is owned vertex pull_perm[i] */
    int64_t bin_begin[LG_BINS];
    int64_t *ghost_gid;   /* n_ghost */
    int32_t *ghost_owner; /* n_ghost: the rank that owns ghost g */
    int32_t *ghost_local; /* n_ghost: its local id there */
    struct lg_rank_halo all, pull_halo;
};

/* Reports a runtime failure (as the plugin's lg__gpu_fail). */
lg_status_t lg__rank_fail(lg_rank_state *s, hipError_t e, const char *fn, const char *what);
/* Reports an NCCL failure as LG_ERR_DEVICE with NCCL's message. */
lg_status_t lg__rank_nccl_fail(lg_rank_state *s, lg_nccl_result_t r, const char *fn,
                               const char *what);

/* values[n_local + g] (8 bytes each, device) = the owners' values of the
 * ghosts h reaches, queued on the stream: the sent values packed into
 * send_buf, one grouped ncclSend/ncclRecv with every peer, unpacked from
 * recv_buf.  The buffers hold h->send_total and h->recv_total values.
 * Adds the bytes sent to *bytes. */
lg_status_t lg__rank_halo(lg_rank_state *s, const lg_rank_graph *g, const lg_rank_halo *h,
                          uint64_t *values, uint64_t *send_buf, uint64_t *recv_buf, int64_t *bytes,
                          const char *fn);

/* The algorithms (dist_gpu.h's table). */
lg_status_t lg__rank_pagerank(void *state, void *device_graph, void *comm,
                              const struct lg_dist_gpu_pagerank *a, double *scores,
                              struct lg_dist_gpu_run *run);
lg_status_t lg__rank_bfs(void *state, void *device_graph, void *comm,
                         const struct lg_dist_gpu_bfs *a, int32_t *dist, int64_t *parents,
                         struct lg_dist_gpu_run *run);
lg_status_t lg__rank_components(void *state, void *device_graph, void *comm, int64_t *labels,
                                struct lg_dist_gpu_run *run);

/* The row of arc k: the largest r < rows with offsets[r] <= k (k <
 * offsets[rows]): a binary search, so that a grid can spread arcs rather than
 * rows over its threads (load-balanced search), hubs and all. */
__device__ inline int64_t lg__row_of(const lg_edge_t *offsets, int64_t rows, int64_t k)
{
    int64_t lo = 0, hi = rows - 1;
    while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        if (offsets[mid] <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Calls f(valid, row, k) for every arc k < total of rows [0, rows) (offsets:
 * rows + 1), spread evenly over the grid: a wave takes LG_LB_STEPS x wave
 * consecutive arcs, its lane 0 finds their first row (lg__row_of), and each
 * lane walks the rows forward as its arc advances by the wave a step, so a
 * hub's arcs go to many waves and a run of short rows costs a few loads an
 * arc.  Every lane of the wave calls f each step (valid false past total),
 * so f may use wave primitives. */
#define LG_LB_STEPS 8
template <class F>
__device__ inline void lg__lb_arcs(const lg_edge_t *offsets, int64_t rows, int64_t total, F f)
{
    const int64_t chunk = (int64_t)LG_LB_STEPS * LG_WAVE_SIZE;
    const int64_t waves = (int64_t)gridDim.x * (blockDim.x / LG_WAVE_SIZE);
    const int lane = lg__lane_id();
    for (int64_t c = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / LG_WAVE_SIZE * chunk;
         c < total; c += waves * chunk) {
        int64_t r = lane == 0 ? lg__row_of(offsets, rows, c) : 0;
        r = lg__wave_shfl(r, 0);
        for (int j = 0; j < LG_LB_STEPS; j++) {
            const int64_t k = c + (int64_t)j * LG_WAVE_SIZE + lane;
            const bool valid = k < total;
            if (valid)
                while (offsets[r + 1] <= k)
                    r++;
            f(valid, r, k);
        }
    }
}

/* for (k = the wave's first item + lane; the wave's items < count; ...): a
 * grid-stride loop that every lane of a wave runs the same number of times
 * (k may pass count: check it), so wave primitives may be called in it. */
#define LG_FOR_EACH_WAVE(k, count)                                                                 \
    for (int64_t k##_base =                                                                        \
             ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / LG_WAVE_SIZE * LG_WAVE_SIZE,       \
                 k = k##_base + lg__lane_id();                                                     \
         k##_base < (int64_t)(count);                                                              \
         k##_base += (int64_t)gridDim.x * blockDim.x, k = k##_base + lg__lane_id())

#define LG_RANK_TRY(call, what)                                                                    \
    do {                                                                                           \
        hipError_t lg_e_ = (call);                                                                 \
        if (lg_e_ != hipSuccess) {                                                                 \
            st = lg__rank_fail(s, lg_e_, fn, what);                                                \
            goto cleanup;                                                                          \
        }                                                                                          \
    } while (0)

#define LG_RANK_NCCL(call, what)                                                                   \
    do {                                                                                           \
        lg_nccl_result_t lg_r_ = (call);                                                           \
        if (lg_r_ != 0) {                                                                          \
            st = lg__rank_nccl_fail(s, lg_r_, fn, what);                                           \
            goto cleanup;                                                                          \
        }                                                                                          \
    } while (0)

#endif /* LG_DIST_GPU_RANK_H */
