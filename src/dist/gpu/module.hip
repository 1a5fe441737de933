/*
 * module.hip - libgraph_dist's GPU module: its entry (dist_gpu.h), opening
 * a GPU rank and its NCCL communicator, a graph's device copy, and the halo
 * exchange the algorithms share.
 *
 * NCCL (RCCL on AMD: the same API) is loaded with dlopen when a context
 * opens, so neither libgraph_dist nor this module needs it to load; the
 * communicator is made the way cuGraph's multi-GPU layer makes it: rank 0's
 * ncclGetUniqueId broadcast over MPI by libgraph_dist, then
 * ncclCommInitRank on every rank.
 */
#include "rank.h"

#include <dlfcn.h>
#include <new>
#include <stdio.h>
#include <string.h>

/* gpu_runtime.h's allocation counters (the plugin's test hooks), this
 * module's own: never armed here. */
long long lg__gpu_allocations_left = -1;
long long lg__gpu_live_allocations = 0;

static_assert(LG_DIST_GPU_BINS == LG_BINS, "dist_gpu.h and gpu.h disagree on the pull bins");

lg_status_t lg__rank_fail(lg_rank_state *s, hipError_t e, const char *fn, const char *what)
{
    (void)hipGetLastError();
    if (e == hipErrorMemoryAllocation)
        return s->host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of GPU memory (%s)", fn, what);
    return s->host->error(LG_ERR_DEVICE, "%s: GPU runtime error while %s: %s (%s)", fn, what,
                          hipGetErrorString(e), hipGetErrorName(e));
}

lg_status_t lg__rank_nccl_fail(lg_rank_state *s, lg_nccl_result_t r, const char *fn,
                               const char *what)
{
    return s->host->error(LG_ERR_DEVICE, "%s: NCCL error while %s: %s (%d)", fn, what,
                          s->nccl.error_string ? s->nccl.error_string(r) : "unknown", r);
}

static int device_count(void)
{
    int count = 0;
    return hipGetDeviceCount(&count) == hipSuccess ? count : 0;
}

