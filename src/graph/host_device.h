/*
 * host_device.h - LG_SHARED_FN: a function that both backends' kernels
 * call, the C core's and the .hip sources' (on the device too).  A small
 * arithmetic rule written once here keeps the CPU's and the GPU's results
 * the same.
 */
#ifndef LIBGRAPH_HOST_DEVICE_H
#define LIBGRAPH_HOST_DEVICE_H

#if defined(__HIPCC__) || defined(__CUDACC__)
#define LG_SHARED_FN __host__ __device__ static inline
#else
#define LG_SHARED_FN static inline
#endif

#endif
