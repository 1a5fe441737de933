/*
 * oracle.h - small, slow, obviously-correct references for libgraph's C tests.
 *
 * Written from the documented semantics in include/libgraph.h alone, never
 * from the library's code, so that a test compares two independent readings
 * of the contract:
 *
 *   or_build        COO edges -> CSR by sorting an arc list with qsort on
 *                   (source, destination, input index) and merging runs
 *   or_transpose    the in-edge (CSC) view, sources ascending per column
 *   or_bfs          a FIFO-queue BFS;  or_check_parents  a BFS-parent checker
 *   or_bfs_multi    the same from many sources at once, optionally depth-limited;
 *                   or_check_parents_multi  its parent checker
 *   or_pagerank     float64 power iteration, networkx._pagerank_scipy's loop
 *   or_components   union-find; labels = smallest id of the component
 *   or_random_edges random test graphs of many shapes
 *
 * Everything is static inline so a test that uses only part of it compiles
 * without unused-function warnings.  Allocation failures abort the test
 * program (the oracles are not under test).
 */
#ifndef LIBGRAPH_TEST_ORACLE_H
#define LIBGRAPH_TEST_ORACLE_H

#include "libgraph.h"
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <unistd.h>
#endif

/*
 * The tests make many thousands of small library calls, each a few OpenMP
 * parallel regions.  Under OpenMP's default (active) wait policy the idle
 * team threads spin between regions, and where there are fewer free cores
 * than threads (a 3-thread context on a 2-core machine, ctest -j) every call
 * then costs milliseconds instead of microseconds.  So a test program re-runs
 * itself once with OMP_WAIT_POLICY=passive, unless the caller chose a policy
 * (the OpenMP runtime reads it only at start-up).  Needs _POSIX_C_SOURCE.
 */
static inline void or_passive_openmp(char **argv)
{
#if defined(__linux__)
    if (argv && argv[0] && !getenv("OMP_WAIT_POLICY")) {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv);
        /* exec failed: go on with the default policy */
    }
#else
    (void)argv;
#endif
}

/* Opens count CPU contexts, ctx[k] with k + 1 threads; false (after printing
 * why) when one cannot be opened.
 *
 * Built with LG_TEST_GPU (the *_gpu tests), the contexts are LG_BACKEND_AUTO
 * ones that must have landed on the GPU: PageRank then runs there, and the
 * algorithms without a GPU kernel fall back to the CPU, so the same oracle
 * comparisons cover both.  When no GPU answers the program exits 77 (ctest's
 * "skipped") after printing the reason. */
static inline bool or_open_contexts(lg_context_t **ctx, int count)
{
#ifdef LG_TEST_GPU
    {
        lg_context_options_t probe_o;
        lg_context_options_init(&probe_o);
        probe_o.backend = LG_BACKEND_GPU;
        lg_context_t *probe = NULL;
        if (lg_context_create(&probe, &probe_o) != LG_OK) {
            printf("skipped: no GPU context: %s\n", lg_last_error());
            exit(77);
        }
        const char *desc = "?";
        lg_context_get_device(probe, &desc);
        printf("GPU tests on %s\n", desc);
        lg_context_free(&probe);
    }
#endif
    for (int k = 0; k < count; k++) {
        lg_context_options_t co;
        lg_context_options_init(&co);
#ifdef LG_TEST_GPU
        co.backend = LG_BACKEND_AUTO;
#else
        co.backend = LG_BACKEND_CPU;
#endif
        co.num_threads = k + 1;
        if (lg_context_create(&ctx[k], &co) != LG_OK) {
            fprintf(stderr, "lg_context_create: %s\n", lg_last_error());
            return false;
        }
#ifdef LG_TEST_GPU
        lg_backend_t b = LG_BACKEND_AUTO;
        if (lg_context_get_backend(ctx[k], &b) != LG_OK || b != LG_BACKEND_GPU) {
            fprintf(stderr, "an AUTO context did not land on the GPU\n");
            return false;
        }
#endif
    }
    return true;
}

/* After an algorithm call: true when it ran where it should (the GPU for
 * PageRank in the *_gpu tests, the CPU otherwise). */
