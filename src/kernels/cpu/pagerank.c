/*
 * pagerank.c - PageRank on the CPU.
 *
 * Returns: scores[v], the PageRank of v, with networkx.pagerank's semantics
 * (see lg_pagerank in libgraph.h), in double or float.
 *
 * Method: power iteration (Page, Brin, Motwani, Winograd 1999) in Jacobi form,
 * pulling over in-edges so that each score is written by one thread and no
 * atomics are needed:
 *
 *   c[u]    = x[u] / outweight[u]          (0 for a dangling u)
 *   D       = sum of x over dangling vertices
 *   x'[v]   = alpha * (sum over arcs u->v of c[u] * w(u,v) + D * d[v])
 *             + (1 - alpha) * p[v]
 *   stop after the first iteration whose sum |x' - x| < N * tol.
 *
 * p is the normalised personalization (uniform by default), d the normalised
 * dangling vector (p by default), x starts at the normalised nstart (uniform by
 * default).  A vertex is dangling when its out-weight is 0, as in NetworkX,
 * where zero-weight edges count for nothing.  Parallel edges add.
 *
 * Hub order: on graphs of skewed degree whose contribution vector outgrows
 * the caches, c is stored in degree-based grouping order (DBG: Faldu,
 * Diamond, Grot, IISWC'19), so that the few high-degree vertices most
 * gathers hit share a few cache lines (hub_order.c).
 *
 * Cost per iteration: one pass over the in-edges (CSC, built once and cached
 * on the graph) plus O(n); the next iteration's contributions and dangling
 * mass are computed in the same pass as the scores, so each iteration is one
 * parallel loop, and the scores are updated in place (only the
 * contributions are double-buffered).  The gather-sums are scalar loops of
 * short pairwise trees or of one chain a row, or vector loops where the ISA
 * gathers (pagerank_rows.h); there (SVE, RVV) the rest of a block
 * is a vector pass after its gathers, elsewhere each row's update follows
 * its sum.  Memory: 4 vectors of n (one more in float), and for the hub
 * order a copy of the in-edge index for the call.  The float variant keeps the vectors in
 * float, sums each vertex's in-edges in float runs added up in double and
 * the convergence test in double (and runs in double when an out-weight is
 * too small for float to divide by).
 */
#include "pagerank.h"
#include "cpu.h"
#include "hub_order.h"
#include "pagerank_rows.h"
#include "vec.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A vector option normalised to sum 1, or NULL when it is uniform. */
static double *normalised(const double *v, int64_t n, const char *what)
{
    if (!v)
        return NULL;
    double *out = lg__alloc_array((size_t)n, sizeof *out, what);
    if (!out)
        return NULL;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++)
        sum += v[i];
    for (int64_t i = 0; i < n; i++)
        out[i] = v[i] / sum;
    return out;
}

/* Rows a pull task takes at most: enough to amortise the call, few enough to
 * balance power-law rows (fewer on small graphs: lg__task_vertices). */
#define PULL_BLOCK 1024

/*
 * The streaming pass of a block of a Jacobi step in double: for i < len,
 * with sum[i] the gather-sum of row v0 + i,
 *   x'[v] = alpha * (sum[i] + dangling * d[v]) + (1 - alpha) * p[v]
 * written over x[v] once |x'[v] - x[v]| is added to the error, the next
 * iteration's contribution x'[v] / outweight[v] into out[i] and the
 * dangling mass summed.  A vector loop (LG_SIMD_SUM) for the uniform p and
 * d every benchmark uses.  (sum is not const: gcc 12 takes a const pointer
 * to a stack array written only up to len for a read of all of it.)
 */
