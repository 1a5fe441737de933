/*
 * bfs_sources.c - the BFS benchmark bench/run times: K searches, each from a
 * random vertex of the graph's largest (weakly) connected component, each
 * timed alone.
 *
 *   bench_bfs FILE K [--seed S] [--threads T] [--device auto|cpu|gpu|gpu:N]
 *             [--undirected | --directed] [--do-alpha A] [--do-beta B] [--output F]
 *
 * FILE is a graph file the library reads (.mtx, .el, .wel, .lgb).  The
 * sources are drawn by a xorshift64 seeded with S (default 1) from the
 * component's members in id order, so a seed gives the same sources on every
 * machine and bench/run hands them to every other tool.  Each search is one
 * lg_bfs call (distances only), timed by the wall clock around it.  The
 * component's edges (undirected edges, or arcs of a directed graph: Graph500's
 * count) over a search's time is its TEPS; the summary line gives the mean
 * and median time and the mean GTEPS.  The last line is one JSON object:
 * vertices, arcs, directed, threads, build_s, times_s, median_s, device,
 * ran_on, component_edges and sources.  --output F writes the last search's
 * distances, one line a vertex (-1: unreached).
 *
 * Exit status: 0; 2 for a bad argument, an unreadable file or a graph with no
 * vertex to start from; 1 for any other failure.  Finding the sources costs
 * one connected-components run and O(n) memory, untimed.
 */
#define _POSIX_C_SOURCE 200809L

#include "libgraph.h"
#include "timing.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SOURCES (1 << 20)

static const char *usage =
    "usage: bench_bfs FILE K [options]\n"
    "  K searches from random vertices of FILE's largest connected component, each timed\n"
    "  --seed S          source seed (default 1)\n"
    "  --threads T       CPU threads (default: OpenMP's default)\n"
    "  --device D        auto, cpu, gpu or gpu:N (default auto)\n"
    "  --undirected, -s  read the file as undirected;  --directed: as directed\n"
    "  --do-alpha A      direction switch: bottom-up when frontier edges > unexplored/A\n"
    "  --do-beta B       back to top-down when the frontier < vertices/B\n"
    "  --output F        the last search's distances, one line a vertex (-1: unreached)\n";

struct options {
    const char *file, *output;
    int k, threads, do_alpha, do_beta; /* do_*: -1 = the library's default */
    unsigned long long seed;
    lg_context_options_t device; /* --device: backend and device_id */
    lg_directedness_t directedness;
};

static bool parse_long(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Returns 0 to go on, 1 when help was printed, 2 on a usage error. */
static int parse_args(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->do_alpha = o->do_beta = -1;
    lg_context_options_init(&o->device);
    const char *k = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        long long n = 0;
        bool ok = true;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 1;
        } else if (!strcmp(a, "--undirected") || !strcmp(a, "-s")) {
            o->directedness = LG_UNDIRECTED;
            continue;
        } else if (!strcmp(a, "--directed")) {
            o->directedness = LG_DIRECTED;
            continue;
        } else if (a[0] != '-' || !a[1]) {
            if (!o->file) {
                o->file = a;
            } else if (!k) {
                k = a;
            } else {
                fprintf(stderr, "bench_bfs: unexpected argument '%s'\n", a);
                return 2;
            }
            continue;
        } else if (!val) {
            fprintf(stderr, "bench_bfs: %s needs a value (or is unknown; see --help)\n", a);
            return 2;
        } else if (!strcmp(a, "--seed")) {
            ok = parse_long(val, 0, LLONG_MAX, &n);
            o->seed = (unsigned long long)n;
        } else if (!strcmp(a, "--threads")) {
            ok = parse_long(val, 0, 4096, &n);
            o->threads = (int)n;
        } else if (!strcmp(a, "--do-alpha")) {
            ok = parse_long(val, 0, INT32_MAX, &n);
            o->do_alpha = (int)n;
        } else if (!strcmp(a, "--do-beta")) {
            ok = parse_long(val, 1, INT32_MAX, &n);
            o->do_beta = (int)n;
        } else if (!strcmp(a, "--device")) {
            ok = lg_context_options_parse(&o->device, val) == LG_OK;
        } else if (!strcmp(a, "--output")) {
            o->output = val;
        } else {
            fprintf(stderr, "bench_bfs: unknown option '%s' (see --help)\n", a);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "bench_bfs: bad value '%s' for %s\n", val, a);
            return 2;
        }
        i++;
    }
    long long n = 0;
    if (!o->file || !k) {
        fprintf(stderr, "bench_bfs: missing %s\n\n%s", o->file ? "K" : "FILE and K", usage);
        return 2;
    }
    if (!parse_long(k, 1, MAX_SOURCES, &n)) {
        fprintf(stderr, "bench_bfs: bad K '%s' (want 1..%d searches)\n", k, MAX_SOURCES);
        return 2;
    }
    o->k = (int)n;
    return 0;
}

