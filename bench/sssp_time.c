/*
 * sssp_time.c - SSSP and SCC timings on the CPU and the GPU, for
 * docs/PERFORMANCE.md.
 *
 *   bench_sssp [--threads T] [--sources S] [--gpu] [--deltas D,D,...]
 *              [--negative] [--write FILE.wel] GRAPH ...
 *   bench_sssp --scc [--threads T] [--gpu] [--write FILE.el] GRAPH ...
 *
 * GRAPH is kron:SCALE[:EF] or urand:SCALE[:EF], built with the GAP
 * convention (undirected, no self-loops, duplicates merged: the first copy's
 * weight) and GAPBS's weights: uniform integers in [1, 255], here a hash of
 * the edge's index.  For each graph, S sources (default 16) drawn at random
 * (fixed seed) among the vertices with an edge; each timed as one lg_sssp
 * call (distances copied back to the host), the median reported:
 *
 *   cpu       on T threads (default: OpenMP's), delta chosen by the library;
 *   gpu       (--gpu) the first call (the graph's upload included), then the
 *             sources, every distance array checked equal to the CPU's;
 *   deltas    (--deltas) the GPU (or, without --gpu, the CPU) at each delta.
 *
 * --negative reweights every arc u -> v by potentials, w + p(u) - p(v) with
 * p a hash of the vertex in [0, 128) (a directed graph: the two arcs of an
 * edge weigh differently; most weights stay positive, the rest down to
 * -126; every cycle keeps its length, so there is no negative cycle), and
 * times Bellman-Ford on it; its distances from the first source are
 * checked against the original graph's, d(v) + p(s) - p(v).
 * --write FILE.wel writes the graph (so that GAPBS's sssp reads the same
 * weights).  With --scc, GRAPH is generated directed (no self-loops,
 * duplicates merged, not symmetrized: the directed Kronecker
 * graph), and lg_strongly_connected_components is timed (median of 5, the
 * in-edges built before) on the CPU and, with --gpu, on the GPU, whose
 * labels are checked equal to the CPU's.  Machine-readable lines start with
 * "row:".
 */
#define _POSIX_C_SOURCE 200809L

#include "graphs.h"
#include "libgraph.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SOURCES 256

