/*
 * gpu_calls.c - what one call costs from C, for the gpu_calls group of
 * bench/python_api.py, which times the same calls from Python beside it.
 *
 *   bench_gpu_calls [--device gpu|cpu] [--rounds R] GRAPH SOURCES
 *
 * GRAPH is kron:SCALE[:EF] or urand:SCALE[:EF], generated with seed 1 as
 * Graph.generate makes it; SOURCES is a comma-separated list of vertices.
 * A first BFS uploads the graph to the GPU.  Then R rounds (default 3) of,
 * for each output kind, each call once a source: BFS from the source
 * (distances, default options), the same with max_depth 0 (the call without
 * the search: filling and delivering the distances), PageRank (NetworkX's
 * defaults, double) and connected components.  The output kinds: host
 * memory (malloc'd once, as a numpy out= array) and, on a GPU context of a
 * CUDA build, device memory (cudaMalloc'd once, LG_MEMORY_DEVICE, as a
 * CuPy out= array).  Prints "row: c CALL OUT MEDIAN_MS CALLS" a pair: the
 * median of every call of that kind.
 */
#define _POSIX_C_SOURCE 200809L

#include "graphs.h"
#include "libgraph.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LG_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

enum call {
    BFS,
    BFS_FLOOR,
    PAGERANK,
    COMPONENTS,
    CALLS
};
static const char *const call_name[CALLS] = {"bfs", "bfs_floor", "pagerank", "components"};

struct outputs {
    int32_t *dist;
    double *rank;
    lg_vertex_t *label;
    lg_memory_t memory;
};

static lg_status_t call(lg_context_t *ctx, const lg_graph_t *g, enum call c, lg_vertex_t source,
                        const struct outputs *o)
{
    switch (c) {
    case BFS:
    case BFS_FLOOR: {
        lg_bfs_options_t bo;
        lg_bfs_options_init(&bo);
        bo.max_depth = c == BFS_FLOOR ? 0 : -1;
        bo.output_memory = o->memory;
        return lg_bfs(ctx, g, source, &bo, o->dist, NULL);
    }
    case PAGERANK: {
        lg_pagerank_options_t po;
        lg_pagerank_options_init(&po);
        po.output_memory = o->memory;
        return lg_pagerank(ctx, g, &po, o->rank, NULL);
    }
    default: {
        lg_components_options_t co;
        lg_components_options_init(&co);
        co.output_memory = o->memory;
        return lg_connected_components(ctx, g, &co, o->label, NULL);
    }
    }
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_gpu_calls [--device gpu|cpu] [--rounds R] GRAPH SOURCES\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *device = "gpu";
    int rounds = 3, i = 1;
    for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2)
        if (!strcmp(argv[i], "--device"))
            device = argv[i + 1];
        else if (!strcmp(argv[i], "--rounds") && (rounds = atoi(argv[i + 1])) >= 1)
            continue;
        else
            return usage();
    lg_generator_t gen;
    int scale, ef;
    if (argc - i != 2 || !bench_parse_graph(argv[i], &gen, &scale, &ef))
        return usage();
    int num_sources = 1;
    for (const char *p = argv[i + 1]; *p; p++)
        num_sources += *p == ',';
    lg_vertex_t *sources = malloc((size_t)num_sources * sizeof *sources);
    double *t = malloc((size_t)num_sources * (size_t)rounds * sizeof *t);
    if (!sources || !t)
        return 1;
    char *end = argv[i + 1];
    for (int k = 0; k < num_sources; k++, end++)
        sources[k] = (lg_vertex_t)strtol(end, &end, 10);

    lg_context_options_t co;
    lg_context_options_init(&co);
    lg_context_t *ctx = NULL;
    lg_graph_t *g = NULL;
    if (lg_context_options_parse(&co, device) != LG_OK || lg_context_create(&ctx, &co) != LG_OK ||
        lg_generate(ctx, gen, scale, ef, 1, NULL, &g) != LG_OK) {
        fprintf(stderr, "bench_gpu_calls: %s\n", lg_last_error());
        return 1;
    }
    const int64_t n = lg_graph_num_vertices(g);
    const char *desc = "";
    lg_context_get_device(ctx, &desc);
    printf("device: %s\n%s: %lld vertices, %lld arcs; %d sources, %d rounds\n", desc, argv[i],
           (long long)n, (long long)lg_graph_num_edges(g), num_sources, rounds);

    struct outputs out[2] = {{malloc((size_t)n * sizeof(int32_t)), malloc((size_t)n * sizeof(double)),
                              malloc((size_t)n * sizeof(lg_vertex_t)), LG_MEMORY_HOST},
                             {NULL, NULL, NULL, LG_MEMORY_DEVICE}};
    int kinds = 1;
#ifdef LG_BENCH_CUDA
    lg_backend_t backend = LG_BACKEND_CPU;
    lg_context_get_backend(ctx, &backend);
    if (backend == LG_BACKEND_GPU && cudaMalloc((void **)&out[1].dist, (size_t)n * 4) == cudaSuccess &&
        cudaMalloc((void **)&out[1].rank, (size_t)n * 8) == cudaSuccess &&
        cudaMalloc((void **)&out[1].label, (size_t)n * 4) == cudaSuccess)
        kinds = 2;
#endif
    int rc = 0;
    if (!out[0].dist || !out[0].rank || !out[0].label ||
        call(ctx, g, BFS, sources[0], &out[0]) != LG_OK) { /* the upload */
        fprintf(stderr, "bench_gpu_calls: %s\n", lg_last_error());
        rc = 1;
    }
    for (int k = 0; k < kinds && rc == 0; k++)
        for (int c = 0; c < CALLS && rc == 0; c++) {
            int calls = 0;
            for (int r = 0; r < rounds && rc == 0; r++)
                for (int s = 0; s < num_sources; s++) {
                    const double t0 = bench_now();
                    if (call(ctx, g, (enum call)c, sources[s], &out[k]) != LG_OK) {
                        fprintf(stderr, "bench_gpu_calls: %s\n", lg_last_error());
                        rc = 1;
                        break;
                    }
                    t[calls++] = bench_now() - t0;
                }
            if (rc == 0)
                printf("row: c %s %s %.4f %d\n", call_name[c], k ? "device" : "host",
                       1e3 * bench_median(t, calls), calls);
        }
#ifdef LG_BENCH_CUDA
    cudaFree(out[1].dist);
    cudaFree(out[1].rank);
    cudaFree(out[1].label);
#endif
    free(out[0].dist);
    free(out[0].rank);
    free(out[0].label);
    free(sources);
    free(t);
    lg_graph_free(&g);
    lg_context_free(&ctx);
    return rc;
}
