/*
 * test_plugin.c - the core's side of the GPU plugin, against a fake plugin.
 *
 * tests/fake_plugin.c implements src/graph/plugin.h with host memory; its
 * behaviour follows LG_FAKE_PLUGIN_MODE.  The core loads its plugin once per
 * process, so each scenario runs in a child process of its own (fork), with
 * its own LIBGRAPH_PLUGIN_PATH and mode set before the first context:
 *
 *   no_plugin       nothing to find: GPU contexts fail with LG_ERR_DEVICE
 *                   naming where the core looked, AUTO quietly gives the CPU
 *   path_entries    a missing entry, a file that is no shared library and a
 *                   library without the entry point: each named with its reason
 *   abi_mismatch,   the plugin loads but refuses, or speaks another ABI:
 *   entry_fails     LG_ERR_DEVICE with the reason; AUTO gives the CPU
 *   no_device       the plugin's open fails: its own message; AUTO -> CPU
 *   search_order    a bad candidate is skipped; a directory entry is searched
 *                   for libgraph_cuda.so
 *   gpu_context     the device line; PageRank dispatched to the plugin with
 *                   the graph and options it should see; BFS and components
 *                   (no GPU kernel): LG_ERR_UNSUPPORTED under GPU, the CPU's
 *                   answers under AUTO; lg_last_backend; device copies freed
 *                   exactly once, with the graph, even after the context
 *   oom             PageRank out of device memory: the CPU's answer under
 *                   AUTO (message untouched), LG_ERR_OUT_OF_MEMORY under GPU
 *   threads         contexts created at once load the plugin once; calls
 *                   from many threads never overlap on a graph or a context
 *   alloc_failures  the N-th allocation fails, for every N, through context
 *                   creation and dispatch (the fake allocates through the
 *                   core): LG_OK or LG_ERR_OUT_OF_MEMORY, right answers,
 *                   every device copy and context handed back (and the
 *                   sanitizer build checks that nothing leaks)
 *
 * `test_plugin NAME` runs one scenario in this process (for debugging).
 */
#define _GNU_SOURCE /* RTLD_NOLOAD, setenv */

#include "fake_plugin.h"
#include "internal.h" /* lg__alloc_fail_after, lg__error */
#include "libgraph.h"
#include "test_util.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#if !defined(LG_FAKE_PLUGIN) || !defined(LG_FAKE_PLUGIN_DIR) || !defined(LG_FAKE_NO_ENTRY) ||      \
    !defined(LG_TEST_BIN_DIR)
#error "tests/CMakeLists.txt passes the fake plugin's paths"
#endif

#define PLUGIN_PATH_ENV "LIBGRAPH_PLUGIN_PATH"
#define SENTINEL "an earlier failure the caller has not read yet"

/* ---- helpers ------------------------------------------------------------------------ */

