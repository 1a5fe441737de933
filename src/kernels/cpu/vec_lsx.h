/*
 * vec_lsx.h - vec.h's primitives in LoongArch's vector extensions: LASX
 * (256-bit) when the target has it (-march=la464), else LSX (128-bit); no
 * compress instruction in either.  A compaction tests 8 int32 or 4 uint64
 * a step (one LASX register, or two LSX ones folded) for any bit set
 * (xbnz.v / bnz.v), skipping a step without hits; a step with hits is
 * stored branch-free, one element at a time.  (Steps of two LASX registers
 * had hits more often and retired more instructions than the portable
 * loop on the bottom-up BFS: tools/isa-counts.sh.)
 */
#ifndef LIBGRAPH_VEC_LSX_H
#define LIBGRAPH_VEC_LSX_H

#if defined(__loongarch_asx)
#include <lasxintrin.h>

#define LG_VEC_ISA "LASX"
#define LG_VEC_COMPACT 1

static inline int64_t lg__vec_compact_negative_i32(const int32_t *a, int64_t i, int64_t end,
                                                   lg_vertex_t *out)
{
    int64_t count = 0;
    for (; end - i >= 8; i += 8) {
        if (!__lasx_xbnz_v(__lasx_xvslti_w(__lasx_xvld(a + i, 0), 0)))
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
        if (!__lasx_xbnz_v(__lasx_xvld(a + i, 0)))
            continue;
        for (int64_t k = i; k < i + 4; k++) {
            out[count] = k;
            count += a[k] != 0;
        }
    }
    return count + lg__scalar_compact_nonzero_u64(a, i, end, out + count);
}

#else
#include <lsxintrin.h>

#define LG_VEC_ISA "LSX"
#define LG_VEC_COMPACT 1

static inline int64_t lg__vec_compact_negative_i32(const int32_t *a, int64_t i, int64_t end,
                                                   lg_vertex_t *out)
{
    int64_t count = 0;
    for (; end - i >= 8; i += 8) { /* a sign bit set anywhere: OR, then the lanes < 0 */
        const __m128i x = __lsx_vor_v(__lsx_vld(a + i, 0), __lsx_vld(a + i + 4, 0));
        if (!__lsx_bnz_v(__lsx_vslti_w(x, 0)))
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
        if (!__lsx_bnz_v(__lsx_vor_v(__lsx_vld(a + i, 0), __lsx_vld(a + i + 2, 0))))
            continue;
        for (int64_t k = i; k < i + 4; k++) {
            out[count] = k;
            count += a[k] != 0;
        }
    }
    return count + lg__scalar_compact_nonzero_u64(a, i, end, out + count);
}
#endif

#endif /* LIBGRAPH_VEC_LSX_H */
