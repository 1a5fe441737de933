/*
 * graph.c - the graph handle: ownership, accessors, the lazy CSC.
 *
 * A graph's edges are immutable once built; its names (names.c) may be set
 * again.  The only other state that changes after is two caches.  The in-edge (CSC) copy is built on first need under csc_lock and
 * published through the csc_ready flag (release/acquire), so readers on the
 * fast path take no lock.  The GPU plugin's device copy (device_cache) is
 * made by the plugin during a GPU call, under device_lock (src/algorithms/dispatch.c), and
 * handed back to the plugin that made it when the graph is freed.
 */
#include "build.h"

#include <float.h>
#include <string.h>

/* A float64 CSR's float32 copy of its weights (rounded; beyond float's
 * range, the largest float of the sign), and whether any weight is < 0. */
static lg_status_t weights_finish(int64_t m, struct lg_csr *csr, bool *negative)
{
    const int threads = lg__threads_for(NULL, m);
    if (csr->weights64 && !csr->weights) {
        csr->weights = lg__alloc_array(m ? (size_t)m : 1, sizeof *csr->weights, "CSR weights");
        if (!csr->weights)
            return LG_ERR_OUT_OF_MEMORY;
        const double *w64 = csr->weights64;
        float *w = csr->weights;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t e = 0; e < m; e++)
            w[e] = w64[e] > FLT_MAX ? FLT_MAX : w64[e] < -FLT_MAX ? -FLT_MAX : (float)w64[e];
    }
    bool any = false;
    if (csr->weights64) {
        const double *w64 = csr->weights64;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(|| : any)
        for (int64_t e = 0; e < m; e++)
            any = any || w64[e] < 0.0;
    } else if (csr->weights) {
        const float *w = csr->weights;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(|| : any)
        for (int64_t e = 0; e < m; e++)
            any = any || w[e] < 0.0f;
    }
    *negative = any;
    return LG_OK;
}

lg_status_t lg__graph_wrap(int64_t n, bool directed, struct lg_csr *csr, lg_graph_t **graph)
{
    bool negative = false;
    if (weights_finish(csr->offsets[n], csr, &negative) != LG_OK) {
        lg__csr_free(csr);
        return LG_ERR_OUT_OF_MEMORY;
    }
    lg_graph_t *g = lg__calloc(1, sizeof *g);
    if (!g) {
        lg__csr_free(csr);
        return lg__oom("a graph");
    }
    if (pthread_mutex_init(&g->csc_lock, NULL) != 0) {
        lg__free(g);
        lg__csr_free(csr);
        return lg__error(LG_ERR_INTERNAL, "lg_graph: pthread_mutex_init failed");
    }
    if (pthread_mutex_init(&g->device_lock, NULL) != 0) {
        pthread_mutex_destroy(&g->csc_lock);
        lg__free(g);
        lg__csr_free(csr);
        return lg__error(LG_ERR_INTERNAL, "lg_graph: pthread_mutex_init failed");
    }
    g->n = n;
    g->m = csr->offsets[n];
    g->directed = directed;
    g->negative_weights = negative;
    g->out = *csr;
    memset(csr, 0, sizeof *csr);
    atomic_init(&g->csc_ready, !directed);
    if (!directed)
        g->in = g->out;
    *graph = g;
    return LG_OK;
}

void lg_graph_free(lg_graph_t **graph)
{
    if (!graph || !*graph)
        return;
    lg_graph_t *g = *graph;
    if (g->device_cache && g->device_owner) /* the plugin is never unloaded (plugin.c) */
        g->device_owner->graph_free(g->device_cache);
    pthread_mutex_destroy(&g->device_lock);
    if (g->directed)
        lg__csr_free(&g->in);
    lg__csr_free(&g->out);
    pthread_mutex_destroy(&g->csc_lock);
    lg__names_free(&g->names);
    lg__free(g);
    *graph = NULL;
}

lg_status_t lg__graph_ensure_csc(const lg_graph_t *cg, int threads)
{
    /* The CSC is a cache: building it does not change what the graph is. */
    lg_graph_t *g = (lg_graph_t *)cg;
    if (atomic_load_explicit(&g->csc_ready, memory_order_acquire))
        return LG_OK;
    lg_status_t st = LG_OK;
    pthread_mutex_lock(&g->csc_lock);
    if (!atomic_load_explicit(&g->csc_ready, memory_order_relaxed)) {
        struct lg_csr t;
        st = lg__csr_transpose(g->n, g->m, &g->out, threads, &t);
        if (st == LG_OK) {
            g->in = t;
            atomic_store_explicit(&g->csc_ready, true, memory_order_release);
        }
    }
    pthread_mutex_unlock(&g->csc_lock);
    return st;
}

bool lg__graph_has_csc(const lg_graph_t *g)
{
    return atomic_load_explicit(&((lg_graph_t *)g)->csc_ready, memory_order_acquire);
}

int64_t lg_graph_num_vertices(const lg_graph_t *graph)
{
    return graph ? graph->n : 0;
}