static inline bool or_ran_on_expected(bool has_gpu_kernel)
{
#ifdef LG_TEST_GPU
    return lg_last_backend() == (has_gpu_kernel ? LG_BACKEND_GPU : LG_BACKEND_CPU);
#else
    (void)has_gpu_kernel;
    return lg_last_backend() == LG_BACKEND_CPU;
#endif
}

static inline void *or_alloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "oracle: out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- graphs ------------------------------------------------------------------ */

typedef struct or_graph {
    int64_t n, m;
    bool directed;
    lg_edge_t *off;   /* n + 1 */
    lg_vertex_t *idx; /* m */
    float *w;         /* m, or NULL when unweighted */
} or_graph;

static inline void or_graph_free(or_graph *g)
{
    free(g->off);
    free(g->idx);
    free(g->w);
    memset(g, 0, sizeof *g);
}

struct or_arc {
    lg_vertex_t u, v;
    int64_t seq; /* input position: ties between parallel arcs keep input order */
    float w;
};

static inline int or_arc_cmp(const void *pa, const void *pb)
{
    const struct or_arc *a = pa, *b = pb;
    if (a->u != b->u)
        return a->u < b->u ? -1 : 1;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return 0;
}

/* Sorts arcs and turns them into g's CSR, merging parallel arcs by policy. */
static inline void or_arcs_to_csr(or_graph *g, int64_t n, struct or_arc *arcs, int64_t A,
                                  bool weighted, lg_duplicates_t policy)
{
    qsort(arcs, (size_t)A, sizeof *arcs, or_arc_cmp);
    g->n = n;
    g->off = or_alloc((size_t)n + 1, sizeof *g->off);
    g->idx = or_alloc((size_t)A, sizeof *g->idx);
    g->w = weighted ? or_alloc((size_t)A, sizeof *g->w) : NULL;
    int64_t m = 0;
    for (int64_t i = 0; i < A;) {
        int64_t j = i;
        while (j < A && arcs[j].u == arcs[i].u && arcs[j].v == arcs[i].v)
            j++;
        if (policy == LG_DUPLICATES_KEEP) {
            for (int64_t k = i; k < j; k++) {
                g->idx[m] = arcs[k].v;
                if (weighted)
                    g->w[m] = arcs[k].w;
                g->off[arcs[k].u + 1]++;
                m++;
            }
        } else {
            float acc = arcs[i].w;
            for (int64_t k = i + 1; k < j; k++) {
                float x = arcs[k].w;
                switch (policy) {
                case LG_DUPLICATES_SUM: acc = acc + x; break;
                case LG_DUPLICATES_MIN: acc = x < acc ? x : acc; break;
                case LG_DUPLICATES_MAX: acc = x > acc ? x : acc; break;
                case LG_DUPLICATES_FIRST: break;
                case LG_DUPLICATES_LAST: acc = x; break;
                default: break;
                }
            }
            g->idx[m] = arcs[i].v;
            if (weighted)
                g->w[m] = acc;
            g->off[arcs[i].u + 1]++;
            m++;
        }
        i = j;
    }
    for (int64_t v = 0; v < n; v++)
        g->off[v + 1] += g->off[v];
    g->m = m;
}

/*
 * The graph lg_graph_from_edges should build: directed unless the options say
 * LG_UNDIRECTED; an undirected edge (and, with symmetrize, a directed one)
 * gives the arcs u->v and v->u, a self-loop only one; self-loops dropped on
 * request; parallel arcs merged by the duplicates policy, in input order.
 */
static inline void or_build(or_graph *g, int64_t n, int64_t E, const lg_vertex_t *src,
                            const lg_vertex_t *dst, const float *w, const lg_graph_options_t *opts)
{
    lg_graph_options_t defaults;
    if (!opts) {
        lg_graph_options_init(&defaults);
        opts = &defaults;
    }
    const bool directed = opts->directedness != LG_UNDIRECTED;
    const bool add_reverse = !directed || opts->symmetrize;
    struct or_arc *arcs = or_alloc((size_t)(2 * E), sizeof *arcs);
    int64_t A = 0;
    for (int64_t i = 0; i < E; i++) {
        lg_vertex_t u = src[i], v = dst[i];
        float x = w ? w[i] : 1.0f;
        if (u == v && opts->drop_self_loops)
            continue;
        arcs[A++] = (struct or_arc){u, v, i, x};
        if (add_reverse && u != v)
            arcs[A++] = (struct or_arc){v, u, i, x};
    }
    memset(g, 0, sizeof *g);
    or_arcs_to_csr(g, n, arcs, A, w != NULL, opts->duplicates);
    g->directed = directed;
    free(arcs);
}

