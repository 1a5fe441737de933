/*
 * vec_sve.h - vec.h's scans in Arm's Scalable Vector Extension, vector-length
 * agnostic: whilelt makes the predicate of the elements left (so the tail
 * needs no scalar loop), the compare a predicate of hits, and brkb ("break
 * before") keeps the lanes before the first hit, whose count is its index.
 */
#ifndef LIBGRAPH_VEC_SVE_H
#define LIBGRAPH_VEC_SVE_H

#include <arm_sve.h>

#define LG_VEC_ISA "SVE"
#define LG_VEC_GATHER 1
#define LG_VEC_SCANS 1

static inline int64_t lg__vec_next_negative_i32(const int32_t *a, int64_t i, int64_t end)
{
    for (; i < end; i += (int64_t)svcntw()) {
        const svbool_t pg = svwhilelt_b32_s64(i, end);
        const svbool_t hit = svcmplt_n_s32(pg, svld1_s32(pg, a + i), 0);
        if (svptest_any(pg, hit))
            return i + (int64_t)svcntp_b32(pg, svbrkb_b_z(pg, hit));
    }
    return end;
}

static inline int64_t lg__vec_next_nonzero_u64(const uint64_t *a, int64_t i, int64_t end)
{
    for (; i < end; i += (int64_t)svcntd()) {
        const svbool_t pg = svwhilelt_b64_s64(i, end);
        const svbool_t hit = svcmpne_n_u64(pg, svld1_u64(pg, a + i), 0);
        if (svptest_any(pg, hit))
            return i + (int64_t)svcntp_b64(pg, svbrkb_b_z(pg, hit));
    }
    return end;
}

#endif /* LIBGRAPH_VEC_SVE_H */
