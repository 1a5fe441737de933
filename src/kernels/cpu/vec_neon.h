/*
 * vec_neon.h - vec.h's scans in Arm's NEON (Advanced SIMD, every aarch64
 * CPU): 128-bit registers, two a step (8 int32 or 4 uint64) folded into one
 * and tested with an across-lanes reduction; the hit's index inside the
 * step is then found by the portable scan (at most 7 more elements).
 */
#ifndef LIBGRAPH_VEC_NEON_H
#define LIBGRAPH_VEC_NEON_H

#include <arm_neon.h>

#define LG_VEC_ISA "NEON"
#define LG_VEC_SCANS 1

static inline int64_t lg__vec_next_negative_i32(const int32_t *a, int64_t i, int64_t end)
{
    for (; end - i >= 8; i += 8)
        if (vminvq_s32(vminq_s32(vld1q_s32(a + i), vld1q_s32(a + i + 4))) < 0)
            break;
    return lg__scalar_next_negative_i32(a, i, end);
}

static inline int64_t lg__vec_next_nonzero_u64(const uint64_t *a, int64_t i, int64_t end)
{
    for (; end - i >= 4; i += 4) {
        const uint64x2_t any = vorrq_u64(vld1q_u64(a + i), vld1q_u64(a + i + 2));
        if (vmaxvq_u32(vreinterpretq_u32_u64(any)) != 0)
            break;
    }
    return lg__scalar_next_nonzero_u64(a, i, end);
}

#endif /* LIBGRAPH_VEC_NEON_H */
