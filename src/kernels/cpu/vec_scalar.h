/*
 * vec_scalar.h - the portable scans of vec.h: one element a step.  Every
 * build has them; they are the scalar twin's scans and the reference the
 * vector ones are tested against (tests/test_vector_paths.c).
 */
#ifndef LIBGRAPH_VEC_SCALAR_H
#define LIBGRAPH_VEC_SCALAR_H

#include <stdint.h>

static inline int64_t lg__scalar_next_negative_i32(const int32_t *a, int64_t i, int64_t end)
{
    while (i < end && a[i] >= 0)
        i++;
    return i;
}

static inline int64_t lg__scalar_next_nonzero_u64(const uint64_t *a, int64_t i, int64_t end)
{
    while (i < end && a[i] == 0)
        i++;
    return i;
}

#endif /* LIBGRAPH_VEC_SCALAR_H */
