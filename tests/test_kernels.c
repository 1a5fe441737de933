/*
 * test_kernels.c - the fast CPU kernels' options and code paths against the
 * oracles of oracle.h, on many random graphs, with contexts of 1, 2 and 3
 * threads.
 *
 *   multi-source BFS  lg_bfs_multi's distances equal or_bfs_multi's (every
 *                     source at 0), with repeated sources, every vertex a
 *                     source, one source per component; parents pass
 *                     or_check_parents_multi (a source is its own parent);
 *                     NULL / empty / out-of-range sources are refused and
 *                     leave the outputs untouched
 *   depth limit       max_depth 0 .. past the eccentricity: the oracle's
 *                     distances up to max_depth and -1 beyond (parents -1
 *                     there too); -1 and INT32_MAX are "no limit"; < -1 refused
 *   direction         alpha 0 (top-down throughout), the defaults, and
 *                     settings that go bottom-up at once and stay there, flip
 *                     every level, or barely ever switch, on directed
 *                     (bottom-up over in-edges, the lazy CSC built before or
 *                     by the BFS itself) and undirected graphs with a giant
 *                     component: uniform random graphs of average degree 16,
 *                     Kronecker graphs from lg_generate (scale 12 - 14), DAGs,
 *                     stars, paths and grids (deep, small frontiers), barbells
 *                     (dense - path - dense: bottom-up, top-down, bottom-up),
 *                     multigraphs; from one, two, 100 sources, one per
 *                     component and all vertices; all equal the oracle, and
 *                     alpha < 0 and beta < 1 are refused
 *   PageRank          lg_pagerank (weighted and not) within 1e-9 relative and
 *                     with the oracle's iteration count; lg_pagerank_f32 within
 *                     1e-5 relative and with the float64 iteration count
 *                     (unless that decision is too close to call in float), on
 *                     graphs whose rows and columns have every length from 1
 *                     to 5000 around the vector widths, with sinks, weights
 *                     of 0 (dangling by weight) and hubs, directed and not,
 *                     and a column of 131074 equal tiny terms after one large
 *                     one (a float accumulator drifts past 1e-5 there)
 *   components        labels and counts exactly union-find's on the shapes
 *                     that stress Afforest (sampling, then skipping the
 *                     largest component): a giant plus many small ones, all
 *                     singletons, two equal giants, paths, stars, directed
 *                     graphs that are weakly connected only through reverse
 *                     arcs (u -> hub, alternating chains, pendant out-leaves
 *                     of the giant), with the CSC built before or not
 *   determinism       distances and labels identical across thread counts
 *                     and repeated runs
 */
#define _POSIX_C_SOURCE 200809L

#include "internal.h" /* lg__pagerank_hub_runs */
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <limits.h>
#include <stdarg.h>
#include <time.h>

#if defined(__GNUC__)
#define LG_TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LG_TEST_PRINTF(f, a)
#endif

#define NUM_CTX 3
static lg_context_t *ctx[NUM_CTX]; /* 1, 2 and 3 threads */

/* ---- failure reports -------------------------------------------------------------- */

static char subject[200]; /* the graph under test */
static int reports_left = 30;

static void set_subject(const char *fmt, ...) LG_TEST_PRINTF(1, 2);
static void set_subject(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(subject, sizeof subject, fmt, ap);
    va_end(ap);
}

static void report(const char *fmt, ...) LG_TEST_PRINTF(1, 2);
static void report(const char *fmt, ...)
{
    if (reports_left <= 0)
        return;
    reports_left--;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "  FAILED ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n    graph: %s\n", subject);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- edge lists ---------------------------------------------------------------------- */

struct elist {
    int64_t n, E, cap;
    lg_vertex_t *src, *dst;
    float *w;
};

static void el_init(struct elist *el, int64_t n)
{
    memset(el, 0, sizeof *el);
    el->n = n;
}

static void el_free(struct elist *el)
{
    free(el->src);
    free(el->dst);
    free(el->w);
    memset(el, 0, sizeof *el);
}

