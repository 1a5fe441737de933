/*
 * context.c - contexts: which backend runs, on which device, how many threads.
 *
 * LG_BACKEND_GPU loads the GPU plugin (plugin.c) and opens the device; any
 * failure is LG_ERR_DEVICE with the reason (LG_ERR_OUT_OF_MEMORY when memory
 * ran out on the way).  LG_BACKEND_AUTO tries the same and quietly settles on
 * the CPU when it fails, leaving the thread's last error as it was.  A GPU
 * context keeps a thread count for the algorithms that run on the CPU
 * (src/algorithms/dispatch.c says when).
 */
#define _GNU_SOURCE /* CLOCK_MONOTONIC_COARSE, sysconf(_SC_NPROCESSORS_ONLN) */

#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

lg_status_t lg_context_options_parse(lg_context_options_t *options, const char *device)
{
    static const char fn[] = "lg_context_options_parse";
    if (!options || !device)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         options ? "device" : "options");
    if (strcmp(device, "auto") == 0 || strcmp(device, "cpu") == 0) {
        options->backend = device[0] == 'a' ? LG_BACKEND_AUTO : LG_BACKEND_CPU;
        return LG_OK;
    }
    if (strcmp(device, "gpu") == 0) {
        options->backend = LG_BACKEND_GPU;
        options->device_id = 0;
        return LG_OK;
    }
    if (strncmp(device, "gpu:", 4) == 0 && device[4] >= '0' && device[4] <= '9') {
        char *end = NULL;
        errno = 0;
        long id = strtol(device + 4, &end, 10);
        if (*end == '\0' && errno == 0 && id <= INT_MAX) {
            options->backend = LG_BACKEND_GPU;
            options->device_id = (int)id;
            return LG_OK;
        }
    }
    return lg__error(LG_ERR_INVALID_ARGUMENT,
                     "%s: device '%.64s%s' is not 'auto', 'cpu', 'gpu' or 'gpu:N'", fn, device,
                     strlen(device) > 64 ? "..." : "");
}

static int default_threads(void)
{
#ifdef _OPENMP
    int t = omp_get_max_threads();
    return t < 1 ? 1 : t > LG_MAX_THREADS ? LG_MAX_THREADS : t;
#else
    return 1;
#endif
}

int lg__threads(const lg_context_t *ctx)
{
    return ctx ? ctx->num_threads : default_threads();
}

/* ---- teams that fit the machine --------------------------------------------- */

int64_t lg__parallel_min_work = LG_PARALLEL_MIN_WORK;

static _Atomic long running_override = -1;

long lg__running_threads_override(long running)
{
    return atomic_exchange(&running_override, running);
}

long lg__runnable_tasks(const char *task_dir)
{
#if defined(__linux__)
    DIR *dir = opendir(task_dir);
    if (!dir)
        return -1;
    long runnable = 0;
    const struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        char path[64];
        if (snprintf(path, sizeof path, "%s/stat", entry->d_name) >= (int)sizeof path)
            continue;
        const int fd = openat(dirfd(dir), path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue; /* the thread has exited since */
        char buf[512];
        const ssize_t len = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (len <= 0)
            continue;
        buf[len] = '\0';
        /* "tid (comm) S ...": comm may hold spaces and parentheses */
        const char *paren = strrchr(buf, ')');
        runnable += paren && paren[1] == ' ' && paren[2] == 'R';
    }
    closedir(dir);
    return runnable;
#else
    (void)task_dir;
    return -1;
#endif
}

#if defined(__linux__)
/* The threads runnable on the whole machine now, the caller's included (the
 * fourth field of /proc/loadavg, "runnable/total"), or -1. */
static long loadavg_running(void)
{
    long running = -1;
    const int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char buf[128];
        const ssize_t len = read(fd, buf, sizeof buf - 1);
        close(fd);
        double avg[3];
        if (len > 0) {
            buf[len] = '\0';
            if (sscanf(buf, "%lf %lf %lf %ld/", &avg[0], &avg[1], &avg[2], &running) != 4)
                running = -1;
        }
    }
    return running;
}
#endif

/* The threads of other processes runnable now (loadavg_running less this
 * process's runnable threads), or -1 where the system does not say;
 * *online, the cores online.  This process's own are left out: its OpenMP
 * workers spin a while after each parallel region (libgomp's GOMP_SPINCOUNT, LLVM's KMP_BLOCKTIME: all of
 * it under OMP_WAIT_POLICY=active), runnable all that time, and counted they
 * would take the next call's team from it on an idle machine.  Read at most
 * every RUNNING_PERIOD_NS, and no more often than 100 times the read's own
 * cost (a file, plus one a thread of this process when others run: a few
 * microseconds each; the counts move on the scheduler's time scale). */
