/*
 * test_gpu_faults.c - GPU failures other than memory (test_pagerank_oom.c and
 * test_traversal_oom.c sweep those): kernel launches the runtime refuses, and
 * a device the driver does not have.  Built only with a GPU plugin, as
 * test_gpu_faults_gpu; skipped (77) where no GPU answers.
 *
 * Through the plugin's test hook fail_launch_after, the k-th checked launch
 * of a call fails for real (a kernel launched with more threads a block than
 * the runtime allows; CUDA 13 names it cudaErrorInvalidValue), for k = 0, 1, ... until a call no longer reaches k:
 * PageRank in double and float, BFS (one cooperative search, and a launch a
 * phase), connected components, on a GPU and on an AUTO context.  Each such
 * call returns LG_ERR_DEVICE with the runtime's message (AUTO does not hide a
 * device error behind the CPU: only memory shortage falls back), and the
 * next call on the same context and graph gives the CPU's answer from the
 * GPU.  A context on a device ordinal the driver lacks is LG_ERR_DEVICE with
 * the runtime's reason, and GPU contexts still open afterwards.
 */
#define _POSIX_C_SOURCE 200809L

#include "internal.h" /* lg__plugin_test_hooks */
#include "libgraph.h"
#include "plugin.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef LG_TEST_GPU
#error "test_gpu_faults.c tests the GPU plugin: it is built with LG_TEST_GPU only"
#endif

enum call {
    PAGERANK,
    PAGERANK_F32,
    BFS,
    BFS_PHASES,
    COMPONENTS,
    CALLS
};
static const char *const call_name[CALLS] = {"PageRank", "PageRank (float)", "BFS",
                                             "BFS (a launch a phase)", "components"};

struct answers {
    int64_t n;
    double *pr;
    float *prf;
    int32_t *dist;
    lg_vertex_t *labels;
};

static lg_status_t run(lg_context_t *c, const lg_graph_t *g, enum call k, struct answers *a)
{
    switch (k) {
    case PAGERANK: return lg_pagerank(c, g, NULL, a->pr, NULL);
    case PAGERANK_F32: return lg_pagerank_f32(c, g, NULL, a->prf, NULL);
    case BFS:
    case BFS_PHASES: return lg_bfs(c, g, 0, NULL, a->dist, NULL);
    default: return lg_connected_components(c, g, NULL, a->labels, NULL);
    }
}

static bool answers_alloc(struct answers *a, int64_t n)
{
    a->n = n;
    a->pr = calloc((size_t)n, sizeof *a->pr);
    a->prf = calloc((size_t)n, sizeof *a->prf);
    a->dist = calloc((size_t)n, sizeof *a->dist);
    a->labels = calloc((size_t)n, sizeof *a->labels);
    return a->pr && a->prf && a->dist && a->labels;
}

static void answers_free(struct answers *a)
{
    free(a->pr);
    free(a->prf);
    free(a->dist);
    free(a->labels);
}

/* got is the CPU's answer for call k (PageRank within 1e-9, float 1e-5). */
static bool same(enum call k, const struct answers *got, const struct answers *want)
{
    const int64_t n = want->n;
    double worst = 0.0;
    switch (k) {
    case PAGERANK:
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(got->pr[v] - want->pr[v]));
        return worst < 1e-9;
    case PAGERANK_F32:
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs((double)got->prf[v] - (double)want->prf[v]));
        return worst < 1e-5;
    case BFS:
    case BFS_PHASES: return memcmp(got->dist, want->dist, (size_t)n * sizeof *got->dist) == 0;
    default: return memcmp(got->labels, want->labels, (size_t)n * sizeof *got->labels) == 0;
    }
}

