/*
 * test_errors_build.c - the error paths of graph building and the graph
 * accessors, against the documented statuses of include/libgraph.h.
 *
 * lg_graph_from_edges and lg_graph_from_csr: NULL outputs and arrays, vertex
 * and edge counts out of range, ids out of range (the message names the
 * first offending edge), negative, NaN and infinite weights, unknown option
 * values, offsets that do not start at 0 or decrease, an arc count no machine
 * can hold, an undirected CSR that is not symmetric: each LG_ERR_INVALID_ARGUMENT
 * with a message and the handle set to NULL, where a one-change-good input
 * builds.  The accessors refuse a NULL graph and leave their outputs alone.
 */
#define _POSIX_C_SOURCE 200809L

#include "errors_util.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>

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
        CHECK(g == POISON_GRAPH);
    }
    const int64_t bad_E[] = {-1, INT64_MIN, INT64_MAX};
    for (size_t i = 0; i < sizeof bad_E / sizeof bad_E[0]; i++) {
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, bad_E[i], src, dst, NULL, NULL, &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK(g == POISON_GRAPH);
    }
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, N, E, NULL, dst, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, NULL, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);

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
        CHECK(g == POISON_GRAPH);
        /* undirected, weighted: the same edge is named */
        lg_graph_options_init(&o);
        o.directedness = LG_UNDIRECTED;
        o.duplicates = LG_DUPLICATES_SUM;
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE(want);
        CHECK(g == POISON_GRAPH);
        a[bad_ids[i].edge] = keep;
    }
    /* the first offending edge is the one named */
    src[5] = N + 3;
    dst[17] = -2;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, NULL, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("edge 5");
    CHECK(g == POISON_GRAPH);
    src[5] = 5;
    dst[17] = (17 * 3 + 1) % N;
    /* a graph with no vertices has no valid id */
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_edges(ctx, 0, 1, src, dst, NULL, NULL, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("edge 0");
    CHECK(g == POISON_GRAPH);

    /* bad weights: NaN, infinite (negative ones are kept) */
    const float bad_w[] = {NAN, INFINITY, -INFINITY};
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
        CHECK(g == POISON_GRAPH);
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
    CHECK(g == POISON_GRAPH);
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
        CHECK(g == POISON_GRAPH);
    }
    const int bad_dup[] = {-1, 6, 100};
    for (size_t i = 0; i < sizeof bad_dup / sizeof bad_dup[0]; i++) {
        lg_graph_options_init(&o);
        o.duplicates = (lg_duplicates_t)bad_dup[i];
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_edges(ctx, N, E, src, dst, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
        CHECK(g == POISON_GRAPH);
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

    CHECK_OK(lg_graph_from_csr(ctx, 3, off, idx, w, tu_directed(), &g));
    lg_graph_free(&g);

    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, NULL, idx, w, tu_directed(), &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, NULL, w, tu_directed(), &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    const int64_t bad_n[] = {-1, LG_MAX_VERTICES + 1};
    for (size_t i = 0; i < 2; i++) {
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_csr(ctx, bad_n[i], off, idx, w, tu_directed(), &g),
                     LG_ERR_INVALID_ARGUMENT);
        CHECK(g == POISON_GRAPH);
    }
    /* row_offsets[0] must be 0 */
    lg_edge_t off1[] = {1, 2, 3, 4};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off1, idx, w, tu_directed(), &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    /* non-decreasing */
    lg_edge_t off2[] = {0, 3, 2, 4};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off2, idx, w, tu_directed(), &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    lg_edge_t off3[] = {0, 2, 3, -1};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off3, idx, w, tu_directed(), &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    /* an arc count no machine can hold, refused before the arrays are read */
    lg_edge_t off4[] = {0, 2, 3, INT64_MAX};
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off4, idx, w, tu_directed(), &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    /* column ids and weights */
    const lg_vertex_t bad_ids[] = {3, -1, INT32_MAX};
    for (size_t i = 0; i < 3; i++) {
        idx[2] = bad_ids[i];
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, NULL, tu_directed(), &g), LG_ERR_INVALID_ARGUMENT);
        CHECK(g == POISON_GRAPH);
    }
    idx[2] = 2;
    const float bad_w[] = {NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < 3; i++) {
        w[3] = bad_w[i];
        g = POISON_GRAPH;
        CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, tu_directed(), &g), LG_ERR_INVALID_ARGUMENT);
        CHECK(g == POISON_GRAPH);
    }
    w[3] = 4.0f;
    /* undirected needs a symmetric CSR unless symmetrize */
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    o.symmetrize = true;
    CHECK_OK(lg_graph_from_csr(ctx, 3, off, idx, w, &o, &g));
    lg_graph_free(&g);
    /* unknown options */
    lg_graph_options_init(&o);
    o.directedness = (lg_directedness_t)7;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
    lg_graph_options_init(&o);
    o.duplicates = (lg_duplicates_t)-3;
    g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_csr(ctx, 3, off, idx, w, &o, &g), LG_ERR_INVALID_ARGUMENT);
    CHECK(g == POISON_GRAPH);
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
/* Device edges need a GPU context; the arguments are checked as
 * lg_graph_from_edges checks them, before any device is touched. */
static void test_from_device_edges_errors(void)
{
    const lg_vertex_t src[2] = {0, 1}, dst[2] = {1, 2};
    lg_graph_t *g = POISON_GRAPH;
    CHECK_STATUS(lg_graph_from_device_edges(ctx, 3, 2, src, dst, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("lg_graph_from_device_edges: edges in device memory need a GPU context");
    CHECK(g == POISON_GRAPH);
    CHECK_STATUS(lg_graph_from_device_edges(NULL, 3, 2, src, dst, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_from_device_edges(ctx, 3, 2, NULL, dst, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("src or dst is NULL");
    CHECK_STATUS(lg_graph_from_device_edges(ctx, 3, -1, src, dst, NULL, NULL, &g),
                 LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_graph_from_device_edges(ctx, 3, 2, src, dst, NULL, NULL, NULL),
                 LG_ERR_INVALID_ARGUMENT);
}

int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    static void (*const tests[])(void) = {
        test_from_edges_errors,
        test_from_csr_errors,
        test_from_device_edges_errors,
        test_graph_accessor_errors,
    };
    return errors_main(tests, sizeof tests / sizeof tests[0]);
}
