/*
 * gpu.c - GPU ranks, the host's side: finding and loading the GPU module
 * (src/dist/gpu/dist_gpu.h says what it is), opening a rank's GPU and NCCL
 * communicator, a graph's device copy with PageRank's pull structure, and
 * the three algorithms' calls into the module.
 *
 * The module is libgraph_dist_cuda.so or libgraph_dist_hip.so, looked for
 * where the core looks for its GPU plugin: in libgraph_dist's own directory,
 * then in each LIBGRAPH_PLUGIN_PATH entry (src/graph/modules.h: one search
 * for both); loaded once per process and never unloaded (a GPU runtime
 * registers exit handlers).
 */
#include "dist.h"
#include "gpu/dist_gpu.h"
#include "modules.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LG_DIST_NCCL_ENV "LIBGRAPH_NCCL_LIBRARY"

static const char *const module_names[] = {"libgraph_dist_cuda.so", "libgraph_dist_hip.so"};

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct lg_dist_gpu *module;
static struct lg_module_search search; /* under load_lock */

/* modules.h's accept: whether a dlopened file is a module of this ABI. */
static enum lg_module_verdict accept(void *handle, const char *path, void *arg, char *why,
                                     size_t size)
{
    (void)path, (void)arg;
    void *sym = dlsym(handle, LG_DIST_GPU_ENTRY);
    if (!sym) {
        snprintf(why, size, "not a libgraph_dist GPU module (no symbol " LG_DIST_GPU_ENTRY ")");
        return LG_MODULE_UNLOADED; /* none of its code ran */
    }
    lg_dist_gpu_entry_fn entry;
    const struct lg_dist_gpu *m = NULL;
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */
    if (entry(&m) != LG_OK || !m) {
        snprintf(why, size, "the module failed to start");
    } else if (m->abi_version != LG_DIST_GPU_ABI_VERSION) {
        snprintf(why, size, "module ABI version %d, this libgraph_dist needs %d", m->abi_version,
                 LG_DIST_GPU_ABI_VERSION);
    } else {
        module = m;
        return LG_MODULE_TAKEN;
    }
    return LG_MODULE_REFUSED; /* its initialisers may have run: it stays loaded */
}

static lg_status_t load_module(void)
{
    pthread_mutex_lock(&load_lock);
    if (!module) {
        search.names = module_names;
        search.num_names = sizeof module_names / sizeof module_names[0];
        search.anchor = (const void *)load_module;
        search.accept = accept;
        (void)lg__module_search(&search);
    }
    /* the message from the search's report while no other thread can redo it */
    const lg_status_t st =
        module ? LG_OK
               : lg__dist_error(LG_ERR_UNSUPPORTED,
                                "lg_dist_context_create: GPU ranks need libgraph_dist_cuda.so or "
                                "libgraph_dist_hip.so (built with libgraph_dist where nvcc or "
                                "hipcc is found): %s%s%s",
                                search.failures, search.failures[0] ? "; " : "", search.where);
    pthread_mutex_unlock(&load_lock);
    return st;
}

/* ---- the services lent to the module ---- */

static lg_status_t host_agree(void *comm, lg_status_t st)
{
    return lg__dist_agree((lg_dist_context_t *)comm, st);
}

static const struct lg_dist_gpu_host host = {LG_DIST_GPU_ABI_VERSION, lg__dist_error, host_agree};

/* ---- contexts ---- */

