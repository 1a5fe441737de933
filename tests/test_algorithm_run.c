/*
 * test_algorithm_run.c - the algorithms as data (libgraph.h, "Algorithms as
 * data"): the descriptors, and lg_algorithm_run against the oracles.
 *
 * - The table: every algorithm found by its name and by its index, names
 *   unique, an unknown name refused with a message that lists the names; each
 *   descriptor's defaults equal to its options_init's; each result's shape.
 * - lg_algorithm_run on random graphs of every shape (oracle_shapes.h) on 1,
 *   2 and 3 threads: BFS's distances (one source and several, a depth limit)
 *   equal to or_bfs_multi's and its parents checked, connected components'
 *   labels and count equal to or_components', PageRank's scores equal to
 *   the typed call's bit for bit (both precisions) and within 1e-9 of the
 *   oracle's power iteration, its scalar results equal to the typed call's.
 * - What the generic call refuses by type (an INT beyond int32, a BOOL or
 *   PRECISION out of range, a per-vertex vector of the wrong length, a NULL or
 *   foreign descriptor), with a message naming the parameter and the outputs
 *   untouched; and LG_ERR_NOT_CONVERGED with its scalar results written.
 */
#define _POSIX_C_SOURCE 200809L /* setenv (oracle.h) */

#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>

#define NUM_THREADS 3

static lg_context_t *ctx[NUM_THREADS];

static const lg_algorithm_info_t *find(const char *name)
{
    const lg_algorithm_info_t *a = lg_algorithm_find(name);
    CHECK(a != NULL);
    if (!a) {
        fprintf(stderr, "no algorithm %s: %s\n", name, lg_last_error());
        exit(1);
    }
    return a;
}

static int param(const lg_algorithm_info_t *a, const char *name)
{
    int k = lg_algorithm_index(a, name, false);
    CHECK(k >= 0);
    return k < 0 ? 0 : k;
}

static void test_table(void)
{
    const int count = lg_algorithm_count();
    CHECK(count >= 3);
    CHECK(lg_algorithm_at(-1) == NULL && lg_algorithm_at(count) == NULL);
    for (int i = 0; i < count; i++) {
        const lg_algorithm_info_t *a = lg_algorithm_at(i);
        CHECK(a && a->name && a->title && a->summary && a->function);
        CHECK(lg_algorithm_find(a->name) == a);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(lg_algorithm_at(j)->name, a->name) != 0);
        for (int k = 0; k < a->num_params; k++) {
            CHECK(a->params[k].name && a->params[k].help);
            CHECK(lg_algorithm_index(a, a->params[k].name, false) == k);
            CHECK((a->params[k].type == LG_TYPE_PRECISION) == (a->params[k].choices != NULL));
        }
        for (int k = 0; k < a->num_results; k++) {
            const lg_result_info_t *r = &a->results[k];
            CHECK(r->name && r->help && lg_algorithm_index(a, r->name, true) == k);
            /* an array is per vertex or per arc, of INT32, INT64 or REAL elements */
            CHECK(!(r->per_vertex && r->per_arc));
            CHECK(
                (r->per_vertex || r->per_arc) ==
                (r->type == LG_TYPE_INT32 || r->type == LG_TYPE_INT64 || r->type == LG_TYPE_REAL));
            /* a result asked for by a flag names a BOOL parameter */
            if (r->when) {
                int p = lg_algorithm_index(a, r->when, false);
                CHECK(p >= 0 && a->params[p].type == LG_TYPE_BOOL);
            }
        }
    }
    CHECK(lg_algorithm_find("no_such_algorithm") == NULL);
    CHECK(strstr(lg_last_error(), "no_such_algorithm") && strstr(lg_last_error(), "pagerank"));
    CHECK(lg_algorithm_find(NULL) == NULL);
    CHECK(lg_algorithm_index(NULL, "x", false) == -1);
    CHECK(lg_algorithm_index(find("bfs"), "nope", false) == -1);
    CHECK(lg_algorithm_index(find("bfs"), "distances", true) == 0);
}

