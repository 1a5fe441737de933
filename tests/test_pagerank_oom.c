/*
 * test_pagerank_oom.c - the GPU plugin's out-of-memory paths, against the
 * float64 PageRank of oracle_pagerank.h.  Built only with a GPU plugin, as
 * test_pagerank_oom_gpu (tests/CMakeLists.txt); skipped (77) where no GPU
 * answers.
 *
 * Through the plugin's test hook (lg_plugin_test_hooks.fail_after), the k-th
 * device or pinned-host allocation of a PageRank call on a fresh graph fails,
 * for k = 0, 1, ... until a call no longer reaches k.  A GPU context returns
 * LG_ERR_OUT_OF_MEMORY naming GPU memory (or succeeds where the failure was a
 * pinned staging buffer it can do without) and the graph stays usable; an
 * AUTO context gives the oracle's scores, from the CPU.  The plugin's live
 * allocations show that nothing leaks.
 */
#define _POSIX_C_SOURCE 200809L

#include "gpu_oom.h"
#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>

#ifndef LG_TEST_GPU
#error "test_pagerank_oom.c tests the GPU plugin: it is built with LG_TEST_GPU only"
#endif

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
    lg_graph_t *g = tgraph_fresh_copy(t);
    void *got = or_alloc((size_t)n, sizeof(double));
    lg_pagerank_result_t r = {-1, 0.0, false};
    hooks->fail_after(k);
    lg_status_t st = f32 ? lg_pagerank_f32(c, g, &po, (float *)got, &r)
                         : lg_pagerank(c, g, &po, (double *)got, &r);
    const bool fired = hooks->fail_after(-1) < 0;
    const lg_backend_t ran = lg_last_backend();
    const bool ok = st == LG_ERR_NOT_CONVERGED && r.iterations == 20 && pr_matches(want, got, f32, n);
    const bool oom = st == LG_ERR_OUT_OF_MEMORY && strstr(lg_last_error(), "GPU memory") != NULL;
    const char *where = auto_ctx ? "AUTO context" : "GPU context";
    if (!fired || auto_ctx) {
        /* no failure, or AUTO (which reruns a failed GPU call on the CPU):
         * the right scores; a failure under AUTO ran on the CPU, unless it
         * was one the plugin does without (the pinned staging buffers) */
        CHECK(ok);
        if (!ok)
            report("%s, allocation %lld %s: %s after %d iterations (%s)", where, k,
                   fired ? "failed" : "not reached", lg_status_string(st), r.iterations, lg_last_error());
    } else {
        CHECK(oom || (ok && ran == LG_BACKEND_GPU));
        if (!(oom || ok))
            report("%s, allocation %lld failed: %s (%s), want LG_ERR_OUT_OF_MEMORY", where, k,
                   lg_status_string(st), lg_last_error());
        /* the graph is still usable: the next call (hook off) is right */
        r.iterations = -1;
        st = f32 ? lg_pagerank_f32(c, g, &po, (float *)got, &r)
                 : lg_pagerank(c, g, &po, (double *)got, &r);
        const bool again = st == LG_ERR_NOT_CONVERGED && r.iterations == 20 &&
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
    struct oom_run r;
    if (!oom_start(&r))
        return;
    const struct lg_plugin_test_hooks *hooks = r.hooks;
    lg_context_t *gpu = r.gpu, *automatic = r.automatic;
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
        or_pr_run w = or_pagerank_run(&t.o, &po);
        const bool f32 = graph == 1;
        /* each call's graph is freed before the next: beyond the baseline,
         * only the two contexts' scratch and work buffers and their pinned
         * staging buffers (LG_STAGE_BUFFERS, 4, made when they open) may
         * stay */
        long long k = 0, most = 0;
        for (bool fired = true; fired && k < 1000;) {
            fired = pr_failing_at(hooks, gpu, false, &t, f32, k, w.x);
            const long long extra = oom_extra(&r);
            most = extra > most ? extra : most;
            if (fired)
                k++;
        }
        CHECK(k >= 10); /* upload, pull structure and PageRank allocate at least that */
        printf("%s: %lld GPU allocations failed one at a time\n",
               graph == 0 ? "directed weighted, double" : "Kronecker, float", k);
        for (long long j = 0; j < k; j++) {
            (void)pr_failing_at(hooks, automatic, true, &t, f32, j, w.x);
            const long long extra = oom_extra(&r);
            most = extra > most ? extra : most;
        }
        CHECK(most <= 12);
        if (most > 12)
            report("%lld GPU allocations outlived their calls (at most 12 may: the contexts' "
                   "scratch, work and staging buffers)",
                   most);
        or_pr_run_free(&w);
        tgraph_free(&t);
    }
    oom_finish(&r);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"GPU allocation failures", test_device_allocation_failures},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], NULL);
}