lg_status_t lg__dist_gpu_open(lg_dist_context_t *c)
{
    static const char fn[] = "lg_dist_context_create";
    lg_status_t st = load_module();
    /* the rank's index among the ranks of its node (collective, so first) */
    MPI_Comm node = MPI_COMM_NULL;
    int local_rank = 0;
    int rc = MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &node);
    if (rc != MPI_SUCCESS && st == LG_OK)
        st = lg__dist_mpi_error(rc, "MPI_Comm_split_type");
    if (rc == MPI_SUCCESS)
        MPI_Comm_rank(node, &local_rank);
    int device = c->options.device_id;
    if (st == LG_OK && device < 0) {
        const int count = module->device_count();
        if (count < 1)
            st = lg__dist_error(LG_ERR_DEVICE, "%s: GPU ranks: the %s runtime sees no GPU", fn,
                                module->name);
        else
            device = local_rank % count;
    }
    /* one rank a GPU: NCCL refuses two on one GPU, and the others would
     * then wait in ncclCommInitRank (collective over the node) */
    if (rc == MPI_SUCCESS) {
        MPI_Comm same = MPI_COMM_NULL;
        if (MPI_Comm_split(node, st == LG_OK ? device : MPI_UNDEFINED, local_rank, &same) ==
                MPI_SUCCESS &&
            same != MPI_COMM_NULL) {
            int sharing = 1;
            MPI_Comm_size(same, &sharing);
            if (sharing > 1)
                st = lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                    "%s: %d ranks of one node on GPU %d; GPU ranks need a GPU "
                                    "each (device_id, or no more ranks a node than GPUs)",
                                    fn, sharing, device);
            MPI_Comm_free(&same);
        }
        MPI_Comm_free(&node);
    }
    if (st == LG_OK)
        st = module->open(&host, device, getenv(LG_DIST_NCCL_ENV), &c->gpu, c->device,
                          sizeof c->device);
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        goto fail;
    /* the communicator: rank 0's id to every rank, then each joins */
    unsigned char id[LG_DIST_GPU_ID_BYTES];
    memset(id, 0, sizeof id);
    if (c->rank == 0)
        st = module->unique_id(c->gpu, id);
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        goto fail;
    rc = MPI_Bcast(id, (int)sizeof id, MPI_BYTE, 0, c->comm);
    if (rc != MPI_SUCCESS) {
        st = lg__dist_mpi_error(rc, "MPI_Bcast");
        goto fail;
    }
    if ((st = lg__dist_agree(c, module->connect(c->gpu, id, c->rank, c->size))) != LG_OK)
        goto fail;
    return LG_OK;
fail:
    lg__dist_gpu_close(c);
    return st;
}

void lg__dist_gpu_close(lg_dist_context_t *c)
{
    if (c->gpu)
        module->close(c->gpu);
    c->gpu = NULL;
}

/* ---- a graph's device copy ---- */

/* PageRank's pull structure of g's in-arcs (dist_gpu.h), as the plugin's
 * (src/kernels/hip/pull.hip): rows sorted by in-degree, descending (a stable
 * counting sort), so that the hubs' contributions, read most, sit together;
 * the bins are ranges of that order. */
struct pull {
    int32_t *perm, *rank;
    lg_edge_t *offsets;
    lg_vertex_t *indices;
    float *weights;
    int32_t *send_index;
    int64_t *count; /* by in-degree */
    int64_t bin_begin[LG_DIST_GPU_BINS];
};

static void pull_free(struct pull *p)
{
    free(p->rank);
    free(p->offsets);
    free(p->indices);
    free(p->weights);
    free(p->send_index);
    free(p->count);
}

static int compare_vertex(const void *a, const void *b)
{
    const lg_vertex_t x = *(const lg_vertex_t *)a, y = *(const lg_vertex_t *)b;
    return (x > y) - (x < y);
}

static lg_status_t make_pull(const lg_dist_graph_t *g, int threads, struct pull *p)
{
    const int64_t nl = g->n_local;
    const struct lg_dist_csr in = lg__dist_csr(g->in);
    const int64_t m = in.offsets[nl], sends = g->pull.send_displs[g->size];
    int64_t top = 0; /* the largest in-degree */
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : top)
    for (int64_t v = 0; v < nl; v++) {
        const int64_t d = in.offsets[v + 1] - in.offsets[v];
        top = d > top ? d : top;
    }
    p->perm = lg__dist_alloc((size_t)nl + 1, sizeof *p->perm, "the pull structure");
    p->rank = lg__dist_alloc((size_t)nl + 1, sizeof *p->rank, "the pull structure");
    p->offsets = lg__dist_alloc((size_t)nl + 1, sizeof *p->offsets, "the pull structure");
    p->indices = lg__dist_alloc((size_t)m + 1, sizeof *p->indices, "the pull structure");
    if (in.weights)
        p->weights = lg__dist_alloc((size_t)m + 1, sizeof *p->weights, "the pull structure");
    p->send_index = lg__dist_alloc((size_t)sends + 1, sizeof *p->send_index, "the pull structure");
    p->count = lg__dist_calloc((size_t)top + 1, sizeof *p->count, "the pull structure");
    if (!p->perm || !p->rank || !p->offsets || !p->indices || (in.weights && !p->weights) ||
        !p->send_index || !p->count)
        return LG_ERR_OUT_OF_MEMORY;
    for (int64_t v = 0; v < nl; v++)
        p->count[in.offsets[v + 1] - in.offsets[v]]++;
    for (int64_t d = top, row = 0; d >= 0; d--) { /* degree d's first row */
        const int64_t c = p->count[d];
        p->count[d] = row;
        row += c;
    }
    for (int64_t v = 0; v < nl; v++)
        p->perm[p->count[in.offsets[v + 1] - in.offsets[v]]++] = (int32_t)v;
    /* bin k: rows of degree <= arcs_per_lane << k, the last bin from row 0 */
    const int B = LG_DIST_GPU_BINS;
    int64_t row = nl;
    for (int k = 0; k < B; k++) {
        while (row > 0 &&
               (k == B - 1 || in.offsets[p->perm[row - 1] + 1] - in.offsets[p->perm[row - 1]] <=
                                  ((int64_t)module->arcs_per_lane << k)))
            row--;
        p->bin_begin[k] = row;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < nl; i++)
        p->rank[p->perm[i]] = (int32_t)i;
    p->offsets[0] = 0;
    for (int64_t i = 0; i < nl; i++)
        p->offsets[i + 1] = p->offsets[i] + in.offsets[p->perm[i] + 1] - in.offsets[p->perm[i]];
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t i = 0; i < nl; i++) {
        const int32_t v = p->perm[i];
        lg_edge_t to = p->offsets[i];
        for (lg_edge_t k = in.offsets[v]; k < in.offsets[v + 1]; k++, to++) {
            const lg_vertex_t u = in.indices[k];
            p->indices[to] = u < nl ? p->rank[u] : u;
            if (p->weights)
                p->weights[to] = in.weights[k];
        }
        /* an unweighted row's sources in increasing order, as the plugin's:
         * the lanes of a row then read the hubs' contributions together */
        if (!p->weights)
            qsort(p->indices + p->offsets[i], (size_t)(to - p->offsets[i]), sizeof *p->indices,
                  compare_vertex);
    }
    for (int64_t j = 0; j < sends; j++)
        p->send_index[j] = p->rank[g->pull.send_index[j]];
    return LG_OK;
}

