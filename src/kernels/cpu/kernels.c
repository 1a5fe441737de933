/*
 * kernels.c - the CPU's kernel table (src/graph/kernels.h): the rows that
 * the OpenMP kernels of this folder define, one for every algorithm of
 * algorithms.h, by algorithm id.
 */
#include "cpu.h"
#include "vec.h"

/* Whether the kernels' vector paths run (1, the default) or their scalar
 * twins (0: tests and bench/isa_count.c; vec.h). */
static atomic_int vector_paths = 1;

int lg__cpu_vector_paths(int on)
{
    return on < 0 ? atomic_load(&vector_paths) : atomic_exchange(&vector_paths, on != 0);
}

static bool vectors(void)
{
    return atomic_load_explicit(&vector_paths, memory_order_relaxed);
}

/* The rows by algorithm id, vector paths and scalar twins. */
#define LG_CPU_ROW_VECTOR(ID, name, gpu) [LG_ALG_##ID] = &lg__cpu_##name##_row,
#define LG_CPU_ROW_SCALAR(ID, name, gpu) [LG_ALG_##ID] = &lg__cpu_##name##_scalar_row,
static const struct lg_kernel *const vector_rows[LG_ALG_COUNT] = {LG_ALGORITHMS(LG_CPU_ROW_VECTOR)};
static const struct lg_kernel *const scalar_rows[LG_ALG_COUNT] = {LG_ALGORITHMS(LG_CPU_ROW_SCALAR)};

const char *lg__cpu_isa(void)
{
    return LG_VEC_ISA;
}

const struct lg_kernel *lg__cpu_kernel(enum lg_algorithm_id id)
{
    return (vectors() ? vector_rows : scalar_rows)[id];
}
