/*
 * eigenvector.c - eigenvector centrality as NetworkX defines it: the
 * descriptor, options and public entry points (lg_eigenvector and its
 * float twin), and the checks, results and precision choices every power
 * iteration's entry point shares (algorithm.h: PageRank, Katz, HITS).  The
 * iteration is the kernel's (src/kernels/cpu/power.h), reached through
 * lg__dispatch; everything a kernel may assume is checked here, once.
 */
#include "algorithm.h"

#include <math.h>

enum {
    P_TOL,
    P_MAX_ITER,
    P_USE_WEIGHTS,
    P_NSTART,
    P_PRECISION
};
enum {
    R_CENTRALITY,
    R_ITERATIONS,
    R_RESIDUAL,
    R_CONVERGED
};

static const lg_param_info_t params[] = {
    [P_TOL] = {.name = "tol",
               .type = LG_TYPE_DOUBLE,
               .default_value.d = 1.0e-6,
               .help = "stop once an iteration's L1 change is below num_vertices * tol"},
    [P_MAX_ITER] = {.name = "max_iter",
                    .type = LG_TYPE_INT,
                    .default_value.i = 100,
                    .help = "the most iterations to run (then: not converged)"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
    [P_NSTART] = {.name = "nstart",
                  .type = LG_TYPE_VERTEX_DOUBLES,
                  .help = "the first iterate (none: uniform)"},
    [P_PRECISION] = LG_PARAM_PRECISION("the centralities"),
};

static const lg_result_info_t results[] = {
    [R_CENTRALITY] = {.name = "centrality",
                      .type = LG_TYPE_REAL,
                      .per_vertex = true,
                      .help = "each vertex's eigenvector centrality (unit L2 norm)"},
    LG_ITERATION_RESULTS(R_ITERATIONS),
};

static lg_status_t eigenvector(lg_context_t *context, const lg_graph_t *graph,
                               const lg_eigenvector_options_t *options, lg_precision_t precision,
                               void *centrality, lg_iteration_result_t *result);

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_eigenvector_options_t o;
    lg_eigenvector_options_init(&o);
    o.tol = p[P_TOL].d;
    o.max_iter = (int)p[P_MAX_ITER].i;
    o.use_weights = p[P_USE_WEIGHTS].i != 0;
    o.nstart = p[P_NSTART].array;
    LG_FROM_RUN_OPTIONS(&o, ro);
    lg_iteration_result_t res = {0, 0.0, false};
    const lg_status_t st =
        eigenvector(ctx, g, &o, lg__precision_of(p[P_PRECISION]), r[R_CENTRALITY], &res);
    lg__iteration_results(st, &res, r + R_ITERATIONS);
    return st;
}