static struct lg_dist_gpu_halo halo_view(const struct lg_dist_halo *h, const int32_t *send_index)
{
    struct lg_dist_gpu_halo v = {h->send_counts, h->send_displs, h->recv_counts,
                                 h->recv_displs, send_index,     h->recv_ghost};
    return v;
}

lg_status_t lg__dist_gpu_upload(lg_dist_context_t *c, lg_dist_graph_t *g)
{
    struct pull p;
    memset(&p, 0, sizeof p);
    lg_status_t st = lg__dist_agree(c, make_pull(g, lg__dist_threads(c), &p));
    if (st == LG_OK) {
        const struct lg_dist_csr out = lg__dist_csr(g->out), in = lg__dist_csr(g->in);
        struct lg_dist_gpu_graph d;
        memset(&d, 0, sizeof d);
        d.rank = g->rank;
        d.size = g->size;
        d.n = g->n;
        d.n_local = g->n_local;
        d.n_ghost = g->n_ghost;
        d.firsts = g->firsts;
        d.ghost_gid = g->ghost_gid;
        d.ghost_begin = g->ghost_begin;
        d.directed = g->in != g->out;
        d.out = (struct lg_dist_gpu_csr){out.offsets, out.indices, out.weights};
        d.in = (struct lg_dist_gpu_csr){in.offsets, in.indices, in.weights};
        d.pull = (struct lg_dist_gpu_csr){p.offsets, p.indices, p.weights};
        d.pull_perm = p.perm;
        memcpy(d.bin_begin, p.bin_begin, sizeof d.bin_begin);
        d.all = halo_view(&g->all, g->all.send_index);
        d.pull_halo = halo_view(&g->pull, p.send_index);
        st = lg__dist_agree(c, module->graph_upload(c->gpu, &d, &g->device));
    }
    if (st == LG_OK) {
        g->pull_perm = p.perm;
        g->device_owner = c->gpu;
    } else {
        free(p.perm);
    }
    pull_free(&p);
    return st;
}

void lg__dist_gpu_graph_free(lg_dist_graph_t *g)
{
    if (g->device)
        module->graph_free(g->device);
    g->device = NULL;
    free(g->pull_perm);
    g->pull_perm = NULL;
}

/* A graph's device copy is made on the context's GPUs when it is built, and
 * serves that context only. */
static lg_status_t check_graph(lg_dist_context_t *c, const lg_dist_graph_t *g, const char *fn)
{
    lg_status_t st = LG_OK;
    if (!g->device)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                            "%s: the graph was built on a CPU context; GPU ranks need one built "
                            "on their GPU context",
                            fn);
    else if (g->device_owner != c->gpu)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                            "%s: the graph was built on another GPU context; GPU ranks need one "
                            "built on theirs",
                            fn);
    return lg__dist_agree(c, st);
}

