/*
 * bfs.hip - BFS on GPU ranks: src/dist/bfs.c's level-synchronous,
 * direction-optimizing search with the levels on the device and the
 * exchanges through NCCL.
 *
 * A level starts with three global sums (frontier vertices, their out-arcs,
 * the arcs not yet explored; one ncclAllReduce), from which every rank takes
 * the same direction, as on CPU ranks.
 * Top-down: the frontier's arcs are spread evenly over the grid (an
 * exclusive sum of the frontier's degrees, then each wave a run of arcs,
 * rank.h's lg__lb_arcs: the load-balanced expansion of Merrill, Garland and
 * Grimshaw's BFS, PPoPP'12, and Gunrock's LB advance), so a hub's arcs do
 * not fall to one wave; a reached owned vertex joins the next frontier
 * (wave-aggregated appends), a reached ghost (once per search: its
 * distance entry marks it) goes to a list with a count per owner.  One
 * ncclAllGather of the counts sizes the messages; the ghosts are bucketed by
 * owner and sent as owner-local ids (4 bytes, and the parent's 8), one
 * grouped ncclSend/ncclRecv; the owner keeps the first arrival.
 * Bottom-up: the frontier as a bitmap of the owned range, one ncclAllGather
 * makes the whole frontier (every rank's slice padded to the longest),
 * and each unreached owned vertex scans its in-arcs for a frontier vertex.
 */
#include "rank.h"

#include <algorithm>

#include <string.h>

struct bfs_counters {
    unsigned long long next_len, hit_len;
};

struct bfs_dev {
    const lg_edge_t *off, *in_off;
    const lg_vertex_t *idx, *in_idx;
    int64_t nl, ng, first;
    int32_t *dist; /* nl + ng: a ghost's entry >= 0 once it is sent or known reached */
    int64_t *parents;
    int32_t *frontier, *next;
    int64_t *degree, *frontier_off; /* nl + 1 each */
    bfs_counters *counters;
    int32_t *hit; /* ghosts reached this level (ghost indices) */
    int64_t *hit_parent;
    unsigned long long *hit_count, *all_counts, *cursor; /* size, size x size, size */
    int32_t *msg, *recv;
    int64_t *msg_parent, *recv_parent;
    uint32_t *bits;      /* size x words */
    int64_t words;       /* a rank's slice */
    int64_t *ghost_bit;  /* a ghost's bit in bits */
    int64_t *sums;       /* 3 local, 3 global */
    int64_t *unexplored; /* this rank's arcs no frontier has gone out of */
    const int32_t *ghost_owner, *ghost_local;
};

__global__ void start(bfs_dev b, const int32_t *sources, int64_t count)
{
    LG_FOR_EACH(i, count)
    {
        const int32_t v = sources[i];
        b.dist[v] = 0;
        if (b.parents)
            b.parents[v] = b.first + v;
        b.frontier[i] = v;
    }
}

__global__ void frontier_degrees(bfs_dev b, int64_t len)
{
    LG_FOR_EACH(i, len + 1)
    b.degree[i] = i < len ? b.off[b.frontier[i] + 1] - b.off[b.frontier[i]] : 0;
}

/* sums[0..2] = this level's frontier, its out-arcs, the arcs left. */
__global__ void level_sums(bfs_dev b, int64_t len)
{
    const int64_t arcs = len > 0 ? b.frontier_off[len] : 0;
    *b.unexplored -= arcs;
    b.sums[0] = len;
    b.sums[1] = arcs;
    b.sums[2] = *b.unexplored;
}

__global__ void __launch_bounds__(256) top_down(bfs_dev b, int64_t len, int32_t level)
{
    lg__lb_arcs(b.frontier_off, len, b.frontier_off[len], [&](bool valid, int64_t i, int64_t k) {
        bool owned = false, ghost = false;
        int32_t v = -1;
        int64_t parent = 0;
        if (valid) {
            const int32_t u = b.frontier[i];
            v = b.idx[b.off[u] + (k - b.frontier_off[i])];
            if (b.dist[v] < 0 && atomicCAS((int *)&b.dist[v], -1, level + 1) == -1) {
                owned = v < b.nl;
                ghost = !owned;
                parent = b.first + u;
            }
        }
        const long long at = lg__wave_atomic_inc(&b.counters->next_len, owned);
        if (owned) {
            b.next[at] = v;
            if (b.parents)
                b.parents[v] = parent;
        }
        const long long h = lg__wave_atomic_inc(&b.counters->hit_len, ghost);
        if (ghost) {
            const int32_t gh = v - (int32_t)b.nl;
            b.hit[h] = gh;
            b.hit_parent[h] = parent;
            atomicAdd(&b.hit_count[b.ghost_owner[gh]], 1ull);
        }
    });
}

