/*
 * components.c - connected components on the CPU.
 *
 * Returns: label[v] = the smallest vertex id of v's component (weakly
 * connected components on a directed graph), and the number of components.
 *
 * Method: Afforest (Sutton, Ben-Nun, Barak, "Optimizing Parallel Graph
 * Connectivity Computation via Subgraph Sampling", IPDPS'18) over a
 * concurrent union-find, with the paper's parameters and GAPBS's cc.cc's
 * steps, but the neighbour rounds fused and no compress before the sample.
 *   1. Link every vertex with its first NEIGHBOR_ROUNDS out-neighbours only,
 *      in one pass (Afforest runs a round a neighbour with a compress after
 *      each; path halving in the finds keeps the trees shallow without
 *      them).  On real and Kronecker graphs this already gathers most
 *      vertices into one large intermediate component.
 *   2. Sample SAMPLES vertices to find that component, the most frequent root.
 *   3. Link the remaining edges of every vertex outside it; its own vertices
 *      (those whose parent or grandparent is its root: nearly all of them)
 *      are skipped, which is where the time goes away: an edge between the
 *      big component and another vertex is still seen from the other side,
 *      because an undirected graph stores it in both rows.  A directed graph
 *      stores it once, so there the other side also links its in-edges when
 *      the CSC is already built; when it is not, nothing is skipped (building
 *      a transpose costs more than the skipping saves).
 *   4. Compress.
 * Linking is by index, as in Afforest (union_find.h): a parent is always
 * smaller than its child, each root is the smallest id of its component, and
 * the labels come out canonical without a relabelling pass.
 *
 * Encoding: label[] is the parent array while linking.  Cost: a find and
 * link an arc, fewer when the big component is skipped, on trees that path
 * halving keeps shallow.  Memory: label[] only (the sample is on the stack).
 *
 * Vectors (vec.h): the streaming pass, the first labels, is a vector loop.
 * Linking and compressing are not: they chase parents through label[]
 * while other threads move them, one atomic access at a time (a vector load
 * there would race with those stores).  The last compress counts the roots
 * as it goes.
 */
#include "cpu.h"
#include "union_find.h"
#include "vec.h"

/* Afforest's parameters, as in the paper and GAPBS: the neighbours each
 * vertex is linked with first, and the vertices sampled. */
#define NEIGHBOR_ROUNDS 2
#define SAMPLES 1024
/* Labels a task of the first labels takes: a vector loop (vec.h). */
#define LABEL_BLOCK 16384
/* Vertices a task of the neighbour pass takes. */
#define ROUND_BLOCK 16384

/* Points every vertex at its root; returns the roots. */
static int64_t compress(lg_vertex_t *label, int64_t n, int threads)
{
    int64_t roots = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : roots)
    for (int64_t v = 0; v < n; v++) {
        const lg_vertex_t root = lg__uf_find(label, (lg_vertex_t)v);
        __atomic_store_n(&label[v], root, __ATOMIC_RELAXED);
        roots += root == v;
    }
    return roots;
}

/* The most frequent root of SAMPLES vertices drawn at random (a fixed seed:
 * the result does not depend on it, only the speed; ties go to the smallest
 * root).  Counted in a hash table of twice the samples, linear probing:
 * O(SAMPLES) whatever the labels (sorting the sample costs ~260,000 moves by
 * insertion when the labels are still many, as on a sparse graph). */
static lg_vertex_t most_frequent_label(lg_vertex_t *label, int64_t n)
{
    enum {
        SLOTS = 2 * SAMPLES
    };
    lg_vertex_t key[SLOTS];
    int count[SLOTS] = {0};
    uint64_t state = 0x5EEDull;
    lg_vertex_t best = 0;
    int best_count = 0;
    for (int i = 0; i < SAMPLES; i++) {
        const lg_vertex_t l = lg__uf_find(label, (lg_vertex_t)(lg__mix64(state++) % (uint64_t)n));
        unsigned h = (unsigned)lg__mix64((uint64_t)l) & (SLOTS - 1);
        while (count[h] && key[h] != l)
            h = (h + 1) & (SLOTS - 1);
        key[h] = l;
        const int c = ++count[h];
        if (c > best_count || (c == best_count && l < best))
            best = l, best_count = c;
    }
    return best;
}

