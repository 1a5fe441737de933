/*
 * vec_sve.h - vec.h's primitives in Arm's Scalable Vector Extension,
 * vector-length agnostic: whilelt makes the predicate of the elements left
 * (so the tail needs no scalar loop).  A compaction compares into a
 * predicate of hits and, when there are any, packs the element indices
 * (index) under it (compact) and stores as many as it counts (cntp).
 */
#ifndef LIBGRAPH_VEC_SVE_H
#define LIBGRAPH_VEC_SVE_H

#include <arm_sve.h>

#define LG_VEC_ISA "SVE"
#define LG_VEC_GATHER 1
#define LG_VEC_COMPACT_U64 1

static inline int64_t lg__vec_compact_nonzero_u64(const uint64_t *a, int64_t i, int64_t end,
                                                  int64_t *out)
{
    int64_t count = 0;
    for (; i < end; i += (int64_t)svcntd()) {
        const svbool_t pg = svwhilelt_b64_s64(i, end);
        const svbool_t hit = svcmpne_n_u64(pg, svld1_u64(pg, a + i), 0);
        if (svptest_any(pg, hit)) {
            const uint64_t hits = svcntp_b64(pg, hit);
            svst1_s64(svwhilelt_b64_u64(0, hits), out + count,
                      svcompact_s64(hit, svindex_s64(i, 1)));
            count += (int64_t)hits;
        }
    }
    return count;
}

/* PageRank's gather-sums: the sum over k in [e, end) of c[idx[k]] (times
 * w[k] when w is not NULL), in double.  A gather (ld1d, or ld1w into the
 * low half of 64-bit lanes for float contributions, widened by fcvt) with
 * the 32-bit indices sign-extended into 64-bit lanes (ld1sw); each lane
 * keeps its own sum, reduced at the end (faddv). */
static inline double lg__vec_gather_sum_f64(const double *c, const lg_vertex_t *idx, const float *w,
                                            int64_t e, int64_t end)
{
    svfloat64_t acc = svdup_n_f64(0.0);
    for (int64_t k = e; k < end; k += (int64_t)svcntd()) {
        const svbool_t pg = svwhilelt_b64_s64(k, end);
        svfloat64_t x = svld1_gather_s64index_f64(pg, c, svld1sw_s64(pg, idx + k));
        if (w)
            x = svmul_f64_x(pg, x,
                            svcvt_f64_f32_x(pg, svreinterpret_f32_u64(
                                                    svld1uw_u64(pg, (const uint32_t *)w + k))));
        acc = svadd_f64_m(pg, acc, x);
    }
    return svaddv_f64(svptrue_b64(), acc);
}

static inline double lg__vec_gather_sum_f32(const float *c, const lg_vertex_t *idx, const float *w,
                                            int64_t e, int64_t end)
{
    svfloat64_t acc = svdup_n_f64(0.0);
    for (int64_t k = e; k < end; k += (int64_t)svcntd()) {
        const svbool_t pg = svwhilelt_b64_s64(k, end);
        svfloat32_t x = svreinterpret_f32_u64(
            svld1uw_gather_s64index_u64(pg, (const uint32_t *)c, svld1sw_s64(pg, idx + k)));
        if (w) /* the float product, as the scalar path makes it (even .s lanes) */
            x = svmul_f32_x(pg, x, svreinterpret_f32_u64(svld1uw_u64(pg, (const uint32_t *)w + k)));
        acc = svadd_f64_m(pg, acc, svcvt_f64_f32_x(pg, x));
    }
    return svaddv_f64(svptrue_b64(), acc);
}

/* PageRank's float streaming pass (pagerank.c, finish_block_f32, uniform
 * p and d): for i < len
 *   x' = alpha * ((float)sum[i] + du) + pu,  err += |x' - x[i]| (double),
 *   x[i] = x',  out[i] = x' * inv[i],  *dangling += x' where inv[i] == 0;
 * returns err.  gcc 12 vectorises this loop (float data, double sums) only
 * at 128 bits; here the elements sit in 64-bit lanes (float in the low
 * half: ld1w/st1w into and out of .d containers, fcvt between widths), so
 * one vector length serves both widths. */
#define LG_VEC_FINISH_F32 1
static inline double lg__vec_finish_f32(float *x, const double *sum, const float *inv, float *out,
                                        int64_t len, float alpha, float du, float pu,
                                        double *dangling)
{
    svfloat64_t err = svdup_n_f64(0.0), dang = svdup_n_f64(0.0);
    for (int64_t i = 0; i < len; i += (int64_t)svcntd()) {
        const svbool_t pg = svwhilelt_b64_s64(i, len);
        const svfloat32_t s = svcvt_f32_f64_x(pg, svld1_f64(pg, sum + i));
        const svfloat32_t old = svreinterpret_f32_u64(svld1uw_u64(pg, (const uint32_t *)x + i));
        const svfloat32_t w = svreinterpret_f32_u64(svld1uw_u64(pg, (const uint32_t *)inv + i));
        const svfloat32_t xv =
            svadd_n_f32_x(pg, svmul_n_f32_x(pg, svadd_n_f32_x(pg, s, du), alpha), pu);
        const svfloat64_t xd = svcvt_f64_f32_x(pg, xv);
        err = svadd_f64_m(pg, err, svabd_f64_x(pg, xd, svcvt_f64_f32_x(pg, old)));
        dang = svadd_f64_m(svcmpeq_n_f32(pg, w, 0.0f), dang, xd);
        svst1w_u64(pg, (uint32_t *)x + i, svreinterpret_u64_f32(xv));
        svst1w_u64(pg, (uint32_t *)out + i, svreinterpret_u64_f32(svmul_f32_x(pg, xv, w)));
    }
    *dangling = svaddv_f64(svptrue_b64(), dang);
    return svaddv_f64(svptrue_b64(), err);
}

#endif /* LIBGRAPH_VEC_SVE_H */
