/*
 * oracle.h - small, slow, obviously-correct references for libgraph's C tests,
 * and how a test runs against them.
 *
 * Written from the documented semantics in include/libgraph.h alone, never
 * from the library's code, so that a test compares two independent readings
 * of the contract:
 *
 *   oracle_graph.h       or_build (COO edges -> CSR), or_transpose (the
 *                        in-edge view), or_has_arc, or_csr_equal
 *   oracle_bfs.h         or_bfs, or_bfs_multi (many sources, depth limit) and
 *                        their parent checkers
 *   oracle_pagerank.h    or_pagerank, float64 power iteration; or_pagerank_run,
 *                        its answer to a call with an lg_pagerank_options_t
 *   oracle_components.h  or_components, union-find with canonical labels
 *   oracle_shapes.h      or_random_edges, random test graphs of many shapes
 *
 * This header includes them all, and holds what the tests that use them
 * share: the passive OpenMP wait policy, the contexts they open (GPU ones in
 * the *_gpu builds), and where a call should have run.
 */
#ifndef LIBGRAPH_TEST_ORACLE_H
#define LIBGRAPH_TEST_ORACLE_H

#include "libgraph.h"
#include "oracle_bfs.h"
#include "oracle_components.h"
#include "oracle_graph.h"
#include "oracle_pagerank.h"
#include "oracle_shapes.h"
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__linux__)
#include <unistd.h>
#endif

/*
 * The tests make many thousands of small library calls, each a few OpenMP
 * parallel regions.  Under OpenMP's default (active) wait policy the idle
 * team threads spin between regions, and where there are fewer free cores
 * than threads (a 3-thread context on a 2-core machine, ctest -j) every call
 * then costs milliseconds instead of microseconds.  So a test program re-runs
 * itself once with OMP_WAIT_POLICY=passive, unless the caller chose a policy
 * (the OpenMP runtime reads it only at start-up).  Needs _POSIX_C_SOURCE.
 */
static inline void or_passive_openmp(char **argv)
{
#if defined(__linux__)
    if (argv && argv[0] && !getenv("OMP_WAIT_POLICY")) {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv);
        /* exec failed: go on with the default policy */
    }
#else
    (void)argv;
#endif
}

/* Opens count CPU contexts, ctx[k] with k + 1 threads; false (after printing
 * why) when one cannot be opened.
 *
 * Built with LG_TEST_GPU (the *_gpu tests), the contexts are LG_BACKEND_GPU
 * ones: every algorithm then runs there (or_ran_on_expected checks it), so
 * the same oracle comparisons cover both backends.  When no GPU answers the program exits 77 (ctest's
 * "skipped") after printing the reason. */
static inline bool or_open_contexts(lg_context_t **ctx, int count)
{
#ifdef LG_TEST_GPU
    {
        lg_context_options_t probe_o;
        lg_context_options_init(&probe_o);
        probe_o.backend = LG_BACKEND_GPU;
        lg_context_t *probe = NULL;
        if (lg_context_create(&probe, &probe_o) != LG_OK) {
            printf("skipped: no GPU context: %s\n", lg_last_error());
            exit(77);
        }
        const char *desc = "?";
        lg_context_get_device(probe, &desc);
        printf("GPU tests on %s\n", desc);
        lg_context_free(&probe);
    }
#endif
    for (int k = 0; k < count; k++) {
        lg_context_options_t co;
        lg_context_options_init(&co);
#ifdef LG_TEST_GPU
        co.backend = LG_BACKEND_GPU;
#else
        co.backend = LG_BACKEND_CPU;
#endif
        co.num_threads = k + 1;
        if (lg_context_create(&ctx[k], &co) != LG_OK) {
            fprintf(stderr, "lg_context_create: %s\n", lg_last_error());
            return false;
        }
#ifdef LG_TEST_GPU
        lg_backend_t b = LG_BACKEND_AUTO;
        if (lg_context_get_backend(ctx[k], &b) != LG_OK || b != LG_BACKEND_GPU) {
            fprintf(stderr, "a GPU context is not on the GPU\n");
            return false;
        }
#endif
    }
    return true;
}

/* After an algorithm call: true when it ran where it should (the GPU in the
 * *_gpu tests when the call reached a kernel, the CPU otherwise). */
static inline bool or_ran_on_expected(bool has_gpu_kernel)
{
#ifdef LG_TEST_GPU
    return lg_last_backend() == (has_gpu_kernel ? LG_BACKEND_GPU : LG_BACKEND_CPU);
#else
    (void)has_gpu_kernel;
    return lg_last_backend() == LG_BACKEND_CPU;
#endif
}

/* The first i in [0, n) where got[i] is not within rel of want[i]
 * (relative to |want[i]|, or absolute below 1; a NaN wanted is a NaN got),
 * or -1: sums of path counts that ran in another order. */
static inline int64_t or_first_far(const double *got, const double *want, int64_t n, double rel)
{
    for (int64_t i = 0; i < n; i++) {
        const bool ok = isnan(want[i]) ? isnan(got[i])
                                       : fabs(got[i] - want[i]) <=
                                             rel * (fabs(want[i]) > 1.0 ? fabs(want[i]) : 1.0);
        if (!ok)
            return i;
    }
    return -1;
}

/* got[0..n) within rel of want's largest magnitude, entry by entry (a
 * vector summed in another order). */
static inline bool or_near(const double *got, const double *want, int64_t n, double rel)
{
    double scale = 1e-300;
    for (int64_t v = 0; v < n; v++)
        scale = fmax(scale, fabs(want[v]));
    for (int64_t v = 0; v < n; v++)
        if (!(fabs(got[v] - want[v]) <= rel * scale))
            return false;
    return true;
}

#endif
