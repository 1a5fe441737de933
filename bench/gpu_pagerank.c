/*
 * gpu_pagerank.c - PageRank timings on one backend, for docs/PERFORMANCE.md.
 *
 *   bench_gpu_pagerank [--device gpu|cpu|auto] [--threads T] [--repeat R] SCALE|urand:SCALE ...
 *
 * For each Kronecker graph (Graph500 parameters, edge factor 16, GAP
 * convention: undirected, no self-loops or duplicates) of the given scales,
 * or uniform random graph (urand:SCALE, the same convention):
 *
 *   warm-up     the process's first PageRank, on a small graph (kron:10):
 *               on a GPU, the kernels are loaded then;
 *   end-to-end  networkx-style PageRank (double, alpha 0.85, tol 1e-6, max_iter
 *               100) on a freshly built graph: on a GPU this includes the
 *               upload and the device-side set-up; then the same call again
 *               (the device copy now cached);
 *   iteration   the time of one iteration, float and double: the medians of R
 *               runs of 1 and of 21 iterations (tol 0), (t21 - t1) / 20, so
 *               the set-up cancels; each iteration includes its host round
 *               trip for the convergence test;
 *   floor       the bytes an iteration must move at least (the in-edge index
 *               array, 4 bytes an arc, plus offsets and the 4 vectors of n
 *               once) and what that is as a bandwidth.
 *
 * Prints one line per measurement; machine-readable lines start with "row:".
 */
#define _POSIX_C_SOURCE 200809L

#include "libgraph.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int fail(const char *what)
{
    fprintf(stderr, "bench_gpu_pagerank: %s: %s\n", what, lg_last_error());
    return 1;
}

/* Median seconds of `repeat` PageRank calls with max_iter iterations and tol 0. */
static int time_iterations(lg_context_t *ctx, const lg_graph_t *g, bool f32, int max_iter,
                           int repeat, void *scores, double *out)
{
    double t[64];
    lg_pagerank_options_t po;
    lg_pagerank_options_init(&po);
    po.tol = 0.0;
    po.max_iter = max_iter;
    for (int r = 0; r < repeat; r++) {
        lg_pagerank_result_t res;
        double t0 = bench_now();
        lg_status_t st = f32 ? lg_pagerank_f32(ctx, g, &po, scores, &res)
                             : lg_pagerank(ctx, g, &po, scores, &res);
        t[r] = bench_now() - t0;
        if (st != LG_ERR_NOT_CONVERGED || res.iterations != max_iter)
            return fail("lg_pagerank");
    }
    *out = bench_median(t, repeat);
    return 0;
}

