/*
 * dist.h - what the files of libgraph_dist share.
 *
 *   base.c        errors, allocation, threads, agreeing on errors across ranks
 *   context.c     contexts: options, creation, accessors
 *   exchange.c    moving arrays between ranks: all-to-all in bounded
 *                 messages, halo exchanges, gathers, the traffic count
 *   graph.c       lg_dist_graph_from_edges: the checks, the partition, the
 *                 shuffle; lg_dist_generate; the accessors
 *   local.c       the rank's local ids and ghosts, its CSR, the halos
 *   read.c        lg_dist_graph_read: each rank its part of a file
 *   pagerank.c, bfs.c, components.c   the algorithms
 *   gpu.c         GPU ranks: loading the GPU module (gpu/, dist_gpu.h), a
 *                 rank's GPU and NCCL communicator, graphs' device copies
 *
 * Layout of a rank's share (docs/DISTRIBUTED.md): the owned vertices are the
 * global ids [first, first + n_local), local ids 0..n_local-1; the ghosts --
 * other ranks' vertices that this rank's arcs reach -- are local ids
 * n_local..n_local+n_ghost-1, in increasing global id, so those of one owner
 * are consecutive.  `out` is a libgraph graph (built with the public API) on
 * n_local + n_ghost local ids whose rows are the owned vertices' out-arcs;
 * for a directed graph `in` holds the owned vertices' in-arcs the same way
 * (an undirected graph's in-arcs are its out-arcs: in == out).
 */
#ifndef LIBGRAPH_DIST_INTERNAL_H
#define LIBGRAPH_DIST_INTERNAL_H

#include "libgraph_dist.h"

#include <stddef.h>
#include <stdint.h>

#define LG_DIST_ERROR_CAPACITY 512

struct lg_dist_context {
    MPI_Comm comm; /* the duplicate */
    int rank, size;
    lg_context_t *local; /* this rank's CPU context (threads) */
    lg_dist_context_options_t options;
    int64_t bytes_sent; /* to other ranks, since the call's start */
    void *gpu;          /* GPU ranks: the module's state; NULL on CPU ranks */
    char device[256];   /* "cpu", or the rank's GPU and NCCL */
};

/* Values of owned vertices sent to the ranks that hold them as ghosts: to
 * rank p go the owned local ids send_index[send_displs[p] ..][send_counts[p]],
 * which land on p's ghosts recv_ghost[recv_displs[q] ..][recv_counts[q]]
 * (ghost indices, 0-based) for each sender q -- or, when recv_ghost is NULL,
 * on the ghosts in order (every ghost, owner by owner). */
struct lg_dist_halo {
    int64_t *send_counts, *send_displs; /* size + 1 entries */
    int64_t *recv_counts, *recv_displs;
    int32_t *send_index;
    int32_t *recv_ghost;
};

struct lg_dist_graph {
    int rank, size;         /* of the context that built it */
    int64_t n, m;           /* global vertices, arcs */
    int64_t first, n_local; /* owned range */
    int64_t *firsts;        /* size + 1: rank r owns [firsts[r], firsts[r + 1]) */
    bool directed, weighted;
    lg_graph_t *out, *in; /* in == out for an undirected graph */
    int64_t n_ghost;
    int64_t *ghost_gid;   /* n_ghost, increasing */
    int64_t *ghost_begin; /* size + 1: rank r's ghosts are [ghost_begin[r], ghost_begin[r + 1]) */
    struct lg_dist_halo all;  /* every ghost (components) */
    struct lg_dist_halo pull; /* the ghosts `in` reads (PageRank); == all when in == out */
    void *device;             /* GPU ranks: the module's copy (gpu.c); NULL otherwise */
    int32_t *pull_perm;       /* its PageRank rows: pull row i is owned vertex pull_perm[i] */
    const void *device_owner; /* the GPU context state it was made for */
};