/* NCCL's entry points from `library`, or the platform's usual names. */
static lg_status_t load_nccl(lg_rank_state *s, const char *library)
{
#if defined(LG_GPU_AMD)
    static const char *const names[] = {"librccl.so.1", "librccl.so"};
#else
    static const char *const names[] = {"libnccl.so.2", "libnccl.so"};
#endif
    struct lg_nccl *n = &s->nccl;
    const char *why = "not found";
    if (library) {
        n->library = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    } else {
        for (size_t i = 0; i < sizeof names / sizeof names[0] && !n->library; i++)
            n->library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (!n->library) {
        const char *e = dlerror();
        return s->host->error(LG_ERR_UNSUPPORTED,
                              "GPU ranks need %s, which could not be loaded (%s); install it "
                              "or name it in LIBGRAPH_NCCL_LIBRARY",
                              library ? library : names[0], e ? e : why);
    }
    struct {
        void **slot;
        const char *symbol;
    } table[] = {
        {(void **)&n->get_unique_id, "ncclGetUniqueId"},
        {(void **)&n->comm_init_rank, "ncclCommInitRank"},
        {(void **)&n->comm_destroy, "ncclCommDestroy"},
        {(void **)&n->error_string, "ncclGetErrorString"},
        {(void **)&n->all_reduce, "ncclAllReduce"},
        {(void **)&n->all_gather, "ncclAllGather"},
        {(void **)&n->send, "ncclSend"},
        {(void **)&n->recv, "ncclRecv"},
        {(void **)&n->group_start, "ncclGroupStart"},
        {(void **)&n->group_end, "ncclGroupEnd"},
        {(void **)&n->get_version, "ncclGetVersion"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        *table[i].slot = dlsym(n->library, table[i].symbol);
        if (!*table[i].slot)
            return s->host->error(LG_ERR_UNSUPPORTED,
                                  "GPU ranks: the NCCL library lacks %s (ncclSend/ncclRecv need "
                                  "NCCL 2.7 or later)",
                                  table[i].symbol);
    }
    return LG_OK;
}

static void rank_close(void *state)
{
    lg_rank_state *s = (lg_rank_state *)state;
    if (!s)
        return;
    {
        lg__device_guard on_device(s->device);
        if (s->comm)
            (void)s->nccl.comm_destroy(s->comm);
        lg__scratch_free(&s->scratch);
        if (s->stream)
            (void)hipStreamDestroy(s->stream);
    }
    if (s->nccl.library)
        dlclose(s->nccl.library);
    delete s;
}

static lg_status_t rank_open(const struct lg_dist_gpu_host *host, int device, const char *library,
                             void **state, char *description, size_t description_bytes)
{
    static const char fn[] = "lg_dist_context_create";
    *state = NULL;
    if (host->abi_version != LG_DIST_GPU_ABI_VERSION)
        return host->error(LG_ERR_UNSUPPORTED,
                           "%s: libgraph_dist's ABI version %d, the GPU module's %d", fn,
                           host->abi_version, LG_DIST_GPU_ABI_VERSION);
    lg_rank_state *s = new (std::nothrow) lg_rank_state();
    if (!s)
        return host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (GPU rank)", fn);
    s->host = host;
    s->device = device;
    lg_status_t st = LG_OK;
    const int count = device_count();
    hipDeviceProp_t prop;
    int version = 0;
    if (device < 0 || device >= count) {
        st = host->error(LG_ERR_DEVICE, "%s: no GPU %d: the %s runtime sees %d", fn, device,
                         LG_GPU_PLATFORM, count);
        goto cleanup;
    }
    {
        lg__device_guard on_device(device);
        LG_RANK_TRY(on_device.error(), "selecting the device");
        LG_RANK_TRY(hipGetDeviceProperties(&prop, device), "opening the device");
        if (prop.warpSize != LG_WAVE_SIZE && !(LG_WAVE_SIZE == 64 && prop.warpSize == 32)) {
            st = host->error(LG_ERR_DEVICE,
                             "%s: GPU %d has %d-lane waves; this module was built "
                             "for %d",
                             fn, device, prop.warpSize, LG_WAVE_SIZE);
            goto cleanup;
        }
        LG_RANK_TRY(hipStreamCreateWithFlags(&s->stream, hipStreamNonBlocking),
                    "creating a stream");
    }
    if ((st = load_nccl(s, library)) != LG_OK)
        goto cleanup;
    (void)s->nccl.get_version(&version);
    snprintf(description, description_bytes, "GPU %d: %s (%s), %s %d.%d.%d", device, prop.name,
             LG_GPU_PLATFORM,
#if defined(LG_GPU_AMD)
             "RCCL",
#else
             "NCCL",
#endif
             version / 10000, version / 100 % 100, version % 100);
    *state = s;
    return LG_OK;
cleanup:
    rank_close(s);
    return st;
}

static lg_status_t rank_unique_id(void *state, unsigned char id[LG_DIST_GPU_ID_BYTES])
{
    lg_rank_state *s = (lg_rank_state *)state;
    lg_nccl_id_t u;
    memset(&u, 0, sizeof u);
    lg_nccl_result_t r = s->nccl.get_unique_id(&u);
    if (r != 0)
        return lg__rank_nccl_fail(s, r, "lg_dist_context_create", "making the communicator's id");
    memcpy(id, u.internal, LG_DIST_GPU_ID_BYTES);
    return LG_OK;
}

static lg_status_t rank_connect(void *state, const unsigned char id[LG_DIST_GPU_ID_BYTES], int rank,
                                int size)
{
    lg_rank_state *s = (lg_rank_state *)state;
    lg__device_guard on_device(s->device);
    if (on_device.error() != hipSuccess)
        return lg__rank_fail(s, on_device.error(), "lg_dist_context_create",
                             "selecting the device");
    lg_nccl_id_t u;
    memcpy(u.internal, id, LG_DIST_GPU_ID_BYTES);
    lg_nccl_result_t r = s->nccl.comm_init_rank(&s->comm, size, u, rank);
    if (r != 0) {
        s->comm = NULL;
        return lg__rank_nccl_fail(s, r, "lg_dist_context_create", "joining the communicator");
    }
    s->rank = rank;
    s->size = size;
    return LG_OK;
}

/* ---- a graph's device copy ---------------------------------------------- */

template <class T> static hipError_t upload(T **dev, const T *host, int64_t count)
{
    *dev = NULL;
    if (!host || count <= 0)
        return hipSuccess;
    hipError_t e = lg__device_malloc(dev, (size_t)count * sizeof(T));
    if (e == hipSuccess)
        e = hipMemcpy(*dev, host, (size_t)count * sizeof(T), hipMemcpyHostToDevice);
    return e;
}

static int64_t *host_copy(const int64_t *v, int n)
{
    int64_t *c = new (std::nothrow) int64_t[n];
    if (c)
        memcpy(c, v, (size_t)n * sizeof *c);
    return c;
}

static void halo_free(lg_rank_halo *h)
{
    delete[] h->send_counts;
    delete[] h->send_displs;
    delete[] h->recv_counts;
    delete[] h->recv_displs;
    (void)lg__device_free(h->send_index);
    (void)lg__device_free(h->recv_ghost);
    memset(h, 0, sizeof *h);
}

static void csr_free(lg__dev_csr *c)
{
    (void)lg__device_free(c->offsets);
    (void)lg__device_free(c->indices);
    (void)lg__device_free(c->weights);
    memset(c, 0, sizeof *c);
}

static void rank_graph_free(void *device_graph)
{
    lg_rank_graph *d = (lg_rank_graph *)device_graph;
    if (!d)
        return;
    lg__device_guard on_device(d->device);
    if (d->in.offsets != d->out.offsets)
        csr_free(&d->in);
    csr_free(&d->out);
    csr_free(&d->pull);
    (void)lg__device_free(d->pull_perm);
    (void)lg__device_free(d->ghost_gid);
    (void)lg__device_free(d->ghost_owner);
    (void)lg__device_free(d->ghost_local);
    halo_free(&d->all);
    halo_free(&d->pull_halo);
    delete[] d->firsts;
    delete[] d->ghost_begin;
    delete d;
}

static hipError_t csr_upload(lg__dev_csr *d, const struct lg_dist_gpu_csr *h, int64_t rows,
                             bool weights)
{
    const int64_t m = h->offsets[rows];
    hipError_t e = upload(&d->offsets, h->offsets, rows + 1);
    if (e == hipSuccess)
        e = upload(&d->indices, h->indices, m);
    if (e == hipSuccess && weights)
        e = upload(&d->weights, h->weights, m);
    return e;
}

static lg_status_t halo_upload(lg_rank_state *s, lg_rank_halo *d, const struct lg_dist_gpu_halo *h,
                               int size, int64_t n_ghost, const char *fn)
{
    lg_status_t st = LG_OK;
    int32_t *identity = NULL;
    d->send_counts = host_copy(h->send_counts, size + 1);
    d->send_displs = host_copy(h->send_displs, size + 1);
    d->recv_counts = host_copy(h->recv_counts, size + 1);
    d->recv_displs = host_copy(h->recv_displs, size + 1);
    if (!d->send_counts || !d->send_displs || !d->recv_counts || !d->recv_displs)
        return s->host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (halo counts)", fn);
    d->send_total = h->send_displs[size];
    d->recv_total = h->recv_displs[size];
    LG_RANK_TRY(upload(&d->send_index, h->send_index, d->send_total), "uploading a halo");
    if (h->recv_ghost) {
        LG_RANK_TRY(upload(&d->recv_ghost, h->recv_ghost, d->recv_total), "uploading a halo");
    } else {
        /* every ghost, in order */
        identity = new (std::nothrow) int32_t[n_ghost > 0 ? n_ghost : 1];
        if (!identity) {
            st = s->host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (halo)", fn);
            goto cleanup;
        }
        for (int64_t i = 0; i < n_ghost; i++)
            identity[i] = (int32_t)i;
        LG_RANK_TRY(upload(&d->recv_ghost, identity, d->recv_total), "uploading a halo");
    }
cleanup:
    delete[] identity;
    return st;
}

static lg_status_t rank_graph_upload(void *state, const struct lg_dist_gpu_graph *g,
                                     void **device_graph)
{
    static const char fn[] = "lg_dist_graph_from_edges";
    lg_rank_state *s = (lg_rank_state *)state;
    *device_graph = NULL;
    lg__device_guard on_device(s->device);
    if (on_device.error() != hipSuccess)
        return lg__rank_fail(s, on_device.error(), fn, "selecting the device");
    lg_rank_graph *d = new (std::nothrow) lg_rank_graph();
    if (!d)
        return s->host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (device graph)", fn);
    lg_status_t st = LG_OK;
    int32_t *owner = NULL, *local = NULL;
    d->device = s->device;
    d->rank = g->rank;
    d->size = g->size;
    d->n = g->n;
    d->n_local = g->n_local;
    d->n_ghost = g->n_ghost;
    d->m_out = g->out.offsets[g->n_local];
    d->m_in = g->in.offsets[g->n_local];
    d->directed = g->directed;
    d->weighted = g->pull.weights != NULL;
    memcpy(d->bin_begin, g->bin_begin, sizeof d->bin_begin);
    d->firsts = host_copy(g->firsts, g->size + 1);
    d->ghost_begin = host_copy(g->ghost_begin, g->size + 1);
    owner = new (std::nothrow) int32_t[g->n_ghost > 0 ? g->n_ghost : 1];
    local = new (std::nothrow) int32_t[g->n_ghost > 0 ? g->n_ghost : 1];
    if (!d->firsts || !d->ghost_begin || !owner || !local) {
        st = s->host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (device graph)", fn);
        goto cleanup;
    }
    for (int r = 0; r < g->size; r++)
        for (int64_t gh = g->ghost_begin[r]; gh < g->ghost_begin[r + 1]; gh++) {
            owner[gh] = r;
            local[gh] = (int32_t)(g->ghost_gid[gh] - g->firsts[r]);
        }
    LG_RANK_TRY(csr_upload(&d->out, &g->out, g->n_local, false), "uploading the graph");
    if (g->directed)
        LG_RANK_TRY(csr_upload(&d->in, &g->in, g->n_local, false), "uploading the graph");
    else
        d->in = d->out;
    LG_RANK_TRY(csr_upload(&d->pull, &g->pull, g->n_local, true), "uploading the graph");
    LG_RANK_TRY(upload(&d->pull_perm, g->pull_perm, g->n_local), "uploading the graph");
    LG_RANK_TRY(upload(&d->ghost_gid, g->ghost_gid, g->n_ghost), "uploading the graph");
    LG_RANK_TRY(upload(&d->ghost_owner, (const int32_t *)owner, g->n_ghost), "uploading the graph");
    LG_RANK_TRY(upload(&d->ghost_local, (const int32_t *)local, g->n_ghost), "uploading the graph");
    if ((st = halo_upload(s, &d->all, &g->all, g->size, g->n_ghost, fn)) != LG_OK ||
        (st = halo_upload(s, &d->pull_halo, &g->pull_halo, g->size, g->n_ghost, fn)) != LG_OK)
        goto cleanup;
    *device_graph = d;
    d = NULL;
cleanup:
    delete[] owner;
    delete[] local;
    rank_graph_free(d);
    return st;
}

/* ---- the halo exchange -------------------------------------------------- */

__global__ void pack(const uint64_t *values, const int32_t *index, int64_t count, uint64_t *out)
{
    LG_FOR_EACH(i, count)
    out[i] = values[index[i]];
}

__global__ void unpack(const uint64_t *in, const int32_t *ghost, int64_t count, uint64_t *values)
{
    LG_FOR_EACH(i, count)
    values[ghost[i]] = in[i];
}

lg_status_t lg__rank_halo(lg_rank_state *s, const lg_rank_graph *g, const lg_rank_halo *h,
                          uint64_t *values, uint64_t *send_buf, uint64_t *recv_buf, int64_t *bytes,
                          const char *fn)
{
    lg_status_t st = LG_OK;
    const struct lg_nccl *n = &s->nccl;
    if (h->send_total > 0) {
        pack<<<lg__blocks_for(h->send_total, 256), 256, 0, s->stream>>>(values, h->send_index,
                                                                        h->send_total, send_buf);
        LG_RANK_TRY(hipGetLastError(), "packing a halo");
    }
    {
        /* the group always ends, whatever a send or receive answered */
        lg_nccl_result_t r = n->group_start();
        for (int q = 0; q < g->size && r == 0; q++) {
            if (q == g->rank)
                continue;
            if (h->send_counts[q] > 0) {
                r = n->send(send_buf + h->send_displs[q], (size_t)h->send_counts[q], LG_NCCL_UINT64,
                            q, s->comm, s->stream);
                *bytes += h->send_counts[q] * 8;
            }
            if (h->recv_counts[q] > 0 && r == 0)
                r = n->recv(recv_buf + h->recv_displs[q], (size_t)h->recv_counts[q], LG_NCCL_UINT64,
                            q, s->comm, s->stream);
        }
        const lg_nccl_result_t end = n->group_end();
        LG_RANK_NCCL(r ? r : end, "exchanging a halo");
    }
    if (h->recv_total > 0) {
        unpack<<<lg__blocks_for(h->recv_total, 256), 256, 0, s->stream>>>(
            recv_buf, h->recv_ghost, h->recv_total, values + g->n_local);
        LG_RANK_TRY(hipGetLastError(), "unpacking a halo");
    }
cleanup:
    return st;
}

/* ---- the entry ---------------------------------------------------------- */

static const struct lg_dist_gpu module = {
    LG_DIST_GPU_ABI_VERSION,
    LG_GPU_PLATFORM,
    LG_ARCS_PER_LANE,
    device_count,
    rank_open,
    rank_unique_id,
    rank_connect,
    rank_close,
    rank_graph_upload,
    rank_graph_free,
    lg__rank_pagerank,
    lg__rank_bfs,
    lg__rank_components,
};

extern "C" __attribute__((visibility("default"))) lg_status_t lg_dist_gpu_entry(
    const struct lg_dist_gpu **out)
{
    *out = &module;
    return LG_OK;
}
