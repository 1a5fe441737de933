/*
 * call_time.c - the C library's own time for one call on a tiny graph, the
 * baseline bench/python_api.py subtracts to get the Python layer's cost.
 *
 *   bench_call_time [THREADS]
 *
 * The graph is bench/python_api.py's: the undirected path 0-1-...-9.
 * For BFS from 0, PageRank (networkx defaults, double) and connected
 * components, on a CPU context of THREADS threads (default 1), prints
 * "c_us NAME T": the best of 7 rounds of 20000 calls, microseconds a call.
 */
#define _POSIX_C_SOURCE 200809L

#include "libgraph.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CALLS 20000
#define ROUNDS 7
#define N 10

enum {
    BFS,
    PAGERANK,
    CC
};

static lg_status_t call(int which, lg_context_t *ctx, const lg_graph_t *g, int32_t *d, double *x)
{
    switch (which) {
    case BFS: return lg_bfs(ctx, g, 0, NULL, d, NULL);
    case PAGERANK: return lg_pagerank(ctx, g, NULL, x, NULL);
    default: return lg_connected_components(ctx, g, NULL, d, NULL);
    }
}

int main(int argc, char **argv)
{
    lg_vertex_t src[N - 1], dst[N - 1];
    for (int i = 0; i < N - 1; i++) {
        src[i] = i;
        dst[i] = i + 1;
    }
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_CPU;
    co.num_threads = argc > 1 ? atoi(argv[1]) : 1;
    lg_context_t *ctx = NULL;
    lg_graph_t *g = NULL;
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = LG_UNDIRECTED;
    if (lg_context_create(&ctx, &co) != LG_OK ||
        lg_graph_from_edges(ctx, N, N - 1, src, dst, NULL, &go, &g) != LG_OK) {
        fprintf(stderr, "bench_call_time: %s\n", lg_last_error());
        return 1;
    }
    int32_t d[N];
    double x[N];
    static const char *names[] = {"bfs", "pagerank", "cc"};
    for (int which = BFS; which <= CC; which++) {
        double best = 1e30;
        for (int r = 0; r < ROUNDS; r++) {
            double t0 = bench_now();
            for (int k = 0; k < CALLS; k++)
                if (call(which, ctx, g, d, x) != LG_OK) {
                    fprintf(stderr, "bench_call_time: %s\n", lg_last_error());
                    return 1;
                }
            double t = (bench_now() - t0) / CALLS;
            if (t < best)
                best = t;
        }
        printf("c_us %s %.3f\n", names[which], best * 1e6);
    }
    lg_graph_free(&g);
    lg_context_free(&ctx);
    return 0;
}
