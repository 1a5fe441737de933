/*
 * context.c - contexts: which backend runs, on how many threads.
 *
 * The GPU backend is a plugin loaded with dlopen on first use (see
 * docs/ARCHITECTURE.md); until it is built, LG_BACKEND_GPU reports
 * LG_ERR_UNSUPPORTED and LG_BACKEND_AUTO resolves to the CPU.
 */
#include "internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif

void lg_context_options_init(lg_context_options_t *options)
{
    if (!options)
        return;
    options->backend = LG_BACKEND_AUTO;
    options->device_id = 0;
    options->num_threads = 0;
    options->stream = NULL;
}

static int default_threads(void)
{
#ifdef _OPENMP
    int t = omp_get_max_threads();
    return t > 0 ? t : 1;
#else
    return 1;
#endif
}

int lg__threads(const lg_context_t *ctx)
{
    return ctx ? ctx->num_threads : default_threads();
}

int lg__threads_for(const lg_context_t *ctx, int64_t work)
{
    return work < LG_PARALLEL_MIN_WORK ? 1 : lg__threads(ctx);
}

lg_status_t lg_context_create(lg_context_t **context, const lg_context_options_t *options)
{
    lg_context_options_t defaults;
    if (!context)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_context_create: context is NULL");
    *context = NULL;
    if (!options) {
        lg_context_options_init(&defaults);
        options = &defaults;
    }
    if (options->backend != LG_BACKEND_AUTO && options->backend != LG_BACKEND_CPU &&
        options->backend != LG_BACKEND_GPU)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_context_create: unknown backend %d",
                         (int)options->backend);
    if (options->num_threads < 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_context_create: num_threads %d < 0 (0 means the default)",
                         options->num_threads);
    if (options->device_id < 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_context_create: device_id %d < 0",
                         options->device_id);
    if (options->backend == LG_BACKEND_GPU)
        return lg__error(LG_ERR_UNSUPPORTED,
                         "lg_context_create: this build of libgraph has no GPU backend");

    lg_context_t *ctx = lg__calloc(1, sizeof *ctx);
    if (!ctx)
        return lg__oom("a context");
    ctx->kind = LG_BACKEND_CPU;
    ctx->backend = &lg__cpu_backend;
    ctx->num_threads = options->num_threads > 0 ? options->num_threads : default_threads();
    ctx->device_id = options->device_id;
    ctx->stream = options->stream;
    *context = ctx;
    return LG_OK;
}

void lg_context_free(lg_context_t **context)
{
    if (!context || !*context)
        return;
    lg__free(*context);
    *context = NULL;
}

lg_status_t lg_context_get_backend(const lg_context_t *context, lg_backend_t *backend)
{
    if (!context || !backend)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_context_get_backend: NULL argument");
    *backend = context->kind;
    return LG_OK;
}

lg_status_t lg_context_get_num_threads(const lg_context_t *context, int *num_threads)
{
    if (!context || !num_threads)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_context_get_num_threads: NULL argument");
    *num_threads = context->num_threads;
    return LG_OK;
}