static void el_add(struct elist *el, int64_t u, int64_t v, float w)
{
    if (el->E == el->cap) {
        el->cap = el->cap ? 2 * el->cap : 1024;
        el->src = realloc(el->src, (size_t)el->cap * sizeof *el->src);
        el->dst = realloc(el->dst, (size_t)el->cap * sizeof *el->dst);
        el->w = realloc(el->w, (size_t)el->cap * sizeof *el->w);
        if (!el->src || !el->dst || !el->w) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    el->src[el->E] = (lg_vertex_t)u;
    el->dst[el->E] = (lg_vertex_t)v;
    el->w[el->E] = w;
    el->E++;
}

/* A weight in (0, 8], a multiple of 1/8, so sums are exact in float. */
static float rand_weight(unsigned long long *rng)
{
    return (float)(1 + or_rand_below(rng, 64)) / 8.0f;
}

/* count uniform random arcs among the vertices [lo, lo + size). */
static void el_random(struct elist *el, int64_t lo, int64_t size, int64_t count,
                      unsigned long long *rng)
{
    for (int64_t i = 0; i < count; i++)
        el_add(el, lo + or_rand_below(rng, size), lo + or_rand_below(rng, size), rand_weight(rng));
}

/* A path lo -> lo+1 -> ... -> lo+len-1; `alternate` turns every second arc
 * round (lo -> lo+1 <- lo+2 -> ...), so only weak connectivity holds. */
static void el_path(struct elist *el, int64_t lo, int64_t len, bool alternate)
{
    for (int64_t i = 0; i + 1 < len; i++) {
        if (alternate && i % 2)
            el_add(el, lo + i + 1, lo + i, 1.0f);
        else
            el_add(el, lo + i, lo + i + 1, 1.0f);
    }
}

/* Renames the vertices by a random permutation, so no shape lines up with ids. */
static void el_permute(struct elist *el, unsigned long long *rng)
{
    lg_vertex_t *perm = or_alloc((size_t)el->n, sizeof *perm);
    for (int64_t v = 0; v < el->n; v++)
        perm[v] = (lg_vertex_t)v;
    for (int64_t i = el->n - 1; i > 0; i--) {
        int64_t j = or_rand_below(rng, i + 1);
        lg_vertex_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int64_t i = 0; i < el->E; i++) {
        el->src[i] = perm[el->src[i]];
        el->dst[i] = perm[el->dst[i]];
    }
    free(perm);
}

/* ---- graphs under test: the library's and the oracle's ------------------------------- */

struct tgraph {
    lg_graph_t *g;
    or_graph o;
};

static void tgraph_free(struct tgraph *t)
{
    lg_graph_free(&t->g);
    or_graph_free(&t->o);
}

static lg_graph_options_t graph_options(bool directed)
{
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = directed ? LG_DIRECTED : LG_UNDIRECTED;
    return go;
}

/* Builds the library's graph and the oracle's from one edge list. */
static bool tgraph_from_elist(struct tgraph *t, const struct elist *el, bool directed,
                              bool weighted, int k)
{
    memset(t, 0, sizeof *t);
    lg_graph_options_t go = graph_options(directed);
    const float *w = weighted ? el->w : NULL;
    lg_status_t st = lg_graph_from_edges(ctx[k], el->n, el->E, el->src, el->dst, w, &go, &t->g);
    CHECK(st == LG_OK);
    if (st != LG_OK) {
        report("lg_graph_from_edges: %s: %s", lg_status_string(st), lg_last_error());
        return false;
    }
    or_build(&t->o, el->n, el->E, el->src, el->dst, w, &go);
    return true;
}

/* A Kronecker (or uniform) graph from lg_generate; the oracle reads its CSR. */
static bool tgraph_generate(struct tgraph *t, lg_generator_t gen, int scale, int edge_factor,
                            uint64_t seed, bool directed, int k)
{
    memset(t, 0, sizeof *t);
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = LG_DIRECTED;
    go.drop_self_loops = true;
    go.duplicates = LG_DUPLICATES_FIRST;
    /* NULL: the GAP convention, undirected, no self-loops, duplicates merged */
    lg_status_t st =
        lg_generate(ctx[k], gen, scale, edge_factor, seed, directed ? &go : NULL, &t->g);
    CHECK(st == LG_OK);
    if (st != LG_OK) {
        report("lg_generate: %s: %s", lg_status_string(st), lg_last_error());
        return false;
    }
    const lg_edge_t *off = NULL;
    const lg_vertex_t *idx = NULL;
    CHECK_OK(lg_graph_csr(t->g, &off, &idx, NULL));
    CHECK(lg_graph_is_directed(t->g) == directed);
    const int64_t n = lg_graph_num_vertices(t->g), m = lg_graph_num_edges(t->g);
    CHECK(n == (int64_t)1 << scale);
    if (!off || !idx || n != (int64_t)1 << scale) {
        lg_graph_free(&t->g);
        return false;
    }
    t->o.n = n;
    t->o.m = m;
    t->o.directed = directed;
    t->o.off = or_alloc((size_t)n + 1, sizeof *t->o.off);
    t->o.idx = or_alloc((size_t)m, sizeof *t->o.idx);
    memcpy(t->o.off, off, ((size_t)n + 1) * sizeof *off);
    memcpy(t->o.idx, idx, (size_t)m * sizeof *idx);
    return true;
}

static lg_vertex_t max_out_degree_vertex(const or_graph *o)
{
    lg_vertex_t best = 0;
    for (int64_t v = 1; v < o->n; v++)
        if (o->off[v + 1] - o->off[v] > o->off[best + 1] - o->off[best])
            best = (lg_vertex_t)v;
    return best;
}

/* ---- BFS ------------------------------------------------------------------------------ */

struct direction {
    const char *name;
    int alpha, beta;
};

static const struct direction directions[] = {
    {"top-down only", 0, 18},
    {"defaults", 15, 18},
    {"alpha 1 beta 1 (switches late, back at once)", 1, 1},
    {"alpha 1e6 beta 1e6 (bottom-up early, stays)", 1000000, 1000000},
    {"alpha 1e6 beta 1 (flips every level)", 1000000, 1},
    {"alpha 2 beta INT_MAX", 2, INT_MAX},
    {"alpha INT_MAX beta INT_MAX", INT_MAX, INT_MAX},
};
#define NUM_DIRECTIONS ((int)(sizeof directions / sizeof directions[0]))

static lg_bfs_options_t bfs_options(int dir, int32_t max_depth, bool parents)
{
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = parents;
    bo.max_depth = max_depth;
    bo.direction_alpha = directions[dir].alpha;
    bo.direction_beta = directions[dir].beta;
    return bo;
}

static long bfs_runs;

/*
 * Runs one BFS from sources[0 .. ns) on context k (lg_bfs for a single odd
 * source, so both entry points are exercised) and checks it against want, the
 * oracle's distances for these sources and bo->max_depth.  got gets the
 * distances.  Returns true when everything matched.
 */
static bool run_bfs(const struct tgraph *t, const lg_vertex_t *sources, int64_t ns,
                    const lg_bfs_options_t *bo, int k, const int32_t *want, int32_t *got,
                    const char *what)
{
    const int64_t n = t->o.n;
    lg_vertex_t *parents = or_alloc((size_t)n, sizeof *parents);
    for (int64_t v = 0; v < n; v++)
        got[v] = -7, parents[v] = -7;
    lg_vertex_t *p_arg = bo->compute_parents ? parents : NULL;
    lg_status_t st = ns == 1 && sources[0] % 2
                         ? lg_bfs(ctx[k], t->g, sources[0], bo, got, p_arg)
                         : lg_bfs_multi(ctx[k], t->g, sources, ns, bo, got, p_arg);
    bfs_runs++;
    CHECK(or_ran_on_expected(false));
    bool ok = st == LG_OK;
    CHECK(st == LG_OK);
    char desc[200];
    snprintf(desc, sizeof desc,
             "%s: %lld source(s) (first %d), max_depth %d, alpha %d beta %d, parents %d, "
             "%d threads",
             what, (long long)ns, (int)sources[0], (int)bo->max_depth, bo->direction_alpha,
             bo->direction_beta, (int)bo->compute_parents, k + 1);
    if (!ok) {
        report("%s: %s: %s", desc, lg_status_string(st), lg_last_error());
        free(parents);
        return false;
    }
    int64_t bad = -1, wrong = 0;
    for (int64_t v = 0; v < n; v++)
        if (got[v] != want[v]) {
            if (bad < 0)
                bad = v;
            wrong++;
        }
    CHECK(bad < 0);
    if (bad >= 0) {
        report("%s: distance of %lld is %d, want %d (%lld of %lld vertices wrong)", desc,
               (long long)bad, got[bad], want[bad], (long long)wrong, (long long)n);
        ok = false;
    }
    if (bo->compute_parents) {
        int64_t badp = or_check_parents_multi(&t->o, want, parents);
        CHECK(badp < 0);
        if (badp >= 0) {
            report("%s: parent of %lld is %d (distance %d, parent's %d)", desc, (long long)badp,
                   (int)parents[badp], want[badp],
                   parents[badp] >= 0 && parents[badp] < n ? want[parents[badp]] : -99);
            ok = false;
        }
    }
    free(parents);
    return ok;
}

/* The oracle's distances for one set of sources at every depth limit. */
static int32_t *oracle_bfs(const struct tgraph *t, const lg_vertex_t *sources, int64_t ns,
                           int32_t max_depth)
{
    int32_t *want = or_alloc((size_t)t->o.n, sizeof *want);
    or_bfs_multi(&t->o, sources, ns, max_depth, want);
    return want;
}

static int32_t eccentricity(const int32_t *dist, int64_t n)
{
    int32_t e = 0;
    for (int64_t v = 0; v < n; v++)
        e = dist[v] > e ? dist[v] : e;
    return e;
}

/* Every direction setting on every context for one source set (twice on one
 * context): all equal the oracle and each other.  Parents are asked for on
 * all but one pass in three. */
static void bfs_all_paths(const struct tgraph *t, const lg_vertex_t *sources, int64_t ns,
                          int32_t max_depth, const char *what)
{
    const int64_t n = t->o.n;
    int32_t *want = oracle_bfs(t, sources, ns, max_depth);
    int32_t *first = or_alloc((size_t)n, sizeof *first), *got = or_alloc((size_t)n, sizeof *got);
    bool have_first = false;
    int pass = 0;
    for (int d = 0; d < NUM_DIRECTIONS; d++)
        for (int k = 0; k < NUM_CTX; k++) {
            for (int rep = 0; rep < (k == 2 && d == 1 ? 2 : 1); rep++) {
                lg_bfs_options_t bo = bfs_options(d, max_depth, pass++ % 3 != 1);
                char label[160];
                snprintf(label, sizeof label, "%s, %s%s", what, directions[d].name,
                         rep ? ", repeated" : "");
                run_bfs(t, sources, ns, &bo, k, want, got, label);
                /* determinism: the same distances whatever the threads and path */
                if (!have_first) {
                    memcpy(first, got, (size_t)n * sizeof *got);
                    have_first = true;
                } else {
                    bool same = memcmp(first, got, (size_t)n * sizeof *got) == 0;
                    CHECK(same);
                    if (!same)
                        report("%s: distances differ from the first run's", label);
                }
            }
        }
    free(want);
    free(first);
    free(got);
}

/* The depth limits 0, 1, 2, around the eccentricity and past it: each the
 * oracle's distances cut at the limit, on a rotating direction and context. */
static void bfs_depths(const struct tgraph *t, const lg_vertex_t *sources, int64_t ns,
                       const char *what, unsigned long long *rng)
{
    const int64_t n = t->o.n;
    int32_t *full = oracle_bfs(t, sources, ns, -1);
    int32_t *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    const int32_t ecc = eccentricity(full, n);
    const int32_t depths[] = {0, 1, 2, 3, ecc / 2, ecc - 1, ecc, ecc + 1, INT32_MAX, -1};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        const int32_t depth = depths[i] < -1 ? 0 : depths[i];
        for (int64_t v = 0; v < n; v++)
            want[v] = depth < 0 || full[v] <= depth ? full[v] : -1;
        /* the oracle's own depth limit must agree with cutting its distances */
        int32_t *cut = oracle_bfs(t, sources, ns, depth);
        CHECK(memcmp(cut, want, (size_t)n * sizeof *cut) == 0);
        free(cut);
        int d = (int)or_rand_below(rng, NUM_DIRECTIONS), k = (int)or_rand_below(rng, NUM_CTX);
        lg_bfs_options_t bo = bfs_options(d, depth, or_rand_below(rng, 4) != 0);
        char label[160];
        snprintf(label, sizeof label, "%s, depth limit (eccentricity %d), %s", what, (int)ecc,
                 directions[d].name);
        run_bfs(t, sources, ns, &bo, k, want, got, label);
        if (depth == 0) { /* only the sources */
            bool only = true;
            for (int64_t v = 0; v < n; v++)
                only = only && (got[v] == -1 || got[v] == 0);
            for (int64_t s = 0; s < ns; s++)
                only = only && got[sources[s]] == 0;
            CHECK(only);
        }
    }
    free(full);
    free(want);
    free(got);
}

/* ---- BFS on the random shapes of oracle.h ------------------------------------------------ */

/* A random source set: count sources with repeats (the first one twice). */
static lg_vertex_t *random_sources(int64_t n, int64_t count, unsigned long long *rng)
{
    lg_vertex_t *s = or_alloc((size_t)count + 1, sizeof *s);
    for (int64_t i = 0; i < count; i++)
        s[i] = (lg_vertex_t)or_rand_below(rng, n);
    s[count] = s[0];
    return s;
}

