/*
 * lgraph - the libgraph command-line tool.
 *
 *   lgraph COMMAND INPUT [options]
 *
 * INPUT is a graph file (.mtx, .el, .wel, .lgb) or a generator spec
 * kron:SCALE[:EF] / urand:SCALE[:EF].  Every command prints a short human
 * summary with the load and run times; --output FILE writes the per-vertex
 * results, one line per vertex in id order.
 */
#define _POSIX_C_SOURCE 200809L
#include "libgraph.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_EDGE_FACTOR 16
#define DEFAULT_TOP 10

struct args {
    const char *command;
    const char *input;
    const char *target;      /* convert / generate: the output file */
    const char *output;      /* --output */
    lg_backend_t backend;
    int threads;
    const char *sources;     /* --source: one id, or a comma-separated list */
    int repeat;              /* --repeat R: R timed runs (all algorithms) */
    int max_depth;
    int do_alpha, do_beta;   /* BFS direction-switch tuning, -1 = library default */
    bool json;
    bool parents;
    bool use_float;
    bool unweighted;
    int top;
    double alpha, tol;
    int max_iter;
    unsigned long long seed;
    lg_directedness_t directedness;
    bool drop_self_loops;
    bool merge_duplicates;
};

static const char *usage_main =
    "usage: lgraph COMMAND INPUT [options]\n"
    "\n"
    "Commands:\n"
    "  info      size, directedness and degree statistics of a graph\n"
    "  bfs       breadth-first search distances from --source\n"
    "  pagerank  PageRank scores (NetworkX semantics) and the top vertices\n"
    "  cc        connected components (weak on directed graphs)\n"
    "  convert   INPUT OUTFILE: write the graph in the format of OUTFILE's extension\n"
    "  generate  SPEC OUTFILE: generate a graph and write it (same as convert)\n"
    "\n"
    "INPUT is a file (.mtx, .el, .wel, .lgb) or a generator spec kron:SCALE[:EF] or\n"
    "urand:SCALE[:EF] (Graph500 Kronecker / uniform random, 2^SCALE vertices,\n"
    "EF*2^SCALE edges, EF default 16; undirected, self-loops dropped, duplicates merged).\n"
    "\n"
    "Common options:\n"
    "  --device cpu|gpu|auto   backend (default auto: the GPU when the GPU plugin loads\n"
    "                          and a device answers, else the CPU; gpu fails without one)\n"
    "  --threads N             CPU threads (default: OpenMP's default)\n"
    "  --undirected, -s        read the file as undirected (symmetric)\n"
    "  --directed              read the file as directed\n"
    "  --drop-self-loops       drop self-loops while building\n"
    "  --merge-duplicates      merge repeated edges (weights: the last copy wins)\n"
    "  --seed N                generator seed (default 1)\n"
    "  --output FILE           write per-vertex results, one line per vertex\n"
    "  --repeat R              run the algorithm R times and report each time\n"
    "  --json                  end with one JSON line of sizes and timings\n"
    "  --version               the library's version and build, and its GPU plugin\n"
    "  --help                  this text; 'lgraph COMMAND --help' for a command's options\n";

static const char *usage_bfs =
    "usage: lgraph bfs INPUT [--source V[,V...]] [--parents] [options]\n"
    "  --source V       start vertex (default 0); a list V,W,... starts from all at once\n"
    "  --parents        also compute a BFS parent per vertex\n"
    "  --max-depth D    stop after D levels (default: no limit)\n"
    "  --do-alpha A     direction switch: bottom-up when frontier edges > unexplored/A\n"
    "                   (default 15; 0 = always top-down)\n"
    "  --do-beta B      back to top-down when the frontier < vertices/B (default 18)\n"
    "  --output F       lines 'distance' (or 'distance parent'); -1 = unreached\n";
static const char *usage_pagerank =
    "usage: lgraph pagerank INPUT [options]\n"
    "  --alpha A      damping factor (default 0.85)\n"
    "  --tol T        tolerance: stop when the L1 change < N*T (default 1e-6)\n"
    "  --max-iter K   iteration limit (default 100)\n"
    "  --float        single precision (default double)\n"
    "  --unweighted   ignore edge weights\n"
    "  --top K        print the K best vertices (default 10)\n"
    "  --output F     one score per line\n";
static const char *usage_cc =
    "usage: lgraph cc INPUT [options]\n"
    "  --output F   one label per line: the smallest vertex id of the component\n";
