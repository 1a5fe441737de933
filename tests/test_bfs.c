/*
 * test_bfs.c - lg_bfs and lg_bfs_multi against the queue BFS of oracle_bfs.h,
 * on contexts of 1, 2 and 3 threads (bfs_checks.h says how a run is judged).
 *
 *   random shapes     360 graphs of oracle_shapes.h, directed and not: a few
 *                     sources with repeats, one source (as lg_bfs and as a
 *                     one-element lg_bfs_multi, also given twice), every
 *                     vertex a source, one source per weak component; depth
 *                     limits swept on a third of them; parents pass
 *                     or_check_parents_multi (a source is its own parent)
 *   arguments         NULL / empty / out-of-range sources, max_depth < -1,
 *                     alpha < 0 and beta < 1, parents asked for but NULL: each
 *                     refused, the outputs untouched; the edges of the valid
 *                     ranges work, -1 and INT32_MAX are "no limit", and a
 *                     path's distances are checked by hand
 */
#define _POSIX_C_SOURCE 200809L

#include "bfs_checks.h"
#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <limits.h>

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

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"BFS arguments", test_bfs_arguments},
        {"BFS on random shapes", test_bfs_shapes},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_bfs_runs);
}