static int fail(const char *what)
{
    fprintf(stderr, "bench_sssp: %s: %s\n", what, lg_last_error());
    return 1;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The median milliseconds of lg_sssp from each source on ctx; dist of the
 * last source in out (n); with check (n a source) each source's distances
 * compared with check's. */
static double time_sources(lg_context_t *ctx, const lg_graph_t *g, const lg_vertex_t *sources,
                           int k, double delta, double *dist, const double *check, int64_t n,
                           int *mismatches)
{
    double t[MAX_SOURCES];
    lg_sssp_options_t o;
    lg_sssp_options_init(&o);
    o.delta = delta;
    for (int i = 0; i < k; i++) {
        const double t0 = bench_now();
        if (lg_sssp(ctx, g, &sources[i], 1, &o, dist + (check ? 0 : (int64_t)i * n), NULL) !=
            LG_OK) {
            fail("lg_sssp");
            return -1.0;
        }
        t[i] = 1e3 * (bench_now() - t0);
        if (check && memcmp(dist, check + (int64_t)i * n, (size_t)n * sizeof *dist) != 0)
            ++*mismatches;
    }
    return bench_median(t, k);
}

static double potential(lg_vertex_t v)
{
    return (double)(mix((uint64_t)v ^ 0xB0B) % 128);
}

/* The potential-reweighted directed twin of g (--negative), checked: the
 * distances from s against g's own; NULL after saying why. */
static lg_graph_t *reweighted(lg_context_t *cpu, const lg_graph_t *g, lg_vertex_t s)
{
    const int64_t n = lg_graph_num_vertices(g), m = lg_graph_num_edges(g);
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    const float *w;
    lg_graph_t *h = NULL;
    float *w2 = malloc((size_t)(m ? m : 1) * sizeof *w2);
    double *d = malloc((size_t)n * sizeof *d), *d2 = malloc((size_t)n * sizeof *d2);
    if (!w2 || !d || !d2 || lg_graph_csr(g, &off, &idx, &w) != LG_OK) {
        fprintf(stderr, "bench_sssp: out of memory\n");
        goto done;
    }
    for (int64_t u = 0; u < n; u++)
        for (lg_edge_t e = off[u]; e < off[u + 1]; e++)
            w2[e] = (float)((double)w[e] + potential((lg_vertex_t)u) - potential(idx[e]));
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = LG_DIRECTED;
    lg_sssp_options_t o;
    lg_sssp_options_init(&o);
    if (lg_graph_from_csr(cpu, n, off, idx, w2, &go, &h) != LG_OK ||
        lg_sssp(cpu, g, &s, 1, &o, d, NULL) != LG_OK || lg_sssp(cpu, h, &s, 1, &o, d2, NULL) != LG_OK) {
        fail("the reweighted graph");
        lg_graph_free(&h);
        goto done;
    }
    int64_t bad = 0;
    for (int64_t v = 0; v < n; v++)
        bad += d[v] == INFINITY ? d2[v] != INFINITY
                                : d2[v] != d[v] + potential(s) - potential((lg_vertex_t)v);
    printf("negative weights: %s; distances from %d %s the original's reweighted "
           "(%lld differ)\n",
           lg_graph_has_negative_weights(h) ? "some" : "none", (int)s,
           bad ? "DIFFER FROM" : "equal", (long long)bad);
    if (bad)
        lg_graph_free(&h);
done:
    free(w2);
    free(d);
    free(d2);
    return h;
}

static int run_graph(const char *spec, int threads, int k, bool gpu, const char *deltas,
                     bool negative, const char *write)
{
    lg_generator_t gen;
    int scale, ef;
    if (!bench_parse_graph(spec, &gen, &scale, &ef)) {
        fprintf(stderr, "bench_sssp: bad graph '%s'\n", spec);
        return 2;
    }
    lg_context_t *cpu = NULL, *dev = NULL;
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_CPU;
    co.num_threads = threads;
    if (lg_context_create(&cpu, &co) != LG_OK)
        return fail("a CPU context");
    const int64_t n = (int64_t)1 << scale, E = (int64_t)ef << scale;
    lg_vertex_t *src = malloc((size_t)E * sizeof *src), *dst = malloc((size_t)E * sizeof *dst);
    float *w = malloc((size_t)E * sizeof *w);
    double *ref = malloc((size_t)k * (size_t)n * sizeof *ref), *dist = malloc((size_t)n * 8);
    lg_graph_t *g = NULL;
    int rc = 1;
    if (!src || !dst || !w || !ref || !dist) {
        fprintf(stderr, "bench_sssp: out of memory\n");
        goto done;
    }
    if (lg_generate_edges(cpu, gen, scale, ef, 1, src, dst) != LG_OK) {
        fail("generating");
        goto done;
    }
    for (int64_t i = 0; i < E; i++)
        w[i] = (float)(1 + mix((uint64_t)i) % 255);
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = LG_UNDIRECTED;
    go.drop_self_loops = true;
    go.duplicates = LG_DUPLICATES_FIRST;
    if (lg_graph_from_edges(cpu, n, E, src, dst, w, &go, &g) != LG_OK) {
        fail("building");
        goto done;
    }
    if (write && lg_graph_write(cpu, g, write, LG_FORMAT_AUTO) != LG_OK) {
        fail("writing");
        goto done;
    }
    lg_vertex_t sources[MAX_SOURCES];
    lg_edge_t *degree = malloc((size_t)n * sizeof *degree);
    if (!degree || lg_graph_out_degrees(g, degree) != LG_OK) {
        free(degree);
        fail("degrees");
        goto done;
    }
    uint64_t state = 27;
    for (int i = 0; i < k;) {
        const lg_vertex_t v = (lg_vertex_t)(mix(state++) % (uint64_t)n);
        if (degree[v] > 0)
            sources[i++] = v;
    }
    free(degree);
    printf("%s: %lld vertices, %lld arcs, %d sources, weights 1-255%s\n", spec, (long long)n,
           (long long)lg_graph_num_edges(g), k, negative ? ", reweighted by potentials" : "");
    if (negative) {
        lg_graph_t *h = reweighted(cpu, g, sources[0]);
        if (!h)
            goto done;
        lg_graph_free(&g);
        g = h;
    }
    int bad = 0;
    memset(ref, 0, (size_t)k * (size_t)n * sizeof *ref); /* no page faults in the timings */
    const double tc = time_sources(cpu, g, sources, k, 0.0, ref, NULL, n, &bad);
    if (tc < 0)
        goto done;
    printf("row: %s cpu threads=%d median_ms=%.3f\n", spec, threads, tc);
    if (gpu) {
        lg_context_options_init(&co);
        co.backend = LG_BACKEND_GPU;
        if (lg_context_create(&dev, &co) != LG_OK) {
            fail("a GPU context");
            goto done;
        }
        lg_sssp_options_t o;
        lg_sssp_options_init(&o);
        const double t0 = bench_now();
        if (lg_sssp(dev, g, &sources[0], 1, &o, dist, NULL) != LG_OK) {
            fail("lg_sssp on the GPU");
            goto done;
        }
        printf("row: %s gpu first_call_ms=%.3f\n", spec, 1e3 * (bench_now() - t0));
        const double tg = time_sources(dev, g, sources, k, 0.0, dist, ref, n, &bad);
        printf("row: %s gpu median_ms=%.3f cpu/gpu=%.1f mismatches=%d\n", spec, tg, tc / tg, bad);
    }
    for (const char *d = deltas; d && *d;) {
        char *end;
        const double delta = strtod(d, &end);
        if (end == d)
            break;
        const double t = time_sources(gpu ? dev : cpu, g, sources, k, delta, dist, ref, n, &bad);
        printf("row: %s %s delta=%g median_ms=%.3f mismatches=%d\n", spec, gpu ? "gpu" : "cpu",
               delta, t, bad);
        d = *end == ',' ? end + 1 : end;
    }
    rc = bad ? 3 : 0;
done:
    lg_graph_free(&g);
    lg_context_free(&dev);
    lg_context_free(&cpu);
    free(src);
    free(dst);
    free(w);
    free(ref);
    free(dist);
    return rc;
}

static double time_scc(lg_context_t *ctx, const lg_graph_t *g, lg_vertex_t *labels,
                       int64_t *count)
{
    double t[5];
    for (int i = 0; i < 5; i++) {
        const double t0 = bench_now();
        if (lg_strongly_connected_components(ctx, g, NULL, labels, count) != LG_OK) {
            fail("lg_strongly_connected_components");
            return -1.0;
        }
        t[i] = 1e3 * (bench_now() - t0);
    }
    return bench_median(t, 5);
}

static int run_scc(const char *spec, int threads, bool gpu, const char *write)
{
    lg_generator_t gen;
    int scale, ef;
    if (!bench_parse_graph(spec, &gen, &scale, &ef)) {
        fprintf(stderr, "bench_sssp: bad graph '%s'\n", spec);
        return 2;
    }
    lg_context_t *cpu = NULL, *dev = NULL;
    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = LG_BACKEND_CPU;
    co.num_threads = threads;
    if (lg_context_create(&cpu, &co) != LG_OK)
        return fail("a CPU context");
    lg_graph_options_t go;
    lg_graph_options_init(&go);
    go.directedness = LG_DIRECTED;
    go.drop_self_loops = true;
    go.duplicates = LG_DUPLICATES_FIRST;
    lg_graph_t *g = NULL;
    const int64_t n = (int64_t)1 << scale;
    lg_vertex_t *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)n * sizeof *got);
    int rc = 1;
    int64_t count = 0, gcount = 0;
    if (!want || !got || lg_generate(cpu, gen, scale, ef, 1, &go, &g) != LG_OK ||
        lg_graph_csc(g, NULL, NULL, NULL) != LG_OK) {
        fail("generating");
        goto done;
    }
    if (write && lg_graph_write(cpu, g, write, LG_FORMAT_AUTO) != LG_OK) {
        fail("writing");
        goto done;
    }
    const double tc = time_scc(cpu, g, want, &count);
    if (tc < 0)
        goto done;
    printf("%s directed: %lld vertices, %lld arcs, %lld strongly connected components\n", spec,
           (long long)n, (long long)lg_graph_num_edges(g), (long long)count);
    printf("row: %s scc cpu threads=%d median_ms=%.3f\n", spec, threads, tc);
    rc = 0;
    if (gpu) {
        lg_context_options_init(&co);
        co.backend = LG_BACKEND_GPU;
        if (lg_context_create(&dev, &co) != LG_OK) {
            rc = fail("a GPU context");
            goto done;
        }
        const double t0 = bench_now();
        if (lg_strongly_connected_components(dev, g, NULL, got, &gcount) != LG_OK) {
            rc = fail("lg_strongly_connected_components on the GPU");
            goto done;
        }
        printf("row: %s scc gpu first_call_ms=%.3f\n", spec, 1e3 * (bench_now() - t0));
        const double tg = time_scc(dev, g, got, &gcount);
        const bool same = memcmp(want, got, (size_t)n * sizeof *got) == 0 && gcount == count;
        printf("row: %s scc gpu median_ms=%.3f cpu/gpu=%.1f labels %s\n", spec, tg, tc / tg,
               same ? "equal" : "DIFFER");
        rc = same ? 0 : 3;
    }
done:
    lg_graph_free(&g);
    lg_context_free(&dev);
    lg_context_free(&cpu);
    free(want);
    free(got);
    return rc;
}

int main(int argc, char **argv)
{
    int threads = 0, k = 16, rc = 0;
    bool gpu = false, scc = false, negative = false;
    const char *deltas = NULL, *write = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sources") && i + 1 < argc)
            k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gpu"))
            gpu = true;
        else if (!strcmp(argv[i], "--scc"))
            scc = true;
        else if (!strcmp(argv[i], "--negative"))
            negative = true;
        else if (!strcmp(argv[i], "--deltas") && i + 1 < argc)
            deltas = argv[++i];
        else if (!strcmp(argv[i], "--write") && i + 1 < argc)
            write = argv[++i];
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_sssp [--threads T] [--sources S] [--gpu] "
                            "[--deltas D,...] [--negative] [--write FILE.wel] [--scc] GRAPH ...\n");
            return 2;
        } else {
            if (k < 1 || k > MAX_SOURCES)
                k = 16;
            const int r = scc ? run_scc(argv[i], threads, gpu, write)
                              : run_graph(argv[i], threads, k, gpu, deltas, negative, write);
            rc = rc ? rc : r;
        }
    }
    return rc;
}