/* Afforest's neighbour rounds over the vertices [v0, v1), in one pass:
 * each vertex linked with its first NEIGHBOR_ROUNDS out-neighbours.  The
 * arcs' load misses the cache for almost every vertex (the row's start),
 * and the link's compare-and-swap, a locked instruction on x86, keeps the
 * loads after it from going ahead, so one vertex's miss would follow
 * another's.  Prefetches are not held back: the arcs AHEAD vertices on are
 * asked for, and the labels of the neighbours AHEAD / 2 on, whose arcs
 * have arrived by then. */
#define AHEAD 32
static void neighbour_links(lg_vertex_t *label, const lg_edge_t *off, const lg_vertex_t *adj,
                            int64_t v0, int64_t v1, int64_t n)
{
    for (int64_t v = v0; v < v1; v++) {
        if (v + AHEAD < n && off[v + AHEAD] < off[v + AHEAD + 1])
            __builtin_prefetch(&adj[off[v + AHEAD]]);
        if (v + AHEAD / 2 < n) {
            const lg_edge_t e = off[v + AHEAD / 2], end = off[v + AHEAD / 2 + 1];
            for (int k = 0; k < NEIGHBOR_ROUNDS && e + k < end; k++)
                __builtin_prefetch(&label[adj[e + k]]);
        }
        for (lg_edge_t e = off[v], end = off[v + 1]; e < off[v] + NEIGHBOR_ROUNDS && e < end; e++)
            lg__uf_link(label, (lg_vertex_t)v, adj[e]);
    }
}

/* The streaming pass over label[v0, v1): every vertex its own label. */
LG_PASS void first_labels(lg_vertex_t *label, int64_t v0, int64_t v1)
{
    LG_SIMD
    for (int64_t v = v0; v < v1; v++)
        label[v] = (lg_vertex_t)v;
}

static lg_status_t components(const struct lg_exec *x, const struct lg_graph_view *g,
                              const void *args)
{
    const struct lg_components_args *a = args;
    lg_vertex_t *labels = a->labels;
    int64_t *num_components = a->num_components;
    const int threads = lg__team_size(x->num_threads, g->n + g->m);
    const int64_t n = g->n;
    const lg_edge_t *off = g->out.offsets;
    const lg_vertex_t *adj = g->out.indices;
    /* a directed graph may skip the big component only if it can look back */
    const bool have_in = !g->directed || g->in.offsets;
    const lg_edge_t *in_off = have_in && g->directed ? g->in.offsets : NULL;
    const lg_vertex_t *in_adj = have_in && g->directed ? g->in.indices : NULL;

#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t b = 0; b < n; b += LABEL_BLOCK)
        first_labels(labels, b, b + LABEL_BLOCK < n ? b + LABEL_BLOCK : n);

#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int64_t b = 0; b < n; b += ROUND_BLOCK)
        neighbour_links(labels, off, adj, b, b + ROUND_BLOCK < n ? b + ROUND_BLOCK : n, n);
    if (!lg_exec_go_on(x, LG_STAGE_COMPONENTS, 1, 2, 0.0)) /* passes: the neighbours, the rest */
        return LG_ERR_CANCELLED;

    /* -1 matches no label: with no way to look back, nothing is skipped */
    const lg_vertex_t skip = have_in ? most_frequent_label(labels, n) : -1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t v = 0; v < n; v++) {
        const lg_vertex_t p = __atomic_load_n(&labels[v], __ATOMIC_RELAXED);
        if (p == skip)
            continue;
        if (__atomic_load_n(&labels[p], __ATOMIC_RELAXED) == skip) {
            __atomic_store_n(&labels[v], skip, __ATOMIC_RELAXED);
            continue;
        }
        for (lg_edge_t e = off[v] + NEIGHBOR_ROUNDS; e < off[v + 1]; e++)
            lg__uf_link(labels, (lg_vertex_t)v, adj[e]);
        if (in_off)
            for (lg_edge_t e = in_off[v]; e < in_off[v + 1]; e++)
                lg__uf_link(labels, (lg_vertex_t)v, in_adj[e]);
    }
    const int64_t roots = compress(labels, n, threads);
    (void)lg_exec_go_on(x, LG_STAGE_COMPONENTS, 2, 2, 0.0);
    if (num_components)
        *num_components = roots;
    return LG_OK;
}

/* CC reads the in-edges only when the graph already has them (the top of
 * the file says why), so it does not ask for them. */
const struct lg_kernel LG_CPU_ROW(components) = {LG_ALG_COMPONENTS, components, false};
