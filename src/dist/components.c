/*
 * components.c - weakly connected components over ranks: min-label
 * propagation between ranks, over the components each rank finds inside its
 * own share first.
 *
 * A rank's arcs, on its owned vertices and its ghosts, form a local graph;
 * its (weak) components are found first, by Afforest (below).  Vertices
 * in one local component are in one global component, so one round of the
 * propagation gives each owned vertex the smallest label of its local
 * component -- its own vertices' labels and its ghosts' -- which is label
 * propagation run to its fixed point inside the rank, at the cost of one
 * pass over the vertices rather than over the arcs.  Then each rank sends
 * the labels that changed, and only those (4-byte slot + 8-byte label), to
 * the ranks that hold those vertices as ghosts.  Labels only fall, and each
 * is a global id in the same component; when a round changes no label
 * anywhere, every component carries its smallest global id.  Rounds are
 * bounded by the number of rank boundaries on the longest path that the
 * smallest label must cross.
 *
 * Why the local components are not the core's kernel (lg_connected_components
 * on the rank's graph): that kernel skips the big component's arcs on an
 * undirected graph, trusting every arc to be in both endpoints' rows, but a
 * rank's ghosts have empty rows, so the arcs to them must still be linked;
 * and a directed graph's weak components here need the out- and the in-arcs
 * of the owned vertices, which are two graphs.  local_components is the same
 * Afforest with those two changes.
 */
#include "dist.h"
#include "union_find.h"

#include <stdlib.h>
#include <string.h>

/* ---- the local components: Afforest over a rank's arcs --------------------------- */

static void compress(int32_t *comp, int64_t cols, int threads)
{
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t x = 0; x < cols; x++)
        __atomic_store_n(&comp[x], lg__uf_find(comp, (int32_t)x), __ATOMIC_RELAXED);
}

/* Links row v's arcs [from, to) of csr; of a vertex of the big component
 * only those to ghosts (the last of a sorted row), whose rows are empty: an
 * arc between two owned vertices is also in the other one's row (both
 * directions of an undirected edge; out- and in-arcs of a directed one). */
static void link_row(int32_t *comp, const struct lg_dist_csr *csr, int32_t v, lg_edge_t from,
                     bool big, int64_t nl)
{
    lg_edge_t to = csr->offsets[v + 1];
    if (big) { /* skip to the first ghost column */
        lg_edge_t lo = from, hi = to;
        while (lo < hi) {
            lg_edge_t mid = lo + (hi - lo) / 2;
            if (csr->indices[mid] < nl)
                lo = mid + 1;
            else
                hi = mid;
        }
        from = lo;
    }
    for (lg_edge_t k = from; k < to; k++)
        lg__uf_link(comp, v, csr->indices[k]);
}

/*
 * comp[x]: the smallest local id of x's component in the rank's arcs (out,
 * and in for a directed graph).  Afforest (Sutton, Ben-Nun, Barak, IPDPS'18),
 * as libgraph's CPU kernel (src/kernels/cpu/components.c) runs it, with one
 * change for a rank's graph: ghost rows are empty, so a vertex of the big
 * component still links its arcs to ghosts.
 */
static void local_components(const lg_dist_graph_t *g, int32_t *comp, int threads)
{
    enum {
        NEIGHBOR_ROUNDS = 2,
        SAMPLES = 1024
    };
    const int64_t nl = g->n_local, cols = nl + g->n_ghost;
    const struct lg_dist_csr csr[2] = {lg__dist_csr(g->out), lg__dist_csr(g->in)};
    const int graphs = g->in == g->out ? 1 : 2;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t x = 0; x < cols; x++)
        comp[x] = (int32_t)x;
    for (int r = 0; r < NEIGHBOR_ROUNDS; r++) {
        for (int k = 0; k < graphs; k++) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
            for (int64_t v = 0; v < nl; v++)
                if (csr[k].offsets[v] + r < csr[k].offsets[v + 1])
                    lg__uf_link(comp, (int32_t)v, csr[k].indices[csr[k].offsets[v] + r]);
        }
        compress(comp, cols, threads);
    }
    /* the most frequent root among a sample: the big component */
    int32_t big = -1;
    if (cols > 0) {
        int32_t sample[SAMPLES];
        uint64_t state = 0x9E3779B97F4A7C15ull;
        for (int i = 0; i < SAMPLES; i++) {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            sample[i] = comp[(state * 0x2545F4914F6CDD1Dull >> 1) % (uint64_t)cols];
        }
        int best = 0;
        for (int i = 0; i < SAMPLES; i++) {
            int count = 0;
            for (int j = 0; j < SAMPLES; j++)
                count += sample[j] == sample[i];
            if (count > best) {
                best = count;
                big = sample[i];
            }
        }
    }
    for (int k = 0; k < graphs; k++) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
        for (int64_t v = 0; v < nl; v++)
            link_row(comp, &csr[k], (int32_t)v, csr[k].offsets[v] + NEIGHBOR_ROUNDS,
                     __atomic_load_n(&comp[v], __ATOMIC_RELAXED) == big, nl);
    }
    compress(comp, cols, threads);
}

/* A changed label on the wire, packed: the vertex's place among the
 * receiver's ghosts of this sender (int32), then the label (int64). */
#define LG_DIST_LABEL_BYTES 12

