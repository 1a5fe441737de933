/*
 * union_find.h - the concurrent union-find of the components kernels:
 * libgraph's (components.c) and libgraph_dist's (src/dist/components.c).
 *
 * parent[] is a forest in which every parent is smaller than its child, so
 * each root is the smallest id of its tree.  Linking is by index: the larger
 * of two roots is hooked under the smaller with one compare-and-swap, retried
 * if another thread moved the root first (a lock-free union-find in the
 * manner of Anderson and Woll, STOC'91); finds halve paths as they go, with
 * a relaxed store (it only ever points a vertex at an ancestor).
 */
#ifndef LIBGRAPH_UNION_FIND_H
#define LIBGRAPH_UNION_FIND_H

#include <stdint.h>

static inline int32_t lg__uf_find(int32_t *parent, int32_t v)
{
    for (;;) {
        int32_t p = __atomic_load_n(&parent[v], __ATOMIC_RELAXED);
        if (p == v)
            return v;
        int32_t gp = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
        if (gp != p) /* path halving */
            __atomic_store_n(&parent[v], gp, __ATOMIC_RELAXED);
        v = p;
    }
}

static inline void lg__uf_link(int32_t *parent, int32_t u, int32_t v)
{
    for (;;) {
        int32_t ru = lg__uf_find(parent, u), rv = lg__uf_find(parent, v);
        if (ru == rv)
            return;
        int32_t hi = ru > rv ? ru : rv, lo = ru > rv ? rv : ru;
        int32_t expected = hi;
        if (__atomic_compare_exchange_n(&parent[hi], &expected, lo, false, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            return;
    }
}

#endif
