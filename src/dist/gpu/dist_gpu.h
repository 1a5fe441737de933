/*
 * dist_gpu.h - the boundary between libgraph_dist and its GPU module.
 *
 * GPU ranks (lg_dist_context_options_t.backend = LG_BACKEND_GPU) run in a
 * module that libgraph_dist dlopens: libgraph_dist_cuda.so (the .hip files
 * of this folder built by nvcc) or libgraph_dist_hip.so (hipcc, for AMD),
 * looked for beside libgraph_dist and in LIBGRAPH_PLUGIN_PATH (src/dist/gpu.c).
 * So libgraph_dist, like libgraph, links no GPU runtime, and the module links
 * no MPI: it loads NCCL (RCCL on AMD) itself when a context opens, and agrees
 * on failures through the host's callback, which is MPI.
 *
 * The module exports one C symbol, LG_DIST_GPU_ENTRY, of type
 * lg_dist_gpu_entry_fn; both sides check LG_DIST_GPU_ABI_VERSION.  Included
 * by C (libgraph_dist) and C++ (the module): plain structs only.
 *
 * What runs where: the partition, the shuffle and the rank's CSR are built on
 * the host over MPI as for CPU ranks (graph.c); the rank's arrays are then
 * uploaded once (graph_upload) and the algorithms run on the device, every
 * exchange through NCCL on the context's stream: halos as grouped
 * ncclSend/ncclRecv, sums as ncclAllReduce, BFS's frontier bitmap as
 * ncclAllGather.  MPI is never called while NCCL work is in flight.
 */
#ifndef LIBGRAPH_DIST_GPU_H
#define LIBGRAPH_DIST_GPU_H

#include "libgraph.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LG_DIST_GPU_ABI_VERSION 1
#define LG_DIST_GPU_ENTRY "lg_dist_gpu_entry"
#define LG_DIST_GPU_ID_BYTES 128 /* an ncclUniqueId */
#define LG_DIST_GPU_BINS 9       /* the pull structure's bins (gpu.h's LG_BINS) */

/* Services libgraph_dist lends the module. */
struct lg_dist_gpu_host {
    int abi_version;
    /* Sets the calling thread's lg_last_error and returns status. */
    lg_status_t (*error)(lg_status_t status, const char *fmt, ...);
    /* Collective: the status every rank agrees on (the lowest failing
     * rank's, its message everywhere).  The module calls it after every step
     * that can fail on one rank alone (allocations), before its next
     * collective, so no rank waits forever on one that gave up. */
    lg_status_t (*agree)(void *comm, lg_status_t st);
};

/* A rank's CSR, host memory (read during graph_upload only). */
struct lg_dist_gpu_csr {
    const lg_edge_t *offsets; /* rows + 1 */
    const lg_vertex_t *indices;
    const float *weights; /* NULL: none */
};

/* A halo (src/dist/dist.h, struct lg_dist_halo), host memory. */
struct lg_dist_gpu_halo {
    const int64_t *send_counts, *send_displs; /* size + 1 each */
    const int64_t *recv_counts, *recv_displs;
    const int32_t *send_index; /* the owned vertices sent (the pull halo: pull rows) */
    const int32_t *recv_ghost; /* the ghosts they land on; NULL: every ghost in order */
};

/* A rank's share of a distributed graph, as graph.c built it.  Owned
 * vertices are local ids [0, n_local), ghosts [n_local, n_local + n_ghost). */
struct lg_dist_gpu_graph {
    int rank, size;
    int64_t n, n_local, n_ghost;
    const int64_t *firsts;      /* size + 1: rank r owns [firsts[r], firsts[r + 1]) */
    const int64_t *ghost_gid;   /* n_ghost */
    const int64_t *ghost_begin; /* size + 1 */
    bool directed;
    struct lg_dist_gpu_csr out; /* owned rows' out-arcs */
    struct lg_dist_gpu_csr in;  /* owned rows' in-arcs (== out when undirected) */
    /* PageRank's pull structure: the in-arcs with the rows renumbered so
     * that they come in bins of in-degree, the longest first (pull row i is
     * owned vertex pull_perm[i]; bin k is rows [bin_begin[k], bin_begin[k-1]),
     * bin_begin[-1] = n_local); owned sources renumbered alike, ghosts kept */
    struct lg_dist_gpu_csr pull;
    const int32_t *pull_perm;
    int64_t bin_begin[LG_DIST_GPU_BINS];
    struct lg_dist_gpu_halo all;       /* every ghost (BFS's, CC's) */
    struct lg_dist_gpu_halo pull_halo; /* the ghosts `in` reads, send_index in pull rows */
};

