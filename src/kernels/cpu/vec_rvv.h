/*
 * vec_rvv.h - vec.h's scans in RISC-V's vector extension (RVV 1.0),
 * vector-length agnostic: vsetvl takes as many elements as the hardware's
 * registers hold (LMUL 4: 32 int32 at VLEN 256), the compare makes a mask
 * and vfirst.m gives the index of its first set bit, or -1.
 */
#ifndef LIBGRAPH_VEC_RVV_H
#define LIBGRAPH_VEC_RVV_H

#include <riscv_vector.h>

#define LG_VEC_ISA "RVV 1.0"
#define LG_VEC_GATHER 1
#define LG_VEC_SCANS 1

static inline int64_t lg__vec_next_negative_i32(const int32_t *a, int64_t i, int64_t end)
{
    while (i < end) {
        const size_t vl = __riscv_vsetvl_e32m4((size_t)(end - i));
        const vint32m4_t x = __riscv_vle32_v_i32m4(a + i, vl);
        const long first = __riscv_vfirst_m_b8(__riscv_vmslt_vx_i32m4_b8(x, 0, vl), vl);
        if (first >= 0)
            return i + first;
        i += (int64_t)vl;
    }
    return end;
}

static inline int64_t lg__vec_next_nonzero_u64(const uint64_t *a, int64_t i, int64_t end)
{
    while (i < end) {
        const size_t vl = __riscv_vsetvl_e64m4((size_t)(end - i));
        const vuint64m4_t x = __riscv_vle64_v_u64m4(a + i, vl);
        const long first = __riscv_vfirst_m_b16(__riscv_vmsne_vx_u64m4_b16(x, 0, vl), vl);
        if (first >= 0)
            return i + first;
        i += (int64_t)vl;
    }
    return end;
}

#endif /* LIBGRAPH_VEC_RVV_H */
