/*
 * bfs.c - breadth-first search over ranks: level-synchronous and
 * direction-optimizing (Beamer, Asanović, Patterson, SC'12), on a 1D
 * partition, as in Buluç and Madduri's distributed BFS (SC'11) with
 * Beamer's switch added as in the distributed direction-optimizing BFS of
 * Beamer, Buluç, Asanović and Patterson (IPDPSW'13).
 *
 * Top-down level: each rank expands its frontier over its out-arcs; a
 * reached owned vertex joins the next frontier, a reached ghost is sent
 * (once per search: ghost_seen) to its owner as its owner-local id (4 bytes,
 * plus the parent's 8 when parents are asked for) in one all-to-all; the
 * owner keeps the first arrival at each unreached vertex.
 * Bottom-up level: every rank contributes its frontier as a bitmap of its
 * owned range, one allgather makes the whole frontier (|V| / 8 bytes), and
 * each unreached owned vertex scans its in-arcs for a frontier vertex,
 * stopping at the first.
 * The switch is decided from three global sums a level (frontier vertices,
 * their out-arcs, the out-arcs of unreached vertices), so every rank takes
 * the same direction: bottom-up when the frontier's arcs exceed 1/alpha of
 * the unexplored ones, back to top-down when the frontier is under
 * |V| / beta vertices and shrinking.
 *
 * Why not the core's kernel on the rank's graph: lg_bfs runs a search to its
 * end in one call, while a rank's step is one level of its share between two
 * exchanges, and which direction a level takes is decided from global sums.
 */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

struct bfs {
    lg_dist_context_t *c;
    const lg_dist_graph_t *g;
    struct lg_dist_csr out, in;
    int threads;
    int32_t *dist;
    int64_t *parents;         /* NULL: not asked for */
    int32_t *frontier, *next; /* top-down: owned local ids */
    int64_t frontier_len;
    uint64_t *bits;      /* bottom-up: the gathered frontier, all ranks' words */
    uint64_t *next_bits; /* this rank's next frontier */
    int64_t *word_first; /* size + 1: rank r's words start at word_first[r] */
    int64_t *ghost_bit;  /* a ghost's bit in bits */
    uint8_t *ghost_seen; /* sent to its owner already, or known reached */
    int32_t *hit;        /* ghosts reached in this level's top-down step */
    int64_t *hit_parent;
};

static int64_t words_of(int64_t bits)
{
    return (bits + 63) / 64;
}

/* A thread's newly reached vertices, moved into a shared list a batch at a
 * time: one atomic add a batch rather than one a vertex, which 32 threads
 * reaching a million vertices in a level would contend for. */
#define LG_DIST_BATCH 256
struct batch {
    int32_t id[LG_DIST_BATCH];
    int64_t parent[LG_DIST_BATCH];
    int count;
};

static void flush(struct batch *t, int64_t *len, int32_t *ids, int64_t *parents)
{
    if (!t->count)
        return;
    const int64_t at = __atomic_fetch_add(len, t->count, __ATOMIC_RELAXED);
    memcpy(ids + at, t->id, (size_t)t->count * sizeof *ids);
    if (parents)
        memcpy(parents + at, t->parent, (size_t)t->count * sizeof *parents);
    t->count = 0;
}

static void add(struct batch *t, int32_t id, int64_t parent, int64_t *len, int32_t *ids,
                int64_t *parents)
{
    t->id[t->count] = id;
    t->parent[t->count++] = parent;
    if (t->count == LG_DIST_BATCH)
        flush(t, len, ids, parents);
}

/* Top-down: expand the frontier; owned vertices into next (their parents
 * set), ghosts into hit (with the parent to send). */
