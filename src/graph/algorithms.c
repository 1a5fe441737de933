/*
 * algorithms.c - the public entry points of the algorithms, and the one path
 * by which every call reaches a kernel.
 *
 * Each entry point validates its arguments once, here, answers the trivial
 * cases (an empty graph), and hands a struct call to dispatch(), which knows
 * no algorithm: it picks the kernel table by one rule, prepares what the
 * kernel reads, and calls it.  No kernel re-checks what is checked here.
 *
 * The rule (choose): a CPU context runs the CPU's kernels.  A context
 * created with LG_BACKEND_GPU runs its plugin's kernel when the plugin has
 * one (kernels.h: a non-NULL entry), and the call is LG_ERR_UNSUPPORTED when
 * it has none (asked for the GPU, it is not quietly given the CPU).  A
 * context created with LG_BACKEND_AUTO that found a GPU runs the CPU's
 * kernel when the plugin has none, and otherwise decides by rent or buy:
 * the GPU at once for a graph already on the device; for one that is not,
 * the CPU, adding each such call's time to the graph's auto_cpu_ns, until
 * that time reaches the estimated cost of the graph's upload
 * (upload_estimate_ns), and the GPU from then on.  The first call on a big
 * graph is often faster on the CPU than an upload plus the GPU call, and
 * every later call is faster on the GPU; not knowing how many calls will
 * come, this spends at most about twice what the best choice would have.
 * A GPU kernel that runs out of memory is rerun on the CPU under
 * LG_BACKEND_AUTO, leaving the thread's last error as the call found it, and
 * returns LG_ERR_OUT_OF_MEMORY under LG_BACKEND_GPU.
 *
 * What a kernel reads: the table's in_edges mask says which kernels read the
 * in-edges; dispatch builds them (lg__graph_ensure_csc: once per graph) before
 * the call.  A GPU kernel is called with the context's gpu_lock and then the
 * graph's device_lock held (always in that order), so the plugin may fill the
 * graph's device-copy slot and use its per-context state without locks of its
 * own; the graph's device_owner is set once the slot is filled, so
 * lg_graph_free can hand the copy back to the plugin.
 *
 * Every call records where it ran for lg_last_backend(), and, where AUTO
 * chose, why for lg_last_backend_reason(): LG_BACKEND_AUTO
 * while it has not reached a kernel (bad arguments, a refusal), then the
 * backend that computed the answer (the CPU for the trivial answers given
 * here).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* One validated algorithm call: which algorithm, and its arguments. */
struct call {
    enum lg_algorithm algorithm;
    const char *function; /* the public name, for messages */
    const char *title;    /* the algorithm's name, for messages */
    /* whether the kernel may read the in-edges in this call (BFS: only when
     * the search may go bottom-up), if its table says it reads them */
    bool may_read_in_edges;
    lg_progress_fn progress; /* from the call's options */
    void *progress_data;
    bool device_outputs; /* the options' output_memory is LG_MEMORY_DEVICE */
    union {
        struct {
            const lg_vertex_t *sources;
            int64_t num_sources;
            const lg_bfs_options_t *opts;
            int32_t *dist;
            lg_vertex_t *parents;
        } bfs;
        struct {
            const lg_pagerank_options_t *opts;
            lg_precision_t precision;
            void *scores;
            lg_pagerank_result_t *result;
        } pagerank;
        struct {
            lg_vertex_t *labels;
            int64_t *num_components;
        } components;
    } args;
};

static bool has_kernel(const struct lg_kernels *k, enum lg_algorithm a)
{
    switch (a) {
    case LG_ALGORITHM_BFS: return k->bfs != NULL;
    case LG_ALGORITHM_PAGERANK: return k->pagerank != NULL;
    case LG_ALGORITHM_COMPONENTS: return k->components != NULL;
    }
    return false;
}

