/*
 * test_errors.c - every error path of the public API.
 *
 * Each function gets its bad arguments (NULL handles and outputs, ids and
 * counts out of range, bad weights, unknown enums, bad PageRank options) and
 * must return the documented status with a message, set its handle output to
 * NULL, and leave its other outputs as it found them.  Then the status names,
 * the thread-local last error, the free functions, and an allocation-failure
 * sweep: the k-th allocation fails, for k = 0, 1, 2, ... until a whole
 * pipeline (build, CSC, BFS with parents, PageRank in both precisions,
 * components, file reading, generation) runs through; every call must return
 * LG_OK or LG_ERR_OUT_OF_MEMORY with a message, never crash or leak (the
 * sanitizer build checks the leaks), and when it succeeds its answer must be
 * the right one.
 */
#define _POSIX_C_SOURCE 200809L

#include "internal.h" /* lg__alloc_fail_after */
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <pthread.h>

#ifndef LG_TEST_TMP_DIR
#define LG_TEST_TMP_DIR "/tmp"
#endif

static lg_context_t *ctx;

/* A handle value that is not NULL and not a real handle: a failed call must
 * overwrite it with NULL and never follow it. */
static char not_a_handle;
#define POISON_GRAPH ((lg_graph_t *)(void *)&not_a_handle)
#define POISON_CONTEXT ((lg_context_t *)(void *)&not_a_handle)

/* A small directed test graph: 0->1, 1->2, 2->0, 2->3 (weighted). */
static lg_graph_t *small_graph(bool weighted)
{
    const lg_vertex_t src[] = {0, 1, 2, 2}, dst[] = {1, 2, 0, 3};
    const float w[] = {1.0f, 2.0f, 0.5f, 4.0f};
    lg_graph_t *g = NULL;
    lg_status_t st = lg_graph_from_edges(ctx, 4, 4, src, dst, weighted ? w : NULL, NULL, &g);
    CHECK(st == LG_OK && g != NULL);
    if (!g) {
        fprintf(stderr, "cannot build the test graph: %s\n", lg_last_error());
        exit(EXIT_FAILURE);
    }
    return g;
}

/* ---- status names and the last error ---------------------------------------------- */

static void test_status_strings(void)
{
    static const struct {
        lg_status_t st;
        const char *name;
    } names[] = {
        {LG_OK, "LG_OK"},
        {LG_ERR_INVALID_ARGUMENT, "LG_ERR_INVALID_ARGUMENT"},
        {LG_ERR_OUT_OF_MEMORY, "LG_ERR_OUT_OF_MEMORY"},
        {LG_ERR_DEVICE, "LG_ERR_DEVICE"},
        {LG_ERR_UNSUPPORTED, "LG_ERR_UNSUPPORTED"},
        {LG_ERR_IO, "LG_ERR_IO"},
        {LG_ERR_NOT_CONVERGED, "LG_ERR_NOT_CONVERGED"},
        {LG_ERR_INTERNAL, "LG_ERR_INTERNAL"},
    };
    const size_t count = sizeof names / sizeof names[0];
    for (size_t i = 0; i < count; i++) {
        const char *s = lg_status_string(names[i].st);
        CHECK(s != NULL && strcmp(s, names[i].name) == 0);
    }
    /* an unknown value gets a name too, and not the name of a real status */
    const int unknown[] = {-1, 8, 99, 1 << 20};
    for (size_t u = 0; u < sizeof unknown / sizeof unknown[0]; u++) {
        const char *s = lg_status_string((lg_status_t)unknown[u]);
        CHECK(s != NULL && s[0] != '\0');
        for (size_t i = 0; s && i < count; i++)
            CHECK(strcmp(s, names[i].name) != 0);
    }
    CHECK(strcmp(lg_version_string(), "0.1.0") == 0);
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", LG_VERSION_MAJOR, LG_VERSION_MINOR, LG_VERSION_PATCH);
    CHECK(strcmp(lg_version_string(), v) == 0);
    CHECK(lg_build_info() != NULL && lg_build_info()[0] != '\0');
}

struct thread_view {
    char first[512]; /* lg_last_error() as a new thread first sees it */
    char after[512]; /* after a failure of its own */
    lg_status_t st;
};

static void *fresh_thread(void *arg)
{
    struct thread_view *t = arg;
    snprintf(t->first, sizeof t->first, "%s", lg_last_error());
    lg_graph_t *g = NULL;
    t->st = lg_graph_from_edges(ctx, -5, 0, NULL, NULL, NULL, NULL, &g);
    snprintf(t->after, sizeof t->after, "%s", lg_last_error());
    return NULL;
}

static void test_last_error(void)
{
    lg_graph_t *g = NULL;
    /* a failure sets the message */
    CHECK_STATUS(lg_graph_from_edges(ctx, -1, 0, NULL, NULL, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    char mine[512];
    snprintf(mine, sizeof mine, "%s", lg_last_error());
    CHECK(mine[0] != '\0');

    /* a fresh thread has no message; its own failure does not touch ours */
    struct thread_view t = {{0}, {0}, LG_OK};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, fresh_thread, &t) == 0);
    pthread_join(th, NULL);
    CHECK(t.first[0] == '\0');
    CHECK(t.st == LG_ERR_INVALID_ARGUMENT && t.after[0] != '\0');
    CHECK(strcmp(lg_last_error(), mine) == 0);

    /* successful calls do not clear it */
    lg_graph_t *ok = small_graph(false);
    int32_t dist[4];
    CHECK_OK(lg_bfs(ctx, ok, 0, NULL, dist, NULL));
    CHECK(strcmp(lg_last_error(), mine) == 0);
    lg_graph_free(&ok);
}

/* ---- contexts ------------------------------------------------------------------------- */

