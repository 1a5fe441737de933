/*
 * power.h - the power iterations on the CPU: a row's gather-sum and a pass
 * over all rows in fixed blocks whose partial sums add up in block order
 * (so that a result does not depend on the threads' schedule), which HITS
 * (hits.c) reads, and the linear iteration that is both the eigenvector
 * kernel (eigenvector.c) and Katz's (katz.c).  Included by each kernel
 * file (and its scalar twin).
 *
 * The linear iteration of struct lg_power_args (algorithms.h) is both
 * NetworkX iterations written as one:
 *
 *   eigenvector  x' = (A^T x + x) / |A^T x + x|_2   (scale 1, keep 1, b 0)
 *   Katz         x' = alpha A^T x + beta            (scale alpha, keep 0)
 *
 * Method: power iteration (von Mises), pulling over the in-edges so that a
 * vertex's entry is one thread's and no atomics are needed.  A pass
 * computes y = scale A^T x + keep x + b and, by blocks in a fixed order,
 * sum y^2 and sum |y - x|; the eigenvector's second pass divides by the
 * norm and sums the change.  Stops after the first iteration whose L1
 * change is below the limit, or after max_iter.
 *
 * Precision: the vectors are double or float (power_typed.h, included
 * once for each); a row's products and sums, the blocks' sums and the
 * scaling are double in both, so a float iteration differs from the
 * double one by the rounding of each stored entry (about 6e-8 of it).
 *
 * Cost per iteration: one pass over the in-arcs and one (Katz) or two
 * (eigenvector) over the vertices; memory: 2 vectors of n (of the call's
 * type) and 2 sums a block.
 */
#ifndef LIBGRAPH_POWER_H
#define LIBGRAPH_POWER_H

#include "cpu.h"

#include <math.h>

/* Rows a block takes at most (lg__task_vertices: fewer on small graphs). */
#define POWER_BLOCK 1024

/* A pass's blocks and their partial sums (two a block). */
struct power_blocks {
    int64_t n, size, count;
    int threads;
    double *part; /* 2 * count */
};

static inline bool power_blocks_make(struct power_blocks *b, int64_t n, int threads,
                                     const char *what)
{
    b->n = n;
    b->threads = threads;
    b->size = lg__task_vertices(n, threads, POWER_BLOCK);
    b->count = (n + b->size - 1) / b->size;
    b->part = lg__alloc_array((size_t)(2 * b->count), sizeof *b->part, what);
    return b->part != NULL;
}

/* The partial sums 0 and 1 added up in block order. */
static inline void power_blocks_sum(const struct power_blocks *b, double *s0, double *s1)
{
    double a = 0.0, c = 0.0;
    for (int64_t k = 0; k < b->count; k++) {
        a += b->part[2 * k];
        c += b->part[2 * k + 1];
    }
    *s0 = a;
    *s1 = c;
}

/* The rows of block k: [*v0, *v1). */
static inline void power_block_rows(const struct power_blocks *b, int64_t k, int64_t *v0,
                                    int64_t *v1)
{
    *v0 = k * b->size;
    *v1 = *v0 + b->size < b->n ? *v0 + b->size : b->n;
}

/* The arcs of rows `r` with the weights a call reads (all NULL: every arc 1). */
struct power_rows {
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    const double *w64;
};

static inline struct power_rows power_rows_of(const struct lg_csr_view *v, bool use_weights)
{
    struct power_rows r = {v->offsets, v->indices, use_weights ? v->weights : NULL,
                           use_weights ? v->weights64 : NULL};
    if (r.w64)
        r.w = NULL;
    return r;
}

#define POWER_REAL double
#define POWER_FN(name) name##_f64
#include "power_typed.h"
#define POWER_REAL float
#define POWER_FN(name) name##_f32
#include "power_typed.h"

/* The linear iteration in the call's precision. */
static inline lg_status_t lg__power_iteration(const struct lg_exec *exec,
                                              const struct lg_graph_view *g, const void *args)
{
    const struct lg_power_args *a = args;
    return a->precision == LG_PRECISION_F32 ? power_iteration_f32(exec, g, a)
                                            : power_iteration_f64(exec, g, a);
}

#endif