int main(int argc, char **argv)
{
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_GPU;
    int repeat = 7, first_scale = 1;
    for (; first_scale < argc && argv[first_scale][0] == '-';
         first_scale += 2) { /* option, value */
        const char *a = argv[first_scale];
        const char *v = first_scale + 1 < argc ? argv[first_scale + 1] : "";
        if (!strcmp(a, "--device")) {
            co.backend = !strcmp(v, "cpu")    ? LG_BACKEND_CPU
                         : !strcmp(v, "auto") ? LG_BACKEND_AUTO
                                              : LG_BACKEND_GPU;
        } else if (!strcmp(a, "--threads")) {
            co.num_threads = atoi(v);
        } else if (!strcmp(a, "--repeat")) {
            repeat = atoi(v);
            repeat = repeat < 1 ? 1 : repeat > 64 ? 64 : repeat;
        } else {
            fprintf(stderr, "usage: bench_gpu_pagerank [--device gpu|cpu|auto] [--threads T] "
                            "[--repeat R] SCALE|urand:SCALE ...\n");
            return 2;
        }
    }
    lg_context_t *ctx = NULL, *cpu = NULL;
    lg_context_options_t cpu_o;
    lg_context_options_init(&cpu_o);
    cpu_o.backend = LG_BACKEND_CPU;
    if (lg_context_create(&ctx, &co) != LG_OK || lg_context_create(&cpu, &cpu_o) != LG_OK)
        return fail("lg_context_create");
    const char *device = "?";
    lg_context_get_device(ctx, &device);
    printf("device: %s\n", device);

    {
        /* The process's first PageRank also loads the kernels it uses (the
         * CUDA runtime loads modules lazily; the whole call took 3.4-4.6 ms
         * on the H100), a cost of the process and not of any graph: timed
         * here, on a small graph, so that every graph's first call below is
         * the same kind of call. */
        lg_graph_t *w = NULL;
        double *ws = NULL;
        if (lg_generate(cpu, LG_GENERATOR_KRONECKER, 10, 16, 1, NULL, &w) != LG_OK ||
            !(ws = malloc((size_t)lg_graph_num_vertices(w) * sizeof *ws)))
            return fail("the warm-up graph");
        const double t0 = bench_now();
        if (lg_pagerank(ctx, w, NULL, ws, NULL) != LG_OK)
            return fail("lg_pagerank (warm-up)");
        printf("row: warm-up: the process's first PageRank (kron:10, %lld arcs): %.3f ms\n",
               (long long)lg_graph_num_edges(w), 1e3 * (bench_now() - t0));
        free(ws);
        lg_graph_free(&w);
    }

    for (int i = first_scale; i < argc; i++) {
        /* SCALE (Kronecker) or urand:SCALE */
        const bool urand = !strncmp(argv[i], "urand:", 6);
        const char *kind = urand ? "urand" : "kron";
        const int scale = atoi(urand ? argv[i] + 6 : argv[i]);
        lg_graph_t *g = NULL;
        double t0 = bench_now();
        if (lg_generate(cpu, urand ? LG_GENERATOR_URAND : LG_GENERATOR_KRONECKER, scale, 16, 1,
                        NULL, &g) != LG_OK)
            return fail("lg_generate");
        const int64_t n = lg_graph_num_vertices(g), m = lg_graph_num_edges(g);
        printf("%s:%d: %lld vertices, %lld arcs (generated and built on the CPU in %.2f s)\n", kind,
               scale, (long long)n, (long long)m, bench_now() - t0);
        double *scores = malloc((size_t)n * sizeof *scores);
        if (!scores)
            return 1;

        /* end-to-end, as networkx.pagerank would be called */
        lg_pagerank_result_t res;
        t0 = bench_now();
        if (lg_pagerank(ctx, g, NULL, scores, &res) != LG_OK)
            return fail("lg_pagerank");
        const double e2e = bench_now() - t0;
        t0 = bench_now();
        if (lg_pagerank(ctx, g, NULL, scores, &res) != LG_OK)
            return fail("lg_pagerank");
        const double e2e_cached = bench_now() - t0;
        printf("row: %s:%d end-to-end double tol 1e-6: %.3f ms first call (upload included), "
               "%.3f ms cached, %d iterations, ran on %s\n",
               kind, scale, 1e3 * e2e, 1e3 * e2e_cached, res.iterations,
               lg_last_backend() == LG_BACKEND_GPU ? "gpu" : "cpu");

        const double floor_bytes = 4.0 * (double)m + 8.0 * (double)n + 4.0 * 4.0 * (double)n;
        for (int f32 = 1; f32 >= 0; f32--) {
            double t1 = 0, t21 = 0;
            if (time_iterations(ctx, g, f32, 1, repeat, scores, &t1) ||
                time_iterations(ctx, g, f32, 21, repeat, scores, &t21))
                return 1;
            const double per = (t21 - t1) / 20.0;
            printf("row: %s:%d %s iteration: %.4f ms (medians of %d: 1 iteration %.3f ms, 21 "
                   "iterations %.3f ms); floor bytes %.1f MB -> %.0f GB/s\n",
                   kind, scale, f32 ? "float" : "double", 1e3 * per, repeat, 1e3 * t1, 1e3 * t21,
                   floor_bytes / 1e6, floor_bytes / per / 1e9);
        }
        free(scores);
        lg_graph_free(&g);
    }
    lg_context_free(&ctx);
    lg_context_free(&cpu);
    return 0;
}
