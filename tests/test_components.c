/*
 * test_components.c - lg_connected_components against the union-find of
 * oracle_components.h, with contexts of 1, 2 and 3 threads.
 *
 * Labels and counts exactly union-find's, on the shapes that stress Afforest
 * (sampling, then skipping the largest component): a giant plus many small
 * ones, all singletons, self-loops only, two equal giants, paths, stars,
 * medium components, directed graphs that are weakly connected only through
 * reverse arcs (u -> hub, alternating chains, pendant out-leaves of the
 * giant), with the CSC built before or not; Kronecker graphs (a giant and
 * many isolated vertices); and the small random shapes of oracle_shapes.h.
 * Each graph on every context twice: the labels are identical across thread
 * counts and repeated runs.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

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
        lg_status_t st = lg_connected_components(ctx[k], g, NULL, got, run == 3 ? NULL : &count);
        CHECK(or_ran_on_expected(n > 0)); /* nothing to run on an empty graph */
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

static void print_cc_runs(void)
{
    printf("%ld component runs\n", cc_runs);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"connected components", test_components},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_cc_runs);
}
