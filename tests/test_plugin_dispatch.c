/*
 * test_plugin_dispatch.c - how the core dispatches to its GPU plugin and
 * falls back to the CPU, against a fake plugin (plugin_util.h), the CPU's
 * answers and hand-checked ones.  Each scenario runs in a process of its own:
 *
 *   gpu_context     the device line; PageRank dispatched to the plugin with
 *                   the graph and options it should see; BFS and components
 *                   (no GPU kernel): LG_ERR_UNSUPPORTED under GPU, the CPU's
 *                   answers under AUTO; lg_last_backend; device copies freed
 *                   exactly once, with the graph, even after the context
 *   oom             PageRank out of device memory: the CPU's answer under
 *                   AUTO (message untouched), LG_ERR_OUT_OF_MEMORY under GPU
 *   unsupported     the plugin's kernel refuses the call: likewise, with
 *                   LG_ERR_UNSUPPORTED under GPU
 *   auto_rule       AUTO's rent-or-buy choice: the CPU while a graph's CPU
 *                   calls cost less than its upload, then the GPU, at once
 *                   for a graph already there; lg_last_backend_reason
 *   alloc_failures  the N-th allocation fails, for every N, through context
 *                   creation and dispatch (the fake allocates through the
 *                   core): LG_OK or LG_ERR_OUT_OF_MEMORY, right answers,
 *                   every device copy and context handed back (and the
 *                   sanitizer build checks that nothing leaks)
 *
 * `test_plugin_dispatch NAME` runs one scenario in this process (for debugging).
 */
#define _GNU_SOURCE /* RTLD_NOLOAD, setenv */

#include "alloc_sites.h"
#include "internal.h" /* lg__alloc_fail_after, lg__error */
#include "libgraph.h"
#include "plugin_util.h"
#include "test_util.h"