static const char *usage_info = "usage: lgraph info INPUT [options]\n";
static const char *usage_convert =
    "usage: lgraph convert INPUT OUTFILE [options]\n"
    "       lgraph generate kron:SCALE[:EF] OUTFILE [--seed N]\n"
    "  OUTFILE's extension picks the format: .mtx, .el, .wel or .lgb (binary)\n";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int fail(const char *what, lg_status_t st)
{
    fprintf(stderr, "lgraph: %s: %s (%s)\n", what, lg_last_error(), lg_status_string(st));
    return st == LG_ERR_INVALID_ARGUMENT || st == LG_ERR_IO ? 2 : 1;
}

static const char *command_usage(const char *command)
{
    if (!command)
        return usage_main;
    if (!strcmp(command, "bfs"))
        return usage_bfs;
    if (!strcmp(command, "pagerank"))
        return usage_pagerank;
    if (!strcmp(command, "cc"))
        return usage_cc;
    if (!strcmp(command, "info"))
        return usage_info;
    if (!strcmp(command, "convert") || !strcmp(command, "generate"))
        return usage_convert;
    return NULL;
}

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

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

/* Returns 0 to go on, 1 when help was printed, 2 on a usage error. */
static int parse_args(int argc, char **argv, struct args *a)
{
    memset(a, 0, sizeof *a);
    a->backend = LG_BACKEND_AUTO;
    a->alpha = 0.85;
    a->tol = 1e-6;
    a->max_iter = 100;
    a->top = DEFAULT_TOP;
    a->seed = 1;
    a->sources = "0";
    a->repeat = 1;
    a->max_depth = -1;
    a->do_alpha = -1;
    a->do_beta = -1;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long long n = 0;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(command_usage(a->command) ? command_usage(a->command) : usage_main, stdout);
            return 1;
        }
        if (!strcmp(o, "--version")) {
            puts(lg_build_info());
            return 1;
        }
        if (o[0] != '-' || !o[1]) {
            if (positional == 0)
                a->command = o;
            else if (positional == 1)
                a->input = o;
            else if (positional == 2)
                a->target = o;
            else {
                fprintf(stderr, "lgraph: unexpected argument '%s'\n", o);
                return 2;
            }
            positional++;
            continue;
        }
        /* flags without a value */
        if (!strcmp(o, "--parents")) { a->parents = true; continue; }
        if (!strcmp(o, "--json")) { a->json = true; continue; }
        if (!strcmp(o, "--float")) { a->use_float = true; continue; }
        if (!strcmp(o, "--unweighted")) { a->unweighted = true; continue; }
        if (!strcmp(o, "--undirected") || !strcmp(o, "-s")) { a->directedness = LG_UNDIRECTED; continue; }
        if (!strcmp(o, "--directed")) { a->directedness = LG_DIRECTED; continue; }
        if (!strcmp(o, "--drop-self-loops")) { a->drop_self_loops = true; continue; }
        if (!strcmp(o, "--merge-duplicates")) { a->merge_duplicates = true; continue; }
        /* options with a value */
        if (!val) {
            fprintf(stderr, "lgraph: %s needs a value (or is unknown; see --help)\n", o);
            return 2;
        }
        bool ok = true;
        if (!strcmp(o, "--device")) {
            if (!strcmp(val, "cpu")) a->backend = LG_BACKEND_CPU;
            else if (!strcmp(val, "gpu")) a->backend = LG_BACKEND_GPU;
            else if (!strcmp(val, "auto")) a->backend = LG_BACKEND_AUTO;
            else ok = false;
        } else if (!strcmp(o, "--threads")) {
            ok = parse_long(val, 0, 4096, &n);
            a->threads = (int)n;
        } else if (!strcmp(o, "--source")) {
            a->sources = val;
        } else if (!strcmp(o, "--repeat")) {
            ok = parse_long(val, 1, 1 << 20, &n);
            a->repeat = (int)n;
        } else if (!strcmp(o, "--max-depth")) {
            ok = parse_long(val, -1, INT32_MAX, &n);
            a->max_depth = (int)n;
        } else if (!strcmp(o, "--do-alpha")) {
            ok = parse_long(val, 0, INT32_MAX, &n);
            a->do_alpha = (int)n;
        } else if (!strcmp(o, "--do-beta")) {
            ok = parse_long(val, 1, INT32_MAX, &n);
            a->do_beta = (int)n;
        } else if (!strcmp(o, "--top")) {
            ok = parse_long(val, 0, INT32_MAX, &n);
            a->top = (int)n;
        } else if (!strcmp(o, "--max-iter")) {
            ok = parse_long(val, 0, INT32_MAX, &n);
            a->max_iter = (int)n;
        } else if (!strcmp(o, "--seed")) {
            ok = parse_long(val, 0, LLONG_MAX, &n);
            a->seed = (unsigned long long)n;
        } else if (!strcmp(o, "--alpha")) {
            ok = parse_double(val, &a->alpha);
        } else if (!strcmp(o, "--tol")) {
            ok = parse_double(val, &a->tol);
        } else if (!strcmp(o, "--output")) {
            a->output = val;
        } else {
            fprintf(stderr, "lgraph: unknown option '%s' (see --help)\n", o);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "lgraph: bad value '%s' for %s\n", val, o);
            return 2;
        }
        i++;
    }
    if (!a->command) {
        fputs(usage_main, stderr);
        return 2;
    }
    if (!command_usage(a->command) || !strcmp(a->command, "help")) {
        fprintf(stderr, "lgraph: unknown command '%s'\n\n%s", a->command, usage_main);
        return 2;
    }
    if (!a->input) {
        fprintf(stderr, "lgraph %s: missing INPUT\n\n%s", a->command, command_usage(a->command));
        return 2;
    }
    bool needs_target = !strcmp(a->command, "convert") || !strcmp(a->command, "generate");
    if (needs_target != (a->target != NULL)) {
        fprintf(stderr, "lgraph %s: %s\n\n%s", a->command,
                needs_target ? "missing OUTFILE" : "too many arguments", command_usage(a->command));
        return 2;
    }
    return 0;
}