LG_PASS struct pr_sums finish_block_f64(const struct pr_setup *s, double *restrict x,
                                        double *restrict sum, double dangling, double *restrict out,
                                        int64_t v0, int64_t len)
{
    const double alpha = s->alpha, uniform = 1.0 / (double)s->n;
    const double *inv = s->inv_out + v0;
    double *xb = x + v0;
    double err = 0.0, dangling_next = 0.0;
    if (!s->p && !s->d) {
        const double du = dangling * uniform, pu = (1.0 - alpha) * uniform;
        LG_SIMD_SUM(err, dangling_next)
        for (int64_t i = 0; i < len; i++) {
            const double xv = alpha * (sum[i] + du) + pu;
            err += fabs(xv - xb[i]);
            xb[i] = xv;
            out[i] = xv * inv[i];
            dangling_next += inv[i] == 0.0 ? xv : 0.0;
        }
    } else {
        for (int64_t i = 0; i < len; i++) {
            const double dv = s->d ? s->d[v0 + i] : uniform, pv = s->p ? s->p[v0 + i] : uniform;
            const double xv = alpha * (sum[i] + dangling * dv) + (1.0 - alpha) * pv;
            err += fabs(xv - xb[i]);
            xb[i] = xv;
            out[i] = xv * inv[i];
            dangling_next += inv[i] == 0.0 ? xv : 0.0;
        }
    }
    struct pr_sums r = {err, dangling_next};
    return r;
}

/* The same in float: the vectors in float, the row sums, error and
 * dangling mass in double. */
LG_PASS struct pr_sums finish_block_f32(const struct pr_setup *s, float *restrict x,
                                        double *restrict sum, double dangling, float *restrict out,
                                        int64_t v0, int64_t len)
{
    const float alpha = (float)s->alpha, uniform = (float)(1.0 / (double)s->n);
    const float *inv = s->inv_out_f + v0;
    float *xb = x + v0;
    double err = 0.0, dangling_next = 0.0;
    if (!s->p && !s->d) {
        const float du = (float)dangling * uniform, pu = (1.0f - alpha) * uniform;
#ifdef LG_VEC_FINISH_F32
        err = lg__vec_finish_f32(xb, sum, inv, out, len, alpha, du, pu, &dangling_next);
#else
        LG_SIMD_SUM_WIDENING(err, dangling_next)
        for (int64_t i = 0; i < len; i++) {
            const float xv = alpha * ((float)sum[i] + du) + pu;
            err += fabs((double)xv - (double)xb[i]);
            xb[i] = xv;
            out[i] = xv * inv[i];
            dangling_next += inv[i] == 0.0f ? (double)xv : 0.0;
        }
#endif
    } else {
        for (int64_t i = 0; i < len; i++) {
            const float dv = s->d ? (float)s->d[v0 + i] : uniform,
                        pv = s->p ? (float)s->p[v0 + i] : uniform;
            const float xv = alpha * ((float)sum[i] + (float)dangling * dv) + (1.0f - alpha) * pv;
            err += fabs((double)xv - (double)xb[i]);
            xb[i] = xv;
            out[i] = xv * inv[i];
            dangling_next += inv[i] == 0.0f ? (double)xv : 0.0;
        }
    }
    struct pr_sums r = {err, dangling_next};
    return r;
}

#if LG_VEC_SCALABLE
/*
 * One block of a Jacobi step, rows [v0, v1): the rows' gather-sums (the
 * gathers read only c, so x can be updated in place), then the streaming
 * pass, whose next contributions go straight into cn, or through a buffer
 * when cn is in hub order (cn[rank[v]]).
 */
static struct pr_sums pull_block_f64(const struct pr_setup *s, double *x, const double *c,
                                     double dangling, double *cn, int64_t v0, int64_t v1)
{
    double sum[PULL_BLOCK], next[PULL_BLOCK];
    const int64_t len = v1 - v0;
    for (int64_t i = 0; i < len; i++)
        sum[i] = row_sum_f64(c, s->idx, s->w, s->off[v0 + i], s->off[v0 + i + 1]);
    struct pr_sums r = finish_block_f64(s, x, sum, dangling, s->rank ? next : cn + v0, v0, len);
    if (s->rank)
        for (int64_t i = 0; i < len; i++)
            cn[s->rank[v0 + i]] = next[i];
    return r;
}