#define RUNNING_PERIOD_NS 10000000LL
static _Atomic long others_seen = -1, online_seen = -1;
static _Atomic long long others_next_read = LLONG_MIN / 2;

static long long clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long other_runnable_threads(long *online)
{
    const long forced = atomic_load(&running_override);
    if (forced >= 0) {
        *online = sysconf(_SC_NPROCESSORS_ONLN);
        return forced - 1;
    }
#if defined(__linux__)
    const long long now = clock_ns(CLOCK_MONOTONIC_COARSE);
    if (now < atomic_load_explicit(&others_next_read, memory_order_relaxed)) {
        *online = atomic_load_explicit(&online_seen, memory_order_relaxed);
        return atomic_load_explicit(&others_seen, memory_order_relaxed);
    }
    /* the read's cost in this thread's CPU time: the wall time of a read on a
     * busy machine includes the slices it waited for, and would put the
     * next read off by seconds */
    const long long began = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    long running = loadavg_running();
    long others = running - 1; /* the caller: runnable, and its own */
    if (running > 1) {         /* someone else runnable: this process's, or not */
        /* this process's first, the machine's again after: its idle
         * workers only go to sleep meanwhile (their spins end), so none
         * counted in the second read is missing from the first */
        const long own = lg__runnable_tasks("/proc/self/task");
        running = loadavg_running();
        others = own < 1 || running < 0 ? -1 : running > own ? running - own : 0;
    }
    const long long cost = clock_ns(CLOCK_THREAD_CPUTIME_ID) - began;
    *online = sysconf(_SC_NPROCESSORS_ONLN);
    atomic_store_explicit(&online_seen, *online, memory_order_relaxed);
    atomic_store_explicit(&others_seen, others, memory_order_relaxed);
    atomic_store_explicit(&others_next_read,
                          now + (100 * cost > RUNNING_PERIOD_NS ? 100 * cost : RUNNING_PERIOD_NS),
                          memory_order_relaxed);
    return others;
#else
    *online = -1;
    return -1;
#endif
}

int lg__threads_for(const lg_context_t *ctx, int64_t work)
{
    const int threads = lg__team_size(lg__threads(ctx), work);
    if (threads == 1 || (ctx && ctx->threads_given))
        return threads;
    long online = -1;
    const long others = other_runnable_threads(&online);
    return others < 0 || online < 1 ? threads : lg__fit_team(threads, online, others + 1);
}

/* What a caller whose GPU does not open can do instead. */
#define NO_GPU_ADVICE                                                                              \
    "to run on the CPU, ask for device \"cpu\", or \"auto\", which uses a GPU only where one "     \
    "answers"

/* Loads the plugin and opens the context's device: on success the context
 * is a GPU context; on failure it is left a CPU context and the message says
 * why (the plugin's own words when it gave some). */
static lg_status_t open_gpu(lg_context_t *ctx)
{
    const struct lg_plugin *plugin = NULL;
    struct lg_device_info info;
    void *state = NULL;
    char why[LG_ERROR_CAPACITY];
    memset(&info, 0, sizeof info);
    lg_status_t st = lg__plugin_get(&plugin);
    if (st != LG_OK) {
        snprintf(why, sizeof why, "%s", lg_last_error()); /* not formatted into itself */
        return lg__error(LG_ERR_DEVICE, "lg_context_create: %.480s", why);
    }
    lg__error_clear(); /* so a silent plugin cannot pass off a stale message */
    st = plugin->open(ctx->device_id, ctx->stream, &state, &info);
    if (st != LG_OK) {
        snprintf(why, sizeof why, "%s",
                 lg_last_error()[0] ? lg_last_error() : lg_status_string(st));
        if (st == LG_ERR_OUT_OF_MEMORY)
            return lg__error(st, "lg_context_create: %s plugin, GPU %d: %.400s", plugin->name,
                             ctx->device_id, why);
        return lg__error(LG_ERR_DEVICE,
                         "lg_context_create: %s plugin, GPU %d: %.300s; " NO_GPU_ADVICE,
                         plugin->name, ctx->device_id, why);
    }
    info.name[sizeof info.name - 1] = '\0';
    info.runtime[sizeof info.runtime - 1] = '\0';
    ctx->backend = LG_BACKEND_GPU;
    ctx->plugin = plugin;
    ctx->gpu_state = state;
    ctx->device = info;
    return LG_OK;
}