static void test_context_errors(void)
{
    lg_context_options_t o;
    lg_context_t *c = POISON_CONTEXT;

    CHECK_STATUS(lg_context_create(NULL, NULL), LG_ERR_INVALID_ARGUMENT);

    lg_context_options_init(&o);
    CHECK(o.backend == LG_BACKEND_AUTO && o.device_id == 0 && o.num_threads == 0 &&
          o.stream == NULL);
    o.num_threads = -1;
    CHECK_STATUS(lg_context_create(&c, &o), LG_ERR_INVALID_ARGUMENT);
    CHECK(c == NULL);

    const int bad_backends[] = {-1, 3, 42};
    for (size_t i = 0; i < sizeof bad_backends / sizeof bad_backends[0]; i++) {
        lg_context_options_init(&o);
        o.backend = (lg_backend_t)bad_backends[i];
        c = POISON_CONTEXT;
        CHECK_STATUS(lg_context_create(&c, &o), LG_ERR_INVALID_ARGUMENT);
        CHECK(c == NULL);
    }

    /* a negative GPU ordinal is no device */
    lg_context_options_init(&o);
    o.device_id = -1;
    c = POISON_CONTEXT;
    lg_status_t st = lg_context_create(&c, &o);
    CHECK(st == LG_ERR_INVALID_ARGUMENT && c == NULL);
    if (st == LG_OK)
        lg_context_free(&c);

    /* no GPU plugin next to this program (tests/test_plugin.c covers the rest) */
    lg_context_options_init(&o);
    o.backend = LG_BACKEND_GPU;
    c = POISON_CONTEXT;
    st = lg_context_create(&c, &o);
    CHECK(st == LG_ERR_DEVICE && strstr(lg_last_error(), "GPU plugin") != NULL);
    CHECK(c == NULL);
    if (st == LG_OK)
        lg_context_free(&c);

    /* AUTO falls back to the CPU quietly; 0 threads resolves to >= 1 */
    lg_context_options_init(&o);
    c = NULL;
    CHECK_OK(lg_context_create(&c, &o));
    if (c) {
        lg_backend_t b = LG_BACKEND_AUTO;
        int threads = 0;
        CHECK_OK(lg_context_get_backend(c, &b));
        CHECK(b == LG_BACKEND_CPU);
        CHECK_OK(lg_context_get_num_threads(c, &threads));
        CHECK(threads >= 1);
        CHECK_STATUS(lg_context_get_backend(c, NULL), LG_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(lg_context_get_num_threads(c, NULL), LG_ERR_INVALID_ARGUMENT);
        lg_context_free(&c);
        CHECK(c == NULL);
    }
    CHECK_OK(lg_context_create(&c, NULL));
    lg_context_free(&c);

    lg_backend_t b = LG_BACKEND_GPU;
    int threads = -3;
    CHECK_STATUS(lg_context_get_backend(NULL, &b), LG_ERR_INVALID_ARGUMENT);
    CHECK(b == LG_BACKEND_GPU);
    CHECK_STATUS(lg_context_get_num_threads(NULL, &threads), LG_ERR_INVALID_ARGUMENT);
    CHECK(threads == -3);

    /* free functions accept NULL and a pointer to NULL */
    lg_context_free(NULL);
    c = NULL;
    lg_context_free(&c);
    CHECK(c == NULL);
    lg_graph_free(NULL);
    lg_graph_t *g = NULL;
    lg_graph_free(&g);
    CHECK(g == NULL);
}

/* ---- building ------------------------------------------------------------------------------ */

/* Device strings: the forms the CLI and Python take, and the others
 * refused with options untouched. */
static void test_device_strings(void)
{
    static const struct {
        const char *device;
        lg_backend_t backend;
        int device_id;
    } good[] = {{"auto", LG_BACKEND_AUTO, 5}, {"cpu", LG_BACKEND_CPU, 5},
                {"gpu", LG_BACKEND_GPU, 0},   {"gpu:0", LG_BACKEND_GPU, 0},
                {"gpu:3", LG_BACKEND_GPU, 3}, {"gpu:2147483647", LG_BACKEND_GPU, 2147483647}};
    static const char *const bad[] = {"",
                                      "GPU",
                                      "gpu:",
                                      "gpu:-1",
                                      "gpu:+1",
                                      "gpu:1x",
                                      "gpu: 1",
                                      "gpu:2147483648",
                                      "gpu:99999999999999999999",
                                      "cpu:0",
                                      "auto ",
                                      "gpu1",
                                      "tpu"};
    lg_context_options_t o;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        lg_context_options_init(&o);
        o.device_id = 5;
        o.num_threads = 7;
        CHECK_OK(lg_context_options_parse(&o, good[i].device));
        CHECK(o.backend == good[i].backend && o.device_id == good[i].device_id &&
              o.num_threads == 7);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lg_context_options_init(&o);
        o.backend = LG_BACKEND_CPU;
        o.device_id = 5;
        CHECK_STATUS(lg_context_options_parse(&o, bad[i]), LG_ERR_INVALID_ARGUMENT);
        CHECK(strstr(lg_last_error(), "is not 'auto', 'cpu', 'gpu' or 'gpu:N'") != NULL);
        CHECK(o.backend == LG_BACKEND_CPU && o.device_id == 5);
    }
    CHECK_STATUS(lg_context_options_parse(NULL, "cpu"), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_context_options_parse(&o, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("lg_context_options_parse: device is NULL");
}

static void test_from_edges_errors(void)
{
    enum {
        E = 20,
        N = 10
    };
    lg_vertex_t src[E], dst[E];
    float w[E];
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)(i % N);
        dst[i] = (lg_vertex_t)((i * 3 + 1) % N);
        w[i] = (float)i / 4.0f;
    }
    lg_graph_options_t o;
    lg_graph_t *g = POISON_GRAPH;

    /* the inputs are good: the failures below come from one change each */
    CHECK_OK(lg_graph_from_edges(ctx, N, E, src, dst, w, NULL, &g));
    lg_graph_free(&g);

    CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, w, NULL, NULL), LG_ERR_INVALID_ARGUMENT);

    const int64_t bad_n[] = {-1, INT64_MIN, LG_MAX_VERTICES + 1, INT64_MAX};
    for (size_t i = 0; i < sizeof bad_n / sizeof bad_n[0]; i++) {
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, bad_n[i], 0, NULL, NULL, NULL, NULL, &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK(g == NULL);
    }
    const int64_t bad_E[] = {-1, INT64_MIN, INT64_MAX};
    for (size_t i = 0; i < sizeof bad_E / sizeof bad_E[0]; i++) {
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, bad_E[i], src, dst, NULL, NULL, &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK(g == NULL);
    }
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, N, E, NULL, dst, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, NULL, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);

    /* ids out of range: the message names the edge */
    const struct {
        int edge;
        bool is_src;
        lg_vertex_t value;
    } bad_ids[] = {{17, false, N}, {17, true, N},         {3, false, -1},
                   {0, true, -1},  {19, true, INT32_MAX}, {11, false, INT32_MIN}};
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        lg_vertex_t *a = bad_ids[i].is_src ? src : dst;
        lg_vertex_t keep = a[bad_ids[i].edge];
        a[bad_ids[i].edge] = bad_ids[i].value;
        char want[32];
        snprintf(want, sizeof want, "edge %d", bad_ids[i].edge);
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, NULL, NULL, &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE(want);
        CHECK(g == NULL);
        /* undirected, weighted: the same edge is named */
        lg_graph_options_init(&o);
        o.directedness = LG_UNDIRECTED;
        o.duplicates = LG_DUPLICATES_SUM;
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE(want);
        CHECK(g == NULL);
        a[bad_ids[i].edge] = keep;
    }
    /* the first offending edge is the one named */
    src[5] = N + 3;
    dst[17] = -2;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, NULL, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("edge 5");
    CHECK(g == NULL);
    src[5] = 5;
    dst[17] = (17 * 3 + 1) % N;
    /* a graph with no vertices has no valid id */
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, 0, 1, src, dst, NULL, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("edge 0");
    CHECK(g == NULL);

    /* bad weights: negative, NaN, infinite */
    const float bad_w[] = {-1.0f, -1e-30f, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad_w / sizeof bad_w[0]; i++) {
        const int at = 9 + (int)i;
        float keep = w[at];
        w[at] = bad_w[i];
        char want[32];
        snprintf(want, sizeof want, "edge %d", at);
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, w, NULL, &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE(want);
        CHECK(g == NULL);
        /* without weights the same arrays are fine */
        CHECK_OK(lg_graph_from_edges(ctx, N, E, src, dst, NULL, NULL, &g));
        lg_graph_free(&g);
        w[at] = keep;
    }
    /* a bad weight before a bad id: the earlier edge is named */
    w[2] = NAN;
    dst[6] = N;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, w, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("edge 2");
    CHECK(g == NULL);
    w[2] = 0.5f;
    dst[6] = (6 * 3 + 1) % N;
    /* zero and negative zero are weights >= 0 */
    w[4] = 0.0f;
    w[5] = -0.0f;
    CHECK_OK(lg_graph_from_edges(ctx, N, E, src, dst, w, NULL, &g));
    lg_graph_free(&g);

    /* unknown option values */
    const int bad_dir[] = {-1, 3, 100};
    for (size_t i = 0; i < sizeof bad_dir / sizeof bad_dir[0]; i++) {
        lg_graph_options_init(&o);
        o.directedness = (lg_directedness_t)bad_dir[i];
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
        CHECK(g == NULL);
    }
    const int bad_dup[] = {-1, 6, 100};
    for (size_t i = 0; i < sizeof bad_dup / sizeof bad_dup[0]; i++) {
        lg_graph_options_init(&o);
        o.duplicates = (lg_duplicates_t)bad_dup[i];
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
        CHECK(g == NULL);
    }
}

