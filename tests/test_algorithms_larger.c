/*
 * test_algorithms_larger.c - BFS, PageRank and connected components against
 * the oracles of oracle.h beyond the small random graphs, with contexts of 1,
 * 2 and 3 threads (algorithm_checks.h says how each call is judged):
 *
 *   weight extremes  PageRank with subnormal, huge and mixed weights
 *   larger graphs    4000 - 19000 vertices, uniform and skewed (hubs), long
 *                    frontiers, so a direction-optimizing BFS changes direction
 *   shared           one graph and one context used by four threads at once
 *                    (PageRank first, racing for the lazy CSC): every answer
 *                    the oracles'
 */
#define _POSIX_C_SOURCE 200809L

#include "algorithm_checks.h"
#include "harness.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <pthread.h>

/* PageRank with weights at the edges of float: subnormal and huge. */
static void test_weight_extremes(void)
{
    static const struct {
        const char *name;
        float w[5];
    } cases[] = {
        {"subnormal weights", {1e-40f, 1.0f, 1.0f, 1e-40f, 3e-41f}},
        {"huge weights", {3e38f, 3e38f, 1.0f, 2e38f, 1e-3f}},
        {"mixed weights", {1e-40f, 3e38f, 1.0f, 1e-30f, 1e30f}},
    };
    /* 0 -> 1, 0 -> 2, 1 -> 0, 2 -> 0, 2 -> 3; 3 dangling */
    const lg_vertex_t src[] = {0, 0, 1, 2, 2}, dst[] = {1, 2, 0, 0, 3};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        graph_subject(cases[c].name, 0, &o, true);
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[c % NUM_CTX], 4, 5, src, dst, cases[c].w, &o, &g));
        if (!g)
            continue;
        or_graph want;
        or_build(&want, 4, 5, src, dst, cases[c].w, &o);
        lg_pagerank_options_t po;
        lg_pagerank_options_init(&po);
        check_pagerank(g, &want, &po, (int)c % NUM_CTX);
        check_pagerank_f32(g, &want, &po, (int)(c + 1) % NUM_CTX);
        or_graph_free(&want);
        lg_graph_free(&g);
    }
}

static void test_larger(void)
{
    for (int round = 0; round < 6; round++) {
        unsigned long long rng = 31337 + (unsigned long long)round;
        const int64_t n = 4000 + 3000 * round, E = n * (round % 2 ? 3 : 10);
        or_edges e;
        or_edges_alloc(&e, n, E);
        e.shape = round % 3 == 2 ? "larger, skewed" : "larger, uniform";
        for (int64_t i = 0; i < E; i++) {
            int64_t a = or_rand_below(&rng, n), b = or_rand_below(&rng, n);
            if (round % 3 == 2) { /* hubs: many arcs touch the first 30 ids */
                if (i % 3 == 0)
                    a %= 30;
                if (i % 5 == 0)
                    b %= 30;
            }
            e.src[i] = (lg_vertex_t)a;
            e.dst[i] = (lg_vertex_t)b;
            e.w[i] = (float)(1 + or_rand_below(&rng, 64)) / 8.0f;
        }
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = round % 2 ? LG_UNDIRECTED : LG_DIRECTED;
        o.duplicates = round % 3 ? LG_DUPLICATES_KEEP : LG_DUPLICATES_SUM;
        graph_subject(e.shape, 31337 + (unsigned long long)round, &o, true);
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[round % NUM_CTX], n, E, e.src, e.dst, e.w, &o, &g));
        if (g) {
            or_graph want;
            or_build(&want, n, E, e.src, e.dst, e.w, &o);
            for (int k = 0; k < NUM_CTX; k++) {
                check_bfs(g, &want, (lg_vertex_t)or_rand_below(&rng, n), k, k != 1);
                check_components(g, &want, k);
            }
            lg_pagerank_options_t po;
            lg_pagerank_options_init(&po);
            check_pagerank(g, &want, &po, round % NUM_CTX);
            po.use_weights = false;
            po.max_iter = 7;
            check_pagerank(g, &want, &po, (round + 1) % NUM_CTX);
            lg_pagerank_options_init(&po);
            check_pagerank_f32(g, &want, &po, (round + 2) % NUM_CTX);
            or_graph_free(&want);
        }
        lg_graph_free(&g);
        or_edges_free(&e);
    }
}

/* ---- one graph and one context shared by several threads -------------------------------- */

#define WORKERS 4