static struct pr_sums pull_block_f32(const struct pr_setup *s, float *x, const float *c,
                                     double dangling, float *cn, int64_t v0, int64_t v1)
{
    double sum[PULL_BLOCK];
    float next[PULL_BLOCK];
    const int64_t len = v1 - v0;
    for (int64_t i = 0; i < len; i++)
        sum[i] = row_sum_f32(c, s->idx, s->w, s->off[v0 + i], s->off[v0 + i + 1]);
    struct pr_sums r = finish_block_f32(s, x, sum, dangling, s->rank ? next : cn + v0, v0, len);
    if (s->rank)
        for (int64_t i = 0; i < len; i++)
            cn[s->rank[v0 + i]] = next[i];
    return r;
}

#else
/*
 * One block of a Jacobi step, rows [v0, v1), each row's update right after
 * its gather-sum: for v in [v0, v1)
 *   x'[v] = alpha * (sum over in-arcs u->v of c[u] * w + dangling * d[v]) + (1 - alpha) * p[v]
 * written over x[v] once |x'[v] - x[v]| is added to the error (the gathers
 * read only c, so x can be updated in place), and the next iteration's
 * contribution cn[v] = x'[v] / outweight[v] and its dangling mass.  The
 * update's few instructions run in the shadow of the row's gathers; a
 * separate vector pass over the block (below) costs more than it saves
 * where the gathers are scalar (x86-64: docs/decisions/vector-paths-per-isa.md).
 */
static struct pr_sums pull_block_f64(const struct pr_setup *s, double *x, const double *c,
                                     double dangling, double *cn, int64_t v0, int64_t v1)
{
    const double alpha = s->alpha, uniform = 1.0 / (double)s->n;
    struct pr_sums out = {0.0, 0.0};
    for (int64_t v = v0; v < v1; v++) {
        const double sum = row_sum_f64(c, s->idx, s->w, s->off[v], s->off[v + 1]);
        const double dv = s->d ? s->d[v] : uniform, pv = s->p ? s->p[v] : uniform;
        const double xv = alpha * (sum + dangling * dv) + (1.0 - alpha) * pv;
        out.err += fabs(xv - x[v]);
        x[v] = xv;
        cn[s->rank ? s->rank[v] : v] = xv * s->inv_out[v];
        if (s->inv_out[v] == 0.0)
            out.dangling += xv;
    }
    return out;
}

/* The same in float: the vectors in float, the row sums, error and
 * dangling mass in double. */
static struct pr_sums pull_block_f32(const struct pr_setup *s, float *x, const float *c,
                                     double dangling, float *cn, int64_t v0, int64_t v1)
{
    const float alpha = (float)s->alpha, uniform = (float)(1.0 / (double)s->n);
    struct pr_sums out = {0.0, 0.0};
    for (int64_t v = v0; v < v1; v++) {
        const double sum = s->one_loop ? row_loop_f32(c, s->idx, s->w, s->off[v], s->off[v + 1])
                                       : row_sum_f32(c, s->idx, s->w, s->off[v], s->off[v + 1]);
        const float dv = s->d ? (float)s->d[v] : uniform, pv = s->p ? (float)s->p[v] : uniform;
        const float xv = alpha * ((float)sum + (float)dangling * dv) + (1.0f - alpha) * pv;
        out.err += fabs((double)xv - (double)x[v]);
        x[v] = xv;
        cn[s->rank ? s->rank[v] : v] = xv * s->inv_out_f[v];
        if (s->inv_out_f[v] == 0.0f)
            out.dangling += xv;
    }
    return out;
}

#endif

