/*
 * components.hip - weakly connected components on GPU ranks: src/dist/
 * components.c's two steps on the device.
 *
 * Local step: the rank's components over its arcs, owned and ghost columns
 * alike (a ghost's row is empty, so an arc to a ghost links it), by a
 * lock-free union-find: each arc hooks the larger of its endpoints' roots
 * under the smaller by compare-and-swap, with path halving on the finds
 * (the hooking of Jaiganesh and Burtscher's ECL-CC, HPDC'18, and of
 * libgraph's CPU kernel), then one pass points every vertex at its root.
 * The arcs are spread over the grid evenly (rank.h's lg__lb_arcs), so hubs
 * cost no more than their arcs.  An
 * undirected graph's arc between two owned vertices is linked from one side
 * only (u < v).  Each root takes the smallest global id among its vertices.
 * Rounds: the owned vertices' labels go to the ranks that hold them as
 * ghosts (the halo of every ghost, 8 bytes each), each ghost's label lowers
 * its local component's, and one ncclAllReduce says whether any label
 * changed anywhere; a round moves labels one rank further, so the rounds
 * stop after the longest chain of ranks a component spans.  The graph's
 * arcs are stored on both sides of a cut (an undirected graph's two arcs; a
 * directed graph's out- and in-arcs), which is what lets labels travel
 * owner-to-holder only.
 */
#include "rank.h"

#include <string.h>

struct cc_dev {
    int64_t nl, ng, first;
    int32_t *parent;                /* nl + ng: the union-find forest over local ids */
    unsigned long long *root_label; /* nl + ng: a root's smallest global id */
    uint64_t *label; /* nl + ng: the owned labels, then the ghosts' from their owners */
    uint64_t *send_buf, *recv_buf;
    int *changed; /* this rank's flag, then the global one */
    const int64_t *ghost_gid;
};

__device__ inline int32_t find(int32_t *parent, int32_t x)
{
    /* volatile: other threads hook roots while this one walks */
    volatile int32_t *p = parent;
    for (;;) {
        const int32_t y = p[x];
        if (y == x)
            return x;
        const int32_t z = p[y];
        if (z != y)
            p[x] = z; /* path halving: a word store, so a reader sees old or new */
        x = z;
    }
}

__device__ inline void link(int32_t *parent, int32_t u, int32_t v)
{
    for (;;) {
        u = find(parent, u);
        v = find(parent, v);
        if (u == v)
            return;
        if (u < v) {
            const int32_t t = u;
            u = v;
            v = t;
        }
        if (atomicCAS((int *)&parent[u], u, v) == u)
            return;
    }
}

__global__ void init(cc_dev c)
{
    LG_FOR_EACH(i, c.nl + c.ng)
    {
        c.parent[i] = (int32_t)i;
        c.root_label[i] = ~0ull;
    }
}

/* Every arc of rows [0, nl) of (off, idx); only_up: those with u < v. */
__global__ void link_arcs(cc_dev c, const lg_edge_t *off, const lg_vertex_t *idx, bool only_up)
{
    lg__lb_arcs(off, c.nl, off[c.nl], [&](bool valid, int64_t u, int64_t k) {
        if (valid) {
            const int32_t v = idx[k];
            if (!only_up || u < v)
                link(c.parent, (int32_t)u, v);
        }
    });
}

/* Every vertex pointed at its root.  A thread walks without writing and
 * stores only its own entry (others' stores only shorten its walk): path
 * halving here could put back a stale grandparent over a root another
 * thread just stored. */
__global__ void compress(cc_dev c)
{
    LG_FOR_EACH(i, c.nl + c.ng)
    {
        volatile int32_t *p = c.parent;
        int32_t r = (int32_t)i;
        while (p[r] != r)
            r = p[r];
        p[i] = r;
    }
}

/* Each root's smallest global id (after compress: parent[i] is a root). */
__global__ void roots(cc_dev c)
{
    LG_FOR_EACH(i, c.nl + c.ng)
    {
        const unsigned long long gid =
            (unsigned long long)(i < c.nl ? c.first + i : c.ghost_gid[i - c.nl]);
        atomicMin(&c.root_label[c.parent[i]], gid);
    }
}

__global__ void owned_labels(cc_dev c)
{
    LG_FOR_EACH(v, c.nl)
    c.label[v] = c.root_label[c.parent[v]];
}

/* A ghost's label from its owner lowers its local component's. */
__global__ void lower(cc_dev c)
{
    LG_FOR_EACH(gh, c.ng)
    {
        const unsigned long long l = c.label[c.nl + gh];
        const int32_t r = c.parent[c.nl + gh];
        if (l < c.root_label[r] && atomicMin(&c.root_label[r], l) > l)
            *c.changed = 1;
    }
}

