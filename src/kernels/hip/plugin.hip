/*
 * plugin.hip - the GPU plugin's entry point: the table the core loads
 * (plugin.h), opening and closing a device, and error reporting.
 *
 * Built by hipcc as libgraph_hip.so (AMD) or by nvcc as libgraph_cuda.so
 * (NVIDIA), from the same sources.  The core dlopens it on the first GPU
 * context; nothing here runs before that.
 */
#include "gpu.h"

#include <atomic>

#include <stdio.h>
#include <string.h>

const struct lg_plugin_host *lg__gpu_host = NULL;

lg_status_t lg__gpu_fail(hipError_t e, const char *fn, const char *what)
{
    (void)hipGetLastError(); /* clear a sticky launch error so later calls start clean */
    if (e == hipErrorMemoryAllocation)
        return lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of GPU memory (%s)", fn, what);
    return lg__gpu_host->error(LG_ERR_DEVICE, "%s: GPU runtime error while %s: %s (%s)", fn, what,
                               hipGetErrorString(e), hipGetErrorName(e));
}

lg_status_t lg__gpu_call_end(lg__gpu_state *s, lg_status_t st)
{
    if (st == LG_ERR_OUT_OF_MEMORY) {
        (void)hipStreamSynchronize(s->stream);
        lg__scratch_free(&s->scratch);
        lg__scratch_free(&s->work);
        lg__staging_free(s);
        (void)hipGetLastError();
    }
    return st;
}

/* Opening a device leaves the calling thread's current device as it was. */
static lg_status_t gpu_open(int device_id, void *stream, void **state, struct lg_device_info *info)
{
    static const char fn[] = "opening the GPU";
    int count = 0;
    hipError_t e = hipGetDeviceCount(&count);
    *state = NULL;
    /* the runtime's words stay as the detail: they tell a driver too old for
     * the runtime from no driver at all */
    if (e != hipSuccess)
        return lg__gpu_host->error(LG_ERR_DEVICE,
                                   "no usable GPU or GPU driver was found (the %s runtime says: "
                                   "%s)",
                                   LG_GPU_PLATFORM, hipGetErrorString(e));
    if (count == 0)
        return lg__gpu_host->error(LG_ERR_DEVICE, "no GPU was found (the %s runtime sees none)",
                                   LG_GPU_PLATFORM);
    if (device_id >= count)
        return lg__gpu_host->error(LG_ERR_DEVICE, "no GPU %d: the %s runtime sees %d GPU%s",
                                   device_id, LG_GPU_PLATFORM, count, count == 1 ? "" : "s");
    lg__device_guard on_device(device_id);
    hipDeviceProp_t prop;
    if ((e = on_device.error()) != hipSuccess ||
        (e = hipGetDeviceProperties(&prop, device_id)) != hipSuccess)
        return lg__gpu_fail(e, fn, "opening the device");
    if (prop.warpSize != 32 && prop.warpSize != 64)
        return lg__gpu_host->error(LG_ERR_DEVICE, "GPU %d: unsupported wave width %d", device_id,
                                   prop.warpSize);
#if defined(LG_WAVE_EMULATED)
    if (prop.warpSize != 32)
        return lg__gpu_host->error(
            LG_ERR_DEVICE, "GPU %d: the emulated wave-64 build needs 32-lane warps", device_id);
#endif

    lg__gpu_state *s = (lg__gpu_state *)lg__gpu_host->malloc(sizeof *s);
    if (!s)
        return lg__gpu_host->error(LG_ERR_OUT_OF_MEMORY, "%s: out of memory (context)", fn);
    memset(s, 0, sizeof *s);
    s->device = device_id;
    s->search_blocks = -1;
    if (stream) {
        s->stream = (hipStream_t)stream;
    } else {
        if ((e = hipStreamCreateWithFlags(&s->stream, hipStreamNonBlocking)) != hipSuccess) {
            lg__gpu_host->free(s);
            return lg__gpu_fail(e, fn, "creating a stream");
        }
        s->own_stream = true;
    }
    int runtime = 0, driver = 0;
    (void)hipRuntimeGetVersion(&runtime);
    (void)hipDriverGetVersion(&driver);
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%.*s", (int)sizeof info->name - 1, prop.name);
#if defined(LG_GPU_AMD)
    snprintf(info->runtime, sizeof info->runtime, "HIP runtime %d, %s", runtime, prop.gcnArchName);
#else
    snprintf(info->runtime, sizeof info->runtime, "CUDA runtime %d.%d, driver %d.%d, sm_%d%d",
             runtime / 1000, runtime % 1000 / 10, driver / 1000, driver % 1000 / 10, prop.major,
             prop.minor);
#endif
    info->device_id = device_id;
    info->hardware_wave = prop.warpSize;
#if defined(LG_WAVE_EMULATED)
    info->wave_size = LG_WAVE_SIZE; /* the emulated width */
#else
    info->wave_size = prop.warpSize;
#endif
    info->multiprocessors = prop.multiProcessorCount;
    info->memory_bytes = (int64_t)prop.totalGlobalMem;
    s->info = *info;
    /* pinned now, not in the first upload, which it would slow by a third
     * (12 ms of kron:22's 36); without them copies take the runtime's path */
    (void)lg__staging_ready(s);
    *state = s;
    return LG_OK;
}