int64_t lg_graph_num_edges(const lg_graph_t *graph)
{
    return graph ? graph->m : 0;
}

bool lg_graph_is_directed(const lg_graph_t *graph)
{
    return graph ? graph->directed : false;
}

bool lg_graph_is_weighted(const lg_graph_t *graph)
{
    return graph ? graph->out.weights != NULL : false;
}

size_t lg_graph_host_bytes(const lg_graph_t *graph)
{
    if (!graph)
        return 0;
    const size_t n = (size_t)graph->n, m = (size_t)graph->m;
    const size_t csr = sizeof(lg_edge_t) * (n + 1) + sizeof(lg_vertex_t) * m +
                       (graph->out.weights ? sizeof(float) * m : 0) +
                       (graph->out.weights64 ? sizeof(double) * m : 0);
    const bool csc = graph->directed && lg__graph_has_csc(graph);
    return sizeof *graph + csr + (csc ? csr : 0) + lg__names_bytes(graph->n, &graph->names);
}

lg_status_t lg_graph_csr(const lg_graph_t *graph, const lg_edge_t **row_offsets,
                         const lg_vertex_t **col_indices, const float **weights)
{
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_csr: graph is NULL");
    if (row_offsets)
        *row_offsets = graph->out.offsets;
    if (col_indices)
        *col_indices = graph->out.indices;
    if (weights)
        *weights = graph->out.weights;
    return LG_OK;
}

lg_status_t lg_graph_csc(const lg_graph_t *graph, const lg_edge_t **col_offsets,
                         const lg_vertex_t **row_indices, const float **weights)
{
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_csc: graph is NULL");
    lg_status_t st = lg__graph_ensure_csc(graph, lg__threads_for(NULL, graph->n + graph->m));
    if (st != LG_OK)
        return st;
    if (col_offsets)
        *col_offsets = graph->in.offsets;
    if (row_indices)
        *row_indices = graph->in.indices;
    if (weights)
        *weights = graph->in.weights;
    return LG_OK;
}

lg_status_t lg__refuse_weights_below(const char *fn, const lg_graph_t *g, bool zero_too,
                                     const char *why)
{
    const struct lg_csr *c = &g->out;
    for (int64_t u = 0; u < g->n; u++)
        for (lg_edge_t e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
            const double w = c->weights64 ? c->weights64[e] : (double)c->weights[e];
            if (w < 0.0 || (zero_too && w == 0.0))
                return lg__error(LG_ERR_INVALID_ARGUMENT,
                                 "%s: the arc %lld -> %d weighs %g: %s", fn,
                                 (long long)u, (int)c->indices[e], w, why);
        }
    return LG_OK;
}

lg_status_t lg__refuse_negative_weights(const char *fn, const lg_graph_t *g, const char *why)
{
    const lg_status_t st = lg__refuse_weights_below(fn, g, false, why);
    return st != LG_OK ? st
                       : lg__error(LG_ERR_INTERNAL,
                                   "%s: negative weights were recorded but none is found", fn);
}

lg_weight_type_t lg_graph_weight_type(const lg_graph_t *graph)
{
    return !graph || !graph->out.weights ? LG_WEIGHTS_NONE
           : graph->out.weights64        ? LG_WEIGHTS_FLOAT64
                                         : LG_WEIGHTS_FLOAT32;
}

bool lg_graph_has_negative_weights(const lg_graph_t *graph)
{
    return graph ? graph->negative_weights : false;
}

lg_status_t lg_graph_weights_f64(const lg_graph_t *graph, bool in_edges, const double **weights)
{
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_weights_f64: graph is NULL");
    if (!weights)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_weights_f64: weights is NULL");
    if (in_edges) {
        lg_status_t st = lg__graph_ensure_csc(graph, lg__threads_for(NULL, graph->n + graph->m));
        if (st != LG_OK)
            return st;
    }
    *weights = in_edges ? graph->in.weights64 : graph->out.weights64;
    return LG_OK;
}

static lg_status_t degrees_of(const char *fn, const lg_graph_t *g, const struct lg_csr *c,
                              lg_edge_t *degrees)
{
    if (!degrees)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: degrees is NULL", fn);
    const int threads = lg__threads_for(NULL, g->n);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < g->n; v++)
        degrees[v] = c->offsets[v + 1] - c->offsets[v];
    return LG_OK;
}

lg_status_t lg_graph_out_degrees(const lg_graph_t *graph, lg_edge_t *degrees)
{
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_out_degrees: graph is NULL");
    return degrees_of("lg_graph_out_degrees", graph, &graph->out, degrees);
}

lg_status_t lg_graph_in_degrees(const lg_graph_t *graph, lg_edge_t *degrees)
{
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_in_degrees: graph is NULL");
    if (!degrees)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_graph_in_degrees: degrees is NULL");
    lg_status_t st = lg__graph_ensure_csc(graph, lg__threads_for(NULL, graph->n + graph->m));
    if (st != LG_OK)
        return st;
    return degrees_of("lg_graph_in_degrees", graph, &graph->in, degrees);
}
