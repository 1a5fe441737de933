/*
 * test_closeness.c - lg_closeness against closeness and harmonic centrality
 * computed here from all-pairs distances (a search forward from every
 * vertex: FIFO BFS, or Dijkstra by a linear scan), with contexts of 1, 2
 * and 3 threads.
 *
 * Unweighted closeness must equal the oracle's to the bit (integer sums,
 * then NetworkX's two divisions, which the oracle writes as NetworkX does);
 * weighted closeness and harmonic centrality to a relative 1e-12 (their sums
 * run in another order).  The random shapes of oracle_shapes.h directed and
 * undirected, unweighted, weighted by small integers, by halves and with
 * zero weights, wf_improved on and off; a larger graph for the parallel
 * steps; refusals, messages and cancellation.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "oracle_shapes.h"
#include "test_util.h"

#include <math.h>

static long closeness_runs;

/* ---- the oracle ---------------------------------------------------------------------- */

/* dist[v * n + u] = d(v, u) along g's arcs (INFINITY: unreached); w NULL: hops. */
static double *all_pairs(const or_graph *g, const double *w)
{
    const int64_t n = g->n;
    double *d = or_alloc((size_t)(n * n) + 1, sizeof *d);
    bool *done = or_alloc((size_t)n + 1, sizeof *done);
    lg_vertex_t *queue = or_alloc((size_t)n + 1, sizeof *queue);
    for (int64_t v = 0; v < n; v++) {
        double *row = d + v * n;
        for (int64_t u = 0; u < n; u++) {
            row[u] = INFINITY;
            done[u] = false;
        }
        row[v] = 0.0;
        if (!w) {
            int64_t head = 0, tail = 0;
            queue[tail++] = (lg_vertex_t)v;
            while (head < tail) {
                const lg_vertex_t x = queue[head++];
                for (lg_edge_t e = g->off[x]; e < g->off[x + 1]; e++)
                    if (isinf(row[g->idx[e]])) {
                        row[g->idx[e]] = row[x] + 1.0;
                        queue[tail++] = g->idx[e];
                    }
            }
            continue;
        }
        for (;;) {
            int64_t x = -1;
            for (int64_t u = 0; u < n; u++)
                if (!done[u] && isfinite(row[u]) && (x < 0 || row[u] < row[x]))
                    x = u;
            if (x < 0)
                break;
            done[x] = true;
            for (lg_edge_t e = g->off[x]; e < g->off[x + 1]; e++)
                if (row[x] + w[e] < row[g->idx[e]])
                    row[g->idx[e]] = row[x] + w[e];
        }
    }
    free(done);
    free(queue);
    return d;
}

/* NetworkX's closeness_centrality and harmonic_centrality, from d. */
static void oracle(const double *d, int64_t n, bool harmonic, bool wf_improved, double *out)
{
    for (int64_t u = 0; u < n; u++) {
        double total = 0.0, inverse = 0.0;
        int64_t reached = 0;
        for (int64_t v = 0; v < n; v++) {
            const double x = d[v * n + u];
            if (isinf(x))
                continue;
            reached++;
            total += x;
            if (x != 0.0)
                inverse += 1.0 / x;
        }
        double c = 0.0;
        if (total > 0.0 && n > 1) {
            c = ((double)reached - 1.0) / total;
            if (wf_improved)
                c *= ((double)reached - 1.0) / (double)(n - 1);
        }
        out[u] = harmonic ? inverse : c;
    }
}

/* ---- the checks ------------------------------------------------------------------------ */

static void check_graph(const lg_graph_t *g, const or_graph *o, const double *w, bool use_weights)
{
    const int64_t n = o->n;
    double *d = all_pairs(o, use_weights ? w : NULL);
    double *want = or_alloc((size_t)n + 1, sizeof *want),
           *got = or_alloc((size_t)n + 1, sizeof *got);
    for (int flags = 0; flags < 3; flags++) {
        const bool harmonic = flags == 2, wf = flags == 0;
        oracle(d, n, harmonic, wf, want);
        lg_closeness_options_t opt;
        lg_closeness_options_init(&opt);
        opt.harmonic = harmonic;
        opt.wf_improved = wf;
        opt.use_weights = use_weights;
        const int c = (int)(closeness_runs % NUM_CTX);
        for (int64_t v = 0; v < n; v++)
            got[v] = -7.0;
        const lg_status_t st = lg_closeness(ctx[c], g, &opt, got);
        closeness_runs++;
        CHECK(st == LG_OK);
        if (st != LG_OK) {
            report("lg_closeness, %d threads: %s: %s", c + 1, lg_status_string(st),
                   lg_last_error());
            continue;
        }
        CHECK(n == 0 || or_ran_on_expected(true)); /* empty: answered before */
        const bool exact = !harmonic && !(use_weights && w);
        int64_t bad = -1;
        for (int64_t v = 0; v < n && bad < 0; v++)
            if (exact ? got[v] != want[v]
                      : !(fabs(got[v] - want[v]) <= 1e-12 * fmax(1.0, fabs(want[v]))))
                bad = v;
        CHECK(bad < 0);
        if (bad >= 0)
            report("lg_closeness, %d threads, harmonic %d, wf_improved %d, weights %d: "
                   "vertex %lld has %.17g, want %.17g",
                   c + 1, harmonic, wf, use_weights, (long long)bad, got[bad], want[bad]);
    }
    free(d);
    free(want);
    free(got);
}

