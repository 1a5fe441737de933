/*
 * gpu_traversal.c - BFS and connected-components timings on one backend, for
 * docs/PERFORMANCE.md.
 *
 *   bench_gpu_traversal [--device gpu|cpu|auto] [--threads T] [--repeat R]
 *                       [--sources S] [--alpha A] [--beta B] GRAPH ...
 *
 * GRAPH is kron:SCALE[:EF] (Graph500 Kronecker) or urand:SCALE[:EF] (uniform
 * random), edge factor EF (default 16), built with the GAP convention
 * (undirected, no self-loops or duplicates) on the CPU.  For each:
 *
 *   first call  one BFS on the fresh graph: on a GPU it includes the upload
 *               of the graph (cached for the calls after it);
 *   BFS         S searches (default 64) from sources drawn at random (fixed
 *               seed) among the vertices of the largest component that have
 *               an edge, as Graph500 draws them; each is timed as one
 *               lg_bfs call (distances only, copied back to the host).
 *               Reported: the mean and median milliseconds a search, and
 *               TEPS in Graph500's counting: the undirected edges of the
 *               source's component over the search's time (the arcs of the
 *               component / 2), averaged harmonically as Graph500 does;
 *   call floor  the median of R searches with max_depth 0: what a call costs
 *               besides the search (allocating, filling and copying back
 *               the distances);
 *   CC          the median of R calls of lg_connected_components (labels
 *               copied back to the host).
 *
 * --alpha and --beta set the BFS direction switch (lg_bfs_options_t; the
 * library's defaults otherwise).
 *
 * Prints one line per measurement; machine-readable lines start with "row:".
 */
#define _POSIX_C_SOURCE 200809L

#include "graphs.h"
#include "libgraph.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int fail(const char *what)
{
    fprintf(stderr, "bench_gpu_traversal: %s: %s\n", what, lg_last_error());
    return 1;
}

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

static int run_graph(lg_context_t *ctx, const char *spec, int repeat, int num_sources, int alpha,
                     int beta)
{
    lg_generator_t gen;
    int scale, ef;
    if (!bench_parse_graph(spec, &gen, &scale, &ef)) {
        fprintf(stderr,
                "bench_gpu_traversal: bad graph '%s' (kron:SCALE[:EF] or urand:SCALE[:EF])\n",
                spec);
        return 2;
    }
    lg_context_t *cpu = NULL;
    lg_graph_t *g = NULL;
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_CPU;
    if (lg_context_create(&cpu, &co) != LG_OK)
        return fail("a CPU context");
    double t0 = bench_now();
    if (lg_generate(cpu, gen, scale, ef, 1, NULL, &g) != LG_OK) {
        lg_context_free(&cpu);
        return fail("generating");
    }
    const double built = bench_now() - t0;
    const int64_t n = lg_graph_num_vertices(g), m = lg_graph_num_edges(g);
    printf("%s: %lld vertices, %lld arcs (generated and built on the CPU in %.2f s)\n", spec,
           (long long)n, (long long)m, built);

    int rc = 1;
    int32_t *dist = malloc((size_t)n * sizeof *dist);
    lg_vertex_t *label = malloc((size_t)n * sizeof *label);
    int64_t *arcs_of = calloc((size_t)n, sizeof *arcs_of);
    lg_vertex_t *sources = malloc((size_t)num_sources * sizeof *sources);
    double *t = malloc((size_t)(num_sources + repeat) * sizeof *t);
    if (!dist || !label || !arcs_of || !sources || !t) {
        fprintf(stderr, "bench_gpu_traversal: out of memory\n");
        goto done;
    }

    /* the largest component, and its arcs, from the CPU's labels */
    const lg_edge_t *off;
    lg_graph_csr(g, &off, NULL, NULL);
    int64_t count = 0;
    if (lg_connected_components(cpu, g, NULL, label, &count) != LG_OK) {
        fail("components on the CPU");
        goto done;
    }
    for (int64_t v = 0; v < n; v++)
        arcs_of[label[v]] += off[v + 1] - off[v];
    lg_vertex_t giant = 0;
    for (int64_t v = 0; v < n; v++)
        if (arcs_of[v] > arcs_of[giant])
            giant = (lg_vertex_t)v;
    uint64_t state = 0x5EED;
    for (int i = 0; i < num_sources;) {
        const lg_vertex_t v = (lg_vertex_t)(next_random(&state) % (uint64_t)n);
        if (label[v] == giant && off[v + 1] > off[v])
            sources[i++] = v;
    }
    const double edges = (double)arcs_of[giant] / 2.0; /* undirected edges of the component */

    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    if (alpha >= 0)
        bo.direction_alpha = alpha;
    if (beta > 0)
        bo.direction_beta = beta;
    t0 = bench_now();
    if (lg_bfs(ctx, g, sources[0], &bo, dist, NULL) != LG_OK) {
        fail("BFS");
        goto done;
    }
    printf("row: %s BFS first call (upload included): %.3f ms, ran on %s\n", spec,
           1e3 * (bench_now() - t0), lg_last_backend() == LG_BACKEND_GPU ? "gpu" : "cpu");
    double sum = 0.0, inverse_teps = 0.0;
    for (int i = 0; i < num_sources; i++) {
        t0 = bench_now();
        if (lg_bfs(ctx, g, sources[i], &bo, dist, NULL) != LG_OK) {
            fail("BFS");
            goto done;
        }
        t[i] = bench_now() - t0;
        sum += t[i];
        inverse_teps += t[i] / edges;
    }
    const double mean = sum / num_sources, harmonic_teps = num_sources / inverse_teps;
    /* the part of a call that is not the search: max_depth 0 allocates,
     * fills and copies the distances back, and stops at the source */
    lg_bfs_options_t b0 = bo;
    b0.max_depth = 0;
    for (int r = 0; r < repeat; r++) {
        t0 = bench_now();
        if (lg_bfs(ctx, g, sources[r % num_sources], &b0, dist, NULL) != LG_OK) {
            fail("BFS");
            goto done;
        }
        t[num_sources + r] = bench_now() - t0;
    }
    printf("row: %s BFS call without the search (max_depth 0): %.4f ms (median of %d)\n", spec,
           1e3 * bench_median(t + num_sources, repeat), repeat);
    printf("row: %s BFS: %.4f ms mean, %.4f ms median over %d sources of the largest component "
           "(%.0f edges); %.2f GTEPS (harmonic mean)\n",
           spec, 1e3 * mean, 1e3 * bench_median(t, num_sources), num_sources, edges,
           harmonic_teps * 1e-9);

    for (int r = 0; r < repeat; r++) {
        t0 = bench_now();
        if (lg_connected_components(ctx, g, NULL, label, &count) != LG_OK) {
            fail("components");
            goto done;
        }
        t[r] = bench_now() - t0;
    }
    printf("row: %s CC: %.4f ms (median of %d), %lld components, ran on %s\n", spec,
           1e3 * bench_median(t, repeat), repeat, (long long)count,
           lg_last_backend() == LG_BACKEND_GPU ? "gpu" : "cpu");
    rc = 0;
done:
    free(dist);
    free(label);
    free(arcs_of);
    free(sources);
    free(t);
    lg_graph_free(&g);
    lg_context_free(&cpu);
    return rc;
}

