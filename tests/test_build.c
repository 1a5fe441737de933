/*
 * test_build.c - lg_graph_from_edges against the oracle builder of oracle.h.
 *
 * Hundreds of random graphs of every shape in or_random_edges, weighted and
 * unweighted, under every combination of options (directedness, symmetrize,
 * drop_self_loops, the six duplicate policies), on contexts of 1, 2 and 3
 * threads, compared array for array with the oracle (build_checks.h); cases
 * worked out by hand; weights at the edges of float; a graph large enough for
 * the library's parallel scans and long-row sorts; and lg_graph_csc raced
 * from several threads.
 */
#define _POSIX_C_SOURCE 200809L

#include "build_checks.h"
#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <pthread.h>

/* The contexts are the ones the tests take them for: CPU, 1, 2 and 3 threads. */
static void test_contexts(void)
{
    for (int k = 0; k < NUM_CTX; k++) {
        int threads = 0;
        lg_backend_t b = LG_BACKEND_AUTO;
        CHECK_OK(lg_context_get_num_threads(ctx[k], &threads));
        CHECK(threads == k + 1);
        CHECK_OK(lg_context_get_backend(ctx[k], &b));
        CHECK(b == LG_BACKEND_CPU);
    }
}

/* ---- lg_graph_from_edges --------------------------------------------------------- */

static void test_from_edges_random(void)
{
    const int graphs = 144;
    for (int gi = 0; gi < graphs; gi++) {
        unsigned long long seed = 1000 + (unsigned long long)gi, rng = seed * 0x9E3779B9ull + 1;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool compare_threads = gi % 8 == 0;
        for (int combo = 0; combo < NUM_COMBOS; combo++) {
            /* a third of the combinations a graph, weighted or not, at random:
             * across the graphs each combination meets every shape both ways */
            const unsigned long long r = tu_rand(&rng) >> 33;
            if (r % 3 != 0)
                continue;
            const int weighted = (int)((r >> 4) & 1);
            lg_graph_options_t o;
            set_options(&o, combo);
            const float *w = weighted ? e.w : NULL;
            or_graph want;
            or_build(&want, e.n, e.E, e.src, e.dst, w, &o);
            lg_graph_t *g[NUM_CTX] = {NULL, NULL, NULL};
            int first = (combo + gi) % NUM_CTX,
                last = compare_threads ? first + NUM_CTX : first + 1;
            for (int c = first; c < last; c++) {
                int k = c % NUM_CTX;
                lg_status_t st = lg_graph_from_edges(ctx[k], e.n, e.E, e.src, e.dst, w, &o, &g[k]);
                CHECK(st == LG_OK);
                if (st != LG_OK) {
                    fprintf(stderr, "  %s: %s\n", lg_status_string(st), lg_last_error());
                    report_build("from_edges status", e.shape, seed, &o, weighted, k + 1);
                    continue;
                }
                bool ok = graph_matches(g[k], &want);
                CHECK(ok);
                if (!ok)
                    report_build("from_edges vs oracle", e.shape, seed, &o, weighted, k + 1);
            }
            if (compare_threads && g[0] && g[1] && g[2]) {
                CHECK(same_csr(g[0], g[1]));
                CHECK(same_csr(g[0], g[2]));
            }
            for (int k = 0; k < NUM_CTX; k++)
                lg_graph_free(&g[k]);
            or_graph_free(&want);
        }
        or_edges_free(&e);
    }
}

/* Hand-written cases whose answer is easy to state, as a check on the oracle
 * itself as much as on the library. */
