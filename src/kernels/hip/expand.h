/*
 * expand.h - load-balanced expansion of rows: every thread of a block may
 * hold one row (a vertex u and its arc range [begin, end)), and the block
 * visits every arc of every row, whatever the mix of row lengths.
 *
 * Method: the fine-grained gather of Merrill, Garland and Grimshaw,
 * "Scalable GPU Graph Traversal", PPoPP'12 (the "TWC" strategy):
 *   1. rows of at least a block's threads are taken one at a time by the
 *      whole block (the threads holding one bid for the block through
 *      shared memory; one wins each round);
 *   2. rows of at least a wave are taken one at a time by the whole wave
 *      (a ballot picks the lowest lane holding one, and shuffles spread its
 *      row to the others);
 *   3. what is left, rows shorter than a wave, each lane walks alone, in
 *      steps the wave takes together, as long as any lane has an arc left.
 * Steps 1 and 2 read a row's arcs side by side (coalesced); step 3 wastes
 * at most a wave's worth of steps on its longest row.
 *
 * visit(u, v, e, valid) is called by every lane of the block together
 * (converged), once a step: valid says whether this lane holds arc e from u
 * to v = idx[e] in this step; lanes without one pass false (v and e are then
 * meaningless).  Being converged, visit may use wave.h's primitives (an
 * output queue through lg__wave_atomic_inc, for one).
 *
 * Preconditions: every thread of the block calls expand_rows together (it
 * uses __syncthreads), with blockDim.x a multiple of LG_WAVE_SIZE.
 */
#ifndef LG_EXPAND_H
#define LG_EXPAND_H

#include "gpu.h"

template <class Visit>
__device__ inline void lg__expand_rows(lg_vertex_t u, lg_edge_t begin, lg_edge_t end,
                                       const lg_vertex_t *idx, Visit &visit)
{
    __shared__ int owner;
    __shared__ lg_vertex_t owner_u;
    __shared__ lg_edge_t owner_begin, owner_end;

    /* 1. block-sized rows, the whole block on each */
    for (;;) {
        if (threadIdx.x == 0)
            owner = -1;
        __syncthreads();
        if (end - begin >= (lg_edge_t)blockDim.x)
            owner = (int)threadIdx.x; /* any one of the bidders wins */
        __syncthreads();
        const int o = owner;
        if (o < 0)
            break; /* every thread read -1: the block leaves together */
        if ((int)threadIdx.x == o) {
            owner_u = u;
            owner_begin = begin;
            owner_end = end;
            begin = end;
        }
        __syncthreads();
        const lg_vertex_t ou = owner_u;
        const lg_edge_t ob = owner_begin, oe = owner_end;
        for (lg_edge_t e0 = ob; e0 < oe; e0 += blockDim.x) {
            const lg_edge_t e = e0 + threadIdx.x;
            const bool valid = e < oe;
            visit(ou, valid ? lg__ldg(idx + e) : 0, e, valid);
        }
        __syncthreads(); /* before the next round rewrites the owner's row */
    }

    /* 2. wave-sized rows, the whole wave on each */
    for (;;) {
        const lg__lanemask_t big = lg__wave_ballot(end - begin >= LG_WAVE_SIZE);
        if (!big)
            break;
        const int leader = lg__first_lane(big);
        const lg_vertex_t ou = lg__wave_shfl((int)u, leader);
        const lg_edge_t ob = (lg_edge_t)lg__wave_shfl((long long)begin, leader);
        const lg_edge_t oe = (lg_edge_t)lg__wave_shfl((long long)end, leader);
        if (lg__lane_id() == leader)
            begin = end;
        for (lg_edge_t e0 = ob; e0 < oe; e0 += LG_WAVE_SIZE) {
            const lg_edge_t e = e0 + lg__lane_id();
            const bool valid = e < oe;
            visit(ou, valid ? lg__ldg(idx + e) : 0, e, valid);
        }
    }

    /* 3. short rows, each lane its own, the wave stepping together */
    for (lg_edge_t e = begin; lg__wave_any(e < end); e++) {
        const bool valid = e < end;
        visit(u, valid ? lg__ldg(idx + e) : 0, e, valid);
    }
}

#endif /* LG_EXPAND_H */
