/*
 * vec_neon.h - vec.h's primitives in Arm's NEON (Advanced SIMD, every
 * aarch64 CPU), which has no compress instruction: a compaction loads two
 * registers a step (8 int32 or 4 uint64), folds them and tests them with an
 * across-lanes reduction, skipping a step without hits; a step with hits
 * is stored branch-free, one element at a time.
 */
#ifndef LIBGRAPH_VEC_NEON_H
#define LIBGRAPH_VEC_NEON_H

#include <arm_neon.h>

#define LG_VEC_ISA "NEON"
#define LG_VEC_COMPACT 1

static inline int64_t lg__vec_compact_negative_i32(const int32_t *a, int64_t i, int64_t end,
                                                   lg_vertex_t *out)
{
    int64_t count = 0;
    for (; end - i >= 8; i += 8) {
        if (vminvq_s32(vminq_s32(vld1q_s32(a + i), vld1q_s32(a + i + 4))) >= 0)
            continue;
        for (int64_t k = i; k < i + 8; k++) { /* branch-free: hits are many here */
            out[count] = (lg_vertex_t)k;
            count += a[k] < 0;
        }
    }
    return count + lg__scalar_compact_negative_i32(a, i, end, out + count);
}

static inline int64_t lg__vec_compact_nonzero_u64(const uint64_t *a, int64_t i, int64_t end,
                                                  int64_t *out)
{
    int64_t count = 0;
    for (; end - i >= 4; i += 4) {
        const uint64x2_t any = vorrq_u64(vld1q_u64(a + i), vld1q_u64(a + i + 2));
        if (vmaxvq_u32(vreinterpretq_u32_u64(any)) == 0)
            continue;
        for (int64_t k = i; k < i + 4; k++) {
            out[count] = k;
            count += a[k] != 0;
        }
    }
    return count + lg__scalar_compact_nonzero_u64(a, i, end, out + count);
}

#endif /* LIBGRAPH_VEC_NEON_H */
