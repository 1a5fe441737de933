/*
 * wave.h - the wavefront layer: what a kernel may do with the lanes of a wave.
 *
 * A wave is the set of lanes that run in lock step: 64 on AMD Instinct (CDNA,
 * gfx908/gfx90a/gfx94x), 32 on AMD RDNA and on NVIDIA.  Kernels never write 32
 * or 64: they use LG_WAVE_SIZE and the primitives below, so one source serves
 * every target, in the style of CUB's warp and rocPRIM's warp primitives.
 *
 *   LG_WAVE_SIZE          lanes per wave (device code: the target's width)
 *   lg__lanemask_t        one bit per lane (uint64_t for 64 lanes, else uint32_t)
 *   lg__lane_id()         this lane's index in its wave, 0..LG_WAVE_SIZE-1
 *   lg__wave_ballot(p)    the mask of lanes whose p is true
 *   lg__first_lane(m)     the lowest lane of a mask
 *   lg__wave_any/all(p)
 *   lg__wave_shfl(x, l)   x of lane l
 *   lg__wave_sum(x)       the sum over the wave, in every lane
 *   lg__group_sum<G>(x)   the sum over each aligned group of G lanes
 *   lg__wave_exclusive_sum(x, &total)  prefix sums over the lanes
 *   lg__wave_atomic_inc(counter, active)  one atomic a wave, a slot a lane
 *   lg__block_sum(x), lg__block_exclusive_sum(x, &total)  over a block
 *
 * Three builds (the macros below pick one):
 *   AMD (hipcc)          the target's width, __AMDGCN_WAVEFRONT_SIZE (64 on
 *                        gfx908/gfx90a/gfx940, 32 on gfx1030); HIP intrinsics.
 *   NVIDIA (nvcc)        32, CUDA's *_sync intrinsics with a full mask.
 *   NVIDIA, emulated 64  (-DLG_EMULATE_WAVE64) a logical wave of 64 lanes is
 *                        two consecutive warps; each primitive goes through a
 *                        per-wave slot of shared memory and a 64-thread named
 *                        barrier.  Slow, and only for running the wave-64 code
 *                        paths where no AMD GPU is at hand (the tests).
 *
 * Preconditions for every primitive: blocks are one-dimensional with a
 * multiple of LG_WAVE_SIZE threads (at most LG_MAX_BLOCK), and every lane of
 * the wave calls the primitive together (converged; lanes with nothing to
 * contribute pass a neutral value rather than skipping the call).
 *
 * The host never uses LG_WAVE_SIZE: it reads the device's width when a
 * context opens (struct lg_device_info) and shapes launches from that.  In
 * the host compilation pass LG_WAVE_SIZE is still defined, because clang
 * parses kernel bodies there, but its value means nothing on the host.
 */
#ifndef LG_WAVE_H
#define LG_WAVE_H

#include "gpu_runtime.h"

#include <stdint.h>

/* Threads a block may have: blocks of up to 8 waves of 64 (the emulated
 * wave-64 build needs a named barrier a wave, and ids 1..15 exist). */
#define LG_MAX_BLOCK 512

#if defined(LG_GPU_AMD)
#if defined(__AMDGCN_WAVEFRONT_SIZE)
#define LG_WAVE_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define LG_WAVE_SIZE 64 /* host pass: not used by host code */
#endif
#elif defined(LG_EMULATE_WAVE64)
#define LG_WAVE_SIZE 64
#define LG_WAVE_EMULATED 1
#else
#define LG_WAVE_SIZE 32
#endif

#if LG_WAVE_SIZE == 64
typedef uint64_t lg__lanemask_t;
#define LG_LANEMASK_BITS 64
#else
typedef uint32_t lg__lanemask_t;
#define LG_LANEMASK_BITS 32
#endif

#define LG_FULL_WARP 0xffffffffu

/* This lane's index in its wave.  Lanes 0..W-1 of a block's first wave are
 * threads 0..W-1.  Example: thread 70 of a block is lane 6 of wave 1 when
 * LG_WAVE_SIZE is 64, lane 6 of wave 2 when it is 32. */
__device__ inline int lg__lane_id(void)
{
    return (int)(threadIdx.x & (LG_WAVE_SIZE - 1));
}

/* This wave's index in its block (thread 70: 1 with 64 lanes, 2 with 32). */
__device__ inline int lg__wave_id(void)
{
    return (int)(threadIdx.x / LG_WAVE_SIZE);
}

/* Population count of a lane mask. */
__device__ inline int lg__popc(lg__lanemask_t m)
{
#if LG_WAVE_SIZE == 64
    return __popcll((unsigned long long)m);
#else
    return __popc((unsigned)m);
#endif
}

/* The lowest lane set in a non-zero mask: 0b10100 -> 2. */
__device__ inline int lg__first_lane(lg__lanemask_t m)
{
#if LG_WAVE_SIZE == 64
    return __ffsll((unsigned long long)m) - 1;
#else
    return __ffs((unsigned)m) - 1;
#endif
}