static void top_down_expand(struct bfs *b, int32_t level, int64_t *next_len, int64_t *hits)
{
    const lg_dist_graph_t *g = b->g;
    const int64_t nl = g->n_local;
    int64_t nn = 0, nh = 0;
#pragma omp parallel num_threads(b->threads)
    {
        struct batch owned, ghosts;
        owned.count = ghosts.count = 0;
#pragma omp for schedule(dynamic, 64) nowait
        for (int64_t i = 0; i < b->frontier_len; i++) {
            const int32_t u = b->frontier[i];
            for (lg_edge_t k = b->out.offsets[u]; k < b->out.offsets[u + 1]; k++) {
                const int32_t v = b->out.indices[k];
                if (v < nl) {
                    int32_t unreached = -1;
                    if (__atomic_load_n(&b->dist[v], __ATOMIC_RELAXED) < 0 &&
                        __atomic_compare_exchange_n(&b->dist[v], &unreached, level + 1, false,
                                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                        if (b->parents)
                            b->parents[v] = g->first + u;
                        add(&owned, v, 0, &nn, b->next, NULL);
                    }
                } else {
                    const int64_t gh = v - nl;
                    if (!__atomic_load_n(&b->ghost_seen[gh], __ATOMIC_RELAXED) &&
                        !__atomic_exchange_n(&b->ghost_seen[gh], 1, __ATOMIC_RELAXED))
                        add(&ghosts, (int32_t)gh, g->first + u, &nh, b->hit, b->hit_parent);
                }
            }
        }
        flush(&owned, &nn, b->next, NULL);
        flush(&ghosts, &nh, b->hit, b->hit_parent);
    }
    *next_len = nn;
    *hits = nh;
}

/* Top-down: send the reached ghosts to their owners; keep what arrives. */
static lg_status_t top_down_exchange(struct bfs *b, int32_t level, int64_t hits, int64_t *next_len)
{
    lg_dist_context_t *c = b->c;
    const lg_dist_graph_t *g = b->g;
    const int P = c->size;
    int64_t *counts = lg__dist_calloc(3 * (size_t)P + 1, sizeof *counts, "BFS message counts");
    int32_t *msg = lg__dist_alloc((size_t)hits, sizeof *msg, "BFS messages");
    int64_t *msg_parent =
        b->parents ? lg__dist_alloc((size_t)hits, sizeof *msg_parent, "BFS messages") : NULL;
    lg_status_t st = counts && msg && (!b->parents || msg_parent) ? LG_OK : LG_ERR_OUT_OF_MEMORY;
    if (st == LG_OK) {
        int64_t *at = counts + P;
        for (int64_t i = 0; i < hits; i++)
            counts[lg__dist_owner(g, g->ghost_gid[b->hit[i]])]++;
        for (int p = 1; p < P; p++)
            at[p] = at[p - 1] + counts[p - 1];
        for (int64_t i = 0; i < hits; i++) {
            const int64_t gid = g->ghost_gid[b->hit[i]];
            const int r = lg__dist_owner(g, gid);
            const int64_t j = at[r]++;
            msg[j] = (int32_t)(gid - g->firsts[r]);
            if (msg_parent)
                msg_parent[j] = b->hit_parent[i];
        }
    }
    st = lg__dist_agree(c, st);
    void *recv = NULL, *recv_parent = NULL;
    int64_t *recv_counts = counts ? counts + 2 * P : NULL;
    if (st == LG_OK)
        st = lg__dist_alltoallv(c, msg, counts, sizeof *msg, &recv, recv_counts);
    if (st == LG_OK && b->parents)
        st = lg__dist_alltoallv(c, msg_parent, counts, sizeof *msg_parent, &recv_parent,
                                recv_counts);
    if (st == LG_OK) {
        int64_t total = 0, nn = *next_len;
        for (int p = 0; p < P; p++)
            total += recv_counts[p];
        const int32_t *ids = recv;
        const int64_t *par = recv_parent;
        for (int64_t i = 0; i < total; i++) {
            const int32_t v = ids[i];
            if (b->dist[v] < 0) {
                b->dist[v] = level + 1;
                if (b->parents)
                    b->parents[v] = par[i];
                b->next[nn++] = v;
            }
        }
        *next_len = nn;
    }
    free(counts);
    free(msg);
    free(msg_parent);
    free(recv);
    free(recv_parent);
    return st;
}

/* Bottom-up: gather the frontier bitmap, then each unreached owned vertex
 * looks for a parent in it. */
static lg_status_t bottom_up_step(struct bfs *b, int32_t level, int64_t *next_len)
{
    lg_dist_context_t *c = b->c;
    const lg_dist_graph_t *g = b->g;
    const int P = c->size;
    const int64_t nl = g->n_local, mine = b->word_first[c->rank];
    int *counts = lg__dist_alloc(2 * (size_t)P, sizeof *counts, "BFS bitmap counts");
    lg_status_t st = lg__dist_agree(c, counts ? LG_OK : LG_ERR_OUT_OF_MEMORY);
    if (st != LG_OK) {
        free(counts);
        return st;
    }
    for (int p = 0; p < P; p++) {
        counts[p] = (int)(b->word_first[p + 1] - b->word_first[p]);
        counts[P + p] = (int)b->word_first[p];
    }
    int rc = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b->bits, counts, counts + P,
                            MPI_UINT64_T, c->comm);
    c->bytes_sent += (int64_t)counts[c->rank] * 8 * (P - 1);
    free(counts);
    if (rc != MPI_SUCCESS)
        return lg__dist_mpi_error(rc, "MPI_Allgatherv");
    const uint64_t *bits = b->bits;
#pragma omp parallel for num_threads(b->threads) schedule(static)
    for (int64_t gh = 0; gh < g->n_ghost; gh++)
        if (!b->ghost_seen[gh] && (bits[b->ghost_bit[gh] >> 6] >> (b->ghost_bit[gh] & 63) & 1))
            b->ghost_seen[gh] = 1;
    memset(b->next_bits, 0, (size_t)words_of(nl) * sizeof *b->next_bits);
    int64_t found = 0;
#pragma omp parallel for num_threads(b->threads) schedule(dynamic, 1024) reduction(+ : found)
    for (int64_t v = 0; v < nl; v++) {
        if (b->dist[v] >= 0)
            continue;
        for (lg_edge_t k = b->in.offsets[v]; k < b->in.offsets[v + 1]; k++) {
            const int32_t u = b->in.indices[k];
            const int64_t bit = u < nl ? mine * 64 + u : b->ghost_bit[u - nl];
            if (bits[bit >> 6] >> (bit & 63) & 1) {
                b->dist[v] = level + 1;
                if (b->parents)
                    b->parents[v] = u < nl ? g->first + u : g->ghost_gid[u - nl];
                __atomic_fetch_or(&b->next_bits[v >> 6], (uint64_t)1 << (v & 63), __ATOMIC_RELAXED);
                found++;
                break;
            }
        }
    }
    *next_len = found;
    return LG_OK;
}