static void test_shapes(void)
{
    for (int gi = 0, rounds = harness_rounds(192, 96); gi < rounds; gi++) {
        unsigned long long seed = 5300 + (unsigned long long)gi, rng = seed * 37 + 1;
        or_edges e;
        or_random_edges(&e, gi % OR_NUM_SHAPES, &rng);
        const bool directed = (gi / OR_NUM_SHAPES) % 2 == 0;
        const int kind = (gi / (2 * OR_NUM_SHAPES)) % 4; /* none, 1-4, halves, 0-3 */
        for (int64_t i = 0; i < e.E; i++)
            e.w[i] = kind == 1   ? (float)(1 + or_rand_below(&rng, 4))
                     : kind == 2 ? (float)(1 + or_rand_below(&rng, 4)) / 2.0f
                                 : (float)or_rand_below(&rng, 4);
        set_subject("shape %s, seed %llu, %s, weights kind %d", e.shape, seed,
                    directed ? "directed" : "undirected", kind);
        struct elist el = {e.n, e.E, e.E, e.src, e.dst, e.w};
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, kind != 0, gi % NUM_CTX)) {
            double *w = or_alloc((size_t)t.o.m + 1, sizeof *w);
            for (int64_t i = 0; i < t.o.m; i++)
                w[i] = t.o.w ? (double)t.o.w[i] : 1.0;
            check_graph(t.g, &t.o, kind ? w : NULL, true);
            if (kind)
                check_graph(t.g, &t.o, NULL, false);
            free(w);
        }
        tgraph_free(&t);
        or_edges_free(&e);
    }
}

/* Enough vertices for several parallel steps, and a Kronecker graph. */
static void test_larger(void)
{
    unsigned long long rng = 303;
    for (int directed = 0; directed < 2; directed++) {
        struct elist el;
        el_init(&el, 2500);
        el_random(&el, 0, 2500, 6000, &rng);
        set_subject("random, 2500 vertices, %s", directed ? "directed" : "undirected");
        struct tgraph t;
        if (tgraph_from_elist(&t, &el, directed, false, 1))
            check_graph(t.g, &t.o, NULL, true);
        tgraph_free(&t);
        el_free(&el);
    }
}

static bool stop_at_second(const lg_progress_info_t *info, void *data)
{
    int *calls = data;
    CHECK(info->stage == LG_STAGE_CLOSENESS);
    CHECK(info->total == 5000 && info->done > 0 && info->done <= info->total);
    return ++*calls < 2;
}

static void test_refusals(void)
{
    struct elist el;
    el_init(&el, 5000);
    el_path(&el, 0, 5000, false);
    el.w[3] = -2.0f;
    struct tgraph t;
    set_subject("path of 5000");
    if (!tgraph_from_elist(&t, &el, true, true, 0)) {
        el_free(&el);
        return;
    }
    double *c = or_alloc(5000, sizeof *c);
    CHECK_STATUS(lg_closeness(ctx[0], NULL, NULL, c), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("graph is NULL");
    CHECK_STATUS(lg_closeness(ctx[0], t.g, NULL, NULL), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("centrality is NULL");
    CHECK_STATUS(lg_closeness(ctx[0], t.g, NULL, c), LG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE("the arc 3 -> 4 weighs -2: closeness needs weights >= 0");
    lg_closeness_options_t o;
    lg_closeness_options_init(&o);
    o.use_weights = false;
    o.wf_improved = false;
    CHECK_OK(lg_closeness(ctx[0], t.g, &o, c));
    /* on a directed path, v is reached by 0..v-1: (v) / (v (v + 1) / 2) */
    CHECK(c[0] == 0.0 && c[1] == 1.0 && c[4] == 4.0 / 10.0);
    o.output_memory = (lg_memory_t)9;
    CHECK_STATUS(lg_closeness(ctx[0], t.g, &o, c), LG_ERR_INVALID_ARGUMENT);
    lg_closeness_options_init(&o);
    o.use_weights = false;
    int calls = 0;
    o.progress = stop_at_second;
    o.progress_data = &calls;
    CHECK_STATUS(lg_closeness(ctx[1], t.g, &o, c), LG_ERR_CANCELLED);
    CHECK(calls == 2);
    CHECK_MESSAGE("cancelled");
    calls = -1000000;
    o.harmonic = true;
    CHECK_OK(lg_closeness(ctx[1], t.g, &o, c));
    CHECK(c[0] == 0.0 && c[2] == 1.5);
    lg_graph_t *empty = NULL;
    lg_graph_options_t go = graph_options(false);
    CHECK_OK(lg_graph_from_edges(ctx[0], 0, 0, NULL, NULL, NULL, &go, &empty));
    CHECK_OK(lg_closeness(ctx[0], empty, NULL, c));
    lg_graph_free(&empty);
    free(c);
    tgraph_free(&t);
    el_free(&el);
}

static void print_runs(void)
{
    printf("%ld closeness runs\n", closeness_runs);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"closeness shapes", test_shapes},
        {"closeness larger", test_larger},
        {"closeness refusals", test_refusals},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], print_runs);
}
