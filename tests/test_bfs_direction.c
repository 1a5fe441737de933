/*
 * test_bfs_direction.c - the direction-optimizing BFS's code paths against the
 * queue BFS of oracle_bfs.h, on graphs where the switch between top-down and
 * bottom-up matters, with contexts of 1, 2 and 3 threads.
 *
 * Every direction setting of bfs_checks.h (alpha 0: top-down throughout, the
 * defaults, and settings that go bottom-up at once and stay there, flip every
 * level, or barely ever switch), on directed graphs (bottom-up over in-edges,
 * the lazy CSC built before or by the BFS itself) and undirected ones with a
 * giant component: uniform random graphs of average degree 16, Kronecker
 * graphs from lg_generate (scale 12 - 14), DAGs, stars, paths and grids
 * (deep, small frontiers), barbells (dense - path - dense: bottom-up,
 * top-down, bottom-up), communities (where the default options must stay
 * top-down), multigraphs; from one, two, 100 sources, one per component and
 * all vertices; with depth limits.  All equal the oracle, and the distances
 * are identical across thread counts and repeated runs.  The GPU build runs
 * it all twice: with the search in one cooperative launch, and a launch a
 * phase.
 */
#define _POSIX_C_SOURCE 200809L

#include "bfs_checks.h"
#include "harness.h"
#include "internal.h" /* lg__bfs_top_down_stays, lg__plugin_test_hooks */
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

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
 * shape is there for is taken) and gets the oracle's distances; the GPU
 * kernel follows the rule alone and must get the same distances. */
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
#ifndef LG_TEST_GPU /* the sampled estimate is the CPU kernel's (bfs.c) */
        CHECK(lg__bfs_top_down_stays() > 0);
#endif
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

#ifdef LG_TEST_GPU
/* The same on the GPU with the search run a launch a phase (bfs.hip's path
 * for devices without cooperative launch). */
static void test_bfs_direction_phase_launches(void)
{
    const struct lg_plugin_test_hooks *hooks = lg__plugin_test_hooks();
    CHECK(hooks && hooks->phase_launches);
    if (!hooks || !hooks->phase_launches)
        return;
    (void)hooks->phase_launches(1);
    test_bfs_direction();
    CHECK(hooks->phase_launches(0) == 1);
}
#endif

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"BFS direction paths", test_bfs_direction},
#ifdef LG_TEST_GPU
        {"BFS direction paths, a launch a phase", test_bfs_direction_phase_launches},
#endif
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_bfs_runs);
}
