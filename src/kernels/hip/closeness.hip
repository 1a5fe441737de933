/*
 * closeness.hip - closeness and harmonic centrality on the GPU, one HIP
 * source for AMD (wave 64 and 32) and NVIDIA (CUDA).
 *
 * Returns: centrality[u] as lg_closeness defines it (the CPU kernel's
 * header, src/kernels/cpu/closeness.c, says the same in C).
 *
 * Method: the searches from a batch of vertices at once, each level (or
 * round) one launch over every vertex and search of the batch, pulled
 * along the out-arcs: the search from u follows in-arcs, so v is at
 * distance d(v, u) through an out-arc v -> x and x's distance.
 *  - Unweighted, multi-source BFS with a bit a search (Then et al., "The
 *    More the Merrier", VLDB 2015, as the CPU kernel): W words of 64
 *    searches a vertex, laid out a word at a time (word j of vertex v at
 *    j * np + v), so a wave's items are consecutive vertices of one word.
 *    A level ORs v's out-neighbours' last-level bits into the searches that
 *    have not reached v; the wave counts the new bits search by search with
 *    ballots and adds each count once (an integer atomicAdd: the order does
 *    not matter).  After the level each search folds its count into its
 *    reached vertices, distance sum (integers, as the CPU's, so closeness
 *    equals the CPU's to the bit) and sum of 1 / level (in level order).
 *  - Weighted, Bellman-Ford rounds on B searches' distances a vertex
 *    (search b of vertex v at v * B + b: a wave's lanes are one vertex's
 *    searches, so each arc's gather is coalesced):
 *    d'(v) = min(d(v), min over v -> x of d(x) + w), from one buffer into
 *    the other, until no distance drops.  The sums d(x) + w are formed as
 *    the CPU's Dijkstra forms them and the least fixed point is unique, so
 *    the distances equal the CPU's; each search's sums are then added over
 *    fixed chunks of vertices and the chunks in order.
 * Either way the result is the same on every call.  A batch takes as many
 * searches as fill the GPU, within MAX_BATCH_BYTES and at most a quarter of the
 * vertices (the progress callback is told between batches).
 *
 * Cost: unweighted, the levels of n / 64 words, each level every arc once
 * a word (a vertex whose word is complete skips its row); weighted, a
 * round every arc once a search, rounds = the most arcs on a shortest path
 * + 1.  Memory (the context's work buffer): unweighted 24 bytes a vertex a
 * word plus 40 a search; weighted 16 bytes a vertex a search, plus 32 a
 * chunk a search.
 */
#include "closeness_value.h"
#include "gpu.h"

#define CL_BLOCK 256
/* A batch's items (vertices x words, or vertices x searches) aimed at: enough to fill the GPU. */
#define TARGET_ITEMS ((int64_t)1 << 21)
/* A batch's arrays at the most. */
#define MAX_BATCH_BYTES ((size_t)1 << 29)
/* A batch takes at most 1 / MIN_BATCHES of the vertices (progress, cancellation). */
#define MIN_BATCHES 4
/* Weighted: the vertices one partial sum covers. */
#define CHUNK 256

