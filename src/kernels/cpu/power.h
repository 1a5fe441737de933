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
 * Cost per iteration: one pass over the in-arcs and one (Katz) or two
 * (eigenvector) over the vertices; memory: 2 vectors of n and 2 sums a
 * block.
 */
#ifndef LIBGRAPH_POWER_H
#define LIBGRAPH_POWER_H

#include "cpu.h"

#include <math.h>

/* Rows a block takes at most (lg__task_vertices: fewer on small graphs). */
#define POWER_BLOCK 1024

/* The sum over arcs [e, end) of x[idx[e]] times the arc's weight (w64, w
 * or 1: lg_arc_weight), in pairwise trees of 4 (no chain of dependent adds
 * an arc: pagerank_rows.h says why). */
static inline double power_row(const double *x, const lg_vertex_t *idx, const float *w,
                               const double *w64, lg_edge_t e, lg_edge_t end)
{
    double sum = 0.0;
    if (w64) {
        for (; end - e >= 4; e += 4)
            sum += (x[idx[e]] * w64[e] + x[idx[e + 1]] * w64[e + 1]) +
                   (x[idx[e + 2]] * w64[e + 2] + x[idx[e + 3]] * w64[e + 3]);
        for (; e < end; e++)
            sum += x[idx[e]] * w64[e];
    } else if (w) {
        for (; end - e >= 4; e += 4)
            sum += (x[idx[e]] * (double)w[e] + x[idx[e + 1]] * (double)w[e + 1]) +
                   (x[idx[e + 2]] * (double)w[e + 2] + x[idx[e + 3]] * (double)w[e + 3]);
        for (; e < end; e++)
            sum += x[idx[e]] * (double)w[e];
    } else {
        for (; end - e >= 4; e += 4)
            sum += (x[idx[e]] + x[idx[e + 1]]) + (x[idx[e + 2]] + x[idx[e + 3]]);
        for (; e < end; e++)
            sum += x[idx[e]];
    }
    return sum;
}

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

static inline double power_sum(const struct power_rows *r, const double *x, int64_t v)
{
    return power_row(x, r->idx, r->w, r->w64, r->off[v], r->off[v + 1]);
}

struct power_pass {
    const struct power_rows *rows;
    const struct lg_power_args *a;
    const double *x;
    double *y;
};

/* y = scale * A^T x + keep * x + b over block k's rows; its sum of y^2 and
 * of |y - x|. */
static inline void power_block(const struct power_pass *p, const struct power_blocks *b, int64_t k)
{
    const struct lg_power_args *a = p->a;
    int64_t v0, v1;
    power_block_rows(b, k, &v0, &v1);
    double sq = 0.0, change = 0.0;
    for (int64_t v = v0; v < v1; v++) {
        const double bv = a->b ? a->b[v] : a->b0;
        const double yv = a->scale * power_sum(p->rows, p->x, v) + a->keep * p->x[v] + bv;
        p->y[v] = yv;
        sq += yv * yv;
        change += fabs(yv - p->x[v]);
    }
    b->part[2 * k] = sq;
    b->part[2 * k + 1] = change;
}

/* x = y / norm over block k's rows, and the block's sum |x' - x|. */
static inline void unit_block(double *x, const double *y, double norm, const struct power_blocks *b,
                              int64_t k)
{
    int64_t v0, v1;
    power_block_rows(b, k, &v0, &v1);
    double change = 0.0;
    for (int64_t v = v0; v < v1; v++) {
        const double xv = y[v] / norm;
        change += fabs(xv - x[v]);
        x[v] = xv;
    }
    b->part[2 * k] = 0.0;
    b->part[2 * k + 1] = change;
}

static inline lg_status_t lg__power_iteration(const struct lg_exec *exec,
                                              const struct lg_graph_view *g, const void *args)
{
    const struct lg_power_args *a = args;
    const int64_t n = g->n;
    const int threads = lg__team_size(exec->num_threads, n + g->m);
    const struct power_rows rows = power_rows_of(&g->in, a->use_weights);
    lg_status_t st = LG_OK;
    struct power_blocks blocks = {0, 0, 0, 0, NULL};
    double *x = lg__alloc_array((size_t)n, sizeof *x, "power iteration vector");
    double *y = lg__alloc_array((size_t)n, sizeof *y, "power iteration vector");
    if (!x || !y || !power_blocks_make(&blocks, n, threads, "power iteration sums")) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    for (int64_t v = 0; v < n; v++)
        x[v] = a->x0 ? a->x0[v] / a->x0_divisor : a->x0_fill;
    int iter = 0;
    double err = 0.0;
    bool converged = false;
    while (iter < a->max_iter && !converged) {
        const struct power_pass p = {&rows, a, x, y};
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int64_t k = 0; k < blocks.count; k++)
            power_block(&p, &blocks, k);
        double sq, change;
        power_blocks_sum(&blocks, &sq, &change);
        if (a->unit_each) {
            /* NetworkX takes a norm of 0 (numerically impossible for a
             * non-negative start, but weights may be negative) as 1 */
            const double norm = sq > 0.0 ? sqrt(sq) : 1.0;
#pragma omp parallel for num_threads(threads) schedule(static)
            for (int64_t k = 0; k < blocks.count; k++)
                unit_block(x, y, norm, &blocks, k);
            power_blocks_sum(&blocks, &sq, &change);
        } else {
            double *t = x;
            x = y;
            y = t;
        }
        err = change;
        iter++;
        converged = err < a->limit;
        if (!lg_exec_go_on(exec, a->stage, iter, a->max_iter, err) && !converged &&
            iter < a->max_iter) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
    }
    double scale = 1.0;
    if (converged && a->unit_at_end) {
        double sq = 0.0;
        for (int64_t v = 0; v < n; v++)
            sq += x[v] * x[v];
        if (sq > 0.0)
            scale = 1.0 / sqrt(sq);
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        a->x[v] = x[v] * scale;
    a->result->iterations = iter;
    a->result->residual = err;
    a->result->converged = converged;
cleanup:
    lg__free(x);
    lg__free(y);
    lg__free(blocks.part);
    return st;
}

#endif