/* base.c */
/* The status every rank agrees on: LG_OK when every rank passed LG_OK, else
 * the failure of the lowest failing rank, whose message (prefixed "rank R: "
 * when there are several ranks) becomes every rank's lg_last_error().
 * Collective. */
lg_status_t lg__dist_agree(lg_dist_context_t *c, lg_status_t st);
/* lg_error_set with a formatted message; returns status. */
lg_status_t lg__dist_error(lg_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An MPI call's failure as LG_ERR_INTERNAL with MPI's message. */
lg_status_t lg__dist_mpi_error(int code, const char *what);
/* Allocations: NULL after setting "out of memory allocating WHAT". */
void *lg__dist_alloc(size_t count, size_t size, const char *what);
void *lg__dist_calloc(size_t count, size_t size, const char *what);
#ifdef LG_DIST_FAILURE_INJECTION
/* Tests (tests/dist/test_dist_alloc.c): after the next k allocations, every
 * allocation fails (k < 0: none); returns the previous setting. */
long lg__dist_fail_allocations_after(long k);
#endif
/* Local threads of the context. */
int lg__dist_threads(const lg_dist_context_t *c);
/* Piece t of T consecutive pieces of [0, n) begins here (the build's
 * parallel passes, which keep input order by writing piece after piece). */
static inline int64_t lg__dist_piece(int64_t n, int t, int T)
{
    return n * t / T;
}

/* exchange.c */
/* All-to-all: send_counts[p] elements of elem bytes to rank p, taken in rank
 * order from send; *recv (malloc'd, or NULL when nothing arrives) gets the
 * elements from every rank in rank order, recv_counts[p] from rank p.
 * Messages are cut to at most LG_DIST_MESSAGE_BYTES, so no count overflows
 * MPI's int.  Collective; on failure *recv is NULL. */
lg_status_t lg__dist_alltoallv(lg_dist_context_t *c, const void *send, const int64_t *send_counts,
                               size_t elem, void **recv, int64_t *recv_counts);
/* The same into a buffer the caller sized from recv_counts it already knows
 * (the halo's), with req room for lg__dist_requests(c, send_counts,
 * recv_counts, elem) requests: allocated by the caller with its other
 * arrays, so the exchange itself allocates nothing and agrees on nothing. */
int64_t lg__dist_requests(const lg_dist_context_t *c, const int64_t *send_counts,
                          const int64_t *recv_counts, size_t elem);
lg_status_t lg__dist_alltoallv_into(lg_dist_context_t *c, const void *send,
                                    const int64_t *send_counts, const int64_t *send_displs,
                                    size_t elem, void *recv, const int64_t *recv_counts,
                                    const int64_t *recv_displs, MPI_Request *req);
/* Halo exchange of one value (elem bytes) per ghost: values[0 .. n_local)
 * are the owned vertices', and the ghosts' values[n_local + g] are set from
 * their owners'.  scratch: lg__dist_halo_scratch(c, g, h, elem) bytes, allocated
 * by the caller before its loop (so no allocation can fail between
 * collectives). */
size_t lg__dist_halo_scratch(const lg_dist_context_t *c, const lg_dist_graph_t *g,
                             const struct lg_dist_halo *h, size_t elem);
lg_status_t lg__dist_halo_exchange(lg_dist_context_t *c, const lg_dist_graph_t *g,
                                   const struct lg_dist_halo *h, void *values, size_t elem,
                                   void *scratch);
void lg__dist_halo_free(struct lg_dist_halo *h);
/* Sums over ranks (MPI_SUM / MPI_MAX of count int64 or double values in place). */
lg_status_t lg__dist_sum_i64(lg_dist_context_t *c, int64_t *v, int count);
lg_status_t lg__dist_max_i64(lg_dist_context_t *c, int64_t *v, int count);
lg_status_t lg__dist_sum_f64(lg_dist_context_t *c, double *v, int count);
/* The call's traffic: starts counting, and fills *t (may be NULL) with this
 * rank's, the largest and the total bytes; collective. */
void lg__dist_traffic_start(lg_dist_context_t *c);
lg_status_t lg__dist_traffic_end(lg_dist_context_t *c, int rounds, lg_dist_traffic_t *t);

/* graph.c: the shuffle's output, a rank's arcs with global ids */
#define LG_DIST_IN_ARC ((uint64_t)1 << 63) /* an arc's row tag: an in-arc */
#define LG_DIST_ROW(r) ((int64_t)((r) & ~LG_DIST_IN_ARC))
#define LG_DIST_MAX_LOCAL ((int64_t)INT32_MAX)
struct lg_dist_arc {
    uint64_t row; /* global id, LG_DIST_IN_ARC for an in-arc */
    int64_t col;
};
struct lg_dist_arcs {
    struct lg_dist_arc *a;
    float *w; /* NULL: unweighted */
    int64_t count;
};

/* local.c */
/* The arrays of a local graph (out or in). */
struct lg_dist_csr {
    const lg_edge_t *offsets;
    const lg_vertex_t *indices;
    const float *weights;
};
struct lg_dist_csr lg__dist_csr(const lg_graph_t *local);
/* g->out (and g->in), g->ghost_gid and g->ghost_begin from the
 * rank's arcs (not agreed: the caller agrees); then the halos (collective). */
lg_status_t lg__dist_local(lg_dist_context_t *c, lg_dist_graph_t *g, const struct lg_dist_arcs *in,
                           const lg_dist_graph_options_t *o);
lg_status_t lg__dist_halos(lg_dist_context_t *c, lg_dist_graph_t *g);

/* graph.c */
/* lg_dist_graph_from_edges as function fn; both_arcs: the input holds both
 * arcs of every undirected edge already (an undirected .lgb), none to add;
 * held: bytes the caller holds through the build besides src, dst and
 * weights (a file's part), for the estimate of the node's memory. */
lg_status_t lg__dist_build(lg_dist_context_t *c, const char *fn, const int64_t *src,
                           const int64_t *dst, const float *weights, int64_t num_edges,
                           const lg_dist_graph_options_t *options, bool both_arcs, size_t held,
                           lg_dist_graph_t **graph);
/* The rank that owns global vertex v. */
int lg__dist_owner(const lg_dist_graph_t *g, int64_t v);
/* The common checks of an algorithm's arguments (collective). */
lg_status_t lg__dist_check_call(lg_dist_context_t *c, const lg_dist_graph_t *g, const char *fn,
                                bool output_missing);

/* gpu.c: GPU ranks (the module's calls; each collective) */
/* The context's GPU and NCCL communicator, or the agreed failure. */
lg_status_t lg__dist_gpu_open(lg_dist_context_t *c);
void lg__dist_gpu_close(lg_dist_context_t *c);
/* g's device copy on c's GPUs (g->device, g->pull_perm). */
lg_status_t lg__dist_gpu_upload(lg_dist_context_t *c, lg_dist_graph_t *g);
void lg__dist_gpu_graph_free(lg_dist_graph_t *g);
/* The algorithms, called after their arguments are checked: PageRank's
 * vector options' global sums as pagerank.c has them; BFS ends its traffic
 * count. */
lg_status_t lg__dist_gpu_pagerank(lg_dist_context_t *c, const lg_dist_graph_t *g,
                                  const lg_pagerank_options_t *o, const double sums[3],
                                  double *scores, int *iterations, double *residual);
lg_status_t lg__dist_gpu_bfs(lg_dist_context_t *c, const lg_dist_graph_t *g, const int64_t *sources,
                             int64_t num_sources, const lg_bfs_options_t *o, int32_t *dist,
                             int64_t *parents, lg_dist_traffic_t *traffic);
lg_status_t lg__dist_gpu_components(lg_dist_context_t *c, const lg_dist_graph_t *g, int64_t *labels,
                                    int *rounds);

#endif