static lg_status_t invoke(const struct lg_kernels *k, const struct lg_exec *x,
                          const struct lg_graph_view *g, const struct call *c)
{
    switch (c->algorithm) {
    case LG_ALGORITHM_BFS:
        return k->bfs(x, g, c->args.bfs.sources, c->args.bfs.num_sources, c->args.bfs.opts,
                      c->args.bfs.dist, c->args.bfs.parents);
    case LG_ALGORITHM_PAGERANK:
        return k->pagerank(x, g, c->args.pagerank.opts, c->args.pagerank.precision,
                           c->args.pagerank.scores, c->args.pagerank.result);
    case LG_ALGORITHM_COMPONENTS:
        return k->components(x, g, c->args.components.labels, c->args.components.num_components);
    }
    return lg__error(LG_ERR_INTERNAL, "%s: unknown algorithm %d", c->function, (int)c->algorithm);
}

/* The graph as kernels see it: the in-edges when it has them. */
static struct lg_graph_view view_of(const lg_graph_t *g)
{
    struct lg_graph_view v;
    memset(&v, 0, sizeof v);
    v.n = g->n;
    v.m = g->m;
    v.directed = g->directed;
    v.out = (struct lg_csr_view){g->out.offsets, g->out.indices, g->out.weights};
    if (lg__graph_has_csc(g))
        v.in = (struct lg_csr_view){g->in.offsets, g->in.indices, g->in.weights};
    /* the device copy is a cache: filling it leaves the graph as it is */
    v.device_cache = &((lg_graph_t *)g)->device_cache;
    return v;
}

/* AUTO's estimate of a graph's first upload: its CSR (and weights) at
 * UPLOAD_BYTES_PER_S, plus UPLOAD_FIXED_NS for the device-side set-up.  The
 * rate is what the first GPU calls cost beyond the cached ones, set-up
 * included, on the H200 machine through the staged copies: kron:22's 530 MB
 * 23 ms (PageRank, its pull structure built) and 17 ms (BFS), kron:24's
 * 2.1 GB 81 ms (docs/decisions/staged-uploads.md). */
#define UPLOAD_BYTES_PER_S 25e9
#define UPLOAD_FIXED_NS 1000000.0
static atomic_llong upload_override = -1; /* lg__auto_upload_ns_override */

long long lg__auto_upload_ns_override(long long ns)
{
    return atomic_exchange(&upload_override, ns < 0 ? -1 : ns);
}

static long long upload_estimate_ns(const lg_graph_t *g)
{
    const long long fixed = atomic_load(&upload_override);
    if (fixed >= 0)
        return fixed;
    const double bytes = 8.0 * (double)(g->n + 1) + (g->out.weights ? 8.0 : 4.0) * (double)g->m;
    return (long long)(UPLOAD_FIXED_NS + 1e9 * bytes / UPLOAD_BYTES_PER_S);
}

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The kernel table a call runs on (the rule at the top), or NULL after
 * setting *refused to the status of its message (LG_ERR_UNSUPPORTED, or
 * LG_ERR_INVALID_ARGUMENT for device outputs without a GPU).  *rent is set
 * when AUTO's rule sends the call to the CPU (dispatch then adds its time to
 * the graph's). */
static const struct lg_kernels *choose(const lg_context_t *ctx, const lg_graph_t *graph,
                                       const struct call *c, bool *rent, lg_status_t *refused)
{
    *rent = false;
    lg__set_last_backend_reason("");
    if (c->device_outputs && (!ctx || ctx->backend != LG_BACKEND_GPU)) {
        *refused = lg__error(LG_ERR_INVALID_ARGUMENT,
                             "%s: output_memory is LG_MEMORY_DEVICE, but the context has no GPU",
                             c->function);
        return NULL;
    }
    if (!ctx || ctx->backend != LG_BACKEND_GPU)
        return &lg__cpu_kernels;
    if (has_kernel(&ctx->plugin->kernels, c->algorithm)) {
        if (ctx->requested != LG_BACKEND_AUTO)
            return &ctx->plugin->kernels;
        if (c->device_outputs) {
            lg__set_last_backend_reason("the outputs are in device memory");
            return &ctx->plugin->kernels;
        }
        if (__atomic_load_n(&graph->device_cache, __ATOMIC_RELAXED)) {
            lg__set_last_backend_reason("the graph is on the GPU");
            return &ctx->plugin->kernels;
        }
        if (atomic_load(&((lg_graph_t *)graph)->auto_cpu_ns) >= upload_estimate_ns(graph)) {
            lg__set_last_backend_reason(
                "the graph's CPU calls have cost as much as its upload to the GPU");
            return &ctx->plugin->kernels;
        }
        lg__set_last_backend_reason("the graph is not on the GPU, and its CPU calls have not "
                                    "yet cost as much as its upload would");
        *rent = true;
        return &lg__cpu_kernels;
    }
    if (ctx->requested == LG_BACKEND_AUTO && !c->device_outputs) {
        lg__set_last_backend_reason("the GPU plugin has no kernel for it");
        return &lg__cpu_kernels;
    }
    *refused = lg__error(LG_ERR_UNSUPPORTED,
                         "%s: no GPU kernel for %s in this version (use LG_BACKEND_AUTO or the "
                         "CPU)",
                         c->function, c->title);
    return NULL;
}