/* The global count of components (their smallest vertices are roots
 * somewhere), and the call's traffic. */
static lg_status_t finish(lg_dist_context_t *c, const lg_dist_graph_t *g, const int64_t *labels,
                          int64_t *num_components, int rounds, lg_dist_traffic_t *traffic)
{
    int64_t roots = 0;
    for (int64_t v = 0; v < g->n_local; v++)
        roots += labels[v] == g->first + v;
    lg_status_t st = lg__dist_sum_i64(c, &roots, 1);
    if (st != LG_OK)
        return st;
    if (num_components)
        *num_components = roots;
    return lg__dist_traffic_end(c, rounds, traffic);
}

lg_status_t lg_dist_connected_components(lg_dist_context_t *c, const lg_dist_graph_t *g,
                                         int64_t *labels, int64_t *num_components,
                                         lg_dist_traffic_t *traffic)
{
    static const char fn[] = "lg_dist_connected_components";
    if (!c)
        return lg__dist_error(LG_ERR_INVALID_ARGUMENT, "%s: context is NULL", fn);
    lg_status_t st = lg__dist_check_call(c, g, fn, g && g->n_local > 0 && !labels);
    if (st != LG_OK)
        return st;
    if (c->gpu) {
        int rounds = 0;
        lg__dist_traffic_start(c);
        st = lg__dist_gpu_components(c, g, labels, &rounds);
        return st == LG_OK ? finish(c, g, labels, num_components, rounds, traffic) : st;
    }
    const int P = c->size;
    const int64_t nl = g->n_local, cols = nl + g->n_ghost;
    const struct lg_dist_halo *h = &g->all;
    const int64_t sends = h->send_displs[P];
    int32_t *comp = lg__dist_alloc((size_t)cols, sizeof *comp, "component labels");
    int64_t *label = lg__dist_alloc((size_t)cols, sizeof *label, "component labels");
    int64_t *low = lg__dist_alloc((size_t)cols, sizeof *low, "component labels");
    uint8_t *changed = lg__dist_calloc((size_t)nl, 1, "component flags");
    char *out = lg__dist_alloc((size_t)sends, LG_DIST_LABEL_BYTES, "label messages");
    int64_t *counts = lg__dist_calloc(2 * (size_t)P, sizeof *counts, "label message counts");
    st = comp && label && low && changed && out && counts ? LG_OK : LG_ERR_OUT_OF_MEMORY;
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        goto cleanup;
    lg__dist_traffic_start(c);
    const int threads = lg__dist_threads(c);
    local_components(g, comp, threads);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < nl; v++)
        label[v] = g->first + v;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t gh = 0; gh < g->n_ghost; gh++)
        label[nl + gh] = g->ghost_gid[gh];

    int rounds = 0;
    for (;;) {
        /* inside the rank: every owned vertex takes its local component's minimum */
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t x = 0; x < cols; x++)
            low[x] = INT64_MAX;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t x = 0; x < cols; x++) { /* an atomic minimum: members share low[comp] */
            int64_t *to = &low[comp[x]], seen = __atomic_load_n(to, __ATOMIC_RELAXED);
            while (label[x] < seen &&
                   !__atomic_compare_exchange_n(to, &seen, label[x], true, __ATOMIC_RELAXED,
                                                __ATOMIC_RELAXED)) {
            }
        }
        int64_t moved = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : moved)
        for (int64_t v = 0; v < nl; v++) {
            int64_t m = low[comp[v]];
            changed[v] = m < label[v];
            if (changed[v]) {
                label[v] = m;
                moved++;
            }
        }
        rounds++;
        if ((st = lg__dist_sum_i64(c, &moved, 1)) != LG_OK)
            goto cleanup;
        if (moved == 0)
            break;
        /* the changed labels to the ranks that read them */
        int64_t k = 0;
        for (int p = 0; p < P; p++) {
            const int64_t before = k;
            for (int64_t j = h->send_displs[p]; j < h->send_displs[p + 1]; j++) {
                const int32_t v = h->send_index[j];
                if (changed[v]) {
                    const int32_t slot = (int32_t)(j - h->send_displs[p]);
                    memcpy(out + k * LG_DIST_LABEL_BYTES, &slot, 4);
                    memcpy(out + k * LG_DIST_LABEL_BYTES + 4, &label[v], 8);
                    k++;
                }
            }
            counts[p] = k - before;
        }
        void *in = NULL;
        if ((st = lg__dist_alltoallv(c, out, counts, LG_DIST_LABEL_BYTES, &in, counts + P)) !=
            LG_OK)
            goto cleanup;
        const char *msg = in;
        for (int q = 0; q < P; q++)
            for (int64_t i = 0; i < counts[P + q]; i++, msg += LG_DIST_LABEL_BYTES) {
                int32_t slot;
                int64_t got;
                memcpy(&slot, msg, 4);
                memcpy(&got, msg + 4, 8);
                int64_t *to = &label[nl + g->ghost_begin[q] + slot];
                if (got < *to)
                    *to = got;
            }
        free(in);
    }
    if (nl > 0)
        memcpy(labels, label, (size_t)nl * sizeof *labels);
    st = finish(c, g, labels, num_components, rounds, traffic);
cleanup:
    free(comp);
    free(label);
    free(low);
    free(changed);
    free(out);
    free(counts);
    return st;
}