/* What a call did: its rounds and the bytes this rank sent to others. */
struct lg_dist_gpu_run {
    int rounds;
    int64_t bytes_sent;
    double residual; /* PageRank: the last L1 change */
};

/* PageRank: the power iteration of src/dist/pagerank.c; the vectors are the
 * owned vertices' in pull order, host memory, normalised by the caller;
 * inv_out NULL: 1 / out-degree, and x0 NULL: 1 / n, made on the device. */
struct lg_dist_gpu_pagerank {
    double alpha, limit; /* stop once the global L1 change < limit */
    int max_iter;
    int64_t n;             /* global vertices */
    bool use_weights;      /* the pull structure's weights */
    const double *inv_out; /* 1 / out-weight, 0 when dangling */
    const double *x0;      /* the start */
    const double *p, *d;   /* personalization, dangling weights; NULL: uniform */
};

struct lg_dist_gpu_bfs {
    const int64_t *sources; /* global ids, the same on every rank */
    int64_t num_sources;
    int32_t max_depth;
    int alpha, beta; /* lg_bfs_options_t's direction switch */
    int64_t n;
};

/* What the module exports. */
struct lg_dist_gpu {
    int abi_version;
    const char *name;  /* "cuda" or "hip" */
    int arcs_per_lane; /* the pull bins' unit (LG_ARCS_PER_LANE): a row of d
                         * in-arcs is in the first bin k with d <= arcs_per_lane << k */
    /* The GPUs this process sees (0 when none or no runtime). */
    int (*device_count)(void);
    /* Opens GPU `device` with a stream of its own, and loads NCCL (RCCL):
     * `library` (NULL: the platform's default name). */
    lg_status_t (*open)(const struct lg_dist_gpu_host *host, int device, const char *library,
                        void **state, char *description, size_t description_bytes);
    /* Rank 0's: a new NCCL id; every rank then connects with it
     * (collective: ncclCommInitRank). */
    lg_status_t (*unique_id)(void *state, unsigned char id[LG_DIST_GPU_ID_BYTES]);
    lg_status_t (*connect)(void *state, const unsigned char id[LG_DIST_GPU_ID_BYTES], int rank,
                           int size);
    void (*close)(void *state);
    /* A graph's device copy; freed by graph_free. */
    lg_status_t (*graph_upload)(void *state, const struct lg_dist_gpu_graph *g,
                                void **device_graph);
    void (*graph_free)(void *device_graph);
    /* The algorithms; collective.  comm is handed back to host->agree.
     * pagerank: scores of the owned vertices.  bfs: dist (and parents, global ids,
     * when not NULL) of the owned vertices.  components: labels, the
     * smallest global id of each owned vertex's component. */
    lg_status_t (*pagerank)(void *state, void *device_graph, void *comm,
                            const struct lg_dist_gpu_pagerank *a, double *scores,
                            struct lg_dist_gpu_run *run);
    lg_status_t (*bfs)(void *state, void *device_graph, void *comm, const struct lg_dist_gpu_bfs *a,
                       int32_t *dist, int64_t *parents, struct lg_dist_gpu_run *run);
    lg_status_t (*components)(void *state, void *device_graph, void *comm, int64_t *labels,
                              struct lg_dist_gpu_run *run);
};

typedef lg_status_t (*lg_dist_gpu_entry_fn)(const struct lg_dist_gpu **module);

#ifdef __cplusplus
}
#endif

#endif /* LIBGRAPH_DIST_GPU_H */