static lg_status_t setup(lg_rank_state *s, const lg_rank_graph *g, cc_dev *c)
{
    static const char fn[] = "lg_dist_connected_components";
    const size_t cols = (size_t)(g->n_local + g->n_ghost > 0 ? g->n_local + g->n_ghost : 1);
    lg_status_t st = LG_OK;
    c->nl = g->n_local;
    c->ng = g->n_ghost;
    c->first = g->firsts[g->rank];
    c->ghost_gid = g->ghost_gid;
    LG_RANK_TRY(lg__device_malloc(&c->parent, cols * sizeof(int32_t)), "allocating CC arrays");
    LG_RANK_TRY(lg__device_malloc(&c->root_label, cols * sizeof(unsigned long long)),
                "allocating CC arrays");
    LG_RANK_TRY(lg__device_malloc(&c->label, cols * sizeof(uint64_t)), "allocating CC arrays");
    LG_RANK_TRY(lg__device_malloc(&c->send_buf, (size_t)(g->all.send_total + 1) * 8),
                "allocating the CC halo");
    LG_RANK_TRY(lg__device_malloc(&c->recv_buf, (size_t)(g->all.recv_total + 1) * 8),
                "allocating the CC halo");
    LG_RANK_TRY(lg__device_malloc(&c->changed, 2 * sizeof(int)), "allocating CC flags");
cleanup:
    return st;
}

static lg_status_t label(lg_rank_state *s, const lg_rank_graph *g, cc_dev *c, int64_t *labels,
                         struct lg_dist_gpu_run *run)
{
    static const char fn[] = "lg_dist_connected_components";
    const unsigned cols = lg__blocks_for(c->nl + c->ng, 256);
    const unsigned arcs = lg__blocks_for(g->m_out, 256);
    lg_status_t st = LG_OK;
    init<<<cols, 256, 0, s->stream>>>(*c);
    if (g->m_out > 0)
        link_arcs<<<arcs, 256, 0, s->stream>>>(*c, g->out.offsets, g->out.indices, !g->directed);
    if (g->directed && g->m_in > 0)
        link_arcs<<<lg__blocks_for(g->m_in, 256), 256, 0, s->stream>>>(*c, g->in.offsets,
                                                                       g->in.indices, false);
    compress<<<cols, 256, 0, s->stream>>>(*c);
    roots<<<cols, 256, 0, s->stream>>>(*c);
    LG_RANK_TRY(hipGetLastError(), "labelling local components");
    for (;;) {
        int changed = 0;
        owned_labels<<<cols, 256, 0, s->stream>>>(*c);
        LG_RANK_TRY(hipGetLastError(), "labelling components");
        if ((st = lg__rank_halo(s, g, &g->all, c->label, c->send_buf, c->recv_buf, &run->bytes_sent,
                                fn)) != LG_OK)
            goto cleanup;
        LG_RANK_TRY(hipMemsetAsync(c->changed, 0, sizeof(int), s->stream), "labelling components");
        lower<<<cols, 256, 0, s->stream>>>(*c);
        LG_RANK_TRY(hipGetLastError(), "labelling components");
        LG_RANK_NCCL(s->nccl.all_reduce(c->changed, c->changed + 1, 1, LG_NCCL_INT32, LG_NCCL_MAX,
                                        s->comm, s->stream),
                     "agreeing on a change");
        LG_RANK_TRY(hipMemcpyAsync(&changed, c->changed + 1, sizeof changed, hipMemcpyDeviceToHost,
                                   s->stream),
                    "labelling components");
        LG_RANK_TRY(hipStreamSynchronize(s->stream), "labelling components");
        run->rounds++;
        if (!changed)
            break;
    }
    if (c->nl > 0) {
        owned_labels<<<cols, 256, 0, s->stream>>>(*c);
        LG_RANK_TRY(hipGetLastError(), "labelling components");
        LG_RANK_TRY(hipMemcpyAsync(labels, c->label, (size_t)c->nl * sizeof(int64_t),
                                   hipMemcpyDeviceToHost, s->stream),
                    "downloading the labels");
    }
    LG_RANK_TRY(hipStreamSynchronize(s->stream), "downloading the labels");
cleanup:
    return st;
}

lg_status_t lg__rank_components(void *state, void *device_graph, void *comm, int64_t *labels,
                                struct lg_dist_gpu_run *run)
{
    lg_rank_state *s = (lg_rank_state *)state;
    const lg_rank_graph *g = (const lg_rank_graph *)device_graph;
    cc_dev c;
    memset(&c, 0, sizeof c);
    run->rounds = 0;
    lg__device_guard on_device(s->device);
    lg_status_t st = on_device.error() == hipSuccess
                         ? setup(s, g, &c)
                         : lg__rank_fail(s, on_device.error(), "lg_dist_connected_components",
                                         "selecting the device");
    if ((st = s->host->agree(comm, st)) == LG_OK)
        st = label(s, g, &c, labels, run);
    (void)hipStreamSynchronize(s->stream);
    (void)lg__device_free(c.parent);
    (void)lg__device_free(c.root_label);
    (void)lg__device_free(c.label);
    (void)lg__device_free(c.send_buf);
    (void)lg__device_free(c.recv_buf);
    (void)lg__device_free(c.changed);
    return st;
}