/* The line lg_context_get_device returns. */
static void describe(lg_context_t *ctx)
{
    const struct lg_device_info *d = &ctx->device;
    if (ctx->backend != LG_BACKEND_GPU) {
        snprintf(ctx->description, sizeof ctx->description, "cpu (%d thread%s)", ctx->num_threads,
                 ctx->num_threads == 1 ? "" : "s");
        return;
    }
    char wave[48];
    if (d->hardware_wave > 0 && d->hardware_wave != d->wave_size)
        snprintf(wave, sizeof wave, "wave %d, emulated on %d", d->wave_size, d->hardware_wave);
    else
        snprintf(wave, sizeof wave, "wave %d", d->wave_size);
    snprintf(ctx->description, sizeof ctx->description, "gpu %d: %s (%s, %s, %s)", ctx->device_id,
             d->name[0] ? d->name : "unnamed device",
             ctx->plugin->name ? ctx->plugin->name : "plugin", d->runtime[0] ? d->runtime : "?",
             wave);
}

lg_status_t lg_context_create(lg_context_t **context, const lg_context_options_t *options)
{
    lg_context_options_t defaults;
    lg_context_t *ctx = NULL;
    bool locked_init = false;
    lg_status_t st = LG_OK;
    char saved[LG_ERROR_CAPACITY];
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
    if (options->num_threads < 0 || options->num_threads > LG_MAX_THREADS)
        return lg__error(LG_ERR_INVALID_ARGUMENT,
                         "lg_context_create: num_threads %d is outside [0, %d] (0 means the "
                         "default)",
                         options->num_threads, LG_MAX_THREADS);
    if (options->device_id < 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_context_create: device_id %d < 0",
                         options->device_id);

    ctx = lg__calloc(1, sizeof *ctx);
    if (!ctx) {
        st = lg__oom("a context");
        goto cleanup;
    }
    if (pthread_mutex_init(&ctx->gpu_lock, NULL) != 0) {
        st = lg__error(LG_ERR_INTERNAL, "lg_context_create: pthread_mutex_init failed");
        goto cleanup;
    }
    locked_init = true;
    ctx->backend = LG_BACKEND_CPU;
    ctx->requested = options->backend;
    ctx->num_threads = options->num_threads > 0 ? options->num_threads : default_threads();
    ctx->threads_given = options->num_threads > 0;
    ctx->device_id = options->device_id;
    ctx->stream = options->stream;
    if (options->backend != LG_BACKEND_CPU) {
        lg__error_save(saved);
        st = open_gpu(ctx);
        if (st != LG_OK && options->backend == LG_BACKEND_GPU)
            goto cleanup;
        if (st != LG_OK)
            lg__error_restore(saved); /* AUTO: the CPU, and the caller's message untouched */
        st = LG_OK;
    }
    describe(ctx);
    *context = ctx;
    ctx = NULL;
cleanup:
    if (ctx && locked_init)
        pthread_mutex_destroy(&ctx->gpu_lock);
    lg__free(ctx);
    return st;
}

void lg_context_free(lg_context_t **context)
{
    if (!context || !*context)
        return;
    lg_context_t *ctx = *context;
    if (ctx->plugin)
        ctx->plugin->close(ctx->gpu_state);
    pthread_mutex_destroy(&ctx->gpu_lock);
    lg__free(ctx);
    *context = NULL;
}

lg_status_t lg_context_get_backend(const lg_context_t *context, lg_backend_t *backend)
{
    if (!context || !backend)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "lg_context_get_backend: NULL argument");
    *backend = context->backend;
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

lg_status_t lg_context_copy(lg_context_t *context, void *dst, const void *src, size_t bytes)
{
    static const char fn[] = "lg_context_copy";
    if (!context || context->backend != LG_BACKEND_GPU)
        return lg__error(LG_ERR_UNSUPPORTED, "%s: %s", fn,
                         context ? "the context has no GPU" : "context is NULL (the CPU)");
    if ((!dst || !src) && bytes > 0)
        return lg__error(LG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, dst ? "src" : "dst");
    if (bytes == 0)
        return LG_OK;
    pthread_mutex_lock(&context->gpu_lock); /* the plugin's state and stream */
    const lg_status_t st = context->plugin->copy(context->gpu_state, dst, src, bytes);
    pthread_mutex_unlock(&context->gpu_lock);
    return st;
}

/* Which backend ran the thread's last algorithm call, and why when the
 * context left the choice to the library (dispatch.c sets both). */
static _Thread_local lg_backend_t last_backend = LG_BACKEND_AUTO;
static _Thread_local const char *last_reason = "";

void lg__set_last_backend(lg_backend_t backend)
{
    last_backend = backend;
}

void lg__set_last_backend_reason(const char *why)
{
    last_reason = why ? why : "";
}

lg_backend_t lg_last_backend(void)
{
    return last_backend;
}

const char *lg_last_backend_reason(void)
{
    return last_reason;
}
