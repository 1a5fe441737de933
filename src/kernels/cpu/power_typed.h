/*
 * power_typed.h - the typed half of power.h: a row's gather-sum, a block
 * of the linear iteration, the eigenvector's normalization and the
 * iteration itself over vectors of POWER_REAL (double or float), each
 * function named through POWER_FN (its _f64 or _f32 name).  power.h
 * includes it once for each type; no include guard, and the two macros are
 * undefined at the end.
 */
#define R POWER_REAL

/* The sum over arcs [e, end) of x[idx[e]] times the arc's weight (w64, w
 * or 1: lg_arc_weight), in double, in pairwise trees of 4 (no chain of
 * dependent adds an arc: pagerank_rows.h says why). */
static inline double POWER_FN(power_row)(const R *x, const lg_vertex_t *idx, const float *w,
                                         const double *w64, lg_edge_t e, lg_edge_t end)
{
#define X(i) ((double)x[idx[i]])
    double sum = 0.0;
    if (w64) {
        for (; end - e >= 4; e += 4)
            sum += (X(e) * w64[e] + X(e + 1) * w64[e + 1]) +
                   (X(e + 2) * w64[e + 2] + X(e + 3) * w64[e + 3]);
        for (; e < end; e++)
            sum += X(e) * w64[e];
    } else if (w) {
        for (; end - e >= 4; e += 4)
            sum += (X(e) * (double)w[e] + X(e + 1) * (double)w[e + 1]) +
                   (X(e + 2) * (double)w[e + 2] + X(e + 3) * (double)w[e + 3]);
        for (; e < end; e++)
            sum += X(e) * (double)w[e];
    } else {
        for (; end - e >= 4; e += 4)
            sum += (X(e) + X(e + 1)) + (X(e + 2) + X(e + 3));
        for (; e < end; e++)
            sum += X(e);
    }
    return sum;
#undef X
}

static inline double POWER_FN(power_sum)(const struct power_rows *r, const R *x, int64_t v)
{
    return POWER_FN(power_row)(x, r->idx, r->w, r->w64, r->off[v], r->off[v + 1]);
}

struct POWER_FN(power_pass) {
    const struct power_rows *rows;
    const struct lg_power_args *a;
    const R *x;
    R *y;
};

/* y = scale * A^T x + keep * x + b over block k's rows; its sum of y^2 and
 * of |y - x| (of y as stored). */
static inline void POWER_FN(power_block)(const struct POWER_FN(power_pass) * p,
                                         const struct power_blocks *b, int64_t k)
{
    const struct lg_power_args *a = p->a;
    int64_t v0, v1;
    power_block_rows(b, k, &v0, &v1);
    double sq = 0.0, change = 0.0;
    for (int64_t v = v0; v < v1; v++) {
        const double bv = a->b ? a->b[v] : a->b0;
        const double xv = p->x[v];
        const R yv = (R)(a->scale * POWER_FN(power_sum)(p->rows, p->x, v) + a->keep * xv + bv);
        p->y[v] = yv;
        sq += (double)yv * (double)yv;
        change += fabs((double)yv - xv);
    }
    b->part[2 * k] = sq;
    b->part[2 * k + 1] = change;
}

/* x = y / norm over block k's rows, and the block's sum |x' - x|. */
static inline void POWER_FN(unit_block)(R *x, const R *y, double norm, const struct power_blocks *b,
                                        int64_t k)
{
    int64_t v0, v1;
    power_block_rows(b, k, &v0, &v1);
    double change = 0.0;
    for (int64_t v = v0; v < v1; v++) {
        const R xv = (R)((double)y[v] / norm);
        change += fabs((double)xv - (double)x[v]);
        x[v] = xv;
    }
    b->part[2 * k] = 0.0;
    b->part[2 * k + 1] = change;
}

static inline lg_status_t POWER_FN(power_iteration)(const struct lg_exec *exec,
                                                    const struct lg_graph_view *g,
                                                    const struct lg_power_args *a)
{
    const int64_t n = g->n;
    const int threads = lg__team_size(exec->num_threads, n + g->m);
    const struct power_rows rows = power_rows_of(&g->in, a->use_weights);
    lg_status_t st = LG_OK;
    struct power_blocks blocks = {0, 0, 0, 0, NULL};
    R *x = lg__alloc_array((size_t)n, sizeof *x, "power iteration vector");
    R *y = lg__alloc_array((size_t)n, sizeof *y, "power iteration vector");
    R *out = a->x;
    if (!x || !y || !power_blocks_make(&blocks, n, threads, "power iteration sums")) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    for (int64_t v = 0; v < n; v++)
        x[v] = (R)(a->x0 ? a->x0[v] / a->x0_divisor : a->x0_fill);
    int iter = 0;
    double err = 0.0;
    bool converged = false;
    while (iter < a->max_iter && !converged) {
        const struct POWER_FN(power_pass) p = {&rows, a, x, y};
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int64_t k = 0; k < blocks.count; k++)
            POWER_FN(power_block)(&p, &blocks, k);
        double sq, change;
        power_blocks_sum(&blocks, &sq, &change);
        if (a->unit_each) {
            /* NetworkX takes a norm of 0 (numerically impossible for a
             * non-negative start, but weights may be negative) as 1 */
            const double norm = sq > 0.0 ? sqrt(sq) : 1.0;
#pragma omp parallel for num_threads(threads) schedule(static)
            for (int64_t k = 0; k < blocks.count; k++)
                POWER_FN(unit_block)(x, y, norm, &blocks, k);
            power_blocks_sum(&blocks, &sq, &change);
        } else {
            R *t = x;
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
            sq += (double)x[v] * (double)x[v];
        if (sq > 0.0)
            scale = 1.0 / sqrt(sq);
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++)
        out[v] = (R)((double)x[v] * scale);
    a->result->iterations = iter;
    a->result->residual = err;
    a->result->converged = converged;
cleanup:
    lg__free(x);
    lg__free(y);
    lg__free(blocks.part);
    return st;
}

#undef R
#undef POWER_REAL
#undef POWER_FN