/* Parses "kron:SCALE[:EF]" / "urand:SCALE[:EF]"; false when INPUT is not a spec. */
static bool parse_spec(const char *input, lg_generator_t *gen, int *scale, int *ef, bool *bad)
{
    const char *rest;
    *bad = false;
    if (!strncmp(input, "kron:", 5)) {
        *gen = LG_GENERATOR_KRONECKER;
        rest = input + 5;
    } else if (!strncmp(input, "urand:", 6)) {
        *gen = LG_GENERATOR_URAND;
        rest = input + 6;
    } else {
        return false;
    }
    char *end;
    long s = strtol(rest, &end, 10), e = DEFAULT_EDGE_FACTOR;
    if (*end == ':')
        e = strtol(end + 1, &end, 10);
    if (end == rest || *end || s < 1 || s > 30 || e < 1 || e > 1 << 20)
        *bad = true;
    *scale = (int)s;
    *ef = (int)e;
    return true;
}

/* Generates the edges and builds the graph as two timed steps, with the GAP
 * benchmark's convention: undirected, self-loops dropped, duplicates merged. */
static lg_status_t generate(lg_context_t *ctx, lg_generator_t gen, int scale, int ef,
                            unsigned long long seed, lg_graph_t **g, double *gen_s)
{
    const int64_t E = (int64_t)ef << scale;
    lg_vertex_t *src = malloc((size_t)E * sizeof *src), *dst = malloc((size_t)E * sizeof *dst);
    lg_status_t st = LG_ERR_OUT_OF_MEMORY;
    if (!src || !dst) {
        fprintf(stderr, "lgraph: out of memory for %lld generated edges\n", (long long)E);
        goto done;
    }
    double t0 = now();
    st = lg_generate_edges(ctx, gen, scale, ef, seed, src, dst);
    *gen_s = now() - t0;
    if (st != LG_OK)
        goto done;
    lg_graph_options_t o;
    lg_graph_options_init(&o);
    o.directedness = LG_UNDIRECTED;
    o.drop_self_loops = true;
    o.duplicates = LG_DUPLICATES_FIRST;
    st = lg_graph_from_edges(ctx, (int64_t)1 << scale, E, src, dst, NULL, &o, g);
done:
    free(src);
    free(dst);
    return st;
}

/* Loads INPUT; *build_s is the time to read (or generate) and build, *gen_s
 * the part of it spent generating edges. */
