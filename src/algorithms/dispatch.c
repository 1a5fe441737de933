/*
 * dispatch.c - the one path by which every algorithm call reaches a kernel.
 *
 * An algorithm's entry point (src/algorithms/<name>.c) validates its
 * arguments once, answers the trivial cases (an empty graph), and hands a
 * struct lg_call to lg__dispatch, which knows no algorithm: it picks the
 * backend by one rule, prepares what the kernel reads, and calls the
 * kernel that the backend's table holds for the call's algorithm id
 * (kernels.h).  No kernel re-checks what the entry point checked.
 *
 * The rule (choose): a CPU context runs the CPU's kernels.  A context
 * created with LG_BACKEND_GPU runs its plugin's kernel when the plugin has
 * one (a row for the algorithm: lg__plugin_kernel), and the call is
 * LG_ERR_UNSUPPORTED when it has none (asked for the GPU, it is not quietly given the CPU).  A
 * context created with LG_BACKEND_AUTO that found a GPU runs the CPU's
 * kernel when the plugin has none, and otherwise decides by rent or buy:
 * the GPU at once for a graph already on the device; for one that is not,
 * the CPU, adding each such call's time to the graph's auto_cpu_ns, until
 * that time reaches the estimated cost of the graph's upload
 * (upload_estimate_ns), and the GPU from then on.  The first call on a big
 * graph is often faster on the CPU than an upload plus the GPU call, and
 * every later call is faster on the GPU; not knowing how many calls will
 * come, this spends at most about twice what the best choice would have.
 * A GPU kernel that runs out of memory, or that refuses the call
 * (LG_ERR_UNSUPPORTED: a graph's float64 weights where it reads float32), is
 * rerun on the CPU under LG_BACKEND_AUTO, leaving the thread's last error as
 * the call found it, and returns its status under LG_BACKEND_GPU.
 *
 * What a kernel reads: its row says whether it reads the in-edges; the
 * dispatch builds them (lg__graph_ensure_csc: once per graph) before
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

#include "algorithm.h"
#include "cpu.h"

#include <string.h>
#include <time.h>

/* The graph as kernels see it: the in-edges when it has them. */
static struct lg_graph_view view_of(const lg_graph_t *g)
{
    struct lg_graph_view v;
    memset(&v, 0, sizeof v);
    v.n = g->n;
    v.m = g->m;
    v.directed = g->directed;
    v.out = (struct lg_csr_view){g->out.offsets, g->out.indices, g->out.weights, g->out.weights64};
    if (lg__graph_has_csc(g))
        v.in = (struct lg_csr_view){g->in.offsets, g->in.indices, g->in.weights, g->in.weights64};
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

/* The kernel a call runs (the rule at the top), or NULL after setting
 * *refused to the status of its message (LG_ERR_UNSUPPORTED, or
 * LG_ERR_INVALID_ARGUMENT for device outputs without a GPU).  *gpu says
 * whether it is the plugin's; *rent is set when AUTO's rule sends the call
 * to the CPU (dispatch then adds its time to the graph's). */
static const struct lg_kernel *choose(const lg_context_t *ctx, const lg_graph_t *graph,
                                      const struct lg_call *c, bool *gpu, bool *rent,
                                      lg_status_t *refused)
{
    const struct lg_algorithm *a = c->algorithm;
    const bool device_outputs = c->output_memory == LG_MEMORY_DEVICE;
    *rent = false;
    *gpu = false;
    lg__set_last_backend_reason("");
    if (device_outputs && (!ctx || ctx->backend != LG_BACKEND_GPU)) {
        *refused = lg__error(LG_ERR_INVALID_ARGUMENT,
                             "%s: output_memory is LG_MEMORY_DEVICE, but the context has no GPU",
                             a->info.function);
        return NULL;
    }
    if (!ctx || ctx->backend != LG_BACKEND_GPU)
        return lg__cpu_kernel(a->id);
    const struct lg_kernel *k = lg__plugin_kernel(a->id);
    if (k) {
        *gpu = true;
        if (ctx->requested != LG_BACKEND_AUTO)
            return k;
        if (device_outputs) {
            lg__set_last_backend_reason("the outputs are in device memory");
            return k;
        }
        if (__atomic_load_n(&graph->device_cache, __ATOMIC_RELAXED)) {
            lg__set_last_backend_reason("the graph is on the GPU");
            return k;
        }
        if (atomic_load(&((lg_graph_t *)graph)->auto_cpu_ns) >= upload_estimate_ns(graph)) {
            lg__set_last_backend_reason(
                "the graph's CPU calls have cost as much as its upload to the GPU");
            return k;
        }
        lg__set_last_backend_reason("the graph is not on the GPU, and its CPU calls have not "
                                    "yet cost as much as its upload would");
        *gpu = false;
        *rent = true;
        return lg__cpu_kernel(a->id);
    }
    if (ctx->requested == LG_BACKEND_AUTO && !device_outputs) {
        lg__set_last_backend_reason("the GPU plugin has no kernel for it");
        return lg__cpu_kernel(a->id);
    }
    *refused = lg__error(LG_ERR_UNSUPPORTED,
                         "%s: no GPU kernel for %s in this version (use LG_BACKEND_AUTO or the "
                         "CPU)",
                         a->info.function, a->info.title);
    return NULL;
}

/* c's work in elements: its passes over the graph's vertices and arcs. */
static int64_t work_of(const lg_graph_t *graph, const struct lg_call *c)
{
    return (graph->n + graph->m) * (c->passes > 1 ? c->passes : 1);
}

/* The view kernel k reads for c: with the in-edges built first (on the
 * host, once per graph) when its row says it reads them. */
static lg_status_t prepare(const lg_context_t *ctx, const lg_graph_t *graph,
                           const struct lg_kernel *k, const struct lg_call *c,
                           struct lg_graph_view *view)
{
    *view = view_of(graph);
    if (k->reads_in_edges && c->may_read_in_edges) {
        lg_status_t st = lg__graph_ensure_csc(graph, lg__threads_for(ctx, graph->n + graph->m));
        if (st != LG_OK)
            return st;
        view->in = (struct lg_csr_view){graph->in.offsets, graph->in.indices, graph->in.weights,
                                        graph->in.weights64};
    }
    return LG_OK;
}

/* Runs c on the CPU's kernel k. */
static lg_status_t run_cpu(const lg_context_t *ctx, const lg_graph_t *graph,
                           const struct lg_kernel *k, const struct lg_call *c)
{
    const struct lg_exec x = {
        NULL, lg__threads_for(ctx, work_of(graph, c)), {c->progress, c->progress_data, 1}, false};
    struct lg_graph_view g;
    lg_status_t st = prepare(ctx, graph, k, c, &g);
    if (st != LG_OK)
        return st;
    lg__set_last_backend(LG_BACKEND_CPU);
    return k->run(&x, &g, c->args);
}

/* Runs c on the GPU context's plugin kernel k; *done is false when the CPU
 * is to run it instead (out of memory under AUTO, the caller's message put
 * back). */
static lg_status_t run_gpu(lg_context_t *ctx, const lg_graph_t *graph, const struct lg_kernel *k,
                           const struct lg_call *c, bool *done)
{
    char saved[LG_ERROR_CAPACITY];
    lg_graph_t *g = (lg_graph_t *)graph; /* its device-copy slot and lock */
    const bool device_outputs = c->output_memory == LG_MEMORY_DEVICE;
    /* the host's part (the staged copies) on a team that fits the machine too */
    const struct lg_exec x = {ctx->gpu_state,
                              lg__threads_for(ctx, work_of(graph, c)),
                              {c->progress, c->progress_data, 1},
                              device_outputs};
    struct lg_graph_view view;
    lg_status_t st = prepare(ctx, graph, k, c, &view);
    if (st != LG_OK) {
        *done = true; /* the host's memory: the CPU would need the same */
        return st;
    }
    lg__error_save(saved);
    pthread_mutex_lock(&ctx->gpu_lock);
    pthread_mutex_lock(&g->device_lock);
    st = k->run(&x, &view, c->args);
    if (g->device_cache)
        g->device_owner = ctx->plugin;
    pthread_mutex_unlock(&g->device_lock);
    pthread_mutex_unlock(&ctx->gpu_lock);
    *done = !((st == LG_ERR_OUT_OF_MEMORY || st == LG_ERR_UNSUPPORTED) &&
              ctx->requested == LG_BACKEND_AUTO && !device_outputs);
    if (*done)
        lg__set_last_backend(LG_BACKEND_GPU);
    else
        lg__error_restore(saved);
    return st;
}

/* The one path from a validated call to a kernel. */
static lg_status_t run(lg_context_t *ctx, const lg_graph_t *graph, const struct lg_call *c)
{
    bool gpu = false, rent = false;
    lg_status_t refused = LG_OK;
    const struct lg_kernel *k = choose(ctx, graph, c, &gpu, &rent, &refused);
    if (!k)
        return refused;
    if (gpu) {
        bool done = false;
        lg_status_t st = run_gpu(ctx, graph, k, c, &done);
        if (done)
            return st;
        lg__set_last_backend_reason(st == LG_ERR_UNSUPPORTED
                                        ? "the GPU kernel cannot take this call"
                                        : "the GPU ran out of memory");
        k = lg__cpu_kernel(c->algorithm->id);
    }
    const long long t0 = rent ? now_ns() : 0;
    lg_status_t st = run_cpu(ctx, graph, k, c);
    if (rent)
        atomic_fetch_add(&((lg_graph_t *)graph)->auto_cpu_ns, now_ns() - t0);
    return st;
}

lg_status_t lg__dispatch(lg_context_t *ctx, const lg_graph_t *graph, const struct lg_call *c)
{
    const lg_status_t st = run(ctx, graph, c);
    return st == LG_ERR_CANCELLED ? lg__cancelled(c->algorithm->info.function) : st;
}

lg_status_t lg__check_vertices(const char *function, const char *what, const lg_graph_t *graph,
                               const lg_vertex_t *list, int64_t count)
{
    for (int64_t i = 0; i < count; i++)
        if (list[i] < 0 || list[i] >= graph->n)
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "%s: %s %d is not a vertex (num_vertices %lld)", function, what,
                             (int)list[i], (long long)graph->n);
    return LG_OK;
}

lg_status_t lg__check_output_memory(const char *function, lg_memory_t memory)
{
    if (memory != LG_MEMORY_HOST && memory != LG_MEMORY_DEVICE)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: unknown output_memory %d", function,
                         (int)memory);
    return LG_OK;
}