static void test_bfs_shapes(void)
{
    const int graphs = 360;
    for (int gi = 0; gi < graphs; gi++) {
        unsigned long long seed = 7100 + (unsigned long long)gi, rng = seed * 0x9E3779B97F4A7C15ull;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool directed = (gi / OR_NUM_SHAPES) % 2 == 0;
        set_subject("shape %s, seed %llu, %s, %lld vertices, %lld edges", e.shape, seed,
                    directed ? "directed" : "undirected", (long long)e.n, (long long)e.E);
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        struct tgraph t;
        if (!tgraph_from_elist(&t, &el, directed, false, gi % NUM_CTX)) {
            or_edges_free(&e);
            continue;
        }
        const int64_t n = e.n;
        if (n == 0) {
            /* no vertex can be a source */
            const lg_vertex_t zero = 0;
            int32_t d = -7;
            CHECK_STATUS(lg_bfs_multi(ctx[0], t.g, &zero, 1, NULL, &d, NULL),
                         LG_ERR_INVALID_ARGUMENT);
            CHECK(d == -7);
            tgraph_free(&t);
            or_edges_free(&e);
            continue;
        }
        int32_t *got = or_alloc((size_t)n, sizeof *got);

        /* a few sources, with a repeat */
        int64_t few = 1 + or_rand_below(&rng, 5);
        lg_vertex_t *src = random_sources(n, few, &rng);
        int32_t depth = or_rand_below(&rng, 3) ? -1 : (int32_t)or_rand_below(&rng, 5);
        int d = (int)or_rand_below(&rng, NUM_DIRECTIONS), k = (int)or_rand_below(&rng, NUM_CTX);
        lg_bfs_options_t bo = bfs_options(d, depth, or_rand_below(&rng, 3) != 0);
        int32_t *want = oracle_bfs(&t, src, few + 1, depth);
        run_bfs(&t, src, few + 1, &bo, k, want, got, "repeated sources");
        free(want);
        /* a single source, as lg_bfs and as a one-element lg_bfs_multi */
        want = oracle_bfs(&t, src, 1, depth);
        int32_t *also = or_alloc((size_t)n, sizeof *also);
        run_bfs(&t, src, 1, &bo, (k + 1) % NUM_CTX, want, got, "one source");
        lg_vertex_t twice[2] = {src[0], src[0]};
        run_bfs(&t, twice, 2, &bo, (k + 2) % NUM_CTX, want, also, "one source twice");
        CHECK(memcmp(got, also, (size_t)n * sizeof *got) == 0);
        free(also);
        free(want);
        free(src);

        /* every vertex a source, in reverse order: all at distance 0 */
        lg_vertex_t *all = or_alloc((size_t)n + 6, sizeof *all); /* reused below */
        for (int64_t v = 0; v < n; v++)
            all[v] = (lg_vertex_t)(n - 1 - v);
        want = oracle_bfs(&t, all, n, -1);
        bo = bfs_options((d + 3) % NUM_DIRECTIONS, -1, true);
        run_bfs(&t, all, n, &bo, (k + 1) % NUM_CTX, want, got, "every vertex a source");
        bool all_zero = true;
        for (int64_t v = 0; v < n; v++)
            all_zero = all_zero && want[v] == 0;
        CHECK(all_zero);
        free(want);

        /* one source in each of (up to 5) weak components, a random member of
         * each, and the last vertex */
        lg_vertex_t *labels = or_alloc((size_t)n, sizeof *labels);
        or_components(&t.o, labels);
        int64_t ns = 0;
        for (int64_t r = 0; r < n && ns < 5; r++) {
            if (labels[r] != r)
                continue;
            int64_t start = or_rand_below(&rng, n);
            for (int64_t i = 0; i < n; i++)
                if (labels[(start + i) % n] == r) {
                    all[ns++] = (lg_vertex_t)((start + i) % n);
                    break;
                }
        }
        all[ns++] = (lg_vertex_t)(n - 1);
        depth = or_rand_below(&rng, 2) ? -1 : (int32_t)or_rand_below(&rng, 4);
        want = oracle_bfs(&t, all, ns, depth);
        bo = bfs_options((int)or_rand_below(&rng, NUM_DIRECTIONS), depth, true);
        run_bfs(&t, all, ns, &bo, (int)or_rand_below(&rng, NUM_CTX), want, got,
                "sources in different components");
        free(want);
        free(labels);
        free(all);

        /* a depth sweep from one source on a third of the graphs */
        if (gi % 3 == 0) {
            lg_vertex_t s1 = (lg_vertex_t)or_rand_below(&rng, n);
            bfs_depths(&t, &s1, 1, "random shape", &rng);
        }
        free(got);
        tgraph_free(&t);
        or_edges_free(&e);
    }
}

/* ---- BFS argument checks ---------------------------------------------------------------- */

/* The call must fail with LG_ERR_INVALID_ARGUMENT and leave the outputs alone. */
#define CHECK_BFS_REFUSED(call, dist, parents, n)                                                  \
    do {                                                                                           \
        for (int64_t i_ = 0; i_ < (n); i_++)                                                       \
            (dist)[i_] = -7, (parents)[i_] = -7;                                                   \
        CHECK_STATUS(call, LG_ERR_INVALID_ARGUMENT);                                               \
        bool untouched_ = true;                                                                    \
        for (int64_t i_ = 0; i_ < (n); i_++)                                                       \
            untouched_ = untouched_ && (dist)[i_] == -7 && (parents)[i_] == -7;                    \
        CHECK(untouched_);                                                                         \
    } while (0)

static void test_bfs_arguments(void)
{
    set_subject("a path 0 -> 1 -> ... -> 9");
    struct elist el;
    el_init(&el, 10);
    el_path(&el, 0, 10, false);
    struct tgraph t;
    if (!tgraph_from_elist(&t, &el, true, false, 0)) {
        el_free(&el);
        return;
    }
    int32_t dist[10];
    lg_vertex_t parents[10];
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    CHECK(!bo.compute_parents && bo.max_depth == -1 && bo.direction_alpha == 15 &&
          bo.direction_beta == 18);
    bo.compute_parents = true;
    const lg_vertex_t good[4] = {0, 3, 3, 9};

    /* sources */
    CHECK_BFS_REFUSED(lg_bfs_multi(ctx[0], t.g, NULL, 1, &bo, dist, parents), dist, parents, 10);
    CHECK_BFS_REFUSED(lg_bfs_multi(ctx[1], t.g, good, 0, &bo, dist, parents), dist, parents, 10);
    CHECK_BFS_REFUSED(lg_bfs_multi(ctx[2], t.g, good, -1, &bo, dist, parents), dist, parents, 10);
    CHECK_BFS_REFUSED(lg_bfs_multi(ctx[0], t.g, NULL, 0, &bo, dist, parents), dist, parents, 10);
    const lg_vertex_t bad_ids[] = {-1, 10, INT32_MAX, INT32_MIN};
    for (int i = 0; i < 4; i++) {
        lg_vertex_t srcs[4] = {0, 3, 9, 3};
        srcs[i % 4] = bad_ids[i]; /* a bad one anywhere in the list */
        CHECK_BFS_REFUSED(lg_bfs_multi(ctx[i % NUM_CTX], t.g, srcs, 4, &bo, dist, parents), dist,
                          parents, 10);
        CHECK_BFS_REFUSED(lg_bfs(ctx[i % NUM_CTX], t.g, bad_ids[i], &bo, dist, parents), dist,
                          parents, 10);
    }
    CHECK_BFS_REFUSED(lg_bfs_multi(ctx[0], NULL, good, 4, &bo, dist, parents), dist, parents, 10);

    /* max_depth < -1 */
    const int32_t bad_depths[] = {-2, -100, INT32_MIN};
    for (int i = 0; i < 3; i++) {
        lg_bfs_options_t b = bo;
        b.max_depth = bad_depths[i];
        CHECK_BFS_REFUSED(lg_bfs_multi(ctx[i], t.g, good, 4, &b, dist, parents), dist, parents, 10);
        CHECK_BFS_REFUSED(lg_bfs(ctx[i], t.g, 0, &b, dist, parents), dist, parents, 10);
    }
    /* alpha < 0, beta < 1 */
    const int bad_dirs[][2] = {{-1, 18}, {INT_MIN, 18}, {15, 0},      {15, -1},
                               {0, 0},   {-1, -1},      {15, INT_MIN}};
    for (int i = 0; i < 7; i++) {
        lg_bfs_options_t b = bo;
        b.direction_alpha = bad_dirs[i][0];
        b.direction_beta = bad_dirs[i][1];
        CHECK_BFS_REFUSED(lg_bfs_multi(ctx[i % NUM_CTX], t.g, good, 4, &b, dist, parents), dist,
                          parents, 10);
        CHECK_BFS_REFUSED(lg_bfs(ctx[i % NUM_CTX], t.g, 5, &b, dist, parents), dist, parents, 10);
    }
    /* compute_parents without parents */
    CHECK_BFS_REFUSED(lg_bfs_multi(ctx[1], t.g, good, 4, &bo, dist, NULL), dist, parents, 10);
    /* no distances */
    CHECK_STATUS(lg_bfs_multi(ctx[1], t.g, good, 4, &bo, NULL, parents), LG_ERR_INVALID_ARGUMENT);

    /* the edges of the valid range work */
    int32_t want[10];
    lg_bfs_options_t b = bo;
    b.direction_alpha = 0;
    b.direction_beta = 1;
    or_bfs_multi(&t.o, good, 4, -1, want);
    run_bfs(&t, good, 4, &b, 2, want, dist, "alpha 0 beta 1");
    b = bo;
    b.max_depth = INT32_MAX;
    run_bfs(&t, good, 4, &b, 1, want, dist, "max_depth INT32_MAX");
    /* NULL options: the defaults, no parents (parents may then be NULL) */
    for (int i = 0; i < 10; i++)
        dist[i] = -7;
    CHECK_OK(lg_bfs_multi(ctx[0], t.g, good, 4, NULL, dist, NULL));
    CHECK(memcmp(dist, want, sizeof dist) == 0);
    /* 0, 3 and 9 are sources; 1, 2 at 1, 2; 4..8 at 1..5 from 3 */
    const int32_t by_hand[10] = {0, 1, 2, 0, 1, 2, 3, 4, 5, 0};
    CHECK(memcmp(want, by_hand, sizeof want) == 0);
    b = bo;
    b.max_depth = 2;
    or_bfs_multi(&t.o, good, 4, 2, want);
    const int32_t by_hand2[10] = {0, 1, 2, 0, 1, 2, -1, -1, -1, 0};
    CHECK(memcmp(want, by_hand2, sizeof want) == 0);
    run_bfs(&t, good, 4, &b, 0, want, dist, "max_depth 2 by hand");
    tgraph_free(&t);
    el_free(&el);

    /* the empty graph has no vertex to start from */
    set_subject("the empty graph");
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges(ctx[0], 0, 0, NULL, NULL, NULL, NULL, &g));
    if (g) {
        const lg_vertex_t zero = 0;
        int32_t d = -7;
        CHECK_STATUS(lg_bfs_multi(ctx[0], g, &zero, 1, NULL, &d, NULL), LG_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(lg_bfs(ctx[1], g, 0, NULL, &d, NULL), LG_ERR_INVALID_ARGUMENT);
        CHECK(d == -7);
        lg_graph_free(&g);
    }
}

