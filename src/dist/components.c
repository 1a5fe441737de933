/*
 * components.c - weakly connected components over ranks: min-label
 * propagation between ranks, over the components each rank finds inside its
 * own share first.
 *
 * A rank's arcs, on its owned vertices and its ghosts, form a local graph;
 * its (weak) components are found once, by libgraph's own components kernel
 * (plus a union-find pass over the in-arcs of a directed graph).  Vertices
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
 */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

/* comp[x]: a representative of x's local component (on out, and in). */
static lg_status_t local_components(lg_dist_context_t *c, const lg_dist_graph_t *g, int32_t *comp)
{
    const int64_t cols = g->n_local + g->n_ghost;
    if (cols == 0)
        return LG_OK;
    lg_status_t st = lg_connected_components(c->local, g->out, NULL, comp, NULL);
    if (st != LG_OK || g->in == g->out)
        return st;
    /* union-find over the in-arcs, from out's components (each label is its
     * component's root) */
    const struct lg_dist_csr in = lg__dist_csr(g->in);
    for (int64_t v = 0; v < g->n_local; v++)
        for (lg_edge_t k = in.offsets[v]; k < in.offsets[v + 1]; k++) {
            int32_t a = (int32_t)v, b = in.indices[k];
            while (comp[a] != a)
                a = comp[a] = comp[comp[a]];
            while (comp[b] != b)
                b = comp[b] = comp[comp[b]];
            if (a < b)
                comp[b] = a;
            else if (b < a)
                comp[a] = b;
        }
    for (int64_t x = 0; x < cols; x++) {
        int32_t r = comp[x];
        while (comp[r] != r)
            r = comp[r];
        comp[x] = r;
    }
    return LG_OK;
}

struct label_msg {
    int32_t slot;  /* the vertex's place in the receiver's ghosts of this sender */
    int64_t label; /* packed: 12 bytes on the wire */
};
#define LG_DIST_LABEL_BYTES 12

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
    if (st == LG_OK)
        st = local_components(c, g, comp);
    if ((st = lg__dist_agree(c, st)) != LG_OK)
        goto cleanup;
    lg__dist_traffic_start(c);
    for (int64_t v = 0; v < nl; v++)
        label[v] = g->first + v;
    for (int64_t gh = 0; gh < g->n_ghost; gh++)
        label[nl + gh] = g->ghost_gid[gh];

    int rounds = 0;
    for (;;) {
        /* inside the rank: every owned vertex takes its local component's minimum */
        for (int64_t x = 0; x < cols; x++)
            low[x] = INT64_MAX;
        for (int64_t x = 0; x < cols; x++)
            if (label[x] < low[comp[x]])
                low[comp[x]] = label[x];
        int64_t moved = 0;
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
                    struct label_msg m = {(int32_t)(j - h->send_displs[p]), label[v]};
                    memcpy(out + k * LG_DIST_LABEL_BYTES, &m.slot, 4);
                    memcpy(out + k * LG_DIST_LABEL_BYTES + 4, &m.label, 8);
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
                struct label_msg m;
                memcpy(&m.slot, msg, 4);
                memcpy(&m.label, msg + 4, 8);
                int64_t *to = &label[nl + g->ghost_begin[q] + m.slot];
                if (m.label < *to)
                    *to = m.label;
            }
        free(in);
    }
    int64_t roots = 0;
    for (int64_t v = 0; v < nl; v++) {
        labels[v] = label[v];
        roots += label[v] == g->first + v;
    }
    if ((st = lg__dist_sum_i64(c, &roots, 1)) != LG_OK)
        goto cleanup;
    if (num_components)
        *num_components = roots;
    st = lg__dist_traffic_end(c, rounds, traffic);
cleanup:
    free(comp);
    free(label);
    free(low);
    free(changed);
    free(out);
    free(counts);
    return st;
}