/* The reached ghosts into messages, owner by owner (cursor: the owners'
 * first slots). */
__global__ void bucket(bfs_dev b)
{
    const unsigned long long hits = b.counters->hit_len;
    LG_FOR_EACH(i, hits)
    {
        const int32_t gh = b.hit[i];
        const unsigned long long at = atomicAdd(&b.cursor[b.ghost_owner[gh]], 1ull);
        b.msg[at] = b.ghost_local[gh];
        if (b.parents)
            b.msg_parent[at] = b.hit_parent[i];
    }
}

__global__ void __launch_bounds__(256) receive(bfs_dev b, int64_t count, int32_t level)
{
    LG_FOR_EACH_WAVE(i, count)
    {
        bool reached = false;
        int32_t v = -1;
        if (i < count) {
            v = b.recv[i];
            reached = b.dist[v] < 0 && atomicCAS((int *)&b.dist[v], -1, level + 1) == -1;
        }
        const long long at = lg__wave_atomic_inc(&b.counters->next_len, reached);
        if (reached) {
            b.next[at] = v;
            if (b.parents)
                b.parents[v] = b.recv_parent[i];
        }
    }
}

__global__ void frontier_bits(bfs_dev b, int64_t len, int rank)
{
    uint32_t *mine = b.bits + (int64_t)rank * b.words;
    LG_FOR_EACH(i, len)
    {
        const int32_t u = b.frontier[i];
        atomicOr(&mine[u >> 5], 1u << (u & 31));
    }
}

__device__ inline bool bit_set(const uint32_t *bits, int64_t bit)
{
    return bits[bit >> 5] >> (bit & 31) & 1u;
}

/* Ghosts in the gathered frontier are reached: not to be sent again. */
__global__ void ghosts_seen(bfs_dev b, int32_t level)
{
    LG_FOR_EACH(gh, b.ng)
    if (b.dist[b.nl + gh] < 0 && bit_set(b.bits, b.ghost_bit[gh]))
        b.dist[b.nl + gh] = level;
}

__global__ void __launch_bounds__(256) bottom_up(bfs_dev b, int32_t level, int rank)
{
    const int64_t mine = (int64_t)rank * b.words * 32;
    LG_FOR_EACH_WAVE(v, b.nl)
    {
        bool found = false;
        int64_t parent = 0;
        if (v < b.nl && b.dist[v] < 0) {
            for (lg_edge_t e = b.in_off[v]; e < b.in_off[v + 1]; e++) {
                const int32_t u = b.in_idx[e];
                const bool own = u < b.nl;
                if (bit_set(b.bits, own ? mine + u : b.ghost_bit[u - b.nl])) {
                    found = true;
                    parent = own ? b.first + u : -2 - (int64_t)(u - b.nl);
                    break;
                }
            }
        }
        const long long at = lg__wave_atomic_inc(&b.counters->next_len, found);
        if (found) {
            b.dist[v] = level + 1;
            b.next[at] = (int32_t)v;
            if (b.parents)
                b.parents[v] = parent; /* a ghost's: -2 - its index, named below */
        }
    }
}

/* Bottom-up parents that are ghosts, stored as -2 - ghost index, named. */
__global__ void name_ghost_parents(bfs_dev b, const int64_t *ghost_gid)
{
    LG_FOR_EACH(v, b.nl)
    if (b.parents[v] < -1)
        b.parents[v] = ghost_gid[-2 - b.parents[v]];
}

__global__ void ghost_bits(bfs_dev b, const int32_t *ghost_owner, const int32_t *ghost_local)
{
    LG_FOR_EACH(gh, b.ng)
    b.ghost_bit[gh] = (int64_t)ghost_owner[gh] * b.words * 32 + ghost_local[gh];
}

struct bfs_host {
    int32_t *sources; /* the search's sources this rank owns (local ids), once each */
    int64_t num_sources;
    int64_t *send, *send_displs, *recv, *recv_displs; /* size + 1 each */
    unsigned long long *all_counts;                   /* size x size */
    unsigned long long *cursor;                       /* size */
};

