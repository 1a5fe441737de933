/*
 * device_graph.hip - a graph's device copy (struct lg__dev_graph, gpu.h):
 * the CSR uploaded on the first GPU call that needs it and cached on the
 * host graph (plugin.h's device_cache slot, under the core's lock), the pull
 * structure added the first time a kernel asks for it (pull.hip), freed
 * with the graph (lg__dev_graph_free, the plugin's graph_free).  A directed
 * graph's in-edges join it the first time a kernel asks (lg__dev_in_edges).
 *
 * One device's copy is cached: a call on another device gets a copy of its
 * own, freed when the call ends.  A copy whose pull structure cannot be
 * built is dropped, not kept half made.
 *
 * Cost: the first call uploads the CSR as it is (8 (n + 1) + 4 m bytes, 4 m
 * more when weighted, 8 m more for a float64 graph's exact weights) through
 * transfer.hip; later calls on the same device reuse it.
 */
#include "gpu.h"

#include <string.h>

void lg__dev_graph_free(void *device_graph)
{
    lg__dev_graph *d = (lg__dev_graph *)device_graph;
    if (!d)
        return;
    {
        lg__device_guard on_device(d->device);
        (void)lg__device_free(d->out.offsets);
        (void)lg__device_free(d->out.indices);
        if (d->out.weights)
            (void)lg__device_free(d->out.weights);
        if (d->out.weights64)
            (void)lg__device_free(d->out.weights64);
        lg__dev_pull_free(&d->pull);
        lg__dev_pull_out_free(&d->pull_out);
        (void)lg__device_free(d->in.offsets);
        (void)lg__device_free(d->in.indices);
    }
    lg__gpu_host->free(d);
}

static lg_status_t upload(lg__gpu_state *s, const struct lg_graph_view *g, const char *fn,
                          lg__dev_graph **out)
{
    lg_status_t st = LG_OK;
    lg__dev_graph *d = (lg__dev_graph *)lg__gpu_host->malloc(sizeof *d);
    if (!d)
        return lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (device graph)", fn);
    memset(d, 0, sizeof *d);
    d->device = s->device;
    d->n = g->n;
    d->m = g->m;
    d->directed = g->directed != 0;
    LG_TRY_OR_CLEANUP(lg__device_malloc(&d->out.offsets, (size_t)(g->n + 1) * sizeof(lg_edge_t)),
                      "allocating the CSR offsets");
    LG_TRY_OR_CLEANUP(
        lg__device_malloc(&d->out.indices, (size_t)(g->m ? g->m : 1) * sizeof(lg_vertex_t)),
        "allocating the CSR indices");
    if (g->out.weights)
        LG_TRY_OR_CLEANUP(
            lg__device_malloc(&d->out.weights, (size_t)(g->m ? g->m : 1) * sizeof(float)),
            "allocating the CSR weights");
    if (g->out.weights64)
        LG_TRY_OR_CLEANUP(
            lg__device_malloc(&d->out.weights64, (size_t)(g->m ? g->m : 1) * sizeof(double)),
            "allocating the CSR's float64 weights");
    LG_TRY_OR_CLEANUP(
        lg__upload(s, d->out.offsets, g->out.offsets, (size_t)(g->n + 1) * sizeof(lg_edge_t)),
        "uploading the CSR offsets");
    if (g->m > 0) {
        LG_TRY_OR_CLEANUP(
            lg__upload(s, d->out.indices, g->out.indices, (size_t)g->m * sizeof(lg_vertex_t)),
            "uploading the CSR indices");
        if (g->out.weights)
            LG_TRY_OR_CLEANUP(
                lg__upload(s, d->out.weights, g->out.weights, (size_t)g->m * sizeof(float)),
                "uploading the CSR weights");
        if (g->out.weights64)
            LG_TRY_OR_CLEANUP(
                lg__upload(s, d->out.weights64, g->out.weights64, (size_t)g->m * sizeof(double)),
                "uploading the CSR's float64 weights");
    }
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "uploading the graph");
    *out = d;
    d = NULL;
cleanup:
    lg__dev_graph_free(d);
    return st;
}

lg_status_t lg__dev_graph_get(lg__gpu_state *s, const struct lg_graph_view *g, const char *fn,
                              bool need_pull, lg__dev_graph **out, bool *temporary)
{
    lg_status_t st = LG_OK;
    lg__dev_graph *d = (lg__dev_graph *)*g->device_cache;
    *out = NULL;
    *temporary = false;
    if (d && d->device != s->device) {
        d = NULL; /* cached on another GPU: a copy for this call only */
        *temporary = true;
    }
    if (!d) {
        if ((st = upload(s, g, fn, &d)) != LG_OK)
            return st;
        if (!*temporary)
            *g->device_cache = d;
    }
    if (need_pull && !d->pull_ready && (st = lg__dev_pull_build(s, d, fn)) != LG_OK) {
        /* Dropped, cached or not: a failure here is mostly the device's
         * memory, and a cached copy that keeps its CSR would hold that
         * memory and fail the same way on every later call.  The next call
         * uploads afresh. */
        if (!*temporary)
            *g->device_cache = NULL;
        lg__dev_graph_free(d);
        return st;
    }
    *out = d;
    return LG_OK;
}

lg_status_t lg__dev_in_edges(lg__gpu_state *s, const struct lg_graph_view *g, lg__dev_graph *d,
                             const char *fn, struct lg__dev_csr *in)
{
    lg_status_t st = LG_OK;
    lg_edge_t *offsets = NULL;
    lg_vertex_t *indices = NULL;
    if (!d->directed) {
        *in = d->out;
        return LG_OK;
    }
    if (d->in.offsets) {
        *in = d->in;
        return LG_OK;
    }
    if (!g->in.offsets)
        return lg__gpu_host->error(LG_ERR_INTERNAL, "%s: the in-edges were not built", fn);
    LG_TRY_OR_CLEANUP(lg__device_malloc(&offsets, (size_t)(g->n + 1) * sizeof(lg_edge_t)),
                      "allocating the in-edge offsets");
    LG_TRY_OR_CLEANUP(lg__device_malloc(&indices, (size_t)(g->m ? g->m : 1) * sizeof(lg_vertex_t)),
                      "allocating the in-edge indices");
    LG_TRY_OR_CLEANUP(lg__upload(s, offsets, g->in.offsets, (size_t)(g->n + 1) * sizeof(lg_edge_t)),
                      "uploading the in-edge offsets");
    if (g->m > 0)
        LG_TRY_OR_CLEANUP(lg__upload(s, indices, g->in.indices, (size_t)g->m * sizeof(lg_vertex_t)),
                          "uploading the in-edge indices");
    LG_TRY_OR_CLEANUP(hipStreamSynchronize(s->stream), "uploading the in-edges");
    d->in.offsets = offsets;
    d->in.indices = indices;
    d->in.weights = NULL;
    d->in.weights64 = NULL;
    *in = d->in;
    offsets = NULL;
    indices = NULL;
cleanup:
    (void)lg__device_free(offsets);
    (void)lg__device_free(indices);
    return st;
}
