/*
 * plugin_util.h - what the tests of the core's side of the GPU plugin
 * (test_plugin*.c) share.  tests/fake_plugin.c implements src/graph/plugin.h
 * with host memory; its behaviour follows LG_FAKE_PLUGIN_MODE.  The core
 * loads its plugin once per process, so each scenario runs in a child process
 * of its own (fork), with its own LIBGRAPH_PLUGIN_PATH and mode set before
 * the first context (plugin_main).
 *
 * Here: the fake's counters; contexts opened by backend; the thread's message
 * set to a sentinel that calls must leave alone; a small directed weighted
 * test graph with its hand-checked BFS distances and component labels; the
 * fake's scores, and the CPU's PageRank as the reference for the fallbacks;
 * check_cpu_answers, check_auto_falls_back and check_gpu_refused.
 */
#ifndef LIBGRAPH_TEST_PLUGIN_UTIL_H
#define LIBGRAPH_TEST_PLUGIN_UTIL_H

#include "fake_plugin.h"
#include "internal.h" /* lg__error */
#include "libgraph.h"
#include "test_util.h"

#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
static inline struct fake_plugin_stats *stats(void)
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

static inline lg_status_t open_context(lg_backend_t backend, int device_id, int threads,
                                       void *stream, lg_context_t **ctx)
{
    lg_context_options_t o;
    lg_context_options_init(&o);
    o.backend = backend;
    o.device_id = device_id;
    o.num_threads = threads;
    o.stream = stream;
    return lg_context_create(ctx, &o);
}

static inline lg_backend_t backend_of(const lg_context_t *ctx)
{
    lg_backend_t b = LG_BACKEND_AUTO;
    CHECK_OK(lg_context_get_backend(ctx, &b));
    return b;
}

static inline const char *device_of(const lg_context_t *ctx)
{
    const char *d = NULL;
    CHECK_OK(lg_context_get_device(ctx, &d));
    return d ? d : "";
}

/* Sets the thread's message to SENTINEL, as an earlier failed call would. */
static inline void set_sentinel(void)
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

static inline lg_graph_t *test_graph(void)
{
    const lg_vertex_t src[] = {0, 0, 1, 2, 3, 5}, dst[] = {1, 2, 3, 3, 4, 0};
    const float w[] = {1.0f, 2.0f, 1.0f, 0.5f, 3.0f, 1.0f};
    lg_graph_t *g = NULL;
    lg_status_t st = lg_graph_from_edges(NULL, N, 6, src, dst, w, tu_directed(), &g);
    if (st != LG_OK) {
        fprintf(stderr, "cannot build the test graph: %s\n", lg_last_error());
        exit(EXIT_FAILURE);
    }
    return g;
}

static inline bool fake_scores(const double *x, int64_t n)
{
    for (int64_t v = 0; v < n; v++)
        if (x[v] != FAKE_SCORE(v))
            return false;
    return true;
}

static inline bool fake_scores_f32(const float *x, int64_t n)
{
    for (int64_t v = 0; v < n; v++)
        if (x[v] != (float)FAKE_SCORE(v))
            return false;
    return true;
}

/* PageRank on the CPU, the reference for the fallbacks. */
static inline void cpu_pagerank(const lg_graph_t *g, double *x, float *xf, int *iters)
{
    lg_context_t *cpu = NULL;
    CHECK_OK(open_context(LG_BACKEND_CPU, 0, 2, NULL, &cpu));
    lg_pagerank_result_t r;
    CHECK_OK(lg_pagerank(cpu, g, NULL, x, &r));
    if (iters)
        *iters = r.iterations;
    if (xf)
        CHECK_OK(lg_pagerank_f32(cpu, g, NULL, xf, NULL));
    lg_context_free(&cpu);
}

static inline bool close_to(const double *a, const double *b, int64_t n)
{
    for (int64_t v = 0; v < n; v++)
        if (!(fabs(a[v] - b[v]) <= 1e-15))
            return false;
    return true;
}

/* BFS and components on ctx must give the CPU's (hand-checked) answers. */
static inline void check_cpu_answers(lg_context_t *ctx, lg_graph_t *g)
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
    CHECK_OK(lg_connected_components(ctx, g, NULL, labels, &count));
    CHECK(lg_last_backend() == LG_BACKEND_CPU);
    CHECK(memcmp(labels, want_labels, sizeof labels) == 0);
    CHECK(count == 2);
}

/* An AUTO context where no GPU can be had: a CPU context, quietly. */
static inline void check_auto_falls_back(void)
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
static inline void check_gpu_refused(const char *why)
{
    lg_context_t *ctx = (lg_context_t *)(void *)&ctx; /* not NULL: must be overwritten */
    CHECK_STATUS(open_context(LG_BACKEND_GPU, 0, 0, NULL, &ctx), LG_ERR_DEVICE);
    CHECK(ctx == NULL);
    CHECK_MESSAGE(why);
}

/* ---- the runner ------------------------------------------------------------------------ */

/* One scenario: the environment the core meets in a fresh process, and its checks. */
struct scenario {
    const char *name;
    const char *plugin_path; /* LIBGRAPH_PLUGIN_PATH, or NULL: unset */
    const char *mode;        /* LG_FAKE_PLUGIN_MODE */
    void (*run)(void);
};

static inline int run_here(const struct scenario *s)
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

/* A test program's main: `PROGRAM NAME` runs scenario NAME in this process
 * (for debugging); with no argument every scenario runs in a child process
 * of its own, and each must pass. */
static inline int plugin_main(int argc, char **argv, const struct scenario *scenarios, size_t count)
{
    if (argc > 1) {
        for (size_t i = 0; i < count; i++)
            if (!strcmp(argv[1], scenarios[i].name))
                return run_here(&scenarios[i]);
        fprintf(stderr, "no scenario %s\n", argv[1]);
        return EXIT_FAILURE;
    }
    /* Each scenario in a fresh process: the plugin is loaded once per process.
     * This process calls nothing of libgraph, so forking is safe. */
    for (size_t i = 0; i < count; i++) {
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

#endif