/* The lanes below this one: lane 5 -> 0b11111. */
__device__ inline lg__lanemask_t lg__lanes_below(void)
{
    return (((lg__lanemask_t)1) << lg__lane_id()) - 1;
}

/* ---- the emulated wave: two warps, shared memory, a named barrier ------------------- */
#if defined(LG_WAVE_EMULATED)

/* A slot of 64 8-byte words a wave: the scratch every primitive passes
 * values through (the static __shared__ is one array per block). */
__device__ inline unsigned long long *lg__wave_slot(void)
{
    __shared__ unsigned long long slots[LG_MAX_BLOCK / 64][64];
    return slots[lg__wave_id()];
}

/* All 64 threads of this logical wave meet here (barrier 0 is __syncthreads). */
__device__ inline void lg__wave_sync(void)
{
    asm volatile("bar.sync %0, %1;" ::"r"(1 + lg__wave_id()), "r"(64) : "memory");
}

template <class T> __device__ inline unsigned long long lg__bits(T x)
{
    unsigned long long b = 0;
    __builtin_memcpy(&b, &x, sizeof x);
    return b;
}

template <class T> __device__ inline T lg__from_bits(unsigned long long b)
{
    T x;
    __builtin_memcpy(&x, &b, sizeof x);
    return x;
}
#endif

/* The mask of lanes whose pred is true.  Example: pred = (lane is odd) gives
 * 0xAAAAAAAAAAAAAAAA with 64 lanes, 0xAAAAAAAA with 32. */
__device__ inline lg__lanemask_t lg__wave_ballot(bool pred)
{
#if defined(LG_GPU_AMD)
    return (lg__lanemask_t)__ballot(pred);
#elif defined(LG_WAVE_EMULATED)
    unsigned long long *slot = lg__wave_slot();
    unsigned half = __ballot_sync(LG_FULL_WARP, pred);
    if ((threadIdx.x & 31) == 0)
        slot[lg__lane_id() >> 5] = half;
    lg__wave_sync();
    lg__lanemask_t m = slot[0] | (slot[1] << 32);
    lg__wave_sync();
    return m;
#else
    return __ballot_sync(LG_FULL_WARP, pred);
#endif
}

/* Whether pred holds in some lane / in every lane.  Example: pred = (lane ==
 * 3): any is true, all is false, in either width. */
__device__ inline bool lg__wave_any(bool pred)
{
#if defined(LG_WAVE_EMULATED)
    return lg__wave_ballot(pred) != 0;
#elif defined(LG_GPU_AMD)
    return __any(pred);
#else
    return __any_sync(LG_FULL_WARP, pred);
#endif
}

__device__ inline bool lg__wave_all(bool pred)
{
#if defined(LG_WAVE_EMULATED)
    return lg__wave_ballot(pred) == ~(lg__lanemask_t)0;
#elif defined(LG_GPU_AMD)
    return __all(pred);
#else
    return __all_sync(LG_FULL_WARP, pred);
#endif
}

/* x of lane src (0 <= src < LG_WAVE_SIZE) in every lane.  Example: x = 10 *
 * lane, src = LG_WAVE_SIZE - 1: every lane gets 630 (64 lanes) or 310 (32).
 * T: int, unsigned, long long, unsigned long long, float or double. */
template <class T> __device__ inline T lg__wave_shfl(T x, int src)
{
#if defined(LG_GPU_AMD)
    return __shfl(x, src, LG_WAVE_SIZE);
#elif defined(LG_WAVE_EMULATED)
    unsigned long long *slot = lg__wave_slot();
    slot[lg__lane_id()] = lg__bits(x);
    lg__wave_sync();
    T y = lg__from_bits<T>(slot[src]);
    lg__wave_sync();
    return y;
#else
    return __shfl_sync(LG_FULL_WARP, x, src);
#endif
}

/* Butterfly sum over aligned groups of `width` lanes within one hardware
 * wave (width a power of two <= the hardware width). */
template <int width, class T> __device__ inline T lg__hw_group_sum(T x)
{
#pragma unroll
    for (int d = width / 2; d > 0; d /= 2) {
#if defined(LG_GPU_AMD)
        x += __shfl_xor(x, d, width);
#else
        x += __shfl_xor_sync(LG_FULL_WARP, x, d, width);
#endif
    }
    return x;
}

/* The sum of x over each aligned group of G lanes (G a power of two, 1 <= G
 * <= LG_WAVE_SIZE), in every lane of the group.  Example: x = lane, G = 4:
 * lanes 0-3 get 6, lanes 4-7 get 22, ... lanes 60-63 get 246 (64 lanes).
 * Summation order is fixed, so the result is the same on every run. */