int main(int argc, char **argv)
{
    lg_context_options_t o;
    lg_context_options_init(&o);
    o.backend = LG_BACKEND_GPU;
    int repeat = 11, num_sources = 64, first = 1, alpha = -1, beta = -1;
    for (; first < argc && argv[first][0] == '-'; first += 2) {
        if (first + 1 >= argc) {
            fprintf(stderr, "bench_gpu_traversal: %s needs a value\n", argv[first]);
            return 2;
        }
        const char *v = argv[first + 1];
        if (!strcmp(argv[first], "--device")) {
            if (lg_context_options_parse(&o, v) != LG_OK)
                return fail("--device");
        } else if (!strcmp(argv[first], "--threads")) {
            o.num_threads = atoi(v);
        } else if (!strcmp(argv[first], "--repeat")) {
            repeat = atoi(v);
        } else if (!strcmp(argv[first], "--sources")) {
            num_sources = atoi(v);
        } else if (!strcmp(argv[first], "--alpha")) {
            alpha = atoi(v);
        } else if (!strcmp(argv[first], "--beta")) {
            beta = atoi(v);
        } else {
            fprintf(stderr, "bench_gpu_traversal: unknown option %s\n", argv[first]);
            return 2;
        }
    }
    if (first >= argc || repeat < 1 || num_sources < 1) {
        fprintf(stderr,
                "usage: bench_gpu_traversal [--device D] [--threads T] [--repeat R] "
                "[--sources S] [--alpha A] [--beta B] kron:SCALE[:EF]|urand:SCALE[:EF] ...\n");
        return 2;
    }
    lg_context_t *ctx = NULL;
    if (lg_context_create(&ctx, &o) != LG_OK)
        return fail("opening the context");
    const char *device = "?";
    lg_context_get_device(ctx, &device);
    printf("device: %s\n", device);
    int rc = 0;
    for (int i = first; i < argc && rc == 0; i++)
        rc = run_graph(ctx, argv[i], repeat, num_sources, alpha, beta);
    lg_context_free(&ctx);
    return rc;
}