static void test_from_csr_errors(void)
{
    /* 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 0 */
    lg_edge_t off[] = {0, 2, 3, 4};
    lg_vertex_t idx[] = {1, 2, 2, 0};
    float w[] = {1.0f, 2.0f, 3.0f, 4.0f};
    lg_graph_options_t o;
    lg_graph_t *g = POISON_GRAPH;

    CHECK_OK(lg_graph_from_csr(ctx, 3, off, idx, w, NULL, &g));
    lg_graph_free(&g);

    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, NULL, idx, w, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, NULL, w, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    const int64_t bad_n[] = {-1, LG_MAX_VERTICES + 1};
    for (size_t i = 0; i < 2; i++) {
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_csr(ctx, bad_n[i], off, idx, w, NULL, &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK(g == NULL);
    }
    /* row_offsets[0] must be 0 */
    lg_edge_t off1[] = {1, 2, 3, 4};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off1, idx, w, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    /* non-decreasing */
    lg_edge_t off2[] = {0, 3, 2, 4};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off2, idx, w, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    lg_edge_t off3[] = {0, 2, 3, -1};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off3, idx, w, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    /* an arc count no machine can hold, refused before the arrays are read */
    lg_edge_t off4[] = {0, 2, 3, INT64_MAX};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off4, idx, w, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    /* column ids and weights */
    const lg_vertex_t bad_ids[] = {3, -1, INT32_MAX};
    for (size_t i = 0; i < 3; i++) {
        idx[2] = bad_ids[i];
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, NULL, NULL, &g), LG_ERR_INVALID_ARGUMENT);
        CHECK(g == NULL);
    }
    idx[2] = 2;
    const float bad_w[] = {-2.0f, NAN, INFINITY};
    for (size_t i = 0; i < 3; i++) {
        w[3] = bad_w[i];
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, NULL, &g), LG_ERR_INVALID_ARGUMENT);
        CHECK(g == NULL);
    }
    w[3] = 4.0f;
    /* undirected needs a symmetric CSR unless symmetrize */
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    o.symmetrize = true;
    CHECK_OK(lg_graph_from_csr(ctx, 3, off, idx, w, &o, &g));
    lg_graph_free(&g);
    /* unknown options */
    lg_graph_options_init(&o);
    o.directedness = (lg_directedness_t)7;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    lg_graph_options_init(&o);
    o.duplicates = (lg_duplicates_t)-3;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
}