/* The view kernel table k's kernel reads for c: with the in-edges built
 * first (on the host, once per graph) when the table says it reads them. */
static lg_status_t prepare(const lg_context_t *ctx, const lg_graph_t *graph,
                           const struct lg_kernels *k, const struct call *c,
                           struct lg_graph_view *view)
{
    *view = view_of(graph);
    if ((k->in_edges & c->algorithm) && c->may_read_in_edges) {
        lg_status_t st = lg__graph_ensure_csc(graph, lg__threads_for(ctx, graph->n + graph->m));
        if (st != LG_OK)
            return st;
        view->in = (struct lg_csr_view){graph->in.offsets, graph->in.indices, graph->in.weights};
    }
    return LG_OK;
}

/* Runs c on the CPU's kernels. */
static lg_status_t run_cpu(const lg_context_t *ctx, const lg_graph_t *graph, const struct call *c)
{
    const struct lg_exec x = {NULL, lg__threads_for(ctx, graph->n + graph->m),
                              {c->progress, c->progress_data, 1}, false};
    struct lg_graph_view g;
    lg_status_t st = prepare(ctx, graph, &lg__cpu_kernels, c, &g);
    if (st != LG_OK)
        return st;
    lg__set_last_backend(LG_BACKEND_CPU);
    return invoke(&lg__cpu_kernels, &x, &g, c);
}

/* Runs c on the GPU context's plugin; *done is false when the CPU is to run
 * it instead (out of memory under AUTO, the caller's message put back). */
static lg_status_t run_gpu(lg_context_t *ctx, const lg_graph_t *graph, const struct call *c,
                           bool *done)
{
    char saved[LG_ERROR_CAPACITY];
    lg_graph_t *g = (lg_graph_t *)graph; /* its device-copy slot and lock */
    /* the host's part (the staged copies) on a team that fits the machine too */
    const struct lg_exec x = {ctx->gpu_state, lg__threads_for(ctx, graph->n + graph->m),
                              {c->progress, c->progress_data, 1}, c->device_outputs};
    struct lg_graph_view view;
    lg_status_t st = prepare(ctx, graph, &ctx->plugin->kernels, c, &view);
    if (st != LG_OK) {
        *done = true; /* the host's memory: the CPU would need the same */
        return st;
    }
    lg__error_save(saved);
    pthread_mutex_lock(&ctx->gpu_lock);
    pthread_mutex_lock(&g->device_lock);
    st = invoke(&ctx->plugin->kernels, &x, &view, c);
    if (g->device_cache)
        g->device_owner = ctx->plugin;
    pthread_mutex_unlock(&g->device_lock);
    pthread_mutex_unlock(&ctx->gpu_lock);
    *done = !(st == LG_ERR_OUT_OF_MEMORY && ctx->requested == LG_BACKEND_AUTO &&
              !c->device_outputs);
    if (*done)
        lg__set_last_backend(LG_BACKEND_GPU);
    else
        lg__error_restore(saved);
    return st;
}