/* The transpose: column v lists the sources of the arcs into v, ascending;
 * parallel arcs keep their order within the source row. */
static inline void or_transpose(const or_graph *g, or_graph *t)
{
    struct or_arc *arcs = or_alloc((size_t)g->m, sizeof *arcs);
    for (int64_t u = 0; u < g->n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++)
            arcs[e] = (struct or_arc){g->idx[e], (lg_vertex_t)u, e, g->w ? g->w[e] : 1.0f};
    memset(t, 0, sizeof *t);
    or_arcs_to_csr(t, g->n, arcs, g->m, g->w != NULL, LG_DUPLICATES_KEEP);
    t->directed = g->directed;
    free(arcs);
}

/* Is there an arc u -> v?  (Rows are sorted.) */
static inline bool or_has_arc(const or_graph *g, lg_vertex_t u, lg_vertex_t v)
{
    lg_edge_t lo = g->off[u], hi = g->off[u + 1];
    while (lo < hi) {
        lg_edge_t mid = lo + (hi - lo) / 2;
        if (g->idx[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->off[u + 1] && g->idx[lo] == v;
}

/* Exact equality of two CSRs (offsets, indices, weights bit for bit). */
static inline bool or_csr_equal(int64_t n, const lg_edge_t *off_a, const lg_vertex_t *idx_a,
                                const float *w_a, const lg_edge_t *off_b, const lg_vertex_t *idx_b,
                                const float *w_b)
{
    if (!off_a || !off_b)
        return false;
    if (memcmp(off_a, off_b, (size_t)(n + 1) * sizeof *off_a) != 0)
        return false;
    int64_t m = off_a[n];
    if (m > 0 && (!idx_a || !idx_b || memcmp(idx_a, idx_b, (size_t)m * sizeof *idx_a) != 0))
        return false;
    if ((w_a == NULL) != (w_b == NULL))
        return false;
    if (w_a && m > 0 && memcmp(w_a, w_b, (size_t)m * sizeof *w_a) != 0)
        return false;
    return true;
}

/* ---- BFS ------------------------------------------------------------------------ */

static inline void or_bfs(const or_graph *g, lg_vertex_t s, int32_t *dist)
{
    lg_vertex_t *queue = or_alloc((size_t)g->n, sizeof *queue);
    for (int64_t v = 0; v < g->n; v++)
        dist[v] = -1;
    int64_t head = 0, tail = 0;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        lg_vertex_t u = queue[head++];
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            lg_vertex_t v = g->idx[e];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
}

/* Checks BFS parents against (oracle) distances: parents[s] == s; a reached
 * v != s has an in-neighbour parent one hop closer; unreached v has -1.
 * Returns -1 when all hold, else the first vertex that breaks one. */
static inline int64_t or_check_parents(const or_graph *g, lg_vertex_t s, const int32_t *dist,
                                       const lg_vertex_t *parents)
{
    for (int64_t v = 0; v < g->n; v++) {
        lg_vertex_t p = parents[v];
        if (v == s) {
            if (p != s)
                return v;
        } else if (dist[v] < 0) {
            if (p != -1)
                return v;
        } else {
            if (p < 0 || p >= g->n || dist[p] < 0 || dist[p] + 1 != dist[v] ||
                !or_has_arc(g, p, (lg_vertex_t)v))
                return v;
        }
    }
    return -1;
}

/*
 * Multi-source, depth-limited BFS: every vertex of sources[0 .. ns) (repeats
 * allowed) is at distance 0, and no vertex at distance max_depth is expanded
 * (max_depth -1: no limit).  dist[v] = hops from the nearest source, -1 when
 * unreached.  With one source and max_depth -1 it is or_bfs.
 */
static inline void or_bfs_multi(const or_graph *g, const lg_vertex_t *sources, int64_t ns,
                                int32_t max_depth, int32_t *dist)
{
    lg_vertex_t *queue = or_alloc((size_t)g->n, sizeof *queue);
    for (int64_t v = 0; v < g->n; v++)
        dist[v] = -1;
    int64_t head = 0, tail = 0;
    for (int64_t i = 0; i < ns; i++)
        if (dist[sources[i]] < 0) {
            dist[sources[i]] = 0;
            queue[tail++] = sources[i];
        }
    while (head < tail) {
        lg_vertex_t u = queue[head++];
        if (max_depth >= 0 && dist[u] >= max_depth)
            continue;
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            lg_vertex_t v = g->idx[e];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
}

/* Checks multi-source BFS parents against (oracle) distances: a vertex at
 * distance 0 (a source) is its own parent; any other reached v has an
 * in-neighbour parent one hop closer; an unreached v has -1.  Returns -1 when
 * all hold, else the first vertex that breaks one. */
static inline int64_t or_check_parents_multi(const or_graph *g, const int32_t *dist,
                                             const lg_vertex_t *parents)
{
    for (int64_t v = 0; v < g->n; v++) {
        lg_vertex_t p = parents[v];
        if (dist[v] == 0) {
            if (p != v)
                return v;
        } else if (dist[v] < 0) {
            if (p != -1)
                return v;
        } else if (p < 0 || p >= g->n || dist[p] < 0 || dist[p] + 1 != dist[v] ||
                   !or_has_arc(g, p, (lg_vertex_t)v)) {
            return v;
        }
    }
    return -1;
}

/* ---- connected components -------------------------------------------------------- */

static inline lg_vertex_t or_find(lg_vertex_t *parent, lg_vertex_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Weak components; labels[v] = smallest id in v's component.  Returns the count. */
static inline int64_t or_components(const or_graph *g, lg_vertex_t *labels)
{
    lg_vertex_t *parent = or_alloc((size_t)g->n, sizeof *parent);
    for (int64_t v = 0; v < g->n; v++)
        parent[v] = (lg_vertex_t)v;
    for (int64_t u = 0; u < g->n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
            lg_vertex_t a = or_find(parent, (lg_vertex_t)u), b = or_find(parent, g->idx[e]);
            /* keep the smaller id as the root, so the root is the label */
            if (a < b)
                parent[b] = a;
            else if (b < a)
                parent[a] = b;
        }
    int64_t count = 0;
    for (int64_t v = 0; v < g->n; v++) {
        labels[v] = or_find(parent, (lg_vertex_t)v);
        if (labels[v] == v)
            count++;
    }
    free(parent);
    return count;
}

/* ---- PageRank -------------------------------------------------------------------- */

/* NULL means uniform; else the vector scaled to sum 1. */
static inline void or_normalised(int64_t n, const double *in, double *out)
{
    double s = 0.0;
    for (int64_t v = 0; v < n; v++)
        s += in ? in[v] : 1.0;
    for (int64_t v = 0; v < n; v++)
        out[v] = (in ? in[v] : 1.0) / s;
}

/*
 * networkx._pagerank_scipy in plain loops:
 *   W = D^-1 A (A the weighted adjacency, parallel arcs summed; D its row sums)
 *   x = nstart, p = personalization, d = dangling (or p), each scaled to sum 1
 *   repeat max_iter times:
 *     x' = alpha * (x W + sum(x[dangling]) * d) + (1 - alpha) * p
 *     err = sum |x' - x|;  stop (converged) when err < N * tol
 * x gets the last iterate, *iterations the iterations run, errs[k-1] (when not
 * NULL, max_iter entries) the L1 change of iteration k.  Returns true when it
 * converged.  tol < 0 runs exactly max_iter iterations.
 */
static inline bool or_pagerank(const or_graph *g, double alpha, const double *personalization,
                               const double *nstart, const double *dangling, bool use_weights,
                               int max_iter, double tol, double *x, int *iterations, double *errs)
{
    const int64_t n = g->n;
    *iterations = 0;
    if (n == 0)
        return true;
    double *p = or_alloc((size_t)n, sizeof *p), *d = or_alloc((size_t)n, sizeof *d);
    double *out_w = or_alloc((size_t)n, sizeof *out_w), *next = or_alloc((size_t)n, sizeof *next);
    or_normalised(n, personalization, p);
    or_normalised(n, dangling ? dangling : personalization, d);
    or_normalised(n, nstart, x);
    for (int64_t u = 0; u < n; u++)
        for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++)
            out_w[u] += (use_weights && g->w) ? (double)g->w[e] : 1.0;
    bool converged = false;
    for (int it = 1; it <= max_iter; it++) {
        double dangling_sum = 0.0;
        for (int64_t v = 0; v < n; v++)
            next[v] = 0.0;
        for (int64_t u = 0; u < n; u++) {
            if (out_w[u] == 0.0) {
                dangling_sum += x[u];
                continue;
            }
            for (lg_edge_t e = g->off[u]; e < g->off[u + 1]; e++) {
                double wt = (use_weights && g->w) ? (double)g->w[e] : 1.0;
                next[g->idx[e]] += x[u] * (wt / out_w[u]);
            }
        }
        double err = 0.0;
        for (int64_t v = 0; v < n; v++) {
            double y = alpha * (next[v] + dangling_sum * d[v]) + (1.0 - alpha) * p[v];
            err += fabs(y - x[v]);
            x[v] = y;
        }
        *iterations = it;
        if (errs)
            errs[it - 1] = err;
        if (err < (double)n * tol) {
            converged = true;
            break;
        }
    }
    free(p);
    free(d);
    free(out_w);
    free(next);
    return converged;
}

/* ---- random test graphs -------------------------------------------------------------- */

typedef struct or_edges {
    int64_t n, E;
    lg_vertex_t *src, *dst;
    float *w; /* E weights, multiples of 1/8 (so sums are exact in float) */
    const char *shape;
} or_edges;

static inline void or_edges_free(or_edges *e)
{
    free(e->src);
    free(e->dst);
    free(e->w);
    memset(e, 0, sizeof *e);
}

static inline int64_t or_rand_below(unsigned long long *rng, int64_t bound)
{
    return bound > 0 ? (int64_t)(tu_rand(rng) % (unsigned long long)bound) : 0;
}

static inline void or_edges_alloc(or_edges *e, int64_t n, int64_t E)
{
    e->n = n;
    e->E = E;
    e->src = or_alloc((size_t)E, sizeof *e->src);
    e->dst = or_alloc((size_t)E, sizeof *e->dst);
    e->w = or_alloc((size_t)E, sizeof *e->w);
}

#define OR_NUM_SHAPES 12

/* A random graph of shape `shape` (0 .. OR_NUM_SHAPES-1): empty, one vertex,
 * isolated vertices, sparse random, dense with many duplicates, star, path,
 * complete, directed with sinks, disconnected clusters, self-loop heavy, and a
 * larger random graph (rows long enough for the library's non-trivial sorts). */
static inline void or_random_edges(or_edges *e, int shape, unsigned long long *rng)
{
    memset(e, 0, sizeof *e);
    int64_t n, E, k = 0;
    switch (shape) {
    case 0:
        e->shape = "empty";
        or_edges_alloc(e, 0, 0);
        break;
    case 1:
        e->shape = "one vertex";
        or_edges_alloc(e, 1, or_rand_below(rng, 4));
        break; /* every edge is the self-loop 0-0 */
    case 2:
        e->shape = "isolated vertices";
        n = 1 + or_rand_below(rng, 20);
        or_edges_alloc(e, n, 0);
        break;
    case 3:
        e->shape = "sparse random";
        n = 2 + or_rand_below(rng, 60);
        E = or_rand_below(rng, 3 * n);
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            e->src[i] = (lg_vertex_t)or_rand_below(rng, n);
            e->dst[i] = (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    case 4:
        e->shape = "dense duplicates";
        n = 2 + or_rand_below(rng, 5);
        E = 10 + or_rand_below(rng, 50);
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            e->src[i] = (lg_vertex_t)or_rand_below(rng, n);
            e->dst[i] = (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    case 5: {
        e->shape = "star";
        n = 2 + or_rand_below(rng, 80);
        lg_vertex_t hub = (lg_vertex_t)or_rand_below(rng, n);
        bool inward = or_rand_below(rng, 3) == 0, mixed = or_rand_below(rng, 3) == 0;
        or_edges_alloc(e, n, n - 1);
        for (int64_t v = 0; v < n; v++) {
            if (v == hub)
                continue;
            bool in = mixed ? or_rand_below(rng, 2) == 0 : inward;
            e->src[k] = in ? (lg_vertex_t)v : hub;
            e->dst[k] = in ? hub : (lg_vertex_t)v;
            k++;
        }
        /* shuffle the edge order: rows are not given sorted */
        for (int64_t i = k - 1; i > 0; i--) {
            int64_t j = or_rand_below(rng, i + 1);
            lg_vertex_t t = e->src[i];
            e->src[i] = e->src[j];
            e->src[j] = t;
            t = e->dst[i];
            e->dst[i] = e->dst[j];
            e->dst[j] = t;
        }
        break;
    }
    case 6: {
        e->shape = "path";
        n = 1 + or_rand_below(rng, 70);
        lg_vertex_t *perm = or_alloc((size_t)n, sizeof *perm);
        for (int64_t v = 0; v < n; v++)
            perm[v] = (lg_vertex_t)v;
        if (or_rand_below(rng, 2))
            for (int64_t i = n - 1; i > 0; i--) {
                int64_t j = or_rand_below(rng, i + 1);
                lg_vertex_t t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
        or_edges_alloc(e, n, n - 1);
        for (int64_t i = 0; i + 1 < n; i++) {
            e->src[i] = perm[i];
            e->dst[i] = perm[i + 1];
        }
        free(perm);
        break;
    }
    case 7:
        e->shape = "complete";
        n = 1 + or_rand_below(rng, 7);
        or_edges_alloc(e, n, n * n);
        for (int64_t u = 0; u < n; u++)
            for (int64_t v = 0; v < n; v++)
                if (u != v) {
                    e->src[k] = (lg_vertex_t)u;
                    e->dst[k] = (lg_vertex_t)v;
                    k++;
                }
        e->E = k;
        break;
    case 8: {
        e->shape = "directed with sinks";
        n = 3 + or_rand_below(rng, 50);
        int64_t sinks = 1 + or_rand_below(rng, n / 2);
        E = or_rand_below(rng, 3 * n);
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            /* sources never among the last `sinks` ids */
            e->src[i] = (lg_vertex_t)or_rand_below(rng, n - sinks);
            e->dst[i] = (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    }
    case 9: {
        e->shape = "disconnected";
        int64_t parts = 2 + or_rand_below(rng, 5), size = 1 + or_rand_below(rng, 12);
        n = parts * size + or_rand_below(rng, 4); /* plus a few isolated vertices */
        E = parts * size * 2;
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            int64_t part = or_rand_below(rng, parts);
            e->src[i] = (lg_vertex_t)(part * size + or_rand_below(rng, size));
            e->dst[i] = (lg_vertex_t)(part * size + or_rand_below(rng, size));
        }
        break;
    }
    case 10:
        e->shape = "self-loop heavy";
        n = 1 + or_rand_below(rng, 15);
        E = or_rand_below(rng, 4 * n);
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            e->src[i] = (lg_vertex_t)or_rand_below(rng, n);
            e->dst[i] = or_rand_below(rng, 3) ? e->src[i] : (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    default:
        e->shape = "larger random";
        n = 50 + or_rand_below(rng, 300);
        E = n * (4 + or_rand_below(rng, 40));
        or_edges_alloc(e, n, E);
        for (int64_t i = 0; i < E; i++) {
            /* a skewed source distribution gives some long rows */
            int64_t r = or_rand_below(rng, n);
            e->src[i] = (lg_vertex_t)(or_rand_below(rng, 4) == 0 ? r % 5 : r);
            e->dst[i] = (lg_vertex_t)or_rand_below(rng, n);
        }
        break;
    }
    /* weights: multiples of 1/8 in [0, 16), some zero, so every sum is exact */
    for (int64_t i = 0; i < e->E; i++)
        e->w[i] = (float)or_rand_below(rng, 128) / 8.0f;
}

#endif
