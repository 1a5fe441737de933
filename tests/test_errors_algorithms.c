/*
 * test_errors_algorithms.c - the error paths of BFS, PageRank and connected
 * components, against the documented statuses of include/libgraph.h.
 *
 * NULL graphs and outputs, sources out of range (none in the empty graph),
 * parents asked for but NULL, PageRank's alpha, tol and max_iter out of range
 * and personalization, nstart or dangling vectors with a negative entry, sum
 * 0, a NaN or an infinity: each LG_ERR_INVALID_ARGUMENT with a message and
 * the outputs untouched.  The edges of the valid ranges work; tol 0 gives
 * LG_ERR_NOT_CONVERGED after max_iter iterations with a distribution.
 */
#define _POSIX_C_SOURCE 200809L

#include "errors_util.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>

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
    lg_pagerank_result_t r = {-9, -9.0, false};
    lg_status_t st = lg_pagerank(ctx, g, po, scores, &r);
    CHECK(st == LG_ERR_INVALID_ARGUMENT && lg_last_error()[0] != '\0');
    if (st != LG_ERR_INVALID_ARGUMENT)
        fprintf(stderr, "  lg_pagerank with %s returned %s\n", what, lg_status_string(st));
    CHECK(scores[0] == -9 && scores[1] == -9 && scores[2] == -9 && scores[3] == -9 &&
          r.iterations == -9 && r.residual == -9.0);
    st = lg_pagerank_f32(ctx, g, po, fscores, &r);
    CHECK(st == LG_ERR_INVALID_ARGUMENT && lg_last_error()[0] != '\0');
    if (st != LG_ERR_INVALID_ARGUMENT)
        fprintf(stderr, "  lg_pagerank_f32 with %s returned %s\n", what, lg_status_string(st));
    CHECK(fscores[0] == -9 && fscores[1] == -9 && fscores[2] == -9 && fscores[3] == -9 &&
          r.iterations == -9 && r.residual == -9.0);
}

static void test_pagerank_errors(void)
{
    lg_graph_t *g = small_graph(true);
    lg_pagerank_options_t po;
    double scores[4];
    float fscores[4];
    lg_pagerank_result_t r;

    CHECK_STATUS(lg_pagerank(ctx, NULL, NULL, scores, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_pagerank_f32(ctx, NULL, NULL, fscores, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_pagerank(ctx, g, NULL, NULL, &r), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_pagerank_f32(ctx, g, NULL, NULL, &r), LG_ERR_INVALID_ARGUMENT);

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
    CHECK_OK(lg_pagerank(ctx, g, &po, scores, &r));
    po.alpha = 1.0;
    po.max_iter = 5;
    lg_status_t st = lg_pagerank(ctx, g, &po, scores, &r);
    CHECK(st == LG_OK || st == LG_ERR_NOT_CONVERGED);
    lg_pagerank_options_init(&po);
    po.tol = 0.0; /* never converges */
    po.max_iter = 3;
    CHECK_STATUS(lg_pagerank(ctx, g, &po, scores, &r), LG_ERR_NOT_CONVERGED);
    CHECK(r.iterations == 3 && !r.converged && r.residual > 0.0);
    CHECK_STATUS(lg_pagerank_f32(ctx, g, &po, fscores, &r), LG_ERR_NOT_CONVERGED);
    CHECK(r.iterations == 3 && !r.converged && r.residual > 0.0);
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
    CHECK_STATUS(lg_connected_components(ctx, NULL, NULL, labels, &count), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_connected_components(ctx, g, NULL, NULL, &count), LG_ERR_INVALID_ARGUMENT);
    CHECK(count == -9 && labels[0] == -9);
    CHECK_OK(lg_connected_components(ctx, g, NULL, labels, NULL));
    CHECK(labels[0] == 0 && labels[1] == 0 && labels[2] == 0 && labels[3] == 0);
    lg_graph_free(&g);
}
int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    static void (*const tests[])(void) = {
        test_bfs_errors,
        test_pagerank_errors,
        test_components_errors,
    };
    return errors_main(tests, sizeof tests / sizeof tests[0]);
}
