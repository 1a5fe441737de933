/*
 * test_power_oom.c - the GPU plugin's out-of-memory paths of the power
 * iterations (eigenvector, Katz, HITS), against the CPU kernel's answer
 * (which test_eigenvector checks against its oracle).  Built only with a GPU
 * plugin, as test_power_oom_gpu (tests/CMakeLists.txt); skipped (77) where no
 * GPU answers.
 *
 * As test_traversal_oom.c does for BFS: the k-th device or pinned-host
 * allocation of a call on a fresh graph and a fresh context fails, for
 * k = 0, 1, ... until a call no longer reaches k.  A GPU context returns
 * LG_ERR_OUT_OF_MEMORY naming GPU memory (or succeeds where the failure was a
 * pinned staging buffer it can do without) and the graph stays usable; an
 * AUTO context gives the CPU's answer.  Each call runs 12 iterations exactly
 * (tol 0), with nstart (uploaded through the staging vector) on a directed
 * weighted graph, whose HITS builds the renamed out-edges, and without on an
 * undirected Kronecker graph; each in double and in float.  The plugin's
 * live allocations show that nothing leaks.
 */
#define _POSIX_C_SOURCE 200809L

#include "gpu_oom.h"
#include "harness.h"
#include "kernel_graphs.h"
#include "libgraph.h"
#include "oracle.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

#ifndef LG_TEST_GPU
#error "test_power_oom.c tests the GPU plugin: it is built with LG_TEST_GPU only"
#endif

enum {
    ITERATIONS = 12
};
static const char *const names[6] = {"eigenvector",       "Katz",       "HITS",
                                     "eigenvector float", "Katz float", "HITS float"};

/* One call of kind (0 eigenvector, 1 Katz, 2 HITS; 3, 4, 5 their float
 * twins, whose results are widened into x and a) on c: its status
 * (LG_ERR_NOT_CONVERGED when it ran its ITERATIONS), x and (HITS) a
 * filled. */
static lg_status_t run_once(lg_context_t *c, const lg_graph_t *g, int kind, const double *nstart,
                            int64_t n, double *x, double *a)
{
    lg_iteration_result_t r;
    float *x32 = kind >= 3 ? or_alloc((size_t)n, sizeof *x32) : NULL;
    float *a32 = kind >= 3 ? or_alloc((size_t)n, sizeof *a32) : NULL;
    lg_status_t st;
    if (kind % 3 == 0) {
        lg_eigenvector_options_t o;
        lg_eigenvector_options_init(&o);
        o.tol = 0.0, o.max_iter = ITERATIONS, o.nstart = nstart;
        st = x32 ? lg_eigenvector_f32(c, g, &o, x32, &r) : lg_eigenvector(c, g, &o, x, &r);
    } else if (kind % 3 == 1) {
        lg_katz_options_t o;
        lg_katz_options_init(&o);
        o.alpha = 0.01, o.tol = 0.0, o.max_iter = ITERATIONS, o.nstart = nstart;
        st = x32 ? lg_katz_f32(c, g, &o, x32, &r) : lg_katz(c, g, &o, x, &r);
    } else {
        lg_hits_options_t o;
        lg_hits_options_init(&o);
        o.tol = 0.0, o.max_iter = ITERATIONS, o.nstart = nstart;
        st = x32 ? lg_hits_f32(c, g, &o, x32, a32, &r) : lg_hits(c, g, &o, x, a, &r);
    }
    for (int64_t v = 0; x32 && v < n; v++)
        x[v] = x32[v], a[v] = kind == 5 ? a32[v] : 0.0;
    free(x32);
    free(a32);
    return st;
}

/* got within a relative 1e-12 of want's largest entry (1e-5 for the float
 * twins: the CPU's and the GPU's float entries round apart). */
static bool near(const double *got, const double *want, int64_t n, int kind)
{
    return or_near(got, want, n, kind >= 3 ? 1e-5 : 1e-12);
}

struct expected {
    int kind;
    int64_t n;
    const double *nstart, *x, *a; /* the CPU's answer */
};

/* A call on c: whether it ran its iterations and gave the CPU's answer. */
static bool right_on(lg_context_t *c, lg_graph_t *g, const void *data, lg_status_t *st)
{
    const struct expected *e = data;
    const int64_t n = e->n;
    double *x = or_alloc((size_t)n, sizeof *x), *a = or_alloc((size_t)n, sizeof *a);
    *st = run_once(c, g, e->kind, e->nstart, n, x, a);
    const bool right = *st == LG_ERR_NOT_CONVERGED && near(x, e->x, n, e->kind) &&
                       (e->kind % 3 < 2 || near(a, e->a, n, e->kind));
    free(x);
    free(a);
    return right;
}

static void test_device_allocation_failures(void)
{
    struct oom_run r;
    if (!oom_start(&r))
        return;
    const long long held = oom_extra(&r); /* the run's two contexts' staging buffers */
    lg_context_t *cpu = NULL;
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_CPU;
    CHECK_OK(lg_context_create(&cpu, &co));
    for (int graph = 0; cpu && graph < 2; graph++) {
        struct tgraph t;
        unsigned long long rng = 7300 + (unsigned long long)graph;
        bool made;
        if (graph == 0) {
            const int64_t n = 2003;
            struct elist el;
            el_init(&el, n);
            for (int64_t i = 0; i < 6 * n; i++)
                el_add(&el, or_rand_below(&rng, n), or_rand_below(&rng, n),
                       (float)(1 + or_rand_below(&rng, 4)) / 2.0f);
            set_subject("allocation failures, directed weighted random graph, seed %d", 7300);
            made = tgraph_from_elist(&t, &el, true, true, 0);
            el_free(&el);
        } else {
            set_subject("allocation failures, undirected Kronecker scale 12");
            made = tgraph_generate(&t, LG_GENERATOR_KRONECKER, 12, 16, 7301, false, 0);
        }
        if (!made)
            continue;
        const int64_t n = t.o.n;
        double *nstart = NULL, *x = or_alloc((size_t)n, sizeof *x),
               *a = or_alloc((size_t)n, sizeof *a);
        if (graph == 0) {
            nstart = or_alloc((size_t)n, sizeof *nstart);
            for (int64_t v = 0; v < n; v++)
                nstart[v] = 1.0 + (double)or_rand_below(&rng, 5);
        }
        long long most = 0;
        for (int kind = 0; kind < 6; kind++) {
            CHECK_STATUS(run_once(cpu, t.g, kind, nstart, n, x, a), LG_ERR_NOT_CONVERGED);
            const struct expected e = {kind, n, nstart, x, a};
            const struct oom_call call = {names[kind], right_on, &e};
            const long long k = oom_sweep(&r, &t, &call, &most);
            CHECK(k >= 5); /* the upload, the pull structure and the vectors at least */
            printf("%s, %s: %lld GPU allocations failed one at a time\n",
                   graph == 0 ? "directed weighted" : "Kronecker", names[kind], k);
        }
        CHECK(most == held); /* each call's graph and context are freed before the next */
        if (most != held)
            report("%lld GPU allocations outlived their calls", most - held);
        free(nstart);
        free(x);
        free(a);
        tgraph_free(&t);
    }
    lg_context_free(&cpu);
    oom_finish(&r);
}

int main(int argc, char **argv)
{
    (void)argc;
    static const struct section sections[] = {
        {"GPU allocation failures of the power iterations", test_device_allocation_failures},
    };
    return harness_main(argv, sections, sizeof sections / sizeof sections[0], NULL);
}
