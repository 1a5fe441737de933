/*
 * test_traversal_oom.c - the GPU plugin's out-of-memory paths of BFS,
 * connected components, betweenness (per vertex and per arc) and closeness,
 * against oracle_bfs.h, oracle_components.h and the CPU's betweenness and
 * closeness (to a relative 1e-9: the GPU sums in another order).  Built
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

enum kind {
    BFS,
    COMPONENTS,
    BETWEENNESS,
    EDGE_BETWEENNESS,
    CLOSENESS
};
static const char *const kind_names[] = {"BFS", "components", "betweenness", "edge betweenness",
                                         "closeness"};

/* The betweenness calls' sources: 16 of them. */
static const lg_vertex_t bc_sources[16] = {0,   5,   9,   17,  33,   64,   100,  101,
                                           257, 300, 512, 777, 1000, 1500, 2047, 2999};

/* One call of that kind on g (BFS from vertex 0 with parents): its status,
 * and whether the answer is the oracle's (want_bc: the CPU's betweenness or
 * closeness). */
static lg_status_t run_once(lg_context_t *c, lg_graph_t *g, const struct tgraph *t, enum kind kind,
                            const int32_t *want_dist, const lg_vertex_t *want_labels,
                            const double *want_bc, bool *right)
{
    const int64_t n = t->o.n, m = lg_graph_num_edges(g);
    int32_t *dist = or_alloc((size_t)n, sizeof *dist);
    lg_vertex_t *out = or_alloc((size_t)n, sizeof *out);
    lg_status_t st;
    if (kind == BETWEENNESS || kind == EDGE_BETWEENNESS) {
        double *bc = or_alloc((size_t)(kind == BETWEENNESS ? n : m) + 1, sizeof *bc);
        st = kind == BETWEENNESS ? lg_betweenness(c, g, bc_sources, 16, NULL, bc)
                                 : lg_edge_betweenness(c, g, bc_sources, 16, NULL, bc);
        *right = st == LG_OK && or_first_far(bc, want_bc, kind == BETWEENNESS ? n : m, 1e-9) < 0;
        free(bc);
    } else if (kind == CLOSENESS) {
        double *c_out = or_alloc((size_t)n, sizeof *c_out);
        st = lg_closeness(c, g, NULL, c_out);
        *right = st == LG_OK && or_first_far(c_out, want_bc, n, 1e-9) < 0;
        free(c_out);
    } else if (kind == BFS) {
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

struct wanted {
    const struct tgraph *t;
    enum kind kind;
    const int32_t *dist;
    const lg_vertex_t *labels;
    const double *bc;
};

static bool right_on(lg_context_t *c, lg_graph_t *g, const void *data, lg_status_t *st)
{
    const struct wanted *w = data;
    bool right = false;
    *st = run_once(c, g, w->t, w->kind, w->dist, w->labels, w->bc, &right);
    return right;
}

static void test_device_allocation_failures(void)
{
    struct oom_run r;
    if (!oom_start(&r))
        return;
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
        /* betweenness: the CPU's answers */
        const int64_t m = lg_graph_num_edges(t.g);
        double *want_bc = or_alloc((size_t)n, sizeof *want_bc),
               *want_ebc = or_alloc((size_t)m + 1, sizeof *want_ebc),
               *want_closeness = or_alloc((size_t)n, sizeof *want_closeness);
        lg_context_options_t co;
        lg_context_options_init(&co);
        co.backend = LG_BACKEND_CPU;
        lg_context_t *cpu = NULL;
        CHECK_OK(lg_context_create(&cpu, &co));
        CHECK_OK(lg_betweenness(cpu, t.g, bc_sources, 16, NULL, want_bc));
        CHECK_OK(lg_edge_betweenness(cpu, t.g, bc_sources, 16, NULL, want_ebc));
        CHECK_OK(lg_closeness(cpu, t.g, NULL, want_closeness));
        lg_context_free(&cpu);
        long long most = 0;
        for (int kind = BFS; kind <= CLOSENESS; kind++) {
            const struct wanted w = {&t, (enum kind)kind, want_dist, want_labels,
                                     kind == BETWEENNESS ? want_bc
                                     : kind == CLOSENESS ? want_closeness
                                                         : want_ebc};
            const struct oom_call call = {kind_names[kind], right_on, &w};
            const long long k = oom_sweep(&r, &t, &call, &most);
            CHECK(k >= 3); /* the graph's upload and the work buffer at least */
            printf("%s, %s: %lld GPU allocations failed one at a time\n",
                   graph == 0 ? "directed" : "Kronecker", kind_names[kind], k);
        }
        free(want_bc);
        free(want_ebc);
        free(want_closeness);
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
        {"GPU allocation failures of BFS, components, betweenness, closeness",
         test_device_allocation_failures},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], NULL);
}