/* ---- BFS on graphs where the direction switch matters ----------------------------------- */

enum big_shape {
    BIG_URAND,       /* uniform random, average degree 16 */
    BIG_DAG,         /* arcs from lower to higher rank only, average out-degree 16 */
    BIG_STAR,        /* one hub joined to every other vertex */
    BIG_STAR_IN,     /* every leaf -> the hub (directed) */
    BIG_PATH,        /* deep: one vertex per level */
    BIG_GRID,        /* deep and narrow: a 160 x 160 grid, diagonal frontiers */
    BIG_BARBELL,     /* dense cluster - long path - dense cluster */
    BIG_GIANT_SMALL, /* a giant of average degree 16 plus pairs and singletons */
    BIG_MULTIGRAPH,  /* random with duplicate arcs and self-loops kept */
    BIG_COMMUNITIES, /* 8 dense communities in a ring, one arc between neighbours */
    BIG_KRONECKER,   /* lg_generate's Graph500 graph */
    BIG_NUM
};

static const char *const big_names[BIG_NUM] = {"uniform random, degree 16",
                                               "DAG, out-degree 16",
                                               "star",
                                               "star, leaves -> hub",
                                               "path",
                                               "160 x 160 grid",
                                               "barbell",
                                               "giant plus small components",
                                               "multigraph with self-loops",
                                               "communities",
                                               "Kronecker"};

static void big_edges(struct elist *el, enum big_shape shape, bool directed,
                      unsigned long long *rng)
{
    int64_t n;
    switch (shape) {
    case BIG_URAND:
        n = directed ? 5000 : 6000;
        el_init(el, n);
        /* undirected edges count twice: arcs = 16 n either way */
        el_random(el, 0, n, directed ? 16 * n : 8 * n, rng);
        break;
    case BIG_DAG:
        n = 5000;
        el_init(el, n);
        for (int64_t i = 0; i < 16 * n; i++) {
            int64_t a = or_rand_below(rng, n), b = or_rand_below(rng, n);
            if (a != b)
                el_add(el, a < b ? a : b, a < b ? b : a, 1.0f);
        }
        break;
    case BIG_STAR:
    case BIG_STAR_IN: {
        n = 20000;
        el_init(el, n);
        int64_t hub = or_rand_below(rng, n);
        for (int64_t v = 0; v < n; v++)
            if (v != hub) {
                if (shape == BIG_STAR_IN)
                    el_add(el, v, hub, 1.0f);
                else
                    el_add(el, hub, v, 1.0f);
            }
        return; /* ids are random enough: the hub is */
    }
    case BIG_PATH:
        n = 3000;
        el_init(el, n);
        el_path(el, 0, n, false);
        break;
    case BIG_GRID: /* directed: arcs go right and down only */
        n = 160 * 160;
        el_init(el, n);
        for (int64_t r = 0; r < 160; r++)
            for (int64_t c = 0; c < 160; c++) {
                if (c + 1 < 160)
                    el_add(el, 160 * r + c, 160 * r + c + 1, 1.0f);
                if (r + 1 < 160)
                    el_add(el, 160 * r + c, 160 * (r + 1) + c, 1.0f);
            }
        break;
    case BIG_BARBELL: /* clusters on [0, 2500) and [2900, 5400), a path between */
        n = 5400;
        el_init(el, n);
        el_random(el, 0, 2500, 2500 * (directed ? 16 : 8), rng);
        el_path(el, 2499, 402, false);
        el_random(el, 2900, 2500, 2500 * (directed ? 16 : 8), rng);
        if (directed) /* a way back, so both clusters are reachable from both */
            el_add(el, 2900, 2499, 1.0f);
        break;
    case BIG_GIANT_SMALL:
        n = 8000;
        el_init(el, n);
        el_random(el, 0, 5000, directed ? 16 * 5000 : 8 * 5000, rng);
        for (int64_t v = 5000; v + 1 < 7000; v += 2)
            el_add(el, v, v + 1, 1.0f);
        break;
    case BIG_MULTIGRAPH:
        n = 4000;
        el_init(el, n);
        el_random(el, 0, n, 6 * n, rng);
        for (int64_t i = 0; i < 4 * n; i++) { /* copies of arcs already there, loops */
            int64_t j = or_rand_below(rng, el->E);
            if (i % 4 == 0)
                el_add(el, el->src[j], el->src[j], 1.0f);
            else
                el_add(el, el->src[j], el->dst[j], 1.0f);
        }
        break;
    case BIG_COMMUNITIES:
        /* Beamer's rule goes bottom-up once a community is explored, but the
         * vertices of the other communities find no parent and scan all
         * their in-arcs: the sampled estimate keeps BFS top-down there */
        n = 8 * 400;
        el_init(el, n);
        for (int64_t c = 0; c < 8; c++) {
            el_random(el, 400 * c, 400, 400 * (directed ? 60 : 30), rng);
            el_add(el, 400 * c, 400 * ((c + 1) % 8) + 1, 1.0f);
        }
        break;
    default: return;
    }
    el_permute(el, rng);
}

/* The source sets every big graph is searched from. */
static void bfs_big_graph(const struct tgraph *t, unsigned long long *rng, bool full)
{
    const int64_t n = t->o.n;
    lg_vertex_t hub = max_out_degree_vertex(&t->o);
    lg_vertex_t one = (lg_vertex_t)or_rand_below(rng, n);
    bfs_all_paths(t, &hub, 1, -1, "from the hub");
    bfs_all_paths(t, &one, 1, -1, "from a random vertex");
    if (full) {
        lg_vertex_t last = (lg_vertex_t)(n - 1);
        bfs_all_paths(t, &last, 1, -1, "from the last vertex");
        lg_vertex_t *many = random_sources(n, 99, rng);
        many[50] = hub;
        bfs_all_paths(t, many, 100, -1, "from 100 sources with repeats");
        lg_vertex_t two[2] = {one, (lg_vertex_t)or_rand_below(rng, n)};
        bfs_all_paths(t, two, 2, -1, "from 2 sources");
        bfs_depths(t, many, 100, "from 100 sources", rng);
        free(many);
        /* a random member of each of up to 64 weak components */
        lg_vertex_t *labels = or_alloc((size_t)n, sizeof *labels);
        lg_vertex_t *members = or_alloc((size_t)n, sizeof *members);
        bool *seen = or_alloc((size_t)n, sizeof *seen);
        or_components(&t->o, labels);
        int64_t ns = 0;
        for (int64_t i = 0, start = or_rand_below(rng, n); i < n && ns < 64; i++) {
            int64_t v = (start + i) % n;
            if (!seen[labels[v]]) {
                seen[labels[v]] = true;
                members[ns++] = (lg_vertex_t)v;
            }
        }
        free(seen);
        bfs_all_paths(t, members, ns, -1, "one source in each of several components");
        /* every vertex */
        for (int64_t v = 0; v < n; v++)
            members[v] = (lg_vertex_t)v;
        bfs_all_paths(t, members, n, -1, "every vertex a source");
        free(labels);
        free(members);
    }
    bfs_depths(t, &hub, 1, "from the hub", rng);
    bfs_depths(t, &one, 1, "from a random vertex", rng);
}