/* One iteration over all rows; returns the sums for the next. */
static struct pr_sums step(const struct pr_setup *s, bool f64, void *x, const void *c,
                           double dangling, void *cn)
{
    const int64_t rows = lg__task_vertices(s->n, s->threads, PULL_BLOCK);
    const int64_t blocks = (s->n + rows - 1) / rows;
    double err = 0.0, next_dangling = 0.0;
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1) \
    reduction(+ : err, next_dangling)
    for (int64_t b = 0; b < blocks; b++) {
        int64_t v0 = b * rows, v1 = v0 + rows < s->n ? v0 + rows : s->n;
        struct pr_sums part = f64 ? pull_block_f64(s, x, c, dangling, cn, v0, v1)
                                  : pull_block_f32(s, x, c, dangling, cn, v0, v1);
        err += part.err;
        next_dangling += part.dangling;
    }
    struct pr_sums total = {err, next_dangling};
    return total;
}

/* Pairs a task of the segmented pull takes. */
#define SEG_PAIRS 2048

/* One iteration over the segmented in-arcs (pagerank_segments.c): segment
 * after segment, every thread on pairs of the same segment, each pair's
 * gather-sum added into its row's sum (a barrier between segments, where a
 * row's pairs meet); then the streaming pass over the sums. */
static struct pr_sums step_segmented(const struct pr_setup *s, const struct lg_seg *seg, bool f64,
                                     void *x, const void *c, double dangling, void *cn)
{
    const int64_t n = s->n;
    double *sum = seg->sum;
#pragma omp parallel num_threads(s->threads)
    {
#pragma omp for schedule(static)
        for (int64_t v = 0; v < n; v++)
            sum[v] = 0.0;
        for (int64_t j = 0; j < seg->count; j++) {
            const int64_t p0 = seg->pair_begin[j], p1 = seg->pair_begin[j + 1];
            if (f64) {
#pragma omp for schedule(dynamic, SEG_PAIRS)
                for (int64_t p = p0; p < p1; p++)
                    sum[seg->row[p]] +=
                        row_sum_f64(c, seg->idx, seg->w, seg->off[p], seg->off[p + 1]);
            } else {
#pragma omp for schedule(dynamic, SEG_PAIRS)
                for (int64_t p = p0; p < p1; p++)
                    sum[seg->row[p]] +=
                        row_sum_f32(c, seg->idx, seg->w, seg->off[p], seg->off[p + 1]);
            }
        }
    }
    const int64_t rows = lg__task_vertices(n, s->threads, PULL_BLOCK);
    const int64_t blocks = (n + rows - 1) / rows;
    double err = 0.0, next_dangling = 0.0;
#pragma omp parallel for num_threads(s->threads) schedule(static) reduction(+ : err, next_dangling)
    for (int64_t b = 0; b < blocks; b++) {
        const int64_t v0 = b * rows, len = (v0 + rows < n ? v0 + rows : n) - v0;
        struct pr_sums part =
            f64 ? finish_block_f64(s, x, sum + v0, dangling, (double *)cn + v0, v0, len)
                : finish_block_f32(s, x, sum + v0, dangling, (float *)cn + v0, v0, len);
        err += part.err;
        next_dangling += part.dangling;
    }
    struct pr_sums total = {err, next_dangling};
    return total;
}

/* Iterations still to come after the first, whose L1 change was err. */
static double iterations_expected(const lg_pagerank_options_t *opts, double err, double limit)
{
    const double left = (double)opts->max_iter - 1.0;
    if (!(limit > 0.0) || err <= 0.0 || opts->alpha <= 0.0 || opts->alpha >= 1.0)
        return err < limit ? 0.0 : left;
    const double k = ceil(log(limit / err) / log(opts->alpha));
    return k < 0.0 ? 0.0 : k < left ? k : left;
}

/* Sums of out-weights (or out-degrees when weights are not used) per vertex,
 * in double. */
static void out_weight_sums(const struct lg_graph_view *g, bool use_weights, double *sums,
                            int threads)
{
    const struct lg_csr_view *c = &g->out;
    const bool w = use_weights && c->weights;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t v = 0; v < g->n; v++) {
        double s = 0.0;
        if (w)
            for (lg_edge_t e = c->offsets[v]; e < c->offsets[v + 1]; e++)
                s += c->weights[e];
        else
            s = (double)(c->offsets[v + 1] - c->offsets[v]);
        sums[v] = s;
    }
}

