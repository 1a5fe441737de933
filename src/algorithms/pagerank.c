/*
 * pagerank.c - PageRank as NetworkX defines it: its descriptor, options and
 * public entry points (lg_pagerank, lg_pagerank_f32).  The iteration is the
 * kernels' (src/kernels/cpu/pagerank.c, src/kernels/hip/pagerank.hip),
 * reached through lg__dispatch; everything a kernel may assume is checked
 * here, once.
 */
#include "algorithm.h"

#include <math.h>

static const struct lg_algorithm pagerank_algorithm = {LG_ALG_PAGERANK, "pagerank", "lg_pagerank",
                                                       "PageRank"};

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
    if (!v)
        return LG_OK;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i]) || v[i] < 0.0)
            return lg__error(LG_ERR_INVALID_ARGUMENT,
                             "lg_pagerank: %s[%lld] = %g is not finite and >= 0", name,
                             (long long)i, v[i]);
        sum += v[i];
    }
    if (!(sum > 0.0) || !isfinite(sum))
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_pagerank: %s sums to %g; it needs a positive, finite sum", name, sum);
    return LG_OK;
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
    if (!(options->tol >= 0.0) || !isfinite(options->tol))
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: tol %g is not finite and >= 0",
                         options->tol);
    if (options->max_iter < 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_pagerank: max_iter %d < 0",
                         options->max_iter);
    if ((st = lg__check_output_memory("lg_pagerank", options->output_memory)) != LG_OK)
        return st;
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
    const struct lg_call c = LG_CALL(&pagerank_algorithm, &args, true, options);
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