/* With the default options, a search of the communities graph stays
 * top-down where Beamer's rule alone would go bottom-up (the path that
 * shape is there for is taken) and gets the oracle's distances. */
static void bfs_stays_top_down(const struct tgraph *t, unsigned long long *rng)
{
    lg_vertex_t s0 = (lg_vertex_t)or_rand_below(rng, t->o.n);
    int32_t *want = oracle_bfs(t, &s0, 1, -1);
    int32_t *got = or_alloc((size_t)t->o.n, sizeof *got);
    for (int k = 0; k < NUM_CTX; k++) {
        lg_bfs_options_t bo;
        lg_bfs_options_init(&bo); /* the library's defaults, whatever the table says */
        bo.compute_parents = k == 1;
        (void)lg__bfs_top_down_stays();
        run_bfs(t, &s0, 1, &bo, k, want, got, "defaults, stays top-down");
        CHECK(lg__bfs_top_down_stays() > 0);
    }
    free(want);
    free(got);
}

static void test_bfs_direction(void)
{
    for (int shape = 0; shape < BIG_NUM; shape++)
        for (int directed = 1; directed >= 0; directed--) {
            if (shape == BIG_DAG && !directed)
                continue; /* an undirected DAG is just a random graph */
            if (shape == BIG_STAR_IN && !directed)
                continue; /* the same as BIG_STAR */
            unsigned long long seed = 4200 + 10 * (unsigned long long)shape + (unsigned)directed;
            unsigned long long rng = seed * 0x2545F4914F6CDD1Dull + 1;
            struct tgraph t;
            struct elist el;
            el_init(&el, 0);
            bool built;
            int scale = 0;
            if (shape == BIG_KRONECKER) {
                scale = directed ? 12 : 13;
                built = tgraph_generate(&t, LG_GENERATOR_KRONECKER, scale, 16, seed, directed,
                                        shape % NUM_CTX);
            } else {
                big_edges(&el, (enum big_shape)shape, directed, &rng);
                built = tgraph_from_elist(&t, &el, directed, false, shape % NUM_CTX);
            }
            set_subject("%s%s, %s, seed %llu, %lld vertices, %lld arcs", big_names[shape],
                        scale ? (scale == 12 ? " scale 12" : " scale 13") : "",
                        directed ? "directed" : "undirected", seed, (long long)t.o.n,
                        (long long)t.o.m);
            if (built) {
                /* half the directed graphs have their CSC before the first BFS; the
                 * others build it inside one, from 3 threads, going bottom-up at once */
                if (directed && shape % 2) {
                    CHECK_OK(lg_graph_csc(t.g, NULL, NULL, NULL));
                } else if (directed) {
                    lg_vertex_t s0 = max_out_degree_vertex(&t.o);
                    int32_t *want = oracle_bfs(&t, &s0, 1, -1);
                    int32_t *got = or_alloc((size_t)t.o.n, sizeof *got);
                    lg_bfs_options_t bo = bfs_options(3, -1, true);
                    run_bfs(&t, &s0, 1, &bo, 2, want, got, "first BFS, builds the CSC");
                    free(want);
                    free(got);
                }
                bfs_big_graph(&t, &rng,
                              shape != BIG_PATH && shape != BIG_BARBELL && shape != BIG_GRID);
                if (shape == BIG_COMMUNITIES)
                    bfs_stays_top_down(&t, &rng);
            }
            tgraph_free(&t);
            el_free(&el);
        }

    /* the largest Kronecker graph, from two sources only */
    struct tgraph t;
    unsigned long long rng = 99;
    if (tgraph_generate(&t, LG_GENERATOR_KRONECKER, 14, 16, 14, false, 2)) {
        set_subject("Kronecker scale 14, undirected, seed 14, %lld arcs", (long long)t.o.m);
        lg_vertex_t hub = max_out_degree_vertex(&t.o),
                    one = (lg_vertex_t)or_rand_below(&rng, t.o.n);
        bfs_all_paths(&t, &hub, 1, -1, "from the hub");
        bfs_all_paths(&t, &one, 1, -1, "from a random vertex");
        tgraph_free(&t);
    }
}

/* ---- PageRank ------------------------------------------------------------------------------ */

/* Row and column lengths around the vector widths, up to 5000. */
static const int64_t ladder[] = {1,    2,    3,    4,    5,    6,    7,    8,    9,    10,  11,
                                 12,   13,   14,   15,   16,   17,   31,   32,   33,   63,  64,
                                 65,   127,  128,  129,  255,  256,  257,  511,  512,  513, 1000,
                                 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 5000};
#define LADDER ((int64_t)(sizeof ladder / sizeof ladder[0]))

/* Vertex i < LADDER has out-degree ladder[i], vertex LADDER + i in-degree
 * ladder[i]; the rest have out-degree 0 .. 4 (a fifth of them sinks); a few
 * have out-arcs of weight 0 only (dangling by weight), some arcs weigh 0. */
static void ladder_edges(struct elist *el, unsigned long long *rng)
{
    const int64_t n = 12007; /* not a multiple of any vector width */
    el_init(el, n);
    for (int64_t i = 0; i < LADDER; i++)
        for (int64_t j = 0; j < ladder[i]; j++) {
            el_add(el, i, or_rand_below(rng, n), rand_weight(rng));
            el_add(el, or_rand_below(rng, n), LADDER + i, rand_weight(rng));
        }
    for (int64_t v = 2 * LADDER; v < n; v++) {
        int64_t deg = or_rand_below(rng, 5), zero_row = v % 500 == 0;
        for (int64_t j = 0; j < deg + zero_row; j++)
            el_add(el, v, or_rand_below(rng, n),
                   zero_row || or_rand_below(rng, 10) == 0 ? 0.0f : rand_weight(rng));
    }
    el_permute(el, rng);
}

struct pr_want {
    double *x, *errs;
    int iters;
    bool converged;
};

static void pr_want_free(struct pr_want *w)
{
    free(w->x);
    free(w->errs);
}

static struct pr_want pr_oracle(const or_graph *o, const lg_pagerank_options_t *po)
{
    struct pr_want w;
    w.x = or_alloc((size_t)o->n, sizeof *w.x);
    w.errs = or_alloc((size_t)po->max_iter + 1, sizeof *w.errs);
    w.converged = or_pagerank(o, po->alpha, po->personalization, po->nstart, po->dangling,
                              po->use_weights, po->max_iter, po->tol, w.x, &w.iters, w.errs);
    return w;
}

/* Is a stopping decision of the oracle within `slack` of N * tol? */
static bool too_close(const struct pr_want *w, int64_t n, double tol, double slack)
{
    const double limit = (double)n * tol;
    for (int i = 0; i < w->iters; i++)
        if (fabs(w->errs[i] - limit) <= slack)
            return true;
    return false;
}

static long pr_skips;

static void check_pr_double(const struct tgraph *t, const lg_pagerank_options_t *po,
                            const struct pr_want *w, int k, const char *what)
{
    const int64_t n = t->o.n;
    double *got = or_alloc((size_t)n, sizeof *got);
    int iters = -5;
    lg_status_t st = lg_pagerank(ctx[k], t->g, po, got, &iters);
    CHECK(or_ran_on_expected(n > 0));
    lg_status_t want_st = w->converged ? LG_OK : LG_ERR_NOT_CONVERGED;
    if (too_close(w, n, po->tol, 1e-9 * (double)n * po->tol)) {
        pr_skips++;
        free(got);
        return;
    }
    CHECK(st == want_st && iters == w->iters);
    if (st != want_st || iters != w->iters) {
        report("lg_pagerank, %s, %d threads: %s after %d iterations, want %s after %d", what, k + 1,
               lg_status_string(st), iters, lg_status_string(want_st), w->iters);
    } else {
        int64_t at = -1;
        for (int64_t v = 0; v < n && at < 0; v++)
            if (!(fabs(got[v] - w->x[v]) <= 1e-9 * w->x[v] + 1e-15))
                at = v;
        CHECK(at < 0);
        if (at >= 0)
            report("lg_pagerank, %s, %d threads: score of %lld is %.17g, want %.17g", what, k + 1,
                   (long long)at, got[at], w->x[at]);
    }
    free(got);
}