/* The fake's counters, once the core has loaded it. */
static struct fake_plugin_stats *stats(void)
{
    static struct fake_plugin_stats *s;
    if (s)
        return s;
    void *h = dlopen(LG_FAKE_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
    if (!h) {
        fprintf(stderr, "the fake plugin is not loaded: %s\n", dlerror());
        exit(EXIT_FAILURE);
    }
    s = dlsym(h, FAKE_STATS_SYMBOL);
    dlclose(h); /* the core's reference keeps it loaded */
    if (!s) {
        fprintf(stderr, "the fake plugin has no %s\n", FAKE_STATS_SYMBOL);
        exit(EXIT_FAILURE);
    }
    return s;
}

static lg_status_t open_context(lg_backend_t backend, int device_id, int threads, void *stream,
                                lg_context_t **ctx)
{
    lg_context_options_t o;
    lg_context_options_init(&o);
    o.backend = backend;
    o.device_id = device_id;
    o.num_threads = threads;
    o.stream = stream;
    return lg_context_create(ctx, &o);
}

static lg_backend_t backend_of(const lg_context_t *ctx)
{
    lg_backend_t b = LG_BACKEND_AUTO;
    CHECK_OK(lg_context_get_backend(ctx, &b));
    return b;
}

static const char *device_of(const lg_context_t *ctx)
{
    const char *d = NULL;
    CHECK_OK(lg_context_get_device(ctx, &d));
    return d ? d : "";
}

/* Sets the thread's message to SENTINEL, as an earlier failed call would. */
static void set_sentinel(void)
{
    lg__error(LG_ERR_IO, "%s", SENTINEL);
}

#define CHECK_SENTINEL() CHECK(strcmp(lg_last_error(), SENTINEL) == 0)

#define CHECK_CONTAINS(text, sub)                                                                  \
    do {                                                                                           \
        const char *tc_text = (text);                                                              \
        if (strstr(tc_text, (sub))) {                                                              \
            tu_passed++;                                                                           \
        } else {                                                                                   \
            tu_failed++;                                                                           \
            fprintf(stderr, "%s:%d: \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, tc_text, (sub));   \
        }                                                                                          \
    } while (0)

/* The test graph, directed and weighted: 0->1, 0->2, 1->3, 2->3, 3->4, 5->0,
 * and 6 alone.  From 0: distances 0 1 1 2 3 -1 -1.  Weakly connected
 * components: {0..5} and {6}. */
#define N 7
static const int32_t want_dist[N] = {0, 1, 1, 2, 3, -1, -1};
static const lg_vertex_t want_labels[N] = {0, 0, 0, 0, 0, 0, 6};

static lg_graph_t *test_graph(void)
{
    const lg_vertex_t src[] = {0, 0, 1, 2, 3, 5}, dst[] = {1, 2, 3, 3, 4, 0};
    const float w[] = {1.0f, 2.0f, 1.0f, 0.5f, 3.0f, 1.0f};
    lg_graph_t *g = NULL;
    lg_status_t st = lg_graph_from_edges(NULL, N, 6, src, dst, w, NULL, &g);
    if (st != LG_OK) {
        fprintf(stderr, "cannot build the test graph: %s\n", lg_last_error());
        exit(EXIT_FAILURE);
    }
    return g;
}

static bool fake_scores(const double *x, int64_t n)
{
    for (int64_t v = 0; v < n; v++)
        if (x[v] != FAKE_SCORE(v))
            return false;
    return true;
}

static bool fake_scores_f32(const float *x, int64_t n)
{
    for (int64_t v = 0; v < n; v++)
        if (x[v] != (float)FAKE_SCORE(v))
            return false;
    return true;
}

/* PageRank on the CPU, the reference for the fallbacks. */
static void cpu_pagerank(const lg_graph_t *g, double *x, float *xf, int *iters)
{
    lg_context_t *cpu = NULL;
    CHECK_OK(open_context(LG_BACKEND_CPU, 0, 2, NULL, &cpu));
    CHECK_OK(lg_pagerank(cpu, g, NULL, x, iters));
    if (xf)
        CHECK_OK(lg_pagerank_f32(cpu, g, NULL, xf, NULL));
    lg_context_free(&cpu);
}

static bool close_to(const double *a, const double *b, int64_t n)
{
    for (int64_t v = 0; v < n; v++)
        if (!(fabs(a[v] - b[v]) <= 1e-15))
            return false;
    return true;
}

/* BFS and components on ctx must give the CPU's (hand-checked) answers. */
static void check_cpu_answers(lg_context_t *ctx, lg_graph_t *g)
{
    int32_t dist[N];
    lg_vertex_t parents[N], labels[N];
    int64_t count = -1;
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = true;
    CHECK_OK(lg_bfs(ctx, g, 0, &bo, dist, parents));
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    CHECK(memcmp(dist, want_dist, sizeof dist) == 0);
    CHECK(parents[0] == 0 && parents[1] == 0 && parents[2] == 0 && parents[4] == 3 &&
          (parents[3] == 1 || parents[3] == 2) && parents[5] == -1 && parents[6] == -1);
    CHECK_OK(lg_connected_components(ctx, g, labels, &count));
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    CHECK(memcmp(labels, want_labels, sizeof labels) == 0);
    CHECK(count == 2);
}

/* An AUTO context where no GPU can be had: a CPU context, quietly. */
static void check_auto_falls_back(void)
{
    lg_context_t *ctx = NULL;
    set_sentinel();
    CHECK_OK(open_context(LG_BACKEND_AUTO, 0, 3, NULL, &ctx));
    CHECK_SENTINEL();
    if (!ctx)
        return;
    CHECK(backend_of(ctx) == LG_BACKEND_CPU);
    CHECK(strcmp(device_of(ctx), "cpu (3 threads)") == 0);
    lg_graph_t *g = test_graph();
    check_cpu_answers(ctx, g);
    double x[N];
    CHECK_OK(lg_pagerank(ctx, g, NULL, x, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    lg_graph_free(&g);
    lg_context_free(&ctx);
}

/* A GPU context that cannot be had: LG_ERR_DEVICE, no handle. */
static void check_gpu_refused(const char *why)
{
    lg_context_t *ctx = (lg_context_t *)(void *)&ctx; /* not NULL: must be overwritten */
    CHECK_STATUS(open_context(LG_BACKEND_GPU, 0, 0, NULL, &ctx), LG_ERR_DEVICE);
    CHECK(ctx == NULL);
    CHECK_MESSAGE(why);
}

/* ---- scenarios ------------------------------------------------------------------------ */

static void no_plugin(void)
{
    CHECK(lg_last_backend() == LG_BACKEND_AUTO); /* before any call */
    set_sentinel();
    const char *info = lg_build_info();
    CHECK_SENTINEL(); /* looking for the plugin leaves the message alone */
    CHECK_CONTAINS(info, "no GPU plugin found");
    CHECK_CONTAINS(info, "libgraph_cuda.so, libgraph_hip.so in " LG_TEST_BIN_DIR " and");
    CHECK_CONTAINS(info, PLUGIN_PATH_ENV " (unset)");

    for (int round = 0; round < 2; round++) { /* the outcome is settled once */
        check_gpu_refused("lg_context_create: no GPU plugin found: looked for libgraph_cuda.so, "
                          "libgraph_hip.so in " LG_TEST_BIN_DIR " and in " PLUGIN_PATH_ENV
                          " (unset)");
    }
    check_auto_falls_back();

    lg_context_t *ctx = NULL;
    CHECK_OK(open_context(LG_BACKEND_CPU, 0, 1, NULL, &ctx));
    CHECK(strcmp(device_of(ctx), "cpu (1 thread)") == 0);
    const char *d = "untouched";
    CHECK_STATUS(lg_context_get_device(NULL, &d), LG_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(d, "untouched") == 0);
    CHECK_STATUS(lg_context_get_device(ctx, NULL), LG_ERR_INVALID_ARGUMENT);

    /* a call that fails on its arguments ran nowhere */
    lg_graph_t *g = test_graph();
    int32_t dist[N];
    CHECK_OK(lg_bfs(ctx, g, 0, NULL, dist, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    CHECK_STATUS(lg_bfs(ctx, g, N, NULL, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(lg_last_backend() == LG_BACKEND_AUTO);
    CHECK_OK(lg_connected_components(NULL, g, (lg_vertex_t *)dist, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU); /* a NULL context is the CPU */
    lg_graph_free(&g);
    lg_context_free(&ctx);
}

static void path_entries(void)
{
    check_gpu_refused("lg_context_create: no usable GPU plugin: /nonexistent/libgraph: no such "
                      "file or directory; " LG_TEST_DATA_DIR "/README.md: ");
    CHECK_MESSAGE(LG_FAKE_NO_ENTRY ": not a libgraph plugin (no symbol lg_plugin_entry)");
    CHECK_MESSAGE("in " PLUGIN_PATH_ENV " (= /nonexistent/libgraph:");
    CHECK_CONTAINS(lg_build_info(), "no usable GPU plugin: /nonexistent/libgraph");
    check_auto_falls_back();
}

static void abi_mismatch(void)
{
    char want[256];
    snprintf(want, sizeof want, "%s: plugin ABI version 99, this libgraph needs %d", LG_FAKE_PLUGIN,
             LG_PLUGIN_ABI_VERSION);
    check_gpu_refused(want);
    check_gpu_refused("plugin ABI version 99");
    check_auto_falls_back();
    CHECK(atomic_load(&stats()->entries) == 1); /* loaded once, and kept */
    CHECK(atomic_load(&stats()->opens) == 0);
}

static void entry_fails(void)
{
    check_gpu_refused(LG_FAKE_PLUGIN ": the plugin failed to start: fake: CUDA driver version "
                                     "is insufficient (LG_ERR_DEVICE)");
    check_auto_falls_back();
    CHECK(atomic_load(&stats()->entries) == 1);
}

static void no_device(void)
{
    check_gpu_refused("lg_context_create: fake plugin, GPU 0: fake: no CUDA-capable device is "
                      "detected");
    check_auto_falls_back();
    CHECK(atomic_load(&stats()->opens) == 0 && atomic_load(&stats()->closes) == 0);
    CHECK_CONTAINS(lg_build_info(), "GPU plugin: " LG_FAKE_PLUGIN); /* found, but no device */
}

static void search_order(void)
{
    lg_context_t *ctx = NULL;
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 0, NULL, &ctx));
    CHECK(ctx && backend_of(ctx) == LG_BACKEND_GPU);
    CHECK_CONTAINS(lg_build_info(), "GPU plugin: " LG_FAKE_PLUGIN_DIR "/libgraph_cuda.so");
    lg_context_free(&ctx);
}

static void gpu_context(void)
{
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
    int iters = -1;
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.alpha = 0.7;
    CHECK_OK(lg_pagerank(gpu, g, &po, x, &iters));
    CHECK(lg_last_backend() == LG_BACKEND_GPU);
    CHECK(fake_scores(x, N) && iters == FAKE_ITERATIONS);
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
    CHECK_STATUS(lg_connected_components(gpu, g, labels, NULL), LG_ERR_UNSUPPORTED);
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
    CHECK_OK(lg_pagerank(gpu, empty, NULL, x, &iters));
    CHECK(iters == 0 && lg_last_backend() == LG_BACKEND_CPU);
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
}

static void oom(void)
{
    lg_graph_t *g = test_graph();
    double want[N], x[N];
    float wantf[N], xf[N];
    int want_iters = -1, iters = -2;
    cpu_pagerank(g, want, wantf, &want_iters);

    /* AUTO: the CPU reruns it, and the plugin's message does not stay */
    lg_context_t *ctx = NULL;
    CHECK_OK(open_context(LG_BACKEND_AUTO, 0, 2, NULL, &ctx));
    CHECK(ctx && backend_of(ctx) == LG_BACKEND_GPU);
    set_sentinel();
    CHECK_OK(lg_pagerank(ctx, g, NULL, x, &iters));
    CHECK_SENTINEL();
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    CHECK(close_to(x, want, N) && iters == want_iters);
    CHECK_OK(lg_pagerank_f32(ctx, g, NULL, xf, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU && memcmp(xf, wantf, sizeof xf) == 0);
    CHECK(atomic_load(&stats()->pagerank_calls) == 2);
    lg_context_free(&ctx);

    /* GPU: the error stands */
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 2, NULL, &ctx));
    CHECK_STATUS(lg_pagerank(ctx, g, NULL, x, NULL), LG_ERR_OUT_OF_MEMORY);
    CHECK_MESSAGE("fake: out of device memory (6 arcs)");
    CHECK(lg_last_backend() == LG_BACKEND_GPU);
    lg_context_free(&ctx);

    /* the copy made before the failure goes back with the graph */
    CHECK(atomic_load(&stats()->graph_allocs) == 1);
    lg_graph_free(&g);
    CHECK(atomic_load(&stats()->graph_frees) == 1);
}

/* ---- threads -------------------------------------------------------------------------- */

#define THREADS 6
#define CALLS 10

static pthread_barrier_t barrier;

struct worker {
    lg_context_t *ctx; /* shared, or NULL: the worker opens its own GPU context */
    lg_graph_t *g;
    lg_status_t st;
    bool right;
    lg_backend_t first_seen;
};

static void *open_at_once(void *arg)
{
    struct worker *w = arg;
    lg_context_t *ctx = NULL;
    w->first_seen = lg_last_backend(); /* thread-local: nothing ran on this thread yet */
    pthread_barrier_wait(&barrier);
    w->st = open_context(LG_BACKEND_GPU, 0, 1, NULL, &ctx);
    w->right = ctx != NULL && backend_of(ctx) == LG_BACKEND_GPU;
    lg_context_free(&ctx);
    return NULL;
}

static void *rank_many(void *arg)
{
    struct worker *w = arg;
    lg_context_t *own = NULL;
    double x[N];
    w->st = w->ctx ? LG_OK : open_context(LG_BACKEND_GPU, 0, 1, NULL, &own);
    w->right = true;
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < CALLS && w->st == LG_OK; i++) {
        memset(x, 0, sizeof x);
        w->st = lg_pagerank(w->ctx ? w->ctx : own, w->g, NULL, x, NULL);
        w->right &= fake_scores(x, N) && lg_last_backend() == LG_BACKEND_GPU;
    }
    lg_context_free(&own);
    return NULL;
}

static void run_threads(void *(*fn)(void *), struct worker *w)
{
    pthread_t t[THREADS];
    pthread_barrier_init(&barrier, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, fn, &w[i]) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < THREADS; i++)
        CHECK(w[i].st == LG_OK && w[i].right);
}

static void threads(void)
{
    struct worker w[THREADS];
    lg_graph_t *g = test_graph();
    lg_vertex_t labels[N];
    CHECK_OK(lg_connected_components(NULL, g, labels, NULL));
    CHECK(lg_last_backend() == LG_BACKEND_CPU); /* on this thread; the others start afresh */
    memset(w, 0, sizeof w);
    run_threads(open_at_once, w); /* the first contexts race to load the plugin */
    for (int i = 0; i < THREADS; i++)
        CHECK(w[i].first_seen == LG_BACKEND_AUTO);
    struct fake_plugin_stats *fs = stats();
    CHECK(atomic_load(&fs->entries) == 1 && atomic_load(&fs->opens) == THREADS);

    /* one graph; four threads share a context, two have their own */
    lg_context_t *shared = NULL;
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 1, NULL, &shared));
    memset(w, 0, sizeof w);
    for (int i = 0; i < THREADS; i++) {
        w[i].ctx = i < 4 ? shared : NULL;
        w[i].g = g;
    }
    run_threads(rank_many, w);
    CHECK(atomic_load(&fs->pagerank_calls) == THREADS * CALLS);
    CHECK(atomic_load(&fs->overlaps) == 0);
    CHECK(atomic_load(&fs->graph_allocs) == 1);
    lg_graph_free(&g);
    lg_context_free(&shared);
    CHECK(atomic_load(&fs->graph_frees) == 1);
    CHECK(atomic_load(&fs->opens) == atomic_load(&fs->closes));
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
    double want[N];
    lg_graph_t *g = test_graph();
    cpu_pagerank(g, want, NULL, NULL);
    lg_graph_free(&g);
    lg_context_t *ctx = NULL; /* load the plugin: loading is settled once, not swept */
    CHECK_OK(open_context(LG_BACKEND_GPU, 0, 1, NULL, &ctx));
    lg_context_free(&ctx);

    long k = 0;
    while (!sweep_once(k, want) && k < 10000)
        k++;
    CHECK(k > 2 && k < 10000); /* it took failures to get here, and it got here */
    struct fake_plugin_stats *fs = stats();
    CHECK(atomic_load(&fs->opens) == atomic_load(&fs->closes));
    CHECK(atomic_load(&fs->graph_allocs) == atomic_load(&fs->graph_frees));
    CHECK(atomic_load(&fs->graph_allocs) > 0 && atomic_load(&fs->bad_frees) == 0);
    printf("  allocation failures: %ld passes\n", k + 1);
}

/* ---- the runner ------------------------------------------------------------------------ */

struct scenario {
    const char *name;
    const char *plugin_path; /* LIBGRAPH_PLUGIN_PATH, or NULL: unset */
    const char *mode;        /* LG_FAKE_PLUGIN_MODE */
    void (*run)(void);
};

static const struct scenario scenarios[] = {
    {"no_plugin", NULL, NULL, no_plugin},
    {"path_entries", "/nonexistent/libgraph:" LG_TEST_DATA_DIR "/README.md::" LG_FAKE_NO_ENTRY,
     "ok", path_entries},
    {"abi_mismatch", LG_FAKE_PLUGIN, "abi-mismatch", abi_mismatch},
    {"entry_fails", LG_FAKE_PLUGIN, "entry-fails", entry_fails},
    {"no_device", LG_FAKE_PLUGIN, "no-device", no_device},
    {"search_order", LG_FAKE_NO_ENTRY ":" LG_FAKE_PLUGIN_DIR, "ok", search_order},
    {"gpu_context", LG_FAKE_PLUGIN, "ok", gpu_context},
    {"oom", LG_FAKE_PLUGIN, "oom", oom},
    {"threads", LG_FAKE_PLUGIN, "ok", threads},
    {"alloc_failures", LG_FAKE_PLUGIN, "ok", alloc_failures},
};
#define NUM_SCENARIOS (sizeof scenarios / sizeof scenarios[0])

static int run_here(const struct scenario *s)
{
    if (s->plugin_path)
        setenv(PLUGIN_PATH_ENV, s->plugin_path, 1);
    else
        unsetenv(PLUGIN_PATH_ENV);
    if (s->mode)
        setenv(FAKE_MODE_ENV, s->mode, 1);
    else
        unsetenv(FAKE_MODE_ENV);
    s->run();
    printf("%s: %ld passed, %ld failed\n", s->name, tu_passed, tu_failed);
    fflush(stdout);
    return tu_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (size_t i = 0; i < NUM_SCENARIOS; i++)
            if (!strcmp(argv[1], scenarios[i].name))
                return run_here(&scenarios[i]);
        fprintf(stderr, "no scenario %s\n", argv[1]);
        return EXIT_FAILURE;
    }
    /* Each scenario in a fresh process: the plugin is loaded once per process.
     * This process calls nothing of libgraph, so forking is safe. */
    for (size_t i = 0; i < NUM_SCENARIOS; i++) {
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0)
            exit(run_here(&scenarios[i])); /* exit, not _exit: the leak checker runs at exit */
        int status = 0;
        bool ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                  WEXITSTATUS(status) == 0;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "scenario %s failed (status %d)\n", scenarios[i].name, status);
    }
    TEST_EXIT();
}