static lg_status_t load(lg_context_t *ctx, const struct args *a, lg_graph_t **g, double *build_s,
                        double *gen_s)
{
    lg_graph_options_t o;
    lg_generator_t gen;
    int scale, ef;
    bool bad;
    double t0 = now();
    lg_status_t st;
    *gen_s = 0.0;
    if (parse_spec(a->input, &gen, &scale, &ef, &bad)) {
        if (bad) {
            fprintf(stderr, "lgraph: bad generator spec '%s' (want kron:SCALE[:EF], SCALE 1..30)\n",
                    a->input);
            return LG_ERR_INVALID_ARGUMENT;
        }
        st = generate(ctx, gen, scale, ef, a->seed, g, gen_s);
    } else {
        lg_graph_options_init(&o);
        o.directedness = a->directedness;
        o.drop_self_loops = a->drop_self_loops;
        o.duplicates = a->merge_duplicates ? LG_DUPLICATES_LAST : LG_DUPLICATES_KEEP;
        st = lg_graph_read(ctx, a->input, LG_FORMAT_AUTO, &o, g);
    }
    *build_s = now() - t0 - *gen_s;
    return st;
}

/* What one line of --output says about vertex v. */
typedef void (*line_writer)(FILE *f, int64_t v, const void *results);

/* Writes one line a vertex to path; returns 0, or 1 after saying what failed. */
static int write_output(const char *path, int64_t n, line_writer line, const void *results)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "lgraph: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    for (int64_t v = 0; v < n; v++)
        line(f, v, results);
    if (ferror(f) | fclose(f)) {
        fprintf(stderr, "lgraph: error writing %s\n", path);
        return 1;
    }
    return 0;
}

struct bfs_results {
    const int32_t *dist;
    const lg_vertex_t *parents; /* NULL unless --parents */
};

static void bfs_line(FILE *f, int64_t v, const void *results)
{
    const struct bfs_results *r = results;
    if (r->parents)
        fprintf(f, "%d %d\n", r->dist[v], r->parents[v]);
    else
        fprintf(f, "%d\n", r->dist[v]);
}

static void score_line_f64(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%.17g\n", ((const double *)results)[v]);
}

static void score_line_f32(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%.9g\n", ((const double *)results)[v]);
}

static void label_line(FILE *f, int64_t v, const void *results)
{
    fprintf(f, "%d\n", ((const lg_vertex_t *)results)[v]);
}

static int run_info(lg_context_t *ctx, const lg_graph_t *g)
{
    (void)ctx;
    const int64_t n = lg_graph_num_vertices(g);
    const lg_edge_t *off;
    const lg_vertex_t *idx;
    lg_graph_csr(g, &off, &idx, NULL);
    int64_t max_deg = 0, isolated_out = 0, loops = 0;
    for (int64_t v = 0; v < n; v++) {
        int64_t d = off[v + 1] - off[v];
        max_deg = d > max_deg ? d : max_deg;
        isolated_out += d == 0;
        for (lg_edge_t e = off[v]; e < off[v + 1]; e++)
            loops += idx[e] == v;
    }
    printf("vertices        %lld\n", (long long)n);
    printf("arcs            %lld%s\n", (long long)lg_graph_num_edges(g),
           lg_graph_is_directed(g) ? "" : " (each undirected edge twice, self-loops once)");
    printf("directed        %s\n", lg_graph_is_directed(g) ? "yes" : "no");
    printf("weighted        %s\n", lg_graph_is_weighted(g) ? "yes" : "no");
    printf("average degree  %.2f\n", n ? (double)lg_graph_num_edges(g) / (double)n : 0.0);
    printf("max out-degree  %lld\n", (long long)max_deg);
    printf("no out-edges    %lld vertices\n", (long long)isolated_out);
    printf("self-loops      %lld\n", (long long)loops);
    return 0;
}

/* What every command shares: the context, the graph, the options, and the
 * load figures the JSON line reports. */
struct session {
    lg_context_t *ctx;
    const lg_graph_t *g;
    const struct args *a;
    int threads;
    double build_s, gen_s;
};

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median_of(const double *t, int k)
{
    double *c = malloc((size_t)k * sizeof *c);
    if (!c)
        return t[0];
    memcpy(c, t, (size_t)k * sizeof *c);
    qsort(c, (size_t)k, sizeof *c, compare_double);
    double m = k % 2 ? c[k / 2] : 0.5 * (c[k / 2 - 1] + c[k / 2]);
    free(c);
    return m;
}

/* Opens the JSON line with the fields every command has; the caller adds its
 * own and closes it with json_end. */