static void check_pr_float(const struct tgraph *t, const lg_pagerank_options_t *po,
                           const struct pr_want *w, int k, const char *what)
{
    const int64_t n = t->o.n;
    float *got = or_alloc((size_t)n, sizeof *got);
    int iters = -5;
    lg_status_t st = lg_pagerank_f32(ctx[k], t->g, po, got, &iters);
    CHECK(or_ran_on_expected(n > 0));
    lg_status_t want_st = w->converged ? LG_OK : LG_ERR_NOT_CONVERGED;
    /* float rounding moves an L1 change (of vectors summing to 1) by ~1e-6 */
    const bool close = too_close(w, n, po->tol, 1e-5);
    bool same_stop = st == want_st && iters == w->iters;
    if (close && !same_stop) {
        pr_skips++;
        same_stop = (st == LG_OK || st == LG_ERR_NOT_CONVERGED) && iters >= 1 &&
                    iters <= po->max_iter && abs(iters - w->iters) <= 1;
    }
    CHECK(same_stop);
    if (!same_stop) {
        report("lg_pagerank_f32, %s, %d threads: %s after %d iterations, want %s after %d", what,
               k + 1, lg_status_string(st), iters, lg_status_string(want_st), w->iters);
        free(got);
        return;
    }
    /* the float64 iterate after as many iterations */
    struct pr_want at_iters = {NULL, NULL, 0, false};
    const double *want = w->x;
    if (iters != w->iters) {
        lg_pagerank_options_t exact = *po;
        exact.max_iter = iters;
        exact.tol = -1.0;
        at_iters = pr_oracle(&t->o, &exact);
        want = at_iters.x;
    }
    int64_t at = -1;
    double worst = 0.0;
    for (int64_t v = 0; v < n; v++) {
        double diff = fabs((double)got[v] - want[v]);
        if (!(diff <= 1e-5 * want[v] + 1e-30)) {
            double rel = want[v] > 0 ? diff / want[v] : INFINITY;
            if (at < 0 || !(rel <= worst))
                at = v, worst = rel;
        }
    }
    CHECK(at < 0);
    if (at >= 0)
        report("lg_pagerank_f32, %s, %d threads: score of %lld is %.9g, want %.12g (relative "
               "error %.3g)",
               what, k + 1, (long long)at, (double)got[at], want[at], worst);
    pr_want_free(&at_iters);
    free(got);
}

/* PageRank settings run on every big graph. */
static void pagerank_big_graph(const struct tgraph *t, unsigned long long *rng)
{
    const int64_t n = t->o.n;
    double *pers = or_alloc((size_t)n, sizeof *pers), *dang = or_alloc((size_t)n, sizeof *dang);
    for (int64_t v = 0; v < n; v++) {
        pers[v] = or_rand_below(rng, 4) ? (double)(1 + or_rand_below(rng, 100)) : 0.0;
        dang[v] = (double)or_rand_below(rng, 3);
    }
    pers[0] = dang[0] = 1.0;
    for (int setting = 0; setting < 5; setting++) {
        lg_pagerank_options_t po;
        lg_pagerank_options_init(&po);
        const char *what = "defaults";
        switch (setting) {
        case 1:
            po.use_weights = false;
            what = "weights ignored";
            break;
        case 2:
            po.alpha = 0.5;
            po.tol = 1e-10;
            po.max_iter = 200;
            what = "alpha 0.5, tol 1e-10";
            break;
        case 3:
            po.alpha = 0.9;
            po.personalization = pers;
            po.dangling = dang;
            what = "alpha 0.9, personalization, dangling";
            break;
        case 4:
            po.max_iter = 4;
            po.tol = 1e-12;
            what = "4 iterations (not converged)";
            break;
        default: break;
        }
        struct pr_want w = pr_oracle(&t->o, &po);
        for (int k = 0; k < NUM_CTX; k++) {
            check_pr_double(t, &po, &w, k, what);
            check_pr_float(t, &po, &w, k, what);
        }
        pr_want_free(&w);
    }
    free(pers);
    free(dang);
}

/* On the CPU, PageRank on a skewed graph that runs many iterations stores
 * its contributions in hub order (pagerank.c): the settings above with
 * many iterations must have taken that path on `what`. */
static void expect_hub_order(const char *what)
{
#ifndef LG_TEST_GPU
    const long runs = lg__pagerank_hub_runs();
    CHECK(runs > 0);
    if (runs <= 0)
        report("PageRank on %s never switched to hub order", what);
#else
    (void)what;
#endif
}

static void test_pagerank(void)
{
    /* hub order on graphs of any size, so these small ones reach it */
    const size_t hub_min = lg__pagerank_hub_min_bytes(0);
    (void)lg__pagerank_hub_runs();
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long seed = 6100 + (unsigned long long)directed, rng = seed;
        struct elist el;
        ladder_edges(&el, &rng);
        set_subject("degree ladder 1 .. 5000 with sinks and zero weights, %s, seed %llu",
                    directed ? "directed" : "undirected", seed);
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, true, directed)) {
            if (directed && !lg_graph_is_weighted(t.g))
                report("the ladder graph lost its weights");
            pagerank_big_graph(&t, &rng);
        }
        tgraph_free(&t);
        el_free(&el);
    }
    /* uniform random with a few hubs that take a third of the arcs */
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long seed = 6200 + (unsigned long long)directed, rng = seed;
        const int64_t n = 10003;
        struct elist el;
        el_init(&el, n);
        for (int64_t i = 0; i < 8 * n; i++) {
            int64_t a = or_rand_below(&rng, n), b = or_rand_below(&rng, n);
            if (i % 3 == 0)
                b %= 7;
            el_add(&el, a, b, i % 11 == 0 ? 0.0f : rand_weight(&rng));
        }
        set_subject("random with 7 hubs, %s, seed %llu", directed ? "directed" : "undirected",
                    seed);
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, true, 2))
            pagerank_big_graph(&t, &rng);
        tgraph_free(&t);
        el_free(&el);
    }
    /* 2^17 leaves -> hub 0, and the first 40000 of them -> vertex 1 -> 0 too:
     * column 0 starts with vertex 1's large term and goes on with 131074 tiny
     * equal ones, a sum that drifts by far more than 1e-5 if accumulated in
     * float, as each tiny term is rounded against the large partial sum */
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long seed = 6400 + (unsigned long long)directed, rng = seed;
        const int64_t n = ((int64_t)1 << 17) + 4;
        struct elist el;
        el_init(&el, n);
        el_add(&el, 1, 0, 1.0f);
        for (int64_t v = 2; v < n; v++) {
            el_add(&el, v, 0, 1.0f);
            if (v < 40002)
                el_add(&el, v, 1, 1.0f);
        }
        set_subject("in-star of %lld leaves with a heavy first term, %s", (long long)n - 2,
                    directed ? "directed" : "undirected");
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, true, 0))
            pagerank_big_graph(&t, &rng);
        tgraph_free(&t);
        el_free(&el);
    }
    /* Kronecker's raw edges (self-loops, repeats), weighted, some weights 0:
     * the weighted, skewed case of hub order */
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long seed = 6500 + (unsigned long long)directed, rng = seed;
        const int scale = 12, ef = 16;
        const int64_t n = (int64_t)1 << scale, E = (int64_t)ef << scale;
        lg_vertex_t *src = or_alloc((size_t)E, sizeof *src),
                    *dst = or_alloc((size_t)E, sizeof *dst);
        CHECK_OK(lg_generate_edges(ctx[0], LG_GENERATOR_KRONECKER, scale, ef, seed, src, dst));
        struct elist el;
        el_init(&el, n);
        for (int64_t i = 0; i < E; i++)
            el_add(&el, src[i], dst[i], or_rand_below(&rng, 13) == 0 ? 0.0f : rand_weight(&rng));
        free(src);
        free(dst);
        set_subject("Kronecker scale %d raw edges, weighted, %s, seed %llu", scale,
                    directed ? "directed" : "undirected", seed);
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, true, 1)) {
            pagerank_big_graph(&t, &rng);
            expect_hub_order("the weighted Kronecker graph");
        }
        tgraph_free(&t);
        el_free(&el);
    }
    /* Kronecker, unweighted: heavy-tailed rows and columns */
    for (int directed = 1; directed >= 0; directed--) {
        unsigned long long rng = 6300;
        struct tgraph t;
        set_subject("Kronecker scale 13, %s, seed 13", directed ? "directed" : "undirected");
        if (tgraph_generate(&t, LG_GENERATOR_KRONECKER, 13, 16, 13, directed, 1)) {
            pagerank_big_graph(&t, &rng);
            expect_hub_order("the Kronecker graph");
        }
        tgraph_free(&t);
    }
    lg__pagerank_hub_min_bytes(hub_min);
}

/* ---- connected components ------------------------------------------------------------------- */

static long cc_runs;

/* Every context, twice each, on one graph: labels and count exactly the
 * oracle's, and identical run to run. */
