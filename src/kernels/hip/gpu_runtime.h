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
#define LG_GPU_PLATFORM "hip"
#define LG_GPU_AMD 1
#elif defined(__CUDACC__)
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
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipStreamNonBlocking cudaStreamNonBlocking

#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipGetLastError cudaGetLastError
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDevice cudaGetDevice
#define hipSetDevice cudaSetDevice
#define hipGetDeviceProperties cudaGetDeviceProperties
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

#endif /* LG_GPU_RUNTIME_H */
