/*
 * vec_scalar.h - the portable compaction of vec.h: one element a step.
 * Every build has them; they are the scalar twin's and the reference the
 * vector ones are tested against (tests/test_vector_paths.c).
 */
#ifndef LIBGRAPH_VEC_SCALAR_H
#define LIBGRAPH_VEC_SCALAR_H

#include "libgraph.h" /* lg_vertex_t */

#include <stdint.h>

static inline int64_t lg__scalar_compact_nonzero_u64(const uint64_t *a, int64_t i, int64_t end,
                                                     int64_t *out)
{
    int64_t count = 0;
    for (; i < end; i++)
        if (a[i] != 0)
            out[count++] = i;
    return count;
}

#endif /* LIBGRAPH_VEC_SCALAR_H */