static void bfs_free(bfs_dev *b, bfs_host *h)
{
    void *dev[] = {b->dist,         b->parents,  b->frontier,  b->next,       b->degree,
                   b->frontier_off, b->counters, b->hit,       b->hit_parent, b->hit_count,
                   b->all_counts,   b->cursor,   b->msg,       b->recv,       b->msg_parent,
                   b->recv_parent,  b->bits,     b->ghost_bit, b->sums,       b->unexplored};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        (void)lg__device_free(dev[i]);
    delete[] h->sources;
    delete[] h->send;
    delete[] h->all_counts;
}

/* Everything a search needs, before its first collective. */
static lg_status_t setup(lg_rank_state *s, const lg_rank_graph *g, const lg_dist_gpu_bfs *a,
                         bool parents, bfs_dev *b, bfs_host *h)
{
    static const char fn[] = "lg_dist_bfs";
    const int P = g->size;
    const int64_t nl = g->n_local, ng = g->n_ghost, cols = nl + ng;
    lg_status_t st = LG_OK;
    int64_t words = 0;
    for (int r = 0; r < P; r++) {
        const int64_t w = (g->firsts[r + 1] - g->firsts[r] + 31) / 32;
        words = w > words ? w : words;
    }
    b->off = g->out.offsets;
    b->idx = g->out.indices;
    b->in_off = g->in.offsets;
    b->in_idx = g->in.indices;
    b->nl = nl;
    b->ng = ng;
    b->first = g->firsts[g->rank];
    b->words = words > 0 ? words : 1;
    b->ghost_owner = g->ghost_owner;
    b->ghost_local = g->ghost_local;
    h->send = new (std::nothrow) int64_t[4 * ((size_t)P + 1)];
    h->all_counts = new (std::nothrow) unsigned long long[(size_t)P * P + P];
    h->sources = new (std::nothrow) int32_t[a->num_sources];
    if (!h->send || !h->all_counts || !h->sources)
        return s->host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (BFS counts)", fn);
    for (int64_t i = 0; i < a->num_sources; i++)
        if (a->sources[i] >= b->first && a->sources[i] < b->first + nl)
            h->sources[h->num_sources++] = (int32_t)(a->sources[i] - b->first);
    std::sort(h->sources, h->sources + h->num_sources);
    h->num_sources = std::unique(h->sources, h->sources + h->num_sources) - h->sources;
    h->send_displs = h->send + P + 1;
    h->recv = h->send_displs + P + 1;
    h->recv_displs = h->recv + P + 1;
    h->cursor = h->all_counts + (size_t)P * P;
    const size_t n1 = (size_t)(nl + 1), c1 = (size_t)(cols > 0 ? cols : 1);
    const size_t g1 = (size_t)(ng > 0 ? ng : 1), r1 = (size_t)(g->all.send_total + 1);
    LG_RANK_TRY(lg__device_malloc(&b->dist, c1 * sizeof(int32_t)), "allocating BFS arrays");
    if (parents)
        LG_RANK_TRY(lg__device_malloc(&b->parents, n1 * sizeof(int64_t)), "allocating BFS arrays");
    LG_RANK_TRY(lg__device_malloc(&b->frontier, n1 * sizeof(int32_t)), "allocating BFS arrays");
    LG_RANK_TRY(lg__device_malloc(&b->next, n1 * sizeof(int32_t)), "allocating BFS arrays");
    LG_RANK_TRY(lg__device_malloc(&b->degree, n1 * sizeof(int64_t)), "allocating BFS arrays");
    LG_RANK_TRY(lg__device_malloc(&b->frontier_off, n1 * sizeof(int64_t)), "allocating BFS arrays");
    LG_RANK_TRY(lg__device_malloc(&b->counters, sizeof(bfs_counters)), "allocating BFS arrays");
    LG_RANK_TRY(lg__device_malloc(&b->hit, g1 * sizeof(int32_t)), "allocating BFS messages");
    LG_RANK_TRY(lg__device_malloc(&b->hit_parent, g1 * sizeof(int64_t)), "allocating BFS messages");
    LG_RANK_TRY(lg__device_malloc(&b->msg, g1 * sizeof(int32_t)), "allocating BFS messages");
    LG_RANK_TRY(lg__device_malloc(&b->recv, r1 * sizeof(int32_t)), "allocating BFS messages");
    if (parents) {
        LG_RANK_TRY(lg__device_malloc(&b->msg_parent, g1 * sizeof(int64_t)),
                    "allocating BFS messages");
        LG_RANK_TRY(lg__device_malloc(&b->recv_parent, r1 * sizeof(int64_t)),
                    "allocating BFS messages");
    }
    LG_RANK_TRY(lg__device_malloc(&b->hit_count, (size_t)P * sizeof(unsigned long long)),
                "allocating BFS counts");
    LG_RANK_TRY(lg__device_malloc(&b->all_counts, (size_t)P * P * sizeof(unsigned long long)),
                "allocating BFS counts");
    LG_RANK_TRY(lg__device_malloc(&b->cursor, (size_t)P * sizeof(unsigned long long)),
                "allocating BFS counts");
    LG_RANK_TRY(lg__device_malloc(&b->bits, (size_t)P * b->words * sizeof(uint32_t)),
                "allocating the BFS bitmap");
    LG_RANK_TRY(lg__device_malloc(&b->ghost_bit, g1 * sizeof(int64_t)),
                "allocating the BFS bitmap");
    LG_RANK_TRY(lg__device_malloc(&b->sums, 6 * sizeof(int64_t)), "allocating BFS sums");
    LG_RANK_TRY(lg__device_malloc(&b->unexplored, sizeof(int64_t)), "allocating BFS sums");
    /* the scan's scratch at its largest, so the levels allocate nothing */
    LG_RANK_TRY(lg__exclusive_sum(&s->scratch, b->degree, b->frontier_off, nl + 1, s->stream),
                "BFS set-up");
    LG_RANK_TRY(hipStreamSynchronize(s->stream), "BFS set-up");
cleanup:
    return st;
}