static void json_begin(const struct session *s, const double *times, int k)
{
    printf("{\"command\": \"%s\", \"input\": \"", s->a->command);
    for (const char *c = s->a->input; *c; c++)
        printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    printf("\", \"vertices\": %lld, \"arcs\": %lld, \"directed\": %s, \"threads\": %d, "
           "\"generate_s\": %.6f, \"build_s\": %.6f, \"times_s\": [",
           (long long)lg_graph_num_vertices(s->g), (long long)lg_graph_num_edges(s->g),
           lg_graph_is_directed(s->g) ? "true" : "false", s->threads, s->gen_s, s->build_s);
    for (int i = 0; i < k; i++)
        printf("%s%.6f", i ? ", " : "", times[i]);
    printf("], \"median_s\": %.6f", median_of(times, k));
    const char *device = "";
    lg_context_get_device(s->ctx, &device);
    printf(", \"device\": \"");
    for (const char *c = device; *c; c++)
        printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    lg_backend_t ran = lg_last_backend();
    printf("\", \"ran_on\": \"%s\"",
           ran == LG_BACKEND_GPU ? "gpu" : ran == LG_BACKEND_CPU ? "cpu" : "none");
}

/* On a GPU context (--device auto), says so when an algorithm ran on the CPU
 * instead: the library does that when its GPU plugin has no kernel for the
 * algorithm, or when the GPU ran out of memory. */
static void note_fallback(const struct session *s, const char *what)
{
    lg_backend_t kind = LG_BACKEND_CPU;
    lg_context_get_backend(s->ctx, &kind);
    if (kind == LG_BACKEND_GPU && lg_last_backend() == LG_BACKEND_CPU)
        printf("%s ran on the CPU (%d thread%s): no GPU kernel for it in this plugin, or the GPU "
               "ran out of memory\n",
               what, s->threads, s->threads == 1 ? "" : "s");
}

static void json_end(void)
{
    printf("}\n");
}

/* Parses "V" or "V,W,..." into a new array. */
static bool parse_sources(const char *list, lg_vertex_t **out, int64_t *count)
{
    int64_t k = 1;
    for (const char *c = list; *c; c++)
        k += *c == ',';
    lg_vertex_t *v = malloc((size_t)k * sizeof *v);
    if (!v)
        return false;
    const char *p = list;
    for (int64_t i = 0; i < k; i++) {
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (errno || end == p || x < 0 || x > INT32_MAX || (*end && *end != ',')) {
            free(v);
            return false;
        }
        v[i] = (lg_vertex_t)x;
        p = end + 1;
    }
    *out = v;
    *count = k;
    return true;
}

static int run_bfs(const struct session *s)
{
    const struct args *a = s->a;
    const int64_t n = lg_graph_num_vertices(s->g);
    int32_t *dist = malloc((size_t)(n ? n : 1) * sizeof *dist);
    lg_vertex_t *par = a->parents ? malloc((size_t)(n ? n : 1) * sizeof *par) : NULL;
    double *times = malloc((size_t)a->repeat * sizeof *times);
    lg_vertex_t *sources = NULL;
    int64_t num_sources = 0;
    int rc = 0;
    if (!dist || (a->parents && !par) || !times) {
        fprintf(stderr, "lgraph: out of memory\n");
        rc = 1;
        goto done;
    }
    if (!parse_sources(a->sources, &sources, &num_sources)) {
        fprintf(stderr, "lgraph: bad --source '%s' (want V or V,W,...)\n", a->sources);
        rc = 2;
        goto done;
    }
    lg_bfs_options_t o;
    lg_bfs_options_init(&o);
    o.compute_parents = a->parents;
    o.max_depth = a->max_depth;
    if (a->do_alpha >= 0)
        o.direction_alpha = a->do_alpha;
    if (a->do_beta >= 0)
        o.direction_beta = a->do_beta;
    for (int i = 0; i < a->repeat; i++) {
        double t0 = now();
        lg_status_t st = lg_bfs_multi(s->ctx, s->g, sources, num_sources, &o, dist, par);
        times[i] = now() - t0;
        if (st != LG_OK) {
            rc = fail("bfs", st);
            goto done;
        }
    }
    int64_t reached = 0, depth = 0;
    for (int64_t v = 0; v < n; v++)
        if (dist[v] >= 0) {
            reached++;
            depth = dist[v] > depth ? dist[v] : depth;
        }
    printf("bfs from %s: reached %lld of %lld vertices, depth %lld, %.3f ms", a->sources,
           (long long)reached, (long long)n, (long long)depth, times[0] * 1e3);
    if (a->repeat > 1)
        printf(" (median of %d: %.3f ms)", a->repeat, 1e3 * median_of(times, a->repeat));
    printf("\n");
    note_fallback(s, "bfs");
    if (a->json) {
        json_begin(s, times, a->repeat);
        printf(", \"sources\": [");
        for (int64_t i = 0; i < num_sources; i++)
            printf("%s%d", i ? ", " : "", sources[i]);
        printf("]");
        json_end();
    }
    if (a->output) {
        struct bfs_results r = {dist, par};
        rc = write_output(a->output, n, bfs_line, &r);
    }
done:
    free(dist);
    free(par);
    free(times);
    free(sources);
    return rc;
}

