/*
 * pagerank.c - PageRank as NetworkX defines it: its descriptor, options and
 * public entry points (lg_pagerank, lg_pagerank_f32).  The iteration is the
 * kernels' (src/kernels/cpu/pagerank.c, src/kernels/hip/pagerank.hip),
 * reached through lg__dispatch; everything a kernel may assume is checked
 * here, once.
 */
#include "algorithm.h"

#include <math.h>

/* The descriptor's parameters and results, in this order. */
enum {
    P_ALPHA,
    P_TOL,
    P_MAX_ITER,
    P_USE_WEIGHTS,
    P_PERSONALIZATION,
    P_NSTART,
    P_DANGLING,
    P_PRECISION
};
enum {
    R_SCORES,
    R_ITERATIONS,
    R_RESIDUAL,
    R_CONVERGED
};

static const lg_param_info_t params[] = {
    [P_ALPHA] = {.name = "alpha",
                 .type = LG_TYPE_DOUBLE,
                 .default_value.d = 0.85,
                 .help = "the damping factor, in [0, 1]"},
    [P_TOL] = {.name = "tol",
               .type = LG_TYPE_DOUBLE,
               .default_value.d = 1.0e-6,
               .help = "stop once an iteration's L1 change is below num_vertices * tol"},
    [P_MAX_ITER] = {.name = "max_iter",
                    .type = LG_TYPE_INT,
                    .default_value.i = 100,
                    .help = "the most iterations to run (then: not converged)"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
    [P_PERSONALIZATION] = {.name = "personalization",
                           .type = LG_TYPE_VERTEX_DOUBLES,
                           .help = "the teleport distribution (none: uniform)"},
    [P_NSTART] = {.name = "nstart",
                  .type = LG_TYPE_VERTEX_DOUBLES,
                  .help = "the first iterate (none: uniform)"},
    [P_DANGLING] = {.name = "dangling",
                    .type = LG_TYPE_VERTEX_DOUBLES,
                    .help = "where dangling vertices' rank goes (none: as personalization)"},
    [P_PRECISION] = LG_PARAM_PRECISION("the scores"),
};

static const lg_result_info_t results[] = {
    [R_SCORES] = {.name = "scores",
                  .type = LG_TYPE_REAL,
                  .per_vertex = true,
                  .help = "each vertex's PageRank (the last iterate when not converged)"},
    [R_ITERATIONS] = {.name = "iterations", .type = LG_TYPE_INT, .help = "iterations run"},
    [R_RESIDUAL] = {.name = "residual",
                    .type = LG_TYPE_DOUBLE,
                    .help = "the L1 change of the last iteration"},
    [R_CONVERGED] = {.name = "converged",
                     .type = LG_TYPE_BOOL,
                     .help = "whether that change was below num_vertices * tol"},
};

static lg_status_t pagerank(lg_context_t *context, const lg_graph_t *graph,
                            const lg_pagerank_options_t *options, lg_precision_t precision,
                            void *scores, lg_pagerank_result_t *result);

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_pagerank_options_t o;
    lg_pagerank_options_init(&o);
    o.alpha = p[P_ALPHA].d;
    o.tol = p[P_TOL].d;
    o.max_iter = (int)p[P_MAX_ITER].i;
    o.use_weights = p[P_USE_WEIGHTS].i != 0;
    o.personalization = p[P_PERSONALIZATION].array;
    o.nstart = p[P_NSTART].array;
    o.dangling = p[P_DANGLING].array;
    LG_FROM_RUN_OPTIONS(&o, ro);
    lg_pagerank_result_t res = {0, 0.0, false};
    const lg_status_t st =
        pagerank(ctx, g, &o, lg__precision_of(p[P_PRECISION]), r[R_SCORES], &res);
    lg__iteration_results(st, &res, r + R_ITERATIONS);
    return st;
}

const struct lg_algorithm lg__algorithm_pagerank = {
    .id = LG_ALG_PAGERANK,
    .info = {.name = "pagerank",
             .title = "PageRank",
             .function = "lg_pagerank",
             .summary = "PageRank scores with NetworkX's semantics: power iteration with "
                        "damping, personalization, nstart, dangling vectors and weights, stopped "
                        "by NetworkX's L1 test.",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

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
    double sum;
    return v ? lg__check_vector("lg_pagerank", name, v, n, true, &sum) : LG_OK;
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
    if ((st = lg__check_iteration("lg_pagerank", options->tol, options->max_iter,
                                  options->output_memory)) != LG_OK)
        return st;
    if (options->use_weights && graph->negative_weights)
        return lg__refuse_negative_weights(
            "lg_pagerank", graph, "PageRank needs weights >= 0 (use_weights false ignores them)");
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
    const struct lg_pagerank_args args = {options, precision, scores, result};
    const struct lg_call c = LG_CALL(&lg__algorithm_pagerank, &args, true, options);
    return lg__dispatch(context, graph, &c);
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