/* One top-down level after its expansion: the ghosts' messages out, the
 * arrivals in. */
static lg_status_t exchange(lg_rank_state *s, const lg_rank_graph *g, bfs_dev *b, bfs_host *h,
                            int32_t level, int64_t *bytes)
{
    static const char fn[] = "lg_dist_bfs";
    const int P = g->size, me = g->rank;
    lg_status_t st = LG_OK;
    const struct lg_nccl *n = &s->nccl;
    LG_RANK_NCCL(
        n->all_gather(b->hit_count, b->all_counts, (size_t)P, LG_NCCL_UINT64, s->comm, s->stream),
        "counting BFS messages");
    LG_RANK_TRY(hipMemcpyAsync(h->all_counts, b->all_counts,
                               (size_t)P * P * sizeof(unsigned long long), hipMemcpyDeviceToHost,
                               s->stream),
                "counting BFS messages");
    LG_RANK_TRY(hipStreamSynchronize(s->stream), "counting BFS messages");
    h->send_displs[0] = h->recv_displs[0] = 0;
    for (int q = 0; q < P; q++) {
        h->send[q] = (int64_t)h->all_counts[(size_t)me * P + q];
        h->recv[q] = q == me ? 0 : (int64_t)h->all_counts[(size_t)q * P + me];
        h->send_displs[q + 1] = h->send_displs[q] + h->send[q];
        h->recv_displs[q + 1] = h->recv_displs[q] + h->recv[q];
        h->cursor[q] = (unsigned long long)h->send_displs[q];
    }
    LG_RANK_TRY(hipMemcpyAsync(b->cursor, h->cursor, (size_t)P * sizeof(unsigned long long),
                               hipMemcpyHostToDevice, s->stream),
                "bucketing BFS messages");
    bucket<<<lg__blocks_for(g->n_ghost, 256), 256, 0, s->stream>>>(*b);
    LG_RANK_TRY(hipGetLastError(), "bucketing BFS messages");
    {
        /* the group always ends, whatever a send or receive answered */
        lg_nccl_result_t r = n->group_start();
        for (int q = 0; q < P && r == 0; q++) {
            if (q == me)
                continue;
            if (h->send[q] > 0) {
                r = n->send(b->msg + h->send_displs[q], (size_t)h->send[q], LG_NCCL_INT32, q,
                            s->comm, s->stream);
                if (b->parents && r == 0)
                    r = n->send(b->msg_parent + h->send_displs[q], (size_t)h->send[q],
                                LG_NCCL_INT64, q, s->comm, s->stream);
                *bytes += h->send[q] * (b->parents ? 12 : 4);
            }
            if (h->recv[q] > 0 && r == 0) {
                r = n->recv(b->recv + h->recv_displs[q], (size_t)h->recv[q], LG_NCCL_INT32, q,
                            s->comm, s->stream);
                if (b->parents && r == 0)
                    r = n->recv(b->recv_parent + h->recv_displs[q], (size_t)h->recv[q],
                                LG_NCCL_INT64, q, s->comm, s->stream);
            }
        }
        const lg_nccl_result_t end = n->group_end();
        LG_RANK_NCCL(r ? r : end, "sending BFS messages");
    }
    if (h->recv_displs[P] > 0) {
        receive<<<lg__blocks_for(h->recv_displs[P], 256), 256, 0, s->stream>>>(
            *b, h->recv_displs[P], level);
        LG_RANK_TRY(hipGetLastError(), "receiving BFS messages");
    }
cleanup:
    return st;
}