static void gpu_close(void *state)
{
    lg__gpu_state *s = (lg__gpu_state *)state;
    if (!s)
        return;
    {
        lg__device_guard on_device(s->device);
        lg__scratch_free(&s->scratch);
        lg__scratch_free(&s->work);
        lg__staging_free(s);
        if (s->own_stream)
            (void)hipStreamDestroy(s->stream);
    }
    lg__gpu_host->free(s);
}

/* lg_context_copy: hipMemcpyDefault lets the runtime tell the direction by
 * the addresses (unified addressing); on the context's stream, then waited
 * for. */
static lg_status_t gpu_copy(void *state, void *dst, const void *src, size_t bytes)
{
    static const char fn[] = "lg_context_copy";
    lg__gpu_state *s = (lg__gpu_state *)state;
    lg__device_guard on_device(s->device);
    if (on_device.error() != hipSuccess)
        return lg__gpu_fail(on_device.error(), fn, "selecting the device");
    hipError_t e = hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, s->stream);
    if (e == hipSuccess)
        e = hipStreamSynchronize(s->stream);
    return e == hipSuccess ? LG_OK : lg__gpu_fail(e, fn, "copying");
}

long long lg__gpu_allocations_left = -1; /* gpu_runtime.h */
long long lg__gpu_live_allocations = 0;

static long long gpu_test_live_allocations(void)
{
    return __atomic_load_n(&lg__gpu_live_allocations, __ATOMIC_RELAXED);
}

static long long gpu_test_fail_after(long long allocations)
{
    return __atomic_exchange_n(&lg__gpu_allocations_left, allocations < 0 ? -1 : allocations,
                               __ATOMIC_RELAXED);
}

static int gpu_test_phase_launches(int on)
{
    const bool was = lg__bfs_phase_launches;
    lg__bfs_phase_launches = on != 0;
    return was;
}

/* fail_launch_after's countdown: launch checks left before the failure,
 * negative when disarmed. */
static std::atomic<long long> launch_countdown{-1};

static long long gpu_test_fail_launch_after(long long launches)
{
    return launch_countdown.exchange(launches < 0 ? -1 : launches);
}

/* A kernel the runtime refuses to launch with more than 1024 threads a block. */
__global__ void lg__refused_kernel()
{
}

hipError_t lg__launched(void)
{
    long long left = launch_countdown.load(std::memory_order_relaxed);
    while (left >= 0 && !launch_countdown.compare_exchange_weak(left, left - 1)) {
    }
    if (left == 0)
        lg__refused_kernel<<<1, 4096>>>(); /* refused, not sticky (CUDA 13: cudaErrorInvalidValue) */
    return hipGetLastError();
}

/* The hooks of the GPU tests (plugin.h). */
static const struct lg_plugin_test_hooks test_hooks = {
    gpu_test_fail_after,
    gpu_test_live_allocations,
    gpu_test_phase_launches,
    gpu_test_fail_launch_after,
};

extern "C" __attribute__((visibility("default"))) const struct lg_plugin_test_hooks *
lg_plugin_test_hooks(void)
{
    return &test_hooks;
}

lg_status_t lg__gpu_run(const struct lg_exec *x, const struct lg_graph_view *g, const void *args,
                        const char *fn,
                        lg_status_t (*on_device)(lg__gpu_state *s, const struct lg_graph_view *g,
                                                 const void *args))
{
    lg__gpu_state *s = (lg__gpu_state *)x->state;
    s->host_threads = x->num_threads;
    s->progress = x->progress;
    s->device_outputs = x->device_outputs;
    lg__device_guard on_device_guard(s->device);
    if (on_device_guard.error() != hipSuccess)
        return lg__gpu_fail(on_device_guard.error(), fn, "selecting the device");
    return lg__gpu_call_end(s, on_device(s, g, args));
}

/* The kernels: a row for each algorithm that algorithms.h marks GPU. */
#define LG_GPU_ROW_GPU(name) &lg__gpu_##name##_row,
#define LG_GPU_ROW_CPU(name)
#define LG_GPU_ROW(ID, name, gpu) LG_GPU_ROW_##gpu(name)
static const struct lg_kernel *const kernels[] = {LG_ALGORITHMS(LG_GPU_ROW)};

static const struct lg_plugin plugin_table = {
    LG_PLUGIN_ABI_VERSION,
    LG_GPU_PLATFORM,
    gpu_open,
    gpu_close,
    lg__dev_graph_free,
    gpu_copy,
    lg__gpu_build,
    kernels,
    (int)(sizeof kernels / sizeof kernels[0]),
};

extern "C" __attribute__((visibility("default"))) lg_status_t lg_plugin_entry(
    const struct lg_plugin_host *host, const struct lg_plugin **plugin)
{
    if (!host || !plugin)
        return LG_ERR_INVALID_ARGUMENT;
    if (host->abi_version != LG_PLUGIN_ABI_VERSION)
        return host->error ? host->error(LG_ERR_DEVICE,
                                         "GPU plugin: built for plugin ABI %d, the library has %d",
                                         LG_PLUGIN_ABI_VERSION, host->abi_version)
                           : LG_ERR_DEVICE;
    lg__gpu_host = host;
    *plugin = &plugin_table;
    return LG_OK;
}
