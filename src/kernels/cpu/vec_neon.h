/*
 * vec_neon.h - vec.h's primitives in Arm's NEON (Advanced SIMD, every
 * aarch64 CPU), which has no compress instruction: the compaction of
 * bitmap words loads two registers a step (4 words), folds them and tests
 * them with an across-lanes reduction, skipping a step without a set bit;
 * a step with one is stored branch-free, a word at a time.
 */
#ifndef LIBGRAPH_VEC_NEON_H
#define LIBGRAPH_VEC_NEON_H

#include <arm_neon.h>

#define LG_VEC_ISA "NEON"
#define LG_VEC_COMPACT_U64 1

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