/* Out-arcs of the owned vertices in list. */
static int64_t out_arcs(const struct bfs *b, const int32_t *list, int64_t len)
{
    int64_t sum = 0;
#pragma omp parallel for num_threads(b->threads) schedule(static) reduction(+ : sum)
    for (int64_t i = 0; i < len; i++)
        sum += b->out.offsets[list[i] + 1] - b->out.offsets[list[i]];
    return sum;
}

static void list_to_bits(struct bfs *b)
{
    const int64_t mine = b->word_first[b->c->rank];
    memset(b->bits + mine, 0, (size_t)words_of(b->g->n_local) * sizeof *b->bits);
    for (int64_t i = 0; i < b->frontier_len; i++)
        b->bits[mine + (b->frontier[i] >> 6)] |= (uint64_t)1 << (b->frontier[i] & 63);
}

static void bits_to_list(struct bfs *b, const uint64_t *words)
{
    int64_t len = 0;
    for (int64_t w = 0; w < words_of(b->g->n_local); w++)
        for (uint64_t x = words[w]; x; x &= x - 1)
            b->frontier[len++] = (int32_t)(w * 64 + __builtin_ctzll(x));
    b->frontier_len = len;
}

static lg_status_t check_sources(lg_dist_context_t *c, const lg_dist_graph_t *g,
                                 const int64_t *sources, int64_t num_sources,
                                 const lg_bfs_options_t *o)
{
    static const char fn[] = "lg_dist_bfs";
    lg_status_t st = LG_OK;
    if (num_sources < 1)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: num_sources %lld < 1", fn,
                            (long long)num_sources);
    else if (!sources)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: sources is NULL", fn);
    else if (o->direction_alpha < 0 || o->direction_beta < 1)
        st = lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                            "%s: direction_alpha %d < 0 or direction_beta %d < 1", fn,
                            o->direction_alpha, o->direction_beta);
    else if (o->output_memory != LG_MEMORY_HOST)
        st = lg__dist_error(LG_ERR_UNSUPPORTED, "%s: outputs must be host memory", fn);
    for (int64_t i = 0; st == LG_OK && i < num_sources; i++)
        if (sources[i] < 0 || sources[i] >= g->n)
            st = lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                "%s: source %lld is not a vertex (num_vertices %lld)", fn,
                                (long long)sources[i], (long long)g->n);
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        return st;
    /* the same search on every rank: the sources' count and sum, and the options */
    int64_t sum = 0;
    for (int64_t i = 0; i < num_sources; i++)
        sum += sources[i];
    int64_t sig[12] = {num_sources,       sum, o->max_depth, o->direction_alpha, o->direction_beta,
                       o->compute_parents};
    for (int k = 0; k < 6; k++)
        sig[6 + k] = -sig[k];
    if ((st = lg__dist_max_i64(c, sig, 12)) != LG_OK)
        return st;
    for (int k = 0; k < 6; k++)
        if (sig[k] != -sig[6 + k])
            return lg__dist_error(LG_ERR_INVALID_ARGUMENT,
                                  "%s: the ranks passed different sources or options", fn);
    return LG_OK;
}

