/*
 * pagerank_rows.h - the gather-sum of one PageRank row: the sum over its
 * in-arcs of the contributions c[u] (times the weight), in pairwise trees,
 * in one loop a row (float, where the rule picks it), or as vector gathers
 * where the ISA has them.  Included by pagerank.c (and its scalar twin).
 */
#ifndef LG_PAGERANK_ROWS_H
#define LG_PAGERANK_ROWS_H

#include "pagerank.h"
#include "vec.h"

/* The gather-sums are plain scalar loops on x86-64 and NEON, on purpose.
 * The loop is bound by the random loads of c[], not by arithmetic: a
 * compiler's vectorisation of it (OpenMP SIMD, AVX2) emulates the gathers
 * with scalar loads and shuffles and is slower, and hardware gathers (AVX2
 * vgatherdps) are no faster than scalar loads.  But the adds must not form
 * one long chain: a row summed into a single running sum waits an add's
 * latency (3-4 cycles) an arc, which bounds a cache-resident graph
 * outright and, on large ones, limits how many gathers the core keeps in
 * flight.  So rows are summed in short pairwise trees (4 arcs in double, 8
 * in float, F32_RUN) added into the row's sum -- except float rows whose
 * gathers land in the last-level cache, which are summed in one loop a row
 * (row_loop_f32: there a second loop exit a row costs more than the chain;
 * lg__one_loop_pays has the rule).  Where the ISA has indexed
 * vector loads of its own (SVE's ld1d/ld1w with a vector of indices, RVV's
 * vluxei64), a row is one vector loop (LG_VEC_GATHER: vec_sve.h,
 * vec_rvv.h; gcc 12 vectorises the loop for SVE only with emulated
 * gathers): its lanes are the pairwise tree's independent sums, and it
 * retires a few instructions a vector of arcs instead of three an arc
 * (docs/PORTABILITY.md). */

/* Arcs a float run sums before it is added to the row's double sum.  A row
 * summed wholly in double pays a conversion and a double add per arc, a
 * visible share of a gather-bound loop; a row summed wholly in float loses
 * precision as rows grow.  Runs of 8 keep most of float's speed and the
 * precision of double sums: float PageRank converges as far as with double
 * sums, where longer runs (16, 64) stall above a tolerance the tests ask for.
 * A run is written out (run8) rather than a loop inside the row's loop: one
 * loop exit less to mispredict per row, and eight independent loads in
 * sight.  (The vector gathers sum float arcs in double lanes.) */
#if !LG_VEC_GATHER
#define F32_RUN 8
_Static_assert(F32_RUN == 8, "run8 and run8_weighted sum 8 arcs");

/* c[idx[0]] + ... + c[idx[7]] as a pairwise tree (three adds deep, not
 * seven: see above). */
static inline float run8(const float *c, const lg_vertex_t *idx)
{
    return ((c[idx[0]] + c[idx[1]]) + (c[idx[2]] + c[idx[3]])) +
           ((c[idx[4]] + c[idx[5]]) + (c[idx[6]] + c[idx[7]]));
}

static inline float run8_weighted(const float *c, const lg_vertex_t *idx, const float *w)
{
    return ((c[idx[0]] * w[0] + c[idx[1]] * w[1]) + (c[idx[2]] * w[2] + c[idx[3]] * w[3])) +
           ((c[idx[4]] * w[4] + c[idx[5]] * w[5]) + (c[idx[6]] * w[6] + c[idx[7]] * w[7]));
}
#endif

/* The sum over arcs [e, end) of c[idx[e]] (times w[e] when weighted). */
static inline double row_sum_f64(const double *c, const lg_vertex_t *idx, const float *w,
                                 lg_edge_t e, lg_edge_t end)
{
#if LG_VEC_GATHER
    return lg__vec_gather_sum_f64(c, idx, w, e, end);
#else
    double sum = 0.0;
    if (w) {
        for (; end - e >= 4; e += 4)
            sum += (c[idx[e]] * (double)w[e] + c[idx[e + 1]] * (double)w[e + 1]) +
                   (c[idx[e + 2]] * (double)w[e + 2] + c[idx[e + 3]] * (double)w[e + 3]);
        for (; e < end; e++)
            sum += c[idx[e]] * (double)w[e];
    } else {
        for (; end - e >= 4; e += 4)
            sum += (c[idx[e]] + c[idx[e + 1]]) + (c[idx[e + 2]] + c[idx[e + 3]]);
        for (; e < end; e++)
            sum += c[idx[e]];
    }
    return sum;
#endif
}

/* The same over float contributions: float runs of F32_RUN arcs added up in
 * double (double lanes where the gathers are vectors). */
static inline double row_sum_f32(const float *c, const lg_vertex_t *idx, const float *w,
                                 lg_edge_t e, lg_edge_t end)
{
#if LG_VEC_GATHER
    return lg__vec_gather_sum_f32(c, idx, w, e, end);
#else
    double sum = 0.0;
    float run = 0.0f;
    if (w) {
        for (; end - e >= F32_RUN; e += F32_RUN)
            sum += run8_weighted(c, idx + e, w + e);
        for (; e < end; e++)
            run += c[idx[e]] * w[e];
    } else {
        for (; end - e >= F32_RUN; e += F32_RUN)
            sum += run8(c, idx + e);
        for (; e < end; e++)
            run += c[idx[e]];
    }
    sum += run;
    return sum;
#endif
}

#if !LG_VEC_SCALABLE
/*
 * row_sum_f32's sum in one loop a row (s->one_loop; the rule is
 * lg__one_loop_pays): runs of F32_RUN arcs flushed into the row's double sum
 * as the loop reaches them (float sums as short as row_sum_f32's, added in a
 * chain, not a tree).  One loop exit a row where the trees have two (runs,
 * then the rest), but the adds form a chain.  (In double one loop a row
 * showed no gain through the noise: docs/decisions/pagerank-row-sums.md.)
 */
static inline double row_loop_f32(const float *c, const lg_vertex_t *idx, const float *w,
                                  lg_edge_t e, lg_edge_t end)
{
    double sum = 0.0;
    float run = 0.0f;
    const lg_edge_t start = e;
    if (w) {
        for (; e < end; e++) {
            run += c[idx[e]] * w[e];
            if (((e - start) & (F32_RUN - 1)) == F32_RUN - 1) {
                sum += run;
                run = 0.0f;
            }
        }
    } else {
        for (; e < end; e++) {
            run += c[idx[e]];
            if (((e - start) & (F32_RUN - 1)) == F32_RUN - 1) {
                sum += run;
                run = 0.0f;
            }
        }
    }
    return sum + run;
}
#endif

#endif