static void gpu_context(void)
{
    (void)lg__auto_upload_ns_override(0); /* AUTO takes the GPU at once (auto_rule tests when) */
    struct fake_plugin_stats *fs;
    static int stream_token;
    lg_context_t *gpu = NULL, *autoc = NULL, *bad = NULL;
    CHECK(lg_last_backend() == LG_BACKEND_AUTO);

    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 2, &stream_token, &gpu));
    if (!gpu)
        return;
    fs = stats();
    CHECK(backend_of(gpu) == LG_BACKEND_GPU);
    CHECK(strcmp(device_of(gpu), "gpu 0: " FAKE_DEVICE_NAME " (fake, " FAKE_RUNTIME
                                 ", wave 64, emulated on 32)") == 0);
    CHECK(fs->last_stream == &stream_token && fs->last_device == 0);
    int threads = 0;
    CHECK_OK(lg_context_get_num_threads(gpu, &threads));
    CHECK(threads == 2);
    CHECK_CONTAINS(lg_build_info(), "GPU plugin: " LG_FAKE_PLUGIN);

    /* a plugin without a build entry cannot build from device edges */
    {
        const lg_vertex_t es[2] = {0, 1}, ed[2] = {1, 2};
        lg_graph_t *built = NULL;
        CHECK_STATUS(lg_graph_from_device_edges(gpu, 3, 2, es, ed, NULL, NULL, &built),
                     LG_ERR_UNSUPPORTED);
        CHECK_MESSAGE("lg_graph_from_device_edges: the GPU plugin cannot build graphs");
        CHECK(built == NULL);
    }

    /* lg_context_copy goes to the plugin (whose device memory is the host's) */
    const double from[3] = {1.5, 2.5, 3.5};
    double to[3] = {0, 0, 0};
    CHECK_OK(lg_context_copy(gpu, to, from, sizeof from));
    CHECK(to[0] == 1.5 && to[2] == 3.5 && atomic_load(&fs->copies) == 1);
    CHECK_OK(lg_context_copy(gpu, to, NULL, 0)); /* nothing to copy */
    CHECK_STATUS(lg_context_copy(gpu, NULL, from, 8), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_context_copy(NULL, to, from, 8), LG_ERR_UNSUPPORTED);
    CHECK(atomic_load(&fs->copies) == 1);

    /* a device the plugin does not have */
    CHECK_STATUS(open_context(LG_BACKEND_GPU, 1, 0, NULL, &bad), LG_ERR_DEVICE);
    CHECK_MESSAGE("lg_context_create: fake plugin, GPU 1: fake: device 1 does not exist");
    CHECK(bad == NULL);
    set_sentinel();
    CHECK_OK(open_context(LG_BACKEND_AUTO, 1, 0, NULL, &bad));
    CHECK_SENTINEL();
    CHECK(bad && backend_of(bad) == LG_BACKEND_CPU);
    lg_context_free(&bad);

    /* PageRank goes to the plugin, with the graph and the options as given */
    lg_graph_t *g = test_graph();
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    CHECK_OK(lg_graph_csr(g, &off, &idx, &w));
    double x[N];
    float xf[N];
    lg_pagerank_result_t r = {-1, 0.0, false};
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.alpha = 0.7;
    CHECK_OK(lg_pagerank(gpu, g, &po, x, &r));
    CHECK(lg_last_backend() == LG_BACKEND_GPU);
    CHECK(fake_scores(x, N) && r.iterations == FAKE_ITERATIONS && r.converged);
    CHECK(fs->last_n == N && fs->last_m == 6 && fs->last_directed == 1);
    CHECK(fs->last_offsets == off && fs->last_indices == idx && fs->last_weights == w);
    CHECK(fs->last_precision == 0 && fs->last_alpha == 0.7);
    CHECK_OK(lg_pagerank_f32(gpu, g, NULL, xf, NULL));
    CHECK(fake_scores_f32(xf, N));
    CHECK(fs->last_precision == 1 && fs->last_alpha == 0.85);
    CHECK(atomic_load(&fs->graph_allocs) == 1); /* the device copy is reused */
    int calls = atomic_load(&fs->pagerank_calls);

    /* no GPU kernel for BFS and components: refused under GPU, outputs untouched */
    int32_t dist[N];
    lg_vertex_t labels[N], src = 0;
    for (int v = 0; v < N; v++)
        dist[v] = labels[v] = 99;
    CHECK_STATUS(lg_bfs(gpu, g, 0, NULL, dist, NULL), LG_ERR_UNSUPPORTED);
    CHECK_MESSAGE("lg_bfs: no GPU kernel for BFS in this version (use LG_BACKEND_AUTO or the CPU)");
    CHECK(lg_last_backend() == LG_BACKEND_AUTO);
    CHECK_STATUS(lg_bfs_multi(gpu, g, &src, 1, NULL, dist, NULL), LG_ERR_UNSUPPORTED);
    CHECK_STATUS(lg_connected_components(gpu, g, NULL, labels, NULL), LG_ERR_UNSUPPORTED);
    CHECK_MESSAGE("lg_connected_components: no GPU kernel for connected components");
    CHECK(lg_last_backend() == LG_BACKEND_AUTO);
    bool untouched = true;
    for (int v = 0; v < N; v++)
        untouched &= dist[v] == 99 && labels[v] == 99;
    CHECK(untouched);

    /* bad arguments and empty graphs never reach the plugin */
    po.alpha = 2.0;
    CHECK_STATUS(lg_pagerank(gpu, g, &po, x, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(lg_last_backend() == LG_BACKEND_AUTO);
    lg_graph_t *empty = NULL;
    CHECK_OK(lg_graph_from_edges(NULL, 0, 0, NULL, NULL, NULL, NULL, &empty));
    CHECK_OK(lg_pagerank(gpu, empty, NULL, x, &r));
    CHECK(r.iterations == 0 && r.converged && r.residual == 0.0 &&
          lg_last_backend() == LG_BACKEND_CPU);
    CHECK(atomic_load(&fs->pagerank_calls) == calls);
    lg_graph_free(&empty);

    /* AUTO on the GPU: PageRank there, BFS and components on the CPU */
    CHECK_OK(open_context(LG_BACKEND_AUTO, 0, 2, NULL, &autoc));
    if (autoc) {
        CHECK(backend_of(autoc) == LG_BACKEND_GPU);
        CHECK(strncmp(device_of(autoc), "gpu 0: " FAKE_DEVICE_NAME, 20) == 0);
        check_cpu_answers(autoc, g);
        memset(x, 0, sizeof x);
        CHECK_OK(lg_pagerank(autoc, g, NULL, x, NULL));
        CHECK(lg_last_backend() == LG_BACKEND_GPU && fake_scores(x, N));
    }

    /* device copies: one per graph used on the GPU, freed once, with the graph,
     * also after the context that made it is gone */
    lg_graph_t *cpu_only = test_graph(), *outlives = test_graph();
    check_cpu_answers(autoc, cpu_only);
    CHECK_OK(lg_pagerank(autoc, outlives, NULL, x, NULL));
    CHECK(atomic_load(&fs->graph_allocs) == 2);
    lg_context_free(&autoc);
    CHECK(atomic_load(&fs->graph_frees) == 0);
    lg_graph_free(&g);
    CHECK(g == NULL && atomic_load(&fs->graph_frees) == 1);
    lg_graph_free(&cpu_only);
    CHECK(atomic_load(&fs->graph_frees) == 1);
    lg_context_free(&gpu);
    CHECK(atomic_load(&fs->closes) == atomic_load(&fs->opens) && atomic_load(&fs->opens) == 2);
    lg_graph_free(&outlives);
    CHECK(atomic_load(&fs->graph_frees) == 2 && atomic_load(&fs->bad_frees) == 0);

    /* outputs in device memory (the fake's device memory is the host's):
     * AUTO gives the call to the plugin even where its rule would rent the
     * CPU, and refuses, not falls back, where the plugin has no kernel; a
     * CPU context refuses them */
    (void)lg__auto_upload_ns_override(1000000000000LL); /* the rule: the CPU */
    CHECK_OK(open_context(LG_BACKEND_AUTO, 0, 2, NULL, &autoc));
    lg_graph_t *fresh = test_graph();
    lg_pagerank_options_t pd;
    lg_pagerank_options_init(&pd);
    pd.output_memory = LG_MEMORY_DEVICE;
    memset(x, 0, sizeof x);
    CHECK_OK(lg_pagerank(autoc, fresh, &pd, x, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_GPU && fake_scores(x, N));
    CHECK(strcmp(lg_last_backend_reason(), "the outputs are in device memory") == 0);
    lg_bfs_options_t bd;
    lg_bfs_options_init(&bd);
    bd.output_memory = LG_MEMORY_DEVICE;
    lg_components_options_t cd;
    lg_components_options_init(&cd);
    cd.output_memory = LG_MEMORY_DEVICE;
    CHECK_STATUS(lg_bfs(autoc, fresh, 0, &bd, dist, NULL), LG_ERR_UNSUPPORTED);
    CHECK_STATUS(lg_connected_components(autoc, fresh, &cd, labels, NULL), LG_ERR_UNSUPPORTED);
    CHECK_STATUS(lg_pagerank(NULL, fresh, &pd, x, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("lg_pagerank: output_memory is LG_MEMORY_DEVICE, but the context has no GPU");
    pd.output_memory = (lg_memory_t)7;
    CHECK_STATUS(lg_pagerank(autoc, fresh, &pd, x, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("unknown output_memory 7");
    (void)lg__auto_upload_ns_override(0);
    lg_graph_free(&fresh);
    lg_context_free(&autoc);
}

/* The plugin's PageRank fails with `status` (the fake's mode): AUTO reruns
 * it on the CPU, saying `reason`; GPU returns the plugin's error. */
static void rerun_on_cpu(lg_status_t status, const char *reason, const char *message)
{
    (void)lg__auto_upload_ns_override(0); /* AUTO takes the GPU at once */
    lg_graph_t *g = test_graph();
    double want[N], x[N];
    float wantf[N], xf[N];
    int want_iters = -1;
    lg_pagerank_result_t r = {-2, 0.0, false};
    cpu_pagerank(g, want, wantf, &want_iters);

    /* AUTO: the CPU reruns it, and the plugin's message does not stay */
    lg_context_t *ctx = NULL;
    CHECK_OK(open_context(LG_BACKEND_AUTO, 0, 2, NULL, &ctx));
    CHECK(ctx && backend_of(ctx) == LG_BACKEND_GPU);
    set_sentinel();
    CHECK_OK(lg_pagerank(ctx, g, NULL, x, &r));
    CHECK_SENTINEL();
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    CHECK(strcmp(lg_last_backend_reason(), reason) == 0);
    CHECK(close_to(x, want, N) && r.iterations == want_iters);
    CHECK_OK(lg_pagerank_f32(ctx, g, NULL, xf, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU && memcmp(xf, wantf, sizeof xf) == 0);
    CHECK(atomic_load(&stats()->pagerank_calls) == 2);
    lg_context_free(&ctx);

    /* GPU: the error stands */
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 2, NULL, &ctx));
    CHECK_STATUS(lg_pagerank(ctx, g, NULL, x, NULL), status);
    CHECK_MESSAGE(message);
    CHECK(lg_last_backend() == LG_BACKEND_GPU);
    lg_context_free(&ctx);

    /* the copy made before the failure goes back with the graph */
    CHECK(atomic_load(&stats()->graph_allocs) == 1);
    lg_graph_free(&g);
    CHECK(atomic_load(&stats()->graph_frees) == 1);
}

static void oom(void)
{
    rerun_on_cpu(LG_ERR_OUT_OF_MEMORY, "the GPU ran out of memory",
                 "fake: out of device memory (6 arcs)");
}

static void unsupported(void)
{
    rerun_on_cpu(LG_ERR_UNSUPPORTED, "the GPU kernel cannot take this call",
                 "fake: cannot take this call (6 arcs)");
}

/* ---- allocation failures ---------------------------------------------------------------- */

static bool sweep_ok(lg_status_t st, const char *what, long k)
{
    bool ok = st == LG_OK || (st == LG_ERR_OUT_OF_MEMORY && lg_last_error()[0] != '\0');
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  allocation %ld: %s returned %s: %s\n", k, what, lg_status_string(st),
                lg_last_error());
    return st == LG_OK;
}

/* One pass with allocation k failing; true when every call succeeded. */
static bool sweep_once(long k, const double *want)
{
    lg_graph_t *g = test_graph(); /* built before the failures start */
    lg_context_t *gpu = NULL, *autoc = NULL;
    double x[N];
    int32_t dist[N];
    bool all = true;

    lg__error(LG_OK, "%s", "");
    lg__alloc_fail_after(k);
    lg_status_t st = open_context(LG_BACKEND_GPU, 0, 1, NULL, &gpu);
    all &= sweep_ok(st, "lg_context_create(GPU)", k);
    CHECK((st == LG_OK) == (gpu != NULL));
    if (gpu) {
        st = lg_pagerank(gpu, g, NULL, x, NULL);
        if (sweep_ok(st, "lg_pagerank(GPU)", k))
            CHECK(fake_scores(x, N) && lg_last_backend() == LG_BACKEND_GPU);
        else
            all = false;
    }
    st = open_context(LG_BACKEND_AUTO, 0, 1, NULL, &autoc);
    all &= sweep_ok(st, "lg_context_create(AUTO)", k);
    if (autoc) {
        all &= backend_of(autoc) == LG_BACKEND_GPU; /* else the plugin's open ran out */
        st = lg_pagerank(autoc, g, NULL, x, NULL);
        if (sweep_ok(st, "lg_pagerank(AUTO)", k)) /* the GPU's answer, or the CPU's */
            CHECK(lg_last_backend() == LG_BACKEND_GPU ? fake_scores(x, N) : close_to(x, want, N));
        else
            all = false;
        st = lg_bfs(autoc, g, 0, NULL, dist, NULL);
        if (sweep_ok(st, "lg_bfs(AUTO)", k))
            CHECK(memcmp(dist, want_dist, sizeof dist) == 0);
        else
            all = false;
    }
    lg__alloc_fail_after(-1);
    lg_context_free(&gpu);
    lg_context_free(&autoc);
    lg_graph_free(&g);
    return all;
}

static void alloc_failures(void)
{
    (void)lg__auto_upload_ns_override(0); /* AUTO takes the GPU at once */
    double want[N];
    lg_graph_t *g = test_graph();
    cpu_pagerank(g, want, NULL, NULL);
    lg_graph_free(&g);
    lg_context_t *ctx = NULL; /* load the plugin: loading is settled once, not swept */
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 1, NULL, &ctx));
    lg_context_free(&ctx);

    long k = 0;
    alloc_sites_begin();
    while (!sweep_once(k, want) && k < 10000)
        k++;
    alloc_sites_end("test_plugin_dispatch (fake GPU plugin, AUTO)");
    CHECK(k > 2 && k < 10000); /* it took failures to get here, and it got here */
    struct fake_plugin_stats *fs = stats();
    CHECK(atomic_load(&fs->opens) == atomic_load(&fs->closes));
    CHECK(atomic_load(&fs->graph_allocs) == atomic_load(&fs->graph_frees));
    CHECK(atomic_load(&fs->graph_allocs) > 0 && atomic_load(&fs->bad_frees) == 0);
    printf("  allocation failures: %ld passes\n", k + 1);
}
/* AUTO's rule: a graph not on the GPU runs on the CPU until its CPU calls
 * have cost its upload (estimated, or set by the test hook), then on the GPU,
 * and on the GPU at once while it is there; lg_last_backend_reason says
 * which case decided. */
static void auto_rule(void)
{
    lg_graph_t *g = test_graph(), *other = test_graph();
    double want[N], x[N];
    int32_t dist[N];
    cpu_pagerank(g, want, NULL, NULL);
    lg_context_t *autoc = NULL, *gpu = NULL;
    CHECK_OK(open_context(LG_BACKEND_AUTO, 0, 2, NULL, &autoc));
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 2, NULL, &gpu));
    if (!autoc || !gpu) {
        lg_context_free(&autoc);
        lg_context_free(&gpu);
        lg_graph_free(&g);
        lg_graph_free(&other);
        return;
    }
    struct fake_plugin_stats *fs = stats(); /* the plugin is loaded now */
    const char *renting = "the graph is not on the GPU, and its CPU calls have not yet cost as "
                          "much as its upload would";

    /* the rule's own estimate (1 ms and more) is far above a CPU call on 6 arcs */
    CHECK(lg__auto_upload_ns_override(-1) == -1);
    CHECK_OK(lg_pagerank(autoc, g, NULL, x, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU && close_to(x, want, N));
    CHECK(strcmp(lg_last_backend_reason(), renting) == 0);
    CHECK(atomic_load(&fs->pagerank_calls) == 0);

    /* an upload cheaper than the CPU time spent: the next call goes over */
    (void)lg__auto_upload_ns_override(1);
    CHECK_OK(lg_pagerank(autoc, g, NULL, x, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_GPU && fake_scores(x, N));
    CHECK(strcmp(lg_last_backend_reason(),
                 "the graph's CPU calls have cost as much as its upload to the GPU") == 0);
    CHECK(atomic_load(&fs->pagerank_calls) == 1 && atomic_load(&fs->graph_allocs) == 1);

    /* on the GPU now, it stays there whatever the estimate */
    (void)lg__auto_upload_ns_override(1000000000000LL);
    CHECK_OK(lg_pagerank(autoc, g, NULL, x, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_GPU && fake_scores(x, N));
    CHECK(strcmp(lg_last_backend_reason(), "the graph is on the GPU") == 0);

    /* another graph starts over, and its own time counts, not g's */
    CHECK_OK(lg_pagerank(autoc, other, NULL, x, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU && strcmp(lg_last_backend_reason(), renting) == 0);

    /* no GPU kernel (the fake has no BFS): the CPU, and the reason says so */
    CHECK_OK(lg_bfs(autoc, g, 0, NULL, dist, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    CHECK(strcmp(lg_last_backend_reason(), "the GPU plugin has no kernel for it") == 0);

    /* a GPU context asks for the GPU: no rule, no reason */
    CHECK_OK(lg_pagerank(gpu, other, NULL, x, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_GPU && strcmp(lg_last_backend_reason(), "") == 0);

    (void)lg__auto_upload_ns_override(-1);
    lg_context_free(&autoc);
    lg_context_free(&gpu);
    lg_graph_free(&g);
    lg_graph_free(&other);
}

static const struct scenario scenarios[] = {
    {"gpu_context", LG_FAKE_PLUGIN, "ok", gpu_context},
    {"oom", LG_FAKE_PLUGIN, "oom", oom},
    {"unsupported", LG_FAKE_PLUGIN, "unsupported", unsupported},
    {"alloc_failures", LG_FAKE_PLUGIN, "ok", alloc_failures},
    {"auto_rule", LG_FAKE_PLUGIN, "ok", auto_rule},
};

int main(int argc, char **argv)
{
    return plugin_main(argc, argv, scenarios, sizeof scenarios / sizeof scenarios[0]);
}
