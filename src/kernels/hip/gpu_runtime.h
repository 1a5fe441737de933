/*
 * gpu_runtime.h - the HIP runtime API, on AMD and on NVIDIA.
 *
 * The plugin is written in HIP.  hipcc (AMD) compiles it as it is.  nvcc
 * compiles the same files as CUDA (`nvcc -x cu`), and this header maps the
 * few runtime calls and types the plugin uses onto CUDA's, so no HIP-on-NVIDIA
 * headers are needed (Debian's do not compile with nvcc 13).  Only names the
 * plugin uses are mapped: add one here before using it.
 */
#ifndef LG_GPU_RUNTIME_H
#define LG_GPU_RUNTIME_H

#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
/* after hip_runtime.h, which it needs */
#include <hip/hip_cooperative_groups.h>
#define LG_GPU_PLATFORM "hip"
#define LG_GPU_AMD 1
#elif defined(__CUDACC__)
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#define LG_GPU_PLATFORM "cuda"
#define LG_GPU_NVIDIA 1

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef cudaDeviceProp hipDeviceProp_t;
typedef cudaEvent_t hipEvent_t;

#define hipSuccess cudaSuccess
#define hipErrorMemoryAllocation cudaErrorMemoryAllocation
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInvalidDevice cudaErrorInvalidDevice
#define hipErrorLaunchFailure cudaErrorLaunchFailure
#define hipDeviceAttributeCooperativeLaunch cudaDevAttrCooperativeLaunch
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDefault cudaMemcpyDefault
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipStreamNonBlocking cudaStreamNonBlocking

#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipGetLastError cudaGetLastError
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDevice cudaGetDevice
#define hipSetDevice cudaSetDevice
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipLaunchCooperativeKernel cudaLaunchCooperativeKernel
#define hipRuntimeGetVersion cudaRuntimeGetVersion
#define hipDriverGetVersion cudaDriverGetVersion
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipMemsetAsync cudaMemsetAsync
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipEventCreate cudaEventCreate
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDisableTiming cudaEventDisableTiming
#define hipHostMalloc(ptr, size, flags) cudaHostAlloc(ptr, size, flags)
#define hipHostMallocDefault cudaHostAllocDefault
#define hipHostFree cudaFreeHost
#else
#error "gpu_runtime.h: compile with hipcc (AMD) or nvcc -x cu (NVIDIA)"
#endif

/* Every device and pinned-host allocation of the plugin goes through these
 * wrappers, so that a test can make one fail as if the memory were exhausted
 * (lg_plugin_test_hooks.fail_after, plugin.hip) and can count the live ones
 * (lg_plugin_test_hooks.live_allocations: a leak check).  lg__gpu_allocations_left
 * counts the allocations still to succeed before the one that fails; < 0,
 * none fails (the default). */
extern long long lg__gpu_allocations_left;
extern long long lg__gpu_live_allocations;

static inline bool lg__gpu_allocation_fails(void)
{
    long long left = __atomic_load_n(&lg__gpu_allocations_left, __ATOMIC_RELAXED);
    while (left >= 0)
        if (__atomic_compare_exchange_n(&lg__gpu_allocations_left, &left, left - 1, false,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return left == 0; /* the armed one fails, and disarms the hook (left - 1 < 0) */
    return false;
}

/* e, counting one more live allocation when it succeeded. */
static inline hipError_t lg__gpu_counted(hipError_t e)
{
    if (e == hipSuccess)
        __atomic_add_fetch(&lg__gpu_live_allocations, 1, __ATOMIC_RELAXED);
    return e;
}

/* Whether ptr is an allocation to free (not NULL), counting one less. */
static inline bool lg__gpu_uncounted(const void *ptr)
{
    if (ptr)
        __atomic_sub_fetch(&lg__gpu_live_allocations, 1, __ATOMIC_RELAXED);
    return ptr != NULL;
}

template <class T> static inline hipError_t lg__device_malloc(T **ptr, size_t bytes)
{
    *ptr = NULL;
    return lg__gpu_allocation_fails() ? hipErrorMemoryAllocation
                                      : lg__gpu_counted(hipMalloc((void **)ptr, bytes));
}

static inline hipError_t lg__device_free(void *ptr)
{
    return lg__gpu_uncounted(ptr) ? hipFree(ptr) : hipSuccess;
}

static inline hipError_t lg__pinned_malloc(void **ptr, size_t bytes)
{
    *ptr = NULL;
    return lg__gpu_allocation_fails()
               ? hipErrorMemoryAllocation
               : lg__gpu_counted(hipHostMalloc(ptr, bytes, hipHostMallocDefault));
}

static inline hipError_t lg__pinned_free(void *ptr)
{
    return lg__gpu_uncounted(ptr) ? hipHostFree(ptr) : hipSuccess;
}

#endif /* LG_GPU_RUNTIME_H */