struct worker {
    const lg_graph_t *g;
    lg_context_t *c;
    lg_vertex_t source;
    int64_t n;
    int32_t *dist;
    lg_vertex_t *parents, *labels;
    double *scores;
    lg_pagerank_result_t pr;
    lg_status_t st_bfs, st_cc, st_pr;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    bo.compute_parents = true;
    /* PageRank first: on a fresh directed graph it races for the lazy CSC */
    w->st_pr = lg_pagerank(w->c, w->g, NULL, w->scores, &w->pr);
    w->st_bfs = lg_bfs(w->c, w->g, w->source, &bo, w->dist, w->parents);
    w->st_cc = lg_connected_components(w->c, w->g, NULL, w->labels, NULL);
    return NULL;
}

static void test_shared(void)
{
    for (int round = 0; round < 4; round++) {
        unsigned long long rng = 555 + (unsigned long long)round;
        const int64_t n = 2000, E = 6000;
        or_edges e;
        or_edges_alloc(&e, n, E);
        e.shape = "shared";
        for (int64_t i = 0; i < E; i++) {
            e.src[i] = (lg_vertex_t)or_rand_below(&rng, n);
            e.dst[i] = (lg_vertex_t)or_rand_below(&rng, n);
        }
        lg_graph_options_t o;
        lg_graph_options_init(&o);
        o.directedness = round % 2 ? LG_UNDIRECTED : LG_DIRECTED;
        graph_subject(e.shape, 555 + (unsigned long long)round, &o, true);
        lg_graph_t *g = NULL;
        CHECK_OK(lg_graph_from_edges(ctx[1], n, E, e.src, e.dst, e.w, &o, &g));
        if (!g) {
            or_edges_free(&e);
            continue;
        }
        or_graph want;
        or_build(&want, n, E, e.src, e.dst, e.w, &o);
        double *pr = or_alloc((size_t)n, sizeof *pr);
        int pr_iters = 0;
        or_pagerank(&want, 0.85, NULL, NULL, NULL, true, 100, 1e-6, pr, &pr_iters, NULL);
        lg_vertex_t *labels = or_alloc((size_t)n, sizeof *labels);
        or_components(&want, labels);
        int32_t *dist = or_alloc((size_t)n, sizeof *dist);

        struct worker w[WORKERS];
        pthread_t th[WORKERS];
        bool started[WORKERS];
        for (int t = 0; t < WORKERS; t++) {
            w[t] = (struct worker){.g = g, .c = ctx[round % NUM_CTX], .n = n};
            w[t].source = (lg_vertex_t)or_rand_below(&rng, n);
            w[t].dist = or_alloc((size_t)n, sizeof *w[t].dist);
            w[t].parents = or_alloc((size_t)n, sizeof *w[t].parents);
            w[t].labels = or_alloc((size_t)n, sizeof *w[t].labels);
            w[t].scores = or_alloc((size_t)n, sizeof *w[t].scores);
        }
        for (int t = 0; t < WORKERS; t++) {
            started[t] = pthread_create(&th[t], NULL, work, &w[t]) == 0;
            CHECK(started[t]);
        }
        for (int t = 0; t < WORKERS; t++) {
            if (!started[t])
                continue;
            pthread_join(th[t], NULL);
            CHECK(w[t].st_pr == LG_OK && w[t].st_bfs == LG_OK && w[t].st_cc == LG_OK);
            CHECK(w[t].pr.iterations == pr_iters);
            double worst = 0.0;
            for (int64_t v = 0; v < n; v++)
                worst = fmax(worst, fabs(w[t].scores[v] - pr[v]));
            CHECK(worst <= 1e-12);
            or_bfs(&want, w[t].source, dist);
            bool same = memcmp(dist, w[t].dist, (size_t)n * sizeof *dist) == 0;
            CHECK(same);
            CHECK(or_check_parents(&want, w[t].source, dist, w[t].parents) < 0);
            CHECK(memcmp(labels, w[t].labels, (size_t)n * sizeof *labels) == 0);
            if (!same || worst > 1e-12)
                report("threads sharing a graph and a context disagree with the oracles");
        }
        for (int t = 0; t < WORKERS; t++) {
            free(w[t].dist);
            free(w[t].parents);
            free(w[t].labels);
            free(w[t].scores);
        }
        free(pr);
        free(labels);
        free(dist);
        or_graph_free(&want);
        lg_graph_free(&g);
        or_edges_free(&e);
    }
}
int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"weight extremes", test_weight_extremes},
        {"larger graphs", test_larger},
        {"shared graph", test_shared},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0],
                        print_borderline_skips);
}
