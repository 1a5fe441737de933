/*
 * vec_rvv.h - vec.h's primitives in RISC-V's vector extension (RVV 1.0),
 * vector-length agnostic: vsetvl takes as many elements as the hardware's
 * registers hold (LMUL 4: 32 int32 at VLEN 256).  A compaction compares a
 * vector into a mask, counts it (vcpop) and, when it has hits, packs the
 * element indices (vid + the base) under it (vcompress) and stores that
 * many.
 */
#ifndef LIBGRAPH_VEC_RVV_H
#define LIBGRAPH_VEC_RVV_H

#include <riscv_vector.h>

#define LG_VEC_ISA "RVV 1.0"
#define LG_VEC_GATHER 1
#define LG_VEC_COMPACT_U64 1

static inline int64_t lg__vec_compact_nonzero_u64(const uint64_t *a, int64_t i, int64_t end,
                                                  int64_t *out)
{
    int64_t count = 0;
    while (i < end) {
        const size_t vl = __riscv_vsetvl_e64m4((size_t)(end - i));
        const vbool16_t hit = __riscv_vmsne_vx_u64m4_b16(__riscv_vle64_v_u64m4(a + i, vl), 0, vl);
        const size_t hits = (size_t)__riscv_vcpop_m_b16(hit, vl);
        if (hits) {
            const vuint64m4_t ids = __riscv_vadd_vx_u64m4(__riscv_vid_v_u64m4(vl), (uint64_t)i, vl);
            __riscv_vse64_v_u64m4((uint64_t *)out + count, __riscv_vcompress_vm_u64m4(ids, hit, vl),
                                  hits);
            count += (int64_t)hits;
        }
        i += (int64_t)vl;
    }
    return count;
}

/* PageRank's gather-sums: the sum over k in [e, end) of c[idx[k]] (times
 * w[k] when w is not NULL), in double.  Indexed loads (vluxei64) of as many
 * arcs as the registers hold, byte offsets widened to 64 bits (a 32-bit
 * offset would overflow past 2^29 vertices); each lane keeps its own sum
 * (tail-undisturbed adds keep the lanes past a short last vl), reduced at
 * the end.  Float contributions are widened into double lanes (vfwadd, or
 * the float product as the scalar path makes it). */
static inline double lg__vec_gather_sum_f64(const double *c, const lg_vertex_t *idx, const float *w,
                                            int64_t e, int64_t end)
{
    const size_t vlmax = __riscv_vsetvlmax_e64m4();
    vfloat64m4_t acc = __riscv_vfmv_v_f_f64m4(0.0, vlmax);
    for (int64_t k = e; k < end;) {
        const size_t vl = __riscv_vsetvl_e64m4((size_t)(end - k));
        const vuint64m4_t off = __riscv_vsll_vx_u64m4(
            __riscv_vzext_vf2_u64m4(__riscv_vle32_v_u32m2((const uint32_t *)idx + k, vl), vl), 3,
            vl);
        const vfloat64m4_t x = __riscv_vluxei64_v_f64m4(c, off, vl);
        if (w)
            acc = __riscv_vfmacc_vv_f64m4_tu(
                acc, x, __riscv_vfwcvt_f_f_v_f64m4(__riscv_vle32_v_f32m2(w + k, vl), vl), vl);
        else
            acc = __riscv_vfadd_vv_f64m4_tu(acc, acc, x, vl);
        k += (int64_t)vl;
    }
    return __riscv_vfmv_f_s_f64m1_f64(
        __riscv_vfredusum_vs_f64m4_f64m1(acc, __riscv_vfmv_s_f_f64m1(0.0, 1), vlmax));
}

static inline double lg__vec_gather_sum_f32(const float *c, const lg_vertex_t *idx, const float *w,
                                            int64_t e, int64_t end)
{
    const size_t vlmax = __riscv_vsetvlmax_e64m4();
    vfloat64m4_t acc = __riscv_vfmv_v_f_f64m4(0.0, vlmax);
    for (int64_t k = e; k < end;) {
        const size_t vl = __riscv_vsetvl_e32m2((size_t)(end - k));
        const vuint64m4_t off = __riscv_vsll_vx_u64m4(
            __riscv_vzext_vf2_u64m4(__riscv_vle32_v_u32m2((const uint32_t *)idx + k, vl), vl), 2,
            vl);
        vfloat32m2_t x = __riscv_vluxei64_v_f32m2(c, off, vl);
        if (w)
            x = __riscv_vfmul_vv_f32m2(x, __riscv_vle32_v_f32m2(w + k, vl), vl);
        acc = __riscv_vfwadd_wv_f64m4_tu(acc, acc, x, vl);
        k += (int64_t)vl;
    }
    return __riscv_vfmv_f_s_f64m1_f64(
        __riscv_vfredusum_vs_f64m4_f64m1(acc, __riscv_vfmv_s_f_f64m1(0.0, 1), vlmax));
}

#endif /* LIBGRAPH_VEC_RVV_H */