static void test_from_edges_by_hand(void)
{
    /* undirected: (0,1,w=1) (1,0,w=2) (1,1,w=3) (2,1,w=4) (0,1,w=5) */
    const lg_vertex_t src[] = {0, 1, 1, 2, 0}, dst[] = {1, 0, 1, 1, 1};
    const float w[] = {1, 2, 3, 4, 5};
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    CHECK(o.directedness == LG_DIRECTEDNESS_DEFAULT && !o.symmetrize && !o.drop_self_loops &&
          o.duplicates == LG_DUPLICATES_KEEP);
    o.directedness = LG_UNDIRECTED;

    static const struct {
        lg_duplicates_t policy;
        int64_t m;
        lg_edge_t off[4];
        lg_vertex_t idx[9];
        float w[9];
    } cases[] = {
        /* row 0: 1 1 1; row 1: 0 0 0 1 2; row 2: 1 */
        {LG_DUPLICATES_KEEP,
         9,
         {0, 3, 8, 9},
         {1, 1, 1, 0, 0, 0, 1, 2, 1},
         {1, 2, 5, 1, 2, 5, 3, 4, 4}},
        {LG_DUPLICATES_SUM, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {8, 8, 3, 4, 4}},
        {LG_DUPLICATES_MIN, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {1, 1, 3, 4, 4}},
        {LG_DUPLICATES_MAX, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {5, 5, 3, 4, 4}},
        {LG_DUPLICATES_FIRST, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {1, 1, 3, 4, 4}},
        {LG_DUPLICATES_LAST, 5, {0, 1, 4, 5}, {1, 0, 1, 2, 1}, {5, 5, 3, 4, 4}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        o.duplicates = cases[c].policy;
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[1], 3, 5, src, dst, w, &o, &g));
        if (!g)
            continue;
        const lg_edge_t *off;
        const lg_vertex_t *idx;
        const float *gw;
        CHECK_OK(lg_graph_csr(g, &off, &idx, &gw));
        CHECK(lg_graph_num_edges(g) == cases[c].m);
        CHECK(memcmp(off, cases[c].off, sizeof cases[c].off) == 0);
        if (lg_graph_num_edges(g) == cases[c].m) {
            CHECK(memcmp(idx, cases[c].idx, (size_t)cases[c].m * sizeof *idx) == 0);
            CHECK(memcmp(gw, cases[c].w, (size_t)cases[c].m * sizeof *gw) == 0);
        }
        or_graph want;
        or_build(&want, 3, 5, src, dst, w, &o);
        CHECK(want.m == cases[c].m && memcmp(want.off, cases[c].off, sizeof cases[c].off) == 0 &&
              memcmp(want.idx, cases[c].idx, (size_t)want.m * sizeof *want.idx) == 0 &&
              memcmp(want.w, cases[c].w, (size_t)want.m * sizeof *want.w) == 0);
        or_graph_free(&want);
        lg_graph_free(&g);
        CHECK(g == NULL);
    }

    /* NULL options mean the defaults: directed, keep everything. */
    lg_graph_t *g = NULL;
    CHECK_OK(lg_graph_from_edges(ctx[0], 3, 5, src, dst, NULL, tu_directed(), &g));
    if (g) {
        const lg_edge_t want_off[] = {0, 2, 4, 5};
        const lg_vertex_t want_idx[] = {1, 1, 0, 1, 1};
        const lg_edge_t *off;
        const lg_vertex_t *idx;
        const float *gw = (const float *)1;
        CHECK_OK(lg_graph_csr(g, &off, &idx, &gw));
        CHECK(lg_graph_is_directed(g) && !lg_graph_is_weighted(g) && gw == NULL);
        CHECK(memcmp(off, want_off, sizeof want_off) == 0);
        CHECK(memcmp(idx, want_idx, sizeof want_idx) == 0);
        /* host memory: the CSR, then the in-edges once built (as large: unweighted) */
        const size_t before = lg_graph_host_bytes(g);
        CHECK(before >= sizeof want_off + sizeof want_idx);
        CHECK(lg_graph_host_bytes(NULL) == 0);
        /* any output pointer may be NULL */
        CHECK_OK(lg_graph_csr(g, NULL, NULL, NULL));
        CHECK_OK(lg_graph_csc(g, NULL, NULL, NULL));
        CHECK(lg_graph_host_bytes(g) - before == sizeof want_off + sizeof want_idx);
        const lg_edge_t *coff;
        CHECK_OK(lg_graph_csc(g, &coff, NULL, NULL));
        const lg_edge_t want_coff[] = {0, 1, 5, 5};
        CHECK(memcmp(coff, want_coff, sizeof want_coff) == 0);
        lg_graph_free(&g);
    }

    /* Zero edges with NULL arrays is a graph of isolated vertices. */
    CHECK_OK(lg_graph_from_edges(ctx[0], 4, 0, NULL, NULL, NULL, NULL, &g));
    if (g) {
        CHECK(lg_graph_num_vertices(g) == 4 && lg_graph_num_edges(g) == 0);
        const lg_edge_t *off;
        CHECK_OK(lg_graph_csr(g, &off, NULL, NULL));
        CHECK(off[0] == 0 && off[4] == 0);
        lg_graph_free(&g);
    }
    /* The input arrays are copied: changing them afterwards changes nothing. */
    lg_vertex_t s2[] = {0, 1}, d2[] = {1, 2};
    float w2[] = {0.5f, 0.25f};
    CHECK_OK(lg_graph_from_edges(ctx[2], 3, 2, s2, d2, w2, tu_directed(), &g));
    if (g) {
        s2[0] = 2;
        d2[0] = 0;
        w2[0] = 9.0f;
        const lg_vertex_t *idx;
        const float *gw;
        CHECK_OK(lg_graph_csr(g, NULL, &idx, &gw));
        CHECK(idx[0] == 1 && idx[1] == 2 && gw[0] == 0.5f && gw[1] == 0.25f);
        lg_graph_free(&g);
    }
}