/* The descriptors' defaults are the typed options' defaults. */
static void test_defaults(void)
{
    const lg_algorithm_info_t *b = find("bfs"), *p = find("pagerank");
    lg_value_t v[16];
    CHECK(b->num_params <= 16 && p->num_params <= 16);
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    CHECK_OK(lg_algorithm_defaults(b, v));
    CHECK(v[param(b, "parents")].i == bo.compute_parents);
    CHECK(v[param(b, "max_depth")].i == bo.max_depth);
    CHECK(v[param(b, "direction_alpha")].i == bo.direction_alpha);
    CHECK(v[param(b, "direction_beta")].i == bo.direction_beta);
    CHECK(b->params[param(b, "source")].required);
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    CHECK_OK(lg_algorithm_defaults(p, v));
    CHECK(v[param(p, "alpha")].d == po.alpha && v[param(p, "tol")].d == po.tol);
    CHECK(v[param(p, "max_iter")].i == po.max_iter);
    CHECK(v[param(p, "use_weights")].i == po.use_weights);
    CHECK(v[param(p, "personalization")].array == NULL && v[param(p, "nstart")].array == NULL &&
          v[param(p, "dangling")].array == NULL);
    CHECK(v[param(p, "precision")].i == 0);
    CHECK(p->uses_weights && !b->uses_weights);
    CHECK_STATUS(lg_algorithm_defaults(NULL, v), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_algorithm_defaults(p, NULL), LG_ERR_INVALID_ARGUMENT);
    /* a copy of a descriptor is not one of the table's */
    lg_algorithm_info_t copy = *p;
    CHECK_STATUS(lg_algorithm_defaults(&copy, v), LG_ERR_INVALID_ARGUMENT);
}

static void test_shapes(const lg_graph_t *g)
{
    const int64_t n = lg_graph_num_vertices(g);
    const lg_algorithm_info_t *b = find("bfs"), *p = find("pagerank"),
                              *c = find("connected_components");
    lg_value_t v[16];
    lg_shape_t s[8];
    CHECK_OK(lg_algorithm_defaults(b, v));
    CHECK_OK(lg_algorithm_shapes(b, g, v, s));
    CHECK(s[0].made && s[0].type == LG_TYPE_INT32 && s[0].length == n && !s[1].made);
    v[param(b, "parents")].i = 1;
    CHECK_OK(lg_algorithm_shapes(b, g, v, s));
    CHECK(s[1].made && s[1].type == LG_TYPE_INT32 && s[1].length == n);
    CHECK_OK(lg_algorithm_defaults(p, v));
    CHECK_OK(lg_algorithm_shapes(p, g, v, s));
    CHECK(s[0].type == LG_TYPE_FLOAT64 && s[0].length == n);
    CHECK(s[1].type == LG_TYPE_INT && s[1].length == 1 && s[2].type == LG_TYPE_DOUBLE &&
          s[3].type == LG_TYPE_BOOL);
    v[param(p, "precision")].i = 1;
    CHECK_OK(lg_algorithm_shapes(p, g, v, s));
    CHECK(s[0].type == LG_TYPE_FLOAT32);
    const lg_algorithm_info_t *eb = find("edge_betweenness_centrality");
    CHECK_OK(lg_algorithm_defaults(eb, v));
    CHECK_OK(lg_algorithm_shapes(eb, g, v, s)); /* one value an arc */
    CHECK(s[0].made && s[0].type == LG_TYPE_FLOAT64 && s[0].length == lg_graph_num_edges(g));
    CHECK(eb->results[0].per_arc && !eb->results[0].per_vertex);
    CHECK_OK(lg_algorithm_shapes(c, g, NULL, s)); /* no parameters: params may be NULL */
    CHECK(s[0].made && s[0].length == n && s[1].made && s[1].type == LG_TYPE_INT &&
          s[1].length == 1);
    CHECK_STATUS(lg_algorithm_shapes(c, NULL, NULL, s), LG_ERR_INVALID_ARGUMENT);
}

