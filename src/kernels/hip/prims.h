/*
 * prims.h - device-wide scan, reduce and radix sort: one interface over
 * rocPRIM (AMD) and CUB (NVIDIA).
 *
 * Both libraries work in two phases (ask for the temporary storage, then
 * run); each function here does both, taking its temporary storage from the
 * caller's lg__scratch, which grows and is reused, so an iteration loop
 * allocates nothing after its first call.  All work is queued on `stream`;
 * the functions return hipSuccess or the runtime's error.
 */
#ifndef LG_PRIMS_H
#define LG_PRIMS_H

#include "gpu_runtime.h"

#include <stddef.h>
#include <stdint.h>

#if defined(LG_GPU_AMD)
#include <rocprim/rocprim.hpp>
#else
#include <cub/cub.cuh>
#endif

/* Temporary device storage that grows to the largest request and stays. */
struct lg__scratch {
    void *ptr;
    size_t bytes;
};

static inline hipError_t lg__scratch_reserve(lg__scratch *s, size_t bytes)
{
    if (bytes <= s->bytes)
        return hipSuccess;
    if (s->ptr)
        (void)lg__device_free(s->ptr);
    s->ptr = NULL;
    s->bytes = 0;
    hipError_t e = lg__device_malloc(&s->ptr, bytes ? bytes : 1);
    if (e == hipSuccess)
        s->bytes = bytes;
    return e;
}

static inline void lg__scratch_free(lg__scratch *s)
{
    if (s->ptr)
        (void)lg__device_free(s->ptr);
    s->ptr = NULL;
    s->bytes = 0;
}

/* out[i] = in[0] + ... + in[i-1], out[0] = 0, for i < n. */
template <class T>
hipError_t lg__exclusive_sum(lg__scratch *s, const T *in, T *out, int64_t n, hipStream_t stream)
{
    size_t bytes = 0;
    hipError_t e;
#if defined(LG_GPU_AMD)
    e = rocprim::exclusive_scan(NULL, bytes, in, out, T(0), (size_t)n, rocprim::plus<T>(), stream);
    if (e == hipSuccess)
        e = lg__scratch_reserve(s, bytes);
    if (e == hipSuccess)
        e = rocprim::exclusive_scan(s->ptr, bytes, in, out, T(0), (size_t)n, rocprim::plus<T>(),
                                    stream);
#else
    e = cub::DeviceScan::ExclusiveSum(NULL, bytes, in, out, n, stream);
    if (e == hipSuccess)
        e = lg__scratch_reserve(s, bytes);
    if (e == hipSuccess)
        e = cub::DeviceScan::ExclusiveSum(s->ptr, bytes, in, out, n, stream);
#endif
    return e;
}

/* out[i] = op(in[0], ..., in[i]), for i < n and an associative op of T. */
template <class T, class Op>
hipError_t lg__inclusive_scan(lg__scratch *s, const T *in, T *out, int64_t n, Op op,
                              hipStream_t stream)
{
    size_t bytes = 0;
    hipError_t e;
#if defined(LG_GPU_AMD)
    e = rocprim::inclusive_scan(NULL, bytes, in, out, (size_t)n, op, stream);
    if (e == hipSuccess)
        e = lg__scratch_reserve(s, bytes);
    if (e == hipSuccess)
        e = rocprim::inclusive_scan(s->ptr, bytes, in, out, (size_t)n, op, stream);
#else
    e = cub::DeviceScan::InclusiveScan(NULL, bytes, in, out, op, n, stream);
    if (e == hipSuccess)
        e = lg__scratch_reserve(s, bytes);
    if (e == hipSuccess)
        e = cub::DeviceScan::InclusiveScan(s->ptr, bytes, in, out, op, n, stream);
#endif
    return e;
}

/* The larger of two values: lg__reduce's and lg__inclusive_scan's op for a
 * maximum or a running maximum. */
struct lg__max_op {
    template <class T> __host__ __device__ T operator()(const T &a, const T &b) const
    {
        return a > b ? a : b;
    }
};

/* The sum of two values: lg__reduce's op for a total. */
struct lg__plus_op {
    template <class T> __host__ __device__ T operator()(const T &a, const T &b) const
    {
        return a + b;
    }
};

/* *out = op(init, in[0], ..., in[n-1]) on the device, for an associative op
 * of T (which has a host-device operator() ). */
template <class T, class Op>
hipError_t lg__reduce(lg__scratch *s, const T *in, T *out, int64_t n, Op op, T init,
                      hipStream_t stream)
{
    size_t bytes = 0;
    hipError_t e;
#if defined(LG_GPU_AMD)
    e = rocprim::reduce(NULL, bytes, in, out, init, (size_t)n, op, stream);
    if (e == hipSuccess)
        e = lg__scratch_reserve(s, bytes);
    if (e == hipSuccess)
        e = rocprim::reduce(s->ptr, bytes, in, out, init, (size_t)n, op, stream);
#else
    e = cub::DeviceReduce::Reduce(NULL, bytes, in, out, n, op, init, stream);
    if (e == hipSuccess)
        e = lg__scratch_reserve(s, bytes);
    if (e == hipSuccess)
        e = cub::DeviceReduce::Reduce(s->ptr, bytes, in, out, n, op, init, stream);
#endif
    return e;
}

/* Stable LSD radix sort of (key, value) pairs by the key bits [0, bits):
 * keys_in/values_in -> keys_out/values_out (the inputs are left as they are). */
template <class K, class V>
hipError_t lg__radix_sort_pairs(lg__scratch *s, const K *keys_in, K *keys_out, const V *values_in,
                                V *values_out, int64_t n, int bits, hipStream_t stream)
{
    size_t bytes = 0;
    hipError_t e;
#if defined(LG_GPU_AMD)
    e = rocprim::radix_sort_pairs(NULL, bytes, keys_in, keys_out, values_in, values_out, (size_t)n,
                                  0, (unsigned)bits, stream);
    if (e == hipSuccess)
        e = lg__scratch_reserve(s, bytes);
    if (e == hipSuccess)
        e = rocprim::radix_sort_pairs(s->ptr, bytes, keys_in, keys_out, values_in, values_out,
                                      (size_t)n, 0, (unsigned)bits, stream);
#else
    e = cub::DeviceRadixSort::SortPairs(NULL, bytes, keys_in, keys_out, values_in, values_out, n, 0,
                                        bits, stream);
    if (e == hipSuccess)
        e = lg__scratch_reserve(s, bytes);
    if (e == hipSuccess)
        e = cub::DeviceRadixSort::SortPairs(s->ptr, bytes, keys_in, keys_out, values_in, values_out,
                                            n, 0, bits, stream);
#endif
    return e;
}

#endif /* LG_PRIMS_H */