template <int G, class T> __device__ inline T lg__group_sum(T x)
{
    static_assert(G >= 1 && G <= LG_WAVE_SIZE && (G & (G - 1)) == 0, "G: a power of two <= wave");
#if defined(LG_WAVE_EMULATED)
    if (G == 64) {
        unsigned long long *slot = lg__wave_slot();
        T half = lg__hw_group_sum<32>(x);
        if ((threadIdx.x & 31) == 0)
            slot[lg__lane_id() >> 5] = lg__bits(half);
        lg__wave_sync();
        T total = lg__from_bits<T>(slot[0]) + lg__from_bits<T>(slot[1]);
        lg__wave_sync();
        return total;
    }
    return lg__hw_group_sum<(G < 32 ? G : 32)>(x);
#else
    return lg__hw_group_sum<G>(x);
#endif
}

/* The sum of x over the wave, in every lane.  Example: x = lane + 1: 2080 with
 * 64 lanes, 528 with 32. */
template <class T> __device__ inline T lg__wave_sum(T x)
{
    return lg__group_sum<LG_WAVE_SIZE>(x);
}

/* Exclusive prefix sum over the lanes; *total gets the wave's sum (in every
 * lane).  Example: x = 1 in every lane: lane i gets i, total = LG_WAVE_SIZE.
 * x = lane + 1: lane i gets i * (i + 1) / 2, total 2080 (64) or 528 (32). */
template <class T> __device__ inline T lg__wave_exclusive_sum(T x, T *total)
{
    const int lane = lg__lane_id();
    T inc = x;
#if defined(LG_WAVE_EMULATED)
    const int hw = 32, hw_lane = lane & 31;
#else
    const int hw = LG_WAVE_SIZE, hw_lane = lane;
#endif
    for (int d = 1; d < hw; d *= 2) { /* Hillis-Steele inclusive scan */
#if defined(LG_GPU_AMD)
        T y = __shfl_up(inc, d, LG_WAVE_SIZE);
#else
        T y = __shfl_up_sync(LG_FULL_WARP, inc, d);
#endif
        if (hw_lane >= d)
            inc += y;
    }
#if defined(LG_WAVE_EMULATED)
    unsigned long long *slot = lg__wave_slot();
    if (hw_lane == 31)
        slot[lane >> 5] = lg__bits(inc);
    lg__wave_sync();
    T low = lg__from_bits<T>(slot[0]), high = lg__from_bits<T>(slot[1]);
    lg__wave_sync();
    if (lane >= 32)
        inc += low;
    *total = low + high;
#else
    *total = lg__wave_shfl(inc, LG_WAVE_SIZE - 1);
#endif
    return inc - x;
}

/* Wave-aggregated atomic increment: every lane with active set gets its own
 * slot from *counter, with one atomic add for the whole wave (the leader,
 * the lowest active lane, adds the count; the others take the base plus
 * their rank).  Inactive lanes get -1.  Example: *counter = 100, active =
 * (lane is even): lane 0 gets 100, lane 2 gets 101, lane 2k gets 100 + k,
 * and *counter becomes 132 (64 lanes) or 116 (32). */
__device__ inline long long lg__wave_atomic_inc(unsigned long long *counter, bool active)
{
    lg__lanemask_t mask = lg__wave_ballot(active);
    if (mask == 0)
        return -1;
    const int leader = lg__first_lane(mask);
    unsigned long long base = 0;
    if (lg__lane_id() == leader)
        base = atomicAdd(counter, (unsigned long long)lg__popc(mask));
    base = lg__wave_shfl(base, leader);
    return active ? (long long)(base + (unsigned long long)lg__popc(mask & lg__lanes_below())) : -1;
}

/* The sum of x over the block, in every thread (uses one __syncthreads pair
 * and a word of shared memory a wave; blockDim.x <= LG_MAX_BLOCK). */
template <class T> __device__ inline T lg__block_sum(T x)
{
    __shared__ T partial[LG_MAX_BLOCK / LG_WAVE_SIZE];
    const int waves = (int)(blockDim.x / LG_WAVE_SIZE);
    T w = lg__wave_sum(x);
    if (lg__lane_id() == 0)
        partial[lg__wave_id()] = w;
    __syncthreads();
    T total = 0;
    for (int i = 0; i < waves; i++) /* the same order in every thread */
        total += partial[i];
    __syncthreads();
    return total;
}

/* Exclusive prefix sum over the threads of the block in thread order;
 * *total gets the block's sum (in every thread).  Uses one __syncthreads
 * pair and a word of shared memory a wave; every thread of the block calls
 * it together.  Example: x = t + 1 in thread t of a 256-thread block: thread
 * t gets t * (t + 1) / 2, total 32896. */
template <class T> __device__ inline T lg__block_exclusive_sum(T x, T *total)
{
    __shared__ T partial[LG_MAX_BLOCK / LG_WAVE_SIZE];
    const int waves = (int)(blockDim.x / LG_WAVE_SIZE), me = lg__wave_id();
    T wave_total;
    const T within = lg__wave_exclusive_sum(x, &wave_total);
    if (lg__lane_id() == 0)
        partial[me] = wave_total;
    __syncthreads();
    T before = 0, all = 0;
    for (int i = 0; i < waves; i++) { /* the same order in every thread */
        if (i == me)
            before = all;
        all += partial[i];
    }
    __syncthreads();
    *total = all;
    return before + within;
}

#endif /* LG_WAVE_H */