/* BFS through lg_algorithm_run from sources[0 .. ns) against the oracle. */
static void check_bfs(lg_context_t *cx, const lg_graph_t *g, const or_graph *o,
                      const lg_vertex_t *sources, int64_t ns, int max_depth, bool parents)
{
    const lg_algorithm_info_t *b = find("bfs");
    const int64_t n = o->n;
    int32_t *dist = or_alloc((size_t)n, sizeof *dist), *want = or_alloc((size_t)n, sizeof *want);
    lg_vertex_t *par = or_alloc((size_t)n, sizeof *par);
    lg_value_t v[8];
    CHECK_OK(lg_algorithm_defaults(b, v));
    v[param(b, "source")] = (lg_value_t){.array = sources, .length = ns};
    v[param(b, "max_depth")].i = max_depth;
    v[param(b, "parents")].i = parents;
    void *results[2] = {dist, parents ? par : NULL};
    CHECK_OK(lg_algorithm_run(cx, g, b, v, results, NULL));
    or_bfs_multi(o, sources, ns, max_depth, want);
    CHECK(memcmp(dist, want, (size_t)n * sizeof *dist) == 0);
    if (parents)
        CHECK(or_check_parents_multi(o, dist, par) == -1);
    free(dist);
    free(want);
    free(par);
}

static void check_components(lg_context_t *cx, const lg_graph_t *g, const or_graph *o)
{
    const lg_algorithm_info_t *c = find("connected_components");
    lg_vertex_t *labels = or_alloc((size_t)o->n, sizeof *labels),
                *want = or_alloc((size_t)o->n, sizeof *want);
    int64_t count = -1;
    void *results[2] = {labels, &count};
    CHECK_OK(lg_algorithm_run(cx, g, c, NULL, results, NULL));
    or_graph u = *o;
    CHECK(count == or_components(&u, want));
    CHECK(memcmp(labels, want, (size_t)o->n * sizeof *labels) == 0);
    free(labels);
    free(want);
}

/* PageRank through lg_algorithm_run: the typed call's scores to the bit,
 * its iterations, residual and convergence; float64 within 1e-9 of the
 * oracle. */
static void check_pagerank(lg_context_t *cx, const lg_graph_t *g, const or_graph *o,
                           const double *personalization, int precision)
{
    const lg_algorithm_info_t *p = find("pagerank");
    const int64_t n = o->n;
    const size_t size = precision ? sizeof(float) : sizeof(double);
    void *scores = or_alloc((size_t)n, size), *want = or_alloc((size_t)n, size);
    lg_value_t v[16];
    CHECK_OK(lg_algorithm_defaults(p, v));
    v[param(p, "precision")].i = precision;
    if (personalization)
        v[param(p, "personalization")] = (lg_value_t){.array = personalization, .length = n};
    int64_t iterations = -1;
    double residual = -1.0;
    bool converged = false;
    void *results[4] = {scores, &iterations, &residual, &converged};
    const lg_status_t st = lg_algorithm_run(cx, g, p, v, results, NULL);
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.personalization = personalization;
    lg_pagerank_result_t r = {0, 0.0, false};
    const lg_status_t typed =
        precision ? lg_pagerank_f32(cx, g, &po, want, &r) : lg_pagerank(cx, g, &po, want, &r);
    CHECK(st == typed && st == LG_OK);
    CHECK(memcmp(scores, want, (size_t)n * size) == 0);
    CHECK(iterations == r.iterations && residual == r.residual && converged == r.converged);
    if (!precision && n > 0) {
        or_pr_run oracle = or_pagerank_run(o, &po);
        double worst = 0.0;
        for (int64_t i = 0; i < n; i++)
            worst = fmax(worst, fabs(((double *)scores)[i] - oracle.x[i]));
        CHECK(worst < 1e-9);
        or_pr_run_free(&oracle);
    }
    free(scores);
    free(want);
}

