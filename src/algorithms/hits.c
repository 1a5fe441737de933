/*
 * hits.c - hubs and authorities (HITS) as NetworkX defines them: the
 * descriptor, options and public entry points (lg_hits and its float twin).  The iteration is
 * the kernel's (src/kernels/cpu/hits.c), reached through lg__dispatch;
 * everything a kernel may assume is checked here, once.
 */
#include "algorithm.h"

enum {
    P_TOL,
    P_MAX_ITER,
    P_NSTART,
    P_NORMALIZED,
    P_USE_WEIGHTS,
    P_PRECISION
};
enum {
    R_HUBS,
    R_AUTHORITIES,
    R_ITERATIONS,
    R_RESIDUAL,
    R_CONVERGED
};

static const lg_param_info_t params[] = {
    [P_TOL] = {.name = "tol",
               .type = LG_TYPE_DOUBLE,
               .default_value.d = 1.0e-8,
               .help = "stop once an iteration's L1 change of the hubs is below tol"},
    [P_MAX_ITER] = {.name = "max_iter",
                    .type = LG_TYPE_INT,
                    .default_value.i = 100,
                    .help = "the most iterations to run (then: not converged)"},
    [P_NSTART] = {.name = "nstart",
                  .type = LG_TYPE_VERTEX_DOUBLES,
                  .help = "the first hub scores (none: uniform)"},
    [P_NORMALIZED] = {.name = "normalized",
                      .type = LG_TYPE_BOOL,
                      .default_value.i = 1,
                      .help = "scale hubs and authorities to sum 1 each"},
    [P_USE_WEIGHTS] = LG_PARAM_USE_WEIGHTS,
    [P_PRECISION] = LG_PARAM_PRECISION("the scores"),
};

static const lg_result_info_t results[] = {
    [R_HUBS] = {.name = "hubs",
                .type = LG_TYPE_REAL,
                .per_vertex = true,
                .help = "each vertex's hub score"},
    [R_AUTHORITIES] = {.name = "authorities",
                       .type = LG_TYPE_REAL,
                       .per_vertex = true,
                       .help = "each vertex's authority score"},
    LG_ITERATION_RESULTS(R_ITERATIONS),
};

static lg_status_t hits(lg_context_t *context, const lg_graph_t *graph,
                        const lg_hits_options_t *options, lg_precision_t precision, void *hubs,
                        void *authorities, lg_iteration_result_t *result);

static lg_status_t run(lg_context_t *ctx, const lg_graph_t *g, const lg_value_t *p, void *const *r,
                       const lg_run_options_t *ro)
{
    lg_hits_options_t o;
    lg_hits_options_init(&o);
    o.tol = p[P_TOL].d;
    o.max_iter = (int)p[P_MAX_ITER].i;
    o.nstart = p[P_NSTART].array;
    o.normalized = p[P_NORMALIZED].i != 0;
    o.use_weights = p[P_USE_WEIGHTS].i != 0;
    LG_FROM_RUN_OPTIONS(&o, ro);
    lg_iteration_result_t res = {0, 0.0, false};
    const lg_status_t st =
        hits(ctx, g, &o, lg__precision_of(p[P_PRECISION]), r[R_HUBS], r[R_AUTHORITIES], &res);
    lg__iteration_results(st, &res, r + R_ITERATIONS);
    return st;
}

const struct lg_algorithm lg__algorithm_hits = {
    .id = LG_ALG_HITS,
    .info = {.name = "hits",
             .title = "HITS",
             .function = "lg_hits",
             .summary = "Hubs and authorities (HITS) with NetworkX's semantics: a = A^T h, h = "
                        "A a by power iteration, stopped by NetworkX's L1 test, scaled to sum 1.",
             .uses_weights = true,
             .num_params = LG_COUNT_OF(params),
             .params = params,
             .num_results = LG_COUNT_OF(results),
             .results = results},
    .run = run,
};

void lg_hits_options_init(lg_hits_options_t *options)
{
    if (!options)
        return;
    options->tol = 1.0e-8;
    options->max_iter = 100;
    options->nstart = NULL;
    options->normalized = true;
    options->use_weights = true;
    options->progress = NULL;
    options->progress_data = NULL;
    options->output_memory = LG_MEMORY_HOST;
}

static lg_status_t hits(lg_context_t *context, const lg_graph_t *graph,
                        const lg_hits_options_t *options, lg_precision_t precision, void *hubs,
                        void *authorities, lg_iteration_result_t *result)
{
    const char *fn = "lg_hits";
    lg_hits_options_t defaults;
    lg_iteration_result_t ignored;
    lg_status_t st;
    lg__set_last_backend(LG_BACKEND_AUTO);
    if (!graph)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    if (!options) {
        lg_hits_options_init(&defaults);
        options = &defaults;
    }
    if ((st = lg__check_iteration(fn, options->tol, options->max_iter, options->output_memory)) !=
        LG_OK)
        return st;
    if (graph->n > 0 && (!hubs || !authorities))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         hubs ? "authorities" : "hubs");
    const bool use_weights = options->use_weights && graph->out.weights;
    if (use_weights && graph->negative_weights)
        return lg__refuse_negative_weights(fn, graph, "HITS needs weights >= 0");
    if (!result)
        result = &ignored;
    *result = (lg_iteration_result_t){0, 0.0, true};
    if (graph->n == 0) {
        lg__set_last_backend(LG_BACKEND_CPU); /* nothing to rank, answered here */
        return LG_OK;
    }
    double sum;
    if (options->nstart &&
        (st = lg__check_vector(fn, "nstart", options->nstart, graph->n, true, &sum)) != LG_OK)
        return st;
    result->converged = false;
    const struct lg_hits_args args = {
        .h0 = options->nstart,
        .tol = options->tol,
        .max_iter = options->max_iter,
        .normalized = options->normalized,
        .use_weights = use_weights,
        .precision = precision,
        .hubs = hubs,
        .authorities = authorities,
        .result = result,
    };
    const struct lg_call c = LG_CALL(&lg__algorithm_hits, &args, true, options);
    st = lg__dispatch(context, graph, &c);
    return lg__iteration_status(fn, st, result, options->tol);
}

lg_status_t lg_hits(lg_context_t *context, const lg_graph_t *graph,
                    const lg_hits_options_t *options, double *hubs, double *authorities,
                    lg_iteration_result_t *result)
{
    return hits(context, graph, options, LG_PRECISION_F64, hubs, authorities, result);
}

lg_status_t lg_hits_f32(lg_context_t *context, const lg_graph_t *graph,
                        const lg_hits_options_t *options, float *hubs, float *authorities,
                        lg_iteration_result_t *result)
{
    return hits(context, graph, options, LG_PRECISION_F32, hubs, authorities, result);
}