static void test_graph_accessor_errors(void)
{
    const lg_edge_t *off = (const lg_edge_t *)1;
    const lg_vertex_t *idx = (const lg_vertex_t *)1;
    const float *w = (const float *)1;
    lg_edge_t deg[4] = {-9, -9, -9, -9};
    CHECK_STATUS(lg_graph_csr(NULL, &off, &idx, &w), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_csc(NULL, &off, &idx, &w), LG_ERR_INVALID_ARGUMENT);
    CHECK(off == (const lg_edge_t *)1 && idx == (const lg_vertex_t *)1 && w == (const float *)1);
    CHECK_STATUS(lg_graph_out_degrees(NULL, deg), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_in_degrees(NULL, deg), LG_ERR_INVALID_ARGUMENT);
    CHECK(deg[0] == -9 && deg[3] == -9);
    lg_graph_t *g = small_graph(true);
    CHECK_STATUS(lg_graph_out_degrees(g, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_in_degrees(g, NULL), LG_ERR_INVALID_ARGUMENT);
    /* the query functions have no status; a NULL graph is an empty one */
    CHECK(lg_graph_num_vertices(NULL) == 0);
    CHECK(lg_graph_num_edges(NULL) == 0);
    CHECK(!lg_graph_is_directed(NULL));
    CHECK(!lg_graph_is_weighted(NULL));
    lg_graph_free(&g);
}

/* ---- algorithms ----------------------------------------------------------------------------- */

static void test_bfs_errors(void)
{
    lg_graph_t *g = small_graph(false);
    int32_t dist[4] = {-9, -9, -9, -9};
    lg_vertex_t parents[4] = {-9, -9, -9, -9};
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = true;

    CHECK_STATUS(lg_bfs(ctx, NULL, 0, &bo, dist, parents), LG_ERR_INVALID_ARGUMENT);
    const lg_vertex_t bad_sources[] = {-1, 4, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < 4; i++)
        CHECK_STATUS(lg_bfs(ctx, g, bad_sources[i], &bo, dist, parents), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_bfs(ctx, g, 0, &bo, NULL, parents), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_bfs(ctx, g, 0, &bo, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    /* failed calls wrote nothing */
    for (int v = 0; v < 4; v++)
        CHECK(dist[v] == -9 && parents[v] == -9);
    /* without compute_parents, parents may be NULL */
    bo.compute_parents = false;
    CHECK_OK(lg_bfs(ctx, g, 0, &bo, dist, NULL));
    CHECK(dist[0] == 0 && dist[1] == 1 && dist[2] == 2 && dist[3] == 3);
    CHECK_OK(lg_bfs(ctx, g, 3, NULL, dist, NULL));
    CHECK(dist[3] == 0 && dist[0] == -1 && dist[1] == -1 && dist[2] == -1);
    lg_graph_free(&g);

    /* no vertex of the empty graph can be a source */
    CHECK_OK(lg_graph_from_edges(ctx, 0, 0, NULL, NULL, NULL, NULL, &g));
    CHECK_STATUS(lg_bfs(ctx, g, 0, NULL, dist, NULL), LG_ERR_INVALID_ARGUMENT);
    lg_graph_free(&g);
}

/* Runs lg_pagerank and lg_pagerank_f32 with options that must be refused. */
static void pagerank_refused(const lg_graph_t *g, const lg_pagerank_options_t *po, const char *what)
{
    double scores[4] = {-9, -9, -9, -9};
    float fscores[4] = {-9, -9, -9, -9};
    int iters = -9;
    lg_status_t st = lg_pagerank(ctx, g, po, scores, &iters);
    CHECK(st == LG_ERR_INVALID_ARGUMENT && lg_last_error()[0] != '\0');
    if (st != LG_ERR_INVALID_ARGUMENT)
        fprintf(stderr, "  lg_pagerank with %s returned %s\n", what, lg_status_string(st));
    CHECK(scores[0] == -9 && scores[1] == -9 && scores[2] == -9 && scores[3] == -9 && iters == -9);
    st = lg_pagerank_f32(ctx, g, po, fscores, &iters);
    CHECK(st == LG_ERR_INVALID_ARGUMENT && lg_last_error()[0] != '\0');
    if (st != LG_ERR_INVALID_ARGUMENT)
        fprintf(stderr, "  lg_pagerank_f32 with %s returned %s\n", what, lg_status_string(st));
    CHECK(fscores[0] == -9 && fscores[1] == -9 && fscores[2] == -9 && fscores[3] == -9 &&
          iters == -9);
}

static void test_pagerank_errors(void)
{
    lg_graph_t *g = small_graph(true);
    lg_pagerank_options_t po;
    double scores[4];
    float fscores[4];
    int iters;

    CHECK_STATUS(lg_pagerank(ctx, NULL, NULL, scores, &iters), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_pagerank_f32(ctx, NULL, NULL, fscores, &iters), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_pagerank(ctx, g, NULL, NULL, &iters), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_pagerank_f32(ctx, g, NULL, NULL, &iters), LG_ERR_INVALID_ARGUMENT);

    const double bad_alpha[] = {-0.01, 1.0000001, -INFINITY, INFINITY, NAN};
    for (size_t i = 0; i < sizeof bad_alpha / sizeof bad_alpha[0]; i++) {
        lg_pagerank_options_init(&po);
        po.alpha = bad_alpha[i];
        pagerank_refused(g, &po, "a bad alpha");
    }
    const double bad_tol[] = {-1e-6, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof bad_tol / sizeof bad_tol[0]; i++) {
        lg_pagerank_options_init(&po);
        po.tol = bad_tol[i];
        pagerank_refused(g, &po, "a bad tol");
    }
    lg_pagerank_options_init(&po);
    po.max_iter = -1;
    pagerank_refused(g, &po, "max_iter -1");

    const double negative[4] = {0.5, -0.1, 0.3, 0.3}, zeros[4] = {0, 0, 0, 0},
                 with_nan[4] = {0.5, NAN, 0.3, 0.3}, with_inf[4] = {0.5, INFINITY, 0, 0};
    const double *bad_vectors[] = {negative, zeros, with_nan, with_inf};
    const char *names[] = {"a negative entry", "sum 0", "a NaN", "an infinity"};
    for (int i = 0; i < 4; i++) {
        for (int which = 0; which < 3; which++) {
            lg_pagerank_options_init(&po);
            if (which == 0)
                po.personalization = bad_vectors[i];
            else if (which == 1)
                po.nstart = bad_vectors[i];
            else
                po.dangling = bad_vectors[i];
            char what[80];
            snprintf(what, sizeof what, "%s with %s",
                     which == 0   ? "personalization"
                     : which == 1 ? "nstart"
                                  : "dangling",
                     names[i]);
            pagerank_refused(g, &po, what);
        }
    }

    /* the edges of the valid range are valid */
    lg_pagerank_options_init(&po);
    po.alpha = 0.0;
    CHECK_OK(lg_pagerank(ctx, g, &po, scores, &iters));
    po.alpha = 1.0;
    po.max_iter = 5;
    lg_status_t st = lg_pagerank(ctx, g, &po, scores, &iters);
    CHECK(st == LG_OK || st == LG_ERR_NOT_CONVERGED);
    lg_pagerank_options_init(&po);
    po.tol = 0.0; /* never converges */
    po.max_iter = 3;
    CHECK_STATUS(lg_pagerank(ctx, g, &po, scores, &iters), LG_ERR_NOT_CONVERGED);
    CHECK(iters == 3);
    CHECK_STATUS(lg_pagerank_f32(ctx, g, &po, fscores, &iters), LG_ERR_NOT_CONVERGED);
    CHECK(iters == 3);
    /* a not-converged result is still a distribution */
    double sum = 0.0;
    for (int v = 0; v < 4; v++)
        sum += scores[v];
    CHECK(fabs(sum - 1.0) < 1e-12);
    lg_graph_free(&g);
}

static void test_components_errors(void)
{
    lg_graph_t *g = small_graph(false);
    lg_vertex_t labels[4] = {-9, -9, -9, -9};
    int64_t count = -9;
    CHECK_STATUS(lg_connected_components(ctx, NULL, labels, &count), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_connected_components(ctx, g, NULL, &count), LG_ERR_INVALID_ARGUMENT);
    CHECK(count == -9 && labels[0] == -9);
    CHECK_OK(lg_connected_components(ctx, g, labels, NULL));
    CHECK(labels[0] == 0 && labels[1] == 0 && labels[2] == 0 && labels[3] == 0);
    lg_graph_free(&g);
}

/* ---- files and generators -----------------------------------------------------------------------
 */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(EXIT_FAILURE);
    }
}

static void test_file_errors(void)
{
    char path[512], good[512];
    lg_graph_t *g = POISON_GRAPH;
    lg_graph_options_t o;

    snprintf(good, sizeof good, "%s/lg_errors_good.el", LG_TEST_TMP_DIR);
    write_file(good, "0 1\n1 2\n");
    CHECK_OK(lg_graph_read(ctx, good, LG_FORMAT_AUTO, NULL, &g));
    lg_graph_free(&g);

    CHECK_STATUS(lg_graph_read(ctx, good, LG_FORMAT_AUTO, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_read(ctx, NULL, LG_FORMAT_EL, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_read(ctx, good, (lg_file_format_t)99, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    lg_graph_options_init(&o);
    o.duplicates = (lg_duplicates_t)9;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_read(ctx, good, LG_FORMAT_AUTO, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);

    /* a file that is not there */
    snprintf(path, sizeof path, "%s/lg_errors_no_such_dir/none.el", LG_TEST_TMP_DIR);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_read(ctx, path, LG_FORMAT_AUTO, NULL, &g), LG_ERR_IO);
    CHECK(g == NULL);

    /* an extension AUTO does not know */
    snprintf(path, sizeof path, "%s/lg_errors_graph.unknownext", LG_TEST_TMP_DIR);
    write_file(path, "0 1\n");
    g = POISON_GRAPH;
    lg_status_t st = lg_graph_read(ctx, path, LG_FORMAT_AUTO, NULL, &g);
    CHECK((st == LG_ERR_INVALID_ARGUMENT || st == LG_ERR_UNSUPPORTED || st == LG_ERR_IO) &&
          lg_last_error()[0] != '\0');
    CHECK(g == NULL);
    remove(path);

    /* malformed files: LG_ERR_IO with "path:line:" */
    static const struct {
        const char *name, *text;
        int line;
    } bad[] = {
        {"lg_errors_1.el", "0 1\n1 x\n", 2},
        {"lg_errors_2.el", "# comment\n0 1\n2\n", 3},
        {"lg_errors_3.el", "0 1\n-4 2\n", 2},
        {"lg_errors_4.wel", "0 1 0.5\n1 2 nan\n", 2},
        {"lg_errors_5.wel", "0 1 0.5\n1 2 -3\n2 0 1\n", 2},
        {"lg_errors_6.wel", "0 1\n", 1},
        {"lg_errors_7.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n",
         4},
        {"lg_errors_8.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", 0},
        {"lg_errors_9.mtx", "not a matrix market file\n", 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", LG_TEST_TMP_DIR, bad[i].name);
        write_file(path, bad[i].text);
        g = POISON_GRAPH;
        st = lg_graph_read(ctx, path, LG_FORMAT_AUTO, NULL, &g);
        CHECK(st == LG_ERR_IO);
        CHECK(g == NULL);
        CHECK_MESSAGE(path);
        if (bad[i].line > 0) {
            char where[600];
            snprintf(where, sizeof where, "%s:%d:", path, bad[i].line);
            CHECK_MESSAGE(where);
        }
        if (st != LG_ERR_IO)
            fprintf(stderr, "  lg_graph_read(%s) returned %s: %s\n", bad[i].name,
                    lg_status_string(st), lg_last_error());
        remove(path);
    }

    /* writing */
    lg_graph_t *sg = small_graph(true);
    snprintf(path, sizeof path, "%s/lg_errors_out.el", LG_TEST_TMP_DIR);
    CHECK_STATUS(lg_graph_write(ctx, NULL, path, LG_FORMAT_EL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_write(ctx, sg, NULL, LG_FORMAT_EL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_write(ctx, sg, path, (lg_file_format_t)-1), LG_ERR_INVALID_ARGUMENT);
    snprintf(path, sizeof path, "%s/lg_errors_no_such_dir/out.el", LG_TEST_TMP_DIR);
    CHECK_STATUS(lg_graph_write(ctx, sg, path, LG_FORMAT_EL), LG_ERR_IO);
    lg_graph_free(&sg);
    remove(good);
}

static void test_generator_errors(void)
{
    lg_vertex_t src[64], dst[64];
    lg_graph_t *g = POISON_GRAPH;
    CHECK_OK(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, 2, 1, src, dst));
    const int bad_scale[] = {0, -1, 31};
    for (size_t i = 0; i < 3; i++) {
        CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_KRONECKER, bad_scale[i], 2, 1, src, dst),
                     LG_ERR_INVALID_ARGUMENT);
        g = POISON_GRAPH;
        CHECK_STATUS(lg_generate(ctx, LG_GENERATOR_KRONECKER, bad_scale[i], 2, 1, NULL, &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK(g == NULL);
    }
    CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, 0, 1, src, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, -2, 1, src, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(ctx, (lg_generator_t)5, 3, 2, 1, src, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, 2, 1, NULL, dst),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate_edges(ctx, LG_GENERATOR_URAND, 3, 2, 1, src, NULL),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_generate(ctx, LG_GENERATOR_URAND, 3, 2, 1, NULL, NULL),
                 LG_ERR_INVALID_ARGUMENT);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_generate(ctx, (lg_generator_t)-1, 3, 2, 1, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_generate(ctx, LG_GENERATOR_URAND, 3, 0, 1, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = (lg_directedness_t)5;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_generate(ctx, LG_GENERATOR_URAND, 3, 2, 1, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == NULL);
}

/* ---- allocation failures
 * --------------------------------------------------------------------------- */

/* The answers the sweep's successful calls must give, computed with no
 * failure injected. */
struct expected {
    or_graph o;
    int32_t dist[64];
    lg_vertex_t labels[64];
    int64_t count;
    double pr[64];
    int pr_iters;
};

static long sweep_failures_reported;
/* Set when a call under injection fails other than by running out of memory:
 * a broken call, reported once, need not be swept to the end. */
static bool sweep_broken;

/* One call's status under injection: LG_OK, or LG_ERR_OUT_OF_MEMORY with a
 * message.  Returns whether it succeeded. */
static bool sweep_ok(lg_status_t st, const char *call, long k)
{
    bool fine = st == LG_OK || (st == LG_ERR_OUT_OF_MEMORY && lg_last_error()[0] != '\0');
    CHECK(fine);
    if (!fine)
        sweep_broken = true;
    if (!fine && sweep_failures_reported++ < 10)
        fprintf(stderr, "  allocation %ld fails: %s returned %s, message \"%s\"\n", k, call,
                lg_status_string(st), lg_last_error());
    return st == LG_OK;
}

/* The pipeline on one graph with the k-th allocation failing; returns true
 * when every call succeeded. */
static bool sweep_once(long k, lg_context_t *c, int64_t n, int64_t E, const lg_vertex_t *src,
                       const lg_vertex_t *dst, const float *w, const lg_graph_options_t *o,
                       const struct expected *want)
{
    bool all = true;
    lg_graph_t *g = POISON_GRAPH, *g2 = POISON_GRAPH;
    int32_t dist[64];
    lg_vertex_t parents[64], labels[64];
    double pr[64];
    float prf[64];
    int iters = -9;
    int64_t count = -9;

    lg__alloc_fail_after(k);
    lg_status_t st = lg_graph_from_edges(c, n, E, src, dst, w, o, &g);
    lg__alloc_fail_after(-1);
    if (!sweep_ok(st, "lg_graph_from_edges", k)) {
        CHECK(g == NULL);
        return false;
    }

    lg__alloc_fail_after(k);
    const lg_edge_t *coff = NULL;
    st = lg_graph_csc(g, &coff, NULL, NULL);
    all &= sweep_ok(st, "lg_graph_csc", k);
    CHECK(st != LG_OK || coff != NULL);

    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = true;
    for (int64_t v = 0; v < n; v++)
        dist[v] = -9, parents[v] = -9;
    st = lg_bfs(c, g, 1, &bo, dist, parents);
    if (sweep_ok(st, "lg_bfs", k)) {
        CHECK(memcmp(dist, want->dist, (size_t)n * sizeof *dist) == 0);
        CHECK(or_check_parents(&want->o, 1, want->dist, parents) < 0);
    } else {
        all = false;
        bool untouched = true;
        for (int64_t v = 0; v < n; v++)
            untouched = untouched && dist[v] == -9 && parents[v] == -9;
        CHECK(untouched);
    }

    for (int64_t v = 0; v < n; v++)
        pr[v] = -9.0, prf[v] = -9.0f;
    st = lg_pagerank(c, g, NULL, pr, &iters);
    if (sweep_ok(st, "lg_pagerank", k)) {
        CHECK(iters == want->pr_iters);
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(pr[v] - want->pr[v]));
        CHECK(worst <= 1e-12);
    } else {
        all = false;
        bool untouched = true;
        for (int64_t v = 0; v < n; v++)
            untouched = untouched && pr[v] == -9.0;
        CHECK(untouched);
    }
    st = lg_pagerank_f32(c, g, NULL, prf, &iters);
    if (sweep_ok(st, "lg_pagerank_f32", k)) {
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs((double)prf[v] - want->pr[v]));
        CHECK(worst <= 1e-4);
    } else {
        all = false;
        bool untouched = true;
        for (int64_t v = 0; v < n; v++)
            untouched = untouched && prf[v] == -9.0f;
        CHECK(untouched);
    }

    for (int64_t v = 0; v < n; v++)
        labels[v] = -9;
    st = lg_connected_components(c, g, labels, &count);
    if (sweep_ok(st, "lg_connected_components", k)) {
        CHECK(memcmp(labels, want->labels, (size_t)n * sizeof *labels) == 0);
        CHECK(count == want->count);
    } else {
        all = false;
        CHECK(labels[0] == -9 && count == -9);
    }

    lg_edge_t deg[64];
    all &= sweep_ok(lg_graph_in_degrees(g, deg), "lg_graph_in_degrees", k);

    /* from_csr of the graph's own arrays */
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *gw;
    lg__alloc_fail_after(-1);
    CHECK_OK(lg_graph_csr(g, &off, &idx, &gw));
    lg_graph_options_t rt;
    lg_graph_options_init(&rt);
    rt.directedness = lg_graph_is_directed(g) ? LG_DIRECTED : LG_UNDIRECTED;
    lg__alloc_fail_after(k);
    st = lg_graph_from_csr(c, n, off, idx, gw, &rt, &g2);
    lg__alloc_fail_after(-1);
    if (sweep_ok(st, "lg_graph_from_csr", k))
        CHECK(lg_graph_num_edges(g2) == lg_graph_num_edges(g));
    else {
        all = false;
        CHECK(g2 == NULL);
    }
    lg_graph_free(&g2);
    lg_graph_free(&g);
    return all;
}

/* More allocations than any of the swept pipelines makes. */
#define SWEEP_MAX 10000

static void test_allocation_failures(void)
{
    /* a directed graph with duplicates, self-loops and a sink; and the same undirected */
    enum {
        N = 40,
        E = 150
    };
    lg_vertex_t src[E], dst[E];
    float w[E];
    unsigned long long rng = 2024;
    for (int i = 0; i < E; i++) {
        src[i] = (lg_vertex_t)or_rand_below(&rng, N - 1); /* N-1 is a sink */
        dst[i] = (lg_vertex_t)or_rand_below(&rng, N);
        w[i] = (float)or_rand_below(&rng, 40) / 8.0f;
    }
    lg_context_t *c3 = NULL;
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.num_threads = 3;
    CHECK_OK(lg_context_create(&c3, &co));

    for (int variant = 0; variant < 4; variant++) {
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = variant % 2 ? LG_UNDIRECTED : LG_DIRECTED;
        o.duplicates = variant < 2 ? LG_DUPLICATES_SUM : LG_DUPLICATES_KEEP;
        o.drop_self_loops = variant == 1;
        const float *wv = variant < 3 ? w : NULL;
        lg_context_t *c = variant % 2 ? c3 : ctx;

        struct expected want;
        or_build(&want.o, N, E, src, dst, wv, &o);
        or_bfs(&want.o, 1, want.dist);
        want.count = or_components(&want.o, want.labels);
        or_pagerank(&want.o, 0.85, NULL, NULL, NULL, true, 100, 1e-6, want.pr, &want.pr_iters,
                    NULL);

        long k = 0;
        sweep_broken = false;
        for (; k < SWEEP_MAX; k++)
            if (sweep_once(k, c, N, E, src, dst, wv, &o, &want) || sweep_broken)
                break;
        CHECK(k > 0 && k < SWEEP_MAX); /* the first allocation failing fails something */
        printf("allocation sweep %d: %ld failure points\n", variant, k);
        or_graph_free(&want.o);
    }
    lg__alloc_fail_after(-1);

    /* contexts, files and generators under injection */
    char path[512];
    snprintf(path, sizeof path, "%s/lg_errors_sweep.wel", LG_TEST_TMP_DIR);
    write_file(path, "# a small weighted list\n0 1 0.5\n1 2 1.5\n2 0 2\n3 3 1\n2 1 0.25\n");
    const lg_edge_t want_off[] = {0, 1, 2, 4, 5};
    const lg_vertex_t want_idx[] = {1, 2, 0, 1, 3};
    /* per call: 0 still sweeping, 1 succeeded, 2 broken (failed other than OOM) */
    int done[3] = {0, 0, 0};
    long k_files = 0;
    for (long k = 0; k < SWEEP_MAX && !(done[0] && done[1] && done[2]); k++) {
        k_files = k;
        if (!done[0]) {
            lg_context_t *cc = POISON_CONTEXT;
            lg__alloc_fail_after(k);
            lg_status_t st = lg_context_create(&cc, NULL);
            lg__alloc_fail_after(-1);
            sweep_broken = false;
            bool ok = sweep_ok(st, "lg_context_create", k);
            done[0] = ok ? 1 : sweep_broken ? 2 : 0;
            CHECK(ok ? cc != NULL : cc == NULL);
            lg_context_free(&cc);
        }
        if (!done[1]) {
            lg_graph_t *g = POISON_GRAPH;
            lg__alloc_fail_after(k);
            lg_status_t st = lg_graph_read(ctx, path, LG_FORMAT_AUTO, NULL, &g);
            lg__alloc_fail_after(-1);
            sweep_broken = false;
            bool ok = sweep_ok(st, "lg_graph_read", k);
            done[1] = ok ? 1 : sweep_broken ? 2 : 0;
            if (ok) {
                const lg_edge_t *off;
                const lg_vertex_t *idx;
                CHECK_OK(lg_graph_csr(g, &off, &idx, NULL));
                CHECK(lg_graph_num_vertices(g) == 4 && lg_graph_num_edges(g) == 5 &&
                      memcmp(off, want_off, sizeof want_off) == 0 &&
                      memcmp(idx, want_idx, sizeof want_idx) == 0);
            } else {
                CHECK(g == NULL);
            }
            lg_graph_free(&g);
        }
        if (!done[2]) {
            lg_graph_t *g = POISON_GRAPH;
            lg__alloc_fail_after(k);
            lg_status_t st = lg_generate(c3, LG_GENERATOR_KRONECKER, 6, 4, 7, NULL, &g);
            lg__alloc_fail_after(-1);
            sweep_broken = false;
            bool ok = sweep_ok(st, "lg_generate", k);
            done[2] = ok ? 1 : sweep_broken ? 2 : 0;
            CHECK(ok ? g != NULL : g == NULL);
            lg_graph_free(&g);
        }
    }
    CHECK(done[0] == 1 && done[1] == 1 && done[2] == 1);
    printf("allocation sweep of contexts, files, generators: %ld failure points\n", k_files);
    remove(path);
    lg_context_free(&c3);
}

/* PageRank's hub order (pagerank.c) is an optimisation with memory of its
 * own: when that memory cannot be had, the call goes on without it, with the
 * same scores and the thread's last message untouched; only the
 * allocations the call cannot do without fail it. */
static void test_pagerank_hub_order_failures(void)
{
    lg_graph_t *g = NULL;
    CHECK_OK(lg_generate(ctx, LG_GENERATOR_KRONECKER, 12, 16, 5, NULL, &g));
    if (!g)
        return;
    const int64_t n = lg_graph_num_vertices(g);
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.tol = 1e-12; /* many iterations: worth a hub order */
    double *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    int want_iters = -1, iters = -1;
    const size_t hub_min = lg__pagerank_hub_min_bytes(0); /* a small graph reaches it */
    (void)lg__pagerank_hub_runs();
    CHECK_OK(lg_pagerank(ctx, g, &po, want, &want_iters));
    CHECK(lg__pagerank_hub_runs() == 1);
    long k, hub_runs = 0, without = 0;
    for (k = 0; k < SWEEP_MAX; k++) {
        CHECK(lg_bfs(ctx, g, -1, NULL, NULL, NULL) == LG_ERR_INVALID_ARGUMENT);
        char before[LG_ERROR_CAPACITY];
        snprintf(before, sizeof before, "%s", lg_last_error());
        for (int64_t v = 0; v < n; v++)
            got[v] = -9.0;
        lg__alloc_fail_after(k);
        lg_status_t st = lg_pagerank(ctx, g, &po, got, &iters);
        lg__alloc_fail_after(-1);
        const long runs = lg__pagerank_hub_runs();
        if (st == LG_ERR_OUT_OF_MEMORY) {
            bool untouched = true;
            for (int64_t v = 0; v < n; v++)
                untouched = untouched && got[v] == -9.0;
            CHECK(untouched);
            continue;
        }
        CHECK(st == LG_OK && iters == want_iters);
        /* the same sums in the same order, but the reductions of the
         * error and the dangling mass may differ in the last bit */
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(got[v] - want[v]) / want[v]);
        CHECK(worst <= 1e-12);
        CHECK(strcmp(before, lg_last_error()) == 0);
        if (runs == 0) {
            without++;
            continue;
        }
        hub_runs = runs;
        break; /* from here on nothing fails */
    }
    CHECK(without > 0 && hub_runs == 1 && k < SWEEP_MAX);
    printf("PageRank hub order: %ld allocations failed without failing the call\n", without);
    /* not asked for when it would take more than half of the memory the
     * system has available (lg__can_spare): the same scores without it */
    const int64_t m = lg_graph_num_edges(g);
    const long long need = (long long)((m + n) * (int64_t)sizeof(lg_vertex_t));
    const long long avail[] = {0, 2 * need - 1, 2 * need, -1};
    const long runs_want[] = {0, 0, 1, 1};
    for (int i = 0; i < 4; i++) {
        lg__mem_available_override(avail[i]);
        for (int64_t v = 0; v < n; v++)
            got[v] = -9.0;
        CHECK_OK(lg_pagerank(ctx, g, &po, got, &iters));
        CHECK(lg__pagerank_hub_runs() == runs_want[i] && iters == want_iters);
        double worst = 0.0;
        for (int64_t v = 0; v < n; v++)
            worst = fmax(worst, fabs(got[v] - want[v]) / want[v]);
        CHECK(worst <= 1e-12);
    }
    lg__mem_available_override(-1);
    /* with the default size rule a graph this small never takes it */
    lg__pagerank_hub_min_bytes(hub_min);
    CHECK_OK(lg_pagerank(ctx, g, &po, got, &iters));
    CHECK(lg__pagerank_hub_runs() == 0 && iters == want_iters);
    free(want);
    free(got);
    lg_graph_free(&g);
}

int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    CHECK(lg_last_error()[0] == '\0'); /* nothing has failed yet */
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.num_threads = 2;
    if (lg_context_create(&ctx, &co) != LG_OK) {
        fprintf(stderr, "lg_context_create: %s\n", lg_last_error());
        return EXIT_FAILURE;
    }
    test_status_strings();
    test_last_error();
    test_context_errors();
    test_device_strings();
    test_from_edges_errors();
    test_from_csr_errors();
    test_graph_accessor_errors();
    test_bfs_errors();
    test_pagerank_errors();
    test_components_errors();
    test_file_errors();
    test_generator_errors();
    test_allocation_failures();
    test_pagerank_hub_order_failures();
    lg_context_free(&ctx);
    TEST_EXIT();
}
