/*
 * hits_typed.h - HITS's iteration over vectors of POWER_REAL (double or
 * float), its functions named through POWER_FN; hits.c includes it once for
 * each type (no include guard; the macros are undefined at the end).
 */
#define R POWER_REAL

/* y = the pull of x over rows' arcs for block k (a = A^T h over the
 * in-edges, h = A a over the out-edges); its largest entry in part[2k]. */
static void POWER_FN(pull_block)(const struct power_rows *rows, const R *x, R *y,
                                 const struct power_blocks *b, int64_t k)
{
    int64_t v0, v1;
    power_block_rows(b, k, &v0, &v1);
    double most = 0.0;
    for (int64_t v = v0; v < v1; v++) {
        y[v] = (R)POWER_FN(power_sum)(rows, x, v);
        most = (double)y[v] > most ? (double)y[v] : most;
    }
    b->part[2 * k] = most;
    b->part[2 * k + 1] = 0.0;
}

/* x *= s over block k, and the block's sum |x' - last| (last NULL: 0). */
static void POWER_FN(scale_block)(R *x, double s, const R *last, const struct power_blocks *b,
                                  int64_t k)
{
    int64_t v0, v1;
    power_block_rows(b, k, &v0, &v1);
    double change = 0.0;
    for (int64_t v = v0; v < v1; v++) {
        x[v] = (R)((double)x[v] * s);
        change += last ? fabs((double)x[v] - (double)last[v]) : 0.0;
    }
    b->part[2 * k] = 0.0;
    b->part[2 * k + 1] = change;
}

static lg_status_t POWER_FN(hits)(const struct lg_exec *exec, const struct lg_graph_view *g,
                                  const struct lg_hits_args *a)
{
    const int64_t n = g->n;
    const int threads = lg__team_size(exec->num_threads, n + 2 * g->m);
    const struct power_rows in = power_rows_of(&g->in, a->use_weights),
                            out = power_rows_of(&g->out, a->use_weights);
    lg_status_t st = LG_OK;
    struct power_blocks blocks = {0, 0, 0, 0, NULL};
    R *h = lg__alloc_array((size_t)n, sizeof *h, "HITS hubs");
    R *hn = lg__alloc_array((size_t)n, sizeof *hn, "HITS hubs");
    R *au = lg__alloc_array((size_t)n, sizeof *au, "HITS authorities");
    if (!h || !hn || !au || !power_blocks_make(&blocks, n, threads, "HITS sums")) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    if (a->h0) {
        double sum = 0.0;
        for (int64_t v = 0; v < n; v++)
            sum += a->h0[v];
        const double s = 1.0 / sum;
        for (int64_t v = 0; v < n; v++)
            h[v] = (R)(a->h0[v] * s);
    } else {
        for (int64_t v = 0; v < n; v++)
            h[v] = (R)(1.0 / (double)n);
    }
    int iter = 0;
    double err = 0.0;
    bool converged = false, no_hubs = false;
    while (iter < a->max_iter && !converged) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int64_t k = 0; k < blocks.count; k++)
            POWER_FN(pull_block)(&in, h, au, &blocks, k);
        const double most_a = largest(&blocks);
        /* a scaled before h = A a (NetworkX scales both after): the same
         * h once scaled, and no overflow of h where weights are large */
        if ((no_hubs = !(most_a > 0.0)))
            break;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t k = 0; k < blocks.count; k++)
            POWER_FN(scale_block)(au, 1.0 / most_a, NULL, &blocks, k);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (int64_t k = 0; k < blocks.count; k++)
            POWER_FN(pull_block)(&out, au, hn, &blocks, k);
        const double most_h = largest(&blocks);
        if ((no_hubs = !(most_h > 0.0)))
            break;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t k = 0; k < blocks.count; k++)
            POWER_FN(scale_block)(hn, 1.0 / most_h, h, &blocks, k);
        double unused;
        power_blocks_sum(&blocks, &unused, &err);
        R *t = h;
        h = hn;
        hn = t;
        iter++;
        converged = err < a->tol;
        if (!lg_exec_go_on(exec, LG_STAGE_HITS, iter, a->max_iter, err) && !converged &&
            iter < a->max_iter) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
    }
    if (no_hubs) {
        st = lg__error(LG_ERR_INVALID_ARGUMENT,
                       "lg_hits: every hub score is 0 after an iteration (no arc of positive "
                       "weight leaves a vertex of the start vector)");
        goto cleanup;
    }
    double sh = 1.0, sa = 1.0;
    if (converged && a->normalized) {
        double sum_h = 0.0, sum_a = 0.0;
        for (int64_t v = 0; v < n; v++) {
            sum_h += (double)h[v];
            sum_a += (double)au[v];
        }
        sh = 1.0 / sum_h;
        sa = 1.0 / sum_a;
    }
    /* max_iter 0: the start hubs, and authorities not yet computed (0) */
    if (iter == 0)
        memset(au, 0, (size_t)n * sizeof *au);
    R *hubs = a->hubs, *authorities = a->authorities;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) {
        hubs[v] = (R)((double)h[v] * sh);
        authorities[v] = (R)((double)au[v] * sa);
    }
    a->result->iterations = iter;
    a->result->residual = err;
    a->result->converged = converged;
cleanup:
    lg__free(h);
    lg__free(hn);
    lg__free(au);
    lg__free(blocks.part);
    return st;
}

#undef R
#undef POWER_REAL
#undef POWER_FN