/* The one path from a validated call to a kernel. */
static lg_status_t run(lg_context_t *ctx, const lg_graph_t *graph, const struct call *c)
{
    bool rent = false;
    lg_status_t refused = LG_OK;
    const struct lg_kernels *k = choose(ctx, graph, c, &rent, &refused);
    if (!k)
        return refused;
    if (k != &lg__cpu_kernels) {
        bool done = false;
        lg_status_t st = run_gpu(ctx, graph, c, &done);
        if (done)
            return st;
        lg__set_last_backend_reason("the GPU ran out of memory");
    }
    const long long t0 = rent ? now_ns() : 0;
    lg_status_t st = run_cpu(ctx, graph, c);
    if (rent)
        atomic_fetch_add(&((lg_graph_t *)graph)->auto_cpu_ns, now_ns() - t0);
    return st;
}

/* run(), and the message of a call its progress callback stopped. */
static lg_status_t dispatch(lg_context_t *ctx, const lg_graph_t *graph, const struct call *c)
{
    const lg_status_t st = run(ctx, graph, c);
    return st == LG_ERR_CANCELLED ? lg__cancelled(c->function) : st;
}

#define LG_BFS_DEFAULT_ALPHA 15 /* GAPBS's tuned values (Beamer et al.) */
#define LG_BFS_DEFAULT_BETA 18

void lg_bfs_options_init(lg_bfs_options_t *options)
{
    if (!options)
        return;
    options->compute_parents = false;
    options->max_depth = -1;
    options->direction_alpha = LG_BFS_DEFAULT_ALPHA;
    options->direction_beta = LG_BFS_DEFAULT_BETA;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

/* An options' output_memory is one of the two. */
static lg_status_t check_memory(const char *fn, lg_memory_t m)
{
    if (m != LG_MEMORY_HOST && m != LG_MEMORY_DEVICE)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown output_memory %d", fn, (int)m);
    return LG_OK;
}

lg_status_t lg_bfs_multi(lg_context_t *context, const lg_graph_t *graph, const lg_vertex_t *sources,
                         int64_t num_sources, const lg_bfs_options_t *options, int32_t *distances,
                         lg_vertex_t *parents)
{
    lg_bfs_options_t defaults;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_bfs: graph is NULL");
    if (!options) {
        lg_bfs_options_init(&defaults);
        options = &defaults;
    }
    if (num_sources < 1 || !sources)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_bfs: %s",
                         sources ? "num_sources < 1" : "sources is NULL");
    for (int64_t i = 0; i < num_sources; i++)
        if (sources[i] < 0 || sources[i] >= graph->n)
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "lg_bfs: source %d is not a vertex (num_vertices %lld)",
                             (int)sources[i], (long long)graph->n);
    if (options->max_depth < -1)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_bfs: max_depth %d < -1 (-1 = no limit)",
                         (int)options->max_depth);
    if (options->direction_alpha < 0 || options->direction_beta < 1)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_bfs: direction_alpha %d < 0 or direction_beta %d < 1",
                         options->direction_alpha, options->direction_beta);
    if (!distances)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_bfs: distances is NULL");
    if (options->compute_parents && !parents)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_bfs: compute_parents is set but parents is NULL");
    if (!options->compute_parents)
        parents = NULL;
    lg_status_t st = check_memory("lg_bfs", options->output_memory);
    if (st != LG_OK)
        return st;
    struct call c = {LG_ALGORITHM_BFS,
                     "lg_bfs",
                     "BFS",
                     options->direction_alpha > 0,
                     options->progress,
                     options->progress_data,
                     options->output_memory == LG_MEMORY_DEVICE,
                     {.bfs = {sources, num_sources, options, distances, parents}}};
    return dispatch(context, graph, &c);
}

lg_status_t lg_bfs(lg_context_t *context, const lg_graph_t *graph, lg_vertex_t source,
                   const lg_bfs_options_t *options, int32_t *distances, lg_vertex_t *parents)
{
    return lg_bfs_multi(context, graph, &source, 1, options, distances, parents);
}