lg_status_t lg_dist_bfs(lg_dist_context_t *c, const lg_dist_graph_t *g, const int64_t *sources,
                        int64_t num_sources, const lg_bfs_options_t *options, int32_t *dist,
                        int64_t *parents, lg_dist_traffic_t *traffic)
{
    static const char fn[] = "lg_dist_bfs";
    if (!c)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: context is NULL", fn);
    lg_bfs_options_t defaults;
    if (!options) {
        lg_bfs_options_init(&defaults);
        options = &defaults;
    }
    lg_status_t st = lg__dist_check_call(c, g, fn, g && g->n_local > 0 && !dist);
    if (st == LG_OK)
        st = check_sources(c, g, sources, num_sources, options);
    if (st != LG_OK)
        return st;
    if (c->gpu)
        return lg__dist_gpu_bfs(c, g, sources, num_sources, options, dist, parents, traffic);
    const int P = c->size;
    const int64_t nl = g->n_local;
    struct bfs b;
    memset(&b, 0, sizeof b);
    b.c = c;
    b.g = g;
    b.out = lg__dist_csr(g->out);
    b.in = lg__dist_csr(g->in);
    b.threads = lg__dist_threads(c);
    b.dist = dist;
    b.parents = parents;
    b.frontier = lg__dist_alloc((size_t)nl, sizeof *b.frontier, "BFS frontiers");
    b.next = lg__dist_alloc((size_t)nl, sizeof *b.next, "BFS frontiers");
    b.word_first = lg__dist_alloc((size_t)P + 1, sizeof *b.word_first, "BFS bitmap offsets");
    b.ghost_seen = lg__dist_calloc((size_t)g->n_ghost, 1, "BFS ghost flags");
    b.hit = lg__dist_alloc((size_t)g->n_ghost, sizeof *b.hit, "BFS messages");
    b.hit_parent = lg__dist_alloc((size_t)g->n_ghost, sizeof *b.hit_parent, "BFS messages");
    b.ghost_bit = lg__dist_alloc((size_t)g->n_ghost, sizeof *b.ghost_bit, "BFS ghost bits");
    st =
        b.frontier && b.next && b.word_first && b.ghost_seen && b.hit && b.hit_parent && b.ghost_bit
            ? LG_OK
            : LG_ERR_OUT_OF_MEMORY;
    if (st == LG_OK) {
        b.word_first[0] = 0;
        for (int p = 0; p < P; p++)
            b.word_first[p + 1] = b.word_first[p] + words_of(g->firsts[p + 1] - g->firsts[p]);
        if (b.word_first[P] > INT32_MAX)
            st = lg__dist_error(LG_ERR_UNSUPPORTED, "%s: a frontier bitmap past 2^31 words", fn);
    }
    if (st == LG_OK) {
        b.bits = lg__dist_calloc((size_t)b.word_first[P], sizeof *b.bits, "the BFS bitmap");
        b.next_bits = lg__dist_calloc((size_t)words_of(nl), sizeof *b.next_bits, "the BFS bitmap");
        if (!b.bits || !b.next_bits)
            st = LG_ERR_OUT_OF_MEMORY;
    }
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        goto cleanup;
    for (int r = 0, gh = 0; r < P; r++)
        for (; gh < g->ghost_begin[r + 1]; gh++)
            b.ghost_bit[gh] = b.word_first[r] * 64 + (g->ghost_gid[gh] - g->firsts[r]);
    lg__dist_traffic_start(c);

#pragma omp parallel for num_threads(b.threads) schedule(static)
    for (int64_t v = 0; v < nl; v++) {
        dist[v] = -1;
        if (parents)
            parents[v] = -1;
    }
    for (int64_t i = 0; i < num_sources; i++) {
        const int64_t s = sources[i];
        if (s >= g->first && s < g->first + nl && dist[s - g->first] < 0) {
            dist[s - g->first] = 0;
            if (parents)
                parents[s - g->first] = s;
            b.frontier[b.frontier_len++] = (int32_t)(s - g->first);
        }
    }
    const int alpha = options->direction_alpha, beta = options->direction_beta;
    int64_t unexplored = b.out.offsets[nl]; /* arcs no frontier has yet gone out of */
    bool bottom_up = false;
    int32_t level = 0;
    int64_t prev_global = 0;
    for (;;) {
        /* frontier vertices, their out-arcs, the unreached vertices' out-arcs */
        if (bottom_up) /* the frontier is next_bits */
            bits_to_list(&b, b.next_bits);
        int64_t sums[3] = {b.frontier_len, out_arcs(&b, b.frontier, b.frontier_len), 0};
        unexplored -= sums[1];
        sums[2] = unexplored;
        if ((st = lg__dist_sum_i64(c, sums, 3)) != LG_OK)
            goto cleanup;
        if (sums[0] == 0 || (options->max_depth >= 0 && level >= options->max_depth))
            break;
        bool go_bottom_up = bottom_up;
        if (alpha > 0 && !bottom_up)
            go_bottom_up = sums[1] > sums[2] / alpha;
        else if (bottom_up)
            go_bottom_up = sums[0] >= prev_global || sums[0] > g->n / beta;
        prev_global = sums[0];
        int64_t next_len = 0;
        if (go_bottom_up) {
            list_to_bits(&b);
            st = bottom_up_step(&b, level, &next_len);
            b.frontier_len = next_len; /* its list is made at the next level's top */
        } else {
            int64_t hits = 0;
            top_down_expand(&b, level, &next_len, &hits);
            st = top_down_exchange(&b, level, hits, &next_len);
            int32_t *t = b.frontier;
            b.frontier = b.next;
            b.next = t;
            b.frontier_len = next_len;
        }
        if (st != LG_OK)
            goto cleanup;
        bottom_up = go_bottom_up;
        level++;
    }
    st = lg__dist_traffic_end(c, level, traffic);
cleanup:
    free(b.frontier);
    free(b.next);
    free(b.word_first);
    free(b.ghost_seen);
    free(b.hit);
    free(b.hit_parent);
    free(b.ghost_bit);
    free(b.bits);
    free(b.next_bits);
    return st;
}