/* ---- weights at the edges of float ----------------------------------------------------- */

static void test_weight_extremes(void)
{
    lg_graph_options_t o;
    lg_graph_t *g = NULL;
    const float *gw = NULL;

    /* Summing duplicates of large finite weights overflows float: the graph
     * must still hold finite weights (its documented invariant), or the build
     * must be refused. */
    const lg_vertex_t s[] = {0, 0, 1}, d[] = {1, 1, 0};
    const float big[] = {3e38f, 3e38f, 1.0f};
    lg_graph_options_init(&o);
    o.directedness = LG_DIRECTED;
    o.duplicates = LG_DUPLICATES_SUM;
    lg_status_t st = lg_graph_from_edges(ctx[0], 2, 3, s, d, big, &o, &g);
    CHECK(st == LG_OK || st == LG_ERR_INVALID_ARGUMENT);
    if (st == LG_OK) {
        CHECK_OK(lg_graph_csr(g, NULL, NULL, &gw));
        bool finite = true;
        for (int64_t e = 0; e < lg_graph_num_edges(g); e++)
            finite = finite && isfinite(gw[e]) && gw[e] >= 0.0f;
        CHECK(finite);
        if (!finite)
            fprintf(stderr, "  duplicates 3e38 + 3e38 summed to weight %g\n", (double)gw[0]);
    } else {
        CHECK(g == NULL);
    }
    lg_graph_free(&g);
    /* MAX of the same copies is representable */
    o.duplicates = LG_DUPLICATES_MAX;
    CHECK_OK(lg_graph_from_edges(ctx[1], 2, 3, s, d, big, &o, &g));
    if (g) {
        CHECK_OK(lg_graph_csr(g, NULL, NULL, &gw));
        CHECK(lg_graph_num_edges(g) == 2 && gw[0] == 3e38f && gw[1] == 1.0f);
    }
    lg_graph_free(&g);

    /* -0.0 is a weight >= 0 and equal to 0.0: this CSR is symmetric */
    const lg_edge_t off[] = {0, 1, 2};
    const lg_vertex_t idx[] = {1, 0};
    const float zeros[] = {-0.0f, 0.0f};
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    st = lg_graph_from_csr(ctx[2], 2, off, idx, zeros, &o, &g);
    CHECK(st == LG_OK);
    if (st != LG_OK)
        fprintf(stderr, "  from_csr of a symmetric CSR with weights -0.0 / 0.0: %s: %s\n",
                lg_status_string(st), lg_last_error());
    lg_graph_free(&g);
    /* the same as edges */
    const lg_vertex_t zs[] = {0}, zd[] = {1};
    CHECK_OK(lg_graph_from_edges(ctx[2], 2, 1, zs, zd, zeros, &o, &g));
    lg_graph_free(&g);
}

/* ---- larger graphs: the library's parallel scans and long-row sorts ----------------- */

static void test_large(void)
{
    unsigned long long rng = 424242;
    const int64_t n = 70000, E = 160000;
    or_edges e;
    or_edges_alloc(&e, n, E);
    e.shape = "large";
    for (int64_t i = 0; i < E; i++) {
        int64_t r = or_rand_below(&rng, n);
        /* half the edges leave vertex 5: a row longer than the builder's
         * per-thread sort scratch (65536), sorted on its own; three rows of
         * ~11000 arcs; the rest random */
        e.src[i] = (lg_vertex_t)(i % 2 == 0 ? 5 : i % 7 == 1 ? r % 3 : r);
        e.dst[i] = (lg_vertex_t)(i % 11 == 0 ? r % 50 : or_rand_below(&rng, n));
        e.w[i] = (float)or_rand_below(&rng, 64) / 4.0f;
    }
    static const int combos[] = {1 /* directed keep */,
                                 2 + 3 * 0 + 6 * 1 + 12 * 1 /* undirected sum */,
                                 1 + 3 + 12 * 5 /* directed symmetrize last */};
    for (size_t c = 0; c < sizeof combos / sizeof combos[0]; c++) {
        lg_graph_options_t o;
        set_options(&o, combos[c]);
        or_graph want;
        or_build(&want, n, E, e.src, e.dst, e.w, &o);
        lg_graph_t *g[NUM_CTX] = {NULL, NULL, NULL};
        for (int k = 0; k < NUM_CTX; k++) {
            CHECK_OK(lg_graph_from_edges(ctx[k], n, E, e.src, e.dst, e.w, &o, &g[k]));
            bool ok = g[k] && graph_matches(g[k], &want);
            CHECK(ok);
            if (!ok)
                report_build("large from_edges", e.shape, 424242, &o, true, k + 1);
        }
        if (g[0] && g[1] && g[2]) {
            CHECK(same_csr(g[0], g[1]));
            CHECK(same_csr(g[0], g[2]));
        }
        for (int k = 0; k < NUM_CTX; k++)
            lg_graph_free(&g[k]);
        or_graph_free(&want);
    }
    or_edges_free(&e);
}