/* k random vertices of the largest (weakly) connected component of a graph
 * with at least one vertex, and the edges of that component (undirected
 * edges, or arcs of a directed graph). */
static lg_status_t pick_sources(lg_context_t *ctx, const lg_graph_t *g, int k,
                                unsigned long long seed, lg_vertex_t *sources,
                                int64_t *component_edges)
{
    const int64_t n = lg_graph_num_vertices(g);
    lg_vertex_t *label = malloc((size_t)n * sizeof *label);
    int64_t *size = calloc((size_t)n, sizeof *size);
    lg_vertex_t *members = NULL;
    lg_status_t st = LG_ERR_OUT_OF_MEMORY;
    if (!label || !size)
        goto done;
    if ((st = lg_connected_components(ctx, g, NULL, label, NULL)) != LG_OK)
        goto done;
    lg_vertex_t giant = 0;
    for (int64_t v = 0; v < n; v++)
        if (++size[label[v]] > size[giant])
            giant = label[v];
    members = malloc((size_t)size[giant] * sizeof *members);
    if (!members) {
        st = LG_ERR_OUT_OF_MEMORY;
        goto done;
    }
    const lg_edge_t *off;
    lg_graph_csr(g, &off, NULL, NULL);
    int64_t count = 0, arcs = 0;
    for (int64_t v = 0; v < n; v++)
        if (label[v] == giant) {
            members[count++] = (lg_vertex_t)v;
            arcs += off[v + 1] - off[v];
        }
    *component_edges = lg_graph_is_directed(g) ? arcs : arcs / 2;
    unsigned long long r = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int i = 0; i < k; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17; /* xorshift64 */
        sources[i] = members[r % (unsigned long long)count];
    }
done:
    free(label);
    free(size);
    free(members);
    return st;
}

/* The median of t[0..k-1], sorting a copy; t[0] when there is no memory for one. */
static double median(const double *t, int k)
{
    double *c = malloc((size_t)k * sizeof *c);
    if (!c)
        return t[0];
    memcpy(c, t, (size_t)k * sizeof *c);
    qsort(c, (size_t)k, sizeof *c, bench_compare_double);
    double m = k % 2 ? c[k / 2] : 0.5 * (c[k / 2 - 1] + c[k / 2]);
    free(c);
    return m;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++)
        printf(*s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
    putchar('"');
}

static void print_results(const struct options *o, lg_context_t *ctx, const lg_graph_t *g,
                          double build_s, const double *times, const lg_vertex_t *sources,
                          int64_t component_edges, int threads)
{
    const int k = o->k;
    double sum = 0.0, teps = 0.0;
    for (int i = 0; i < k; i++) {
        sum += times[i];
        teps += (double)component_edges / times[i];
    }
    const double med = median(times, k);
    printf("bfs: %d searches from random vertices of the largest component (%lld edges): "
           "mean %.3f ms, median %.3f ms, mean %.3f GTEPS\n",
           k, (long long)component_edges, 1e3 * sum / k, 1e3 * med, 1e-9 * teps / k);
    const char *device = "";
    lg_context_get_device(ctx, &device);
    lg_backend_t ran = lg_last_backend();
    printf("{\"command\": \"bench_bfs\", \"input\": ");
    json_string(o->file);
    printf(", \"vertices\": %lld, \"arcs\": %lld, \"directed\": %s, \"threads\": %d, "
           "\"build_s\": %.6f, \"times_s\": [",
           (long long)lg_graph_num_vertices(g), (long long)lg_graph_num_edges(g),
           lg_graph_is_directed(g) ? "true" : "false", threads, build_s);
    for (int i = 0; i < k; i++)
        printf("%s%.6f", i ? ", " : "", times[i]);
    printf("], \"median_s\": %.6f, \"device\": ", med);
    json_string(device);
    printf(", \"ran_on\": \"%s\", \"component_edges\": %lld, \"sources\": [",
           ran == LG_BACKEND_GPU   ? "gpu"
           : ran == LG_BACKEND_CPU ? "cpu"
                                   : "none",
           (long long)component_edges);
    for (int i = 0; i < k; i++)
        printf("%s%d", i ? ", " : "", sources[i]);
    printf("]}\n");
}