namespace
{

/* A search's sums (weighted: over a chunk of vertices): the vertices it
 * reached, their distances (hops: an integer; weighted: a double) and their
 * inverse distances. */
struct tally {
    unsigned long long reached, hops;
    double sum, inverse;
};

/* ---- unweighted: a bit a search ------------------------------------------------------ */

struct hop_args {
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    int64_t n, np;                   /* vertices, and a word's stride (n rounded up to 64) */
    int64_t words;                   /* this batch's */
    int64_t searches;                /* this batch's: the first `searches` bits of the words */
    lg_vertex_t first;               /* the batch's first search starts at this vertex */
    unsigned long long *seen;        /* words * np: the searches that reached v */
    const unsigned long long *visit; /* ... at the last level */
    unsigned long long *next;        /* ... at this level (written) */
    unsigned long long *count;       /* 64 words: new vertices a search at this level */
};

/* The batch's starting bits: search k of word j starts at first + 64 j + k. */
__global__ void hop_start(hop_args a, unsigned long long *visit, tally *tallies)
{
    LG_FOR_EACH(i, a.words * a.np)
    {
        const int64_t j = i / a.np, v = i % a.np, k = v - a.first - 64 * j;
        const unsigned long long bit = k >= 0 && k < 64 && 64 * j + k < a.searches ? 1ull << k : 0;
        a.seen[i] = bit;
        visit[i] = bit;
    }
    LG_FOR_EACH(s, 64 * a.words)
    {
        tallies[s] = tally{1, 0, 0.0, 0.0};
        a.count[s] = 0;
    }
}

/* One level: each (word, vertex) item's new bits, counted a search. */
__global__ void __launch_bounds__(CL_BLOCK) hop_level(hop_args a, unsigned long long *any)
{
    LG_FOR_EACH(i, a.words * a.np) /* words * np is a multiple of 64: whole waves */
    {
        const int64_t j = i / a.np, v = i % a.np;
        unsigned long long fresh = 0;
        const int64_t left = a.searches - 64 * j; /* the word's searches */
        if (v < a.n && left > 0) {
            const unsigned long long need = ~a.seen[i] & (left >= 64 ? ~0ull : (1ull << left) - 1);
            if (need) {
                const unsigned long long *visit = a.visit + j * a.np;
                unsigned long long got = 0;
                for (lg_edge_t e = a.off[v]; e < a.off[v + 1]; e++) {
                    got |= visit[lg__ldg(a.idx + e)];
                    if ((got & need) == need)
                        break;
                }
                fresh = got & need;
                if (fresh)
                    a.seen[i] |= fresh;
            }
        }
        a.next[i] = fresh;
        if (lg__wave_any(fresh != 0)) {
            /* lane l keeps the counts of searches l, l + LG_WAVE_SIZE, ... */
            unsigned long long mine[64 / LG_WAVE_SIZE] = {};
            for (int k = 0; k < 64; k++) {
                const int c = lg__popc(lg__wave_ballot((fresh >> k) & 1));
                if (lg__lane_id() == k % LG_WAVE_SIZE)
                    mine[k / LG_WAVE_SIZE] += (unsigned long long)c;
            }
            for (int h = 0; h < 64 / LG_WAVE_SIZE; h++)
                if (mine[h])
                    atomicAdd(a.count + 64 * j + h * LG_WAVE_SIZE + lg__lane_id(), mine[h]);
            if (lg__lane_id() == 0)
                *any = 1;
        }
    }
}

/* A level's counts into the searches' sums (a thread a search: in level order). */
__global__ void hop_fold(unsigned long long *count, tally *tallies, int64_t searches, int64_t level)
{
    LG_FOR_EACH(s, searches)
    {
        const unsigned long long c = count[s];
        if (!c)
            continue;
        count[s] = 0;
        tallies[s].reached += c;
        tallies[s].hops += c * (unsigned long long)level;
        tallies[s].inverse += (double)c / (double)level;
    }
}

/* ---- weighted: a distance a search ----------------------------------------------------- */

struct weight_args {
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;    /* the float32 weights, or NULL */
    const double *w64; /* a float64 graph's, read instead of w */
    int64_t n, B;      /* vertices; searches a batch (a multiple of 64) */
};

__global__ void weight_start(weight_args a, lg_vertex_t first, int64_t searches, double *d)
{
    LG_FOR_EACH(i, a.n * a.B)
    {
        const int64_t v = i / a.B, b = i % a.B;
        d[i] = b < searches && v == first + b ? 0.0 : INFINITY;
    }
}

/* One round: to[v, b] = min(from[v, b], min over v -> x of from[x, b] + w). */
__global__ void __launch_bounds__(CL_BLOCK)
    weight_round(weight_args a, const double *from, double *to, unsigned long long *any)
{
    LG_FOR_EACH(i, a.n * a.B) /* B is a multiple of 64: a wave is one vertex's */
    {
        const int64_t v = i / a.B, b = i % a.B;
        const double mine = from[i];
        double d = mine;
        for (lg_edge_t e = a.off[v]; e < a.off[v + 1]; e++) {
            const double c =
                from[(int64_t)lg__ldg(a.idx + e) * a.B + b] + (a.w64 ? a.w64[e] : (double)a.w[e]);
            if (c < d)
                d = c;
        }
        to[i] = d;
        if (d < mine)
            *any = 1;
    }
}

/* Each search's sums over a chunk of CHUNK vertices (a thread a chunk and
 * search, the vertices in order). */
__global__ void weight_chunks(weight_args a, const double *d, tally *parts, int64_t chunks)
{
    LG_FOR_EACH(i, chunks * a.B)
    {
        const int64_t c = i / a.B, b = i % a.B;
        const int64_t hi = (c + 1) * CHUNK < a.n ? (c + 1) * CHUNK : a.n;
        tally t = {0, 0, 0.0, 0.0};
        for (int64_t v = c * CHUNK; v < hi; v++) {
            const double x = d[v * a.B + b];
            if (x == INFINITY)
                continue;
            t.reached++;
            t.sum += x;
            if (x > 0.0)
                t.inverse += 1.0 / x;
        }
        parts[i] = t;
    }
}

/* ---- both -------------------------------------------------------------------------------- */

/* The values of searches [0, searches) of the batch starting at first:
 * weighted, from the chunks' sums (chunks of them, added in order). */
__global__ void values(struct lg_closeness_args ca, int64_t n, const tally *t, int64_t chunks,
                       int64_t stride, lg_vertex_t first, int64_t searches, double *out)
{
    LG_FOR_EACH(s, searches)
    {
        double v;
        if (chunks == 0) {
            v = lg_closeness_value(&ca, n, (int64_t)t[s].reached, (double)t[s].hops, t[s].inverse);
        } else {
            int64_t r = 0;
            double sum = 0.0, inverse = 0.0;
            for (int64_t c = 0; c < chunks; c++) {
                const tally &p = t[c * stride + s];
                r += (int64_t)p.reached;
                sum += p.sum;
                inverse += p.inverse;
            }
            v = lg_closeness_value(&ca, n, r, sum, inverse);
        }
        out[first + s] = v;
    }
}

/* Searches a batch: a multiple of `unit` that fills the GPU (items =
 * searches / unit * per_unit_items), its arrays (unit_bytes a unit) within
 * MAX_BATCH_BYTES, at most 1 / MIN_BATCHES of the n vertices. */
int64_t batch_searches(int64_t n, int64_t unit, int64_t per_unit_items, size_t unit_bytes)
{
    int64_t units = (TARGET_ITEMS + per_unit_items - 1) / per_unit_items;
    const int64_t by_bytes = (int64_t)(MAX_BATCH_BYTES / unit_bytes);
    const int64_t by_reports = (n / MIN_BATCHES + unit - 1) / unit;
    if (units > by_bytes)
        units = by_bytes;
    if (units > by_reports)
        units = by_reports;
    const int64_t all = (n + unit - 1) / unit;
    if (units > all)
        units = all;
    return (units < 1 ? 1 : units) * unit;
}

lg_status_t closeness_on_device(lg__gpu_state *s, const struct lg_graph_view *g, const void *args)
{
    static const char fn[] = "lg_closeness";
    const struct lg_closeness_args *call = (const struct lg_closeness_args *)args;
    const int64_t n = g->n;
    const bool weighted = call->use_weights && g->out.weights;
    lg__dev_graph *dg = NULL;
    bool temporary = false;
    lg_status_t st = lg__dev_graph_get(s, g, fn, false, &dg, &temporary);
    if (st != LG_OK)
        return st;
    double *result = NULL;
    unsigned long long *any = NULL;
    tally *tallies = NULL;
    const int64_t np = (n + 63) / 64 * 64;
    /* unweighted: a batch of `words` words (64 searches each); weighted: of B searches */
    const int64_t B = weighted ? batch_searches(n, 64, 64 * n, 2 * 64 * (size_t)n * sizeof(double))
                               : batch_searches(n, 64, np, 3 * (size_t)np * 8);
    const int64_t words = B / 64, chunks = (n + CHUNK - 1) / CHUNK;
    unsigned long long *bits[3] = {NULL, NULL, NULL}, *count = NULL;
    double *dist[2] = {NULL, NULL};
    {
        lg__carve c = {0, NULL};
        const size_t at_result = c.add((size_t)n * sizeof *result);
        const size_t at_any = c.add(sizeof *any);
        const size_t at_tallies = c.add((size_t)(weighted ? chunks * B : B) * sizeof *tallies);
        size_t at[3] = {0, 0, 0}, at_count = 0;
        if (weighted) {
            at[0] = c.add((size_t)(n * B) * sizeof(double));
            at[1] = c.add((size_t)(n * B) * sizeof(double));
        } else {
            for (int i = 0; i < 3; i++)
                at[i] = c.add((size_t)(words * np) * sizeof(unsigned long long));
            at_count = c.add((size_t)B * sizeof *count);
        }
        LG_TRY_OR_CLEANUP(lg__scratch_reserve(&s->work, c.used), "allocating the searches");
        c.base = (char *)s->work.ptr;
        result = c.take<double>(at_result);
        any = c.take<unsigned long long>(at_any);
        tallies = c.take<tally>(at_tallies);
        if (weighted) {
            dist[0] = c.take<double>(at[0]);
            dist[1] = c.take<double>(at[1]);
        } else {
            for (int i = 0; i < 3; i++)
                bits[i] = c.take<unsigned long long>(at[i]);
            count = c.take<unsigned long long>(at_count);
        }
    }
    for (int64_t first = 0; first < n; first += B) {
        const int64_t searches = n - first < B ? n - first : B;
        unsigned long long h = 1;
        if (weighted) {
            const weight_args a = {dg->out.offsets,
                                   dg->out.indices,
                                   dg->out.weights64 ? NULL : dg->out.weights,
                                   dg->out.weights64,
                                   n,
                                   B};
            const unsigned blocks = lg__blocks_for(n * B, CL_BLOCK);
            weight_start<<<blocks, CL_BLOCK, 0, s->stream>>>(a, (lg_vertex_t)first, searches,
                                                             dist[0]);
            LG_TRY_OR_CLEANUP(lg__launched(), "starting the searches");
            while (h) {
                LG_TRY_OR_CLEANUP(hipMemsetAsync(any, 0, sizeof *any, s->stream), "searching");
                weight_round<<<blocks, CL_BLOCK, 0, s->stream>>>(a, dist[0], dist[1], any);
                LG_TRY_OR_CLEANUP(lg__launched(), "searching");
                LG_TRY_OR_CLEANUP(lg__download(s, &h, any, sizeof h), "searching");
                double *t = dist[0];
                dist[0] = dist[1], dist[1] = t;
            }
            weight_chunks<<<lg__blocks_for(chunks * B, CL_BLOCK), CL_BLOCK, 0, s->stream>>>(
                a, dist[0], tallies, chunks);
            LG_TRY_OR_CLEANUP(lg__launched(), "summing the distances");
        } else {
            hop_args a = {dg->out.offsets,    dg->out.indices, n,       np,      words, searches,
                          (lg_vertex_t)first, bits[0],         bits[1], bits[2], count};
            const unsigned blocks = lg__blocks_for(words * np, CL_BLOCK);
            hop_start<<<blocks, CL_BLOCK, 0, s->stream>>>(a, bits[1], tallies);
            LG_TRY_OR_CLEANUP(lg__launched(), "starting the searches");
            for (int64_t level = 1; h; level++) {
                LG_TRY_OR_CLEANUP(hipMemsetAsync(any, 0, sizeof *any, s->stream), "searching");
                hop_level<<<blocks, CL_BLOCK, 0, s->stream>>>(a, any);
                LG_TRY_OR_CLEANUP(lg__launched(), "searching");
                hop_fold<<<lg__blocks_for(searches, CL_BLOCK), CL_BLOCK, 0, s->stream>>>(
                    count, tallies, searches, level);
                LG_TRY_OR_CLEANUP(lg__launched(), "searching");
                LG_TRY_OR_CLEANUP(lg__download(s, &h, any, sizeof h), "searching");
                unsigned long long *t = (unsigned long long *)a.visit;
                a.visit = a.next, a.next = t;
            }
        }
        values<<<lg__blocks_for(searches, CL_BLOCK), CL_BLOCK, 0, s->stream>>>(
            *call, n, tallies, weighted ? chunks : 0, B, (lg_vertex_t)first, searches, result);
        LG_TRY_OR_CLEANUP(lg__launched(), "scaling");
        LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "searching");
        if (!lg_progress_go_on(s->progress, LG_STAGE_CLOSENESS, first + searches, n, 0.0)) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
    }
    LG_TRY_OR_CLEANUP(lg__deliver(s, call->centrality, result, (size_t)n * sizeof *result),
                      "downloading the centrality");
cleanup:
    (void)hipStreamSynchronize(s->stream);
    if (temporary)
        lg__dev_graph_free(dg);
    return st;
}

} // namespace

lg_status_t lg__gpu_closeness(const struct lg_exec *x, const struct lg_graph_view *g,
                              const void *args)
{
    return lg__gpu_run(x, g, args, "lg_closeness", closeness_on_device);
}

/* The plugin's closeness (plugin.hip): pulls along the out-arcs. */
LG_GPU_KERNEL_ROW(closeness, CLOSENESS, false)