const struct lg_algorithm lg__algorithm_eigenvector = {
    .id = LG_ALG_EIGENVECTOR,
    .info = {.name = "eigenvector_centrality",
             .title = "eigenvector centrality",
             .function = "lg_eigenvector",
             .summary = "Eigenvector centrality with NetworkX's semantics: power iteration on "
                        "A + I from nstart, normalised to unit length each iteration, stopped by "
                        "NetworkX's L1 test.",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_eigenvector_options_init(lg_eigenvector_options_t *options)
{
    if (!options)
        return;
    options->tol = 1.0e-6;
    options->max_iter = 100;
    options->use_weights = true;
    options->nstart = NULL;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

const char *const lg__precisions[] = {"float64", "float32", NULL};

lg_precision_t lg__precision_of(lg_value_t v)
{
    return v.i ? LG_PRECISION_F32 : LG_PRECISION_F64;
}

static lg_status_t eigenvector(lg_context_t *context, const lg_graph_t *graph,
                               const lg_eigenvector_options_t *options, lg_precision_t precision,
                               void *centrality, lg_iteration_result_t *result)
{
    const char *fn = "lg_eigenvector";
    lg_eigenvector_options_t defaults;
    lg_iteration_result_t ignored;
    lg_status_t st;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (!options) {
        lg_eigenvector_options_init(&defaults);
        options = &defaults;
    }
    if ((st = lg__check_iteration(fn, options->tol, options->max_iter, options->output_memory)) !=
        LG_OK)
        return st;
    if (graph->n == 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: the graph has no vertices: eigenvector centrality is undefined", fn);
    if (!centrality)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: centrality is NULL", fn);
    double sum = 1.0;
    if (options->nstart &&
        (st = lg__check_vector(fn, "nstart", options->nstart, graph->n, false, &sum)) != LG_OK)
        return st;
    if (options->nstart && sum == 0.0)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: nstart sums to 0 (it is divided by its sum; all zero has no "
                         "direction)",
                         fn);
    if (!result)
        result = &ignored;
    *result = (lg_iteration_result_t){0, 0.0, false};
    const struct lg_power_args args = {
        .x0 = options->nstart,
        .x0_divisor = sum,
        .x0_fill = 1.0 / (double)graph->n,
        .scale = 1.0,
        .keep = 1.0,
        .unit_each = true,
        .use_weights = options->use_weights && graph->out.weights,
        .limit = (double)graph->n * options->tol,
        .max_iter = options->max_iter,
        .stage = LG_STAGE_EIGENVECTOR,
        .precision = precision,
        .x = centrality,
        .result = result,
    };
    const struct lg_call c = LG_CALL(&lg__algorithm_eigenvector, &args, true, options);
    st = lg__dispatch(context, graph, &c);
    return lg__iteration_status(fn, st, result, args.limit);
}

lg_status_t lg_eigenvector(lg_context_t *context, const lg_graph_t *graph,
                           const lg_eigenvector_options_t *options, double *centrality,
                           lg_iteration_result_t *result)
{
    return eigenvector(context, graph, options, LG_PRECISION_F64, centrality, result);
}

lg_status_t lg_eigenvector_f32(lg_context_t *context, const lg_graph_t *graph,
                               const lg_eigenvector_options_t *options, float *centrality,
                               lg_iteration_result_t *result)
{
    return eigenvector(context, graph, options, LG_PRECISION_F32, centrality, result);
}

void lg__iteration_results(lg_status_t st, const lg_iteration_result_t *res, void *const *r)
{
    if (st != LG_OK && st != LG_ERR_NOT_CONVERGED)
        return;
    if (r[0])
        *(int64_t *)r[0] = res->iterations;
    if (r[1])
        *(double *)r[1] = res->residual;
    if (r[2])
        *(bool *)r[2] = res->converged;
}

lg_status_t lg__check_iteration(const char *fn, double tol, int max_iter, lg_memory_t memory)
{
    if (!(tol >= 0.0) || !isfinite(tol))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: tol %g is not finite and >= 0", fn, tol);
    if (max_iter < 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: max_iter %d < 0", fn, max_iter);
    return lg__check_output_memory(fn, memory);
}

lg_status_t lg__check_vector(const char *fn, const char *name, const double *v, int64_t n,
                             bool non_negative, double *sum)
{
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i]) || (non_negative && v[i] < 0.0))
            return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s[%lld] = %g is not finite%s", fn, name,
                             (long long)i, v[i], non_negative ? " and >= 0" : "");
        s += v[i];
    }
    if (!isfinite(s) || (non_negative && !(s > 0.0)))
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "%s: %s sums to %g; it needs a positive, finite sum", fn, name, s);
    *sum = s;
    return LG_OK;
}

lg_status_t lg__iteration_status(const char *fn, lg_status_t st,
                                 const lg_iteration_result_t *result, double limit)
{
    if (st != LG_OK || result->converged)
        return st;
    return lg__error(LG_ERR_NOT_CONVERGED,
                     "%s: no convergence in %d iterations (last L1 change %g, needs < %g); the "
                     "results hold the last iterate",
                     fn, result->iterations, result->residual, limit);
}