static void test_against_oracles(void)
{
    unsigned long long rng = 0x5eedULL;
    for (int shape = 0; shape < OR_NUM_SHAPES; shape++)
        for (int round = 0; round < 3; round++) {
            or_edges e;
            or_random_edges(&e, shape, &rng);
            lg_graph_options_t go;
            lg_graph_options_init(&go);
            go.directedness = round == 1 ? LG_DIRECTED : LG_UNDIRECTED;
            lg_graph_t *g = NULL;
            CHECK_OK(lg_graph_from_edges(NULL, e.n, e.E, e.src, e.dst, e.w, &go, &g));
            or_graph o;
            or_build(&o, e.n, e.E, e.src, e.dst, e.w, &go);
            lg_context_t *cx = ctx[round];
            if (e.n > 0) {
                lg_vertex_t sources[3] = {0, (lg_vertex_t)(e.n / 2), (lg_vertex_t)(e.n - 1)};
                check_bfs(cx, g, &o, sources, 1, -1, round != 2);
                check_bfs(cx, g, &o, sources, 3, round, true);
                double *pers = or_alloc((size_t)e.n, sizeof *pers);
                for (int64_t i = 0; i < e.n; i++)
                    pers[i] = (double)(i % 3);
                pers[0] = 1.0;
                check_pagerank(cx, g, &o, round == 2 ? pers : NULL, 0);
                check_pagerank(cx, g, &o, NULL, 1);
                free(pers);
            }
            check_components(cx, g, &o);
            test_shapes(g);
            lg_graph_free(&g);
            or_graph_free(&o);
            or_edges_free(&e);
        }
}

