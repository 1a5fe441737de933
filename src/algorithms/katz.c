/*
 * katz.c - Katz centrality as NetworkX defines it: the descriptor, options
 * and public entry points (lg_katz and its float twin).  The iteration is the kernel's
 * (src/kernels/cpu/power.h), reached through lg__dispatch; everything a
 * kernel may assume is checked here, once.
 */
#include "algorithm.h"

#include <math.h>

enum {
    P_ALPHA,
    P_BETA,
    P_BETAS,
    P_TOL,
    P_MAX_ITER,
    P_NSTART,
    P_NORMALIZED,
    P_USE_WEIGHTS,
    P_PRECISION
};
enum {
    R_CENTRALITY,
    R_ITERATIONS,
    R_RESIDUAL,
    R_CONVERGED
};

static const lg_param_info_t params[] = {
    [P_ALPHA] = {.name = "alpha",
                 .type = LG_TYPE_DOUBLE,
                 .default_value.d = 0.1,
                 .help = "the attenuation factor (below 1 / the largest eigenvalue to converge)"},
    [P_BETA] = {.name = "beta",
                .type = LG_TYPE_DOUBLE,
                .default_value.d = 1.0,
                .help = "the weight every vertex starts with"},
    [P_BETAS] = {.name = "betas",
                 .type = LG_TYPE_VERTEX_DOUBLES,
                 .help = "each vertex's own beta (none: beta for all)"},
    [P_TOL] = {.name = "tol",
               .type = LG_TYPE_DOUBLE,
               .default_value.d = 1.0e-6,
               .help = "stop once an iteration's L1 change is below num_vertices * tol"},
    [P_MAX_ITER] = {.name = "max_iter",
                    .type = LG_TYPE_INT,
                    .default_value.i = 1000,
                    .help = "the most iterations to run (then: not converged)"},
    [P_NSTART] = {.name = "nstart",
                  .type = LG_TYPE_VERTEX_DOUBLES,
                  .help = "the first iterate (none: all 0)"},
    [P_NORMALIZED] = {.name = "normalized",
                      .type = LG_TYPE_BOOL,
                      .default_value.i = 1,
                      .help = "scale the result to unit L2 norm"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
    [P_PRECISION] = LG_PARAM_PRECISION("the centralities"),
};

static const lg_result_info_t results[] = {
    [R_CENTRALITY] = {.name = "centrality",
                      .type = LG_TYPE_REAL,
                      .per_vertex = true,
                      .help = "each vertex's Katz centrality"},
    LG_ITERATION_RESULTS(R_ITERATIONS),
};

static lg_status_t katz(lg_context_t *context, const lg_graph_t *graph,
                        const lg_katz_options_t *options, lg_precision_t precision,
                        void *centrality, lg_iteration_result_t *result);

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_katz_options_t o;
    lg_katz_options_init(&o);
    o.alpha = p[P_ALPHA].d;
    o.beta = p[P_BETA].d;
    o.betas = p[P_BETAS].array;
    o.tol = p[P_TOL].d;
    o.max_iter = (int)p[P_MAX_ITER].i;
    o.nstart = p[P_NSTART].array;
    o.normalized = p[P_NORMALIZED].i != 0;
    o.use_weights = p[P_USE_WEIGHTS].i != 0;
    LG_FROM_RUN_OPTIONS(&o, ro);
    lg_iteration_result_t res = {0, 0.0, false};
    const lg_status_t st =
        katz(ctx, g, &o, lg__precision_of(p[P_PRECISION]), r[R_CENTRALITY], &res);
    lg__iteration_results(st, &res, r + R_ITERATIONS);
    return st;
}

const struct lg_algorithm lg__algorithm_katz = {
    .id = LG_ALG_KATZ,
    .info = {.name = "katz_centrality",
             .title = "Katz centrality",
             .function = "lg_katz",
             .summary = "Katz centrality with NetworkX's semantics: x = alpha A^T x + beta by "
                        "power iteration, stopped by NetworkX's L1 test, then scaled to unit "
                        "length.",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_katz_options_init(lg_katz_options_t *options)
{
    if (!options)
        return;
    options->alpha = 0.1;
    options->beta = 1.0;
    options->betas = NULL;
    options->tol = 1.0e-6;
    options->max_iter = 1000;
    options->nstart = NULL;
    options->normalized = true;
    options->use_weights = true;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

static lg_status_t katz(lg_context_t *context, const lg_graph_t *graph,
                        const lg_katz_options_t *options, lg_precision_t precision,
                        void *centrality, lg_iteration_result_t *result)
{
    const char *fn = "lg_katz";
    lg_katz_options_t defaults;
    lg_iteration_result_t ignored;
    lg_status_t st;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (!options) {
        lg_katz_options_init(&defaults);
        options = &defaults;
    }
    if ((st = lg__check_iteration(fn, options->tol, options->max_iter, options->output_memory)) !=
        LG_OK)
        return st;
    if (!isfinite(options->alpha) || !isfinite(options->beta))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: alpha %g and beta %g must be finite", fn,
                         options->alpha, options->beta);
    if (!result)
        result = &ignored;
    *result = (lg_iteration_result_t){0, 0.0, true};
    if (graph->n == 0) {
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to rank, answered here */
        return LG_OK;
    }
    if (!centrality)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: centrality is NULL", fn);
    double sum;
    if ((options->betas &&
         (st = lg__check_vector(fn, "betas", options->betas, graph->n, false, &sum)) != LG_OK) ||
        (options->nstart &&
         (st = lg__check_vector(fn, "nstart", options->nstart, graph->n, false, &sum)) != LG_OK))
        return st;
    result->converged = false;
    const struct lg_power_args args = {
        .x0 = options->nstart,
        .x0_divisor = 1.0,
        .x0_fill = 0.0,
        .scale = options->alpha,
        .keep = 0.0,
        .b = options->betas,
        .b0 = options->beta,
        .unit_at_end = options->normalized,
        .use_weights = options->use_weights && graph->out.weights,
        .limit = (double)graph->n * options->tol,
        .max_iter = options->max_iter,
        .stage = LG_STAGE_KATZ,
        .precision = precision,
        .x = centrality,
        .result = result,
    };
    const struct lg_call c = LG_CALL(&lg__algorithm_katz, &args, true, options);
    st = lg__dispatch(context, graph, &c);
    return lg__iteration_status(fn, st, result, args.limit);
}

lg_status_t lg_katz(lg_context_t *context, const lg_graph_t *graph,
                    const lg_katz_options_t *options, double *centrality,
                    lg_iteration_result_t *result)
{
    return katz(context, graph, options, LG_PRECISION_F64, centrality, result);
}

lg_status_t lg_katz_f32(lg_context_t *context, const lg_graph_t *graph,
                        const lg_katz_options_t *options, float *centrality,
                        lg_iteration_result_t *result)
{
    return katz(context, graph, options, LG_PRECISION_F32, centrality, result);
}
