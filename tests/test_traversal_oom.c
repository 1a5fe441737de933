/*
 * test_traversal_oom.c - the GPU plugin's out-of-memory paths of BFS and
 * connected components, against oracle_bfs.h and oracle_components.h.  Built
 * only with a GPU plugin, as test_traversal_oom_gpu (tests/CMakeLists.txt);
 * skipped (77) where no GPU answers.
 *
 * As test_pagerank_oom.c does for PageRank: through the plugin's test hook
 * (lg_plugin_test_hooks.fail_after) the k-th device or pinned-host
 * allocation of a call on a fresh graph fails, for k = 0, 1, ... until a
 * call no longer reaches k.  A GPU context returns LG_ERR_OUT_OF_MEMORY
 * naming GPU memory (or succeeds where the failure was a pinned staging
 * buffer it can do without) and the graph stays usable; an AUTO context
 * gives the oracle's answer, from the CPU.  The plugin's live allocations
 * show that nothing leaks.  Each call runs on a fresh context, so that the
 * context's work buffer is made, and fails, in its turn.  A directed graph (BFS goes bottom-up over its
 * uploaded in-edges, with parents) and an undirected Kronecker graph.
 */
#define _POSIX_C_SOURCE 200809L

#include "gpu_oom.h"
#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <string.h>

#ifndef LG_TEST_GPU
#error "test_traversal_oom.c tests the GPU plugin: it is built with LG_TEST_GPU only"
#endif

/* One BFS (bfs true, from vertex 0 with parents) or components call on g:
 * its status, and whether the answer is the oracle's. */
static lg_status_t run_once(lg_context_t *c, lg_graph_t *g, const struct tgraph *t, bool bfs,
                            const int32_t *want_dist, const lg_vertex_t *want_labels, bool *right)
{
    const int64_t n = t->o.n;
    int32_t *dist = or_alloc((size_t)n, sizeof *dist);
    lg_vertex_t *out = or_alloc((size_t)n, sizeof *out);
    lg_status_t st;
    if (bfs) {
        lg_bfs_options_t bo;
        lg_bfs_options_init(&bo);
        bo.compute_parents = true;
        st = lg_bfs(c, g, 0, &bo, dist, out);
        *right = st == LG_OK && memcmp(dist, want_dist, (size_t)n * sizeof *dist) == 0 &&
                 or_check_parents(&t->o, 0, dist, out) < 0;
    } else {
        int64_t count = -1;
        st = lg_connected_components(c, g, NULL, out, &count);
        *right = st == LG_OK && memcmp(out, want_labels, (size_t)n * sizeof *out) == 0;
    }
    free(dist);
    free(out);
    return st;
}

/* The call with the k-th GPU allocation failing, on a fresh graph: returns
 * whether that allocation was reached. */
static bool failing_at(const struct lg_plugin_test_hooks *hooks, bool auto_ctx,
                       const struct tgraph *t, bool bfs, long long k, const int32_t *want_dist,
                       const lg_vertex_t *want_labels)
{
    const char *what = bfs ? "BFS" : "components";
    const char *where = auto_ctx ? "AUTO context" : "GPU context";
    /* a fresh context too, made with the hook armed: its pinned staging
     * buffers (made when it opens, done without when they cannot be) and
     * its work buffer (made in the call) fail in their turn */
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = auto_ctx ? LG_BACKEND_AUTO : LG_BACKEND_GPU;
    lg_context_t *c = NULL;
    lg_graph_t *g = tgraph_fresh_copy(t);
    bool right = false;
    hooks->fail_after(k);
    CHECK_OK(lg_context_create(&c, &co));
    if (!c) {
        hooks->fail_after(-1);
        lg_graph_free(&g);
        return false;
    }
    lg_status_t st = run_once(c, g, t, bfs, want_dist, want_labels, &right);
    const bool fired = hooks->fail_after(-1) < 0;
    const bool oom = st == LG_ERR_OUT_OF_MEMORY && strstr(lg_last_error(), "GPU memory") != NULL;
    if (!fired || auto_ctx) {
        CHECK(right);
        if (!right)
            report("%s, %s, allocation %lld %s: %s (%s)", what, where, k,
                   fired ? "failed" : "not reached", lg_status_string(st), lg_last_error());
    } else {
        CHECK(oom || (right && lg_last_backend() == LG_BACKEND_GPU));
        if (!(oom || right))
            report("%s, %s, allocation %lld failed: %s (%s), want LG_ERR_OUT_OF_MEMORY", what,
                   where, k, lg_status_string(st), lg_last_error());
        st = run_once(c, g, t, bfs, want_dist, want_labels, &right);
        const bool again = right && lg_last_backend() == LG_BACKEND_GPU;
        CHECK(again);
        if (!again)
            report("%s, %s, after allocation %lld failed: the next call gave %s (%s)", what, where,
                   k, lg_status_string(st), lg_last_error());
    }
    lg_graph_free(&g);
    lg_context_free(&c);
    return fired;
}

static void test_device_allocation_failures(void)
{
    struct oom_run r;
    if (!oom_start(&r))
        return;
    const struct lg_plugin_test_hooks *hooks = r.hooks;
    /* the run's own two contexts hold their pinned staging buffers */
    const long long held = oom_extra(&r);
    for (int graph = 0; graph < 2; graph++) {
        struct tgraph t;
        unsigned long long rng = 7200 + (unsigned long long)graph;
        bool made;
        if (graph == 0) {
            const int64_t n = 3001;
            struct elist el;
            el_init(&el, n);
            for (int64_t i = 0; i < 6 * n; i++)
                el_add(&el, or_rand_below(&rng, n), or_rand_below(&rng, n), 1.0f);
            set_subject("allocation failures, directed random graph, seed %d", 7200);
            made = tgraph_from_elist(&t, &el, true, false, 0);
            el_free(&el);
        } else {
            set_subject("allocation failures, undirected Kronecker scale 13");
            made = tgraph_generate(&t, LG_GENERATOR_KRONECKER, 13, 16, 7201, false, 0);
        }
        if (!made)
            continue;
        const int64_t n = t.o.n;
        int32_t *want_dist = or_alloc((size_t)n, sizeof *want_dist);
        lg_vertex_t *want_labels = or_alloc((size_t)n, sizeof *want_labels);
        or_bfs(&t.o, 0, want_dist);
        (void)or_components(&t.o, want_labels);
        long long most = 0;
        for (int bfs = 1; bfs >= 0; bfs--) {
            long long k = 0;
            for (bool fired = true; fired && k < 1000;) {
                fired = failing_at(hooks, false, &t, bfs, k, want_dist, want_labels);
                const long long extra = oom_extra(&r);
                most = extra > most ? extra : most;
                if (fired)
                    k++;
            }
            CHECK(k >= 3); /* the graph's upload and the work buffer at least */
            printf("%s, %s: %lld GPU allocations failed one at a time\n",
                   graph == 0 ? "directed" : "Kronecker", bfs ? "BFS" : "components", k);
            for (long long j = 0; j < k; j++)
                (void)failing_at(hooks, true, &t, bfs, j, want_dist, want_labels);
        }
        CHECK(most == held); /* each call's graph and context are freed before the next */
        if (most != held)
            report("%lld GPU allocations outlived their calls", most - held);
        free(want_dist);
        free(want_labels);
        tgraph_free(&t);
    }
    oom_finish(&r);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"GPU allocation failures of BFS and components", test_device_allocation_failures},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], NULL);
}
