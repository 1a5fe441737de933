/*
 * vec_lsx.h - vec.h's primitives in LoongArch's vector extensions: LASX
 * (256-bit) when the target has it (-march=la464), else LSX (128-bit); no
 * compress instruction in either.  The compaction of bitmap words tests 4
 * words a step (one LASX register, or two LSX ones folded) for any bit set
 * (xbnz.v / bnz.v), skipping a step without one; a step with one is stored
 * branch-free, a word at a time.
 */
#ifndef LIBGRAPH_VEC_LSX_H
#define LIBGRAPH_VEC_LSX_H

#if defined(__loongarch_asx)
#include <lasxintrin.h>

#define LG_VEC_ISA "LASX"
#define LG_VEC_COMPACT_U64 1

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
#define LG_VEC_COMPACT_U64 1

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