static void check_cc_all(const lg_graph_t *g, const or_graph *o, const char *what)
{
    const int64_t n = o->n;
    lg_vertex_t *want = or_alloc((size_t)n, sizeof *want), *got = or_alloc((size_t)n, sizeof *got);
    lg_vertex_t *first = or_alloc((size_t)n, sizeof *first);
    const int64_t want_count = or_components(o, want);
    for (int run = 0; run < 2 * NUM_CTX; run++) {
        const int k = (run + (int)(n % NUM_CTX)) % NUM_CTX; /* start on varying contexts */
        for (int64_t v = 0; v < n; v++)
            got[v] = -7;
        int64_t count = -1;
        lg_status_t st = lg_connected_components(ctx[k], g, got, run == 3 ? NULL : &count);
        CHECK(or_ran_on_expected(false));
        cc_runs++;
        CHECK(st == LG_OK);
        if (st != LG_OK) {
            report("lg_connected_components, %s, %d threads: %s: %s", what, k + 1,
                   lg_status_string(st), lg_last_error());
            continue;
        }
        int64_t bad = -1, wrong = 0;
        for (int64_t v = 0; v < n; v++)
            if (got[v] != want[v]) {
                bad = bad < 0 ? v : bad;
                wrong++;
            }
        CHECK(bad < 0);
        if (run != 3)
            CHECK(count == want_count);
        if (bad >= 0 || (run != 3 && count != want_count))
            report("lg_connected_components, %s, %d threads, run %d: %lld components (want %lld); "
                   "%lld labels wrong, first: label of %lld is %d, want %d",
                   what, k + 1, run, (long long)count, (long long)want_count, (long long)wrong,
                   (long long)(bad < 0 ? 0 : bad), bad < 0 ? 0 : (int)got[bad],
                   bad < 0 ? 0 : (int)want[bad]);
        if (run == 0) {
            memcpy(first, got, (size_t)n * sizeof *got);
        } else {
            bool same = memcmp(first, got, (size_t)n * sizeof *got) == 0;
            CHECK(same);
        }
    }
    free(want);
    free(got);
    free(first);
}

enum cc_shape {
    CC_GIANT_SMALL,    /* a giant, pairs, triangles, singletons */
    CC_SINGLETONS,     /* no arcs at all */
    CC_LOOPS_ONLY,     /* every vertex a self-loop */
    CC_TWO_GIANTS,     /* two equal giants on the even and the odd ids */
    CC_PATH,           /* one long path in id order */
    CC_PATH_ALTERNATE, /* a long path whose arcs alternate direction, ids shuffled */
    CC_STAR_OUT,       /* hub -> every leaf */
    CC_STAR_IN,        /* every leaf -> hub */
    CC_PENDANTS_OUT,   /* a giant, and leaves each reached by one arc from it */
    CC_PENDANTS_IN,    /* a giant, and leaves each with one arc into it */
    CC_LATE_GIANT,     /* small components on the low ids, the giant on the high ones */
    CC_MEDIUM,         /* 200 components of 100 vertices */
    CC_CHAINS,         /* a giant plus alternating chains hanging off it */
    CC_NUM
};

static const char *const cc_names[CC_NUM] = {"giant plus small components",
                                             "all singletons",
                                             "self-loops only",
                                             "two equal giants",
                                             "path in id order",
                                             "alternating path, shuffled",
                                             "star, hub -> leaves",
                                             "star, leaves -> hub",
                                             "giant with pendant out-leaves",
                                             "giant with pendant in-leaves",
                                             "giant on the high ids",
                                             "200 medium components",
                                             "giant with alternating chains"};

static void cc_edges(struct elist *el, enum cc_shape shape, unsigned long long *rng)
{
    int64_t n, hub;
    switch (shape) {
    case CC_GIANT_SMALL:
        n = 30000;
        el_init(el, n);
        el_random(el, 0, 12000, 6 * 12000, rng);
        for (int64_t v = 12000; v + 1 < 20000; v += 2)
            el_add(el, v, v + 1, 1.0f);
        for (int64_t v = 20000; v + 2 < 23000; v += 3)
            el_add(el, v, v + 1, 1.0f), el_add(el, v + 2, v + 1, 1.0f), el_add(el, v, v + 2, 1.0f);
        el_permute(el, rng);
        break;
    case CC_SINGLETONS: el_init(el, 5000); break;
    case CC_LOOPS_ONLY:
        el_init(el, 5000);
        for (int64_t v = 0; v < 5000; v++)
            el_add(el, v, v, 1.0f);
        break;
    case CC_TWO_GIANTS:
        n = 16000;
        el_init(el, n);
        for (int64_t i = 0; i < 8 * n; i++) {
            int64_t parity = i % 2;
            el_add(el, 2 * or_rand_below(rng, n / 2) + parity,
                   2 * or_rand_below(rng, n / 2) + parity, 1.0f);
        }
        break;
    case CC_PATH:
        el_init(el, 20000);
        el_path(el, 0, 20000, false);
        break;
    case CC_PATH_ALTERNATE:
        el_init(el, 20000);
        el_path(el, 0, 20000, true);
        el_permute(el, rng);
        break;
    case CC_STAR_OUT:
    case CC_STAR_IN:
        n = 20000;
        el_init(el, n);
        hub = or_rand_below(rng, n);
        for (int64_t v = 0; v < n; v++)
            if (v != hub)
                el_add(el, shape == CC_STAR_IN ? v : hub, shape == CC_STAR_IN ? hub : v, 1.0f);
        break;
    case CC_PENDANTS_OUT:
    case CC_PENDANTS_IN:
        /* each giant vertex has ~8 arcs; the leaves' single arcs sit anywhere in
         * a giant vertex's row, often past the first few a sampler looks at */
        n = 16000;
        el_init(el, n);
        el_random(el, 0, 8000, 8 * 8000, rng);
        for (int64_t v = 8000; v < n; v++) {
            int64_t u = or_rand_below(rng, 8000);
            if (shape == CC_PENDANTS_OUT)
                el_add(el, u, v, 1.0f);
            else
                el_add(el, v, u, 1.0f);
        }
        el_permute(el, rng);
        break;
    case CC_LATE_GIANT:
        n = 20000;
        el_init(el, n);
        for (int64_t v = 0; v + 1 < 6000; v += 2)
            el_add(el, v + 1, v, 1.0f);
        el_random(el, 10000, 10000, 5 * 10000, rng);
        break;
    case CC_MEDIUM:
        n = 20000;
        el_init(el, n);
        for (int64_t c = 0; c < 200; c++)
            el_random(el, 100 * c, 100, 150, rng);
        el_permute(el, rng);
        break;
    case CC_CHAINS:
        n = 20000;
        el_init(el, n);
        el_random(el, 0, 10000, 8 * 10000, rng);
        for (int64_t c = 0; c < 100; c++) {
            int64_t lo = 10000 + 100 * c;
            el_path(el, lo, 100, true);
            /* joined to the giant at its far end, by an arc into the chain */
            el_add(el, or_rand_below(rng, 10000), lo + 99, 1.0f);
        }
        el_permute(el, rng);
        break;
    default: el_init(el, 0); break;
    }
}

static void test_components(void)
{
    for (int shape = 0; shape < CC_NUM; shape++)
        for (int directed = 1; directed >= 0; directed--) {
            unsigned long long seed = 8300 + 10 * (unsigned long long)shape + (unsigned)directed;
            unsigned long long rng = seed * 0x9E3779B97F4A7C15ull + 7;
            struct elist el;
            cc_edges(&el, (enum cc_shape)shape, &rng);
            set_subject("%s, %s, seed %llu, %lld vertices, %lld edges", cc_names[shape],
                        directed ? "directed" : "undirected", seed, (long long)el.n,
                        (long long)el.E);
            struct tgraph t;
            if (tgraph_from_elist(&t, &el, directed, false, shape % NUM_CTX)) {
                check_cc_all(t.g, &t.o, "CSC not built");
                if (directed) {
                    /* a second copy whose in-edges exist before the first call */
                    lg_graph_options_t go = graph_options(true);
                    lg_graph_t *g2 = NULL;
                    CHECK_OK(
                        lg_graph_from_edges(ctx[1], el.n, el.E, el.src, el.dst, NULL, &go, &g2));
                    if (g2) {
                        CHECK_OK(lg_graph_csc(g2, NULL, NULL, NULL));
                        check_cc_all(g2, &t.o, "CSC built first");
                    }
                    lg_graph_free(&g2);
                }
            }
            tgraph_free(&t);
            el_free(&el);
        }
    /* Kronecker: a giant and many isolated vertices */
    for (int directed = 1; directed >= 0; directed--) {
        struct tgraph t;
        int scale = directed ? 13 : 14;
        set_subject("Kronecker scale %d, %s, seed 5", scale, directed ? "directed" : "undirected");
        if (tgraph_generate(&t, LG_GENERATOR_KRONECKER, scale, 8, 5, directed, 0)) {
            if (directed)
                check_cc_all(t.g, &t.o, "CSC not built");
            CHECK_OK(lg_graph_csc(t.g, NULL, NULL, NULL));
            check_cc_all(t.g, &t.o, directed ? "CSC built" : "undirected");
        }
        tgraph_free(&t);
    }
    /* and the small random shapes, many seeds */
    for (int gi = 0; gi < 240; gi++) {
        unsigned long long seed = 8800 + (unsigned long long)gi, rng = seed * 31 + 5;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool directed = (gi / OR_NUM_SHAPES) % 2 == 0;
        set_subject("shape %s, seed %llu, %s", e.shape, seed, directed ? "directed" : "undirected");
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, false, gi % NUM_CTX)) {
            if (directed && gi % 4 == 0)
                CHECK_OK(lg_graph_csc(t.g, NULL, NULL, NULL));
            check_cc_all(t.g, &t.o, "random shape");
        }
        tgraph_free(&t);
        or_edges_free(&e);
    }
}

