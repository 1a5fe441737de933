/*
 * vec.h - the CPU kernels' vector primitives: one header per instruction
 * set, chosen by what the compiler targets (-march), and the portable C
 * path otherwise.
 *
 * Most streaming loops need no intrinsics: they are written for the
 * compiler's vectoriser and marked LG_SIMD / LG_SIMD_SUM(...) (an OpenMP
 * `simd` pragma, with a reduction; -fopenmp-simd in serial builds;
 * LG_SIMD_SUM_WIDENING for sums wider than the data, below).  The headers
 * hold only what compilers do not vectorise: a compaction (the indices of
 * the elements that pass a test, packed), with which the frontier bitmap's
 * conversion lists its non-empty words; and sums over gathered elements,
 * which gcc 12 vectorises for SVE only with emulated gathers.
 *
 *   lg__vec_compact_nonzero_u64(a, i, end, out)   the j in [i, end) with a[j] != 0 into out;
 *                   returns the count (out has room for end - i)
 *   LG_VEC_ISA      the instruction set, for lg_build_info (on x86-64, SSE2 or AVX2: the
 *                   compiler's vector loops with the portable compactions; "none" for the
 *                   scalar twins)
 *   LG_VEC_GATHER   1 where the ISA has indexed vector loads (SVE, RVV), with
 *     lg__vec_gather_sum_f64(c, idx, w, e, end)   PageRank's row sums, sum of c[idx[k]]
 *     lg__vec_gather_sum_f32(c, idx, w, e, end)   (times w[k]) over [e, end), in double
 *                   (pagerank.c says why there are none elsewhere)
 *   LG_VEC_FINISH_F32 where the compiler's loop falls short (gcc 12 for SVE), with
 *     lg__vec_finish_f32(...)  PageRank's float streaming pass (vec_sve.h)
 *
 * Every kernel file is compiled twice (cmake/sources.cmake): as it is, and
 * as its scalar twin with LG_VEC_SCALAR defined and the vectorisers off,
 * which the tests run against the vector path and bench/isa_count.c counts
 * instructions of (docs/PORTABILITY.md).
 */
#ifndef LIBGRAPH_VEC_H
#define LIBGRAPH_VEC_H

#include "libgraph.h" /* lg_vertex_t */

#include <stdint.h>

#include "vec_scalar.h"

/* A streaming pass: a function of its own, kept out of line (it runs once
 * over a block of hundreds of elements or more, so the call costs nothing)
 * so that bench/isa_count.c can count its instructions alone under qemu. */
#if defined(__GNUC__)
#define LG_PASS static __attribute__((noinline))
#else
#define LG_PASS static
#endif

#define LG_SIMD_PRAGMA(x) _Pragma(#x)
#if defined(LG_VEC_SCALAR)
#define LG_SIMD
#define LG_SIMD_SUM(...)
#define LG_SIMD_SUM_WIDENING(...)
#else
#define LG_SIMD _Pragma("omp simd")
#define LG_SIMD_SUM_WIDENING(...) LG_SIMD_PRAGMA(omp simd reduction(+ : __VA_ARGS__))
#if defined(__ARM_FEATURE_SVE) && !defined(__clang__)
/* gcc 12 makes an `omp simd` reduction 128-bit arrays on the stack (NEON
 * width, whatever the SVE length); its own vectoriser makes the same loop
 * a vector-length agnostic SVE loop with in-order sums (fadda), which give
 * the scalar loop's results, in half the instructions
 * (tools/isa-counts.sh).  It cannot when the sums are wider than the data
 * (float data, double sums): LG_SIMD_SUM_WIDENING keeps the pragma. */
#define LG_SIMD_SUM(...)
#else
#define LG_SIMD_SUM(...) LG_SIMD_SUM_WIDENING(__VA_ARGS__)
#endif
#endif

#if defined(LG_VEC_SCALAR)
#define LG_VEC_ISA "none"
#elif defined(__ARM_FEATURE_SVE)
#include "vec_sve.h"
#elif defined(__ARM_NEON)
#include "vec_neon.h"
#elif defined(__riscv_vector)
#include "vec_rvv.h"
#elif defined(__loongarch_sx)
#include "vec_lsx.h"
#elif defined(__AVX2__) /* the compiler's vector loops; the compactions portable */
#define LG_VEC_ISA "AVX2"
#elif defined(__SSE2__)
#define LG_VEC_ISA "SSE2"
#else
#define LG_VEC_ISA "none"
#endif

/* Whether the target is a scalable-vector ISA with gathers (SVE, RVV).
 * PageRank takes there, in the vector path and its scalar twin alike, the
 * shape that pays only with vector gathers: a block's rows gathered before
 * a streaming pass over it.  Elsewhere each row's update follows its sum,
 * in the gathers' shadow: split, a urand:20 PageRank ran 2.8% slower on
 * x86-64 (2 threads, paired rounds: docs/decisions/vector-paths-per-isa.md). */
#if defined(__ARM_FEATURE_SVE) || defined(__riscv_vector)
#define LG_VEC_SCALABLE 1
#else
#define LG_VEC_SCALABLE 0
#endif

#ifndef LG_VEC_GATHER
#define LG_VEC_GATHER 0
#endif
#ifndef LG_VEC_COMPACT_U64 /* else the ISA header has its own */
#define lg__vec_compact_nonzero_u64 lg__scalar_compact_nonzero_u64
#endif

#endif /* LIBGRAPH_VEC_H */