static lg_status_t search(lg_rank_state *s, const lg_rank_graph *g, const lg_dist_gpu_bfs *a,
                          bfs_dev *b, bfs_host *h, int32_t *dist, int64_t *parents,
                          struct lg_dist_gpu_run *run)
{
    static const char fn[] = "lg_dist_bfs";
    const int P = g->size, me = g->rank;
    const int64_t nl = g->n_local;
    const unsigned grid = lg__blocks_for(nl + 1, 256);
    lg_status_t st = LG_OK;
    int64_t len = h->num_sources, sums[6];
    const struct lg_nccl *n = &s->nccl;

    LG_RANK_TRY(
        hipMemsetAsync(b->dist, 0xff, (size_t)(nl + g->n_ghost) * sizeof(int32_t), s->stream),
        "BFS set-up");
    if (b->parents)
        LG_RANK_TRY(hipMemsetAsync(b->parents, 0xff, (size_t)(nl + 1) * sizeof(int64_t), s->stream),
                    "BFS set-up");
    LG_RANK_TRY(
        hipMemcpyAsync(b->unexplored, &g->m_out, sizeof(int64_t), hipMemcpyHostToDevice, s->stream),
        "BFS set-up");
    LG_RANK_TRY(hipMemcpyAsync(b->next, h->sources, (size_t)len * sizeof(int32_t),
                               hipMemcpyHostToDevice, s->stream),
                "BFS set-up");
    ghost_bits<<<lg__blocks_for(g->n_ghost, 256), 256, 0, s->stream>>>(*b, g->ghost_owner,
                                                                       g->ghost_local);
    if (len > 0)
        start<<<1, 256, 0, s->stream>>>(*b, b->next, len);
    LG_RANK_TRY(hipGetLastError(), "BFS set-up");
    LG_RANK_TRY(hipStreamSynchronize(s->stream), "BFS set-up");
    {
        bool bottom_up_now = false;
        int32_t level = 0;
        int64_t prev_global = 0;
        for (;;) {
            /* the three global sums of the level */
            if (len > 0) {
                frontier_degrees<<<lg__blocks_for(len + 1, 256), 256, 0, s->stream>>>(*b, len);
                LG_RANK_TRY(hipGetLastError(), "summing the frontier");
                LG_RANK_TRY(
                    lg__exclusive_sum(&s->scratch, b->degree, b->frontier_off, len + 1, s->stream),
                    "summing the frontier");
            }
            level_sums<<<1, 1, 0, s->stream>>>(*b, len);
            LG_RANK_TRY(hipGetLastError(), "summing the frontier");
            LG_RANK_NCCL(n->all_reduce(b->sums, b->sums + 3, 3, LG_NCCL_INT64, LG_NCCL_SUM, s->comm,
                                       s->stream),
                         "summing the frontier");
            LG_RANK_TRY(
                hipMemcpyAsync(sums, b->sums, sizeof sums, hipMemcpyDeviceToHost, s->stream),
                "summing the frontier");
            LG_RANK_TRY(hipStreamSynchronize(s->stream), "summing the frontier");
            const int64_t *global = sums + 3;
            if (global[0] == 0 || (a->max_depth >= 0 && level >= a->max_depth))
                break;
            bool go_bottom_up = bottom_up_now;
            if (a->alpha > 0 && !bottom_up_now)
                go_bottom_up = global[1] > global[2] / a->alpha;
            else if (bottom_up_now)
                go_bottom_up = global[0] >= prev_global || global[0] > a->n / a->beta;
            prev_global = global[0];
            LG_RANK_TRY(hipMemsetAsync(b->counters, 0, sizeof(bfs_counters), s->stream),
                        "running BFS");
            if (go_bottom_up) {
                LG_RANK_TRY(hipMemsetAsync(b->bits + (int64_t)me * b->words, 0,
                                           (size_t)b->words * sizeof(uint32_t), s->stream),
                            "running BFS");
                if (len > 0)
                    frontier_bits<<<lg__blocks_for(len, 256), 256, 0, s->stream>>>(*b, len, me);
                LG_RANK_TRY(hipGetLastError(), "running BFS");
                LG_RANK_NCCL(n->all_gather(b->bits + (int64_t)me * b->words, b->bits,
                                           (size_t)b->words, LG_NCCL_INT32, s->comm, s->stream),
                             "gathering the frontier");
                run->bytes_sent += b->words * 4 * (P - 1);
                ghosts_seen<<<lg__blocks_for(g->n_ghost, 256), 256, 0, s->stream>>>(*b, level);
                bottom_up<<<grid, 256, 0, s->stream>>>(*b, level, me);
                LG_RANK_TRY(hipGetLastError(), "running BFS");
            } else {
                LG_RANK_TRY(hipMemsetAsync(b->hit_count, 0, (size_t)P * sizeof(unsigned long long),
                                           s->stream),
                            "running BFS");
                if (len > 0)
                    top_down<<<grid, 256, 0, s->stream>>>(*b, len, level);
                LG_RANK_TRY(hipGetLastError(), "running BFS");
                if ((st = exchange(s, g, b, h, level, &run->bytes_sent)) != LG_OK)
                    goto cleanup;
            }
            unsigned long long next_len = 0;
            LG_RANK_TRY(hipMemcpyAsync(&next_len, &b->counters->next_len, sizeof next_len,
                                       hipMemcpyDeviceToHost, s->stream),
                        "running BFS");
            LG_RANK_TRY(hipStreamSynchronize(s->stream), "running BFS");
            int32_t *t = b->frontier;
            b->frontier = b->next;
            b->next = t;
            len = (int64_t)next_len;
            bottom_up_now = go_bottom_up;
            level++;
        }
        run->rounds = level;
    }
    if (b->parents && nl > 0) {
        name_ghost_parents<<<lg__blocks_for(nl, 256), 256, 0, s->stream>>>(*b, g->ghost_gid);
        LG_RANK_TRY(hipGetLastError(), "naming BFS parents");
    }
    if (nl > 0) {
        LG_RANK_TRY(hipMemcpyAsync(dist, b->dist, (size_t)nl * sizeof(int32_t),
                                   hipMemcpyDeviceToHost, s->stream),
                    "downloading the distances");
        if (parents)
            LG_RANK_TRY(hipMemcpyAsync(parents, b->parents, (size_t)nl * sizeof(int64_t),
                                       hipMemcpyDeviceToHost, s->stream),
                        "downloading the parents");
    }
    LG_RANK_TRY(hipStreamSynchronize(s->stream), "downloading the distances");
cleanup:
    return st;
}

lg_status_t lg__rank_bfs(void *state, void *device_graph, void *comm,
                         const struct lg_dist_gpu_bfs *a, int32_t *dist, int64_t *parents,
                         struct lg_dist_gpu_run *run)
{
    lg_rank_state *s = (lg_rank_state *)state;
    const lg_rank_graph *g = (const lg_rank_graph *)device_graph;
    bfs_dev b;
    bfs_host h;
    memset(&b, 0, sizeof b);
    memset(&h, 0, sizeof h);
    run->rounds = 0;
    lg__device_guard on_device(s->device);
    lg_status_t st =
        on_device.error() == hipSuccess
            ? setup(s, g, a, parents != NULL, &b, &h)
            : lg__rank_fail(s, on_device.error(), "lg_dist_bfs", "selecting the device");
    if ((st = s->host->agree(comm, st)) == LG_OK)
        st = search(s, g, a, &b, &h, dist, parents, run);
    (void)hipStreamSynchronize(s->stream);
    bfs_free(&b, &h);
    return st;
}
