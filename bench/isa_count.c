/*
 * isa_count.c - a fixed piece of work for counting retired instructions
 * under qemu (tools/isa-counts.sh): the CPU kernels' vector path or scalar
 * twin (src/kernels/cpu/vec.h) on a generated Kronecker graph, one thread.
 *
 *   bench_isa_count ALGO SCALE PATH REPS
 *     ALGO   pagerank (double), pagerank_f32, bfs, cc, or none (the graph only)
 *     SCALE  kron:SCALE, the GAP benchmark's undirected graph
 *     PATH   vector or scalar
 *     REPS   PageRank iterations (tol 0: exactly REPS), or BFS/CC runs
 *
 * A count of REPS = 2 less one of REPS = 1 is one iteration or one run,
 * without the generator and the build.  BFS starts at the vertex of
 * largest degree.  Prints a checksum of the result, so that the two paths
 * can be seen to agree.  Not a test and not installed.
 */
#include "internal.h" /* lg__cpu_vector_paths */
#include "libgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, lg_status_t st)
{
    fprintf(stderr, "isa_count: %s: %s: %s\n", what, lg_status_string(st), lg_last_error());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s pagerank|pagerank_f32|bfs|cc|none SCALE vector|scalar REPS\n",
                argv[0]);
        return 2;
    }
    const char *algo = argv[1], *path = argv[3];
    const int scale = atoi(argv[2]), reps = atoi(argv[4]);
    if (scale < 1 || scale > 30 || reps < 1 || (strcmp(path, "vector") && strcmp(path, "scalar"))) {
        fprintf(stderr, "isa_count: bad arguments (SCALE 1..30, REPS >= 1, vector|scalar)\n");
        return 2;
    }
    lg_context_t *ctx = NULL;
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.num_threads = 1;
    lg_status_t st = lg_context_create(&ctx, &co);
    if (st != LG_OK)
        return fail("lg_context_create", st);
    lg_graph_t *g = NULL;
    st = lg_generate(ctx, LG_GENERATOR_KRONECKER, scale, 16, 1, NULL, &g);
    if (st != LG_OK)
        return fail("lg_generate", st);
    const int64_t n = lg_graph_num_vertices(g);
    lg__cpu_vector_paths(strcmp(path, "vector") == 0);

    double check = 0.0;
    if (!strncmp(algo, "pagerank", 8)) {
        lg_pagerank_options_t o;
        lg_pagerank_options_init(&o);
        o.tol = 0.0;
        o.max_iter = reps;
        lg_pagerank_result_t r;
        void *x = malloc((size_t)n * sizeof(double));
        const bool f32 = strcmp(algo, "pagerank_f32") == 0;
        st = f32 ? lg_pagerank_f32(ctx, g, &o, x, &r) : lg_pagerank(ctx, g, &o, x, &r);
        if (st != LG_OK && st != LG_ERR_NOT_CONVERGED)
            return fail("lg_pagerank", st);
        for (int64_t v = 0; v < n; v++)
            check += f32 ? (double)((float *)x)[v] * (double)(v % 7) : ((double *)x)[v] * (double)(v % 7);
        free(x);
    } else if (!strcmp(algo, "bfs")) {
        lg_edge_t *deg = malloc((size_t)n * sizeof *deg);
        int32_t *dist = malloc((size_t)n * sizeof *dist);
        if ((st = lg_graph_out_degrees(g, deg)) != LG_OK)
            return fail("lg_graph_out_degrees", st);
        lg_vertex_t source = 0;
        for (int64_t v = 1; v < n; v++)
            if (deg[v] > deg[source])
                source = (lg_vertex_t)v;
        for (int i = 0; i < reps; i++)
            if ((st = lg_bfs(ctx, g, source, NULL, dist, NULL)) != LG_OK)
                return fail("lg_bfs", st);
        for (int64_t v = 0; v < n; v++)
            check += dist[v];
        free(deg);
        free(dist);
    } else if (!strcmp(algo, "cc")) {
        lg_vertex_t *label = malloc((size_t)n * sizeof *label);
        int64_t count = 0;
        for (int i = 0; i < reps; i++)
            if ((st = lg_connected_components(ctx, g, NULL, label, &count)) != LG_OK)
                return fail("lg_connected_components", st);
        check = (double)count;
        free(label);
    } else if (strcmp(algo, "none")) {
        fprintf(stderr, "isa_count: unknown algorithm '%s'\n", algo);
        return 2;
    }
    printf("%s kron:%d %s x%d: checksum %.12g; %s\n", algo, scale, path, reps, check,
           lg_build_info());
    lg_graph_free(&g);
    lg_context_free(&ctx);
    return 0;
}
