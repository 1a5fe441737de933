/*
 * context.c - contexts: which backend runs, on which device, how many threads.
 *
 * LG_BACKEND_GPU loads the GPU plugin (plugin.c) and opens the device; any
 * failure is LG_ERR_DEVICE with the reason.  LG_BACKEND_AUTO tries the same
 * and quietly settles on the CPU when it fails.  A GPU context keeps its
 * thread count for the algorithms that fall back to the CPU.
 */
#include "internal.h"
#include "plugin.h"

#include <stdio.h>
#include <string.h>

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

    lg_context_t *ctx = lg__calloc(1, sizeof *ctx);
    if (!ctx)
        return lg__oom("a context");
    ctx->kind = LG_BACKEND_CPU;
    ctx->requested = options->backend;
    ctx->backend = &lg__cpu_backend;
    ctx->num_threads = options->num_threads > 0 ? options->num_threads : default_threads();
    ctx->device_id = options->device_id;
    ctx->stream = options->stream;
    if (options->backend != LG_BACKEND_CPU) {
        const struct lg_plugin *plugin = NULL;
        struct lg_device_info info;
        memset(&info, 0, sizeof info);
        lg_status_t st = lg__plugin_get(&plugin);
        if (st == LG_OK)
            st = plugin->open(options->device_id, options->stream, &ctx->gpu_state, &info);
        if (st == LG_OK) {
            ctx->kind = LG_BACKEND_GPU;
            ctx->plugin = plugin;
            snprintf(ctx->description, sizeof ctx->description,
                     "gpu %d: %s (%s plugin, %s, wave %d%s)", info.device_id, info.name,
                     plugin->name, info.runtime, info.wave_size,
                     info.wave_size != info.hardware_wave ? " emulated" : "");
        } else if (options->backend == LG_BACKEND_GPU) {
            lg__free(ctx);
            if (st == LG_ERR_OUT_OF_MEMORY)
                return st;
            char why[400];
            snprintf(why, sizeof why, "%s", lg_last_error());
            return lg__error(LG_ERR_DEVICE, "lg_context_create: %s", why);
        } else {
            lg__error(LG_OK, "%s", ""); /* AUTO: the CPU, and no error left behind */
        }
    }
    if (ctx->kind == LG_BACKEND_CPU)
        snprintf(ctx->description, sizeof ctx->description, "cpu (%d thread%s)",
                 ctx->num_threads, ctx->num_threads == 1 ? "" : "s");
    *context = ctx;
    return LG_OK;
}

void lg_context_free(lg_context_t **context)
{
    if (!context || !*context)
        return;
    if ((*context)->plugin)
        (*context)->plugin->close((*context)->gpu_state);
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

lg_status_t lg_context_get_device(const lg_context_t *context, const char **description)
{
    if (!context || !description)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_context_get_device: NULL argument");
    *description = context->description;
    return LG_OK;
}

static _Thread_local lg_backend_t last_backend = LG_BACKEND_AUTO;

void lg__set_last_backend(lg_backend_t backend)
{
    last_backend = backend;
}

lg_backend_t lg_last_backend(void)
{
    return last_backend;
}