void lg_pagerank_options_init(lg_pagerank_options_t *options)
{
    if (!options)
        return;
    options->alpha = 0.85;
    options->tol = 1.0e-6;
    options->max_iter = 100;
    options->use_weights = true;
    options->personalization = NULL;
    options->nstart = NULL;
    options->dangling = NULL;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

/* A vector option must be a non-negative, finite distribution with a positive sum. */
static lg_status_t check_distribution(const char *name, const double *v, int64_t n)
{
    if (!v)
        return LG_OK;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i]) || v[i] < 0.0)
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "lg_pagerank: %s[%lld] = %g is not finite and >= 0", name,
                             (long long)i, v[i]);
        sum += v[i];
    }
    if (!(sum > 0.0) || !isfinite(sum))
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_pagerank: %s sums to %g; it needs a positive, finite sum", name, sum);
    return LG_OK;
}

static lg_status_t pagerank(lg_context_t *context, const lg_graph_t *graph,
                            const lg_pagerank_options_t *options, lg_precision_t precision,
                            void *scores, lg_pagerank_result_t *result)
{
    lg_pagerank_options_t defaults;
    lg_pagerank_result_t ignored;
    lg_status_t st;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: graph is NULL");
    if (!options) {
        lg_pagerank_options_init(&defaults);
        options = &defaults;
    }
    if (!(options->alpha >= 0.0 && options->alpha <= 1.0))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: alpha %g is not in [0, 1]",
                         options->alpha);
    if (!(options->tol >= 0.0) || !isfinite(options->tol))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: tol %g is not finite and >= 0",
                         options->tol);
    if (options->max_iter < 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: max_iter %d < 0",
                         options->max_iter);
    if ((st = check_memory("lg_pagerank", options->output_memory)) != LG_OK)
        return st;
    if (graph->n > 0 && !scores)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: scores is NULL");
    if (graph->n > 0 &&
        ((st = check_distribution("personalization", options->personalization, graph->n)) !=
             LG_OK ||
         (st = check_distribution("nstart", options->nstart, graph->n)) != LG_OK ||
         (st = check_distribution("dangling", options->dangling, graph->n)) != LG_OK))
        return st;
    if (!result)
        result = &ignored;
    result->iterations = 0;
    result->residual = 0.0;
    result->converged = true;
    if (graph->n == 0) {
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to rank, answered here */
        return LG_OK;
    }
    struct call c = {LG_ALGORITHM_PAGERANK,
                     "lg_pagerank",
                     "PageRank",
                     true,
                     options->progress,
                     options->progress_data,
                     options->output_memory == LG_MEMORY_DEVICE,
                     {.pagerank = {options, precision, scores, result}}};
    return dispatch(context, graph, &c);
}

lg_status_t lg_pagerank(lg_context_t *context, const lg_graph_t *graph,
                        const lg_pagerank_options_t *options, double *scores,
                        lg_pagerank_result_t *result)
{
    return pagerank(context, graph, options, LG_PRECISION_F64, scores, result);
}

lg_status_t lg_pagerank_f32(lg_context_t *context, const lg_graph_t *graph,
                            const lg_pagerank_options_t *options, float *scores,
                            lg_pagerank_result_t *result)
{
    return pagerank(context, graph, options, LG_PRECISION_F32, scores, result);
}

void lg_components_options_init(lg_components_options_t *options)
{
    if (!options)
        return;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

lg_status_t lg_connected_components(lg_context_t *context, const lg_graph_t *graph,
                                    const lg_components_options_t *options, lg_vertex_t *labels,
                                    int64_t *num_components)
{
    lg_components_options_t defaults;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!options) {
        lg_components_options_init(&defaults);
        options = &defaults;
    }
    const lg_status_t st = check_memory("lg_connected_components", options->output_memory);
    if (st != LG_OK)
        return st;
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_connected_components: graph is NULL");
    if (graph->n > 0 && !labels)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_connected_components: labels is NULL");
    if (graph->n == 0) {
        if (num_components)
            *num_components = 0;
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to label, answered here */
        return LG_OK;
    }
    struct call c = {LG_ALGORITHM_COMPONENTS,
                     "lg_connected_components",
                     "connected components",
                     true,
                     options->progress,
                     options->progress_data,
                     options->output_memory == LG_MEMORY_DEVICE,
                     {.components = {labels, num_components}}};
    return dispatch(context, graph, &c);
}