/* ---- the algorithms ---- */

lg_status_t lg__dist_gpu_pagerank(lg_dist_context_t *c, const lg_dist_graph_t *g,
                                  const lg_pagerank_options_t *o, const double sums[3],
                                  double *scores, int *iterations, double *residual)
{
    static const char fn[] = "lg_dist_pagerank";
    lg_status_t st = check_graph(c, g, fn);
    if (st != LG_OK)
        return st;
    const int64_t nl = g->n_local;
    const int threads = lg__dist_threads(c);
    const bool use_weights = g->weighted && o->use_weights;
    const int32_t *perm = g->pull_perm;
    const struct lg_dist_csr out = lg__dist_csr(g->out);
    const double *pv = o->personalization, *dv = o->dangling ? o->dangling : o->personalization;
    const double p_scale = pv ? 1.0 / sums[0] : 0.0;
    const double d_scale = o->dangling ? 1.0 / sums[2] : p_scale;
    const double x_scale = o->nstart ? 1.0 / sums[1] : 0.0;
    const size_t n1 = (size_t)nl + 1;
    /* on the host only what the device cannot make: weighted out-weights and
     * the vector options, in pull order */
    double *inv_out = use_weights ? lg__dist_alloc(n1, sizeof(double), "PageRank vectors") : NULL;
    double *x0 = o->nstart ? lg__dist_alloc(n1, sizeof(double), "PageRank vectors") : NULL;
    double *p = pv ? lg__dist_alloc(n1, sizeof(double), "PageRank vectors") : NULL;
    double *d = dv ? lg__dist_alloc(n1, sizeof(double), "PageRank vectors") : NULL;
    st = (!use_weights || inv_out) && (!o->nstart || x0) && (!pv || p) && (!dv || d)
             ? LG_OK
             : LG_ERR_OUT_OF_MEMORY;
    if ((st = lg__dist_agree(c, st)) == LG_OK) {
        const bool any = inv_out || x0 || p || d;
#pragma omp parallel for num_threads(threads) schedule(static) if (any)
        for (int64_t i = 0; i < (any ? nl : 0); i++) {
            const int32_t v = perm[i];
            if (inv_out) {
                double ow = 0.0;
                for (lg_edge_t k = out.offsets[v]; k < out.offsets[v + 1]; k++)
                    ow += (double)out.weights[k];
                inv_out[i] = ow > 0.0 ? 1.0 / ow : 0.0;
            }
            if (x0)
                x0[i] = o->nstart[v] * x_scale;
            if (p)
                p[i] = pv[v] * p_scale;
            if (d)
                d[i] = dv[v] * d_scale;
        }
        struct lg_dist_gpu_pagerank a = {
            o->alpha, (double)g->n * o->tol, o->max_iter, g->n, use_weights, inv_out, x0, p, d};
        struct lg_dist_gpu_run run = {0, 0, 0.0};
        st = module->pagerank(c->gpu, g->device, c, &a, scores, &run);
        c->bytes_sent += run.bytes_sent;
        *iterations = run.rounds;
        *residual = run.residual;
    }
    free(inv_out);
    free(x0);
    free(p);
    free(d);
    return st;
}

lg_status_t lg__dist_gpu_bfs(lg_dist_context_t *c, const lg_dist_graph_t *g, const int64_t *sources,
                             int64_t num_sources, const lg_bfs_options_t *o, int32_t *dist,
                             int64_t *parents, lg_dist_traffic_t *traffic)
{
    lg_status_t st = check_graph(c, g, "lg_dist_bfs");
    if (st != LG_OK)
        return st;
    lg__dist_traffic_start(c);
    struct lg_dist_gpu_bfs a = {sources,           num_sources, o->max_depth, o->direction_alpha,
                                o->direction_beta, g->n};
    struct lg_dist_gpu_run run = {0, 0, 0.0};
    st = module->bfs(c->gpu, g->device, c, &a, dist, parents, &run);
    c->bytes_sent += run.bytes_sent;
    return st == LG_OK ? lg__dist_traffic_end(c, run.rounds, traffic) : st;
}

lg_status_t lg__dist_gpu_components(lg_dist_context_t *c, const lg_dist_graph_t *g, int64_t *labels,
                                    int *rounds)
{
    lg_status_t st = check_graph(c, g, "lg_dist_connected_components");
    if (st != LG_OK)
        return st;
    struct lg_dist_gpu_run run = {0, 0, 0.0};
    st = module->components(c->gpu, g->device, c, labels, &run);
    c->bytes_sent += run.bytes_sent;
    *rounds = run.rounds;
    return st;
}