static lg_status_t pagerank(const struct lg_exec *exec, const struct lg_graph_view *g,
                            const void *args)
{
    const struct lg_pagerank_args *a = args;
    const lg_pagerank_options_t *opts = a->opts;
    const lg_precision_t precision = a->precision;
    void *scores = a->scores;
    lg_pagerank_result_t *result = a->result;
    const int threads = lg__team_size(exec->num_threads, g->n + g->m);
    const int64_t n = g->n;
    const bool use_weights = opts->use_weights && g->out.weights;
    lg_status_t st = LG_OK;
    double *inv_out = NULL, *p = NULL, *d = NULL, *x0 = NULL;
    float *inv_out_f = NULL;
    void *x = NULL, *c = NULL, *cn = NULL;
    lg_vertex_t *hub_rank = NULL, *hub_idx = NULL;
    struct lg_seg *seg = NULL;

    inv_out = lg__alloc_array((size_t)n, sizeof *inv_out, "PageRank out-weights");
    if (!inv_out) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    /* An out-weight below float's normal range makes x[u] / outweight[u]
     * overflow float even though every product with a weight is <= x[u],
     * and one above 1 / FLT_MIN makes 1 / outweight subnormal or 0 (no
     * longer telling a dangling vertex): such graphs run the float variant
     * in double and round at the end. */
    out_weight_sums(g, use_weights, inv_out, threads);
    bool tiny_out_weight = false;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(|| : tiny_out_weight)
    for (int64_t v = 0; v < n; v++)
        tiny_out_weight = tiny_out_weight || (inv_out[v] > 0.0 &&
                                              (inv_out[v] < FLT_MIN || inv_out[v] > 1.0 / FLT_MIN));
    const bool wide = precision == LG_PRECISION_F64 || tiny_out_weight;
    const size_t elem = wide ? sizeof(double) : sizeof(float);
    x = lg__alloc_array((size_t)n, elem, "PageRank scores");
    c = lg__alloc_array((size_t)n, elem, "PageRank contributions");
    cn = lg__alloc_array((size_t)n, elem, "PageRank contributions");
    if (!wide)
        inv_out_f = lg__alloc_array((size_t)n, sizeof *inv_out_f, "PageRank out-weights");
    if (!x || !c || !cn || (!wide && !inv_out_f)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }
    p = normalised(opts->personalization, n, "PageRank personalization");
    d = normalised(opts->dangling ? opts->dangling : opts->personalization, n,
                   "PageRank dangling weights");
    x0 = normalised(opts->nstart, n, "PageRank start vector");
    if ((opts->personalization && !p) || ((opts->dangling || opts->personalization) && !d) ||
        (opts->nstart && !x0)) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto cleanup;
    }

    double dangling = 0.0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : dangling)
    for (int64_t v = 0; v < n; v++) {
        inv_out[v] = inv_out[v] > 0.0 ? 1.0 / inv_out[v] : 0.0;
        double start = x0 ? x0[v] : 1.0 / (double)n;
        if (wide) {
            ((double *)x)[v] = start;
            ((double *)c)[v] = start * inv_out[v];
        } else {
            ((float *)x)[v] = (float)start;
            inv_out_f[v] = (float)inv_out[v];
            ((float *)c)[v] = (float)start * inv_out_f[v];
        }
        if (inv_out[v] == 0.0)
            dangling += wide ? start : (double)(float)start;
    }

    struct pr_setup s = {n,
                         opts->alpha,
                         g->in.offsets,
                         g->in.indices,
                         use_weights ? g->in.weights : NULL,
                         inv_out,
                         inv_out_f,
                         p,
                         d,
                         NULL,
                         threads,
                         !wide && !LG_VEC_SCALABLE && lg__one_loop_pays((size_t)n * elem, false)};
    const double limit = (double)n * opts->tol;
    bool converged = false;
    int iter = 0;
    double err = 0.0;
    while (iter < opts->max_iter && !converged) {
        /* after the first iteration, which tells how many more to expect:
         * segments, else hub order, when they pay */
        const double left = iter == 1 ? iterations_expected(opts, err, limit) : 0.0;
        bool reordered = false;
        if (iter == 1 && lg__seg_pays(n, g->m, elem, left))
            reordered = (seg = lg__seg_make(g, use_weights, elem, threads)) != NULL;
        if (iter == 1 && !seg && lg__hub_order_pays(g, threads, (size_t)n * elem, left) &&
            lg__hub_order(g, threads, &hub_rank, &hub_idx)) {
            reordered = true;
            /* c (this iteration's contributions) into hub order */
#pragma omp parallel for num_threads(threads) schedule(static)
            for (int64_t u = 0; u < n; u++) {
                if (wide)
                    ((double *)cn)[hub_rank[u]] = ((const double *)c)[u];
                else
                    ((float *)cn)[hub_rank[u]] = ((const float *)c)[u];
            }
            void *t = c;
            c = cn;
            cn = t;
            s.idx = hub_idx;
            s.rank = hub_rank;
            s.one_loop = !wide && !LG_VEC_SCALABLE && lg__one_loop_pays((size_t)n * elem, true);
        }
        /* the reordering is as long as an iteration or two (kron:22, two
         * threads: 0.5-0.8 s), so it is a step of its own: reported with the
         * iteration count it follows */
        if (reordered && !lg_exec_go_on(exec, LG_STAGE_PAGERANK, iter, opts->max_iter, err)) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
        struct pr_sums sums = seg ? step_segmented(&s, seg, wide, x, c, dangling, cn)
                                  : step(&s, wide, x, c, dangling, cn);
        void *t = c;
        c = cn;
        cn = t;
        err = sums.err;
        dangling = sums.dangling;
        iter++;
        converged = err < limit;
        /* every iteration is reported; a stop counts while work is left */
        if (!lg_exec_go_on(exec, LG_STAGE_PAGERANK, iter, opts->max_iter, err) && !converged &&
            iter < opts->max_iter) {
            st = LG_ERR_CANCELLED;
            goto cleanup;
        }
    }
    /* Into the caller's array by all threads: it is often fresh (a new
     * NumPy array), and faulting its pages in is then most of the copy. */
    if (wide && precision == LG_PRECISION_F32) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t v = 0; v < n; v++)
            ((float *)scores)[v] = (float)((double *)x)[v];
    } else {
        const int64_t block = ((int64_t)1 << 20) / (int64_t)elem, blocks = (n + block - 1) / block;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t b = 0; b < blocks; b++) {
            const int64_t lo = b * block, len = n - lo < block ? n - lo : block;
            memcpy((char *)scores + (size_t)lo * elem, (const char *)x + (size_t)lo * elem,
                   (size_t)len * elem);
        }
    }
    result->iterations = iter;
    result->residual = err;
    result->converged = converged;
    if (!converged)
        st = lg__error(LG_ERR_NOT_CONVERGED,
                       "lg_pagerank: no convergence in %d iterations (last L1 change %g, needs < "
                       "%g); scores hold the last iterate",
                       iter, err, limit);

cleanup:
    lg__free(inv_out);
    lg__free(p);
    lg__free(d);
    lg__free(x0);
    lg__free(x);
    lg__free(c);
    lg__free(inv_out_f);
    lg__free(cn);
    lg__free(hub_rank);
    lg__free(hub_idx);
    lg__seg_free(seg);
    return st;
}

/* Pull PageRank reads the in-edges: each vertex sums its in-neighbours. */
const struct lg_kernel LG_CPU_ROW(pagerank) = {LG_ALG_PAGERANK, pagerank, true};