/* Call k with its launch `at` failing; returns whether the failure fired. */
static bool failing_launch(const struct lg_plugin_test_hooks *hooks, lg_context_t *c,
                           const lg_graph_t *g, enum call k, long long at, struct answers *got,
                           const struct answers *want, const char *where)
{
    hooks->phase_launches(k == BFS_PHASES);
    hooks->fail_launch_after(at);
    lg_status_t st = run(c, g, k, got);
    const bool fired = hooks->fail_launch_after(-1) < 0;
    if (fired) {
        /* the runtime's own words: CUDA 13 calls the launch an invalid
         * argument (cudaErrorInvalidValue), HIP an invalid configuration */
        const char *msg = lg_last_error();
        const bool reported = st == LG_ERR_DEVICE && strstr(msg, "GPU runtime error while") &&
                              (strstr(msg, "cudaError") || strstr(msg, "hipError"));
        CHECK(reported);
        if (!reported)
            fprintf(stderr, "%s on a %s context, launch %lld refused: %s (%s)\n", call_name[k],
                    where, at, lg_status_string(st), lg_last_error());
        st = run(c, g, k, got); /* the same context and graph, at once */
    }
    const bool right = st == LG_OK && lg_last_backend() == LG_BACKEND_GPU && same(k, got, want);
    CHECK(right);
    if (!right)
        fprintf(stderr, "%s on a %s context %s launch %lld: %s (%s)\n", call_name[k], where,
                fired ? "after a refused" : "with no refused", at, lg_status_string(st),
                lg_last_error());
    hooks->phase_launches(0);
    return fired;
}

static void test_refused_launches(const struct lg_plugin_test_hooks *hooks, bool directed)
{
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_CPU;
    lg_context_t *cpu = NULL, *gpu = NULL, *automatic = NULL;
    CHECK_OK(lg_context_create(&cpu, &co));
    co.backend = LG_BACKEND_GPU;
    CHECK_OK(lg_context_create(&gpu, &co));
    co.backend = LG_BACKEND_AUTO;
    CHECK_OK(lg_context_create(&automatic, &co));
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = directed ? LG_DIRECTED : LG_UNDIRECTED;
    lg_graph_t *g = NULL;
    CHECK_OK(lg_generate(cpu, LG_GENERATOR_KRONECKER, 12, 8, 99, &go, &g));
    struct answers want, got;
    if (!g || !gpu || !automatic || !answers_alloc(&want, lg_graph_num_vertices(g)) ||
        !answers_alloc(&got, lg_graph_num_vertices(g)))
        goto done;
    long long fired_total = 0;
    for (enum call k = 0; k < CALLS; k++) {
        CHECK(run(cpu, g, k, &want) == LG_OK);
        for (int ctx = 0; ctx < 2; ctx++) {
            long long at = 0;
            while (at < 10000 && failing_launch(hooks, ctx ? automatic : gpu, g, k, at, &got, &want,
                                                ctx ? "AUTO" : "GPU"))
                at++;
            CHECK(at > 0 && at < 10000); /* the call launches, and runs to the end */
            fired_total += at;
        }
    }
    printf("refused launches (%s graph): %lld, each LG_ERR_DEVICE, each call right again after\n",
           directed ? "directed" : "undirected", fired_total);
done:
    answers_free(&want);
    answers_free(&got);
    lg_graph_free(&g);
    lg_context_free(&cpu);
    lg_context_free(&gpu);
    lg_context_free(&automatic);
}

static void test_missing_device(void)
{
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_GPU;
    co.device_id = 63;
    lg_context_t *c = NULL;
    CHECK_STATUS(lg_context_create(&c, &co), LG_ERR_DEVICE);
    CHECK_MESSAGE("63");
    CHECK(c == NULL);
    co.device_id = 0;
    CHECK_OK(lg_context_create(&c, &co));
    lg_context_free(&c);
}

int main(void)
{
    const struct lg_plugin_test_hooks *hooks = lg__plugin_test_hooks();
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_GPU;
    lg_context_t *probe = NULL;
    if (lg_context_create(&probe, &co) != LG_OK) {
        printf("no GPU answers: %s\n", lg_last_error());
        return 77;
    }
    lg_context_free(&probe);
    CHECK(hooks && hooks->fail_launch_after && hooks->phase_launches);
    if (hooks && hooks->fail_launch_after && hooks->phase_launches) {
        (void)lg__auto_upload_ns_override(0); /* AUTO takes the GPU at once */
        test_refused_launches(hooks, true);
        test_refused_launches(hooks, false);
        (void)lg__auto_upload_ns_override(-1);
    }
    test_missing_device();
    return tu_summary();
}