#ifdef LG_TEST_GPU
/* A fresh copy of t's graph: no device copy cached yet. */
static lg_graph_t *fresh_graph(const struct tgraph *t)
{
    const lg_edge_t *off = NULL;
    const lg_vertex_t *idx = NULL;
    const float *w = NULL;
    lg_graph_t *g = NULL;
    lg_graph_options_t go = graph_options(t->o.directed);
    CHECK_OK(lg_graph_csr(t->g, &off, &idx, &w));
    CHECK_OK(lg_graph_from_csr(ctx[0], t->o.n, off, idx, w, &go, &g));
    return g;
}

/* got (double or float scores) against the oracle's 20th iterate. */
static bool pr_matches(const double *want, const void *got, bool f32, int64_t n)
{
    for (int64_t v = 0; v < n; v++) {
        const double x = f32 ? (double)((const float *)got)[v] : ((const double *)got)[v];
        if (!(fabs(x - want[v]) <= (f32 ? 1e-5 : 1e-9) * want[v] + 1e-15))
            return false;
    }
    return true;
}

/* PageRank with the k-th GPU allocation failing, on a fresh graph: returns
 * whether that allocation was reached (else the call made fewer than k + 1). */
static bool pr_failing_at(const struct lg_plugin_test_hooks *hooks, lg_context_t *c, bool auto_ctx,
                          const struct tgraph *t, bool f32, long long k, const double *want)
{
    const int64_t n = t->o.n;
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.tol = 0.0;
    po.max_iter = 20;
    lg_graph_t *g = fresh_graph(t);
    void *got = or_alloc((size_t)n, sizeof(double));
    int iters = -1;
    hooks->fail_after(k);
    lg_status_t st = f32 ? lg_pagerank_f32(c, g, &po, (float *)got, &iters)
                         : lg_pagerank(c, g, &po, (double *)got, &iters);
    const bool fired = hooks->fail_after(-1) < 0;
    const lg_backend_t ran = lg_last_backend();
    const bool ok = st == LG_ERR_NOT_CONVERGED && iters == 20 && pr_matches(want, got, f32, n);
    const bool oom = st == LG_ERR_OUT_OF_MEMORY && strstr(lg_last_error(), "GPU memory") != NULL;
    const char *where = auto_ctx ? "AUTO context" : "GPU context";
    if (!fired || auto_ctx) {
        /* no failure, or AUTO (which reruns a failed GPU call on the CPU):
         * the right scores; a failure under AUTO ran on the CPU, unless it
         * was one the plugin does without (the pinned staging buffers) */
        CHECK(ok);
        if (!ok)
            report("%s, allocation %lld %s: %s after %d iterations (%s)", where, k,
                   fired ? "failed" : "not reached", lg_status_string(st), iters, lg_last_error());
    } else {
        CHECK(oom || (ok && ran == LG_BACKEND_GPU));
        if (!(oom || ok))
            report("%s, allocation %lld failed: %s (%s), want LG_ERR_OUT_OF_MEMORY", where, k,
                   lg_status_string(st), lg_last_error());
        /* the graph is still usable: the next call (hook off) is right */
        iters = -1;
        st = f32 ? lg_pagerank_f32(c, g, &po, (float *)got, &iters)
                 : lg_pagerank(c, g, &po, (double *)got, &iters);
        const bool again = st == LG_ERR_NOT_CONVERGED && iters == 20 &&
                           lg_last_backend() == LG_BACKEND_GPU && pr_matches(want, got, f32, n);
        CHECK(again);
        if (!again)
            report("%s, after allocation %lld failed: the next call gave %s (%s)", where, k,
                   lg_status_string(st), lg_last_error());
    }
    free(got);
    lg_graph_free(&g);
    return fired;
}

/* The GPU plugin's out-of-memory paths, every one (its test hook,
 * lg_plugin_test_hooks.fail_after): for k = 0, 1, ... the k-th device or
 * pinned-host allocation of a PageRank call on a fresh graph fails, until a
 * call no longer reaches k.  On a GPU context the call returns
 * LG_ERR_OUT_OF_MEMORY naming GPU memory (or, for the pinned staging buffers
 * it can do without, succeeds), and the graph stays usable; on an AUTO
 * context it gives the right scores, from the CPU.  Nothing leaks: once the
 * graphs and the two contexts are freed, the plugin's live allocations are
 * back where they were (its allocation counter).  A directed weighted
 * graph (in-degrees counted on the device, weights sorted with the arcs) in
 * double, an undirected Kronecker graph in float. */
static void test_device_allocation_failures(void)
{
    const struct lg_plugin_test_hooks *hooks = lg__plugin_test_hooks();
    CHECK(hooks && hooks->fail_after);
    if (!hooks || !hooks->fail_after) {
        report("the GPU plugin has no allocation-failure hook");
        return;
    }
    CHECK(hooks->live_allocations != NULL);
    if (!hooks->live_allocations)
        return;
    /* what the other sections' contexts keep (their scratch, staging) */
    const long long baseline = hooks->live_allocations();
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_GPU;
    lg_context_t *gpu = NULL, *automatic = NULL;
    CHECK_OK(lg_context_create(&gpu, &co));
    co.backend = LG_BACKEND_AUTO;
    CHECK_OK(lg_context_create(&automatic, &co));
    if (!gpu || !automatic) {
        lg_context_free(&gpu);
        lg_context_free(&automatic);
        return;
    }
    for (int graph = 0; graph < 2; graph++) {
        struct tgraph t;
        unsigned long long rng = 7100 + (unsigned long long)graph;
        bool made;
        if (graph == 0) {
            const int64_t n = 3001;
            struct elist el;
            el_init(&el, n);
            for (int64_t i = 0; i < 8 * n; i++) {
                int64_t a = or_rand_below(&rng, n), b = or_rand_below(&rng, n);
                el_add(&el, a, i % 3 == 0 ? b % 5 : b, rand_weight(&rng));
            }
            set_subject("allocation failures, directed weighted random graph, seed %d", 7100);
            made = tgraph_from_elist(&t, &el, true, true, 0);
            el_free(&el);
        } else {
            set_subject("allocation failures, undirected Kronecker scale 14");
            made = tgraph_generate(&t, LG_GENERATOR_KRONECKER, 14, 16, 7101, false, 0);
        }
        if (!made)
            continue;
        lg_pagerank_options_t po;
        lg_pagerank_options_init(&po);
        po.tol = -1.0; /* the oracle: exactly max_iter iterations */
        po.max_iter = 20;
        struct pr_want w = pr_oracle(&t.o, &po);
        const bool f32 = graph == 1;
        /* each call's graph is freed before the next: beyond the baseline,
         * only the two contexts' scratch and pinned staging buffers (at
         * most 3 each) may stay */
        long long k = 0, most = 0;
        for (bool fired = true; fired && k < 1000;) {
            fired = pr_failing_at(hooks, gpu, false, &t, f32, k, w.x);
            const long long extra = hooks->live_allocations() - baseline;
            most = extra > most ? extra : most;
            if (fired)
                k++;
        }
        CHECK(k >= 10); /* upload, pull structure and PageRank allocate at least that */
        printf("%s: %lld GPU allocations failed one at a time\n",
               graph == 0 ? "directed weighted, double" : "Kronecker, float", k);
        for (long long j = 0; j < k; j++) {
            (void)pr_failing_at(hooks, automatic, true, &t, f32, j, w.x);
            const long long extra = hooks->live_allocations() - baseline;
            most = extra > most ? extra : most;
        }
        CHECK(most <= 6);
        if (most > 6)
            report("%lld GPU allocations outlived their calls (at most 6 may: the contexts' "
                   "scratch and staging)",
                   most);
        pr_want_free(&w);
        tgraph_free(&t);
    }
    lg_context_free(&gpu);
    lg_context_free(&automatic);
    /* every failure path gave back what it had */
    const long long left = hooks->live_allocations() - baseline;
    CHECK(left == 0);
    if (left != 0)
        report("%lld GPU allocations leaked by the failing calls", left);
}
#endif

int main(int argc, char **argv)
{
    (void)argc;
    or_passive_openmp(argv);
    bool opened = or_open_contexts(ctx, NUM_CTX);
    CHECK(opened);
    if (!opened)
        TEST_EXIT();
    static const struct {
        const char *name;
        void (*run)(void);
    } sections[] = {
        {"BFS arguments", test_bfs_arguments},
        {"BFS on random shapes", test_bfs_shapes},
        {"BFS direction paths", test_bfs_direction},
        {"PageRank", test_pagerank},
        {"connected components", test_components},
#ifdef LG_TEST_GPU
        {"GPU allocation failures", test_device_allocation_failures},
#endif
    };
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        double t0 = now_seconds();
        long before = tu_passed + tu_failed;
        sections[i].run();
        printf("%-22s %8ld checks %7.2f s\n", sections[i].name, tu_passed + tu_failed - before,
               now_seconds() - t0);
    }
    printf("%ld BFS runs, %ld component runs", bfs_runs, cc_runs);
    if (pr_skips)
        printf(", %ld PageRank stopping decisions too close to call", pr_skips);
    printf("\n");
    for (int k = 0; k < NUM_CTX; k++)
        lg_context_free(&ctx[k]);
    TEST_EXIT();
}
