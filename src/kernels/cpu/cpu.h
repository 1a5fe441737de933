/*
 * cpu.h - the CPU kernels, as the kernel table (kernels.c) sees them.
 * Arguments arrive validated by the algorithm's entry point
 * (src/algorithms/), with the in-edges built when the kernel's row says it
 * reads them.
 */
#ifndef LIBGRAPH_CPU_H
#define LIBGRAPH_CPU_H

#include "internal.h"

/* Each kernel file defines its algorithm's row (kernels.h): LG_CPU_ROW(name)
 * is lg__cpu_<name>_row, or lg__cpu_<name>_scalar_row in the file's scalar
 * twin (the same file built with LG_VEC_SCALAR and the vectorisers off:
 * vec.h, cmake/sources.cmake), which lg__cpu_vector_paths(0) selects. */
#if defined(LG_VEC_SCALAR)
#define LG_CPU_ROW(name) lg__cpu_##name##_scalar_row
#define LG_CPU_TWIN(name) lg__cpu_##name##_scalar
#else
#define LG_CPU_ROW(name) lg__cpu_##name##_row
#define LG_CPU_TWIN(name) lg__cpu_##name
#endif
#define LG_CPU_ROW_DECLARE(ID, name, gpu)                                                          \
    LG_INTERNAL extern const struct lg_kernel lg__cpu_##name##_row, lg__cpu_##name##_scalar_row;
LG_ALGORITHMS(LG_CPU_ROW_DECLARE)
#undef LG_CPU_ROW_DECLARE

/* What two kernel files share, named apart in each twin by LG_CPU_TWIN:
 * Brandes's counting (betweenness.c), per vertex or, per_arc, per arc (the
 * edge betweenness of edge_betweenness.c); targets NULL, or a subset's
 * (betweenness_subset.c: a byte a vertex, and the subset's scaling). */
struct lg_betweenness_args;
#define LG_CPU_BRANDES_DECLARE(fn)                                                                 \
    LG_INTERNAL lg_status_t fn(const struct lg_exec *x, const struct lg_graph_view *g,             \
                               const struct lg_betweenness_args *a, bool per_arc,                  \
                               const unsigned char *targets);
LG_CPU_BRANDES_DECLARE(lg__cpu_brandes)
LG_CPU_BRANDES_DECLARE(lg__cpu_brandes_scalar)
#undef LG_CPU_BRANDES_DECLARE

/* The CPU's kernel for an algorithm: every algorithm has one, its vector
 * path's row or, after lg__cpu_vector_paths(0), its scalar twin's. */
LG_INTERNAL const struct lg_kernel *lg__cpu_kernel(enum lg_algorithm_id id);
/* The instruction set of the vector paths (vec.h's LG_VEC_ISA), for
 * lg_build_info. */
LG_INTERNAL const char *lg__cpu_isa(void);

/* Vertices a dynamically scheduled task of a loop over n vertices takes:
 * `most`, or fewer on small graphs so that every thread gets work (at least
 * 16 tasks a thread); always a multiple of 64, so that tasks own whole
 * 64-bit bitmap words and whole cache lines of 8-byte vectors.  A fixed
 * `most` would make a graph of a few thousand vertices one task and leave
 * the other threads idle. */
static inline int64_t lg__task_vertices(int64_t n, int threads, int64_t most)
{
    const int64_t k = n / ((int64_t)threads * 16) / 64 * 64;
    return k < 64 ? 64 : k > most ? most : k;
}

/* Runs run(work, first, last) over [0, count) in steps of at least `least`
 * items, `per_thread` a thread when that is more, each step one parallel
 * region of run's, and tells the call's progress callback (stage, items
 * done of count) between steps; LG_ERR_CANCELLED when it says stop
 * (betweenness's sources, closeness's vertices). */
static inline lg_status_t lg__cpu_in_steps(
    const struct lg_exec *x, lg_stage_t stage, int64_t count, int64_t least, int64_t per_thread,
    int threads, void (*run)(const void *work, int64_t first, int64_t last), const void *work)
{
    const int64_t step = least > per_thread * threads ? least : per_thread * threads;
    for (int64_t first = 0; first < count; first += step) {
        const int64_t last = count - first < step ? count : first + step;
        run(work, first, last);
        if (!lg_exec_go_on(x, stage, last, count, 0.0))
            return LG_ERR_CANCELLED;
    }
    return LG_OK;
}

#endif