/* ---- lg_graph_csc from many threads at once ------------------------------------------ */

#define RACERS 8

struct racer {
    const lg_graph_t *g;
    pthread_barrier_t *barrier;
    lg_status_t st;
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    lg_edge_t in_deg_of_0;
};

static void *race_csc(void *arg)
{
    struct racer *r = arg;
    pthread_barrier_wait(r->barrier);
    r->st = lg_graph_csc(r->g, &r->off, &r->idx, &r->w);
    return NULL;
}

static void test_csc_concurrent(void)
{
    for (int round = 0; round < 12; round++) {
        unsigned long long rng = 77 + (unsigned long long)round;
        const int64_t n = 3000, E = 20000;
        or_edges e;
        or_edges_alloc(&e, n, E);
        for (int64_t i = 0; i < E; i++) {
            e.src[i] = (lg_vertex_t)or_rand_below(&rng, n);
            e.dst[i] = (lg_vertex_t)or_rand_below(&rng, n);
            e.w[i] = (float)or_rand_below(&rng, 100) / 8.0f;
        }
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = LG_DIRECTED;
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[round % NUM_CTX], n, E, e.src, e.dst,
                                     round % 2 ? e.w : NULL, &o, &g));
        if (!g) {
            or_edges_free(&e);
            continue;
        }
        pthread_barrier_t barrier;
        pthread_barrier_init(&barrier, NULL, RACERS);
        struct racer r[RACERS];
        pthread_t th[RACERS];
        int started = 0;
        for (int t = 0; t < RACERS; t++) {
            r[t] = (struct racer){.g = g, .barrier = &barrier, .st = LG_ERR_INTERNAL};
            if (pthread_create(&th[t], NULL, race_csc, &r[t]) == 0)
                started++;
        }
        CHECK(started == RACERS);
        if (started != RACERS) {
            /* threads waiting on the barrier would never leave: give up */
            fprintf(stderr, "cannot start %d threads\n", RACERS);
            exit(EXIT_FAILURE);
        }
        for (int t = 0; t < RACERS; t++)
            pthread_join(th[t], NULL);
        pthread_barrier_destroy(&barrier);
        bool same = true;
        for (int t = 0; t < RACERS; t++) {
            CHECK(r[t].st == LG_OK);
            same = same && r[t].off == r[0].off && r[t].idx == r[0].idx && r[t].w == r[0].w;
        }
        CHECK(same);
        or_graph want, t;
        or_build(&want, n, E, e.src, e.dst, round % 2 ? e.w : NULL, &o);
        or_transpose(&want, &t);
        CHECK(r[0].st == LG_OK && or_csr_equal(n, r[0].off, r[0].idx, r[0].w, t.off, t.idx, t.w));
        /* a later call returns the cached arrays */
        const lg_edge_t *off2;
        CHECK_OK(lg_graph_csc(g, &off2, NULL, NULL));
        CHECK(off2 == r[0].off);
        or_graph_free(&t);
        or_graph_free(&want);
        lg_graph_free(&g);
        or_edges_free(&e);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"contexts", test_contexts},
        {"from_edges by hand", test_from_edges_by_hand},
        {"from_edges random", test_from_edges_random},
        {"weight extremes", test_weight_extremes},
        {"large", test_large},
        {"concurrent CSC", test_csc_concurrent},
    };
    if (harness_open(argv))
        harness_run(sections, sizeof sections / sizeof sections[0]);
    harness_close();
    CHECK(ctx[0] == NULL);
    TEST_EXIT();
}