/* What lg_algorithm_run refuses by a parameter's type. */
static void test_refusals(void)
{
    const lg_vertex_t src[] = {0, 1, 1, 2, 2, 3};
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges(NULL, 4, 3, src, src + 3, NULL, NULL, &g));
    const lg_algorithm_info_t *b = find("bfs"), *p = find("pagerank");
    int32_t dist[4] = {-9, -9, -9, -9};
    void *bres[2] = {dist, NULL};
    lg_value_t v[16];
    const lg_vertex_t zero = 0;
    CHECK_OK(lg_algorithm_defaults(b, v));
    v[param(b, "source")] = (lg_value_t){.array = &zero, .length = 1};
    v[param(b, "max_depth")].i = (int64_t)INT32_MAX + 1;
    CHECK_STATUS(lg_algorithm_run(NULL, g, b, v, bres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lg_last_error(), "lg_bfs: max_depth 2147483648") != NULL);
    v[param(b, "max_depth")].i = -1;
    v[param(b, "parents")].i = 2;
    CHECK_STATUS(lg_algorithm_run(NULL, g, b, v, bres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lg_last_error(), "parents") != NULL);
    v[param(b, "parents")].i = 0;
    /* the entry point's own checks and messages */
    v[param(b, "source")].length = 0;
    CHECK_STATUS(lg_algorithm_run(NULL, g, b, v, bres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lg_last_error(), "num_sources < 1") != NULL);
    v[param(b, "source")].length = 1;
    v[param(b, "max_depth")].i = -2;
    CHECK_STATUS(lg_algorithm_run(NULL, g, b, v, bres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lg_last_error(), "max_depth -2 < -1") != NULL);
    for (int i = 0; i < 4; i++)
        CHECK(dist[i] == -9);
    v[param(b, "max_depth")].i = -1;
    CHECK_STATUS(lg_algorithm_run(NULL, g, NULL, v, bres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_algorithm_run(NULL, NULL, b, v, bres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_algorithm_run(NULL, g, b, NULL, bres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(lg_algorithm_run(NULL, g, b, v, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_OK(lg_algorithm_run(NULL, g, b, v, bres, NULL));
    CHECK(dist[0] == 0 && dist[3] == 3);

    double scores[4] = {-9, -9, -9, -9}, three[3] = {1, 1, 1};
    int64_t iterations = -1;
    double residual = -1;
    bool converged = true;
    void *pres[4] = {scores, &iterations, &residual, &converged};
    CHECK_OK(lg_algorithm_defaults(p, v));
    v[param(p, "nstart")] = (lg_value_t){.array = three, .length = 3};
    CHECK_STATUS(lg_algorithm_run(NULL, g, p, v, pres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lg_last_error(), "nstart has 3 values; the graph has 4 vertices") != NULL);
    v[param(p, "nstart")] = (lg_value_t){0};
    v[param(p, "precision")].i = 2;
    CHECK_STATUS(lg_algorithm_run(NULL, g, p, v, pres, NULL), LG_ERR_INVALID_ARGUMENT);
    v[param(p, "precision")].i = 0;
    v[param(p, "alpha")].d = 1.5;
    CHECK_STATUS(lg_algorithm_run(NULL, g, p, v, pres, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lg_last_error(), "lg_pagerank: alpha 1.5 is not in [0, 1]") != NULL);
    CHECK(scores[0] == -9 && iterations == -1);
    /* not converged: the iterate and the scalars are written */
    v[param(p, "alpha")].d = 0.85;
    v[param(p, "tol")].d = 0.0;
    v[param(p, "max_iter")].i = 3;
    CHECK_STATUS(lg_algorithm_run(NULL, g, p, v, pres, NULL), LG_ERR_NOT_CONVERGED);
    CHECK(iterations == 3 && !converged && residual > 0.0);
    CHECK(fabs(scores[0] + scores[1] + scores[2] + scores[3] - 1.0) < 1e-12);
    /* scalar results are optional */
    void *only_scores[4] = {scores, NULL, NULL, NULL};
    v[param(p, "tol")].d = 1e-6;
    v[param(p, "max_iter")].i = 100;
    CHECK_OK(lg_algorithm_run(NULL, g, p, v, only_scores, NULL));
    lg_graph_free(&g);
}

/* A run's options carry the progress callback: stopping it cancels. */
static bool stop(const lg_progress_info_t *info, void *data)
{
    (void)info;
    ++*(int *)data;
    return false;
}

static void test_progress(void)
{
    const lg_vertex_t src[] = {0, 1, 1, 2, 2, 3};
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges(NULL, 4, 3, src, src + 3, NULL, NULL, &g));
    const lg_algorithm_info_t *p = find("pagerank");
    lg_value_t v[16];
    CHECK_OK(lg_algorithm_defaults(p, v));
    double scores[4];
    void *res[4] = {scores, NULL, NULL, NULL};
    int calls = 0;
    lg_run_options_t ro;
    lg_run_options_init(&ro);
    ro.progress = stop;
    ro.progress_data = &calls;
    CHECK_STATUS(lg_algorithm_run(NULL, g, p, v, res, &ro), LG_ERR_CANCELLED);
    CHECK(calls == 1);
    ro.output_memory = (lg_memory_t)7;
    CHECK_STATUS(lg_algorithm_run(NULL, g, p, v, res, &ro), LG_ERR_INVALID_ARGUMENT);
    lg_graph_free(&g);
}

int main(int argc, char **argv)
{
    or_passive_openmp(argv);
    (void)argc;
    for (int t = 0; t < NUM_THREADS; t++) {
        lg_context_options_t co;
        lg_context_options_init(&co);
        co.backend = LG_BACKEND_CPU;
        co.num_threads = t + 1;
        CHECK_OK(lg_context_create(&ctx[t], &co));
    }
    test_table();
    test_defaults();
    test_against_oracles();
    test_refusals();
    test_progress();
    for (int t = 0; t < NUM_THREADS; t++)
        lg_context_free(&ctx[t]);
    TEST_EXIT();
}