static int compare_score_desc(const void *x, const void *y, const double *s)
{
    lg_vertex_t a = *(const lg_vertex_t *)x, b = *(const lg_vertex_t *)y;
    if (s[a] != s[b])
        return s[a] > s[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* Partial selection of the top k by insertion: k is small. */
static void top_k(const double *s, int64_t n, int k, lg_vertex_t *best)
{
    int have = 0;
    for (int64_t v = 0; v < n; v++) {
        lg_vertex_t cand = (lg_vertex_t)v;
        if (have == k && compare_score_desc(&cand, &best[k - 1], s) >= 0)
            continue;
        int i = have < k ? have++ : k - 1;
        while (i > 0 && compare_score_desc(&cand, &best[i - 1], s) < 0) {
            best[i] = best[i - 1];
            i--;
        }
        best[i] = cand;
    }
}

static int run_pagerank(const struct session *s)
{
    const struct args *a = s->a;
    const int64_t n = lg_graph_num_vertices(s->g);
    double *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    float *xf = a->use_float ? malloc((size_t)(n ? n : 1) * sizeof *xf) : NULL;
    double *times = malloc((size_t)a->repeat * sizeof *times);
    int k = a->top < n ? a->top : (int)n;
    lg_vertex_t *best = malloc((size_t)(k ? k : 1) * sizeof *best);
    int rc = 0, iters = 0;
    lg_status_t st = LG_OK;
    if (!x || (a->use_float && !xf) || !best || !times) {
        fprintf(stderr, "lgraph: out of memory\n");
        rc = 1;
        goto done;
    }
    lg_pagerank_options_t o;
    lg_pagerank_options_init(&o);
    o.alpha = a->alpha;
    o.tol = a->tol;
    o.max_iter = a->max_iter;
    o.use_weights = !a->unweighted;
    for (int i = 0; i < a->repeat; i++) {
        double t0 = now();
        st = a->use_float ? lg_pagerank_f32(s->ctx, s->g, &o, xf, &iters)
                          : lg_pagerank(s->ctx, s->g, &o, x, &iters);
        times[i] = now() - t0;
        if (st != LG_OK && st != LG_ERR_NOT_CONVERGED) {
            rc = fail("pagerank", st);
            goto done;
        }
    }
    if (a->use_float)
        for (int64_t v = 0; v < n; v++)
            x[v] = xf[v];
    printf("pagerank (%s, alpha %g, tol %g): %d iterations, %.3f ms", a->use_float ? "float" : "double",
           a->alpha, a->tol, iters, times[0] * 1e3);
    if (a->repeat > 1)
        printf(" (median of %d: %.3f ms)", a->repeat, 1e3 * median_of(times, a->repeat));
    printf("%s\n", st == LG_OK ? "" : " -- NOT CONVERGED");
    note_fallback(s, "pagerank");
    top_k(x, n, k, best);
    for (int i = 0; i < k; i++)
        printf("  %2d. vertex %-10d %.8f\n", i + 1, best[i], x[best[i]]);
    if (st != LG_OK) {
        fprintf(stderr, "lgraph: pagerank: %s\n", lg_last_error());
        rc = 3;
    }
    if (a->json) {
        json_begin(s, times, a->repeat);
        printf(", \"iterations\": %d, \"converged\": %s, \"precision\": \"%s\"", iters,
               st == LG_OK ? "true" : "false", a->use_float ? "float" : "double");
        json_end();
    }
    if (a->output)
        rc |= write_output(a->output, n, a->use_float ? score_line_f32 : score_line_f64, x);
done:
    free(x);
    free(xf);
    free(best);
    free(times);
    return rc;
}

static int run_cc(const struct session *s)
{
    const struct args *a = s->a;
    const int64_t n = lg_graph_num_vertices(s->g);
    lg_vertex_t *label = malloc((size_t)(n ? n : 1) * sizeof *label);
    int64_t *size = calloc((size_t)(n ? n : 1), sizeof *size);
    double *times = malloc((size_t)a->repeat * sizeof *times);
    int rc = 0;
    if (!label || !size || !times) {
        fprintf(stderr, "lgraph: out of memory\n");
        rc = 1;
        goto done;
    }
    int64_t count = 0;
    for (int i = 0; i < a->repeat; i++) {
        double t0 = now();
        lg_status_t st = lg_connected_components(s->ctx, s->g, label, &count);
        times[i] = now() - t0;
        if (st != LG_OK) {
            rc = fail("cc", st);
            goto done;
        }
    }
    int64_t largest = 0, singletons = 0;
    for (int64_t v = 0; v < n; v++)
        size[label[v]]++;
    for (int64_t v = 0; v < n; v++) {
        largest = size[v] > largest ? size[v] : largest;
        singletons += size[v] == 1;
    }
    printf("%s components: %lld (largest %lld vertices, %lld isolated), %.3f ms",
           lg_graph_is_directed(s->g) ? "weakly connected" : "connected", (long long)count,
           (long long)largest, (long long)singletons, times[0] * 1e3);
    if (a->repeat > 1)
        printf(" (median of %d: %.3f ms)", a->repeat, 1e3 * median_of(times, a->repeat));
    printf("\n");
    note_fallback(s, "cc");
    if (a->json) {
        json_begin(s, times, a->repeat);
        printf(", \"components\": %lld, \"largest\": %lld", (long long)count, (long long)largest);
        json_end();
    }
    if (a->output)
        rc = write_output(a->output, n, label_line, label);
done:
    free(label);
    free(size);
    free(times);
    return rc;
}

int main(int argc, char **argv)
{
    struct args a;
    lg_context_t *ctx = NULL;
    lg_graph_t *g = NULL;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : 2;

    lg_context_options_t co;
    lg_context_options_init(&co);
    co.backend = a.backend;
    co.num_threads = a.threads;
    lg_status_t st = lg_context_create(&ctx, &co);
    if (st != LG_OK)
        return fail("context", st);
    lg_backend_t used;
    struct session s = {ctx, NULL, &a, 1, 0.0, 0.0};
    lg_context_get_backend(ctx, &used);
    lg_context_get_num_threads(ctx, &s.threads);

    st = load(ctx, &a, &g, &s.build_s, &s.gen_s);
    if (st != LG_OK) {
        rc = fail(a.input, st);
        goto done;
    }
    s.g = g;
    const char *device = "?";
    lg_context_get_device(ctx, &device);
    printf("graph %s: %lld vertices, %lld arcs, %s%s, on %s", a.input,
           (long long)lg_graph_num_vertices(g), (long long)lg_graph_num_edges(g),
           lg_graph_is_directed(g) ? "directed" : "undirected",
           lg_graph_is_weighted(g) ? ", weighted" : "", device);
    if (used == LG_BACKEND_GPU) /* for what runs on the CPU (see note_fallback) */
        printf(" + cpu (%d thread%s)", s.threads, s.threads == 1 ? "" : "s");
    printf("\n");
    if (s.gen_s > 0.0)
        printf("generated edges in %.3f s, built the graph in %.3f s\n", s.gen_s, s.build_s);
    else
        printf("read and built the graph in %.3f s\n", s.build_s);

    if (!strcmp(a.command, "info")) {
        rc = run_info(ctx, g);
    } else if (!strcmp(a.command, "bfs")) {
        rc = run_bfs(&s);
    } else if (!strcmp(a.command, "pagerank")) {
        rc = run_pagerank(&s);
    } else if (!strcmp(a.command, "cc")) {
        rc = run_cc(&s);
    } else {
        double t0 = now();
        st = lg_graph_write(ctx, g, a.target, LG_FORMAT_AUTO);
        if (st != LG_OK)
            rc = fail(a.target, st);
        else
            printf("wrote %s in %.3f s\n", a.target, now() - t0);
    }
done:
    lg_graph_free(&g);
    lg_context_free(&ctx);
    return rc;
}