/* Writes dist[0..n-1], one line a vertex; returns 0, or 1 after saying what failed. */
static int write_distances(const char *path, const int32_t *dist, int64_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_bfs: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    for (int64_t v = 0; v < n; v++)
        fprintf(f, "%d\n", dist[v]);
    if (ferror(f) | fclose(f)) {
        fprintf(stderr, "bench_bfs: error writing %s\n", path);
        return 1;
    }
    return 0;
}

static int fail(const char *what, lg_status_t st)
{
    fprintf(stderr, "bench_bfs: %s: %s (%s)\n", what, lg_last_error(), lg_status_string(st));
    return st == LG_ERR_INVALID_ARGUMENT || st == LG_ERR_IO ? 2 : 1;
}

int main(int argc, char **argv)
{
    struct options o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    lg_context_t *ctx = NULL;
    lg_graph_t *g = NULL;
    int32_t *dist = NULL;
    double *times = NULL;
    lg_vertex_t *sources = NULL;
    lg_context_options_t co = o.device;
    co.num_threads = o.threads;
    lg_status_t st = lg_context_create(&ctx, &co);
    if (st != LG_OK)
        return fail("context", st);
    int threads = 1;
    lg_context_get_num_threads(ctx, &threads);

    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = o.directedness;
    double t0 = bench_now();
    if ((st = lg_graph_read(ctx, o.file, LG_FORMAT_AUTO, &go, &g)) != LG_OK) {
        rc = fail(o.file, st);
        goto done;
    }
    const double build_s = bench_now() - t0;
    const int64_t n = lg_graph_num_vertices(g);
    const char *device = "?";
    lg_context_get_device(ctx, &device);
    printf("graph %s: %lld vertices, %lld arcs, %s, on %s; read and built in %.3f s\n", o.file,
           (long long)n, (long long)lg_graph_num_edges(g),
           lg_graph_is_directed(g) ? "directed" : "undirected", device, build_s);
    if (n == 0) {
        fprintf(stderr, "bench_bfs: %s has no vertices: no source to search from\n", o.file);
        rc = 2;
        goto done;
    }
    dist = malloc((size_t)n * sizeof *dist);
    times = malloc((size_t)o.k * sizeof *times);
    sources = malloc((size_t)o.k * sizeof *sources);
    if (!dist || !times || !sources) {
        fprintf(stderr, "bench_bfs: out of memory\n");
        rc = 1;
        goto done;
    }
    int64_t component_edges = 0;
    if ((st = pick_sources(ctx, g, o.k, o.seed, sources, &component_edges)) != LG_OK) {
        rc = fail("sources", st);
        goto done;
    }
    lg_bfs_options_t bo;
    lg_bfs_options_init(&bo);
    if (o.do_alpha >= 0)
        bo.direction_alpha = o.do_alpha;
    if (o.do_beta >= 0)
        bo.direction_beta = o.do_beta;
    for (int i = 0; i < o.k; i++) {
        t0 = bench_now();
        st = lg_bfs(ctx, g, sources[i], &bo, dist, NULL);
        times[i] = bench_now() - t0;
        if (st != LG_OK) {
            rc = fail("bfs", st);
            goto done;
        }
    }
    print_results(&o, ctx, g, build_s, times, sources, component_edges, threads);
    if (o.output)
        rc = write_distances(o.output, dist, n);
done:
    free(dist);
    free(times);
    free(sources);
    lg_graph_free(&g);
    lg_context_free(&ctx);
    return rc;
}
